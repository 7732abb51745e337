"""Golden playthrough of a seeded four-player game of Deukalion, and the example under
examples/ (issue 17): every record's phase and state_hash, a digest of each player's report
and the gazette, the first turn's reports in full; the public ledger byte for byte.

After an intended change, regenerate both (the reason goes in the commit message):

    PBEM_REGENERATE_GOLDEN=1 pytest tests/deukalion/test_golden.py
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo
from tests.golden_playthrough import check_example, check_golden

ROOT = Path(__file__).resolve().parent.parent.parent
GOLDEN = ROOT / "tests" / "golden" / "deukalion-4p-seed1.txt"
EXAMPLE = ROOT / "examples" / "deukalion-4p"
FULL_REPORTS_UNTIL = 3  # the join and the first turn, verbatim

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("deukalion-golden")]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("golden") / "demo"
    demo.run(games.get("deukalion"), root, players=4, seed="1", options={},
             resolve=games.get)
    return root / "campaign"


def test_golden_playthrough(played: Path) -> None:
    check_golden(played, GOLDEN, EXAMPLE, FULL_REPORTS_UNTIL,
                 "PBEM_REGENERATE_GOLDEN=1 pytest tests/deukalion/test_golden.py")


def test_example_is_this_campaign_and_passes_the_public_audit(played: Path) -> None:
    check_example(played, EXAMPLE)

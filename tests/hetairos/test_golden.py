"""Golden playthroughs of Hetairos (issue 18: one per scenario list: co-op, myth, solo, team)
and the examples under examples/: every record's phase and state_hash, a digest of
each player's report and the gazette, the first records' reports in full; the public ledger of
the example byte for byte.

After an intended change, regenerate (the reason goes in the commit message):

    PBEM_REGENERATE_GOLDEN=1 pytest tests/hetairos/test_golden.py
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo
from tests.golden_playthrough import check_example, check_golden

ROOT = Path(__file__).resolve().parent.parent.parent
#: list -> (scenario, players, golden file, example folder)
PLAYS = {
    "coop": ("beast-slayers", 3, "hetairos-coop-3p-seed1.txt", "hetairos-coop-3p"),
    "solo": ("to-glory", 3, "hetairos-solo-3p-seed1.txt", "hetairos-solo-3p"),
    "myth": ("songs-of-the-muses", 3, "hetairos-myth-3p-seed1.txt", "hetairos-myth-3p"),
    "team": ("war-games", 4, "hetairos-team-4p-seed1.txt", "hetairos-team-4p"),
}
ROUNDS = "7"  # seven rounds: continuations after halts, fights, lairs (and traps, solo)
FULL_REPORTS_UNTIL = 3

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("hetairos-golden")]


@pytest.fixture(scope="module", params=sorted(PLAYS))
def played(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    kind = request.param
    scen, players, _, _ = PLAYS[kind]
    root = tmp_path_factory.mktemp(f"golden-{kind}") / "demo"
    demo.run(games.get("hetairos"), root, players=players, seed="1",
             options={"scenario": scen, "rounds": ROUNDS}, resolve=games.get)
    return kind, root / "campaign"


def test_golden_playthrough(played: tuple[str, Path]) -> None:
    kind, campaign = played
    _, _, golden, example = PLAYS[kind]
    check_golden(campaign, ROOT / "tests" / "golden" / golden, ROOT / "examples" / example,
                 FULL_REPORTS_UNTIL,
                 "PBEM_REGENERATE_GOLDEN=1 pytest tests/hetairos/test_golden.py")


def test_example_is_this_campaign_and_passes_the_public_audit(played: tuple[str, Path]) -> None:
    kind, campaign = played
    check_example(campaign, ROOT / "examples" / PLAYS[kind][3])

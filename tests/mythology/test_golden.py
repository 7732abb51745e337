"""Golden playthrough of a seeded four-player Mythology campaign, and the example under
examples/ (issue 3): every record's phase and state_hash, a digest of each player's report and
the gazette, the first turn's reports in full; the public ledger byte for byte.

After an intended change, regenerate both (the reason goes in the commit message):

    PBEM_REGENERATE_GOLDEN=1 pytest tests/mythology/test_golden.py
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from pbem import games
from pbem.core import audit, demo, ledger
from pbem.core.campaign import open_campaign

ROOT = Path(__file__).resolve().parent.parent.parent
GOLDEN = ROOT / "tests" / "golden" / "mythology-4p-seed1.txt"
EXAMPLE = ROOT / "examples" / "mythology-4p"
FULL_REPORTS_UNTIL = 8  # records of the first turn whose reports are kept verbatim

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("golden") / "demo"
    demo.run(games.get("mythology"), root, players=4, seed="1", options={},
             resolve=games.get)
    return root / "campaign"


def playthrough(campaign: Path) -> str:
    lines = []
    for seq, data in ledger.iter_records(campaign / "ledger"):
        rec = ledger.load(data)
        lines.append(f"record {seq:06d} {rec['phase']} state_hash {rec['state_hash']}")
        reports = campaign / "gm" / "records" / f"{seq:06d}" / "reports"
        for path in sorted(reports.iterdir()):
            text = path.read_text()
            lines.append(f"  {path.stem:8} {hashlib.sha256(text.encode()).hexdigest()}")
            if seq <= FULL_REPORTS_UNTIL:
                lines += ["    | " + line for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def test_golden_playthrough(played: Path) -> None:
    got = playthrough(played)
    if os.environ.get("PBEM_REGENERATE_GOLDEN"):
        GOLDEN.write_text(got)
        shutil.rmtree(EXAMPLE, ignore_errors=True)
        shutil.copytree(played, EXAMPLE, ignore=lambda d, n: ["gm"] if Path(d) == played else [])
    want = GOLDEN.read_text()
    if got != want:
        for n, (a, b) in enumerate(zip(got.splitlines(), want.splitlines(), strict=False), 1):
            assert a == b, f"golden line {n} differs (see the module docstring to regenerate)"
        assert got == want, "the playthrough has a different length"


def test_example_is_this_campaign_and_passes_the_public_audit(played: Path) -> None:
    for path in sorted(EXAMPLE.rglob("*")):
        if path.is_file():
            rel = path.relative_to(EXAMPLE)
            assert (played / rel).read_bytes() == path.read_bytes(), rel
    result = audit.audit(open_campaign(EXAMPLE, games.get))
    assert result.replayed and result.game_over

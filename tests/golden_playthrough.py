"""The golden playthrough of a seeded demo campaign, shared by each game's golden test.

A playthrough lists every record's phase and state_hash, a digest of each player's report and
the gazette, and the first records' reports in full. After an intended change, regenerate a
game's golden file and example with ``PBEM_REGENERATE_GOLDEN=1`` (the reason goes in the
commit message).
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from pbem import games
from pbem.core import audit, ledger
from pbem.core.campaign import open_campaign


def playthrough(campaign: Path, full_reports_until: int) -> str:
    lines = []
    for seq, data in ledger.iter_records(campaign / "ledger"):
        rec = ledger.load(data)
        lines.append(f"record {seq:06d} {rec['phase']} state_hash {rec['state_hash']}")
        reports = campaign / "gm" / "records" / f"{seq:06d}" / "reports"
        for path in sorted(reports.iterdir()):
            text = path.read_text()
            lines.append(f"  {path.stem:8} {hashlib.sha256(text.encode()).hexdigest()}")
            if seq <= full_reports_until:
                lines += ["    | " + line for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def check_golden(played: Path, golden: Path, example: Path, full_reports_until: int,
                 regenerate: str) -> None:
    """``played`` (a demo's campaign) gives exactly the golden playthrough."""
    got = playthrough(played, full_reports_until)
    if os.environ.get("PBEM_REGENERATE_GOLDEN"):
        golden.write_text(got)
        shutil.rmtree(example, ignore_errors=True)
        shutil.copytree(played, example, ignore=lambda d, n: ["gm"] if Path(d) == played else [])
    want = golden.read_text()
    if got != want:
        for n, (a, b) in enumerate(zip(got.splitlines(), want.splitlines(), strict=False), 1):
            assert a == b, f"golden line {n} differs (regenerate: {regenerate})"
        assert got == want, "the playthrough has a different length"


def check_example(played: Path, example: Path) -> None:
    """The example under examples/ is this campaign's public part, and it audits."""
    for path in sorted(example.rglob("*")):
        if path.is_file():
            rel = path.relative_to(example)
            assert (played / rel).read_bytes() == path.read_bytes(), rel
    result = audit.audit(open_campaign(example, games.get))
    assert result.replayed and result.game_over

"""The example campaigns under examples/ audit, and the demo still produces them exactly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbem import games
from pbem.core import audit
from pbem.core.campaign import open_campaign

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "conformance-4p"


def test_example_campaign_passes_the_public_audit_with_full_replay() -> None:
    result = audit.audit(open_campaign(EXAMPLE, games.get))
    # join + 3 rounds of 4 phases
    assert result.replayed and result.game_over and result.records == 13


@pytest.mark.slow
def test_demo_reproduces_the_example_byte_for_byte(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pbem", "demo", "conformance", "--players", "4",
                    "--seed", "1", "--dir", str(tmp_path / "x")], check=True,
                   capture_output=True)
    made = tmp_path / "x" / "campaign"
    want = sorted(p.relative_to(EXAMPLE) for p in EXAMPLE.rglob("*") if p.is_file())
    for rel in want:
        assert (made / rel).read_bytes() == (EXAMPLE / rel).read_bytes(), (
            f"{rel} differs: see examples/README.md to regenerate after an intended change")

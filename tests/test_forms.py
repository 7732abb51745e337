"""Order forms read well in a phone's mail client: every line within 78 columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.forms import render_form
from pbem.core.ruleset import PhaseSpec

ROOT = Path(__file__).resolve().parent.parent
FORMS = sorted((ROOT / "orders").glob("*/*.toml"))


@pytest.mark.parametrize("path", FORMS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_annotated_form_lines_fit_78_columns(path: Path) -> None:
    long = [n for n, line in enumerate(path.read_text().splitlines(), 1) if len(line) > 78]
    assert long == [], f"{path}: lines {long} are longer than 78 columns"


def test_rendered_form_fits_78_columns_and_keeps_the_envelope() -> None:
    phase = PhaseSpec("t01.logsheet", "logsheet", ("alice",), sealed=True, reveal="game",
                      title="Turn 1: Log Sheet notation (202 B 1-2)")
    text = render_form("a-rather-long-campaign-name", "alice", phase, "zeus = 0\n", "a" * 64,
                       "b" * 64)
    assert all(len(line) <= 78 for line in text.splitlines()
               if not line.startswith(("salt", "entropy")))
    assert 'salt = "' + "a" * 64 + '"' in text and "Your orders are sealed" in text

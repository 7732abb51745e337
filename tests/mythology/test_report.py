"""Mythology reports: what each god may see, laid out for plain-text mail."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo, engine, ledger
from pbem.core.campaign import open_campaign
from pbem.games.mythology.components import load

# One xdist worker runs this module: its module-scoped fixtures are made once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("mythology-report")]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("report") / "demo"
    demo.run(games.get("mythology"), root, players=3, seed="r", options={}, resolve=games.get)
    return root / "campaign"


def _reports(campaign: Path, seq: int) -> dict[str, str]:
    folder = campaign / "gm" / "records" / f"{seq:06d}" / "reports"
    return {p.stem: p.read_text() for p in folder.iterdir()}


def test_every_report_line_fits_78_columns(played: Path) -> None:
    n = ledger.count(played / "ledger")
    for seq in range(1, n + 1):
        for who, text in _reports(played, seq).items():
            long = [line for line in text.splitlines() if len(line) > 78]
            assert long == [], (seq, who, long[:2])


def test_010_hand_and_006_log_sheet_only_in_their_owners_report(played: Path) -> None:
    c = load()
    campaign = open_campaign(played, games.get)
    seq = 12  # mid-turn 2: hands dealt, Log Sheets of turn 1 and 2 recorded
    state = engine.load_state(campaign, seq)
    assert state is not None
    reports = _reports(played, seq)
    for owner in state["seats"]:
        # A card id with its three sections is unique (god sections repeat across cards).
        texts = [f"{card}: god: {c.cards[int(card)].god.text[:30]}"
                 for card in state["hands"][owner]]
        mine = reports[owner]
        assert all(t in mine for t in texts)
        assert "YOUR LOG SHEET" in mine and "YOUR HAND" in mine
        assert f"Your Fate counter: {state['fate_held'][owner]}" in mine
        for other, text in reports.items():
            if other != owner:
                for card_text in texts:
                    assert card_text not in text, (owner, other)
    assert "YOUR LOG SHEET" not in reports["gazette"]


def test_009_C_log_sheets_revealed_in_the_final_report(played: Path) -> None:
    n = ledger.count(played / "ledger")
    gazette = _reports(played, n)["gazette"]
    assert "THE LOG SHEETS, REVEALED (009 C)" in gazette and "FINAL GLORY (216 A)" in gazette
    assert gazette.count("Turn  1  Hero") == 3  # one revealed sheet per god

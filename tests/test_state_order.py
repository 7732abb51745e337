"""Issue 20, target 1: "canonical JSON once per state (no parse back)". The state a record's
rules leave is the next record's as it is when its tables' keys are in sorted order, the order
of its canonical JSON (engine.next_state); otherwise it is parsed back from that JSON. The
rules keep the tables they make and grow in that order (ruleset.put_sorted, sorted_tree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import audit, demo, engine
from pbem.core.ruleset import put_sorted, sorted_tree


def test_put_sorted_keeps_a_table_in_key_order() -> None:
    table: dict[str, int] = {}
    for key in ("1", "2", "9", "10", "11", "3", "2"):
        put_sorted(table, key, int(key))
    assert list(table) == sorted(table) == ["1", "10", "11", "2", "3", "9"]
    units = {"5": 5}
    same = units
    put_sorted(units, "10", 10)  # in place: a caller holding the table sees the new key
    assert same is units and list(units) == ["10", "5"]


def test_sorted_tree_sorts_every_table_and_copies() -> None:
    given = {"retreat": {"when": "at_most", "units": 1}, "casualties": [{"z": 1, "a": 2}]}
    out = sorted_tree(given)
    assert out == given
    assert list(out) == ["casualties", "retreat"] and list(out["retreat"]) == ["units", "when"]
    assert list(out["casualties"][0]) == ["a", "z"]
    out["retreat"]["when"] = "never"
    assert given["retreat"]["when"] == "at_most"


#: Records whose state is parsed back, at most, in a bot campaign (the set-up, which builds
#: the state in the order of the game's own tables, and the end of the game, which adds the
#: result, may be).
@pytest.mark.parametrize(("game", "most"), [("mythology", 0.05), ("grecos", 0.05),
                                            ("cyclades", 0.15), ("mythology-basic", 0.15),
                                            ("deukalion", 0.1)])
def test_the_rules_leave_states_the_next_record_takes_without_a_parse(
        game: str, most: float, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = {"kept": 0, "parsed": 0}
    original = engine.next_state

    def counted(state: engine.State, state_json: bytes) -> engine.State:
        out = original(state, state_json)
        counts["kept" if out is state else "parsed"] += 1
        return out

    monkeypatch.setattr(engine, "next_state", counted)
    monkeypatch.setattr(audit, "audit", lambda *a, **k: audit.AuditResult())
    demo.run(games.get(game), tmp_path / "g", players=4, seed="order", options={},
             resolve=games.get, with_reports=False, jobs=1)
    records = counts["kept"] + counts["parsed"]
    assert records > 20
    assert counts["parsed"] <= most * records, counts

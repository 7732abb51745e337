"""Optional Rule 302, Prayer and Sacrifice."""

from __future__ import annotations

from typing import Any

from pbem.games.mythology import logsheet, prayer
from pbem.games.mythology.components import load
from tests.mythology.scenario import RULESET, new_game, rng

C = load()
HECTOR = 12


def _game(option: str = "on") -> dict[str, Any]:
    state = new_game()
    state["options"] = {"prayer": option}
    return state


def _problems(state: dict[str, Any], orders: dict[str, Any]) -> list[str]:
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "logsheet"
    return [str(p) for p in RULESET.validate(state, phase, state["seats"][0], orders)]


def test_302_optional_rule_refused_when_not_in_play() -> None:
    assert any("Optional Rule 302" in p for p in _problems(
        _game("off"), {"prayer": [{"glory": 2, "hero": HECTOR}]}))


def test_302_D_sacrifice_of_three_or_less_is_not_acceptable() -> None:
    assert any("three or less" in p for p in _problems(
        _game(), {"sacrifice": [{"glory": 3, "hero": HECTOR}]}))
    assert _problems(_game(), {"sacrifice": [{"glory": 4, "hero": HECTOR}]}) == []


def test_302_D_columns_prayer_10_per_point_sacrifice_20_per_point_over_three() -> None:
    assert prayer.Offer("prayer", 3, HECTOR).modifier() == 30
    assert prayer.Offer("sacrifice", 5, HECTOR).modifier() == 40
    # 302 I: a Helper counts five points and a Prize ten.
    assert prayer.Offer("sacrifice", 0, HECTOR, ("aegis",), ("helen",)).worth() == 15


def test_302_C_glory_is_lost_when_written_and_H_the_table_is_read_before_moving() -> None:
    state = _game()
    seats = state["seats"]
    orders = {p: {} for p in seats}
    orders[seats[0]] = {"prayer": [{"glory": 4, "hero": HECTOR}], "area": "greece"}
    for p in seats[1:]:
        orders[p] = {"area": "greece"}
    before = state["glory"][seats[0]]
    phase = RULESET.next_phase(state)
    assert phase is not None
    outcome = RULESET.resolve(state, phase, orders, rng("prayer"))
    # Every god named its Area, so placement and the 302 H check ran in the same record.
    assert state["glory"][seats[0]] == before - 4
    results = [e for e in outcome.events if e["type"] == "prayer"]
    assert len(results) == 1 and results[0]["column"] == 40
    roll = results[0]["roll"]
    expected = C.gods[state["gods"][seats[0]]].prayer.lookup(40, roll)
    assert results[0]["result"] == expected.kind
    assert state["step"] == "move"
    if expected.kind != "none":
        assert HECTOR in state["turn_effects"]["no_attack"]  # 302 G


def test_302_round_trip_through_the_log_sheet() -> None:
    sheet, problems = logsheet.parse({"sacrifice": [{"glory": 1, "hero": 3,
                                                     "helpers": ["aegis"]}]},
                                     hand=(), areas=("greece",), prayer=True)
    assert problems == []
    assert logsheet.LogSheet.from_dict(sheet.as_dict()) == sheet

"""Issue 12 §1 and §3 for Mythology: a mistake is caught at submit, by ``validate``, with what
only the dice or the other gods' sealed orders decide said by ``provisional``; a value of the
wrong type or a name in another case is read, not refused as unknown, and never raises."""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import PhaseSpec
from pbem.games.mythology import cards
from pbem.games.mythology.game import RULESET
from tests.mythology.scenario import (
    ATALANTA,
    EUBOEA,
    GREEK_SHORE,
    HERCULES,
    INLAND,
    INLAND_2,
    INLAND_3,
    JASON,
    MACEDONIA,
    SOW,
    C,
    State,
    place_helper,
    place_prize,
    put,
    quiet_scene,
    run,
    scene,
    write_sheet,
)


def _scene() -> tuple[State, str, PhaseSpec]:
    """Hercules in 3011 (the first player's), the Sow in Macedonia; no god halts or closes."""
    return quiet_scene({HERCULES: 3, JASON: 2})


def _problems(state: State, phase: PhaseSpec, player: str, orders: dict[str, Any]) -> list[str]:
    return [str(p) for p in RULESET.validate(state, phase, player, orders)]


def _pending(state: State, phase: PhaseSpec, player: str, orders: dict[str, Any]) -> list[str]:
    return [str(p) for p in RULESET.provisional(state, phase, player, orders)]


def _attempt(unit: int, path: list[Any], **more: Any) -> dict[str, Any]:
    return {"attempt": [{"unit": unit, "bid": 1, "path": path, **more}]}


# --- 204: paths ------------------------------------------------------------------------------


def test_204_G_path_too_long_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    path = [INLAND_2, INLAND_3, "3008"]
    problems = _problems(state, phase, ann, _attempt(HERCULES, path))
    assert any("moves 3 hexes; unit 6 may move 2 (204 G" in p for p in problems), problems
    doubler = next(h for h, x in C.helpers.items() if x.doubles_movement)
    place_helper(state, doubler, holder=HERCULES)  # 204 M: now three hexes are within four
    assert _problems(state, phase, ann, _attempt(HERCULES, path)) == []


def test_204_E_hex_not_on_the_map_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    problems = _problems(state, phase, ann, _attempt(HERCULES, ["9999"]))
    assert any("no hex 9999 on the map" in p for p in problems), problems


def test_204_F_skipped_hex_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    problems = _problems(state, phase, ann, _attempt(HERCULES, [INLAND_3]))
    assert any("not adjacent" in p and "204 E-F" in p for p in problems), problems


def test_204_J_hero_across_a_shoreline_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    put(state, HERCULES, GREEK_SHORE)
    problems = _problems(state, phase, ann, _attempt(HERCULES, [EUBOEA]))
    assert any("204 J" in p for p in problems), problems


def test_204_P_same_unit_attempted_twice_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    orders = {"attempt": [{"unit": HERCULES, "path": [INLAND_2]},
                          {"unit": HERCULES, "path": [INLAND_3]}]}
    problems = _problems(state, phase, ann, orders)
    assert any("#2 unit" in p and "204 P" in p for p in problems), problems


def test_011_terrain_closed_to_heroes_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    start, forest = next((h, n) for h in sorted(C.map.hexes) if C.map.is_land(h)
                         for n in C.map.neighbours(h) if C.map.is_forest(n)
                         and C.map.is_land(n) and not C.map.crosses_water(h, n))
    put(state, HERCULES, start)
    cards.effects(state)["terrain"].append({"area": C.map.area_of(forest), "feature": "forest"})
    problems = _problems(state, phase, ann, _attempt(HERCULES, [forest]))
    assert any("closed to Heroes" in p for p in problems), problems


def test_215_F_1_ship_away_from_a_shoreline_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    problems = _problems(state, phase, ann, _attempt(HERCULES, [], ship="start"))
    assert any("215 F 1" in p for p in problems), problems


def test_215_monster_takes_no_ship_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    problems = _problems(state, phase, ann, _attempt(SOW, [], ship="end"))
    assert any("only Heroes take ships" in p for p in problems), problems


# --- 205-215: combats and captures where the moves leave the units -------------------------------


def test_205_A_combat_with_a_monster_in_another_area_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    problems = _problems(state, phase, ann, {"combat": [{"attacker": HERCULES,
                                                         "defender": SOW}]})
    assert any("same hex (205 A)" in p for p in problems), problems


def test_205_A_combat_after_moving_in_is_accepted_and_provisional() -> None:
    state, ann, phase = _scene()
    put(state, SOW, INLAND_3)
    orders = {**_attempt(HERCULES, [INLAND_2, INLAND_3]),
              "combat": [{"attacker": HERCULES, "defender": SOW}]}
    assert _problems(state, phase, ann, orders) == []
    pending = _pending(state, phase, ann, orders)
    assert any(p.startswith("[[orders.combat]] #1: ") and "challenged (209)" in p
               for p in pending), pending
    # The first attempt waits for nothing: no interception on its way, no dice before it.
    assert not any(p.startswith("[[orders.attempt]]") for p in pending), pending


def test_205_K_one_combat_per_unit_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    put(state, SOW, INLAND)
    put(state, JASON, INLAND)
    orders = {"combat": [{"attacker": HERCULES, "defender": SOW},
                         {"attacker": JASON, "defender": SOW}]}
    problems = _problems(state, phase, ann, orders)
    assert any("#2" in p and "205 K" in p for p in problems), problems


def test_208_E_hero_attacks_only_for_his_controller_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    put(state, ATALANTA, MACEDONIA)  # no point on her, and not moved
    problems = _problems(state, phase, ann, {"combat": [{"attacker": ATALANTA,
                                                         "defender": SOW}]})
    assert any("208 E" in p for p in problems), problems


def test_208_H_control_by_points_is_provisional() -> None:
    state, ann, phase = _scene()
    put(state, JASON, MACEDONIA)  # two points on him: Control depends on the others' sheets
    orders = {"combat": [{"attacker": JASON, "defender": SOW}]}
    assert _problems(state, phase, ann, orders) == []
    assert any("208 H" in p for p in _pending(state, phase, ann, orders))


def test_214_A_3_e_hercules_in_remorse_may_not_fight_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    put(state, SOW, INLAND)
    state["remorse"] = state["turn"] + 1
    problems = _problems(state, phase, ann, {"combat": [{"attacker": HERCULES,
                                                         "defender": SOW}]})
    assert any("214 A 3 e" in p for p in problems), problems


def test_215_C_hero_aboard_a_ship_may_not_attack_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    put(state, JASON, MACEDONIA)
    state["ships"].append(JASON)
    problems = _problems(state, phase, ann, {"combat": [{"attacker": JASON,
                                                         "defender": SOW}]})
    assert any("215 C" in p for p in problems), problems


def test_212_D_capture_with_no_prize_in_the_hex_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    problems = _problems(state, phase, ann, {"capture": [{"hero": HERCULES}]})
    assert any("no Prize is free" in p for p in problems), problems


def test_212_D_4_one_capture_per_hero_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    prize = sorted(C.prizes)[0]
    place_prize(state, prize, INLAND)
    orders = {"capture": [{"hero": HERCULES}, {"hero": HERCULES}]}
    problems = _problems(state, phase, ann, orders)
    assert any("#2" in p and "212 D 4" in p for p in problems), problems


def test_210_I_occurrence_outside_the_gods_area_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    write_sheet(state, ann, occurrences=[("V", 2)])
    problems = _problems(state, phase, ann, {"activate": [{"code": "V", "hex": MACEDONIA}]})
    assert any("210 I-J" in p for p in problems), problems


def test_011_C_a_power_twice_rejected_at_submit() -> None:
    state, ann, phase = _scene()
    power = C.gods[state["gods"][ann]].powers[0].id
    orders = {"power": [{"id": power, "unit": HERCULES}, {"id": power, "unit": HERCULES}]}
    problems = _problems(state, phase, ann, orders)
    assert any(p.startswith("[[orders.power]] #2") for p in problems), problems


# --- §3: value types and names ---------------------------------------------------------------


def _logsheet_phase(state: State) -> PhaseSpec:
    state["step"] = "logsheet"
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "logsheet"
    return phase


def test_010_E_1_integer_card_id_is_read_as_the_card() -> None:
    state, seats = scene()
    ann = seats[0]
    state["hands"][ann] = ["24"]
    phase = _logsheet_phase(state)
    assert _problems(state, phase, ann, {"card": 24}) == []
    orders = {p: ({"card": 24} if p == ann else {}) for p in seats}
    run(state, orders, phase=phase)
    assert state["facedown"][ann] == "24"


def test_203_area_any_case_in_the_log_sheet_and_god_placement() -> None:
    state, seats = scene()
    ann = seats[0]
    phase = _logsheet_phase(state)
    assert _problems(state, phase, ann, {"area": "EGYPT"}) == []
    state["step"], state["order"], state["cursor"] = "place", list(seats), 0
    place = RULESET.next_phase(state)
    assert place is not None and place.kind == "place"
    assert _problems(state, place, ann, {"area": "Egypt"}) == []
    run(state, {"area": "Egypt"}, phase=place)
    assert state["god_area"][ann] == "egypt"


def test_204_integer_hexes_and_names_in_any_case_are_read() -> None:
    state, ann, phase = _scene()
    orders = {**_attempt(HERCULES, [int(INLAND_2)]),
              "power": [{"id": C.gods[state["gods"][ann]].powers[0].id.upper(),
                         "unit": HERCULES}]}
    assert _problems(state, phase, ann, orders) == []
    run(state, orders, phase=phase)
    assert state["heroes"][str(HERCULES)]["hex"] in (INLAND, INLAND_2)


def test_no_traceback_for_wrong_types_in_the_move_form() -> None:
    state, ann, phase = _scene()
    for orders in ({"card": {"section": "god", "unit": "x"}},
                   {"power": [{"id": "x", "unit": [1], "area": {}}]},
                   {"activate": [{"code": "E", "hex": "9999"}]},
                   {"attempt": [{"unit": True, "path": [None]}]},
                   {"capture": [{"hero": True}]},
                   {"combat": [{"attacker": 10**30, "defender": -1, "magic": "yes"}]}):
        assert _problems(state, phase, ann, orders), orders

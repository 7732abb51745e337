"""A game Turn of the Advanced Game (202-216), scene by scene, through the PBEM phases.

Each test stages a scene on the real map (a real set-up, then the board edited: see
:mod:`tests.mythology.scenario`) and resolves phases with ``RULESET.resolve``. Where a scene
needs a particular roll, the test searches a small range of dice keys for it and then checks
the roll it got. Tests are named after the clause they check.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from pbem.core.ruleset import Outcome
from pbem.games.mythology.game import RULESET
from pbem.games.mythology.logsheet import LogSheet
from pbem.games.mythology.rules import clockwise_from, control_of

from .scenario import (
    ACHILLES,
    AJAX,
    ATALANTA,
    CADMUS,
    CHARYBDIS,
    EUBOEA,
    GREEK_SHORE,
    HECTOR,
    HERCULES,
    HIPPOCAMPUS,
    INLAND,
    INLAND_2,
    INLAND_3,
    JASON,
    MACEDONIA,
    NESTOR,
    PERSEUS,
    SOW,
    THESEUS,
    ZESTES,
    C,
    Event,
    State,
    fate_phase,
    glory_delta,
    glory_events,
    hero_hex,
    moving_phase,
    new_game,
    of_type,
    place_helper,
    place_prize,
    put,
    run,
    scene,
    search,
    set_totals,
    status,
    write_sheet,
)


def moved(outcome: Outcome, unit: int) -> bool:
    return any(e["unit"] == unit for e in of_type(outcome, "move"))


def ship_rolled(ok: bool) -> Callable[[Outcome], bool]:
    return lambda o: any(e["success"] is ok for e in of_type(o, "ship-roll"))


def captured(ok: bool) -> Callable[[Outcome], bool]:
    return lambda o: any(e["success"] is ok for e in of_type(o, "capture-roll"))


# --- 202 B 1-2: the Log Sheet notation and Playing Card phases --------------------------------


def test_202_B_1_the_log_sheets_are_recorded_for_the_turn() -> None:
    state = new_game()
    a, b, c = state["seats"]
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.id == "t01.logsheet" and phase.sealed
    assert set(phase.actors) == {a, b, c}
    orders: dict[str, dict[str, Any]] = {
        a: {"heroes": {"12": 3, "4": 2}, "zeus": 5},
        b: {"monsters": {"40": 2}, "occurrences": [{"code": "E", "points": 3}], "aid": {"12": 1}},
        c: {}}
    for p in (a, b, c):
        assert RULESET.validate(state, phase, p, orders[p]) == []
    assert RULESET.validate(state, phase, a, {"heroes": {"12": 6}, "zeus": 5}) != []  # 007 B
    outcome = run(state, orders)
    assert LogSheet.from_dict(state["logsheets"][a]["1"]) == LogSheet(heroes={12: 3, 4: 2},
                                                                      zeus=5)
    stored_b = LogSheet.from_dict(state["logsheets"][b]["1"])
    assert stored_b.monsters == {40: 2} and stored_b.aid == {12: 1}
    assert [(o.code, o.points) for o in stored_b.occurrences] == [("E", 3)]
    assert LogSheet.from_dict(state["logsheets"][c]["1"]) == LogSheet()
    # Each god is told privately what was recorded; nobody else hears of it.
    points = {p: [e["power_points"] for e in outcome.private.get(p, [])
                  if e["type"] == "logsheet"] for p in (a, b, c)}
    assert points == {a: [10], b: [6], c: [0]}
    assert not of_type(outcome, "logsheet")


def test_208_I_hero_totals_add_up_and_a_turn_without_a_point_drops_them_to_zero() -> None:
    state = new_game()
    a, b, c = state["seats"]
    spent_by_a = [{"12": 3}, {"12": 5}, {}, {"12": 2}]   # 009 D 1: Hector 3, then 5 -> 8
    totals_of_a = [3, 8, 0, 2]
    for turn, (spent, total) in enumerate(zip(spent_by_a, totals_of_a, strict=True), start=1):
        state["turn"], state["step"] = turn, "logsheet"
        run(state, {a: {"heroes": spent} if spent else {}, b: {"heroes": {"12": 1}}, c: {}})
        assert state["hero_totals"][a].get("12", 0) == total
        assert state["hero_totals"][b]["12"] == turn
        if turn == 3:  # a skipped Hector: b, with 3 against 0, Controls him (208 H)
            assert control_of(state, HECTOR) == b
    assert control_of(state, HECTOR) == b  # 4 against 2: a starts again from 0


def test_202_B_2_a_face_down_card_leaves_the_hand_and_only_its_placing_is_public() -> None:
    state = new_game()
    a, b, c = state["seats"]
    hand = list(state["hands"][a])
    results: list[tuple[State, Outcome]] = []
    for card in hand[:2]:
        s = copy.deepcopy(state)
        outcome = run(s, {a: {"card": card}, b: {}, c: {}})
        assert card not in s["hands"][a] and len(s["hands"][a]) == len(hand) - 1
        assert s["facedown"][a] == card
        assert [e["player"] for e in of_type(outcome, "card-face-down")] == [a]
        assert RULESET.view(s, a)["facedown_card"] == card
        results.append((s, outcome))
    (s1, first), (s2, second) = results
    # Whichever card it was, the public record and the other gods' views are the same.
    assert first.events == second.events
    for p in (b, c, None):
        assert RULESET.view(s1, p) == RULESET.view(s2, p)
        if p is not None:
            assert first.private.get(p) == second.private.get(p)
    assert RULESET.view(s1, b)["facedown"][a] is True


# --- 202 B 3, 203: God Placement -----------------------------------------------------------------


def roll_winner(events: list[Event], seats: list[str]) -> tuple[str, int]:
    """202 B 3: replay the "roll" events: everyone rolls, the tied highest roll again; the
    winner and how many rounds it took."""
    rolls = [e for e in events if e["type"] == "roll"]
    contenders, rounds, i = list(seats), 0, 0
    while True:
        round_rolls = rolls[i:i + len(contenders)]
        i += len(contenders)
        rounds += 1
        assert [e["player"] for e in round_rolls] == contenders
        top = max(e["roll"] for e in round_rolls)
        contenders = [e["player"] for e in round_rolls if e["roll"] == top]
        if len(contenders) == 1:
            assert i == len(rolls)
            return contenders[0], rounds


def test_202_B_3_the_highest_roll_places_first_then_clockwise() -> None:
    state = new_game(("ann", "ben", "cyd", "dee"))
    seats = state["seats"]
    outcome = search(state, {p: {} for p in seats},
                     lambda o: roll_winner(o.events, seats)[1] == 1)
    state = outcome.state
    first, _ = roll_winner(outcome.events, seats)
    top = max(e["roll"] for e in of_type(outcome, "roll"))
    assert [e["player"] for e in of_type(outcome, "roll") if e["roll"] == top] == [first]
    assert state["order"] == clockwise_from(seats, first)
    assert of_type(outcome, "order")[-1]["order"] == state["order"]
    areas = ["egypt", "thrace", "egypt", "greece"]
    for p, area in zip(clockwise_from(seats, first), areas, strict=True):
        phase = RULESET.next_phase(state)
        assert phase is not None and phase.kind == "place" and phase.active == p
        last = run(state, {"area": area})
    assert [state["god_area"][p] for p in clockwise_from(seats, first)] == areas  # 203 B-C
    # 202 B 4: after the last god is placed everyone rolls again for the Moving Players.
    mover, _ = roll_winner(last.events, seats)
    assert state["step"] == "move" and state["order"] == clockwise_from(seats, mover)
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "move" and phase.active == mover


def test_202_B_3_tied_highest_rolls_roll_again() -> None:
    state = new_game(("ann", "ben", "cyd", "dee"))
    seats = state["seats"]
    outcome = search(state, {p: {} for p in seats},
                     lambda o: roll_winner(o.events, seats)[1] > 1)
    rolls = of_type(outcome, "roll")
    top = max(e["roll"] for e in rolls[:4])
    tied = [e["player"] for e in rolls[:4] if e["roll"] == top]
    assert len(tied) > 1 and [e["player"] for e in rolls[4:4 + len(tied)]] == tied
    winner, _ = roll_winner(outcome.events, seats)
    assert winner in tied and outcome.state["order"] == clockwise_from(seats, winner)


def test_203_a_standing_area_places_the_god_without_a_phase() -> None:
    state = new_game()
    seats = state["seats"]
    waiting = seats[1]
    orders: dict[str, dict[str, Any]] = {p: {"area": "egypt"} for p in seats}
    orders[waiting] = {}
    outcome = run(state, orders)
    order = state["order"]
    before = order[:order.index(waiting)]
    assert [e["player"] for e in of_type(outcome, "god-placed")] == before
    assert all(state["god_area"][p] == "egypt" for p in before)
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "place" and phase.active == waiting
    outcome = run(state, {"area": "egypt"})
    assert all(state["god_area"][p] == "egypt" for p in seats)  # 203 B-C: any number
    assert [e["player"] for e in of_type(outcome, "god-placed")] == order[order.index(waiting):]
    assert state["step"] == "move"
    # Everyone with a standing Area: no God Placement phase at all.
    state = new_game()
    run(state, {p: {"area": "thrace"} for p in state["seats"]})
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "move"
    assert set(state["god_area"].values()) == {"thrace"}


def test_203_D_by_default_a_god_stays_in_its_area_or_goes_to_greece() -> None:
    state = new_game()
    run(state, {p: {} for p in state["seats"]})
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "place" and phase.active is not None
    p = phase.active
    assert RULESET.default_orders(state, phase, p) == {"area": "greece"}
    state["god_area"][p] = "libya"  # where it stood in the last Turn
    default = RULESET.default_orders(state, phase, p)
    assert default == {"area": "libya"} and RULESET.validate(state, phase, p, default) == []
    assert RULESET.validate(state, phase, p, {"area": "atlantis"}) != []
    run(state, default)
    assert state["god_area"][p] == "libya"


def test_202_B_a_god_who_sends_nothing_spends_nothing_and_moves_nothing() -> None:
    state = new_game()
    phase = RULESET.next_phase(state)
    assert phase is not None
    for p in state["seats"]:
        assert RULESET.default_orders(state, phase, p) == {}
        assert RULESET.validate(state, phase, p, {}) == []
    state, seats = scene()
    phase = moving_phase(state, seats[0])
    assert RULESET.default_orders(state, phase, seats[0]) == {}


# --- 202 B 4, 204, 209: attempts, challenges and movement ------------------------------------


def test_216_G_5_an_unchallenged_attempt_moves_the_hero_for_one_glory() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2, INLAND_3]}]},
                  phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == INLAND_3
    assert of_type(outcome, "unchallenged") and not of_type(outcome, "challenge")
    assert glory_delta(before, state["glory"]) == {a: 1} == glory_events(outcome)
    # A Monster moves the same way but brings no Glory (216 G 5 is about Heroes).
    put(state, SOW, MACEDONIA)
    state["cursor"] = 1
    outcome = run(state, {"attempt": [{"unit": SOW, "path": ["2909", "2910"]}]})
    assert state["monsters"][str(SOW)]["hex"] == "2910" and glory_events(outcome) == {}


def test_209_a_standing_challenge_with_a_higher_limit_stops_the_move() -> None:
    state, (a, b, _) = scene()
    put(state, HECTOR, INLAND)
    set_totals(state, a, {HECTOR: 3})
    set_totals(state, b, {HECTOR: 6})
    write_sheet(state, b, heroes={HECTOR: 1}, challenges=[(HECTOR, 6, 0)])
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "bid": 3, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == INLAND and not moved(outcome, HECTOR)
    result = of_type(outcome, "challenge_result")
    assert [(e["winner"], e["loser"]) for e in result] == [(b, a)]
    assert glory_delta(before, state["glory"]) == {a: -1, b: 1} == glory_events(outcome)


def test_209_D_1_216_G_6_a_mover_who_wins_a_challenge_gains_two() -> None:
    state, (a, b, _) = scene()
    put(state, HECTOR, INLAND)
    set_totals(state, a, {HECTOR: 3})
    set_totals(state, b, {HECTOR: 2})
    write_sheet(state, b, heroes={HECTOR: 1}, challenges=[(HECTOR, 10, 0)])  # capped at 2
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "bid": 3, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    assert [e["winner"] for e in of_type(outcome, "challenge_result")] == [a]
    assert max(e["points"] for e in of_type(outcome, "announce") if e["player"] == b) <= 2
    assert hero_hex(state, HECTOR) == INLAND_2
    assert glory_delta(before, state["glory"]) == {a: 2, b: -1}


def test_209_a_challenge_below_its_min_total_is_not_made() -> None:
    state, (a, b, _) = scene()
    put(state, HECTOR, INLAND)
    set_totals(state, a, {HECTOR: 3})
    set_totals(state, b, {HECTOR: 6})
    write_sheet(state, b, heroes={HECTOR: 1}, challenges=[(HECTOR, 6, 7)])
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "bid": 3, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    assert not of_type(outcome, "challenge") and hero_hex(state, HECTOR) == INLAND_2
    assert glory_delta(before, state["glory"]) == {a: 1}


FIVE = [(PERSEUS, "2911", "2912"), (CADMUS, "2810", "2709"), (THESEUS, "2610", "2509"),
        (JASON, "2913", "2914"), (ATALANTA, "2813", "2713")]


def test_209_H_a_lost_challenge_counts_and_no_more_than_five_attempts_are_made() -> None:
    state, (a, b, _) = scene()
    put(state, HECTOR, INLAND)
    set_totals(state, b, {HECTOR: 6})
    write_sheet(state, b, heroes={HECTOR: 1}, challenges=[(HECTOR, 6, 0)])
    for hero, start, _ in FIVE:
        put(state, hero, start)
    orders = {"attempt": [{"unit": HECTOR, "path": [INLAND_2]}]
              + [{"unit": hero, "path": [to]} for hero, _, to in FIVE]}
    phase = moving_phase(state, a)
    assert any("204 A" in p.message for p in RULESET.validate(state, phase, a, orders))
    outcome = run(state, orders, phase=phase)
    assert len(of_type(outcome, "attempt")) == 5
    assert hero_hex(state, HECTOR) == INLAND  # lost to b: one of the five (209 H)
    for hero, _, to in FIVE[:4]:
        assert hero_hex(state, hero) == to
    hero, start, _ = FIVE[4]
    assert hero_hex(state, hero) == start  # the sixth attempt is never made (204 A)


def test_209_E_a_unit_lost_to_a_challenge_may_not_be_moved_this_phase() -> None:
    state, (a, b, _) = scene()
    put(state, HECTOR, INLAND)
    set_totals(state, a, {HECTOR: 4})
    set_totals(state, b, {HECTOR: 4})
    write_sheet(state, b, heroes={HECTOR: 1}, challenges=[(HECTOR, 4, 0)])
    moving_phase(state, a)
    again = {"unit": HECTOR, "bid": 4, "path": [INLAND_2]}

    def lost_first(o: Outcome) -> bool:
        """The draw goes to Zeus Arbitration and a loses it; then either no second auction is
        held (209 E) or, as now, one is held and a wins it."""
        control = of_type(o, "control")
        return bool(control) and not control[0]["moved"] and all(c["moved"] for c in control[1:])
    outcome = search(state, {"attempt": [again, again]}, lost_first)
    assert hero_hex(outcome.state, HECTOR) == INLAND


def test_204_E_F_a_path_stops_before_its_first_illegal_step() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2, "3212"]}]},
                  phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == INLAND_2  # 3212 is not next to 3010
    assert [e["unit"] for e in of_type(outcome, "move-stopped")] == [HECTOR]
    assert [e["path"] for e in of_type(outcome, "move")] == [[INLAND_2]]
    assert glory_delta(before, state["glory"]) == {a: 1}
    # 204 G: two hexes, not three.
    state["cursor"] = 1
    run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_3, "2908", "2907"]}]})
    assert hero_hex(state, HECTOR) == "2908"


def test_204_J_from_3111_a_hero_needs_a_ship_to_reach_3112() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, GREEK_SHORE)
    put(state, AJAX, INLAND)
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [EUBOEA]},
                                      {"unit": AJAX, "path": ["3110", "3211"]}]},
                  phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == GREEK_SHORE
    assert hero_hex(state, AJAX) == "3110"  # 3211 is all water (204 C, 215 A)
    assert {e["unit"] for e in of_type(outcome, "move-stopped")} == {HECTOR, AJAX}
    assert glory_delta(before, state["glory"]) == {a: 1}  # only Ajax moved
    # 2711 -> 2812 crosses the Gulf of Corinth: a strait is water too.
    state["cursor"] = 1
    put(state, PERSEUS, "2711")
    run(state, {"attempt": [{"unit": PERSEUS, "path": ["2812"]}]})
    assert hero_hex(state, PERSEUS) == "2711"


def test_204_G_M_a_hero_moves_two_hexes_a_phase_however_often_he_is_attempted() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    before = dict(state["glory"])
    run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2, INLAND_3]},
                            {"unit": HECTOR, "path": ["2908", "2907"]},
                            {"unit": HECTOR, "path": ["2906", "2806"]}]},
        phase=moving_phase(state, a))
    assert C.map.distance(INLAND, hero_hex(state, HECTOR)) <= 2
    assert glory_delta(before, state["glory"]) == {a: 1}


def test_204_M_211_a_helper_that_doubles_movement_gives_four_hexes_never_more() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    place_helper(state, "winged_sandals", holder=HECTOR)
    path = [INLAND_2, INLAND_3, "2908", "2907", "2906"]
    run(state, {"attempt": [{"unit": HECTOR, "path": path}]}, phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == "2907"


# --- 211: Hero Helpers ---------------------------------------------------------------------------


def test_211_B_a_hero_entering_a_hex_with_a_helper_and_no_other_unit_takes_it() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    place_helper(state, "harpe", INLAND_2)       # passed through: taken
    place_helper(state, "aegis", "2911")         # with a Monster: left (211 J)
    put(state, SOW, "2911")
    place_helper(state, "moly", "2909")          # with another Hero: left (211 B)
    put(state, NESTOR, "2909")
    put(state, AJAX, "2912")
    put(state, PERSEUS, "3009")
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2, INLAND_3]},
                                      {"unit": AJAX, "path": ["2911"]},
                                      {"unit": PERSEUS, "path": ["2909"]}]},
                  phase=moving_phase(state, a))
    assert state["helpers"]["harpe"] == {"hex": "", "holder": HECTOR}
    assert state["helpers"]["aegis"] == {"hex": "2911", "holder": 0}
    assert state["helpers"]["moly"] == {"hex": "2909", "holder": 0}
    assert [(e["hero"], e["helper"]) for e in of_type(outcome, "helper-taken")] == [
        (HECTOR, "harpe")]


def test_211_G_a_hero_may_leave_a_helper_where_he_ends() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    place_helper(state, "harpe", holder=HECTOR)
    place_helper(state, "moly", holder=HECTOR)
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2],
                                       "drop": ["harpe"]}]}, phase=moving_phase(state, a))
    assert state["helpers"]["harpe"] == {"hex": INLAND_2, "holder": 0}
    assert state["helpers"]["moly"] == {"hex": "", "holder": HECTOR}
    assert [e["helper"] for e in of_type(outcome, "helper-dropped")] == ["harpe"]


# --- 215: ships ----------------------------------------------------------------------------------


def test_215_F_2_a_ship_roll_not_above_the_defense_gives_a_ship() -> None:
    state, (a, _, _) = scene()
    put(state, ZESTES, GREEK_SHORE)
    orders = {"attempt": [{"unit": ZESTES, "path": [EUBOEA], "ship": "start"}]}
    moving_phase(state, a)
    outcome = search(state, orders, ship_rolled(True), tries=100)
    roll = of_type(outcome, "ship-roll")[0]["roll"]
    assert roll <= C.heroes[ZESTES].defense
    assert ZESTES in outcome.state["ships"] and hero_hex(outcome.state, ZESTES) == EUBOEA


def test_215_F_2_a_failed_ship_roll_ends_that_heros_movement() -> None:
    state, (a, _, _) = scene()
    put(state, ZESTES, GREEK_SHORE)
    put(state, HECTOR, INLAND)
    before = dict(state["glory"])
    # A path he could walk without a ship: only the failed roll keeps him where he is.
    orders = {"attempt": [{"unit": ZESTES, "path": ["3110"], "ship": "start"},
                          {"unit": HECTOR, "path": [INLAND_2]}]}
    moving_phase(state, a)
    outcome = search(state, orders, ship_rolled(False), tries=100)
    roll = of_type(outcome, "ship-roll")[0]["roll"]
    assert roll > C.heroes[ZESTES].defense
    assert ZESTES not in outcome.state["ships"]
    assert hero_hex(outcome.state, ZESTES) == GREEK_SHORE and not moved(outcome, ZESTES)
    assert hero_hex(outcome.state, HECTOR) == INLAND_2  # only that Hero's activities end
    assert glory_delta(before, outcome.state["glory"]) == {a: 1}


def test_215_F_2_after_a_failed_ship_roll_the_hero_neither_fights_nor_captures() -> None:
    state, (a, _, _) = scene()
    put(state, ZESTES, GREEK_SHORE)
    put(state, HIPPOCAMPUS, GREEK_SHORE)
    place_prize(state, "andromeda", GREEK_SHORE)
    write_sheet(state, a, aid={ZESTES: 5})  # Attack 70: he cannot fail against Hippocampus
    orders = {"attempt": [{"unit": ZESTES, "path": [EUBOEA], "ship": "start"}],
              "combat": [{"attacker": ZESTES, "defender": HIPPOCAMPUS}],
              "capture": [{"hero": ZESTES}]}
    moving_phase(state, a)
    outcome = search(state, orders, ship_rolled(False), tries=100)
    assert not of_type(outcome, "combat") and status(outcome.state, HIPPOCAMPUS) == "board"
    assert not of_type(outcome, "capture-roll")


def test_215_C_G_a_hero_aboard_a_ship_neither_attacks_nor_captures() -> None:
    state, (a, _, _) = scene()
    put(state, ZESTES, EUBOEA)
    state["ships"].append(ZESTES)
    put(state, HIPPOCAMPUS, EUBOEA)
    place_prize(state, "andromeda", EUBOEA)
    set_totals(state, a, {ZESTES: 3})
    outcome = run(state, {"combat": [{"attacker": ZESTES, "defender": HIPPOCAMPUS}],
                          "capture": [{"hero": ZESTES}]}, phase=moving_phase(state, a))
    assert [e["attacker"] for e in of_type(outcome, "combat-void")] == [ZESTES]
    assert [e["hero"] for e in of_type(outcome, "capture-void")] == [ZESTES]
    assert status(state, HIPPOCAMPUS) == "board" and not of_type(outcome, "capture-roll")


def test_215_H_a_hero_who_leaves_his_ship_is_no_longer_aboard() -> None:
    state, (a, _, _) = scene()
    put(state, ZESTES, EUBOEA)
    state["ships"].append(ZESTES)
    moving_phase(state, a)
    outcome = search(state, {"attempt": [{"unit": ZESTES, "path": [], "ship": "start",
                                          "leave_ship": True}]},
                     lambda o: not any(not e["success"] for e in of_type(o, "ship-roll")))
    assert ZESTES not in outcome.state["ships"]


def test_205_I_a_hero_killed_on_his_way_does_not_try_for_a_ship() -> None:
    state, (a, b, _) = scene()
    put(state, NESTOR, INLAND)
    put(state, CHARYBDIS, GREEK_SHORE)  # Attack 50, Defense 99: Nestor cannot win
    state["logsheets"][b]["1"] = {"monsters": {str(CHARYBDIS): 3},
                                  "intercepts": [{"unit": CHARYBDIS, "target": 0}]}
    outcome = run(state, {"attempt": [{"unit": NESTOR, "path": [GREEK_SHORE], "ship": "end"}]},
                  phase=moving_phase(state, a))
    assert status(state, NESTOR) == "dead" and not of_type(outcome, "ship-roll")


# --- 205-208: combat in a Moving Player Phase ---------------------------------------------------


def test_205_A_combat_only_between_units_in_the_same_hex() -> None:
    state, (a, _, _) = scene()
    put(state, AJAX, INLAND)
    put(state, SOW, INLAND_2)
    set_totals(state, a, {AJAX: 3})
    outcome = run(state, {"combat": [{"attacker": AJAX, "defender": SOW}]},
                  phase=moving_phase(state, a))
    assert of_type(outcome, "combat-void") and not of_type(outcome, "combat")
    assert status(state, AJAX) == status(state, SOW) == "board"


def test_208_E_a_hero_attacks_only_for_the_player_who_controls_him() -> None:
    state, (a, b, _) = scene()
    put(state, AJAX, INLAND)
    put(state, SOW, INLAND)
    set_totals(state, b, {AJAX: 5})
    outcome = run(state, {"combat": [{"attacker": AJAX, "defender": SOW}]},
                  phase=moving_phase(state, a))
    assert [e["attacker"] for e in of_type(outcome, "combat-void")] == [AJAX]
    assert status(state, SOW) == "board"
    # 208 D: a Monster attacks without being Controlled.
    state["cursor"] = 1
    outcome = run(state, {"combat": [{"attacker": SOW, "defender": AJAX}]})
    assert [(e["attacker"], e["defender"]) for e in of_type(outcome, "combat")] == [(SOW, AJAX)]
    assert of_type(outcome, "killed")


def test_209_G_a_hero_the_mover_moved_is_his_to_attack_with() -> None:
    state, (a, _, _) = scene()
    put(state, ACHILLES, INLAND)
    put(state, HIPPOCAMPUS, INLAND_2)
    write_sheet(state, a, aid={ACHILLES: 2})  # Attack 60: 11 + 60 >= 62, he cannot fail
    outcome = run(state, {"attempt": [{"unit": ACHILLES, "path": [INLAND_2]}],
                          "combat": [{"attacker": ACHILLES, "defender": HIPPOCAMPUS}]},
                  phase=moving_phase(state, a))
    assert status(state, HIPPOCAMPUS) == "dead" and of_type(outcome, "combat")


def test_205_K_no_unit_attacks_or_is_attacked_twice_in_a_phase() -> None:
    state, (a, b, _) = scene()
    put(state, ACHILLES, INLAND)
    put(state, HIPPOCAMPUS, INLAND)
    put(state, SOW, INLAND)
    set_totals(state, a, {ACHILLES: 3})
    write_sheet(state, a, heroes={ACHILLES: 1}, aid={ACHILLES: 2})  # Attack 60
    outcome = run(state, {"combat": [{"attacker": ACHILLES, "defender": HIPPOCAMPUS},
                                     {"attacker": ACHILLES, "defender": SOW},
                                     {"attacker": SOW, "defender": ACHILLES}]},
                  phase=moving_phase(state, a))
    assert [(e["attacker"], e["defender"]) for e in of_type(outcome, "combat")] == [
        (ACHILLES, HIPPOCAMPUS)]
    assert len(of_type(outcome, "combat-void")) == 2
    assert status(state, HIPPOCAMPUS) == "dead" and status(state, SOW) == "board"
    # In the next Moving Player's phase they may fight again.
    state["cursor"] = 1
    set_totals(state, b, {ACHILLES: 9})
    outcome = run(state, {"combat": [{"attacker": ACHILLES, "defender": SOW}]})
    assert [(e["attacker"], e["defender"]) for e in of_type(outcome, "combat")] == [
        (ACHILLES, SOW)]


def test_211_H_212_E_a_killed_hero_leaves_his_helpers_and_prizes_in_his_hex() -> None:
    state, (a, _, _) = scene()
    put(state, AJAX, INLAND)
    put(state, NESTOR, INLAND)
    place_helper(state, "lion_skin", holder=NESTOR)  # Defense 80: Ajax can still kill him
    place_prize(state, "helen", holder=NESTOR)
    set_totals(state, a, {AJAX: 3})
    run(state, {"combat": [{"attacker": AJAX, "defender": NESTOR}]},
        phase=moving_phase(state, a))
    assert status(state, NESTOR) == "dead" and hero_hex(state, NESTOR) == ""
    assert state["helpers"]["lion_skin"] == {"hex": INLAND, "holder": 0}
    assert state["prizes"]["helen"]["hex"] == INLAND and state["prizes"]["helen"]["holder"] == 0
    assert status(state, AJAX) == "board"


def test_216_G_3_a_a_monster_killed_by_a_controlled_hero_gives_three() -> None:
    state, (a, _, _) = scene()
    put(state, ACHILLES, INLAND)
    put(state, HIPPOCAMPUS, INLAND)
    set_totals(state, a, {ACHILLES: 3})
    write_sheet(state, a, heroes={ACHILLES: 1}, aid={ACHILLES: 2})
    before = dict(state["glory"])
    outcome = run(state, {"combat": [{"attacker": ACHILLES, "defender": HIPPOCAMPUS}]},
                  phase=moving_phase(state, a))
    assert status(state, HIPPOCAMPUS) == "dead"
    assert glory_delta(before, state["glory"]) == {a: 3} == glory_events(outcome)


def test_216_G_3_a_the_controller_of_a_hero_who_kills_an_attacking_monster_gains() -> None:
    state, (a, b, _) = scene()
    put(state, NESTOR, INLAND)
    put(state, SOW, INLAND)
    set_totals(state, b, {NESTOR: 7})
    before = dict(state["glory"])
    moving_phase(state, a)  # a's Sow attacks; b's Nestor wins
    outcome = search(state, {"combat": [{"attacker": SOW, "defender": NESTOR}]},
                     lambda o: status(o.state, SOW) == "dead"
                     and status(o.state, NESTOR) == "board")
    assert glory_delta(before, outcome.state["glory"]) == {b: 3}


@pytest.mark.parametrize(("points", "gain"), [
    ({"b": 7}, 2),            # 216 G 4 a: 7 / 5 rounded up
    ({"b": 3}, 1),            # 216 G 4 a: less than five but at least one
    ({"b": 14, "c": 2}, 3),   # the highest total counts (the example: 14 -> 3)
    ({}, -5),                 # 216 G 4 b: nobody Controlled him
    ({"a": 5, "b": 2}, -5),   # 216 G 4 c: the killer Controlled him
])
def test_216_G_4_glory_for_killing_a_hero(points: dict[str, int], gain: int) -> None:
    state, seats = scene()
    names = dict(zip("abc", seats, strict=True))
    put(state, AJAX, INLAND)
    put(state, NESTOR, INLAND)  # Ajax can kill Nestor; Nestor (66 + 10 < 78) cannot kill Ajax
    for p in seats:
        set_totals(state, p, {AJAX: 4} if p == names["a"] else {})
    for key, total in points.items():
        state["hero_totals"][names[key]][str(NESTOR)] = total
    before = dict(state["glory"])
    outcome = run(state, {"combat": [{"attacker": AJAX, "defender": NESTOR}]},
                  phase=moving_phase(state, names["a"]))
    assert status(state, NESTOR) == "dead"
    assert glory_delta(before, state["glory"]) == {names["a"]: gain} == glory_events(outcome)


def test_216_G_4_a_no_glory_when_the_killing_monster_was_not_controlled() -> None:
    state, (a, b, _) = scene()
    put(state, SOW, INLAND)
    put(state, NESTOR, INLAND)
    set_totals(state, b, {NESTOR: 7})

    def nestor_dies(o: Outcome) -> bool:
        return status(o.state, NESTOR) == "dead" and status(o.state, SOW) == "board"
    moving_phase(state, a)
    orders = {"combat": [{"attacker": SOW, "defender": NESTOR}]}
    before = dict(state["glory"])
    uncontrolled = search(state, orders, nestor_dies)
    assert glory_delta(before, uncontrolled.state["glory"]) == {}
    write_sheet(state, a, monsters={SOW: 2})  # 208 J: a Controls the Sow this Turn
    controlled = search(state, orders, nestor_dies)
    assert glory_delta(before, controlled.state["glory"]) == {a: 2}


# --- 212, 216 G 2: Prizes ------------------------------------------------------------------------


def prize_scene() -> tuple[State, list[str]]:
    state, seats = scene()
    put(state, AJAX, INLAND)
    place_helper(state, "harpe", holder=AJAX)
    place_prize(state, "helen", INLAND)
    set_totals(state, seats[0], {AJAX: 3})
    moving_phase(state, seats[0])
    return state, seats


def test_212_D_3_the_capture_roll_plus_attack_and_helpers_against_the_prize_defense() -> None:
    state, (a, _, _) = prize_scene()
    bonus = C.heroes[AJAX].attack + C.helpers["harpe"].attack
    defense = C.prizes["helen"].defense
    before = dict(state["glory"])
    for ok in (True, False):
        outcome = search(state, {"capture": [{"hero": AJAX}]}, captured(ok))
        roll = of_type(outcome, "capture-roll")[0]
        assert roll["total"] == roll["roll"] + bonus and (roll["total"] >= defense) is ok
        helen = outcome.state["prizes"]["helen"]
        if ok:
            assert helen["holder"] == AJAX and helen["hex"] == "" and helen["scored"] == [a]
            assert glory_delta(before, outcome.state["glory"]) == {a: 5}  # 216 G 2 a
        else:
            assert helen["holder"] == 0 and helen["hex"] == INLAND and helen["scored"] == []
            assert glory_delta(before, outcome.state["glory"]) == {}


def test_212_D_4_one_capture_attempt_per_hero_per_phase() -> None:
    state, _ = prize_scene()
    outcome = search(state, {"capture": [{"hero": AJAX}, {"hero": AJAX}]}, captured(False))
    assert len(of_type(outcome, "capture-roll")) == 1
    assert [e["hero"] for e in of_type(outcome, "capture-void")] == [AJAX]


def test_212_a_hero_the_mover_does_not_control_captures_nothing() -> None:
    state, (a, b, _) = prize_scene()
    set_totals(state, a, {})
    set_totals(state, b, {AJAX: 5})
    outcome = run(state, {"capture": [{"hero": AJAX}]})
    assert not of_type(outcome, "capture-roll") and of_type(outcome, "capture-void")


def test_216_G_2_d_the_same_player_never_scores_the_same_prize_twice() -> None:
    state, (a, _, _) = prize_scene()
    state["prizes"]["helen"]["scored"] = [a]
    before = dict(state["glory"])
    outcome = search(state, {"capture": [{"hero": AJAX}]}, captured(True))
    assert outcome.state["prizes"]["helen"]["holder"] == AJAX
    assert glory_delta(before, outcome.state["glory"]) == {}
    assert outcome.state["prizes"]["helen"]["scored"] == [a]


def test_216_G_2_e_a_captured_prize_may_be_taken_off_the_board() -> None:
    state, (a, _, _) = prize_scene()
    before = dict(state["glory"])
    outcome = search(state, {"capture": [{"hero": AJAX, "remove": True}]}, captured(True))
    helen = outcome.state["prizes"]["helen"]
    assert helen["off_board"] == a and helen["hex"] == "" and helen["holder"] == 0
    assert glory_delta(before, outcome.state["glory"]) == {a: 5}
    assert outcome.state["step"] != "over"  # nine Prizes are still on the board


def test_216_G_2_c_fifty_for_bringing_a_prize_into_greece_in_a_later_turn() -> None:
    state, (a, b, _) = scene()
    put(state, AJAX, MACEDONIA)
    place_prize(state, "helen", holder=AJAX)
    state["prizes"]["helen"].update(captured_by=a, captured_turn=1, scored=[a])
    attempt = {"attempt": [{"unit": AJAX, "path": [INLAND_3]}]}
    # In the Turn of the capture: no bonus.
    same = copy.deepcopy(state)
    before = dict(same["glory"])
    run(same, attempt, phase=moving_phase(same, a, turn=1))
    assert glory_delta(before, same["glory"]) == {a: 1}
    # Another god bringing it in gains nothing.
    other = copy.deepcopy(state)
    run(other, attempt, phase=moving_phase(other, b, turn=2))
    assert glory_delta(before, other["glory"]) == {b: 1}
    # The capturing god, a later Turn: +50 (and +1 for the move), once.
    outcome = run(state, attempt, phase=moving_phase(state, a, turn=2))
    assert glory_delta(before, state["glory"]) == {a: 51} == glory_events(outcome)
    state["cursor"] = 1
    run(state, {"attempt": [{"unit": AJAX, "path": ["2908"]}]})
    state["cursor"] = 0
    after = dict(state["glory"])
    run(state, attempt, phase=moving_phase(state, a, turn=3))
    assert glory_delta(after, state["glory"]) == {a: 1}


def test_216_G_2_c_the_bonus_belongs_to_each_god_who_earns_it() -> None:
    state, (a, b, _) = scene()
    put(state, AJAX, MACEDONIA)
    place_prize(state, "helen", holder=AJAX)
    # a brought Helen into Greece with another Hero, who died there; b's Ajax took her.
    state["prizes"]["helen"].update(captured_by=b, captured_turn=2, scored=[a, b], bonus=[a])
    before = dict(state["glory"])
    run(state, {"attempt": [{"unit": AJAX, "path": [INLAND_3]}]},
        phase=moving_phase(state, b, turn=3))
    assert glory_delta(before, state["glory"]) == {b: 51}


# --- 214: Hercules -------------------------------------------------------------------------------


def remorse_scene() -> tuple[State, list[str]]:
    state, seats = scene()
    a = seats[0]
    put(state, HERCULES, INLAND)
    put(state, SOW, INLAND)
    put(state, HECTOR, INLAND_2)
    place_helper(state, "harpe", holder=HERCULES)
    place_prize(state, "helen", holder=HERCULES)
    set_totals(state, a, {HERCULES: 3})
    moving_phase(state, a)
    return state, seats


def remorseful(ok: bool) -> Callable[[Outcome], bool]:
    return lambda o: any(e.get("remorse") is ok for e in of_type(o, "remorse"))


def test_214_A_1_3_hercules_wins_and_may_be_filled_with_remorse() -> None:
    state, (a, _, _) = remorse_scene()
    orders = {"combat": [{"attacker": HERCULES, "defender": SOW}]}
    before = dict(state["glory"])
    outcome = search(state, orders, remorseful(True))
    s = outcome.state
    check = next(e for e in of_type(outcome, "remorse") if "roll" in e)
    assert check["roll"] < C.heroes[HERCULES].attack  # 214 A 3 a
    assert status(s, SOW) == "dead" and status(s, HERCULES) == "board"  # 214 A 1
    assert glory_delta(before, s["glory"]) == {a: 3}
    assert s["remorse"] and RULESET.view(s, None)["remorse"] == s["remorse"]  # face down
    assert s["helpers"]["harpe"] == {"hex": INLAND, "holder": 0}  # 214 A 3 e
    assert s["prizes"]["helen"]["hex"] == INLAND and s["prizes"]["helen"]["holder"] == 0
    calm = search(state, orders, remorseful(False))
    check = next(e for e in of_type(calm, "remorse") if "roll" in e)
    assert check["roll"] >= C.heroes[HERCULES].attack
    assert not calm.state["remorse"] and calm.state["helpers"]["harpe"]["holder"] == HERCULES


def test_214_A_3_c_e_hercules_in_remorse_moves_free_and_does_nothing_else() -> None:
    state, (_, b, c) = remorse_scene()
    state = search(state, {"combat": [{"attacker": HERCULES, "defender": SOW}]},
                   remorseful(True)).state
    # c has the most on Hercules and a standing challenge: it is not made (214 A 3 c).
    set_totals(state, c, {HERCULES: 9})
    write_sheet(state, c, heroes={HERCULES: 1}, challenges=[(HERCULES, 9, 0)])
    set_totals(state, b, {HECTOR: 3})
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HERCULES, "path": [INLAND_2, INLAND_3, "2908"]}],
                          "combat": [{"attacker": HECTOR, "defender": HERCULES}],
                          "capture": [{"hero": HERCULES}]})
    assert outcome.events[0]["player"] == b
    assert not of_type(outcome, "attempt") and not of_type(outcome, "challenge")
    assert hero_hex(state, HERCULES) == INLAND_3  # two hexes
    assert of_type(outcome, "combat-void") and not of_type(outcome, "combat")
    assert of_type(outcome, "capture-void")
    assert glory_delta(before, state["glory"]) == {}  # a free move, no challenge
    # 214 A 3 e: he picks up nothing on his way.
    place_helper(state, "moly", "2908")
    outcome = run(state, {"attempt": [{"unit": HERCULES, "path": ["2908"]}]})
    assert hero_hex(state, HERCULES) == "2908" and state["helpers"]["moly"]["holder"] == 0


def test_214_A_3_c_the_free_move_does_not_count_against_the_five() -> None:
    state, (_, b, _) = remorse_scene()
    state = search(state, {"combat": [{"attacker": HERCULES, "defender": SOW}]},
                   remorseful(True)).state
    for hero, start, _ in FIVE:
        put(state, hero, start)
    orders = {"attempt": [{"unit": hero, "path": [to]} for hero, _, to in FIVE]
              + [{"unit": HERCULES, "path": ["3010"]}]}
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.active == b
    assert RULESET.validate(state, phase, b, orders) == []
    run(state, orders, phase=phase)
    assert hero_hex(state, HERCULES) == "3010"  # the sixth entry, free, was made


def test_214_A_3_d_hercules_is_purged_at_the_end_of_the_next_turn() -> None:
    state, (a, b, c) = remorse_scene()
    state = search(state, {"combat": [{"attacker": HERCULES, "defender": SOW}]},
                   remorseful(True)).state
    outcome = run(state, {}, phase=fate_phase(state))
    assert state["turn"] == 2 and state["remorse"] and not of_type(outcome, "purged")
    # Turn 2: still face down, any Moving Player moves him for free.
    for p in (a, b, c):
        write_sheet(state, p)
    outcome = run(state, {"attempt": [{"unit": HERCULES, "path": [INLAND_2]}]},
                  phase=moving_phase(state, c))
    assert hero_hex(state, HERCULES) == INLAND_2 and not of_type(outcome, "attempt")
    outcome = run(state, {}, phase=fate_phase(state))
    assert state["turn"] == 3 and not state["remorse"] and of_type(outcome, "purged")
    # Face up again: attempts and challenges as for any Hero.
    for p in (a, b, c):
        write_sheet(state, p)
    outcome = run(state, {"attempt": [{"unit": HERCULES, "path": [INLAND]}]},
                  phase=moving_phase(state, c))
    assert of_type(outcome, "attempt") and hero_hex(state, HERCULES) == INLAND


# --- 210: Divine Occurrences, activated in the Moving Player's order ----------------------------


def test_210_I_J_an_occurrence_takes_place_only_in_the_area_of_its_god() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    write_sheet(state, a, occurrences=[("E", 10)])
    orders = {"activate": [{"code": "E", "hex": INLAND}]}
    for where in ("egypt", ""):  # elsewhere, or off the board (210 J)
        s = copy.deepcopy(state)
        outcome = run(s, orders, phase=moving_phase(s, a, areas={a: where}))
        assert of_type(outcome, "occurrence-void") and not of_type(outcome, "occurrence")
        assert status(s, HECTOR) == "board" and not s["stats"]["occurrences"]
    outcome = run(state, orders, phase=moving_phase(state, a))
    assert of_type(outcome, "occurrence") and status(state, HECTOR) == "dead"
    assert state["stats"]["occurrences"] == {a: {"E": 1}}


def test_210_C_D_each_plotted_occurrence_keeps_its_own_points() -> None:
    state, (a, _, _) = scene()
    write_sheet(state, a, occurrences=[("E", 2), ("E", 8)])
    phase = moving_phase(state, a)
    orders = {"activate": [{"code": "E"}, {"code": "E"}]}
    assert RULESET.validate(state, phase, a, orders) == []
    outcome = run(state, orders, phase=phase)
    assert sorted(e["points"] for e in of_type(outcome, "occurrence")) == [2, 8]


def test_210_G_1_an_earthquake_kills_the_land_heroes_of_the_area() -> None:
    state, (a, b, _) = scene()
    put(state, HECTOR, INLAND)
    put(state, ZESTES, GREEK_SHORE)
    state["ships"].append(ZESTES)   # aboard a ship: not in a land hex
    put(state, AJAX, MACEDONIA)     # another Area
    set_totals(state, b, {HECTOR: 12})
    write_sheet(state, a, occurrences=[("E", 10)])  # roll + 100 > every Defense but 120
    before = dict(state["glory"])
    outcome = run(state, {"activate": [{"code": "E"}]}, phase=moving_phase(state, a))
    assert status(state, HECTOR) == "dead"
    assert status(state, ZESTES) == "board" and status(state, AJAX) == "board"
    effects = {e["hero"]: e["effect"] for e in of_type(outcome, "occurrence_effect")}
    assert effects == {HECTOR: "killed", ZESTES: "not_exposed"}
    # 216 G 4 d: b had 12 on Hector: 3, but an occurrence brings at most 2.
    assert glory_delta(before, state["glory"]) == {a: 2}


def test_214_B_hercules_killed_by_an_occurrence_costs_its_god_ten() -> None:
    state, (a, b, _) = scene()
    put(state, HERCULES, INLAND)
    set_totals(state, b, {HERCULES: 3})
    write_sheet(state, a, occurrences=[("E", 10)])
    before = dict(state["glory"])
    moving_phase(state, a)
    outcome = search(state, {"activate": [{"code": "E"}]},
                     lambda o: status(o.state, HERCULES) == "dead")
    total = of_type(outcome, "occurrence")[0]["total"]
    assert total > 120  # 214 B: Defense 120 against Divine Occurrences
    assert glory_delta(before, outcome.state["glory"]) == {a: -10 + 1}  # and 216 G 4 d: +1
    spared = search(state, {"activate": [{"code": "E"}]},
                    lambda o: status(o.state, HERCULES) == "board")
    assert of_type(spared, "occurrence")[0]["total"] <= 120


def test_214_B_every_glory_event_names_its_player_and_amount() -> None:
    state, (a, _, _) = scene()
    put(state, HERCULES, INLAND)
    write_sheet(state, a, occurrences=[("E", 10)])
    moving_phase(state, a)
    outcome = search(state, {"activate": [{"code": "E"}]},
                     lambda o: status(o.state, HERCULES) == "dead")
    assert all("player" in e and "amount" in e for e in of_type(outcome, "glory"))


def test_210_G_5_pestilence_keeps_the_heroes_of_the_area_still_for_the_turn() -> None:
    state, (a, b, c) = scene()
    put(state, HECTOR, INLAND)
    put(state, AJAX, MACEDONIA)
    write_sheet(state, a, occurrences=[("Pe", 10)])  # roll + 200 >= every Defense
    before = dict(state["glory"])
    outcome = run(state, {"activate": [{"code": "Pe"}],
                          "attempt": [{"unit": HECTOR, "path": [INLAND_2]},
                                      {"unit": AJAX, "path": ["2909"]}]},
                  phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == INLAND and status(state, HECTOR) == "board"
    assert hero_hex(state, AJAX) == "2909"  # outside the Area
    assert glory_delta(before, state["glory"]) == {a: 1}  # only Ajax moved
    assert HECTOR in RULESET.view(state, None)["pestilence"]
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2]}]})  # b's phase
    assert hero_hex(state, HECTOR) == INLAND and of_type(outcome, "move-stopped")
    run(state, {}, phase=fate_phase(state))
    for p in (a, b, c):
        write_sheet(state, p)
    run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2]}]},
        phase=moving_phase(state, b))
    assert hero_hex(state, HECTOR) == INLAND_2  # a new Turn


def test_210_G_4_a_plague_strikes_after_the_last_moving_player() -> None:
    state, (a, _b, _c) = scene()
    put(state, HECTOR, INLAND)
    put(state, AJAX, MACEDONIA)
    write_sheet(state, a, occurrences=[("P", 10)])  # roll + 200 > every Defense
    outcome = run(state, {"activate": [{"code": "P"}]}, phase=moving_phase(state, a))
    assert of_type(outcome, "plague") and not of_type(outcome, "occurrence")
    assert status(state, HECTOR) == "board"
    run(state, {"attempt": [{"unit": AJAX, "path": ["2909"]}]})  # b brings Ajax into Greece
    run(state, {})                                               # c
    assert status(state, HECTOR) == status(state, AJAX) == "board"
    before = dict(state["glory"])
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "fate"
    outcome = run(state, {}, phase=phase)
    assert status(state, HECTOR) == status(state, AJAX) == "dead"
    assert [e["code"] for e in of_type(outcome, "occurrence")] == ["P"]
    assert glory_delta(before, state["glory"]) == {a: -10}  # 216 G 4 b, twice


# --- 213, 216 G 1, 010: the Fate phase ---------------------------------------------------------


def test_213_E_the_fates_remove_heroes_on_the_board_and_bring_others_into_greece() -> None:
    state, (_, _, _) = scene()
    put(state, HECTOR, INLAND)
    place_helper(state, "harpe", holder=HECTOR)
    place_prize(state, "helen", holder=HECTOR)
    state["heroes"][str(AJAX)].update(status="dead")   # brought back from the dead (213 E 2)
    put(state, NESTOR, "2911")
    state["fate_track"]["1"] = [HECTOR, ZESTES, AJAX]
    outcome = run(state, {}, phase=fate_phase(state, turn=1))
    assert of_type(outcome, "fates_revealed")[0]["fates"] == [HECTOR, ZESTES, AJAX]
    assert status(state, HECTOR) == "dead"
    assert state["helpers"]["harpe"] == {"hex": INLAND, "holder": 0}
    assert state["prizes"]["helen"]["hex"] == INLAND
    born = [hero_hex(state, ZESTES), hero_hex(state, AJAX)]
    assert all(C.map.area_of(h) == "greece" and C.map.is_land(h) for h in born)
    assert len(set(born)) == 2 and not set(born) & {INLAND, "2911"}  # not stacked
    assert "1" not in state["fate_track"] or state["fate_track"]["1"] == []
    assert state["turn"] == 2 and state["step"] == "logsheet"
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.id == "t02.logsheet"


def test_216_G_1_one_glory_point_for_every_four_power_points_to_zeus() -> None:
    state, (a, b, c) = scene()
    write_sheet(state, a, zeus=7)
    write_sheet(state, b, zeus=8)
    write_sheet(state, c, zeus=3)
    before = dict(state["glory"])
    outcome = run(state, {}, phase=fate_phase(state, turn=1))
    assert glory_delta(before, state["glory"]) == {a: 1, b: 2} == glory_events(outcome)


@pytest.mark.parametrize(("players", "size"), [(3, 6), (7, 5)])
def test_010_C_D_face_down_cards_are_discarded_and_hands_refilled(players: int,
                                                                   size: int) -> None:
    names = ("ann", "ben", "cyd", "dee", "eve", "fay", "gus")[:players]
    state = new_game(names)
    a, b = state["seats"][:2]
    assert all(len(h) == size for h in state["hands"].values())  # 010 A
    card = state["hands"][a].pop()
    state["facedown"][a] = card
    state["discard"] += [state["hands"][b].pop(), state["hands"][b].pop()]
    deck = len(state["deck"])
    outcome = run(state, {}, phase=fate_phase(state, turn=1))
    assert state["facedown"][a] == "" and card in state["discard"]
    assert all(len(h) == size for h in state["hands"].values())
    assert len(state["deck"]) == deck - 3
    drawn = {p: [c for e in evs if e["type"] == "drew" for c in e["cards"]]
             for p, evs in outcome.private.items()}
    assert {p: len(cards) for p, cards in drawn.items() if cards} == {a: 1, b: 2}
    assert not of_type(outcome, "drew")  # what was drawn is private


# --- 216 B, G 7: the end of the game -------------------------------------------------------------


def check_the_end(state: State, outcome: Outcome, before: dict[str, int]) -> None:
    assert state["step"] == "over" and RULESET.next_phase(state) is None
    assert RULESET.result(state) == {"score": state["glory"]}
    assert len(of_type(outcome, "game-over")) == 1
    specials = of_type(outcome, "special-victory")
    assert sorted(e["player"] for e in specials) == sorted(state["seats"])  # once each
    expected = dict(before)
    for player, amount in glory_events(outcome).items():
        expected[player] += amount
    for e in specials:
        expected[e["player"]] += e["glory"]
    assert state["glory"] == expected


def test_216_B_the_game_ends_after_turn_15() -> None:
    state, seats = scene()
    run(state, {}, phase=fate_phase(state, turn=14))
    assert state["step"] == "logsheet" and RULESET.result(state) == {}
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.id == "t15.logsheet"
    for p in seats:
        write_sheet(state, p, turn=15, zeus=4)
    before = dict(state["glory"])
    outcome = run(state, {}, phase=fate_phase(state, turn=15))
    check_the_end(state, outcome, before)
    assert RULESET.view(state, None)["turn"] == 15


def test_216_B_the_game_ends_as_soon_as_every_prize_is_off_the_board() -> None:
    state, (a, b, _) = prize_scene()
    for pid, prize in state["prizes"].items():
        if pid != "helen":
            prize.update(hex="", holder=0, off_board=b)
    orders = {"capture": [{"hero": AJAX, "remove": True}]}
    before = dict(state["glory"])
    missed = search(state, orders, captured(False))
    phase = RULESET.next_phase(missed.state)
    assert phase is not None and phase.active == b
    outcome = search(state, orders, captured(True))
    check_the_end(outcome.state, outcome, before)
    assert glory_events(outcome) == {a: 5}


def test_216_G_7_a_prize_with_a_hero_belongs_to_the_god_who_controls_him() -> None:
    state, (a, b, _) = scene()
    put(state, AJAX, INLAND)
    place_prize(state, "helen", holder=AJAX)
    state["prizes"]["helen"].update(captured_by=a, captured_turn=3, scored=[a])
    set_totals(state, a, {})
    set_totals(state, b, {AJAX: 9})  # b Controls Ajax at the end of the game
    state["fate_held"][a] = state["fate_held"][b] = 18  # 5 Points for each Prize you possess
    outcome = run(state, {}, phase=fate_phase(state, turn=15))
    special = {e["player"]: e["glory"] for e in of_type(outcome, "special-victory")}
    assert (special[a], special[b]) == (0, 5)


# --- secrecy: 009 C, 102 G 2, 010 ----------------------------------------------------------------


def secrets_scene() -> State:
    state = new_game()
    a, b, c = state["seats"]
    run(state, {a: {"heroes": {"12": 4}, "zeus": 4, "card": state["hands"][a][0],
                    "challenge": [{"unit": 12, "limit": 4}]},
                b: {"heroes": {"3": 2}, "occurrences": [{"code": "P", "points": 3}]},
                c: {"zeus": 8, "area": "egypt"}})
    return state


def walk(value: Any) -> list[Any]:
    """Every key and value inside a view."""
    out: list[Any] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out += [k, *walk(v)]
    elif isinstance(value, list):
        for v in value:
            out += walk(v)
    else:
        out.append(value)
    return out


def test_views_hide_hands_fates_and_log_sheets_until_the_end() -> None:
    state = secrets_scene()
    seats = state["seats"]
    for viewer in [*seats, None]:
        view = RULESET.view(state, viewer)
        keys = set(walk(view))
        assert not keys & {"hands", "deck", "fate_held", "logsheets", "hero_totals"}
        if viewer is None:
            assert not keys & {"hand", "fate", "my_logsheets", "my_hero_totals",
                               "facedown_card"}
        else:
            assert view["hand"] == state["hands"][viewer]
            assert view["fate"] == state["fate_held"][viewer]
            assert view["my_logsheets"] == state["logsheets"][viewer]
        # Nothing another god holds in secret changes what this viewer sees.
        for owner in seats:
            if owner == viewer:
                continue
            other = copy.deepcopy(state)
            hand = other["hands"][owner]
            swap = other["deck"][:len(hand)]
            other["deck"][:len(hand)] = hand
            other["hands"][owner] = swap
            other["facedown"][owner] = other["facedown"][owner] and other["deck"][-1]
            other["fate_held"][owner] = next(f for f in C.fates
                                             if f != state["fate_held"][owner])
            other["logsheets"][owner]["1"]["zeus"] = 9
            other["logsheets"][owner]["1"]["challenges"] = [{"unit": 1, "limit": 9,
                                                            "min_total": 0}]
            other["hero_totals"][owner] = {"1": 9}
            assert RULESET.view(other, viewer) == RULESET.view(state, viewer), (viewer, owner)


def test_views_show_every_log_sheet_and_fate_after_the_end() -> None:
    state = secrets_scene()
    state["step"] = "fate"
    state["turn"] = 15
    run(state, {}, phase=RULESET.next_phase(state))
    assert state["step"] == "over"
    for viewer in [*state["seats"], None]:
        view = RULESET.view(state, viewer)
        assert view["logsheets"] == state["logsheets"] and view["game_over"]
        assert view["fate_held"] == state["fate_held"]


def test_010_D_an_empty_deck_is_refilled_from_the_discard_pile() -> None:
    # 010 D draws "from the deck"; the rulebook is silent when it runs out: the discard pile
    # is shuffled (sealed) into a new deck, so hands stay full (docs/games/mythology.md).
    state, seats = scene()
    a = seats[0]
    state["discard"] = state["deck"] + state["hands"][a][:3]
    state["deck"] = []
    state["hands"][a] = state["hands"][a][3:]
    outcome = run(state, {}, phase=fate_phase(state))
    assert of_type(outcome, "reshuffle")
    assert len(state["hands"][a]) == 6 and state["discard"] == []
    every = sorted(state["deck"] + [c for h in state["hands"].values() for c in h], key=int)
    assert every == [str(i) for i in range(1, 55)]


def test_216_B_G1_zeus_glory_is_paid_when_the_last_prize_leaves_the_board() -> None:
    state, seats = scene()
    a = seats[0]
    write_sheet(state, a, zeus=8)
    for prize in state["prizes"].values():
        prize.update(off_board=seats[1], hex="", holder=0)
    phase = moving_phase(state, a)
    before = state["glory"][a]
    outcome = run(state, {}, phase=phase)
    zeus = [e for e in of_type(outcome, "glory") if "Zeus" in e["text"]]
    assert [(e["player"], e["amount"]) for e in zeus] == [(a, 2)]
    assert of_type(outcome, "game-over") and RULESET.next_phase(state) is None
    special = sum(e["glory"] for e in of_type(outcome, "special-victory") if e["player"] == a)
    assert state["glory"][a] == before + 2 + special

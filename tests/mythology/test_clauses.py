"""One scenario test for each numbered clause of 203-215 that changes the game state and had
none yet, named after the clause.

Each test stages a scene on the real map (a real set-up, then the board edited: see
:mod:`tests.mythology.scenario`), resolves phases with ``RULESET.resolve`` and checks what a
broken implementation would get wrong: the board afterwards, the events, the Glory. Where a
scene needs a particular roll, the test searches a small range of dice keys for it and then
checks the roll it got.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from pbem.core.ruleset import Outcome
from pbem.games.mythology.game import RULESET
from pbem.games.mythology.rules import control_of, helpers_of, occupants

from .scenario import (
    ACHILLES,
    AJAX,
    CADMUS,
    EUBOEA,
    GREEK_SHORE,
    HECTOR,
    HIPPOCAMPUS,
    INLAND,
    INLAND_2,
    INLAND_3,
    JASON,
    KARKINOS,
    MACEDONIA,
    NESTOR,
    PERSEUS,
    SOW,
    THESEUS,
    ZESTES,
    C,
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

WATER = "3211"        # all water, The Sea (eastern): next to 3110 and 3111 of Greece
GREEK_COAST = "3110"  # Greece, a shoreline next to 3211
EGYPT = "2919"        # a land hex of Egypt


def moved(outcome: Outcome, unit: int) -> bool:
    return any(e["unit"] == unit for e in of_type(outcome, "move"))


def captured(ok: bool) -> Callable[[Outcome], bool]:
    return lambda o: any(e["success"] is ok for e in of_type(o, "capture-roll"))


def monster_hex(state: State, monster: int) -> str:
    return str(state["monsters"][str(monster)]["hex"])


def face_down(state: State, player: str, card: str) -> None:
    """202 B 2: ``player`` placed ``card`` face down this Turn (taken from the deck)."""
    state["deck"].remove(card)
    state["facedown"][player] = card


# --- 203: God Counter Placement -----------------------------------------------------------------


def test_203_B_C_a_god_goes_to_any_area_even_one_another_god_occupies() -> None:
    state = new_game()
    run(state, {p: {} for p in state["seats"]})  # blank Log Sheets: everyone places in turn
    first, second, third = state["order"]
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.active == first
    run(state, {"area": "egypt"}, phase=phase)
    assert state["god_area"][first] == "egypt"
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "place" and phase.active == second
    # 203 B: ANY Area, the one already occupied included, sea Areas too.
    for area in C.map.areas:
        assert RULESET.validate(state, phase, second, {"area": area}) == [], area
    outcome = run(state, {"area": "egypt"}, phase=phase)
    assert [(e["player"], e["area"]) for e in of_type(outcome, "god-placed")] == [
        (second, "egypt")]
    outcome = run(state, {"area": "river_ocean"})
    assert [(e["player"], e["area"]) for e in of_type(outcome, "god-placed")] == [
        (third, "river_ocean")]
    # 203 C: two gods share Egypt at the end of the God Placement phase.
    assert state["god_area"] == {first: "egypt", second: "egypt", third: "river_ocean"}
    assert state["step"] == "move"


def test_203_E_a_god_sent_off_the_board_is_placed_anywhere_in_the_next_turn() -> None:
    state, (a, b, c) = scene()
    face_down(state, a, "4")  # Council on Olympus: up to 3 gods go off the map (010 B 2 b)
    before = dict(state["glory"])
    outcome = run(state, {"card": {"section": "event", "gods": [state["gods"][b]]}},
                  phase=moving_phase(state, a))
    assert state["god_area"][b] == "" and state["god_area"][a] == "greece"
    assert [e["player"] for e in of_type(outcome, "god-moved")] == [b]
    assert glory_delta(before, state["glory"]) == {a: -1}  # 010 B 2: one per god sent
    run(state, {}, phase=fate_phase(state))
    assert state["turn"] == 2 and state["god_area"][b] == ""
    run(state, {p: {} for p in (a, b, c)})  # Turn 2's Log Sheets, no standing Area
    seen: list[str] = []
    while state["step"] == "place":
        phase = RULESET.next_phase(state)
        assert phase is not None and phase.active is not None
        p = phase.active
        seen.append(p)
        if p == b:
            # Removed last Turn: he has a placement phase, and every Area is open to him.
            assert RULESET.default_orders(state, phase, b) == {"area": "greece"}
            assert all(RULESET.validate(state, phase, b, {"area": x}) == []
                       for x in C.map.areas)
            run(state, {"area": "india"}, phase=phase)
        else:
            run(state, RULESET.default_orders(state, phase, p), phase=phase)
    assert sorted(seen) == sorted((a, b, c))
    assert state["god_area"] == {a: "greece", b: "india", c: "greece"}


def test_203_F_a_placed_god_moves_only_by_the_play_of_a_card() -> None:
    state, (a, b, _) = scene()
    put(state, PERSEUS, EGYPT)
    put(state, HECTOR, INLAND)
    write_sheet(state, a, occurrences=[("E", 10)])  # roll + 100 beats every Defense
    base = copy.deepcopy(state)
    # No card: a Moving Player's order has no way to move the god.
    phase = moving_phase(state, a)
    assert RULESET.validate(state, phase, a, {"area": "egypt"}) != []
    run(state, {"area": "egypt", "activate": [{"code": "E"}]}, phase=phase)
    assert state["god_area"][a] == "greece"
    assert status(state, HECTOR) == "dead" and status(state, PERSEUS) == "board"
    # Iris's rainbow (card 18, a "relocate" god section): the god goes to Egypt, and the
    # Earthquake activated after it strikes there.
    state = copy.deepcopy(base)
    face_down(state, a, "18")
    orders = {"card": {"section": "god", "area": "egypt"}, "activate": [{"code": "E"}]}
    phase = moving_phase(state, a)
    assert RULESET.validate(state, phase, a, orders) == []
    outcome = run(state, orders, phase=phase)
    assert state["god_area"][a] == "egypt" and state["god_area"][b] == "greece"
    assert [e["section"] for e in of_type(outcome, "card")] == ["god"]
    assert status(state, PERSEUS) == "dead" and status(state, HECTOR) == "board"
    # Hermes's Messenger of the Gods, a power of the same kind, once a Turn.
    state = copy.deepcopy(base)
    state["gods"][a] = "hermes"
    outcome = run(state, {"power": [{"id": "messenger_of_the_gods", "area": "egypt"},
                                    {"id": "messenger_of_the_gods", "area": "libya"}]},
                  phase=moving_phase(state, a))
    assert state["god_area"][a] == "egypt" and len(of_type(outcome, "effect-void")) == 1


# --- 204: Movement ------------------------------------------------------------------------------


FOUR = [(PERSEUS, "2911", "2912"), (CADMUS, "2810", "2709"), (THESEUS, "2610", "2509"),
        (JASON, "2913", "2914")]


def test_204_A_209_A_five_attempts_at_most_the_sixth_is_not_made() -> None:
    state, (a, b, _) = scene()
    for hero, start, _ in FOUR:
        put(state, hero, start)
    put(state, SOW, MACEDONIA)       # a Monster attempt counts among the five (204 A)
    put(state, HECTOR, INLAND)       # the sixth
    orders = {"attempt": [{"unit": hero, "path": [to]} for hero, _, to in FOUR]
              + [{"unit": SOW, "path": ["2909"]}, {"unit": HECTOR, "path": [INLAND_2]}]}
    phase = moving_phase(state, a)
    assert any("204 A" in p.message for p in RULESET.validate(state, phase, a, orders))
    before = dict(state["glory"])
    outcome = run(state, orders, phase=phase)
    assert [e["unit"] for e in of_type(outcome, "attempt")] == [h for h, _, _ in FOUR] + [SOW]
    for hero, _, to in FOUR:
        assert hero_hex(state, hero) == to
    assert monster_hex(state, SOW) == "2909"
    assert hero_hex(state, HECTOR) == INLAND and not moved(outcome, HECTOR)
    assert glory_delta(before, state["glory"]) == {a: 4}  # four Heroes, no Glory for the sixth
    # The next Moving Player has five attempts of his own.
    outcome = run(state, {"attempt": [{"unit": hero, "path": [start]} for hero, start, _ in FOUR]
                          + [{"unit": HECTOR, "path": [INLAND_2]}]})
    assert len(of_type(outcome, "attempt")) == 5 and hero_hex(state, HECTOR) == INLAND_2
    assert glory_delta(before, state["glory"]) == {a: 4, b: 5}


def test_204_H_units_stack_without_limit_and_never_block_movement() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    for unit in (AJAX, NESTOR, SOW):          # Hector goes through this hex...
        put(state, unit, INLAND_2)
    for unit in (PERSEUS, HIPPOCAMPUS):       # ...and ends in this one
        put(state, unit, INLAND_3)
    put(state, KARKINOS, MACEDONIA)
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2, INLAND_3]},
                                      {"unit": KARKINOS, "path": [INLAND_3]},
                                      {"unit": NESTOR, "path": [INLAND_3]}]},
                  phase=moving_phase(state, a))
    assert not of_type(outcome, "move-stopped") and not of_type(outcome, "combat")
    assert [e["path"] for e in of_type(outcome, "move")] == [[INLAND_2, INLAND_3], [INLAND_3],
                                                              [INLAND_3]]
    assert sorted(occupants(state, INLAND_3)) == sorted(
        [HECTOR, PERSEUS, HIPPOCAMPUS, KARKINOS, NESTOR])
    assert sorted(occupants(state, INLAND_2)) == sorted([AJAX, SOW])
    assert glory_delta(before, state["glory"]) == {a: 2}


def test_204_I_two_moving_players_move_the_same_hero_in_one_turn() -> None:
    state, (a, b, _) = scene()
    put(state, HECTOR, INLAND)
    before = dict(state["glory"])
    first = run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2, INLAND_3]}]},
                phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == INLAND_3
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.active == b
    second = run(state, {"attempt": [{"unit": HECTOR, "path": ["2908", "2907"]}]}, phase=phase)
    assert hero_hex(state, HECTOR) == "2907"
    assert C.map.distance(INLAND, "2907") == 4  # 204 M: more than four in a Turn is allowed
    assert [e["player"] for e in of_type(first, "attempt") + of_type(second, "attempt")] == [
        a, b]
    assert glory_delta(before, state["glory"]) == {a: 1, b: 1}


def test_204_L_captured_prizes_and_helpers_move_with_the_hero() -> None:
    state, (a, b, _) = scene()
    put(state, HECTOR, INLAND)
    place_helper(state, "harpe", holder=HECTOR)
    place_prize(state, "helen", holder=HECTOR)
    run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2, INLAND_3]}]},
        phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == INLAND_3
    assert state["helpers"]["harpe"] == {"hex": "", "holder": HECTOR}
    assert state["prizes"]["helen"]["holder"] == HECTOR
    # They went with him: when he dies (b's Earthquake), they fall where he now is.
    write_sheet(state, b, occurrences=[("E", 10)])
    run(state, {"activate": [{"code": "E"}]})
    assert status(state, HECTOR) == "dead"
    assert state["helpers"]["harpe"] == {"hex": INLAND_3, "holder": 0}
    assert state["prizes"]["helen"]["hex"] == INLAND_3
    assert state["prizes"]["helen"]["holder"] == 0


def test_204_S_a_moving_player_attempts_units_outside_its_gods_area() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    put(state, SOW, MACEDONIA)
    orders = {"attempt": [{"unit": HECTOR, "path": [INLAND_2]},
                          {"unit": SOW, "path": ["2909"]}]}
    phase = moving_phase(state, a, areas={a: "egypt"})
    assert RULESET.validate(state, phase, a, orders) == []
    before = dict(state["glory"])
    outcome = run(state, orders, phase=phase)
    assert state["god_area"][a] == "egypt"
    assert hero_hex(state, HECTOR) == INLAND_2 and monster_hex(state, SOW) == "2909"
    assert len(of_type(outcome, "unchallenged")) == 2
    assert glory_delta(before, state["glory"]) == {a: 1}


# --- 205: Combat ----------------------------------------------------------------------------------


def test_205_B_two_units_in_a_hex_fight_only_when_combat_is_declared() -> None:
    state, (a, b, c) = scene()
    put(state, AJAX, INLAND)
    put(state, SOW, INLAND)
    put(state, HECTOR, INLAND_2)
    set_totals(state, a, {AJAX: 3})
    set_totals(state, b, {HECTOR: 3})
    # a brings Hector into the hex of Ajax and the Sow, and declares nothing.
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND]}]},
                  phase=moving_phase(state, a))
    assert sorted(occupants(state, INLAND)) == sorted([HECTOR, AJAX, SOW])
    assert not of_type(outcome, "combat") and not of_type(outcome, "killed")
    outcome = run(state, {})  # b, who Controls Hector, declares nothing either
    assert not of_type(outcome, "combat")
    assert all(status(state, u) == "board" for u in (AJAX, SOW, HECTOR))
    # c declares that the Sow attacks Hector: the Combat happens, Hector has no choice.
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.active == c
    outcome = run(state, {"combat": [{"attacker": SOW, "defender": HECTOR}]}, phase=phase)
    assert [(e["attacker"], e["defender"]) for e in of_type(outcome, "combat")] == [
        (SOW, HECTOR)]
    assert of_type(outcome, "killed") and "dead" in (status(state, SOW), status(state, HECTOR))
    assert status(state, AJAX) == "board"


def test_205_H_combat_comes_after_all_movement_of_the_phase() -> None:
    state, (a, _, _) = scene()
    put(state, AJAX, INLAND)
    put(state, SOW, "2909")
    write_sheet(state, a, aid={AJAX: 4})  # Attack 70: 11 + 70 >= 70, he cannot fail
    before = dict(state["glory"])
    # The combat order names the Sow, which only reaches Ajax's hex with the last attempt.
    outcome = run(state, {"combat": [{"attacker": AJAX, "defender": SOW}],
                          "attempt": [{"unit": AJAX, "path": [INLAND_2]},
                                      {"unit": SOW, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    assert [(e["attacker"], e["defender"]) for e in of_type(outcome, "combat")] == [(AJAX, SOW)]
    assert status(state, SOW) == "dead" and hero_hex(state, AJAX) == INLAND_2
    kinds = [e["type"] for e in outcome.events]
    last_move = max(i for i, k in enumerate(kinds) if k == "move")
    assert kinds.index("combat") > last_move
    assert glory_delta(before, state["glory"]) == {a: 1 + 3}
    # Two units together as the phase begins, apart after the movement: no Combat.
    state, (a, _, _) = scene()
    put(state, AJAX, INLAND)
    put(state, HIPPOCAMPUS, INLAND)
    set_totals(state, a, {AJAX: 3})
    write_sheet(state, a, heroes={AJAX: 1}, aid={AJAX: 4})
    outcome = run(state, {"combat": [{"attacker": AJAX, "defender": HIPPOCAMPUS}],
                          "attempt": [{"unit": HIPPOCAMPUS, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    assert not of_type(outcome, "combat") and of_type(outcome, "combat-void")
    assert status(state, HIPPOCAMPUS) == "board" and monster_hex(state, HIPPOCAMPUS) == INLAND_2


@pytest.mark.parametrize("target", [HIPPOCAMPUS, SOW, NESTOR])
def test_205_J_the_attacker_chooses_whom_it_attacks_in_a_crowded_hex(target: int) -> None:
    state, (a, _, _) = scene()
    crowd = (HIPPOCAMPUS, SOW, NESTOR)
    for unit in (AJAX, *crowd):
        put(state, unit, INLAND)
    set_totals(state, a, {AJAX: 3})
    write_sheet(state, a, heroes={AJAX: 1}, aid={AJAX: 4})  # Attack 70: a sure kill of each
    outcome = run(state, {"combat": [{"attacker": AJAX, "defender": target}]},
                  phase=moving_phase(state, a))
    assert [(e["attacker"], e["defender"]) for e in of_type(outcome, "combat")] == [
        (AJAX, target)]
    assert status(state, target) == "dead" and status(state, AJAX) == "board"
    assert all(status(state, u) == "board" for u in crowd if u != target)


# --- 208: Hero and Monster Control ---------------------------------------------------------------


def test_208_F_a_kill_by_a_hero_the_mover_does_not_control_brings_the_mover_nothing() -> None:
    state, (a, _, c) = scene()
    put(state, AJAX, INLAND)
    put(state, SOW, INLAND)
    set_totals(state, c, {AJAX: 3})
    write_sheet(state, c, heroes={AJAX: 1}, aid={AJAX: 4})  # c Controls Ajax: Attack 70

    def sow_dies(o: Outcome) -> bool:
        return status(o.state, SOW) == "dead" and status(o.state, AJAX) == "board"

    before = dict(state["glory"])
    moving_phase(state, a)
    # a's Sow attacks Ajax, whom a neither Controls nor moved: the kill is c's (216 G 3 a).
    outcome = search(state, {"combat": [{"attacker": SOW, "defender": AJAX}]}, sow_dies)
    assert glory_delta(before, outcome.state["glory"]) == {c: 3} == glory_events(outcome)
    # Had a moved Ajax into the Sow's hex, a would Control him for the phase (209 G).
    state["heroes"][str(AJAX)]["hex"] = INLAND_2
    outcome = search(state, {"attempt": [{"unit": AJAX, "path": [INLAND]}],
                             "combat": [{"attacker": SOW, "defender": AJAX}]}, sow_dies)
    assert glory_delta(before, outcome.state["glory"]) == {a: 1 + 3}


def test_208_G_control_shifts_from_turn_to_turn_with_the_log_sheets() -> None:
    state, (a, b, c) = scene()
    put(state, HECTOR, INLAND)
    put(state, SOW, INLAND)
    set_totals(state, a, {HECTOR: 3})
    set_totals(state, b, {HECTOR: 2})
    write_sheet(state, a, heroes={HECTOR: 1}, aid={HECTOR: 4})  # Attack 70: a sure kill
    assert control_of(state, HECTOR) == a
    before = dict(state["glory"])
    outcome = run(state, {"combat": [{"attacker": HECTOR, "defender": SOW}]},
                  phase=moving_phase(state, a))
    assert of_type(outcome, "combat") and status(state, SOW) == "dead"
    assert glory_delta(before, state["glory"]) == {a: 3}
    run(state, {}, phase=fate_phase(state))
    # Turn 2: a spends nothing on Hector (his total drops to 0, 208 I); b spends 1 (3 in all).
    put(state, HIPPOCAMPUS, INLAND)
    run(state, {a: {"area": "greece"}, b: {"heroes": {"12": 1}, "aid": {"12": 4},
                                           "area": "greece"}, c: {"area": "greece"}})
    assert state["turn"] == 2 and control_of(state, HECTOR) == b
    before = dict(state["glory"])
    outcome = run(state, {"combat": [{"attacker": HECTOR, "defender": HIPPOCAMPUS}]},
                  phase=moving_phase(state, a))
    assert [e["attacker"] for e in of_type(outcome, "combat-void")] == [HECTOR]  # 208 E
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.active == b
    outcome = run(state, {"combat": [{"attacker": HECTOR, "defender": HIPPOCAMPUS}]},
                  phase=phase)
    assert of_type(outcome, "combat") and status(state, HIPPOCAMPUS) == "dead"
    assert glory_delta(before, state["glory"]) == {b: 3}


# --- 209: Determining Control --------------------------------------------------------------------


def test_209_C_a_challenge_starts_an_auction_between_the_mover_and_the_challenger() -> None:
    state, (a, b, c) = scene()
    put(state, HECTOR, INLAND)
    set_totals(state, a, {HECTOR: 5})
    set_totals(state, b, {HECTOR: 3})
    write_sheet(state, b, heroes={HECTOR: 1}, challenges=[(HECTOR, 3, 0)])
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "bid": 5, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    kinds = [e["type"] for e in outcome.events]
    assert kinds.index("attempt") < kinds.index("challenge") < kinds.index("challenge_result")
    challenge = of_type(outcome, "challenge")
    assert [(e["player"], e["holder"]) for e in challenge] == [(b, a)]
    announced = {e["player"] for e in of_type(outcome, "announce")}
    assert announced == {a, b}  # both players bid (209 D 1-3); c takes no part
    assert [(e["winner"], e["loser"]) for e in of_type(outcome, "challenge_result")] == [(a, b)]
    assert [e["winner"] for e in of_type(outcome, "control")] == [a]
    assert hero_hex(state, HECTOR) == INLAND_2
    assert glory_delta(before, state["glory"]) == {a: 2, b: -1}
    assert c not in glory_events(outcome)


def test_209_F_without_a_standing_challenge_nobody_challenges_not_even_the_controller() -> None:
    state, (a, b, c) = scene()
    put(state, HECTOR, INLAND)
    put(state, AJAX, "2911")
    set_totals(state, b, {HECTOR: 9})     # b Controls Hector but gave no challenge order
    write_sheet(state, b, heroes={HECTOR: 1})
    set_totals(state, c, {AJAX: 2})
    write_sheet(state, c, heroes={AJAX: 1}, challenges=[(AJAX, 2, 0)])  # Ajax only
    assert control_of(state, HECTOR) == b
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2]},
                                      {"unit": AJAX, "path": ["2910"]}]},
                  phase=moving_phase(state, a))
    assert [e["player"] for e in of_type(outcome, "challenge")] == [c]
    assert [e["player"] for e in of_type(outcome, "unchallenged")] == [a]
    assert hero_hex(state, HECTOR) == INLAND_2   # moved though b Controls him
    assert hero_hex(state, AJAX) == "2911"       # c's standing challenge won
    assert glory_delta(before, state["glory"]) == {c: 1}  # a: +1 (Hector) -1 (lost to c)


# --- 210: Divine Occurrences ------------------------------------------------------------------


def test_210_E_occurrence_points_lapse_at_the_end_of_their_turn() -> None:
    state, (a, b, c) = scene()
    put(state, HECTOR, INLAND)
    write_sheet(state, a, occurrences=[("E", 10)])  # plotted in Turn 1, never activated
    run(state, {}, phase=moving_phase(state, a))
    run(state, {}, phase=fate_phase(state))
    assert state["turn"] == 2
    for p in (a, b, c):
        write_sheet(state, p)
    write_sheet(state, a, occurrences=[("E", 2)])
    orders = {"activate": [{"code": "E"}, {"code": "E"}]}
    phase = moving_phase(state, a)
    problems = RULESET.validate(state, phase, a, orders)
    assert [p.where for p in problems] == ["[[orders.activate]] #2"]
    outcome = run(state, orders, phase=phase)
    quakes = of_type(outcome, "occurrence")
    assert [e["points"] for e in quakes] == [2]       # not 10, nor 12
    assert quakes[0]["total"] == quakes[0]["roll"] + 20
    assert len(of_type(outcome, "occurrence-void")) == 1


# --- 211: Hero Helper Counters -------------------------------------------------------------------


def test_211_C_a_helper_does_not_protect_against_a_divine_occurrence() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    place_helper(state, "aegis", holder=HECTOR)  # Defense 72 + 30 = 102 in Combat
    write_sheet(state, a, occurrences=[("E", 4)])
    moving_phase(state, a)
    defense = C.heroes[HECTOR].defense
    bonus = C.helpers["aegis"].defense
    outcome = search(state, {"activate": [{"code": "E"}]},
                     lambda o: defense < of_type(o, "occurrence")[0]["total"] <= defense + bonus)
    assert status(outcome.state, HECTOR) == "dead"
    effects = of_type(outcome, "occurrence_effect")
    assert [(e["hero"], e["defense"], e["effect"]) for e in effects] == [
        (HECTOR, defense, "killed")]
    assert outcome.state["helpers"]["aegis"] == {"hex": INLAND, "holder": 0}


def test_211_F_a_hero_carries_several_helpers_and_their_bonuses_add() -> None:
    state, (a, _, _) = scene()
    put(state, AJAX, INLAND)
    place_helper(state, "lion_skin", holder=AJAX)
    place_helper(state, "harpe", INLAND_2)
    place_helper(state, "bow_of_heracles", INLAND_3)
    place_prize(state, "helen", INLAND_3)
    outcome = run(state, {"attempt": [{"unit": AJAX, "path": [INLAND_2, INLAND_3]}],
                          "capture": [{"hero": AJAX}]}, phase=moving_phase(state, a))
    assert helpers_of(state, AJAX) == ["bow_of_heracles", "harpe", "lion_skin"]
    assert [e["helper"] for e in of_type(outcome, "helper-taken")] == ["harpe",
                                                                       "bow_of_heracles"]
    bonus = sum(C.helpers[h].attack for h in ("lion_skin", "harpe", "bow_of_heracles"))
    assert bonus == 50
    roll = of_type(outcome, "capture-roll")[0]
    assert roll["total"] == roll["roll"] + C.heroes[AJAX].attack + bonus
    assert roll["success"] and state["prizes"]["helen"]["holder"] == AJAX


def test_211_I_only_heroes_pick_up_helpers_a_monster_leaves_them() -> None:
    state, (a, _, _) = scene()
    put(state, SOW, INLAND)
    put(state, HECTOR, "2910")
    place_helper(state, "harpe", INLAND_2)   # the Sow passes through...
    place_helper(state, "moly", INLAND_3)    # ...and ends here
    outcome = run(state, {"attempt": [{"unit": SOW, "path": [INLAND_2, INLAND_3]},
                                      {"unit": HECTOR, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    assert monster_hex(state, SOW) == INLAND_3
    assert state["helpers"]["moly"] == {"hex": INLAND_3, "holder": 0}
    assert state["helpers"]["harpe"] == {"hex": "", "holder": HECTOR}  # left for a Hero
    assert [(e["hero"], e["helper"]) for e in of_type(outcome, "helper-taken")] == [
        (HECTOR, "harpe")]


def test_211_J_a_monster_on_the_helper_keeps_a_hero_from_it_until_it_leaves() -> None:
    state, (a, _, _) = scene()
    put(state, SOW, INLAND_2)
    put(state, AJAX, INLAND)
    place_helper(state, "harpe", INLAND_2)
    base = copy.deepcopy(state)
    outcome = run(state, {"attempt": [{"unit": AJAX, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    assert hero_hex(state, AJAX) == INLAND_2 and not of_type(outcome, "helper-taken")
    assert state["helpers"]["harpe"] == {"hex": INLAND_2, "holder": 0}
    # The Sow moved away first: the Hero takes it.
    state = base
    outcome = run(state, {"attempt": [{"unit": SOW, "path": [INLAND_3]},
                                      {"unit": AJAX, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    assert state["helpers"]["harpe"] == {"hex": "", "holder": AJAX}


# --- 212: Capturing Prizes -----------------------------------------------------------------------


def test_212_B_only_a_hero_captures_a_monster_order_is_refused() -> None:
    state, (a, _, _) = scene()
    put(state, SOW, INLAND)
    place_prize(state, "helen", INLAND)
    write_sheet(state, a, monsters={SOW: 3})  # a Controls the Sow this Turn
    orders = {"capture": [{"hero": SOW}]}
    phase = moving_phase(state, a)
    problems = RULESET.validate(state, phase, a, orders)
    assert any("212 B" in p.message for p in problems)
    before = dict(state["glory"])
    outcome = run(state, orders, phase=phase)
    assert not of_type(outcome, "capture-roll")
    assert state["prizes"]["helen"]["hex"] == INLAND and state["prizes"]["helen"]["holder"] == 0
    assert glory_delta(before, state["glory"]) == {}


def test_212_C_an_uncaptured_prize_stays_where_it_is() -> None:
    state, (a, b, _) = scene()
    put(state, AJAX, INLAND)
    put(state, HECTOR, "2911")
    place_prize(state, "helen", INLAND)
    set_totals(state, a, {AJAX: 3})
    moving_phase(state, a)
    state = search(state, {"capture": [{"hero": AJAX}]}, captured(False)).state
    assert state["prizes"]["helen"]["holder"] == 0
    # b moves Ajax away, and Hector through the Prize's hex: the Prize moves with neither.
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.active == b
    run(state, {"attempt": [{"unit": AJAX, "path": [INLAND_2, INLAND_3]},
                            {"unit": HECTOR, "path": [INLAND, INLAND_2]}]}, phase=phase)
    assert hero_hex(state, AJAX) == INLAND_3 and hero_hex(state, HECTOR) == INLAND_2
    helen = state["prizes"]["helen"]
    assert (helen["hex"], helen["holder"], helen["off_board"]) == (INLAND, 0, "")


def test_212_F_after_its_captor_dies_the_prize_must_be_captured_again() -> None:
    state, (a, b, c) = scene()
    put(state, AJAX, INLAND)
    put(state, ACHILLES, INLAND_2)
    place_prize(state, "helen", holder=AJAX)
    state["prizes"]["helen"].update(captured_by=a, captured_turn=1, scored=[a])
    state["fate_track"]["1"] = [AJAX]  # 213 E 1: his time has come
    run(state, {}, phase=fate_phase(state, turn=1))
    assert status(state, AJAX) == "dead"
    assert state["prizes"]["helen"]["hex"] == INLAND and state["prizes"]["helen"]["holder"] == 0
    for p in (a, b, c):
        write_sheet(state, p)
    walk = {"attempt": [{"unit": ACHILLES, "path": [INLAND]}]}
    # Entering the hex takes nothing: a Prize is not a Helper.
    s = copy.deepcopy(state)
    run(s, walk, phase=moving_phase(s, b))
    assert hero_hex(s, ACHILLES) == INLAND and s["prizes"]["helen"]["holder"] == 0
    # He must roll for it, as for any free Prize.
    moving_phase(state, b)
    before = dict(state["glory"])
    orders = walk | {"capture": [{"hero": ACHILLES}]}
    missed = search(state, orders, captured(False))
    assert missed.state["prizes"]["helen"]["holder"] == 0
    assert missed.state["prizes"]["helen"]["hex"] == INLAND
    taken = search(state, orders, captured(True))
    roll = of_type(taken, "capture-roll")[0]
    assert roll["total"] == roll["roll"] + C.heroes[ACHILLES].attack
    assert taken.state["prizes"]["helen"]["holder"] == ACHILLES
    assert taken.state["prizes"]["helen"]["scored"] == [a, b]
    assert glory_delta(before, taken.state["glory"]) == {b: 1 + 5}


def test_212_F_the_hero_who_kills_the_captor_rolls_to_capture_the_prize() -> None:
    state, (a, _, _) = scene()
    put(state, AJAX, INLAND)
    put(state, NESTOR, INLAND)   # Ajax can kill Nestor; Nestor (10 + 66 < 78) cannot kill Ajax
    place_prize(state, "helen", holder=NESTOR)
    set_totals(state, a, {AJAX: 3})
    write_sheet(state, a, heroes={AJAX: 1}, aid={AJAX: 3})  # Attack 60: a sure kill
    orders = {"combat": [{"attacker": AJAX, "defender": NESTOR}],
              "capture": [{"hero": AJAX}]}
    moving_phase(state, a)
    for ok in (True, False):
        outcome = search(state, orders, captured(ok))
        assert status(outcome.state, NESTOR) == "dead"
        kinds = [e["type"] for e in outcome.events]
        assert kinds.index("killed") < kinds.index("capture-roll")  # 212 D 2: after Combat
        helen = outcome.state["prizes"]["helen"]
        assert (helen["holder"], helen["hex"]) == ((AJAX, "") if ok else (0, INLAND))


def test_212_G_a_prize_held_by_a_hero_cannot_be_taken_by_another() -> None:
    state, (a, b, _) = scene()
    put(state, AJAX, INLAND)
    put(state, ACHILLES, INLAND)
    place_prize(state, "helen", holder=AJAX)
    state["prizes"]["helen"].update(captured_by=a, captured_turn=1, scored=[a])
    set_totals(state, b, {ACHILLES: 3})
    before = dict(state["glory"])
    outcome = run(state, {"capture": [{"hero": ACHILLES}]}, phase=moving_phase(state, b))
    assert [e["hero"] for e in of_type(outcome, "capture-void")] == [ACHILLES]
    assert not of_type(outcome, "capture-roll")
    assert state["prizes"]["helen"]["holder"] == AJAX
    assert glory_delta(before, state["glory"]) == {}


# --- 215: Ships -----------------------------------------------------------------------------------


def test_215_A_no_all_water_hex_for_a_hero_without_a_ship() -> None:
    state, (a, _, _) = scene()
    assert not C.map.is_land(WATER) and C.map.is_land(EUBOEA)
    put(state, HECTOR, GREEK_COAST)
    put(state, ZESTES, GREEK_COAST)
    state["ships"].append(ZESTES)
    put(state, KARKINOS, INLAND)
    before = dict(state["glory"])
    outcome = run(state, {"attempt": [{"unit": HECTOR, "path": [WATER, "3212"]},
                                      {"unit": ZESTES, "path": [WATER, "3212"]},
                                      {"unit": KARKINOS, "path": [GREEK_SHORE, WATER]}]},
                  phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == GREEK_COAST and not moved(outcome, HECTOR)
    assert [e["unit"] for e in of_type(outcome, "move-stopped")] == [HECTOR]
    assert hero_hex(state, ZESTES) == "3212"           # with a ship (215 D)
    assert monster_hex(state, KARKINOS) == WATER      # a Monster goes anywhere (204 D)
    assert glory_delta(before, state["glory"]) == {a: 1}  # only Zestes among the Heroes


def test_215_A_a_hero_may_not_leave_his_ship_in_an_all_water_hex() -> None:
    state, (a, _, _) = scene()
    put(state, ZESTES, WATER)
    state["ships"].append(ZESTES)
    run(state, {"attempt": [{"unit": ZESTES, "path": [], "leave_ship": True}]},
        phase=moving_phase(state, a))
    assert ZESTES in state["ships"] or C.map.is_land(hero_hex(state, ZESTES))


def test_215_I_a_hero_aboard_a_ship_is_at_sea_for_divine_occurrences() -> None:
    state, (a, _, _) = scene()
    put(state, ZESTES, GREEK_SHORE)   # a land hex, but he is aboard a ship
    state["ships"].append(ZESTES)
    put(state, HECTOR, INLAND)
    write_sheet(state, a, occurrences=[("T", 10), ("E", 10), ("V", 5)])  # all sure to kill
    base = copy.deepcopy(state)
    outcome = run(state, {"activate": [{"code": "T"}]}, phase=moving_phase(state, a))
    assert status(state, ZESTES) == "dead" and status(state, HECTOR) == "board"
    assert ZESTES not in state["ships"]
    effects = {e["hero"]: e["effect"] for e in of_type(outcome, "occurrence_effect")}
    assert effects == {ZESTES: "killed", HECTOR: "not_exposed"}
    state = base
    outcome = run(state, {"activate": [{"code": "E"}]}, phase=moving_phase(state, a))
    assert status(state, ZESTES) == "board" and status(state, HECTOR) == "dead"
    effects = {e["hero"]: e["effect"] for e in of_type(outcome, "occurrence_effect")}
    assert effects == {ZESTES: "not_exposed", HECTOR: "killed"}
    # A Volcano on his very hex does not reach him either: it strikes land as an Earthquake.
    state = copy.deepcopy(base)
    put(state, HECTOR, GREEK_SHORE)
    outcome = run(state, {"activate": [{"code": "V", "hex": GREEK_SHORE}]},
                  phase=moving_phase(state, a))
    assert status(state, ZESTES) == "board" and status(state, HECTOR) == "dead"
    effects = {e["hero"]: e["effect"] for e in of_type(outcome, "occurrence_effect")}
    assert effects == {ZESTES: "not_exposed", HECTOR: "killed"}



def test_212_G_a_captor_may_leave_his_prize_and_another_hero_must_capture_it() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, "3011")
    place_prize(state, "helen", holder=HECTOR)
    state["prizes"]["helen"].update(captured_by=a, captured_turn=1, scored=[a])
    set_totals(state, a, {HECTOR: 3})
    run(state, {"attempt": [{"unit": HECTOR, "path": [], "drop": ["helen"]}]},
        phase=moving_phase(state, a))
    assert state["prizes"]["helen"]["holder"] == 0
    assert state["prizes"]["helen"]["hex"] == "3011"

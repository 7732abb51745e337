"""Optional Rule 303, the Lesser Evil unit counters (``--option lesser_evil=on``).

Tests are named after the clause they check (303 A-M); scenes are staged as in
:mod:`tests.mythology.test_turn` (a real set-up with the option on, then the board edited by
hand), and one whole game is played without bots to show that the state stays consistent.
The counters are authored (``data/lesser_evil.toml``): Sciron (67, Attack 20, Defense 64),
Sinis (66), Amycus (70, Defense 74), Empusa (72, magic), the Tyrrhenian (73) and Phoenician
(74) Pirates.
"""

from __future__ import annotations

import copy
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pbem.core.ruleset import Outcome, PhaseSpec
from pbem.games.mythology import combat
from pbem.games.mythology.components import (
    DATA,
    HERO_IDS,
    LESSER_IDS,
    MONSTER_IDS,
    ComponentDataError,
    load_dir,
)
from pbem.games.mythology.game import RULESET, _without_lesser
from pbem.games.mythology.moving import lesser_path_problems
from pbem.games.mythology.rules import control_of, partly_sea, points_on

from .scenario import (
    ACHILLES,
    AJAX,
    ATALANTA,
    CADMUS,
    HECTOR,
    INLAND,
    INLAND_2,
    INLAND_3,
    JASON,
    MACEDONIA,
    NESTOR,
    PERSEUS,
    PLAYERS,
    SOW,
    THESEUS,
    C,
    State,
    clear_board,
    glory_delta,
    glory_events,
    hero_hex,
    moving_phase,
    new_game,
    of_type,
    place_helper,
    put,
    rng,
    run,
    search,
    set_totals,
    status,
    write_sheet,
)

SINIS, SCIRON, AMYCUS, EMPUSA, TYRRHENIANS, PHOENICIANS = 66, 67, 70, 72, 73, 74
ON = {"setup": "random", "lesser_evil": "on"}

# Hexes of the real map (docs/games/mythology.md).
GREEK_SHORE = "3111"   # Greece, on the eastern Sea; Euboea (3112) lies across the water
EUBOEA = "3112"        # an island hex of the eastern Sea
SEA = "3211"           # all water, eastern Sea; next to 3111 and 3110 (Greek coast)
WEST_SEA = "0313"      # all water, western Sea; next to 0213, River Ocean water
OCEAN = "0213"
OCEAN_COAST = "2121"   # Libya, on the River Ocean; next to 2120, which is only on Lake Tritonus
LAKE_SHORE = "2120"
LAKE = "2220"          # Lake Tritonus, all water


# --- staging (like scenario.py, with the option on) ---------------------------------------------


def new_game_on(players: tuple[str, ...] = PLAYERS, key: str = "game") -> State:
    return RULESET.setup(players, ON, {}, rng(f"setup/{key}")).state


def scene() -> tuple[State, list[str]]:
    """An empty board in Turn 1 with Optional Rule 303: no Hero, Monster or Lesser Evil
    counter on the board, blank Log Sheets; the seats, clockwise."""
    state = new_game_on()
    clear_board(state)
    for x in state["lesser"].values():
        x.update(status="dead", hex="")
    for p in state["seats"]:
        write_sheet(state, p)
    return state, list(state["seats"])


def put_lesser(state: State, unit: int, hex_id: str) -> None:
    state["lesser"][str(unit)].update(status="board", hex=hex_id)


def lesser_hex(state: State, unit: int) -> str:
    return str(state["lesser"][str(unit)]["hex"])


def lesser_status(state: State, unit: int) -> str:
    return str(state["lesser"][str(unit)]["status"])


def problems(state: State, phase: PhaseSpec, player: str, orders: Mapping[str, Any]) -> str:
    return "\n".join(str(p) for p in RULESET.validate(state, phase, player, dict(orders)))


def moved(outcome: Outcome, unit: int) -> list[list[str]]:
    return [e["path"] for e in of_type(outcome, "move") if e["unit"] == unit]


# --- the option and the data ------------------------------------------------------------------


def test_303_option_off_by_default_no_lesser_evil_in_the_state_and_orders_refused() -> None:
    assert RULESET.options["lesser_evil"].default == "off"
    state = new_game()
    assert "lesser" not in state
    assert state["options"] == {"prayer": "off", "lesser_evil": "off"}
    assert "lesser" not in RULESET.view(state, None)
    # Every option is written into campaign.toml, with its default.
    assert RULESET.resolved_options({}) == {"lesser_evil": "off", "prayer": "off",
                                            "setup": "random", "zeus": ""}
    assert RULESET.resolved_options({"lesser_evil": "on"})["lesser_evil"] == "on"
    clear_board(state)
    a = state["seats"][0]
    put(state, AJAX, INLAND)
    phase = moving_phase(state, a)
    said = problems(state, phase, a, {"lesser": [{"unit": SCIRON, "path": [INLAND_2]}]})
    assert "[[orders.lesser]]" in said and "lesser_evil=on" in said
    said = problems(state, phase, a, {"combat": [{"attacker": SCIRON, "defender": AJAX}]})
    assert "must be unit numbers" in said
    # Resolved anyway (an order that skipped validation): nothing happens.
    outcome = run(state, {"lesser": [{"unit": SCIRON, "path": [INLAND_2]}],
                          "combat": [{"attacker": SCIRON, "defender": AJAX}]}, phase=phase)
    assert "lesser" not in state and not of_type(outcome, "combat")


def test_303_the_order_form_shows_the_lesser_table_only_when_the_rule_is_on() -> None:
    off, on = new_game(), new_game_on()
    phase = moving_phase(off, off["seats"][0])
    form_off = RULESET.order_form(RULESET.view(off, off["seats"][0]), phase, off["seats"][0])
    phase = moving_phase(on, on["seats"][0])
    form_on = RULESET.order_form(RULESET.view(on, on["seats"][0]), phase, on["seats"][0])
    assert "orders.lesser" not in form_off and "303" not in form_off
    assert "# [[orders.lesser]]" in form_on and "(303 E)" in form_on
    assert "Lesser Evil counters in your god's Area" in form_on
    raw = (Path(__file__).resolve().parents[2] / "orders/mythology/move.toml").read_text()
    assert _without_lesser(raw).count("\n") < raw.count("\n")
    assert "303" not in _without_lesser(raw) and "[[orders.combat]]" in _without_lesser(raw)


def test_303_counters_are_authored_with_ids_after_the_monsters() -> None:
    assert C.lesser and set(C.lesser) <= set(LESSER_IDS)
    assert not set(C.lesser) & (set(HERO_IDS) | set(MONSTER_IDS))
    seas = [a for a in C.map.areas.values() if a.kind == "sea"]
    assert len([x for x in C.lesser.values() if x.pirate]) == len(seas) == 2  # 303 B
    assert all(x.printed == frozenset() for x in C.lesser.values())  # 303 prints no numbers
    text = (DATA / "lesser_evil.toml").read_text(encoding="utf-8")
    assert text.startswith("# Source: authored")
    monster_defense = [m.defense for m in C.monsters.values()]
    for x in C.lesser.values():  # on the Monsters' scales (303 H)
        assert x.attack % 10 == 0 and 0 < x.attack <= 50
        assert min(monster_defense) <= x.defense <= max(monster_defense)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('name = "Sciron"', 'name = "Sciron"\ncolour = "red"',
     r"lesser_evil\.toml \[\[lesser_evil\]\] 67 colour: unknown key"),
    ("id = 67\n", "id = 40\n", r"lesser_evil\.toml \[\[lesser_evil\]\] #3 id: is 40, outside 65"),
    ("pirate = true\n", "", r"lesser_evil\.toml \[\[lesser_evil\]\]: has 1 Pirates; 303 B"),
    ("attack = 30\ndefense = 66", "attack = 30",
     r"lesser_evil\.toml \[\[lesser_evil\]\] 65 defense: is missing"),
], ids=["unknown-key", "id-range", "pirate-count", "missing-key"])
def test_303_the_loader_checks_the_lesser_evil_file(tmp_path: Path, old: str, new: str,
                                                    message: str) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    path = data / "lesser_evil.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ComponentDataError, match=message):
        load_dir(data)


# --- 303 A-C: set-up ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["a", "b", "c", "d"])
def test_303_A_C_placed_on_land_with_the_monsters_away_from_greece_one_per_hex(key: str) -> None:
    setup_rng = rng(f"setup/{key}")
    outcome = RULESET.setup(PLAYERS, ON, {}, setup_rng)
    state = outcome.state
    off = RULESET.setup(PLAYERS, {"setup": "random"}, {}, rng(f"setup/{key}")).state
    # Drawn just after the Monsters (303 A): what came before is placed as without the rule.
    for table in ("prizes", "helpers", "monsters"):
        assert state[table] == off[table]
    assert set(state["lesser"]) == {str(u) for u in C.lesser}
    labels = {d.label for d in setup_rng.public.draws}
    assert {f"setup/lesser/{u}" for u in C.lesser} <= labels
    # Where each was placed face down, before the Pirates sail (303 C).
    first = {e["unit"]: e["from"] for e in of_type(outcome, "pirate-to-sea")}
    taken: list[str] = [x["hex"] for x in state["prizes"].values()]
    taken += [x["hex"] for x in state["helpers"].values()]
    taken += [x["hex"] for t in ("heroes", "monsters", "lesser") for x in state[t].values()
              if x["status"] == "board"]
    assert len(taken) == len(set(taken))  # 102 D 1-2, E 1: one counter a hex
    for u, x in state["lesser"].items():
        assert x["status"] == "board"
        placed = first.get(int(u), x["hex"])
        assert C.map.is_land(placed)  # 303 C
        assert C.map.distance_to_area(placed, "greece") > 2  # 102 D 3, as the Monsters
    assert state == RULESET.setup(PLAYERS, ON, {}, rng(f"setup/{key}")).state  # deterministic


@pytest.mark.parametrize("key", ["a", "b", "c", "d", "e", "f"])
def test_303_B_pirates_go_one_to_each_sea_area(key: str) -> None:
    outcome = RULESET.setup(PLAYERS, ON, {}, rng(f"setup/{key}"))
    state = outcome.state
    pirates = sorted(u for u, x in C.lesser.items() if x.pirate)
    areas = sorted(C.map.area_of(lesser_hex(state, u)) for u in pirates)
    assert areas == ["sea_east", "sea_west"]
    for u in pirates:
        assert not C.map.is_land(lesser_hex(state, u))  # on a water hex of its Area
    sailed = of_type(outcome, "pirate-to-sea")
    assert sorted(e["unit"] for e in sailed) == pirates
    assert {e["area"] for e in sailed} == {"sea_east", "sea_west"}
    # The others stay where they were placed, on land.
    assert all(C.map.is_land(lesser_hex(state, u)) for u in C.lesser if u not in pirates)


def test_303_historical_set_up_places_them_too() -> None:
    state = RULESET.setup(PLAYERS, {"setup": "historical", "lesser_evil": "on"}, {},
                          rng("setup/hist")).state
    monster_hexes = {x["hex"] for x in state["monsters"].values()}
    assert all(x["status"] == "board" and x["hex"] not in monster_hexes
               for x in state["lesser"].values())


# --- 303 D-F: who moves them, how far ----------------------------------------------------------


def test_303_D_two_hexes_and_once_in_a_moving_player_phase() -> None:
    state, (a, _, _) = scene()
    put_lesser(state, SCIRON, INLAND)
    phase = moving_phase(state, a)
    three = {"lesser": [{"unit": SCIRON, "path": [INLAND_2, INLAND_3, "2908"]}]}
    assert "303 D" in problems(state, phase, a, three)
    twice = {"lesser": [{"unit": SCIRON, "path": [INLAND_2]},
                        {"unit": SCIRON, "path": [INLAND_3]}]}
    assert "303 D" in problems(state, phase, a, twice)
    assert problems(state, phase, a, {"lesser": [{"unit": SCIRON,
                                                  "path": [INLAND_2, INLAND_3]}]}) == ""
    s = copy.deepcopy(state)
    outcome = run(s, three, phase=phase)  # resolved anyway: the third step is not taken
    assert lesser_hex(s, SCIRON) == INLAND_3 and of_type(outcome, "move-stopped")
    outcome = run(state, twice, phase=phase)
    assert lesser_hex(state, SCIRON) == INLAND_2
    assert [e["unit"] for e in of_type(outcome, "lesser-void")] == [SCIRON]


def test_303_E_only_gods_in_the_same_area_move_them_free_of_the_five() -> None:
    state, (a, _, _) = scene()
    heroes = [PERSEUS, CADMUS, THESEUS, JASON, ATALANTA]
    for hero in heroes:
        put(state, hero, INLAND)
    put_lesser(state, SCIRON, INLAND_2)     # in Greece, with a's god
    put_lesser(state, SINIS, MACEDONIA)     # elsewhere
    phase = moving_phase(state, a)
    orders: dict[str, Any] = {
        "attempt": [{"unit": h, "path": [INLAND_2]} for h in heroes],
        "lesser": [{"unit": SCIRON, "path": [INLAND_3, "2908"]}]}
    assert problems(state, phase, a, orders) == ""  # five attempts and a Lesser Evil move
    elsewhere = {"lesser": [{"unit": SINIS, "path": ["2907"]}]}
    said = problems(state, phase, a, elsewhere)
    assert "303 E" in said and "Macedonia" in said and "Greece" in said
    before = dict(state["glory"])
    outcome = run(state, {**orders, "lesser": [*orders["lesser"], *elsewhere["lesser"]]},
                  phase=phase)
    assert all(hero_hex(state, h) == INLAND_2 for h in heroes)   # all five moved
    assert lesser_hex(state, SCIRON) == "2908"                   # and Sciron, free
    assert lesser_hex(state, SINIS) == MACEDONIA                 # Sinis is not a's to move
    assert [e["unit"] for e in of_type(outcome, "lesser-void")] == [SINIS]
    assert len(of_type(outcome, "unchallenged")) == 5            # no auction for Sciron
    assert glory_delta(before, state["glory"]) == {a: 5}         # 216 G 5 for Heroes only


def test_303_E_the_area_is_judged_as_the_phase_begins() -> None:
    state, (a, _, _) = scene()
    state["gods"][a] = "hermes"  # Messenger of the Gods: relocate his god counter (203 F)
    put_lesser(state, SCIRON, INLAND)
    put_lesser(state, SINIS, MACEDONIA)
    orders = {"power": [{"id": "messenger_of_the_gods", "area": "macedonia"}],
              "lesser": [{"unit": SCIRON, "path": [INLAND_2]}]}
    phase = moving_phase(state, a)
    assert problems(state, phase, a, orders) == ""
    s = copy.deepcopy(state)
    run(s, orders, phase=phase)
    assert s["god_area"][a] == "macedonia" and lesser_hex(s, SCIRON) == INLAND_2
    late = {"power": orders["power"], "lesser": [{"unit": SINIS, "path": ["2907"]}]}
    assert "303 E" in problems(state, phase, a, late)
    outcome = run(state, late, phase=phase)
    assert lesser_hex(state, SINIS) == MACEDONIA and of_type(outcome, "lesser-void")


def test_303_F_every_god_in_the_area_moves_them_in_its_own_phase() -> None:
    state, (a, b, c) = scene()
    put_lesser(state, SCIRON, INLAND)
    moving_phase(state, a, areas={a: "greece", b: "greece", c: "macedonia"})
    c_phase_now = PhaseSpec("t01.move.c", "move", (c,), active=c)
    assert "303 E" in problems(state, c_phase_now, c,
                               {"lesser": [{"unit": SCIRON, "path": [INLAND_2]}]})
    run(state, {"lesser": [{"unit": SCIRON, "path": [INLAND_2, INLAND_3]}]})   # a
    assert lesser_hex(state, SCIRON) == INLAND_3
    run(state, {"lesser": [{"unit": SCIRON, "path": ["2908"]}]})               # b, Greece too
    assert lesser_hex(state, SCIRON) == "2908"                                 # in Macedonia
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.active == c
    # Now in Macedonia as c's phase begins: c's to move.
    assert problems(state, phase, c, {"lesser": [{"unit": SCIRON, "path": ["2907"]}]}) == ""
    run(state, {"lesser": [{"unit": SCIRON, "path": ["2907"]}]}, phase=phase)
    assert lesser_hex(state, SCIRON) == "2907"


# --- 303 G: Divine Occurrences ------------------------------------------------------------------


def test_303_G_occurrences_do_not_touch_them() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    put(state, AJAX, INLAND_2)
    put_lesser(state, SCIRON, INLAND)
    put_lesser(state, SINIS, INLAND_2)
    write_sheet(state, a, occurrences=[("Pe", 10), ("F", 10), ("V", 10), ("E", 10)])
    orders = {"activate": [{"code": "Pe"}, {"code": "F"}, {"code": "V", "hex": INLAND},
                           {"code": "E"}],
              "lesser": [{"unit": SINIS, "path": [INLAND_3]}]}
    phase = moving_phase(state, a)
    assert problems(state, phase, a, orders) == ""
    outcome = run(state, orders, phase=phase)
    assert status(state, HECTOR) == status(state, AJAX) == "dead"
    assert lesser_status(state, SCIRON) == "board" and lesser_hex(state, SCIRON) == INLAND
    assert lesser_hex(state, SINIS) == INLAND_3  # Pestilence did not hold it (210 G 5)
    touched = {e["hero"] for e in of_type(outcome, "occurrence_effect")}
    assert touched and not touched & set(C.lesser)
    effects = state["turn_effects"]
    assert not (set(effects.get("pestilence", [])) | set(effects.get("famine", []))) & set(
        C.lesser)


# --- 303 H, I, L: Combat like Monsters, no Control, never with Monsters --------------------------


def test_303_H_a_hero_attacking_one_rolls_alone_once_and_one_attacking_a_hero_fights() -> None:
    state, (a, _, _) = scene()
    put(state, AJAX, INLAND)               # Attack 30 against Defense 64: a roll decides
    put_lesser(state, SCIRON, INLAND)
    set_totals(state, a, {AJAX: 3})
    moving_phase(state, a)
    outcome = run(copy.deepcopy(state), {"combat": [{"attacker": AJAX, "defender": SCIRON}]})
    rolls = of_type(outcome, "roll")
    assert [(e["unit"], e["rule"]) for e in rolls] == [(AJAX, "205 G")]   # 205 G, once
    assert len(of_type(outcome, "killed")) == 1
    # Attacking a Hero, it fights round after round, both rolling (205 F, 206 D 5).
    outcome = run(state, {"combat": [{"attacker": SCIRON, "defender": AJAX}]})
    rolls = of_type(outcome, "roll")
    assert {e["unit"] for e in rolls} == {SCIRON, AJAX} and len(rolls) % 2 == 0
    assert rolls[0]["unit"] == SCIRON


def test_303_H_211_J_a_lesser_evil_counter_keeps_a_hero_from_a_helper() -> None:
    state, (a, _, _) = scene()
    put(state, HECTOR, INLAND)
    put_lesser(state, SCIRON, INLAND_2)
    place_helper(state, "harpe", INLAND_2)
    run(state, {"attempt": [{"unit": HECTOR, "path": [INLAND_2]}]}, phase=moving_phase(state, a))
    assert hero_hex(state, HECTOR) == INLAND_2 and state["helpers"]["harpe"]["holder"] == 0


def test_303_I_they_are_not_subject_to_control() -> None:
    state, (a, _, _) = scene()
    put_lesser(state, SCIRON, INLAND)
    log = RULESET.next_phase(state)
    assert log is not None and log.kind == "logsheet"
    assert RULESET.validate(state, log, a, {"monsters": {str(SCIRON): 2}})       # 009 E 1
    assert RULESET.validate(state, log, a, {"challenge": [{"unit": SCIRON, "limit": 3}]})
    assert points_on(state, SCIRON) == dict.fromkeys(state["seats"], 0)
    assert control_of(state, SCIRON) is None
    phase = moving_phase(state, a)
    said = problems(state, phase, a, {"attempt": [{"unit": SCIRON, "path": [INLAND_2]}]})
    assert "[[orders.lesser]]" in said
    outcome = run(state, {"lesser": [{"unit": SCIRON, "path": [INLAND_2]}]}, phase=phase)
    assert not of_type(outcome, "unchallenged") and not of_type(outcome, "challenge_result")


def test_303_L_no_fight_with_monsters() -> None:
    state, (a, b, _) = scene()
    put(state, SOW, INLAND)
    put_lesser(state, SCIRON, INLAND)
    put_lesser(state, SINIS, INLAND)
    phase = moving_phase(state, a)
    for attacker, defender, rule in ((SOW, SCIRON, "303 L"), (SCIRON, SOW, "303 L"),
                                     (SCIRON, SINIS, "205 C")):
        said = problems(state, phase, a, {"combat": [{"attacker": attacker,
                                                      "defender": defender}]})
        assert rule in said, said
    outcome = run(copy.deepcopy(state), {"combat": [{"attacker": SOW, "defender": SCIRON},
                                                    {"attacker": SCIRON, "defender": SOW}]},
                  phase=phase)
    assert not of_type(outcome, "combat")
    with pytest.raises(ValueError, match="303 L"):
        combat.resolve(combat.Fighter(SCIRON, "lesser", 20, 64, None),
                       combat.Fighter(SOW, "monster", 20, 70, None), rng("x").public, "x")
    # A Monster b Controls does not intercept one moving into its hex (205 I); a Hero does.
    state["logsheets"][b]["1"] = {"monsters": {str(SOW): 3},
                                  "intercepts": [{"unit": SOW, "target": 0}]}
    put_lesser(state, SCIRON, INLAND_2)
    outcome = run(copy.deepcopy(state), {"lesser": [{"unit": SCIRON, "path": [INLAND]}]},
                  phase=phase)
    assert not of_type(outcome, "intercept") and not of_type(outcome, "combat")
    put(state, ACHILLES, INLAND)
    set_totals(state, b, {ACHILLES: 3})
    state["logsheets"][b]["1"] = {"heroes": {str(ACHILLES): 1}, "aid": {str(ACHILLES): 3},
                                  "intercepts": [{"unit": ACHILLES, "target": 0}]}
    before = dict(state["glory"])
    outcome = run(state, {"lesser": [{"unit": SCIRON, "path": [INLAND]}]}, phase=phase)
    assert [(e["unit"], e["target"]) for e in of_type(outcome, "intercept")] == [
        (ACHILLES, SCIRON)]
    assert lesser_status(state, SCIRON) == "dead"   # Attack 70: 11 + 70 >= 64
    assert glory_delta(before, state["glory"]) == {b: 1}  # 303 K


# --- 303 J, K: Glory ---------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "gain"), [
    ({"b": 7}, 2),      # 216 G 4 a: 7 / 5 rounded up, as if the mover Controlled it
    ({}, -5),           # 216 G 4 b: nobody Controlled the Hero
    ({"a": 5}, -5),     # 216 G 4 c: the Moving Player Controlled him
])
def test_303_J_K_glory(points: dict[str, int], gain: int) -> None:
    state, seats = scene()
    names = dict(zip("abc", seats, strict=True))
    a = names["a"]
    put(state, NESTOR, INLAND)
    put_lesser(state, SCIRON, INLAND)
    for key, total in points.items():
        set_totals(state, names[key], {NESTOR: total})
    moving_phase(state, a)
    before = dict(state["glory"])
    orders = {"combat": [{"attacker": SCIRON, "defender": NESTOR}]}
    # J: Sciron attacks for the Moving Player and kills Nestor.
    killed = search(state, orders, lambda o: status(o.state, NESTOR) == "dead")
    assert lesser_status(killed.state, SCIRON) == "board"
    assert glory_delta(before, killed.state["glory"]) == {a: gain} == glory_events(killed)
    # K: Nestor kills Sciron: whoever Controls Nestor gains 1, and nobody else anything.
    survived = search(state, orders, lambda o: lesser_status(o.state, SCIRON) == "dead")
    owner = control_of(state, NESTOR)
    expected = {owner: 1} if owner else {}
    assert glory_delta(before, survived.state["glory"]) == expected == glory_events(survived)


def test_303_K_a_controlled_hero_killing_one_gives_one_not_three() -> None:
    state, (a, _, _) = scene()
    put(state, ACHILLES, INLAND)
    put_lesser(state, SCIRON, INLAND)
    set_totals(state, a, {ACHILLES: 3})
    write_sheet(state, a, heroes={ACHILLES: 1}, aid={ACHILLES: 3})  # 11 + 70 >= 64: sure
    before = dict(state["glory"])
    outcome = run(state, {"combat": [{"attacker": ACHILLES, "defender": SCIRON}]},
                  phase=moving_phase(state, a))
    assert lesser_status(state, SCIRON) == "dead" and lesser_hex(state, SCIRON) == ""
    assert glory_delta(before, state["glory"]) == {a: 1} == glory_events(outcome)
    assert state["stats"]["monsters_killed"] == 0  # not a Monster (216 G 7)


def test_303_J_applies_only_when_it_attacks() -> None:
    state, (a, _, _) = scene()
    put(state, AJAX, INLAND)
    put_lesser(state, AMYCUS, INLAND)         # Defense 74: Ajax (30) may fail
    set_totals(state, a, {AJAX: 4})
    moving_phase(state, a)
    before = dict(state["glory"])
    outcome = search(state, {"combat": [{"attacker": AJAX, "defender": AMYCUS}]},
                     lambda o: status(o.state, AJAX) == "dead")
    # a's own Hero died attacking: 216 G 4 c would cost a 5 were Amycus anyone's; it is not.
    assert glory_delta(before, outcome.state["glory"]) == {} == glory_events(outcome)


# --- 303 M: where they may go -------------------------------------------------------------------


def test_303_M_pirates_stay_at_sea() -> None:
    state, (a, _, _) = scene()
    put_lesser(state, TYRRHENIANS, SEA)
    phase = moving_phase(state, a, areas={a: "sea_east"})
    inland = {"lesser": [{"unit": TYRRHENIANS, "path": [GREEK_SHORE, INLAND]}]}
    said = problems(state, phase, a, inland)
    assert "303 M" in said and "step 2" in said and "step 1" not in said
    assert problems(state, phase, a, {"lesser": [{"unit": TYRRHENIANS,
                                                  "path": [GREEK_SHORE, EUBOEA]}]}) == ""
    outcome = run(state, inland, phase=phase)  # resolved anyway: it stops on the coast
    assert lesser_hex(state, TYRRHENIANS) == GREEK_SHORE and of_type(outcome, "move-stopped")
    # The River Ocean is theirs; the shore of a lake is not The Sea.
    assert partly_sea(C.map, OCEAN) and partly_sea(C.map, GREEK_SHORE)
    assert not partly_sea(C.map, INLAND) and not partly_sea(C.map, LAKE_SHORE)
    assert not partly_sea(C.map, LAKE)
    assert lesser_path_problems(C, PHOENICIANS, WEST_SEA, [OCEAN], "w") == []
    assert "303 M" in str(lesser_path_problems(C, PHOENICIANS, OCEAN_COAST, [LAKE_SHORE], "w"))


def test_303_M_the_others_keep_to_hexes_with_land() -> None:
    state, (a, _, _) = scene()
    put_lesser(state, SCIRON, GREEK_SHORE)
    phase = moving_phase(state, a)
    said = problems(state, phase, a, {"lesser": [{"unit": SCIRON, "path": [SEA]}]})
    assert "303 M" in said and "all water" in said
    across = {"lesser": [{"unit": SCIRON, "path": [EUBOEA]}]}  # an island across the water
    assert problems(state, phase, a, across) == ""
    run(state, across, phase=phase)
    assert lesser_hex(state, SCIRON) == EUBOEA
    assert "303 M" in str(lesser_path_problems(C, SCIRON, OCEAN_COAST, [LAKE_SHORE, LAKE], "x"))


# --- views and reports --------------------------------------------------------------------------


def test_303_they_are_shown_face_up_to_everyone() -> None:
    state, (a, b, _) = scene()
    put_lesser(state, SCIRON, INLAND)
    put_lesser(state, TYRRHENIANS, SEA)
    for who in (None, a, b):
        assert RULESET.view(state, who)["lesser"] == state["lesser"]
    context = RULESET.report_public(RULESET.view(state, None))
    items = {area["name"]: area["items"] for area in context["areas"]}
    # Issue 14: each unit with its hex and the hexes next to it (204 E).
    assert "Lesser Evil Sciron (67) 3011; next: 2910 2911 3010 3012 3110 3111" in \
        items["Greece"]
    assert any(x.startswith("Pirate Tyrrhenian Pirates (73) 3211; next: ")
               for x in items["The Sea (eastern Area) [sea_east]"])


# --- a whole game, no bots ----------------------------------------------------------------------


def _plain(value: Any, where: str) -> None:
    """No None and no float anywhere (canonical JSON state, events as plain data)."""
    assert value is not None and not isinstance(value, float), where
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str), where
            _plain(v, f"{where}.{k}")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            _plain(v, f"{where}[{i}]")


def _lesser_orders(state: State, player: str) -> dict[str, Any]:
    """Move every Lesser Evil counter the god may move (303 E) one or two legal hexes, toward a
    Hero when one is that close, and attack him there (303 H, J)."""
    area = state["god_area"][player]
    heroes = {x["hex"]: int(h) for h, x in sorted(state["heroes"].items())
              if x["status"] == "board"}
    moves, fights = [], []
    for u, x in sorted(state["lesser"].items(), key=lambda kv: int(kv[0])):
        if x["status"] != "board" or not area or C.map.area_of(x["hex"]) != area:
            continue
        unit = int(u)
        paths = [[n] for n in C.map.neighbours(x["hex"])]
        paths += [[n, m] for (n,) in paths for m in C.map.neighbours(n) if m != x["hex"]]
        legal = [p for p in paths if not lesser_path_problems(C, unit, x["hex"], p, "")]
        if not legal:
            continue
        path = next((p for p in legal if p[-1] in heroes), legal[-1])
        moves.append({"unit": unit, "path": path})
        if path[-1] in heroes:
            fights.append({"attacker": unit, "defender": heroes[path[-1]]})
    orders: dict[str, Any] = {}
    if moves:
        orders["lesser"] = moves
    if fights:
        orders["combat"] = fights
    return orders


@pytest.mark.parametrize("active", [False, True], ids=["default-orders", "lesser-moves"])
def test_303_a_whole_game_with_the_rule_on_stays_consistent(active: bool) -> None:
    players = ("ann", "ben", "cyd", "dee")
    state = RULESET.setup(players, ON, {}, rng(f"whole/{active}")).state
    pirates = {u for u, x in C.lesser.items() if x.pirate}
    phases = 0
    glory = dict(state["glory"])
    while (phase := RULESET.next_phase(state)) is not None:
        phases += 1
        orders: dict[str, dict[str, Any]] = {
            p: dict(RULESET.default_orders(state, phase, p)) for p in phase.actors}
        if active and phase.kind == "place":
            on_board = sorted(int(u) for u, x in state["lesser"].items()
                              if x["status"] == "board")
            if on_board:  # go where a Lesser Evil counter is, to move it
                pick = on_board[(state["turn"] + state["cursor"]) % len(on_board)]
                orders[phase.actors[0]] = {
                    "area": C.map.area_of(state["lesser"][str(pick)]["hex"])}
        if active and phase.kind == "move":
            assert phase.active is not None
            orders[phase.active] = _lesser_orders(state, phase.active)
        for p, o in orders.items():
            assert RULESET.validate(state, phase, p, o) == [], (phase.id, o)
        before = copy.deepcopy(state["lesser"])
        outcome = RULESET.resolve(state, phase, orders, rng(f"whole/{active}/{phase.id}"))
        state = outcome.state
        for e in outcome.events:
            assert isinstance(e.get("type"), str) and isinstance(e.get("text"), str), e
            _plain(e, f"{phase.id} event")
            if e["type"] == "glory":
                glory[e["player"]] += e["amount"]
            elif e["type"] == "special-victory":
                glory[e["player"]] += e["glory"]
        assert glory == state["glory"], phase.id
        _plain(state, "state")
        for u, x in state["lesser"].items():
            assert x["status"] in ("board", "dead") and bool(x["hex"]) == (x["status"] == "board")
            was = before[u]
            if x["status"] == "board":
                if int(u) in pirates:
                    assert partly_sea(C.map, x["hex"]), (phase.id, u, x)   # 303 M
                else:
                    assert C.map.is_land(x["hex"]), (phase.id, u, x)       # 303 M
                assert C.map.distance(was["hex"], x["hex"]) <= 2           # 303 D
            assert not (was["status"] == "dead" and x["status"] == "board")
        assert not set(state["ships"]) & set(C.lesser)
        dead_monsters = sum(x["status"] == "dead" for x in state["monsters"].values())
        assert state["stats"]["monsters_killed"] == dead_monsters
    assert state["step"] == "over" and phases > 15 * 6
    if active:
        assert any(x["hex"] for x in state["lesser"].values())

"""Issue 15: a Hero's Defense (and Hercules' Attack) Number "as it stands at that moment".

Every rule that compares with a Hero's "Defense Number" (206 D 3 Combat, 210 G 1-6 Divine
Occurrences, 215 F 2 ships) takes the number the Turn has made of it: a Famine halves it "for
the remainder of the game Turn" (210 G 6), a card, power or Prayer adds "+N for the rest of the
Turn". One function computes it, :func:`pbem.games.mythology.combat.defense_now`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from pbem.core.ruleset import Outcome
from pbem.games.mythology import combat, logsheet, occurrences
from pbem.games.mythology.occurrences import Target
from tests.mythology.scenario import (
    EUBOEA,
    GREEK_SHORE,
    HECTOR,
    HERCULES,
    INLAND,
    SOW,
    ZESTES,
    State,
    moving_phase,
    of_type,
    put,
    run,
    scene,
    search,
    set_totals,
    status,
    write_sheet,
)


def _gods(state: State, *gods: str) -> list[str]:
    """Give the seats these gods, in seating order; the seats."""
    seats = list(state["seats"])
    state["gods"] = dict(zip(seats, gods, strict=True))
    return seats


def _effect_on(outcome: Outcome, code: str, hero: int) -> dict[str, Any]:
    return next(e for e in of_type(outcome, "occurrence_effect")
                if e["code"] == code and e["hero"] == hero)


def _total(outcome: Outcome, code: str) -> int:
    return int(next(e for e in of_type(outcome, "occurrence") if e["code"] == code)["total"])


def _total_in(code: str, low: int, high: int) -> Callable[[Outcome], bool]:
    return lambda o: low <= _total(o, code) <= high


# --- 210 G 6 with 210 G 1: the Famine's halving holds for the Earthquake later in the Turn ---


def test_210_G6_famine_then_earthquake_kills_halved_hero() -> None:
    # 210 G 6: "...that Hero has his Defense Number AND his Attack Number reduced by half (1/2)
    # (rounded down to the nearest ten) for the remainder of the game Turn."
    # 210 G 1: "...compares the modified dice roll to the Defense Number of EACH Hero counter in
    # the effected Area. All Hero counters with a Defense Number Less than the modified
    # Earthquake dice roll are killed..."
    state, _ = scene()
    a, b, _c = _gods(state, "athena", "hera", "apollo")  # no occurrence bonus on F or E
    put(state, HECTOR, INLAND)  # Defense 72
    write_sheet(state, a, occurrences=[("F", 6)])
    write_sheet(state, b, occurrences=[("E", 1)])
    moving_phase(state, a)
    famished = search(state, {"activate": [{"code": "F"}]},
                      lambda o: _effect_on(o, "F", HECTOR)["effect"] == "famished")
    state = famished.state
    assert state["turn_effects"]["famine"] == [HECTOR]
    # A later Moving Player's Earthquake, same Turn, with a total the printed 72 would survive.
    moving_phase(state, b)
    quake = search(state, {"activate": [{"code": "E"}]}, _total_in("E", 31, 72))
    hit = _effect_on(quake, "E", HECTOR)
    assert hit["defense"] == 30  # 72 halved is 36, rounded down to the nearest ten
    assert hit["effect"] == "killed" and status(quake.state, HECTOR) == "dead"
    assert "halved by Famine" in hit["text"]


def test_210_G6_halving_rounds_down_to_tens_and_each_famine_halves_again() -> None:
    # 210 G 6: "reduced by half (1/2) (rounded down to the nearest ten)". A second Famine that
    # reaches him halves the Defense Number as it then stands.
    assert combat.defense_now(72, famines=1) == 30
    assert combat.defense_now(72, famines=2) == 10
    assert combat.defense_now(53, helpers=20, famines=1) == 30  # Zestes + Helmet: 73 -> 30
    assert combat.defense_now(72, famines=1, bonus=20) == 50  # the Turn's +20 stays whole
    famished_twice = Target(HECTOR, 72, on_land=True, on_ship=False, famines=2)
    assert occurrences.occurrence_defense(famished_twice) == 10


def test_214_B_famine_halves_hercules_occurrence_defense_of_120() -> None:
    # 214 B: "For purposes of determining if Hercules is effected by a Divine Occurrence,
    # Hercules has a Defense Number of 120"; a Famine that reached him halves that number.
    herc = Target(HERCULES, 88, on_land=True, on_ship=False, hercules=True)
    famished = Target(HERCULES, 88, on_land=True, on_ship=False, hercules=True, famines=1)
    assert occurrences.occurrence_defense(herc) == 120
    assert occurrences.occurrence_defense(famished) == 60


# --- the Turn's +N Defense (011 card or power, 302 Prayer) holds against an occurrence ---


def test_210_G1_plus_20_defense_power_protects_hero_from_earthquake() -> None:
    # Athena's Aegis-Bearer (011, the "defense" effect): "one Hero's Defense Number is
    # increased by 20 for the rest of the Turn". 210 G 1 compares with "the Defense Number":
    # Hector's is 92 after it, so an Earthquake of 73-92 spares him; without it, it kills.
    state, _ = scene()
    a, _b, _c = _gods(state, "athena", "hera", "apollo")
    put(state, HECTOR, INLAND)
    write_sheet(state, a, occurrences=[("E", 2)])
    moving_phase(state, a)
    aegis = {"power": [{"id": "aegis_bearer", "unit": HECTOR}], "activate": [{"code": "E"}]}
    plain = {"activate": [{"code": "E"}]}
    for key in range(400):
        guarded = run(copy.deepcopy(state), aegis, key=str(key))
        if 73 <= _total(guarded, "E") <= 92:
            break
    else:
        raise AssertionError("no key gives an Earthquake of 73 to 92")
    hit = _effect_on(guarded, "E", HECTOR)
    assert hit["defense"] == 92 and hit["effect"] == "unaffected"
    assert status(guarded.state, HECTOR) == "board"
    bare = run(copy.deepcopy(state), plain, key=str(key))  # the same dice, no Aegis
    assert _total(bare, "E") == _total(guarded, "E")
    assert _effect_on(bare, "E", HECTOR)["effect"] == "killed"


# --- 215 F 2: the ship roll against the Defense Number as it stands ---


def test_215_F2_ship_roll_compares_with_the_defense_number_now() -> None:
    # 215 F 2: "If the number is equal to or LESS than the Hero counter's Defense number the
    # Hero has obtained a ship". Zestes' 53 is 73 after a +20 Defense power...
    state, _ = scene()
    a, _b, _c = _gods(state, "athena", "hera", "apollo")
    put(state, ZESTES, GREEK_SHORE)
    moving_phase(state, a)
    orders = {"power": [{"id": "aegis_bearer", "unit": ZESTES}],
              "attempt": [{"unit": ZESTES, "path": [EUBOEA], "ship": "start"}]}
    got = search(state, orders, lambda o: 54 <= of_type(o, "ship-roll")[0]["roll"] <= 73)
    assert of_type(got, "ship-roll")[0]["success"] is True
    assert ZESTES in got.state["ships"]
    # ... and 20 after a Famine (53 halved, rounded down to the nearest ten).
    state["turn_effects"]["famine"] = [ZESTES]
    orders = {"attempt": [{"unit": ZESTES, "path": [EUBOEA], "ship": "start"}]}
    missed = search(state, orders, lambda o: 21 <= of_type(o, "ship-roll")[0]["roll"] <= 53)
    assert of_type(missed, "ship-roll")[0]["success"] is False
    assert "against Defense 20" in of_type(missed, "ship-roll")[0]["text"]
    assert ZESTES not in missed.state["ships"]


# --- 214 A 3 a: the remorse roll against Hercules' Attack Number, Aid included ---


def _hercules_fights(aid: int = 0, ailment: int = 0) -> tuple[State, str]:
    state, _ = scene()
    a, b, _c = _gods(state, "athena", "hera", "apollo")
    put(state, HERCULES, INLAND)
    put(state, SOW, INLAND)
    set_totals(state, a, {HERCULES: 3})
    write_sheet(state, a, heroes={HERCULES: 1}, aid={HERCULES: aid} if aid else None)
    if ailment:
        sheet = logsheet.LogSheet(ailment={HERCULES: ailment})
        state["logsheets"][b][str(state["turn"])] = sheet.as_dict()
    moving_phase(state, a)
    return state, a


def _remorse(outcome: Outcome) -> dict[str, Any]:
    return next(e for e in of_type(outcome, "remorse") if "roll" in e)


def test_214_A3a_remorse_compares_with_the_aided_attack_number() -> None:
    # 214 A 3 a: "The number is compared to Hercules' Attack Number. If the number rolled is
    # less than Hercules Attack Number, Hercules becomes filled with Remorse."
    # 207 A 1: "that counter has its Attack Number increased by 10 (ten) for each point of
    # Aid given" (and "reduced by 10 (ten) for each point of Ailment").
    state, _ = _hercules_fights(aid=2)  # Attack 40 + 20 = 60
    orders = {"combat": [{"attacker": HERCULES, "defender": SOW}]}
    outcome = search(state, orders, lambda o: 40 <= _remorse(o)["roll"] < 60)
    check = _remorse(outcome)
    assert check["attack"] == 60 and check["remorse"] is True  # the printed 40 would not
    assert outcome.state["remorse"]
    # Ailment lowers the number: 40 - 10 = 30, and a roll of 30-39 no longer fills him.
    state, _ = _hercules_fights(ailment=1)
    outcome = search(state, orders, lambda o: 30 <= _remorse(o)["roll"] < 40)
    check = _remorse(outcome)
    assert check["attack"] == 30 and check["remorse"] is False
    assert not outcome.state["remorse"]

"""Issue 15: clauses that had no test of their own: 302 E-F, 302 G, 302 I a-b, 010 F, 215 F 3-4.

Each test quotes its clause and asserts what a wrong implementation would get wrong.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.games.mythology import moving, prayer
from pbem.games.mythology.game import RULESET
from tests.mythology.scenario import (
    AJAX,
    ATALANTA,
    CADMUS,
    EUBOEA,
    GREEK_SHORE,
    HECTOR,
    INLAND,
    JASON,
    KARKINOS,
    PERSEUS,
    SOW,
    THESEUS,
    ZESTES,
    C,
    Event,
    State,
    fate_phase,
    glory_events,
    hero_hex,
    moving_phase,
    of_type,
    place_helper,
    place_prize,
    put,
    run,
    scene,
    search,
    set_totals,
    status,
    stream,
    write_sheet,
)


def _gods(state: State, *gods: str) -> list[str]:
    seats = list(state["seats"])
    state["gods"] = dict(zip(seats, gods, strict=True))
    return seats


def _offer(state: State, player: str, *offers: prayer.Offer) -> None:
    state.setdefault("offers", {})[player] = [o.as_dict() for o in offers]


def _pray_until(state: State, wanted: Any) -> list[Event]:
    """302 H on copies of ``state`` with dice keys 0, 1, ...: keep the first whose (only)
    table result satisfies ``wanted``; the state becomes that copy."""
    for i in range(400):
        trial = copy.deepcopy(state)
        events = prayer.resolve(C, trial, stream(f"issue15/pray/{i}"))
        results = [e for e in events if e["type"] in ("prayer", "sacrifice")]
        if results and wanted(results[0]["result"]):
            state.clear()
            state.update(trial)
            return events
    raise AssertionError("no dice key gives the wanted table result")


# --- 302 E-F: one chosen Hero, for the entire game Turn ---------------------------------------


def test_302_E_F_the_chosen_hero_only_is_protected_for_the_whole_turn() -> None:
    # 302 E: "The results obtained from the Prayer or Sacrifice Tables only apply to one Hero
    # unit counter. The involved player may select which unit counter receives the protection."
    # 302 F: "The results ... apply to a particular Hero Counter for an entire game Turn."
    state, _ = scene()
    a, _b, c = _gods(state, "hera", "athena", "apollo")
    put(state, HECTOR, INLAND)   # the Hero a prays for, though a has no Power Point on him
    put(state, AJAX, INLAND)     # beside him, not prayed for
    _offer(state, a, prayer.Offer("prayer", 6, HECTOR))
    _pray_until(state, lambda r: r == "divine")  # "no Divine Occurrence affects him"
    # The last Moving Player's Earthquake, with ten Power Points: 111 or more kills both
    # printed Defenses (Hector 72, Ajax 78), but only Ajax is in its way.
    write_sheet(state, c, occurrences=[("E", 10)])
    outcome = run(state, {"activate": [{"code": "E"}]}, phase=moving_phase(state, c))
    assert status(state, AJAX) == "dead" and status(state, HECTOR) == "board"
    assert [e["hero"] for e in of_type(outcome, "occurrence_effect")] == [AJAX]
    # The Turn ends (202 B 6): the protection does not reach into Turn 2.
    run(state, {}, phase=fate_phase(state))
    assert state["turn"] == 2
    assert [t.hero for t in moving.occurrence_targets(C, state, {INLAND})] == [HECTOR]


# --- 302 G: a protected Hero may not attack --------------------------------------------------


def _protected_attacker(glory: int, result: Any) -> tuple[State, str]:
    state, _ = scene()
    a, _b, _c = _gods(state, "hera", "athena", "apollo")
    put(state, HECTOR, INLAND)
    put(state, SOW, INLAND)
    set_totals(state, a, {HECTOR: 3})
    # Aid 4: Attack 70 against the Sow's Defense 70 cannot fail (205 G, 206 D 6): no dice.
    write_sheet(state, a, heroes={HECTOR: 1}, aid={HECTOR: 4})
    _offer(state, a, prayer.Offer("prayer", glory, HECTOR))
    _pray_until(state, result)
    moving_phase(state, a)
    return state, a


def test_302_G_attack_refused() -> None:
    # 302 G: "While a Hero counter is protected by the results of Prayer or Sacrifice that
    # counter may NOT attack any other counter in the Turn in which it is protected."
    orders = {"combat": [{"attacker": HECTOR, "defender": SOW}]}
    state, a = _protected_attacker(6, lambda r: r != "none")
    phase = RULESET.next_phase(state)
    assert phase is not None
    problems = [str(p) for p in RULESET.validate(state, phase, a, orders)]
    assert any("302 G" in p for p in problems), problems  # refused at submit
    outcome = run(state, orders, phase=phase)
    void = of_type(outcome, "combat-void")
    assert len(void) == 1 and "302 G" in void[0]["text"]
    assert not of_type(outcome, "combat") and status(state, SOW) == "board"
    # A Prayer that brought no protection ("none") does not bind him: he attacks and kills.
    state, a = _protected_attacker(1, lambda r: r == "none")
    assert HECTOR not in state["turn_effects"].get("no_attack", [])
    outcome = run(state, orders)
    assert of_type(outcome, "combat") and status(state, SOW) == "dead"


# --- 302 I a-b: what a god may sacrifice ---------------------------------------------------


def test_302_I_a_only_a_prize_captured_and_kept_may_be_sacrificed() -> None:
    # 302 I a: "In order to Sacrifice a Prize it must have been previously captured and
    # removed from the play of the game by the Sacrificing player or be in the Hex with a
    # Hero that player controls and who has previously captured the Prize."
    state, _ = scene()
    a, b, _c = _gods(state, "hera", "athena", "apollo")
    put(state, HECTOR, INLAND)
    put(state, AJAX, GREEK_SHORE)
    set_totals(state, a, {HECTOR: 5})
    set_totals(state, b, {HECTOR: 2, AJAX: 4})
    # Hector captured Helen in b's phase; a Controls him now (208 H).
    place_prize(state, "helen", holder=HECTOR)
    state["prizes"]["helen"].update(captured_by=b, captured_turn=1)
    place_prize(state, "golden_fleece", holder=AJAX)      # with b's Hero
    state["prizes"]["golden_fleece"].update(captured_by=a, captured_turn=1)
    place_prize(state, "pegasus", INLAND)                  # free, in Hector's hex
    state["prizes"]["cornucopia"].update(hex="", holder=0, off_board=a, captured_by=a)  # 216 G 2 e

    def may(player: str, prize: str) -> str:
        return prayer.may_give(state, player, prayer.Offer("sacrifice", 0, HECTOR, (), (prize,)))

    assert may(a, "helen") == ""          # with a Hero a Controls, who captured it
    assert "302 I a" in may(b, "helen")   # b's phase captured it, but b no longer Controls him
    assert "302 I a" in may(a, "golden_fleece")
    assert "302 I a" in may(a, "pegasus")  # lying in the hex, captured by nobody
    assert may(a, "cornucopia") == "" and "302 I a" in may(b, "cornucopia")
    # Given once: a second Sacrifice of the same counter in the same Turn is refused.
    cornucopia = prayer.Offer("sacrifice", 0, HECTOR, (), ("cornucopia",))
    _offer(state, a, cornucopia, cornucopia)
    events = prayer.resolve(C, state, stream("issue15/sacrifice-twice"))
    assert [e["type"] for e in events] == ["sacrifice", "sacrifice-void"]
    assert state["prizes"]["cornucopia"]["sacrificed"] == a
    assert "302 I a" in may(a, "cornucopia")  # sacrificed: no longer his to give
    double = prayer.Offer("sacrifice", 0, HECTOR, (), ("helen", "helen"))
    assert "twice" in prayer.may_give(state, a, double)


def test_302_I_b_only_a_helper_of_a_controlled_hero_may_be_sacrificed() -> None:
    # 302 I b: "In order to Sacrifice a Hero Helper counter, that counter must be the property
    # of one of the Sacrificing player's Controlled Heroes or it must have been removed from
    # the game by that player and in his possession."
    state, _ = scene()
    a, b, _c = _gods(state, "hera", "athena", "apollo")
    put(state, HECTOR, INLAND)
    put(state, AJAX, INLAND)
    set_totals(state, a, {HECTOR: 3})
    set_totals(state, b, {AJAX: 3})
    place_helper(state, "harpe", holder=HECTOR)
    place_helper(state, "moly", holder=AJAX)
    place_helper(state, "aegis", INLAND)  # lying free in their hex
    _offer(state, a, prayer.Offer("sacrifice", 0, HECTOR, ("moly",)),
           prayer.Offer("sacrifice", 0, HECTOR, ("aegis",)),
           prayer.Offer("sacrifice", 0, HECTOR, ("harpe",)))
    events = prayer.resolve(C, state, stream("issue15/helpers"))
    kinds = [e["type"] for e in events]
    assert kinds == ["sacrifice-void", "sacrifice-void", "sacrifice"]
    assert all("302 I b" in e["text"] for e in events[:2])
    assert state["helpers"]["moly"]["holder"] == AJAX           # b's, untouched
    assert state["helpers"]["aegis"]["hex"] == INLAND           # still on the map
    assert state["helpers"]["harpe"] == {"hex": "", "holder": 0, "sacrificed": a}


# --- 010 F: one card a Turn ------------------------------------------------------------------


def _two_kills(facedown: str) -> tuple[State, str]:
    """Hector and Ajax, a's, each sure to kill a Monster (Attack 70: 205 G, 206 D 6); a holds
    the Oracles of both Monsters (card 17: the Sow, 5; card 13: Karkinos, 4)."""
    state, _ = scene()
    a, _b, _c = _gods(state, "hera", "athena", "apollo")
    put(state, HECTOR, INLAND)
    put(state, SOW, INLAND)
    put(state, AJAX, GREEK_SHORE)
    put(state, KARKINOS, GREEK_SHORE)
    set_totals(state, a, {HECTOR: 3, AJAX: 3})
    write_sheet(state, a, heroes={HECTOR: 1, AJAX: 1}, aid={HECTOR: 4, AJAX: 4})
    for card in ("17", "13", facedown):
        if card:
            state["deck"].remove(card)
    state["hands"][a] = ["17", "13"]
    state["facedown"][a] = facedown
    moving_phase(state, a)
    return state, a


ORDERS = {"combat": [{"attacker": HECTOR, "defender": SOW},
                     {"attacker": AJAX, "defender": KARKINOS}]}


def test_010_F_one_card_a_turn_and_none_from_the_hand_with_a_card_face_down() -> None:
    # 010 F: "Each player may play one, and only one playing card in a game Turn. If a card is
    # placed face down in front of a player he must either play or discard that card. The
    # player may not play a card from his "hand" if he has played a card or has a card which
    # is face down in front of him."
    assert C.cards[17].oracle.monster == SOW and C.cards[13].oracle.monster == KARKINOS
    state, a = _two_kills("")
    outcome = run(state, ORDERS)
    assert status(state, SOW) == "dead" and status(state, KARKINOS) == "dead"
    played = [e["card"] for e in of_type(outcome, "card")]
    assert played == ["17"]                       # the first Oracle; the second waits
    assert glory_events(outcome)[a] == C.cards[17].oracle.glory + 3  # 216 G 3 b, then G 3 a
    assert state["hands"][a] == ["13"]
    # With a card face down (card 1's Oracle names neither), no Oracle comes from the hand.
    assert C.cards[1].oracle.monster not in (SOW, KARKINOS)
    state, a = _two_kills("1")
    outcome = run(state, ORDERS)
    assert not of_type(outcome, "card") and glory_events(outcome)[a] == 3 + 3
    assert state["hands"][a] == ["17", "13"]


# --- 215 F 3-4: one ship roll per Hero, and it is one of the five attempts -----------------------


def test_215_F_3_one_ship_attempt_per_hero_in_a_phase() -> None:
    # 215 F 3: "A "Moving Player" may attempt to get a ship once for each Hero counter he
    # attempts to move in his "Moving Player" Phase that is on a shoreline."
    state, _ = scene()
    a, _b, _c = _gods(state, "hera", "athena", "apollo")
    put(state, ZESTES, GREEK_SHORE)
    orders = {"attempt": [{"unit": ZESTES, "path": [], "ship": "start"},
                          {"unit": ZESTES, "path": [EUBOEA], "ship": "start"}]}
    phase = moving_phase(state, a)
    problems = [str(p) for p in RULESET.validate(state, phase, a, orders)]
    assert any("one attempt per unit" in p for p in problems), problems
    outcome = search(state, orders, lambda o: not of_type(o, "ship-roll")[0]["success"])
    assert len(of_type(outcome, "ship-roll")) == 1          # no second roll after a miss
    assert of_type(outcome, "attempt-void")
    assert ZESTES not in outcome.state["ships"]
    assert hero_hex(outcome.state, ZESTES) == GREEK_SHORE


def test_215_F_4_a_ship_attempt_counts_against_the_five() -> None:
    # 215 F 4: "Attempting to obtain a ship is the same as attempting to move a unit and
    # counts against the five units that each player is allowed to attempt to move."
    state, _ = scene()
    a, _b, _c = _gods(state, "hera", "athena", "apollo")
    put(state, ZESTES, GREEK_SHORE)
    five = [(PERSEUS, "2911", "2912"), (CADMUS, "2810", "2709"), (THESEUS, "2610", "2509"),
            (JASON, "2913", "2914"), (ATALANTA, "2813", "2713")]
    for hero, start, _ in five:
        put(state, hero, start)
    orders = {"attempt": [{"unit": ZESTES, "path": [], "ship": "start"}]
              + [{"unit": hero, "path": [to]} for hero, _, to in five]}
    phase = moving_phase(state, a)
    problems = [str(p) for p in RULESET.validate(state, phase, a, orders)]
    assert any("6 attempts" in p for p in problems), problems
    outcome = run(state, orders, phase=phase)
    assert len(of_type(outcome, "ship-roll")) == 1   # the ship attempt was made...
    for hero, _, to in five[:4]:
        assert hero_hex(state, hero) == to
    assert hero_hex(state, ATALANTA) == "2813"       # ... and the sixth entry was not

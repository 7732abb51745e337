"""Every Event card the other modules' tests do not name, one case each (Deck 1-30): the
extra-attack Blessings by the keyword or terrain they name, and the twin cards that share an
effect with a tested one (Odyssey as Wings of Icarus, Golden Fleece and Cornucopia as
Asclepius, Storm as Lost, Lotus Eaters as Wine of Dionysus)."""

from __future__ import annotations

import pytest

from pbem.games.grecos import events
from pbem.games.grecos.battle import CardPlay
from pbem.games.grecos.components import load

from .test_battle import attacks, make, of_type, run
from .test_events import make as make_board
from .test_events import play, put

#: Deck n: card, a unit of alice's that the card names, one that it does not.
BLESSINGS = [
    ("deck_5_poseidon", "poseidon", "tritons", "hero"),  # Abyss units (recruited at Abyss)
    ("deck_6_atlas", "atlas", "cyclops", "hero"),         # Giant
    ("deck_8_nike", "nike", "eagle", "hero"),             # Flying
    ("deck_10_hera", "hera", "hydra", "hero"),            # Monster
    ("deck_11_pan", "pan", "centaurs", "hero"),           # Forest units
    ("deck_12_apollo", "apollo", "minotaur", "hero"),     # Equine
    ("deck_14_athena", "athena", "amazons", "hero"),      # Women
    ("deck_15_artemis", "artemis", "hoplites", "medusa"),  # Army
]


@pytest.mark.parametrize("clause, card, named, other", BLESSINGS,
                         ids=[b[0] for b in BLESSINGS])
def test_deck_extra_attack_blessings_for_the_units_they_name(clause: str, card: str,
                                                             named: str, other: str) -> None:
    state = make([named, other], ["hoplites", "hoplites"], hands={"alice": [card]})
    result, _ = run(state, [6] * 12, a_cards=[CardPlay(card, 1)])
    extra = [e["unit"] for e in attacks(result, 1) if e["extra"]]
    assert extra == ["1"], (clause, extra)  # the named unit only, not the other, not bob's
    assert of_type(result, "extra-attack")[0]["units"] == ["1"]


def test_deck_21_trojan_horse_every_unit_of_the_stack_attacks_again() -> None:
    state = make(["hero", "nymphs"], ["hoplites", "hoplites"], hands={"alice": ["trojan_horse"]})
    result, _ = run(state, [6] * 12, a_cards=[CardPlay("trojan_horse", 1, "c3")])
    assert sorted(e["unit"] for e in attacks(result, 1) if e["extra"]) == ["1", "2"]


@pytest.mark.parametrize("card", ["golden_fleece", "cornucopia"])
def test_deck_25_30_golden_fleece_and_cornucopia_heal_as_asclepius(card: str) -> None:
    state = make_board()
    a = put(state, "hoplites", "alice", "c3", hits=1)
    b = put(state, "cyclops", "alice", "c3", hits=1)
    state["hands"]["alice"] = [card]
    assert not play(state, "alice", [{"card": card, "target": "c3"}])[2]
    assert state["units"][a]["hits"] == 2 and state["units"][b]["hits"] == 2
    assert card in state["discard"]


def test_deck_23_the_odyssey_moves_the_hero_as_wings_of_icarus() -> None:
    state = make_board()
    hero = put(state, "hero", "alice", "c3")
    put(state, "hero", "bob", "h8")
    state["hands"]["alice"] = ["odyssey"]
    assert not play(state, "alice", [{"card": "odyssey", "target": "g7"}])[2]
    assert state["units"][hero]["square"] == "g7"


@pytest.mark.parametrize("card, effect", [("storm", "no_move"), ("lotus", "no_attack")])
def test_deck_27_29_storm_and_lotus_eaters_as_lost_and_wine(card: str, effect: str) -> None:
    state = make_board()
    put(state, "hero", "alice", "c3")
    target = put(state, "hoplites", "bob", "c4")
    state["hands"]["alice"] = [card]
    assert not play(state, "alice", [{"card": card, "target": "c4"}])[2]
    assert target in state["effects"][effect]
    assert events.rule(load(), card) in ("Deck 27", "Deck 29")

"""Grecos battles (Battle 1-13) and the cards played in them (Battle 12, Deck 4-30)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from pbem.core.dice import Stream
from pbem.games.grecos import battle
from pbem.games.grecos.battle import CardPlay, Side, fight
from pbem.games.grecos.components import load
from pbem.games.grecos.policy import DEFAULT
from pbem.games.grecos.squares import SQUARES
from tests.scripted import Scripted as _Scripted

C = load()
HOME, AWAY = "c3", "c4"  # alice attacks from c3, bob defends c4


def Scripted(values: Iterable[int], then: int = 1) -> _Scripted:
    """The shared scripted stream, then ``then`` for ever."""
    return _Scripted(values, then)


def make(alice: list[Any], bob: list[Any], *, hands: dict[str, list[str]] | None = None
         ) -> dict[str, Any]:
    """A state: alice's units on c3, bob's on c4; a unit is a kind or (kind, hits left)."""
    state: dict[str, Any] = {
        "board": dict.fromkeys(SQUARES, "coastal"), "seats": ["alice", "bob"], "turn": 1,
        "round": 1, "active": "alice", "step": "war", "units": {}, "next_unit": 1,
        "pile": [], "chits": {"alice": [], "bob": []}, "deck": [], "discard": [],
        "hands": {"alice": [], "bob": [], **(hands or {})},
        "policy": {"alice": dict(DEFAULT), "bob": dict(DEFAULT)},
        "effects": {"no_move": [], "no_attack": [], "move_bonus": {}, "force_bonus": {}},
        "kronos": 0, "eliminated": [], "result": {}, "options": {},
    }
    for owner, square, units in (("alice", HOME, alice), ("bob", AWAY, bob)):
        for u in units:
            kind, hits = (u, C.units[u].hits) if isinstance(u, str) else u
            state["units"][str(state["next_unit"])] = {"kind": kind, "owner": owner,
                                                       "square": square, "hits": hits}
            state["next_unit"] += 1
    return state


def ids(state: dict[str, Any], player: str) -> list[str]:
    return [u for u, x in state["units"].items() if x["owner"] == player]


def run(state: dict[str, Any], rolls: Iterable[int] = (), *, a_order: list[str] | None = None,
        a_cas: list[str] | None = None, a_cards: list[CardPlay] | None = None,
        d_order: list[str] | None = None, d_cas: list[str] | None = None,
        d_cards: list[CardPlay] | None = None, stream: Stream | None = None,
        negate: Any = None) -> tuple[battle.BattleResult, Stream]:
    s = stream or Scripted(rolls)
    attacker = Side("alice", ids(state, "alice"), a_order or [], a_cas or [], a_cards or [])
    defender = Side("bob", ids(state, "bob"), d_order or [], d_cas or [], d_cards or [])
    result = fight(C, state, attacker, defender, s, "b1", negate or (lambda card, p: ""))
    return result, s


def attacks(result: battle.BattleResult, rnd: int | None = None) -> list[dict[str, Any]]:
    return [e for e in result.events if e["type"] == "attack"
            and (rnd is None or e["round"] == rnd)]


def of_type(result: battle.BattleResult, kind: str) -> list[dict[str, Any]]:
    return [e for e in result.events if e["type"] == kind]


def test_battle_6_hit_on_roll_at_or_below_force() -> None:
    # Hero (Force 5) rolls 5: one enemy unit, the one the defender chose, loses a hit.
    state = make(["hero"], ["hoplites", "cyclops"])
    result, _ = run(state, [5, 6, 6, 6], d_cas=["cyclops"])
    first, second = attacks(result)[:2]
    assert (first["unit"], first["roll"], first["force"], first["hit"]) == ("1", 5, 5, True)
    assert (first["victim"], first["hits_left"]) == ("3", 1)  # not the default Hoplites
    assert second["unit"] == "3" and not second["hit"]  # the defender's Cyclops: 6 misses
    # ... it rolls 6 in round 2: nothing.
    hero_r2 = next(e for e in attacks(result, 2) if e["unit"] == "1")
    assert (hero_r2["roll"], hero_r2["hit"], hero_r2["victim"]) == (6, False, "")
    # Nymphs (Force 2) roll 3: miss; roll 2: hit.
    result, _ = run(make(["nymphs"], ["centaurs"]), [3, 6, 2])
    nymphs = [e for e in attacks(result) if e["unit"] == "1"]
    assert [(e["roll"], e["force"], e["hit"]) for e in nymphs[:2]] == [(3, 2, False),
                                                                      (2, 2, True)]


def test_battle_6_force_six_always_hits() -> None:
    state = make(["hero", "hoplites"], ["cyclops", "cyclops"], hands={"alice": ["ares"]})
    result, _ = run(state, [6, 6, 6, 6, 6], a_cards=[CardPlay("ares", 1)])
    hero = next(e for e in attacks(result) if e["unit"] == "1")  # round 2: Force 5 + 1
    assert (hero["force"], hero["roll"], hero["hit"]) == (6, 6, True)


def test_battle_11_women_attacking_men() -> None:
    result, _ = run(make(["amazons"], ["hoplites"]), [4])
    assert (attacks(result)[0]["force"], attacks(result)[0]["hit"]) == (4, True)
    result, _ = run(make(["amazons"], ["centaurs"]), [4])
    assert (attacks(result)[0]["force"], attacks(result)[0]["hit"]) == (3, False)
    # The defender's Women attacking the attacker's Men too (analysis 5.1 item 21).
    result, _ = run(make(["hero"], ["nymphs"]), [6, 3])
    nymphs = attacks(result)[1]
    assert (nymphs["unit"], nymphs["force"], nymphs["hit"]) == ("2", 3, True)


def test_battle_13_hydra_force_grows() -> None:
    state = make(["titan"], ["hydra"])
    result, _ = run(state, [1, 4, 2, 5, 1])
    hydra = [e for e in attacks(result) if e["unit"] == "2"]
    assert [(e["force"], e["roll"], e["hit"]) for e in hydra] == [(4, 4, True), (5, 5, True)]
    assert "Force is now 5" in attacks(result)[2]["text"]
    assert result.winner == "alice" and result.destroyed == ["2"]
    # Damage from an earlier battle counts: a Hydra with 1 hit left has Force 5.
    result, _ = run(make(["hero"], [("hydra", 1)]), [6, 5])
    assert (attacks(result)[1]["force"], attacks(result)[1]["hit"]) == (5, True)


def test_battle_5_to_9_alternation_and_casualty_choice() -> None:
    # Analysis 5.2 item 4: attacker [Hero, Hoplites] vs defender [Cyclops, Nymphs].
    state = make(["hero", "hoplites"], ["cyclops", "nymphs"])
    result, stream = run(state, [2, 4, 1, 1], d_cas=["nymphs"])
    seq = [(e["round"], e["slot"], e["unit"], e["roll"], e["hit"], e["victim"])
           for e in attacks(result)]
    assert seq == [(1, 1, "1", 2, True, "4"),    # Hero hits: the Nymphs, destroyed
                   (1, 2, "3", 4, False, ""),    # Cyclops rolls 4: miss (Force 3)
                   (1, 3, "2", 1, True, "3"),    # Hoplites hit the Cyclops: 2 -> 1
                   (2, 1, "1", 1, True, "3")]    # round 2: the Hero first again
    assert [d.label for d in stream.draws] == ["b1/r1/1/1", "b1/r1/2/3", "b1/r1/3/2",
                                              "b1/r2/1/1"]
    assert attacks(result)[2]["hits_left"] == 1 and result.destroyed == ["4", "3"]
    assert result.winner == "alice" and result.events[-1]["type"] == "battle-end"
    # The defender chooses otherwise: the Cyclops takes the Hero's hit, the Nymphs attack.
    state = make(["hero", "hoplites"], ["cyclops", "nymphs"])
    result, _ = run(state, [2, 6, 6, 6], d_cas=["cyclops"])
    again = [(e["slot"], e["unit"], e["victim"]) for e in attacks(result, 1)]
    assert again == [(1, "1", "3"), (2, "3", ""), (3, "2", ""), (4, "4", "")]


def test_battle_7_orders_kinds_then_the_default() -> None:
    state = make(["hoplites", "hero", "nymphs", ("hoplites", 1)], [])
    units = ids(state, "alice")
    # Kinds mean their units lowest id first; the rest follow by the default rule.
    assert battle.casualty_order(C, state, units, ["hoplites"]) == ["1", "4", "3", "2"]
    assert battle.casualty_order(C, state, units, ["2"]) == ["2", "3", "4", "1"]
    assert battle.attack_order(C, state, units, ["nymphs"]) == ["3", "2", "1", "4"]


def test_battle_10_until_one_side_is_eliminated() -> None:
    state = make(["hero", "hoplites", "cyclops"], ["minotaur", "hydra", "nymphs"])
    stream = Stream(hashlib.sha256(b"grecos-battle-10").digest())
    result, _ = run(state, stream=stream)
    end = result.events[-1]
    assert end["type"] == "battle-end" and end["winner"] == result.winner != ""
    loser = "bob" if result.winner == "alice" else "alice"
    assert ids(state, loser) == [] and ids(state, result.winner)
    assert sorted(result.destroyed, key=int) == sorted(
        set(map(str, range(1, 7))) - set(state["units"]), key=int)
    assert max(e["round"] for e in attacks(result)) > 1
    labels = [d.label for d in stream.draws]
    assert len(labels) == len(set(labels)) == len(attacks(result))


def test_battle_10_guard_when_no_unit_can_attack() -> None:
    state = make(["hero"], ["cyclops"])
    state["effects"]["no_attack"] = ["1", "2"]
    result, stream = run(state)
    assert result.winner == "" and result.destroyed == [] and not stream.draws
    assert "nobody wins" in result.events[-1]["text"] and set(state["units"]) == {"1", "2"}


def test_battle_12_card_instead_of_attack() -> None:
    state = make([("hero", 1), "hoplites"], ["cyclops"], hands={"alice": ["asclepius"]})
    result, _ = run(state, [6, 6], a_cards=[CardPlay("asclepius", 1, HOME)])
    played = of_type(result, "battle-card")[0]
    assert (played["round"], played["slot"], played["unit"]) == (1, 1, "1")
    assert of_type(result, "heal")[0]["units"] == ["1"]
    assert [e["unit"] for e in attacks(result, 1)] == ["3", "2"]  # no Hero attack in round 1
    assert attacks(result, 2)[0]["unit"] == "1"
    assert state["hands"]["alice"] == [] and state["discard"] == ["asclepius"]


def test_battle_12_card_not_held_or_wrong_target_is_skipped() -> None:
    state = make(["hero"], ["cyclops"], hands={"alice": ["trojan_horse"]})
    cards = [CardPlay("zeus", 1), CardPlay("trojan_horse", 1, AWAY), CardPlay("ares", 3)]
    result, _ = run(state, [1, 1, 1], a_cards=cards)
    skipped = of_type(result, "card-skipped")
    assert [e["card"] for e in skipped] == ["zeus", "trojan_horse", "ares"]
    assert "not in alice's hand" in skipped[0]["text"]
    assert "own stack" in skipped[1]["text"] and "ended" in skipped[2]["text"]
    assert attacks(result)[0]["unit"] == "1"  # the Hero attacks in its slot
    assert state["hands"]["alice"] == ["trojan_horse"] and state["discard"] == []


def test_battle_12_defender_policy_plays_first_useful_card() -> None:
    state = make(["hero"], [("cyclops", 1), "hoplites"], hands={"bob": ["ares", "asclepius"]})
    cards = battle.defender_cards(C, state, "bob", AWAY)
    assert cards == [CardPlay("asclepius", 1, AWAY, True), CardPlay("ares", 1, "", True)]
    result, _ = run(state, [6, 6, 6], d_cards=cards)
    assert [e["card"] for e in of_type(result, "battle-card")] == ["asclepius"]
    assert state["hands"]["bob"] == ["ares"]  # one card at most: Ares stays
    # Nothing to heal: Asclepius is not useful, Ares is played instead.
    state = make(["hero"], ["cyclops"], hands={"bob": ["asclepius", "ares"]})
    side = battle.policy_side(C, state, "bob", AWAY)
    result = fight(C, state, Side("alice", ["1"]), side, Scripted([6, 6]), "b1",
                   lambda card, p: "")
    assert [e["card"] for e in of_type(result, "battle-card")] == ["ares"]
    assert state["hands"]["bob"] == ["asclepius"]


def test_battle_1_side_from_orders() -> None:
    state = make(["hero", "hoplites"], ["cyclops"])
    raw = {"from": HOME, "target": AWAY, "order": ["hoplites"], "casualties": ["1"],
           "card": [{"card": "zeus", "round": 2}, {"card": "betrayal", "target": "3"}]}
    side = battle.parse_side_orders(C, state, "alice", raw)
    assert side == Side("alice", ["1", "2"], ["hoplites"], ["1"],
                        [CardPlay("zeus", 2), CardPlay("betrayal", 1, "3")])


def test_deck_4_zeus_extra_attack_for_men_only_of_the_player() -> None:
    state = make(["hero", "hoplites", "cyclops"], ["hoplites", "hoplites"],
                 hands={"alice": ["zeus"]})
    result, _ = run(state, [6] * 6, a_cards=[CardPlay("zeus", 1)])
    seq = [(e["slot"], e["unit"], e["extra"]) for e in attacks(result, 1)]
    assert seq == [(2, "4", False), (3, "3", False), (4, "5", False), (5, "2", False),
                   (6, "1", True), (7, "2", True)]  # bob's Hoplites (Men) get nothing
    assert of_type(result, "extra-attack")[0]["units"] == ["1", "2"]


def test_deck_13_ares_force_plus_one() -> None:
    state = make(["hero", "hoplites"], ["cyclops", "cyclops"], hands={"alice": ["ares"]})
    result, _ = run(state, [4, 3, 4], a_cards=[CardPlay("ares", 1)])
    r1 = [(e["unit"], e["force"], e["hit"]) for e in attacks(result, 1)]
    assert r1 == [("3", 3, False), ("2", 3, True), ("4", 3, False)]  # bob's: no bonus
    assert all(e["force"] == 6 for e in attacks(result) if e["unit"] == "1")


def test_deck_18_betrayal_unit_fights_for_the_player_then_returns() -> None:
    state = make(["hero", "hoplites"], ["cyclops", "minotaur"], hands={"alice": ["betrayal"]})
    result, _ = run(state, [1, 6, 1, 1], a_cas=["cyclops"],
                    a_cards=[CardPlay("betrayal", 1, "3")])
    seq = [(e["slot"], e["player"], e["unit"], e["victim"]) for e in attacks(result)]
    assert seq == [(2, "bob", "4", "3"),     # the Minotaur hits; alice puts it on the Cyclops
                   (3, "alice", "2", ""),
                   (4, "alice", "3", "4"),   # the Cyclops attacks for alice
                   (1, "alice", "1", "4")]   # round 2: the Minotaur destroyed
    assert result.winner == "alice" and result.destroyed == ["4"]
    assert state["units"]["3"] == {"kind": "cyclops", "owner": "bob", "square": AWAY,
                                   "hits": 1}
    assert result.events[-2]["type"] == "betrayal-end" and result.events[-2]["unit"] == "3"


def test_deck_28_wine_stack_rolls_nothing() -> None:
    state = make(["hero", "hoplites"], ["cyclops", "nymphs"], hands={"alice": ["wine"]})
    result, stream = run(state, [1, 1, 1], a_cards=[CardPlay("wine", 1, AWAY)])
    assert state["effects"]["no_attack"] == ["3", "4"]
    assert not any(d.label.endswith(("/3", "/4")) for d in stream.draws)
    assert [e["unit"] for e in of_type(result, "no-attack")] == ["3", "3"]
    assert result.winner == "alice" and state["units"]["1"]["hits"] == 2


def test_deck_24_negated_card_has_no_effect() -> None:
    state = make(["hero", "hoplites"], ["cyclops"], hands={"alice": ["ares"]})
    asked: list[tuple[str, str]] = []

    def negate(card: str, player: str) -> str:
        asked.append((card, player))
        return "bob"

    result, _ = run(state, [6, 3], a_cards=[CardPlay("ares", 1)], negate=negate)
    assert asked == [("ares", "alice")] and of_type(result, "card-negated")
    assert not of_type(result, "force-bonus") and state["discard"] == ["ares"]
    hoplites = attacks(result, 1)[1]
    assert (hoplites["unit"], hoplites["force"], hoplites["hit"]) == ("2", 2, False)
    assert not any(e["unit"] == "1" for e in attacks(result, 1))  # the slot is still used

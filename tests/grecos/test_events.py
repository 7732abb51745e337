"""Grecos Event cards outside battle (Event 1-2, Deck 1-30), The Fates and the reaction
windows (pbem/games/grecos/events.py)."""

from __future__ import annotations

import hashlib
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.games.grecos import events as ev
from pbem.games.grecos.components import load
from pbem.games.grecos.policy import DEFAULT
from pbem.games.grecos.squares import SQUARES
from tests.scripted import Scripted

C = load()
State = dict[str, Any]


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"grecos-events/{label}".encode()).digest())


def rng(label: str = "x", public: Stream | None = None) -> Rng:
    return Rng(public or stream(f"public/{label}"), stream(f"sealed/{label}"))


def make(terrain: dict[str, str] | None = None, seats: tuple[str, ...] = ("alice", "bob", "carol"),
         deck: list[str] | None = None) -> State:
    """A state of the design's layout: every square Coastal but those named."""
    board = {s: "coastal" for s in SQUARES}
    board.update(terrain or {})
    return {
        "board": board, "seats": list(seats), "turn": 3, "round": 1, "active": seats[0],
        "step": "war", "units": {}, "next_unit": 1, "pile": [],
        "chits": {p: [] for p in seats},
        "deck": list(deck if deck is not None else []), "discard": [],
        "hands": {p: [] for p in seats}, "policy": {p: dict(DEFAULT) for p in seats},
        "effects": {"no_move": [], "no_attack": [], "move_bonus": {}, "force_bonus": {}},
        "kronos": 0, "eliminated": [], "result": {}, "options": {},
    }


def put(state: State, kind: str, owner: str, square: str, hits: int | None = None) -> str:
    uid = str(state["next_unit"])
    state["next_unit"] += 1
    state["units"][uid] = {"kind": kind, "owner": owner, "square": square,
                           "hits": C.units[kind].hits if hits is None else hits}
    return uid


def play(state: State, player: str, raw: list[dict[str, Any]], r: Rng | None = None
         ) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]], list[Any]]:
    """Validate as at submit, then resolve every play in order."""
    plays, problems = ev.plan_plays(C, state, player, raw)
    public: list[dict[str, Any]] = []
    private: dict[str, list[dict[str, Any]]] = {}
    for p in plays:
        more, mine = ev.apply_play(C, state, player, p, r or rng())
        public += more
        for k, v in mine.items():
            private.setdefault(k, []).extend(v)
    return public, private, problems


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


# --- Event 1-2 ------------------------------------------------------------------------------

def test_event_1_draw_one_card() -> None:
    s = make(deck=["zeus", "nike", "tyche"])
    assert ev.draw_cards(s, "alice", 1, stream("e1"), "t03/event") == ["tyche"]
    assert s["hands"]["alice"] == ["tyche"]
    assert s["deck"] == ["zeus", "nike"]


def test_event_1_reshuffle_the_discards_when_the_deck_is_empty() -> None:
    s = make(deck=["zeus"])
    s["discard"] = ["nike", "hera", "pan"]
    sealed = stream("reshuffle")
    out: list[dict[str, Any]] = []
    drawn = ev.draw_cards(s, "bob", 3, sealed, "t03/tyche", out)
    assert drawn[0] == "zeus"  # the deck first, then the reshuffled discards
    assert sorted(drawn + s["deck"]) == ["hera", "nike", "pan", "zeus"]
    assert s["discard"] == [] and len(s["deck"]) == 1
    assert [d.label for d in sealed.draws] == ["t03/tyche/reshuffle/2", "t03/tyche/reshuffle/1"]
    assert types(out) == ["deck-reshuffled"]
    # Nothing left anywhere: no card, no failure.
    s["deck"], s["discard"] = [], []
    assert ev.draw_cards(s, "bob", 2, sealed, "t03/x") == []


def test_event_2_hand_limit_five() -> None:
    s = make()
    s["hands"]["alice"] = ["zeus", "nike", "hera", "pan", "ares", "tyche"]
    assert ev.hand_limit(s, "alice", []) == []
    # Named discards: the player's choice.
    assert ev.hand_limit(s, "alice", ["nike"]) == []
    out = ev.apply_discards(s, "alice", ["nike"])
    assert s["hands"]["alice"] == ["zeus", "hera", "pan", "ares", "tyche"]
    assert s["discard"] == ["nike"] and out[0]["cards"] == ["nike"]
    # Nothing named (and NMR): the newest card goes.
    s["hands"]["alice"].append("lost")
    ev.apply_discards(s, "alice", [])
    assert s["hands"]["alice"] == ["zeus", "hera", "pan", "ares", "tyche"]
    assert s["discard"] == ["nike", "lost"]
    # A list that leaves more than 5, one naming a card not held, or more than the excess.
    s["hands"]["alice"] += ["lost", "storm"]
    assert [p.where for p in ev.hand_limit(s, "alice", ["zeus"])] == ["discard"]
    assert "not in your hand" in ev.hand_limit(s, "alice", ["zeus", "kronos"])[0].message
    assert "only the excess" in ev.hand_limit(s, "alice", ["zeus", "pan", "ares"])[0].message
    assert ev.hand_limit(s, "alice", ["zeus", "zeus"])  # one Zeus held
    assert ev.hand_limit(s, "alice", "zeus")  # not a list
    # With 5 or fewer cards nothing is discarded.
    s["hands"]["bob"] = ["zeus"]
    assert ev.hand_limit(s, "bob", ["zeus"]) and ev.apply_discards(s, "bob", ["zeus"]) == []


# --- own-turn plays --------------------------------------------------------------------------

def test_plays_battle_cards_and_the_fates_are_refused_here() -> None:
    s = make()
    s["hands"]["alice"] = ["zeus", "fates", "tyche"]
    plays, problems = ev.plan_plays(C, s, "alice", [{"card": "zeus"}, {"card": "fates"},
                                                   {"card": "tyche", "target": "c3"}])
    assert plays == []
    assert "[[orders.battle.card]]" in problems[0].hint
    assert "cannot be played by itself" in problems[1].message
    assert problems[2].where == "[[orders.play]] 3 target"
    assert not any(p.foreseen for p in problems)


def test_plays_count_duplicates_and_follow_earlier_plays() -> None:
    s = make()
    hero = put(s, "hero", "alice", "a1")
    s["hands"]["alice"] = ["icarus", "hermes"]
    # Hermes on the square Icarus takes the Hero to: legal after the first play.
    plays, problems = ev.plan_plays(C, s, "alice", [
        {"card": "icarus", "target": "e5"}, {"card": "hermes", "target": "e5"},
        {"card": "hermes", "target": "e5"}])
    assert [p.where for p in problems] == ["[[orders.play]] 3 card"]
    assert len(plays) == 3  # the refused one too: resolution skips it with an event
    assert problems[0].foreseen
    assert s["units"][hero]["square"] == "a1"  # validation changes nothing
    out, _, _ = play(s, "alice", [{"card": "icarus", "target": "e5"},
                                  {"card": "hermes", "target": "e5"},
                                  {"card": "hermes", "target": "e5"}])
    assert types(out)[-1] == "play-skipped"
    assert s["effects"]["move_bonus"] == {hero: 2}
    assert s["discard"] == ["icarus", "hermes"]


def test_deck_1_pandoras_box_everyone_draws_five() -> None:
    deck = [k for k in C.cards if k not in ("pandoras_box",)]
    s = make(deck=deck)
    s["hands"]["alice"] = ["pandoras_box"]
    s["hands"]["carol"] = [s["deck"].pop(0) for _ in range(3)]
    top = list(reversed(s["deck"]))
    public, private, problems = play(s, "alice", [{"card": "pandoras_box"}])
    assert problems == []
    # The player first, then in seat order from his left; the top of the deck is its end.
    assert s["hands"]["alice"] == top[0:5]
    assert s["hands"]["bob"] == top[5:10]
    assert s["hands"]["carol"][3:] == top[10:15]
    assert len(s["hands"]["carol"]) == 8  # the hand limit waits for carol's own Event Phase
    drawn = next(e for e in public if e["type"] == "cards-drawn")
    assert drawn["drawn"] == {"alice": 5, "bob": 5, "carol": 5}
    assert private["bob"][0]["cards"] == top[5:10] and set(private) == {"alice", "bob", "carol"}
    text = " ".join(e["text"] for e in public)
    assert all("cards" not in e for e in public)
    assert not any(C.cards[x].name in text for x in top[:15])
    assert s["discard"] == ["pandoras_box"]


def test_deck_2_oracle_sees_seven_privately() -> None:
    deck = ["zeus", "nike", "hera", "pan", "ares", "lost", "storm", "wine", "lotus", "tyche"]
    s = make(deck=deck)
    s["hands"]["alice"] = ["oracle"]
    public, private, _ = play(s, "alice", [{"card": "oracle"}])
    assert private["alice"][0]["cards"] == ["tyche", "lotus", "wine", "storm", "lost", "ares",
                                            "pan"]
    assert s["deck"] == deck and s["hands"]["alice"] == []
    assert "tyche" not in str(public) and "Lotus" not in str(public)
    assert set(private) == {"alice"}


def test_deck_3_kronos_owes_an_extra_turn() -> None:
    s = make()
    s["hands"]["alice"] = ["kronos"]
    out, _, _ = play(s, "alice", [{"card": "kronos"}])
    assert s["kronos"] == 1 and types(out) == ["card-played", "extra-turn"]


def test_deck_7_hermes_move_plus_two() -> None:
    s = make()
    a, b = put(s, "hoplites", "alice", "c3"), put(s, "cyclops", "alice", "c3")
    other = put(s, "nymphs", "alice", "c4")
    put(s, "hero", "bob", "d3")
    s["hands"]["alice"] = ["hermes"]
    _, problems = ev.plan_plays(C, s, "alice", [{"card": "hermes", "target": "d3"}])
    assert problems[0].where == "[[orders.play]] 1 target" and "c3" in problems[0].hint
    play(s, "alice", [{"card": "hermes", "target": "c3"}])
    assert s["effects"]["move_bonus"] == {a: 2, b: 2}
    assert other not in s["effects"]["move_bonus"]


def test_deck_9_prometheus_replaces_a_unit() -> None:
    s = make()
    hop = put(s, "hoplites", "alice", "c3", hits=1)
    s["chits"]["alice"] = ["kraken", "cyclops"]
    s["hands"]["alice"] = ["prometheus"]
    # A Kraken (water) cannot take a land square's place (Move 2).
    _, problems = ev.plan_plays(C, s, "alice", [{"card": "prometheus", "target": hop,
                                                 "unit": "kraken"}])
    assert problems[0].where == "[[orders.play]] 1 unit" and "Move 2" in problems[0].message
    _, problems = ev.plan_plays(C, s, "alice", [{"card": "prometheus", "target": hop}])
    assert problems[0].where == "[[orders.play]] 1 unit"
    out, _, problems = play(s, "alice", [{"card": "prometheus", "target": hop,
                                          "unit": "cyclops"}])
    assert problems == []
    assert hop not in s["units"]
    new = out[-1]["unit"]
    assert s["units"][new] == {"kind": "cyclops", "owner": "alice", "square": "c3", "hits": 2}
    assert sorted(s["chits"]["alice"]) == ["hoplites", "kraken"]
    assert s["next_unit"] == int(new) + 1


def test_deck_9_prometheus_only_on_your_own_unit_and_not_stranding_at_sea() -> None:
    s = make({"d4": "sea"})
    ship, hero = put(s, "ships", "alice", "d4"), put(s, "hero", "alice", "d4")
    enemy = put(s, "hoplites", "bob", "e5")
    s["chits"]["alice"] = ["kraken", "ships"]
    s["hands"]["alice"] = ["prometheus"]
    for target, unit in ((enemy, "ships"), (ship, "kraken")):
        _, problems = ev.plan_plays(C, s, "alice", [{"card": "prometheus", "target": target,
                                                     "unit": unit}])
        assert len(problems) == 1 and problems[0].foreseen
    assert "Move 5" in problems[0].message  # the Hero would be left on water without a Ship
    assert ev.plan_plays(C, s, "alice", [{"card": "prometheus", "target": ship,
                                          "unit": "ships"}])[1] == []
    assert hero in s["units"]


def test_deck_16_asclepius_heals_a_stack() -> None:
    s = make()
    hydra, hero = put(s, "hydra", "alice", "c3", hits=1), put(s, "hero", "alice", "c3", hits=1)
    theirs = put(s, "cyclops", "bob", "c4", hits=1)
    s["hands"]["alice"] = ["asclepius"]
    # Ruling: in your own turn, your own stack.
    _, problems = ev.plan_plays(C, s, "alice", [{"card": "asclepius", "target": "c4"}])
    assert problems and problems[0].foreseen
    play(s, "alice", [{"card": "asclepius", "target": "c3"}])
    assert s["units"][hydra]["hits"] == 3 and s["units"][hero]["hits"] == 2
    assert s["units"][theirs]["hits"] == 1


def test_deck_17_tyche_draws_two_privately() -> None:
    s = make(deck=["zeus", "nike", "hera"])
    s["hands"]["alice"] = ["tyche"]
    public, private, _ = play(s, "alice", [{"card": "tyche"}])
    assert s["hands"]["alice"] == ["hera", "nike"]
    assert private["alice"][0]["cards"] == ["hera", "nike"] and "Hera" not in str(public)


def test_deck_19_volcano_only_on_mountains() -> None:
    s = make({"c3": "mountains", "f6": "forest"})
    units = [put(s, k, "bob", "c3") for k in ("hoplites", "harpies", "eagle")]
    put(s, "cyclops", "bob", "f6")
    s["hands"]["alice"] = ["volcano"]
    _, problems = ev.plan_plays(C, s, "alice", [{"card": "volcano", "target": "f6"}])
    assert "Mountains" in problems[0].message and problems[0].foreseen
    public = Scripted([2])
    out, _, problems = play(s, "alice", [{"card": "volcano", "target": "c3"}], rng(public=public))
    assert problems == []
    assert units[1] not in s["units"] and units[0] in s["units"] and units[2] in s["units"]
    assert [(d.label, d.n) for d in public.draws] == [("t03/volcano/c3", 3)]
    assert out[-1]["type"] == "unit-destroyed" and out[-1]["unit"] == units[1]


def test_deck_20_whirlpool_at_sea_or_abyss() -> None:
    s = make({"a1": "sea", "b1": "abyss", "c1": "coastal"})
    ship, hop = put(s, "ships", "bob", "a1"), put(s, "hoplites", "bob", "a1")
    kraken = put(s, "kraken", "bob", "b1")
    put(s, "hoplites", "bob", "c1")
    s["hands"]["alice"] = ["whirlpool"]
    for sq, ok in (("a1", True), ("b1", True), ("c1", False)):
        assert (ev.plan_plays(C, s, "alice", [{"card": "whirlpool", "target": sq}])[1] == []) \
            == ok
    # The Ship goes down: the Hoplites it carried are left on water and go with it.
    out, _, _ = play(s, "alice", [{"card": "whirlpool", "target": "a1"}],
                     rng(public=Scripted([1])))
    assert ship not in s["units"] and hop not in s["units"] and kraken in s["units"]
    assert types(out) == ["card-played", "unit-destroyed", "unit-destroyed"]


def test_deck_22_icarus_hero_anywhere_legal() -> None:
    s = make({"h8": "sea"})
    hero = put(s, "hero", "alice", "a1")
    put(s, "hoplites", "bob", "g7")
    for _ in range(4):
        put(s, "nymphs", "alice", "b5")
    s["hands"]["alice"] = ["icarus"]
    for sq, clause in (("h8", "water"), ("g7", "Stacking 3"), ("b5", "Stacking 1")):
        _, problems = ev.plan_plays(C, s, "alice", [{"card": "icarus", "target": sq}])
        assert clause in problems[0].message, sq
    play(s, "alice", [{"card": "icarus", "target": "h1"}])
    assert s["units"][hero]["square"] == "h1"
    # With two Heroes the player names one.
    put(s, "hero", "alice", "a2")
    s["hands"]["alice"] = ["odyssey"]
    _, problems = ev.plan_plays(C, s, "alice", [{"card": "odyssey", "target": "d4"}])
    assert problems[0].where == "[[orders.play]] 1 unit"
    assert ev.plan_plays(C, s, "alice", [{"card": "odyssey", "target": "d4",
                                          "unit": hero}])[1] == []


def test_deck_24_the_fates_negates_betrayal() -> None:
    s = make()
    s["hands"]["bob"] = ["fates"]
    # Not on his list: no negation (the default list holds Betrayal, not Zeus).
    assert ev.negator(C, s, "zeus", "alice", "bob") == ""
    assert ev.negator(C, s, "betrayal", "alice", "bob") == "bob"
    assert s["hands"]["bob"] == [] and s["discard"] == ["fates"]
    # Without The Fates in hand, or with a policy that leaves it out: nothing.
    assert ev.negator(C, s, "betrayal", "alice", "bob") == ""
    s["hands"]["bob"] = ["fates"]
    s["policy"]["bob"] = {**DEFAULT, "fates": []}
    assert ev.negator(C, s, "betrayal", "alice", "bob") == ""
    # Carol holds The Fates too, but the card does not touch her.
    s["hands"]["carol"] = ["fates"]
    s["policy"]["bob"] = dict(DEFAULT)
    assert ev.negator(C, s, "betrayal", "alice", "bob") == "bob"
    assert s["hands"]["carol"] == ["fates"]


def test_deck_24_the_fates_in_own_turn_plays() -> None:
    s = make({"c3": "mountains"}, deck=["zeus", "nike"])
    victim = put(s, "cyclops", "bob", "c3")
    s["hands"]["alice"] = ["volcano", "tyche"]
    s["hands"]["bob"] = ["fates"]
    s["policy"]["bob"] = {**DEFAULT, "fates": ["volcano", "tyche"]}
    out, _, _ = play(s, "alice", [{"card": "volcano", "target": "c3"}, {"card": "tyche"}])
    assert victim in s["units"]
    assert types(out)[:2] == ["card-played", "card-negated"]
    assert s["discard"] == ["fates", "volcano", "tyche"]
    assert s["hands"]["alice"] == ["nike", "zeus"]
    # Tyche touches only the player himself: never negated by a policy (ruling).
    s = make(deck=["zeus", "nike", "hera"])
    s["active"] = "bob"
    s["hands"]["bob"] = ["tyche", "pandoras_box"]
    for p in ("alice", "carol"):
        s["hands"][p] = ["fates"]
        s["policy"][p] = {**DEFAULT, "fates": ["pandoras_box", "tyche"]}
    out, _, _ = play(s, "bob", [{"card": "tyche"}])
    assert "card-negated" not in types(out) and len(s["hands"]["bob"]) == 3
    # Pandoras Box touches everyone: the first holder from the active player's left negates.
    out, _, _ = play(s, "bob", [{"card": "pandoras_box"}])
    assert out[1]["type"] == "card-negated" and out[1]["player"] == "carol"
    assert s["hands"]["alice"] == ["fates"] and s["hands"]["carol"] == []


def test_deck_26_lost_at_move_start() -> None:
    s = make()
    big = [put(s, "hoplites", "alice", "c3") for _ in range(3)]
    small = put(s, "hero", "alice", "e3")
    far = [put(s, "hoplites", "alice", "h8") for _ in range(4)]
    put(s, "cyclops", "bob", "c4")  # next to c3
    put(s, "cyclops", "carol", "e4")  # next to e3
    s["hands"]["bob"] = ["lost"]
    s["hands"]["carol"] = ["storm"]
    out = ev.at_move_start(C, s, "alice", stream("move"), "t03/react/move")
    # Bob (left of alice) on her largest stack next to his; carol on the one next to hers.
    assert s["effects"]["no_move"] == [*big, small]
    assert not set(far) & set(s["effects"]["no_move"])
    assert [e["player"] for e in out if e["type"] == "card-played"] == ["bob", "carol"]
    assert s["hands"]["bob"] == [] and sorted(s["discard"]) == ["lost", "storm"]


def test_deck_26_lost_react_off_or_fated_by_the_active_player() -> None:
    s = make()
    put(s, "hoplites", "alice", "c3")
    put(s, "cyclops", "bob", "c4")
    s["hands"]["bob"] = ["lost"]
    s["policy"]["bob"] = {**DEFAULT, "react": False}
    assert ev.at_move_start(C, s, "alice", stream("m"), "l") == []
    s["policy"]["bob"] = dict(DEFAULT)
    s["hands"]["alice"] = ["fates"]
    s["policy"]["alice"] = {**DEFAULT, "fates": ["lost"]}
    out = ev.at_move_start(C, s, "alice", stream("m"), "l")
    assert types(out) == ["card-played", "card-negated"]
    assert s["effects"]["no_move"] == [] and sorted(s["discard"]) == ["fates", "lost"]


def test_deck_28_wine_at_battle_start() -> None:
    s = make()
    attackers = [put(s, "hero", "alice", "d4"), put(s, "hoplites", "alice", "d4")]
    put(s, "cyclops", "bob", "d5")
    s["hands"]["bob"] = ["zeus", "wine"]
    out = ev.at_battle_start(C, s, "d4", "bob", stream("b"), "t03/battle1/react")
    assert s["effects"]["no_attack"] == attackers
    assert s["hands"]["bob"] == ["zeus"] and s["discard"] == ["wine"]
    assert types(out) == ["card-played", "no-attack"]
    # Already unable to attack: the Lotus Eaters stay in the hand.
    s["hands"]["bob"].append("lotus")
    assert ev.at_battle_start(C, s, "d4", "bob", stream("b"), "l") == []
    assert "lotus" in s["hands"]["bob"]


def test_apply_play_skips_what_no_longer_fits() -> None:
    s = make()
    s["hands"]["alice"] = []
    out, private = ev.apply_play(C, s, "alice", ev.Play("hermes", "c3"), rng())
    assert types(out) == ["play-skipped"] and private == {} and s["discard"] == []

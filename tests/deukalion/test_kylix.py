"""The active player's turn: the Kylix roll and its 4 turns (Kylix 1-5, analysis 5.2 item 1),
the Card die (Kylix Card 1), reclaiming with dumped chests (Kylix Hoplites 1-2), the Hydra's
move and attack (Kylix Hydra 1-2, Hydra Attack 1), the checks at submit."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from pbem.core.dice import DEUKALION_DIE, Rng
from pbem.games.deukalion import choices, kylix
from pbem.games.deukalion.components import KYLIX_SYMBOLS, load
from tests.scripted import Scripted

C = load()
SEATS = ["alice", "bob", "carol"]
UP, DOWN, SIDE = 1, 10, 19  # draws of components.throw_faces(): 9 up, 9 down, 2 side


def rng(public: Iterable[int] = (), sealed: Iterable[int] = ()) -> Rng:
    return Rng(Scripted(public), Scripted(sealed))


def build(**over: Any) -> dict[str, Any]:
    """A 3-player position in alice's Kylix turn: dice centre 2, N 3, E 1, S 2, W 3; ships on
    three anchors; no chest on the cities; empty hands; a deck of six cards."""
    s: dict[str, Any] = {
        "seats": list(SEATS), "turn": 1, "active": "alice", "step": "kylix",
        "kylix": {"centre": 2, "slots": [3, 1, 2, 3]},
        "ships": {"alice": "d2", "bob": "e2", "carol": "f2"},
        "board": {p: {"hoplites": 10, "chests": []} for p in SEATS},
        "underworld": dict.fromkeys(SEATS, 0), "placed": dict.fromkeys(SEATS, 0),
        "settlements": {x: {"owner": "", "hoplites": 0} for x in C.board.settlements},
        "chests": {x: [] for x in C.board.cities}, "hydra": C.board.hydra_start,
        "action_deck": ["reclaim", "draw", "hydra_plus", "challenge_plus", "move_plus",
                        "sea_legs"],
        "action_discard": [], "hands": {p: [] for p in SEATS},
        "permanents": {p: [] for p in SEATS},
        "pursuit_deck": ["p03", "p04", "p05"], "display": ["p01", "p02"],
        "personal": dict.fromkeys(SEATS, ""), "achieved": {p: [] for p in SEATS},
        "honour": dict.fromkeys(SEATS, 0),
        "policy": {p: copy.deepcopy(choices.DEFAULT) for p in SEATS}, "effects": {},
        "result": {},
    }
    s.update(over)
    return s


def run(state: dict[str, Any], orders: dict[str, Any], public: Iterable[int] = (),
        sealed: Iterable[int] = ()) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    plan, problems, _ = kylix.plan_kylix(C, state, "alice", orders)
    assert problems == [], [str(p) for p in problems]
    return kylix.run_kylix(C, state, "alice", plan, rng(public, sealed))


def problems(state: dict[str, Any], orders: dict[str, Any]) -> list[str]:
    return [str(p) for p in kylix.plan_kylix(C, state, "alice", orders)[1]]


def notes(state: dict[str, Any], orders: dict[str, Any]) -> list[str]:
    return kylix.plan_kylix(C, state, "alice", orders)[2]


# --- Kylix 1-5 --------------------------------------------------------------------------------

def test_kylix_1_roll_five_public_faces_with_their_labels() -> None:
    s = build(kylix={})
    stream = Scripted([2, 6, 1, 4, 5])  # face index of (1, 1, 2, 2, 3, 3)
    events = kylix.roll(s, stream, 7)
    assert [d.label for d in stream.draws] == [
        "t07/kylix/centre", "t07/kylix/n", "t07/kylix/e", "t07/kylix/s", "t07/kylix/w"]
    assert all(d.n == len(DEUKALION_DIE) for d in stream.draws)
    assert s["kylix"] == {"centre": 1, "slots": [3, 1, 2, 3]}
    assert events[0]["type"] == "kylix" and "centre 1" in events[0]["text"]


def test_kylix_rotation_reaches_only_cyclic_shifts() -> None:
    """Analysis 5.2 item 1: N 3, E 1, S 2, W 3, symbols clockwise hoplites, move, cards,
    hydra; W on Move gives Hoplites 2, Move 3, Cards 3, Hydra 1; {Hoplites 3, Cards 3} is
    out of reach (the two 3s are on adjacent slots, the symbols opposite)."""
    assert KYLIX_SYMBOLS == ("hoplites", "move", "cards", "hydra")
    cup = {"centre": 2, "slots": [3, 1, 2, 3]}
    reachable = [kylix.assignment(cup, r) for r in range(4)]
    assert kylix.assignment(cup, 2) == {"hoplites": 2, "move": 3, "cards": 3, "hydra": 1}
    assert len({tuple(a.values()) for a in reachable}) == 4
    assert not any(a["hoplites"] == 3 and a["cards"] == 3 for a in reachable)
    # every reachable assignment is a cyclic shift, never another permutation
    assert {"hoplites": 3, "move": 3, "cards": 2, "hydra": 1} not in reachable
    s = build()
    assert problems(s, {"rotation": 4}) and problems(s, {"rotation": True})
    plan, bad, said = kylix.plan_kylix(C, s, "alice", {"rotation": 2})
    assert bad == [] and plan["rotation"] == 2
    assert "Hoplites 2, Move 3, Cards 3, Hydra 1" in said[0]


def test_kylix_default_plan_draws_then_reclaims() -> None:
    """The NMR default (no step): the cup as it fell, the Card die's draw, the reclaim."""
    s = build(underworld={"alice": 5, "bob": 0, "carol": 0})
    s["board"]["alice"]["hoplites"] = 5
    plan, bad, _ = kylix.plan_kylix(C, s, "alice", {})
    assert bad == [] and plan["rotation"] == 0
    assert [x["action"] for x in plan["steps"]] == ["card", "reclaim"]
    events, _ = run(s, {})
    assert [e["type"] for e in events[:3]] == ["kylix-turn", "card-die", "reclaim"]
    assert s["board"]["alice"]["hoplites"] == 8  # rotation 0: N = 3 on the Hoplites symbol
    assert s["underworld"]["alice"] == 2


# --- Kylix Card 1 -----------------------------------------------------------------------------

def test_kylix_card_1_one_every_other_player_draws() -> None:
    s = build()
    events, private = run(s, {"rotation": 3, "step": []})  # E = 1 on the Card symbol
    assert s["hands"] == {"alice": [], "bob": ["sea_legs"], "carol": ["move_plus"]}
    public = " ".join(e["text"] for e in events)
    assert "Sea Legs" not in public and "Fair Wind" not in public  # cards stay secret
    assert "Sea Legs" in private["bob"][0]["text"] and "alice" not in private


def test_kylix_card_1_two_nobody_draws() -> None:
    s = build()
    run(s, {"rotation": 0, "step": [{"action": "card"}]})  # S = 2 on the Card symbol
    assert s["hands"] == {p: [] for p in SEATS} and len(s["action_deck"]) == 6


def test_kylix_card_1_three_the_active_player_draws() -> None:
    s = build()
    _, private = run(s, {"rotation": 1, "step": []})  # W = 3 on the Card symbol
    assert s["hands"] == {"alice": ["sea_legs"], "bob": [], "carol": []}
    assert list(private) == ["alice"]


def test_kylix_card_1_empty_deck_reshuffles_the_discards_sealed() -> None:
    s = build(action_deck=[], action_discard=["draw", "reclaim"])
    events, _ = run(s, {"rotation": 1, "step": []}, sealed=[1])
    assert s["hands"]["alice"] and len(s["hands"]["alice"]) + len(s["action_deck"]) == 2
    assert s["action_discard"] == []
    assert any(e["type"] == "action-reshuffle" for e in events)


# --- Kylix Hoplites 1-2 -----------------------------------------------------------------------

def test_kylix_hoplites_1_reclaim_up_to_the_die() -> None:
    s = build(underworld={"alice": 4, "bob": 0, "carol": 0})
    s["board"]["alice"]["hoplites"] = 6
    assert problems(s, {"rotation": 2, "step": [{"action": "reclaim", "count": 3}]})
    run(s, {"rotation": 2, "step": [{"action": "reclaim"}]})  # S = 2 on Hoplites
    assert s["board"]["alice"]["hoplites"] == 8 and s["underworld"]["alice"] == 2


def test_kylix_hoplites_2_dump_only_listed_colours_as_needed() -> None:
    """A full shipboard (8 hoplites, red and green chests), 2 below, die 3: dumping green only
    makes room for one; green and red for both; nothing listed, nothing comes back."""
    def full() -> dict[str, Any]:
        s = build(underworld={"alice": 2, "bob": 0, "carol": 0})
        s["board"]["alice"] = {"hoplites": 8, "chests": ["red", "green"]}
        return s

    s = full()
    assert any("no more room" in n for n in notes(s, {"step": [{"action": "reclaim"}]}))
    run(s, {"step": [{"action": "reclaim"}]})  # standing dump = []: keep the chests
    assert s["board"]["alice"] == {"hoplites": 8, "chests": ["red", "green"]}
    s = full()
    events, _ = run(s, {"step": [{"action": "reclaim", "dump": ["green"]}]})
    assert s["board"]["alice"] == {"hoplites": 9, "chests": ["red"]}
    dumped = [e for e in events if e["type"] == "dump"]
    assert len(dumped) == 1 and s["chests"][dumped[0]["city"]] == ["green"]
    s = full()
    s["policy"]["alice"]["dump"] = ["red", "green"]  # the standing choice when none given
    run(s, {"step": [{"action": "reclaim"}]})
    assert s["board"]["alice"] == {"hoplites": 10, "chests": []}
    assert sum(len(x) for x in s["chests"].values()) == 2


def test_kylix_hoplites_2_dumped_chest_goes_by_return_to() -> None:
    s = build(underworld={"alice": 1, "bob": 0, "carol": 0})
    s["board"]["alice"] = {"hoplites": 9, "chests": ["blue"]}
    s["policy"]["alice"]["return_to"] = "nearest_athens"
    s2 = copy.deepcopy(s)
    s2["policy"]["alice"]["return_to"] = "farthest_athens"
    e1, _ = run(s, {"step": [{"action": "reclaim", "count": 1, "dump": ["blue"]}]})
    e2, _ = run(s2, {"step": [{"action": "reclaim", "count": 1, "dump": ["blue"]}]})
    near = next(e["city"] for e in e1 if e["type"] == "dump")
    far = next(e["city"] for e in e2 if e["type"] == "dump")
    assert near != far and s["chests"][near] == ["blue"] and s2["chests"][far] == ["blue"]


# --- Kylix Hydra 1-2, Hydra Attack 1 ----------------------------------------------------------

FAR = {"alice": "a1", "bob": "b1", "carol": "a3"}  # three water squares far from the Kylix


def next_to(kind: str) -> tuple[str, str]:
    """A water square the Hydra may stand on and a neighbour of ``kind`` (lowest ids)."""
    for sq in C.board.squares:
        if C.board.hydra_water(sq) and sq not in FAR.values():
            for n in C.board.neighbours(sq):
                if C.board.squares[n].kind == kind:
                    return sq, n
    raise AssertionError(kind)


def test_kylix_hydra_1_path_up_to_the_die() -> None:
    """Around the Kylix every square is water (Ship 4): d5 d4 d3 e3 f3 is a water ring."""
    s = build(hydra="d5", ships=dict(FAR))  # rotation 0: W = 3 on the Hydra symbol
    assert problems(s, {"step": [{"action": "hydra", "path": ["d4", "d3", "e3", "f3"]}]})
    assert problems(s, {"rotation": 2, "step": [{"action": "hydra", "path": ["d4", "d3"]}]})
    run(s, {"step": [{"action": "hydra", "path": ["d4", "d3", "e3"]}]})
    assert s["hydra"] == "e3"


def test_kylix_hydra_2_water_only_never_anchors_styx_kylix_or_land() -> None:
    cases = [("e5", ["e4"], "Kylix"), (*next_to("anchor"), "anchor"),
             (*next_to("styx"), "Styx"), (*next_to("land"), "land"),
             (*next_to("city"), "land"), ("d5", ["e6"], "Map 13"),
             ("d5", ["d5", "d4"], "own")]
    for start, path, word in cases:
        path = [path] if isinstance(path, str) else path
        s = build(hydra=start, ships=dict(FAR))
        said = problems(s, {"step": [{"action": "hydra", "path": path}]})
        assert len(said) == 1 and word in said[0], (start, path, said)


def test_hydra_attack_1_stops_on_the_first_ship_and_attacks_it() -> None:
    s = build(hydra="d5", ships={**FAR, "bob": "d4"})
    said = problems(s, {"step": [{"action": "hydra", "path": ["d4", "d3"]}]})
    assert len(said) == 1 and "first ship" in said[0]
    s["board"]["bob"]["hoplites"] = 3
    events, _ = run(s, {"step": [{"action": "hydra", "path": ["d4"]}]},
                    public=[DOWN, DOWN, SIDE])
    attack = next(e for e in events if e["type"] == "hydra-attack")
    assert attack["player"] == "bob" and attack["by"] == "alice" and not attack["won"]
    throws = next(e for e in events if e["type"] == "throw")
    assert throws["player"] == "bob" and throws["score2"] == 5  # 2.5 < 5: bob loses
    assert s["ships"]["bob"] != "d4" and s["hydra"] == "d4"  # pushed (Hydra Attack 4)


def test_hydra_attack_3_a_victor_takes_an_honour_card() -> None:
    s = build(hydra="d5", ships={**FAR, "bob": "d4"})
    s["board"]["bob"]["hoplites"] = 5
    run(s, {"step": [{"action": "hydra", "path": ["d4"]}]}, public=[DOWN] * 5)
    assert s["honour"]["bob"] == 1 and s["ships"]["bob"] == "d4" and s["hydra"] != "d4"


def test_hydra_attack_1_never_the_movers_own_ship() -> None:
    s = build(hydra="d5", ships={**FAR, "alice": "d4"})
    said = problems(s, {"step": [{"action": "hydra", "path": ["d4"]}]})
    assert len(said) == 1 and "own ship" in said[0]


def test_kylix_steps_after_an_attack_wait_on_the_dice() -> None:
    """A step after a Hydra attack is checked when it runs (the throws may push ships)."""
    s = build(hydra="d5", ships={**FAR, "bob": "d4"})
    said = notes(s, {"step": [{"action": "hydra", "path": ["d4"]}, {"action": "reclaim"}]})
    assert any("depends on the Hydra's attack" in n for n in said)


# --- the shape of the orders ------------------------------------------------------------------

def test_round_6_each_action_once_and_known_keys() -> None:
    s = build()
    assert problems(s, {"step": [{"action": "reclaim"}, {"action": "reclaim"}]})
    assert problems(s, {"step": [{"action": "card"}, {"action": "card"}]})
    assert problems(s, {"step": [{"action": "fly"}]})
    assert problems(s, {"step": [{"action": "hydra", "path": ["e5"], "speed": 2}]})
    assert problems(s, {"step": [{"action": "hydra", "path": "e5"}]})
    assert problems(s, {"step": [{"action": "ship", "path": [], "target": "sparta"}]})
    assert problems(s, {"step": {"action": "card"}})
    plan, bad, _ = kylix.plan_kylix(C, s, "alice", {"step": [{"action": "reclaim"}]})
    assert bad == [] and plan["steps"][0] == {"action": "card"}  # the draw first by default

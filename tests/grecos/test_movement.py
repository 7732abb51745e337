"""Grecos Move phase (Move 1-8, Stacking 1-3, Units 16): pbem.games.grecos.movement."""

from __future__ import annotations

import itertools
from typing import Any

from pbem.games.grecos.components import load
from pbem.games.grecos.movement import Move, apply_moves, plan_moves, reach
from pbem.games.grecos.recruit import plan_recruits
from pbem.games.grecos.squares import SQUARES, neighbours

C = load()


def make_state(units: list[tuple[str, str, str]], water: str = "",
               terrain: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    """A state of the design's layout: every square Coastal (land) but the ``water`` ones
    (Sea) and ``terrain``; ``units`` = (kind, owner, square), ids "1", "2", ... in order."""
    board = {sq: "coastal" for sq in SQUARES}
    board.update({sq: "sea" for sq in water.split()})
    board.update(terrain or {})
    state: dict[str, Any] = {
        "board": board, "seats": ["alice", "bob"], "turn": 1, "round": 1, "active": "alice",
        "step": "war", "units": {}, "next_unit": 1, "pile": [],
        "chits": {"alice": [], "bob": []}, "deck": [], "discard": [],
        "hands": {"alice": [], "bob": []}, "policy": {},
        "effects": {"no_move": [], "no_attack": [], "move_bonus": {}, "force_bonus": {}},
        "kronos": 0, "eliminated": [], "result": {},
        "options": {"rounds": "20", "materials": "off"},
    }
    for kind, owner, square in units:
        uid = str(state["next_unit"])
        state["units"][uid] = {"kind": kind, "owner": owner, "square": square,
                               "hits": C.units[kind].hits}
        state["next_unit"] += 1
    state.update(extra)
    return state


def plan(state: dict[str, Any], *entries: tuple[list[str], str], player: str = "alice",
         effects: dict[str, Any] | None = None) -> list[str]:
    """The problems (as text) of the entries (units, "c4 d4")."""
    raw = [{"units": u, "path": p.split()} for u, p in entries]
    _, problems = plan_moves(C, state, player, raw, effects)
    return [str(p) for p in problems]


def legal_ends(state: dict[str, Any], units: list[str], most: int) -> set[str]:
    """Brute force: the end squares of every path of up to ``most`` steps plan_moves takes."""
    start = state["units"][units[0]]["square"]
    ends = set()
    frontier: list[tuple[str, ...]] = [()]
    for _ in range(most):
        frontier = [(*p, n) for p in frontier for n in neighbours(p[-1] if p else start)]
        ends |= {p[-1] for p in frontier if not plan(state, (units, " ".join(p)))}
    return ends


def test_move_1_move_points() -> None:
    s = make_state([("hero", "alice", "c3"), ("hoplites", "alice", "e3"),
                    ("hero", "alice", "e3")])
    assert plan(s, (["1"], "c4 c5")) == []
    [p] = plan(s, (["1"], "c4 c5 c6"))
    assert p.startswith("[[orders.move]] 1 path: enters 3 squares; the group's Move is 2")
    # The group's Move is the least of its members': Hoplites 1.
    assert plan(s, (["2", "3"], "e4")) == []
    [p] = plan(s, (["2", "3"], "e4 e5"))
    assert "Move is 1 (the least of Hoplites 2 has 1, Hero 3 has 2)" in p
    # Hermes (Deck 7): move_bonus per unit.
    bonus = {"no_move": [], "move_bonus": {"1": 2}}
    assert plan(s, (["1"], "c4 c5 c6 c7"), effects=bonus) == []
    assert plan(s, (["1"], "c4 c5 c6 c7 c8"), effects=bonus)
    # Adjacency 1-2: a path lists every square entered; no diagonal step.
    [p] = plan(s, (["1"], "d4"))
    assert "step 1: d4 is not adjacent to c3" in p and "may enter c2, b3, d3, c4" in p


def test_move_1_each_unit_once_and_entries_in_order() -> None:
    s = make_state([("hero", "alice", "c3"), ("hoplites", "alice", "d3"),
                    ("cyclops", "alice", "d4"), ("cyclops", "alice", "d4"),
                    ("nymphs", "alice", "d4"), ("amazons", "alice", "c4")])
    [p] = plan(s, (["1"], "c4"), (["1"], "c5"))
    assert p.startswith("[[orders.move]] 2 units: Hero 1 already moves in [[orders.move]] 1")
    # Entry 2 sees d4 as entry 1 leaves it: four units, no room for a fifth.
    assert plan(s, (["2"], "d4")) == []
    [p] = plan(s, (["2"], "d4"), (["1"], "c4 d4"))
    assert "step 2: d4 would hold 5 of your units" in p
    # ... and entry 1 moving out first makes room.
    assert plan(s, (["3"], "e4"), (["2"], "d4"), (["1"], "c4 d4")) == []
    [p] = plan(s, (["1", "6"], "b3"))
    assert "must start on the same square" in p


def test_move_2_water_units_only_on_water() -> None:
    s = make_state([("ships", "alice", "b2"), ("cyclops", "alice", "d4"),
                    ("kraken", "alice", "a1")], water="a1 b2 b3 b4 d5 a2")
    assert plan(s, (["1"], "b3 b4")) == []
    [p] = plan(s, (["1"], "c2"))
    assert "c2 is land: Ships 1 is a Water unit and moves only on water (Move 2)" in p
    assert "may enter a2, b3" in p
    [p] = plan(s, (["2"], "d5"))
    assert "d5 is water: Cyclops 2 is a Land unit and moves only on land (Move 2)" in p
    assert set(reach(C, s, "alice", ["1"])) == {"a1", "a2", "b3", "b4"}
    assert reach(C, s, "alice", ["3"]) == {"a2": ("a2",)}


def test_units_16_titan_on_land_and_water() -> None:
    s = make_state([("titan", "alice", "a1")], water="b1")
    assert plan(s, (["1"], "b1")) == []
    assert plan(s, (["1"], "b1 c1")) == []
    assert set(reach(C, s, "alice", ["1"])) == {"b1", "c1", "a2", "b2", "a3"}


def test_move_3_4_flying_crosses_water_but_cannot_end_there() -> None:
    s = make_state([("pegasus", "alice", "a1")], water="b1 c1")
    assert plan(s, (["1"], "b1 c1 d1")) == []
    [p] = plan(s, (["1"], "b1 c1"))
    assert "c1 is water: flying units cross water but may not end a move there (Move 3-4)" in p
    ends = reach(C, s, "alice", ["1"])
    assert "d1" in ends and "b1" not in ends and "c1" not in ends
    assert ends["d1"] == ("b1", "c1", "d1")


def test_move_5_army_carried_by_ship() -> None:
    s = make_state([("ships", "alice", "b2"), ("hoplites", "alice", "b2"),
                    ("hero", "alice", "b2"), ("hero", "alice", "c4"), ("ships", "alice", "b4"),
                    ("cyclops", "alice", "c5"), ("tritons", "alice", "a5"),
                    ("ships", "alice", "a5")],
                   water="a2 b2 b3 b4 b5 b6 a4 a5 a6")
    # Carried: Hoplites (Move 1) and the Hero (2) go at the Ship's Move, 3.
    assert plan(s, (["1", "2", "3"], "b3 b4 b5")) == []
    assert plan(s, (["1", "2", "3"], "a2 b2 b3")) == []
    [p] = plan(s, (["1", "2", "3"], "b3 b4 b5 b6"))
    assert "the group's Move is 3 (Ships 1 has 3; carried by the Ship: Hoplites 2 and " \
           "Hero 3)" in p
    [p] = plan(s, (["1", "2", "3"], "a2 a3"))          # a3 is land: the Ship stops there
    assert "step 2: a3 is land: Ships 1 is a Water unit" in p
    # Without the Ship in the group the Hoplites may not go on water ...
    [p] = plan(s, (["2"], "b3"))
    assert "b3 is water: Hoplites 2 goes on water only with a Ship in its group" in p
    # ... and the Ship may not sail away leaving them on the water.
    [p] = plan(s, (["1"], "b3"))
    assert "units: b2 is water: Hoplites 2 and Hero 3 would be left there without a Ship" in p
    # Ruling (Move 5): a Hero embarks by ending his move where his Ship stands ...
    assert plan(s, (["4"], "b4")) == []
    # ... but does not walk on across the water.
    assert plan(s, (["4"], "b4 a4"))
    # A Cyclops is neither Hero nor Army: it never boards.
    [p] = plan(s, (["6"], "b5"))
    assert "b5 is water: Cyclops 6 is a Land unit" in p
    # Tritons are Water units: they swim at their own Move (1) and limit the group.
    [p] = plan(s, (["7", "8"], "a4 b4"))
    assert "Move is 1 (the least of Tritons 7 has 1, Ships 8 has 3)" in p


def test_move_6_hero_with_pegasus_flies_4() -> None:
    s = make_state([("hero", "alice", "a1"), ("pegasus", "alice", "a1"),
                    ("hero", "alice", "h8")], water="b1 c1")
    assert plan(s, (["1", "2"], "b1 c1 d1 e1")) == []
    [p] = plan(s, (["1", "2"], "b1 c1 d1 e1 f1"))
    assert "the group's Move is 4 (the least of Hero 1 has 4, Pegasus 2 has 4)" in p
    walk, far = plan(s, (["1"], "b1 c1 d1"))    # alone: Move 2, and he walks
    assert "b1 is water: Hero 1 goes on water only with a Ship" in walk
    assert "enters 3 squares; the group's Move is 2" in far
    assert max(len(path) for path in reach(C, s, "alice", ["1", "2"]).values()) == 4
    # Flying over enemies too (Move 8): bob on b2 does not stop the pair.
    s2 = make_state([("hero", "alice", "a2"), ("pegasus", "alice", "a2"),
                     ("hoplites", "bob", "b2")])
    assert plan(s2, (["1", "2"], "b2 c2")) == []


def test_move_8_enemies_block_walkers_not_flyers() -> None:
    s = make_state([("centaurs", "alice", "c4"), ("eagle", "alice", "c3"),
                    ("hoplites", "bob", "d4"), ("hoplites", "bob", "d3")])
    [p] = plan(s, (["1"], "d4 e4"))
    assert "step 1: d4 holds bob's units: a group that does not fly cannot enter or pass " \
           "through it (Move 8)" in p
    assert plan(s, (["1"], "c5 d5 e5")) == []
    assert "d4" not in reach(C, s, "alice", ["1"]) and "e4" not in reach(C, s, "alice", ["1"])
    assert plan(s, (["2"], "d3 e3")) == []
    [p] = plan(s, (["2"], "d3"))
    assert "flying units may pass over it but never end there (Stacking 3)" in p
    assert "e3" in reach(C, s, "alice", ["2"]) and "d3" not in reach(C, s, "alice", ["2"])


def test_stacking_1_no_fifth_unit() -> None:
    s = make_state([("cyclops", "alice", "d4")] * 4 + [("hero", "alice", "d3"),
                                                        ("hoplites", "alice", "c4")],
                   terrain={"d4": "forest"})
    [p] = plan(s, (["5"], "d4"))
    assert "d4 would hold 5 of your units; at most 4 (Stacking 1, Move 7)" in p
    assert plan(s, (["5"], "d4 d5")) == []      # passing through is no stacking
    s["chits"]["alice"] = ["amazons", "amazons"]
    raw = [{"kind": "amazons", "square": "d4"}, {"kind": "amazons", "square": "d5"}]
    _, problems = plan_recruits(C, s, "alice", raw)
    assert [str(p) for p in problems] == [
        "[[orders.recruit]] 1 square: d4 already holds 4 of your units; at most 4 (Stacking 1) "
        "(fix: Amazons may go now on d3, c4, e4, d5)"]


def test_stacking_3_no_recruit_or_move_into_enemy_square() -> None:
    s = make_state([("hero", "alice", "d4"), ("hoplites", "bob", "e4")],
                   terrain={"d4": "forest"})
    s["chits"]["alice"] = ["cyclops"]
    _, problems = plan_recruits(C, s, "alice", [{"kind": "cyclops", "square": "e4"}])
    assert "e4 holds bob's units: a chit goes on a square that is empty or holds only your " \
           "units (Recruit 4, Stacking 3)" in str(problems[0])
    [p] = plan(s, (["1"], "e4"))
    assert "e4 holds bob's units" in p and "Stacking 3" in p


def test_deck_26_lost_stack_does_not_move() -> None:
    s = make_state([("hero", "alice", "c3"), ("hoplites", "alice", "c3"),
                    ("hero", "alice", "f3")])
    lost = {"no_move": ["1", "2"], "move_bonus": {}}
    [p] = plan(s, (["1"], "c4"), effects=lost)
    assert "Hero 1 cannot move this turn: Lost or Storm was played on its stack (Deck 26-27)" in p
    assert reach(C, s, "alice", ["1"], lost) == {}
    # At resolution (Lost played at the start of the Move phase): skipped, the rest goes on.
    moves, problems = plan_moves(C, s, "alice", [{"units": ["1", "2"], "path": ["c4"]},
                                                 {"units": ["3"], "path": ["f4", "f5"]}])
    assert problems == []
    s["effects"]["no_move"] = ["2"]
    events = apply_moves(C, s, moves)
    assert [e["type"] for e in events] == ["move_skipped", "move"]
    assert events[0]["reason"] == "no_move" and "Hoplites 2 cannot move" in events[0]["text"]
    assert s["units"]["1"]["square"] == "c3" and s["units"]["3"]["square"] == "f5"


def test_apply_moves_moves_and_skips_what_became_illegal() -> None:
    s = make_state([("hero", "alice", "c3"), ("hoplites", "alice", "c3"),
                    ("centaurs", "alice", "a1")])
    moves = [Move(("1", "2"), ("c4",)), Move(("3",), ("b1", "c1", "d1"))]
    s["units"]["9"] = {"kind": "hoplites", "owner": "bob", "square": "c1", "hits": 2}
    events = apply_moves(C, s, moves)
    assert events[0] == {"type": "move", "player": "alice", "units": ["1", "2"], "from": "c3",
                         "path": ["c4"], "text": "alice moves Hero 1 and Hoplites 2 from c3 "
                                                 "to c4."}
    assert events[1]["type"] == "move_skipped" and "c1 holds bob's units" in events[1]["text"]
    assert s["units"]["1"]["square"] == s["units"]["2"]["square"] == "c4"
    assert s["units"]["3"]["square"] == "a1"


def test_move_orders_shape_problems_are_not_foreseen() -> None:
    s = make_state([("hero", "alice", "c3"), ("hero", "bob", "f3")])
    raw = [{"units": ["1"]}, {"units": "1", "path": ["c4"]}, {"units": ["1"], "path": ["z9"]},
           {"units": ["1"], "path": ["c4"], "speed": 2}, {"units": ["8"], "path": ["c4"]},
           {"units": ["2"], "path": ["f4"]}]
    moves, problems = plan_moves(C, s, "alice", raw)
    assert [p.where for p in problems] == [
        "[[orders.move]] 1 path", "[[orders.move]] 2 units", "[[orders.move]] 3 path",
        "[[orders.move]] 4 speed", "[[orders.move]] 5 units", "[[orders.move]] 6 units"]
    assert [p.foreseen for p in problems] == [False] * 5 + [True]
    assert "no unit '8' on the board (fix: your units: 1 (hero at c3))" in str(problems[4])
    assert "Hero 2 is bob's, not yours" in str(problems[5])
    assert moves == [Move(("8",), ("c4",)), Move(("2",), ("f4",))]


def test_reach_agrees_with_plan_moves() -> None:
    s = make_state([("hero", "alice", "b2"), ("pegasus", "alice", "b2"),
                    ("ships", "alice", "e5"), ("hoplites", "alice", "e5"),
                    ("centaurs", "alice", "f2"), ("hoplites", "bob", "c2"),
                    ("hoplites", "bob", "f3"), ("cyclops", "alice", "d6"),
                    ("cyclops", "alice", "d6"), ("cyclops", "alice", "d6"),
                    ("cyclops", "alice", "d6")],
                   water="a2 b3 c3 e5 e6 e4 f5 f6 d5 g5 d4")
    for group, most in ((["1", "2"], 4), (["1"], 2), (["3", "4"], 3), (["5"], 3)):
        ends = reach(C, s, "alice", group)
        assert set(ends) == legal_ends(s, group, most) - {s["units"][group[0]]["square"]}
        for square, path in ends.items():
            assert path[-1] == square and plan(s, (group, " ".join(path))) == []
    assert reach(C, s, "alice", ["3"]) == {}      # the Ship would leave the Hoplites at sea
    assert reach(C, s, "bob", ["1"]) == {}
    assert list(itertools.islice(reach(C, s, "alice", ["5"]), 3)) == ["d1", "e1", "f1"]


def test_apply_moves_never_raises_on_odd_moves() -> None:
    s = make_state([("hero", "alice", "c3"), ("hero", "bob", "f3")])
    odd = [Move((), ("c4",)), Move(("1",), ()), Move(("2",), ("f4",)), Move(("7",), ("c4",)),
           Move(("1",), ("c4", "c5", "c6"))]
    events = apply_moves(C, s, odd)
    assert [e["type"] for e in events] == ["move_skipped"] * 5
    assert s["units"]["1"]["square"] == "c3" and s["units"]["2"]["square"] == "f3"

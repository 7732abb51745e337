"""Grecos Recruit phase (Recruit 1-4, Stacking 1-3): pbem.games.grecos.recruit."""

from __future__ import annotations

from typing import Any

from pbem.games.grecos.components import load
from pbem.games.grecos.recruit import Recruit, apply_recruits, plan_recruits, recruit_squares
from pbem.games.grecos.squares import SQUARES

C = load()


def make_state(units: list[tuple[str, str, str]], chits: list[str], water: str = "",
               terrain: dict[str, str] | None = None) -> dict[str, Any]:
    """A state of the design's layout: every square Coastal (land) but the ``water`` ones
    (Sea) and ``terrain``; ``units`` = (kind, owner, square), ids "1", "2", ...; alice's
    pile ``chits``."""
    board = {sq: "coastal" for sq in SQUARES}
    board.update({sq: "sea" for sq in water.split()})
    board.update(terrain or {})
    state: dict[str, Any] = {
        "board": board, "seats": ["alice", "bob"], "turn": 1, "round": 1, "active": "alice",
        "step": "recruit", "units": {}, "next_unit": 1, "pile": [],
        "chits": {"alice": list(chits), "bob": ["kraken"]}, "deck": [], "discard": [],
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
    return state


def problems(state: dict[str, Any], *entries: tuple[str, str]) -> list[str]:
    raw = [{"kind": k, "square": s} for k, s in entries]
    return [str(p) for p in plan_recruits(C, state, "alice", raw)[1]]


def test_recruit_4_terrain_and_adjacency() -> None:
    # Analysis 5.2 item 6: a unit on a Forest, [Cyclops, Sirens] in the pile.
    s = make_state([("hoplites", "alice", "d4"), ("hero", "alice", "c4"),
                    ("hoplites", "bob", "e4")], ["cyclops", "sirens"], water="d5 g7",
                   terrain={"d4": "forest", "g7": "abyss"})
    for square in ("d4", "d3", "c4"):                 # the Forest, an empty square, a square
        assert problems(s, ("cyclops", square)) == []  # holding only her units
    assert recruit_squares(C, s, "alice", "cyclops") == ["d3", "c4", "d4"]
    [p] = problems(s, ("cyclops", "d5"))
    assert "d5 is water: Cyclops is a Land unit and goes only on land (Move 2)" in p
    [p] = problems(s, ("cyclops", "e4"))
    assert "e4 holds bob's units" in p and "Stacking 3" in p
    [p] = problems(s, ("cyclops", "d6"))
    assert p == ("[[orders.recruit]] 1 square: d6 is neither a Forest square where you have "
                 "a unit nor adjacent to one (Recruit 4; yours: d4) (fix: Cyclops may go now "
                 "on d3, c4, d4)")
    # A City State unit recruits nothing at a Forest: no unit of hers on an Abyss, no Sirens.
    [p] = problems(s, ("sirens", "g7"))
    assert "you have no unit on an Abyss square, where Sirens is recruited (Recruit 3-4)" in p
    assert recruit_squares(C, s, "alice", "sirens") == []


def test_recruit_2_chit_from_own_pile_counting_duplicates() -> None:
    s = make_state([("hoplites", "alice", "d4")], ["cyclops"], terrain={"d4": "forest"})
    assert problems(s, ("cyclops", "d4")) == []
    [p] = problems(s, ("cyclops", "d4"), ("cyclops", "d3"))
    assert p == ("[[orders.recruit]] 2 kind: no Cyclops chit left in your pile (Recruit 2) "
                 "(fix: your pile holds none)")
    pile, _ = problems(s, ("kraken", "d4"))      # bob's chit, not hers (nor an Abyss)
    assert "no Kraken chit left in your pile" in pile


def test_recruit_4_any_number_in_order() -> None:
    # Ruling: no limit; a unit recruited earlier stands on the board for the later ones.
    s = make_state([("hero", "alice", "c3")], ["hoplites", "hoplites", "cyclops", "ships"],
                   water="b3", terrain={"c3": "city_state", "c4": "forest"})
    assert problems(s, ("cyclops", "c5")) != []      # no unit of hers on the Forest yet
    assert problems(s, ("hoplites", "c4"), ("cyclops", "c5"), ("hoplites", "c3"),
                    ("ships", "b3")) == []


def test_recruit_ships_go_on_water_next_to_a_city_state() -> None:
    s = make_state([("hero", "alice", "c3")], ["ships"], water="b3",
                   terrain={"c3": "city_state"})
    [p] = problems(s, ("ships", "c3"))
    assert "c3 is land: Ships is a Water unit and goes only on water (Move 2)" in p
    assert recruit_squares(C, s, "alice", "ships") == ["b3"]


def test_units_16_titan_recruited_on_land_or_water() -> None:
    s = make_state([("ships", "alice", "e5")], ["titan"], water="e5 e6",
                   terrain={"e5": "abyss"})
    assert problems(s, ("titan", "e6")) == [] and problems(s, ("titan", "e4")) == []
    assert recruit_squares(C, s, "alice", "titan") == ["e4", "d5", "e5", "f5", "e6"]


def test_stacking_1_room_for_the_recruit() -> None:
    s = make_state([("hoplites", "alice", "d4")] * 3, ["amazons", "amazons"],
                   terrain={"d4": "forest"})
    assert problems(s, ("amazons", "d4")) == []
    [p] = problems(s, ("amazons", "d4"), ("amazons", "d4"))
    assert p.startswith("[[orders.recruit]] 2 square: d4 already holds 4 of your units")


def test_apply_recruits_puts_the_chit_into_play() -> None:
    s = make_state([("hoplites", "alice", "d4")], ["nymphs", "cyclops", "cyclops"],
                   terrain={"d4": "forest"})
    s["next_unit"] = 12
    recruits, found = plan_recruits(C, s, "alice", [{"kind": "Cyclops", "square": "D3"}])
    assert found == [] and recruits == [Recruit("cyclops", "d3")]
    events = apply_recruits(C, s, "alice", recruits)
    assert events == [{"type": "recruit", "player": "alice", "unit": "12", "kind": "cyclops",
                       "square": "d3", "text": "alice recruits Cyclops (unit 12) on d3."}]
    assert s["units"]["12"] == {"kind": "cyclops", "owner": "alice", "square": "d3", "hits": 2}
    assert s["next_unit"] == 13 and s["chits"]["alice"] == ["nymphs", "cyclops"]
    # No longer legal at resolution: skipped, and the event does not give the chit away.
    s["units"]["99"] = {"kind": "hydra", "owner": "bob", "square": "c4", "hits": 3}
    events = apply_recruits(C, s, "alice", [Recruit("nymphs", "c4"), Recruit("cyclops", "h8")])
    assert [e["type"] for e in events] == ["recruit_skipped", "recruit_skipped"]
    assert "c4 holds bob's units" in events[0]["text"]
    assert "Cyclops" not in events[1]["text"] and "Forest" not in events[1]["text"]
    assert s["chits"]["alice"] == ["nymphs", "cyclops"] and s["next_unit"] == 13
    events = apply_recruits(C, s, "alice", [Recruit("dragon", "d3"), Recruit("nymphs", "z9")])
    assert [e["type"] for e in events] == ["recruit_skipped", "recruit_skipped"]


def test_recruit_orders_shape_problems_are_not_foreseen() -> None:
    s = make_state([("hoplites", "alice", "d4")], ["cyclops"], terrain={"d4": "forest"})
    raw: list[Any] = [{"kind": "dragon", "square": "d4"}, {"kind": "cyclops"}, "cyclops",
                      {"kind": "cyclops", "square": "d4", "count": 2},
                      {"kind": "cyclops", "square": "h8"}]
    recruits, found = plan_recruits(C, s, "alice", raw)
    assert [p.where for p in found] == [
        "[[orders.recruit]] 1 kind", "[[orders.recruit]] 2 square", "[[orders.recruit]] 3",
        "[[orders.recruit]] 4 count", "[[orders.recruit]] 5 square"]
    assert [p.foreseen for p in found] == [False] * 4 + [True]
    assert recruits == [Recruit("cyclops", "h8")]

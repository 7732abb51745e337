"""Moving a ship (Ship 1-7), deliveries at Athens (Pursuit Deliver 4, Honour 5), the goal
orders of the sail phase and the Round 2 sacrifice (sailing.py), on hand-built states.

The board (data/board.toml; rank 7 first)::

    7  C . . M . . e . H
    6  . . s . . # . . .
    5  a . . . . . . Y ~
    4  . . P . * . . . ~
    3  . # . . . . R l .
    2  T . . @ @ @ . . K
    1  . . @ A A A @ . .
       a b c d e f g h i

A thrown hoplite is one draw of 20 (9 skull up, 9 skull down, 2 side): the scripted values
U = 1 (skull up, 0), D = 10 (skull down, 1 point), S = 19 (side, 1/2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pbem.games.deukalion import choices, sailing
from pbem.games.deukalion.components import load
from tests.scripted import Scripted

C = load()
U, D, S = 1, 10, 19


def state(ships: Mapping[str, str], *, active: str = "", display: Iterable[str] = ("p11", "p14"),
          deck: Iterable[str] = ("p16", "p15"), hydra: str = "e6", centre: int = 3,
          **boards: Mapping[str, Any]) -> dict[str, Any]:
    """A position: ``ships`` in seat order, the first one active unless ``active`` says;
    ``boards`` per player: hoplites, chests, underworld, hand, personal, policy."""
    seats = list(ships)
    s: dict[str, Any] = {
        "seats": seats, "turn": 1, "active": active or seats[0], "step": "sail",
        "kylix": {"centre": centre, "slots": [1, 2, 3, 1]}, "ships": dict(ships),
        "board": {}, "underworld": {}, "placed": dict.fromkeys(seats, 0),
        "settlements": {x: {"owner": "", "hoplites": 0} for x in C.board.settlements},
        "chests": {x: [] for x in C.board.cities}, "hydra": hydra,
        "action_deck": [], "action_discard": [], "hands": {}, "permanents": {},
        "pursuit_deck": list(deck), "display": list(display), "personal": {},
        "achieved": {p: [] for p in seats}, "honour": dict.fromkeys(seats, 0), "policy": {},
        "effects": {}, "result": {}}
    for p in seats:
        mine = boards.get(p, {})
        s["board"][p] = {"hoplites": mine.get("hoplites", 10), "chests": list(
            mine.get("chests", []))}
        s["underworld"][p] = mine.get("underworld", 0)
        s["hands"][p] = list(mine.get("hand", []))
        s["permanents"][p] = []
        s["personal"][p] = mine.get("personal", "")
        s["policy"][p] = {**choices.DEFAULT, **mine.get("policy", {})}
    return s


def kinds(events: Iterable[Mapping[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def chests_on_cities(s: Mapping[str, Any]) -> list[str]:
    return sorted(x for lying in s["chests"].values() for x in lying)


def sail(s: dict[str, Any], player: str, *plans: dict[str, Any], public: Iterable[int] = (),
         steps: int = 3) -> list[dict[str, Any]]:
    """``player`` sails by ``plans`` (checked by plan_sail first) with scripted throws."""
    checked, problems = sailing.plan_sail(C, s, player, list(plans))
    assert not problems, problems
    stream = Scripted(public)
    events, _ = sailing.run_sail(C, s, player, checked, steps, stream, "t01/sail/" + player,
                                 sealed=Scripted())
    assert not stream.values, "scripted throws left unused"
    for e in events:
        assert isinstance(e["text"], str) and None not in e.values()
    return events


# --- Ship 1-7 ---------------------------------------------------------------------------------

def test_ship_1_orthogonal_water_only_and_the_kylix_never() -> None:
    s = state({"alice": "d4", "bob": "b1"}, display=("p11", "p12"))
    assert sailing.legal_path(C, s, "alice", ["e4"], 3).startswith("e4 is the Kylix")
    assert "land" in sailing.legal_path(C, s, "alice", ["c4"], 3)  # Sparta
    assert "does not share a side with d4" in sailing.legal_path(C, s, "alice", ["e3"], 3)
    assert "more than the 3" in sailing.legal_path(C, s, "alice", ["d5", "e5", "f5", "g5"], 3)
    assert sailing.legal_path(C, s, "alice", ["d5", "e5", "f5"], 3) == ""
    far = sailing.reach(C, s, "alice", 2)
    assert "e4" not in far and "c4" not in far
    # e4 is blocked: f4 is 4 steps away around the Kylix, not 2 through it.
    assert "f4" not in far and sailing.reach(C, s, "alice", 4)["f4"] == ["d3", "e3", "f3", "f4"]
    assert far["d4"] == [] and far["e5"] == ["d5", "e5"]  # ties: the lowest path


def test_ship_2_anchors_are_shared_and_safe() -> None:
    s = state({"alice": "d3", "bob": "d2", "carol": "b1"})
    events = sail(s, "alice", {"goal": "challenge_ship", "target": "bob"},
                  {"goal": "reach", "target": "e2"})
    assert kinds(events)[:2] == ["skip", "sail"] and "anchors are safe" in events[0]["text"]
    # The lowest of the two shortest paths passes through bob's anchor: no challenge.
    assert events[1]["path"] == ["d2", "e2"] and s["ships"]["alice"] == "e2"
    events = sail(s, "alice", {"goal": "reach", "target": "d2"})
    assert s["ships"]["alice"] == s["ships"]["bob"] == "d2"  # shared, no throw drawn
    assert "challenge-ship" not in kinds(events)


def test_ship_5_entering_a_ship_on_water_is_a_challenge_and_ends_the_move() -> None:
    s = state({"alice": "d5", "bob": "e5"})
    assert "a challenge (Ship 5)" in sailing.legal_path(C, s, "alice", ["e5", "f5"], 3)
    assert sailing.legal_path(C, s, "alice", ["e5"], 3) == ""
    far = sailing.reach(C, s, "alice", 2)
    assert far["e5"] == ["e5"] and "f5" not in far  # not through bob's square


def test_ship_6_hydra_blocks_unless_defeat_the_hydra_is_displayed() -> None:
    # Analysis 5.2 item 7: alice on e7, the Hydra on e6; Mykene (d7) and Ephesus (g7) are
    # land and f6 too: only the Hydra's square leads south.
    s = state({"alice": "e7", "bob": "b1", "carol": "c2"}, display=("p11", "p14"))
    assert "Ship 6" in sailing.legal_path(C, s, "alice", ["e6", "e5"], 3)
    assert "Ship 6" in sailing.legal_path(C, s, "alice", ["e6"], 3)
    assert set(sailing.reach(C, s, "alice", 3)) == {"e7", "f7"}
    events = sail(s, "alice", {"goal": "challenge_hydra"}, {"goal": "reach", "target": "e5"})
    assert kinds(events) == ["skip", "skip", "stay"] and s["ships"]["alice"] == "e7"
    s["display"] = ["p09", "p14"]  # "Defeat the Hydra" on display
    assert "the move ends on e6" in sailing.legal_path(C, s, "alice", ["e6", "e5"], 3)
    assert sailing.legal_path(C, s, "alice", ["e6"], 3) == ""
    assert set(sailing.reach(C, s, "alice", 3)) == {"e7", "f7", "e6"}
    # 5.0 wins the card and the Hydra moves 3 squares; the move ends on e6.
    events = sail(s, "alice", {"goal": "challenge_hydra"}, public=[D] * 5 + [U] * 5)
    assert "challenge-hydra" in kinds(events) and events[-1]["type"] != "sail"
    assert s["achieved"]["alice"] == ["p09"] and s["ships"]["alice"] == "e6"
    assert s["hydra"] != "e6" and s["display"] == ["p15", "p14"]
    # 4.5 loses: the player to alice's right (carol) pushes her ship 3 squares.
    s = state({"alice": "e7", "bob": "b1", "carol": "c2"}, display=("p09", "p14"))
    events = sail(s, "alice", {"goal": "challenge_hydra"}, public=[D] * 4 + [S] + [U] * 5)
    push = next(e for e in events if e["type"] == "push")
    assert push["by"] == "carol" and s["ships"]["alice"] == push["to"] != "e6"
    assert s["achieved"]["alice"] == [] and s["hydra"] == "e6"


def test_ship_7_the_styx_ends_the_move_and_reclaims() -> None:
    styx, other = C.board.styx
    start = next(n for n in C.board.neighbours(styx) if C.board.squares[n].kind == "water")
    s = state({"alice": start, "bob": "b1"}, alice={"hoplites": 6, "underworld": 4})
    assert "Styx 4" in sailing.legal_path(C, s, "alice", [styx, other], 3)
    events = sail(s, "alice", {"goal": "styx"})
    assert s["ships"]["alice"] == styx and s["board"]["alice"]["hoplites"] == 10
    assert s["underworld"]["alice"] == 0 and s["honour"]["alice"] == 1  # 2 players: 1 card
    assert "styx" in kinds(events)


def test_ship_7_completing_a_pursuit_ends_the_move() -> None:
    # p03: "Sail to Sparta with 6 hoplites and leave 1 there": c5 is next to Sparta (c4).
    s = state({"alice": "b5", "bob": "b1"}, display=("p03", "p14"), alice={"hoplites": 8})
    assert sailing.legal_path(C, s, "alice", ["c5", "d5", "e5"], 3) == ""
    events, _ = sailing.move_ship(C, s, "alice", ["c5", "d5", "e5"], Scripted(), "t01/x")
    assert s["ships"]["alice"] == "c5" and s["achieved"]["alice"] == ["p03"]
    assert s["board"]["alice"]["hoplites"] == 7 and s["placed"]["alice"] == 1
    assert events[-1]["type"] == "move-ends" and events[-1]["rest"] == ["d5", "e5"]
    assert s["display"] == ["p15", "p14"]


# --- Pursuit Deliver 4, Honour 5, Pursuit Ex ------------------------------------------------

def test_pursuit_example_chain_at_athens() -> None:
    # Analysis 5.2 item 9: alice carries green and red; p02 (deliver 1 green) is displayed,
    # the next card of the deck is p01 (deliver 1 red).
    s = state({"alice": "d3", "bob": "b1"}, display=("p02", "p11"), deck=("p16", "p01"),
              alice={"chests": ["green", "red"]})
    events, _ = sailing.move_ship(C, s, "alice", ["d2", "e2", "e3"], Scripted(), "t01/x")
    assert s["achieved"]["alice"] == ["p02", "p01"]
    assert s["display"] == ["p16", "p11"] and s["pursuit_deck"] == []
    assert s["board"]["alice"]["chests"] == [] and chests_on_cities(s) == ["green", "red"]
    assert s["honour"]["alice"] == 0  # both chests completed a Pursuit: no Honour 5 card
    assert s["ships"]["alice"] == "d2" and events[-1]["rest"] == ["e2", "e3"]  # Ship 7
    shown = [e["card"] for e in events if e["type"] == "pursuit-display"]
    assert shown == ["p01", "p16"]  # each refill named at once, publicly


def test_pursuit_deliver_4_every_chest_goes_back_by_return_to() -> None:
    s = state({"alice": "d3", "bob": "b1"}, alice={"chests": ["black"],
                                                   "policy": {"return_to": "nearest_athens"}})
    s["chests"] = {x: ["red", "red"] if x != "halikarnassos" else [] for x in s["chests"]}
    for city in ("thera", "rhodes"):  # two empty spaces near Athens: Rhodes is nearer
        s["chests"][city] = ["red"]
    sail(s, "alice", {"goal": "deliver"})
    assert s["chests"]["rhodes"] == ["red", "black"]
    s["board"]["alice"]["chests"] = ["blue"]
    s["policy"]["alice"]["return_to"] = "farthest_athens"
    sail(s, "alice", {"goal": "deliver"})  # from d2: another anchor (e2)
    assert s["ships"]["alice"] == "e2" and s["chests"]["halikarnassos"] == ["blue"]


def test_honour_5_a_delivery_completing_nothing_earns_a_card_and_the_move_goes_on() -> None:
    s = state({"alice": "d3", "bob": "b1"}, display=("p01", "p11"),
              alice={"chests": ["yellow"]})
    events, _ = sailing.move_ship(C, s, "alice", ["d2", "c2", "b2"], Scripted(), "t01/x")
    assert s["honour"]["alice"] == 1 and s["ships"]["alice"] == "b2"
    assert "move-ends" not in kinds(events) and chests_on_cities(s) == ["yellow"]
    # Two chests, one completing p01 (deliver 1 red): 1 Honour card for the other (5.1
    # item 12), and the move ends (Ship 7).
    s = state({"alice": "d3", "bob": "b1"}, display=("p01", "p11"),
              alice={"chests": ["red", "yellow"]})
    events, _ = sailing.move_ship(C, s, "alice", ["d2", "c2", "b2"], Scripted(), "t01/x")
    assert s["achieved"]["alice"] == ["p01"] and s["honour"]["alice"] == 1
    assert s["ships"]["alice"] == "d2"


def test_pursuit_0_2_a_personal_card_only_its_owner_achieves() -> None:
    s = state({"alice": "d3", "bob": "b1"}, display=("p11", "p14"),
              alice={"chests": ["red"]}, bob={"personal": "p01"})
    sail(s, "alice", {"goal": "deliver"})
    assert s["personal"]["bob"] == "p01" and s["achieved"] == {"alice": [], "bob": []}
    assert s["honour"]["alice"] == 1  # Honour 5
    s["board"]["bob"]["chests"] = ["red"]
    s["ships"]["bob"] = "c2"
    events = sail(s, "bob", {"goal": "deliver"})
    assert s["personal"]["bob"] == "" and s["achieved"]["bob"] == ["p01"]
    assert any(e["type"] == "pursuit" and e["personal"] for e in events)


# --- the sail phase ---------------------------------------------------------------------------

def test_round_2_sacrifice_retrieve2() -> None:
    s = state({"alice": "b1", "bob": "e5", "carol": "c2"}, bob={"hoplites": 7, "underworld": 3})
    events = sail(s, "bob", {"goal": "retrieve2"}, {"goal": "reach", "target": "e3"})
    assert s["board"]["bob"]["hoplites"] == 9 and s["underworld"]["bob"] == 1
    assert s["ships"]["bob"] == "e5" and kinds(events) == ["reclaim"]  # no move, no action
    s["underworld"]["bob"] = 0
    events = sail(s, "bob", {"goal": "retrieve2"}, {"goal": "stay"})
    assert kinds(events) == ["skip", "stay"] and s["board"]["bob"]["hoplites"] == 9


def test_round_2_goals_are_recomputed_and_skipped_in_order() -> None:
    s = state({"alice": "b1", "bob": "e5", "carol": "h6"})
    # Salamis (c6) is next to d6: 2 squares from e5; Lindos (h3) is 4 squares away.
    events = sail(s, "bob", {"goal": "found", "target": "lindos"},
                  {"goal": "challenge_city", "target": "salamis"},
                  {"goal": "found", "target": "salamis"}, {"goal": "stay"})
    assert kinds(events)[:2] == ["skip", "skip"] and "belongs to nobody" in events[1]["text"]
    assert s["settlements"]["salamis"] == {"owner": "bob", "hoplites": 2}
    assert s["ships"]["bob"] in C.board.approaches("salamis")
    assert s["board"]["bob"]["hoplites"] == 8


def test_round_example_b_steals_a_chest_c_sails_to_the_styx_d_delivers() -> None:
    # Round Ex: A active, the centre die 3. B uses 3 moves to reach C's square and wins
    # (4 skulls down against 2 skulls up), steals C's chest and pushes C 3 squares; C then
    # sails to the Styx and reclaims; D, one square from Athens, delivers.
    s = state({"a": "b1", "b": "d5", "c": "g5", "d": "d3"}, display=("p05", "p01"),
              deck=("p14", "p03"), b={"hoplites": 4}, c={"hoplites": 2, "chests": ["yellow"],
                                                           "underworld": 1},
              d={"chests": ["red"]})
    events = sail(s, "b", {"goal": "challenge_ship", "target": "c"}, public=[D] * 4 + [U] * 2)
    assert events[0]["type"] == "sail" and events[0]["path"] == ["e5", "f5", "g5"]
    fight = next(e for e in events if e["type"] == "challenge-ship")
    assert fight["winner"] == "b" and s["board"]["b"]["chests"] == ["yellow"]
    assert s["achieved"]["b"] == ["p05"]  # "Defeat another player's ship" (Pursuit Ship 3)
    assert s["ships"]["b"] == "g5" and s["ships"]["c"] != "g5"  # pushed 3 squares
    assert s["underworld"]["c"] == 3 and s["board"]["c"]["hoplites"] == 0
    events = sail(s, "c", {"goal": "styx"})
    assert s["ships"]["c"] in C.board.styx and s["board"]["c"]["hoplites"] == 3
    assert s["honour"]["c"] == 2  # Styx 2: sole majority, 4 players: 2 Honour cards
    events = sail(s, "d", {"goal": "deliver"})
    assert s["ships"]["d"] == "d2" and s["achieved"]["d"] == ["p01"]
    assert s["display"] == ["p03", "p14"]


def test_plan_sail_refuses_bad_goals_and_targets() -> None:
    s = state({"alice": "b1", "bob": "e5"})
    plans, problems = sailing.plan_sail(C, s, "bob", [
        {"goal": "fly"}, {"goal": "challenge_ship", "target": "bob"},
        {"goal": "found", "target": "corinth"}, {"goal": "reach", "target": "e4"},
        {"goal": "styx", "target": "i4"}, {"goal": "deliver", "speed": 2},
        {"goal": "cards", "target": "rhodes", "cards": ["nope"]},
        {"goal": "challenge_city", "target": "halikarnassos"}])
    assert plans == [{"goal": "challenge_city", "target": "halikarnassos"}]
    assert [p.where for p in problems] == [
        "[[orders.plan]] 1 goal", "[[orders.plan]] 2 target", "[[orders.plan]] 3 target",
        "[[orders.plan]] 4 target", "[[orders.plan]] 5 target", "[[orders.plan]] 6 speed",
        "[[orders.plan]] 7 cards"]


def test_pursuit_cards_3_sacrifice_on_a_cards_goal() -> None:
    # p02: "Sail to Rhodes with 2 Action cards"; f3 is next to Rhodes (g3).
    s = state({"alice": "b1", "bob": "e3"}, display=("p02", "p11"), deck=("p16",),
              bob={"hand": ["draw", "reclaim", "move_plus"]})
    s["action_deck"] = ["hydra_plus"]
    events = sail(s, "bob", {"goal": "cards", "target": "rhodes", "cards": ["move_plus"]})
    assert s["ships"]["bob"] == "f3" and s["achieved"]["bob"] == ["p02"]
    assert s["hands"]["bob"] == ["reclaim"]
    assert s["action_deck"] == ["move_plus", "draw", "hydra_plus"]  # the bottom: the front
    assert all("move_plus" not in e["text"] for e in events)  # public: a count only

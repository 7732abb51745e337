"""Grecos's turn as the engine runs it (TURN SEQUENCE, Setup, Victory; the standing orders):
whole phases through the ruleset, from a real set-up with the board arranged for the case."""

from __future__ import annotations

import hashlib
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.grecos import turn
from pbem.games.grecos.components import load
from pbem.games.grecos.game import RULESET
from pbem.games.grecos.squares import SQUARES

C = load()
State = dict[str, Any]
CITIES = ["a8", "b8", "c8", "d8", "e8", "f8"]


def rng(label: str) -> Rng:
    return Rng(Stream(hashlib.sha256(f"grecos-turn/p/{label}".encode()).digest()),
               Stream(hashlib.sha256(f"grecos-turn/s/{label}".encode()).digest()))


def new(players: tuple[str, ...] = ("alice", "bob"), key: str = "g",
        joins: dict[str, Any] | None = None) -> State:
    return RULESET.setup(players, {"rounds": "15"}, joins or {}, rng(f"setup/{key}")).state


def arrange(units: list[tuple[str, str, str]], board: dict[str, str] | None = None,
            players: tuple[str, ...] = ("alice", "bob")) -> State:
    """A game with only ``units`` (kind, owner, square) on a board of Coastal squares with the
    six City States on a8-f8 (then ``board``), alice to play her Recruit Phase."""
    s = new(players)
    s["board"] = {**dict.fromkeys(SQUARES, "coastal"), **dict.fromkeys(CITIES, "city_state"),
                  **(board or {})}
    s["seats"] = list(players)
    s["active"], s["step"], s["units"] = players[0], "recruit", {}
    for i, (kind, owner, square) in enumerate(units, 1):
        s["units"][str(i)] = {"kind": kind, "owner": owner, "square": square,
                              "hits": C.units[kind].hits}
    s["next_unit"] = len(units) + 1
    s["pile"] = []  # (the chits of the arranged units are in play, not in the pile)
    s["chits"] = {p: [] for p in players}
    return s


def phase(s: State) -> PhaseSpec:
    spec = RULESET.next_phase(s)
    assert spec is not None
    return spec


def run(s: State, orders: dict[str, Any], key: str = "k") -> list[dict[str, Any]]:
    spec = phase(s)
    problems = RULESET.validate(s, spec, spec.actors[0], orders)
    assert not problems, problems
    return RULESET.resolve(s, spec, {spec.actors[0]: orders}, rng(key)).events


def test_setup_1_2_a_hero_each_on_a_city_state_and_a_first_player() -> None:
    s = new(("alice", "bob", "carol"))
    assert sorted(s["board"].values()).count("city_state") == 6  # Map 1-2: all 64 tiles
    heroes = [x for x in s["units"].values() if x["kind"] == "hero"]
    assert sorted(x["owner"] for x in heroes) == ["alice", "bob", "carol"]
    assert all(s["board"][x["square"]] == "city_state" for x in heroes)
    assert len({x["square"] for x in heroes}) == 3
    assert s["active"] == s["seats"][0] and s["step"] == "recruit"
    # the starting Heroes come out of the eight Hero chits; the first player drew one chit
    assert s["pile"].count("hero") + sum(x.count("hero") for x in s["chits"].values()) == 5
    assert len(s["pile"]) == 48 - 3 - 1 and len(s["chits"][s["active"]]) == 1


def test_turn_1_2_recruit_then_event_move_battle_then_the_next_player() -> None:
    s = arrange([("hero", "alice", "c3"), ("hero", "bob", "f6")],
                board={"c3": "city_state"})
    s["chits"]["alice"] = ["hoplites"]
    assert phase(s).id.endswith(".recruit.alice")
    run(s, {"recruit": [{"kind": "hoplites", "square": "c3"}]})
    assert phase(s).kind == "war" and len(s["hands"]["alice"]) == 1  # Event 1
    run(s, {"move": [{"units": ["1"], "path": ["c4"]}]})
    assert s["active"] == "bob" and phase(s).kind == "recruit" and s["turn"] == 2


def test_victory_1_all_six_city_states() -> None:
    units = [("hoplites", "alice", sq) for sq in CITIES[:5]] + [
        ("hero", "alice", "f7"), ("hero", "bob", "h1")]
    s = arrange(units)
    run(s, {})
    events = run(s, {"move": [{"units": ["6"], "path": ["f8"]}]})
    assert s["step"] == "over" and s["result"]["winners"] == ["alice"]
    assert "all six City States" in events[-1]["text"]


def test_victory_1_five_city_states_play_goes_on() -> None:
    units = [("hoplites", "alice", sq) for sq in CITIES[:5]] + [("hero", "bob", "h1")]
    s = arrange(units)
    run(s, {})
    run(s, {})
    assert s["step"] == "recruit" and s["active"] == "bob"


def test_deck_3_blessing_of_kronos_gives_one_extra_turn() -> None:
    s = arrange([("hero", "alice", "c3"), ("hero", "bob", "f6")])
    run(s, {})
    s["hands"]["alice"] = ["kronos"]
    run(s, {"play": [{"card": "kronos"}]})
    assert s["active"] == "alice" and s["turn"] == 2 and s["kronos"] == 0
    run(s, {})
    run(s, {})
    assert s["active"] == "bob"  # one extra turn, not two


def test_deck_1_pandoras_box_then_the_hand_limit_at_each_own_event_phase() -> None:
    s = arrange([("hero", "alice", "c3"), ("hero", "bob", "f6")])
    run(s, {})
    s["hands"]["alice"] = ["pandoras_box"]
    run(s, {"play": [{"card": "pandoras_box"}]})
    assert len(s["hands"]["bob"]) == 5  # Deck 1: everyone draws five
    run(s, {})  # bob's Recruit Phase; then Event 1 gives him a sixth card
    assert len(s["hands"]["bob"]) == 6
    keep = s["hands"]["bob"][:5]
    run(s, {"discard": [s["hands"]["bob"][5]]})
    assert s["hands"]["bob"] == keep  # Event 2: down to five


def test_stacking_2_every_unit_counts_nothing_is_summoned() -> None:
    # "Summoned units do not count against this limit": Grecos summons nothing (analysis 5.1
    # item 2), so every unit counts: a fifth unit may not come into a square of four.
    s = arrange([("hoplites", "alice", "c3")] * 4 + [("hero", "bob", "h8")],
                board={"c3": "city_state"})
    s["chits"]["alice"] = ["hoplites"]
    spec = phase(s)
    problems = RULESET.validate(s, spec, "alice", {"recruit": [{"kind": "hoplites",
                                                                "square": "c3"}]})
    assert problems and "Stacking" in str(problems[0])


def test_deck_28_a_stack_under_wine_starts_no_battle() -> None:
    s = arrange([("hero", "alice", "c3"), ("hoplites", "bob", "c4")])
    run(s, {})
    s["hands"]["bob"] = ["wine"]
    events = run(s, {"battle": [{"from": "c3", "target": "c4"}]})
    kinds = [e["type"] for e in events]
    assert "battle-off" in kinds and not any(e["type"] == "attack" for e in events)
    assert len(s["units"]) == 2 and "wine" in s["discard"]


def test_move_5_units_left_on_water_without_their_ship_go_down() -> None:
    # Authored ruling: when a battle destroys the last Ship of a stack at sea, the Heroes and
    # Army units it carried go down with it; water units (Tritons) swim on.
    s = arrange([("ships", "bob", "d4"), ("hoplites", "bob", "d4"), ("tritons", "bob", "d4"),
                 ("hero", "alice", "h1")], board={"d4": "sea"})
    assert turn.sink(C, s, "d4") == []  # the Ship still floats
    del s["units"]["1"]
    events = turn.sink(C, s, "d4")
    assert [e["unit"] for e in events] == ["2"] and "goes down" in events[0]["text"]
    assert sorted(s["units"]) == ["3", "4"] and turn.invariants(C, s) == []


def test_join_policy_is_sealed_and_the_hands_and_piles_are_private() -> None:
    s = new(joins={"bob": {"defend": {"react": False}}})
    assert RULESET.view(s, "bob")["my_policy"]["react"] is False
    first = s["active"]
    for reader in [p for p in s["seats"] if p != first] + [None]:
        view = RULESET.view(s, reader)
        assert "policy" not in view and "pile" not in view and "hands" not in view
        assert view.get("my_chits") != s["chits"][first] or reader == first
    assert RULESET.view(s, first)["my_chits"] == s["chits"][first]
    assert RULESET.view(s, None)["chit_counts"][first] == 1


def test_nmr_default_is_no_orders_and_the_newest_cards_go() -> None:
    s = arrange([("hero", "alice", "c3"), ("hero", "bob", "f6")])
    spec = phase(s)
    assert RULESET.default_orders(s, spec, "alice") == {}
    run(s, {})
    s["hands"]["alice"] = ["tyche", "kronos", "oracle", "hermes", "lost", "storm"]
    run(s, {})
    assert s["hands"]["alice"] == ["tyche", "kronos", "oracle", "hermes", "lost"]


def test_round_limit_most_city_states_win() -> None:
    s = arrange([("hero", "alice", "c8"), ("hero", "bob", "f6")])
    s["options"]["rounds"] = "1"
    for _ in range(4):
        run(s, {})
    assert s["step"] == "over" and s["result"]["winners"] == ["alice"]
    assert s["result"]["score"] == {"alice": 1, "bob": 0}

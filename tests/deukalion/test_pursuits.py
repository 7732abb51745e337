"""Pursuit cards (Pursuit 0.2-0.4, Pursuit 1-5, Pursuit Ship, Hoplites, Cards, Honour 5,
End 1): pursuits.check_pursuits and task_met on hand-built states (the builder of
test_sailing.py)."""

from __future__ import annotations

from typing import Any

from pbem.games.deukalion import pursuits
from pbem.games.deukalion.components import load
from tests.deukalion.test_sailing import Scripted, kinds, state

C = load()


def check(s: dict[str, Any], players: list[str], context: dict[str, Any] | None = None
          ) -> list[dict[str, Any]]:
    events, _ = pursuits.check_pursuits(C, s, players, Scripted(), "t01/pursuit",
                                        context=context)
    return events


def test_task_met_needs_the_events_context() -> None:
    # f3 is next to Rhodes (g3): p14 "Sail to Rhodes with 5 hoplites", p02 "... with 2 Action
    # cards", p05 "Deliver 1 black" / "Defeat another player's ship", p09 "Defeat the Hydra".
    s = state({"alice": "f3", "bob": "b1"}, alice={"hoplites": 5, "hand": ["draw", "draw"]})
    deliver, ship = C.pursuits["p05"].tasks
    hoplites, cards = C.pursuits["p14"].tasks[0], C.pursuits["p02"].tasks[1]
    hydra = C.pursuits["p09"].tasks[0]
    assert not pursuits.task_met(C, s, "alice", deliver, {"delivered": ["red"]})
    assert pursuits.task_met(C, s, "alice", deliver, {"delivered": ["red", "black"]})
    assert not pursuits.task_met(C, s, "alice", ship, {})
    assert pursuits.task_met(C, s, "alice", ship, {"defeated": "bob"})
    assert pursuits.task_met(C, s, "alice", hoplites) and not pursuits.task_met(
        C, s, "bob", hoplites)
    assert not pursuits.task_met(C, s, "alice", cards)  # sacrificing is an order
    assert pursuits.task_met(C, s, "alice", cards, {"cards": "rhodes"})
    assert not pursuits.task_met(C, s, "alice", hydra) and pursuits.task_met(
        C, s, "alice", hydra, {"hydra": True})
    s["board"]["alice"]["hoplites"] = 4
    assert not pursuits.task_met(C, s, "alice", hoplites)


def test_pursuit_3_simultaneous_completion_each_takes_an_honour_card() -> None:
    # alice (f3) and bob (g4) are both next to Rhodes with 10 hoplites when p14 turns up.
    s = state({"alice": "f3", "bob": "g4"}, display=("p14", "p11"), deck=("p16", "p15"))
    events = check(s, ["alice", "bob"])
    assert s["honour"] == {"alice": 1, "bob": 1}
    assert s["achieved"] == {"alice": [], "bob": []} and "p14" not in s["pursuit_deck"]
    assert s["display"] == ["p15", "p11"]
    assert kinds(events) == ["pursuit-shared", "pursuit-display"]
    assert events[1]["card"] == "p15" and "p15" in events[1]["text"]


def test_pursuit_1_a_personal_card_is_not_shared() -> None:
    s = state({"alice": "f3", "bob": "g4"}, display=("p11", "p12"), bob={"personal": "p14"})
    check(s, ["alice", "bob"])
    assert s["achieved"] == {"alice": [], "bob": ["p14"]} and s["personal"]["bob"] == ""
    assert s["honour"] == {"alice": 0, "bob": 0}


def test_pursuit_4_chain_sacrifice_then_the_ships_square() -> None:
    # alice sacrifices 2 cards at Rhodes for p02; the card turned over, p14 ("Sail to Rhodes
    # with 5 hoplites"), is met where she stands: taken at once.
    s = state({"alice": "f3", "bob": "b1"}, display=("p02", "p11"), deck=("p16", "p14"),
              alice={"hand": ["draw", "reclaim", "hydra_plus"]})
    events, private = pursuits.check_pursuits(C, s, ["alice"], Scripted(), "x",
                                              context={"alice": {"cards": "rhodes"}})
    assert s["achieved"]["alice"] == ["p02", "p14"] and s["display"] == ["p16", "p11"]
    assert s["hands"]["alice"] == ["hydra_plus"] and s["action_deck"] == ["draw", "reclaim"]
    assert private["alice"][0]["cards"] == ["draw", "reclaim"]
    assert all("reclaim" not in e["text"] for e in events)


def test_pursuit_2_chests_shared_out_for_the_most_points() -> None:
    # Two green chests: p02 wants 1 green (2 points), p07 wants 2 greens (3 points); both at
    # once need 3. The chests go to p07, not to the first card on display.
    s = state({"alice": "d2", "bob": "b1"}, display=("p02", "p07"), deck=("p16",))
    check(s, ["alice"], {"alice": {"delivered": ["green", "green"]}})
    assert s["achieved"]["alice"] == ["p07"] and s["honour"]["alice"] == 0
    assert s["display"] == ["p02", "p16"]


def test_honour_5_one_card_per_chest_that_completed_nothing() -> None:
    s = state({"alice": "d2", "bob": "b1"}, display=("p01", "p11"), deck=("p16",))
    events = check(s, ["alice"], {"alice": {"delivered": ["red", "blue", "yellow"]}})
    assert s["achieved"]["alice"] == ["p01"] and s["honour"]["alice"] == 2
    assert events[-1]["type"] == "honour" and events[-1]["chests"] == ["blue", "yellow"]


def test_pursuit_ship_3_defeat_ship_by_the_winner() -> None:
    s = state({"alice": "d5", "bob": "b1"}, display=("p11", "p12"), deck=("p16", "p15"))
    check(s, ["alice", "bob"])
    assert s["achieved"] == {"alice": [], "bob": []}
    check(s, ["alice", "bob"], {"alice": {"defeated": "bob"}})
    # "Several at once" (Pursuit 2): the victory meets both defeat_ship cards.
    assert s["achieved"]["alice"] == ["p11", "p12"] and s["display"] == ["p15", "p16"]


def test_pursuit_0_4_an_empty_deck_leaves_the_slot_empty() -> None:
    s = state({"alice": "f3", "bob": "b1"}, display=("p11", "p14"), deck=())
    events = check(s, ["alice"])
    assert s["achieved"]["alice"] == ["p14"] and s["display"] == ["p11"]
    assert events[-1] == {"type": "pursuit-display", "card": "", "text": events[-1]["text"]}


def test_end_1_the_chain_stops_when_the_target_is_reached() -> None:
    # 2 players: 16 Honour points win. alice has 14; p02 (2 points) reaches 16 before the
    # refilled p01 (deliver 1 red) would be taken with her red chest.
    s = state({"alice": "d2", "bob": "b1"}, display=("p02", "p11"), deck=("p16", "p01"))
    s["honour"]["alice"] = 14
    events = check(s, ["alice"], {"alice": {"delivered": ["green", "red"]}})
    assert s["step"] == "over" and s["result"]["winner"] == "alice"
    assert s["achieved"]["alice"] == ["p02"] and s["honour"]["alice"] == 14
    assert kinds(events)[-1] == "game-over"

"""The Cyclades cycle (seed Cycle Order 1-7 and 9, Cycle 8.5): pbem.games.cyclades.cycle.

Scenes start from ``setup.initial_state`` (real streams) with the board emptied, then put on it
what the clause needs. Where a test needs particular dice (the Hades roll) or a particular
shuffle, it tries a small range of stream keys and keeps the first that gives them, as the
battle tests do: the faces asserted are the faces really drawn.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

import pytest

from pbem.core.dice import Rng, Stream
from pbem.games.cyclades import bidding, cycle, setup
from pbem.games.cyclades.components import load
from pbem.games.cyclades.maps import Board, load_board

C = load()
PLAYERS = ("ann", "bob", "cat", "dan")
State = dict[str, Any]
Event = dict[str, Any]


def rng(label: str) -> Rng:
    def stream(kind: str) -> Stream:
        return Stream(hashlib.sha256(f"cyclades-cycle/{kind}/{label}".encode()).digest())
    return Rng(stream("public"), stream("sealed"))


def scene(name: str = "vanilla", players: tuple[str, ...] = PLAYERS, n: int = 2,
          step: str = "act") -> tuple[State, Board]:
    """An emptied board in cycle ``n``; everyone has 7 gold and nothing else."""
    b = load_board(name, len(players))
    state, _ = setup.initial_state(C, b, players, {"board": name}, rng("scene"))
    for t in state["territories"].values():
        t["buildings"] = []
    state.update(cycle=n, step=step, to_deploy={})
    state["gods"].update(track=["poseidon", "ares", "zeus"], seen=["poseidon", "ares", "zeus"],
                         unused=["athena", "kronos"], bag=["athena", "kronos"])
    return state, b


def find(run: Callable[[str], tuple[State, list[Event]]],
         ok: Callable[[State, list[Event]], bool], tries: int = 400
         ) -> tuple[State, list[Event]]:
    for i in range(tries):
        state, events = run(f"k{i}")
        if ok(state, events):
            return state, events
    raise AssertionError("no key gives the wanted draws")


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


# --- Cycle 1: rotate creatures ----------------------------------------------------------------


def test_cycle_1_1_second_cycle_initial_creature_not_bought_moves_to_3_gold() -> None:
    state, _ = scene(n=2)
    track = state["creature_track"]
    track.update(slots=["minotaur", "", ""], deck=["harpy", "giant", "sphinx"])
    events = cycle.rotate_creatures(C, state, rng("r"))
    # "move it from the 4gp space to the 3 gold space and put the next card ... on the 4gp"
    assert track["slots"] == ["harpy", "minotaur", ""]
    assert track["deck"] == ["giant", "sphinx"] and track["discard"] == []
    assert events[-1]["rule"] == "Cycle 1.1"


def test_cycle_1_1_second_cycle_initial_creature_bought_two_cards_turned_up() -> None:
    state, _ = scene(n=2)
    track = state["creature_track"]
    track.update(slots=["", "", ""], deck=["harpy", "giant", "sphinx"])
    cycle.rotate_creatures(C, state, rng("r"))
    # "If it was purchased, turn two cards face-up ... on the 4 GP and 3 GP spaces"
    assert track["slots"] == ["harpy", "giant", ""]
    assert track["deck"] == ["sphinx"]


def test_cycle_1_2_cards_move_down_one_space_the_last_discarded_and_refilled() -> None:
    state, _ = scene(n=3)
    track = state["creature_track"]
    track.update(slots=["minotaur", "harpy", "giant"], deck=["sphinx", "siren"])
    cycle.rotate_creatures(C, state, rng("r"))
    assert track["slots"] == ["sphinx", "minotaur", "harpy"]
    assert track["discard"] == ["giant"]
    # a bought (empty) slot moves down too; the empties are filled, the 4-gold space first
    track.update(slots=["chimera", "", "griffon"], deck=["kraken", "medusa", "pegasus"],
                 discard=[])
    cycle.rotate_creatures(C, state, rng("r"))
    assert track["slots"] == ["kraken", "chimera", "medusa"]
    assert track["discard"] == ["griffon"]


@pytest.mark.parametrize(("card", "where"), [("achilles", "removed"), ("aegis", "removed"),
                                             ("mummy", "discard"), ("harpy", "discard")])
def test_cycle_1_2_1_heroes_and_artifacts_removed_never_discarded(card: str, where: str) -> None:
    state, _ = scene(n=4)
    track = state["creature_track"]
    track.update(slots=["minotaur", "giant", card], deck=["sphinx"], discard=[], removed=[])
    events = cycle.rotate_creatures(C, state, rng("r"))
    assert track[where] == [card]
    assert card not in track["discard" if where == "removed" else "removed"]
    assert any(e["rule"] == ("Cycle 1.2.1" if where == "removed" else "Cycle 1.2")
               and e.get("card") == card for e in events)


def test_cycle_1_2_empty_deck_reshuffles_the_discard_pile_sealed() -> None:
    state, _ = scene(n=3)
    track = state["creature_track"]
    track.update(slots=["minotaur", "harpy", "giant"], deck=[], discard=["sphinx", "siren"])
    r = rng("reshuffle")
    events = cycle.rotate_creatures(C, state, r)
    assert track["slots"][1:] == ["minotaur", "harpy"]
    assert track["slots"][0] in ("sphinx", "siren", "giant")
    # the discard pile (with the Giant just discarded) became the deck; one card was drawn
    assert sorted([track["slots"][0], *track["deck"]]) == ["giant", "siren", "sphinx"]
    assert track["discard"] == []
    assert of_type(events, "reshuffle") and r.sealed.draws and not r.public.draws


def test_cycle_1_first_cycle_has_no_rotation() -> None:
    state, _ = scene(n=1)
    state["creature_track"].update(slots=["minotaur", "", ""], deck=["harpy"])
    assert cycle.rotate_creatures(C, state, rng("r")) == []
    assert state["creature_track"]["slots"] == ["minotaur", "", ""]


# --- Cycle 2: income --------------------------------------------------------------------------


def test_cycle_2_income_from_territories_markers_and_sea_cornucopias_is_private() -> None:
    state, b = scene("vanilla", n=2)
    assert b.territory("naxos").prosperity == 1 and b.sea("E7").prosperity == 1
    assert b.sea("G5").prosperity == 0
    state["territories"]["naxos"].update(owner="ann", troops=1, prosperity=1)  # + a marker
    state["seas"]["E7"].update(owner="ann", fleets=1)                          # a cornucopia
    state["seas"]["G5"].update(owner="ann", fleets=1)                          # none there
    state["territories"]["paros"].update(owner="bob", troops=1)
    public, private = cycle.gather_income(C, b, state)
    # ann: naxos 1 + marker 1 + E7 1 = 3; bob: paros 1; cat and dan: nothing
    assert state["gold"] == {"ann": 10, "bob": 8, "cat": 7, "dan": 7}
    assert private["ann"][0]["income"] == 3 and private["ann"][0]["gold"] == 10
    assert set(private) == set(PLAYERS)
    # Cycle 2.2: "Gold is kept hidden": no public event carries an amount or total
    assert all("gold" not in e and "income" not in e for e in public)


def test_cycle_2_necropolis_gold_taken_with_income() -> None:
    state, b = scene("vanilla", n=3)
    state["territories"]["syros"].update(owner="ann", troops=1, buildings=["necropolis"],
                                         necropolis_gold=3)
    public, private = cycle.gather_income(C, b, state)
    assert state["gold"]["ann"] == 7 + 0 + 3   # syros has no cornucopia
    assert state["territories"]["syros"]["necropolis_gold"] == 0
    assert of_type(public, "necropolis_income")[0]["gold"] == 3   # the coins lay in sight
    assert private["ann"][0]["necropolis"] == 3


def test_cycle_2_skipped_in_the_first_cycle() -> None:
    state, b = scene("vanilla", n=1)
    state["territories"]["naxos"].update(owner="ann", troops=1)
    assert cycle.gather_income(C, b, state) == ([], {})
    assert state["gold"]["ann"] == 7


# --- Cycle 3: Hero upkeep ---------------------------------------------------------------------


def heroes_scene(gold: int, priestesses: int, heroes: list[str]) -> tuple[State, Board]:
    state, b = scene("vanilla", n=3, step="upkeep")
    state["territories"]["naxos"].update(owner="ann", troops=1, heroes=list(heroes))
    state["hands"]["ann"].update(heroes=list(heroes), priestess=priestesses)
    state["gold"]["ann"] = gold
    return state, b


def test_cycle_3_upkeep_paid_with_gold_or_a_priestess_else_released() -> None:
    state, b = heroes_scene(5, 1, ["achilles", "jason", "perseus"])
    assert cycle.upkeep_players(state) == ["ann"]
    orders = {"ann": {"keep": [{"hero": "achilles", "pay": "gold"},
                               {"hero": "jason", "pay": "priestess"}]}}
    assert cycle.validate_upkeep(C, state, "ann", orders["ann"]) == []
    events = cycle.resolve_upkeep(C, b, state, orders, rng("up"))
    assert state["gold"]["ann"] == 3 and state["hands"]["ann"]["priestess"] == 0
    # Cycle 3.2: "remove their figure and card from the game"
    assert state["hands"]["ann"]["heroes"] == ["achilles", "jason"]
    assert state["territories"]["naxos"]["heroes"] == ["achilles", "jason"]
    assert "perseus" in state["creature_track"]["removed"]
    assert [e["hero"] for e in of_type(events, "hero_released")] == ["perseus"]
    paid = of_type(events, "upkeep")
    assert [(e["hero"], e["pay"]) for e in paid] == [("achilles", "gold"), ("jason", "priestess")]
    assert state["step"] == "bid"   # then steps 4-6 ran


def test_cycle_3_default_upkeep_gold_then_priestess_then_release() -> None:
    state, b = heroes_scene(3, 1, ["achilles", "heracles", "jason"])
    assert cycle.default_upkeep(C, state, "ann") == {"keep": [
        {"hero": "achilles", "pay": "gold"}, {"hero": "heracles", "pay": "priestess"}]}
    cycle.resolve_upkeep(C, b, state, {"ann": {}}, rng("up"))   # an unchanged form
    assert state["hands"]["ann"]["heroes"] == ["achilles", "heracles"]
    assert state["gold"]["ann"] == 1 and state["hands"]["ann"]["priestess"] == 0


def test_cycle_3_release_and_validation_problems() -> None:
    state, b = heroes_scene(2, 0, ["achilles", "jason"])
    bad = cycle.validate_upkeep(C, state, "ann", {
        "keep": [{"hero": "achilles", "pay": "gold"}, {"hero": "jason", "pay": "gold"},
                 {"hero": "odysseus", "pay": "gold"}], "note": 1})
    wheres = [p.where for p in bad]
    assert "[orders] note" in wheres and "[orders] keep[2].hero" in wheres
    assert any("costs 4" in p.message for p in bad)   # 2 Heroes x 2 gold, with 2 gold
    cycle.resolve_upkeep(C, b, state, {"ann": {"release": ["achilles"]}}, rng("up"))
    assert state["hands"]["ann"]["heroes"] == ["jason"] and state["gold"]["ann"] == 0


def test_cycle_3_no_upkeep_phase_without_heroes() -> None:
    state, _ = scene("vanilla", n=2)
    assert cycle.upkeep_players(state) == []
    state["territories"]["naxos"].update(owner="bob", troops=1, heroes=["jason"])
    state["hands"]["bob"]["heroes"] = ["jason"]
    state["gold"]["bob"] = 0   # even unable to pay, bob gets the phase (nothing leaks)
    assert cycle.upkeep_players(state) == ["bob"]


# --- Cycle 4: refresh gods --------------------------------------------------------------------


def test_cycle_4_1_gods_not_used_go_on_top_the_rest_fill_in() -> None:
    tops = set()
    for i in range(12):
        state, _ = scene(n=2)
        events = cycle.refresh_gods(C, state, rng(f"g{i}"))
        track = state["gods"]["track"]
        assert len(track) == 3   # 4 players - 1
        assert set(track[:2]) == {"athena", "kronos"} and track[2] in ("poseidon", "ares", "zeus")
        tops.add(track[0])
        assert state["gods"]["bag"] == sorted({"poseidon", "ares", "zeus", "athena",
                                               "kronos"} - set(track))
        assert events[0]["rule"] == "Cycle 4.1"
    assert tops == {"athena", "kronos"}   # "in random order"


def test_cycle_4_1_an_active_god_nobody_bid_on_counts_as_unused() -> None:
    state, b = scene(n=2, step="bid")
    bids = {"ann": (bidding.Entry("poseidon", 1),), "bob": (bidding.Entry("ares", 1),)}
    cycle.resolve_bid(C, b, state, bids, {}, rng("b"))   # nobody takes Zeus
    assert state["gods"]["unused"] == ["athena", "kronos", "zeus"]
    cycle.refresh_gods(C, state, rng("g"))
    assert sorted(state["gods"]["track"]) == ["athena", "kronos", "zeus"]


def test_cycle_4_2_once_all_gods_seen_all_are_shuffled_together() -> None:
    def run(key: str) -> tuple[State, list[Event]]:
        state, _ = scene(n=3)
        state["gods"]["seen"] = ["ares", "athena", "kronos", "poseidon", "zeus"]
        return state, cycle.refresh_gods(C, state, rng(key))

    # A used god on top is impossible by Cycle 4.1 (athena and kronos would be on top).
    state, events = find(run, lambda s, e: s["gods"]["track"][0] not in ("athena", "kronos"))
    assert events[0]["rule"] == "Cycle 4.2"
    assert sorted(state["gods"]["seen"]) == sorted(state["gods"]["track"])   # seen restarts


def test_cycle_4_seen_grows_until_every_god_has_been_seen() -> None:
    state, _ = scene(n=2)
    cycle.refresh_gods(C, state, rng("s"))
    assert sorted(state["gods"]["seen"]) == ["ares", "athena", "kronos", "poseidon", "zeus"]


def test_misc_two_player_1_three_active_gods() -> None:
    state, _ = scene("vanilla", ("ann", "bob"), n=2)
    cycle.refresh_gods(C, state, rng("two"))
    assert len(state["gods"]["track"]) == 3


# --- Cycle 5: roll for Hades --------------------------------------------------------------------


def hades_run(column: int) -> Callable[[str], tuple[State, list[Event]]]:
    def run(key: str) -> tuple[State, list[Event]]:
        state, _ = scene(n=3, step="bid")
        state["hades"]["column"] = column
        state["favors"].update(deck=["favor_of_ares"], discard=["favor_of_zeus"],
                               face_up="favor_of_hera")
        state["hands"]["bob"]["favors"] = ["favor_of_apollo"]
        return state, cycle.roll_hades(C, state, rng(key))
    return run


def test_cycle_5_2_hades_arriving_at_exactly_9_replaces_the_bottom_god() -> None:
    state, events = find(hades_run(5), lambda s, e: sum(e[0]["dice"]) == 4)   # 5 + 4 = 9
    assert state["hades"] == {"column": 9, "active": True}
    assert state["gods"]["track"] == ["poseidon", "ares", "hades"]   # Zeus was the bottom god
    assert "zeus" in state["gods"]["bag"]
    arrives = of_type(events, "hades_arrives")[0]
    assert arrives["rule"] == "Cycle 5.2" and arrives["replaced"] == "zeus"
    # Cycle 5.3: every favor tile into one face-down stack
    assert sorted(state["favors"]["deck"]) == ["favor_of_apollo", "favor_of_ares",
                                               "favor_of_hera", "favor_of_zeus"]
    assert state["favors"]["face_up"] == "" and state["hands"]["bob"]["favors"] == []


def test_cycle_5_2_hades_at_8_does_not_come() -> None:
    state, events = find(hades_run(5), lambda s, e: sum(e[0]["dice"]) == 3)   # 5 + 3 = 8
    assert state["hades"] == {"column": 8, "active": False}
    assert "hades" not in state["gods"]["track"] and len(events) == 1
    assert state["favors"]["face_up"] == "favor_of_hera"


def test_cycle_5_1_two_combat_dice_and_the_column_keeps_climbing() -> None:
    state, events = hades_run(2)("k0")
    dice = events[0]["dice"]
    assert len(dice) == 2 and all(d in (0, 1, 2, 3) for d in dice)
    assert state["hades"]["column"] == 2 + sum(dice)


def test_cycle_5_3_1_no_divine_favor_the_cycle_hades_is_active() -> None:
    state, _ = find(hades_run(7), lambda s, e: s["hades"]["active"])
    b = load_board("vanilla", 4)
    events = cycle.refresh_favors(C, state, rng("f"))
    assert state["favors"]["face_up"] == ""
    assert events[-1]["rule"] == "Cycle 5.3.1"
    bids = {"cat": (bidding.Entry("hades", 2),)}
    out = cycle.resolve_bid(C, b, state, bids, {}, rng("b"))
    assert not of_type(out, "favor_won") and state["hands"]["cat"]["favors"] == []
    assert ["hades", "cat"] in state["acting"]["queue"]


# --- Cycle 6: divine favors -------------------------------------------------------------------


def test_cycle_6_1_held_favors_discarded_and_6_2_one_face_up_by_the_last_god() -> None:
    state, _ = scene(n=3, step="bid")
    state["hands"]["ann"]["favors"] = ["favor_of_ares"]
    state["favors"].update(deck=["favor_of_zeus", "favor_of_hera"], discard=[], face_up="")
    events = cycle.refresh_favors(C, state, rng("f"))
    assert state["hands"]["ann"]["favors"] == []
    assert state["favors"]["discard"] == ["favor_of_ares"]
    assert state["favors"]["face_up"] == "favor_of_zeus"
    placed = of_type(events, "favor")[0]
    assert placed["rule"] == "Cycle 6.2" and placed["god"] == "zeus"   # the last active god


@pytest.mark.parametrize(("favor", "grant"), [("favor_of_zeus", "priestess"),
                                              ("favor_of_poseidon", "magic_item")])
def test_cycle_6_2_the_winner_of_the_last_god_gains_the_favor(favor: str, grant: str) -> None:
    state, b = scene(n=3, step="bid")
    state["favors"].update(face_up=favor, items=["owl_of_athena", "lyre_of_apollo"])
    bids = {"ann": (bidding.Entry("poseidon", 1),), "bob": (bidding.Entry("zeus", 2),)}
    events = cycle.resolve_bid(C, b, state, bids, {}, rng("b"))
    hand = state["hands"]["bob"]
    assert hand["favors"] == [favor] and state["favors"]["face_up"] == ""
    assert state["hands"]["ann"]["favors"] == []
    if grant == "priestess":
        assert hand["priestess"] == 1 and hand["magic_items"] == []
    else:
        assert hand["magic_items"] == ["owl_of_athena"] and hand["priestess"] == 0
    assert of_type(events, "favor_won")[0]["rule"] == "Cycle 6.2"


# --- Cycle 7: the bid phase ---------------------------------------------------------------------


def test_cycle_7_bid_builds_the_action_queue_top_god_down_then_apollo() -> None:
    state, b = scene(n=2, step="bid")
    state["turn_order"] = ["dan", "cat", "bob", "ann"]
    state["standing"] = {"ann": {"retreat": {"when": "never"}}}
    bids = {"ann": (bidding.Entry("zeus", 3),), "bob": (bidding.Entry("poseidon", 2),),
            "cat": (bidding.Entry("apollo", 0),), "dan": (bidding.Entry("apollo", 0),)}
    defend = {"ann": {}, "bob": {"casualties": ["troop"]}}
    events = cycle.resolve_bid(C, b, state, bids, defend, rng("b"))
    # Cycle 8.1 "from the top God and down"; Apollo's first pillar (Cycle 7.3) last
    assert state["acting"] == {"queue": [["poseidon", "bob"], ["zeus", "ann"],
                                         ["apollo", "dan"]], "index": 0, "finished": []}
    assert state["auction"]["apollo"] == ["dan", "cat"]
    assert state["gold"] == {"ann": 4, "bob": 5, "cat": 7, "dan": 7}   # Cycle 7.5
    assert state["standing"] == {"ann": {"retreat": {"when": "never"}},   # empty: kept
                                 "bob": {"casualties": ["troop"]}}
    assert state["step"] == "act"
    assert {e["rule"] for e in events} >= {"Cycle 7.1", "Cycle 7.3", "Cycle 7.5"}


# --- Cycle 8.5, Cycle 9 and the next cycle --------------------------------------------------------


def end_scene(n: int = 2) -> tuple[State, Board]:
    state, b = scene(n=n)
    state["acting"] = {"queue": [["poseidon", "bob"], ["zeus", "ann"], ["apollo", "dan"]],
                       "index": 3, "finished": ["bob", "ann", "dan", "cat"]}
    state["turn_order"] = ["dan", "cat", "bob", "ann"]
    state["creature_track"].update(slots=["minotaur", "", ""], deck=["harpy", "giant"])
    return state, b


def test_cycle_8_5_first_to_finish_bids_last_next_cycle() -> None:
    state, b = end_scene()
    cycle.end_of_actions(C, b, state, rng("e"))
    assert state["turn_order"] == ["cat", "dan", "ann", "bob"]


def test_cycle_9_1_undead_removed_and_the_control_marker_stays() -> None:
    state, b = end_scene()
    state["hades"] = {"column": 10, "active": True}
    state["gods"]["track"] = ["poseidon", "ares", "hades"]
    state["territories"]["naxos"].update(owner="ann", undead=2)            # taken with undead
    state["territories"]["paros"].update(owner="ann", troops=1, undead=1)
    state["seas"]["G5"].update(owner="ann", undead_fleets=1)
    state["seas"]["H6"].update(owner="ann", fleets=1, undead_fleets=1)
    events, _ = cycle.end_of_actions(C, b, state, rng("e"))
    assert state["territories"]["naxos"]["undead"] == 0
    assert state["territories"]["naxos"]["owner"] == "ann"   # "place a control marker"
    assert state["territories"]["paros"]["troops"] == 1
    assert state["seas"]["G5"] == {"owner": "", "fleets": 0, "undead_fleets": 0}
    assert state["seas"]["H6"] == {"owner": "ann", "fleets": 1, "undead_fleets": 0}
    marker = [e for e in events if e["type"] == "undead_removed" and e.get("territory") ==
              "naxos"]
    assert marker[0]["marker"] is True and marker[0]["rule"] == "Cycle 9.1"
    # Cycle 9.2: Hades face down, his pillar at 0; the next cycle's refresh takes over
    assert "hades" not in state["gods"]["track"]
    assert any(e["rule"] == "Cycle 9.2" for e in events)
    assert state["cycle"] == 3 and state["step"] == "bid"


def test_cycle_9_2_hades_not_active_keeps_his_column() -> None:
    state, b = end_scene()
    state["hades"]["column"] = 6
    before = copy.deepcopy(state)
    events, _ = cycle.end_of_actions(C, b, state, rng("e"))
    roll = of_type(events, "hades_roll")[0]
    assert state["hades"]["column"] == 6 + sum(roll["dice"])
    assert before["hades"]["column"] == 6


def test_cycle_end_of_actions_runs_the_next_cycle_steps_1_to_6() -> None:
    state, b = end_scene(n=2)
    state["territories"]["naxos"].update(owner="ann", troops=1)
    events, private = cycle.end_of_actions(C, b, state, rng("e"))
    rules = [e["rule"] for e in events]
    for rule in ("Cycle 8.5", "Cycle 1.2", "Cycle 2.1", "Cycle 4.1", "Cycle 5.1", "Cycle 6.2"):
        assert rule in rules
    assert state["cycle"] == 3 and state["step"] == "bid"
    assert state["creature_track"]["slots"] == ["harpy", "minotaur", "giant"]   # Cycle 1.2
    assert private["ann"][0]["income"] == 1 and state["gold"]["ann"] == 8
    assert state["auction"] == {} and state["acting"]["queue"] == []


def test_cycle_end_of_actions_stops_at_upkeep_when_a_hero_is_controlled() -> None:
    state, b = end_scene()
    state["territories"]["naxos"].update(owner="ann", troops=1, heroes=["jason"])
    state["hands"]["ann"]["heroes"] = ["jason"]
    track_before = list(state["gods"]["track"])
    events, _ = cycle.end_of_actions(C, b, state, rng("e"))
    assert state["step"] == "upkeep" and state["cycle"] == 3
    assert state["gods"]["track"] == track_before   # steps 4-6 wait for the upkeep
    assert of_type(events, "upkeep_due")[0]["players"] == ["ann"]


def test_cycle_end_of_actions_victory_ends_the_game_without_a_next_cycle() -> None:
    state, b = end_scene()
    for t in ("naxos", "paros"):
        state["territories"][t].update(owner="ann", troops=1, metropolis=True)
    events, private = cycle.end_of_actions(C, b, state, rng("e"))
    assert state["step"] == "over" and state["cycle"] == 2 and private == {}
    assert state["result"]["winners"] == ["ann"]
    assert events[-1]["type"] == "victory"

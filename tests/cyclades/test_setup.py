"""Cyclades setup (seed Setup 1-11, Misc Two Player 1-2, Team Play 2): pbem.games.cyclades.setup.

States are made by ``setup.initial_state`` itself with real streams; a scene then changes only
what it needs (the god track, a territory's owner or buildings, what a pillar has to deploy).
Known values come from the seed's own text, quoted in the comments.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

import pytest

from pbem.core.dice import Rng, Stream
from pbem.games.cyclades import bidding, setup
from pbem.games.cyclades.components import MODULES, load
from pbem.games.cyclades.maps import Board, load_board
from pbem.games.cyclades.state import land_units

C = load()
PLAYERS4 = ("ann", "bob", "cat", "dan")
State = dict[str, Any]


def rng(label: str) -> Rng:
    def stream(kind: str) -> Stream:
        return Stream(hashlib.sha256(f"cyclades-setup/{kind}/{label}".encode()).digest())
    return Rng(stream("public"), stream("sealed"))


def board(name: str, n: int) -> Board:
    return load_board(name, n)


def new(name: str = "titans", players: tuple[str, ...] = PLAYERS4, teams: str = "off",
        key: str = "x") -> tuple[State, Board]:
    b = board(name, len(players))
    state, _ = setup.initial_state(C, b, players, {"board": name, "teams": teams}, rng(key))
    return state, b


def entry(god: str, offer: int = 0) -> tuple[bidding.Entry, ...]:
    return (bidding.Entry(god, offer),)


def bid_for(state: State, wanted: dict[str, str]) -> dict[str, tuple[bidding.Entry, ...]]:
    """Player -> a list naming only the god they should win (one bidder per god, offer 1)."""
    return {p: entry(g, 0 if g == "apollo" else 1) for p, g in wanted.items()}


def deploy_scene(name: str = "titans", players: tuple[str, ...] = PLAYERS4,
                 todo: dict[str, int] | None = None, teams: str = "off") -> tuple[State, Board]:
    """A state in step deploy where ``ann`` has ``todo`` to place (default: Setup 2's 2 troops
    and 2 fleets) and the Setup 1.2 buildings are taken off the board."""
    state, b = new(name, players, teams)
    state["step"] = "deploy"
    for t in state["territories"].values():
        t["buildings"] = []
    for pl in state["to_deploy"]:
        state["to_deploy"][pl] = {}
    state["to_deploy"]["ann"] = dict(todo or {"troop": 2, "fleet": 2})
    return state, b


def problems(state: State, b: Board, orders: dict[str, Any], pillar: str = "ann") -> list[str]:
    return [f"{p.where}: {p.message}" for p in setup.validate_deploy(C, b, state, pillar, orders)]


# --- Setup 1-8.1: the initial state --------------------------------------------------------------


def test_setup_1_2_titans_basic_buildings_on_the_symbol_territories() -> None:
    state, b = new("titans")
    symbols = sorted(t.id for t in b.territories.values() if t.building_symbol)
    placed = {t: x["buildings"] for t, x in state["territories"].items() if x["buildings"]}
    # "grab one of each basic building (not Theater) and randomly place one on each space ...
    # that has a small white building symbol"
    assert sorted(placed) == symbols
    assert sorted(bs[0] for bs in placed.values()) == ["fortress", "port", "temple",
                                                       "university"]
    assert all(len(bs) == 1 and not state["territories"][t]["owner"] for t, bs in placed.items())
    vanilla, _ = new("vanilla")
    assert not any(x["buildings"] for x in vanilla["territories"].values())


def test_setup_1_2_building_placement_is_random_between_games() -> None:
    layouts = {tuple(sorted((t, x["buildings"][0]) for t, x in new("titans", key=k)[0][
        "territories"].items() if x["buildings"])) for k in ("a", "b", "c", "d", "e")}
    assert len(layouts) > 1


def test_setup_2_seven_coins_two_fleets_and_two_troops_each() -> None:
    state, _ = new("vanilla")
    assert state["gold"] == {p: 7 for p in PLAYERS4}
    assert state["to_deploy"] == {p: {"troop": 2, "fleet": 2} for p in PLAYERS4}
    # Misc Two Player 2: "with each pillar you place 1 Troop, 1 Fleet".
    two, _ = new("vanilla", ("ann", "bob"))
    assert two["to_deploy"] == {pl: {"troop": 1, "fleet": 1}
                                for pl in ("ann.1", "ann.2", "bob.1", "bob.2")}
    assert two["pillars"] == {"ann.1": "ann", "ann.2": "ann", "bob.1": "bob", "bob.2": "bob"}


def test_setup_3_one_creature_face_up_on_the_4_gold_space_from_a_sealed_deck() -> None:
    r = rng("deck")
    state, events = setup.initial_state(C, board("titans", 4), PLAYERS4, {"board": "titans"}, r)
    track = state["creature_track"]
    assert track["slots"][1:] == ["", ""] and track["slots"][0] == track["initial"]
    assert Counter([track["slots"][0], *track["deck"]]) == Counter(C.deck(MODULES))
    assert any(d.label.startswith("setup/creatures") for d in r.sealed.draws)
    assert not any(d.label.startswith("setup/creatures") for d in r.public.draws)
    assert any(e["rule"] == "Setup 3" for e in events)


def test_setup_4_hades_off_the_board_at_zero() -> None:
    state, _ = new()
    assert state["hades"] == {"column": 0, "active": False}
    assert "hades" not in state["gods"]["track"]


def test_setup_5_two_special_metropolises_face_up() -> None:
    state, _ = new()
    offer = state["metropolises"]["offer"]
    assert len(offer) == 2 and set(offer) <= set(C.metropolises)
    assert state["metropolises"]["held"] == {}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_6_as_many_monuments_face_up_as_players(n: int) -> None:
    state, _ = new("vanilla", PLAYERS4[:2] + ("eve", "fay", "gus")[:n - 2] if n > 2
                   else ("ann", "bob"))
    assert len(state["monuments"]["offer"]) == n
    assert len(set(state["monuments"]["offer"])) == n


@pytest.mark.parametrize(("name", "n", "gods"), [("vanilla", 2, 3), ("vanilla", 3, 2),
                                                 ("vanilla", 5, 4), ("titans", 4, 3),
                                                 ("titans", 6, 5)])
def test_setup_7_gods_on_the_track_players_minus_one_not_hades(name: str, n: int,
                                                               gods: int) -> None:
    players = ("ann", "bob", "cat", "dan", "eve", "fay")[:n]
    state, _ = new(name, players)
    track = state["gods"]["track"]
    # "Amount of active Gods = number of players minus 1"; two players as four (Misc Two
    # Player 1); never Hades, never Apollo.
    assert len(track) == gods and len(set(track)) == gods
    assert "hades" not in track and "apollo" not in track
    assert sorted(state["gods"]["seen"]) == sorted(track)


def test_setup_8_1_bid_order_is_a_public_shuffle_of_the_pillars() -> None:
    r = rng("order")
    state, _ = setup.initial_state(C, board("vanilla", 2), ("ann", "bob"), {}, r)
    assert sorted(state["turn_order"]) == ["ann.1", "ann.2", "bob.1", "bob.2"]
    assert any(d.label.startswith("setup/pillars") for d in r.public.draws)
    orders = {tuple(new("vanilla", key=k)[0]["turn_order"]) for k in "abcdefgh"}
    assert len(orders) > 1


def test_team_play_teams_in_seat_order_two_by_two() -> None:
    four, _ = new("titans", PLAYERS4, teams="on")
    assert four["game"]["teams"] == {"ann": "a", "bob": "b", "cat": "a", "dan": "b"}
    six, _ = new("titans", ("ann", "bob", "cat", "dan", "eve", "fay"), teams="on")
    assert six["game"]["teams"] == {"ann": "a", "bob": "b", "cat": "c", "dan": "a",
                                    "eve": "b", "fay": "c"}
    with pytest.raises(ValueError):
        new("vanilla", PLAYERS4, teams="on")


def test_setup_state_has_every_layout_key_and_all_modules() -> None:
    state, _ = new()
    for key in ("game", "cycle", "step", "pillars", "turn_order", "gold", "hands",
                "territories", "seas", "figures", "gods", "hades", "favors", "creature_track",
                "supply", "monuments", "metropolises", "auction", "acting", "standing",
                "eliminated", "result", "to_deploy"):
        assert key in state
    assert state["step"] == "setup_bid" and state["cycle"] == 0
    assert state["game"]["modules"] == list(MODULES)
    assert len(state["favors"]["deck"]) == len(C.favors)
    assert sorted(state["favors"]["items"]) == sorted(C.magic_items)


# --- Setup 8: the setup bid --------------------------------------------------------------------


def test_setup_8_only_one_player_on_apollo_via_the_auction() -> None:
    state, b = new("vanilla")
    first, second = state["turn_order"][:2]
    bids = {p: entry("apollo") for p in PLAYERS4}
    events = setup.resolve_setup_bid(C, b, state, bids, {}, rng("s8"))
    auction = state["auction"]
    assert auction["apollo"] == [first]   # "only one player may choose Apollo"
    forced = [e for e in events if e["type"] == "auction_bid" and "forced" in e]
    assert forced and forced[0]["pillar"] == second
    assert [q[0] for q in state["acting"]["queue"]][-1] == "apollo"
    assert sum(1 for q in state["acting"]["queue"] if q[0] == "apollo") == 1
    assert all(e["rule"].startswith("Setup 8") for e in events if e["type"].startswith(
        "auction_"))


def test_setup_8_2_everyone_pays_at_once_and_bids_are_public() -> None:
    state, b = new("vanilla")
    state["gods"]["track"] = ["poseidon", "ares", "zeus"]
    bids = {"ann": entry("poseidon", 5), "bob": entry("ares", 3), "cat": entry("zeus", 2),
            "dan": entry("apollo")}
    events = setup.resolve_setup_bid(C, b, state, bids, {"ann": {"retreat": {"when": "never"}}},
                                     rng("pay"))
    assert state["gold"] == {"ann": 2, "bob": 4, "cat": 5, "dan": 7}
    pays = {e["player"]: e["paid"] for e in events if e["type"] == "auction_pay"}
    assert pays == {"ann": 5, "bob": 3, "cat": 2, "dan": 0}
    assert state["standing"] == {"ann": {"retreat": {"when": "never"}}}
    assert state["step"] == "deploy"
    assert state["acting"]["queue"] == [["poseidon", "ann"], ["ares", "bob"], ["zeus", "cat"],
                                        ["apollo", "dan"]]


# Setup 8.2, word for word: "Poseidon - 1 Fleet (and a Port if Titans board) ..."
BONUS = {
    "poseidon": ({"fleet": 1}, {"fleet": 1, "port": 1}),
    "ares": ({"troop": 1}, {"troop": 1, "fortress": 1}),
    "athena": ({"philosopher": 1}, {"philosopher": 1, "university": 1}),
    "zeus": ({"priest": 1}, {"priest": 1, "temple": 1}),
    "apollo": ({"prosperity": 1}, {"prosperity": 1, "gold": 1}),
}


@pytest.mark.parametrize("name", ["vanilla", "titans"])
@pytest.mark.parametrize("track", [["poseidon", "ares", "athena"], ["zeus", "poseidon", "ares"],
                                   ["athena", "zeus", "poseidon"]])
def test_setup_8_2_every_gods_bonus_on_both_boards(name: str, track: list[str]) -> None:
    state, b = new(name)
    state["gods"]["track"] = list(track)
    wanted = dict(zip(PLAYERS4, [*track, "apollo"], strict=True))
    setup.resolve_setup_bid(C, b, state, bid_for(state, wanted), {}, rng("bonus"))
    for player, god in wanted.items():
        expected = BONUS[god][name == "titans"]
        todo = state["to_deploy"][player]
        hand = state["hands"][player]
        paid = 0 if god == "apollo" else 1
        assert state["gold"][player] == 7 - paid + expected.get("gold", 0)
        assert todo.get("troop") == 2 + expected.get("troop", 0)
        assert todo.get("fleet") == 2 + expected.get("fleet", 0)
        assert hand["priest"] == expected.get("priest", 0)
        assert hand["philosopher"] == expected.get("philosopher", 0)
        for item in ("port", "fortress", "university", "temple", "prosperity"):
            assert todo.get(item, 0) == expected.get(item, 0), (god, item)


@pytest.mark.parametrize("name", ["vanilla", "titans"])
def test_setup_8_2_kronos_bonus_depends_on_his_position(name: str) -> None:
    # "Kronos - 1 Titan (and one Building or a 2nd Titan, depending on his position if Titans
    # board)": from the top slot a 2nd Titan, below it a building of a god above him.
    state, b = new(name)
    state["gods"]["track"] = ["kronos", "ares", "zeus"]
    setup.resolve_setup_bid(C, b, state, bid_for(state, {"ann": "kronos", "bob": "ares",
                                                         "cat": "zeus", "dan": "apollo"}),
                            {}, rng("k1"))
    assert state["to_deploy"]["ann"].get("titan") == (2 if name == "titans" else 1)
    assert "building_of_god_above" not in state["to_deploy"]["ann"]

    state, b = new(name)
    state["gods"]["track"] = ["poseidon", "athena", "kronos"]
    setup.resolve_setup_bid(C, b, state, bid_for(state, {"ann": "poseidon", "bob": "athena",
                                                         "cat": "kronos", "dan": "apollo"}),
                            {}, rng("k2"))
    todo = state["to_deploy"]["cat"]
    assert todo.get("titan") == 1
    assert todo.get("building_of_god_above", 0) == (1 if name == "titans" else 0)
    # the buildings of the gods above him, nearest first
    assert setup.kronos_choices(C, state) == ["university", "port"]


def test_setup_8_2_kronos_building_chosen_among_the_gods_above_him() -> None:
    state, b = deploy_scene(todo={"troop": 2, "fleet": 2, "titan": 1,
                                  "building_of_god_above": 1})
    state["gods"]["track"] = ["poseidon", "athena", "kronos"]
    base = {"troops": [{"territory": "aptera", "count": 1},
                       {"territory": "kydonia", "count": 1}]}
    ok = {**base, "buildings": [{"building": "port", "territory": "kydonia"}]}
    assert problems(state, b, ok) == []
    bad = {**base, "buildings": [{"building": "temple", "territory": "kydonia"}]}
    assert any("buildings[0].building" in p for p in problems(state, b, bad))
    default = setup.default_deploy(C, b, state, "ann")
    assert [x["building"] for x in default["buildings"]] == ["university"]  # right above
    assert default["titans"] and sum(x["count"] for x in default["titans"]) == 1


# --- Setup 9: deployment ------------------------------------------------------------------------


def test_setup_9_1_titans_troops_on_two_adjacent_territories() -> None:
    state, b = deploy_scene("titans")
    fleets = {"fleets": [{"sea": "C4", "count": 1}, {"sea": "B8", "count": 1}]}
    ok = {"troops": [{"territory": "aptera", "count": 1},
                     {"territory": "eleutherna", "count": 1}], **fleets}
    assert problems(state, b, ok) == []
    # not adjacent: aptera (Crete) and chalcis (Euboea)
    far = {"troops": [{"territory": "aptera", "count": 1}, {"territory": "chalcis",
                                                            "count": 1}]}
    assert any("not adjacent" in p for p in problems(state, b, far))
    # one territory while an adjacent pair is free: "place Troops on 2 adjacent territories"
    one = {"troops": [{"territory": "aptera", "count": 2}]}
    assert any("two adjacent" in p for p in problems(state, b, one))


def test_setup_9_1_titans_never_more_than_two_territories_even_with_three_troops() -> None:
    state, b = deploy_scene("titans", todo={"troop": 3, "fleet": 2})
    three = {"troops": [{"territory": "aptera", "count": 1},
                        {"territory": "eleutherna", "count": 1},
                        {"territory": "phaistos", "count": 1}]}
    assert any("never more than two" in p for p in problems(state, b, three))
    two = {"troops": [{"territory": "aptera", "count": 2},
                      {"territory": "eleutherna", "count": 1}]}
    assert problems(state, b, two) == []


def test_setup_9_1_titans_no_small_islands_and_no_taken_territory() -> None:
    state, b = deploy_scene("titans")
    small = {"troops": [{"territory": "dia", "count": 1}, {"territory": "kasos", "count": 1}]}
    found = problems(state, b, small)
    assert any("troops[0].territory" in p and "small island" in p for p in found)
    state["territories"]["eleutherna"].update(owner="bob", troops=1)
    taken = {"troops": [{"territory": "aptera", "count": 1},
                        {"territory": "eleutherna", "count": 1}]}
    assert any("taken by bob" in p for p in problems(state, b, taken))


def test_setup_9_1_titans_one_territory_only_when_no_adjacent_one_is_free() -> None:
    state, b = deploy_scene("titans")
    # itanos borders only malia: with malia taken, itanos alone is allowed ("if possible").
    state["territories"]["malia"].update(owner="bob", troops=1)
    alone = {"troops": [{"territory": "itanos", "count": 2}],
             "fleets": [{"sea": "I3", "count": 1}, {"sea": "K3", "count": 1}]}
    assert problems(state, b, alone) == []


def test_setup_9_1_titans_titan_joins_the_two_territories() -> None:
    state, b = deploy_scene("titans", todo={"troop": 2, "fleet": 2, "titan": 2})
    ok = {"troops": [{"territory": "aptera", "count": 1},
                      {"territory": "eleutherna", "count": 1}],
          "titans": [{"territory": "aptera", "count": 2}]}
    assert problems(state, b, ok) == []
    third = {**ok, "titans": [{"territory": "phaistos", "count": 2}]}
    assert any("never more than two" in p for p in problems(state, b, third))


def test_setup_9_1_vanilla_more_than_two_territories_allowed_but_at_least_two() -> None:
    state, b = deploy_scene("vanilla", todo={"troop": 3, "fleet": 2})
    three = {"troops": [{"territory": "naxos", "count": 1}, {"territory": "paros", "count": 1},
                        {"territory": "delos", "count": 1}]}
    assert problems(state, b, three) == []
    one = {"troops": [{"territory": "naxos", "count": 3}]}
    assert any("two" in p and "islands" in p for p in problems(state, b, one))
    events = setup.resolve_deploy(C, b, state, "ann", three, rng("v3"))
    assert {t for t, x in state["territories"].items() if x["owner"] == "ann"} == {
        "naxos", "paros", "delos"}
    assert events[0]["type"] == "deploy"


def test_setup_9_2_fleets_on_two_different_adjacent_sea_spaces() -> None:
    state, b = deploy_scene("titans")
    land = {"troops": [{"territory": "aptera", "count": 1},
                       {"territory": "eleutherna", "count": 1}]}
    same = {**land, "fleets": [{"sea": "C4", "count": 2}]}
    assert any("DIFFERENT" in p for p in problems(state, b, same))
    far = {**land, "fleets": [{"sea": "C4", "count": 1}, {"sea": "K3", "count": 1}]}
    assert any("fleets[1].sea" in p and "touches none" in p for p in problems(state, b, far))
    state["seas"]["B8"].update(owner="bob", fleets=1)
    held = {**land, "fleets": [{"sea": "C4", "count": 1}, {"sea": "B8", "count": 1}]}
    assert any("bob's fleets" in p for p in problems(state, b, held))


def test_setup_9_2_a_third_fleet_doubles_up() -> None:
    state, b = deploy_scene("titans", todo={"troop": 2, "fleet": 3})
    land = {"troops": [{"territory": "aptera", "count": 1},
                       {"territory": "eleutherna", "count": 1}]}
    doubled = {**land, "fleets": [{"sea": "C4", "count": 2}, {"sea": "B8", "count": 1}]}
    assert problems(state, b, doubled) == []
    spread = {**land, "fleets": [{"sea": "C4", "count": 1}, {"sea": "B8", "count": 1},
                                 {"sea": "C8", "count": 1}]}
    assert any("two different sea spaces" in p for p in problems(state, b, spread))
    assert sorted(x["count"] for x in setup.default_deploy(C, b, state, "ann")["fleets"]) == [
        1, 2]


def test_setup_9_3_buildings_on_own_territory_with_room() -> None:
    state, b = deploy_scene("titans", todo={"troop": 2, "fleet": 2, "port": 1})
    land = {"troops": [{"territory": "aptera", "count": 1},
                       {"territory": "eleutherna", "count": 1}]}
    assert problems(state, b, {**land, "buildings": [{"building": "port",
                                                      "territory": "aptera"}]}) == []
    elsewhere = {**land, "buildings": [{"building": "port", "territory": "knossos"}]}
    assert any("not one of your territories" in p for p in problems(state, b, elsewhere))
    state["territories"]["aptera"]["buildings"] = ["temple"]   # aptera has 1 space
    full = {**land, "buildings": [{"building": "port", "territory": "aptera"}]}
    assert any("no free building space" in p for p in problems(state, b, full))


def test_setup_9_3_1_start_with_two_buildings_and_claim_a_monument() -> None:
    # "if you start in one of the territories that already has a building, it's possible to
    # start with two buildings and even a Monument!" Temple of Ares: orange + white.
    state, b = deploy_scene("titans", todo={"troop": 2, "fleet": 2, "fortress": 1})
    state["territories"]["knossos"]["buildings"] = ["temple"]   # a Setup 1.2 building
    state["monuments"]["offer"] = ["temple_of_ares", "temple_of_poseidon"]
    orders = {"troops": [{"territory": "knossos", "count": 1},
                         {"territory": "gortyn", "count": 1}],
              "buildings": [{"building": "fortress", "territory": "gortyn"}],
              "monument": {"monument": "temple_of_ares", "territory": "knossos"}}
    assert problems(state, b, orders) == []
    wrong = {**orders, "monument": {"monument": "temple_of_poseidon", "territory": "knossos"}}
    assert any("monument" in p and "blue and white" in p for p in problems(state, b, wrong))
    events = setup.resolve_deploy(C, b, state, "ann", orders, rng("mon"))
    assert state["monuments"]["built"] == {"temple_of_ares": {"owner": "ann",
                                                              "territory": "knossos"}}
    assert state["hands"]["ann"]["monuments"] == ["temple_of_ares"]
    assert state["territories"]["knossos"]["buildings"] == ["temple"]
    assert any(e["type"] == "monument" and e["rule"] == "Setup 9.3.1" for e in events)


def test_setup_9_apollo_prosperity_marker_on_own_territory() -> None:
    state, b = deploy_scene("vanilla", todo={"troop": 2, "fleet": 2, "prosperity": 1})
    land = {"troops": [{"territory": "naxos", "count": 1}, {"territory": "paros", "count": 1}]}
    assert any("not one of your territories" in p for p in problems(
        state, b, {**land, "prosperity": "delos"}))
    before = state["supply"]["prosperity"]
    setup.resolve_deploy(C, b, state, "ann", {**land, "prosperity": "paros"}, rng("pros"))
    assert state["territories"]["paros"]["prosperity"] == 1
    assert state["supply"]["prosperity"] == before - 1


def test_setup_9_validation_names_every_problem_with_where() -> None:
    state, b = deploy_scene("titans")
    found = problems(state, b, {"troops": [{"territory": "aptera", "count": 0}],
                                "fleets": "C4", "colour": "red"})
    assert "[orders] colour: unknown key 'colour'" in found
    assert any(p.startswith("[orders] troops[0].count") for p in found)
    assert any(p.startswith("[orders] fleets") for p in found)


def test_setup_9_empty_form_means_the_default_which_is_legal() -> None:
    for name in ("vanilla", "titans"):
        state, b = deploy_scene(name, todo={"troop": 3, "fleet": 3, "titan": 1, "port": 1,
                                            "prosperity": 1})
        default = setup.default_deploy(C, b, state, "ann")
        assert problems(state, b, {}) == [] and problems(state, b, default) == []
        a, b2 = deploy_scene(name, todo=state["to_deploy"]["ann"])
        setup.resolve_deploy(C, b, state, "ann", {}, rng("d"))
        setup.resolve_deploy(C, b2, a, "ann", default, rng("d"))
        assert a["territories"] == state["territories"] and a["seas"] == state["seas"]
        placed = sum(land_units(x) for x in state["territories"].values())
        assert placed == 4   # 3 troops and the Titan
        assert sum(x["fleets"] for x in state["seas"].values()) == 3


def test_misc_two_player_2_each_pillar_places_one_troop_one_fleet_and_its_bonus() -> None:
    state, b = new("titans", ("ann", "bob"))
    state["gods"]["track"] = ["poseidon", "ares", "zeus"]
    order = state["turn_order"]
    wanted = dict(zip(order, ["poseidon", "ares", "zeus", "apollo"], strict=True))
    bids: dict[str, list[bidding.Entry]] = {"ann": [], "bob": []}
    for pillar, god in wanted.items():
        bids[pillar.split(".")[0]].append(bidding.Entry(god, 0 if god == "apollo" else 1))
    setup.resolve_setup_bid(C, b, state, bids, {}, rng("2p"))
    for pillar, god in wanted.items():
        todo = state["to_deploy"][pillar]
        assert todo["troop"] == 1 + (god == "ares")
        assert todo["fleet"] == 1 + (god == "poseidon")
    # Deploy everything by default: each player ends on two adjacent territories (9.1 for
    # both pillars together) and two different seas.
    while state["step"] == "deploy":
        _, pillar = state["acting"]["queue"][state["acting"]["index"]]
        assert problems(state, b, setup.default_deploy(C, b, state, pillar), pillar) == []
        setup.resolve_deploy(C, b, state, pillar, {}, rng(pillar))
    for player in ("ann", "bob"):
        mine = sorted(t for t, x in state["territories"].items() if x["owner"] == player)
        assert len(mine) == 2 and mine[1] in b.land_neighbours(mine[0])
        seas = [s for s, x in state["seas"].items() if x["owner"] == player]
        assert len(seas) == 2


def test_misc_two_player_2_second_pillar_must_complete_the_pair() -> None:
    state, b = deploy_scene("titans", ("ann", "bob"))
    state["to_deploy"] = {"ann.1": {}, "ann.2": {"troop": 1, "fleet": 1}, "bob.1": {},
                          "bob.2": {}}
    state["territories"]["aptera"].update(owner="ann", troops=1)
    state["seas"]["C4"].update(owner="ann", fleets=1)
    same = {"troops": [{"territory": "aptera", "count": 1}]}
    assert any("two adjacent" in p for p in problems(state, b, same, "ann.2"))
    pair = {"troops": [{"territory": "kydonia", "count": 1}],
            "fleets": [{"sea": "C4", "count": 1}]}
    assert any("DIFFERENT" in p for p in problems(state, b, pair, "ann.2"))
    good = {**pair, "fleets": [{"sea": "A7", "count": 1}]}
    assert problems(state, b, good, "ann.2") == []


def test_team_2_teammates_start_on_different_islands() -> None:
    state, b = deploy_scene("titans", teams="on")
    state["territories"]["aptera"].update(owner="cat", troops=1)   # cat: ann's teammate
    crete = {"troops": [{"territory": "gortyn", "count": 1},
                        {"territory": "knossos", "count": 1}]}
    assert any("Team 2" in p for p in problems(state, b, crete))
    default = setup.default_deploy(C, b, state, "ann")
    assert {b.island_of(x["territory"]) for x in default["troops"]} == {"euboea"}
    state["territories"]["aptera"].update(owner="bob")   # bob is an opponent: no limit
    assert problems(state, b, crete) == []


# --- Setup 10-11 ---------------------------------------------------------------------------------


def full_setup(name: str = "titans", players: tuple[str, ...] = PLAYERS4
               ) -> tuple[State, Board, list[str], list[dict[str, Any]]]:
    state, b = new(name, players)
    setup.resolve_setup_bid(C, b, state, {p: entry(g, 1) for p, g in zip(
        players, state["gods"]["track"], strict=False)}, {}, rng("bid"))
    deploy_order = [pl for _, pl in state["acting"]["queue"]]
    assert state["acting"]["queue"][-1][0] == "apollo"   # Apollo deploys last
    events: list[dict[str, Any]] = []
    while state["step"] == "deploy":
        _, pillar = state["acting"]["queue"][state["acting"]["index"]]
        events = setup.resolve_deploy(C, b, state, pillar, {}, rng(pillar))
    return state, b, deploy_order, events


def test_setup_10_first_to_deploy_bids_last() -> None:
    state, _, deploy_order, _ = full_setup()
    # "Place your offering marker on the last available slot": the first deployer takes the
    # last slot, the second the one before it, ...
    assert state["turn_order"] == list(reversed(deploy_order))
    assert state["auction"] == {}   # the setup auction is over; cycle 1's comes next


def test_setup_11_first_cycle_runs_steps_4_to_8_only() -> None:
    state, b = new("titans")
    setup.resolve_setup_bid(C, b, state, {p: entry(g, 1) for p, g in zip(
        PLAYERS4, state["gods"]["track"], strict=False)}, {}, rng("bid"))
    slots = list(state["creature_track"]["slots"])
    gold = dict(state["gold"])
    events: list[dict[str, Any]] = []
    while state["step"] == "deploy":
        _, pillar = state["acting"]["queue"][state["acting"]["index"]]
        events = setup.resolve_deploy(C, b, state, pillar, {}, rng(pillar))
    assert state["cycle"] == 1 and state["step"] == "bid"
    assert state["creature_track"]["slots"] == slots        # step 1 skipped
    assert state["gold"] == gold                            # steps 2 (income) and 3 skipped
    rules = [e["rule"] for e in events]
    assert "Setup 11" in rules and "Cycle 4.1" in rules and "Cycle 5.1" in rules
    assert not any(r.startswith(("Cycle 1", "Cycle 2", "Cycle 3")) for r in rules)
    roll = next(e for e in events if e["type"] == "hades_roll")
    assert state["hades"]["column"] == sum(roll["dice"])
    assert state["favors"]["face_up"]                       # step 6 ran
    assert state["to_deploy"] == {}
    assert len(state["gods"]["track"]) == 3


@pytest.mark.parametrize(("name", "players", "teams"), [
    ("vanilla", ("ann", "bob"), "off"), ("vanilla", ("ann", "bob", "cat"), "off"),
    ("vanilla", ("ann", "bob", "cat", "dan", "eve"), "off"), ("titans", ("ann", "bob"), "off"),
    ("titans", ("ann", "bob", "cat"), "off"), ("titans", PLAYERS4, "on"),
    ("titans", ("ann", "bob", "cat", "dan", "eve"), "off"),
    ("titans", ("ann", "bob", "cat", "dan", "eve", "fay"), "on")])
def test_setup_9_defaults_deploy_every_pillar_legally_and_state_is_plain_data(
        name: str, players: tuple[str, ...], teams: str) -> None:
    state, b = new(name, players, teams)
    events = setup.resolve_setup_bid(C, b, state, {p: entry(g, 2) for p, g in zip(
        players, state["gods"]["track"], strict=False)}, {}, rng("all"))
    while state["step"] == "deploy":
        _, pillar = state["acting"]["queue"][state["acting"]["index"]]
        default = setup.default_deploy(C, b, state, pillar)
        assert problems(state, b, default, pillar) == []
        events += setup.resolve_deploy(C, b, state, pillar, default, rng(pillar))
    assert not any(e["type"] == "deploy_default" for e in events)
    for player in players:
        mine = sorted(t for t, x in state["territories"].items() if x["owner"] == player)
        seas = [s for s, x in state["seas"].items() if x["owner"] == player]
        assert len(mine) >= 2 and len(seas) == 2
        if name == "titans":
            assert len(mine) == 2 and mine[1] in b.land_neighbours(mine[0])
            assert not any(b.territory(t).small_island for t in mine)
        for mate in [q for q in players if teams == "on" and q != player and
                     state["game"]["teams"][q] == state["game"]["teams"][player]]:
            theirs = {b.island_of(t) for t, x in state["territories"].items()
                      if x["owner"] == mate}
            assert not theirs & {b.island_of(t) for t in mine}   # Team 2
    # the ledger stores plain data: a JSON round trip changes nothing (no tuples)
    assert json.loads(json.dumps(state)) == state
    assert json.loads(json.dumps(events)) == events

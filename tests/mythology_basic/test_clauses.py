"""One scenario per Basic Game clause, named after it (docs/games/mythology-basic.md lists
each with its test). Rolls quoted from the rulebook's rules, scripted through
:class:`scenario.Scripted`; the odds quoted are 2d6 counts (36 outcomes)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pbem.games.mythology.basic import alliances, defence, scoring, turn
from pbem.games.mythology.basic import setup as prep
from pbem.games.mythology.basic.game import RULESET

from .scenario import (
    G1,
    G2,
    G3,
    G4,
    THRACE,
    C,
    Scripted,
    arrange,
    dice,
    new_game,
    of_type,
    phase,
    play,
    problems,
    rng,
)

HERCULES, PERSEUS, THESEUS = 6, 1, 4
HYDRA, TYPHON, SOW = 35, 36, 33


def test_basic_grid_is_a_line() -> None:
    # The scenarios below walk G1-G2-G3-G4, one Greek hex after the other.
    assert {C.map.area_of(h) for h in (G1, G2, G3, G4)} == {"greece"}
    assert G2 in C.map.neighbours(G1) and G3 in C.map.neighbours(G2)
    assert G4 in C.map.neighbours(G3) and G3 not in C.map.neighbours(G1)


# --- PREPARATION FOR PLAY ---------------------------------------------------------------

def test_basic_prep_3_4_units_fill_inland_areas_evenly() -> None:
    s = new_game(("alice", "bob", "carol"))
    areas = prep.unit_areas(C.map)
    # Basic Prep 3: Areas that do not border the River Ocean: the eleven inland land Areas.
    assert set(areas) == {"italia", "illyria", "macedonia", "greece", "thrace", "phrygia",
                          "lydia", "colchis", "phoenicia", "assyria", "cyrenaica"}
    count = {a: 0 for a in areas}
    for h in s["units"].values():
        count[C.map.area_of(h)] += 1
    # Basic Prep 4: one each before a second...: 64 = 11 x 5 + 9, so nine Areas hold 6.
    assert sorted(count.values()) == [5] * 2 + [6] * 9
    assert len(set(s["units"].values())) == 64  # one counter per hex (ruling)
    assert all(C.map.is_land(h) for h in s["units"].values())


def test_basic_prep_5_prizes_in_areas_bordering_the_river_ocean() -> None:
    s = new_game()
    for x in s["prizes"].values():
        area = C.map.area_of(x["hex"])
        assert "river_ocean" in C.map.adjacent_areas(area) and C.map.is_land(x["hex"])
    hexes = [x["hex"] for x in s["prizes"].values()]
    assert len(set(hexes)) == 10 and not set(hexes) & set(s["units"].values())


def test_basic_prep_7_each_player_draws_one_god() -> None:
    s = new_game(tuple(f"p{i}" for i in range(10)))
    assert sorted(s["gods"].values()) == sorted(C.gods)


def test_basic_prep_9_favour_split_odd_player_heroes() -> None:
    # Five players roll 11, 9, 7, 5, 3: the 11, 9 and 7 favour Heroes (the odd player to
    # Heroes), 5 and 3 Monsters.
    players = ["a", "b", "c", "d", "e"]
    side, lines = prep.favour(players, Scripted(dice(11, 9, 7, 5, 3)))
    assert side == {"a": "heroes", "b": "heroes", "c": "heroes", "d": "monsters",
                    "e": "monsters"}
    assert lines == ["Favour rolls: a 11, b 9, c 7, d 5, e 3."]


def test_basic_prep_9_tie_across_the_line_rerolls_among_the_tied() -> None:
    # Four players: 12, 7, 7, 2: one of the two 7s favours Heroes; they roll again: 4 and 9.
    side, lines = prep.favour(["a", "b", "c", "d"], Scripted(dice(12, 7, 7, 2, 4, 9)))
    assert side == {"a": "heroes", "b": "monsters", "c": "heroes", "d": "monsters"}
    assert lines[1] == "Favour roll 2 (tied): b 4, c 9."


# --- HOW TO PLAY and POWER POINTS --------------------------------------------------------

def test_basic_play_0_ten_game_turns_and_fresh_order() -> None:
    s = new_game(("alice", "bob", "carol"))
    orders_seen, turns = [], 0
    while (spec := RULESET.next_phase(s)) is not None:
        if s["cursor"] == 0:
            orders_seen.append(list(s["order"]))
            # Basic PP 2: every Game Turn starts at 15; Play 2A: no god on the board yet.
            assert s["pp"] == dict.fromkeys(s["seats"], 15)
            assert not any(s["god_area"].values())
        p = spec.actors[0]
        RULESET.resolve(s, spec, {p: RULESET.default_orders(s, spec, p)}, rng(f"t{turns}"))
        turns += 1
    assert turns == 30 and len(orders_seen) == 10  # ten Game Turns of three Player Turns
    assert all(sorted(o) == ["alice", "bob", "carol"] for o in orders_seen)
    assert len({tuple(o) for o in orders_seen}) > 1  # drawn afresh (Basic Play 2A)
    assert s["step"] == "over" and s["turn"] == 10


def test_basic_play_2A_god_goes_to_an_area_without_a_god() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: THRACE}, order=["alice", "bob"])
    play(s, {"god": "greece"})
    assert s["god_area"]["alice"] == "greece"
    found = problems(s, {"god": "Greece"})
    assert found and "already holds the god of alice" in found[0]
    assert not problems(s, {"god": "the River Ocean"})  # any Area, water too


def test_basic_play_3_player_turns_in_the_drawn_order() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: THRACE}, order=["bob", "alice"])
    assert phase(s).id == "t01.turn.bob"
    play(s, {"god": "thrace"})
    assert phase(s).id == "t01.turn.alice"


def test_basic_pp_5_costs() -> None:
    # One unit moved 3 hexes: 6 PP (PP 5A); moved 1 hex into a Monster's hex: 2 + 2 (5B).
    s = arrange(units={HERCULES: G1, PERSEUS: G2, HYDRA: G4})
    out = play(s, {"god": "greece", "move": [{"unit": PERSEUS, "path": [G3]},
                                             {"unit": HERCULES, "path": [G2, G3, G4]}]},
               draws=dice(12, 2))
    costs = [e["cost"] for e in of_type(out, "move")]
    assert costs == [2, 8]  # Hercules: 3 hexes, the last one an attack
    # the fight with no aid: 15 - 10 = 5 left
    assert s["pp"]["alice"] == 5


def test_basic_pp_4_no_more_than_fifteen() -> None:
    # Eight hexes are 16 PP: refused at submit, at the move that passes 15.
    line = ["2509", "2510", "2511", "2512", "2513", "2514", "2515", "2516", "2517"]
    assert all(b in C.map.neighbours(a) for a, b in itertools.pairwise(line))
    s = arrange(units={HERCULES: line[0], PERSEUS: "2609"})
    assert not problems(s, {"god": "greece", "move": [{"unit": HERCULES,
                                                        "path": line[1:8]}]})  # 14 PP
    found = problems(s, {"god": "greece", "move": [{"unit": PERSEUS, "path": ["2610"]},
                                                   {"unit": HERCULES, "path": line[1:8]}]})
    assert len(found) == 1 and "[[orders.move]] 2" in found[0] and "13 left" in found[0]


def test_basic_pp_4_a_defender_without_points_gives_no_aid() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: G2})
    s["pp"]["bob"] = 0
    s["policy"]["bob"] = {**defence.DEFAULT, "mode": "fixed", "fixed": 5, "reserve": 0}
    out = play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                   "fight": [{"attacker": HERCULES, "defender": HYDRA, "aid": 0}]},
               draws=dice(7, 8))
    assert of_type(out, "fight")[0]["defender_aid"] == 0
    assert s["units"][str(HERCULES)] == ""  # 7 + 0 against 8 + 0: Hercules falls


def test_basic_pp_6_defence_spends_the_defenders_points_and_reserve_holds() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: G2})
    s["policy"]["bob"] = {**defence.DEFAULT, "mode": "fixed", "fixed": 5,
                          "max_per_fight": 5, "reserve": 12}
    play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
             "fight": [{"attacker": HERCULES, "defender": HYDRA, "aid": 1}]},
         draws=dice(10, 5))
    assert s["pp"] == {"alice": 15 - 4 - 1, "bob": 15 - 3}  # reserve 12: 3 of the 5


# --- MOVEMENT ------------------------------------------------------------------------------

def test_basic_move_1_only_units_the_player_favours() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: G3})
    found = problems(s, {"god": "greece", "move": [{"unit": HYDRA, "path": [G4]}]})
    assert found and "Lernaean Hydra (35) is a Monster; you favour heroes" in found[0]
    assert "Basic Move 1" in found[0]


def test_basic_move_3_only_units_that_began_in_the_gods_area() -> None:
    s = arrange(units={HERCULES: G1, PERSEUS: THRACE})
    assert not problems(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}]})
    found = problems(s, {"god": "greece", "move": [
        {"unit": PERSEUS, "path": [C.map.neighbours(THRACE)[0]]}]})
    assert found and "Basic Move 3" in found[0]


def test_basic_move_4_hex_to_adjoining_hex() -> None:
    s = arrange(units={HERCULES: G1})
    found = problems(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G3]}]})
    assert found and "Basic Move 4" in found[0] and "not next to 2509" in found[0]


def test_basic_move_5_prizes_never_move_and_6_cost() -> None:
    s = arrange(units={HERCULES: G1}, prizes={"pegasus": G3})
    play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2, G3, G4]}]})
    assert s["prizes"]["pegasus"]["hex"] == G3 and s["pp"]["alice"] == 9


def test_basic_move_7_9_moving_nothing_is_legal() -> None:
    s = arrange(units={HERCULES: G1})
    out = play(s, {"god": "greece"})
    assert not of_type(out, "move") and s["pp"]["alice"] == 15


def test_basic_move_8_a_unit_may_leave_the_area() -> None:
    s = arrange(units={HERCULES: "2908"})  # Macedonia, next to Thrace's 3008?
    step = next(h for h in C.map.neighbours("2908") if C.map.area_of(h) != "macedonia")
    play(s, {"god": "macedonia", "move": [{"unit": HERCULES, "path": [step]}]})
    assert C.map.area_of(s["units"][str(HERCULES)]) != "macedonia"


def test_basic_move_10_all_movement_before_any_combat() -> None:
    # Perseus's move (listed after the fight's units) is made before the fight.
    s = arrange(units={HERCULES: G1, PERSEUS: "2611", HYDRA: G2})
    out = play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]},
                                             {"unit": PERSEUS, "path": ["2612"]}]},
               draws=dice(12, 2))
    kinds = [e["type"] for e in out.events if e["type"] in ("move", "fight")]
    assert kinds == ["move", "move", "fight"]


def test_basic_move_11_stop_on_entering_a_hex_with_opposing_units() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: G2})
    found = problems(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2, G3]}]})
    assert found and "Basic Move 11" in found[0] and "end the path at 2510" in found[0]


def test_basic_move_12_through_friendly_units() -> None:
    s = arrange(units={HERCULES: G1, PERSEUS: G2})
    play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2, G3]}]})
    assert s["units"][str(HERCULES)] == G3


def test_basic_move_3_a_unit_moved_twice_in_one_game_turn_by_two_players() -> None:
    # Move 3 counts "the Player Turn": Hercules, moved by alice into Thrace, is moved again
    # by carol (Heroes too) whose god stands in Thrace later that Game Turn.
    s = arrange(("alice", "bob", "carol"), heroes=("alice", "carol"),
                units={HERCULES: "2908"}, order=["alice", "carol", "bob"])
    step = next(h for h in C.map.neighbours("2908") if C.map.area_of(h) == "thrace")
    play(s, {"god": "macedonia", "move": [{"unit": HERCULES, "path": [step]}]})
    on = next(h for h in C.map.neighbours(step) if h != "2908")
    play(s, {"god": "thrace", "move": [{"unit": HERCULES, "path": [on]}]})
    assert s["units"][str(HERCULES)] == on


# --- COMBAT and COMBAT RESOLUTION -----------------------------------------------------------

def test_basic_resolution_1_3_aid_and_tie_reroll() -> None:
    # Attacker aid 3 rolls 6 (9); the defender's match_plus 1 gives 4 and rolls 5 (9): a tie,
    # rolled again with the same aid: 8 + 3 = 11 against 6 + 4 = 10: the Monster is removed.
    s = arrange(units={HERCULES: G1, HYDRA: G2})
    s["policy"]["bob"] = {**defence.DEFAULT, "mode": "match_plus", "plus": 1,
                          "max_per_fight": 5, "reserve": 0}
    out = play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                   "fight": [{"attacker": HERCULES, "defender": HYDRA, "aid": 3}]},
               draws=dice(6, 5, 8, 6))
    fight = of_type(out, "fight")[0]
    assert (fight["aid"], fight["defender_aid"], fight["removed"]) == (3, 4, HYDRA)
    assert "6+3=9 against 5+4=9; tie, again: 8+3=11 against 6+4=10" in fight["text"]
    assert s["vp"] == {"alice": "1", "bob": "0"}  # Basic Win 1A
    assert s["pp"] == {"alice": 15 - 4 - 3, "bob": 15 - 4}
    assert s["removed"][str(HYDRA)] == {"by": "alice", "turn": 1}  # Resolution 2


def test_basic_resolution_2_the_defending_player_scores_a_defensive_win() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: G2})
    play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}]},
         draws=dice(3, 9))
    assert s["units"][str(HERCULES)] == "" and s["vp"] == {"alice": "0", "bob": "1"}


def test_basic_combat_4_5_one_hero_against_two_monsters() -> None:
    # Hercules enters a hex with two Monsters: he fights them one after the other in the
    # attacker's order (Typhon first), each with fresh aid (Combat 10).
    s = arrange(units={HERCULES: G1, HYDRA: G2, TYPHON: G2})
    out = play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                   "fight": [{"attacker": HERCULES, "defender": TYPHON, "aid": 2},
                             {"attacker": HERCULES, "defender": HYDRA, "aid": 1}]},
               draws=dice(10, 4, 9, 3))
    fights = of_type(out, "fight")
    assert [(f["defender"], f["aid"]) for f in fights] == [(TYPHON, 2), (HYDRA, 1)]
    assert s["units"][str(HERCULES)] == G2 and s["vp"]["alice"] == "2"


def test_basic_combat_4_5_a_fallen_hero_ends_the_combat() -> None:
    # If he loses the first, combat ends: no unit is left to fight the second; that fight's
    # order is skipped and the defending side scores 1.
    s = arrange(units={HERCULES: G1, HYDRA: G2, TYPHON: G2})
    out = play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                   "fight": [{"attacker": HERCULES, "defender": TYPHON, "aid": 0},
                             {"attacker": HERCULES, "defender": HYDRA, "aid": 4}]},
               draws=dice(2, 12))
    assert len(of_type(out, "fight")) == 1 and len(of_type(out, "fight-skipped")) == 1
    assert s["units"][str(HYDRA)] == G2 and s["vp"] == {"alice": "0", "bob": "1"}
    assert s["pp"]["alice"] == 11  # the skipped fight's aid is never spent


def test_basic_resolution_4_combat_goes_on_until_no_opposing_units_are_left() -> None:
    # Two Heroes enter a hex of two Monsters; only one fight is ordered: the others follow,
    # lowest numbers first, with no aid from the attacker.
    s = arrange(units={PERSEUS: G1, HERCULES: G3, HYDRA: G2, TYPHON: G2})
    out = play(s, {"god": "greece", "move": [{"unit": PERSEUS, "path": [G2]},
                                             {"unit": HERCULES, "path": [G2]}],
                   "fight": [{"attacker": HERCULES, "defender": TYPHON, "aid": 0}]},
               draws=dice(12, 2, 2, 12, 12, 2))
    fights = of_type(out, "fight")
    # Hercules beats Typhon; Perseus (1) falls to the Hydra; Hercules beats the Hydra.
    assert [(f["attacker"], f["defender"], f["removed"]) for f in fights] == [
        (HERCULES, TYPHON, TYPHON), (PERSEUS, HYDRA, PERSEUS), (HERCULES, HYDRA, HYDRA)]
    assert not turn.Turn(C, s, "alice", rng("x").public).units_at(G2, "monsters")


def test_basic_combat_11_heroes_never_attack_heroes() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: G2})
    found = problems(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                         "fight": [{"attacker": HERCULES, "defender": PERSEUS}]})
    assert any("Basic Combat 11" in f for f in found)


def test_basic_combat_12_monsters_never_attack_monsters() -> None:
    s = arrange(units={HERCULES: G2, HYDRA: G1}, heroes=("bob",))
    found = problems(s, {"god": "greece", "move": [{"unit": HYDRA, "path": [G2]}],
                         "fight": [{"attacker": HYDRA, "defender": TYPHON}]})
    assert any("Basic Combat 12" in f for f in found)


def test_basic_combat_2_the_mover_is_the_attacker_and_pays_two_a_unit() -> None:
    s = arrange(units={PERSEUS: G1, HERCULES: G3, HYDRA: G2})
    out = play(s, {"god": "greece", "move": [{"unit": PERSEUS, "path": [G2]},
                                             {"unit": HERCULES, "path": [G2]}]},
               draws=dice(12, 2))
    assert [e["attacks"] for e in of_type(out, "move")] == [True, True]
    assert s["pp"]["alice"] == 15 - 4 - 4


def test_basic_combat_3_fight_orders_name_units_of_the_hex() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: G2, TYPHON: G4})
    found = problems(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                         "fight": [{"attacker": HERCULES, "defender": TYPHON}]})
    assert found and "is not in 2510" in found[0]


def test_basic_combat_9_the_opposing_player_is_the_sides_strongest_answer() -> None:
    # Ruling: with two Monster players, the one whose policy gives more aid answers (and
    # scores); the other spends nothing.
    s = arrange(("alice", "bob", "carol"), units={HERCULES: G1, HYDRA: G2},
                order=["alice", "bob", "carol"])
    s["policy"]["bob"] = {**defence.DEFAULT, "mode": "fixed", "fixed": 1, "reserve": 0}
    s["policy"]["carol"] = {**defence.DEFAULT, "mode": "fixed", "fixed": 3, "reserve": 0}
    play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}]},
         draws=dice(4, 8))
    assert s["pp"] == {"alice": 11, "bob": 15, "carol": 12}
    assert s["vp"] == {"alice": "0", "bob": "0", "carol": "1"}


# --- CAPTURING OF PRIZES ------------------------------------------------------------------

def test_basic_capture_5_more_than_ten() -> None:
    # A Hero enters a Prize hex with aid 3 and rolls 8: 11, captured, +3 VP, off the board.
    s = arrange(units={HERCULES: G1}, prizes={"pegasus": G2})
    out = play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                   "capture": [{"unit": HERCULES, "aid": 3}]}, draws=dice(8))
    assert of_type(out, "capture")[0]["captured"] is True
    assert s["prizes"]["pegasus"]["hex"] == "" and s["prizes"]["pegasus"]["by"] == "alice"
    assert s["vp"]["alice"] == "3" and s["pp"]["alice"] == 15 - 2 - 3


def test_basic_capture_6_ten_or_less_fails_and_the_prize_stays() -> None:
    s = arrange(units={HERCULES: G1}, prizes={"pegasus": G2})
    out = play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                   "capture": [{"unit": HERCULES, "aid": 2}]}, draws=dice(8))
    assert of_type(out, "capture")[0]["captured"] is False
    assert s["prizes"]["pegasus"]["hex"] == G2 and s["vp"]["alice"] == "0"


def test_basic_capture_8_one_attempt_per_hero_per_player_turn() -> None:
    s = arrange(units={HERCULES: G1}, prizes={"pegasus": G2})
    found = problems(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                         "capture": [{"unit": HERCULES}, {"unit": HERCULES}]})
    assert len(found) == 1 and "Basic Capture 8" in found[0]


def test_basic_capture_1_the_hero_must_enter_the_prize_hex() -> None:
    # Ruling: "enters": his path ends on the Prize; one already standing there steps out and
    # back.
    s = arrange(units={HERCULES: G2}, prizes={"pegasus": G2})
    found = problems(s, {"god": "greece", "capture": [{"unit": HERCULES}]})
    assert found and "Basic Capture 1" in found[0]


def test_basic_capture_2_combat_first_and_a_fallen_hero_tries_nothing() -> None:
    s = arrange(units={HERCULES: G1, HYDRA: G2}, prizes={"pegasus": G2})
    out = play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                   "capture": [{"unit": HERCULES, "aid": 5}]}, draws=dice(2, 12))
    assert of_type(out, "capture-skipped") and s["prizes"]["pegasus"]["hex"] == G2
    assert s["pp"]["alice"] == 11  # no aid spent on a capture never tried


def test_basic_capture_7_only_heroes() -> None:
    s = arrange(units={HYDRA: G1}, prizes={"pegasus": G2}, heroes=("bob",))
    found = problems(s, {"god": "greece", "move": [{"unit": HYDRA, "path": [G2]}],
                         "capture": [{"unit": HYDRA}]})
    assert found and "Basic Capture 7" in found[0]


def test_basic_capture_3_aid_is_cut_to_the_points_left() -> None:
    s = arrange(units={HERCULES: G1}, prizes={"pegasus": G2})
    s["pp"]["alice"] = 5
    out = play(s, {"god": "greece", "move": [{"unit": HERCULES, "path": [G2]}],
                   "capture": [{"unit": HERCULES, "aid": 3}]}, draws=dice(8))
    assert of_type(out, "capture")[0]["aid"] == 3 and s["pp"]["alice"] == 0
    found = problems(arrange(units={HERCULES: G1}, prizes={"pegasus": G2}) | {
        "pp": {"alice": 5, "bob": 15}}, {"god": "greece", "move": [
            {"unit": HERCULES, "path": [G2]}], "capture": [{"unit": HERCULES, "aid": 4}]})
    assert found and "you have 3 left" in found[0]


# --- HOW TO WIN ------------------------------------------------------------------------------

def test_basic_win_1c_monster_players_share_remaining_prizes() -> None:
    # Two Monster players, four Prizes on the board after Game Turn 10: 2/2 x 4 = 4 VP each.
    s = arrange(("alice", "bob", "carol"), prizes={"pegasus": G1, "helen": G2,
                                                   "andromeda": G3, "cornucopia": G4})
    events = scoring.final(s)
    assert s["vp"] == {"alice": "0", "bob": "4", "carol": "4"}
    assert events[-1]["players"] == ["bob", "carol"]


def test_basic_win_1c_thirds_are_kept_exact() -> None:
    # Three Monster players (of six), one Prize left: 2/3 VP each, never rounded.
    s = arrange(tuple("abcdef"), heroes=("a", "b", "c"), prizes={"pegasus": G1})
    scoring.final(s)
    assert s["vp"]["d"] == "2/3" and scoring.shown(Fraction(s["vp"]["d"]) + 1) == "1 2/3"


def test_basic_win_1a_1b_2_most_vp_wins_ties_share() -> None:
    s = arrange(("alice", "bob"))
    s["vp"] = {"alice": "3", "bob": "3"}
    events = scoring.final(s)
    assert events[-1]["players"] == ["alice", "bob"] and s["step"] == "over"


# --- ALLIANCES --------------------------------------------------------------------------------

def test_basic_alliance_3_average() -> None:
    # Allies A (10 VP) and B (4 VP): 7 each at the end.
    s = arrange(("a", "b", "c"), heroes=("a", "b"))
    alliances.declare(s, "a", ["b"])
    events = alliances.declare(s, "b", ["a"])
    assert [e["type"] for e in events] == ["allies", "alliance-formed"]  # Alliance 2
    s["vp"] = {"a": "10", "b": "4", "c": "0"}
    scoring.final(s)
    assert s["score"] == {"a": "7", "b": "7", "c": "0"}


def test_basic_alliance_4_broken_before_the_end_scores_normally() -> None:
    s = arrange(("a", "b", "c"), heroes=("a", "b"))
    alliances.declare(s, "a", ["b"])
    alliances.declare(s, "b", ["a"])
    events = alliances.declare(s, "b", [])
    assert events[-1]["type"] == "alliance-broken" and s["alliances"] == []
    s["vp"] = {"a": "10", "b": "4", "c": "0"}
    scoring.final(s)
    assert s["score"] == {"a": "10", "b": "4", "c": "0"}


def test_basic_alliance_5_never_a_hero_player_with_a_monster_player() -> None:
    s = arrange(("alice", "bob"), units={HERCULES: G1})
    found = problems(s, {"god": "greece", "allies": ["bob"]})
    assert found and "Basic Alliance 5" in found[0]


def test_basic_alliance_1_declared_in_player_turn_orders() -> None:
    s = arrange(("a", "b", "c"), heroes=("a", "b"), order=["a", "b", "c"])
    play(s, {"god": "greece", "allies": ["b"]})
    assert s["alliances"] == []  # one side only: no alliance yet
    out = play(s, {"god": "thrace", "allies": ["a"]})
    assert s["alliances"] == [["a", "b"]] and of_type(out, "alliance-formed")


# --- the email adaptation ---------------------------------------------------------------------

def test_basic_combat_9_policy_is_sealed_from_the_others() -> None:
    s = new_game(joins={"bob": {"defend": {"mode": "none"}}})
    assert RULESET.view(s, "bob")["my_policy"]["mode"] == "none"
    for reader in ("alice", None):
        view = RULESET.view(s, reader)
        assert "policy" not in view and view.get("my_policy", {}).get("mode") != "none"


def test_basic_nmr_default_god_where_most_of_the_players_units_stand() -> None:
    s = arrange(units={HERCULES: G1, PERSEUS: G2, THESEUS: THRACE, HYDRA: "2908"})
    spec = phase(s)
    assert RULESET.default_orders(s, spec, "alice") == {"god": "greece"}


@pytest.mark.parametrize("policy, attack, left, want", [
    ({"mode": "none"}, 4, 15, 0), ({"mode": "fixed", "fixed": 2}, 0, 15, 2),
    ({"mode": "match"}, 2, 15, 2), ({"mode": "match"}, 5, 15, 3),  # max_per_fight 3
    ({"mode": "match_plus", "plus": 1, "max_per_fight": 9}, 4, 15, 5),
    ({"mode": "match"}, 3, 7, 2),  # reserve 5 of 7 left
])
def test_basic_combat_9_policy_aid(policy: dict[str, object], attack: int, left: int,
                                   want: int) -> None:
    full, problems_ = defence.parse(policy)
    assert not problems_ and full is not None
    assert defence.aid(full, attack, left) == want

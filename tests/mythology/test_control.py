"""008/009 D-E, 208, 209 and 216 G 4-6: control, the Challenge auction and control Glory."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from typing import Any

import pytest

from pbem.core.dice import Stream
from pbem.games.mythology.control import (
    AuctionResult,
    Challenge,
    auction,
    available,
    available_by_player,
    controller,
    glory_for_points,
    hero_totals,
    kill_glory,
    moving_glory,
)

HECTOR = 12
MONSTER = 40
ZERO = {"alice": 0, "bob": 0, "carol": 0, "dave": 0}


def stream(i: int | str) -> Stream:
    return Stream(hashlib.sha256(f"control-test/{i}".encode()).digest())


def find_key(pred: Callable[[Stream], bool], tries: int = 3000) -> int:
    """The first test key for which ``pred`` holds on a fresh stream."""
    for i in range(tries):
        if pred(stream(i)):
            return i
    raise AssertionError("no key found")


def rolls(result: AuctionResult) -> list[dict[str, Any]]:
    return [e for e in result.events if e["type"] == "arbitration_roll"]


def hero(mover_limit: int, challenges: list[Challenge], s: Stream | None = None,
         modifiers: dict[str, int] | None = None) -> AuctionResult:
    return auction(HECTOR, True, "alice", mover_limit, challenges,
                   ZERO if modifiers is None else modifiers, s or stream("x"), "t3/alice/a1")


# --- 009 D, 208 I: Hero totals ---------------------------------------------------------------

def test_009_D1_hector_3_then_5_total_8() -> None:
    turn1 = hero_totals({}, {HECTOR: 3})
    assert turn1 == {HECTOR: 3}
    assert hero_totals(turn1, {HECTOR: 5}) == {HECTOR: 8}
    assert available([{HECTOR: 3}, {HECTOR: 5}], HECTOR, is_hero=True) == 8


def test_208_I_turn_without_a_point_drops_total_to_0_then_resumes_from_0() -> None:
    assert HECTOR not in hero_totals({HECTOR: 8}, {})
    assert HECTOR not in hero_totals({HECTOR: 8}, {HECTOR: 0, 7: 1})
    # Turn 3 skipped: turn 4's 2 points start again from 0, not from 8.
    turns = [{HECTOR: 3}, {HECTOR: 5}, {7: 4}, {HECTOR: 2}]
    assert available(turns[:3], HECTOR, is_hero=True) == 0
    assert available(turns, HECTOR, is_hero=True) == 2
    assert available(turns, 7, is_hero=True) == 0  # 7 skipped in turn 4


def test_007_B_more_than_10_points_on_heroes_in_one_turn_rejected() -> None:
    with pytest.raises(ValueError, match="007 B"):
        hero_totals({}, {1: 6, 2: 5})
    with pytest.raises(ValueError):
        hero_totals({}, {1: -1})


def test_208_J_monster_points_do_not_carry_over() -> None:
    assert available([{MONSTER: 7}, {MONSTER: 2}], MONSTER, is_hero=False) == 2
    assert available([{MONSTER: 7}, {}], MONSTER, is_hero=False) == 0
    assert available([], MONSTER, is_hero=False) == 0


# --- 208 H: the controller ---------------------------------------------------------------------

def test_208_H_most_points_controls() -> None:
    logs = {"alice": [{HECTOR: 3}, {HECTOR: 5}], "bob": [{HECTOR: 2}, {HECTOR: 5}],
            "carol": [{}, {HECTOR: 10}]}
    points = available_by_player(logs, HECTOR, is_hero=True)
    assert points == {"alice": 8, "bob": 7, "carol": 10}
    assert controller(points) == "carol"


def test_208_H_tie_at_the_top_or_no_points_means_no_controller() -> None:
    assert controller({"alice": 6, "bob": 6, "carol": 2}) is None
    assert controller({"alice": 0, "bob": 0}) is None
    assert controller({}) is None
    assert controller({"alice": 1, "bob": 0}) == "alice"


# --- 209 D: the auction ------------------------------------------------------------------------

def test_209_B_unchallenged_attempt_moves_without_dice() -> None:
    s = stream("b")
    r = auction(HECTOR, True, "alice", 0, [], {}, s, "p")
    assert (r.winner, r.moved, r.glory) == ("alice", True, {"alice": 0})
    assert s.draws == []


def test_209_D2_mover_higher_limit_wins_216_G6_plus1_minus1() -> None:
    s = stream("m")
    r = hero(8, [Challenge("bob", 7)], s)
    assert (r.winner, r.moved) == ("alice", True)
    assert r.glory == {"alice": 1, "bob": -1}
    assert s.draws == []  # no arbitration
    last = r.events[-2]
    assert last["type"] == "challenge_result" and last["winner"] == "alice"
    assert [e for e in r.events if e["type"] == "cannot"][-1]["player"] == "bob"


def test_209_D2_challenger_higher_limit_wins_209_E_no_move_216_G6() -> None:
    s = stream("c")
    r = hero(7, [Challenge("bob", 8)], s)
    assert (r.winner, r.moved) == ("bob", False)
    assert r.glory == {"alice": -1, "bob": 1}
    assert s.draws == []
    assert "209 H" in r.events[-1]["text"]


def test_209_D2_challenger_one_above_odd_mover_limit_still_wins_not_draw() -> None:
    # A naive "each raises by one from 0" transcript would have bob land on 3, leaving alice
    # able only to equal: a draw. The limits decide: 4 > 3, bob wins outright.
    s = stream("odd")
    r = hero(3, [Challenge("bob", 4)], s)
    assert r.winner == "bob" and s.draws == []
    assert not [e for e in r.events if e["type"] == "draw"]


def test_209_D4_equal_limits_draw_includes_0_against_0() -> None:
    r = hero(0, [Challenge("bob", 0)], stream("zero"))
    assert [e["type"] for e in r.events].count("draw") == 1
    assert rolls(r)  # settled by Zeus Arbitration
    assert r.winner in ("alice", "bob")


def test_209_D6_zeus_arbitration_adds_modifiers_and_highest_total_wins() -> None:
    def alice_rolls_higher_by_1_to_4(s: Stream) -> bool:
        r = hero(5, [Challenge("bob", 5)], s)
        rr = rolls(r)
        return len(rr) == 2 and 1 <= rr[0]["roll"] - rr[1]["roll"] <= 4

    key = find_key(alice_rolls_higher_by_1_to_4)
    plain = hero(5, [Challenge("bob", 5)], stream(key))
    assert (plain.winner, plain.moved, plain.glory) == ("alice", True, {"alice": 1, "bob": -1})
    mods = {"alice": 0, "bob": 5}
    modified = hero(5, [Challenge("bob", 5)], stream(key), mods)
    assert (modified.winner, modified.moved, modified.glory) == ("bob", False,
                                                                {"alice": -1, "bob": 1})
    a, b = rolls(modified)
    assert (a["roll"], b["roll"]) == (rolls(plain)[0]["roll"], rolls(plain)[1]["roll"])
    assert b["total"] == b["roll"] + 5 and a["total"] == a["roll"]
    assert b["label"] == "t3/alice/a1/c1/zeus1/bob"
    assert b["roll"] == 10 * b["red"] + b["white"] and 11 <= b["roll"] <= 66


def test_209_D6_equal_arbitration_totals_are_rolled_again() -> None:
    mods = {"alice": 3, "bob": 0}

    def first_round_tied(s: Stream) -> bool:
        r = hero(4, [Challenge("bob", 4)], s, mods)
        return any(e["type"] == "arbitration_tie" for e in r.events)

    key = find_key(first_round_tied)
    r = hero(4, [Challenge("bob", 4)], stream(key), mods)
    rr = rolls(r)
    assert len(rr) >= 4
    assert rr[0]["total"] == rr[1]["total"]
    assert rr[0]["roll"] + 3 == rr[1]["roll"]
    assert {e["label"] for e in rr[2:4]} == {"t3/alice/a1/c1/zeus2/alice",
                                             "t3/alice/a1/c1/zeus2/bob"}
    final = rr[-2:]
    assert final[0]["total"] != final[1]["total"]
    assert r.winner == max(final, key=lambda e: e["total"])["player"]


def test_209_D7_monster_tie_plain_roll_off_no_modifiers_no_216_G6_glory() -> None:
    huge = {"alice": 0, "bob": 99}

    def alice_wins(s: Stream) -> bool:
        r = auction(MONSTER, False, "alice", 6, [Challenge("bob", 6)], huge, s, "m")
        return r.winner == "alice"

    key = find_key(alice_wins)  # bob's +99 would make this impossible if it were applied
    r = auction(MONSTER, False, "alice", 6, [Challenge("bob", 6)], huge, stream(key), "m")
    assert all(e["modifier"] == 0 and e["total"] == e["roll"] for e in rolls(r))
    assert rolls(r)[0]["label"] == "m/c1/rolloff1/alice"
    assert r.moved and r.glory == {"alice": 0, "bob": 0}


def test_216_G6_monster_challenge_lost_costs_nothing() -> None:
    r = auction(MONSTER, False, "alice", 2, [Challenge("bob", 9)], {}, stream("mon"), "m")
    assert (r.winner, r.moved, r.glory) == ("bob", False, {"alice": 0, "bob": 0})


def test_209_several_challengers_mover_beats_all_216_G6_plus1_per_challenge() -> None:
    r = hero(9, [Challenge("bob", 4), Challenge("carol", 8)])
    assert (r.winner, r.moved) == ("alice", True)
    assert r.glory == {"alice": 2, "bob": -1, "carol": -1}


def test_209_several_challengers_highest_limit_wins_whatever_the_seat_order() -> None:
    # bob (6) takes control from alice (5); carol (9) then takes it from bob.
    r = hero(5, [Challenge("bob", 6), Challenge("carol", 9)])
    assert (r.winner, r.moved) == ("carol", False)
    assert r.glory == {"alice": -1, "bob": 0, "carol": 1}
    # carol first, then bob fails against carol.
    r = hero(5, [Challenge("carol", 9), Challenge("bob", 6)])
    assert r.winner == "carol"
    assert r.glory == {"alice": -1, "carol": 2, "bob": -1}
    results = [(e["winner"], e["loser"]) for e in r.events if e["type"] == "challenge_result"]
    assert results == [("carol", "alice"), ("carol", "bob")]


def test_209_D4_several_challengers_equal_top_limits_meet_in_arbitration() -> None:
    r = hero(3, [Challenge("bob", 7), Challenge("carol", 7)], stream("3way"))
    assert r.winner in ("bob", "carol") and not r.moved
    assert {e["challenge"] for e in rolls(r)} == {2}
    assert {e["player"] for e in rolls(r)} == {"bob", "carol"}
    assert sum(r.glory.values()) == 0 and r.glory["alice"] == -1


def _check_transcript(h: int, c: int, r: AuctionResult) -> None:
    limit = {"alice": h, "bob": c}
    ann = [e for e in r.events if e["type"] == "announce"]
    assert ann[0]["player"] == "alice" and ann[0]["points"] in (0, 1)
    for prev, cur in itertools.pairwise(ann):
        assert cur["player"] != prev["player"]  # sides alternate
        if cur["player"] == "bob":
            assert cur["points"] >= prev["points"]  # 209 D 2: equal or exceed
        else:
            assert cur["points"] > prev["points"]  # 209 D 2: another number higher
    assert all(e["points"] <= limit[e["player"]] for e in ann)  # 209 D 1
    end = [e for e in r.events if e["type"] in ("cannot", "draw")]
    assert len(end) == 1
    if end[0]["type"] == "cannot":
        assert end[0]["player"] != r.winner and limit[end[0]["player"]] < end[0]["points"]
    else:
        assert h == c and rolls(r)


@pytest.mark.parametrize("h", range(13))
def test_209_D1_D3_transcript_consistent_with_limits_for_every_pair(h: int) -> None:
    for c in range(13):
        r = auction(MONSTER, False, "alice", h, [Challenge("bob", c)], {}, stream(f"{h}/{c}"),
                    "m")
        if h != c:
            assert r.winner == ("alice" if h > c else "bob")
            assert not rolls(r)
        _check_transcript(h, c, r)
        assert r.events[-1]["winner"] == r.winner


def test_209_events_plain_json_no_none_no_floats() -> None:
    r = hero(4, [Challenge("bob", 4), Challenge("carol", 2)], stream("j"))

    def plain(v: Any) -> bool:
        if isinstance(v, dict):
            return all(isinstance(k, str) and plain(x) for k, x in v.items())
        if isinstance(v, list):
            return all(plain(x) for x in v)
        return isinstance(v, str | int) and not isinstance(v, float)

    assert all(plain(e) and isinstance(e["text"], str) and "type" in e for e in r.events)


def test_209_determinism_same_key_same_result() -> None:
    a = hero(5, [Challenge("bob", 5), Challenge("carol", 5)], stream(7))
    b = hero(5, [Challenge("bob", 5), Challenge("carol", 5)], stream(7))
    assert a == b


def test_209_D1_invalid_inputs_rejected() -> None:
    with pytest.raises(ValueError):
        hero(-1, [Challenge("bob", 1)])
    with pytest.raises(ValueError):
        hero(1, [Challenge("bob", -2)])
    with pytest.raises(ValueError, match="209 C"):
        hero(1, [Challenge("alice", 2)])
    with pytest.raises(ValueError, match="209 C"):
        hero(1, [Challenge("bob", 2), Challenge("bob", 3)])
    with pytest.raises(ValueError, match="209 D 6 a"):
        hero(1, [Challenge("bob", 2)], modifiers={"alice": 0})
    with pytest.raises(ValueError):
        auction(HECTOR, True, "alice", 1, [], {}, stream(0), "has space")
    with pytest.raises(ValueError):
        auction(MONSTER, True, "alice", 1, [], {}, stream(0), "p")  # 40 is not a Hero


# --- 216 G 4-5 ---------------------------------------------------------------------------------

def test_216_G4a_14_points_gives_3_and_1_to_4_gives_1() -> None:
    assert glory_for_points(14) == 3
    assert [glory_for_points(n) for n in range(1, 7)] == [1, 1, 1, 1, 1, 2]
    assert kill_glory("bob", {"alice": 14, "bob": 2}, by_occurrence=False,
                      killer_controlled_unit=True) == 3
    for n in range(1, 5):
        assert kill_glory("bob", {"alice": n}, by_occurrence=False,
                          killer_controlled_unit=True) == 1


def test_216_G4a_combat_kill_with_uncontrolled_unit_gains_nothing() -> None:
    assert kill_glory("bob", {"alice": 14}, by_occurrence=False,
                      killer_controlled_unit=False) == 0


def test_216_G4b_nobody_had_points_minus_5_even_with_uncontrolled_unit() -> None:
    for controlled in (True, False):
        assert kill_glory("bob", {"alice": 0, "bob": 0}, by_occurrence=False,
                          killer_controlled_unit=controlled) == -5
    assert kill_glory("bob", {}, by_occurrence=True, killer_controlled_unit=False) == -5


def test_216_G4c_killer_is_controller_minus_5_also_when_tied_at_top() -> None:
    assert kill_glory("alice", {"alice": 9, "bob": 3}, by_occurrence=False,
                      killer_controlled_unit=True) == -5
    assert kill_glory("alice", {"alice": 9, "bob": 9}, by_occurrence=False,
                      killer_controlled_unit=True) == -5
    assert kill_glory("alice", {"alice": 9}, by_occurrence=True,
                      killer_controlled_unit=False) == -5


def test_216_G4d_divine_occurrence_kill_capped_at_2() -> None:
    assert kill_glory("bob", {"alice": 14}, by_occurrence=True,
                      killer_controlled_unit=False) == 2
    assert kill_glory("bob", {"alice": 3}, by_occurrence=True,
                      killer_controlled_unit=False) == 1


def test_216_G5_moving_a_hero_plus_1_monster_nothing() -> None:
    assert moving_glory(True, True) == 1
    assert moving_glory(False, True) == 0
    assert moving_glory(True, False) == 0

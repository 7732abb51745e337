"""Mythology 102 G, 202 B 5, 213 and 216 G 7 (pbem.games.mythology.fates)."""

from __future__ import annotations

import hashlib

import pytest
import tomli_w

from pbem.core.dice import Stream
from pbem.games.mythology import fates
from pbem.games.mythology.fates import FateEntry, GameStats

# The Special Victory Condition Chart is data (pbem/games/mythology/data/fates.toml); the
# tests below check it against the chart as printed.
CHART = fates.load_chart()
ALL = list(range(1, 33))
REDRAWS = {2, 3, 9, 10, 11, 12}
PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon"]


def _key(i: int) -> bytes:
    return hashlib.sha256(f"mythology-fates-test/{i}".encode()).digest()


def deal(n_players: int, key: int = 0) -> fates.FateDraw:
    return fates.draw_fates(PLAYERS[:n_players], ALL, CHART, Stream(_key(key)), "setup.fates")


# --- the chart as data ---------------------------------------------------------------------


def test_102_G_chart_has_32_entries_and_returns_2_3_9_to_12() -> None:
    assert sorted(CHART) == ALL
    assert {f for f, e in CHART.items() if e.redraw} == REDRAWS
    assert CHART[8].halves == 1 and CHART[13].halves == 6 and CHART[17].measure == (
        "volcanoes_by_others")
    assert {e.measure for e in CHART.values() if not e.redraw} == set(fates.MEASURES)
    assert CHART[8].text == "½ Point for each Divine Occurrence used in game."
    assert fates.load_chart() is CHART  # read once


@pytest.mark.parametrize(("text", "match"), [
    ('[[fate]]\nid = 1\nmeasure = "heroes"\npoints = 2\n', "unknown measure"),
    ('[[fate]]\nid = 1\nredraw = true\n[[fate]]\nid = 1\nredraw = true\n', "twice"),
    ('[[fate]]\nid = 1\nredraw = true\npoints = 1\n', "no points"),
    ('[[fate]]\nid = 1\nmeasure = "heroes_on_board"\n', "needs points"),
    ('[[fate]]\nid = 1\npoints = 2\n', "needs points"),
    ('[[fate]]\nid = 1\nmeasure = "heroes_on_board"\npoints = 0\n', "positive"),
    ('[[fate]]\nid = 1\nmeasure = "heroes_on_board"\npoints = "1/3"\n', "half points"),
    ('[[fate]]\nid = 1\nmeasure = "heroes_on_board"\npoints = "half"\n', "not a number"),
    ('[[fate]]\nid = 1\nmeasure = "heroes_on_board"\npoints = 0.5\n', "integer or"),
    ('[[fate]]\nid = 1\nmeasure = "heroes_on_board"\npoints = true\n', "a number"),
])
def test_chart_data_is_checked(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        fates.parse_chart(text)


def test_chart_points_fraction_strings_become_half_points() -> None:
    chart = fates.parse_chart('[[fate]]\nid = 8\nmeasure = "occurrences_used"\n'
                              'points = "3/2"\n[[fate]]\nid = 9\nmeasure = "monsters_killed"\n'
                              'points = "2"\n')
    assert (chart[8].halves, chart[9].halves) == (3, 4)


# --- 102 G: drawing ------------------------------------------------------------------------


def test_102_G_return_and_draw_again_never_hands_out_2_3_9_to_12() -> None:
    returns = 0
    for key in range(150):
        result = deal(10, key)
        assert set(result.held) == set(PLAYERS)
        assert not set(result.held.values()) & REDRAWS
        assert len(set(result.held.values())) == 10
        returns += sum(e["type"] == "fate_returned" for p in result.private.values()
                       for e in p)
    assert returns > 50  # the loop really ran (6 of 32 counters send a player back)


def test_102_G_returned_counter_goes_back_into_the_mixed_pile() -> None:
    key = next(k for k in range(500)
               if any(e["type"] == "fate_returned" for e in deal(4, k).private["ann"]))
    stream = Stream(_key(key))
    result = fates.draw_fates(PLAYERS[:4], ALL, CHART, stream, "setup.fates")
    returned = [e["fate"] for e in result.private["ann"] if e["type"] == "fate_returned"]
    assert set(returned) <= REDRAWS
    # The returned counter is in the pile again: every counter is accounted for exactly once.
    placed = [f for box in result.track.values() for f in box]
    assert sorted([*result.held.values(), *placed, *result.unused]) == ALL
    assert returned[0] in placed or returned[0] in result.unused
    # ... and the pile was mixed again before ann drew again.
    assert any(d.label.startswith("setup.fates/remix/ann/1/") for d in stream.draws)


def test_102_G_a_player_may_draw_the_returned_counter_again() -> None:
    # Mixed back in, the returned counter can come up again (and go back again).
    for key in range(3000):
        draws = [e["fate"] for p in deal(1, key).private.values() for e in p
                 if e["type"] == "fate_returned"]
        if len(draws) != len(set(draws)):
            return
    raise AssertionError("a returned counter was never drawn again")


def test_102_G_not_enough_counters_to_keep() -> None:
    with pytest.raises(ValueError, match="may keep"):
        fates.draw_fates(PLAYERS[:3], [2, 3, 4, 5], CHART, Stream(_key(0)), "x")


def test_102_G_same_stream_same_deal_and_order_of_ids_irrelevant() -> None:
    a = deal(5, 3)
    b = fates.draw_fates(PLAYERS[:5], ALL[::-1], CHART, Stream(_key(3)), "setup.fates")
    assert (a.held, a.track, a.unused) == (b.held, b.track, b.unused)


# --- 102 G: the Turn Record Track ------------------------------------------------------------


def test_102_G_two_per_box_from_14_down_extra_to_the_tray() -> None:
    result = deal(2)  # 30 left: 28 on the track, 2 to the tray
    assert sorted(result.track) == list(range(1, 15))
    assert all(len(result.track[box]) == 2 for box in range(1, 15))
    assert len(result.unused) == 2
    assert 15 not in result.track


def test_102_G_odd_leftover_goes_alone_into_the_next_box() -> None:
    result = deal(5)  # 27 left: boxes 14..2 full, one counter in box 1
    assert [len(result.track[b]) for b in range(14, 0, -1)] == [2] * 13 + [1]
    assert result.unused == []


def test_102_G_short_of_counters_the_low_boxes_stay_empty() -> None:
    result = deal(9)  # 23 left: 14..4 full, box 3 one, boxes 2 and 1 empty
    assert [len(result.track[b]) for b in range(14, 0, -1)] == [2] * 11 + [1, 0, 0]
    result = deal(10)  # 22 left
    assert [len(result.track[b]) for b in range(14, 0, -1)] == [2] * 11 + [0, 0, 0]


@pytest.mark.parametrize("n_players", range(1, 11))
def test_102_G1_never_more_than_two_per_box(n_players: int) -> None:
    result = deal(n_players, n_players)
    assert max(len(box) for box in result.track.values()) <= 2
    placed = [f for box in result.track.values() for f in box]
    assert len(placed) == min(28, 32 - n_players)
    assert sorted([*result.held.values(), *placed, *result.unused]) == ALL


def test_102_G2_held_counters_stay_secret() -> None:
    result = deal(4, 11)
    tomli_w.dumps({"event": result.events})
    for event in result.events:
        assert "fate" not in event and "fates" not in event
        assert all(v is not None and not isinstance(v, float) for v in event.values())
    for player, own in result.private.items():
        assert own[-1]["type"] == "fate_held" and own[-1]["fate"] == result.held[player]
        others = {f for p, f in result.held.items() if p != player}
        assert not {e["fate"] for e in own} & others


# --- 202 B 5, 213: the Fate Phase --------------------------------------------------------------

GREECE = ["3111", "3210", "3211", "3310", "3311"]


def phase(turn: int, track: dict[int, list[int]], on_board: set[int],
          free: list[str] | None = None, key: int = 0) -> fates.FatePhaseResult:
    return fates.fate_phase(turn, track, on_board, GREECE if free is None else free, GREECE,
                            Stream(_key(key)), f"t{turn}.fates")


def test_202_B5_the_fate_phase_reads_the_box_of_the_current_turn() -> None:
    track = {3: [5, 6], 4: [7, 8], 14: [1, 4]}
    result = phase(3, track, {5, 6, 7, 8})
    assert result.revealed == [5, 6]
    assert result.removed == [5, 6]
    assert result.track == {4: [7, 8], 14: [1, 4]}
    assert track[3] == [5, 6]  # the input is not mutated


def test_202_B5_empty_box_or_turn_15_does_nothing() -> None:
    for turn in (2, 15):
        stream = Stream(_key(0))
        result = fates.fate_phase(turn, {3: [5, 6], 2: []}, set(), GREECE, GREECE, stream, "f")
        assert (result.revealed, result.removed, result.born, result.events) == ([], [], {}, [])
        assert stream.draws == []


def test_213_E1_hero_on_board_is_removed() -> None:
    result = phase(7, {7: [20, 21]}, {20, 30})
    assert result.removed == [20]
    assert list(result.born) == [21]
    assert [e["type"] for e in result.events] == ["fates_revealed", "fate_removed", "fate_born"]


def test_213_E2_hero_off_board_is_born_in_a_free_hex_of_greece() -> None:
    result = phase(7, {7: [20, 21]}, set(), free=["3210", "3311"])
    assert set(result.born) == {20, 21}
    assert sorted(result.born.values()) == ["3210", "3311"]  # not stacked with each other


def test_213_E2_stacked_only_when_no_hex_of_greece_is_free() -> None:
    result = phase(7, {7: [20, 21]}, set(), free=["3311"])
    assert result.born[20] == "3311"  # first in track order takes the free hex
    assert result.born[21] in GREECE
    assert "stacked" in result.events[-1]["text"]


def test_213_E2_birth_hex_is_drawn_not_always_the_first() -> None:
    hexes = {phase(7, {7: [20]}, set(), key=k).born[20] for k in range(40)}
    assert hexes == set(GREECE)


# --- 216 G 7: the Special Victory Condition Chart -------------------------------------------

STATS = GameStats(
    heroes_on_board=7,
    heroes_killed_in_combat=5,
    monsters_on_board=11,
    monsters_killed=13,
    occurrences={"me": {"E": 1, "V": 2, "F": 1}, "ann": {"E": 3, "T": 1, "V": 1},
                 "bob": {"P": 2, "T": 4}},
    heroes_killed_by_occurrence={"me": 4, "ann": 2, "bob": 3},
    prizes_on_board=6,
    prizes_off_board=4,
    helpers_on_board=9,
    helpers_off_board=3,
    prizes_possessed={"me": 2, "ann": 1},
    helpers_possessed={"me": 3, "bob": 1},
    turns_without_occurrence=8,
    prayers={"me": 7, "ann": 2, "bob": 1},
    sacrifices={"me": 5, "ann": 1, "bob": 2},
)

# Expected Glory in HALF points for player "me", entry by entry from the printed chart.
EXPECTED_HALVES = {
    1: 2 * 2 * 7,    # 2 per Hero on board
    4: 2 * 2 * 5,    # 2 per Hero killed in Combat
    5: 2 * 1 * 11,   # 1 per Monster on board
    6: 2 * 1 * 13,   # 1 per Monster killed
    7: 2 * 1 * 5,    # 1 per Hero killed by an occurrence of ann (2) or bob (3), not me (4)
    8: 1 * 15,       # 1/2 per occurrence used in the game, mine included: 4 + 5 + 6
    13: 2 * 3 * 6,   # 3 per Prize on board
    14: 2 * 2 * 4,   # 2 per Prize off board
    15: 2 * 1 * 9,   # 1 per Helper on board
    16: 2 * 1 * 3,   # 1 per Helper off board
    17: 2 * 3 * 1,   # 3 per Volcano by others: ann's 1, not my 2
    18: 2 * 5 * 2,   # 5 per Prize I possess
    19: 2 * 3 * 3,   # 3 per Helper I possess
    20: 2 * 2 * 3,   # 2 per Earthquake by others: ann's 3, not my 1
    21: 2 * 1 * 8,   # 1 per Turn without an occurrence
    22: 2 * 2 * 5,   # 2 per Tempest by others: ann 1 + bob 4
    23: 2 * 1 * 3,   # 1 per Prayer by others: ann 2 + bob 1, not my 7
    24: 2 * 2 * 3,   # 2 per Sacrifice by others: ann 1 + bob 2, not my 5
    25: 2 * 2 * 7,
    26: 2 * 2 * 5,
    27: 2 * 1 * 11,
    28: 2 * 1 * 13,
    29: 2 * 1 * 5,
    30: 2 * 3 * 6,
    31: 2 * 1 * 9,
    32: 2 * 1 * 11,  # 1 per occurrence caused by another player: ann 5 + bob 6
}


@pytest.mark.parametrize("fate", sorted(EXPECTED_HALVES))
def test_216_G7_special_victory_chart_entry(fate: int) -> None:
    halves, why = fates.special_victory(CHART[fate], STATS, "me")
    assert halves == EXPECTED_HALVES[fate]
    assert f"Fate {fate}" in why and "216 G 7" in why


def test_216_G7_every_scoring_entry_is_covered() -> None:
    assert set(EXPECTED_HALVES) == set(ALL) - REDRAWS


def test_216_G7_a_redraw_counter_scores_nothing_because_no_one_holds_it() -> None:
    with pytest.raises(ValueError, match="102 G"):
        fates.special_victory(CHART[2], STATS, "me")


def test_216_G7_entry_8_half_points_are_exact_and_rounded_once_at_the_end() -> None:
    halves, why = fates.special_victory(CHART[8], STATS, "me")
    assert halves == 15 and "7 1/2 Glory" in why
    assert fates.final_glory(40, halves) == 47  # 7 1/2 -> 7, dropped only at the total
    assert fates.final_glory(40, 16) == 48
    # Rounding each occurrence's half point would have given 0 (or 15).
    one, _ = fates.special_victory(CHART[8], GameStats(occurrences={"x": {"E": 1}}), "me")
    assert one == 1 and fates.final_glory(0, one) == 0
    with pytest.raises(ValueError):
        fates.final_glory(0, -1)


def test_216_G7_other_players_kinds_depend_on_who_holds_the_counter() -> None:
    # The same facts score differently for ann: her own occurrences, prayers etc. drop out.
    assert fates.special_victory(CHART[32], STATS, "ann")[0] == 2 * (4 + 6)
    assert fates.special_victory(CHART[7], STATS, "ann")[0] == 2 * (4 + 3)
    assert fates.special_victory(CHART[18], STATS, "ann")[0] == 2 * 5 * 1
    assert fates.special_victory(CHART[19], STATS, "ann")[0] == 0
    assert fates.special_victory(CHART[23], STATS, "ann")[0] == 2 * (7 + 1)


def test_216_G7_empty_stats_score_zero() -> None:
    for fate in EXPECTED_HALVES:
        assert fates.special_victory(CHART[fate], GameStats(), "me")[0] == 0


def test_216_G7_points_come_from_the_data() -> None:
    quadrupled = FateEntry(99, "tempests_by_others", halves=8)
    assert fates.special_victory(quadrupled, STATS, "me")[0] == 8 * 5

"""007 and 009: the Log Sheet as a sealed order."""

from __future__ import annotations

from typing import Any

from pbem.games.mythology import logsheet

HAND = ("c01", "c17")
AREAS = ("Greece", "Egypt", "Cyrenaica")


def _parse(orders: dict[str, Any]) -> tuple[logsheet.LogSheet, list[str]]:
    sheet, problems = logsheet.parse(orders, hand=HAND, areas=AREAS)
    return sheet, [str(p) for p in problems]


def test_007_B_ten_power_points_may_be_spent() -> None:
    sheet, problems = _parse({"heroes": {"12": 3}, "monsters": {"40": 2},
                              "occurrences": [{"code": "E", "points": 2}],
                              "aid": {"12": 1}, "ailment": {"7": 1}, "zeus": 1})
    assert problems == [] and sheet.power_points == 10


def test_007_B_never_more_than_ten() -> None:
    _, problems = _parse({"heroes": {"12": 6}, "zeus": 5})
    assert any("allocates 11 Power Points" in p and "007 B" in p for p in problems)


def test_009_G_all_ten_on_one_hero_or_one_each_on_ten_actions() -> None:
    assert _parse({"heroes": {"12": 10}})[1] == []
    spread = {"heroes": {str(h): 1 for h in range(1, 11)}}
    assert _parse(spread)[1] == []


def test_009_D_hero_numbers_and_points_are_checked() -> None:
    _, problems = _parse({"heroes": {"33": 2, "12": 0, "x": 1}})
    assert any("[orders.heroes] 33: is not a Hero number" in p for p in problems)
    assert any("[orders.heroes] 12: Power Points must be" in p for p in problems)
    assert any("[orders.heroes] x:" in p for p in problems)


def test_009_E1_monster_numbers_are_33_to_64() -> None:
    assert _parse({"monsters": {"64": 1}})[1] == []
    assert any("is not a Monster number" in p for p in _parse({"monsters": {"12": 1}})[1])


def test_009_E2_occurrence_codes() -> None:
    for code in ("E", "T", "V", "P", "Pe", "F"):
        assert _parse({"occurrences": [{"code": code, "points": 1}]})[1] == []
    assert any("'X' is not a Divine Occurrence code" in p
               for p in _parse({"occurrences": [{"code": "X", "points": 1}]})[1])


def test_010_E_card_must_come_from_the_hand() -> None:
    assert _parse({"card": "c17"})[1] == []
    assert any("[orders] card" in p for p in _parse({"card": "c99"})[1])


def test_203_standing_area_must_be_an_area() -> None:
    assert _parse({"area": "Egypt"})[1] == []
    assert any("not an Area" in p for p in _parse({"area": "Atlantis"})[1])


def test_209_standing_challenges_are_read() -> None:
    sheet, problems = _parse({"challenge": [{"unit": 12, "limit": 8, "min_total": 6},
                                            {"unit": 40, "limit": 3}]})
    assert problems == []
    assert sheet.challenges == (logsheet.ChallengeOrder(12, 8, 6),
                                logsheet.ChallengeOrder(40, 3, 0))


def test_every_problem_is_reported_at_once() -> None:
    _, problems = _parse({"heroes": {"40": 1}, "zeus": -1, "card": "zz", "bogus": 1})
    assert len(problems) == 4


def test_blank_sheet_is_legal_and_spends_nothing() -> None:
    sheet, problems = _parse({})
    assert problems == [] and sheet.power_points == 0


def test_round_trip_through_plain_data() -> None:
    sheet, _ = _parse({"heroes": {"12": 3}, "occurrences": [{"code": "Pe", "points": 2}],
                       "aid": {"12": 1}, "card": "c01", "area": "Greece",
                       "challenge": [{"unit": 12, "limit": 4}]})
    assert logsheet.LogSheet.from_dict(sheet.as_dict()) == sheet


def test_009_D1_log_sheet_notation_of_hector() -> None:
    # 009 D 1: Turn 1, 3 points on Hector (12): C 3, T 3; Turn 2, 5 points: C 5, T 8.
    t1, _ = _parse({"heroes": {"12": 3}})
    assert logsheet.notation(1, t1, {})["T"] == {"12": 3}
    t2, _ = _parse({"heroes": {"12": 5}})
    line = logsheet.notation(2, t2, {12: 3})
    assert line["C"] == {"12": 5} and line["T"] == {"12": 8}


def test_009_E_entries_are_written_with_their_codes() -> None:
    sheet, _ = _parse({"monsters": {"40": 2}, "occurrences": [{"code": "V", "points": 3}],
                       "aid": {"5": 1}, "ailment": {"6": 2}, "zeus": 4})
    entries = logsheet.notation(3, sheet, {})["entries"]
    assert entries == [{"C": "40", "T": 2}, {"C": "V", "T": 3}, {"C": "+5", "T": 1},
                       {"C": "-6", "T": 2}, {"C": "Z", "T": 4}]

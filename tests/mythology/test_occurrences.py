"""Mythology 210 Divine Occurrences and 214 B Hercules (pbem.games.mythology.occurrences)."""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest
import tomli_w

from pbem.core.dice import Stream
from pbem.games.mythology import occurrences as occ
from pbem.games.mythology.occurrences import Target

LABEL = "t3.occ.athena.1"


def _key(i: int) -> bytes:
    return hashlib.sha256(f"mythology-occurrence-test/{i}".encode()).digest()


def rolling(roll: int, code: str = "E", label: str = LABEL) -> Stream:
    """A fresh stream whose occurrence roll (003 B reading) is ``roll``: searched over keys."""
    for i in range(20000):
        if occ.resolve(code, 1, [], Stream(_key(i)), label).roll == roll:
            return Stream(_key(i))
    raise AssertionError(f"no key gives {roll}")


def land(hero: int, defense: int) -> Target:
    return Target(hero, defense, on_land=True, on_ship=False)


def ship(hero: int, defense: int, *, coastal: bool = False) -> Target:
    return Target(hero, defense, on_land=coastal, on_ship=True)


def run(code: str, points: int, roll: int, targets: Sequence[Target]) -> occ.OccurrenceResult:
    return occ.resolve(code, points, targets, rolling(roll, code), LABEL)


# --- 009 E 2, 210 G: codes and modifiers --------------------------------------------------


def test_009_E2_the_six_log_sheet_codes() -> None:
    assert occ.CODES == ("E", "T", "V", "P", "Pe", "F")
    with pytest.raises(ValueError, match="unknown Divine Occurrence"):
        occ.resolve("X", 1, [], Stream(_key(0)), LABEL)
    with pytest.raises(ValueError, match="unknown Divine Occurrence"):
        occ.allowed("PE", "greece", "greece")


@pytest.mark.parametrize(("code", "per_point"),
                         [("E", 10), ("T", 10), ("V", 20), ("P", 20), ("Pe", 20), ("F", 10)])
def test_210_G_modifier_per_power_point(code: str, per_point: int) -> None:
    # 210 G 1 (+10, "four Power Points ... +40"), G 2 as G 1, G 3 +20, G 4 +20, G 5 +20, G 6 +10.
    assert occ.modifier(code, 4) == 4 * per_point
    result = run(code, 3, 42, [])
    assert (result.roll, result.modifier, result.total) == (42, 3 * per_point, 42 + 3 * per_point)


def test_009_G_power_points_one_to_ten() -> None:
    for bad in (0, 11, -1):
        with pytest.raises(ValueError, match="Power Points"):
            occ.modifier("E", bad)
    assert occ.modifier("V", 10) == 200


def test_003_B_roll_is_red_tens_white_units_from_the_given_stream() -> None:
    stream = Stream(_key(7))
    result = occ.resolve("Pe", 2, [], stream, LABEL)
    red, white = stream.draws
    assert (red.label, white.label) == (f"{LABEL}/Pe/red", f"{LABEL}/Pe/white")
    assert result.roll == 10 * red.value + white.value


def test_210_G_table_agrees_with_the_occurrence_data() -> None:
    data = Path(occ.__file__).parent / "data" / "occurrences.toml"
    rows = {r["code"]: r for r in tomllib.loads(data.read_text(encoding="utf-8"))["occurrence"]}
    assert set(rows) == set(occ.CODES)
    targets = {"land": occ.LAND, "ships": occ.SHIP, "all": occ.ANY}
    effects = {"kill": occ.KILL, "halt": occ.IMMOBILISE, "halve": occ.FAMISH}
    for code, row in rows.items():
        s = occ.SPECS[code]
        assert (s.name, s.rule, s.per_point) == (row["name"], row["rule"], row["per_point"])
        assert s.single_hex == (row["scope"] == "hex")
        assert s.exposed == targets[row["targets"]]
        assert s.effect == effects[row["effect"]]
        assert s.inclusive == (row["hits"] == "at_least")
        assert (code in occ.DEFERRED_CODES) == (row["timing"] == "after_moves")


# --- 210 G 1 Earthquake --------------------------------------------------------------------


def test_210_G1_earthquake_plus10_per_point() -> None:
    # Roll 35 with 3 points: 65. With +20 per point (a broken E) Defense 80 would die.
    result = run("E", 3, 35, [land(1, 64), land(2, 80)])
    assert result.total == 65
    assert result.killed == (1,)


def test_210_G1_earthquake_kills_defense_less_than_roll_tie_survives() -> None:
    result = run("E", 3, 35, [land(1, 64), land(2, 65), land(3, 66)])
    assert result.killed == (1,)
    assert result.immobilised == () and result.famished == ()
    effects = {e["hero"]: e["effect"] for e in result.events if e["type"] == "occurrence_effect"}
    assert effects == {1: "killed", 2: "unaffected", 3: "unaffected"}


def test_210_G1_earthquake_only_heroes_in_a_land_hex() -> None:
    # A Hero aboard a ship is at sea even in a coastal hex (215 C, 215 I).
    result = run("E", 10, 66, [ship(1, 10), ship(2, 10, coastal=True), land(3, 10)])
    assert result.killed == (3,)
    effects = {e["hero"]: e["effect"] for e in result.events if e["type"] == "occurrence_effect"}
    assert effects[1] == effects[2] == "not_exposed"


def test_210_G1_one_roll_compared_with_each_hero() -> None:
    # "The causing player rolls the dice ... and compares the modified dice roll to the Defense
    # Number of EACH Hero counter": one roll (two dice), whatever the number of Heroes.
    stream = rolling(44)
    targets = [land(h, 50 + h) for h in range(1, 11)]
    result = occ.resolve("E", 1, targets, stream, LABEL)
    assert len(stream.draws) == 2
    assert result.total == 54
    assert result.killed == (1, 2, 3)
    totals = {e["total"] for e in result.events if e["type"] == "occurrence_effect"}
    assert totals == {54}


# --- 210 G 2 Tempest -----------------------------------------------------------------------


def test_210_G2_tempest_only_heroes_aboard_ships() -> None:
    result = run("T", 2, 51, [land(1, 20), ship(2, 70), ship(3, 71, coastal=True), ship(4, 72)])
    assert result.total == 71
    assert result.killed == (2,)  # 71 is not less than 71; land Hero 1 is not exposed


# --- 210 G 3 Volcano -----------------------------------------------------------------------


def test_210_G3_volcano_plus20_per_point_kills_less_than() -> None:
    result = run("V", 2, 23, [land(1, 62), land(2, 63), ship(3, 10, coastal=True)])
    assert result.total == 63
    assert result.killed == (1,)  # tie survives; a +10 Volcano would kill no one


def test_210_G3_volcano_is_like_an_earthquake_land_only() -> None:
    assert occ.exposed("V", ship(1, 10, coastal=True)) is False
    assert occ.exposed("V", land(1, 10)) is True
    assert occ.SPECS["V"].single_hex and not occ.SPECS["E"].single_hex


# --- 210 G 4 Plague ------------------------------------------------------------------------


def test_210_G4_plague_plus20_kills_only_if_higher() -> None:
    result = run("P", 2, 31, [land(1, 70), land(2, 71), ship(3, 69), land(4, 72)])
    assert result.total == 71
    assert result.killed == (1, 3)  # every Hero in the Area, ship or land; 71 vs 71 survives


def test_210_G4_plague_timing_is_after_all_moving_players() -> None:
    assert set(occ.DEFERRED_CODES) == {"P"}
    assert "Moving Player" in occ.PLAGUE_TIMING and "Fate Phase" in occ.PLAGUE_TIMING


# --- 210 G 5 Pestilence --------------------------------------------------------------------


def test_210_G5_pestilence_plus20_equal_or_greater_immobilises() -> None:
    result = run("Pe", 1, 45, [land(1, 65), ship(2, 64), land(3, 66)])
    assert result.total == 65
    assert result.immobilised == (1, 2)  # a tie is caught; ship Heroes too
    assert result.killed == () and result.famished == ()
    assert result.glory == 0


# --- 210 G 6 Famine ------------------------------------------------------------------------


def test_210_G6_famine_plus10_equal_or_greater_famished() -> None:
    result = run("F", 2, 36, [land(1, 56), ship(2, 55), land(3, 57)])
    assert result.total == 56
    assert result.famished == (1, 2)
    assert result.killed == () and result.immobilised == ()


@pytest.mark.parametrize(("n", "half"), [(73, 30), (36, 10), (80, 40), (50, 20), (19, 0),
                                         (120, 60), (0, 0), (-30, -20)])
def test_210_G6_halve_then_round_down_to_ten(n: int, half: int) -> None:
    assert occ.halve_to_ten(n) == half


# --- 210 H, I, J --------------------------------------------------------------------------


def test_210_H_only_heroes_and_each_once() -> None:
    with pytest.raises(ValueError, match="twice"):
        run("E", 1, 11, [land(1, 10), land(1, 10)])


def test_210_I_only_in_the_causing_gods_area() -> None:
    assert occ.allowed("E", "greece", "greece")
    assert not occ.allowed("E", "greece", "egypt")
    assert occ.allowed("E", "greece", "egypt", god_card_elsewhere=True)


def test_210_J_god_off_the_board_causes_nothing() -> None:
    for code in occ.CODES:
        assert not occ.allowed(code, None, "greece")
        assert not occ.allowed(code, "", "greece")
        assert not occ.allowed(code, None, "greece", god_card_elsewhere=True)


# --- 214 B Hercules ------------------------------------------------------------------------


HERCULES = 6  # data/heroes.toml


def hercules(defense: int = 30) -> Target:
    return Target(HERCULES, defense, on_land=True, on_ship=False, hercules=True)


def test_214_B_hercules_defense_120_whatever_his_counter() -> None:
    # 10 points, roll 16: 116 kills a printed Defense 30 but not Hercules' 120.
    spared = run("E", 10, 16, [hercules(30), land(2, 115)])
    assert spared.killed == (2,)
    assert spared.glory == 0
    assert occ.occurrence_defense(hercules(200)) == 120  # not higher either


def test_214_B_hercules_killed_loses_10_glory() -> None:
    result = run("E", 10, 21, [hercules(), land(2, 30)])
    assert result.total == 121
    assert result.killed == (HERCULES, 2)
    assert result.glory == -10
    # Reported as "hercules-slain": the Glory itself is booked by the caller, once, as a
    # "glory" event naming the player (tests/mythology/test_turn.py).
    slain = [e for e in result.events if e["type"] == "hercules-slain"]
    assert [(e["delta"], e["rule"]) for e in slain] == [(-10, "214 B")]
    assert not [e for e in result.events if e["type"] == "glory"]


def test_214_B_hercules_not_killed_no_glory_loss_by_pestilence_or_famine() -> None:
    pe = run("Pe", 5, 21, [hercules()])  # 121 >= 120
    fa = run("F", 10, 21, [hercules()])
    assert pe.immobilised == (HERCULES,) and pe.killed == () and pe.glory == 0
    assert fa.famished == (HERCULES,) and fa.glory == 0
    assert run("Pe", 5, 16, [hercules()]).immobilised == ()  # 116 < 120


def test_214_B_hercules_plague_and_tempest() -> None:
    assert run("P", 5, 21, [hercules()]).glory == -10
    at_sea = Target(HERCULES, 30, on_land=False, on_ship=True, hercules=True)
    assert run("T", 10, 16, [at_sea]).killed == ()
    assert run("T", 10, 21, [at_sea]).glory == -10


# --- events ---------------------------------------------------------------------------------


def test_events_are_toml_writable_without_none_or_floats() -> None:
    result = run("E", 10, 21, [hercules(), land(2, 30), ship(3, 10)])
    for event in result.events:
        assert {"type", "text"} <= set(event)
        assert all(v is not None and not isinstance(v, float) for v in event.values())
    tomli_w.dumps({"event": list(result.events)})

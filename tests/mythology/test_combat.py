"""Mythology combat (205, 206, 207 A 1, 210 G 6, 211 E, 214 A): pbem.games.mythology.combat.

Rolls come from fixed ``Stream`` keys. Where a test needs a particular roll it searches a small
range of keys for one, and asserts on the values found; since a roll depends only on the key, the
draw index and the label, a roll found once can be reused with other unit numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pbem.core.dice import Stream
from pbem.games.mythology.combat import (
    CombatResult,
    Fighter,
    effective,
    famine_halve,
    remorse,
    resolve,
)

LABEL = "t1/combat"
KEY = b"mythology-combat-fixed"


def hero(unit: int, attack: int, defense: int, magic: int | None = None, **kw: Any) -> Fighter:
    return Fighter(unit, "hero", attack, defense, magic, **kw)


def monster(unit: int, attack: int, defense: int, magic: int | None = None) -> Fighter:
    return Fighter(unit, "monster", attack, defense, magic)


def keys(n: int = 4000) -> Iterator[bytes]:
    for i in range(n):
        yield f"mythology-combat-{i}".encode()


def find(
    run: Callable[[Stream], CombatResult], want: Callable[[CombatResult], bool]
) -> tuple[bytes, CombatResult, Stream]:
    """The first key in :func:`keys` whose combat satisfies ``want``."""
    for key in keys():
        stream = Stream(key)
        result = run(stream)
        if want(result):
            return key, result, stream
    pytest.fail("no key in the search range gives the wanted rolls")


def rolls(result: CombatResult, kind: str = "roll") -> list[dict[str, Any]]:
    return [e for e in result.events if e["type"] == kind]


def first_roll(label: str, key: bytes = KEY) -> int:
    """The two-digit roll the first draw of ``key`` gives under ``label``."""
    return Stream(key).two_digit(label)


def check_events(result: CombatResult, stream: Stream) -> None:
    """Every draw is listed in a roll event with its label and value; no None, no floats."""
    listed: list[tuple[str, int]] = []
    for event in result.events:
        assert isinstance(event["type"], str) and isinstance(event["text"], str)
        for value in event.values():
            assert value is not None and not isinstance(value, float)
        if event["type"] in ("roll", "magic_roll", "remorse"):
            assert event["roll"] == 10 * event["red"] + event["white"]
            listed += [
                (event["label"] + "/red", event["red"]),
                (event["label"] + "/white", event["white"]),
            ]
    assert listed == [(d.label, d.value) for d in stream.draws]


# --- 003 B / 206 D 1-3 ---------------------------------------------------------------------


def test_206_D2_red5_white6_plus_attack30_is_86() -> None:
    # Hero 1 (Attack 30) against Hero 2 (Defense 86): the rulebook's "56" + 30 = 86 kills,
    # since 86 is equal to the Defense (206 D 3).
    def run(s: Stream) -> CombatResult:
        return resolve(hero(1, 30, 70), hero(2, 10, 86), s, LABEL)

    _, result, stream = find(run, lambda r: rolls(r)[0]["roll"] == 56)
    first = rolls(result)[0]
    assert (first["unit"], first["red"], first["white"], first["roll"]) == (1, 5, 6, 56)
    assert (first["attack"], first["total"], first["defense"], first["success"]) == (
        30,
        86,
        86,
        True,
    )
    # 003 B: the red die is drawn first and read as the tens.
    assert (stream.draws[0].label, stream.draws[0].value) == (f"{LABEL}/r1/1/red", 5)
    assert (stream.draws[1].label, stream.draws[1].value) == (f"{LABEL}/r1/1/white", 6)
    assert 2 in result.killed
    check_events(result, stream)


def test_206_D3_total_one_below_defense_does_not_kill() -> None:
    # Same key, same first roll 56 + 30 = 86, now against Defense 87: a miss.
    def run(s: Stream) -> CombatResult:
        return resolve(hero(1, 30, 70), hero(2, 10, 86), s, LABEL)

    key, _, _ = find(run, lambda r: rolls(r)[0]["roll"] == 56)
    result = resolve(hero(1, 30, 70), hero(2, 10, 87), Stream(key), LABEL)
    first = rolls(result)[0]
    assert (first["roll"], first["total"], first["success"]) == (56, 86, False)


def test_206_D4_both_units_die() -> None:
    def run(s: Stream) -> CombatResult:
        return resolve(hero(1, 20, 70), hero(2, 20, 70), s, LABEL)

    _, result, stream = find(run, lambda r: r.rounds == 1 and len(r.killed) == 2)
    assert result.rounds == 1
    assert result.killed == (1, 2)
    assert [e["success"] for e in rolls(result)] == [True, True]
    assert not result.stalemate and result.attacker_glory == 0
    assert any(e["type"] == "both_killed" for e in result.events)
    check_events(result, stream)


def test_206_D5_rounds_repeat_until_a_unit_dies() -> None:
    def run(s: Stream) -> CombatResult:
        return resolve(hero(1, 0, 60), hero(2, 0, 60), s, LABEL)

    _, result, stream = find(run, lambda r: r.rounds >= 3)
    events = rolls(result)
    assert len(events) == 2 * result.rounds
    assert len(stream.draws) == 4 * result.rounds
    for event in events[:-2]:
        assert event["success"] is False
    assert any(e["success"] for e in events[-2:])
    assert [e["round"] for e in events] == [n for n in range(1, result.rounds + 1) for _ in (1, 2)]
    assert [e["unit"] for e in events[:2]] == [1, 2]  # the attacker rolls first
    assert events[2]["label"] == f"{LABEL}/r2/1"
    assert 1 <= len(result.killed) <= 2
    check_events(result, stream)


def test_205_F_monster_attacks_hero_both_roll() -> None:
    stream = Stream(KEY)
    result = resolve(monster(40, 20, 70), hero(3, 20, 70), stream, LABEL)
    assert [e["unit"] for e in rolls(result)[:2]] == [40, 3]
    assert result.killed
    check_events(result, stream)


def test_205_E_hero_attacks_hero_both_roll() -> None:
    stream = Stream(KEY)
    result = resolve(hero(5, 20, 70), hero(3, 20, 70), stream, LABEL)
    assert [e["unit"] for e in rolls(result)[:2]] == [5, 3]
    check_events(result, stream)


# --- 206 D 6 / D 7 -------------------------------------------------------------------------


def test_206_D6_defender_that_cannot_hurt_is_removed_without_roll() -> None:
    # The attacker can reach 66 (66 + 0 >= 66); the defender never can (66 + 0 < 67).
    stream = Stream(KEY)
    result = resolve(hero(1, 0, 67), hero(2, 0, 66), stream, LABEL)
    assert result.killed == (2,)
    assert stream.draws == []
    assert result.rounds == 0 and not result.stalemate and result.attacker_glory == 0
    assert [e["rule"] for e in result.events if e["type"] == "auto"] == ["206 D 6"]


def test_206_D6_attacker_that_cannot_hurt_is_removed_without_roll() -> None:
    stream = Stream(KEY)
    result = resolve(monster(40, 0, 50), hero(2, 40, 200), stream, LABEL)
    assert result.killed == (40,)
    assert stream.draws == []


def test_206_D6_sure_killer_still_rolls_when_other_can_kill() -> None:
    # Attacker always kills (11 + 60 >= 70), the defender needs 50+: both roll, one round,
    # and the defender's success takes the attacker with it (206 D 4), not a D 6 walkover.
    def run(s: Stream) -> CombatResult:
        return resolve(hero(1, 60, 100), hero(2, 50, 70), s, LABEL)

    for key in list(keys(20)):
        stream = Stream(key)
        result = run(stream)
        assert result.rounds == 1 and len(stream.draws) == 4 and 2 in result.killed
    _, result, _ = find(run, lambda r: r.killed == (1, 2))
    assert [e["success"] for e in rolls(result)] == [True, True]


def test_206_D7_stalemate_attacker_loses_one_glory() -> None:
    stream = Stream(KEY)
    result = resolve(hero(1, 0, 67), hero(2, 0, 67), stream, LABEL)
    assert result.stalemate is True
    assert result.attacker_glory == -1
    assert result.killed == ()
    assert result.rounds == 0
    assert stream.draws == []
    assert [e["type"] for e in result.events] == ["combat", "stalemate"]


def test_206_D7_monster_attacker_stalemate() -> None:
    stream = Stream(KEY)
    result = resolve(monster(33, 10, 90), hero(2, 10, 90), stream, LABEL)
    assert (result.stalemate, result.attacker_glory, result.killed) == (True, -1, ())
    assert stream.draws == []


# --- 205 G: Hero attacks Monster -------------------------------------------------------------


def _hero_vs_monster(s: Stream) -> CombatResult:
    # The Monster could never hurt the Hero (66 + 0 < 200); under 205 G that does not matter:
    # the Hero still rolls, and dies if the roll is not enough.
    return resolve(hero(7, 20, 200), monster(50, 0, 70), s, LABEL)


def test_205_G_hero_attacks_monster_single_roll_success() -> None:
    _, result, stream = find(_hero_vs_monster, lambda r: r.killed == (50,))
    (event,) = rolls(result)
    assert event["unit"] == 7 and event["roll"] + 20 >= 70 and event["success"] is True
    assert len(stream.draws) == 2 and result.rounds == 1
    check_events(result, stream)


def test_205_G_hero_attacks_monster_single_roll_failure_kills_hero() -> None:
    _, result, stream = find(_hero_vs_monster, lambda r: r.killed == (7,))
    (event,) = rolls(result)
    assert event["roll"] + 20 < 70 and event["success"] is False
    assert len(stream.draws) == 2 and result.rounds == 1  # no second round (206 D 5)
    assert not result.stalemate
    check_events(result, stream)


def test_205_G_206_D6_hero_who_cannot_succeed_dies_without_roll() -> None:
    stream = Stream(KEY)
    result = resolve(hero(7, 0, 200), monster(50, 0, 67), stream, LABEL)
    assert result.killed == (7,) and stream.draws == [] and not result.stalemate


def test_205_G_206_D6_hero_who_cannot_fail_kills_without_roll() -> None:
    stream = Stream(KEY)
    result = resolve(hero(7, 60, 10), monster(50, 90, 71), stream, LABEL)
    assert result.killed == (50,) and stream.draws == []
    # One point more Defense and an 11 would fail: the Hero must roll.
    stream = Stream(KEY)
    result = resolve(hero(7, 60, 10), monster(50, 90, 72), stream, LABEL)
    assert len(stream.draws) == 2 and result.rounds == 1


# --- 206 E: Magical Combat ---------------------------------------------------------------------


def test_206_E1_magic_unit_that_does_not_elect_fights_normally() -> None:
    stream = Stream(KEY)
    result = resolve(hero(1, 20, 70, magic=40), hero(2, 20, 70), stream, LABEL)
    assert result.magical is False
    assert rolls(result, "magic_roll") == []
    assert rolls(result)[0]["label"] == f"{LABEL}/r1/1"


def test_206_E1_E4_elected_magic_only_magic_side_rolls_once() -> None:
    stream = Stream(KEY)
    result = resolve(
        hero(1, 20, 70, magic=40), hero(2, 20, 70), stream, LABEL, attacker_elects_magic=True
    )
    assert result.magical is True and result.rounds == 1
    (event,) = rolls(result, "magic_roll")
    assert event["unit"] == 1 and event["label"] == f"{LABEL}/magic/1"
    assert len(stream.draws) == 2
    assert result.killed == ((2,) if event["roll"] <= 40 else (1,))
    check_events(result, stream)


def test_206_E3b_roll_equal_to_magic_kills_opponent() -> None:
    r = first_roll(f"{LABEL}/magic/1")
    result = resolve(
        hero(1, 0, 10, magic=r), monster(40, 0, 10), Stream(KEY), LABEL, attacker_elects_magic=True
    )
    assert result.killed == (40,)
    assert rolls(result, "magic_roll")[0]["roll"] == r


def test_206_E3c_roll_greater_than_magic_kills_the_magic_unit() -> None:
    r = first_roll(f"{LABEL}/magic/1")
    result = resolve(
        hero(1, 0, 10, magic=r - 1),
        monster(40, 0, 10),
        Stream(KEY),
        LABEL,
        attacker_elects_magic=True,
    )
    assert result.killed == (1,)


def test_206_E3a_E4_defender_with_magic_rolls_alone() -> None:
    r = first_roll(f"{LABEL}/magic/40")
    stream = Stream(KEY)
    result = resolve(
        hero(1, 90, 10), monster(40, 0, 200, magic=r), stream, LABEL, defender_elects_magic=True
    )
    assert result.magical and result.killed == (1,)
    assert {d.label for d in stream.draws} == {f"{LABEL}/magic/40/red", f"{LABEL}/magic/40/white"}


def test_206_C_electing_magic_without_magical_ability_is_an_error() -> None:
    stream = Stream(KEY)
    with pytest.raises(ValueError, match="206 C"):
        resolve(
            hero(1, 20, 70), hero(2, 20, 70, magic=40), stream, LABEL, attacker_elects_magic=True
        )
    assert stream.draws == []


def test_206_E2_E5_both_magic_always_magical_both_roll_once() -> None:
    stream = Stream(KEY)
    result = resolve(hero(1, 20, 70, magic=30), monster(40, 20, 70, magic=30), stream, LABEL)
    assert result.magical is True and result.rounds == 1
    assert [e["unit"] for e in rolls(result, "magic_roll")] == [1, 40]
    assert len(stream.draws) == 4
    assert result.killed  # 206 E 6: one roll each decides; never a stalemate
    check_events(result, stream)


@pytest.mark.parametrize(
    ("a_succeeds", "d_succeeds", "killed"),
    [(True, True, (1, 40)), (False, False, (1, 40)), (True, False, (40,)), (False, True, (1,))],
)
def test_206_E5_E6_both_magic_outcomes(
    a_succeeds: bool, d_succeeds: bool, killed: tuple[int, ...]
) -> None:
    # Rolls are fixed by key and label: the attacker's is drawn first, the defender's second.
    probe = Stream(KEY)
    r_a = probe.two_digit(f"{LABEL}/magic/1")
    r_d = probe.two_digit(f"{LABEL}/magic/40")
    a = hero(1, 0, 10, magic=r_a if a_succeeds else r_a - 1)
    d = monster(40, 0, 10, magic=r_d if d_succeeds else r_d - 1)
    result = resolve(a, d, Stream(KEY), LABEL)
    assert [e["success"] for e in rolls(result, "magic_roll")] == [a_succeeds, d_succeeds]
    assert result.killed == killed


# --- 211 E: Hero Helpers --------------------------------------------------------------------

#: The Helmet of Invisibility as (attack, defense, magic penalty); with Zestes' base numbers
#: below it gives the rulebook's totals (211 E: Defense 73, Attack 30, +20 against magic).
HELMET = (0, 20, 20)
ZESTES_BASE = (30, 53, None)


def test_211_E_zestes_helmet_gives_73_30_and_plus_20() -> None:
    assert effective(*ZESTES_BASE, helpers=[HELMET]) == (30, 73, None, 20)


def test_211_E_magic_attacker_adds_helmet_20_to_roll() -> None:
    attack, defense, magic, penalty = effective(*ZESTES_BASE, helpers=[HELMET])
    r = first_roll(f"{LABEL}/magic/40")
    zestes = hero(15, attack, defense, magic, magic_penalty=penalty)
    # The bare roll would succeed against r + 19; with the Helmet's +20 it fails.
    result = resolve(
        monster(40, 0, 10, magic=r + 19), zestes, Stream(KEY), LABEL, attacker_elects_magic=True
    )
    event = rolls(result, "magic_roll")[0]
    assert (event["roll"], event["penalty"], event["total"]) == (r, 20, r + 20)
    assert result.killed == (40,)
    result = resolve(
        monster(40, 0, 10, magic=r + 20), zestes, Stream(KEY), LABEL, attacker_elects_magic=True
    )
    assert result.killed == (15,)


def test_211_E_helmet_penalty_applies_when_zestes_is_attacker_against_magic_defender() -> None:
    attack, defense, magic, penalty = effective(*ZESTES_BASE, helpers=[HELMET])
    r = first_roll(f"{LABEL}/magic/40")
    zestes = hero(15, attack, defense, magic, magic_penalty=penalty)
    result = resolve(
        zestes, monster(40, 0, 10, magic=r + 19), Stream(KEY), LABEL, defender_elects_magic=True
    )
    assert result.killed == (40,)


def test_211_E_helper_defense_used_in_normal_combat() -> None:
    # With the Helmet, Defense 73: an attacker needing 74 - attack must reach 73 exactly.
    attack, defense, _, _ = effective(*ZESTES_BASE, helpers=[HELMET])
    r = first_roll(f"{LABEL}/r1/2")
    result = resolve(hero(2, 73 - r, 70), hero(15, attack, defense), Stream(KEY), LABEL)
    assert rolls(result)[0]["total"] == 73 and 15 in result.killed


def test_211_E_helpers_may_subtract_and_accumulate() -> None:
    assert effective(40, 50, 20, helpers=[(10, -5, 0), (-20, 15, 10)]) == (30, 60, 20, 10)


# --- 207 A 1 / 210 G 6: modifiers ------------------------------------------------------------


def test_207_A1_aid_adds_ten_per_point_to_attack_only() -> None:
    assert effective(30, 60, None, aid=2) == (50, 60, None, 0)


def test_207_A1_ailment_subtracts_ten_per_point_from_attack_only() -> None:
    assert effective(30, 60, 25, ailment=3) == (0, 60, 25, 0)
    assert effective(30, 60, None, aid=2, ailment=1) == (40, 60, None, 0)


def test_207_A1_negative_points_are_an_error() -> None:
    with pytest.raises(ValueError):
        effective(30, 60, None, aid=-1)


def test_210_G6_famine_halves_rounding_down_to_the_ten() -> None:
    assert famine_halve(73) == 30  # 36.5 -> 30
    assert famine_halve(30) == 10  # 15 -> 10
    assert famine_halve(80) == 40
    assert famine_halve(79) == 30  # 39.5 -> 30
    assert famine_halve(19) == 0
    assert famine_halve(-30) == -20  # -15 rounded down
    assert effective(30, 73, 40, famine=True) == (10, 30, 40, 0)


def test_210_G6_famine_halves_after_aid_and_helpers() -> None:
    # Attack 25 + Aid 10 = 35 -> 17.5 -> 10 (halving first would give 10 + 10 = 20);
    # Defense 53 + Helmet 20 = 73 -> 30 (halving first would give 20 + 20 = 40).
    assert effective(25, 53, None, aid=1, helpers=[HELMET], famine=True) == (10, 30, None, 20)


# --- 214 A: Hercules -------------------------------------------------------------------------


@pytest.mark.parametrize("hercules_attacks", [True, False])
def test_214_A1_hercules_wins_normal_combat_against_hero_without_dice(
    hercules_attacks: bool,
) -> None:
    # Numbers under which anyone else would lose at once (206 D 6) still give Hercules the win.
    herc = hero(20, 0, 10, hercules=True)
    other = hero(4, 90, 200)
    a, d = (herc, other) if hercules_attacks else (other, herc)
    stream = Stream(KEY)
    result = resolve(a, d, stream, LABEL)
    assert result.killed == (4,)
    assert stream.draws == []
    assert (result.rounds, result.stalemate, result.attacker_glory) == (0, False, 0)
    assert [e["rule"] for e in result.events if e["type"] == "auto"] == ["214 A 1"]


@pytest.mark.parametrize("hercules_attacks", [True, False])
def test_214_A1_hercules_wins_normal_combat_against_monster_without_dice(
    hercules_attacks: bool,
) -> None:
    herc = hero(20, 0, 10, hercules=True)
    beast = monster(45, 90, 200)
    a, d = (herc, beast) if hercules_attacks else (beast, herc)
    stream = Stream(KEY)
    result = resolve(a, d, stream, LABEL)
    assert result.killed == (45,) and stream.draws == []


def test_214_A1_no_stalemate_for_hercules() -> None:
    stream = Stream(KEY)
    result = resolve(hero(20, 0, 200, hercules=True), hero(4, 0, 200), stream, LABEL)
    assert result.killed == (4,) and not result.stalemate and result.attacker_glory == 0


def test_214_A1_magic_opponent_that_does_not_elect_loses_to_hercules() -> None:
    stream = Stream(KEY)
    result = resolve(monster(45, 0, 10, magic=66), hero(20, 0, 10, hercules=True), stream, LABEL)
    assert result.killed == (45,) and not result.magical and stream.draws == []


def test_214_A2_hercules_killed_in_magical_combat() -> None:
    r = first_roll(f"{LABEL}/magic/45")
    stream = Stream(KEY)
    result = resolve(
        monster(45, 0, 10, magic=r),
        hero(20, 90, 200, hercules=True),
        stream,
        LABEL,
        attacker_elects_magic=True,
    )
    assert result.magical and result.killed == (20,)
    assert len(stream.draws) == 2
    # ... and the magic fails "in the normal manner" too.
    result = resolve(
        monster(45, 0, 10, magic=r - 1),
        hero(20, 0, 10, hercules=True),
        Stream(KEY),
        LABEL,
        attacker_elects_magic=True,
    )
    assert result.killed == (45,)


def test_214_A3a_remorse_only_when_roll_less_than_attack() -> None:
    r = first_roll(f"{LABEL}/remorse")
    filled, event = remorse(r, Stream(KEY), LABEL)
    assert filled is False and event["roll"] == r and event["remorse"] is False
    filled, event = remorse(r + 1, Stream(KEY), LABEL)
    assert filled is True and event["attack"] == r + 1
    stream = Stream(KEY)
    remorse(r, stream, LABEL)
    assert [d.label for d in stream.draws] == [f"{LABEL}/remorse/red", f"{LABEL}/remorse/white"]
    assert (event["red"], event["white"]) == (r // 10, r % 10)


# --- 205 C and caller errors -------------------------------------------------------------------


def test_205_C_monster_against_monster_is_an_error() -> None:
    stream = Stream(KEY)
    with pytest.raises(ValueError, match="205 C"):
        resolve(monster(33, 20, 70), monster(34, 20, 70), stream, LABEL)
    assert stream.draws == []


def test_fighter_rejects_inconsistent_units() -> None:
    with pytest.raises(ValueError):
        Fighter(5, "monster", 0, 0, None)
    with pytest.raises(ValueError):
        Fighter(40, "hero", 0, 0, None)
    with pytest.raises(ValueError):
        Fighter(40, "monster", 0, 0, None, hercules=True)
    with pytest.raises(ValueError):
        Fighter(1, "god", 0, 0, None)
    with pytest.raises(ValueError):
        resolve(hero(1, 0, 0), hero(1, 0, 0), Stream(KEY), LABEL)


def test_label_with_space_is_rejected_before_any_draw() -> None:
    stream = Stream(KEY)
    with pytest.raises(ValueError):
        resolve(hero(1, 0, 67), hero(2, 0, 67), stream, "bad label")
    with pytest.raises(ValueError):
        remorse(30, stream, "")
    assert stream.draws == []


# --- determinism and the event listing ------------------------------------------------------


def test_same_key_gives_same_result() -> None:
    def run(key: bytes) -> tuple[CombatResult, list[Any]]:
        stream = Stream(key)
        return resolve(hero(1, 0, 60), hero(2, 0, 60), stream, LABEL), stream.draws

    first, draws = run(KEY)
    again, draws_again = run(KEY)
    assert first == again and draws == draws_again
    others = [run(k)[0].events for k in keys(10)]
    assert any(events != first.events for events in others)


def test_events_list_every_draw_and_hold_no_none_or_float() -> None:
    cases: list[tuple[Fighter, Fighter, dict[str, bool]]] = [
        (hero(1, 0, 60), hero(2, 0, 60), {}),
        (hero(1, 20, 70), monster(40, 0, 70), {}),
        (
            hero(1, 0, 10, magic=40),
            hero(2, 0, 10, magic_penalty=10),
            {"attacker_elects_magic": True},
        ),
        (hero(1, 0, 10, magic=40), monster(40, 0, 10, magic=30), {}),
        (hero(1, 0, 67), hero(2, 0, 67), {}),
        (hero(20, 0, 67, hercules=True), hero(2, 0, 67), {}),
    ]
    for key in keys(15):
        for a, d, kw in cases:
            stream = Stream(key)
            check_events(resolve(a, d, stream, LABEL, **kw), stream)

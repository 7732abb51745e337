"""Cyclades battle (seed Battle 1-2, Forgotten 8, Misc Heroes/Titans/Egyptians/Necropolis):
pbem.games.cyclades.battle.

Dice come from real ``Stream`` keys. Where a test needs particular faces, :func:`find_key`
searches a small range of keys, replaying the draws ``fight`` makes (attacker then defender each
round, labels ``battle/<where>/r<n>/<side>``) on a fresh stream; a face depends only on the key,
the draw index and the label, so the faces found are the faces the battle rolls.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.dice import CYCLADES_COMBAT_DIE, Stream
from pbem.core.errors import ProblemsError
from pbem.games.cyclades.battle import (
    ATTACKER,
    DEFAULT_LAND_ORDER,
    DEFENDER,
    EGYPTIAN,
    FLEET,
    HERO,
    NEVER_RETREAT,
    TITAN,
    TROOP,
    UNDEAD,
    UNDEAD_FLEET,
    BattleResult,
    RetreatRule,
    Side,
    Unit,
    choose_casualty,
    complete_order,
    fight,
    parse_casualty_order,
    parse_retreat,
    strength,
)
from tests.budget import examples

Faces = list[tuple[int, int]]


def rolled(key: bytes, where: str, rounds: int) -> Faces:
    """The (attacker, defender) faces of the first ``rounds`` rounds a battle at ``where``
    would roll with ``key``."""
    s = Stream(key=key)
    return [(s.faces(CYCLADES_COMBAT_DIE, f"battle/{where}/r{r}/attacker"),
             s.faces(CYCLADES_COMBAT_DIE, f"battle/{where}/r{r}/defender"))
            for r in range(1, rounds + 1)]


def find_key(where: str, rounds: int, ok: Callable[[Faces], bool]) -> bytes:
    for i in range(5000):
        key = f"cyclades-battle-{i}".encode()
        if ok(rolled(key, where, rounds)):
            return key
    raise AssertionError("no key found")


def troops(prefix: str, n: int, kind: str = TROOP) -> list[Unit]:
    return [Unit(kind, f"{prefix}-{kind}-{i}") for i in range(1, n + 1)]


def side(player: str, units: list[Unit], **kw: Any) -> Side:
    return Side(player, units, **kw)


def plain(value: object) -> bool:
    """Only str, int, bool, lists and dicts with str keys: what the TOML ledger stores (no
    None, no float)."""
    if isinstance(value, str | int | bool):
        return True
    if isinstance(value, list):
        return all(plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v) for k, v in value.items())
    return False


# --- Battle 1: rolls, totals, casualties ---------------------------------------------------


def test_battle_1_tie_both_lose_a_troop() -> None:
    # Round 1 faces equal (3 troops each, no buildings): totals equal, a tie.
    key = find_key("naxos", 1, lambda f: f[0][0] == f[0][1])
    a, d = rolled(key, "naxos", 1)[0]
    assert a == d
    r = fight("naxos", False, side("red", troops("r", 3)), side("blue", troops("b", 3)),
              Stream(key=key))
    first = r.rounds[0]
    assert first.result == "tie"
    assert first.totals == {ATTACKER: a + 3, DEFENDER: d + 3}
    assert [(s, u.kind) for s, u in first.casualties] == [(ATTACKER, TROOP), (DEFENDER, TROOP)]


def test_battle_1_higher_total_wins_and_only_the_loser_loses() -> None:
    # Round 1: attacker rolls 3, defender rolls 0; 2 troops each: 5 against 2.
    key = find_key("paros", 1, lambda f: f[0] == (3, 0))
    r = fight("paros", False, side("red", troops("r", 2)), side("blue", troops("b", 2)),
              Stream(key=key))
    first = r.rounds[0]
    assert first.totals == {ATTACKER: 5, DEFENDER: 2}
    assert first.result == ATTACKER
    assert [s for s, _ in first.casualties] == [DEFENDER]


def test_battle_1_1_fortress_and_metropolis_stack_for_the_land_defender() -> None:
    blue = side("blue", troops("b", 2))
    total, parts = strength(blue, False, defending=True, fortresses=2, metropolises=1)
    assert total == 2 + 2 + 1  # 2 troops, +1 per Fortress (2), +1 per Metropolis
    assert parts == [(TROOP, 2), ("fortress", 2), ("metropolis", 1)]
    r = fight("naxos", False, side("red", troops("r", 6)), blue, Stream(key=b"fortress"),
              fortresses=2, metropolises=1)
    first = r.rounds[0]
    assert first.breakdowns[DEFENDER] == [("die", first.dice[DEFENDER]), (TROOP, 2),
                                          ("fortress", 2), ("metropolis", 1)]
    assert first.totals[DEFENDER] == first.dice[DEFENDER] + 5


def test_battle_1_1_buildings_never_help_the_attacker() -> None:
    red = side("red", troops("r", 2))
    assert strength(red, False, fortresses=3, metropolises=1) == (2, [(TROOP, 2)])
    r = fight("naxos", False, red, side("blue", troops("b", 2)), Stream(key=b"attacker"),
              fortresses=3, metropolises=1)
    for rnd in r.rounds:
        names = [name for name, _ in rnd.breakdowns[ATTACKER]]
        assert "fortress" not in names and "metropolis" not in names


def test_battle_1_1_fortress_and_metropolis_do_not_count_at_sea() -> None:
    fleets = side("blue", troops("b", 2, FLEET))
    assert strength(fleets, True, defending=True, fortresses=2, metropolises=1) == (
        2, [(FLEET, 2)])


def test_battle_1_2_ports_add_one_each_for_the_sea_defender_only() -> None:
    fleets = side("blue", troops("b", 2, FLEET))
    assert strength(fleets, True, defending=True, ports=2) == (4, [(FLEET, 2), ("port", 2)])
    assert strength(fleets, True, defending=False, ports=2) == (2, [(FLEET, 2)])  # attacker
    land = side("blue", troops("b", 2))
    assert strength(land, False, defending=True, ports=2) == (2, [(TROOP, 2)])  # land
    r = fight("sea-7", True, side("red", troops("r", 2, FLEET)), fleets, Stream(key=b"ports"),
              ports=2)
    first = r.rounds[0]
    assert first.totals[DEFENDER] == first.dice[DEFENDER] + 4
    assert first.totals[ATTACKER] == first.dice[ATTACKER] + 2


def test_misc_heroes_titans_egyptians_count_one_troop_each() -> None:
    # Misc Artifacts and Heroes 4, Misc Titans 1, Misc Egyptian Reinforcements 2.
    units = [Unit(TROOP, "t"), Unit(HERO, "achilles"), Unit(TITAN, "titan-1"),
             Unit(EGYPTIAN, "sphinx")]
    total, parts = strength(side("red", units), False)
    assert total == 4
    assert dict(parts) == {TROOP: 1, HERO: 1, TITAN: 1, EGYPTIAN: 1}


def test_cycle_9_undead_troops_and_fleets_count_in_battle() -> None:
    land = side("hades", [*troops("h", 1), *troops("h", 2, UNDEAD)])
    assert strength(land, False)[0] == 3
    sea = side("hades", [*troops("h", 1, FLEET), *troops("h", 2, UNDEAD_FLEET)])
    assert strength(sea, True)[0] == 3


def test_battle_1_named_bonuses_are_added_every_round() -> None:
    red = side("red", troops("r", 2), bonuses=[("minotaur", 1), ("curse", -1)])
    assert strength(red, False) == (2, [(TROOP, 2), ("minotaur", 1), ("curse", -1)])
    r = fight("naxos", False, red, side("blue", troops("b", 3)), Stream(key=b"bonus"))
    for rnd in r.rounds:
        assert ("minotaur", 1) in rnd.breakdowns[ATTACKER]


# --- casualties and the Necropolis --------------------------------------------------------


def test_battle_1_casualty_order_is_the_owners_choice() -> None:
    units = [Unit(TROOP, "t1"), Unit(HERO, "h1"), Unit(UNDEAD, "u1"), Unit(TITAN, "ti")]
    order = complete_order([HERO, TITAN], sea=False)
    assert order == (HERO, TITAN, UNDEAD, TROOP, EGYPTIAN)  # rest in the default order
    assert choose_casualty(units, order) == Unit(HERO, "h1")
    assert choose_casualty(units, complete_order((), False)) == Unit(UNDEAD, "u1")
    assert DEFAULT_LAND_ORDER == (UNDEAD, TROOP, EGYPTIAN, HERO, TITAN)
    # In a battle fought to the end by a 3-unit defender against 8 troops, the defender's
    # losses follow its order exactly, whatever the dice.
    defender = side("blue", [Unit(TROOP, "bt"), Unit(HERO, "bh"), Unit(TITAN, "bx")],
                    casualty_order=(TITAN, HERO))
    r = fight("naxos", False, side("red", troops("r", 8)), defender, Stream(key=b"order"))
    assert r.winner == ATTACKER
    assert [u.id for u in r.losses[DEFENDER]] == ["bx", "bh", "bt"]


def test_misc_necropolis_2_regular_troops_reported_separately() -> None:
    # 8 attacking troops against a hero, an undead and an Egyptian: all three die, none is a
    # regular Troop, so the defender's losses put no gold on a Necropolis.
    defender = side("hades", [Unit(HERO, "h"), Unit(UNDEAD, "u"), Unit(EGYPTIAN, "e")])
    r = fight("naxos", False, side("red", troops("r", 8)), defender, Stream(key=b"necro"))
    assert {u.kind for u in r.losses[DEFENDER]} == {HERO, UNDEAD, EGYPTIAN}
    lost = r.regular_troops_lost()
    assert lost[DEFENDER] == 0
    assert lost[ATTACKER] == sum(1 for u in r.losses[ATTACKER] if u.kind == TROOP)
    end = r.events()[-1]
    assert end["regular_troops_lost"] == lost


# --- Battle 2: retreats ------------------------------------------------------------------


def test_battle_2_attacker_retreat_is_checked_before_the_defenders() -> None:
    rule = RetreatRule("after_rounds", 1)
    r = fight("naxos", False,
              side("red", troops("r", 4), retreat=rule, can_retreat=True),
              side("blue", troops("b", 4), retreat=rule, can_retreat=True),
              Stream(key=b"both-retreat"))
    assert len(r.rounds) == 1  # 4 units each: both survive round 1
    assert r.retreated == ATTACKER and r.rounds[0].retreat == ATTACKER
    assert r.winner == DEFENDER


def test_battle_2_defender_retreats_only_when_the_attacker_declines() -> None:
    rule = RetreatRule("after_rounds", 1)
    # The attacker's rule would retreat, but it has nowhere to go: it declines.
    r = fight("naxos", False,
              side("red", troops("r", 4), retreat=rule, can_retreat=False),
              side("blue", troops("b", 4), retreat=rule, can_retreat=True),
              Stream(key=b"def-retreat"))
    assert r.retreated == DEFENDER and r.winner == ATTACKER and len(r.rounds) == 1
    # The attacker may retreat but its order says never: the defender goes.
    r = fight("naxos", False,
              side("red", troops("r", 4), can_retreat=True),
              side("blue", troops("b", 4), retreat=rule, can_retreat=True),
              Stream(key=b"def-retreat"))
    assert r.retreated == DEFENDER and r.winner == ATTACKER


def test_battle_2_default_orders_never_retreat() -> None:
    r = fight("naxos", False, side("red", troops("r", 3), can_retreat=True),
              side("blue", troops("b", 3), can_retreat=True), Stream(key=b"default"))
    assert r.retreated is None
    assert not (r.survivors[ATTACKER] and r.survivors[DEFENDER])
    assert side("x", []).retreat == NEVER_RETREAT


def test_battle_2_retreat_at_most_units() -> None:
    rule = RetreatRule("at_most", 2)
    r = fight("naxos", False, side("red", troops("r", 5), retreat=rule, can_retreat=True),
              side("blue", troops("b", 6)), Stream(key=b"at-most"))
    assert r.retreated == ATTACKER
    left = 5
    for rnd in r.rounds:
        left -= sum(1 for s, _ in rnd.casualties if s == ATTACKER)
        assert (rnd.retreat == ATTACKER) == (left <= 2)
    assert len(r.survivors[ATTACKER]) <= 2


def test_battle_2_retreat_when_behind_by() -> None:
    rule = RetreatRule("behind", 2)
    assert rule.wants(mine=1, theirs=3, rounds=1) and not rule.wants(mine=2, theirs=3, rounds=9)
    r = fight("naxos", False, side("red", troops("r", 4)),
              side("blue", troops("b", 4), retreat=rule, can_retreat=True),
              Stream(key=b"behind-5"))
    assert r.retreated == DEFENDER and r.winner == ATTACKER  # this key puts blue 2 behind
    mine, theirs = 4, 4
    for rnd in r.rounds:
        mine -= sum(1 for s, _ in rnd.casualties if s == DEFENDER)
        theirs -= sum(1 for s, _ in rnd.casualties if s == ATTACKER)
        wants = mine > 0 and theirs > 0 and theirs - mine >= 2
        assert (rnd.retreat == DEFENDER) == wants


def test_battle_2_retreat_after_rounds() -> None:
    rule = RetreatRule("after_rounds", 2)
    assert not rule.wants(5, 5, rounds=1) and rule.wants(5, 5, rounds=2)
    r = fight("naxos", False, side("red", troops("r", 6), retreat=rule, can_retreat=True),
              side("blue", troops("b", 6)), Stream(key=b"rounds"))
    # 6 units each lose at most 2 in two rounds: both still stand, the attacker leaves.
    assert len(r.rounds) == 2 and r.retreated == ATTACKER and r.rounds[0].retreat is None


def test_battle_2_no_retreat_before_the_first_roll() -> None:
    # "at most 3 units" is already true before the battle; the rule is first checked after
    # round 1's casualties (Battle 2: "after the results and casualties of each die roll").
    r = fight("naxos", False,
              side("red", troops("r", 3), retreat=RetreatRule("at_most", 3), can_retreat=True),
              side("blue", troops("b", 3)), Stream(key=b"first"))
    # 3 units each survive round 1 (a round costs a side at most one unit): one roll, then
    # the rule applies.
    assert len(r.rounds) == 1 and r.rounds[0].retreat == ATTACKER


# --- Forgotten 8 and the double elimination ----------------------------------------------


def test_forgotten_8_fortress_without_troops_is_defenseless() -> None:
    stream = Stream(key=b"defenseless")
    r = fight("naxos", False, side("red", troops("r", 1)), side("blue", []), stream,
              fortresses=2, metropolises=1)
    assert r.defenseless and r.winner == ATTACKER and r.holder == ATTACKER
    assert r.rounds == [] and stream.draws == []  # no roll at all
    assert [e["type"] for e in r.events()] == ["battle", "defenseless", "battle_end"]


def test_battle_1_both_eliminated_in_one_tie_land_stays_with_defender() -> None:
    # Round 1 faces equal, one troop each: 1+a == 1+d, both lose their last troop.
    key = find_key("delos", 1, lambda f: f[0][0] == f[0][1])
    r = fight("delos", False, side("red", troops("r", 1)), side("blue", troops("b", 1)),
              Stream(key=key))
    assert len(r.rounds) == 1 and r.rounds[0].result == "tie"
    assert r.winner is None and r.retreated is None
    assert r.holder == DEFENDER  # base rules: the territory stays with the defender
    assert r.survivors == {ATTACKER: [], DEFENDER: []}
    assert "keeps delos without units" in r.transcript()[-1]


def test_battle_1_both_eliminated_at_sea_leaves_the_space_empty() -> None:
    key = find_key("sea-3", 1, lambda f: f[0][0] == f[0][1])
    r = fight("sea-3", True, side("red", troops("r", 1, FLEET)),
              side("blue", troops("b", 1, FLEET)), Stream(key=key))
    assert r.winner is None and r.holder is None


# --- standing-order validation --------------------------------------------------------------


def test_standing_orders_retreat_vocabulary_parses() -> None:
    w = "[orders.retreat]"
    assert parse_retreat(None, w) == NEVER_RETREAT
    assert parse_retreat({"when": "never"}, w) == NEVER_RETREAT
    assert parse_retreat({"when": "at_most", "units": 1}, w) == RetreatRule("at_most", 1)
    assert parse_retreat({"when": "behind", "by": 2}, w) == RetreatRule("behind", 2)
    assert parse_retreat({"when": "after_rounds", "rounds": 3}, w).as_dict() == {
        "when": "after_rounds", "rounds": 3}
    assert parse_retreat({"when": "at_most", "units": 1, "to": ["paros", "kea"]}, w) == \
        RetreatRule("at_most", 1, ("paros", "kea"))
    assert parse_retreat({"when": "never", "to": ["E5"]}, w).as_dict() == {
        "when": "never", "to": ["E5"]}


@pytest.mark.parametrize(("raw", "where", "words"), [
    ({}, "[orders.retreat] when", "missing"),
    ({"when": "sometimes"}, "[orders.retreat] when", "unknown value"),
    ({"when": "at_most"}, "[orders.retreat] units", "missing"),
    ({"when": "at_most", "units": True}, "[orders.retreat] units", "whole number"),
    ({"when": "at_most", "units": 1.5}, "[orders.retreat] units", "whole number"),
    ({"when": "behind", "by": 0}, "[orders.retreat] by", "at least 1"),
    ({"when": "never", "rounds": 2}, "[orders.retreat] rounds", "not used"),
    ({"when": "never", "colour": "red"}, "[orders.retreat] colour", "unknown key"),
    ({"when": "never", "to": "paros"}, "[orders.retreat] to", "must be a list of names"),
    ("never", "[orders.retreat]", "must be a table"),
])
def test_standing_orders_retreat_errors_name_the_key_and_the_fix(
        raw: object, where: str, words: str) -> None:
    with pytest.raises(ProblemsError) as err:
        parse_retreat(raw, "[orders.retreat]")
    [problem] = err.value.problems
    assert problem.where == where and words in problem.message and problem.hint


def test_standing_orders_all_problems_at_once() -> None:
    with pytest.raises(ProblemsError) as err:
        parse_retreat({"when": "behind", "by": "2", "units": 1}, "[orders.retreat]")
    assert sorted(p.where for p in err.value.problems) == [
        "[orders.retreat] by", "[orders.retreat] units"]


def test_standing_orders_casualty_order() -> None:
    w = "[orders] casualty_order"
    assert parse_casualty_order(["hero"], w) == (HERO, UNDEAD, TROOP, EGYPTIAN, TITAN)
    assert parse_casualty_order(["fleet"], w, sea=True) == (FLEET, UNDEAD_FLEET)
    with pytest.raises(ProblemsError) as err:
        parse_casualty_order(["troop", "fleet", "troop"], w)
    assert [p.where for p in err.value.problems] == [f"{w}[1]", f"{w}[2]"]
    assert all(p.hint for p in err.value.problems)


def test_battle_1_units_must_suit_the_battle() -> None:
    with pytest.raises(ValueError, match="sea battle"):
        fight("sea-1", True, side("red", troops("r", 1)), side("blue", troops("b", 1, FLEET)),
              Stream(key=b"x"))
    with pytest.raises(ValueError, match="no units"):
        fight("naxos", False, side("red", []), side("blue", troops("b", 1)), Stream(key=b"x"))


# --- events, transcript, determinism -----------------------------------------------------


def _sample(key: bytes) -> BattleResult:
    return fight("naxos", False,
                 side("red", [*troops("r", 3), Unit(HERO, "achilles")],
                      bonuses=[("minotaur", 1)], retreat=RetreatRule("at_most", 1),
                      can_retreat=True),
                 side("blue", troops("b", 3)), Stream(key=key), fortresses=1)


def test_events_are_plain_data() -> None:
    events = _sample(b"events").events()
    assert all(plain(e) for e in events)
    json.dumps(events)
    rounds = [e for e in events if e["type"] == "battle_round"]
    assert rounds and all(e["attacker"]["label"].startswith("battle/naxos/r") for e in rounds)
    assert events[0]["retreat_orders"]["attacker"] == {"when": "at_most", "units": 1}


def test_transcript_reads_the_battle() -> None:
    r = _sample(b"events")
    lines = r.transcript()
    assert lines[0].startswith("Battle at naxos (land): red (attacker) attacks with 4 units")
    assert "fortress x1" in lines[0]
    assert sum(line.startswith("Round ") for line in lines) == len(r.rounds)
    assert [e["text"] for e in r.events() if e["type"] == "battle_round"] == [
        line for line in lines if line.startswith("Round ")]


def test_determinism_same_key_same_battle() -> None:
    s1, s2 = Stream(key=b"same"), Stream(key=b"same")
    a = fight("naxos", False, side("red", troops("r", 4)), side("blue", troops("b", 4)), s1)
    b = fight("naxos", False, side("red", troops("r", 4)), side("blue", troops("b", 4)), s2)
    assert a.events() == b.events() and s1.draws == s2.draws
    # Attacker's die first, then the defender's, every round.
    assert [d.label for d in s1.draws[:2]] == ["battle/naxos/r1/attacker",
                                               "battle/naxos/r1/defender"]


# --- properties ----------------------------------------------------------------------------

rules = st.one_of(st.just(NEVER_RETREAT),
                  st.builds(RetreatRule, st.sampled_from(["at_most", "behind", "after_rounds"]),
                            st.integers(1, 4)))


@settings(max_examples=examples(150), deadline=None)
@given(key=st.binary(min_size=1, max_size=8), sea=st.booleans(),
       na=st.integers(1, 7), nd=st.integers(0, 7), forts=st.integers(0, 2),
       metros=st.integers(0, 1), ports=st.integers(0, 2), bonus=st.integers(-2, 2),
       ra=rules, rd=rules, ca=st.booleans(), cd=st.booleans())
def test_property_battle_always_ends_consistently(
        key: bytes, sea: bool, na: int, nd: int, forts: int, metros: int, ports: int,
        bonus: int, ra: RetreatRule, rd: RetreatRule, ca: bool, cd: bool) -> None:
    kinds = [FLEET, UNDEAD_FLEET] if sea else [TROOP, UNDEAD, HERO, TITAN, EGYPTIAN]
    att = [Unit(kinds[i % len(kinds)], f"a{i}") for i in range(na)]
    dfd = [Unit(kinds[(i + 1) % len(kinds)], f"d{i}") for i in range(nd)]
    r = fight("x", sea, Side("a", att, [("magic", bonus)], (), ra, ca),
              Side("d", dfd, [], (), rd, cd), Stream(key=key),
              fortresses=forts, metropolises=metros, ports=ports)
    assert len(r.rounds) <= na + nd  # each round removes at least one unit
    for rnd in r.rounds:
        assert len(rnd.casualties) == (2 if rnd.result == "tie" else 1)
        for s in (ATTACKER, DEFENDER):
            assert rnd.totals[s] == sum(v for _, v in rnd.breakdowns[s])
            assert rnd.breakdowns[s][0] == ("die", rnd.dice[s])
    for s, start in ((ATTACKER, att), (DEFENDER, dfd)):
        assert sorted(u.id for u in r.losses[s] + r.survivors[s]) == sorted(u.id for u in start)
    if r.retreated is None:
        assert not (r.survivors[ATTACKER] and r.survivors[DEFENDER])
        if r.winner is not None:
            assert r.survivors[r.winner]
    else:
        assert r.survivors[ATTACKER] and r.survivors[DEFENDER]
        assert r.winner != r.retreated
    assert plain(r.events())

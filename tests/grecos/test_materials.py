"""The golem materials (Golem 1-16) as the authored variant ``--option materials=on``
(pbem/games/grecos/materials.py), and that with the option off nothing changes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import copy_state
from pbem.games.grecos import battle, events, materials, movement, recruit, turn
from pbem.games.grecos.battle import CardPlay, Side
from pbem.games.grecos.components import load
from pbem.games.grecos.game import RULESET
from pbem.games.grecos.policy import DEFAULT
from pbem.games.grecos.squares import SQUARES, adjacent
from tests.scripted import Scripted as _Scripted

C = load()
State = dict[str, Any]
SEED = "/work/shared/rules/004_cd8f766938cc9ed0.txt"
HOME, AWAY = "c3", "c4"  # alice's stack on c3, bob's on c4


def Scripted(values: Iterable[int], then: int = 1) -> _Scripted:
    """The shared scripted stream, then ``then`` for ever."""
    return _Scripted(values, then)


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"grecos-materials-test/{label}".encode()).digest())


def make(alice: Iterable[Any] = (), bob: Iterable[Any] = (), *, on: bool = True) -> State:
    """A state: alice's units on c3, bob's on c4, the board Coastal with City States on
    a1-a6; a unit is a kind, (kind, material) or (kind, material, hits left)."""
    board = dict.fromkeys(SQUARES, "coastal")
    board.update(dict.fromkeys(("a1", "a2", "a3", "a4", "a5", "a6"), "city_state"))
    state: State = {
        "board": board, "seats": ["alice", "bob"], "turn": 1, "round": 1, "active": "alice",
        "step": "war", "units": {}, "next_unit": 1, "pile": [],
        "chits": {"alice": [], "bob": []}, "deck": C.deck(), "discard": [],
        "hands": {"alice": [], "bob": []},
        "policy": {"alice": dict(DEFAULT), "bob": dict(DEFAULT)},
        "effects": turn.no_effects(), "kronos": 0, "eliminated": [], "result": {},
        "attacked": [], "options": {"rounds": "15", "materials": "on" if on else "off"},
    }
    for owner, square, units in (("alice", HOME, alice), ("bob", AWAY, bob)):
        for u in units:
            spec = (u,) if isinstance(u, str) else tuple(u)
            kind, material = spec[0], (spec[1] if len(spec) > 1 else "")
            unit = {"kind": kind, "owner": owner, "square": square, "hits": C.units[kind].hits}
            if material:
                unit["material"] = material
                unit["hits"] += materials.hits_bonus(unit)
            if len(spec) > 2:
                unit["hits"] = spec[2]
            state["units"][str(state["next_unit"])] = unit
            state["next_unit"] += 1
    return state


def give(state: State, player: str, card: str) -> None:
    state["deck"].remove(card)
    state["hands"][player].append(card)


def fight(state: State, rolls: Iterable[int], *, a_cards: Iterable[CardPlay] = (),
          b_cards: Iterable[CardPlay] = ()) -> battle.BattleResult:
    """alice's stack attacks bob's; the defender plays only ``b_cards``."""
    ids = {p: [u for u, x in state["units"].items() if x["owner"] == p] for p in ("alice", "bob")}
    return battle.fight(C, state, Side("alice", ids["alice"], cards=list(a_cards)),
                        Side("bob", ids["bob"], cards=list(b_cards)), Scripted(rolls), "b",
                        lambda card, by: "")


def attacks(result: battle.BattleResult) -> list[tuple[str, int, bool]]:
    """(unit, Force, extra) of each attack rolled, in order."""
    return [(e["unit"], e["force"], e["extra"]) for e in result.events if e["type"] == "attack"]


# --- the table and how a material comes to a unit ---------------------------------------

def test_golem_1_to_16_table_as_printed_with_rulings() -> None:
    with open(SEED, encoding="utf-8") as f:
        printed = f.read().splitlines()[2:18]
    rows = list(materials.load().values())
    assert [f"{m.name} {m.ability}: {m.notes}" for m in rows] == printed
    assert [m.clause for m in rows] == [f"Golem {n}" for n in range(1, 17)]
    assert materials.cycle() == ("flesh", "stone", "ice", "gold", "sand", "basalt",
                                 "clockwork", "salt", "silver")
    out = {m.id: m.undefined for m in rows if not m.implemented}
    assert out == {"clay": "Shape", "crystal": "Mana", "iron": "Armor", "bone": "Armor",
                   "wood": "size", "bronze": "Armor", "obsidian": "conflict"}


def test_golem_materials_come_to_recruits_by_unit_id_cycle() -> None:
    state = make(["hero"])  # unit 1 on c3; a City State on a3
    state["units"]["1"]["square"] = "a3"
    state["chits"]["alice"] = ["hoplites"] * 3
    state["next_unit"] = 9
    plan, problems = recruit.plan_recruits(C, state, "alice", [
        {"kind": "hoplites", "square": "a3"}, {"kind": "hoplites", "square": "a3"},
        {"kind": "hoplites", "square": "a4"}])
    assert not problems
    evs = recruit.apply_recruits(C, state, "alice", plan)
    got = {u: (state["units"][u]["material"], state["units"][u]["hits"]) for u in ("9", "10", "11")}
    assert got == {"9": ("silver", 2), "10": ("flesh", 2), "11": ("stone", 3)}
    assert [e["material"] for e in evs] == ["silver", "flesh", "stone"]
    assert "made of Stone (Golem 3, materials=on)" in evs[2]["text"]
    assert "material" not in state["units"]["1"]  # the starting Hero has none
    assert not turn.invariants(C, state)


def test_golem_materials_off_recruits_get_none_and_invariant_says_so() -> None:
    state = make(["hero"], on=False)
    state["units"]["1"]["square"] = "a3"
    state["chits"]["alice"] = ["hoplites"]
    state["next_unit"] = 2  # would be Stone
    plan = recruit.plan_recruits(C, state, "alice", [{"kind": "hoplites", "square": "a3"}])[0]
    evs = recruit.apply_recruits(C, state, "alice", plan)
    assert state["units"]["2"] == {"kind": "hoplites", "owner": "alice", "square": "a3",
                                   "hits": 2}
    assert "material" not in evs[0] and evs[0]["text"].endswith("on a3.")
    state["units"]["2"]["material"] = "stone"
    assert any("materials=off" in p for p in turn.invariants(C, state))


# --- Golem 1 Flesh ----------------------------------------------------------------------

def test_golem_1_flesh_regains_one_hit_at_end_of_owners_turn() -> None:
    state = make([("hoplites", "flesh", 1), ("hydra", "flesh", 1), ("hoplites", "", 1),
                  ("cyclops", "flesh")], [("hoplites", "flesh", 1)])
    out = turn.end_turn(C, state, Rng(stream("p"), stream("s")), {})
    hits = {u: x["hits"] for u, x in state["units"].items()}
    assert hits == {"1": 2, "2": 2, "3": 1, "4": 2, "5": 1}  # +1 only, alice's damaged Flesh
    heals = [e for e in out if e["type"] == "material-heal"]
    assert [(e["unit"], e["hits_left"]) for e in heals] == [("1", 2), ("2", 2)]
    assert state["active"] == "bob"
    state = make([("hoplites", "flesh", 1)], ["hero"], on=False)
    turn.end_turn(C, state, Rng(stream("p"), stream("s")), {})
    assert state["units"]["1"]["hits"] == 1


# --- Golem 3 Stone ----------------------------------------------------------------------

def test_golem_3_stone_hits_plus_one_everywhere_hits_are_compared() -> None:
    state = make([("hoplites", "stone", 1), ("hydra", "stone", 3)], ["hero"])
    assert materials.max_hits(C, state, "1") == 3 and materials.max_hits(C, state, "3") == 2
    assert battle.force(C, state["units"]["2"]) == 4  # Battle 13: 1 hit lost of 4
    give(state, "alice", "asclepius")
    evs, _ = events.apply_play(C, state, "alice", events.Play("asclepius", HOME),
                               Rng(stream("p"), stream("s")))
    assert [state["units"][u]["hits"] for u in ("1", "2")] == [3, 4]
    assert evs[-1]["units"] == ["1", "2"]
    assert not turn.invariants(C, state)
    state["units"]["3"]["hits"] = 3  # a plain Hero may not hold 3
    assert any("unit 3 has 3 hits" in p for p in turn.invariants(C, state))


def test_golem_3_stone_battle_heal_card_restores_the_extra_hit() -> None:
    state = make([("hoplites", "stone", 2)], ["nymphs"])
    give(state, "alice", "cornucopia")
    result = fight(state, [6], a_cards=[CardPlay("cornucopia", 1, HOME)])
    heal = next(e for e in result.events if e["type"] == "heal")
    assert heal["units"] == ["1"] and state["units"]["1"]["hits"] == 3


# --- Golem 6 Ice, 7 Gold, 9 Sand, 14 Clockwork, 15 Salt ----------------------------------

def test_golem_6_ice_freezes_the_strongest_opposing_unit() -> None:
    # alice: Hero (Force 5) and Hoplites (2); bob: Ice Hoplites. Hero first: roll 4 misses.
    state = make(["hero", "hoplites"], [("hoplites", "ice")])
    result = fight(state, [4, 6, 2])
    first = attacks(result)[:3]
    assert first == [("1", 3, False), ("3", 2, False), ("2", 2, False)]
    assert not result.events[1]["hit"] and result.events[3]["hit"]
    assert "Ice -2, Golem 6" in result.events[1]["text"]


def test_golem_6_ice_two_freeze_two_targets_and_off_freezes_nothing() -> None:
    state = make(["hero", "cyclops", "hoplites"], [("hoplites", "ice"), ("ships", "ice")])
    result = fight(state, [6] * 6)
    forces = {u: f for u, f, _ in attacks(result)[:5]}
    assert forces == {"1": 3, "2": 1, "3": 2, "4": 2, "5": 2}
    state = make(["hero"], [("hoplites", "ice")], on=False)
    assert attacks(fight(state, [6, 6]))[0] == ("1", 5, False)


def test_golem_7_gold_gives_its_whole_side_force_plus_one() -> None:
    state = make([("hoplites", "gold"), "nymphs", ("amazons", "gold")], ["cyclops"])
    forces = {u: f for u, f, _ in attacks(fight(state, [6] * 4))[:4]}
    assert forces == {"1": 4, "2": 4, "3": 5, "4": 3}  # the enemy Cyclops gets nothing


def test_golem_9_sand_gives_every_opposing_unit_force_minus_one() -> None:
    state = make(["hero", "cyclops"], [("hoplites", "sand"), "nymphs"])
    forces = {u: f for u, f, _ in attacks(fight(state, [6] * 4))[:4]}
    assert forces == {"1": 4, "2": 2, "3": 2, "4": 3}  # the Nymphs: Battle 11, Women on Men


def test_golem_14_clockwork_force_plus_two_and_a_roll_of_four_hits() -> None:
    state = make([("hoplites", "clockwork")], ["nymphs"])
    result = fight(state, [4])
    assert attacks(result) == [("1", 4, False)] and result.destroyed == ["2"]
    assert "Clockwork +2, Golem 14" in result.events[1]["text"]


def test_golem_15_salt_force_plus_three_only_next_to_water() -> None:
    state = make([("hoplites", "salt")], ["hydra"])
    assert attacks(fight(state, [6] * 2))[0] == ("1", 2, False)  # all Coastal: no water
    state = make([("hoplites", "salt")], ["hydra"])
    state["board"]["b3"] = "sea"  # shares a side with c3
    state["board"]["d4"] = "abyss"  # next to bob's c4, not to c3: no matter
    assert attacks(fight(state, [6] * 2))[0] == ("1", 5, False)
    state = make([("hoplites", "salt")], ["hydra"])
    state["board"]["b4"] = "sea"  # diagonal to c3: not adjacent (Adjacency 2)
    assert attacks(fight(state, [6] * 2))[0] == ("1", 2, False)


# --- Golem 13 Basalt --------------------------------------------------------------------

def test_golem_13_basalt_extra_attack_at_the_beginning_of_each_battle() -> None:
    state = make([("hoplites", "basalt"), "hero"], [("cyclops", "basalt"), ("nymphs", "")])
    result = fight(state, [1, 6])
    kinds = [e["type"] for e in result.events[:5]]
    assert kinds == ["battle", "first-strike", "attack", "first-strike", "attack"]
    # alice's Basalt first (a hit on the Nymphs, destroyed), then bob's; then round 1 as usual.
    assert attacks(result)[:4] == [("1", 2, True), ("3", 3, True), ("2", 5, False),
                                   ("3", 3, False)]
    assert result.events[2]["destroyed"] and result.events[2]["victim"] == "4"
    labels = [e["slot"] for e in result.events if e["type"] == "attack"][:4]
    assert labels == [1, 2, 3, 4]
    assert [e["round"] for e in result.events if e["type"] == "first-strike"] == [1, 1]


def test_golem_13_basalt_once_per_battle_and_not_when_off() -> None:
    state = make([("hoplites", "basalt")], [("hydra", "")])
    result = fight(state, [6] * 12)  # misses for ever: many rounds
    extra = [a for a in attacks(result) if a[2]]
    assert extra == [("1", 2, True)] and result.events[-1]["round"] > 2
    state = make([("hoplites", "basalt")], [("hydra", "")], on=False)
    result = fight(state, [6] * 12)
    assert not [a for a in attacks(result) if a[2]]
    assert all(e["type"] != "first-strike" for e in result.events)


# --- Golem 16 Silver --------------------------------------------------------------------

def test_golem_16_silver_move_plus_one() -> None:
    state = make([("hoplites", "silver"), ("hoplites", "")], ["hero"])
    state["units"]["3"]["square"] = "h8"
    silver = movement.reach(C, state, "alice", ["1"])
    plain = movement.reach(C, state, "alice", ["2"])
    assert "c5" not in plain and "a3" in silver and "e3" in silver
    assert max(len(p) for p in silver.values()) == 2 and max(len(p) for p in plain.values()) == 1
    assert max(len(p) for p in movement.reach(C, state, "alice", ["1", "2"]).values()) == 1
    state["options"]["materials"] = "off"
    assert movement.reach(C, state, "alice", ["1"]) == plain


# --- the option itself, and a whole game with it off and on -----------------------------

def test_golem_option_spec_and_setup_copy() -> None:
    spec = RULESET.options["materials"]
    assert (spec.default, spec.choices) == ("off", ("off", "on"))
    players = ("alice", "bob")
    rng = Rng(stream("setup-p"), stream("setup-s"))
    assert RULESET.setup(players, {"materials": "on"}, {}, rng).state["options"]["materials"] \
        == "on"
    rng = Rng(stream("setup-p"), stream("setup-s"))
    assert RULESET.setup(players, {}, {}, rng).state["options"]["materials"] == "off"


def _rng(seed: str, label: str) -> Rng:
    def s(kind: str) -> Stream:
        return Stream(hashlib.sha256(f"grecos-materials/{seed}/{kind}/{label}".encode()).digest())
    return Rng(s("public"), s("sealed"))


def _dist(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1]) - int(b[1]))


def _stacks(state: State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u, x in sorted(state["units"].items(), key=lambda kv: int(kv[0])):
        out.setdefault(x["square"], []).append(u)
    return out


def _orders(state: State, kind: str, player: str) -> dict[str, Any]:
    """A plain scripted player: recruit every chit where it first may go; move each stack
    towards the nearest enemy unit; attack from each stack the first enemy stack next to it."""
    sim = copy_state(state)
    if kind == "recruit":
        out = []
        for chit in sorted(state["chits"][player]):
            squares = recruit.recruit_squares(C, sim, player, chit)
            if squares:
                out.append({"kind": chit, "square": squares[0]})
                recruit.apply_recruits(C, sim, player, [recruit.Recruit(chit, squares[0])])
        return {"recruit": out} if out else {}
    moves = []
    for square, ids in sorted(_stacks(sim).items()):
        if sim["units"][ids[0]]["owner"] != player:
            continue
        enemies = [x["square"] for x in sim["units"].values() if x["owner"] != player]
        if not enemies:
            break
        reach = movement.reach(C, sim, player, ids)
        if not reach:
            continue

        def score(sq: str, enemies: list[str] = enemies) -> tuple[int, int]:
            return (min(_dist(sq, e) for e in enemies), SQUARES.index(sq))

        best = min(reach, key=score)
        if score(best) >= score(square):
            continue
        move = {"units": ids, "path": list(reach[best])}
        plan, problems = movement.plan_moves(C, sim, player, [move])
        if problems:
            continue
        movement.apply_moves(C, {**sim, "active": player}, plan)
        moves.append(move)
    fights = []
    for square, ids in sorted(_stacks(sim).items()):
        if sim["units"][ids[0]]["owner"] != player:
            continue
        targets = [s for s, v in sorted(_stacks(sim).items())
                   if adjacent(square, s) and sim["units"][v[0]]["owner"] != player]
        if targets:
            fights.append({"from": square, "target": targets[0]})
    out2: dict[str, Any] = {}
    if moves:
        out2["move"] = moves
    if fights:
        out2["battle"] = fights
    return out2


def play(options: Mapping[str, str], seed: str, players: tuple[str, ...]
         ) -> tuple[str, State, list[Any], list[str]]:
    """A whole seeded game of the scripted players: (digest of every public and private
    event, the last state, the events, invariant problems)."""
    setup = RULESET.setup(players, options, {}, _rng(seed, "setup"))
    state = setup.state
    log: list[Any] = [setup.events, setup.private]
    problems: list[str] = []
    for _ in range(600):
        phase = RULESET.next_phase(state)
        if phase is None:
            break
        assert phase.active is not None
        orders = _orders(state, phase.kind, phase.active)
        assert not RULESET.validate(state, phase, phase.active, orders), (phase.id, orders)
        out = RULESET.resolve(state, phase, {phase.active: orders}, _rng(seed, phase.id))
        state = out.state
        log += [out.events, out.private]
        problems += RULESET.invariants(None, state, out.events, out.private)
    digest = hashlib.sha256(json.dumps(log, sort_keys=True).encode()).hexdigest()
    return digest, state, log, problems


#: Computed with the code as it was before the materials hooks were added (the same scripted
#: players and seeds). If a rules change elsewhere legitimately changes these games, recompute
#: them with the materials hooks taken out.
#: Seeded games of the scripted players: (seed, players, rounds).
GAMES = [("digest", 3, "15"), ("digest", 4, "20")]
PLAYERS = ("alice", "bob", "carol", "dave")


@pytest.mark.parametrize("key", GAMES)
def test_golem_option_off_changes_nothing_in_a_seeded_game(key: tuple[str, int, str]) -> None:
    # materials=off is the game without the option, event for event; and the option on does
    # change the game (so the comparison can fail). Regressions of the game itself are the
    # golden playthrough's business (tests/grecos/test_golden.py).
    seed, n, rounds = key
    plain, state, _, problems = play({"rounds": rounds}, seed, PLAYERS[:n])
    off, state_off, _, problems_off = play({"rounds": rounds, "materials": "off"}, seed,
                                           PLAYERS[:n])
    on = play({"rounds": rounds, "materials": "on"}, seed, PLAYERS[:n])[0]
    assert plain == off and not problems and not problems_off and on != plain
    assert all("material" not in x for x in [*state["units"].values(),
                                               *state_off["units"].values()])


def test_golem_option_on_a_seeded_game_keeps_the_invariants() -> None:
    _, state, log, problems = play({"rounds": "20", "materials": "on"}, "digest", PLAYERS)
    assert not problems
    recruited = [e for evs in log[0::2] for e in evs if e["type"] == "recruit"]
    assert recruited and all(e["material"] == materials.material_for(e["unit"])
                             for e in recruited)
    assert any(e["type"] == "first-strike" for evs in log[0::2] for e in evs)
    assert any("material" in x for x in state["units"].values())

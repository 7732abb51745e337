"""Bot players for demos and simulations: legal, non-trivial orders from the player's own view.

Recruits every chit it can (near the front), plays the cards that only help it, moves stacks
toward City States it does not hold and toward weaker enemy stacks, and attacks where its
stack's Force is at least the enemy's. Every order is checked with the rules' own
:func:`pbem.games.grecos.turn.review` on a stand-in state made from the view; what fails is
dropped, part by part, down to no orders at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Stream
from pbem.core.ruleset import PhaseSpec, copy_state
from pbem.games.grecos import movement, turn
from pbem.games.grecos import policy as policy_mod
from pbem.games.grecos.components import Components
from pbem.games.grecos.squares import SQUARES, adjacent, neighbours

State = dict[str, Any]
OWN_CARDS = ("tyche", "kronos", "oracle", "hermes")
BATTLE_CARDS = ("zeus", "atlas", "nike", "hera", "apollo", "athena", "artemis", "ares",
                "poseidon", "pan")


def state_from_view(view: Mapping[str, Any], player: str) -> State:
    """A state with the view's public part and the player's own secrets; the others' hidden
    holdings are empty stand-ins."""
    s = copy_state({k: v for k, v in view.items() if k not in (
        "pile_count", "deck_count", "chit_counts", "hand_counts", "game_over", "my_chits",
        "my_hand", "my_policy", "policies")})
    seats = list(view["seats"])
    s["pile"], s["deck"] = [], []
    s["chits"] = {p: [] for p in seats}
    s["hands"] = {p: [] for p in seats}
    s["policy"] = {p: dict(policy_mod.DEFAULT) for p in seats}
    s["chits"][player] = list(view.get("my_chits", []))
    s["hands"][player] = list(view.get("my_hand", []))
    return s


def orders(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
           rng: Stream) -> dict[str, Any]:
    state = state_from_view(view, player)
    if phase.kind == "recruit":
        return _legal(c, state, "recruit", player, {"recruit": _recruits(c, state, player, rng)})
    parts: dict[str, Any] = {}
    plays = _plays(c, state, player, rng)
    if plays:
        parts["play"] = plays
    moves = _moves(c, state, player, rng)
    if moves:
        parts["move"] = moves
    full = _legal(c, state, "war", player, parts)
    trial = copy_state(state)
    planned = movement.plan_moves(c, trial, player, full.get("move", []), trial["effects"])[0]
    movement.apply_moves(c, trial, planned)
    battles = _battles(c, trial, player, rng)
    if battles:
        with_battles = _legal(c, state, "war", player, {**full, "battle": battles})
        if "battle" in with_battles:
            return with_battles
    return full


def _legal(c: Components, state: State, kind: str, player: str, wanted: dict[str, Any]
           ) -> dict[str, Any]:
    """``wanted`` if the rules accept it; else each list cut down from its end, then
    dropped; at worst no orders."""
    out = {k: list(v) for k, v in wanted.items() if v}
    while True:
        if not turn.review(c, state, kind, player, out)[0]:
            return out
        if not out:
            return {}
        key = sorted(out)[-1]
        out[key] = out[key][:-1]
        if not out[key]:
            del out[key]


def _mine(state: State, player: str) -> dict[str, list[str]]:
    return {sq: ids for sq, ids in turn.stacks(state).items()
            if state["units"][ids[0]]["owner"] == player}


def _recruits(c: Components, state: State, player: str, rng: Stream) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind in list(state["chits"][player]):
        options = []
        for sq in _mine(state, player):
            if kind in c.terrains[state["board"][sq]].recruits:
                options += [sq, *neighbours(sq)]
        rng.shuffle(options, f"bot/recruit/{kind}/{len(out)}")
        for target in options:
            trial = [*out, {"kind": kind, "square": target}]
            if not turn.review(c, state, "recruit", player, {"recruit": trial})[0]:
                out = trial
                break
    return out


def _plays(c: Components, state: State, player: str, rng: Stream) -> list[dict[str, Any]]:
    hand = state["hands"][player]
    mine = _mine(state, player)
    out: list[dict[str, Any]] = []
    for card in hand:
        if card in ("tyche", "kronos", "oracle"):
            out.append({"card": card})
        elif card == "hermes" and mine:
            out.append({"card": card, "target": sorted(mine, key=lambda s: -len(mine[s]))[0]})
        elif card in ("asclepius", "golden_fleece", "cornucopia"):
            hurt = [sq for sq, ids in mine.items() if any(
                state["units"][u]["hits"] < c.units[state["units"][u]["kind"]].hits
                for u in ids)]
            if hurt:
                out.append({"card": card, "target": hurt[0]})
    return [p for p in out if not turn.review(c, state, "war", player, {"play": [p]})[0]]


def _force(c: Components, state: State, ids: list[str]) -> int:
    return sum(c.units[state["units"][u]["kind"]].force * state["units"][u]["hits"] for u in ids)


def _moves(c: Components, state: State, player: str, rng: Stream) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    trial = copy_state(state)
    held = {sq for sq, ids in _mine(trial, player).items()}
    goals = [s for s in SQUARES if trial["board"][s] == turn.CITY_STATE and s not in held]
    for sq, ids in sorted(_mine(trial, player).items()):
        if rng.draw(f"bot/move/{sq}", 4) == 1:
            continue  # sometimes a stack stays (a garrison)
        group = list(ids)
        if trial["board"][sq] == turn.CITY_STATE and len(group) > 1:
            group = group[1:]  # leave one unit on a City State it holds
        reach = movement.reach(c, trial, player, group)
        if not reach:
            continue
        best = sorted(reach, key=lambda t: (_distance(t, goals), len(reach[t]),
                                            SQUARES.index(t)))[0]
        entry = {"units": group, "path": list(reach[best])}
        if not turn.review(c, state, "war", player, {"move": [*out, entry]})[0]:
            out.append(entry)
            planned = movement.plan_moves(c, trial, player, [entry], trial["effects"])[0]
            movement.apply_moves(c, trial, planned)
    return out


def _distance(square: str, goals: list[str]) -> int:
    """Steps from ``square`` to the nearest of ``goals`` (side by side, Adjacency 2)."""
    i = SQUARES.index(square)
    return min((abs(i % 8 - SQUARES.index(g) % 8) + abs(i // 8 - SQUARES.index(g) // 8)
                for g in goals), default=0)


def _battles(c: Components, state: State, player: str, rng: Stream) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    hand = [x for x in state["hands"][player] if x in BATTLE_CARDS]
    stacks = turn.stacks(state)
    for sq, ids in sorted(_mine(state, player).items()):
        targets = [t for t in stacks if adjacent(sq, t) and turn.owner_of(state, t) not in
                   ("", player)]
        # Only a clearly stronger stack attacks: battles are to the death (Battle 10).
        weak = [t for t in targets if 2 * _force(c, state, ids) >= 3 * _force(c, state,
                                                                            stacks[t])]
        if not weak:
            continue
        battle: dict[str, Any] = {"from": sq, "target": weak[0]}
        if hand and rng.draw(f"bot/card/{sq}", 2) == 1:
            battle["card"] = [{"card": hand.pop(), "round": 1}]
        out.append(battle)
    return out

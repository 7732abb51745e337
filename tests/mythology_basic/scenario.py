"""Building Basic Game positions for scenario tests: the real set-up, then counters put
where a rulebook example needs them, and dice scripted where a test quotes a roll."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import Outcome, PhaseSpec
from pbem.games.mythology.basic.game import RULESET
from pbem.games.mythology.components import load
from tests.scripted import Scripted

State = dict[str, Any]
C = load()
PLAYERS = ("alice", "bob")
# Greece, inland, a line of hexes one after the other (each next to the last).
G1, G2, G3, G4 = "2509", "2510", "2511", "2512"
THRACE = "3107"


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"mythology-basic-scenario/{label}".encode()).digest())


def rng(label: str) -> Rng:
    return Rng(stream(f"public/{label}"), stream(f"sealed/{label}"))


def dice(*totals: int) -> list[int]:
    """Two-dice totals as the pairs of draws that make them (2d6 = two draws)."""
    out = []
    for t in totals:
        first = min(6, t - 1)
        out += [first, t - first]
    return out


def new_game(players: tuple[str, ...] = PLAYERS, key: str = "game",
             joins: Mapping[str, Any] | None = None) -> State:
    return RULESET.setup(players, {}, joins or {}, rng(f"setup/{key}")).state


def arrange(players: tuple[str, ...] = PLAYERS, *, heroes: Iterable[str] = ("alice",),
            units: Mapping[int, str] | None = None, prizes: Mapping[str, str] | None = None,
            order: Iterable[str] | None = None) -> State:
    """A game whose board holds only ``units`` (unit -> hex) and ``prizes``; ``heroes`` are
    the players favouring Heroes, ``order`` this Game Turn's order of play."""
    s = new_game(players)
    hero_players = set(heroes)
    s["favour"] = {p: "heroes" if p in hero_players else "monsters" for p in s["seats"]}
    s["units"] = {u: "" for u in s["units"]}
    s["removed"] = {u: {"by": "", "turn": 0} for u in s["units"]}
    for u, h in (units or {}).items():
        s["units"][str(u)] = h
        s["removed"].pop(str(u))
    for p, x in s["prizes"].items():
        x["hex"] = (prizes or {}).get(p, "")
        x["by"] = "" if x["hex"] else "nobody"
    s["order"] = list(order or s["seats"])
    s["cursor"] = 0
    return s


def phase(state: State) -> PhaseSpec:
    spec = RULESET.next_phase(state)
    assert spec is not None
    return spec


def problems(state: State, orders: Mapping[str, Any], player: str | None = None) -> list[str]:
    spec = phase(state)
    return [str(p) for p in RULESET.validate(state, spec, player or spec.actors[0],
                                             dict(orders))]


def play(state: State, orders: Mapping[str, Any], draws: Iterable[int] | None = None,
         key: str = "k") -> Outcome:
    """The active player's Player Turn with ``orders`` (validated first)."""
    spec = phase(state)
    found = problems(state, orders)
    assert not found, found
    r = rng(key) if draws is None else Rng(Scripted(draws), stream("sealed"))
    return RULESET.resolve(state, spec, {spec.actors[0]: dict(orders)}, r)


def of_type(outcome: Outcome, kind: str) -> list[dict[str, Any]]:
    return [e for e in outcome.events if e["type"] == kind]

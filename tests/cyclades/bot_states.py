"""Cyclades states reached by the bots, played in memory (no campaign, no signing): each open
phase with the state it opens on and the orders each bot gives, for the property and fuzz
tests of issue 12. Seeded and deterministic; cached so that several tests share one play."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.cyclades.game import RULESET

State = dict[str, Any]


def stream(*parts: object) -> Stream:
    return Stream(hashlib.sha256("/".join(map(str, parts)).encode()).digest())


def rng(*parts: object) -> Rng:
    return Rng(stream("public", *parts), stream("sealed", *parts))


@dataclass(frozen=True)
class Stop:
    """One open phase of a bot game: the state it opens on (never mutate it: copy first)."""

    game: str
    state: State
    phase: PhaseSpec
    orders: dict[str, dict[str, Any]]  # what the bots sent


def play(seed: str, players: int, board: str = "auto", max_phases: int = 400) -> Iterator[Stop]:
    names = tuple(f"p{i}" for i in range(1, players + 1))
    outcome = RULESET.setup(names, {"board": board, "teams": "off"}, {}, rng(seed, "setup"))
    state = outcome.state
    for k in range(max_phases):
        phase = RULESET.next_phase(state)
        if phase is None:
            return
        orders = {p: RULESET.bot_orders(RULESET.view(state, p), phase, p,
                                        stream(seed, "bot", k, p)) for p in phase.actors}
        yield Stop(f"{seed}/{players}/{board}", copy.deepcopy(state), phase, orders)
        state = RULESET.resolve(state, phase, orders, rng(seed, k)).state


@cache
def stops() -> tuple[Stop, ...]:
    """A few bot games: 2, 3 and 4 players on Vanilla, 4 on the Titans board; every phase."""
    out: list[Stop] = []
    for seed, players, board in (("a", 3, "auto"), ("b", 4, "titans"), ("c", 2, "auto"),
                                 ("d", 4, "auto"), ("e", 5, "auto")):
        out += play(seed, players, board)
    return tuple(out)


def of_kind(kind: str) -> list[Stop]:
    return [s for s in stops() if s.phase.kind == kind]

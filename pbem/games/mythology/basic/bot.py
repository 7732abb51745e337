"""Placeholder bot (replaced by the full bot)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.mythology.components import Components


def join(rng: Stream) -> dict[str, Any]:
    return {}


def orders(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
           rng: Stream) -> dict[str, Any]:
    from pbem.games.mythology.basic import turn

    return {"god": turn.default_god(c, dict(view), player)}

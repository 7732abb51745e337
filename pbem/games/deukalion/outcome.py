"""Collecting what the rules' steps say: public events and each player's private ones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Event = dict[str, Any]
Private = dict[str, list[Event]]


def merge(private: Private, more: Mapping[str, Sequence[Event]]) -> None:
    """Add ``more`` private events to ``private``, player by player, in order."""
    for p, evs in more.items():
        private.setdefault(p, []).extend(evs)


def pair(result: Any) -> tuple[list[Event], Private]:
    """A step's result as (events, private), whether it returned both or events only."""
    if isinstance(result, tuple):
        return list(result[0]), dict(result[1])
    return list(result), {}

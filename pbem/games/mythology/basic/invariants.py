"""Placeholder."""
from __future__ import annotations

from typing import Any

from pbem.games.mythology.components import Components


def check(c: Components, before: Any, after: Any) -> list[str]:
    return []

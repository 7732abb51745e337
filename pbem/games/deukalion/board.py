"""Placeholder (the reports helper replaces it)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.deukalion.components import Components


def svg(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    return ""

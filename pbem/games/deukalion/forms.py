"""Placeholder (the forms helper replaces it)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.ruleset import PhaseSpec
from pbem.games.deukalion.components import Components


def form(c: Components, text: str, view: Mapping[str, Any], phase: PhaseSpec,
         player: str) -> str:
    return text

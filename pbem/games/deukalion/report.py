"""Placeholder (the reports helper replaces it)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.deukalion.components import Components


def event_text(c: Components, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
    return str(event.get("text", ""))


def public(c: Components, view: Mapping[str, Any]) -> dict[str, Any]:
    return {}


def context(c: Components, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    return {}

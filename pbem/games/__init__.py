"""The registry of games: built-in ones by name, others through the ``pbem.games`` entry point.

Games are imported only when asked for, so ``pbem --version`` and ``pbem verify`` do not pay
for loading every game's data.
"""

from __future__ import annotations

import importlib

from pbem.core.errors import UsageError
from pbem.core.ruleset import Ruleset

#: name -> "module:attribute" of a Ruleset instance.
BUILTIN: dict[str, str] = {
    "conformance": "pbem.games.conformance:RULESET",
    "mythology": "pbem.games.mythology.game:RULESET",
    "mythology-basic": "pbem.games.mythology.basic.game:RULESET",
    "cyclades": "pbem.games.cyclades.game:RULESET",
    "grecos": "pbem.games.grecos.game:RULESET",
    "deukalion": "pbem.games.deukalion.game:RULESET",
}

_extra: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> None:
    """Make a ruleset available by name (tests, plug-ins loaded by hand)."""
    _extra[ruleset.name] = ruleset


def _entry_points() -> list[tuple[str, str]]:
    # importlib.metadata costs ~25 ms at start-up; built-in games never need it.
    from importlib.metadata import entry_points

    return [(ep.name, ep.value) for ep in entry_points(group="pbem.games")]


def names() -> list[str]:
    found = set(BUILTIN) | set(_extra) | {name for name, _ in _entry_points()}
    return sorted(found)


def get(name: str) -> Ruleset:
    if name in _extra:
        return _extra[name]
    target = BUILTIN.get(name)
    if target is None:
        target = dict(_entry_points()).get(name)
    if target is None:
        raise UsageError(f"unknown game {name!r}; known games: {', '.join(names())}")
    module, _, attr = target.partition(":")
    ruleset = getattr(importlib.import_module(module), attr)
    if not isinstance(ruleset, Ruleset):
        raise UsageError(f"{target} is not a pbem Ruleset")
    return ruleset

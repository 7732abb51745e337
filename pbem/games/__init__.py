"""The registry of games: built-in ones by name, others through the ``pbem.games`` entry point.

Games are imported only when asked for, so ``pbem --version`` and ``pbem verify`` do not pay
for loading every game's data; ``pbem games`` lists the built-in ones from :data:`ABOUT`
without importing any (importing them all, with their data, cost about 0.7 s of one core).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING

from pbem.core.errors import UsageError

if TYPE_CHECKING:
    from pbem.core.ruleset import Ruleset

#: name -> "module:attribute" of a Ruleset instance.
BUILTIN: dict[str, str] = {
    "conformance": "pbem.games.conformance:RULESET",
    "mythology": "pbem.games.mythology.game:RULESET",
    "mythology-basic": "pbem.games.mythology.basic.game:RULESET",
    "cyclades": "pbem.games.cyclades.game:RULESET",
    "grecos": "pbem.games.grecos.game:RULESET",
    "deukalion": "pbem.games.deukalion.game:RULESET",
    "hetairos": "pbem.games.hetairos.game:RULESET",
}

#: name -> (title, min_players, max_players) of each built-in game, as its Ruleset has them
#: (tests/test_cli_startup.py checks that they agree): what ``pbem games`` prints. A game
#: missing here is listed all the same, by importing it.
ABOUT: dict[str, tuple[str, int, int]] = {
    "conformance": ("Conformance ruleset (exercises every kind of phase; not a rulebook game)",
                    2, 10),
    "mythology": ("Mythology (Yaquinto, 1980), Advanced Game", 2, 10),
    "mythology-basic": ("Mythology (Yaquinto, 1980), Basic Game", 2, 10),
    "cyclades": ("Cyclades, with Hades, Titans, Monuments and the Egyptian Reinforcements",
                 2, 6),
    "grecos": ("Grecos (Warpspawn Games), mythological Greek wargame", 2, 6),
    "deukalion": ("Deukalion (Steinwender & Lepuschitz, Hasbro 2007)", 2, 4),
    "hetairos": ("Hetairos (James Baillie), an adventure in the Greek underworld", 1, 10),
}

#: The entry point group other packages publish their games under.
GROUP = "pbem.games"

_extra: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> None:
    """Make a ruleset available by name (tests, plug-ins loaded by hand)."""
    _extra[ruleset.name] = ruleset


def may_have_plugins() -> bool:
    """Whether an installed distribution may publish a game under :data:`GROUP`.

    ``importlib.metadata`` costs about 60 M instructions (10-25 ms) to import and to read the
    metadata of every installed distribution, and ``pbem games`` and ``pbem check`` ask it at
    every call, where almost always nothing is published. So this first reads what its path
    finder would read, the ``entry_points.txt`` of each ``*.dist-info`` and ``*.egg-info`` on
    ``sys.path``, and answers False only when none of them names the group. Whatever it
    cannot look into (a zip archive on ``sys.path``, another finder of distributions on
    ``sys.meta_path``) answers True, and ``importlib.metadata`` decides."""
    from importlib.machinery import PathFinder

    if any(finder is not PathFinder and hasattr(finder, "find_distributions")
           for finder in sys.meta_path):
        return True
    needle = GROUP.encode()
    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return True  # a zip archive or another file: importlib.metadata can read it
        except OSError:
            continue  # not there: nothing to find
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), "rb") as f:
                    if needle in f.read():
                        return True
            except OSError:
                continue  # no entry points (or an .egg-info file): none published
    return False


def _entry_points() -> list[tuple[str, str]]:
    if not may_have_plugins():
        return []
    from importlib.metadata import entry_points

    return [(ep.name, ep.value) for ep in entry_points(group=GROUP)]


def names() -> list[str]:
    found = set(BUILTIN) | set(_extra) | {name for name, _ in _entry_points()}
    return sorted(found)


def about(name: str) -> tuple[str, int, int]:
    """(title, min_players, max_players) of the game ``name``; a built-in one is not
    imported for it."""
    if name not in _extra and name in ABOUT:
        return ABOUT[name]
    ruleset = get(name)
    return ruleset.title, ruleset.min_players, ruleset.max_players


def get(name: str) -> Ruleset:
    from pbem.core.ruleset import Ruleset

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

"""The standing choices (``[orders.choices]``): what a player decides inside someone else's
turn, where the table would ask him (docs/games/deukalion.md, "Adaptations").

- ``steal`` (Challenge Ship 3: "The winner can steal either a treasure chest OR an Action
  card"): ``"chest"`` or ``"card"``; with nothing of that kind to take, the other.
- ``push`` (Challenge Ship 3, Challenge Hydra 4, Hydra Attack 4: the loser's ship "by 3
  squares onto a free space"): ``"far_from_athens"``, ``"near_hydra"`` or ``"far_from_styx"``.
- ``hydra_to`` (Challenge Hydra 3, Hydra Attack 3: the Hydra "by 3 squares ... onto a free
  water square"): ``"far_from_me"`` or ``"near_leader"``.
- ``return_to`` (Pursuit Deliver 4: a delivered chest back "on any empty space on a city
  square"): ``"nearest_athens"`` or ``"farthest_athens"``.
- ``dump`` (Kylix Hoplites 2, Styx 1: chests dumped to make room): colours, first first.

Sealed with the order that carries them (the join, or any of the player's own forms) and
published at the end of the game; what they decide is a public event when it happens.
Every policy breaks ties by the lowest square id, so the result is auditable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.errors import Problem

CHOICES: dict[str, tuple[str, ...]] = {
    "steal": ("chest", "card"),
    "push": ("far_from_athens", "near_hydra", "far_from_styx"),
    "hydra_to": ("far_from_me", "near_leader"),
    "return_to": ("farthest_athens", "nearest_athens"),
}
DEFAULT: dict[str, Any] = {"steal": "chest", "push": "far_from_athens",
                           "hydra_to": "far_from_me", "return_to": "farthest_athens",
                           "dump": []}


def parse(raw: Any, colours: tuple[str, ...], where: str = "[orders.choices]"
          ) -> tuple[dict[str, Any] | None, list[Problem]]:
    """A complete set of choices from ``raw`` (keys left out keep the default's)."""
    if not isinstance(raw, Mapping):
        return None, [Problem(where, "must be a table", "write [orders.choices] on a line of "
                              "its own, then its keys")]
    problems = [Problem(f"{where} {k}", "unknown key", "keys: " + ", ".join([*CHOICES, "dump"]))
                for k in raw if k not in (*CHOICES, "dump")]
    out = dict(DEFAULT)
    for key, allowed in CHOICES.items():
        if key in raw:
            if raw[key] not in allowed:
                problems.append(Problem(f"{where} {key}", f"{raw[key]!r} is not a choice",
                                        "one of " + ", ".join(f'"{a}"' for a in allowed)))
            else:
                out[key] = raw[key]
    if "dump" in raw:
        value = raw["dump"]
        if not isinstance(value, list) or not all(x in colours for x in value):
            problems.append(Problem(f"{where} dump", "must be a list of chest colours",
                                    "colours: " + ", ".join(colours)))
        else:
            out["dump"] = list(value)
    return (None if problems else out), problems


def describe(choices: Mapping[str, Any]) -> str:
    push = {"far_from_athens": "far from Athens", "near_hydra": "near the Hydra",
            "far_from_styx": "far from the Styx"}[choices["push"]]
    hydra = {"far_from_me": "far from my ship",
             "near_leader": "near the player with most Honour"}[choices["hydra_to"]]
    back = {"farthest_athens": "the city farthest from Athens",
            "nearest_athens": "the city nearest Athens"}[choices["return_to"]]
    return (f"steal a {choices['steal']}; push losers {push}; put a beaten Hydra {hydra}; "
            f"delivered chests back to {back}; chests dumped first: "
            + (", ".join(choices["dump"]) or "none (no chest is dumped)"))

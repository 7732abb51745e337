"""Standing orders: the choices the rulebook lets a player make while someone else acts (the
monster phase, another player's turn), given in advance (DESIGN.md section 6; analysis 2.3).

``[orders.standing]`` in the join order or any turn order; the latest stands. Public (nothing in
Hetairos is hidden, analysis 2.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.errors import Problem

#: Each order, its default and what it means (docs/games/hetairos.md, "Standing orders").
DEFAULTS: dict[str, Any] = {
    "imprison": True,       # Battle 9: roll to imprison a defeated enemy that can be captured
    "soak": "npcs_first",   # Battle 8: how my side shares the damage it loses
    "cover": [],            # Battle 6: the players I take damage for
    "gorgon": "eyes_closed",  # Monster Gorgon: fight at -5, or "risk" the d6
    "pay_giant": False,     # Monster Giant: pay 6 Gold instead of fighting
    "reroll": True,         # Item 2, 8: a talisman rerolls a failed check or a lost round
    "npcs": "follow",       # my controlled NPCs in the world phase: follow me, or guard
    "traitor": "ares",      # Coop 2: the power I take if I become the traitor
    "escort": "hoplites",   # Team 1: 5 Hoplites or 3 Amazons under my command at the start
    "boot": [],             # Polis 6: the players I vote to boot out of a Polis I am citizen of
    "thunderbolt": "great_monster",  # Rare A6: hurl it at a monster about to act in range
}
CHOICES = {"soak": ("npcs_first", "me_first", "most_hp"),
           "gorgon": ("eyes_closed", "risk"), "npcs": ("follow", "guard"),
           "traitor": ("ares", "rising", "shadows"), "escort": ("hoplites", "amazons"),
           "thunderbolt": ("great_monster", "any", "never")}
HELP = {
    "imprison": "true or false",
    "soak": "one of " + ", ".join(CHOICES["soak"]),
    "cover": "a list of player names",
    "gorgon": "one of " + ", ".join(CHOICES["gorgon"]),
    "pay_giant": "true or false",
    "reroll": "true or false",
    "npcs": "one of " + ", ".join(CHOICES["npcs"]),
    "traitor": "one of " + ", ".join(CHOICES["traitor"]),
    "escort": "one of " + ", ".join(CHOICES["escort"]),
    "boot": "a list of player names",
    "thunderbolt": "one of " + ", ".join(CHOICES["thunderbolt"]),
}


def parse(raw: Any, players: tuple[str, ...] | list[str] = (),
          where: str = "[orders.standing]") -> tuple[dict[str, Any], list[Problem]]:
    """The standing orders given (only those given) and every problem with them."""
    if not isinstance(raw, Mapping):
        return {}, [Problem(where, "standing orders are a table of key = value",
                            'e.g. standing = { soak = "me_first" }')]
    out: dict[str, Any] = {}
    problems = []
    for k, v in raw.items():
        at = f"{where} {k}"
        if k not in DEFAULTS:
            problems.append(Problem(at, f"no standing order {k!r}",
                                    "known: " + ", ".join(DEFAULTS)))
        elif isinstance(DEFAULTS[k], bool):
            if not isinstance(v, bool):
                problems.append(Problem(at, f"{v!r} is not true or false", HELP[k]))
            else:
                out[k] = v
        elif k in ("cover", "boot"):
            if not isinstance(v, list) or not all(isinstance(p, str) for p in v):
                problems.append(Problem(at, f"{k} is a list of player names", HELP[k]))
            elif players and (bad := [p for p in v if p not in players]):
                problems.append(Problem(at, f"no player {bad[0]!r} in this campaign",
                                        "players: " + ", ".join(players)))
            else:
                out[k] = list(v)
        elif v not in CHOICES[k]:
            problems.append(Problem(at, f"{v!r} is not one of {', '.join(CHOICES[k])}", HELP[k]))
        else:
            out[k] = v
    return out, problems


def of(state: Mapping[str, Any], player: str) -> dict[str, Any]:
    """A player's standing orders with the defaults filled in."""
    return {**DEFAULTS, **state["standing"].get(player, {})}

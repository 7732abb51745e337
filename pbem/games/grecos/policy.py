"""The standing defence orders (``[orders.defend]``): what a player does in the others'
turns, where the table would ask him (docs/games/grecos.md, "Adaptations").

- ``casualties`` (Battle 7: "The defender decides which of his units is hit"): unit kinds or
  ids, the first to lose hits first; units not named follow, lowest Force first, then fewest
  hits left, then lowest id.
- ``order`` (Battle 5: which of his units attacks in each of his slots): kinds or ids, first
  first; the others follow, highest Force first, then lowest id.
- ``fates`` (Deck 24): the cards his The Fates negates when another player plays them on his
  units or on him.
- ``react`` (Deck 26-29): Lost or Storm at the start of another player's Move phase, Wine of
  Dionysus or Lotus Eaters at the start of a battle he defends, when he holds them.
- ``battle_cards`` (Battle 12): cards he plays in his first slot of a battle he defends.

The policy is sealed with the order that carries it (the join, or any of his own turns) and
published at the end of the game; each card it plays is a public event when played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.errors import Problem
from pbem.games.grecos.components import Components

KEYS = ("casualties", "order", "fates", "react", "battle_cards")
DEFAULT: dict[str, Any] = {
    "casualties": [], "order": [],
    "fates": ["betrayal", "volcano", "whirlpool", "prometheus"],
    "react": True,
    "battle_cards": ["asclepius", "golden_fleece", "cornucopia", "ares"],
}


def parse(c: Components, raw: Any, where: str = "[orders.defend]"
          ) -> tuple[dict[str, Any] | None, list[Problem]]:
    """A complete policy from ``raw`` (keys left out keep the default's), and the problems."""
    if not isinstance(raw, Mapping):
        return None, [Problem(where, "must be a table", "write [orders.defend] on a line of "
                              "its own, then its keys")]
    problems = [Problem(f"{where} {k}", "unknown key", "keys: " + ", ".join(KEYS))
                for k in raw if k not in KEYS]
    out = dict(DEFAULT)
    for key in ("casualties", "order"):
        if key in raw:
            value = raw[key]
            if not isinstance(value, list) or not all(
                    isinstance(x, str) and (x in c.units or x.isdigit()) for x in value):
                problems.append(Problem(f"{where} {key}", "must be a list of unit kinds or "
                                        "unit ids", f'{key} = ["hoplites", "7"]; kinds: '
                                        + ", ".join(c.units)))
            else:
                out[key] = list(value)
    for key in ("fates", "battle_cards"):
        if key in raw:
            value = raw[key]
            if not isinstance(value, list) or not all(
                    isinstance(x, str) and x in c.cards for x in value):
                problems.append(Problem(f"{where} {key}", "must be a list of card ids",
                                        "cards: " + ", ".join(c.cards)))
            else:
                out[key] = list(value)
    if "react" in raw:
        if not isinstance(raw["react"], bool):
            problems.append(Problem(f"{where} react", "must be true or false", "react = true"))
        else:
            out["react"] = raw["react"]
    return (None if problems else out), problems


def describe(c: Components, policy: Mapping[str, Any]) -> list[str]:
    """The policy in words, for its owner's report."""
    def names(ids: list[str], table: Mapping[str, Any]) -> str:
        return ", ".join(table[x].name if x in table else f"unit {x}" for x in ids) or "none"

    return [
        "Casualties first: " + (names(policy["casualties"], c.units) if policy["casualties"]
                                else "the lowest Force") + " (Battle 7).",
        "Attack order when defending: " + (names(policy["order"], c.units) if policy["order"]
                                           else "the highest Force first") + " (Battle 5).",
        "The Fates negates: " + names(policy["fates"], c.cards) + " (Deck 24).",
        "Reactions (Lost, Storm, Wine of Dionysus, Lotus Eaters): "
        + ("on" if policy["react"] else "off") + ".",
        "Cards played in a battle you defend: " + names(policy["battle_cards"], c.cards) + ".",
    ]

"""Basic Combat 7-10 by email: the defender's aid, answered by a sealed standing policy.

At the table the attacking player announces his aid for a fight, then "the opposing player"
announces his (Basic Combat 8-9). By email the defender cannot wait for the attacker's figure,
so each player keeps a standing defence policy, sealed with his orders (secret until the end
of the game), that answers with the same information he would have: the attacker's aid, the
Power Points he has left this Game Turn (Basic PP 1-4) and the fight.

``[orders.defend]`` (join and Player Turn forms; left out, the policy stays as it was)::

    mode = "match"        # none | fixed | match | match_plus
    plus = 1              # match_plus: the attacker's aid + plus
    fixed = 2             # fixed: always this much
    max_per_fight = 3     # never more than this in one fight
    reserve = 5           # never spend below this many Power Points left this Game Turn

The aid given is min(amount, max_per_fight, PP left - reserve), never below 0.

"The opposing player" (Basic Combat 9) is one player. With several players favouring the
defending kind (Basic Prep 9: every Hero is favoured by all the Hero players), the one whose
policy answers with the most aid answers the fight (ties: most Power Points left, then the
order of play): the side's strongest answer, as a table would agree it. He alone spends and,
if the defending unit wins, removes the attacker and scores it (Basic Win 1A). Summing every
defending player's aid instead would make an attack hopeless in a ten-player game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.errors import Problem

MODES = ("none", "fixed", "match", "match_plus")
KEYS = ("mode", "plus", "fixed", "max_per_fight", "reserve")
#: The documented default (docs/games/mythology-basic.md, "Defence"): match the attacker's
#: aid, up to 3 a fight, keeping 5 Power Points for the player's own turn.
DEFAULT: dict[str, Any] = {"fixed": 0, "max_per_fight": 3, "mode": "match", "plus": 0,
                           "reserve": 5}  # keys sorted, as the state's canonical JSON has them


def parse(raw: Any, where: str = "[orders.defend]") -> tuple[dict[str, Any] | None,
                                                              list[Problem]]:
    """A policy table: (the complete policy, the problems). Keys left out keep the default's
    value."""
    if not isinstance(raw, Mapping):
        return None, [Problem(where, "must be a table", 'write [orders.defend] then mode = '
                              '"match" and the other keys on lines of their own')]
    problems = [Problem(f"{where} {k}", "unknown key", "keys: " + ", ".join(KEYS))
                for k in raw if k not in KEYS]
    policy = dict(DEFAULT)
    mode = raw.get("mode", DEFAULT["mode"])
    if mode not in MODES:
        problems.append(Problem(f"{where} mode", f"{mode!r} is not a policy",
                                "one of " + ", ".join(f'"{m}"' for m in MODES)))
    else:
        policy["mode"] = mode
    for key in ("plus", "fixed", "max_per_fight", "reserve"):
        if key not in raw:
            continue
        value = raw[key]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 15:
            problems.append(Problem(f"{where} {key}", f"{value!r} is not a number of Power "
                                    "Points from 0 to 15 (Basic PP 1)", f"{key} = 2"))
        else:
            policy[key] = value
    return (None if problems else policy), problems


def aid(policy: Mapping[str, Any], attacker_aid: int, left: int) -> int:
    """The aid this policy gives in a fight where the attacker gives ``attacker_aid`` and
    the player has ``left`` Power Points this Game Turn (Basic PP 4: none at 0)."""
    mode = policy["mode"]
    amount = {"none": 0, "fixed": policy["fixed"], "match": attacker_aid,
              "match_plus": attacker_aid + policy["plus"]}[mode]
    return max(0, min(int(amount), int(policy["max_per_fight"]), left - int(policy["reserve"])))


def answer(policies: Mapping[str, Mapping[str, Any]], pp: Mapping[str, int],
           defenders: Sequence[str], attacker_aid: int) -> tuple[str, int]:
    """The opposing player of a fight and his aid (see the module docstring): among
    ``defenders`` (in the order of play), the most aid, then the most Power Points left."""
    best = max(defenders, key=lambda p: (aid(policies[p], attacker_aid, pp[p]), pp[p],
                                         -defenders.index(p)))
    return best, aid(policies[best], attacker_aid, pp[best])


def describe(policy: Mapping[str, Any]) -> str:
    """A policy in words, for the player's own report."""
    amount = {"none": "no aid", "fixed": f"{policy['fixed']} aid",
              "match": "as much aid as the attacker",
              "match_plus": f"the attacker's aid + {policy['plus']}"}[policy["mode"]]
    return (f"{amount}, at most {policy['max_per_fight']} a fight, keeping "
            f"{policy['reserve']} Power Points")

"""Basic ALLIANCES 1-5.

By email an alliance is declared, not shaken on: each player's orders may name the players he
allies with (``allies = ["bob"]``; ``allies = []`` leaves). An alliance exists while each of
its members names exactly the others (Basic Alliance 1: created "at any time" - here in any of
the member's Player Turn orders, the first moment the others could hear of it by email).
Formations and breaks are public events at once (Basic Alliance 2, 4). A Hero player may
never name a Monster player, nor the reverse (Basic Alliance 5): refused at submit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.errors import Problem


def problems(state: Mapping[str, Any], player: str, raw: Any) -> list[Problem]:
    """Everything wrong with an ``allies`` list of ``player``'s orders."""
    where = "[orders] allies"
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        return [Problem(where, "must be a list of player names", 'allies = ["bob"], or '
                        "allies = [] to leave your alliance")]
    out: list[Problem] = []
    side = state["favour"][player]
    for name in raw:
        if name == player:
            out.append(Problem(where, "you cannot ally with yourself", f"remove {name!r}"))
        elif name not in state["favour"]:
            out.append(Problem(where, f"{name!r} is not a player of this game",
                               "players: " + ", ".join(sorted(state["favour"]))))
        elif state["favour"][name] != side:
            out.append(Problem(where, f"{name} favours {state['favour'][name]} and you "
                               f"favour {side}: such players may never ally (Basic "
                               "Alliance 5)", f"remove {name!r}"))
    if len(set(raw)) != len(raw):
        out.append(Problem(where, "names a player twice", "name each once"))
    return out


def formed(declared: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """The alliances that exist: groups of two or more in which every member names exactly
    the others."""
    groups: list[list[str]] = []
    for player, names in sorted(declared.items()):
        if not names:
            continue
        group = sorted({player, *names})
        if group in groups:
            continue
        if all(q in declared and sorted(declared[q]) == [x for x in group if x != q]
               for q in group):
            groups.append(group)
    return sorted(groups)


def declare(state: dict[str, Any], player: str, names: Sequence[str]) -> list[dict[str, Any]]:
    """``player`` names his allies now: the alliances broken and formed by it, as public
    events (Basic Alliance 2, 4)."""
    events: list[dict[str, Any]] = []
    before = [list(g) for g in state["alliances"]]
    state["allies"][player] = sorted(names)
    after = formed(state["allies"])
    wanted = ", ".join(sorted(names)) or "nobody"
    events.append({"type": "allies", "player": player, "allies": sorted(names),
                   "text": f"{player} declares allies: {wanted} (Basic Alliance 1)."})
    for group in before:
        if group not in after:
            events.append({"type": "alliance-broken", "players": group, "text":
                           f"The alliance of {', '.join(group)} is broken (Basic Alliance 4)."})
    for group in after:
        if group not in before:
            events.append({"type": "alliance-formed", "players": group, "text":
                           f"{', '.join(group)} are allies (Basic Alliance 2): at the end "
                           "their Victory Points are pooled and shared (Basic Alliance 3)."})
    state["alliances"] = after
    return events

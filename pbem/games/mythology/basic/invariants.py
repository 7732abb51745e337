"""The Basic Game's conservation rules, checked between every two states by ``pbem
simulate``: counters in one place, Power Points within 0-15, VP that recompute from the
removals and captures, alliances that exist by mutual naming and never across sides."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pbem.games.mythology.basic import alliances
from pbem.games.mythology.basic.scoring import PRIZE_LEFT_VP, PRIZE_VP, UNIT_VP
from pbem.games.mythology.basic.setup import HEROES, POWER_POINTS
from pbem.games.mythology.components import Components


def check(c: Components, before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    out: list[str] = []
    s = after
    units = s["units"]
    if sorted(map(int, units)) != sorted([*c.heroes, *c.monsters]):
        out.append("the units are not exactly the 64 Hero and Monster counters")
    for u, h in units.items():
        if h and h not in c.map.hexes:
            out.append(f"unit {u} stands on {h}, not a hex of the map")
        if bool(h) == (u in s["removed"]):
            out.append(f"unit {u} is {'both on the board and removed' if h else 'nowhere'}")
    taken = [x["hex"] for x in s["prizes"].values() if x["hex"]]
    if len(taken) != len(set(taken)):
        out.append("two Prizes share a hex")
    for p, x in s["prizes"].items():
        if bool(x["hex"]) == bool(x["by"]):
            out.append(f"Prize {p} is {'on the board and captured' if x['hex'] else 'nowhere'}")
        elif x["by"] and s["favour"][x["by"]] != HEROES:
            out.append(f"Prize {p} was captured by {x['by']}, who favours Monsters (Capture 7)")
    for p, left in s["pp"].items():
        if not 0 <= left <= POWER_POINTS:
            out.append(f"{p} has {left} Power Points (Basic PP 1, 4)")
    heroes = sum(side == HEROES for side in s["favour"].values())
    if heroes != (len(s["seats"]) + 1) // 2:
        out.append(f"{heroes} of {len(s['seats'])} players favour Heroes (Basic Prep 9)")
    expect = {p: Fraction(0) for p in s["seats"]}
    for x in s["removed"].values():
        expect[x["by"]] += UNIT_VP
    for x in s["prizes"].values():
        if x["by"]:
            expect[x["by"]] += PRIZE_VP
    if s["step"] == "over":
        monsters = [p for p in s["seats"] if s["favour"][p] != HEROES]
        left = sum(1 for x in s["prizes"].values() if x["hex"])
        for p in monsters:
            expect[p] += Fraction(PRIZE_LEFT_VP * left, len(monsters))
    for p in s["seats"]:
        if Fraction(s["vp"][p]) != expect[p]:
            out.append(f"{p} has {s['vp'][p]} VP; removals and Prizes give {expect[p]}")
    if s["alliances"] != alliances.formed(s["allies"]):
        out.append("the alliances do not match what the players declared")
    for group in s["alliances"]:
        if len({s["favour"][p] for p in group}) != 1:
            out.append(f"the alliance {group} mixes Hero and Monster players (Alliance 5)")
    areas = [a for a in s["god_area"].values() if a]
    if len(areas) != len(set(areas)):
        out.append("two gods share an Area this Game Turn (Basic Play 2A)")
    if before is not None and before["turn"] == s["turn"]:
        for p in s["seats"]:
            if s["pp"][p] > before["pp"][p]:
                out.append(f"{p}'s Power Points went up within Game Turn {s['turn']}")
    return out

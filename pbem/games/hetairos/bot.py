"""A bot for every Hetairos phase, from the player's own view (demo, simulate): it joins with a
ranked list of characters, and in its turns it fights what shares its square, heals at
springs, sells prisoners at settlements, buys a weapon when it can, hunts the scenario's goal
(a known Great Monster lair for Beast Slayers and Hero, a settlement with prisoners to sell for
Bounty Hunting) and otherwise explores toward the nearest unexplored opening.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from pbem.core.dice import Stream
from pbem.core.ruleset import Orders, PhaseSpec
from pbem.games.hetairos import grid, monsters
from pbem.games.hetairos.table import Components, Model, Table

WANT = ("sword", "axe", "spear", "aspis")  # what a bot buys first, when it has the Gold


def join(c: Components, player: str, rng: Stream) -> Orders:
    ranked = rng.shuffle(sorted(c.people.characters), f"bot/{player}/characters")
    return {"characters": ranked[:4]}


def orders(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
           rng: Stream) -> Orders:
    if phase.kind == "join":
        return join(c, player, rng)
    if phase.kind != "turn":
        return {}
    state = cast(dict[str, Any], dict(view))
    t = Table(c, state, rng, label="bot")
    m = t.pc(player)
    if m is None:
        return {}
    steps = plan(t, m)
    halts = rng.choice([["enemy", "trap"], ["discovery", "enemy", "trap", "wound"], []],
                       f"bot/{player}/halts")
    return {"steps": steps, "halt": halts}


def _frontier(t: Table, m: Model, reach: dict[str, tuple[int, str]]) -> list[tuple[int, str, str]]:
    """(cost, square, direction) of every reachable square with an opening into the unknown."""
    out = []
    for k, (cost, _) in reach.items():
        sq = t.square(k)
        for d in grid.DIRS:
            if grid.can_leave(sq, k, d, "W" if grid.on_styx(k) else "") and \
                    t.square(grid.neighbour(k, d)) is None:
                out.append((cost, k, d))
    return sorted(out, key=lambda x: (x[0], grid.xy(x[1]), x[2]))


def _route(t: Table, m: Model, goal: str) -> list[str]:
    """Directions from ``m`` to ``goal`` along drawn squares (empty if none)."""
    route: list[str] = []
    probe = dict(m)
    for _ in range(12):
        if probe["at"] == goal:
            return route
        reach = monsters.paths(t, probe)
        if goal not in reach:
            return []
        d = reach[goal][1]
        route.append(d)
        probe["at"] = grid.neighbour(probe["at"], d)
        probe["bank"] = grid.bank_of(probe["at"], d) if grid.on_styx(probe["at"]) else ""
    return route


def plan(t: Table, m: Model) -> list[str]:
    """The bot's steps for this turn."""
    if m.get("stuck") == "pit":
        return ["climb", "climb"]
    if m.get("stuck") == "daedalus":
        return ["escape", "escape"]
    ap = int(m["ap"])
    here = t.square(m["at"]) or {}
    kind = here.get("kind", "")
    if t.enemies_at(m):
        return ["attack"] * max(1, min(ap, 4))
    steps: list[str] = []
    site = here.get("site", {})
    if site.get("settlement") and not site.get("destroyed"):
        if m["prisoners"]:
            steps.append("sell prisoners")
        price_list = t.c.people.prices.get(kind, {})
        gold = int(m["gold"])
        for ware in WANT:
            if ware in price_list and ware not in m["items"] and price_list[ware].gold <= gold:
                steps.append(f"buy {ware}")
                gold -= price_list[ware].gold
    if kind == "magic_spring" and m["hp"] < m["max_hp"] and ap >= 2:
        steps.append("spring")
        return steps
    goal = _goal(t, m)
    if goal:
        route = _route(t, m, goal)
        if route:
            return [*steps, f"move {' '.join(route[:max(ap, 1)])}"]
    reach = monsters.paths(t, m)
    front = _frontier(t, m, reach)
    if front:
        _cost, k, d = front[0]
        route = _route(t, m, k) if k != m["at"] else []
        ahead = max(1, ap - len(route))  # on into the unknown, straight, with the AP left
        return [*steps, f"move {' '.join([*route, *[d] * ahead])}"]
    return [*steps, "end"]


def _goal(t: Table, m: Model) -> str:
    """A square the scenario makes worth walking to, if one is known."""
    scen = t.state["scenario"]
    if scen in ("beast_slayers", "hero") and m["hp"] >= 6:
        greats = [o for o in t.alive() if o["side"] == "monster"
                  and t.c.monster(o["type"]).great]
        if greats:
            return str(min(greats, key=lambda o: grid.manhattan(o["at"], m["at"]))["at"])
    if m["prisoners"]:
        towns = [k for k, sq in t.state["map"].items()
                 if sq.get("site", {}).get("settlement") and not sq["site"].get("destroyed")]
        if towns:
            return str(min(towns, key=lambda k: grid.manhattan(k, m["at"])))
    if m["hp"] <= 3:
        springs = [k for k, sq in t.state["map"].items() if sq["kind"] == "magic_spring"]
        if springs:
            return str(min(springs, key=lambda k: grid.manhattan(k, m["at"])))
    return ""

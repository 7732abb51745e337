"""A bot for every Hetairos phase, from the player's own view (demo, simulate): it joins with a
ranked list of characters, and in its turns it fights what shares its square, heals at
springs, sells prisoners at settlements, buys a weapon when it can, hunts the scenario's goal
(a known Great Monster lair for Beast Slayers and Hero, a settlement with prisoners to sell for
Bounty Hunting) and otherwise explores toward the nearest unexplored opening.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Stream
from pbem.core.ruleset import Orders, PhaseSpec
from pbem.games.hetairos import grid, monsters, standing, turn
from pbem.games.hetairos.table import Components, Model, Table

WANT = ("sword", "axe", "spear", "aspis")  # what a bot buys first, when it has the Gold
HOLDS = ("pit", "snake_pit", "room_of_daedalus", "revolving_room")  # traps that stop a walk


def join(c: Components, player: str, rng: Stream) -> Orders:
    ranked = rng.shuffle(sorted(c.people.characters), f"bot/{player}/characters")
    return {"characters": ranked[:4]}


def orders(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
           rng: Stream) -> Orders:
    if phase.kind == "join":
        return join(c, player, rng)
    if phase.kind != "turn":
        return {}
    t = turn.preview(c, view, player)  # the turn's AP, as the adjudication will give them
    state = t.state
    m = t.pc(player)
    if m is None:
        return {}
    steps = plan(t, m)
    halts = rng.choice([["enemy", "trap"], ["discovery", "enemy", "trap", "wound"], []],
                       f"bot/{player}/halts")
    # Battle 9: each prisoner costs a point of allowance: two are enough to carry
    keep = len(m["prisoners"]) < 2
    if standing.of(state, player)["imprison"] != keep:
        return {"steps": steps, "halt": halts, "standing": {"imprison": keep}}
    return {"steps": steps, "halt": halts}


def _frontier(t: Table, m: Model, reach: dict[str, tuple[int, str]]) -> list[tuple[int, str, str]]:
    """(cost, square, direction) of every reachable square with an opening into the unknown."""
    out = []
    for k, (cost, _) in reach.items():
        sq = t.square(k)
        if k != m["at"] and any(t.enemies(m, o) for o in t.at(k)):
            continue  # no passing through (Battle 1)
        for d in grid.DIRS:
            if grid.on_styx(k) and d in "EW" and not (sq or {}).get("bridge") and \
                    (k != m["at"] or d != m.get("bank")):
                continue  # which bank a route ends on is not known here: only bridges
            if grid.can_leave(sq, k, d, m.get("bank", "") if k == m["at"] else d) and \
                    t.square(grid.neighbour(k, d)) is None:
                out.append((cost, k, d))
    return sorted(out, key=lambda x: (x[0], grid.xy(x[1]), x[2]))


def _route(t: Table, m: Model, goal: str) -> list[str]:
    """Directions from ``m`` to ``goal`` along drawn squares, as far as its AP reach."""
    out: list[str] = []
    ap, k = int(m["ap"]), m["at"]
    for d in monsters.route(t, m, goal):
        k = grid.neighbour(k, d)
        sq = t.square(k)
        cost = t.c.world.squares[sq["kind"]].move_cost if sq else 1
        if cost > ap:
            break
        ap -= cost
        out.append(d)
        if (sq or {}).get("site", {}).get("trap") in HOLDS:
            break  # a known pit or maze holds whoever enters: the route ends there
    return out


def _cost(t: Table, start: str, route: list[str]) -> list[int]:
    k, out = start, []
    for d in route:
        k = grid.neighbour(k, d)
        sq = t.square(k)
        out.append(t.c.world.squares[sq["kind"]].move_cost if sq else 1)
    return out


def plan(t: Table, m: Model) -> list[str]:
    """The bot's steps for this turn."""
    ap0 = int(m["ap"])
    if m.get("stuck") == "pit":  # Trap 4: 1 AP a try
        return ["climb"] * min(ap0, 2) or ["end"]
    if m.get("stuck") == "daedalus":  # Trap 6: a knowledge check, 2 AP a try
        return ["escape"] * min(ap0 // 2, 2) or ["end"]
    if m.get("stuck") == "revolving":  # Trap 5: out across the side it was spat out on
        exit_ = str(m.get("exit", ""))
        side = len(exit_) == 1 and exit_ in grid.DIRS  # ("" is in any string)
        out = t.square(grid.neighbour(m["at"], exit_)) if side else None
        if side and ap0 >= 1 and (out is None or (
                t.c.world.squares[out["kind"]].passable and grid.can_enter(out, exit_)
                and (out["kind"] != "small_tunnel" or (ap0 >= 2 and turn._small_ok(t, m))))):
            return [f"move {exit_}"]
        if exit_ != "any":
            return ["end"]
    ap = int(m["ap"])
    if ap < 1:
        return ["end"]
    here = t.square(m["at"]) or {}
    kind = here.get("kind", "")
    if t.enemies_at(m):
        return ["attack"] * max(1, min(ap, 4))
    steps: list[str] = []
    site = here.get("site", {})
    if site.get("settlement") and not site.get("destroyed") and \
            t.team_of(m) not in t.state["hostile"].get(m["at"], []):
        if m["prisoners"]:
            steps.append("sell prisoners")
        price_list = t.c.people.prices.get(kind, {})
        gold = int(m["gold"])
        for ware in WANT:
            if ware in price_list and ware not in m["items"] and price_list[ware].gold <= gold:
                steps.append(f"buy {ware}")
                gold -= price_list[ware].gold
    if t.c.world.scenarios[t.state["scenario"]].list == "myth":  # a Great Myth's own steps
        from pbem.games.hetairos.scenarios import myth

        steps += myth.bot_steps(t, m, steps)
    if t.c.world.scenarios[t.state["scenario"]].kind == "team":  # Team 3: war on a town
        from pbem.games.hetairos.scenarios import team

        if war := team.bot_steps(t, m):
            return [*steps, *war]
    if kind == "magic_spring" and m["hp"] < m["max_hp"] and ap >= 2:
        steps.append("spring")
        return steps
    from pbem.games.hetairos import scenarios

    own = scenarios.get(t.state["scenario"]).form_examples(t, m)  # the scenario's steps now
    if own:
        return [*steps, *own[0][1]]
    goal = _goal(t, m)
    if goal:
        route = _route(t, m, goal)
        if route:
            return [*steps, f"move {' '.join(route[:max(ap, 1)])}"]
    reach = monsters.paths(t, m)
    front = _frontier(t, m, reach)
    if front:
        _c, k, d = front[0]
        route = _route(t, m, k) if k != m["at"] else []
        if k != m["at"] and (not route or len(route) < len(monsters.route(t, m, k))):
            return [*steps, f"move {' '.join(route)}"] if route else [*steps, "end"]
        left = ap - sum(_cost(t, m["at"], route))
        last = t.square(k) or {}
        if left < 1 or last.get("site", {}).get("trap") in HOLDS:
            return [*steps, f"move {' '.join(route)}"] if route else [*steps, "end"]
        ahead = left  # on into the unknown, straight, with the AP left (each square 1 or more)
        return [*steps, f"move {' '.join([*route, *[d] * ahead])}"]
    return [*steps, "end"]


def _goal(t: Table, m: Model) -> str:
    """A square the scenario makes worth walking to, if one is known."""
    scen = t.state["scenario"]
    if t.c.world.scenarios[scen].list == "myth":  # the Great Myths: scenarios/myth.py
        from pbem.games.hetairos.scenarios import myth

        if k := myth.bot_goal(t, m):
            return k
    if t.c.world.scenarios[scen].kind == "team":  # the team list: scenarios/team.py
        from pbem.games.hetairos.scenarios import team

        if k := team.bot_goal(t, m):
            return k
    if scen in ("beast_slayers", "hero") and m["hp"] >= 6:
        greats = [o for o in t.alive() if o["side"] == "monster"
                  and t.c.monster(o["type"]).great]
        if greats:
            return str(min(greats, key=lambda o: grid.manhattan(o["at"], m["at"]))["at"])
    aim = _scenario_goal(t, m)
    if aim:
        return aim
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


def _nearest(m: Model, squares: list[str]) -> str:
    return min(squares, key=lambda k: (grid.manhattan(k, m["at"]), grid.xy(k))) if squares else ""


def _scenario_goal(t: Table, m: Model) -> str:
    """Coop 1-2, 4 and Solo 1, 2, 5: where the scenario's goal lies, if known."""
    scen, goal, owner = t.state["scenario"], t.state["goal"], m["owner"]
    where = t.state["map"]

    def kinds(*names: str) -> list[str]:
        return [k for k, sq in where.items() if sq["kind"] in names
                and not sq.get("site", {}).get("destroyed")]

    if scen == "the_lost_ones" and any(o["side"] == "npc" and o["owner"] == owner
                                       and o.get("lost") and not o.get("home_safe")
                                       for o in t.alive()):
        return _nearest(m, kinds("polis", "manor", "kobaloi_settlement"))
    if scen == "deity":
        mine = [k for k in kinds("olympian_shrine", "shrine_of_hecate")
                if where[k].get("site", {}).get("deity") == owner]
        if m["prisoners"] and mine:
            return _nearest(m, mine)
        return _nearest(m, [k for k in kinds("olympian_shrine", "shrine_of_hecate")
                            if k not in mine and not any(o["id"] != m["id"] for o in t.at(k))])
    if scen == "the_guardians_roar" and goal.get("cerberus"):
        return _nearest(m, kinds("surface_tunnel"))
    if scen == "the_world_above":
        if m["prisoners"]:
            return _nearest(m, kinds("olympian_shrine"))
        return _nearest(m, kinds("shrine_of_hecate")) if m["hp"] >= 6 else ""
    if scen == "the_traitor" and goal.get("traitor", {}).get("player") == owner:
        return _nearest(m, [o["at"] for o in t.alive() if o["side"] == "pc"
                            and o["owner"] != owner])
    if scen == "the_will_to_conquer":
        return _nearest(m, [k for k in kinds("polis", "manor")
                            if k not in goal.get("conquered", [])])
    return ""

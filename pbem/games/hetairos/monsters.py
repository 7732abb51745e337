"""The world phase (Start 1: "ALL MONSTERS AND NPCs MOVE AFTER THE PLAYERS IN A SEPARATE PHASE";
Appendix A; analysis 3.2): the lava spreads, controlled NPCs act on their owners' standing
orders, lairs and shrines spawn, every monster acts, snake pits bite, settlements fall.

The monsters' algorithm (authored, Appendix A "SIMPLE", docs/games/hetairos.md): each monster in
the order it came into play, with its Action Points:

1. an enemy in its square: attack it (1 AP a round), player characters first, then NPCs, then
   settlement defenders, the lowest id first; an Amazon attacks an enemy in a neighbouring
   square in preference to moving into it (Monster Amazon);
2. else step along a shortest path (AP cost; small tunnels cost 2 and are closed to those that
   "MAY NEVER MOVE DOWN SMALL TUNNELS"; the Styx crossed only on bridges; no passing through a
   square with enemies) toward the nearest target: player characters for spawned monsters
   (Lair 3, Hecate 1), "THE NEAREST CHARACTER OF ANY SORT" for Great Monsters (Lair 4); ties
   broken by the order of the directions N, E, S, W;
3. no target reachable: it explores (the designer's solo practice, analysis 7): it enters the
   unexplored neighbour that most reduces its distance to the nearest player character, drawn
   as for a player; it stops when it cannot.
"""

from __future__ import annotations

import heapq

from pbem.games.hetairos import combat, explore, grid, scenarios, sites, standing, turn
from pbem.games.hetairos.table import Model, Table

#: Safety bound on a monster's actions in one phase (no monster has more AP than this).
MAX_ACTIONS = 20


def order(t: Table, side: str) -> list[Model]:
    return sorted((m for m in t.alive() if m["side"] == side),
                  key=lambda m: int(m["id"][1:]))


def ap_of(t: Table, m: Model) -> int:
    """A monster's Action Points this phase (Monster 0: 5; Cerberus d6+4 each turn)."""
    if m.get("ap_allowance"):  # a scenario's own allowance (Myth 6: Philoctetes' 3 AP)
        return int(m["ap_allowance"])
    kind = t.c.monster(m["type"])
    if kind.ap_dice:
        return t.roll(kind.ap_dice, f"ap/{m['id']}")
    return kind.ap


def _passable(t: Table, m: Model, k: str) -> bool:
    sq = t.square(k)
    if sq is None:
        return False
    kind = t.c.world.squares[sq["kind"]]
    if not kind.passable:
        return False
    return sq["kind"] != "small_tunnel" or turn._small_ok(t, m)


def paths(t: Table, m: Model, until: set[str] | None = None) -> dict[str, tuple[int, str]]:
    """Square -> (AP cost, first step) over drawn, open, passable squares from ``m``
    (Dijkstra; ties by direction order N, E, S, W). With ``until`` (squares sought), it stops
    once every square no dearer than the cheapest of them is settled: what the nearest target
    needs, the same answer for those squares."""
    start = (m["at"], m.get("bank", ""))
    best: dict[str, tuple[int, str]] = {m["at"]: (0, "")}
    seen: set[tuple[str, str]] = set()
    queue: list[tuple[int, int, str, str, str]] = [(0, 0, start[0], start[1], "")]
    blocked = {o["at"] for o in t.alive() if o["at"] != m["at"] and hostile(t, m, o)}
    n = 0
    found = -1
    while queue:
        cost, _, k, bank, first = heapq.heappop(queue)
        if found >= 0 and cost > found:
            break
        if (k, bank) in seen:
            continue
        seen.add((k, bank))
        if until and k in until and found < 0:
            found = cost
        if k in blocked:
            continue  # Battle 1: no passing through
        for d in grid.DIRS:
            if not grid.can_leave(t.square(k), k, d, bank):
                continue
            k2 = grid.neighbour(k, d)
            if not _passable(t, m, k2) or not grid.can_enter(t.square(k2), d):
                continue
            sq2 = t.square(k2)
            assert sq2 is not None
            c2 = cost + t.c.world.squares[sq2["kind"]].move_cost
            b2 = (grid.bank_of(k2, d) or bank or "W") if grid.on_styx(k2) else ""
            step = first or d
            if k2 not in best or c2 < best[k2][0]:
                best[k2] = (c2, step)
            n += 1
            heapq.heappush(queue, (c2, n, k2, b2, step))
    return best


def towns(t: Table, m: Model) -> bool:
    """Whether ``m`` fights settlements: Appendix A's SIMPLE monsters "IGNORE/WALK THROUGH ALL
    TOWNS"; COMPLEX ones (option ``monsters=complex``) and Cerberus ("CAN ATTACK SETTLEMENTS
    ON ITS OWN") do not; a player's NPCs defend them."""
    if m["side"] != "monster":
        return True
    kind = t.c.monster(m["type"])
    return (t.state["options"].get("monsters") == "complex"
            or "attacks_settlements" in kind.specials)


def hostile(t: Table, m: Model, o: Model) -> bool:
    """Whether ``m`` attacks ``o`` when they meet."""
    if o["hp"] <= 0 or not t.enemies(m, o):
        return False
    if o["side"] == "defender" and not towns(t, m):
        return False
    if m["side"] == "monster" and scenarios.get(t.state["scenario"]).ignores(t, m, o):
        return False
    return not (m["type"] == "giant" and m["side"] == "monster" and o["side"] == "pc"
                and o["owner"] in m.get("bought_off", []))


def route(t: Table, m: Model, goal: str) -> list[str]:
    """The directions of a cheapest path from ``m`` to ``goal`` over drawn squares (as
    :func:`paths`: ties by the directions N, E, S, W), or [] when there is none."""
    Node = tuple[str, str]
    start: Node = (m["at"], m.get("bank", ""))
    came: dict[Node, tuple[Node, str]] = {}
    queue: list[tuple[int, int, str, str, str, str, str]] = [(0, 0, *start, "", "", "")]
    n = 0
    while queue:
        cost, _, k, bank, pk, pb, d0 = heapq.heappop(queue)
        if (k, bank) in came or ((k, bank) == start and d0):
            continue
        if d0:
            came[(k, bank)] = ((pk, pb), d0)
        if k == goal:
            out, node = [], (k, bank)
            while node != start:
                node, d = came[node]
                out.append(d)
            return out[::-1]
        if k != m["at"] and any(hostile(t, m, o) for o in t.at(k)):
            continue
        for d in grid.DIRS:
            if not grid.can_leave(t.square(k), k, d, bank):
                continue
            k2 = grid.neighbour(k, d)
            sq2 = t.square(k2)
            if sq2 is None or not _passable(t, m, k2) or not grid.can_enter(sq2, d):
                continue
            b2 = (grid.bank_of(k2, d) or bank or "W") if grid.on_styx(k2) else ""
            if (k2, b2) in came:
                continue
            n += 1
            heapq.heappush(queue, (cost + t.c.world.squares[sq2["kind"]].move_cost, n, k2, b2,
                                   k, bank, d))
    return []


def is_target(t: Table, m: Model, o: Model) -> bool:
    """Whether ``m`` seeks ``o`` out: spawned monsters "THE NEAREST PLAYER CHARACTERS" (Lair 3,
    Hecate 1); Great Monsters "THE NEAREST CHARACTER OF ANY SORT" (Lair 4)."""
    if not hostile(t, m, o):
        return False
    if o["side"] == "pc":
        return True
    return t.c.monster(m["type"]).great or (o["side"] == "defender" and towns(t, m))


def _victim(t: Table, m: Model, here: list[Model]) -> Model | None:
    rank = {"pc": 0, "npc": 1, "defender": 2}
    foes = [o for o in here if hostile(t, m, o)]
    if not foes:
        return None
    return min(foes, key=lambda o: (rank.get(o["side"], 3), int(o["id"][1:])))


def thunderbolt_first(t: Table, m: Model) -> bool:
    """Rare A6 "SLAY ANY CREATURE INSTANTLY ... NO ACTION POINTS NEEDED": a player whose
    standing ``thunderbolt`` covers monster ``m`` (``great_monster``: a Great Monster or
    Cerberus; ``any``) hurls it before ``m`` acts, if ``m`` is in range; seat order."""
    from pbem.games.hetairos import skills

    great = t.c.monster(m["type"]).great
    for p in t.state["seats"]:
        pc = t.pc(p)
        if pc is None or "thunderbolt" not in pc["items"]:
            continue
        when = standing.of(t.state, p)["thunderbolt"]
        if (when == "any" or (when == "great_monster" and great)) and \
                skills.use(t, pc, "thunderbolt", m["id"]) == "":
            return True
    return False


def act(t: Table, m: Model) -> None:
    """One monster's (or controlled NPC's) actions this phase."""
    if m["side"] == "monster" and thunderbolt_first(t, m):
        return
    ap = ap_of(t, m)
    for _ in range(MAX_ACTIONS):
        if ap <= 0 or m["hp"] <= 0 or m.get("resting"):
            return
        foe = _victim(t, m, t.at(m["at"]))
        if foe is not None:
            if m["type"] == "giant" and foe["side"] == "pc" and turn.buy_off(t, m, foe):
                continue
            ap -= 1
            combat.attack(t, m, foe)
            continue
        if m.get("stuck"):
            return
        if m["side"] == "monster" and "attacks_adjacent" in t.c.monster(m["type"]).specials:
            near = _adjacent_foe(t, m)
            if near is not None:
                ap -= 1
                combat.attack(t, m, near, ranged=True)
                continue
        step = _next_step(t, m)
        if not step:
            return
        k = grid.neighbour(m["at"], step)
        sq = t.square(k)
        if sq is None:
            explore.draw(t, k, step, m)
            sq = t.square(k)
            assert sq is not None
            if not _passable(t, m, k):
                ap -= 1
                continue
        cost = t.c.world.squares[sq["kind"]].move_cost
        if ap < cost:
            return
        ap -= cost
        m["at"] = k
        m["bank"] = (grid.bank_of(k, step) or m.get("bank", "") or "W") if grid.on_styx(k) \
            else ""
        t.say("moves", f"{t.name(m['id'])} moves {grid.NAMES[step]} to {k}.", model=m["id"],
              square=k)
        sites.on_enter(t, m, k, step)


def _adjacent_foe(t: Table, m: Model) -> Model | None:
    for d in grid.DIRS:
        if not grid.can_leave(t.square(m["at"]), m["at"], d, m.get("bank", "")):
            continue
        k = grid.neighbour(m["at"], d)
        sq = t.square(k)
        if sq is None or not grid.can_enter(sq, d):
            continue
        foe = _victim(t, m, t.at(k))
        if foe is not None:
            return foe
    return None


#: Appendix A COMPLEX (authored): how far (in AP) a monster looks for a settlement to besiege,
#: the strength a group gathers before it attacks ("UNTIL THEY HAVE FIVE MODELS") and what a
#: Great Monster counts ("GREAT MONSTERS COUNT AS 3").
GATHER_RADIUS = 6
GATHER_STRENGTH = 5
GREAT_COUNTS = 3


def _borders(t: Table, town: str) -> list[str]:
    """The drawn, passable squares next to ``town`` from which it can be entered."""
    out = []
    for d in grid.DIRS:
        k = grid.neighbour(town, grid.opposite(d))  # entering the town moving d
        sq = t.square(k)
        if sq is not None and t.c.world.squares[sq["kind"]].passable and \
                grid.can_leave(sq, k, d, "") and grid.can_enter(t.square(town), d):
            out.append(k)
    return out


def _strength(t: Table, squares: list[str]) -> int:
    return sum(GREAT_COUNTS if t.c.monster(o["type"]).great else 1
               for k in squares for o in t.at(k) if o["side"] == "monster")


def gather_step(t: Table, m: Model) -> str | None:
    """Appendix A COMPLEX: "MONSTERS WILL GROUP ON THE BORDERS OF SETTLEMENTS UNTIL THEY HAVE
    FIVE MODELS, AT WHICH POINT THEY WILL ATTEMPT TO ATTACK. GREAT MONSTERS COUNT AS 3".
    Authored: a monster within GATHER_RADIUS AP of a standing settlement walks to the nearest
    square on its border and waits there (""), until the monsters on its borders count 5; then
    each steps in and attacks its force. None: no settlement near (it seeks players, as
    SIMPLE)."""
    reach = paths(t, m)
    towns = sorted((reach[k][0], grid.xy(k), k) for k, sq in t.state["map"].items()
                   if sq.get("site", {}).get("settlement") and not sq["site"].get("destroyed")
                   and k in reach and reach[k][0] <= GATHER_RADIUS + 2)
    for _, _, town in towns:
        border = _borders(t, town)
        if m["at"] == town or not border:
            return None
        if m["at"] in border:
            if _strength(t, border) >= GATHER_STRENGTH:
                return next(d for d in grid.DIRS if grid.neighbour(m["at"], d) == town)
            return ""  # waits for the others
        near = [(reach[b][0], grid.xy(b), b) for b in border if b in reach]
        if near and min(near)[0] <= GATHER_RADIUS:
            return reach[min(near)[2]][1]
    return None


def _next_step(t: Table, m: Model) -> str:
    """The direction of ``m``'s next step toward its nearest target, or of exploring."""
    if m["side"] == "npc":
        return _npc_step(t, m)
    if t.state["options"].get("monsters") == "complex":
        step = gather_step(t, m)
        if step is not None:
            return step
    quarry = [t.models[i] for i in scenarios.get(t.state["scenario"]).prefers(t, m)
              if i in t.models and t.models[i]["hp"] > 0]
    if quarry:  # a scenario's quarry before any other (Myth 1: the Furies' Aristocrat)
        reach = paths(t, m, {o["at"] for o in quarry})
        first = [o for o in quarry if o["at"] in reach]
        if first:
            goal = min(first, key=lambda o: (reach[o["at"]][0], int(o["id"][1:])))
            return reach[goal["at"]][1]
    sought = {o["at"] for o in t.alive() if is_target(t, m, o)}
    if not sought:
        return _explore_step(t, m, {})
    reach = paths(t, m, sought)
    targets = [o for o in t.alive() if is_target(t, m, o) and o["at"] in reach]
    if targets:
        goal = min(targets, key=lambda o: (reach[o["at"]][0], int(o["id"][1:])))
        return reach[goal["at"]][1]
    return _explore_step(t, m, reach)


def _explore_step(t: Table, m: Model, reach: dict[str, tuple[int, str]]) -> str:
    """No target reachable: the undrawn neighbour of its square that brings it nearest a
    player character (straight-line distance); "" when there is none."""
    pcs = [o["at"] for o in t.alive() if o["side"] == "pc"]
    if not pcs:
        return ""
    best: tuple[int, int, str] | None = None
    for i, d in enumerate(grid.DIRS):
        if not grid.can_leave(t.square(m["at"]), m["at"], d, m.get("bank", "")):
            continue
        k = grid.neighbour(m["at"], d)
        if t.square(k) is not None:
            continue
        dist = min(grid.manhattan(k, p) for p in pcs)
        if dist < min(grid.manhattan(m["at"], p) for p in pcs) and (
                best is None or (dist, i) < best[:2]):
            best = (dist, i, d)
    return best[2] if best else ""


def _npc_step(t: Table, m: Model) -> str:
    """A controlled NPC follows its owner's character (standing ``npcs = "follow"``) or holds
    its square (``guard``)."""
    if standing.of(t.state, m["owner"])["npcs"] == "guard" or m.get("stationed"):
        return ""
    leader = t.pc(m["owner"])
    if leader is None or leader["at"] == m["at"]:
        return ""
    reach = paths(t, m)
    return reach.get(leader["at"], (0, ""))[1]


def phase(t: Table) -> None:
    """The whole world phase, in the documented order."""
    rules = scenarios.get(t.state["scenario"])
    sites.lava(t)
    rules.world_start(t)
    for m in order(t, "monster"):
        if m.get("resting"):  # Monster Cerberus: rests a turn, then regains all
            m["resting"] = 0
            m["hp"] = m["max_hp"]
            t.say("rises", f"{t.name(m['id'])} rises again with {m['hp']} health.",
                  model=m["id"])
            m["skip"] = t.state["round"]
    for m in order(t, "npc"):
        act(t, m)
    sites.spawn(t)
    for m in order(t, "monster"):
        if m.get("acted") == t.state["round"] or m.get("skip") == t.state["round"]:
            continue
        act(t, m)
    sites.snake_pits(t)
    sites.settlement_checks(t)
    rules.world_end(t)

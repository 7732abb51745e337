"""A bot for the Basic Game that gives legal, non-trivial Player Turns from its own view.

Each Player Turn it places its god in a free Area with many of the units it favours (Basic
Play 2A, Move 3), keeps a few Power Points for its defence policy in the later Player Turns of
the Game Turn (none when it plays last), and moves the units of that Area in a random order:

- a Hero player sends Heroes onto the Prizes within reach and tries to capture them with aid
  (Basic Capture 1-5), fighting first any Monster standing there; else attacks a Monster
  within reach with aid (Basic Combat 7-8); else walks a Hero a few hexes toward the nearest
  Prize;
- a Monster player attacks the Heroes within reach with aid; else guards a Prize by standing
  on it (a Hero must then fight before he captures, Basic Capture 2); else walks toward one.

Now and then it declares allies among the players of its side (Basic Alliance 1-5: partners
paired by name, so declarations meet and alliances form) or leaves, and changes its standing
defence policy. Every choice comes from ``rng``; every order it gives passes
:func:`turn.plan` (asserted). Only the view is read (the state made from it,
:func:`state_from_view`, lacks nothing :func:`turn.plan` needs).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import Any

from pbem.core.dice import Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.mythology.basic import defence, turn
from pbem.games.mythology.basic.setup import HEROES
from pbem.games.mythology.components import Components

Orders = dict[str, Any]
State = dict[str, Any]
Path = tuple[str, ...]

#: The keys the view adds to the state (:meth:`MythologyBasic.view`).
_VIEW_ONLY = ("game_over", "my_policy", "policies")


def state_from_view(view: Mapping[str, Any]) -> State:
    """A stand-in state for :func:`turn.plan`: the view is the whole state but the sealed
    defence policies, which planning a Player Turn does not read (the defaults stand in)."""
    state = {k: v for k, v in view.items() if k not in _VIEW_ONLY}
    state["policy"] = {p: dict(defence.DEFAULT) for p in view["seats"]}
    return state


def enemy_hexes(c: Components, state: Mapping[str, Any], side: str) -> dict[str, list[int]]:
    """Hex -> the units there that ``side`` opposes, by number."""
    out: dict[str, list[int]] = {}
    for u, h in sorted(turn.positions(dict(state)).items()):
        if turn.kind(c, u) != side:
            out.setdefault(h, []).append(u)
    return out


def _rings(c: Components, start: str, enemies: Mapping[str, Any], steps: int
           ) -> Iterator[tuple[dict[str, Path], list[str]]]:
    """Breadth first from ``start``: after each step, the shortest paths found so far and the
    hexes newly reached. Hex to adjoining hex, terrain ignored (Basic Move 4); a hex with
    opposing units ends a path (Basic Move 11); one's own units do not (Basic Move 12)."""
    paths: dict[str, Path] = {start: ()}
    frontier = [start]
    for _ in range(steps):
        after: list[str] = []
        for h in frontier:
            if paths[h] and h in enemies:
                continue
            for n in c.map.neighbours(h):
                if n not in paths:
                    paths[n] = (*paths[h], n)
                    after.append(n)
        if not after:
            return
        yield paths, after
        frontier = after


def reach(c: Components, start: str, enemies: Mapping[str, Any], steps: int) -> dict[str, Path]:
    """Every hex a unit at ``start`` can enter within ``steps`` hexes, with a shortest path to
    it (the hexes entered), as :func:`_rings` walks."""
    paths: dict[str, Path] = {}
    for found, _ in _rings(c, start, enemies, steps):
        paths = found
    return {h: p for h, p in paths.items() if h != start}


def nearest(c: Components, start: str, enemies: Mapping[str, Any], goals: Collection[str],
            steps: int = 40) -> Path:
    """A shortest path (as :func:`reach` finds them) to the nearest of ``goals`` (ties: the
    lowest path), or () when none is within ``steps`` hexes."""
    goals = set(goals)
    for paths, after in _rings(c, start, enemies, steps):
        found = sorted(paths[h] for h in after if h in goals)
        if found:
            return found[0]
    return ()


def cost(path: Path, enemies: Mapping[str, Any]) -> int:
    """Basic PP 5A-B: 2 a hex, 2 more when the move ends in a hex with opposing units."""
    return turn.HEX_COST * len(path) + (turn.ATTACK_COST if path and path[-1] in enemies
                                        else 0)


def toward(path: Path, enemies: Mapping[str, Any], steps: int) -> Path:
    """The first ``steps`` hexes of ``path``, never into a hex with opposing units."""
    out = path[:steps]
    while out and out[-1] in enemies:
        out = out[:-1]
    return out


def random_policy(rng: Stream, label: str) -> dict[str, Any]:
    """A legal ``[orders.defend]`` table (complete)."""
    return {"mode": rng.choice(defence.MODES, f"{label}/mode"),
            "plus": rng.draw(f"{label}/plus", 3) - 1,
            "fixed": rng.draw(f"{label}/fixed", 5) - 1,
            "max_per_fight": rng.draw(f"{label}/max", 6),
            "reserve": rng.draw(f"{label}/reserve", 8) - 1}


def join(rng: Stream) -> dict[str, Any]:
    """The join's standing defence policy: now and then none (the default), else a random
    one (Basic Combat 7-9 by email, :mod:`.defence`)."""
    if rng.draw("bot/join/defend?", 4) == 1:
        return {}
    return {"defend": random_policy(rng, "bot/join/defend")}


def orders(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
           rng: Stream) -> dict[str, Any]:
    """``player``'s Player Turn orders, from his view; checked by :func:`turn.plan`."""
    if phase.kind != "turn":
        return {}
    state = state_from_view(view)
    out = _Turn(c, state, player, rng).orders()
    problems = turn.plan(c, state, player, out)[1]
    assert not problems, "the bot's orders: " + "; ".join(str(p) for p in problems)
    return out


class _Turn:
    """One Player Turn's orders, built unit by unit within the Power Points it spends."""

    def __init__(self, c: Components, state: State, player: str, rng: Stream) -> None:
        self.c, self.state, self.player, self.rng = c, state, player, rng
        self.side = state["favour"][player]
        self.at = turn.positions(state)
        self.mine = {u: h for u, h in self.at.items() if turn.kind(c, u) == self.side}
        self.enemies = enemy_hexes(c, state, self.side)
        self.prizes = {x["hex"]: p for p, x in sorted(state["prizes"].items()) if x["hex"]}
        self.moves: list[Orders] = []
        self.fights: list[Orders] = []
        self.captures: list[Orders] = []
        self.targets: set[str] = set()  # hexes a unit of this turn already goes to
        self.budget = 0

    def label(self, what: str) -> str:
        return f"bot/{self.player}/{what}"

    def area(self) -> str:
        """Basic Play 2A: one of the (up to) three free Areas with most of its units."""
        taken = turn.placed_gods(self.state)
        count: dict[str, int] = {}
        for h in self.mine.values():
            a = self.c.map.area_of(h)
            count[a] = count.get(a, 0) + 1
        free = sorted((a for a in self.c.map.areas if a not in taken and count.get(a)),
                      key=lambda a: (-count[a], a))
        if not free:
            return turn.default_god(self.c, self.state, self.player)
        return self.rng.choice(free[:3], self.label("god"))

    def orders(self) -> Orders:
        s = self.state
        area = self.area()
        pp = s["pp"][self.player]
        last = s["cursor"] >= len(s["order"]) - 1  # nobody attacks it later this Game Turn
        keep = 0 if last else self.rng.choice((1, 2, 3, 4, 5), self.label("keep"))
        self.budget = max(0, pp - keep)
        units = sorted(u for u, h in self.mine.items() if self.c.map.area_of(h) == area)
        for unit in self.rng.shuffle(units, self.label("units")):
            if self.budget < turn.HEX_COST:
                break
            if self.side == HEROES:
                self.hero(unit)
            else:
                self.monster(unit)
        out: Orders = {"god": area}
        for key, items in (("move", self.moves), ("fight", self.fights),
                           ("capture", self.captures)):
            if items:
                out[key] = items
        allies = self.allies()
        if allies is not None:
            out["allies"] = allies
        if self.rng.draw(self.label("defend?"), 8) == 1:
            out["defend"] = random_policy(self.rng, self.label("defend"))
        return out

    # --- one unit ---------------------------------------------------------------------
    def paths(self, unit: int, steps: int | None = None) -> dict[str, Path]:
        return reach(self.c, self.mine[unit], self.enemies,
                     self.budget // turn.HEX_COST if steps is None else steps)

    def affordable(self, paths: Mapping[str, Path], hexes: Any) -> list[Path]:
        """Paths to ``hexes`` that no other unit of this turn goes to, cheapest first."""
        found = [paths[h] for h in hexes if h in paths and h not in self.targets
                 and cost(paths[h], self.enemies) <= self.budget]
        return sorted(found, key=lambda p: (cost(p, self.enemies), p))

    def hero(self, unit: int) -> None:
        paths = self.paths(unit)
        prizes = [p for p in self.affordable(paths, self.prizes)
                  if cost(p, self.enemies) < self.budget]  # and 1 for the capture's aid
        if prizes:
            path = prizes[0]
            self.move(unit, path)
            self.capture(unit)
            return
        if self.attack(unit, paths):
            return
        self.approach(unit, list(self.prizes))

    def monster(self, unit: int) -> None:
        paths = self.paths(unit)
        if self.attack(unit, paths):
            return
        guarded = {h for u, h in self.mine.items()} | self.targets
        open_prizes = [h for h in self.prizes if h not in guarded]
        free = [p for p in self.affordable(paths, open_prizes) if p[-1] not in self.enemies]
        if free and self.rng.draw(self.label(f"guard/{unit}"), 3) != 1:
            self.move(unit, free[0])
            return
        self.approach(unit, open_prizes or [h for h in self.enemies])

    def attack(self, unit: int, paths: Mapping[str, Path]) -> bool:
        """Basic Combat 1-10: into the nearest hex with opposing units, a fight with each
        of them (a survivor fights again, Combat 5), each with some aid."""
        options = self.affordable(paths, self.enemies)
        if not options or self.rng.draw(self.label(f"attack?/{unit}"), 4) == 1:
            return False
        self.move(unit, options[0])
        for defender in self.enemies[options[0][-1]]:
            aid = min(self.budget, self.rng.draw(self.label(f"aid/{unit}/{defender}"), 4) - 1)
            self.budget -= aid
            self.fights.append({"attacker": unit, "defender": defender, "aid": aid})
        return True

    def approach(self, unit: int, goals: list[str]) -> None:
        """A few hexes along a shortest path toward the nearest of ``goals``."""
        if not goals or self.rng.draw(self.label(f"walk?/{unit}"), 3) == 1:
            return
        near = nearest(self.c, self.mine[unit], self.enemies, goals)
        if not near:
            return
        steps = min(self.budget // turn.HEX_COST, self.rng.draw(self.label(f"walk/{unit}"), 3))
        path = toward(near, self.enemies, steps)
        if path:
            self.move(unit, path)

    def move(self, unit: int, path: Path) -> None:
        self.moves.append({"unit": unit, "path": list(path)})
        self.budget -= cost(path, self.enemies)
        self.targets.add(path[-1])

    def capture(self, unit: int) -> None:
        """Basic Capture 1-5 (fighting first any opposing unit there, Capture 2)."""
        hex_id = self.moves[-1]["path"][-1]
        for defender in self.enemies.get(hex_id, []):
            aid = min(self.budget - 1,
                      self.rng.draw(self.label(f"aid/{unit}/{defender}"), 3) - 1)
            self.budget -= aid
            self.fights.append({"attacker": unit, "defender": defender, "aid": aid})
        aid = min(self.budget, self.rng.draw(self.label(f"capture-aid/{unit}"), 4) + 1)
        self.budget -= aid
        self.captures.append({"unit": unit, "aid": aid})

    # --- alliances ----------------------------------------------------------------------
    def allies(self) -> list[str] | None:
        """Basic Alliance 1-5: now and then name a partner of the same side (the players of
        a side paired in name order, the odd one with the last pair), or leave."""
        s = self.state
        same = [p for p in s["seats"] if s["favour"][p] == self.side]
        if len(same) < 2 or self.rng.draw(self.label("allies?"), 4) != 1:
            return None
        declared = list(s["allies"].get(self.player, []))
        if declared and self.rng.draw(self.label("leave?"), 3) == 1:
            return []
        i = same.index(self.player)
        pair = i - 1 if i % 2 else (i + 1 if i + 1 < len(same) else i - 1)
        return [same[pair]]

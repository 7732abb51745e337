"""The Basic Game's order forms for one player, now (issue 14), from the player's view alone.

The static forms ``orders/mythology-basic/{join,turn}.toml`` keep their prose, their active
lines and their keys (``pbem check`` reads them, ``pbem form`` without a campaign prints
them). With a view, the Player Turn form is headed by the player's situation (:func:`situation`:
the Game Turn, his god and favour, the Power Points left, the gods placed and the Areas still
free, his units by Area with the hexes next to each, the Prizes, the opposing units next to
his), its active line ``god = ...`` names :func:`turn.default_god` (what the form means sent
back unchanged, as the NMR default does), and each commented example (a paragraph of the form:
a move, a move and a fight, a move and a capture, allies, a defence policy) is rewritten with
the player's own units, hexes and players. An example is kept only if :func:`turn.plan`
accepts it, with that god line, on a stand-in state made from the view
(:func:`bot.state_from_view`); one that cannot be legal now is left out with a comment that
says why. The join form has nothing of the player's to show (the view is empty before the
set-up): it is the static form.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.ruleset import PhaseSpec
from pbem.games.mythology import names
from pbem.games.mythology.basic import bot, defence, scoring, turn
from pbem.games.mythology.basic.setup import HEROES, LAST_TURN, POWER_POINTS
from pbem.games.mythology.components import Components

View = Mapping[str, Any]
#: A paragraph's example: the values of each table in it, in order (the keys above any
#: table first, for ``allies``), or why there is none now.
Example = list[dict[str, Any]] | str
WIDTH = 78

_HEADER = re.compile(r"# \[\[?orders\.([a-z_]+)\]\]?")
_KEY = re.compile(r"# ([a-z_]+) = (.*?)(\s+# .*)?")
_DOC = re.compile(r"#\s{2,}# .*")
_GOD = re.compile(r'^god = "[^"]*"', re.MULTILINE)
#: Steps a move example takes toward its goal.
MOVE_STEPS = 2
#: The aid of the fight and capture examples (at most: what is left after the move).
FIGHT_AID = 2
CAPTURE_AID = 3


def form(c: Components, text: str, view: Mapping[str, Any], phase: PhaseSpec,
         player: str) -> str:
    """The form ``text`` (``orders/mythology-basic/<kind>.toml``) for ``player`` now."""
    if phase.kind != "turn" or not text or not view or view.get("game_over"):
        return text
    state = bot.state_from_view(view)
    god = turn.default_god(c, state, player)
    body = _GOD.sub(f'god = "{god}"', text, count=1)
    policy = view.get("my_policy") or defence.DEFAULT
    body = rewrite(body, Examples(c, state, player, god, policy).all())
    lines = [part for line in situation(c, view, player, god) for part in _comment(line)]
    return "\n".join(lines) + "\n\n" + body


# --- the examples --------------------------------------------------------------------------

def toml(value: Any) -> str:
    """A value as the form writes it (strings, numbers, lists of them)."""
    return json.dumps(value, ensure_ascii=False)


def rewrite(text: str, examples: Mapping[str, Example]) -> str:
    """``text`` with the example of each paragraph named in ``examples`` (by its last table,
    or its first key above any table: ``move``, ``fight``, ``capture``, ``allies``,
    ``defend``) filled in, or left out with the reason."""
    out = []
    for para in text.split("\n\n"):
        lines = para.split("\n")
        kind = _kind(lines)
        example = examples.get(kind) if kind else None
        out.append(para if example is None else "\n".join(_filled(lines, kind, example)))
    return "\n\n".join(out)


def _kind(lines: Sequence[str]) -> str:
    headers = [m.group(1) for m in map(_HEADER.fullmatch, lines) if m]
    if headers:
        return headers[-1]
    keys = [m.group(1) for m in map(_KEY.fullmatch, lines) if m]
    return keys[0] if keys else ""


def _filled(lines: Sequence[str], kind: str, example: Example) -> list[str]:
    out: list[str] = []
    if isinstance(example, str):
        out += [x for x in lines if not (_HEADER.fullmatch(x) or _KEY.fullmatch(x)
                                         or _DOC.fullmatch(x))]
        return out + _note(f"No {kind} example now: {example}.")
    table = -1 if any(_HEADER.fullmatch(x) for x in lines) else 0
    dropping = False
    for line in lines:
        if _HEADER.fullmatch(line):
            table += 1
            dropping = False
            out.append(line)
            continue
        key = _KEY.fullmatch(line)
        if key is not None:
            values = example[table]
            dropping = key.group(1) not in values
            if not dropping:
                out += _assign(line, key, values[key.group(1)])
            continue
        if _DOC.fullmatch(line) and dropping:
            continue
        out.append(line)
    return out


def _assign(line: str, key: re.Match[str], value: Any) -> list[str]:
    """``# key = value`` with the key's own comment in its column (on the next line when
    there is no room)."""
    text = f"# {key.group(1)} = {toml(value)}"
    doc = key.group(3)
    if not doc:
        return [text]
    column = key.start(3) + len(doc) - len(doc.lstrip())
    doc = doc.strip()
    if len(text) + 2 <= column and column + len(doc) <= WIDTH:
        return [text.ljust(column) + doc]
    return [text, "#".ljust(column) + doc]


def _note(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent="# ", subsequent_indent="#   ")


def _comment(line: str) -> list[str]:
    """A situation line as form comments within :data:`WIDTH` columns (a line that starts
    with spaces keeps them, and its continuation lines go further in)."""
    indent = line[:len(line) - len(line.lstrip(" "))]
    return textwrap.wrap(line.lstrip(" "), WIDTH, initial_indent="# " + indent,
                         subsequent_indent="#     " + indent, break_on_hyphens=False)


class Examples:
    """The examples of a Player Turn form, each checked by :func:`turn.plan` with the god in
    ``god`` (the form's active line)."""

    def __init__(self, c: Components, state: dict[str, Any], player: str, god: str,
                 policy: Mapping[str, Any]) -> None:
        self.c, self.state, self.player, self.god = c, state, player, god
        self.policy = policy
        self.side = state["favour"][player]
        self.kind = self.side.capitalize()
        self.pp = int(state["pp"][player])
        self.enemies = bot.enemy_hexes(c, state, self.side)
        self.prizes = {x["hex"]: p for p, x in sorted(state["prizes"].items()) if x["hex"]}
        self.units = sorted(u for u, h in turn.positions(state).items()
                            if turn.kind(c, u) == self.side and c.map.area_of(h) == god)
        self.at = turn.positions(state)

    def all(self) -> dict[str, Example]:
        return {"move": self.move(), "fight": self.fight(), "capture": self.capture(),
                "allies": self.allies(), "defend": self.defend()}

    def legal(self, orders: Mapping[str, Any]) -> bool:
        return not turn.plan(self.c, self.state, self.player, {"god": self.god, **orders})[1]

    def first(self, candidates: Sequence[Example], key: Sequence[str]) -> Example | None:
        """The first candidate that :func:`turn.plan` accepts (tables named by ``key``)."""
        for tables in candidates:
            assert not isinstance(tables, str)
            orders: dict[str, Any] = {}
            for name, values in zip(key, tables, strict=True):
                orders.setdefault(name, []).append(values)
            if self.legal(orders):
                return tables
        return None

    def area(self) -> str:
        return str(self.c.map.areas[self.god].name)

    def cannot_move(self, need: int, what: str) -> str | None:
        if not self.units:
            return (f"none of your {self.kind} is in {self.area()}, where the "
                    "god line puts your god (Basic Move 3)")
        if self.pp < need:
            return (f"you have {self.pp} Power Points left this Game Turn; {what} costs at "
                    f"least {need} (Basic PP 4-5)")
        return None

    def move(self) -> Example:
        why = self.cannot_move(turn.HEX_COST, "a move")
        if why:
            return why
        # Heroes toward the Prizes, Monsters toward the Heroes (else the Prizes, to guard).
        goals = list(self.prizes) if self.side == HEROES else list(self.enemies)
        goals = goals or list(self.prizes) + list(self.enemies)
        steps = min(MOVE_STEPS, self.pp // turn.HEX_COST)
        for unit in self.units:
            near = bot.nearest(self.c, self.at[unit], self.enemies, goals)
            path = bot.toward(near, self.enemies, steps)
            if not path:
                path = next(((h,) for h in self.c.map.neighbours(self.at[unit])
                             if h not in self.enemies), ())
            found = self.first([[{"unit": unit, "path": list(path)}]], ("move",)) \
                if path else None
            if found is not None:
                return found
        return f"no unit of yours in {self.area()} can move now"

    def fight(self) -> Example:
        need = turn.HEX_COST + turn.ATTACK_COST
        why = self.cannot_move(need, "a move into a hex with opposing units (2 a hex, 2 to "
                               "attack)")
        if why:
            return why
        options = []
        for unit in self.units:
            paths = bot.reach(self.c, self.at[unit], self.enemies,
                              (self.pp - turn.ATTACK_COST) // turn.HEX_COST)
            options += [(bot.cost(paths[h], self.enemies), unit, paths[h])
                        for h in self.enemies if h in paths]
        candidates: list[Example] = []
        for spent, unit, path in sorted(options)[:12]:
            aid = min(FIGHT_AID, self.pp - spent)
            candidates.append([{"unit": unit, "path": list(path)},
                               {"attacker": unit, "defender": self.enemies[path[-1]][0],
                                "aid": aid}])
        found = self.first(candidates, ("move", "fight"))
        return found if found is not None else (
            f"no opposing unit is within reach of your {self.kind} in {self.area()} with "
            f"your {self.pp} Power Points (2 a hex, 2 to attack)")

    def capture(self) -> Example:
        if self.side != HEROES:
            return "only the players who favour Heroes capture Prizes (Basic Capture 7)"
        if not self.prizes:
            return "no Prize is left on the board"
        why = self.cannot_move(turn.HEX_COST, "a move onto a Prize")
        if why:
            return why
        options = []
        for unit in self.units:
            paths = bot.reach(self.c, self.at[unit], self.enemies, self.pp // turn.HEX_COST)
            options += [(h in self.enemies, bot.cost(paths[h], self.enemies), unit, paths[h])
                        for h in self.prizes if h in paths
                        and bot.cost(paths[h], self.enemies) <= self.pp]
        candidates: list[Example] = []
        for _, spent, unit, path in sorted(options)[:12]:
            candidates.append([{"unit": unit, "path": list(path)},
                               {"unit": unit, "aid": min(CAPTURE_AID, self.pp - spent)}])
        found = self.first(candidates, ("move", "capture"))
        return found if found is not None else (
            f"no Prize is within reach of your Heroes in {self.area()} with your {self.pp} "
            "Power Points (2 a hex)")

    def allies(self) -> Example:
        s = self.state
        others = [p for p in s["seats"] if p != self.player and s["favour"][p] == self.side]
        if not others:
            return (f"nobody else favours {self.kind}, and Hero and Monster players never "
                    "ally (Basic Alliance 5)")
        declared = [p for p in s["allies"].get(self.player, []) if p in others]
        example = [{"allies": declared or others[:1]}]
        return example if self.legal(example[0]) else "none is legal now"

    def defend(self) -> Example:
        example = [{k: self.policy[k] for k in defence.KEYS}]
        return example if self.legal({"defend": example[0]}) else "none is legal now"


# --- the situation ---------------------------------------------------------------------------

def _area(c: Components, area: str) -> str:
    return f"{c.map.areas[area].name} ({area})"


def situation(c: Components, view: View, player: str, god: str) -> list[str]:
    """What the player knows that bears on his Player Turn, as lines (before wrapping)."""
    side = view["favour"][player]
    other = turn.other(side)
    kind, opposing = side.capitalize(), other.capitalize()
    pp = view["pp"][player]
    me = c.gods[view["gods"][player]].name
    lines = [f"Game Turn {view['turn']} of {LAST_TURN}: your Player Turn. You are {me} "
             f"and favour {kind} (Basic Prep 7, 9). Power Points left this Game Turn: {pp} "
             f"of {POWER_POINTS} (Basic PP 1-4)."]
    order, cursor = list(view["order"]), int(view["cursor"])
    placed = [f"{p} ({c.gods[view['gods'][p]].name}) in {_area(c, view['god_area'][p])}"
              for p in order[:cursor] if view["god_area"].get(p)]
    later = order[cursor + 1:]
    lines.append("Gods placed this Game Turn (Basic Play 2A): " + ("; ".join(placed) or "none")
                 + ". After you: " + (", ".join(later) or "nobody") + ".")
    taken = {a for a in view["god_area"].values() if a}
    pos = turn.positions(dict(view))
    mine = {u: h for u, h in pos.items() if turn.kind(c, u) == side}
    count: dict[str, int] = {}
    for h in mine.values():
        count[c.map.area_of(h)] = count.get(c.map.area_of(h), 0) + 1
    free = [a for a in sorted(c.map.areas) if a not in taken]
    with_units = [f"{_area(c, a)} {count[a]}" for a in sorted(free, key=lambda a: (-count.get(
        a, 0), a)) if count.get(a)]
    lines.append(f"Areas still free for your god, with your {kind} in them: "
                 + (", ".join(with_units) or "none") + "; the others: "
                 + (", ".join(a for a in free if not count.get(a)) or "none") + ". The god "
                 f"line below names {_area(c, god)}, " + (
                     "the free Area with most of them (the default)." if count.get(god) else
                     f"the first free Area (the default): none holds your {kind}, so none "
                     "can move this Player Turn (Basic Move 3)."))
    lines.append(f"Your {kind} on the board, by Area (only those of your god's Area move, "
                 "Basic Move 3; next: the hexes next to each, Basic Move 4):")
    by_area: dict[str, list[str]] = {}
    for u, h in sorted(mine.items()):
        by_area.setdefault(c.map.area_of(h), []).append(
            f"{names.unit_label(c, u)} at {h} (next: {' '.join(c.map.neighbours(h))})")
    out = list(lines)
    areas = [f"{_area(c, a)}: " + "; ".join(units) for a, units in sorted(by_area.items())]
    out += [f"  {line}" for line in areas] or ["  none"]
    on_board = [f"{c.prizes[p].name} at {x['hex']} in {c.map.areas[c.map.area_of(x['hex'])].name}"
                for p, x in sorted(view["prizes"].items()) if x["hex"]]
    gone = [f"{c.prizes[p].name} by {x['by']}" for p, x in sorted(view["prizes"].items())
            if x["by"]]
    out.append("Prizes on the board (Basic Capture 1-8, Win 1B-C): "
               + ("; ".join(on_board) or "none") + "." + (" Captured: " + ", ".join(gone)
                                                          + "." if gone else ""))
    near = []
    for u, h in sorted(pos.items()):
        if turn.kind(c, u) != other:
            continue
        next_to = [v for v, x in sorted(mine.items()) if x in c.map.neighbours(h)]
        if next_to:
            near.append(f"{names.unit_label(c, u)} at {h}, next to "
                        + ", ".join(names.unit_label(c, v) for v in next_to))
    out.append(f"Opposing {opposing} next to yours: " + ("; ".join(near) or "none") + ".")
    vp = ", ".join(f"{p} {scoring.shown(view['vp'][p])}" for p in view["seats"])
    out.append(f"Victory Points so far (Basic Win 1): {vp}.")
    policy = view.get("my_policy")
    if policy:
        out.append("Your standing defence policy (sealed): " + defence.describe(policy) + ".")
    groups = ["; ".join(", ".join(g) for g in view["alliances"])]
    declared = view["allies"].get(player, [])
    out.append("Alliances (Basic Alliance 1-5): " + (groups[0] or "none") + ". You name: "
               + (", ".join(declared) or "nobody") + ".")
    return out

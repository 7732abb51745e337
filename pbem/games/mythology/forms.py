"""Issue 14: the order forms' commented examples, from the reader's own situation.

The annotated forms in ``orders/mythology/`` show each table with an example (``# 12 = 3``
under ``[orders.heroes]``, ``# unit = 12`` under ``# [[orders.attempt]]``). ``pbem check``
reads their keys and value types from those files (:mod:`pbem.core.formcheck`); the form a
player receives has the same keys and types, with values legal for that player now: a Hero
on the board, a Monster on the board, a card of the hand, a power of the god, a hex next to
the unit moved (204 E). When there is none, the example gives way to a comment that says
why. Everything here is read from the player's view.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import tomli

from pbem.games.mythology import movement, names, occurrences
from pbem.games.mythology.cards import PASSIVE_KINDS, UNIT_KINDS
from pbem.games.mythology.components import Components, Effect
from pbem.games.mythology.moving import closed_hexes, lesser_path_problems
from pbem.games.mythology.rules import Board, hercules_id, kind_of

#: A table's example: key -> value (written as TOML), or why there is none now. A numbered
#: table (``[orders.heroes]``) has one entry, unit number -> points, and ``"#"``: its name.
Example = dict[str, Any] | str
View = Mapping[str, Any]

_HEADER = re.compile(r"(\[\[?)\s*orders((?:\.[A-Za-z0-9_-]+)*)\s*\]\]?")
_KEY = re.compile(r"(#\s*)([A-Za-z0-9_]+)(\s*=\s*)([^#]*?)(\s+#.*)?")
WIDTH = 78


def toml(value: Any) -> str:
    """A value as the form writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)


def rewrite(form: str, examples: Mapping[str, Example]) -> str:
    """``form`` with the examples of the tables named in ``examples`` replaced (by their last
    name: ``heroes``, ``attempt``; ``""`` for the keys above every table)."""
    lines = _parsed(form)
    out: list[str] = []
    table = ""
    i = 0
    while i < len(lines):
        line, commented, content, header, m, _ = lines[i]
        if header is not None:
            table = header
            example = examples.get(table)
            if isinstance(example, str):
                if not commented:
                    out.append(line)
                out += _note(f"{content}: no example legal now: {example}. Its keys:")
                i += 1
                while i < len(lines) and lines[i][5]:
                    out.append(_placeholder(lines[i][0]))
                    i += 1
                continue
            out.append(line)
            i += 1
            continue
        example = examples.get(table)
        if isinstance(example, dict) and m is not None:
            line = _replaced(m, example)
        out.append(line)
        i += 1
    return "\n".join(out)


#: A line of a form as :func:`rewrite` reads it: the line, whether it is a comment, its
#: content, the table it opens (its last name; ``None``: no header), its ``# key = value``
#: match (comments only) and whether it is a line of a commented example.
_Line = tuple[str, bool, str, "str | None", "re.Match[str] | None", bool]


@lru_cache(maxsize=64)
def _parsed(form: str) -> tuple[_Line, ...]:
    """Each line of ``form`` read once per form text (every player's form of a phase starts
    from the same text)."""
    out: list[_Line] = []
    for line in form.split("\n"):
        commented = line.lstrip().startswith("#")
        content = line.strip().lstrip("#").strip()
        header = _HEADER.fullmatch(content)
        out.append((line, commented, content,
                    header.group(2).split(".")[-1] if header is not None else None,
                    _KEY.fullmatch(line) if commented else None, _example_line(line)))
    return tuple(out)


def _example_line(line: str) -> bool:
    """A line of a commented example: ``# key = value`` or its comment going on below."""
    stripped = line.strip()
    if not stripped.startswith("#"):
        return False
    content = stripped[1:].strip()
    return bool(_KEY.fullmatch("# " + content)) or (stripped.startswith("#  ")
                                                     and content.startswith("#"))


@lru_cache(maxsize=1024)
def _placeholder(line: str) -> str:
    """A key line of an example with ``<what>`` for its value: the keys and value types stay
    in sight, and no one takes it for a legal example (it is not TOML uncommented)."""
    m = _KEY.fullmatch(line)
    if m is None:
        return line
    prefix, key, eq, value, doc = m.groups()
    try:
        parsed = tomli.loads(f"x = {value}")["x"]
    except tomli.TOMLDecodeError:
        return line
    what = ("<true or false>" if isinstance(parsed, bool) else "<number>"
            if isinstance(parsed, int) else "<list>" if isinstance(parsed, list) else '<"text">')
    if key.isdigit():
        key = "<number>"
    return _padded(f"{prefix}{key}{eq}{what}", m, doc)


def _note(text: str) -> list[str]:
    return list(_wrapped_note(text))


@lru_cache(maxsize=1024)
def _wrapped_note(text: str) -> tuple[str, ...]:
    return tuple(textwrap.wrap(text, WIDTH - 2, initial_indent="# ", subsequent_indent="#   "))


def _replaced(m: re.Match[str], example: Mapping[str, Any]) -> str:
    prefix, key, eq, _, doc = m.groups()
    numbered = [k for k in example if k.isdigit()]
    if numbered:
        unit = numbered[0]
        text = f"{prefix}{unit}{eq}{toml(example[unit])}"
        return f"{text}  # {example['#']}" if example.get("#") else text
    if key not in example:
        return m.group(0)
    return _padded(f"{prefix}{key}{eq}{toml(example[key])}", m, doc)


def _padded(text: str, m: re.Match[str], doc: str | None) -> str:
    """``text`` and the key's own comment, in its column when there is room."""
    if not doc:
        return text
    column = m.start(5) + len(doc) - len(doc.lstrip())
    padded = text.ljust(column) if len(text) < column else text + "  "
    return padded + doc.lstrip()


# --- what the player has ------------------------------------------------------------------

class Situation:
    """The units on the board and what the player may do with them, read from the view."""

    def __init__(self, c: Components, view: View, player: str) -> None:
        self.c, self.view, self.player = c, view, player
        self.pos = {int(u): x["hex"] for t in ("heroes", "monsters", "lesser")
                    for u, x in view.get(t, {}).items() if x["status"] == "board"}
        self.heroes = sorted(u for u in self.pos if kind_of(u) == "hero")
        self.monsters = sorted(u for u in self.pos if kind_of(u) == "monster")
        self.totals = {int(h): t for h, t in view.get("my_hero_totals", {}).items()}
        # Mine: the Heroes on the board the player has Power Points on, most first.
        self.mine = sorted((h for h in self.heroes if self.totals.get(h, 0) > 0),
                           key=lambda h: (-self.totals[h], h))
        self.ships = {int(u) for u in view.get("ships", [])}
        self.herc = hercules_id(c)
        self.remorse = bool(view.get("remorse", 0))

    def label(self, unit: int) -> str:
        return names.unit_label(self.c, unit)

    def hero(self) -> int | None:
        """The Hero an example spends on: the player's best, or the first on the board."""
        return next(iter(self.mine + self.heroes), None)

    def free_hercules(self, unit: int) -> bool:
        """214 A 3 e: Hercules filled with remorse attacks, captures and is attacked not."""
        return unit == self.herc and self.remorse

    def can_move(self, unit: int) -> bool:
        return unit in self.pos and unit not in self.view.get("pestilence", []) and \
            unit not in self.view.get("halted", [])

    def step(self, unit: int) -> str | None:
        """A hex next to ``unit`` it may enter now (204 E-J, 215, 011 closed terrain)."""
        hero = kind_of(unit) == "hero"
        start = self.pos[unit]
        mover = movement.Mover(unit, "hero" if hero else "monster", start,
                               ship=unit in self.ships)
        for h in self.c.map.neighbours(start):
            if movement.check_path(Board(self.c), mover, [h], "x"):
                continue
            if hero and closed_hexes(self.c, self.view.get("closed", []), [h]):
                continue
            return h
        return None


def _fits(effect: Effect, unit: int) -> bool:
    return effect.target in ("unit", kind_of(unit))


def _target(s: Situation, effect: Effect) -> int | None:
    """A unit on the board that a power or card section of ``effect`` acts on (010, 011)."""
    if effect.kind not in UNIT_KINDS:
        return 0
    pool = s.mine + s.heroes + s.monsters
    return next((u for u in pool if effect.kind == "ship" or _fits(effect, u)), None)


# --- the Log Sheet (009, 010, 209, 205 I, 302) ---------------------------------------------

def logsheet(c: Components, view: View, player: str) -> dict[str, Example]:
    s = Situation(c, view, player)
    out: dict[str, Example] = {}
    hero = s.hero()
    if hero is None:
        for key in ("heroes", "aid", "ailment", "challenge", "use", "intercept", "prayer",
                    "sacrifice"):
            out[key] = "no Hero is on the board"
    else:
        name = s.label(hero)
        out["heroes"] = {str(hero): 3, "#": name}
        out["aid"] = {str(hero): 1, "#": name}
        other = next((h for h in s.heroes if h not in s.mine), hero)
        out["ailment"] = {str(other): 1, "#": s.label(other)}
        out["challenge"] = {"unit": hero}
        out["intercept"] = {"unit": hero}
        out["prayer"] = {"hero": hero, "glory": 1}
        out["sacrifice"] = {"hero": hero, "glory": 4}
        god = c.gods[view["gods"][player]]
        usable = [p for p in god.powers if p.effect.kind not in PASSIVE_KINDS]
        target = _target(s, usable[0].effect) if usable else None
        out["use"] = ({"what": f"power:{usable[0].id}", "unit": target or hero}
                      if usable else "your god has no power to use on a unit")
    monster = s.monsters[0] if s.monsters else None
    out["monsters"] = ({str(monster): 2, "#": s.label(monster)} if monster
                       else "no Monster is on the board")
    return out


def card_line(view: View) -> str:
    """``# card = "N"``: a card of the hand to place face down (010 E 1)."""
    hand = view.get("hand", [])
    return f'# card = "{hand[0]}"' if hand else "# (your hand is empty: card = \"\")"


# --- the Moving Player (204-215, 303) --------------------------------------------------------

def move(c: Components, view: View, player: str) -> dict[str, Example]:
    s = Situation(c, view, player)
    area = view["god_area"].get(player, "")
    return {"card": _card(s), "power": _power(s), "activate": _activate(s, area),
            "attempt": _attempt(s), "lesser": _lesser(s, area), "combat": _combat(s),
            "capture": _capture(s)}


def _card(s: Situation) -> Example:
    card = s.view.get("facedown_card", "")
    if not card or s.view.get("card_played"):
        return "you have no face-down card to play this Turn (010 E 2, F)"
    effect = s.c.cards[int(card)].god.effect
    unit = _target(s, effect) if effect.kind not in PASSIVE_KINDS else None
    if unit is None:  # the event section takes no unit (010 B 2)
        return {"section": "event", "unit": 0, "area": "", "gods": []}
    area = (s.view["god_area"].get(s.player) or "greece") if effect.kind == "relocate" else ""
    return {"section": "god", "unit": unit, "area": area, "gods": []}


def _power(s: Situation) -> Example:
    used = s.view.get("powers_used", [])
    for p in s.c.gods[s.view["gods"][s.player]].powers:
        if p.effect.kind in PASSIVE_KINDS or p.id in used:
            continue
        unit = _target(s, p.effect)
        if unit is None:
            continue
        area = (s.view["god_area"].get(s.player) or "greece") \
            if p.effect.kind == "relocate" else ""
        return {"id": p.id, "unit": unit, "area": area}
    return "no power of your god can be used on a unit now (011)"


def _activate(s: Situation, area: str) -> Example:
    sheet = s.view.get("my_logsheets", {}).get(str(s.view["turn"]), {})
    plotted = [o["code"] for o in sheet.get("occurrences", [])]
    if not plotted:
        return "you plotted no Divine Occurrence this Turn (210 D)"
    if not area:
        return "your god is in no Area, so no Divine Occurrence takes place (210 J)"
    code = plotted[0]
    hexes = sorted(s.c.map.area(area).hexes)
    hex_id = next((h for h in hexes if h in s.pos.values()), hexes[0]) if code == "V" else ""
    if not occurrences.allowed(code, area, area):
        return "none may take place now (210 I-J)"
    return {"code": code, "hex": hex_id, "area": ""}


def _attempt(s: Situation) -> Example:
    for unit in s.mine + s.heroes + s.monsters:
        if not s.can_move(unit):
            continue
        to = s.step(unit)
        if to is not None:
            return {"unit": unit, "bid": s.totals.get(unit, 0), "path": [to], "ship": "",
                    "leave_ship": False, "drop": []}
    return "no Hero or Monster on the board can move now"


def _lesser(s: Situation, area: str) -> Example:
    if not area:
        return "your god is in no Area (303 E)"
    for u, x in sorted(s.view.get("lesser", {}).items(), key=lambda kv: int(kv[0])):
        unit = int(u)
        if x["status"] != "board" or s.c.map.area_of(x["hex"]) != area or \
                unit in s.view.get("halted", []):
            continue
        for h in s.c.map.neighbours(x["hex"]):
            if not lesser_path_problems(s.c, unit, x["hex"], [h], "x"):
                return {"unit": unit, "path": [h]}
    return f"no Lesser Evil counter in {s.c.map.area(area).name} can move now (303 E)"


def _combat(s: Situation) -> Example:
    no_attack = set(s.view.get("no_attack", []))
    pairs = [(a, d) for a in s.mine if a not in s.ships and a not in no_attack
             and not s.free_hercules(a) for d in sorted(s.pos)
             if d != a and s.pos[d] == s.pos[a] and not s.free_hercules(d)]
    pairs += [(m, h) for m in s.monsters for h in s.heroes
              if s.pos[m] == s.pos[h] and not s.free_hercules(h)]  # 208 D: any Monster
    if not pairs:
        return ("no Hero of yours shares a hex with another unit now, nor any Monster with "
                "a Hero; after your moves one may (205 H)")
    a, d = pairs[0]
    return {"attacker": a, "defender": d, "magic": False}


def _capture(s: Situation) -> Example:
    free = {x["hex"] for x in s.view.get("prizes", {}).values()
            if not x["holder"] and not x["off_board"] and x["hex"]}
    for h in s.mine:
        if s.pos[h] in free and h not in s.ships and not s.free_hercules(h):
            return {"hero": h, "remove": False}
    return ("no Hero of yours stands on a free Prize now; one who moves onto one may "
            "capture it (212 D)")


# --- the God Placement (203) and Zeus (301) ------------------------------------------------

def place(view: View, player: str) -> str:
    """203 D: the form sent back unchanged keeps the god where it is, or in Greece."""
    return view["god_area"].get(player) or "greece"


def zeus(c: Components, view: View) -> dict[str, Example]:
    out: dict[str, Example] = {}
    offers = view.get("zeus_offers", [])
    results = [r for r in view.get("zeus_results", []) if r != "none"]
    out["protect"] = ({"player": offers[0]["player"], "index": offers[0]["index"],
                       "result": results[-1] if results else "none"} if offers
                      else "nobody offered a Prayer or Sacrifice this Turn (302 C)")
    dead = view.get("zeus_revivable", [])
    out["revive"] = ({"unit": dead[0]["unit"]} if dead
                     else "no Hero or Monster was killed in Combat or by a Divine Occurrence")
    s = Situation(c, view, "")
    target = s.pos[s.heroes[0]] if s.heroes else ""
    seats = list(view["seats"])
    out["bolt"] = ({"during": seats[0], "hex": target} if target and seats
                   else "no Hero is on the board")
    return out

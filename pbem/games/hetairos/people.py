"""Hetairos's people and their gear, loaded from ``data/*.toml``: the ten player characters
(GETTING STARTED, GAME CONCEPTS, PLAYER CHARACTERS), weapons and battle equipment, items and
their prices, the rare item charts, the craft and knowledge checks and the AP cost of every
action.

Printed values (numbers, thresholds, prices, rolls, every ``text``) come from the seed; ids,
effect keywords and structure are authored (each file's ``# Source:`` lines say which). A file
that breaks a rule stated here (a chart whose rolls do not cover its die, a ware or action
named but not defined, a missing or unknown field, an effect keyword nobody reads) does not
load: :func:`load` raises :class:`~pbem.core.errors.ProblemsError` listing every problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import tomli

from pbem.core.errors import Problem, ProblemsError

DATA = Path(__file__).resolve().parent / "data"
FILES = ("characters.toml", "weapons.toml", "items.toml", "rare_items.toml", "checks.toml",
         "actions.toml")

#: What a character's bonus or dice apply to ("COMBAT CHECKS", "CRAFT CHECKS", ...).
CHECK_KINDS = frozenset({"combat", "craft", "knowledge", "tunnelling"})
#: What an item's bonus or reroll applies to: a check kind, or a wider/narrower class.
ITEM_CHECKS = CHECK_KINDS | {"non_combat", "any", "build_automaton"}
ABILITY_EFFECTS = frozenset({"ranged_attack", "observe", "check_dice", "check_bonus",
                             "move_allowance", "start_item", "no_small_tunnels", "save",
                             "sneak", "gold_per_kleos", "heal", "damage"})
WEAPON_CONDITIONS = frozenset({"", "moved_this_turn", "ap_left_at_end_of_turn"})
ITEM_KINDS = frozenset({"item", "tool", "prayer", "offering", "service"})
ITEM_EFFECTS = frozenset({"needed_for", "reroll", "check_bonus", "tunnelling", "prayer",
                          "none", "heal"})
RARE_EFFECTS = frozenset({"save", "gold_or_heal", "convert", "trident", "hoplites", "slay",
                          "weapon", "amazons", "gorgon", "lyre", "teleport", "heal_square"})
ACTION_EFFECTS = frozenset({"build", "create", "next_check_bonus", "double_movement"})
#: Place kinds with a price list: the results of the Community chart (Community 1).
PLACES = frozenset({"polis", "manor", "kobaloi_settlement"})
#: Square kinds where checks are made ("AT A FORGE", "AT A LIBRARY", "AT A SHRINE").
CHECK_PLACES = frozenset({"great_forge", "ancient_library", "olympian_shrine"})
SKILLS = frozenset({"craft", "knowledge"})

_ID = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")
_DIE = re.compile(r"([1-9]\d*)?d([1-9]\d*)")
_DICE = re.compile(r"([1-9]\d*)?d([1-9]\d*)([+-]\d+)?")


def die_span(die: str) -> tuple[int, int]:
    """The lowest and highest roll of a die the seed names: ``d6`` (1, 6), ``2d6`` (2, 12),
    ``d3`` (1, 3)."""
    m = _DIE.fullmatch(die)
    if not m:
        raise ValueError(f"not a die: {die!r}")
    n = int(m[1] or 1)
    return n, n * int(m[2])


# ---------------------------------------------------------------------------- dataclasses


@dataclass(frozen=True)
class Defaults:
    """Concepts 3-4: what a character has unless its entry says otherwise."""

    pc_ap: int
    pc_hp: int
    npc_ap: int
    npc_hp: int
    dice: int
    gold: int
    kleos: int
    text: tuple[str, ...]


@dataclass(frozen=True)
class StartRule:
    """Start 1-3 (GETTING STARTED), as printed."""

    id: str
    clause: str
    text: str


@dataclass(frozen=True)
class Ability:
    """One printed ability of a character, with its rule as structure."""

    id: str
    text: str
    clause: str
    effect: str
    check: str = ""
    amount: int = 0
    threshold: int = 0
    ap: int = 0
    item: str = ""
    range: int = 0
    bow_range: int = 0
    per_turn: int = 0
    safe_on_fail: bool = False
    no_enemies: bool = False
    improved_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Character:
    """A player character: AP allowance, health (also its usual maximum), combat dice."""

    id: str
    name: str
    ap: int
    hp: int
    dice: int
    abilities: tuple[Ability, ...]
    text: str

    def ability(self, id: str) -> Ability | None:
        return next((a for a in self.abilities if a.id == id), None)

    def with_effect(self, effect: str) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if a.effect == effect)

    def check_bonus(self, check: str) -> int:
        """The character's own bonus to a check kind (combat, craft, knowledge, tunnelling)."""
        return sum(a.amount for a in self.with_effect("check_bonus") if a.check == check)

    def check_dice(self, check: str) -> int:
        """How many dice the character rolls for a check kind ("MAY USE 2 DICE")."""
        return max([self.dice] + [a.amount for a in self.with_effect("check_dice")
                                  if a.check == check])

    @property
    def damage(self) -> int:
        """Damage dealt by a won round (1 "AS BASIC"; the Myrmidon 2)."""
        return max([1] + [a.amount for a in self.with_effect("damage")])

    @property
    def starting_items(self) -> tuple[str, ...]:
        return tuple(a.item for a in self.with_effect("start_item"))

    @property
    def small_tunnels(self) -> bool:
        """False for a character that "MAY NEVER MOVE DOWN SMALL TUNNELS"."""
        return not self.with_effect("no_small_tunnels")


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    clause: str
    text: str
    damage_bonus: int = 0
    combat_bonus: int = 0
    range: int = 0
    range_modifier: int = 0
    ignores_saves: bool = False
    condition: str = ""
    condition_amount: int = 0
    like: str = ""
    per_other_wielder: int = 0


@dataclass(frozen=True)
class Equipment:
    """Battle equipment that saves: roll ``save``+ to avoid losing a point of health."""

    id: str
    name: str
    clause: str
    text: str
    save: int
    combined_with: str = ""
    combined_save: int = 0


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    clause: str
    kind: str
    effect: str
    text: str
    checks: tuple[str, ...] = ()
    amount: int = 0
    uses: int = 0
    needed_for: str = ""
    prayer: str = ""


@dataclass(frozen=True)
class Price:
    place: str
    ware: str
    gold: int
    text: str


@dataclass(frozen=True)
class PriceList:
    id: str
    clause: str
    places: tuple[str, ...]
    text: str
    rows: tuple[tuple[str, int, str], ...]


@dataclass(frozen=True)
class Trade:
    sell_modifier: int
    sell_text: str
    friendly_discount: str
    friendly_places: tuple[str, ...]
    friendly_text: str


@dataclass(frozen=True)
class RareRow:
    roll: tuple[int, int]
    result: str
    text: str


@dataclass(frozen=True)
class RareChart:
    id: str
    clause: str
    die: str
    text: str
    rows: tuple[RareRow, ...]

    def result(self, roll: int) -> RareRow:
        for row in self.rows:
            if row.roll[0] <= roll <= row.roll[1]:
                return row
        raise ValueError(f"{self.id}: no row for {roll}")


@dataclass(frozen=True)
class RareItem:
    id: str
    name: str
    clause: str
    effect: str
    text: str
    ap: int = 0
    uses: int = 0
    per_turn: int = 0
    save: int = 0
    range: int = 0
    amazon_range: int = 0
    threshold: int = 0
    weapon: bool = False
    combat_bonus: int = 0
    damage_bonus: int = 0
    ap_bonus: int = 0
    amount: int = 0
    dice: str = ""
    damage: str = ""
    no_enemies: bool = False
    outcomes: tuple[RareRow, ...] = ()


@dataclass(frozen=True)
class SkillChecks:
    """Skill 1-2: the AP cost of a check; whether NPCs may make them."""

    clause: str
    ap: int
    npcs: bool
    text: str


@dataclass(frozen=True)
class Check:
    """A craft or knowledge check: pass ``threshold``+ at ``place`` and gain ``makes``."""

    id: str
    clause: str
    skill: str
    place: str
    threshold: int
    makes: str
    text: str


@dataclass(frozen=True)
class ActionCost:
    """What an action costs in AP, as printed (``printed`` False: an authored ruling).

    ``kind`` is ``action`` for the ACTIONS section (reached by a passed check) and ``cost``
    for the costs printed elsewhere. ``full_turn``: the action takes a whole turn of AP.
    """

    id: str
    name: str
    clause: str
    kind: str
    ap: int
    text: str
    ap_text: str = ""
    printed: bool = True
    full_turn: bool = False
    per: str = ""
    effect: str = ""
    check: str = ""
    amount: int = 0
    makes: str = ""
    needs: str = ""
    max_combat_checks: int = 0


Ware = Weapon | Equipment | Item | RareItem


@dataclass(frozen=True)
class People:
    defaults: Defaults
    start: tuple[StartRule, ...]
    characters: dict[str, Character]
    weapons: dict[str, Weapon]
    equipment: dict[str, Equipment]
    items: dict[str, Item]
    price_lists: dict[str, PriceList]
    prices: dict[str, dict[str, Price]] = field(repr=False)
    trade: Trade = field(repr=False)
    rare_charts: dict[str, RareChart] = field(repr=False)
    rare_items: dict[str, RareItem] = field(repr=False)
    skill_checks: SkillChecks = field(repr=False)
    checks: dict[str, Check] = field(repr=False)
    actions: dict[str, ActionCost] = field(repr=False)

    def ware(self, id: str) -> Ware | None:
        """A weapon, piece of equipment, item or rare item by id."""
        return (self.weapons.get(id) or self.equipment.get(id) or self.items.get(id)
                or self.rare_items.get(id))

    def price(self, place: str, ware: str) -> int | None:
        """The printed price of ``ware`` at a place kind (polis, manor, kobaloi_settlement),
        or None."""
        p = self.prices.get(place, {}).get(ware)
        return None if p is None else p.gold

    def checks_at(self, place: str, skill: str = "") -> tuple[Check, ...]:
        return tuple(c for c in self.checks.values()
                     if c.place == place and (not skill or c.skill == skill))

    def roll_rare_item(self, first: int, second: int) -> RareItem:
        """Rare 0: the first d6 picks chart A or B, the second the item."""
        chart = self.rare_charts[self.rare_charts["rare_item"].result(first).result]
        return self.rare_items[chart.result(second).result]


# ---------------------------------------------------------------------------- reading


class _Row:
    """One TOML table, read field by field; missing, mistyped and unknown fields are
    problems."""

    def __init__(self, problems: list[Problem], where: str, row: Any) -> None:
        self.problems = problems
        self.where = where
        self.row: dict[str, Any] = row if isinstance(row, dict) else {}
        self.used: set[str] = set()
        if not isinstance(row, dict):
            self.bad("", "must be a table")

    def bad(self, key: str, message: str) -> None:
        self.problems.append(Problem(self.where, f"`{key}` {message}" if key else message))

    def _get(self, key: str, default: Any, kind: type | tuple[type, ...], name: str) -> Any:
        self.used.add(key)
        if key not in self.row:
            if default is None:
                self.bad(key, "is missing")
            return default
        value = self.row[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            self.bad(key, f"must be {name}")
            return default
        return value

    def txt(self, key: str, default: str | None = None) -> str:
        return str(self._get(key, default, str, "a string") or "")

    def num(self, key: str, default: int | None = None) -> int:
        return int(self._get(key, default, int, "an integer") or 0)

    def flag(self, key: str, default: bool = False) -> bool:
        return bool(self._get(key, default, bool, "true or false"))

    def strs(self, key: str, required: bool = False) -> tuple[str, ...]:
        value = self._get(key, None if required else [], list, "a list of strings") or []
        if not all(isinstance(v, str) for v in value):
            self.bad(key, "must be a list of strings")
            return ()
        return tuple(value)

    def tables(self, key: str) -> list[Any]:
        return list(self._get(key, None, list, "an array of tables") or [])

    def id(self, key: str = "id") -> str:
        value = self.txt(key)
        if value and not _ID.fullmatch(value):
            self.bad(key, f"{value!r} is not a lower snake case id")
        return value

    def roll(self, key: str = "roll") -> tuple[int, int]:
        value = self._get(key, None, list, "[low, high]") or []
        if (len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in value) or value[0] > value[1]):
            self.bad(key, "must be [low, high] with low <= high")
            return (0, -1)
        return (value[0], value[1])

    def done(self) -> None:
        for key in sorted(set(self.row) - self.used):
            self.bad(key, "is not a known field")


def _read(base: Path, name: str, problems: list[Problem]) -> dict[str, Any]:
    path = base / name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        problems.append(Problem(name, f"cannot be read: {e.strerror}"))
        return {}
    if not text.startswith("# Source:"):
        problems.append(Problem(name, "must start with `# Source:` lines (what is printed, "
                                      "what is authored)"))
    try:
        return tomli.loads(text)
    except tomli.TOMLDecodeError as e:
        problems.append(Problem(name, f"is not valid TOML: {e}"))
        return {}


def _dice_ok(expr: str) -> bool:
    return not expr or _DICE.fullmatch(expr) is not None


def _covers(problems: list[Problem], where: str, die: str,
            rows: tuple[RareRow, ...]) -> None:
    """The rows' rolls cover every result of the die exactly once."""
    try:
        low, high = die_span(die)
    except ValueError:
        problems.append(Problem(where, f"`die` {die!r} is not a die (d6, 2d6, d3...)"))
        return
    seen: list[int] = []
    for row in rows:
        seen += range(row.roll[0], row.roll[1] + 1)
    if sorted(seen) != list(range(low, high + 1)):
        problems.append(Problem(where, f"the rolls must cover {die} ({low}-{high}) exactly "
                                       f"once, got {sorted(seen)}"))


def _unique(problems: list[Problem], where: str, ids: list[str]) -> None:
    for i in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(Problem(where, f"id {i!r} is used more than once"))


def _rare_rows(r: _Row, key: str, problems: list[Problem]) -> tuple[RareRow, ...]:
    rows = []
    for n, x in enumerate(r.tables(key), 1):
        rr = _Row(problems, f"{r.where} {key} {n}", x)
        rows.append(RareRow(rr.roll(), rr.id("result"), rr.txt("text")))
        rr.done()
    return tuple(rows)


@cache
def load() -> People:
    """The people of Hetairos from the package's ``data/`` (cached)."""
    return load_from(DATA)


def load_from(base: Path) -> People:
    """Load and check the six files of ``base``; raise ProblemsError on any problem."""
    problems: list[Problem] = []
    raw = {name: _read(base, name, problems) for name in FILES}

    # characters.toml
    c = raw["characters.toml"]
    d = _Row(problems, "characters.toml [defaults]", c.get("defaults"))
    defaults = Defaults(d.num("pc_ap"), d.num("pc_hp"), d.num("npc_ap"), d.num("npc_hp"),
                        d.num("dice"), d.num("gold"), d.num("kleos"), d.strs("text", True))
    d.done()
    start = []
    for n, x in enumerate(c.get("start", []), 1):
        r = _Row(problems, f"characters.toml start {n}", x)
        start.append(StartRule(r.id(), r.txt("clause"), r.txt("text")))
        r.done()
    characters: dict[str, Character] = {}
    for n, x in enumerate(c.get("character", []), 1):
        r = _Row(problems, f"characters.toml character {n}", x)
        cid, name = r.id(), r.txt("name")
        where = f"characters.toml {cid or n}"
        abilities = []
        for m, y in enumerate(r.tables("ability"), 1):
            a = _Row(problems, f"{where} ability {m}", y)
            abilities.append(Ability(
                a.id(), a.txt("text"), a.txt("clause"), a.txt("effect"), a.txt("check", ""),
                a.num("amount", 0), a.num("threshold", 0), a.num("ap", 0), a.txt("item", ""),
                a.num("range", 0), a.num("bow_range", 0), a.num("per_turn", 0),
                a.flag("safe_on_fail"), a.flag("no_enemies"), a.strs("improved_by")))
            a.done()
        text = "\n".join([name] + [f"- {a.text}" for a in abilities])
        ch = Character(cid, name, r.num("ap", defaults.pc_ap), r.num("hp", defaults.pc_hp),
                       r.num("dice", defaults.dice), tuple(abilities), text)
        r.done()
        if cid in characters:
            problems.append(Problem(where, "is defined twice"))
        characters[cid] = ch

    # weapons.toml
    w = raw["weapons.toml"]
    weapons: dict[str, Weapon] = {}
    for n, x in enumerate(w.get("weapon", []), 1):
        r = _Row(problems, f"weapons.toml weapon {n}", x)
        wp = Weapon(r.id(), r.txt("name"), r.txt("clause"), r.txt("text"),
                    r.num("damage_bonus", 0), r.num("combat_bonus", 0), r.num("range", 0),
                    r.num("range_modifier", 0), r.flag("ignores_saves"), r.txt("condition", ""),
                    r.num("condition_amount", 0), r.txt("like", ""),
                    r.num("per_other_wielder", 0))
        r.done()
        weapons.setdefault(wp.id, wp)
    equipment: dict[str, Equipment] = {}
    for n, x in enumerate(w.get("equipment", []), 1):
        r = _Row(problems, f"weapons.toml equipment {n}", x)
        eq = Equipment(r.id(), r.txt("name"), r.txt("clause"), r.txt("text"), r.num("save"),
                       r.txt("combined_with", ""), r.num("combined_save", 0))
        r.done()
        equipment.setdefault(eq.id, eq)

    # items.toml
    it = raw["items.toml"]
    items: dict[str, Item] = {}
    for n, x in enumerate(it.get("item", []), 1):
        r = _Row(problems, f"items.toml item {n}", x)
        item = Item(r.id(), r.txt("name"), r.txt("clause"), r.txt("kind"), r.txt("effect"),
                    r.txt("text"), r.strs("checks"), r.num("amount", 0), r.num("uses", 0),
                    r.txt("needed_for", ""), r.txt("prayer", ""))
        r.done()
        items.setdefault(item.id, item)
    price_lists: dict[str, PriceList] = {}
    for n, x in enumerate(it.get("price_list", []), 1):
        r = _Row(problems, f"items.toml price_list {n}", x)
        pid, clause, places, text = r.id(), r.txt("clause"), r.strs("places", True), r.txt("text")
        rows = []
        for m, y in enumerate(r.tables("rows"), 1):
            rr = _Row(problems, f"items.toml price_list {pid or n} row {m}", y)
            rows.append((rr.id("ware"), rr.num("gold"), rr.txt("text")))
            rr.done()
        r.done()
        price_lists.setdefault(pid, PriceList(pid, clause, places, text, tuple(rows)))
    t = _Row(problems, "items.toml [trade]", it.get("trade"))
    trade = Trade(t.num("sell_modifier"), t.txt("sell_text"), t.txt("friendly_discount"),
                  t.strs("friendly_places", True), t.txt("friendly_text"))
    t.done()

    # rare_items.toml
    ri = raw["rare_items.toml"]
    rare_charts: dict[str, RareChart] = {}
    for n, x in enumerate(ri.get("chart", []), 1):
        r = _Row(problems, f"rare_items.toml chart {n}", x)
        chart = RareChart(r.id(), r.txt("clause"), r.txt("die"), r.txt("text"),
                          _rare_rows(r, "rows", problems))
        r.done()
        rare_charts.setdefault(chart.id, chart)
    rare_items: dict[str, RareItem] = {}
    for n, x in enumerate(ri.get("rare_item", []), 1):
        r = _Row(problems, f"rare_items.toml rare_item {n}", x)
        rare = RareItem(
            r.id(), r.txt("name"), r.txt("clause"), r.txt("effect"), r.txt("text"),
            r.num("ap", 0), r.num("uses", 0), r.num("per_turn", 0), r.num("save", 0),
            r.num("range", 0), r.num("amazon_range", 0), r.num("threshold", 0),
            r.flag("weapon"), r.num("combat_bonus", 0), r.num("damage_bonus", 0),
            r.num("ap_bonus", 0), r.num("amount", 0), r.txt("dice", ""), r.txt("damage", ""),
            r.flag("no_enemies"),
            _rare_rows(r, "outcomes", problems) if "outcomes" in r.row else ())
        r.used.add("outcomes")
        r.done()
        rare_items.setdefault(rare.id, rare)

    # checks.toml
    ck = raw["checks.toml"]
    s = _Row(problems, "checks.toml [skill_checks]", ck.get("skill_checks"))
    skill_checks = SkillChecks(s.txt("clause"), s.num("ap"), s.flag("npcs"), s.txt("text"))
    s.done()
    checks: dict[str, Check] = {}
    for n, x in enumerate(ck.get("check", []), 1):
        r = _Row(problems, f"checks.toml check {n}", x)
        check = Check(r.id(), r.txt("clause"), r.txt("skill"), r.txt("place"),
                      r.num("threshold"), r.id("makes"), r.txt("text"))
        r.done()
        checks.setdefault(check.id, check)

    # actions.toml
    ac = raw["actions.toml"]
    actions: dict[str, ActionCost] = {}
    for kind in ("action", "cost"):
        for n, x in enumerate(ac.get(kind, []), 1):
            r = _Row(problems, f"actions.toml {kind} {n}", x)
            act = ActionCost(r.id(), r.txt("name"), r.txt("clause"), kind, r.num("ap"),
                             r.txt("text"), r.txt("ap_text", ""), r.flag("printed", True),
                             r.flag("full_turn"), r.txt("per", ""), r.txt("effect", ""),
                             r.txt("check", ""), r.num("amount", 0), r.txt("makes", ""),
                             r.txt("needs", ""), r.num("max_combat_checks", 0))
            r.done()
            actions.setdefault(act.id, act)

    # unknown top-level tables
    known_tables = {"characters.toml": {"defaults", "start", "character"},
                    "weapons.toml": {"weapon", "equipment"},
                    "items.toml": {"item", "price_list", "trade"},
                    "rare_items.toml": {"chart", "rare_item"},
                    "checks.toml": {"skill_checks", "check"},
                    "actions.toml": {"action", "cost"}}
    for name, tables in known_tables.items():
        problems += [Problem(name, f"unknown table `{k}`") for k in sorted(set(raw[name]) -
                                                                            tables)]

    # ids: unique within their files, and wares unique across files
    _unique(problems, "characters.toml", [x.get("id", "") for x in c.get("character", [])
                                          if isinstance(x, dict)])
    for name, key in (("weapons.toml", "weapon"), ("weapons.toml", "equipment"),
                      ("items.toml", "item"), ("items.toml", "price_list"),
                      ("rare_items.toml", "chart"), ("rare_items.toml", "rare_item"),
                      ("checks.toml", "check")):
        _unique(problems, name, [x.get("id", "") for x in raw[name].get(key, [])
                                 if isinstance(x, dict)])
    _unique(problems, "actions.toml", [x.get("id", "") for k in ("action", "cost")
                                       for x in ac.get(k, []) if isinstance(x, dict)])
    _unique(problems, "weapons, equipment, items, rare items",
            list(weapons) + list(equipment) + list(items) + list(rare_items))
    wares = set(weapons) | set(equipment) | set(items) | set(rare_items)

    _check_characters(problems, defaults, characters, equipment, wares)
    _check_gear(problems, weapons, equipment, items, actions)
    prices = _check_prices(problems, price_lists, trade, wares)
    _check_rare(problems, rare_charts, rare_items)
    _check_checks(problems, skill_checks, checks, actions, wares)

    if problems:
        raise ProblemsError(problems, "hetairos people")
    return People(defaults, tuple(start), characters, weapons, equipment, items, price_lists,
                  prices, trade, rare_charts, rare_items, skill_checks, checks, actions)


# ---------------------------------------------------------------------------- rules


def _check_characters(problems: list[Problem], defaults: Defaults,
                      characters: dict[str, Character], equipment: dict[str, Equipment],
                      wares: set[str]) -> None:
    if min(defaults.pc_ap, defaults.pc_hp, defaults.npc_ap, defaults.npc_hp,
           defaults.dice) < 1:
        problems.append(Problem("characters.toml [defaults]", "AP, HP and dice must be >= 1"))
    for ch in characters.values():
        where = f"characters.toml {ch.id}"
        if min(ch.ap, ch.hp, ch.dice) < 1:
            problems.append(Problem(where, "`ap`, `hp` and `dice` must be 1 or more"))
        if not ch.abilities:
            problems.append(Problem(where, "has no ability (each PC prints at least one)"))
        _unique(problems, where, [a.id for a in ch.abilities])
        for a in ch.abilities:
            aw = f"{where} {a.id}"
            if a.effect not in ABILITY_EFFECTS:
                problems.append(Problem(aw, f"unknown effect {a.effect!r}"))
            if a.effect in {"check_dice", "check_bonus"} and a.check not in CHECK_KINDS:
                problems.append(Problem(aw, f"`check` must be one of {sorted(CHECK_KINDS)}"))
            if a.effect in {"check_dice", "check_bonus", "move_allowance", "damage",
                            "gold_per_kleos", "heal"} and a.amount < 1:
                problems.append(Problem(aw, "`amount` must be 1 or more"))
            if a.effect in {"save", "sneak"} and not 2 <= a.threshold <= 6:
                problems.append(Problem(aw, "`threshold` must be a d6 roll 2-6"))
            if a.effect == "move_allowance" and a.amount != ch.ap:
                problems.append(Problem(aw, f"the move allowance {a.amount} must be the "
                                            f"character's `ap` ({ch.ap})"))
            if a.effect == "start_item" and a.item not in wares:
                problems.append(Problem(aw, f"unknown item {a.item!r}"))
            problems += [Problem(aw, f"`improved_by` names unknown equipment {e!r}")
                         for e in a.improved_by if e not in equipment]


def _check_gear(problems: list[Problem], weapons: dict[str, Weapon],
                equipment: dict[str, Equipment], items: dict[str, Item],
                actions: dict[str, ActionCost]) -> None:
    for wp in weapons.values():
        where = f"weapons.toml {wp.id}"
        if wp.condition not in WEAPON_CONDITIONS:
            problems.append(Problem(where, f"unknown condition {wp.condition!r}"))
        if (wp.condition == "ap_left_at_end_of_turn") != (wp.condition_amount > 0):
            problems.append(Problem(where, "`condition_amount` goes with the condition "
                                           "ap_left_at_end_of_turn, and only with it"))
        if wp.like and (wp.like not in weapons or weapons[wp.like].like):
            problems.append(Problem(where, f"`like` must name another plain weapon, not "
                                           f"{wp.like!r}"))
    for eq in equipment.values():
        where = f"weapons.toml {eq.id}"
        if not 2 <= eq.save <= 6 or (eq.combined_with and not 2 <= eq.combined_save <= 6):
            problems.append(Problem(where, "saves must be d6 rolls 2-6"))
        if eq.combined_with and eq.combined_with not in equipment:
            problems.append(Problem(where, f"unknown equipment {eq.combined_with!r}"))
    for item in items.values():
        where = f"items.toml {item.id}"
        if item.kind not in ITEM_KINDS:
            problems.append(Problem(where, f"unknown kind {item.kind!r}"))
        if item.effect not in ITEM_EFFECTS:
            problems.append(Problem(where, f"unknown effect {item.effect!r}"))
        problems += [Problem(where, f"unknown check {x!r}") for x in item.checks
                     if x not in ITEM_CHECKS]
        if item.effect in {"check_bonus", "reroll"} and not item.checks:
            problems.append(Problem(where, "`checks` must say what the item applies to"))
        if item.uses < 0:
            problems.append(Problem(where, "`uses` must be 0 (lasting) or more"))
        for key, value in (("needed_for", item.needed_for), ("prayer", item.prayer)):
            if value and value not in actions:
                problems.append(Problem(where, f"`{key}` names unknown action {value!r}"))


def _check_prices(problems: list[Problem], price_lists: dict[str, PriceList], trade: Trade,
                  wares: set[str]) -> dict[str, dict[str, Price]]:
    prices: dict[str, dict[str, Price]] = {}
    for pl in price_lists.values():
        where = f"items.toml price_list {pl.id}"
        if not pl.places or not pl.rows:
            problems.append(Problem(where, "needs `places` and `rows`"))
        for place in pl.places:
            if place not in PLACES:
                problems.append(Problem(where, f"unknown place kind {place!r} "
                                               f"(one of {sorted(PLACES)})"))
            table = prices.setdefault(place, {})
            for ware, gold, text in pl.rows:
                if ware not in wares:
                    problems.append(Problem(where, f"unknown ware {ware!r}"))
                if gold < 0:
                    problems.append(Problem(where, f"{ware}: a price is 0 gold or more"))
                if ware in table:
                    problems.append(Problem(where, f"{ware} is priced twice at {place}"))
                table[ware] = Price(place, ware, gold, text)
    if not _dice_ok(trade.friendly_discount):
        problems.append(Problem("items.toml [trade]", "`friendly_discount` is not a dice "
                                                      "expression"))
    problems += [Problem("items.toml [trade]", f"unknown place kind {p!r}")
                 for p in trade.friendly_places if p not in PLACES]
    return prices


def _check_rare(problems: list[Problem], charts: dict[str, RareChart],
                rare_items: dict[str, RareItem]) -> None:
    if "rare_item" not in charts:
        problems.append(Problem("rare_items.toml", "the chart `rare_item` (Rare 0) is "
                                                   "missing"))
    reached: list[str] = []
    for chart in charts.values():
        where = f"rare_items.toml chart {chart.id}"
        _covers(problems, where, chart.die, chart.rows)
        for row in chart.rows:
            if row.result in charts:
                if row.result == chart.id:
                    problems.append(Problem(where, "a chart may not refer to itself"))
            elif row.result in rare_items:
                reached.append(row.result)
            else:
                problems.append(Problem(where, f"unknown result {row.result!r} (a chart or "
                                               f"rare item)"))
    for rare in rare_items.values():
        where = f"rare_items.toml {rare.id}"
        if rare.effect not in RARE_EFFECTS:
            problems.append(Problem(where, f"unknown effect {rare.effect!r}"))
        if not _dice_ok(rare.dice) or not _dice_ok(rare.damage):
            problems.append(Problem(where, "`dice` and `damage` must be dice expressions "
                                           "(d6, 2d6, d6+3)"))
        if rare.save and not 2 <= rare.save <= 6:
            problems.append(Problem(where, "`save` must be a d6 roll 2-6"))
        if rare.outcomes:
            _covers(problems, f"{where} outcomes", rare.dice, rare.outcomes)
        if reached.count(rare.id) != 1:
            problems.append(Problem(where, f"must be the result of exactly one chart row, is "
                                           f"of {reached.count(rare.id)}"))


def _check_checks(problems: list[Problem], skill_checks: SkillChecks, checks: dict[str, Check],
                  actions: dict[str, ActionCost], wares: set[str]) -> None:
    if skill_checks.ap < 1:
        problems.append(Problem("checks.toml [skill_checks]", "`ap` must be 1 or more"))
    for check in checks.values():
        where = f"checks.toml {check.id}"
        if check.skill not in SKILLS:
            problems.append(Problem(where, f"`skill` must be one of {sorted(SKILLS)}"))
        if check.place not in CHECK_PLACES:
            problems.append(Problem(where, f"unknown place {check.place!r} "
                                           f"(one of {sorted(CHECK_PLACES)})"))
        if not 2 <= check.threshold <= 12:
            problems.append(Problem(where, "`threshold` must be 2-12"))
        if check.makes not in wares and (check.makes not in actions
                                         or actions[check.makes].kind != "action"):
            problems.append(Problem(where, f"`makes` names nothing known: {check.makes!r}"))
    reached = {c.makes for c in checks.values()}
    for act in actions.values():
        where = f"actions.toml {act.id}"
        if act.ap < 0 or (act.full_turn and act.ap):
            problems.append(Problem(where, "`ap` must be 0 or more (0 with full_turn)"))
        if act.kind == "action":
            if act.effect not in ACTION_EFFECTS:
                problems.append(Problem(where, f"unknown effect {act.effect!r}"))
            if act.ap != skill_checks.ap:
                problems.append(Problem(where, f"an ACTIONS entry is a skill check: "
                                               f"{skill_checks.ap} AP (Skill 1)"))
            if act.id not in reached:
                problems.append(Problem(where, "no check in checks.toml makes it"))
            if act.effect == "next_check_bonus" and (act.check not in ITEM_CHECKS
                                                     or act.amount < 1):
                problems.append(Problem(where, "needs a known `check` and an `amount`"))
            if act.effect in {"build", "create"} and not act.makes:
                problems.append(Problem(where, "`makes` must name the monster made"))
        elif act.effect or act.makes:
            problems.append(Problem(where, "a cost has no `effect` or `makes`"))
        if act.needs and act.needs not in wares:
            problems.append(Problem(where, f"`needs` names unknown ware {act.needs!r}"))

"""Hetairos's world as printed: the square kinds of the map, the traps and lairs, every chart
of the map's sections (Exploration, Cavern..!, Community, Lair, Hecate's devotees, Trap,
Revolving room, Tunnelling), the Monster Manual and the 24 scenarios with Appendix A, loaded
from ``data/squares.toml``, ``exploration.toml``, ``monsters.toml`` and ``scenarios.toml``.

Printed values keep their seed text (``text`` fields); ids, keywords and structure are
authored (each file's ``# Source:`` lines say which). A file that breaks a rule stated here (a
chart whose rolls do not cover its die, an unknown square kind, monster or chart referred to,
a missing or unknown field) does not load: :class:`ProblemsError` lists every problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import tomli

from pbem.core.errors import Problem, ProblemsError

T = TypeVar("T")

DATA = Path(__file__).resolve().parent / "data"

ID = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
DICE = re.compile(r"(\d*)d(\d+)([+-]\d+)?")
#: Open sides of each shape (analysis 3.2): caverns 4, tunnels 2 along travel, forks 3,
#: rock none, the Styx north and south along the river.
SIDES = {"none": 0, "through": 2, "fork": 3, "all": 4, "river": 2}
ON_ENTER = frozenset({"none", "blocked", "roll", "hoard"})
YIELDS = frozenset({"square", "trap", "lair", "monster", "direction", "outcome", "scenario"})
DIRECTIONS = frozenset({"straight", "right", "left", "back", "stuck", "choose"})
SPECIALS = frozenset({"attacks_adjacent", "rests", "attacks_settlements", "die_per_opponent",
                      "buy_off", "petrify", "wound_rage", "steals", "lamp_madness", "curable",
                      "drains", "fights_knowledge"})
STAT_FIELDS = frozenset({"hp", "ap", "combat", "damage"})
KINDS = frozenset({"coop", "solo", "team"})
STARTS = frozenset({"bridge_together", "bridge_each", "bridge_teams", "team_caverns",
                    "around_bridge"})


def dice_range(dice: str) -> tuple[int, int] | None:
    """The lowest and highest total of ``"2d6+3"``, ``"d3"`` or ``"4"``; None if malformed."""
    if dice.isdigit():
        return int(dice), int(dice)
    m = DICE.fullmatch(dice)
    if not m or int(m[2]) < 2:
        return None
    n, faces, plus = int(m[1] or 1), int(m[2]), int(m[3] or 0)
    return n + plus, n * faces + plus


# ---- dataclasses ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartRow:
    roll: tuple[int, int]
    result: str
    text: str
    then: str = ""  # the chart the seed says to roll again on
    damage: str = ""  # dice a tunnelling row deals ("d3")


@dataclass(frozen=True)
class Chart:
    id: str
    name: str
    die: str
    yields: str
    text: str
    rows: tuple[ChartRow, ...]
    ap: int = 0  # the tunnelling action's AP cost
    caverns_only: bool = False

    def row(self, roll: int) -> ChartRow:
        """The row of a rolled total (ValueError outside the die)."""
        for r in self.rows:
            if r.roll[0] <= roll <= r.roll[1]:
                return r
        raise ValueError(f"{self.id}: {roll} is not a roll of {self.die}")


@dataclass(frozen=True)
class Force:
    monster: str
    count: int


@dataclass(frozen=True)
class SquareKind:
    id: str
    name: str
    heading: str
    text: str
    sides: str = "all"
    open_sides: int = 4
    cavern: bool = False
    passable: bool = True
    move_cost: int = 1
    diggable: bool = True  # "STYX CAVERNS MAY NOT BE COLLAPSED OR ENLARGED"
    on_enter: str = "none"
    enter_chart: str = ""
    charts: tuple[str, ...] = ()
    parent: str = ""  # the chart this kind is a result of
    settlement: bool = False
    force: tuple[Force, ...] = ()
    taken_force: tuple[Force, ...] = ()
    numbers: Mapping[str, int] | None = None
    friendly_text: str = ""
    prisoner_price: str = ""
    great_prisoner_price: str = ""
    end_turn_loss: str = ""
    gold: str = ""
    spawn_chart: str = ""

    def number(self, key: str) -> int:
        return (self.numbers or {})[key]


@dataclass(frozen=True)
class Trap:
    id: str
    name: str
    text: str
    attack: str = ""
    damage: str = ""
    climb: str = ""
    once: bool = False
    like: str = ""
    chart: str = ""
    escape_knowledge: int = 0


@dataclass(frozen=True)
class Lair:
    id: str
    name: str
    text: str
    chart: str = ""
    targets: str = ""
    max_attached: int = 0
    attacker: str = ""
    attackers: str = ""


@dataclass(frozen=True)
class Cure:
    square: str
    knowledge: int
    becomes: str


@dataclass(frozen=True)
class MonsterDefaults:
    """Monster 0: "UNLESS OTHERWISE STATED ALL MONSTERS HAVE 1 HEALTH POINT, 5 ACTION POINTS
    AND USE 1D6 IN BATTLES"."""

    text: str
    hp: int
    ap: int
    combat: str
    damage: str


@dataclass(frozen=True)
class Monster:
    id: str
    name: str
    kleos: int
    kleos_text: str
    text: str
    hp: int
    ap: int  # 0 when the AP are rolled (``ap_dice``)
    combat: str  # dice, or "per_opponent" (the Chimera)
    damage: str  # dice or a number
    ap_dice: str = ""
    great: bool = False
    no_small_tunnels: bool = False
    save: int = 0
    ignores_saves: bool = False
    ignores_armour_saves: bool = False
    never_captured: bool = False
    tie_unhurt: bool = False
    knowledge_check: tuple[int, int] | None = None
    specials: frozenset[str] = frozenset()
    numbers: Mapping[str, int] | None = None
    steals: str = ""
    cure: Cure | None = None
    silent: frozenset[str] = frozenset()

    @property
    def capturable(self) -> bool:
        """Battle 9: Great Monsters, and those "NEVER CAPTURED", cannot be imprisoned."""
        return not (self.great or self.never_captured)


@dataclass(frozen=True)
class ScenarioList:
    id: str
    name: str
    heading: str
    kind: str
    start: str
    text: str
    start_gap: int = 0


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    list: str
    number: int
    kind: str
    start: str
    start_gap: int
    text: str
    victory: tuple[str, ...]
    events: tuple[str, ...] = ()
    setup: str = ""  # the scenario's own setup sentence (the list's text is the general one)
    numbers: Mapping[str, int] | None = None
    dice: Mapping[str, str] | None = None
    monsters: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    charts: tuple[str, ...] = ()
    teams: int = 0
    team_size: int = 0
    team_names: tuple[str, ...] = ()
    powers: tuple[str, ...] = ()

    def number_of(self, key: str) -> int:
        return (self.numbers or {})[key]


@dataclass(frozen=True)
class Aim:
    """APPENDIX A - MONSTER MOVEMENT: the monsters' aims (``printed`` False: heading only)."""

    id: str
    name: str
    heading: str
    text: str
    printed: bool = True


@dataclass(frozen=True)
class World:
    squares: Mapping[str, SquareKind]
    traps: Mapping[str, Trap]
    lairs: Mapping[str, Lair]
    charts: Mapping[str, Chart]
    defaults: MonsterDefaults
    monsters: Mapping[str, Monster]
    lists: Mapping[str, ScenarioList]
    scenarios: Mapping[str, Scenario]
    aims: Mapping[str, Aim]

    def roll(self, chart: str, value: int) -> ChartRow:
        return self.charts[chart].row(value)

    def scenario_list(self, list_id: str) -> tuple[Scenario, ...]:
        """One of the four lists of six, in printed order (Start 3)."""
        return tuple(sorted((s for s in self.scenarios.values() if s.list == list_id),
                            key=lambda s: s.number))

    def great_monsters(self) -> tuple[str, ...]:
        return tuple(m.id for m in self.monsters.values() if m.great)


# ---- reading --------------------------------------------------------------------------------


class _Reader:
    """Reads tables field by field, collecting problems instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, where: str, message: str) -> None:
        self.problems.append(Problem(where, message))

    def fields(self, where: str, table: Any, required: set[str], optional: set[str]) -> bool:
        if not isinstance(table, dict):
            self.problem(where, "must be a table")
            return False
        ok = True
        for key in sorted(required - table.keys()):
            self.problem(where, f"missing field `{key}`")
            ok = False
        for key in sorted(table.keys() - required - optional):
            self.problem(where, f"unknown field `{key}`")
            ok = False
        return ok

    def typed(self, where: str, table: dict[str, Any], key: str, kind: type,
              default: Any = None) -> Any:
        value = table.get(key, default)
        if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
            self.problem(where, f"`{key}` must be {kind.__name__}")
            return default if default is not None else kind()
        return value

    def strs(self, where: str, table: dict[str, Any], key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problem(where, f"`{key}` must be a list of strings")
            return ()
        return tuple(value)

    def ints(self, where: str, table: dict[str, Any], key: str) -> dict[str, int] | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
            self.problem(where, f"`{key}` must be a table of integers")
            return None
        for k in value:
            self.id(f"{where} {key}", k)
        return dict(value)

    def id(self, where: str, value: Any) -> str:
        if not isinstance(value, str) or not ID.fullmatch(value):
            self.problem(where, f"id {value!r} must be lower snake case")
            return str(value)
        return value

    def dice(self, where: str, key: str, value: str, allow_empty: bool = True) -> None:
        if value == "" and allow_empty:
            return
        if dice_range(value) is None:
            self.problem(where, f"`{key}` {value!r} is not dice (\"2d6+3\", \"d3\") or a number")

    def table_list(self, doc: dict[str, Any], name: str, where: str) -> list[Any]:
        value = doc.get(name, [])
        if not isinstance(value, list):
            self.problem(where, f"[[{name}]] must be an array of tables")
            return []
        return value


def _keyed(reader: _Reader, where: str, items: list[T],
              key: Callable[[T], str]) -> dict[str, T]:
    out: dict[str, T] = {}
    for item in items:
        k = key(item)
        if k in out:
            reader.problem(where, f"duplicate id {k!r}")
        out[k] = item
    return out


def _read(path: Path) -> dict[str, Any]:
    return tomli.loads(path.read_text(encoding="utf-8"))


def _charts(r: _Reader, doc: dict[str, Any], file: str) -> list[Chart]:
    charts = []
    for raw in r.table_list(doc, "chart", file):
        where = f"{file} [chart] {raw.get('id', '?') if isinstance(raw, dict) else '?'}"
        if not r.fields(where, raw, {"id", "name", "die", "yields", "text", "rows"},
                        {"ap", "caverns_only"}):
            continue
        rows = []
        for i, row in enumerate(r.typed(where, raw, "rows", list)):
            rw = f"{where} row {i + 1}"
            if not r.fields(rw, row, {"roll", "result", "text"}, {"then", "damage"}):
                continue
            roll = row["roll"]
            if (not isinstance(roll, list) or len(roll) != 2
                    or not all(isinstance(v, int) for v in roll) or roll[0] > roll[1]):
                r.problem(rw, "`roll` must be a range [low, high]")
                continue
            rows.append(ChartRow((roll[0], roll[1]), r.typed(rw, row, "result", str),
                                 r.typed(rw, row, "text", str), r.typed(rw, row, "then", str, ""),
                                 r.typed(rw, row, "damage", str, "")))
        charts.append(Chart(r.id(where, raw["id"]), r.typed(where, raw, "name", str),
                            r.typed(where, raw, "die", str), r.typed(where, raw, "yields", str),
                            r.typed(where, raw, "text", str), tuple(rows),
                            r.typed(where, raw, "ap", int, 0),
                            r.typed(where, raw, "caverns_only", bool, False)))
    return charts


def _forces(r: _Reader, where: str, raw: dict[str, Any], key: str) -> tuple[Force, ...]:
    out = []
    for f in r.typed(where, raw, key, list, []):
        if r.fields(f"{where} {key}", f, {"monster", "count"}, set()):
            out.append(Force(r.typed(where, f, "monster", str), r.typed(where, f, "count", int)))
    return tuple(out)


def _squares(r: _Reader, doc: dict[str, Any]) -> tuple[list[SquareKind], list[Trap], list[Lair]]:
    file = "squares.toml"
    squares, traps, lairs = [], [], []
    s_opt = {"sides", "open_sides", "cavern", "passable", "move_cost", "diggable", "on_enter",
             "enter_chart", "charts", "parent", "settlement", "force", "taken_force",
             "numbers", "friendly_text", "prisoner_price", "great_prisoner_price",
             "end_turn_loss", "gold", "spawn_chart"}
    str_opt = ("sides", "on_enter", "enter_chart", "parent", "friendly_text", "prisoner_price",
               "great_prisoner_price", "end_turn_loss", "gold", "spawn_chart")
    for raw in r.table_list(doc, "square", file):
        where = f"{file} [square] {raw.get('id', '?') if isinstance(raw, dict) else '?'}"
        if not r.fields(where, raw, {"id", "name", "heading", "text"}, s_opt):
            continue
        defaults = SquareKind("", "", "", "")
        kw: dict[str, Any] = {k: r.typed(where, raw, k, str, getattr(defaults, k))
                              for k in str_opt}
        kw |= {k: r.typed(where, raw, k, bool, getattr(defaults, k))
               for k in ("cavern", "passable", "diggable", "settlement")}
        kw |= {k: r.typed(where, raw, k, int, getattr(defaults, k))
               for k in ("open_sides", "move_cost")}
        squares.append(SquareKind(
            r.id(where, raw["id"]), r.typed(where, raw, "name", str),
            r.typed(where, raw, "heading", str), r.typed(where, raw, "text", str),
            charts=r.strs(where, raw, "charts"), force=_forces(r, where, raw, "force"),
            taken_force=_forces(r, where, raw, "taken_force"),
            numbers=r.ints(where, raw, "numbers"), **kw))
    for raw in r.table_list(doc, "trap", file):
        where = f"{file} [trap] {raw.get('id', '?') if isinstance(raw, dict) else '?'}"
        if not r.fields(where, raw, {"id", "name", "text"},
                        {"attack", "damage", "climb", "once", "like", "chart",
                         "escape_knowledge"}):
            continue
        traps.append(Trap(
            r.id(where, raw["id"]), r.typed(where, raw, "name", str),
            r.typed(where, raw, "text", str), r.typed(where, raw, "attack", str, ""),
            r.typed(where, raw, "damage", str, ""), r.typed(where, raw, "climb", str, ""),
            r.typed(where, raw, "once", bool, False), r.typed(where, raw, "like", str, ""),
            r.typed(where, raw, "chart", str, ""),
            r.typed(where, raw, "escape_knowledge", int, 0)))
    for raw in r.table_list(doc, "lair", file):
        where = f"{file} [lair] {raw.get('id', '?') if isinstance(raw, dict) else '?'}"
        if not r.fields(where, raw, {"id", "name", "text"},
                        {"chart", "targets", "max_attached", "attacker", "attackers"}):
            continue
        lairs.append(Lair(
            r.id(where, raw["id"]), r.typed(where, raw, "name", str),
            r.typed(where, raw, "text", str), r.typed(where, raw, "chart", str, ""),
            r.typed(where, raw, "targets", str, ""), r.typed(where, raw, "max_attached", int, 0),
            r.typed(where, raw, "attacker", str, ""), r.typed(where, raw, "attackers", str, "")))
    return squares, traps, lairs


def _monsters(r: _Reader, doc: dict[str, Any]) -> tuple[MonsterDefaults, list[Monster]]:
    file = "monsters.toml"
    d = doc.get("defaults", {})
    defaults = MonsterDefaults("", 1, 5, "1d6", "1")
    if r.fields(f"{file} [defaults]", d, {"text", "hp", "ap", "combat", "damage"}, set()):
        w = f"{file} [defaults]"
        defaults = MonsterDefaults(r.typed(w, d, "text", str), r.typed(w, d, "hp", int),
                                   r.typed(w, d, "ap", int), r.typed(w, d, "combat", str),
                                   r.typed(w, d, "damage", str))
    monsters = []
    flags = ("great", "no_small_tunnels", "ignores_saves", "ignores_armour_saves",
             "never_captured", "tie_unhurt")
    optional = set(STAT_FIELDS) | set(flags) | {"ap_dice", "save", "knowledge_check",
                                                "specials", "numbers", "steals", "cure",
                                                "silent"}
    for raw in r.table_list(doc, "monster", file):
        where = f"{file} [monster] {raw.get('id', '?') if isinstance(raw, dict) else '?'}"
        if not r.fields(where, raw, {"id", "name", "kleos", "kleos_text", "text"}, optional):
            continue
        silent = frozenset(r.strs(where, raw, "silent"))
        for key in sorted(silent - STAT_FIELDS):
            r.problem(where, f"`silent` names {key!r}, not one of {sorted(STAT_FIELDS)}")
        for key in sorted(silent & raw.keys()):
            r.problem(where, f"`{key}` is both given and `silent`")
        for key in sorted(STAT_FIELDS - silent - raw.keys()):
            if not (key == "ap" and "ap_dice" in raw):
                r.problem(where, f"`{key}` is neither given nor `silent` (Monster 0's value)")
        check = raw.get("knowledge_check")
        if check is not None and (not isinstance(check, list) or len(check) != 2
                                  or not all(isinstance(v, int) for v in check)):
            r.problem(where, "`knowledge_check` must be [target, penalty]")
            check = None
        cure = None
        if "cure" in raw and r.fields(f"{where} cure", raw["cure"],
                                      {"square", "knowledge", "becomes"}, set()):
            c = raw["cure"]
            cure = Cure(r.typed(where, c, "square", str), r.typed(where, c, "knowledge", int),
                        r.typed(where, c, "becomes", str))
        ap_dice = r.typed(where, raw, "ap_dice", str, "")
        monsters.append(Monster(
            r.id(where, raw["id"]), r.typed(where, raw, "name", str),
            r.typed(where, raw, "kleos", int), r.typed(where, raw, "kleos_text", str),
            r.typed(where, raw, "text", str), r.typed(where, raw, "hp", int, defaults.hp),
            0 if ap_dice else r.typed(where, raw, "ap", int, defaults.ap),
            r.typed(where, raw, "combat", str, defaults.combat),
            r.typed(where, raw, "damage", str, defaults.damage), ap_dice,
            save=r.typed(where, raw, "save", int, 0),
            knowledge_check=(check[0], check[1]) if check else None,
            specials=frozenset(r.strs(where, raw, "specials")),
            numbers=r.ints(where, raw, "numbers"), steals=r.typed(where, raw, "steals", str, ""),
            cure=cure, silent=silent, **{k: r.typed(where, raw, k, bool, False) for k in flags}))
    return defaults, monsters


def _scenarios(r: _Reader, doc: dict[str, Any]
               ) -> tuple[list[ScenarioList], list[Scenario], list[Aim]]:
    file = "scenarios.toml"
    lists, scenarios, aims = [], [], []
    for raw in r.table_list(doc, "list", file):
        where = f"{file} [list] {raw.get('id', '?') if isinstance(raw, dict) else '?'}"
        if r.fields(where, raw, {"id", "name", "heading", "kind", "start", "text"},
                    {"start_gap"}):
            lists.append(ScenarioList(
                r.id(where, raw["id"]), r.typed(where, raw, "name", str),
                r.typed(where, raw, "heading", str), r.typed(where, raw, "kind", str),
                r.typed(where, raw, "start", str), r.typed(where, raw, "text", str),
                r.typed(where, raw, "start_gap", int, 0)))
    by_list = {x.id: x for x in lists}
    optional = {"events", "setup", "numbers", "dice", "monsters", "places", "charts", "start",
                "start_gap", "teams", "team_size", "team_names", "powers"}
    for raw in r.table_list(doc, "scenario", file):
        where = f"{file} [scenario] {raw.get('id', '?') if isinstance(raw, dict) else '?'}"
        if not r.fields(where, raw, {"id", "name", "list", "number", "text", "victory"},
                        optional):
            continue
        lst = by_list.get(raw["list"])
        if lst is None:
            r.problem(where, f"unknown list {raw['list']!r}")
            continue
        dice = raw.get("dice")
        if dice is not None and not (isinstance(dice, dict)
                                     and all(isinstance(v, str) for v in dice.values())):
            r.problem(where, "`dice` must be a table of dice strings")
            dice = None
        for k, v in (dice or {}).items():
            r.dice(where, f"dice.{k}", v, allow_empty=False)
        scenarios.append(Scenario(
            r.id(where, raw["id"]), r.typed(where, raw, "name", str), lst.id,
            r.typed(where, raw, "number", int), lst.kind,
            r.typed(where, raw, "start", str, lst.start),
            r.typed(where, raw, "start_gap", int, lst.start_gap),
            r.typed(where, raw, "text", str), r.strs(where, raw, "victory"),
            r.strs(where, raw, "events"), r.typed(where, raw, "setup", str, ""),
            r.ints(where, raw, "numbers"), dict(dice) if dice else None,
            r.strs(where, raw, "monsters"), r.strs(where, raw, "places"),
            r.strs(where, raw, "charts"), r.typed(where, raw, "teams", int, 0),
            r.typed(where, raw, "team_size", int, 0), r.strs(where, raw, "team_names"),
            r.strs(where, raw, "powers")))
    for raw in r.table_list(doc, "aim", file):
        where = f"{file} [aim] {raw.get('id', '?') if isinstance(raw, dict) else '?'}"
        if r.fields(where, raw, {"id", "name", "heading", "text"}, {"printed"}):
            aims.append(Aim(r.id(where, raw["id"]), r.typed(where, raw, "name", str),
                            r.typed(where, raw, "heading", str), r.typed(where, raw, "text", str),
                            r.typed(where, raw, "printed", bool, True)))
    return lists, scenarios, aims


# ---- cross-checks ---------------------------------------------------------------------------


def _check_charts(r: _Reader, w: World) -> None:
    targets: dict[str, Mapping[str, object]] = {
        "square": w.squares, "trap": w.traps, "lair": w.lairs, "monster": w.monsters,
        "scenario": w.scenarios}
    for c in w.charts.values():
        where = f"[chart] {c.id}"
        span = dice_range(c.die)
        if span is None or DICE.fullmatch(c.die) is None:
            r.problem(where, f"`die` {c.die!r} is not a die (\"d6\", \"2d6\", \"d3\")")
            continue
        if c.yields not in YIELDS:
            r.problem(where, f"`yields` {c.yields!r} is not one of {sorted(YIELDS)}")
            continue
        expected = span[0]
        for row in c.rows:
            if row.roll[0] != expected:
                r.problem(where, f"rolls must cover {c.die} ({span[0]}-{span[1]}) once, in "
                                 f"order: row {list(row.roll)} should start at {expected}")
            expected = max(expected, row.roll[1] + 1)
        if expected != span[1] + 1:
            r.problem(where, f"rolls must cover {c.die} ({span[0]}-{span[1]}) once: they "
                             f"end at {expected - 1}")
        for row in c.rows:
            rw = f"{where} roll {list(row.roll)}"
            if row.then and row.then not in w.charts:
                r.problem(rw, f"`then` names unknown chart {row.then!r}")
            if not row.result:
                if not row.then:
                    r.problem(rw, "a row needs a `result` or a `then` chart")
                continue
            if c.yields in targets and row.result not in targets[c.yields]:
                r.problem(rw, f"unknown {c.yields} {row.result!r}")
            elif c.yields == "direction" and row.result not in DIRECTIONS:
                r.problem(rw, f"unknown direction {row.result!r}")
            elif not ID.fullmatch(row.result):
                r.problem(rw, f"result {row.result!r} must be lower snake case")
            if row.damage:
                r.dice(rw, "damage", row.damage)


def _check_squares(r: _Reader, w: World) -> None:
    named = {row.result for c in w.charts.values() if c.yields == "square" for row in c.rows}
    for s in w.squares.values():
        where = f"[square] {s.id}"
        if SIDES.get(s.sides) != s.open_sides:
            r.problem(where, f"`sides` {s.sides!r} and `open_sides` {s.open_sides} disagree "
                             f"(none 0, through 2, fork 3, all 4, river 2)")
        if s.on_enter not in ON_ENTER:
            r.problem(where, f"`on_enter` {s.on_enter!r} is not one of {sorted(ON_ENTER)}")
        if (s.on_enter == "roll") != bool(s.enter_chart):
            r.problem(where, "`on_enter = \"roll\"` goes with an `enter_chart`, and only it")
        for chart in (*s.charts, s.enter_chart, s.spawn_chart):
            if chart and chart not in w.charts:
                r.problem(where, f"unknown chart {chart!r}")
        if s.parent and (s.parent not in w.charts or s.id not in
                         {row.result for row in w.charts[s.parent].rows}):
            r.problem(where, f"`parent` {s.parent!r} is not a chart that gives {s.id!r}")
        for f in (*s.force, *s.taken_force):
            if f.monster not in w.monsters or f.count < 1:
                r.problem(where, f"force names unknown monster {f.monster!r} or no models")
        for key in ("prisoner_price", "great_prisoner_price", "end_turn_loss", "gold"):
            r.dice(where, key, getattr(s, key))
        if s.id != "styx" and s.id not in named:
            r.problem(where, "no chart gives this square kind")
    for t in w.traps.values():
        where = f"[trap] {t.id}"
        if t.like and t.like not in w.traps:
            r.problem(where, f"`like` names unknown trap {t.like!r}")
        if t.chart and t.chart not in w.charts:
            r.problem(where, f"unknown chart {t.chart!r}")
        for key in ("attack", "damage", "climb"):
            r.dice(where, key, getattr(t, key))
    for lair in w.lairs.values():
        where = f"[lair] {lair.id}"
        if lair.chart and lair.chart not in w.charts:
            r.problem(where, f"unknown chart {lair.chart!r}")
        if lair.attacker and lair.attacker not in w.monsters:
            r.problem(where, f"unknown monster {lair.attacker!r}")
        r.dice(where, "attackers", lair.attackers)


def _check_monsters(r: _Reader, w: World) -> None:
    for m in w.monsters.values():
        where = f"[monster] {m.id}"
        for key in ("combat", "damage", "ap_dice", "steals"):
            value = getattr(m, key)
            if not (key == "combat" and value == "per_opponent"):
                r.dice(where, key, value)
        if m.save not in (0, 2, 3, 4, 5, 6):
            r.problem(where, f"`save` {m.save} must be 0 (none) or a d6 target 2-6")
        for key in sorted(m.specials - SPECIALS):
            r.problem(where, f"unknown special {key!r}")
        if m.cure and (m.cure.square not in w.squares or m.cure.becomes not in w.monsters):
            r.problem(where, "`cure` names an unknown square kind or monster")
    for chart in ("great_monster_a", "great_monster_b"):
        for row in w.charts[chart].rows if chart in w.charts else ():
            if row.result in w.monsters and not w.monsters[row.result].great:
                r.problem(f"[chart] {chart}", f"{row.result!r} is not a Great Monster")


def _check_scenarios(r: _Reader, w: World) -> None:
    places = {**w.squares, **w.traps, **w.lairs}
    for lst in w.lists.values():
        where = f"[list] {lst.id}"
        if lst.kind not in KINDS or lst.start not in STARTS:
            r.problem(where, f"unknown kind {lst.kind!r} or start {lst.start!r}")
        numbers = sorted(s.number for s in w.scenarios.values() if s.list == lst.id)
        if numbers != [1, 2, 3, 4, 5, 6]:
            r.problem(where, f"a list has six scenarios numbered 1-6 (Start 3), not {numbers}")
    for s in w.scenarios.values():
        where = f"[scenario] {s.id}"
        if s.start not in STARTS:
            r.problem(where, f"unknown start {s.start!r}")
        if not s.victory:
            r.problem(where, "no victory condition")
        for sentence in (*s.victory, *s.events, s.setup):
            if sentence not in s.text:
                r.problem(where, f"{sentence[:40]!r}… is not quoted from the scenario's text")
        for m in s.monsters:
            if m not in w.monsters:
                r.problem(where, f"unknown monster {m!r}")
        for p in s.places:
            if p not in places:
                r.problem(where, f"unknown square kind, trap or lair {p!r}")
        for c in s.charts:
            if c not in w.charts:
                r.problem(where, f"unknown chart {c!r}")


def load_from(data: Path) -> World:
    """Read and cross-check the four files of ``data`` (uncached: tests point it elsewhere)."""
    r = _Reader()
    squares, traps, lairs = _squares(r, _read(data / "squares.toml"))
    scen_doc = _read(data / "scenarios.toml")
    charts = _charts(r, _read(data / "exploration.toml"), "exploration.toml")
    charts += _charts(r, scen_doc, "scenarios.toml")
    defaults, monsters = _monsters(r, _read(data / "monsters.toml"))
    lists, scenarios, aims = _scenarios(r, scen_doc)
    world = World(
        _keyed(r, "squares.toml [square]", squares, lambda x: x.id),
        _keyed(r, "squares.toml [trap]", traps, lambda x: x.id),
        _keyed(r, "squares.toml [lair]", lairs, lambda x: x.id),
        _keyed(r, "[chart]", charts, lambda x: x.id), defaults,
        _keyed(r, "monsters.toml [monster]", monsters, lambda x: x.id),
        _keyed(r, "scenarios.toml [list]", lists, lambda x: x.id),
        _keyed(r, "scenarios.toml [scenario]", scenarios, lambda x: x.id),
        _keyed(r, "scenarios.toml [aim]", aims, lambda x: x.id))
    if not r.problems:  # cross-checks need well-formed tables
        _check_charts(r, world)
        _check_squares(r, world)
        _check_monsters(r, world)
        _check_scenarios(r, world)
    if r.problems:
        raise ProblemsError(r.problems, "hetairos world")
    return world


@cache
def load() -> World:
    """The world of ``pbem/games/hetairos/data`` (cached: it never changes in a run)."""
    return load_from(DATA)

"""The components of Mythology (Yaquinto, 1980) as typed, frozen, validated values.

Everything is read from the TOML files in ``data/`` (what each holds, and which values are the
rulebook's and which are authored, is in ``docs/games/mythology.md``). :func:`load` reads and
checks them once: an unknown key, a missing key, a value of the wrong type or a reference to
something that does not exist (a hex, an Area, a Hero, a Prize, a god, an occurrence code) is a
:class:`ComponentDataError` naming the file, the table and the key.

This module holds data and the geometry of the map, nothing else: neighbours, distances,
Areas, land and water, shorelines, rivers, forests and mountains. The rules live elsewhere.

Hexes are named as in the rulebook, column then row: ``"3111"`` is column 31, row 11. Hexes
are flat-topped and stand in columns; odd-numbered columns sit half a hex lower than
even-numbered ones (204 J makes 3111, 3112 and 3212 neighbours, which fixes the parity), so

- an odd column ``c``, row ``r`` touches ``(c, r-1)``, ``(c, r+1)``, ``(c-1, r)``, ``(c-1, r+1)``,
  ``(c+1, r)`` and ``(c+1, r+1)``;
- an even column ``c``, row ``r`` touches ``(c, r-1)``, ``(c, r+1)``, ``(c-1, r-1)``,
  ``(c-1, r)``, ``(c+1, r-1)`` and ``(c+1, r)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, TypeVar

import tomli

from pbem.core.errors import Problem, ProblemsError
from pbem.core.resources import read_toml

#: The folder of the built-in data files.
DATA: Final = Path(__file__).parent / "data"

#: Every data file, in the order they are read.
FILES: Final = ("map.toml", "occurrences.toml", "heroes.toml", "monsters.toml", "prizes.toml",
                "helpers.toml", "fates.toml", "gods.toml", "cards.toml", "lesser_evil.toml")

#: A hex's number as the rulebook writes it: two digits of column, two of row ("3111").
HexId = str

# The counts and id ranges the rulebook prints (003, 005, 009 D, 010 A, 011 A, 210 B, 304 B-C).
HERO_IDS: Final = range(1, 33)
MONSTER_IDS: Final = range(33, 65)
#: Lesser Evil counters (005 J, 303): the rulebook prints no numbers; the authored ids follow
#: the Monsters' so that a unit number names one counter of any kind.
LESSER_IDS: Final = range(65, 97)
FATE_IDS: Final = range(1, 33)
CARD_IDS: Final = range(1, 55)
GOD_COUNT: Final = 10
PRIZE_COUNT: Final = 10
OCCURRENCE_CODES: Final = frozenset({"E", "T", "V", "P", "Pe", "F"})

AREA_KINDS: Final = ("land", "sea", "lake", "ocean")
TARGETS: Final = ("hero", "monster", "unit")
FEATURES: Final = ("forest", "mountain", "river")
PROTECTIONS: Final = ("none", "defense", "divine", "full")  # Prayer and Sacrifice results

#: The effect vocabulary of god powers and card god sections: kind -> the keys it takes.
EFFECTS: Final[Mapping[str, frozenset[str]]] = MappingProxyType({
    "attack": frozenset({"amount", "target"}),      # Attack Number +amount for one Combat
    "defense": frozenset({"amount", "target"}),     # Defense Number +amount for the Turn
    "magic": frozenset({"amount", "target"}),       # Magical Ability Number +amount, one Combat
    "movement": frozenset({"amount", "target"}),    # +amount hexes this Moving Player Phase
    "halt": frozenset({"target"}),                  # may not be moved for the rest of the Turn
    "protect": frozenset({"target"}),               # no Divine Occurrence affects it this Turn
    "ship": frozenset({"amount"}),                  # +amount on one Hero's ship roll (215 F 2)
    "challenge": frozenset({"amount"}),             # +amount Power Points in one challenge
    "terrain": frozenset({"feature"}),              # no Hero enters such hexes of the Area
    "occurrence_reach": frozenset({"codes"}),       # these occurrences in a next-door Area
    "occurrence_bonus": frozenset({"codes", "amount"}),  # +amount per Power Point spent
    "cancel": frozenset(),                          # one card's god section has no effect
    "relocate": frozenset(),                        # move the god counter after placement
})

#: What a Fate counter's line of the Special Victory Condition Chart counts (216 G 7).
MEASURES: Final = frozenset({
    "heroes_on_board", "heroes_killed_in_combat", "monsters_on_board", "monsters_killed",
    "heroes_killed_by_others_occurrences", "occurrences_used", "prizes_on_board",
    "prizes_off_board", "helpers_on_board", "helpers_off_board", "volcanoes_by_others",
    "prizes_possessed", "helpers_possessed", "earthquakes_by_others", "turns_without_occurrence",
    "tempests_by_others", "prayers_by_others", "sacrifices_by_others", "occurrences_by_others",
})


class ComponentDataError(ProblemsError):
    """A data file is malformed or refers to something that does not exist."""


# --- the map ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Area:
    """A named Area of the map (003 D, 004). ``kind`` is land, sea (an Area of The Sea), lake
    or ocean (the River Ocean); ``hexes`` are sorted."""

    id: str
    code: str
    name: str
    kind: str
    hexes: tuple[HexId, ...]

    @property
    def is_water(self) -> bool:
        return self.kind != "land"


@dataclass(frozen=True)
class Hex:
    """One hex. ``land`` is true for a hex that holds any land (204 C): every hex of a land
    Area and every island hex. ``shoreline`` is true for a land hex with water beside it: a water
    neighbour, an island's coast, or a strait (204 J, 215 F); rivers make no shoreline (003 D 5).
    ``island``, ``river``, ``forest`` and ``mountain`` are ids (or None)."""

    id: HexId
    column: int
    row: int
    area: str
    land: bool
    shoreline: bool
    island: str | None = None
    river: str | None = None
    forest: str | None = None
    mountain: str | None = None


@dataclass(frozen=True)
class Feature:
    """A named group of hexes: an island, a river (mouth first), a forest or a mountain range."""

    id: str
    name: str
    hexes: tuple[HexId, ...]


@dataclass(frozen=True)
class Strait:
    """Hexsides that join two land hexes across water too narrow to draw as a hex."""

    id: str
    name: str
    hexsides: tuple[tuple[HexId, HexId], ...]


def hex_id(column: int, row: int) -> HexId:
    return f"{column:02d}{row:02d}"


@cache
def _axial(h: HexId) -> tuple[int, int]:
    column, row = int(h[:2]), int(h[2:])
    return column, row - column // 2


def _touching(column: int, row: int) -> tuple[tuple[int, int], ...]:
    """The six positions next to (column, row), whether or not the board has a hex there."""
    side = (row, row + 1) if column % 2 else (row - 1, row)
    return ((column, row - 1), (column, row + 1),
            (column - 1, side[0]), (column - 1, side[1]),
            (column + 1, side[0]), (column + 1, side[1]))


@dataclass(frozen=True, eq=False)
class HexMap:
    """The mapboard: hexes, Areas, islands, rivers, forests, mountains and straits, with the
    neighbour table computed once at load."""

    columns: int
    rows: int
    hexes: Mapping[HexId, Hex]
    areas: Mapping[str, Area]
    islands: Mapping[str, Feature]
    rivers: Mapping[str, Feature]
    forests: Mapping[str, Feature]
    mountains: Mapping[str, Feature]
    straits: Mapping[str, Strait]
    _neighbours: Mapping[HexId, tuple[HexId, ...]] = field(repr=False)
    _strait_sides: frozenset[frozenset[HexId]] = field(repr=False)
    #: Each hex's axial coordinates, computed once: ``distance`` is the rules' most called
    #: function (setup's Prize and Helper placement, every movement check).
    _axial_of: Mapping[HexId, tuple[int, int]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_axial_of", {h: _axial(h) for h in self.hexes})

    def hex(self, h: HexId) -> Hex:
        try:
            return self.hexes[h]
        except KeyError:
            raise KeyError(f"no hex {h!r} on the Mythology map") from None

    def neighbours(self, h: HexId) -> tuple[HexId, ...]:
        """The hexes next to ``h`` that are on the board, in hex-number order (204 E)."""
        self.hex(h)
        return self._neighbours[h]

    def area_of(self, h: HexId) -> str:
        """The id of the Area ``h`` lies in (an island hex lies in its water Area, 003 D 2-3)."""
        return self.hex(h).area

    def distance(self, a: HexId, b: HexId) -> int:
        """How many hexes apart ``a`` and ``b`` are (0 for the same hex), over the grid."""
        axial = self._axial_of
        if a not in axial or b not in axial:
            self.hex(a)  # names the hex that is not on the board
            self.hex(b)
        (qa, ra), (qb, rb) = axial[a], axial[b]
        dq, dr = qb - qa, rb - ra
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def within(self, h: HexId, radius: int) -> tuple[HexId, ...]:
        """Every hex on the board at most ``radius`` hexes from ``h`` (``h`` included), sorted."""
        return tuple(x for x in self.hexes if self.distance(h, x) <= radius)

    def distance_to_area(self, h: HexId, area: str) -> int:
        """How many hexes ``h`` is from the nearest hex of ``area`` (0 inside it; 102 C-E)."""
        return min(self.distance(h, x) for x in self.area(area).hexes)

    def area(self, area: str) -> Area:
        try:
            return self.areas[area]
        except KeyError:
            raise KeyError(f"no Area {area!r} on the Mythology map") from None

    def adjacent_areas(self, area: str) -> frozenset[str]:
        """The Areas with a hex next to a hex of ``area`` (its borders, 003 D)."""
        return frozenset(self.hexes[n].area for h in self.area(area).hexes
                         for n in self._neighbours[h]) - {area}

    def is_land(self, h: HexId) -> bool:
        return self.hex(h).land

    def is_water(self, h: HexId) -> bool:
        return not self.hex(h).land

    def is_shoreline(self, h: HexId) -> bool:
        return self.hex(h).shoreline

    def is_river(self, h: HexId) -> bool:
        return self.hex(h).river is not None

    def is_forest(self, h: HexId) -> bool:
        return self.hex(h).forest is not None

    def is_mountain(self, h: HexId) -> bool:
        return self.hex(h).mountain is not None

    def crosses_water(self, a: HexId, b: HexId) -> bool:
        """Whether a step between neighbours ``a`` and ``b`` goes over water: either hex is all
        water, or they are on different land masses (an island and anything else), or a strait
        runs between them. A Hero may make such a step only with a ship (204 C, 204 J, 215 B)."""
        if b not in self.neighbours(a):
            raise ValueError(f"hexes {a} and {b} are not neighbours")
        ha, hb = self.hexes[a], self.hexes[b]
        if not (ha.land and hb.land):
            return True
        return ha.island != hb.island or frozenset((a, b)) in self._strait_sides


# --- counters, cards and tables ------------------------------------------------------------


@dataclass(frozen=True)
class Hero:
    """A Hero or Heroine counter (005 B). ``magic`` is the Magical Ability Number, if any.
    ``printed`` names the fields whose values the rulebook prints; the rest are authored."""

    id: int
    name: str
    heroine: bool
    attack: int
    defense: int
    magic: int | None
    printed: frozenset[str]


@dataclass(frozen=True)
class Monster:
    """A Monster counter (005 C); ``historical_hex`` is its hex under 304 C."""

    id: int
    name: str
    attack: int
    defense: int
    magic: int | None
    historical_hex: HexId
    printed: frozenset[str]


@dataclass(frozen=True)
class LesserEvil:
    """A Lesser Evil counter (005 J, Optional Rule 303); ``pirate`` marks the Pirates, which
    go to The Sea (303 B) and stay in hexes that are all or partly sea (303 M)."""

    id: int
    name: str
    attack: int
    defense: int
    magic: int | None
    pirate: bool
    printed: frozenset[str]


@dataclass(frozen=True)
class Prize:
    """A Prize counter (005 F, 212); ``historical_hex`` is its hex under 304 B."""

    id: str
    name: str
    defense: int
    historical_hex: HexId
    printed: frozenset[str]


@dataclass(frozen=True)
class Helper:
    """A Hero Helper counter (211): ``attack`` and ``defense`` are added to the Hero's numbers;
    ``magic`` is added to the roll of a unit using Magical Ability against the Hero (211 E)."""

    id: str
    name: str
    attack: int
    defense: int
    magic: int
    doubles_movement: bool
    printed: frozenset[str]


@dataclass(frozen=True)
class Fate:
    """A Fate counter (005 D, 213) and its line of the Special Victory Condition Chart."""

    id: int
    text: str
    redraw: bool
    points: Fraction
    measure: str | None
    printed: frozenset[str]


@dataclass(frozen=True)
class Occurrence:
    """A Divine Occurrence (210 G) and its Log Sheet code (009 E 2)."""

    id: str
    name: str
    code: str
    rule: str
    scope: str
    targets: str
    per_point: int
    hits: str
    effect: str
    timing: str
    text: str
    printed: frozenset[str]


@dataclass(frozen=True)
class Effect:
    """What a god power or a card's god section does, in the vocabulary :data:`EFFECTS`."""

    kind: str
    amount: int = 0
    target: str = ""
    codes: tuple[str, ...] = ()
    feature: str = ""


@dataclass(frozen=True)
class Power:
    """One special power on a God Card (011)."""

    id: str
    name: str
    text: str
    effect: Effect


@dataclass(frozen=True)
class Protection:
    """A result of the Prayer or Sacrifice Table (302): ``kind`` none, defense (+``amount``),
    divine (no Divine Occurrence affects the Hero) or full (nothing kills him this Turn)."""

    kind: str
    amount: int = 0


@dataclass(frozen=True, eq=False)
class ProtectionTable:
    """A Prayer or Sacrifice Table: ``columns`` are the headings (ascending), ``rows`` maps each
    two-dice total (2-12) to one result per column."""

    columns: tuple[int, ...]
    rows: Mapping[int, tuple[Protection, ...]]

    def lookup(self, modifier: int, dice_total: int) -> Protection:
        """The result in the highest column not above ``modifier``; none below the first."""
        usable = [i for i, heading in enumerate(self.columns) if heading <= modifier]
        if not usable:
            return Protection("none")
        return self.rows[dice_total][usable[-1]]


@dataclass(frozen=True, eq=False)
class God:
    """A god or goddess and the God Card (011): powers, the Zeus Arbitration modifier for each
    Hero id (209 D 6), and the Prayer and Sacrifice Tables (302)."""

    id: str
    name: str
    goddess: bool
    powers: tuple[Power, ...]
    arbitration: Mapping[int, int]
    prayer: ProtectionTable
    sacrifice: ProtectionTable


@dataclass(frozen=True)
class GodSection:
    """A card's god section (010 B 1): an action of a lesser god."""

    name: str
    text: str
    effect: Effect


@dataclass(frozen=True)
class EventSection:
    """A card's event section (010 B 2): the gods go to ``area`` (an Area id) or off the map to
    ``place``; ``gods`` names who goes, or ``choose`` says how many of the player's choice."""

    name: str
    text: str
    area: str | None
    place: str | None
    gods: tuple[str, ...]
    choose: int | None


@dataclass(frozen=True)
class OracleSection:
    """A card's Oracle section (010 B 3): ``glory`` Glory Points for capturing ``prize`` or
    killing ``monster`` (216 G 2 b, 216 G 3 b)."""

    prize: str | None
    monster: int | None
    glory: int
    text: str


@dataclass(frozen=True)
class Card:
    """One of the 54 Playing Cards (010)."""

    id: int
    god: GodSection
    event: EventSection
    oracle: OracleSection


@dataclass(frozen=True, eq=False)
class Components:
    """Every component of the game, as loaded from the data files."""

    map: HexMap
    heroes: Mapping[int, Hero]
    monsters: Mapping[int, Monster]
    prizes: Mapping[str, Prize]
    helpers: Mapping[str, Helper]
    fates: Mapping[int, Fate]
    gods: Mapping[str, God]
    cards: Mapping[int, Card]
    occurrences: Mapping[str, Occurrence]
    lesser: Mapping[int, LesserEvil]

    def occurrence(self, code: str) -> Occurrence:
        """The Divine Occurrence with Log Sheet code ``code`` ("E", "T", "V", "P", "Pe", "F")."""
        for occurrence in self.occurrences.values():
            if occurrence.code == code:
                return occurrence
        raise KeyError(f"no Divine Occurrence with code {code!r}")


# --- reading TOML strictly -------------------------------------------------------------------

_K = TypeVar("_K")
_V = TypeVar("_V")


def _frozen(items: Mapping[_K, _V]) -> Mapping[_K, _V]:
    return MappingProxyType(dict(items))


class _Table:
    """One TOML table being read. Every key must be read, or :meth:`done` calls it unknown."""

    def __init__(self, file: str, where: str, data: object) -> None:
        self.file = file
        self.where = where
        if not isinstance(data, dict):
            raise self.error("", "must be a table")
        self.data: dict[str, object] = data
        self.read: set[str] = set()

    def error(self, key: str, message: str, hint: str = "") -> ComponentDataError:
        where = " ".join(part for part in (self.file, self.where, key) if part)
        return ComponentDataError(Problem(where, message, hint))

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str) -> object:
        self.read.add(key)
        if key not in self.data:
            raise self.error(key, "is missing")
        return self.data[key]

    def text(self, key: str, default: str | None = None) -> str:
        if default is not None and key not in self.data:
            self.read.add(key)
            return default
        value = self.raw(key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, "must be a non-empty string")
        return value

    def choice(self, key: str, choices: Iterable[str], default: str | None = None) -> str:
        options = tuple(choices)
        value = self.text(key, default)
        if value not in options:
            raise self.error(key, f"is {value!r}, not one of {', '.join(map(repr, options))}")
        return value

    def integer(self, key: str, low: int | None = None, high: int | None = None,
                default: int | None = None) -> int:
        if default is not None and key not in self.data:
            self.read.add(key)
            return default
        value = self.raw(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(key, "must be a whole number")
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.error(key, f"is {value}, outside {low}..{high}")
        return value

    def optional_integer(self, key: str, low: int | None = None,
                         high: int | None = None) -> int | None:
        if key not in self.data:
            self.read.add(key)
            return None
        return self.integer(key, low, high)

    def flag(self, key: str) -> bool:
        if key not in self.data:
            self.read.add(key)
            return False
        value = self.raw(key)
        if not isinstance(value, bool):
            raise self.error(key, "must be true or false")
        return value

    def texts(self, key: str, default: tuple[str, ...] | None = None) -> tuple[str, ...]:
        if default is not None and key not in self.data:
            self.read.add(key)
            return default
        value = self.raw(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(key, "must be a list of strings")
        return tuple(str(v) for v in value)

    def table(self, key: str) -> _Table:
        return _Table(self.file, f"{self.where}.{key}" if self.where else f"[{key}]",
                      self.raw(key))

    def tables(self, key: str, label: str) -> list[_Table]:
        value = self.raw(key)
        if not isinstance(value, list) or not value:
            raise self.error(key, f"must be one or more [[{label}]] tables")
        return [_Table(self.file, f"[[{label}]] #{i}", item) for i, item in enumerate(value, 1)]

    def named(self, label: str) -> None:
        """Name this table by its id in later messages: ``[[hero]] 12`` rather than ``#12``."""
        self.where = label

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.read)
        if unknown:
            raise self.error(unknown[0], "unknown key",
                             "remove it or check its spelling; known keys: "
                             + ", ".join(sorted(self.read)))


def _read(directory: Path, name: str) -> _Table:
    path = directory / name
    try:
        data = read_toml(path)  # tomli's parse, kept between commands
    except OSError as exc:
        raise ComponentDataError(Problem(name, f"cannot be read: {exc.strerror}")) from None
    except tomli.TOMLDecodeError as exc:
        raise ComponentDataError(Problem(name, f"is not valid TOML: {exc}")) from None
    return _Table(name, "", data)


def _printed(table: _Table, cls: Any) -> frozenset[str]:
    names = {f.name for f in dataclasses.fields(cls)} - {"printed"}
    printed = table.texts("printed", ())
    for name in printed:
        if name not in names:
            raise table.error("printed", f"names {name!r}, which is not a key of this table",
                              "list only keys: " + ", ".join(sorted(names)))
    return frozenset(printed)


def _unique(table: _Table, key: str, value: object, seen: Container[object]) -> None:
    if value in seen:
        raise table.error(key, f"{value!r} is used twice")


# --- loading the map -------------------------------------------------------------------------


def _hex_ref(table: _Table, key: str, value: str, hexes: Mapping[HexId, object]) -> HexId:
    if value not in hexes:
        raise table.error(key, f"names hex {value!r}, which is not on the map",
                          "hexes are four digits, column then row, e.g. \"3111\"")
    return value


def _features(doc: _Table, key: str, hexes: Mapping[HexId, object],
              taken: dict[HexId, str]) -> dict[str, Feature]:
    out: dict[str, Feature] = {}
    if not doc.has(key):
        doc.read.add(key)
        return out
    for t in doc.tables(key, key):
        fid = t.text("id")
        _unique(t, "id", fid, set(out))
        t.named(f"[[{key}]] {fid}")
        name = t.text("name")
        members = tuple(_hex_ref(t, "hexes", h, hexes) for h in t.texts("hexes"))
        if not members:
            raise t.error("hexes", "must list at least one hex")
        for h in members:
            if h in taken:
                raise t.error("hexes", f"hex {h} is already in {key} {taken[h]!r}")
            taken[h] = fid
        t.done()
        out[fid] = Feature(fid, name, members)
    return out


def _load_map(doc: _Table) -> HexMap:
    grid = doc.table("grid")
    columns = grid.integer("columns", 1, 99)
    rows = grid.integer("rows", 1, 99)
    grid.choice("odd_columns", ("down",))
    layout = grid.text("areas")

    areas_by_code: dict[str, tuple[str, str, str]] = {}
    for t in doc.tables("area", "area"):
        aid = t.text("id")
        _unique(t, "id", aid, {a for a, _, _ in areas_by_code.values()})
        t.named(f"[[area]] {aid}")
        code = t.text("code")
        if len(code) != 1 or code == ".":
            raise t.error("code", "must be one character other than '.'")
        if code in areas_by_code:
            raise t.error("code", f"{code!r} is also the code of {areas_by_code[code][0]!r}")
        areas_by_code[code] = (aid, t.text("name"), t.choice("kind", AREA_KINDS))
        t.done()

    lines = [line for line in layout.splitlines() if line.strip()]
    if len(lines) != rows:
        raise grid.error("areas", f"has {len(lines)} lines, not one per row ({rows})")
    cells: dict[HexId, str] = {}
    for row, line in enumerate(lines, 1):
        prefix, _, body = line.partition(" ")
        if prefix != f"{row:02d}" or len(body) != columns:
            raise grid.error("areas", f"line {row} must be {row:02d}, a space and {columns} "
                             f"characters, not {line!r}")
        for column, code in enumerate(body, 1):
            if code == ".":
                continue
            if code not in areas_by_code:
                raise grid.error("areas", f"hex {hex_id(column, row)} has code {code!r}, "
                                 "which no [[area]] has")
            cells[hex_id(column, row)] = areas_by_code[code][0]
    grid.done()

    islands: dict[str, Feature] = {}
    island_of: dict[HexId, str] = {}
    kind_of = {aid: kind for aid, _, kind in areas_by_code.values()}
    for t in doc.tables("island", "island"):
        iid = t.text("id")
        _unique(t, "id", iid, set(islands))
        t.named(f"[[island]] {iid}")
        members = tuple(_hex_ref(t, "hexes", h, cells) for h in t.texts("hexes"))
        if not members:
            raise t.error("hexes", "must list at least one hex")
        for h in members:
            if kind_of[cells[h]] == "land":
                raise t.error("hexes", f"hex {h} is in the land Area {cells[h]!r}; islands lie "
                              "in water Areas (003 D 2-3)")
            if h in island_of:
                raise t.error("hexes", f"hex {h} is already in island {island_of[h]!r}")
            island_of[h] = iid
        if len({cells[h] for h in members}) != 1:
            raise t.error("hexes", "lie in more than one Area; an island lies in one")
        islands[iid] = Feature(iid, t.text("name"), members)
        t.done()

    land = {h for h, a in cells.items() if kind_of[a] == "land"} | set(island_of)
    river_of: dict[HexId, str] = {}
    forest_of: dict[HexId, str] = {}
    mountain_of: dict[HexId, str] = {}
    rivers = _features(doc, "river", cells, river_of)
    forests = _features(doc, "forest", cells, forest_of)
    mountains = _features(doc, "mountain", cells, mountain_of)

    neighbours: dict[HexId, tuple[HexId, ...]] = {}
    for h in cells:
        column, row = int(h[:2]), int(h[2:])
        near = (hex_id(c, r) for c, r in _touching(column, row) if c > 0 and r > 0)
        neighbours[h] = tuple(sorted(n for n in near if n in cells))

    for key, of in (("river", river_of), ("forest", forest_of), ("mountain", mountain_of)):
        for h, fid in of.items():
            if h not in land:
                raise ComponentDataError(Problem(f"{doc.file} [[{key}]] {fid} hexes",
                                                 f"hex {h} is water; it must be land"))
    for river in rivers.values():
        for a, b in zip(river.hexes, river.hexes[1:], strict=False):
            if b not in neighbours[a]:
                raise ComponentDataError(Problem(
                    f"{doc.file} [[river]] {river.id} hexes",
                    f"{a} and {b} are not neighbours; list a river's hexes in order"))

    straits: dict[str, Strait] = {}
    strait_sides: set[frozenset[HexId]] = set()
    if doc.has("strait"):
        for t in doc.tables("strait", "strait"):
            sid = t.text("id")
            _unique(t, "id", sid, set(straits))
            t.named(f"[[strait]] {sid}")
            sides: list[tuple[HexId, HexId]] = []
            for side in t.texts("hexsides"):
                a, dash, b = side.partition("-")
                if not dash or a not in cells or b not in cells or b not in neighbours[a]:
                    raise t.error("hexsides", f"{side!r} is not two neighbouring hexes "
                                  "written \"AAAA-BBBB\"")
                if a not in land or b not in land:
                    raise t.error("hexsides", f"{side!r}: a strait joins two land hexes")
                sides.append((a, b))
                strait_sides.add(frozenset((a, b)))
            straits[sid] = Strait(sid, t.text("name"), tuple(sides))
            t.done()
    else:
        doc.read.add("strait")
    doc.done()

    def wet_step(a: HexId, b: HexId) -> bool:
        return (b not in land or island_of.get(a) != island_of.get(b)
                or frozenset((a, b)) in strait_sides)

    hexes: dict[HexId, Hex] = {}
    for h in sorted(cells):
        is_land = h in land
        hexes[h] = Hex(h, int(h[:2]), int(h[2:]), cells[h], is_land,
                       is_land and any(wet_step(h, n) for n in neighbours[h]),
                       island_of.get(h), river_of.get(h), forest_of.get(h), mountain_of.get(h))

    areas: dict[str, Area] = {}
    for code, (aid, name, kind) in areas_by_code.items():
        members = tuple(sorted(h for h, a in cells.items() if a == aid))
        if not members:
            raise ComponentDataError(Problem(f"{doc.file} [[area]] {aid}",
                                             "has no hex in [grid] areas",
                                             f"give some hexes the code {code!r}"))
        areas[aid] = Area(aid, code, name, kind, members)

    return HexMap(columns, rows, _frozen(hexes), _frozen(areas), _frozen(islands),
                  _frozen(rivers), _frozen(forests), _frozen(mountains), _frozen(straits),
                  _frozen(neighbours), frozenset(strait_sides))


# --- loading counters, tables and cards ------------------------------------------------------


def _ids(doc: _Table, label: str, found: Iterable[int], expected: range) -> None:
    missing = sorted(set(expected) - set(found))
    if missing:
        raise doc.error(f"[[{label}]]", f"no {label} with id {', '.join(map(str, missing))}",
                        f"the rulebook numbers them {expected.start}-{expected.stop - 1}")


def _load_occurrences(doc: _Table) -> dict[str, Occurrence]:
    out: dict[str, Occurrence] = {}
    for t in doc.tables("occurrence", "occurrence"):
        oid = t.text("id")
        _unique(t, "id", oid, out)
        t.named(f"[[occurrence]] {oid}")
        code = t.choice("code", sorted(OCCURRENCE_CODES))
        _unique(t, "code", code, {o.code for o in out.values()})
        out[oid] = Occurrence(
            oid, t.text("name"), code, t.text("rule"), t.choice("scope", ("area", "hex")),
            t.choice("targets", ("land", "ships", "all")), t.integer("per_point", 1, 100),
            t.choice("hits", ("above", "at_least")), t.choice("effect", ("kill", "halt", "halve")),
            t.choice("timing", ("any", "after_moves")), t.text("text"), _printed(t, Occurrence))
        t.done()
    doc.done()
    if {o.code for o in out.values()} != OCCURRENCE_CODES:
        missing = ", ".join(sorted(OCCURRENCE_CODES - {o.code for o in out.values()}))
        raise doc.error("[[occurrence]]", f"no occurrence with code {missing} (009 E 2)")
    return out


def _load_heroes(doc: _Table) -> dict[int, Hero]:
    out: dict[int, Hero] = {}
    for t in doc.tables("hero", "hero"):
        hid = t.integer("id", HERO_IDS.start, HERO_IDS.stop - 1)
        _unique(t, "id", hid, out)
        t.named(f"[[hero]] {hid}")
        out[hid] = Hero(hid, t.text("name"), t.flag("heroine"), t.integer("attack", 0, 200),
                        t.integer("defense", 0, 200), t.optional_integer("magic", 1, 99),
                        _printed(t, Hero))
        t.done()
    doc.done()
    _ids(doc, "hero", out, HERO_IDS)
    return out


def _load_monsters(doc: _Table, hexes: Mapping[HexId, Hex]) -> dict[int, Monster]:
    out: dict[int, Monster] = {}
    for t in doc.tables("monster", "monster"):
        mid = t.integer("id", MONSTER_IDS.start, MONSTER_IDS.stop - 1)
        _unique(t, "id", mid, out)
        t.named(f"[[monster]] {mid}")
        out[mid] = Monster(mid, t.text("name"), t.integer("attack", 0, 200),
                           t.integer("defense", 0, 200), t.optional_integer("magic", 1, 99),
                           _hex_ref(t, "historical_hex", t.text("historical_hex"), hexes),
                           _printed(t, Monster))
        t.done()
    doc.done()
    _ids(doc, "monster", out, MONSTER_IDS)
    return out


def _load_lesser(doc: _Table, hexmap: HexMap) -> dict[int, LesserEvil]:
    """303: the Lesser Evil counters (all authored). Their number is free, but 303 B sends one
    Pirate to each Area of The Sea, so there are exactly as many Pirates as such Areas."""
    out: dict[int, LesserEvil] = {}
    for t in doc.tables("lesser_evil", "lesser_evil"):
        lid = t.integer("id", LESSER_IDS.start, LESSER_IDS.stop - 1)
        _unique(t, "id", lid, out)
        t.named(f"[[lesser_evil]] {lid}")
        out[lid] = LesserEvil(lid, t.text("name"), t.integer("attack", 0, 200),
                              t.integer("defense", 0, 200), t.optional_integer("magic", 1, 99),
                              t.flag("pirate"), _printed(t, LesserEvil))
        t.done()
    doc.done()
    seas = sorted(a.id for a in hexmap.areas.values() if a.kind == "sea")
    pirates = sorted(x.id for x in out.values() if x.pirate)
    if len(pirates) != len(seas):
        raise doc.error("[[lesser_evil]]", f"has {len(pirates)} Pirates; 303 B puts one in each "
                        f"Area of The Sea and the map has {len(seas)} ({', '.join(seas)})",
                        "mark that many counters pirate = true")
    return out


def _load_prizes(doc: _Table, hexes: Mapping[HexId, Hex]) -> dict[str, Prize]:
    out: dict[str, Prize] = {}
    for t in doc.tables("prize", "prize"):
        pid = t.text("id")
        _unique(t, "id", pid, out)
        t.named(f"[[prize]] {pid}")
        where = _hex_ref(t, "historical_hex", t.text("historical_hex"), hexes)
        if not hexes[where].land:
            raise t.error("historical_hex", f"hex {where} is water; Prizes lie on land "
                          "(102 B 6)")
        out[pid] = Prize(pid, t.text("name"), t.integer("defense", 0, 200), where,
                         _printed(t, Prize))
        t.done()
    doc.done()
    if len(out) != PRIZE_COUNT:
        raise doc.error("[[prize]]", f"has {len(out)} Prizes; the game has {PRIZE_COUNT} "
                        "(304 B)")
    return out


def _load_helpers(doc: _Table) -> dict[str, Helper]:
    out: dict[str, Helper] = {}
    for t in doc.tables("helper", "helper"):
        hid = t.text("id")
        _unique(t, "id", hid, out)
        t.named(f"[[helper]] {hid}")
        out[hid] = Helper(hid, t.text("name"), t.integer("attack", -100, 100),
                          t.integer("defense", -100, 100), t.integer("magic", -100, 100),
                          t.flag("doubles_movement"), _printed(t, Helper))
        t.done()
    doc.done()
    return out


def _points(t: _Table) -> Fraction:
    value = t.raw("points")
    try:
        if isinstance(value, int) and not isinstance(value, bool):
            return Fraction(value)
        if isinstance(value, str):
            return Fraction(value)
    except (ValueError, ZeroDivisionError):
        pass
    raise t.error("points", "must be a whole number or a fraction written \"1/2\"")


def _load_fates(doc: _Table, heroes: Mapping[int, Hero]) -> dict[int, Fate]:
    out: dict[int, Fate] = {}
    for t in doc.tables("fate", "fate"):
        fid = t.integer("id", FATE_IDS.start, FATE_IDS.stop - 1)
        _unique(t, "id", fid, out)
        t.named(f"[[fate]] {fid}")
        if fid not in heroes:
            raise t.error("id", "is not the id of a Hero (213 D)")
        text, redraw = t.text("text"), t.flag("redraw")
        if redraw:
            points, measure = Fraction(0), None
        else:
            points, measure = _points(t), t.choice("measure", sorted(MEASURES))
        out[fid] = Fate(fid, text, redraw, points, measure, _printed(t, Fate))
        t.done()
    doc.done()
    _ids(doc, "fate", out, FATE_IDS)
    return out


def _effect(t: _Table, codes: Container[str]) -> Effect:
    kind = t.choice("kind", sorted(EFFECTS))
    needs = EFFECTS[kind]
    for key in sorted(needs):
        if not t.has(key):
            raise t.error(key, f"is missing; effect {kind!r} takes "
                          + ", ".join(sorted(needs)))
    for key in t.data:
        if key != "kind" and key not in needs:
            raise t.error(key, f"unknown key for effect {kind!r}",
                          "it takes " + (", ".join(sorted(needs)) or "no other keys"))
    amount = t.integer("amount", -100, 100) if "amount" in needs else 0
    target = t.choice("target", TARGETS) if "target" in needs else ""
    feature = t.choice("feature", FEATURES) if "feature" in needs else ""
    effect_codes: tuple[str, ...] = ()
    if "codes" in needs:
        effect_codes = t.texts("codes")
        for code in effect_codes:
            if code not in codes:
                raise t.error("codes", f"{code!r} is not a Divine Occurrence code (009 E 2)")
        if not effect_codes:
            raise t.error("codes", "must list at least one Divine Occurrence code")
    t.done()
    return Effect(kind, amount, target, effect_codes, feature)


def _protection(t: _Table, key: str, cell: str) -> Protection:
    if cell in PROTECTIONS and cell != "defense":
        return Protection(cell)
    kind, plus, amount = cell.partition("+")
    if kind == "defense" and plus and amount.isdigit():
        return Protection("defense", int(amount))
    raise t.error(key, f"{cell!r} is not a result; write none, defense+N, divine or full")


def _protection_table(t: _Table) -> ProtectionTable:
    raw = t.raw("columns")
    if (not isinstance(raw, list) or not raw
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in raw)
            or list(raw) != sorted(set(raw))):
        raise t.error("columns", "must be a list of ascending whole numbers")
    columns = tuple(int(c) for c in raw)
    rows: dict[int, tuple[Protection, ...]] = {}
    for total in range(2, 13):
        cells = t.texts(str(total))
        if len(cells) != len(columns):
            raise t.error(str(total), f"has {len(cells)} results for {len(columns)} columns")
        rows[total] = tuple(_protection(t, str(total), c) for c in cells)
    t.done()
    return ProtectionTable(columns, _frozen(rows))


def _load_gods(doc: _Table, heroes: Mapping[int, Hero], codes: Container[str]) -> dict[str, God]:
    out: dict[str, God] = {}
    for t in doc.tables("god", "god"):
        gid = t.text("id")
        _unique(t, "id", gid, out)
        t.named(f"[[god]] {gid}")
        name, goddess = t.text("name"), t.flag("goddess")
        powers: list[Power] = []
        for p in t.tables("power", "god.power"):
            pid = p.text("id")
            _unique(p, "id", pid, {x.id for x in powers})
            p.named(f"[[god]] {gid} [[god.power]] {pid}")
            powers.append(Power(pid, p.text("name"), p.text("text"),
                                _effect(p.table("effect"), codes)))
            p.done()
        arbitration_table = t.table("arbitration")
        arbitration: dict[int, int] = {}
        for key in list(arbitration_table.data):
            if not key.isdigit() or int(key) not in heroes:
                raise arbitration_table.error(key, "is not the id of a Hero",
                                              "keys are Hero ids 1-32")
            arbitration[int(key)] = arbitration_table.integer(key, -66, 66)
        missing = sorted(set(heroes) - set(arbitration))
        if missing:
            raise arbitration_table.error(str(missing[0]), "is missing; the table has a "
                                          "modifier for every Hero (209 D 6)")
        arbitration_table.done()
        out[gid] = God(gid, name, goddess, tuple(powers), _frozen(arbitration),
                       _protection_table(t.table("prayer")),
                       _protection_table(t.table("sacrifice")))
        t.done()
    doc.done()
    if len(out) != GOD_COUNT:
        raise doc.error("[[god]]", f"has {len(out)} gods; the game has {GOD_COUNT} (011 A)")
    return out


def _load_cards(doc: _Table, hexmap: HexMap, gods: Mapping[str, God],
                prizes: Mapping[str, Prize], monsters: Mapping[int, Monster],
                codes: Container[str]) -> dict[int, Card]:
    out: dict[int, Card] = {}
    for t in doc.tables("card", "card"):
        cid = t.integer("id", CARD_IDS.start, CARD_IDS.stop - 1)
        _unique(t, "id", cid, out)
        t.named(f"[[card]] {cid}")

        g = t.table("god")
        god = GodSection(g.text("name"), g.text("text"), _effect(g.table("effect"), codes))
        g.done()

        e = t.table("event")
        if e.has("area") == e.has("place"):
            raise e.error("area", "give either area (an Area id) or place (not an Area)")
        area = e.text("area") if e.has("area") else None
        place = e.text("place") if e.has("place") else None
        e.read.update({"area", "place"})
        if area is not None and area not in hexmap.areas:
            raise e.error("area", f"{area!r} is not an Area of the map")
        if e.has("gods") == e.has("choose"):
            raise e.error("gods", "give either gods (who goes) or choose (how many)")
        sent = e.texts("gods", ())
        for gid in sent:
            if gid not in gods:
                raise e.error("gods", f"{gid!r} is not a god")
        choose = e.integer("choose", 1, GOD_COUNT) if e.has("choose") else None
        e.read.add("choose")
        event = EventSection(e.text("name"), e.text("text"), area, place, sent, choose)
        e.done()

        o = t.table("oracle")
        if o.has("prize") == o.has("monster"):
            raise o.error("prize", "give either prize (a Prize id) or monster (a Monster id)")
        prize = o.text("prize") if o.has("prize") else None
        monster = o.integer("monster") if o.has("monster") else None
        o.read.update({"prize", "monster"})
        if prize is not None and prize not in prizes:
            raise o.error("prize", f"{prize!r} is not a Prize")
        if monster is not None and monster not in monsters:
            raise o.error("monster", f"{monster} is not a Monster")
        oracle = OracleSection(prize, monster, o.integer("glory", 1, 100), o.text("text"))
        o.done()

        out[cid] = Card(cid, god, event, oracle)
        t.done()
    doc.done()
    _ids(doc, "card", out, CARD_IDS)
    return out


def load_dir(directory: Path) -> Components:
    """Read and check every data file in ``directory`` (not cached; see :func:`load`)."""
    hexmap = _load_map(_read(directory, "map.toml"))
    occurrences = _load_occurrences(_read(directory, "occurrences.toml"))
    codes = {o.code for o in occurrences.values()}
    heroes = _load_heroes(_read(directory, "heroes.toml"))
    monsters = _load_monsters(_read(directory, "monsters.toml"), hexmap.hexes)
    prizes = _load_prizes(_read(directory, "prizes.toml"), hexmap.hexes)
    helpers = _load_helpers(_read(directory, "helpers.toml"))
    fates = _load_fates(_read(directory, "fates.toml"), heroes)
    gods = _load_gods(_read(directory, "gods.toml"), heroes, codes)
    cards = _load_cards(_read(directory, "cards.toml"), hexmap, gods, prizes, monsters, codes)
    lesser = _load_lesser(_read(directory, "lesser_evil.toml"), hexmap)
    return Components(hexmap, _frozen(heroes), _frozen(monsters), _frozen(prizes),
                      _frozen(helpers), _frozen(fates), _frozen(gods), _frozen(cards),
                      _frozen(occurrences), _frozen(lesser))


@cache
def load() -> Components:
    """The built-in components, read and checked once per process."""
    return load_dir(DATA)


# --- the map's geometry on the built-in data -------------------------------------------------


def neighbours(h: HexId) -> tuple[HexId, ...]:
    return load().map.neighbours(h)


def area_of(h: HexId) -> str:
    return load().map.area_of(h)


def distance(a: HexId, b: HexId) -> int:
    return load().map.distance(a, b)


def is_land(h: HexId) -> bool:
    return load().map.is_land(h)


def is_shoreline(h: HexId) -> bool:
    return load().map.is_shoreline(h)


def is_river(h: HexId) -> bool:
    return load().map.is_river(h)


def is_forest(h: HexId) -> bool:
    return load().map.is_forest(h)


def is_mountain(h: HexId) -> bool:
    return load().map.is_mountain(h)


def crosses_water(a: HexId, b: HexId) -> bool:
    return load().map.crosses_water(a, b)

"""The Cyclades boards: the Vanilla and the Titans board, every side, as typed, checked values.

A *side* is one layout of a board, used for some player counts (003 Setup 1.1: "the number on
the bottom indicates which sides to use for the amount of players"). Each side is one TOML file
in ``data/boards/``: ``[side]`` (``board``, ``name``, ``players``), one ``[[territory]]`` per
island or territory and one ``[[sea]]`` per sea space. What in them is the seed's, what the
published rules' and what is authored is in each file's ``# Source:`` comment and in
``docs/games/cyclades-boards.md``.

:func:`load_board` reads and checks every file once (cached) and answers one side. The check
collects every problem before raising :class:`BoardDataError`, each naming file, table and key:
unknown, missing or mistyped keys, duplicate ids, references to ids that do not exist, a
territory without a sea, a sea graph that falls apart, a player count with no side or with two.

**Adjacency.** A territory lists the seas it touches (``seas``); the seas' side of that link is
derived, so it cannot disagree. Sea--sea links (a sea's ``seas``) and land borders (a
territory's ``land``, Titans board) are written on both ends, and a link written on one end
only is *rejected*, not repaired: a one-sided link is more often a typo in an id than a
deliberate choice, and the error names both ends. Territories touch one another only by land,
and only on the Titans board (its large islands are divided into territories that border each
other, published Titans rules); on the Vanilla board no two islands touch and troops cross the
water only along a chain of their own fleets (published base rules, Ares).

**Queries** (methods of :class:`Board`, all precomputed at load or a breadth-first search over
at most a few dozen seas): ``seas_of``, ``territories_of``, ``adjacent_seas``,
``land_neighbours``, ``sea_distance``, ``fleet_paths`` (published base rules, Poseidon: a fleet
moves up to 3 sea spaces; 003 Forgotten 9: it stops on entering a space where a battle begins),
``linked`` and ``adjacent_or_linked`` (troops move and retreat to an adjacent or fleet-linked
territory, 003 Battle 2), ``reachable_territories`` and ``starting_pairs`` (003 Setup 9.1).
Every tuple is in sorted id order (Python string order), every mapping iterates in it, so the
rules that use them are deterministic. This module holds data and geometry, no rules: who owns
what, and which seas hold whose fleets, is the caller's.

**Cells** (for the board picture only; no rule reads them). A side may give the size of the
grid of hexagonal cells its layout is drawn on (``[side] columns`` and ``rows``; columns are
lettered from ``A``, rows numbered from 1, even rows half a cell to the right: the picture at
the top of each file, and :func:`cell_neighbours`). Then every territory lists the cells it
covers (``cells = ["H5", "H6", "I6"]``), and so does every sea space, or its id is its one cell
(the Vanilla sides name each sea after its cell). The loader checks that each cell is written
as a column letter and a row number, lies inside the grid, and belongs to one territory or sea
only. Without ``columns`` and ``rows`` no record may give cells (the picture then lays the
side out by itself). Cells are kept in reading order (row, then column), not string order.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Final

import tomli

from pbem.core.errors import Problem, ProblemsError
from pbem.core.resources import read_toml

#: The folder of the built-in board files.
DATA: Final = Path(__file__).parent / "data" / "boards"

#: The boards, and the player counts the seed plays each with (003 Setup 1; Misc Two Player
#: plays either board with two; Team Play names the Titans board with 4 or 6 players, and the
#: Titans expansion adds the sixth player).
PLAYER_COUNTS: Final[Mapping[str, tuple[int, ...]]] = MappingProxyType({
    "vanilla": (2, 3, 4, 5),
    "titans": (2, 3, 4, 5, 6),
})

#: How many sea spaces one fleet move may cross (published base rules, Poseidon).
FLEET_MOVE: Final = 3

#: A side with building symbols has four: one of each basic building, not the Theater (003
#: Setup 1.2: "grab one of each basic building ... place one on each space ... that has a
#: small white building symbol").
BUILDING_SYMBOLS: Final = 4

_TERRITORY_ID = re.compile(r"[a-z][a-z0-9-]*\Z")
_SEA_ID = re.compile(r"[A-Za-z][A-Za-z0-9-]*\Z")
_MAX_COUNT = 9  # cornucopias or building spaces on one territory or sea; a typo guard only
_CELL = re.compile(r"([A-Z])([1-9][0-9]?)\Z")
#: The largest grid a side may declare: one letter per column, two digits per row.
MAX_COLUMNS, MAX_ROWS = 26, 99


def cell_position(cell: str) -> tuple[int, int]:
    """(column, row) of a cell name, both from 1: ``"H5"`` -> ``(8, 5)``. ``ValueError`` if
    ``cell`` is not a column letter and a row number."""
    m = _CELL.match(cell)
    if m is None:
        raise ValueError(f"{cell!r} is not a cell (a column letter and a row number, e.g. 'H5')")
    return ord(m[1]) - ord("A") + 1, int(m[2])


def cell_name(column: int, row: int) -> str:
    """The name of the cell at (``column``, ``row``): ``(8, 5)`` -> ``"H5"``."""
    if not (1 <= column <= MAX_COLUMNS and 1 <= row <= MAX_ROWS):
        raise ValueError(f"({column}, {row}) is outside A1..Z{MAX_ROWS}")
    return f"{chr(ord('A') + column - 1)}{row}"


def cell_neighbours(column: int, row: int) -> tuple[tuple[int, int], ...]:
    """The six positions touching a cell, whether or not they are on the grid, clockwise from
    the east. Even rows sit half a cell to the right, so a cell in an odd row touches
    columns ``c-1`` and ``c`` in the rows above and below, one in an even row ``c`` and
    ``c+1``; both touch ``c-1`` and ``c+1`` in their own row."""
    left = column - 1 if row % 2 == 1 else column
    return ((column + 1, row), (left + 1, row + 1), (left, row + 1), (column - 1, row),
            (left, row - 1), (left + 1, row - 1))


def _reading_order(cell: str) -> tuple[int, int]:
    column, row = cell_position(cell)
    return row, column


class BoardDataError(ProblemsError):
    """A board file is malformed, or the board files together are incomplete."""


# --- values ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Territory:
    """An island (Vanilla board) or a territory of an island (Titans board).

    ``prosperity`` is the number of cornucopias printed on it; ``building_spaces`` the small
    building spaces; ``metropolis_square`` whether a Metropolis may stand on it (the large space
    of the base board, the dotted red square of the Titans board, 003 Team 5.2). Titans flags:
    ``small_island`` (never a starting territory, 003 Setup 9.1) and ``building_symbol`` (a
    random basic building is placed on it at setup, 003 Setup 1.2). ``island`` names the land
    mass: the territory's own id on the Vanilla board. ``seas`` and ``land`` are sorted ids.
    ``cells`` are the grid cells it covers, in reading order (empty if the side has no grid).
    """

    id: str
    name: str
    island: str
    prosperity: int
    building_spaces: int
    metropolis_square: bool
    small_island: bool
    building_symbol: bool
    seas: tuple[str, ...]
    land: tuple[str, ...]
    cells: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "island": self.island,
                "prosperity": self.prosperity, "building_spaces": self.building_spaces,
                "metropolis_square": self.metropolis_square, "small_island": self.small_island,
                "building_symbol": self.building_symbol, "seas": list(self.seas),
                "land": list(self.land), "cells": list(self.cells)}


@dataclass(frozen=True)
class Sea:
    """A sea space. ``prosperity`` is its cornucopias (0 or 1 on the built-in boards), earned
    by the player whose fleets alone hold it (published base rules, income). ``seas`` are the
    sea spaces next to it, ``territories`` the territories on its shores; both sorted.
    ``cells`` are the grid cells it covers, in reading order (empty if the side has no grid).
    """

    id: str
    prosperity: int
    seas: tuple[str, ...]
    territories: tuple[str, ...]
    cells: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "prosperity": self.prosperity, "seas": list(self.seas),
                "territories": list(self.territories), "cells": list(self.cells)}


@dataclass(frozen=True, eq=False)
class Board:
    """One side of one board, with its graph precomputed.

    ``name`` is the board (``"vanilla"`` or ``"titans"``), ``side`` the file's stem
    (``"vanilla-5"``), ``title`` the side's printed name, ``players`` the counts it serves.
    ``columns`` and ``rows`` are the size of the grid the cells of its territories and seas
    lie on (both 0 if the side has no grid: then no record has cells).
    """

    name: str
    side: str
    title: str
    players: tuple[int, ...]
    territories: Mapping[str, Territory]
    seas: Mapping[str, Sea]
    columns: int
    rows: int
    _distance: Mapping[str, Mapping[str, int]] = field(repr=False)
    _islands: Mapping[str, tuple[str, ...]] = field(repr=False)

    # --- lookups -------------------------------------------------------------------------

    @property
    def territory_ids(self) -> tuple[str, ...]:
        return tuple(self.territories)

    @property
    def sea_ids(self) -> tuple[str, ...]:
        return tuple(self.seas)

    @property
    def has_cells(self) -> bool:
        """Whether the side is laid out on a grid (every territory and sea has cells)."""
        return self.columns > 0

    def cells(self) -> dict[str, tuple[str, str]]:
        """Every cell of the grid that is on the board: cell -> (``"territory"`` or
        ``"sea"``, id), in reading order. Empty if the side has no grid."""
        out = {cell: ("territory", t.id) for t in self.territories.values() for cell in t.cells}
        out.update({cell: ("sea", s.id) for s in self.seas.values() for cell in s.cells})
        return {cell: out[cell] for cell in sorted(out, key=_reading_order)}

    @property
    def islands(self) -> Mapping[str, tuple[str, ...]]:
        """Each land mass with its territories (one each on the Vanilla board)."""
        return self._islands

    def territory(self, territory: str) -> Territory:
        try:
            return self.territories[territory]
        except KeyError:
            raise KeyError(f"no territory {territory!r} on {self.side}") from None

    def sea(self, sea: str) -> Sea:
        try:
            return self.seas[sea]
        except KeyError:
            raise KeyError(f"no sea space {sea!r} on {self.side}") from None

    def _check_seas(self, seas: Iterable[str]) -> frozenset[str]:
        out = frozenset(seas)
        for s in sorted(out):
            self.sea(s)
        return out

    # --- graph ---------------------------------------------------------------------------

    def seas_of(self, territory: str) -> tuple[str, ...]:
        """The sea spaces touching ``territory``."""
        return self.territory(territory).seas

    def territories_of(self, sea: str) -> tuple[str, ...]:
        """The territories on the shores of ``sea``."""
        return self.sea(sea).territories

    def adjacent_seas(self, sea: str) -> tuple[str, ...]:
        """The sea spaces next to ``sea`` (one fleet step; a retreating fleet's choices,
        003 Battle 2)."""
        return self.sea(sea).seas

    def land_neighbours(self, territory: str) -> tuple[str, ...]:
        """The territories bordering ``territory`` by land (Titans board; none on Vanilla)."""
        return self.territory(territory).land

    def island_of(self, territory: str) -> str:
        return self.territory(territory).island

    def sea_distance(self, a: str, b: str) -> int:
        """The fewest fleet steps from sea ``a`` to sea ``b`` over open water (0 if equal)."""
        self.sea(a)
        self.sea(b)
        return self._distance[a][b]

    def fleet_paths(self, start: str, max_steps: int = FLEET_MOVE,
                    blocked: Collection[str] = frozenset()) -> dict[str, int]:
        """Every sea space a fleet in ``start`` can reach in one move, with its distance.

        A move crosses at most ``max_steps`` spaces (published base rules, Poseidon: 3). The
        fleet may enter a ``blocked`` space (the caller's: seas holding enemy fleets, and on
        the Titans board with teams, allied ones, 003 Team 4) but stops there, because a battle
        begins and ends its movement (003 Forgotten 9); so no path runs *through* a blocked
        space. ``start`` itself is not in the answer, whether or not it is blocked (a fleet
        leaving a battle space may move on, Forgotten 9). Sorted by id.
        """
        self.sea(start)
        if max_steps < 0:
            raise ValueError(f"max_steps is {max_steps}, not 0 or more")
        stop = self._check_seas(blocked)
        reached: dict[str, int] = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            steps = reached[here]
            if steps == max_steps or (here != start and here in stop):
                continue
            for nxt in self.seas[here].seas:
                if nxt not in reached:
                    reached[nxt] = steps + 1
                    queue.append(nxt)
        del reached[start]
        return {s: reached[s] for s in sorted(reached)}

    def linked(self, a: str, b: str, fleets: Collection[str]) -> bool:
        """Whether troops can cross from territory ``a`` to territory ``b`` by sea: a chain of
        adjacent sea spaces, each holding the mover's fleets, from a sea touching ``a`` to a
        sea touching ``b`` (published base rules, Ares; 003 Battle 2 "Fleet-linked").
        ``fleets`` are the seas holding the mover's own fleets (teammates' do not count, 003
        Team 4). A territory is not linked to itself."""
        self.territory(a)
        self.territory(b)
        own = self._check_seas(fleets)
        if a == b:
            return False
        return b in self._linked_from(a, own)

    def adjacent_or_linked(self, a: str, b: str, fleets: Collection[str]) -> bool:
        """Whether ``b`` borders ``a`` by land or is fleet-linked to it: where troops may move
        or retreat to in one step (003 Battle 2). One step is one land border *or* one fleet
        chain, not both."""
        return b in self.land_neighbours(a) or self.linked(a, b, fleets)

    def reachable_territories(self, territory: str, fleets: Collection[str]) -> tuple[str, ...]:
        """Every territory adjacent or fleet-linked to ``territory``, sorted."""
        self.territory(territory)
        linked = self._linked_from(territory, self._check_seas(fleets))
        return tuple(sorted((linked | set(self.land_neighbours(territory))) - {territory}))

    def _linked_from(self, a: str, own: frozenset[str]) -> set[str]:
        start = [s for s in self.territories[a].seas if s in own]
        seen = set(start)
        queue = deque(start)
        while queue:
            here = queue.popleft()
            for nxt in self.seas[here].seas:
                if nxt in own and nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return {t for s in seen for t in self.seas[s].territories} - {a}

    def starting_pairs(self) -> tuple[tuple[str, str], ...]:
        """Every pair of bordering territories a player may start on with the Titans board:
        two adjacent territories, neither a small island (003 Setup 9.1). Each pair is sorted,
        the list too. Empty on the Vanilla board, whose islands never border each other."""
        pairs = {tuple(sorted((t.id, n))) for t in self.territories.values()
                 if not t.small_island for n in t.land
                 if not self.territories[n].small_island}
        return tuple(sorted((a, b) for a, b in pairs))

    def as_dict(self) -> dict[str, object]:
        return {"board": self.name, "side": self.side, "title": self.title,
                "players": list(self.players), "columns": self.columns, "rows": self.rows,
                "territories": [t.as_dict() for t in self.territories.values()],
                "seas": [s.as_dict() for s in self.seas.values()]}


# --- reading ---------------------------------------------------------------------------------


class _Table:
    """One TOML table being read; problems are collected, not raised. Every key must be read,
    or :meth:`done` reports it as unknown."""

    def __init__(self, file: str, where: str, data: dict[str, object],
                 problems: list[Problem]) -> None:
        self.file = file
        self.where = where
        self.data = data
        self.problems = problems
        self.read: set[str] = set()

    def place(self, key: str = "") -> str:
        return " ".join(p for p in (self.file, self.where, key) if p)

    def problem(self, key: str, message: str, hint: str = "") -> None:
        self.problems.append(Problem(self.place(key), message, hint))

    def value(self, key: str, optional: bool) -> object | None:
        self.read.add(key)
        if key not in self.data:
            if not optional:
                self.problem(key, "is missing")
            return None
        return self.data[key]

    def text(self, key: str, pattern: re.Pattern[str] | None = None, hint: str = "",
             optional: bool = False) -> str | None:
        value = self.value(key, optional)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            self.problem(key, f"is {value!r}, not a non-empty string", hint)
            return None
        if pattern is not None and not pattern.match(value):
            self.problem(key, f"is {value!r}, not a valid id", hint)
            return None
        return value

    def count(self, key: str, optional: bool = False) -> int | None:
        value = self.value(key, optional)
        if value is None:
            return 0 if optional else None
        if not isinstance(value, int) or isinstance(value, bool):
            self.problem(key, f"is {value!r}, not a whole number")
            return None
        if not 0 <= value <= _MAX_COUNT:
            self.problem(key, f"is {value}, outside 0..{_MAX_COUNT}")
            return None
        return value

    def flag(self, key: str, optional: bool = False) -> bool | None:
        value = self.value(key, optional)
        if value is None:
            return False if optional else None
        if not isinstance(value, bool):
            self.problem(key, f"is {value!r}, not true or false")
            return None
        return value

    def ids(self, key: str, pattern: re.Pattern[str], optional: bool = False
            ) -> tuple[str, ...] | None:
        value = self.value(key, optional)
        if value is None:
            return () if optional else None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problem(key, f"is {value!r}, not a list of ids (strings)")
            return None
        bad = [v for v in value if not pattern.match(v)]
        if bad:
            self.problem(key, f"holds {bad[0]!r}, not a valid id")
            return None
        twice = sorted({v for v in value if value.count(v) > 1})
        if twice:
            self.problem(key, f"lists {twice[0]!r} twice")
            return None
        return tuple(sorted(value))

    def cells(self, key: str) -> tuple[str, ...] | None:
        """An optional list of cell names (``"H5"``), in reading order; ``()`` if absent.
        Whether they lie inside the grid is checked with the whole side (:func:`_check_graph`)."""
        value = self.value(key, optional=True)
        if value is None:
            return ()
        if not isinstance(value, list) or not value or not all(isinstance(v, str)
                                                               for v in value):
            self.problem(key, f"is {value!r}, not a non-empty list of cells (strings)",
                         _CELL_HINT)
            return None
        bad = [v for v in value if not _CELL.match(v)]
        if bad:
            self.problem(key, f"holds {bad[0]!r}, not a cell", _CELL_HINT)
            return None
        twice = sorted({v for v in value if value.count(v) > 1})
        if twice:
            self.problem(key, f"lists {twice[0]!r} twice")
            return None
        return tuple(sorted(value, key=_reading_order))

    def done(self) -> None:
        for key in sorted(set(self.data) - self.read):
            self.problem(key, "unknown key",
                         "remove it or check its spelling; known keys: "
                         + ", ".join(sorted(self.read)))


_TERRITORY_HINT = "territory ids are lower case letters, digits and hyphens, e.g. \"naxos\""
_SEA_HINT = "sea ids start with a letter, then letters, digits or hyphens, e.g. \"C4\""
_CELL_HINT = ("a cell is a column letter and a row number, as in the picture at the top of "
              "the file, e.g. \"H5\"")


@dataclass
class _Raw:
    """One side as read, before the graph is checked and built."""

    board: str | None
    title: str | None
    players: tuple[int, ...]
    territories: dict[str, Territory]
    # id -> (prosperity, neighbouring seas, cells)
    seas: dict[str, tuple[int, tuple[str, ...], tuple[str, ...]]]
    # (columns, rows) of the grid, or None when the side has none
    grid: tuple[int, int] | None
    # Ids of records that have a problem of their own: references to them are not reported
    # again as dangling, so one mistake gives one problem, not a cascade.
    broken: set[str] = field(default_factory=set)


def _read_side_table(doc: _Table) -> tuple[str | None, str | None, tuple[int, ...],
                                          tuple[int, int] | None]:
    raw = doc.value("side", optional=False)
    if raw is None:
        return None, None, (), None
    if not isinstance(raw, dict):
        doc.problem("[side]", "must be a table")
        return None, None, (), None
    side = _Table(doc.file, "[side]", raw, doc.problems)
    board = side.text("board")
    if board is not None and board not in PLAYER_COUNTS:
        side.problem("board", f"is {board!r}, not one of "
                     + ", ".join(repr(b) for b in PLAYER_COUNTS))
        board = None
    title = side.text("name")
    players: tuple[int, ...] = ()
    value = side.value("players", optional=False)
    if value is not None:
        if (not isinstance(value, list) or not value
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            side.problem("players", f"is {value!r}, not a non-empty list of player counts")
        elif len(set(value)) != len(value):
            side.problem("players", f"lists a player count twice: {value!r}")
        else:
            allowed = PLAYER_COUNTS.get(board or "", (2, 3, 4, 5, 6))
            wrong = [v for v in value if v not in allowed]
            if wrong:
                side.problem("players", f"holds {wrong[0]}, but the seed plays "
                             f"{board or 'a board'} with {', '.join(map(str, allowed))} players")
            else:
                players = tuple(sorted(value))
    grid = _read_grid(side)
    side.done()
    return board, title, players, grid


def _read_grid(side: _Table) -> tuple[int, int] | None:
    """``columns`` and ``rows`` of ``[side]``: both or neither (the picture's grid)."""
    size: dict[str, int] = {}
    for key, top in (("columns", MAX_COLUMNS), ("rows", MAX_ROWS)):
        value = side.value(key, optional=True)
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
            side.problem(key, f"is {value!r}, not a whole number from 1 to {top}")
            return None
        size[key] = value
    if len(size) == 1:
        missing = "rows" if "columns" in size else "columns"
        side.problem(missing, "is missing: a grid needs both columns and rows",
                     "give both, or neither (then no record may have cells)")
        return None
    return (size["columns"], size["rows"]) if size else None


def _read(path: Path, problems: list[Problem]) -> _Raw | None:
    name = path.name
    try:
        data = read_toml(path)  # tomli's parse, kept between commands
    except OSError as exc:
        problems.append(Problem(name, f"cannot be read: {exc.strerror}"))
        return None
    except (tomli.TOMLDecodeError, UnicodeDecodeError) as exc:
        problems.append(Problem(name, f"is not valid TOML: {exc}"))
        return None
    doc = _Table(name, "", data, problems)
    board, title, players, grid = _read_side_table(doc)

    territories: dict[str, Territory] = {}
    broken: set[str] = set()
    for i, raw in enumerate(_records(doc, "territory"), 1):
        t = _Table(name, f"[[territory]] #{i}", raw, problems)
        tid = t.text("id", _TERRITORY_ID, _TERRITORY_HINT)
        if tid is not None:
            t.where = f"[[territory]] {tid}"
            if tid in territories:
                t.problem("id", f"{tid!r} is used twice")
        values = (t.text("name"), t.text("island", _TERRITORY_ID, _TERRITORY_HINT, True),
                  t.count("prosperity"), t.count("building_spaces"),
                  t.flag("metropolis_square"), t.flag("small_island", True),
                  t.flag("building_symbol", True), t.ids("seas", _SEA_ID),
                  t.ids("land", _TERRITORY_ID, True), t.cells("cells"))
        tname, island, pros, spaces, metro, small, symbol, seas, land, cells = values
        if seas == ():
            t.problem("seas", "is empty: every territory touches at least one sea",
                      "list the sea spaces on its shore")
        t.done()
        if tid is None or tid in territories:
            continue
        if (tname is None or pros is None or spaces is None or metro is None or small is None
                or symbol is None or seas is None or land is None or cells is None):
            broken.add(tid)
            continue
        territories[tid] = Territory(tid, tname, island or tid, pros, spaces, metro, small,
                                     symbol, seas, land, cells)

    seas_read: dict[str, tuple[int, tuple[str, ...], tuple[str, ...]]] = {}
    for i, raw in enumerate(_records(doc, "sea"), 1):
        s = _Table(name, f"[[sea]] #{i}", raw, problems)
        sid = s.text("id", _SEA_ID, _SEA_HINT)
        if sid is not None:
            s.where = f"[[sea]] {sid}"
            if sid in seas_read:
                s.problem("id", f"{sid!r} is used twice")
            elif sid in territories or sid in broken:
                s.problem("id", f"{sid!r} is also a territory's id")
        pros = s.count("prosperity", optional=True)
        neighbours = s.ids("seas", _SEA_ID)
        sea_cells = s.cells("cells")
        s.done()
        if sid is None or sid in seas_read or sid in territories or sid in broken:
            continue
        if pros is None or neighbours is None or sea_cells is None:
            broken.add(sid)
            continue
        if not sea_cells and grid is not None and _CELL.match(sid):
            sea_cells = (sid,)  # a sea named by its one cell (the Vanilla sides)
        seas_read[sid] = (pros, neighbours, sea_cells)
    doc.done()
    return _Raw(board, title, players, territories, seas_read, grid, broken)


def _records(doc: _Table, key: str) -> list[dict[str, object]]:
    value = doc.value(key, optional=False)
    if value is None:
        return []
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        doc.problem(f"[[{key}]]", f"must be one or more [[{key}]] tables")
        return []
    return value


# --- checking and building -------------------------------------------------------------------


def _check_graph(name: str, raw: _Raw, problems: list[Problem]) -> None:
    """The checks across records of one side: references, symmetry, islands, connectivity."""
    terr, seas = raw.territories, raw.seas

    for t in terr.values():
        where = f"{name} [[territory]] {t.id}"
        for s in t.seas:
            if s not in seas and s not in raw.broken:
                problems.append(Problem(f"{where} seas", f"names sea {s!r}, which has no [[sea]]"))
        for n in t.land:
            if n == t.id:
                problems.append(Problem(f"{where} land", "names the territory itself"))
            elif n in raw.broken:
                continue
            elif n not in terr:
                problems.append(Problem(f"{where} land",
                                        f"names territory {n!r}, which has no [[territory]]"))
            elif t.id not in terr[n].land:
                problems.append(Problem(
                    f"{where} land", f"names {n!r}, but {n!r} does not name {t.id!r}",
                    f"a land border is written on both territories: add {t.id!r} to the land "
                    f"of {n!r}, or remove {n!r} here"))
            elif terr[n].island != t.island:
                problems.append(Problem(
                    f"{where} land", f"names {n!r} on island {terr[n].island!r}, but this "
                    f"territory is on {t.island!r}: land borders join territories of one island"))

    for sid, (_, near, _cells) in seas.items():
        where = f"{name} [[sea]] {sid} seas"
        for n in near:
            if n == sid:
                problems.append(Problem(where, "names the sea space itself"))
            elif n in raw.broken:
                continue
            elif n not in seas:
                problems.append(Problem(where, f"names sea {n!r}, which has no [[sea]]"))
            elif sid not in seas[n][1]:
                problems.append(Problem(
                    where, f"names {n!r}, but {n!r} does not name {sid!r}",
                    f"a sea link is written on both seas: add {sid!r} to the seas of {n!r}, "
                    f"or remove {n!r} here"))

    # Islands: a small island is one territory alone (Setup 9.1); the territories of a larger
    # island are joined by land.
    members: dict[str, list[str]] = {}
    for t in terr.values():
        members.setdefault(t.island, []).append(t.id)
    for island, ids in sorted(members.items()):
        for tid in ids:
            if terr[tid].small_island and len(ids) > 1:
                problems.append(Problem(
                    f"{name} [[territory]] {tid} small_island",
                    f"is true, but island {island!r} has other territories: "
                    + ", ".join(sorted(set(ids) - {tid})),
                    "a small island is one territory on its own"))
        if len(ids) > 1 and not _connected(ids, lambda x: terr[x].land):
            problems.append(Problem(
                f"{name} [[territory]] island",
                f"the territories of island {island!r} are not all joined by land borders"))

    symbols = sorted(t.id for t in terr.values() if t.building_symbol)
    for tid in symbols:
        if terr[tid].building_spaces == 0:
            problems.append(Problem(f"{name} [[territory]] {tid} building_symbol",
                                    "is true, but the territory has no building space"))
    if symbols and len(symbols) != BUILDING_SYMBOLS:
        problems.append(Problem(
            f"{name} [[territory]] building_symbol",
            f"{len(symbols)} territories carry a building symbol, not {BUILDING_SYMBOLS}",
            "one of each basic building is placed on them at setup (003 Setup 1.2)"))

    _check_cells(name, raw, problems)

    # A broken sea record is missing from the graph, which could split it only seemingly.
    if seas and not raw.broken and not _connected(
            sorted(seas), lambda s: [n for n in seas[s][1] if n in seas]):
        groups = _components(sorted(seas), lambda s: [n for n in seas[s][1] if n in seas])
        problems.append(Problem(
            f"{name} [[sea]] seas",
            f"the sea spaces fall apart into {len(groups)} groups that no fleet can cross "
            "between: " + "; ".join(", ".join(g[:4]) + (" ..." if len(g) > 4 else "")
                                    for g in groups),
            "link the groups with sea--sea adjacency"))


def _check_cells(name: str, raw: _Raw, problems: list[Problem]) -> None:
    """The cells of one side: every record has some when the side has a grid (none when it
    has not), inside the grid, and no cell belongs to two records."""
    records = [(f"[[territory]] {t.id}", t.cells) for t in raw.territories.values()]
    records += [(f"[[sea]] {sid}", cells) for sid, (_, _, cells) in raw.seas.items()]
    if raw.grid is None:
        for where, cells in records:
            if cells:
                problems.append(Problem(
                    f"{name} {where} cells", "is given, but [side] has no columns and rows",
                    "give the size of the grid in [side] (columns = 13, rows = 7)"))
        return
    columns, rows = raw.grid
    taken: dict[str, str] = {}
    for where, cells in records:
        if not cells:
            problems.append(Problem(
                f"{name} {where} cells", "is missing: the side has a grid, so every territory "
                "and sea space lists its cells", "a sea space named by its one cell (\"C4\") "
                "may leave them out"))
        for cell in cells:
            column, row = cell_position(cell)
            if column > columns or row > rows:
                problems.append(Problem(
                    f"{name} {where} cells", f"holds {cell!r}, outside the grid of {columns} "
                    f"columns (A-{cell_name(columns, 1)[0]}) and {rows} rows"))
            elif cell in taken:
                problems.append(Problem(f"{name} {where} cells",
                                        f"holds {cell!r}, which {taken[cell]} covers too",
                                        "a cell belongs to one territory or sea space"))
            else:
                taken[cell] = where


def _components(nodes: list[str], step: Callable[[str], Iterable[str]]) -> list[list[str]]:
    """The connected groups of ``nodes`` under ``step`` (a node's neighbours), each sorted."""
    left = set(nodes)
    groups: list[list[str]] = []
    for n in nodes:
        if n not in left:
            continue
        seen = {n}
        queue = deque([n])
        while queue:
            here = queue.popleft()
            for nxt in step(here):
                if nxt in left and nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        left -= seen
        groups.append(sorted(seen))
    return groups


def _connected(nodes: list[str], step: Callable[[str], Iterable[str]]) -> bool:
    return len(_components(nodes, step)) <= 1


def _build(name: str, side: str, raw: _Raw) -> Board:
    shores: dict[str, list[str]] = {s: [] for s in raw.seas}
    for t in raw.territories.values():
        for s in t.seas:
            shores[s].append(t.id)
    seas = {sid: Sea(sid, raw.seas[sid][0], raw.seas[sid][1], tuple(sorted(shores[sid])),
                     raw.seas[sid][2]) for sid in sorted(raw.seas)}
    distance: dict[str, MappingProxyType[str, int]] = {}
    for start in seas:
        # Breadth-first from every sea: a few dozen seas, so the whole table is cheap.
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in seas[here].seas:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        distance[start] = MappingProxyType({s: dist[s] for s in sorted(dist)})
    islands: dict[str, list[str]] = {}
    for t in raw.territories.values():
        islands.setdefault(t.island, []).append(t.id)
    return Board(
        name=name, side=side, title=raw.title or side, players=raw.players,
        territories=MappingProxyType({t: raw.territories[t] for t in sorted(raw.territories)}),
        seas=MappingProxyType(seas),
        columns=raw.grid[0] if raw.grid else 0, rows=raw.grid[1] if raw.grid else 0,
        _distance=MappingProxyType(distance),
        _islands=MappingProxyType({i: tuple(sorted(ids)) for i, ids in sorted(islands.items())}))


def _side(path: Path, problems: list[Problem]) -> Board | None:
    """Read and check one file, adding to ``problems``; the board if it has none."""
    before = len(problems)
    raw = _read(path, problems)
    if raw is None:
        return None
    _check_graph(path.name, raw, problems)
    if len(problems) > before or raw.board is None:
        return None
    return _build(raw.board, path.stem, raw)


def read_side(path: Path) -> Board:
    """Read and check one board file on its own (not cached), e.g. a player's own layout."""
    problems: list[Problem] = []
    board = _side(path, problems)
    if problems or board is None:
        raise BoardDataError(problems)
    return board


def load_dir(directory: Path) -> dict[tuple[str, int], Board]:
    """Read and check every ``*.toml`` in ``directory`` (not cached; see :func:`load_board`).

    Besides each file's own checks, every board of :data:`PLAYER_COUNTS` must have exactly one
    side for each of its player counts (003 Setup 1.1). Keys of the answer are (board,
    players), sorted.
    """
    problems: list[Problem] = []
    files = sorted(directory.glob("*.toml"))
    if not files:
        raise BoardDataError(Problem(str(directory), "holds no board files (*.toml)"))
    found: dict[tuple[str, int], Board] = {}
    claimed: dict[tuple[str, int], str] = {}
    for path in files:
        board = _side(path, problems)
        if board is None:
            continue
        for n in board.players:
            if (board.name, n) in claimed:
                problems.append(Problem(
                    f"{path.name} [side] players",
                    f"{board.name} for {n} players is already given by {claimed[board.name, n]}",
                    "give each player count one side"))
            else:
                claimed[board.name, n] = path.name
                found[board.name, n] = board
    if not problems:
        for board_name, counts in PLAYER_COUNTS.items():
            for n in counts:
                if (board_name, n) not in found:
                    problems.append(Problem(
                        "[side] players",
                        f"no file gives the {board_name} board for {n} players",
                        f"add {n} to the players of a {board_name} side (003 Setup 1.1)"))
    if problems:
        raise BoardDataError(problems)
    return {key: found[key] for key in sorted(found)}


@cache
def _catalogue() -> dict[tuple[str, int], Board]:
    return load_dir(DATA)


def load_board(name: str, players: int) -> Board:
    """The built-in side of board ``name`` ("vanilla" or "titans") for ``players`` players,
    read and checked once per process (003 Setup 1.1). Unknown: :class:`KeyError`."""
    try:
        return _catalogue()[name, players]
    except KeyError:
        raise KeyError(f"no {name!r} board for {players} players; the seed plays "
                       + "; ".join(f"{b} with {', '.join(map(str, c))}"
                                   for b, c in PLAYER_COUNTS.items())) from None


def boards() -> list[tuple[str, int]]:
    """Every (board, players) the built-in files serve, sorted."""
    return list(_catalogue())

"""Shared pieces of the inline SVG board pictures in HTML reports: hex and square grids,
escaped text, markers and a legend.

Pictures are strings built in Python rather than templates because a map has a thousand hexes:
a game draws the fixed part of its board (terrain, Areas, borders) once per process and caches
it, and draws only the pieces that move per report. Coordinates are whole numbers so that the
picture is compact and byte-for-byte the same for the same view (golden files compare it).
Nothing here refers to an ``id``: several pictures may share one page (the public site).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from pbem.core import escape

#: Fonts every phone and desktop has.
FONT = "font-family=\"Helvetica,Arial,sans-serif\""

Cell = tuple[int, int]  # (column, row), both counted from 1
Point = tuple[int, int]


def esc(text: object) -> str:
    """``text`` safe inside an SVG/HTML element or a double-quoted attribute
    (:func:`pbem.core.escape.svg`: every text a picture shows goes through it)."""
    return escape.svg(text)


def document(width: int, height: int, body: str, title: str, css_class: str = "board") -> str:
    """A whole ``<svg>`` element with an explicit size and a viewBox: browsers give it that
    size (and scale it down with CSS ``max-width: 100%; height: auto``)."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{esc(css_class)}" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'{FONT}><title>{esc(title)}</title>\n{body}</svg>')


def text(x: float, y: float, value: object, size: float, *, anchor: str = "middle",
         fill: str = "#000", extra: str = "", halo: bool = False) -> str:
    """A line of text centred (by default) on ``x``, its baseline at ``y``; ``halo`` draws a
    white outline under the letters so that they stay readable over the map."""
    outline = ' stroke="#fff" stroke-width="2" paint-order="stroke"' if halo else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" '
            f'fill="{fill}"{outline}{extra}>{esc(value)}</text>')


def tooltip(value: object) -> str:
    """A ``<title>`` child: the browser shows it on hover, screen readers read it."""
    return f"<title>{esc(value)}</title>"


@dataclass(frozen=True)
class HexGrid:
    """Flat-topped hexes standing in columns, named (column, row) from 1, as printed maps of
    the period number them. ``odd_down``: odd columns sit half a hex lower than even ones
    (Mythology); otherwise the even ones do. ``size`` is the centre-to-corner distance and
    ``half`` the centre-to-side one (``size`` * 0.866, rounded; ``size`` must be even so that
    every corner lands on a whole number)."""

    size: int = 8
    half: int = 7
    odd_down: bool = True
    left: int = 0
    top: int = 0

    def down(self, column: int) -> bool:
        return (column % 2 == 1) == self.odd_down

    def centre(self, cell: Cell) -> Point:
        column, row = cell
        x = self.left + self.size + (column - 1) * (3 * self.size // 2)
        y = self.top + self.half * (2 * row - 1) + (self.half if self.down(column) else 0)
        return x, y

    def extent(self, columns: int, rows: int) -> Point:
        """Width and height of a ``columns`` x ``rows`` grid, margins included."""
        return (2 * self.left + 2 * self.size + (columns - 1) * (3 * self.size // 2),
                2 * self.top + self.half * (2 * rows + 1))

    def corners(self, cell: Cell) -> tuple[Point, ...]:
        """West, north-west, north-east, east, south-east, south-west."""
        x, y = self.centre(cell)
        s, q, h = self.size, self.size // 2, self.half
        return ((x - s, y), (x - q, y - h), (x + q, y - h), (x + s, y), (x + q, y + h),
                (x - q, y + h))

    def hexagon(self, cell: Cell) -> str:
        """One closed hexagon as compact path data (append many to one ``<path>``)."""
        x, y = self.centre(cell)
        s, q, h = self.size, self.size // 2, self.half
        return f"M{x - s} {y}l{q}-{h}h{s}l{q} {h}-{q} {h}h-{s}z"

    def around(self, cell: Cell) -> tuple[tuple[Cell, int, int], ...]:
        """The six neighbouring positions with the two corner indexes of the shared side:
        north, north-east, south-east, south, south-west, north-west."""
        c, r = cell
        up, low = (r, r + 1) if self.down(c) else (r - 1, r)
        return (((c, r - 1), 1, 2), ((c + 1, up), 2, 3), ((c + 1, low), 3, 4),
                ((c, r + 1), 4, 5), ((c - 1, low), 5, 0), ((c - 1, up), 0, 1))

    def side(self, a: Cell, b: Cell) -> tuple[Point, Point]:
        """The side ``a`` and ``b`` share (they must be neighbours)."""
        for other, i, j in self.around(a):
            if other == b:
                corners = self.corners(a)
                return corners[i], corners[j]
        raise ValueError(f"hexes {a} and {b} are not neighbours")

    def borders(self, region: Mapping[Cell, str]) -> str:
        """Path data for every side between two regions, and around the edge of the map."""
        out = []
        for cell, name in sorted(region.items()):
            for other, i, j in self.around(cell):
                there = region.get(other)
                if there is None or (there != name and other > cell):
                    corners = self.corners(cell)
                    (x1, y1), (x2, y2) = corners[i], corners[j]
                    out.append(f"M{x1} {y1}L{x2} {y2}")
        return "".join(out)


@dataclass(frozen=True)
class SquareGrid:
    """Square cells (chessboards, tracks), (column, row) from 1, ``size`` units each."""

    size: int = 24
    left: int = 0
    top: int = 0

    def origin(self, cell: Cell) -> Point:
        return self.left + (cell[0] - 1) * self.size, self.top + (cell[1] - 1) * self.size

    def centre(self, cell: Cell) -> Point:
        x, y = self.origin(cell)
        return x + self.size // 2, y + self.size // 2

    def square(self, cell: Cell, fill: str, extra: str = "") -> str:
        x, y = self.origin(cell)
        return (f'<rect x="{x}" y="{y}" width="{self.size}" height="{self.size}" '
                f'fill="{fill}" stroke="#777" stroke-width="0.5"{extra}/>')


# --- markers: each is drawn around (0, 0) or at a given point, about 10 units across ---------

def circle(x: int, y: int, r: float, fill: str, stroke: str = "#000",
           width: float = 0.6) -> str:
    return (f'<circle cx="{x}" cy="{y}" r="{r:g}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{width:g}"/>')


def rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "#000",
         width: float = 0.6, rx: float = 0) -> str:
    corner = f' rx="{rx:g}"' if rx else ""
    return (f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{corner} fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width:g}"/>')


def polygon(points: Iterable[tuple[float, float]], fill: str, stroke: str = "#000",
            width: float = 0.5) -> str:
    pts = " ".join(f"{x:g},{y:g}" for x, y in points)
    return f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"/>'


def diamond(x: float, y: float, r: float, fill: str, stroke: str = "#000") -> str:
    return polygon(((x, y - r), (x + r, y), (x, y + r), (x - r, y)), fill, stroke)


def triangle(x: float, y: float, r: float, fill: str, stroke: str = "#000") -> str:
    return polygon(((x, y - r), (x + r, y + r * 0.8), (x - r, y + r * 0.8)), fill, stroke)


Symbol = Callable[[int, int], str]


def legend(entries: Sequence[tuple[Symbol, str]], left: int, top: int, width: int,
           column_width: int = 150, line: int = 13, size: float = 8) -> tuple[str, int]:
    """A legend in as many columns as fit ``width``: each entry is a symbol drawn at a point
    and its explanation. Returns the markup and the height it takes."""
    columns = max(1, width // column_width)
    per_column = -(-len(entries) // columns)
    out = ['<g class="legend">']
    for n, (symbol, label) in enumerate(entries):
        x = left + (n // per_column) * column_width + 6
        y = top + (n % per_column) * line + line // 2
        out.append(symbol(x, y))
        out.append(text(x + 10, y + 3, label, size, anchor="start"))
    out.append("</g>")
    return "".join(out), per_column * line + 4

"""Shared pieces of the inline SVG board pictures in HTML reports: hex and square grids,
escaped text, markers and a legend.

Pictures are strings built in Python rather than templates because a map has a thousand hexes:
a game draws the fixed part of its board (terrain, Areas, borders) once per process and caches
it, and draws only the pieces that move per report. Coordinates are whole numbers so that the
picture is compact and byte-for-byte the same for the same view (golden files compare it).
A report's board (:func:`board`) gives its overview an id made from its markup, so that
several pictures may share one page (the public site).
"""

from __future__ import annotations

import hashlib
import math
import re
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


# --- the board of a report: an overview, its legend as a list, close-ups ---------------------
#
# A report's board is one overview of the whole map, as wide as the page (on a phone its
# texts would be a few pixels high, so the report's CSS hides them there and keeps the
# pieces), a legend as an HTML list that wraps, and a few close-ups of the reader's own pieces
# (the gazette: the busiest parts of the board). A close-up draws the overview again with
# ``<use href="#ID"/>`` of the overview's ``<g id="ID">`` and a viewBox on its part, so it adds
# a few hundred bytes, not the map again; its scale makes its smallest text at least
# :data:`MIN_PX` CSS pixels high when it is shown on a phone :data:`PHONE_WIDTH` pixels wide.

#: The phone a close-up is made for, and the widest a close-up may be to be shown there
#: unshrunk (the report's padding, 2 x .9em, leaves 361 CSS px of the 390; a browser that
#: shows a scroll bar beside the page takes up to 17 more).
PHONE_WIDTH, PHONE_PX = 390, 340
#: The smallest text a close-up shows, in CSS pixels on that phone.
MIN_PX = 10
#: At most this many close-ups of a board.
MAX_TILES = 6
#: Where templates/_base/report.html.j2 cuts a board: before it the overview (which the
#: report's ``<figure>`` holds, with the caption), after it the legend and the close-ups.
SPLIT = "<!-- pbem:legend and close-ups -->"

Rect = tuple[float, float, float, float]  # left, top, right, bottom, in board units
Box = tuple[int, int, int, int]           # left, top, width, height (a viewBox)

_SIZES = re.compile(r'font-size="([0-9.]+)"')


@dataclass(frozen=True)
class Focus:
    """Something a close-up must show whole: its extent and what a caption calls it."""

    rect: Rect
    label: str


@dataclass(frozen=True)
class Closeup:
    """One close-up: the part of the board (``box``), the CSS pixels per board unit
    (``scale``), and its caption (also its aria-label)."""

    box: Box
    scale: float
    caption: str

    @property
    def size(self) -> Point:
        """Its width and height in CSS pixels (whole, rounded up: never smaller)."""
        return math.ceil(self.box[2] * self.scale), math.ceil(self.box[3] * self.scale)


def smallest_text(markup: str) -> float:
    """The smallest ``font-size`` in ``markup`` (board units); 10 if it has none."""
    return min((float(s) for s in _SIZES.findall(markup)), default=10.0)


def scale_for(smallest: float) -> float:
    """The CSS pixels per board unit that show a ``smallest`` text :data:`MIN_PX` high
    (rounded up to hundredths)."""
    return math.ceil(MIN_PX / smallest * 100) / 100


def tile(scale: float, height: float = 0.86) -> Point:
    """The board units one close-up at ``scale`` covers: at most :data:`PHONE_PX` wide,
    ``height`` times as high as wide."""
    width = math.floor(PHONE_PX / scale)
    return width, round(width * height)


def _inside(box: Box, rect: Rect) -> bool:
    x, y, w, h = box
    left, top, right, bottom = rect
    if right - left > w or bottom - top > h:  # larger than a tile: its middle is enough
        mx, my = (left + right) / 2, (top + bottom) / 2
        return x <= mx <= x + w and y <= my <= y + h
    return x <= left and right <= x + w and y <= top and bottom <= y + h


def _place(start: float, low: float, high: float, size: int, limit: int) -> list[int]:
    """Where a tile ``size`` long may start to hold ``low``..``high``, inside 0..``limit``:
    the thing at its start, in its middle, at its end."""
    spots = (low, (low + high - size) / 2, high - size)
    return sorted({max(0, min(round(s), limit - size)) if limit > size else 0 for s in spots},
                  key=lambda s: abs(s - start))


def cover(focus: Sequence[Focus], size: Point, bounds: Point,
          cap: int = MAX_TILES) -> list[tuple[Box, list[Focus]]]:
    """At most ``cap`` tiles of ``size`` inside a board of ``bounds`` that hold ``focus``,
    greedily: each time, of the tiles placed around each thing not yet shown, the one that
    shows most of them (the first such, in a fixed order). Returns each tile in reading order
    with the things it shows."""
    w, h = min(size[0], bounds[0]), min(size[1], bounds[1])
    def clip(r: Rect) -> Rect:  # what is beyond the board's edge needs no showing
        return (max(r[0], 0), max(r[1], 0), min(r[2], bounds[0]), min(r[3], bounds[1]))

    rects = sorted({clip(f.rect) for f in focus})  # things on one spot count once
    chosen: list[Box] = []
    while rects and len(chosen) < cap:
        best: tuple[Box, list[Rect]] | None = None
        for x0, y0, x1, y1 in rects:
            for x in _place((x0 + x1 - w) / 2, x0, x1, w, bounds[0]):
                for y in _place((y0 + y1 - h) / 2, y0, y1, h, bounds[1]):
                    box = (x, y, w, h)
                    shown = [g for g in rects if _inside(box, g)]
                    if best is None or len(shown) > len(best[1]):
                        best = (box, shown)
        assert best is not None and best[1]  # a tile placed around a thing shows it
        chosen.append(best[0])
        rects = [g for g in rects if g not in best[1]]
    chosen.sort(key=lambda box: (box[1], box[0]))
    return [(box, [f for f in focus if _inside(box, clip(f.rect))]) for box in chosen]


def picture_id(body: str) -> str:
    """The overview's id: the same picture has the same id, two pictures on one page (the
    public site) have two."""
    return "pbem-board-" + hashlib.sha256(body.encode()).hexdigest()[:12]


def legend_list(entries: Sequence[tuple[Symbol, str]], half: int) -> str:
    """The legend as an HTML list that wraps to any width: each entry its symbol (drawn at
    (0, 0) in a tiny picture ``2 * half`` units square, large enough for its text to be
    :data:`MIN_PX` high) and its explanation."""
    symbols = [symbol(0, 0) for symbol, _ in entries]
    px = math.ceil(2 * half * max(1.6, scale_for(smallest_text("".join(symbols)))))
    out = ['<ul class="board-legend">']
    for mark, (_, label) in zip(symbols, entries, strict=True):
        out.append(f'<li><svg xmlns="http://www.w3.org/2000/svg" viewBox="{-half} {-half} '
                   f'{2 * half} {2 * half}" width="{px}" height="{px}" aria-hidden="true">'
                   f'{mark}</svg>{esc(label)}</li>')
    out.append("</ul>")
    return "\n".join(out)


def board(body: str, width: int, height: int, title: str, legend_html: str,
          closeups: Sequence[Closeup], intro: str) -> str:
    """A report's board: the overview (``body`` in a ``<g>`` with an id), :data:`SPLIT`, the
    legend (``legend_html``) and the close-ups, each a ``<figure>`` whose picture uses the
    overview's ``<g>`` (``intro`` says what they show)."""
    ident = picture_id(body)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board overview" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
           f'aria-label="{esc(title)}" {FONT}><title>{esc(title)}</title>'
           f'<g id="{ident}">\n{body}</g></svg>', SPLIT, legend_html]
    if closeups:
        out.append(f'<div class="closeups">\n<p>{esc(intro)}</p>')
        for n, c in enumerate(closeups, 1):
            caption = f"Close-up {n} of {len(closeups)}: {c.caption}"
            x, y, w, h = c.box
            pw, ph = c.size
            out.append(f'<figure class="closeup"><svg xmlns="http://www.w3.org/2000/svg" '
                       f'class="board closeup" viewBox="{x} {y} {w} {h}" width="{pw}" '
                       f'height="{ph}" role="img" aria-label="{esc(caption)}" {FONT}>'
                       f'<use href="#{ident}"/></svg><figcaption>{esc(caption)}</figcaption>'
                       "</figure>")
        out.append("</div>")
    return "\n".join(out)

"""Grecos's board as an inline SVG picture for HTML reports and the public site.

The chessboard of terrain tiles (Map 1-2), drawn from the view alone: rank 8 at the top and
file a on the left as on a chessboard, with the file letters and rank numbers around it. Each
tile has its terrain's colour AND its letter (``report.LETTERS``: C Coastal, S City State,
F Forest, M Mountains, R Ruins, A Abyss, ~ Sea), so that no one needs colour to tell the
kinds apart. Each stack is a counter in its owner's seat colour with its number of units; a
badge in the square's corner gives the hits its units have lost (Parts 4: damage counters);
the reader's own counters have a thick border. Every square and every counter has a
``<title>``: the square and its terrain; the square, terrain, owner and every unit with its
hits ("c3 City State: alice: Hero (7) 2/2 hits, Hoplites (9) 1/2").

The board is small: the whole picture is 338 units wide and shown at most 340 CSS px wide, so
at 1 CSS px per unit or more on a 390 px phone its smallest text (10 units) stays at least
10 CSS px high; it needs no close-ups and its texts are never hidden (it is not an
"overview"). The legend, an HTML list, follows :data:`pbem.core.svg.SPLIT`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core import svg as draw
from pbem.games.grecos import report
from pbem.games.grecos.components import Components
from pbem.games.grecos.squares import FILES, RANKS, SQUARES

SIZE = 40                      # a square, in board units
LEFT, TOP = 14, 4              # room for the rank numbers; a margin
WIDTH = LEFT + 8 * SIZE + 4    # 338
HEIGHT = TOP + 8 * SIZE + 16   # 340: the file letters below
GRID = draw.SquareGrid(SIZE, LEFT, TOP)
#: The smallest text of the picture (board units): 10 CSS px at 1 px per unit.
FONT = 10
#: Terrain colours (the letter tells them apart too).
FILL = {"coastal": "#efe1b0", "city_state": "#f4f4f4", "forest": "#9fcf8c",
        "mountains": "#bba58c", "ruins": "#d6b3b3", "abyss": "#7ea6d3", "sea": "#cde3f5"}
#: Seat colours (seat 1 first): dark enough for white numbers.
SEATS = ("#1f5fbf", "#c0392b", "#2e7d32", "#7b1fa2", "#a65c00", "#37474f")
DAMAGE = "#a50e0e"


def cell(square: str) -> tuple[int, int]:
    """(column, row) from 1 of ``square`` on the picture: file a left, rank 8 top."""
    return FILES.index(square[0]) + 1, 8 - RANKS.index(square[1])


def seat_colour(view: Mapping[str, Any], player: str) -> str:
    seats = list(view.get("seats", []))
    return SEATS[seats.index(player) % len(SEATS)] if player in seats else "#777"


def _fill(terrain: str) -> str:
    return FILL.get(terrain, "#ddd")


def _tile(c: Components, square: str, terrain: str) -> str:
    x, y = GRID.origin(cell(square))
    name = c.terrains[terrain].name if terrain in c.terrains else terrain
    return (f'<g class="square" data-square="{square}" data-terrain="{draw.esc(terrain)}">'
            f"{draw.tooltip(f'{square} {name}')}{GRID.square(cell(square), _fill(terrain))}"
            + draw.text(x + 3, y + 11, report.letter(c, terrain), FONT, anchor="start",
                        fill="#222") + "</g>")


_STATIC: dict[tuple[int, tuple[tuple[str, str], ...]], str] = {}


def _static(c: Components, board: tuple[tuple[str, str], ...]) -> str:
    """The tiles and the labels around them (the same for a whole campaign: drawn once per
    process and board)."""
    key = (id(c), board)
    if key not in _STATIC:
        if len(_STATIC) > 64:
            _STATIC.clear()
        _STATIC[key] = _draw_static(c, board)
    return _STATIC[key]


def _draw_static(c: Components, board: tuple[tuple[str, str], ...]) -> str:
    out = [_tile(c, sq, t) for sq, t in board]
    for i, f in enumerate(FILES):
        x = LEFT + i * SIZE + SIZE // 2
        out.append(draw.text(x, TOP + 8 * SIZE + 12, f, FONT, fill="#333"))
    for j, r in enumerate(reversed(RANKS)):
        out.append(draw.text(LEFT // 2, TOP + j * SIZE + SIZE // 2 + 4, r, FONT, fill="#333"))
    return "\n".join(out)


def counter(x: int, y: int, fill: str, units: int, mine: bool) -> str:
    """A stack's counter centred on (x, y): its owner's colour, its number of units."""
    return (draw.rect(x - 14, y - 10, 28, 20, fill, "#000", 2.4 if mine else 0.8, 3)
            + draw.text(x, y + 5, units, 14, fill="#fff", extra=' font-weight="bold"'))


def badge(x: int, y: int, lost: int) -> str:
    """The hits a stack's units have lost, centred on (x, y)."""
    return (draw.circle(x, y, 7, "#fff", DAMAGE, 1.2)
            + draw.text(x, y + 3.5, f"-{lost}", FONT, fill=DAMAGE,
                        extra=' font-weight="bold"'))


def _stacks(c: Components, view: Mapping[str, Any], player: str | None) -> list[str]:
    out = []
    units = view.get("units", {})
    for sq, ids in report.stacks(view).items():
        owner = str(units[ids[0]]["owner"])
        lost = sum(max(0, c.units[units[u]["kind"]].hits - int(units[u]["hits"]))
                   for u in ids if units[u]["kind"] in c.units)
        x, y = GRID.origin(cell(sq))
        body = counter(x + SIZE // 2, y + 26, seat_colour(view, owner), len(ids),
                       owner == player)
        if lost:
            body += badge(x + SIZE - 9, y + 8, lost)
        out.append(f'<g class="stack" data-square="{sq}" data-player="{draw.esc(owner)}" '
                   f'data-units="{" ".join(ids)}">'
                   f"{draw.tooltip(report.square_line(c, view, sq, ids))}{body}</g>")
    return out


def _legend(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    def swatch(terrain: str) -> draw.Symbol:
        return lambda x, y: (draw.rect(x - 6, y - 6, 12, 12, _fill(terrain), "#777", 0.5)
                             + draw.text(x, y + 3.5, report.letter(c, terrain), FONT,
                                         fill="#222"))

    def chip(fill: str, mine: bool) -> draw.Symbol:
        return lambda x, y: draw.rect(x - 6, y - 5, 12, 10, fill, "#000", 1.6 if mine else 0.6,
                                      2)

    entries: list[tuple[draw.Symbol, str]] = [
        (swatch(t), f"{report.letter(c, t)}: {x.name} ({'land' if x.land else 'water'})")
        for t, x in c.terrains.items()]
    entries.append((lambda x, y: draw.rect(x - 6, y - 5, 12, 10, "#555", "#000", 0.6, 2)
                    + draw.text(x, y + 3.5, 2, FONT, fill="#fff"),
                    "a stack: its number of units, in its owner's colour"))
    entries.append((lambda x, y: draw.circle(x, y, 6, "#fff", DAMAGE, 1)
                    + draw.text(x, y + 3.5, "-1", FONT - 2, fill=DAMAGE),
                    "hits its units have lost (Battle 7-8)"))
    for n, p in enumerate(view.get("seats", []), 1):
        entries.append((chip(seat_colour(view, p), p == player),
                        f"seat {n}: {p}" + (" (you: thick border)" if p == player else "")
                        + (", out of the game" if p in view.get("eliminated", []) else "")))
    return draw.legend_list(entries, 7)


def svg(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    """The board as ``player`` (``None``: the public) sees it in ``view``: one picture, then
    :data:`pbem.core.svg.SPLIT` and its legend."""
    board = tuple((sq, str(view["board"][sq])) for sq in SQUARES)
    body = _static(c, board) + "\n" + "\n".join(_stacks(c, view, player)) + "\n"
    title = (f"The Grecos board, turn {view.get('turn', '')}"
             + (f", as {player} sees it" if player else ", public view"))
    return (draw.document(WIDTH, HEIGHT, body, title, "board grecos") + "\n" + draw.SPLIT + "\n"
            + _legend(c, view, player))

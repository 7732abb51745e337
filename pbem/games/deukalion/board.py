"""Deukalion's board as an inline SVG picture for HTML reports and the public site.

The 9 x 7 board (Map 1-13, ``data/board.toml``), drawn from the view alone: rank 7 at the top
and file a on the left, with the file letters and rank numbers around it. Each square kind
has its colour AND its letter (``report.LETTERS``: ``.`` water, ``@`` anchor, ``~`` Styx,
``*`` Kylix, ``A`` Athens, ``C`` city, ``S`` settlement, ``#`` land), so that no one needs
colour to tell the kinds apart; cities and settlements also carry their three letters
("Cor"). On a city, each chest lying there is a small square in its colour with its letter
(r, g, b, y, k). On a settlement, its owner's seat number in a disc of the seat colour.
Each ship is a counter in its owner's seat colour with his seat number (the reader's own
with a thick border); the Hydra is a dark green diamond with "H". Every square, chest mark,
settlement badge, ship and the Hydra has a ``<title>``.

The board is small: the picture is 340 units wide (:data:`pbem.core.svg.PHONE_PX`), so on a
390 px phone it is shown at 1 CSS px per unit or more and its smallest text (10 units) stays
at least 10 CSS px high; it needs no close-ups and its texts are never hidden (it is not an
"overview"). The legend, an HTML list, follows :data:`pbem.core.svg.SPLIT`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core import svg as draw
from pbem.games.deukalion import report
from pbem.games.deukalion.components import FILES, RANKS, Components

SIZE = 36                       # a square, in board units
LEFT, TOP = 12, 4               # room for the rank numbers; a margin
WIDTH = LEFT + 9 * SIZE + 4     # 340
HEIGHT = TOP + RANKS * SIZE + 16
GRID = draw.SquareGrid(SIZE, LEFT, TOP)
FONT = 10  # the smallest text, in board units
FILL = {"water": "#cde3f5", "anchor": "#9cc3ea", "styx": "#6c6c8e", "kylix": "#e8d27a",
        "athens": "#f4f4f4", "city": "#efe1b0", "settlement": "#c9e0b0", "land": "#bba58c"}
INK = {"styx": "#fff"}
CHEST = {"red": "#c62828", "green": "#2e7d32", "blue": "#1565c0", "yellow": "#f9d71c",
         "black": "#111"}
CHEST_INK = {"yellow": "#000"}
#: Seat colours (seat 1 first): dark enough for white numbers.
SEATS = ("#1f5fbf", "#c0392b", "#7b1fa2", "#a65c00")
HYDRA = "#1b5e20"


def cell(square: str) -> tuple[int, int]:
    """(column, row) from 1 of ``square``: file a left, rank 7 top."""
    return FILES.index(square[0]) + 1, RANKS + 1 - int(square[1:])


def seat_colour(view: Mapping[str, Any], player: str) -> str:
    seats = list(view.get("seats", []))
    return SEATS[seats.index(player) % len(SEATS)] if player in seats else "#777"


def chest_letter(colour: str) -> str:
    return "k" if colour == "black" else colour[:1]


def _square_title(c: Components, square: str) -> str:
    sq = c.board.squares[square]
    if sq.kind == "city":
        city = c.board.cities[sq.place]
        return f"{square}: {city.name}, city of value {city.value}, {city.spaces} chest spaces"
    if sq.kind == "settlement":
        s = c.board.settlements[sq.place]
        return (f"{square}: {s.name}, settlement of value {s.value}, founded with "
                f"{s.hoplites} hoplite{'s' if s.hoplites != 1 else ''}")
    return f"{square}: {report.KIND_NAMES.get(sq.kind, sq.kind)}"


def _tile(c: Components, square: str) -> str:
    sq = c.board.squares[square]
    x, y = GRID.origin(cell(square))
    ink = INK.get(sq.kind, "#222")
    label = report.LETTERS.get(sq.kind, "?")
    if sq.place:
        label += " " + report.abbrev(c, sq.place)
    elif sq.kind == "athens":
        label += " Ath"
    return (f'<g class="square" data-square="{square}" data-kind="{sq.kind}">'
            f"{draw.tooltip(_square_title(c, square))}"
            f"{GRID.square(cell(square), FILL.get(sq.kind, '#ddd'))}"
            + draw.text(x + 2, y + 10, label, FONT, anchor="start", fill=ink) + "</g>")


_STATIC: dict[int, str] = {}


def _static(c: Components) -> str:
    """The squares and the labels around them: drawn once per process."""
    if id(c) not in _STATIC:
        out = [_tile(c, sq) for sq in report.square_ids()]
        for i, f in enumerate(FILES):
            out.append(draw.text(LEFT + i * SIZE + SIZE // 2, TOP + RANKS * SIZE + 12, f,
                                 FONT, fill="#333"))
        for j in range(RANKS):
            out.append(draw.text(LEFT // 2, TOP + j * SIZE + SIZE // 2 + 4, RANKS - j, FONT,
                                 fill="#333"))
        _STATIC[id(c)] = "\n".join(out)
    return _STATIC[id(c)]


def ship(x: int, y: int, fill: str, seat: int, mine: bool) -> str:
    return (draw.rect(x - 7, y - 7, 14, 14, fill, "#000", 2.2 if mine else 0.8, 3)
            + draw.text(x, y + 4, seat, FONT, fill="#fff", extra=' font-weight="bold"'))


def hydra(x: int, y: int) -> str:
    return (draw.polygon([(x, y - 8), (x + 8, y), (x, y + 8), (x - 8, y)], HYDRA, "#000", 0.8)
            + draw.text(x, y + 4, "H", FONT, fill="#fff", extra=' font-weight="bold"'))


def chest(x: int, y: int, colour: str) -> str:
    return (draw.rect(x - 5, y - 6, 10, 12, CHEST.get(colour, "#777"), "#000", 0.6, 1)
            + draw.text(x, y + 3, chest_letter(colour), FONT,
                        fill=CHEST_INK.get(colour, "#fff")))


def _pieces(c: Components, view: Mapping[str, Any], player: str | None) -> list[str]:
    out: list[str] = []
    seats = report.seat_numbers(view)
    for square in report.square_ids():
        sq = c.board.squares[square]
        x, y = GRID.origin(cell(square))
        if sq.kind == "city":
            lying = view["chests"].get(sq.place, [])
            for i, colour in enumerate(lying):
                name = f"{square} {c.place_name(sq.place)}: a {colour} treasure chest"
                out.append(f'<g class="chest" data-square="{square}" '
                           f'data-colour="{draw.esc(colour)}">{draw.tooltip(name)}'
                           + chest(x + 7 + 11 * i, y + 26, colour) + "</g>")
            continue
        if sq.kind == "settlement":
            owner = view["settlements"].get(sq.place, {}).get("owner", "")
            if owner:
                n = view["settlements"][sq.place]["hoplites"]
                out.append(f'<g class="owner" data-square="{square}" '
                           f'data-player="{draw.esc(owner)}">'
                           + draw.tooltip(f"{square} {c.place_name(sq.place)}: {owner}'s, "
                                          f"{n} hoplite{'s' if n != 1 else ''} there")
                           + draw.circle(x + SIZE // 2, y + 25, 8, seat_colour(view, owner),
                                         "#000", 2.2 if owner == player else 0.8)
                           + draw.text(x + SIZE // 2, y + 29, seats[owner], FONT, fill="#fff",
                                       extra=' font-weight="bold"') + "</g>")
            continue
        here = report.ships_on(view, square)
        is_hydra = view.get("hydra") == square
        if not here and not is_hydra:
            continue
        slots = [(x + 10, y + 17), (x + 26, y + 17), (x + 10, y + 29), (x + 26, y + 29)]
        if len(here) + is_hydra == 1:
            slots = [(x + SIZE // 2, y + 23)]
        body = []
        names = []
        for i, p in enumerate(here):
            px, py = slots[i % len(slots)]
            body.append(ship(px, py, seat_colour(view, p), seats[p], p == player))
            b = view["board"][p]
            names.append(f"{p}'s ship (seat {seats[p]}): {b['hoplites']} hoplites, chests: "
                         + (", ".join(b["chests"]) or "none"))
        if is_hydra:
            px, py = slots[len(here) % len(slots)]
            body.append(hydra(px, py))
            names.append("the Hydra")
        out.append(f'<g class="piece" data-square="{square}" '
                   f'data-units="{draw.esc(" ".join([*here, *(["hydra"] if is_hydra else [])]))}">'
                   f"{draw.tooltip(f'{square}: ' + '; '.join(names))}" + "".join(body) + "</g>")
    return out


def _legend(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    def swatch(kind: str) -> draw.Symbol:
        return lambda x, y: (draw.rect(x - 6, y - 6, 12, 12, FILL[kind], "#777", 0.5)
                             + draw.text(x, y + 3.5, report.LETTERS[kind], FONT,
                                         fill=INK.get(kind, "#222")))

    def chip(fill: str, n: int, mine: bool) -> draw.Symbol:
        return lambda x, y: ship(x, y, fill, n, mine)

    def box(colour: str) -> draw.Symbol:
        return lambda x, y: chest(x, y, colour)

    entries: list[tuple[draw.Symbol, str]] = [
        (swatch(k), f"{report.LETTERS[k]}: {report.KIND_NAMES[k]}") for k in FILL]
    entries += [(box(col), f"a {col} treasure chest lying on a city ({chest_letter(col)})")
                for col in c.colours]
    entries.append((lambda x, y: hydra(x, y), "the Hydra"))
    for n, p in enumerate(view.get("seats", []), 1):
        entries.append((chip(seat_colour(view, p), n, p == player),
                        f"seat {n}: {p}'s ship; a disc: a settlement of his"
                        + (" (you: thick border)" if p == player else "")))
    return draw.legend_list(entries, 9)


def svg(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    """The board as ``player`` (``None``: the public) sees it in ``view``: one picture, then
    :data:`pbem.core.svg.SPLIT` and its legend."""
    body = _static(c) + "\n" + "\n".join(_pieces(c, view, player)) + "\n"
    title = (f"The Deukalion board, turn {view.get('turn', '')}"
             + (f", as {player} sees it" if player else ", public view"))
    return (draw.document(WIDTH, HEIGHT, body, title, "board deukalion") + "\n" + draw.SPLIT
            + "\n" + _legend(c, view, player))

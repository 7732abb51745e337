"""The Cyclades board as an inline SVG picture for HTML reports and the public site.

The map is drawn from the side's cells (``maps``: ``[side] columns``/``rows`` and each
record's ``cells``, the picture at the top of every board file): pointy-topped hexagons in
rows, even rows half a cell to the right. Sea spaces are blue, with their ids (the names the
order forms use) and a gold dot where a cornucopia is printed; lines mark where one sea space
or territory ends. That part is the same in every report and is drawn once per board side.

Everything that moves is drawn from the ``view`` given and nothing else, so a picture shows
only what its reader may see (views.py hides each player's gold, which is never drawn):

- each territory filled in a tint of its owner's colour, with its name, the printed
  cornucopias and the prosperity markers added, its units (troops, undead, Titans, Heroes,
  Egyptians, as numbered badges), its building spaces with the buildings on them, the
  Metropolis, monuments and artifacts, and the dotted red Metropolis square (Team 5.2) on
  sides where not every territory has one;
- fleets (and undead fleets) per sea space in the owner's colour, with their number;
- creature figures where they stand (Cycle 8.2), ringed in their owner's colour;
- a side panel: the players, the god track as bid (holders and amounts, the acting god),
  Apollo, Hades' column (Cycle 5), and the creature track with its prices (Cycle 1);
- a legend.

A side without cells (a group's own board file may leave them out) is laid out on a plain
grid, territories first, so that the picture still shows every piece.

Coordinates are whole numbers and every loop runs in sorted order, so the same view gives the
same bytes (golden files compare them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from pbem.core import svg as draw
from pbem.games.cyclades.components import Components
from pbem.games.cyclades.maps import Board, cell_name, cell_neighbours, cell_position, load_board

#: The hexagon: centre to top corner, centre to side (about R * 0.866), one row's height.
R, W, STEP = 28, 24, 42
MARGIN = 16
PANEL = 200  # the side panel's width

SEA, SEA_LINE, SEA_TEXT = "#a9d0ec", "#7fb0d8", "#3a6d96"
LAND, COAST = "#f3e6c4", "#5b4a2e"
GOLD, GOLD_LINE, MARKER_LINE = "#f2c200", "#8a6d00", "#c62828"
FIGURE, METRO_SQUARE = "#4a148c", "#d32f2f"
SEATS = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f")
NOBODY = "#9e9e9e"
#: The colours the component data gives buildings (components.toml ``colour``).
BUILDING_COLOURS = {"blue": "#2f6fd0", "orange": "#ef7d00", "white": "#ffffff",
                    "green": "#3a9a3a", "purple": "#8e44ad", "black": "#222222",
                    "grey": "#9e9e9e"}
BUILDING_LETTERS = {"port": "P", "fortress": "F", "temple": "T", "university": "U",
                    "theater": "Th", "necropolis": "N"}


Point = tuple[int, int]


@dataclass(frozen=True)
class _Layout:
    """Where everything of one side is: the grid, each record's cells and label point."""

    columns: int
    rows: int
    owner: Mapping[Point, tuple[str, str]]     # (column, row) -> ("territory"|"sea", id)
    anchors: Mapping[str, Point]                # territory or sea id -> its label point
    width: int                                  # of the map part
    height: int


@dataclass(frozen=True)
class _Static:
    layout: _Layout
    under: str   # sea cells, drawn under the land
    over: str    # borders, rulers, sea labels, printed cornucopias


# --- geometry --------------------------------------------------------------------------------

def centre(column: int, row: int) -> Point:
    """The centre of a cell (pointy-topped hexagons; even rows half a cell to the right)."""
    x = MARGIN + W + (column - 1) * 2 * W + (W if row % 2 == 0 else 0)
    y = MARGIN + R + (row - 1) * STEP
    return x, y


def _corners(column: int, row: int) -> tuple[Point, ...]:
    """Top, upper right, lower right, bottom, lower left, upper left."""
    x, y = centre(column, row)
    h = R // 2
    return ((x, y - R), (x + W, y - h), (x + W, y + h), (x, y + R), (x - W, y + h),
            (x - W, y - h))


def _hexagon(column: int, row: int) -> str:
    x, y = centre(column, row)
    h = R // 2
    return f"M{x} {y - R}l{W} {h}v{R}l-{W} {h}-{W}-{h}v-{R}z"


#: The corners of the side shared with each neighbour of cell_neighbours (east first,
#: clockwise).
_SIDES = ((1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 1))


def _layout_of(board: Board) -> _Layout:
    owner: dict[Point, tuple[str, str]] = {}
    if board.has_cells:
        columns, rows = board.columns, board.rows
        for cell, (kind, rid) in board.cells().items():
            owner[cell_position(cell)] = (kind, rid)
    else:
        # No cells in the file: one cell each, territories first, on every other column so
        # that each stands apart.
        ids = [("territory", t) for t in board.territory_ids] + [("sea", s)
                                                                for s in board.sea_ids]
        columns = 12
        per_row = columns // 2
        rows = -(-len(ids) // per_row)
        for n, (kind, rid) in enumerate(ids):
            owner[(2 * (n % per_row) + 1, n // per_row + 1)] = (kind, rid)
    cells: dict[str, list[Point]] = {}
    for pos in sorted(owner, key=lambda p: (p[1], p[0])):
        cells.setdefault(owner[pos][1], []).append(pos)
    anchors: dict[str, Point] = {}
    for rid, spots in sorted(cells.items()):
        points = [centre(*p) for p in spots]
        mx = sum(x for x, _ in points) // len(points)
        my = sum(y for _, y in points) // len(points)
        anchors[rid] = min(points, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2,
                                                  p[1], p[0]))
    width = 2 * MARGIN + 2 * W * columns + W
    height = 2 * MARGIN + 2 * R + (rows - 1) * STEP
    return _Layout(columns, rows, owner, anchors, width, height)


@cache
def _static(board: Board) -> _Static:
    lay = _layout_of(board)
    seas = "".join(_hexagon(*p) for p, (kind, _) in sorted(lay.owner.items())
                   if kind == "sea")
    under = [f'<path d="{seas}" fill="{SEA}"/>'] if seas else []
    coast, water = [], []
    for (c, r), here in sorted(lay.owner.items()):
        corners = _corners(c, r)
        for n, nb in enumerate(cell_neighbours(c, r)):
            there = lay.owner.get(nb)
            if there == here or (there is not None and nb < (c, r)):
                continue  # the same record, or a side drawn from the other cell
            if there is None and here[0] == "sea":
                continue  # the open edge of the sea
            (x1, y1), (x2, y2) = corners[_SIDES[n][0]], corners[_SIDES[n][1]]
            segment = f"M{x1} {y1}L{x2} {y2}"
            if here[0] == "territory" or (there is not None and there[0] == "territory"):
                coast.append(segment)
            else:
                water.append(segment)
    over = []
    if water:
        over.append(f'<path d="{"".join(water)}" fill="none" stroke="{SEA_LINE}" '
                    'stroke-width="1"/>')
    if coast:
        over.append(f'<path d="{"".join(coast)}" fill="none" stroke="{COAST}" '
                    'stroke-width="1.4" stroke-linejoin="round"/>')
    if board.has_cells:  # rulers: the seas are named by their cells
        for c in range(1, lay.columns + 1):
            x, _ = centre(c, 1)
            over.append(draw.text(x, MARGIN - 4, cell_name(c, 1)[0], 8, fill="#555"))
        for r in range(1, lay.rows + 1):
            x, y = centre(1, r)
            over.append(draw.text(x - W - 3, y + 3, r, 8, anchor="end", fill="#555"))
    for sid, sea in sorted(board.seas.items()):
        x, y = lay.anchors[sid]
        over.append(draw.text(x, y + 19, sid, 7, fill=SEA_TEXT))
        for i in range(sea.prosperity):
            over.append(_cornucopia(x - 12 - 7 * i, y + 16))
    for tid, t in sorted(board.territories.items()):
        x, y = lay.anchors[tid]
        n = t.prosperity
        for i in range(n):
            over.append(_cornucopia(x - 3 * (n - 1) + 6 * i, y - 21))
    return _Static(lay, "\n".join(under), "\n".join(over))


# --- colours ---------------------------------------------------------------------------------

def _tint(colour: str, parts_white: int = 3, parts: int = 5) -> str:
    """``colour`` mixed with white (``parts_white`` of ``parts``), in whole numbers."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [(v * (parts - parts_white) + 255 * parts_white) // parts for v in rgb]
    return "#" + "".join(f"{v:02x}" for v in mixed)


def _colours(view: Mapping[str, Any]) -> dict[str, str]:
    return {p: SEATS[n % len(SEATS)] for n, p in enumerate(view["game"]["players"])}


# --- pieces: each drawn around a point ---------------------------------------------------------

def _cornucopia(x: int, y: int, marker: bool = False) -> str:
    if marker:  # a prosperity marker added in play, not printed
        return draw.circle(x, y, 2.8, GOLD, MARKER_LINE, 1)
    return draw.circle(x, y, 2.6, GOLD, GOLD_LINE, 0.5)


def _number(x: int, y: int, value: object, size: float = 7, fill: str = "#fff") -> str:
    return draw.text(x, y + 3, value, size, fill=fill, extra=' font-weight="bold"')


def _troops(x: int, y: int, colour: str, n: object) -> str:
    return draw.circle(x, y, 6, colour, "#fff", 0.8) + _number(x, y, n)


def _undead(x: int, y: int, colour: str, n: object) -> str:
    return draw.circle(x, y, 5.5, "#333", colour, 1.6) + _number(x, y, n)


def _titans(x: int, y: int, colour: str, n: object) -> str:
    return draw.rect(x - 6, y - 6, 12, 12, colour, "#000", 0.8) + _number(x, y, n)


def _heroes(x: int, y: int, colour: str, n: object) -> str:
    return draw.diamond(x, y, 7, colour, "#000") + _number(x, y, n, 6.5)


def _egyptians(x: int, y: int, colour: str, n: object) -> str:
    return (draw.polygon(((x, y - 7), (x + 7, y + 6), (x - 7, y + 6)), colour, "#000", 0.6)
            + _number(x, y + 1, n, 6.5))


def _fleet(x: int, y: int, colour: str, n: object, undead: bool = False) -> str:
    hull = draw.polygon(((x - 9, y - 2), (x + 9, y - 2), (x + 6, y + 5), (x - 6, y + 5)),
                        "#333" if undead else colour, colour if undead else "#fff",
                        1.4 if undead else 0.6)
    sail = draw.polygon(((x - 1, y - 11), (x - 1, y - 3), (x + 6, y - 3)), "#fff", "#333", 0.5)
    return hull + sail + draw.text(x - 11, y + 4, n, 8, anchor="end", fill="#000",
                                   halo=True, extra=' font-weight="bold"')


def _building(x: int, y: int, colour: str, letter: str) -> str:
    dark = colour in ("#ffffff", "#ef7d00", "#9e9e9e")
    return (draw.rect(x - 4, y - 4, 8, 8, colour, "#333", 0.6)
            + draw.text(x, y + 2, letter, 5.5,
                        fill="#000" if dark else "#fff", extra=' font-weight="bold"'))


def _space(x: int, y: int) -> str:
    return draw.rect(x - 4, y - 4, 8, 8, "#fff", "#999", 0.5)


def _metropolis(x: int, y: int, colour: str) -> str:
    return (draw.rect(x - 7, y - 6, 14, 12, "#757575", colour, 1.6, 1)
            + _number(x, y, "M", 7))


def _metropolis_square(x: int, y: int) -> str:
    return (f'<rect x="{x - 5}" y="{y - 5}" width="10" height="10" fill="none" '
            f'stroke="{METRO_SQUARE}" stroke-width="1" stroke-dasharray="2 1.5"/>')


def _monument(x: int, y: int) -> str:
    return draw.polygon(((x - 5, y - 1), (x, y - 6), (x + 5, y - 1), (x + 5, y + 5),
                         (x - 5, y + 5)), "#b08d57", "#4e3b1f", 0.6)


def _artifact(x: int, y: int) -> str:
    return draw.diamond(x, y, 4.5, GOLD, "#4e3b1f")


def _figure(x: int, y: int, colour: str, label: str) -> str:
    return draw.circle(x, y, 7.5, FIGURE, colour, 1.8) + _number(x, y, label, 6)


# --- the pieces of the view --------------------------------------------------------------------

def _name(c: Components, cid: str) -> str:
    try:
        return str(c.by_id(cid).name)
    except KeyError:
        return cid


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _row(x: int, n: int, step: int) -> list[int]:
    """The x of ``n`` pieces ``step`` apart, centred on ``x``."""
    left = x - (n - 1) * step // 2
    return [left + i * step for i in range(n)]


def _territories(c: Components, board: Board, lay: _Layout, view: Mapping[str, Any],
                 colours: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """Land fills (under the borders) and each territory's group of pieces (over them)."""
    squares_matter = not all(t.metropolis_square for t in board.territories.values())
    fills: dict[str, list[str]] = {}
    for pos, (kind, tid) in sorted(lay.owner.items()):
        if kind == "territory":
            owner = str(view["territories"].get(tid, {}).get("owner", ""))
            fill = _tint(colours.get(owner, NOBODY)) if owner else LAND
            fills.setdefault(fill, []).append(_hexagon(*pos))
    under = [f'<path d="{"".join(paths)}" fill="{fill}"/>' for fill, paths in sorted(
        fills.items())]
    out = []
    for tid, t in sorted(board.territories.items()):
        x: Mapping[str, Any] = view["territories"].get(tid, {})
        owner = str(x.get("owner", ""))
        colour = colours.get(owner, NOBODY)
        cx, cy = lay.anchors[tid]
        tip = [f"{t.name} ({tid}): {owner or 'nobody'}"]
        pieces = []
        units = [(k, int(x.get(k, 0)), f) for k, f in (("troops", _troops),
                                                       ("undead", _undead),
                                                       ("titans", _titans))]
        units += [(k, len(x.get(k, [])), f) for k, f in (("heroes", _heroes),
                                                         ("egyptians", _egyptians))]
        shown = [(k, n, f) for k, n, f in units if n]
        for (_, n, f), ux in zip(shown, _row(cx, len(shown), 14), strict=True):
            pieces.append(f(ux, cy + 3, colour, n))
        words = {"troops": "troop", "undead": "undead troop", "titans": "Titan"}
        tip += [_plural(n, words[k]) for k, n, _ in shown if k in words]
        tip += [_name(c, h) for k in ("heroes", "egyptians") for h in x.get(k, [])]
        # The building row: the Metropolis, the spaces with their buildings, monuments and
        # artifacts.
        row: list[tuple[int, draw.Symbol]] = []
        if x.get("metropolis"):
            row.append((16, partial(_metropolis, colour=colour)))
            tip.append("a Metropolis")
        elif squares_matter and t.metropolis_square:
            row.append((12, _metropolis_square))
            tip.append("a Metropolis square")
        buildings = list(x.get("buildings", []))
        for b in buildings:
            bc = c.buildings.get(b)
            fill = BUILDING_COLOURS.get(bc.colour if bc else "", NOBODY)
            letter = BUILDING_LETTERS.get(b, _name(c, b)[:1].upper())
            row.append((10, partial(_building, colour=fill, letter=letter)))
        row += [(10, _space)] * max(t.building_spaces - len(buildings), 0)
        if buildings:
            tip.append(", ".join(_name(c, b) for b in buildings))
        if t.building_spaces > len(buildings):
            tip.append(_plural(t.building_spaces - len(buildings), "free building space"))
        row += [(11, _monument)] * len(x.get("monuments", []))
        row += [(10, _artifact)] * len(x.get("artifacts", []))
        tip += [_name(c, m) for k in ("monuments", "artifacts") for m in x.get(k, [])]
        if row:
            total = sum(w for w, _ in row)
            px = cx - total // 2
            for w, symbol in row:
                pieces.append(symbol(px + w // 2, cy + 17))
                px += w
        markers = int(x.get("prosperity", 0))
        if t.prosperity or markers:
            tip.append(f"{t.prosperity} printed cornucopia(s)"
                       + (f", {_plural(markers, 'prosperity marker')}" if markers else ""))
        first = cx - 3 * (t.prosperity - 1) + 6 * t.prosperity
        for i in range(markers):
            pieces.append(_cornucopia(first + 6 * i, cy - 21, marker=True))
        if x.get("necropolis_gold"):
            tip.append(f"{x['necropolis_gold']} gold on the Necropolis")
        name = draw.text(cx, cy - 8, t.name, 8.5, fill="#1b1b1b", halo=True,
                         extra=' font-weight="bold"')
        out.append(f'<g class="territory" data-territory="{draw.esc(tid)}" '
                   f'data-owner="{draw.esc(owner)}">{draw.tooltip("; ".join(tip))}'
                   + name + "".join(pieces) + "</g>")
    return under, out


def _fleets(board: Board, lay: _Layout, view: Mapping[str, Any],
            colours: Mapping[str, str]) -> list[str]:
    out = []
    for sid, x in sorted(view["seas"].items()):
        if sid not in board.seas:
            continue
        fleets, undead = int(x.get("fleets", 0)), int(x.get("undead_fleets", 0))
        if not fleets and not undead:
            continue
        owner = str(x.get("owner", ""))
        colour = colours.get(owner, NOBODY)
        cx, cy = lay.anchors[sid]
        tip = f"{sid}: {_plural(fleets, 'fleet')} of {owner or 'nobody'}" + (
            f", {_plural(undead, 'undead fleet')}" if undead else "")
        marks = []
        spots = _row(cx + 4, (1 if fleets else 0) + (1 if undead else 0), 22)
        if fleets:
            marks.append(_fleet(spots[0], cy + 2, colour, fleets))
        if undead:
            marks.append(_fleet(spots[-1], cy + 2, colour, undead, undead=True))
        out.append(f'<g class="fleet" data-sea="{draw.esc(sid)}" data-owner="{draw.esc(owner)}">'
                   f"{draw.tooltip(tip)}{''.join(marks)}</g>")
    return out


def _initials(name: str) -> str:
    words = [w for w in name.replace("(", " ").replace(")", " ").split() if w != "The"]
    return (words[0][:2] if words else "?").title()


def _figures(c: Components, board: Board, lay: _Layout, view: Mapping[str, Any],
             colours: Mapping[str, str]) -> list[str]:
    out = []
    here: dict[str, int] = {}
    for fid, x in sorted(view.get("figures", {}).items()):
        where = str(x.get("where", ""))
        if where not in lay.anchors:
            continue
        n = here.get(where, 0)
        here[where] = n + 1
        cx, cy = lay.anchors[where]
        # Right of the territory's name (its width guessed from its letters), or of the
        # sea's fleets.
        label = board.territories[where].name if where in board.territories else "fleets"
        dx = max(20, round(len(label) * 2.6) + 9)
        owner = str(x.get("owner", ""))
        name = _name(c, fid)
        tip = f"{name} of {owner} on {where} (since cycle {x.get('cycle', '?')})"
        out.append(f'<g class="figure" data-figure="{draw.esc(fid)}">{draw.tooltip(tip)}'
                   + _figure(cx + dx, cy - 11 + 16 * n, colours.get(owner, NOBODY),
                             _initials(name)) + "</g>")
    return out


# --- the side panel --------------------------------------------------------------------------

def _panel(c: Components, view: Mapping[str, Any], player: str | None,
           colours: Mapping[str, str], left: int) -> tuple[str, int]:
    out = ['<g class="panel">']
    y = MARGIN + 4
    line = 13

    def heading(label: str) -> None:
        nonlocal y
        y += 6
        out.append(draw.text(left, y, label, 9, anchor="start", extra=' font-weight="bold"'))
        y += line

    def item(label: str, x: int = left, colour: str = "#000", bold: bool = False) -> None:
        nonlocal y
        out.append(draw.text(x, y, label, 8, anchor="start", fill=colour,
                             extra=' font-weight="bold"' if bold else ""))
        y += line

    out.append(draw.text(left, y + 6, f"Cycle {view.get('cycle', 0)}", 10, anchor="start",
                         extra=' font-weight="bold"'))
    y += line + 4
    heading("Players")
    terr = view.get("territories", {})
    teams = view["game"].get("teams") or {}
    for p in view["game"]["players"]:
        mets = sum(1 for x in terr.values() if x.get("owner") == p and x.get("metropolis"))
        out.append(draw.rect(left, y - 7, 10, 8, colours[p], "#fff", 0.5, 1.5))
        label = p + (" (you)" if p == player else "") + (f", team {teams[p]}" if p in teams
                                                          else "")
        label += f": {_plural(mets, 'Metropolis')}".replace("Metropoliss", "Metropolises")
        if p in view.get("eliminated", []):
            label += " (out)"
        item(label, left + 14, bold=p == player)
    heading("Gods (Cycle 4, 7)")
    auction = view.get("auction") or {}
    holders = auction.get("holders", {})
    pillars = view.get("pillars", {})
    acting = view.get("acting") or {}
    queue = acting.get("queue", [])
    index = int(acting.get("index", 0))
    now = queue[index][0] if view.get("step") == "act" and index < len(queue) else ""
    for n, god in enumerate([*view["gods"]["track"], "apollo"], 1):
        if god in holders:
            who = pillars.get(holders[god]["pillar"], holders[god]["pillar"])
            text = f"{_name(c, god)}: {who}, {holders[god]['amount']} gold"
        elif god == "apollo" and auction.get("apollo"):
            who = ", ".join(pillars.get(x, x) for x in auction["apollo"])
            text = f"Apollo: {who}"
        else:
            text = _name(c, god) if god != "apollo" else "Apollo"
        mark = "> " if god == now else ""
        item(f"{mark}{n}. {text}", bold=god == now)
    hades = view.get("hades", {})
    item(("Hades in play" if hades.get("active") else "Hades")
         + f": column {hades.get('column', 0)} of {c.rules.hades_threshold}")
    heading("Creature track (Cycle 1)")
    track = view.get("creature_track", {})
    for price, card in zip(c.track.prices, track.get("slots", []), strict=False):
        item(f"{price} gold: {_name(c, card) if card else 'empty'}")
    item(f"deck: {track.get('deck_size', 0)} cards", colour="#555")
    out.append("</g>")
    return "".join(out), y


# --- the legend ------------------------------------------------------------------------------

def _legend(view: Mapping[str, Any], player: str | None, colours: Mapping[str, str]) -> str:
    def chip(fill: str) -> draw.Symbol:
        return lambda x, y: draw.rect(x - 5, y - 4, 10, 8, fill, COAST, 0.5)

    grey = NOBODY
    entries: list[tuple[draw.Symbol, str]] = [
        (chip(LAND), "territory nobody holds (its name, in small letters, is its id in "
                     "orders)"),
        (chip(SEA), "sea space (its id below)"),
        (lambda x, y: _cornucopia(x, y), "printed cornucopia"),
        (lambda x, y: _cornucopia(x, y, marker=True), "prosperity marker"),
        (lambda x, y: _troops(x, y, grey, 2), "troops"),
        (lambda x, y: _undead(x, y, grey, 1), "undead troops (Hades)"),
        (lambda x, y: _titans(x, y, grey, 1), "Titans"),
        (lambda x, y: _heroes(x, y, grey, 1), "Heroes"),
        (lambda x, y: _egyptians(x, y, grey, 1), "Egyptian reinforcements"),
        (lambda x, y: _fleet(x + 2, y + 3, grey, ""), "fleets (number beside)"),
        (lambda x, y: _fleet(x + 2, y + 3, grey, "", undead=True), "undead fleets"),
        (lambda x, y: _space(x, y), "free building space"),
    ]
    for bid in ("port", "fortress", "temple", "university", "theater", "necropolis"):
        colour = {"port": "blue", "fortress": "orange", "temple": "white",
                  "university": "green", "theater": "purple", "necropolis": "black"}[bid]
        entries.append((partial(_building, colour=BUILDING_COLOURS[colour],
                                letter=BUILDING_LETTERS[bid]), bid.title()))
    entries += [
        (lambda x, y: _metropolis(x, y, grey), "Metropolis"),
        (lambda x, y: _metropolis_square(x, y), "Metropolis square (Team 5.2)"),
        (lambda x, y: _monument(x, y), "monument"),
        (lambda x, y: _artifact(x, y), "artifact"),
        (lambda x, y: _figure(x, y, grey, "Po"), "creature figure (Cycle 8.2)"),
    ]
    for p in view["game"]["players"]:
        entries.append((chip(_tint(colours[p])), f"{p}" + (" (you)" if p == player else "")))
    return draw.legend_list(entries, 11)


def _focus(board: Board, lay: _Layout, view: Mapping[str, Any],
           player: str | None) -> tuple[list[draw.Focus], str]:
    """What the close-ups show, and a sentence that says so: the player's territories,
    fleets and creature figures; the gazette's (or a player's who has none): everyone's."""
    def around(where: str, label: str) -> draw.Focus:
        x, y = lay.anchors[where]
        return draw.Focus((x - W - 8, y - R + 2, x + W + 8, y + R - 4), label)

    def things(who: set[str]) -> list[draw.Focus]:
        out = [around(t, board.territories[t].name) for t, x in sorted(
            view["territories"].items()) if t in board.territories and x.get("owner") in who]
        out += [around(s, f"sea {s}") for s, x in sorted(view["seas"].items())
                if s in board.seas and x.get("owner") in who
                and (x.get("fleets") or x.get("undead_fleets"))]
        out += [around(str(x["where"]), "a creature figure") for _, x in sorted(
            view.get("figures", {}).items()) if x.get("owner") in who
            and x.get("where") in lay.anchors]
        return out

    if player is not None and (mine := things({player})):
        return mine, "Close-ups of your territories, fleets and figures:"
    return things(set(view["game"]["players"])), "Close-ups of the held parts of the board:"


def _caption(board: Board, lay: _Layout, box: draw.Box, shown: list[draw.Focus]) -> str:
    """What a close-up was made for, and the other territories it shows (their names'
    points are in it)."""
    x, y, w, h = box
    names = list(dict.fromkeys(f.label for f in shown))
    also = [t.name for tid, t in sorted(board.territories.items())
            if x <= lay.anchors[tid][0] <= x + w and y <= lay.anchors[tid][1] <= y + h
            and t.name not in names]
    return ("around " + ", ".join(names) if names else "part of the map") + (
        f" (also here: {', '.join(also)})" if also else "")


def svg(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    """The board as ``player`` (``None``: the public) sees it in ``view``: the overview with
    its side panel, its legend, and close-ups of the panel and of the player's pieces (the
    gazette: everyone's)."""
    board = load_board(view["game"]["board"], len(view["game"]["players"]))
    base = _static(board)
    lay = base.layout
    colours = _colours(view)
    under, territories = _territories(c, board, lay, view, colours)
    panel, panel_bottom = _panel(c, view, player, colours, lay.width + 8)
    width = lay.width + PANEL
    height = max(lay.height, panel_bottom) + 4
    body = "\n".join(b for b in [base.under, *under, base.over, *territories,
                                 *_fleets(board, lay, view, colours),
                                 *_figures(c, board, lay, view, colours), panel] if b) + "\n"
    title = (f"Cyclades, {board.title}, cycle {view.get('cycle', 0)}"
             + (f", as {player} sees it" if player else ", public view"))
    scale = draw.scale_for(draw.smallest_text(body))
    focus, intro = _focus(board, lay, view, player)
    tiles = draw.cover(focus, draw.tile(scale), (lay.width, lay.height), draw.MAX_TILES - 1)
    closeups = [draw.Closeup(box, scale, _caption(board, lay, box, shown)) for box, shown in tiles]
    # The side panel, at the scale of its own (larger) texts: players, gods, creature track.
    closeups.append(draw.Closeup((lay.width, 0, PANEL, panel_bottom), draw.scale_for(
        draw.smallest_text(panel)), "the players, the gods as bid, the creature track"))
    return draw.board(body, width, height, title, _legend(view, player, colours), closeups,
                      intro)

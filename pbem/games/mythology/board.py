"""The Mythology map as an inline SVG picture for HTML reports and the public site.

The map is drawn from ``components.map`` (the hexes of ``data/map.toml``): every hex coloured
by its Area (land Areas in earth tones, the Sea, Lake Tritonus and the River Ocean in blues,
islands in sand), forests and mountains tinted, rivers and the strait in blue, Area borders in
dark lines, Area names, and rulers with the column and row numbers used by the orders. That
part is the same in every report and is drawn once per process.

The pieces are drawn from the ``view`` given and nothing else, so a picture can show only what
its reader may see: gods in their Areas, Heroes, Monsters and Lesser Evil counters on their
hexes with their ships, Prizes and Helpers (lying on a hex, or carried, beside the unit). In a
player's own picture the Heroes they have spent Power Points on (their own Log Sheet totals,
``my_hero_totals`` of their view) are ringed in red.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pbem.core import svg as draw
from pbem.games.mythology.components import Components, HexId

GRID = draw.HexGrid(size=8, half=7, odd_down=True, left=14, top=10)

LAND = ("#e8d8ab", "#cfe0b0", "#efc7a0", "#d8cce6", "#c4dcc9", "#f2dc9a", "#e5c0bd")
WATER = {"sea": "#a9d0ec", "lake": "#8cc4e4", "ocean": "#79abd6"}
ISLAND = "#fff1b8"
FOREST = "#2f6b2a"
MOUNTAIN = "#6b4f2e"
RIVER = "#2f6fba"
SEATS = ("#c62828", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#ad1457",
         "#4e342e", "#9e9d24", "#455a64")
HERO, MONSTER, LESSER, PIRATE = "#ffffff", "#7a1f1f", "#e07b00", "#37474f"
PRIZE, HELPER, SHIP, YOURS = "#f2c200", "#8e44ad", "#1f5fa8", "#d00000"


@dataclass(frozen=True)
class _Static:
    width: int
    height: int
    body: str     # under the pieces: the hexes (each with its tooltip), features, names
    numbers: str  # over the pieces: every hex's number
    labels: Mapping[str, tuple[int, int]]


#: The hex numbers' size and where they stand (their baseline, below the hex's centre): the
#: smallest text of the map, which sets the close-ups' scale (pbem.core.svg.scale_for).
NUMBER_SIZE, NUMBER_DROP = 2.8, 6.8


def _cell(h: HexId) -> draw.Cell:
    return int(h[:2]), int(h[2:])


def _colours(c: Components) -> dict[str, str]:
    """A colour for each land Area, different from its neighbours' where the palette allows
    (greedy, in Area id order, so it is the same every time)."""
    out: dict[str, str] = {}
    for aid in sorted(a for a, x in c.map.areas.items() if not x.is_water):
        taken = {out.get(n) for n in c.map.adjacent_areas(aid)}
        free = [col for col in LAND if col not in taken]
        out[aid] = (free or LAND)[0]
    return out


def _label_point(c: Components, aid: str) -> tuple[int, int]:
    """Where an Area's name (and its gods) go: the hex of the Area nearest the middle of its
    hexes; for an Area that surrounds its middle (the River Ocean), its top edge."""
    hexes = c.map.areas[aid].hexes
    points = [GRID.centre(_cell(h)) for h in hexes]
    mx = sum(x for x, _ in points) // len(points)
    my = sum(y for _, y in points) // len(points)
    best = min(points, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p))
    if (best[0] - mx) ** 2 + (best[1] - my) ** 2 > (4 * GRID.size) ** 2:
        best = min(points, key=lambda p: (p[1], abs(p[0] - mx), p))
    return best


def _hex_tip(c: Components, h: HexId) -> str:
    """A hex's tooltip: its number (the orders' name for it), its Area and what is on it."""
    m, x = c.map, c.map.hexes[h]
    things = [m.islands[x.island].name if x.island else "",
              m.forests[x.forest].name if x.forest else "",
              m.mountains[x.mountain].name if x.mountain else "",
              m.rivers[x.river].name if x.river else ""]
    return ", ".join([f"hex {h}: {m.areas[x.area].name}", *(t for t in things if t)])


@cache
def _static(c: Components) -> _Static:
    m = c.map
    width, height = GRID.extent(m.columns, m.rows)
    colours = _colours(c)
    out = []
    # Each hex its own shape with its tooltip (hex number, Area, island, forest, mountain,
    # river), grouped by colour; what is drawn over them lets the pointer through.
    fills: dict[str, list[str]] = {}
    for h, cell in sorted(m.hexes.items()):
        area = m.areas[cell.area]
        fill = ISLAND if cell.island else WATER.get(area.kind, colours.get(area.id, LAND[0]))
        fills.setdefault(fill, []).append(f'<path d="{GRID.hexagon(_cell(h))}">'
                                          f"{draw.tooltip(_hex_tip(c, h))}</path>")
    for fill, paths in sorted(fills.items()):
        out.append(f'<g fill="{fill}" stroke="#8a8a8a" stroke-width="0.3">'
                   + "".join(paths) + "</g>")
    for features, colour in ((m.forests, FOREST), (m.mountains, MOUNTAIN)):
        tint = "".join(GRID.hexagon(_cell(h)) for f in sorted(features)
                       for h in features[f].hexes)
        if tint:
            out.append(f'<path d="{tint}" fill="{colour}" fill-opacity="0.3" '
                       'pointer-events="none"/>')
    for rid in sorted(m.rivers):
        pts = " ".join(f"{x},{y}" for x, y in (GRID.centre(_cell(h))
                                               for h in m.rivers[rid].hexes))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{RIVER}" stroke-width="1.6" '
                   f'stroke-linecap="round" stroke-linejoin="round">'
                   f"{draw.tooltip(m.rivers[rid].name)}</polyline>")
    for sid in sorted(m.straits):
        for a, b in m.straits[sid].hexsides:
            (x1, y1), (x2, y2) = GRID.side(_cell(a), _cell(b))
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{RIVER}" '
                       f'stroke-width="2.5">{draw.tooltip(m.straits[sid].name)}</line>')
    region = {_cell(h): x.area for h, x in m.hexes.items()}
    out.append(f'<path d="{GRID.borders(region)}" fill="none" stroke="#222" '
               'stroke-width="1.1" stroke-linecap="round" pointer-events="none"/>')
    out.append('<g pointer-events="none">')
    for column in range(5, m.columns + 1, 5):
        x, _ = GRID.centre((column, 1))
        out.append(draw.text(x, 7, f"{column:02d}", 5, fill="#555"))
    for row in range(5, m.rows + 1, 5):
        _, y = GRID.centre((2, row))
        out.append(draw.text(7, y + 2, f"{row:02d}", 5, fill="#555"))
    labels = {aid: _label_point(c, aid) for aid in sorted(m.areas)}
    for aid, (x, y) in labels.items():
        out.append(draw.text(x, y - 2, m.areas[aid].name, 6, fill="#303030", halo=True,
                             extra=' font-style="italic" opacity="0.85"'))
    out.append("</g>")
    numbers = [f'<g class="hexnum" font-size="{NUMBER_SIZE}" text-anchor="middle" '
               'fill="#333" stroke="#fff" stroke-width="0.5" stroke-opacity="0.8" '
               'paint-order="stroke" pointer-events="none">']
    for h in sorted(m.hexes):
        x, y = GRID.centre(_cell(h))
        numbers.append(f'<text x="{x}" y="{y + NUMBER_DROP:g}">{h}</text>')
    numbers.append("</g>")
    return _Static(width, height, "\n".join(out), "".join(numbers), labels)


# --- the pieces ------------------------------------------------------------------------------

def _hero(x: float, y: float, scale: float, number: int, own: bool) -> str:
    r = 4.6 * scale
    ring = draw.circle(round(x), round(y), r, HERO, YOURS if own else "#000",
                       1.4 if own else 0.6)
    return ring + _number(x, y, number, scale, "#000")


def _monster(x: float, y: float, scale: float, number: int) -> str:
    r = 4.3 * scale
    return draw.rect(round(x - r, 1), round(y - r, 1), round(2 * r, 1), round(2 * r, 1),
                     MONSTER) + _number(x, y, number, scale, "#fff")


def _lesser(x: float, y: float, scale: float, number: int, pirate: bool) -> str:
    return draw.diamond(round(x, 1), round(y, 1), round(5.4 * scale, 1),
                        PIRATE if pirate else LESSER) + _number(x, y, number, scale, "#fff")


def _number(x: float, y: float, number: int, scale: float, fill: str) -> str:
    size = max(round((4.6 if number < 10 else 4.2) * scale, 1), NUMBER_SIZE)
    return (f'<text x="{round(x, 1):g}" y="{round(y + size * 0.36, 1):g}" '
            f'font-size="{size:g}" font-weight="bold" text-anchor="middle" '
            f'fill="{fill}">{number}</text>')


def _ship(x: float, y: float, scale: float) -> str:
    w, top = 5.5 * scale, y + 3.6 * scale
    return draw.polygon(((round(x - w, 1), round(top, 1)), (round(x + w, 1), round(top, 1)),
                         (round(x + w * 0.6, 1), round(top + 2.4 * scale, 1)),
                         (round(x - w * 0.6, 1), round(top + 2.4 * scale, 1))), SHIP, SHIP, 0.3)


def _prize(x: float, y: float, r: float = 2.6) -> str:
    return draw.diamond(round(x, 1), round(y, 1), r, PRIZE, "#6d5600")


def _helper(x: float, y: float, r: float = 2.4) -> str:
    return draw.triangle(round(x, 1), round(y, 1), r, HELPER, "#3d1450")


#: Where the units of one hex stand, by how many there are (offsets in map units).
_SPOTS = {1: ((0.0, 0.0),), 2: ((-2.9, 0.0), (2.9, 0.0)),
          3: ((-2.9, -1.8), (2.9, -1.8), (0.0, 2.8)),
          4: ((-2.9, -2.6), (2.9, -2.6), (-2.9, 2.6), (2.9, 2.6))}


def _spots(n: int) -> tuple[float, tuple[tuple[float, float], ...]]:
    if n in _SPOTS:
        return (1.0 if n == 1 else 0.6), _SPOTS[n]
    ring = tuple((round(3.5 * _COS[i % 6], 1), round(3.5 * _SIN[i % 6], 1)) for i in range(n))
    return 0.45, ring


_COS = (1.0, 0.5, -0.5, -1.0, -0.5, 0.5)
_SIN = (0.0, 0.866, 0.866, 0.0, -0.866, -0.866)


def _units(c: Components, view: Mapping[str, Any], out: list[str]) -> None:
    """Heroes, Monsters and Lesser Evil counters on the board, with what they carry."""
    ships = {int(u) for u in view.get("ships", [])}
    own = {int(h) for h, t in view.get("my_hero_totals", {}).items() if t > 0}
    carried: dict[int, list[str]] = {}
    for pid, x in sorted(view.get("prizes", {}).items()):
        if x.get("holder"):
            carried.setdefault(int(x["holder"]), []).append(f"P:{pid}")
    for hid, x in sorted(view.get("helpers", {}).items()):
        if x.get("holder"):
            carried.setdefault(int(x["holder"]), []).append(f"H:{hid}")
    by_hex: dict[str, list[tuple[str, int]]] = {}
    for table in ("heroes", "monsters", "lesser"):
        for u, x in sorted(view.get(table, {}).items(), key=lambda kv: int(kv[0])):
            if x.get("status") == "board" and x.get("hex") in c.map.hexes:
                by_hex.setdefault(x["hex"], []).append((table, int(u)))
    for h, units in sorted(by_hex.items()):
        cx, cy = GRID.centre(_cell(h))
        scale, spots = _spots(len(units))
        for (table, u), (dx, dy) in zip(units, spots, strict=True):
            x, y = cx + dx, cy + dy
            things = carried.get(u, [])
            names = [c.prizes[t[2:]].name if t[0] == "P" else c.helpers[t[2:]].name
                     for t in things]
            if table == "heroes":
                kind, name = "hero", c.heroes[u].name
                mark = _hero(x, y, scale, u, u in own)
            elif table == "monsters":
                kind, name = "monster", c.monsters[u].name
                mark = _monster(x, y, scale, u)
            else:
                pirate = c.lesser[u].pirate
                kind, name = ("pirate" if pirate else "lesser"), c.lesser[u].name
                mark = _lesser(x, y, scale, u, pirate)
            extras = ["ship" if u in ships else "", *names]
            if u in own:
                extras.append(f"your Log Sheet total {view['my_hero_totals'][str(u)]}")
            note = ", ".join(e for e in extras if e)
            tip = f"{name} ({u}), hex {h}" + (f", with {note}" if note else "")
            piece = [f'<g class="unit {kind}" data-unit="{draw.esc(u)}">{draw.tooltip(tip)}']
            if u in ships:
                piece.append(_ship(x, y, scale))
            piece.append(mark)
            for n, t in enumerate(things):
                bx = x + (3.6 + 2.2 * (n // 2)) * scale * (1 if t[0] == "P" else -1)
                piece.append(_prize(bx, y - 3.6 * scale, 2.4 * max(scale, 0.7)) if t[0] == "P"
                             else _helper(bx, y - 3.6 * scale, 2.2 * max(scale, 0.7)))
            piece.append("</g>")
            out.append("".join(piece))


def _lying(c: Components, view: Mapping[str, Any], out: list[str]) -> None:
    """Prizes (top right of their hex) and Helpers (top left) that no unit carries."""
    for pid, x in sorted(view.get("prizes", {}).items()):
        if x.get("hex") in c.map.hexes and not x.get("holder") and not x.get("off_board"):
            cx, cy = GRID.centre(_cell(x["hex"]))
            tip = f"Prize {c.prizes[pid].name}, hex {x['hex']} (Defense {c.prizes[pid].defense})"
            out.append(f'<g class="prize" data-prize="{draw.esc(pid)}">{draw.tooltip(tip)}'
                       f"{_prize(cx + 4, cy - 3.5)}</g>")
    for hid, x in sorted(view.get("helpers", {}).items()):
        if x.get("hex") in c.map.hexes and not x.get("holder") and not x.get("sacrificed"):
            cx, cy = GRID.centre(_cell(x["hex"]))
            tip = f"Helper {c.helpers[hid].name}, hex {x['hex']}"
            out.append(f'<g class="helper" data-helper="{draw.esc(hid)}">{draw.tooltip(tip)}'
                       f"{_helper(cx - 4, cy - 3.5)}</g>")


def _occupied(c: Components, view: Mapping[str, Any]) -> set[tuple[int, int]]:
    """The centres of the hexes that hold a unit, a Prize or a Helper."""
    hexes = {x.get("hex") for table in ("heroes", "monsters", "lesser")
             for x in view.get(table, {}).values() if x.get("status") == "board"}
    hexes |= {x.get("hex") for table in ("prizes", "helpers")
              for x in view.get(table, {}).values()}
    return {GRID.centre(_cell(h)) for h in hexes if h in c.map.hexes}


def _badge_spot(c: Components, area: str, label: tuple[int, int], size: tuple[float, float],
                occupied: set[tuple[int, int]]) -> tuple[int, int]:
    """Where a row of god badges ``size`` (width, height) goes in ``area``: the hex nearest
    the Area's name whose box covers no piece, so that no unit hides under a god."""
    lx, ly = label
    w, h = size[0] / 2 + GRID.size, size[1] + GRID.half
    spots = sorted((GRID.centre(_cell(x)) for x in c.map.areas[area].hexes),
                   key=lambda p: ((p[0] - lx) ** 2 + (p[1] - ly) ** 2, p))
    for x, y in spots:
        if not any(abs(ox - x) < w and -GRID.half < oy - y < h for ox, oy in occupied):
            return x, y
    return label


def _gods(c: Components, view: Mapping[str, Any], player: str | None,
          labels: Mapping[str, tuple[int, int]], out: list[str]) -> dict[str, draw.Focus]:
    """Each god counter as a badge in its seat's colour, near its Area's name and clear of
    the pieces (a god is in an Area, not on a hex: 203). Returns each player's badge."""
    badges: dict[str, draw.Focus] = {}
    seats = list(view.get("seats", []))
    by_area: dict[str, list[str]] = {}
    for p in seats:
        area = view.get("god_area", {}).get(p)
        if area in labels:
            by_area.setdefault(area, []).append(p)
    occupied = _occupied(c, view)
    for area, players in sorted(by_area.items()):
        names = {p: c.gods[view["gods"][p]].name for p in players}
        widths = {p: len(names[p]) * 3.1 + 5 for p in players}
        rows = [players[i:i + 2] for i in range(0, len(players), 2)]
        block = max(sum(widths[p] + 1.5 for p in row) for row in rows)
        lx, ly = _badge_spot(c, area, labels[area], (block, 8.5 * len(rows)), occupied)
        for n, row in enumerate(rows):
            x = lx - (sum(widths[p] for p in row) + 1.5 * (len(row) - 1)) / 2
            y = ly + 1 + 8.5 * n
            for p in row:
                w = widths[p]
                colour = SEATS[seats.index(p) % len(SEATS)]
                mine = p == player
                tip = f"god {names[p]} ({p}) in {c.map.areas[area].name}"
                out.append(f'<g class="god" data-player="{draw.esc(p)}">{draw.tooltip(tip)}'
                           + draw.rect(round(x, 1), y, round(w, 1), 7.4, colour,
                                       "#000" if mine else "#fff", 1.2 if mine else 0.5, 2)
                           + draw.text(round(x + w / 2, 1), round(y + 5.4, 1), names[p], 5.4,
                                       fill="#fff", extra=' font-weight="bold"') + "</g>")
                badges[p] = draw.Focus((round(x, 1), y, round(x + w, 1), y + 7.4),
                                       f"god {names[p]}")
                x += w + 1.5
    return badges


def _badge(colour: str) -> draw.Symbol:
    return lambda x, y: draw.rect(x - 5, y - 3.5, 10, 7, colour, "#fff", 0.5, 2)


def _legend(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    def chip(fill: str, opacity: str = "") -> draw.Symbol:
        return lambda x, y: (f'<rect x="{x - 4}" y="{y - 3}" width="8" height="6" '
                             f'fill="{fill}"{opacity} stroke="#8a8a8a" stroke-width="0.3"/>')

    entries: list[tuple[draw.Symbol, str]] = [
        (chip(LAND[0]), "a land Area (each its own colour)"),
        (chip(WATER["sea"]), "The Sea (two Areas)"),
        (chip(WATER["lake"]), "Lake Tritonus"),
        (chip(WATER["ocean"]), "The River Ocean"),
        (chip(ISLAND), "island hex"),
        (chip(FOREST, ' fill-opacity="0.45"'), "forest hex"),
        (chip(MOUNTAIN, ' fill-opacity="0.45"'), "mountain hex"),
        (lambda x, y: f'<line x1="{x - 5}" y1="{y}" x2="{x + 5}" y2="{y}" stroke="{RIVER}" '
         'stroke-width="1.6"/>', "river, strait"),
        (lambda x, y: f'<line x1="{x - 5}" y1="{y}" x2="{x + 5}" y2="{y}" stroke="#222" '
         'stroke-width="1.1"/>', "Area border"),
        (lambda x, y: draw.text(x, y + 2, "0912", 5.5, fill="#333"),
         "hex number (as in the orders)"),
        (lambda x, y: _hero(x, y, 1, 1, False), "Hero (number)"),
        (lambda x, y: _monster(x, y, 1, 7), "Monster (number)"),
    ]
    if "lesser" in view:
        entries.append((lambda x, y: _lesser(x, y, 0.9, 5, False), "Lesser Evil (303)"))
        entries.append((lambda x, y: _lesser(x, y, 0.9, 9, True), "Pirates (303)"))
    entries += [
        (lambda x, y: _ship(x, y - 4, 1), "with a ship (215)"),
        (lambda x, y: _prize(x, y, 3), "Prize (carried: beside its unit)"),
        (lambda x, y: _helper(x, y, 3), "Helper (carried: beside its unit)"),
    ]
    if player is not None and "my_hero_totals" in view:
        entries.append((lambda x, y: _hero(x, y, 1, 1, True),
                        "a Hero you spent Power Points on"))
    seats = list(view.get("seats", []))
    for n, p in enumerate(seats):
        god = c.gods[view["gods"][p]].name
        entries.append((_badge(SEATS[n % len(SEATS)]),
                        f"god {god}: {p}" + (" (you)" if p == player else "")))
    return draw.legend_list(entries, 7)


def _focus(c: Components, view: Mapping[str, Any], player: str | None,
           badges: Mapping[str, draw.Focus]) -> tuple[list[draw.Focus], str]:
    """What the close-ups show, and a sentence that says so: a player's Heroes they spent
    Power Points on and their god; the gazette's (or a player's without those): every piece
    on the board and every god."""
    def hexes(units: Any) -> list[draw.Focus]:
        out = []
        for table, u, h in units:
            x, y = GRID.centre(_cell(h))
            name = getattr(c, table)[u].name
            out.append(draw.Focus((x - 2 * GRID.size, y - 2 * GRID.half, x + 2 * GRID.size,
                                   y + 2 * GRID.half), f"{name} ({u}) in {h}"))
        return out

    on_board = [(table, int(u), x["hex"]) for table in ("heroes", "monsters", "lesser")
                for u, x in sorted(view.get(table, {}).items(), key=lambda kv: int(kv[0]))
                if x.get("status") == "board" and x.get("hex") in c.map.hexes]
    if player is not None:
        own = {int(h) for h, t in view.get("my_hero_totals", {}).items() if t > 0}
        mine = hexes((t, u, h) for t, u, h in on_board if t == "heroes" and u in own)
        mine += [badges[player]] if player in badges else []
        if mine:
            return mine, "Close-ups of the Heroes you spent Power Points on and of your god:"
    lying = [x["hex"] for table in ("prizes", "helpers") for _, x in sorted(
        view.get(table, {}).items()) if x.get("hex") in c.map.hexes and not x.get("holder")]
    spots = [(x - GRID.size, y - GRID.half, x + GRID.size, y + GRID.half)
             for x, y in (GRID.centre(_cell(h)) for h in lying)]
    return ([*hexes(on_board), *(draw.Focus(r, "") for r in spots),
             *(badges[p] for p in sorted(badges))],
            "Close-ups of the busiest parts of the board:")


def _caption(c: Components, box: draw.Box, shown: list[draw.Focus]) -> str:
    """The hexes a close-up shows (the columns and rows of those whose middle is in it) and
    the pieces it was made for."""
    x, y, w, h = box
    cells = [_cell(k) for k in c.map.hexes
             if x <= GRID.centre(_cell(k))[0] <= x + w and y <= GRID.centre(_cell(k))[1] <= y + h]
    cols, rows = [a for a, _ in cells], [b for _, b in cells]
    where = (f"hexes of columns {min(cols):02d}-{max(cols):02d}, rows {min(rows):02d}-"
             f"{max(rows):02d}" if cells else "the edge of the map")
    names = [f.label for f in shown if f.label]
    if len(names) > 6:
        names = [*names[:5], f"and {len(names) - 5} more"]
    return where + (f"; {', '.join(names)}" if names else "")


def svg(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    """The board as ``player`` (``None``: the public) sees it in ``view``: the overview, its
    legend, and close-ups of the player's own pieces (the gazette: the busiest parts)."""
    base = _static(c)
    out = [base.body]
    _lying(c, view, out)
    _units(c, view, out)
    out.append(base.numbers)
    badges = _gods(c, view, player, base.labels, out)
    body = "\n".join(out) + "\n"
    turn = view.get("turn", "")
    title = f"The Mythology board, Turn {turn}" + (f", as {player} sees it" if player
                                                   else ", public view")
    scale = draw.scale_for(draw.smallest_text(body))
    focus, intro = _focus(c, view, player, badges)
    tiles = draw.cover(focus, draw.tile(scale), (base.width, base.height))
    closeups = [draw.Closeup(box, scale, _caption(c, box, shown)) for box, shown in tiles]
    return draw.board(body, base.width, base.height, title, _legend(c, view, player),
                      closeups, intro)

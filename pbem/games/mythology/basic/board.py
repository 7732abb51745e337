"""The Basic Game's board as an inline SVG picture for HTML reports and the public site.

The map itself (hexes with their numbers and tooltips, Areas, borders, names) is the
Advanced Game's picture, drawn once per process by :mod:`pbem.games.mythology.board`: of it
this module uses only the pure drawing helpers (the cached map, the hex grid, the counter
shapes, where god badges fit, a close-up's caption), which take components and coordinates,
never an Advanced view; no phase code. On it, from the Basic view alone: Heroes (white
discs) and Monsters (dark red squares) with their numbers, so that the two differ by shape as
well as colour; Prizes (gold diamonds); each god placed this Game Turn as a badge in its
player's colour, clear of the pieces (Basic Play 2A: a god is in an Area, not on a hex).
Every piece carries a ``<title>`` (name, number, hex) and a ``data-`` attribute.

Close-ups (readable on a 390 px phone, :func:`pbem.core.svg.board`): for a player, his god
and the places where units of his side stand next to opposing units or Prizes (where his
Player Turn may fight or capture); for the gazette, or when there is no such place, the
busiest parts of the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core import svg as draw
from pbem.games.mythology import board as art
from pbem.games.mythology.basic.setup import HEROES, MONSTERS
from pbem.games.mythology.components import Components

GRID = art.GRID


def _on_board(c: Components, view: Mapping[str, Any]) -> list[tuple[int, str]]:
    """(unit, hex) of every Hero and Monster on the board, by number."""
    return sorted((int(u), h) for u, h in view.get("units", {}).items() if h in c.map.hexes)


def _prizes(c: Components, view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(Prize, hex) of every Prize still on the board."""
    return [(p, x["hex"]) for p, x in sorted(view.get("prizes", {}).items())
            if x.get("hex") in c.map.hexes]


def _units(c: Components, view: Mapping[str, Any], out: list[str]) -> None:
    by_hex: dict[str, list[int]] = {}
    for u, h in _on_board(c, view):
        by_hex.setdefault(h, []).append(u)
    for h, units in sorted(by_hex.items()):
        cx, cy = GRID.centre(art._cell(h))
        scale, spots = art._spots(len(units))
        for u, (dx, dy) in zip(units, spots, strict=True):
            x, y = cx + dx, cy + dy
            if u in c.heroes:
                kind, mark = "hero", art._hero(x, y, scale, u, False)
                tip = f"Hero {c.heroes[u].name} ({u}), hex {h}"
            else:
                kind, mark = "monster", art._monster(x, y, scale, u)
                tip = f"Monster {c.monsters[u].name} ({u}), hex {h}"
            out.append(f'<g class="unit {kind}" data-unit="{draw.esc(u)}">'
                       f"{draw.tooltip(tip)}{mark}</g>")


def _lying(c: Components, view: Mapping[str, Any], out: list[str]) -> None:
    """The Prizes still on the board, at the top right of their hex."""
    for pid, h in _prizes(c, view):
        cx, cy = GRID.centre(art._cell(h))
        tip = f"Prize {c.prizes[pid].name}, hex {h}"
        out.append(f'<g class="prize" data-prize="{draw.esc(pid)}">{draw.tooltip(tip)}'
                   f"{art._prize(cx + 4, cy - 3.5)}</g>")


def _occupied(c: Components, view: Mapping[str, Any]) -> set[tuple[int, int]]:
    hexes = {h for _, h in _on_board(c, view)} | {h for _, h in _prizes(c, view)}
    return {GRID.centre(art._cell(h)) for h in hexes}


def _gods(c: Components, view: Mapping[str, Any], player: str | None,
          labels: Mapping[str, tuple[int, int]], out: list[str]) -> dict[str, draw.Focus]:
    """Each god placed this Game Turn as a badge in its player's colour, near its Area's
    name and clear of the pieces. Returns each player's badge."""
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
        lx, ly = art._badge_spot(c, area, labels[area],
                                 (sum(widths[p] + 1.5 for p in players), 8.5), occupied)
        x = lx - (sum(widths.values()) + 1.5 * (len(players) - 1)) / 2
        y = ly + 1
        for p in players:
            w = widths[p]
            mine = p == player
            tip = f"god {names[p]} ({p}) in {c.map.areas[area].name} this Game Turn"
            out.append(f'<g class="god" data-player="{draw.esc(p)}">{draw.tooltip(tip)}'
                       + draw.rect(round(x, 1), y, round(w, 1), 7.4, _seat(seats, p),
                                   "#000" if mine else "#fff", 1.2 if mine else 0.5, 2)
                       + draw.text(round(x + w / 2, 1), round(y + 5.4, 1), names[p], 5.4,
                                   fill="#fff", extra=' font-weight="bold"') + "</g>")
            badges[p] = draw.Focus((round(x, 1), y, round(x + w, 1), y + 7.4),
                                   f"god {names[p]}")
            x += w + 1.5
    return badges


def _seat(seats: list[str], player: str) -> str:
    return art.SEATS[seats.index(player) % len(art.SEATS)]


def _legend(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    def chip(fill: str, opacity: str = "") -> draw.Symbol:
        return lambda x, y: (f'<rect x="{x - 4}" y="{y - 3}" width="8" height="6" '
                             f'fill="{fill}"{opacity} stroke="#8a8a8a" stroke-width="0.3"/>')

    seats = list(view.get("seats", []))
    favour = view.get("favour", {})
    sides = {side: ", ".join(p for p in seats if favour.get(p) == side) or "nobody"
             for side in (HEROES, MONSTERS)}
    entries: list[tuple[draw.Symbol, str]] = [
        (chip(art.LAND[0]), "a land Area (each its own colour)"),
        (chip(art.WATER["sea"]), "The Sea (two Areas)"),
        (chip(art.WATER["lake"]), "Lake Tritonus"),
        (chip(art.WATER["ocean"]), "The River Ocean"),
        (chip(art.ISLAND), "island hex"),
        (chip(art.FOREST, ' fill-opacity="0.45"'),
         "forest, mountain, river: no effect in the Basic Game"),
        (lambda x, y: f'<line x1="{x - 5}" y1="{y}" x2="{x + 5}" y2="{y}" stroke="#222" '
         'stroke-width="1.1"/>', "Area border"),
        (lambda x, y: draw.text(x, y + 2, "0912", 5.5, fill="#333"),
         "hex number (as in the orders)"),
        (lambda x, y: art._hero(x, y, 1, 1, False),
         f"Hero (number), moved by {sides[HEROES]}"),
        (lambda x, y: art._monster(x, y, 1, 33),
         f"Monster (number), moved by {sides[MONSTERS]}"),
        (lambda x, y: art._prize(x, y, 3), "Prize"),
    ]
    for p in seats:
        god = c.gods[view["gods"][p]].name
        entries.append((art._badge(_seat(seats, p)),
                        f"god {god}: {p}" + (" (you)" if p == player else "")))
    return draw.legend_list(entries, 7)


def _spot(c: Components, h: str, label: str) -> draw.Focus:
    x, y = GRID.centre(art._cell(h))
    return draw.Focus((x - 2 * GRID.size, y - 2 * GRID.half, x + 2 * GRID.size,
                       y + 2 * GRID.half), label)


def _focus(c: Components, view: Mapping[str, Any], player: str | None,
           badges: Mapping[str, draw.Focus]) -> tuple[list[draw.Focus], str]:
    """What the close-ups show, and a sentence that says so."""
    units = _on_board(c, view)
    prizes = _prizes(c, view)

    def name(u: int) -> str:
        return f"{(c.heroes[u] if u in c.heroes else c.monsters[u]).name} ({u}) in "

    if player is not None and player in view.get("favour", {}):
        heroes = view["favour"][player] == HEROES
        mine = [(u, h) for u, h in units if (u in c.heroes) == heroes]
        targets = {h for u, h in units if (u in c.heroes) != heroes} | {h for _, h in prizes}
        near = [_spot(c, h, name(u) + h) for u, h in mine
                if h in targets or targets.intersection(c.map.neighbours(h))]
        if near:
            return ([*([badges[player]] if player in badges else []), *near],
                    "Close-ups of your god and of the units you favour that stand next to "
                    "opposing units or Prizes:")
    return ([*(_spot(c, h, name(u) + h) for u, h in units),
             *(draw.Focus(_spot(c, h, "").rect, "") for _, h in prizes),
             *(badges[p] for p in sorted(badges))],
            "Close-ups of the busiest parts of the board:")


def svg(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    """The board as ``player`` (``None``: the public) sees it in ``view``: the overview, its
    legend, and close-ups."""
    base = art._static(c)
    out = [base.body]
    _lying(c, view, out)
    _units(c, view, out)
    out.append(base.numbers)
    badges = _gods(c, view, player, base.labels, out)
    body = "\n".join(out) + "\n"
    turn = view.get("turn", "")
    title = (f"The Mythology board (Basic Game), Game Turn {turn}"
             + (f", as {player} sees it" if player else ", public view"))
    scale = draw.scale_for(draw.smallest_text(body))
    focus, intro = _focus(c, view, player, badges)
    tiles = draw.cover(focus, draw.tile(scale), (base.width, base.height))
    closeups = [draw.Closeup(box, scale, art._caption(c, box, shown)) for box, shown in tiles]
    return draw.board(body, base.width, base.height, title, _legend(c, view, player),
                      closeups, intro)

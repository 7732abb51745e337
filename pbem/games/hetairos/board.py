"""Hetairos's board as an inline SVG picture for HTML reports and the public site.

The map grows as it is explored (EXPLORATION): the picture shows the drawn squares only, in
the smallest rectangle that holds them plus one ring of unexplored squares (dotted outlines),
north at the top, with the x numbers above and the y numbers at the left. Each square has the
colour of its kind AND its two letters (:data:`report.CODES`), so nobody needs colour to tell
the kinds apart; its walls are dark lines and each open side a gap in its wall (Map 1). The
Styx (column 0) is blue, a bridge a brown plank across it. On a square: player characters are
discs in their seat's colour with their seat number (the reader's own with a thick border),
NPCs small discs in their owner's colour marked "n", monsters red squares with the first
letter of their name (a Great Monster with a thick border), settlement defenders green
triangles marked "d"; more than four models show "+N". Every square and model has a
``<title>`` (the report's line for it).

The smallest text is 10 units. A picture at most :data:`pbem.core.svg.PHONE_PX` units wide is
one picture (shown at 1 CSS px a unit or more on a 390 px phone, like Deukalion's); a wider
one is an overview (``svg.board``: its texts hidden on a phone) with close-ups of the reader's
character and its surroundings (the gazette: every player character) at 10 CSS px or more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core import svg as draw
from pbem.games.hetairos import grid, report
from pbem.games.hetairos.table import Components

SIZE = 36           # a square, in board units
LEFT, TOP = 22, 14  # room for the y and x numbers
FONT = 10           # the smallest text
GAP = 12            # the opening in an open side
FILL = {"styx": "#7fb2e5", "rock": "#6b6257", "small_tunnel": "#d9cdb8", "tunnel": "#e8dcc4",
        "tunnel_fork": "#e8dcc4", "empty_cavern": "#f3ead7", "ancient_library": "#d7c7f0",
        "great_forge": "#f0b47a", "isolated_community": "#c9e0b0", "polis": "#b9dc9a",
        "manor": "#c9e0b0", "kobaloi_settlement": "#d6e8a8", "lost_hoard": "#f5dc6e",
        "magic_spring": "#a8e0e0", "molten_lava": "#e4572e", "lair": "#d99a9a",
        "olympian_shrine": "#f2f2f2", "shrine_of_hecate": "#b7a3c9",
        "surface_tunnel": "#cfe3f0", "trapped_room": "#e8b9c9"}
INK = {"rock": "#fff", "molten_lava": "#fff"}
WALL = "#3b2f25"
SEATS = ("#1f5fbf", "#c0392b", "#7b1fa2", "#a65c00", "#00796b", "#5d4037", "#283593",
         "#ad1457", "#558b2f", "#37474f")
MONSTER, DEFENDER = "#b71c1c", "#2e7d32"


def seat_colour(view: Mapping[str, Any], player: str) -> str:
    seats = list(view.get("seats", []))
    return SEATS[seats.index(player) % len(SEATS)] if player in seats else "#777"


def extent(view: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """(min x, min y, max x, max y) of the drawn squares plus one ring."""
    x0, y0, x1, y1 = grid.bounds(list(view.get("map", {})) or ["0,0"])
    return x0 - 1, y0 - 1, x1 + 1, y1 + 1


class Frame:
    """Where each square is drawn."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.x0, self.y0, self.x1, self.y1 = extent(view)
        self.width = LEFT + (self.x1 - self.x0 + 1) * SIZE + 4
        self.height = TOP + (self.y1 - self.y0 + 1) * SIZE + 4

    def origin(self, k: str) -> tuple[int, int]:
        x, y = grid.xy(k)
        return LEFT + (x - self.x0) * SIZE, TOP + (y - self.y0) * SIZE


def _walls(x: int, y: int, opened: str) -> str:
    """The path data of a square's walls: each closed side whole, each open side with a gap
    in its middle."""
    half = (SIZE - GAP) // 2
    sides = {"N": ((x, y), (1, 0)), "S": ((x, y + SIZE), (1, 0)),
             "W": ((x, y), (0, 1)), "E": ((x + SIZE, y), (0, 1))}
    out = []
    for d, ((sx, sy), (dx, dy)) in sides.items():
        if d in opened:
            out.append(f"M{sx} {sy}l{dx * half} {dy * half}"
                       f"M{sx + dx * (SIZE - half)} {sy + dy * (SIZE - half)}"
                       f"l{dx * half} {dy * half}")
        else:
            out.append(f"M{sx} {sy}l{dx * SIZE} {dy * SIZE}")
    return "".join(out)


def _square(c: Components, view: Mapping[str, Any], f: Frame, k: str,
            sq: Mapping[str, Any]) -> str:
    x, y = f.origin(k)
    kind = str(sq.get("kind", ""))
    body = [draw.tooltip(report.square_line(c, view, k, sq)),
            draw.rect(x, y, SIZE, SIZE, FILL.get(kind, "#ddd"), "none", 0)]
    if kind == "styx" and sq.get("bridge"):
        body.append(draw.rect(x, y + SIZE // 2 - 5, SIZE, 10, "#8d6e63", "#4e342e", 0.6))
    if kind != "rock":
        opened = str(sq.get("open", ""))
        if kind == "styx":
            opened = "NS" + ("EW" if sq.get("bridge") else "")
        body.append(f'<path d="{_walls(x, y, opened)}" fill="none" stroke="{WALL}" '
                    'stroke-width="2.5"/>')
    body.append(draw.text(x + 3, y + 11, report.CODES.get(kind, "??"), FONT, anchor="start",
                          fill=INK.get(kind, "#222")))
    return (f'<g class="square" data-square="{draw.esc(k)}" data-kind="{draw.esc(kind)}">'
            + "".join(body) + "</g>")


def _marker(view: Mapping[str, Any], m: Mapping[str, Any], px: int, py: int,
            player: str | None, c: Components) -> str:
    side = m["side"]
    if side == "pc":
        seat = report.seat_numbers(view).get(str(m["owner"]), 0)
        mine = m["owner"] == player
        return (draw.circle(px, py, 7, seat_colour(view, str(m["owner"])), "#000",
                            2.2 if mine else 0.8)
                + draw.text(px, py + 4, seat, FONT, fill="#fff",
                            extra=' font-weight="bold"'))
    if side == "npc":
        return (draw.circle(px, py, 6, seat_colour(view, str(m["owner"])), "#fff", 1)
                + draw.text(px, py + 3, "n", FONT, fill="#fff"))
    if side == "defender":
        return (draw.triangle(px, py - 1, 7, DEFENDER, "#000")
                + draw.text(px, py + 4, "d", FONT, fill="#fff"))
    mon = c.world.monsters.get(str(m["type"]))
    great = mon is not None and mon.great
    return (draw.rect(px - 7, py - 7, 14, 14, MONSTER, "#000", 2 if great else 0.6, 2)
            + draw.text(px, py + 4, str(m["name"])[:1].upper() or "?", FONT, fill="#fff",
                        extra=' font-weight="bold"'))


def _models(c: Components, view: Mapping[str, Any], f: Frame, player: str | None) -> list[str]:
    by_square: dict[str, list[dict[str, Any]]] = {}
    for m in report.living(view):
        by_square.setdefault(str(m["at"]), []).append(m)
    out = []
    for k in sorted(by_square, key=report.sort_key):
        x, y = f.origin(k)
        here = by_square[k]
        slots = [(x + 10, y + 19), (x + 26, y + 19), (x + 10, y + 29), (x + 26, y + 29)]
        shown = here if len(here) <= 4 else here[:3]
        for (px, py), m in zip(slots, shown, strict=False):
            out.append(f'<g class="model" data-model="{draw.esc(m["id"])}" '
                       f'data-square="{draw.esc(k)}" data-side="{draw.esc(m["side"])}">'
                       + draw.tooltip(report.model_line(c, view, m))
                       + _marker(view, m, px, py, player, c) + "</g>")
        if len(here) > 4:
            rest = here[3:]
            names = "; ".join(report.model_line(c, view, m) for m in rest)
            ids = " ".join(str(m["id"]) for m in rest)
            out.append(f'<g class="model more" data-model="{draw.esc(ids)}" '
                       f'data-square="{draw.esc(k)}">' + draw.tooltip(names)
                       + draw.text(x + 26, y + 33, f"+{len(rest)}", FONT, fill="#000",
                                   extra=' font-weight="bold"') + "</g>")
    return out


def _grid(f: Frame, view: Mapping[str, Any]) -> list[str]:
    out = []
    drawn = view.get("map", {})
    for y in range(f.y0, f.y1 + 1):
        for x in range(f.x0, f.x1 + 1):
            k = grid.key(x, y)
            if k not in drawn:
                ox, oy = f.origin(k)
                out.append(f'<rect x="{ox + 2}" y="{oy + 2}" width="{SIZE - 4}" '
                           f'height="{SIZE - 4}" fill="none" stroke="#bbb" '
                           'stroke-width="0.8" stroke-dasharray="2 3"/>')
    for x in range(f.x0, f.x1 + 1):
        out.append(draw.text(LEFT + (x - f.x0) * SIZE + SIZE // 2, TOP - 3, x, FONT,
                             fill="#333"))
    for y in range(f.y0, f.y1 + 1):
        out.append(draw.text(LEFT // 2, TOP + (y - f.y0) * SIZE + SIZE // 2 + 4, y, FONT,
                             fill="#333"))
    return out


def _legend(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    def swatch(kind: str) -> draw.Symbol:
        return lambda x, y: (draw.rect(x - 8, y - 7, 16, 14, FILL[kind], "#777", 0.5)
                             + draw.text(x, y + 3.5, report.CODES[kind], FONT,
                                         fill=INK.get(kind, "#222")))

    def piece(m: dict[str, Any]) -> draw.Symbol:
        return lambda x, y: _marker(view, m, x, y, player, c)

    kinds = sorted({str(sq.get("kind", "")) for sq in view.get("map", {}).values()}
                   & set(FILL))
    entries: list[tuple[draw.Symbol, str]] = [
        (swatch(k), f"{report.CODES[k]}: {report.kind_name(c, k)}") for k in kinds]
    for n, p in enumerate(view.get("seats", []), 1):
        m = {"side": "pc", "owner": p, "type": "", "name": ""}
        entries.append((piece(m), f"seat {n}: {p}'s character"
                        + (" (you: thick border)" if p == player else "")))
    entries.append((piece({"side": "npc", "owner": "", "type": "", "name": ""}),
                    "an NPC, in its owner's colour"))
    entries.append((piece({"side": "monster", "owner": "", "type": "", "name": "M"}),
                    "a monster, by its first letter (thick border: a Great Monster)"))
    entries.append((piece({"side": "defender", "owner": "", "type": "", "name": ""}),
                    "a settlement's defender"))
    return draw.legend_list(entries, 10)


def _closeups(view: Mapping[str, Any], f: Frame, player: str | None) -> list[draw.Closeup]:
    if f.width <= draw.PHONE_PX:
        return []
    mine = [m for m in report.living(view) if m["side"] == "pc"
            and (player is None or m["owner"] == player)]
    focus = []
    for m in mine:
        x, y = f.origin(str(m["at"]))
        focus.append(draw.Focus((x - SIZE, y - SIZE, x + 2 * SIZE, y + 2 * SIZE),
                                f"{m['name']} at {m['at']}"))
    if not focus:
        return []
    scale = draw.scale_for(FONT)
    size = draw.tile(scale)
    out = []
    for box, shown in draw.cover(focus, size, (f.width, f.height)):
        out.append(draw.Closeup(box, scale, "; ".join(x.label for x in shown)))
    return out


def svg(c: Components, view: Mapping[str, Any], player: str | None) -> str:
    """The explored map as ``player`` (``None``: the public) sees it: the picture, then
    :data:`pbem.core.svg.SPLIT`, its legend and (a wide map) close-ups."""
    f = Frame(view)
    drawn = view.get("map", {})
    body = _grid(f, view)
    body += [_square(c, view, f, k, drawn[k]) for k in sorted(drawn, key=report.sort_key)]
    body += _models(c, view, f, player)
    title = (f"The explored underworld, round {view.get('round', '')}"
             + (f", as {player} sees it" if player else ", public view"))
    if f.width <= draw.PHONE_PX:  # small enough for a phone: one picture, texts shown
        return (draw.document(f.width, f.height, "\n".join(body) + "\n", title,
                              "board hetairos") + "\n" + draw.SPLIT + "\n"
                + _legend(c, view, player))
    who = "your character" if player else "every player character"
    return draw.board("\n".join(body) + "\n", f.width, f.height, title,
                      _legend(c, view, player), _closeups(view, f, player),
                      f"Close-ups of {who} and the squares around, readable on a phone:")

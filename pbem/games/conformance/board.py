"""The conformance game's "board" as an inline SVG picture: a square grid, one row per seat and
one column per round, with the scores beside it.

The game has no map, but it has what every board picture must get right: public pieces (who
sails in which round, the scores, how many omen cards each holds) and secret ones (each
player's sealed pledges, their own omen cards), so its picture exercises the same rule as the
real games' maps: it is drawn from the ``view`` alone. A player sees their own pledges; the
others' show as sealed until the end of the game, when the view holds them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core import svg as draw

CELL = 30
#: At most this many rounds are drawn (a campaign may have up to 1000): the current one and
#: those before it, or the last ones at the end of the game.
WINDOW = 12
GRID = draw.SquareGrid(size=CELL, left=90, top=24)
SHIP, CURRENT, SEALED, BAR = "#1f5fa8", "#fff3c4", "#9e9e9e", "#43a047"


def _ship(x: int, y: int) -> str:
    return draw.polygon(((x - 7, y), (x + 7, y), (x + 4, y + 4), (x - 4, y + 4)), SHIP,
                        SHIP, 0.3) + draw.polygon(((x, y - 9), (x, y - 1), (x + 6, y - 1)),
                                                  "#fff", SHIP, 0.8)


def _pledged(r: int, view: Mapping[str, Any]) -> bool:
    """Whether everyone's pledge of round ``r`` has been made (it is public that they were)."""
    return bool(view["game_over"] or r < view["round"]
                or (r == view["round"] and view["step"] != "pledge"))


def shown_rounds(view: Mapping[str, Any]) -> range:
    """The rounds the picture has columns for (all of them, up to :data:`WINDOW`)."""
    rounds, current = int(view["rounds"]), int(view["round"])
    last = min(rounds, max(current + 2, WINDOW))
    return range(max(1, last - WINDOW + 1), last + 1)


def svg(view: Mapping[str, Any], player: str | None) -> str:
    """The seats, rounds and scores as ``player`` (``None``: the public) sees them."""
    seats: list[str] = list(view["seating"])
    rounds = int(view["rounds"])
    mine: list[int] = list(view.get("my_pledges", []))
    every: Mapping[str, list[int]] = view.get("pledges", {})
    top = max(max(view["score"].values(), default=0), 1)
    out = []
    shown = shown_rounds(view)
    col = {r: n for n, r in enumerate(shown, 1)}
    for r in shown:
        x, y = GRID.centre((col[r], 0))
        out.append(draw.text(x, y + 8, f"round {r}", 8))
    x0 = GRID.origin((len(shown) + 1, 1))[0] + 8
    out.append(draw.text(x0, GRID.top - 6, "score", 8, anchor="start"))
    for n, p in enumerate(seats, 1):
        _, y = GRID.centre((1, n))
        label = p + (" (you)" if p == player else "")
        out.append(draw.text(GRID.left - 6, y + 3, label, 8.5, anchor="end",
                             extra=' font-weight="bold"' if p == player else ""))
        active_round = n  # seat n sails in rounds n, n + len(seats), ... (the game's rule)
        for r in shown:
            current = r == view["round"] and not view["game_over"]
            out.append(GRID.square((col[r], n), CURRENT if current else "#fff"))
            cx, cy = GRID.centre((col[r], n))
            if (r - active_round) % len(seats) == 0:
                out.append(f'<g class="voyage">{draw.tooltip(f"{p} sails in round {r}")}'
                           f"{_ship(cx - 6, cy + 6)}</g>")
            if p in every and r <= len(every[p]):
                value: object = every[p][r - 1]
            elif p == player and r <= len(mine):
                value = mine[r - 1]
            else:
                value = "?" if _pledged(r, view) else ""
            if value != "":
                sealed = value == "?"
                tip = (f"{p}'s pledge of round {r} is sealed until the end" if sealed
                       else f"{p} pledged {value} in round {r}")
                out.append(f'<g class="pledge" data-player="{draw.esc(p)}" data-round="{r}">'
                           f"{draw.tooltip(tip)}"
                           + draw.text(cx + 7, cy + 4, value, 11, fill=SEALED if sealed
                                       else "#000", extra=' font-weight="bold"') + "</g>")
        score = int(view["score"].get(p, 0))
        width = max(round(120 * max(score, 0) / top), 1)
        hand = view["hand_sizes"].get(p, 0)
        out.append(draw.rect(x0, y - 7, width, 14, BAR, BAR, 0.3))
        out.append(draw.text(x0 + width + 4, y + 3, f"{score}  ({hand} omen"
                             f"{'' if hand == 1 else 's'})", 8.5, anchor="start"))
    height = GRID.origin((1, len(seats) + 1))[1] + 6
    width = x0 + 200
    if len(shown) < rounds:
        out.append(draw.text(GRID.left, height + 6, f"rounds {shown.start}-{shown.stop - 1} "
                             f"of {rounds} shown", 8, anchor="start", fill="#555"))
        height += 12
    legend, extra = draw.legend([
        (lambda x, y: _ship(x, y + 2), "sails (the active player of the round)"),
        (lambda x, y: draw.text(x, y + 4, "3", 11, extra=' font-weight="bold"'),
         "a pledge you may see"),
        (lambda x, y: draw.text(x, y + 4, "?", 11, fill=SEALED, extra=' font-weight="bold"'),
         "a sealed pledge (revealed at the end)"),
        (lambda x, y: draw.rect(x - 5, y - 5, 10, 10, CURRENT, "#777", 0.5), "this round"),
        (lambda x, y: draw.rect(x - 5, y - 4, 10, 8, BAR, BAR, 0.3), "score"),
    ], 4, height, width - 8, column_width=200, line=14, size=8.5)
    title = (f"Conformance game, round {view['round']} of {rounds}"
             + (f", as {player} sees it" if player else ", public view"))
    return draw.document(width, height + extra, "\n".join([*out, legend]) + "\n", title)

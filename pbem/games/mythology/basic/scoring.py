"""Basic HOW TO WIN 1-2 and ALLIANCES 3: Victory Points, kept exact.

Monster players share 2 VP per Prize left on the board (Basic Win 1C) and allies share their
pooled VP (Basic Alliance 3): thirds and fifths are normal, so VP are exact fractions, kept in
the state as text ("7/2"), never rounded.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pbem.games.mythology.basic.setup import MONSTERS

#: Basic Win 1A: one VP for each opposing unit counter removed.
UNIT_VP = 1
#: Basic Win 1B: three VP for each Prize a Hero player captures.
PRIZE_VP = 3
#: Basic Win 1C: two VP per Prize still on the board, divided among the Monster players.
PRIZE_LEFT_VP = 2


def vp(state: dict[str, Any], player: str) -> Fraction:
    return Fraction(state["vp"][player])


def text(value: Fraction) -> str:
    """A VP amount as state and events keep it: "3", "7/2"."""
    return str(value)


def shown(value: Fraction | str) -> str:
    """A VP amount as a reader reads it: "3", "3 1/2", "2/3"."""
    value = Fraction(value)
    whole, part = divmod(value.numerator, value.denominator)
    if not part:
        return str(whole)
    return f"{whole} {part}/{value.denominator}" if whole else f"{part}/{value.denominator}"


def add(state: dict[str, Any], player: str, amount: Fraction) -> None:
    state["vp"][player] = text(vp(state, player) + amount)


def final(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Basic Win 1C, 2 and Alliance 3 at the end of the tenth Game Turn: the Prizes left go
    to the Monster players, allies pool and share, the most VP wins (ties share the win)."""
    events: list[dict[str, Any]] = []
    left = sorted(p for p, x in state["prizes"].items() if x["hex"])
    monsters = [p for p in state["seats"] if state["favour"][p] == MONSTERS]
    if left and monsters:
        each = Fraction(PRIZE_LEFT_VP * len(left), len(monsters))
        for p in monsters:
            add(state, p, each)
        events.append({"type": "prizes-left", "prizes": left, "players": monsters,
                       "vp": text(each), "text": f"{len(left)} Prizes are still on the board: "
                       f"{PRIZE_LEFT_VP} VP each, "
                       + (f"divided among the {len(monsters)} Monster players: +{shown(each)} "
                          f"to each of {', '.join(monsters)}" if len(monsters) > 1 else
                          f"to the only Monster player: +{shown(each)} to {monsters[0]}")
                       + " (Basic Win 1C)."})
    score = {p: vp(state, p) for p in state["seats"]}
    for group in state["alliances"]:
        share = sum((score[p] for p in group), Fraction(0)) / len(group)
        events.append({"type": "alliance-share", "players": group, "vp": text(share),
                       "text": f"The alliance of {', '.join(group)} pools "
                       + " + ".join(shown(score[p]) for p in group)
                       + f" VP and shares it: {shown(share)} each (Basic Alliance 3)."})
        for p in group:
            score[p] = share
    state["score"] = {p: text(v) for p, v in score.items()}
    best = max(score.values())
    winners = [p for p in state["seats"] if score[p] == best]
    events.append({"type": "winner", "players": winners, "vp": text(best),
                   "text": f"Most Victory Points ({shown(best)}): {', '.join(winners)} "
                   "(Basic Win 2)."})
    state["step"] = "over"
    return events

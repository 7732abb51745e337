"""The map's geometry (MOVEMENT AND THE MAP, EXPLORATION, THE STYX; analysis section 3.2):
an unbounded grid of squares keyed ``"x,y"`` (x grows east, y grows south; north is -y), the
Styx down column 0, and the open sides of each square as a string of ``NESW`` letters.

A move from square A to its neighbour B across side ``d`` needs A open on ``d`` and, when B is
drawn, B open on the opposite side. A Styx square is open north and south along the river; a
model on it stands on a bank (``W`` or ``E``) and may leave toward its own bank only, or
either way when the square has a bridge (Styx 4: "ONLY ON BRIDGED SQUARES CAN THE STYX BE
CROSSED").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

DIRS = "NESW"
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
STYX_X = 0  # "A STRAIGHT LINE DOWN THE CENTRE OF THE MAP"

Square = dict[str, Any]
Map = Mapping[str, Square]


def key(x: int, y: int) -> str:
    return f"{x},{y}"


@cache
def xy(k: str) -> tuple[int, int]:
    x, y = k.split(",")
    return int(x), int(y)


@cache
def neighbour(k: str, d: str) -> str:
    x, y = xy(k)
    dx, dy = STEP[d]
    return key(x + dx, y + dy)


def opposite(d: str) -> str:
    return DIRS[(DIRS.index(d) + 2) % 4]


def right_of(d: str) -> str:
    return DIRS[(DIRS.index(d) + 1) % 4]


def left_of(d: str) -> str:
    return DIRS[(DIRS.index(d) + 3) % 4]


def turn(d: str, how: str) -> str:
    """``d`` turned ``straight``, ``right``, ``left`` or ``back``."""
    return {"straight": d, "right": right_of(d), "left": left_of(d), "back": opposite(d)}[how]


@cache
def on_styx(k: str) -> bool:
    return xy(k)[0] == STYX_X


def bank_of(k: str, d: str) -> str:
    """The bank a model lands on when it enters Styx square ``k`` moving ``d``: from the west it
    stands on the west bank; along the river it keeps ``""`` (the caller keeps its bank)."""
    return {"E": "W", "W": "E"}.get(d, "")


def sides(kind_sides: str, travel: str, fork: str = "") -> str:
    """The open sides of a newly drawn square entered moving ``travel`` (Explore 7: "TUNNELS
    ARE ASSUMED TO GO STRAIGHT ACROSS THE SQUARE IN THE DIRECTION YOU CAME IN FROM"; Fork 1: a
    T-junction, open behind, ahead and to the ``fork`` side)."""
    if kind_sides == "none":
        return ""
    if kind_sides == "all":
        return DIRS
    if kind_sides == "river":
        return "NS"
    opened = {travel, opposite(travel)}
    if kind_sides == "fork":
        opened.add(turn(travel, fork or "right"))
    return "".join(d for d in DIRS if d in opened)


def can_leave(square: Square | None, k: str, d: str, bank: str = "") -> bool:
    """Whether a model in ``k`` (on ``bank`` of the Styx) may go out across side ``d``."""
    if square is None:
        return False
    if on_styx(k) and d in "EW":
        return bool(square.get("bridge")) or d == bank
    return d in square.get("open", "")


def can_enter(square: Square | None, d: str) -> bool:
    """Whether a drawn square may be entered moving ``d`` (its side ``opposite(d)`` open).
    An undrawn square (None) is entered by exploring it."""
    if square is None:
        return True
    if square.get("kind") == "styx":
        return True  # a bank is always reachable from its own side
    return opposite(d) in square.get("open", "")


def distance(a: str, b: str) -> int:
    """Squares between two places in straight steps (the Thunderbolt's and King of the
    Styx's "SQUARES' DISTANCE"): the larger of the two offsets."""
    ax, ay = xy(a)
    bx, by = xy(b)
    return max(abs(ax - bx), abs(ay - by))


def manhattan(a: str, b: str) -> int:
    ax, ay = xy(a)
    bx, by = xy(b)
    return abs(ax - bx) + abs(ay - by)


def line(a: str, d: str, n: int) -> Iterator[str]:
    """The ``n`` squares beyond ``a`` in direction ``d``."""
    k = a
    for _ in range(n):
        k = neighbour(k, d)
        yield k


def bounds(keys: Iterator[str] | list[str]) -> tuple[int, int, int, int]:
    """(min x, min y, max x, max y) of some squares (0,0 when none)."""
    pts = [xy(k) for k in keys]
    if not pts:
        return 0, 0, 0, 0
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)

"""The chessboard (Map 1: "Use a Chessboard") and the Adjacency Rule (Adjacency 1-2).

Squares are named as on a chessboard: ``a1`` .. ``h8``, the letter the file (column), the number
the rank (row). Two squares are adjacent when they share a side; diagonal squares are not
(Adjacency 2).
"""

from __future__ import annotations

from functools import cache

FILES = "abcdefgh"
RANKS = "12345678"
#: Every square, rank by rank: a1, b1, ... h1, a2, ... h8.
SQUARES: tuple[str, ...] = tuple(f + r for r in RANKS for f in FILES)


def is_square(value: object) -> bool:
    return isinstance(value, str) and value in _INDEX


_INDEX = {s: i for i, s in enumerate(SQUARES)}


@cache
def neighbours(square: str) -> tuple[str, ...]:
    """The squares sharing a side with ``square`` (Adjacency 1-2), in board order."""
    f, r = FILES.index(square[0]), RANKS.index(square[1])
    out = [FILES[f + df] + RANKS[r + dr] for df, dr in ((0, -1), (-1, 0), (1, 0), (0, 1))
           if 0 <= f + df < 8 and 0 <= r + dr < 8]
    return tuple(sorted(out, key=_INDEX.__getitem__))


def adjacent(a: str, b: str) -> bool:
    return b in neighbours(a)


def order(square: str) -> int:
    """A square's place in :data:`SQUARES` (for sorting)."""
    return _INDEX[square]

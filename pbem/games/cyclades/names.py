"""Names as players type them (issue 12, section 3): ``"Naxos"``, ``" naxos "`` and
``"NAXOS"`` all mean the territory ``naxos``, ``"h4"`` the sea ``H4``, ``"Zeus"`` the god.

One normalising pass, :func:`normalise`, turns every string value of an order form that names
something of the game (a territory, a sea, a god, a card, a building, a player, an action kind,
a retreat or unit kind, a way to pay) into the game's own id, matched without regard to case
and surrounding blanks. ``game.py`` runs it before ``validate`` AND before ``resolve``, so the
adjudicator always reads the same meaning the receipt accepted. A string that names nothing is
left as it is: the checks then say it is unknown and list the valid choices
(:func:`choices`), the closest first.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from pbem.games.cyclades import battle, effects
from pbem.games.cyclades.components import Components
from pbem.games.cyclades.maps import Board

#: Words of the forms' own vocabulary (besides the ids of the game's pieces).
WORDS = ("apollo", "gold", "priestess", "priest", "philosopher", *battle.RETREAT_WHEN,
         *battle.LAND_KINDS, *battle.SEA_KINDS, *effects.KILLABLE, *effects.SUPPLY_CARDS,
         "recruit", "build", "move", "sail", "titan_move", "special_attack", "buy", "swap",
         "sacrifice", "monument", "item", "favor", "prosperity")


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


_CACHE: dict[tuple[int, int, tuple[str, ...]], tuple[Components, Board, Mapping[str, str]]] = {}


def _vocabulary(c: Components, board: Board, players: tuple[str, ...]) -> Mapping[str, str]:
    """Folded name -> id, for every id a form may name; a fold two ids share is left out (it
    would be ambiguous, and the exact spelling still works)."""
    cached = _CACHE.get((id(c), id(board), players))
    if cached is not None and cached[0] is c and cached[1] is board:
        return cached[2]
    ids: set[str] = set(WORDS) | set(players) | set(board.territories) | set(board.seas)
    for table in c._tables():
        ids.update(table)
    out: dict[str, str] = {}
    clash: set[str] = set()
    for i in sorted(ids):
        k = _key(i)
        if k in out and out[k] != i:
            clash.add(k)
        out[k] = i
    vocabulary = {k: v for k, v in out.items() if k not in clash}
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[(id(c), id(board), players)] = (c, board, vocabulary)
    return vocabulary


def normalise(c: Components, board: Board, players: Iterable[str], orders: Any) -> Any:
    """A copy of ``orders`` with every string value that names something of the game written
    as the game's id. Table keys are kept; anything else is copied unchanged. Never raises."""
    vocabulary = _vocabulary(c, board, tuple(sorted(players)))

    def walk(value: Any, depth: int) -> Any:
        if isinstance(value, str):
            return vocabulary.get(_key(value), value)
        if depth > 50:  # TOML nests at most so deep in practice; the value is kept as it is
            return value
        if isinstance(value, Mapping):
            return {k: walk(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, depth + 1) for v in value]
        return value

    return walk(orders, 0)


def choices(value: object, known: Iterable[str], limit: int = 10) -> str:
    """A hint for an unknown name: the closest valid ones first, then the others (at most
    ``limit`` in all), e.g. ``did you mean naxos? valid: naxos, paros, ...``."""
    names = sorted(set(known))
    if not names:
        return "there is no valid choice here"
    folded = {_key(n): n for n in names}
    close: list[str] = []
    if isinstance(value, str):
        close = [folded[m] for m in difflib.get_close_matches(_key(value), list(folded), n=3,
                                                             cutoff=0.6)]
    shown = close + [n for n in names if n not in close]
    text = ", ".join(shown[:limit]) + (", ..." if len(shown) > limit else "")
    return (f"did you mean {' or '.join(close)}? " if close else "") + f"valid: {text}"

"""Putting unit chits into play (RECRUIT PHASE, Recruit 1-4; STACKING RULE, Stacking 1-3).

Orders: ``[[orders.recruit]] kind = "cyclops", square = "c4"``, any number, in order. (The
draw of Recruit 1 is the phase's business, not this module's.)

Rulings, each with its clause:

* Recruit 2: the chit must be in the player's own pile (``state["chits"][player]``); two
  entries for the same kind need two chits.
* Recruit 3-4: the player needs a unit on a square whose terrain recruits that kind
  (terrain.toml ``recruits``: City State for Heroes, Hoplites and Ships, and so on); the
  chit goes on that square or on a square adjacent to it (Adjacency 1-2).
* Recruit 4, Stacking 3: the square must be empty or hold only the player's units.
* Stacking 1: with room: at most 4 of the player's units once the chit is in play.
* Move 2, Units 16: on the right kind of terrain for the unit: Water units on water, Land
  units (flying units among them) on land, the Titan on either. So a Ship recruited at a
  City State goes on an adjacent Sea or Abyss square.
* Recruit 4 sets no number: any number of recruits a turn.
* Recruits are carried out in order, and a unit recruited earlier in the turn counts for
  the later ones (it stands on the board: "If you have a Unit in an appropriate Territory"),
  for stacking and as the unit on a recruiting terrain.
* The recruited unit gets the next unit id (``state["next_unit"]``) and full hits; the event
  saying so is public (the unit is on the board for all to see); with ``--option
  materials=on`` it also gets a golem material (materials.py), said in that event. A recruit
  that cannot be
  carried out when the phase resolves is skipped with an event that does not name the kind
  (the chit stays secret in the pile).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.errors import Problem, excerpt
from pbem.core.ruleset import put_sorted
from pbem.games.grecos import materials
from pbem.games.grecos.components import Components, UnitKind
from pbem.games.grecos.squares import SQUARES, is_square, neighbours, order

TABLE = "[[orders.recruit]]"
STACK_LIMIT = 4        # Stacking 1
_KEYS = ("kind", "square")

Event = dict[str, Any]


@dataclass(frozen=True)
class Recruit:
    """One ``[[orders.recruit]]`` entry: put a ``kind`` chit into play on ``square``."""

    kind: str
    square: str


def _names(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _listing(items: list[str]) -> str:
    return ", ".join(items) if items else "none"


def _terrain_fits(c: Components, state: Mapping[str, Any], kind: UnitKind, square: str) -> bool:
    """Move 2, Units 16: Water units on water, Land units on land, the Titan anywhere."""
    land = c.terrains[state["board"][square]].land
    return kind.land_and_water or (not land if kind.water else land)


def sources(c: Components, state: Mapping[str, Any], player: str, kind: str) -> list[str]:
    """Recruit 3-4: the squares where ``player`` has a unit on a terrain recruiting ``kind``."""
    terrains = set(c.recruited_at(kind))
    return sorted({u["square"] for u in state["units"].values()
                   if u["owner"] == player and state["board"][u["square"]] in terrains},
                  key=order)


def _square_reason(c: Components, state: Mapping[str, Any], player: str, kind: UnitKind,
                   square: str) -> str | None:
    """Why a ``kind`` chit may not go on ``square`` (its adjacency to a source aside)."""
    here = [u for u in state["units"].values() if u["square"] == square]
    foes = sorted({u["owner"] for u in here if u["owner"] != player})
    if foes:
        return (f"{square} holds {' and '.join(foes)}'s units: a chit goes on a square that "
                "is empty or holds only your units (Recruit 4, Stacking 3)")
    if len(here) >= STACK_LIMIT:
        return f"{square} already holds {len(here)} of your units; at most {STACK_LIMIT} " \
               "(Stacking 1)"
    if not _terrain_fits(c, state, kind, square):
        if kind.water:
            return f"{square} is land: {kind.name} is a Water unit and goes only on water " \
                   "(Move 2)"
        return f"{square} is water: {kind.name} is a Land unit and goes only on land (Move 2)"
    return None


def recruit_squares(c: Components, state: Mapping[str, Any], player: str,
                    kind: str) -> list[str]:
    """Every square where ``player`` could put a ``kind`` chit into play now (Recruit 3-4,
    Stacking 1-3, Move 2), whether or not the chit is in the pile; in board order."""
    if kind not in c.units:
        return []
    near = set()
    for src in sources(c, state, player, kind):
        near.add(src)
        near.update(neighbours(src))
    unit = c.units[kind]
    return [s for s in SQUARES if s in near and _square_reason(c, state, player, unit, s) is None]


def _parse(c: Components, entry: object, where: str) -> tuple[Recruit | None, list[Problem]]:
    hint = 'write kind = "cyclops" and square = "c4"'
    if not isinstance(entry, dict):
        return None, [Problem(where, f"must be a table, got {excerpt(entry)}", hint)]
    problems = [Problem(f"{where} {k}", f"unknown key {excerpt(k)}",
                        "an entry has only kind and square") for k in entry if k not in _KEYS]
    kind, square = entry.get("kind"), entry.get("square")
    if kind is None:
        problems.append(Problem(f"{where} kind", "missing", hint))
    elif not isinstance(kind, str) or kind.strip().lower() not in c.units:
        problems.append(Problem(f"{where} kind", f"unknown unit kind {excerpt(kind)}",
                                f"one of {', '.join(c.units)}"))
    if square is None:
        problems.append(Problem(f"{where} square", "missing", hint))
    elif not isinstance(square, str) or not is_square(square.strip().lower()):
        problems.append(Problem(f"{where} square", f"not a square: {excerpt(square)}",
                                "squares are a1 .. h8, file letter then rank number"))
    if problems:
        return None, problems
    assert isinstance(kind, str) and isinstance(square, str)
    return Recruit(kind.strip().lower(), square.strip().lower()), []


def _check(c: Components, state: Mapping[str, Any], player: str, recruit: Recruit,
           pile: Counter[str], where: str) -> list[Problem]:
    kind = c.units[recruit.kind]
    problems: list[Problem] = []
    if pile[recruit.kind] <= 0:
        held = sorted(pile.elements())
        problems.append(Problem(f"{where} kind", f"no {kind.name} chit left in your pile "
                                "(Recruit 2)", f"your pile holds {_listing(held)}",
                                foreseen=True))
    legal = recruit_squares(c, state, player, recruit.kind)
    hint = f"{kind.name} may go now on {_listing(legal)}"
    srcs = sources(c, state, player, recruit.kind)
    terrains = [c.terrains[t].name for t in c.recruited_at(recruit.kind)]
    on = ("an " if terrains and terrains[0][0] in "AEIOU" else "a ") + _names(terrains)
    sq = recruit.square
    if not srcs:
        problems.append(Problem(f"{where} square", f"you have no unit on {on} square, "
                                f"where {kind.name} is recruited (Recruit 3-4)",
                                f"move a unit onto {on} square first",
                                foreseen=True))
    elif not any(sq == s or sq in neighbours(s) for s in srcs):
        problems.append(Problem(f"{where} square", f"{sq} is neither {on} square "
                                "where you have a unit nor adjacent to one "
                                f"(Recruit 4; yours: {', '.join(srcs)})", hint, foreseen=True))
    else:
        reason = _square_reason(c, state, player, kind, sq)
        if reason:
            problems.append(Problem(f"{where} square", reason, hint, foreseen=True))
    return problems


def _place(c: Components, state: dict[str, Any], player: str, recruit: Recruit) -> str:
    uid = str(state["next_unit"])
    state["next_unit"] += 1
    put_sorted(state["units"], uid, {"hits": c.units[recruit.kind].hits, "kind": recruit.kind,
                                     "owner": player, "square": recruit.square})
    materials.assign(c, state, uid)  # --option materials=on: its material (Golem 1-16)
    return uid


def plan_recruits(c: Components, state: Mapping[str, Any], player: str,
                  raw: object) -> tuple[list[Recruit], list[Problem]]:
    """Read and check ``[[orders.recruit]]`` (``raw``: the list of its tables) for ``player``,
    each entry against the board and pile as the earlier legal entries leave them.

    Returns a :class:`Recruit` for every well-formed entry (:func:`apply_recruits` skips the
    illegal ones) and the problems; rule problems are ``foreseen``, shape problems not.
    """
    if raw is None:
        return [], []
    if not isinstance(raw, list):
        return [], [Problem(TABLE, f"must be a list of tables, got {excerpt(raw)}",
                            f"write each recruit as {TABLE} with kind and square")]
    sim = dict(state)
    sim["units"] = {u: dict(v) for u, v in state["units"].items()}
    pile = Counter(state["chits"].get(player, []))
    recruits: list[Recruit] = []
    problems: list[Problem] = []
    for i, entry in enumerate(raw, start=1):
        recruit, shape = _parse(c, entry, f"{TABLE} {i}")
        problems += shape
        if recruit is None:
            continue
        recruits.append(recruit)
        rule = _check(c, sim, player, recruit, pile, f"{TABLE} {i}")
        problems += rule
        if not rule:
            pile[recruit.kind] -= 1
            _place(c, sim, player, recruit)
    return recruits, problems


def apply_recruits(c: Components, state: dict[str, Any], player: str,
                   recruits: list[Recruit]) -> list[Event]:
    """Put ``recruits`` into play in order: each chit leaves ``player``'s pile and becomes a
    unit with the next id and full hits (public events). One that is no longer legal is
    skipped with an event that does not name the chit."""
    events: list[Event] = []
    for i, recruit in enumerate(recruits, start=1):
        pile: list[str] = state["chits"].setdefault(player, [])
        if recruit.kind not in c.units or not is_square(recruit.square):
            problems = [Problem(f"{TABLE} {i}", "unknown kind or square")]
        else:
            problems = _check(c, state, player, recruit, Counter(pile), f"{TABLE} {i}")
        if problems:
            # Say why only when the reason does not give the chit away (Recruit 2: the pile
            # is secret): enemy units or a full square.
            why = next((p.message for p in problems if p.message.startswith(recruit.square)
                        and ("Stacking 1" in p.message or "Stacking 3" in p.message)),
                       "it is no longer legal (Recruit 2-4, Stacking 1-3, Move 2)")
            events.append({"type": "recruit_skipped", "player": player, "square": recruit.square,
                           "text": f"{player}'s recruit {i} on {recruit.square} does not happen: "
                                   f"{why}."})
            continue
        # The newest chit of that kind leaves the pile (its order does not matter).
        del pile[len(pile) - 1 - pile[::-1].index(recruit.kind)]
        uid = _place(c, state, player, recruit)
        name = c.units[recruit.kind].name
        events.append({"type": "recruit", "player": player, "unit": uid, "kind": recruit.kind,
                       "square": recruit.square,
                       "text": f"{player} recruits {name} (unit {uid}) on {recruit.square}."})
        materials.note_recruit(state, uid, events[-1])  # materials=on: says its material
    return events

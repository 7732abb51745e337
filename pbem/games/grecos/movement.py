"""The Move phase (MOVE PHASE, Move 1-8; STACKING RULE, Stacking 1-3; Units 16, 18).

Orders: ``[[orders.move]] units = ["7", "9"], path = ["c4", "d4"]`` -- these units start on
the same square and move together (a *group*) along ``path``, the squares entered in order,
each adjacent to the one before (Adjacency 1-2). Entries are carried out in order, and each
is judged against the positions the earlier entries leave.

Rulings, each with its clause:

* Move 1, Units 18: every square entered costs 1 Move point (the seed gives no terrain
  costs); a group may enter at most its Move squares. A unit moves at most once a turn: it
  appears in one entry only (to move units together, put them in one entry).
* Move 1: the group's Move is the least Move of its members, each member's Move raised by
  ``state["effects"]["move_bonus"][id]`` (Blessing of Hermes, Deck 7) -- except the Heroes
  and Army units carried by a Ship of the group (Move 5), who do not limit it: they travel
  on the water with the Ship, at the Ship's Move.
* Move 6: a Hero in a group with a Pegasus has Move 4 (plus his own bonus) and flies (every
  Hero of such a group: the seed says "stacked with a Pegasus" and sets no number).
* Move 2, Units 16: Water units (Ships, Sirens, Kraken, Tritons) enter only water squares
  (Sea, Abyss), Land units only land squares; the Titan (Land & Water) both.
* Move 3-4: flying units (and a Hero flying with a Pegasus) may cross water squares but may
  not end a move on one.
* Move 5: a Hero or land Army unit may be on water only stacked with a Ship of its owner.
  It travels on water in a group with a Ship (carried: the path is then all water, as the
  Ship's), or -- a ruling, the seed says nothing of boarding -- enters a water square where
  one of its owner's Ships stands as the last square of its move (it embarks: without this
  a Hero on land could never board a Ship, since Ships never enter land). Land units that
  are neither Heroes nor Army (Cyclops, Medusa...) never go on water. A move may not leave
  a Hero or Army unit on water without a Ship: a Ship may not sail away from its passengers.
  Tritons, Army but Water units, swim on their own Move: they are not carried.
* Move 8: a group that does not fly (any member without wings) cannot enter or pass
  through a square holding enemy units; a flying group may pass over it but may not end
  there (Stacking 3: units of opposing players never share a square).
* Move 7, Stacking 1: at the end of each move the square entered holds at most 4 of the
  player's units (passing through a full square is allowed: the limit binds where units
  stand). "Summoned units" (Stacking 2) do not exist in Grecos.
* ``--option materials=on`` (materials.py): a Silver unit's Move is +1 (Golem 16).
* Lost, Storm (Deck 26-27): units listed in ``state["effects"]["no_move"]`` may not move.
  At submit the entry is refused; at resolution (the others may play Lost or Storm at the
  start of the Move phase, after the orders were written) the whole group stays put and an
  event says so; the other entries go on.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.errors import Problem, excerpt
from pbem.games.grecos import materials
from pbem.games.grecos.components import Components, UnitKind
from pbem.games.grecos.squares import adjacent, is_square, neighbours, order

TABLE = "[[orders.move]]"
STACK_LIMIT = 4            # Stacking 1, Move 7
SHIP = "ships"             # Move 5
HERO = "hero"
PEGASUS = "pegasus"        # Move 6
PEGASUS_HERO_MOVE = 4      # Move 6: "gains Flying & Move = 4"
_KEYS = ("units", "path")

Event = dict[str, Any]


@dataclass(frozen=True)
class Move:
    """One ``[[orders.move]]`` entry: ``units`` move together along ``path``."""

    units: tuple[str, ...]
    path: tuple[str, ...]


def boards_ship(kind: UnitKind) -> bool:
    """Move 5: a Hero or a land Army unit, who may travel on water with a Ship."""
    return (kind.id == HERO or "army" in kind.keywords) and not kind.water \
        and not kind.land_and_water


def is_water(c: Components, state: Mapping[str, Any], square: str) -> bool:
    """A Water space (Terrain 8: Sea and Abyss are "W")."""
    return not c.terrains[state["board"][square]].land


def unit_name(c: Components, state: Mapping[str, Any], uid: str) -> str:
    unit = state["units"].get(uid)
    return f"{c.units[unit['kind']].name} {uid}" if unit else f"unit {uid}"


def uid_order(uid: str) -> tuple[int, str]:
    """Unit ids are str of int: "9" before "10"."""
    return len(uid), uid


def _names(items: Iterable[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _listing(items: Iterable[str], limit: int = 16) -> str:
    items = list(items)
    if not items:
        return "none"
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


class _Group:
    """The units of one entry, judged on the board as it stands."""

    def __init__(self, c: Components, state: Mapping[str, Any], player: str,
                 ids: tuple[str, ...], effects: Mapping[str, Any]) -> None:
        self.c, self.state, self.player, self.ids = c, state, player, ids
        units = state["units"]
        self.kinds = {u: c.units[units[u]["kind"]] for u in ids}
        self.origin: str = units[ids[0]]["square"]
        kinds = {k.id for k in self.kinds.values()}
        self.ship = SHIP in kinds
        pegasus = PEGASUS in kinds
        bonus = effects.get("move_bonus") or {}
        # Move 5: Heroes and Army carried by a Ship of the group.
        self.carried = frozenset(u for u, k in self.kinds.items() if self.ship and boards_ship(k))
        # Move 3-4, 6: who flies.
        self.winged = frozenset(u for u, k in self.kinds.items()
                                if k.flying or (k.id == HERO and pegasus))
        self.flies = len(self.winged) == len(ids)
        self.moves = {u: (PEGASUS_HERO_MOVE if k.id == HERO and pegasus else k.move)
                      + _int(bonus.get(u, 0)) + materials.move_bonus(state, units[u])  # Golem 16
                      for u, k in self.kinds.items()}
        limiting = [u for u in ids if u not in self.carried]
        self.move = min(self.moves[u] for u in limiting)
        self.members = set(ids)
        self.occupants: dict[str, list[tuple[str, str]]] = {}
        for uid, unit in units.items():
            self.occupants.setdefault(unit["square"], []).append((uid, unit["owner"]))

    # -- what stands where ------------------------------------------------------------------
    def foes(self, square: str) -> list[str]:
        return sorted({o for _, o in self.occupants.get(square, ()) if o != self.player})

    def own_staying(self, square: str) -> list[str]:
        """The player's units on ``square`` that are not in the group."""
        return [u for u, o in self.occupants.get(square, ())
                if o == self.player and u not in self.members]

    def own_ship_at(self, square: str) -> bool:
        kinds = self.state["units"]
        return any(kinds[u]["kind"] == SHIP for u in self.own_staying(square))

    def name(self, uid: str) -> str:
        return f"{self.kinds[uid].name} {uid}"

    def explain(self) -> str:
        """How the group's Move comes about (Move 1, 5, 6)."""
        parts = [f"{self.name(u)} has {self.moves[u]}" for u in self.ids
                 if u not in self.carried]
        text = "the least of " + ", ".join(parts) if len(parts) > 1 else parts[0]
        if self.carried:
            text += "; carried by the Ship: " + _names(self.name(u) for u in self.ids
                                                        if u in self.carried)
        return text

    # -- the rules of one square ------------------------------------------------------------
    def _terrain(self, uid: str, square: str, end: bool) -> str | None:
        kind = self.kinds[uid]
        water = is_water(self.c, self.state, square)
        if kind.land_and_water:                      # Units 16: the Titan
            return None
        if kind.water:                               # Move 2
            return None if water else (f"{square} is land: {self.name(uid)} is a Water unit "
                                       "and moves only on water (Move 2)")
        if not water:
            return None
        if uid in self.carried:                      # Move 5: on the group's Ship
            return None
        if uid in self.winged:                       # Move 3-4
            return (f"{square} is water: flying units cross water but may not end a move "
                    "there (Move 3-4)") if end else None
        if boards_ship(kind):
            if end and self.own_ship_at(square):     # Move 5 ruling: embarking
                return None
            return (f"{square} is water: {self.name(uid)} goes on water only with a Ship in "
                    "its group, or by ending its move on a square where your Ship stands "
                    "(Move 5)")
        return f"{square} is water: {self.name(uid)} is a Land unit and moves only on land " \
               "(Move 2)"

    def pass_reason(self, square: str) -> str | None:
        """Why the group may not enter ``square`` and go on, or None."""
        foes = self.foes(square)
        if foes and not self.flies:
            return (f"{square} holds {_names(foes)}'s units: a group that does not fly cannot "
                    "enter or pass through it (Move 8)")
        for uid in self.ids:
            reason = self._terrain(uid, square, end=False)
            if reason:
                return reason
        return None

    def end_reason(self, square: str) -> str | None:
        """Why the group may not end its move on ``square``, or None."""
        foes = self.foes(square)
        if foes:
            if self.flies:
                return (f"{square} holds {_names(foes)}'s units: flying units may pass over "
                        "it but never end there (Stacking 3)")
            return (f"{square} holds {_names(foes)}'s units: a group that does not fly cannot "
                    "enter it (Move 8, Stacking 3)")
        for uid in self.ids:
            reason = self._terrain(uid, square, end=True)
            if reason:
                return reason
        total = len(self.own_staying(square)) + len(self.ids)
        if total > STACK_LIMIT:
            return (f"{square} would hold {total} of your units; at most {STACK_LIMIT} "
                    "(Stacking 1, Move 7)")
        return None

    def strand_reason(self) -> str | None:
        """Move 5: the move may not leave Heroes or Army on water without a Ship."""
        if not is_water(self.c, self.state, self.origin) or self.own_ship_at(self.origin):
            return None
        kinds = self.state["units"]
        left = [u for u in self.own_staying(self.origin)
                if not (self.c.units[kinds[u]["kind"]].water
                        or self.c.units[kinds[u]["kind"]].land_and_water)]
        if not left:
            return None
        return (f"{self.origin} is water: {_names(unit_name(self.c, self.state, u) for u in left)}"
                " would be left there without a Ship (Move 5)")

    def next_squares(self, here: str) -> list[str]:
        return [n for n in neighbours(here)
                if self.pass_reason(n) is None or self.end_reason(n) is None]

    def reach(self) -> dict[str, tuple[str, ...]]:
        """Every square the group may end on, with a shortest path (first in board order)."""
        if self.strand_reason() is not None:
            return {}
        paths: dict[str, tuple[str, ...]] = {self.origin: ()}
        queue = deque([self.origin])
        ends: dict[str, tuple[str, ...]] = {}
        while queue:
            here = queue.popleft()
            path = paths[here]
            if len(path) >= self.move:
                continue
            for n in neighbours(here):
                step = (*path, n)
                if n != self.origin and n not in ends and self.end_reason(n) is None:
                    ends[n] = step
                if n not in paths and self.pass_reason(n) is None:
                    paths[n] = step
                    queue.append(n)
        return dict(sorted(ends.items(), key=lambda kv: order(kv[0])))


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _effects(state: Mapping[str, Any], effects: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return (state.get("effects") or {}) if effects is None else effects


def reach(c: Components, state: Mapping[str, Any], player: str,
          units: Iterable[str], effects: Mapping[str, Any] | None = None,
          ) -> dict[str, tuple[str, ...]]:
    """Every square the group ``units`` of ``player`` may end a move on, each with a path
    (the squares entered; shortest, then first in board order), by the rules of this module.

    Empty when the group may not move at all: a unit that is not the player's or not on the
    board, units on different squares, a unit under Lost or Storm, a Ship whose passengers
    would be left on the water. ``effects`` defaults to ``state["effects"]``.
    """
    ids = tuple(dict.fromkeys(str(u) for u in units))
    eff = _effects(state, effects)
    known = state["units"]
    if not ids or any(u not in known or known[u]["owner"] != player for u in ids):
        return {}
    if len({known[u]["square"] for u in ids}) != 1:
        return {}
    if set(ids) & set(eff.get("no_move") or ()):
        return {}
    return _Group(c, state, player, ids, eff).reach()


def _parse(entry: object, where: str) -> tuple[Move | None, list[Problem]]:
    """The shape of one entry: a table with ``units`` and ``path`` (never foreseen)."""
    hint = 'write units = ["7", "9"] and path = ["c4", "d4"]'
    if not isinstance(entry, dict):
        return None, [Problem(where, f"must be a table, got {excerpt(entry)}", hint)]
    problems = [Problem(f"{where} {k}", f"unknown key {excerpt(k)}",
                        "an entry has only units and path") for k in entry if k not in _KEYS]
    units: list[str] = []
    raw_units = entry.get("units")
    if raw_units is None:
        problems.append(Problem(f"{where} units", "missing", hint))
    elif not isinstance(raw_units, list) or not raw_units or not all(
            isinstance(u, str) or (isinstance(u, int) and not isinstance(u, bool))
            for u in raw_units):
        problems.append(Problem(f"{where} units", "must be a non-empty list of unit ids, got "
                                f"{excerpt(raw_units)}", hint))
    else:
        units = [str(u) for u in raw_units]
        twice = sorted({u for u in units if units.count(u) > 1}, key=units.index)
        if twice:
            problems.append(Problem(f"{where} units", f"{_names(twice)} listed twice",
                                    "name each unit once"))
    path: list[str] = []
    raw_path = entry.get("path")
    if raw_path is None:
        problems.append(Problem(f"{where} path", "missing", hint))
    elif not isinstance(raw_path, list) or not raw_path or not all(
            isinstance(s, str) for s in raw_path):
        problems.append(Problem(f"{where} path", "must be a non-empty list of squares "
                                f"(the squares entered, in order), got {excerpt(raw_path)}",
                                hint))
    else:
        path = [s.strip().lower() for s in raw_path]
        bad = [s for s in path if not is_square(s)]
        if bad:
            problems.append(Problem(f"{where} path", f"not a square: {_names(map(excerpt, bad))}",
                                    "squares are a1 .. h8, file letter then rank number"))
    if problems:
        return None, problems
    return Move(tuple(dict.fromkeys(units)), tuple(path)), []


def _check(c: Components, state: Mapping[str, Any], player: str, move: Move,
           effects: Mapping[str, Any], moved: Mapping[str, int], where: str) -> list[Problem]:
    """Every rule ``move`` breaks on the board as it stands (empty: legal)."""
    uw, pw = f"{where} units", f"{where} path"
    known = state["units"]
    no_move = set(effects.get("no_move") or ())
    problems: list[Problem] = []
    if not move.units or not move.path:
        return [Problem(uw if not move.units else pw, "is empty",
                        'write units = ["7", "9"] and path = ["c4", "d4"]')]
    mine = [f"{u} ({known[u]['kind']} at {known[u]['square']})"
            for u in sorted(known, key=uid_order) if known[u]["owner"] == player]
    for u in move.units:
        if u not in known:
            problems.append(Problem(uw, f"no unit {excerpt(u)} on the board",
                                    f"your units: {_listing(mine)}"))
        elif known[u]["owner"] != player:
            problems.append(Problem(uw, f"{unit_name(c, state, u)} is {known[u]['owner']}'s, "
                                    "not yours", f"your units: {_listing(mine)}", foreseen=True))
        elif u in moved:
            problems.append(Problem(uw, f"{unit_name(c, state, u)} already moves in {TABLE} "
                                    f"{moved[u]}: each unit moves once a turn (Move 1, Units 18)",
                                    "put the units that go together in one entry",
                                    foreseen=True))
        elif u in no_move:
            problems.append(Problem(uw, f"{unit_name(c, state, u)} cannot move this turn: Lost "
                                    "or Storm was played on its stack (Deck 26-27)",
                                    "leave it out", foreseen=True))
    if any(u not in known or known[u]["owner"] != player for u in move.units):
        return problems
    starts = sorted({known[u]["square"] for u in move.units}, key=order)
    if len(starts) > 1:
        problems.append(Problem(uw, "the units of one entry move together and must start on "
                                f"the same square; these stand on {_names(starts)}",
                                "write one entry for each square", foreseen=True))
        return problems
    group = _Group(c, state, player, move.units, effects)
    here = group.origin
    for i, square in enumerate(move.path, start=1):
        last = i == len(move.path)
        nexts = _listing(group.next_squares(here))
        if not adjacent(here, square):
            problems.append(Problem(pw, f"step {i}: {square} is not adjacent to {here} (Move 1, "
                                    "Adjacency 1-2: list every square entered, each sharing a "
                                    "side with the one before)",
                                    f"from {here} the group may enter {nexts}", foreseen=True))
            break
        reason = group.end_reason(square) if last else group.pass_reason(square)
        if reason:
            problems.append(Problem(pw, f"step {i}: {reason}",
                                    f"from {here} the group may enter {nexts}", foreseen=True))
            break
        here = square
    if len(move.path) > group.move:
        ends = group.reach()
        problems.append(Problem(pw, f"enters {len(move.path)} squares; the group's Move is "
                                f"{group.move} ({group.explain()}), 1 Move point a square "
                                "(Move 1)", f"the group may end on {_listing(ends)}",
                                foreseen=True))
    stranded = group.strand_reason()
    if stranded:
        problems.append(Problem(uw, stranded, "move them together with the Ship, or leave a "
                                "Ship with them", foreseen=True))
    return problems


def _do(state: Mapping[str, Any], move: Move) -> None:
    for u in move.units:
        state["units"][u]["square"] = move.path[-1]


def plan_moves(c: Components, state: Mapping[str, Any], player: str, raw: object,
               effects: Mapping[str, Any] | None = None) -> tuple[list[Move], list[Problem]]:
    """Read and check ``[[orders.move]]`` (``raw``: the list of its tables) for ``player``.

    Each entry is checked against the positions the earlier legal entries leave; ``effects``
    (default ``state["effects"]``) gives ``no_move`` and ``move_bonus``: the caller passes
    the effects its planned card plays would add. Returns a :class:`Move` for every
    well-formed entry (legal or not: :func:`apply_moves` skips the illegal ones with an
    event) and the problems; rule problems are ``foreseen``, shape problems not.
    """
    if raw is None:
        return [], []
    if not isinstance(raw, list):
        return [], [Problem(TABLE, f"must be a list of tables, got {excerpt(raw)}",
                            f'write each move as {TABLE} with units and path')]
    eff = _effects(state, effects)
    sim = dict(state)
    sim["units"] = {u: dict(v) for u, v in state["units"].items()}
    moves: list[Move] = []
    problems: list[Problem] = []
    moved: dict[str, int] = {}
    for i, entry in enumerate(raw, start=1):
        move, shape = _parse(entry, f"{TABLE} {i}")
        problems += shape
        if move is None:
            continue
        moves.append(move)
        rule = _check(c, sim, player, move, eff, moved, f"{TABLE} {i}")
        problems += rule
        for u in move.units:
            moved.setdefault(u, i)
        if not rule:
            _do(sim, move)
    return moves, problems


def apply_moves(c: Components, state: dict[str, Any], moves: list[Move]) -> list[Event]:
    """Carry out the active player's ``moves`` in order (changes ``state["units"]``).

    Every move is checked again on the board as it now stands; a group holding a unit under
    Lost or Storm (Deck 26-27: the others may play them at the start of the Move phase) stays
    where it is, and so does any group whose move became illegal, each with a public event.
    """
    player: str = state["active"]
    eff = _effects(state, None)
    no_move = set(eff.get("no_move") or ())
    events: list[Event] = []
    moved: dict[str, int] = {}
    for i, move in enumerate(moves, start=1):
        where = f"{TABLE} {i}"
        names = _names(unit_name(c, state, u) for u in move.units)
        stuck = [u for u in move.units if u in no_move and u in state["units"]]
        if stuck:
            events.append({
                "type": "move_skipped", "player": player, "units": list(move.units),
                "reason": "no_move",
                "text": f"{player}'s move {i} does not happen: "
                        f"{_names(unit_name(c, state, u) for u in stuck)} cannot move this "
                        "turn (Lost or Storm, Deck 26-27).",
            })
        else:
            problems = _check(c, state, player, move, eff, moved, where)
            if problems:
                events.append({
                    "type": "move_skipped", "player": player, "units": list(move.units),
                    "reason": "illegal",
                    "text": f"{player}'s move {i} ({names}) does not happen: "
                            f"{problems[0].message}.",
                })
            else:
                start = state["units"][move.units[0]]["square"]
                _do(state, move)
                via = f" (via {', '.join(move.path[:-1])})" if len(move.path) > 1 else ""
                events.append({
                    "type": "move", "player": player, "units": list(move.units),
                    "from": start, "path": list(move.path),
                    "text": f"{player} moves {names} from {start} to {move.path[-1]}{via}.",
                })
        for u in move.units:
            moved.setdefault(u, i)
    return events

"""Moving Heroes and Monsters (204) and Heroes aboard ships (215): is a path legal?

A path is the list of hexes a unit enters, in order, from where it stands. These functions only
judge legality against the map and the unit's situation; what happens on the way (Hero Helper
pick-up, interceptions, prizes) is the phase's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pbem.core.errors import Problem

NORMAL_MOVE = 2       # 204 G: two hexes per Moving Player Phase
HERO_MOVE_CAP = 4     # 204 M: never more than four in one Moving Player's Phase


class Board(Protocol):
    """What movement needs to know about the map."""

    def has_hex(self, hex_id: str) -> bool: ...

    def neighbours(self, hex_id: str) -> tuple[str, ...]: ...

    def is_land(self, hex_id: str) -> bool:
        """Contains any portion of land (204 C)."""
        ...

    def crosses_shoreline(self, a: str, b: str) -> bool:
        """The step from ``a`` to ``b`` goes across a shoreline, over water (204 J, 215 B)."""
        ...

    def is_river(self, hex_id: str) -> bool: ...

    def is_shoreline(self, hex_id: str) -> bool:
        """The hex holds a shoreline of a lake, The Sea or the River Ocean (215 F 1)."""
        ...


@dataclass(frozen=True)
class Mover:
    """The unit being moved and what bears on how far and where it may go."""

    unit: int
    kind: str                  # "hero" | "monster"
    at: str
    allowance: int = NORMAL_MOVE   # 204 G, changed only by Hero Helpers or god powers
    ship: bool = False         # 215
    immobile: bool = False     # 210 G 5 Pestilence: may not be moved this game Turn


def check_path(board: Board, mover: Mover, path: Sequence[str], where: str) -> list[Problem]:
    """Every problem with moving ``mover`` along ``path`` (an empty path is no movement)."""
    problems: list[Problem] = []
    if mover.immobile and path:
        return [Problem(where, f"unit {mover.unit} may not be moved this game Turn "
                        "(Pestilence, 210 G 5)", "leave its path empty")]
    allowance = mover.allowance
    if mover.kind == "hero":
        allowance = min(allowance, HERO_MOVE_CAP)  # 204 M
    if mover.ship:
        allowance = NORMAL_MOVE  # 215 J
    if len(path) > allowance:
        problems.append(Problem(where, f"moves {len(path)} hexes; unit {mover.unit} may move "
                                f"{allowance} (204 G{', M' if mover.kind == 'hero' else ''})",
                                f"give at most {allowance} hexes"))
    here = mover.at
    for step, hex_id in enumerate(path, start=1):
        at = f"{where} step {step} ({hex_id})"
        wrong = step_problem(board, here, hex_id, at)
        if wrong is not None:
            problems.append(wrong)
            break
        if mover.kind == "hero":
            if mover.ship:
                if board.is_land(hex_id) and not (board.is_shoreline(hex_id)
                                                  or board.is_river(hex_id)):
                    problems.append(Problem(at, "a Hero aboard a ship stays on water, shoreline "
                                            "and river hexes (215 D-E, G)",
                                            "leave the ship first to move inland"))
            elif not board.is_land(hex_id):
                problems.append(Problem(at, f"{hex_id} is all water: a Hero needs a ship "
                                        "(204 C, 215 A)", "obtain a ship on a shoreline first"))
            elif board.crosses_shoreline(here, hex_id):
                problems.append(Problem(at, f"the step from {here} crosses a shoreline over "
                                        "water: a Hero needs a ship (204 J, 215 B)",
                                        "obtain a ship first, or go round by land"))
        here = hex_id
    return problems


def step_problem(board: Board, here: str, hex_id: str, at: str) -> Problem | None:
    """204 E-F for every unit: the hex exists and is next to the last one."""
    if not board.has_hex(hex_id):
        return Problem(at, f"there is no hex {hex_id} on the map",
                       "hexes are numbered column then row, e.g. 3111")
    if hex_id not in board.neighbours(here):
        return Problem(at, f"{hex_id} is not adjacent to {here} (204 E-F: no skipping hexes)",
                       "list every hex entered, in order")
    return None


def can_obtain_ship(board: Board, hex_id: str) -> bool:
    """215 F 1: a Hero obtains a ship only on a shoreline, never on a river hex alone."""
    return board.is_shoreline(hex_id)

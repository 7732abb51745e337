"""Staging Mythology scenes for the phase tests: a real set-up, then the board edited by hand.

Every helper drives :data:`pbem.games.mythology.game.RULESET` directly, with no campaign on
disk: :func:`new_game` runs the real set-up, :func:`clear_board` takes every Hero and Monster
off the map so that a test puts back only what its scene needs, :func:`write_sheet` records a
Log Sheet as the Log Sheet phase would, and :func:`moving_phase` / :func:`run` open and resolve
one phase. :func:`search` tries a small range of dice keys and returns the first whose outcome
has the property a test needs (a ship roll that fails, a capture that succeeds...), so tests
assert on rolls that were really made rather than on hard-wired key numbers.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import Outcome, PhaseSpec
from pbem.games.mythology import logsheet
from pbem.games.mythology.components import Components, load
from pbem.games.mythology.game import RULESET
from pbem.games.mythology.rules import clockwise_from

State = dict[str, Any]
Event = dict[str, Any]
Orders = dict[str, Any]

PLAYERS = ("ann", "ben", "cyd")
C: Components = load()

# Heroes (id: attack / defense) and Monsters used by the scenes.
PERSEUS, CADMUS, THESEUS, JASON, HERCULES, ATALANTA = 1, 3, 4, 5, 6, 7
ORPHEUS, HECTOR, ACHILLES, AJAX, ZESTES, NESTOR, MEDEA = 9, 12, 13, 14, 15, 30, 19
SOW, CHARYBDIS, HIPPOCAMPUS, KARKINOS = 33, 51, 57, 41

# Hexes of the real map (docs/games/mythology.md; 204 J names 3111, 3112 and 3212).
GREEK_SHORE = "3111"       # Greece, a shoreline facing Euboea
EUBOEA = "3112"            # across the water from 3111 (204 J)
INLAND = "3011"            # Greece, no shoreline; next to 3010, 2911, 3111...
INLAND_2 = "3010"          # next to 3011 and 3009
INLAND_3 = "3009"          # next to 3010
MACEDONIA = "2908"         # Macedonia


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"mythology-scenario/{label}".encode()).digest())


def rng(label: str) -> Rng:
    return Rng(stream(f"public/{label}"), stream(f"sealed/{label}"))


def new_game(players: tuple[str, ...] = PLAYERS, key: str = "game") -> State:
    """The real set-up (102) for ``players``; the state is ready for Turn 1's Log Sheets."""
    return RULESET.setup(players, {"setup": "random"}, {}, rng(f"setup/{key}")).state


def clear_board(state: State) -> None:
    """Every Hero waits off the board and every Monster is gone, so a scene adds its own; the
    Fates are emptied so that the Fate phase does only what a test puts there, and the hands go
    back into the deck so that no Oracle card (010 B 3) changes the Glory a scene expects."""
    for x in state["heroes"].values():
        x.update(status="reserve", hex="")
    for x in state["monsters"].values():
        x.update(status="dead", hex="")
    state["fate_track"] = {k: [] for k in state["fate_track"]}
    state["ships"] = []
    for p in state["seats"]:
        state["deck"] += state["hands"][p]
        state["hands"][p] = []


def put(state: State, unit: int, hex_id: str) -> None:
    table = state["heroes"] if unit <= 32 else state["monsters"]
    table[str(unit)].update(status="board", hex=hex_id)


def place_helper(state: State, helper: str, hex_id: str = "", holder: int = 0) -> None:
    state["helpers"][helper].update(hex="" if holder else hex_id, holder=holder)


def place_prize(state: State, prize: str, hex_id: str = "", holder: int = 0) -> None:
    state["prizes"][prize].update(hex="" if holder else hex_id, holder=holder)


def write_sheet(state: State, player: str, turn: int | None = None, *,
                heroes: Mapping[int, int] | None = None,
                monsters: Mapping[int, int] | None = None,
                occurrences: Iterable[tuple[str, int]] = (),
                aid: Mapping[int, int] | None = None, zeus: int = 0, area: str = "",
                challenges: Iterable[tuple[int, int, int]] = ()) -> None:
    """Record ``player``'s Log Sheet for ``turn`` (default: the current one) in the state."""
    sheet = logsheet.LogSheet(
        heroes=dict(heroes or {}), monsters=dict(monsters or {}),
        occurrences=tuple(logsheet.Occurrence(c, p) for c, p in occurrences),
        aid=dict(aid or {}), zeus=zeus, area=area,
        challenges=tuple(logsheet.ChallengeOrder(u, lim, floor) for u, lim, floor in challenges))
    state["logsheets"][player][str(turn or state["turn"])] = sheet.as_dict()


def set_totals(state: State, player: str, totals: Mapping[int, int]) -> None:
    """208 I: the player's running Hero totals (what the Log Sheets added up to)."""
    state["hero_totals"][player] = {str(h): t for h, t in sorted(totals.items())}


def moving_phase(state: State, mover: str, *, turn: int | None = None,
                 areas: Mapping[str, str] | None = None) -> PhaseSpec:
    """Open ``mover``'s Moving Player phase of the current turn, the others following
    clockwise (202 B 4); every god in Greece unless ``areas`` says otherwise."""
    if turn is not None:
        state["turn"] = turn
    state["step"], state["cursor"] = "move", 0
    state["order"] = clockwise_from(state["seats"], mover)
    for p in state["seats"]:
        state["god_area"][p] = (areas or {}).get(p, "greece")
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "move" and phase.active == mover
    return phase


def fate_phase(state: State, turn: int | None = None) -> PhaseSpec:
    if turn is not None:
        state["turn"] = turn
    state["step"] = "fate"
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == "fate"
    return phase


def run(state: State, orders: Orders | Mapping[str, Orders], key: str = "k",
        phase: PhaseSpec | None = None) -> Outcome:
    """Resolve the open phase. ``orders`` is the active player's order, or every actor's."""
    phase = phase or RULESET.next_phase(state)
    assert phase is not None
    if phase.active is not None and set(orders) != {phase.active}:
        orders = {phase.active: dict(orders)}
    return RULESET.resolve(state, phase, orders, rng(f"{phase.id}/{key}"))


def search(state: State, orders: Orders | Mapping[str, Orders],
           wanted: Callable[[Outcome], bool], tries: int = 400) -> Outcome:
    """Resolve the open phase on copies of ``state`` with keys ``0, 1, ...`` and return the
    first outcome with the ``wanted`` property (its ``state`` is the copy it changed)."""
    for i in range(tries):
        outcome = run(copy.deepcopy(state), orders, key=str(i))
        if wanted(outcome):
            return outcome
    raise AssertionError(f"no dice key among {tries} gives the wanted outcome")


def of_type(outcome: Outcome | list[Event], kind: str) -> list[Event]:
    events = outcome.events if isinstance(outcome, Outcome) else outcome
    return [e for e in events if e.get("type") == kind]


def glory_events(outcome: Outcome) -> dict[str, int]:
    """The Glory each player gained or lost according to the phase's "glory" events."""
    out: dict[str, int] = {}
    for e in of_type(outcome, "glory"):
        if "player" in e:
            out[e["player"]] = out.get(e["player"], 0) + e["amount"]
    return out


def glory_delta(before: Mapping[str, int], after: Mapping[str, int]) -> dict[str, int]:
    return {p: after[p] - before[p] for p in after if after[p] != before[p]}


def hero_hex(state: State, hero: int) -> str:
    return str(state["heroes"][str(hero)]["hex"])


def status(state: State, unit: int) -> str:
    table = state["heroes"] if unit <= 32 else state["monsters"]
    return str(table[str(unit)]["status"])


def scene(players: tuple[str, ...] | None = None) -> tuple[State, list[str]]:
    """An empty board in Turn 1, every god with a blank Log Sheet; the seats, clockwise."""
    state = new_game(players) if players else new_game()
    clear_board(state)
    for p in state["seats"]:
        write_sheet(state, p)
    return state, list(state["seats"])


#: Gods with no halt and no terrain power (011): nothing of theirs stops a move.
QUIET_GODS = ("athena", "demeter", "hera")


def quiet_scene(totals: Mapping[int, int]) -> tuple[State, str, PhaseSpec]:
    """Three quiet gods; Hercules in 3011 (INLAND), the Sow in Macedonia; the first player
    has ``totals`` Power Points on Heroes and moves now."""
    state, seats = scene()
    state["gods"] = dict(zip(seats, QUIET_GODS, strict=True))
    mover = seats[0]
    put(state, HERCULES, INLAND)
    put(state, SOW, MACEDONIA)
    set_totals(state, mover, totals)
    return state, mover, moving_phase(state, mover)

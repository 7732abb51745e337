"""Staging Cyclades action-phase scenes by hand, for test_actions.py and test_creatures.py.

``setup.py`` is written at the same time by another hand, so these helpers build a state of
the shared layout (``pbem/games/cyclades/state.py``) directly: an empty board of the chosen
side, 20 gold each, empty hands and supplies as the data count them; a test then puts on it
only what its scene needs (:func:`land`, :func:`fleet`) and plays one turn with
:func:`play` (``actions.resolve_act``). Dice are real streams: :func:`search` tries a small
range of keys and returns the first whose turn has the property the test needs, so the
tests assert on rolls that were really made.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.games.cyclades import actions
from pbem.games.cyclades.components import MODULES, Components, load
from pbem.games.cyclades.maps import Board, load_board
from pbem.games.cyclades.state import empty_hand, empty_sea, empty_territory, pillars_for
from pbem.games.cyclades.turn import Turn

State = dict[str, Any]
Event = dict[str, Any]

C: Components = load()
VANILLA: Board = load_board("vanilla", 3)
TITANS: Board = load_board("titans", 3)
PLAYERS = ("ann", "bob", "cat")


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"cyclades-actions/{label}".encode()).digest())


def rng(label: str = "x") -> Rng:
    return Rng(stream(f"public/{label}"), stream(f"sealed/{label}"))


def new_state(board: Board = VANILLA, players: Iterable[str] = PLAYERS, *,
              two_player: bool = False, teams: Mapping[str, str] | None = None,
              cycle: int = 2, gold: int = 20) -> State:
    """An empty board of the layout in state.py: nobody holds anything yet."""
    players = list(players)
    return {
        "game": {"board": board.name, "side": board.side, "players": players,
                 "two_player": two_player, "teams": dict(teams or {}),
                 "modules": list(MODULES)},
        "cycle": cycle,
        "step": "act",
        "pillars": pillars_for(players, two_player),
        "turn_order": list(pillars_for(players, two_player)),
        "gold": {p: gold for p in players},
        "hands": {p: empty_hand() for p in players},
        "territories": {t: empty_territory() for t in board.territories},
        "seas": {s: empty_sea() for s in board.seas},
        "figures": {},
        "gods": {"track": ["poseidon", "ares", "zeus"], "unused": [], "seen": [], "bag": []},
        "hades": {"column": 0, "active": False},
        "favors": {"deck": [], "face_up": "", "discard": []},
        "creature_track": {"slots": ["", "", ""], "deck": [], "discard": [], "removed": [],
                           "initial": "", "initial_bought": False},
        "supply": {"prosperity": 31, "priest": 17, "philosopher": 17},
        "monuments": {"offer": [], "built": {}},
        "metropolises": {"offer": [], "held": {}},
        "auction": {},
        "acting": {"queue": [], "index": 0, "finished": []},
        "standing": {},
        "eliminated": [],
        "result": {},
    }


def land(state: State, territory: str, owner: str, troops: int = 0, **more: Any) -> None:
    """Give ``territory`` to ``owner`` with ``troops`` and any other keys of its record."""
    t = state["territories"][territory]
    t["owner"] = owner
    t["troops"] = troops
    for key, value in more.items():
        t[key] = copy.deepcopy(value)
    for key in ("heroes", "artifacts", "egyptians", "monuments"):
        for cid in more.get(key, []):
            hand = state["hands"][owner][key]
            if cid not in hand:
                hand.append(cid)


def fleet(state: State, sea: str, owner: str, fleets: int = 1, undead_fleets: int = 0) -> None:
    state["seas"][sea].update(owner=owner, fleets=fleets, undead_fleets=undead_fleets)


def play(state: State, god: str, player: str, orders: Mapping[str, Any] | None = None,
         key: str = "x") -> tuple[list[Event], dict[str, list[Event]]]:
    """One turn of ``player`` (their pillar) with ``god``, orders checked first. The only
    problems allowed are what the rehearsal at submit says the turn would skip (issue 12),
    and each of them must indeed be skipped when the turn runs."""
    orders = dict(orders or {})
    problems = actions.validate_act(C, board_of(state), state, god, player, orders)
    static = [p for p in problems if "would be skipped when your turn runs" not in p.message]
    assert not static, static
    events, private = actions.resolve_act(C, board_of(state), state, god, player, orders,
                                          rng(key))
    refused = {f"[orders] actions[{e['index']}]" for e in of_type(events, "skipped")
               if "index" in e}
    if "free" in orders and (of_type(events, "free_recruit_moved") or any(
            e.get("rule") == "Cycle 8.3" for e in of_type(events, "skipped"))):
        refused.add("[orders] free")
    assert {p.where for p in problems} <= refused, (problems, refused)
    return events, private


def board_of(state: State) -> Board:
    return TITANS if state["game"]["board"] == "titans" else VANILLA


def turn(state: State, player: str = "ann", god: str = "zeus", key: str = "x") -> Turn:
    """A bare turn context, for calling one rule function directly."""
    return Turn(C, board_of(state), state, player, god, player, rng(key))


def of_type(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.get("type") == kind]


def skipped(events: Iterable[Event]) -> list[str]:
    return [str(e["reason"]) for e in of_type(events, "skipped")]


def search(build: Callable[[], State], run: Callable[[State, str], list[Event]],
           ok: Callable[[State, list[Event]], bool], tries: int = 300
           ) -> tuple[State, list[Event], str]:
    """The first dice key (of ``tries``) whose turn satisfies ``ok``: (state, events, key)."""
    for i in range(tries):
        key = f"k{i}"
        state = build()
        events = run(state, key)
        if ok(state, events):
            return state, events, key
    raise AssertionError("no key gives the wanted dice")

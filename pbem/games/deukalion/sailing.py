"""Moving a ship (MOVING A SHIP, Ship 1-7), deliveries at Athens (Pursuit Deliver 1-5,
Honour 5) and the other players' sailing in the active player's turn (PLAYING A ROUND,
Round 2-3: the goal orders of the sail phase, and the Round 2 sacrifice).

The movement rules (Ship 1-7). A path is the list of squares entered, one orthogonal step
each (Map 13), at most ``steps`` long ("up to", Round 2 Note, analysis 5.1 item 4):

- Ship 1, 3, 4: only water, anchor and Styx squares (``Board.water``): never land, a city, a
  settlement, Athens or the Kylix square.
- Ship 2: anchor squares are safe and shared: a ship enters and passes an anchor where other
  ships lie, and nobody is challenged there. Styx 3: the same on the Styx.
- Ship 5: entering the square of another player's ship (not an anchor, not the Styx) is a
  ship challenge (challenges.ship) and the move ends: that square is the path's last.
- Ship 6: the Hydra's square blocks, unless the Hydra may be challenged
  (challenges.hydra_open: a "Defeat the Hydra" card is displayed, or is the mover's personal
  card, analysis 5.1 item 11): then entering it is a Hydra challenge and the move ends.
- Ship 7, Styx 4: entering the Styx reclaims the Underworld (challenges.styx, Styx 1-2,
  Honour 4) and the move ends. Founding or challenging a place (from a water or anchor square
  next to it, ``Board.approaches``) ends it too: it is the move's last act.
- Ship 7, analysis 5.1 item 14: completing a Pursuit ends the move, wherever it happens on the
  path (pursuits.check_pursuits runs after every square entered, Pursuit 2: e.g. a
  ``sail_hoplites`` task met next to its city); the rest of the path is not sailed and the
  planned ending (a challenge, a foundation) is not carried out.
- Pursuit Deliver 4 ("As soon as you reach one of Athens' anchor squares, you've delivered the
  treasure!"), the brief's ruling: EVERY chest on board is delivered the moment the ship
  enters an anchor (a ship already on an anchor delivers when it enters one again); each
  chest goes back to the empty city space its deliverer's standing ``return_to`` picks
  (challenges.return_space). Then the Pursuit check with the delivered chests (a chain as in
  Pursuit Ex) and 1 Honour card per chest that completed no Pursuit (Honour 5, analysis 5.1
  item 12). A delivery that completes no Pursuit does not end the move (Honour 5 with Ship 7).
- End 1: the move stops the moment the game is over.

The sail phase (design "Phases"; Round 2-3). Each non-active player sends goal orders
(``[[orders.plan]]``, tried in order, the first still possible runs), executed in seat order
from the active player's left, each recomputed when that player's turn to sail comes:

- ``challenge_ship`` (target = player): enter his ship's square (Ship 5); not on an anchor or
  the Styx (Ship 2, Styx 3).
- ``challenge_city`` (target = city or settlement): reach a square next to it, challenge it
  (challenges.place). A city with no chest on it, a settlement nobody owns (found it) or one
  of one's own is skipped.
- ``challenge_hydra`` (no target; an addition to the design's list, since "reach" never
  enters a piece): enter the Hydra's square while it may be challenged (Ship 6).
- ``found`` (target = settlement): reach a square next to it, found it (challenges.found):
  only if nobody owns it and the shipboard has its hoplites (Found 1-3).
- ``deliver``: reach an Athens anchor with chests on board (another anchor than the one the
  ship is on).
- ``styx``: reach a Styx square (another than the one the ship is on).
- ``reach`` (target = square): sail to that square (a water, anchor or Styx square with no
  piece on it, or an anchor or the Styx); deliveries and Pursuits on the way happen.
- ``cards`` (target = city; optional ``cards`` = Action card ids to give first): reach a
  square next to the city of a displayed (or one's own) ``sail_cards`` Pursuit with enough
  Action cards in hand, and sacrifice them (Pursuit Cards 1-4).
- ``retrieve2`` (Round 2 Note): no move and no action; 2 hoplites back from the Underworld
  (fewer if fewer are there, or if the shipboard has no room after dumping the chests of the
  standing ``dump`` colours: actions.take_back). Skipped when the Underworld is empty.
- ``stay``: no move.

A goal is reached by the shortest legal path within the centre die, ties broken by the
lowest path (the squares compared in order, by id); the path goes only through squares where
the move would not end (another ship, the Hydra, the Styx, a square where a Pursuit would be
completed: Ship 5-7), so a goal is never cut short on the way (a ruling: the player steers
around such squares when he can; a ``reach`` goal may end on one). A goal that cannot be
reached now is skipped with a public event saying why, and the next one is tried; none
possible: the ship stays. The centre die is raised by the player's permanent ``sea_legs``
cards (actions.toml). The plans are sealed; what they do is public when it happens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem
from pbem.games.deukalion import actions, challenges, pursuits, scoring
from pbem.games.deukalion.components import Components
from pbem.games.deukalion.outcome import merge

State = dict[str, Any]
Event = dict[str, Any]
Private = dict[str, list[Event]]

TABLE = "[[orders.plan]]"
GOALS = ("challenge_ship", "challenge_city", "challenge_hydra", "found", "deliver", "styx",
         "reach", "cards", "retrieve2", "stay")
TARGETED = ("challenge_ship", "challenge_city", "found", "reach", "cards")
THEN = ("challenge_city", "found", "cards")  # a move's ending by a place (Round 6.5)
MAX_PLANS = 12
RETRIEVE = 2  # Round 2 Note: "retrieve 2 hoplites from the Underworld"

#: Why arriving on a square ends the move (the empty string: it does not).
SHIP, HYDRA, STYX, PURSUIT = "ship", "hydra", "styx", "pursuit"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")



def _streams(stream: Stream | Rng, sealed: Stream | None) -> tuple[Stream, Stream]:
    """The public stream (throws) and the sealed one (a stolen card), from an Rng or a
    Stream (then the sealed one is ``sealed``; tests may leave it out: the same stream)."""
    if isinstance(stream, Rng):
        return stream.public, sealed or stream.sealed
    return stream, sealed or stream


def order_from(state: Mapping[str, Any], player: str) -> list[str]:
    """``player``, then the others in seat order after him (the order of Pursuit checks)."""
    seats = list(state["seats"])
    i = seats.index(player)
    return seats[i:] + seats[:i]


def sail_bonus(c: Components, state: Mapping[str, Any], player: str) -> int:
    """The squares ``player``'s permanent ``sea_legs`` cards add when he sails in another
    player's turn (Action 1; actions.toml)."""
    return actions.permanent_amount(c, state, player, "sea_legs")


def _hydra_open(c: Components, state: Mapping[str, Any], player: str) -> bool:
    """Ship 6, Challenge Hydra 0 (challenges.hydra_open, which only reads the state)."""
    return challenges.hydra_open(c, cast(State, state), player)


# --- the movement rules ---------------------------------------------------------------------

def _stop(c: Components, state: Mapping[str, Any], player: str, sq: str) -> str | None:
    """Entering ``sq`` now: None if the ship may not (Ship 1, 3, 6), else why the move ends
    there (SHIP, HYDRA, STYX, PURSUIT) or "" (it goes on)."""
    b = c.board
    if not b.water(sq):
        return None
    if sq == state["hydra"]:
        return HYDRA if _hydra_open(c, state, player) else None  # Ship 6
    kind = b.squares[sq].kind
    if kind == "styx":
        return STYX  # Styx 4
    if kind == "water" and any(s == sq for p, s in state["ships"].items() if p != player):
        return SHIP  # Ship 5
    probe = {**state, "ships": {**state["ships"], player: sq}}
    ctx: dict[str, Any] = {}
    if kind == "anchor" and state["board"][player]["chests"]:
        ctx["delivered"] = list(state["board"][player]["chests"])
    cards = pursuits.candidates(state, player)
    chests = ctx.get("delivered", [])
    if pursuits.completable(c, probe, player, cards, ctx, chests):  # Ship 7
        return PURSUIT
    return ""


def why_not_enter(c: Components, state: Mapping[str, Any], player: str, sq: str) -> str:
    """Why ``player``'s ship may not enter ``sq`` at all ("" if it may)."""
    b = c.board
    if sq not in b.squares:
        return f"{sq!r} is not a square of the board (a1-i7)"
    if b.squares[sq].kind == "kylix":
        return f"{sq} is the Kylix's square: nobody enters it (Ship 4)"
    if not b.water(sq):
        what = b.squares[sq].name or b.squares[sq].kind
        return f"{sq} is land ({what}): ships sail on water and the Styx only (Ship 3)"
    if sq == state["hydra"] and not _hydra_open(c, state, player):
        return (f"the Hydra is on {sq}: ships cannot move through it unless a \"Defeat the "
                "Hydra\" card is on display (Ship 6)")
    return ""


def legal_path(c: Components, state: Mapping[str, Any], player: str, path: Sequence[str],
               steps: int) -> str:
    """Why ``path`` (the squares entered, in order) is not a legal ship move of at most
    ``steps`` squares for ``player`` now ("" if it is): Ship 1-6, Styx 4. A path may still
    end early when the game decides it (a Pursuit completed on the way, Ship 7)."""
    if len(path) > steps:
        return f"{len(path)} squares, more than the {steps} allowed (Kylix Move 1, Round 2)"
    here = state["ships"][player]
    for i, sq in enumerate(path):
        if why := why_not_enter(c, state, player, sq):
            return why
        if sq not in c.board.neighbours(here):
            return (f"{sq} does not share a side with {here}: ships move orthogonally "
                    "(Ship 1, Map 13)")
        stop = _stop(c, state, player, sq)
        if i < len(path) - 1 and stop in (SHIP, HYDRA, STYX):
            what = {SHIP: "entering another ship's square is a challenge (Ship 5)",
                    HYDRA: "entering the Hydra's square is a challenge (Ship 6)",
                    STYX: "entering the Styx (Styx 4)"}[stop]
            return f"the move ends on {sq}: {what}"
        here = sq
    return ""


def _search(c: Components, state: Mapping[str, Any], player: str, steps: int
            ) -> dict[str, tuple[list[str], str]]:
    """Every square the ship can end on within ``steps``: its shortest path (ties: the lowest
    path, squares compared in order) and why the move ends there ("" if it need not)."""
    start = state["ships"][player]
    out: dict[str, tuple[list[str], str]] = {start: ([], "")}
    frontier = [start]
    for _ in range(max(0, steps)):
        nxt: list[str] = []
        for sq in frontier:  # in the order of their paths: first found = lowest path
            path = out[sq][0]
            for n in c.board.neighbours(sq):  # in id order
                if n in out:
                    continue
                stop = _stop(c, state, player, n)
                if stop is None:
                    continue
                out[n] = ([*path, n], stop)
                if not stop:
                    nxt.append(n)
        frontier = nxt
    return out


def reach(c: Components, state: Mapping[str, Any], player: str, steps: int
          ) -> dict[str, list[str]]:
    """Every square ``player``'s ship can end a move of at most ``steps`` on now, with the
    path that gets there (shortest, then lowest; the ship's own square with ``[]``). A square
    holding another ship (not an anchor, not the Styx) or the Hydra is listed when entering it
    is a challenge."""
    return {sq: path for sq, (path, _) in _search(c, state, player, steps).items()}


def _nearest(found: Mapping[str, tuple[list[str], str]], squares: Sequence[str],
             stops: Sequence[str]) -> list[str] | None:
    """The shortest, then lowest, path to one of ``squares`` whose arrival ends as ``stops``
    allow."""
    best: list[str] | None = None
    for sq in squares:
        if sq in found and found[sq][1] in stops:
            path = found[sq][0]
            if best is None or (len(path), path) < (len(best), best):
                best = path
    return best


# --- arriving on a square ----------------------------------------------------------------------

def _check(c: Components, state: State, player: str, stream: Stream, label: str,
           context: pursuits.Context | None = None) -> tuple[list[Event], Private, bool]:
    done = pursuits.settle(c, state, order_from(state, player), stream, label, context)
    return done.events, done.private, player in done.completed


def deliver(c: Components, state: State, player: str, stream: Stream, label: str
            ) -> tuple[list[Event], Private, bool]:
    """Pursuit Deliver 4-5, Honour 5: every chest on ``player``'s shipboard is delivered at
    the anchor his ship has entered; each goes back to an empty city space (his
    ``return_to``); then the Pursuit check with them. Returns the events, the private events
    and whether he completed a Pursuit (Ship 7)."""
    board = state["board"][player]
    delivered: list[str] = []
    where: list[str] = []
    for colour in list(board["chests"]):
        city = challenges.return_space(c, state, player)
        if not city:
            break
        board["chests"].remove(colour)
        state["chests"].setdefault(city, []).append(colour)
        delivered.append(colour)
        where.append(f"{colour} to {c.place_name(city)}")
    how = challenges.policy(state, player)["return_to"].replace("_", " ")
    events: list[Event] = [{
        "type": "deliver", "player": player, "square": state["ships"][player],
        "chests": delivered, "text": f"{player} reaches the Athens anchor "
        f"{state['ships'][player]} and delivers {_plural(len(delivered), 'treasure chest')} "
        f"({', '.join(delivered)}); they go back on the cities: {', '.join(where)} ({how}; "
        "Pursuit Deliver 4)."}]
    more, private, completed = _check(c, state, player, stream, f"{label}/deliver",
                                      {player: {"delivered": delivered}})
    return events + more, private, completed


def arrive(c: Components, state: State, player: str, stream: Stream, label: str,
           sealed: Stream) -> tuple[list[Event], Private, bool]:
    """What entering the ship's current square does (Ship 2, 5-7, Styx 1-4, Pursuit Deliver
    4): a delivery, the Styx, a ship or Hydra challenge, the Pursuit check. Returns the
    events, the private events and whether the move ends there."""
    sq = state["ships"][player]
    kind = c.board.squares[sq].kind
    events: list[Event] = []
    private: Private = {}
    ended = False
    if sq == state["hydra"]:
        events += challenges.hydra(c, state, player, stream, f"{label}/hydra")
        more, secret, _ = _check(c, state, player, stream, label)
        events += more
        merge(private, secret)
        ended = True
    elif kind == "styx":
        events += challenges.styx(c, state, player)
        more, secret, _ = _check(c, state, player, stream, label)
        events += more
        merge(private, secret)
        ended = True
    elif kind == "water" and any(s == sq for p, s in state["ships"].items() if p != player):
        defender = next(p for p in order_from(state, player)
                        if p != player and state["ships"][p] == sq)
        more, secret = challenges.ship(c, state, player, defender, stream, f"{label}/ship",
                                       sealed)
        events += more
        merge(private, secret)
        won = any(e["type"] == "challenge-ship" and e["winner"] == player for e in more)
        context = {player: {"defeated": defender}} if won else None
        more, secret, _ = _check(c, state, player, stream, label, context)
        events += more
        merge(private, secret)
        ended = True
    elif kind == "anchor" and state["board"][player]["chests"]:
        events, private, ended = deliver(c, state, player, stream, label)
    else:
        events, private, ended = _check(c, state, player, stream, label)
    events += scoring.reached(c, state, order_from(state, player))
    return events, private, ended or state["step"] == "over"


def finish_move(c: Components, state: State, player: str, then: str, target: str,
                stream: Stream | Rng, label: str, *, sealed: Stream | None = None,
                give: Sequence[str] = ()) -> tuple[list[Event], Private]:
    """The act a move ends in from the ship's square (Round 6.5, Ship 7): ``then`` =
    ``"challenge_city"`` (a city or another player's settlement: challenges.place),
    ``"found"`` (challenges.found) or ``"cards"`` (sacrifice Action cards for a ``sail_cards``
    Pursuit at ``target``: the cards ``give`` first); "" does nothing. An act that cannot be
    done now is skipped with an event saying why."""
    public, _ = _streams(stream, sealed)
    events: list[Event] = []
    private: Private = {}
    if not then or state["step"] == "over":
        return events, private
    if then == "challenge_city":
        why = challenges.why_not_place(c, state, player, target)
        if not why and target in c.board.cities and not state["chests"].get(target):
            why = f"{c.place_name(target)} has no treasure chest to take"
        if not why:
            events += challenges.place(c, state, player, target, public, f"{label}/place")
    elif then == "found":
        why = challenges.why_not_found(c, state, player, target)
        if not why:
            events += challenges.found(c, state, player, target)
    elif then == "cards":
        why = ""
        if pursuits.cards_target(c, state, player, target) is None:
            why = (f"no Pursuit card on display or of {player}'s own asks for Action cards at "
                   f"{c.place_name(target)}, or {player} lacks the cards (Pursuit Cards 1)")
        elif not pursuits.at_place(c, state, player, target):
            why = f"{player}'s ship is not next to {c.place_name(target)} (Pursuit Cards 3)"
    else:
        why = f"{then!r} is not an ending of a move"
    if why:
        events.append({"type": "skip", "player": player, "what": then, "target": target,
                       "text": f"{player} does not {then.replace('_', ' ')} "
                       f"{c.place_name(target)}: {why}."})
        return events, private
    context = {player: {"cards": target, "give": list(give)}} if then == "cards" else None
    more, secret, _ = _check(c, state, player, public, label, context)
    events += more
    merge(private, secret)
    events += scoring.reached(c, state, order_from(state, player))
    return events, private


def move_ship(c: Components, state: State, player: str, path: Sequence[str],
              stream: Stream | Rng, label: str, *, sealed: Stream | None = None,
              then: str = "", target: str = "", give: Sequence[str] = ()
              ) -> tuple[list[Event], Private]:
    """Sail ``path`` (checked with :func:`legal_path` by the caller) square by square, with
    what each square entered does (:func:`arrive`); if the move is not over at its end, the
    ending ``then`` at ``target`` (:func:`finish_move`)."""
    public, secret_stream = _streams(stream, sealed)
    events: list[Event] = []
    private: Private = {}
    start = state["ships"][player]
    sailed: list[str] = []

    def say_sailed() -> None:
        if sailed:
            events.append({"type": "sail", "player": player, "from": start,
                           "path": list(sailed), "to": sailed[-1],
                           "text": f"{player} sails {start} - " + " - ".join(sailed)
                           + f" ({_plural(len(sailed), 'square')}; Ship 1)."})

    for i, sq in enumerate(path):
        state["ships"][player] = sq
        sailed.append(sq)
        more, secret, ended = arrive(c, state, player, public, f"{label}/{i + 1}",
                                     secret_stream)
        if more or ended:
            say_sailed()
            start, sailed = sq, []
        events += more
        merge(private, secret)
        if ended:
            rest = list(path[i + 1:])
            if state["step"] != "over" and (rest or then in THEN):
                events.append({"type": "move-ends", "player": player, "square": sq,
                               "rest": rest, "text": f"{player}'s move ends on {sq} (Ship 7)"
                               + (f": {' - '.join(rest)} not sailed" if rest else "")
                               + (f"; no {then.replace('_', ' ')} {c.place_name(target)}"
                                  if then in THEN else "") + "."})
            return events, private
    say_sailed()
    if then in THEN:
        more, secret = finish_move(c, state, player, then, target, public, label,
                                   sealed=secret_stream, give=give)
        events += more
        merge(private, secret)
    return events, private


# --- the Round 2 sacrifice -----------------------------------------------------------------------

def retrieve2(c: Components, state: State, player: str) -> list[Event]:
    """Round 2 Note: the whole move (and its actions) sacrificed, 2 hoplites back from the
    Underworld (dumping the chests of the standing ``dump`` colours to make room)."""
    dump = challenges.policy(state, player)["dump"]
    return actions.take_back(c, state, player, RETRIEVE, dump,
                             "Round 2: the whole move sacrificed")


def _retrieve_why(c: Components, state: Mapping[str, Any], player: str) -> str:
    if state["underworld"][player] < 1:
        return f"{player} has no hoplite in the Underworld"
    board = state["board"][player]
    dumpable = sum(1 for x in board["chests"] if x in challenges.policy(state, player)["dump"])
    if actions.room(c, state, player) + dumpable < 1:
        return f"{player}'s shipboard has no room (Map 15)"
    return ""


# --- the goal orders of the sail phase -----------------------------------------------------------

def plan_sail(c: Components, state: Mapping[str, Any], player: str, raw: Any
              ) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The ``[[orders.plan]]`` entries (a list, or the whole orders table) as plans, and the
    problems found at submit (shapes and names; what depends on where the pieces will be is
    decided when the player's turn to sail comes)."""
    if isinstance(raw, Mapping) and "goal" not in raw:
        raw = raw.get("plan", [])
    if isinstance(raw, Mapping):
        raw = [raw]
    problems: list[Problem] = []
    plans: list[dict[str, Any]] = []
    if not isinstance(raw, list):
        return [], [Problem(TABLE, "must be a list of tables", "write each goal as "
                            "[[orders.plan]] with goal = ...")]
    if len(raw) > MAX_PLANS:
        problems.append(Problem(TABLE, f"{len(raw)} goals, at most {MAX_PLANS}",
                                "keep the goals you would try first"))
    b = c.board
    places = sorted([*b.cities, *b.settlements])
    for i, entry in enumerate(raw[:MAX_PLANS], 1):
        where = f"{TABLE} {i}"
        if not isinstance(entry, Mapping):
            problems.append(Problem(where, "must be a table", "goal = \"deliver\""))
            continue
        here = len(problems)
        bad = [k for k in entry if k not in ("goal", "target", "cards")]
        problems += [Problem(f"{where} {k}", "unknown key", "keys: goal, target, cards")
                     for k in bad]
        goal = entry.get("goal")
        if goal not in GOALS:
            problems.append(Problem(f"{where} goal", f"{goal!r} is not a goal",
                                    "one of " + ", ".join(f'"{g}"' for g in GOALS)))
            continue
        target = entry.get("target", "")
        if goal not in TARGETED:
            if "target" in entry:
                problems.append(Problem(f"{where} target", f"\"{goal}\" takes no target",
                                        "leave target out"))
        elif not isinstance(target, str) or not target:
            problems.append(Problem(f"{where} target", f"\"{goal}\" needs a target",
                                    _target_hint(c, state, goal)))
        elif goal == "challenge_ship" and (target not in state["seats"] or target == player):
            problems.append(Problem(f"{where} target", f"{target!r} is not another player",
                                    _target_hint(c, state, goal, player)))
        elif goal in ("challenge_city", "cards") and target not in places:
            problems.append(Problem(f"{where} target", f"{target!r} is not a city or "
                                    "settlement", _target_hint(c, state, goal)))
        elif goal == "found" and target not in b.settlements:
            problems.append(Problem(f"{where} target", f"{target!r} is not a settlement",
                                    _target_hint(c, state, goal)))
        elif goal == "reach" and (target not in b.squares or not b.water(target)):
            problems.append(Problem(f"{where} target", f"{target!r} is not a water, anchor "
                                    "or Styx square (Ship 1-4)", "a square id such as \"e3\""))
        cards = entry.get("cards", [])
        if "cards" in entry and (goal != "cards" or not isinstance(cards, list) or not all(
                isinstance(x, str) and x in c.actions for x in cards)):
            problems.append(Problem(f"{where} cards", "a list of Action card ids, with goal = "
                                    "\"cards\" only", "ids: " + ", ".join(c.actions)))
        if len(problems) == here:
            plan: dict[str, Any] = {"goal": goal}
            if goal in TARGETED:
                plan["target"] = target
            if goal == "cards" and cards:
                plan["cards"] = list(cards)
            plans.append(plan)
    return plans, problems


def _target_hint(c: Components, state: Mapping[str, Any], goal: str, player: str = "") -> str:
    b = c.board
    if goal == "challenge_ship":
        return "one of " + ", ".join(p for p in state["seats"] if p != player)
    if goal == "found":
        return "one of " + ", ".join(b.settlements)
    if goal == "reach":
        return "a square id such as \"e3\""
    return "one of " + ", ".join([*b.cities, *b.settlements])


def goal_path(c: Components, state: Mapping[str, Any], player: str, plan: Mapping[str, Any],
              steps: int) -> tuple[list[str] | None, str]:
    """The path that reaches ``plan``'s goal now within ``steps`` (``[]``: no move needed),
    or None and why it cannot be reached."""
    goal, target = plan["goal"], plan.get("target", "")
    b = c.board
    here = state["ships"][player]
    if goal in ("stay", "retrieve2"):
        why = _retrieve_why(c, state, player) if goal == "retrieve2" else ""
        return (None, why) if why else ([], "")
    found = _search(c, state, player, steps)
    far = f"out of reach within {_plural(steps, 'square')}"
    if goal == "challenge_ship":
        sq = state["ships"][target]
        kind = b.squares[sq].kind
        if kind == "anchor":
            return None, f"{target} is on an anchor of Athens: anchors are safe (Ship 2)"
        if kind == "styx":
            return None, f"{target} is on the River Styx: no challenges there (Styx 3)"
        path = _nearest(found, [sq], (SHIP,))
        return (path, "") if path is not None else (None, f"{target}'s ship on {sq} is {far}")
    if goal == "challenge_hydra":
        if not _hydra_open(c, state, player):
            return None, "no \"Defeat the Hydra\" card is on display (Challenge Hydra 0)"
        path = _nearest(found, [state["hydra"]], (HYDRA,))
        return (path, "") if path is not None else (None, f"the Hydra is {far}")
    if goal in ("challenge_city", "found", "cards"):
        name = c.place_name(target)
        why = ""
        if goal == "found":
            owner = state["settlements"][target]["owner"]
            if owner:
                why = f"{name} is already {owner}'s (Found 1)"
            elif state["board"][player]["hoplites"] < b.settlements[target].hoplites:
                why = (f"founding {name} takes {b.settlements[target].hoplites} hoplites from "
                       "the shipboard (Found 3)")
        elif goal == "challenge_city" and target in b.settlements:
            owner = state["settlements"][target]["owner"]
            if not owner:
                why = f"{name} belongs to nobody: found it instead (Found 1)"
            elif owner == player:
                why = f"{name} is already {player}'s"
        elif goal == "challenge_city" and not state["chests"].get(target):
            why = f"{name} has no treasure chest to take"
        elif goal == "cards" and pursuits.cards_target(c, state, player, target) is None:
            why = (f"no Pursuit card on display or of {player}'s own asks for Action cards at "
                   f"{name}, or {player} lacks the cards (Pursuit Cards 1)")
        if why:
            return None, why
        path = _nearest(found, b.approaches(target), ("",))
        return (path, "") if path is not None else (None, f"every square next to {name} is "
                                                          f"{far} or taken")
    if goal == "deliver":
        if not state["board"][player]["chests"]:
            return None, f"{player} carries no treasure chest"
        path = _nearest(found, [a for a in b.anchors if a != here], ("", PURSUIT))
        return (path, "") if path is not None else (None, f"every Athens anchor is {far}")
    if goal == "styx":
        path = _nearest(found, [s for s in b.styx if s != here], (STYX,))
        return (path, "") if path is not None else (None, f"the River Styx is {far}")
    # reach
    if target == here:
        return [], ""
    path = _nearest(found, [target], ("", STYX, PURSUIT))
    if path is None:
        taken = target == state["hydra"] or (target in found and found[target][1] == SHIP)
        return None, (f"{target} holds a ship or the Hydra (use challenge_ship or "
                      "challenge_hydra)" if taken else f"{target} is {far}")
    return path, ""


def run_sail(c: Components, state: State, player: str, plans: Sequence[Mapping[str, Any]],
             steps: int, stream: Stream | Rng, label: str, *, sealed: Stream | None = None
             ) -> tuple[list[Event], Private]:
    """Round 2-3: ``player`` sails in another player's turn by the first of his ``plans``
    (from :func:`plan_sail`) still possible now, up to ``steps`` (the centre die; his
    ``sea_legs`` cards are added here). ``stream`` is the record's Rng (or its public
    Stream, then ``sealed`` draws a stolen card). Returns the public and private events."""
    public, secret_stream = _streams(stream, sealed)
    steps += sail_bonus(c, state, player)
    events: list[Event] = []
    private: Private = {}
    if state["step"] == "over":
        return events, private
    for plan in plans:
        goal = plan["goal"]
        path, why = goal_path(c, state, player, plan, steps)
        target = plan.get("target", "")
        what = {"styx": "reach the Styx", "deliver": "deliver at Athens",
                "reach": "reach", "cards": "give Action cards at",
                "retrieve2": "take 2 hoplites back"}.get(goal, goal.replace("_", " ")) + (
                    f" {target}" if target else "")
        if path is None:
            events.append({"type": "skip", "player": player, "goal": goal, "target": target,
                           "text": f"{player} cannot {what} now: {why}; the next goal is "
                           "tried (Round 2-3)."})
            continue
        if goal == "stay":
            events.append({"type": "stay", "player": player, "text": f"{player} stays on "
                           f"{state['ships'][player]} (Round 2: no player has to move)."})
            return events, private
        if goal == "retrieve2":
            events += retrieve2(c, state, player)
            events += scoring.reached(c, state, order_from(state, player))
            return events, private
        then = goal if goal in THEN else ""
        more, secret = move_ship(c, state, player, path, public, label, sealed=secret_stream,
                                 then=then, target=target, give=plan.get("cards", ()))
        if not path and not then:
            more.insert(0, {"type": "stay", "player": player, "text": f"{player} is already "
                            f"on {state['ships'][player]} ({what})."})
        events += more
        merge(private, secret)
        return events, private
    events.append({"type": "stay", "player": player, "text": f"{player} stays on "
                   f"{state['ships'][player]}: no goal possible (Round 2: no player has to "
                   "move)."})
    return events, private

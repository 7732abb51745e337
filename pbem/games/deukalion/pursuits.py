"""Pursuit cards (PURSUIT CARDS, Pursuit 0.1-0.4, Pursuit 1-5, Pursuit Ex, Pursuit Deliver
1-5, Pursuit Ship 1-3, Pursuit Hoplites, Pursuit Cards 1-4, Pursuit Hydra; Honour 2, 5).

:func:`check_pursuits` runs after every event (Pursuit 2: "Pursuits can be completed by any
player at any time"): every player named, in the order given (the player whose event it was
first), is checked against the two displayed cards and his own personal card; each card met
is taken at once, the display is refilled from the top of the sealed pursuit deck (the last
id of ``state["pursuit_deck"]``) with a public event naming the new card (Pursuit 0.4), and
the check runs again, so that a chain completes in one go (Pursuit 4, Pursuit Ex). What an
event gives each player is its *context* (a mapping per player):

- ``"delivered"``: the colours of the chests this player has just delivered at an Athens
  anchor (Pursuit Deliver 4), for ``deliver`` tasks;
- ``"defeated"``: the player whose ship this player has just beaten, for ``defeat_ship``;
- ``"hydra"``: True when this player has just beaten the Hydra, for ``defeat_hydra``;
- ``"cards"``: the city where this player chooses to sacrifice Action cards (a ``cards``
  order), with ``"give"`` the card ids to give (default: the first ones of the hand).

``sail_hoplites`` tasks need no context: the ship's square and the shipboard say it.

Rulings, each with its clause:

- Pursuit 0.2 ("which only they can achieve"): a personal card is checked for its owner only
  and is never shared; once achieved it is public (``state["personal"][p] = ""``,
  ``state["achieved"][p]``).
- Pursuit 3 (simultaneous completion): a displayed card met by two or more players in the
  same check (the same event) goes to nobody: each of them takes an Honour card, the card
  leaves the game (it is in no list of the state any more) and the display is refilled. With
  seat-order sailing this needs one event to serve two players (analysis 5.1 item 13), e.g.
  a push that leaves the loser next to a city of his ``sail_hoplites`` task while the winner
  meets the same card.
- Pursuit 2 ("You can complete more than one Pursuit at a time") and Pursuit 4 (chains): the
  context of an event holds for the whole chain, as in Pursuit Ex where the red chest of the
  same delivery completes the card turned over after the green one. A delivered chest counts
  for one card only (it is delivered once); a deed (a victory, the ship's square) counts for
  every card it meets. Among the cards a player can complete at once, the chests are shared
  out to earn the most points (then the most cards, then the fewest chests; the display
  before the personal card).
- Honour 5 (analysis 5.1 item 12): after the chain, each delivered chest that completed no
  Pursuit earns one Honour card.
- Pursuit Ship 1-3 ("Travel to the square occupied by that player's ship. Challenge them. If
  you win"): ``defeat_ship`` is met by the challenger who wins a ship challenge, not by a
  defender who wins it (the caller gives ``"defeated"`` to the challenger only).
- Pursuit Cards 3 ("sacrifice the required number of Action cards"): a ``sail_cards`` task
  is met only on the player's own ``cards`` order, from a square next to the city (a water
  or anchor square, ``Board.approaches``), with enough cards in hand; the cards go to the
  bottom of the Action deck (the front of ``state["action_deck"]``), named privately to the
  player, counted publicly. The sacrificed cards serve one card only.
- Pursuit Hoplites, analysis 5.1 item 15: a ``sail_hoplites`` task is met as soon as the
  ship stands next to the place (water or anchor square) with at least that many hoplites on
  board; ``leave`` hoplites then go from the shipboard to ``state["placed"]``, out of play
  for the rest of the game (the design's State).
- Pursuit Hydra, analysis 5.1 item 11: a ``defeat_hydra`` task is met by a win against the
  Hydra (a challenge, or an attack by the Hydra); the displayed card itself is taken by
  challenges.py when it happens, so only a personal Hydra card is left for this check.
- Pursuit 0.4 ("Two Pursuit cards must be on display throughout the game"): when the pursuit
  deck is empty the display shrinks (authored; the seed is silent).
- End 1: the check stops the moment a player reaches the target (scoring.reached).
- Honour cards are a counter (``state["honour"]``); the 14 of the box are a physical count
  (analysis 5.1 item 16).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.dice import Stream
from pbem.games.deukalion import scoring
from pbem.games.deukalion.components import Components, Pursuit, Task

State = dict[str, Any]
Event = dict[str, Any]
Private = dict[str, list[Event]]
Context = Mapping[str, Mapping[str, Any]]


def card_text(c: Components, card: str) -> str:
    """``p05 (2 points: Deliver 1 black treasure chest to Athens / Defeat another player's
    ship)``."""
    p = c.pursuits[card]
    return (f"{card} ({p.points} point{'s' if p.points != 1 else ''}: "
            + " / ".join(t.text(c) for t in p.tasks) + ")")


def _names(items: Iterable[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def candidates(state: Mapping[str, Any], player: str) -> list[str]:
    """The Pursuit cards ``player`` may complete now: the display, then his personal card
    (Pursuit 0.2, 0.4)."""
    out = [x for x in state["display"] if x]
    if state["personal"].get(player):
        out.append(state["personal"][player])
    return out


def at_place(c: Components, state: Mapping[str, Any], player: str, place: str) -> bool:
    """The ship stands on a square next to ``place`` (a water or anchor square: Pursuit
    Hoplites, Pursuit Cards 3, Challenge City 0)."""
    return place in c.board.adjacent_places(state["ships"][player])


def _consume(tasks: Sequence[Task], chests: Sequence[str]) -> list[str] | None:
    """The chests left once the ``deliver`` tasks have taken theirs (coloured tasks first,
    then the any-colour ones), or None if there are not enough."""
    left = list(chests)
    for t in sorted(tasks, key=lambda t: t.colour == ""):
        for _ in range(t.count):
            pick = next((i for i, col in enumerate(left) if not t.colour or col == t.colour),
                        None)
            if pick is None:
                return None
            left.pop(pick)
    return left


def task_met(c: Components, state: Mapping[str, Any], player: str, task: Task,
             context: Mapping[str, Any] | None = None) -> bool:
    """Whether ``player`` meets ``task`` now, given the event's ``context`` for him (see the
    module docstring): ``deliver`` needs ``delivered`` chests, ``defeat_ship`` a ``defeated``
    player, ``defeat_hydra`` a ``hydra`` win, ``sail_cards`` a ``cards`` order for its city;
    ``sail_hoplites`` and ``sail_cards`` look at the ship's square."""
    ctx = context or {}
    if task.kind == "deliver":
        return _consume([task], ctx.get("delivered", ())) is not None
    if task.kind == "defeat_ship":
        return bool(ctx.get("defeated"))
    if task.kind == "defeat_hydra":
        return bool(ctx.get("hydra"))
    if task.kind == "sail_hoplites":
        return (at_place(c, state, player, task.place)
                and state["board"][player]["hoplites"] >= task.hoplites)
    if task.kind == "sail_cards":
        return (ctx.get("cards") == task.place and at_place(c, state, player, task.place)
                and len(state["hands"][player]) >= task.cards)
    return False


@dataclass
class _Claim:
    player: str
    card: str
    task: Task


@dataclass
class Settled:
    """What a check did: the events, the private events, the cards each player completed
    (shared ones included: Pursuit 3) and the chests each deliverer has left unused."""

    events: list[Event] = field(default_factory=list)
    private: Private = field(default_factory=dict)
    completed: dict[str, list[str]] = field(default_factory=dict)
    unused: dict[str, list[str]] = field(default_factory=dict)


def completable(c: Components, state: Mapping[str, Any], player: str, cards: Sequence[str],
          ctx: Mapping[str, Any], chests: Sequence[str]) -> list[tuple[str, Task]]:
    """The cards ``player`` completes now, each with the task that does it: the combination
    with the most points, then the most cards, then the fewest chests (Pursuit 2)."""
    options: list[list[Task | None]] = []
    for card in cards:
        met = [t for t in c.pursuits[card].tasks
               if task_met(c, state, player, t, {**ctx, "delivered": list(chests)})]
        free = [t for t in met if t.kind != "deliver"]
        options.append([None, free[0]] if free else [None, *met])
    best: list[tuple[str, Task]] = []
    best_key = (0, 0, 0)
    for combo in itertools.product(*options):
        chosen = [(card, t) for card, t in zip(cards, combo, strict=True) if t is not None]
        if not chosen:
            continue
        if sum(1 for _, t in chosen if t.kind == "sail_cards") > 1:
            continue  # the sacrificed cards serve one Pursuit
        left = _consume([t for _, t in chosen if t.kind == "deliver"], chests)
        if left is None:
            continue
        key = (sum(c.pursuits[card].points for card, _ in chosen), len(chosen), len(left))
        if key > best_key:
            best, best_key = chosen, key
    return best


def _refill(c: Components, state: State, slot: int, out: Settled) -> None:
    """Pursuit 0.4: the next card of the sealed deck on the display at once (public)."""
    if state["pursuit_deck"]:
        new = state["pursuit_deck"].pop()
        state["display"][slot] = new
        out.events.append({"type": "pursuit-display", "card": new, "text":
                           f"A new Pursuit card goes on display (Pursuit 0.4): "
                           f"{card_text(c, new)}."})
    else:
        state["display"].pop(slot)
        out.events.append({"type": "pursuit-display", "card": "", "text":
                           "The Pursuit deck is empty: no card replaces it on display "
                           "(Pursuit 0.4; authored)."})


def _carry_out(c: Components, state: State, claim: _Claim, ctx: Mapping[str, Any],
               out: Settled) -> None:
    """What the task itself costs: hoplites left at the place, Action cards sacrificed."""
    p, task = claim.player, claim.task
    if task.kind == "sail_hoplites" and task.leave:
        n = min(task.leave, state["board"][p]["hoplites"])
        state["board"][p]["hoplites"] -= n
        state["placed"][p] += n
        out.events.append({"type": "pursuit-leave", "player": p, "place": task.place,
                           "hoplites": n, "text": f"{p} leaves {n} hoplite"
                           f"{'s' if n != 1 else ''} at {c.place_name(task.place)}, out of "
                           "play for the rest of the game (Pursuit Hoplites)."})
    if task.kind == "sail_cards":
        hand = list(state["hands"][p])
        give: list[str] = []
        for x in [*ctx.get("give", ()), *list(hand)]:  # the chosen cards, then the first
            if len(give) < task.cards and x in hand:
                hand.remove(x)
                give.append(x)
        state["hands"][p] = hand
        state["action_deck"][:0] = give  # the bottom of the pile (top = last)
        out.events.append({"type": "pursuit-cards", "player": p, "place": task.place,
                           "count": len(give), "text": f"{p} sacrifices {len(give)} Action "
                           f"cards at {c.place_name(task.place)}: they go to the bottom of "
                           "the Action pile (Pursuit Cards 3)."})
        out.private.setdefault(p, []).append(
            {"type": "pursuit-cards", "cards": give, "text": "You sacrifice "
             + ", ".join(give) + " (to the bottom of the Action pile)."})


def settle(c: Components, state: State, players: Iterable[str], stream: Stream | None = None,
           label: str = "pursuit", context: Context | None = None) -> Settled:
    """:func:`check_pursuits` with what it did in detail (see :class:`Settled`)."""
    order = list(dict.fromkeys(p for p in players if p in state["seats"]))
    ctx: dict[str, dict[str, Any]] = {p: dict((context or {}).get(p, {})) for p in order}
    chests = {p: list(ctx[p].get("delivered", ())) for p in order}
    out = Settled()
    while state["step"] != "over":
        wants: dict[str, list[_Claim]] = {}
        for p in order:
            for card, task in completable(c, state, p, candidates(state, p), ctx[p], chests[p]):
                wants.setdefault(card, []).append(_Claim(p, card, task))
        if not wants:
            break
        for p in order:  # the chests and the sacrifice serve these cards only
            mine = [cl.task for cls in wants.values() for cl in cls if cl.player == p]
            left = _consume([t for t in mine if t.kind == "deliver"], chests[p])
            chests[p] = left if left is not None else []
            if any(t.kind == "sail_cards" for t in mine):
                ctx[p].pop("cards", None)
        for card, claims in wants.items():
            for cl in claims:
                _carry_out(c, state, cl, ctx[cl.player], out)
                out.completed.setdefault(cl.player, []).append(card)
            winners = [cl.player for cl in claims]
            if len(claims) == 1 and state["personal"].get(winners[0]) == card:
                p = winners[0]
                state["personal"][p] = ""
                state["achieved"][p].append(card)
                out.events.append({"type": "pursuit", "player": p, "card": card,
                                   "personal": True, "points": c.pursuits[card].points,
                                   "task": claims[0].task.text(c), "text":
                                   f"{p} achieves the personal Pursuit card "
                                   f"{card_text(c, card)}: {claims[0].task.text(c)} (Pursuit "
                                   "0.2, Honour 2)."})
            elif len(claims) == 1:
                p = winners[0]
                slot = state["display"].index(card)
                state["achieved"][p].append(card)
                out.events.append({"type": "pursuit", "player": p, "card": card,
                                   "personal": False, "points": c.pursuits[card].points,
                                   "task": claims[0].task.text(c), "text":
                                   f"{p} completes the displayed Pursuit card "
                                   f"{card_text(c, card)}: {claims[0].task.text(c)} "
                                   "(Pursuit 1, Honour 2)."})
                _refill(c, state, slot, out)
            else:
                slot = state["display"].index(card)
                for p in winners:
                    state["honour"][p] += 1
                out.events.append({"type": "pursuit-shared", "players": winners,
                                   "card": card, "text": f"{_names(winners)} complete "
                                   f"{card_text(c, card)} at the same time: each takes an "
                                   "Honour card and the card leaves the game (Pursuit 3)."})
                _refill(c, state, slot, out)
            out.events += scoring.reached(c, state, winners)
            if state["step"] == "over":
                break
    for p in order:
        if chests[p]:
            out.unused[p] = list(chests[p])
    if state["step"] != "over":
        for p, left in out.unused.items():
            n = len(left)
            state["honour"][p] += n
            out.events.append({"type": "honour", "player": p, "cards": n, "chests": left,
                               "text": f"{p}'s delivered chest{'s' if n != 1 else ''} ("
                               + ", ".join(left) + f") complete{'s' if n == 1 else ''} no "
                               f"Pursuit: {n} Honour card{'s' if n != 1 else ''} (Honour 5)."})
            out.events += scoring.reached(c, state, [p])
            if state["step"] == "over":
                break
    return out


def check_pursuits(c: Components, state: State, players: Iterable[str],
                   stream: Stream | None = None, label: str = "pursuit",
                   context: Context | None = None) -> tuple[list[Event], Private]:
    """Pursuit 1-5 after an event: every card the ``players`` (the event's player first;
    repeats are ignored) complete, chains and simultaneous completions included, the display
    refilled at once, Honour 5 for unused delivered chests. No draw is made (the decks are
    shuffled at set-up): ``stream`` and ``label`` are kept for the callers' uniformity."""
    done = settle(c, state, players, stream, label, context)
    return done.events, done.private


def hydra_card_displayed(c: Components, state: Mapping[str, Any]) -> bool:
    """Challenge Hydra 0, Ship 6: a "Defeat the Hydra" card is on display."""
    return any(c.pursuits[x].hydra for x in state["display"] if x)


def personal_hydra(c: Components, state: Mapping[str, Any], player: str) -> bool:
    """Analysis 5.1 item 11: the player's own (unachieved) card is a "Defeat the Hydra"."""
    mine = state["personal"].get(player, "")
    return bool(mine) and c.pursuits[mine].hydra


def cards_target(c: Components, state: Mapping[str, Any], player: str, place: str
                 ) -> Pursuit | None:
    """The card (displayed or personal) with a ``sail_cards`` task at ``place`` that the
    player has the cards for, if any (Pursuit Cards 1)."""
    for card in candidates(state, player):
        for t in c.pursuits[card].tasks:
            if t.kind == "sail_cards" and t.place == place and \
                    len(state["hands"][player]) >= t.cards:
                return c.pursuits[card]
    return None

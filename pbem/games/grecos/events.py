"""The Event cards outside battle (EVENT PHASE, Event 1-2; EVENT DECK, Deck 1-30), The Fates
(Deck 24) and the reaction windows of the standing orders (Deck 26-29).

Drawing (Event 1, Deck 1, 17): the top of the deck is the *last* card of ``state["deck"]``. An
empty deck takes the discards, shuffled on the sealed stream (authored ruling: the seed does
not say what happens; the analysis, section 3); with no discards either, nothing is drawn.

Hand limit (Event 2): after the draw the player keeps 5 cards. He names the discards in
``discard = [...]``; a list that leaves more than 5 cards, or names more than the excess
("Discard excess cards"), is refused; no list (and NMR) discards the newest cards. The limit
is applied only in the player's own Event Phase, where the seed states it, so Pandora's Box
may leave the others above 5 until their turn (analysis 5.1 item 18).

Own-turn plays (``[[orders.play]] card = "hermes", target = "c3"``): cards whose ``when`` is
"own" or "any" (analysis 5.1 item 6); battle cards are played in ``[[orders.battle.card]]``
(Battle 12) and The Fates only answers a card (its ``fates`` list in ``[orders.defend]``).
Each play is checked at submit against the board as the earlier plays leave it (what a draw or
a random choice decides is not foreseen), and again when it resolves: a play that no longer
fits is skipped with an event and its card stays in the hand. A played card goes to the
discard after its effect (so Pandora's Box is not shuffled into the deck it makes everyone
draw from). Effects and their rulings:

- ``draw_all`` (Pandoras Box, Deck 1): every player still in the game draws 5, the player
  first, then in seat order from his left; each sees his own cards (private), all see counts.
- ``oracle`` (Deck 2): the player alone sees the next 7 cards, top first (fewer when the deck
  holds fewer: a look shuffles nothing); nothing is drawn or changed.
- ``extra_turn`` (Kronos, Deck 3): ``state["kronos"] += 1``.
- ``move_bonus`` (Hermes, Deck 7): target one of your squares: each of your units there gets
  Move +2 this turn (``effects["move_bonus"]``).
- ``replace_unit`` (Prometheus, Deck 9; analysis 5.1 item 15): target one of your units (id)
  and ``unit = "kind"``, a chit in your pile: the unit goes back to your pile (whatever its
  damage) and the chit takes its square with full hits, if it may stand there (Move 2-5: a
  water unit on water, a land unit on land, the Titan on either, a Hero or Army unit on water
  only with a Ship, and the last Ship on water may not be replaced by a unit that leaves Heroes
  or Army there without one).
- ``heal`` (Asclepius, Golden Fleece, Cornucopia, Deck 16, 25, 30): target one of your stacks
  (ruling: "target stack" in your own turn is your own; in a battle see battle.py): every unit
  there back to full hits.
- ``draw`` (Tyche, Deck 17): draw 2.
- ``destroy_random`` (Volcano, Deck 19: a stack on Mountains; Whirlpool, Deck 20: a stack on
  Sea or Abyss, analysis 5.1 item 17): any stack, a unit chosen at random (public draw) is
  destroyed. Authored ruling: a Hero or Army unit left on water without a Ship goes down with
  it (Move 5 lets them be on water only with a Ship).
- ``hero_anywhere`` (Icarus, Odyssey, Deck 22-23; analysis 5.1 item 16): ``unit`` = one of
  your Heroes (may be left out when you have one) to ``target``: a land square with no enemy
  unit and room for it (Stacking 1-3), not its own square. The card's move is not the Hero's
  Move: it may still move in the Move Phase.
- ``no_move`` (Lost, Storm, Deck 26-27) / ``no_attack`` (Wine, Lotus, Deck 28-29): target any
  stack: its units' ids go into ``effects["no_move"]`` / ``["no_attack"]`` for this turn.

The Fates (Deck 24), :func:`negator`: before a card's effect, another player who holds The
Fates and whose standing ``fates`` list names the card negates it when the card touches his
units or him. Ruling: outside battle, a card touches its target stack's or unit's owner;
Pandora's Box touches every player; Kronos, Tyche, the Oracle, Hermes, a heal of your own
stack, Prometheus on your own unit and Icarus/Odyssey touch only the player himself and are
never negated by a policy. In battle the caller names the opponent for every card (battle.py).
Candidates are asked in seat order from the active player's left (the active player last); the
first who qualifies spends his The Fates (to the discard) and the negated card goes to the
discard without effect. All of it is public.

Reaction windows (the standing order ``react``): :func:`at_move_start` (Lost or Storm on the
active player's largest stack next to one of the reacting player's stacks) and
:func:`at_battle_start` (the defender's Wine of Dionysus or Lotus Eaters on the attacking
stack). Ruling: each player plays at most one card per window, and not on a stack already
under that effect. Both go through :func:`negator` (the active player's own The Fates).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem, excerpt
from pbem.core.ruleset import copy_state, put_sorted
from pbem.games.grecos import materials
from pbem.games.grecos import policy as policy_mod
from pbem.games.grecos.components import Card, Components, load
from pbem.games.grecos.squares import SQUARES, is_square, neighbours, order

State = dict[str, Any]
Event = dict[str, Any]
Private = dict[str, list[Event]]

#: Event 2: "Max hand size is 5 cards."
HAND_LIMIT = 5
#: Stacking 1: up to 4 of your units in a space.
STACK_LIMIT = 4
#: ``targets_owner`` for a card that touches every player (Pandoras Box).
ALL = "*"
PLAY_KEYS = ("card", "target", "unit")
#: What each own-turn effect's ``target`` is: "" none, "own_square" a square with your units,
#: "square" any stack, "land_square" where your Hero goes, "own_unit" one of your unit ids.
TARGET = {
    "draw_all": "", "oracle": "", "extra_turn": "", "draw": "",
    "move_bonus": "own_square", "heal": "own_square",
    "destroy_random": "square", "no_move": "square", "no_attack": "square",
    "hero_anywhere": "land_square", "replace_unit": "own_unit",
}
#: Effects whose outcome does not depend on a draw: played on the copy of :func:`plan_plays`.
FORESEEABLE = frozenset({"extra_turn", "move_bonus", "heal", "no_move", "no_attack",
                         "hero_anywhere", "replace_unit"})


@dataclass(frozen=True)
class Play:
    """One ``[[orders.play]]``: the card, its target (a square or a unit id, "" if none) and
    ``unit`` (Prometheus: the kind from your pile; Icarus/Odyssey: which Hero, by id)."""

    card: str
    target: str = ""
    unit: str = ""


# --- small helpers ------------------------------------------------------------------------

def rule(c: Components, card: str) -> str:
    """The clause id of a card: ``Deck N`` in the seed's order."""
    return f"Deck {list(c.cards).index(card) + 1}" if card in c.cards else "Deck"


def _ev(type_: str, rule_: str, text: str, **fields: Any) -> Event:
    return {"type": type_, "rule": rule_, "text": text, **fields}


def _units_at(state: State, square: str) -> list[str]:
    return sorted((u for u, x in state["units"].items() if x["square"] == square), key=int)


def _owner_at(state: State, square: str) -> str:
    here = _units_at(state, square)
    return str(state["units"][here[0]]["owner"]) if here else ""


def _unit_text(c: Components, state: State, uid: str) -> str:
    return f"{c.units[state['units'][uid]['kind']].name} (unit {uid})"


def _land(c: Components, state: State, square: str) -> bool:
    return c.terrains[state["board"][square]].land


def _alive(state: State) -> list[str]:
    gone = state.get("eliminated", [])
    return [p for p in state["seats"] if p not in gone]


def _from_left(state: State) -> list[str]:
    """Every player still in, in seat order from the active player's left, the active last."""
    seats = list(state["seats"])
    active = state.get("active", seats[0])
    i = seats.index(active) if active in seats else len(seats) - 1
    ring = seats[i + 1:] + seats[:i + 1]
    alive = set(_alive(state))
    return [p for p in ring if p in alive]


def _policy(state: State, player: str) -> dict[str, Any]:
    return {**policy_mod.DEFAULT, **state.get("policy", {}).get(player, {})}


def _effects(state: State) -> dict[str, Any]:
    fx: dict[str, Any] = state.setdefault("effects", {})
    fx.setdefault("no_move", [])
    fx.setdefault("no_attack", [])
    fx.setdefault("move_bonus", {})
    fx.setdefault("force_bonus", {})
    return fx


def _label(state: State, *parts: str) -> str:
    return "/".join([f"t{int(state.get('turn', 0)):02d}", *parts])


def _names(c: Components, cards: Sequence[str]) -> str:
    return ", ".join(c.cards[x].name if x in c.cards else x for x in cards) or "nothing"


def _stranded(c: Components, state: State, square: str, kinds: Sequence[str]) -> str:
    """Why these unit kinds cannot stand together on ``square`` ("" if they can): Move 2-5."""
    land = _land(c, state, square)
    for k in kinds:
        u = c.units[k]
        if land and u.water:
            return f"a {u.name} unit may not be on land (Move 2)"
        if land or u.water or u.land_and_water:
            continue
        if k != "hero" and "army" not in u.keywords:
            return f"a {u.name} unit may not be on water (Move 2-4)"
        if "ships" not in kinds:
            return f"a {u.name} unit may be on water only with a Ship (Move 5)"
    return ""


# --- drawing and the hand limit (Event 1-2) ------------------------------------------------

def draw_cards(state: State, player: str, n: int, sealed_stream: Stream, label: str,
               events: list[Event] | None = None) -> list[str]:
    """Event 1, Deck 1, 17: ``player`` draws up to ``n`` cards from the top of the deck (the
    last of ``state["deck"]``) into his hand; returns them. An empty deck takes the discards,
    shuffled on ``sealed_stream`` (``<label>/reshuffle``; authored ruling); nothing left: no
    card. A reshuffle is said in a public event appended to ``events`` when given."""
    drawn: list[str] = []
    for _ in range(n):
        if not state["deck"]:
            if not state["discard"]:
                break
            state["deck"] = sealed_stream.shuffle(state["discard"], f"{label}/reshuffle")
            state["discard"] = []
            if events is not None:
                events.append(_ev("deck-reshuffled", "Event 1", "The Event deck is empty: the "
                                  f"{len(state['deck'])} discarded cards are shuffled into a "
                                  "new deck (sealed; authored ruling).",
                                  cards=len(state["deck"])))
        card = state["deck"].pop()
        state["hands"][player].append(card)
        drawn.append(card)
    return drawn


def _draw_events(c: Components, state: State, players: Sequence[str], n: int, stream: Stream,
                 label: str, card: Card) -> tuple[list[Event], Private]:
    """Each of ``players`` draws ``n``: public counts, private cards."""
    r = rule(c, card.id)
    why = f"{card.name}, {r}"
    public: list[Event] = []
    private: Private = {}
    counts: dict[str, int] = {}
    for p in players:
        drawn = draw_cards(state, p, n, stream, f"{label}/{p}", public)
        counts[p] = len(drawn)
        if drawn:
            private.setdefault(p, []).append(_ev("card", r,
                                                 f"You draw {_names(c, drawn)} ({why}).",
                                                 cards=drawn))
    text = "; ".join(f"{p} draws {k} card{'s' if k != 1 else ''} ({len(state['hands'][p])} "
                     "in hand)" for p, k in counts.items())
    public.append(_ev("cards-drawn", r,
                      f"{text} ({why}); {len(state['deck'])} left in the deck.", drawn=counts))
    return public, private


def hand_limit(state: State, player: str, discard: Any) -> list[Problem]:
    """Event 2 at submit: ``discard`` names cards of the hand (counting duplicates) so that at
    most 5 stay, and no more than the excess; an empty list lets the newest cards go."""
    where = "discard"
    if not isinstance(discard, list) or not all(isinstance(x, str) for x in discard):
        return [Problem(where, "must be a list of card ids", 'discard = ["tyche"]')]
    hand = list(state["hands"][player])
    excess = len(hand) - HAND_LIMIT
    problems: list[Problem] = []
    for x in discard:
        if x in hand:
            hand.remove(x)
        else:
            problems.append(Problem(where, f"{excerpt(x)} is not in your hand (or is named "
                                    "twice)", "your hand: " + ", ".join(state["hands"][player]),
                                    foreseen=True))
    if not discard or problems:
        return problems
    if excess <= 0:
        problems.append(Problem(where, f"you hold {len(state['hands'][player])} cards: nothing "
                                "to discard (Event 2: discard only the excess over 5)",
                                "leave discard out", foreseen=True))
    elif len(discard) > excess:
        problems.append(Problem(where, f"names {len(discard)} cards; only the excess, "
                                f"{excess}, is discarded (Event 2)", f"name {excess}",
                                foreseen=True))
    elif len(hand) > HAND_LIMIT:
        problems.append(Problem(where, f"leaves {len(hand)} cards in your hand: the limit is 5 "
                                "(Event 2)", f"name {len(hand) - HAND_LIMIT} more, or leave "
                                "discard out to let the newest cards go", foreseen=True))
    return problems


def apply_discards(state: State, player: str, discard: Sequence[Any]) -> list[Event]:
    """Event 2: discard the named cards (those held, up to the excess), then the newest cards
    (the last drawn) until 5 are left. One public event naming them (the discard is public)."""
    hand = state["hands"][player]
    gone: list[str] = []
    for x in discard:
        if len(hand) <= HAND_LIMIT:
            break
        if isinstance(x, str) and x in hand:
            hand.remove(x)
            gone.append(x)
    named = len(gone)
    while len(hand) > HAND_LIMIT:
        gone.append(hand.pop())
    if not gone:
        return []
    state["discard"].extend(gone)
    newest = len(gone) - named
    c = load()
    return [_ev("hand-limit", "Event 2", f"{player} discards {_names(c, gone)} to keep 5 cards "
                "(Event 2" + ("; the newest, as the orders named no more" if newest
                                else "") + ").",
                player=player, cards=gone)]


# --- The Fates (Deck 24) ---------------------------------------------------------------------

def negator(c: Components, state: State, card: str, player: str, targets_owner: str) -> str:
    """Deck 24: the player whose The Fates negates ``card`` just played by ``player`` ("" if
    nobody), and that The Fates moved from his hand to the discard.

    ``targets_owner`` is the player whose units or person the card touches: ``""`` (or
    ``player``) when it touches only the player himself (never negated by a policy), ``ALL``
    (``"*"``) when it touches everyone (Pandoras Box). A candidate holds The Fates and his
    standing ``fates`` list names ``card``; they are asked in seat order from the active
    player's left, the active player last."""
    if card == "fates" or targets_owner in ("", player):
        return ""
    for p in _from_left(state):
        if p == player or (targets_owner != ALL and p != targets_owner):
            continue
        hand = state["hands"].get(p, [])
        if "fates" in hand and card in _policy(state, p).get("fates", []):
            hand.remove("fates")
            state["discard"].append("fates")
            return p
    return ""


def _negated_event(c: Components, card: str, player: str, who: str) -> Event:
    return _ev("card-negated", "Deck 24", f"{who} plays The Fates (standing orders): "
               f"{player}'s {c.cards[card].name} is negated and discarded without effect.",
               player=who, card=card, negated=player)


# --- own-turn plays -----------------------------------------------------------------------

def _shape(c: Components, raw: Any, where: str) -> tuple[Play | None, list[Problem]]:
    """The shape of one ``[[orders.play]]`` (never foreseen: a typo is always refused)."""
    if not isinstance(raw, Mapping):
        return None, [Problem(where, "must be a table", '[[orders.play]] then card = "hermes" '
                              'and target = "c3"')]
    problems = [Problem(f"{where} {k}", "unknown key", "keys: " + ", ".join(PLAY_KEYS))
                for k in raw if k not in PLAY_KEYS]
    cid = raw.get("card")
    own = [k for k, x in c.cards.items() if x.when in ("own", "any")]
    if not isinstance(cid, str) or cid not in c.cards:
        return None, [*problems, Problem(f"{where} card", f"{excerpt(cid)} is not an Event "
                                         "card", "cards you may play in your turn: "
                                         + ", ".join(own))]
    card = c.cards[cid]
    if card.when == "battle":
        return None, [*problems, Problem(f"{where} card", f"{card.name} is played in a battle, "
                                         "instead of an attack (Battle 12)", "write it as "
                                         f'[[orders.battle.card]] card = "{cid}" under the '
                                         "battle's [[orders.battle]]")]
    if card.when not in ("own", "any"):
        return None, [*problems, Problem(f"{where} card", f"{card.name} cannot be played by "
                                         "itself: it negates a card just played (Deck 24)",
                                         "name the cards it negates in [orders.defend] "
                                         'fates = ["betrayal"]')]
    need = TARGET.get(card.effect)
    if need is None:
        return None, [*problems, Problem(f"{where} card", f"{card.name} has no effect pbem "
                                         "applies in your own turn", "leave it out")]
    target, unit = raw.get("target", ""), raw.get("unit", "")
    if isinstance(target, int) and not isinstance(target, bool):
        target = str(target)
    if isinstance(unit, int) and not isinstance(unit, bool):
        unit = str(unit)
    if not need:
        if "target" in raw:
            problems.append(Problem(f"{where} target", f"{card.name} takes no target",
                                    "leave target out"))
    elif need == "own_unit":
        if not isinstance(target, str) or not target.isdigit():
            problems.append(Problem(f"{where} target", f"{card.name} targets one of your units "
                                    "by id", 'target = "7"'))
    elif not is_square(target):
        problems.append(Problem(f"{where} target", f"{card.name} targets a square, "
                                f"{excerpt(target)} is not one", 'target = "c3" (a1 .. h8)'))
    if card.effect == "replace_unit":
        if not isinstance(unit, str) or unit not in c.units:
            problems.append(Problem(f"{where} unit", f"{card.name} needs the kind of the chit "
                                    "from your pile that takes the unit's place",
                                    'unit = "cyclops"; kinds: ' + ", ".join(c.units)))
    elif card.effect == "hero_anywhere":
        if not isinstance(unit, str) or (unit and not unit.isdigit()):
            problems.append(Problem(f"{where} unit", "names your Hero by unit id",
                                    'unit = "7", or leave it out if you have one Hero'))
    elif "unit" in raw:
        problems.append(Problem(f"{where} unit", f"{card.name} takes no unit",
                                "leave unit out"))
    if problems:
        return None, problems
    return Play(cid, str(target), str(unit)), []


def _heroes(state: State, player: str) -> list[str]:
    return sorted((u for u, x in state["units"].items()
                   if x["owner"] == player and x["kind"] == "hero"), key=int)


def _why_not(c: Components, state: State, player: str, play: Play) -> tuple[str, str, str]:
    """What the position says against ``play`` now: (key, message, hint), or ("", "", "")."""
    card = c.cards[play.card]
    hand = state["hands"][player]
    if play.card not in hand:
        return ("card", f"{card.name} is not in your hand (or is played twice)",
                "your hand: " + (", ".join(hand) or "empty"))
    need = TARGET[card.effect]
    sq = play.target
    if need == "own_square" and _owner_at(state, sq) != player:
        mine = sorted({x["square"] for x in state["units"].values() if x["owner"] == player},
                      key=order)
        return ("target", f"{card.name} targets one of your stacks (ruling); {sq} holds none "
                "of your units", "your stacks: " + (", ".join(mine) or "none"))
    if need == "square" and not _units_at(state, sq):
        return ("target", f"{card.name} targets a stack; {sq} is empty", "a square with units")
    if card.effect == "destroy_random":
        allowed = {card.terrain} | ({"abyss"} if card.terrain == "sea" else set())
        if state["board"][sq] not in allowed:
            names = " or ".join(c.terrains[t].name for t in sorted(allowed, reverse=True))
            return ("target", f"{card.name} targets a stack on {names} ({rule(c, card.id)}); "
                    f"{sq} is {c.terrains[state['board'][sq]].name}",
                    "a stack on " + names)
    if card.effect == "replace_unit":
        x = state["units"].get(sq)
        if x is None or x["owner"] != player:
            mine = sorted((u for u, y in state["units"].items() if y["owner"] == player), key=int)
            return ("target", f"unit {sq} is not one of your units (Deck 9 ruling)",
                    "your units: " + (", ".join(mine) or "none"))
        pile = state["chits"].get(player, [])
        if play.unit not in pile:
            return ("unit", f"no {c.units[play.unit].name} chit in your pile (or named twice)",
                    "your pile: " + (", ".join(pile) or "empty"))
        kinds = [state["units"][u]["kind"] for u in _units_at(state, x["square"]) if u != sq]
        why = _stranded(c, state, x["square"], [*kinds, play.unit])
        if why:
            return ("unit", f"the {c.units[play.unit].name} cannot take the place of unit {sq} "
                    f"on {x['square']}: {why}", "a chit that may stand there")
    if card.effect == "hero_anywhere":
        heroes = _heroes(state, player)
        hero = play.unit or (heroes[0] if len(heroes) == 1 else "")
        if hero not in heroes:
            return ("unit", "name one of your Heroes" if heroes else "you have no Hero on the "
                    "board", "unit = " + " or ".join(f'"{h}"' for h in heroes) if heroes else
                    "leave the card in your hand")
        if state["units"][hero]["square"] == sq:
            return ("target", f"your Hero (unit {hero}) is already on {sq}", "another square")
        if not _land(c, state, sq):
            return ("target", f"{sq} is water: a Hero may not end there alone (analysis 5.1 "
                    "item 16, Move 2)", "a land square")
        owner = _owner_at(state, sq)
        if owner and owner != player:
            return ("target", f"{sq} holds {owner}'s units (Stacking 3)", "a square with no "
                    "enemy unit")
        if len(_units_at(state, sq)) >= STACK_LIMIT:
            return ("target", f"{sq} already holds 4 of your units (Stacking 1)",
                    "a square with room")
    return ("", "", "")


def _touched(c: Components, state: State, play: Play) -> str:
    """Whom the play touches, for :func:`negator`."""
    effect = c.cards[play.card].effect
    if effect == "draw_all":
        return ALL
    need = TARGET.get(effect, "")
    if need in ("square", "own_square"):
        return _owner_at(state, play.target)
    if need == "own_unit":
        x = state["units"].get(play.target)
        return str(x["owner"]) if x else ""
    return ""


def plan_plays(c: Components, state: State, player: str, raw: Any
               ) -> tuple[list[Play], list[Problem]]:
    """The ``[[orders.play]]`` entries, in order, and their problems. Each entry is checked
    against the position as the earlier entries leave it (played on a copy: draws, random
    choices and The Fates are not foreseen). Every well-formed entry is returned, also one
    with a foreseen problem: :func:`apply_play` checks it again and skips it with an event."""
    entries = raw if isinstance(raw, list) else [raw]
    trial = copy_state(state)
    plays: list[Play] = []
    problems: list[Problem] = []
    for i, entry in enumerate(entries, 1):
        where = f"[[orders.play]] {i}"
        play, bad = _shape(c, entry, where)
        problems += bad
        if play is None:
            continue
        plays.append(play)
        key, message, hint = _why_not(c, trial, player, play)
        if key:
            problems.append(Problem(f"{where} {key}", message, hint, foreseen=True))
            continue
        trial["hands"][player].remove(play.card)
        if c.cards[play.card].effect in FORESEEABLE:
            _effect(c, trial, player, play, None)
    return plays, problems


def apply_play(c: Components, state: State, player: str, play: Play, rng: Rng
               ) -> tuple[list[Event], Private]:
    """Play one card in ``player``'s own turn: checked again (skipped with an event if it no
    longer fits, the card kept), then The Fates (:func:`negator`), then the effect; the card
    goes to the discard. Returns (public events, private events by player)."""
    card = c.cards.get(play.card)
    if card is None or TARGET.get(card.effect) is None or card.when not in ("own", "any"):
        return [_ev("play-skipped", "Deck", f"{player} cannot play {excerpt(play.card)} in "
                    "his own turn: skipped.", player=player, card=str(play.card))], {}
    key, message, _hint = _why_not(c, state, player, play)
    if key:
        return [_ev("play-skipped", rule(c, card.id), f"{player}'s {card.name} is not played: "
                    f"{message}.", player=player, card=card.id)], {}
    state["hands"][player].remove(card.id)
    on = f" on {play.target}" if play.target else ""
    if card.effect == "replace_unit":
        on = f" on {_unit_text(c, state, play.target)}"
    public = [_ev("card-played", rule(c, card.id), f"{player} plays {card.name}{on} "
                  f"({rule(c, card.id)}: {card.text}).", player=player, card=card.id,
                  target=play.target)]
    who = negator(c, state, card.id, player, _touched(c, state, play))
    if who:
        state["discard"].append(card.id)
        return [*public, _negated_event(c, card.id, player, who)], {}
    more, private = _effect(c, state, player, play, rng)
    state["discard"].append(card.id)
    return public + more, private


def _effect(c: Components, state: State, player: str, play: Play, rng: Rng | None
            ) -> tuple[list[Event], Private]:
    """The effect of a checked play. ``rng`` None: only :data:`FORESEEABLE` effects (the
    submit-time copy of :func:`plan_plays`)."""
    card = c.cards[play.card]
    r = rule(c, card.id)
    fx = _effects(state)
    sq = play.target
    if card.effect == "draw_all" and rng is not None:
        others = [p for p in _from_left(state) if p != player]
        players = [player, *others] if player in _alive(state) else others
        return _draw_events(c, state, players, card.amount or 5, rng.sealed,
                            _label(state, card.id), card)
    if card.effect == "draw" and rng is not None:
        return _draw_events(c, state, [player], card.amount or 2, rng.sealed,
                            _label(state, card.id), card)
    if card.effect == "oracle":
        seen = list(reversed(state["deck"][-(card.amount or 7):]))
        return ([_ev("oracle", r, f"{player} looks at the next {len(seen)} cards of the deck "
                     f"({r}); the deck is unchanged.", player=player, seen=len(seen))],
                {player: [_ev("oracle-seen", r, f"The next {len(seen)} cards of the deck, top "
                              f"first: {_names(c, seen)} ({r}).", cards=seen)]})
    if card.effect == "extra_turn":
        state["kronos"] = int(state.get("kronos", 0)) + (card.amount or 1)
        return [_ev("extra-turn", r, f"{player} will take another turn after this one ({r}).",
                    player=player)], {}
    if card.effect == "move_bonus":
        ids = _units_at(state, sq)
        bonus = fx["move_bonus"]
        for u in ids:
            bonus[u] = int(bonus.get(u, 0)) + (card.amount or 2)
        return [_ev("move-bonus", r, f"{player}'s units on {sq} get Move +{card.amount or 2} "
                    f"this turn ({r}).", units=ids)], {}
    if card.effect == "heal":
        ids = _units_at(state, sq)
        healed = [u for u in ids if state["units"][u]["hits"] < materials.max_hits(c, state, u)]
        for u in ids:  # full hits: the kind's, Stone +1 with materials=on (Golem 3)
            state["units"][u]["hits"] = materials.max_hits(c, state, u)
        return [_ev("healed", r, f"Every unit on {sq} is back to full hits ({r})" + (
            ": " + ", ".join(_unit_text(c, state, u) for u in healed) if healed else
            "; none was damaged") + ".", units=healed)], {}
    if card.effect in ("no_move", "no_attack"):
        return _lock(c, state, card, sq, player), {}
    if card.effect == "replace_unit":
        old = state["units"].pop(sq)
        chits = state["chits"][player]
        chits.append(old["kind"])
        chits.remove(play.unit)
        new = str(state["next_unit"])
        state["next_unit"] = int(state["next_unit"]) + 1
        put_sorted(state["units"], new, {"hits": c.units[play.unit].hits, "kind": play.unit,
                                         "owner": player, "square": old["square"]})
        materials.assign(c, state, new)  # --option materials=on: as a recruit (Golem 1-16)
        return [_ev("unit-replaced", r, f"{player}'s {c.units[old['kind']].name} (unit {sq}) "
                    f"on {old['square']} goes back to his pile; a "
                    f"{c.units[play.unit].name} (unit {new}) takes its place ({r}).",
                    removed=sq, unit=new, kind=play.unit, square=old["square"])], {}
    if card.effect == "hero_anywhere":
        heroes = _heroes(state, player)
        hero = play.unit or heroes[0]
        came = state["units"][hero]["square"]
        state["units"][hero]["square"] = sq
        return [_ev("hero-moved", r, f"{player}'s Hero (unit {hero}) goes from {came} to {sq} "
                    f"({r}).", unit=hero, square=sq)], {}
    if card.effect == "destroy_random" and rng is not None:
        return _destroy_random(c, state, card, sq, rng.public), {}
    return [], {}


def _lock(c: Components, state: State, card: Card, square: str, player: str) -> list[Event]:
    """Lost/Storm (``no_move``) or Wine/Lotus (``no_attack``) on the stack at ``square``."""
    fx = _effects(state)
    ids = _units_at(state, square)
    for u in ids:
        if u not in fx[card.effect]:
            fx[card.effect].append(u)
    owner = _owner_at(state, square)
    what = "cannot move" if card.effect == "no_move" else "cannot attack"
    return [_ev("no-move" if card.effect == "no_move" else "no-attack", rule(c, card.id),
                f"{owner}'s stack on {square} {what} this turn ({card.name}, "
                f"{rule(c, card.id)}).", player=player, square=square, units=ids)]


def _destroy_random(c: Components, state: State, card: Card, square: str, stream: Stream
                    ) -> list[Event]:
    r = rule(c, card.id)
    ids = _units_at(state, square)
    victim = stream.choice(ids, _label(state, card.id, square))
    owner = state["units"][victim]["owner"]
    out = [_ev("unit-destroyed", r, f"{card.name} destroys {owner}'s "
               f"{_unit_text(c, state, victim)} on {square}, chosen at random among "
               f"{len(ids)} ({r}).", unit=victim, player=owner, square=square)]
    del state["units"][victim]
    left = _units_at(state, square)
    if left and not _land(c, state, square):
        kinds = [state["units"][u]["kind"] for u in left]
        if "ships" not in kinds:
            for u in left:
                k = c.units[state["units"][u]["kind"]]
                if not (k.water or k.land_and_water):
                    out.append(_ev("unit-destroyed", r, f"{owner}'s {_unit_text(c, state, u)} "
                                   f"is left on water without a Ship and goes down with it "
                                   "(Move 5; authored ruling).", unit=u, player=owner,
                                   square=square))
                    del state["units"][u]
    return out


# --- reaction windows (standing orders, Deck 26-29) ------------------------------------------

def _held(c: Components, state: State, player: str, effect: str) -> str:
    """The first card (in deck order) with ``effect`` that ``player`` holds, or ""."""
    hand = state["hands"].get(player, [])
    return next((k for k, x in c.cards.items() if x.effect == effect and k in hand), "")


def _react(c: Components, state: State, reactor: str, card: str, square: str, why: str
           ) -> list[Event]:
    """``reactor`` plays ``card`` on the stack at ``square`` by his standing orders."""
    x = c.cards[card]
    owner = _owner_at(state, square)
    state["hands"][reactor].remove(card)
    out = [_ev("card-played", rule(c, card), f"{reactor} plays {x.name} on {owner}'s stack "
               f"on {square} ({why}; standing orders).", player=reactor, card=card,
               target=square)]
    who = negator(c, state, card, reactor, owner)
    if who:
        state["discard"].append(card)
        return [*out, _negated_event(c, card, reactor, who)]
    out += _lock(c, state, x, square, reactor)
    state["discard"].append(card)
    return out


def at_move_start(c: Components, state: State, active: str, stream: Stream, label: str
                  ) -> list[Event]:
    """Deck 26-27 at the start of ``active``'s Move Phase: each other player, in seat order from
    the active player's left, whose policy has ``react`` and who holds Lost or Storm, plays
    one on the active player's largest stack (most units, then the first square in board
    order) next to one of his own stacks and not already unable to move. Public events."""
    out: list[Event] = []
    for p in _from_left(state):
        if p == active or not _policy(state, p).get("react", True):
            continue
        card = _held(c, state, p, "no_move")
        if not card:
            continue
        fx = _effects(state)
        mine = {x["square"] for x in state["units"].values() if x["owner"] == p}
        theirs: dict[str, list[str]] = {}
        for u, x in state["units"].items():
            if x["owner"] == active:
                theirs.setdefault(x["square"], []).append(u)
        options = [sq for sq, ids in theirs.items()
                   if any(n in mine for n in neighbours(sq))
                   and not all(u in fx["no_move"] for u in ids)]
        if not options:
            continue
        target = min(options, key=lambda sq: (-len(theirs[sq]), order(sq)))
        out += _react(c, state, p, card, target, "at the start of the Move Phase")
    return out


def at_battle_start(c: Components, state: State, attacker_square: str, defender: str,
                    stream: Stream, label: str) -> list[Event]:
    """Deck 28-29 at the start of a battle: the defender, if his policy has ``react`` and he
    holds Wine of Dionysus or Lotus Eaters, plays it on the attacking stack (it rolls no
    attack this turn), unless that stack already cannot attack. Public events."""
    if attacker_square not in SQUARES or defender not in _alive(state):
        return []
    ids = _units_at(state, attacker_square)
    attacker = _owner_at(state, attacker_square)
    if not ids or attacker == defender or not _policy(state, defender).get("react", True):
        return []
    card = _held(c, state, defender, "no_attack")
    if not card or all(u in _effects(state)["no_attack"] for u in ids):
        return []
    return _react(c, state, defender, card, attacker_square, "at the start of the battle")

"""Action cards (ACTION CARDS, Action 0-3), the Card die (Kylix Card 1) and taking hoplites
back from the Underworld with dumped chests (Kylix Hoplites 1-2), as ``actions.toml`` defines
the cards' effects.

The Action deck is a sealed pile: ``state["action_deck"]`` with its top at the END of the list
(``pop()`` draws), ``state["action_discard"]`` face up, ``state["hands"][p]`` secret,
``state["permanents"][p]`` public. This turn's effects of single-use cards live in
``state["effects"]`` (cleared when the turn ends): ``move_bonus`` (ship squares),
``hydra_bonus`` (Hydra squares), ``challenge_bonus2`` (doubled points for the active player's
challenge, read by challenges.py).

Rulings (with their clause):

- Action 0 / Kylix Card 1 (analysis 5.1 item 1): the Card die's 1 = every other player draws
  one Action card (from the active player's left, Round 2's order), 2 = nobody draws, 3 = the
  active player draws one (``components.CARD_DIE``). The outcome is not optional: the die
  decides it, the player's only choice is the rotation of the cup.
- Empty deck (silent in the seed, analysis 5.1 item 16, authored): when a card must be drawn
  from an empty Action deck, the discards are shuffled on the sealed stream into a new deck
  (a public event says so, not the order); with no discards either, no card is drawn.
- Action 1 (single use "apart from the 3 cards that state otherwise"): a played single-use
  card goes to the discards; a permanent card goes face up to ``state["permanents"][p]`` and
  works from then on (``swift_sails``: Move +amount in every own turn, read here by
  :func:`move_limit`; ``bronze_shield``: read by challenges.py; ``sea_legs``: read by
  sailing.py). Two permanent cards of one kind add up.
- Action 2-3: any number of cards in the turn, and a card received in the turn may be played
  at once; cards are played only in one's own Kylix turn (analysis 5.1 item 6).
- ``challenge_plus`` ("+1 point in one challenge this turn"): added to
  ``state["effects"]["challenge_bonus2"]`` (doubled: ``amount = 2`` is one point) and used up
  by challenges.py in the first challenge the active player throws in (in his turn that is
  the one his ship move ends in, Round 6.5; a Hydra attack is the victim's throw). Played
  after the ship step it would be wasted: refused at submit (kylix.py).
- Kylix Hoplites 2 ("If you want to reclaim hoplites but are carrying too much treasure, you
  can dump your unwanted treasure chest(s) on any unoccupied space(s) on the cities"): chests
  are dumped only to make room for hoplites being reclaimed, only chests of the colours the
  player lists (the step's ``dump``, else his standing choice ``dump``; ``[]``: never), in that
  order, and no more than the room needed. Each goes to an empty city space chosen by his
  standing choice ``return_to`` (the city nearest to / farthest from Athens by water,
  ties: the lowest city id).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.dice import Stream
from pbem.games.deukalion import challenges
from pbem.games.deukalion.components import CARD_DIE, Components

State = dict[str, Any]
Event = dict[str, Any]
Private = dict[str, list[Event]]

#: Effects that change this turn's numbers, and the ``state["effects"]`` key each adds to.
TURN_EFFECTS = {"move_plus": "move_bonus", "hydra_plus": "hydra_bonus",
                "challenge_plus": "challenge_bonus2"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def others_from_left(state: Mapping[str, Any], player: str) -> list[str]:
    """The players other than ``player``, from his left (clockwise, Round 2)."""
    seats = list(state["seats"])
    i = seats.index(player)
    return [seats[(i + k) % len(seats)] for k in range(1, len(seats))]


# --- the deck ----------------------------------------------------------------------------------

def take_from_deck(state: State, n: int, stream: Stream, label: str
                   ) -> tuple[list[str], list[Event]]:
    """Up to ``n`` cards from the top of the sealed deck (the end of the list), reshuffling
    the discards into a new deck when it runs out (authored, analysis 5.1 item 16)."""
    drawn: list[str] = []
    events: list[Event] = []
    for _ in range(n):
        if not state["action_deck"] and state["action_discard"]:
            pile = sorted(state["action_discard"])
            state["action_deck"] = stream.shuffle(pile, f"{label}/reshuffle")
            state["action_discard"] = []
            events.append({"type": "action-reshuffle", "count": len(pile), "text":
                           f"The Action deck is empty: its {_plural(len(pile), 'discard')} "
                           "are shuffled (sealed) into a new deck (authored: the rulebook "
                           "is silent)."})
        if not state["action_deck"]:
            events.append({"type": "action-deck-empty", "text": "No Action card is left to "
                           "draw, in the deck or the discards: nothing is drawn."})
            break
        drawn.append(state["action_deck"].pop())
    return drawn, events


def give(c: Components, state: State, player: str, n: int, stream: Stream, label: str,
         why: str) -> tuple[list[Event], Private]:
    """``player`` draws ``n`` Action cards: the count is public, the cards private (Sail 1:
    "Keep your cards a secret!")."""
    drawn, events = take_from_deck(state, n, stream, label)
    state["hands"][player].extend(drawn)
    if not drawn:
        return events, {}
    events.append({"type": "action-draw", "player": player, "count": len(drawn), "text":
                   f"{player} draws {_plural(len(drawn), 'Action card')} ({why})."})
    names = ", ".join(f"{c.actions[a].name} ({a})" for a in drawn)
    return events, {player: [{"type": "action-drawn", "cards": list(drawn), "text":
                              f"You draw {names} ({why})."}]}


def card_die(c: Components, state: State, active: str, value: int, stream: Stream,
             label: str) -> tuple[list[Event], Private]:
    """Kylix Card 1: the Card die's value decides who draws (1 = every other player, from the
    active player's left; 2 = nobody; 3 = the active player)."""
    who = CARD_DIE[value]
    if who == "nobody":
        return [{"type": "card-die", "value": value, "text": f"The Card die shows {value}: no "
                 "player takes an Action card (Kylix Card 1)."}], {}
    takers = others_from_left(state, active) if who == "others" else [active]
    events: list[Event] = [{"type": "card-die", "value": value, "players": list(takers),
                            "text": f"The Card die shows {value}: "
                            + ("all other players take" if who == "others" else
                               f"{active} takes") + " an Action card (Kylix Card 1)."}]
    private: Private = {}
    for p in takers:
        more, secret = give(c, state, p, 1, stream, f"{label}/{p}", f"the Card die {value}, "
                            "Kylix Card 1")
        events += more
        for q, evs in secret.items():
            private.setdefault(q, []).extend(evs)
    return events, private


# --- numbers of the turn ------------------------------------------------------------------------

def permanent_amount(c: Components, state: Mapping[str, Any], player: str, effect: str) -> int:
    """The sum of the amounts of ``player``'s permanent cards with ``effect`` (Action 1)."""
    return sum(c.actions[a].amount for a in state["permanents"].get(player, ())
               if c.actions[a].effect == effect)


def move_limit(c: Components, state: Mapping[str, Any], player: str, die: int) -> int:
    """Kylix Move 1: the Move die, plus this turn's ``move_plus`` cards, plus ``swift_sails``."""
    return die + int(state["effects"].get("move_bonus", 0)) + permanent_amount(
        c, state, player, "swift_sails")


def hydra_limit(state: Mapping[str, Any], die: int) -> int:
    """Kylix Hydra 1: the Hydra die plus this turn's ``hydra_plus`` cards."""
    return die + int(state["effects"].get("hydra_bonus", 0))


# --- the Underworld -----------------------------------------------------------------------------

def room(c: Components, state: Mapping[str, Any], player: str) -> int:
    """Free spaces on ``player``'s shipboard (Map 15: hoplites + chests <= 10)."""
    b = state["board"][player]
    return int(c.shipboard - b["hoplites"] - len(b["chests"]))


def take_back(c: Components, state: State, player: str, count: int, dump: Sequence[str],
              why: str) -> list[Event]:
    """Take up to ``count`` hoplites back from the Underworld onto the shipboard; when the
    shipboard has no room, dump chests of the colours in ``dump`` (in that order, only as
    many as needed) onto empty city spaces first (Kylix Hoplites 1-2)."""
    events: list[Event] = []
    want = min(count, state["underworld"][player])
    b = state["board"][player]
    for colour in dict.fromkeys(dump):
        while room(c, state, player) < want and colour in b["chests"]:
            city = challenges.return_space(c, state, player)
            if not city:
                break
            b["chests"].remove(colour)
            state["chests"][city].append(colour)
            events.append({"type": "dump", "player": player, "colour": colour, "city": city,
                           "text": f"{player} dumps a {colour} treasure chest on "
                           f"{c.board.cities[city].name} to make room (Kylix Hoplites 2)."})
    took = min(want, room(c, state, player))
    state["underworld"][player] -= took
    b["hoplites"] += took
    text = (f"{player} takes {_plural(took, 'hoplite')} back from the Underworld ({why})"
            if took else f"{player} takes no hoplite back from the Underworld ({why})")
    if took < want:
        text += ": no more room on the shipboard (Map 15)"
    elif want < count:
        text += f": only {_plural(want, 'hoplite')} there"
    events.append({"type": "reclaim", "player": player, "count": took,
                   "underworld": state["underworld"][player], "text": text + "."})
    return events


# --- playing a card -----------------------------------------------------------------------------

def play(c: Components, state: State, player: str, step: Mapping[str, Any], stream: Stream,
         label: str) -> tuple[list[Event], Private]:
    """Play ``step["card"]`` from ``player``'s hand (Action 1-3): its effect now, the card to
    the discards (or face up before him if permanent). A card not in the hand (one he hoped
    to draw this turn) is skipped: the public event does not name it."""
    card = str(step["card"])
    hand = state["hands"][player]
    if card not in hand:
        return ([{"type": "play-skipped", "player": player, "text": f"{player}'s order to play "
                  "an Action card is skipped: the card is not in his hand."}],
                {player: [{"type": "play-skipped", "card": card, "text": f"Your order to play "
                           f"{c.actions[card].name} ({card}) is skipped: it is not in your "
                           "hand (Action 3)."}]})
    a = c.actions[card]
    hand.remove(card)
    if a.permanent:
        state["permanents"][player].append(card)
    else:
        state["action_discard"].append(card)
    events: list[Event] = [{"type": "play", "player": player, "card": card, "text":
                            f"{player} plays {a.name}: \"{a.text}\""
                            + (" (permanent: it stays face up, Action 1)." if a.permanent
                               else " (Action 2).")}]
    private: Private = {}
    if a.effect in TURN_EFFECTS:
        key = TURN_EFFECTS[a.effect]
        state["effects"][key] = int(state["effects"].get(key, 0)) + a.amount
    elif a.effect == "draw":
        more, private = give(c, state, player, a.amount, stream, label, f"{a.name}, Action 3")
        events += more
    elif a.effect == "reclaim":
        count = min(int(step.get("count", a.amount)), a.amount)
        dump = step.get("dump", state["policy"][player].get("dump", []))
        events += take_back(c, state, player, count, dump, a.name)
    return events, private

"""Challenges, founding and the River Styx (CHALLENGE RULES, FOUNDING A SETTLEMENT, RIVER
STYX): Score 1-3, Challenge Ship 1-3 + Note, Challenge City 0-3, Challenge Hydra 0-4, Hydra
Attack 1-4 + Note, Styx 1-4, Honour 3-4, Found 1-4, Map 14.

Every function changes ``state`` (the design's State layout) and returns public events (dicts
with ``type`` and ``text``, TOML-writable); :func:`ship` returns ``(events, private)`` because
a stolen Action card is named only to the thief and the victim. What ends a move (Ship 5-7),
the End 1 check and the Pursuit checks after the event (Pursuit 1-5: a won ship challenge for
``defeat_ship``, see the ``challenge-ship`` event's ``winner``) are the caller's. The caller
also checks that the challenge may happen (the ship moved onto the defender's square, not on
an anchor or the Styx; a place from an approach square): :func:`why_not_ship`,
:func:`why_not_place`, :func:`why_not_found` and :func:`hydra_open` say why not; the
functions raise ``ValueError`` when called against them (a bug of the caller).

The throw (Score 1-3). Every hoplite on the player's shipboard is thrown, one draw each on
the PUBLIC stream: ``Stream.faces(components.throw_faces(), "<label>/<player>/<i>")``, ``i``
from 1 (authored odds 9 up : 9 down : 2 side of 20). Skull up scores 0 and goes to the
Underworld; skull down 1 point; side or standing 1/2 point; both go back to the shipboard.
Scores are doubled ints (``score2``: 7 means 3.5) and shown as "3.5". In a challenge, the
thrower's Action cards add to his throw (:func:`bonus2`): ``bronze_shield`` (permanent, in
``state["permanents"]``) its amount in every challenge he throws in, attacker or defender;
``challenge_plus`` played this turn (``state["effects"]["challenge_bonus2"]``, the active
player's, the design's key) in his first challenge of the turn, then used up.

Rulings (with their clause):

- Challenge Ship 2: the defender wins a draw, so a defender with 0 hoplites (score 0) beats
  an attacker who scores 0 (analysis 5.1 item 18).
- Challenge Ship 3, the steal follows the WINNER's standing choice ``steal`` (the defender
  may be the winner): ``"chest"`` takes the colour that the winner's displayed Pursuits, then
  his personal one, need first (a ``deliver`` task of that colour for which he carries fewer
  than its count), else the loser's first chest; ``"card"`` takes a random Action card from
  the loser's hand (one draw ``<label>/steal`` on the ``sealed`` stream the caller passes: the
  public event says "an Action card", the private events name it to thief and victim). With
  nothing of the chosen kind to take, the other kind; with neither, nothing. The same colour
  rule picks the chest won from a city (Challenge City 2).
- Map 14: a chest taken onto a full shipboard (hoplites + chests = 10) sends one hoplite to
  the Underworld first; a shipboard holding only chests cannot take one (a chest steal then
  becomes a card steal; a city keeps its chest).
- The push (Challenge Ship 3 + Note, Challenge Hydra 4, Hydra Attack 4; analysis 5.1 item 7,
  :func:`push_squares`): "by 3 squares onto a free space" = a square exactly 3 steps away by
  sea (the fewest orthogonal steps over water, anchor and Styx squares; through ships and the
  Hydra, never through land or the Kylix), with no ship and no Hydra on it; anchors and the
  Styx are free spaces. If none exists, the nearest farther distance that has one; if none at
  all, the ship stays. Among them the chooser's standing ``push`` picks (far_from_athens: the
  largest sea distance to the nearest Athens anchor; near_hydra: the smallest to the Hydra;
  far_from_styx: the largest to the nearest Styx square), ties to the lowest square id. A
  push is not a move of the pushed player: pushed onto the Styx he reclaims nothing, onto an
  anchor he delivers nothing (Styx 1 and Pursuit Deliver 4 speak of moving your ship there).
- The Hydra relocated by its victor (Challenge Hydra 3, Hydra Attack 3: "by 3 squares ...
  onto a free water square"): the same, over the Hydra's water only (Kylix Hydra 2: never an
  anchor or the Styx), onto a square with no ship; the victor's standing ``hydra_to`` picks
  (far_from_me: the largest sea distance to his ship; near_leader: the smallest to the ship of
  the other player with the most Honour points, ties in seat order), ties to the lowest id.
- "The player sitting to your right" (Challenge Hydra 4, Hydra Attack 4) is the previous seat
  (play goes clockwise to the left, Round 2): :func:`right_of`; with 2 players, the other one
  (analysis 5.1 item 8). He pushes by his own standing ``push``.
- Defeating the Hydra (Challenge Hydra 3, Hydra Attack 3 + Note; analysis 5.1 item 11): the
  victor takes every displayed "Defeat the Hydra" card (Pursuit 2: several at once) into
  ``state["achieved"]``, each refilled at once from the top of ``state["pursuit_deck"]`` (its
  last id; public event naming it; an empty deck leaves the slot empty), and his own personal
  card if it is a "Defeat the Hydra" card (revealed). A Hydra attack's victor who takes no
  card takes 1 Honour card instead (Honour 3). The Hydra may be challenged only while such a
  card is displayed or is the challenger's personal card (:func:`hydra_open`, Challenge
  Hydra 0). The victim's skull-up hoplites go to the Underworld either way.
- Honour cards (Honour 3-5) are a counter ``state["honour"][player]``, 1 point each. The 14
  cards of the box (Contents) are a count only: when they run out pbem goes on counting
  (analysis 5.1 item 16).
- Styx 1-2 / Honour 4: the Underworld counts of all players BEFORE the reclaim; 2 Honour
  cards (1 with 2 players) only for a sole majority of at least one hoplite ("If there's a
  draw, neither player gets"). All the player's hoplites come back as far as the shipboard
  has room; to make room he dumps chests whose colours his standing ``dump`` lists (in that
  order), only as many as needed, each onto an empty city space chosen by his ``return_to``
  (nearest/farthest Athens by sea, ties to the lowest city id); chests of colours not listed
  stay, and the hoplites that do not fit stay below.
- Challenge City 2, a settlement owned by another player: the loser's hoplites there go to his
  Underworld and the victor leaves the settlement's printed number of hoplites from his
  shipboard (Honour 1, Found 3); a victor with fewer hoplites left on board cannot replace
  them and wins nothing (the owner keeps it). An unowned settlement is founded, not
  challenged (Found 1); one's own settlement is not challenged; nor is a city with no chest
  left (there is nothing to win: "take one of its treasure chests").
- Found 1-4: from an approach square of the settlement (:meth:`Board.approaches`), not owned
  by anyone, with at least its printed number of hoplites on the shipboard; they move onto it
  and count as Honour points while it is owned (Honour 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pbem.core.dice import Stream
from pbem.games.deukalion import choices as choices_mod
from pbem.games.deukalion import scoring
from pbem.games.deukalion.components import (
    HYDRA_VALUE,
    PUSH,
    SHIPBOARD,
    THROW_SCORE2,
    Components,
    throw_faces,
)

State = dict[str, Any]
Event = dict[str, Any]
Private = dict[str, list[Event]]

#: Far beyond any sea distance on the board: a square the sea does not reach.
UNREACHABLE = 10_000
#: The key under which actions.py puts this turn's ``challenge_plus`` (doubled score).
CHALLENGE_BONUS = "challenge_bonus2"
#: The permanent card effect that adds its amount to every challenge (Action 1).
SHIELD = "bronze_shield"


def show(score2: int) -> str:
    """A doubled score as the rules print it: 7 -> "3.5", 8 -> "4"."""
    return f"{score2 // 2}.5" if score2 % 2 else str(score2 // 2)


def policy(state: Mapping[str, Any], player: str) -> dict[str, Any]:
    """The player's standing choices, the defaults filling what is missing."""
    return {**choices_mod.DEFAULT, **state.get("policy", {}).get(player, {})}


def right_of(state: Mapping[str, Any], player: str) -> str:
    """The player sitting to ``player``'s right: the previous seat (Round 2: play goes
    clockwise, to the left); with 2 players the other one (analysis 5.1 item 8)."""
    seats = state["seats"]
    return str(seats[(seats.index(player) - 1) % len(seats)])


# --- the throw (Score 1-3) ----------------------------------------------------------------------

def throw(state: State, player: str, stream: Stream, label: str) -> tuple[int, list[Event]]:
    """Score 1-3: every hoplite on ``player``'s shipboard thrown, one public draw each
    (``<label>/<player>/<i>``); skull-up hoplites go to the Underworld. Returns the doubled
    score and one ``throw`` event."""
    n = int(state["board"][player]["hoplites"])
    faces = [stream.faces(throw_faces(), f"{label}/{player}/{i}") for i in range(1, n + 1)]
    score2 = sum(THROW_SCORE2[f] for f in faces)
    lost = faces.count("up")
    state["board"][player]["hoplites"] = n - lost
    state["underworld"][player] = int(state["underworld"][player]) + lost
    if n:
        text = (f"{player} throws {n} hoplite{'s' if n != 1 else ''}: {', '.join(faces)} = "
                f"{show(score2)} (Score 1-3)")
        text += (f"; {lost} skull{'s' if lost != 1 else ''} up to the Underworld." if lost
                 else ".")
    else:
        text = f"{player} has no hoplite on board to throw: 0 (Score 1-3)."
    return score2, [{"type": "throw", "player": player, "faces": faces, "score2": score2,
                     "score": show(score2), "lost": lost, "text": text}]


def bonus2(c: Components, state: State, player: str) -> tuple[int, list[str]]:
    """What ``player``'s Action cards add to a challenge throw now (doubled), with the names of
    the cards; uses up this turn's ``challenge_plus`` (see the module docstring)."""
    total, names = 0, []
    for card in state.get("permanents", {}).get(player, []):
        a = c.actions.get(card)
        if a is not None and a.effect == SHIELD:
            total += a.amount
            names.append(a.name)
    effects = state.get("effects", {})
    if player == state.get("active") and int(effects.get(CHALLENGE_BONUS, 0)) > 0:
        total += int(effects[CHALLENGE_BONUS])
        names.append("challenge bonus")
        effects[CHALLENGE_BONUS] = 0  # "in one challenge this turn"
    return total, names


def challenge_score(c: Components, state: State, player: str, stream: Stream,
                    label: str) -> tuple[int, list[Event]]:
    """The throw of :func:`throw` plus :func:`bonus2`: the player's score in a challenge."""
    score2, events = throw(state, player, stream, label)
    extra, names = bonus2(c, state, player)
    if extra:
        score2 += extra
        events.append({"type": "bonus", "player": player, "bonus2": extra, "score2": score2,
                       "text": f"{player} adds {show(extra)} ({', '.join(names)}): "
                       f"{show(score2)} in all."})
    return score2, events


# --- where a ship is pushed, where the Hydra goes ---------------------------------------------

def push_squares(c: Components, state: State, square: str, hydra: bool = False) -> list[str]:
    """The free squares a ship on ``square`` may be pushed to (analysis 5.1 item 7): exactly
    3 steps away by sea (through ships and the Hydra, never land), no ship and no Hydra on
    them; if there is none, the nearest farther distance that has one; sorted. ``hydra``: the
    squares the Hydra may be relocated to (Hydra water only, no ship)."""
    dist = c.board.distances(square, hydra)
    busy = set(state["ships"].values())
    if not hydra:
        busy.add(state["hydra"])
    by: dict[int, list[str]] = {}
    for sq, d in dist.items():
        if d >= PUSH and sq not in busy:
            by.setdefault(d, []).append(sq)
    return sorted(by[min(by)]) if by else []


def _sea(c: Components, sources: Iterable[str]) -> dict[str, int]:
    """The fewest sea steps from the nearest of ``sources`` to every square a ship reaches."""
    best: dict[str, int] = {}
    for src in sources:
        for sq, d in c.board.distances(src).items():
            if d < best.get(sq, UNREACHABLE):
                best[sq] = d
    return best


def choose_push(c: Components, state: State, chooser: str, squares: list[str]) -> str:
    """The square ``chooser``'s standing ``push`` picks among ``squares`` (ties: lowest id)."""
    how = policy(state, chooser)["push"]
    if how == "near_hydra":
        dist = _sea(c, [state["hydra"]])
        return min(squares, key=lambda sq: (dist.get(sq, UNREACHABLE), sq))
    dist = _sea(c, c.board.styx if how == "far_from_styx" else c.board.anchors)
    return min(squares, key=lambda sq: (-dist.get(sq, UNREACHABLE), sq))


def leader(c: Components, state: State, player: str) -> str:
    """The other player with the most Honour points (ties: seat order)."""
    others: list[str] = [p for p in state["seats"] if p != player]
    return max(others, key=lambda p: (scoring.points(c, state, p), -others.index(p)))


def choose_hydra(c: Components, state: State, chooser: str, squares: list[str]) -> str:
    """The square ``chooser``'s standing ``hydra_to`` picks among ``squares`` (ties: lowest)."""
    if policy(state, chooser)["hydra_to"] == "near_leader":
        dist = _sea(c, [state["ships"][leader(c, state, chooser)]])
        return min(squares, key=lambda sq: (dist.get(sq, UNREACHABLE), sq))
    dist = _sea(c, [state["ships"][chooser]])
    return min(squares, key=lambda sq: (-dist.get(sq, UNREACHABLE), sq))


def push(c: Components, state: State, chooser: str, loser: str, clause: str) -> list[Event]:
    """``chooser`` moves ``loser``'s ship 3 squares onto a free space (see the rulings)."""
    start = state["ships"][loser]
    squares = push_squares(c, state, start)
    if not squares:
        return [{"type": "push", "player": loser, "by": chooser, "from": start, "to": start,
                 "text": f"No free square 3 steps from {start}: {loser}'s ship stays "
                 f"({clause})."}]
    to = choose_push(c, state, chooser, squares)
    state["ships"][loser] = to
    how = policy(state, chooser)["push"].replace("_", " ")
    return [{"type": "push", "player": loser, "by": chooser, "from": start, "to": to,
             "text": f"{chooser} pushes {loser}'s ship from {start} to {to} ({how}; "
             f"{clause})."}]


def relocate_hydra(c: Components, state: State, chooser: str, clause: str) -> list[Event]:
    """``chooser`` moves the Hydra 3 squares onto a free water square (see the rulings)."""
    start = state["hydra"]
    squares = push_squares(c, state, start, hydra=True)
    if not squares:
        return [{"type": "hydra-moved", "by": chooser, "from": start, "to": start,
                 "text": f"No free water square 3 steps from {start}: the Hydra stays "
                 f"({clause})."}]
    to = choose_hydra(c, state, chooser, squares)
    state["hydra"] = to
    how = policy(state, chooser)["hydra_to"].replace("_", " ")
    return [{"type": "hydra-moved", "by": chooser, "from": start, "to": to,
             "text": f"{chooser} moves the Hydra from {start} to {to} ({how}; {clause})."}]


# --- chests ----------------------------------------------------------------------------------

def wanted_colour(c: Components, state: State, player: str, chests: list[str]) -> str:
    """The chest of ``chests`` that ``player`` takes: the colour his displayed Pursuits, then
    his personal one, need first, else the first (Challenge Ship 3, Challenge City 2)."""
    carried = state["board"][player]["chests"]
    cards = [*state["display"], state.get("personal", {}).get(player, "")]
    for card in cards:
        if not card:
            continue
        for task in c.pursuits[card].tasks:
            if (task.kind == "deliver" and task.colour and task.colour in chests
                    and carried.count(task.colour) < task.count):
                return task.colour
    return chests[0]


def _room_for_chest(state: State, player: str, clause: str) -> tuple[bool, list[Event]]:
    """Map 14: a hoplite to the Underworld if the shipboard is full; False if it cannot."""
    board = state["board"][player]
    if board["hoplites"] + len(board["chests"]) < SHIPBOARD:
        return True, []
    if board["hoplites"] == 0:
        return False, []
    board["hoplites"] -= 1
    state["underworld"][player] += 1
    return True, [{"type": "room", "player": player, "text": f"{player}'s shipboard is full: "
                   f"one hoplite goes to the Underworld to make room ({clause}, Map 14)."}]


def _city_distance(c: Components, city: str) -> int:
    dist = _sea(c, c.board.anchors)
    return min((dist.get(sq, UNREACHABLE) for sq in c.board.approaches(city)),
               default=UNREACHABLE)


def return_space(c: Components, state: State, player: str) -> str:
    """The city with an empty chest space that ``player``'s ``return_to`` picks (nearest or
    farthest from Athens by sea, ties to the lowest id); "" if every space is full."""
    free = [k for k, city in c.board.cities.items()
            if len(state["chests"].get(k, [])) < city.spaces]
    if not free:
        return ""
    sign = 1 if policy(state, player)["return_to"] == "nearest_athens" else -1
    return min(free, key=lambda k: (sign * _city_distance(c, k), k))


def _dump_for_room(c: Components, state: State, player: str, need: int) -> list[Event]:
    """Dump chests of the colours ``player``'s ``dump`` lists until ``need`` spaces are free
    (Styx 1: "or dump unwanted treasure to make space")."""
    board = state["board"][player]
    events: list[Event] = []
    for colour in policy(state, player)["dump"]:
        while (SHIPBOARD - board["hoplites"] - len(board["chests"]) < need
               and colour in board["chests"]):
            city = return_space(c, state, player)
            if not city:
                return events
            board["chests"].remove(colour)
            state["chests"].setdefault(city, []).append(colour)
            events.append({"type": "dump", "player": player, "colour": colour, "city": city,
                           "text": f"{player} dumps a {colour} chest onto "
                           f"{c.place_name(city)} to make room (Styx 1)."})
    return events


# --- Challenge Ship 1-3 ----------------------------------------------------------------------

def why_not_ship(c: Components, state: State, attacker: str, defender: str) -> str:
    """Why ``attacker`` may not challenge ``defender``'s ship now ("" if he may): Ship 2
    (anchors are safe), Styx 3 (no challenges on the Styx), Ship 5 (enter its square)."""
    if attacker == defender or defender not in state["ships"]:
        return f"{defender!r} is not another player's ship"
    sq = state["ships"][defender]
    kind = c.board.squares[sq].kind
    if kind == "anchor":
        return f"{defender} is on an anchor of Athens: anchors are safe (Ship 2)"
    if kind == "styx":
        return f"{defender} is on the River Styx: no challenges there (Styx 3)"
    if state["ships"][attacker] != sq:
        return f"{attacker}'s ship must enter {defender}'s square {sq} (Ship 5)"
    return ""


def ship(c: Components, state: State, attacker: str, defender: str, stream: Stream,
         label: str, sealed: Stream) -> tuple[list[Event], Private]:
    """Challenge Ship 1-3 + Note: both throw all their hoplites (attacker first), the most
    points wins, a draw goes to the defender; the winner steals by his standing ``steal`` (a
    card drawn on ``sealed``) and pushes the loser 3 squares by his ``push``."""
    if why := why_not_ship(c, state, attacker, defender):
        raise ValueError(why)
    a2, events = challenge_score(c, state, attacker, stream, label)
    d2, more = challenge_score(c, state, defender, stream, label)
    events += more
    winner, loser = (attacker, defender) if a2 > d2 else (defender, attacker)
    why = "more points" if a2 != d2 else "a draw goes to the defender"
    events.append({"type": "challenge-ship", "attacker": attacker, "defender": defender,
                   "winner": winner, "loser": loser, "score2": {attacker: a2, defender: d2},
                   "text": f"{attacker} challenges {defender}'s ship: {show(a2)} to "
                   f"{show(d2)}; {winner} wins ({why}, Challenge Ship 2)."})
    more, private = steal(c, state, winner, loser, label, sealed)
    events += more
    events += push(c, state, winner, loser, "Challenge Ship 3")
    return events, private


def steal(c: Components, state: State, winner: str, loser: str, label: str,
          sealed: Stream) -> tuple[list[Event], Private]:
    """Challenge Ship 3: a chest OR a random Action card from the loser, by the winner's
    standing ``steal``; the other kind if there is none of that one."""
    first = policy(state, winner)["steal"]
    order = [first, "card" if first == "chest" else "chest"]
    loser_chests = state["board"][loser]["chests"]
    for kind in order:
        if kind == "chest" and loser_chests:
            board = state["board"][winner]
            if board["hoplites"] == 0 and len(board["chests"]) >= SHIPBOARD:
                continue  # no room and no hoplite to free one (Map 14)
            colour = wanted_colour(c, state, winner, loser_chests)
            ok, events = _room_for_chest(state, winner, "Challenge Ship 3")
            assert ok
            loser_chests.remove(colour)
            board["chests"].append(colour)
            events.append({"type": "steal", "thief": winner, "victim": loser, "what": "chest",
                           "colour": colour, "text": f"{winner} steals a {colour} treasure "
                           f"chest from {loser} (Challenge Ship 3)."})
            return events, {}
        if kind == "card" and state["hands"][loser]:
            hand = state["hands"][loser]
            card = sealed.choice(hand, f"{label}/steal")
            hand.remove(card)
            state["hands"][winner].append(card)
            name = c.actions[card].name if card in c.actions else card
            public = {"type": "steal", "thief": winner, "victim": loser, "what": "card",
                      "text": f"{winner} steals an Action card at random from {loser} "
                      "(Challenge Ship 3)."}
            private: Private = {
                winner: [{"type": "stolen-card", "card": card, "from": loser,
                          "text": f"You steal {name} ({card}) from {loser}."}],
                loser: [{"type": "stolen-card", "card": card, "by": winner,
                         "text": f"{winner} steals your {name} ({card})."}]}
            return [public], private
    return [{"type": "steal", "thief": winner, "victim": loser, "what": "nothing",
             "text": f"{loser} has no chest and no Action card: {winner} steals nothing "
             "(Challenge Ship 3)."}], {}


# --- Challenge City 0-3 ----------------------------------------------------------------------

def why_not_place(c: Components, state: State, player: str, place_id: str) -> str:
    """Why ``player`` may not challenge ``place_id`` now ("" if he may)."""
    b = c.board
    if place_id not in b.cities and place_id not in b.settlements:
        return f"{place_id!r} is not a city or settlement"
    if place_id not in b.adjacent_places(state["ships"][player]):
        return (f"{player}'s ship is not on a water or anchor square next to "
                f"{c.place_name(place_id)} (Challenge City 0)")
    if place_id in b.cities and not state["chests"].get(place_id):
        return f"{c.place_name(place_id)} has no treasure chest to take (Challenge City 2)"
    if place_id in b.settlements:
        owner = state["settlements"][place_id]["owner"]
        if not owner:
            return f"{c.place_name(place_id)} belongs to nobody: found it instead (Found 1)"
        if owner == player:
            return f"{c.place_name(place_id)} is already yours"
    return ""


def place(c: Components, state: State, player: str, place_id: str, stream: Stream,
          label: str) -> list[Event]:
    """Challenge City 0-3: throw; meet or beat the value to take a chest (city) or seize
    another player's settlement; below it nothing ("Continue play as normal")."""
    if why := why_not_place(c, state, player, place_id):
        raise ValueError(why)
    name = c.place_name(place_id)
    is_city = place_id in c.board.cities
    value = c.board.cities[place_id].value if is_city else c.board.settlements[place_id].value
    score2, events = challenge_score(c, state, player, stream, label)
    won = score2 >= 2 * value
    events.append({"type": "challenge-place", "player": player, "place": place_id,
                   "score2": score2, "value": value, "won": won,
                   "text": f"{player} challenges {name} (value {value}) with {show(score2)}: "
                   + ("meets or beats it (Challenge City 2)." if won else
                      "below it, nothing won; play goes on (Challenge City 3).")})
    if not won:
        return events
    if is_city:
        lying = state["chests"][place_id]
        if not lying:
            events.append({"type": "take-chest", "player": player, "place": place_id,
                           "colour": "", "text": f"{name} has no chest left to take."})
            return events
        ok, more = _room_for_chest(state, player, "Challenge City 2")
        if not ok:
            events.append({"type": "take-chest", "player": player, "place": place_id,
                           "colour": "", "text": f"{player}'s shipboard holds only chests: "
                           "no room for another (Map 14)."})
            return events
        events += more
        colour = wanted_colour(c, state, player, lying)
        lying.remove(colour)
        state["board"][player]["chests"].append(colour)
        events.append({"type": "take-chest", "player": player, "place": place_id,
                       "colour": colour, "text": f"{player} takes a {colour} treasure chest "
                       f"from {name} (Challenge City 2)."})
        return events
    s = state["settlements"][place_id]
    need = c.board.settlements[place_id].hoplites
    owner = s["owner"]
    if state["board"][player]["hoplites"] < need:
        events.append({"type": "seize", "player": player, "place": place_id, "from": owner,
                       "seized": False, "text": f"{player} has fewer than {need} hoplites on "
                       f"board to leave on {name}: {owner} keeps it (Challenge City 2)."})
        return events
    state["underworld"][owner] += s["hoplites"]
    lost = s["hoplites"]
    state["board"][player]["hoplites"] -= need
    state["settlements"][place_id] = {"owner": player, "hoplites": need}
    events.append({"type": "seize", "player": player, "place": place_id, "from": owner,
                   "seized": True, "text": f"{player} seizes {name}: {owner}'s {lost} "
                   f"hoplite{'s' if lost != 1 else ''} go to the Underworld, {player} leaves "
                   f"{need} there: {need} Honour point{'s' if need != 1 else ''} change hands "
                   "(Challenge City 2, Honour 1)."})
    return events


# --- Found 1-4 --------------------------------------------------------------------------------

def why_not_found(c: Components, state: State, player: str, settlement: str) -> str:
    """Why ``player`` may not found ``settlement`` now ("" if he may)."""
    if settlement not in c.board.settlements:
        return f"{settlement!r} is not a settlement (Found 1)"
    name = c.place_name(settlement)
    if settlement not in c.board.adjacent_places(state["ships"][player]):
        return f"{player}'s ship is not on a square next to {name} (Found 1)"
    owner = state["settlements"][settlement]["owner"]
    if owner:
        return (f"{name} is already {owner}'s" + ("" if owner == player else
                                                  ": challenge it instead (Found 2)"))
    need = c.board.settlements[settlement].hoplites
    if state["board"][player]["hoplites"] < need:
        return f"founding {name} takes {need} hoplites from the shipboard (Found 3)"
    return ""


def found(c: Components, state: State, player: str, settlement: str) -> list[Event]:
    """Found 1-4: the settlement's printed number of hoplites move from the shipboard onto
    it; they are Honour points while it is owned (Honour 1)."""
    if why := why_not_found(c, state, player, settlement):
        raise ValueError(why)
    need = c.board.settlements[settlement].hoplites
    state["board"][player]["hoplites"] -= need
    state["settlements"][settlement] = {"owner": player, "hoplites": need}
    return [{"type": "found", "player": player, "place": settlement, "hoplites": need,
             "text": f"{player} founds {c.place_name(settlement)} and leaves {need} "
             f"hoplite{'s' if need != 1 else ''} there: {need} Honour "
             f"point{'s' if need != 1 else ''} while it is {player}'s (Found 1-4, Honour 1)."}]


# --- the Hydra --------------------------------------------------------------------------------

def hydra_cards(c: Components, state: State, player: str) -> list[str]:
    """The "Defeat the Hydra" cards ``player`` would take now: the displayed ones, then his
    personal one (analysis 5.1 item 11)."""
    out = [p for p in state["display"] if p and c.pursuits[p].hydra]
    mine = state.get("personal", {}).get(player, "")
    if mine and c.pursuits[mine].hydra:
        out.append(mine)
    return out


def hydra_open(c: Components, state: State, player: str) -> bool:
    """Challenge Hydra 0, Ship 6: the Hydra may be challenged (and entered) by ``player``."""
    return bool(hydra_cards(c, state, player))


def take_hydra_cards(c: Components, state: State, player: str, clause: str) -> list[Event]:
    """The victor takes the "Defeat the Hydra" cards (displayed ones refilled at once from the
    top of the Pursuit deck, Pursuit 0.4); his personal one is revealed."""
    events: list[Event] = []
    for card in hydra_cards(c, state, player):
        p = c.pursuits[card]
        state["achieved"][player].append(card)
        if card in state["display"]:
            i = state["display"].index(card)
            events.append({"type": "pursuit", "player": player, "card": card,
                           "points": p.points, "personal": False,
                           "text": f"{player} takes the displayed Pursuit card {card} "
                           f"(\"Defeat the Hydra\", {p.points} Honour points; {clause}, "
                           "Honour 2)."})
            if state["pursuit_deck"]:
                new = state["pursuit_deck"].pop()
                state["display"][i] = new
                tasks = " OR ".join(t.text(c) for t in c.pursuits[new].tasks)
                events.append({"type": "display", "card": new, "display": list(
                    state["display"]), "text": f"Pursuit card {new} is turned over: {tasks} "
                    f"({c.pursuits[new].points} points; Pursuit 0.4)."})
            else:
                del state["display"][i]
                events.append({"type": "display", "card": "", "display": list(
                    state["display"]), "text": "The Pursuit deck is empty: nothing replaces "
                    f"{card} on display."})
        else:
            state["personal"][player] = ""
            events.append({"type": "pursuit", "player": player, "card": card,
                           "points": p.points, "personal": True,
                           "text": f"{player} achieves the personal Pursuit card {card} "
                           f"(\"Defeat the Hydra\", {p.points} Honour points; {clause}, "
                           "Pursuit 0.2)."})
    return events


def hydra(c: Components, state: State, player: str, stream: Stream,
          label: str) -> list[Event]:
    """Challenge Hydra 0-4: ``player``'s ship has entered the Hydra's square; 5 or more takes
    the "Defeat the Hydra" card(s) and the victor moves the Hydra 3 squares; less, the player
    to his right pushes his ship 3 squares."""
    if not hydra_open(c, state, player):
        raise ValueError("no \"Defeat the Hydra\" card is displayed (Challenge Hydra 0)")
    if state["ships"][player] != state["hydra"]:
        raise ValueError(f"{player}'s ship must enter the Hydra's square (Challenge Hydra 1)")
    score2, events = challenge_score(c, state, player, stream, label)
    won = score2 >= 2 * HYDRA_VALUE
    events.append({"type": "challenge-hydra", "player": player, "score2": score2, "won": won,
                   "text": f"{player} challenges the Hydra with {show(score2)}: " + (
                       f"{HYDRA_VALUE} or more wins (Challenge Hydra 3)." if won else
                       f"less than {HYDRA_VALUE} loses (Challenge Hydra 4).")})
    if won:
        events += take_hydra_cards(c, state, player, "Challenge Hydra 3")
        events += relocate_hydra(c, state, player, "Challenge Hydra 3")
    else:
        events += push(c, state, right_of(state, player), player, "Challenge Hydra 4")
    return events


def hydra_attack(c: Components, state: State, active: str, victim: str, stream: Stream,
                 label: str) -> list[Event]:
    """Hydra Attack 1-4 + Note: ``active`` moved the Hydra onto ``victim``'s ship; the victim
    throws; 5 or more: the "Defeat the Hydra" card(s) if any, else 1 Honour card, and he
    moves the Hydra 3 squares; less, the player to his right pushes his ship 3 squares."""
    if victim == active:
        raise ValueError("the Hydra challenges another player (Hydra Attack 1)")
    if state["ships"][victim] != state["hydra"]:
        raise ValueError(f"the Hydra must enter {victim}'s square (Hydra Attack 1)")
    score2, events = challenge_score(c, state, victim, stream, label)
    won = score2 >= 2 * HYDRA_VALUE
    events.append({"type": "hydra-attack", "player": victim, "by": active, "score2": score2,
                   "won": won, "text": f"{active} sets the Hydra on {victim}'s ship; {victim} "
                   f"scores {show(score2)}: " + (
                       f"{HYDRA_VALUE} or more wins (Hydra Attack 3)." if won else
                       f"less than {HYDRA_VALUE} loses (Hydra Attack 4).")})
    if won:
        cards = take_hydra_cards(c, state, victim, "Hydra Attack 3 Note")
        if cards:
            events += cards
        else:
            state["honour"][victim] += 1
            events.append({"type": "honour", "player": victim, "cards": 1,
                           "honour": state["honour"][victim], "text": f"{victim} takes 1 "
                           "Honour card for beating the Hydra (Hydra Attack 3, Honour 3)."})
        events += relocate_hydra(c, state, victim, "Hydra Attack 3")
    else:
        events += push(c, state, right_of(state, victim), victim, "Hydra Attack 4")
    return events


# --- the River Styx ---------------------------------------------------------------------------

def styx(c: Components, state: State, player: str) -> list[Event]:
    """Styx 1-4, Honour 4: ``player``'s ship has entered the Styx: the sole Underworld
    majority (before reclaiming) takes 2 Honour cards (1 with 2 players); then every hoplite
    of his comes back as far as the shipboard has room (dumping the chests his ``dump``
    lists)."""
    under = state["underworld"]
    mine = int(under[player])
    others = max((int(under[p]) for p in state["seats"] if p != player), default=0)
    events: list[Event] = []
    counts = ", ".join(f"{p} {under[p]}" for p in state["seats"])
    if mine > others:
        cards = 1 if len(state["seats"]) == 2 else 2
        state["honour"][player] += cards
        events.append({"type": "honour", "player": player, "cards": cards,
                       "honour": state["honour"][player],
                       "text": f"In the Underworld: {counts}. {player} has the most and takes "
                       f"{cards} Honour card{'s' if cards != 1 else ''} (Styx 2, Honour 4)."})
    elif mine:
        events.append({"type": "honour", "player": player, "cards": 0,
                       "honour": state["honour"][player],
                       "text": f"In the Underworld: {counts}. {player} has no sole majority: "
                       "no Honour card (Styx 2: \"If there's a draw, neither player gets\")."})
    events += _dump_for_room(c, state, player, mine)
    board = state["board"][player]
    room = max(0, SHIPBOARD - board["hoplites"] - len(board["chests"]))
    back = min(mine, room)
    board["hoplites"] += back
    under[player] = mine - back
    left = f"; {mine - back} stay below (no room on the shipboard)" if back < mine else ""
    events.append({"type": "styx", "player": player, "reclaimed": back,
                   "underworld": under[player],
                   "text": f"{player} reaches the River Styx and reclaims {back} "
                   f"hoplite{'s' if back != 1 else ''} from the Underworld{left} (Styx 1)."})
    return events

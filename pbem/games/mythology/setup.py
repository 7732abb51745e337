"""Set-up and preparation for play (100-102), the Historical Map Set-Up (304) and the placing
of the Lesser Evil counters (303 A-C).

At the table counters are placed face down and turned face up once all are down (102 B 4,
C 7, D 5, E 4): where each counter lands is random and public at once, so it is drawn from
the public stream. Deals and Fate counters stay hidden and come from the sealed stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from pbem.core.dice import Stream
from pbem.games.mythology import fates
from pbem.games.mythology.components import Components, HexMap

GREECE = "greece"
RIVER_OCEAN = "river_ocean"


def hero_count(players: int) -> int:
    """102 E 5: 18 Heroes for two to four players, 22 for five or six, 28 for seven or more."""
    return 18 if players <= 4 else 22 if players <= 6 else 28


def hand_size(players: int) -> int:
    """010 A 1-2: six cards each with six or fewer players, five with seven or more."""
    return 6 if players <= 6 else 5


@cache
def _ocean_shores(board: HexMap) -> frozenset[str]:
    """Land hexes on a shoreline adjacent to the River Ocean (102 B 2)."""
    return frozenset(h for h, x in board.hexes.items() if x.land and any(
        board.hexes[n].area == RIVER_OCEAN and not board.hexes[n].land
        for n in board.neighbours(h)))


@cache
def prize_hexes(board: HexMap) -> tuple[str, ...]:
    """102 B 2, 6: land hexes no further than two hexes from a River Ocean shoreline."""
    shores = _ocean_shores(board)
    return tuple(sorted(h for h, x in board.hexes.items() if x.land and any(
        board.distance(h, s) <= 2 for s in shores)))


@cache
def _greece_distance(board: HexMap) -> dict[str, int]:
    return {h: board.distance_to_area(h, GREECE) for h in board.hexes}


def place_prizes(c: Components, stream: Stream) -> dict[str, str]:
    """102 B: one per hex, within two hexes of a River Ocean shoreline, on land, no closer
    than five hexes to another Prize (B 3: "no closer than five" read as distance >= 5)."""
    board = c.map
    placed: dict[str, str] = {}
    for prize in stream.shuffle(sorted(c.prizes), "setup/prize-order"):
        free = [h for h in prize_hexes(board)
                if all(board.distance(h, other) >= 5 for other in placed.values())]
        if not free:
            raise ValueError("102 B: no hex left for a Prize; the map data cannot be set up")
        placed[prize] = stream.choice(free, f"setup/prize/{prize}")
    return placed


def place_helpers(c: Components, prizes: dict[str, str], stream: Stream) -> dict[str, str]:
    """102 C 1-6: one per land hex, not with a Prize, more than six hexes from any part of
    Greece, more than three hexes from any Prize."""
    board, greece = c.map, _greece_distance(c.map)
    allowed = [h for h in sorted(board.hexes) if board.is_land(h) and greece[h] > 6
               and all(board.distance(h, p) > 3 for p in prizes.values())]
    placed: dict[str, str] = {}
    for helper in stream.shuffle(sorted(c.helpers), "setup/helper-order"):
        used = set(placed.values()) | set(prizes.values())
        free = [h for h in allowed if h not in used]
        if not free:
            raise ValueError("102 C: no hex left for a Hero Helper")
        placed[helper] = stream.choice(free, f"setup/helper/{helper}")
    return placed


def place_monsters(c: Components, occupied: set[str], stream: Stream) -> dict[int, str]:
    """102 D 1-4: one per hex, alone, land or water, not in or within two hexes of Greece."""
    board, greece = c.map, _greece_distance(c.map)
    placed: dict[int, str] = {}
    for monster in stream.shuffle(sorted(c.monsters), "setup/monster-order"):
        used = occupied | set(placed.values())
        free = [h for h in sorted(board.hexes) if h not in used and greece[h] > 2]
        placed[monster] = stream.choice(free, f"setup/monster/{monster}")
    return placed


def place_lesser(c: Components, occupied: set[str], stream: Stream
                 ) -> tuple[dict[int, str], list[dict[str, Any]]]:
    """303 A-C: the Lesser Evil counters go face down "at the same time" as the Monsters, so in
    the manner of 102 D 1-3 (one per hex, alone, not in or within two hexes of Greece), and on
    land only (303 C). Once face up, each Pirate moves to its own Area of The Sea (303 B): the
    Pirates are shuffled and dealt to the Areas of The Sea in id order, and each lands on a
    water hex of its Area drawn among those no Monster holds. All draws are public."""
    board, greece = c.map, _greece_distance(c.map)
    placed: dict[int, str] = {}
    for lesser in stream.shuffle(sorted(c.lesser), "setup/lesser-order"):
        used = occupied | set(placed.values())
        free = [h for h in sorted(board.hexes) if h not in used and greece[h] > 2
                and board.is_land(h)]
        if not free:
            raise ValueError("303 C: no land hex left for a Lesser Evil counter")
        placed[lesser] = stream.choice(free, f"setup/lesser/{lesser}")
    events: list[dict[str, Any]] = [{
        "type": "setup", "text": f"{len(placed)} Lesser Evil counters placed on land and turned "
        "face up (303 A, C): " + ", ".join(f"{c.lesser[u].name} ({u}) {placed[u]}"
                                          for u in sorted(placed)) + "."}]
    seas = sorted(a.id for a in board.areas.values() if a.kind == "sea")
    pirates = stream.shuffle(sorted(u for u in placed if c.lesser[u].pirate),
                             "setup/lesser/pirates")
    for pirate, sea in zip(pirates, seas, strict=True):
        water = [h for h in board.area(sea).hexes if not board.is_land(h) and h not in occupied]
        before, placed[pirate] = placed[pirate], stream.choice(water, f"setup/lesser/{pirate}/sea")
        events.append({"type": "pirate-to-sea", "unit": pirate, "area": sea, "from": before,
                       "hex": placed[pirate],
                       "text": f"{c.lesser[pirate].name} ({pirate}) move from {before} to "
                       f"{placed[pirate]} in {board.area(sea).name} (303 B)."})
    return placed, events


def place_heroes(c: Components, players: int, occupied: set[str], stream: Stream
                 ) -> tuple[dict[int, str], list[int]]:
    """102 E: the specified number of Heroes, drawn face down, one per land hex, filling Greece
    first, then the hexes directly adjacent to it, then the next ring (within two hexes); the
    rest wait off the board in numerical order (E 6) for the Fates (213 E 2)."""
    board, greece = c.map, _greece_distance(c.map)
    order = stream.shuffle(sorted(c.heroes), "setup/hero-order")
    chosen, reserve = order[:hero_count(players)], sorted(order[hero_count(players):])
    placed: dict[int, str] = {}
    for hero in chosen:
        used = occupied | set(placed.values())
        for ring in (0, 1, 2):
            free = [h for h in sorted(board.hexes) if greece[h] == ring and board.is_land(h)
                    and h not in used]
            if free:
                placed[hero] = stream.choice(free, f"setup/hero/{hero}")
                break
        else:
            raise ValueError("102 E 3: Greece and the hexes within two of it are full")
    return placed, reserve


def historical(c: Components) -> tuple[dict[str, str], dict[int, str]]:
    """304 B-C: the printed hexes of the Prizes and Monsters."""
    return ({p: x.historical_hex for p, x in c.prizes.items()},
            {m: x.historical_hex for m, x in c.monsters.items()})


def initial_state(c: Components, seats: Sequence[str], option_setup: str, public: Stream,
                  sealed: Stream, *, lesser_evil: bool = False
                  ) -> tuple[dict[str, Any], list[dict[str, Any]],
                             dict[str, list[dict[str, Any]]]]:
    """The whole set-up: 101 gods, 102 B-E counters (or 304), 102 F cards, 102 G Fates; with
    ``lesser_evil`` (Optional Rule 303) the Lesser Evil counters, just after the Monsters."""
    events: list[dict[str, Any]] = []
    private: dict[str, list[dict[str, Any]]] = {p: [] for p in seats}
    gods = public.shuffle(sorted(c.gods), "setup/gods")  # 101 A: god counters drawn face down
    god_of = {p: gods[i] for i, p in enumerate(seats)}
    for p in seats:
        events.append({"type": "god", "player": p, "god": god_of[p],
                       "text": f"{p} is {c.gods[god_of[p]].name} (101)."})
    if option_setup == "historical":
        prizes, monsters = historical(c)
        helpers = place_helpers(c, prizes, public)
        occupied = set(prizes.values()) | set(helpers.values()) | set(monsters.values())
        events.append({"type": "setup", "text": "Historical Map Set-Up: Prizes and Monsters "
                       "on their printed hexes (304 B-C)."})
    else:
        prizes = place_prizes(c, public)
        helpers = place_helpers(c, prizes, public)
        monsters = place_monsters(c, set(prizes.values()) | set(helpers.values()), public)
        occupied = set(prizes.values()) | set(helpers.values()) | set(monsters.values())
    lesser: dict[int, str] = {}
    if lesser_evil:
        lesser, lesser_events = place_lesser(c, occupied, public)
        events += lesser_events
        occupied |= set(lesser.values())
    heroes, reserve = place_heroes(c, len(seats), occupied, public)
    events.append({"type": "setup", "text": f"{len(prizes)} Prizes, {len(helpers)} Hero "
                   f"Helpers, {len(monsters)} Monsters and {len(heroes)} Heroes placed "
                   f"(102 B-E); {len(reserve)} Heroes wait off the board (102 E 6)."})

    deck = [str(x) for x in sealed.shuffle(sorted(c.cards), "setup/deck")]  # 010 A
    hands = {p: [deck.pop() for _ in range(hand_size(len(seats)))] for p in seats}  # 102 F
    for p in seats:
        private[p].append({"type": "hand", "cards": hands[p],
                           "text": f"You were dealt cards {', '.join(hands[p])} (102 F)."})
    draw = fates.draw_fates(seats, sorted(c.fates), fates.load_chart(), sealed, "setup/fates")
    events += draw.events
    for p, evs in draw.private.items():
        private[p] += evs

    state: dict[str, Any] = {
        "turn": 1, "step": "logsheet", "seats": list(seats), "gods": god_of,
        "glory": dict.fromkeys(seats, 10),  # 008 C
        "heroes": {str(h): {"hex": x, "status": "board"} for h, x in sorted(heroes.items())}
        | {str(h): {"hex": "", "status": "reserve"} for h in reserve},
        "monsters": {str(m): {"hex": x, "status": "board"} for m, x in sorted(monsters.items())},
        "prizes": {p: {"hex": x, "holder": 0, "off_board": "", "scored": []}
                   for p, x in sorted(prizes.items())},
        "helpers": {h: {"hex": x, "holder": 0} for h, x in sorted(helpers.items())},
        "ships": [], "remorse": 0,
        "deck": deck, "discard": [], "hands": hands, "facedown": dict.fromkeys(seats, ""),
        "fate_held": draw.held, "fate_track": {str(k): v for k, v in sorted(draw.track.items())},
        "logsheets": {p: {} for p in seats}, "hero_totals": {p: {} for p in seats},
        "god_area": dict.fromkeys(seats, ""), "order": [], "cursor": 0, "turn_effects": {},
        "stats": {"heroes_killed_in_combat": 0, "monsters_killed": 0, "occurrences": {},
                  "heroes_killed_by_occurrence": {}, "turns_without_occurrence": 0,
                  "occurrences_this_turn": 0},
    }
    if lesser_evil:  # 303: only in a game that uses the Optional Rule
        state["lesser"] = {str(u): {"hex": x, "status": "board"} for u, x in sorted(lesser.items())}
    return state, events, private

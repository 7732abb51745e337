"""Basic PREPARATION FOR PLAY 1-9: the counters placed, the gods drawn, the favour rolled.

Every counter is placed face down and turned face up once all are placed (Basic Prep 6), so
where each lands is public at once and drawn from the public stream, as for the Advanced set-up
(102). The rulebook leaves open who picks the hexes of face-down counters and whether a hex may
hold two: pbem draws a random free land hex for each, one counter per hex (rulings in
``docs/games/mythology-basic.md``, "Set-up").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pbem.core.dice import Stream
from pbem.games.mythology.components import Components, HexMap

RIVER_OCEAN = "river_ocean"
HEROES = "heroes"
MONSTERS = "monsters"
#: Basic PP 1: Power Points per Game Turn.
POWER_POINTS = 15
#: Basic Play 0, Win 2: the game ends after the tenth Game Turn.
LAST_TURN = 10


@cache
def unit_areas(board: HexMap) -> tuple[str, ...]:
    """Basic Prep 3-4: the land Areas that do not border the River Ocean (Italia, Illyria,
    Macedonia, Greece, Thrace, Phrygia, Lydia, Colchis, Phoenicia, Assyria, Cyrenaica)."""
    return tuple(sorted(a for a, x in board.areas.items()
                        if x.kind == "land" and RIVER_OCEAN not in board.adjacent_areas(a)))


@cache
def prize_areas(board: HexMap) -> tuple[str, ...]:
    """Basic Prep 5: the Areas that border the River Ocean (with land hexes to hold a Prize)."""
    return tuple(sorted(a for a, x in board.areas.items() if a != RIVER_OCEAN
                        and RIVER_OCEAN in board.adjacent_areas(a)
                        and any(board.is_land(h) for h in x.hexes)))


def place_units(c: Components, stream: Stream) -> dict[str, str]:
    """Basic Prep 2-4: the 64 Hero and Monster counters, mixed, into the Areas of
    :func:`unit_areas`, each Area getting one before any gets a second, two before any gets a
    third... (the Area among the least filled drawn at random), each on a random free land
    hex of it. Returns unit (as str) -> hex."""
    board = c.map
    areas = unit_areas(board)
    count = dict.fromkeys(areas, 0)
    units = stream.shuffle([*sorted(c.heroes), *sorted(c.monsters)], "setup/units")
    area_of: dict[int, str] = {}
    for unit in units:  # the fill rule first, then the hexes: two runs of draws to read
        fewest = min(count.values())
        open_areas = [a for a in areas if count[a] == fewest]
        area = open_areas[0] if len(open_areas) == 1 else stream.choice(
            open_areas, f"setup/area/{unit}")
        count[area] += 1
        area_of[unit] = area
    free = {a: sorted(h for h in board.areas[a].hexes if board.is_land(h)) for a in areas}
    placed: dict[str, str] = {}
    for unit in units:
        hex_id = stream.choice(free[area_of[unit]], f"setup/hex/{unit}")
        free[area_of[unit]].remove(hex_id)
        placed[str(unit)] = hex_id
    return dict(sorted(placed.items(), key=lambda kv: int(kv[0])))


def place_prizes(c: Components, stream: Stream, taken: set[str]) -> dict[str, str]:
    """Basic Prep 5: the Prizes, mixed, each on a random free land hex of an Area that borders
    the River Ocean."""
    board = c.map
    free = sorted(h for a in prize_areas(board) for h in board.areas[a].hexes
                  if board.is_land(h) and h not in taken)
    placed: dict[str, str] = {}
    for prize in stream.shuffle(sorted(c.prizes), "setup/prizes"):
        hex_id = stream.choice(free, f"setup/prize/{prize}")
        free.remove(hex_id)
        placed[prize] = hex_id
    return dict(sorted(placed.items()))


def favour(players: Sequence[str], stream: Stream) -> tuple[dict[str, str], list[str]]:
    """Basic Prep 9: each player rolls two dice; the highest rolls favour Heroes, the lowest
    Monsters, and with an odd number of players the odd one favours Heroes: the top
    ceil(n/2) favour Heroes. Players tied across that line roll again among themselves.
    Returns (player -> side, the lines that say each roll)."""
    heroes = (len(players) + 1) // 2
    side: dict[str, str] = {}
    lines: list[str] = []

    def split(group: Sequence[str], top: int, round_: int) -> None:
        if top <= 0 or top >= len(group):
            for p in group:
                side[p] = HEROES if top > 0 else MONSTERS
            return
        rolls = {p: stream.sum_d6(2, f"setup/favour/{round_}/{p}") for p in group}
        what = "rolls" if round_ == 1 else f"roll {round_} (tied)"
        lines.append(f"Favour {what}: " + ", ".join(f"{p} {rolls[p]}" for p in group) + ".")
        left = top
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [p for p in group if rolls[p] == value]
            if len(tied) <= left:
                for p in tied:
                    side[p] = HEROES
                left -= len(tied)
            elif left > 0:
                split(tied, left, round_ + 1)
                left = 0
            else:
                for p in tied:
                    side[p] = MONSTERS

    split(list(players), heroes, 1)
    return {p: side[p] for p in players}, lines

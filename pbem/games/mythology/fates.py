"""The Fates (Mythology, Advanced Game: 102 G, 202 B 5, 213, 216 G 7, Special Victory Chart).

Pure functions: the caller passes the chart, the board facts and a dice stream. The one read
is :func:`load_chart`, of the package's static chart data, once.

* :func:`draw_fates` - 102 G, at set-up: every player draws a secret Fate counter (drawing again
  for the chart's "Return and draw another Fate counter"), the rest go face down on the Turn
  Record Track, two per box from Turn 14 toward Turn 1. Use the SEALED stream: the draws are
  face-down counters.
* :func:`fate_phase` - 202 B 5 and 213 C-E, each game Turn: the counters of the current
  Turn's box are revealed; a Hero on the board is removed, a Hero off it is born in Greece.
* :func:`special_victory` - 216 G 7, at the end of the game: the Glory a player's own Fate
  counter earns by the Special Victory Condition Chart.

The chart's numbers are data: ``pbem/games/mythology/data/fates.toml`` (:func:`load_chart`,
parsed by the pure :func:`parse_chart`). Each ``[[fate]]`` has an ``id``, the printed ``text``,
and either ``redraw = true`` or ``points`` (a whole number, or a fraction string such as
``"1/2"``) and a ``measure`` naming what is counted (:data:`MEASURES`). The code only knows the
measures; how many points each is worth, and which counter has which, is the data's.

Interpretation decisions (see ``docs/games/mythology.md``):

* 102 G "return this counter and draw again": the returned counter goes back into the
  face-down pile and the pile is mixed again before the player draws, as a returned counter
  put back on top could be drawn straight back (each pile mix is a shuffle, labelled
  ``<label>/remix/<player>/<n>``). Players draw in the order given (the seating order); a
  player keeps drawing until he holds a counter the chart does not send back, so no player
  ever holds 2, 3, 9, 10, 11 or 12. Returned counters are part of the pile, so they can be
  placed on the Turn Record Track.
* 102 G track: the remaining pile is mixed again and dealt two per box, box 14, then 13, ...
  down to box 1, until the counters or the boxes run out (a last single counter goes alone
  into the next box; never more than two per box, 102 G 1); any left over go back to the tray
  unused and face down for the whole game. Box 15 never holds Fates.
* 202 B 5 vs 213 C (which box is read in game Turn t): the Game Turn marker is moved into box
  t at the end of Turn t-1 (202 B 6; for Turn 1 when play begins, 102 H) and stands in box t
  during Turn t; 202 B 5 fixes WHEN its Fate counters are revealed: in the Fate Phase of Turn t,
  after all the Moving Players, "the box on the current game Turn number". 213 C tells what
  happens to the counters of the box the marker has moved into, not a second reveal at the
  moment of moving. So Turn t reads box t, after movement; the Fates of box 14 act in Turn 14.
* 213 E 2 placement: the rules let no player choose ("place it in any single Hex in the Area
  of Greece"), so the hex is drawn from the caller's list of free Greek hexes (land hexes of
  Greece with no unit counter, in a fixed order), from the PUBLIC stream (the counters are
  face up by then). A draw rather than the first hex of the list, so that births do not always
  fall in the same corner of Greece and no player can arrange a unit there to shape them. A
  hex used by one birth is no longer free for the next; only if no hex is free is a Hero
  stacked (213 E 2 "If it is possible"), drawn from all of Greece's hexes.
* 216 G 7 half points (entry 8): kept exactly as a count of half points; the player's final
  Glory is ``whole + halves // 2``, i.e. an unpaired half point is dropped (Glory is kept in
  whole points on the Point Record Track and the Log Sheet, 216 C-E, and 216 G 1 likewise
  drops a remainder of Power Points). :func:`final_glory` does that, once, at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path

from pbem.core.dice import Stream
from pbem.core.resources import parse_toml
from pbem.core.ruleset import Event

#: 102 G: Fate counters are placed from the box of game Turn 14 toward the box of Turn 1.
FIRST_BOX = 14
LAST_BOX = 1
#: 102 G 1: never more than two Fate counters in a box.
PER_BOX = 2

#: The chart's data file (static package data, read once by :func:`load_chart`).
CHART_FILE = Path(__file__).parent / "data" / "fates.toml"

REDRAW = "redraw"
#: Every measure the chart uses and what it counts (its points are the data's).
MEASURES: dict[str, str] = {
    "heroes_on_board": "Hero on the game board at the end of the game",
    "heroes_killed_in_combat": "Hero killed in Combat",
    "monsters_on_board": "Monster on the game board at the end of the game",
    "monsters_killed": "Monster killed in the game",
    "heroes_killed_by_others_occurrences":
        "Hero killed by a Divine Occurrence caused by a player other than yourself",
    "occurrences_used": "Divine Occurrence used in the game (by anyone, yourself included)",
    "occurrences_by_others": "Divine Occurrence caused by another player",
    "volcanoes_by_others": "Volcano caused by another player",
    "earthquakes_by_others": "Earthquake caused by another player",
    "tempests_by_others": "Tempest caused by another player",
    "prizes_on_board": "Prize still on the game board at the end of the game",
    "prizes_off_board": "Prize off the game board at the end of the game",
    "helpers_on_board": "Hero Helper on the game board at the end of the game",
    "helpers_off_board": "Hero Helper off the game board at the end of the game",
    "prizes_possessed": "Prize you possess",
    "helpers_possessed": "Hero Helper you possess",
    "turns_without_occurrence": "game Turn in which no Divine Occurrence took place",
    "prayers_by_others": "Prayer offered to Zeus by another player (302)",
    "sacrifices_by_others": "Sacrifice offered to Zeus by another player (302)",
}


@dataclass(frozen=True)
class FateEntry:
    """One line of the Special Victory Condition Chart.

    ``measure``: what is counted (a :data:`MEASURES` key), or :data:`REDRAW` for "Return and
    draw another Fate counter". ``halves``: Glory per item counted, in HALF points (2 = one
    point; counter 8's "1/2 Point" is 1).
    """

    fate: int
    measure: str
    halves: int = 0
    text: str = ""

    def __post_init__(self) -> None:
        if self.measure != REDRAW and self.measure not in MEASURES:
            raise ValueError(f"fate {self.fate}: unknown measure {self.measure!r}")
        if self.measure == REDRAW and self.halves:
            raise ValueError(f"fate {self.fate}: a redraw counter scores nothing")
        if self.measure != REDRAW and self.halves <= 0:
            raise ValueError(f"fate {self.fate}: {self.measure} needs a positive number of points")

    @property
    def redraw(self) -> bool:
        return self.measure == REDRAW


def _halves(fate: int, points: object) -> int:
    """``points`` (an integer, or a fraction string like ``"1/2"``) as a count of half points."""
    if isinstance(points, bool):
        raise ValueError(f"fate {fate}: points must be a number, got {points!r}")
    if isinstance(points, int):
        value = Fraction(points)
    elif isinstance(points, str):
        try:
            value = Fraction(points)
        except ValueError:
            raise ValueError(f"fate {fate}: points {points!r} is not a number") from None
    else:
        raise ValueError(f"fate {fate}: points must be an integer or a string like \"1/2\"")
    if (2 * value).denominator != 1:
        raise ValueError(f"fate {fate}: points {points!r} is not a whole number of half points")
    return int(2 * value)


def parse_chart(text: str) -> dict[int, FateEntry]:
    """The chart from the ``[[fate]]`` tables of ``fates.toml`` (see the module docstring)."""
    chart: dict[int, FateEntry] = {}
    for row in parse_toml(text).get("fate", []):  # kept between commands
        fate = row["id"]
        if fate in chart:
            raise ValueError(f"fate {fate} is listed twice")
        if row.get("redraw", False):
            if "points" in row or "measure" in row:
                raise ValueError(f"fate {fate}: a redraw counter has no points or measure")
            chart[fate] = FateEntry(fate, REDRAW, 0, row.get("text", ""))
        else:
            if "points" not in row or "measure" not in row:
                raise ValueError(f"fate {fate}: needs points and measure (or redraw = true)")
            chart[fate] = FateEntry(fate, row["measure"], _halves(fate, row["points"]),
                                    row.get("text", ""))
    return chart


@cache
def load_chart() -> dict[int, FateEntry]:
    """The Special Victory Condition Chart from the package's ``data/fates.toml``."""
    return parse_chart(CHART_FILE.read_text(encoding="utf-8"))


# --- 102 G: drawing and placing the Fate counters ----------------------------------------


@dataclass(frozen=True)
class FateDraw:
    """The set-up of the Fates.

    ``held``: each player's own counter (SECRET until the end of the game, 102 G 2: keep it out
    of the public state and view). ``track``: box number (1-14) -> the face-down counters in it
    (every box 1..14 is present, possibly empty; face down, so hidden until its Fate Phase).
    ``unused``: returned to the tray, face down for the whole game (hidden, like ``held``).
    ``events`` are public (they say only how many counters each box holds); ``private`` are per
    player (his own draws, including any he had to return).
    """

    held: dict[str, int]
    track: dict[int, list[int]]
    unused: list[int]
    events: list[Event]
    private: dict[str, list[Event]]


def draw_fates(players: Sequence[str], fate_ids: Sequence[int], chart: Mapping[int, FateEntry],
               stream: Stream, label: str) -> FateDraw:
    """102 G: each player in turn draws until he keeps one; the rest go on the track.

    Draws (from the SEALED stream): ``<label>/mix`` (the first mix), ``<label>/remix/<player>/<n>``
    (after the n-th counter that player returned), ``<label>/track`` (mixing what is left).
    The top of the face-down pile is the last item of the mixed list.
    """
    if len(set(players)) != len(players) or not players:
        raise ValueError(f"players must be distinct and at least one: {list(players)}")
    if len(set(fate_ids)) != len(fate_ids):
        raise ValueError("a Fate counter is listed twice")
    missing = [f for f in fate_ids if f not in chart]
    if missing:
        raise ValueError(f"Fate counters not on the chart: {missing}")
    keepers = [f for f in fate_ids if not chart[f].redraw]
    if len(keepers) < len(players):
        raise ValueError(f"{len(players)} players but only {len(keepers)} Fate counters that "
                         "a player may keep")
    pile = stream.shuffle(sorted(fate_ids), f"{label}/mix")
    held: dict[str, int] = {}
    private: dict[str, list[Event]] = {p: [] for p in players}
    for player in players:
        returned = 0
        while True:
            fate = pile.pop()
            entry = chart[fate]
            if not entry.redraw:
                break
            returned += 1
            printed = entry.text or "Return and draw another Fate counter."
            private[player].append({"type": "fate_returned", "fate": fate, "text":
                                    f'You drew Fate {fate} ("{printed}"): it goes back into the '
                                    "pile, which is mixed again, and you draw again (102 G)."})
            pile.append(fate)
            pile = stream.shuffle(pile, f"{label}/remix/{player}/{returned}")
        held[player] = fate
        printed = entry.text or f"per {MEASURES[entry.measure]}"
        private[player].append({"type": "fate_held", "fate": fate, "text":
                                f'You hold Fate {fate} ("{printed}"). Keep it secret until the '
                                "end of the game (102 G 2, 216 G 7)."})
    pile = stream.shuffle(sorted(pile), f"{label}/track")
    track: dict[int, list[int]] = {box: [] for box in range(LAST_BOX, FIRST_BOX + 1)}
    for box in range(FIRST_BOX, LAST_BOX - 1, -1):
        while pile and len(track[box]) < PER_BOX:
            track[box].append(pile.pop())
    unused = sorted(pile)
    placed = {box: len(track[box]) for box in track if track[box]}
    if placed:
        where = (f"{sum(placed.values())} were placed face down on the Turn Record Track, at "
                 f"most two per box, from Turn {FIRST_BOX} down to Turn {min(placed)} (102 G 1)")
    else:
        where = "none was left for the Turn Record Track"
    tray = f"; {len(unused)} went back to the tray unused" if unused else ""
    events: list[Event] = [{
        "type": "fates_drawn",
        "players": len(players),
        "placed": sum(placed.values()),
        "unused": len(unused),
        "text": f"Each of the {len(players)} players drew a secret Fate counter (102 G); "
                f"{where}{tray}.",
    }]
    for box in sorted(placed, reverse=True):
        events.append({"type": "fates_placed", "box": box, "count": placed[box],
                       "text": f"Turn {box}: {placed[box]} Fate counter"
                               f"{'s' if placed[box] != 1 else ''} face down."})
    return FateDraw(held, track, unused, events, private)


# --- 202 B 5, 213: the Fate Phase ------------------------------------------------------------


@dataclass(frozen=True)
class FatePhaseResult:
    """``revealed``: the counters of the box, in track order. ``removed``: Heroes taken off the
    board (213 E 1). ``born``: Hero -> hex where he enters (213 E 2). ``track``: the track
    without this box's counters."""

    revealed: list[int]
    removed: list[int]
    born: dict[int, str]
    track: dict[int, list[int]]
    events: list[Event]


def fate_phase(turn: int, track: Mapping[int, Sequence[int]], heroes_on_board: AbstractSet[int],
               free_greek_hexes: Sequence[str], greek_hexes: Sequence[str], stream: Stream,
               label: str) -> FatePhaseResult:
    """202 B 5, 213 C-E: reveal box ``turn`` and apply each Fate in track order.

    ``free_greek_hexes``: land hexes of Greece with no unit counter, in a fixed order (map
    order); ``greek_hexes``: all of Greece's hexes, used only when none is free. Draws
    ``<label>/<hero>`` from the stream for each Hero born (use the public stream).
    """
    revealed = list(track.get(turn, ()))
    rest = {box: list(fates) for box, fates in track.items() if box != turn}
    free = list(free_greek_hexes)
    removed: list[int] = []
    born: dict[int, str] = {}
    events: list[Event] = []
    if revealed:
        events.append({"type": "fates_revealed", "turn": turn, "fates": list(revealed),
                       "text": f"The Fates of Turn {turn}: "
                               f"{', '.join(str(f) for f in revealed)} (202 B 5, 213 C-D)."})
    for hero in revealed:
        if hero in heroes_on_board:
            removed.append(hero)
            events.append({"type": "fate_removed", "hero": hero, "rule": "213 E 1", "text":
                           f"Hero {hero} is on the board: the Fates decree his time has come; "
                           "he is removed from the game (213 E 1)."})
            continue
        if free:
            hex_id = stream.choice(free, f"{label}/{hero}")
            free.remove(hex_id)
            alone = "alone"
        else:
            if not greek_hexes:
                raise ValueError("213 E 2 needs the hexes of Greece")
            hex_id = stream.choice(list(greek_hexes), f"{label}/{hero}")
            alone = "stacked, as no hex of Greece is free"
        born[hero] = hex_id
        events.append({"type": "fate_born", "hero": hero, "hex": hex_id, "rule": "213 E 2",
                       "text": f"Hero {hero} is not on the board: the Fates decree he is born (or "
                               f"returns); he enters Greece in hex {hex_id}, {alone} (213 E 2)."})
    return FatePhaseResult(revealed, removed, born, rest, events)


# --- 216 G 7: the Special Victory Condition Chart -------------------------------------------


@dataclass(frozen=True)
class GameStats:
    """Every count the chart needs, kept by the rules code over the game (216 G 7).

    ``occurrences``: player -> occurrence code -> Divine Occurrences that player caused (only
    those that took place: plotted but impossible ones, 210 J, do not count).
    ``heroes_killed_by_occurrence``: causing player -> Heroes his occurrences killed.
    ``prizes_possessed`` / ``helpers_possessed``: player -> counters he possesses at the end:
    taken off the board by him (216 G 2 e) or with a Hero he Controls (the two cases 302 I a-b
    treat as a player's own). ``*_off_board``: Prizes / Helpers no longer on the board.
    ``turns_without_occurrence``: game Turns in which no Divine Occurrence took place.
    ``prayers`` / ``sacrifices``: player -> Prayers / Sacrifices he offered (Optional 302).
    """

    heroes_on_board: int = 0
    heroes_killed_in_combat: int = 0
    monsters_on_board: int = 0
    monsters_killed: int = 0
    occurrences: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    heroes_killed_by_occurrence: Mapping[str, int] = field(default_factory=dict)
    prizes_on_board: int = 0
    prizes_off_board: int = 0
    helpers_on_board: int = 0
    helpers_off_board: int = 0
    prizes_possessed: Mapping[str, int] = field(default_factory=dict)
    helpers_possessed: Mapping[str, int] = field(default_factory=dict)
    turns_without_occurrence: int = 0
    prayers: Mapping[str, int] = field(default_factory=dict)
    sacrifices: Mapping[str, int] = field(default_factory=dict)

    def occurrence_count(self, code: str = "", *, except_player: str = "") -> int:
        """Occurrences of ``code`` ("" = any), by everyone but ``except_player`` ("" = no one)."""
        return sum(n for player, by_code in self.occurrences.items() if player != except_player
                   for c, n in by_code.items() if not code or c == code)


def _others(counts: Mapping[str, int], player: str) -> int:
    return sum(n for p, n in counts.items() if p != player)


_COUNTERS: dict[str, Callable[[GameStats, str], int]] = {
    "heroes_on_board": lambda s, p: s.heroes_on_board,
    "heroes_killed_in_combat": lambda s, p: s.heroes_killed_in_combat,
    "monsters_on_board": lambda s, p: s.monsters_on_board,
    "monsters_killed": lambda s, p: s.monsters_killed,
    "heroes_killed_by_others_occurrences": lambda s, p: _others(s.heroes_killed_by_occurrence, p),
    "occurrences_used": lambda s, p: s.occurrence_count(),
    "occurrences_by_others": lambda s, p: s.occurrence_count(except_player=p),
    "volcanoes_by_others": lambda s, p: s.occurrence_count("V", except_player=p),
    "earthquakes_by_others": lambda s, p: s.occurrence_count("E", except_player=p),
    "tempests_by_others": lambda s, p: s.occurrence_count("T", except_player=p),
    "prizes_on_board": lambda s, p: s.prizes_on_board,
    "prizes_off_board": lambda s, p: s.prizes_off_board,
    "helpers_on_board": lambda s, p: s.helpers_on_board,
    "helpers_off_board": lambda s, p: s.helpers_off_board,
    "prizes_possessed": lambda s, p: s.prizes_possessed.get(p, 0),
    "helpers_possessed": lambda s, p: s.helpers_possessed.get(p, 0),
    "turns_without_occurrence": lambda s, p: s.turns_without_occurrence,
    "prayers_by_others": lambda s, p: _others(s.prayers, p),
    "sacrifices_by_others": lambda s, p: _others(s.sacrifices, p),
}


def _show_halves(halves: int) -> str:
    whole, half = divmod(halves, 2)
    return f"{whole} 1/2" if half and whole else "1/2" if half else str(whole)


def special_victory(entry: FateEntry, stats: GameStats, player: str) -> tuple[int, str]:
    """216 G 7: the Glory ``player`` earns with Fate ``entry``, in HALF points, and why.

    Returns ``(halves, explanation)``; add ``halves`` to the player's Glory with
    :func:`final_glory`, which rounds once, at the end.
    """
    if entry.redraw:
        raise ValueError(f"Fate {entry.fate} is returned at set-up (102 G); no player holds it")
    count = _COUNTERS[entry.measure](stats, player)
    halves = count * entry.halves
    per = _show_halves(entry.halves)
    return halves, (f"Fate {entry.fate} (216 G 7): {per} per {MEASURES[entry.measure]}; "
                    f"{count} x {per} = {_show_halves(halves)} Glory.")


def final_glory(whole: int, halves: int) -> int:
    """The final Glory: whole points plus the chart's half points, an odd half dropped.

    Glory is recorded in whole points (216 C-E); ``halves // 2`` drops an unpaired half point
    (like the remainder of 216 G 1). ``halves`` from the chart is never negative.
    """
    if halves < 0:
        raise ValueError(f"chart half points are never negative, got {halves}")
    return whole + halves // 2

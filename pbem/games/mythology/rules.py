"""Mythology's Advanced Game (200-216) as a sequence of PBEM phases.

A game Turn (202 B) becomes:

1. ``tNN.logsheet``: everyone at once, sealed until the end of the game (009 C). It carries the
   Log Sheet (202 B 1), the card placed face down (202 B 2), an optional standing Area for the
   god (203) and standing challenge orders (209), because nothing is revealed between them.
   With Optional Rule 301, ``tNN.zeus`` follows: the Zeus player's sealed decree (see
   :mod:`zeus`); a god struck by his Lightning Bolt has no phase of his own in that Turn.
2. ``tNN.place.<player>``: God Placement (202 B 3, 203), one player at a time in roll order,
   each seeing the gods already placed; skipped for a player whose Log Sheet named an Area.
3. ``tNN.move.<player>``: one Moving Player Phase (202 B 4, 204-215) per player in roll order.
4. ``tNN.fate``: automatic: Plague (210 G 4), the Fates (213), the Turn Record (202 B 6).

Every adaptation is listed in docs/games/mythology.md with its rule number.
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import put_sorted, setdefault_sorted, sorted_tree
from pbem.games.mythology import control, logsheet, prayer, zeus
from pbem.games.mythology import setup as setup_mod
from pbem.games.mythology.components import HERO_IDS, MONSTER_IDS, Components, HexMap

State = dict[str, Any]
Event = dict[str, Any]
LAST_TURN = 15          # 216 B
MAX_ATTEMPTS = 5        # 204 A, 209 A
HERCULES_NAME = "Hercules"
GREECE = setup_mod.GREECE
SEA_KINDS = ("sea", "ocean")   # The Sea and the River Ocean (303 M)


def hercules_id(c: Components) -> int:
    return next(h for h, x in c.heroes.items() if x.name == HERCULES_NAME)


class Board:
    """The map as :mod:`movement` sees it."""

    def __init__(self, c: Components) -> None:
        self.m = c.map

    def has_hex(self, hex_id: str) -> bool:
        return hex_id in self.m.hexes

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        return self.m.neighbours(hex_id)

    def is_land(self, hex_id: str) -> bool:
        return self.m.is_land(hex_id)

    def crosses_shoreline(self, a: str, b: str) -> bool:
        return self.m.crosses_water(a, b)

    def is_river(self, hex_id: str) -> bool:
        return self.m.is_river(hex_id)

    def is_shoreline(self, hex_id: str) -> bool:
        return self.m.is_shoreline(hex_id)


# --- small helpers over the state ------------------------------------------------------------


def sheet(state: State, player: str, turn: int | None = None) -> logsheet.LogSheet:
    """``player``'s Log Sheet line of ``turn`` (default: this turn), read from the state.

    A line is written once a Turn and read thousands of times (every Monster total, every
    move's review): the parsed line is kept by its marshal bytes, which name its content
    exactly (the same bytes, the same line), so a line changed in the state is parsed anew.
    A LogSheet is frozen and no caller changes its tables."""
    data = state["logsheets"][player].get(str(turn or state["turn"]))
    if not data:
        return logsheet.LogSheet()
    key = marshal.dumps(data)
    found = _SHEETS.get(key)
    if found is None:
        if len(_SHEETS) >= 4096:
            _SHEETS.clear()
        found = _SHEETS[key] = logsheet.LogSheet.from_dict(data)
    return found


#: Parsed Log Sheet lines by the marshal bytes of their state data (see :func:`sheet`).
_SHEETS: dict[bytes, logsheet.LogSheet] = {}


def hero_points(state: State, hero: int) -> dict[str, int]:
    """208 I: each player's current total on a Hero."""
    return {p: state["hero_totals"][p].get(str(hero), 0) for p in state["seats"]}


def monster_points(state: State, monster: int) -> dict[str, int]:
    """208 J: what each player spent on a Monster this turn only."""
    return {p: sheet(state, p).monsters.get(monster, 0) for p in state["seats"]}


def kind_of(unit: int) -> str:
    """"hero" (1-32), "monster" (33-64) or "lesser" (a Lesser Evil counter, 65 on, 303)."""
    return "hero" if unit in HERO_IDS else "monster" if unit in MONSTER_IDS else "lesser"


def lesser_on(state: State) -> bool:
    """Optional Rule 303 is in play (``--option lesser_evil=on``)."""
    return bool(state.get("options", {}).get("lesser_evil") == "on")


def points_on(state: State, unit: int) -> dict[str, int]:
    kind = kind_of(unit)
    if kind == "lesser":
        return dict.fromkeys(state["seats"], 0)  # 303 I: never Controlled
    return hero_points(state, unit) if kind == "hero" else monster_points(state, unit)


def _table(state: State, unit: int) -> dict[str, Any]:
    kind = kind_of(unit)
    table: dict[str, Any] = (state["heroes"] if kind == "hero" else state["monsters"]
                             if kind == "monster" else state.get("lesser", {}))
    return table


def unit_hex(state: State, unit: int) -> str:
    entry = _table(state, unit).get(str(unit))
    return str(entry["hex"]) if entry and entry["status"] == "board" else ""


def partly_sea(board: HexMap, hex_id: str) -> bool:
    """303 M: the hex is all or partially The Sea or the River Ocean: a hex of those Areas
    (water, or an island in them), or a coastal hex with such a hex across its shoreline."""
    if board.areas[board.area_of(hex_id)].kind in SEA_KINDS:
        return True
    return board.is_shoreline(hex_id) and any(
        board.areas[board.area_of(n)].kind in SEA_KINDS for n in board.neighbours(hex_id))


def lesser_in_area(state: State, board: HexMap, area: str) -> list[int]:
    """303 E: the Lesser Evil counters on the board in ``area`` now."""
    return sorted(int(u) for u, x in state.get("lesser", {}).items()
                  if x["status"] == "board" and area and board.area_of(x["hex"]) == area)


def helpers_of(state: State, hero: int) -> list[str]:
    return sorted(h for h, x in state["helpers"].items() if x["holder"] == hero)


def prizes_of(state: State, hero: int) -> list[str]:
    return sorted(p for p, x in state["prizes"].items() if x["holder"] == hero)


def occupants(state: State, hex_id: str) -> list[int]:
    """The Heroes, Monsters and Lesser Evil counters (303) in ``hex_id``."""
    return ([int(h) for h, x in state["heroes"].items() if x["status"] == "board"
             and x["hex"] == hex_id] +
            [int(m) for m, x in state["monsters"].items() if x["status"] == "board"
             and x["hex"] == hex_id] +
            [int(m) for m, x in state.get("lesser", {}).items() if x["status"] == "board"
             and x["hex"] == hex_id])


def clockwise_from(seats: Sequence[str], first: str) -> list[str]:
    i = list(seats).index(first)
    return list(seats[i:]) + list(seats[:i])


def roll_order(seats: Sequence[str], stream: Stream, label: str) -> tuple[list[str], list[Event]]:
    """202 B 3-4: everyone rolls red and white (a two-digit number); the highest goes first and
    the others follow clockwise. Equal highest rolls roll again among themselves."""
    events: list[Event] = []
    contenders, k = list(seats), 0
    while True:
        rolls = {p: stream.two_digit(f"{label}/{p}/r{k}") for p in contenders}
        for p in contenders:
            events.append({"type": "roll", "player": p, "roll": rolls[p],
                           "text": f"{p} rolls {rolls[p]}."})
        top = max(rolls.values())
        contenders = [p for p in contenders if rolls[p] == top]
        if len(contenders) == 1:
            break
        k += 1
    order = clockwise_from(seats, contenders[0])
    events.append({"type": "order", "order": order,
                   "text": "Order: " + ", ".join(order) + "."})
    return order, events


# --- the phases ---------------------------------------------------------------------------------


def resolve_logsheets(c: Components, state: State, sheets: Mapping[str, logsheet.LogSheet],
                      rng: Rng) -> tuple[list[Event], dict[str, list[Event]]]:
    """202 B 1-3: record the Log Sheets, place face-down cards, roll for God Placement."""
    turn = state["turn"]
    events: list[Event] = []
    private: dict[str, list[Event]] = {}
    for p in state["seats"]:
        s = sheets[p]
        put_sorted(state["logsheets"][p], str(turn), sorted_tree(s.as_dict()))
        previous = {int(h): t for h, t in state["hero_totals"][p].items()}
        state["hero_totals"][p] = dict(sorted(  # 208 I; keys sorted as text, as in the JSON
            (str(h), t) for h, t in control.hero_totals(previous, s.heroes).items()))
        private[p] = [{"type": "logsheet", "turn": turn, "power_points": s.power_points,
                       "text": f"Your Log Sheet for Turn {turn} is recorded "
                       f"({s.power_points} Power Points)."}]
        if s.offers:  # 302 C: written on the Log Sheet, the Glory is lost at once
            put_sorted(setdefault_sorted(state, "offers", {}), p,
                       [sorted_tree(o.as_dict()) for o in s.offers])
            events += prayer.pay(state, p, list(s.offers))
        if zeus.on(state):  # 301 C c: that Glory, and any bribe, goes to Zeus
            events += zeus.tribute(state, p, sum(o.glory for o in s.offers), s.bribe)
        if s.card:  # 202 B 2, 010 E 1
            state["hands"][p].remove(s.card)
            state["facedown"][p] = s.card
            events.append({"type": "card-face-down", "player": p,
                           "text": f"{p} places a card face down (202 B 2)."})
    if zeus.on(state):  # 301: Zeus's decree comes before God Placement
        state["order"], state["cursor"], state["step"] = [], 0, "zeus"
        return events, private
    return events + start_placement(state, rng), private


def start_placement(state: State, rng: Rng) -> list[Event]:
    """202 B 3: roll for the order of God Placement, among the gods who take part in the
    Turn (301 C 4 b: not a god struck by Zeus's Lightning Bolt)."""
    order, events = roll_order(zeus.active(state), rng.public, f"t{state['turn']:02d}/place")
    state["order"], state["cursor"], state["step"] = order, 0, "place"
    events += advance_placement(state)
    return events


def advance_placement(state: State) -> list[Event]:
    """Place every god whose player named a standing Area, until one must choose (203)."""
    events: list[Event] = []
    while state["step"] == "place" and state["cursor"] < len(state["order"]):
        p = state["order"][state["cursor"]]
        area = sheet(state, p).area
        if not area:
            return events
        events += place_god(state, p, area, standing=True)
    return events


def place_god(state: State, player: str, area: str, *, standing: bool = False) -> list[Event]:
    state["god_area"][player] = area
    state["cursor"] += 1
    how = " (standing order)" if standing else ""
    return [{"type": "god-placed", "player": player, "area": area,
             "text": f"{player} places their god in {area}{how} (203)."}]


def start_movement(state: State, rng: Rng) -> list[Event]:
    """202 B 4: roll again for the order of the Moving Players (301 C 4 b: a god struck by
    Zeus's Lightning Bolt has no Moving Player Phase)."""
    order, events = roll_order(zeus.active(state), rng.public, f"t{state['turn']:02d}/move")
    state["order"], state["cursor"], state["step"] = order, 0, "move"
    state["phase_units"] = {}
    return events


def logsheet_lines(state: State, player: str) -> list[dict[str, Any]]:
    """The player's Log Sheet as the paper sheet has it (006 C, 009 D-E): per turn, the C and
    T lines of each Hero and the other entries with their codes."""
    # Every report of every record shows it: computed once per distinct sheet, a fresh copy
    # each time (callers own what they get). marshal is only the cache key and the copy: a
    # value always marshals to bytes that load back to an equal value.
    lines: list[dict[str, Any]] = marshal.loads(
        _logsheet_lines(marshal.dumps(state["logsheets"][player])))
    return lines


@lru_cache(maxsize=256)
def _logsheet_lines(sheets_key: bytes) -> bytes:
    sheets = marshal.loads(sheets_key)
    lines: list[dict[str, Any]] = []
    totals: dict[int, int] = {}
    for turn in sorted(sheets, key=int):
        s = logsheet.LogSheet.from_dict(sheets[turn])
        lines.append(logsheet.notation(int(turn), s, totals))
        totals = control.hero_totals(totals, s.heroes)
    # Through JSON once, so the lines are the plain data a stored view would hold.
    return marshal.dumps(json.loads(json.dumps(lines)))


def control_of(state: State, unit: int) -> str | None:
    """208 H: who has spent the most on ``unit`` now (None: nobody, or a tie)."""
    return control.controller(points_on(state, unit))


def view(state: State, player: str | None) -> dict[str, Any]:
    """What ``player`` may know (None: the public). Positions, Glory and god Areas are on the
    table for everyone; hands, Fate counters and Log Sheets only for their owner until the end
    (009 C, 102 G 2)."""
    over = state["step"] == "over"
    v: dict[str, Any] = {
        "turn": min(state["turn"], LAST_TURN), "step": state["step"], "seats": state["seats"],
        "gods": state["gods"], "glory": state["glory"], "god_area": state["god_area"],
        "order": state["order"], "cursor": state["cursor"],
        "heroes": state["heroes"], "monsters": state["monsters"], "prizes": state["prizes"],
        "helpers": state["helpers"], "ships": state["ships"], "remorse": state["remorse"],
        "facedown": {p: bool(c) for p, c in state["facedown"].items()},
        "hand_sizes": {p: len(h) for p, h in state["hands"].items()},
        "deck_size": len(state["deck"]), "discard_size": len(state["discard"]),
        "fate_track": {t: len(f) for t, f in state["fate_track"].items()},
        "pestilence": state["turn_effects"].get("pestilence", []),
        "famine": state["turn_effects"].get("famine", []),
        "game_over": over, "options": state.get("options", {}),
    }
    book = state["turn_effects"].get("cards", {})
    for key, found in (("no_attack", state["turn_effects"].get("no_attack", [])),  # 302 G
                       ("halted", book.get("halt", [])), ("closed", book.get("terrain", []))):
        if found:  # public events of this Turn (prayers, cards, powers), kept for the bots
            v[key] = found
    if "lesser" in state:  # 303: face up on the board, public
        v["lesser"] = state["lesser"]
    if zeus.on(state):  # 301: who Zeus is, the gods he struck, the Glory given to him
        v["zeus"] = zeus.public_view(state)
    if over:
        v["logsheets"] = state["logsheets"]
        v["fate_held"] = state["fate_held"]
        v["logsheet_lines"] = {p: logsheet_lines(state, p) for p in state["seats"]}
        if zeus.on(state):
            v["zeus_decrees"] = state["zeus"]["decrees"]  # revealed with the Log Sheets
    elif player is not None and player == zeus.player(state):
        v.update(zeus.private_view(state))
    elif player is not None:
        v["my_logsheet_lines"] = logsheet_lines(state, player)
        v["hand"] = state["hands"][player]
        v["facedown_card"] = state["facedown"][player]
        if player in book.get("played", []):  # 010 F: no other card this Turn
            v["card_played"] = True
        # 011 C: a power used earlier this Turn is gone (each use was a public event); the
        # move form offers only the others (issue 14: examples legal now).
        v["powers_used"] = list(book.get("powers", {}).get(player, []))
        v["fate"] = state["fate_held"][player]
        v["my_logsheets"] = state["logsheets"][player]
        v["my_hero_totals"] = state["hero_totals"][player]
    return v

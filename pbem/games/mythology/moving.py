"""One Moving Player Phase (202 B 4): attempts, challenges, movement, ships, combat, prizes.

The Moving Player's order lists, in order: Divine Occurrences to activate (210 D), up to five
attempts (204 A, 209 A), with Optional Rule 303 the moves of the Lesser Evil counters in the
god's Area (``[[orders.lesser]]``, 303 D-F), combats declared after all movement (205 H), and
Prize captures after all combat (212 D 2). Challenges by the other players come from the
standing orders of their sealed Log Sheets (209, see :mod:`logsheet`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem
from pbem.core.ruleset import copy_state, put_sorted, setdefault_sorted
from pbem.games.mythology import cards, combat, control, movement, names, occurrences, zeus
from pbem.games.mythology.components import HERO_IDS, MONSTER_IDS, Components
from pbem.games.mythology.rules import (
    GREECE,
    Board,
    State,
    clockwise_from,
    helpers_of,
    hercules_id,
    kind_of,
    lesser_in_area,
    lesser_on,
    occupants,
    partly_sea,
    points_on,
    prizes_of,
    sheet,
    unit_hex,
)

Event = dict[str, Any]
KEYS = ("card", "power", "activate", "attempt", "combat", "capture")
LESSER_KEY = "lesser"   # Optional Rule 303 only
LESSER_MOVE = 2         # 303 D: two hexes in one Moving Player Phase


@dataclass(frozen=True)
class Attempt:
    unit: int
    bid: int
    path: tuple[str, ...]
    ship: str           # "", "start" or "end" (215 F 1: begin or end its movement on a shoreline)
    leave_ship: bool    # 215 G-H
    drop: tuple[str, ...]  # 211 G
    where: str = field(default="", compare=False)  # the order, as the player sees it


@dataclass(frozen=True)
class CombatOrder:
    attacker: int
    defender: int
    magic: bool
    where: str = field(default="", compare=False)  # the order, as the player sees it


@dataclass(frozen=True)
class Capture:
    hero: int
    remove: bool        # 216 G 2 e
    where: str = field(default="", compare=False)  # the order, as the player sees it


@dataclass(frozen=True)
class Activation:
    code: str
    hex: str
    area: str = ""      # an Area next to the god's, for a god whose power reaches it (210 I)
    where: str = field(default="", compare=False)  # the order, as the player sees it


@dataclass(frozen=True)
class Play:
    """A card section or a god power used at the start of the phase (010 E 2, 011 E)."""

    what: str           # "god", "event" (the face-down card) or "power:<id>"
    unit: int = 0
    area: str = ""
    gods: tuple[str, ...] = ()
    where: str = field(default="", compare=False)  # the order, as the player sees it


@dataclass(frozen=True)
class LesserMove:
    """303 D-E: a Lesser Evil counter in the god's Area moved up to two hexes, free."""

    unit: int
    path: tuple[str, ...]
    where: str = field(default="", compare=False)  # the order, as the player sees it


@dataclass(frozen=True)
class MoveOrders:
    plays: tuple[Play, ...] = ()
    activate: tuple[Activation, ...] = ()
    attempts: tuple[Attempt, ...] = ()
    combats: tuple[CombatOrder, ...] = ()
    captures: tuple[Capture, ...] = ()
    lesser: tuple[LesserMove, ...] = ()


_int = names.is_int


def _lesser_ids(c: Components) -> str:
    return f"{min(c.lesser)}-{max(c.lesser)}"


def _flag(t: Mapping[str, Any], key: str, where: str, problems: list[Problem]) -> bool:
    """A true/false key of a table (absent: false)."""
    value = t.get(key, False)
    if not isinstance(value, bool):
        problems.append(Problem(f"{where} {key}", "must be true or false",
                                f"write {key} = true or leave the line out"))
        return False
    return value


def _path(raw: Any, where: str, problems: list[Problem]) -> tuple[str, ...] | None:
    """A list of hex numbers; a TOML integer is read as the hex it names (3011 is "3011")."""
    if not isinstance(raw, list):
        problems.append(Problem(f"{where} path", "must be a list of hex numbers",
                                'write path = ["3011", "2911"]'))
        return None
    out = []
    for step, value in enumerate(raw, start=1):
        hex_id = names.hex_id(value)
        if hex_id is None:
            problems.append(Problem(f"{where} path", f"step {step}: {names.shown(value)} is not a "
                                    "hex number", 'hex numbers are strings such as "3011"'))
            return None
        out.append(hex_id)
    return tuple(out)


def parse(c: Components, orders: Mapping[str, Any], *, lesser: bool = False,
          powers: Sequence[str] = ()) -> tuple[MoveOrders, list[Problem]]:
    """The shape of a Moving Player's order; all problems at once. ``lesser``: Optional Rule
    303 is in play, so ``[[orders.lesser]]`` and Lesser Evil units in combats are known;
    ``powers``: the ids of the Moving Player's god's powers (011), matched whatever their case.
    Names are read here, once, for :func:`validate` and :func:`resolve` alike (see
    :mod:`names`)."""
    problems: list[Problem] = []
    keys = (*KEYS, LESSER_KEY) if lesser else KEYS
    for key in orders:
        if key == LESSER_KEY and not lesser:
            problems.append(Problem("[[orders.lesser]]", "this game has no Lesser Evil "
                                    "counters (Optional Rule 303 is off)",
                                    "remove it; 303 needs --option lesser_evil=on"))
        elif key not in keys:
            problems.append(Problem(f"[orders] {names.shown(key)}", "unknown order",
                                    "a Moving Player's order has " + ", ".join(keys)))
    units = set(range(1, 65)) | (set(c.lesser) if lesser else set())

    def tables(key: str, allowed: set[str]) -> list[tuple[str, dict[str, Any]]]:
        raw = orders.get(key, [])
        if not isinstance(raw, list):
            problems.append(Problem(f"[[orders.{key}]]", "must be a list of tables",
                                    f"write each as [[orders.{key}]]"))
            return []
        out = []
        for i, t in enumerate(raw):
            where = f"[[orders.{key}]] #{i + 1}"
            if not isinstance(t, dict):
                problems.append(Problem(where, "must be a table"))
                continue
            for k in t:
                if k not in allowed:
                    problems.append(Problem(f"{where} {names.shown(k)}", "unknown key",
                                            "keys: " + ", ".join(sorted(allowed))))
            out.append((where, t))
        return out

    def play_parts(t: Mapping[str, Any], where: str) -> tuple[int, str] | None:
        """The unit and Area a card section or a power acts on (0 and "": none)."""
        unit, area = t.get("unit", 0), t.get("area", "")
        ok = True
        if not (_int(unit) and (unit == 0 or unit in units)):
            problems.append(Problem(f"{where} unit", f"{names.shown(unit)} is not a unit number",
                                    "Heroes 1-32, Monsters 33-64; 0 or no line for none"))
            ok = False
        found = "" if area == "" else names.area_id(c, area)
        if found is None:
            problems.append(Problem(f"{where} area", f"{names.shown(area)} is not an Area of the "
                                    "map", "one of " + ", ".join(sorted(c.map.areas))))
            ok = False
        return (unit, found or "") if ok else None

    plays: list[Play] = []
    card = orders.get("card")
    if card is not None:
        where = "[orders.card]"
        if not isinstance(card, dict):
            problems.append(Problem(where, 'takes section ("god" or "event"), and unit, area '
                                    "or gods as the card needs", "010 B, E 2"))
        else:
            for k in sorted(set(card) - {"section", "unit", "area", "gods"}):
                problems.append(Problem(f"{where} {names.shown(k)}", "unknown key",
                                        "keys: area, gods, section, unit"))
            section = names.choice(card.get("section"), ("god", "event"))
            if section is None:
                problems.append(Problem(f"{where} section", f"{names.shown(card.get('section'))} "
                                        'is neither "god" nor "event"', "010 B 1-2"))
            parts = play_parts(card, where)
            raw_gods = card.get("gods", [])
            gods: list[str] = []
            if not isinstance(raw_gods, list):
                problems.append(Problem(f"{where} gods", "must be a list of gods",
                                        'write gods = ["hera", "ares"]'))
            else:
                for g in raw_gods:
                    found = names.god_id(c, g)
                    if found is None:
                        problems.append(Problem(f"{where} gods", f"{names.shown(g)} is not a god",
                                                "one of " + ", ".join(sorted(c.gods))))
                    elif found in gods:
                        problems.append(Problem(f"{where} gods", f"{found} is named twice"))
                    else:
                        gods.append(found)
            if section is not None and parts is not None and len(gods) == len(raw_gods or []):
                plays.append(Play(section, parts[0], parts[1], tuple(gods), where))
    for where, t in tables("power", {"id", "unit", "area"}):
        pid = t.get("id")
        found_pid = names.choice(pid, powers) if powers else (pid if isinstance(pid, str)
                                                             else None)
        parts = play_parts(t, where)
        if found_pid is None:
            problems.append(Problem(f"{where} id", f"{names.shown(pid)} is not a power of your god "
                                    "(011)", ", ".join(powers)))
        elif parts is not None:
            plays.append(Play(f"power:{found_pid}", parts[0], parts[1], where=where))
    acts = []
    for where, t in tables("activate", {"code", "hex", "area"}):
        code = names.occurrence_code(t.get("code"))
        if code is None:
            problems.append(Problem(f"{where} code", f"{names.shown(t.get('code'))} is not a "
                                    "Divine Occurrence code", "E, T, V, P, Pe or F (009 E 2)"))
            continue
        raw_hex = t.get("hex", "")
        hex_id = "" if raw_hex == "" else names.hex_id(raw_hex)
        if code == "V" and (not hex_id or hex_id not in c.map.hexes):
            problems.append(Problem(f"{where} hex", f"a Volcano needs the hex it strikes "
                                    f"(210 G 3); {names.shown(raw_hex)} is no hex of the map",
                                    'write hex = "3111"'))
            continue
        if hex_id is None or (hex_id and hex_id not in c.map.hexes):
            problems.append(Problem(f"{where} hex", f"there is no hex {names.shown(raw_hex)} on "
                                    "the map", 'only a Volcano (V) takes a hex; write hex = ""'))
            continue
        raw_area = t.get("area", "")
        area = "" if raw_area == "" else names.area_id(c, raw_area)
        if area is None:
            problems.append(Problem(f"{where} area", f"{names.shown(raw_area)} is not an Area of "
                                    "the map", "one of " + ", ".join(sorted(c.map.areas))))
            continue
        acts.append(Activation(code, hex_id, area, where))
    attempts = []
    for where, t in tables("attempt", {"unit", "bid", "path", "ship", "leave_ship", "drop"}):
        unit, bid = t.get("unit"), t.get("bid", 0)
        if not _int(unit) or (unit not in HERO_IDS and unit not in MONSTER_IDS):
            hint = ("a Lesser Evil counter moves with [[orders.lesser]] (303 E)"
                    if lesser and _int(unit) and unit in c.lesser
                    else "only Heroes and Monsters move (204 B)")
            problems.append(Problem(f"{where} unit", "must be a Hero (1-32) or Monster (33-64)",
                                    hint))
            continue
        if not _int(bid) or bid < 0:
            problems.append(Problem(f"{where} bid", "must be a whole number, 0 or more",
                                    "the most you announce if challenged (209 D 1)"))
            continue
        path = _path(t.get("path", []), where, problems)
        if path is None:
            continue
        ship = names.choice(t.get("ship", ""), ("", "start", "end"))
        if ship is None:
            problems.append(Problem(f"{where} ship", 'must be "", "start" or "end"',
                                    "when to try for a ship (215 F)"))
            continue
        raw_drop = t.get("drop", [])
        drop = ([names.item_id(c, d) for d in raw_drop] if isinstance(raw_drop, list)
                else [None])
        if any(d is None for d in drop):
            problems.append(Problem(f"{where} drop", "must list Hero Helper or Prize ids",
                                    "ids as in your report (211 G, 212 G)"))
            continue
        leave = _flag(t, "leave_ship", where, problems)
        attempts.append(Attempt(unit, bid, path, ship, leave,
                                tuple(d for d in drop if d is not None), where))
    moves = []
    if lesser:
        for where, t in tables(LESSER_KEY, {"unit", "path"}):
            unit = t.get("unit")
            if not _int(unit) or unit not in c.lesser:
                problems.append(Problem(f"{where} unit", "must be a Lesser Evil counter "
                                        f"({_lesser_ids(c)})", "Heroes and Monsters move "
                                        "with [[orders.attempt]] (204, 303 E)"))
                continue
            path = _path(t.get("path", []), where, problems)
            if path is not None:
                moves.append(LesserMove(unit, path, where))
    combats = []
    for where, t in tables("combat", {"attacker", "defender", "magic"}):
        a, d = t.get("attacker"), t.get("defender")
        magic = _flag(t, "magic", where, problems)
        if not (_int(a) and _int(d) and a in units and d in units):
            problems.append(Problem(where, "attacker and defender must be unit numbers",
                                    "Heroes 1-32, Monsters 33-64" + (
                                        f", Lesser Evil counters {_lesser_ids(c)}"
                                        if lesser else "")))
        elif a == d:
            problems.append(Problem(where, "a unit cannot fight itself (205 A)"))
        elif kind_of(a) == kind_of(d) == "monster":
            problems.append(Problem(where, "Monsters may not fight Monsters (205 C)"))
        elif kind_of(a) == kind_of(d) == "lesser":
            problems.append(Problem(where, "Lesser Evil counters have Combat like Monsters, "
                                    "never with each other (303 H, 205 C)"))
        elif kind_of(a) != "hero" and kind_of(d) != "hero":
            problems.append(Problem(where, "Lesser Evil counters and Monsters never attack "
                                    "each other (303 L)"))
        else:
            combats.append(CombatOrder(a, d, magic, where))
    captures = []
    for where, t in tables("capture", {"hero", "remove"}):
        h = t.get("hero")
        remove = _flag(t, "remove", where, problems)
        if not _int(h) or h not in HERO_IDS:
            problems.append(Problem(f"{where} hero", "only Heroes capture Prizes (212 B)",
                                    "a Hero number, 1-32"))
        else:
            captures.append(Capture(h, remove, where))
    return MoveOrders(tuple(plays), tuple(acts), tuple(attempts), tuple(combats),
                      tuple(captures), tuple(moves)), problems


def lesser_path_problems(c: Components, unit: int, start: str, path: tuple[str, ...] | list[str],
                         where: str) -> list[Problem]:
    """303 D, M (H: otherwise like a Monster, 204 D-F): two hexes at most, each next to the
    last; a Pirate only in hexes all or partly of The Sea or the River Ocean, the others only
    in hexes holding land. Stepping across a shoreline is allowed, as for a Monster."""
    board, pirate = c.map, c.lesser[unit].pirate
    problems: list[Problem] = []
    if len(path) > LESSER_MOVE:
        problems.append(Problem(where, f"moves {len(path)} hexes; a Lesser Evil counter moves "
                                f"{LESSER_MOVE} (303 D)", f"give at most {LESSER_MOVE} hexes"))
    here = start
    for step, hex_id in enumerate(path, start=1):
        at = f"{where} step {step} ({hex_id})"
        wrong = movement.step_problem(Board(c), here, hex_id, at)
        if wrong is not None:
            problems.append(wrong)
            break
        if pirate and not partly_sea(board, hex_id):
            problems.append(Problem(at, f"{hex_id} is neither The Sea nor the River Ocean, "
                                    "nor on their shore: a Pirate stays at sea (303 M)"))
        elif not pirate and not board.is_land(hex_id):
            problems.append(Problem(at, f"{hex_id} is all water: only Pirates go there "
                                    "(303 M)", "keep to hexes with land"))
        here = hex_id
    return problems


def closed_hexes(c: Components, terrain: Sequence[Mapping[str, str]],
                 path: Sequence[str]) -> list[str]:
    """The hexes of ``path`` that the terrain powers played this Turn (``terrain``: the
    ``{area, feature}`` rules, as the state and the public view keep them) close to Heroes
    (011), rule by rule."""
    tests = {"forest": c.map.is_forest, "mountain": c.map.is_mountain, "river": c.map.is_river}
    return [h for rule in terrain for h in path if h in c.map.hexes
            and c.map.area_of(h) == rule["area"] and tests[rule["feature"]](h)]


def validate(c: Components, state: State, player: str, orders: Mapping[str, Any]) -> list[Problem]:
    """Every problem that the state decides at submit (issue 12 §1): the shape, then the
    phase walked through as ordered, in the order :func:`resolve` runs it: the cards and
    powers played (on a copy of the state: they are certain), the Divine Occurrences (210
    I-J), each attempt's unit, path, ship and drops (204, 211, 215), the Lesser Evil moves
    (303), the combats between the units where the moves leave them (205, 208 E, 214, 215 C,
    302 G) and the captures (212). What only the dice or the other gods' sealed orders decide
    is left to :func:`provisional`.

    A problem of the position whose order resolution skips safely, saying so, is marked
    :attr:`~pbem.core.errors.Problem.foreseen` (see :func:`_foreseen`): refused here at
    submit, tolerated when the engine adjudicates or audits an order an older pbem accepted.
    The shape, type and name problems of :func:`parse` never are."""
    return review(c, state, player, orders)[0]


def provisional(c: Components, state: State, player: str,
                orders: Mapping[str, Any]) -> list[Problem]:
    """The orders :func:`validate` accepted that may still be skipped when the phase runs,
    each with what it depends on: a challenge (209), an interception (205 I), a ship roll
    (215 F 2), a Divine Occurrence activated first (210), a Lightning Bolt (301 C 4 a), a
    god's standing card or power (010 E 2, 011 E), the Control totals of the other gods
    (208 H), or an earlier combat or capture of the same order."""
    return review(c, state, player, orders)[1]


def _foreseen(where: str, message: str, hint: str = "") -> Problem:
    """A problem of the position whose order :func:`resolve` skips safely, saying so in its
    void event (attempt-void, move-stopped, ship-void, ship-kept, lesser-void, combat-void,
    capture-void, effect-void, occurrence-void) or, for a part of an order that cannot apply
    (a Monster's ship or drop, a Helper he does not carry, gods an Event card does not take),
    by leaving that part out: refused at submit, tolerated when an order an older pbem
    accepted is adjudicated or audited (:attr:`Problem.foreseen`)."""
    return Problem(where, message, hint, foreseen=True)


def _joined(reasons: list[str]) -> str:
    unique = list(dict.fromkeys(reasons))
    return "; ".join(unique)


def review(c: Components, state: State, player: str,
           orders: Mapping[str, Any]) -> tuple[list[Problem], list[Problem]]:
    """(problems, provisional): one walk through the phase as ordered for both."""
    lesser = lesser_on(state)
    parsed, problems = parse(c, orders, lesser=lesser,
                             powers=cards.power_ids(c, state, player))
    pending: list[Problem] = []
    # Cards and powers played are tried on a copy (step 0); without any, the walk below only
    # reads the state, so it reads the caller's own (a copy of a 20 kB state costs more
    # than the rest of a short review).
    s = copy_state(state) if parsed.plays else state
    board = Board(c)
    herc = hercules_id(c)
    remorse = s["remorse"] > 0
    zeus_game = zeus.on(s)
    # risks[unit]: what may, before its next order runs, kill it, stop it or take it away.
    risks: dict[int, list[str]] = {}

    def risk(unit: int, why: str) -> None:
        risks.setdefault(unit, []).append(why)

    def walk(unit: int, nm: str, where: str, path: Sequence[str]) -> None:
        """``unit`` goes along ``path``: any unit standing in a hex it enters may intercept
        it, and is at risk itself (205 I)."""
        for h in path:
            others = [u for u, x in pos.items() if x == h and u != unit]
            if others:
                risk(unit, f"it may be intercepted in {h} (205 I)")
                for u in others:
                    risk(u, f"it may intercept {nm} in {h} during {where} (205 I)")
            pos[unit] = h

    def name(unit: int) -> str:
        return names.unit_label(c, unit)

    if zeus_game:  # 301 C 4 a: sealed, so never judged at submit
        for h, x in s["heroes"].items():
            if x["status"] == "board" and int(h) not in s["turn_effects"].get("immortal", []):
                risk(int(h), "Zeus's Lightning Bolt may strike its hex as your Move begins "
                     "(301 C 4 a)")

    # 0. Cards and powers (010 E 2, 011 E): certain, so played on the copy.
    phase = Phase(c, s, player, Rng(Stream(b"validate"), Stream(b"validate")))
    gods_in_game = {g: p for p, g in s["gods"].items() if p not in zeus.bolted(s)}
    for play in parsed.plays:
        where = play.where or "[orders.card]"
        if play.what in ("god", "event") and not s["facedown"][player]:
            problems.append(_foreseen(where, "you placed no card face down this Turn "
                                      "(010 E 1)", "remove [orders.card]"))
            continue
        if play.what == "event":
            event = c.cards[int(s["facedown"][player])].event
            if event.choose is None and play.gods:
                problems.append(_foreseen(f"{where} gods", f"{event.name} names its own gods "
                                          "(010 B 2)", "remove gods"))
                continue
            if event.choose is not None and len(play.gods) > event.choose:
                problems.append(_foreseen(f"{where} gods", f"{event.name} sends up to "
                                          f"{event.choose} gods (010 B 2)",
                                          f"name at most {event.choose}"))
                continue
            absent = [g for g in play.gods if g not in gods_in_game]
            if absent:
                problems.append(_foreseen(f"{where} gods", f"no god in play this Turn is "
                                          f"{absent[0]}", "the gods in play: "
                                          + ", ".join(sorted(gods_in_game))))
                continue
        before = len(phase.events)
        phase.play(play)
        for e in phase.events[before:]:
            if e.get("type") == "effect-void":
                problems.append(_foreseen(where, e["text"].rstrip(".")))
    effects = cards.effects_read(s)

    # 1. Divine Occurrences (210).
    plotted = [o.code for o in sheet(s, player).occurrences]
    area = s["god_area"][player]
    protected = set(effects["protect"])
    for act in parsed.activate:
        where = act.where
        if act.code not in plotted:
            problems.append(_foreseen(where, f"no {act.code} is plotted on your Log Sheet "
                                      "this turn (210 D)",
                                      "activate only what you plotted, once each"))
            continue
        plotted.remove(act.code)
        target_area = act.area or (c.map.area_of(act.hex) if act.hex else area)
        reach = bool(area) and cards.has_passive(
            c, s, player, "occurrence_reach", act.code) is not None and (
            target_area in c.map.adjacent_areas(area))
        if not occurrences.allowed(act.code, area or None, target_area,
                                   god_card_elsewhere=reach):
            problems.append(_foreseen(where, f"{act.code} in {target_area or 'no Area'}: a "
                                      "Divine Occurrence takes place only in the Area of your god, "
                                      f"now {area or 'off the board'} (210 I-J)",
                                      "leave area and hex empty, or name your god's Area"))
            continue
        if act.code in ("E", "T", "V", "Pe"):  # P strikes after every Move, F only weakens
            hexes = {act.hex} if act.code == "V" else set(c.map.area(target_area).hexes)
            what = "immobilise" if act.code == "Pe" else "kill"
            for h, x in s["heroes"].items():
                if x["status"] == "board" and x["hex"] in hexes and int(h) not in protected:
                    risk(int(h), f"the {act.code} you activate first ({where}) may {what} "
                         "it (210 G)")

    # 2. Attempts (204, 209, 211, 215).
    pos = {int(u): x["hex"] for table in ("heroes", "monsters", "lesser")
           for u, x in s.get(table, {}).items() if x["status"] == "board"}
    aboard = set(s["ships"])
    attempted: dict[int, str] = {}
    standing = _standing_threats(c, s, player)
    counted = [a for a in parsed.attempts if not (a.unit == herc and remorse)]
    if len(counted) > 5:  # 214 A 3 c: Hercules' free moves do not count
        # Not foreseen: resolve drops the attempts past the fifth with no event, and every
        # version of validate has refused this, so no accepted order ever held it.
        problems.append(Problem("[[orders.attempt]]", f"{len(counted)} attempts; a Moving "
                                "Player may attempt to move five units (204 A, 209 A)",
                                "keep five"))
    for att in parsed.attempts:
        unit, where, nm = att.unit, att.where, name(att.unit)
        start = pos.get(unit, "")
        free = unit == herc and remorse
        if unit in attempted:
            problems.append(_foreseen(f"{where} unit", f"{nm} is already attempted by "
                                      f"{attempted[unit]}; one attempt per unit (204 P, 209 E)",
                                      "give its whole path in one attempt"))
            continue
        attempted[unit] = where
        if not start:
            problems.append(_foreseen(f"{where} unit", f"unit {unit} is not on the board"))
            continue
        hero = unit <= 32
        bad = len(problems)
        if not hero:
            for key, given in (("ship", att.ship), ("leave_ship", att.leave_ship),
                               ("drop", att.drop)):
                if given:
                    problems.append(_foreseen(f"{where} {key}", "only Heroes take ships and "
                                              "carry Helpers and Prizes (211 I, 212 B, 215)",
                                              f"remove {key}"))
        elif att.ship and free:
            problems.append(_foreseen(f"{where} ship", "Hercules, filled with remorse, may not "
                                      "obtain a ship (214 A 3 e)", 'write ship = ""'))
        elif att.ship == "start" and unit in aboard:
            problems.append(_foreseen(f"{where} ship", f"{nm} is already aboard a ship",
                                      'write ship = ""'))
        elif att.ship == "start" and not movement.can_obtain_ship(board, start):
            problems.append(_foreseen(f"{where} ship", f"{nm} starts in {start}, not on a "
                                      "shoreline: no ship there (215 F 1)", 'write ship = "end" '
                                      "to try where he ends, on a shoreline"))
        ship_now = unit in aboard or (hero and att.ship == "start")
        allowance = movement.NORMAL_MOVE
        if hero and any(c.helpers[h].doubles_movement for h in helpers_of(s, unit)):
            allowance *= 2
        allowance += effects["movement"].get(str(unit), 0)
        if free:
            allowance = movement.NORMAL_MOVE
        mover = movement.Mover(unit, "hero" if hero else "monster", start, allowance,
                               ship=ship_now,
                               immobile=unit in s["turn_effects"].get("pestilence", [])
                               or unit in effects["halt"])
        # Phase.walk stops the move at the first illegal step (move-stopped).
        path_problems = [replace(p, foreseen=True) for p in
                         movement.check_path(board, mover, att.path, f"{where} path")]
        closed = closed_hexes(c, effects["terrain"], att.path) if hero else []
        if closed:
            path_problems.append(_foreseen(f"{where} path", f"{closed[0]} is closed to Heroes "
                                           "this Turn by a god's power or card (011)",
                                           "go round it"))
        problems += path_problems
        if path_problems:
            continue
        end = att.path[-1] if att.path else start
        if hero and att.ship == "end" and not ship_now and \
                not movement.can_obtain_ship(board, end):
            problems.append(_foreseen(f"{where} ship", f"{nm} ends in {end}, not on a "
                                      "shoreline: no ship there (215 F 1)",
                                      'write ship = "" or end on a shoreline'))
        may_take = {h for h, x in s["helpers"].items() if x["holder"] == 0
                    and x["hex"] in att.path}
        for item in att.drop:
            holds = (item in s["helpers"] and s["helpers"][item]["holder"] == unit) or (
                item in s["prizes"] and s["prizes"][item]["holder"] == unit)
            if not holds and item not in may_take:
                problems.append(_foreseen(f"{where} drop", f"{nm} does not carry {item} "
                                          "(211 G, 212 G)", "drop only what he carries"))
        on_ship = ship_now or (hero and att.ship == "end")
        if att.leave_ship and hero:
            if not on_ship:
                problems.append(_foreseen(f"{where} leave_ship", f"{nm} is not aboard a ship",
                                          "leave_ship = false"))
            elif not c.map.is_land(end):
                problems.append(_foreseen(f"{where} leave_ship", f"{end} is all water: he "
                                          "cannot leave his ship there (215 A)", "end on land"))
        if len(problems) > bad:
            continue
        # What the dice and the other gods may still do to this attempt and what follows.
        prior = list(risks.get(unit, []))
        if not free:
            risk(unit, f"{where} may be challenged (209) and then not move")
            if att.path and standing.get(unit if hero else -unit):
                prior.append(standing[unit if hero else -unit])
            if att.path and hero:
                prior += [standing[h] for h in att.path if standing.get(h)]
        if hero and att.ship and not ship_now:
            risk(unit, f"its ship roll in {where} may fail (215 F 2)")
        walk(unit, nm, where, att.path)
        if prior:
            pending.append(Problem(where, _joined(prior)))
        if att.ship and hero:
            aboard.add(unit)
        if att.leave_ship and c.map.is_land(end):
            aboard.discard(unit)

    # 3. Lesser Evil counters (303 D-F): only the map decides their paths.
    area = state["god_area"][player]  # 303 E: as the phase begins, before any card
    movable = lesser_in_area(state, c.map, area)
    seen: set[int] = set()
    for mv in parsed.lesser:
        where = mv.where
        nm = name(mv.unit)
        at = pos.get(mv.unit, "")
        if mv.unit in seen:
            problems.append(_foreseen(f"{where} unit", f"{nm} is already moved by this order; "
                                      "it moves once, two hexes at most (303 D)",
                                      "give its whole path in one table"))
        elif not at:
            problems.append(_foreseen(f"{where} unit", f"{nm} is not on the board"))
        elif not area:
            problems.append(_foreseen(f"{where} unit", "your god is in no Area of the board, "
                                      "so it moves no Lesser Evil counter (303 E)"))
        elif mv.unit not in movable:
            problems.append(_foreseen(f"{where} unit", f"{nm} is in "
                                      f"{c.map.area(c.map.area_of(at)).name}, not in "
                                      f"{c.map.area(area).name} with your god (303 E)",
                                      "only those in your god's Area when your phase begins"))
        elif mv.unit in effects["halt"]:
            problems.append(_foreseen(f"{where} unit", f"{nm} may not be moved this Turn (a "
                                      "god's card or power)", "remove it"))
        else:
            # Phase.move_lesser stops it at the first illegal step (move-stopped).
            found = [replace(p, foreseen=True)
                     for p in lesser_path_problems(c, mv.unit, at, mv.path, where)]
            problems += found
            if not found:
                walk(mv.unit, nm, where, mv.path)
        seen.add(mv.unit)

    # 4. Combats (205-207), where the moves as ordered leave the units.
    fighting: dict[int, str] = {}
    no_attack = s["turn_effects"].get("no_attack", [])
    mine = {int(h): t for h, t in s["hero_totals"][player].items()}

    def control_risk(unit: int) -> str:
        """208 E, H: '' when this player surely may use the Hero, else why not surely."""
        if unit in attempted:
            return ""  # moved by him (209 G), if the attempt succeeds: already a risk
        if mine.get(unit, 0) <= 0:
            return "none"
        return (f"you Control {name(unit)} only if no other god has spent as many Power "
                "Points on him (208 H)")

    for order in parsed.combats:
        a, d, where = order.attacker, order.defender, order.where
        ha, hd = pos.get(a, ""), pos.get(d, "")
        why = ""
        if not ha or not hd:
            why = f"unit {a if not ha else d} is not on the board"
        elif ha != hd:
            why = (f"after your moves {name(a)} is in {ha} and {name(d)} in {hd}: Combat is "
                   "between units in the same hex (205 A)")
        elif a in fighting or d in fighting:
            twice = a if a in fighting else d
            why = (f"{name(twice)} already fights in {fighting[twice]}: a unit attacks or is "
                   "attacked once per phase (205 K)")
        elif herc in (a, d) and remorse:
            why = "Hercules, filled with remorse, may not attack or be attacked (214 A 3 e)"
        elif a in no_attack:
            why = ("a Hero protected by Prayer or Sacrifice may not attack this Turn "
                   "(302 G)")
        elif a <= 32 and a in aboard:
            why = f"{name(a)} is aboard a ship: he only moves and defends (215 C, G)"
        elif a <= 32 and control_risk(a) == "none":
            why = (f"you neither move {name(a)} in this phase nor have Power Points on him: "
                   "a Hero attacks only for the player who Controls him (208 E)")
        if why:
            problems.append(_foreseen(where, why))
            continue
        fighting[a] = fighting[d] = where
        reasons = risks.get(a, []) + risks.get(d, [])
        if a <= 32 and control_risk(a):
            reasons.append(control_risk(a))
        if reasons:
            pending.append(Problem(where, _joined(reasons)))
        for u in (a, d):
            risk(u, f"it may die in {where}")

    # 5. Prize captures (212), after all combat.
    free_at: dict[str, list[str]] = {}
    for pid, x in s["prizes"].items():
        if x["holder"] == 0 and not x["off_board"] and x["hex"]:
            free_at.setdefault(x["hex"], []).append(pid)
    for att in parsed.attempts:
        for item in att.drop:
            if item in s["prizes"] and pos.get(att.unit):
                free_at.setdefault(pos[att.unit], []).append(item)
    carrying = {x["holder"] for x in s["prizes"].values() if x["holder"]}
    tried: set[int] = set()
    for cap in parsed.captures:
        capturer, where = cap.hero, cap.where
        where_now = pos.get(capturer, "")
        why = ""
        maybe_freed = [u for u in carrying if pos.get(u) == where_now and u != capturer
                       and risks.get(u)]
        if not where_now:
            why = f"{name(capturer)} is not on the board"
        elif capturer in tried:
            why = f"{name(capturer)} already tries once in this order (212 D 4)"
        elif capturer == herc and remorse:
            why = "Hercules, filled with remorse, may not capture Prizes (214 A 3 e)"
        elif capturer in aboard:
            why = f"{name(capturer)} is aboard a ship: he must leave it first (215 G)"
        elif not free_at.get(where_now) and not maybe_freed:
            why = (f"no Prize is free in {where_now}, where {name(capturer)} is after your "
                   "moves (212 D 1)")
        elif control_risk(capturer) == "none":
            why = (f"you neither move {name(capturer)} in this phase nor have Power Points on "
                   "him: only the Controlling player captures with him (212 D 3, 216 G 2)")
        if why:
            problems.append(_foreseen(where, why))
            continue
        reasons = list(risks.get(capturer, []))
        if control_risk(capturer):
            reasons.append(control_risk(capturer))
        if not free_at.get(where_now):
            reasons.append(f"a Prize is free in {where_now} only if a Hero carrying one dies "
                           "there first (212 E)")
        elif len(free_at[where_now]) <= sum(pos.get(t) == where_now for t in tried):
            reasons.append(f"an earlier capture in {where_now} may take its Prize first")
        tried.add(capturer)
        if reasons:
            pending.append(Problem(where, _joined(reasons)))
    return problems, pending


def _standing_threats(c: Components, s: State, player: str) -> dict[Any, str]:
    """What a god's standing card or power used when a unit is challenged (010 E 2, 011 E)
    may do to its move, and why: halt it (keys: a Hero's id, minus a Monster's id) or close
    hexes to Heroes (keys: hex ids). Built only from what the mover knows: the gods in play
    and their powers, who still holds a face-down card, and his own card."""
    out: dict[Any, str] = {}
    effects = cards.effects_read(s)
    idle = set(zeus.bolted(s))
    for p in s["seats"]:
        if p in idle:
            continue
        used = effects["powers"].get(p, [])
        kinds: list[tuple[str, str, str]] = []  # (kind, target, feature)
        for pw in c.gods[s["gods"][p]].powers:
            if pw.id not in used and pw.effect.kind in ("halt", "terrain"):
                kinds.append((pw.effect.kind, pw.effect.target, pw.effect.feature))
        if s["facedown"][p] and p not in effects["played"]:  # cards.card_played, read only
            if p == player:
                e = c.cards[int(s["facedown"][p])].god.effect
                if e.kind in ("halt", "terrain"):
                    kinds.append((e.kind, e.target, e.feature))
            else:
                kinds += [("halt", "unit", ""), ("terrain", "", "forest"),
                          ("terrain", "", "mountain"), ("terrain", "", "river")]
        why = (f"{p}'s god may halt it, or close hexes to Heroes, with a standing card or "
               "power when it is challenged (010 E 2, 011 E)")
        for kind, target, feature in kinds:
            if kind == "halt":
                if target in ("hero", "unit"):
                    for h in HERO_IDS:
                        out.setdefault(h, why)
                if target in ("monster", "unit"):
                    for m in MONSTER_IDS:
                        out.setdefault(-m, why)
            elif s["god_area"][p]:
                test = {"forest": c.map.is_forest, "mountain": c.map.is_mountain,
                        "river": c.map.is_river}[feature]
                for hx in c.map.area(s["god_area"][p]).hexes:
                    if test(hx):
                        out.setdefault(hx, why)
    return out


# --- resolution ---------------------------------------------------------------------------------


class Phase:
    """The running state of one Moving Player Phase."""

    def __init__(self, c: Components, state: State, player: str, rng: Rng) -> None:
        self.c, self.s, self.p, self.rng = c, state, player, rng
        self.board = Board(c)
        self.turn = state["turn"]
        self.label = f"t{self.turn:02d}/{player}"
        self.events: list[Event] = []
        self.moved: set[int] = set()       # 209 G: the mover controls these this phase
        self.attempted: set[int] = set()   # 204 P, 209 E: one attempt per unit
        self.done: set[int] = set()        # 215 F 2: a failed ship roll ends its activities
        self.plots_used: list[int] = []    # 210 C: each plotted occurrence activates once
        self.walk_start = ""
        self.fought: set[int] = set()      # 205 K
        self.tried_capture: set[int] = set()  # 212 D 4
        self.effects = state["turn_effects"]
        self.herc = hercules_id(c)
        self.lesser_movable: set[int] = set()  # 303 E: in the god's Area as the phase began
        self.lesser_moved: set[int] = set()    # 303 D: once, two hexes, in a phase

    # -- glory and bookkeeping --
    def glory(self, player: str, amount: int, why: str) -> None:
        if amount:
            self.s["glory"][player] += amount
            self.events.append({"type": "glory", "player": player, "amount": amount,
                                "text": f"{player} {amount:+d} Glory: {why}."})

    def controls(self, unit: int) -> bool:
        """208 H, 209 G: the mover controls what it moved, or what it has spent the most on."""
        if unit in self.moved:
            return True
        return control.controller(points_on(self.s, unit)) == self.p

    def remove_hero(self, hero: int, cause: str = "") -> None:
        """The Hero leaves the board, dead; ``cause`` ("combat", "occurrence", "fates",
        "bolt") is remembered for Zeus's 301 C 3 when Optional Rule 301 is in play."""
        entry = self.s["heroes"][str(hero)]
        where = entry["hex"]
        if cause:
            zeus.bury(self.s, hero, cause, where)
        for h in helpers_of(self.s, hero):   # 211 H
            self.s["helpers"][h].update(holder=0, hex=where)
        for p in prizes_of(self.s, hero):    # 212 E
            self.s["prizes"][p].update(holder=0, hex=where)
        entry.update(status="dead", hex="")
        if hero in self.s["ships"]:
            self.s["ships"].remove(hero)

    def fighter(self, unit: int) -> combat.Fighter:
        kind = kind_of(unit)
        if kind != "hero":  # 303 H: a Lesser Evil counter fights as a Monster does
            m = self.c.monsters[unit] if kind == "monster" else self.c.lesser[unit]
            da, dd, dm = cards.modifiers(self.s, unit)
            return combat.Fighter(unit, kind, m.attack + da, m.defense + dd,
                                  None if m.magic is None else m.magic + dm)
        h = self.c.heroes[unit]
        aid = sum(sheet(self.s, p).aid.get(unit, 0) for p in self.s["seats"])
        ail = sum(sheet(self.s, p).ailment.get(unit, 0) for p in self.s["seats"])
        helpers = [(self.c.helpers[x].attack, self.c.helpers[x].defense, self.c.helpers[x].magic)
                   for x in helpers_of(self.s, unit)]
        famines, bonus = turn_defense(self.s, unit)  # 210 G 6; the Turn's +N Defense
        a, d, mg, pen = combat.effective(h.attack, h.defense, h.magic, aid=aid, ailment=ail,
                                         helpers=helpers, famine=famines, defense_bonus=bonus)
        da, _, dm = cards.modifiers(self.s, unit)  # 207 A 2-3: cards and god powers
        return combat.Fighter(unit, "hero", a + da, d, None if mg is None else mg + dm,
                              hercules=unit == self.herc, magic_penalty=pen)

    # -- 301 C 4 a: Zeus's Lightning Bolt on a hex --
    def lightning(self, hex_id: str) -> None:
        """Every Hero in ``hex_id`` is killed and removed from play; nobody gains or loses
        Glory (216 G 4 is about players' kills). A Hero Zeus granted full protection this Turn
        (301 C 2, "nothing kills him") is spared."""
        heroes = sorted(int(h) for h, x in self.s["heroes"].items()
                        if x["status"] == "board" and x["hex"] == hex_id)
        names = ", ".join(self.unit_name(h) for h in heroes) or "no Hero"
        self.events.append({"type": "lightning", "player": self.p, "hex": hex_id,
                            "text": f"Zeus's Lightning Bolt strikes hex {hex_id} as {self.p}'s "
                            f"Move begins: {names} there (301 C 4 a)."})
        for hero in heroes:
            if hero in self.effects.get("immortal", []):
                self.events.append({"type": "spared", "hero": hero,
                                    "text": f"{self.unit_name(hero)} cannot be killed this "
                                    "Turn (301 C 2, Zeus's protection)."})
                continue
            self.remove_hero(hero, "bolt")
            self.events.append({"type": "struck", "hero": hero, "hex": hex_id,
                                "text": f"{self.unit_name(hero)} is killed by the Lightning "
                                "Bolt (301 C 4 a)."})

    # -- 010, 011: cards and powers played at the start of the phase --
    def play(self, play: Play) -> None:
        if play.what == "god":
            self.events += cards.use_card_god(self.c, self.s, self.p, unit=play.unit,
                                              area=play.area)
        elif play.what == "event":
            self.events += cards.use_card_event(self.c, self.s, self.p, list(play.gods))
        else:
            pid = play.what.removeprefix("power:")
            used = setdefault_sorted(cards.effects(self.s)["powers"], self.p, [])
            effect = cards.power(self.c, self.s, self.p, pid)
            if effect is None or pid in used:
                self.events.append({"type": "effect-void", "text": f"{self.p}'s power {pid} "
                                    "is not available (011 C: once a Turn)."})
                return
            used.append(pid)
            self.events += cards.apply(self.c, self.s, self.p, effect, source=f"power {pid}",
                                       unit=play.unit, area=play.area)

    # -- 210: Divine Occurrences, activated at the start of the causing god's own phase --
    def activate(self, act: Activation) -> None:
        area = self.s["god_area"][self.p]
        target_area = act.area or (self.c.map.area_of(act.hex) if act.hex else area)
        reach = bool(area) and cards.has_passive(
            self.c, self.s, self.p, "occurrence_reach", act.code) is not None and (
            target_area in self.c.map.adjacent_areas(area))
        if not occurrences.allowed(act.code, area or None, target_area,
                                   god_card_elsewhere=reach):
            self.events.append({"type": "occurrence-void", "code": act.code, "text":
                                f"{self.p}'s {act.code} cannot take place: only in the Area of "
                                "their god (210 I-J)."})
            return
        plots = sheet(self.s, self.p).occurrences
        index = next((i for i, o in enumerate(plots)
                      if o.code == act.code and i not in self.plots_used), None)
        if index is None:
            self.events.append({"type": "occurrence-void", "code": act.code, "text":
                                f"{self.p} has no {act.code} left to activate this Turn (210 D)."})
            return
        self.plots_used.append(index)
        points = plots[index].points
        if act.code == "P":  # 210 G 4: rolled at the conclusion of all Moving Player Phases
            bonus = cards.has_passive(self.c, self.s, self.p, "occurrence_bonus", "P")
            self.effects.setdefault("plague", []).append(
                {"player": self.p, "area": target_area, "points": points,
                 "extra": bonus.amount * points if bonus else 0})
            self.events.append({"type": "plague", "area": target_area, "text":
                                f"{self.p} brings Plague on {target_area} (210 G 4)."})
            self.count_occurrence(act.code)
            return
        hexes = [act.hex] if act.code == "V" else list(self.c.map.area(target_area).hexes)
        targets = occurrence_targets(self.c, self.s, set(hexes))
        bonus = cards.has_passive(self.c, self.s, self.p, "occurrence_bonus", act.code)
        result = occurrences.resolve(act.code, points, targets, self.rng.public,
                                     f"{self.label}/occurrence/{act.code}",
                                     extra=bonus.amount * points if bonus else 0)
        self.events += result.events
        self.count_occurrence(act.code)
        for hero in result.killed:
            self.kill_by_occurrence(hero)
        self.glory(self.p, result.glory, "Hercules slain by a Divine Occurrence (214 B)")
        setdefault_sorted(self.effects, "pestilence", []).extend(result.immobilised)
        setdefault_sorted(self.effects, "famine", []).extend(result.famished)

    def count_occurrence(self, code: str) -> None:
        stats = self.s["stats"]
        by = setdefault_sorted(stats["occurrences"], self.p, {})
        put_sorted(by, code, by.get(code, 0) + 1)
        stats["occurrences_this_turn"] += 1

    def kill_by_occurrence(self, hero: int) -> None:
        points = points_on(self.s, hero)
        self.remove_hero(hero, "occurrence")
        stats = self.s["stats"]["heroes_killed_by_occurrence"]
        put_sorted(stats, self.p, stats.get(self.p, 0) + 1)
        self.glory(self.p, control.kill_glory(self.p, points, by_occurrence=True,
                                              killer_controlled_unit=False),
                   f"Hero {hero} killed by a Divine Occurrence (216 G 4 d)")

    # -- 204, 209, 215: one attempt --
    def attempt(self, n: int, att: Attempt) -> None:
        unit, where = att.unit, unit_hex(self.s, att.unit)
        name = self.unit_name(unit)
        reason = ""
        if not where:
            reason = "is no longer on the board"
        elif unit in self.attempted:
            # 204 P: a unit's movement, once released, is final; 209 E: a lost challenge
            # means the Moving Player may not move it in this Phase.
            reason = "was already attempted in this phase (204 P, 209 E)"
        if reason:
            self.events.append({"type": "attempt-void", "unit": unit, "text":
                                f"Attempt {n}: {name} {reason}."})
            return
        self.attempted.add(unit)
        free = unit == self.herc and self.s["remorse"] > 0  # 214 A 3 c: free, unchallenged
        if not free:
            self.s["attempts"] = self.s.get("attempts", 0) + 1
            if not self.auction(unit, att.bid):
                return
        self.moved.add(unit)
        if unit <= 32 and att.ship == "start" and not self.get_ship(unit):
            return
        moved_to = self.walk(unit, att)
        if not unit_hex(self.s, unit):
            return  # killed on the way (205 I): nothing more for it
        if unit <= 32 and not free:
            self.glory(self.p, control.moving_glory(bool(att.path) and moved_to != where, True),
                       f"{name} successfully moved (216 G 5)")
        if unit <= 32 and att.ship == "end" and unit not in self.s["ships"] \
                and not self.get_ship(unit):
            return
        if unit <= 32:
            here = unit_hex(self.s, unit)
            for h in att.drop:
                if h in self.s["helpers"] and self.s["helpers"][h]["holder"] == unit:  # 211 G
                    self.s["helpers"][h].update(holder=0, hex=here)
                    self.events.append({"type": "helper-dropped", "hero": unit, "helper": h,
                                        "text": f"{name} leaves {self.c.helpers[h].name}."})
                elif h in self.s["prizes"] and self.s["prizes"][h]["holder"] == unit:
                    # 212 G: the captor may "leave the Prize"; another Hero must then capture it.
                    self.s["prizes"][h].update(holder=0, hex=here)
                    self.events.append({"type": "prize-dropped", "hero": unit, "prize": h,
                                        "text": f"{name} leaves {self.c.prizes[h].name} in "
                                        f"{here} (212 G)."})
            if att.leave_ship and unit in self.s["ships"]:
                if not self.c.map.is_land(here):
                    self.events.append({"type": "ship-kept", "hero": unit, "text":
                                        f"{name} cannot leave his ship in {here}, all water "
                                        "(215 A)."})
                else:
                    self.s["ships"].remove(unit)  # 215 H
                    self.events.append({"type": "ship-left", "hero": unit,
                                        "text": f"{name} leaves the ship (215 H)."})

    def auction(self, unit: int, bid: int) -> bool:
        """209: standing challenges from the other players' Log Sheets, in clockwise order."""
        self.events += cards.standing_uses(self.c, self.s, "challenge", (unit,))
        points = points_on(self.s, unit)
        bonus = cards.effects(self.s)["challenge"]
        is_hero = unit <= 32
        challenges = []
        idle = zeus.bolted(self.s)  # 301 C 4 b: a struck god challenges nothing
        for other in clockwise_from(self.s["seats"], self.p)[1:]:
            if other in idle:
                continue
            for order in sheet(self.s, other).challenges:
                if order.unit == unit and points[other] >= max(order.min_total, 0):
                    challenges.append(control.Challenge(
                        other, min(order.limit, points[other]) + bonus.pop(other, 0)))
                    break
        modifiers = {p: self.c.gods[self.s["gods"][p]].arbitration.get(unit, 0)
                     for p in self.s["seats"]} if is_hero else {}
        n = self.s.get("attempts", 0)
        mover_limit = min(bid, points[self.p]) + (bonus.pop(self.p, 0) if challenges else 0)
        result = control.auction(unit, is_hero, self.p, mover_limit, challenges,
                                 modifiers, self.rng.public, f"{self.label}/a{n}",
                                 favor=zeus.favor(self.s))  # 301 C 1
        self.events += result.events
        for player, amount in sorted(result.glory.items()):
            self.glory(player, amount, "challenge (216 G 6)")
        return result.moved

    def get_ship(self, hero: int) -> bool:
        """215 F: on a shoreline (not a river alone), two-digit roll <= Defense."""
        where = unit_hex(self.s, hero)
        name = self.unit_name(hero)
        if hero == self.herc and self.s["remorse"] > 0:
            return False  # 214 A 3 e
        if hero in self.s["ships"]:
            self.events.append({"type": "ship-void", "hero": hero, "text":
                                f"{name} is already aboard a ship."})
            return True
        if not movement.can_obtain_ship(self.board, where):
            self.events.append({"type": "ship-void", "hero": hero, "text":
                                f"{name} is not on a shoreline and cannot get a ship (215 F 1)."})
            return False
        roll = self.rng.public.two_digit(f"{self.label}/ship/{hero}")
        roll += int(cards.effects(self.s)["ship"].pop(str(hero), 0))  # a card or power
        # "the Hero counter's Defense number" as it stands (issue 15): halved by a Famine,
        # raised by the Turn's +N Defense; no Helper (211 C: Combat and Prizes only).
        famines, bonus = turn_defense(self.s, hero)
        defense = combat.defense_now(self.c.heroes[hero].defense, famines=famines, bonus=bonus)
        ok = roll <= defense
        self.events.append({"type": "ship-roll", "hero": hero, "roll": roll, "success": ok,
                            "text": f"{name} tries for a ship: {roll} against Defense "
                            f"{defense}: {'a ship' if ok else 'no ship'}"
                            " (215 F 2)."})
        if ok:
            self.s["ships"].append(hero)
        else:
            self.done.add(hero)  # 215 F 2: all activities are over for it this phase
        return ok

    def walk(self, unit: int, att: Attempt) -> str:
        """Move along the path while it stays legal; pick up Helpers on the way (211 B)."""
        kind = "hero" if unit <= 32 else "monster"
        start = unit_hex(self.s, unit)
        allowance = movement.NORMAL_MOVE
        if kind == "hero" and any(self.c.helpers[h].doubles_movement
                                  for h in helpers_of(self.s, unit)):
            allowance *= 2  # 204 G, M: Helpers may double a Hero's movement, never beyond four
        book = cards.effects(self.s)
        allowance += book["movement"].get(str(unit), 0)
        if unit == self.herc and self.s["remorse"] > 0:
            allowance = movement.NORMAL_MOVE  # 214 A 3 c
        mover = movement.Mover(unit, kind, start, allowance, ship=unit in self.s["ships"],
                               immobile=unit in self.effects.get("pestilence", [])
                               or unit in book["halt"])
        problems = movement.check_path(self.board, mover, att.path, f"unit {unit}")
        closed = self.terrain_problems(att.path) if kind == "hero" else []
        if closed:
            problems.append(Problem(f"unit {unit}", f"{closed[0]} is closed to Heroes this Turn "
                                    "by a god's power (011)"))
        path = list(att.path)
        if problems:
            # The first illegal step ends the move there; what came before stands.
            bad = next((i for i in range(len(path))
                        if movement.check_path(self.board, mover, path[:i + 1], "x")
                        or (kind == "hero" and self.terrain_problems(path[:i + 1]))), 0)
            path = path[:bad]
            self.events.append({"type": "move-stopped", "unit": unit,
                                "text": f"{self.unit_name(unit)} stops: {problems[0].message}."})
        self.walk_start = start
        path = self.advance(unit, kind, start, path)
        if not unit_hex(self.s, unit):
            return ""
        if path and kind == "hero":
            self.greece_bonus(unit, path)
        return path[-1] if path else start

    def advance(self, unit: int, kind: str, start: str, path: list[str]) -> list[str]:
        """Step along a legal ``path``, reporting the movement, meeting interceptions (205 I)
        and picking up Helpers (211 B); the hexes actually entered."""
        table = (self.s["heroes"] if kind == "hero" else self.s["monsters"]
                 if kind == "monster" else self.s["lesser"])
        leg: list[str] = []   # steps not yet reported
        origin = start

        def report() -> None:
            if leg:
                self.events.append({"type": "move", "unit": unit, "path": list(leg), "text":
                                    f"{self.unit_name(unit)} moves {origin} -> "
                                    f"{' -> '.join(leg)}."})

        for i, hex_id in enumerate(path):
            table[str(unit)]["hex"] = hex_id
            leg.append(hex_id)
            if self.interceptors(unit, hex_id):
                report()  # the movement first, then the interception it provoked (205 I)
                origin, leg = hex_id, []
                if self.intercepted(unit, hex_id):
                    path = path[:i + 1]
                    break
            if kind == "hero":
                self.pick_up(unit, hex_id)
        report()
        return path

    def move_lesser(self, order: LesserMove) -> None:
        """303 D-F: a Lesser Evil counter moved free by the god of its Area, once a phase, two
        hexes at most, on the hexes 303 M allows; it may be intercepted on the way as a Monster
        may (303 H, 205 I). An illegal step ends the move there, as for attempts."""
        unit, name = order.unit, self.unit_name(order.unit)
        start = unit_hex(self.s, unit)
        reason = ""
        if not start:
            reason = "is no longer on the board"
        elif unit in self.lesser_moved:
            reason = "was already moved in this phase (303 D)"
        elif unit not in self.lesser_movable:
            reason = "was not in the Area of the Moving Player's god as the phase began (303 E)"
        elif unit in cards.effects(self.s)["halt"]:
            reason = "may not be moved this Turn (a god's card or power)"
        if reason:
            self.events.append({"type": "lesser-void", "unit": unit,
                                "text": f"{name} {reason}."})
            return
        self.lesser_moved.add(unit)
        path = list(order.path)
        problems = lesser_path_problems(self.c, unit, start, path, f"unit {unit}")
        if problems:
            bad = next((i for i in range(len(path)) if lesser_path_problems(
                self.c, unit, start, path[:i + 1], "x")), 0)
            path = path[:bad]
            self.events.append({"type": "move-stopped", "unit": unit,
                                "text": f"{name} stops: {problems[0].message}."})
        self.advance(unit, "lesser", start, path)

    def terrain_problems(self, path: tuple[str, ...] | list[str]) -> list[str]:
        """A god's terrain power: no Hero enters those hexes of its Area this Turn (011)."""
        return closed_hexes(self.c, cards.effects(self.s)["terrain"], path)

    def interceptors(self, unit: int, hex_id: str) -> list[tuple[str, int]]:
        """205 I: the (player, unit) standing orders that would attack ``unit`` in ``hex_id``."""
        found = []
        idle = zeus.bolted(self.s)  # 301 C 4 b: a struck god's standing orders wait
        for other in clockwise_from(self.s["seats"], self.p)[1:]:
            if other in idle:
                continue
            for order in sheet(self.s, other).intercepts:
                guard = order.unit
                if guard == unit or unit_hex(self.s, guard) != hex_id:
                    continue
                if order.target not in (0, unit) or (
                        kind_of(guard) != "hero" and kind_of(unit) != "hero"):
                    continue  # 205 C, 303 L
                if guard in self.fought or unit in self.fought:
                    continue  # 205 K
                if control.controller(points_on(self.s, guard)) != other:
                    continue
                if guard <= 32 and guard in self.s["ships"]:
                    continue  # 215 C
                if self.herc in (guard, unit) and self.s["remorse"] > 0:
                    continue  # 214 A 3 e
                if guard in self.effects.get("no_attack", []):
                    continue  # 302 G
                found.append((other, guard))
        return found

    def intercepted(self, unit: int, hex_id: str) -> bool:
        """205 I: a Controlling Player's standing order attacks a unit moved into or through
        the hex of the unit it Controls. True if the moving unit died."""
        for other, guard in self.interceptors(unit, hex_id):
            if guard in self.fought or unit in self.fought or not unit_hex(self.s, guard):
                continue  # an earlier interception in this hex already fought (205 K)
            self.events.append({"type": "intercept", "player": other, "unit": guard,
                                "target": unit, "text": f"{other} intercepts with "
                                f"{self.unit_name(guard)} (205 I)."})
            self.combat(guard, unit, responsible=other, magic=True)
            if not unit_hex(self.s, unit):
                return True
        return False

    def pick_up(self, hero: int, hex_id: str) -> None:
        """211 B, J: a Hero entering a hex with a Helper and no other Hero or Monster takes it."""
        if hero in self.s["ships"] or (hero == self.herc and self.s["remorse"] > 0):
            return  # 215 G, 214 A 3 e
        if [u for u in occupants(self.s, hex_id) if u != hero]:
            return
        for h, x in sorted(self.s["helpers"].items()):
            if x["holder"] == 0 and x["hex"] == hex_id:
                x.update(holder=hero, hex="")
                self.events.append({"type": "helper-taken", "hero": hero, "helper": h, "text":
                                    f"{self.unit_name(hero)} acquires {self.c.helpers[h].name} "
                                    "(211 B)."})

    def greece_bonus(self, hero: int, path: list[str]) -> None:
        """216 G 2 c: bringing a Prize captured in an earlier turn into Greece, Controlled."""
        inside = [self.c.map.area_of(h) == GREECE for h in path]
        came_from = self.c.map.area_of(self.walk_start) == GREECE
        # "move ... into the Area of Greece": some step enters Greece from outside.
        entered = any(now and not before for before, now in zip([came_from, *inside], inside,
                                                                 strict=False))
        if not entered or not self.controls(hero):
            return
        for pid in prizes_of(self.s, hero):
            prize = self.s["prizes"][pid]
            bonus = prize.setdefault("bonus", [])
            if (prize.get("captured_by") == self.p and prize.get("captured_turn", 99) < self.turn
                    and self.p not in bonus):
                bonus.append(self.p)
                self.glory(self.p, 50, f"{self.c.prizes[pid].name} brought into Greece "
                           "(216 G 2 c)")

    # -- 205-207: combat --
    def fight(self, order: CombatOrder) -> None:
        a, d = order.attacker, order.defender
        where = f"{self.unit_name(a)} against {self.unit_name(d)}"
        ha, hd = unit_hex(self.s, a), unit_hex(self.s, d)
        reason = ""
        if not ha or not hd:
            reason = "a unit is no longer on the board"
        elif ha != hd:
            reason = "they are not in the same hex (205 A)"
        elif a in self.fought or d in self.fought:
            reason = "a unit may attack or be attacked only once per phase (205 K)"
        elif a <= 32 and not self.controls(a):
            reason = "a Hero attacks only for the player who Controls it (208 E)"
        elif a in self.done:
            reason = "its ship roll failed: its activities are over this phase (215 F 2)"
        elif a in self.effects.get("no_attack", []):
            reason = "a Hero protected by Prayer or Sacrifice may not attack this Turn (302 G)"
        elif a in self.s["ships"]:
            reason = "a Hero aboard a ship only moves and defends (215 C, G)"
        elif self.herc in (a, d) and self.s["remorse"] > 0:
            reason = "Hercules, filled with remorse, may not attack or be attacked (214 A 3 e)"
        if reason:
            self.events.append({"type": "combat-void", "attacker": a, "defender": d,
                                "text": f"No combat, {where}: {reason}."})
            return
        self.combat(a, d, responsible=self.p, magic=order.magic)

    def combat(self, a: int, d: int, *, responsible: str, magic: bool) -> None:
        """One Combat (206): ``responsible`` is the player whose unit attacks."""
        self.fought |= {a, d}
        self.events += cards.standing_uses(self.c, self.s, "combat", (a, d))
        fa, fd = self.fighter(a), self.fighter(d)
        result = combat.resolve(fa, fd, self.rng.public, f"{self.label}/c{a}-{d}",
                                attacker_elects_magic=magic and fa.magic is not None,
                                defender_elects_magic=fd.magic is not None)
        cards.spend_combat(self.s, (a, d))
        self.events += result.events
        if result.stalemate:
            self.glory(responsible, result.attacker_glory, "stalemate (206 D 7)")
        for dead in result.killed:
            # 216 G 4: the player responsible is whoever Controls the unit that killed it:
            # the attacking player for the attacker; for the defender, its Controller (208 H).
            killer = d if dead == a else a
            who = responsible if killer == a else control.controller(points_on(self.s, d))
            self.after_kill(dead, killer=killer, responsible=who)
        if self.herc in (a, d) and self.herc not in result.killed:
            # 214 A 3 a: "Hercules' Attack Number": the one he fought with (Aid, Helpers,
            # Famine, a card), not the printed number (issue 15).
            fought_with = fa.attack if a == self.herc else fd.attack
            remorse, event = combat.remorse(fought_with, self.rng.public,
                                            f"{self.label}/c{a}-{d}")
            self.events.append(event)
            if remorse:
                self.fill_with_remorse()

    def after_kill(self, dead: int, killer: int, responsible: str | None) -> None:
        stats = self.s["stats"]
        if kind_of(dead) == "lesser":
            self.s["lesser"][str(dead)].update(status="dead", hex="")
            # 303 K: the player Controlling the Hero that killed it gains 1 (whoever attacked).
            owner = self.p if self.controls(killer) else control.controller(
                points_on(self.s, killer))
            if owner is not None:
                self.glory(owner, 1, f"Lesser Evil {self.unit_name(dead)} killed (303 K)")
            return
        if dead > 32:
            zeus.bury(self.s, dead, "combat", self.s["monsters"][str(dead)]["hex"])
            self.s["monsters"][str(dead)].update(status="dead", hex="")
            stats["monsters_killed"] += 1
            # 216 G 3: the player Controlling the Hero that killed it: 3, or an Oracle's Glory.
            owner = self.p if self.controls(killer) else control.controller(
                points_on(self.s, killer))
            if owner is not None:
                glory, events = cards.oracle(self.c, self.s, owner, monster=dead)
                self.events += events
                self.glory(owner, glory or 3, f"Monster {dead} killed (216 G 3 "
                           f"{'b' if glory else 'a'})")
            return
        if dead in self.effects.get("immortal", []):
            self.events.append({"type": "spared", "hero": dead, "text": f"{self.unit_name(dead)}"
                                " cannot be killed this Turn (302, Prayer or Sacrifice)."})
            return
        points = points_on(self.s, dead)
        self.remove_hero(dead, "combat")
        stats["heroes_killed_in_combat"] += 1
        if responsible is None:
            return  # killed by a unit nobody Controls: no one is responsible (216 G 4)
        if kind_of(killer) == "lesser":
            # 303 J: a Lesser Evil counter attacking for the Moving Player: he gains or loses
            # as if he Controlled it. (Defending, it has no Controller: nobody is responsible.)
            controlled = responsible == self.p
        else:
            controlled = (self.controls(killer) if responsible == self.p else
                          control.controller(points_on(self.s, killer)) == responsible)
        self.glory(responsible, control.kill_glory(responsible, points, by_occurrence=False,
                                                   killer_controlled_unit=controlled),
                   f"Hero {dead} killed (216 G 4)")

    def fill_with_remorse(self) -> None:
        """214 A 3 b, e: face down; Helpers and Prizes are left in his hex."""
        where = unit_hex(self.s, self.herc)
        for h in helpers_of(self.s, self.herc):
            self.s["helpers"][h].update(holder=0, hex=where)
        for p in prizes_of(self.s, self.herc):
            self.s["prizes"][p].update(holder=0, hex=where)
        if self.herc in self.s["ships"]:
            self.s["ships"].remove(self.herc)
        self.s["remorse"] = self.turn + 1  # purged at the end of the next complete Turn (d)
        self.events.append({"type": "remorse", "text": "Hercules is filled with remorse and "
                            "turned face down (214 A 3 b)."})

    # -- 212: prizes --
    def capture(self, order: Capture) -> None:
        hero, name = order.hero, self.unit_name(order.hero)
        where = unit_hex(self.s, hero)
        prize = next((p for p, x in sorted(self.s["prizes"].items())
                      if x["holder"] == 0 and not x["off_board"] and x["hex"] == where), None)
        reason = ""
        if not where:
            reason = "he is no longer on the board"
        elif prize is None:
            reason = "there is no Prize free in his hex"
        elif hero in self.tried_capture:
            reason = "one attempt per Hero per phase (212 D 4)"
        elif hero in self.done:
            reason = "its ship roll failed: its activities are over this phase (215 F 2)"
        elif not self.controls(hero):
            reason = "the Moving Player does not Control him"
        elif hero in self.s["ships"] or (hero == self.herc and self.s["remorse"] > 0):
            reason = "he must leave the ship first (215 G)" if hero in self.s["ships"] else \
                "Hercules in remorse may not capture Prizes (214 A 3 e)"
        if reason or prize is None:
            self.events.append({"type": "capture-void", "hero": hero,
                                "text": f"No capture by {name}: {reason}."})
            return
        self.tried_capture.add(hero)
        bonus = sum(self.c.helpers[h].attack for h in helpers_of(self.s, hero))
        roll = self.rng.public.two_digit(f"{self.label}/capture/{hero}")
        total = roll + self.c.heroes[hero].attack + bonus  # 212 D 3: only Helpers and Attack
        defense = self.c.prizes[prize].defense
        ok = total >= defense
        self.events.append({"type": "capture-roll", "hero": hero, "prize": prize, "roll": roll,
                            "total": total, "success": ok, "text":
                            f"{name} tries for {self.c.prizes[prize].name}: {roll} + "
                            f"{self.c.heroes[hero].attack + bonus} = {total} against "
                            f"{defense}: {'captured' if ok else 'not captured'} (212 D 3)."})
        if not ok:
            return
        entry = self.s["prizes"][prize]
        if order.remove:  # 216 G 2 e
            entry.update(holder=0, hex="", off_board=self.p)
        else:
            entry.update(holder=hero, hex="")
        put_sorted(entry, "captured_by", self.p)
        put_sorted(entry, "captured_turn", self.turn)
        if self.p in entry["scored"]:
            self.events.append({"type": "no-glory", "text": f"{self.p} already scored this "
                                "Prize once (216 G 2 d)."})
        else:
            entry["scored"].append(self.p)
            glory, events = cards.oracle(self.c, self.s, self.p, prize=prize)
            self.events += events
            self.glory(self.p, glory or 5, f"{self.c.prizes[prize].name} captured (216 G 2 "
                       f"{'b' if glory else 'a'})")

    def unit_name(self, unit: int) -> str:
        return names.unit_label(self.c, unit)


def turn_defense(state: State, hero: int) -> tuple[int, int]:
    """What this Turn has done so far to a Hero's Defense Number: ``(famines, bonus)``, the
    Famines that struck him (210 G 6, "for the remainder of the game Turn") and the sum of the
    Turn's "+N Defense" effects on him (cards and powers, the ``defense`` effect; Prayer and
    Sacrifice, 302 F). :func:`pbem.games.mythology.combat.defense_now` turns them into the
    Defense Number he has now, for Combat (:meth:`Phase.fighter`), the Divine Occurrences
    (:func:`occurrence_targets`) and the ship roll (:meth:`Phase.get_ship`) alike."""
    famines = list(state["turn_effects"].get("famine", [])).count(hero)
    return famines, cards.modifiers(state, hero)[1]


def occurrence_targets(c: Components, state: State, hexes: set[str]) -> list[occurrences.Target]:
    """The Heroes a Divine Occurrence may strike in ``hexes`` (210 H), less those a card or
    power protects this Turn; each with what the Turn did to his Defense (issue 15: a Famine
    earlier in the Turn, a +N Defense), which :func:`occurrences.occurrence_defense` applies."""
    herc = hercules_id(c)
    protected = cards.effects(state)["protect"]
    out = []
    for h, x in sorted(state["heroes"].items(), key=lambda kv: int(kv[0])):
        if x["status"] != "board" or x["hex"] not in hexes or int(h) in protected:
            continue
        famines, bonus = turn_defense(state, int(h))
        out.append(occurrences.Target(int(h), c.heroes[int(h)].defense, c.map.is_land(x["hex"]),
                                      int(h) in state["ships"], int(h) == herc,
                                      famines=famines, bonus=bonus))
    return out


def resolve(c: Components, state: State, player: str, orders: Mapping[str, Any],
            rng: Rng) -> list[Event]:
    parsed, _ = parse(c, orders, lesser=lesser_on(state),
                      powers=cards.power_ids(c, state, player))
    phase = Phase(c, state, player, rng)
    # 303 E: the Lesser Evil counters in the god's Area at the beginning of the phase, before
    # any card or power moves the god.
    phase.lesser_movable = set(lesser_in_area(state, c.map, state["god_area"][player]))
    state["attempts"] = 0
    phase.events.append({"type": "moving-player", "player": player,
                         "text": f"{player} is the Moving Player (202 B 4)."})
    for hex_id in zeus.bolt_hexes(state, player):  # 301 C 4 a: as the Move begins
        phase.lightning(hex_id)
    for play in parsed.plays:
        phase.play(play)
    for act in parsed.activate:
        phase.activate(act)
    for n, att in enumerate(parsed.attempts, start=1):
        if state["attempts"] >= 5 and not (att.unit == phase.herc and state["remorse"] > 0):
            break
        phase.attempt(n, att)
    for mv in parsed.lesser:  # 303 E: free, after the attempts, before any combat (205 H)
        phase.move_lesser(mv)
    for order in parsed.combats:
        phase.fight(order)
    for cap in parsed.captures:
        phase.capture(cap)
    state.pop("attempts", None)
    cards.effects(state)["movement"] = {}  # movement changes last one Moving Player Phase
    return phase.events

"""A Player Turn of the Basic Game: god placement, Movement, Combat, Capturing of Prizes.

One order file carries the whole Player Turn (Basic Play 2A, 3): nothing is revealed between
placing the god and the last capture that the player could react to, except the dice of his
own fights, and the attacker names the order of the fights in advance (Basic Combat 3, 6)::

    god = "greece"                                  # Basic Play 2A
    [[move]]  unit = 6, path = ["2511", "2512"]     # Basic Move 1-12, in this order
    [[fight]] attacker = 6, defender = 40, aid = 2  # Basic Combat 3-10, in this order
    [[capture]] unit = 6, aid = 3                   # Basic Capture 1-8
    allies = ["bob"]                                # Basic Alliance 1-5 (optional)
    [defend] ...                                    # the standing defence policy (defence)

Everything a typo can break is decided at submit (:func:`plan`): the only things that wait
for the dice are whether a fight's units are still there and whether a Hero lived to try his
capture (:func:`plan` lists them as notes for the receipt).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pbem.core.dice import Stream
from pbem.core.errors import Problem
from pbem.core.ruleset import put_sorted
from pbem.games.mythology import names
from pbem.games.mythology.basic import alliances, defence, scoring
from pbem.games.mythology.basic.setup import HEROES, LAST_TURN, MONSTERS, POWER_POINTS
from pbem.games.mythology.components import Components

Event = dict[str, Any]
State = dict[str, Any]

KEYS = ("god", "move", "fight", "capture", "allies", "defend")
#: Basic PP 5A, 5B: per hex moved, per unit that attacks.
HEX_COST = 2
ATTACK_COST = 2
#: Basic Capture 5-6: a capture needs more than ten.
CAPTURE_OVER = 10


def kind(c: Components, unit: int) -> str:
    return HEROES if unit in c.heroes else MONSTERS


def other(side: str) -> str:
    return MONSTERS if side == HEROES else HEROES


def label(c: Components, unit: int) -> str:
    return names.unit_label(c, unit)


def area_name(c: Components, area: str) -> str:
    return c.map.areas[area].name


@dataclass
class Move:
    unit: int
    path: tuple[str, ...]
    attacks: bool

    @property
    def cost(self) -> int:
        return HEX_COST * len(self.path) + (ATTACK_COST if self.attacks else 0)


@dataclass
class Fight:
    attacker: int
    defender: int
    aid: int


@dataclass
class Capture:
    unit: int
    aid: int


@dataclass
class Plan:
    """A Player Turn's orders as parsed: what :func:`resolve` plays."""

    god: str = ""
    moves: list[Move] = field(default_factory=list)
    fights: list[Fight] = field(default_factory=list)
    captures: list[Capture] = field(default_factory=list)
    allies: list[str] | None = None
    policy: dict[str, Any] | None = None
    #: unit -> hex once every move is made (the units of the board that are on it).
    after: dict[int, str] = field(default_factory=dict)

    @property
    def movement_cost(self) -> int:
        return sum(m.cost for m in self.moves)


def positions(state: State) -> dict[int, str]:
    return {int(u): h for u, h in state["units"].items() if h}


def placed_gods(state: State) -> dict[str, str]:
    """Area -> player, for the gods placed this Game Turn."""
    return {a: p for p, a in state["god_area"].items() if a}


def _table_list(orders: Mapping[str, Any], key: str, example: str) -> tuple[list[Any],
                                                                            list[Problem]]:
    raw = orders.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(x, Mapping) for x in raw):
        return [], [Problem(f"[[orders.{key}]]", "must be tables, each under a "
                            f"[[orders.{key}]] line", example)]
    return raw, []


def _int(raw: Mapping[str, Any], key: str, where: str, problems: list[Problem],
         low: int = 0, high: int = 10**6, fix: str = "") -> int | None:
    value = raw.get(key)
    if not names.is_int(value) or not low <= value <= high:
        problems.append(Problem(f"{where} {key}", f"{names.shown(value)} is not a whole "
                                f"number from {low} to {high}", fix or f"{key} = {low}"))
        return None
    return value


def _extra_keys(raw: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> list[Problem]:
    return [Problem(f"{where} {k}", "unknown key", "keys: " + ", ".join(allowed))
            for k in raw if k not in allowed]


def plan(c: Components, state: State, player: str, orders: Mapping[str, Any]
         ) -> tuple[Plan, list[Problem], list[str]]:
    """``player``'s Player Turn orders: (the plan, every problem, the notes for the receipt:
    what is checked again when it runs)."""
    problems: list[Problem] = [Problem(f"[orders] {k}", "unknown order",
                                       "orders: " + ", ".join(KEYS))
                               for k in orders if k not in KEYS]
    notes: list[str] = []
    out = Plan()
    side = state["favour"][player]
    pp = state["pp"][player]

    # Basic Play 2A: the god goes to an Area without a god.
    area = names.area_id(c, orders.get("god"))
    taken = placed_gods(state)
    if area is None:
        problems.append(Problem("[orders] god", f"{names.shown(orders.get('god'))} is not an "
                                "Area", 'the id of an Area, e.g. god = "greece" (the report '
                                "lists them)"))
    elif area in taken:
        problems.append(Problem("[orders] god", f"{area_name(c, area)} already holds the god of "
                                f"{taken[area]} this Game Turn (Basic Play 2A)",
                                "an Area without a god: not " + ", ".join(sorted(taken))))
    else:
        out.god = area

    # Basic Move 1-12.
    at = positions(state)
    began = dict(at)
    moves, bad = _table_list(orders, "move", '[[orders.move]] then unit = 6 and path = '
                             '["2511", "2512"]')
    problems += bad
    moved: set[int] = set()
    spent = 0
    for i, raw in enumerate(moves, 1):
        where = f"[[orders.move]] {i}"
        problems += _extra_keys(raw, ("unit", "path"), where)
        unit = _int(raw, "unit", where, problems, 1, 64, "unit = 6 (the counter's number)")
        path_raw = raw.get("path")
        if unit is None:
            continue
        if kind(c, unit) != side:
            what = "Hero" if kind(c, unit) == HEROES else "Monster"
            problems.append(Problem(f"{where} unit", f"{label(c, unit)} is a {what}; you "
                                    f"favour {side} and may move only them (Basic Move 1, "
                                    "Prep 9)", f"one of your {side}"))
            continue
        if unit not in began:
            problems.append(Problem(f"{where} unit", f"{label(c, unit)} is no longer on the "
                                    "board", "a unit on the board"))
            continue
        if out.god and c.map.area_of(began[unit]) != out.god:
            problems.append(Problem(f"{where} unit", f"{label(c, unit)} began this Player Turn "
                                    f"in {area_name(c, c.map.area_of(began[unit]))}, not in "
                                    f"{area_name(c, out.god)} where you place your god (Basic "
                                    "Move 3)", "move only units of your god's Area"))
            continue
        if unit in moved:
            problems.append(Problem(f"{where} unit", f"{label(c, unit)} is moved twice",
                                    "give it one move with the whole path"))
            continue
        if not isinstance(path_raw, list) or not path_raw:
            problems.append(Problem(f"{where} path", "must be a list of one or more hexes",
                                    'path = ["2511", "2512"]'))
            continue
        path = [names.hex_id(h) for h in path_raw]
        previous = at[unit]
        ok = True
        for j, (h, written) in enumerate(zip(path, path_raw, strict=True), 1):
            if h is None or h not in c.map.hexes:
                problems.append(Problem(f"{where} path", f"step {j}: "
                                        f"{names.shown(written)} is not a hex of the map",
                                        "4-digit hex numbers, as the report prints them"))
                ok = False
                break
            if h not in c.map.neighbours(previous):
                problems.append(Problem(f"{where} path", f"step {j}: {h} is not next to "
                                        f"{previous} (Basic Move 4: hex to adjoining hex)",
                                        f"next to {previous}: "
                                        + " ".join(c.map.neighbours(previous))))
                ok = False
                break
            enemy = [u for u, x in at.items() if x == h and kind(c, u) != side]
            if enemy and j < len(path):
                problems.append(Problem(f"{where} path", f"step {j}: {h} holds "
                                        f"{label(c, enemy[0])}; a unit must stop when it "
                                        "enters a hex with opposing units (Basic Move 11)",
                                        f"end the path at {h}"))
                ok = False
                break
            previous = h
        if not ok:
            continue
        attacks = any(x == previous and kind(c, u) != side for u, x in at.items())
        move = Move(unit, tuple(p for p in path if p is not None), attacks)
        if spent + move.cost > pp:
            problems.append(Problem(where, f"costs {move.cost} Power Points (2 a hex"
                                    + (", 2 to attack" if attacks else "") + f"); you have "
                                    f"{pp - spent} left after the moves before it (Basic PP "
                                    "4-5)", "a shorter path, or fewer moves"))
            continue
        spent += move.cost
        moved.add(unit)
        at[unit] = previous
        out.moves.append(move)
    out.after = at

    # Basic Combat 1-12: fights only where units now meet opposing ones.
    mine_in = {h for u, h in at.items() if kind(c, u) == side}
    combat_hexes = {h for u, h in at.items() if kind(c, u) != side and h in mine_in}
    fights, bad = _table_list(orders, "fight", "[[orders.fight]] then attacker = 6, "
                              "defender = 40 and aid = 0")
    problems += bad
    left = pp - spent
    aid_total = 0
    per_hex: dict[str, int] = {}
    for i, raw in enumerate(fights, 1):
        where = f"[[orders.fight]] {i}"
        problems += _extra_keys(raw, ("attacker", "defender", "aid"), where)
        att = _int(raw, "attacker", where, problems, 1, 64, "attacker = 6")
        dfn = _int(raw, "defender", where, problems, 1, 64, "defender = 40")
        aid = _int(raw, "aid", where, problems, 0, POWER_POINTS, "aid = 0") \
            if "aid" in raw else 0
        if att is None or dfn is None or aid is None:
            continue
        if kind(c, att) == kind(c, dfn):
            rule = "Basic Combat 11" if kind(c, att) == HEROES else "Basic Combat 12"
            problems.append(Problem(where, f"{label(c, att)} and {label(c, dfn)} are both "
                                    f"{kind(c, att)}: {kind(c, att)} never attack "
                                    f"{kind(c, att)} ({rule})", "a Hero against a Monster"))
            continue
        if kind(c, att) != side:
            problems.append(Problem(f"{where} attacker", f"{label(c, att)} is not one of your "
                                    f"{side}", "attacker = one of your units that moved in"))
            continue
        if at.get(att) not in combat_hexes:
            problems.append(Problem(f"{where} attacker", f"{label(c, att)} is not in a hex "
                                    "with opposing units after your moves (Basic Combat 1)",
                                    "hexes with fights after your moves: "
                                    + (", ".join(sorted(combat_hexes)) or "none")))
            continue
        if at.get(dfn) != at[att]:
            problems.append(Problem(f"{where} defender", f"{label(c, dfn)} is not in "
                                    f"{at[att]} with {label(c, att)}",
                                    "a unit of that hex: " + ", ".join(
                                        str(u) for u, h in sorted(at.items())
                                        if h == at[att] and kind(c, u) != side)))
            continue
        if aid > left:
            problems.append(Problem(f"{where} aid", f"{aid} Power Points; you have {left} "
                                    "left after your moves (Basic PP 4, 5C)", f"aid = {left}"))
            continue
        aid_total += aid
        per_hex[at[att]] = per_hex.get(at[att], 0) + 1
        out.fights.append(Fight(att, dfn, aid))
    if len(out.fights) > 1 or any(n > 1 for n in per_hex.values()):
        notes.append("a fight is skipped if an earlier fight removed one of its units "
                     "(Basic Combat 5)")
    if aid_total > left:
        notes.append(f"your fights ask {aid_total} Power Points of aid and you have {left} "
                     "after your moves: a fight's aid is cut to what is left when it runs "
                     "(Basic PP 4)")
    if combat_hexes:
        notes.append("every hex where your units meet opposing units is fought out to the end "
                     "(Basic Resolution 4): after your fights, the ones still needed pair your "
                     "lowest-numbered unit there with the lowest-numbered opposing unit, "
                     "with no aid from you")

    # Basic Capture 1-8.
    prize_at = {x["hex"]: p for p, x in state["prizes"].items() if x["hex"]}
    ended = {m.unit: m.path[-1] for m in out.moves}
    captures, bad = _table_list(orders, "capture", "[[orders.capture]] then unit = 6 and "
                                "aid = 0")
    problems += bad
    tried: set[int] = set()
    for i, raw in enumerate(captures, 1):
        where = f"[[orders.capture]] {i}"
        problems += _extra_keys(raw, ("unit", "aid"), where)
        unit = _int(raw, "unit", where, problems, 1, 64, "unit = 6")
        aid = _int(raw, "aid", where, problems, 0, POWER_POINTS, "aid = 0") \
            if "aid" in raw else 0
        if unit is None or aid is None:
            continue
        if kind(c, unit) != HEROES or side != HEROES:
            problems.append(Problem(f"{where} unit", "only Hero units may attempt to capture "
                                    "Prizes, for the players who favour Heroes (Basic "
                                    "Capture 7)", "leave out [[orders.capture]]"))
            continue
        if unit not in ended or ended[unit] not in prize_at:
            problems.append(Problem(f"{where} unit", f"{label(c, unit)} does not enter a hex "
                                    "with a Prize by your moves (Basic Capture 1)",
                                    "move him into a Prize's hex first; Prizes: " + ", ".join(
                                        f"{c.prizes[p].name} {h}"
                                        for h, p in sorted(prize_at.items()))))
            continue
        if unit in tried:
            problems.append(Problem(f"{where} unit", f"{label(c, unit)} may make only one "
                                    "attempt per Player Turn (Basic Capture 8)",
                                    "one [[orders.capture]] per Hero"))
            continue
        if aid > left:
            problems.append(Problem(f"{where} aid", f"{aid} Power Points; you have {left} "
                                    "left after your moves (Basic PP 4, 5C)", f"aid = {left}"))
            continue
        tried.add(unit)
        aid_total += aid
        out.captures.append(Capture(unit, aid))
        if ended[unit] in combat_hexes:
            notes.append(f"{label(c, unit)} tries his capture only if he wins the fights in "
                         f"{ended[unit]} first (Basic Capture 2)")
    if out.captures and aid_total > left:
        notes.append(f"your fights and captures ask {aid_total} Power Points of aid and you "
                     f"have {left} after your moves: the aid of the later ones is cut to what "
                     "is left (Basic PP 4)")

    if "allies" in orders:
        bad = alliances.problems(state, player, orders["allies"])
        problems += bad
        if not bad:
            out.allies = list(orders["allies"])
    if "defend" in orders:
        out.policy, bad = defence.parse(orders["defend"])
        problems += bad
    return out, problems, notes


# --- resolution --------------------------------------------------------------------------


class Turn:
    """Plays one Player Turn on ``state`` (in place), collecting the events."""

    def __init__(self, c: Components, state: State, player: str, stream: Stream) -> None:
        self.c, self.state, self.player, self.stream = c, state, player, stream
        self.t = state["turn"]
        self.side = state["favour"][player]
        self.events: list[Event] = []
        self.private: list[Event] = []

    def say(self, kind_: str, text: str, **fields: Any) -> None:
        self.events.append({"type": kind_, **fields, "text": text})

    def spend(self, player: str, amount: int) -> None:
        self.state["pp"][player] -= amount
        assert self.state["pp"][player] >= 0

    def play(self, p: Plan) -> None:
        c, s = self.c, self.state
        s["god_area"][self.player] = p.god
        god = c.gods[s["gods"][self.player]].name
        self.say("god", f"{self.player} places {god} in {area_name(c, p.god)} (Basic Play 2A).",
                 player=self.player, area=p.god)
        if p.allies is not None:
            self.events += alliances.declare(s, self.player, p.allies)
        if p.policy is not None:
            s["policy"][self.player] = p.policy
            self.private.append({"type": "policy", "policy": p.policy, "text":
                                 "Your defence policy is now: " + defence.describe(p.policy)
                                 + "."})
        for m in p.moves:  # Basic Move 10: all movement first
            self.move(m)
        for k, f in enumerate(p.fights, 1):
            self.listed_fight(k, f)
        self.remaining_fights(len(p.fights))
        for cap in p.captures:
            self.capture(cap)
        left = s["pp"][self.player]
        self.say("pp", f"{self.player} has {left} Power Point{'' if left == 1 else 's'} left "
                 "this Game Turn (Basic PP 3).", player=self.player, left=left)

    def units_at(self, hex_id: str, side: str) -> list[int]:
        return sorted(int(u) for u, h in self.state["units"].items()
                      if h == hex_id and kind(self.c, int(u)) == side)

    def move(self, m: Move) -> None:
        c = self.c
        start = self.state["units"][str(m.unit)]
        self.state["units"][str(m.unit)] = m.path[-1]
        self.spend(self.player, m.cost)
        attack = (f", attacking: {m.cost} Power Points ({HEX_COST} a hex, Basic PP 5A; "
                  f"{ATTACK_COST} to attack, PP 5B, Combat 2)" if m.attacks else
                  f": {m.cost} Power Points ({HEX_COST} a hex, Basic PP 5A)")
        self.say("move", f"{label(c, m.unit)} moves {'-'.join((start, *m.path))}{attack}.",
                 unit=m.unit,
                 path=list(m.path), cost=m.cost, attacks=m.attacks)

    def listed_fight(self, k: int, f: Fight) -> None:
        c, units = self.c, self.state["units"]
        ha, hd = units[str(f.attacker)], units[str(f.defender)]
        if not ha or not hd or ha != hd:
            gone = f.attacker if not ha else f.defender
            self.say("fight-skipped", f"Fight {k}, {label(c, f.attacker)} against "
                     f"{label(c, f.defender)}, does not take place: {label(c, gone)} is gone "
                     "(Basic Combat 5).", unit=gone)
            return
        self.fight(f"fight{k}", f.attacker, f.defender, f.aid)

    def remaining_fights(self, listed: int) -> None:
        """Basic Resolution 4: combat goes on in each hex until no opposing units are left."""
        k = listed
        hexes = sorted({h for h in self.state["units"].values() if h
                        and self.units_at(h, self.side) and self.units_at(h, other(self.side))})
        for h in hexes:
            while self.units_at(h, self.side) and self.units_at(h, other(self.side)):
                k += 1
                att, dfn = self.units_at(h, self.side)[0], self.units_at(h, other(self.side))[0]
                self.fight(f"fight{k}", att, dfn, 0, default=True)

    def fight(self, key: str, att: int, dfn: int, aid: int, *, default: bool = False) -> None:
        """Basic Combat 7-10 and Resolution 1-3: both sides' aid, then two dice each plus aid,
        again on a tie, the loser removed and scored by the winner (Basic Win 1A)."""
        c, s, t = self.c, self.state, self.t
        hex_id = s["units"][str(att)]
        asked = aid
        aid = min(aid, s["pp"][self.player])
        self.spend(self.player, aid)
        side = other(self.side)
        defenders = [p for p in s["order"] if s["favour"][p] == side]
        opp, d_aid = defence.answer(s["policy"], s["pp"], defenders, aid)
        self.spend(opp, d_aid)
        rolls = []
        r = 0
        while True:
            r += 1
            a = self.stream.sum_d6(2, f"t{t:02d}/{self.player}/{key}/r{r}/attacker")
            d = self.stream.sum_d6(2, f"t{t:02d}/{self.player}/{key}/r{r}/defender")
            rolls.append(f"{a}+{aid}={a + aid} against {d}+{d_aid}={d + d_aid}")
            if a + aid != d + d_aid:
                break
        won = a + aid > d + d_aid
        loser, winner_player = (dfn, self.player) if won else (att, opp)
        s["units"][str(loser)] = ""
        put_sorted(s["removed"], str(loser), {"by": winner_player, "turn": t})
        scoring.add(s, winner_player, Fraction(scoring.UNIT_VP))
        cut = f" (cut from {asked}: Power Points left)" if asked != aid else ""
        how = " (the fight the rules still require, Basic Resolution 4)" if default else ""
        self.say("fight", f"In {hex_id}, {self.player}'s {label(c, att)} fights "
                 f"{label(c, dfn)}{how}; aid {aid}{cut} against {d_aid} from {opp}: "
                 + "; tie, again: ".join(rolls) + f". {label(c, loser)} is removed; "
                 f"{winner_player} +{scoring.UNIT_VP} VP (Basic Resolution 1-3, Win 1A).",
                 hex=hex_id, attacker=att, defender=dfn, aid=aid, defender_player=opp,
                 defender_aid=d_aid, removed=loser, vp_to=winner_player)

    def capture(self, cap: Capture) -> None:
        """Basic Capture 1-8: two dice plus aid, more than ten takes the Prize (+3 VP)."""
        c, s = self.c, self.state
        hex_id = s["units"][str(cap.unit)]
        prize = next((p for p, x in s["prizes"].items() if x["hex"] and x["hex"] == hex_id),
                     None)
        if not hex_id or prize is None:
            self.say("capture-skipped", f"{label(c, cap.unit)} makes no capture attempt: he "
                     "fell in combat (Basic Capture 2).", unit=cap.unit)
            return
        asked = cap.aid
        aid = min(cap.aid, s["pp"][self.player])
        self.spend(self.player, aid)
        roll = self.stream.sum_d6(2, f"t{self.t:02d}/{self.player}/capture/{cap.unit}")
        total = roll + aid
        cut = f" (cut from {asked}: Power Points left)" if asked != aid else ""
        name = c.prizes[prize].name
        if total > CAPTURE_OVER:
            s["prizes"][prize] = {"hex": "", "by": self.player, "turn": self.t}
            scoring.add(s, self.player, Fraction(scoring.PRIZE_VP))
            self.say("capture", f"{label(c, cap.unit)} tries to capture {name} in {hex_id}: "
                     f"{roll}+{aid}{cut}={total}, more than ten: captured; {self.player} "
                     f"+{scoring.PRIZE_VP} VP (Basic Capture 4-5, Win 1B).", unit=cap.unit,
                     prize=prize, roll=roll, aid=aid, captured=True)
        else:
            self.say("capture", f"{label(c, cap.unit)} tries to capture {name} in {hex_id}: "
                     f"{roll}+{aid}{cut}={total}, ten or less: the Prize stays (Basic Capture "
                     "6).", unit=cap.unit, prize=prize, roll=roll, aid=aid, captured=False)


def start_game_turn(state: State, stream: Stream, turn: int) -> list[Event]:
    """Basic Play 2A, PP 2: the gods taken up and drawn in a new order, every player back to
    15 Power Points."""
    state["turn"] = turn
    state["order"] = stream.shuffle(list(state["seats"]), f"t{turn:02d}/order")
    state["cursor"] = 0
    state["pp"] = dict.fromkeys(state["seats"], POWER_POINTS)
    state["god_area"] = dict.fromkeys(state["seats"], "")
    return [{"type": "game-turn", "turn": turn, "order": state["order"], "text":
             f"Game Turn {turn} of {LAST_TURN}: the god counters are drawn in the order "
             + ", ".join(state["order"]) + f" (Basic Play 2A); every player has "
             f"{POWER_POINTS} Power Points (Basic PP 2)."}]


def default_god(c: Components, state: State, player: str) -> str:
    """NMR: the god goes to the Area without a god that holds the most units the player
    favours (ties: the Area first by id); nothing moves (Basic Move 7)."""
    taken = placed_gods(state)
    side = state["favour"][player]
    count: dict[str, int] = {}
    for u, h in positions(state).items():
        if kind(c, u) == side:
            a = c.map.area_of(h)
            count[a] = count.get(a, 0) + 1
    free = [a for a in sorted(c.map.areas) if a not in taken]
    return max(free, key=lambda a: (count.get(a, 0), -free.index(a)))

"""The Log Sheet (006, 007, 009): each god's secret allocation of Power Points for one turn.

By email the Log Sheet notation Phase (202 B 1) is one sealed order per player, revealed to
everyone at the end of the game (009 C). The same sealed order carries what the player decides
before anything is revealed: the card placed face down in the Playing Card determination Phase
(202 B 2, 010 E 1: nothing is revealed between phases 1 and 2), an optional standing choice of
Area for the God Placement Phase (203), and standing challenge orders for the Moving Player
Phases (209), which by email cannot be given live.

Rule 009 B's fifty-point penalty for misstating points cannot arise: the adjudicator reads the
signed Log Sheet itself, so a player can never announce more than they allocated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.errors import Problem
from pbem.games.mythology import names
from pbem.games.mythology.components import HERO_IDS, MONSTER_IDS, load
from pbem.games.mythology.prayer import Offer

MAX_POWER_POINTS = 10  # 007 B, 007 F
OCCURRENCE_CODES = ("E", "T", "V", "P", "Pe", "F")  # 009 E 2
KNOWN_KEYS = ("card", "area", "heroes", "monsters", "occurrences", "aid", "ailment", "zeus",
              "challenge", "use", "intercept", "oracle", "prayer", "sacrifice")
USE_MOMENTS = ("combat", "challenge")
BRIBE_KEY = "bribe"  # Optional Rule 301 only: Glory given to the Zeus player (301 C c)


@dataclass(frozen=True)
class Occurrence:
    code: str
    points: int


@dataclass(frozen=True)
class ChallengeOrder:
    """209, as a standing order: challenge attempts to move ``unit``.

    ``limit`` is the most the player will announce (never more than they have available,
    209 D 1); ``min_total`` makes the challenge conditional on the player's own total.
    """

    unit: int
    limit: int
    min_total: int = 0


@dataclass(frozen=True)
class Use:
    """010 E 2, 011 E as a standing order: when ``unit`` is in a ``when`` (combat or challenge)
    during any Moving Player Phase, use ``what``: ``"card"`` (the god section of the face-down
    card) or ``"power:<id>"`` (a power of the player's god) on it."""

    what: str
    when: str
    unit: int


@dataclass(frozen=True)
class Intercept:
    """205 I as a standing order: when another Moving Player moves a unit into or through the
    hex of ``unit`` (which this player Controls), ``unit`` attacks it at once; ``target`` 0
    means any unit it may fight, otherwise only that unit."""

    unit: int
    target: int = 0


@dataclass(frozen=True)
class LogSheet:
    """One player's Log Sheet line for one game Turn."""

    heroes: Mapping[int, int] = field(default_factory=dict)      # 009 D: the C line
    monsters: Mapping[int, int] = field(default_factory=dict)    # 009 E 1
    occurrences: tuple[Occurrence, ...] = ()                     # 009 E 2
    aid: Mapping[int, int] = field(default_factory=dict)         # 009 E 3, "+id"
    ailment: Mapping[int, int] = field(default_factory=dict)     # 009 E 3, "-id"
    zeus: int = 0                                                # 009 E 4
    card: str = ""                                               # 202 B 2
    area: str = ""                                               # 203, standing
    challenges: tuple[ChallengeOrder, ...] = ()                  # 209, standing
    uses: tuple[Use, ...] = ()                                   # 010 E 2, 011 E, standing
    intercepts: tuple[Intercept, ...] = ()                       # 205 I, standing
    oracle: bool = True                                          # 010 E 6, standing
    offers: tuple[Offer, ...] = ()                               # 302 C, Optional Rule
    bribe: int = 0                                               # 301 C c, Optional Rule

    @property
    def power_points(self) -> int:
        """Everything 007 E lets a god spend Power Points on this turn."""
        return (sum(self.heroes.values()) + sum(self.monsters.values())
                + sum(o.points for o in self.occurrences) + sum(self.aid.values())
                + sum(self.ailment.values()) + self.zeus)

    def as_dict(self) -> dict[str, Any]:
        """Plain data for the game state (JSON object keys are strings)."""
        return {
            "heroes": {str(k): v for k, v in sorted(self.heroes.items())},
            "monsters": {str(k): v for k, v in sorted(self.monsters.items())},
            "occurrences": [{"code": o.code, "points": o.points} for o in self.occurrences],
            "aid": {str(k): v for k, v in sorted(self.aid.items())},
            "ailment": {str(k): v for k, v in sorted(self.ailment.items())},
            "zeus": self.zeus, "card": self.card, "area": self.area,
            "challenges": [{"unit": c.unit, "limit": c.limit, "min_total": c.min_total}
                           for c in self.challenges],
            "uses": [{"what": u.what, "when": u.when, "unit": u.unit} for u in self.uses],
            "intercepts": [{"unit": i.unit, "target": i.target} for i in self.intercepts],
            "oracle": self.oracle,
            "offers": [o.as_dict() for o in self.offers],
        } | ({"bribe": self.bribe} if self.bribe else {})  # only in a game with a Zeus (301)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LogSheet:
        return cls(
            heroes={int(k): int(v) for k, v in data.get("heroes", {}).items()},
            monsters={int(k): int(v) for k, v in data.get("monsters", {}).items()},
            occurrences=tuple(Occurrence(o["code"], o["points"])
                              for o in data.get("occurrences", [])),
            aid={int(k): int(v) for k, v in data.get("aid", {}).items()},
            ailment={int(k): int(v) for k, v in data.get("ailment", {}).items()},
            zeus=int(data.get("zeus", 0)), card=str(data.get("card", "")),
            area=str(data.get("area", "")),
            challenges=tuple(ChallengeOrder(c["unit"], c["limit"], c.get("min_total", 0))
                             for c in data.get("challenges", data.get("challenge", []))),
            uses=tuple(Use(u["what"], u["when"], u["unit"])
                       for u in data.get("uses", data.get("use", []))),
            intercepts=tuple(Intercept(i["unit"], i.get("target", 0))
                             for i in data.get("intercepts", data.get("intercept", []))),
            oracle=bool(data.get("oracle", True)),
            offers=tuple(Offer.from_dict(o) for o in data.get("offers", [])),
            bribe=int(data.get("bribe", 0)),
        )


def _points(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10


def _unit_table(orders: Mapping[str, Any], key: str, ids: range, what: str,
                problems: list[Problem], rule: str) -> dict[int, int]:
    table = orders.get(key, {})
    if not isinstance(table, dict):
        problems.append(Problem(f"[orders.{key}]", "must be a table of id = points",
                                f"write [orders.{key}] and lines like 12 = 3"))
        return {}
    out: dict[int, int] = {}
    for raw, value in table.items():
        where = f"[orders.{key}] {raw}"
        if not raw.isdigit() or int(raw) not in ids:
            problems.append(Problem(where, f"is not a {what} number ({ids.start}-{ids.stop - 1})",
                                    f"use the {what}'s identification number ({rule})"))
        elif not _points(value):
            problems.append(Problem(where, "Power Points must be a whole number from 1 to 10",
                                    "leave the line out to spend nothing"))
        else:
            out[int(raw)] = value
    return out


def parse(orders: Mapping[str, Any], *, hand: Sequence[str], areas: Sequence[str],
          powers: Sequence[str] = (), prayer: bool = False,
          zeus_player: bool = False) -> tuple[LogSheet, list[Problem]]:
    """Read a Log Sheet order; every problem at once (an empty list means it is legal).
    ``prayer``: Optional Rule 302 is in play; ``zeus_player``: Optional Rule 301 (``bribe``)."""
    problems: list[Problem] = []
    for key in orders:
        if key == BRIBE_KEY:
            continue
        if key not in KNOWN_KEYS:
            problems.append(Problem(f"[orders] {key}", "unknown entry on the Log Sheet",
                                    "the Log Sheet has " + ", ".join(KNOWN_KEYS)))
    heroes = _unit_table(orders, "heroes", HERO_IDS, "Hero", problems, "009 D")
    monsters = _unit_table(orders, "monsters", MONSTER_IDS, "Monster", problems, "009 E 1")
    aid = _unit_table(orders, "aid", HERO_IDS, "Hero", problems, "009 E 3, 207 A 1")
    ailment = _unit_table(orders, "ailment", HERO_IDS, "Hero", problems, "009 E 3, 207 A 1")
    occurrences: list[Occurrence] = []
    raw_occ = orders.get("occurrences", [])
    if not isinstance(raw_occ, list):
        problems.append(Problem("[[orders.occurrences]]", "must be a list of tables",
                                "write each one as [[orders.occurrences]] with code and points"))
        raw_occ = []
    for i, occ in enumerate(raw_occ):
        where = f"[[orders.occurrences]] #{i + 1}"
        if not isinstance(occ, dict) or set(occ) - {"code", "points"}:
            problems.append(Problem(where, "takes exactly code and points",
                                    'write code = "E" and points = 3'))
            continue
        code = names.occurrence_code(occ.get("code"))
        if code is None:
            problems.append(Problem(f"{where} code", f"{names.shown(occ.get('code'))} is not a "
                                    "Divine Occurrence code",
                                    "one of " + ", ".join(OCCURRENCE_CODES) + " (009 E 2)"))
        elif not _points(occ.get("points")):
            problems.append(Problem(f"{where} points", "must be a whole number from 1 to 10"))
        else:
            occurrences.append(Occurrence(code, occ["points"]))
    zeus = orders.get("zeus", 0)
    if not isinstance(zeus, int) or isinstance(zeus, bool) or not 0 <= zeus <= 10:
        problems.append(Problem("[orders] zeus", "must be a whole number from 0 to 10",
                                "Power Points given To the Glory of Zeus (009 E 4)"))
        zeus = 0
    raw_card = orders.get("card", "")
    card = names.card_id(raw_card)  # 24 is read as "24", the card id the form writes
    if card is None or (card and card not in hand):
        problems.append(Problem("[orders] card", f"{names.shown(raw_card)} is not a card in your "
                                "hand", "your hand: " + (", ".join(f'"{h}"' for h in hand)
                                                         or "empty") + '; card = "" places none'))
        card = ""
    raw_area = orders.get("area", "")
    area = "" if raw_area == "" else area_in(raw_area, areas)
    if area is None:
        problems.append(Problem("[orders] area", f"{names.shown(raw_area)} is not an Area of the "
                                "map",
                                'write area = "" to choose in your God Placement phase (203)'))
        area = ""
    challenges: list[ChallengeOrder] = []
    raw_ch = orders.get("challenge", [])
    if not isinstance(raw_ch, list):
        problems.append(Problem("[[orders.challenge]]", "must be a list of tables",
                                "write each one as [[orders.challenge]]"))
        raw_ch = []
    for i, ch in enumerate(raw_ch):
        where = f"[[orders.challenge]] #{i + 1}"
        if not isinstance(ch, dict) or set(ch) - {"unit", "limit", "min_total"}:
            problems.append(Problem(where, "takes unit, limit and optionally min_total"))
            continue
        unit, limit, floor = ch.get("unit"), ch.get("limit"), ch.get("min_total", 0)
        if not names.is_int(unit) or (unit not in HERO_IDS and unit not in MONSTER_IDS):
            problems.append(Problem(f"{where} unit", "must be a Hero (1-32) or Monster (33-64) "
                                    "number"))
        elif not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            problems.append(Problem(f"{where} limit", "must be a whole number of Power Points "
                                    "(0 or more)", "the most you will announce (209 D 2)"))
        elif not isinstance(floor, int) or isinstance(floor, bool) or floor < 0:
            problems.append(Problem(f"{where} min_total", "must be a whole number (0 or more)"))
        else:
            challenges.append(ChallengeOrder(unit, limit, floor))
    uses: list[Use] = []
    for i, u in enumerate(_list(orders, "use", problems)):
        where = f"[[orders.use]] #{i + 1}"
        what, when, unit = u.get("what"), names.choice(u.get("when"), USE_MOMENTS), u.get("unit")
        if isinstance(what, str) and what.casefold().startswith("power:"):
            what = "power:" + (names.choice(what[6:], powers) or what[6:])
        elif isinstance(what, str) and what.casefold() == "card":
            what = "card"
        if set(u) - {"what", "when", "unit"}:
            problems.append(Problem(where, "takes what, when and unit"))
        elif what != "card" and not (isinstance(what, str) and what.startswith("power:")
                                     and what.removeprefix("power:") in powers):
            problems.append(Problem(f"{where} what", f"{what!r} is neither \"card\" nor one "
                                    "of your god's powers", "write what = \"card\" or "
                                    + ", ".join(f'"power:{p}"' for p in powers)))
        elif when not in USE_MOMENTS:
            problems.append(Problem(f"{where} when", "must be \"combat\" or \"challenge\""))
        elif not names.is_int(unit) or (unit not in HERO_IDS and unit not in MONSTER_IDS):
            problems.append(Problem(f"{where} unit", "must be a Hero or Monster number"))
        elif what == "card" and not card:
            problems.append(Problem(where, "uses the face-down card, but card is empty",
                                    "place a card with card = \"N\" (010 E 1)"))
        else:
            uses.append(Use(what, when, unit))
    intercepts: list[Intercept] = []
    for i, x in enumerate(_list(orders, "intercept", problems)):
        where = f"[[orders.intercept]] #{i + 1}"
        unit, target = x.get("unit"), x.get("target", 0)
        if set(x) - {"unit", "target"} or not names.is_int(unit) or (
                unit not in HERO_IDS and unit not in MONSTER_IDS):
            problems.append(Problem(where, "takes unit (a Hero or Monster number) and target",
                                    "target = 0 for any unit"))
        elif not names.is_int(target) or not 0 <= target <= 64:
            problems.append(Problem(f"{where} target", "must be 0 or a unit number"))
        else:
            intercepts.append(Intercept(unit, target))
    offers: list[Offer] = []
    for kind in ("prayer", "sacrifice"):
        for i, o in enumerate(_list(orders, kind, problems)):
            where = f"[[orders.{kind}]] #{i + 1}"
            if not prayer:
                problems.append(Problem(where, "Optional Rule 302 (Prayer and Sacrifice) is not "
                                        "in play in this campaign", "remove it"))
                continue
            keys = {"glory", "hero"} | ({"helpers", "prizes"} if kind == "sacrifice" else set())
            glory, hero = o.get("glory", 0), o.get("hero")
            helpers, prizes = o.get("helpers", []), o.get("prizes", [])
            if set(o) - keys:
                problems.append(Problem(where, "takes " + ", ".join(sorted(keys))))
            elif not names.is_int(hero) or hero not in HERO_IDS:
                problems.append(Problem(f"{where} hero", "the Hero to protect (302 E)"))
            elif not isinstance(glory, int) or isinstance(glory, bool) or glory < 0:
                problems.append(Problem(f"{where} glory", "Glory Points, a whole number"))
            elif not (isinstance(helpers, list) and isinstance(prizes, list)):
                problems.append(Problem(where, "helpers and prizes are lists of ids"))
            else:
                offer = Offer(kind, glory, hero, tuple(map(str, helpers)), tuple(map(str, prizes)))
                if kind == "prayer" and glory < 1:
                    problems.append(Problem(f"{where} glory", "a Prayer spends at least 1 Glory"))
                elif kind == "sacrifice" and offer.worth() <= 3:
                    problems.append(Problem(where, "Sacrifices of three or less are not "
                                            "acceptable (302 D)", "offer 4 or more"))
                else:
                    offers.append(offer)
    bribe = orders.get(BRIBE_KEY, 0)
    if BRIBE_KEY in orders and not zeus_player:
        problems.append(Problem("[orders] bribe", "Optional Rule 301 (a Zeus player) is not in "
                                "play in this campaign", "remove it"))
        bribe = 0
    elif not isinstance(bribe, int) or isinstance(bribe, bool) or bribe < 0:
        problems.append(Problem("[orders] bribe", "must be a whole number of Glory Points, 0 "
                                "or more", "Glory given to Zeus at once (301 C c)"))
        bribe = 0
    oracle = orders.get("oracle", True)
    if not isinstance(oracle, bool):
        problems.append(Problem("[orders] oracle", "must be true or false"))
        oracle = True
    sheet = LogSheet(heroes, monsters, tuple(occurrences), aid, ailment, zeus, card, area,
                     tuple(challenges), tuple(uses), tuple(intercepts), oracle, tuple(offers),
                     bribe)
    if sheet.power_points > MAX_POWER_POINTS:
        problems.append(Problem("[orders]", f"allocates {sheet.power_points} Power Points; a god "
                                f"has {MAX_POWER_POINTS} per game Turn (007 B)",
                                "reduce some allocations"))
    return sheet, problems


def area_in(value: Any, areas: Sequence[str]) -> str | None:
    """One of ``areas`` named by id or printed name, any case ("Egypt"); None if none."""
    found = names.choice(value, areas)
    if found is None:
        found = names.area_id(load(), value)
    return found if found in areas else None


def _list(orders: Mapping[str, Any], key: str, problems: list[Problem]) -> list[dict[str, Any]]:
    raw = orders.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(x, dict) for x in raw):
        problems.append(Problem(f"[[orders.{key}]]", "must be a list of tables",
                                f"write each one as [[orders.{key}]]"))
        return []
    return raw


def notation(turn: int, sheet: LogSheet, previous_totals: Mapping[int, int]) -> dict[str, Any]:
    """The paper sheet's lines for one turn (006 C, 009 D-E): C and T per Hero, and the
    Monsters / Divine Occurrences / Aid-Ailment / Zeus entries as written on the sheet."""
    totals = {h: previous_totals.get(h, 0) + c for h, c in sheet.heroes.items()}
    entries = ([(str(m), p) for m, p in sorted(sheet.monsters.items())]
               + [(o.code, o.points) for o in sheet.occurrences]
               + [(f"+{h}", p) for h, p in sorted(sheet.aid.items())]
               + [(f"-{h}", p) for h, p in sorted(sheet.ailment.items())]
               + ([("Z", sheet.zeus)] if sheet.zeus else [])
               + ([("Bribe", sheet.bribe)] if sheet.bribe else []))
    return {"turn": turn,
            "C": {str(h): c for h, c in sorted(sheet.heroes.items())},
            "T": {str(h): t for h, t in sorted(totals.items())},
            "entries": [{"C": c, "T": t} for c, t in entries]}

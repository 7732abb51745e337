"""Cyclades battle (seed 003, Battle 1-2, Forgotten 8, Misc Artifacts and Heroes 4, Misc Titans 1,
Misc Egyptian Reinforcements 2, Misc Necropolis 2), as a pure library.

One call, :func:`fight`, resolves a whole battle on one territory or sea space: each round both
sides roll the combat die (faces 0,1,1,2,2,3) and add their strength; the lower total loses one
unit, a tie costs both one; after each round's casualties the attacker, then the defender, may
retreat. Nobody is at the table by email, so the choices a player makes during a battle at the
table (which unit to lose, when to retreat) come from standing orders given before it:
a casualty order per side and a :class:`RetreatRule` from a small vocabulary parsed by
:func:`parse_retreat`. ``docs/games/cyclades.md`` (battle section) lists every interpretation.

Pure: no I/O, no clock, no ``random``. Every die is drawn through
:meth:`pbem.core.dice.Stream.faces` under ``battle/<where>/r<round>/<attacker|defender>``, the
attacker's die first, and appears in the events with its label.

What the caller decides and passes in, not this module:

* which units are in the battle, whose they are and their ids (a Fleet that meets enemies while
  moving stops there, Forgotten 9);
* whether a battle may be fought at all (Forgotten 6: a player's only territory);
* how many Fortresses and Metropolises stand on the territory and how many Ports count for a sea
  battle (Battle 1.1, 1.2), and any other modifier by name (a creature, a magic item):
  ``bonuses=[("minotaur", 1)]``, so this module needs no knowledge of creatures;
* whether a side has somewhere to retreat to (Battle 2: an adjacent or Fleet-linked territory it
  controls; Fleets to an empty adjacent sea space): ``Side.can_retreat``;
* what happens afterwards: moving the survivors, control markers, buildings changing hands, gold
  on a Necropolis (:meth:`BattleResult.regular_troops_lost`, Misc Necropolis 2).

Interpretations where the seed is silent (also in the docs):

* Forgotten 8: a defender with no units at all (Fortresses alone do not fight) is defenceless:
  no dice are rolled, the attacker takes the place (:attr:`BattleResult.defenseless`).
* Battle 1: both sides losing their last unit in the same tie. Base rules, as we know them: the
  territory stays with the defender, now without Troops (defenceless); a sea space with no Fleets
  belongs to nobody. ``winner`` is None and :attr:`BattleResult.holder` says who keeps it.
* Battle 2 puts the offense first ("if the offense declines, the defense may choose"); the
  published base rules ask the defender first. The seed is followed.
* Casualties: the default order loses undead first (they leave the board at Cycle 9 anyway and
  their loss puts no gold on a Necropolis), then regular Troops, Egyptian reinforcements, Heroes
  (their sacrifice power dies with them, Misc Artifacts and Heroes 5) and Titans last.
* Retreat rules are checked after every round, never before the first roll (Battle 2: "after
  the results and casualties of each die roll").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pbem.core.dice import CYCLADES_COMBAT_DIE
from pbem.core.errors import Problem, ProblemsError

# Unit kinds. Land: each counts one in battle (Battle 1; Misc Artifacts and Heroes 4 "Heroes
# count as a Troop in combat"; Misc Titans 1 "count as one Troop for battle"; Misc Egyptian
# Reinforcements 2 "considered a Troop"; Hades' undead are Troops until Cycle 9 removes them).
TROOP = "troop"
UNDEAD = "undead"
EGYPTIAN = "egyptian"
HERO = "hero"
TITAN = "titan"
# Sea: Fleets, and Hades' undead Fleets (Cycle 9 removes "undead Troops and Fleets").
FLEET = "fleet"
UNDEAD_FLEET = "undead_fleet"

LAND_KINDS = (TROOP, UNDEAD, EGYPTIAN, HERO, TITAN)
SEA_KINDS = (FLEET, UNDEAD_FLEET)

#: Default casualty orders: the first kind listed that a side still has loses a unit. Undead go
#: first: Cycle 9 removes them anyway and Misc Necropolis 2 gives no gold for them, so losing
#: one costs its owner nothing beyond this battle. Then regular Troops (cheap to recruit again),
#: Egyptian reinforcements (a special attack each), Heroes (a sacrifice power, lost if killed,
#: Misc Artifacts and Heroes 5) and Titans (a Kronos piece, no upkeep) last.
DEFAULT_LAND_ORDER = (UNDEAD, TROOP, EGYPTIAN, HERO, TITAN)
DEFAULT_SEA_ORDER = (UNDEAD_FLEET, FLEET)

ATTACKER = "attacker"
DEFENDER = "defender"

#: ``where`` becomes part of every draw label; leave room for "battle/" and "/r<n>/defender".
_WHERE = re.compile(r"[\x21-\x7e]{1,150}")


class FaceRoller(Protocol):
    """What :func:`fight` needs of a stream: :meth:`pbem.core.dice.Stream.faces`."""

    def faces(self, faces: Sequence[int], label: str) -> int: ...


# ---------------------------------------------------------------------------------------------
# Standing orders: retreat rules and casualty orders
# ---------------------------------------------------------------------------------------------

NEVER = "never"
AT_MOST = "at_most"
BEHIND = "behind"
AFTER_ROUNDS = "after_rounds"

#: The retreat vocabulary: ``when`` and the one number key each value needs.
RETREAT_WHEN: dict[str, str | None] = {
    NEVER: None,
    AT_MOST: "units",
    BEHIND: "by",
    AFTER_ROUNDS: "rounds",
}

_RETREAT_HINT = ('write one of: {when = "never"}, {when = "at_most", units = 1}, '
                 '{when = "behind", by = 2}, {when = "after_rounds", rounds = 2}')


@dataclass(frozen=True)
class RetreatRule:
    """A side's standing retreat order, checked after every round's casualties (Battle 2).

    * ``never``: fight to the end (the default for both sides);
    * ``at_most`` ``units = N``: retreat once I have at most N units left in this battle;
    * ``behind`` ``by = N``: retreat once the enemy has at least N more units than I;
    * ``after_rounds`` ``rounds = N``: retreat once N rounds have been fought.

    Counts are units (Troops, Heroes, ... or Fleets), not totals: buildings and bonuses do not
    count, so a player can reason about the rule without knowing the enemy's modifiers.
    """

    when: str = NEVER
    n: int = 0  # the value of the key RETREAT_WHEN[when]; unused for "never"
    #: Where to retreat, first choice first (territories, or seas for fleets); the first
    #: one open when the retreat comes is taken, else the adjudicator's default (Battle 2:
    #: the retreating player picks among the territories, or seas, allowed).
    to: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.when not in RETREAT_WHEN:
            raise ValueError(f"retreat rule: unknown when {self.when!r}")
        if self.when != NEVER and self.n < 1:
            raise ValueError(f"retreat rule {self.when}: the number must be at least 1")

    def wants(self, mine: int, theirs: int, rounds: int) -> bool:
        """Whether the rule asks to retreat now: ``mine``/``theirs`` units left, ``rounds``
        rounds fought so far in this battle."""
        if self.when == AT_MOST:
            return mine <= self.n
        if self.when == BEHIND:
            return theirs - mine >= self.n
        if self.when == AFTER_ROUNDS:
            return rounds >= self.n
        return False

    def as_dict(self) -> dict[str, Any]:
        """The rule as the player writes it (plain data for events and stored state)."""
        key = RETREAT_WHEN[self.when]
        out: dict[str, Any] = ({"when": self.when} if key is None
                               else {"when": self.when, key: self.n})
        if self.to:
            out["to"] = list(self.to)
        return out

    def describe(self) -> str:
        if self.when == AT_MOST:
            return f"retreat when at most {self.n} unit{'s' if self.n != 1 else ''} left"
        if self.when == BEHIND:
            return f"retreat when the enemy has {self.n} or more units than I"
        if self.when == AFTER_ROUNDS:
            return f"retreat after {self.n} round{'s' if self.n != 1 else ''}"
        return "never retreat"


NEVER_RETREAT = RetreatRule()


def _is_int(value: object) -> bool:
    # TOML booleans are Python bools, which are ints: "units = true" is a mistake, not 1.
    return isinstance(value, int) and not isinstance(value, bool)


def parse_retreat(raw: object, where: str) -> RetreatRule:
    """Read a retreat standing order (a TOML table such as ``{when = "at_most", units = 1}``).

    ``where`` names the table as the player sees it, e.g. ``[orders.retreat]``; each problem
    names the key in it (``[orders.retreat] when``) and how to fix it. All problems are reported
    at once in a :class:`ProblemsError`. ``None`` (no order given) is :data:`NEVER_RETREAT`.
    """
    if raw is None:
        return NEVER_RETREAT
    if not isinstance(raw, Mapping):
        raise ProblemsError([Problem(where, f"must be a table, got {type(raw).__name__}",
                                     _RETREAT_HINT)])
    problems: list[Problem] = []
    when = raw.get("when")
    if when is None:
        problems.append(Problem(f"{where} when", "missing", _RETREAT_HINT))
    elif not isinstance(when, str) or when not in RETREAT_WHEN:
        problems.append(Problem(f"{where} when", f"unknown value {when!r}",
                                "use one of " + ", ".join(f'"{w}"' for w in RETREAT_WHEN)))
    needed = RETREAT_WHEN.get(when) if isinstance(when, str) else None
    number_keys = {k for k in RETREAT_WHEN.values() if k is not None}
    to: tuple[str, ...] = ()
    if "to" in raw:
        places = raw["to"]
        if not isinstance(places, list) or not all(isinstance(x, str) for x in places):
            problems.append(Problem(f"{where} to", "must be a list of names",
                                    'write to = ["paros"] (first choice first)'))
        else:
            to = tuple(places)
    for key in raw:
        if key in ("when", "to") or key == needed:
            continue
        if key in number_keys and isinstance(when, str) and when in RETREAT_WHEN:
            problems.append(Problem(f"{where} {key}", f'not used with when = "{when}"',
                                    f"remove {key}" + (f" or use {needed}" if needed else "")))
        elif key not in number_keys:
            problems.append(Problem(f"{where} {key}", "unknown key",
                                    "the keys are when, units, by, rounds and to"))
    n = 0
    if needed is not None:
        value = raw.get(needed)
        if value is None:
            problems.append(Problem(f"{where} {needed}", f'missing (when = "{when}" needs it)',
                                    f"add {needed} = 1 (a whole number, at least 1)"))
        elif not _is_int(value):
            problems.append(Problem(f"{where} {needed}",
                                    f"must be a whole number, got {value!r}",
                                    f"write {needed} = 1 (no quotes, no decimals)"))
        elif value < 1:
            problems.append(Problem(f"{where} {needed}", f"must be at least 1, got {value}",
                                    f"write {needed} = 1 or more"))
        else:
            n = value
    if problems:
        raise ProblemsError(problems)
    assert isinstance(when, str)
    return RetreatRule(when, n, to)


def complete_order(order: Sequence[str], sea: bool) -> tuple[str, ...]:
    """A casualty order made total: the kinds given, then the missing ones in the default order.

    Raises ValueError on a kind that is not of this battle's type or on a repeated kind (the
    caller should have parsed orders with :func:`parse_casualty_order`).
    """
    kinds = SEA_KINDS if sea else LAND_KINDS
    default = DEFAULT_SEA_ORDER if sea else DEFAULT_LAND_ORDER
    seen: list[str] = []
    for kind in order:
        if kind not in kinds:
            raise ValueError(f"casualty order: {kind!r} is not a {'sea' if sea else 'land'} "
                             f"unit kind ({', '.join(kinds)})")
        if kind in seen:
            raise ValueError(f"casualty order: {kind!r} listed twice")
        seen.append(kind)
    return (*seen, *(k for k in default if k not in seen))


def parse_casualty_order(raw: object, where: str, *, sea: bool = False) -> tuple[str, ...]:
    """Read a casualty standing order: a list of unit kinds, first lost first.

    Land kinds: troop, undead, egyptian, hero, titan; sea kinds: fleet, undead_fleet. A partial
    list is completed with the default order (:func:`complete_order`); ``None`` is the default.
    ``where`` names the key, e.g. ``[orders] casualty_order``.
    """
    kinds = SEA_KINDS if sea else LAND_KINDS
    hint = "list kinds among " + ", ".join(f'"{k}"' for k in kinds) + ", each once"
    if raw is None:
        return complete_order((), sea)
    if not isinstance(raw, list):
        raise ProblemsError([Problem(where, f"must be a list, got {type(raw).__name__}", hint)])
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, kind in enumerate(raw):
        if not isinstance(kind, str) or kind not in kinds:
            problems.append(Problem(f"{where}[{i}]", f"unknown unit kind {kind!r}", hint))
        elif kind in seen:
            problems.append(Problem(f"{where}[{i}]", f"{kind!r} listed twice", hint))
        else:
            seen.add(kind)
    if problems:
        raise ProblemsError(problems)
    return complete_order(raw, sea)


# ---------------------------------------------------------------------------------------------
# Units, sides, strength
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One figure in a battle: its kind (see LAND_KINDS, SEA_KINDS) and the caller's id."""

    kind: str
    id: str

    def __post_init__(self) -> None:
        if self.kind not in LAND_KINDS and self.kind not in SEA_KINDS:
            raise ValueError(f"unit {self.id!r}: unknown kind {self.kind!r}")

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "id": self.id}


@dataclass
class Side:
    """One side of a battle.

    ``units`` in the order the owner would lose them within a kind (the first listed Hero dies
    before the second); ``bonuses`` are named modifiers added every round (a creature, a magic
    item); ``casualty_order`` is a possibly partial list of kinds (see :func:`complete_order`);
    ``can_retreat`` says whether the caller found a legal retreat destination (Battle 2).
    """

    player: str
    units: list[Unit]
    bonuses: list[tuple[str, int]] = field(default_factory=list)
    casualty_order: tuple[str, ...] = ()
    retreat: RetreatRule = NEVER_RETREAT
    can_retreat: bool = False

    def __post_init__(self) -> None:
        ids = [u.id for u in self.units]
        if len(set(ids)) != len(ids):
            raise ValueError(f"side {self.player!r}: unit ids must be unique, got {ids}")
        for name, value in self.bonuses:
            if not name or not _is_int(value):
                raise ValueError(f"side {self.player!r}: a bonus is (name, whole number), "
                                 f"got {(name, value)!r}")


def strength(side: Side, sea: bool, *, defending: bool = False, fortresses: int = 0,
             metropolises: int = 0, ports: int = 0) -> tuple[int, list[tuple[str, int]]]:
    """A side's strength without the die, and its breakdown as (source, value) pairs.

    Battle 1: each unit counts one (Troops, undead, Egyptian reinforcements, Heroes, Titans on
    land; Fleets and undead Fleets at sea), plus the side's named bonuses. Battle 1.1: on land the
    DEFENDER adds 1 per Fortress and 1 per Metropolis, and they stack; Battle 1.2: at sea the
    DEFENDER adds 1 per Port. Building counts given for an attacker, or for the other kind of
    battle, add nothing (a Fortress does not help a Fleet fight next to its island).
    """
    for name, count in (("fortresses", fortresses), ("metropolises", metropolises),
                        ("ports", ports)):
        if not _is_int(count) or count < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {count!r}")
    kinds = SEA_KINDS if sea else LAND_KINDS
    breakdown: list[tuple[str, int]] = []
    for kind in kinds:
        n = sum(1 for u in side.units if u.kind == kind)
        if n:
            breakdown.append((kind, n))
    if defending:
        buildings = [("port", ports)] if sea else [("fortress", fortresses),
                                                   ("metropolis", metropolises)]
        breakdown.extend((name, n) for name, n in buildings if n)
    breakdown.extend(side.bonuses)
    return sum(v for _, v in breakdown), breakdown


def choose_casualty(units: Sequence[Unit], order: Sequence[str]) -> Unit:
    """The unit a side loses: the first of its units of the first kind in ``order`` it has.

    ``order`` must be total for the units' kinds (see :func:`complete_order`).
    """
    for kind in order:
        for unit in units:
            if unit.kind == kind:
                return unit
    raise ValueError(f"no unit to lose among {list(units)} with order {list(order)}")


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


def _breakdown_dicts(breakdown: Sequence[tuple[str, int]]) -> list[dict[str, Any]]:
    return [{"source": name, "value": value} for name, value in breakdown]


def _breakdown_text(breakdown: Sequence[tuple[str, int]]) -> str:
    return " + ".join(f"{name} {value}" if value >= 0 else f"{name} ({value})"
                      for name, value in breakdown)


@dataclass(frozen=True)
class Round:
    """One die roll of a battle and its casualties (Battle 1), and a retreat after it, if any."""

    number: int
    dice: dict[str, int]  # side -> face rolled
    labels: dict[str, str]  # side -> draw label
    totals: dict[str, int]  # side -> die + strength
    breakdowns: dict[str, list[tuple[str, int]]]  # side -> [("die", d), (source, value), ...]
    casualties: list[tuple[str, Unit]]  # (side, unit), attacker's first; 1 or 2 entries
    retreat: str | None = None  # side that retreated after this round

    @property
    def result(self) -> str:
        """``attacker`` or ``defender`` (the side that won the roll) or ``tie``."""
        a, d = self.totals[ATTACKER], self.totals[DEFENDER]
        return "tie" if a == d else (ATTACKER if a > d else DEFENDER)

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "result": self.result,
            **{side: {"die": self.dice[side], "label": self.labels[side],
                      "total": self.totals[side],
                      "breakdown": _breakdown_dicts(self.breakdowns[side])}
               for side in (ATTACKER, DEFENDER)},
            "casualties": [{"side": side, **unit.as_dict()} for side, unit in self.casualties],
            "retreat": self.retreat or "",  # the ledger is TOML: no None
        }


@dataclass
class BattleResult:
    """The outcome of :func:`fight`.

    ``winner``: the side left holding the field (``attacker``/``defender``; the side that did
    not retreat), None when both sides lost their last unit in the same round. ``holder``: the
    side that controls the place afterwards, which differs from ``winner`` only then: on land the
    defender keeps the territory (without units), at sea nobody holds the space.
    """

    where: str
    sea: bool
    players: dict[str, str]  # side -> player
    initial: dict[str, list[Unit]]
    buildings: dict[str, int]  # fortress, metropolis, port counts the caller gave
    winner: str | None
    retreated: str | None
    defenseless: bool  # Forgotten 8: no units defended, no dice rolled
    rounds: list[Round]
    losses: dict[str, list[Unit]]
    survivors: dict[str, list[Unit]]
    retreat_rules: dict[str, RetreatRule]

    @property
    def holder(self) -> str | None:
        if self.winner is not None:
            return self.winner
        return None if self.sea else DEFENDER

    def regular_troops_lost(self) -> dict[str, int]:
        """Regular Troops slain per side: the only losses that put gold on a Necropolis (Misc
        Necropolis 2: not creatures, not Heroes; we also exclude undead, Egyptian
        reinforcements and Titans, which are not "regular Troops")."""
        return {side: sum(1 for u in self.losses[side] if u.kind == TROOP)
                for side in (ATTACKER, DEFENDER)}

    # -- text ---------------------------------------------------------------------------------

    def _name(self, side: str) -> str:
        return f"{self.players[side]} ({side})"

    def _units_text(self, units: Sequence[Unit]) -> str:
        counts: dict[str, int] = {}
        for u in units:
            counts[u.kind] = counts.get(u.kind, 0) + 1
        inner = ", ".join(f"{k} x{n}" for k, n in counts.items())
        return f"{len(units)} unit{'s' if len(units) != 1 else ''}" + (f" ({inner})"
                                                                       if inner else "")

    def _start_line(self) -> str:
        kind = "sea" if self.sea else "land"
        text = (f"Battle at {self.where} ({kind}): {self._name(ATTACKER)} attacks with "
                f"{self._units_text(self.initial[ATTACKER])} against {self._name(DEFENDER)} "
                f"with {self._units_text(self.initial[DEFENDER])}")
        built = ", ".join(f"{k} x{n}" for k, n in self.buildings.items() if n)
        return text + (f"; defender's buildings: {built}." if built else ".")

    def _round_lines(self, rnd: Round) -> list[str]:
        parts = [f"{self.players[s]} rolls {rnd.dice[s]}, total {rnd.totals[s]} "
                 f"({_breakdown_text(rnd.breakdowns[s])})" for s in (ATTACKER, DEFENDER)]
        if rnd.result == "tie":
            outcome = "A tie, both lose a unit"
        else:
            outcome = f"{self.players[rnd.result]} wins the roll"
        lost = "; ".join(f"{self.players[s]} loses {u.kind} {u.id}" for s, u in rnd.casualties)
        lines = [f"Round {rnd.number}: {parts[0]}; {parts[1]}. {outcome}: {lost}."]
        if rnd.retreat is not None:
            rule = self.retreat_rules[rnd.retreat]
            lines.append(f"{self._name(rnd.retreat)} retreats (standing order: "
                         f"{rule.describe()}).")
        return lines

    def _end_line(self) -> str:
        if self.defenseless:
            return (f"{self.players[DEFENDER]} has no units at {self.where}: defenceless, no "
                    f"battle; {self.players[ATTACKER]} takes it.")
        if self.winner is None:
            keeps = ("nobody holds the space" if self.sea
                     else f"{self.players[DEFENDER]} keeps {self.where} without units")
            return f"Both sides lost their last unit in the same round: {keeps}."
        survivors = self.survivors[self.winner]
        how = f" after {self.players[self.retreated]} retreated" if self.retreated else ""
        return (f"{self._name(self.winner)} holds {self.where}{how}, with "
                f"{self._units_text(survivors)} left.")

    def transcript(self) -> list[str]:
        """The battle as readable lines, for reports."""
        lines = [self._start_line()]
        for rnd in self.rounds:
            lines.extend(self._round_lines(rnd))
        lines.append(self._end_line())
        return lines

    # -- events -------------------------------------------------------------------------------

    def events(self) -> list[dict[str, Any]]:
        """Plain-data events for the ledger (str, int, bool, None, lists and dicts only)."""
        out: list[dict[str, Any]] = [{
            "type": "battle", "rule": "Battle 1", "where": self.where, "sea": self.sea,
            "attacker": self.players[ATTACKER], "defender": self.players[DEFENDER],
            "attacker_units": [u.as_dict() for u in self.initial[ATTACKER]],
            "defender_units": [u.as_dict() for u in self.initial[DEFENDER]],
            "buildings": dict(self.buildings),
            "retreat_orders": {s: r.as_dict() for s, r in self.retreat_rules.items()},
            "text": self._start_line(),
        }]
        if self.defenseless:
            out.append({"type": "defenseless", "rule": "Forgotten 8", "where": self.where,
                        "text": self._end_line()})
        for rnd in self.rounds:
            lines = self._round_lines(rnd)
            out.append({"type": "battle_round", "rule": "Battle 1", "where": self.where,
                        **rnd.as_dict(), "text": lines[0]})
            if rnd.retreat is not None:
                out.append({"type": "retreat", "rule": "Battle 2", "where": self.where,
                            "round": rnd.number, "side": rnd.retreat,
                            "player": self.players[rnd.retreat],
                            "order": self.retreat_rules[rnd.retreat].as_dict(),
                            "text": lines[1]})
        out.append({
            "type": "battle_end", "rule": "Battle 1" if self.retreated is None else "Battle 2",
            "where": self.where, "winner": self.winner or "", "holder": self.holder or "",
            "retreated": self.retreated or "", "defenseless": self.defenseless,
            "losses": {s: [u.as_dict() for u in us] for s, us in self.losses.items()},
            "survivors": {s: [u.as_dict() for u in us] for s, us in self.survivors.items()},
            "regular_troops_lost": self.regular_troops_lost(),
            "text": self._end_line(),
        })
        return out


# ---------------------------------------------------------------------------------------------
# The battle
# ---------------------------------------------------------------------------------------------


def fight(where: str, sea: bool, attacker: Side, defender: Side, stream: FaceRoller, *,
          fortresses: int = 0, metropolises: int = 0, ports: int = 0) -> BattleResult:
    """Resolve a whole battle at ``where`` (a territory, or a sea space if ``sea``).

    ``fortresses``/``metropolises`` count on land, ``ports`` at sea, for the defender only
    (Battle 1.1, 1.2). Ends when a side has no units left or retreats; every round removes at
    least one unit, so it always ends.
    """
    if not _WHERE.fullmatch(where):
        raise ValueError(f"where must be 1-150 printable ASCII characters without spaces, "
                         f"got {where!r}")
    kinds = SEA_KINDS if sea else LAND_KINDS
    sides = {ATTACKER: attacker, DEFENDER: defender}
    for name, side in sides.items():
        wrong = [u.id for u in side.units if u.kind not in kinds]
        if wrong:
            raise ValueError(f"{name} {side.player!r}: units {wrong} cannot fight a "
                             f"{'sea' if sea else 'land'} battle")
    if not attacker.units:
        raise ValueError("the attacker brings no units: there is no battle to fight")
    orders = {name: complete_order(side.casualty_order, sea) for name, side in sides.items()}
    buildings = {"port": ports} if sea else {"fortress": fortresses, "metropolis": metropolises}
    left = {name: list(side.units) for name, side in sides.items()}
    lost: dict[str, list[Unit]] = {ATTACKER: [], DEFENDER: []}
    rounds: list[Round] = []
    winner: str | None = None
    retreated: str | None = None
    defenseless = not defender.units

    if defenseless:
        # Forgotten 8: Fortresses (or a Metropolis) without Troops do not fight; no dice.
        winner = ATTACKER
    number = 0
    while winner is None and left[ATTACKER] and left[DEFENDER]:
        number += 1
        dice: dict[str, int] = {}
        labels: dict[str, str] = {}
        totals: dict[str, int] = {}
        breakdowns: dict[str, list[tuple[str, int]]] = {}
        for name in (ATTACKER, DEFENDER):  # the attacker's die is always drawn first
            labels[name] = f"battle/{where}/r{number}/{name}"
            dice[name] = stream.faces(CYCLADES_COMBAT_DIE, labels[name])
            current = Side(sides[name].player, left[name], sides[name].bonuses)
            base, parts = strength(current, sea, defending=name == DEFENDER,
                                   fortresses=fortresses, metropolises=metropolises,
                                   ports=ports)
            totals[name] = dice[name] + base
            breakdowns[name] = [("die", dice[name]), *parts]
        # Battle 1: the lower total loses a unit; a tie costs both one.
        if totals[ATTACKER] == totals[DEFENDER]:
            losers = [ATTACKER, DEFENDER]
        else:
            losers = [DEFENDER if totals[ATTACKER] > totals[DEFENDER] else ATTACKER]
        casualties: list[tuple[str, Unit]] = []
        for name in losers:
            unit = choose_casualty(left[name], orders[name])
            left[name].remove(unit)
            lost[name].append(unit)
            casualties.append((name, unit))
        retreat: str | None = None
        if left[ATTACKER] and left[DEFENDER]:
            # Battle 2: the offense may retreat first; only if it declines may the defense.
            for name, other in ((ATTACKER, DEFENDER), (DEFENDER, ATTACKER)):
                side = sides[name]
                if side.can_retreat and side.retreat.wants(len(left[name]), len(left[other]),
                                                           number):
                    retreat = name
                    break
        rounds.append(Round(number, dice, labels, totals, breakdowns, casualties, retreat))
        if retreat is not None:
            retreated = retreat
            winner = DEFENDER if retreat == ATTACKER else ATTACKER
    if winner is None and not defenseless:
        if left[ATTACKER]:
            winner = ATTACKER
        elif left[DEFENDER]:
            winner = DEFENDER
        # else both eliminated in the same tie: winner stays None (see BattleResult.holder)

    return BattleResult(
        where=where, sea=sea,
        players={ATTACKER: attacker.player, DEFENDER: defender.player},
        initial={ATTACKER: list(attacker.units), DEFENDER: list(defender.units)},
        buildings=buildings, winner=winner, retreated=retreated, defenseless=defenseless,
        rounds=rounds, losses=lost, survivors=left,
        retreat_rules={ATTACKER: attacker.retreat, DEFENDER: defender.retreat},
    )

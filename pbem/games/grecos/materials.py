"""The golem materials (Golem 1-16) as an authored optional variant: ``--option materials=on``.

The seed opens with a table, "OPTIONAL RULES / Material: Notes:", of sixteen golem materials.
It is the end of another Warpspawn game, Golems (the analysis, section 0): Grecos has no
golems and never defines Armor, Mana, Shape or size. Issue 16 asks for the rows whose effect
is said in Grecos's own terms (Force, Move, Hits, damage counters, stacking, extra attacks,
water adjacency) as a clearly authored variant; ``data/materials.toml`` holds all sixteen rows
as printed, each either ``implemented`` with its effect in Grecos terms or with the
``undefined`` term that keeps it out. With the option off (the default) nothing here acts:
no unit gets a material and every hook below returns "no change".

Rulings (authored; the clause is the row, ``Golem n`` counted in the seed's order):

* Golem 1-16, "golem": under the option a golem is a Grecos unit. A unit "made of" a material
  carries it as ``state["units"][id]["material"]`` (the material's id), for as long as it is
  on the board; "All Golems in stack" and "opposing golems" mean all the units of the stack,
  all the opposing units, whether or not they have a material themselves.
* How a material comes to a unit (authored: the seed does not say; Golems makes each material
  at its own terrain, and Grecos has seven terrain kinds for sixteen materials): every unit
  put into play by recruiting (Recruit 3-4) gets the next material of a fixed public cycle,
  the implemented materials in table order -- Flesh, Stone, Ice, Gold, Sand, Basalt,
  Clockwork, Salt, Silver -- taken by unit id: unit N gets material number (N - 1) mod 9 + 1,
  so unit 1 would be Flesh, unit 10 Flesh again. Unit ids are public and given in order of
  entry (``state["next_unit"]``): anyone can tell which material the next recruit gets, and
  no die is rolled (nothing in the recruit step draws one). The starting Heroes (Setup 1) and
  a unit a Prometheus card puts in play (Deck 9) are not recruited and have no material.
* Golem 1, Flesh "Removes 1 Damage Marker from self at end of your turn": at the end of its
  owner's turn (before the victory check) the unit gets back 1 lost hit (damage counters,
  Parts 4), never above its Hits.
* Golem 3, Stone "Hits +1": the unit's Hits (its most hits) are one more everywhere: it is
  recruited with them, heal cards (Deck 16, 25, 30) and Flesh restore up to them, the Hydra's
  Force counts the hits lost from them (Battle 13), and the invariants allow them.
* Golem 6, Ice "1 target opposing golem in battle gets Force -2": while the Ice unit fights in
  a battle, one unit fighting against it has Force -2 when it attacks. The target, chosen
  for the Ice unit's player by rule (there is no order for it): the opposing unit with the
  highest Force of its own (its kind's, with the Hydra's Battle 13), then the lowest id, as
  the battle stands at each attack (when the target is destroyed the next strongest is
  frozen). Several Ice units on a side freeze that many different units, strongest first.
* Golem 7, Gold "All Golems in stack get Force +1": every unit fighting on the Gold unit's side
  of a battle (its stack, with a unit won by Betrayal), the Gold unit too, has Force +1. Each
  Gold unit gives its own +1 (two Gold units: +2).
* Golem 9, Sand "All opposing golems get Force -1": every unit fighting against the Sand unit
  has Force -1; each Sand unit gives its own -1.
* Golem 13, Basalt "Get one extra attack at beginning of Battle": in every battle it fights in
  (attacking or defending), before round 1, the Basalt unit makes one extra attack (Battle 6:
  a d6 at or under its Force hits). The Basalt units of both sides strike one at a time,
  alternating, the attacker's first (as Battle 5-9), each side in its attack order; a unit
  that "cannot attack this turn" (Deck 28-29) rolls nothing; no card is played in these
  slots. The unit still attacks as usual in round 1.
* Golem 14, Clockwork "Force +2": the unit's Force is +2 (Force counts only in battle).
* Golem 15, Salt "Force +3 if adjacent to a Water Space": the unit's Force is +3 while its
  square shares a side (Adjacency 1-2) with a Sea or Abyss square (Water, Terrain 8). Standing
  on water does not count by itself.
* Golem 16, Silver "Move +1": the unit's Move is +1 (Move 1; with Hermes, Deck 7, both add; a
  Silver Hero riding with a Pegasus has Move 5, Move 6).
* Force modifiers add up with each other, with Ares (Deck 13) and with Battle 11; a Force of
  0 or less never hits, 6 or more always hits (Battle 6).
* Out, with the term Grecos does not define: Golem 2 Clay (Shape), Golem 4 Crystal (Mana),
  Golem 5 Iron (Armor), Golem 8 Bone ("Armor +1 & Force +1": half an effect would be a
  different material, so the whole row stays out; Armor), Golem 10 Wood (size: "grow 1 size
  larger (Max Giant size)"; Giant is a Grecos keyword, but Grecos has no sizes to grow
  through), Golem 11 Bronze (Armor), Golem 12 Obsidian "May stack without conflict"
  (conflict: Grecos has no conflict when units meet -- battles are chosen between adjacent
  stacks -- and Stacking 3 forbids opposing units in one space outright; reading it as "does
  not count against the limit of 4" would be Stacking 2's exemption for "Summoned units",
  which the row does not say: either reading is an invention, so it stays out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from pbem.core.errors import Problem, ProblemsError
from pbem.core.resources import read_toml
from pbem.games.grecos.components import DATA, Components
from pbem.games.grecos.squares import neighbours

State = dict[str, Any]
Event = dict[str, Any]

OPTION = "materials"
#: The authored effects (data/materials.toml ``effect``).
EFFECTS = frozenset({"regain", "hits", "freeze", "stack_force", "enemy_force", "first_strike",
                     "force", "coast_force", "move"})
#: Golem 1-16: the table has sixteen rows.
ROWS = 16


@dataclass(frozen=True)
class Material:
    """One row of the materials table: ``name``, ``ability`` and ``notes`` as printed;
    ``effect``/``amount``/``grecos`` (authored) when ``implemented``, else ``undefined``."""

    id: str
    name: str
    ability: str
    notes: str
    implemented: bool
    effect: str
    amount: int
    grecos: str
    undefined: str
    row: int

    @property
    def clause(self) -> str:
        return f"Golem {self.row}"


@cache
def load() -> dict[str, Material]:
    """The sixteen rows of ``data/materials.toml``, in the seed's order. A file that breaks
    the table's shape (not 16 rows, an unknown effect, an implemented row without an effect or
    amount, a row out without its undefined term) does not load."""
    raw = read_toml(DATA / "materials.toml")["material"]  # kept between commands
    out: dict[str, Material] = {}
    problems: list[Problem] = []
    for row, x in enumerate(raw, 1):
        m = Material(str(x["id"]), str(x["name"]), str(x["ability"]), str(x["notes"]),
                     bool(x["implemented"]), str(x.get("effect", "")), int(x.get("amount", 0)),
                     str(x.get("grecos", "")), str(x.get("undefined", "")), row)
        where = f"materials.toml {m.id}"
        if m.implemented and (m.effect not in EFFECTS or m.amount < 1 or not m.grecos):
            problems.append(Problem(where, "an implemented material needs a known effect, an "
                                    "amount of 1 or more and its text in Grecos terms"))
        if not m.implemented and (not m.undefined or m.effect):
            problems.append(Problem(where, "a material left out names the undefined term "
                                    "that keeps it out, and no effect"))
        if m.id in out:
            problems.append(Problem(where, "the id is used twice"))
        out[m.id] = m
    if len(out) != ROWS:
        problems.append(Problem("materials.toml", f"{len(out)} rows; the table has {ROWS} "
                                "(Golem 1-16)"))
    if problems:
        raise ProblemsError(problems, "grecos materials")
    return out


def enabled(state: Mapping[str, Any]) -> bool:
    """``--option materials=on``."""
    options = state.get("options") or {}
    return bool(options.get(OPTION) == "on")


def cycle() -> tuple[str, ...]:
    """The implemented materials in table order: the order recruits get them in."""
    return tuple(m.id for m in load().values() if m.implemented)


def material_for(uid: str) -> str:
    """The material unit ``uid`` gets if it is recruited: the (uid - 1) mod 9-th of
    :func:`cycle` (authored; see the module docstring)."""
    order = cycle()
    return order[(int(uid) - 1) % len(order)]


def _material(unit: Mapping[str, Any]) -> Material | None:
    """The unit's material, if it has one (only ever set with the option on)."""
    mid = unit.get("material")
    return load().get(mid) if isinstance(mid, str) else None


def _has(unit: Mapping[str, Any], effect: str) -> int:
    """The amount of ``effect`` the unit's material gives it, or 0."""
    m = _material(unit)
    return m.amount if m is not None and m.implemented and m.effect == effect else 0


def describe(unit: Mapping[str, Any]) -> str:
    """"Gold (Golem 7: in battle, ...)", or "" for a unit without a material."""
    m = _material(unit)
    return f"{m.name} ({m.clause}: {m.grecos})" if m is not None else ""


# --- hooks: each returns "no change" when the option is off ------------------------------

def assign(c: Components, state: State, uid: str) -> str:
    """Recruit hook: with the option on, unit ``uid`` (just put into play with its kind's
    full hits) gets its material (:func:`material_for`) and, if Stone, its extra hits.
    Returns the material id, or "" with the option off."""
    if not enabled(state):
        return ""
    unit = state["units"][uid]
    unit["material"] = material_for(uid)
    unit["hits"] = int(unit["hits"]) + _has(unit, "hits")
    return str(unit["material"])


def note_recruit(state: State, uid: str, event: Event) -> Event:
    """Recruit hook: say the recruited unit's material in its public event (adds ``material``
    and a sentence to ``text``); the event unchanged for a unit without one."""
    unit = state["units"].get(uid, {})
    m = _material(unit)
    if m is not None and enabled(state):
        event["material"] = m.id
        event["text"] += f" It is made of {m.name} ({m.clause}, materials=on): {m.grecos}."
    return event


def hits_bonus(unit: Mapping[str, Any]) -> int:
    """Golem 3, Stone: how many Hits the unit has above its kind's (0 without a material,
    which is always the case with the option off)."""
    return _has(unit, "hits")


def max_hits(c: Components, state: Mapping[str, Any], uid: str) -> int:
    """The most hits unit ``uid`` can have: its kind's Hits, +1 for Stone (option on)."""
    unit = state["units"][uid]
    return c.units[unit["kind"]].hits + (hits_bonus(unit) if enabled(state) else 0)


def move_bonus(state: Mapping[str, Any], unit: Mapping[str, Any]) -> int:
    """Golem 16, Silver: Move +1 (0 with the option off)."""
    return _has(unit, "move") if enabled(state) else 0


def _uid_key(uid: str) -> tuple[int, str]:
    return (int(uid), uid) if uid.isdigit() else (1 << 62, uid)


def _by_water(c: Components, state: Mapping[str, Any], square: str) -> bool:
    """Golem 15: the square shares a side with a Water square (Sea or Abyss)."""
    return any(not c.terrains[state["board"][n]].land for n in neighbours(square))


def force_modifiers(c: Components, state: Mapping[str, Any], uid: str, friends: Sequence[str],
                    foes: Sequence[str], base: Callable[[str], int]) -> list[tuple[int, str]]:
    """Battle hook: the Force changes of unit ``uid`` attacking in a battle, fighting with
    ``friends`` (its side, itself included) against ``foes``, as (amount, note) pairs, e.g.
    ``(1, "Gold +1, Golem 7")``. ``base(u)``: a unit's own Force (the Ice target's choice).
    Empty with the option off."""
    if not enabled(state):
        return []
    units = state["units"]
    mats = load()
    unit = units[uid]
    out: list[tuple[int, str]] = []

    def add(mid: str, amount: int) -> None:
        if amount:
            out.append((amount, f"{mats[mid].name} {amount:+d}, {mats[mid].clause}"))

    add("clockwork", _has(unit, "force"))
    if _by_water(c, state, unit["square"]):
        add("salt", _has(unit, "coast_force"))
    add("gold", sum(_has(units[u], "stack_force") for u in friends))
    add("sand", -sum(_has(units[u], "enemy_force") for u in foes))
    freezers = [u for u in foes if _has(units[u], "freeze")]
    if freezers:
        targets = sorted(friends, key=lambda u: (-base(u), _uid_key(u)))[:len(freezers)]
        if uid in targets:
            add("ice", -_has(units[freezers[targets.index(uid)]], "freeze"))
    return out


def first_strikes(state: Mapping[str, Any], orders: Sequence[Sequence[str]]
                  ) -> list[tuple[int, str]]:
    """Golem 13, Basalt: the extra attacks at the beginning of a battle, as (side, unit id),
    alternating sides from side 0 (the attacker), each side's Basalt units in its attack
    order ``orders[side]``. Empty with the option off."""
    if not enabled(state):
        return []
    units = state["units"]
    queues = [[u for u in order if _has(units[u], "first_strike")] for order in orders]
    out: list[tuple[int, str]] = []
    while any(queues):
        for side, queue in enumerate(queues):
            if queue:
                out.append((side, queue.pop(0)))
    return out


def end_of_turn(c: Components, state: State, player: str) -> list[Event]:
    """Golem 1, Flesh: at the end of ``player``'s turn each of his Flesh units with a hit
    lost gets 1 back (public events). Nothing with the option off."""
    if not enabled(state):
        return []
    out: list[Event] = []
    for uid in sorted(state["units"], key=_uid_key):
        unit = state["units"][uid]
        amount = _has(unit, "regain")
        full = max_hits(c, state, uid)
        if unit["owner"] != player or not amount or int(unit["hits"]) >= full:
            continue
        unit["hits"] = min(full, int(unit["hits"]) + amount)
        out.append({"type": "material-heal", "rule": "Golem 1", "player": player, "unit": uid,
                    "hits_left": unit["hits"], "text": f"{player}'s {c.units[unit['kind']].name}"
                    f" ({uid}), made of Flesh, gets back 1 hit at the end of the turn: "
                    f"{unit['hits']} of {full} (Golem 1, materials=on)."})
    return out


def invariants(c: Components, state: Mapping[str, Any]) -> list[str]:
    """No material with the option off; with it on, only implemented materials."""
    out: list[str] = []
    mats = load()
    for uid, unit in state["units"].items():
        if "material" not in unit:
            continue
        mid = unit["material"]
        if not enabled(state):
            out.append(f"unit {uid} has a material ({mid}) with --option materials=off")
        elif mid not in mats or not mats[mid].implemented:
            out.append(f"unit {uid} has material {mid!r}, not an implemented one (Golem 1-16)")
    return out

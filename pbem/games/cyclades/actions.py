"""The action phase of Cyclades (Cycle 8) and Apollo (Cycle 7.3), as a pure library.

The lead's game module calls, for each god in track order:

* :func:`validate_act` when an ``act`` order form arrives (static checks: schema, ids, what
  the god allows, Forgotten 1);
* :func:`default_act` for the form's default (sent back unchanged or not sent);
* :func:`resolve_act` to play the turn; and :func:`resolve_apollo` once for every pillar on
  Apollo (orders of the first one only).

A turn (:func:`resolve_act`) runs in the order of Cycle 8:

1. Cycle 8.2: the player's creature figures in their second cycle leave, except those in
   ``keep`` paid with a Priestess each (``creatures.expire_figures``); Egyptian
   Reinforcements stay (8.2.1).
2. Cycle 8.3: the god's free recruit, at ``free`` (``{territory = ..}`` or ``{sea = ..}``), or
   at the default place (:func:`default_free_place`). Zeus's priest and Athena's philosopher
   need no place; Kronos gives his free Titan only from the top slot of the track.
3. Cycle 8.4: the ``actions`` in the player's order, each checked against the state as it is
   then; one that is no longer possible (a battle lost, gold run out, a slot emptied) is
   skipped with a public ``skipped`` event saying why, never an exception. Gold is paid from
   the player's gold and never goes below 0. After each action (and after the free recruit)
   the player forms every Metropolis they are owed (``metropolis.check_metropolis``).
4. Cycle 8.5: the pillar joins ``state["acting"]["finished"]``.

God actions (published base rules as we know them; prices from ``gods.toml``): ``recruit``
(the free unit first, then the god's price schedule; ``recruit_discount`` powers off each
paid unit, never below 0), ``build`` (the god's building on a free building space of your
territory; Kronos: the building of a god above him on the track, never the Necropolis; Hades:
the Necropolis, which a later Hades winner moves, leaving its gold, Misc Necropolis 1; any
number per turn), ``move`` (troops by one land border or one chain of own fleets, the god's
move price; Hades: each move carries an undead unit), ``sail`` (fleets up to 3 seas;
Forgotten 9), ``swap`` (Zeus, Forgotten 5). With any god but Apollo: ``buy``, ``titan_move``
(Misc Titans 1: 1 gold + 1 per earlier Titan move of this player this cycle),
``special_attack`` (Misc Egyptian Reinforcements 4-5), ``sacrifice``, ``monument``, ``item``,
``favor``. Apollo: only ``prosperity`` (the first pillar on him, Cycle 7.3).

Free moves: a one-time ``free_move`` (a magic item or favor used earlier in the turn) pays one
move of its units, even with a god that does not move them (not on Apollo); a lasting one
(an artifact, a monument) pays the first move of its units each turn that the god allows.

What is public: every action, its price (the table sees god actions and track cards paid
for), battles, skipped actions and why. What is private: every change of a player's gold and
the total after it (income, thefts, sales), in ``private[player]``. Where an action is skipped
for want of gold, the public event says so (at the table the player would have announced it).

The whole vocabulary, every field and every interpretation: ``docs/games/cyclades-actions.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem, ProblemsError
from pbem.core.ruleset import copy_state
from pbem.games.cyclades import battle, creatures, effects, metropolis, names, warfare
from pbem.games.cyclades.components import GOD_ABOVE, Components
from pbem.games.cyclades.cycle import islands_of
from pbem.games.cyclades.maps import Board
from pbem.games.cyclades.state import State, player_of, territories_of
from pbem.games.cyclades.turn import (
    Event,
    Turn,
    fleet_place_problem,
    hand_of,
    lasting_powers,
    own_territory_problem,
    power_total,
    reserve,
)

APOLLO: Final = "apollo"
#: The top-level keys of an ``act`` form.
ORDER_KEYS: Final = ("free", "keep", "metropolis", "special_metropolis", "actions", "attack")
#: The keys of the ``[attack]`` standing orders (Battle 2).
ATTACK_KEYS: Final = ("retreat", "casualties", "sea_retreat", "sea_casualties")

# Field types: "count" a whole number >= 1, "int" >= 0, "slot" 1-3, the rest ids or tables.
_UNITS_LISTS = {"heroes": "hero", "egyptians": "egyptian", "artifacts": "artifact"}
_PARTY = {"troops": "int", "undead": "int", "titans": "int", "heroes": "heroes",
          "egyptians": "egyptians", "artifacts": "artifacts"}

#: Every action kind: (required fields, optional fields), each field -> type.
ACTIONS: Final[Mapping[str, tuple[Mapping[str, str], Mapping[str, str]]]] = {
    "recruit": ({"count": "count"}, {"territory": "territory", "sea": "sea"}),
    "build": ({"building": "building", "territory": "territory"}, {}),
    "move": ({"from": "territory", "to": "territory"}, _PARTY),
    "sail": ({"from": "sea", "to": "sea"}, {"fleets": "int", "undead_fleets": "int"}),
    "titan_move": ({"from": "territory", "to": "territory", "titans": "count"},
                   {k: v for k, v in _PARTY.items() if k not in ("titans", "undead")}),
    "special_attack": ({"egyptian": "egyptian", "from": "territory", "to": "territory"},
                       {"troops": "int"}),
    "buy": ({"slot": "slot"}, {"discount": "int", "target": "target"}),
    "swap": ({"slot": "slot"}, {}),
    "sacrifice": ({"hero": "hero"}, {"target": "target"}),
    "monument": ({"monument": "monument", "territory": "territory"}, {}),
    "item": ({"item": "magic_item"}, {"target": "target"}),
    "favor": ({"favor": "favor"}, {"target": "target"}),
    "prosperity": ({"territory": "territory"}, {}),
}

#: The keys a ``target`` table may hold (effects.py says which power reads which).
TARGET_KEYS: Final[Mapping[str, str]] = {
    "territory": "territory", "sea": "sea", "player": "player", "building": "building",
    "figure": "creature", "hero": "hero", "card": "creature", "target": "target",
    "from": "territory", "to": "territory", "kinds": "kinds", "sell": "sell", **_PARTY,
}

#: Forgotten 1: what a player on Apollo may not do, in the seed's words.
_APOLLO_BARRED = {"buy": "buy creatures", "titan_move": "move Titans",
                  "special_attack": "activate Egyptian Reinforcements",
                  "monument": "build Monuments", "sacrifice": "sacrifice Heroes"}


# =============================================================================================
# Validation (static: at submission)
# =============================================================================================


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    def __init__(self, c: Components, board: Board, state: State, player: str) -> None:
        self.c, self.board, self.state, self.player = c, board, state, player
        self.problems: list[Problem] = []

    def add(self, where: str, message: str, hint: str = "") -> None:
        self.problems.append(Problem(where, message, hint))

    def ids(self, kind: str) -> Mapping[str, Any] | list[str]:
        c = self.c
        table: dict[str, Mapping[str, Any] | list[str]] = {
            "territory": self.board.territories, "sea": self.board.seas,
            "building": c.buildings, "hero": c.heroes, "egyptian": c.egyptians,
            "artifact": c.artifacts, "monument": c.monuments, "magic_item": c.magic_items,
            "favor": c.favors, "creature": c.creatures, "metropolis": c.metropolises,
            "player": sorted(self.state["gold"]),
        }
        return table[kind]

    def value(self, where: str, kind: str, value: object) -> None:
        """One field of type ``kind``."""
        if kind in ("count", "int", "slot"):
            low = 0 if kind == "int" else 1
            high = len(self.state["creature_track"]["slots"]) if kind == "slot" else 99
            if not _is_int(value) or not low <= value <= high:  # type: ignore[operator]
                self.add(where, f"must be a whole number from {low} to {high}, got {value!r}",
                         "write a number without quotes")
        elif kind in _UNITS_LISTS.values() or kind in ("territory", "sea", "building",
                                                       "monument", "magic_item", "favor",
                                                       "creature", "player"):
            self.ident(where, kind, value)
        elif kind in _UNITS_LISTS:
            if not isinstance(value, list):
                self.add(where, f"must be a list of {kind} ids", f'write {kind} = ["..."]')
            else:
                for i, item in enumerate(value):
                    self.ident(f"{where}[{i}]", _UNITS_LISTS[kind], item)
        elif kind == "target":
            self.target(where, value)
        elif kind == "kinds":
            allowed = sorted(effects.KILLABLE)
            if not isinstance(value, list) or any(k not in allowed for k in value):
                self.add(where, f"must list unit kinds among {', '.join(allowed)}")
        elif kind == "sell" and (not isinstance(value, Mapping) or not value or any(
                k not in effects.SUPPLY_CARDS or not _is_int(n) or n < 1
                for k, n in value.items())):
            self.add(where, "must be a table of card = number",
                     "write sell = {priest = 1, philosopher = 2}")

    def ident(self, where: str, kind: str, value: object) -> None:
        known = self.ids(kind)
        if not isinstance(value, str) or value not in known:
            self.add(where, f"{value!r} is not a {kind.replace('_', ' ')} id",
                     names.choices(value, known))

    def target(self, where: str, raw: object) -> None:
        if not isinstance(raw, Mapping):
            self.add(where, "must be a table", 'write target = {territory = "..."}')
            return
        for key, value in raw.items():
            kind = TARGET_KEYS.get(key)
            if kind is None:
                self.add(f"{where}.{key}", "unknown target key",
                         "keys are " + ", ".join(sorted(TARGET_KEYS)))
            else:
                self.value(f"{where}.{key}", kind, value)


def _free_move_held(c: Components, state: State, player: str, unit: str) -> bool:
    """Whether ``player`` holds a one-time ``free_move`` of ``unit`` (magic item or favor)."""
    hand = hand_of(state, player)
    powers = [c.magic_items[i].effect for i in hand["magic_items"] if i in c.magic_items]
    powers += [c.favors[f].power for f in hand["favors"] if f in c.favors]
    return any(e.kind == "free_move" and unit in e.names("units") for e in powers)


def _god_problem(c: Components, state: State, god: str, player: str, kind: str,
                 credits: tuple[str, ...] = ()) -> str:
    """Why god ``god`` does not allow action ``kind`` ("" if it does). ``credits``: the units
    of one-time free moves already armed this turn."""
    g = c.god(god)
    if god == APOLLO:
        if kind == "prosperity":
            return ""
        if kind in _APOLLO_BARRED:
            return (f"a player on Apollo may not {_APOLLO_BARRED[kind]} (Forgotten 1: "
                    "choosing Apollo is skipping one's turn)")
        return "Apollo gives no action but his gold and the first player's prosperity " \
               "marker (Forgotten 1)"
    if kind == "prosperity":
        return "only the first player on Apollo places a prosperity marker (Cycle 7.3)"
    if kind == "recruit" and g.recruit is None:
        return f"{g.name} recruits nothing"
    if kind == "build" and g.build is None:
        return f"{g.name} builds nothing"
    if kind == "swap" and (g.special is None or
                           g.special.effect.kind != "swap_track_creature"):
        return "only Zeus replaces a creature of the track (Forgotten 5)"
    for action, unit in (("move", "troop"), ("sail", "fleet")):
        if kind == action and (g.move is None or unit not in g.move.units) and \
                unit not in credits and not _free_move_held(c, state, player, unit):
            return f"{g.name} does not move {unit}s (and you hold no free move of them)"
    return ""


def validate_act(c: Components, board: Board, state: State, god: str, player: str,
                 orders: Mapping[str, Any]) -> list[Problem]:
    """Every static problem of ``player``'s ``act`` orders for ``god``, each with ``where``
    (e.g. ``[orders] actions[3].territory``) and a hint. An empty form is valid."""
    ck = _Checker(c, board, state, player)
    for key in sorted(set(orders) - set(ORDER_KEYS)):
        ck.add(f"[orders] {key}", "unknown key", "keys are " + ", ".join(ORDER_KEYS))
    _check_free(ck, c, god, orders.get("free"))
    _check_lists(ck, state, player, orders)
    attack = orders.get("attack", {})
    if not isinstance(attack, Mapping):
        ck.add("[orders.attack]", "must be a table")
    else:
        for key in sorted(set(attack) - set(ATTACK_KEYS)):
            ck.add(f"[orders.attack] {key}", "unknown key", "keys are " + ", ".join(ATTACK_KEYS))
        for key in ATTACK_KEYS:
            if key not in attack:
                continue
            try:
                if key.endswith("retreat"):
                    battle.parse_retreat(attack[key], f"[orders.attack] {key}")
                    known = sorted(board.seas if key == "sea_retreat" else board.territories)
                    to = attack[key].get("to") if isinstance(attack[key], Mapping) else None
                    for j, place in enumerate(to if isinstance(to, list) else []):
                        if isinstance(place, str) and place not in known:
                            ck.add(f"[orders.attack] {key} to[{j}]", f"{place!r} is not a "
                                   "place of this board", names.choices(place, known))
                else:
                    battle.parse_casualty_order(attack[key], f"[orders.attack] {key}",
                                                sea=key.startswith("sea"))
            except ProblemsError as exc:
                ck.problems.extend(exc.problems)
    actions = orders.get("actions", [])
    if not isinstance(actions, list):
        ck.add("[orders] actions", "must be a list of tables", 'write actions = [{do = "..."}]')
        return ck.problems
    prosperity = 0
    for i, raw in enumerate(actions):
        at = f"[orders] actions[{i}]"
        if not isinstance(raw, Mapping):
            ck.add(at, "must be a table like {do = \"recruit\", count = 1, territory = \"..\"}")
            continue
        kind = raw.get("do")
        if not isinstance(kind, str) or kind not in ACTIONS:
            ck.add(f"{at}.do", f"unknown action {kind!r}", "actions are "
                   + ", ".join(ACTIONS))
            continue
        required, optional = ACTIONS[kind]
        for key in sorted(set(raw) - {"do"} - set(required) - set(optional)):
            ck.add(f"{at}.{key}", f"{kind} takes no {key!r}", "its keys are "
                   + ", ".join([*required, *optional]))
        for key, ftype in required.items():
            if key not in raw:
                ck.add(f"{at}.{key}", f"missing ({kind} needs it)")
            else:
                ck.value(f"{at}.{key}", ftype, raw[key])
        for key, ftype in optional.items():
            if key in raw:
                ck.value(f"{at}.{key}", ftype, raw[key])
        problem = _god_problem(c, state, god, player, kind)
        if problem:
            ck.add(f"{at}.do", problem)
        _check_action(ck, c, state, god, player, at, kind, raw)
        prosperity += kind == "prosperity"
    if prosperity > 1:
        ck.add("[orders] actions", "only one prosperity marker is placed (Cycle 7.3)")
    if prosperity and god == APOLLO and int(state["supply"].get("prosperity", 0)) < 1:
        ck.problems.append(Problem(
            "[orders] actions", "no prosperity marker is left in the supply (Forgotten 7)",
            "leave the prosperity action out", foreseen=True))
    if not ck.problems and god != APOLLO:
        # Issue 12: what the turn would skip, decided now wherever nothing unknown comes first.
        ck.problems += rehearsal_problems(c, board, state, god, player, orders)
    return ck.problems


def _check_free(ck: _Checker, c: Components, god: str, free: object) -> None:
    if free is None:
        return
    if not isinstance(free, Mapping) or len(free) != 1 or not set(free) <= {"territory", "sea"}:
        ck.add("[orders] free", "must be {territory = \"..\"} or {sea = \"..\"}")
        return
    key, value = next(iter(free.items()))
    ck.value(f"[orders] free.{key}", key, value)
    recruit = c.god(god).recruit
    if recruit is None:
        return
    land = any(u in ("troop", "titan", "undead_troop") for u in recruit.units)
    sea = any(u in ("fleet", "undead_fleet") for u in recruit.units)
    if (key == "territory" and not land and sea) or (key == "sea" and not sea and land):
        ck.add(f"[orders] free.{key}", f"{c.god(god).name}'s free recruit goes on a "
               + ("sea" if sea else "territory"))


def _check_lists(ck: _Checker, state: State, player: str, orders: Mapping[str, Any]) -> None:
    for key, kind in (("keep", "creature"), ("metropolis", "territory"),
                      ("special_metropolis", "metropolis")):
        value = orders.get(key, [])
        if not isinstance(value, list):
            ck.add(f"[orders] {key}", "must be a list")
            continue
        for i, item in enumerate(value):
            ck.ident(f"[orders] {key}[{i}]", kind, item)
    keep = orders.get("keep", [])
    if isinstance(keep, list):
        for i, fid in enumerate(keep):
            figure = state["figures"].get(fid) if isinstance(fid, str) else None
            if isinstance(fid, str) and (figure is None or figure["owner"] != player):
                ck.add(f"[orders] keep[{i}]", f"you have no {fid} figure on the board")
        if len(keep) > int(hand_of(state, player)["priestess"]):
            ck.add("[orders] keep", f"keeping {len(keep)} figures takes {len(keep)} "
                   f"Priestesses; you hold {hand_of(state, player)['priestess']} (Cycle 8.2)")


def _party_size(raw: Mapping[str, Any]) -> int:
    size = 0
    for key in ("troops", "undead", "titans"):
        value = raw.get(key, 0)
        size += value if isinstance(value, int) and not isinstance(value, bool) and value > 0 \
            else 0
    for key in ("heroes", "egyptians"):
        value = raw.get(key, [])
        size += len(value) if isinstance(value, list) else 0
    return size


def _not_held(value: object, table: Mapping[str, Any], hand: list[str]) -> bool:
    """A known id (``table``) that ``hand`` does not hold."""
    return isinstance(value, str) and value in table and value not in hand


def _check_action(ck: _Checker, c: Components, state: State, god: str, player: str, at: str,
                  kind: str, raw: Mapping[str, Any]) -> None:
    """What the schema alone does not say."""
    hand = hand_of(state, player)
    if kind == "move" and not _party_size(raw):
        ck.add(at, "moves no unit", "give troops = 1 (or undead, titans, heroes, egyptians)")
    if kind == "sail" and not any(_is_int(raw.get(k)) and raw[k] > 0
                                  for k in ("fleets", "undead_fleets")):
        ck.add(at, "sails no fleet", "give fleets = 1")
    if kind == "recruit" and god != APOLLO and c.god(god).recruit is not None:
        units = c.god(god).recruit.units  # type: ignore[union-attr]
        cards = all(u in effects.SUPPLY_CARDS for u in units)
        places = [k for k in ("territory", "sea") if k in raw]
        if not cards and len(places) != 1:
            ck.add(at, "needs one place: territory = \"..\" or sea = \"..\"")
        land = any(u in ("troop", "titan", "undead_troop") for u in units)
        sea = any(u in ("fleet", "undead_fleet") for u in units)
        if ("territory" in places and not land) or ("sea" in places and not sea):
            ck.add(at, f"{c.god(god).name} recruits " + ("fleets: name a sea" if sea
                                                          else "land units: name a territory"))
        if cards and places:
            ck.add(at, f"{c.god(god).name}'s recruits are cards and need no place")
    if kind == "build" and god != APOLLO and c.god(god).build is not None:
        build = c.god(god).build
        assert build is not None
        building = raw.get("building")
        if build.building != GOD_ABOVE and isinstance(building, str) and \
                building != build.building and building in c.buildings:
            ck.add(f"{at}.building", f"{c.god(god).name} builds a {build.building}, not a "
                   f"{building}")
        if building == "metropolis":
            ck.add(f"{at}.building", "a Metropolis is formed, not built (four buildings or "
                   "four philosophers)")
    if kind == "sacrifice" and _not_held(raw.get("hero"), c.heroes, hand["heroes"]):
        ck.add(f"{at}.hero", f"you hold no Hero {raw['hero']}")
    if kind == "item" and _not_held(raw.get("item"), c.magic_items, hand["magic_items"]):
        ck.add(f"{at}.item", f"you hold no magic item {raw['item']}")
    if kind == "favor" and _not_held(raw.get("favor"), c.favors, hand["favors"]):
        ck.add(f"{at}.favor", f"you hold no divine favor {raw['favor']}")
    if kind == "prosperity":
        first = str((state.get("auction") or {}).get("prosperity", "") or "")
        if first and state["pillars"].get(first) != player:
            ck.add(at, "only the first player on Apollo places the prosperity marker "
                   "(Cycle 7.3)")


# =============================================================================================
# Defaults
# =============================================================================================


def _on_top(state: State, god: str) -> bool:
    track = state["gods"]["track"]
    return bool(track) and track[0] == god


def default_free_place(c: Components, board: Board, state: State, god: str,
                       player: str) -> dict[str, str]:
    """Where the god's free recruit goes when the form names no place: the player's first
    territory by id (troops, Titans, Hades's undead troop), or the first sea by id where a
    new fleet may go (Poseidon); ``{}`` when no place is needed (Zeus, Athena, Apollo, Kronos
    below the top) or none is possible."""
    recruit = c.god(god).recruit if god in c.gods else None
    if recruit is None or not recruit.free_count(_on_top(state, god)):
        return {}
    if any(u in ("troop", "titan", "undead_troop") for u in recruit.units):
        mine = territories_of(state, player)
        if mine:
            return {"territory": mine[0]}
    if any(u in ("fleet", "undead_fleet") for u in recruit.units):
        for sea in board.sea_ids:
            if not fleet_place_problem(c, board, state, player, sea):
                return {"sea": sea}
    return {}


def default_prosperity(state: State, player: str) -> str:
    """Where the first Apollo player's marker goes by default: their first territory by id,
    else the first territory of the board."""
    mine = territories_of(state, player)
    return mine[0] if mine else sorted(state["territories"])[0]


def default_act(c: Components, board: Board, state: State, god: str,
                player: str) -> dict[str, Any]:
    """The ``act`` orders an unchanged form means: only the free recruit at its default
    place (``{"free": ...}``, nothing else: no figure kept, no action); on Apollo, the
    prosperity marker at its default place if the player is the first there. Resolving an
    empty form does exactly this."""
    if god == APOLLO:
        first = str((state.get("auction") or {}).get("prosperity", "") or "")
        if first and state["pillars"].get(first) == player:
            return {"actions": [{"do": "prosperity",
                                 "territory": default_prosperity(state, player)}]}
        return {}
    place = default_free_place(c, board, state, god, player)
    return {"free": place} if place else {}


# =============================================================================================
# Resolution
# =============================================================================================


def _strings(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def resolve_act(c: Components, board: Board, state: State, god: str, pillar: str,
                orders: Mapping[str, Any], rng: Rng
                ) -> tuple[list[Event], dict[str, list[Event]]]:
    """Play the turn of ``pillar`` with ``god`` (Cycle 8.2-8.5); (public, private events)."""
    t = _turn(c, board, state, god, pillar, orders, rng)
    _play(t, orders)
    state["acting"]["finished"].append(pillar)  # Cycle 8.5
    return t.public, t.private


def _turn(c: Components, board: Board, state: State, god: str, pillar: str,
          orders: Mapping[str, Any], rng: Rng) -> Turn:
    attack = orders.get("attack", {})
    return Turn(c, board, state, player_of(state, pillar), god, pillar, rng,
                attack=attack if isinstance(attack, Mapping) else {},
                metropolis_pref=_strings(orders.get("metropolis")),
                special_pref=_strings(orders.get("special_metropolis")))


#: Called by :func:`_play` after the free recruit (index -1, why its chosen place failed)
#: and after each action (its index and kind, why it was skipped; "" when done).
Watch = Callable[[int, str, str], None]


def _play(t: Turn, orders: Mapping[str, Any], watch: Watch | None = None) -> None:
    """Cycle 8.1-8.4 for the turn ``t``: the figures' expiry, the free recruit, the actions."""
    player = t.player
    t.say("act", "Cycle 8.1", f"{player} acts with {t.c.god(t.god).name}.", player=player,
          god=t.god, pillar=t.pillar)
    if player in t.state["eliminated"]:
        t.say("skipped", "Forgotten 6", f"{player} is eliminated and does not act.",
              player=player)
        return
    creatures.expire_figures(t, _strings(orders.get("keep")))
    free = orders.get("free")
    missed = free_recruit(t, free if isinstance(free, Mapping) else None)
    metropolis.check_metropolis(t)
    if watch is not None:
        watch(-1, "free", missed)
    actions = orders.get("actions", [])
    for i, raw in enumerate(actions if isinstance(actions, list) else []):
        kind = raw.get("do", "?") if isinstance(raw, Mapping) else "?"
        if t.over:
            reason = "the game is over (Victory 2)"
        else:
            try:
                reason = run_action(t, raw) if isinstance(raw, Mapping) else "not a table"
            except (KeyError, TypeError, ValueError) as exc:  # malformed, never fatal
                reason = f"malformed action ({exc})"
        if reason:
            t.say("skipped", "Cycle 8.4", f"{player}'s action {i + 1} ({kind}) is skipped: "
                  f"{reason}.", player=player, index=i, do=kind, reason=reason)
        metropolis.check_metropolis(t)
        if watch is not None:
            watch(i, str(kind), reason)


# --- rehearsal: what can be known at submit (issue 12) ----------------------------------------


@dataclass(frozen=True)
class Step:
    """One part of an act form as a rehearsal on a copy of the state played it."""

    where: str     # "[orders] free" or "[orders] actions[i]"
    label: str     # "the free recruit", "action 2 (move)"
    reason: str    # why it was skipped in the rehearsal ("" when done)
    waits: str     # what came first whose outcome is unknown at submit ("" if nothing)


def _secrets(t: Turn) -> tuple[Any, ...]:
    """What a player cannot know before the turn runs, as it stands: the dice and sealed draws
    made, the sealed piles, and the gold of every other player behind their screen."""
    s = t.state
    others = tuple(sorted((p, g) for p, g in s["gold"].items() if p != t.player))
    return (len(t.rng.public.draws), len(t.rng.sealed.draws),
            tuple(s["creature_track"]["deck"]), tuple(s["favors"]["deck"]),
            tuple(s["favors"].get("items", ())), tuple(s["gods"]["bag"]), others)


def _unknowable(t: Turn, before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
    if after[0] != before[0]:
        return "dice"
    if after[1:6] != before[1:6]:
        return "a card drawn from a sealed pile"
    return "gold taken from another player (hidden behind the screen)"


def _pillar_acting(state: State, god: str, player: str) -> str:
    """The pillar that acts with ``god`` now (the acting queue's), else the player's first."""
    acting = state.get("acting") or {}
    queue, index = acting.get("queue") or [], int(acting.get("index", 0) or 0)
    if 0 <= index < len(queue) and queue[index][0] == god:
        return str(queue[index][1])
    mine = sorted(p for p, who in state["pillars"].items() if who == player)
    return mine[0] if mine else player


def rehearse(c: Components, board: Board, state: State, god: str, player: str,
             orders: Mapping[str, Any]) -> list[Step]:
    """Play ``player``'s act form on a copy of ``state`` with stand-in dice, and say for its
    free recruit and each action whether it would be done and, if its outcome cannot be known
    at submit, what it waits on: anything after the first action that rolls dice (a battle),
    draws from a sealed pile (Zeus's swap, a reshuffle), moves another player's hidden gold, or
    ends the game. Everything before that point runs at adjudication exactly as rehearsed: the
    act phase has one actor and the state does not change while it is open."""
    pillar = _pillar_acting(state, god, player)
    copied = copy_state(state)
    rng = Rng(Stream(b"rehearsal/public"), Stream(b"rehearsal/sealed"))
    t = _turn(c, board, copied, god, pillar, orders, rng)
    steps: list[Step] = []
    waits = ""
    before = _secrets(t)

    def watch(i: int, kind: str, reason: str) -> None:
        nonlocal waits, before
        label = "the free recruit" if i < 0 else f"action {i + 1} ({kind})"
        where = "[orders] free" if i < 0 else f"[orders] actions[{i}]"
        after = _secrets(t)
        # Skipped after drawing or rolling itself (a stand-in state's unknown card): unknown.
        own = f"{_unknowable(t, before, after)} in {label}" if after != before else ""
        steps.append(Step(where, label, reason, waits or (own if reason else "")))
        if not waits and after != before:
            waits = f"{_unknowable(t, before, after)} in {label}"
        elif not waits and t.over:
            waits = f"the end of the game in {label} (Victory 2)"
        before = after

    try:
        _play(t, orders, watch)
    except Exception as exc:  # never fatal at submit; resolve says the rest
        done = len(steps)
        actions = orders.get("actions", [])
        for i in range(max(0, done - 1), len(actions) if isinstance(actions, list) else 0):
            steps.append(Step(f"[orders] actions[{i}]", f"action {i + 1}", "",
                              waits or f"a rule the rehearsal could not play ({exc})"))
    return steps


def rehearsal_problems(c: Components, board: Board, state: State, god: str, player: str,
                       orders: Mapping[str, Any]) -> list[Problem]:
    """The parts of the form that would certainly be skipped when the turn runs."""
    out: list[Problem] = []
    given_free = isinstance(orders.get("free"), Mapping)
    for step in rehearse(c, board, state, god, player, orders):
        if not step.reason or step.waits or (step.label == "the free recruit" and
                                            not given_free):
            continue
        later = step.where != "[orders] free" and step.where != "[orders] actions[0]"
        out.append(Problem(step.where, f"{step.label} would be skipped when your turn runs: "
                           f"{step.reason}", "change or remove it" + (
                               "; it was checked after your earlier actions, as they would "
                               "leave your gold and pieces" if later else ""),
                           foreseen=True))
    return out


def provisional_act(c: Components, board: Board, state: State, god: str, player: str,
                    orders: Mapping[str, Any]) -> list[Problem]:
    """The actions whose outcome waits on something unknown at submit (see :func:`rehearse`)."""
    if god == APOLLO:
        return []
    try:
        steps = rehearse(c, board, state, god, player, orders)
    except Exception:  # provisional must never raise
        return []
    return [Problem(s.where, f"{s.label} comes after {s.waits}; whether it can be done is "
                    "decided only then") for s in steps if s.waits]


def free_recruit(t: Turn, place: Mapping[str, Any] | None) -> str:
    """Cycle 8.3: the god's free recruit, given (and placed) before any other action. Returns
    why it could not go to the place ``place`` names ("" if it went there, or none given)."""
    god = t.c.god(t.god)
    if god.recruit is None:
        return ""
    count = god.recruit.free_count(_on_top(t.state, t.god))
    if not count:
        if god.recruit.free:
            t.say("no_free_recruit", "Cycle 8.3", f"{god.name} gives no free recruit below the "
                  "top slot of the track.", player=t.player)
        return ""
    default = default_free_place(t.c, t.board, t.state, t.god, t.player)
    chosen = dict(place) if place else default
    reason = recruit(t, count, chosen, free=True)
    missed = reason if place else ""
    if reason and chosen != default and default:
        t.say("free_recruit_moved", "Cycle 8.3", f"The free recruit cannot go to "
              f"{_place_text(chosen)} ({reason}); it goes to {_place_text(default)}.",
              player=t.player)
        reason = recruit(t, count, default, free=True)
    if reason:
        # Lost, not postponed: the next recruit of the turn pays the god's second price.
        t.recruited += count
        t.say("skipped", "Cycle 8.3", f"{t.player}'s free recruit is lost: {reason}.",
              player=t.player, reason=reason)
    return missed


def _place_text(place: Mapping[str, Any]) -> str:
    return str(place.get("territory") or place.get("sea") or "nowhere")


def run_action(t: Turn, raw: Mapping[str, Any]) -> str:
    """One action of the list; "" when done, else why it was skipped."""
    kind = str(raw.get("do", ""))
    if kind not in ACTIONS:
        return f"unknown action {kind!r}"
    credits = tuple(u for _, units in t.free_moves for u in units)
    problem = _god_problem(t.c, t.state, t.god, t.player, kind, credits)
    if problem:
        return problem
    target = raw.get("target", {})
    target = target if isinstance(target, Mapping) else {}
    if kind == "recruit":
        return recruit(t, int(raw["count"]), raw, free=False)
    if kind == "build":
        return build(t, str(raw["building"]), str(raw["territory"]))
    if kind == "move":
        return move(t, raw)
    if kind == "sail":
        return sail(t, raw)
    if kind == "titan_move":
        return titan_move(t, raw)
    if kind == "special_attack":
        return special_attack(t, raw)
    if kind == "buy":
        # No ``discount``: every Temple left this turn that lowers the price (Cycle 8.4.1).
        asked = raw.get("discount")
        return creatures.buy(t, int(raw["slot"]), None if asked is None else int(asked), target)
    if kind == "swap":
        return creatures.swap(t, int(raw["slot"]))
    if kind == "monument":
        mid, tid = str(raw["monument"]), str(raw["territory"])
        problem = metropolis.monument_problem(t, mid, tid)
        if not problem:
            metropolis.claim_monument(t, mid, tid)
        return problem
    if kind == "prosperity":
        return "the prosperity marker is placed in Apollo's step"
    prepared = {"sacrifice": effects.prepare_sacrifice, "item": effects.prepare_item,
                "favor": effects.prepare_favor}[kind](t, str(raw[_KEY[kind]]), target)
    if isinstance(prepared, str):
        return prepared
    prepared()
    return ""


_KEY = {"sacrifice": "hero", "item": "item", "favor": "favor"}


# --- god actions ------------------------------------------------------------------------------


def recruit(t: Turn, count: int, place: Mapping[str, Any], *, free: bool) -> str:
    """Recruit ``count`` units of the god (base rules: the free one first, then the god's
    prices in order, at most the schedule's length per turn)."""
    god = t.c.god(t.god)
    schedule = god.recruit
    if schedule is None:
        return f"{god.name} recruits nothing"
    on_top = _on_top(t.state, t.god)
    if count < 1:
        return "recruit at least one"
    if t.recruited + count > schedule.limit(on_top):
        return (f"{god.name} recruits at most {schedule.limit(on_top)} per turn; "
                f"{t.recruited} already recruited")
    units = schedule.units
    if all(u in effects.SUPPLY_CARDS for u in units):
        unit, where, key = units[0], "", ""
        if int(t.state["supply"].get(unit, 0)) < count:
            return f"only {t.state['supply'].get(unit, 0)} {unit} card(s) left (Forgotten 7)"
    elif place.get("sea"):
        unit = next((u for u in units if u in ("fleet", "undead_fleet")), "")
        where, key = str(place["sea"]), "fleets" if unit == "fleet" else "undead_fleets"
        if not unit:
            return f"{god.name} recruits no fleets"
        problem = fleet_place_problem(t.c, t.board, t.state, t.player, where)
        if problem:
            return problem
    else:
        unit = next((u for u in units if u in ("troop", "titan", "undead_troop")), "")
        where = str(place.get("territory", ""))
        key = {"troop": "troops", "titan": "titans", "undead_troop": "undead"}.get(unit, "")
        if not unit:
            return f"{god.name} recruits no land units; name a sea"
        problem = own_territory_problem(t.state, t.player, where)
        if problem:
            return problem
    if key and reserve(t.c, t.state, t.player, unit) < count:
        return f"only {reserve(t.c, t.state, t.player, unit)} {unit}(s) left to place"
    off = power_total(t.c, t.state, t.player, "recruit_discount", unit=unit)
    armed = [(s, e) for s, e in t.armed
             if e.kind == "recruit_discount" and e.get("unit") == unit]
    # A one-time recruit discount counts like a lasting one for this one recruit action.
    off += sum(e.number("amount") for _, e in armed)
    price = 0
    for n in range(t.recruited + 1, t.recruited + count + 1):
        base = t.c.recruit_price(t.god, n, on_top=on_top)
        assert base is not None  # within the schedule's limit, checked above
        price += max(0, base - off) if base else 0
    if not t.pay(price, f"{count} {unit}(s) from {god.name}", "Cycle 8.4"):
        return f"not enough gold for {count} {unit}(s) ({price})"
    if armed:
        t.armed = [pair for pair in t.armed if pair not in armed]
    t.recruited += count
    if key:
        record = t.sea(where) if key in ("fleets", "undead_fleets") else t.territory(where)
        record["owner"] = t.player
        record[key] += count
    else:
        t.state["supply"][unit] -= count
        t.hand[unit] += count
    rule = "Cycle 8.3" if free else "Cycle 8.4"
    t.say("recruit", rule, f"{t.player} recruits {count} {unit}(s)"
          + (f" on {where}" if where else "") + (" (free)" if free else f" for {price} gold")
          + ".", player=t.player, unit=unit, count=count, where=where, price=price, free=free)
    return ""


def _buildable(t: Turn) -> list[str]:
    build = t.c.god(t.god).build
    if build is None:
        return []
    if build.building != GOD_ABOVE:
        return [build.building]
    # Titans expansion as we know it: Kronos builds the building of a god above him on the
    # track; never the Necropolis (Hades's own, unique tile).
    track = list(t.state["gods"]["track"])
    above = track[:track.index(t.god)] if t.god in track else []
    out = []
    for gid in above:
        b = t.c.god(gid).build
        if b is not None and b.building not in (GOD_ABOVE, "necropolis"):
            out.append(b.building)
    return out


def build(t: Turn, building: str, tid: str) -> str:
    build_ = t.c.god(t.god).build
    if build_ is None:
        return f"{t.c.god(t.god).name} builds nothing"
    allowed = _buildable(t)
    if building not in allowed:
        return f"{t.c.god(t.god).name} builds " + (" or ".join(allowed) or "nothing here") \
            + f", not a {building}"
    problem = own_territory_problem(t.state, t.player, tid)
    if problem:
        return problem
    here = t.territory(tid)
    moving = building == "necropolis" and "necropolis" in here["buildings"]
    if len(here["buildings"]) >= t.board.territory(tid).building_spaces and not moving:
        return f"{tid} has no free building space"
    armed = sum(e.number("amount") for _, e in t.armed if e.kind == "build_discount")
    price = max(0, build_.price - power_total(t.c, t.state, t.player, "build_discount") - armed)
    if not t.pay(price, f"a {building}", "Cycle 8.4"):
        return f"not enough gold for a {building} ({price})"
    if armed:
        t.armed = [(s, e) for s, e in t.armed if e.kind != "build_discount"]
    if building == "necropolis":
        for old, there in sorted(t.state["territories"].items()):
            if "necropolis" in there["buildings"]:
                # Misc Necropolis 1: the tile moves to the new owner; its gold stays behind.
                there["buildings"].remove("necropolis")
                t.say("necropolis_moved", "Misc Necropolis 1", f"The Necropolis leaves {old}; "
                      f"the {there['necropolis_gold']} gold on it stays there.", src=old,
                      gold_left=there["necropolis_gold"])
    here["buildings"].append(building)
    t.say("build", "Cycle 8.4", f"{t.player} builds a {t.c.buildings[building].name} on {tid} "
          f"for {price} gold.", player=t.player, building=building, territory=tid, price=price)
    return ""


def _move_cost(t: Turn, unit: str) -> tuple[int, str] | str:
    """(price, free source) of one move of ``unit``s now, or why the god cannot move them."""
    g = t.c.god(t.god)
    allowed = g.move is not None and unit in g.move.units
    if allowed and not t.lasting_free_used:
        for cid, e in lasting_powers(t.c, t.state, t.player):
            if e.kind == "free_move" and unit in e.names("units"):
                return 0, cid
    for source, units in t.free_moves:
        if unit in units:
            return 0, source
    if not allowed or g.move is None:
        return f"{g.name} does not move {unit}s"
    return g.move.price, ""


def _spend_move(t: Turn, price: int, source: str, what: str) -> bool:
    if source:
        if any(s == source for s, _ in t.free_moves):
            index = next(i for i, (s, _) in enumerate(t.free_moves) if s == source)
            t.free_moves.pop(index)
        else:
            t.lasting_free_used = True
        t.say("free_move", "Cycle 8.4", f"The {t.c.by_id(source).name} pays {t.player}'s "
              f"{what}.", player=t.player, source=source)
        return True
    return t.pay(price, what, "Cycle 8.4")


def move(t: Turn, raw: Mapping[str, Any]) -> str:
    """A god's troop move (Ares, Hades) or a one-time free move."""
    party = warfare.Party.of(raw)
    src, dst = str(raw["from"]), str(raw["to"])
    cost = _move_cost(t, "troop")
    if isinstance(cost, str):
        return cost
    g = t.c.god(t.god)
    if g.move is not None and g.move.requires_undead and not cost[1] and party.undead < 1:
        return f"each move with {g.name} carries an undead troop"
    problem = warfare.march_problem(t, src, dst, party)
    if problem:
        return problem
    if not _spend_move(t, cost[0], cost[1], f"a move from {src} to {dst}"):
        return f"not enough gold for the move ({cost[0]})"
    warfare.march(t, src, dst, party, rule="Cycle 8.4", how=f"{g.name}, {cost[0]} gold")
    return ""


def sail(t: Turn, raw: Mapping[str, Any]) -> str:
    """A fleet move (Poseidon, Hades) of up to 3 sea spaces (Forgotten 9)."""
    src, dst = str(raw["from"]), str(raw["to"])
    fleets, undead = int(raw.get("fleets", 0) or 0), int(raw.get("undead_fleets", 0) or 0)
    cost = _move_cost(t, "fleet")
    if isinstance(cost, str):
        return cost
    g = t.c.god(t.god)
    if g.move is not None and g.move.requires_undead and not cost[1] and undead < 1:
        return f"each move with {g.name} carries an undead fleet"
    armed = [(s, e) for s, e in t.armed if e.kind == "move_range"]
    # A one-time move_range lengthens this one sail.
    extra = sum(e.number("amount") for _, e in armed)
    problem = warfare.sail_problem(t, src, dst, fleets, undead, extra=extra)
    if problem:
        return problem
    if not _spend_move(t, cost[0], cost[1], f"sailing from {src} to {dst}"):
        return f"not enough gold to sail ({cost[0]})"
    if armed:
        t.armed = [pair for pair in t.armed if pair not in armed]
    warfare.sail(t, src, dst, fleets, undead)
    return ""


def titan_move(t: Turn, raw: Mapping[str, Any]) -> str:
    """Misc Titans 1: Titans move by themselves or with troops of their territory, with any
    god, "during your turn ... for 1gp + 1gp for the number of previous movements": earlier
    Titan moves of this turn (a two-player's second turn of a cycle starts again at 1)."""
    party = warfare.Party.of({k: v for k, v in raw.items() if k != "undead"})
    src, dst = str(raw["from"]), str(raw["to"])
    if party.titans < 1:
        return "a Titan move moves at least one Titan"
    problem = warfare.march_problem(t, src, dst, party)
    if problem:
        return problem
    before = t.titan_moves
    price = t.c.rules.titan_move_base + t.c.rules.titan_move_step * before
    if not t.pay(price, "a Titan move", "Misc Titans 1"):
        return f"not enough gold for the Titan move ({price})"
    t.titan_moves = before + 1
    warfare.march(t, src, dst, party, rule="Misc Titans 1",
                  how=f"Titan move {before + 1}, {price} gold")
    return ""


def special_attack(t: Turn, raw: Mapping[str, Any]) -> str:
    """Misc Egyptian Reinforcements 4-5: 1 gold; the Egyptian and troops of its territory move
    by the normal rules (the Phoenix flies: no fleets needed) and its ability works; once per
    Egyptian per turn."""
    egyptian = str(raw["egyptian"])
    src, dst = str(raw["from"]), str(raw["to"])
    rule = "Misc Egyptian Reinforcements 4"
    if egyptian not in t.hand["egyptians"]:
        return f"you have no Egyptian Reinforcement {egyptian}"
    used = t.egyptian_attacks.get(egyptian, 0)
    if used >= t.c.rules.egyptian_attacks_per_turn:
        return (f"the {t.c.egyptians[egyptian].name} has made its special attack this turn "
                "(Misc Egyptian Reinforcements 5)")
    ability = t.c.egyptians[egyptian].ability
    party = warfare.Party(troops=int(raw.get("troops", 0) or 0), egyptians=[egyptian])
    problem = warfare.march_problem(t, src, dst, party, anywhere=ability.kind == "fly")
    if problem:
        return problem
    # "initiate a special attack": into a territory the player does not hold (a move
    # between one's own territories is an Ares or Titan move, without the ability).
    if t.owner(dst) == t.player:
        return (f"{dst} is yours: a special attack goes into a territory you do not hold "
                "(Misc Egyptian Reinforcements 4)")
    price = t.c.rules.egyptian_attack_price
    if not t.pay(price, "a special attack", rule):
        return f"not enough gold for the special attack ({price})"
    t.egyptian_attacks[egyptian] = used + 1
    t.say("special_attack", rule, f"{t.player} pays {price} gold: the "
          f"{t.c.egyptians[egyptian].name} leads a special attack ({ability.kind}).",
          player=t.player, egyptian=egyptian, ability=ability.kind, price=price)
    warfare.march(t, src, dst, party, rule=rule, how="special attack", ability=ability)
    return ""


# =============================================================================================
# Apollo (Cycle 7.3, Forgotten 1, 4)
# =============================================================================================


def resolve_apollo(c: Components, board: Board, state: State, orders_of_first: Mapping[str, Any],
                   rng: Rng) -> tuple[list[Event], dict[str, list[Event]]]:
    """Every pillar on Apollo, in the order they arrived (``state["auction"]["apollo"]``):
    its owner's figures in their second cycle leave (Cycle 8.2; only the first player's
    ``keep`` is read, the others keep none), the player takes Apollo's gold (1, or 4 with only
    one territory; Forgotten 4: two pillars there make 8) and the pillar finishes (8.5). The
    first pillar's player places the prosperity marker (Cycle 7.3) on ANY territory, from
    the limited supply: ``orders_of_first`` ``actions = [{do = "prosperity", territory}]``,
    else :func:`default_prosperity`. Returns (public, private events); the gold is private."""
    auction = state.get("auction") or {}
    pillars = [str(p) for p in auction.get("apollo", [])]
    first = str(auction.get("prosperity", "") or (pillars[0] if pillars else ""))
    special = c.god(APOLLO).special
    assert special is not None
    effect = special.effect
    public: list[Event] = []
    private: dict[str, list[Event]] = {}
    seen: set[str] = set()
    first_player = player_of(state, first) if first in state["pillars"] else ""
    keep = _strings(orders_of_first.get("keep"))
    for pillar in pillars:
        player = player_of(state, pillar)
        t = Turn(c, board, state, player, APOLLO, pillar, rng, public=public, private=private)
        if player not in seen:
            seen.add(player)
            # The first player's act form says what to keep; the others' sealed bids
            # (``apollo_keep``), since they have no act phase of their own.
            creatures.expire_figures(t, keep if player == first_player else _strings(
                state.get("apollo_keep", {}).get(player)))
        # Forgotten 4: "only one island" -- islands, not territories (a Titans-board island
        # holds several territories; the bid counts islands the same way).
        lone = len(islands_of(board, state, player)) == 1
        amount = effect.number("lone_amount") if lone else effect.number("amount")
        t.gain(player, amount, "Apollo" + (", only one island" if lone else ""),
               "Cycle 7.3")
        t.say("apollo", "Cycle 7.3", f"{player} takes Apollo's gold.", player=player,
              pillar=pillar)
        if pillar == first and effect.number("first_prosperity"):
            _apollo_marker(t, orders_of_first, effect.number("first_prosperity"))
        state["acting"]["finished"].append(pillar)  # Cycle 8.5
    return public, private


def _apollo_marker(t: Turn, orders: Mapping[str, Any], count: int) -> None:
    chosen = ""
    actions = orders.get("actions", [])
    for raw in actions if isinstance(actions, list) else []:
        if isinstance(raw, Mapping) and raw.get("do") == "prosperity":
            chosen = str(raw.get("territory", ""))
            break
    if chosen not in t.state["territories"]:
        if chosen:
            t.say("skipped", "Cycle 7.3", f"{chosen} is not a territory; the marker goes to "
                  "the default place.", player=t.player)
        chosen = default_prosperity(t.state, t.player)
    n = min(count, int(t.state["supply"]["prosperity"]))
    if not n:
        t.say("skipped", "Cycle 7.3", "No prosperity marker is left in the supply "
              "(Forgotten 7).", player=t.player)
        return
    t.state["supply"]["prosperity"] -= n
    t.territory(chosen)["prosperity"] += n
    t.say("prosperity", "Cycle 7.3", f"{t.player}, first on Apollo, places a prosperity marker "
          f"on {chosen}.", player=t.player, territory=chosen, count=n)

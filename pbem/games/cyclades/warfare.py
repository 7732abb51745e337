"""Moving troops and fleets, the battles they start, and conquest (Battle 1-2, Forgotten 6, 8
and 9, Misc Necropolis, Misc Special Metropolis, Misc Egyptian Reinforcements, Team 4).

Every entry point checks the move against the state as it is now and returns a reason string
when it is not possible (the caller skips the action with a public event); only then does the
caller pay and call the mutating function. Battles go through :func:`battle.fight`.

Movement (published base rules, as we know them): troops move from one territory to another
that borders it by land (Titans board) or is linked by a chain of the mover's own fleets; one
move is one land border *or* one chain (``Board.adjacent_or_linked``). Fleets move up to 3 sea
spaces (``Board.fleet_paths``), more with a ``move_range`` power; a fleet entering a sea with
enemy fleets stops there and fights (Forgotten 9), and may sail on from there with a new, paid
sail. Nobody moves into or through a teammate's territory or sea (Team 4), nor into a sea next
to Polyphemus, nor out of Medusa's territory.

Battles: the attacker's standing orders come from the act's ``[attack]`` table (``retreat``,
``casualties``, ``sea_retreat``, ``sea_casualties``), the defender's from
``state["standing"][defender]``. A land defender adds its Fortresses and Metropolis (Battle
1.1) and every ``territory_defence`` power standing on the territory; a sea defender adds the
Ports of the territories it controls that touch the sea (Battle 1.2: our reading of which
Ports count). Lasting ``battle_bonus`` powers of each side and one-time ones armed this turn
are named bonuses. Heroes of strength above 1 add the excess as a bonus. Egyptian
Reinforcements are lost last when the data says so (``egyptian_destroyed_last``).

Retreats (Battle 2): a land side retreats to a territory it controls adjacent or fleet-linked
to the battle (first the places its order's `to` lists, in order; then, for the attacker, where
it came from; then the first by id), fleets to an empty adjacent sea likewise;
with no such place a side cannot retreat. Medusa on the battle territory forbids retreat.

After a land battle the winner holds the territory; taking an enemy's territory is a
*conquest*: buildings, the Metropolis and prosperity markers stay with the territory and so
pass to the winner, and so do the artifacts, monuments and special Metropolis cards standing
there (Misc Special Metropolis 1). One gold goes on the Necropolis per regular Troop slain on
either side (Misc Necropolis 2). A player left without territories is eliminated and their
fleets and figures leave the board (Forgotten 6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.errors import ProblemsError
from pbem.games.cyclades import battle
from pbem.games.cyclades.battle import (
    ATTACKER,
    DEFENDER,
    NEVER_RETREAT,
    RetreatRule,
    Side,
    Unit,
)
from pbem.games.cyclades.components import Effect
from pbem.games.cyclades.metropolis import would_win
from pbem.games.cyclades.state import sea_units, territories_of
from pbem.games.cyclades.turn import (
    Turn,
    add_necropolis_gold,
    battle_bonuses,
    hand_of,
    is_enemy,
    kill_egyptian,
    kill_hero,
    kraken_seas,
    move_card,
    own_fleet_seas,
    pinned,
    power_total,
    repelled_seas,
    reserve,
    shielded,
    special_sites,
    territory_defence,
)

#: A fleet move's reach (published base rules, Poseidon), before ``move_range`` powers.
FLEET_RANGE = 3


@dataclass
class Party:
    """The land units of one move: counts, and Heroes, Egyptians and artifacts by id."""

    troops: int = 0
    undead: int = 0
    titans: int = 0
    heroes: list[str] = field(default_factory=list)
    egyptians: list[str] = field(default_factory=list)
    artifacts: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Party:
        return cls(int(raw.get("troops", 0) or 0), int(raw.get("undead", 0) or 0),
                   int(raw.get("titans", 0) or 0), [str(h) for h in raw.get("heroes", []) or []],
                   [str(e) for e in raw.get("egyptians", []) or []],
                   [str(a) for a in raw.get("artifacts", []) or []])

    def units(self) -> int:
        return self.troops + self.undead + self.titans + len(self.heroes) + len(self.egyptians)

    def describe(self) -> str:
        parts = [f"{n} {name}" for n, name in ((self.troops, "troop"), (self.undead, "undead"),
                                               (self.titans, "Titan")) if n]
        parts += self.heroes + self.egyptians
        out = ", ".join(parts) or "nobody"
        return out + (f" (carrying {', '.join(self.artifacts)})" if self.artifacts else "")

    def as_dict(self) -> dict[str, Any]:
        return {"troops": self.troops, "undead": self.undead, "titans": self.titans,
                "heroes": list(self.heroes), "egyptians": list(self.egyptians),
                "artifacts": list(self.artifacts)}


# --- checks -----------------------------------------------------------------------------------


def party_problem(t: Turn, src: str, party: Party) -> str:
    """Whether ``party`` stands on ``src``, which the acting player controls."""
    if src not in t.state["territories"]:
        return f"{src} is not a territory of this board"
    here = t.territory(src)
    if here["owner"] != t.player:
        return f"{src} is not yours"
    if party.units() < 1:
        return "no unit moves"
    for key, n in (("troops", party.troops), ("undead", party.undead), ("titans", party.titans)):
        if n < 0 or int(here[key]) < n:
            return f"{src} has {here[key]} {key}, not {n}"
    for key, ids in (("heroes", party.heroes), ("egyptians", party.egyptians),
                     ("artifacts", party.artifacts)):
        missing = [x for x in ids if x not in here[key]]
        if missing or len(set(ids)) != len(ids):
            return f"{', '.join(missing) or 'a repeated id'} is not on {src}"
    if pinned(t.c, t.state, src):
        return f"Medusa holds every unit on {src}"
    return ""


def attack_problem(t: Turn, dst: str, source: str = "") -> str:
    """Whether the acting player may march into ``dst`` (not a question of route): Team 4
    (never into an ally's territory), Chiron (``block_island``), Forgotten 6 (a player's only
    territory, unless taking it wins the game at once)."""
    owner = t.owner(dst)
    if not owner or owner == t.player:
        return ""
    if not is_enemy(t.state, t.player, owner):
        return f"{dst} is your teammate's (Team 4)"
    if shielded(t.c, t.state, dst) or (source and shielded(t.c, t.state, dst, source)):
        return f"Chiron protects {dst}"
    if territories_of(t.state, owner) == [dst] and not would_win(t.c, t.board, t.state,
                                                                 t.player, dst):
        return (f"{dst} is {owner}'s last territory, and taking it would not win you the "
                "game at once (Forgotten 6)")
    return ""


def route_problem(t: Turn, src: str, dst: str, *, anywhere: bool = False) -> str:
    """One land border or one chain of the acting player's fleets (``anywhere``: Pegasus, the
    Phoenix: no chain needed)."""
    if dst not in t.state["territories"]:
        return f"{dst} is not a territory of this board"
    if src == dst:
        return "a move needs two different territories"
    if anywhere:
        return ""
    if not t.board.adjacent_or_linked(src, dst, own_fleet_seas(t.state, t.player)):
        return f"{dst} neither borders {src} nor is linked to it by a chain of your fleets"
    return ""


def march_problem(t: Turn, src: str, dst: str, party: Party, *, anywhere: bool = False,
                  source: str = "") -> str:
    return (party_problem(t, src, party) or route_problem(t, src, dst, anywhere=anywhere)
            or attack_problem(t, dst, source))


def fleet_reach(t: Turn, src: str, extra: int = 0) -> dict[str, int]:
    """Where fleets on ``src`` can sail in one move: ``Board.fleet_paths`` over at most 3 seas
    plus ``move_range`` powers, stopping in seas of enemy fleets (Forgotten 9) and never
    entering a teammate's sea (Team 4) nor a sea next to Polyphemus."""
    reach = FLEET_RANGE + power_total(t.c, t.state, t.player, "move_range") + extra
    enemies: set[str] = set()
    closed = set(repelled_seas(t.c, t.board, t.state))
    for sid, sea in t.state["seas"].items():
        if sea_units(sea) and sea["owner"] and sea["owner"] != t.player:
            (enemies if is_enemy(t.state, t.player, sea["owner"]) else closed).add(sid)
    paths = t.board.fleet_paths(src, reach, blocked=enemies | closed)
    return {s: d for s, d in paths.items() if s not in closed}


def sail_problem(t: Turn, src: str, dst: str, fleets: int, undead_fleets: int, *,
                 extra: int = 0) -> str:
    """Whether the acting player's fleets can make this sail now (``extra``: a one-time
    ``move_range``)."""
    if src not in t.state["seas"] or dst not in t.state["seas"]:
        return "name two sea spaces of this board"
    here = t.sea(src)
    if here["owner"] != t.player:
        return f"you have no fleets on {src}"
    if fleets < 0 or undead_fleets < 0 or fleets + undead_fleets < 1:
        return "no fleet sails"
    if int(here["fleets"]) < fleets or int(here["undead_fleets"]) < undead_fleets:
        return (f"{src} has {here['fleets']} fleets and {here['undead_fleets']} undead fleets, "
                f"not {fleets} and {undead_fleets}")
    if dst not in fleet_reach(t, src, extra):
        return (f"{dst} is out of reach of {src} (at most "
                f"{FLEET_RANGE} seas, not through enemy fleets, Forgotten 9)")
    return ""


# --- moving -----------------------------------------------------------------------------------


def take(t: Turn, src: str, party: Party) -> None:
    here = t.territory(src)
    here["troops"] -= party.troops
    here["undead"] -= party.undead
    here["titans"] -= party.titans
    for key, ids in (("heroes", party.heroes), ("egyptians", party.egyptians),
                     ("artifacts", party.artifacts)):
        for x in ids:
            here[key].remove(x)


def put(t: Turn, dst: str, party: Party, player: str) -> None:
    there = t.territory(dst)
    there["owner"] = player
    there["troops"] += party.troops
    there["undead"] += party.undead
    there["titans"] += party.titans
    there["heroes"].extend(party.heroes)
    there["egyptians"].extend(party.egyptians)
    for a in party.artifacts:
        there["artifacts"].append(a)
        if a not in hand_of(t.state, player)["artifacts"]:
            move_card(t.state, "artifacts", a, player)


def march(t: Turn, src: str, dst: str, party: Party, *, rule: str, how: str,
          ability: Effect | None = None, source: str = "") -> None:
    """Move ``party`` (checked by :func:`march_problem`) and fight if ``dst`` is an enemy's.
    ``ability``: an Egyptian's special-attack ability (Misc Egyptian Reinforcements 4)."""
    take(t, src, party)
    owner = t.owner(dst)
    t.say("move", rule, f"{t.player} moves {party.describe()} from {src} to {dst} ({how}).",
          player=t.player, src=src, dst=dst, units=party.as_dict(), how=how)
    if not owner or owner == t.player:
        taken = not owner
        put(t, dst, party, t.player)
        if taken:
            t.say("occupy", rule, f"{t.player} now controls {dst}.", player=t.player,
                  territory=dst)
        return
    land_battle(t, src, dst, party, ability=ability)


# --- battles ----------------------------------------------------------------------------------


def _retreat_rule(raw: object, where: str) -> RetreatRule:
    try:
        return battle.parse_retreat(raw, where)
    except ProblemsError:
        return NEVER_RETREAT


def _casualties(raw: object, where: str, sea: bool, egyptians_last: bool) -> tuple[str, ...]:
    try:
        order = battle.parse_casualty_order(raw, where, sea=sea)
    except ProblemsError:
        order = battle.complete_order((), sea)
    if egyptians_last and not sea:
        order = (*(k for k in order if k != battle.EGYPTIAN), battle.EGYPTIAN)
    return order


def _orders(t: Turn, player: str, sea: bool) -> tuple[RetreatRule, tuple[str, ...]]:
    """A side's standing orders: the act's [attack] for the acting player, else the player's
    sealed [defend] (``state["standing"]``)."""
    raw: Mapping[str, Any] = (t.attack if player == t.player
                              else t.state.get("standing", {}).get(player, {}))
    prefix = "sea_" if sea else ""
    last = t.c.rules.egyptian_destroyed_last
    return (_retreat_rule(raw.get(prefix + "retreat"), f"[standing {player}] retreat"),
            _casualties(raw.get(prefix + "casualties"), f"[standing {player}] casualties",
                        sea, last))


class _Reroller:
    """A one-time ``reroll`` power (Helm of Darkness): the first die of the armed side that
    shows 0 or 1 is rolled again, once, under ``<label>/reroll`` (our reading of "roll one
    combat die again": a player rerolls a bad die)."""

    def __init__(self, stream: Any, sides: set[str]) -> None:
        self.stream = stream
        self.left = set(sides)
        self.rerolled: list[dict[str, Any]] = []

    def faces(self, faces: Sequence[int], label: str) -> int:
        value: int = self.stream.faces(faces, label)
        side = label.rsplit("/", 1)[-1]
        if side in self.left and value <= 1:
            self.left.discard(side)
            again: int = self.stream.faces(faces, label + "/reroll")
            self.rerolled.append({"side": side, "first": value, "again": again,
                                  "label": label + "/reroll"})
            value = again
        return value


def _report_battle(t: Turn, result: battle.BattleResult, stream: _Reroller) -> None:
    """The battle's events, and any die rolled again (Misc Divine Favors 4), in the turn."""
    for event in result.events():
        event.setdefault("player", t.player)
        t.public.append(event)
    for r in stream.rerolled:
        t.say("reroll", "Misc Divine Favors 4", f"{t.player} rolls the {r['first']} again: "
              f"{r['again']}.", player=t.player, **r)


def _armed_bonuses(t: Turn, where: str) -> tuple[list[tuple[str, int]], bool]:
    """One-time ``battle_bonus`` and ``reroll`` powers armed this turn for a battle on
    ``where``: spent by the first such battle."""
    bonuses: list[tuple[str, int]] = []
    reroll = False
    keep: list[tuple[str, Effect]] = []
    for source, effect in t.armed:
        if effect.kind == "battle_bonus" and effect.text("where") == where:
            bonuses.append((source, effect.number("amount")))
        elif effect.kind == "reroll" and not reroll:
            reroll = True
        else:
            keep.append((source, effect))
    t.armed = keep
    return bonuses, reroll


def land_units(t: Turn, tid: str) -> list[Unit]:
    here = t.territory(tid)
    units = [Unit(battle.TROOP, f"troop-{i}") for i in range(1, int(here["troops"]) + 1)]
    units += [Unit(battle.UNDEAD, f"undead-{i}") for i in range(1, int(here["undead"]) + 1)]
    units += [Unit(battle.TITAN, f"titan-{i}") for i in range(1, int(here["titans"]) + 1)]
    units += [Unit(battle.HERO, h) for h in here["heroes"]]
    units += [Unit(battle.EGYPTIAN, e) for e in here["egyptians"]]
    return units


def party_units(party: Party) -> list[Unit]:
    units = [Unit(battle.TROOP, f"troop-{i}") for i in range(1, party.troops + 1)]
    units += [Unit(battle.UNDEAD, f"undead-{i}") for i in range(1, party.undead + 1)]
    units += [Unit(battle.TITAN, f"titan-{i}") for i in range(1, party.titans + 1)]
    units += [Unit(battle.HERO, h) for h in party.heroes]
    units += [Unit(battle.EGYPTIAN, e) for e in party.egyptians]
    return units


def survivors_party(units: Sequence[Unit], artifacts: Sequence[str] = ()) -> Party:
    return Party(sum(1 for u in units if u.kind == battle.TROOP),
                 sum(1 for u in units if u.kind == battle.UNDEAD),
                 sum(1 for u in units if u.kind == battle.TITAN),
                 [u.id for u in units if u.kind == battle.HERO],
                 [u.id for u in units if u.kind == battle.EGYPTIAN], list(artifacts))


def _hero_extra(t: Turn, heroes: Sequence[str]) -> list[tuple[str, int]]:
    return [(h, t.c.heroes[h].strength - 1) for h in heroes
            if h in t.c.heroes and t.c.heroes[h].strength > 1]


def _first_open(options: Sequence[str], prefer: Sequence[str]) -> str:
    """The first of ``prefer`` (the player's ``to``, then a default such as where the
    attacker came from) that is among ``options``, else the first option by id."""
    for choice in prefer:
        if choice in options:
            return choice
    return options[0] if options else ""


def _land_retreat(t: Turn, tid: str, player: str, prefer: Sequence[str] = ()) -> str:
    """Battle 2: a territory ``player`` controls, adjacent or fleet-linked to ``tid``."""
    if pinned(t.c, t.state, tid):
        return ""
    near = t.board.reachable_territories(tid, own_fleet_seas(t.state, player))
    return _first_open([x for x in near if t.owner(x) == player], prefer)


def _sea_retreat(t: Turn, sid: str, prefer: Sequence[str] = ()) -> str:
    """Battle 2: fleets retreat to an empty adjacent sea (not Polyphemus's nor the Kraken's)."""
    closed = repelled_seas(t.c, t.board, t.state) | kraken_seas(t.c, t.state)
    return _first_open([s for s in t.board.adjacent_seas(sid)
                        if not sea_units(t.sea(s)) and s not in closed], prefer)


def _remove_lost(t: Turn, tid: str, lost: Sequence[Unit]) -> None:
    here = t.territory(tid)
    for u in lost:
        if u.kind in (battle.TROOP, battle.UNDEAD, battle.TITAN):
            key = {battle.TROOP: "troops", battle.UNDEAD: "undead", battle.TITAN: "titans"}
            here[key[u.kind]] -= 1
        elif u.kind == battle.HERO:
            kill_hero(t.state, u.id)
        elif u.kind == battle.EGYPTIAN:
            kill_egyptian(t.state, u.id)


def _kill_party_losses(t: Turn, lost: Sequence[Unit]) -> None:
    """Units lost by the attacking party (already off the board): Heroes and Egyptians leave
    for good."""
    for u in lost:
        if u.kind == battle.HERO:
            kill_hero(t.state, u.id)
        elif u.kind == battle.EGYPTIAN:
            kill_egyptian(t.state, u.id)


def strike(t: Turn, tid: str, count: int, why: str, rule: str) -> int:
    """Remove up to ``count`` of the units on ``tid`` before a battle (regular troops first,
    then undead, then Egyptians; never Heroes nor Titans); regular troops slain."""
    here = t.territory(tid)
    slain = 0
    removed: list[str] = []
    for _ in range(count):
        if here["troops"]:
            here["troops"] -= 1
            slain += 1
            removed.append("troop")
        elif here["undead"]:
            here["undead"] -= 1
            removed.append("undead")
        elif here["egyptians"]:
            e = sorted(here["egyptians"])[0]
            kill_egyptian(t.state, e)
            removed.append(e)
    if removed:
        t.say("strike", rule, f"{why}: {', '.join(removed)} removed from {tid}.",
              territory=tid, removed=removed)
        add_necropolis_gold(t, slain, f"troops slain on {tid}")
    return slain


def land_battle(t: Turn, src: str, dst: str, party: Party, *,
                ability: Effect | None = None) -> None:
    """Battle 1-2 on ``dst`` between the arriving ``party`` (already taken off ``src``) and
    the units of its owner; then survivors, retreats, conquest."""
    defender = t.owner(dst)
    rule_e = "Misc Egyptian Reinforcements 4"
    pre_slain = 0
    if ability is not None and ability.kind == "strike_on_arrival":
        pre_slain += strike(t, dst, ability.number("count"), "The Scorpion strikes on arrival",
                            rule_e)
    a_retreat, a_order = _orders(t, t.player, sea=False)
    d_retreat, d_order = _orders(t, defender, sea=False)
    if ability is not None and ability.kind == "trample":
        units = land_units(t, dst)
        if units:
            lost = battle.choose_casualty(units, d_order)
            _remove_lost(t, dst, [lost])
            pre_slain += 1 if lost.kind == battle.TROOP else 0
            t.say("trample", rule_e, f"The War Elephant tramples a {lost.kind} of {defender} "
                  f"on {dst} before the first roll.", territory=dst, unit=lost.as_dict())
            add_necropolis_gold(t, 1 if lost.kind == battle.TROOP else 0, "trampled")
    here = t.territory(dst)
    a_bonus = battle_bonuses(t.c, t.state, t.player, "land", "attack") + _hero_extra(
        t, party.heroes)
    armed, reroll = _armed_bonuses(t, "land")
    a_bonus += armed
    d_bonus = (battle_bonuses(t.c, t.state, defender, "land", "defence")
               + territory_defence(t.c, t.state, dst) + _hero_extra(t, here["heroes"]))
    a_dest = _land_retreat(t, dst, t.player, prefer=(*a_retreat.to, src))
    d_dest = "" if ability is not None and ability.kind == "no_retreat" else _land_retreat(
        t, dst, defender, prefer=d_retreat.to)
    attacker = Side(t.player, party_units(party), a_bonus, a_order, a_retreat, bool(a_dest))
    defending = Side(defender, land_units(t, dst), d_bonus, d_order, d_retreat, bool(d_dest))
    fortresses = sum(t.c.buildings[b].land_defence for b in here["buildings"]
                     if b in t.c.buildings)
    stream = _Reroller(t.rng.public, {ATTACKER} if reroll else set())
    result = battle.fight(dst, False, attacker, defending, stream, fortresses=fortresses,
                          metropolises=1 if here["metropolis"] else 0)
    _report_battle(t, result, stream)
    _kill_party_losses(t, result.losses[ATTACKER])
    _remove_lost(t, dst, result.losses[DEFENDER])
    slain = result.regular_troops_lost()
    add_necropolis_gold(t, slain[ATTACKER] + slain[DEFENDER], f"the battle of {dst}")
    survivors = survivors_party(result.survivors[ATTACKER], party.artifacts)
    if result.retreated == ATTACKER:
        put(t, a_dest, survivors, t.player)
        return
    if result.retreated == DEFENDER:
        gone = survivors_party(result.survivors[DEFENDER])
        take(t, dst, gone)
        put(t, d_dest, gone, defender)
    if result.winner != ATTACKER:
        # The attack failed: an artifact carried along stays on the battlefield, whose holder
        # takes it (our reading of "moves with your units").
        for a in party.artifacts:
            here["artifacts"].append(a)
            move_card(t.state, "artifacts", a, defender)
        return
    put(t, dst, survivors, t.player)
    conquer(t, dst, defender)
    if ability is not None and ability.kind == "raise_fallen":
        raised = min(slain[DEFENDER] + pre_slain, reserve(t.c, t.state, t.player, "troop"))
        if raised:
            here["troops"] += raised
            t.say("raise_fallen", rule_e, f"The Mummy raises {raised} of the fallen as "
                  f"{t.player}'s troops on {dst}.", player=t.player, territory=dst,
                  troops=raised)


def conquer(t: Turn, tid: str, loser: str) -> None:
    """The acting player has taken ``tid`` from ``loser``: what stands there changes hands."""
    state = t.state
    here = t.territory(tid)
    here["owner"] = t.player
    moved: list[str] = []
    for a in here["artifacts"]:
        if move_card(state, "artifacts", a, t.player) != t.player:
            moved.append(a)
    for m in here["monuments"]:
        if m in state["monuments"]["built"]:
            state["monuments"]["built"][m]["owner"] = t.player
        if move_card(state, "monuments", m, t.player) != t.player:
            moved.append(m)
    for card, where in sorted(special_sites(state).items()):
        if where == tid:
            state["metropolises"]["held"][card] = t.player
            if move_card(state, "metropolises", card, t.player) != t.player:
                moved.append(card)
    last = not territories_of(state, loser)
    t.say("conquest", "Battle 1", f"{t.player} conquers {tid} from {loser}"
          + (f", taking {', '.join(moved)}" if moved else "") + "."
          + (f" It was {loser}'s last territory." if last else ""),
          player=t.player, territory=tid, **{"from": loser}, last_territory=last,
          buildings=list(here["buildings"]), metropolis=bool(here["metropolis"]),
          cards=moved)
    if moved and any(c in t.c.artifacts for c in moved):
        check_artifacts(t)
    if last:
        eliminate(t, loser)


def eliminate(t: Turn, loser: str) -> None:
    """Forgotten 6: an eliminated player's possessions leave the board (fleets, figures)."""
    if loser in t.state["eliminated"]:
        return
    t.state["eliminated"].append(loser)
    for sea in t.state["seas"].values():
        if sea["owner"] == loser:
            sea.update(owner="", fleets=0, undead_fleets=0)
    for fid in sorted(f for f, x in t.state["figures"].items() if x["owner"] == loser):
        del t.state["figures"][fid]
        t.state["creature_track"]["discard"].append(fid)
    t.say("eliminated", "Forgotten 6", f"{loser} has no territory left and is eliminated: "
          "their fleets and figures leave the board.", player=loser)


def check_artifacts(t: Turn) -> None:
    """Victory 2 / Team 6: all artifacts with one player (or team) win at once; the rest of
    the turn is not played (the lead's victory check ends the game)."""
    need = t.c.rules.artifacts_for_victory
    teams = t.state["game"].get("teams") or {}
    groups: dict[str, list[str]] = {}
    for p in t.state["game"]["players"]:
        groups.setdefault(str(teams.get(p, p)), []).append(p)
    for group, members in sorted(groups.items()):
        held = sum(len(hand_of(t.state, p)["artifacts"]) for p in members)
        if held >= need:
            t.say("all_artifacts", "Team 6" if teams else "Victory 2",
                  f"{' and '.join(members)} hold all {need} artifacts: an immediate victory.",
                  players=members, team=group if teams else "")
            t.over = True


def sail(t: Turn, src: str, dst: str, fleets: int, undead_fleets: int) -> None:
    """Move fleets (checked by :func:`sail_problem`); a sea battle if ``dst`` holds enemy
    fleets; the Kraken's sea destroys what enters."""
    here, there = t.sea(src), t.sea(dst)
    here["fleets"] -= fleets
    here["undead_fleets"] -= undead_fleets
    if not sea_units(here):
        here["owner"] = ""
    t.say("sail", "Base Poseidon", f"{t.player} sails {fleets + undead_fleets} fleet(s) from "
          f"{src} to {dst}.", player=t.player, src=src, dst=dst, fleets=fleets,
          undead_fleets=undead_fleets)
    if dst in kraken_seas(t.c, t.state):
        t.say("kraken", "Base creatures", f"The Kraken in {dst} destroys the arriving "
              "fleets.", sea=dst, fleets=fleets + undead_fleets)
        return
    owner = there["owner"]
    if not sea_units(there) or owner == t.player:
        there["owner"] = t.player
        there["fleets"] += fleets
        there["undead_fleets"] += undead_fleets
        return
    sea_battle(t, src, dst, fleets, undead_fleets)


def sea_battle(t: Turn, src: str, dst: str, fleets: int, undead_fleets: int) -> None:
    """Battle 1.2 at sea: the arriving fleets against the fleets on ``dst``."""
    there = t.sea(dst)
    defender = str(there["owner"])
    a_retreat, a_order = _orders(t, t.player, sea=True)
    d_retreat, d_order = _orders(t, defender, sea=True)
    a_units = ([Unit(battle.FLEET, f"fleet-{i}") for i in range(1, fleets + 1)]
               + [Unit(battle.UNDEAD_FLEET, f"undead-{i}") for i in range(1, undead_fleets + 1)])
    d_units = ([Unit(battle.FLEET, f"fleet-{i}") for i in range(1, int(there["fleets"]) + 1)]
               + [Unit(battle.UNDEAD_FLEET, f"undead-{i}")
                  for i in range(1, int(there["undead_fleets"]) + 1)])
    armed, reroll = _armed_bonuses(t, "sea")
    a_bonus = battle_bonuses(t.c, t.state, t.player, "sea", "attack") + armed
    d_bonus = battle_bonuses(t.c, t.state, defender, "sea", "defence")
    # Battle 1.2, our reading: the Ports on the defender's territories touching this sea.
    ports = sum(t.c.buildings[b].sea_defence for tid in t.board.territories_of(dst)
                if t.owner(tid) == defender for b in t.territory(tid)["buildings"]
                if b in t.c.buildings)
    a_dest = _sea_retreat(t, dst, prefer=(*a_retreat.to, src))
    d_dest = _sea_retreat(t, dst, prefer=d_retreat.to)
    attacker = Side(t.player, a_units, a_bonus, a_order, a_retreat, bool(a_dest))
    defending = Side(defender, d_units, d_bonus, d_order, d_retreat, bool(d_dest))
    stream = _Reroller(t.rng.public, {ATTACKER} if reroll else set())
    result = battle.fight(dst, True, attacker, defending, stream, ports=ports)
    _report_battle(t, result, stream)
    lost_d = result.losses[DEFENDER]
    there["fleets"] -= sum(1 for u in lost_d if u.kind == battle.FLEET)
    there["undead_fleets"] -= sum(1 for u in lost_d if u.kind == battle.UNDEAD_FLEET)
    left = result.survivors[ATTACKER]
    a_fleets = sum(1 for u in left if u.kind == battle.FLEET)
    a_undead = len(left) - a_fleets
    if result.retreated == DEFENDER:
        moved = (int(there["fleets"]), int(there["undead_fleets"]))
        there.update(fleets=0, undead_fleets=0, owner="")
        t.sea(d_dest).update(owner=defender, fleets=moved[0], undead_fleets=moved[1])
    if not sea_units(there):
        there["owner"] = ""
    target = a_dest if result.retreated == ATTACKER else dst
    if left and (result.retreated == ATTACKER or result.winner == ATTACKER):
        sea = t.sea(target)
        sea["owner"] = t.player
        sea["fleets"] += a_fleets
        sea["undead_fleets"] += a_undead

"""Battle (TO BATTLE!, WEAPONS, OTHER BATTLE EQUIPMENT, MONSTER MANUAL; Battle 1-10, Weapon 1-7,
Gear 1-2, Monster <Name>, PC abilities, Item 4 and 8, Act 3 and 7, Rare A1, A4, B1, B3).

One call of :func:`attack` is one round (Battle 4: the caller has paid the 1 AP). Every model
friendly to the attacker in its square fights with it, every model friendly to the target in
the target's square defends (Battle 5, massed); a ranged attack is one model against one. Each
side's total is the sum of its models' dice and modifiers; the higher side deals the sum of its
models' damage, an equal score costs each side one point (Battle 2). The losing side
distributes the points (Battle 8) by its owners' standing orders (``soak``, ``cover``), then
each point is saved or lands (Gear 1-2, PC Hoplite 3, monster saves). A model at 0 HP is slain
(:func:`slay`): imprisoned on a 5+ if its killers may (Battle 9), Kleos to every PC and NPC of
the killing side (Battle 10).

Dice labels: ``combat/<id>`` (a model's dice), ``reroll/<id>`` (war talisman),
``damage/<id>``, ``save/<id>/<n>``, ``hoplite/<id>/<n>``, ``gorgon/<id>``, ``lampad/<id>``,
``steal/<id>``, ``imprison/<id>``; a hazard's ``<what>/attack``, ``<what>/<id>``,
``<what>/damage``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbem.games.hetairos import skill
from pbem.games.hetairos.table import Model, Table

if TYPE_CHECKING:
    from pbem.games.hetairos.scenarios import Scenario

# Ruling: the Monster Manual prices only monsters; a slain player character is worth the Kleos of
# an ordinary enemy (1), an NPC or a settlement's defender that of its monster type.
PC_KLEOS = 1
#: The ranged launchers in the order a shooter prefers them when it names none.
RANGED = ("bow_of_artemis", "bow", "amazon", "sling")


# ---- what a model carries and may shoot ----------------------------------------------------


def _items(m: Model) -> list[str]:
    items: list[str] = m.get("items", [])
    return items


def weapons_of(t: Table, m: Model) -> list[str]:
    """Weapon ids the model carries: items that are weapons (Weapon 1-7) and the rare weapons
    (Trident, Rare A4; Bow of Artemis, Rare B1). NPCs and monsters carry none."""
    people = t.c.people
    return [i for i in _items(m) if i in people.weapons
            or (i in people.rare_items and people.rare_items[i].weapon)]


def ranges(t: Table, m: Model) -> dict[str, int]:
    """What ``m`` may shoot with and how far (PC Amazon 1, Weapon 2 and 4, Rare B1, Monster
    Amazon): ``{"amazon": 1 or 2, "bow": 1, "sling": 1, "bow_of_artemis": 3 or 4}``."""
    out: dict[str, int] = {}
    items = _items(m)
    amazon_pc = m["side"] == "pc" and m["type"] == "amazon"
    if amazon_pc:
        ab = t.c.character("amazon").ability("ranged_attack")
        if ab is not None:
            out["amazon"] = ab.bow_range if "bow" in items else ab.range
    elif m["side"] != "pc":
        mon = t.c.world.monsters.get(m["type"])
        if mon is not None and "attacks_adjacent" in mon.specials:
            out["amazon"] = 1  # Monster Amazon: "THE NEIGHBOURING SQUARE"
    for w in ("bow", "sling"):
        if w in items:
            out[w] = t.c.people.weapons[w].range
    if "bow_of_artemis" in items:
        rare = t.c.people.rare_items["bow_of_artemis"]
        out["bow_of_artemis"] = rare.amazon_range if amazon_pc else rare.range
    return out


@dataclass(frozen=True)
class _Arm:
    """A weapon's effect in a round (one weapon bonus per round, Battle 3)."""

    id: str = ""
    combat: int = 0
    damage: int = 0
    ignores_saves: bool = False


def _arm(t: Table, m: Model, w: str, mates: list[Model]) -> _Arm:
    """The bonus of weapon ``w`` to ``m`` this round (Weapon 1-7, Rare A4)."""
    people = t.c.people
    if w in people.rare_items:
        rare = people.rare_items[w]
        return _Arm(w, rare.combat_bonus, rare.damage_bonus)
    wp = people.weapons.get(w)
    if wp is None:
        return _Arm()
    base = people.weapons[wp.like] if wp.like else wp
    combat = 0
    if base.condition == "ap_left_at_end_of_turn":
        combat += base.combat_bonus if m.get("spear") else 0
    elif base.condition == "moved_this_turn":
        combat += base.combat_bonus if m.get("moved") else 0
    else:
        combat += base.combat_bonus
    if wp.like:
        combat += wp.combat_bonus
    if wp.per_other_wielder:
        # Ruling: the Sarissa's phalanx bonus (+1 per other Sarissa wielder in the square, on
        # the same side) comes on top of the Spear's, whether or not the Spear's applies.
        others = sum(1 for o in mates if o["id"] != m["id"] and w in _items(o))
        combat += wp.per_other_wielder * others
    return _Arm(w, combat, wp.damage_bonus + (base.damage_bonus if wp.like else 0),
                wp.ignores_saves)


def _choose_arm(t: Table, m: Model, mates: list[Model], *, ranged: bool, pref: str) -> _Arm:
    """The one weapon ``m`` uses this round (Battle 3): the named one if it carries it, else the
    best applicable one. At range: the launcher (Bow, Sling -2, Bow of Artemis, the Amazon's
    own shot), and no hand weapon's bonus."""
    if ranged:
        can = ranges(t, m)
        use = pref if pref in can else next((r for r in RANGED if r in can), "")
        wp = t.c.people.weapons.get(use)
        return _Arm(use, wp.range_modifier if wp is not None else 0)
    carried = [w for w in weapons_of(t, m) if w not in ("bow", "sling", "bow_of_artemis")]
    if pref in carried:
        return _arm(t, m, pref, mates)
    arms = [_arm(t, m, w, mates) for w in carried]
    arms = [a for a in arms if a.combat or a.damage or a.ignores_saves]
    if not arms:
        return _Arm()
    # Ruling: "best" = the largest combat + damage bonus, a saves-ignoring weapon first on ties.
    return max(arms, key=lambda a: (a.combat + a.damage, a.ignores_saves, a.combat))


# ---- one round -------------------------------------------------------------------------------


@dataclass
class _Roll:
    m: Model
    spec: str
    dice: list[int]
    base: int  # the dice total with any printed plus ("2d6+3")
    mods: int = 0
    why: list[str] = field(default_factory=list)
    arm: _Arm = field(default_factory=_Arm)
    knowledge: bool = False

    @property
    def total(self) -> int:
        return self.base + self.mods

    def shown(self, t: Table) -> str:
        dice = "+".join(str(d) for d in self.dice) if self.dice else str(self.base)
        plus = self.base - sum(self.dice) if self.dice else 0
        text = dice + (f"{plus:+d}" if plus else "")
        if self.mods:
            text += f"{self.mods:+d}"
        if self.dice and (self.mods or plus or len(self.dice) > 1):
            text += f"={self.total}"
        return f"{t.name(self.m['id'])} ({text})"


@dataclass(frozen=True)
class _Hit:
    """One point of damage on its way, with what it ignores."""

    ignores_saves: bool = False
    ignores_armour: bool = False


def _age(m: Model) -> int:
    mid = str(m["id"])
    return int(mid[1:]) if mid[1:].isdigit() else 0


def _side(t: Table, lead: Model, foe: Model) -> list[Model]:
    """Battle 5: the living models in ``lead``'s square on its side that are enemies of
    ``foe``, ``lead`` first then oldest first."""
    mates = [o for o in t.in_square(lead["at"], lead) if t.enemies(o, foe) and o is not lead]
    return [lead, *sorted(mates, key=_age)]


def _has(t: Table, m: Model, special: str) -> bool:
    if m["side"] == "pc":
        return False
    mon = t.c.world.monsters.get(m["type"])
    return mon is not None and special in mon.specials


def _scenario(t: Table) -> Scenario:
    from pbem.games.hetairos import scenarios

    return scenarios.get(t.state["scenario"])


def _lost(m: Model) -> int:
    return max(0, int(m["max_hp"]) - int(m["hp"]))


def _memo(t: Table, m: Model, key: str) -> int:
    """A check ``m`` made this round against ``key`` (Gorgon, Lampad, Shade): 1 passed,
    -1 failed, 0 not yet. Ruling: such a check is made once per combat, a combat being the
    fights of one game round."""
    value = int(m.get("braved", {}).get(key, 0))
    rnd = int(t.state["round"])
    return (1 if value > 0 else -1) if abs(value) == rnd else 0


def _remember(t: Table, m: Model, key: str, passed: bool) -> None:
    rnd = int(t.state["round"])
    m.setdefault("braved", {})[key] = rnd if passed else -rnd


def _gorgon_source(t: Table, m: Model) -> bool:
    """Monster Gorgon, and a bearer of the Aegis (Rare B3: "THE SAME SPECIAL RULES AS FOR A
    GORGON")."""
    return _has(t, m, "petrify") or "aegis" in _items(m)


def _gorgon(t: Table, side: list[Model], foes: list[Model]) -> dict[str, int]:
    """Monster Gorgon: each model in a Gorgon's square (not carrying an Aspis or the Aegis)
    fights with its eyes closed (-5) or rolls a d6, turned to stone on 3 or less, by its
    owner's standing ``gorgon`` order. Returns the penalties; the petrified die here."""
    out: dict[str, int] = {}
    sources = [f for f in foes if _gorgon_source(t, f)]
    if not sources:
        return out
    numbers = t.c.world.monsters["gorgon"].numbers or {}
    penalty = numbers.get("eyes_closed_penalty", 5)
    stone = numbers.get("stone_on_or_below", 3)
    for m in side:
        near = [s for s in sources if s["at"] == m["at"]]
        if not near or "aspis" in _items(m) or "aegis" in _items(m):
            continue
        key = f"gorgon:{near[0]['id']}"
        # Ruling: monsters, settlement forces and NPCs of no owner fight with eyes closed; a
        # player's models follow the player's standing `gorgon` order.
        owner = str(m.get("owner", ""))
        order = t.state["standing"].get(owner, {}).get("gorgon", "eyes_closed") if owner \
            else "eyes_closed"
        if order == "risk":
            memo = _memo(t, m, key)
            if memo == 0:
                roll = t.d6(f"gorgon/{m['id']}")
                _remember(t, m, key, roll > stone)
                if roll <= stone:
                    t.say("petrified", f"{t.name(m['id'])} meets the gaze of "
                          f"{t.name(near[0]['id'])}: a {roll}, turned to stone at {m['at']}.",
                          model=m["id"], roll=roll, by=near[0]["id"])
                    m["hp"] = 0
                    slay(t, m, near)
                else:
                    t.say("gorgon", f"{t.name(m['id'])} braves the gaze of "
                          f"{t.name(near[0]['id'])}: a {roll}.", model=m["id"], roll=roll)
            continue
        out[m["id"]] = -penalty
    return out


def _madness(t: Table, m: Model, foes: list[Model]) -> tuple[int, list[str]]:
    """Monster Lampad, Monster Shade: a free knowledge check of 5+ before fighting one, -3 (-1)
    to combat if it fails. Ruling: NPCs and monsters, who make no skill checks (Skill 2), take
    the penalty; a PC checks once per combat and opponent type, with its knowledge dice and
    bonuses, and may reroll a failure with a talisman (Item 2) by its standing ``reroll``."""
    total, why = 0, []
    seen: set[str] = set()
    for f in foes:
        if f["side"] == "pc" or f["type"] in seen:
            continue
        mon = t.c.world.monsters.get(f["type"])
        if mon is None or mon.knowledge_check is None:
            continue
        seen.add(f["type"])
        need, penalty = mon.knowledge_check
        passed = False
        if m["side"] == "pc":
            key = f"mad:{f['type']}"
            memo = _memo(t, m, key)
            if memo:
                passed = memo > 0
            else:
                n = skill.dice_for(t, m, "knowledge")
                spec = f"{n}d6" if n > 1 else "d6"
                got, _ = t.roll_each(spec, f"{f['type']}/{m['id']}")
                plus, _ = skill.bonus(t, m, "knowledge")
                passed = got + plus >= need
                owner = str(m.get("owner", ""))
                if (not passed and "talisman" in _items(m)
                        and t.state["standing"].get(owner, {}).get("reroll", True)):
                    _items(m).remove("talisman")
                    got, _ = t.roll_each(spec, f"reroll/{f['type']}/{m['id']}")
                    passed = got + plus >= need
                _remember(t, m, key, passed)
                t.say("check", f"{t.name(m['id'])} rolls knowledge {got + plus} against "
                      f"the {mon.name}'s {need}+: {'passed' if passed else 'failed'}.",
                      model=m["id"], check="knowledge", total=got + plus, need=need,
                      passed=passed)
        if not passed:
            total += penalty
            why.append(f"{mon.name} {penalty:+d}")
    return total, why


def _roll(t: Table, m: Model, mates: list[Model], foes: list[Model], penalties: dict[str, int],
          *, ranged: bool, pref: str) -> _Roll:
    """One model's dice and modifiers this round (Battle 2-3)."""
    sphinx = m["side"] == "pc" and any(_has(t, f, "fights_knowledge") for f in foes)
    arm = _choose_arm(t, m, mates, ranged=ranged, pref=pref)
    mad, mad_why = _madness(t, m, foes)  # "MUST BE ROLLED BEFORE FIGHTING"
    extra, floor = _scenario(t).combat_edge(t, m)  # Coop 2: Ares' Wrath
    if m["side"] == "pc":
        # Monster Sphinx: "PLAYERS MUST USE A KNOWLEDGE ROLL, NOT A COMBAT ROLL".
        kind = "knowledge" if sphinx else "combat"
        n = skill.dice_for(t, m, kind) + extra
        spec = f"{n}d6" if n > 1 else "d6"
        if ranged and arm.id == "bow_of_artemis":
            spec = t.c.people.rare_items["bow_of_artemis"].dice  # Rare B1: "A 2D6 ATTACK"
    else:
        mon = t.c.world.monsters[m["type"]]
        spec = mon.combat
        if spec == "per_opponent":  # Monster Chimera: "AS MANY DICE AS THEY HAVE OPPONENTS"
            spec = f"{max(1, len(foes))}d6"
    base, dice = t.roll_each(spec, f"combat/{m['id']}")
    base = max(base, floor)
    r = _Roll(m, spec, dice, base, arm=arm, knowledge=sphinx)
    if m["side"] == "pc":
        plus, why = skill.bonus(t, m, "knowledge" if sphinx else "combat")
        r.mods += plus
        r.why += why
    # Ruling: against the Sphinx a weapon's combat bonus does not help the knowledge roll (its
    # damage bonus still counts).
    if arm.combat and not sphinx:
        r.mods += arm.combat
        r.why.append(f"{arm.id} {arm.combat:+d}")
    if _has(t, m, "wound_rage") and _lost(m):
        numbers = t.c.world.monsters[m["type"]].numbers or {}
        rage = _lost(m) * numbers.get("combat_per_wound", 1)
        r.mods += rage
        r.why.append(f"wounds {rage:+d}")  # Monster Hydra
    if penalties.get(m["id"]):
        r.mods += penalties[m["id"]]
        r.why.append(f"eyes closed {penalties[m['id']]:+d}")
    r.mods += mad
    r.why += mad_why
    return r


def _damage(t: Table, r: _Roll, *, ranged: bool) -> int:
    """What one winning model deals (Battle 2: 1; PC Myrmidon 1: 2; the Monster Manual's
    damage, rolled; Monster Hydra +1 per HP lost; Weapon 1, 3, Rare A4 +1; Rare B1 d3)."""
    m = r.m
    if m["side"] == "pc":
        if ranged and r.arm.id == "bow_of_artemis":
            dealt = t.roll(t.c.people.rare_items["bow_of_artemis"].damage, f"damage/{m['id']}")
        else:
            dealt = t.c.character(m["type"]).damage
    else:
        mon = t.c.world.monsters[m["type"]]
        dealt = t.roll(mon.damage, f"damage/{m['id']}")
        if "wound_rage" in mon.specials:
            dealt += _lost(m) * (mon.numbers or {}).get("damage_per_wound", 1)
    return dealt + r.arm.damage


def _hit_of(t: Table, r: _Roll) -> _Hit:
    mon = t.c.world.monsters.get(r.m["type"]) if r.m["side"] != "pc" else None
    return _Hit(r.arm.ignores_saves or (mon is not None and mon.ignores_saves),
                mon is not None and mon.ignores_armour_saves)


def _order(t: Table, side: list[Model]) -> list[Model]:
    """Battle 8, "WHICH THE LOSING SIDE DECIDES": the order in which a side's models take its
    points. A player side: the leading model's owner first, then seat order; before each
    player's own models, the PCs of players whose standing ``cover`` names that player
    (Battle 6); each player's models by its standing ``soak`` (``npcs_first``, ``me_first``,
    ``most_hp``). Any other side: the leading model (the one attacked), then oldest first."""
    lead = side[0]
    if lead["side"] not in ("pc", "npc"):
        return side
    seats: list[str] = list(t.state["seats"])
    owners: list[str] = []
    for m in side:
        if m["owner"] not in owners:
            owners.append(m["owner"])
    owners.sort(key=lambda o: (o != lead["owner"], seats.index(o) if o in seats else len(seats)))
    standing = t.state["standing"]
    out: list[Model] = []
    for o in owners:
        for c in owners:
            if c != o and o in standing.get(c, {}).get("cover", []):
                out += [m for m in side if m["owner"] == c and m["side"] == "pc"
                        and m not in out]
        mine = [m for m in side if m["owner"] == o and m not in out]
        soak = standing.get(o, {}).get("soak", "npcs_first")
        npcs = sorted((m for m in mine if m["side"] != "pc"), key=_age)
        pcs = [m for m in mine if m["side"] == "pc"]
        if soak == "me_first":
            mine = pcs + npcs
        elif soak == "most_hp":
            mine = sorted(mine, key=lambda m: (-int(m["hp"]), _age(m)))
        else:
            mine = npcs + pcs
        out += mine
    return out


def _share(t: Table, side: list[Model], hits: list[_Hit]) -> list[tuple[Model, list[_Hit]]]:
    """Battle 8: fill each model of the side up to its HP in :func:`_order`, then the points
    left over go round again in the same order (Ruling, analysis 5.3 item 3: 5 points on three
    1-HP Hoplites fall 2, 2, 1, each then saved or not)."""
    order = [m for m in _order(t, side) if m["hp"] > 0]
    if not order or not hits:
        return []
    got: dict[str, list[_Hit]] = {m["id"]: [] for m in order}
    left = list(hits)
    for m in order:
        while left and len(got[m["id"]]) < int(m["hp"]):
            got[m["id"]].append(left.pop(0))
    i = 0
    while left:
        got[order[i % len(order)]["id"]].append(left.pop(0))
        i += 1
    return [(m, got[m["id"]]) for m in order if got[m["id"]]]


def _save(t: Table, m: Model, hit: _Hit, n: int) -> tuple[bool, str]:
    """Whether one point on ``m`` is saved (Gear 1-2, Rare A1, PC Hoplite 3, monster saves)."""
    if hit.ignores_saves:
        return False, ""
    if m["side"] == "pc":
        items = _items(m)
        if not hit.ignores_armour:
            need = 0
            if "nemean_hide" in items:  # Rare A1: 3+, "CANNOT BE IMPROVED", replaces the others
                need = t.c.people.rare_items["nemean_hide"].save
            elif "aspis" in items and "armour" in items:
                need = t.c.people.equipment["armour"].combined_save
            elif "aspis" in items or "armour" in items:
                need = t.c.people.equipment["aspis" if "aspis" in items else "armour"].save
            if need:
                roll = t.d6(f"save/{m['id']}/{n}")
                if roll >= need:
                    return True, f"{roll} on {need}+"
        ab = t.c.character(m["type"]).ability("save")
        if ab is not None and ab.effect == "save":
            # PC Hoplite 3: its own roll, not a piece of armour (the Stymphalian Bird's
            # "IGNORES ARMOUR SAVES" leaves it), 6 improved by 1 for each of Aspis and Armour.
            need = ab.threshold - ab.amount * sum(1 for e in ab.improved_by if e in items)
            roll = t.d6(f"hoplite/{m['id']}/{n}")
            if roll >= need:
                return True, f"{roll} on {need}+"
        return False, ""
    mon = t.c.world.monsters.get(m["type"])
    if mon is not None and mon.save:
        roll = t.d6(f"save/{m['id']}/{n}")
        if roll >= mon.save:
            return True, f"{roll} on {mon.save}+"
    return False, ""


def _hurt(t: Table, victim: Model, hits: list[_Hit], killers: list[Model],
          drainers: list[Model]) -> int:
    """Apply points one at a time with saves; points left on a dead model are wasted."""
    landed, saved = 0, []
    for n, hit in enumerate(hits, 1):
        if victim["hp"] <= 0:
            break
        ok, how = _save(t, victim, hit, n)
        if ok:
            saved.append(how)
            continue
        victim["hp"] -= 1
        landed += 1
        for d in drainers:  # Monster Mormo: +1 HP per HP lost fighting it, no maximum
            if d["hp"] > 0:
                d["hp"] += 1
    name = t.name(victim["id"])
    if saved:
        t.say("save", f"{name} saves {len(saved)} point{'s' if len(saved) > 1 else ''} "
              f"({', '.join(saved)}).", model=victim["id"], saved=len(saved))
    if landed:
        t.say("wound", f"{name} loses {landed} health ({max(victim['hp'], 0)} left).",
              model=victim["id"], points=landed, hp=max(int(victim["hp"]), 0))
        drained = [d for d in drainers if d["hp"] > 0]
        for d in drained:
            t.say("drain", f"{t.name(d['id'])} drinks {landed} health ({d['hp']}).",
                  model=d["id"], points=landed, hp=int(d["hp"]))
    if victim["hp"] <= 0 and landed:
        victim["hp"] = 0
        if _has(t, victim, "rests"):
            # Monster Cerberus: "RESTS FOR A TURN THEN REGAINS IT ALL" (the world phase
            # restores it); only the Thunderbolt (slay) kills it.
            victim["resting"] = 1
            t.say("rests", f"{name} falls at {victim['at']} and rests.", model=victim["id"])
        else:
            slay(t, victim, killers)
    return landed


def wound(t: Table, victim: Model, points: int, *, source: Model | None = None,
          ignores_saves: bool = False, ignores_armour: bool = False) -> int:
    """Apply ``points`` one at a time with the victim's saves; returns points that landed;
    kills at 0 HP (calls slay). A Mormo ``source`` drinks each point that lands."""
    if victim["hp"] <= 0 or points <= 0:
        return 0
    hits = [_Hit(ignores_saves, ignores_armour)] * points
    killers = [source] if source is not None else []
    drainers = [source] if source is not None and _has(t, source, "drains") else []
    return _hurt(t, victim, hits, killers, drainers)


def kleos_of(t: Table, victim: Model) -> int:
    """What beating ``victim`` is worth (Battle 10, Monster Manual; PC_KLEOS for a PC)."""
    if victim["side"] == "pc":
        return PC_KLEOS
    mon = t.c.world.monsters.get(victim["type"])
    return mon.kleos if mon is not None else PC_KLEOS


def _imprison(t: Table, victim: Model, killers: list[Model]) -> bool:
    """Battle 9: a defeated capturable enemy is imprisoned on a d6 of 5+ when one of its
    killers' players orders it (standing ``imprison``, default true); NPCs take prisoners for
    their owner's character."""
    if victim["side"] == "pc":
        return False
    mon = t.c.world.monsters.get(victim["type"])
    if mon is None or not mon.capturable:
        return False
    standing = t.state["standing"]
    for k in killers:
        if k["side"] not in ("pc", "npc"):
            continue
        owner = str(k["owner"])
        holder = t.pc(owner)
        if holder is None or not standing.get(owner, {}).get("imprison", True):
            continue
        roll = t.d6(f"imprison/{victim['id']}")
        if roll < 5:
            t.say("imprison", f"{t.name(k['id'])} fails to imprison {t.name(victim['id'])} "
                  f"(a {roll}).", model=victim["id"], roll=roll, captured=False)
            return False
        holder["prisoners"].append(victim["type"])
        victim["captured"] = True
        t.say("captured", f"{t.name(k['id'])} takes {t.name(victim['id'])} prisoner (a {roll})"
              f" for {t.name(holder['id'])}.", model=victim["id"], victim_type=victim["type"],
              by=k["id"], player=owner, roll=roll)
        return True
    return False


def slay(t: Table, victim: Model, killers: list[Model]) -> None:
    """Death (or capture, Battle 9) of a model, Kleos (Battle 10) to every killer that is a
    PC/NPC, Kobalos PC +1 Gold per Kleos (PC Kobalos 2). A slain PC's player is out
    (``state["dead"]``). The model stays in ``state["models"]`` with 0 HP."""
    victim["hp"] = 0
    captured = _imprison(t, victim, killers)
    kleos = kleos_of(t, victim)
    heroes = [k for k in killers if k["side"] in ("pc", "npc") and k is not victim]
    gains: list[str] = []
    for k in heroes:
        k["kleos"] = int(k.get("kleos", 0)) + kleos
        gain = f"{t.name(k['id'])} +{kleos} Kleos"
        if k["side"] == "pc":
            per = sum(a.amount for a in t.c.character(k["type"]).with_effect("gold_per_kleos"))
            if per and kleos:
                t.gold(k, per * kleos)
                gain += f" and +{per * kleos} Gold"
        gains.append(gain)
    mon = t.c.world.monsters.get(victim["type"]) if victim["side"] != "pc" else None
    how = "is taken prisoner" if captured else "is slain"
    text = f"{t.name(victim['id'])} {how} at {victim['at']}"
    text += f"; {', '.join(gains)}." if gains and kleos else "."
    fields: dict[str, object] = {"victim": victim["id"], "victim_type": victim["type"],
                                 "great": bool(mon is not None and mon.great),
                                 "by": [k["id"] for k in killers], "kleos": kleos,
                                 "captured": captured}
    if victim["side"] in ("pc", "npc"):
        fields["player"] = victim["owner"]
    t.say("slain", text, **fields)
    if victim["side"] == "pc":
        player = str(victim["owner"])
        if player not in t.state["dead"]:
            t.state["dead"].append(player)
        t.say("pc-dead", f"{t.name(victim['id'])} is dead: {player}'s hero has fallen.",
              player=player, model=victim["id"])


def _steal(t: Table, winners: list[_Roll], losers: list[Model], target: Model) -> list[_Roll]:
    """Monster Kobalos: a winning Kobalos takes d3 Gold from a losing player character that has
    any (the one attacked first) instead of its damage, and vanishes (no Kleos). Returns the
    winners whose damage still counts. Ruling: a settlement's Kobaloi guards fight as normal."""
    out = []
    for r in winners:
        m = r.m
        purse = [p for p in [target, *losers] if p["side"] == "pc" and p["hp"] > 0
                 and int(p.get("gold", 0)) > 0]
        if m["side"] != "monster" or not _has(t, m, "steals") or not purse:
            out.append(r)
            continue
        victim = purse[0]
        mon = t.c.world.monsters[m["type"]]
        took = min(int(victim["gold"]), t.roll(mon.steals or "d3", f"steal/{m['id']}"))
        t.gold(victim, -took)
        m["hp"] = 0
        m["vanished"] = True
        t.say("stolen", f"{t.name(m['id'])} steals {took} Gold from {t.name(victim['id'])} "
              f"and vanishes.", model=victim["id"], by=m["id"], gold=took)
    return out


def _reroll(t: Table, rolls: list[_Roll]) -> str:
    """Item 8: the losing side's first PC with a War talisman (and standing ``reroll``)
    rerolls its own dice once; the talisman is used up. Returns its id or ""."""
    for r in rolls:
        m = r.m
        owner = str(m.get("owner", ""))
        if (m["side"] == "pc" and "war_talisman" in _items(m)
                and t.state["standing"].get(owner, {}).get("reroll", True)):
            _items(m).remove("war_talisman")
            r.base, r.dice = t.roll_each(r.spec, f"reroll/{m['id']}")
            return str(m["id"])
    return ""


def attack(t: Table, attacker: Model, target: Model, *, ranged: bool = False,
           weapon: str = "") -> None:
    """One round of combat initiated by `attacker` against `target` (Battle 2-8). The caller has
    already paid the 1 AP (Battle 4) and checked the target is in the same square (or in range
    when `ranged`). Works for any attacker: PC, NPC, monster, defender."""
    if attacker["hp"] <= 0 or target["hp"] <= 0:
        return
    # Battle 5-7: massed in a square; a ranged attack is one against one.
    att = [attacker] if ranged else _side(t, attacker, target)
    dfn = [target] if ranged else _side(t, target, attacker)
    pen = _gorgon(t, att, dfn) | _gorgon(t, dfn, att)
    att = [m for m in att if m["hp"] > 0]
    dfn = [m for m in dfn if m["hp"] > 0]
    if not att or not dfn or attacker["hp"] <= 0:
        return
    ra = [_roll(t, m, att, dfn, pen, ranged=ranged, pref=weapon if m is attacker else "")
          for m in att]
    rd = [_roll(t, m, dfn, att, pen, ranged=False, pref="") for m in dfn]
    notes: list[str] = []
    rerolled: set[str] = set()
    for _ in range(2):
        ta, td = sum(r.total for r in ra), sum(r.total for r in rd)
        if ta == td:
            break
        losing = ra if ta < td else rd
        key = "a" if losing is ra else "d"
        if key in rerolled:
            break
        rerolled.add(key)
        who = _reroll(t, losing)
        if not who:
            break
        notes.append(f"{t.name(who)} rerolls with the war talisman")
    ta, td = sum(r.total for r in ra), sum(r.total for r in rd)
    winner = "attackers" if ta > td else "defenders" if td > ta else "tie"
    # PC Amazon 1: "IF THESE FAIL THE AMAZON DOES NOT LOSE HEALTH". Ruling: nor on a tie.
    safe = ranged and attacker["side"] == "pc" and attacker["type"] == "amazon"

    def told(rolls: list[_Roll], total: int) -> str:
        text = ", ".join(r.shown(t) for r in rolls)
        return f"{text} [{total}]" if len(rolls) > 1 else text

    verb = {"attackers": "beats", "defenders": "loses to", "tie": "ties with"}[winner]
    if len(att) > 1 and winner != "tie":
        verb = {"beats": "beat", "loses to": "lose to"}[verb]
    elif len(att) > 1:
        verb = "tie with"
    plan: list[tuple[list[Model], list[_Hit], list[Model]]] = []
    dealt = 0
    if winner == "tie":
        # Battle 2: equal scores, each side loses a point. Monster Witch (and Lampad, seed
        # defect 4): she takes none. Ruling: a side holding such a model puts its point on her.
        dealt = 1
        for side, foes in ((att, dfn), (dfn, att)):
            if side is att and safe:
                continue
            unhurt = [m for m in side if m["side"] != "pc"
                      and t.c.world.monsters[m["type"]].tie_unhurt]
            if unhurt:
                t.say("unhurt", f"{t.name(unhurt[0]['id'])} takes no harm from the tie.",
                      model=unhurt[0]["id"])
                continue
            plan.append((side, [_Hit()], foes))
    else:
        wins, lose = (ra, dfn) if winner == "attackers" else (rd, att)
        if not (winner == "defenders" and safe):
            wins = _steal(t, wins, lose, lose[0])
            hits: list[_Hit] = []
            each: list[_Hit] = []
            for r in wins:
                n = _damage(t, r, ranged=ranged and r.m is attacker)
                if _has(t, r.m, "die_per_opponent"):
                    # Monster Chimera: "DEALING 1 DAMAGE TO EACH" opponent.
                    each.append(_hit_of(t, r))
                    dealt += len(lose)
                else:
                    hits += [_hit_of(t, r)] * n
                    dealt += n
            killers = [r.m for r in (ra if winner == "attackers" else rd)]
            plan.append((lose, hits, killers))
            plan += [([m], [h], killers) for h in each for m in lose]
    result = {"attackers": f": {dealt} damage.", "defenders": f": {dealt} damage.",
              "tie": ": each side loses a point."}[winner]
    if winner == "defenders" and safe:
        result = ": the Amazon loses no health."
    note = f" ({'; '.join(notes)})" if notes else ""
    t.say("combat", f"{told(ra, ta)} {verb} {told(rd, td)}{note}{result}",
          attackers=[m["id"] for m in att], defenders=[m["id"] for m in dfn], totals=[ta, td],
          winner=winner, damage=dealt, ranged=ranged)
    for side, hits, killers in plan:
        drainers = [k for k in killers if _has(t, k, "drains") or _scenario(t).drains(t, k)]
        for victim, got in _share(t, side, hits):
            _hurt(t, victim, got, killers, drainers)
    if winner != "tie":
        from pbem.games.hetairos import scenarios

        scenarios.get(t.state["scenario"]).after_combat(
            t, att if winner == "attackers" else dfn, dfn if winner == "attackers" else att)


def hazard(t: Table, victim: Model, attack: str, damage: str, what: str) -> None:
    """An attack by an inanimate thing (a trap, a rolling rock, a collapse, a shade pit's shade):
    not massed (Battle 7). The victim rolls its combat dice and character bonus (no weapon);
    the hazard rolls `attack` dice; hazard higher -> `damage` dice of damage (saves apply);
    tie -> 1 point; victim higher -> nothing."""
    if victim["hp"] <= 0:
        return
    hit = t.roll(attack, f"{what}/attack")
    if victim["side"] == "pc":
        ch = t.c.character(victim["type"])
        n = ch.check_dice("combat")
        got = t.roll(f"{n}d6" if n > 1 else "d6", f"{what}/{victim['id']}")
        got += ch.check_bonus("combat")
    else:
        spec = t.c.world.monsters[victim["type"]].combat
        got = t.roll("d6" if spec == "per_opponent" else spec, f"{what}/{victim['id']}")
    name = t.name(victim["id"])
    if hit > got:
        points = t.roll(damage, f"{what}/damage")
        t.say("hazard", f"The {what.split('/')[0].replace('_', ' ')} ({hit}) beats {name} "
              f"({got}): {points} damage.", model=victim["id"], totals=[hit, got],
              winner="hazard", damage=points)
        wound(t, victim, points)
    elif hit == got:
        t.say("hazard", f"The {what.split('/')[0].replace('_', ' ')} ({hit}) ties with {name}"
              f": 1 damage.", model=victim["id"], totals=[hit, got], winner="tie", damage=1)
        wound(t, victim, 1)
    else:
        t.say("hazard", f"{name} ({got}) escapes the {what.split('/')[0].replace('_', ' ')} "
              f"({hit}).", model=victim["id"], totals=[hit, got], winner="victim", damage=0)

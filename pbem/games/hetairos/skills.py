"""What a character does with its skills and gear (SKILL CHECKS & SPECIAL ITEMS, TUNNELLING,
RARE ITEM CHART, PLAYER CHARACTERS, SURFACE TUNNEL): craft and knowledge checks (Skill 1-2,
Craft Forge 1-10, Craft Shrine 1-2, Know Library 1-7, Know Shrine 1-5, Act 1-7), tunnelling
(Dig 1-4), the Krenaia's healing (PC Krenaia 1-2), the rare items' uses (Rare A1-B6), handing
things over and retiring at a surface tunnel (Surface 1).

Each action returns "" when done, or a short reason why it could not be done now (nothing is
spent then); each checks and deducts its own Action Points from ``m["ap"]``. The dice of a
check and its bonuses are :mod:`pbem.games.hetairos.skill`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.games.hetairos import grid, skill
from pbem.games.hetairos.people import RareItem
from pbem.games.hetairos.table import Model, Table
from pbem.games.hetairos.world import dice_range

#: Dig 2-4: each tunnelling action and its chart (the chart's ``ap`` is the printed cost).
DIG_CHARTS = {"through": "dig_through", "enlarge": "dig_through", "collapse": "dig_collapse",
              "pit": "dig_pit", "surface": "dig_surface"}
#: Dig 2: "ROCK ... SMALL TUNNEL ... NORMAL ONE ... CAVERN".
#: How an event says each tunnelling action ("tries to ... 3,4").
DIG_VERBS = {"through": "dig through to", "enlarge": "enlarge", "collapse": "collapse",
             "pit": "dig a pit at", "surface": "dig a surface tunnel at"}
ENLARGES = {"small_tunnel": "tunnel", "tunnel": "empty_cavern", "tunnel_fork": "empty_cavern"}
PICKAXE = "pickaxe"
PRISONER = "prisoner:"


# ---------------------------------------------------------------------------- helpers


def _place(t: Table, kind: str) -> str:
    return t.c.world.squares[kind].name


def _ware(t: Table, ware: str) -> str:
    w = t.c.people.ware(ware)
    return w.name.title() if w is not None else ware


def _a(name: str) -> str:
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _owner(player: str) -> str:
    return player[:1].upper() + player[1:]


def new_npc(t: Table, owner: str, type_: str, at: str, *, home: str = "",
            bank: str = "") -> Model:
    """A new controlled NPC of ``owner`` (a monster type: Monster 0 stats unless its entry
    says otherwise), named after its owner and id ("Ann's Automaton m7")."""
    mon = t.c.monster(type_)
    mid = t.new_id()
    npc: Model = {"id": mid, "side": "npc", "owner": owner, "type": type_,
                  "name": f"{_owner(owner)}'s {mon.name} {mid}", "at": at, "bank": bank,
                  "hp": mon.hp, "max_hp": mon.hp, "ap": mon.ap, "kleos": 0, "home": home,
                  "bought_off": [], "resting": 0}
    t.models[mid] = npc
    return npc


def _join(t: Table, m: Model, victim: Model) -> None:
    """A monster comes under ``m``'s player's control (Rare A3 Caduceus, Rare B4 Lyre): it
    leaves the count of its lair or shrine."""
    home = t.square(victim.get("home", "")) if victim.get("home") else None
    if home is not None and victim["id"] in home.get("site", {}).get("attached", []):
        home["site"]["attached"].remove(victim["id"])
    victim.update(side="npc", owner=m["owner"], home="", kleos=victim.get("kleos", 0),
                  name=f"{_owner(m['owner'])}'s {t.c.monster(victim['type']).name} "
                       f"{victim['id']}")


def _attached(t: Table, k: str) -> list[str]:
    """The living creatures attached to the site at ``k`` (Forge 2, Library 2)."""
    sq = t.square(k) or {}
    ids = sq.get("site", {}).get("attached", [])
    return [i for i in ids if t.models.get(i, {}).get("hp", 0) > 0]


def _max_attached(t: Table, kind: str) -> int:
    numbers = t.c.world.squares[kind].numbers or {}
    return numbers.get("max_attached", 5)


def _kill(t: Table, victim: Model) -> None:
    """Death with no killer (a cave-in, a collapse): no Kleos, no prisoner."""
    from pbem.games.hetairos import combat
    combat.slay(t, victim, [])


def _hurt(t: Table, m: Model, dice: str, what: str) -> int:
    """Dig 3-4 "TAKE D3 POINTS OF DAMAGE (NO COMBAT ROLL)": the points go through the model's
    saves like any other damage."""
    from pbem.games.hetairos import combat
    points = t.roll(dice, f"{what}/damage/{m['id']}")
    return combat.wound(t, m, points)


def _friendly(t: Table, m: Model, target: str) -> Model | None:
    """``m`` itself (target "") or a living model on its side in its square."""
    if not target or target == m["id"]:
        return m
    other = t.models.get(target)
    if other is None or other not in t.in_square(m["at"], m):
        return None
    return other


# ---------------------------------------------------------------------------- checks


def check(t: Table, m: Model, check_id: str) -> str:
    """Skill 1-2: a PC at the check's place (Craft Forge 1-10 at a great forge, Craft Shrine 1-2
    and Know Shrine 1-5 at an Olympian shrine, Know Library 1-7 at an ancient library) spends
    2 AP and rolls ``skill.roll`` against the threshold. A pass makes an item (never a second
    of the same, Battle 3), leaves a prayer pending (Act 3-7) or builds a creature attached to
    the site (Act 1-2, Forge 2, Library 2: at most 5)."""
    ck = t.c.people.checks.get(check_id)
    if ck is None:
        return f"there is no check {check_id!r}"
    if m["side"] != "pc":
        return "NPCs never make skill checks (Skill 2)"
    here = m["at"]
    sq = t.square(here)
    if sq is None or sq["kind"] != ck.place:
        return f"{ck.text} is made at a {_place(t, ck.place)}"
    cost = t.c.people.skill_checks.ap
    if m["ap"] < cost:
        return f"a skill check needs {cost} AP, {m['ap']} left"
    makes = ck.makes
    action = t.c.people.actions.get(makes)
    if t.c.people.ware(makes) is not None:
        if makes in m["items"]:
            return f"already owns {_a(_ware(t, makes))} (Battle 3: never multiples)"
    elif action is not None and action.effect in ("next_check_bonus", "double_movement"):
        god = makes.removeprefix("pray_to_")
        # A pending blessing this very roll would use up (Athena, Zeus) may be asked again.
        if m["effects"].get(god) and god not in (skill.PRAYER_FOR["knowledge"], "zeus"):
            return f"the favour of {god.title()} is already pending"
    elif action is not None and action.effect in ("build", "create"):
        if action.needs and action.needs not in m["items"]:
            return f"{action.name.title()} needs {_a(_ware(t, action.needs))} (Act 1)"
        if len(_attached(t, here)) >= _max_attached(t, sq["kind"]):
            return (f"{_max_attached(t, sq['kind'])} creatures are already attached to the "
                    f"{_place(t, sq['kind'])} (Forge 2, Library 2)")
    m["ap"] -= cost
    from pbem.games.hetairos import scenarios

    if scenarios.get(t.state["scenario"]).auto_pass(t, m, check_id):
        total, shown = ck.threshold, "passed without a roll (the scenario's rule)"
    else:
        total, shown = skill.roll(t, m, ck.skill, f"check/{check_id}", need=ck.threshold,
                                  build=makes == "build_automaton")
    passed = total >= ck.threshold
    fields = {"model": m["id"], "check": check_id, "total": total, "need": ck.threshold,
              "passed": passed}
    who = t.name(m["id"])
    if not passed:
        t.say("check", f"{who} fails {ck.text} at {here}: {shown}.", **fields)
        return ""
    if t.c.people.ware(makes) is not None:
        m["items"].append(makes)
        t.say("check", f"{who} passes {ck.text} at {here} ({shown}) and gains "
                       f"{_a(_ware(t, makes))}.", **fields, gains=makes)
    elif action is not None and action.effect in ("build", "create"):
        # Ruling: the Automaton body is used up only by a passed build.
        if action.needs:
            m["items"].remove(action.needs)
        npc = new_npc(t, m["owner"], action.makes, here, home=here, bank=m["bank"])
        sq.setdefault("site", {}).setdefault("attached", []).append(npc["id"])
        t.say("check", f"{who} passes {ck.text} at {here} ({shown}): {npc['name']} joins "
                       f"{_owner(m['owner'])}.", **fields, npc=npc["id"])
    else:
        god = makes.removeprefix("pray_to_")
        m["effects"][god] = 1
        what = action.text.split("– ", 1)[-1].lower() if action is not None else ""
        t.say("check", f"{who} passes {ck.text} at {here} ({shown}): {what}.", **fields,
              prayer=god)
    return ""


# ---------------------------------------------------------------------------- tunnelling


def _styx(k: str) -> bool:
    return grid.on_styx(k)


def _diggable_into(t: Table, k: str) -> bool:
    """Dig 2: rock, or an undrawn square, off the Styx's column."""
    sq = t.square(k)
    return not _styx(k) and (sq is None or sq["kind"] == "rock")


def _tunnel(t: Table, m: Model, d: str) -> str:
    """A new small tunnel from ``m``'s square toward ``d`` (Dig 2: "GOING THROUGH ROCK ALWAYS
    CREATES A SMALL TUNNEL FIRST"), open along the dug line."""
    here = m["at"]
    k = grid.neighbour(here, d)
    old = t.square(k)
    t.state["map"][k] = {"kind": "small_tunnel",
                         "open": "".join(x for x in grid.DIRS if x in (d, grid.opposite(d))),
                         "found": old["found"] if old else t.state["round"], "by": m["id"]}
    sq = t.square(here)
    if sq is not None and not _styx(here) and d not in sq["open"]:
        sq["open"] = "".join(x for x in grid.DIRS if x in sq["open"] + d)
    return k


def dig(t: Table, m: Model, kind: str, d: str) -> str:
    """TUNNELLING (Dig 1-4): a pickaxe is needed; no enemy in the squares concerned.

    ``through`` (2 AP) the neighbour ``d`` (rock or undrawn) becomes a small tunnel; ``enlarge``
    (2 AP) the own square (``d`` "") or the neighbour ``d``: small tunnel -> tunnel -> empty
    cavern; both on the Dig Through chart (1 cave-in: the digger dies; 2 lose way). ``collapse``
    (4 AP) the neighbour ``d`` becomes rock, models in it die; ``pit`` (4 AP) the own cavern
    gets a pit; ``surface`` (4 AP) the own cavern becomes a surface tunnel. Every roll adds
    the tunnelling bonus (PC Cimmerian 2 +2) and may be saved by a Talisman (Item 2)."""
    chart_id = DIG_CHARTS.get(kind)
    if chart_id is None:
        return f"no tunnelling action {kind!r} (one of {', '.join(DIG_CHARTS)})"
    if d and d not in grid.DIRS:
        return f"no direction {d!r}"
    if m["side"] != "pc" or PICKAXE not in m["items"]:
        return "tunnelling requires a pickaxe (Dig 1)"
    chart = t.c.world.charts[chart_id]
    if m["ap"] < chart.ap:
        return f"{kind} needs {chart.ap} AP, {m['ap']} left"
    here = m["at"]
    sq = t.square(here)
    if sq is None:
        return "nowhere to dig from"
    why, target = _dig_target(t, m, kind, d)
    if why:
        return why
    # Ruling: "THE SQUARE CONCERNED" is the square dug and the digger's own square.
    for k in dict.fromkeys((here, target)):
        if t.enemies_at(m, k):
            return f"there are enemy models at {k} (Dig 2)"
    m["ap"] -= chart.ap
    # Ruling: a tunnelling roll is a non-combat check: Zeus's +1 and a Talisman's reroll of a
    # roll below the chart's first success row apply to it (Item 2, Act 7).
    need = min(r.roll[0] for r in chart.rows if r.result == "success")
    total, shown = skill.roll(t, m, "tunnelling", f"dig/{kind}", need=need)
    low, high = dice_range(chart.die) or (1, 6)
    row = chart.row(max(low, min(total, high)))
    who = t.name(m["id"])
    fields = {"model": m["id"], "action": kind, "square": target, "total": total,
              "result": row.result}
    if row.result == "cave_in":
        t.say("dig", f"{who} tries to {DIG_VERBS[kind]} {target} ({shown}): cave-in!",
              **fields)
        _kill(t, m)
        return ""
    if row.result == "lose_way":
        if kind != "through":
            # Ruling: enlarging in place has no way to lose; the attempt is spent.
            t.say("dig", f"{who} tries to enlarge {target} ({shown}) and loses the way: "
                         f"nothing is dug.", **fields)
            return ""
        lose = t.c.world.charts["lose_way"]
        how = lose.row(t.roll(lose.die, f"dig/lose_way/{m['id']}")).result
        d2 = grid.turn(d, how)
        k2 = grid.neighbour(here, d2)
        if _diggable_into(t, k2) and not t.enemies_at(m, k2):
            _tunnel(t, m, d2)
            t.say("dig", f"{who} digs toward {grid.NAMES[d]} ({shown}), loses the way "
                         f"({how}) and opens a small tunnel at {k2}.", **fields, went=d2)
        else:
            t.say("dig", f"{who} digs toward {grid.NAMES[d]} ({shown}), loses the way "
                         f"({how}) and gets nowhere.", **fields, went=d2)
        return ""
    if row.result == "failure":
        hurt = " and is hurt" if row.damage else ""
        t.say("dig", f"{who} fails to {DIG_VERBS[kind]} {target} ({shown}){hurt}.",
              **fields)
        if row.damage:
            _hurt(t, m, row.damage, f"dig/{kind}")
        return ""
    _dig_success(t, m, kind, d, target)
    t.say("dig", f"{who} manages to {DIG_VERBS[kind]} {target} ({shown}): "
                 f"{_dug(t, target, kind)}.", **fields)
    if row.damage:
        _hurt(t, m, row.damage, f"dig/{kind}")
    return ""


def _dug(t: Table, k: str, kind: str) -> str:
    sq = t.square(k) or {}
    if kind == "pit":
        return "a pit now lies in the floor"
    return f"it is now {t.c.world.squares[sq.get('kind', 'rock')].name.lower()}"


def _dig_target(t: Table, m: Model, kind: str, d: str) -> tuple[str, str]:
    """Why ``kind`` cannot be dug (or ""), and the square it concerns."""
    here = m["at"]
    sq = t.square(here) or {}
    if kind == "through":
        if not d:
            return "digging through needs a direction", here
        if not t.c.character(m["type"]).small_tunnels:
            # Dig 2: "A CYCLOPS CAN ONLY ENLARGE TUNNELS".
            return "a Cyclops can only enlarge tunnels (Dig 2)", here
        target = grid.neighbour(here, d)
        if not _diggable_into(t, target):
            return f"{target} is not rock (Dig 2)", target
        if _styx(here) and not grid.can_leave(sq, here, d, m["bank"]):
            # Ruling: the river is crossed only on a bridge (Styx 4), digging or not.
            return "the Styx lies between (Styx 4)", target
        return "", target
    if kind == "enlarge":
        target = grid.neighbour(here, d) if d else here
        tsq = t.square(target)
        if tsq is None or tsq["kind"] not in ENLARGES:
            return f"{target} is no tunnel to enlarge (Dig 2; Styx 2)", target
        if d and not (grid.can_leave(sq, here, d, m["bank"]) and grid.can_enter(tsq, d)):
            # Ruling: a neighbour is enlarged from a square open to it.
            return f"{target} cannot be reached from {here}", target
        return "", target
    if kind == "collapse":
        # Ruling: only a neighbour is collapsed (the digger would bury itself otherwise).
        if not d:
            return "collapse names the neighbouring square to bring down", here
        target = grid.neighbour(here, d)
        tsq = t.square(target)
        if tsq is None or not t.c.world.squares[tsq["kind"]].diggable or tsq["kind"] == "rock" \
                or not t.c.world.squares[tsq["kind"]].passable:
            return f"{target} cannot be collapsed (Styx 2)", target
        return "", target
    if d:
        return f"{kind} is dug where the digger stands", here
    kind_sq = t.c.world.squares[sq["kind"]]
    if not kind_sq.cavern or not kind_sq.diggable:
        return f"{kind} is dug only in caverns (Dig 4)", here
    if kind == "pit" and (sq["kind"] == "trapped_room" or "trap" in sq.get("site", {})):
        return f"there is already a trap at {here}", here
    if kind == "surface" and (kind_sq.settlement or sq["kind"] == "surface_tunnel"):
        return f"no surface tunnel can be dug at {here}", here
    return "", here


def _dig_success(t: Table, m: Model, kind: str, d: str, target: str) -> None:
    sq = t.square(target)
    if kind == "through":
        _tunnel(t, m, d)
    elif kind == "enlarge" and sq is not None:
        sq["kind"] = ENLARGES[sq["kind"]]
        if sq["kind"] == "empty_cavern":
            sq["open"] = grid.DIRS
    elif kind == "collapse" and sq is not None:
        # Dig 3 "TURNS SQUARE INTO ROCK": whatever stood there is buried with it.
        t.state["map"][target] = {"kind": "rock", "open": "", "found": sq.get("found", 0),
                                  "by": m["id"]}
        for o in t.at(target):
            t.say("buried", f"{t.name(o['id'])} is buried at {target}.", model=o["id"],
                  square=target)
            _kill(t, o)
    elif kind == "pit" and sq is not None:
        # Ruling: the digger stands at the edge; later entrants fall in (Trap 4).
        sq.setdefault("site", {}).update(trap="pit", spent=False)
    elif kind == "surface" and sq is not None:
        # Ruling: the cavern's former use is lost.
        sq["kind"] = "surface_tunnel"
        sq.pop("site", None)


# ---------------------------------------------------------------------------- healing


def heal(t: Table, m: Model, target: str, paid: bool) -> str:
    """PC Krenaia 1-2: +1 HP to herself or a friendly model in her square, free once a turn
    (``m["effects"]["healed"]``) or for 3 AP (``paid``, as often as AP allow); never with
    enemies in the square; never above the model's maximum."""
    if m["side"] != "pc":
        return "only a Krenaia heals (PC Krenaia 1-2)"
    ability = next((a for a in t.c.character(m["type"]).with_effect("heal")
                    if (a.ap > 0) == paid), None)
    if ability is None:
        return f"{t.name(m['id'])} cannot heal (PC Krenaia 1-2)"
    if ability.no_enemies and t.enemies_at(m):
        return "there are enemy models in the square (PC Krenaia 1-2)"
    who = _friendly(t, m, target)
    if who is None:
        return f"{target} is no friendly model here"
    if who["hp"] >= who["max_hp"]:
        return f"{t.name(who['id'])} is already at full health"
    # Ruling: PC Krenaia 2's "ANOTHER PLAYER" reads as Krenaia 1's friendly model in the
    # square; the paid heal does not need the free one first.
    if ability.per_turn and m["effects"].get("healed", 0) >= ability.per_turn:
        return "the free heal is used this turn (PC Krenaia 1)"
    if m["ap"] < ability.ap:
        return f"healing needs {ability.ap} AP, {m['ap']} left"
    m["ap"] -= ability.ap
    if ability.per_turn:
        m["effects"]["healed"] = m["effects"].get("healed", 0) + 1
    who["hp"] = min(who["max_hp"], who["hp"] + ability.amount)
    cost = f" for {ability.ap} AP" if ability.ap else ""
    t.say("healed", f"{t.name(m['id'])} heals {t.name(who['id'])}{cost}: "
                    f"{who['hp']}/{who['max_hp']} health.", model=who["id"], by=m["id"],
          hp=who["hp"], points=ability.amount)
    return ""


# ---------------------------------------------------------------------------- rare items


def use(t: Table, m: Model, item: str, arg: str) -> str:
    """Use a rare item ``m`` carries (Rare A2-A6, B2, B4-B6); ``arg`` says what on. The Nemean
    hide, the Bow of Artemis and the Aegis work by themselves (combat)."""
    if m["side"] != "pc" or item not in m["items"]:
        return f"{t.name(m['id'])} carries no {_ware(t, item)}"
    rare = t.c.people.rare_items.get(item)
    how = _USES.get(rare.effect) if rare is not None else None
    if rare is None or how is None:
        return f"the {_ware(t, item)} works by itself"
    if m["ap"] < rare.ap:
        return f"the {rare.name.title()} needs {rare.ap} AP, {m['ap']} left"
    return how(t, m, rare, arg)


def _once(m: Model, rare: RareItem) -> bool:
    return bool(rare.per_turn) and m["effects"].get(rare.id, 0) >= rare.per_turn


def _mark(m: Model, rare: RareItem) -> None:
    if rare.per_turn:
        m["effects"][rare.id] = m["effects"].get(rare.id, 0) + 1


def _monster_here(t: Table, m: Model, arg: str) -> Model | None:
    victim = t.models.get(arg)
    if (victim is None or victim["hp"] <= 0 or victim["at"] != m["at"]
            or victim["side"] != "monster"):
        return None
    return victim


def _cornucopia(t: Table, m: Model, rare: RareItem, arg: str) -> str:
    """Rare A2: free, once a turn: d6+3 Gold or 3 health back."""
    choice = arg.lower()
    if choice not in ("gold", "health"):
        return "the Cornucopia gives 'gold' or 'health'"
    if _once(m, rare):
        return "the Cornucopia is used once per turn (Rare A2)"
    if choice == "health" and m["hp"] >= m["max_hp"]:
        return f"{t.name(m['id'])} is already at full health"
    m["ap"] -= rare.ap
    _mark(m, rare)
    if choice == "gold":
        gold = t.roll(rare.dice, f"cornucopia/{m['id']}")
        t.gold(m, gold)
        t.say("cornucopia", f"The Cornucopia pours out {gold} Gold for {t.name(m['id'])}.",
              model=m["id"], gold=gold)
    else:
        m["hp"] = min(m["max_hp"], m["hp"] + rare.amount)
        t.say("cornucopia", f"The Cornucopia restores {t.name(m['id'])} to {m['hp']}/"
                            f"{m['max_hp']} health.", model=m["id"], hp=m["hp"])
    return ""


def _caduceus(t: Table, m: Model, rare: RareItem, arg: str) -> str:
    """Rare A3: 3 AP, once a turn: a monster in the square comes under the player's control;
    a Great Monster so taken uses the Caduceus up."""
    # Ruling: only monsters are converted (not settlement forces nor other players' NPCs).
    victim = _monster_here(t, m, arg)
    if victim is None:
        return f"{arg or 'that'} is no monster in this square"
    if _once(m, rare):
        return "the Caduceus is used once per turn (Rare A3)"
    m["ap"] -= rare.ap
    _mark(m, rare)
    great = t.c.monster(victim["type"]).great
    old = t.name(victim["id"])
    _join(t, m, victim)
    lost = ""
    if great:
        m["items"].remove(rare.id)
        lost = " The Caduceus is spent."
    t.say("converted", f"{t.name(m['id'])} raises the Caduceus: the {old} now serves "
                       f"{_owner(m['owner'])}.{lost}", model=victim["id"], by=m["id"],
          great=great)
    return ""


def _recruits(t: Table, m: Model, rare: RareItem, arg: str) -> str:
    """Rare A5 Dragon's teeth (d6 Hoplites), Rare B2 Amazon girdle (d6 Amazons): NPCs of the
    player at once, where the bearer stands; the item is used up."""
    type_ = "hoplite" if rare.effect == "hoplites" else "amazon"
    n = t.roll(rare.dice, f"{rare.id}/{m['id']}")
    m["ap"] -= rare.ap
    m["items"].remove(rare.id)
    ids = [new_npc(t, m["owner"], type_, m["at"], bank=m["bank"])["id"] for _ in range(n)]
    plural = t.c.monster(type_).name + ("s" if n != 1 else "")
    t.say("recruited", f"{t.name(m['id'])} uses the {rare.name.title()}: {n} {plural} join "
                       f"{_owner(m['owner'])} at {m['at']}.", model=m["id"], npcs=ids)
    return ""


def _line(t: Table, a: str, b: str, reach: int) -> bool:
    """Rare A6 "RANGE 3 SQUARES, NEEDS DIRECT LINE": ``b`` is ``a`` or up to ``reach`` squares
    from it in a straight line, every step through open sides into a drawn square. Ruling:
    the Styx's water is no wall; models on the way do not block."""
    # Ruling: the Styx's water is no wall to the bolt; models on the way do not block it.
    if a == b:
        return True
    (ax, ay), (bx, by) = grid.xy(a), grid.xy(b)
    if (ax != bx and ay != by) or grid.distance(a, b) > reach:
        return False
    d = ("E" if bx > ax else "W") if ay == by else ("S" if by > ay else "N")
    k = a
    for nxt in grid.line(a, d, grid.distance(a, b)):
        sq, nsq = t.square(k), t.square(nxt)
        if sq is None or nsq is None:
            return False
        if not (sq["kind"] == "styx" or d in sq.get("open", "")) or not grid.can_enter(nsq, d):
            return False
        k = nxt
    return True


def _thunderbolt(t: Table, m: Model, rare: RareItem, arg: str) -> str:
    """Rare A6: slay any creature (even Cerberus) up to 3 squares away in a direct line; no
    AP; one use."""
    victim = t.models.get(arg)
    if victim is None or victim["hp"] <= 0 or victim["id"] == m["id"]:
        return f"{arg or 'that'} is no living creature"
    if not _line(t, m["at"], victim["at"], rare.range):
        return f"{t.name(victim['id'])} is not in a direct line within {rare.range} squares"
    m["ap"] -= rare.ap
    m["items"].remove(rare.id)
    t.say("thunderbolt", f"{t.name(m['id'])} hurls the Thunderbolt at "
                         f"{t.name(victim['id'])} at {victim['at']}.", model=victim["id"],
          by=m["id"])
    from pbem.games.hetairos import combat
    # Ruling: a thunderbolt kill is a defeat like any other: Kleos, and Battle 9's roll to
    # imprison a capturable victim when the standing order asks for it.
    victim["resting"] = 0
    victim["hp"] = 0
    combat.slay(t, victim, [m])
    return ""


def _lyre(t: Table, m: Model, rare: RareItem, arg: str) -> str:
    """Rare B4: 3 AP instead of an attack on a monster in the square: d6 1 nothing, 2-4 it
    falls asleep and is imprisoned with no roll, 5-6 it joins the player."""
    victim = _monster_here(t, m, arg)
    if victim is None:
        return f"{arg or 'that'} is no monster in this square"
    m["ap"] -= rare.ap
    roll = t.roll(rare.dice, f"lyre/{m['id']}")
    outcome = next(o for o in rare.outcomes if o.roll[0] <= roll <= o.roll[1]).result
    old = t.name(victim["id"])
    who = t.name(m["id"])
    if outcome == "asleep":
        # Ruling: any monster asleep is imprisoned, a Great Monster too (Community 5's "3D6
        # PER GREAT MONSTER"); no Kleos, for it was not beaten in battle.
        m["prisoners"].append(victim["type"])
        victim["hp"] = 0
        victim["captured"] = True
        t.say("captured", f"{who} plays the Lyre of Orpheus ({roll}): the {old} falls asleep "
                          f"and is taken prisoner.", model=victim["id"], by=m["id"], roll=roll)
    elif outcome == "joins":
        _join(t, m, victim)
        t.say("converted", f"{who} plays the Lyre of Orpheus ({roll}): the {old} joins "
                           f"{_owner(m['owner'])}.", model=victim["id"], by=m["id"], roll=roll)
    else:
        t.say("lyre", f"{who} plays the Lyre of Orpheus ({roll}): the {old} is unmoved.",
              model=victim["id"], by=m["id"], roll=roll)
    return ""


def _sandals(t: Table, m: Model, rare: RareItem, arg: str) -> str:
    """Rare B5: 5 AP to any empty cavern drawn on the map, through walls. Ruling: it counts as
    moving, and lifts the wearer out of a pit or a trapped room."""
    sq = t.square(arg)
    if sq is None or sq["kind"] != "empty_cavern" or arg == m["at"]:
        return f"{arg or 'that'} is no other empty cavern on the map"
    # Ruling: teleporting counts as moving (Weapon 7) and lifts the wearer out of any trap.
    m["ap"] -= rare.ap
    old = m["at"]
    m.update(at=arg, bank="", came="", moved=True, stuck="")
    t.say("teleported", f"{t.name(m['id'])} steps from {old} to {arg} in the Sandals of "
                        f"Hermes.", model=m["id"], square=arg)
    return ""


def _rod(t: Table, m: Model, rare: RareItem, arg: str) -> str:
    """Rare B6: 2 AP, +1 health to every model of the bearer's side in the square; never with
    enemies there."""
    if rare.no_enemies and t.enemies_at(m):
        return "there are enemy models in the square (Rare B6)"
    hurt = [o for o in t.in_square(m["at"], m) if o["hp"] < o["max_hp"]]
    if not hurt:
        return "nobody here needs healing"
    m["ap"] -= rare.ap
    for o in hurt:
        o["hp"] = min(o["max_hp"], o["hp"] + rare.amount)
    t.say("healed", f"{t.name(m['id'])} raises the Rod of Asclepius: "
                    + ", ".join(f"{t.name(o['id'])} {o['hp']}/{o['max_hp']}" for o in hurt)
                    + ".", by=m["id"], models=[o["id"] for o in hurt], points=rare.amount)
    return ""


def _trident(t: Table, m: Model, rare: RareItem, arg: str) -> str:
    """Rare A4: a 7+ knowledge roll (a skill check, 2 AP, Skill 1) turns the empty cavern the
    bearer stands in into a magic spring."""
    sq = t.square(m["at"])
    if sq is None or sq["kind"] != "empty_cavern":
        return "the Trident works in an empty cavern"
    cost = t.c.people.skill_checks.ap
    if m["ap"] < cost:
        return f"a skill check needs {cost} AP, {m['ap']} left"
    m["ap"] -= cost
    total, shown = skill.roll(t, m, "knowledge", "trident", need=rare.threshold)
    passed = total >= rare.threshold
    if passed:
        sq["kind"] = "magic_spring"
    t.say("trident", f"{t.name(m['id'])} strikes the rock with the Trident ({shown}): "
                     + (f"{m['at']} is now a magic spring." if passed else "nothing flows."),
          model=m["id"], total=total, need=rare.threshold, passed=passed)
    return ""


_USES: dict[str, Callable[[Table, Model, RareItem, str], str]] = {
    "gold_or_heal": _cornucopia, "convert": _caduceus, "hoplites": _recruits,
    "amazons": _recruits, "slay": _thunderbolt, "lyre": _lyre, "teleport": _sandals,
    "heal_square": _rod, "trident": _trident}


# ---------------------------------------------------------------------------- giving, retiring


def give(t: Table, m: Model, item: str, to: str) -> str:
    """Hand an item, or a prisoner (``prisoner:<type>``), to another PC in the same square
    (``to``: its player or model id); 0 AP (ruling: Myth 5 "CAN BE PASSED BETWEEN PLAYERS").
    The receiver may not own two of a kind (Battle 3)."""
    other = t.models.get(to) or t.pc(to)
    if (other is None or other["side"] != "pc" or other["hp"] <= 0 or other is m
            or other["at"] != m["at"]):
        return f"{to} has no character in this square"
    if item.startswith(PRISONER):
        kind = item[len(PRISONER):]
        if kind not in m["prisoners"]:
            return f"{t.name(m['id'])} holds no {kind} prisoner"
        m["prisoners"].remove(kind)
        other["prisoners"].append(kind)
        what = f"a {t.c.monster(kind).name} prisoner" if kind in t.c.world.monsters else kind
    else:
        if item not in m["items"]:
            return f"{t.name(m['id'])} carries no {_ware(t, item)}"
        if item in other["items"]:
            return f"{t.name(other['id'])} already owns {_a(_ware(t, item))} (Battle 3)"
        m["items"].remove(item)
        other["items"].append(item)
        what = f"the {_ware(t, item)}"
    t.say("given", f"{t.name(m['id'])} gives {what} to {t.name(other['id'])}.", model=m["id"],
          to=other["id"], item=item)
    return ""


def _allowance(t: Table, m: Model) -> int:
    """The AP ``m`` started this turn with, as the turn runner gives them (Concepts 4, PC
    Centaur 1, Rare A4 +1, Battle 9 -1 per prisoner, Act 6 doubled this turn)."""
    ch = t.c.character(m["type"])
    ap = max([ch.ap] + [a.amount for a in ch.with_effect("move_allowance")])
    if "trident" in m["items"]:
        ap += t.c.people.rare_items["trident"].ap_bonus
    ap = max(ap - len(m["prisoners"]), 0)
    return ap * 2 if m["effects"].get("poseidon_turn") else ap


def retire(t: Table, m: Model, new_type: str) -> str:
    """Surface 1: at a surface tunnel, with its whole turn's allowance unspent, a PC leaves the
    underworld and its player takes ``new_type``, a character no other player has, with 0 Gold
    and Kleos, its own starting items and full health, at the same square. Ruling: the
    retiring character keeps its items and prisoners (they leave with it); the newcomer acts
    next turn."""
    if m["side"] != "pc":
        return "only a player's character retires"
    sq = t.square(m["at"])
    if sq is None or sq["kind"] != "surface_tunnel":
        return "retiring needs a surface tunnel (Surface 1)"
    if new_type not in t.c.people.characters:
        return f"no character {new_type!r}"
    if new_type == m["type"]:
        return "the new character must be another one"
    taken = {o["type"] for p, mid in t.state["pcs"].items() if p != m["owner"]
             if (o := t.models.get(mid)) is not None and o["hp"] > 0}
    if new_type in taken:
        return f"another player has the {t.c.character(new_type).name.title()}"
    if m["ap"] < _allowance(t, m) or m["moved"]:
        return "retiring needs a full turn of Action Points (Surface 1)"
    # Ruling: the retiring character takes its items and prisoners with it; the newcomer has
    # its own starting items, full health, 0 Gold and Kleos, and acts from next turn.
    ch = t.c.character(new_type)
    mid = t.new_id()
    player = m["owner"]
    new: Model = {"id": mid, "side": "pc", "owner": player, "type": new_type,
                  "name": f"{_owner(player)}'s {ch.name.title()}", "at": m["at"],
                  "bank": m["bank"], "hp": ch.hp, "max_hp": ch.hp, "ap": 0, "kleos": 0,
                  "gold": 0, "items": list(ch.starting_items), "prisoners": [], "effects": {},
                  "moved": False, "spear": False, "came": "", "stuck": ""}
    t.models[mid] = new
    m["ap"] = 0
    m["hp"] = 0  # off the map: every living-model query passes it by
    m["retired"] = True
    t.state["pcs"][player] = mid
    t.say("retired", f"{t.name(m['id'])} climbs out of the underworld at {m['at']}; "
                     f"{new['name']} takes up the quest.", player=player, model=m["id"],
          new=mid, character=new_type)
    return ""


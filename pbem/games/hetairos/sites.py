"""What special squares hold and do (CAVERN... and the square kinds after it, ANCIENT LIBRARY ..
TRAPPED ROOM, ISOLATED COMMUNITY, POLIS AND MANORS, KOBALOI SETTLEMENTS, LOST HOARD, MAGIC
SPRING, MOLTEN LAVA, MONSTER'S LAIR, SHRINE OF HECATE; analysis 5.2 "Sites").

A special square keeps what it holds in ``square["site"]`` (set up by :func:`on_draw` when the
square is drawn):

- a settlement (Community 1-6, Polis 1-9, Kobaloi 1-2): ``{"settlement": kind, "citizens": [],
  "friendly": [], "delivered": 0, "destroyed": False}`` (players in ``citizens`` / ``friendly``;
  ``delivered`` counts prisoners handed over, for Bounty Hunting), its defence force being
  models of side ``defender`` with ``home`` the square;
- a lair (Lair 1-5): ``{"lair": "great_monster", "monster": id, "fought": bool}``,
  ``{"lair": "spawn_lair", "spawn": type, "attached": [ids]}`` or ``{"lair": "shade_pit"}``;
- a Shrine of Hecate (Hecate 1-2): ``{"spawn": "hecate_devotee", "attached": []}`` (a chart:
  the devotee's type is rolled per spawn);
- a trapped room (Trap 1-6): ``{"trap": id, "spent": bool}``;
- a lost hoard (Hoard 1): ``{"taken": bool}``; molten lava (Lava 1-4): ``{"threshold": n,
  "cells": [squares covered]}``; a forge or library: ``{"attached": []}``.

Rules code only: pure functions of the state and the dice (every die through ``t.roll``).
"""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos import grid
from pbem.games.hetairos import skill as skill_mod
from pbem.games.hetairos.table import Model, Table

#: Lair 3, Hecate 2, Forge 2, Library 2: "ONLY A MAXIMUM OF FIVE CREATURES MAY BE ATTACHED".
MAX_ATTACHED = 5
SETTLEMENTS = ("polis", "manor", "kobaloi_settlement")

Site = dict[str, Any]


# ---- small helpers -------------------------------------------------------------------------


def skill_roll(t: Table, m: Model, skill: str, what: str = "") -> int:
    """The total of one check of ``skill`` (``knowledge``, ``craft``, ``tunnelling``,
    ``combat``, ``other``) by ``m``: the character's ``check_dice`` d6 + its ``check_bonus`` +
    the Master book (+2 knowledge or craft) + a pending prayer (Athena/Hephaestus +3, Zeus +1,
    used up). NPCs and monsters roll a plain d6 (Skill 2: they make no skill checks; callers
    refuse them where it matters). Delegates to :func:`pbem.games.hetairos.skill.roll`."""
    total, _shown = skill_mod.roll(t, m, skill, f"{skill}/{what}" if what else skill)
    return total


def _sq(t: Table, k: str) -> dict[str, Any]:
    sq: dict[str, Any] = t.state["map"][k]
    return sq


def _site(t: Table, k: str) -> Site:
    sq = t.square(k)
    if sq is None:
        return {}
    site: Site = sq.get("site", {})
    return site


def _kind_name(t: Table, kind: str) -> str:
    return t.c.world.squares[kind].name


def new_model(t: Table, type_: str, k: str, side: str = "monster", *, owner: str = "",
              home: str = "", name: str = "") -> Model:
    """A new monster-type model (a monster, a settlement defender or a controlled NPC) at ``k``
    with the Monster Manual's health and AP (Monster 0 defaults; rolled AP dice for Cerberus)."""
    mon = t.c.monster(type_)
    mid = t.new_id()
    ap = mon.ap or t.roll(mon.ap_dice, f"ap/{mid}")
    m: Model = {"id": mid, "side": side, "owner": owner, "type": type_,
                "name": name or mon.name, "at": k, "bank": "", "hp": mon.hp,
                "max_hp": mon.hp, "ap": ap, "kleos": 0, "home": home, "bought_off": [],
                "resting": 0, "stuck": ""}
    t.models[mid] = m
    return m


def _alive(t: Table, ids: list[str]) -> list[str]:
    return [i for i in ids if i in t.models and t.models[i]["hp"] > 0
            and not t.models[i].get("captured")]


def _defenders(t: Table, k: str) -> list[Model]:
    return [o for o in t.at(k) if o["side"] == "defender" and o.get("home") == k]


def _player_of(m: Model) -> str:
    return str(m.get("owner", ""))


# ---- drawing ---------------------------------------------------------------------------


def _settle(t: Table, k: str, kind: str) -> None:
    """Community 1-3: the settlement's defence force, never replenished."""
    sq = _sq(t, k)
    sq["kind"] = kind
    sq["site"] = {"settlement": kind, "citizens": [], "friendly": [], "delivered": 0,
                  "destroyed": False}
    names = []
    for force in t.c.world.squares[kind].force:
        mon = t.c.monster(force.monster)
        for i in range(1, force.count + 1):
            new_model(t, force.monster, k, "defender", home=k,
                      name=f"{mon.name} {i} of the {_kind_name(t, kind)} at {k}")
        names.append(f"{force.count} {mon.name}")
    t.say("settlement", f"The isolated community at {k} is a {_kind_name(t, kind)}, defended "
          f"by {' and '.join(names)} (Community 1-3).", square=k, kind=kind)


def on_draw(t: Table, k: str, by: Model) -> None:
    """A special square was just drawn at ``k`` by ``by``: set up what it holds and roll what
    the rulebook rolls when it is found (Community 1, Lair 1, Trap 0, Hecate 1).

    # Ruling: (analysis 5.2) a lair's and a community's charts are rolled once, when the square
    # is first generated ("MOVED INTO OR DISCOVERED").
    """
    sq = _sq(t, k)
    kind = sq["kind"]
    if kind == "isolated_community":
        _settle(t, k, t.chart("community", f"site/{k}/community"))
    elif kind == "lair":
        lair = t.c.world.charts["lair"].row(t.roll("d6", f"site/{k}/lair")).result
        if lair == "great_monster":
            slain = {kill["type"] for kill in t.state["goal"].get("great_kills", [])}
            if t.state["scenario"] != "beast_slayers":
                slain = set()
            for attempt in range(1, 51):
                # Coop 5: "ONCE ONE OF THE GREAT BEASTS HAS BEEN KILLED, IT MAY NOT BE FOUND
                # AGAIN" (Ruling: a slain kind rolled again is rolled anew, chart and entry)
                again = "" if attempt == 1 else f"/again{attempt}"
                side = t.c.world.charts["great_monster"].row(
                    t.roll("d6", f"site/{k}/chart{again}"))
                chart = t.c.world.charts[side.then]
                type_ = chart.row(t.roll("d6", f"site/{k}/{chart.id}{again}")).result
                if type_ not in slain:
                    break
            mon = new_model(t, type_, k, home=k)
            sq["site"] = {"lair": "great_monster", "monster": mon["id"], "fought": False}
            t.say("lair", f"The lair at {k} holds a Great Monster: the {mon['name']} "
                  f"(Lair 1, {chart.name}).", square=k, lair=lair, monster=mon["id"],
                  monster_type=type_)
        elif lair == "spawn_lair":
            type_ = t.c.world.charts["spawn_type"].row(t.roll("d6", f"site/{k}/spawn")).result
            sq["site"] = {"lair": "spawn_lair", "spawn": type_, "attached": []}
            t.say("lair", f"The lair at {k} is a spawn lair of {t.c.monster(type_).name}s "
                  f"(Lair 1, Lair 3).", square=k, lair=lair, spawn=type_)
        else:
            sq["site"] = {"lair": "shade_pit"}
            t.say("lair", f"The lair at {k} is a shade pit (Lair 1, Lair 5).", square=k,
                  lair=lair)
    elif kind == "trapped_room":
        trap = t.c.world.charts["trap"].row(t.roll("d6", f"site/{k}/trap")).result
        sq["site"] = {"trap": trap, "spent": False}
        t.say("trap", f"The trapped room at {k} holds a {t.c.world.traps[trap].name} "
              f"(Trap 0).", square=k, trap=trap)
    elif kind == "shrine_of_hecate":
        sq["site"] = {"spawn": "hecate_devotee", "attached": []}
    elif kind == "lost_hoard":
        sq["site"] = {"taken": False}
    elif kind == "molten_lava":
        sq["site"] = {"threshold": t.c.world.squares[kind].number("spread_first"),
                      "cells": [k]}
    elif kind in ("great_forge", "ancient_library"):
        sq["site"] = {"attached": []}
    from pbem.games.hetairos import scenarios

    scenarios.get(t.state["scenario"]).on_draw(t, k, by)


# ---- entering --------------------------------------------------------------------------


def rock_face(t: Table, k: str, d: str) -> bool:
    """Trap 5 "A ROCK FACE": a closed side, or a drawn neighbour that is rock (or lava, Lava 4
    "CONSIDERED TO BE ROCK") or closed toward the room.

    # Ruling: an undrawn neighbour is no rock face (the model may explore it).
    """
    if not grid.can_leave(t.square(k), k, d):
        return True
    nsq = t.square(grid.neighbour(k, d))
    if nsq is None:
        return False
    return not t.c.world.squares[nsq["kind"]].passable or not grid.can_enter(nsq, d)


def revolve(t: Table, m: Model, k: str, travel: str) -> None:
    """Trap 5: roll the revolving room chart for ``m`` (which entered moving ``travel``).
    Stuck (a 1, or a side that is a rock face): ``stuck = "revolving"`` and ``exit = ""``
    (stuck this turn); otherwise ``stuck = "revolving"`` and ``exit`` the side it is spat out
    of (``"any"``: a 6, it chooses). Moving out clears both (the turn runner).

    # Ruling: "SPAT OUT ON A SIDE" = the model may leave the room only across that side.
    """
    roll = t.roll("d6", f"trap/{k}/revolve/{m['id']}")
    m["revolve_from"] = travel  # for the roll again next time (turn.start)
    how = t.c.world.charts["revolving_room"].row(roll).result
    side = ""
    if how not in ("stuck", "choose"):
        side = grid.turn(travel, how)
        if rock_face(t, k, side):
            how = "stuck"
    m["stuck"] = "revolving"
    if how == "stuck":
        m["exit"] = ""
        why = "the room keeps revolving" if roll == 1 else \
            f"it faces the rock {grid.NAMES[side]} (as a 1)"
        t.say("trap", f"{t.name(m['id'])} is stuck in the revolving room at {k}: {why} "
              f"(Trap 5, d6 {roll}).", square=k, model=m["id"], trap="revolving_room",
              roll=roll, exit="")
        return
    m["exit"] = side or "any"
    where = f"the {grid.NAMES[side]} side" if side else "a side of its choice"
    t.say("trap", f"The revolving room at {k} spits {t.name(m['id'])} out on {where} "
          f"(Trap 5, d6 {roll}).", square=k, model=m["id"], trap="revolving_room", roll=roll,
          exit=m["exit"])


def rolling_rock(t: Table, k: str, d: str) -> list[str]:
    """Trap 3: a rock rolls out of the room at ``k`` in direction ``d`` along open squares,
    attacking every model in its path (2d6, d3+2 damage) and killing one defender of a town in
    its path; it stops at a closed side, rock, an undrawn square or the Styx. Returns the
    squares it rolled through.

    # Ruling: the rock's path starts beyond the room: the model that set it off "MAY USE ANY
    # REMAINING MOVEMENT POINTS TO GET OUT OF THE WAY", read as always out of the way.
    # Ruling: in a settlement the rock kills one defender (no roll) instead of attacking the
    # defence force; every other model there is attacked. It stops before the Styx.
    """
    from pbem.games.hetairos import combat

    trap = t.c.world.traps["rolling_rock"]
    path: list[str] = []
    cur = k
    while True:
        if not grid.can_leave(t.square(cur), cur, d):
            break
        nk = grid.neighbour(cur, d)
        nsq = t.square(nk)
        if (nsq is None or nsq["kind"] == "styx"
                or not t.c.world.squares[nsq["kind"]].passable or not grid.can_enter(nsq, d)):
            break
        cur = nk
        path.append(nk)
        site = nsq.get("site", {})
        victims = t.at(nk)
        if site.get("settlement") and not site.get("destroyed"):
            defenders = _defenders(t, nk)
            if defenders:
                victim = defenders[0]
                t.say("trap", f"The rolling rock crushes {t.name(victim['id'])} in the "
                      f"{_kind_name(t, nsq['kind'])} at {nk} (Trap 3).", square=nk,
                      model=victim["id"], trap="rolling_rock")
                combat.slay(t, victim, [])
            victims = [v for v in victims if v not in defenders]
        for v in victims:
            if v["hp"] > 0:
                combat.hazard(t, v, trap.attack, trap.damage, f"rolling_rock/{k}/{v['id']}")
    t.say("trap", f"A rock rolls {grid.NAMES[d]} out of the room at {k}"
          + (f" through {', '.join(path)}" if path else ", stopping at once") + " (Trap 3).",
          square=k, trap="rolling_rock", path=path, direction=d)
    return path


def on_enter(t: Table, m: Model, k: str, travel: str) -> list[str]:
    """Model ``m`` has just moved into ``k`` moving ``travel``: apply what entering does and
    return the halts raised (a subset of ``trap``, ``enemy``, ``treasure``). Fights with
    enemies already in the square are the turn runner's (Battle 1), not this."""
    sq = t.square(k)
    if sq is None:
        return []
    site = sq.get("site", {})
    halts: list[str] = []
    if site.get("lair") == "great_monster":
        halts += _great_monster(t, m, k, site)
    elif site.get("lair") == "shade_pit":
        halts += _shade_pit(t, m, k)
    elif "taken" in site and sq["kind"] == "lost_hoard":
        halts += _hoard(t, m, k, site)
    elif "trap" in site:
        halts += _trap(t, m, k, site, travel)
    from pbem.games.hetairos import scenarios

    if m["hp"] > 0:
        halts += scenarios.get(t.state["scenario"]).on_enter(t, m, k, travel)
    return list(dict.fromkeys(halts))


def _great_monster(t: Table, m: Model, k: str, site: Site) -> list[str]:
    """Lair 4: "IF THERE IS A GREAT MONSTER IN THE LAIR IT WILL IMMEDIATELY FIGHT THE
    DISCOVERER": once, the first player-side model to enter; the monster attacks with its AP
    for this round and takes no monster-phase action this round (analysis 5.2)."""
    if site.get("fought") or m["side"] not in ("pc", "npc"):
        return []
    mon = t.models.get(site["monster"])
    if mon is None or mon["hp"] <= 0 or mon["at"] != k:
        return []
    from pbem.games.hetairos import combat

    site["fought"] = True
    t.say("lair", f"The {mon['name']} in its lair at {k} falls on {t.name(m['id'])} at once "
          f"(Lair 4).", square=k, monster=mon["id"], model=m["id"])
    while m["hp"] > 0 and mon["hp"] > 0 and mon["ap"] > 0 and not mon.get("captured"):
        mon["ap"] -= 1  # Battle 4: 1 AP an attack
        combat.attack(t, mon, m)
    mon["acted"] = t.state["round"]
    return ["enemy"]


def _shade_pit(t: Table, m: Model, k: str) -> list[str]:
    """Lair 5: "WHEN A MODEL OF ANY SORT MOVES INTO IT D3 SHADES ROLL AN ATTACK AGAINST THEM".

    # Ruling: each Shade is an inanimate-style attack (not massed, Battle 7): its 1d6 against
    # the victim's combat dice, 1 damage; the Shade's knowledge check (Monster Shade) is for
    # fighting Shade models, not these.
    """
    from pbem.games.hetairos import combat

    shade = t.c.monster("shade")
    n = t.roll("d3", f"lair/{k}/shades/{m['id']}")
    t.say("lair", f"{n} Shade{'s' if n > 1 else ''} of the pit at {k} attack "
          f"{t.name(m['id'])} (Lair 5).", square=k, model=m["id"], shades=n)
    for i in range(1, n + 1):
        if m["hp"] <= 0:
            break
        combat.hazard(t, m, shade.combat, shade.damage, f"shade/{k}/{i}/{m['id']}")
    return ["trap"]


def _hoard(t: Table, m: Model, k: str, site: Site) -> list[str]:
    """Hoard 1: the first PC in gains 2d6 Gold; a double also gives a rare item (Rare 0: d6
    chart A/B, d6 the item).

    # Ruling: only a PC takes the hoard (NPCs and monsters carry no Gold), and only once.
    # Ruling: a rare item the PC already owns is lost (Battle 3 "NO DUPLICATE ITEMS").
    """
    if site["taken"] or m["side"] != "pc":
        return []
    gold, dice = t.roll_each("2d6", f"hoard/{k}")
    site["taken"] = True
    site["by"] = m["id"]
    site["roll"] = gold
    t.gold(m, gold)
    text = f"{t.name(m['id'])} finds the lost hoard at {k}: {gold} Gold ({dice[0]}+{dice[1]})"
    fields: dict[str, Any] = {"square": k, "model": m["id"], "gold": gold, "roll": gold}
    if dice[0] == dice[1]:
        first = t.roll("d6", f"hoard/{k}/rare")
        second = t.roll("d6", f"hoard/{k}/rare/item")
        item = t.c.people.roll_rare_item(first, second)
        fields["item"] = item.id
        if item.id in m["items"]:
            text += f" and a second {item.name}, which is of no use (a double)"
        else:
            m["items"].append(item.id)
            text += f" and, on the double, the {item.name} (Rare 0, d6 {first} then {second})"
    t.say("hoard", text + " (Hoard 1).", **fields)
    return ["treasure"]


def _trap(t: Table, m: Model, k: str, site: Site, travel: str) -> list[str]:
    """Trap 1-6, on every model entering the trapped room.

    # Ruling: traps spring on models of any sort (Trap 4 "MONSTERS MAY ALSO GET TRAPPED",
    # Trap 6 "ANY PLAYER, MONSTER OR NPC"); all but the poisoned arrow are permanent.
    """
    from pbem.games.hetairos import combat

    trap = t.c.world.traps[site["trap"]]
    name = t.name(m["id"])
    if trap.id == "poisoned_arrow":
        if site["spent"]:
            return []
        site["spent"] = True
        t.say("trap", f"A poisoned arrow flies at {name} in the room at {k} (Trap 1).",
              square=k, model=m["id"], trap=trap.id)
        combat.hazard(t, m, trap.attack, trap.damage, f"poisoned_arrow/{k}/{m['id']}")
        return ["trap"]
    if trap.id in ("pit", "snake_pit"):
        m["stuck"] = "pit"
        t.say("trap", f"{name} falls into the {trap.name.lower()} at {k} "
              f"(Trap {2 if trap.id == 'snake_pit' else 4}).", square=k, model=m["id"],
              trap=trap.id)
        if trap.id == "snake_pit":
            combat.hazard(t, m, trap.attack, trap.damage, f"snake_pit/{k}/{m['id']}")
        return ["trap"]
    if trap.id == "rolling_rock":
        if site["spent"]:
            roll = t.roll("d6", f"trap/{k}/rock/again")
            if t.c.world.charts["rolling_rock_again"].row(roll).result != "new_rock":
                return []
        site["spent"] = True
        rolling_rock(t, k, grid.opposite(travel))
        return ["trap"]
    if trap.id == "revolving_room":
        revolve(t, m, k, travel)
        return ["trap"]
    m["stuck"] = "daedalus"
    t.say("trap", f"{name} is lost in the Room of Daedalus at {k}: only a 6+ knowledge roll "
          f"gets out (Trap 6).", square=k, model=m["id"], trap=trap.id)
    return ["trap"]


# ---- settlements -----------------------------------------------------------------------


def _settlement(t: Table, m: Model, kinds: tuple[str, ...] = SETTLEMENTS
                ) -> tuple[str, Site, str]:
    """The settlement ``m`` stands in: (kind, site, "") or ("", {}, why not).

    # Ruling: no trade, citizenship or service in a destroyed settlement, in one at war with
    # the player's team, or while enemies stand in the square (Battle 1: it is contested).
    """
    if m["side"] != "pc" or m["hp"] <= 0:
        return "", {}, "only a living player character may do this"
    k = m["at"]
    sq = t.square(k)
    site = sq.get("site", {}) if sq else {}
    kind = site.get("settlement", "")
    if kind not in kinds:
        names = " or ".join(_kind_name(t, x) for x in kinds)
        return "", {}, f"not in a {names}"
    if site.get("destroyed"):
        return "", {}, f"the {_kind_name(t, kind)} at {k} is destroyed"
    if t.team_of(m) in t.state["hostile"].get(k, []):
        return "", {}, f"the {_kind_name(t, kind)} at {k} is at war with you"
    if t.enemies_at(m):
        return "", {}, "enemies are in the square"
    return kind, site, ""


def _friendly(site: Site, m: Model) -> bool:
    """Polis 7: a Manor taken, or a citizen of the Polis: "FRIENDLY" to those players."""
    return _player_of(m) in site.get("friendly", [])


def _discount(t: Table, m: Model, kind: str, site: Site) -> int:
    """Polis 9 "SUBTRACT D6 FROM ALL ITEM PRICES" at a friendly Polis or Manor.

    # Ruling: (analysis 5.2) one d6 per visit, i.e. per turn and settlement, kept in
    # ``effects["discount"]``.
    """
    trade = t.c.people.trade
    if kind not in trade.friendly_places or not _friendly(site, m):
        return 0
    k = m["at"]
    held = m["effects"].get("discount")
    if isinstance(held, dict) and held.get("at") == k and held.get("round") == t.state["round"]:
        return int(held["amount"])
    amount = t.roll(trade.friendly_discount, f"discount/{m['id']}")
    m["effects"]["discount"] = {"at": k, "round": t.state["round"], "amount": amount}
    return amount


def buy(t: Table, m: Model, ware: str) -> str:
    """Polis 1 / Kobaloi 1: buy ``ware`` at the settlement's printed price, less the friendly
    d6 (Polis 9, never below 0).

    # Ruling: (analysis 5.2) buying costs no AP; "ATTEMPT TO BUY" is a plain purchase.
    # Ruling: a bought Prayer to Zeus is the Zeus effect (+1 the next check) without a check.
    # Ruling: "+1 HEALTH POINT HEALED" may be bought again and again, up to the maximum.
    """
    kind, site, why = _settlement(t, m)
    if why:
        return why
    price = t.c.people.price(kind, ware)
    if price is None:
        return f"the {_kind_name(t, kind)} does not sell {ware}"
    item = t.c.people.ware(ware)
    label = item.name.capitalize() if item else ware
    if ware == "healing":
        if m["hp"] >= m["max_hp"]:
            return "already at full health"
    elif ware == "prayer_to_zeus":
        if m["effects"].get("zeus"):
            return "a prayer to Zeus is already pending"
    elif ware in m["items"]:
        return f"already carries a {label} (Battle 3: no duplicates)"
    cut = _discount(t, m, kind, site)
    cost = max(0, price - cut)
    if m["gold"] < cost:
        return f"{label} costs {cost} Gold, {t.name(m['id'])} has {m['gold']}"
    t.gold(m, -(cost))
    if ware == "healing":
        m["hp"] += 1
    elif ware == "prayer_to_zeus":
        m["effects"]["zeus"] = 1
    else:
        m["items"].append(ware)
    less = f" ({price} less {cut})" if cut else ""
    t.say("bought", f"{t.name(m['id'])} buys {label} at the {_kind_name(t, kind)} at "
          f"{m['at']} for {cost} Gold{less}.", model=m["id"], ware=ware, gold=cost,
          square=m["at"])
    return ""


def _sale_roll(t: Table, m: Model, dice: str) -> int:
    """Community 5 "JUST ROLL ONCE ON EACH ROLL IF SELLING MULTIPLE PRISONERS IN A TURN": one
    roll of ``dice`` a turn, kept in ``effects["sale"]``."""
    sale = m["effects"].get("sale")
    if not isinstance(sale, dict) or sale.get("round") != t.state["round"]:
        sale = {"round": t.state["round"]}
        m["effects"]["sale"] = sale
    if dice not in sale:
        sale[dice] = t.roll(dice, f"sale/{m['id']}/{dice}")
    return int(sale[dice])


def sell(t: Table, m: Model, what: str) -> str:
    """Community 5: ``what`` = ``prisoners`` (every prisoner carried: one d6 each for
    monsters, one 3d6 each for Great Monsters, one roll of each a turn) or a weapon id (its
    buying price here, less 1).

    # Ruling: a weapon not on this settlement's list sells at its Polis and Manor price less 1;
    # a weapon with no printed price (Falx, rare weapons) and other gear cannot be sold.
    # Ruling: selling costs no AP (analysis 5.2); prisoners sold count as delivered.
    """
    kind, site, why = _settlement(t, m)
    if why:
        return why
    sq = t.c.world.squares["isolated_community"]
    if what == "prisoners":
        if not m["prisoners"]:
            return "no prisoners to sell"
        total = 0
        for p in m["prisoners"]:
            great = t.c.monster(p).great
            total += _sale_roll(t, m, sq.great_prisoner_price if great else sq.prisoner_price)
        sold = list(m["prisoners"])
        m["prisoners"] = []
        t.gold(m, total)
        site["delivered"] = site.get("delivered", 0) + len(sold)
        names = ", ".join(t.c.monster(p).name for p in sold)
        t.say("sold", f"{t.name(m['id'])} sells {len(sold)} prisoner"
              f"{'s' if len(sold) > 1 else ''} ({names}) to the {_kind_name(t, kind)} at "
              f"{m['at']} for {total} Gold (Community 5).", model=m["id"], prisoners=sold,
              gold=total, square=m["at"])
        return ""
    if what not in t.c.people.weapons:
        return f"{what} is not a weapon (only weapons and prisoners are sold)"
    if what not in m["items"]:
        return f"{t.name(m['id'])} carries no {what}"
    price = t.c.people.price(kind, what)
    if price is None:
        price = t.c.people.price("polis", what)
    if price is None:
        return f"nobody prices a {t.c.people.weapons[what].name.capitalize()}"
    gold = max(0, price + t.c.people.trade.sell_modifier)
    m["items"].remove(what)
    t.gold(m, gold)
    t.say("sold", f"{t.name(m['id'])} sells a {t.c.people.weapons[what].name.capitalize()} to the "
          f"{_kind_name(t, kind)} at {m['at']} for {gold} Gold (Community 5).", model=m["id"],
          ware=what, gold=gold, square=m["at"])
    return ""


def citizen(t: Table, m: Model, pay: str) -> str:
    """Polis 5: deliver a prisoner (``pay = "prisoner"``) or pay 5 Gold (``"gold"``), then
    2d6 + Kleos >= 12 makes the player a citizen, and the Polis friendly (Polis 7).

    # Ruling: the payment is gone whatever the roll; a delivered prisoner is the first one
    # carried and counts as delivered. Citizenship costs no AP (analysis 5.2).
    """
    _kind, site, why = _settlement(t, m, ("polis",))
    if why:
        return why
    player = _player_of(m)
    if player in site["citizens"]:
        return "already a citizen"
    polis = t.c.world.squares["polis"]
    fee = polis.number("citizenship_gold")
    if pay == "gold":
        if m["gold"] < fee:
            return f"citizenship costs {fee} Gold, {t.name(m['id'])} has {m['gold']}"
        t.gold(m, -(fee))
        paid = f"{fee} Gold"
    elif pay == "prisoner":
        if not m["prisoners"]:
            return "no prisoner to deliver"
        prisoner = m["prisoners"].pop(0)
        site["delivered"] = site.get("delivered", 0) + 1
        paid = f"a prisoner ({t.c.monster(prisoner).name})"
    else:
        return f"pay with gold or prisoner, not {pay!r}"
    total, dice = t.roll_each("2d6", f"citizen/{m['id']}")
    score = total + m["kleos"]
    target = polis.number("citizenship_target")
    ok = score >= target
    if ok:
        site["citizens"].append(player)
        if player not in site["friendly"]:
            site["friendly"].append(player)
    t.say("citizenship", f"{t.name(m['id'])} pays {paid} and seeks citizenship of the Polis "
          f"at {m['at']}: {dice[0]}+{dice[1]} + {m['kleos']} Kleos = {score}, "
          + ("a citizen" if ok else f"short of {target}") + " (Polis 5).", model=m["id"],
          player=player, roll=score, citizen=ok, square=m["at"])
    return ""


def _service(t: Table, m: Model, kind: str, action: str, unfriendly: str) -> tuple[int, str]:
    """(AP cost, why not) of a friendly settlement's service (Polis 7-8): ``m`` in a ``kind``
    settlement friendly to its player, with the AP of ``action``."""
    _kind, site, why = _settlement(t, m, (kind,))
    ap = t.c.people.actions[action].ap
    if why:
        return ap, why
    if not _friendly(site, m):
        return ap, unfriendly
    if m["ap"] < ap:
        return ap, f"needs {ap} AP, {m['ap']} left"
    return ap, ""


def income(t: Table, m: Model) -> str:
    """Polis 7: at a friendly Manor, 4 AP for d6+4 Gold ("AT ANY TIME": in one's own turn,
    repeatable while the AP last, analysis 5.2)."""
    ap, why = _service(t, m, "manor", "friendly_manor_income", "the Manor is not friendly to you")
    if why:
        return why
    manor = t.c.world.squares["manor"]
    m["ap"] -= ap
    roll = t.roll("d6", f"income/{m['id']}")
    gold = roll + manor.number("friendly_income_plus")
    t.gold(m, gold)
    t.say("income", f"{t.name(m['id'])} spends {ap} AP at the friendly Manor at {m['at']} and "
          f"gains {roll}+{manor.number('friendly_income_plus')} = {gold} Gold (Polis 7).",
          model=m["id"], gold=gold, square=m["at"])
    return ""


def hire(t: Table, m: Model, how: str) -> str:
    """Polis 8: at a friendly Polis, 1 AP and 5 Gold (``how = "gold"``) or a 10+ knowledge
    roll (``"knowledge"``) gain a controlled Hoplite NPC.

    # Ruling: the knowledge roll is part of this 1-AP action, not a 2-AP skill check; a
    # failed roll still spends the AP.
    """
    ap, why = _service(t, m, "polis", "friendly_polis_hoplite",
                       "you are not a citizen of this Polis")
    if why:
        return why
    polis = t.c.world.squares["polis"]
    if how == "gold":
        fee = polis.number("friendly_hoplite_gold")
        if m["gold"] < fee:
            return f"a Hoplite costs {fee} Gold, {t.name(m['id'])} has {m['gold']}"
        m["ap"] -= ap
        t.gold(m, -(fee))
        paid = f"{fee} Gold"
    elif how == "knowledge":
        m["ap"] -= ap
        target = polis.number("friendly_hoplite_knowledge")
        roll = skill_roll(t, m, "knowledge", f"hire/{m['id']}")
        if roll < target:
            t.say("hire", f"{t.name(m['id'])} fails to win a Hoplite over at the Polis at "
                  f"{m['at']}: knowledge {roll}, not {target}+ (Polis 8).", model=m["id"],
                  roll=roll, hired=False, square=m["at"])
            return ""
        paid = f"a knowledge roll of {roll}"
    else:
        return f"hire with gold or knowledge, not {how!r}"
    owner = _player_of(m)
    npc = new_model(t, "hoplite", m["at"], "npc", owner=owner)
    npc["name"] = f"Hoplite {npc['id']} of {owner}"
    t.say("hire", f"{t.name(m['id'])} gains {npc['name']} at the Polis at {m['at']} for "
          f"{paid} (Polis 8).", model=m["id"], npc=npc["id"], hired=True, square=m["at"])
    return ""


def spring(t: Table, m: Model) -> str:
    """Spring 1: 2 AP at a Magic spring regain 1 HP (never above the maximum)."""
    if m["side"] != "pc" or m["hp"] <= 0:
        return "only a living player character may drink"
    sq = t.square(m["at"])
    if sq is None or sq["kind"] != "magic_spring":
        return "not at a Magic spring"
    spring_kind = t.c.world.squares["magic_spring"]
    ap = t.c.people.actions["magic_spring"].ap
    if m["hp"] >= m["max_hp"]:
        return "already at full health"
    if m["ap"] < ap:
        return f"needs {ap} AP, {m['ap']} left"
    m["ap"] -= ap
    m["hp"] = min(m["max_hp"], m["hp"] + spring_kind.number("heal_hp"))
    t.say("spring", f"{t.name(m['id'])} drinks at the Magic spring at {m['at']}: {m['hp']} HP "
          f"(Spring 1).", model=m["id"], hp=m["hp"], square=m["at"])
    return ""


def end_of_turn(t: Table, m: Model) -> None:
    """Kobaloi 2: a PC ending its turn in a Kobaloi settlement makes a knowledge check of 3+
    or loses d6 Gold.

    # Ruling: a PC with no Gold makes no check (nothing to lose; a pending prayer is kept); a
    # destroyed settlement has no Kobaloi left to steal.
    """
    if m["side"] != "pc" or m["hp"] <= 0 or m["gold"] <= 0:
        return
    site = _site(t, m["at"])
    if site.get("settlement") != "kobaloi_settlement" or site.get("destroyed"):
        return
    sq = t.c.world.squares["kobaloi_settlement"]
    target = sq.number("end_turn_knowledge")
    roll = skill_roll(t, m, "knowledge", f"kobaloi/{m['id']}")
    if roll >= target:
        t.say("kobaloi", f"{t.name(m['id'])} keeps an eye on the Kobaloi at {m['at']} "
              f"(knowledge {roll}, {target}+; Kobaloi 2).", model=m["id"], roll=roll, lost=0)
        return
    lost = min(m["gold"], t.roll(sq.end_turn_loss, f"kobaloi/{m['id']}/loss"))
    t.gold(m, -(lost))
    t.say("kobaloi", f"The Kobaloi at {m['at']} pick {t.name(m['id'])}'s purse: {lost} Gold "
          f"lost (knowledge {roll}, not {target}+; Kobaloi 2).", model=m["id"], roll=roll,
          lost=lost)


def station(t: Table, m: Model, npc_id: str) -> str:
    """Community 3: "PLAYERS MAY STATION MODELS THERE TO BOLSTER THE FORCE": one of the
    player's NPCs in the settlement where the character stands joins its defence force.
    Ruling: for good (it fights and falls with the force, and counts for it); no AP (the
    rulebook gives none); not in a settlement destroyed or at war with the player's side."""
    _kind, _site, why = _settlement(t, m)
    if why:
        return why
    npc = t.models.get(npc_id)
    if npc is None or npc["hp"] <= 0 or npc["side"] != "npc" or npc["owner"] != m["owner"]:
        return f"{npc_id} is no NPC of yours"
    if npc["at"] != m["at"]:
        return f"{t.name(npc_id)} is not in the settlement with you"
    k = m["at"]
    old = t.name(npc_id)
    npc.update(side="defender", home=k, stationed_by=m["owner"], stuck="")
    t.say("stationed", f"{m['owner']} stations {old} at the settlement at {k}: it joins the "
          "defence force (Community 3).", model=npc_id, player=m["owner"], square=k)
    return ""


def settlement_checks(t: Table) -> None:
    """Community 4: a settlement whose defenders are all dead while monsters stand in it is
    destroyed (the kind stays, ``site["destroyed"]``). Polis 2-3: a Manor whose defenders are
    all dead while models of a team at war with it stand there (and no monsters) is taken by
    those players: it becomes friendly to them and regains 4 Hoplites as its force.

    # Ruling: models players station there (`station`) are part of its force from then on.
    # Ruling: "ONLY PLAYERS WHO TOOK PART IN FIGHTING" = the players with models in the Manor
    # when its force falls; they are no longer at war with it.
    """
    for k, sq in t.state["map"].items():
        site = sq.get("site", {})
        kind = site.get("settlement")
        if not kind or site.get("destroyed") or _defenders(t, k):
            continue
        here = t.at(k)
        if any(o["side"] == "monster" for o in here):
            site["destroyed"] = True
            t.say("destroyed", f"Monsters have defeated the defence force of the "
                  f"{_kind_name(t, kind)} at {k}: it is destroyed (Community 4).", square=k,
                  kind=kind)
            continue
        hostile = t.state["hostile"].get(k, [])
        takers = sorted({_player_of(o) for o in here if o["side"] in ("pc", "npc")
                         and t.team_of(o) in hostile})
        if kind != "manor" or not takers:
            continue
        for p in takers:
            if p not in site["friendly"]:
                site["friendly"].append(p)
        teams = {t.state["teams"].get(p, "party") for p in takers}
        t.state["hostile"][k] = [h for h in hostile if h not in teams]
        for force in t.c.world.squares["manor"].taken_force:
            mon = t.c.monster(force.monster)
            for i in range(1, force.count + 1):
                new_model(t, force.monster, k, "defender", home=k,
                          name=f"{mon.name} {i} of the taken Manor at {k}")
        t.say("taken", f"{', '.join(takers)} take{'s' if len(takers) == 1 else ''} the Manor "
              f"at {k}; it regains 4 Hoplites as its defence force (Polis 2-3).", square=k,
              players=takers)


# ---- the world phase -------------------------------------------------------------------


def spawn(t: Table) -> None:
    """Lair 3, Hecate 1-2: every spawn lair and Shrine of Hecate spawns one monster (a rolled
    devotee at a shrine: 1 Mormo, 2-3 Lampad, 4-6 Witch) at its square, ``home`` the square,
    unless five it spawned are alive ("ONLY A MAXIMUM OF FIVE CREATURES MAY BE ATTACHED")."""
    for k, sq in list(t.state["map"].items()):
        site = sq.get("site", {})
        source = site.get("spawn")
        if not source or site.get("destroyed"):
            continue
        site["attached"] = _alive(t, site.get("attached", []))
        if len(site["attached"]) >= MAX_ATTACHED:
            continue
        type_ = source
        if source in t.c.world.charts:
            type_ = t.chart(source, f"spawn/{k}")
        mon = new_model(t, type_, k, home=k)
        site["attached"].append(mon["id"])
        where = _kind_name(t, sq["kind"])
        t.say("spawned", f"The {where} at {k} spawns a {mon['name']} "
              f"({len(site['attached'])} of {MAX_ATTACHED}; Lair 3, Hecate 1).", square=k,
              monster=mon["id"], monster_type=type_)
        from pbem.games.hetairos import scenarios

        scenarios.get(t.state["scenario"]).on_spawn(t, mon, k)


def snake_pits(t: Table) -> None:
    """Trap 2: every model in a snake pit takes a d6 attack (1 damage) at the end of every
    turn after it fell in."""
    from pbem.games.hetairos import combat

    trap = t.c.world.traps["snake_pit"]
    for m in list(t.alive()):
        if m.get("stuck") != "pit" or _site(t, m["at"]).get("trap") != "snake_pit":
            continue
        t.say("trap", f"The snakes in the pit at {m['at']} strike at {t.name(m['id'])} "
              f"(Trap 2).", square=m["at"], model=m["id"], trap="snake_pit")
        combat.hazard(t, m, trap.attack, trap.damage, f"snake_pit/{m['at']}/{m['id']}")


def _climb_dice(t: Table, o: Model) -> tuple[str, int]:
    """The combat dice and own bonus a model climbs with (no weapons, no items, no prayers)."""
    if o["side"] == "pc":
        ch = t.c.character(o["type"])
        return f"{ch.check_dice('combat')}d6", ch.check_bonus("combat")
    combat_dice = t.c.monster(o["type"]).combat
    return ("d6" if combat_dice == "per_opponent" else combat_dice), 0


def climb(t: Table, m: Model) -> str:
    """Trap 4: 1 AP an attempt; the model and its side's others in the pit combine their combat
    dice and own bonuses (no weapon modifiers) against d6+2; strictly better gets them all
    out.

    # Ruling: (analysis 5.2) items and prayers do not help either; everyone who combined
    # climbs out together.
    """
    if m["hp"] <= 0 or m.get("stuck") != "pit":
        return "not in a pit"
    ap = t.c.people.actions["attack"].ap
    if m["ap"] < ap:
        return f"needs {ap} AP, {m['ap']} left"
    m["ap"] -= ap
    k = m["at"]
    climbers = [m] + [o for o in t.in_square(k, m)
                      if o["id"] != m["id"] and o.get("stuck") == "pit"]
    score = 0
    for o in climbers:
        dice, plus = _climb_dice(t, o)
        score += t.roll(dice, f"climb/{k}/{o['id']}") + plus
    trap = t.c.world.traps[_site(t, k).get("trap", "pit")]
    pit = t.roll(trap.climb or "d6+2", f"climb/{k}/pit")
    out = score > pit
    if out:
        for o in climbers:
            o["stuck"] = ""
    names = ", ".join(t.name(o["id"]) for o in climbers)
    t.say("climb", f"{names} {'climb' if out else 'fail to climb'} out of the pit at {k}: "
          f"{score} against the pit's {pit} (Trap 4).", square=k,
          models=[o["id"] for o in climbers], roll=score, against=pit, out=out)
    return ""


def escape(t: Table, m: Model) -> str:
    """Trap 6: a PC in the Room of Daedalus spends 2 AP on a 6+ knowledge roll (a skill
    check); on a success it lets its whole side in the room out.

    # Ruling: "THEY MAY CHOOSE WHO TO LET OUT": everyone on the roller's side; never enemies.
    """
    if m["hp"] <= 0 or m.get("stuck") != "daedalus":
        return "not lost in the Room of Daedalus"
    if m["side"] != "pc":
        return "only player characters make knowledge rolls (Skill 2)"
    ap = t.c.people.actions["skill_check"].ap
    if m["ap"] < ap:
        return f"needs {ap} AP, {m['ap']} left"
    m["ap"] -= ap
    k = m["at"]
    target = t.c.world.traps["room_of_daedalus"].escape_knowledge
    roll = skill_roll(t, m, "knowledge", f"daedalus/{m['id']}")
    freed = []
    if roll >= target:
        for o in [m, *t.in_square(k, m)]:
            if o.get("stuck") == "daedalus" and o["id"] not in freed:
                o["stuck"] = ""
                freed.append(o["id"])
    t.say("escape", f"{t.name(m['id'])} "
          + (f"finds the way out of the Room of Daedalus at {k} (knowledge {roll}): "
             f"{', '.join(t.name(i) for i in freed)} go free" if freed else
             f"is still lost in the Room of Daedalus at {k} (knowledge {roll}, not {target}+)")
          + " (Trap 6).", square=k, model=m["id"], roll=roll, freed=freed)
    return ""


def _engulf(t: Table, k: str) -> None:
    """Lava 4: "CHARACTERS CAUGHT IN THE LAVA ARE REMOVED"."""
    from pbem.games.hetairos import combat

    for v in t.at(k):
        t.say("engulfed", f"The lava engulfs {t.name(v['id'])} at {k} (Lava 4).", square=k,
              model=v["id"], player=_player_of(v))
        combat.slay(t, v, [])
        v["hp"] = 0


def _spread(t: Table, origin: str, site: Site) -> list[str]:
    """Lava 2-4: the lava of ``origin`` spreads into every drawn neighbour of its squares
    connected by open sides on both squares (never into rock); at the Styx it destroys the
    bridge and stops. Squares covered become molten lava ("CONSIDERED TO BE ROCK")."""
    covered: list[str] = []
    for c in list(site["cells"]):
        csq = _sq(t, c)
        for d in grid.DIRS:
            nk = grid.neighbour(c, d)
            nsq = t.square(nk)
            if nsq is None or nk in site["cells"] or nk in covered:
                continue
            if d not in csq.get("open", ""):
                continue
            if nsq["kind"] == "styx":
                if nsq.get("bridge"):
                    nsq["bridge"] = False
                    t.say("lava", f"The lava destroys the bridge over the Styx at {nk} "
                          f"(Lava 3).", square=nk)
                continue
            if nsq["kind"] == "molten_lava" or not grid.can_enter(nsq, d):
                continue
            covered.append(nk)
    for nk in covered:
        nsq = _sq(t, nk)
        nsq["site"] = {"covered": origin, "was": nsq["kind"]}
        nsq["kind"] = "molten_lava"
        site["cells"].append(nk)
        _engulf(t, nk)
    return covered


def lava(t: Table) -> None:
    """Lava 2 reading (a) (analysis 5.2): at the end of the round each molten lava rolls a d6;
    at least its threshold (a 6 always) spreads it one square further all round and raises the
    threshold by 1 (never above 6); a failure keeps it. Option ``lava = "chain"`` (reading
    (b)): roll again after each success, until one fails."""
    chain = t.state["options"].get("lava") == "chain"
    always = t.c.world.squares["molten_lava"].number("spread_always")
    step = t.c.world.squares["molten_lava"].number("spread_step")
    for k, sq in list(t.state["map"].items()):
        site = sq.get("site", {})
        if "threshold" not in site:
            continue
        site.setdefault("cells", [k])
        while True:
            need = site["threshold"]
            roll = t.roll("d6", f"lava/{k}")
            if roll < need and roll != always:
                t.say("lava", f"The lava of {k} does not spread (d6 {roll}, {need}+; Lava 2).",
                      square=k, roll=roll, spread=False)
                break
            covered = _spread(t, k, site)
            site["threshold"] = min(always, need + step)
            t.say("lava", f"The lava of {k} spreads (d6 {roll}, {need}+; Lava 2)"
                  + (f" into {', '.join(covered)}" if covered else ", but finds no way out")
                  + ".", square=k, roll=roll, spread=True, covered=covered)
            if not chain or not covered:
                break

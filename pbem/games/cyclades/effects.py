"""The one-time powers of Cyclades: creature cards and figures, Hero sacrifices, magic items,
divine favors (Cycle 8.4.2, Forgotten 2-3, Misc Artifacts and Heroes, Misc Divine Favors).

Every power is an :class:`components.Effect`; :func:`prepare` checks one against the state
and the player's ``target`` table and returns either a reason it cannot be used (a string:
the caller skips the action, and nothing is paid) or a closure that applies it. Checking
before paying is what "creatures must be used/placed immediately" (Cycle 8.4.2) asks: a card
that cannot be used is not bought.

Target keys (the union; each power reads the few it needs, see
``docs/games/cyclades-actions.md``): ``territory``, ``sea``, ``player``, ``building``,
``figure``, ``hero``, ``card`` and a nested ``target`` (the Chimera), ``from``/``to`` with
``troops``/``undead``/``titans``/``heroes``/``egyptians``/``artifacts`` (Pegasus, Erinyes),
``kinds`` (which units a killing power takes first), ``sell`` (the Sphinx: ``{priest = 1}``).

Powers that last (``battle_bonus``, ``reroll``, ``creature_discount``, ``build_discount``,
``recruit_discount``, ``move_range``, ``free_move``) are, when they come from a one-time
source (an item, a favor), *armed* for the rest of this turn and spent by the first use:
the next battle of that kind, the next creature, building, recruit or sail, the next move.

Interpretations (the base card texts as we know them, and our choices):

* Harpy and other killing powers (``destroy_troop``) take units of the listed kinds only:
  never Heroes (Misc Artifacts and Heroes 4) nor Titans (Misc Titans 1); an Egyptian may be
  taken (Misc Egyptian Reinforcements 2). Only enemies (never oneself nor a teammate).
* Giant and Perseus (``destroy_building``): one building tile of the named size; the Giant
  "can only crush small building tiles, not large" (Forgotten 2): never a Metropolis.
* The Siren (``replace_fleet``) works on an isolated fleet only (exactly ``count`` enemy fleet
  units in the sea); the new fleet comes from the reserve, else from the player's fleet in
  the first sea by id (base card).
* The Sphinx sells only the cards named in ``sell``.
* Chiron's ``immune`` list names card ids; his territory is also closed to attacks.
* Figures (``figure = true``) stand on a territory (or, the Kraken, a sea) chosen by the
  buyer, even an enemy's (Cycle 8.4.2); a figure arriving where another stands destroys both
  (Forgotten 3). The Kraken destroys every fleet in its sea when it arrives and every fleet
  that sails in later.
* Favors are not used in a cycle when Hades is active (Cycle 5.3.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.games.cyclades import warfare
from pbem.games.cyclades.components import Effect
from pbem.games.cyclades.turn import (
    Turn,
    add_necropolis_gold,
    figures_at,
    fleet_place_problem,
    hand_of,
    income_of,
    is_enemy,
    kill_egyptian,
    necropolis_site,
    own_territory_problem,
    reserve,
    shielded,
)

#: The reason a power cannot be used now, or the closure that applies it.
Prepared = str | Callable[[], None]

#: Lasting-power kinds a one-time source arms for the rest of the turn.
ARMABLE = ("battle_bonus", "reroll", "creature_discount", "build_discount", "recruit_discount",
           "move_range", "free_move")
#: A killing power's unit kinds and the territory keys they live in.
KILLABLE = {"troop": "troops", "undead_troop": "undead", "egyptian": "egyptians"}
#: Cards a player holds, and whether the common supply of them is limited.
SUPPLY_CARDS = ("priest", "philosopher")

Handler = Callable[[Turn, Effect, Mapping[str, Any], str, str], Prepared]


def _text(target: Mapping[str, Any], key: str) -> str:
    value = target.get(key, "")
    return value if isinstance(value, str) else ""


def _name(t: Turn, cid: str) -> str:
    try:
        return str(t.c.by_id(cid).name)
    except KeyError:
        return cid


# --- killing and destroying -------------------------------------------------------------------


def _destroy_troop(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                   rule: str) -> Prepared:
    tid = _text(target, "territory")
    if tid not in t.state["territories"]:
        return "name the territory: target = {territory = \"...\"}"
    owner = t.owner(tid)
    if not is_enemy(t.state, t.player, owner):
        return f"{tid} is not an enemy's territory"
    if shielded(t.c, t.state, tid, source):
        return f"Chiron protects {tid} from the {_name(t, source)}"
    allowed = list(e.names("targets"))
    wanted = [k for k in target.get("kinds", []) or [] if k in allowed]
    order = wanted + [k for k in allowed if k not in wanted]
    here = t.territory(tid)
    if not any(here[KILLABLE[k]] for k in order if k in KILLABLE):
        return f"{tid} has no unit the {_name(t, source)} can take ({', '.join(allowed)})"

    def run() -> None:
        removed: list[str] = []
        slain = 0
        for _ in range(e.number("count")):
            for kind in order:
                key = KILLABLE.get(kind, "")
                if not key or not here[key]:
                    continue
                if key == "egyptians":
                    victim = sorted(here["egyptians"])[0]
                    kill_egyptian(t.state, victim)
                    removed.append(victim)
                else:
                    here[key] -= 1
                    removed.append(kind)
                    if kind == "troop":
                        slain += 1
                break
        t.say("destroy_troop", rule, f"The {_name(t, source)} of {t.player} destroys "
              f"{', '.join(removed)} on {tid}.", player=t.player, source=source,
              territory=tid, removed=removed)
        add_necropolis_gold(t, slain, f"troops slain on {tid}")
    return run


def _destroy_fleet(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                   rule: str) -> Prepared:
    sid = _text(target, "sea")
    if sid not in t.state["seas"]:
        return "name the sea: target = {sea = \"...\"}"
    sea = t.sea(sid)
    if not is_enemy(t.state, t.player, sea["owner"]) or not (sea["fleets"] or
                                                              sea["undead_fleets"]):
        return f"{sid} holds no enemy fleet"

    def run() -> None:
        gone = 0
        for _ in range(e.number("count")):
            if sea["fleets"]:
                sea["fleets"] -= 1
            elif sea["undead_fleets"]:
                sea["undead_fleets"] -= 1
            else:
                break
            gone += 1
        owner = sea["owner"]
        if not sea["fleets"] and not sea["undead_fleets"]:
            sea["owner"] = ""
        t.say("destroy_fleet", rule, f"The {_name(t, source)} of {t.player} destroys {gone} "
              f"fleet(s) of {owner} on {sid}.", player=t.player, source=source, sea=sid,
              fleets=gone)
    return run


def _destroy_building(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                      rule: str) -> Prepared:
    tid = _text(target, "territory")
    if tid not in t.state["territories"]:
        return "name the territory: target = {territory = \"...\", building = \"...\"}"
    if shielded(t.c, t.state, tid, source):
        return f"Chiron protects {tid} from the {_name(t, source)}"
    here = t.territory(tid)
    size = e.text("size")
    building = _text(target, "building")
    if building == "metropolis" or (building and building in t.c.buildings
                                    and t.c.buildings[building].size != size):
        return (f"the {_name(t, source)} crushes only {size} building tiles, not a "
                f"{_name(t, building)} (Forgotten 2)")
    fitting = [b for b in here["buildings"] if t.c.buildings[b].size == size]
    if building and building not in here["buildings"]:
        return f"there is no {building} on {tid}"
    if not fitting:
        return f"{tid} has no {size} building"
    chosen = building or fitting[0]

    def run() -> None:
        here["buildings"].remove(chosen)
        t.say("destroy_building", "Forgotten 2" if size == "small" else rule,
              f"The {_name(t, source)} of {t.player} destroys the {_name(t, chosen)} on {tid}.",
              player=t.player, source=source, territory=tid, building=chosen)
    return run


def _destroy_figure(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                    rule: str) -> Prepared:
    fid = _text(target, "figure")
    if fid not in t.state["figures"]:
        return "name a creature figure on the board: target = {figure = \"...\"}"

    def run() -> None:
        where = t.state["figures"].pop(fid)["where"]
        t.state["creature_track"]["discard"].append(fid)
        t.say("destroy_figure", rule, f"The {_name(t, source)} of {t.player} destroys the "
              f"{_name(t, fid)} on {where}.", player=t.player, source=source, figure=fid,
              where=where)
    return run


def _destroy_fleets_in_sea(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                           rule: str) -> Prepared:
    # Only as a figure (the Kraken): placed by _prepare_figure, which calls kraken_strikes.
    return "this power belongs to a creature figure"


def kraken_strikes(t: Turn, sid: str, source: str) -> None:
    sea = t.sea(sid)
    lost = int(sea["fleets"]) + int(sea["undead_fleets"])
    owner = sea["owner"]
    sea.update(owner="", fleets=0, undead_fleets=0)
    if lost:
        t.say("kraken", "Base creatures", f"The {_name(t, source)} destroys every fleet on "
              f"{sid}: {lost} of {owner}.", sea=sid, fleets=lost, owner=owner)


# --- moving -----------------------------------------------------------------------------------


def _move_troops_anywhere(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                          rule: str) -> Prepared:
    src, dst = _text(target, "from"), _text(target, "to")
    party = warfare.Party.of(target)
    problem = warfare.march_problem(t, src, dst, party, anywhere=True, source=source)
    if problem:
        return problem

    def run() -> None:
        warfare.march(t, src, dst, party, rule=rule, how=f"the {_name(t, source)}, no fleets "
                      "needed", source=source)
    return run


def _replace_fleet(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                   rule: str) -> Prepared:
    sid = _text(target, "sea")
    if sid not in t.state["seas"]:
        return "name the sea: target = {sea = \"...\"}"
    sea = t.sea(sid)
    count = e.number("count")
    units = int(sea["fleets"]) + int(sea["undead_fleets"])
    if not is_enemy(t.state, t.player, sea["owner"]) or not units:
        return f"{sid} holds no enemy fleet"
    if units != count:
        return f"the {_name(t, source)} replaces only an isolated fleet; {sid} holds {units}"
    spare = [s for s, x in sorted(t.state["seas"].items())
             if x["owner"] == t.player and x["fleets"] and s != sid]
    in_reserve = reserve(t.c, t.state, t.player, "fleet")
    if in_reserve + sum(int(t.sea(s)["fleets"]) for s in spare) < count:
        return "you have no fleet to put in its place"

    def run() -> None:
        victim = sea["owner"]
        sea.update(owner=t.player, fleets=0, undead_fleets=0)
        for _ in range(count):
            if reserve(t.c, t.state, t.player, "fleet"):
                sea["fleets"] += 1
                continue
            donor = next(s for s in spare if t.sea(s)["fleets"])
            t.sea(donor)["fleets"] -= 1
            if not t.sea(donor)["fleets"] and not t.sea(donor)["undead_fleets"]:
                t.sea(donor)["owner"] = ""
            sea["fleets"] += 1
        t.say("replace_fleet", rule, f"The {_name(t, source)} of {t.player} replaces {victim}'s "
              f"fleet on {sid} with one of {t.player}'s.", player=t.player, source=source,
              sea=sid, victim=victim)
    return run


def _move_prosperity(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                     rule: str) -> Prepared:
    src, dst = _text(target, "from"), _text(target, "to")
    if src not in t.state["territories"] or not t.territory(src)["prosperity"]:
        return "name a territory holding a prosperity marker: target = {from = \"...\", to = ...}"
    problem = own_territory_problem(t.state, t.player, dst)
    if problem or src == dst:
        return problem or "the marker must move to another territory"
    if shielded(t.c, t.state, src, source):
        return f"Chiron protects {src} from the {_name(t, source)}"

    def run() -> None:
        t.territory(src)["prosperity"] -= 1
        t.territory(dst)["prosperity"] += 1
        t.say("move_prosperity", rule, f"The {_name(t, source)} of {t.player} moves a "
              f"prosperity marker from {src} to {dst}.", player=t.player, source=source,
              src=src, dst=dst)
    return run


# --- gold and cards ---------------------------------------------------------------------------


def _victim(t: Turn, target: Mapping[str, Any]) -> str:
    who = _text(target, "player")
    return who if who in t.state["gold"] and is_enemy(t.state, t.player, who) else ""


def _steal_gold(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                rule: str) -> Prepared:
    victim = _victim(t, target)
    if not victim:
        return "name an opponent: target = {player = \"...\"}"

    def run() -> None:
        amount = min(t.gold(victim) // e.number("divisor"), e.number("cap"))
        t.gain(victim, -amount, f"taken by {t.player}'s {_name(t, source)}", rule)
        t.gain(t.player, amount, f"taken from {victim} with the {_name(t, source)}", rule)
        t.say("steal_gold", rule, f"The {_name(t, source)} of {t.player} takes gold from "
              f"{victim} (the amount stays behind the screens).", player=t.player,
              source=source, victim=victim)
    return run


def _steal_card(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                rule: str) -> Prepared:
    victim = _victim(t, target)
    card = e.text("card")
    if not victim:
        return "name an opponent: target = {player = \"...\"}"
    if not hand_of(t.state, victim)[card]:
        return f"{victim} has no {card}"

    def run() -> None:
        n = min(e.number("count"), int(hand_of(t.state, victim)[card]))
        hand_of(t.state, victim)[card] -= n
        t.hand[card] += n
        t.say("steal_card", rule, f"The {_name(t, source)} of {t.player} takes {n} {card} "
              f"card(s) from {victim}.", player=t.player, source=source, victim=victim,
              card=card, count=n)
    return run


def _sell_cards(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                rule: str) -> Prepared:
    sell = target.get("sell", {})
    if not isinstance(sell, Mapping) or not sell:
        return "name the cards to sell: target = {sell = {priest = 1}}"
    allowed = e.names("cards")
    for card, n in sell.items():
        if card not in allowed or not isinstance(n, int) or n < 1:
            return f"the {_name(t, source)} buys only {', '.join(allowed)} (whole numbers)"
        if t.hand[card] < n:
            return f"you have {t.hand[card]} {card}, not {n}"

    def run() -> None:
        total = 0
        for card, n in sorted(sell.items()):
            t.hand[card] -= n
            if card in t.state["supply"]:
                t.state["supply"][card] = int(t.state["supply"][card]) + n
            total += n * e.number("price")
        t.gain(t.player, total, f"cards sold to the {_name(t, source)}", rule)
        t.say("sell_cards", rule, f"{t.player} sells "
              + ", ".join(f"{n} {c}" for c, n in sorted(sell.items()))
              + f" to the {_name(t, source)}.", player=t.player, source=source,
              sold=dict(sell))
    return run


def _repeat_income(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                   rule: str) -> Prepared:
    def run() -> None:
        t.gain(t.player, income_of(t.c, t.board, t.state, t.player),
               f"income again, the {_name(t, source)}", rule)
        t.say("repeat_income", rule, f"The {_name(t, source)}: {t.player} collects their "
              "income again.", player=t.player, source=source)
    return run


def _steal_necropolis_gold(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                           rule: str) -> Prepared:
    site = necropolis_site(t.state)
    if not site or not t.territory(site)["necropolis_gold"]:
        return "there is no gold on a Necropolis"
    if shielded(t.c, t.state, site, source):
        return f"Chiron protects {site} from the {_name(t, source)}"

    def run() -> None:
        amount = int(t.territory(site)["necropolis_gold"])
        t.territory(site)["necropolis_gold"] = 0
        t.gain(t.player, amount, f"the Necropolis gold, the {_name(t, source)}", rule)
        # The coins lay on the board: their number is public.
        t.say("steal_necropolis_gold", rule, f"The {_name(t, source)} of {t.player} takes "
              f"the {amount} gold on the Necropolis at {site}.", player=t.player,
              source=source, territory=site, amount=amount)
    return run


def _gain_card(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
               rule: str) -> Prepared:
    card = e.text("card")
    if card in SUPPLY_CARDS and not t.state["supply"].get(card, 0):
        return f"no {card} card is left in the supply (Forgotten 7)"

    def run() -> None:
        n = e.number("count")
        if card in SUPPLY_CARDS:
            n = min(n, int(t.state["supply"][card]))
            t.state["supply"][card] -= n
        t.hand[card] += n
        t.say("gain_card", rule, f"{t.player} takes {n} {card} card(s) ({_name(t, source)}).",
              player=t.player, source=source, card=card, count=n)
    return run


def _gain_gold(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
               rule: str) -> Prepared:
    def run() -> None:
        t.gain(t.player, e.number("amount"), _name(t, source), rule)
        t.say("gain_gold", rule, f"{t.player} takes gold from the bank ({_name(t, source)}).",
              player=t.player, source=source)
    return run


def _place_prosperity(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                      rule: str) -> Prepared:
    tid = _text(target, "territory")
    problem = own_territory_problem(t.state, t.player, tid)
    if problem:
        return problem
    if not t.state["supply"]["prosperity"]:
        return "no prosperity marker is left (Forgotten 7)"

    def run() -> None:
        n = min(e.number("count"), int(t.state["supply"]["prosperity"]))
        t.state["supply"]["prosperity"] -= n
        t.territory(tid)["prosperity"] += n
        t.say("place_prosperity", rule, f"{t.player} places {n} prosperity marker(s) on {tid} "
              f"({_name(t, source)}).", player=t.player, source=source, territory=tid, count=n)
    return run


def _revive_hero(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                 rule: str) -> Prepared:
    hero = _text(target, "hero")
    tid = _text(target, "territory")
    removed = t.state["creature_track"]["removed"]
    if hero not in t.c.heroes or hero not in removed:
        return "name a Hero removed from the game: target = {hero = \"...\", territory = ...}"
    if t.c.heroes[hero].retires:
        return f"{t.c.heroes[hero].name} retired and did not die; she cannot come back"
    problem = own_territory_problem(t.state, t.player, tid)
    if problem:
        return problem

    def run() -> None:
        removed.remove(hero)
        t.territory(tid)["heroes"].append(hero)
        t.hand["heroes"].append(hero)
        t.bought.add(hero)
        t.say("revive_hero", rule, f"The {_name(t, source)} brings {t.c.heroes[hero].name} "
              f"back for {t.player}, on {tid}.", player=t.player, source=source, hero=hero,
              territory=tid)
    return run


def _recruit(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
             rule: str) -> Prepared:
    unit = e.text("unit")
    count = e.number("count")
    if unit in SUPPLY_CARDS:
        return _gain_card(t, Effect("gain_card", (("card", unit), ("count", count))), target,
                          source, rule)
    if unit in ("fleet", "undead_fleet"):
        sid = _text(target, "sea")
        problem = fleet_place_problem(t.c, t.board, t.state, t.player, sid)
        place, key = sid, "fleets" if unit == "fleet" else "undead_fleets"
    else:
        tid = _text(target, "territory")
        problem = own_territory_problem(t.state, t.player, tid)
        place = tid
        key = {"troop": "troops", "titan": "titans", "undead_troop": "undead"}[unit]
    if problem:
        return problem
    if not reserve(t.c, t.state, t.player, unit):
        return f"you have no {unit} left to place"

    def run() -> None:
        n = min(count, reserve(t.c, t.state, t.player, unit))
        record = t.sea(place) if unit in ("fleet", "undead_fleet") else t.territory(place)
        record["owner"] = t.player
        record[key] += n
        t.say("recruit", rule, f"{t.player} places {n} {unit}(s) on {place} "
              f"({_name(t, source)}).", player=t.player, source=source, unit=unit, count=n,
              where=place)
    return run


def _arm(t: Turn, e: Effect, target: Mapping[str, Any], source: str, rule: str) -> Prepared:
    def run() -> None:
        if e.kind == "free_move":
            t.free_moves.append((source, e.names("units")))
        else:
            t.armed.append((source, e))
        t.say("armed", rule, f"{t.player} readies the {_name(t, source)} ({e.kind}) for this "
              "turn.", player=t.player, source=source, effect=e.as_dict())
    return run


def _reuse_discard(t: Turn, e: Effect, target: Mapping[str, Any], source: str,
                   rule: str) -> Prepared:
    card = _text(target, "card")
    discard = t.state["creature_track"]["discard"]
    if card not in discard or card not in t.c.creatures or card == source:
        return "name a creature in the discard pile: target = {card = \"...\", target = {...}}"
    inner = target.get("target", {})
    prepared = prepare_creature(t, card, inner if isinstance(inner, Mapping) else {})
    if isinstance(prepared, str):
        return prepared

    def run() -> None:
        t.say("reuse_discard", rule, f"The {_name(t, source)} of {t.player} uses the "
              f"{_name(t, card)} from the discard pile.", player=t.player, source=source,
              card=card)
        if t.c.creatures[card].figure:
            discard.remove(card)  # the figure is on the board now
        prepared()
    return run


HANDLERS: dict[str, Handler] = {
    "destroy_troop": _destroy_troop,
    "destroy_fleet": _destroy_fleet,
    "destroy_fleets_in_sea": _destroy_fleets_in_sea,
    "destroy_building": _destroy_building,
    "destroy_figure": _destroy_figure,
    "move_troops_anywhere": _move_troops_anywhere,
    "replace_fleet": _replace_fleet,
    "steal_gold": _steal_gold,
    "steal_card": _steal_card,
    "sell_cards": _sell_cards,
    "repeat_income": _repeat_income,
    "reuse_discard": _reuse_discard,
    "move_prosperity": _move_prosperity,
    "steal_necropolis_gold": _steal_necropolis_gold,
    "revive_hero": _revive_hero,
    "recruit": _recruit,
    "gain_card": _gain_card,
    "gain_gold": _gain_gold,
    "place_prosperity": _place_prosperity,
    **{kind: _arm for kind in ARMABLE},
}

#: Figure powers: they act where the figure stands (``turn.py`` reads them), or, the Kraken,
#: on arrival (:func:`kraken_strikes`).
FIGURE_KINDS = ("territory_defence", "pin_troops", "repel_fleets", "block_island",
                "divert_income", "destroy_fleets_in_sea")


def prepare(t: Turn, effect: Effect, target: Mapping[str, Any], source: str,
            rule: str) -> Prepared:
    """Check ``effect`` from card ``source`` against ``target`` now; a reason, or the closure
    that applies it."""
    handler = HANDLERS.get(effect.kind)
    if handler is None:
        return f"the {effect.kind} power cannot be used this way"
    return handler(t, effect, target, source, rule)


# --- creatures and figures --------------------------------------------------------------------


def prepare_creature(t: Turn, cid: str, target: Mapping[str, Any]) -> Prepared:
    """A creature card used now (Cycle 8.4.2): a figure is placed, any other card's power
    applied. The caller puts a used non-figure card on the discard pile."""
    card = t.c.creatures[cid]
    if not card.figure:
        return prepare(t, card.effect, target, cid, "Cycle 8.4.2")
    if card.placement == "sea":
        space = _text(target, "sea")
        if space not in t.state["seas"]:
            return f"place the {card.name} on a sea: target = {{sea = \"...\"}}"
    else:
        space = _text(target, "territory")
        if space not in t.state["territories"]:
            return f"place the {card.name} on a territory: target = {{territory = \"...\"}}"

    def run() -> None:
        place_figure(t, cid, space)
    return run


def place_figure(t: Turn, cid: str, space: str) -> None:
    """Cycle 8.4.2: a figure goes on ``space`` (any territory, even an enemy's); Forgotten 3:
    if another figure stands there, both are destroyed at once."""
    others = figures_at(t.state, space)
    t.state["figures"][cid] = {"owner": t.player, "where": space, "cycle": t.state["cycle"]}
    t.say("figure", "Cycle 8.4.2", f"{t.player} places the {_name(t, cid)} on {space}.",
          player=t.player, figure=cid, where=space)
    if others:
        for fid in [*others, cid]:
            del t.state["figures"][fid]
            t.state["creature_track"]["discard"].append(fid)
        t.say("figures_destroyed", "Forgotten 3", f"The {_name(t, cid)} and the "
              + " and the ".join(_name(t, f) for f in others)
              + f" meet on {space} and destroy each other.", where=space,
              figures=[*others, cid])
        return
    if t.c.creatures[cid].effect.kind == "destroy_fleets_in_sea":
        kraken_strikes(t, space, cid)


# --- Heroes, magic items, favors --------------------------------------------------------------


def hero_site(t: Turn, hero: str) -> str:
    for tid, here in sorted(t.state["territories"].items()):
        if hero in here["heroes"]:
            return str(tid)
    return ""


def prepare_sacrifice(t: Turn, hero: str, target: Mapping[str, Any]) -> Prepared:
    """Misc Artifacts and Heroes 5: sacrifice a Hero during your turn, not the turn it was
    bought; a killed Hero is gone and cannot be. Forgotten 1: not on Apollo."""
    rule = "Misc Artifacts and Heroes 5"
    if hero not in t.hand["heroes"] or not hero_site(t, hero):
        return f"you have no living Hero {hero}"
    if hero in t.bought and not t.c.rules.hero_sacrifice_same_turn:
        return f"{_name(t, hero)} was bought this turn and cannot be sacrificed yet ({rule})"
    prepared = prepare(t, t.c.heroes[hero].sacrifice, target, hero, rule)
    if isinstance(prepared, str):
        return prepared

    def run() -> None:
        site = hero_site(t, hero)
        t.territory(site)["heroes"].remove(hero)
        t.hand["heroes"].remove(hero)
        t.state["creature_track"]["removed"].append(hero)
        retired = t.c.heroes[hero].retires
        t.say("sacrifice", rule, f"{t.player} sacrifices {_name(t, hero)} on {site}"
              + (" (who retires)" if retired else "") + ".", player=t.player, hero=hero,
              territory=site, retires=retired)
        prepared()
    return run


def prepare_item(t: Turn, item: str, target: Mapping[str, Any]) -> Prepared:
    """Misc Divine Favors 3-4: a magic item is used once, then discarded (out of play)."""
    rule = "Misc Divine Favors 4"
    if item not in t.hand["magic_items"] or item not in t.c.magic_items:
        return f"you hold no magic item {item}"
    prepared = prepare(t, t.c.magic_items[item].effect, target, item, rule)
    if isinstance(prepared, str):
        return prepared

    def run() -> None:
        t.hand["magic_items"].remove(item)
        t.say("item", rule, f"{t.player} uses the {_name(t, item)}; it is discarded.",
              player=t.player, item=item)
        prepared()
    return run


def prepare_favor(t: Turn, favor: str, target: Mapping[str, Any]) -> Prepared:
    """Misc Divine Favors 1: a favor's one-time power, used during its holder's action (our
    reading), then the tile goes to the favor discard; not while Hades is active (5.3.1)."""
    rule = "Misc Divine Favors 1"
    if favor not in t.hand["favors"] or favor not in t.c.favors:
        return f"you hold no divine favor {favor}"
    if t.state["hades"].get("active"):
        return "divine favors are not used in a cycle when Hades is active (Cycle 5.3.1)"
    prepared = prepare(t, t.c.favors[favor].power, target, favor, rule)
    if isinstance(prepared, str):
        return prepared

    def run() -> None:
        t.hand["favors"].remove(favor)
        t.state["favors"]["discard"].append(favor)
        t.say("favor", rule, f"{t.player} uses the {_name(t, favor)}.", player=t.player,
              favor=favor)
        prepared()
    return run

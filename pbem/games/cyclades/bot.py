"""A Cyclades bot: legal, varied orders for every phase, from the player's own view.

It plays toward the Metropolis (Victory 1): it bids for the gods whose building it lacks,
builds them, recruits, and places Apollo's marker on its best territory. It is for demos and
simulations, not a strong player, so it also reaches for every kind of action the rules have,
which is what makes ``pbem simulate`` a soak test of the whole rulebook: with Ares it attacks
neutral islands and weaker neighbours (with Heroes and Titans), with Poseidon it sails into
enemy fleets, it moves Titans, makes the Egyptians' special attacks, buys track cards with a
target that fits each power, sacrifices Heroes, uses magic items and divine favors, claims
Monuments, swaps with Zeus, and gives random retreat and casualty standing orders. An order
that turns out impossible when its turn comes is skipped by the rules (and reported), which the
soak exercises too. Everything it chooses comes from ``view`` and the public data.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.dice import Stream
from pbem.core.ruleset import PhaseSpec, copy_state
from pbem.games.cyclades import actions as actions_mod
from pbem.games.cyclades import bidding
from pbem.games.cyclades.components import GOD_ABOVE, Components, Effect
from pbem.games.cyclades.maps import Board, load_board
from pbem.games.cyclades.state import (
    active_players,
    allies,
    land_units,
    sea_units,
    seas_of,
    territories_of,
)
from pbem.games.cyclades.warfare import Party

Orders = dict[str, Any]
Target = dict[str, Any]
BASIC = ("port", "fortress", "temple", "university")
RETREATS: tuple[dict[str, Any], ...] = (
    {"when": "never"}, {"when": "at_most", "units": 1}, {"when": "behind", "by": 2},
    {"when": "after_rounds", "rounds": 2})
LAND_CASUALTIES = ("troop", "undead", "egyptian", "hero", "titan")
SEA_CASUALTIES = ("fleet", "undead_fleet")


def orders(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
           rng: Stream) -> Orders:
    board = load_board(view["game"]["board"], len(view["game"]["players"]))
    if phase.kind == "bid":
        return _bid(c, view, player, rng)
    if phase.kind == "act":
        god = phase.id.rsplit(".", 1)[1]
        return doable(c, board, view, god, player, _Act(c, board, view, god, player,
                                                        rng).orders())
    return {}  # deploy and upkeep: the documented defaults are sensible plays


def _state_from_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """A stand-in state with what ``view`` hides filled in: the other players' gold as 0, each
    sealed pile as as many unknown cards as it holds. A rehearsal on it agrees with one on the
    real state up to the first thing it cannot know (``actions.rehearse`` stops deciding
    there): it is what the player can work out for themselves."""
    state = copy_state(dict(view))
    state["gold"] = {p: int(view.get("gold", {}).get(p, 0)) for p in view["game"]["players"]}
    track = state["creature_track"]
    track["deck"] = [f"unknown-{i}" for i in range(int(track.pop("deck_size", 0)))]
    favors = state["favors"]
    favors["deck"] = [f"unknown-{i}" for i in range(int(favors.pop("deck_size", 0)))]
    favors.setdefault("items", [])
    state["gods"] = {**state["gods"], "bag": [f"unknown-{i}" for i in range(
        int(state["gods"].pop("bag_size", 0)))]}
    state.setdefault("standing", {})
    return state


def doable(c: Components, board: Board, view: Mapping[str, Any], god: str, player: str,
           chosen: Orders) -> Orders:
    """``chosen`` without the actions (and free recruit place) that the rules would certainly
    skip, as validation finds them at submit (issue 12): a bot's orders are always accepted."""
    if god == bidding.APOLLO:
        if int(view["supply"].get("prosperity", 0)) < 1:
            return {}
        return chosen
    state = _state_from_view(view)
    out = copy.deepcopy(chosen)
    for _ in range(len(out.get("actions", [])) + 2):
        problems = actions_mod.rehearsal_problems(c, board, state, god, player, out)
        if not problems:
            break
        where = problems[0].where
        if where == "[orders] free":
            out.pop("free", None)
            continue
        index = int(where.rsplit("[", 1)[1].rstrip("]"))
        del out["actions"][index]
        if not out["actions"]:
            del out["actions"]
    return out


def _have(view: Mapping[str, Any], player: str) -> set[str]:
    return {b for t in territories_of(view, player) for b in view["territories"][t]["buildings"]}


def _building_of(c: Components, view: Mapping[str, Any], god: str) -> str:
    build = c.god(god).build
    if build is None:
        return ""
    if build.building != GOD_ABOVE:
        return build.building
    track = view["gods"]["track"]
    above = track[:track.index(god)] if god in track else []
    for g in above:
        b = c.god(g).build
        if b is not None and b.building in BASIC:
            return b.building
    return ""


def _standing(rng: Stream, label: str) -> dict[str, Any]:
    """Random standing battle orders (Battle 2): a retreat rule, sometimes casualty orders."""
    out: dict[str, Any] = {
        "retreat": dict(RETREATS[rng.draw(f"{label}/retreat", len(RETREATS)) - 1])}
    if rng.draw(f"{label}/casualties?", 2) == 1:
        out["casualties"] = rng.shuffle(list(LAND_CASUALTIES), f"{label}/casualties")
    if rng.draw(f"{label}/sea?", 2) == 1:
        out["sea_retreat"] = dict(RETREATS[rng.draw(f"{label}/sea_retreat", 2) - 1])
        out["sea_casualties"] = rng.shuffle(list(SEA_CASUALTIES), f"{label}/sea_casualties")
    return out


def _bid(c: Components, view: Mapping[str, Any], player: str, rng: Stream) -> Orders:
    gold = view["gold"][player]
    priests = view["hands"][player]["priest"]
    top = bidding.max_offer(gold, priests)
    lacking = set(BASIC) - _have(view, player)
    gods = list(view["gods"]["track"])
    wanted = [g for g in gods if _building_of(c, view, g) in lacking]
    others = [g for g in gods if g not in wanted]
    ranked = rng.shuffle(wanted, f"bot/{player}/want") + rng.shuffle(others, f"bot/{player}/rest")
    bids: list[dict[str, Any]] = []
    for i, god in enumerate(ranked[:3]):
        if top < 1:
            break
        offer = min(top, rng.draw(f"bot/{player}/offer/{i}", 4) + (1 if i == 0 else 0))
        bids.append({"god": god, "offer": offer})
    bids.append({"god": bidding.APOLLO})
    return {"bids": bids, "defend": _standing(rng, f"bot/{player}/defend")}


def _free_space(board: Board, view: Mapping[str, Any], t: str) -> bool:
    x = view["territories"][t]
    return len(x["buildings"]) < board.territory(t).building_spaces


class _Act:
    """One player's action orders for one god."""

    def __init__(self, c: Components, board: Board, view: Mapping[str, Any], god: str,
                 player: str, rng: Stream) -> None:
        self.c, self.board, self.view, self.god, self.player = c, board, view, god, player
        self.rng = rng
        self.terrs: Mapping[str, Any] = view["territories"]
        self.seas: Mapping[str, Any] = view["seas"]
        self.hand: Mapping[str, Any] = view["hands"][player]
        self.mine = territories_of(view, player)
        self.gold = int(view["gold"][player])
        friends = {player, *allies(view, player)}
        self.enemies = sorted(p for p in active_players(view) if p not in friends)
        # Read by several choices below; the view does not change while the bot writes.
        self.enemy_lands = sorted(t for t, x in self.terrs.items() if x["owner"] in self.enemies)
        self.enemy_fleets = sorted(s for s, x in self.seas.items()
                                   if x["owner"] in self.enemies and sea_units(x))
        self.owned = Counter(x["owner"] for x in self.terrs.values() if x["owner"])
        self.acts: list[dict[str, Any]] = []

    # --- choices -----------------------------------------------------------------------

    def draw(self, label: str, n: int) -> int:
        return self.rng.draw(f"bot/{self.player}/{label}", n)

    def pick(self, items: Sequence[str], label: str) -> str:
        return self.rng.choice(list(items), f"bot/{self.player}/{label}") if items else ""

    def spend(self, price: int) -> bool:
        if self.gold < price:
            return False
        self.gold -= price
        return True

    # --- the orders --------------------------------------------------------------------

    def orders(self) -> Orders:
        if self.god == bidding.APOLLO:
            if not self.mine:
                return {}
            best = max(self.mine, key=lambda t: (self.board.territory(t).prosperity, t))
            return {"actions": [{"do": "prosperity", "territory": best}]}
        for step in (self.one_time_powers, self.build, self.land_attack, self.naval,
                     self.recruit, self.titans, self.special_attack, self.monument,
                     self.sacrifice, self.buy, self.swap):
            step()
        out: Orders = {"actions": self.acts} if self.acts else {}
        if any(a["do"] in ("move", "sail", "titan_move", "special_attack") for a in self.acts) \
                and self.draw("standing?", 3) > 1:
            out["attack"] = _standing(self.rng, f"bot/{self.player}/attack")
        return out

    def one_time_powers(self) -> None:
        """A magic item or a divine favor now and then, with a target that fits its power."""
        for key, table in (("magic_items", "item"), ("favors", "favor")):
            held = sorted(self.hand[key])
            if not held or self.draw(f"use-{table}", 2) != 1:
                continue
            card = self.pick(held, f"which-{table}")
            effect = (self.c.magic_items[card].effect if table == "item"
                      else self.c.favors[card].power)
            self.acts.append({"do": table, table: card, "target": self.target(effect)})

    def build(self) -> None:
        building = _building_of(self.c, self.view, self.god)
        build = self.c.god(self.god).build
        if not building or build is None or not self.mine:
            return
        spaces = [t for t in self.mine if _free_space(self.board, self.view, t)]
        if spaces and self.gold >= build.price and (
                building not in _have(self.view, self.player) or self.draw("build", 3) == 1):
            self.acts.append({"do": "build", "building": building,
                              "territory": self.pick(spaces, "where")})
            self.gold -= build.price

    def land_attack(self) -> None:
        """Ares (or Hades with an undead troop): from the strongest territory, against a
        neutral island, else a weaker enemy that holds another territory (Forgotten 6)."""
        g = self.c.god(self.god).move
        if g is None or "troop" not in g.units or not self.mine or self.gold < g.price:
            return
        src = max(self.mine, key=lambda t: (land_units(self.terrs[t]), t))
        here = self.terrs[src]
        undead = 1 if g.requires_undead else 0
        if here["undead"] < undead or here["troops"] + here["titans"] < 2:
            return
        party: dict[str, Any] = {"troops": max(0, here["troops"] - 1)}
        if undead:
            party["undead"] = undead
        heroes = [h for h in here["heroes"] if h in self.hand["heroes"]]
        if heroes and self.draw("heroes-go", 2) == 1:
            party["heroes"] = heroes
        if here["titans"] and self.draw("titans-go", 2) == 1:
            party["titans"] = int(here["titans"])
        strength = Party.of(party).units()
        dst = self.invasion_target(src, strength, "attack") if strength else ""
        if dst and self.spend(g.price):
            self.acts.append({"do": "move", "from": src, "to": dst, **party})

    def invasion_target(self, src: str, strength: int, label: str) -> str:
        reach = self.board.reachable_territories(src, seas_of(self.view, self.player))
        neutral = [t for t in reach if not self.terrs[t]["owner"] and
                   not land_units(self.terrs[t])]
        enemy = [t for t in reach if self.terrs[t]["owner"] in self.enemies and
                 self.owned[self.terrs[t]["owner"]] > 1 and land_units(self.terrs[t]) < strength]
        # Mostly growth first; sometimes straight at an enemy, to make battles.
        first, second = (enemy, neutral) if self.draw(f"{label}-enemy", 2) == 1 else \
            (neutral, enemy)
        return self.pick(first or second, label)

    def naval(self) -> None:
        """Poseidon (or a god that moves fleets): sail the largest fleet against a weaker
        enemy fleet, else to a sea on the shore of a neutral or enemy territory."""
        g = self.c.god(self.god).move
        if g is None or "fleet" not in g.units or g.requires_undead or self.gold < g.price:
            return
        own = sorted((s for s, x in self.seas.items() if x["owner"] == self.player and x["fleets"]),
                     key=lambda s: (-self.seas[s]["fleets"], s))
        if not own:
            return
        src = own[0]
        mine = int(self.seas[src]["fleets"])
        blocked = [s for s, x in self.seas.items()
                   if x["owner"] not in ("", self.player) and sea_units(x)]
        reach = list(self.board.fleet_paths(src, g.sea_range or 3, blocked))
        weaker = [s for s in reach if s in blocked and self.seas[s]["owner"] in self.enemies
                  and sea_units(self.seas[s]) < mine]
        shores = [s for s in reach if s not in blocked and any(
            self.terrs[t]["owner"] != self.player for t in self.board.territories_of(s))]
        dst = self.pick(weaker or shores or reach, "sail-to")
        if dst and self.spend(g.price):
            self.acts.append({"do": "sail", "from": src, "to": dst, "fleets": mine})

    def recruit(self) -> None:
        schedule = self.c.god(self.god).recruit
        if schedule is None or not self.mine:
            return
        paid = self.c.recruit_price(self.god, self.c.free_recruits(self.god) + 1)
        if paid is None or self.gold < paid + 2 or self.draw("recruit", 3) == 3:
            return
        units = schedule.units
        act: dict[str, Any] = {"do": "recruit", "count": 1}
        if any(u in ("fleet", "undead_fleet") for u in units):
            seas = self.fleet_places()
            if not seas:
                return
            act["sea"] = self.pick(seas, "recruit-sea")
        elif any(u in ("troop", "titan", "undead_troop") for u in units):
            act["territory"] = self.pick(self.mine, "recruit-where")
        self.acts.append(act)
        self.gold -= paid

    def fleet_places(self) -> list[str]:
        """Seas next to one's territories that hold no enemy fleet."""
        return sorted({s for t in self.mine for s in self.board.seas_of(t)
                       if self.seas[s]["owner"] in ("", self.player)
                       or not sea_units(self.seas[s])})

    def titans(self) -> None:
        """Misc Titans 1: a Titan move (1 gold for the first) now and then."""
        homes = [t for t in self.mine if self.terrs[t]["titans"]]
        if not homes or self.draw("titan-move", 2) != 1 or \
                not self.spend(self.c.rules.titan_move_base):
            return
        src = self.pick(homes, "titan-from")
        here = self.terrs[src]
        troops = max(0, int(here["troops"]) - 1)
        dst = self.invasion_target(src, int(here["titans"]) + troops, "titan-to")
        if dst:
            self.acts.append({"do": "titan_move", "from": src, "to": dst,
                              "titans": int(here["titans"]), "troops": troops})

    def special_attack(self) -> None:
        """Misc Egyptian Reinforcements 4: 1 gold, the Egyptian and troops of its territory."""
        for egyptian in sorted(self.hand["egyptians"]):
            src = next((t for t in self.mine if egyptian in self.terrs[t]["egyptians"]), "")
            if not src or self.draw(f"egypt-{egyptian}", 2) != 1 or \
                    not self.spend(self.c.rules.egyptian_attack_price):
                continue
            troops = max(0, int(self.terrs[src]["troops"]) - 1)
            dst = self.invasion_target(src, troops + 1, f"egypt-to-{egyptian}")
            if dst:
                self.acts.append({"do": "special_attack", "egyptian": egyptian, "from": src,
                                  "to": dst, "troops": troops})

    def monument(self) -> None:
        """Misc Monuments 1: claim one whose two building colours the player controls."""
        offer = self.view["monuments"]["offer"]
        if not offer or not self.mine:
            return
        colours = Counter(self.c.buildings[b].colour for t in self.mine
                          for b in self.terrs[t]["buildings"] if self.c.buildings[b].monument)
        ready = [m for m in offer if all(colours[col] >= n for col, n in
                                         Counter(self.c.monuments[m].requires).items())]
        if ready:
            self.acts.append({"do": "monument", "monument": self.pick(sorted(ready), "monument"),
                              "territory": self.pick(self.mine, "monument-where")})

    def sacrifice(self) -> None:
        """Misc Artifacts and Heroes 5: a Hero bought in an earlier turn, now and then."""
        ready = [h for h in sorted(self.hand["heroes"]) if h not in self.hand["bought"]
                 and any(h in self.terrs[t]["heroes"] for t in self.terrs)]
        if ready and self.draw("sacrifice", 3) == 1:
            hero = self.pick(ready, "sacrifice-who")
            self.acts.append({"do": "sacrifice", "hero": hero,
                              "target": self.target(self.c.heroes[hero].sacrifice)})

    def buy(self) -> None:
        """A card of the track (Cycle 8.4) the player can pay for, with a target that fits."""
        slots = self.view["creature_track"]["slots"]
        prices = self.c.track.prices
        affordable = [i for i, cid in enumerate(slots) if cid and i < len(prices)
                      and prices[i] <= self.gold]
        if not affordable or not self.mine or self.draw("buy", 2) != 1:
            return
        index = affordable[self.draw("buy-slot", len(affordable)) - 1]
        cid = slots[index]
        self.gold -= prices[index]
        self.acts.append({"do": "buy", "slot": index + 1, "target": self.card_target(cid)})

    def swap(self) -> None:
        special = self.c.god(self.god).special
        if special is None or special.effect.kind != "swap_track_creature":
            return
        slots = self.view["creature_track"]["slots"]
        creatures = [i for i, cid in enumerate(slots) if cid in self.c.creatures]
        if creatures and self.draw("swap", 3) == 1 and self.spend(special.price):
            self.acts.append({"do": "swap", "slot": creatures[0] + 1})

    # --- targets -----------------------------------------------------------------------

    def card_target(self, cid: str) -> Target:
        """Where a track card goes or what its power aims at (``effects.prepare_creature``)."""
        creature = self.c.creatures.get(cid)
        if creature is None:  # a Hero, an artifact or an Egyptian: on one's own territory
            return {"territory": self.pick(self.mine, f"place-{cid}")}
        if not creature.figure:
            return self.target(creature.effect)
        if creature.placement == "sea":
            return {"sea": self.pick(self.enemy_fleets or sorted(self.seas), f"figure-{cid}")}
        defends = creature.effect.kind == "territory_defence"
        places = self.mine if defends else self.enemy_lands or self.mine
        return {"territory": self.pick(places, f"figure-{cid}")}

    def target(self, effect: Effect, depth: int = 0) -> Target:
        """A target for ``effect`` (the keys ``effects.py`` reads for its kind)."""
        kind, label = effect.kind, f"target-{effect.kind}"
        enemy, enemy_fleets = self.enemy_lands, self.enemy_fleets
        if kind == "destroy_troop":
            return {"territory": self.pick([t for t in enemy if land_units(self.terrs[t])]
                                           or enemy or self.mine, label)}
        if kind in ("destroy_fleet", "replace_fleet"):
            return {"sea": self.pick(enemy_fleets or sorted(self.seas), label)}
        if kind == "destroy_building":
            size = effect.text("size")
            built = [t for t in enemy if any(self.c.buildings[b].size == size
                                             for b in self.terrs[t]["buildings"])]
            return {"territory": self.pick(built or enemy or self.mine, label)}
        if kind == "destroy_figure":
            figures = sorted(f for f, x in self.view["figures"].items()
                             if x["owner"] != self.player)
            return {"figure": self.pick(figures, label)} if figures else {}
        if kind == "move_troops_anywhere" and self.mine:
            src = max(self.mine, key=lambda t: (self.terrs[t]["troops"], t))
            troops = int(self.terrs[src]["troops"])
            places = [t for t in sorted(self.terrs) if t != src and (
                not self.terrs[t]["owner"] or (self.terrs[t]["owner"] in self.enemies
                                               and self.owned[self.terrs[t]["owner"]] > 1))]
            if troops and places:
                return {"from": src, "to": self.pick(places, label), "troops": troops}
            return {}
        if kind == "move_prosperity":
            rich = [t for t in sorted(self.terrs) if self.terrs[t]["prosperity"]
                    and self.terrs[t]["owner"] != self.player]
            if rich and self.mine:
                return {"from": self.pick(rich, label), "to": self.pick(self.mine, label + "2")}
            return {}
        if kind in ("steal_gold", "steal_card"):
            return {"player": self.pick(self.enemies, label)} if self.enemies else {}
        if kind == "sell_cards":
            cards = {k: 1 for k in ("priest", "philosopher") if self.hand[k]}
            return {"sell": cards} if cards else {}
        if kind == "reuse_discard" and depth == 0:
            used = sorted(cid for cid in self.view["creature_track"]["discard"]
                          if cid in self.c.creatures and not self.c.creatures[cid].figure
                          and self.c.creatures[cid].effect.kind != "reuse_discard")
            if used:
                card = self.pick(used, label)
                return {"card": card, "target": self.target(self.c.creatures[card].effect,
                                                            depth + 1)}
            return {}
        if kind == "revive_hero":
            dead = sorted(h for h in self.view["creature_track"]["removed"]
                          if h in self.c.heroes and not self.c.heroes[h].retires)
            if dead and self.mine:
                return {"hero": self.pick(dead, label),
                        "territory": self.pick(self.mine, label + "2")}
            return {}
        if kind == "place_prosperity" and self.mine:
            return {"territory": self.pick(self.mine, label)}
        if kind == "recruit":
            if effect.text("unit") in ("fleet", "undead_fleet"):
                seas = self.fleet_places()
                return {"sea": self.pick(seas, label)} if seas else {}
            return {"territory": self.pick(self.mine, label)} if self.mine else {}
        return {}  # powers without a target, and those armed for later this turn

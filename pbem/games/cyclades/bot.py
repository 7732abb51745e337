"""A Cyclades bot: legal, non-trivial orders for every phase, from the player's own view.

It plays toward the Metropolis (Victory 1): it bids for the gods whose building it lacks,
builds them, recruits a little, attacks a weaker neighbour with Ares, buys a creature now and
then, and places Apollo's marker on its best territory. It is for demos and simulations,
not a strong player. Everything it chooses comes from ``view`` and the public data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.cyclades import bidding
from pbem.games.cyclades.components import GOD_ABOVE, Components
from pbem.games.cyclades.maps import Board, load_board
from pbem.games.cyclades.state import land_units

Orders = dict[str, Any]
BASIC = ("port", "fortress", "temple", "university")
RETREATS: tuple[dict[str, Any], ...] = (
    {"when": "never"}, {"when": "at_most", "units": 1}, {"when": "behind", "by": 2})


def orders(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
           rng: Stream) -> Orders:
    board = load_board(view["game"]["board"], len(view["game"]["players"]))
    if phase.kind == "bid":
        return _bid(c, view, player, rng)
    if phase.kind == "act":
        god = phase.id.rsplit(".", 1)[1]
        return _act(c, board, view, god, player, rng)
    return {}  # deploy and upkeep: the documented defaults are sensible plays


def _mine(view: Mapping[str, Any], player: str) -> list[str]:
    return sorted(t for t, x in view["territories"].items() if x["owner"] == player)


def _have(view: Mapping[str, Any], player: str) -> set[str]:
    return {b for t in _mine(view, player) for b in view["territories"][t]["buildings"]}


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
    retreat = RETREATS[rng.draw(f"bot/{player}/retreat", len(RETREATS)) - 1]
    return {"bids": bids, "defend": {"retreat": dict(retreat)}}


def _free_space(board: Board, view: Mapping[str, Any], t: str) -> bool:
    x = view["territories"][t]
    return len(x["buildings"]) < board.territory(t).building_spaces


def _act(c: Components, board: Board, view: Mapping[str, Any], god: str, player: str,
         rng: Stream) -> Orders:
    mine = _mine(view, player)
    if god == bidding.APOLLO:
        if not mine:
            return {}
        best = max(mine, key=lambda t: (board.territory(t).prosperity, t))
        return {"actions": [{"do": "prosperity", "territory": best}]}
    gold = int(view["gold"][player])
    acts: list[dict[str, Any]] = []
    building = _building_of(c, view, god)
    build = c.god(god).build
    if building and build is not None and mine:
        spaces = [t for t in mine if _free_space(board, view, t)]
        if spaces and gold >= build.price and (building not in _have(view, player) or
                                               rng.draw(f"bot/{player}/build", 3) == 1):
            acts.append({"do": "build", "building": building,
                         "territory": rng.choice(spaces, f"bot/{player}/where")})
            gold -= build.price
    if god == "ares" and mine:
        acts += _attack(board, view, player, rng)
    paid = c.recruit_price(god, c.free_recruits(god) + 1)
    if paid is not None and gold >= paid + 2 and mine and god in ("ares", "athena", "zeus"):
        place = {"territory": mine[0]} if god == "ares" else {}
        acts.append({"do": "recruit", "count": 1, **place})
        gold -= paid
    slots = view["creature_track"]["slots"]
    if gold >= 4 and slots and slots[-1] in c.creatures and rng.draw(f"bot/{player}/buy", 3) == 1:
        enemy = sorted(t for t, x in view["territories"].items()
                       if x["owner"] not in ("", player))
        if enemy:
            acts.append({"do": "buy", "slot": len(slots),
                         "target": {"territory": rng.choice(enemy, f"bot/{player}/target")}})
    return {"actions": acts} if acts else {}


def _attack(board: Board, view: Mapping[str, Any], player: str, rng: Stream
            ) -> list[dict[str, Any]]:
    """Ares: from the strongest territory, against a weaker enemy one it can reach that is
    not its owner's last (Forgotten 6)."""
    terrs = view["territories"]
    fleets = [s for s, x in view["seas"].items() if x["owner"] == player and
              x["fleets"] + x["undead_fleets"]]
    owned: dict[str, int] = {}
    for x in terrs.values():
        if x["owner"]:
            owned[x["owner"]] = owned.get(x["owner"], 0) + 1
    src = max(_mine(view, player), key=lambda t: (terrs[t]["troops"], t))
    troops = terrs[src]["troops"]
    if troops < 3:
        return []
    # Neutral islands first (growth), then a weaker enemy that has another territory.
    targets = [t for t in board.reachable_territories(src, fleets)
               if not terrs[t]["owner"] and not land_units(terrs[t])]
    targets = targets or [t for t in board.reachable_territories(src, fleets)
                          if terrs[t]["owner"] not in ("", player)
                          and owned[terrs[t]["owner"]] > 1
                          and land_units(terrs[t]) < troops - 1]
    if not targets:
        return []
    return [{"do": "move", "from": src, "to": rng.choice(targets, f"bot/{player}/attack"),
             "troops": troops - 1}]

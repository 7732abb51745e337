"""Metropolises, special Metropolises and Monuments (base rules, Misc Special Metropolis,
Misc Monuments), and the "would this conquest win the game at once" test of Forgotten 6.

Forming a Metropolis is not in the seed; from the published base rules and their FAQ as we
know them: the instant a player controls four DIFFERENT basic buildings (Port, Fortress,
Temple, University; a Theater, ``metropolis_wild``, stands in for a missing one) or holds four
philosophers, they are exchanged for a Metropolis, placed on a free Metropolis square of one of
their territories. With no free square the buildings (or philosophers) are discarded all the
same and the Metropolis is lost (base FAQ). Which square: the act's ``metropolis`` preference
list, else the first of the player's territories by id. Which building of a kind is given up
when the player has two: the one on the Metropolis's own territory, else the first by
territory id.

Misc Special Metropolis 1: the player who builds the first Metropolis of the game chooses one
of the face-up special Metropolis cards (the act's ``special_metropolis`` list, else the first
face up); its power follows the Metropolis tile: a conqueror of that territory takes the card
(``warfare.conquer``). Where the tile stands is kept in ``state["metropolises"]["where"]``
(a layout addition).

Misc Monuments 1-3: a player controlling two buildings of the colours a face-up Monument names
(the same colour twice: two such buildings; never a Theater) may claim it during their own
action (not on Apollo, Forgotten 1), free, and place its figure on one of their territories.
The buildings stay and are not marked: one building may count for several Monuments (our
reading; the seed names no limit). A Monument takes no building space and is no part of a
Metropolis.
"""

from __future__ import annotations

from collections import Counter

from pbem.core.ruleset import copy_state
from pbem.games.cyclades.components import Components
from pbem.games.cyclades.maps import Board
from pbem.games.cyclades.state import (
    State,
    buildings_of,
    metropolises_of,
    team_of,
    territories_of,
)
from pbem.games.cyclades.turn import Turn, hand_of

RULE = "Base Metropolis"


def parts(c: Components) -> list[str]:
    """The four buildings a Metropolis is made of (``metropolis_part``), by id."""
    return sorted(b.id for b in c.buildings.values() if b.metropolis_part)


def free_squares(board: Board, state: State, player: str) -> list[str]:
    """``player``'s territories with a Metropolis square and no Metropolis yet, by id."""
    return [t for t in territories_of(state, player)
            if board.territory(t).metropolis_square and not state["territories"][t]["metropolis"]]


def building_set_complete(c: Components, state: State, player: str) -> bool:
    """Four different Metropolis parts among ``player``'s buildings, wild ones filling gaps."""
    held = buildings_of(state, player)
    need = parts(c)
    have = {b for b in held if b in need}
    wild = sum(1 for b in held if c.buildings[b].metropolis_wild)
    return len(have) + min(wild, len(need) - len(have)) >= len(need)


def metropolises_needed(state: State) -> int:
    """Victory 1: two Metropolises, three with two players."""
    return 3 if state["game"].get("two_player") else 2


def formable(c: Components, board: Board, state: State, player: str) -> int:
    """How many Metropolises ``player`` would form right now (on a copy; no events)."""
    sim = copy_state(state)
    count = 0
    while True:
        squares = free_squares(board, sim, player)
        if building_set_complete(c, sim, player):
            _spend_buildings(c, sim, player, squares[0] if squares else "")
        elif hand_of(sim, player)["philosopher"] >= 4:
            hand_of(sim, player)["philosopher"] -= 4
        else:
            return count
        if squares:
            sim["territories"][squares[0]]["metropolis"] = True
            count += 1


def _spend_buildings(c: Components, state: State, player: str, site: str) -> list[str]:
    """Remove one of each Metropolis part (wild ones for the missing); the tiles removed."""
    order = ([site] if site else []) + [t for t in territories_of(state, player) if t != site]
    removed: list[str] = []
    need = parts(c)
    held = Counter(buildings_of(state, player))
    missing = [p for p in need if not held[p]]
    wanted = [p for p in need if held[p]]
    wilds = sorted(b for b in held if c.buildings[b].metropolis_wild)
    wanted += [wilds[0]] * len(missing) if wilds else []
    for building in wanted:
        for tid in order:
            tiles = state["territories"][tid]["buildings"]
            if building in tiles:
                tiles.remove(building)
                removed.append(f"{building}@{tid}")
                break
    return removed


def check_metropolis(t: Turn, player: str = "") -> None:
    """Form every Metropolis ``player`` (the acting player by default) is owed now."""
    who = player or t.player
    while True:
        squares = free_squares(t.board, t.state, who)
        preferred = [s for s in t.metropolis_pref if s in squares] if who == t.player else []
        site = (preferred or squares or [""])[0]
        if building_set_complete(t.c, t.state, who):
            removed = _spend_buildings(t.c, t.state, who, site)
            what = "four different buildings (" + ", ".join(removed) + ")"
        elif hand_of(t.state, who)["philosopher"] >= 4:
            hand_of(t.state, who)["philosopher"] -= 4
            t.state["supply"]["philosopher"] = int(t.state["supply"]["philosopher"]) + 4
            what = "four philosophers"
        else:
            return
        if not site:
            t.say("metropolis_lost", RULE, f"{who} exchanges {what} for a Metropolis but has "
                  "no free Metropolis square: the Metropolis is lost (base FAQ).",
                  player=who, spent=what)
            continue
        t.state["territories"][site]["metropolis"] = True
        t.say("metropolis", RULE, f"{who} exchanges {what} for a Metropolis on {site}.",
              player=who, territory=site, spent=what,
              metropolises=metropolises_of(t.state, who))
        _award_special(t, who, site)


def _award_special(t: Turn, player: str, site: str) -> None:
    """Misc Special Metropolis 1: the first Metropolis of the game takes a face-up card."""
    mets = t.state["metropolises"]
    if mets["held"] or not mets["offer"]:
        return
    prefs = [m for m in t.special_pref if m in mets["offer"]] if player == t.player else []
    card = (prefs or list(mets["offer"]))[0]
    mets["offer"].remove(card)
    mets["held"][card] = player
    mets.setdefault("where", {})[card] = site
    hand_of(t.state, player)["metropolises"].append(card)
    t.say("special_metropolis", "Misc Special Metropolis 1", f"{player} builds the first "
          f"Metropolis and takes the {t.c.metropolises[card].name} ({site}).",
          player=player, card=card, territory=site)


def monument_problem(t: Turn, monument: str, territory: str) -> str:
    """Why the acting player may not claim ``monument`` on ``territory`` now ("" if they may),
    Misc Monuments 1-3."""
    mons = t.state["monuments"]
    if monument not in t.c.monuments:
        return f"{monument} is not a Monument"
    if monument in mons["built"]:
        return f"the {t.c.monuments[monument].name} is already built"
    if monument not in mons["offer"]:
        return f"the {t.c.monuments[monument].name} is not among the Monuments laid out"
    if t.state["territories"].get(territory, {}).get("owner") != t.player:
        return f"{territory} is not yours"
    colours = Counter(t.c.buildings[b].colour for b in buildings_of(t.state, t.player)
                      if t.c.buildings[b].monument)  # Misc Monuments 1: never a Theater
    need = Counter(t.c.monuments[monument].requires)
    if any(colours[col] < n for col, n in need.items()):
        wanted = " and ".join(t.c.monuments[monument].requires)
        return f"it needs two buildings, {wanted}, and you control " + (
            ", ".join(f"{n} {col}" for col, n in sorted(colours.items())) or "none")
    return ""


def claim_monument(t: Turn, monument: str, territory: str) -> None:
    """Claim a Monument checked by :func:`monument_problem`."""
    mons = t.state["monuments"]
    mons["offer"].remove(monument)
    mons["built"][monument] = {"owner": t.player, "territory": territory}
    t.territory(territory)["monuments"].append(monument)
    t.hand["monuments"].append(monument)
    t.say("monument", "Misc Monuments 1", f"{t.player} claims the "
          f"{t.c.monuments[monument].name} and places it on {territory}.",
          player=t.player, monument=monument, territory=territory)


def would_win(c: Components, board: Board, state: State, attacker: str, territory: str) -> bool:
    """Forgotten 6: whether taking ``territory`` (a player's last) would IMMEDIATELY win the
    game for ``attacker``, assuming the battle is won.

    Without teams: the attacker would then hold (the Metropolis captured, or one formed at once
    from the buildings captured) as many Metropolises as Victory 1 asks. In team play, Team 5:
    the territory has no Metropolis, has a Metropolis square, and its Metropolis would be the
    team's third. Either way, also when the artifacts standing there would complete the
    attacker's (team's) set: Victory 2 / Team 6, an immediate victory."""
    target = state["territories"][territory]
    mates = ([p for p in state["game"]["players"]
              if team_of(state, p) == team_of(state, attacker)]
             if state["game"].get("teams") else [attacker])
    artifacts = sum(len(state["hands"][p]["artifacts"]) for p in mates)
    if target["artifacts"] and artifacts + len(target["artifacts"]) >= \
            c.rules.artifacts_for_victory:
        return True
    if state["game"].get("teams"):
        team = team_of(state, attacker)
        held = sum(metropolises_of(state, p) for p in state["game"]["players"]
                   if team_of(state, p) == team)
        return (not target["metropolis"] and board.territory(territory).metropolis_square
                and held + 1 >= 3)
    sim = copy_state(state)
    sim["territories"][territory]["owner"] = attacker
    total = metropolises_of(sim, attacker) + formable(c, board, sim, attacker)
    return total >= metropolises_needed(state)

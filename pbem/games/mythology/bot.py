"""A bot that gives legal, non-trivial Mythology orders from its own view only.

It keeps up its Hero totals (208 I), spends the rest on new Heroes, Monsters, a Divine
Occurrence now and then and the Glory of Zeus, challenges for the Heroes it has invested in,
moves the Heroes it has the most on toward Prizes and Monsters, and fights when the numbers
favour it. It uses only :func:`rules.view` output and the public component data.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pbem.core.dice import Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.mythology import movement, moving
from pbem.games.mythology.components import Components
from pbem.games.mythology.rules import Board

Orders = dict[str, Any]


def orders(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
           rng: Stream) -> Orders:
    if phase.kind == "logsheet":
        return logsheet(c, view, player, rng)
    if phase.kind == "place":
        return place(c, view, player, rng)
    if phase.kind == "move":
        return move(c, view, player, rng)
    if phase.kind == "zeus":
        return decree(c, view, player, rng)
    return {}


def _on_board(view: Mapping[str, Any], table: str) -> dict[int, str]:
    return {int(u): x["hex"] for u, x in view[table].items() if x["status"] == "board"}


def logsheet(c: Components, view: Mapping[str, Any], player: str, rng: Stream) -> Orders:
    budget = 10
    totals = {int(h): t for h, t in view["my_hero_totals"].items()}
    heroes_on = _on_board(view, "heroes")
    heroes: dict[str, int] = {}
    for hero in sorted(totals, key=lambda h: -totals[h])[:3]:   # 208 I: keep them alive
        if hero in heroes_on:
            heroes[str(hero)] = 1
            budget -= 1
    candidates = sorted(heroes_on)
    if candidates:
        new = rng.choice(candidates, f"bot/{player}/hero")
        extra = rng.draw(f"bot/{player}/hero-points", 4)
        heroes[str(new)] = heroes.get(str(new), 0) + extra
        budget -= extra
    out: Orders = {"heroes": heroes}
    monsters_on = sorted(_on_board(view, "monsters"))
    if monsters_on and budget >= 2 and rng.draw(f"bot/{player}/monster?", 2) == 1:
        out["monsters"] = {str(rng.choice(monsters_on, f"bot/{player}/monster")): 2}
        budget -= 2
    if budget >= 2 and rng.draw(f"bot/{player}/occurrence?", 6) == 1:
        # Mostly the occurrences that hinder rather than kill, at two points: an Earthquake
        # at +30 in a crowded Greece would empty the board in the first Turn.
        code = rng.choice(["Pe", "F", "Pe", "F", "E", "V"], f"bot/{player}/occurrence")
        out["occurrences"] = [{"code": code, "points": 2}]
        budget -= 2
    if budget >= 4:
        out["zeus"] = 4
        budget -= 4
    if budget > 0 and heroes:
        first = sorted(heroes)[0]
        heroes[first] += budget
    challenges = []
    for hero, total in sorted(totals.items()):
        if total >= 3:
            challenges.append({"unit": hero, "limit": total + heroes.get(str(hero), 0)})
    if challenges:
        out["challenge"] = challenges
    top = max(totals, key=lambda h: (totals[h], -h), default=0)
    if top and top in heroes_on:
        uses = []
        god = c.gods[view["gods"][player]]
        for p in god.powers:  # 011: standing uses of the god's powers on its best Hero
            if p.effect.kind in ("attack", "defense", "magic") and p.effect.amount > 0 and \
                    p.effect.target in ("hero", "unit"):
                uses.append({"what": f"power:{p.id}", "when": "combat", "unit": top})
            elif p.effect.kind == "challenge":
                uses.append({"what": f"power:{p.id}", "when": "challenge", "unit": top})
        hand = view["hand"]
        if hand and rng.draw(f"bot/{player}/card?", 3) == 1:  # 202 B 2, 010 E 1
            card = rng.choice(sorted(hand), f"bot/{player}/card")
            out["card"] = card
            effect = c.cards[int(card)].god.effect
            if effect.kind in ("attack", "defense") and effect.amount > 0 and \
                    effect.target in ("hero", "unit"):
                uses.append({"what": "card", "when": "combat", "unit": top})
        if uses:
            out["use"] = uses
        if totals[top] >= 3:
            out["intercept"] = [{"unit": top, "target": 0}]  # 205 I
        if view.get("options", {}).get("prayer") == "on" and \
                rng.draw(f"bot/{player}/pray?", 4) == 1:
            out["prayer"] = [{"glory": 3, "hero": top}]  # 302
    if view.get("options", {}).get("zeus") and rng.draw(f"bot/{player}/bribe?", 4) == 1:
        # 301 C c: now and then a little Glory for Zeus's favour, if there is some to spare.
        spare = view["glory"][player] - sum(o["glory"] for o in out.get("prayer", []))
        if spare > 10:
            out["bribe"] = rng.draw(f"bot/{player}/bribe", 3)
    return out


def decree(c: Components, view: Mapping[str, Any], player: str, rng: Stream) -> Orders:
    """301: Zeus favours the gods who gave him the most Glory (301 C 1), protects the offers
    that gave the most (301 C 2), now and then brings a unit back (301 C 3) and strikes the
    Glory leader: his god, or a Hero's hex in the Area where his god last stood (301 C 4)."""
    seats: list[str] = list(view["seats"])
    z = view["zeus"]
    given = dict(z["given"])
    out: Orders = {"favor": sorted(seats, key=lambda p: (-given.get(p, 0), seats.index(p)))}
    offers = view.get("zeus_offers", [])
    results = view.get("zeus_results", ["none"])
    if offers:
        best = max(o["glory"] for o in offers)
        defenses = [r for r in results if r.startswith("defense+")]
        protect = []
        for o in offers:
            if o["glory"] == best and "full" in results:
                result = "full"
            elif o["glory"] >= 2 and defenses:
                result = defenses[-1]
            else:
                continue
            protect.append({"player": o["player"], "index": o["index"], "result": result})
        if protect:
            out["protect"] = protect
    dead = sorted(x["unit"] for x in view.get("zeus_revivable", []))
    if dead and rng.draw(f"bot/{player}/revive?", 4) == 1:
        out["revive"] = [{"unit": rng.choice(dead, f"bot/{player}/revive")}]
    leader = max(seats, key=lambda p: (view["glory"][p], -seats.index(p)))
    if len(seats) > 1 and leader not in z["last_bolted"] and \
            rng.draw(f"bot/{player}/strike-god?", 8) == 1:
        during = seats[(seats.index(leader) + 1) % len(seats)]  # a Move that takes place
        out["bolt"] = [{"during": during, "god": leader}]
    elif rng.draw(f"bot/{player}/strike-hex?", 3) == 1:
        area = view["god_area"].get(leader, "")
        hexes = sorted({x["hex"] for x in view["heroes"].values() if x["status"] == "board"
                        and (not area or c.map.area_of(x["hex"]) == area)})
        if hexes:
            out["bolt"] = [{"during": leader, "hex": rng.choice(hexes, f"bot/{player}/hex")}]
    return out


def place(c: Components, view: Mapping[str, Any], player: str, rng: Stream) -> Orders:
    totals = view.get("my_hero_totals", {})
    heroes_on = _on_board(view, "heroes")
    mine = [heroes_on[int(h)] for h in totals if int(h) in heroes_on]
    if mine:
        return {"area": c.map.area_of(rng.choice(sorted(mine), f"bot/{player}/area"))}
    land = sorted(a for a, x in c.map.areas.items() if not x.is_water)
    return {"area": rng.choice(land, f"bot/{player}/area")}


@lru_cache(maxsize=65536)
def _distance(c: Components, a: str, b: str) -> int:
    return c.map.distance(a, b)


def _path_toward(c: Components, board: Board, start: str, goals: set[str], ship: bool,
                 rng: Stream, label: str) -> list[str]:
    """A legal path of up to two hexes, toward the nearest goal when there is one."""
    mover = movement.Mover(0, "hero", start, ship=ship)
    options: list[list[str]] = []
    for a in board.neighbours(start):
        if not movement.check_path(board, mover, [a], ""):
            options.append([a])
            for b in board.neighbours(a):
                if b != start and not movement.check_path(board, mover, [a, b], ""):
                    options.append([a, b])
    if not options:
        return []
    if goals:
        nearest: dict[str, int] = {}  # many paths end on the same hex

        def score(path: list[str]) -> int:
            end = path[-1]
            if end not in nearest:
                nearest[end] = min(_distance(c, end, g) for g in goals)
            return nearest[end]
        best = min(score(p) for p in options)
        if best < min(_distance(c, start, g) for g in goals):
            options = [p for p in options if score(p) == best]
    return rng.choice(options, label)


def _lesser_moves(c: Components, view: Mapping[str, Any], player: str,
                  heroes_on: Mapping[int, str], mine: set[int], rng: Stream,
                  combats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """303 E: move the Lesser Evil counters in the god's Area one hex toward another god's
    Hero, and attack it when they meet (303 H)."""
    from pbem.games.mythology.moving import lesser_path_problems

    area = view["god_area"].get(player, "")
    if view.get("options", {}).get("lesser_evil") != "on" or not area:
        return []
    targets = {h: x for h, x in heroes_on.items() if h not in mine}
    moves = []
    for unit, x in sorted(view.get("lesser", {}).items(), key=lambda kv: int(kv[0])):
        if x["status"] != "board" or c.map.area_of(x["hex"]) != area:
            continue
        steps = [[n] for n in c.map.neighbours(x["hex"])
                 if not lesser_path_problems(c, int(unit), x["hex"], [n], "")]
        if not steps or not targets:
            continue
        best = min(steps, key=lambda p: (min(_distance(c, p[-1], t) for t in targets.values()),
                                         p[-1]))
        moves.append({"unit": int(unit), "path": best})
        fighting = {u for x in combats for u in (x["attacker"], x["defender"])}
        for hero, where in sorted(targets.items()):
            if where == best[-1] and hero not in fighting and not _remorseful(c, view, hero):
                combats.append({"attacker": int(unit), "defender": hero})  # 205 K: once
                break
    return moves


def _remorseful(c: Components, view: Mapping[str, Any], hero: int) -> bool:
    """214 A 3 e: Hercules, face down, neither fights nor captures."""
    return bool(view["remorse"]) and c.heroes[hero].name == "Hercules"


def move(c: Components, view: Mapping[str, Any], player: str, rng: Stream) -> Orders:
    board = Board(c)
    totals = {int(h): t for h, t in view["my_hero_totals"].items()}
    heroes_on = _on_board(view, "heroes")
    monsters_on = _on_board(view, "monsters")
    prize_hexes = {x["hex"] for x in view["prizes"].values() if x["hex"] and not x["holder"]
                   and not x["off_board"]}
    monster_at: dict[str, list[int]] = {}
    for m, h in monsters_on.items():
        monster_at.setdefault(h, []).append(m)
    plotted = [o["code"] for o in view["my_logsheets"].get(str(view["turn"]), {})
               .get("occurrences", [])]
    out: Orders = {}
    area = view["god_area"].get(player, "")
    if plotted and area:
        acts = []
        for code in plotted:
            if code == "V":
                targets = sorted(h for h in heroes_on.values() if c.map.area_of(h) == area)
                if targets:
                    acts.append({"code": "V", "hex": targets[0]})
            else:
                acts.append({"code": code})
        out["activate"] = acts
    halted = set(view.get("halted", []))
    mine = sorted((h for h in totals if h in heroes_on and h not in view["pestilence"]
                   and h not in halted), key=lambda h: (-totals[h], h))[:5]
    no_attack = set(view.get("no_attack", []))  # 302 G
    attempts: list[dict[str, Any]] = []
    combats: list[dict[str, Any]] = []
    captures: list[dict[str, Any]] = []
    for hero in mine:
        start = heroes_on[hero]
        ship = hero in view["ships"]
        goals = prize_hexes | set(monster_at)
        path = _path_toward(c, board, start, goals, ship, rng, f"bot/{player}/path/{hero}")
        closed = moving.closed_hexes(c, view.get("closed", []), path)
        if closed:  # a god's terrain power (011): stop before the first closed hex
            path = path[:min(path.index(h) for h in closed)]
        attempts.append({"unit": hero, "bid": totals[hero], "path": path})
        end = path[-1] if path else start
        if ship:
            continue
        fighting = {u for x in combats for u in (x["attacker"], x["defender"])}
        for m in monster_at.get(end, []):
            if hero in no_attack or _remorseful(c, view, hero) or m in fighting:
                break  # 302 G, 214 A 3 e, 205 K
            attack = c.heroes[hero].attack
            if 66 + attack >= c.monsters[m].defense and 40 + attack >= c.monsters[m].defense:
                combats.append({"attacker": hero, "defender": m})
                break
        if end in prize_hexes and not _remorseful(c, view, hero):
            captures.append({"hero": hero})
    card = view.get("facedown_card", "")
    if card and attempts and not view.get("card_played"):
        # 010 E 2, F: the god section, on the first Hero moved, if it helps
        effect = c.cards[int(card)].god.effect
        if effect.kind in ("movement", "ship", "protect") and effect.target in ("hero", "unit"):
            out["card"] = {"section": "god", "unit": attempts[0]["unit"]}
    if attempts:
        out["attempt"] = attempts
    moves = _lesser_moves(c, view, player, heroes_on, set(totals), rng, combats)
    if moves:
        out["lesser"] = moves
    if combats:
        out["combat"] = combats
    if captures:
        out["capture"] = captures
    return out

"""Hetairos reports: what ``templates/hetairos/report.*.j2`` lay out.

Built from a view alone (``RULESET.view``: the whole state, Hetairos hides nothing, analysis
2.1, plus ``game_over`` and ``me``), never from anything else. :func:`public` is the same for
every reader: the header (the scenario and its victory text, the round, whose turn, a halt
and the steps waiting), every player's character sheet, the models on the map, the explored
squares with what each holds, and the appendices (the Monster Manual text of every monster
type on the map, the printed text of every item carried or on sale, the ten characters).
:func:`context` is the reader's own part: where his character may move now, the enemies in
reach, the checks and wares of the square he stands on, his standing orders.

Rulings of the reports (no rule of the game):

- The moves listed for the reader are :func:`turn.leave_problem` and the square beyond, on a
  copy of the view: a drawn neighbour shows its kind and AP cost (Map 1, Small 1), an undrawn
  one "explore" (Explore 0); what lies beyond is not known until then. The AP shown are those
  left now; outside his turn, the allowance of his next turn (:func:`turn.preview`, which
  rolls no die: a revolving room's roll again is left to the adjudication).
- The enemies in reach are :func:`turn.targets_in_reach` (in the square, and at range with a
  bow, sling, Amazon or Bow of Artemis).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.ruleset import copy_state
from pbem.games.hetairos import grid, standing, turn
from pbem.games.hetairos.table import Components, Model, NoDice, Table

#: Two letters for each square kind, on the board and in the text lists.
CODES = {"styx": "St", "rock": "Rk", "small_tunnel": "st", "tunnel": "Tu",
         "tunnel_fork": "Fk", "empty_cavern": "Cv", "ancient_library": "Li",
         "great_forge": "Fo", "isolated_community": "Co", "polis": "Po", "manor": "Ma",
         "kobaloi_settlement": "Kb", "lost_hoard": "Ho", "magic_spring": "Sp",
         "molten_lava": "La", "lair": "Lr", "olympian_shrine": "Sh",
         "shrine_of_hecate": "He", "surface_tunnel": "Su", "trapped_room": "Tr"}
SIDES = {"pc": "player character", "npc": "NPC", "monster": "monster",
         "defender": "settlement defender"}
STUCK = {"pit": "in a pit: 'climb' to get out (Trap 4)",
         "daedalus": "in the Room of Daedalus: 'escape' to get out (Trap 6)",
         "revolving": "in a revolving room (Trap 5)"}
BANKS = {"W": "west bank", "E": "east bank"}
#: What each standing order decides (standing.py; docs/games/hetairos.md).
MEANING = {
    "imprison": "try to imprison a defeated enemy that can be captured (Battle 9)",
    "soak": "how your side shares the damage it loses (Battle 8)",
    "cover": "the players you take damage for (Battle 6)",
    "gorgon": "fight the Gorgon with eyes closed at -5, or risk the d6 (Monster Gorgon)",
    "pay_giant": "pay a Giant 6 Gold instead of fighting it (Monster Giant)",
    "reroll": "use a talisman on a failed check or a lost round (Item 2, 8)",
    "npcs": "what your NPCs do in the world phase: follow you, or guard",
    "traitor": "the power you take if you become the traitor (The Traitor)",
    "escort": "5 Hoplites or 3 Amazons under your command at the start (The War Games)",
    "boot": "the players you vote to boot out of a Polis you are a citizen of (Polis 6)",
    "thunderbolt": "in the monsters' phase, hurl your Thunderbolt at a Great Monster (or any "
                   "monster) about to act within its range (Rare A6)",
}


def _plural(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def seat_numbers(view: Mapping[str, Any]) -> dict[str, int]:
    return {p: i for i, p in enumerate(view.get("seats", []), 1)}


def sort_key(k: str) -> tuple[int, int]:
    """Reading order: north to south, then west to east."""
    x, y = grid.xy(k)
    return y, x


def kind_name(c: Components, kind: str) -> str:
    sk = c.world.squares.get(kind)
    return sk.name if sk is not None else kind


def ware_name(c: Components, ware: str) -> str:
    w = c.people.ware(ware)
    return w.name.title() if w is not None else ware


def ware_text(c: Components, ware: str) -> str:
    w = c.people.ware(ware)
    return w.text if w is not None else ""


def monster_name(c: Components, type_: str) -> str:
    mon = c.world.monsters.get(type_)
    return mon.name if mon is not None else type_


def living(view: Mapping[str, Any]) -> list[Model]:
    """The models on the map (alive, not taken prisoner), by id number."""
    out = [m for m in view.get("models", {}).values() if m["hp"] > 0 and not m.get("captured")]
    return sorted(out, key=lambda m: int(str(m["id"])[1:]) if str(m["id"])[1:].isdigit()
                  else 0)


def at(view: Mapping[str, Any], k: str) -> list[Model]:
    return [m for m in living(view) if m["at"] == k]


def table(c: Components, view: Mapping[str, Any]) -> Table:
    """A working context on a copy of the view, for the rules' own queries (no die is drawn:
    the stream is a stand-in)."""
    state = copy_state({k: v for k, v in view.items() if k not in ("game_over", "me")})
    for key in ("teams", "hostile", "pcs", "map", "models", "standing"):
        state.setdefault(key, {})
    return Table(c, state, NoDice(), label="report")


# --- events --------------------------------------------------------------------------------


def event_text(c: Components, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
    """The ledger's text is already readable English naming models and squares."""
    return str(event.get("text", ""))


# --- the header ----------------------------------------------------------------------------


def header(c: Components, view: Mapping[str, Any]) -> list[str]:
    out = []
    s = c.world.scenarios.get(str(view.get("scenario", "")))
    if s is not None:
        kind = c.world.lists[s.list].name if s.list in c.world.lists else s.list
        out.append(f"Scenario: {s.name} ({kind}, Start 3). To win: " + " ".join(s.victory))
        if s.events:
            out.append("Special rules: " + " ".join(s.events))
    rounds = str(view.get("options", {}).get("rounds", "0"))
    r = view.get("round", 1)
    limit = f" (the campaign ends after round {rounds} if not won)" if rounds not in (
        "", "0") else ""
    step = view.get("step", "turn")
    if step == "over" or view.get("game_over"):
        res = view.get("result", {})
        out.append(f"Round {r}: the game is over. " + str(res.get("why", "")))
        return out
    order = ", ".join(f"{n}. {p}" for p, n in seat_numbers(view).items())
    if step == "world":
        out.append(f"Round {r}{limit}: every player has moved; now the monsters and NPCs "
                   f"act (Start 1). Turn order: {order}.")
    else:
        active = str(view.get("active", ""))
        seat = seat_numbers(view).get(active, 0)
        out.append(f"Round {r}{limit}: {active}'s turn (seat {seat}). Turn order: {order}.")
        if view.get("cont"):
            pending = list(view.get("pending", []))
            out.append(f"{active}'s turn halted ({view.get('halted', '')}); the steps "
                       "waiting: " + ("; ".join(pending) if pending else "none") + ".")
    goal = view.get("goal", {})
    kills = goal.get("great_kills", [])
    if kills:
        out.append("Great Monsters slain: " + ", ".join(
            f"{monster_name(c, str(k.get('type', '')))} by {', '.join(k.get('players', []))} "
            f"(round {k.get('round', '?')})" for k in kills) + ".")
    if goal.get("delivered"):
        out.append(f"Prisoners delivered: {goal['delivered']}.")
    if goal.get("progress"):  # a scenario's own account of its goal (the Great Myths)
        out.append(str(goal["progress"]))
    for team, flag in sorted(goal.get("flags", {}).items()):  # Team 2: where each flag is
        out.append(f"Flag of {team} (home {flag['home']}): " + (
            f"carried by {flag['holder']}." if flag["holder"] else f"lies at {flag['at']}."))
    return out


# --- character sheets ----------------------------------------------------------------------


def where(m: Mapping[str, Any]) -> str:
    bank = BANKS.get(str(m.get("bank", "")), "")
    return str(m["at"]) + (f" ({bank})" if bank else "")


def ap_for(t: Table, view: Mapping[str, Any], player: str) -> int:
    """The AP ``player``'s character has for the steps he sends now (``t``: a copy of the
    view): those left after a halt in his turn, else his allowance (what :func:`turn.start`
    gives, used up from the copy)."""
    m = t.pc(player)
    if m is None:
        return 0
    if view.get("active") == player and view.get("cont"):
        return int(m["ap"])
    return turn.allowance(t, m)


def sheet(c: Components, t: Table, view: Mapping[str, Any], player: str) -> dict[str, Any]:
    """A player's character sheet (Concepts 3-4); ``t``: a copy of the view."""
    seat = seat_numbers(view).get(player, 0)
    mid = view.get("pcs", {}).get(player, "")
    m = view.get("models", {}).get(mid)
    if m is None:
        return {"player": player, "seat": seat, "title": f"{seat}. {player}: no character yet",
                "lines": [], "alive": False}
    ch = c.people.characters.get(m["type"])
    name = ch.name.title() if ch is not None else m["type"]
    alive = m["hp"] > 0
    title = (f"{seat}. {player}: the {name} ({m['id']}), "
             + (f"at {where(m)}" if alive else "dead"))
    turn_now = view.get("active") == player and view.get("step") == "turn"
    ap = (f"AP {ap_for(t, view, player)} " + ("left" if view.get("cont") else "this turn")
          if turn_now else f"AP {ap_for(t, view, player)} a turn") if alive else "AP 0"
    lines = [f"HP {m['hp']}/{m['max_hp']}, {ap}, Gold {m.get('gold', 0)}, "
             f"Kleos {m.get('kleos', 0)}."]
    if ch is not None:
        lines.append("Abilities: " + " ".join(f"{a.text} ({a.clause})."
                                                for a in ch.abilities))
    items = list(m.get("items", []))
    lines.append("Items: " + ("; ".join(f"{ware_name(c, i)} ({i})" for i in items)
                              if items else "none") + ".")
    prisoners = list(m.get("prisoners", []))
    if prisoners:
        lines.append("Prisoners (Battle 9, -1 AP each): "
                     + ", ".join(monster_name(c, p) for p in prisoners) + ".")
    stuck = str(m.get("stuck", ""))
    if stuck and alive:
        lines.append("Stuck: " + STUCK.get(stuck, stuck) + ".")
    effects = {k: v for k, v in dict(m.get("effects", {})).items() if v}
    if effects and alive:
        lines.append("Effects: " + ", ".join(sorted(effects)) + ".")
    npcs = [o for o in living(view) if o["side"] == "npc" and o.get("owner") == player]
    if npcs:
        lines.append("NPCs under your control: " + ", ".join(
            f"{o['name']} ({o['id']}) at {o['at']}, HP {o['hp']}/{o['max_hp']}"
            for o in npcs) + ".")
    team = view.get("teams", {}).get(player)
    if team:
        lines.append(f"Team: {team}.")
    return {"player": player, "seat": seat, "title": title, "lines": lines, "alive": alive,
            "model": m["id"]}


# --- models and squares --------------------------------------------------------------------


def model_line(c: Components, view: Mapping[str, Any], m: Mapping[str, Any]) -> str:
    side = SIDES.get(str(m["side"]), str(m["side"]))
    if m["side"] in ("pc", "npc"):
        side += f" of {m['owner']}"
    elif m["side"] == "defender" and m.get("home") != m["at"]:
        side += f" of {m.get('home', '')}"
    extra = ""
    if m["side"] != "pc":
        mon = c.world.monsters.get(m["type"])
        if mon is not None and mon.great:
            extra = ", Great Monster"
        if m.get("resting"):
            extra += ", resting"
    return (f"{m['id']} {m['name']} ({side}{extra}) at {where(m)}: HP {m['hp']}/"
            f"{m['max_hp']}")


def site_text(c: Components, view: Mapping[str, Any], k: str, sq: Mapping[str, Any]
              ) -> str:
    """What a special square holds (sites.py), in words."""
    site = sq.get("site") or {}
    models = view.get("models", {})

    def names(ids: list[str]) -> str:
        alive = [i for i in ids if i in models and models[i]["hp"] > 0]
        return ", ".join(f"{models[i]['name']} ({i})" for i in alive) or "none"

    if "settlement" in site:
        defenders = [m for m in at(view, k) if m["side"] == "defender" and m.get("home") == k]
        parts = ["defenders: " + (", ".join(f"{m['id']} (HP {m['hp']})"
                                                      for m in defenders) or "none")]
        if site.get("citizens"):
            parts.append("citizens: " + ", ".join(site["citizens"]))
        if site.get("friendly"):
            parts.append("friendly to: " + ", ".join(site["friendly"]))
        hostile = view.get("hostile", {}).get(k, [])
        if hostile:
            parts.append("at war with: " + ", ".join(hostile))
        if site.get("destroyed"):
            parts.append("destroyed")
        return "; ".join(parts)
    if site.get("lair") == "great_monster":
        mid = str(site.get("monster", ""))
        m = models.get(mid)
        who = f"the {m['name']} ({mid})" if m else mid
        state = "" if m is None or m["hp"] > 0 else ", slain"
        return f"lair of a Great Monster: {who}{state}"
    if site.get("lair") == "spawn_lair":
        return (f"spawn lair of {monster_name(c, str(site.get('spawn', '')))}s; attached: "
                + names(list(site.get("attached", []))))
    if site.get("lair") == "shade_pit":
        return "a shade pit (Lair 5)"
    if "trap" in site:
        trap = c.world.traps.get(str(site["trap"]))
        return (f"trap: {trap.name if trap else site['trap']}"
                + (" (spent)" if site.get("spent") else ""))
    if "spawn" in site:
        return "spawns a devotee of Hecate each round; attached: " + names(
            list(site.get("attached", [])))
    if "taken" in site:
        return "the hoard is taken" if site["taken"] else "an untouched hoard"
    if "cells" in site:
        return ("lava, spreading at " + str(site.get("threshold", "?")) + "+; covers "
                + ", ".join(site.get("cells", [])))
    if "attached" in site:
        return "attached: " + names(list(site.get("attached", [])))
    return ""


def square_line(c: Components, view: Mapping[str, Any], k: str, sq: Mapping[str, Any]
                ) -> str:
    kind = str(sq.get("kind", ""))
    opened = "".join(d for d in grid.DIRS if d in str(sq.get("open", "")))
    parts = [f"{k} {CODES.get(kind, '??')} {kind_name(c, kind)}",
             "open " + (opened or "nowhere")]
    if kind == "styx":
        parts.append("bridged: may cross east-west" if sq.get("bridge") else
                     "no bridge: each bank keeps to its side")
    held = site_text(c, view, k, sq)
    if held:
        parts.append(held)
    here = [m["id"] for m in at(view, k)]
    if here:
        parts.append("here: " + ", ".join(here))
    return "; ".join(parts) + "."


def squares(c: Components, view: Mapping[str, Any]) -> list[str]:
    m = view.get("map", {})
    return [square_line(c, view, k, m[k]) for k in sorted(m, key=sort_key)]


# --- appendices ----------------------------------------------------------------------------


def monster_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    types = sorted({str(m["type"]) for m in living(view) if m["side"] != "pc"})
    out = []
    for ty in types:
        mon = c.world.monsters.get(ty)
        if mon is not None:
            out.append(f"{mon.name} ({ty}) {mon.kleos_text}: {mon.text}")
    return out


def item_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    ids: set[str] = set()
    for m in living(view):
        ids.update(str(i) for i in m.get("items", []))
    for sq in view.get("map", {}).values():
        ids.update(c.people.prices.get(str(sq.get("kind", "")), {}))
    return [f"{ware_name(c, i)} ({i}): {ware_text(c, i)}" for i in sorted(ids)
            if c.people.ware(i) is not None]


def character_lines(c: Components) -> list[str]:
    return [f"{ch.name.title()} ({cid}): AP {ch.ap}, HP {ch.hp}. "
            + " ".join(f"{a.text} ({a.clause})." for a in ch.abilities)
            for cid, ch in c.people.characters.items()]


def kind_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    kinds = sorted({str(sq.get("kind", "")) for sq in view.get("map", {}).values()})
    return [f"{CODES.get(k, '??')} {kind_name(c, k)}: {c.world.squares[k].text}"
            for k in kinds if k in c.world.squares]


def public(c: Components, view: Mapping[str, Any]) -> dict[str, Any]:
    """What every report of a record shows alike."""
    copy = table(c, view)  # (one working copy for every sheet's AP)
    return {
        "header": header(c, view),
        "sheets": [sheet(c, copy, view, p) for p in view.get("seats", [])],
        "models": [model_line(c, view, m) for m in living(view)],
        "squares": squares(c, view),
        "codes": "; ".join(f"{code} {kind_name(c, k)}" for k, code in CODES.items()),
        "sections": [
            {"title": "Monsters on the map", "intro": "the Monster Manual text of each "
             "kind of monster, NPC and defender on the map", "lines": monster_lines(c, view)},
            {"title": "Squares", "intro": "the printed text of every kind of square "
             "explored", "lines": kind_lines(c, view)},
            {"title": "Items", "intro": "the printed text of every item carried or on sale "
             "in an explored settlement", "lines": item_lines(c, view)},
            {"title": "Characters", "intro": "the ten characters, Start 2; at a surface "
             "tunnel, retire yours for another", "lines": character_lines(c)},
        ],
    }


# --- the reader's own part ----------------------------------------------------------------


def moves(c: Components, t: Table, player: str) -> list[str]:
    """Each direction out of the reader's square now (``t``: :func:`turn.preview`): closed
    (and why), explore, or the drawn square beyond with its AP cost."""
    m = t.pc(player)
    if m is None:
        return []
    small_ok = c.character(m["type"]).small_tunnels
    out = []
    for d in grid.DIRS:
        name = grid.NAMES[d]
        k = grid.neighbour(m["at"], d)
        why = turn.leave_problem(t, m, d)
        if why:
            out.append(f"{d} ({name}): no: {why}.")
            continue
        sq = t.square(k)
        if sq is None:
            out.append(f"{d} ({name}) to {k}: unexplored: 'move {d}' explores it (1 AP, "
                       "Explore 0-7).")
            continue
        kind = c.world.squares[sq["kind"]]
        if not kind.passable:
            out.append(f"{d} ({name}) to {k}: no: {kind.name.lower()}, impassable.")
            continue
        if not grid.can_enter(sq, d):
            out.append(f"{d} ({name}) to {k}: no: {kind.name.lower()} has no opening "
                       f"{grid.NAMES[grid.opposite(d)]}.")
            continue
        if sq["kind"] == "small_tunnel" and not small_ok:
            out.append(f"{d} ({name}) to {k}: no: you may never move down small tunnels.")
            continue
        foes = t.enemies_at(m, k)
        fight = (" Enemies there (" + ", ".join(o["id"] for o in foes) + "): you stop "
                 "and must fight to pass (Battle 1).") if foes else ""
        out.append(f"{d} ({name}) to {k}: {kind.name.lower()}, "
                   f"{_plural(kind.move_cost, 'AP')} ('move {d}').{fight}")
    return out


def targets(c: Components, t: Table, player: str) -> list[str]:
    m = t.pc(player)
    if m is None:
        return []
    out = []
    for o in t.enemies_at(m):
        out.append(f"{o['id']} {o['name']} here, HP {o['hp']}: 'attack {o['id']}' (1 AP, "
                   "Battle 4).")
    for mid, (weapon, dist) in turn.targets_in_reach(t, m, ranged=True).items():
        o = t.models[mid]
        with_ = f" with {weapon}" if weapon and weapon != "amazon" else ""
        out.append(f"{mid} {o['name']} at {o['at']}, {_plural(dist, 'square')} away, HP "
                   f"{o['hp']}: 'shoot {mid}{with_}' (1 AP).")
    return out


def here_lines(c: Components, t: Table, player: str) -> list[str]:
    """The checks and wares of the reader's square."""
    m = t.pc(player)
    if m is None:
        return []
    sq = t.square(m["at"]) or {}
    kind = str(sq.get("kind", ""))
    out = [f"You stand at {where(m)}: {kind_name(c, kind)}."]
    checks = c.people.checks_at(kind)
    if checks:
        ap = c.people.skill_checks.ap
        out.append(f"Checks here ({ap} AP each, Skill 1): " + "; ".join(
            f"'{_check_step(ch.id)}' {ch.skill} {ch.threshold}+ makes {ch.makes}"
            for ch in checks) + ".")
    prices = c.people.prices.get(kind, {})
    if prices:
        out.append("On sale here ('buy X'; prices as printed, before any friendly "
                   "discount): " + "; ".join(f"{ware_name(c, w)} ({w}) {p.gold} Gold"
                                              for w, p in prices.items()) + ".")
        out.append("Here you may also 'sell ITEM', 'sell prisoners', 'citizen gold' or "
                   "'citizen prisoner', 'income', 'hire gold' or 'hire knowledge' (Polis, "
                   "Manor, Kobaloi).")
    if kind == "magic_spring":
        out.append("'spring': 2 AP to regain 1 HP (Spring 1).")
    if kind == "surface_tunnel":
        out.append("'retire CHARACTER': swap to another character (Surface 1).")
    return out


def _check_step(check_id: str) -> str:
    if check_id.startswith("know_pray_to_"):
        return "pray " + check_id.removeprefix("know_pray_to_")
    verb, what = check_id.split("_", 1)
    return f"{verb} {what}"


def context(c: Components, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    """The reader's own part: who he is, where he may go, whom he may fight, what he may do
    where he stands, his standing orders."""
    out: dict[str, Any] = {"me": [], "my_moves": [], "my_targets": [], "my_here": [],
                           "my_standing": []}
    if player is None or player not in view.get("seats", []):
        return out
    seat = seat_numbers(view)[player]
    me = [f"You are {player}, seat {seat} (\"{seat}\" on the board)."]
    t = turn.preview(c, view, player)
    m = t.pc(player)
    over = bool(view.get("game_over") or view.get("step") == "over")
    if m is None:
        me.append("Your character is dead." + ("" if over or view.get("death") != "replace"
                                               else " You get a new one at the start of your "
                                               "next turn."))
    elif not over:
        if view.get("active") == player and view.get("step") == "turn":
            me.append(f"It is your turn: {_plural(m['ap'], 'Action Point')}"
                      + (" left." if view.get("cont") else "."))
        else:
            me.append(f"Your next turn starts with {_plural(m['ap'], 'Action Point')}.")
    out["me"] = me
    if m is not None and not over:
        out["my_moves"] = moves(c, t, player)
        out["my_targets"] = targets(c, t, player)
        out["my_here"] = here_lines(c, t, player)
    orders = standing.of(view, player)
    out["my_standing"] = [f"{k} = {_toml(v)}: {MEANING.get(k, '')}; {standing.HELP[k]}"
                          for k, v in orders.items() if k in standing.HELP]
    return out


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return f'"{v}"'


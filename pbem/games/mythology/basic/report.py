"""The Basic Game's reports: what ``templates/mythology-basic/report.*.j2`` lay out.

Built from a view alone (``RULESET.view``), never the state: :func:`public` from the public
view, once per record for every reader (the players' Victory and Power Points, the order of
the Player Turns, alliances, the board by Area, the counters removed and the Prizes taken);
:func:`context` from the reader's own view (his god and side, his standing defence policy,
sealed from the others until the end, Basic Combat 9 by email: :mod:`.defence`; every
policy once the game is over). :func:`event_text` words an event for the reader; the ledger
keeps the rules' text.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pbem.games.mythology import names
from pbem.games.mythology.basic import defence, scoring
from pbem.games.mythology.basic.setup import HEROES, LAST_TURN, MONSTERS, POWER_POINTS
from pbem.games.mythology.components import Components

#: Said once in every report, above the board by Area.
HEX_NOTE = ("Hexes are numbered column then row, 4 digits: 2511 is column 25, row 11. After "
            "each Hero and Monster, \"next:\" lists the hexes next to it, the first step of "
            "any path (Basic Move 4: hex to adjoining hex; terrain does not matter).")

SIDES = {HEROES: "Heroes", MONSTERS: "Monsters"}


def side_name(side: str) -> str:
    return SIDES.get(side, side)


def kind_name(c: Components, unit: int) -> str:
    return "Hero" if unit in c.heroes else "Monster"


def area_heading(c: Components, area: str) -> str:
    """An Area by its printed name, and the id orders write when the two differ ("The Sea
    (western Area) [sea_west]"); names are accepted too (``god = "Greece"``)."""
    name = c.map.areas[area].name
    return name if name.casefold() == area else f"{name} [{area}]"


def god_names(c: Components, view: Mapping[str, Any]) -> dict[str, str]:
    return {p: c.gods[g].name for p, g in view["gods"].items()}


# --- events ----------------------------------------------------------------------------------


def event_text(c: Components, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
    """An event as reports print it: players with their gods where the rules name only the
    player, sides and Areas as the reports write them. Only the report's copy changes; a
    text this version does not recognise is shown as the ledger has it."""
    text = str(event.get("text", ""))
    try:
        gods = god_names(c, view)
        kind = event.get("type")
        if kind == "gods":
            drawn = ", ".join(f"{p} {gods[p]}" for p in event["gods"])
            text = text.replace(f": {drawn}.", ": " + ", ".join(
                f"{p} is {gods[p]}" for p in event["gods"]) + ".")
        elif kind == "favour":
            favour = event["favour"]
            for side in (HEROES, MONSTERS):
                players = [p for p in favour if favour[p] == side]
                text = text.replace(f"{side}: {', '.join(players)}", f"{side_name(side)}: "
                                    + ", ".join(f"{p} ({gods[p]})" for p in players))
        elif kind == "game-turn":
            order = list(event["order"])
            text = text.replace(f"in the order {', '.join(order)} ", "in the order "
                                + ", ".join(f"{p} ({gods[p]})" for p in order) + " ")
        elif kind == "god" and event.get("area") in c.map.areas:
            area = str(event["area"])
            text = text.replace(f" in {c.map.areas[area].name} (",
                                f" in {area_heading(c, area)} (")
    except (KeyError, TypeError, AttributeError):
        return str(event.get("text", ""))
    return text


# --- the public part --------------------------------------------------------------------------


def _board(c: Components, view: Mapping[str, Any], gods: Mapping[str, str]
           ) -> list[dict[str, Any]]:
    """Every Area, by printed name, with its god (this Game Turn), its Heroes, Monsters and
    Prizes, each unit with its hex and the hexes next to it."""
    items: dict[str, list[str]] = {a: [] for a in c.map.areas}
    for p in view["seats"]:
        area = view["god_area"].get(p, "")
        if area in items:
            items[area].append(f"god {gods[p]} ({p}), placed this Game Turn")
    on_board = sorted((int(u), h) for u, h in view["units"].items() if h in c.map.hexes)
    for side in (HEROES, MONSTERS):
        for u, h in on_board:
            if (u in c.heroes) == (side == HEROES):
                items[c.map.area_of(h)].append(
                    f"{kind_name(c, u)} {names.unit_label(c, u)} {h}; next: "
                    + " ".join(c.map.neighbours(h)))
    for pid, x in sorted(view["prizes"].items()):
        if x["hex"] in c.map.hexes:
            items[c.map.area_of(x["hex"])].append(f"Prize {c.prizes[pid].name} {x['hex']}")
    return [{"name": area_heading(c, a), "items": items[a] or ["nothing"]}
            for a in sorted(items, key=lambda a: (c.map.areas[a].name, a))]


def _players(c: Components, view: Mapping[str, Any], gods: Mapping[str, str]
             ) -> list[dict[str, Any]]:
    rows = []
    for p in view["seats"]:
        area = view["god_area"].get(p, "")
        rows.append({"player": p, "god": gods[p], "favour": side_name(view["favour"][p]),
                     "vp": scoring.shown(view["vp"][p]), "pp": view["pp"].get(p, 0),
                     "area": c.map.areas[area].name if area in c.map.areas else ""})
    return rows


def _order(c: Components, view: Mapping[str, Any], gods: Mapping[str, str]
           ) -> list[dict[str, Any]]:
    """This Game Turn's Player Turns in the order drawn (Basic Play 2A), and where each
    stands."""
    over = view["step"] == "over"
    rows = []
    for n, p in enumerate(view["order"], 1):
        area = view["god_area"].get(p, "")
        if over or n <= view["cursor"]:
            where = c.map.areas[area].name if area in c.map.areas else "no Area"
            status = f"has played, god in {where}"
        elif n == view["cursor"] + 1:
            status = "plays next"
        else:
            status = "to play"
        rows.append({"n": n, "player": p, "god": gods[p], "status": status})
    return rows


def _alliances(view: Mapping[str, Any]) -> list[str]:
    """The alliances in force (Basic Alliance 1-4), then the declarations no one has
    answered yet."""
    lines = [f"{', '.join(group)}: allies; at the end their Victory Points are pooled and "
             "shared (Basic Alliance 3)" for group in view["alliances"]]
    members = {p for group in view["alliances"] for p in group}
    for p, named in sorted(view["allies"].items()):
        if named and p not in members:
            lines.append(f"{p} names {', '.join(named)} as allies: no alliance until each "
                         "member names exactly the others (Basic Alliance 1)")
    return lines


def _removed(c: Components, view: Mapping[str, Any]) -> list[str]:
    out = []
    for u, x in sorted(view["removed"].items(), key=lambda kv: (kv[1].get("turn", 0),
                                                                  int(kv[0]))):
        by = f" by {x['by']}" if x.get("by") in view["seats"] else ""
        when = f", Game Turn {x['turn']}" if x.get("turn") else ""
        vp = f" (+{scoring.UNIT_VP} VP to {x['by']}, Basic Win 1A)" if by else ""
        out.append(f"{kind_name(c, int(u))} {names.unit_label(c, int(u))}: removed{by}"
                   f"{when}{vp}")
    return out


def _captured(c: Components, view: Mapping[str, Any]) -> list[str]:
    out = []
    for pid, x in sorted(view["prizes"].items(), key=lambda kv: (kv[1].get("turn", 0),
                                                                  kv[0])):
        if x["hex"]:
            continue
        if x.get("by") in view["seats"]:
            out.append(f"{c.prizes[pid].name}: captured by {x['by']}, Game Turn {x['turn']} "
                       f"(+{scoring.PRIZE_VP} VP, Basic Win 1B)")
        else:
            out.append(f"{c.prizes[pid].name}: off the board")
    return out


def _prizes_left(view: Mapping[str, Any]) -> str:
    left = sum(1 for x in view["prizes"].values() if x["hex"])
    monsters = [p for p in view["seats"] if view["favour"][p] == MONSTERS]
    if not monsters:
        return f"Prizes on the board: {left}."
    share = scoring.shown(Fraction(scoring.PRIZE_LEFT_VP * left, len(monsters)))
    when = "" if view["step"] == "over" else f" if they are still there after Game Turn {LAST_TURN}"
    return (f"Prizes on the board: {left}. Each gives {scoring.PRIZE_LEFT_VP} VP to the "
            f"Monster players, divided among them (Basic Win 1C): {share} VP to each of "
            f"{', '.join(monsters)}{when}.")


def public(c: Components, view: Mapping[str, Any]) -> dict[str, Any]:
    """What every report of a record shows alike (``view``: the public view)."""
    gods = god_names(c, view)
    return {"gods": gods, "last_turn": LAST_TURN, "power_points": POWER_POINTS,
            "favour": {p: side_name(s) for p, s in view["favour"].items()},
            "players": _players(c, view, gods), "order": _order(c, view, gods),
            "alliances": _alliances(view), "areas": _board(c, view, gods),
            "hex_note": HEX_NOTE, "removed": _removed(c, view),
            "captured": _captured(c, view), "prizes_left": _prizes_left(view)}


# --- the reader's own part --------------------------------------------------------------------


def policy_text(policy: Mapping[str, Any]) -> str:
    """A standing defence policy in words (:func:`defence.describe`)."""
    if policy.get("mode") not in defence.MODES:
        return "not shown"
    return defence.describe(policy)


def context(c: Components, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    """The reader's own part (``view``: his view): his god, side and Power Points, his
    standing defence policy (his alone until the end); at the end every player's policy."""
    out: dict[str, Any] = {"me": [], "my_policy": "", "policies": []}
    if player is not None and player in view["seats"]:
        god = c.gods[view["gods"][player]].name
        side = side_name(view["favour"][player])
        area = view["god_area"].get(player, "")
        out["me"] = [f"You are {god}. You favour {side} and move only them (Basic Move 1, "
                     f"Prep 9).",
                     f"You have {view['pp'].get(player, 0)} of your {POWER_POINTS} Power "
                     "Points left this Game Turn (Basic PP 1-4)."]
        if area in c.map.areas:
            out["me"].append(f"Your god is in {area_heading(c, area)} this Game Turn.")
        if "my_policy" in view:
            out["my_policy"] = policy_text(view["my_policy"])
    if view.get("game_over"):
        gods = god_names(c, view)
        out["policies"] = [f"{p} ({gods[p]}): {policy_text(policy)}"
                           for p, policy in sorted(view.get("policies", {}).items())]
    return out

"""Readable structures for the Cyclades reports and order forms, built from a view alone.

``public`` is the same for every reader of a record (the board, the god track and the
auction transcript, the creature track, everyone's open cards); ``mine`` is the reader's
own part (their gold, their standing orders); ``situation`` heads an order form with what
the player knows that bears on it, as comment lines.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from pbem.core.ruleset import PhaseSpec
from pbem.games.cyclades import bidding
from pbem.games.cyclades.components import Components
from pbem.games.cyclades.maps import load_board
from pbem.games.cyclades.state import land_units


def _name(c: Components, cid: str) -> str:
    try:
        return str(c.by_id(cid).name)
    except KeyError:
        return cid


def _territory_line(c: Components, tid: str, x: Mapping[str, Any], name: str) -> str:
    parts = []
    for key, one, many in (("troops", "troop", "troops"), ("undead", "undead", "undead"),
                           ("titans", "Titan", "Titans")):
        if x[key]:
            parts.append(_plural(x[key], one, many))
    parts += [_name(c, h) for h in x["heroes"]] + [_name(c, e) for e in x["egyptians"]]
    things = [_name(c, b) for b in x["buildings"]]
    if x["metropolis"]:
        things.append("METROPOLIS")
    if x["prosperity"]:
        things.append(f"+{x['prosperity']} prosperity")
    things += [_name(c, a) for a in x["artifacts"]] + [_name(c, m) for m in x["monuments"]]
    if x["necropolis_gold"]:
        things.append(f"{x['necropolis_gold']} gold on the Necropolis")
    owner = x["owner"] or "nobody"
    text = f"{name} ({tid}): {owner}"
    if parts:
        text += "; " + ", ".join(parts)
    if things:
        text += "; " + ", ".join(things)
    return text


def public(c: Components, view: Mapping[str, Any]) -> dict[str, Any]:
    board = load_board(view["game"]["board"], len(view["game"]["players"]))
    terr = [_territory_line(c, t, x, board.territory(t).name)
            for t, x in sorted(view["territories"].items()) if x["owner"] or land_units(x)
            or x["buildings"]]
    seas = [f"{s}: {x['owner']} {_plural(x['fleets'], 'fleet', 'fleets')}" +
            (f", {x['undead_fleets']} undead" if x["undead_fleets"] else "")
            for s, x in sorted(view["seas"].items()) if x["fleets"] or x["undead_fleets"]]
    figures = [f"{_name(c, f)} of {x['owner']} on {x['where']} (since cycle {x['cycle']})"
               for f, x in sorted(view["figures"].items())]
    track = [f"{i + 1}. {_name(c, g)}" for i, g in enumerate(view["gods"]["track"])]
    slots = [f"{price} gold: {_name(c, card) if card else 'empty'}" for price, card in
             zip((4, 3, 2), view["creature_track"]["slots"], strict=False)]
    holdings = []
    for p in view["game"]["players"]:
        h = view["hands"][p]
        cards = [f"{h[k]} {k}" for k in ("priest", "philosopher", "priestess") if h[k]]
        for key in ("heroes", "artifacts", "egyptians", "magic_items", "favors", "monuments",
                    "metropolises"):
            cards += [_name(c, x) for x in h[key]]
        mets = sum(1 for x in view["territories"].values()
                   if x["owner"] == p and x["metropolis"])
        holdings.append(f"{p}: {mets} Metropolis(es); " + (", ".join(cards) or "no cards"))
    auction = view.get("auction") or {}
    return {"territories": terr, "seas": seas, "figures": figures, "track": track,
            "slots": slots, "holdings": holdings,
            "auction": bidding.transcript(auction.get("events", [])),
            "hades": view["hades"], "cycle": view["cycle"],
            "sections": [
                {"title": "On offer", "intro": "what can still be taken, while it is on offer",
                 "lines": offer_lines(c, view)},
                {"title": "The map", "intro": "every place as orders name it: name (id), "
                 "cornucopias, neighbours", "lines": map_lines(board, view)}]}


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def offer_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    """What is on offer now, in every report while it is (issue 14: it was an event of cycle
    0 only): the Monuments not yet built, with the two buildings each needs (Misc Monuments
    1), the special Metropolis cards left, and the face-up divine favor."""
    lines = []
    monuments = (view.get("monuments") or {}).get("offer", [])
    if monuments:
        parts = []
        for m in monuments:
            try:
                needs: tuple[str, ...] = tuple(getattr(c.by_id(m), "requires", ()))
            except KeyError:
                needs = ()
            if len(needs) == 2:
                first, second = needs[0], needs[1]
                wants = (f"two {first} buildings" if first == second else
                         f"{_article(first)} {first} and {_article(second)} {second} building")
                parts.append(f"{_name(c, m)} ({m}; needs {wants})")
            else:
                parts.append(f"{_name(c, m)} ({m})")
        lines.append("Monuments: " + ", ".join(parts) + ".")
    metropolises = (view.get("metropolises") or {}).get("offer", [])
    if metropolises:
        lines.append("Special Metropolis cards: " + ", ".join(
            f"{_name(c, m)} ({m})" for m in metropolises) + ".")
    favor = (view.get("favors") or {}).get("face_up", "")
    if favor:
        lines.append(f"Face-up divine favor: {_name(c, favor)} ({favor}).")
    return lines


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def map_lines(board: Any, view: Mapping[str, Any]) -> list[str]:
    """Every place of the board, named as orders name it (issue 14: a player never needs the
    data files): each territory with its name, island, cornucopias, building spaces (and how
    many are built), Metropolis square, the seas on its shores and its land neighbours; then
    each sea with its cornucopias, the seas next to it and the territories on its shores."""
    lines = []
    for tid in board.territory_ids:
        t = board.territory(tid)
        x = view["territories"].get(tid, {})
        built = len(x.get("buildings", [])) if x else 0
        facts = [_plural(t.prosperity, "cornucopia", "cornucopias"),
                 _plural(t.building_spaces, "building space", "building spaces")
                 + (f" ({built} built)" if built else "")]
        if t.metropolis_square:
            facts.append("Metropolis square")
        if t.small_island:
            facts.append("small island")
        island = f" on {t.island}" if t.island != tid else ""
        near = f"; seas {', '.join(t.seas) or 'none'}"
        land = f"; land {', '.join(t.land)}" if t.land else ""
        lines.append(f"{t.name} ({tid}){island}: {', '.join(facts)}{near}{land}")
    for sid in board.sea_ids:
        s = board.sea(sid)
        horn = f", {_plural(s.prosperity, 'cornucopia', 'cornucopias')}" if s.prosperity \
            else ""
        lines.append(f"sea {sid}{horn}: next to {', '.join(s.seas) or 'no sea'}; shores of "
                     f"{', '.join(s.territories) or 'no territory'}")
    return lines


def mine(c: Components, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    gold = view.get("gold", {})
    return {"gold": {p: g for p, g in sorted(gold.items())},
            "standing": (view.get("standing") or {}).get(player or "", {})}


def apollo_form(view: Mapping[str, Any], player: str) -> str:
    """The act form of the first player on Apollo (Cycle 7.3, Forgotten 1; the others on
    Apollo have no act phase): the only action is the prosperity marker, so the form offers
    that and the figures to keep (8.2, read from this form alone), its example on the
    player's own first territory, where the marker goes by default."""
    auction = view.get("auction") or {}
    first = str(auction.get("prosperity", "") or "")
    is_first = bool(first) and view.get("pillars", {}).get(first) == player
    head = ("# You are on Apollo this cycle (Cycle 7.3; Forgotten 1: choosing Apollo is "
            "skipping one's turn): his gold is paid at once, and nothing else is done")
    if not is_first:
        lines = textwrap.wrap(head + ". There is nothing to order: send the form back as "
                              "it is, or nothing.", 76, subsequent_indent="# ")
        return "\n".join([*lines, "actions = []", ""])
    mine = sorted(t for t, x in view["territories"].items() if x["owner"] == player)
    where = mine[0] if mine else sorted(view["territories"])[0]
    lines = textwrap.wrap(head + ", but you were the first on Apollo: you place the "
                          "prosperity marker on any territory (Cycle 7.3), and say which of "
                          "your figures in their second cycle stay (Cycle 8.2). Sent back "
                          f"unchanged (or not sent), the marker goes on {where} and every "
                          "such figure leaves.", 76, subsequent_indent="# ")
    return "\n".join([*lines, "keep = []             # figures kept a cycle more, a "
                       "Priestess each (8.2)", "actions = []",
                       f'# actions = [{{do = "prosperity", territory = "{where}"}}]', ""])


def situation(c: Components, view: Mapping[str, Any], phase: PhaseSpec,
              player: str) -> list[str]:
    """Comment lines for the top of ``player``'s form (78 columns)."""
    lines = [f"Cycle {view['cycle']}. Your gold: {view.get('gold', {}).get(player, '?')}. "
             f"Gods on the track: {', '.join(view['gods']['track'])} (and apollo)."]
    mine_t = sorted(t for t, x in view["territories"].items() if x["owner"] == player)
    lines.append("Your territories: " + (", ".join(mine_t) or "none") + ".")
    if phase.kind == "act":
        slots = view["creature_track"]["slots"]
        lines.append("Creature track: " + ", ".join(
            f"slot {i + 1} ({price} gold) {card or 'empty'}"
            for i, (price, card) in enumerate(zip((4, 3, 2), slots, strict=False))) + ".")
    if phase.kind == "deploy":
        todo = (view.get("to_deploy") or {}).get(phase.active or player, {})
        lines.append("To deploy: " + (", ".join(f"{n} {k}" for k, n in sorted(todo.items())
                                                if n) or "nothing") + ".")
        # The places the form refers to as "listed above" (Setup 9): the territories nobody
        # holds, and the seas on the shores of this player's territories.
        board = load_board(view["game"]["board"], len(view["game"]["players"]))
        free = [f"{board.territory(t).name} ({t})" for t in board.territory_ids
                if not view["territories"].get(t, {}).get("owner")]
        lines.append("Territories nobody holds: " + (", ".join(free) or "none") + ".")
        seas = sorted({s for t in mine_t for s in board.seas_of(t)})
        lines.append("Seas on the shores of your territories: " + (", ".join(seas) or
                     "none yet (fleets go next to the territories you take)") + ".")
    return [part for line in lines
            for part in textwrap.wrap(line, 76, initial_indent="# ",
                                      subsequent_indent="#   ")]

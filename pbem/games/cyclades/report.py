"""Readable structures for the Cyclades reports and order forms, built from a view alone.

``public`` is the same for every reader of a record (the board, the god track and the
auction transcript, the creature track, everyone's open cards); ``mine`` is the reader's
own part (their gold, their standing orders). The order forms are ``forms.py``'s.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from typing import Any

from pbem.games.cyclades import bidding
from pbem.games.cyclades.components import (
    CARD_KINDS,
    EFFECTS,
    GOD_ABOVE,
    MODULES,
    Building,
    Components,
    God,
)
from pbem.games.cyclades.maps import load_board
from pbem.games.cyclades.state import land_units


def _name(c: Components, cid: str) -> str:
    try:
        return str(c.by_id(cid).name)
    except KeyError:
        return cid


def _card(c: Components, cid: str) -> str:
    """A card as the reports show it: ``Charon (charon)``, so that the reader finds it in
    the "Cards" appendix (issue 14); any other component (a god, a building) by its name."""
    try:
        found = c.by_id(cid)
    except KeyError:
        return cid
    return f"{found.name} ({cid})" if found.kind in CARD_KINDS else str(found.name)


def _territory_line(c: Components, tid: str, x: Mapping[str, Any], name: str) -> str:
    parts = []
    for key, one, many in (("troops", "troop", "troops"), ("undead", "undead", "undead"),
                           ("titans", "Titan", "Titans")):
        if x[key]:
            parts.append(_plural(x[key], one, many))
    parts += [_card(c, h) for h in x["heroes"]] + [_card(c, e) for e in x["egyptians"]]
    things = [_name(c, b) for b in x["buildings"]]
    if x["metropolis"]:
        things.append("METROPOLIS")
    if x["prosperity"]:
        things.append(f"+{x['prosperity']} prosperity")
    things += [_card(c, a) for a in x["artifacts"]] + [_card(c, m) for m in x["monuments"]]
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
    figures = [f"{_card(c, f)} of {x['owner']} on {x['where']} (since cycle {x['cycle']})"
               for f, x in sorted(view["figures"].items())]
    track = [f"{i + 1}. {_name(c, g)} ({g})" for i, g in enumerate(view["gods"]["track"])]
    slots = [f"{price} gold: {_card(c, card) if card else 'empty'}" for price, card in
             zip((4, 3, 2), view["creature_track"]["slots"], strict=False)]
    holdings = []
    for p in view["game"]["players"]:
        h = view["hands"][p]
        cards = [_plural(h[k], k, many) for k, many in (
            ("priest", "priests"), ("philosopher", "philosophers"),
            ("priestess", "priestesses")) if h[k]]
        for key in ("heroes", "artifacts", "egyptians", "magic_items", "favors", "monuments",
                    "metropolises"):
            cards += [_card(c, x) for x in h[key]]
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
                 "cornucopias, neighbours", "lines": map_lines(board, view)},
                {"title": "Cards", "intro": card_intro(c, view), "lines": card_lines(c, view)},
                {"title": "Gods and buildings", "intro": "what each god does when won, and "
                 "each building, from the game's data: name (id)",
                 "lines": god_lines(c, view) + building_lines(c, view)}]}


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeio" else "a"  # "a University", "an Egyptian"


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


# --- cards and wording (issue 14) ---------------------------------------------------------

#: The kinds of card as the "Cards" appendix heads them.
_KIND_TITLES = {"creature": "Creatures", "hero": "Heroes", "artifact": "Artifacts",
                "egyptian": "Egyptian Reinforcements", "favor": "Divine favors",
                "magic_item": "Magic items", "monument": "Monuments",
                "metropolis": "Special Metropolis cards"}


def _modules(view: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple((view.get("game") or {}).get("modules") or MODULES)


def card_intro(c: Components, view: Mapping[str, Any]) -> str:
    """The intro of the "Cards" appendix: what the texts are and which are authored."""
    kinds = {card.kind for card in c.cards(_modules(view))}
    authored = kinds & c.authored
    note = ("texts marked [authored] are ours, not the printed cards'" if authored
            else "the texts of the printed cards")
    return f"every card of this game: name (id): what it does, rules in parentheses; {note}"


def card_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    """Every card of the campaign's modules (issue 14: no player needs the data files),
    grouped by kind, one line each: ``Name (id): text``, authored texts marked."""
    lines: list[str] = []
    kind = ""
    for card in c.cards(_modules(view)):
        if card.kind != kind:
            kind = card.kind
            lines.append(f"{_KIND_TITLES.get(kind, kind)}:")
        mark = " [authored]" if kind in c.authored else ""
        lines.append(f"{card.name} ({card.id}): {getattr(card, 'text', '')}{mark}")
    return lines


#: A component id standing alone in a text: not part of a draw label (``hades/c1/1``), a
#: phase id (``c01.act.apollo``), a unit id (``fleet-1``) or a longer word.
_ID_EDGE = r"(?<![\w/.-])({})(?![\w/-])(?!\.\w)"
#: "1 undead_troop(s)", "2 fleet(s)", "1 philosopher card(s)" as the rules write counts.
_COUNTED = re.compile(r"\b(\d+) ([a-z][a-z_]*(?: [a-z]+)?)\(s\)")
#: "4 troop, 1 Titan" as the rules write a party: a count of more than one, singular noun.
_BARE = re.compile(r"\b(\d+) (undead troop|undead fleet|troop|fleet|Titan|titan|priest"
                   r"|philosopher)\b")
_PATTERNS: dict[int, tuple[Components, re.Pattern[str], re.Pattern[str]]] = {}


def _patterns(c: Components) -> tuple[re.Pattern[str], re.Pattern[str]]:
    cached = _PATTERNS.get(id(c))
    if cached is None or cached[0] is not c:
        ids = sorted({i for table in c._tables() for i in table}, key=lambda i: (-len(i), i))
        kinds = "|".join(sorted(EFFECTS, key=lambda k: (-len(k), k)))
        cached = (c, re.compile(_ID_EDGE.format("|".join(ids))),
                  re.compile(rf"\(({kinds})\)"))
        _PATTERNS[id(c)] = cached
    return cached[1], cached[2]


def _counted(match: re.Match[str]) -> str:
    n, what = int(match.group(1)), match.group(2).replace("_", " ")
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def event_text(c: Components, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
    """An event as the reports word it (issue 14), built from its ledger ``text`` and the
    component list alone; the ledger keeps its bytes. A card's raw id becomes its name with
    the id (``favor_of_zeus`` -> ``Favor of Zeus (favor_of_zeus)``, as in the "Cards"
    appendix), a god's or building's its name; an effect kind in brackets is spelt out;
    ``1 fleet(s)`` reads ``1 fleet``. Player and place names are never touched, even if
    one happens to spell an id."""
    text = str(event.get("text", ""))
    ids, kinds = _patterns(c)
    game = view.get("game") or {}
    keep = set(game.get("players") or ()) | set(view.get("territories") or ()) \
        | set(view.get("seas") or ())

    def named(match: re.Match[str]) -> str:
        cid = match.group(1)
        if cid in keep:
            return cid
        shown = _card(c, cid)
        name = _name(c, cid)
        if shown != name and match.string[:match.start()].endswith(f"{name} ("):
            return cid  # already "Name (id)"
        return shown

    text = ids.sub(named, text)
    text = kinds.sub(lambda m: f"({m.group(1).replace('_', ' ')})", text)
    text = _COUNTED.sub(_counted, text)
    return _BARE.sub(lambda m: m.group(0) + ("" if m.group(1) == "1" else "s"), text)


def die_face(c: Components, label: str, value: int) -> str | None:
    """The face of the combat die (0,1,1,2,2,3, supplies.toml [die]) that draw ``label`` =
    ``value`` shows: battle rolls (Battle 1) and Hades's roll (Cycle 5.1) draw the face's
    index, and the events quote the face (issue 14). None for any other draw."""
    faces = c.supplies.die
    if label.split("/", 1)[0] in ("battle", "hades") and 1 <= value <= len(faces):
        return str(faces[value - 1])
    return None


def mine(c: Components, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    gold = view.get("gold", {})
    return {"gold": {p: g for p, g in sorted(gold.items())},
            "standing": (view.get("standing") or {}).get(player or "", {})}



#: The units and cards gods recruit, as the "Gods and buildings" appendix names them.
_UNITS = {"troop": "troops", "fleet": "fleets", "priest": "Priest cards",
          "philosopher": "Philosopher cards", "titan": "Titans",
          "undead_troop": "undead troops", "undead_fleet": "undead fleets"}
#: God powers (the ``special`` effects of data/gods.toml) in words.
_SPECIALS = {"swap_track_creature": "discards a creature of the track for the next card of "
             "the deck (Forgotten 5)",
             "apollo_income": "takes {amount} gold, {lone_amount} with only one island "
             "(Forgotten 4); the first player on Apollo places a prosperity marker (7.3)"}


def god_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    """Each god of the campaign's modules, written from its data (Cycle 8: recruit, build,
    move, special), so that the bid and act forms' god ids are explained in the report."""
    lines = ["Gods:"]
    for g in c.of_kind("god", _modules(view)):
        if not isinstance(g, God):
            continue
        parts = []
        if g.recruit is not None:
            r = g.recruit
            units = " or ".join(_UNITS.get(u, u) for u in r.units)
            free = ("the first free" if r.free_when == "always" else
                    "the first free only from the top of the track") if r.free else ""
            paid = ("then " + ", ".join(str(price) for price in r.prices) + " gold, one "
                    "after the other") if r.prices else ""
            parts.append(f"recruits {units}: " + ", ".join(x for x in (free, paid) if x))
        if g.build is not None:
            what = ("the building of a god above him on the track"
                    if g.build.building == GOD_ABOVE else
                    f"{_article(_name(c, g.build.building).lower())} "
                    f"{_name(c, g.build.building)} ({g.build.building})")
            parts.append(f"builds {what} for {g.build.price} gold")
        if g.move is not None:
            m = g.move
            reach = f" of up to {m.sea_range} seas" if m.sea_range else ""
            undead = ", each move carrying an undead unit" if m.requires_undead else ""
            parts.append(f"moves {' and '.join(_UNITS.get(u, u) for u in m.units)} for "
                         f"{m.price} gold a move{reach}{undead}")
        if g.special is not None:
            e = g.special.effect
            words = _SPECIALS.get(e.kind, e.kind.replace("_", " "))
            params = {k: v for k, v in e.params}
            with contextlib.suppress(KeyError, IndexError):
                words = words.format(**params)
            cost = f" for {g.special.price} gold" if g.special.price else ""
            parts.append(f"{words}{cost}" + (", again and again" if g.special.repeatable
                                               and g.special.price else ""))
        lines.append(f"{g.name} ({g.id}): " + "; ".join(parts) + ".")
    return lines


def building_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    """Each building of the campaign's modules from its data: colour (what Monuments name),
    defence (Battle 1.1-1.2), creature discount (Cycle 8.4), Metropolis part (Cycle 9)."""
    lines = ["Buildings:"]
    for b in c.of_kind("building", _modules(view)):
        if not isinstance(b, Building):
            continue
        facts = [f"{b.colour}, {b.size}"]
        if b.land_defence:
            facts.append(f"+{b.land_defence} to the land defender")
        if b.sea_defence:
            facts.append(f"+{b.sea_defence} to the sea defender")
        if b.creature_discount:
            facts.append(f"{b.creature_discount} gold off each creature")
        if b.metropolis_part:
            facts.append("one of the four buildings of a Metropolis")
        if b.metropolis_wild:
            facts.append("stands in for any missing building of a Metropolis")
        if b.monument:
            facts.append("counts for a Monument")
        lines.append(f"{b.name} ({b.id}): " + ", ".join(facts) + ".")
    return lines

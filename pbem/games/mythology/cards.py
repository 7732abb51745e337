"""Playing Cards (010) and God Cards' special powers (011), as timed effects.

At the table a card's god or event section and a god's powers may be used "at ANY time during
the game Turn" (010 E 2, 011 E). By email every use names its moment explicitly:

* in your own Moving Player order (``[orders.card]``, ``[[orders.power]]``), applied at the
  start of your phase, before your attempts; and
* as standing instructions on your sealed Log Sheet (``[[orders.use]]``) for the other gods'
  phases: "when unit N is in a combat / a challenge, use this power (or my card's god
  section) on it". The first matching moment fires it.

An effect lasts as the vocabulary says (docs/games/mythology.md, "Effects"): ``attack``,
``magic``: one Combat; ``defense``, ``halt``, ``protect``, ``terrain``: the rest of the Turn;
``movement``: that Moving Player Phase; ``ship``: one ship roll; ``challenge``: one challenge.
Oracle sections (010 B 3) are played from the hand or the face-down card when a Hero the player
controls captures the named Prize or kills the named Monster, if the player's Log Sheet says
``oracle = true`` (the default) and no other card of theirs was played this Turn (010 F).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.ruleset import setdefault_sorted
from pbem.games.mythology import zeus
from pbem.games.mythology.components import Components, Effect

State = dict[str, Any]
Event = dict[str, Any]

#: Effect kinds that modify a unit's numbers for a combat or the turn.
UNIT_KINDS = ("attack", "defense", "magic", "movement", "halt", "protect", "ship")
PASSIVE_KINDS = ("occurrence_reach", "occurrence_bonus")


def effects(state: State) -> dict[str, Any]:
    """This turn's effect book, kept in the state so a replay sees the same."""
    book: dict[str, Any] = setdefault_sorted(state["turn_effects"], "cards", {})
    for key, empty in _EMPTY_BOOK:
        if key not in book:
            book[key] = list(empty) if isinstance(empty, list) else dict(empty)
    return book


#: The effect book's keys and their empty values (copied at each use).
_EMPTY_BOOK: tuple[tuple[str, Any], ...] = (
    ("cancel", []), ("challenge", {}), ("fired", []), ("halt", []), ("mods", []),
    ("movement", {}), ("played", []), ("powers", {}), ("protect", []), ("ship", {}),
    ("terrain", []))  # sorted, as the state's canonical JSON has them


def effects_read(state: State) -> dict[str, Any]:
    """:func:`effects` for a reader: the same book, but a state that has none yet (or lacks a
    key) is not written into; the defaults come fresh. A submit check reads a state shared
    with every report (engine.load_state), which it must not change."""
    book: dict[str, Any] | None = state["turn_effects"].get("cards")
    if book is not None and all(k in book for k, _ in _EMPTY_BOOK):
        return book
    out = {k: (list(v) if isinstance(v, list) else dict(v)) for k, v in _EMPTY_BOOK}
    out.update(book or {})
    return out


def power(c: Components, state: State, player: str, power_id: str) -> Effect | None:
    god = c.gods[state["gods"][player]]
    return next((p.effect for p in god.powers if p.id == power_id), None)


def power_ids(c: Components, state: State, player: str) -> list[str]:
    return [p.id for p in c.gods[state["gods"][player]].powers]


def has_passive(c: Components, state: State, player: str, kind: str, code: str) -> Effect | None:
    """011: a god's standing ability over Divine Occurrences (reach or bonus), if it has one."""
    for p in c.gods[state["gods"][player]].powers:
        if p.effect.kind == kind and code in p.effect.codes:
            return p.effect
    return None


def card_played(state: State, player: str) -> bool:
    return player in effects(state)["played"]


def apply(c: Components, state: State, player: str, effect: Effect, *, source: str,
          unit: int = 0, area: str = "") -> list[Event]:
    """Put one effect into this turn's book; the rules consult the book when it matters."""
    book = effects(state)
    kind = effect.kind
    who = f"{player}'s {source}"
    if kind in ("attack", "defense", "magic"):
        if not _fits(effect, unit):
            return [_void(who, f"it acts on a {effect.target}, not unit {unit}")]
        book["mods"].append({"amount": effect.amount, "kind": kind, "turn": kind == "defense",
                             "unit": unit})
        what = {"attack": "Attack Number", "defense": "Defense Number",
                "magic": "Magical Ability Number"}[kind]
        span = "for the rest of the Turn" if kind == "defense" else "for one Combat"
        return [{"type": "effect", "player": player, "unit": unit, "kind": kind,
                 "amount": effect.amount, "text": f"{who}: unit {unit}'s {what} "
                 f"{effect.amount:+d} {span}."}]
    if kind == "movement":
        if not _fits(effect, unit):
            return [_void(who, f"it acts on a {effect.target}, not unit {unit}")]
        book["movement"][str(unit)] = book["movement"].get(str(unit), 0) + effect.amount
        return [{"type": "effect", "player": player, "unit": unit, "kind": kind,
                 "text": f"{who}: unit {unit} moves {effect.amount:+d} hexes this phase."}]
    if kind in ("halt", "protect"):
        if not _fits(effect, unit):
            return [_void(who, f"it acts on a {effect.target}, not unit {unit}")]
        book[kind].append(unit)
        text = ("may not be moved" if kind == "halt" else
                "is untouched by Divine Occurrences")
        return [{"type": "effect", "player": player, "unit": unit, "kind": kind,
                 "text": f"{who}: unit {unit} {text} for the rest of the Turn."}]
    if kind == "ship":
        book["ship"][str(unit)] = book["ship"].get(str(unit), 0) + effect.amount
        return [{"type": "effect", "player": player, "unit": unit, "kind": kind,
                 "text": f"{who}: {effect.amount:+d} on unit {unit}'s next ship roll."}]
    if kind == "challenge":
        book["challenge"][player] = book["challenge"].get(player, 0) + effect.amount
        return [{"type": "effect", "player": player, "kind": kind,
                 "text": f"{who}: {effect.amount:+d} Power Points in {player}'s next "
                 "challenge."}]
    if kind == "terrain":
        god_area = state["god_area"][player]
        book["terrain"].append({"area": god_area, "feature": effect.feature})
        return [{"type": "effect", "player": player, "kind": kind, "text":
                 f"{who}: no Hero may enter {effect.feature} hexes of {god_area} this Turn."}]
    if kind == "relocate":
        if area not in c.map.areas:
            return [_void(who, "it needs an Area to move the god to")]
        state["god_area"][player] = area
        return [{"type": "effect", "player": player, "kind": kind,
                 "text": f"{who}: the god moves to {area} (203 F)."}]
    if kind == "cancel":
        book["cancel"].append(player)
        return [{"type": "effect", "player": player, "kind": kind, "text":
                 f"{who}: the next card god section another player plays has no effect."}]
    return [_void(who, f"{kind} works by itself and is not played")]


def _fits(effect: Effect, unit: int) -> bool:
    kind = "hero" if unit <= 32 else "monster"
    return unit > 0 and effect.target in ("unit", kind)


def _void(who: str, why: str) -> Event:
    return {"type": "effect-void", "text": f"{who} has no effect: {why}."}


def use_card_god(c: Components, state: State, player: str, *, unit: int = 0,
                 area: str = "") -> list[Event]:
    """010 B 1, E 2: the god section of the card placed face down this Turn."""
    card_id = state["facedown"][player]
    if not card_id or card_played(state, player):
        return [_void(f"{player}'s card", "no face-down card left to play this Turn (010 F)")]
    effects(state)["played"].append(player)
    card = c.cards[int(card_id)]
    book = effects(state)
    cancellers = [p for p in book["cancel"] if p != player]
    if cancellers:
        book["cancel"].remove(cancellers[0])
        return [{"type": "cancelled", "player": player, "card": card_id, "text":
                 f"{player} plays {card.god.name}; {cancellers[0]} cancels it (011)."}]
    played: Event = {"type": "card", "player": player, "card": card_id, "section": "god",
                     "text": f"{player} plays card {card_id}: {card.god.text}"}
    return [played, *apply(c, state, player, card.god.effect, source=f"card {card_id}",
                           unit=unit, area=area)]


def use_card_event(c: Components, state: State, player: str, chosen: list[str]) -> list[Event]:
    """010 B 2: the gods named go to the Area (or leave the map for the Turn); the player pays
    one Glory Point per god sent (010 B 2; the Glory Point Summary's -1 per god removed)."""
    card_id = state["facedown"][player]
    if not card_id or card_played(state, player):
        return [_void(f"{player}'s card", "no face-down card left to play this Turn (010 F)")]
    effects(state)["played"].append(player)
    event = c.cards[int(card_id)].event
    idle = zeus.bolted(state)  # 301 C 4 b: a struck god is off the board for the Turn
    gods_in_game = {g: p for p, g in state["gods"].items() if p not in idle}
    if event.choose is not None:
        names = [g for g in chosen if g in gods_in_game][:event.choose]
    else:
        names = [g for g in event.gods if g in gods_in_game]
    events: list[Event] = [{"type": "card", "player": player, "card": card_id,
                            "section": "event", "text": f"{player} plays card {card_id}: "
                            f"{event.text}"}]
    for god in names:
        who = gods_in_game[god]
        state["god_area"][who] = event.area or ""
        where = event.area or f"{event.place}, off the map for the Turn"
        events.append({"type": "god-moved", "player": who, "area": event.area or "",
                       "text": f"{who}'s god goes to {where} (010 B 2)."})
    if names:
        state["glory"][player] -= len(names)
        events.append({"type": "glory", "player": player, "amount": -len(names), "text":
                       f"{player} {-len(names):+d} Glory for the gods sent (010 B 2)."})
    return events


def oracle(c: Components, state: State, player: str, *, prize: str = "",
           monster: int = 0) -> tuple[int, list[Event]]:
    """010 B 3, 216 G 2 b / G 3 b: Glory from an Oracle card for this Prize or Monster, if the
    player holds one (face down or in hand), may still play a card, and wants to."""
    sheet = state["logsheets"][player].get(str(state["turn"]), {})
    if not sheet.get("oracle", True) or card_played(state, player):
        return 0, []
    if player in zeus.bolted(state):  # 301 C 4 b: a struck god plays no card this Turn
        return 0, []
    candidates = ([state["facedown"][player]] if state["facedown"][player] else [])
    if not state["facedown"][player]:
        candidates += state["hands"][player]  # 010 E 6: the Oracle may come from the hand
    for card_id in candidates:
        o = c.cards[int(card_id)].oracle
        if (prize and o.prize == prize) or (monster and o.monster == monster):
            effects(state)["played"].append(player)
            if card_id in state["hands"][player]:
                state["hands"][player].remove(card_id)
                state["discard"].append(card_id)
            return o.glory, [{"type": "card", "player": player, "card": card_id,
                              "section": "oracle", "text": f"{player} plays card {card_id}: "
                              f"{o.text}"}]
    return 0, []


def modifiers(state: State, unit: int) -> tuple[int, int, int]:
    """The (attack, defense, magic) changes cards and powers put on ``unit`` now."""
    a = d = m = 0
    for mod in effects(state)["mods"]:
        if mod["unit"] == unit:
            if mod["kind"] == "attack":
                a += mod["amount"]
            elif mod["kind"] == "defense":
                d += mod["amount"]
            else:
                m += mod["amount"]
    return a, d, m


def spend_combat(state: State, units: tuple[int, ...]) -> None:
    """Attack and magic changes last for one Combat (the vocabulary); defense for the Turn."""
    book = effects(state)
    book["mods"] = [x for x in book["mods"] if x["turn"] or x["unit"] not in units]


def standing_uses(c: Components, state: State, moment: str, units: tuple[int, ...],
                  exclude: str = "") -> list[Event]:
    """Fire the Log Sheet standing instructions that wait for ``moment`` on one of ``units``."""
    events: list[Event] = []
    idle = zeus.bolted(state)  # 301 C 4 b: a struck god's standing orders wait
    for p in state["seats"]:
        if p == exclude or p in idle:
            continue
        sheet: Mapping[str, Any] = state["logsheets"][p].get(str(state["turn"]), {})
        fired = effects(state)["fired"]
        for i, use in enumerate(sheet.get("uses", [])):
            if f"{p}/{i}" in fired or use["when"] != moment or use["unit"] not in units:
                continue
            fired.append(f"{p}/{i}")
            if use["what"] == "card":
                events += use_card_god(c, state, p, unit=use["unit"])
            else:
                pid = use["what"].removeprefix("power:")
                used = setdefault_sorted(effects(state)["powers"], p, [])
                effect = power(c, state, p, pid)
                if effect is None or pid in used:
                    events.append(_void(f"{p}'s power {pid}", "already used this Turn (011 C)"))
                    continue
                used.append(pid)
                events += apply(c, state, p, effect, source=f"power {pid}", unit=use["unit"])
    return events

"""What must hold between any two states of a Mythology game, checked by ``pbem simulate``.

These are not rules a player can break (orders are validated first) but properties every
correct resolution keeps; a breach is a bug in the rules code. Each check names its rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.ruleset import copy_state
from pbem.games.mythology import zeus
from pbem.games.mythology.components import Components

State = dict[str, Any]
Event = dict[str, Any]

#: Where a Hero or Monster counter can be. "board" is the only status with a hex.
UNIT_STATUSES = frozenset({"board", "dead", "reserve"})


def glory_changes(events: Sequence[Event]) -> Counter[str]:
    """216: every Glory Point gained or lost is an event of its own (``glory`` with an
    ``amount``; a Special Victory Condition met is ``special-victory`` with its ``glory``)."""
    out: Counter[str] = Counter()
    for e in events:
        if e.get("type") == "glory":
            out[e["player"]] += e["amount"]
        elif e.get("type") == "special-victory":
            out[e["player"]] += e["glory"]
    return out


def check(c: Components, before: State | None, after: State, events: Sequence[Event],
          private: Mapping[str, Sequence[Event]]) -> list[str]:
    problems: list[str] = []
    every = [*events, *(e for p in sorted(private) for e in private[p])]
    if before is not None:
        changes = glory_changes(every)
        for p in after["glory"]:
            moved = after["glory"][p] - before["glory"].get(p, 0)
            if moved != changes[p]:
                problems.append(f"216: {p}'s Glory moved by {moved:+d} but the events of the "
                                f"phase account for {changes[p]:+d}")
    # 010 A, 102 F: every Playing Card is in exactly one place.
    cards = Counter(after["deck"] + after["discard"]
                    + [x for h in after["hands"].values() for x in h]
                    + [x for x in after["facedown"].values() if x])
    twice = sorted((x for x, n in cards.items() if n > 1), key=int)
    if twice:
        problems.append(f"010: cards in two places at once: {', '.join(twice)}")
    missing = sorted(set(map(str, c.cards)) - set(cards), key=int)
    if missing:
        problems.append(f"010: cards nowhere (not in deck, discard, hands or face down): "
                        f"{', '.join(missing)}")
    # 102 D-E: each Hero and Monster is on the board at one hex, dead, or waiting off it.
    for table in ("heroes", "monsters"):
        for u, x in after[table].items():
            if x["status"] not in UNIT_STATUSES:
                problems.append(f"{table} {u}: unknown status {x['status']!r}")
            elif (x["status"] == "board") != bool(x["hex"]):
                problems.append(f"{table} {u}: status {x['status']} with hex {x['hex']!r}")
            elif x["hex"] and x["hex"] not in c.map.hexes:
                problems.append(f"{table} {u}: hex {x['hex']} is not on the map")
    on_board = {int(u) for table in ("heroes", "monsters")
                for u, x in after[table].items() if x["status"] == "board"}
    # 211-212: a Helper or Prize lies on one hex, or is carried by a unit on the board, or
    # (Prizes only) has been taken off the board.
    for table in ("helpers", "prizes"):
        for k, x in after[table].items():
            places = bool(x["hex"]) + bool(x["holder"]) + bool(x.get("off_board"))
            if places != 1:
                problems.append(f"{table} {k}: in {places} places at once ({x})")
            if x["holder"] and x["holder"] not in on_board:
                problems.append(f"{table} {k}: held by unit {x['holder']}, which is not on "
                                "the board")
    for unit in after["ships"]:  # 215: a ship carries a unit on the board
        if unit not in on_board:
            problems.append(f"215: a ship for unit {unit}, which is not on the board")
    # 007: at most ten Power Points on a Log Sheet in a Turn.
    for p, sheets in after["logsheets"].items():
        for turn, sheet in sheets.items():
            spent = (sum(sheet.get("heroes", {}).values())
                     + sum(sheet.get("monsters", {}).values())
                     + sum(o["points"] for o in sheet.get("occurrences", []))
                     + sum(sheet.get("aid", {}).values()) + sum(sheet.get("ailment", {}).values())
                     + sheet.get("zeus", 0))
            if spent > 10:
                problems.append(f"007: {p} spent {spent} Power Points in Turn {turn}")
    return problems


MARK_CARD = "990"
MARK_FATE = 990


def hide_from_others(state: State, player: str) -> State | None:
    """``state`` with ``player``'s secrets replaced by markers: the hand and the face-down card
    (102 F, 202 B 2), the Fate counter (102 G 2), the Log Sheet and the Hero totals it gives
    (009 C) and prayer offers (302). None once
    the game is over: then everything is revealed (009 C)."""
    if state["step"] == "over":
        return None
    s = copy_state(state)
    if player in s["hands"]:
        s["hands"][player] = [MARK_CARD, *s["hands"][player][1:]]
        if s["facedown"][player]:  # that a card lies face down is public (202 B 2)
            s["facedown"][player] = MARK_CARD
        s["fate_held"][player] = MARK_FATE
        sheets: dict[str, Any] = {"99": {"heroes": {"9": 9}}}
        now = str(s["turn"])
        bribe = state["logsheets"][player].get(now, {}).get("bribe", 0)
        if zeus.on(s) and bribe:  # 301: Zeus sees this Turn's bribes, nothing else
            sheets[now] = {"bribe": bribe}
        s["logsheets"][player] = sheets
        s["hero_totals"][player] = {"9": 99}
    if "offers" in s and not zeus.on(s):  # 302 C: with a Zeus player, offers go to him
        s["offers"][player] = [{"kind": "prayer", "glory": 99, "hero": 9}]
    # Zeus's decrees are not changed: a decree in force has public effects (a god struck by
    # his Lightning Bolt, 301 C 4 b), so what the others see of it is no leak.
    return s

"""What ``pbem simulate hetairos`` checks between two states (issue 18, deliverable 8): health
within bounds, Gold never negative, Gold and Kleos recomputed from the events, and a square
that never changes kind except by the rules that change it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.games.hetairos.table import Components, State

#: Rules that change a drawn square's kind, by the event that says so: a community becoming
#: its settlement (Community 1), tunnelling (Dig 1-4), lava (Lava 2-4), the Trident (Rare A4),
#: a collapse (Coop 1).
CHANGES = {
    "isolated_community": {"polis", "manor", "kobaloi_settlement"},
    "small_tunnel": {"tunnel", "rock", "molten_lava"},
    "tunnel": {"empty_cavern", "rock", "molten_lava"},
}
ANY_TO = {"rock", "molten_lava"}  # collapse and lava reach any square but the Styx
CAVERN_TO = {"magic_spring", "surface_tunnel"}
#: Models whose health may pass their starting maximum (Monster Mormo: "NO MAXIMUM LIMIT"; a
#: model marked ``unbounded``: Coop 2's Hecate's Shadows, "NO UPPER LIMIT").
UNBOUNDED = {"mormo"}


def invariants(c: Components, before: State | None, after: State,
               events: Sequence[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    for mid, m in after["models"].items():
        if m["hp"] < 0:
            problems.append(f"{mid} ({m['name']}) has {m['hp']} health")
        if m["type"] not in UNBOUNDED and not m.get("unbounded") and m["hp"] > m["max_hp"]:
            problems.append(f"{mid} ({m['name']}) has {m['hp']} health over its "
                            f"maximum {m['max_hp']}")
        if m.get("gold", 0) < 0:
            problems.append(f"{mid} ({m['name']}) has {m['gold']} Gold")
        if m["side"] == "pc" and len(set(m["items"])) != len(m["items"]):
            problems.append(f"{mid} owns two of an item (Battle 3: never multiples)")
    if before is None:
        return problems
    gained: dict[str, int] = {}
    for e in events:  # Battle 10: every PC and NPC among the killers gains the victim's Kleos
        if e.get("type") == "slain":
            for mid in e.get("by", []):
                killer = after["models"].get(mid, {})
                if killer.get("side") in ("pc", "npc") and mid != e.get("victim"):
                    gained[mid] = gained.get(mid, 0) + int(e.get("kleos", 0))
    purses: dict[str, int] = {}
    for e in events:  # every Gold change rides on an event (Table.say, Table.settle)
        for mid, n in e.get("purse", {}).items():
            purses[mid] = purses.get(mid, 0) + int(n)
    for mid, m in after["models"].items():
        if "gold" in m:
            was = before["models"].get(mid, {}).get("gold", 0)
            if m["gold"] - was != purses.get(mid, 0):
                problems.append(f"{mid} ({m['name']}) went from {was} to {m['gold']} Gold; "
                                f"the events give {purses.get(mid, 0):+d}")
    for mid, m in after["models"].items():
        old = before["models"].get(mid, {}).get("kleos", 0)
        if m.get("kleos", 0) - old != gained.get(mid, 0):
            problems.append(f"{mid} ({m['name']}) went from {old} to {m.get('kleos', 0)} "
                            f"Kleos; the events give {gained.get(mid, 0)}")
    for k, sq in before["map"].items():
        new = after["map"].get(k)
        if new is None:
            problems.append(f"square {k} was drawn and is gone")
            continue
        if new["kind"] == sq["kind"]:
            continue
        allowed = CHANGES.get(sq["kind"], set()) | (ANY_TO if sq["kind"] != "styx" else set())
        if c.world.squares[sq["kind"]].cavern:
            allowed |= CAVERN_TO
        if new["kind"] not in allowed:
            problems.append(f"square {k} changed from {sq['kind']} to {new['kind']}, which "
                            "no rule does")
    return problems

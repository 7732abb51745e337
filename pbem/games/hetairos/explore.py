"""Drawing the map as it is explored (EXPLORATION, CAVERN..! CHART, THE STYX; Explore 0-7,
Cavern 2-12, Styx 1-4).

A square is drawn the first time a model moves into it (or an Amazon observes it, PC Amazon 2):
the Exploration chart (d6) gives its kind, a fork's side is rolled (d6: 1-3 right, 4-6 left), a
Cavern..! is rolled on the 2d6 chart (8: d6 forge or library). Squares of the Styx's column are
always Styx tiles (Styx 2: "IT ALWAYS COMES TO ANOTHER STYX TILE"), each with a d6 for a bridge
(Styx 3). What a special square holds is set up by :func:`sites.on_draw`.
"""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos import grid, sites
from pbem.games.hetairos.table import Model, Table


def draw(t: Table, k: str, travel: str, by: Model, *, verb: str = "explores"
         ) -> dict[str, Any]:
    """Draw square ``k`` entered (or looked into: ``verb``) moving ``travel`` by ``by``;
    returns it."""
    what = f"explore/{k}"
    if grid.on_styx(k):
        bridge = t.chart("styx_bridge", f"{what}/bridge") == "bridge"
        square = {"kind": "styx", "open": "NS", "bridge": bridge, "found": t.state["round"],
                  "by": by["id"]}
        t.state["map"][k] = square
        t.say("drawn", f"{t.name(by['id'])} finds the Styx at {k}"
              + (" with a bridge (Styx 3: a 6)." if bridge else " (no bridge)."),
              square=k, kind="styx", bridge=bridge, by=by["id"])
        return square
    kind = t.chart("exploration", what)
    fork = ""
    if kind == "tunnel_fork":
        fork = t.chart("fork_side", f"{what}/fork")
    if not kind:
        kind = t.chart("cavern", f"{what}/cavern")
        if not kind:
            kind = t.chart("forge_or_library", f"{what}/cavern8")
    shape = t.c.world.squares[kind].sides
    square = {"kind": kind, "open": grid.sides(shape, travel, fork), "found": t.state["round"],
              "by": by["id"]}
    t.state["map"][k] = square
    sites.on_draw(t, k, by)
    kind = square["kind"]  # a community is now its settlement
    name = t.c.world.squares[kind].name
    side = f", forking {fork} of the way {grid.NAMES[travel]}" if fork else ""
    t.say("drawn", f"{t.name(by['id'])} {verb} {k}: {name}{side}.", square=k, kind=kind,
          open=square["open"], by=by["id"])
    return square

"""The solo list (SOLO SCENARIOS, Solo 0-6): every player for themselves, each starting on a
bridge of their own, one empty Styx square at least between two (Solo 0)."""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos.scenarios import Scenario, over, register
from pbem.games.hetairos.scenarios.coop import count_great_kills
from pbem.games.hetairos.table import Table


@register
class ToGlory(Scenario):
    """Solo 3: "THE FIRST PLAYER TO GET TO 12 KLEOS AT THE END OF A TURN WINS"; two there:
    the higher; equal: play on (checked at the end of each round)."""

    id = "to_glory"

    def check(self, t: Table, *, end_of_round: bool) -> None:
        if not end_of_round:
            return
        need = t.c.world.scenarios[self.id].number_of("kleos")
        best = sorted(((t.models[t.state["pcs"][p]]["kleos"], p) for p in t.state["seats"]
                       if t.models[t.state["pcs"][p]]["kleos"] >= need), reverse=True)
        if best and (len(best) == 1 or best[0][0] > best[1][0]):
            over(t, [best[0][1]], f"{best[0][1]} reaches {best[0][0]} Kleos at the end of a "
                 "turn (To Glory).")


@register
class LastManStanding(Scenario):
    """Solo 4: "THE LAST PLAYER STANDING WINS"."""

    id = "last_man_standing"

    def check(self, t: Table, *, end_of_round: bool) -> None:
        alive = [p for p in t.state["seats"] if t.pc(p) is not None]
        if len(alive) == 1:
            over(t, alive, f"{alive[0]} is the last player standing.")


@register
class Hero(Scenario):
    """Solo 6: "THE FIRST PLAYER TO SUCCESSFULLY KILL A GREAT MONSTER WINS"."""

    id = "hero"

    def record(self, t: Table, events: list[dict[str, Any]]) -> None:
        count_great_kills(t, events)

    def check(self, t: Table, *, end_of_round: bool) -> None:
        kills = t.state["goal"].get("great_kills", [])
        if kills:
            first = kills[0]["players"]
            over(t, first, f"{', '.join(first)} slew a Great Monster first (Hero).")

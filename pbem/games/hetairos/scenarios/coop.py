"""The co-op list (CO-OP SCENARIOS, Coop 0-6): the players win or lose together, starting
together on a bridge over the Styx (Coop 0)."""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos.scenarios import Scenario, over, player_of, register
from pbem.games.hetairos.table import Table


def count_great_kills(t: Table, events: list[dict[str, Any]]) -> None:
    """Great Monsters slain by the players' side (their characters or NPCs), in
    ``goal["great_kills"]`` (Coop 5, Solo 6)."""
    goal = t.state["goal"]
    for e in events:
        if e.get("type") == "slain" and e.get("great"):
            players = sorted({p for mid in e.get("by", []) if (p := player_of(t, mid))})
            if players:
                goal.setdefault("great_kills", []).append(
                    {"type": e.get("victim_type", ""), "players": players,
                     "round": t.state["round"]})


@register
class BountyHunting(Scenario):
    """Coop 3: "FIND A SETTLEMENT OF ANY SORT AND DELIVER THEM A TOTAL OF PLAYERS X3
    PRISONERS" (Ruling: a prisoner sold, or paid for citizenship, is delivered)."""

    id = "bounty_hunting"

    def record(self, t: Table, events: list[dict[str, Any]]) -> None:
        goal = t.state["goal"]
        for e in events:
            if e.get("type") == "sold" and e.get("prisoners"):
                goal["delivered"] = goal.get("delivered", 0) + len(e["prisoners"])
            if e.get("type") == "citizenship" and e.get("prisoner"):
                goal["delivered"] = goal.get("delivered", 0) + 1

    def check(self, t: Table, *, end_of_round: bool) -> None:
        s = t.c.world.scenarios[self.id]
        need = s.number_of("prisoners_per_player") * len(t.state["seats"])
        if t.state["goal"].get("delivered", 0) >= need:
            over(t, list(t.state["seats"]), f"The players have delivered {need} prisoners to "
                 "the settlements (Bounty Hunting): they win together.")


@register
class BeastSlayers(Scenario):
    """Coop 5: kill 3 Great Monsters; a slain kind is not found again (sites.on_draw)."""

    id = "beast_slayers"

    def record(self, t: Table, events: list[dict[str, Any]]) -> None:
        count_great_kills(t, events)

    def check(self, t: Table, *, end_of_round: bool) -> None:
        need = t.c.world.scenarios[self.id].number_of("great_monsters")
        if len(t.state["goal"].get("great_kills", [])) >= need:
            over(t, list(t.state["seats"]), f"The players have slain {need} Great Monsters "
                 "(Beast Slayers): they win together.")


@register
class TheFounding(Scenario):
    """Coop 6: "FIND A CAVERN AND GATHER 6 BEINGS UNDER THEIR CONTROL THERE" (analysis 5.2:
    controlled NPCs; the players' characters are not "under control")."""

    id = "the_founding"

    def check(self, t: Table, *, end_of_round: bool) -> None:
        need = t.c.world.scenarios[self.id].number_of("beings")
        for k, sq in sorted(t.state["map"].items()):
            if not t.c.world.squares[sq["kind"]].cavern or sq["kind"] == "styx":
                continue
            beings = [m for m in t.at(k) if m["side"] == "npc"]
            if len(beings) >= need:
                over(t, list(t.state["seats"]), f"{len(beings)} beings under the players' "
                     f"control gather in the cavern at {k} (The Founding): the players win "
                     "together.")
                return

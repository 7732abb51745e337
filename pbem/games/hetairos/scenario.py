"""The scenarios (SCENARIOS, Scen 0; Coop 0-6, Solo 0-6...): ids, starting squares, victory.

Scenario ids of the ``scenario`` option follow the issue's rule: the name in lower case without
a leading "The", apostrophes dropped, words joined by hyphens (``beast-slayers``,
``guardians-roar``). Scenarios land in stages (docs/games/hetairos.md, "Scenarios"): those in
:data:`PLAYABLE` are the ones the engine runs now.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.games.hetairos import grid
from pbem.games.hetairos.table import Components, Model, State, Table

#: Scenarios the engine plays in this stage (data ids).
PLAYABLE = ("bounty_hunting", "beast_slayers", "the_founding", "to_glory",
            "last_man_standing", "hero")


def option_id(name: str) -> str:
    """``"The Guardian’s Roar"`` -> ``guardians-roar``."""
    words = re.sub(r"^the\s+", "", name.lower().replace("’", "").replace("'", ""))
    return "-".join(re.findall(r"[a-z0-9]+", words))


def by_option(c: Components) -> dict[str, str]:
    """Option id -> data id, for the playable scenarios, in printed order."""
    return {option_id(s.name): s.id for s in c.world.scenarios.values() if s.id in PLAYABLE}


def starts(c: Components, scenario: str, seats: list[str]) -> dict[str, str]:
    """Each player's starting square. Coop 0 / Myth 0: "START TOGETHER ON A BRIDGE OVER THE
    STYX"; Solo 0: "ON A BRIDGE ... WITH 1 SPACE AT LEAST BETWEEN THEIR BRIDGES" (bridges down
    the river, one empty Styx square between each)."""
    s = c.world.scenarios[scenario]
    if s.start == "bridge_each":
        gap = s.start_gap + 1
        return {p: grid.key(grid.STYX_X, i * gap) for i, p in enumerate(seats)}
    return {p: grid.key(grid.STYX_X, 0) for p in seats}


def competitive(c: Components, scenario: str) -> bool:
    return c.world.scenarios[scenario].kind != "coop"


def teams(c: Components, scenario: str, seats: list[str]) -> dict[str, str]:
    """Who fights whom: co-op everyone is the ``party``; solo every player alone."""
    if c.world.scenarios[scenario].kind == "solo":
        return {p: p for p in seats}
    return {}


# ---- victory ---------------------------------------------------------------------------


def _player_of(t: Table, mid: str) -> str:
    m = t.models.get(mid)
    return str(m["owner"]) if m is not None and m["side"] in ("pc", "npc") else ""


def record(t: Table, events: list[dict[str, Any]]) -> None:
    """Count what the scenario counts from this resolution's events."""
    goal = t.state["goal"]
    for e in events:
        if e.get("type") == "slain" and e.get("great"):
            players = sorted({p for mid in e.get("by", []) if (p := _player_of(t, mid))})
            if players:
                goal.setdefault("great_kills", []).append(
                    {"type": e.get("victim_type", ""), "players": players,
                     "round": t.state["round"]})
        if e.get("type") == "sold" and e.get("prisoners"):
            goal["delivered"] = goal.get("delivered", 0) + len(e["prisoners"])


def _over(t: Table, winners: list[str], why: str) -> None:
    t.state["step"] = "over"
    t.state["result"] = {"winners": winners, "why": why}
    t.say("game-over", why, winners=winners)


def check(t: Table, *, end_of_round: bool) -> None:
    """Victory and defeat; "AT THE END OF A TURN" conditions only at the round's end."""
    if t.state["step"] == "over":
        return
    s = t.c.world.scenarios[t.state["scenario"]]
    seats: list[str] = t.state["seats"]
    alive = [p for p in seats if t.pc(p) is not None]
    goal = t.state["goal"]
    if s.id == "beast_slayers":
        need = s.number_of("great_monsters")
        if len(goal.get("great_kills", [])) >= need:
            return _over(t, list(seats), f"The players have slain {need} Great Monsters "
                         "(Beast Slayers): they win together.")
    elif s.id == "bounty_hunting":
        need = s.number_of("prisoners_per_player") * len(seats)
        if goal.get("delivered", 0) >= need:
            return _over(t, list(seats), f"The players have delivered {need} prisoners to "
                         "the settlements (Bounty Hunting): they win together.")
    elif s.id == "the_founding":
        need = s.number_of("beings")
        for k, sq in sorted(t.state["map"].items()):
            if not t.c.world.squares[sq["kind"]].cavern or sq["kind"] == "styx":
                continue
            beings = [m for m in t.at(k) if m["side"] == "npc"]
            if len(beings) >= need:
                return _over(t, list(seats), f"{len(beings)} beings under the players' "
                             f"control gather in the cavern at {k} (The Founding): the "
                             "players win together.")
    elif s.id == "hero":
        kills = goal.get("great_kills", [])
        if kills:
            first = kills[0]["players"]
            return _over(t, first, f"{', '.join(first)} slew a Great Monster first (Hero).")
    elif s.id == "last_man_standing":
        if len(alive) == 1:
            return _over(t, alive, f"{alive[0]} is the last player standing.")
    elif s.id == "to_glory" and end_of_round:
        need = s.number_of("kleos")
        best = sorted(((t.models[t.state["pcs"][p]]["kleos"], p) for p in seats
                       if t.models[t.state["pcs"][p]]["kleos"] >= need), reverse=True)
        if best and (len(best) == 1 or best[0][0] > best[1][0]):
            return _over(t, [best[0][1]], f"{best[0][1]} reaches {best[0][0]} Kleos at the end "
                         "of a turn (To Glory).")
    if not alive and t.state["death"] == "out":
        return _over(t, [], "Every player character is dead: the underworld wins.")
    if competitive(t.c, s.id) and len(alive) == 0:
        return _over(t, [], "Every player character is dead.")
    limit = int(t.state["options"].get("rounds", "0"))
    if end_of_round and limit and t.state["round"] >= limit:
        _over(t, [], f"Round {limit} ends (option rounds={limit}) before the scenario is "
              "won: nobody wins.")


def safe_start(t: Table, start: str) -> str:
    """Where a replacing character comes in (option ``death=replace``; Ruling: the start
    square, or when enemies hold it the nearest drawn open square free of them, so that a
    monster camping on the bridge does not kill each newcomer before it moves)."""
    def free(k: str) -> bool:
        sq = t.square(k)
        return (sq is not None and t.c.world.squares[sq["kind"]].passable
                and not any(m["side"] not in ("pc", "npc") for m in t.at(k)))
    if free(start):
        return start
    ranked = sorted(t.state["map"], key=lambda k: (grid.manhattan(k, start), grid.xy(k)))
    return next((k for k in ranked if free(k)), start)


def unused_character(c: Components, state: State, ranked: list[str]) -> str:
    taken = {m["type"] for m in state["models"].values() if m["side"] == "pc" and m["hp"] > 0}
    for ch in list(ranked) + list(c.people.characters):
        if ch not in taken:
            return ch
    return next(iter(c.people.characters))


def new_pc(c: Components, state: State, player: str, character: str, at: str) -> Model:
    """A player character fresh from its sheet (Concepts 3-4; Cimmerian's pickaxe, PC
    Cimmerian 1)."""
    ch = c.character(character)
    state["next_id"] += 1
    mid = f"m{state['next_id']}"
    m: Model = {
        "id": mid, "side": "pc", "owner": player, "type": character,
        "name": f"{player} ({ch.name.title()})", "at": at,
        "bank": "W" if grid.on_styx(at) else "", "hp": ch.hp, "max_hp": ch.hp, "ap": 0,
        "kleos": 0, "gold": 0, "items": list(ch.starting_items), "prisoners": [],
        "effects": {}, "moved": False, "spear": False, "came": "", "stuck": "",
    }
    state["models"][mid] = m
    state["pcs"][player] = mid
    return m

"""What every scenario shares (SCENARIOS, Scen 0): the option's ids, the characters, the
ends every scenario has; each scenario's own rules are in :mod:`pbem.games.hetairos.scenarios`.

Scenario ids of the ``scenario`` option follow the issue's rule: the name in lower case without
a leading "The", apostrophes dropped, words joined by hyphens (``beast-slayers``,
``guardians-roar``). Scenarios land in stages (docs/games/hetairos.md, "Stage reached"): the
option lists those registered in :data:`pbem.games.hetairos.scenarios.REGISTRY`.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.games.hetairos import grid, scenarios
from pbem.games.hetairos.table import Components, Model, State, Table


def option_id(name: str) -> str:
    """``"The Guardian’s Roar"`` -> ``guardians-roar``."""
    words = re.sub(r"^the\s+", "", name.lower().replace("’", "").replace("'", ""))
    return "-".join(re.findall(r"[a-z0-9]+", words))


def by_option(c: Components) -> dict[str, str]:
    """Option id -> data id, for the playable scenarios, in printed order."""
    ready = scenarios.playable()
    return {option_id(s.name): s.id for s in c.world.scenarios.values() if s.id in ready}


#: The ``scenario`` option's rolled values (Start 3: "EACH OF THE FOUR LISTS HAS 6
#: SCENARIOS, SO THIS CAN BE DONE BY DICE ROLL"): a list's d6, or first the list's d6.
ROLLS = ("roll", "roll-coop", "roll-myth", "roll-solo", "roll-team")


def _fits(c: Components, list_id: str, players: int) -> list[str]:
    return [s.id for s in c.world.scenario_list(list_id)
            if not scenarios.get(s.id).players_problem(players)]


def rollable(c: Components, how: str, players: int) -> bool:
    lists = list(c.world.lists) if how == "roll" else [how.removeprefix("roll-")]
    return any(_fits(c, lst, players) for lst in lists)


def choose(t: Table, option: str, players: int) -> str:
    """The scenario's data id: the option's, or rolled (Start 3): ``roll``: a d6 for the list
    (1-4 the lists in printed order; 5-6 roll again), then a d6 for the entry; ``roll-<list>``:
    the entry only. Ruling: a scenario that does not take this many players (analysis 6) is
    rolled again, as a 5 or 6 of the list's die is."""
    c = t.c
    if option not in ROLLS:
        return by_option(c)[option]
    lists = list(c.world.lists)
    for attempt in range(1, 101):
        lst = option.removeprefix("roll-")
        if option == "roll":
            roll = t.d6(f"scenario/list/{attempt}")
            if roll > len(lists):
                t.say("scenario-roll", f"Scenario list (Start 3): d6 {roll}, roll again.",
                      roll=roll)
                continue
            lst = lists[roll - 1]
        entry = t.d6(f"scenario/{lst}/{attempt}")
        s = c.world.scenario_list(lst)[entry - 1]
        fits = not scenarios.get(s.id).players_problem(players)
        t.say("scenario-roll", f"Scenario (Start 3): {c.world.lists[lst].name}, d6 {entry}: "
              f"{s.name}" + ("." if fits else f", which does not take {players} players: roll "
                             "again."), list=lst, roll=entry, scenario=s.id)
        if fits:
            return s.id
    return _fits(c, "coop", players)[0]  # (a hundred rolls that never fit: cannot happen)


def competitive(c: Components, scenario: str) -> bool:
    return c.world.scenarios[scenario].kind != "coop"


def record(t: Table, events: list[dict[str, Any]]) -> None:
    """Count what the scenario counts from this resolution's events."""
    scenarios.get(t.state["scenario"]).record(t, events)


def check(t: Table, *, end_of_round: bool) -> None:
    """Victory and defeat: the scenario's own, then the ends every scenario has (every
    character dead with ``death=out``; the ``rounds`` option's last round)."""
    if t.state["step"] == "over":
        return
    scenarios.get(t.state["scenario"]).check(t, end_of_round=end_of_round)
    if t.state["step"] == "over":
        return
    alive = [p for p in t.state["seats"] if t.pc(p) is not None]
    if not alive and t.state["death"] == "out":
        return scenarios.over(t, [], "Every player character is dead: the underworld wins.")
    limit = int(t.state["options"].get("rounds", "0"))
    if end_of_round and limit and t.state["round"] >= limit:
        scenarios.over(t, [], f"Round {limit} ends (option rounds={limit}) before the "
                       "scenario is won: nobody wins.")


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


def begin_turn(t: Table, player: str) -> None:
    """The start of a player's turn: a dead character replaced (option ``death``), the AP
    allowance and per-turn marks (turn.start), the scenario's own start-of-turn rules."""
    from pbem.games.hetairos import turn

    if t.pc(player) is None and t.state["death"] == "replace":
        old = t.models[t.state["pcs"][player]]
        ch = unused_character(t.c, t.state, t.state["ranked"].get(player, []))
        start = safe_start(t, t.state["starts"][player])
        m = new_pc(t.c, t.state, player, ch, start)
        t.say("replaced", f"{player}'s {t.c.character(old['type']).name.title()} is "
              f"dead; {player} now plays the {t.c.character(ch).name.title()} at "
              f"{start}.", player=player, model=m["id"], character=ch)
    turn.start(t, player)
    scenarios.get(t.state["scenario"]).start_of_turn(t, player)

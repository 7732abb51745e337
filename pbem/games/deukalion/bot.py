"""Bot players for demos and simulations: legal, non-trivial orders from the player's own view.

Sailing: a ranked list of goals (deliver the chests it carries, reclaim at the Styx when many
hoplites are below, found a free settlement, challenge a city that holds chests, challenge a
weaker ship, take back two hoplites), which the rules try in order when its turn to sail comes.
The Kylix turn: the cup turned for the largest Move die, the Card die's draw, a reclaim, the
single-use cards that help now, and a ship move toward the best goal it can reach, ending in
its challenge or foundation. Every order is checked with the rules' own
:func:`pbem.games.deukalion.turn.review` on a stand-in state made from the view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Stream
from pbem.core.ruleset import PhaseSpec, copy_state
from pbem.games.deukalion import choices as choices_mod
from pbem.games.deukalion import kylix, sailing, turn
from pbem.games.deukalion.components import Components

State = dict[str, Any]


def state_from_view(view: Mapping[str, Any], player: str) -> State:
    """The view's public part and the player's own secrets; the others' hidden holdings are
    stand-ins of the right size (they decide nothing the bot checks)."""
    s = copy_state({k: v for k, v in view.items() if k not in (
        "action_deck_count", "pursuit_deck_count", "hand_counts", "game_over", "my_hand",
        "my_personal", "my_choices", "choices", "personal")})
    seats = list(view["seats"])
    s["action_deck"], s["pursuit_deck"] = [], []
    s["hands"] = {p: [] for p in seats}
    s["hands"][player] = list(view.get("my_hand", []))
    s["personal"] = {p: "" for p in seats}
    s["personal"][player] = view.get("my_personal", "")
    s["policy"] = {p: dict(choices_mod.DEFAULT) for p in seats}
    return s


def _goals(c: Components, s: State, player: str) -> list[dict[str, Any]]:
    mine = s["board"][player]
    goals: list[dict[str, Any]] = []
    if mine["chests"]:
        goals.append({"goal": "deliver"})
    if s["underworld"][player] >= 3 or mine["hoplites"] <= 3:
        goals.append({"goal": "styx"})
    for sid, x in sorted(s["settlements"].items()):
        need = c.board.settlements[sid].hoplites
        if not x["owner"] and mine["hoplites"] > need + 2:
            goals.append({"goal": "found", "target": sid})
    if mine["hoplites"] >= 4:
        rich = sorted((city for city, lying in s["chests"].items() if lying),
                      key=lambda city: (c.board.cities[city].value, city))
        goals += [{"goal": "challenge_city", "target": city} for city in rich[:3]]
    for other in s["seats"]:
        if other != player and s["board"][other]["chests"] and (
                s["board"][other]["hoplites"] + 2 <= mine["hoplites"]):
            goals.append({"goal": "challenge_ship", "target": other})
    if s["underworld"][player] >= 2:
        goals.append({"goal": "retrieve2"})
    return goals


def orders(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
           rng: Stream) -> dict[str, Any]:
    s = state_from_view(view, player)
    if phase.kind == "sail":
        plans = [g for g in _goals(c, s, player)
                 if not turn.review(c, s, "sail", player, {"plan": [g]})[0]]
        return {"plan": plans} if plans else {}
    return _kylix(c, s, player, rng)


def _kylix(c: Components, s: State, player: str, rng: Stream) -> dict[str, Any]:
    best = max(range(4), key=lambda r: (kylix.assignment(s["kylix"], r)["move"],
                                        kylix.assignment(s["kylix"], r)["hoplites"], -r))
    dice = kylix.assignment(s["kylix"], best)
    steps: list[dict[str, Any]] = [{"action": "card"}]
    if s["underworld"][player]:
        steps.append({"action": "reclaim", "count": min(dice["hoplites"],
                                                         s["underworld"][player])})
    for card in s["hands"][player]:
        if c.actions[card].permanent or c.actions[card].effect == "move_plus":
            steps.append({"action": "play", "card": card})
            break
    if turn.review(c, s, "kylix", player, {"rotation": best, "step": steps})[0]:
        steps = [{"action": "card"}]
    base: dict[str, Any] = {"rotation": best, "step": steps}
    # Where the ship could go this turn: the first goal it can reach and end in.
    trial = copy_state(s)
    reachable = sailing.reach(c, trial, player, dice["move"] + 2)
    for goal in _goals(c, s, player):
        found, _ = sailing.goal_path(c, trial, player, goal, dice["move"])
        if found is None or goal["goal"] in ("retrieve2", "stay"):
            continue
        path, then, target = _ship_step(found, goal)
        step = {"action": "ship", "path": path}
        if then:
            step |= {"then": then, "target": target}
        trial_orders = {**base, "step": [*steps, step]}
        if not turn.review(c, s, "kylix", player, trial_orders)[0]:
            return trial_orders
    if reachable and rng.draw("bot/wander", 3) > 1:
        square = sorted(reachable)[rng.draw("bot/square", len(reachable)) - 1]
        step = {"action": "ship", "path": list(reachable[square])}
        trial_orders = {**base, "step": [*steps, step]}
        if not turn.review(c, s, "kylix", player, trial_orders)[0]:
            return trial_orders
    return base


def _ship_step(found: list[str], goal: Mapping[str, Any]) -> tuple[list[str], str, str]:
    """A goal's path as a ship step: (path, then, target)."""
    path = list(found)
    kind = goal["goal"]
    if kind in ("challenge_city", "found"):
        return path, kind, str(goal.get("target", ""))
    return path, "", ""

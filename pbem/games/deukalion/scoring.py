"""Honour points (HONOUR POINTS 1-5) and the end of the game (Object 1, End 1).

A player's Honour points are, at every moment: the hoplites he has on the settlements he owns
(Honour 1: "These hoplites represent the number of Honour points you have while the settlement
is yours"), the points printed on the Pursuit cards he has achieved (Honour 2) and his Honour
cards, one point each (Honour 3-5). The game ends as soon as someone reaches the target:
16 with two players, 14 with three, 12 with four (Object 1, End 1), even in another player's
turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

State = dict[str, Any]
TARGET = {2: 16, 3: 14, 4: 12}


def points(c: Any, state: Mapping[str, Any], player: str) -> int:
    settled = sum(x["hoplites"] for x in state["settlements"].values() if x["owner"] == player)
    pursued = sum(c.pursuits[p].points for p in state["achieved"][player])
    return int(settled + pursued + state["honour"][player])


def target(state: Mapping[str, Any]) -> int:
    return TARGET[len(state["seats"])]


def reached(c: Any, state: State, order: list[str] | None = None) -> list[dict[str, Any]]:
    """End 1: if a player has reached the target, the game is over now (in ``order``, the
    first to be checked wins a simultaneous case: the player whose event it was)."""
    if state["step"] == "over":
        return []
    goal = target(state)
    for p in order or state["seats"]:
        if points(c, state, p) >= goal:
            state["step"] = "over"
            score = {q: points(c, state, q) for q in state["seats"]}
            state["result"] = {"winner": p, "why": f"{p} reaches {goal} Honour points (End 1)",
                               "score": score}
            return [{"type": "game-over", "winner": p, "score": score, "text":
                     f"{p} has {score[p]} Honour points, the {goal} needed with "
                     f"{len(state['seats'])} players (Object 1): the game is over at once "
                     f"(End 1). {p} is the Most Honoured Hero."}]
    return []

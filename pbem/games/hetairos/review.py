"""What ``validate`` settles at submit, and what the receipt says waits (the project's rule: "a
typo never costs a turn").

A turn program is run on a copy of the state with dice that refuse to be rolled: every step
before the first one whose outcome the dice decide (exploring, a fight, a check, a trap...) is
run exactly as the adjudication will run it, since nobody else acts between the submission and
the player's own phase. A step that would be skipped there is a problem, with its reason; every
step from the first one that needs dice on is said in the receipt: "checked when it runs".
"""

from __future__ import annotations

from typing import Any

from pbem.core.errors import Problem
from pbem.core.ruleset import copy_state
from pbem.games.hetairos import program, scenario, standing, turn
from pbem.games.hetairos.table import Components, NeedsDice, NoDice, Table

TURN_KEYS = ("steps", "halt", "standing")


def review(c: Components, state: dict[str, Any], player: str, orders: dict[str, Any]
           ) -> tuple[list[Problem], list[str]]:
    """(problems, receipt notes) of ``player``'s turn order in ``state``."""
    problems = [Problem(f"[orders] {k}", f"a turn order takes no {k!r}",
                        "keys: " + ", ".join(TURN_KEYS)) for k in orders if k not in TURN_KEYS]
    steps, _, more = program.parse(c, orders, state["scenario"])
    problems += more
    given: dict[str, Any] = {}
    if "standing" in orders:
        given, wrong = standing.parse(orders["standing"], state["seats"])
        problems += wrong
    for step in steps:  # what the words name must exist, whatever runs before
        where = f"[orders] steps[{step.index}] {step.text!r}"
        for arg in step.args:
            if arg.startswith("m") and arg[1:].isdigit() and (
                    arg not in state["models"] or state["models"][arg]["hp"] <= 0):
                problems.append(Problem(where, f"no model {arg} on the map",
                                        "the ids are in your report's list of models"))
        if step.verb == "give" and step.args[1] not in state["seats"] and \
                step.args[1] not in state["models"]:
            problems.append(Problem(where, f"no player {step.args[1]!r}",
                                    "players: " + ", ".join(state["seats"])))
    if problems or not steps:
        return problems, []
    s = copy_state(state)
    t = Table(c, s, NoDice(), label="review")
    s["standing"][player] = {**s["standing"].get(player, {}), **given}
    first = f"steps[{steps[0].index}] '{steps[0].text}'"
    if s["cont"] == 0:
        try:
            scenario.begin_turn(t, player)
        except NeedsDice:
            return [], [f"the start of your turn rolls dice (the scenario's rule): every step "
                        f"from {first} on is checked when it runs"]
    m = t.pc(player)
    if m is None:
        return [], [f"you have no character now: every step from {first} on is checked when "
                    "it runs"]
    examples = program.examples(s["scenario"])
    written = {x.index: x.text for x in steps}
    for step in turn.single_moves(steps):
        try:
            why, _ = turn.do(t, m, step)
        except NeedsDice:
            later = [x for x in steps if x.index > step.index]
            notes = [f"steps[{x.index}] '{x.text}' comes after steps[{step.index}] "
                     f"'{step.text}', whose outcome the dice decide: checked when it runs"
                     for x in later]
            if step.verb == "move" and len(step.args) == 1 and any(
                    x.index == step.index and x.verb == "move" and len(x.args) > 1
                    for x in steps):
                notes.insert(0, f"steps[{step.index}]: the squares of this move after "
                             f"{m['at']} are explored or entered as it runs")
            return problems, notes
        if why:
            where = f"[orders] steps[{step.index}] {written[step.index]!r}"
            if any(p.where == where for p in problems):
                continue  # one problem for a move of several squares: its first
            problems.append(Problem(where, why, f"e.g. '{examples.get(step.verb, '')}'; "
                                    "your report lists where you may move and act now"))
        if m["hp"] <= 0 or s["step"] == "over":
            break
    return problems, []

"""Issue 17: no value of any type in any key of a Deukalion form makes ``check`` or ``resolve``
raise; an order ``check`` accepts resolves. States are those of a seeded bot game; orders are
the bot's own with keys given arbitrary TOML values, or arbitrary tables. Hypothesis runs
derandomized and bounded (tests/budget.py)."""

from __future__ import annotations

import copy
import datetime
import functools
import hashlib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.deukalion.components import load
from pbem.games.deukalion.game import RULESET
from tests.budget import examples

SETTINGS = settings(max_examples=examples(120), deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))
KEYS = ["plan", "goal", "target", "choices", "rotation", "step", "action", "count", "dump",
        "card", "path", "then", "give", "steal", "push", "hydra_to", "return_to"]
SQUARES = sorted(load().board.squares)


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"deuk-property/{label}".encode()).digest())


@functools.cache
def states() -> tuple[tuple[dict[str, Any], PhaseSpec, dict[str, Any]], ...]:
    """(state, phase, the bot's orders) at every phase of a seeded 3-player game."""
    state = RULESET.setup(("alice", "bob", "carol"), {}, {},
                          Rng(stream("p"), stream("s"))).state
    out = []
    for k in range(200):
        spec = RULESET.next_phase(state)
        if spec is None:
            break
        p = spec.actors[0]
        orders = RULESET.bot_orders(RULESET.view(state, p), spec, p, stream(f"bot/{k}"))
        out.append((copy.deepcopy(state), spec, orders))
        RULESET.resolve(state, spec, {p: orders}, Rng(stream(f"p/{k}"), stream(f"s/{k}")))
        if len(out) >= 40:
            break
    return tuple(out)


names = st.sampled_from([*SQUARES[:8], "deliver", "styx", "found", "ephesus", "bob", "alice",
                         "red", "move_plus", "ship", "hydra", "card", "reclaim", "z9", " c3 ",
                         ""])
leaf = st.one_of(st.integers(-3, 12), st.sampled_from([10**30, -(2**63)]), names,
                 st.booleans(), st.text(max_size=8), st.floats(allow_nan=True),
                 st.just(datetime.date(2024, 1, 1)))
value = st.recursive(leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=5)), inner,
                    max_size=4)), max_leaves=10)


@SETTINGS
@given(data=st.data())
def test_any_value_in_any_key_gives_problems_or_runs(data: st.DataObject) -> None:
    cases = states()
    state, spec, bot = cases[data.draw(st.integers(0, len(cases) - 1), label="phase")]
    orders = copy.deepcopy(bot)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        key = data.draw(st.sampled_from(KEYS), label="key")
        if key in orders and isinstance(orders[key], list) and orders[key] and data.draw(
                st.booleans(), label="inside"):
            entry = orders[key][0]
            if isinstance(entry, dict) and entry:
                inner = data.draw(st.sampled_from(sorted(entry)), label="inner")
                entry[inner] = data.draw(value, label="inner value")
                continue
        orders[key] = data.draw(value, label="value")
    p = spec.actors[0]
    work = copy.deepcopy(state)
    problems, _ = RULESET.check(work, spec, p, orders)
    assert all(str(x) for x in problems)
    if not problems:
        RULESET.resolve(work, spec, {p: orders}, Rng(stream("x"), stream("y")))

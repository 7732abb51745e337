"""Issue 12 for the conformance game: arbitrary TOML values in every key of every form give
``Problem``s from ``validate`` (and ``validate_join``), never an exception, and an accepted
form resolves; the forecast word is read whatever its case; nothing in this game waits on an
earlier action of its phase, so ``provisional`` is always empty. Deterministic and bounded."""

from __future__ import annotations

import copy
import datetime
import hashlib
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem
from pbem.core.ruleset import PhaseSpec
from pbem.games.conformance import RULESET
from tests.budget import examples

SETTINGS = settings(max_examples=examples(150), deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))
PLAYERS = ("ann", "bob", "cy")


def _stream(*parts: object) -> Stream:
    return Stream(hashlib.sha256("/".join(map(str, parts)).encode()).digest())


def _rng(*parts: object) -> Rng:
    return Rng(_stream("public", *parts), _stream("sealed", *parts))


@cache
def _stops() -> tuple[tuple[dict[str, Any], PhaseSpec], ...]:
    """Every phase of a seeded three-round bot game, with the state it opens on."""
    state = RULESET.setup(PLAYERS, {"rounds": "3"}, {p: {} for p in PLAYERS}, _rng("s")).state
    out = []
    for k in range(100):
        phase = RULESET.next_phase(state)
        if phase is None:
            break
        out.append((copy.deepcopy(state), phase))
        orders = {p: RULESET.bot_orders(RULESET.view(state, p), phase, p, _stream("bot", k, p))
                  for p in phase.actors}
        state = RULESET.resolve(state, phase, orders, _rng(k)).state
    return tuple(out)


KEYS = ("pledge", "forecast", "dice", "motto")
leaf = st.one_of(st.integers(-5, 15), st.sampled_from([10**30, -(10**30), 2**63]),
                 st.booleans(), st.text(max_size=70),
                 st.sampled_from(["high", "LOW", " High ", "low\n", "höh", "\u202e", ""]),
                 st.floats(allow_nan=True, allow_infinity=True),
                 st.just(datetime.datetime(2024, 1, 1, 12, 0)))
value = st.recursive(leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=6)
form = st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), value,
                       max_size=4)


def _fuzz(kind: str, data: st.DataObject) -> None:
    stops = [(s, p) for s, p in _stops() if p.kind == kind]
    state, phase = data.draw(st.sampled_from(stops), "phase")
    orders = data.draw(form, "orders")
    player = data.draw(st.sampled_from(sorted(phase.actors)), "player")
    problems = RULESET.validate(state, phase, player, orders)
    assert all(isinstance(p, Problem) for p in problems)
    if problems:
        return
    assert RULESET.provisional(state, phase, player, orders) == []
    everyone = {p: orders if p == player else RULESET.default_orders(state, phase, p)
                for p in phase.actors}
    RULESET.resolve(copy.deepcopy(state), phase, everyone, _rng("fuzz"))


@SETTINGS
@given(st.data())
def test_issue12_fuzz_conformance_pledge(data: st.DataObject) -> None:
    _fuzz("pledge", data)


@SETTINGS
@given(st.data())
def test_issue12_fuzz_conformance_forecast(data: st.DataObject) -> None:
    _fuzz("forecast", data)


@SETTINGS
@given(st.data())
def test_issue12_fuzz_conformance_voyage(data: st.DataObject) -> None:
    _fuzz("voyage", data)


@SETTINGS
@given(form)
def test_issue12_fuzz_conformance_join(orders: dict[str, Any]) -> None:
    problems = RULESET.validate_join("ann", orders)
    assert all(isinstance(p, Problem) for p in problems)
    if not problems:
        joins = {p: orders if p == "ann" else {} for p in PLAYERS}
        RULESET.setup(PLAYERS, {"rounds": "2"}, joins, _rng("join"))


def test_conformance_forecast_word_any_case_means_the_same() -> None:
    """docs/games/conformance.md, forecast: "high" or "low", as the player types it."""
    state, phase = next((s, p) for s, p in _stops() if p.kind == "forecast")
    player = phase.actors[0]
    for word in ("High", " LOW ", "low"):
        assert RULESET.validate(state, phase, player, {"forecast": word}) == [], word
    a = RULESET.resolve(copy.deepcopy(state), phase,
                        {p: {"forecast": "High"} for p in phase.actors}, _rng("f"))
    b = RULESET.resolve(copy.deepcopy(state), phase,
                        {p: {"forecast": "high"} for p in phase.actors}, _rng("f"))
    assert a.state == b.state

"""Issue 12: a Cyclades order is either refused at submit or does what it says, unless its
receipt said it waits on something earlier in the phase (``Ruleset.provisional``); and no
value of any type in any key of any form makes ``validate``, ``provisional`` or ``resolve``
raise.

States are those of seeded bot games (``bot_states``); orders are the bots' own, mutated
(numbers changed, names swapped for other names of the game in any case, actions dropped,
repeated and reordered), or arbitrary TOML values. Hypothesis runs derandomized and bounded.
"""

from __future__ import annotations

import copy
import datetime
import functools
import math
from collections.abc import Mapping
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.errors import Problem
from pbem.games.cyclades import actions, setup
from pbem.games.cyclades.game import RULESET, board_of
from tests.budget import examples
from tests.cyclades.bot_states import Stop, of_kind, rng

C = RULESET.c
SETTINGS = settings(max_examples=examples(150), deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


@functools.cache
def _names() -> list[str]:
    # Built at the first draw, not at import: collecting the tests plays no game.
    s = of_kind("act")[0]
    board = board_of(s.state)
    out = sorted({*board.territories, *board.seas, *C.gods, *C.buildings, *C.creatures,
                  *C.heroes, *C.artifacts, *C.egyptians, *C.monuments, *C.magic_items,
                  *C.favors, *C.metropolises, *actions.ACTIONS, "p1", "p2", "p3"})
    return out


name = st.deferred(lambda: st.sampled_from(_names())).flatmap(
    lambda n: st.sampled_from([n, n.upper(), n.title(), f" {n} "]))
number = st.one_of(st.integers(-3, 12), st.sampled_from([0, 1, 2, 99, 100, 10**30,
                                                          -(10**30), 2**63]))
leaf = st.one_of(number, name, st.booleans(), st.text(max_size=12),
                 st.floats(allow_nan=True, allow_infinity=True),
                 st.just(datetime.date(2024, 1, 1)))
value = st.recursive(leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(["territory", "sea", "count", "do", "from", "to",
                                               "troops", "when", "god", "offer", "hero",
                                               "pay", "target", "slot", "player"]),
                              st.text(max_size=6)), inner, max_size=4)), max_leaves=8)


def _mutate(data: st.DataObject, orders: Any, depth: int = 0, wild: bool = False) -> Any:
    """A copy of ``orders`` with some leaves replaced and some list items dropped or
    repeated: mostly plausible orders, now and then nonsense."""
    if isinstance(orders, Mapping):
        out = {k: _mutate(data, v, depth + 1, wild) for k, v in orders.items()}
        if data.draw(st.integers(0, 29), "add key?") == 0:
            out[data.draw(st.sampled_from(["free", "keep", "count", "to", "troops", "x"]))] = \
                data.draw(value)
        return out
    if isinstance(orders, list):
        items = [_mutate(data, v, depth + 1, wild) for v in orders]
        how = data.draw(st.integers(0, 8), "list change")
        if how == 0 and items:
            del items[data.draw(st.integers(0, len(items) - 1))]
        elif how == 1 and items:
            items.append(copy.deepcopy(items[data.draw(st.integers(0, len(items) - 1))]))
        elif how == 2:
            items.reverse()
        return items
    change = data.draw(st.integers(0, 15), "leaf change")
    if wild and change in (0, 4, 5):
        return data.draw(value)
    if change == 0:
        return data.draw(number if isinstance(orders, int) else name)
    if change == 1 and isinstance(orders, int) and not isinstance(orders, bool):
        return orders + data.draw(st.integers(-2, 2))
    if change in (2, 3) and isinstance(orders, str):
        return orders.upper() if change == 2 else f" {orders.title()}"
    return orders


def _form(kind: str, s: Stop, player: str) -> dict[str, Any]:
    """The orders a player might plausibly send: the bot's, or the default for the forms the
    bot leaves empty (deploy, upkeep)."""
    if s.orders.get(player):
        return copy.deepcopy(s.orders[player])
    if kind == "deploy":
        assert s.phase.active is not None
        return setup.default_deploy(C, board_of(s.state), s.state, s.phase.active)
    if kind == "upkeep":
        from pbem.games.cyclades import cycle
        return cycle.default_upkeep(C, s.state, player, cycle.heroes_of(s.state, player))
    return RULESET.default_orders(s.state, s.phase, player)


def refusals(kind: str, orders: Mapping[str, Any], events: list[dict[str, Any]],
             player: str) -> list[tuple[str, str]]:
    """(where in the form, text) of each event saying the adjudicator did not do what
    ``orders`` asked: a skipped action, a free recruit moved or lost, the prosperity marker
    not placed where asked, a deployment replaced by the default, a Hero kept but lost."""
    out: list[tuple[str, str]] = []
    kept = {k.get("hero") for k in orders.get("keep", []) or [] if isinstance(k, Mapping)} \
        if kind == "upkeep" else set()
    for e in events:
        if e.get("player", player) != player and e["type"] != "deploy_default":
            continue
        if e["type"] == "skipped" and "index" in e:
            out.append((f"[orders] actions[{e['index']}]", e["text"]))
        elif e["type"] == "free_recruit_moved" or (
                e["type"] == "skipped" and e.get("rule") == "Cycle 8.3" and "free" in orders):
            out.append(("[orders] free", e["text"]))
        elif e["type"] == "skipped" and e.get("rule") == "Cycle 7.3" and orders.get("actions"):
            out.append(("[orders] actions", e["text"]))
        elif e["type"] == "deploy_default":
            out.append(("[orders]", e["text"]))
        elif e["type"] == "hero_released" and e.get("hero") in kept:
            out.append(("[orders] keep", e["text"]))
    return out


def _fights(s: Stop) -> bool:
    return any(a.get("do") in ("move", "sail", "titan_move", "special_attack", "swap")
               for o in s.orders.values() for a in o.get("actions", []))


def _check(kind: str, data: st.DataObject) -> None:
    stops = of_kind(kind)
    if kind == "act" and data.draw(st.booleans(), "a turn with a battle?"):
        stops = [s for s in stops if _fights(s)]
    s = data.draw(st.sampled_from(stops), "state")
    player = data.draw(st.sampled_from(sorted(s.phase.actors)), "player")
    orders = _mutate(data, _form(kind, s, player))
    problems = RULESET.validate(s.state, s.phase, player, orders)
    assert all(isinstance(p, Problem) for p in problems)
    if problems:
        return
    notes = RULESET.provisional(s.state, s.phase, player, orders)
    waits = {n.where for n in notes}
    everyone = {p: (orders if p == player else copy.deepcopy(_form(kind, s, p)))
                for p in s.phase.actors}
    out = RULESET.resolve(copy.deepcopy(s.state), s.phase, everyone, rng("prop", s.phase.id))
    refused = [r for r in refusals(kind, orders, out.events, player) if r[0] not in waits]
    assert not refused, (s.game, s.phase.id, player, orders, refused, notes)


# --- Issue 12 section 1: accepted means done, unless the receipt said otherwise --------------


@SETTINGS
@given(st.data())
def test_issue12_cycle_8_accepted_actions_are_done_unless_provisional(data: st.DataObject
                                                                      ) -> None:
    _check("act", data)


@SETTINGS
@given(st.data())
def test_issue12_setup_9_accepted_deployment_is_never_replaced_by_the_default(
        data: st.DataObject) -> None:
    _check("deploy", data)


@settings(SETTINGS, max_examples=examples(60))
@given(st.data())
def test_issue12_cycle_3_accepted_upkeep_keeps_the_heroes(data: st.DataObject) -> None:
    _check("upkeep", data)


# --- Issue 12 section 3: no traceback, whatever the values -----------------------------------

FORM_KEYS = {
    "bid": ("bids", "defend", "apollo_keep"),
    "deploy": setup.DEPLOY_KEYS,
    "upkeep": ("keep", "release"),
    "act": actions.ORDER_KEYS,
}


def _fuzz(kind: str, data: st.DataObject) -> None:
    s = data.draw(st.sampled_from(of_kind(kind)), "state")
    player = data.draw(st.sampled_from(sorted(s.phase.actors)), "player")
    keys = FORM_KEYS[kind]
    orders: dict[str, Any] = data.draw(st.dictionaries(st.sampled_from(keys), value,
                                                       max_size=len(keys)), "form")
    if kind == "act" and data.draw(st.booleans(), "real actions?"):
        do = data.draw(st.sampled_from(sorted(actions.ACTIONS)), "do")
        required, optional = actions.ACTIONS[do]
        fields = data.draw(st.dictionaries(st.sampled_from([*required, *optional]), value),
                           "fields")
        orders["actions"] = [{"do": do, **fields}]
    elif kind == "deploy" and data.draw(st.booleans(), "named places?"):
        orders = {"troops": [{"territory": data.draw(name), "count": data.draw(number)}],
                  "fleets": [{"sea": data.draw(name), "count": data.draw(number)}]}
    elif data.draw(st.booleans(), "mutate?"):
        orders = _mutate(data, _form(kind, s, player), wild=True)
    problems = RULESET.validate(s.state, s.phase, player, orders)
    assert all(isinstance(p, Problem) for p in problems)
    if problems:
        return
    for note in RULESET.provisional(s.state, s.phase, player, orders):
        assert isinstance(note, Problem)
    everyone = {p: (orders if p == player else copy.deepcopy(_form(kind, s, p)))
                for p in s.phase.actors}
    RULESET.resolve(copy.deepcopy(s.state), s.phase, everyone, rng("fuzz", s.phase.id))


def _finite(x: Any) -> bool:
    return not isinstance(x, float) or math.isfinite(x)


@settings(SETTINGS, max_examples=examples(120))
@given(st.data())
def test_issue12_fuzz_bid_form_gives_problems_never_an_exception(data: st.DataObject) -> None:
    _fuzz("bid", data)


@settings(SETTINGS, max_examples=examples(120))
@given(st.data())
def test_issue12_fuzz_deploy_form_gives_problems_never_an_exception(data: st.DataObject
                                                                    ) -> None:
    _fuzz("deploy", data)


@settings(SETTINGS, max_examples=examples(80))
@given(st.data())
def test_issue12_fuzz_upkeep_form_gives_problems_never_an_exception(data: st.DataObject
                                                                    ) -> None:
    _fuzz("upkeep", data)


@settings(SETTINGS, max_examples=examples(200))
@given(st.data())
def test_issue12_fuzz_act_form_gives_problems_never_an_exception(data: st.DataObject) -> None:
    _fuzz("act", data)

"""Issue 12 §1 and §3 for Mythology, by property: what ``validate`` accepts is never skipped
as illegal when it runs unless ``provisional`` said so in the receipt, and no value in any
key of any form makes ``validate`` or ``resolve`` raise.

The states are real: the bots play three short games through the rules functions (a plain
one, one with Optional Rules 302 and 303, one with a Zeus player, 301), and every phase they
reach is kept. Hypothesis runs derandomized, with bounded examples.
"""

from __future__ import annotations

import copy
import datetime
import hashlib
import marshal
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from functools import cache
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import JOIN_PHASE, PhaseSpec
from pbem.games.mythology import moving
from pbem.games.mythology.components import HERO_IDS, MONSTER_IDS, load
from pbem.games.mythology.game import RULESET
from pbem.games.mythology.rules import unit_hex
from tests.budget import examples

State = dict[str, Any]
C = load()
GAMES: tuple[tuple[str, int, dict[str, str]], ...] = (
    ("plain", 3, {}),
    ("optional", 4, {"lesser_evil": "on", "prayer": "on"}),
    ("zeus", 5, {"zeus": "g5"}))
LAST_TURN = 4  # enough for varied boards, Hercules' remorse, ships, cards and powers


def _stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"mythology-fuzz/{label}".encode()).digest())


def _rng(label: str) -> Rng:
    return Rng(_stream(f"public/{label}"), _stream(f"sealed/{label}"))


@cache
def snapshots() -> tuple[tuple[State, PhaseSpec], ...]:
    """(state, phase) at the opening of every phase the bots reach in :data:`GAMES`."""
    out: list[tuple[State, PhaseSpec]] = []
    for name, players, options in GAMES:
        seats = tuple(f"g{i}" for i in range(1, players + 1))
        state = RULESET.setup(seats, {"setup": "random", **options}, {},
                              _rng(f"setup/{name}")).state
        while (phase := RULESET.next_phase(state)) is not None and state["turn"] <= LAST_TURN:
            out.append((copy.deepcopy(state), phase))
            orders = {p: RULESET.bot_orders(RULESET.view(state, p), phase, p,
                                            _stream(f"bot/{name}/{phase.id}/{p}"))
                      for p in phase.actors}
            state = RULESET.resolve(state, phase, orders, _rng(f"{name}/{phase.id}")).state
    return tuple(out)


def of_kind(kind: str) -> list[tuple[State, PhaseSpec]]:
    return [(s, p) for s, p in snapshots() if p.kind == kind]


# --- §1: accepted orders are never skipped unless the receipt said so ---------------------------

#: The events by which resolution voids an order, by the Phase method that runs the order.
VOID = {"play": {"effect-void"}, "activate": {"occurrence-void"},
        "attempt": {"attempt-void", "move-stopped", "ship-void", "ship-kept"},
        "move_lesser": {"lesser-void", "move-stopped"}, "fight": {"combat-void"},
        "capture": {"capture-void"}}


def voided_orders(state: State, phase: PhaseSpec, orders: dict[str, Any],
                  key: str) -> list[tuple[str, str]]:
    """Resolve the phase; (order, event text) for every order the resolution voided."""
    found: list[tuple[str, str]] = []

    def wrap(method: str) -> Callable[..., None]:
        original = getattr(moving.Phase, method)

        def run(self: moving.Phase, *args: Any) -> None:
            order = args[-1]
            before = len(self.events)
            original(self, *args)
            for e in self.events[before:]:
                if e.get("type") not in VOID[method]:
                    continue
                unit = getattr(order, "unit", None)
                if method == "attempt" and unit not in (e.get("unit"), e.get("hero")):
                    continue  # about another unit (an interception on the way)
                found.append((order.where, e["text"]))
        return run

    with ExitStack() as stack:
        for method in VOID:
            stack.enter_context(mock.patch.object(moving.Phase, method, wrap(method)))
        RULESET.resolve(copy.deepcopy(state), phase, {phase.active or "": orders},
                        _rng(f"resolve/{key}"))
    return found


def _walk(data: st.DataObject, start: str, longest: int) -> list[str]:
    """A path of neighbouring hexes from ``start``, now and then broken on purpose."""
    path: list[str] = []
    here = start
    for _ in range(data.draw(st.integers(0, longest))):
        if here not in C.map.hexes or data.draw(st.integers(0, 9)) == 0:
            here = data.draw(st.sampled_from(["9999", "0109", "3111", "3112", "2908"]))
        else:
            here = data.draw(st.sampled_from(sorted(C.map.neighbours(here))))
        path.append(here)
    return path


def mutated_orders(data: st.DataObject, state: State, phase: PhaseSpec) -> dict[str, Any]:
    """The bot's orders, changed: other units, other paths, ships, drops, combats and
    captures among the units on the board, cards, powers and occurrences."""
    player = phase.active or ""
    orders = RULESET.bot_orders(RULESET.view(state, player), phase, player,
                                _stream(f"mutate/{phase.id}"))
    on_board = sorted(u for u in (*HERO_IDS, *MONSTER_IDS, *C.lesser) if unit_hex(state, u))
    heroes = [u for u in on_board if u in HERO_IDS]
    attempts = list(orders.get("attempt", []))
    for _ in range(data.draw(st.integers(0, 3))):
        unit = data.draw(st.sampled_from([u for u in on_board if u <= 64] or [1]))
        start = unit_hex(state, unit) or "3011"
        items = sorted(C.helpers)[:3] + sorted(C.prizes)[:2]
        entry: dict[str, Any] = {
            "unit": unit, "bid": data.draw(st.integers(0, 12)),
            "path": _walk(data, start, 4),
            "ship": data.draw(st.sampled_from(["", "", "", "start", "end"])),
            "leave_ship": data.draw(st.sampled_from([False, False, False, True])),
            "drop": data.draw(st.lists(st.sampled_from(items), max_size=1))}
        attempts.insert(data.draw(st.integers(0, len(attempts))), entry)
    if len(attempts) > 0 and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(attempts) - 1))
        start = unit_hex(state, attempts[i]["unit"]) or "3011"
        attempts[i] = {**attempts[i], "path": _walk(data, start, 5)}
    if attempts:
        orders["attempt"] = attempts[:6]
    ends = {a["unit"]: (a["path"][-1] if a["path"] else unit_hex(state, a["unit"]))
            for a in attempts}
    fights = list(orders.get("combat", []))
    for _ in range(data.draw(st.integers(0, 2))):
        a = data.draw(st.sampled_from(sorted(ends) or on_board or [1]))
        near = [u for u in on_board if u != a and (ends.get(u) or unit_hex(state, u)) ==
                (ends.get(a) or unit_hex(state, a))]
        d = data.draw(st.sampled_from(near or on_board or [2]))
        fights.append({"attacker": a, "defender": d, "magic": data.draw(st.booleans())})
    if fights:
        orders["combat"] = fights
    prize_hexes = {x["hex"] for x in state["prizes"].values() if x["hex"]}
    takers = sorted(h for h in heroes if (ends.get(h) or unit_hex(state, h)) in prize_hexes)
    if data.draw(st.booleans()):
        orders["capture"] = [{"hero": data.draw(st.sampled_from(takers or heroes or [1])),
                              "remove": data.draw(st.booleans())}
                             for _ in range(data.draw(st.integers(1, 2)))]
    god = C.gods[state["gods"][player]]
    if data.draw(st.integers(0, 3)) == 0:
        orders["power"] = [{"id": data.draw(st.sampled_from([p.id for p in god.powers])),
                            "unit": data.draw(st.sampled_from(on_board or [0])),
                            "area": data.draw(st.sampled_from(["", "greece", "Egypt"]))}]
    if data.draw(st.integers(0, 3)) == 0:
        orders["card"] = {"section": data.draw(st.sampled_from(["god", "event"])),
                          "unit": data.draw(st.sampled_from(on_board or [0]))}
    if data.draw(st.integers(0, 3)) == 0:
        orders["activate"] = [{"code": data.draw(st.sampled_from(["E", "T", "V", "Pe", "F"])),
                               "hex": data.draw(st.sampled_from(
                                   [unit_hex(state, u) for u in heroes] or ["3011"]))}]
    if "lesser" in orders and data.draw(st.booleans()):
        orders["lesser"] = [{**m, "path": _walk(data, unit_hex(state, m["unit"]), 3)}
                            for m in orders["lesser"]]
    return orders


WHERE = re.compile(r"\[+orders\.?([a-z]*)\]+(?: #(\d+))?")


def pruned(state: State, phase: PhaseSpec, orders: dict[str, Any]) -> dict[str, Any]:
    """``orders`` less each order ``validate`` names, again until it accepts what is left:
    random orders become accepted ones, from every corner the mutations reach."""
    orders = copy.deepcopy(orders)
    for _ in range(8):
        problems = RULESET.validate(state, phase, phase.active or "", orders)
        if not problems:
            break
        drop: dict[str, set[int]] = {}
        for p in problems:
            m = WHERE.match(p.where)
            key = m.group(1) if m else ""
            if key in orders and isinstance(orders[key], list) and m and m.group(2):
                drop.setdefault(key, set()).add(int(m.group(2)) - 1)
            elif key == "attempt":
                orders[key] = orders[key][:5]
            else:
                orders.pop(key or next(iter(orders)), None)
        for key, gone in drop.items():
            orders[key] = [x for i, x in enumerate(orders[key]) if i not in gone]
    return orders


@settings(max_examples=examples(100), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_accepted_moves_are_never_skipped_unless_the_receipt_said_so(data: st.DataObject) -> None:
    """Issue 12 §1: a Moving Player's order that ``validate`` accepts is voided at resolution
    (attempt-void, move-stopped, ship-void, combat-void, capture-void, ...) only if
    ``provisional`` named that order, whatever the board and the dice."""
    moves = of_kind("move")
    state, phase = moves[data.draw(st.integers(0, len(moves) - 1))]
    orders = mutated_orders(data, state, phase)
    player = phase.active or ""
    orders = pruned(state, phase, orders)
    before = marshal.dumps(state)
    # The engine's submit path (Ruleset.check, one walk) says what the two calls say.
    problems, later = RULESET.check(state, phase, player, orders)
    assert problems == RULESET.validate(state, phase, player, orders)
    # The review reads the state it is given (a submit check's is shared with the reports:
    # engine.load_state); only cards and powers played are tried on a copy.
    assert marshal.dumps(state) == before
    if problems:
        assert later == []
        return
    assert later == RULESET.provisional(state, phase, player, orders)
    flagged = {p.where for p in later}
    for key in range(2):
        skipped = [(where, text) for where, text in voided_orders(
            state, phase, orders, f"{phase.id}/{data.draw(st.integers(0, 999))}/{key}")
            if where not in flagged]
        assert not skipped, (phase.id, orders, skipped)


@settings(max_examples=examples(40), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_204_review_leaves_the_state_it_reads_unchanged(data: st.DataObject) -> None:
    """The Moving Player's review (Ruleset.check at submit, validate at adjudication) reads
    the state it is given, which at submit is shared with every report: only cards and powers
    played are tried on a copy. A Turn's first move comes before any card made the effect
    book (cards.effects), which a review must not create."""
    moves = of_kind("move")
    state, phase = moves[data.draw(st.integers(0, len(moves) - 1))]
    state = copy.deepcopy(state)
    if data.draw(st.booleans()):
        state["turn_effects"].pop("cards", None)
    orders = mutated_orders(data, state, phase)
    before = marshal.dumps(state)
    RULESET.check(state, phase, phase.active or "", orders)
    assert marshal.dumps(state) == before


def test_the_property_sees_accepted_orders_of_every_kind() -> None:
    """The bots' own orders (accepted) cover attempts, combats and captures, so the property
    above is about real orders, not only rejected ones."""
    kinds: set[str] = set()
    for state, phase in of_kind("move"):
        player = phase.active or ""
        orders = RULESET.bot_orders(RULESET.view(state, player), phase, player,
                                    _stream(f"mutate/{phase.id}"))
        assert RULESET.validate(state, phase, player, orders) == [], (phase.id, orders)
        kinds |= {k for k, v in orders.items() if v}
    assert {"attempt", "combat"} <= kinds


# --- §3: no value in any key raises ---------------------------------------------------------------

SCALARS = st.one_of(
    st.booleans(), st.integers(-(2**63), 2**63 - 1), st.sampled_from([10**30, -(10**30), 0, -1]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["", "Egypt", "EGYPT", "greece", "3011", "9999", "0109", "hera", "Hera",
                     "24", "god", "event", "start", "END", "E", "pe", "V", "card", "combat",
                     "power:rout", "challenge", "full", "none", "defense+20", "g1", "G2",
                     "aegis", "\u202e\u200b", "\x00", "ünïcödé", "x" * 300]),
    st.datetimes(min_value=datetime.datetime(1, 1, 1), max_value=datetime.datetime(9999, 1, 1)),
    st.dates())
SUBKEYS = ("section", "unit", "area", "gods", "id", "code", "hex", "bid", "path", "ship",
           "leave_ship", "drop", "attacker", "defender", "magic", "hero", "remove", "points",
           "limit", "min_total", "what", "when", "target", "glory", "helpers", "prizes",
           "player", "index", "result", "during", "god", "12", "40", "6", "x")


def values(keys: tuple[str, ...]) -> st.SearchStrategy[Any]:
    return st.recursive(SCALARS, lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(keys) | st.text(max_size=6), inner, max_size=5)),
        max_leaves=8)


def form(keys: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    """An ``[orders]`` table: the form's keys (and strangers), each with any TOML value, or a
    list of tables with the keys the form's tables have."""
    table = st.dictionaries(st.sampled_from(SUBKEYS), values(SUBKEYS), max_size=6)
    return st.dictionaries(st.sampled_from(keys) | st.text(max_size=6),
                           values(SUBKEYS) | st.lists(table, max_size=4), max_size=len(keys))


FORMS = {
    "logsheet": ("card", "area", "heroes", "monsters", "occurrences", "aid", "ailment", "zeus",
                 "challenge", "use", "intercept", "oracle", "prayer", "sacrifice", "bribe"),
    "zeus": ("favor", "protect", "revive", "bolt"),
    "place": ("area",),
    "move": (*moving.KEYS, moving.LESSER_KEY),
    "fate": ("x",),
}


def phases_of(kind: str) -> Iterator[tuple[State, PhaseSpec]]:
    yield from of_kind(kind)[:6]


def check_never_raises(kind: str, data: st.DataObject) -> None:
    found = of_kind(kind)
    state, phase = found[data.draw(st.integers(0, len(found) - 1))]
    orders = data.draw(form(FORMS[kind]))
    player = phase.active or (phase.actors[0] if phase.actors else "")
    problems = RULESET.validate(state, phase, player, orders)
    assert all(isinstance(p.message, str) for p in problems)
    if problems:
        return
    RULESET.provisional(state, phase, player, orders)
    given_orders = {p: (orders if p == player else {}) for p in phase.actors}
    RULESET.resolve(copy.deepcopy(state), phase, given_orders, _rng(f"fuzz/{phase.id}"))


FUZZ = settings(max_examples=examples(40), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(data=st.data())
def test_fuzz_join_never_raises(data: st.DataObject) -> None:
    orders = data.draw(form(("entropy", "motto", "god")))
    RULESET.validate_join("g1", orders)
    assert RULESET.join_phase(("g1", "g2")).id == JOIN_PHASE


@FUZZ
@given(data=st.data())
def test_fuzz_logsheet_never_raises(data: st.DataObject) -> None:
    check_never_raises("logsheet", data)


@FUZZ
@given(data=st.data())
def test_fuzz_zeus_never_raises(data: st.DataObject) -> None:
    check_never_raises("zeus", data)


@FUZZ
@given(data=st.data())
def test_fuzz_place_never_raises(data: st.DataObject) -> None:
    check_never_raises("place", data)


@settings(max_examples=examples(80), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_fuzz_move_never_raises(data: st.DataObject) -> None:
    check_never_raises("move", data)


@FUZZ
@given(data=st.data())
def test_fuzz_fate_never_raises(data: st.DataObject) -> None:
    check_never_raises("fate", data)


def test_every_phase_kind_is_fuzzed() -> None:
    kinds = {p.kind for _, p in snapshots()}
    assert kinds == set(FORMS), kinds

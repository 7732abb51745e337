"""Foreseen problems (:attr:`pbem.core.errors.Problem.foreseen`) in Mythology.

``validate`` refuses at submit every Moving Player's order that resolution would skip (a path
too long, a combat in another hex, a capture with no Prize...), so that a typo never costs a
turn. An older pbem accepted some of them; the engine re-runs ``validate`` when it adjudicates
and audits, and must not refuse them there. So each problem of the position whose order
``resolve`` handles safely, saying so in a void event (or leaving out a part that cannot
apply), is foreseen; the shape, type and name problems of ``parse`` never are.
"""

from __future__ import annotations

import copy
import hashlib
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import games
from pbem.core import armor, audit, engine, keys, ledger
from pbem.core import campaign as campaign_mod
from pbem.core import orders as orders_mod
from pbem.core.errors import IllegalOrderError
from pbem.core.ruleset import PhaseSpec
from pbem.games.mythology import movement
from pbem.games.mythology.game import RULESET
from pbem.games.mythology.rules import Board, sheet, unit_hex
from tests.budget import examples
from tests.conftest import Table, seeded_key
from tests.mythology.scenario import (
    HERCULES,
    INLAND_2,
    INLAND_3,
    SOW,
    C,
    State,
    of_type,
    put,
    quiet_scene,
    run,
)
from tests.mythology.test_fuzz import WHERE, _rng, mutated_orders, of_kind, voided_orders


def _scene() -> tuple[State, str, PhaseSpec]:
    """Hercules in 3011 (the first player's), the Sow in Macedonia; no god halts or closes."""
    return quiet_scene({HERCULES: 3})


# --- which problems are foreseen -------------------------------------------------------------


def test_position_problems_resolution_skips_are_foreseen() -> None:
    """A path too long, a combat between units in different hexes, a capture with no Prize,
    an occurrence not plotted, a card never placed: refused at submit, all foreseen."""
    state, ann, phase = _scene()
    orders = {"attempt": [{"unit": HERCULES, "bid": 1, "path": [INLAND_2, INLAND_3, "3008"]}],
              "combat": [{"attacker": HERCULES, "defender": SOW}],
              "capture": [{"hero": HERCULES}],
              "activate": [{"code": "E"}],
              "card": {"section": "god", "unit": HERCULES}}
    problems = RULESET.validate(state, phase, ann, orders)
    wheres = {p.where.split(" ")[0] for p in problems}
    assert {"[[orders.attempt]]", "[[orders.combat]]", "[[orders.capture]]",
            "[[orders.activate]]", "[orders.card]"} <= wheres, problems
    assert all(p.foreseen for p in problems), [str(p) for p in problems if not p.foreseen]


def test_shape_type_and_name_problems_are_never_foreseen() -> None:
    state, ann, phase = _scene()
    orders = {"attempt": [{"unit": "six", "path": []}, {"unit": HERCULES, "path": "3010"},
                          {"unit": HERCULES, "path": [], "leave_ship": "yes"}],
              "combat": [{"attacker": SOW, "defender": SOW}],
              "capture": [{"hero": 40}], "activate": [{"code": "Q"}],
              "card": {"section": "both"}, "power": [{"id": "no-such-power"}], "moves": []}
    problems = RULESET.validate(state, phase, ann, orders)
    assert len(problems) >= 9, problems
    assert not any(p.foreseen for p in problems), [str(p) for p in problems if p.foreseen]


def test_more_than_five_attempts_stays_a_hard_problem() -> None:
    """Resolution drops the attempts past the fifth without a word, and every version of
    ``validate`` refused them: not foreseen."""
    state, ann, phase = _scene()
    heroes = [1, 3, 4, 5, 7, 9]
    for i, h in enumerate(heroes):
        put(state, h, ["3011", "3010", "3009", "2911", "2910", "2909"][i])
    orders = {"attempt": [{"unit": h, "path": []} for h in heroes]}
    problems = RULESET.validate(state, phase, ann, orders)
    assert [(p.where, p.foreseen) for p in problems] == [("[[orders.attempt]]", False)]


def test_204_G_path_too_long_is_stopped_by_resolution_as_it_said() -> None:
    """What a foreseen problem promises: the order, run anyway, is stopped with an event."""
    state, ann, phase = _scene()
    orders = {"attempt": [{"unit": HERCULES, "bid": 1, "path": [INLAND_2, INLAND_3, "3008"]}]}
    [problem] = RULESET.validate(state, phase, ann, orders)
    assert problem.foreseen and "moves 3 hexes" in problem.message
    outcome = run(state, orders)
    [stopped] = of_type(outcome, "move-stopped")
    assert stopped["unit"] == HERCULES and "moves 3 hexes" in stopped["text"]
    assert unit_hex(outcome.state, HERCULES) == INLAND_3  # the two legal steps stand


# --- by property: foreseen problems never break resolution -----------------------------------

#: Foreseen problems whose order resolution surely voids, whatever the dice and other gods.
CERTAIN = re.compile(r"is not on the board|is already attempted by|is already moved by this "
                     r"order|no card face down|is plotted on your Log Sheet")


def test_orders_refused_only_for_foreseen_problems_resolve_safely() -> None:
    """Mutated orders (:mod:`tests.mythology.test_fuzz`) whose every problem is foreseen, run
    as an older pbem would have run them: resolution never raises, gives the same outcome
    twice, keeps the game's invariants, and voids each order it surely must, naming it."""
    found: list[str] = []
    certain: list[str] = []

    @settings(max_examples=examples(60), deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        moves = of_kind("move")
        state, phase = moves[data.draw(st.integers(0, len(moves) - 1))]
        orders = mutated_orders(data, state, phase)
        player = phase.active or ""
        problems = RULESET.validate(state, phase, player, orders)
        if not problems or not all(p.foreseen for p in problems):
            return
        found.append(phase.id)
        key = f"foreseen/{phase.id}/{data.draw(st.integers(0, 999))}"
        outcomes = [RULESET.resolve(copy.deepcopy(state), phase, {player: orders}, _rng(key))
                    for _ in range(2)]
        assert outcomes[0].events == outcomes[1].events
        assert outcomes[0].state == outcomes[1].state
        o = outcomes[0]
        assert RULESET.invariants(state, o.state, o.events, o.private) == []
        voided = {where for where, _ in voided_orders(state, phase, orders, key)}
        for p in problems:
            m = WHERE.match(p.where)
            if CERTAIN.search(p.message) and m:
                order = m.group(0)
                assert order in voided, (phase.id, orders, str(p), voided)
                certain.append(order)

    check()
    assert len(found) >= 10, found  # the property is about many orders, not none
    assert certain, "no order that resolution surely voids was refused"


# --- end to end: an order an older pbem accepted --------------------------------------------


def _campaign(root: Path) -> Table:
    gm = seeded_key("gm")
    player_keys = {p: seeded_key(p) for p in ("alice", "bob")}
    key_dir = root.parent / f"{root.name}-keys"
    key_dir.mkdir(parents=True)
    keys.write_keypair(key_dir / "gm", gm)
    campaign_mod.create(
        root, games.get("mythology"), campaign_id="foreseen", gm_key=gm,
        gm_key_path=str(key_dir / "gm"),
        players={p: k.public_key().public_bytes_raw() for p, k in player_keys.items()},
        options={}, chain_length=64,
        heads=(hashlib.sha256(b"s-head").digest(), hashlib.sha256(b"t-head").digest()))
    return Table(root, campaign_mod.open_campaign(root, games.get), gm, player_keys)


def _too_long(state: State, phase: PhaseSpec, player: str) -> dict[str, Any]:
    """An attempt whose only problem is a path one hex too long (204 G), for a Hero nobody
    challenges, so that resolution surely runs it and stops it."""
    board = Board(C)
    others = [p for p in state["seats"] if p != player]
    challenged = {ch.unit for p in others for ch in sheet(state, p).challenges}
    for hero in sorted(int(h) for h, x in state["heroes"].items() if x["status"] == "board"):
        start = unit_hex(state, hero)
        if hero in challenged or hero in state["ships"]:
            continue
        mover = movement.Mover(hero, "hero", start, 4)
        paths = [[a, b, c] for a in sorted(board.neighbours(start))
                 for b in sorted(board.neighbours(a)) for c in sorted(board.neighbours(b))]
        path = next((p for p in paths if len(set(p) | {start}) == 4
                     and not movement.check_path(board, mover, p, "x")), None)
        if path is None:
            continue
        orders = {"attempt": [{"unit": hero, "bid": 0, "path": path}]}
        problems = RULESET.validate(state, phase, player, orders)
        if len(problems) == 1 and "moves 3 hexes" in problems[0].message:
            return orders
    raise AssertionError("no Hero on the board can be given a path one hex too long")


def test_204_G_order_accepted_by_an_older_pbem_is_adjudicated_and_audits(
        tmp_path: Path) -> None:
    table = _campaign(tmp_path / "camp")
    c = table.campaign
    while (opened := engine.open_phase(c))[2] is not None and opened[2].kind != "move":
        table.play_phases(1)
    _, state, phase = engine.open_phase(c)
    assert state is not None and phase is not None and phase.active is not None
    player = phase.active
    orders = _too_long(state, phase, player)
    hero = orders["attempt"][0]["unit"]
    text = table.signed(player, orders)

    # This pbem refuses it at submit, with a foreseen problem.
    result = table.submit(text)
    [error] = result.errors
    assert isinstance(error, IllegalOrderError)
    assert [p.foreseen for p in error.problems] == [True], error.render()
    assert "moves 3 hexes" in error.render()
    assert engine.pending_orders(c, phase) == {}

    # An older pbem accepted it: the same signed file, pending as it would have left it.
    [block] = armor.extract(text, "older.txt")
    order = orders_mod.parse(block, "older.txt")
    orders_mod.check_signature(order, c.signers, "older.txt")
    engine._make_pending(c, phase, order, result.inbox.name, "older.txt", "")
    assert set(engine.pending_orders(c, phase)) == {player}

    [seq, *_] = table.adjudicate()
    record = ledger.load((c.ledger_dir / ledger.record_name(seq)).read_bytes())
    assert record["phase"] == phase.id
    stopped = [e for e in record["events"] if e.get("type") == "move-stopped"
               and e.get("unit") == hero]
    assert stopped and "moves 3 hexes" in stopped[0]["text"], record["events"]
    assert player in record["orders"]

    checked = audit.audit(table.reopen())
    assert checked.records == ledger.count(c.ledger_dir) and checked.replayed

"""Issue 17: every order `validate` accepts is legal when it runs, unless it depends on what
happens earlier in the same phase, and then the receipt said so (`Ruleset.check`'s second
list). Whole bot games at the ruleset level: whenever a phase's resolution skips part of the
accepted orders, the receipt of those orders carried a note."""

from __future__ import annotations

import hashlib

from pbem.core.dice import Rng, Stream
from pbem.games.deukalion.game import RULESET

SKIPS = {"skip", "step-skipped", "play-skipped"}


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"deuk-foreseen/{label}".encode()).digest())


def test_accepted_orders_run_or_the_receipt_said_why() -> None:
    skipped_with_note = 0
    for players, seed in [(2, "a"), (3, "b"), (4, "c"), (4, "d")]:
        skipped_with_note += _game(players, seed)
    assert skipped_with_note > 0  # the games do reach orders that are skipped when they run


def _game(players: int, seed: str) -> int:
    names = ("alice", "bob", "carol", "dave")[:players]
    state = RULESET.setup(names, {}, {}, Rng(stream(f"{seed}/p"),
                                                         stream(f"{seed}/s"))).state
    skipped_with_note = phases = 0
    for k in range(400):
        spec = RULESET.next_phase(state)
        if spec is None:
            break
        given, noted = {}, {}
        for p in spec.actors:
            orders = RULESET.bot_orders(RULESET.view(state, p), spec, p,
                                        stream(f"{seed}/bot/{k}/{p}"))
            problems, notes = RULESET.check(state, spec, p, orders)
            assert not problems, (spec.id, problems)
            given[p], noted[p] = orders, notes
        out = RULESET.resolve(state, spec, given,
                              Rng(stream(f"{seed}/p/{k}"), stream(f"{seed}/s/{k}")))
        for p in spec.actors:
            skips = [e for e in out.events if e["type"] in SKIPS and e.get("player") == p]
            if skips:
                assert noted[p], (spec.id, given[p], skips)
                skipped_with_note += 1
        phases += 1
    assert state["step"] == "over" and phases > 4 * players
    return skipped_with_note

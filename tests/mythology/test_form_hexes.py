"""Issue 14 for Mythology: the move form names, for each of the player's Heroes on the board,
the hexes next to it (204 E), so the first step of a path needs no reading of the map."""

from __future__ import annotations

import re

from pbem.games.mythology.game import RULESET
from tests.mythology.test_campaigns import _rng, _stream


def test_14_the_move_form_lists_the_hexes_next_to_each_of_your_heroes() -> None:
    names = ("g1", "g2", "g3")
    state = RULESET.setup(names, {"setup": "random"}, {}, _rng("form-hexes")).state
    checked = 0
    for _ in range(200):
        phase = RULESET.next_phase(state)
        assert phase is not None
        if phase.kind == "move":
            player = phase.actors[0]
            form = RULESET.order_form(RULESET.view(state, player), phase, player)
            text = " ".join(line.lstrip("# ").strip() for line in form.splitlines()
                            if line.startswith("#"))
            for hero, hexid, near in re.findall(
                    r"(\d+) [A-Za-z' ]+ at (\d{4}) \(next to ([\d, ]+)\)", text):
                assert near.split(", ") == list(RULESET.c.map.neighbours(hexid)), hero
                checked += 1
            if checked >= 3:
                return
        orders = {p: RULESET.bot_orders(RULESET.view(state, p), phase, p,
                                        _stream(f"form-hexes/{phase.id}/{p}"))
                  for p in phase.actors}
        state = RULESET.resolve(state, phase, orders, _rng(f"form-hexes/{phase.id}")).state
    raise AssertionError(f"only {checked} Heroes with their neighbours in the move forms")

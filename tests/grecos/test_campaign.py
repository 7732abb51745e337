"""Issue 16: `pbem demo grecos --players N` plays a whole game through the real sign, submit and
adjudicate path and audits it: 2 players here, 3 in the golden playthrough
(tests/grecos/test_golden.py) and the report tests' demo; every N from 2 to 6 is played,
audited and checked for secrecy and the game's invariants by `.ci/run`'s `pbem simulate
grecos --games 10` (the suite's time budget)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("players", (2,))
def test_demo_plays_and_audits_a_whole_game(players: int, tmp_path: Path) -> None:
    result = demo.run(games.get("grecos"), tmp_path / "d", players=players, seed="n",
                      options={}, resolve=games.get, with_reports=False)
    assert result.records > 2 * players  # at least one round of two phases a turn
    assert result.result["winners"] and set(result.result["score"]) == set(
        demo.NAMES[:players])

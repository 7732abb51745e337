"""Issue 17: `pbem demo deukalion --players N` plays a whole game through the real sign, submit
and adjudicate path and audits it: 2 players here, 4 in the golden playthrough
(tests/deukalion/test_golden.py), 3 in the report tests' demo; every N is also played, audited
and checked for secrecy and invariants by `.ci/run`'s `pbem simulate deukalion`."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("players", (2,))
def test_demo_plays_and_audits_a_whole_game(players: int, tmp_path: Path) -> None:
    result = demo.run(games.get("deukalion"), tmp_path / "d", players=players, seed="n",
                      options={}, resolve=games.get, with_reports=False)
    assert result.records > 4 * players
    assert result.result["winners"] and set(result.result["score"]) == set(
        demo.NAMES[:players])
    winner = result.result["winners"][0]
    assert result.result["score"][winner] >= {2: 16, 3: 14, 4: 12}[players]  # Object 1

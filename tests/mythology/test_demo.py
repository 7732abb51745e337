"""Issue 3: `pbem demo mythology --players N` plays a whole campaign through the real
sign, submit and adjudicate path and audits it, for every N from 2 to 10."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("players", range(2, 11))
def test_demo_plays_and_audits_a_whole_game(players: int, tmp_path: Path) -> None:
    result = demo.run(games.get("mythology"), tmp_path / "d", players=players, seed="n",
                      options={}, resolve=games.get, with_reports=False)
    assert result.records > 15 * (1 + 2 * players)  # fifteen turns of phases
    assert set(result.result["score"]) == set(demo.NAMES[:players])

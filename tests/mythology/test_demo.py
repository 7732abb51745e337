"""Issue 3: `pbem demo mythology --players N` plays a whole campaign through the real
sign, submit and adjudicate path and audits it: the smallest table and a middle one. The rules
for every N from 2 to 10 are played whole, twice each, with every invariant checked at every
phase, by tests/mythology/test_campaigns.py's sweep; the real path around them (keys,
signatures, ledger, audit) is the same code whatever N. Playing it for each of the nine took
about 40 s of the suite's 4-minute budget (issue 14's browser checks needed it), and the
ten-player demo (11 s) went to `.ci/run` when issue 15 and 16 added two games: its
`pbem simulate mythology --games 9 --seed ci-sweep` plays every N from 2 to 10 through the
same real path, audited."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("players", (2, 5))
def test_demo_plays_and_audits_a_whole_game(players: int, tmp_path: Path) -> None:
    result = demo.run(games.get("mythology"), tmp_path / "d", players=players, seed="n",
                      options={}, resolve=games.get, with_reports=False)
    assert result.records > 15 * (1 + 2 * players)  # fifteen turns of phases
    assert set(result.result["score"]) == set(demo.NAMES[:players])

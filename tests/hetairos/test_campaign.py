"""Issue 18: `pbem demo hetairos --option scenario=NAME` plays each playable scenario through
the real sign, submit and adjudicate path and audits it, at the fewest players it takes (one
for the co-op lists), in short campaigns; the golden playthroughs play one scenario of each
list at 3 or 4, and `.ci/run`'s `pbem simulate hetairos` whole ones at every table size."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo
from pbem.games.hetairos import scenario, scenarios
from pbem.games.hetairos.table import load

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("scen", sorted(scenario.by_option(load())))
def test_demo_plays_and_audits_each_scenario(scen: str, tmp_path: Path) -> None:
    rules = scenarios.get(scenario.by_option(load())[scen])
    players = next(n for n in range(1, 11) if not rules.players_problem(n))  # the fewest
    players = next(n for n in range(players, 11)  # Team 5, 6: teams of two need 4
                   if not scenarios.get(scenario.by_option(load())[scen]).players_problem(n))
    result = demo.run(games.get("hetairos"), tmp_path / "d", players=players, seed=scen,
                      options={"scenario": scen, "rounds": "3"}, resolve=games.get,
                      with_reports=False)
    assert result.records > players + 1  # the join and at least a round of turns
    assert result.result["why"]  # it ended: won, lost, or at the round limit
    assert set(result.result["score"]) == set(demo.NAMES[:players])

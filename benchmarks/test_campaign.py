"""Whole bot campaigns and single phases of each game (issue 6).

A whole campaign is ``pbem demo``'s work: bots fill and sign every form with their own keys,
the engine checks and adjudicates every phase and signs the ledger, every player's report and
the gazette of every record are rendered, and the final audit re-adjudicates everything.
With ``--benchmark-disable`` (the CI smoke run) the sizes shrink, to keep the code working.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.core import demo, engine, ledger
from pbem.core.campaign import open_campaign

WHOLE = [("mythology", 6), ("conformance", 4), ("cyclades", 4)]
ALL_CORES = os.cpu_count() or 1


def _smoke(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("benchmark_disable"))


@pytest.mark.parametrize(("game", "players", "jobs"), [
    *((game, players, ALL_CORES) for game, players in WHOLE), ("mythology", 6, 1)])
def test_whole_campaign_with_reports(benchmark: Any, request: pytest.FixtureRequest,
                                     game: str, players: int, jobs: int) -> None:
    """As ``pbem demo`` plays it: on every core (the reports are rendered by the other
    processes while the game goes on), and for Mythology on one core too."""
    if _smoke(request):
        players = 2
    made: list[Path] = []

    def setup() -> tuple[tuple[Path], dict[str, Any]]:
        made.append(Path(tempfile.mkdtemp(prefix="pbem-bench-")))
        return (made[-1] / "game",), {}

    def play(root: Path) -> None:
        demo.run(games.get(game), root, players=players, seed="bench", options={},
                 resolve=games.get, with_reports=True, jobs=jobs)

    try:
        benchmark.pedantic(play, setup=setup, rounds=1 if _smoke(request) else 3)
    finally:
        for path in made:
            shutil.rmtree(path, ignore_errors=True)
    benchmark.extra_info["players"] = players
    benchmark.extra_info["jobs"] = jobs


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for game, players in WHOLE:
        root = tmp_path_factory.mktemp(game) / "g"
        out[game] = demo.run(games.get(game), root, players=min(players, 4), seed="phase",
                             options={}, resolve=games.get, with_reports=False).campaign_dir
    return out


@pytest.mark.parametrize("game", [g for g, _ in WHOLE])
def test_one_phase(benchmark: Any, played: dict[str, Path], game: str) -> None:
    """One phase in the middle of the game re-resolved from its stored state and orders:
    the rules, the dice and the canonical state hash (what adjudicate and audit repeat)."""
    from pbem.core import dice

    campaign = open_campaign(played[game], games.get)
    k = ledger.count(campaign.ledger_dir) // 2
    record = ledger.load((campaign.ledger_dir / ledger.record_name(k)).read_bytes())
    state = engine.load_state(campaign, k - 1)
    phase = campaign.ruleset.next_phase(state) if state is not None else None
    assert phase is not None and phase.id == record["phase"]
    orders_dir = engine.record_dir(campaign, k) / "orders"
    accepted = {p.stem: engine.parse_stored(p.read_text(), str(p))
                for p in sorted(orders_dir.glob("*.txt"))}
    s_head, t_head = campaign.heads()
    n = campaign.chain_length
    s_k, t_k = dice.chain_value(s_head, n, k), dice.chain_value(t_head, n, k)
    prev = ledger.load((campaign.ledger_dir / ledger.record_name(k - 1)).read_bytes())

    def resolve() -> engine.Resolution:
        return engine.resolve_phase(campaign, phase, engine.load_state(campaign, k - 1),
                                    accepted, s_k, t_k, bytes.fromhex(prev["mix"]))

    res = benchmark(resolve)
    assert res.next_phase is None or res.next_phase.id == record["next_phase"]
    benchmark.extra_info["phase"] = phase.id

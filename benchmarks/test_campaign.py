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
#: A memory file system, where there is one: the same work without the disk's file creation.
MEMORY = Path("/dev/shm")
#: Files a campaign of this benchmark creates, about: ~4,000 for Mythology with 6 players.
FILES_CREATED = 1000


def _smoke(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("benchmark_disable"))


@pytest.mark.parametrize(("game", "players", "jobs", "disk"), [
    *((game, players, ALL_CORES, "tmp") for game, players in WHOLE),
    ("mythology", 6, 1, "tmp"), ("mythology", 6, ALL_CORES, "memory"),
    ("mythology", 6, 1, "memory")])
def test_whole_campaign_with_reports(benchmark: Any, request: pytest.FixtureRequest,
                                     game: str, players: int, jobs: int, disk: str) -> None:
    """As ``pbem demo`` plays it: on every core (the reports are rendered by the other
    processes while the game goes on, the final audit is split), and for Mythology on one
    core too. ``tmp`` is the temporary directory (the disk); ``memory`` is a memory file
    system, to tell the code's own cost from the disk's (see test_file_creation)."""
    if disk == "memory" and not MEMORY.is_dir():
        pytest.skip("no memory file system at /dev/shm")
    if _smoke(request):
        players = 2
    made: list[Path] = []

    def setup() -> tuple[tuple[Path], dict[str, Any]]:
        made.append(Path(tempfile.mkdtemp(prefix="pbem-bench-",
                                          dir=MEMORY if disk == "memory" else None)))
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
    benchmark.extra_info["disk"] = disk


def test_file_creation(benchmark: Any) -> None:
    """Creating, writing (3 kB) and closing one new file in the temporary directory, as the
    campaigns above do a few thousand times: on this VM's disk it ranges from about 20 µs to
    about 0.9 ms from one moment (and directory) to the next, which moves their times more
    than any change of the code. Read the campaign times with this one, from the same run."""
    made = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    counter = iter(range(10**9))
    data = b"x" * 3000

    def create() -> None:
        for _ in range(FILES_CREATED):
            fd = os.open(made / f"f{next(counter)}", os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                         0o600)
            os.write(fd, data)
            os.close(fd)

    try:
        benchmark.pedantic(create, rounds=3)
    finally:
        shutil.rmtree(made, ignore_errors=True)
    benchmark.extra_info["files"] = FILES_CREATED


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

"""Issue 20, target 4: ``pbem simulate`` in memory, and its games per second on two cores.

Both benchmarks alternate the two ways they compare inside each round, so the ratio comes
from one run and moves less with this VM's speed (which varies 2-3x from hour to hour, and
with other work on the machine) than the absolute times do. Every run starts from the same
state: a one-process run plays in a forked child of the benchmark process, as a two-process
run plays in two, and the benchmark process plays nothing itself, so no run finds the rules'
caches filled by the games of the run before it.

- Disk against memory: the same Mythology games (4 players, the issue's case) played one at a
  time in the normal temp dir on the disk (what ``pbem simulate`` did before) and in
  :func:`simulate.scratch_dir` (a memory file system where there is one). The system CPU time
  of each is reported too: on the disk most of it is file creation.
- One core against two: the same sixteen Mythology games (2 players) with ``jobs=1`` and
  ``jobs=2``; the target is games per second on two processes at least 1.8x one. The cores
  each run used, and the cores the rest of the machine used meanwhile (``/proc/stat``), are
  reported with it: a ratio measured while other work held a core says little.

The CI smoke run (``--benchmark-disable``) plays two conformance games in each way.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.core import simulate, workers


def _smoke(config: pytest.Config) -> bool:
    return bool(config.getoption("benchmark_disable"))


def _cpu() -> tuple[float, float]:
    """(user, system) CPU seconds of this process and its reaped children."""
    t = os.times()
    return t.user + t.children_user, t.system + t.children_system


def machine_busy() -> float:
    """CPU seconds all processes of the machine have used so far (``/proc/stat``; 0 where
    there is none): what others used during a run is this minus what the run used."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0.0
    # user nice system idle iowait irq softirq steal ...: all but idle and iowait are busy.
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _games(game: str, n: int, players: int, jobs: int, where: Path | None
           ) -> list[simulate.GameReport]:
    return list(simulate.run(game, n, seed="bench", players=players, options={},
                             resolve=games.get, jobs=jobs, where=where))


def _timed(game: str, n: int, players: int, jobs: int, where: Path | None = None
           ) -> dict[str, float]:
    """One run of ``n`` games, timed; ``jobs=1`` plays in a forked child (see above)."""
    (u0, s0), busy, started = _cpu(), machine_busy(), time.perf_counter()
    if jobs == 1:
        pool = workers.fork_pool(1)
        assert pool is not None
        with pool:
            reports = pool.submit(_games, game, n, players, 1, where).result()
    else:
        reports = _games(game, n, players, jobs, where)
    wall = time.perf_counter() - started
    (u1, s1), busy = _cpu(), machine_busy() - busy
    assert len(reports) == n and all(r.ok for r in reports), [r.problems for r in reports]
    mine = u1 - u0 + s1 - s0
    return {"wall": wall, "user": u1 - u0, "system": s1 - s0, "games": n,
            "records": sum(r.records for r in reports),
            # Cores the run used on average, and cores the rest of the machine used.
            "cores": mine / wall, "others": max(0.0, busy - mine) / wall}


def _record(benchmark: Any, runs: dict[str, list[dict[str, float]]], base: str,
            other: str) -> None:
    """min and median of each way; ``base``/``other`` speed ratios (above 1: ``other`` is
    faster)."""
    info = benchmark.extra_info
    for way, rows in runs.items():
        walls = [r["wall"] for r in rows]
        info[f"{way}_wall_min_s"] = round(min(walls), 3)
        info[f"{way}_wall_median_s"] = round(statistics.median(walls), 3)
        info[f"{way}_system_median_s"] = round(statistics.median(r["system"] for r in rows), 3)
        info[f"{way}_games_per_s_best"] = round(rows[0]["games"] / min(walls), 3)
        info[f"{way}_cores_used"] = [round(r["cores"], 2) for r in rows]
        info[f"{way}_cores_used_by_others"] = [round(r["others"], 2) for r in rows]
    b, o = ([r["wall"] for r in runs[way]] for way in (base, other))
    info["ratio_of_minima"] = round(min(b) / min(o), 3)
    info["ratio_of_medians"] = round(statistics.median(b) / statistics.median(o), 3)
    # Pairs measured next to each other in the same round: the least disturbed comparison.
    info["ratio_best_pair"] = round(max(x / y for x, y in zip(b, o, strict=True)), 3)


def test_simulate_disk_against_memory(benchmark: Any, request: pytest.FixtureRequest
                                      ) -> None:
    smoke = _smoke(request.config)
    game, n, players = ("conformance", 2, 4) if smoke else ("mythology", 2, 4)
    if simulate.scratch_dir() is None:
        pytest.skip("no memory file system here")
    disk = Path(tempfile.gettempdir())
    runs: dict[str, list[dict[str, float]]] = {"disk": [], "memory": []}

    def both() -> None:
        for way, where in (("disk", disk), ("memory", None)):
            runs[way].append(_timed(game, n, players, 1, where))

    benchmark.pedantic(both, rounds=1 if smoke else 3)
    _record(benchmark, runs, "disk", "memory")
    benchmark.extra_info["game"] = f"{game} {players}p x{n}"


@pytest.mark.parametrize("place", ["memory", "disk"])
def test_simulate_one_core_against_two(benchmark: Any, request: pytest.FixtureRequest,
                                       place: str) -> None:
    """``place``: where the games are played, the memory file system (what ``pbem simulate``
    does now) or the temp dir on the disk (what it did before)."""
    smoke = _smoke(request.config)
    # Sixteen games: the last game of a run plays alone, so with eight (games differ in
    # length) the second core idled about a tenth of the run; a real simulation plays
    # hundreds.
    game, n, players = ("conformance", 2, 2) if smoke else ("mythology", 16, 2)
    where = Path(tempfile.gettempdir()) if place == "disk" else None
    runs: dict[str, list[dict[str, float]]] = {"jobs1": [], "jobs2": []}

    def both() -> None:
        for jobs in (1, 2):
            runs[f"jobs{jobs}"].append(_timed(game, n, players, jobs, where))

    benchmark.pedantic(both, rounds=1 if smoke else 3)
    _record(benchmark, runs, "jobs1", "jobs2")
    benchmark.extra_info["game"] = f"{game} {players}p x{n}"
    benchmark.extra_info["cores"] = os.cpu_count()

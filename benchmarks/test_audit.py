"""Audit cost against campaign length, and over a directory of many campaigns (issue 6).

Lengths: a conformance campaign of 5, 50 and 500 rounds (1x, 10x and 100x records: 21, 201
and 2001). Per-record cost is the benchmark time divided by the records; peak memory is the
maximum resident set of a fresh ``pbem audit`` process on the longest campaign.
Many campaigns: 1,000 campaigns (ten distinct games, each copied a hundred times), audited on
one process and on every core. The CI smoke run (``--benchmark-disable``) uses small sizes.
Pass 1 alone (issue 20, target 6): a player's audit of a public copy of a game still in play
(the 10x and 100x campaigns, and a 6-player Mythology campaign, each without its final record)
checks signatures, chains and draws and re-adjudicates nothing; one process and two alternate
in each round, so their ratio comes from one run.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks.test_simulate import machine_busy
from pbem import games
from pbem.core import audit, audit_many, demo, ledger
from pbem.core.campaign import export_public, open_campaign

SCALES = {"1x": 5, "10x": 50, "100x": 500}
SMOKE_SCALES = {"1x": 1, "10x": 2, "100x": 10}


def _smoke(config: pytest.Config) -> bool:
    return bool(config.getoption("benchmark_disable"))


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture(scope="module")
def campaigns(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    scales = SMOKE_SCALES if _smoke(request.config) else SCALES
    out = {}
    for label, rounds in scales.items():
        root = tmp_path_factory.mktemp(f"audit-{label}") / "g"
        out[label] = demo.run(games.get("conformance"), root, players=2, seed="audit",
                              options={"rounds": str(rounds)}, resolve=games.get,
                              with_reports=False).campaign_dir
    return out


@pytest.mark.parametrize("label", list(SCALES))
def test_audit_by_length(benchmark: Any, campaigns: dict[str, Path], label: str) -> None:
    campaign = open_campaign(campaigns[label], games.get)
    records = ledger.count(campaign.ledger_dir)
    result = benchmark.pedantic(audit.audit, args=(campaign,), rounds=3, warmup_rounds=1)
    assert result.replayed and result.records == records
    benchmark.extra_info["records"] = records
    if not benchmark.disabled:
        benchmark.extra_info["per_record_ms"] = benchmark.stats.stats.min / records * 1000


def test_audit_peak_memory_of_the_longest(benchmark: Any, campaigns: dict[str, Path]) -> None:
    """Peak RSS of ``pbem audit`` (a fresh process) on the 100x campaign: target 200 MB."""
    peaks = []

    def run() -> None:
        proc = subprocess.Popen([sys.executable, "-m", "pbem", "audit", "-q",
                                 str(campaigns["100x"])], stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        peaks.append(usage.ru_maxrss / 1024)  # kB on Linux -> MB

    benchmark.pedantic(run, rounds=1)
    benchmark.extra_info["peak_rss_mb"] = max(peaks)
    if not benchmark.disabled:
        assert max(peaks) < 200


@pytest.fixture(scope="module")
def host(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A forum host's directory: ten distinct games, each copied to make 1,000 campaigns."""
    copies = 2 if _smoke(request.config) else 100
    base = tmp_path_factory.mktemp("host")
    for i in range(10):
        made = demo.run(games.get("conformance"), base / f".src{i}", players=2 + i % 3,
                        seed=f"host{i}", options={"rounds": "2"}, resolve=games.get,
                        with_reports=False).campaign_dir
        for j in range(copies):
            shutil.copytree(made, base / f"group{j:03d}" / f"c{i}", symlinks=True)
        shutil.rmtree(base / f".src{i}")
    return base


@pytest.mark.parametrize("jobs", [1, os.cpu_count() or 1], ids=["1-core", "all-cores"])
def test_audit_a_directory_of_campaigns(benchmark: Any, host: Path, jobs: int) -> None:
    paths = audit_many.find_campaigns(host)

    def run() -> list[audit_many.CampaignAudit]:
        return list(audit_many.audit_all(paths, games.get, jobs=jobs))

    results = benchmark.pedantic(run, rounds=1)
    assert len(results) == len(paths) and all(r.ok for r in results)
    benchmark.extra_info["campaigns"] = len(paths)
    benchmark.extra_info["jobs"] = jobs


@pytest.fixture(scope="module")
def in_play(request: pytest.FixtureRequest, campaigns: dict[str, Path],
            tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Public copies of games in play: the finished campaigns without their last record."""
    smoke = _smoke(request.config)
    base = tmp_path_factory.mktemp("in-play")
    made = dict(campaigns)
    made["mythology-6p"] = demo.run(
        games.get("mythology"), base / "myth", players=2 if smoke else 6, seed="5",
        options={}, resolve=games.get, with_reports=False).campaign_dir
    out = {}
    for label in ("10x", "100x", "mythology-6p"):
        copy = base / label
        export_public(made[label], copy)
        last = ledger.count(copy / "ledger")
        for name in (ledger.record_name(last), ledger.record_name(last) + ".sig"):
            (copy / "ledger" / name).unlink()
        out[label] = copy
    return out


@pytest.mark.parametrize("label", ["10x", "100x", "mythology-6p"])
def test_audit_pass1_one_process_against_two(benchmark: Any, in_play: dict[str, Path],
                                             label: str) -> None:
    campaign = open_campaign(in_play[label], games.get)
    records = ledger.count(campaign.ledger_dir)
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[str, list[float]] = {"jobs1": [], "jobs2_parent": [], "jobs2_workers": [],
                                   "others": []}

    def both() -> None:
        for jobs in (1, 2):
            parent, children = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
            busy, started = machine_busy(), time.perf_counter()
            result = audit.audit(open_campaign(in_play[label], games.get), jobs=jobs)
            wall = time.perf_counter() - started
            walls[jobs].append(wall)
            parent = _cpu(resource.RUSAGE_SELF) - parent
            children = _cpu(resource.RUSAGE_CHILDREN) - children
            if jobs == 1:
                cpu["jobs1"].append(parent)
            else:
                cpu["jobs2_parent"].append(parent)
                cpu["jobs2_workers"].append(children)
            cpu["others"].append(max(0.0, machine_busy() - busy - parent - children) / wall)
            assert not result.replayed and result.records == records

    both()  # warm: the files in the page cache, the workers' code loaded once
    for times in (walls[1], walls[2], *cpu.values()):
        times.clear()
    benchmark.pedantic(both, rounds=5)
    info = benchmark.extra_info
    info["records"] = records
    for jobs, times in walls.items():
        info[f"jobs{jobs}_min_ms"] = round(min(times) * 1000, 1)
        info[f"jobs{jobs}_median_ms"] = round(statistics.median(times) * 1000, 1)
    for what, times in cpu.items():  # CPU time, ms (others: cores the rest of the machine used)
        info[f"cpu_{what}_median"] = round(statistics.median(times) * (
            1 if what == "others" else 1000), 2)
    info["speedup_of_minima"] = round(min(walls[1]) / min(walls[2]), 3)
    info["speedup_of_medians"] = round(statistics.median(walls[1]) /
                                       statistics.median(walls[2]), 3)

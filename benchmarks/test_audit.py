"""Audit cost against campaign length, and over a directory of many campaigns (issue 6).

Lengths: a conformance campaign of 5, 50 and 500 rounds (1x, 10x and 100x records: 21, 201
and 2001). Per-record cost is the benchmark time divided by the records; peak memory is the
maximum resident set of a fresh ``pbem audit`` process on the longest campaign.
Many campaigns: 1,000 campaigns (ten distinct games, each copied a hundred times), audited on
one process and on every core. The CI smoke run (``--benchmark-disable``) uses small sizes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.core import audit, audit_many, demo, ledger
from pbem.core.campaign import open_campaign

SCALES = {"1x": 5, "10x": 50, "100x": 500}
SMOKE_SCALES = {"1x": 1, "10x": 2, "100x": 10}


def _smoke(config: pytest.Config) -> bool:
    return bool(config.getoption("benchmark_disable"))


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

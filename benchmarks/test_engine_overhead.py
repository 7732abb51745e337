"""Issue 20, target 1: per record, the engine's own work against the rules' work.

A whole bot campaign (no reports, one process, on a memory file system where there is one)
is played with the ruleset's methods timed: the rules' work is every call the engine makes to
the ruleset while it adjudicates (``validate`` of each accepted order, ``default_orders``,
``setup`` or ``resolve``, ``next_phase``); the record's cost is all of ``engine.adjudicate``.
The ratio ``(record - rules) / rules`` is measured in the same run, so it does not move with
the machine's speed as absolute times do; the times are this thread's CPU time
(``time.thread_time``), so another process on the other core or a pre-emption does not count
(this VM has no instruction counter to read). Submissions are measured the same way (the rules'
part is ``check``/``validate``). The final audit is not counted.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.core import audit, demo, engine, ledger

MEMORY = Path("/dev/shm")
RULES = ("resolve", "setup", "next_phase", "validate", "validate_join", "default_orders",
         "default_join", "check")


class _Timer:
    def __init__(self) -> None:
        self.where = "other"
        self.depth = 0
        self.spent = {"adjudicate": 0.0, "submit": 0.0, "rules:adjudicate": 0.0,
                      "rules:submit": 0.0}

    def rules(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth or self.where == "other":
                return method(*args, **kwargs)
            self.depth += 1
            started = time.thread_time()
            try:
                return method(*args, **kwargs)
            finally:
                self.depth -= 1
                self.spent[f"rules:{self.where}"] += time.thread_time() - started
        return timed

    def engine(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.where = name
            started = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.spent[name] += time.thread_time() - started
                self.where = "other"
        return timed


def _play(game: str, players: int, monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    ruleset = games.get(game)
    timer = _Timer()
    for name in RULES:
        monkeypatch.setattr(type(ruleset), name, timer.rules(getattr(type(ruleset), name)))
    monkeypatch.setattr(engine, "adjudicate", timer.engine("adjudicate", engine.adjudicate))
    monkeypatch.setattr(engine, "submit", timer.engine("submit", engine.submit))
    monkeypatch.setattr(audit, "audit", lambda *a, **k: audit.AuditResult())  # not counted
    root = Path(tempfile.mkdtemp(dir=MEMORY if MEMORY.is_dir() else None))
    try:
        result = demo.run(ruleset, root / "g", players=players, seed="overhead", options={},
                          resolve=games.get, with_reports=False, jobs=1)
        n = ledger.count(result.campaign_dir / "ledger")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    s = timer.spent
    return {"records": n,
            "record_ms": s["adjudicate"] / n * 1e3,
            "rules_ms": s["rules:adjudicate"] / n * 1e3,
            "ratio": (s["adjudicate"] - s["rules:adjudicate"]) / s["rules:adjudicate"],
            "submit_ratio": (s["submit"] - s["rules:submit"]) / s["rules:submit"]}


@pytest.mark.parametrize(("game", "players"), [("mythology", 6), ("mythology-basic", 4),
                                               ("cyclades", 4), ("grecos", 4),
                                               ("deukalion", 4), ("hetairos", 4)])
def test_engine_work_per_record_against_the_rules(benchmark: Any, request: pytest.FixtureRequest,
                                                  monkeypatch: pytest.MonkeyPatch, game: str,
                                                  players: int) -> None:
    smoke = bool(request.config.getoption("benchmark_disable"))
    found: list[dict[str, float]] = []
    benchmark.pedantic(lambda: found.append(_play(game, 2 if smoke else players, monkeypatch)),
                       rounds=1 if smoke else 3)
    best = min(found, key=lambda f: f["ratio"])
    benchmark.extra_info.update({k: round(v, 3) for k, v in best.items()})
    assert best["records"] > 10 and best["rules_ms"] > 0

"""Wall time of whole commands, each as a fresh process, as a user or a mail filter runs them.

``pbem --version`` (target 150 ms) and ``pbem verify`` of one file (target 250 ms) in absolute
terms; and (issue 20, target 5) each one-shot command against a process that only imports
typer and cryptography, measured in the same rounds: the command's median minus that
baseline's median is what pbem itself costs (its own imports, the command's set-up, the
campaign it reads), and should be at most 20 ms. The baseline runs just before each round of
the command, so a slow hour of this shared VM moves both; and as this VM runs everything 2-3x
slower in its busy hours, the 20 ms are scaled by the baseline's own slowdown against its
quiet-hour time (:data:`QUIET_BASELINE_MS`): the check is a ratio within one run, as the
issue's other targets are."""

from __future__ import annotations

import compileall
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import pbem
from pbem import games
from pbem.core import campaign as campaign_mod
from pbem.core import keys
from tests.conftest import Table, seeded_key

PBEM = shutil.which("pbem", path=str(Path(sys.executable).parent))
# As a user's installation runs: pip byte-compiles what it installs, so measure with .pyc files
# present and allowed (this machine's shell sets PYTHONDONTWRITEBYTECODE, which would charge
# every run for compiling pbem from source).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
#: The floor: the interpreter, typer and cryptography's Ed25519, nothing of pbem.
BASELINE = (sys.executable, "-c", "import typer, cryptography.hazmat.primitives.asymmetric"
            ".ed25519")
#: Issue 20, target 5: a one-shot command's median over the baseline's, in the same run.
TARGET_OVER_MS = 20.0
#: The baseline's median at a quiet hour of this VM (2 cores, CPython 3.11), where the target
#: is 20 ms; a slower run allows 20 ms times its baseline over this. Estimated from the
#: instructions each process runs (valgrind: 277 M for the baseline, 67 M for `pbem
#: --version`, 470 M for `pbem verify` before issue 20) and those two commands' quiet-hour
#: medians in README.md (13.2 ms and 88.7 ms): 0.19 ms per million, 52 ms for the baseline.
QUIET_BASELINE_MS = 52.0
ROUNDS, WARMUP = 15, 2


@pytest.fixture(scope="module", autouse=True)
def _bytecode() -> None:
    compileall.compile_dir(Path(pbem.__file__).parent, quiet=1)


def _run(*args: str) -> None:
    assert PBEM is not None, "pbem is not installed in this environment"
    subprocess.run([PBEM, *args], check=True, capture_output=True, env=ENV)


def _wall(argv: Sequence[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=ENV)
    return time.perf_counter() - start


def _over_baseline(benchmark: Any, args: Callable[[], Sequence[str]], target: bool = True
                   ) -> None:
    """Benchmark ``pbem ARGS()`` (ARGS is called before each round, untimed, so a round may
    get a fresh copy of a campaign), each round just after a timed baseline process; record
    both medians and their difference in extra_info and check the target (unless ``target``
    is false: the rows measured for the record only)."""
    baseline: list[float] = []
    last: list[str] = []

    def setup() -> tuple[tuple[str, ...], dict[str, Any]]:
        argv = tuple(args())
        last[:] = argv
        baseline.append(_wall(BASELINE))
        return argv, {}

    benchmark.pedantic(_run, setup=setup, rounds=ROUNDS, warmup_rounds=WARMUP)
    if benchmark.disabled:
        return
    base = baseline[WARMUP:]
    base_ms = statistics.median(base) * 1000
    over_ms = benchmark.stats.stats.median * 1000 - base_ms
    slowdown = max(1.0, base_ms / QUIET_BASELINE_MS)
    benchmark.extra_info.update(
        baseline_median_ms=round(base_ms, 1), baseline_min_ms=round(min(base) * 1000, 1),
        over_baseline_median_ms=round(over_ms, 1),
        over_baseline_min_ms=round((benchmark.stats.stats.min - min(base)) * 1000, 1),
        over_baseline_ratio=round(over_ms / base_ms, 3),
        over_at_quiet_speed_ms=round(over_ms / slowdown, 1))
    if target:
        assert over_ms <= TARGET_OVER_MS * slowdown, (
            f"pbem {last[0]}: {over_ms:.1f} ms over the baseline's median ({base_ms:.1f} ms, "
            f"{slowdown:.2f}x its quiet time): {over_ms / slowdown:.1f} ms at quiet speed, "
            f"the target is {TARGET_OVER_MS} ms")


def test_version_wall_time(benchmark: Any) -> None:
    benchmark.pedantic(_run, args=("--version",), rounds=20, warmup_rounds=2)
    if not benchmark.disabled:
        assert benchmark.stats.stats.median <= 0.150


def test_verify_wall_time(benchmark: Any, table: Table, tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text(table.signed("alice"))
    benchmark.pedantic(_run, args=("verify", str(path), "--campaign", str(table.root)),
                       rounds=10, warmup_rounds=1)
    if not benchmark.disabled:
        assert benchmark.stats.stats.median <= 0.250


# --- issue 20, target 5: one-shot commands against the baseline -----------------------------


def test_baseline_wall_time(benchmark: Any) -> None:
    """The floor itself, for the record (each test below times its own)."""
    benchmark.pedantic(_wall, args=(BASELINE,), rounds=ROUNDS, warmup_rounds=WARMUP)


def test_verify_over_baseline(benchmark: Any, table: Table, tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text(table.signed("alice"))
    _over_baseline(benchmark, lambda: ("verify", str(path), "--campaign", str(table.root)))


def test_submit_over_baseline(benchmark: Any, table: Table, tmp_path: Path) -> None:
    """A fresh copy of the campaign for every round: each submission is accepted. The copies
    are on a memory file system where there is one: a submission's fsyncs (the inbox, the
    pending order; target 3's business) cost from under 1 ms to tens of ms on this VM's disk,
    and would drown what this measures."""
    path = tmp_path / "orders.txt"
    path.write_text(table.signed("alice"))
    count = iter(range(10_000))
    memory = Path("/dev/shm")
    where = Path(tempfile.mkdtemp(prefix="pbem-startup-", dir=memory)) if (
        memory.is_dir() and os.access(memory, os.W_OK)) else tmp_path

    def args() -> tuple[str, ...]:
        copy = where / f"copy{next(count)}"
        shutil.copytree(table.root, copy)
        return ("submit", str(copy), str(path))

    try:
        _over_baseline(benchmark, args)
    finally:
        if where != tmp_path:
            shutil.rmtree(where, ignore_errors=True)


def test_status_over_baseline(benchmark: Any, table: Table) -> None:
    _over_baseline(benchmark, lambda: ("status", str(table.root)))


def test_games_over_baseline(benchmark: Any) -> None:
    _over_baseline(benchmark, lambda: ("games",))


def test_commit_over_baseline(benchmark: Any, table: Table, tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text(table.signed("alice"))
    _over_baseline(benchmark, lambda: ("commit", str(path)))


def test_form_over_baseline(benchmark: Any, table: Table) -> None:
    _over_baseline(benchmark, lambda: ("form", str(table.root), "--player", "alice"))


# The conformance game above has next to no component data; Mythology has the most (ten TOML
# files) and the most code to import. Its first phase after the join runs the rules on a real
# state. For the record (what component data costs), not part of the target.


@pytest.fixture
def mythology(tmp_path: Path) -> Table:
    root = tmp_path / "myth"
    gm = seeded_key("gm")
    player_keys = {p: seeded_key(p) for p in ("alice", "bob")}
    keys.write_keypair(tmp_path / "gm", gm)
    campaign_mod.create(
        root, games.get("mythology"), campaign_id="startup", gm_key=gm,
        gm_key_path=str(tmp_path / "gm"),
        players={p: k.public_key().public_bytes_raw() for p, k in player_keys.items()},
        options={}, chain_length=64,
        heads=(hashlib.sha256(b"s-head").digest(), hashlib.sha256(b"t-head").digest()))
    table = Table(root, campaign_mod.open_campaign(root, games.get), gm, player_keys)
    table.submit_all()
    table.adjudicate()
    return table


def test_mythology_verify_over_baseline(benchmark: Any, mythology: Table,
                                        tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text(mythology.signed("alice"))
    _over_baseline(benchmark, lambda: ("verify", str(path), "--campaign",
                                       str(mythology.root)), target=False)


def test_mythology_status_over_baseline(benchmark: Any, mythology: Table) -> None:
    _over_baseline(benchmark, lambda: ("status", str(mythology.root)), target=False)


def test_mythology_form_over_baseline(benchmark: Any, mythology: Table) -> None:
    _over_baseline(benchmark, lambda: ("form", str(mythology.root), "--player", "alice"),
                   target=False)

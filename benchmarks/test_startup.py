"""Wall time of whole commands: ``pbem --version`` (target 150 ms) and ``pbem verify`` of one
file (target 250 ms), each as a fresh process, as a user or a mail filter runs them."""

from __future__ import annotations

import compileall
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pbem
from tests.conftest import Table

PBEM = shutil.which("pbem", path=str(Path(sys.executable).parent))
# As a user's installation runs: pip byte-compiles what it installs, so measure with .pyc files
# present and allowed (this machine's shell sets PYTHONDONTWRITEBYTECODE, which would charge
# every run for compiling pbem from source).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@pytest.fixture(scope="module", autouse=True)
def _bytecode() -> None:
    compileall.compile_dir(Path(pbem.__file__).parent, quiet=1)


def _run(*args: str) -> None:
    assert PBEM is not None, "pbem is not installed in this environment"
    subprocess.run([PBEM, *args], check=True, capture_output=True, env=ENV)


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

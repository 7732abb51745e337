"""The built wheel, installed into a fresh virtual environment, runs a whole campaign: the
top-level templates/ and orders/ travel inside it (DESIGN.md section 2)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def test_wheel_installs_and_plays_a_campaign(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    # No build isolation: hatchling comes from the test extras, so nothing is downloaded.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
                    "-q", "-w", str(dist), str(ROOT)], check=True, capture_output=True)
    (wheel,) = dist.glob("pbem-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "pbem/_share/templates/_base/report.txt.j2" in names
    assert "pbem/_share/orders/conformance/pledge.toml" in names
    assert "pbem/py.typed" in names
    assert "pbem/games/mythology/data/map.toml" in names
    assert "pbem/_share/orders/mythology/logsheet.toml" in names
    assert not any(n.startswith("tests/") for n in names)

    venv = tmp_path / "venv"
    # A venv without its own pip (ensurepip costs seconds): this environment's pip installs
    # into it with --python, and the script's first line names the fresh interpreter.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True)
    assert (venv / "bin" / "pbem").read_text().startswith(f"#!{py}\n")
    # The dependencies come from this environment's site-packages (no network in tests);
    # the .pth line is appended after the fresh site-packages, so pbem is the wheel's.
    fresh_site = Path(subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    (fresh_site / "zz_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    work = tmp_path / "elsewhere"
    work.mkdir()
    where = subprocess.run([str(py), "-c", "import pbem; print(pbem.__file__)"], cwd=work,
                           check=True, capture_output=True, text=True).stdout
    assert str(venv) in where
    pbem = venv / "bin" / "pbem"
    out = subprocess.run([str(pbem), "demo", "conformance", "--players", "3", "--dir", "d"],
                         cwd=work, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "audit passed" in out.stdout
    report = (work / "d" / "campaign" / "gm" / "records" / "000001" / "reports" / "alice.txt")
    assert "-----BEGIN PBEM ORDERS-----" in report.read_text()
    # And the shipped order form is found by `pbem form` of an installed pbem.
    subprocess.run([str(pbem), "keygen", "gm"], cwd=work, check=True, capture_output=True)
    for name in ("a", "b"):
        subprocess.run([str(pbem), "keygen", name], cwd=work, check=True, capture_output=True)
    subprocess.run([str(pbem), "new", "conformance", "c", "--gm-key", "gm", "--player",
                    "alice=a.pub", "--player", "bob=b.pub"], cwd=work, check=True,
                   capture_output=True)
    form = subprocess.run([str(pbem), "form", "c", "--player", "alice"], cwd=work, check=True,
                          capture_output=True, text=True).stdout
    assert "optional, one line of at most 60 characters" in form

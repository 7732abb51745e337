"""The README's shell blocks, run word for word (issue 12, section 8): every ```sh line is run
with the installed ``pbem`` in an empty folder and must exit 0. The only stand-ins: the mail
server (a loopback aiosmtpd with its own CA, as in test_mail.py, given by ``--cafile``), the
install line (pbem is installed already; its demo runs with a small game), and the line that
runs the test suite itself."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_mail import PASSWORD, USER, server  # noqa: F401 (server: the fixture)

pytestmark = pytest.mark.slow

README = Path(__file__).resolve().parent.parent / "README.md"
INSTALL = ("python3 -m venv .venv && . .venv/bin/activate && pip install . && "
           "pbem demo mythology --players 4")
TESTS = ("python3 -m venv .venv && . .venv/bin/activate && pip install -q --no-compile -e "
         "'.[test]' && "
         "pytest -q -p no:cacheprovider -n auto --dist loadgroup")


def sh_blocks(text: str) -> list[list[str]]:
    """The lines of every ```sh block (continuation lines joined)."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
    out = []
    for block in blocks:
        lines: list[str] = []
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                lines.append(line)
        out.append(lines)
    return out


def test_the_first_two_lines_stay_as_they_are() -> None:
    first = sh_blocks(README.read_text())[0]
    assert first[:2] == [INSTALL, TESTS]
    # CI runs the README's test command word for word.
    ci = (README.parent / ".ci" / "run").read_text()
    assert TESTS in ci.splitlines()


def test_every_shell_line_of_the_readme_runs(tmp_path: Path, server: Any) -> None:  # noqa: F811
    pbem = shutil.which("pbem", path=str(Path(sys.executable).parent))
    assert pbem is not None, "pbem is not installed beside this Python"
    home = tmp_path / "home"
    for sub in ("cur", "new", "tmp"):
        (home / "Mail" / "pbem" / sub).mkdir(parents=True)
    work = tmp_path / "work"
    work.mkdir()
    (work / "pw").write_text(PASSWORD + "\n")
    assert USER == "gm"  # the README's --user
    env = {**os.environ, "HOME": str(home),
           "PATH": f"{Path(pbem).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONUNBUFFERED": "1"}
    env.pop("SSH_AUTH_SOCK", None)
    stand_ins = {
        # pbem is installed; the demo of a small game stands in for the fifteen-turn one.
        INSTALL: "pbem demo conformance --players 4 --dir demo",
        TESTS: None,  # runs this very test suite
        "pbem mail hellas --smtp mail.example.org:587 --starttls --user gm --password-file pw":
            f"pbem mail hellas --smtp 127.0.0.1:{server.port} --starttls --user gm "
            f"--password-file pw --cafile {server.cafile}",
    }
    used = set()
    ran = 0
    for block in sh_blocks(README.read_text()):
        for line in block:
            command = line
            if line in stand_ins:
                used.add(line)
                replaced = stand_ins[line]
                if replaced is None:
                    continue
                command = replaced
            proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=work,
                                  env=env, capture_output=True, text=True, timeout=600)
            assert proc.returncode == 0, f"{line}\n{proc.stdout}\n{proc.stderr}"
            assert "Traceback" not in proc.stderr, line
            ran += 1
    assert used == set(stand_ins), "a README line the stand-ins are for has changed"
    assert ran >= 20
    # What the lines promise is there.
    for name in ("gm", "alice", "bob"):
        assert (work / name).is_file() and (work / f"{name}.pub").is_file()
    assert (work / "alice.signed").is_file() and (work / "bob.signed").is_file()
    assert (work / "public" / "ledger" / "000001.toml").is_file()
    assert (work / "public-site" / "index.html").is_file()
    got = [rcpts for _, rcpts, _, _ in server.inbox.got]
    assert ["alice@example.org"] in got  # the report, sent through the stand-in server

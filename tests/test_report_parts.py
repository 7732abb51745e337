"""The public parts of a report template (``{% public %}``, pbem.core.report._PublicPart) and
the cache of compiled templates (report._compiled_templates): a template loaded compiled by a
later command still has its public parts rendered once per record."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_PROBE = """
import jinja2
from pbem.core import report
compiled = []
original = jinja2.Environment.compile
def counting(self, *args, **kwargs):
    compiled.append(1)
    return original(self, *args, **kwargs)
jinja2.Environment.compile = counting
template = report._template("mythology", "txt")
print(len(compiled), template.name in report._WITH_PARTS)
"""


def _probe(cache: Path) -> str:
    env = {**os.environ, "PBEM_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                          text=True, check=True).stdout.split()


def test_a_template_loaded_compiled_keeps_its_public_parts(tmp_path: Path) -> None:
    first = _probe(tmp_path)
    assert int(first[0]) >= 1 and first[1] == "True"  # compiled, parts found as it parsed
    entries = list((tmp_path / "templates").iterdir())
    assert entries, "no compiled template was kept"
    second = _probe(tmp_path)
    # The next command compiles nothing, and still knows the template has public parts (it
    # did not parse it): its gazette is rendered first and the parts shared.
    assert second == ["0", "True"]


def test_compiled_templates_of_another_pbem_are_not_loaded(tmp_path: Path) -> None:
    """The entries are named by a digest of report.py, whose environment settings shape the
    compiled code: a foreign entry under another name is never read."""
    _probe(tmp_path)
    (entry,) = (tmp_path / "templates").iterdir()
    entry.rename(entry.with_name("0000000000000000-" + entry.name.partition("-")[2]))
    assert _probe(tmp_path)[0] != "0"


def test_no_cache_folder_compiles_every_time(tmp_path: Path) -> None:
    env = {**os.environ, "PBEM_CACHE_DIR": ""}
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                             text=True, check=True).stdout.split()
        assert int(out[0]) >= 1 and out[1] == "True"


def test_a_damaged_compiled_template_is_compiled_again(tmp_path: Path) -> None:
    """An entry cut short (a crash while Jinja wrote it, a full disk) or overwritten with
    junk is not loaded: the template is compiled from its source again, with its parts."""
    _probe(tmp_path)
    (entry,) = (tmp_path / "templates").iterdir()
    data = entry.read_bytes()
    for damaged in (data[: len(data) // 2], data[:12], b"junk" * 10):
        entry.write_bytes(damaged)
        first = _probe(tmp_path)
        assert int(first[0]) >= 1 and first[1] == "True"
        assert _probe(tmp_path) == ["0", "True"]  # and kept whole again

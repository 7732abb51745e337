"""The rules-coverage tables of docs/games/ are true (issue 15): every test they name exists,
and the Basic Game's table lists every section of its rulebook."""

from __future__ import annotations

import fnmatch
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("mythology.md", "mythology-basic.md", "grecos.md", "deukalion.md", "hetairos.md")


@cache
def defined_tests() -> dict[str, set[str]]:
    """Test file name -> the test functions it defines (under tests/)."""
    out: dict[str, set[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        out.setdefault(path.name, set()).update(
            re.findall(r"^\s*def (test_\w+)", path.read_text(), re.M))
    return out


def coverage_rows(doc: str) -> list[str]:
    text = (ROOT / "docs" / "games" / doc).read_text()
    section = text.split("## Rules coverage" if "## Rules coverage" in text
                         else "### Rules coverage", 1)[1]
    section = re.split(r"\n#{2,3} ", section, maxsplit=1)[0]
    return [line for line in section.splitlines() if line.startswith("| ")][2:]


def named(token: str) -> bool:
    tests = defined_tests()
    every = set().union(*tests.values())
    file, _, name = token.rpartition("::")
    file = file.rsplit("/", 1)[-1]
    if token.endswith(".py"):
        return token.rsplit("/", 1)[-1] in tests
    pool = tests.get(file, set()) if file else every
    if "*" in name:
        return any(fnmatch.fnmatchcase(t, name) for t in pool)
    # "test_x (209 D 1)" style prose is not a name; names are whole tokens
    return name in pool


@pytest.mark.parametrize("doc", TABLES)
def test_every_test_a_coverage_table_names_exists(doc: str) -> None:
    rows = coverage_rows(doc)
    assert len(rows) > 15
    missing = [tok for row in rows for tok in re.findall(r"`([^`]*test_[^`]*)`", row)
               if not named(tok.split(" ")[0])]
    assert not missing, f"{doc} names tests that do not exist: {missing}"


def test_the_basic_table_covers_every_section_of_the_basic_rules() -> None:
    rows = "\n".join(coverage_rows("mythology-basic.md"))
    for section in ("Intro", "Parts", "Prep", "Play", "PP", "Win", "Move", "Combat",
                    "Resolution", "Capture", "Alliance"):
        assert f"Basic {section}" in rows, section
    for clause in ("Prep 9", "Play 2A", "PP 5A", "Win 1C", "Move 11", "Combat 12",
                   "Resolution 4", "Capture 8", "Alliance 5"):
        number = clause.split()[-1]
        assert any(f"Basic {clause.split()[0]}" in row and (number in row or "-" in row)
                   for row in coverage_rows("mythology-basic.md")), clause

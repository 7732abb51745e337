"""``pbem simulate`` plays its throwaway games in a memory file system when there is one
(issue 20, target 4): nothing reaches the normal temp dir, every game's files are gone once it
is checked, and ``--keep DIR`` plays each game in DIR itself."""

from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Mapping
from pathlib import Path

import pytest

from pbem import games
from pbem.core import simulate
from pbem.core.dice import Rng
from pbem.core.ruleset import Orders, Outcome
from pbem.games.conformance import Conformance

#: Where the spy writes what it saw (set by each test before any game is forked).
_LOG: list[Path] = []


class WhereSpy(Conformance):
    """The conformance game, noting at its set-up which game directories are in the memory
    file system and in the temp dir while it is played: a line at each set-up (the game's and
    the audit's replay of it), from any process."""

    name = "conformance-where-spy"

    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        places = (simulate.scratch_dir(), Path(tempfile.gettempdir()))
        found = [sorted(p.name for p in place.iterdir() if p.name.startswith("pbem-sim-"))
                 if place is not None else [] for place in places]
        with _LOG[0].open("a") as log:
            log.write(f"{found[0]}|{found[1]}\n")
        return super().setup(players, options, joins, rng)


games.register(WhereSpy())


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """An empty memory file system stand-in and an empty TMPDIR."""
    memory, temp = tmp_path / "shm", tmp_path / "tmp"
    memory.mkdir()
    temp.mkdir()
    monkeypatch.setattr(simulate, "MEMORY_FS", memory)
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    _LOG[:] = [tmp_path / "where.log"]
    return memory, temp


def _seen() -> list[tuple[str, str]]:
    return [tuple(line.split("|")) for line in _LOG[0].read_text().splitlines()]  # type: ignore[misc]


@pytest.mark.parametrize("jobs", [1, 2])
def test_games_are_played_in_the_memory_fs_and_nothing_is_left(dirs: tuple[Path, Path],
                                                               jobs: int) -> None:
    memory, temp = dirs
    assert simulate.scratch_dir() == memory
    reports = list(simulate.run(WhereSpy.name, 3, seed="m", players=2, options={},
                                resolve=games.get, jobs=jobs))
    assert [r.ok for r in reports] == [True] * 3, [r.problems for r in reports]
    seen = _seen()
    assert len(seen) == 2 * 3
    for in_memory, in_temp in seen:
        assert "pbem-sim-conformance-where-spy-" in in_memory and in_temp == "[]"
    assert list(memory.iterdir()) == [] and list(temp.iterdir()) == []


def test_without_a_memory_fs_games_go_to_the_temp_dir(dirs: tuple[Path, Path],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    memory, temp = dirs
    monkeypatch.setattr(simulate, "MEMORY_FS", memory / "missing")
    assert simulate.scratch_dir() is None
    (report,) = simulate.run(WhereSpy.name, 1, seed="m", players=2, options={},
                             resolve=games.get)
    assert report.ok, report.problems
    for in_memory, in_temp in _seen():
        assert in_memory == "[]" and "pbem-sim-conformance-where-spy-" in in_temp
    assert list(temp.iterdir()) == []


def test_a_memory_fs_without_room_is_not_used(dirs: tuple[Path, Path],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    memory, _ = dirs
    free = os.statvfs(memory)
    monkeypatch.setattr(simulate, "MIN_FREE_BYTES", free.f_bavail * free.f_frsize * 2 + 1)
    assert simulate.scratch_dir() is None


def test_keep_plays_each_game_where_asked(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    memory, temp = dirs
    keep = tmp_path / "kept"
    keep.mkdir()
    (report,) = simulate.run(WhereSpy.name, 1, seed="m", players=2, options={},
                             resolve=games.get, start=3, keep=keep)
    assert report.ok, report.problems
    assert set(_seen()) == {("[]", "[]")}  # neither in memory nor in the temp dir
    game = keep / "00003"
    assert (game / "campaign" / "ledger" / "000001.toml").is_file()
    # Played there, not moved there: the GM key the campaign names is the one beside it.
    settings = tomllib.loads((game / "campaign" / "gm" / "settings.toml").read_text())
    assert Path(settings["gm_key"]) == (game / "keys" / "gm").absolute()
    assert Path(settings["gm_key"]).is_file()
    assert list(memory.iterdir()) == [] and list(temp.iterdir()) == []


@pytest.mark.skipif(not (Path("/dev/shm").is_dir() and os.access("/dev/shm", os.W_OK)),
                    reason="no usable /dev/shm here")
def test_with_dev_shm_a_game_leaves_an_empty_temp_dir_empty(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Path("/dev/shm") == simulate.MEMORY_FS == simulate.scratch_dir()
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", None)
    _LOG[:] = [tmp_path / "where.log"]
    (report,) = simulate.run(WhereSpy.name, 1, seed="shm", players=2, options={},
                             resolve=games.get)
    assert report.ok, report.problems
    for in_memory, in_temp in _seen():
        assert "pbem-sim-conformance-where-spy-" in in_memory and in_temp == "[]"
    assert list(temp.iterdir()) == []


def test_two_processes_report_every_game_once_larger_tables_first(
        dirs: tuple[Path, Path]) -> None:
    """Games of every table size in turn: the larger (longer) ones are dealt first, so no
    core is left alone with a long game at the end; each game is reported once."""
    reports = list(simulate.run(WhereSpy.name, 4, seed="m", players=None, options={},
                                resolve=games.get, jobs=2))
    assert sorted((r.index, r.players) for r in reports) == [(0, 2), (1, 3), (2, 4), (3, 5)]
    assert all(r.ok for r in reports), [r.problems for r in reports]

"""What a one-shot command loads (issue 20, target 5): `pbem games` lists the built-in games
without importing them or reading every installed package's metadata, the commands that read
an order file leave the web and randomness libraries alone, and the games' TOML data comes
from a cache of parsed text that an edited file, a damaged entry or a foreign folder cannot
fool. The timings are in benchmarks/test_startup.py; these tests check the behaviour that
makes them, in fresh processes where it is about imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
import tomli

from pbem import games
from pbem.core import resources
from pbem.core.resources import CACHE_ENV, cache_dir, parse_toml, read_toml
from tests.conftest import Table

#: Runs `pbem ARGS` through the console script's entry point, then prints the names of
#: every module the process imported.
PROBE = """\
import sys
from pbem.cli import main
code = main(sys.argv[1:])
sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules)) + "\\n")
sys.exit(code)
"""


def _modules(*args: str, cwd: Path, env: dict[str, str] | None = None
             ) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, **(env or {})})
    assert proc.returncode == 0, proc.stderr
    line = proc.stderr.rsplit("MODULES ", 1)[1]
    return proc, set(line.split())


# --- pbem games ---------------------------------------------------------------------------


def test_about_holds_each_built_in_games_title_and_player_counts() -> None:
    assert set(games.ABOUT) == set(games.BUILTIN)
    for name in games.BUILTIN:
        rs = games.get(name)
        assert games.ABOUT[name] == (rs.title, rs.min_players, rs.max_players), name


def test_games_lists_every_game_without_importing_one(tmp_path: Path) -> None:
    proc, modules = _modules("games", cwd=tmp_path)
    expected = []
    width = max(map(len, games.BUILTIN))
    for name in sorted(games.BUILTIN):
        rs = games.get(name)
        expected.append(f"{name:{width}}  {rs.title} ({rs.min_players}-{rs.max_players} "
                        "players)")
    assert proc.stdout.splitlines() == expected
    imported_games = {m for m in modules if m.startswith("pbem.games.")}
    assert imported_games == set(), imported_games
    assert "importlib.metadata" not in modules  # no package here publishes a game
    assert "pbem.core.ruleset" not in modules


def test_no_installed_package_publishes_a_game_here() -> None:
    """The fast answer of this environment (if a plug-in is ever installed in it, the tests
    below still cover both answers)."""
    assert not games.may_have_plugins()


def _plugin(root: Path) -> None:
    """A package on ``root`` that publishes a game under the ``pbem.games`` entry point, as
    pip would install it: the module and its ``.dist-info`` folder."""
    (root / "startup_plugin_game.py").write_text(
        "from pbem.games.conformance import Conformance\n\n"
        "class Published(Conformance):\n"
        "    name = 'published'\n"
        "    title = 'A published game'\n"
        "    min_players = 3\n"
        "    max_players = 5\n\n"
        "RULESET = Published()\n")
    info = root / "startup_plugin_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: startup-plugin-game\n"
                                   "Version: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[console_scripts]\nnothing = startup_plugin_game:RULESET\n\n"
        "[pbem.games]\npublished = startup_plugin_game:RULESET\n")


def test_a_published_game_is_listed_and_loaded(tmp_path: Path) -> None:
    _plugin(tmp_path)
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    proc, modules = _modules("games", cwd=tmp_path, env=env)
    width = max(map(len, [*games.BUILTIN, "published"]))
    assert f"{'published':{width}}  A published game (3-5 players)" in proc.stdout.splitlines()
    assert "importlib.metadata" in modules  # the files named the group: it decided
    assert "startup_plugin_game" in modules


def test_the_scan_sees_a_published_game_and_leaves_other_packages_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    (other / "unrelated-2.0.dist-info").mkdir(parents=True)
    (other / "unrelated-2.0.dist-info" / "entry_points.txt").write_text(
        "[console_scripts]\nunrelated = unrelated:main\n")
    (other / "legacy.egg-info").write_text("Name: legacy\n")  # a file, not a folder
    monkeypatch.syspath_prepend(str(other))
    assert not games.may_have_plugins()
    published = tmp_path / "published"
    published.mkdir()
    _plugin(published)
    monkeypatch.syspath_prepend(str(published))
    assert games.may_have_plugins()


def test_a_zip_on_the_path_is_left_to_importlib_metadata(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("bundled-1.0.dist-info/entry_points.txt", "[pbem.games]\nb = bundled:R\n")
    monkeypatch.syspath_prepend(str(archive))
    assert games.may_have_plugins()


# --- what the commands that read order files import ------------------------------------------

#: Libraries of other commands (pages, mail, randomness, package metadata) that a one-shot
#: command must not load.
NOT_NEEDED = {"html", "markupsafe", "jinja2", "secrets", "random", "importlib.metadata",
              "email", "smtplib", "pbem.core.report", "pbem.core.audit", "pbem.core.svg"}


@pytest.mark.parametrize("command", ["verify", "commit", "status", "form", "submit"])
def test_one_shot_commands_leave_other_commands_libraries_alone(
        command: str, table: Table, tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text(table.signed("alice"))
    args = {"verify": ["verify", str(orders), "--campaign", str(table.root)],
            "commit": ["commit", str(orders)],
            "status": ["status", str(table.root)],
            "form": ["form", str(table.root), "--player", "alice"],
            "submit": ["submit", str(table.root), str(orders)]}[command]
    _, modules = _modules(*args, cwd=tmp_path)
    assert modules & NOT_NEEDED == set()
    assert not any(m.startswith("pbem.channels") for m in modules)
    if command == "commit":  # the commitment needs the order block, not the campaign
        assert "pbem.core.engine" not in modules and "pbem.games" not in modules


def test_the_form_token_is_64_fresh_hex_digits() -> None:
    from pbem.cli.app import _token

    a, b = _token(), _token()
    assert len(a) == 64 and int(a, 16) >= 0 and a != b


# --- the cache of parsed TOML data ------------------------------------------------------------


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder / "toml"


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.marshal")) if folder.is_dir() else []


def test_a_parsed_file_is_read_back_from_the_cache(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "units.toml"
    path.write_text('[[unit]]\nid = 1\nname = "hoplite"\nstrength = 2.5\n')
    first = read_toml(path)
    assert first == tomli.loads(path.read_text())
    (entry,) = _entries(cache)
    assert cache.stat().st_mode & 0o777 == 0o700
    # The next read comes from the entry, not from the text: an entry with other data under
    # the same key is what it returns.
    _store_other(entry, {"unit": [{"id": 1, "name": "from the cache", "strength": 2.5}]})
    assert read_toml(path)["unit"][0]["name"] == "from the cache"


def _store_other(entry: Path, data: dict[str, object]) -> None:
    key = entry.name.removesuffix(".marshal")
    entry.unlink()
    resources._store(entry.parent, key, data)


def test_an_edited_file_is_parsed_again(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "units.toml"
    path.write_text("strength = 2\n")
    assert read_toml(path) == {"strength": 2}
    path.write_text("strength = 3\n")  # the user's own value
    assert read_toml(path) == {"strength": 3}
    assert len(_entries(cache)) == 2


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "other format"])
def test_a_damaged_entry_is_parsed_again_and_replaced(cache: Path, tmp_path: Path,
                                                      damage: str) -> None:
    path = tmp_path / "units.toml"
    path.write_text('name = "hoplite"\ncount = 12\n')
    expected = read_toml(path)
    (entry,) = _entries(cache)
    blob = entry.read_bytes()
    entry.write_bytes({"truncate": blob[:-3], "flip": blob[:-1] + bytes([blob[-1] ^ 1]),
                       "empty": b"", "other format": b"pbem-toml-cache/0\n" + blob[18:]
                       }[damage])
    assert read_toml(path) == expected
    assert resources._load(entry) == expected  # written again, whole


def test_a_folder_others_may_write_is_not_used(cache: Path, tmp_path: Path) -> None:
    cache.mkdir(parents=True)
    cache.chmod(0o777)
    path = tmp_path / "units.toml"
    path.write_text("count = 1\n")
    assert cache_dir() is None
    assert read_toml(path) == {"count": 1}
    assert _entries(cache) == []


def test_no_cache_where_none_can_be_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    path = tmp_path / "units.toml"
    path.write_text("count = 1\n")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    assert cache_dir() is None
    assert read_toml(path) == {"count": 1}
    monkeypatch.setenv(CACHE_ENV, "")  # set and empty: no cache
    assert cache_dir() is None
    assert read_toml(path) == {"count": 1}


def test_dates_are_parsed_but_not_cached(cache: Path) -> None:
    data = parse_toml("when = 2026-11-26\n")
    assert str(data["when"]) == "2026-11-26"
    assert _entries(cache) == []


def test_broken_toml_raises_the_parsers_own_error(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("name = \n")
    with pytest.raises(tomli.TOMLDecodeError):
        read_toml(path)
    with pytest.raises(tomllib.TOMLDecodeError):
        read_toml(path, tomllib)
    assert _entries(cache) == []


def test_each_parser_has_its_own_entries(cache: Path) -> None:
    text = "count = 1\n"
    assert parse_toml(text) == parse_toml(text, tomllib) == {"count": 1}
    assert len(_entries(cache)) == 2


def test_mythology_components_are_the_same_from_the_cache(cache: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    from pbem.games.mythology import components

    # repr: some component classes compare by identity (ProtectionTable)
    parsed = repr(components.load_dir(components.DATA))  # fills the cache
    assert len(_entries(cache)) == len(components.FILES)
    assert repr(components.load_dir(components.DATA)) == parsed  # from it
    monkeypatch.setenv(CACHE_ENV, "")
    assert repr(components.load_dir(components.DATA)) == parsed


def test_the_entry_is_plain_marshal_data_with_its_digest(cache: Path) -> None:
    parse_toml('a = [1, "b", {c = true}]\n')
    (entry,) = _entries(cache)
    blob = entry.read_bytes()
    assert blob.startswith(b"pbem-toml-cache/1\n")
    assert json.dumps(resources._load(entry)) == '{"a": [1, "b", {"c": true}]}'

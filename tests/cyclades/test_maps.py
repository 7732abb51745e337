"""The Cyclades boards: every side loads and has the seed's features, the graph queries answer
as hand-computed from the layouts, and broken files are refused with file, table and key.

Hand computations use the layout printed at the top of each board file (columns A.., rows 1..,
even rows half a cell to the right; a cell in an odd row r, column c touches (c-1, r-1),
(c, r-1), (c-1, r), (c+1, r), (c-1, r+1), (c, r+1); in an even row, (c, r-1), (c+1, r-1),
(c-1, r), (c+1, r), (c, r+1), (c+1, r+1)).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.cyclades import maps
from pbem.games.cyclades.maps import BoardDataError, load_board
from tests.budget import examples

ALL_SIDES = [(b, n) for b, counts in maps.PLAYER_COUNTS.items() for n in counts]


def _wheres(exc: BoardDataError) -> list[str]:
    return [p.where for p in exc.problems]


def _copy(tmp_path: Path) -> Path:
    for f in maps.DATA.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def _edit(directory: Path, file: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = directory / file
    data = tomli.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def _record(data: dict[str, Any], table: str, rid: str) -> dict[str, Any]:
    return next(r for r in data[table] if r["id"] == rid)


def _toy(tmp_path: Path, seas: dict[str, list[str]], shores: dict[str, list[str]]) -> Path:
    """A one-side board file: seas with their neighbours, territories with their seas."""
    data = {"side": {"board": "vanilla", "name": "toy", "players": [2]},
            "territory": [{"id": t, "name": t.title(), "prosperity": 0, "building_spaces": 1,
                           "metropolis_square": True, "seas": s} for t, s in shores.items()],
            "sea": [{"id": s, "seas": n} for s, n in seas.items()]}
    path = tmp_path / "toy.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


# --- every side, and the seed's facts --------------------------------------------------------


@pytest.mark.parametrize(("board", "players"), ALL_SIDES)
def test_setup_1_1_each_player_count_has_its_side(board: str, players: int) -> None:
    side = load_board(board, players)
    assert side.name == board
    assert players in side.players
    assert side.side.startswith(board + "-")
    assert side.territories and side.seas


def test_setup_1_1_boards_lists_vanilla_2_to_5_and_titans_2_to_6() -> None:
    assert maps.boards() == sorted(ALL_SIDES)
    # The 3/4 face of the Titans board serves 2, 3 and 4 players: one object, cached.
    assert load_board("titans", 2) is load_board("titans", 4)
    assert load_board("titans", 5) is load_board("titans", 6)
    assert load_board("vanilla", 4) is not load_board("vanilla", 5)


def test_setup_1_1_a_count_without_a_side_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="vanilla"):
        load_board("vanilla", 6)  # the seed plays six only on the Titans board
    with pytest.raises(KeyError):
        load_board("hades", 3)


@pytest.mark.parametrize(("board", "players"), ALL_SIDES)
def test_adjacency_is_symmetric_and_sorted(board: str, players: int) -> None:
    side = load_board(board, players)
    for t in side.territories.values():
        assert list(t.seas) == sorted(t.seas) and list(t.land) == sorted(t.land)
        for s in t.seas:
            assert t.id in side.territories_of(s)
        for n in t.land:
            assert t.id in side.land_neighbours(n)
    for sea in side.seas.values():
        assert list(sea.seas) == sorted(sea.seas)
        assert list(sea.territories) == sorted(sea.territories)
        for n in sea.seas:
            assert sea.id in side.adjacent_seas(n)
        for t_id in sea.territories:
            assert sea.id in side.seas_of(t_id)
    assert list(side.territories) == sorted(side.territories)
    assert list(side.seas) == sorted(side.seas)


@pytest.mark.parametrize(("board", "players"), ALL_SIDES)
def test_sea_graph_connected_and_every_territory_on_a_sea(board: str, players: int) -> None:
    side = load_board(board, players)
    first = side.sea_ids[0]
    assert all(side.sea_distance(first, s) < len(side.seas) for s in side.sea_ids)
    assert all(side.seas_of(t) for t in side.territory_ids)


def test_vanilla_islands_never_touch_and_have_a_metropolis_space() -> None:
    for n in maps.PLAYER_COUNTS["vanilla"]:
        side = load_board("vanilla", n)
        for t in side.territories.values():
            assert t.land == () and t.island == t.id
            assert t.metropolis_square and 1 <= t.building_spaces <= 4
            assert not t.small_island and not t.building_symbol
        assert side.starting_pairs() == ()


def test_vanilla_seas_carry_prosperity() -> None:
    # Base rules: maritime trade, some sea spaces show a cornucopia. The five-player layout
    # has six, two in each of its three parts (the * cells of the picture in vanilla-5.toml).
    assert sum(s.prosperity for s in load_board("vanilla", 5).seas.values()) == 6
    for n in maps.PLAYER_COUNTS["vanilla"]:
        assert any(s.prosperity for s in load_board("vanilla", n).seas.values())


def test_vanilla_sizes_grow_with_players() -> None:
    islands = [len(load_board("vanilla", n).territories) for n in (2, 3, 4, 5)]
    assert islands == [8, 10, 11, 13]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_9_1_vanilla_room_for_every_unit_deployed(players: int) -> None:
    # Setup 2: two Troops each; Setup 8: the only extra land units are Ares' Troop and
    # Kronos' Titan; Setup 9.1: with the Vanilla board a player may spread over more
    # territories. Every unit can have an island of its own, and every island offers two
    # different sea spaces for the two Fleets (Setup 9.2).
    side = load_board("vanilla", players)
    assert len(side.territories) >= 2 * players + 2
    assert all(len(side.seas_of(t)) >= 2 for t in side.territory_ids)


@pytest.mark.parametrize("players", [2, 5])
def test_setup_1_2_titans_has_four_building_symbols(players: int) -> None:
    side = load_board("titans", players)
    symbols = [t for t in side.territories.values() if t.building_symbol]
    # One of each basic building but the Theater: port, fortress, temple, university.
    assert len(symbols) == 4
    assert all(t.building_spaces >= 1 and not t.small_island for t in symbols)


@pytest.mark.parametrize("players", [2, 5])
def test_setup_9_1_titans_small_islands_are_flagged_and_alone(players: int) -> None:
    side = load_board("titans", players)
    small = [t for t in side.territories.values() if t.small_island]
    assert len(small) >= 4
    for t in small:
        assert side.islands[t.island] == (t.id,)
        assert t.land == ()
        assert all(t.id not in pair for pair in side.starting_pairs())
    # The large islands are divided into territories bordering each other by land.
    large = [i for i, ids in side.islands.items() if len(ids) > 1]
    assert sorted(large) == ["crete", "euboea"]


@pytest.mark.parametrize("players", [2, 5])
def test_team_5_2_metropolis_squares_exist_on_titans(players: int) -> None:
    side = load_board("titans", players)
    squares = [t for t in side.territories.values() if t.metropolis_square]
    assert 6 <= len(squares) < len(side.territories)
    assert not any(t.small_island for t in squares)
    # Three Metropolises win a team game (Team 1), so each large island has room for three.
    for island in ("crete", "euboea"):
        assert sum(side.territory(t).metropolis_square for t in side.islands[island]) >= 3


def _disjoint_pairs(pairs: list[tuple[str, str]], count: int,
                    used: frozenset[str] = frozenset()) -> bool:
    if count == 0:
        return True
    for i, (a, b) in enumerate(pairs):
        if a not in used and b not in used and _disjoint_pairs(
                pairs[i + 1:], count - 1, used | {a, b}):
            return True
    return False


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_9_1_titans_two_adjacent_territories_for_every_player(players: int) -> None:
    side = load_board("titans", players)
    pairs = list(side.starting_pairs())
    for a, b in pairs:
        assert b in side.land_neighbours(a)
        # Setup 9.2: two different sea spaces for the two Fleets.
        assert len(set(side.seas_of(a)) | set(side.seas_of(b))) >= 2
    assert _disjoint_pairs(pairs, players)


def _teams_fit(side: maps.Board, teams: int, used: frozenset[str] = frozenset()) -> bool:
    """Whether ``teams`` teams of two can each start on two pairs on different islands."""
    if teams == 0:
        return True
    pairs = [p for p in side.starting_pairs() if not set(p) & used]
    for i, first in enumerate(pairs):
        for second in pairs[i + 1:]:
            if (side.island_of(first[0]) != side.island_of(second[0])
                    and not set(first) & set(second)
                    and _teams_fit(side, teams - 1, used | set(first) | set(second))):
                return True
    return False


@pytest.mark.parametrize("players", [4, 6])
def test_team_2_teammates_can_start_on_different_islands(players: int) -> None:
    side = load_board("titans", players)
    assert _teams_fit(side, players // 2)


def test_starting_pairs_hand_checked() -> None:
    # titans-3-4: Euboea is HIS C2 C3 D3, CHA D2 E2, KYM F2 G2, ERE E3 F3, STY G3, KAR H3.
    # Styra (G3, odd row 3) touches F2, G2 (Kyme), F3 (Eretria), H3 (Karystos).
    side = load_board("titans", 3)
    assert side.land_neighbours("styra") == ("eretria", "karystos", "kyme")
    euboea = [p for p in side.starting_pairs() if side.island_of(p[0]) == "euboea"]
    assert euboea == [("chalcis", "eretria"), ("chalcis", "histiaia"), ("chalcis", "kyme"),
                      ("eretria", "histiaia"), ("eretria", "kyme"), ("eretria", "styra"),
                      ("karystos", "kyme"), ("karystos", "styra"), ("kyme", "styra")]


# --- graph queries ---------------------------------------------------------------------------


def test_seas_of_and_distance_hand_checked() -> None:
    side = load_board("vanilla", 5)
    # Delos is cell I3 (odd row 3, column I): it touches H2, I2, H3, J3, H4, I4.
    assert side.seas_of("delos") == ("H2", "H3", "H4", "I2", "I4", "J3")
    assert "delos" in side.territories_of("H4") and "naxos" in side.territories_of("H4")
    # H3 and J3 lie either side of Delos; their neighbours share no sea (H3: G2 H2 G3 G4 H4;
    # J3: I2 J2 K3 I4 J4), so the shortest way round is three steps (H3 H2 I2 J3).
    assert side.sea_distance("H3", "J3") == 3
    assert side.sea_distance("J3", "H3") == 3
    assert side.sea_distance("H3", "H3") == 0


def test_forgotten_9_fleet_paths_go_at_most_three_spaces() -> None:
    side = load_board("vanilla", 5)
    paths = side.fleet_paths("H3")
    assert paths == {s: d for s in side.sea_ids
                     if 1 <= (d := side.sea_distance("H3", s)) <= maps.FLEET_MOVE}
    assert "J3" in paths and max(paths.values()) == 3
    assert any(side.sea_distance("H3", s) == 4 for s in side.sea_ids)
    assert list(paths) == sorted(paths)
    assert side.fleet_paths("H3", max_steps=1) == {s: 1 for s in side.adjacent_seas("H3")}


def test_forgotten_9_fleet_stops_on_entering_enemy_fleets(tmp_path: Path) -> None:
    # A strait: S1 - S2 - S3 - S4 - S5 in a line.
    line = {"S1": ["S2"], "S2": ["S1", "S3"], "S3": ["S2", "S4"], "S4": ["S3", "S5"],
            "S5": ["S4"]}
    side = maps.read_side(_toy(tmp_path, line, {"west": ["S1"], "east": ["S5"]}))
    assert side.fleet_paths("S1") == {"S2": 1, "S3": 2, "S4": 3}
    assert side.fleet_paths("S1", blocked={"S2"}) == {"S2": 1}
    assert side.fleet_paths("S1", blocked={"S3"}) == {"S2": 1, "S3": 2}
    # A fleet that fought in its own space may move on (Forgotten 9): the start never stops it.
    assert side.fleet_paths("S1", blocked={"S1"}) == {"S2": 1, "S3": 2, "S4": 3}
    # On the real board the blocked space is a wall: J3 is three steps from H3 either side of
    # Delos; blocking H2 and H4 leaves no way through.
    vanilla = load_board("vanilla", 5)
    around = vanilla.fleet_paths("H3", blocked={"H2", "H4"})
    assert around["H2"] == 1 and around["H4"] == 1 and "J3" not in around


@settings(max_examples=examples(60), deadline=None)
@given(st.sets(st.sampled_from(load_board("vanilla", 5).sea_ids), max_size=12),
       st.sampled_from(load_board("vanilla", 5).sea_ids), st.integers(0, 4))
def test_forgotten_9_fleet_paths_are_exactly_the_unblocked_walks(
        blocked: set[str], start: str, steps: int) -> None:
    side = load_board("vanilla", 5)
    paths = side.fleet_paths(start, max_steps=steps, blocked=blocked)
    reached = {start: 0, **paths}
    for sea, d in paths.items():
        assert 1 <= d <= steps and d >= side.sea_distance(start, sea)
        # Every reached sea was entered from one reached one step earlier that did not stop.
        assert any(reached.get(p) == d - 1 and (p == start or p not in blocked)
                   for p in side.adjacent_seas(sea))
    # And every sea one step beyond a space the fleet could pass through was reached.
    for sea, d in reached.items():
        if d < steps and (sea == start or sea not in blocked):
            assert all(n in reached for n in side.adjacent_seas(sea))


def test_battle_2_linked_through_a_chain_of_own_fleets() -> None:
    side = load_board("vanilla", 5)
    # Naxos is H5, H6, I6; it touches G4 G5 G6 H4 H7 I5 I7 J5 J6 J7 (hand count from the
    # layout). H4 touches both islands: one fleet links them.
    assert side.linked("delos", "naxos", {"H4"})
    # I4 touches Delos only and I5 Naxos only; I4 and I5 are neighbours: a chain of two.
    assert side.linked("delos", "naxos", {"I4", "I5"})
    assert side.linked("naxos", "delos", {"I4", "I5"})
    assert side.adjacent_or_linked("delos", "naxos", {"I4", "I5"})


def test_battle_2_not_linked_without_a_whole_chain() -> None:
    side = load_board("vanilla", 5)
    assert not side.linked("delos", "naxos", set())
    assert not side.linked("delos", "naxos", {"I4"})          # stops short of Naxos
    assert not side.linked("delos", "naxos", {"I5"})          # never touches Delos
    assert not side.linked("delos", "naxos", {"I4", "J6"})    # a gap between I4 and J6
    assert not side.linked("delos", "delos", {"H4"})          # not to itself
    assert side.reachable_territories("delos", set()) == ()
    # Through H4 Delos reaches every island on H4's shores.
    assert side.reachable_territories("delos", {"H4"}) == ("naxos",)


def test_titans_land_neighbours_need_no_fleet() -> None:
    side = load_board("titans", 3)
    # Knossos is G6 H6 on the 3/4 face; Gortyn is F7 G7, and G6 touches G7 below it.
    assert "gortyn" in side.land_neighbours("knossos")
    assert side.adjacent_or_linked("knossos", "gortyn", set())
    assert not side.linked("knossos", "gortyn", set())
    # Kydonia and Itanos are the two ends of Crete: neither bordering nor linked.
    assert not side.adjacent_or_linked("kydonia", "itanos", set())
    assert side.reachable_territories("knossos", set()) == side.land_neighbours("knossos")


def test_unknown_ids_are_key_errors() -> None:
    side = load_board("vanilla", 5)
    with pytest.raises(KeyError, match="atlantis"):
        side.seas_of("atlantis")
    with pytest.raises(KeyError, match="Z9"):
        side.adjacent_seas("Z9")
    with pytest.raises(KeyError, match="Z9"):
        side.fleet_paths("H3", blocked={"Z9"})
    with pytest.raises(KeyError, match="Z9"):
        side.linked("delos", "naxos", {"Z9"})


def test_as_dict_is_plain_data() -> None:
    def plain(value: object) -> bool:
        if isinstance(value, dict):
            return all(isinstance(k, str) and plain(v) for k, v in value.items())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return isinstance(value, str | int | bool)

    data = load_board("titans", 6).as_dict()
    assert plain(data)
    assert data["players"] == [5, 6] and len(data["territories"]) == 29  # type: ignore[arg-type]


# --- refusing broken files -------------------------------------------------------------------


def _load_problems(directory: Path) -> BoardDataError:
    with pytest.raises(BoardDataError) as caught:
        maps.load_dir(directory)
    return caught.value


def test_unknown_key_named_with_file_table_key(tmp_path: Path) -> None:
    _edit(_copy(tmp_path), "vanilla-5.toml",
          lambda d: _record(d, "territory", "delos").update(colour="white"))
    err = _load_problems(tmp_path)
    assert _wheres(err) == ["vanilla-5.toml [[territory]] delos colour"]
    assert "unknown key" in str(err)


def test_missing_and_mistyped_keys_named(tmp_path: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        del _record(d, "territory", "delos")["building_spaces"]
        _record(d, "territory", "naxos")["prosperity"] = "two"
        _record(d, "sea", "H4")["seas"] = "H3"

    _edit(_copy(tmp_path), "vanilla-5.toml", change)
    err = _load_problems(tmp_path)
    # One problem each, and no echo where others name Delos, Naxos or H4.
    assert _wheres(err) == ["vanilla-5.toml [[territory]] delos building_spaces",
                            "vanilla-5.toml [[territory]] naxos prosperity",
                            "vanilla-5.toml [[sea]] H4 seas"]
    assert "is missing" in str(err) and "not a whole number" in str(err)


def test_dangling_references_named(tmp_path: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        _record(d, "territory", "knossos")["seas"].append("Z9")
        _record(d, "territory", "knossos")["land"].append("atlantis")

    _edit(_copy(tmp_path), "titans-5-6.toml", change)
    err = _load_problems(tmp_path)
    assert _wheres(err) == ["titans-5-6.toml [[territory]] knossos seas",
                            "titans-5-6.toml [[territory]] knossos land"]
    assert "'Z9'" in str(err) and "'atlantis'" in str(err)


def test_asymmetric_adjacency_is_rejected_not_repaired(tmp_path: Path) -> None:
    directory = _copy(tmp_path)
    # H3 still names H2, Knossos still names Gortyn: each link is now written on one end.
    _edit(directory, "vanilla-5.toml", lambda d: _record(d, "sea", "H2")["seas"].remove("H3"))
    _edit(directory, "titans-3-4.toml",
          lambda d: _record(d, "territory", "gortyn")["land"].remove("knossos"))
    err = _load_problems(directory)
    assert _wheres(err) == ["titans-3-4.toml [[territory]] knossos land",
                            "vanilla-5.toml [[sea]] H3 seas"]
    assert "'H2' does not name 'H3'" in str(err)


def test_duplicate_ids_named(tmp_path: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["territory"].append(dict(_record(d, "territory", "delos")))
        d["sea"].append({"id": "naxos", "seas": ["H4"]})

    _edit(_copy(tmp_path), "vanilla-5.toml", change)
    err = _load_problems(tmp_path)
    assert _wheres(err) == ["vanilla-5.toml [[territory]] delos id",
                            "vanilla-5.toml [[sea]] naxos id"]
    assert "used twice" in str(err) and "also a territory's id" in str(err)


def test_territory_without_a_sea_named(tmp_path: Path) -> None:
    _edit(_copy(tmp_path), "vanilla-2.toml",
          lambda d: _record(d, "territory", "kimolos").update(seas=[]))
    err = _load_problems(tmp_path)
    assert _wheres(err) == ["vanilla-2.toml [[territory]] kimolos seas"]
    assert "at least one sea" in str(err)


def test_disconnected_sea_graph_named(tmp_path: Path) -> None:
    # Two straits that never meet: no fleet can cross from one to the other.
    path = _toy(tmp_path, {"S1": ["S2"], "S2": ["S1"], "T1": ["T2"], "T2": ["T1"]},
                {"west": ["S1"], "east": ["T2"]})
    with pytest.raises(BoardDataError) as caught:
        maps.read_side(path)
    assert _wheres(caught.value) == ["toy.toml [[sea]] seas"]
    assert "2 groups" in str(caught.value) and "S1, S2; T1, T2" in str(caught.value)


def test_player_count_without_a_side_or_with_two_named(tmp_path: Path) -> None:
    (_copy(tmp_path) / "vanilla-3.toml").unlink()
    err = _load_problems(tmp_path)
    assert _wheres(err) == ["[side] players"]
    assert "vanilla board for 3 players" in str(err)

    shutil.copy(maps.DATA / "vanilla-3.toml", tmp_path / "vanilla-3.toml")
    shutil.copy(maps.DATA / "vanilla-2.toml", tmp_path / "vanilla-2b.toml")
    err = _load_problems(tmp_path)
    assert _wheres(err) == ["vanilla-2b.toml [side] players"]
    assert "already given by vanilla-2.toml" in str(err)


def test_titans_rules_checked_symbols_small_islands_land(tmp_path: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        _record(d, "territory", "malia")["building_symbol"] = True     # a fifth symbol
        _record(d, "territory", "aptera")["small_island"] = True       # yet part of Crete
        _record(d, "territory", "styra")["land"].append("dia")         # across the water
        _record(d, "territory", "dia")["land"] = ["styra"]

    _edit(_copy(tmp_path), "titans-3-4.toml", change)
    err = _load_problems(tmp_path)
    assert _wheres(err) == ["titans-3-4.toml [[territory]] dia land",
                            "titans-3-4.toml [[territory]] styra land",
                            "titans-3-4.toml [[territory]] aptera small_island",
                            "titans-3-4.toml [[territory]] building_symbol"]
    assert "5 territories carry a building symbol, not 4" in str(err)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    directory = _copy(tmp_path)
    (directory / "titans-5-6.toml").write_text("[side\nboard = 1\n", encoding="utf-8")
    _edit(directory, "vanilla-4.toml", lambda d: d["side"].update(players=[4, 7], extra=1))
    _edit(directory, "vanilla-2.toml", lambda d: d.update(legend={"a": 1}))
    err = _load_problems(directory)
    wheres = _wheres(err)
    assert wheres == ["titans-5-6.toml", "vanilla-2.toml legend",
                      "vanilla-4.toml [side] players", "vanilla-4.toml [side] extra"]
    assert "not valid TOML" in str(err) and "holds 7" in str(err)


# --- cells: the layout as data, for the board picture ----------------------------------------


def _picture(path: Path) -> tuple[int, int, dict[tuple[int, int], str]]:
    """The layout drawn in a file's header comment, read independently of the loader:
    columns, rows, and the word written in each cell (a sea id or a territory abbreviation,
    without its ``*``). Odd rows stand under the column letters, even rows half a column
    to the right."""
    lines = [x[1:] for x in path.read_text(encoding="utf-8").splitlines() if x.startswith("#")]
    top = next(i for i, x in enumerate(lines) if x.split()[:3] == ["A", "B", "C"])
    letters = {m.start(): ord(m[0]) - 64 for m in re.finditer(r"[A-Z]", lines[top])}
    first, second = sorted(letters)[:2]
    spacing = second - first
    cells: dict[tuple[int, int], str] = {}
    rows = 0
    for line in lines[top + 1:]:
        m = re.match(r"\s*(\d+)(\s.*)$", line)
        if not m:
            break
        rows = row = int(m[1])
        for word in re.finditer(r"\S+", m[2]):
            x = m.start(2) + word.start() - (spacing // 2 if row % 2 == 0 else 0)
            assert (x - first) % spacing == 0, (path.name, row, word[0])
            cells[((x - first) // spacing + 1, row)] = word[0].rstrip("*")
    return len(letters), rows, cells


@pytest.mark.parametrize(("board", "players"), ALL_SIDES)
def test_cells_match_the_picture_at_the_top_of_the_file(board: str, players: int) -> None:
    side = load_board(board, players)
    columns, rows, picture = _picture(maps.DATA / f"{side.side}.toml")
    assert side.has_cells and (side.columns, side.rows) == (columns, rows)
    got = {maps.cell_position(cell): rid for cell, (_, rid) in side.cells().items()}
    text = (maps.DATA / f"{side.side}.toml").read_text(encoding="utf-8")
    abbreviations = dict(re.findall(r'id = "([a-z-]+)"  # ([A-Z]{3})\n', text))
    want = {}
    for pos, word in picture.items():
        # A sea is written as its id (lower case on the Vanilla sides), a territory as its
        # abbreviation, given beside its id.
        owner = [t for t, a in abbreviations.items() if a == word]
        want[pos] = owner[0] if owner else word.upper()
    assert got == want
    assert set(abbreviations) == set(side.territories)


@pytest.mark.parametrize(("board", "players"), ALL_SIDES)
def test_the_adjacency_tables_agree_with_the_cells(board: str, players: int) -> None:
    """The graph is written by hand, the cells too: where one record's cells touch
    another's, the tables must link them, and nowhere else (a land border only between
    territories)."""
    side = load_board(board, players)
    where = {maps.cell_position(c): rec for c, rec in side.cells().items()}
    touching: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for pos, rec in where.items():
        for n in maps.cell_neighbours(*pos):
            if n in where and where[n] != rec:
                touching.setdefault(rec, set()).add(where[n])
    for t in side.territories.values():
        near = touching.get(("territory", t.id), set())
        assert tuple(sorted(i for k, i in near if k == "sea")) == t.seas, t.id
        assert tuple(sorted(i for k, i in near if k == "territory")) == t.land, t.id
    for s in side.seas.values():
        near = touching.get(("sea", s.id), set())
        assert tuple(sorted(i for k, i in near if k == "sea")) == s.seas, s.id


@pytest.mark.parametrize(("board", "players"), ALL_SIDES)
def test_seas_are_named_by_their_first_cell(board: str, players: int) -> None:
    side = load_board(board, players)
    for s in side.seas.values():
        assert s.cells[0] == s.id  # reading order: the first cell names the sea
        if board == "vanilla":
            assert s.cells == (s.id,)  # one cell each, no `cells` key needed
    assert any(len(s.cells) > 1 for s in side.seas.values()) == (board == "titans")
    for t in side.territories.values():
        assert t.cells and t.cells == tuple(sorted(
            t.cells, key=lambda c: maps.cell_position(c)[::-1]))


def test_cell_helpers_hand_checked() -> None:
    assert maps.cell_position("H5") == (8, 5) and maps.cell_name(8, 5) == "H5"
    assert maps.cell_position("N10") == (14, 10)
    # Odd row 5: columns c-1 and c above and below; even row 4: c and c+1.
    assert set(maps.cell_neighbours(8, 5)) == {(9, 5), (7, 5), (7, 4), (8, 4), (7, 6), (8, 6)}
    assert set(maps.cell_neighbours(3, 4)) == {(4, 4), (2, 4), (3, 3), (4, 3), (3, 5), (4, 5)}
    with pytest.raises(ValueError):
        maps.cell_position("h5")
    # Naxos (vanilla-5: H5 H6 I6) and its shore, as in the picture.
    naxos = load_board("vanilla", 5).territory("naxos")
    assert naxos.cells == ("H5", "H6", "I6") and naxos.as_dict()["cells"] == ["H5", "H6", "I6"]
    assert load_board("titans", 3).sea("A3").cells == ("A3", "B3", "A4")


def test_cells_checked_format_grid_and_overlap(tmp_path: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        _record(d, "territory", "delos")["cells"] = ["I3", "i4"]       # not a cell
        _record(d, "territory", "naxos")["cells"] = ["H5", "H6", "N6"]  # column N of 13
        _record(d, "territory", "paros")["cells"] = ["F5", "F6", "H5"]  # Naxos' cell
        _record(d, "territory", "ios")["cells"] = ["K1", "K2", "J2"]    # sea J2's cell

    _edit(_copy(tmp_path), "vanilla-5.toml", change)
    err = _load_problems(tmp_path)
    assert _wheres(err) == ["vanilla-5.toml [[territory]] delos cells",
                            "vanilla-5.toml [[territory]] naxos cells",
                            "vanilla-5.toml [[territory]] paros cells",
                            "vanilla-5.toml [[sea]] J2 cells"]
    text = str(err)
    assert "'i4', not a cell" in text and "'N6', outside the grid of 13 columns" in text
    assert "'H5', which [[territory]] naxos covers too" in text
    assert "'J2', which [[territory]] ios covers too" in text


def test_cells_need_a_grid_and_a_grid_needs_cells(tmp_path: Path) -> None:
    def no_grid(d: dict[str, Any]) -> None:
        del d["side"]["columns"]
        del d["side"]["rows"]

    directory = _copy(tmp_path)
    _edit(directory, "titans-3-4.toml", no_grid)  # cells everywhere, but no grid
    _edit(directory, "vanilla-2.toml", lambda d: _record(d, "territory", "delos").pop("cells"))
    _edit(directory, "vanilla-3.toml", lambda d: d["side"].pop("rows"))
    err = _load_problems(directory)
    wheres = _wheres(err)
    assert wheres.count("titans-3-4.toml [[territory]] aptera cells") == 1
    assert "titans-3-4.toml [[sea]] A3 cells" in wheres
    assert "vanilla-2.toml [[territory]] delos cells" in wheres
    assert "vanilla-3.toml [side] rows" in wheres
    assert "no columns and rows" in str(err) and "is missing: the side has a grid" in str(err)


def test_a_side_without_any_cells_still_loads(tmp_path: Path) -> None:
    # Cells are for the picture only: a group's own file may leave them out altogether.
    path = _toy(tmp_path, {"S1": ["S2"], "S2": ["S1"]}, {"west": ["S1"], "east": ["S2"]})
    side = maps.read_side(path)
    assert not side.has_cells and side.cells() == {}
    assert side.territory("west").cells == () and side.sea("S1").cells == ()

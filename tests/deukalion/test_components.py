"""Deukalion's components: the values the seed prints (Map 1, Object 1, Contents, the Ephesus
and Halikarnassos examples, Action 1-2), the board's geometry (Map 13, Ship 4, Kylix Hydra 2,
Sail 3) and the loader's refusals of data that breaks a rule."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pbem.core.errors import ProblemsError
from pbem.games.deukalion.components import (
    CARD_DIE,
    DATA,
    HONOUR_CARDS,
    KYLIX_SYMBOLS,
    SHIPBOARD,
    TARGET,
    THROW,
    THROW_SCORE2,
    load,
    load_from,
    throw_faces,
)

SEED = Path(__file__).resolve().parents[3] / "shared" / "rules" / "002_ee75469dcc6b00c4.txt"


def seed() -> str:
    return SEED.read_text() if SEED.is_file() else ""  # without ../shared the literals hold


def test_map_1_names_as_printed() -> None:
    b = load().board
    cities = ["Corinth", "Mykene", "Sparta", "Thera", "Crete", "Rhodes", "Cyprus",
              "Halikarnassos"]
    settlements = ["Ephesus", "Salamis", "Argos", "Lindos"]
    assert sorted(c.name for c in b.cities.values()) == sorted(cities)
    assert sorted(s.name for s in b.settlements.values()) == sorted(settlements)
    if text := seed():
        assert "8 cities: " + ", ".join(cities[:-1]) + " and Halikarnassos" in text
        assert "4 settlements: " + ", ".join(settlements[:-1]) + " and Lindos" in text
    for sq in b.squares.values():  # every place square names its place
        if sq.kind in ("city", "settlement"):
            assert sq.place and sq.name == b.place_name(sq.place)
        else:
            assert sq.place == ""


def test_object_1_targets() -> None:
    assert TARGET == {2: 16, 3: 14, 4: 12}
    if text := seed():
        for n, goal in TARGET.items():
            assert f"{n} players – {goal} Honour Points" in text


def test_contents_counts() -> None:
    c = load()
    chests = c.chest_list()
    assert len(chests) == 15 and len(set(chests)) == 5
    assert all(chests.count(col) == 3 for col in c.colours)  # "3 of each colour"
    assert len(c.action_deck()) == 30 and len(c.pursuits) == 16
    assert HONOUR_CARDS == c.honour_cards == 14
    assert SHIPBOARD == c.shipboard == 10 and c.hoplites == 10  # Map 15, Sail 1
    assert (c.start_actions, c.start_pursuits, c.display) == (3, 1, 2)  # Sail 1, Setup 4
    if text := seed():
        m = re.search(r"15 treasure\s+chest blocks \(3 of each colour\), 30 Action cards, "
                      r"16 Pursuit cards,\s+14 Honour cards", text)
        assert m


def test_challenge_city_printed_ephesus_and_halikarnassos() -> None:
    b = load().board
    hal = b.cities["halikarnassos"]
    assert (hal.value, hal.spaces) == (4, 3)  # "challenge value of 4", "up to 3"
    eph = b.settlements["ephesus"]
    assert (eph.value, eph.hoplites) == (1, 1)  # "value of 1", "leave 1 hoplite"
    assert all(2 <= c.value <= 4 for c in b.cities.values())
    assert all(s.hoplites in (1, 2) for s in b.settlements.values())  # Honour 1
    spaces = sum(c.spaces for c in b.cities.values())
    assert spaces == 17 > len(load().chest_list())  # Pursuit Deliver 4: room to return


def test_action_1_three_permanent_cards_and_printed_texts() -> None:
    c = load()
    deck = c.action_deck()
    assert sum(1 for a in deck if c.actions[a].permanent) == 3
    texts = {a.text for a in c.actions.values()}
    assert "Move your ship 2 extra squares" in texts  # Action 2
    assert "Take up to 2 hoplites back from the Underworld" in texts
    assert {a.effect for a in c.actions.values()} == {
        "move_plus", "reclaim", "hydra_plus", "draw", "challenge_plus",
        "swift_sails", "bronze_shield", "sea_legs"}
    assert c.actions["challenge_plus"].amount == 2  # doubled: +1 point
    assert c.actions["bronze_shield"].amount == 1  # doubled: +1/2 point


def test_pursuit_0_1_two_tasks_each_and_the_kinds() -> None:
    c = load()
    kinds = {t.kind for p in c.pursuits.values() for t in p.tasks}
    assert kinds == {"deliver", "defeat_ship", "sail_hoplites", "sail_cards", "defeat_hydra"}
    assert all(len(p.tasks) == 2 and 2 <= p.points <= 4 for p in c.pursuits.values())
    hydra = [p for p in c.pursuits.values() if p.hydra]
    assert len(hydra) == 2  # each with another task
    assert all(sorted(t.kind for t in p.tasks).count("defeat_hydra") == 1 for p in hydra)
    tasks = [t for p in c.pursuits.values() for t in p.tasks]
    # the seed's examples: "Take 3 treasure chests to Athens", "Deliver 1 red treasure chest"
    assert any(t.kind == "deliver" and t.colour == "" and t.count == 3 for t in tasks)
    assert any(t.kind == "deliver" and t.colour == "red" and t.count == 1 for t in tasks)
    assert any(t.kind == "sail_hoplites" and t.leave for t in tasks)
    assert any(t.kind == "sail_hoplites" and not t.leave for t in tasks)
    for t in tasks:
        assert t.place == "" or t.place in c.board.cities
        assert t.kind != "deliver" or t.count <= 3 or t.colour == ""  # 3 of each colour


def test_map_13_adjacency_is_orthogonal() -> None:
    b = load().board
    assert len(b.squares) == 63  # the review's 9 x 7
    assert b.neighbours("e4") == ("d4", "e3", "e5", "f4")
    assert b.neighbours("a1") == ("a2", "b1")
    assert b.neighbours("i7") == ("h7", "i6")
    assert "d3" not in b.neighbours("e4")  # "linked diagonally do not count"
    for sq in b.squares:
        assert all(sq in b.neighbours(n) for n in b.neighbours(sq))


def test_ship_4_kylix_neighbours_are_water() -> None:
    b = load().board
    assert b.kylix == "e4" and not b.water("e4") and not b.hydra_water("e4")
    around = ["d3", "d4", "d5", "e3", "e5", "f3", "f4", "f5"]
    assert all(b.squares[sq].kind == "water" for sq in around)


def test_sail_3_athens_south_edge_5_anchors_and_styx_east_edge() -> None:
    b = load().board
    assert b.athens and all(sq.endswith("1") for sq in b.athens)
    assert len(b.anchors) == 5
    for sq in b.anchors:
        assert b.water(sq) and any(n in b.athens for n in b.neighbours(sq))
    assert len(b.styx) == 2 and all(sq.startswith("i") and b.water(sq) for sq in b.styx)
    assert b.squares[b.hydra_start].kind == "water"


def test_kylix_hydra_2_hydra_water_excludes_anchors_and_styx() -> None:
    b = load().board
    for sq in b.anchors + b.styx:
        assert b.water(sq) and not b.hydra_water(sq)
    assert not b.water("d1") and not b.water(b.cities["rhodes"].squares[0])
    # the Hydra can roam the whole open sea from its start
    sea = {sq for sq in b.squares if b.hydra_water(sq)}
    assert set(b.distances(b.hydra_start, hydra=True)) == sea


def test_every_place_reachable_by_water_from_every_anchor() -> None:
    b = load().board
    wet = {sq for sq in b.squares if b.water(sq)}
    for anchor in b.anchors:
        reach = b.distances(anchor)
        assert set(reach) == wet
        for place in list(b.cities) + list(b.settlements):
            assert any(sq in reach for sq in b.approaches(place)), place


def test_challenge_city_0_adjacent_places() -> None:
    b = load().board
    assert b.adjacent_places("h7") == ("ephesus", "halikarnassos")
    assert b.adjacent_places("h2") == ("lindos",)
    assert b.adjacent_places("e5") == ()
    assert b.adjacent_places(b.cities["rhodes"].squares[0]) == ()  # land: no challenge
    assert b.adjacent_places(b.styx[1]) == ()  # no challenge from the Styx (Styx 3)
    for place in list(b.cities) + list(b.settlements):
        approaches = b.approaches(place)
        assert approaches
        for sq in approaches:
            assert b.squares[sq].kind in ("water", "anchor") and place in b.adjacent_places(sq)


def test_score_1_3_throw_faces_9_9_2_of_20() -> None:
    faces = throw_faces()
    assert len(faces) == 20
    assert (faces.count("up"), faces.count("down"), faces.count("side")) == (9, 9, 2)
    assert dict(THROW) == THROW_SCORE2 == {"up": 0, "down": 2, "side": 1}  # doubled
    assert sum(THROW_SCORE2[f] for f in faces) == 20  # 1/2 point per hoplite on average


def test_kylix_symbols_and_card_die() -> None:
    assert KYLIX_SYMBOLS == ("hoplites", "move", "cards", "hydra")
    assert CARD_DIE == {1: "others", 2: "nobody", 3: "self"}  # Action 0: 1 = the others


def broken(tmp_path: Path, name: str, old: str, new: str) -> str:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    text = (folder / name).read_text()
    assert old in text
    (folder / name).write_text(text.replace(old, new, 1))
    with pytest.raises(ProblemsError) as err:
        load_from(folder)
    return str(err.value)


def test_loader_accepts_its_own_data(tmp_path: Path) -> None:
    shutil.copytree(DATA, tmp_path / "data")
    assert load_from(tmp_path / "data").board.kylix == "e4"


def test_loader_refuses_a_city_without_water(tmp_path: Path) -> None:
    # Halikarnassos (i7): land on h7, the Styx on i6
    msg = broken(tmp_path, "board.toml", '"C . . M . . e . H",', '"C . . M . . e # H",')
    assert "halikarnassos" in msg and "Challenge City 0" in msg


def test_loader_refuses_chest_spaces_not_above_15(tmp_path: Path) -> None:
    msg = broken(tmp_path, "board.toml", 'symbol = "H"\nvalue = 4\nspaces = 3',
                 'symbol = "H"\nvalue = 4\nspaces = 1')
    assert "exceed the 15 chests" in msg


def test_loader_refuses_unknown_effect_and_task_kind(tmp_path: Path) -> None:
    msg = broken(tmp_path, "actions.toml", 'effect = "hydra_plus"', 'effect = "hydra_pluss"')
    assert "unknown effect 'hydra_pluss'" in msg
    msg = broken(tmp_path / "b", "pursuits.toml", 'kind = "defeat_ship"', 'kind = "sink"')
    assert "unknown task kind 'sink'" in msg


def test_loader_refuses_disconnected_water_and_kylix_on_land(tmp_path: Path) -> None:
    # a1 cut off by Thera (a2) and new land on b1
    msg = broken(tmp_path, "board.toml", '". . @ A A A @ . K",', '". # @ A A A @ . K",')
    assert "the water is not connected" in msg
    msg = broken(tmp_path / "b", "board.toml", '". . P . * . . . .",', '". . P # * . . . .",')
    assert "Ship 4" in msg


def test_loader_refuses_wrong_counts(tmp_path: Path) -> None:
    msg = broken(tmp_path, "actions.toml", "copies = 6", "copies = 5")
    assert "29 cards, not the 30" in msg
    msg = broken(tmp_path / "b", "game.toml", "per_colour = 3", "per_colour = 2")
    assert "Contents" in msg

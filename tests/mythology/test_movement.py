"""204 Movement and 215 Ships, on a small map drawn by hand.

The map (a strip of hexes; neighbours listed explicitly):

    A - B - C - D        A, B, C, D: land; B-C crosses a shoreline over water
                         (like 3111-3112 in 204 J)
            |
            W - X        W: all water (sea), X: land with a shoreline; R: a river hex beside D
    D - R
"""

from __future__ import annotations

from pbem.games.mythology.movement import Mover, can_obtain_ship, check_path

ADJ = {"A": ("B",), "B": ("A", "C"), "C": ("B", "D", "W"), "D": ("C", "R"),
       "W": ("C", "X"), "X": ("W",), "R": ("D",)}
LAND = {"A", "B", "C", "D", "X", "R"}
SHORE = {"B", "C", "X"}
RIVER = {"R"}


class Strip:
    def has_hex(self, hex_id: str) -> bool:
        return hex_id in ADJ

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        return ADJ[hex_id]

    def is_land(self, hex_id: str) -> bool:
        return hex_id in LAND

    def crosses_shoreline(self, a: str, b: str) -> bool:
        return {a, b} == {"B", "C"}

    def is_river(self, hex_id: str) -> bool:
        return hex_id in RIVER

    def is_shoreline(self, hex_id: str) -> bool:
        return hex_id in SHORE


BOARD = Strip()


def _problems(mover: Mover, path: list[str]) -> list[str]:
    return [str(p) for p in check_path(BOARD, mover, path, "[[orders.attempt]] #1")]


def test_204_G_two_hexes_per_phase() -> None:
    assert _problems(Mover(40, "monster", "C"), ["D", "R"]) == []
    assert any("moves 3 hexes" in p for p in _problems(Mover(40, "monster", "A"),
                                                       ["B", "C", "D"]))


def test_204_M_a_hero_never_more_than_four_even_when_doubled_twice() -> None:
    hero = Mover(12, "hero", "C", allowance=8)
    assert any("may move 4" in p for p in _problems(hero, ["D", "R", "D", "R", "D"]))
    assert _problems(hero, ["D", "R", "D", "R"]) == []


def test_204_EF_no_skipping_hexes() -> None:
    assert any("not adjacent" in p for p in _problems(Mover(40, "monster", "A"), ["C"]))


def test_204_C_heroes_only_on_land() -> None:
    assert any("all water" in p for p in _problems(Mover(12, "hero", "C"), ["W"]))


def test_204_D_monsters_anywhere() -> None:
    assert _problems(Mover(40, "monster", "C"), ["W", "X"]) == []


def test_204_J_no_crossing_a_shoreline_without_a_ship() -> None:
    # 204 J: a Hero in 3111 may not move to 3112 or 3212 unless it has a ship.
    assert any("204 J" in p for p in _problems(Mover(12, "hero", "B"), ["C"]))
    assert _problems(Mover(12, "hero", "B", ship=True), ["C"]) == []


def test_204_K_rivers_do_not_restrict_land_movement() -> None:
    assert _problems(Mover(12, "hero", "D"), ["R"]) == []


def test_215_D_a_hero_with_a_ship_enters_water() -> None:
    assert _problems(Mover(12, "hero", "C", ship=True), ["W", "X"]) == []


def test_215_G_a_hero_on_a_ship_does_not_move_inland() -> None:
    assert any("215" in p for p in _problems(Mover(12, "hero", "B", ship=True), ["A"]))


def test_215_J_a_ship_still_moves_two_hexes() -> None:
    assert any("moves 3 hexes" in p
               for p in _problems(Mover(12, "hero", "B", allowance=4, ship=True),
                                  ["C", "W", "X"]))


def test_215_F1_ships_only_on_a_shoreline_not_a_river() -> None:
    assert can_obtain_ship(BOARD, "C") and not can_obtain_ship(BOARD, "R")
    assert not can_obtain_ship(BOARD, "A")


def test_210_G5_pestilence_immobilises() -> None:
    assert any("Pestilence" in p for p in _problems(Mover(12, "hero", "A", immobile=True), ["B"]))
    assert _problems(Mover(12, "hero", "A", immobile=True), []) == []


def test_unknown_hex_is_named() -> None:
    assert any("no hex Z9" in p for p in _problems(Mover(40, "monster", "A"), ["Z9"]))

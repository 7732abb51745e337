"""The components as the seed prints them (TERRAIN TILE LIST, UNIT CHIT LIST, EVENT DECK),
read back from the seed itself, and the chessboard's adjacency."""

from __future__ import annotations

import re
from pathlib import Path

from pbem.games.grecos.components import load
from pbem.games.grecos.squares import SQUARES, adjacent, neighbours

SEED = Path(__file__).resolve().parents[3] / "shared" / "rules" / "004_cd8f766938cc9ed0.txt"


def seed_lines() -> list[str]:
    if SEED.is_file():
        return SEED.read_text().splitlines()
    return []  # a checkout without ../shared: the literal values below still hold


def test_terrain_1_8_tiles_as_printed() -> None:
    c = load()
    got = {t.name: (t.count, "L" if t.land else "W") for t in c.terrains.values()}
    assert got == {"Coastal": (14, "L"), "City State": (6, "L"), "Forest": (4, "L"),
                   "Mountains": (4, "L"), "Ruins": (4, "L"), "Abyss": (4, "W"),
                   "Sea": (28, "W")}
    assert sum(t.count for t in c.terrains.values()) == 64  # Map 1: a chessboard
    for line in seed_lines():
        m = re.fullmatch(r"(Coastal|City State|Forest|Mountains|Ruins|Abyss|Sea) (\d+) ([LW]) "
                         r"(.*)", line)
        if m:
            t = next(x for x in c.terrains.values() if x.name == m[1])
            printed = [] if m[4] == "None" else [x.strip() for x in m[4].split(",")]
            assert [c.units[u].name for u in t.recruits] == printed
            assert (t.count, "L" if t.land else "W") == (int(m[2]), m[3])


def test_units_1_17_chits_as_printed() -> None:
    c = load()
    assert len(c.units) == 17 and len(c.chits()) == 48
    rows = 0
    for line in seed_lines():
        m = re.fullmatch(r"([A-Z][a-z]+) (\d) (\d) (\d) (\d) (.*)", line)
        if m and m[1] in {u.name for u in c.units.values()}:
            u = next(x for x in c.units.values() if x.name == m[1])
            assert (u.count, u.force, u.move, u.hits) == tuple(int(m[i]) for i in range(2, 6))
            notes = {n.strip().lower().replace(" & ", "_and_") for n in m[6].split(",")}
            assert u.keywords == notes, u.id
            rows += 1
    assert rows == (17 if seed_lines() else 0)
    assert c.units["titan"].land_and_water and not c.units["titan"].water
    assert c.units["tritons"].water and c.units["eagle"].flying


def test_deck_1_30_cards_as_printed_in_order() -> None:
    c = load()
    assert len(c.deck()) == 30
    lines = seed_lines()
    if lines:
        start = lines.index("Event: Notes:") + 1
        printed = lines[start:start + 30]
        assert [f"{x.name} {x.text}" for x in c.cards.values()] == printed


def test_recruit_3_every_unit_but_the_hero_has_a_terrain() -> None:
    c = load()
    assert c.recruited_at("cyclops") == ("forest",) and c.recruited_at("hero") == ("city_state",)
    assert c.category_units("abyss") == {"titan", "sirens", "kraken", "tritons"}


def test_adjacency_1_2_sides_only() -> None:
    assert len(SQUARES) == 64 and SQUARES[0] == "a1" and SQUARES[-1] == "h8"
    assert neighbours("a1") == ("b1", "a2") and len(neighbours("d4")) == 4
    assert adjacent("d4", "d5") and not adjacent("d4", "e5")  # diagonals are not adjacent

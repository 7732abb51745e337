"""The component data of Mythology (pbem/games/mythology/data): counts, ids, the rulebook's
printed values and worked examples, the map's geography and geometry, and the loader's checks.

Each test is named after the rule it checks. The rulebook is file 000 of the shared rules.
"""

from __future__ import annotations

import dataclasses
import math
import re
import shutil
from collections import deque
from fractions import Fraction
from pathlib import Path

import pytest

from pbem.games.mythology import components
from pbem.games.mythology.components import (
    DATA,
    FILES,
    ComponentDataError,
    Components,
    Hero,
    HexMap,
    Monster,
    load,
    load_dir,
)


@pytest.fixture(scope="module")
def c() -> Components:
    return load()


@pytest.fixture(scope="module")
def m(c: Components) -> HexMap:
    return c.map


def _xy(h: str) -> tuple[float, float]:
    """The centre of a hex on the page (x east, y south), odd columns half a hex lower."""
    column, row = int(h[:2]), int(h[2:])
    return 1.5 * column, math.sqrt(3) * (row + 0.5 * (column % 2))


def _units(c: Components) -> list[Hero | Monster]:
    return [*c.heroes.values(), *c.monsters.values()]


def _data_copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target


def _edit(directory: Path, name: str, old: str, new: str) -> None:
    path = directory / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- counts and ids ---------------------------------------------------------------------------


def test_003_005_component_counts(c: Components) -> None:
    # 009 D: 32 Heroes; 304 C: Monsters 33-64; 304 B: 10 Prizes; Fate counters 1-32 (chart);
    # 003 H / 011 A: 10 God Cards; 003 H / 010 A: 54 Playing Cards; 005 I / 210 B: six occurrences.
    counts = (len(c.heroes), len(c.monsters), len(c.prizes), len(c.fates), len(c.gods),
              len(c.cards), len(c.occurrences))
    assert counts == (32, 32, 10, 32, 10, 54, 6)
    assert c.helpers, "211: there are Hero Helper counters"


def test_009_D_hero_ids_are_1_to_32_and_304_C_monster_ids_are_33_to_64(c: Components) -> None:
    assert sorted(c.heroes) == list(range(1, 33))
    assert sorted(c.monsters) == list(range(33, 65))
    assert all(h.id == k for k, h in c.heroes.items())
    assert all(x.id == k for k, x in c.monsters.items())
    assert len({h.name for h in c.heroes.values()}) == 32
    assert len({x.name for x in c.monsters.values()}) == 32


def test_009_D_1_hero_12_is_hector(c: Components) -> None:
    assert c.heroes[12].name == "Hector"
    assert {"id", "name"} <= c.heroes[12].printed


def test_211_E_hero_15_is_zestes(c: Components) -> None:
    assert c.heroes[15].name == "Zestes"
    assert {"id", "name"} <= c.heroes[15].printed


def test_211_E_zestes_with_the_helmet_of_invisibility(c: Components) -> None:
    zestes = c.heroes[15]
    (helmet,) = [h for h in c.helpers.values() if h.name == "Helmet of Invisibility"]
    assert zestes.defense + helmet.defense == 73
    assert zestes.attack + helmet.attack == 30
    assert helmet.magic == 20  # added to the roll of a unit using Magical Ability on him


def test_206_D_2_a_unit_with_attack_30_rolling_56_scores_86(c: Components) -> None:
    thirty = [h for h in c.heroes.values() if h.attack == 30]
    assert thirty, "206 D 2's example needs a unit with Attack Number 30"
    result = 56 + thirty[0].attack
    assert result == 86
    # 206 D 3: 86 kills a unit whose Defense is 86 or less, and the scale leaves some beyond it.
    defenses = [u.defense for u in _units(c)]
    assert any(d <= result for d in defenses)
    assert any(d > result for d in defenses)


def test_207_A_1_attack_numbers_are_tens_so_aid_moves_them_a_step(c: Components) -> None:
    for unit in _units(c):
        assert unit.attack % 10 == 0, unit
        assert 11 + unit.attack < 200 and unit.defense > 0


def test_206_E_magical_ability_numbers_are_two_digit_rolls(c: Components) -> None:
    magical = [u for u in _units(c) if u.magic is not None]
    assert magical, "206 C: some units have a Magical Ability Number"
    assert all(11 <= u.magic <= 66 for u in magical if u.magic is not None)
    assert any(u.magic is None for u in c.heroes.values())


def test_005_B_heroines_are_marked(c: Components) -> None:
    heroines = {h.name for h in c.heroes.values() if h.heroine}
    assert heroines and len(heroines) < 32
    assert not c.heroes[12].heroine and not c.heroes[15].heroine


def test_214_hercules_is_one_of_the_heroes(c: Components) -> None:
    (hercules,) = [h for h in c.heroes.values() if h.name == "Hercules"]
    # 214 A 3 a: remorse when a two-digit roll is below his Attack Number, so it is in reach.
    assert 11 < hercules.attack <= 66


# --- 304: the Historical Map Set-Up ------------------------------------------------------------

PRIZES_304_B = {
    "Pegasus": "3506", "Cornucopia": "2407", "Cerynites": "4010", "Helen": "3413",
    "Andromeda": "2416", "Marathon Bull": "3014", "Golden Bough": "3416",
    "Cerymean Stag": "4112", "Golden Apples": "2516", "Golden Fleece": "3611",
}

MONSTERS_304_C = {
    33: "3014", 34: "1614", 35: "2913", 36: "3613", 37: "3217", 38: "2914", 39: "1911",
    40: "2713", 41: "2913", 42: "3012", 43: "3213", 44: "2813", 45: "2912", 46: "2912",
    47: "3513", 48: "2917", 49: "2212", 50: "3511", 51: "1912", 52: "3205", 53: "2715",
    54: "3708", 55: "2908", 56: "3415", 57: "2214", 58: "2515", 59: "2811", 60: "2311",
    61: "2211", 62: "2113", 63: "3209", 64: "3214",
}


def test_304_B_the_ten_prizes_and_their_hexes_as_printed(c: Components) -> None:
    assert {p.name: p.historical_hex for p in c.prizes.values()} == PRIZES_304_B
    assert all({"name", "historical_hex"} <= p.printed for p in c.prizes.values())


def test_304_B_every_prize_hex_exists_and_is_land(c: Components, m: HexMap) -> None:
    for prize in c.prizes.values():
        assert prize.historical_hex in m.hexes
        assert m.is_land(prize.historical_hex), prize


def test_304_C_every_monster_hex_exists_as_printed(c: Components, m: HexMap) -> None:
    assert {x.id: x.historical_hex for x in c.monsters.values()} == MONSTERS_304_C
    assert all(h in m.hexes for h in MONSTERS_304_C.values())
    assert all("historical_hex" in x.printed for x in c.monsters.values())


def test_212_D_3_prize_defense_numbers_are_reachable(c: Components) -> None:
    best = max(h.attack for h in c.heroes.values()) + max(x.attack for x in c.helpers.values())
    for prize in c.prizes.values():
        assert 11 < prize.defense <= 66 + best, prize


# --- 003 D: the Areas the rulebook describes ---------------------------------------------------


def test_003_D_1_cyrenaica_borders_as_stated(m: HexMap) -> None:
    assert m.areas["cyrenaica"].name == "Cyrenaica"
    assert m.adjacent_areas("cyrenaica") == {
        "sea_west", "sea_east", "egypt", "nubia", "lake_tritonus", "libya"}
    expected = {"sea_west": "north", "sea_east": "north", "egypt": "east",
                "nubia": "south", "lake_tritonus": "south", "libya": "west"}
    for h in m.areas["cyrenaica"].hexes:
        x0, y0 = _xy(h)
        for n in m.neighbours(h):
            other = m.area_of(n)
            if other == "cyrenaica":
                continue
            x1, y1 = _xy(n)
            side = expected[other]
            ok = {"north": y1 < y0, "south": y1 > y0, "east": x1 > x0, "west": x1 < x0}[side]
            assert ok, f"{n} ({other}) should lie {side} of {h} (003 D 1)"


def test_003_D_1_the_sea_has_a_western_and_an_eastern_area(m: HexMap) -> None:
    seas = {a.id for a in m.areas.values() if a.kind == "sea"}
    assert seas == {"sea_west", "sea_east"}
    assert "sea_east" in m.adjacent_areas("sea_west")  # the heavy black line between them
    xs = {a: sum(_xy(h)[0] for h in m.areas[a].hexes) / len(m.areas[a].hexes) for a in seas}
    assert xs["sea_west"] < xs["sea_east"]
    assert m.areas["lake_tritonus"].kind == "lake"


def test_003_D_2_islands_of_the_western_sea_are_not_areas(m: HexMap) -> None:
    western = [i for i in m.islands.values() if m.area_of(i.hexes[0]) == "sea_west"]
    assert western, "003 D 2: there are islands in the western Area of The Sea"
    area_names = {a.name for a in m.areas.values()} | set(m.areas)
    for island in western:
        assert island.name not in area_names and island.id not in area_names
        for h in island.hexes:
            assert m.area_of(h) == "sea_west" and m.is_land(h) and m.is_shoreline(h)


def test_003_D_3_the_river_ocean_has_six_islands_that_are_not_areas(m: HexMap) -> None:
    ocean = [i for i in m.islands.values() if m.area_of(i.hexes[0]) == "river_ocean"]
    assert len(ocean) == 6
    for island in ocean:
        assert island.id not in m.areas
        assert all(m.area_of(h) == "river_ocean" and m.is_land(h) for h in island.hexes)


def test_003_D_3_the_river_ocean_surrounds_the_world(m: HexMap) -> None:
    assert m.areas["river_ocean"].kind == "ocean"
    edge = [h for h in m.hexes if len(m.neighbours(h)) < 6]
    assert edge and all(m.area_of(h) == "river_ocean" for h in edge)
    # Every other Area is walled in by it: no hex outside the ocean touches the board's edge.
    assert all(len(m.neighbours(h)) == 6 for h in m.hexes if m.area_of(h) != "river_ocean")


def test_003_D_3_only_the_iberia_mauretania_line_parts_ocean_from_the_sea(m: HexMap) -> None:
    water_borders = set()
    for h in m.areas["river_ocean"].hexes:
        for n in m.neighbours(h):
            other = m.area_of(n)
            if other != "river_ocean" and m.areas[other].kind != "land":
                water_borders.add((h, n, other))
    assert water_borders, "the line between Iberia and Mauretania"
    assert {other for _, _, other in water_borders} == {"sea_west"}
    for pair in water_borders:
        for h in pair[:2]:
            assert m.distance_to_area(h, "iberia") <= 2
            assert m.distance_to_area(h, "mauretania") <= 2
    assert "river_ocean" in m.adjacent_areas("iberia")
    assert "river_ocean" in m.adjacent_areas("mauretania")


def test_003_D_5_rivers_make_no_shoreline(m: HexMap) -> None:
    inland = [h for r in m.rivers.values() for h in r.hexes
              if all(m.is_land(n) and not m.crosses_water(h, n) for n in m.neighbours(h))]
    assert inland, "some river hexes lie away from any coast"
    assert not any(m.is_shoreline(h) for h in inland)


def test_004_every_area_is_non_empty_and_contiguous(m: HexMap) -> None:
    for area in m.areas.values():
        assert area.hexes
        seen = {area.hexes[0]}
        queue = deque(seen)
        while queue:
            for n in m.neighbours(queue.popleft()):
                if n not in seen and m.area_of(n) == area.id:
                    seen.add(n)
                    queue.append(n)
        assert seen == set(area.hexes), f"{area.id} is in pieces"


def test_004_land_areas_are_land_and_water_areas_water_but_islands(m: HexMap) -> None:
    for h, x in m.hexes.items():
        kind = m.areas[x.area].kind
        assert x.land == (kind == "land" or x.island is not None), h
        assert x.island is None or kind != "land"


def test_101_203_there_are_areas_enough_for_ten_gods(c: Components, m: HexMap) -> None:
    # The Basic Game places each god in an Area that holds no other god; ten gods, ten Areas.
    assert len(c.gods) == 10
    assert len([a for a in m.areas.values() if a.kind == "land"]) >= 10


def test_basic_game_areas_away_from_and_beside_the_river_ocean(m: HexMap) -> None:
    # Basic Game set-up 3-5: units go in Areas not bordering the River Ocean, Prizes in Areas
    # that do. Greece must be one of the inner ones (heroes start there, 102 E).
    land = [a for a in m.areas.values() if a.kind == "land"]
    inner = {a.id for a in land if "river_ocean" not in m.adjacent_areas(a.id)}
    outer = {a.id for a in land} - inner
    assert "greece" in inner and len(inner) >= 5
    assert len(outer) >= 5


def test_greece_is_an_area_of_land(m: HexMap) -> None:
    greece = m.areas["greece"]
    assert greece.name == "Greece" and greece.kind == "land"
    assert all(m.is_land(h) for h in greece.hexes)


# --- 204 J and the grid -----------------------------------------------------------------------


def test_204_J_3111_may_not_cross_to_3112_or_3212_without_a_ship(m: HexMap) -> None:
    assert m.is_land("3111") and m.is_shoreline("3111")
    for other in ("3112", "3212"):
        assert other in m.neighbours("3111")
        assert m.is_land(other) and m.is_shoreline(other)  # land "across from the shoreline"
        assert m.crosses_water("3111", other)
        assert components.crosses_water(other, "3111")
    assert not m.crosses_water("3111", "3011")  # along the coast, on land


def test_204_E_neighbour_convention_odd_columns_sit_lower(m: HexMap) -> None:
    assert set(m.neighbours("3111")) == {"3110", "3112", "3011", "3012", "3211", "3212"}
    assert set(m.neighbours("3212")) == {"3211", "3213", "3111", "3112", "3311", "3312"}


def test_204_E_adjacency_is_symmetric_and_at_most_six(m: HexMap) -> None:
    for h in m.hexes:
        near = m.neighbours(h)
        assert len(near) <= 6 and len(set(near)) == len(near) and h not in near
        for n in near:
            assert h in m.neighbours(n)
            assert m.distance(h, n) == 1


def test_distance_counts_hexes_like_a_walk_over_the_grid(m: HexMap) -> None:
    start = "3111"
    steps = {start: 0}
    queue = deque([start])
    while queue:  # breadth-first walk; the ring of ocean keeps it from being cut short
        h = queue.popleft()
        for n in m.neighbours(h):
            if n not in steps:
                steps[n] = steps[h] + 1
                queue.append(n)
    inner = [h for h in m.hexes if m.area_of(h) != "river_ocean"]
    assert all(m.distance(start, h) == steps[h] for h in inner)
    assert m.distance("3111", "3111") == 0
    assert m.distance("3014", "3413") == m.distance("3413", "3014") == 4
    assert set(m.within("3111", 1)) == {"3111", *m.neighbours("3111")}
    assert all(m.distance("3111", h) <= 2 for h in m.within("3111", 2))


def test_hex_numbers_are_column_then_row(m: HexMap) -> None:
    assert m.hex("3111").column == 31 and m.hex("3111").row == 11
    assert all(re.fullmatch(r"\d{4}", h) and h == f"{x.column:02d}{x.row:02d}"
               for h, x in m.hexes.items())
    with pytest.raises(KeyError, match="no hex '9999'"):
        m.neighbours("9999")


def test_204_C_shorelines_are_land_hexes_beside_water(m: HexMap) -> None:
    for h, x in m.hexes.items():
        wet = x.land and any(m.crosses_water(h, n) for n in m.neighbours(h))
        assert x.shoreline == wet, h
    assert not any(m.is_shoreline(h) for h in m.areas["sea_east"].hexes if m.is_water(h))


def test_215_B_islands_and_straits_are_crossed_only_by_ship(m: HexMap) -> None:
    for island in m.islands.values():
        for h in island.hexes:
            for n in m.neighbours(h):
                assert m.crosses_water(h, n) == (n not in island.hexes)
    (gulf,) = m.straits.values()
    for a, b in gulf.hexsides:
        assert m.crosses_water(a, b) and m.is_shoreline(a) and m.is_shoreline(b)
        assert m.area_of(a) == m.area_of(b) == "greece"
    assert not m.crosses_water("2912", "3012")  # the Isthmus


def test_215_E_rivers_run_from_a_coast_hex_by_hex(m: HexMap) -> None:
    for river in m.rivers.values():
        assert m.is_shoreline(river.hexes[0]), river.id
        for a, b in zip(river.hexes, river.hexes[1:], strict=False):
            assert b in m.neighbours(a)
        assert all(components.is_river(h) and m.is_land(h) for h in river.hexes)


def test_004_forests_and_mountains_are_marked_on_land(m: HexMap) -> None:
    assert m.forests and m.mountains
    for group, test in ((m.forests, components.is_forest), (m.mountains, components.is_mountain)):
        for feature in group.values():
            assert all(test(h) and components.is_land(h) for h in feature.hexes)
    assert not components.is_forest("3111") and not components.is_mountain("3111")


def test_module_helpers_use_the_built_in_map(m: HexMap) -> None:
    assert components.neighbours("3111") == m.neighbours("3111")
    assert components.area_of("3014") == "greece"
    assert components.distance("3111", "3212") == 1
    assert components.is_shoreline("3014") and not components.is_land("3211")


# --- 102: the set-up rules can be met on this map ------------------------------------------


def _ocean_shore(m: HexMap) -> set[str]:
    return {h for h in m.hexes if m.is_shoreline(h)
            and any(m.area_of(n) == "river_ocean" for n in m.neighbours(h))}


def _spread_prizes(m: HexMap) -> list[str]:
    shore = _ocean_shore(m)
    eligible = sorted(h for h in m.hexes if m.is_land(h)
                      and any(m.distance(h, s) <= 2 for s in shore))
    chosen: list[str] = []
    for h in eligible:
        if all(m.distance(h, x) >= 5 for x in chosen):
            chosen.append(h)
    return chosen


def test_102_B_ten_prizes_fit_near_the_river_ocean_five_hexes_apart(m: HexMap) -> None:
    assert len(_spread_prizes(m)) >= 10


def test_102_C_helpers_fit_far_from_greece_and_the_prizes(c: Components, m: HexMap) -> None:
    prizes = _spread_prizes(m)[:10]
    room = [h for h in m.hexes if m.is_land(h) and m.distance_to_area(h, "greece") > 6
            and all(m.distance(h, p) > 3 for p in prizes)]
    assert len(room) >= len(c.helpers)


def test_102_D_monsters_fit_away_from_greece(m: HexMap) -> None:
    assert len([h for h in m.hexes if m.distance_to_area(h, "greece") > 2]) >= 32 + 10


def test_102_E_5_c_twenty_eight_heroes_fit_in_or_near_greece(m: HexMap) -> None:
    near = [h for h in m.hexes if m.is_land(h) and m.distance_to_area(h, "greece") <= 2]
    assert len(near) >= 28
    assert len(m.areas["greece"].hexes) >= 18  # 102 E 3: start with the hexes of Greece


# --- Fates, occurrences, gods and cards ---------------------------------------------------------


def test_special_victory_condition_chart(c: Components) -> None:
    assert sorted(c.fates) == list(range(1, 33))
    assert all(f in c.heroes for f in c.fates)  # 213 D: Fate numbers are Hero ids
    assert {f.id for f in c.fates.values() if f.redraw} == {2, 3, 9, 10, 11, 12}
    for fate in c.fates.values():
        if fate.redraw:
            assert fate.text == "Return and draw another Fate counter."
            assert fate.points == 0 and fate.measure is None
        else:
            assert fate.points > 0 and fate.measure in components.MEASURES
    assert c.fates[8].points == Fraction(1, 2) and c.fates[8].measure == "occurrences_used"
    assert (c.fates[18].points, c.fates[18].measure) == (Fraction(5), "prizes_possessed")
    assert c.fates[1].text == "2 points for each Hero on the game board at end of game."
    assert c.fates[32].text == "1 Point for each Divine Occurrence caused by another player."
    assert c.fates[13].points == c.fates[30].points == Fraction(3)


def test_009_E_2_and_210_G_the_six_divine_occurrences(c: Components) -> None:
    table = {o.name: (o.code, o.scope, o.targets, o.per_point, o.hits, o.effect, o.timing)
             for o in c.occurrences.values()}
    assert table == {
        "Earthquake": ("E", "area", "land", 10, "above", "kill", "any"),
        "Tempest": ("T", "area", "ships", 10, "above", "kill", "any"),
        "Volcano": ("V", "hex", "land", 20, "above", "kill", "any"),
        "Plague": ("P", "area", "all", 20, "above", "kill", "after_moves"),
        "Pestilence": ("Pe", "area", "all", 20, "at_least", "halt", "any"),
        "Famine": ("F", "area", "all", 10, "at_least", "halve", "any"),
    }
    assert c.occurrence("Pe").name == "Pestilence"


def test_011_every_god_card_has_powers_arbitration_and_tables(c: Components) -> None:
    assert "zeus" not in c.gods  # 301: Zeus is an optional extra player, not a God Card
    assert len({g.name for g in c.gods.values()}) == 10
    for god in c.gods.values():
        assert god.powers
        assert set(god.arbitration) == set(c.heroes)  # 209 D 6: a modifier for every Hero
        for table in (god.prayer, god.sacrifice):
            assert sorted(table.rows) == list(range(2, 13))  # 302 D: the total of two dice
            assert all(len(r) == len(table.columns) for r in table.rows.values())
    assert c.gods["hera"].arbitration[6] < 0  # Hera and Hercules


def test_302_D_prayer_and_sacrifice_columns(c: Components) -> None:
    god = c.gods["athena"]
    # A prayer adds +10 per Glory Point; a sacrifice +20 per Glory Point over three.
    assert god.prayer.columns[0] == 10 and god.sacrifice.columns[0] == 20
    assert god.prayer.lookup(0, 12).kind == "none"
    assert god.prayer.lookup(30, 7) == god.prayer.rows[7][2]
    assert god.prayer.lookup(999, 7) == god.prayer.rows[7][-1]
    assert god.sacrifice.lookup((10 - 3) * 20, 2) == god.sacrifice.rows[2][-1]  # a Prize (302 I)
    worst = [god.prayer.rows[2][0], god.prayer.rows[12][-1]]
    assert worst[0].kind == "none" and worst[1].kind == "full"


def test_010_B_every_card_has_a_god_an_event_and_an_oracle_section(c: Components) -> None:
    assert sorted(c.cards) == list(range(1, 55))
    pairs = set()
    for card in c.cards.values():
        assert card.god.text and card.event.text and card.oracle.text
        assert (card.event.area is None) != (card.event.place is None)
        assert bool(card.event.gods) != (card.event.choose is not None)
        assert (card.oracle.prize is None) != (card.oracle.monster is None)
        pairs.add((card.god.name, card.event.name))
    assert len(pairs) == 54
    assert any(card.event.place == "Olympus" for card in c.cards.values())  # 010 B 2 b


def test_every_reference_resolves(c: Components, m: HexMap) -> None:
    codes = {o.code for o in c.occurrences.values()}
    effects = [p.effect for g in c.gods.values() for p in g.powers]
    effects += [card.god.effect for card in c.cards.values()]
    for effect in effects:
        assert effect.kind in components.EFFECTS
        assert set(effect.codes) <= codes
    for card in c.cards.values():
        assert card.event.area is None or card.event.area in m.areas
        assert set(card.event.gods) <= set(c.gods)
        assert card.oracle.prize is None or card.oracle.prize in c.prizes
        assert card.oracle.monster is None or card.oracle.monster in c.monsters
    oracles = {card.oracle.prize or card.oracle.monster for card in c.cards.values()}
    assert oracles == set(c.prizes) | set(c.monsters)  # every Prize and Monster has an Oracle


def test_216_G_oracles_pay_more_than_no_card(c: Components) -> None:
    for card in c.cards.values():
        floor = 5 if card.oracle.prize else 3  # 216 G 2 a, 216 G 3 a
        assert card.oracle.glory > floor


# --- the loader ---------------------------------------------------------------------------------


def test_every_data_file_starts_with_a_source_line() -> None:
    names = sorted(p.name for p in DATA.glob("*.toml"))
    assert names == sorted(FILES)
    for name in names:
        assert (DATA / name).read_text(encoding="utf-8").startswith("# Source:"), name


def test_load_is_cached_and_frozen(c: Components) -> None:
    assert load() is c
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.heroes[12].name = "Paris"  # type: ignore[misc]
    with pytest.raises(TypeError):
        c.heroes[99] = c.heroes[12]  # type: ignore[index]
    with pytest.raises(TypeError):
        c.map.hexes["0000"] = c.map.hexes["3111"]  # type: ignore[index]


def test_load_dir_reads_a_copy_the_same(tmp_path: Path, c: Components) -> None:
    copy = load_dir(_data_copy(tmp_path))
    assert copy.heroes == c.heroes and copy.map.hexes == c.map.hexes


def test_an_unknown_key_is_rejected_naming_file_table_and_key(tmp_path: Path) -> None:
    data = _data_copy(tmp_path)
    _edit(data, "heroes.toml", 'name = "Hector"', 'name = "Hector"\ncolour = "blue"')
    with pytest.raises(ComponentDataError, match=r"heroes\.toml \[\[hero\]\] 12 colour: "
                       r"unknown key"):
        load_dir(data)


def test_an_unknown_key_in_an_effect_is_rejected(tmp_path: Path) -> None:
    data = _data_copy(tmp_path)
    _edit(data, "gods.toml", 'kind = "challenge", amount = 2', 'kind = "challenge", amount = 2, '
          'target = "hero"')
    with pytest.raises(ComponentDataError, match=r"gods\.toml .*queen_of_heaven.*target"):
        load_dir(data)


def test_a_missing_key_is_rejected(tmp_path: Path) -> None:
    data = _data_copy(tmp_path)
    _edit(data, "prizes.toml", "defense = 90\n", "")
    with pytest.raises(ComponentDataError, match=r"prizes\.toml \[\[prize\]\] golden_fleece "
                       r"defense: is missing"):
        load_dir(data)


@pytest.mark.parametrize(("name", "old", "new", "message"), [
    ("cards.toml", "monster = 36\n", "monster = 99\n",
     r"cards\.toml \[\[card\]\] 2\.oracle monster: 99 is not a Monster"),
    ("cards.toml", 'area = "phrygia"', 'area = "atlantis"',
     r"cards\.toml \[\[card\]\] 1\.event area: 'atlantis' is not an Area"),
    ("cards.toml", 'gods = ["hera", "athena", "aphrodite"]', 'gods = ["hera", "zeus"]',
     r"cards\.toml \[\[card\]\] 1\.event gods: 'zeus' is not a god"),
    ("monsters.toml", 'historical_hex = "3014"', 'historical_hex = "9914"',
     r"monsters\.toml \[\[monster\]\] 33 historical_hex: names hex '9914'"),
    ("prizes.toml", 'historical_hex = "3506"', 'historical_hex = "3211"',
     r"prizes\.toml \[\[prize\]\] pegasus historical_hex: hex 3211 is water"),
    ("gods.toml", 'codes = ["E", "T"]', 'codes = ["E", "Q"]',
     r"gods\.toml .*earth_shaker.*codes: 'Q' is not a Divine Occurrence code"),
    ("gods.toml", "32 = 0  # Melampus", "33 = 0  # nobody",
     r"gods\.toml \[\[god\]\] hera\.arbitration 33: is not the id of a Hero"),
    ("fates.toml", 'measure = "heroes_on_board"', 'measure = "heroes_on_boat"',
     r"fates\.toml \[\[fate\]\] 1 measure: is 'heroes_on_boat'"),
    ("map.toml", 'hexes = ["3112", "3212", "3113"]', 'hexes = ["3112", "3111"]',
     r"map\.toml \[\[island\]\] euboea hexes: hex 3111 is in the land Area 'greece'"),
    ("map.toml", '"2511-2512"', '"2511-2513"',
     r"map\.toml \[\[strait\]\] gulf_of_corinth hexsides: '2511-2513'"),
    ("map.toml", "11 OOIIIIII", "11 OOIII?II",
     r"map\.toml \[grid\] areas: hex 0611 has code '\?'"),
    ("heroes.toml", 'printed = ["id", "name"]', 'printed = ["id", "nmae"]',
     r"heroes\.toml \[\[hero\]\] 12 printed: names 'nmae'"),
])
def test_a_dangling_or_bad_reference_is_rejected(tmp_path: Path, name: str, old: str, new: str,
                                                 message: str) -> None:
    data = _data_copy(tmp_path)
    _edit(data, name, old, new)
    with pytest.raises(ComponentDataError, match=message):
        load_dir(data)


def test_a_missing_hero_is_rejected(tmp_path: Path) -> None:
    data = _data_copy(tmp_path)
    path = data / "heroes.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("[[hero]]\nid = 32")
    path.write_text(text[:start], encoding="utf-8")
    with pytest.raises(ComponentDataError, match=r"heroes\.toml \[\[hero\]\]: no hero with id 32"):
        load_dir(data)


def test_broken_toml_is_reported_with_its_file(tmp_path: Path) -> None:
    data = _data_copy(tmp_path)
    _edit(data, "helpers.toml", 'name = "Moly"', 'name = "Moly')
    with pytest.raises(ComponentDataError, match=r"helpers\.toml: is not valid TOML"):
        load_dir(data)


def test_components_is_data_only_without_chance_or_clock() -> None:
    source = Path(components.__file__).read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import|from)\s+(random|time|datetime|secrets)\b", source, re.M)

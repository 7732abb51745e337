"""The component data of Cyclades (pbem/games/cyclades/data, boards excepted): the values the
seed states, the base-rule values we rely on, the effect vocabulary, ids, and the loader's
checks on broken copies of the data.

Tests are named after the seed clause they check (``003_820e897e23d69f12.txt``; clause ids as
in the project's Cyclades notes: section + bullet) or ``base_`` for the published base rules.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from pbem.games.cyclades import components
from pbem.games.cyclades.components import (
    DATA,
    EFFECTS,
    FILES,
    KINDS,
    ComponentDataError,
    Components,
    Effect,
    load,
    load_uncached,
)


@pytest.fixture(scope="module")
def c() -> Components:
    return load()


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    target.mkdir()
    for name in FILES:
        shutil.copy(DATA / name, target / name)
    return target


def _edit(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _problems(folder: Path) -> list[str]:
    with pytest.raises(ComponentDataError) as info:
        load_uncached(folder)
    return [str(p) for p in info.value.problems]


def _all_effects(c: Components) -> list[tuple[str, Effect]]:
    out: list[tuple[str, Effect]] = []
    for god in c.gods.values():
        if god.special is not None:
            out.append((god.id, god.special.effect))
    out += [(x.id, x.effect) for x in c.creatures.values()]
    out += [(x.id, x.sacrifice) for x in c.heroes.values()]
    out += [(x.id, x.power) for x in c.artifacts.values()]
    out += [(x.id, x.ability) for x in c.egyptians.values()]
    out += [(x.id, x.power) for x in c.favors.values()]
    out += [(x.id, x.effect) for x in c.magic_items.values()]
    out += [(x.id, x.power) for x in c.monuments.values()]
    out += [(x.id, x.power) for x in c.metropolises.values()]
    return out


# --- the shipped data --------------------------------------------------------------------------


def test_loader_accepts_the_shipped_data(c: Components) -> None:
    # Issue 5 point 1 lists every kind; counts: gods incl. Kronos, Apollo and Hades (7), the
    # five artifacts (Victory 2), ten monuments (Monuments expansion), two-plus special
    # Metropolis cards (Setup 5).
    assert sorted(c.gods) == ["apollo", "ares", "athena", "hades", "kronos", "poseidon", "zeus"]
    assert len(c.artifacts) == 5
    assert len(c.monuments) == 10
    assert len(c.metropolises) >= c.rules.special_metropolises_face_up == 2
    assert c.creatures and c.heroes and c.favors and c.magic_items and c.egyptians
    for name in FILES:  # every data file says where its values come from
        assert (DATA / name).read_text(encoding="utf-8").startswith("# Source:"), name


def test_ids_are_unique_snake_case_across_every_file(c: Components) -> None:
    ids = [x.id for kind in KINDS for x in c.of_kind(kind)]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids)
    for i in ids:  # by_id finds each under its own kind
        assert c.by_id(i).id == i


def test_every_effect_kind_used_is_in_the_documented_vocabulary_with_exactly_its_keys(
        c: Components) -> None:
    effects = _all_effects(c)
    assert len(effects) > 50
    for owner, effect in effects:
        assert effect.kind in EFFECTS, owner
        assert {k for k, _ in effect.params} == set(EFFECTS[effect.kind]), owner
    # Every kind and its keys are documented in the module docstring's table.
    keys_column: dict[str, str] = {}  # kind -> its "keys" cell, continuation lines included
    current = ""
    for line in (components.__doc__ or "").splitlines():
        if line[:1].isalpha():
            current = line.split(" ")[0]
            keys_column[current] = ""
        elif not line.startswith(" "):
            current = ""
        if current:
            keys_column[current] += " " + line[34:62]
    for kind, keys in EFFECTS.items():
        assert kind in keys_column, f"{kind} is not in the docstring's table"
        for key in keys:
            assert key in keys_column[kind], (kind, key)


def test_as_dict_is_plain_ledger_data(c: Components) -> None:
    # Ledger data: dict, list, str, int, bool; no tuples (a JSON round trip keeps it equal).
    for kind in KINDS:
        for x in c.of_kind(kind):
            data = x.as_dict()
            assert data["kind"] == kind and data["id"] == x.id
            assert json.loads(json.dumps(data)) == data


# --- Setup -------------------------------------------------------------------------------------


def test_setup_2_each_player_gets_7_coins_2_fleets_2_troops(c: Components) -> None:
    assert dict(c.supplies.start) == {"gold": 7, "fleet": 2, "troop": 2}


def test_setup_8_2_god_bonuses_on_the_vanilla_board(c: Components) -> None:
    bonus = {g: c.setup_bonus(g, titans_board=False)
             for g in ("poseidon", "ares", "athena", "zeus", "kronos", "apollo")}
    assert bonus == {"poseidon": {"fleet": 1}, "ares": {"troop": 1},
                     "athena": {"philosopher": 1}, "zeus": {"priest": 1},
                     "kronos": {"titan": 1}, "apollo": {"prosperity": 1}}


def test_setup_8_2_titans_board_adds_the_building_or_gold(c: Components) -> None:
    assert c.setup_bonus("poseidon", titans_board=True) == {"fleet": 1, "port": 1}
    assert c.setup_bonus("ares", titans_board=True) == {"troop": 1, "fortress": 1}
    assert c.setup_bonus("athena", titans_board=True) == {"philosopher": 1, "university": 1}
    assert c.setup_bonus("zeus", titans_board=True) == {"priest": 1, "temple": 1}
    assert c.setup_bonus("apollo", titans_board=True) == {"prosperity": 1, "gold": 1}


def test_setup_8_2_kronos_building_or_second_titan_depending_on_position(c: Components
                                                                         ) -> None:
    # "1 Titan (and one Building or a 2nd Titan, depending on his position if Titans board)":
    # from the top slot there is no god above him to copy a building from, so a 2nd Titan.
    assert c.setup_bonus("kronos", titans_board=True, on_top=True) == {"titan": 2}
    assert c.setup_bonus("kronos", titans_board=True, on_top=False) == {
        "titan": 1, components.BUILDING_OF_GOD_ABOVE: 1}
    # The position changes nothing off the Titans board or for another god.
    assert c.setup_bonus("kronos", titans_board=False, on_top=True) == {"titan": 1}
    assert c.setup_bonus("ares", titans_board=True, on_top=True) == {"troop": 1, "fortress": 1}


def test_setup_7_and_cycle_5_hades_comes_only_by_his_roll_of_two_dice_at_9(c: Components
                                                                            ) -> None:
    assert (c.rules.hades_dice, c.rules.hades_threshold) == (2, 9)
    assert c.gods["hades"].setup is None and c.gods["hades"].placement == "threat"
    with pytest.raises(KeyError):
        c.setup_bonus("hades", titans_board=False)


def test_setup_1_2_basic_buildings_exclude_the_theater(c: Components) -> None:
    basic = sorted(b.id for b in c.buildings.values() if b.basic)
    assert basic == ["fortress", "port", "temple", "university"]
    assert "theater" in c.buildings and not c.buildings["theater"].basic


def test_cycle_1_track_slots_cost_4_3_2(c: Components) -> None:
    assert [c.track_price(slot) for slot in range(3)] == [4, 3, 2]
    with pytest.raises(IndexError):
        c.track_price(3)


def test_cycle_1_2_1_artifacts_and_heroes_are_removed_never_discarded(c: Components) -> None:
    removed = {k for k, r in c.track.kinds.items() if r.removed_not_discarded}
    assert removed == {"artifact", "hero"}
    assert c.track_rules("achilles").removed_not_discarded
    assert not c.track_rules("harpy").removed_not_discarded


def test_cycle_8_4_temples_discount_creatures_only_and_forgotten_5_zeus_swaps_creatures_only(
        c: Components) -> None:
    # Cycle 8.4: not Heroes, Egyptian Reinforcements or Artifacts; Forgotten 5: the same for
    # Zeus's swap.
    assert {k for k, r in c.track.kinds.items() if r.temple_discount} == {"creature"}
    assert {k for k, r in c.track.kinds.items() if r.zeus_swappable} == {"creature"}
    assert c.buildings["temple"].creature_discount == 1


def test_cycle_8_2_figures_last_to_their_second_cycle_unless_a_priestess_is_paid(
        c: Components) -> None:
    assert c.rules.figure_lasts_cycles == 2
    assert c.rules.figure_retain_with == "priestess"
    figures = sorted(x.id for x in c.creatures.values() if x.figure and x.module == "base")
    assert figures == ["chiron", "kraken", "medusa", "minotaur", "polyphemus"]  # base rules


def test_cycle_3_hero_upkeep_is_2_gold_or_a_priestess(c: Components) -> None:
    assert (c.rules.hero_upkeep_gold, c.rules.hero_upkeep_priestess) == (2, 1)
    assert "hero_upkeep" in c.rules.priestess_uses and "retain_figure" in c.rules.priestess_uses
    # Misc Artifacts and Heroes 4-5: a hero counts as one troop; not sacrificed when bought.
    assert all(h.strength == 1 for h in c.heroes.values())
    assert c.rules.hero_sacrifice_same_turn is False
    assert c.heroes["penthesilea"].retires  # Hades: retired, not dead (Charon)


def test_base_recruit_schedules_and_cycle_8_3_free_recruit_first(c: Components) -> None:
    def schedule(god: str) -> list[int | None]:
        return [c.recruit_price(god, n) for n in range(1, 6)]

    # Base rules: Poseidon fleets 0/1/2/3, Ares troops 0/2/3/4, Zeus priests 0/4, Athena
    # philosophers 0/4 for the 1st.. unit this turn; the free one is the Cycle 8.3 bonus.
    assert schedule("poseidon") == [0, 1, 2, 3, None]
    assert schedule("ares") == [0, 2, 3, 4, None]
    assert schedule("zeus") == [0, 4, None, None, None]
    assert schedule("athena") == [0, 4, None, None, None]
    assert schedule("apollo") == [None] * 5
    assert all(c.free_recruits(g) == 1 for g in ("poseidon", "ares", "zeus", "athena"))


def test_titans_kronos_free_titan_only_from_the_top_slot_misc_titans_1_move_price(
        c: Components) -> None:
    kronos = c.gods["kronos"]
    assert kronos.recruit is not None and kronos.build is not None
    assert c.free_recruits("kronos", on_top=True) == 1
    assert c.free_recruits("kronos", on_top=False) == 0
    assert c.recruit_price("kronos", 1, on_top=True) == 0
    assert c.recruit_price("kronos", 1, on_top=False) == kronos.recruit.prices[0] > 0
    assert kronos.build.building == components.GOD_ABOVE
    # Misc Titans 1: a Titan's move costs 1 gold + 1 per previous move.
    assert (c.rules.titan_move_base, c.rules.titan_move_step) == (1, 1)


def test_base_gods_build_their_building_for_2_gold(c: Components) -> None:
    built = {g.id: (g.build.building, g.build.price) for g in c.gods.values()
             if g.build is not None and g.module == "base"}
    assert built == {"poseidon": ("port", 2), "ares": ("fortress", 2), "zeus": ("temple", 2),
                     "athena": ("university", 2)}
    assert c.gods["hades"].build is not None and c.gods["hades"].build.building == "necropolis"


def test_base_movement_poseidon_fleets_3_spaces_ares_troops_hades_both(c: Components) -> None:
    poseidon, ares, hades = (c.gods[g].move for g in ("poseidon", "ares", "hades"))
    assert poseidon is not None and ares is not None and hades is not None
    assert (poseidon.units, poseidon.price, poseidon.sea_range) == (("fleet",), 1, 3)
    assert (ares.units, ares.price, ares.sea_range) == (("troop",), 1, None)
    assert set(hades.units) == {"troop", "fleet"} and hades.requires_undead
    assert c.gods["zeus"].move is None and c.gods["athena"].move is None


def test_forgotten_5_zeus_swap_costs_1_and_may_be_repeated(c: Components) -> None:
    special = c.gods["zeus"].special
    assert special is not None
    assert (special.effect.kind, special.price, special.repeatable) == (
        "swap_track_creature", 1, True)


def test_cycle_7_3_apollo_income_and_prosperity_to_the_first_only(c: Components) -> None:
    apollo = c.gods["apollo"]
    assert apollo.placement == "bottom" and apollo.recruit is None and apollo.build is None
    assert apollo.special is not None and apollo.special.price == 0
    effect = apollo.special.effect
    assert (effect.number("amount"), effect.number("lone_amount"),
            effect.number("first_prosperity")) == (1, 4, 1)


# --- Battle, Forgotten, Victory, Miscellaneous ---------------------------------------------------


def test_battle_die_faces_are_0_1_1_2_2_3(c: Components) -> None:
    assert sorted(c.supplies.die) == [0, 1, 1, 2, 2, 3]


def test_battle_1_1_fortress_and_metropolis_add_1_on_land_1_2_port_adds_1_at_sea(
        c: Components) -> None:
    land = {b: c.defence_bonus(b, "land") for b in c.buildings if c.defence_bonus(b, "land")}
    sea = {b: c.defence_bonus(b, "sea") for b in c.buildings if c.defence_bonus(b, "sea")}
    assert land == {"fortress": 1, "metropolis": 1}
    assert sea == {"port": 1}
    assert c.building_of_colour("orange").id == "fortress"  # Battle 1.1
    assert c.building_of_colour("blue").id == "port"        # Battle 1.2


def test_forgotten_2_the_giant_crushes_only_small_building_tiles(c: Components) -> None:
    giant = c.creatures["giant"].effect
    assert giant.kind == "destroy_building" and giant.text("size") == "small"
    assert c.buildings["metropolis"].size == "large"
    assert all(c.buildings[b].size == "small" for b in ("port", "fortress", "temple",
                                                         "university", "theater"))


def test_forgotten_7_unlimited_gold_and_markers_limited_prosperity_priests_philosophers(
        c: Components) -> None:
    assert set(c.supplies.unlimited) == {"gold", "territory_marker"}
    assert c.supplies.limited_count("gold") is None
    for item in ("prosperity", "priest", "philosopher"):
        count = c.supplies.limited_count(item)
        assert count is not None and count > 0
    # The count in play is the sum over the modules in play (Hades adds 8, Titans 7).
    base = c.supplies.limited_count("prosperity", ["base"])
    assert base is not None
    assert c.supplies.limited_count("prosperity", ["base", "hades", "titans"]) == base + 15


def test_victory_2_all_five_artifacts_win(c: Components) -> None:
    assert c.rules.artifacts_for_victory == 5 == len(c.artifacts)


def test_misc_monuments_1_ten_monuments_with_two_colours_never_a_theater(c: Components
                                                                         ) -> None:
    theater = c.buildings["theater"].colour
    pairs = {m.requires for m in c.monuments.values()}
    assert len(pairs) == 10  # ten different pairs
    for m in c.monuments.values():
        assert len(m.requires) == 2 and theater not in m.requires
        first, second = c.monument_buildings(m.id)
        assert first.monument and second.monument and first.basic and second.basic


def test_misc_egyptian_2_harpy_takes_egyptians_but_not_heroes_or_titans(c: Components) -> None:
    # Misc Egyptian Reinforcements 2, Misc Artifacts and Heroes 4, Misc Titans 1.
    harpy = c.creatures["harpy"].effect
    assert harpy.kind == "destroy_troop" and harpy.number("count") == 1
    targets = harpy.names("targets")
    assert "egyptian" in targets and "troop" in targets
    assert "hero" not in targets and "titan" not in targets


def test_misc_egyptian_4_5_special_attack_1_gold_once_per_turn(c: Components) -> None:
    assert (c.rules.egyptian_attack_price, c.rules.egyptian_attacks_per_turn) == (1, 1)
    scorpion = c.egyptians["scorpion"].ability
    assert scorpion.kind == "strike_on_arrival"


def test_misc_divine_favors_1_each_grants_a_priestess_or_a_magic_item(c: Components) -> None:
    assert {f.grants for f in c.favors.values()} == {"priestess", "magic_item"}
    assert len(c.favors) == 8 and len(c.magic_items) == 10  # Hades components


def test_deck_and_kinds_by_module_and_the_hades_chiron_replacing_the_base_one(c: Components
                                                                             ) -> None:
    base = c.deck(["base"])
    assert "chiron" in base and "chiron_hades" not in base
    assert base.count("harpy") == c.creatures["harpy"].count
    assert all(c.track_card(i).module == "base" for i in base)
    full = c.deck(["base", "hades"])
    assert "chiron_hades" in full and "chiron" not in full
    assert "achilles" in full and "aegis" not in full  # heroes are Hades, artifacts Titans
    assert list(full) == sorted(full)
    with pytest.raises(KeyError):
        c.track_card("poseidon")
    assert [g.id for g in c.of_kind("god", ["base"])] == [
        "apollo", "ares", "athena", "poseidon", "zeus"]
    with pytest.raises(KeyError):
        c.of_kind("dragon")


# --- the loader's checks on broken copies ------------------------------------------------------


def test_load_is_cached_per_folder(tmp_path: Path) -> None:
    assert load() is load()
    folder = _copy(tmp_path)
    assert load(folder) is load(folder) and load(folder) is not load()


def test_load_reports_unknown_and_missing_keys_with_file_table_and_key(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "gods.toml", 'name = "Zeus"\n', 'name = "Zeus"\ncolour = "gold"\n')
    _edit(folder, "buildings.toml", 'size = "large"\n', "")
    problems = _problems(folder)
    assert any(p.startswith("gods.toml [[god]] zeus colour: unknown key") for p in problems)
    assert any(p.startswith("buildings.toml [[building]] metropolis size: is missing")
               for p in problems)


def test_load_reports_wrong_types(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "gods.toml", "prices = [2, 3, 4]", 'prices = [2, "three", 4]')
    _edit(folder, "heroes.toml", "strength = 1", 'strength = "one"')
    _edit(folder, "supplies.toml", "gold = 7", "gold = 7.5")
    problems = _problems(folder)
    assert "gods.toml [[god]] ares.recruit prices: must be a list of whole numbers" in problems
    assert "heroes.toml [[hero]] achilles strength: must be a whole number" in problems
    assert "supplies.toml [start] gold: must be a whole number" in problems


def test_load_reports_unknown_effect_kind_and_effect_keys(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "creatures.toml", 'kind = "repeat_income"', 'kind = "double_income"')
    _edit(folder, "creatures.toml", 'kind = "destroy_building", size = "small"',
          'kind = "destroy_building", size = "small", count = 2')
    _edit(folder, "monuments.toml", 'kind = "territory_defence", amount = 1',
          'kind = "territory_defence"')
    problems = _problems(folder)
    assert any(p.startswith("creatures.toml [[creature]] fates.effect kind: 'double_income' "
                            "is not an effect kind") for p in problems)
    assert any(p.startswith("creatures.toml [[creature]] giant.effect count: unknown key for "
                            "effect 'destroy_building'") for p in problems)
    assert any(p.startswith("monuments.toml [[monument]] great_citadel_of_ares.power amount: "
                            "is missing") for p in problems)


def test_load_reports_dangling_references(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "gods.toml", 'building = "port"', 'building = "harbour"')
    _edit(folder, "monuments.toml", 'requires = ["blue", "white"]', 'requires = ["blue", "pink"]')
    _edit(folder, "creatures.toml", 'replaces = "chiron"', 'replaces = "centaur"')
    _edit(folder, "creatures.toml", '"empusa", "perseus"]', '"empusa", "perseos"]')
    _edit(folder, "gods.toml", "titans = { temple = 1 }", "titans = { shrine = 1 }")
    problems = _problems(folder)
    assert any(p.startswith("gods.toml [[god]] poseidon.build building: 'harbour' is not a "
                            "building") for p in problems)
    assert any(p.startswith("monuments.toml [[monument]] temple_of_poseidon requires: 'pink' "
                            "is not the colour of a building") for p in problems)
    assert any(p.startswith("creatures.toml [[creature]] chiron_hades replaces: 'centaur'")
               for p in problems)
    assert any(p.startswith("creatures.toml [[creature]] chiron_hades.effect immune: 'perseos' "
                            "is not the id of any component") for p in problems)
    assert any(p.startswith("gods.toml [[god]] zeus.setup titans: 'shrine'") for p in problems)


def test_misc_monuments_1_loader_rejects_a_monument_needing_a_theater(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "monuments.toml", 'requires = ["green", "green"]',
          'requires = ["green", "purple"]')
    problems = _problems(folder)
    assert any("great_university_of_athena requires: 'purple' is the Theater's colour" in p
               and "never a Theater" in p for p in problems)


def test_load_reports_an_id_used_twice_across_files(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "heroes.toml", 'id = "jason"', 'id = "harpy"')
    problems = _problems(folder)
    assert any(p.startswith("heroes.toml [[hero]] harpy id: 'harpy' is also the id of "
                            "creatures.toml [[creature]] harpy") for p in problems)


def test_load_collects_every_problem_in_one_error(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "artifacts.toml", "victory = 5", "victory = 6")
    _edit(folder, "favors.toml", 'grants = "priestess"', 'grants = "oracle"')
    _edit(folder, "supplies.toml", "prices = [4, 3, 2]", "prices = []")
    _edit(folder, "egyptians.toml", "per_turn = 1", "per_turn = 0")
    problems = _problems(folder)
    files = {p.split(" ")[0] for p in problems}
    assert {"artifacts.toml", "favors.toml", "supplies.toml", "egyptians.toml"} <= files
    assert len(problems) >= 4


def test_load_reports_an_unreadable_file_and_invalid_toml(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "heroes.toml").unlink()
    (folder / "favors.toml").write_text("[[favor]\nid = ", encoding="utf-8")
    problems = _problems(folder)
    assert any(p.startswith("heroes.toml: cannot be read") for p in problems)
    assert any(p.startswith("favors.toml: is not valid TOML") for p in problems)
    # References into a file that could not be read are not reported as dangling.
    assert not any("is not the id of any component" in p for p in problems)

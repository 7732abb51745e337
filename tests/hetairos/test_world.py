"""The map's squares and charts, the Monster Manual and the scenarios as the seed prints them,
read back from the seed itself where it is present, and the loader's refusals."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pbem.core.errors import ProblemsError
from pbem.games.hetairos.world import DATA, load, load_from

SEED = Path(__file__).resolve().parents[3] / "shared" / "rules" / "001_527e336056e4a039.txt"


def seed_text() -> str:
    return SEED.read_text(encoding="utf-8") if SEED.is_file() else ""


def norm(text: str) -> str:
    """The seed without bold markers, bullets and line breaks (as the data quotes it)."""
    text = text.replace("*", "")
    text = re.sub(r"^- ", "", text, flags=re.M)
    return re.sub(r"\s+", " ", text).strip()


def seed_lines() -> list[str]:
    return [norm(line) for line in seed_text().splitlines() if norm(line)]


def test_every_text_is_quoted_from_the_seed() -> None:
    seed = norm(seed_text())
    if not seed:
        pytest.skip("no seed in this checkout")
    w = load()
    texts = [w.defaults.text]
    texts += [x.text for x in w.squares.values()] + [x.text for x in w.traps.values()]
    texts += [x.text for x in w.lairs.values()]
    texts += [s.friendly_text for s in w.squares.values() if s.friendly_text]
    texts += [m.text for m in w.monsters.values()]
    texts += [c.text for c in w.charts.values()]
    texts += [r.text for c in w.charts.values() for r in c.rows
              if not r.text.startswith("(authored")]
    texts += [x.text for x in w.lists.values()] + [s.text for s in w.scenarios.values()]
    texts += [a.text for a in w.aims.values() if a.printed]
    missing = [t for t in texts if norm(t) not in seed]
    assert missing == []


def test_explore_1_6_exploration_chart_covers_d6_as_printed() -> None:
    c = load().charts["exploration"]
    assert [r.roll for r in c.rows] == [(n, n) for n in range(1, 7)]
    assert [r.result or r.then for r in c.rows] == [
        "rock", "small_tunnel", "tunnel", "tunnel_fork", "empty_cavern", "cavern"]
    lines = seed_lines()
    if lines:
        start = lines.index("THERE ARE MANY UNDISCOVERED AREAS OF THE MAP, AND PLAYERS ARE FREE "
                            "TO MOVE OFF THE MAP. THE EXPLORATION CHART IS AS FOLLOWS:") + 1
        assert [f"{r.roll[0]} {r.text}" for r in c.rows] == lines[start:start + 6]
    fork = load().roll("exploration", 4)
    assert (fork.result, fork.then) == ("tunnel_fork", "fork_side")
    assert load().roll("fork_side", 3).result == "right"
    assert load().roll("fork_side", 4).result == "left"


def test_cavern_2_12_cavern_chart_covers_2d6_as_printed() -> None:
    c = load().charts["cavern"]
    assert c.die == "2d6" and c.rows[0].roll == (2, 2) and c.rows[-1].roll == (12, 12)
    lines = seed_lines()
    if lines:
        start = lines.index("CAVERN..! CHART") + 1
        assert [f"{r.roll[0]} {r.text}" for r in c.rows] == lines[start:start + 11]
    assert load().roll("cavern", 4).result == load().roll("cavern", 6).result == "lair"


def test_cavern_8_forge_or_library() -> None:
    w = load()
    assert w.roll("cavern", 8).then == "forge_or_library"
    assert w.roll("forge_or_library", 3).result == "great_forge"
    assert w.roll("forge_or_library", 5).result == "ancient_library"


def test_lair_1_great_monster_charts_a_b_and_spawns_as_printed() -> None:
    w = load()
    assert w.roll("lair", 1).then == "great_monster" and w.roll("lair", 5).result == "shade_pit"
    assert w.roll("great_monster", 5).then == "great_monster_b"
    assert w.roll("great_monster_b", 5).result == "gryphon"
    assert w.roll("great_monster_b", 4).result == "nemean_lion"
    for chart, label in (("great_monster_a", "CHART A:"), ("great_monster_b", "CHART B:")):
        printed = ", ".join(f"{r.roll[0]} {r.text}" for r in w.charts[chart].rows)
        if seed_text():
            assert f"{label} {printed}" in seed_lines()
        assert all(w.monsters[r.result].great for r in w.charts[chart].rows)
    spawns = [r.result for r in w.charts["spawn_type"].rows]
    assert spawns == ["kobalos", "promethean", "stymphalian_bird", "minion", "amazon",
                      "automaton"]
    assert w.lairs["shade_pit"].attacker == "shade" and w.lairs["shade_pit"].attackers == "d3"


def test_hecate_1_devotees_as_printed() -> None:
    w = load()
    assert [(r.roll, r.result) for r in w.charts["hecate_devotee"].rows] == [
        ((1, 1), "mormo"), ((2, 3), "lampad"), ((4, 6), "witch")]
    assert w.squares["shrine_of_hecate"].number("max_attached") == 5


def test_community_1_6_forces_as_printed() -> None:
    w = load()
    assert [r.result for r in w.charts["community"].rows] == ["polis", "manor",
                                                               "kobaloi_settlement"]
    force = {s.id: [(f.monster, f.count) for f in s.force] for s in w.squares.values()
             if s.settlement}
    assert force == {"polis": [("hoplite", 5)], "manor": [("hoplite", 3), ("aristocrat", 1)],
                     "kobaloi_settlement": [("kobalos", 6)]}
    assert [(f.monster, f.count) for f in w.squares["manor"].taken_force] == [("hoplite", 4)]


def test_trap_1_6_as_printed() -> None:
    w = load()
    assert [r.result for r in w.charts["trap"].rows] == [
        "poisoned_arrow", "snake_pit", "rolling_rock", "pit", "revolving_room",
        "room_of_daedalus"]
    arrow, rock = w.traps["poisoned_arrow"], w.traps["rolling_rock"]
    assert (arrow.attack, arrow.damage, arrow.once) == ("3d6", "d6+2", True)
    assert (rock.attack, rock.damage) == ("2d6", "d3+2")
    assert w.traps["snake_pit"].like == "pit" and w.traps["pit"].climb == "d6+2"
    assert w.roll("revolving_room", 3).result == "left"
    assert w.roll("revolving_room", 5).result == "straight"
    assert w.traps["room_of_daedalus"].escape_knowledge == 6


def test_dig_tables_and_pit_3_is_a_failure() -> None:
    w = load()
    assert w.charts["dig_through"].ap == 2 and w.charts["dig_collapse"].ap == 4
    assert w.roll("dig_through", 1).result == "cave_in"
    assert w.roll("dig_through", 2).then == "lose_way"
    assert w.roll("lose_way", 4).result == "right"
    assert w.roll("dig_pit", 3).result == "failure"  # seed defect 5.1 item 2
    assert (w.roll("dig_surface", 4).result, w.roll("dig_surface", 4).damage) == ("success",
                                                                                  "d3")


def test_map_squares_open_sides_and_costs() -> None:
    s = load().squares
    assert (s["rock"].open_sides, s["rock"].passable) == (0, False)
    assert s["small_tunnel"].move_cost == 2 and s["tunnel"].open_sides == 2
    assert s["tunnel_fork"].open_sides == 3 and s["empty_cavern"].open_sides == 4
    assert not s["styx"].diggable and s["styx"].enter_chart == "styx_bridge"
    assert load().roll("styx_bridge", 6).result == "bridge"
    assert not s["molten_lava"].passable and s["lost_hoard"].gold == "2d6"
    assert {k for k, v in s.items() if v.cavern} >= {"empty_cavern", "lair", "trapped_room"}


def test_monster_0_defaults_and_silent_entries() -> None:
    w = load()
    d = w.defaults
    assert (d.hp, d.ap, d.combat, d.damage) == (1, 5, "1d6", "1")
    for m in w.monsters.values():
        for field in m.silent:
            assert getattr(m, field) == getattr(d, field), (m.id, field)
    assert {m.id for m in w.monsters.values() if "ap" in m.silent and m.great} == {
        "giant", "lycan", "minotaur", "nemean_lion"}


def test_monster_manual_26_entries_with_printed_kleos() -> None:
    w = load()
    assert len(w.monsters) == 26
    printed = {}
    for line in seed_lines():
        m = re.fullmatch(r"([A-Z' ]+) \((\d+|-) KLEOS\)|CERBERUS \(-\)", line)
        if m:
            name = m[1] or "CERBERUS"
            printed[name] = m[2] or "-"
    if printed:
        got = {x.name.upper(): x.kleos_text for x in w.monsters.values()}
        assert {k: f"({v} KLEOS)" if v != "-" else "(-)" for k, v in printed.items()} == got
    table = {m.id: (m.kleos, m.hp, m.ap, m.combat, m.damage) for m in w.monsters.values()}
    assert table["manticore"] == (5, 10, 6, "3d6", "d6+2")  # seed defect 5.1 item 5
    assert table["giant"] == (5, 10, 5, "2d6+3", "3")
    assert table["cockatrice"] == (5, 6, 9, "3d6", "d3")
    assert table["fury"] == (3, 2, 7, "1d6", "2")
    assert w.monsters["cerberus"].ap_dice == "d6+4" and w.monsters["chimera"].combat == (
        "per_opponent")


def test_monster_flags_great_small_tunnels_saves() -> None:
    w = load()
    great = {m.id for m in w.monsters.values() if m.great}
    assert len(great) == 13 and "cerberus" in great
    assert {m.id for m in w.monsters.values() if m.no_small_tunnels} == great - {"gorgon"}
    saves = {m.id: m.save for m in w.monsters.values() if m.save}
    assert saves == {"aristocrat": 5, "dragon": 3, "hoplite": 6, "nemean_lion": 5}
    assert {m.id for m in w.monsters.values() if m.ignores_saves} == {"fury", "gryphon"}
    assert w.monsters["stymphalian_bird"].ignores_armour_saves
    assert {m.id for m in w.monsters.values() if m.tie_unhurt} == {"witch", "lampad"}
    assert w.monsters["lampad"].knowledge_check == (5, -3)
    assert w.monsters["shade"].knowledge_check == (5, -1)
    assert not w.monsters["automaton"].capturable and w.monsters["minion"].capturable


def test_monster_hydra_gains_per_wound_is_data() -> None:
    h = load().monsters["hydra"]
    assert "wound_rage" in h.specials and (h.numbers or {})["damage_per_wound"] == 1


def test_scen_0_four_lists_of_six_as_printed() -> None:
    w = load()
    assert len(w.scenarios) == 24
    names = {k: [s.name.upper().replace("’", "'") for s in w.scenario_list(k)]
             for k in w.lists}
    lines = seed_lines()
    if lines:
        for heading, key in (("Co-Op", "coop"), ("THE GREAT MYTHS (Co-Op)", "myth"),
                             ("SOLO", "solo"), ("TEAM", "team")):
            start = lines.index(heading) + 1
            assert [x.split(" ", 1)[1] for x in lines[start:start + 6]] == names[key]
    assert {s.kind for s in w.scenario_list("myth")} == {"coop"}
    assert w.lists["solo"].start_gap == 1 and w.lists["team"].start_gap == 4


def test_scenario_numbers_as_printed() -> None:
    s = load().scenarios
    assert s["the_traitor"].number_of("betrayal_start") == 2
    assert s["to_glory"].number_of("kleos") == 12
    assert s["the_plunder_of_war"].number_of("gold") == 20
    assert s["the_plunder_of_war"].team_size == 2
    assert s["finding_the_bowman"].number_of("philoctetes_max_hp") == 7
    assert s["capture_the_flag"].start == "team_caverns"
    assert s["the_guardians_roar"].monsters == ("cerberus",)
    assert "room_of_daedalus" in s["the_lost_ones"].places


def test_appa_simple_printed_complex_missing() -> None:
    a = load().aims
    assert a["simple"].printed and not a["complex"].printed and a["complex"].text == ""


def _broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    text = (data / file).read_text(encoding="utf-8")
    assert old in text
    (data / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return data


def test_loader_refuses_a_chart_that_does_not_cover_its_die(tmp_path: Path) -> None:
    data = _broken(tmp_path, "exploration.toml", "roll = [4, 6], result = \"left\"",
                   "roll = [5, 6], result = \"left\"")
    with pytest.raises(ProblemsError, match=r"fork_side.*cover d6"):
        load_from(data)


def test_loader_refuses_unknown_square_monster_and_field(tmp_path: Path) -> None:
    data = _broken(tmp_path, "exploration.toml", '"sphinx"', '"sfinx"')
    with pytest.raises(ProblemsError, match="unknown monster 'sfinx'"):
        load_from(data)
    data = _broken(tmp_path / "b", "exploration.toml", '"magic_spring"', '"magic_well"')
    with pytest.raises(ProblemsError, match="unknown square 'magic_well'"):
        load_from(data)
    data = _broken(tmp_path / "c", "scenarios.toml", 'monsters = ["cerberus"]',
                   'monsters = ["kerberos"]')
    with pytest.raises(ProblemsError, match="unknown monster 'kerberos'"):
        load_from(data)
    data = _broken(tmp_path / "d", "monsters.toml", "hp = 12\nap = 6", "hp = 12\nap = 6\nhpp = 1")
    with pytest.raises(ProblemsError, match="unknown field `hpp`"):
        load_from(data)

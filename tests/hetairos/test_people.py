"""The people of Hetairos as the seed prints them (GAME CONCEPTS, PLAYER CHARACTERS, WEAPONS,
OTHER BATTLE EQUIPMENT, the price lists, CRAFT and KNOWLEDGE CHECKS, ACTIONS, ITEMS, the RARE
ITEM CHARTS), read back from the seed itself where it is present, and the loader's refusals."""

from __future__ import annotations

import re
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest

from pbem.core.errors import ProblemsError
from pbem.games.hetairos.people import DATA, FILES, die_span, load, load_from

SEED = Path(__file__).resolve().parents[3] / "shared" / "rules" / "001_527e336056e4a039.txt"


def seed_lines() -> list[str]:
    """The seed's non-blank lines without the OCR's markers (``**``, ``*``, ``- ``)."""
    if not SEED.is_file():
        return []  # a checkout without ../shared: the literal values below still hold
    out = []
    for line in SEED.read_text(encoding="utf-8").splitlines():
        line = line.replace("*", "").strip()
        line = line.removeprefix("- ").strip()
        if line:
            out.append(line)
    return out


def seed_section(start: str, end: str, nth: int = 1) -> list[str]:
    """The lines after the ``nth`` heading ``start`` up to the next heading ``end``."""
    lines = seed_lines()
    if not lines:
        return []
    at = [i for i, x in enumerate(lines) if x == start][nth - 1]
    stop = lines.index(end, at + 1)
    return lines[at + 1:stop]


def seed_text() -> str:
    return " ".join(seed_lines())


def test_every_text_is_printed() -> None:
    """Every `text` quotes the seed (Source lines: "every `text` is printed")."""
    text = seed_text()
    if not text:
        pytest.skip("seed not present")
    p = load()
    quoted = [*p.defaults.text, *(s.text for s in p.start)]
    for ch in p.characters.values():
        quoted += [ch.name, *(a.text for a in ch.abilities)]
    quoted += [w.text for w in p.weapons.values()] + [e.text for e in p.equipment.values()]
    quoted += [i.text for i in p.items.values()]
    for pl in p.price_lists.values():
        quoted += [pl.text, *(row[2] for row in pl.rows)]
    quoted += [p.trade.sell_text, p.trade.friendly_text]
    for chart in p.rare_charts.values():
        quoted += [chart.text, *(r.text for r in chart.rows)]
    for rare in p.rare_items.values():
        quoted += [rare.name, rare.text, *(o.text for o in rare.outcomes)]
    quoted += [p.skill_checks.text, *(c.text for c in p.checks.values())]
    for act in p.actions.values():
        quoted += [act.text] + ([act.ap_text] if act.ap_text else [])
    missing = [q for q in quoted if q not in text]
    assert missing == []


def test_every_file_starts_with_source_lines() -> None:
    for name in FILES:
        assert (DATA / name).read_text(encoding="utf-8").startswith("# Source:"), name


def test_concepts_4_pc_5_ap_8_hp_npc_5_ap_1_hp_one_die() -> None:
    d = load().defaults
    assert (d.pc_ap, d.pc_hp, d.npc_ap, d.npc_hp, d.dice, d.gold, d.kleos) == (5, 8, 5, 1, 1,
                                                                                0, 0)
    m = re.search(r"ACTION ALLOWANCE OF (\d+) AND START WITH (\d+) HEALTH AS BASIC\. ALL NPCs "
                  r"ARE ASSUMED TO HAVE (\d+) ACTION POINTS AND (\d+) HEALTH", seed_text())
    if m:
        assert (d.pc_ap, d.pc_hp, d.npc_ap, d.npc_hp) == tuple(int(x) for x in m.groups())
    m = re.search(r"THESE BOTH START AT (\d+)", seed_text())
    if m:
        assert d.gold == d.kleos == int(m[1])


def test_start_1_3_getting_started_in_order() -> None:
    assert [s.clause for s in load().start] == ["Start 1", "Start 2", "Start 3"]


def test_pc_ten_characters_with_their_abilities_as_printed() -> None:
    chars = load().characters
    assert list(chars) == ["amazon", "atlantean", "centaur", "cimmerian", "cyclops", "hoplite",
                           "kobalos", "krenaia", "myrmidon", "philosopher"]
    section = seed_section("PLAYER CHARACTERS", "MOVEMENT AND THE MAP")
    if section:
        printed: dict[str, list[str]] = {}
        names = {c.name for c in chars.values()}
        current = ""
        for line in section[1:]:  # the first line is the introduction
            if line in names:
                current = line
                printed[current] = []
            else:
                printed[current].append(line)
        assert printed == {c.name: [a.text for a in c.abilities] for c in chars.values()}
    for ch in chars.values():
        assert ch.text.splitlines()[0] == ch.name
        assert [a.clause for a in ch.abilities] == [
            f"PC {ch.id.title()} {n}" for n in range(1, len(ch.abilities) + 1)]


def test_pc_centaur_has_7_ap() -> None:
    chars = load().characters
    assert chars["centaur"].ap == 7
    assert all(c.ap == 5 and c.hp == 8 and c.dice == 1 for c in chars.values()
               if c.id != "centaur")


def test_pc_double_dice_characters() -> None:
    chars = load().characters
    assert chars["atlantean"].check_dice("craft") == 2
    assert chars["atlantean"].check_dice("combat") == 1
    assert chars["cyclops"].check_dice("combat") == 2
    assert chars["philosopher"].check_dice("knowledge") == 2


def test_pc_bonuses_cimmerian_cyclops_hoplite_myrmidon() -> None:
    chars = load().characters
    cim = chars["cimmerian"]
    assert (cim.check_bonus("tunnelling"), cim.check_bonus("combat")) == (2, 1)
    assert cim.starting_items == ("pickaxe",)
    assert chars["cyclops"].check_bonus("craft") == 1 and not chars["cyclops"].small_tunnels
    assert chars["hoplite"].check_bonus("combat") == 2 and chars["hoplite"].check_bonus(
        "craft") == 1
    assert chars["myrmidon"].damage == 2 and chars["myrmidon"].check_bonus("knowledge") == 1
    assert chars["amazon"].damage == 1 and chars["amazon"].small_tunnels


def test_pc_hoplite_3_save_6_improved_by_aspis_and_armour() -> None:
    save = load().characters["hoplite"].ability("save")
    assert save is not None
    assert (save.threshold, save.amount, save.improved_by) == (6, 1, ("aspis", "armour"))


def test_pc_amazon_kobalos_krenaia() -> None:
    chars = load().characters
    shot = chars["amazon"].ability("ranged_attack")
    assert shot is not None and (shot.range, shot.bow_range, shot.safe_on_fail) == (1, 2, True)
    sneak = chars["kobalos"].ability("sneak")
    assert sneak is not None and (sneak.threshold, sneak.ap) == (4, 1)
    gold = chars["kobalos"].ability("gold_per_kleos")
    assert gold is not None and gold.amount == 1
    free, paid = chars["krenaia"].with_effect("heal")
    assert (free.ap, free.per_turn, paid.ap) == (0, 1, 3) and free.no_enemies and paid.no_enemies


def test_weapon_1_7_as_printed() -> None:
    w = load().weapons
    assert list(w) == ["axe", "bow", "falx", "sling", "sarissa", "spear", "sword"]
    assert (w["axe"].damage_bonus, w["falx"].damage_bonus, w["falx"].ignores_saves) == (1, 1,
                                                                                       True)
    assert (w["bow"].range, w["sling"].range, w["sling"].range_modifier) == (1, 1, -2)
    assert (w["spear"].combat_bonus, w["spear"].condition, w["spear"].condition_amount) == (
        1, "ap_left_at_end_of_turn", 3)
    assert (w["sword"].combat_bonus, w["sword"].condition) == (1, "moved_this_turn")
    assert (w["sarissa"].like, w["sarissa"].per_other_wielder) == ("spear", 1)
    printed = seed_section("WEAPONS", "OTHER BATTLE EQUIPMENT")
    if printed:
        assert printed == [x.text for x in w.values()]


def test_gear_1_2_aspis_and_armour_saves() -> None:
    e = load().equipment
    assert e["aspis"].save == 6 and e["armour"].save == 6
    assert (e["armour"].combined_with, e["armour"].combined_save) == ("aspis", 5)
    printed = seed_section("OTHER BATTLE EQUIPMENT", "TUNNELLING")
    if printed:
        assert printed == [x.text for x in e.values()]


def _printed_prices(start: str, end: str) -> dict[str, int]:
    out = {}
    for line in seed_section(start, end):
        m = re.fullmatch(r"(.+) (\d+) GOLD", line)
        if m:
            out[m[1]] = int(m[2])
    return out


def test_polis_1_and_kobaloi_1_prices_as_printed() -> None:
    p = load()
    assert p.price("polis", "axe") == 4 and p.price("manor", "aspis") == 5
    kob = "kobaloi_settlement"
    assert p.price("polis", "spear") == 3 and p.price(kob, "spear") == 4
    assert p.price(kob, "healing") == 8 and p.price(kob, "sling") == 3
    assert p.price("polis", "falx") is None and p.price(kob, "axe") is None
    assert set(p.prices) == {"polis", "manor", "kobaloi_settlement"}
    for place, (start, end) in {"polis": ("POLIS AND MANORS", "KOBALOI SETTLEMENTS"),
                                kob: ("KOBALOI SETTLEMENTS", "LOST HOARD")}.items():
        printed = _printed_prices(start, end)
        if printed:
            got = {x.text.rsplit(" ", 2)[0]: x.gold for x in p.prices[place].values()}
            assert got == printed
    assert [x.gold for x in p.prices["polis"].values()] == [
        x.gold for x in p.prices["manor"].values()]


def test_community_5_and_polis_9_trade() -> None:
    t = load().trade
    assert (t.sell_modifier, t.friendly_discount, t.friendly_places) == (-1, "d6",
                                                                        ("polis", "manor"))


def _printed_thresholds(start: str, end: str) -> list[tuple[str, str, int]]:
    out, place = [], ""
    for line in seed_section(start, end):
        if line.startswith("AT A"):
            place = line
            continue
        m = re.fullmatch(r"(.+) (\d+)\+", line)
        if m:
            out.append((place, m[1], int(m[2])))
    return out


def test_craft_and_know_thresholds_as_printed() -> None:
    checks = load().checks
    assert len(checks) == 24
    craft = [(c.place, c.text.rsplit(" ", 1)[0], c.threshold) for c in checks.values()
             if c.skill == "craft"]
    know = [(c.place, c.text.rsplit(" ", 1)[0], c.threshold) for c in checks.values()
            if c.skill == "knowledge"]
    places = {"AT A FORGE:": "great_forge", "AT A SHRINE:": "olympian_shrine",
              "AT A LIBRARY:": "ancient_library"}
    for got, (start, end) in ((craft, ("CRAFT CHECKS", "KNOWLEDGE CHECKS")),
                              (know, ("KNOWLEDGE CHECKS", "ACTIONS"))):
        printed = _printed_thresholds(start, end)
        if printed:
            assert got == [(places[p], name, n) for p, name, n in printed]
    assert checks["craft_armour"].threshold == 7 and checks["know_pray_to_zeus"].threshold == 4
    assert checks["know_create_promethean"].makes == "create_promethean"


def test_craft_forge_10_and_know_library_3_build_automaton_twice() -> None:
    p = load()
    assert {c.id: c.threshold for c in p.checks.values() if c.makes == "build_automaton"} == {
        "craft_build_automaton": 8, "know_build_automaton": 5}
    assert p.actions["build_automaton"].needs == "automaton_body"
    assert len(p.checks_at("ancient_library", "knowledge")) == 7
    assert len(p.checks_at("great_forge")) == 10


def test_skill_1_2_checks_cost_2_ap_npcs_never() -> None:
    s = load().skill_checks
    assert (s.ap, s.npcs) == (2, False)


def test_act_1_7_actions_as_printed() -> None:
    acts = [a for a in load().actions.values() if a.kind == "action"]
    assert [a.name for a in acts] == ["BUILD AUTOMATON", "CREATE PROMETHEAN", "PRAY TO ARES",
                                      "PRAY TO ATHENA", "PRAY TO HEPHAESTUS", "PRAY TO POSEIDON",
                                      "PRAY TO ZEUS"]
    printed = seed_section("ACTIONS", "ITEMS")
    if printed:
        assert printed == [a.text for a in acts]
    by = {a.id: a for a in acts}
    assert [(by[f"pray_to_{g}"].check, by[f"pray_to_{g}"].amount) for g in
            ("ares", "athena", "hephaestus", "zeus")] == [("combat", 3), ("knowledge", 3),
                                                          ("craft", 3), ("any", 1)]
    assert by["pray_to_poseidon"].max_combat_checks == 3


def test_ap_costs_as_printed() -> None:
    a = load().actions
    got = {k: a[k].ap for k in ("move", "move_small_tunnel", "attack", "skill_check",
                                "dig_through_or_enlarge", "dig_other", "magic_spring",
                                "friendly_manor_income", "friendly_polis_hoplite",
                                "krenaia_paid_heal", "caduceus", "lyre_of_orpheus",
                                "sandals_of_hermes", "rod_of_asclepius", "thunderbolt")}
    assert got == {"move": 1, "move_small_tunnel": 2, "attack": 1, "skill_check": 2,
                   "dig_through_or_enlarge": 2, "dig_other": 4, "magic_spring": 2,
                   "friendly_manor_income": 4, "friendly_polis_hoplite": 1,
                   "krenaia_paid_heal": 3, "caduceus": 3, "lyre_of_orpheus": 3,
                   "sandals_of_hermes": 5, "rod_of_asclepius": 2, "thunderbolt": 0}
    assert a["surface_tunnel_swap"].full_turn
    assert {x.id for x in a.values() if not x.printed} == {"buy", "sell", "citizenship",
                                                          "boot_vote"}


def test_item_1_8_items_as_printed() -> None:
    items = [i for i in load().items.values() if i.kind == "item"]
    printed = seed_section("ITEMS", "RARE ITEM CHART")
    if printed:
        assert printed == [i.text for i in items]
    by = {i.id: i for i in items}
    assert (by["master_book"].checks, by["master_book"].amount, by["master_book"].uses) == (
        ("knowledge", "craft"), 2, 0)
    assert (by["great_book"].amount, by["great_book"].uses) == (2, 1)
    assert (by["tome_of_ichor"].checks, by["tome_of_ichor"].amount) == (("build_automaton",), 3)
    assert by["war_talisman"].effect == "reroll" and by["war_talisman"].checks == ("combat",)


def test_rare_0_chart_a_b_cover_d6() -> None:
    p = load()
    for chart in p.rare_charts.values():
        low, high = die_span(chart.die)
        assert sorted(n for r in chart.rows for n in range(r.roll[0], r.roll[1] + 1)) == list(
            range(low, high + 1))
    assert [p.rare_charts["rare_item"].result(n).result for n in range(1, 7)] == [
        "chart_a"] * 3 + ["chart_b"] * 3


def test_rare_a_b_as_printed() -> None:
    p = load()
    for chart_id, (start, end) in {"chart_a": ("CHART A", "CHART B"),
                                   "chart_b": ("CHART B", "MONSTER MANUAL")}.items():
        section = seed_section(start, end)
        if not section:
            continue
        for roll in range(1, 7):
            item = p.rare_items[p.rare_charts[chart_id].result(roll).result]
            assert section[roll - 1] == f"{roll} {item.text}"


def test_hoard_1_double_gives_thunderbolt_on_2_then_6() -> None:
    """Analysis 5.3 test 9: d6 2 -> chart A, d6 6 -> Thunderbolt."""
    p = load()
    bolt = p.roll_rare_item(2, 6)
    assert (bolt.id, bolt.uses, bolt.ap, bolt.range) == ("thunderbolt", 1, 0, 3)
    assert p.roll_rare_item(4, 2).id == "amazon_girdle"


def test_rare_items_structure() -> None:
    r = load().rare_items
    assert (r["nemean_hide"].save, r["cornucopia"].dice, r["trident"].threshold) == (3, "d6+3", 7)
    assert (r["trident"].combat_bonus, r["trident"].damage_bonus, r["trident"].ap_bonus) == (3, 1,
                                                                                            1)
    assert (r["bow_of_artemis"].range, r["bow_of_artemis"].amazon_range) == (3, 4)
    assert [(o.roll, o.result) for o in r["lyre_of_orpheus"].outcomes] == [
        ((1, 1), "nothing"), ((2, 4), "asleep"), ((5, 6), "joins")]


def test_makes_names_monsters_and_squares_of_the_world() -> None:
    """Act 1-2 make monsters, checks and prices are made at squares: the world (monsters.toml,
    squares.toml) must know them (if it loads)."""
    try:
        from pbem.games.hetairos import world
    except ImportError:
        pytest.skip("world.py not present")
    w = world.load()
    monsters, squares = getattr(w, "monsters", None), getattr(w, "squares", None)
    if not isinstance(monsters, Mapping) or not isinstance(squares, Mapping):
        pytest.skip("the world has no monsters or squares table yet")
    p = load()
    for act in p.actions.values():
        if act.makes:
            assert act.makes in monsters, act.id
    # The place kinds of checks and price lists are square kinds of squares.toml.
    assert {c.place for c in p.checks.values()} <= set(squares)
    assert set(p.prices) <= set(squares)


# ---------------------------------------------------------------------------- refusals


def _copy(tmp_path: Path) -> Path:
    for name in FILES:
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_loader_accepts_a_copy(tmp_path: Path) -> None:
    assert load_from(_copy(tmp_path)).characters == load().characters


@pytest.mark.parametrize(("name", "old", "new", "message"), [
    ("rare_items.toml", "roll = [4, 6], result = \"chart_b\"", "roll = [5, 6], "
     "result = \"chart_b\"", "must cover d6"),
    ("rare_items.toml", "die = \"d6\"", "die = \"6\"", "is not a die"),
    ("items.toml", "ware = \"sling\"", "ware = \"slingshot\"", "unknown ware"),
    ("items.toml", "places = [\"kobaloi_settlement\"]", "places = [\"goblin\"]",
     "unknown place kind"),
    ("characters.toml", "id = \"amazon\"\nname = \"AMAZON\"\n", "id = \"amazon\"\n",
     "`name` is missing"),
    ("characters.toml", "ap = 7", "ap = 6", "must be the character's `ap`"),
    ("characters.toml", "item = \"pickaxe\"", "item = \"shovel\"", "unknown item"),
    ("weapons.toml", "damage_bonus = 1", "damage_bonus = \"1\"", "must be an integer"),
    ("weapons.toml", "like = \"spear\"", "lik = \"spear\"", "is not a known field"),
    ("checks.toml", "makes = \"falx\"", "makes = \"scythe\"", "names nothing known"),
    ("checks.toml", "place = \"ancient_library\"", "place = \"school\"", "unknown place"),
    ("actions.toml", "check = \"combat\"", "check = \"fighting\"", "needs a known `check`"),
    ("actions.toml", "# Source:", "# Sources:", "must start with `# Source:`"),
    ("items.toml", "id = \"healing\"", "id = \"Healing\"", "not a lower snake case id"),
])
def test_loader_refuses(tmp_path: Path, name: str, old: str, new: str, message: str) -> None:
    base = _copy(tmp_path)
    _edit(base / name, old, new)
    with pytest.raises(ProblemsError) as e:
        load_from(base)
    assert message in str(e.value)

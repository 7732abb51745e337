"""Skills, items and tunnelling (SKILL CHECKS & SPECIAL ITEMS, TUNNELLING, RARE ITEM CHART,
PLAYER CHARACTERS, SURFACE TUNNEL): pbem.games.hetairos.skills and .skill, with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.hetairos import skill, skills
from pbem.games.hetairos.table import Model, Table, load
from tests.scripted import Scripted


def state(**squares: str) -> dict[str, Any]:
    """A small co-op state; ``squares`` maps "x_y" to a kind (caverns open all round)."""
    st: dict[str, Any] = {
        "scenario": "beast_slayers", "options": {}, "round": 1, "seats": ["ann", "bob"],
        "step": "turn", "active": "ann", "cont": 0,
        "map": {"0,0": {"kind": "styx", "open": "NS", "bridge": True, "found": 0}},
        "models": {}, "next_id": 50, "pcs": {}, "dead": [], "teams": {}, "hostile": {},
        "standing": {"ann": {}, "bob": {}}, "goal": {}, "result": {}}
    for k, kind in squares.items():
        cavern = load().world.squares[kind].cavern
        st["map"][k.replace("_", ",")] = {"kind": kind, "open": "NESW" if cavern else "EW",
                                          "found": 0}
    return st


def pc(st: dict[str, Any], mid: str, owner: str, type_: str, at: str, **kw: Any) -> Model:
    m: Model = {"id": mid, "side": "pc", "owner": owner, "type": type_,
                "name": f"{owner.title()}'s {type_.title()}", "at": at, "bank": "", "hp": 8,
                "max_hp": 8, "ap": 5, "kleos": 0, "gold": 0, "items": [], "prisoners": [],
                "effects": {}, "moved": False, "spear": False, "came": "", "stuck": ""}
    m.update(kw)
    st["models"][mid] = m
    st["pcs"].setdefault(owner, mid)
    return m


def monster(st: dict[str, Any], mid: str, type_: str, at: str, **kw: Any) -> Model:
    mon = load().monster(type_)
    m: Model = {"id": mid, "side": "monster", "owner": "", "type": type_, "name": mon.name,
                "at": at, "bank": "", "hp": mon.hp, "max_hp": mon.hp, "ap": mon.ap,
                "kleos": 0, "home": "", "bought_off": [], "resting": 0}
    m.update(kw)
    st["models"][mid] = m
    return m


def npc(st: dict[str, Any], mid: str, owner: str, type_: str, at: str, **kw: Any) -> Model:
    m = monster(st, mid, type_, at, side="npc", owner=owner, **kw)
    m["name"] = f"{owner.title()}'s {m['name']} {mid}"
    return m


def table(st: dict[str, Any], dice: list[int], then: int | None = None) -> Table:
    return Table(c=load(), state=st, dice=Scripted(dice, then), label="r01/p1")


def toml_ok(t: Table) -> None:
    """Every event is TOML-writable: str/int/bool/list/dict, with a text."""
    def ok(v: Any) -> bool:
        if isinstance(v, dict):
            return all(isinstance(k, str) and ok(x) for k, x in v.items())
        if isinstance(v, list):
            return all(ok(x) for x in v)
        return isinstance(v, (str, int, bool))
    for e in t.events:
        assert ok(e) and e["text"] and e["type"], e


# ---------------------------------------------------------------------------- checks


def test_craft_forge_1_axe_5_plus_with_hoplite_craft_bonus() -> None:
    st = state(**{"1_0": "great_forge"})
    m = pc(st, "m1", "ann", "hoplite", "1,0")
    t = table(st, [4])
    assert skills.check(t, m, "craft_axe") == ""
    assert m["items"] == ["axe"] and m["ap"] == 3
    t = table(st, [3])
    m["items"] = []
    assert skills.check(t, m, "craft_axe") == ""  # 3+1 = 4: a fail still costs the AP
    assert m["items"] == [] and m["ap"] == 1
    assert t.events[-1]["passed"] is False
    toml_ok(t)


def test_skill_1_check_needs_its_place_and_2_ap() -> None:
    st = state(**{"1_0": "empty_cavern", "2_0": "ancient_library"})
    m = pc(st, "m1", "ann", "hoplite", "1,0")
    t = table(st, [])  # no draw may happen
    assert "Great forge" in skills.check(t, m, "craft_axe")
    assert "Olympian shrine" in skills.check(t, m, "know_pray_to_ares")
    m["at"], m["ap"] = "2,0", 1
    assert "2 AP" in skills.check(t, m, "know_great_book")
    assert m["ap"] == 1 and t.events == []


def test_craft_shrine_1_talisman_at_olympian_shrine_only() -> None:
    st = state(**{"1_0": "olympian_shrine", "2_0": "shrine_of_hecate"})
    m = pc(st, "m1", "ann", "atlantean", "2,0")
    t = table(st, [2, 3])
    assert skills.check(t, m, "craft_talisman") != ""  # Hecate's shrine is no "SHRINE" here
    m["at"] = "1,0"
    assert skills.check(t, m, "craft_talisman") == ""  # Atlantean: 2 dice, 2+3 = 5
    assert m["items"] == ["talisman"]


def test_battle_3_never_two_of_the_same_item() -> None:
    st = state(**{"1_0": "great_forge"})
    m = pc(st, "m1", "ann", "hoplite", "1,0", items=["sword"])
    t = table(st, [])
    assert "already owns" in skills.check(t, m, "craft_sword")
    assert m["ap"] == 5


def test_skill_2_npcs_never_make_checks() -> None:
    st = state(**{"1_0": "great_forge"})
    n = npc(st, "m2", "ann", "hoplite", "1,0")
    assert "NPC" in skills.check(table(st, []), n, "craft_axe")


def test_know_shrine_1_ares_pending_then_used_by_the_next_combat_check() -> None:
    st = state(**{"1_0": "olympian_shrine"})
    m = pc(st, "m1", "ann", "hoplite", "1,0")
    t = table(st, [5])
    assert skills.check(t, m, "know_pray_to_ares") == ""
    assert m["effects"] == {"ares": 1}
    assert skill.bonus(t, m, "knowledge") == (0, [])  # not a knowledge bonus
    plus, why = skill.bonus(t, m, "combat")
    assert plus == 2 + 3 and "prayer to Ares +3" in why and "ares" not in m["effects"]
    assert "already pending" not in skills.check(table(st, [1]), m, "know_pray_to_ares")


def test_act_3_a_pending_prayer_is_not_asked_twice() -> None:
    st = state(**{"1_0": "olympian_shrine"})
    m = pc(st, "m1", "ann", "hoplite", "1,0", effects={"ares": 1, "poseidon": 1})
    t = table(st, [])
    assert "already pending" in skills.check(t, m, "know_pray_to_ares")
    assert "already pending" in skills.check(t, m, "know_pray_to_poseidon")
    assert m["ap"] == 5


def test_act_4_athena_plus_3_used_up_by_the_next_knowledge_check() -> None:
    st = state(**{"1_0": "ancient_library"})
    m = pc(st, "m1", "ann", "hoplite", "1,0", effects={"athena": 1})
    t = table(st, [2])
    assert skills.check(t, m, "know_combat_manual") == ""  # 2+3 = 5
    assert m["items"] == ["combat_manual"] and m["effects"] == {}


def test_know_shrine_5_zeus_4_plus_and_act_7_plus_1_on_any_check() -> None:
    st = state(**{"1_0": "olympian_shrine", "2_0": "great_forge"})
    m = pc(st, "m1", "ann", "centaur", "1,0")
    t = table(st, [4, 3])
    assert skills.check(t, m, "know_pray_to_zeus") == ""
    assert m["effects"] == {"zeus": 1}
    m["at"] = "2,0"
    assert skills.check(t, m, "craft_pickaxe") == ""  # 3+1 = 4
    assert m["items"] == ["pickaxe"] and m["effects"] == {}


def test_act_6_poseidon_leaves_doubled_movement_pending() -> None:
    st = state(**{"1_0": "olympian_shrine"})
    m = pc(st, "m1", "ann", "centaur", "1,0")
    assert skills.check(table(st, [5]), m, "know_pray_to_poseidon") == ""
    assert m["effects"] == {"poseidon": 1}


def test_act_1_build_automaton_needs_a_body_which_it_uses_up() -> None:
    st = state(**{"1_0": "great_forge"})
    m = pc(st, "m1", "ann", "hoplite", "1,0", items=["tome_of_ichor"])
    t = table(st, [4])
    assert "Automaton Body" in skills.check(t, m, "craft_build_automaton")
    assert m["ap"] == 5
    m["items"].append("automaton_body")
    assert skills.check(t, m, "craft_build_automaton") == ""  # 4+1 (Hoplite) +3 (Ichor) = 8
    assert m["items"] == ["tome_of_ichor"]
    new = [x for x in st["models"].values() if x["type"] == "automaton"]
    assert len(new) == 1
    a = new[0]
    assert (a["side"], a["owner"], a["at"], a["home"], a["hp"]) == ("npc", "ann", "1,0", "1,0", 1)
    assert st["map"]["1,0"]["site"]["attached"] == [a["id"]]
    toml_ok(t)


def test_item_6_tome_of_ichor_only_for_automaton_builds() -> None:
    st = state(**{"1_0": "great_forge"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["tome_of_ichor"])
    t = table(st, [4])
    assert skills.check(t, m, "craft_axe") == ""  # 4: no +3 on an axe
    assert "axe" not in m["items"]


def test_library_2_at_most_five_creatures_attached() -> None:
    st = state(**{"1_0": "ancient_library"})
    m = pc(st, "m1", "ann", "philosopher", "1,0")
    for i in range(5):
        npc(st, f"m{10 + i}", "ann", "promethean", "1,0", home="1,0")
    st["map"]["1,0"]["site"] = {"attached": [f"m{10 + i}" for i in range(5)]}
    t = table(st, [6, 6])
    assert "5 creatures" in skills.check(t, m, "know_create_promethean")
    st["models"]["m10"]["hp"] = 0  # a dead one frees its place
    assert skills.check(t, m, "know_create_promethean") == ""  # Philosopher 2 dice: 12
    made = st["map"]["1,0"]["site"]["attached"][-1]
    assert st["models"][made]["type"] == "promethean" and st["models"][made]["hp"] == 2


def test_item_5_great_book_used_only_when_it_turns_a_fail_into_a_pass() -> None:
    st = state(**{"1_0": "ancient_library"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["great_book"])
    t = table(st, [5, 3])
    assert skills.check(t, m, "know_combat_manual") == ""  # 5: passes alone
    assert "great_book" in m["items"]
    assert skills.check(t, m, "know_tome_of_creation") == ""  # 3 + 2 = 5
    assert "great_book" not in m["items"] and "tome_of_creation" in m["items"]


def test_item_7_tome_of_creation_plus_2_one_craft_check() -> None:
    st = state(**{"1_0": "great_forge"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["tome_of_creation"])
    t = table(st, [1, 4])
    assert skills.check(t, m, "craft_sword") == ""  # 1 + 2 = 3 < 5: the tome stays
    assert m["items"] == ["tome_of_creation"]
    assert skills.check(t, m, "craft_sword") == ""  # 4 + 2 = 6
    assert m["items"] == ["sword"]


def test_item_2_talisman_rerolls_a_failed_check_once() -> None:
    st = state(**{"1_0": "great_forge"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["talisman"])
    t = table(st, [1, 5])
    assert skills.check(t, m, "craft_axe") == ""
    assert m["items"] == ["axe"]
    assert "Talisman reroll" in t.events[-1]["text"]
    assert [d.label for d in t.dice.draws] == ["r01/p1/check/craft_axe/m1",
                                               "r01/p1/check/craft_axe/m1/reroll"]


def test_item_2_talisman_kept_when_standing_reroll_is_off() -> None:
    st = state(**{"1_0": "great_forge"})
    st["standing"]["ann"] = {"reroll": False}
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["talisman"])
    t = table(st, [1])  # a second draw would fail the test
    assert skills.check(t, m, "craft_axe") == ""
    assert m["items"] == ["talisman"]


# ---------------------------------------------------------------------------- tunnelling


def digger(type_: str = "cimmerian", **squares: str) -> tuple[dict[str, Any], Model]:
    st = state(**squares)
    m = pc(st, "m1", "ann", type_, "2,0", items=["pickaxe"])
    return st, m


def test_dig_through_cimmerian_never_caves_in() -> None:
    st, m = digger(**{"2_0": "tunnel"})
    st["map"]["2,0"]["open"] = "NS"
    t = table(st, [1])
    assert skills.dig(t, m, "through", "E") == ""  # 1 + 2 = 3: success
    assert m["hp"] == 8 and m["ap"] == 3
    assert st["map"]["3,0"]["kind"] == "small_tunnel" and st["map"]["3,0"]["open"] == "EW"
    assert st["map"]["2,0"]["open"] == "NES"
    toml_ok(t)


def test_dig_through_centaur_dies_on_a_1() -> None:
    st, m = digger("centaur", **{"2_0": "tunnel"})
    t = table(st, [1])
    assert skills.dig(t, m, "through", "N") == ""
    assert m["hp"] == 0 and st["dead"] == ["ann"]
    assert "2,-1" not in st["map"]


def test_dig_through_lose_way_right_on_4() -> None:
    st, m = digger("centaur", **{"2_0": "empty_cavern"})
    t = table(st, [2, 4])
    assert skills.dig(t, m, "through", "E") == ""
    assert "3,0" not in st["map"]
    assert st["map"]["2,1"] == {"kind": "small_tunnel", "open": "NS", "found": 1, "by": "m1"}
    assert t.events[-1]["went"] == "S"


def test_dig_through_lose_way_into_open_ground_gets_nowhere() -> None:
    st, m = digger("centaur", **{"2_0": "empty_cavern", "2_-1": "tunnel"})
    t = table(st, [2, 5])  # left of east: north, a tunnel already
    assert skills.dig(t, m, "through", "E") == ""
    assert "3,0" not in st["map"] and st["map"]["2,-1"]["kind"] == "tunnel"
    assert m["ap"] == 3


def test_dig_1_needs_a_pickaxe_and_dig_2_no_enemies() -> None:
    st, m = digger(**{"2_0": "empty_cavern"})
    t = table(st, [])
    m["items"] = []
    assert "pickaxe" in skills.dig(t, m, "through", "E")
    m["items"] = ["pickaxe"]
    monster(st, "m9", "minion", "2,0")
    assert "enemy" in skills.dig(t, m, "through", "E")
    assert m["ap"] == 5


def test_dig_2_through_only_rock_or_undrawn_and_never_into_the_styx() -> None:
    st, m = digger(**{"2_0": "empty_cavern", "3_0": "tunnel", "1_0": "empty_cavern"})
    t = table(st, [])
    assert "not rock" in skills.dig(t, m, "through", "E")
    m["at"] = "1,0"
    assert "not rock" in skills.dig(t, m, "through", "W")  # 0,0 is the Styx


def test_dig_2_a_cyclops_can_only_enlarge() -> None:
    st, m = digger("cyclops", **{"2_0": "tunnel"})
    t = table(st, [3])
    assert "Cyclops" in skills.dig(t, m, "through", "E")
    assert skills.dig(t, m, "enlarge", "") == ""
    assert st["map"]["2,0"]["kind"] == "empty_cavern"


def test_dig_2_enlarge_small_tunnel_to_tunnel_to_cavern() -> None:
    st, m = digger(**{"2_0": "empty_cavern", "3_0": "small_tunnel"})
    t = table(st, [1, 4])
    assert skills.dig(t, m, "enlarge", "E") == ""
    assert st["map"]["3,0"]["kind"] == "tunnel" and st["map"]["3,0"]["open"] == "EW"
    assert skills.dig(t, m, "enlarge", "E") == ""
    assert st["map"]["3,0"]["kind"] == "empty_cavern" and st["map"]["3,0"]["open"] == "NESW"
    assert m["ap"] == 1
    m["ap"] = 5
    assert "no tunnel" in skills.dig(t, m, "enlarge", "E")


def test_dig_2_enlarging_loses_no_way_the_attempt_is_spent() -> None:
    st, m = digger("centaur", **{"2_0": "small_tunnel"})
    t = table(st, [2])  # no lose-way roll follows
    assert skills.dig(t, m, "enlarge", "") == ""
    assert st["map"]["2,0"]["kind"] == "small_tunnel" and m["ap"] == 3


def test_styx_4_digging_off_the_styx_only_from_its_own_bank() -> None:
    st, m = digger("centaur")
    st["map"]["0,0"]["bridge"] = False
    m.update(at="0,0", bank="W")
    t = table(st, [4])
    assert "Styx" in skills.dig(t, m, "through", "E")
    assert skills.dig(t, m, "through", "W") == ""
    assert st["map"]["-1,0"]["kind"] == "small_tunnel" and st["map"]["0,0"]["open"] == "NS"


def test_styx_2_the_styx_is_never_enlarged_or_collapsed() -> None:
    st, m = digger(**{"1_0": "empty_cavern"})
    m["at"] = "1,0"
    t = table(st, [])
    assert skills.dig(t, m, "enlarge", "W") != ""
    assert skills.dig(t, m, "collapse", "W") != ""
    assert m["ap"] == 5


@pytest.mark.parametrize(("rolls", "kind", "hp"), [
    ([2, 2], "tunnel", 6),        # 2 failure, d3 = 2 damage
    ([3, 1], "rock", 7),          # 3 success, d3 = 1 damage
    ([4], "rock", 8),             # 4-6 success
])
def test_dig_3_collapse_rows(rolls: list[int], kind: str, hp: int) -> None:
    st, m = digger("centaur", **{"2_0": "empty_cavern", "3_0": "tunnel"})
    t = table(st, rolls)
    assert skills.dig(t, m, "collapse", "E") == ""
    assert st["map"]["3,0"]["kind"] == kind and m["hp"] == hp and m["ap"] == 1


def test_dig_3_collapse_cave_in_on_1_and_buries_what_is_inside() -> None:
    st, m = digger("centaur", **{"2_0": "empty_cavern", "3_0": "tunnel"})
    buddy = npc(st, "m7", "ann", "hoplite", "3,0")
    assert skills.dig(table(st, [5]), m, "collapse", "E") == ""
    assert buddy["hp"] == 0 and st["map"]["3,0"]["open"] == ""
    st, m = digger("centaur", **{"2_0": "empty_cavern", "3_0": "tunnel"})
    assert skills.dig(table(st, [1]), m, "collapse", "E") == ""
    assert m["hp"] == 0 and st["map"]["3,0"]["kind"] == "tunnel"


def test_dig_3_collapse_names_a_neighbour() -> None:
    st, m = digger(**{"2_0": "tunnel"})
    assert "neighbour" in skills.dig(table(st, []), m, "collapse", "")


def test_dig_pit_row_3_is_failure() -> None:
    st, m = digger("centaur", **{"2_0": "empty_cavern"})
    t = table(st, [3, 4])
    assert skills.dig(t, m, "pit", "") == ""
    assert "site" not in st["map"]["2,0"] and m["ap"] == 1
    m["ap"] = 5
    assert skills.dig(t, m, "pit", "") == ""
    assert st["map"]["2,0"]["site"] == {"trap": "pit", "spent": False}
    assert m["stuck"] == ""


def test_dig_4_pit_and_surface_only_in_caverns() -> None:
    st, m = digger(**{"2_0": "tunnel"})
    t = table(st, [])
    assert "caverns" in skills.dig(t, m, "pit", "")
    assert "caverns" in skills.dig(t, m, "surface", "")


@pytest.mark.parametrize(("rolls", "kind", "hp"), [
    ([2], "empty_cavern", 0),           # 1-2 cave-in
    ([3, 3], "empty_cavern", 5),        # 3 failure, d3 = 3
    ([5, 1], "surface_tunnel", 7),      # 4-5 success, d3 = 1
    ([6], "surface_tunnel", 8),         # 6 success
])
def test_dig_surface_rows(rolls: list[int], kind: str, hp: int) -> None:
    st, m = digger("centaur", **{"2_0": "empty_cavern"})
    assert skills.dig(table(st, rolls), m, "surface", "") == ""
    assert st["map"]["2,0"]["kind"] == kind and m["hp"] == hp


def test_pc_cimmerian_2_bonus_on_surface_roll() -> None:
    st, m = digger("cimmerian", **{"2_0": "empty_cavern"})
    assert skills.dig(table(st, [4]), m, "surface", "") == ""  # 4 + 2 = 6: no damage
    assert st["map"]["2,0"]["kind"] == "surface_tunnel" and m["hp"] == 8


# ---------------------------------------------------------------------------- healing


def test_pc_krenaia_1_free_heal_once_per_turn_and_2_for_3_ap() -> None:
    st = state(**{"1_0": "empty_cavern"})
    k = pc(st, "m1", "ann", "krenaia", "1,0", hp=5)
    b = pc(st, "m2", "bob", "hoplite", "1,0", hp=5)
    t = table(st, [])
    assert skills.heal(t, k, "m2", False) == ""
    assert b["hp"] == 6 and k["ap"] == 5
    assert "used" in skills.heal(t, k, "", False)
    assert skills.heal(t, k, "", True) == ""
    assert k["hp"] == 6 and k["ap"] == 2
    assert "AP" in skills.heal(t, k, "", True)
    toml_ok(t)


def test_pc_krenaia_1_never_with_enemies_nor_above_maximum() -> None:
    st = state(**{"1_0": "empty_cavern"})
    k = pc(st, "m1", "ann", "krenaia", "1,0", hp=5)
    t = table(st, [])
    monster(st, "m9", "minion", "1,0")
    assert "enemy" in skills.heal(t, k, "", False)
    assert k["hp"] == 5
    st["models"]["m9"]["hp"] = 0
    k["hp"] = 8
    assert "full health" in skills.heal(t, k, "", False)


def test_pc_krenaia_only_heals() -> None:
    st = state(**{"1_0": "empty_cavern"})
    m = pc(st, "m1", "ann", "hoplite", "1,0", hp=5)
    assert "cannot heal" in skills.heal(table(st, []), m, "", False)


# ---------------------------------------------------------------------------- rare items


def test_rare_a2_cornucopia_once_a_turn() -> None:
    st = state(**{"1_0": "empty_cavern"})
    m = pc(st, "m1", "ann", "hoplite", "1,0", items=["cornucopia"], hp=4)
    t = table(st, [4])
    assert skills.use(t, m, "cornucopia", "gold") == ""
    assert m["gold"] == 7 and m["ap"] == 5
    assert "once per turn" in skills.use(t, m, "cornucopia", "health")
    m["effects"].pop("cornucopia")  # the next turn
    assert skills.use(t, m, "cornucopia", "health") == ""
    assert m["hp"] == 7


def test_rare_a3_caduceus_converts_and_a_great_monster_uses_it_up() -> None:
    st = state(**{"1_0": "empty_cavern"})
    m = pc(st, "m1", "ann", "hoplite", "1,0", items=["caduceus"])
    minion = monster(st, "m8", "minion", "1,0")
    manti = monster(st, "m9", "manticore", "1,0")
    t = table(st, [])
    assert skills.use(t, m, "caduceus", "m8") == ""
    assert minion["side"] == "npc" and minion["owner"] == "ann" and m["ap"] == 2
    m["ap"] = 5
    assert "once per turn" in skills.use(t, m, "caduceus", "m9")
    m["effects"].pop("caduceus")
    assert skills.use(t, m, "caduceus", "m9") == ""
    assert manti["side"] == "npc" and "caduceus" not in m["items"]


def test_rare_a5_dragons_teeth_sow_d6_hoplites() -> None:
    st = state(**{"1_0": "empty_cavern"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["dragons_teeth"])
    t = table(st, [3])
    assert skills.use(t, m, "dragons_teeth", "") == ""
    mine = [x for x in st["models"].values() if x["side"] == "npc"]
    assert len(mine) == 3 and {x["type"] for x in mine} == {"hoplite"}
    assert all(x["owner"] == "ann" and x["at"] == "1,0" for x in mine)
    assert m["items"] == [] and m["ap"] == 5


def test_rare_b2_amazon_girdle_d6_amazons() -> None:
    st = state(**{"1_0": "empty_cavern"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["amazon_girdle"])
    assert skills.use(table(st, [2]), m, "amazon_girdle", "") == ""
    assert [x["type"] for x in st["models"].values() if x["side"] == "npc"] == ["amazon"] * 2


def line_state() -> dict[str, Any]:
    st = state(**{"1_0": "tunnel", "2_0": "tunnel", "3_0": "tunnel", "4_0": "tunnel",
                  "5_0": "tunnel", "1_1": "empty_cavern"})
    return st


def test_rare_a6_thunderbolt_range_3_straight_even_cerberus() -> None:
    st = line_state()
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["thunderbolt"])
    cerb = monster(st, "m8", "cerberus", "4,0")
    far = monster(st, "m9", "minion", "5,0")
    side = monster(st, "m7", "minion", "2,1")
    t = table(st, [])
    assert "direct line" in skills.use(t, m, "thunderbolt", "m9")  # 4 squares
    assert "direct line" in skills.use(t, m, "thunderbolt", "m7")  # not straight
    assert skills.use(t, m, "thunderbolt", "m8") == ""
    assert cerb["hp"] == 0 and cerb["resting"] == 0 and m["items"] == [] and m["ap"] == 5
    assert far["hp"] == 1 and side["hp"] == 1
    assert any(e["type"] == "slain" and e["victim"] == "m8" for e in t.events)


def test_rare_a6_thunderbolt_needs_open_sides() -> None:
    st = line_state()
    st["map"]["3,0"]["open"] = "NS"  # a wall across the line
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["thunderbolt"])
    monster(st, "m8", "minion", "4,0")
    assert "direct line" in skills.use(table(st, []), m, "thunderbolt", "m8")
    assert m["items"] == ["thunderbolt"]


@pytest.mark.parametrize(("roll", "side", "hp", "prisoners"), [
    (1, "monster", 10, []),
    (3, "monster", 0, ["manticore"]),
    (6, "npc", 10, []),
])
def test_rare_b4_lyre_outcomes(roll: int, side: str, hp: int, prisoners: list[str]) -> None:
    st = state(**{"1_0": "empty_cavern"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["lyre_of_orpheus"])
    manti = monster(st, "m9", "manticore", "1,0")
    t = table(st, [roll])
    assert skills.use(t, m, "lyre_of_orpheus", "m9") == ""
    assert (manti["side"], manti["hp"], m["prisoners"]) == (side, hp, prisoners)
    assert m["ap"] == 2 and m["kleos"] == 0
    toml_ok(t)


def test_rare_b5_sandals_of_hermes_to_any_empty_cavern() -> None:
    st = state(**{"1_0": "tunnel", "9_9": "empty_cavern", "8_8": "great_forge"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["sandals_of_hermes"], stuck="pit")
    t = table(st, [])
    assert "empty cavern" in skills.use(t, m, "sandals_of_hermes", "8,8")
    assert skills.use(t, m, "sandals_of_hermes", "9,9") == ""
    assert (m["at"], m["ap"], m["stuck"]) == ("9,9", 0, "")


def test_rare_b6_rod_heals_the_square_but_not_with_enemies() -> None:
    st = state(**{"1_0": "empty_cavern"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["rod_of_asclepius"], hp=6)
    b = pc(st, "m2", "bob", "hoplite", "1,0", hp=3)
    full = npc(st, "m3", "ann", "promethean", "1,0")
    t = table(st, [])
    assert skills.use(t, m, "rod_of_asclepius", "") == ""
    assert (m["hp"], b["hp"], full["hp"], m["ap"]) == (7, 4, 2, 3)
    monster(st, "m9", "minion", "1,0")
    assert "enemy" in skills.use(t, m, "rod_of_asclepius", "")


def test_rare_a4_trident_7_plus_knowledge_makes_a_spring() -> None:
    st = state(**{"1_0": "empty_cavern"})
    m = pc(st, "m1", "ann", "myrmidon", "1,0", items=["trident"])
    t = table(st, [5, 6])
    assert skills.use(t, m, "trident", "") == ""  # 5+1 = 6: fails
    assert st["map"]["1,0"]["kind"] == "empty_cavern" and m["ap"] == 3
    assert skills.use(t, m, "trident", "") == ""  # 6+1 = 7
    assert st["map"]["1,0"]["kind"] == "magic_spring" and m["ap"] == 1


def test_rare_a1_passive_items_are_not_used() -> None:
    st = state(**{"1_0": "empty_cavern"})
    m = pc(st, "m1", "ann", "centaur", "1,0", items=["nemean_hide"])
    t = table(st, [])
    assert "by itself" in skills.use(t, m, "nemean_hide", "")
    assert "carries no" in skills.use(t, m, "thunderbolt", "m2")


# ---------------------------------------------------------------------------- give, retire


def test_myth_5_give_items_and_prisoners_between_players() -> None:
    st = state(**{"1_0": "empty_cavern", "2_0": "empty_cavern"})
    a = pc(st, "m1", "ann", "centaur", "1,0", items=["axe", "sword"], prisoners=["minion"])
    b = pc(st, "m2", "bob", "hoplite", "1,0", items=["sword"])
    t = table(st, [])
    assert skills.give(t, a, "axe", "bob") == ""
    assert "already owns" in skills.give(t, a, "sword", "m2")
    assert skills.give(t, a, "prisoner:minion", "m2") == ""
    assert (a["items"], b["items"], b["prisoners"]) == (["sword"], ["sword", "axe"], ["minion"])
    b["at"] = "2,0"
    assert "no character" in skills.give(t, a, "sword", "bob")


def test_surface_1_retire_with_a_full_turn_swaps_character() -> None:
    st = state(**{"1_0": "surface_tunnel", "2_0": "empty_cavern"})
    a = pc(st, "m1", "ann", "hoplite", "1,0", gold=9, kleos=4, items=["axe"])
    pc(st, "m2", "bob", "krenaia", "2,0")
    t = table(st, [])
    assert "another player" in skills.retire(t, a, "krenaia")
    a["ap"] = 4
    assert "full turn" in skills.retire(t, a, "cimmerian")
    a["ap"] = 5
    assert skills.retire(t, a, "cimmerian") == ""
    new = t.pc("ann")
    assert new is not None and new["id"] != "m1"
    assert (new["type"], new["at"], new["gold"], new["kleos"], new["items"], new["hp"]) == (
        "cimmerian", "1,0", 0, 0, ["pickaxe"], 8)
    assert a["hp"] == 0 and a["retired"] is True and st["dead"] == []
    toml_ok(t)


def test_surface_1_retire_only_at_a_surface_tunnel() -> None:
    st = state(**{"2_0": "empty_cavern"})
    a = pc(st, "m1", "ann", "hoplite", "2,0")
    assert "surface tunnel" in skills.retire(table(st, []), a, "cimmerian")

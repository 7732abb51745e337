"""Special squares (CAVERN... to TRAPPED ROOM, ISOLATED COMMUNITY, POLIS AND MANORS, KOBALOI
SETTLEMENTS, LOST HOARD, MAGIC SPRING, MOLTEN LAVA, MONSTER'S LAIR, SHRINE OF HECATE): what they
hold when drawn, what entering them does, the site actions and the world phase's sites."""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos import sites
from pbem.games.hetairos.table import Model, Table, load
from tests.scripted import Scripted

# ---- tiny state builders ------------------------------------------------------------------


def state(squares: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    st: dict[str, Any] = {
        "scenario": "beast_slayers", "options": {}, "round": 1, "seats": ["ann", "bob"],
        "step": "turn", "active": "ann", "cont": 0,
        "map": {"0,0": {"kind": "styx", "open": "NS", "bridge": True, "found": 0}},
        "models": {}, "next_id": 10, "pcs": {}, "dead": [], "teams": {}, "hostile": {},
        "standing": {"ann": {}, "bob": {}}, "goal": {}, "result": {}}
    for k, sq in (squares or {}).items():
        st["map"][k] = {"open": "NESW", "found": 0, **sq}
    return st


def pc(st: dict[str, Any], mid: str, at: str, type_: str = "hoplite", owner: str = "ann",
       **kw: Any) -> Model:
    m: Model = {"id": mid, "side": "pc", "owner": owner, "type": type_,
                "name": f"{owner.title()}'s {type_.title()}", "at": at, "bank": "", "hp": 8,
                "max_hp": 8, "ap": 5, "kleos": 0, "gold": 0, "items": [], "prisoners": [],
                "effects": {}, "moved": False, "spear": False, "came": "", "stuck": "", **kw}
    st["models"][mid] = m
    st["pcs"][owner] = mid
    return m


def monster(st: dict[str, Any], mid: str, type_: str, at: str, side: str = "monster",
            owner: str = "", home: str = "", **kw: Any) -> Model:
    m: Model = {"id": mid, "side": side, "owner": owner, "type": type_, "name": type_.title(),
                "at": at, "bank": "", "hp": 1, "max_hp": 1, "ap": 5, "kleos": 0, "home": home,
                "bought_off": [], "resting": 0, "stuck": "", **kw}
    st["models"][mid] = m
    return m


def table(st: dict[str, Any], dice: list[int] | None = None) -> Table:
    return Table(c=load(), state=st, dice=Scripted(dice or []), label="r01/p1")


def settlement(kind: str, **site: Any) -> dict[str, Any]:
    return {"kind": kind, "site": {"settlement": kind, "citizens": [], "friendly": [],
                                   "delivered": 0, "destroyed": False, **site}}


def types_at(t: Table, k: str, side: str) -> list[str]:
    return sorted(m["type"] for m in t.at(k) if m["side"] == side)


# ---- on_draw: communities, lairs, traps ---------------------------------------------------


def test_community_1_manor_has_3_hoplites_and_an_aristocrat() -> None:
    st = state({"2,0": {"kind": "isolated_community"}})
    t = table(st, [4])
    sites.on_draw(t, "2,0", pc(st, "m1", "1,0"))
    sq = st["map"]["2,0"]
    assert sq["kind"] == "manor"
    assert sq["site"] == {"settlement": "manor", "citizens": [], "friendly": [],
                          "delivered": 0, "destroyed": False}
    assert types_at(t, "2,0", "defender") == ["aristocrat", "hoplite", "hoplite", "hoplite"]
    assert all(m["home"] == "2,0" for m in t.at("2,0"))
    assert [m["hp"] for m in t.at("2,0") if m["type"] == "aristocrat"] == [2]


def test_community_1_polis_and_kobaloi_forces() -> None:
    st = state({"2,0": {"kind": "isolated_community"}, "3,0": {"kind": "isolated_community"}})
    t = table(st, [2, 5])
    by = pc(st, "m1", "1,0")
    sites.on_draw(t, "2,0", by)
    sites.on_draw(t, "3,0", by)
    assert st["map"]["2,0"]["kind"] == "polis"
    assert types_at(t, "2,0", "defender") == ["hoplite"] * 5
    assert st["map"]["3,0"]["kind"] == "kobaloi_settlement"
    assert types_at(t, "3,0", "defender") == ["kobalos"] * 6


def test_cavern_4_lair_great_monster_chart_b_gryphon() -> None:
    # Analysis 5.3 item 7: d6 1 -> Great Monster, d6 5 -> chart B, d6 5 -> Gryphon.
    st = state({"2,0": {"kind": "lair"}, "3,0": {"kind": "lair"}})
    t = table(st, [1, 5, 5, 2, 4, 4])
    by = pc(st, "m1", "1,0")
    sites.on_draw(t, "2,0", by)
    site = st["map"]["2,0"]["site"]
    gryphon = st["models"][site["monster"]]
    assert (site["lair"], gryphon["type"], gryphon["side"], gryphon["home"]) == \
        ("great_monster", "gryphon", "monster", "2,0")
    assert (gryphon["hp"], gryphon["ap"]) == (8, 7)
    sites.on_draw(t, "3,0", by)  # 2 -> great, 4 -> chart B, 4 -> the Nemean Lion
    assert st["models"][st["map"]["3,0"]["site"]["monster"]]["type"] == "nemean_lion"


def test_lair_3_spawn_lair_and_lair_5_shade_pit() -> None:
    st = state({"2,0": {"kind": "lair"}, "3,0": {"kind": "lair"}})
    t = table(st, [3, 2, 6])
    by = pc(st, "m1", "1,0")
    sites.on_draw(t, "2,0", by)
    sites.on_draw(t, "3,0", by)
    assert st["map"]["2,0"]["site"] == {"lair": "spawn_lair", "spawn": "promethean",
                                        "attached": []}
    assert st["map"]["3,0"]["site"] == {"lair": "shade_pit"}
    assert not t.at("2,0")  # a spawn lair spawns in the world phase, not when found


def test_trap_0_trapped_room_and_other_sites() -> None:
    st = state({"2,0": {"kind": "trapped_room"}, "3,0": {"kind": "lost_hoard"},
                "4,0": {"kind": "molten_lava"}, "5,0": {"kind": "shrine_of_hecate"},
                "6,0": {"kind": "great_forge"}, "7,0": {"kind": "magic_spring"}})
    t = table(st, [5])
    by = pc(st, "m1", "1,0")
    for k in ("2,0", "3,0", "4,0", "5,0", "6,0", "7,0"):
        sites.on_draw(t, k, by)
    assert st["map"]["2,0"]["site"] == {"trap": "revolving_room", "spent": False}
    assert st["map"]["3,0"]["site"] == {"taken": False}
    assert st["map"]["4,0"]["site"]["threshold"] == 3
    assert st["map"]["5,0"]["site"] == {"spawn": "hecate_devotee", "attached": []}
    assert st["map"]["6,0"]["site"] == {"attached": []}
    assert "site" not in st["map"]["7,0"]


# ---- entering --------------------------------------------------------------------------


def test_hoard_1_double_gives_a_rare_item() -> None:
    # Analysis 5.3 item 9: 3+3 = 6 Gold and a rare item: d6 2 -> chart A, d6 6 -> Thunderbolt.
    st = state({"2,0": {"kind": "lost_hoard", "site": {"taken": False}}})
    t = table(st, [3, 3, 2, 6])
    m = pc(st, "m1", "2,0")
    assert sites.on_enter(t, m, "2,0", "E") == ["treasure"]
    assert (m["gold"], m["items"]) == (6, ["thunderbolt"])
    bob = pc(st, "m2", "2,0", owner="bob")
    assert sites.on_enter(t, bob, "2,0", "E") == []  # the hoard is taken: no draw
    assert bob["gold"] == 0


def test_hoard_1_no_double_no_item() -> None:
    st = state({"2,0": {"kind": "lost_hoard", "site": {"taken": False}}})
    t = table(st, [3, 4])
    m = pc(st, "m1", "2,0")
    sites.on_enter(t, m, "2,0", "E")
    assert (m["gold"], m["items"]) == (7, [])


def test_lair_4_great_monster_fights_the_discoverer_at_once() -> None:
    st = state({"2,0": {"kind": "lair"}})
    t = table(st, [1, 5, 5])
    m = pc(st, "m1", "2,0", type_="myrmidon")
    sites.on_draw(t, "2,0", m)
    gryphon = st["models"][st["map"]["2,0"]["site"]["monster"]]
    gryphon["ap"] = 1
    t.dice = Scripted([6, 6, 1])  # Gryphon 2d6+2 = 14 against the Myrmidon's 1: 2 damage
    assert sites.on_enter(t, m, "2,0", "E") == ["enemy"]
    assert m["hp"] == 6
    assert (gryphon["ap"], gryphon["acted"]) == (0, 1)
    gryphon["ap"] = 7
    t.dice = Scripted([])
    assert sites.on_enter(t, m, "2,0", "E") == []  # only the discoverer, only once


def test_lair_5_shade_pit_d3_shades_attack() -> None:
    st = state({"2,0": {"kind": "lair", "site": {"lair": "shade_pit"}}})
    t = table(st, [2, 6, 1, 1, 5])  # 2 Shades: 6 beats 1 (1 damage); 1 loses to 5
    m = pc(st, "m1", "2,0", type_="myrmidon")
    assert sites.on_enter(t, m, "2,0", "E") == ["trap"]
    assert m["hp"] == 7


def test_trap_1_poisoned_arrow_only_once() -> None:
    st = state({"2,0": {"kind": "trapped_room",
                        "site": {"trap": "poisoned_arrow", "spent": False}}})
    t = table(st, [6, 6, 6, 1, 2])  # 3d6 18 against 1: d6+2 = 4 damage
    m = pc(st, "m1", "2,0", type_="myrmidon")
    assert sites.on_enter(t, m, "2,0", "E") == ["trap"]
    assert m["hp"] == 4
    assert sites.on_enter(t, m, "2,0", "E") == []  # spent: no draw


def test_trap_2_snake_pit_bites_on_falling_and_every_turn() -> None:
    st = state({"2,0": {"kind": "trapped_room", "site": {"trap": "snake_pit", "spent": False}}})
    t = table(st, [1, 6, 6, 1])
    m = pc(st, "m1", "2,0", type_="myrmidon")
    sites.on_enter(t, m, "2,0", "E")  # falls in: the snakes' 1 loses to 6
    assert (m["stuck"], m["hp"]) == ("pit", 8)
    sites.snake_pits(t)  # end of turn: 6 beats 1, 1 damage
    assert m["hp"] == 7


def test_trap_3_rolling_rock_path_hits_models_and_a_town() -> None:
    # Entering 4,1 moving east: the rock rolls west through a tunnel (a Minion), a Polis (one
    # defender killed, no roll) and another tunnel, and stops at the Styx.
    st = state({"4,1": {"kind": "trapped_room", "site": {"trap": "rolling_rock",
                                                         "spent": False}},
                "3,1": {"kind": "tunnel", "open": "EW"}, "2,1": settlement("polis"),
                "1,1": {"kind": "tunnel", "open": "EW"},
                "0,1": {"kind": "styx", "open": "NS", "bridge": False}})
    for i in range(5):
        monster(st, f"d{i}", "hoplite", "2,1", side="defender", home="2,1")
    minion = monster(st, "m9", "minion", "3,1")
    m = pc(st, "m1", "4,1")
    t = table(st, [6, 6, 1, 1])  # 2d6 12 against the Minion's 1; d3+2 = 3 damage
    assert sites.on_enter(t, m, "4,1", "E") == ["trap"]
    rolled = [e for e in t.events if e.get("path")]
    assert rolled[0]["path"] == ["3,1", "2,1", "1,1"]
    assert minion["hp"] == 0
    assert len([d for d in t.at("2,1") if d["side"] == "defender"]) == 4
    assert m["hp"] == 8  # out of the way
    t.dice = Scripted([2])  # a later entrant: d6 2, no new rock
    assert sites.on_enter(t, m, "4,1", "E") == []


def test_trap_3_rolling_rock_stops_at_a_closed_side() -> None:
    st = state({"4,1": {"kind": "trapped_room", "site": {"trap": "rolling_rock",
                                                         "spent": True}},
                "3,1": {"kind": "tunnel", "open": "EW"}, "2,1": {"kind": "tunnel", "open": "NS"}})
    t = table(st, [1])  # d6 1: a further rock, rolling back west
    m = pc(st, "m1", "4,1")
    sites.on_enter(t, m, "4,1", "E")
    assert next(e for e in t.events if "path" in e)["path"] == ["3,1"]


def test_trap_4_pit_climb_combines_the_side_strictly_better() -> None:
    st = state({"2,0": {"kind": "trapped_room", "site": {"trap": "pit", "spent": False}}})
    m = pc(st, "m1", "2,0")
    t = table(st, [])
    assert sites.on_enter(t, m, "2,0", "E") == ["trap"]
    npc = monster(st, "m2", "hoplite", "2,0", side="npc", owner="ann", stuck="pit")
    t.dice = Scripted([1, 1, 2])  # Hoplite PC 1+2, NPC 1 = 4 against d6+2 = 4: a tie, stuck
    assert sites.climb(t, m) == ""
    assert (m["stuck"], npc["stuck"], m["ap"]) == ("pit", "pit", 4)
    t.dice = Scripted([2, 1, 1])  # 5 against 3: both out
    assert sites.climb(t, m) == ""
    assert (m["stuck"], npc["stuck"], m["ap"]) == ("", "", 3)
    assert sites.climb(t, m) == "not in a pit"


def test_trap_5_revolving_room_rock_face_counts_as_1() -> None:
    # Entering 1,1 moving east; d6 3 = left of entry = north, where 1,0 is rock: stuck.
    st = state({"1,1": {"kind": "trapped_room", "site": {"trap": "revolving_room",
                                                         "spent": False}},
                "1,0": {"kind": "rock", "open": ""}})
    m = pc(st, "m1", "1,1")
    t = table(st, [3])
    assert sites.on_enter(t, m, "1,1", "E") == ["trap"]
    assert (m["stuck"], m["exit"]) == ("revolving", "")
    t.dice = Scripted([4])  # right of entry = south (undrawn, no rock face)
    sites.on_enter(t, m, "1,1", "E")
    assert (m["stuck"], m["exit"]) == ("revolving", "S")
    t.dice = Scripted([2])  # same side as entry = west
    sites.on_enter(t, m, "1,1", "E")
    assert m["exit"] == "W"
    t.dice = Scripted([6])
    sites.on_enter(t, m, "1,1", "E")
    assert m["exit"] == "any"


def test_trap_6_room_of_daedalus_knowledge_6_lets_the_side_out() -> None:
    st = state({"2,0": {"kind": "trapped_room",
                        "site": {"trap": "room_of_daedalus", "spent": False}}})
    m = pc(st, "m1", "2,0")
    t = table(st, [5, 6])
    sites.on_enter(t, m, "2,0", "E")
    npc = monster(st, "m2", "hoplite", "2,0", side="npc", owner="ann", stuck="daedalus")
    foe = monster(st, "m3", "minion", "2,0", stuck="daedalus")
    assert m["stuck"] == "daedalus"
    assert sites.escape(t, m) == ""  # 5: still lost
    assert (m["stuck"], m["ap"]) == ("daedalus", 3)
    assert sites.escape(t, m) == ""
    assert (m["stuck"], npc["stuck"], foe["stuck"], m["ap"]) == ("", "", "daedalus", 1)
    assert sites.escape(t, npc) != ""  # NPCs make no knowledge rolls


# ---- settlements -------------------------------------------------------------------------


def test_polis_5_citizenship_2d6_plus_kleos() -> None:
    # Analysis 5.3 item 10: 5 Gold, Kleos 5, 2d6 = 7 -> 12: a citizen; later 1 AP + 5 Gold
    # buys a controlled Hoplite.
    st = state({"2,0": settlement("polis")})
    m = pc(st, "m1", "2,0", gold=10, kleos=5)
    t = table(st, [3, 4])
    assert sites.citizen(t, m, "gold") == ""
    site = st["map"]["2,0"]["site"]
    assert (site["citizens"], site["friendly"], m["gold"], m["ap"]) == (["ann"], ["ann"], 5, 5)
    assert sites.citizen(t, m, "gold") == "already a citizen"
    assert sites.hire(t, m, "gold") == ""
    npcs = [o for o in t.at("2,0") if o["side"] == "npc"]
    assert [(o["type"], o["owner"]) for o in npcs] == [("hoplite", "ann")]
    assert (m["gold"], m["ap"]) == (0, 4)


def test_polis_5_failed_citizenship_loses_the_payment() -> None:
    st = state({"2,0": settlement("polis")})
    m = pc(st, "m1", "2,0", gold=5, kleos=5, prisoners=["minion"])
    t = table(st, [3, 3, 1, 1])
    assert sites.citizen(t, m, "gold") == ""  # 6 + 5 = 11
    assert (st["map"]["2,0"]["site"]["citizens"], m["gold"]) == ([], 0)
    assert sites.hire(t, m, "gold") == "you are not a citizen of this Polis"
    assert sites.citizen(t, m, "prisoner") == ""  # a prisoner delivered, 2 + 5 = 7
    assert (m["prisoners"], st["map"]["2,0"]["site"]["delivered"]) == ([], 1)


def test_polis_8_hire_by_knowledge_spends_the_ap_even_when_failed() -> None:
    st = state({"2,0": settlement("polis", citizens=["ann"], friendly=["ann"])})
    m = pc(st, "m1", "2,0", type_="philosopher")
    t = table(st, [4, 5, 5, 5])
    assert sites.hire(t, m, "knowledge") == ""  # 9: no Hoplite
    assert (m["ap"], [o for o in t.at("2,0") if o["side"] == "npc"]) == (4, [])
    assert sites.hire(t, m, "knowledge") == ""  # 10
    assert m["ap"] == 3
    assert len([o for o in t.at("2,0") if o["side"] == "npc"]) == 1


def test_community_5_prisoners_sold_on_one_roll_each() -> None:
    st = state({"2,0": settlement("manor")})
    m = pc(st, "m1", "2,0", prisoners=["minion", "kobalos", "hydra"])
    t = table(st, [3, 4, 5, 6])  # d6 3 for each monster, 3d6 15 for the Great Monster
    assert sites.sell(t, m, "prisoners") == ""
    assert (m["gold"], m["prisoners"], m["ap"]) == (21, [], 5)
    assert st["map"]["2,0"]["site"]["delivered"] == 3
    m["prisoners"] = ["witch"]
    assert sites.sell(t, m, "prisoners") == ""  # the same turn: the same d6, no new draw
    assert m["gold"] == 24
    st["round"] = 2
    m["prisoners"] = ["witch"]
    t.dice = Scripted([1])
    sites.sell(t, m, "prisoners")
    assert m["gold"] == 25


def test_community_5_weapon_sold_at_buying_price_less_1() -> None:
    st = state({"2,0": settlement("polis"), "3,0": settlement("kobaloi_settlement")})
    m = pc(st, "m1", "2,0", items=["spear", "falx", "aspis"])
    t = table(st)
    assert sites.sell(t, m, "spear") == ""
    assert (m["gold"], m["items"]) == (2, ["falx", "aspis"])
    assert sites.sell(t, m, "falx") != ""  # no printed price
    assert sites.sell(t, m, "aspis") != ""  # not a weapon
    m["at"], m["items"] = "3,0", ["spear"]
    assert sites.sell(t, m, "spear") == ""  # the Kobaloi price 4, less 1
    assert m["gold"] == 5


def test_polis_1_buy_and_polis_9_friendly_d6_once_a_visit() -> None:
    st = state({"2,0": settlement("polis", citizens=["ann"], friendly=["ann"]),
                "3,0": settlement("manor")})
    m = pc(st, "m1", "2,0", gold=6)
    t = table(st, [3])
    assert sites.buy(t, m, "sword") == ""  # 4 less 3
    assert sites.buy(t, m, "aspis") == ""  # 5 less the same 3, no new draw
    assert (m["gold"], m["items"]) == (3, ["sword", "aspis"])
    assert sites.buy(t, m, "sword") != ""  # no duplicates
    assert sites.buy(t, m, "sling") != ""  # not sold at a Polis
    assert sites.buy(t, m, "prayer_to_zeus") == ""  # 2 less 3: free
    assert (m["gold"], m["effects"]["zeus"]) == (3, 1)
    m["at"] = "3,0"  # not friendly here: full price
    assert sites.buy(t, m, "talisman") == ""
    assert m["gold"] == 0
    assert sites.buy(t, m, "spear").startswith("Spear costs 3")


def test_kobaloi_1_healing_is_bought() -> None:
    st = state({"2,0": settlement("kobaloi_settlement")})
    m = pc(st, "m1", "2,0", gold=16, hp=7)
    t = table(st)
    assert sites.buy(t, m, "healing") == ""
    assert (m["hp"], m["gold"], m["items"]) == (8, 8, [])
    assert sites.buy(t, m, "healing") == "already at full health"


def test_community_settlement_refuses_enemies_and_war() -> None:
    st = state({"2,0": settlement("polis")})
    m = pc(st, "m1", "2,0", gold=10)
    t = table(st)
    monster(st, "m5", "minion", "2,0")
    assert sites.buy(t, m, "spear") == "enemies are in the square"
    st["models"]["m5"]["hp"] = 0
    st["hostile"]["2,0"] = ["party"]
    assert "war" in sites.buy(t, m, "spear")


def test_kobaloi_2_end_of_turn_knowledge_3_or_lose_d6_gold() -> None:
    st = state({"2,0": settlement("kobaloi_settlement")})
    m = pc(st, "m1", "2,0", gold=5)
    t = table(st, [2, 4, 3])
    sites.end_of_turn(t, m)  # knowledge 2: loses 4
    assert m["gold"] == 1
    sites.end_of_turn(t, m)  # knowledge 3: keeps it
    assert m["gold"] == 1
    m["gold"] = 0
    sites.end_of_turn(t, m)  # nothing to lose: no draw
    assert m["gold"] == 0


def test_polis_7_friendly_manor_income_4_ap_d6_plus_4() -> None:
    st = state({"2,0": settlement("manor", friendly=["ann"])})
    m = pc(st, "m1", "2,0")
    bob = pc(st, "m2", "2,0", owner="bob")
    t = table(st, [3])
    assert sites.income(t, m) == ""
    assert (m["gold"], m["ap"]) == (7, 1)
    assert sites.income(t, m) == "needs 4 AP, 1 left"
    assert sites.income(t, bob) == "the Manor is not friendly to you"


def test_community_4_settlement_destroyed_by_monsters() -> None:
    st = state({"2,0": settlement("polis"), "3,0": settlement("kobaloi_settlement")})
    monster(st, "d1", "kobalos", "3,0", side="defender", home="3,0")
    monster(st, "m5", "minion", "2,0")
    monster(st, "m6", "minion", "3,0")
    t = table(st)
    sites.settlement_checks(t)
    assert st["map"]["2,0"]["site"]["destroyed"] is True
    assert st["map"]["2,0"]["kind"] == "polis"
    assert st["map"]["3,0"]["site"]["destroyed"] is False
    assert [e["type"] for e in t.events] == ["destroyed"]


def test_polis_2_manor_taken_regains_4_hoplites() -> None:
    st = state({"2,0": settlement("manor")})
    st["hostile"]["2,0"] = ["party"]
    pc(st, "m1", "2,0")
    t = table(st)
    sites.settlement_checks(t)
    site = st["map"]["2,0"]["site"]
    assert (site["friendly"], site["destroyed"], st["hostile"]["2,0"]) == (["ann"], False, [])
    assert types_at(t, "2,0", "defender") == ["hoplite"] * 4


def test_spring_1_two_ap_one_hp() -> None:
    st = state({"2,0": {"kind": "magic_spring"}})
    m = pc(st, "m1", "2,0", hp=6)
    t = table(st)
    assert sites.spring(t, m) == ""
    assert (m["hp"], m["ap"]) == (7, 3)
    assert sites.spring(t, m) == ""
    assert sites.spring(t, m) == "already at full health"
    m["hp"] = 5
    assert sites.spring(t, m) == "needs 2 AP, 1 left"


# ---- world phase ---------------------------------------------------------------------------


def test_hecate_1_spawn_rolls_the_devotee_and_lair_3_caps_at_5() -> None:
    st = state({"2,0": {"kind": "shrine_of_hecate",
                        "site": {"spawn": "hecate_devotee", "attached": []}},
                "3,0": {"kind": "lair", "site": {"lair": "spawn_lair", "spawn": "minion",
                                                 "attached": []}}})
    for i in range(5):
        monster(st, f"x{i}", "minion", "3,0", home="3,0")
    st["map"]["3,0"]["site"]["attached"] = [f"x{i}" for i in range(5)]
    t = table(st, [1])
    sites.spawn(t)
    assert [m["type"] for m in t.at("2,0")] == ["mormo"]
    assert t.at("2,0")[0]["home"] == "2,0"
    assert len(t.at("3,0")) == 5  # five attached alive: none spawned
    st["models"]["x0"]["hp"] = 0
    t.dice = Scripted([4])
    sites.spawn(t)
    assert sorted(m["type"] for m in t.at("2,0")) == ["mormo", "witch"]
    assert len(t.at("3,0")) == 5
    assert len(st["map"]["3,0"]["site"]["attached"]) == 5


def _lava_map() -> dict[str, Any]:
    return state({"2,2": {"kind": "molten_lava", "site": {"threshold": 3, "cells": ["2,2"]}},
                  "3,2": {"kind": "tunnel", "open": "EW"},
                  "2,1": {"kind": "tunnel", "open": "EW"},
                  "1,2": {"kind": "empty_cavern"},
                  "0,2": {"kind": "styx", "open": "NS", "bridge": True}})


def test_lava_2_threshold_rises_only_on_a_spread() -> None:
    st = _lava_map()
    victim = monster(st, "m5", "minion", "3,2")
    t = table(st, [2, 3])
    sites.lava(t)  # 2 < 3: nothing, the threshold stays 3
    assert st["map"]["2,2"]["site"]["threshold"] == 3
    sites.lava(t)  # 3: into 3,2 (open west) and 1,2, not 2,1 (closed to the south)
    assert st["map"]["2,2"]["site"]["threshold"] == 4
    assert (st["map"]["3,2"]["kind"], st["map"]["1,2"]["kind"], st["map"]["2,1"]["kind"]) \
        == ("molten_lava", "molten_lava", "tunnel")
    assert victim["hp"] == 0
    assert any(e["type"] == "engulfed" for e in t.events)
    assert st["map"]["0,2"]["bridge"] is True
    t.dice = Scripted([6])  # from 1,2: the Styx's bridge is destroyed, the river not crossed
    sites.lava(t)
    assert (st["map"]["0,2"]["kind"], st["map"]["0,2"]["bridge"]) == ("styx", False)
    assert st["map"]["2,2"]["site"]["threshold"] == 5


def test_lava_2_a_six_always_spreads_and_the_threshold_stays_at_6() -> None:
    st = _lava_map()
    st["map"]["2,2"]["site"]["threshold"] = 6
    t = table(st, [5, 6])
    sites.lava(t)
    assert st["map"]["3,2"]["kind"] == "tunnel"
    sites.lava(t)
    assert st["map"]["3,2"]["kind"] == "molten_lava"
    assert st["map"]["2,2"]["site"]["threshold"] == 6


def test_lava_2_chain_option_rolls_until_a_failure() -> None:
    st = _lava_map()
    st["options"]["lava"] = "chain"
    t = table(st, [3, 4])  # 3 spreads; 4 spreads again (the bridge), then nowhere left to go
    sites.lava(t)
    assert st["map"]["0,2"]["bridge"] is False
    assert st["map"]["2,2"]["site"]["threshold"] == 5


def test_skill_roll_counts_dice_books_and_prayers() -> None:
    st = state()
    m = pc(st, "m1", "1,0", type_="philosopher", items=["master_book"],
           effects={"athena": 1})
    t = table(st, [2, 3, 1, 1])
    assert sites.skill_roll(t, m, "knowledge") == 2 + 3 + 2 + 3
    assert "athena" not in m["effects"]
    assert sites.skill_roll(t, m, "knowledge") == 1 + 1 + 2


def test_community_3_a_stationed_npc_joins_the_force_for_good() -> None:
    """Community 3: "PLAYERS MAY STATION MODELS THERE TO BOLSTER THE FORCE"."""
    from pbem.games.hetairos import turn
    from tests.hetairos import build

    s = build.state(("ann",))
    build.square(s, "1,0", "polis", site={"settlement": "polis", "citizens": [],
                                          "friendly": [], "delivered": 0, "destroyed": False})
    hero = build.pc(s, "ann", "hoplite", "1,0")
    npc = build.monster(s, "hoplite", "1,0", side="npc", owner="ann")
    stranger = build.monster(s, "minion", "1,0", side="npc", owner="bob")
    t = build.table(s)
    assert "no NPC of yours" in turn.do(t, hero, turn.Step("station", (stranger["id"],), ""))[0]
    assert turn.do(t, hero, turn.Step("station", (npc["id"],), ""))[0] == ""
    assert (npc["side"], npc["home"]) == ("defender", "1,0")
    assert t.team_of(npc) == "town:1,0" and not t.enemies(hero, npc)

"""Battle in Hetairos (TO BATTLE!, WEAPONS, OTHER BATTLE EQUIPMENT, MONSTER MANUAL): one round
at a time with scripted dice (analysis 5.3 items 1-5 and the monsters' special rules)."""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos import combat
from pbem.games.hetairos.table import Model, Table, load
from tests.scripted import Scripted

# ---- tiny state builders ---------------------------------------------------------------------


def state() -> dict[str, Any]:
    return {"scenario": "beast_slayers", "options": {}, "round": 1, "seats": ["ann", "bob"],
            "step": "turn", "active": "ann", "cont": 0,
            "map": {"0,0": {"kind": "styx", "open": "NS", "bridge": True, "found": 0}},
            "models": {}, "next_id": 0, "pcs": {}, "dead": [], "teams": {}, "hostile": {},
            "standing": {"ann": {}, "bob": {}}, "goal": {}, "result": {}}


def table(dice: list[int], st: dict[str, Any] | None = None) -> Table:
    return Table(c=load(), state=st if st is not None else state(), dice=Scripted(dice),
                 label="r01/p1")


def pc(t: Table, owner: str, type_: str, at: str = "1,0", **kw: Any) -> Model:
    mid = t.new_id()
    m = {"id": mid, "side": "pc", "owner": owner, "type": type_,
         "name": f"{owner.title()}'s {type_.title()}", "at": at, "bank": "", "hp": 8,
         "max_hp": 8, "ap": 5, "kleos": 0, "gold": 0, "items": [], "prisoners": [],
         "effects": {}, "moved": False, "spear": False, "came": "", "stuck": "", **kw}
    t.models[mid] = m
    t.state["pcs"][owner] = mid
    return m


def monster(t: Table, type_: str, at: str = "1,0", side: str = "monster", owner: str = "",
            **kw: Any) -> Model:
    mon = t.c.monster(type_)
    mid = t.new_id()
    m = {"id": mid, "side": side, "owner": owner, "type": type_, "name": mon.name, "at": at,
         "bank": "", "hp": mon.hp, "max_hp": mon.hp, "ap": mon.ap, "kleos": 0, "home": "",
         "bought_off": [], "resting": 0, **kw}
    t.models[mid] = m
    return m


def npc(t: Table, owner: str, type_: str, at: str = "1,0", **kw: Any) -> Model:
    m = monster(t, type_, at, side="npc", owner=owner, **kw)
    m["name"] = f"{owner.title()}'s {m['name']} {m['id']}"
    return m


def events(t: Table, type_: str) -> list[dict[str, Any]]:
    return [e for e in t.events if e["type"] == type_]


def spent(t: Table) -> None:
    """Every scripted die was drawn (no more, no fewer)."""
    assert isinstance(t.dice, Scripted)
    assert t.dice.values == [], f"dice not drawn: {t.dice.values}"


# ---- Battle 2: one round -----------------------------------------------------------------------


def test_battle_2_single_round_win_gains_kleos() -> None:
    t = table([2, 3, 4])  # Hoplite 2 (+2 = 4), Minion 3; imprison roll 4 fails
    hero, minion = pc(t, "ann", "hoplite"), monster(t, "minion")
    combat.attack(t, hero, minion)
    (fight,) = events(t, "combat")
    assert fight["totals"] == [4, 3] and fight["winner"] == "attackers"
    assert fight["attackers"] == [hero["id"]] and fight["defenders"] == [minion["id"]]
    assert "Ann's Hoplite (2+2=4) beats Minion (3)" in fight["text"]
    assert minion["hp"] == 0 and hero["hp"] == 8
    assert hero["kleos"] == 1
    (slain,) = events(t, "slain")
    assert slain["victim"] == minion["id"] and slain["kleos"] == 1 and slain["by"] == [hero["id"]]
    assert slain["great"] is False and "player" not in slain
    spent(t)


def test_battle_2_tie_both_lose_a_point() -> None:
    # Hoplite 1+2 = 3 vs Minion 3: tie. The Hoplite's own save (PC Hoplite 3) rolls 2: lands.
    t = table([1, 3, 2, 4])
    hero, minion = pc(t, "ann", "hoplite"), monster(t, "minion")
    combat.attack(t, hero, minion)
    assert events(t, "combat")[0]["winner"] == "tie"
    assert hero["hp"] == 7 and minion["hp"] == 0 and hero["kleos"] == 1
    spent(t)


def test_battle_2_loss_costs_the_attacker() -> None:
    t = table([1, 6])
    hero, minion = pc(t, "ann", "centaur"), monster(t, "minion")
    combat.attack(t, hero, minion)
    assert events(t, "combat")[0]["winner"] == "defenders"
    assert hero["hp"] == 7 and minion["hp"] == 1
    spent(t)


def test_monster_witch_takes_no_damage_on_a_tie() -> None:
    t = table([4, 4])
    hero, witch = pc(t, "ann", "centaur"), monster(t, "witch")
    combat.attack(t, hero, witch)
    assert hero["hp"] == 7 and witch["hp"] == 1
    assert events(t, "unhurt")[0]["model"] == witch["id"]
    spent(t)


def test_monster_lampad_takes_no_damage_on_a_tie_seed_defect_4() -> None:
    t = table([5, 4, 4])  # knowledge check 5 (passed), then 4 vs 4
    hero, lampad = pc(t, "ann", "centaur"), monster(t, "lampad")
    combat.attack(t, hero, lampad)
    assert hero["hp"] == 7 and lampad["hp"] == 1
    spent(t)


# ---- Battle 5-8: massed -------------------------------------------------------------------------


def test_battle_8_massed_hoplites_vs_manticore() -> None:
    st = state()
    t = table([3, 5, 4, 3, 3, 4], st)
    pc(t, "ann", "centaur", at="5,5")  # Ann's own character is elsewhere
    h1, h2, h3 = (npc(t, "ann", "hoplite") for _ in range(3))
    beast = monster(t, "manticore")
    combat.attack(t, h1, beast)
    fight = events(t, "combat")[0]
    assert fight["attackers"] == [h1["id"], h2["id"], h3["id"]]
    assert fight["totals"] == [12, 10] and fight["damage"] == 3
    assert beast["hp"] == 7
    spent(t)
    # Round 2: 1+2+3 = 6 vs 4+5+5 = 14; d6+2 = 3+2 = 5 damage (the Monster Manual's, ruling
    # 5.1 item 5), shared 2, 2, 1; each point is checked by that Hoplite's 6+ (Monster Hoplite).
    t.dice = Scripted([1, 2, 3, 4, 5, 5, 3, 6, 2, 2, 1])
    combat.attack(t, h1, beast)
    assert events(t, "combat")[1]["damage"] == 5
    assert [h["hp"] for h in (h1, h2, h3)] == [0, 0, 0]
    assert len(events(t, "save")) == 1  # h1 saved its first point on the 6
    slain = events(t, "slain")
    assert [e["victim"] for e in slain] == [h1["id"], h2["id"], h3["id"]]
    assert all(e["player"] == "ann" and e["kleos"] == 1 for e in slain)
    assert beast["kleos"] == 0  # monsters gain no Kleos
    spent(t)  # h2's second point was wasted: no roll for it


def test_battle_5_defenders_fight_together() -> None:
    t = table([6, 1, 1, 4])  # Centaur 6 vs two Minions 1 + 1; imprison 4 fails
    hero = pc(t, "ann", "centaur")
    m1, m2 = monster(t, "minion"), monster(t, "minion")
    combat.attack(t, hero, m2)
    fight = events(t, "combat")[0]
    assert fight["defenders"] == [m2["id"], m1["id"]]  # the target first
    assert fight["totals"] == [6, 2]
    assert m2["hp"] == 0 and m1["hp"] == 1  # 1 damage, on the target first
    spent(t)


def test_battle_8_soak_npcs_first_and_me_first() -> None:
    for soak, hurt in (("npcs_first", "npc"), ("me_first", "pc")):
        st = state()
        st["standing"]["ann"] = {"soak": soak}
        t = table([6, 1, 1], st)  # the Minion 6 vs Ann 1 + her NPC 1
        hero = pc(t, "ann", "centaur")
        helper = npc(t, "ann", "minion")
        combat.attack(t, monster(t, "minion"), hero)
        assert (helper["hp"] == 0) == (hurt == "npc")
        assert (hero["hp"] == 7) == (hurt == "pc")


def test_battle_6_cover_takes_the_points_first() -> None:
    st = state()
    st["standing"]["ann"] = {"cover": ["bob"]}
    t = table([6, 1, 1], st)  # a Minion 6 vs Bob 1, Ann 1
    ann, bob = pc(t, "ann", "centaur"), pc(t, "bob", "centaur")
    combat.attack(t, monster(t, "minion"), bob)
    assert ann["hp"] == 7 and bob["hp"] == 8


# ---- Monster specials ------------------------------------------------------------------------


def test_monster_hydra_gains_per_wound() -> None:
    t = table([6, 2, 2])  # Centaur 6 vs Hydra 2+2 +3 (3 HP lost) = 7
    hero, hydra = pc(t, "ann", "centaur"), monster(t, "hydra", hp=5)
    combat.attack(t, hero, hydra)
    fight = events(t, "combat")[0]
    assert fight["totals"] == [6, 7] and fight["damage"] == 4  # 1 + 3
    assert hero["hp"] == 4
    spent(t)


def test_gear_saves_and_ignore_saves() -> None:
    # Myrmidon with an Axe beats the Nemean Lion: 2+1 = 3 damage; the Lion's 5+: 5, 2, 6.
    t = table([6, 1, 1, 5, 2, 6])
    hero, lion = pc(t, "ann", "myrmidon", items=["axe"]), monster(t, "nemean_lion")
    combat.attack(t, hero, lion)
    assert lion["hp"] == 8
    spent(t)
    # With a Falx (+1, ignores saves): all 3 land.
    t = table([6, 1, 1])
    hero, lion = pc(t, "ann", "myrmidon", items=["falx"]), monster(t, "nemean_lion")
    combat.attack(t, hero, lion)
    assert lion["hp"] == 6
    spent(t)


def test_gear_2_aspis_and_armour_save_on_5() -> None:
    t = table([1, 6, 5])
    hero = pc(t, "ann", "centaur", items=["aspis", "armour"])
    combat.attack(t, hero, monster(t, "minion"))
    assert hero["hp"] == 8  # saved on the 5
    t = table([1, 6, 5])
    hero = pc(t, "ann", "centaur", items=["aspis"])
    combat.attack(t, hero, monster(t, "minion"))
    assert hero["hp"] == 7  # an Aspis alone needs 6


def test_pc_hoplite_3_own_save_improved_and_stymphalian_bird() -> None:
    # A Hoplite with an Aspis: item save 6+ (rolls 2), then its own roll 6-1 = 5+ (rolls 5).
    t = table([1, 6, 2, 5])
    hero = pc(t, "ann", "hoplite", items=["aspis"])
    combat.attack(t, hero, monster(t, "minion"))
    assert hero["hp"] == 8
    spent(t)
    # The Stymphalian Bird ignores the Aspis, not the Hoplite's own roll.
    t = table([1, 6, 5])
    hero = pc(t, "ann", "hoplite", items=["aspis"])
    combat.attack(t, hero, monster(t, "stymphalian_bird"))
    assert hero["hp"] == 8
    spent(t)


def test_rare_a1_nemean_hide_saves_on_3() -> None:
    t = table([1, 6, 3])
    hero = pc(t, "ann", "centaur", items=["nemean_hide", "aspis", "armour"])
    combat.attack(t, hero, monster(t, "minion"))
    assert hero["hp"] == 8
    spent(t)


def test_monster_fury_ignores_saves() -> None:
    t = table([1, 6])
    hero = pc(t, "ann", "hoplite", items=["aspis", "armour"])
    combat.attack(t, hero, monster(t, "fury"))
    assert hero["hp"] == 6  # 2 damage, no save rolled
    spent(t)


def test_monster_kobalos_steals_instead_of_damage() -> None:
    t = table([1, 6, 2])  # the Kobalos wins; d3 = 2
    hero, kob = pc(t, "ann", "centaur", gold=4), monster(t, "kobalos")
    combat.attack(t, hero, kob)
    assert hero["gold"] == 2 and hero["hp"] == 8
    assert kob["hp"] == 0 and kob["vanished"] is True
    assert events(t, "stolen")[0]["gold"] == 2
    assert not events(t, "slain") and hero["kleos"] == 0
    spent(t)
    t = table([1, 6])  # no money: it fights as normal
    hero, kob = pc(t, "ann", "centaur"), monster(t, "kobalos")
    combat.attack(t, hero, kob)
    assert hero["hp"] == 7 and kob["hp"] == 1


def test_battle_9_imprison_on_5() -> None:
    t = table([6, 1, 5])
    hero, minion = pc(t, "ann", "centaur"), monster(t, "minion")
    combat.attack(t, hero, minion)
    assert hero["prisoners"] == ["minion"] and minion["captured"] is True
    assert minion["hp"] == 0 and hero["kleos"] == 1  # Kleos either way
    assert events(t, "captured")[0]["player"] == "ann"
    spent(t)


def test_battle_9_no_imprison_when_ordered_not_or_great() -> None:
    st = state()
    st["standing"]["ann"] = {"imprison": False}
    t = table([6, 1], st)
    hero = pc(t, "ann", "centaur")
    combat.attack(t, hero, monster(t, "minion"))
    assert hero["prisoners"] == [] and hero["kleos"] == 1
    spent(t)
    st = state()
    st["standing"]["ann"] = {"imprison": True}
    t = table([6, 1], st)
    hero = pc(t, "ann", "centaur")
    combat.attack(t, hero, monster(t, "automaton"))  # "MAY NEVER BE CAPTURED": no roll
    assert hero["kleos"] == 1
    spent(t)


def test_battle_9_npcs_take_prisoners_for_their_player() -> None:
    t = table([6, 1, 6])
    hero = pc(t, "ann", "centaur", at="3,3")
    guard = npc(t, "ann", "hoplite")
    combat.attack(t, guard, monster(t, "minion"))
    assert hero["prisoners"] == ["minion"] and guard["kleos"] == 1 and hero["kleos"] == 0


def test_battle_10_kleos_to_all_involved() -> None:
    st = state()
    st["standing"]["ann"] = {"imprison": False}
    t = table([4, 3, 2], st)  # Centaur 4 + Hoplite NPC 3 vs a Mormo (at 1 HP) 2
    hero = pc(t, "ann", "centaur")
    guard = npc(t, "ann", "hoplite")
    mormo = monster(t, "mormo", hp=1)
    combat.attack(t, hero, mormo)
    assert mormo["hp"] == 0
    assert hero["kleos"] == 3 and guard["kleos"] == 3
    assert events(t, "slain")[0]["by"] == [hero["id"], guard["id"]]


def test_pc_kobalos_2_gold_per_kleos() -> None:
    st = state()
    st["standing"]["ann"] = {"imprison": False}
    t = table([6, 1], st)
    hero = pc(t, "ann", "kobalos", gold=1)
    combat.attack(t, hero, monster(t, "mormo", hp=1))
    assert hero["kleos"] == 3 and hero["gold"] == 4


def test_monster_cerberus_rests() -> None:
    t = table([6, 1, 1, 1, 1, 1])
    hero, dog = pc(t, "ann", "centaur"), monster(t, "cerberus", hp=1)
    combat.attack(t, hero, dog)
    assert dog["hp"] == 0 and dog["resting"] == 1
    assert not events(t, "slain") and events(t, "rests")


def test_monster_chimera_one_die_per_opponent_one_damage_each() -> None:
    t = table([1, 1, 1, 6, 6, 6])
    hero = pc(t, "ann", "centaur")
    a, b = npc(t, "ann", "minion"), npc(t, "ann", "minion")
    beast = monster(t, "chimera")
    combat.attack(t, hero, beast)
    fight = events(t, "combat")[0]
    assert fight["totals"] == [3, 18] and fight["damage"] == 3
    assert [d.label for d in t.dice.draws].count("r01/p1/combat/" + beast["id"] + "/3") == 1
    assert hero["hp"] == 7 and a["hp"] == 0 and b["hp"] == 0
    spent(t)


def test_monster_mormo_drinks_what_its_foe_loses() -> None:
    t = table([1, 6])
    hero, mormo = pc(t, "ann", "centaur"), monster(t, "mormo")
    combat.attack(t, hero, mormo)
    assert hero["hp"] == 7 and mormo["hp"] == 3  # beyond its 2: "NO MAXIMUM LIMIT"


def test_monster_gorgon_eyes_closed() -> None:
    t = table([6, 1, 1])  # Hoplite 6+2-5 = 3 vs 2
    hero, gorgon = pc(t, "ann", "hoplite"), monster(t, "gorgon")
    combat.attack(t, hero, gorgon)
    assert events(t, "combat")[0]["totals"] == [3, 2] and gorgon["hp"] == 7
    t = table([6, 1, 1])  # an Aspis bearer is exempt
    hero, gorgon = pc(t, "ann", "hoplite", items=["aspis"]), monster(t, "gorgon")
    combat.attack(t, hero, gorgon)
    assert events(t, "combat")[0]["totals"] == [8, 2]


def test_rare_b3_aegis_blinds_its_foes() -> None:
    t = table([1, 6])  # Centaur 1 vs a Minion 6-5 = 1: a tie
    hero = pc(t, "ann", "centaur", items=["aegis"])
    combat.attack(t, hero, monster(t, "minion", hp=2))
    assert events(t, "combat")[0]["totals"] == [1, 1]


def test_monster_gorgon_risk_turns_to_stone_on_3() -> None:
    st = state()
    st["standing"]["ann"] = {"gorgon": "risk"}
    t = table([3], st)
    hero, gorgon = pc(t, "ann", "hoplite", items=["armour"]), monster(t, "gorgon")
    combat.attack(t, hero, gorgon)
    assert hero["hp"] == 0 and st["dead"] == ["ann"]
    assert events(t, "petrified") and events(t, "pc-dead")[0]["player"] == "ann"
    assert not events(t, "combat")
    spent(t)
    st = state()
    st["standing"]["ann"] = {"gorgon": "risk"}
    t = table([4, 6, 1, 1, 6, 1, 1], st)  # braves it on a 4: no penalty, no second roll
    hero, gorgon = pc(t, "ann", "hoplite"), monster(t, "gorgon")
    combat.attack(t, hero, gorgon)
    combat.attack(t, hero, gorgon)
    assert [e["totals"] for e in events(t, "combat")] == [[8, 2], [8, 2]]
    spent(t)


def test_monster_sphinx_players_roll_knowledge() -> None:
    t = table([3, 4, 1, 1])  # a Philosopher rolls 2 knowledge dice: 7 vs 2
    hero, sphinx = pc(t, "ann", "philosopher"), monster(t, "sphinx")
    combat.attack(t, hero, sphinx)
    assert events(t, "combat")[0]["totals"] == [7, 2]
    t = table([4, 2, 3, 3, 1, 1])  # a Hoplite's +2 combat does not help: 4 vs 5
    hero, sphinx = pc(t, "ann", "hoplite"), monster(t, "sphinx")
    combat.attack(t, hero, sphinx)
    assert events(t, "combat")[0]["totals"] == [4, 5]
    assert hero["hp"] == 5  # 3 damage (its own saves roll 3, 1, 1: all land)


def test_monster_lampad_knowledge_check_or_minus_3() -> None:
    t = table([4, 6, 2, 4])  # check 4 fails: 6-3 = 3 vs 2; imprison 4 fails
    hero, lampad = pc(t, "ann", "centaur"), monster(t, "lampad")
    combat.attack(t, hero, lampad)
    assert events(t, "combat")[0]["totals"] == [3, 2]
    assert events(t, "check")[0]["passed"] is False
    t = table([2, 3, 1, 1], state())  # an NPC never checks: 2-3 = -1 vs 3
    t.state["standing"]["ann"] = {"imprison": False}
    pc(t, "ann", "centaur", at="4,4")
    guard = npc(t, "ann", "minion")
    combat.attack(t, guard, monster(t, "lampad"))
    assert events(t, "combat")[0]["totals"] == [-1, 3]


def test_monster_shade_check_once_per_combat() -> None:
    st = state()
    st["standing"]["ann"] = {"imprison": False}
    t = table([5, 1, 2, 5, 1], st)  # passes on 5; no check in the second round
    hero, shade = pc(t, "ann", "centaur"), monster(t, "shade")
    combat.attack(t, hero, shade)
    combat.attack(t, hero, shade)
    assert [e["totals"] for e in events(t, "combat")] == [[1, 2], [5, 1]]
    assert len(events(t, "check")) == 1
    spent(t)


def test_item_8_war_talisman_rerolls_a_lost_round() -> None:
    t = table([1, 4, 6, 5])  # 1 vs 4: lost; rerolled 6: won; imprison 5
    hero, minion = pc(t, "ann", "centaur", items=["war_talisman"]), monster(t, "minion")
    combat.attack(t, hero, minion)
    fight = events(t, "combat")[0]
    assert fight["totals"] == [6, 4] and "war talisman" in fight["text"]
    assert hero["items"] == [] and minion["hp"] == 0
    spent(t)


def test_act_3_prayer_to_ares_and_zeus_used_once() -> None:
    t = table([1, 4, 1, 1, 4])
    hero = pc(t, "ann", "centaur", effects={"ares": True, "zeus": True})
    minion = monster(t, "minion", hp=2)
    combat.attack(t, hero, minion)
    assert events(t, "combat")[0]["totals"] == [5, 4] and hero["effects"] == {}
    combat.attack(t, hero, minion)
    assert events(t, "combat")[1]["totals"] == [1, 1]


# ---- weapons and range ------------------------------------------------------------------------


def test_battle_3_one_weapon_bonus_the_best() -> None:
    t = table([1, 1])  # a Trident (+3) beats a Sword (+1 moved); both carried, one used
    hero = pc(t, "ann", "centaur", items=["sword", "trident"], moved=True)
    minion = monster(t, "minion", hp=3)
    combat.attack(t, hero, minion)
    assert events(t, "combat")[0]["totals"] == [4, 1]
    assert minion["hp"] == 1  # 1 + 1 damage
    t = table([1, 1])  # the named weapon is used
    hero = pc(t, "ann", "centaur", items=["sword", "trident"], moved=True)
    combat.attack(t, hero, monster(t, "minion", hp=3), weapon="sword")
    assert events(t, "combat")[0]["totals"] == [2, 1]


def test_weapon_5_sarissa_and_6_spear() -> None:
    t = table([1, 1, 6, 1])
    a = pc(t, "ann", "centaur", items=["sarissa"], spear=True)
    b = pc(t, "bob", "centaur", items=["sarissa"], spear=False)
    combat.attack(t, a, monster(t, "minion", hp=5))
    # a: 1 +1 (spear) +1 (one other wielder) = 3; b: 1 + 1 (the other wielder) = 2
    assert events(t, "combat")[0]["totals"] == [5, 6]
    assert b["hp"] + a["hp"] == 15


def test_pc_amazon_1_ranged_loss_costs_nothing() -> None:
    t = table([1, 6])
    amazon = pc(t, "ann", "amazon", at="0,0")
    minion = monster(t, "minion", at="1,0")
    combat.attack(t, amazon, minion, ranged=True)
    assert events(t, "combat")[0]["winner"] == "defenders" and amazon["hp"] == 8
    t = table([1, 6])  # any other shooter takes the target's damage
    archer = pc(t, "ann", "centaur", at="0,0", items=["bow"])
    combat.attack(t, archer, monster(t, "minion", at="1,0"), ranged=True)
    assert archer["hp"] == 7


def test_weapon_4_sling_minus_2_and_rare_b1_bow_of_artemis() -> None:
    t = table([4, 3])
    slinger = pc(t, "ann", "centaur", at="0,0", items=["sling"])
    combat.attack(t, slinger, monster(t, "minion", at="1,0"), ranged=True)
    assert events(t, "combat")[0]["totals"] == [2, 3]
    t = table([5, 6, 1, 1, 1, 1, 3])  # 2d6 = 11 vs 4d6 = 4, d3 = 3 damage
    archer = pc(t, "ann", "centaur", at="0,0", items=["bow_of_artemis"])
    lion = monster(t, "minotaur", at="2,0")
    combat.attack(t, archer, lion, ranged=True)
    assert events(t, "combat")[0]["totals"] == [11, 4] and lion["hp"] == 9
    spent(t)


def test_ranges_and_weapons_of() -> None:
    t = table([])
    amazon = pc(t, "ann", "amazon", items=["bow", "axe", "pickaxe"])
    assert combat.ranges(t, amazon) == {"amazon": 2, "bow": 1}
    assert combat.weapons_of(t, amazon) == ["bow", "axe"]
    hero = pc(t, "bob", "centaur", items=["sling", "bow_of_artemis", "trident"])
    assert combat.ranges(t, hero) == {"sling": 1, "bow_of_artemis": 3}
    assert combat.weapons_of(t, hero) == ["sling", "bow_of_artemis", "trident"]
    assert combat.ranges(t, monster(t, "amazon")) == {"amazon": 1}
    assert combat.ranges(t, monster(t, "minion")) == {}


# ---- wound, slay, hazard ----------------------------------------------------------------------


def test_battle_7_hazard_not_massed() -> None:
    t = table([6, 6, 6, 1, 3])  # 3d6 = 18 vs 1: d6+2 = 5 damage
    hero = pc(t, "ann", "centaur")
    npc(t, "ann", "minion")
    t.state["map"]["1,0"] = {"kind": "trapped_room", "open": "EW", "found": 0}
    combat.hazard(t, hero, "3d6", "d6+2", "trap/arrow")
    assert hero["hp"] == 3
    t = table([4, 4])  # the victim higher: nothing
    hero = pc(t, "ann", "cimmerian")
    combat.hazard(t, hero, "d6", "d3+2", "rock")
    assert hero["hp"] == 8  # the Cimmerian's +1: 5 beats 4
    t = table([5, 4])  # 5 vs 4+1: a tie, 1 point
    hero = pc(t, "ann", "cimmerian")
    combat.hazard(t, hero, "d6", "d3+2", "rock")
    assert hero["hp"] == 7
    spent(t)


def test_wound_and_slay_pc_dead() -> None:
    t = table([])
    hero = pc(t, "ann", "centaur", hp=2)
    assert combat.wound(t, hero, 5) == 2
    assert hero["hp"] == 0 and t.state["dead"] == ["ann"]
    assert events(t, "slain")[0]["player"] == "ann" and events(t, "pc-dead")
    assert hero["id"] in t.models  # the fallen stay


def test_wound_from_a_mormo_source_and_saves_ignored() -> None:
    t = table([])
    hero = pc(t, "ann", "centaur", items=["aspis"])
    mormo = monster(t, "mormo")
    assert combat.wound(t, hero, 2, source=mormo, ignores_saves=True) == 2
    assert mormo["hp"] == 4


def test_events_are_toml_writable() -> None:
    t = table([6, 1, 5])
    hero = pc(t, "ann", "hoplite")
    combat.attack(t, hero, monster(t, "minion"))

    def ok(v: object) -> bool:
        if isinstance(v, dict):
            return all(isinstance(k, str) and ok(x) for k, x in v.items())
        if isinstance(v, list):
            return all(ok(x) for x in v)
        return isinstance(v, str | int | bool)

    assert all(ok(e) and isinstance(e["text"], str) and e["text"] for e in t.events)

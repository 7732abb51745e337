"""The co-op and solo scenarios of helper brief A: Coop 1 The World Above, Coop 2 The Traitor,
Coop 4 The Will to Conquer (with Polis 6, the boot vote), Solo 1 The Lost Ones, Solo 2 The
Guardian's Roar, Solo 5 Deity."""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos import checks, combat, monsters, program, scenarios, sites, turn, votes
from pbem.games.hetairos.program import Step
from pbem.games.hetairos.table import Table
from tests.hetairos import build
from tests.scripted import Scripted


def _dice(t: Table, values: list[int], then: int | None = None) -> None:
    t.dice = Scripted(values, then)


# ---- Solo 1: The Lost Ones -----------------------------------------------------------------


def test_solo_1_entering_a_forge_finds_a_lost_one_once_per_square() -> None:
    s = build.state(scen="the_lost_ones")
    build.square(s, "1,0", "great_forge", "W", site={"attached": []})
    t = build.table(s)
    ann = build.pc(s, "ann", "hoplite")
    assert turn.move(t, ann, "E") == ("", [])
    lost = [m for m in t.models.values() if m.get("lost")]
    assert len(lost) == 1 and lost[0]["owner"] == "ann" and lost[0]["side"] == "npc"
    assert lost[0]["at"] == "1,0" and lost[0]["hp"] == 1  # Monster 0: no special stats
    turn.move(t, ann, "W")
    turn.move(t, ann, "E")
    assert len([m for m in t.models.values() if m.get("lost")]) == 1  # Ruling: once a square


def test_solo_1_a_snake_pit_and_a_shrine_hold_lost_ones_a_tunnel_none() -> None:
    s = build.state(scen="the_lost_ones")
    build.square(s, "1,0", "trapped_room", site={"trap": "snake_pit", "spent": False})
    build.square(s, "2,0", "tunnel", "EW")
    build.square(s, "3,0", "olympian_shrine")
    t = build.table(s)
    bob = build.pc(s, "bob", "amazon", at="2,0")
    rules = scenarios.get("the_lost_ones")
    for k in ("1,0", "2,0", "3,0"):
        bob["at"] = k
        rules.on_enter(t, bob, k, "E")
    assert sorted(m["at"] for m in t.models.values() if m.get("lost")) == ["1,0", "3,0"]


def test_solo_1_first_to_bring_two_lost_ones_to_settlements_wins() -> None:
    s = build.state(scen="the_lost_ones")
    build.square(s, "2,0", "polis", site={"settlement": "polis", "citizens": [],
                                          "friendly": [], "delivered": 0,
                                          "destroyed": False})
    t = build.table(s)
    build.pc(s, "ann", "hoplite")
    build.pc(s, "bob", "amazon")
    one = build.monster(s, "minion", "2,0", side="npc", owner="ann")
    two = build.monster(s, "minion", "1,0", side="npc", owner="ann")
    one["lost"] = two["lost"] = True
    rules = scenarios.get("the_lost_ones")
    rules.record(t, [])
    rules.check(t, end_of_round=True)
    assert s["goal"]["rescued"] == {"ann": 1} and s["step"] == "turn"
    assert one["stationed"]  # home: it stays
    two["at"] = "2,0"
    rules.record(t, [])
    rules.record(t, [])  # counted once
    rules.check(t, end_of_round=True)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann"]


# ---- Solo 5: Deity -------------------------------------------------------------------------


def test_solo_5_convert_needs_an_empty_square_and_7_plus_knowledge() -> None:
    s = build.state(scen="deity")
    build.square(s, "1,0", "shrine_of_hecate", site={"spawn": "hecate_devotee",
                                                     "attached": []})
    t = build.table(s)
    ann = build.pc(s, "ann", "philosopher", at="1,0")
    witch = build.monster(s, "witch", "1,0")
    rules = scenarios.get("deity")
    assert "no other model" in rules.act(t, ann, "convert", ())
    witch["hp"] = 0
    _dice(t, [3, 3])  # the Philosopher's 2d6 knowledge: 6, not 7+
    assert rules.act(t, ann, "convert", ()) == ""
    assert ann["ap"] == 3 and "deity" not in s["map"]["1,0"]["site"]
    _dice(t, [3, 4])
    assert rules.act(t, ann, "convert", ()) == ""
    assert s["map"]["1,0"]["site"]["deity"] == "ann" and ann["ap"] == 1
    assert "spawn" not in s["map"]["1,0"]["site"]  # Ruling: no more devotees


def test_solo_5_sacrifice_one_prisoner_at_your_own_shrine_wins() -> None:
    s = build.state(scen="deity")
    build.square(s, "1,0", "olympian_shrine", site={"deity": "bob"})
    t = build.table(s)
    ann = build.pc(s, "ann", "philosopher", at="1,0")
    rules = scenarios.get("deity")
    assert "not your shrine" in rules.act(t, ann, "sacrifice", ())
    s["map"]["1,0"]["site"]["deity"] = "ann"
    assert "prisoner" in rules.act(t, ann, "sacrifice", ())
    ann["prisoners"] = ["minion"]
    assert [st for _note, st in rules.form_examples(t, ann)] == [["sacrifice"]]
    assert rules.act(t, ann, "sacrifice", ()) == ""
    rules.check(t, end_of_round=False)
    assert s["result"]["winners"] == ["ann"] and ann["prisoners"] == []


def test_solo_5_a_converted_shrine_is_converted_again_by_another_player() -> None:
    s = build.state(scen="deity")
    build.square(s, "1,0", "olympian_shrine", site={"deity": "ann"})
    t = build.table(s)
    bob = build.pc(s, "bob", "philosopher", at="1,0")
    _dice(t, [6, 6])
    assert scenarios.get("deity").act(t, bob, "convert", ()) == ""
    assert s["map"]["1,0"]["site"]["deity"] == "bob"


# ---- Solo 2: The Guardian's Roar -------------------------------------------------------------


def test_solo_2_hades_value_grows_and_cerberus_comes_at_the_northernmost_styx() -> None:
    s = build.state(scen="the_guardians_roar")
    build.square(s, "0,-2", "styx", "NS")
    build.square(s, "0,4", "styx", "NS")
    t = build.table(s)
    build.pc(s, "ann", "hoplite")
    rules = scenarios.get("the_guardians_roar")
    _dice(t, [1, 1])  # round 1: 2 is not below 2
    rules.start_of_turn(t, "ann")
    assert not s["goal"].get("cerberus")
    s["round"] = 3  # value 2 + 2 = 4
    _dice(t, [1, 2, 3])  # 3 is below 4; his AP d6+4
    rules.start_of_turn(t, "ann")
    dog = t.models[s["goal"]["cerberus"]]
    assert dog["type"] == "cerberus" and dog["at"] == "0,-2"
    _dice(t, [])  # nobody rolls again
    rules.start_of_turn(t, "bob")
    assert rules.prefers(t, dog) == [s["pcs"]["ann"]]


def test_solo_2_cerberus_hunts_the_players_first() -> None:
    s = build.state(scen="the_guardians_roar")
    for y in (1, 2, 3):
        build.square(s, f"0,{y}", "styx", "NS")
    build.square(s, "1,3", "polis", "W", site={"settlement": "polis", "citizens": [],
                                               "friendly": [], "delivered": 0,
                                               "destroyed": False})
    s["map"]["0,3"]["bridge"] = True
    t = build.table(s)
    ann = build.pc(s, "ann", "hoplite", at="0,2")
    build.monster(s, "hoplite", "1,3", side="defender")["home"] = "1,3"
    dog = build.monster(s, "cerberus", "0,0")
    dog["bank"] = "W"
    s["goal"]["cerberus"] = dog["id"]
    _dice(t, [1], then=1)  # d6+4 = 5 AP; every later die a 1
    monsters.act(t, dog)
    assert dog["at"] == "0,2" and ann["hp"] < 8


def test_solo_2_escape_by_surface_tunnel_with_a_full_turn_survivors_win() -> None:
    s = build.state(scen="the_guardians_roar")
    build.square(s, "1,0", "surface_tunnel", "W")
    t = build.table(s)
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    bob = build.pc(s, "bob", "amazon")
    rules = scenarios.get("the_guardians_roar")
    assert "not released" in rules.act(t, ann, "escape_surface", ())
    s["goal"]["cerberus"] = "m99"
    ann["moved"] = True
    assert "full turn" in rules.act(t, ann, "escape_surface", ())
    ann["moved"] = False
    assert turn.do(t, ann, Step("escape_surface", (), "escape_surface")) == ("", [])
    assert ann["escaped"] and t.pc("ann") is None
    rules.check(t, end_of_round=False)
    assert s["step"] == "turn"  # bob is still below
    bob["hp"] = 0
    rules.check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann"]


# ---- Coop 1: The World Above -------------------------------------------------------------------


def test_coop_1_double_one_then_1_crushes_the_cavern_and_all_in_it() -> None:
    s = build.state(scen="the_world_above")
    build.square(s, "1,0", "empty_cavern")
    build.square(s, "2,0", "empty_cavern")
    t = build.table(s)
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    imp = build.monster(s, "minion", "1,0")
    _dice(t, [1, 1, 1, 2, 1])  # 1,0: double one, d6 1 crushed; 2,0: 2+1, nothing
    scenarios.get("the_world_above").world_start(t)
    assert s["map"]["1,0"]["kind"] == "rock" and s["map"]["2,0"]["kind"] == "empty_cavern"
    assert ann["hp"] == 0 and imp["hp"] == 0 and "ann" in s["dead"]


def test_coop_1_collapse_2_to_5_attacks_players_and_throws_them_out() -> None:
    s = build.state(scen="the_world_above")
    build.square(s, "1,0", "empty_cavern", "W")
    t = build.table(s)
    ann = build.pc(s, "ann", "amazon", at="1,0")
    _dice(t, [1, 1, 3, 6, 6, 1])  # collapse, d6 3; the 2d6 attack 12 against 1: 2 damage
    scenarios.get("the_world_above").world_start(t)
    assert ann["hp"] == 6 and ann["at"] == "0,0"
    assert s["map"]["1,0"]["kind"] == "rock"


def test_coop_1_collapse_6_makes_a_shade_spawn_point() -> None:
    s = build.state(scen="the_world_above")
    build.square(s, "1,0", "empty_cavern")
    t = build.table(s)
    build.pc(s, "ann", "hoplite")
    _dice(t, [1, 1, 6])
    scenarios.get("the_world_above").world_start(t)
    assert s["map"]["1,0"]["site"] == {"spawn": "shade", "attached": []}
    _dice(t, [])
    sites.spawn(t)
    assert [m["type"] for m in t.at("1,0")] == ["shade"]
    scenarios.get("the_world_above").world_start(t)  # no longer an empty cavern: no roll


def test_coop_1_three_prisoners_sacrificed_at_an_olympian_shrine_win() -> None:
    s = build.state(scen="the_world_above")
    build.square(s, "1,0", "olympian_shrine")
    t = build.table(s)
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    ann["prisoners"] = ["minion", "witch", "minion"]
    rules = scenarios.get("the_world_above")
    assert rules.form_examples(t, ann)[0][1] == ["sacrifice"] * 3
    for _ in range(2):
        assert rules.act(t, ann, "sacrifice", ()) == ""
    rules.check(t, end_of_round=False)
    assert s["step"] == "turn"
    assert rules.act(t, ann, "sacrifice", ()) == ""
    rules.check(t, end_of_round=False)
    assert s["result"]["winners"] == ["ann", "bob"]


def test_coop_1_three_shrines_of_hecate_destroyed_win() -> None:
    s = build.state(scen="the_world_above")
    rules = scenarios.get("the_world_above")
    t = build.table(s)
    for k in ("1,0", "2,0", "3,0"):
        build.square(s, k, "shrine_of_hecate", site={"spawn": "hecate_devotee",
                                                     "attached": []})
        rules.on_draw(t, k, {})
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    witch = build.monster(s, "witch", "1,0")
    assert "enemies" in rules.act(t, ann, "destroy", ())
    witch["hp"] = 0
    assert rules.act(t, ann, "destroy", ()) == "" and ann["ap"] == 1
    assert s["map"]["1,0"]["site"]["destroyed"]
    _dice(t, [4, 4])  # the two standing shrines spawn a Witch each; 1,0 spawns no more
    sites.spawn(t)
    assert [m["type"] for m in t.at("1,0")] == ["hoplite"]
    for m in t.at("2,0"):
        m["hp"] = 0
    ann["at"], ann["ap"] = "2,0", 4
    assert rules.act(t, ann, "destroy", ()) == ""
    rules.record(t, [{"type": "dig", "action": "collapse", "result": "success",
                      "square": "3,0"}])  # Ruling (b): a dig collapse of the third
    rules.check(t, end_of_round=False)
    assert s["step"] == "over" and s["goal"]["hecate_destroyed"] == ["1,0", "2,0", "3,0"]


# ---- Coop 2: The Traitor ------------------------------------------------------------------------


def _traitor(power: str = "ares") -> tuple[dict[str, Any], Table]:
    s = build.state(scen="the_traitor")
    s["death"] = "replace"
    s["standing"]["ann"] = {"traitor": power}
    t = build.table(s)
    build.pc(s, "ann", "amazon")
    build.pc(s, "bob", "amazon")
    return s, t


def test_coop_2_betrayal_value_2_plus_1_a_turn_first_below_betrays() -> None:
    s, t = _traitor()
    rules = scenarios.get("the_traitor")
    _dice(t, [1, 1])  # round 1: 2 is not below 2
    rules.start_of_turn(t, "ann")
    assert "traitor" not in s["goal"]
    s["round"] = 3  # value 4
    _dice(t, [1, 2])
    rules.start_of_turn(t, "ann")
    assert s["goal"]["traitor"] == {"player": "ann", "power": "ares_wrath"}
    assert s["teams"]["ann"] == "traitor" and s["death"] == "out"
    assert t.enemies(t.models[s["pcs"]["ann"]], t.models[s["pcs"]["bob"]])
    _dice(t, [])
    rules.start_of_turn(t, "bob")  # nobody rolls again


def test_coop_2_ares_wrath_adds_a_die_and_lifts_results_to_6() -> None:
    s, t = _traitor("ares")
    s["goal"]["traitor"] = {"player": "ann", "power": "ares_wrath"}
    s["teams"]["ann"] = "traitor"
    ann = t.models[s["pcs"]["ann"]]
    imp = build.monster(s, "minion", "0,0")
    _dice(t, [1, 2, 5, 1])  # 2d6 = 3, counted as 6, beats the Minion's 5; imprison: 1
    combat.attack(t, ann, imp)
    fight = next(e for e in t.events if e["type"] == "combat")
    assert fight["totals"] == [6, 5] and imp["hp"] == 0


def test_coop_2_the_power_that_rises_a_free_6_plus_check_spawns_a_minion() -> None:
    s, t = _traitor("rising")
    s["round"] = 2
    _dice(t, [1, 1, 6])  # 2 below 3: betrayal; then the free knowledge check 6
    scenarios.get("the_traitor").start_of_turn(t, "ann")
    npcs = [m for m in t.models.values() if m["side"] == "npc"]
    assert [(m["type"], m["owner"]) for m in npcs] == [("minion", "ann")]
    assert t.models[s["pcs"]["ann"]]["ap"] == 5  # free


def test_coop_2_hecates_shadows_invisible_to_monsters_and_drinks_health() -> None:
    s, t = _traitor("shadows")
    s["goal"]["traitor"] = {"player": "ann", "power": "hecates_shadows"}
    s["teams"]["ann"] = "traitor"
    ann, bob = t.models[s["pcs"]["ann"]], t.models[s["pcs"]["bob"]]
    witch = build.monster(s, "witch", "0,0")
    assert not monsters.hostile(t, witch, ann) and monsters.hostile(t, witch, bob)
    _dice(t, [6, 1])
    combat.attack(t, ann, bob)
    assert bob["hp"] == 7 and ann["hp"] == 9  # no upper limit
    assert checks.invariants(t.c, None, s, t.events) == []


def test_coop_2_the_traitor_wins_alone_or_dies_and_the_others_win() -> None:
    s, t = _traitor()
    s["goal"]["traitor"] = {"player": "ann", "power": "ares_wrath"}
    rules = scenarios.get("the_traitor")
    rules.check(t, end_of_round=False)
    assert s["step"] == "turn"
    t.models[s["pcs"]["bob"]]["hp"] = 0
    rules.check(t, end_of_round=False)
    assert s["result"]["winners"] == ["ann"]
    s2, t2 = _traitor()
    s2["goal"]["traitor"] = {"player": "ann", "power": "ares_wrath"}
    t2.models[s2["pcs"]["ann"]]["hp"] = 0
    scenarios.get("the_traitor").check(t2, end_of_round=False)
    assert s2["result"]["winners"] == ["bob"]


# ---- Polis 6: the boot vote; Coop 4: The Will to Conquer ---------------------------------------


def _polis(citizens: list[str], scen: str = "beast_slayers",
           players: tuple[str, ...] = ("ann", "bob", "cyd")) -> tuple[dict[str, Any], Table]:
    s = build.state(players, scen=scen)
    build.square(s, "1,0", "polis", site={"settlement": "polis", "citizens": list(citizens),
                                          "friendly": list(citizens), "delivered": 0,
                                          "destroyed": False})
    t = build.table(s)
    for p in players:
        build.pc(s, p, "amazon", at="1,0")
    return s, t


def test_polis_6_boot_vote_by_standing_orders_and_2d6_each_side() -> None:
    s, t = _polis(["ann", "bob", "cyd"])
    s["standing"]["cyd"] = {"boot": ["bob"]}
    ann = t.models[s["pcs"]["ann"]]
    step, why = program.parse_step(t.c, "boot bob")
    assert step is not None and not why
    _dice(t, [3, 3, 3, 4])  # for: ann, cyd + 6 = 8; against: bob + 7 = 8: a tie, bob stays
    assert turn.do(t, ann, step) == ("", [])
    assert "bob" in s["map"]["1,0"]["site"]["citizens"]
    vote = next(e for e in t.events if e["type"] == "vote")
    assert vote["carried"] is False and "for 2 (ann, cyd)" in vote["text"]
    assert "one vote a turn" in votes.boot(t, ann, "bob")
    s["round"] = 2
    _dice(t, [4, 4, 1, 1])  # 10 against 3
    assert votes.boot(t, ann, "bob") == ""
    site = s["map"]["1,0"]["site"]
    assert site["citizens"] == ["ann", "cyd"] and "bob" not in site["friendly"]


def test_polis_6_only_citizens_call_votes_on_citizens() -> None:
    s, t = _polis(["ann"])
    ann, bob = t.models[s["pcs"]["ann"]], t.models[s["pcs"]["bob"]]
    assert "only a citizen" in votes.boot(t, bob, "ann")
    assert "not a citizen" in votes.boot(t, ann, "bob")
    assert "no player" in votes.boot(t, ann, "zed")
    assert "yourself" in votes.boot(t, ann, "ann")


def test_coop_4_a_polis_is_won_by_a_vote_with_5_on_the_opposing_roll() -> None:
    s, t = _polis(["ann", "bob"], scen="the_will_to_conquer")
    ann = t.models[s["pcs"]["ann"]]
    rules = scenarios.get("the_will_to_conquer")
    assert [st for _n, st in rules.form_examples(t, ann)] == [["vote"]]
    _dice(t, [3, 3, 1, 2])  # for: ann, bob + 6 = 8; against: 0 + 3 + 5 = 8: lost
    assert rules.act(t, ann, "vote", ()) == ""
    assert not s["map"]["1,0"]["site"].get("conquered")
    assert "one vote a turn" in rules.act(t, ann, "vote", ())
    s["round"] = 2
    _dice(t, [4, 3, 1, 1])  # 9 against 7
    assert rules.act(t, ann, "vote", ()) == ""
    assert s["map"]["1,0"]["site"]["conquered"] and s["goal"]["conquered"] == ["1,0"]
    assert "cyd" in s["map"]["1,0"]["site"]["friendly"]


def test_coop_4_three_settlements_held_win_manors_by_their_force() -> None:
    s, t = _polis(["ann"], scen="the_will_to_conquer")
    s["goal"]["conquered"] = ["1,0"]
    build.square(s, "2,0", "manor", site={"settlement": "manor", "citizens": [],
                                          "friendly": [], "delivered": 0, "destroyed": False})
    build.square(s, "3,0", "manor", site={"settlement": "manor", "citizens": [],
                                          "friendly": [], "delivered": 0, "destroyed": True})
    rules = scenarios.get("the_will_to_conquer")
    ann = t.models[s["pcs"]["ann"]]
    ann["at"] = "2,0"
    guard = build.monster(s, "hoplite", "2,0", side="defender")
    guard["home"] = "2,0"
    assert [st for _n, st in rules.form_examples(t, ann)] == [[f"attack {guard['id']}"]]
    rules.record(t, [{"type": "taken", "square": "2,0"}, {"type": "taken", "square": "3,0"}])
    rules.check(t, end_of_round=True)
    assert s["step"] == "turn"  # the destroyed Manor does not count
    s["map"]["3,0"]["site"]["destroyed"] = False
    rules.check(t, end_of_round=True)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "bob", "cyd"]


# ---- one short campaign each ---------------------------------------------------------------

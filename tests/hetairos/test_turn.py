"""Moving and exploring (MOVEMENT AND THE MAP, EXPLORATION, THE STYX, TO BATTLE! 1), the turn
program (analysis 2.3) and the monsters' algorithm (Appendix A, analysis 3.2)."""

from __future__ import annotations

from pbem.games.hetairos import grid, monsters, program, turn
from pbem.games.hetairos.table import load
from tests.hetairos import build


def test_explore_4_fork_and_explore_1_rock() -> None:
    """Analysis 5.3 item 6: heading east, d6 4 (fork) then d6 2 (1-3: right of travel) gives a
    T open west, east and south; the model enters for 1 AP. Then d6 1: rock, 1 AP, it stays."""
    s = build.state()
    build.square(s, "1,0", "tunnel", "EW")
    m = build.pc(s, "ann", "hoplite", "1,0")
    t = build.table(s, [4, 2, 1])
    assert turn.move(t, m, "E") == ("", [])
    assert s["map"]["2,0"]["kind"] == "tunnel_fork"
    assert s["map"]["2,0"]["open"] == "ESW"
    assert (m["at"], m["ap"]) == ("2,0", 4)
    assert turn.move(t, m, "E") == ("", [])
    assert s["map"]["3,0"] == {"kind": "rock", "open": "", "found": 1, "by": m["id"]}
    assert (m["at"], m["ap"]) == ("2,0", 3)
    why, _ = turn.move(t, m, "E")
    assert "impassable" in why and m["ap"] == 3  # a drawn rock costs nothing: it is refused


def test_explore_7_tunnels_run_straight_along_travel() -> None:
    """Explore 7: a tunnel goes straight across the square in the direction of travel; Small 1:
    entering a small tunnel costs 2 AP."""
    s = build.state()
    m = build.pc(s, "ann", "hoplite", "0,0")
    t = build.table(s, [3, 2])
    assert turn.move(t, m, "EE") == ("", [])
    assert (s["map"]["1,0"]["kind"], s["map"]["1,0"]["open"]) == ("tunnel", "EW")
    assert (s["map"]["2,0"]["kind"], s["map"]["2,0"]["open"]) == ("small_tunnel", "EW")
    assert (m["at"], m["ap"]) == ("2,0", 2)


def test_styx_2_3_the_column_is_the_styx_and_a_6_is_a_bridge() -> None:
    s = build.state()
    m = build.pc(s, "ann", "hoplite", "0,0")
    t = build.table(s, [5, 6])
    turn.move(t, m, "N")
    assert s["map"]["0,-1"]["kind"] == "styx" and not s["map"]["0,-1"]["bridge"]
    turn.move(t, m, "N")
    assert s["map"]["0,-2"]["bridge"] is True
    assert m["ap"] == 3


def test_styx_4_only_a_bridge_crosses() -> None:
    """On a square without a bridge a model leaves toward its own bank only."""
    s = build.state()
    build.square(s, "0,1", "styx", "NS", bridge=False)
    build.square(s, "1,1", "empty_cavern")
    build.square(s, "-1,1", "empty_cavern")
    m = build.pc(s, "ann", "hoplite", "-1,1")
    t = build.table(s)
    assert turn.move(t, m, "E") == ("", [])
    assert (m["at"], m["bank"]) == ("0,1", "W")
    why, _ = turn.move(t, m, "E")
    assert "only on a bridge" in why
    assert turn.move(t, m, "W") == ("", [])
    assert m["at"] == "-1,1"
    # on the bridge at 0,0 both ways are open
    m["at"], m["bank"] = "0,0", "W"
    build.square(s, "1,0", "empty_cavern")
    assert turn.move(t, m, "E") == ("", []) and m["at"] == "1,0"


def test_small_1_double_cost_and_cyclops_never() -> None:
    """Small 1: 2 AP a square; PC Cyclops 3: may never move down small tunnels. A Centaur (7 AP,
    PC Centaur 1) walks three small-tunnel squares for 6 AP."""
    s = build.state()
    for x in (1, 2, 3):
        build.square(s, f"{x},0", "small_tunnel", "EW")
    c = build.pc(s, "ann", "centaur", "0,0")
    t = build.table(s)
    c["ap"] = turn.allowance(t, c)
    assert c["ap"] == 7
    assert turn.move(t, c, "EEE") == ("", [])
    assert (c["at"], c["ap"]) == ("3,0", 1)
    y = build.pc(s, "bob", "cyclops", "0,0")
    why, _ = turn.move(t, y, "E")
    assert "never move down small tunnels" in why and y["at"] == "0,0" and y["ap"] == 5


def test_battle_1_entering_enemies_stops_and_only_the_way_back_is_open() -> None:
    s = build.state()
    for x in (1, 2, 3):
        build.square(s, f"{x},0", "empty_cavern")
    m = build.pc(s, "ann", "hoplite", "0,0")
    build.monster(s, "minion", "2,0")
    t = build.table(s)
    assert turn.move(t, m, "EEE") == ("", [])
    assert m["at"] == "2,0" and m["ap"] == 3  # stopped where the enemy is
    why, _ = turn.move(t, m, "E")
    assert "may not pass through" in why
    assert turn.move(t, m, "W") == ("", []) and m["at"] == "1,0"


def test_battle_9_prisoners_cut_the_allowance() -> None:
    s = build.state()
    m = build.pc(s, "ann", "hoplite", "0,0")
    m["prisoners"] = ["minion", "witch"]
    t = build.table(s)
    assert turn.allowance(t, m) == 3


def test_act_6_poseidon_doubles_the_next_turns_allowance() -> None:
    s = build.state()
    m = build.pc(s, "ann", "centaur", "0,0")
    m["effects"]["poseidon"] = 1
    t = build.table(s)
    assert turn.allowance(t, m) == 14
    assert turn.allowance(t, m) == 7  # used up


def test_program_reads_steps_and_says_where_a_typo_is() -> None:
    c = load()
    steps, halts, problems = program.parse(c, {"steps": ["move e n", "atack m3", "craft axe",
                                                         "dig through", "buy unicorn"],
                                               "halt": ["enemy", "low_hp:3", "sunset"]})
    assert [s.verb for s in steps] == ["move", "craft"]
    assert steps[0].dirs == "EN" and steps[1].args == ("craft_axe",)
    wheres = [p.where for p in problems]
    assert wheres == ["[orders] steps[2] 'atack m3'", "[orders] steps[4] 'dig through'",
                      "[orders] steps[5] 'buy unicorn'", "[orders] halt 'sunset'"]
    assert "no step 'atack'" in problems[0].message
    assert program.low_hp(halts) == 3


def test_appA_monster_walks_the_shortest_open_path_and_attacks_on_arrival() -> None:
    """Appendix A (simple), analysis 3.2: a Minion two squares away walks to the PC (1 AP a
    square) and attacks with the AP left."""
    s = build.state()
    build.square(s, "1,0", "empty_cavern")
    build.square(s, "2,0", "tunnel", "EW")
    pc = build.pc(s, "ann", "hoplite", "1,0")
    mon = build.monster(s, "minion", "3,0")
    build.square(s, "3,0", "empty_cavern")
    t = build.table(s, then=1)
    reach = monsters.paths(t, mon)
    assert reach["1,0"] == (2, "W")
    monsters.act(t, mon)
    assert mon["at"] == "1,0" or mon["hp"] <= 0
    kinds = [e["type"] for e in t.events]
    assert kinds[:2] == ["moves", "moves"] and "combat" in kinds
    assert pc["hp"] < 8 or mon["hp"] <= 0


def test_appA_great_monsters_keep_out_of_small_tunnels() -> None:
    s = build.state()
    build.square(s, "1,0", "small_tunnel", "EW")
    build.square(s, "2,0", "empty_cavern")
    build.pc(s, "ann", "hoplite", "0,0")
    mino = build.monster(s, "minotaur", "2,0")
    t = build.table(s)
    assert "0,0" not in monsters.paths(t, mino)
    minion = build.monster(s, "minion", "2,0")
    assert monsters.paths(t, minion)["0,0"] == (3, "W")


def test_appA_unreachable_target_makes_the_monster_explore_toward_it() -> None:
    s = build.state()
    build.square(s, "3,0", "empty_cavern")
    build.pc(s, "ann", "hoplite", "0,0")
    mon = build.monster(s, "minion", "3,0")
    t = build.table(s, then=3)  # every square west of it is a tunnel
    monsters.act(t, mon)
    assert s["map"]["2,0"]["kind"] == "tunnel" and s["map"]["2,0"]["by"] == mon["id"]
    assert grid.xy(mon["at"])[0] <= 2


def test_polis_2_attacking_a_settlement_force_is_war_on_it() -> None:
    """Polis 2: players take a Manor by defeating its force: an `attack` on a defender in the
    square makes the attacker's side its enemy (before, the force is friendly: no target)."""
    s = build.state(("ann",))
    build.square(s, "1,0", "manor")
    m = build.pc(s, "ann", "hoplite", "1,0")
    guard = build.monster(s, "hoplite", "1,0", side="defender")
    guard["home"] = "1,0"
    t = build.table(s, then=6)
    assert turn.targets_in_reach(t, m, False) == {}
    assert turn.fight(t, m, guard["id"], "", ranged=False) == ""
    assert s["hostile"] == {"1,0": ["party"]}
    assert [e["type"] for e in t.events][:2] == ["war", "combat"]
    assert m["ap"] == 4


def test_monster_giant_paid_off_leaves_that_player_alone() -> None:
    """Monster Giant: with standing pay_giant and 6 Gold the player pays instead of fighting;
    the Giant then ignores that player."""
    s = build.state(("ann",))
    s["standing"]["ann"] = {"pay_giant": True}
    m = build.pc(s, "ann", "hoplite", "0,0")
    m["gold"] = 7
    giant = build.monster(s, "giant", "0,0")
    t = build.table(s)
    monsters.act(t, giant)
    assert m["gold"] == 1 and m["hp"] == 8 and giant["bought_off"] == ["ann"]
    assert not monsters.is_target(t, giant, m)
    assert "paid the Giant" in turn.fight(t, m, giant["id"], "", ranged=False)


def test_npcs_follow_their_player_in_the_world_phase() -> None:
    s = build.state(("ann",))
    build.square(s, "1,0", "tunnel", "EW")
    build.square(s, "2,0", "empty_cavern")
    build.pc(s, "ann", "hoplite", "2,0")
    npc = build.monster(s, "hoplite", "0,0", side="npc", owner="ann")
    t = build.table(s)
    monsters.act(t, npc)
    assert npc["at"] == "2,0"
    s["standing"]["ann"] = {"npcs": "guard"}
    npc["at"] = "0,0"
    monsters.act(t, npc)
    assert npc["at"] == "0,0"


def test_halt_enemy_stops_a_long_move_where_the_enemy_comes_into_sight() -> None:
    """Analysis 2.3: "move E E E" runs square by square; an enemy in the next square halts it
    with the rest waiting. An empty cavern is no discovery."""
    s = build.state(("ann",))
    build.square(s, "1,0", "empty_cavern")
    build.square(s, "2,0", "empty_cavern")
    m = build.pc(s, "ann", "hoplite", "0,0")
    build.monster(s, "minion", "2,0")
    t = build.table(s)
    steps, halts, _ = program.parse(load(), {"steps": ["move E E E"]})
    rest, why = turn.run(t, "ann", steps, halts)
    assert why == "enemy" and [r.text for r in rest] == ["move E", "move E"]
    assert m["at"] == "1,0" and m["ap"] == 4
    s2 = build.state(("ann",))
    m2 = build.pc(s2, "ann", "hoplite", "0,0")
    t2 = build.table(s2, [5, 5])  # two empty caverns: nothing to halt for
    rest, why = turn.run(t2, "ann", *program.parse(load(), {"steps": ["move E E"]})[:2])
    assert (rest, why, m2["at"]) == ([], "", "2,0")


def test_fight_runs_rounds_until_the_enemies_fall_or_the_health_limit() -> None:
    """'fight N' (analysis 2.3, a standing fight policy in one step): a round per AP (Battle 4)
    until no enemy is left or the fighter's health is N or less."""
    s = build.state(("ann",))
    m = build.pc(s, "ann", "hoplite", "0,0")
    build.monster(s, "minion", "0,0")
    build.monster(s, "minion", "0,0")
    # round 1: 6+2 against the two Minions' 1+1 (massed), one falls; round 2: 6+2 against 1
    t = build.table(s, dice=[6, 1, 1, 6, 1])
    steps, halts, _ = program.parse(load(), {"steps": ["fight 2"], "halt": []})
    s["standing"]["ann"] = {"imprison": False}
    turn.run(t, "ann", steps, halts)
    assert not t.enemies_at(m) and m["ap"] == 3
    s2 = build.state(("ann",))
    m2 = build.pc(s2, "ann", "hoplite", "0,0")
    m2["hp"] = 3
    build.monster(s2, "manticore", "0,0")
    t2 = build.table(s2, then=3)  # every die a 3: the Manticore wins each round
    turn.run(t2, "ann", *program.parse(load(), {"steps": ["fight 2"], "halt": []})[:2])
    assert m2["hp"] <= 2 and m2["ap"] == 4  # it stopped after the first wound took it to 2


def test_rare_a6_thunderbolt_standing_order_slays_a_great_monster_about_to_act() -> None:
    s = build.state(("ann",))
    build.square(s, "1,0", "tunnel", "EW")
    build.square(s, "2,0", "empty_cavern")
    m = build.pc(s, "ann", "hoplite", "0,0")
    m["items"].append("thunderbolt")
    hydra = build.monster(s, "hydra", "2,0")
    t = build.table(s)
    monsters.act(t, hydra)
    assert hydra["hp"] == 0 and "thunderbolt" not in m["items"] and m["kleos"] == 5
    s["standing"]["ann"] = {"thunderbolt": "never"}
    m["items"].append("thunderbolt")
    mino = build.monster(s, "minion", "2,0")
    t2 = build.table(s, then=1)
    monsters.act(t2, mino)  # a Minion is no Great Monster: no bolt
    assert "thunderbolt" in m["items"]


def test_trap_5_stuck_rolls_again_at_the_next_turn_and_a_side_found_rock_too() -> None:
    """Trap 5: "STUCK FOR THIS TURN, ROLL AGAIN NEXT TIME"; a side spat out on that turned out
    to be rock is "AS IF THEY HAD ROLLED A 1": rolled again too."""
    s = build.state(("ann",))
    build.square(s, "1,0", "trapped_room", site={"trap": "revolving_room", "spent": False})
    m = build.pc(s, "ann", "hoplite", "1,0")
    m.update(stuck="revolving", exit="", revolve_from="E")
    t = build.table(s, [5])  # 5: the side opposite the entry, east (undrawn: no rock face)
    turn.start(t, "ann")
    assert (m["stuck"], m["exit"]) == ("revolving", "E")
    build.square(s, "2,0", "rock", "")
    t2 = build.table(s, [3])  # east is rock now: rolled again; 3: left of east, north
    turn.start(t2, "ann")
    assert m["exit"] == "N"


def test_appA_complex_monsters_gather_on_a_border_until_five_then_attack() -> None:
    """Appendix A COMPLEX: a Minion walks to the Polis's border and waits; with a Great Monster
    there too (3) and another Minion (1), five: they go in and attack the force."""
    s = build.state(("ann",))
    s["options"]["monsters"] = "complex"
    build.square(s, "3,0", "polis", site={"settlement": "polis", "citizens": [], "friendly": [],
                                          "delivered": 0, "destroyed": False})
    for x in (1, 2):
        build.square(s, f"{x},0", "tunnel", "EW")
    build.square(s, "3,1", "empty_cavern")
    guard = build.monster(s, "hoplite", "3,0", side="defender")
    guard["home"] = "3,0"
    build.pc(s, "ann", "hoplite", "0,0")
    m1 = build.monster(s, "minion", "1,0")
    t = build.table(s, then=1)
    monsters.act(t, m1)
    assert m1["at"] == "2,0"  # on the border, waiting (not on to the player, not in)
    assert monsters.gather_step(t, m1) == ""
    build.monster(s, "minion", "3,1")
    hydra = build.monster(s, "hydra", "3,1")
    assert monsters.gather_step(t, m1) == "E" and monsters.gather_step(t, hydra) == "N"
    s["options"]["monsters"] = "simple"
    assert monsters.gather_step(t, m1) == "E"  # (the function itself; SIMPLE never asks it)
    assert not monsters.towns(t, m1)


def test_pc_amazon_2_observes_once_a_turn_for_free() -> None:
    s = build.state(("ann",))
    m = build.pc(s, "ann", "amazon", "0,0")
    t = build.table(s, [5, 3])  # east: an empty cavern; then (refused) nothing more
    assert turn.observe(t, m, "E") == ""
    assert s["map"]["1,0"]["kind"] == "empty_cavern" and m["at"] == "0,0" and m["ap"] == 5
    assert "once per turn" in turn.observe(t, m, "W")
    hop = build.pc(s, "bob", "hoplite", "0,0")
    assert "only an Amazon" in turn.observe(t, hop, "W")
    turn.start(t, "ann")  # a new turn: she may look again, but not at a drawn square
    assert "already explored" in turn.observe(t, m, "E")
    assert turn.observe(t, m, "W") == "" and s["map"]["-1,0"]["kind"] == "tunnel"


def test_pc_kobalos_1_sneaks_past_enemies_on_a_4() -> None:
    """PC Kobalos 1: a 4+ check to enter an enemy square unnoticed (and go on through it); a
    failure spends the point and nothing happens."""
    s = build.state(("ann",))
    for x in (1, 2):
        build.square(s, f"{x},0", "empty_cavern")
    m = build.pc(s, "ann", "kobalos", "0,0")
    build.monster(s, "minion", "1,0")
    t = build.table(s, [3, 4])
    assert turn.sneak(t, m, "E") == ("", []) and m["at"] == "0,0" and m["ap"] == 4
    assert turn.sneak(t, m, "E") == ("", []) and m["at"] == "1,0" and m["ap"] == 3
    assert turn.move(t, m, "E") == ("", []) and m["at"] == "2,0"  # on through, unnoticed
    hop = build.pc(s, "bob", "hoplite", "0,0")
    assert "only a Kobalos" in turn.sneak(t, hop, "E")[0]

"""The team list (Team 0-6): the random teams and their starts, each scenario's victory and its
special rules, and one short demo of each."""

from __future__ import annotations

from typing import Any

from pbem.core.dice import Rng
from pbem.games.hetairos import combat, grid, scenario, scenarios, sites, skills, turn
from pbem.games.hetairos.game import RULESET as R
from pbem.games.hetairos.table import Model, Table, load
from tests.hetairos import build
from tests.scripted import Scripted

FOUR = ("ann", "bob", "cy", "di")


def rng(values: list[int] | None = None, then: int | None = 1) -> Rng:
    return Rng(Scripted(values or [], then), Scripted([], 1))


def team_state(scen: str, teams: dict[str, str]) -> dict[str, Any]:
    s = build.state(tuple(teams), scen)
    s["teams"] = dict(teams)
    return s


def numbers(scen: str, key: str) -> int:
    return load().world.scenarios[scen].number_of(key)


def pcs(s: dict[str, Any]) -> dict[str, Model]:
    return {p: s["models"][s["pcs"][p]] for p in s["seats"]}


def kill(m: Model) -> None:
    m["hp"] = 0


# ---- Team 0: teams, player counts, starts -----------------------------------------------------


def test_team_0_teams_randomised_by_a_public_shuffle_and_bridges_4_apart() -> None:
    """Team 1 "SPLIT INTO TWO TEAMS, RANDOMISED": the seats shuffled in public (setup/teams),
    dealt round two teams; Team 0: each team on a bridge, 4 empty squares between."""
    out = R.setup(FOUR, {"scenario": "war-games"}, {}, rng())
    s = out.state
    teams = s["teams"]
    assert sorted(teams.values()) == ["team 1", "team 1", "team 2", "team 2"]
    assert any(e["type"] == "team" for e in out.events)
    at = {teams[p]: s["models"][s["pcs"][p]]["at"] for p in s["seats"]}
    assert at == {"team 1": "0,0", "team 2": "0,5"}
    assert s["map"]["0,0"]["bridge"] and s["map"]["0,5"]["bridge"]


def test_team_0_team_draws_are_labelled_setup_teams() -> None:
    dice = Scripted([], 1)
    R.setup(FOUR, {"scenario": "stasis"}, {}, Rng(dice, Scripted([], 1)))
    labels = [d.label for d in dice.draws]
    assert [x for x in labels if x.startswith("setup/teams")] == [
        "setup/teams/3", "setup/teams/2", "setup/teams/1"]


def test_team_0_printed_team_names_stasis_and_sorcery() -> None:
    s = R.setup(FOUR, {"scenario": "stasis"}, {}, rng()).state
    assert sorted(set(s["teams"].values())) == ["aristoi", "demoi"]
    s = R.setup(("ann", "bob"), {"scenario": "battle-of-sorcery"}, {}, rng()).state
    assert sorted(s["teams"].values()) == ["hecate", "zeus"]


def test_team_0_player_counts() -> None:
    """Two teams need 2 players; teams of two (Team 5, 6) an even number, 4 or more."""
    assert R.check_options({"scenario": "war-games"}, ["ann"])
    assert not R.check_options({"scenario": "war-games"}, ["ann", "bob"])
    assert not R.check_options({"scenario": "capture-the-flag"}, ["ann", "bob", "cy"])
    for scen in ("plunder-of-war", "king-of-the-styx"):
        assert R.check_options({"scenario": scen}, ["ann", "bob"])
        assert R.check_options({"scenario": scen}, ["ann", "bob", "cy"])
        assert R.check_options({"scenario": scen}, ["ann", "bob", "cy", "di", "ed"])
        assert not R.check_options({"scenario": scen}, list(FOUR))


def test_team_5_6_teams_of_two() -> None:
    s = R.setup((*FOUR, "ed", "flo"), {"scenario": "plunder-of-war"}, {}, rng()).state
    sizes = sorted(list(s["teams"].values()).count(team) for team in set(s["teams"].values()))
    assert sizes == [2, 2, 2]


# ---- Team 1 The War Games -------------------------------------------------------------------


def test_team_1_war_games_escort_by_standing_order() -> None:
    """Team 1 "EACH PLAYER STARTS EITHER WITH 5 HOPLITES, OR 3 AMAZONS (PLAYER CHOICE)": the
    standing order ``escort``."""
    joins = {"ann": {"standing": {"escort": "amazons"}}, "bob": {}}
    s = R.setup(("ann", "bob"), {"scenario": "war-games"}, joins, rng()).state
    for p, type_, n in (("ann", "amazon", numbers("the_war_games", "amazons")),
                        ("bob", "hoplite", numbers("the_war_games", "hoplites"))):
        mine = [m for m in s["models"].values() if m["side"] == "npc" and m["owner"] == p]
        assert len(mine) == n and {m["type"] for m in mine} == {type_}
        assert {m["at"] for m in mine} == {s["models"][s["pcs"][p]]["at"]}


def test_team_1_last_team_standing_wins() -> None:
    s = team_state("the_war_games", {"ann": "team 1", "bob": "team 2", "cy": "team 2"})
    for p in s["seats"]:
        build.pc(s, p, {"ann": "hoplite", "bob": "centaur", "cy": "amazon"}[p])
    skills.new_npc(build.table(s), "bob", "hoplite", "0,0")  # NPCs keep no team standing
    t = build.table(s)
    kill(pcs(s)["bob"])
    scenario.check(t, end_of_round=False)
    assert s["step"] == "turn"
    kill(pcs(s)["cy"])
    scenario.check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann"]


# ---- Team 2 Capture the Flag ----------------------------------------------------------------

CTF = "capture_the_flag"


def ctf(teams: dict[str, str] | None = None) -> tuple[dict[str, Any], Table]:
    teams = teams or {"ann": "team 1", "bob": "team 2"}
    s = team_state(CTF, teams)
    gap = load().world.scenarios[CTF].start_gap
    homes = {"team 1": f"{-gap},0", "team 2": f"{gap},0"}
    for p, team in teams.items():
        build.square(s, homes[team], "empty_cavern")
        s["starts"][p] = homes[team]
        build.pc(s, p, "centaur", homes[team])
    t = build.table(s)
    scenarios.get(CTF).setup(t)
    return s, t


def test_team_2_start_caverns_six_from_a_central_bridge() -> None:
    s = R.setup(FOUR, {"scenario": "capture-the-flag"}, {}, rng()).state
    gap = load().world.scenarios[CTF].start_gap
    homes = {s["teams"][p]: s["models"][s["pcs"][p]]["at"] for p in s["seats"]}
    assert sorted(homes.values()) == [f"{-gap},0", f"{gap},0"]
    assert s["map"]["0,0"]["bridge"] is True
    for k in homes.values():
        assert s["map"][k]["kind"] == "empty_cavern" and s["map"][k]["open"] == "NESW"
        assert grid.manhattan(k, "0,0") == gap
    assert {team: f["at"] for team, f in s["goal"]["flags"].items()} == homes


def test_team_2_flag_picked_up_by_moving_into_its_cavern() -> None:
    s, t = ctf()
    ann = pcs(s)["ann"]
    build.square(s, "5,0", "empty_cavern")
    ann["at"] = "5,0"
    why, _ = turn.move(t, ann, "E")
    assert why == ""
    assert s["goal"]["flags"]["team 2"]["holder"] == "ann"


def test_team_2_own_flag_at_home_is_not_picked_up() -> None:
    s, t = ctf()
    bob = pcs(s)["bob"]
    build.square(s, "5,0", "empty_cavern")
    bob["at"] = "5,0"
    turn.move(t, bob, "E")
    assert s["goal"]["flags"]["team 2"]["holder"] == ""


def test_team_2_lost_round_4_plus_keeps_the_flag() -> None:
    """Team 2: ann, carrying bob's flag, loses a round to a Minion (1 vs 6): a 3 drops it where
    she stands; a 4 keeps it; a tie shakes nothing loose."""
    s, _ = ctf()
    ann = pcs(s)["ann"]
    s["goal"]["flags"]["team 2"].update(holder="ann", model=ann["id"])
    ann["at"] = "3,0"
    minion = build.monster(s, "minion", "3,0")
    t = build.table(s, [1, 6, 4])
    combat.attack(t, ann, minion)
    assert s["goal"]["flags"]["team 2"]["holder"] == "ann"
    t = build.table(s, [1, 6, numbers(CTF, "keep_flag") - 1])
    combat.attack(t, ann, minion)
    assert s["goal"]["flags"]["team 2"] == {"home": "6,0", "at": "3,0", "holder": "", "model": ""}
    assert all(" " not in d.label for d in t.dice.draws)  # draw labels take no spaces


def test_team_2_a_slain_carrier_drops_the_flag() -> None:
    s, t = ctf()
    ann = pcs(s)["ann"]
    s["goal"]["flags"]["team 2"].update(holder="ann", model=ann["id"])
    ann["at"] = "2,0"
    combat.slay(t, ann, [])
    scenario.record(t, t.events)
    assert s["goal"]["flags"]["team 2"] == {"home": "6,0", "at": "2,0", "holder": "", "model": ""}


def test_team_2_a_replacing_character_does_not_inherit_the_flag() -> None:
    s, t = ctf()
    ann = pcs(s)["ann"]
    s["goal"]["flags"]["team 2"].update(holder="ann", model=ann["id"])
    ann["at"] = "2,0"
    kill(ann)
    scenario.new_pc(load(), s, "ann", "hoplite", "-6,0")  # death=replace: a new character
    scenario.check(t, end_of_round=False)
    assert s["goal"]["flags"]["team 2"]["at"] == "2,0"
    assert s["goal"]["flags"]["team 2"]["holder"] == ""


def test_team_2_both_flags_in_your_cavern_wins() -> None:
    s, t = ctf({"ann": "team 1", "bob": "team 2", "cy": "team 1"})
    ann = pcs(s)["ann"]
    s["goal"]["flags"]["team 2"].update(holder="ann", model=ann["id"])
    build.square(s, "-5,0", "empty_cavern")
    ann["at"] = "-5,0"
    scenario.check(t, end_of_round=False)
    assert s["step"] == "turn"
    turn.move(t, ann, "W")
    scenario.check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "cy"]


def test_team_2_no_win_while_your_own_flag_is_away() -> None:
    s, t = ctf()
    ann = pcs(s)["ann"]
    s["goal"]["flags"]["team 2"].update(holder="ann", model=ann["id"])
    # bob carries ann's flag off
    s["goal"]["flags"]["team 1"].update(holder="bob", model=pcs(s)["bob"]["id"])
    pcs(s)["bob"]["at"] = "-3,0"
    build.square(s, "-3,0", "tunnel", "EW")
    ann["at"] = "-6,0"
    scenario.check(t, end_of_round=False)
    assert s["step"] == "turn"


# ---- Team 3 Stasis ------------------------------------------------------------------------------


def stasis(kind: str) -> tuple[dict[str, Any], list[Model]]:
    s = team_state("stasis", {"ann": "demoi", "bob": "aristoi"})
    build.square(s, "1,0", kind, site={"settlement": kind, "citizens": [], "friendly": [],
                                       "delivered": 0, "destroyed": False})
    build.pc(s, "ann", "hoplite", "1,0")
    build.pc(s, "bob", "hoplite", "1,0")
    guard = build.monster(s, "hoplite", "1,0", side="defender")
    guard["home"], guard["hp"] = "1,0", 1
    return s, [guard]


def test_team_3_demoi_destroy_a_manor_and_win() -> None:
    """Team 3: ann (Demoi) attacks the Manor's last Hoplite (war, Polis 2): 6+2 beats 1; its 6+
    save rolls 1; the imprison roll 1 fails: the force is gone, the Manor destroyed."""
    s, (guard,) = stasis("manor")
    t = build.table(s, [6, 1, 1, 1], then=1)
    assert turn.fight(t, pcs(s)["ann"], guard["id"], "", ranged=False) == ""
    assert guard["hp"] == 0
    assert s["map"]["1,0"]["site"]["destroyed"] is True
    scenario.record(t, t.events)
    scenario.check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann"]


def test_team_3_aristoi_destroy_a_polis_not_a_manor() -> None:
    s, (guard,) = stasis("manor")
    t = build.table(s)
    kill(guard)
    scenarios.get("stasis").after_combat(t, [pcs(s)["bob"]], [guard])
    scenario.check(t, end_of_round=False)
    assert s["step"] == "turn" and not s["map"]["1,0"]["site"]["destroyed"]
    s, (guard,) = stasis("polis")
    t = build.table(s)
    kill(guard)
    scenarios.get("stasis").after_combat(t, [pcs(s)["bob"]], [guard])
    scenario.check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["bob"]


def test_team_3_the_whole_force_must_fall_and_monsters_count_for_nobody() -> None:
    s, (guard,) = stasis("manor")
    other = build.monster(s, "hoplite", "1,0", side="defender")
    other["home"] = "1,0"
    t = build.table(s)
    kill(guard)
    scenarios.get("stasis").after_combat(t, [pcs(s)["ann"]], [guard])
    assert not s["map"]["1,0"]["site"]["destroyed"]  # one Hoplite still stands
    kill(other)
    scenarios.get("stasis").after_combat(t, [build.monster(s, "minion", "1,0")], [other])
    scenario.check(t, end_of_round=False)
    assert s["step"] == "turn"


# ---- Team 4 Battle of Sorcery -------------------------------------------------------------------

SORC = "battle_of_sorcery"


def sorcery() -> dict[str, Any]:
    s = team_state(SORC, {"ann": "zeus", "bob": "hecate", "cy": "hecate"})
    build.square(s, "1,0", "olympian_shrine")
    build.square(s, "0,3", "shrine_of_hecate", site={"spawn": "hecate_devotee", "attached": []})
    build.pc(s, "ann", "philosopher", "1,0")
    build.pc(s, "bob", "philosopher", "1,0")
    build.pc(s, "cy", "hoplite", "0,2")
    return s


def test_team_4_zeus_followers_pass_checks_at_olympian_shrines() -> None:
    s = sorcery()
    t = build.table(s)  # no die may be drawn
    assert skills.check(t, pcs(s)["ann"], "know_pray_to_ares") == ""
    assert t.events[-1]["passed"] is True
    t = build.table(s, [1, 1])  # a follower of Hecate rolls (Philosopher: 2 dice) and fails
    skills.check(t, pcs(s)["bob"], "know_pray_to_ares")
    assert t.events[-1]["passed"] is False


def test_team_4_hecates_followers_command_her_spawn() -> None:
    """Hecate 1: the shrine spawns a devotee (d6 5: a Witch); it answers to the nearest
    follower of Hecate (cy, 1 square away) as a controlled NPC, still attached."""
    s = sorcery()
    t = build.table(s, [5])
    sites.spawn(t)
    (m,) = [m for m in s["models"].values() if m["type"] == "witch"]
    assert (m["side"], m["owner"]) == ("npc", "cy")
    assert s["map"]["0,3"]["site"]["attached"] == [m["id"]]
    assert not t.enemies(m, pcs(s)["bob"]) and t.enemies(m, pcs(s)["ann"])


def test_team_4_no_follower_of_hecate_alive_spawn_is_a_monster() -> None:
    s = sorcery()
    kill(pcs(s)["bob"])
    kill(pcs(s)["cy"])
    t = build.table(s, [5])
    sites.spawn(t)
    (m,) = [m for m in s["models"].values() if m["type"] == "witch"]
    assert m["side"] == "monster"


def test_team_4_last_team_standing_wins() -> None:
    s = sorcery()
    t = build.table(s)
    kill(pcs(s)["ann"])
    scenario.check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["bob", "cy"]


# ---- Team 5 The Plunder of War ------------------------------------------------------------------

PLUNDER = "the_plunder_of_war"


def plunder() -> dict[str, Any]:
    s = team_state(PLUNDER, {"ann": "team 1", "bob": "team 1", "cy": "team 2", "di": "team 2"})
    for p in FOUR:
        build.pc(s, p, {"ann": "hoplite", "bob": "centaur", "cy": "amazon", "di": "kobalos"}[p])
    return s


def test_team_5_twenty_gold_together_at_the_end_of_a_turn_wins() -> None:
    s = plunder()
    m = pcs(s)
    need = numbers(PLUNDER, "gold")
    m["ann"]["gold"], m["bob"]["gold"] = need - 5, 5
    m["bob"]["at"] = "0,1"
    t = build.table(s)
    scenario.check(t, end_of_round=True)
    assert s["step"] == "turn"  # not in the same place
    m["bob"]["at"] = "0,0"
    scenario.check(t, end_of_round=False)
    assert s["step"] == "turn"  # only at the end of a turn
    scenario.check(t, end_of_round=True)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "bob"]


def test_team_5_two_teams_the_higher_wins_equal_plays_on() -> None:
    s = plunder()
    m = pcs(s)
    need = numbers(PLUNDER, "gold")
    m["ann"]["gold"] = m["cy"]["gold"] = need
    t = build.table(s)
    scenario.check(t, end_of_round=True)
    assert s["step"] == "turn"
    m["di"]["gold"] = 1
    scenario.check(t, end_of_round=True)
    assert s["step"] == "over" and s["result"]["winners"] == ["cy", "di"]


# ---- Team 6 King of the Styx --------------------------------------------------------------------

KING = "king_of_the_styx"


def test_team_6_teams_start_six_squares_from_the_central_bridge() -> None:
    s = R.setup((*FOUR, "ed", "flo"), {"scenario": "king-of-the-styx"}, {}, rng()).state
    gap = load().world.scenarios[KING].start_gap
    starts = {s["teams"][p]: s["models"][s["pcs"][p]]["at"] for p in s["seats"]}
    assert len(set(starts.values())) == 3
    for p in s["seats"]:  # each team together
        assert s["models"][s["pcs"][p]]["at"] == starts[s["teams"][p]]
    for k in starts.values():
        assert grid.manhattan(k, "0,0") == gap and not grid.on_styx(k)
        assert s["map"][k]["kind"] == "empty_cavern"
    assert s["map"]["0,0"]["bridge"] is True


def test_team_6_on_the_bridge_with_no_opposing_model_within_2_wins() -> None:
    s = team_state(KING, {"ann": "team 1", "bob": "team 1", "cy": "team 2", "di": "team 2"})
    for p in FOUR:
        build.pc(s, p, {"ann": "hoplite", "bob": "centaur", "cy": "amazon", "di": "kobalos"}[p],
                 "5,5")
    m = pcs(s)
    m["ann"]["at"] = "0,0"
    radius = numbers(KING, "clear_radius")
    m["cy"]["at"] = f"{radius},{radius}"
    build.monster(s, "minion", "0,1")  # monsters oppose nobody
    t = build.table(s)
    scenario.check(t, end_of_round=False)
    assert s["step"] == "turn"
    m["cy"]["at"] = f"{radius + 1},0"
    scenario.check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "bob"]


def test_team_6_an_opposing_npc_near_the_bridge_blocks() -> None:
    s = team_state(KING, {"ann": "team 1", "bob": "team 1", "cy": "team 2", "di": "team 2"})
    for p in FOUR:
        build.pc(s, p, "hoplite", "0,0" if p == "ann" else "9,9")
    skills.new_npc(build.table(s), "di", "hoplite", "-1,0")
    t = build.table(s)
    scenario.check(t, end_of_round=False)
    assert s["step"] == "turn"


# ---- one short demo of each ---------------------------------------------------------------------

"""The ruleset: set-up (Start 1-3, Coop 0, Solo 0), the phases of a turn by email (halts and
continuations, analysis 2.3), the NMR default, scenario ids, victory."""

from __future__ import annotations

from typing import Any

from pbem.core.dice import Rng
from pbem.games.hetairos import scenario
from pbem.games.hetairos.game import RULESET as R
from pbem.games.hetairos.table import load
from tests.hetairos import build
from tests.scripted import Scripted


def rng(values: list[int] | None = None, then: int | None = 1) -> Rng:
    return Rng(Scripted(values or [], then), Scripted([], 1))


def test_scenario_ids_follow_the_issue_rule_for_all_24() -> None:
    ids = [scenario.option_id(s.name) for s in load().world.scenarios.values()]
    assert len(set(ids)) == 24
    for want in ("world-above", "guardians-roar", "forging-of-talos", "king-of-the-styx",
                 "beast-slayers", "founding", "blind-man-speaks"):
        assert want in ids


def test_start_1_2_characters_go_in_turn_order_from_ranked_lists() -> None:
    """Start 1: turn order first (a public shuffle); Start 2: each in turn takes the first
    character of their list nobody has taken."""
    joins = {"ann": {"characters": ["hoplite", "amazon"]}, "bob": {"characters": ["hoplite"]}}
    out = R.setup(("ann", "bob"), {}, joins, rng([1]))  # the shuffle's only draw: swap
    s = out.state
    assert s["seats"] == ["bob", "ann"]
    kinds = {p: s["models"][s["pcs"][p]]["type"] for p in s["seats"]}
    assert kinds == {"bob": "hoplite", "ann": "amazon"}
    assert s["map"]["0,0"]["bridge"] is True
    assert all(s["models"][s["pcs"][p]]["at"] == "0,0" for p in s["seats"])  # Coop 0


def test_cimmerian_1_starts_with_a_pickaxe() -> None:
    out = R.setup(("ann",), {}, {"ann": {"characters": ["cimmerian"]}}, rng())
    s = out.state
    assert s["models"][s["pcs"]["ann"]]["items"] == ["pickaxe"]


def test_solo_0_bridges_with_a_space_between() -> None:
    out = R.setup(("ann", "bob", "cy"), {"scenario": "to-glory"}, {}, rng([3, 2]))
    s = out.state
    starts = sorted(s["models"][s["pcs"][p]]["at"] for p in s["seats"])
    assert starts == ["0,0", "0,2", "0,4"]
    assert all(s["map"][k]["bridge"] for k in starts) and "0,1" not in s["map"]
    assert s["teams"] == {p: p for p in s["seats"]}  # every player for themselves


def test_solo_scenarios_need_two_players_and_coop_takes_one() -> None:
    assert R.check_options({"scenario": "hero"}, ["ann"])
    assert not R.check_options({"scenario": "beast-slayers"}, ["ann"])
    assert R.check_options({"scenario": "narnia"}, ["ann", "bob"])


def _game() -> dict[str, Any]:
    out = R.setup(("ann", "bob"), {}, {"ann": {"characters": ["hoplite"]},
                                       "bob": {"characters": ["centaur"]}}, rng([2]))
    return out.state


def test_halt_opens_a_continuation_for_the_same_player_with_the_steps_left() -> None:
    s = _game()
    ph = R.next_phase(s)
    assert ph is not None and ph.id == "r01.turn.p1" and ph.actors == ("ann",)
    # east of the bridge: d6 6 (Cavern..!), 2d6 5+6 = 11: a magic spring: a discovery
    # a move of three squares halts after the first: it runs square by square
    out = R.resolve(s, ph, {"ann": {"steps": ["move E E E"], "halt": ["discovery"]}},
                    rng([6, 5, 6]))
    s = out.state
    assert s["map"]["1,0"]["kind"] == "magic_spring"
    ph2 = R.next_phase(s)
    assert ph2 is not None and ph2.id == "r01.turn.p1.k1" and ph2.active == "ann"
    assert s["pending"] == ["move E", "move E"] and s["halted"] == "discovery"
    assert s["models"][s["pcs"]["ann"]]["ap"] == 4
    halt = [e for e in out.events if e["type"] == "halt"]
    assert halt and halt[0]["waiting"] == ["move E", "move E"]
    # the continuation: nothing sent (NMR) ends the turn; bob is next
    R.resolve(s, ph2, {}, rng())
    ph3 = R.next_phase(s)
    assert ph3 is not None and ph3.id == "r01.turn.p2" and s["cont"] == 0
    m = s["models"][s["pcs"]["ann"]]
    assert m["spear"] is True  # Weapon 6: 4 AP left at the end of the turn


def test_a_program_without_halts_runs_whole_and_the_world_phase_follows() -> None:
    s = _game()
    for ph_id, who in (("r01.turn.p1", "ann"), ("r01.turn.p2", "bob")):
        ph = R.next_phase(s)
        assert ph is not None and ph.id == ph_id
        R.resolve(s, ph, {who: {"steps": ["end"], "halt": []}}, rng())
    ph = R.next_phase(s)
    assert ph is not None and ph.id == "r01.world" and ph.automatic
    R.resolve(s, ph, {}, rng())
    nxt = R.next_phase(s)
    assert nxt is not None and nxt.id == "r02.turn.p1" and s["round"] == 2


def test_validate_names_the_step_and_the_receipt_says_what_waits() -> None:
    s = _game()
    ph = R.next_phase(s)
    assert ph is not None
    bad = R.validate(s, ph, "ann", {"steps": ["attack m99", "fly N"], "colour": "red"})
    wheres = {p.where for p in bad}
    assert wheres == {"[orders] colour", "[orders] steps[1] 'attack m99'",
                      "[orders] steps[2] 'fly N'"}
    # "move E" explores (dice): what comes after it waits, and the receipt says so
    problems, notes = R.check(s, ph, "ann", {"steps": ["move E", "buy axe"]})
    assert not problems
    assert [n.message for n in notes] == [
        "steps[2] 'buy axe' comes after steps[1] 'move E', whose outcome the dice decide: "
        "checked when it runs"]
    # everything before the first die is decided now: buying on the bridge is refused
    bad = R.validate(s, ph, "ann", {"steps": ["buy axe", "spring", "move W"]})
    assert [p.where for p in bad] == ["[orders] steps[1] 'buy axe'", "[orders] steps[2] 'spring'"]
    assert "settlement" in bad[0].message and "Magic" in bad[1].message


def test_death_replace_brings_a_new_character_at_the_start() -> None:
    s = _game()
    s["death"] = "replace"
    old = s["pcs"]["ann"]
    s["models"][old]["hp"] = 0
    ph = R.next_phase(s)
    assert ph is not None
    out = R.resolve(s, ph, {"ann": {"steps": ["end"]}}, rng())
    new = s["pcs"]["ann"]
    assert new != old and s["models"][new]["hp"] == s["models"][new]["max_hp"]
    assert s["models"][new]["type"] != "centaur"  # bob's, still alive
    assert any(e["type"] == "replaced" for e in out.events)


def test_coop_5_beast_slayers_three_great_monsters_win() -> None:
    s = build.state(("ann",))
    ann = build.pc(s, "ann", "hoplite")
    t = build.table(s)
    for _ in range(3):
        assert s["step"] == "turn"
        scenario.record(t, [{"type": "slain", "great": True, "victim_type": "hydra",
                             "by": [ann["id"]]}, {"type": "slain", "great": False,
                                                  "by": [ann["id"]]}])
        scenario.check(t, end_of_round=False)
    assert s["goal"]["great_kills"][0] == {"type": "hydra", "players": ["ann"], "round": 1}
    assert s["step"] == "over" and s["result"]["winners"] == ["ann"]


def test_solo_3_to_glory_needs_a_lone_leader_at_the_end_of_a_turn() -> None:
    """Solo 3: A 12 and B 13 -> B wins; A 12 and B 12 -> play on."""
    s = build.state(("ann", "bob"), "to_glory")
    a, b = build.pc(s, "ann", "hoplite"), build.pc(s, "bob", "amazon")
    a["kleos"] = b["kleos"] = 12
    t = build.table(s)
    scenario.check(t, end_of_round=True)
    assert s["step"] == "turn"
    b["kleos"] = 13
    scenario.check(t, end_of_round=False)
    assert s["step"] == "turn"  # only at the end of a turn
    scenario.check(t, end_of_round=True)
    assert s["result"]["winners"] == ["bob"]


def test_coop_5_a_slain_kind_of_great_monster_is_not_found_again() -> None:
    """Coop 5: the Hydra slain, a lair rolling the Hydra (d6 1 great monster, d6 4 chart B,
    d6 2 Hydra) rolls again: d6 4 chart B, d6 3 -> the Giant."""
    s = build.state(("ann",))
    s["goal"]["great_kills"] = [{"type": "hydra", "players": ["ann"], "round": 1}]
    build.square(s, "1,0", "lair")
    ann = build.pc(s, "ann", "hoplite", "0,0")
    from pbem.games.hetairos import sites

    t = build.table(s, [1, 4, 2, 4, 3])
    sites.on_draw(t, "1,0", ann)
    mon = s["models"][s["map"]["1,0"]["site"]["monster"]]
    assert mon["type"] == "giant"
    s2 = build.state(("ann",), "hero")  # in other scenarios the Hydra may come again
    s2["goal"]["great_kills"] = [{"type": "hydra", "players": ["ann"], "round": 1}]
    build.square(s2, "1,0", "lair")
    t2 = build.table(s2, [1, 4, 2])
    sites.on_draw(t2, "1,0", build.pc(s2, "ann", "hoplite"))
    assert s2["models"][s2["map"]["1,0"]["site"]["monster"]]["type"] == "hydra"


def test_start_3_the_scenario_is_rolled_after_the_characters() -> None:
    """Start 2-3: characters first, then the scenario "BY DICE ROLL": the list's d6 (5-6: again),
    the entry's d6; a scenario that does not take the players is rolled again (Ruling)."""
    out = R.setup(("ann", "bob"), {"scenario": "roll"}, {}, rng([1, 5, 2, 6]))
    s = out.state
    assert s["scenario"] == "finding_the_bowman" and s["death"] == "replace"
    kinds = [e["type"] for e in out.events]
    assert kinds.index("character") < kinds.index("scenario-roll")
    # a list of its own: the team list with 2 players; d6 5 (Plunder of War, teams of two:
    # 4 or more players) is rolled again; d6 1: The War Games
    out = R.setup(("ann", "bob"), {"scenario": "roll-team"}, {}, rng([1, 5, 1]))
    assert out.state["scenario"] == "the_war_games"
    assert R.check_options({"scenario": "roll-team"}, ["ann"])  # no team list for one

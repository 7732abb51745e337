"""Issue 12, sections 1 and 3, for Cyclades: names are read whatever their case, an unknown
name is a problem that lists the choices (never a traceback), and what the adjudicator would
certainly skip is refused at submit; what waits on an earlier battle is said in the receipt.
Each test is named after the rule clause it pins."""

from __future__ import annotations

import copy
from typing import Any

from pbem.games.cyclades import actions
from pbem.games.cyclades.game import RULESET, board_of
from pbem.games.cyclades.state import player_of, territories_of
from tests.cyclades.bot_states import Stop, of_kind, rng

C = RULESET.c


def _act_stop(gods: tuple[str, ...], need: Any = None) -> Stop:
    for s in of_kind("act"):
        god = s.phase.id.rsplit(".", 1)[1]
        if god in gods and (need is None or need(s)):
            return s
    raise AssertionError(f"no bot state with {gods}")


def _actor(s: Stop) -> str:
    return s.phase.actors[0]


def _enemy_land(s: Stop) -> str:
    me = _actor(s)
    return sorted(t for t, x in s.state["territories"].items() if x["owner"] not in ("", me))[0]


def _skips(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] in ("skipped", "free_recruit_moved",
                                               "deploy_default")]


# --- Setup 9: deployment ------------------------------------------------------------------


def test_setup_9_deploy_territory_names_any_case_mean_the_same_place() -> None:
    s = of_kind("deploy")[0]
    pillar = s.phase.active
    assert pillar is not None
    player = player_of(s.state, pillar)
    plain = RULESET.default_orders(s.state, s.phase, player) or __import__(
        "pbem.games.cyclades.setup", fromlist=["x"]).default_deploy(C, board_of(s.state),
                                                                   s.state, pillar)
    shouted = copy.deepcopy(plain)
    for entry in shouted["troops"]:
        entry["territory"] = f" {entry['territory'].title()} "
    for entry in shouted["fleets"]:
        entry["sea"] = entry["sea"].lower()
    assert RULESET.validate(s.state, s.phase, player, shouted) == []
    a = RULESET.resolve(copy.deepcopy(s.state), s.phase, {player: plain}, rng("x")).state
    b = RULESET.resolve(copy.deepcopy(s.state), s.phase, {player: shouted}, rng("x")).state
    assert a == b


def test_setup_9_1_unknown_territory_is_a_problem_with_the_choices_not_a_keyerror() -> None:
    s = of_kind("deploy")[0]
    player = s.phase.actors[0]
    for name in ("Narnia", "naxoss", ""):
        problems = RULESET.validate(s.state, s.phase, player,
                                    {"troops": [{"territory": name, "count": 1}]})
        assert problems, name
        if name:
            assert any("valid:" in p.hint for p in problems), problems
    close = RULESET.validate(s.state, s.phase, player,
                             {"troops": [{"territory": "naxoss", "count": 1}]})
    assert any("did you mean naxos" in p.hint for p in close), close


def test_setup_9_2_unknown_sea_and_building_are_problems() -> None:
    s = of_kind("deploy")[0]
    player = s.phase.actors[0]
    problems = RULESET.validate(s.state, s.phase, player, {
        "fleets": [{"sea": "Atlantis", "count": 1}],
        "buildings": [{"building": "castle", "territory": "Moon"}],
        "prosperity": "Olympus", "monument": {"monument": "colossus_x", "territory": "moon"}})
    wheres = {p.where for p in problems}
    assert {"[orders] fleets[0].sea", "[orders] buildings[0].building",
            "[orders] buildings[0].territory", "[orders] prosperity",
            "[orders] monument.monument"} <= wheres, wheres


# --- Cycle 7: bids ----------------------------------------------------------------------------


def test_cycle_7_bids_that_are_not_a_list_are_a_problem() -> None:
    s = of_kind("bid")[0]
    for bids in (5, "zeus", 10**30, True):
        problems = RULESET.validate(s.state, s.phase, s.phase.actors[0], {"bids": bids})
        assert any(p.where.startswith("[orders] bids") for p in problems), bids


def test_battle_2_retreat_places_must_be_places_of_the_board() -> None:
    s = of_kind("bid")[0]
    sea = sorted(board_of(s.state).seas)[0]
    problems = RULESET.validate(s.state, s.phase, s.phase.actors[0], {
        "defend": {"retreat": {"when": "never", "to": ["Naxos", "atlantis"]},
                   "sea_retreat": {"when": "never", "to": [sea.lower(), "H99"]}}})
    wheres = sorted(p.where for p in problems)
    assert wheres == ["[orders.defend] retreat to[1]", "[orders.defend] sea_retreat to[1]"]


def test_cycle_7_god_names_and_retreat_words_any_case() -> None:
    s = of_kind("bid")[0]
    god = s.state["gods"]["track"][0]
    orders = {"bids": [{"god": god.upper(), "offer": 1}, {"god": "Apollo"}],
              "defend": {"retreat": {"when": "At_Most", "units": 1},
                         "casualties": ["Troop", "HERO"]}}
    assert RULESET.validate(s.state, s.phase, s.phase.actors[0], orders) == []


# --- Cycle 8: actions -----------------------------------------------------------------------


def test_cycle_8_4_build_on_another_players_territory_is_refused_at_submit() -> None:
    s = _act_stop(("athena", "zeus", "poseidon", "ares"))
    god = s.phase.id.rsplit(".", 1)[1]
    building = C.god(god).build.building  # type: ignore[union-attr]
    orders = {"actions": [{"do": "build", "building": building, "territory": _enemy_land(s)}]}
    problems = RULESET.validate(s.state, s.phase, _actor(s), orders)
    assert [p.where for p in problems] == ["[orders] actions[0]"], problems
    assert "is not yours" in problems[0].message


def test_cycle_8_4_gold_spent_by_earlier_actions_is_counted_at_submit() -> None:
    s = _act_stop(("athena", "zeus", "poseidon", "ares"),
                  lambda s: territories_of(s.state, s.phase.actors[0]))
    god = s.phase.id.rsplit(".", 1)[1]
    me = _actor(s)
    building = C.god(god).build.building  # type: ignore[union-attr]
    mine = territories_of(s.state, me)[0]
    many = [{"do": "build", "building": building, "territory": mine}] * 12
    problems = RULESET.validate(s.state, s.phase, me, {"actions": many})
    assert problems and all("would be skipped" in p.message for p in problems), problems


def test_cycle_8_3_free_recruit_place_is_checked_at_submit() -> None:
    s = _act_stop(("ares",))
    problems = RULESET.validate(s.state, s.phase, _actor(s),
                                {"free": {"territory": _enemy_land(s)}})
    assert [p.where for p in problems] == ["[orders] free"], problems


def test_cycle_8_3_free_recruit_place_any_case() -> None:
    s = _act_stop(("ares",), lambda s: territories_of(s.state, s.phase.actors[0]))
    mine = territories_of(s.state, _actor(s))[0]
    assert RULESET.validate(s.state, s.phase, _actor(s),
                            {"free": {"territory": mine.upper()}}) == []


def test_cycle_8_4_unknown_name_lists_the_closest_choices() -> None:
    s = _act_stop(("ares",))
    problems = RULESET.validate(s.state, s.phase, _actor(s),
                                {"actions": [{"do": "Move", "from": "naxxos", "to": "paros",
                                              "troops": 1}]})
    assert any(p.where == "[orders] actions[0].from" and "did you mean naxos" in p.hint
               for p in problems), problems


def test_cycle_8_4_actions_after_a_battle_are_provisional_and_named() -> None:
    """Battle 1: an attack's dice decide what is left for the actions after it; the receipt
    says so for those actions, and only for them."""
    found = 0
    for s in of_kind("act"):
        me = _actor(s)
        god = s.phase.id.rsplit(".", 1)[1]
        acts = s.orders[me].get("actions", [])
        battle_at = [i for i, a in enumerate(acts) if a["do"] in ("move", "sail")]
        if god != "ares" or not battle_at:
            continue
        steps = actions.rehearse(C, board_of(s.state), s.state, god, me, s.orders[me])
        waits = [st for st in steps if st.waits]
        if not waits:
            continue
        notes = RULESET.provisional(s.state, s.phase, me, s.orders[me])
        assert [n.where for n in notes] == [st.where for st in waits]
        assert all("dice" in n.message or "card" in n.message or "gold" in n.message
                   for n in notes), notes
        found += 1
    assert found, "no bot turn fought a battle before another action"


def test_forgotten_1_apollo_prosperity_any_case_and_first_only() -> None:
    s = _act_stop(("apollo",))
    me = _actor(s)
    terr = s.orders[me]["actions"][0]["territory"]
    orders = {"actions": [{"do": "PROSPERITY", "territory": terr.upper()}]}
    assert RULESET.validate(s.state, s.phase, me, orders) == []
    a = RULESET.resolve(copy.deepcopy(s.state), s.phase, {me: orders}, rng("y"))
    assert not _skips(a.events)

"""The Cyclades action phase (Cycle 8), god actions, movement and battles, Metropolises,
Monuments and Apollo: pbem.games.cyclades.actions (with warfare.py and metropolis.py).

Scenes are built by hand on the three-player Vanilla board (tests/cyclades/act_scenario.py);
each test is named after the seed clause it checks. Known values are worked out in comments.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from pbem.games.cyclades import actions, metropolis
from pbem.games.cyclades.state import metropolises_of
from pbem.games.cyclades.turn import income_of
from tests.budget import examples
from tests.cyclades.act_scenario import (
    TITANS,
    VANILLA,
    C,
    fleet,
    land,
    new_state,
    of_type,
    play,
    rng,
    search,
    skipped,
    turn,
)

# Vanilla-3 geometry used below (data/boards/vanilla-3.toml): sea G5 touches Naxos and Paros,
# so one fleet there links them; H4 touches Delos and Naxos; G4 touches Naxos.


def problems_of(god: str, orders: dict[str, Any], state: dict[str, Any] | None = None,
                player: str = "ann") -> list[str]:
    st = state or new_state()
    return [f"{p.where}: {p.message}" for p in
            actions.validate_act(C, VANILLA, st, god, player, orders)]


# --- validation (static) ----------------------------------------------------------------------


def test_cycle_8_3_empty_form_is_valid_and_means_the_default() -> None:
    st = new_state()
    land(st, "naxos", "ann", 1)
    assert problems_of("ares", {}, st) == []
    assert actions.default_act(C, VANILLA, st, "ares", "ann") == {"free": {"territory": "naxos"}}
    assert actions.default_act(C, VANILLA, st, "zeus", "ann") == {}
    twin = copy.deepcopy(st)
    play(st, "ares", "ann", {})
    play(twin, "ares", "ann", actions.default_act(C, VANILLA, twin, "ares", "ann"))
    assert st == twin
    assert st["territories"]["naxos"]["troops"] == 2  # the free troop (Cycle 8.3)


def test_cycle_8_4_validation_names_every_problem_with_where() -> None:
    orders = {"actions": [{"do": "recruit", "count": 0, "territory": "atlantis"},
                          {"do": "fly"},
                          {"do": "build", "building": "port", "territory": "naxos"},
                          {"do": "move", "from": "naxos", "to": "paros"}],
              "bogus": 1, "attack": {"retreat": {"when": "sometimes"}}}
    found = problems_of("ares", orders)
    assert any(p.startswith("[orders] bogus") for p in found)
    assert any(p.startswith("[orders] actions[0].count") for p in found)
    assert any(p.startswith("[orders] actions[0].territory") for p in found)
    assert any(p.startswith("[orders] actions[1].do") for p in found)
    assert any(p.startswith("[orders] actions[2].building") and "fortress" in p for p in found)
    assert any(p.startswith("[orders] actions[3]") and "no unit" in p for p in found)
    assert any("name a sea" in p for p in problems_of(
        "poseidon", {"actions": [{"do": "recruit", "count": 1, "territory": "naxos"}]}))
    assert any("retreat when" in p for p in found)


def test_forgotten_1_apollo_player_barred_from_buying() -> None:
    for raw in ({"do": "buy", "slot": 1}, {"do": "titan_move", "from": "naxos",
                                           "to": "paros", "titans": 1},
                {"do": "special_attack", "egyptian": "mummy", "from": "naxos", "to": "paros"},
                {"do": "monument", "monument": "temple_of_ares", "territory": "naxos"}):
        found = problems_of("apollo", {"actions": [raw]})
        assert any("Forgotten 1" in p for p in found), raw
    st = new_state()
    st["hands"]["ann"]["heroes"] = ["achilles"]
    found = problems_of("apollo", {"actions": [{"do": "sacrifice", "hero": "achilles"}]}, st)
    assert any("sacrifice Heroes" in p for p in found)
    # Zeus may buy; on this blank state only the empty slot is refused, at submit (issue 12).
    assert problems_of("zeus", {"actions": [{"do": "buy", "slot": 1}]}) == [
        "[orders] actions[0]: action 1 (buy) would be skipped when your turn runs: slot 1 is "
        "empty"]
    assert any("Cycle 7.3" in p for p in problems_of(
        "zeus", {"actions": [{"do": "prosperity", "territory": "naxos"}]}))


def test_forgotten_1_apollo_first_player_may_place_the_marker() -> None:
    st = new_state()
    st["auction"] = {"apollo": ["bob", "ann"], "prosperity": "bob"}
    orders = {"actions": [{"do": "prosperity", "territory": "naxos"}]}
    assert problems_of("apollo", orders, st, player="bob") == []
    assert any("first player" in p for p in problems_of("apollo", orders, st, player="ann"))


# --- Cycle 8.2-8.5 ----------------------------------------------------------------------------


def test_cycle_8_3_free_recruit_first_then_paid_at_the_next_price() -> None:
    st = new_state()
    land(st, "naxos", "ann", 1)
    land(st, "paros", "ann", 0)
    public, private = play(st, "ares", "ann", {
        "free": {"territory": "paros"},
        "actions": [{"do": "recruit", "count": 2, "territory": "naxos"}]})
    recruits = of_type(public, "recruit")
    assert [r["free"] for r in recruits] == [True, False]
    assert recruits[0]["where"] == "paros" and recruits[0]["rule"] == "Cycle 8.3"
    # Base rules, Ares 0/2/3/4: after the free one, two more cost 2 + 3 = 5.
    assert recruits[1]["price"] == 5
    assert st["gold"]["ann"] == 15
    assert (st["territories"]["paros"]["troops"], st["territories"]["naxos"]["troops"]) == (1, 3)
    # Gold stays behind the screen: only ann's private events carry her total.
    assert all("gold" not in e for e in public)
    assert private["ann"][-1]["gold"] == 15


def test_cycle_8_5_pillar_finishes() -> None:
    st = new_state()
    land(st, "naxos", "ann", 1)
    play(st, "zeus", "ann", {})
    assert st["acting"]["finished"] == ["ann"]
    assert st["hands"]["ann"]["priest"] == 1 and st["supply"]["priest"] == 16


def test_cycle_8_4_action_skipped_when_no_longer_legal_or_unaffordable() -> None:
    st = new_state(gold=3)
    land(st, "naxos", "ann", 1)
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "recruit", "count": 1, "territory": "naxos"},     # 2 gold: paid
        {"do": "recruit", "count": 1, "territory": "naxos"},     # 3 gold: 1 left, skipped
        {"do": "build", "building": "fortress", "territory": "paros"}]})  # not ann's
    reasons = skipped(public)
    assert len(reasons) == 2
    assert "not enough gold" in reasons[0] and "paros is not yours" in reasons[1]
    assert st["gold"]["ann"] == 1  # never below 0


# --- movement and battles ---------------------------------------------------------------------


def test_base_ares_move_along_own_fleets() -> None:
    st = new_state()
    land(st, "naxos", "ann", 3)
    fleet(st, "G5", "ann")
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 2},
        {"do": "move", "from": "paros", "to": "delos", "troops": 1}]})  # no chain to Delos
    assert st["territories"]["paros"] == {**st["territories"]["paros"], "owner": "ann",
                                          "troops": 2}
    assert "chain of your fleets" in skipped(public)[0]
    assert st["gold"]["ann"] == 19  # one move at 1 gold


def test_forgotten_8_defenseless_territory_taken() -> None:
    st = new_state()
    land(st, "naxos", "ann", 2)
    land(st, "paros", "bob", 0, buildings=["fortress", "temple"])
    land(st, "delos", "bob", 1)
    fleet(st, "G5", "ann")
    r = rng("defenseless")
    public, _ = actions.resolve_act(C, VANILLA, st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1}]}, r)
    assert of_type(public, "defenseless")
    assert not r.public.draws  # no die was rolled
    conquest = of_type(public, "conquest")[0]
    assert conquest["from"] == "bob" and conquest["last_territory"] is False
    assert st["territories"]["paros"]["owner"] == "ann"
    assert st["territories"]["paros"]["buildings"] == ["fortress", "temple"]


def test_forgotten_6_last_territory_protected() -> None:
    st = new_state()
    land(st, "naxos", "ann", 3)
    land(st, "paros", "bob", 1)
    fleet(st, "G5", "ann")
    before = copy.deepcopy(st)
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 3}]})
    assert "Forgotten 6" in skipped(public)[0]
    assert st["territories"]["paros"] == before["territories"]["paros"]
    assert st["territories"]["naxos"]["troops"] == 3 + 1   # only the free troop arrived
    assert st["gold"]["ann"] == 20  # nothing paid for a refused move


def test_forgotten_6_last_territory_attack_allowed_when_its_artifact_completes_the_set() -> None:
    # Taking Bob's last territory brings Ann the fifth artifact: Victory 2, an immediate
    # victory, so Forgotten 6 allows the attack (and the game ends at once).
    st = new_state()
    land(st, "naxos", "ann", 3, artifacts=["aegis", "caduceus", "golden_fleece", "harpe"])
    land(st, "paros", "bob", 0, artifacts=["pandoras_jar"])
    fleet(st, "G5", "ann")
    assert metropolis.would_win(C, VANILLA, st, "ann", "paros")
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1}]})
    assert of_type(public, "conquest")[0]["last_territory"] is True
    assert len(st["hands"]["ann"]["artifacts"]) == 5


def test_forgotten_6_last_territory_attack_allowed_when_it_wins_at_once() -> None:
    st = new_state()
    land(st, "naxos", "ann", 3)
    land(st, "milos", "ann", 0, metropolis=True)      # ann's first Metropolis
    land(st, "paros", "bob", 0, metropolis=True)      # bob's only territory
    fleet(st, "G5", "ann")
    fleet(st, "E5", "bob", 2)
    assert metropolis.would_win(C, VANILLA, st, "ann", "paros")
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1}]})
    conquest = of_type(public, "conquest")[0]
    assert conquest["last_territory"] is True
    assert metropolises_of(st, "ann") == 2
    # Forgotten 6: an eliminated player's possessions leave the board.
    assert st["eliminated"] == ["bob"] and st["seas"]["E5"]["fleets"] == 0


def test_forgotten_6_last_territory_win_by_buildings_completing_a_metropolis() -> None:
    st = new_state()
    land(st, "naxos", "ann", 3, buildings=["port", "fortress"])
    land(st, "milos", "ann", 0, metropolis=True)
    land(st, "paros", "bob", 0, buildings=["temple", "university"])
    # Taking Paros completes ann's four buildings: her second Metropolis at once.
    assert metropolis.would_win(C, VANILLA, st, "ann", "paros")
    st["territories"]["paros"]["buildings"] = ["temple"]
    assert not metropolis.would_win(C, VANILLA, st, "ann", "paros")


def test_team_4_no_attacking_allies() -> None:
    st = new_state(teams={"ann": "red", "cat": "red", "bob": "blue"})
    land(st, "naxos", "ann", 2)
    land(st, "paros", "cat", 1)
    land(st, "milos", "cat", 1)
    fleet(st, "G5", "ann")
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1}]})
    assert "Team 4" in skipped(public)[0]


def _sea_scene() -> dict[str, Any]:
    # Sea A5 (by Milos) has one neighbour, B5: every sail out of A5 passes B5.
    st = new_state()
    land(st, "milos", "ann", 1)
    fleet(st, "A5", "ann", 3)
    fleet(st, "B5", "bob", 1)
    land(st, "serifos", "bob", 1)
    land(st, "kea", "bob", 1)
    return st


def test_forgotten_9_fleet_stops_at_battle_and_sails_on_paying_again() -> None:
    beyond = "B6"   # two steps from A5, through B5 only
    assert "B6" in VANILLA.fleet_paths("A5", 3)
    assert "B6" not in VANILLA.fleet_paths("A5", 3, blocked={"B5"})
    orders = {"free": {"sea": "A5"},
              "actions": [{"do": "sail", "from": "A5", "to": beyond, "fleets": 3},
                          {"do": "sail", "from": "A5", "to": "B5", "fleets": 3},
                          {"do": "sail", "from": "B5", "to": beyond, "fleets": 3}]}

    def run(st: dict[str, Any], key: str) -> list[dict[str, Any]]:
        return play(st, "poseidon", "ann", orders, key=key)[0]

    # A key where ann's three fleets win at B5 without loss (3 + die against 1 + die, a
    # Serifos without a Port: a round is lost only when bob's die beats ann's by 2 or more).
    st, public, _ = search(_sea_scene, run, lambda s, ev: s["seas"][beyond]["fleets"] == 3)
    assert "out of reach" in skipped(public)[0]     # no sailing through a battle
    assert [e["dst"] for e in of_type(public, "sail")] == ["B5", beyond]
    assert of_type(public, "battle")[0]["where"] == "B5"
    assert st["gold"]["ann"] == 18                  # two sails, 1 gold each
    assert st["seas"]["B5"]["owner"] == "" and st["seas"][beyond]["owner"] == "ann"
    assert st["seas"]["A5"]["fleets"] == 1          # the free fleet (Cycle 8.3) stayed


def test_battle_1_2_ports_of_defender_count_at_sea() -> None:
    st = _sea_scene()
    st["territories"]["serifos"]["buildings"] = ["port"]   # Serifos touches B5: +1 to bob
    st["territories"]["kea"]["buildings"] = ["port"]       # Kea does not
    public, _ = play(st, "poseidon", "ann", {"actions": [
        {"do": "sail", "from": "A5", "to": "B5", "fleets": 3}]})
    first = of_type(public, "battle_round")[0]
    assert {"source": "port", "value": 1} in first["defender"]["breakdown"]
    assert of_type(public, "battle")[0]["buildings"] == {"port": 1}


def _attack_paros_until_a_retreat(retreat: dict[str, Any], *, syros: bool = False
                                  ) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """Ann attacks Paros from Naxos with 3 of her 4 troops under the standing ``retreat``
    (``syros``: she also holds Syros, linked by her fleets); the first dice key giving a
    retreat. Returns the state, the events and the attacker's troops lost."""
    def build() -> dict[str, Any]:
        st = new_state()
        land(st, "naxos", "ann", 4)
        land(st, "paros", "bob", 4)
        land(st, "milos", "bob", 1)
        fleet(st, "G5", "ann")
        if syros:
            land(st, "syros", "ann", 1)
            fleet(st, "E4", "ann")
            fleet(st, "F3", "ann")
        return st

    orders = {"actions": [{"do": "move", "from": "naxos", "to": "paros", "troops": 3}],
              "attack": {"retreat": retreat}}
    st, public, _ = search(build, lambda s, k: play(s, "ares", "ann", orders, key=k)[0],
                           lambda s, ev: bool(of_type(ev, "retreat")))
    lost = sum(1 for r in of_type(public, "battle_round") for cas in r["casualties"]
               if cas["side"] == "attacker")
    return st, public, lost


def test_battle_2_attacker_standing_retreat_to_where_it_came_from() -> None:
    st, public, lost = _attack_paros_until_a_retreat({"when": "after_rounds", "rounds": 1})
    assert len(of_type(public, "battle_round")) == 1
    assert of_type(public, "retreat")[0]["player"] == "ann"
    assert st["territories"]["paros"]["owner"] == "bob"
    # 4, less the 3 that left, plus the free troop (Cycle 8.3), plus the 3 less the fallen.
    assert st["territories"]["naxos"]["troops"] == 1 + 1 + 3 - lost


def test_battle_2_retreat_goes_where_the_order_s_to_says() -> None:
    # "the offense may choose to retreat to an adjacent or Fleet-linked and controlled
    # territory": the player chooses; ``to`` names it ahead (first choice first).
    st, _, lost = _attack_paros_until_a_retreat(
        {"when": "after_rounds", "rounds": 1, "to": ["syros"]}, syros=True)
    assert st["territories"]["syros"]["troops"] == 1 + 3 - lost   # not back to Naxos
    assert st["territories"]["naxos"]["troops"] == 1 + 1          # the rest and the free one


def test_misc_necropolis_2_gold_from_regular_troops_only() -> None:
    def build() -> dict[str, Any]:
        st = new_state()
        land(st, "naxos", "ann", 3, titans=1)
        land(st, "paros", "bob", 1, heroes=["achilles"])
        land(st, "milos", "bob", 1)
        land(st, "kea", "cat", 0, buildings=["necropolis"])
        fleet(st, "G5", "ann")
        return st

    orders = {"actions": [{"do": "move", "from": "naxos", "to": "paros", "troops": 3,
                           "titans": 1}]}
    # A battle where the hero or the Titan died too, so that not every loss is a troop.
    st, public, _ = search(
        build, lambda s, k: play(s, "ares", "ann", orders, key=k)[0],
        lambda s, ev: any(u["kind"] in ("hero", "titan") for e in of_type(ev, "battle_end")
                          for side in e["losses"].values() for u in side))
    end = of_type(public, "battle_end")[0]
    troops = sum(1 for side in end["losses"].values() for u in side if u["kind"] == "troop")
    assert st["territories"]["kea"]["necropolis_gold"] == troops
    if any(u["kind"] == "hero" for u in end["losses"]["defender"]):
        assert "achilles" in st["creature_track"]["removed"]   # dead, never discarded


def test_misc_necropolis_1_later_hades_winner_moves_it_leaving_the_gold() -> None:
    st = new_state()
    st["hades"]["active"] = True
    land(st, "naxos", "ann", 1)
    land(st, "paros", "bob", 1, buildings=["necropolis"], necropolis_gold=3)
    public, _ = play(st, "hades", "ann", {"actions": [
        {"do": "build", "building": "necropolis", "territory": "naxos"}]})
    assert st["territories"]["paros"]["buildings"] == []
    assert st["territories"]["paros"]["necropolis_gold"] == 3
    assert st["territories"]["naxos"]["buildings"] == ["necropolis"]
    assert of_type(public, "necropolis_moved")


def test_base_hades_moves_carry_an_undead() -> None:
    st = new_state()
    land(st, "naxos", "ann", 2)
    fleet(st, "G5", "ann")
    public, _ = play(st, "hades", "ann", {"free": {"territory": "naxos"}, "actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1},
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1, "undead": 1}]})
    assert "undead" in skipped(public)[0]
    assert st["territories"]["paros"]["undead"] == 1


# --- Titans and Egyptians ---------------------------------------------------------------------


def test_misc_titans_1_titan_move_prices_1_2_3() -> None:
    st = new_state(TITANS)
    land(st, "knossos", "ann", 1, titans=1)
    land(st, "gortyn", "ann", 0)
    hops = [("knossos", "gortyn"), ("gortyn", "knossos"), ("knossos", "gortyn")]
    play(st, "zeus", "ann", {"actions": [
        {"do": "titan_move", "from": a, "to": b, "titans": 1} for a, b in hops]})
    assert st["gold"]["ann"] == 20 - (1 + 2 + 3)
    assert st["territories"]["gortyn"]["titans"] == 1
    # "during your turn ... the number of previous movements": a second turn of the same
    # cycle (two players) starts again at 1.
    play(st, "ares", "ann", {"actions": [
        {"do": "titan_move", "from": "gortyn", "to": "knossos", "titans": 1, "troops": 0}]})
    assert st["gold"]["ann"] == 14 - 1


def _phoenix_attacks(*moves: tuple[str, str, int]) -> tuple[dict[str, Any], list[Any]]:
    """Ann, with Zeus, holds Naxos (2 troops and the Phoenix) and an empty Syros, and orders
    the Phoenix's special attacks ``(from, to, troops)`` in turn."""
    st = new_state()
    land(st, "naxos", "ann", 2, egyptians=["phoenix"])
    land(st, "syros", "ann", 0)
    public, _ = play(st, "zeus", "ann", {"actions": [
        {"do": "special_attack", "egyptian": "phoenix", "from": a, "to": b, "troops": n}
        for a, b, n in moves]})
    return st, public


def test_misc_egyptian_reinforcements_4_5_special_attack_once_per_turn_for_1_gold() -> None:
    st, public = _phoenix_attacks(("naxos", "kea", 1), ("kea", "syros", 0))
    # The Phoenix flies: Kea is reached with no fleet at all.
    assert st["territories"]["kea"]["egyptians"] == ["phoenix"]
    assert "Misc Egyptian Reinforcements 5" in skipped(public)[0]
    assert st["gold"]["ann"] == 19


def test_misc_egyptian_reinforcements_4_a_special_attack_is_not_a_move_home() -> None:
    # "pay 1GP to initiate a special attack": not a 1-gold move between one's own
    # territories with any god (that would be an Ares move without Ares).
    st, public = _phoenix_attacks(("naxos", "syros", 1))
    assert "a special attack goes into a territory you do not hold" in skipped(public)[0]
    assert st["territories"]["naxos"]["egyptians"] == ["phoenix"]
    assert st["gold"]["ann"] == 20


def test_misc_egyptian_reinforcements_3_moved_by_ares_no_ability() -> None:
    st = new_state()
    land(st, "naxos", "ann", 1, egyptians=["scorpion"])
    land(st, "paros", "bob", 2)
    land(st, "milos", "bob", 1)
    fleet(st, "G5", "ann")
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1,
         "egyptians": ["scorpion"]}]})
    assert not of_type(public, "strike")


# --- Metropolises and Monuments ---------------------------------------------------------------


def test_base_metropolis_from_four_buildings_and_special_to_first_builder() -> None:
    st = new_state()
    st["metropolises"]["offer"] = ["metropolis_of_trade", "naval_metropolis"]
    land(st, "naxos", "ann", 1, buildings=["port", "fortress"])
    land(st, "paros", "ann", 1, buildings=["temple"])
    public, _ = play(st, "athena", "ann", {
        "metropolis": ["paros"], "special_metropolis": ["naval_metropolis"],
        "actions": [{"do": "build", "building": "university", "territory": "naxos"}]})
    assert st["territories"]["paros"]["metropolis"] is True
    assert st["territories"]["naxos"]["buildings"] == [] == st["territories"]["paros"][
        "buildings"]
    assert st["metropolises"]["held"] == {"naval_metropolis": "ann"}
    assert st["metropolises"]["where"] == {"naval_metropolis": "paros"}
    assert st["hands"]["ann"]["metropolises"] == ["naval_metropolis"]
    assert of_type(public, "special_metropolis")[0]["rule"] == "Misc Special Metropolis 1"


def test_base_metropolis_from_four_philosophers_second_builder_gets_no_card() -> None:
    st = new_state()
    st["metropolises"] = {"offer": ["naval_metropolis"], "held": {"metropolis_of_trade": "bob"},
                          "where": {"metropolis_of_trade": "kea"}}
    land(st, "naxos", "ann", 1)
    st["hands"]["ann"]["philosopher"] = 3
    play(st, "athena", "ann", {})   # the free philosopher is the fourth
    assert st["territories"]["naxos"]["metropolis"] is True
    assert st["hands"]["ann"]["philosopher"] == 0 and st["supply"]["philosopher"] == 17 - 1 + 4
    assert st["metropolises"]["offer"] == ["naval_metropolis"]


def test_base_metropolis_lost_without_a_free_square() -> None:
    st = new_state(TITANS)
    land(st, "aptera", "ann", 1)   # no Metropolis square on Aptera
    st["hands"]["ann"]["philosopher"] = 3
    public, _ = play(st, "athena", "ann", {})
    assert of_type(public, "metropolis_lost")
    assert st["hands"]["ann"]["philosopher"] == 0 and metropolises_of(st, "ann") == 0


def test_misc_special_metropolis_1_conqueror_gains_the_power() -> None:
    st = new_state()
    st["metropolises"] = {"offer": [], "held": {"metropolis_of_trade": "bob"},
                          "where": {"metropolis_of_trade": "paros"}}
    st["hands"]["bob"]["metropolises"] = ["metropolis_of_trade"]
    land(st, "naxos", "ann", 2)
    land(st, "paros", "bob", 0, metropolis=True)
    land(st, "milos", "bob", 1)
    fleet(st, "G5", "ann")
    before = income_of(C, VANILLA, st, "ann")
    play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1}]})
    assert st["metropolises"]["held"] == {"metropolis_of_trade": "ann"}
    assert st["hands"]["ann"]["metropolises"] == ["metropolis_of_trade"]
    assert st["hands"]["bob"]["metropolises"] == []
    # Paros's cornucopia (1) and the card's +2 income (metropolises.toml) now count for ann.
    assert income_of(C, VANILLA, st, "ann") == before + 1 + 2


def test_misc_monuments_1_from_two_buildings_including_conquest() -> None:
    st = new_state()
    st["monuments"]["offer"] = ["temple_of_poseidon", "great_temple_of_zeus"]
    land(st, "naxos", "ann", 2, buildings=["temple"])
    land(st, "paros", "bob", 0, buildings=["port"])
    land(st, "milos", "bob", 1)
    fleet(st, "G5", "ann")
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "monument", "monument": "temple_of_poseidon", "territory": "naxos"},
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1},
        {"do": "monument", "monument": "temple_of_poseidon", "territory": "naxos"}]})
    assert "blue and white" in skipped(public)[0]   # before the conquest: no blue building
    assert st["monuments"]["built"] == {"temple_of_poseidon": {"owner": "ann",
                                                               "territory": "naxos"}}
    assert st["territories"]["naxos"]["monuments"] == ["temple_of_poseidon"]
    assert st["territories"]["paros"]["buildings"] == ["port"]   # buildings stay
    assert len(st["territories"]["naxos"]["buildings"]) == 1      # no building space used


def test_misc_monuments_1_never_with_a_theater() -> None:
    st = new_state()
    st["monuments"]["offer"] = ["great_temple_of_zeus"]
    land(st, "naxos", "ann", 1, buildings=["temple", "theater"])
    public, _ = play(st, "zeus", "ann", {"actions": [
        {"do": "monument", "monument": "great_temple_of_zeus", "territory": "naxos"}]})
    assert skipped(public) and not st["monuments"]["built"]
    st["territories"]["naxos"]["buildings"] = ["temple", "temple"]
    play(st, "zeus", "ann", {"actions": [
        {"do": "monument", "monument": "great_temple_of_zeus", "territory": "naxos"}]})
    assert "great_temple_of_zeus" in st["monuments"]["built"]


def test_misc_monuments_1_conquered_monument_changes_hands() -> None:
    st = new_state()
    st["monuments"]["built"] = {"temple_of_ares": {"owner": "bob", "territory": "paros"}}
    land(st, "paros", "bob", 0, monuments=["temple_of_ares"])
    land(st, "milos", "bob", 1)
    land(st, "naxos", "ann", 2)
    fleet(st, "G5", "ann")
    play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1}]})
    assert st["monuments"]["built"]["temple_of_ares"]["owner"] == "ann"
    assert st["hands"]["ann"]["monuments"] == ["temple_of_ares"]


# --- Apollo -----------------------------------------------------------------------------------


def test_cycle_7_3_apollo_income_1_and_4_and_first_marker_anywhere() -> None:
    st = new_state(gold=0)
    land(st, "naxos", "ann", 1)
    land(st, "paros", "ann", 1)
    land(st, "milos", "bob", 1)
    st["auction"] = {"apollo": ["ann", "bob"], "prosperity": "ann"}
    public, private = actions.resolve_apollo(C, VANILLA, st, {"actions": [
        {"do": "prosperity", "territory": "milos"}]}, rng())
    assert st["gold"] == {"ann": 1, "bob": 4, "cat": 0}
    assert st["territories"]["milos"]["prosperity"] == 1     # even one she does not control
    assert st["supply"]["prosperity"] == 30
    assert st["acting"]["finished"] == ["ann", "bob"]
    assert private["bob"][0]["change"] == 4
    assert all("change" not in e for e in public)


def test_forgotten_4_two_player_both_pillars_on_apollo_8_gold_one_marker() -> None:
    st = new_state(players=("ann", "bob"), two_player=True, gold=0)
    land(st, "naxos", "ann", 1)
    land(st, "paros", "bob", 1)
    land(st, "milos", "bob", 1)
    st["auction"] = {"apollo": ["ann.1", "ann.2"], "prosperity": "ann.1"}
    actions.resolve_apollo(C, VANILLA, st, {}, rng())
    assert st["gold"]["ann"] == 8
    assert st["territories"]["naxos"]["prosperity"] == 1   # the default: her territory
    assert st["supply"]["prosperity"] == 30


def test_forgotten_4_one_island_is_islands_not_territories_on_the_titans_board() -> None:
    # Ann holds two territories of Crete (the usual Titans start, Setup 9.1): one island, so
    # her two Apollo pillars take 4 + 4 = 8 gold; Bob, on Crete and Euboea, takes 1.
    st = new_state(TITANS, players=("ann", "bob"), two_player=True, gold=0)
    land(st, "knossos", "ann", 1)
    land(st, "gortyn", "ann", 1)
    land(st, "chalcis", "bob", 1)
    land(st, "kydonia", "bob", 1)
    st["auction"] = {"apollo": ["ann.1", "ann.2", "bob.1"], "prosperity": "ann.1"}
    actions.resolve_apollo(C, TITANS, st, {}, rng())
    assert st["gold"]["ann"] == 8
    assert st["gold"]["bob"] == 1


def test_default_act_on_apollo_is_the_marker_for_the_first_only() -> None:
    st = new_state()
    land(st, "paros", "bob", 1)
    st["auction"] = {"apollo": ["bob", "ann"], "prosperity": "bob"}
    assert actions.default_act(C, VANILLA, st, "apollo", "bob") == {
        "actions": [{"do": "prosperity", "territory": "paros"}]}
    assert actions.default_act(C, VANILLA, st, "apollo", "ann") == {}


# --- building ---------------------------------------------------------------------------------


def test_base_build_needs_a_free_space_and_kronos_builds_a_god_above() -> None:
    st = new_state()
    land(st, "delos", "ann", 1, buildings=["port"])   # Delos has one building space
    land(st, "naxos", "ann", 1)
    st["gods"]["track"] = ["athena", "kronos", "ares"]
    public, _ = play(st, "kronos", "ann", {"actions": [
        {"do": "build", "building": "university", "territory": "delos"},
        {"do": "build", "building": "fortress", "territory": "naxos"},
        {"do": "build", "building": "university", "territory": "naxos"}]})
    reasons = skipped(public)
    assert "no free building space" in reasons[0] and "not a fortress" in reasons[1]
    assert st["territories"]["naxos"]["buildings"] == ["university"]
    t = turn(st, god="kronos")
    assert actions._buildable(t) == ["university"]


def test_base_kronos_free_titan_only_from_the_top() -> None:
    st = new_state()
    land(st, "naxos", "ann", 1)
    st["gods"]["track"] = ["ares", "kronos"]
    public, _ = play(st, "kronos", "ann", {})
    assert st["territories"]["naxos"]["titans"] == 0 and of_type(public, "no_free_recruit")
    st["gods"]["track"] = ["kronos", "ares"]
    play(st, "kronos", "ann", {})
    assert st["territories"]["naxos"]["titans"] == 1


# --- artifacts, teams, robustness -------------------------------------------------------------


def test_misc_artifacts_and_heroes_3_artifact_moves_with_units_and_falls_to_the_defender() -> None:
    st = new_state()
    land(st, "naxos", "ann", 2, artifacts=["aegis"])
    land(st, "delos", "ann", 0)
    fleet(st, "H4", "ann")
    play(st, "ares", "ann", {"free": {"territory": "naxos"}, "actions": [
        {"do": "move", "from": "naxos", "to": "delos", "troops": 1, "artifacts": ["aegis"]}]})
    assert st["territories"]["delos"]["artifacts"] == ["aegis"]
    assert st["territories"]["naxos"]["artifacts"] == []
    # Carried into a lost battle, it stays on the battlefield with its holder (our reading).
    land(st, "paros", "bob", 6)
    land(st, "milos", "bob", 1)
    fleet(st, "G5", "ann")
    play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "delos", "to": "naxos", "troops": 1, "artifacts": ["aegis"]},
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1, "artifacts": ["aegis"]}]})
    held = "ann" if st["territories"]["paros"]["owner"] == "ann" else "bob"
    assert st["territories"]["paros"]["artifacts"] == ["aegis"]
    assert st["hands"][held]["artifacts"] == ["aegis"]


def test_team_4_fleets_never_cross_allied_seas() -> None:
    st = new_state(teams={"ann": "red", "cat": "red", "bob": "blue"})
    land(st, "milos", "ann", 1)
    land(st, "kea", "cat", 1)
    fleet(st, "A5", "ann", 1)
    fleet(st, "B5", "cat", 1)    # A5's only way out
    public, _ = play(st, "poseidon", "ann", {"free": {"sea": "A5"}, "actions": [
        {"do": "sail", "from": "A5", "to": "B5", "fleets": 1},
        {"do": "sail", "from": "A5", "to": "B6", "fleets": 1}]})
    assert all("out of reach" in r for r in skipped(public)) and len(skipped(public)) == 2


_garbage = hs.recursive(
    hs.one_of(hs.none(), hs.booleans(), hs.integers(-3, 9), hs.sampled_from(
        ["naxos", "paros", "G5", "A5", "fortress", "harpy", "achilles", "mummy", "bob", "x",
         "move", "sail", "buy", "recruit", "build", "swap", "item", "sacrifice",
         "special_attack", "titan_move", "monument", "favor", "prosperity"])),
    lambda inner: hs.one_of(hs.lists(inner, max_size=3),
                            hs.dictionaries(hs.sampled_from(
                                ["do", "from", "to", "troops", "count", "slot", "territory",
                                 "sea", "target", "heroes", "building", "discount", "fleets",
                                 "egyptian", "hero", "item", "kinds", "sell", "titans"]),
                                inner, max_size=5)),
    max_leaves=12)


@settings(max_examples=examples(60), deadline=None)
@given(hs.lists(_garbage, max_size=4), hs.sampled_from(["ares", "poseidon", "zeus", "apollo"]))
def test_cycle_8_4_garbage_orders_never_raise(raw: list[Any], god: str) -> None:
    state = new_state()
    land(state, "naxos", "ann", 2, heroes=["achilles"], egyptians=["mummy"])
    land(state, "paros", "bob", 1)
    fleet(state, "G5", "ann")
    state["creature_track"]["slots"] = ["harpy", "achilles", "giant"]
    orders = {"actions": raw, "free": raw[0] if raw else None, "keep": raw}
    actions.validate_act(C, VANILLA, state, god, "ann", orders)
    if god != "apollo":
        actions.resolve_act(C, VANILLA, state, god, "ann", {"actions": raw}, rng())
        assert state["gold"]["ann"] >= 0

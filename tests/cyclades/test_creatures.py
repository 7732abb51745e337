"""The creature track and every power of the shipped data: pbem.games.cyclades.creatures and
effects (Cycle 8.2, 8.4.1-8.4.2, Forgotten 2, 3, 5, Misc Artifacts and Heroes, Misc Egyptian
Reinforcements, Misc Divine Favors, Misc Monuments, Misc Special Metropolis).

The last test is parametrised over every effect kind the data files use (creatures, hero
sacrifices, artifacts, Egyptian abilities, favors, magic items, monuments, special
Metropolises, god specials): each has a scene below that shows it change the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pbem.games.cyclades import actions, creatures
from pbem.games.cyclades.turn import income_of, territory_defence
from tests.cyclades.act_scenario import (
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
)

State = dict[str, Any]


def track(st: State, *slots: str, deck: tuple[str, ...] = ()) -> None:
    st["creature_track"]["slots"] = list(slots) + [""] * (3 - len(slots))
    st["creature_track"]["deck"] = list(deck)


def scene() -> State:
    """Ann on Naxos (2 troops) and Delos; Bob on Paros (2 troops) and Milos; a fleet of ann on
    G5 links Naxos and Paros."""
    st = new_state()
    land(st, "naxos", "ann", 2)
    land(st, "delos", "ann", 0)
    land(st, "paros", "bob", 2)
    land(st, "milos", "bob", 1)
    fleet(st, "G5", "ann")
    return st


def buy(slot: int, discount: int | None = None, /, **target: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"do": "buy", "slot": slot, "target": target}
    if discount is not None:
        out["discount"] = discount
    return out


# --- buying -----------------------------------------------------------------------------------


def test_cycle_8_4_1_temple_discount_spread_over_two_creatures() -> None:
    st = scene()
    st["territories"]["naxos"]["buildings"] = ["temple"]
    st["territories"]["delos"]["buildings"] = ["temple"]
    track(st, "fates", "fates", "fates")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(3, 1), buy(2, 1), buy(1, 1)]})
    # Two Temples: 1 off the 2-gold card and 1 off the 3-gold card; none left for the third.
    assert [e["price"] for e in of_type(public, "buy")] == [1, 2]
    assert "0 Temple discount(s) left" in skipped(public)[0]


def test_cycle_8_4_1_temple_discount_both_given_to_one_creature() -> None:
    st = scene()
    st["territories"]["naxos"]["buildings"] = ["temple", "temple"]
    track(st, "fates", "fates", "fates")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1, 2), buy(3, 0)]})
    assert [e["price"] for e in of_type(public, "buy")] == [4 - 2, 2]
    assert [e["temples"] for e in of_type(public, "buy")] == [2, 0]


def test_cycle_8_4_1_base_floor_one_gold_and_unused_temples_kept() -> None:
    st = scene()
    st["territories"]["naxos"]["buildings"] = ["temple", "temple"]
    track(st, "fates", "fates", "fates")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(3, 2), buy(2, 1)]})
    # 2 - 2 would be 0: a creature costs at least 1, so one Temple is spent and one kept.
    assert [(e["price"], e["temples"]) for e in of_type(public, "buy")] == [(1, 1), (2, 1)]


def test_cycle_8_4_1_a_buy_without_discount_uses_the_temples_left() -> None:
    # "Reduce the payment for creatures by 1 for each Temple you control": not asking for
    # it does not forfeit it. The first buy takes both Temples (4 - 2), none are left for
    # the second; an explicit discount = 0 keeps them.
    st = scene()
    st["territories"]["naxos"]["buildings"] = ["temple", "temple"]
    track(st, "fates", "fates", "fates")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1), buy(2)]})
    assert [(e["price"], e["temples"]) for e in of_type(public, "buy")] == [(2, 2), (3, 0)]
    st = scene()
    st["territories"]["naxos"]["buildings"] = ["temple"]
    track(st, "fates", "fates", "fates")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1, 0), buy(2)]})
    assert [(e["price"], e["temples"]) for e in of_type(public, "buy")] == [(4, 0), (2, 1)]


def test_misc_artifacts_and_heroes_2_no_temple_discount_on_heroes() -> None:
    st = scene()
    st["territories"]["naxos"]["buildings"] = ["temple"]
    track(st, "achilles", "aegis", "scorpion")
    public, _ = play(st, "zeus", "ann", {"actions": [
        buy(1, 1, territory="naxos"), buy(1, territory="naxos"),
        buy(2, territory="delos"), buy(3, territory="naxos")]})
    assert "Temples give no discount" in skipped(public)[0]
    assert [e["price"] for e in of_type(public, "buy")] == [4, 3, 2]
    assert st["territories"]["naxos"]["heroes"] == ["achilles"]
    assert st["hands"]["ann"]["artifacts"] == ["aegis"]
    assert st["territories"]["naxos"]["egyptians"] == ["scorpion"]
    assert st["creature_track"]["slots"] == ["", "", ""]


def test_cycle_8_4_2_creature_not_usable_is_not_bought() -> None:
    st = scene()
    track(st, "harpy")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1, territory="naxos")]})  # own
    assert "not an enemy" in skipped(public)[0]
    assert st["creature_track"]["slots"][0] == "harpy" and st["gold"]["ann"] == 20


def test_cycle_1_initial_card_bought_is_recorded() -> None:
    st = scene()
    st["cycle"] = 1
    st["creature_track"]["initial"] = "fates"
    track(st, "fates")
    play(st, "zeus", "ann", {"actions": [buy(1)]})
    assert st["creature_track"]["initial_bought"] is True
    assert st["creature_track"]["discard"] == ["fates"]
    assert st["hands"]["ann"]["bought"] == ["fates"]


# --- figures ----------------------------------------------------------------------------------


def test_forgotten_3_creature_placed_where_another_stands_destroys_both() -> None:
    st = scene()
    st["figures"]["minotaur"] = {"owner": "bob", "where": "paros", "cycle": 2}
    track(st, "medusa", "polyphemus")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1, territory="paros"),
                                                   buy(2, territory="naxos")]})
    assert set(of_type(public, "figures_destroyed")[0]["figures"]) == {"minotaur", "medusa"}
    assert st["figures"] == {"polyphemus": {"owner": "ann", "where": "naxos", "cycle": 2}}
    assert sorted(st["creature_track"]["discard"]) == ["medusa", "minotaur"]


def test_cycle_8_2_figure_leaves_in_its_second_cycle_unless_a_priestess_is_paid() -> None:
    st = scene()
    st["cycle"] = 3
    st["figures"] = {"minotaur": {"owner": "ann", "where": "naxos", "cycle": 2},
                     "medusa": {"owner": "ann", "where": "delos", "cycle": 2},
                     "polyphemus": {"owner": "ann", "where": "delos", "cycle": 3},
                     "kraken": {"owner": "bob", "where": "G4", "cycle": 2}}
    st["hands"]["ann"]["priestess"] = 1
    public, _ = play(st, "zeus", "ann", {"keep": ["medusa"]})
    assert sorted(st["figures"]) == ["kraken", "medusa", "polyphemus"]
    assert st["figures"]["medusa"]["cycle"] == 3          # one cycle more
    assert st["hands"]["ann"]["priestess"] == 0
    assert st["creature_track"]["discard"] == ["minotaur"]
    # Cycle 8.2 comes before the free recruit (8.3).
    types = [e["type"] for e in public]
    assert types.index("figure_leaves") < types.index("recruit")


def test_cycle_8_2_apollo_players_behind_the_first_keep_figures_by_their_sealed_bid() -> None:
    # Only the first pillar on Apollo has an act form; the others pay a Priestess to keep a
    # figure by the ``apollo_keep`` standing order of their bid (Cycle 8.2).
    from pbem.games.cyclades import game

    st = scene()
    st["cycle"] = 3
    st["figures"] = {"minotaur": {"owner": "bob", "where": "paros", "cycle": 2},
                     "medusa": {"owner": "bob", "where": "delos", "cycle": 2}}
    st["hands"]["bob"]["priestess"] = 1
    assert game._apollo_keep_problems(st, "bob", ["medusa"]) == []
    assert "not a creature figure of yours" in str(
        game._apollo_keep_problems(st, "ann", ["medusa"])[0])
    st["apollo_keep"] = {"bob": ["medusa"]}
    st["auction"] = {"apollo": ["ann", "bob"], "prosperity": "ann"}
    actions.resolve_apollo(C, VANILLA, st, {}, rng())
    assert sorted(st["figures"]) == ["medusa"] and st["figures"]["medusa"]["cycle"] == 3
    assert st["hands"]["bob"]["priestess"] == 0


def test_cycle_8_2_1_egyptian_reinforcements_stay() -> None:
    st = scene()
    st["cycle"] = 5
    land(st, "naxos", "ann", 2, egyptians=["mummy"])
    play(st, "zeus", "ann", {})
    assert st["territories"]["naxos"]["egyptians"] == ["mummy"]


def test_misc_divine_favors_2_keep_without_priestess_fails() -> None:
    st = scene()
    st["cycle"] = 3
    st["figures"] = {"minotaur": {"owner": "ann", "where": "naxos", "cycle": 2}}
    public, _ = actions.resolve_act(C, VANILLA, st, "zeus", "ann", {"keep": ["minotaur"]},
                                    rng())
    assert "no Priestess" in of_type(public, "figure_leaves")[0]["text"]
    assert not st["figures"]


# --- Zeus -------------------------------------------------------------------------------------


def test_forgotten_5_zeus_swaps_repeatedly_not_an_empty_slot_nor_a_hero() -> None:
    st = scene()
    track(st, "harpy", "achilles", "", deck=("satyr", "dryad", "fates"))
    public, _ = play(st, "zeus", "ann", {"actions": [
        {"do": "swap", "slot": 1}, {"do": "swap", "slot": 1},
        {"do": "swap", "slot": 2}, {"do": "swap", "slot": 3}]})
    assert [e["drawn"] for e in of_type(public, "swap")] == ["satyr", "dryad"]
    assert st["creature_track"]["slots"] == ["dryad", "achilles", ""]
    assert st["creature_track"]["discard"] == ["harpy", "satyr"]
    reasons = skipped(public)
    assert "creatures only" in reasons[0] and "empty" in reasons[1]
    assert st["gold"]["ann"] == 18
    assert any("Forgotten 5" in p.message for p in actions.validate_act(
        C, VANILLA, st, "ares", "ann", {"actions": [{"do": "swap", "slot": 1}]}))


def test_forgotten_5_empty_deck_reshuffles_the_discard_pile() -> None:
    st = scene()
    track(st, "harpy")
    st["creature_track"]["discard"] = ["giant"]
    play(st, "zeus", "ann", {"actions": [{"do": "swap", "slot": 1}]})
    assert st["creature_track"]["slots"][0] == "giant"
    assert st["creature_track"]["discard"] == ["harpy"] and st["creature_track"]["deck"] == []


# --- Forgotten 2, Harpy -----------------------------------------------------------------------


def test_forgotten_2_giant_refuses_a_large_building() -> None:
    st = scene()
    land(st, "paros", "bob", 2, metropolis=True, buildings=["fortress"])
    track(st, "giant", "giant")
    public, _ = play(st, "zeus", "ann", {"actions": [
        buy(1, territory="paros", building="metropolis"),
        buy(2, territory="paros", building="fortress")]})
    assert "Forgotten 2" in skipped(public)[0]
    assert st["territories"]["paros"]["metropolis"] is True
    assert st["territories"]["paros"]["buildings"] == []
    assert st["creature_track"]["slots"][0] == "giant"   # the refused one was not bought
    assert st["gold"]["ann"] == 20 - 3


def test_misc_artifacts_and_heroes_4_harpy_does_not_take_heroes_or_titans() -> None:
    st = scene()
    land(st, "paros", "bob", 0, heroes=["achilles"], titans=1)
    track(st, "harpy", "harpy")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1, territory="paros")]})
    assert "no unit the Harpy can take" in skipped(public)[0]
    st["territories"]["paros"]["troops"] = 1
    play(st, "ares", "ann", {"actions": [buy(1, territory="paros")]})
    here = st["territories"]["paros"]
    assert (here["troops"], here["heroes"], here["titans"]) == (0, ["achilles"], 1)


def test_misc_egyptian_reinforcements_2_harpy_may_take_an_egyptian() -> None:
    st = scene()
    land(st, "paros", "bob", 0, egyptians=["mummy"])
    track(st, "harpy")
    play(st, "zeus", "ann", {"actions": [buy(1, territory="paros")]})
    assert st["territories"]["paros"]["egyptians"] == [] and st["hands"]["bob"]["egyptians"] == []
    assert "mummy" in st["creature_track"]["discard"]


# --- Heroes -----------------------------------------------------------------------------------


def test_misc_artifacts_and_heroes_5_no_sacrifice_the_turn_bought() -> None:
    st = scene()
    track(st, "penthesilea")
    # Not through play(): validate_act already refuses a Hero not held when the form is sent.
    public, _ = actions.resolve_act(C, VANILLA, st, "zeus", "ann", {"actions": [
        buy(1, territory="naxos"),
        {"do": "sacrifice", "hero": "penthesilea", "target": {"territory": "naxos"}}]}, rng())
    assert "bought this turn" in skipped(public)[0]
    play(st, "ares", "ann", {"actions": [
        {"do": "sacrifice", "hero": "penthesilea", "target": {"territory": "naxos"}}]})
    assert st["territories"]["naxos"]["heroes"] == []
    assert st["territories"]["naxos"]["troops"] == 2 + 2   # Penthesilea's two troops
    assert st["territories"]["delos"]["troops"] == 1       # the free troop's default place
    assert "penthesilea" in st["creature_track"]["removed"]


def test_victory_2_all_five_artifacts_stop_the_turn() -> None:
    st = scene()
    four = ["aegis", "golden_fleece", "caduceus", "harpe"]
    land(st, "naxos", "ann", 2, artifacts=four)
    track(st, "pandoras_jar", "fates")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1, territory="naxos"), buy(2)]})
    assert of_type(public, "all_artifacts")[0]["players"] == ["ann"]
    assert "the game is over" in skipped(public)[0]
    assert st["creature_track"]["slots"][1] == "fates"


def test_team_6_all_artifacts_held_by_one_team() -> None:
    st = new_state(teams={"ann": "red", "cat": "red", "bob": "blue"})
    land(st, "naxos", "ann", 2, artifacts=["aegis", "golden_fleece"])
    land(st, "kea", "cat", 1, artifacts=["caduceus", "harpe"])
    track(st, "pandoras_jar")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1, territory="naxos")]})
    event = of_type(public, "all_artifacts")[0]
    assert event["team"] == "red" and event["rule"] == "Team 6"


def test_cycle_5_3_1_no_divine_favor_while_hades_is_active() -> None:
    st = scene()
    st["hades"]["active"] = True
    st["hands"]["ann"]["favors"] = ["favor_of_apollo"]
    public, _ = play(st, "zeus", "ann", {"actions": [{"do": "favor", "favor": "favor_of_apollo"}]})
    assert "Cycle 5.3.1" in skipped(public)[0] and st["gold"]["ann"] == 20


# --- every effect kind of the shipped data ----------------------------------------------------


def data_kinds() -> dict[str, list[str]]:
    """effect kind -> the components of the data files that use it."""
    found: dict[str, list[str]] = {}

    def add(kind: str, cid: str) -> None:
        found.setdefault(kind, []).append(cid)

    for cr in C.creatures.values():
        add(cr.effect.kind, cr.id)
    for h in C.heroes.values():
        add(h.sacrifice.kind, h.id)
    for a in C.artifacts.values():
        add(a.power.kind, a.id)
    for e in C.egyptians.values():
        add(e.ability.kind, e.id)
    for f in C.favors.values():
        add(f.power.kind, f.id)
    for i in C.magic_items.values():
        add(i.effect.kind, i.id)
    for m in C.monuments.values():
        add(m.power.kind, m.id)
    for s in C.metropolises.values():
        add(s.power.kind, s.id)
    for g in C.gods.values():
        if g.special is not None:
            add(g.special.effect.kind, g.id)
    return found


def _buy_one(card: str, /, *, god: str = "zeus",
             **target: Any) -> tuple[State, list[dict[str, Any]]]:
    st = scene()
    track(st, card)
    public, _ = play(st, god, "ann", {"actions": [buy(1, **target)]})
    assert not skipped(public), skipped(public)
    return st, public


def s_repeat_income() -> None:
    st, _ = _buy_one("fates")
    # vanilla-3: Naxos 1 and Delos 2 cornucopias, G5 none: income 3, so 20 - 4 + 3.
    assert st["gold"]["ann"] == 19


def s_steal_card() -> None:
    st = scene()
    st["hands"]["bob"]["philosopher"] = 2
    track(st, "satyr")
    play(st, "zeus", "ann", {"actions": [buy(1, player="bob")]})
    assert (st["hands"]["ann"]["philosopher"], st["hands"]["bob"]["philosopher"]) == (1, 1)


def s_replace_fleet() -> None:
    st = scene()
    fleet(st, "G4", "bob", 1)
    track(st, "siren")
    play(st, "zeus", "ann", {"actions": [buy(1, sea="G4")]})
    assert st["seas"]["G4"] == {"owner": "ann", "fleets": 1, "undead_fleets": 0}


def s_move_troops_anywhere() -> None:
    move: dict[str, Any] = {"from": "naxos", "to": "kea", "troops": 2}
    st, _ = _buy_one("pegasus", **move)
    assert st["territories"]["kea"]["owner"] == "ann" and st["territories"]["kea"]["troops"] == 2


def s_destroy_building() -> None:
    st = scene()
    st["territories"]["paros"]["buildings"] = ["fortress", "port"]
    track(st, "giant")
    play(st, "zeus", "ann", {"actions": [buy(1, territory="paros", building="port")]})
    assert st["territories"]["paros"]["buildings"] == ["fortress"]


def s_destroy_troop() -> None:
    st, _ = _buy_one("harpy", territory="paros")
    assert st["territories"]["paros"]["troops"] == 1
    # Achilles's sacrifice and the Thunderbolt share the kind: two at once for Achilles.
    land(st, "naxos", "ann", 2, heroes=["achilles"])
    play(st, "ares", "ann", {"actions": [
        {"do": "sacrifice", "hero": "achilles", "target": {"territory": "milos"}}]})
    assert st["territories"]["milos"]["troops"] == 0


def s_sell_cards() -> None:
    st = scene()
    st["hands"]["ann"]["priest"] = 2
    track(st, "sphinx")
    play(st, "zeus", "ann", {"actions": [buy(1, sell={"priest": 2})]})
    assert st["hands"]["ann"]["priest"] == 1   # 2 sold, 1 free from Zeus (8.3)
    assert st["gold"]["ann"] == 20 - 4 + 2 * 2 and st["supply"]["priest"] == 17 - 1 + 2


def s_reuse_discard() -> None:
    st = scene()
    st["creature_track"]["discard"] = ["harpy"]
    track(st, "chimera")
    play(st, "zeus", "ann", {"actions": [buy(1, card="harpy", target={"territory": "paros"})]})
    assert st["territories"]["paros"]["troops"] == 1
    assert sorted(st["creature_track"]["discard"]) == ["chimera", "harpy"]


def s_steal_gold() -> None:
    st = scene()
    st["gold"]["bob"] = 9
    track(st, "griffon")
    _, private = play(st, "zeus", "ann", {"actions": [buy(1, player="bob")]})
    # Griffon: half of bob's 9 (rounded down), at most 5: 4.
    assert (st["gold"]["ann"], st["gold"]["bob"]) == (20 - 4 + 4, 5)
    assert private["bob"][0]["change"] == -4


def s_destroy_fleets_in_sea() -> None:
    st = scene()
    fleet(st, "G4", "bob", 2)
    track(st, "kraken")
    play(st, "zeus", "ann", {"actions": [buy(1, sea="G4")]})
    assert st["seas"]["G4"]["fleets"] == 0 and st["figures"]["kraken"]["where"] == "G4"
    # A fleet sailing in later is destroyed too.
    fleet(st, "G5", "ann", 1)
    play(st, "poseidon", "ann", {"actions": [
        {"do": "sail", "from": "G5", "to": "G4", "fleets": 1}]})
    assert st["seas"]["G4"]["fleets"] == 0


def s_territory_defence() -> None:
    st, _ = _buy_one("minotaur", territory="naxos")
    assert territory_defence(C, st, "naxos") == [("minotaur", 1)]
    land(st, "delos", "ann", 0, artifacts=["aegis"])
    assert territory_defence(C, st, "delos") == [("aegis", 1)]


def s_pin_troops() -> None:
    st, _ = _buy_one("medusa", territory="naxos")
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 1}]})
    assert "Medusa" in skipped(public)[0]


def s_repel_fleets() -> None:
    st, _ = _buy_one("polyphemus", territory="paros")
    fleet(st, "G4", "ann", 1)
    public, _ = play(st, "poseidon", "ann", {"actions": [
        {"do": "sail", "from": "G4", "to": "F4", "fleets": 1}]})   # F4 touches Paros
    assert "out of reach" in skipped(public)[0]


def s_block_island() -> None:
    st = scene()
    track(st, "chiron", "harpy")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1, territory="paros"),
                                                   buy(2, territory="paros")]})
    assert "Chiron protects" in skipped(public)[0]
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "paros", "troops": 2}]})
    assert "Chiron protects" in skipped(public)[0]


def s_move_prosperity() -> None:
    st = scene()
    st["territories"]["paros"]["prosperity"] = 1
    track(st, "erinyes")
    play(st, "zeus", "ann", {"actions": [buy(1, **{"from": "paros", "to": "naxos"})]})
    assert (st["territories"]["paros"]["prosperity"],
            st["territories"]["naxos"]["prosperity"]) == (0, 1)


def s_steal_necropolis_gold() -> None:
    st = scene()
    land(st, "kea", "cat", 1, buildings=["necropolis"], necropolis_gold=3)
    track(st, "empusa")
    public, _ = play(st, "zeus", "ann", {"actions": [buy(1)]})
    assert st["gold"]["ann"] == 20 - 4 + 3 and st["territories"]["kea"]["necropolis_gold"] == 0
    assert of_type(public, "steal_necropolis_gold")[0]["amount"] == 3   # the coins are public


def s_revive_hero() -> None:
    st = scene()
    st["creature_track"]["removed"] = ["achilles", "penthesilea"]
    track(st, "charon", "charon")
    public, _ = play(st, "zeus", "ann", {"actions": [
        buy(1, hero="penthesilea", territory="naxos"), buy(2, hero="achilles", territory="naxos")]})
    assert "retired" in skipped(public)[0]
    assert st["territories"]["naxos"]["heroes"] == ["achilles"]


def s_divert_income() -> None:
    st = scene()
    before = (income_of(C, VANILLA, st, "ann"), income_of(C, VANILLA, st, "bob"))
    track(st, "cerberus")
    play(st, "zeus", "ann", {"actions": [buy(1, territory="paros")]})
    # Paros has 1 cornucopia: it now goes to Cerberus's owner.
    assert (income_of(C, VANILLA, st, "ann"), income_of(C, VANILLA, st, "bob")) == (
        before[0] + 1, before[1] - 1)


def s_destroy_figure() -> None:
    st = scene()
    land(st, "naxos", "ann", 2, heroes=["heracles"])
    st["figures"]["minotaur"] = {"owner": "bob", "where": "paros", "cycle": 2}
    play(st, "zeus", "ann", {"actions": [
        {"do": "sacrifice", "hero": "heracles", "target": {"figure": "minotaur"}}]})
    assert not st["figures"] and "heracles" in st["creature_track"]["removed"]


def s_recruit() -> None:
    st = scene()
    land(st, "naxos", "ann", 2, heroes=["jason"])
    st["hands"]["ann"]["favors"] = ["favor_of_ares"]
    play(st, "zeus", "ann", {"actions": [
        {"do": "sacrifice", "hero": "jason", "target": {"sea": "H4"}},
        {"do": "favor", "favor": "favor_of_ares", "target": {"territory": "delos"}}]})
    assert st["seas"]["H4"] == {"owner": "ann", "fleets": 2, "undead_fleets": 0}
    assert st["territories"]["delos"]["troops"] == 1
    assert st["favors"]["discard"] == ["favor_of_ares"]


def s_gain_card() -> None:
    st = scene()
    land(st, "naxos", "ann", 2, heroes=["odysseus"])
    st["hands"]["ann"]["magic_items"] = ["owl_of_athena"]
    play(st, "zeus", "ann", {"actions": [{"do": "sacrifice", "hero": "odysseus"},
                                       {"do": "item", "item": "owl_of_athena"}]})
    assert st["hands"]["ann"]["philosopher"] == 2 and st["hands"]["ann"]["magic_items"] == []


def s_income_bonus() -> None:
    st = scene()
    before = income_of(C, VANILLA, st, "ann")
    st["hands"]["ann"]["artifacts"] = ["golden_fleece"]
    st["hands"]["ann"]["monuments"] = ["great_university_of_athena"]
    assert income_of(C, VANILLA, st, "ann") == before + 1 + 1


def s_creature_discount() -> None:
    st = scene()
    st["hands"]["ann"]["artifacts"] = ["caduceus"]
    st["hands"]["ann"]["favors"] = ["favor_of_hera"]
    track(st, "fates", "fates")
    public, _ = play(st, "zeus", "ann", {"actions": [
        {"do": "favor", "favor": "favor_of_hera"}, buy(1), buy(2)]})
    # Caduceus 1 off each; Hera's favor 1 more off the first only: 4-2, 3-1.
    assert [e["price"] for e in of_type(public, "buy")] == [2, 2]


def s_battle_bonus() -> None:
    st = scene()
    st["hands"]["ann"]["artifacts"] = ["harpe"]
    st["hands"]["ann"]["magic_items"] = ["ares_spear"]
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "item", "item": "ares_spear"},
        {"do": "move", "from": "naxos", "to": "paros", "troops": 2}]})
    first = of_type(public, "battle_round")[0]["attacker"]["breakdown"]
    assert {"source": "harpe", "value": 1} in first
    assert {"source": "ares_spear", "value": 2} in first


def s_free_move() -> None:
    st = scene()
    st["hands"]["ann"]["artifacts"] = ["pandoras_jar"]
    land(st, "delos", "ann", 2)
    fleet(st, "H4", "ann")
    play(st, "ares", "ann", {"actions": [
        {"do": "move", "from": "naxos", "to": "delos", "troops": 1},
        {"do": "move", "from": "delos", "to": "naxos", "troops": 1}]})
    assert st["gold"]["ann"] == 20 - 1          # the first move of the turn is free
    st2 = scene()
    st2["hands"]["ann"]["magic_items"] = ["winged_sandals"]
    land(st2, "delos", "ann", 2)
    fleet(st2, "H4", "ann")
    play(st2, "zeus", "ann", {"actions": [{"do": "item", "item": "winged_sandals"},
                                        {"do": "move", "from": "delos", "to": "naxos",
                                         "troops": 2}]})
    assert st2["territories"]["naxos"]["troops"] == 4 and st2["gold"]["ann"] == 20


def _egyptian_attack(egyptian: str, troops: int, bob_troops: int,
                     standing: dict[str, Any] | None = None, key: str = "x"
                     ) -> tuple[State, list[dict[str, Any]]]:
    st = scene()
    land(st, "naxos", "ann", troops, egyptians=[egyptian])
    land(st, "paros", "bob", bob_troops)
    for sea in ("E6", "D6", "D7"):   # a chain of bob's fleets from Paros to Milos
        fleet(st, sea, "bob")
    if standing:
        st["standing"]["bob"] = standing
    public, _ = play(st, "zeus", "ann", {"actions": [
        {"do": "special_attack", "egyptian": egyptian, "from": "naxos", "to": "paros",
         "troops": troops}]}, key=key)
    return st, public


def s_strike_on_arrival() -> None:
    st, public = _egyptian_attack("scorpion", 0, 1)
    assert of_type(public, "strike") and of_type(public, "defenseless")
    assert st["territories"]["paros"]["owner"] == "ann"


def s_raise_fallen() -> None:
    st, public = _egyptian_attack("mummy", 3, 1)
    # 4 units against 1: bob's troop falls in the first round and rises as ann's.
    assert of_type(public, "raise_fallen")[0]["troops"] == 1
    lost = len(of_type(public, "battle_end")[0]["losses"]["attacker"])
    assert st["territories"]["paros"]["troops"] == 3 - lost + 1


def s_fly() -> None:
    st2 = scene()
    land(st2, "naxos", "ann", 1, egyptians=["phoenix"])
    play(st2, "zeus", "ann", {"actions": [
        {"do": "special_attack", "egyptian": "phoenix", "from": "naxos", "to": "kea"}]})
    assert st2["territories"]["kea"]["egyptians"] == ["phoenix"]   # no fleet chain to Kea


def s_trample() -> None:
    st, public = _egyptian_attack("elephant", 0, 1)
    assert of_type(public, "trample") and st["territories"]["paros"]["owner"] == "ann"


def s_no_retreat() -> None:
    flee = {"retreat": {"when": "at_most", "units": 9}}
    _, public = _egyptian_attack("royal_scarab", 3, 3, flee)
    assert not of_type(public, "retreat")
    assert of_type(public, "battle")[0]["retreat_orders"]["defender"] == {"when": "at_most",
                                                                         "units": 9}
    _, plain = _egyptian_attack("mummy", 3, 3, flee)
    assert of_type(plain, "retreat")[0]["player"] == "bob"   # without the Scarab bob runs


def s_gain_gold() -> None:
    st = scene()
    st["hands"]["ann"]["magic_items"] = ["lyre_of_apollo"]
    _, private = play(st, "zeus", "ann", {"actions": [{"do": "item", "item": "lyre_of_apollo"}]})
    assert st["gold"]["ann"] == 23 and private["ann"][-1]["gold"] == 23


def s_build_discount() -> None:
    st = scene()
    st["hands"]["ann"]["magic_items"] = ["hammer_of_hephaestus"]
    public, _ = play(st, "ares", "ann", {"actions": [
        {"do": "item", "item": "hammer_of_hephaestus"},
        {"do": "build", "building": "fortress", "territory": "naxos"},
        {"do": "build", "building": "fortress", "territory": "naxos"}]})
    assert [e["price"] for e in of_type(public, "build")] == [0, 2]


def s_place_prosperity() -> None:
    st = scene()
    st["hands"]["ann"]["magic_items"] = ["horn_of_plenty"]
    play(st, "zeus", "ann", {"actions": [{"do": "item", "item": "horn_of_plenty",
                                        "target": {"territory": "naxos"}}]})
    assert st["territories"]["naxos"]["prosperity"] == 1 and st["supply"]["prosperity"] == 30


def s_destroy_fleet() -> None:
    st = scene()
    fleet(st, "G4", "bob", 2)
    st["hands"]["ann"]["magic_items"] = ["bow_of_artemis"]
    play(st, "zeus", "ann", {"actions": [{"do": "item", "item": "bow_of_artemis",
                                        "target": {"sea": "G4"}}]})
    assert st["seas"]["G4"]["fleets"] == 1


def s_reroll() -> None:
    def build() -> State:
        st = scene()
        st["hands"]["ann"]["magic_items"] = ["helm_of_darkness"]
        return st

    orders = {"actions": [{"do": "item", "item": "helm_of_darkness"},
                          {"do": "move", "from": "naxos", "to": "paros", "troops": 2}]}
    _, public, _ = search(build, lambda s, k: play(s, "ares", "ann", orders, key=k)[0],
                          lambda s, ev: bool(of_type(ev, "reroll")))
    again = of_type(public, "reroll")
    assert len(again) == 1 and again[0]["first"] <= 1
    assert again[0]["label"].startswith("battle/paros/r")
    assert again[0]["label"].endswith("/attacker/reroll")


def s_recruit_discount() -> None:
    st = scene()
    st["hands"]["ann"]["monuments"] = ["temple_of_poseidon"]
    public, _ = play(st, "poseidon", "ann", {"free": {"sea": "G4"}, "actions": [
        {"do": "recruit", "count": 2, "sea": "G4"}]})
    # Poseidon 0/1/2/3: the 2nd and 3rd fleets cost 1 + 2, one less each: 0 + 1.
    assert of_type(public, "recruit")[1]["price"] == 1


def s_move_range() -> None:
    st = scene()
    fleet(st, "A5", "ann", 1)
    far = sorted(s for s, d in VANILLA.fleet_paths("A5", 4).items() if d == 4)[0]
    public, _ = play(st, "poseidon", "ann", {"actions": [
        {"do": "sail", "from": "A5", "to": far, "fleets": 1}]})
    assert "out of reach" in skipped(public)[0]
    st["hands"]["ann"]["monuments"] = ["great_lighthouse_of_poseidon"]
    play(st, "poseidon", "ann", {"actions": [
        {"do": "sail", "from": "A5", "to": far, "fleets": 1}]})
    assert st["seas"][far]["owner"] == "ann"


def s_swap_track_creature() -> None:
    st = scene()
    track(st, "harpy", deck=("giant",))
    play(st, "zeus", "ann", {"actions": [{"do": "swap", "slot": 1}]})
    assert st["creature_track"]["slots"][0] == "giant"


def s_apollo_income() -> None:
    st = scene()
    st["auction"] = {"apollo": ["bob"], "prosperity": "bob"}
    actions.resolve_apollo(C, VANILLA, st, {}, rng())
    assert st["gold"]["bob"] == 21 and st["territories"]["milos"]["prosperity"] == 1


SCENES: dict[str, Callable[[], None]] = {
    name[2:]: fn for name, fn in globals().items() if name.startswith("s_") and callable(fn)
}


def test_every_effect_kind_of_the_data_has_a_scene() -> None:
    missing = sorted(set(data_kinds()) - set(SCENES))
    assert not missing, f"effect kinds without a scene: {missing}"


@pytest.mark.parametrize("kind", sorted(data_kinds()))
def test_effect_kind_used_by_the_data(kind: str) -> None:
    SCENES[kind]()


def test_cycle_8_4_1_price_of_refuses_a_temple_discount_on_a_hero() -> None:
    from tests.cyclades.act_scenario import turn

    st = scene()
    track(st, "achilles")
    assert isinstance(creatures.price_of(turn(st), 0, "achilles", 1), str)
    assert creatures.price_of(turn(st), 0, "achilles", 0) == (4, 0, 0)

"""Optional Rule 301, a Zeus player (``--option zeus=<player name>``).

Scenes on the real map, as in test_turn.py (:mod:`tests.mythology.scenario`), in a campaign of
five players of whom one is Zeus; then whole games played by the bots. Tests are named after
the clause they check.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.core import demo
from pbem.core.dice import Rng, Stream
from pbem.core.errors import ProblemsError
from pbem.core.ruleset import REVEAL_GAME, Outcome, PhaseSpec
from pbem.games.mythology import control, zeus
from pbem.games.mythology.game import RULESET

from .scenario import (
    ACHILLES,
    AJAX,
    HECTOR,
    INLAND,
    INLAND_2,
    INLAND_3,
    NESTOR,
    SOW,
    C,
    State,
    clear_board,
    fate_phase,
    moving_phase,
    new_game,
    of_type,
    put,
    rng,
    run,
    search,
    set_totals,
    status,
    write_sheet,
)

PLAYERS = ("ann", "ben", "cyd", "dot", "eve")
ZEUS = "eve"


def zeus_game(*, prayer: str = "on", key: str = "zeus", who: str = ZEUS) -> State:
    """The real set-up (102) with ``who`` as Zeus: four gods and Zeus."""
    options = {"setup": "random", "prayer": prayer, "zeus": who}
    return RULESET.setup(PLAYERS, options, {}, rng(f"setup/{key}")).state


def scene(**kw: Any) -> tuple[State, list[str]]:
    """An empty board in Turn 1, every god with a blank Log Sheet; the gods, clockwise."""
    state = zeus_game(**kw)
    clear_board(state)
    for p in state["seats"]:
        write_sheet(state, p)
    return state, list(state["seats"])


def phase_of(state: State, kind: str) -> PhaseSpec:
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.kind == kind, phase
    return phase


def problems(state: State, orders: dict[str, Any], player: str = ZEUS) -> str:
    phase = RULESET.next_phase(state)
    assert phase is not None
    return " | ".join(str(p) for p in RULESET.validate(state, phase, player, orders))


def advance(state: State, given: dict[str, dict[str, Any]] | None = None,
            key: str = "k") -> tuple[PhaseSpec, Outcome]:
    """Resolve the open phase: ``given`` orders, the NMR default for everyone else."""
    phase = RULESET.next_phase(state)
    assert phase is not None
    orders = {p: (given or {}).get(p, RULESET.default_orders(state, phase, p))
              for p in phase.actors}
    for p, o in orders.items():
        assert RULESET.validate(state, phase, p, o) == [], (phase.id, p, o)
    return phase, RULESET.resolve(state, phase, orders, rng(f"{phase.id}/{key}"))


def to_zeus_phase(state: State, sheets: dict[str, dict[str, Any]] | None = None) -> Outcome:
    """The Log Sheet phase (gods named in ``sheets`` write those), up to Zeus's decree."""
    phase_of(state, "logsheet")
    _, outcome = advance(state, sheets)
    phase_of(state, "zeus")
    return outcome


def decree(state: State, orders: dict[str, Any], key: str = "k") -> Outcome:
    phase = phase_of(state, "zeus")
    assert RULESET.validate(state, phase, ZEUS, orders) == []
    return RULESET.resolve(state, phase, {ZEUS: orders}, rng(f"{phase.id}/{key}"))


def stage_decree(state: State, orders: dict[str, Any]) -> Outcome:
    """Zeus's decree in a staged scene (the Log Sheets written by hand)."""
    state["step"] = "zeus"
    return decree(state, orders)


def glory_by_events(events: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in events:
        if e["type"] == "glory":
            out[e["player"]] = out.get(e["player"], 0) + e["amount"]
        elif e["type"] == "special-victory":
            out[e["player"]] = out.get(e["player"], 0) + e["glory"]
    return out


# --- 301 A-B: who Zeus is ---------------------------------------------------------------------


def test_301_B_refused_with_fewer_than_five_players(tmp_path: Path) -> None:
    said = " | ".join(map(str, RULESET.check_options({"zeus": "ann"}, PLAYERS[:4])))
    assert "301 B" in said and "less than five" in said
    assert RULESET.check_options({"zeus": "ann"}, PLAYERS[:5]) == []
    # At `pbem new` (campaign.create, here through the demo): nothing is created.
    with pytest.raises(ProblemsError, match="301 B"):
        demo.run(games.get("mythology"), tmp_path / "d", players=4, seed="z",
                 options={"zeus": "alice"}, resolve=games.get)
    assert not (tmp_path / "d" / "campaign").exists()
    with pytest.raises(ProblemsError, match="301 B"):
        RULESET.setup(PLAYERS[:4], {"setup": "random", "zeus": "ann"}, {}, rng("four"))


def test_301_B_refused_when_zeus_is_not_a_campaign_player() -> None:
    said = " | ".join(map(str, RULESET.check_options({"zeus": "zed"}, PLAYERS)))
    assert "'zed' is not a player of this campaign" in said
    assert "not a player name" in " | ".join(
        map(str, RULESET.check_options({"zeus": "Mr Zeus"}, PLAYERS[:5])))
    # `pbem new` gives the rules only the number of players: the name is checked at set-up.
    with pytest.raises(ProblemsError, match="not a player of this campaign"):
        RULESET.setup(PLAYERS, {"setup": "random", "zeus": "zed"}, {}, rng("zed"))


def test_301_A_zeus_is_a_campaign_player_but_not_a_god() -> None:
    state = zeus_game()
    assert state["options"]["zeus"] == ZEUS and sorted(state["seats"]) == sorted(
        p for p in PLAYERS if p != ZEUS)
    for table in ("gods", "hands", "fate_held", "logsheets", "hero_totals", "god_area",
                  "facedown"):
        assert ZEUS not in state[table], table  # 101, 102 F-G, 301 C c-d
    assert state["glory"][ZEUS] == 0 and {state["glory"][p] for p in state["seats"]} == {10}
    # 102 E 5 and 010 A count the gods: four gods, so 18 Heroes and six cards each.
    assert sum(x["status"] == "board" for x in state["heroes"].values()) == 18
    assert all(len(state["hands"][p]) == 6 for p in state["seats"])
    phase = phase_of(state, "logsheet")
    assert ZEUS not in phase.actors
    to_zeus_phase(state)
    phase = phase_of(state, "zeus")
    assert phase.id == "t01.zeus" and phase.actors == (ZEUS,) and phase.sealed
    assert phase.reveal == REVEAL_GAME


def test_301_Cd_no_power_points() -> None:
    """Zeus has no Log Sheet: no Power Points to allocate, no Control, nothing to move."""
    state = zeus_game()
    to_zeus_phase(state)
    said = problems(state, {"heroes": {"12": 3}, "zeus": 4})
    assert "[orders] heroes: unknown order" in said and "[orders] zeus: unknown order" in said
    decree(state, {})
    while state["turn"] == 1:
        phase, _ = advance(state)
        assert ZEUS not in phase.actors  # no God Placement, no Moving Player phase
    assert ZEUS not in state["logsheets"] and ZEUS not in state["hero_totals"]
    assert ZEUS not in [p for x in state["prizes"].values() for p in x["scored"]]


def test_301_zeus_sees_the_offers_and_bribes_and_nothing_else_of_the_log_sheets() -> None:
    state = zeus_game()
    a, b = state["seats"][:2]
    to_zeus_phase(state, {a: {"prayer": [{"glory": 2, "hero": HECTOR}], "heroes": {"5": 4}},
                          b: {"bribe": 1, "zeus": 4, "monsters": {"40": 2}}})
    view = RULESET.view(state, ZEUS)
    for secret in ("hand", "my_logsheets", "my_logsheet_lines", "logsheets", "fate",
                   "fate_held", "my_hero_totals", "facedown_card"):
        assert secret not in view, secret
    assert view["zeus_offers"] == [{"player": a, "index": 1, "kind": "prayer", "glory": 2,
                                    "hero": HECTOR, "helpers": [], "prizes": []}]
    assert view["zeus_bribes"] == {b: 1}
    assert "zeus_offers" not in RULESET.view(state, a) and "zeus_offers" not in RULESET.view(
        state, None)
    form = RULESET.order_form(view, phase_of(state, "zeus"), ZEUS)
    assert f'player = "{a}", index = 1: prayer of 2 Glory for Hector (12)' in " ".join(
        line.removeprefix("#").strip() for line in form.splitlines())
    assert f"Bribes this Turn: {b} 1." in form
    assert all(len(line) <= 78 for line in form.splitlines())


# --- 301 C 1: favour instead of Zeus Arbitration ---------------------------------------------


def test_301_C1_favor_breaks_hero_ties_instead_of_arbitration() -> None:
    def tie(favor: list[str], unit: int = HECTOR) -> control.AuctionResult:
        return control.auction(unit, unit <= 32, "ann", 3, [control.Challenge("ben", 3)],
                               {"ann": 30, "ben": 0} if unit <= 32 else {},
                               Stream(b"k" * 32), "t", favor=favor)

    for favor, winner in ((["ben", "ann"], "ben"), (["ann", "ben"], "ann"),
                          (["cyd", "ben"], "ben")):
        result = tie(favor)
        assert result.winner == winner and result.moved == (winner == "ann")
        assert [e["player"] for e in result.events if e["type"] == "favor"] == [winner]
        assert not [e for e in result.events if e["type"].startswith("arbitration")]
        loser = "ann" if winner == "ben" else "ben"
        assert result.glory == {winner: 1, loser: -1}  # 216 G 6 still pays the challenge
    # Without a favour list: Zeus Arbitration, rolled (209 D 6).
    assert [e for e in tie([]).events if e["type"] == "arbitration_roll"]
    # 301 C 1 speaks of Heroes: a Monster's draw keeps its roll-off (209 D 7).
    monster = tie(["ben", "ann"], unit=SOW)
    assert [e for e in monster.events if e["type"] == "arbitration_roll"]
    assert not [e for e in monster.events if e["type"] == "favor"]


def test_301_C1_zeus_favor_decides_a_challenge_in_play() -> None:
    for favored in (0, 1):
        state, seats = scene()
        a, b = seats[:2]
        put(state, HECTOR, INLAND)
        set_totals(state, a, {HECTOR: 3})
        set_totals(state, b, {HECTOR: 3})
        write_sheet(state, b, challenges=[(HECTOR, 3, 0)])
        first = [b, a] if favored else [a, b]
        stage_decree(state, {"favor": first})
        assert zeus.favor(state)[:2] == first
        outcome = run(state, {"attempt": [{"unit": HECTOR, "bid": 3, "path": [INLAND_2]}]},
                      phase=moving_phase(state, a))
        assert [e["player"] for e in of_type(outcome, "favor")] == [first[0]]
        assert not of_type(outcome, "arbitration_roll")
        assert (state["heroes"][str(HECTOR)]["hex"] == INLAND_2) == (first[0] == a)
    # The same draw in a game without a Zeus goes to Zeus Arbitration.
    off = new_game()
    clear_board(off)
    a, b = off["seats"][:2]
    for p in off["seats"]:
        write_sheet(off, p)
    put(off, HECTOR, INLAND)
    set_totals(off, a, {HECTOR: 3})
    set_totals(off, b, {HECTOR: 3})
    write_sheet(off, b, challenges=[(HECTOR, 3, 0)])
    outcome = run(off, {"attempt": [{"unit": HECTOR, "bid": 3, "path": [INLAND_2]}]},
                  phase=moving_phase(off, a))
    assert of_type(outcome, "arbitration_roll") and not of_type(outcome, "favor")


def test_301_C1_favor_must_name_gods_and_the_rest_follow_in_seating_order() -> None:
    state = zeus_game()
    seats = state["seats"]
    to_zeus_phase(state)
    assert "is not a god's player" in problems(state, {"favor": [ZEUS]})
    assert "listed twice" in problems(state, {"favor": [seats[1], seats[1]]})
    decree(state, {"favor": [seats[2]]})
    assert zeus.favor(state) == [seats[2], *(p for p in seats if p != seats[2])]


# --- 301 C 2: protection at Zeus's whim --------------------------------------------------------


def test_301_C2_zeus_awards_protection() -> None:
    state = zeus_game()
    a, b = state["seats"][:2]
    sheets = {p: {"area": "greece"} for p in state["seats"]}
    sheets[a] |= {"prayer": [{"glory": 1, "hero": HECTOR}]}
    sheets[b] |= {"sacrifice": [{"glory": 4, "hero": AJAX}], "prayer": [{"glory": 2,
                                                                        "hero": NESTOR}]}
    to_zeus_phase(state, sheets)
    assert "is not a protection the tables give" in problems(
        state, {"protect": [{"player": a, "index": 1, "result": "defense+99"}]})
    assert "made no offer number 3" in problems(
        state, {"protect": [{"player": b, "index": 3, "result": "full"}]})
    assert "already answered" in problems(
        state, {"protect": [{"player": a, "index": 1, "result": "full"}] * 2})
    # A one-point Prayer gets full protection: no table, no dice (the tables would give at
    # most their +10 column). b's Prayer (its first offer) gets nothing, his Sacrifice +20.
    orders = {"protect": [{"player": a, "index": 1, "result": "full"},
                          {"player": b, "index": 2, "result": "defense+20"}]}
    phase = phase_of(state, "zeus")
    assert RULESET.validate(state, phase, ZEUS, orders) == []
    dice = rng("c2")
    outcome = RULESET.resolve(state, phase, {ZEUS: orders}, dice)
    assert state["step"] == "move"  # every god named its Area: 302 H ran in this record
    answers = {(e["player"], e["hero"]): (e["result"], e["amount"])
               for e in outcome.events if e["type"] in ("prayer", "sacrifice")}
    assert answers == {(a, HECTOR): ("full", 0), (b, NESTOR): ("none", 0),
                       (b, AJAX): ("defense", 20)}
    assert all("roll" not in e and e["by"] == "zeus"
               for e in outcome.events if e["type"] in ("prayer", "sacrifice"))
    assert not [d for d in dice.public.draws + dice.sealed.draws
                if "prayer" in d.label or "sacrifice" in d.label]
    effects = state["turn_effects"]
    assert HECTOR in effects["immortal"] and HECTOR in effects["cards"]["protect"]
    assert {"unit": AJAX, "kind": "defense", "amount": 20, "turn": True} in \
        effects["cards"]["mods"]
    assert sorted(effects["no_attack"]) == sorted([HECTOR, AJAX])  # 302 G
    assert NESTOR not in effects["no_attack"]


# --- 301 C 3: back from the dead ---------------------------------------------------------------


def test_301_C3_revive_not_after_the_fates() -> None:
    state, (a, *_rest) = scene()
    put(state, AJAX, INLAND)
    put(state, NESTOR, INLAND)     # Ajax kills Nestor in Combat
    put(state, ACHILLES, INLAND_2)
    put(state, SOW, INLAND_2)      # the Sow attacks Achilles and dies
    put(state, HECTOR, "3014")     # the Fates take Hector
    set_totals(state, a, {AJAX: 4})
    moving_phase(state, a)
    fought = search(state, {"combat": [{"attacker": AJAX, "defender": NESTOR},
                                       {"attacker": SOW, "defender": ACHILLES}]},
                    lambda o: status(o.state, NESTOR) == "dead"
                    and status(o.state, SOW) == "dead")
    state = fought.state
    state["fate_track"]["1"] = [HECTOR]
    run(state, {}, phase=fate_phase(state))
    assert status(state, HECTOR) == "dead" and state["turn"] == 2
    graves = state["zeus"]["graves"]
    assert {u: g["cause"] for u, g in graves.items()} == {
        str(NESTOR): "combat", str(SOW): "combat", str(HECTOR): "fates"}
    assert sorted(zeus.revivable(state)) == [NESTOR, SOW]
    to_zeus_phase(state, {p: {"area": "greece"} for p in state["seats"]})
    assert "not killed in Combat or by a Divine Occurrence" in problems(
        state, {"revive": [{"unit": HECTOR}]})
    assert "not killed in Combat" in problems(state, {"revive": [{"unit": AJAX}]})  # alive
    outcome = decree(state, {"revive": [{"unit": NESTOR}, {"unit": SOW}]})
    revived = {e["unit"]: e["hex"] for e in of_type(outcome, "revived")}
    assert revived[SOW] == INLAND_2 == state["monsters"][str(SOW)]["hex"]  # where it died
    greek = zeus.free_greek_hexes(C, state)[1]
    assert revived[NESTOR] in greek and status(state, NESTOR) == "board"
    assert str(NESTOR) not in state["zeus"]["graves"]
    # At the start of the movement step: after God Placement, before the Moving Players' roll.
    kinds = [e["type"] for e in outcome.events]
    assert kinds.index("god-placed") < kinds.index("revived") < kinds.index("order", kinds.index(
        "revived"))


def test_301_C3_a_divine_occurrence_kill_may_be_undone() -> None:
    state, (a, *_rest) = scene()
    put(state, NESTOR, INLAND)
    write_sheet(state, a, occurrences=[("E", 10)])
    moving_phase(state, a)
    killed = search(state, {"activate": [{"code": "E"}]},
                    lambda o: status(o.state, NESTOR) == "dead")
    assert killed.state["zeus"]["graves"][str(NESTOR)]["cause"] == "occurrence"
    assert NESTOR in zeus.revivable(killed.state)


# --- 301 C 4: the Lightning Bolt --------------------------------------------------------------


def test_301_C4a_bolt_kills_heroes_in_the_hex() -> None:
    state, seats = scene()
    a, b = seats[:2]
    put(state, ACHILLES, INLAND)
    put(state, AJAX, INLAND)
    put(state, NESTOR, INLAND_2)
    set_totals(state, a, {ACHILLES: 5})
    state["step"] = "zeus"
    said = problems(state, {"bolt": [{"during": a, "hex": INLAND},
                                     {"during": a, "hex": INLAND_2}]})
    assert "one per game Move" in said
    assert "takes either hex or god" in problems(
        state, {"bolt": [{"during": a, "hex": INLAND, "god": b}]})
    assert "no hex '9999'" in problems(state, {"bolt": [{"during": a, "hex": "9999"}]})
    stage_decree(state, {"bolt": [{"during": a, "hex": INLAND}]})
    assert status(state, ACHILLES) == status(state, AJAX) == "board"  # not yet
    before = dict(state["glory"])
    run(state, {}, phase=moving_phase(state, b))  # another god's Move: nothing
    assert status(state, ACHILLES) == "board"
    outcome = run(state, {"attempt": [{"unit": ACHILLES, "bid": 5, "path": [INLAND_2]}]},
                  phase=moving_phase(state, a))
    kinds = [e["type"] for e in outcome.events]
    assert kinds[:2] == ["moving-player", "lightning"]  # as the Move begins
    assert sorted(e["hero"] for e in of_type(outcome, "struck")) == [ACHILLES, AJAX]
    assert status(state, ACHILLES) == status(state, AJAX) == "dead"
    assert status(state, NESTOR) == "board"
    assert of_type(outcome, "attempt-void")  # Achilles is no longer there to move
    assert state["glory"] == before  # 216 G 4 is about the players' kills
    assert not zeus.revivable(state)  # a bolt is neither Combat nor a Divine Occurrence


def test_301_C4a_full_protection_from_zeus_spares_a_hero() -> None:
    state, seats = scene()
    a = seats[0]
    put(state, ACHILLES, INLAND)
    put(state, AJAX, INLAND)
    for p in seats:
        write_sheet(state, p, area="greece")
    state["offers"] = {a: [{"kind": "prayer", "glory": 2, "hero": AJAX, "helpers": [],
                            "prizes": []}]}
    stage_decree(state, {"protect": [{"player": a, "index": 1, "result": "full"}],
                         "bolt": [{"during": a, "hex": INLAND}]})
    outcome = run(state, {}, phase=moving_phase(state, a))
    assert [e["hero"] for e in of_type(outcome, "spared")] == [AJAX]
    assert status(state, AJAX) == "board" and status(state, ACHILLES) == "dead"


def test_301_C4b_bolted_god_skips_his_phases_not_twice_in_a_row() -> None:
    state = zeus_game()
    a, b, c, _ = state["seats"]
    to_zeus_phase(state)
    assert "struck this Turn and makes no Move" in problems(
        state, {"bolt": [{"during": b, "god": b}]})
    assert "is not a god's player" in problems(state, {"bolt": [{"during": a, "god": ZEUS}]})
    outcome = decree(state, {"bolt": [{"during": a, "god": b}]})
    assert [e["player"] for e in of_type(outcome, "lightning")] == [b]
    assert state["god_area"][b] == "" and b not in state["order"]
    assert RULESET.view(state, None)["zeus"]["bolted"] == [b]
    seen = []
    while state["turn"] == 1:
        phase, _ = advance(state)
        seen.append(phase.id)
    assert not [x for x in seen if x.endswith(f".{b}")]  # no God Placement, no Move
    for p in (a, c):
        assert f"t01.move.{p}" in seen
    # Turn 2: not the same god two game Turns in a row.
    to_zeus_phase(state)
    assert "struck last Turn" in problems(state, {"bolt": [{"during": a, "god": b}]})
    decree(state, {"bolt": [{"during": a, "god": c}]})
    while state["turn"] == 2:
        advance(state)
    to_zeus_phase(state)  # Turn 3: b may be struck again
    assert problems(state, {"bolt": [{"during": a, "god": b}]}) == ""


def test_301_C4b_a_struck_god_neither_challenges_nor_intercepts() -> None:
    """His Log Sheet stands (his totals still Control, 208 H), but his standing orders wait:
    no challenge (209) and no interception (205 I) in the other gods' Moves."""
    results = {}
    for struck in (False, True):
        state, (a, b, c, _) = scene()
        put(state, HECTOR, INLAND)
        put(state, ACHILLES, INLAND_2)
        put(state, AJAX, INLAND_3)
        set_totals(state, a, {HECTOR: 2, ACHILLES: 4})
        set_totals(state, b, {HECTOR: 6, AJAX: 3})
        write_sheet(state, b, challenges=[(HECTOR, 6, 0)])
        state["logsheets"][b]["1"]["intercepts"] = [{"unit": AJAX, "target": 0}]
        stage_decree(state, {"bolt": [{"during": c, "god": b}]} if struck else {})
        outcome = run(state, {"attempt": [{"unit": HECTOR, "bid": 2, "path": ["3111"]},
                                          {"unit": ACHILLES, "bid": 4, "path": [INLAND_3]}]},
                      phase=moving_phase(state, a))
        results[struck] = (bool(of_type(outcome, "challenge")),
                           bool(of_type(outcome, "intercept")), hex_of(state, HECTOR))
    assert results == {False: (True, True, INLAND), True: (False, False, "3111")}


def hex_of(state: State, hero: int) -> str:
    return str(state["heroes"][str(hero)]["hex"])


# --- 301 C c: Glory only from the others -------------------------------------------------------


def test_301_Cc_glory_only_from_the_others() -> None:
    state = zeus_game()
    a, b, c, d = state["seats"]
    # A bribe is Glory the god has, after his Prayers and Sacrifices.
    assert "you have 2 to give" in problems(
        state, {"prayer": [{"glory": 8, "hero": HECTOR}], "bribe": 3}, a)
    assert "you have 10 to give" in problems(state, {"bribe": 11}, a)
    assert "whole number" in problems(state, {"bribe": -1}, a)
    outcome = to_zeus_phase(state, {a: {"prayer": [{"glory": 2, "hero": HECTOR}]},
                                    b: {"bribe": 3}, c: {"zeus": 8}})
    assert {p: state["glory"][p] for p in (a, b, c, d, ZEUS)} == {
        a: 8, b: 7, c: 10, d: 10, ZEUS: 5}
    gifts = [(e["from"], e["amount"], e["source"]) for e in of_type(outcome, "glory")
             if e["player"] == ZEUS]
    assert gifts == [(a, 2, "offer"), (b, 3, "bribe")]
    decree(state, {})
    while state["turn"] == 1:
        advance(state)
    # 216 G 1: c gains 8 // 4 = 2; Zeus as much as the giver (301 C c).
    assert state["glory"][c] - 10 == 2 == state["glory"][ZEUS] - 5
    assert state["zeus"]["given"] == {a: 2, b: 3, c: 2}


def test_301_Cc_bribe_only_in_a_game_with_a_zeus() -> None:
    state = new_game()
    assert "Optional Rule 301" in problems(state, {"bribe": 1}, state["seats"][0])


# --- the option off, the default decree, the end of the game ----------------------------------


def test_301_option_off_leaves_the_game_unchanged() -> None:
    assert RULESET.options["zeus"].default == ""
    assert RULESET.resolved_options({})["zeus"] == ""  # every option recorded, with its default
    assert RULESET.resolved_options({"zeus": "eve"})["zeus"] == "eve"
    state = new_game()
    assert "zeus" not in state and state["options"] == {"prayer": "off", "lesser_evil": "off"}
    view = RULESET.view(state, state["seats"][0])
    assert "zeus" not in view and "zeus" not in RULESET.view(state, None)
    phase = phase_of(state, "logsheet")
    form = RULESET.order_form(view, phase, state["seats"][0])
    assert "bribe" not in form and "301" not in form
    on = zeus_game()
    form = RULESET.order_form(RULESET.view(on, on["seats"][0]), phase_of(on, "logsheet"),
                              on["seats"][0])
    assert "bribe = 0" in form
    _, outcome = advance(state)  # without Zeus, God Placement follows the Log Sheets
    assert phase_of(state, "place") and not of_type(outcome, "zeus-decree")


def test_301_nmr_default_decree_favor_in_seating_order_nothing_else() -> None:
    state = zeus_game()
    to_zeus_phase(state, {state["seats"][0]: {"prayer": [{"glory": 2, "hero": HECTOR},
                                                         {"glory": 1, "hero": AJAX}]}})
    phase = phase_of(state, "zeus")
    assert RULESET.default_orders(state, phase, ZEUS) == {}
    outcome = RULESET.resolve(state, phase, {ZEUS: {}}, rng("nmr"))
    assert zeus.decree(state) == {"favor": state["seats"], "protect": [], "revive": [],
                                  "bolts": []}
    while state["step"] == "place":
        phase, more = advance(state)
        outcome.events += more.events
    answers = [e["result"] for e in outcome.events if e["type"] == "prayer"]
    assert answers == ["none", "none"]


def test_301_the_decree_is_revealed_at_the_end_and_zeus_can_win() -> None:
    state = zeus_game()
    state["glory"][ZEUS] = 500
    to_zeus_phase(state)
    decree(state, {"favor": [state["seats"][3]]})
    events = RULESET.end_of_game(state, "a test")
    winner = of_type(events, "winner")[0]
    assert winner["players"] == [ZEUS]
    assert [e["player"] for e in of_type(events, "special-victory")] == state["seats"]
    assert RULESET.result(state)["score"][ZEUS] == 500
    view = RULESET.view(state, None)
    assert view["zeus_decrees"]["1"]["favor"][0] == state["seats"][3]
    context = RULESET.report_context(view, None)
    assert RULESET.report_public(view)["gods"][ZEUS] == "Zeus"
    assert any("Favor (301 C 1)" in line for line in context["zeus"]["revealed"])


# --- whole games -------------------------------------------------------------------------------


def _stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"mythology-zeus/{label}".encode()).digest())


def _no_none_or_float(value: Any, where: str) -> None:
    assert value is not None and not isinstance(value, float), where
    if isinstance(value, dict):
        for k, v in value.items():
            _no_none_or_float(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _no_none_or_float(v, f"{where}[{i}]")


def play(seed: str) -> tuple[State, list[dict[str, Any]], list[str]]:
    """A whole five-player game with Zeus, Prayer and Sacrifice, every phase by the bots."""
    names = ("g1", "g2", "g3", "g4", "g5")
    options = {"setup": "random", "prayer": "on", "zeus": "g3"}
    state = RULESET.setup(names, options, {}, Rng(_stream(f"p/{seed}"),
                                                  _stream(f"s/{seed}"))).state
    events: list[dict[str, Any]] = []
    phases: list[str] = []
    while (phase := RULESET.next_phase(state)) is not None:
        assert len(phases) < 1000, "the game does not end"
        phases.append(phase.id)
        orders = {}
        for p in phase.actors:
            view = RULESET.view(state, p)
            orders[p] = RULESET.bot_orders(view, phase, p, _stream(f"bot/{seed}/{phase.id}/{p}"))
            assert RULESET.validate(state, phase, p, orders[p]) == [], (phase.id, p, orders[p])
        outcome = RULESET.resolve(state, phase, orders, Rng(_stream(f"p/{seed}/{phase.id}"),
                                                            _stream(f"s/{seed}/{phase.id}")))
        state = outcome.state
        for e in outcome.events:
            assert isinstance(e.get("type"), str) and isinstance(e.get("text"), str), e
        _no_none_or_float(outcome.events, phase.id)
        _no_none_or_float(outcome.private, phase.id)
        events += outcome.events
    return state, events, phases


def test_301_whole_game_with_bots_finishes_and_glory_matches_the_events() -> None:
    state, events, phases = play("one")
    z, seats = "g3", state["seats"]
    assert state["step"] == "over" and z not in seats
    assert RULESET.result(state) == {"score": state["glory"]} and z in state["glory"]
    # Glory: 10 for every god (008 C), 0 for Zeus (301 C c); every change is an event.
    start = dict.fromkeys(seats, 10) | {z: 0}
    by_events = glory_by_events(events)
    assert {p: start[p] + by_events.get(p, 0) for p in start} == state["glory"]
    # Zeus's Glory is exactly what the gods gave him (301 C c): their Prayers and
    # Sacrifices, their bribes, and as much as each gained To the Glory of Zeus (216 G 1).
    offered = bribed = 0
    for p in seats:
        for sheet in state["logsheets"][p].values():
            offered += sum(o["glory"] for o in sheet["offers"])
            bribed += sheet.get("bribe", 0)
    glory_of_zeus = sum(e["amount"] for e in of_type(events, "glory")
                        if e["player"] in seats and "(216 G 1)" in e["text"])
    assert state["glory"][z] == offered + bribed + glory_of_zeus
    assert sum(state["zeus"]["given"].values()) == state["glory"][z]
    assert offered and glory_of_zeus  # the game exercised them
    # Zeus acts only in his own phase, once a Turn; a struck god has no phase that Turn.
    assert [x for x in phases if x.endswith(".zeus")] == [
        f"t{t:02d}.zeus" for t in range(1, 16)]
    for t, d in state["zeus"]["decrees"].items():
        for god in (b["god"] for b in d["bolts"] if b["god"]):
            assert not [x for x in phases if x.startswith(f"t{int(t):02d}.")
                        and x.endswith(f".{god}")]
    kinds = {e["type"] for e in events}
    assert {"zeus-decree", "lightning", "prayer"} <= kinds
    # Deterministic: the same keys give the same game.
    again, again_events, _ = play("one")
    assert again == state and again_events == events


@pytest.mark.slow
def test_301_demo_campaign_with_zeus_passes_the_audit(tmp_path: Path) -> None:
    result = demo.run(games.get("mythology"), tmp_path / "d", players=5, seed="z",
                      options={"zeus": "alice", "prayer": "on"}, resolve=games.get)
    assert "alice" in result.result["score"]
    reports = tmp_path / "d" / "campaign" / "gm" / "records"
    last = sorted(reports.iterdir())[-1] / "reports"
    assert "ZEUS'S DECREES, REVEALED (alice, 301)" in (last / "gazette.txt").read_text()
    for path in reports.glob("*/reports/*.txt"):
        assert all(len(line) <= 78 for line in path.read_text().splitlines()), path
    second = (reports / "000002" / "reports" / "alice.txt").read_text()
    assert "ZEUS (301): WHAT IS OFFERED TO YOU" in second and "YOUR HAND" not in second

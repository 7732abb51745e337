"""Deukalion's round as the engine runs it (Setup 1-6, Sail 1-4, Round 1-7, End 1, the email
adaptations): whole phases through the ruleset, from a real set-up."""

from __future__ import annotations

import hashlib
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.deukalion import scoring
from pbem.games.deukalion.game import RULESET

C = RULESET.c
State = dict[str, Any]


def rng(label: str) -> Rng:
    return Rng(Stream(hashlib.sha256(f"deuk-turn/p/{label}".encode()).digest()),
               Stream(hashlib.sha256(f"deuk-turn/s/{label}".encode()).digest()))


def new(players: tuple[str, ...] = ("alice", "bob", "carol"), options: dict[str, str] | None
        = None, joins: dict[str, Any] | None = None, key: str = "g") -> State:
    return RULESET.setup(players, options or {}, joins or {}, rng(f"setup/{key}")).state


def phase(s: State) -> PhaseSpec:
    spec = RULESET.next_phase(s)
    assert spec is not None
    return spec


def test_setup_1_6_and_sail_1_4() -> None:
    s = new(("alice", "bob", "carol", "dave"))
    assert sum(len(x) for x in s["chests"].values()) == 15  # Setup 1
    assert all(len(x) <= C.board.cities[k].spaces for k, x in s["chests"].items())
    assert s["hydra"] == C.board.hydra_start  # Setup 2
    assert len(s["display"]) == 2 and not set(s["display"]) & set(s["personal"].values())
    assert all(len(h) == 3 for h in s["hands"].values())  # Sail 1: 3 Action cards
    assert all(s["personal"][p] for p in s["seats"])  # and 1 Pursuit card
    assert all(s["board"][p] == {"hoplites": 10, "chests": []} for p in s["seats"])  # Sail 2
    ships = list(s["ships"].values())
    assert len(set(ships)) == 4 and set(ships) <= set(C.board.anchors)  # Sail 3
    assert s["active"] == s["seats"][0] and s["step"] == "sail"  # Sail 4, Round 1
    assert set(s["kylix"]) == {"centre", "slots"} and len(s["kylix"]["slots"]) == 4


def test_round_2_all_others_sail_in_one_phase_then_the_active_player() -> None:
    s = new()
    spec = phase(s)
    others = [p for p in s["seats"][1:]]
    assert spec.id == "t01.sail" and list(spec.actors) == others
    RULESET.resolve(s, spec, {p: {} for p in others}, rng("a"))
    spec = phase(s)
    assert spec.id == f"t01.kylix.{s['seats'][0]}" and spec.actors == (s["seats"][0],)
    RULESET.resolve(s, spec, {s["seats"][0]: {}}, rng("b"))
    assert s["active"] == s["seats"][1] and s["turn"] == 2 and s["step"] == "sail"


def test_round_2_option_sequential_a_phase_for_each_sailor_in_seat_order() -> None:
    s = new(options={"sail": "sequential"})
    seats = s["seats"]
    for p in seats[1:]:  # from the active player's left
        spec = phase(s)
        assert spec.id == f"t01.sail.{p}" and spec.actors == (p,)
        RULESET.resolve(s, spec, {p: {}}, rng(p))
    assert phase(s).kind == "kylix"


def test_end_1_the_target_reached_while_sailing_ends_the_game_at_once() -> None:
    s = new()
    sailor = s["seats"][1]
    s["honour"][sailor] = scoring.target(s)  # as if the last card had just come
    out = RULESET.resolve(s, phase(s), {p: {} for p in phase(s).actors}, rng("end"))
    assert s["step"] == "over" and s["result"]["winner"] == sailor
    assert out.events[-1]["type"] == "game-over"
    assert RULESET.next_phase(s) is None  # the active player never turns the cup


def test_nmr_defaults_stay_and_rotation_0() -> None:
    s = new()
    spec = phase(s)
    assert all(RULESET.default_orders(s, spec, p) == {} for p in spec.actors)
    ships = dict(s["ships"])
    RULESET.resolve(s, spec, {}, rng("nmr"))
    assert s["ships"] == ships  # nobody sailed


def test_sail_1_hands_and_personal_pursuits_are_secret() -> None:
    s = new(joins={"bob": {"choices": {"steal": "card"}}})
    for reader in ("alice", "carol", None):
        view = RULESET.view(s, reader)
        assert "hands" not in view and "personal" not in view and "policy" not in view
        assert view.get("my_personal", "") != s["personal"]["bob"]
        assert view["hand_counts"]["bob"] == 3
    mine = RULESET.view(s, "bob")
    assert mine["my_hand"] == s["hands"]["bob"] and mine["my_choices"]["steal"] == "card"


def test_honour_3_5_simulate_recomputes_honour_cards_from_the_events() -> None:
    # pbem simulate's invariant: an Honour card that no event gave is a fault.
    before = new()
    after = {**before, "honour": {**before["honour"], "bob": 1}}
    told = [{"type": "honour", "player": "bob", "cards": 1, "text": "bob takes 1"}]
    assert RULESET.invariants(before, after, told, {}) == []
    assert any("bob's Honour cards" in x for x in RULESET.invariants(before, after, [], {}))


def test_kylix_1_score_1_reports_show_the_face_each_draw_gives() -> None:
    # The Kylix's dice show 1, 1, 2, 2, 3, 3 (Kylix 1): a draw of 5 is a 3. A hoplite's
    # throw is one of the 20 authored faces: 1-9 skull up, 10-18 skull down, 19-20 side.
    assert RULESET.die_face("t02/kylix/centre", 5) == "3"
    assert RULESET.die_face("t02/kylix/w", 1) == "1"
    assert RULESET.die_face("t01/sail/bob/place/bob/3", 9).startswith("skull up")
    assert RULESET.die_face("t01/sail/bob/place/bob/3", 10).startswith("skull down")
    assert RULESET.die_face("t07/kylix/ship/carol/2", 20) == "side"
    assert RULESET.die_face("setup/actions/29", 3) is None  # a shuffle shows no face

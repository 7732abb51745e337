"""Deukalion challenges, founding and the Styx (Score 1-3, Challenge Ship 1-3 + Note,
Challenge City 0-3, Challenge Hydra 0-4, Hydra Attack 1-4, Styx 1-4, Honour 3-4, Found 1-4,
Map 14): the analysis's scenario tests 5.2 items 2-6, 8 and the Hydra challenge of item 7.

Throws are scripted as outcomes (U = skull up, D = skull down, S = side), each one draw of the
20 faces of ``components.throw_faces()``; squares are found on the authored board by what they
are (an approach of Halikarnassos, open water), so that a redrawn grid keeps the tests."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.deukalion import challenges as ch
from pbem.games.deukalion import scoring
from pbem.games.deukalion.choices import DEFAULT
from pbem.games.deukalion.components import load, throw_faces
from tests.scripted import Scripted

C = load()
B = C.board
FACES = throw_faces()
U, D, S = (FACES.index(f) + 1 for f in ("up", "down", "side"))
HYDRA_CARDS = [p for p, x in C.pursuits.items() if x.hydra]
PLAIN_CARDS = [p for p, x in C.pursuits.items() if not x.hydra]


def sea(a: str, b: str) -> int:
    return B.distances(a).get(b, 999)


def manhattan(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def ring(sq: str, d: int, hydra: bool = False) -> list[str]:
    return sorted(x for x, k in B.distances(sq, hydra).items() if k == d)


# Open water: a water square (not the Hydra's start) with free water 3 steps away all round.
OPEN = [sq for sq in sorted(B.squares) if B.squares[sq].kind == "water"
        and sq != B.hydra_start and len(ring(sq, 3, hydra=True)) >= 4]
SEA, SEA2 = OPEN[0], OPEN[-1]


def make(players: tuple[str, ...] = ("alice", "bob", "carol"), **over: Any) -> dict[str, Any]:
    """A state of the design's layout: ships on the anchors, 10 hoplites on board each, no
    chests anywhere unless given, the Hydra on its start."""
    seats = list(players)
    plain = list(PLAIN_CARDS)
    state: dict[str, Any] = {
        "seats": seats, "turn": 1, "active": seats[0], "step": "sail",
        "kylix": {"centre": 2, "slots": [3, 1, 2, 3]},
        "ships": {p: B.anchors[i] for i, p in enumerate(seats)},
        "board": {p: {"hoplites": 10, "chests": []} for p in seats},
        "underworld": dict.fromkeys(seats, 0), "placed": dict.fromkeys(seats, 0),
        "settlements": {s: {"owner": "", "hoplites": 0} for s in B.settlements},
        "chests": {k: [] for k in B.cities}, "hydra": B.hydra_start,
        "action_deck": [], "action_discard": [], "hands": {p: [] for p in seats},
        "permanents": {p: [] for p in seats},
        "pursuit_deck": plain[4:], "display": plain[:2],
        "personal": {p: "" for p in seats}, "achieved": {p: [] for p in seats},
        "honour": dict.fromkeys(seats, 0), "policy": {p: dict(DEFAULT) for p in seats},
        "effects": {}, "result": {},
    }
    state.update(over)
    return state


def hoplites_kept(state: dict[str, Any]) -> None:
    """Sail 1: each player's 10 hoplites are on board, below, on settlements or placed."""
    for p in state["seats"]:
        settled = sum(x["hoplites"] for x in state["settlements"].values() if x["owner"] == p)
        assert (state["board"][p]["hoplites"] + state["underworld"][p] + settled
                + state["placed"][p]) == 10, p
        assert state["board"][p]["hoplites"] + len(state["board"][p]["chests"]) <= 10, p


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


# --- Score 1-3 --------------------------------------------------------------------------------

def test_score_3_throw_counts_half_points_and_skulls_go_below() -> None:
    s = make()
    s["board"]["alice"]["hoplites"] = 6
    s["underworld"]["alice"] = 4
    stream = Scripted([U, U, D, D, D, S])
    score2, events = ch.throw(s, "alice", stream, "t01/x")
    assert score2 == 7 and events[0]["score"] == "3.5"  # 0 + 0 + 1 + 1 + 1 + 1/2
    assert s["board"]["alice"]["hoplites"] == 4 and s["underworld"]["alice"] == 6
    assert [d.label for d in stream.draws] == [f"t01/x/alice/{i}" for i in range(1, 7)]
    assert all(d.n == 20 for d in stream.draws)  # one draw of the 20 authored faces each
    assert events[0]["faces"] == ["up", "up", "down", "down", "down", "side"]
    hoplites_kept(s)


# --- Challenge Ship 1-3 + Note ------------------------------------------------------------------

def ship_fight(attacker_throws: list[int], defender_throws: list[int], **over: Any
               ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any], Scripted]:
    s = make(**over)
    s["ships"]["alice"] = s["ships"]["bob"] = SEA  # alice sailed onto bob's square
    s["board"]["alice"]["hoplites"] = len(attacker_throws)
    s["underworld"]["alice"] = 10 - len(attacker_throws)
    s["board"]["bob"]["hoplites"] = len(defender_throws)
    s["underworld"]["bob"] = 10 - len(defender_throws)
    s["board"]["alice"]["chests"] = ["green"]
    sealed = Scripted([2])
    events, private = ch.ship(C, s, "alice", "bob", Scripted(attacker_throws + defender_throws),
                              "t01/ship", sealed)
    return s, events, private, sealed


def test_challenge_ship_2_draw_goes_to_the_defender() -> None:
    s, events, private, _ = ship_fight([D, D, S, S], [D, D, D])  # 3.0 to 3.0
    fight = next(e for e in events if e["type"] == "challenge-ship")
    assert fight["winner"] == "bob" and fight["loser"] == "alice"
    assert fight["score2"] == {"alice": 6, "bob": 6}
    # the defender steals by ITS standing choice (default: a chest)
    assert s["board"]["bob"]["chests"] == ["green"] and s["board"]["alice"]["chests"] == []
    # ... and pushes the attacker exactly 3 squares by sea onto a free square
    to = s["ships"]["alice"]
    assert sea(SEA, to) == 3 and to not in (s["ships"]["bob"], s["ships"]["carol"], s["hydra"])
    assert s["ships"]["bob"] == SEA and private == {}
    hoplites_kept(s)


def test_challenge_ship_3_winner_steals_a_random_card_kept_secret() -> None:
    s = make()
    s["policy"]["alice"]["steal"] = "card"
    s["ships"]["alice"] = s["ships"]["bob"] = SEA
    s["hands"]["bob"] = ["reclaim", "hydra_plus", "move_plus"]
    s["board"]["bob"]["chests"] = ["red"]
    s["board"]["bob"]["hoplites"] = 1
    s["underworld"]["bob"] = 9
    sealed = Scripted([2])
    events, private = ch.ship(C, s, "alice", "bob", Scripted([D] * 10 + [U]), "t02/ship",
                              sealed)
    assert s["hands"]["alice"] == ["hydra_plus"]
    assert s["hands"]["bob"] == ["reclaim", "move_plus"]
    assert [(d.label, d.n) for d in sealed.draws] == [("t02/ship/steal", 3)]
    assert s["board"]["bob"]["chests"] == ["red"]  # a card, not the chest
    public = " ".join(str(e) for e in events)
    assert "an Action card" in public
    assert "hydra_plus" not in public and C.actions["hydra_plus"].name not in public
    assert {p: [e["card"] for e in x] for p, x in private.items()} == {
        "alice": ["hydra_plus"], "bob": ["hydra_plus"]}
    assert C.actions["hydra_plus"].name in private["bob"][0]["text"]
    hoplites_kept(s)


def test_challenge_ship_3_nothing_of_the_chosen_kind_takes_the_other() -> None:
    s = make()
    s["ships"]["alice"] = s["ships"]["bob"] = SEA
    s["hands"]["bob"] = ["draw"]  # alice wants a chest (default); bob carries none
    _, private = ch.ship(C, s, "alice", "bob", Scripted([D] * 10 + [U] * 10), "t01/s",
                         Scripted([1]))
    assert s["hands"]["alice"] == ["draw"] and set(private) == {"alice", "bob"}
    hoplites_kept(s)


def test_challenge_ship_3_chest_the_winners_pursuits_need_first() -> None:
    red_card = next(p for p in PLAIN_CARDS if any(t.kind == "deliver" and t.colour == "red"
                                                    for t in C.pursuits[p].tasks))
    others = [p for p in PLAIN_CARDS if p != red_card and not any(
        t.kind == "deliver" and t.colour in ("red", "blue") for t in C.pursuits[p].tasks)]
    s = make(display=[others[0], red_card])
    s["ships"]["alice"] = s["ships"]["bob"] = SEA
    s["board"]["bob"]["chests"] = ["blue", "red"]
    ch.ship(C, s, "alice", "bob", Scripted([D] * 10 + [U] * 10), "t01/s", Scripted())
    assert s["board"]["alice"]["chests"] == ["red"] and s["board"]["bob"]["chests"] == ["blue"]


def test_map_14_full_shipboard_when_stealing_a_chest() -> None:
    s = make()
    s["ships"]["alice"] = s["ships"]["bob"] = SEA
    s["board"]["alice"] = {"hoplites": 8, "chests": ["black", "black"]}  # full: 8 + 2
    s["underworld"]["alice"] = 2
    s["board"]["bob"]["chests"] = ["yellow"]
    events, _ = ch.ship(C, s, "alice", "bob", Scripted([S] * 8 + [U] * 10), "t01/s",
                        Scripted())
    assert s["board"]["alice"] == {"hoplites": 7, "chests": ["black", "black", "yellow"]}
    assert s["underworld"]["alice"] == 3 and "room" in types(events)
    hoplites_kept(s)


def test_challenge_ship_2_defender_with_0_hoplites() -> None:
    # the attacker scoring 0 draws with the empty defender: the defender wins
    s, events, _, _ = ship_fight([U, U], [])
    assert next(e for e in events if e["type"] == "challenge-ship")["winner"] == "bob"
    assert s["board"]["bob"]["chests"] == ["green"]
    # half a point beats him
    s, events, _, _ = ship_fight([U, S], [])
    assert next(e for e in events if e["type"] == "challenge-ship")["winner"] == "alice"
    assert s["ships"]["alice"] == SEA and sea(SEA, s["ships"]["bob"]) == 3


def test_challenge_ship_3_push_by_the_winners_choice() -> None:
    s = make()
    s["policy"]["alice"]["push"] = "far_from_styx"
    s["ships"]["alice"] = s["ships"]["bob"] = SEA
    ch.ship(C, s, "alice", "bob", Scripted([D] * 10 + [U] * 10), "t01/s", Scripted())
    choices = ch.push_squares(C, make(ships={"alice": SEA, "bob": SEA, "carol": B.anchors[2]}),
                              SEA)
    styx = {sq: min(sea(x, sq) for x in B.styx) for sq in choices}
    far = max(styx.values())
    assert s["ships"]["bob"] == min(sq for sq in choices if styx[sq] == far)


def test_challenge_ship_2_action_cards_add_to_the_throw() -> None:
    shield = next(a for a in C.actions.values() if a.effect == "bronze_shield")
    s = make(effects={"challenge_bonus2": 2})  # alice (active) played +1 this turn
    s["permanents"]["bob"] = [shield.id]
    s["ships"]["alice"] = s["ships"]["bob"] = SEA
    under(s, {"alice": 8, "bob": 8})
    events, _ = ch.ship(C, s, "alice", "bob", Scripted([D, U, S, U]), "t01/s", Scripted())
    fight = next(e for e in events if e["type"] == "challenge-ship")
    assert fight["score2"] == {"alice": 2 + 2, "bob": 1 + shield.amount}
    assert s["effects"]["challenge_bonus2"] == 0  # "in one challenge this turn"


def test_challenge_ship_1_refused_on_anchor_and_styx() -> None:
    s = make()
    s["ships"]["alice"] = s["ships"]["bob"] = B.anchors[0]
    assert "Ship 2" in ch.why_not_ship(C, s, "alice", "bob")
    s["ships"]["alice"] = s["ships"]["bob"] = B.styx[0]
    assert "Styx 3" in ch.why_not_ship(C, s, "alice", "bob")
    with pytest.raises(ValueError):
        ch.ship(C, s, "alice", "bob", Scripted(), "t01/s", Scripted())


def test_challenge_ship_note_push_over_ships_and_the_hydra_not_land() -> None:
    # a start from which some water square is 3 squares away as the crow flies but farther
    # by sea (land between): never a push target
    start, behind = next((a, x) for a in sorted(B.squares) if B.squares[a].kind == "water"
                         for x in sorted(B.squares) if B.water(x) and manhattan(a, x) == 3
                         and sea(a, x) > 3 and len(ring(a, 3)) >= 2)
    s = make(ships={"alice": start, "bob": "", "carol": ""})
    near = ring(start, 1) + ring(start, 2)
    s["ships"] = {f"x{i}": sq for i, sq in enumerate(near[1:])}  # ships all around
    s["ships"]["alice"] = start
    s["hydra"] = near[0]
    got = ch.push_squares(C, s, start)
    assert got == ring(start, 3)  # through ships and the Hydra
    assert behind not in got
    # an occupied square is not free
    s["ships"]["x99"] = got[0]
    assert ch.push_squares(C, s, start) == got[1:]


def test_push_no_free_square_at_3_goes_to_the_nearest_farther() -> None:
    s = make()
    s["ships"] = {f"x{i}": sq for i, sq in enumerate(ring(SEA, 3))}
    assert ch.push_squares(C, s, SEA) == sorted(set(ring(SEA, 4)) - {s["hydra"]})


# --- Challenge City 0-3 -------------------------------------------------------------------------

def test_challenge_city_2_meet_or_beat_halikarnassos_4() -> None:
    approach = B.approaches("halikarnassos")[0]
    s = make()
    s["ships"]["alice"] = approach
    s["chests"]["halikarnassos"] = ["blue", "yellow", "black"]
    s["board"]["alice"] = {"hoplites": 8, "chests": ["red", "green"]}  # a full shipboard
    s["underworld"]["alice"] = 2
    events = ch.place(C, s, "alice", "halikarnassos", Scripted([S] * 8), "t01/c")  # 4.0
    assert next(e for e in events if e["type"] == "challenge-place")["won"]
    assert s["board"]["alice"]["hoplites"] == 7 and s["underworld"]["alice"] == 3  # Map 14
    assert s["board"]["alice"]["chests"] == ["red", "green", "blue"]
    assert s["chests"]["halikarnassos"] == ["yellow", "black"]
    hoplites_kept(s)
    s = make()
    s["ships"]["alice"] = approach
    s["chests"]["halikarnassos"] = ["blue"]
    s["board"]["alice"]["hoplites"] = 7
    s["underworld"]["alice"] = 3
    events = ch.place(C, s, "alice", "halikarnassos", Scripted([S] * 7), "t01/c")  # 3.5
    assert not next(e for e in events if e["type"] == "challenge-place")["won"]
    assert s["chests"]["halikarnassos"] == ["blue"] and s["board"]["alice"]["chests"] == []
    assert s["board"]["alice"]["hoplites"] == 7


def test_challenge_city_0_from_an_adjacent_water_square_only() -> None:
    s = make()
    s["chests"]["halikarnassos"] = ["blue"]
    s["ships"]["alice"] = next(sq for sq in B.squares if B.water(sq)
                               and sq not in B.approaches("halikarnassos"))
    assert "Challenge City 0" in ch.why_not_place(C, s, "alice", "halikarnassos")
    with pytest.raises(ValueError):
        ch.place(C, s, "alice", "halikarnassos", Scripted([D] * 10), "t01/c")
    s["ships"]["alice"] = B.approaches("halikarnassos")[0]
    assert ch.why_not_place(C, s, "alice", "halikarnassos") == ""
    s["chests"]["halikarnassos"] = []
    assert "no treasure chest" in ch.why_not_place(C, s, "alice", "halikarnassos")
    s["ships"]["alice"] = B.approaches("ephesus")[0]
    assert "found it instead" in ch.why_not_place(C, s, "alice", "ephesus")


def test_challenge_city_2_seize_owned_settlement() -> None:
    s = make()
    s["settlements"]["ephesus"] = {"owner": "bob", "hoplites": 1}
    s["board"]["bob"]["hoplites"] = 9
    s["ships"]["alice"] = B.approaches("ephesus")[0]
    s["board"]["alice"]["hoplites"] = 3
    s["underworld"]["alice"] = 7
    before = {p: scoring.points(C, s, p) for p in ("alice", "bob")}
    events = ch.place(C, s, "alice", "ephesus", Scripted([D, U, U]), "t01/c")  # 1.0
    assert s["settlements"]["ephesus"] == {"owner": "alice", "hoplites": 1}
    assert s["underworld"]["bob"] == 1 and s["board"]["alice"]["hoplites"] == 0
    assert scoring.points(C, s, "alice") == before["alice"] + 1
    assert scoring.points(C, s, "bob") == before["bob"] - 1
    assert "seize" in types(events)
    hoplites_kept(s)
    # half a point is below Ephesus's 1: nothing changes hands
    s["board"]["bob"]["hoplites"] = 5
    s["underworld"]["bob"] = 5
    s["ships"]["bob"] = s["ships"]["alice"]
    ch.place(C, s, "bob", "ephesus", Scripted([S, U, U, U, U]), "t01/d")
    assert s["settlements"]["ephesus"] == {"owner": "alice", "hoplites": 1}
    hoplites_kept(s)


# --- Found 1-4 ------------------------------------------------------------------------------------

def test_found_3_hoplites_move_onto_the_settlement() -> None:
    two = next(k for k, x in B.settlements.items() if x.hoplites == 2)
    s = make()
    s["ships"]["alice"] = B.approaches(two)[0]
    events = ch.found(C, s, "alice", two)
    assert s["settlements"][two] == {"owner": "alice", "hoplites": 2}
    assert s["board"]["alice"]["hoplites"] == 8 and scoring.points(C, s, "alice") == 2
    assert events[0]["type"] == "found"
    hoplites_kept(s)
    s["ships"]["bob"] = s["ships"]["alice"]
    assert "Found 2" in ch.why_not_found(C, s, "bob", two)  # challenge it instead
    s2 = make()
    s2["ships"]["alice"] = B.approaches(two)[0]
    s2["board"]["alice"]["hoplites"] = 1
    s2["underworld"]["alice"] = 9
    assert "Found 3" in ch.why_not_found(C, s2, "alice", two)


# --- Challenge Hydra 0-4 and Hydra Attack 1-4 -------------------------------------------------

def test_challenge_hydra_0_only_with_defeat_the_hydra_shown() -> None:
    s = make()
    s["ships"]["alice"] = s["hydra"]
    assert not ch.hydra_open(C, s, "alice")
    with pytest.raises(ValueError):
        ch.hydra(C, s, "alice", Scripted([D] * 10), "t01/h")
    s["personal"]["alice"] = HYDRA_CARDS[0]  # analysis 5.1 item 11: the owner may
    assert ch.hydra_open(C, s, "alice") and not ch.hydra_open(C, s, "bob")


def test_ship_6_challenge_hydra_3_win_takes_the_card_and_moves_the_hydra() -> None:
    s = make(display=[PLAIN_CARDS[0], HYDRA_CARDS[0]], pursuit_deck=PLAIN_CARDS[5:8])
    top = s["pursuit_deck"][-1]
    s["hydra"] = s["ships"]["alice"] = SEA
    s["ships"]["bob"] = SEA2
    events = ch.hydra(C, s, "alice", Scripted([D] * 5 + [U] * 5), "t01/h")  # 5.0
    assert s["achieved"]["alice"] == [HYDRA_CARDS[0]]
    assert s["display"] == [PLAIN_CARDS[0], top] and top not in s["pursuit_deck"]
    assert s["honour"]["alice"] == 0  # the card, not an Honour card
    assert s["hydra"] in ring(SEA, 3, hydra=True) and s["hydra"] not in s["ships"].values()
    # far_from_me (default): as far from alice's ship as the choices allow
    options = ch.push_squares(C, make(hydra=SEA, ships={"alice": SEA, "bob": SEA2}), SEA,
                              hydra=True)
    assert sea(SEA, s["hydra"]) == max(sea(SEA, x) for x in options)
    assert s["ships"]["alice"] == SEA and s["underworld"]["alice"] == 5
    assert types(events)[-3:] == ["pursuit", "display", "hydra-moved"]
    hoplites_kept(s)


def test_ship_6_challenge_hydra_4_loss_the_player_to_the_right_pushes() -> None:
    s = make(display=[PLAIN_CARDS[0], HYDRA_CARDS[0]])
    s["hydra"] = s["ships"]["bob"] = SEA
    s["policy"]["alice"]["push"] = "near_hydra"  # alice sits to bob's right
    events = ch.hydra(C, s, "bob", Scripted([D] * 4 + [S] + [U] * 5), "t01/h")  # 4.5
    push = next(e for e in events if e["type"] == "push")
    assert push["by"] == "alice" == ch.right_of(s, "bob")
    assert s["display"] == [PLAIN_CARDS[0], HYDRA_CARDS[0]] and s["hydra"] == SEA
    assert sea(SEA, s["ships"]["bob"]) == 3
    choices = ring(SEA, 3)
    assert s["ships"]["bob"] == min(choices, key=lambda x: (sea(SEA, x), x))  # near the Hydra
    hoplites_kept(s)


def test_hydra_attack_3_and_4() -> None:
    # 5.0: one Honour card, and Carol relocates the Hydra
    s = make()
    s["hydra"] = s["ships"]["carol"] = SEA
    events = ch.hydra_attack(C, s, "alice", "carol", Scripted([D] * 5 + [U] * 5), "t01/a")
    assert s["honour"]["carol"] == 1 and s["underworld"]["carol"] == 5
    assert s["hydra"] in ring(SEA, 3, hydra=True) and s["ships"]["carol"] == SEA
    assert next(e for e in events if e["type"] == "hydra-moved")["by"] == "carol"
    hoplites_kept(s)
    # 5.0 with "Defeat the Hydra" displayed: that card instead of an Honour card
    s = make(display=[HYDRA_CARDS[0], PLAIN_CARDS[0]])
    s["hydra"] = s["ships"]["carol"] = SEA
    ch.hydra_attack(C, s, "alice", "carol", Scripted([D] * 5 + [U] * 5), "t01/a")
    assert s["honour"]["carol"] == 0 and s["achieved"]["carol"] == [HYDRA_CARDS[0]]
    assert HYDRA_CARDS[0] not in s["display"] and len(s["display"]) == 2
    # 4.5: the player to Carol's right (bob) pushes her 3 squares by his standing choice
    s = make()
    s["hydra"] = s["ships"]["carol"] = SEA
    events = ch.hydra_attack(C, s, "alice", "carol", Scripted([D] * 4 + [S] + [U] * 5),
                             "t01/a")
    push = next(e for e in events if e["type"] == "push")
    assert push["by"] == "bob" and sea(SEA, s["ships"]["carol"]) == 3
    assert s["honour"]["carol"] == 0 and s["hydra"] == SEA and s["underworld"]["carol"] == 5
    hoplites_kept(s)


def test_hydra_attack_1_never_on_ones_own_ship() -> None:
    s = make()
    s["hydra"] = s["ships"]["alice"] = SEA
    with pytest.raises(ValueError):
        ch.hydra_attack(C, s, "alice", "alice", Scripted([D] * 10), "t01/a")


def test_challenge_hydra_4_right_of_in_a_2_player_game_is_the_other() -> None:
    s = make(("alice", "bob"))
    assert ch.right_of(s, "alice") == "bob" and ch.right_of(s, "bob") == "alice"
    assert ch.right_of(make(), "alice") == "carol"  # the previous seat


# --- Styx 1-4, Honour 4 --------------------------------------------------------------------------

def under(s: dict[str, Any], counts: dict[str, int]) -> None:
    for p, n in counts.items():
        s["underworld"][p] = n
        s["board"][p]["hoplites"] = 10 - n


def test_styx_2_sole_majority_only() -> None:
    s = make()
    under(s, {"alice": 3, "bob": 3, "carol": 1})
    ch.styx(C, s, "alice")
    assert s["honour"]["alice"] == 0  # a draw: neither gets
    assert s["board"]["alice"]["hoplites"] == 10 and s["underworld"]["alice"] == 0
    s = make()
    under(s, {"alice": 4, "bob": 3, "carol": 1})
    ch.styx(C, s, "alice")
    assert s["honour"]["alice"] == 2 and s["underworld"]["alice"] == 0
    s = make(("alice", "bob"))
    under(s, {"alice": 4, "bob": 3})
    ch.styx(C, s, "alice")
    assert s["honour"]["alice"] == 1  # 2 players: 1 card only
    hoplites_kept(s)


def test_styx_1_reclaim_as_space_permits_dumping_listed_chests() -> None:
    s = make()
    under(s, {"alice": 4})
    s["board"]["alice"]["chests"] = ["red", "green", "blue"]  # 6 + 3: room for 1
    ch.styx(C, s, "alice")
    assert s["board"]["alice"]["hoplites"] == 7 and s["underworld"]["alice"] == 3
    assert s["board"]["alice"]["chests"] == ["red", "green", "blue"]  # nothing listed to dump
    s = make()
    under(s, {"alice": 4})
    s["board"]["alice"]["chests"] = ["red", "green", "blue"]
    s["policy"]["alice"]["dump"] = ["blue", "green"]
    events = ch.styx(C, s, "alice")
    assert s["board"]["alice"]["chests"] == ["red"] and s["board"]["alice"]["hoplites"] == 9
    assert s["underworld"]["alice"] == 1
    dumped = [e for e in events if e["type"] == "dump"]
    assert [e["colour"] for e in dumped] == ["blue", "green"]
    assert all(e["colour"] in s["chests"][e["city"]] for e in dumped)
    hoplites_kept(s)

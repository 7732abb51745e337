"""Whole Mythology games played in memory by the bots, checked after every phase.

Each game runs the real set-up and then every phase, ``RULESET.next_phase`` to ``None``, with
the bot's orders for every actor (from that player's own view). After every phase the state
and the phase's events must keep these properties:

* 007 B: no stored Log Sheet spends more than 10 Power Points; every bot order validates;
* in a Moving Player Phase at most five attempts are made (204 A), no Hero moves more than
  four hexes (204 M) and no unit fights twice (205 K);
* a unit is in exactly one place: a Hero on the board, dead, or waiting in reserve, a Monster
  on the board or dead, with a hex exactly when it is on the board; a Hero only dies through
  an event that says so (combat, Divine Occurrence, the Fates), and only the Fates bring one
  back (213 E 2); a dead unit never moves, fights, takes a Helper, tries for a ship or a Prize;
* Hero Helpers are in a hex or held by a living Hero (211 B, H); Prizes are in a hex, held by a
  living Hero, or off the board (212 E, 216 G 2 e); ships are on living Heroes (215);
* Glory changes only through events: every change is a "glory" event naming the player and the
  amount, except the Special Victory Conditions at the end, which their own event reports
  (216 G 7); the 10 Glory every god starts with (008 C) is the only other source;
* hands never exceed the hand size (010 A, D) and the 54 cards are always all somewhere:
  deck, hands, face down or discarded, each exactly once.

The game must also be deterministic: the same keys give the same events and final state.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from pbem.core.dice import Rng, Stream
from pbem.games.mythology import setup as setup_mod
from pbem.games.mythology.components import load
from pbem.games.mythology.game import RULESET
from pbem.games.mythology.logsheet import MAX_POWER_POINTS, LogSheet

State = dict[str, Any]
Event = dict[str, Any]

C = load()
ALL_CARDS = sorted(str(card) for card in C.cards)


def _stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"mythology-campaign/{label}".encode()).digest())


def _rng(label: str) -> Rng:
    return Rng(_stream(f"public/{label}"), _stream(f"sealed/{label}"))


@dataclass
class Tracker:
    """What the events say happened, to compare with the state after every phase."""

    state: State
    glory: dict[str, int] = field(default_factory=dict)
    dead: set[int] = field(default_factory=set)
    phases: int = 0
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.glory = dict(self.state["glory"])
        assert set(self.glory.values()) == {10}  # 008 C

    # -- the events of one phase, in order --
    def read(self, phase_id: str, events: list[Event]) -> None:
        for e in events:
            kind = e.get("type")
            where = f"{phase_id}: {e.get('text', e)}"
            for unit in self._actors(e):
                assert unit not in self.dead, f"dead unit {unit} acts after its death: {where}"
            if kind == "glory" and "player" in e:
                self.glory[e["player"]] += e["amount"]
            elif kind == "special-victory":
                self.glory[e["player"]] += e["glory"]  # 216 G 7
            if kind == "killed":
                self.dead.add(e["unit"])
            elif kind == "fate_removed" or (
                    kind == "occurrence_effect" and e.get("effect") == "killed"):
                self.dead.add(e["hero"])
            elif kind == "fate_born":
                self.dead.discard(e["hero"])  # 213 E 2: "brought back from the dead"
        if ".move." in phase_id:
            self._one_phase(phase_id, events)
        self.events += events

    @staticmethod
    def _one_phase(phase_id: str, events: list[Event]) -> None:
        """Within one Moving Player Phase: at most five attempts (204 A, 209 A), no Hero moved
        more than four hexes (204 M), no unit in more than one combat (205 K)."""
        assert len([e for e in events if e["type"] == "attempt"]) <= 5, phase_id
        hexes: dict[int, int] = {}
        fights: dict[int, int] = {}
        for e in events:
            if e["type"] == "move":
                hexes[e["unit"]] = hexes.get(e["unit"], 0) + len(e["path"])
            elif e["type"] == "combat":
                for unit in (e["attacker"], e["defender"]):
                    fights[unit] = fights.get(unit, 0) + 1
        assert all(n <= 4 for u, n in hexes.items() if u <= 32), (phase_id, hexes)
        assert all(n == 1 for n in fights.values()), (phase_id, fights)

    @staticmethod
    def _actors(e: Event) -> list[int]:
        kind = e.get("type")
        if kind == "move":
            return [e["unit"]]
        if kind == "combat":
            return [e["attacker"], e["defender"]]
        if kind == "intercept":
            return [e["unit"], e["target"]]
        if kind in ("helper-taken", "ship-roll", "capture-roll"):
            return [e["hero"]]
        return []

    # -- the state after the phase --
    def check(self, phase_id: str) -> None:
        s = self.state
        where = f"after {phase_id}"
        for p, sheets in s["logsheets"].items():  # 007 B
            for turn, data in sheets.items():
                points = LogSheet.from_dict(data).power_points
                assert points <= MAX_POWER_POINTS, f"{where}: {p}'s Turn {turn} sheet: {points}"
        board_heroes: set[int] = set()
        for h, x in s["heroes"].items():
            assert x["status"] in ("board", "dead", "reserve"), (where, h, x)
            assert bool(x["hex"]) == (x["status"] == "board"), (where, h, x)
            if x["hex"]:
                assert x["hex"] in C.map.hexes, (where, h, x)
                board_heroes.add(int(h))
            assert (x["status"] == "dead") == (int(h) in self.dead), (
                f"{where}: Hero {h} is {x['status']} but the events say "
                f"{'dead' if int(h) in self.dead else 'alive'}")
        for m, x in s["monsters"].items():
            assert x["status"] in ("board", "dead"), (where, m, x)
            assert bool(x["hex"]) == (x["status"] == "board"), (where, m, x)
            if x["hex"]:
                assert x["hex"] in C.map.hexes, (where, m, x)
            assert (x["status"] == "dead") == (int(m) in self.dead), (
                f"{where}: Monster {m} is {x['status']} but the events disagree")
        for h, x in s["helpers"].items():  # 211 B, H
            if x["holder"]:
                assert x["holder"] in board_heroes and not x["hex"], (where, h, x)
            else:
                assert x["hex"] in C.map.hexes, (where, h, x)
        for p, x in s["prizes"].items():  # 212 E, 216 G 2 e
            if x["off_board"]:
                assert x["off_board"] in s["seats"] and not x["hex"] and not x["holder"], (
                    where, p, x)
            elif x["holder"]:
                assert x["holder"] in board_heroes and not x["hex"], (where, p, x)
            else:
                assert x["hex"] in C.map.hexes and C.map.is_land(x["hex"]), (where, p, x)
            assert len(set(x["scored"])) == len(x["scored"]), (where, p, x)  # 216 G 2 d
        assert set(s["ships"]) <= board_heroes, (where, s["ships"])  # 215
        assert len(set(s["ships"])) == len(s["ships"]), (where, s["ships"])
        assert self.glory == s["glory"], (
            f"{where}: Glory {s['glory']} but the events add up to {self.glory}")
        size = setup_mod.hand_size(len(s["seats"]))  # 010 A, D
        for p, hand in s["hands"].items():
            assert len(hand) <= size, (where, p, hand)
        cards = list(s["deck"]) + list(s["discard"]) + [c for f in s["facedown"].values()
                                                         if f for c in [f]]
        cards += [c for hand in s["hands"].values() for c in hand]
        assert sorted(cards) == ALL_CARDS, f"{where}: cards lost or doubled"


def play(players: int, seed: str, *, check: bool = True) -> tuple[State, list[Event]]:
    """One whole game with the bots; every phase checked when ``check``."""
    names = tuple(f"g{i}" for i in range(1, players + 1))
    state = RULESET.setup(names, {"setup": "random"}, {}, _rng(f"setup/{seed}")).state
    tracker = Tracker(state)
    tracker.check("set-up")
    while (phase := RULESET.next_phase(state)) is not None:
        tracker.phases += 1
        assert tracker.phases < 2000, "the game does not end"
        orders: dict[str, dict[str, Any]] = {}
        for p in phase.actors:
            bot = _stream(f"bot/{seed}/{phase.id}/{p}")
            orders[p] = RULESET.bot_orders(RULESET.view(state, p), phase, p, bot)
            if check:
                assert RULESET.validate(state, phase, p, orders[p]) == [], (phase.id, p)
        outcome = RULESET.resolve(state, phase, orders, _rng(f"{seed}/{phase.id}"))
        state = tracker.state = outcome.state
        tracker.read(phase.id, outcome.events)
        if check:
            tracker.check(phase.id)
    assert state["step"] == "over"
    assert RULESET.result(state) == {"score": state["glory"]}
    assert len([e for e in tracker.events if e["type"] == "game-over"]) == 1  # 216 B
    specials = [e["player"] for e in tracker.events if e["type"] == "special-victory"]
    assert sorted(specials) == sorted(state["seats"])  # 216 G 7, once each
    return state, tracker.events


def _summary(events: list[Event]) -> Mapping[str, int]:
    out: dict[str, int] = {}
    for e in events:
        out[e["type"]] = out.get(e["type"], 0) + 1
    return out


@pytest.mark.parametrize("players", [2, 3, 5, 7, 10])
def test_bot_campaign_keeps_every_invariant(players: int) -> None:
    state, events = play(players, f"main-{players}")
    counts = _summary(events)
    # The games must exercise the rules the invariants are about, not only walk about.
    assert counts.get("move", 0) > 0 and counts.get("challenge", 0) > 0
    assert counts.get("occurrence", 0) + counts.get("plague", 0) > 0
    assert state["turn"] > 15 or all(x["off_board"] for x in state["prizes"].values())


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 6, 8, 9])
@pytest.mark.parametrize("seed", ["a"])
def test_bot_campaign_sweep(players: int, seed: str) -> None:
    """The table sizes the test above leaves out, one whole game each, so that every size
    from 2 to 10 is played here. (A second seed for each, about 14 s of the suite's 4-minute
    budget, became nine more games in .ci/run's soak: ``pbem simulate mythology --games 9``,
    every count of players in turn, through the real path; the sizes the test above plays
    were dropped from this sweep when issues 15-17 added three games.)"""
    play(players, f"sweep-{seed}-{players}")


def test_bot_campaigns_exercise_combat_captures_and_the_fates() -> None:
    """Over a few games the invariants above are checked on deaths, births and Prizes too."""
    seen: dict[str, int] = {}
    for players in (4, 6, 8):
        _, events = play(players, f"cover-{players}", check=False)
        for kind, n in _summary(events).items():
            seen[kind] = seen.get(kind, 0) + n
    for kind in ("combat", "killed", "fate_removed", "fate_born", "capture-roll", "glory",
                 "card-face-down", "occurrence_effect"):
        assert seen.get(kind, 0) > 0, f"no {kind} event in the bot games: {seen}"


def test_same_keys_same_game() -> None:
    first_state, first_events = play(4, "determinism", check=False)
    second_state, second_events = play(4, "determinism", check=False)
    assert first_events == second_events
    assert first_state == second_state
    other_state, _ = play(4, "determinism-other", check=False)
    assert other_state != first_state


def test_views_given_to_the_bots_do_not_change_the_state() -> None:
    """The bot reads only its view; reading views must leave the state as it was."""
    names = ("g1", "g2", "g3")
    state = RULESET.setup(names, {"setup": "random"}, {}, _rng("setup/views")).state
    for _ in range(12):
        phase = RULESET.next_phase(state)
        assert phase is not None
        before = copy.deepcopy(state)
        orders = {p: RULESET.bot_orders(RULESET.view(state, p), phase, p,
                                        _stream(f"views/{phase.id}/{p}")) for p in phase.actors}
        assert state == before
        state = RULESET.resolve(state, phase, orders, _rng(f"views/{phase.id}")).state

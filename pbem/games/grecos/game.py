"""The Grecos ruleset (``pbem new grecos``): set-up, the turn by email, views, the end.

Phases (docs/games/grecos.md, "Phases"): ``t00.join`` (the standing defence policy, sealed),
then for each player turn ``tNN.recruit.<player>`` (Recruit Phase) and ``tNN.war.<player>``
(Event, Move and Battle Phases), both sealed until the end of the game for the policy they may
carry; what they do is public at once. The chit drawn in the Recruit Phase is shown to its
drawer in the report that opens his recruit form; the Event card, in the one that opens his war
form (Recruit 1, Event 1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem
from pbem.core.hooks import GameModules
from pbem.core.ruleset import (
    JOIN_PHASE,
    REVEAL_GAME,
    OptionSpec,
    Orders,
    Outcome,
    PhaseSpec,
    Ruleset,
    copy_state,
)
from pbem.games.grecos import policy as policy_mod
from pbem.games.grecos import turn
from pbem.games.grecos.components import Components, load
from pbem.games.grecos.squares import SQUARES

State = dict[str, Any]
Event = dict[str, Any]

HAND_LIMIT = 5
CITY_STATE = "city_state"


class Grecos(GameModules, Ruleset):
    package = "pbem.games.grecos"  # forms, report, board, bot (GameModules)
    name = "grecos"
    title = "Grecos (Warpspawn Games), mythological Greek wargame"
    rules_version = "grecos-seed/pbem-1"
    min_players = 2  # Intro 1: "for 2 or more players"
    max_players = 6  # six City States, one starting Hero in each (Setup 1): authored
    options: ClassVar[Mapping[str, OptionSpec]] = {
        "rounds": OptionSpec("15", tuple(str(n) for n in range(0, 101)),
                             "rounds before the game ends with the most City States held "
                             "(0: play until someone holds all six, Victory 1)"),
        "materials": OptionSpec("off", ("off", "on"), "the golem materials of the seed's "
                                "OPTIONAL RULES table (Golem 1-16) as an authored variant: "
                                "each recruited unit gets one (docs/games/grecos.md)"),
    }

    @property
    def c(self) -> Components:
        return load()

    # --- joining and setup -------------------------------------------------------------
    def join_phase(self, players: tuple[str, ...]) -> PhaseSpec:
        return PhaseSpec(JOIN_PHASE, "join", players, sealed=True, reveal=REVEAL_GAME,
                         title="Join the campaign; your standing defence orders")

    def validate_join(self, player: str, orders: Orders) -> list[Problem]:
        problems = [Problem(f"[orders] {k}", "a join order takes only [orders.defend]",
                            "leave the other keys out") for k in orders if k != "defend"]
        if "defend" in orders:
            problems += policy_mod.parse(self.c, orders["defend"])[1]
        return problems

    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        c, public, sealed = self.c, rng.public, rng.sealed
        tiles = public.shuffle([t.id for t in c.terrains.values() for _ in range(t.count)],
                               "setup/tiles")  # Map 2
        board = dict(zip(SQUARES, tiles, strict=True))
        seats = public.shuffle(sorted(players), "setup/seats")  # Setup 2
        units: dict[str, dict[str, Any]] = {}
        free = [s for s in SQUARES if board[s] == CITY_STATE]
        for i, p in enumerate(seats, 1):  # Setup 1: a Hero in a City State each
            square = public.choice(free, f"setup/hero/{p}")
            free.remove(square)
            units[str(i)] = {"kind": "hero", "owner": p, "square": square,
                             "hits": c.units["hero"].hits}
        chits = c.chits()
        for _ in seats:  # the starting Heroes come out of the eight Hero chits (authored)
            chits.remove("hero")
        policies = {}
        for p in seats:
            raw = joins.get(p, {}).get("defend")
            parsed = policy_mod.parse(c, raw)[0] if raw is not None else None
            policies[p] = parsed or dict(policy_mod.DEFAULT)
        state: State = {
            "board": board, "seats": seats, "turn": 1, "round": 1, "active": seats[0],
            "step": "recruit", "units": units, "next_unit": len(seats) + 1,
            "pile": sealed.shuffle(chits, "setup/chits"), "chits": {p: [] for p in seats},
            "deck": sealed.shuffle(c.deck(), "setup/deck"), "discard": [],
            "hands": {p: [] for p in seats}, "policy": policies,
            "effects": turn.no_effects(), "kronos": 0, "eliminated": [], "result": {},
            "attacked": [], "options": {"rounds": options.get("rounds", "15"),
                                        "materials": options.get("materials", "off")},
        }
        events: list[Event] = [
            {"type": "board", "text": "The 64 terrain tiles are dealt onto the chessboard at "
             "random (Map 1-2)."},
            {"type": "seats", "order": seats, "text": "Turn order (Setup 2): "
             + ", ".join(seats) + f"; {seats[0]} goes first."},
        ]
        for u, x in units.items():
            events.append({"type": "hero", "player": x["owner"], "square": x["square"],
                           "unit": u, "text": f"{x['owner']}'s Hero (unit {u}) starts on the "
                           f"City State {x['square']} (Setup 1)."})
        private: dict[str, list[Event]] = {p: [] for p in seats}
        for p in seats:
            private[p].append({"type": "policy", "text": "Your standing defence orders: "
                               + " ".join(policy_mod.describe(c, policies[p]))})
        more, mine = turn.start_turn(c, state, rng)
        events += more
        for p, evs in mine.items():
            private.setdefault(p, []).extend(evs)
        return Outcome(state, events, private)

    # --- phases --------------------------------------------------------------------------
    def next_phase(self, state: State) -> PhaseSpec | None:
        if state["step"] == "over":
            return None
        p, t, step = state["active"], state["turn"], state["step"]
        title = ("Recruit Phase (Recruit 1-4)" if step == "recruit"
                 else "Event, Move and Battle Phases (Event 1-2, Move 1-8, Battle 1-13)")
        return PhaseSpec(f"t{t:02d}.{step}.{p}", step, (p,), sealed=True, reveal=REVEAL_GAME,
                         active=p, title=f"Turn {t} (round {state['round']}): {p}, {title}")

    def check(self, state: State, phase: PhaseSpec, player: str, orders: Orders
              ) -> tuple[list[Problem], list[Problem]]:
        problems, notes = turn.review(self.c, state, phase.kind, player, orders)
        return problems, ([] if problems else [Problem("", n) for n in notes])

    def validate(self, state: State, phase: PhaseSpec, player: str,
                 orders: Orders) -> list[Problem]:
        return turn.review(self.c, state, phase.kind, player, orders)[0]

    def provisional(self, state: State, phase: PhaseSpec, player: str,
                    orders: Orders) -> list[Problem]:
        return [Problem("", n) for n in turn.review(self.c, state, phase.kind, player,
                                                    orders)[1]]

    def default_orders(self, state: State, phase: PhaseSpec, player: str) -> Orders:
        """NMR: recruit nothing; in the war phase play, move and fight nothing (the newest
        cards over the hand limit go, Event 2)."""
        return {}

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        assert phase.active is not None
        player = phase.active
        given = orders.get(player, {})
        if turn.review(self.c, state, phase.kind, player, given)[0]:
            given = {}  # accepted by an older version, refused now: the default instead
        if phase.kind == "recruit":
            events, private = turn.recruit_phase(self.c, state, player, given, rng)
        else:
            events, private = turn.war_phase(self.c, state, player, given, rng)
        return Outcome(state, events, private)

    # --- views ---------------------------------------------------------------------------
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """The board, units and damage are public; piles, hands and the deck only as counts;
        the reader's own pile, hand and standing orders; at the end, every policy."""
        secret = ("pile", "chits", "deck", "hands", "policy")
        out = {k: v for k, v in state.items() if k not in secret}
        out["pile_count"] = len(state["pile"])
        out["deck_count"] = len(state["deck"])
        out["chit_counts"] = {p: len(x) for p, x in state["chits"].items()}
        out["hand_counts"] = {p: len(x) for p, x in state["hands"].items()}
        out["game_over"] = state["step"] == "over"
        if player in state["seats"]:
            out["my_chits"] = list(state["chits"][player])
            out["my_hand"] = list(state["hands"][player])
            out["my_policy"] = state["policy"][player]
        if out["game_over"]:
            out["policies"] = state["policy"]
        return out

    def bot_join(self, player: str, rng: Stream) -> Orders:
        return {}

    # --- simulations ---------------------------------------------------------------------
    def invariants(self, before: State | None, after: State, events: Sequence[Event],
                   private: Mapping[str, Sequence[Event]]) -> list[str]:
        return turn.invariants(self.c, after)

    def hide_from_others(self, state: State, player: str) -> State | None:
        if state["step"] == "over":
            return None
        hidden = copy_state(state)
        hidden["chits"][player] = ["hero"] * len(state["chits"][player])
        hidden["hands"][player] = ["fates"] * len(state["hands"][player])
        hidden["policy"][player] = {**policy_mod.DEFAULT, "react": not
                                    state["policy"][player]["react"]}
        return hidden

    def roles(self, state: State) -> dict[str, str]:
        return {p: f"seat {i}" for i, p in enumerate(state["seats"], 1)}

    def result(self, state: State) -> dict[str, Any]:
        if state["step"] != "over":
            return {}
        return dict(state["result"])


RULESET = Grecos()

"""The Mythology Basic Game ruleset (``pbem new mythology-basic``): phases, defaults, views.

Phases (``docs/games/mythology-basic.md``, "Phases"):

- ``t00.join``: every player's key, entropy and standing defence policy, sealed until the end
  of the game (the policy answers other players' attacks: :mod:`.defence`);
- set-up (with the join's record): gods drawn, favour rolled, counters placed, Game Turn 1's
  order drawn;
- ``tNN.turn.<player>``: one Player Turn (Basic Play 2A-3: god, Movement, Combat, Capturing of
  Prizes), sealed until the end of the game for the policy it may carry; every move, fight
  and capture is a public event at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem
from pbem.core.hooks import GameModules
from pbem.core.ruleset import (
    JOIN_PHASE,
    REVEAL_GAME,
    Orders,
    Outcome,
    PhaseSpec,
    Ruleset,
)
from pbem.games.mythology.basic import defence, scoring, turn
from pbem.games.mythology.basic import setup as prep
from pbem.games.mythology.components import Components, load

State = dict[str, Any]


class MythologyBasic(GameModules, Ruleset):
    package = "pbem.games.mythology.basic"  # forms, report, board, bot (GameModules)
    name = "mythology-basic"
    title = "Mythology (Yaquinto, 1980), Basic Game"
    rules_version = "basic-1980/pbem-1"
    min_players = 2  # Basic Prep 9 needs a Hero and a Monster side
    max_players = 10  # ten god counters (Basic Prep 7)

    @property
    def c(self) -> Components:
        return load()

    # --- joining and setup -------------------------------------------------------------
    def join_phase(self, players: tuple[str, ...]) -> PhaseSpec:
        """The join carries the first standing defence policy: sealed until the end."""
        return PhaseSpec(JOIN_PHASE, "join", players, sealed=True, reveal=REVEAL_GAME,
                         title="Join the campaign; your standing defence policy")

    def validate_join(self, player: str, orders: Orders) -> list[Problem]:
        problems = [Problem(f"[orders] {k}", "a join order takes only [orders.defend]",
                            "leave the other keys out") for k in orders if k != "defend"]
        if "defend" in orders:
            problems += defence.parse(orders["defend"])[1]
        return problems

    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        c, public = self.c, rng.public
        seats = sorted(players)
        dealt = public.shuffle(sorted(c.gods), "setup/gods")  # Basic Prep 7
        gods = {p: dealt[i] for i, p in enumerate(seats)}
        favour, rolls = prep.favour(seats, public)  # Basic Prep 9
        units = prep.place_units(c, public)  # Basic Prep 2-4
        prizes = prep.place_prizes(c, public, set(units.values()))  # Basic Prep 5
        policies = {p: defence.parse(joins[p]["defend"])[0] or dict(defence.DEFAULT)
                    if "defend" in joins.get(p, {}) else dict(defence.DEFAULT) for p in seats}
        state: State = {
            "seats": seats, "gods": gods, "favour": favour, "turn": 0, "order": [],
            "cursor": 0, "step": "turn", "pp": {}, "god_area": {},
            "units": units, "removed": {},
            "prizes": {p: {"hex": h, "by": "", "turn": 0} for p, h in prizes.items()},
            "vp": dict.fromkeys(seats, "0"), "allies": {p: [] for p in seats},
            "alliances": [], "policy": policies, "score": {},
        }
        events = [{"type": "gods", "gods": gods, "text": "The god counters are drawn (Basic "
                   "Prep 7): " + ", ".join(f"{p} {c.gods[g].name}" for p, g in gods.items())
                   + "."}]
        events += [{"type": "favour-rolls", "text": line} for line in rolls]
        events.append({"type": "favour", "favour": favour, "text": "Favour (Basic Prep 9): "
                       + "; ".join(f"{side}: " + ", ".join(p for p in seats if favour[p] == side)
                                   for side in (prep.HEROES, prep.MONSTERS)) + "."})
        counts: dict[str, int] = {}
        for h in units.values():
            a = c.map.area_of(h)
            counts[a] = counts.get(a, 0) + 1
        events.append({"type": "placed", "text": "The 64 Hero and Monster counters are placed "
                       "in the Areas that do not border the River Ocean, one Area after the "
                       "other (Basic Prep 3-4): " + ", ".join(
                           f"{c.map.areas[a].name} {n}" for a, n in sorted(counts.items()))
                       + "; the 10 Prizes in Areas that border it (Basic Prep 5); all face "
                       "up (Basic Prep 6)."})
        events += turn.start_game_turn(state, public, 1)
        return Outcome(state, events, {p: [{"type": "policy", "policy": policies[p], "text":
                                            "Your defence policy: "
                                            + defence.describe(policies[p]) + "."}]
                                       for p in seats})

    # --- phases --------------------------------------------------------------------------
    def next_phase(self, state: State) -> PhaseSpec | None:
        if state["step"] == "over":
            return None
        t, p = state["turn"], state["order"][state["cursor"]]
        god = self.c.gods[state["gods"][p]].name
        return PhaseSpec(f"t{t:02d}.turn.{p}", "turn", (p,), sealed=True, reveal=REVEAL_GAME,
                         active=p, title=f"Game Turn {t}: {p} ({god}), Player Turn "
                         "(Basic Play 2-3)")

    def validate(self, state: State, phase: PhaseSpec, player: str,
                 orders: Orders) -> list[Problem]:
        return turn.plan(self.c, state, player, orders)[1]

    def check(self, state: State, phase: PhaseSpec, player: str, orders: Orders
              ) -> tuple[list[Problem], list[Problem]]:
        _, problems, notes = turn.plan(self.c, state, player, orders)
        return problems, ([] if problems else [Problem("", n) for n in notes])

    def provisional(self, state: State, phase: PhaseSpec, player: str,
                    orders: Orders) -> list[Problem]:
        return [Problem("", n) for n in turn.plan(self.c, state, player, orders)[2]]

    def default_orders(self, state: State, phase: PhaseSpec, player: str) -> Orders:
        """NMR: the god to the free Area with most of the player's units; nothing moves."""
        return {"god": turn.default_god(self.c, state, player)}

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        assert phase.active is not None
        player = phase.active
        plan, problems, _ = turn.plan(self.c, state, player, orders[player])
        if problems:  # an order accepted by an older version: play the default instead
            plan = turn.plan(self.c, state, player, self.default_orders(state, phase,
                                                                        player))[0]
        play = turn.Turn(self.c, state, player, rng.public)
        play.play(plan)
        events = play.events
        state["cursor"] += 1
        if state["cursor"] >= len(state["order"]):
            if state["turn"] >= prep.LAST_TURN:
                events += scoring.final(state)
            else:
                events += turn.start_game_turn(state, rng.public, state["turn"] + 1)
        return Outcome(state, events, {player: play.private} if play.private else {})

    # --- views, forms, bots --------------------------------------------------------------
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """Everything is face up (Basic Prep 6) but the standing defence policies: each
        player sees his own; all are shown at the end."""
        out = {k: v for k, v in state.items() if k != "policy"}
        out["game_over"] = state["step"] == "over"
        if player in state["policy"]:
            out["my_policy"] = state["policy"][player]
        if out["game_over"]:
            out["policies"] = state["policy"]
        return out

    def bot_join(self, player: str, rng: Stream) -> Orders:
        from pbem.games.mythology.basic import bot

        return bot.join(rng)

    # --- simulations ---------------------------------------------------------------------
    def invariants(self, before: State | None, after: State, events: Sequence[dict[str, Any]],
                   private: Mapping[str, Sequence[dict[str, Any]]]) -> list[str]:
        from pbem.games.mythology.basic import invariants

        return invariants.check(self.c, before, after)

    def hide_from_others(self, state: State, player: str) -> State | None:
        hidden = dict(state)
        hidden["policy"] = {**state["policy"], player: {"mode": "hidden"}}
        return hidden if state["step"] != "over" else None

    def roles(self, state: State) -> dict[str, str]:
        return {p: f"{self.c.gods[g].name} ({state['favour'][p]})"
                for p, g in state["gods"].items()}

    def result(self, state: State) -> dict[str, Any]:
        if state["step"] != "over":
            return {}
        exact = state["score"]
        return {"score": {p: round(float(Fraction(v)), 3) for p, v in exact.items()},
                "exact": {p: scoring.shown(v) for p, v in exact.items()}}


RULESET = MythologyBasic()

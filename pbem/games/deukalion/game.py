"""The Deukalion ruleset (``pbem new deukalion``): set-up, the turn by email, views, the end.

Phases (docs/games/deukalion.md, "Phases"): ``t00.join`` (the standing choices, sealed), then
every turn ``tNN.sail`` (the other players' sailing by the centre die, Round 2-3: goal orders
sent at once, run in seat order from the active player's left) and ``tNN.kylix.<player>`` (the
active player's rotation of the cup and actions, Round 5-7). Both are sealed until the end of
the game for the standing choices they may carry; what they do is public at once. The Kylix is
shaken (public dice) at the end of the record that opens the sail phase (Round 1).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pbem.core.dice import DEUKALION_DIE, Rng
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
)
from pbem.games.deukalion import choices as choices_mod
from pbem.games.deukalion import turn
from pbem.games.deukalion.components import Components, load, throw_faces

State = dict[str, Any]
Event = dict[str, Any]

#: The Kylix's five dice (kylix.roll) and a thrown hoplite (challenges.throw: the last two
#: parts are the thrower and the hoplite's number); set-up shuffles start with "setup/".
_KYLIX_DRAW = re.compile(r"t\d+/kylix/(centre|n|e|s|w)")
_THROW_DRAW = re.compile(r"t\d+/(?!.*shuffle).+/[a-z0-9._-]+/\d+")
THROW_WORDS = {"up": "skull up", "down": "skull down", "side": "side"}  # 0, 1, 1/2 (Score 1-3)


class Deukalion(GameModules, Ruleset):
    package = "pbem.games.deukalion"  # forms, report, board, bot (GameModules)
    name = "deukalion"
    title = "Deukalion (Steinwender & Lepuschitz, Hasbro 2007)"
    rules_version = "hasbro-2007/pbem-1"
    min_players = 2  # Contents: 2-4 players
    max_players = 4
    options: ClassVar[Mapping[str, OptionSpec]] = {
        "sail": OptionSpec("together", ("together", "sequential"),
                           "the others' sailing (Round 2-3): one sealed phase for all, run in "
                           "seat order with goal orders (together), or a phase for each "
                           "sailor in seat order (sequential: the table's exact order, more "
                           "rounds of mail)"),
    }

    @property
    def c(self) -> Components:
        return load()

    def join_phase(self, players: tuple[str, ...]) -> PhaseSpec:
        return PhaseSpec(JOIN_PHASE, "join", players, sealed=True, reveal=REVEAL_GAME,
                         title="Join the campaign; your standing choices")

    def validate_join(self, player: str, orders: Orders) -> list[Problem]:
        problems = [Problem(f"[orders] {k}", "a join order takes only [orders.choices]",
                            "leave the other keys out") for k in orders if k != "choices"]
        if "choices" in orders:
            problems += choices_mod.parse(orders["choices"], turn.colours(self.c))[1]
        return problems

    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        return turn.setup(self.c, players, options, joins, rng)

    def next_phase(self, state: State) -> PhaseSpec | None:
        if state["step"] == "over":
            return None
        t, p = state["turn"], state["active"]
        if state["step"] == "sail":
            centre = state["kylix"]["centre"]
            if state["options"].get("sail") == "sequential":
                sailor = state["sailors"][0]
                return PhaseSpec(f"t{t:02d}.sail.{sailor}", "sail", (sailor,), sealed=True,
                                 reveal=REVEAL_GAME, active=sailor, title=f"Turn {t}: "
                                 f"{sailor} sails by the centre die {centre} (Round 2-3)")
            others = tuple(state["sailors"])
            return PhaseSpec(f"t{t:02d}.sail", "sail", others, sealed=True, reveal=REVEAL_GAME,
                             title=f"Turn {t}: the others sail by the centre die {centre} "
                             "(Round 2-3)")
        return PhaseSpec(f"t{t:02d}.kylix.{p}", "kylix", (p,), sealed=True, reveal=REVEAL_GAME,
                         active=p, title=f"Turn {t}: {p} turns the Kylix and acts "
                         "(Round 5-7)")

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
        """NMR: a sailor stays; the active player keeps the cup as it fell (rotation 0) and
        takes the Card die's draw and reclaims what the Hoplites die allows."""
        return {}

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        given = {p: (o if not turn.review(self.c, state, phase.kind, p, o)[0] else {})
                 for p, o in orders.items()}
        if phase.kind == "sail":
            events, private = turn.sail_phase(self.c, state, given, rng)
        else:
            assert phase.active is not None
            events, private = turn.kylix_phase(self.c, state, phase.active,
                                               given.get(phase.active, {}), rng)
        return Outcome(state, events, private)

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        secret = ("action_deck", "hands", "pursuit_deck", "personal", "policy")
        out = {k: v for k, v in state.items() if k not in secret}
        out["action_deck_count"] = len(state["action_deck"])
        out["pursuit_deck_count"] = len(state["pursuit_deck"])
        out["hand_counts"] = {p: len(x) for p, x in state["hands"].items()}
        out["game_over"] = state["step"] == "over"
        if player in state["seats"]:
            out["my_hand"] = list(state["hands"][player])
            out["my_personal"] = state["personal"][player]
            out["my_choices"] = state["policy"][player]
        if out["game_over"]:
            out["choices"] = state["policy"]
            out["personal"] = state["personal"]
        return out

    def die_face(self, label: str, value: int) -> str | None:
        """What a draw shows on the table: a Kylix die's face (Kylix 1: faces 1, 1, 2, 2, 3,
        3; the draw is the face's index) or a thrown hoplite (Score 1-3; the draw is one of
        the 20 authored faces)."""
        if _KYLIX_DRAW.fullmatch(label) and 1 <= value <= len(DEUKALION_DIE):
            return str(DEUKALION_DIE[value - 1])
        faces = throw_faces()
        if _THROW_DRAW.fullmatch(label) and 1 <= value <= len(faces):
            return THROW_WORDS.get(faces[value - 1])
        return None

    def invariants(self, before: State | None, after: State, events: Sequence[Event],
                   private: Mapping[str, Sequence[Event]]) -> list[str]:
        problems = turn.invariants(self.c, after)
        if before is not None:  # Honour 3-5: Honour cards recomputed from the events
            for p in after["seats"]:
                gained = sum(int(e.get("cards", 0)) for e in events
                             if e.get("type") == "honour" and e.get("player") == p)
                gained += sum(1 for e in events if e.get("type") == "pursuit-shared"
                              and p in e.get("players", []))
                if after["honour"][p] - before["honour"][p] != gained:
                    problems.append(f"{p}'s Honour cards went from {before['honour'][p]} to "
                                    f"{after['honour'][p]}; the events give {gained}")
        return problems

    def hide_from_others(self, state: State, player: str) -> State | None:
        if state["step"] == "over":
            return None
        from pbem.core.ruleset import copy_state

        hidden = copy_state(state)
        hidden["hands"][player] = sorted(self.c.actions)[:1] * len(state["hands"][player])
        if state["personal"][player]:
            others = [p for p in self.c.pursuits if p != state["personal"][player]]
            hidden["personal"][player] = others[0]
        hidden["policy"][player] = {**choices_mod.DEFAULT, "steal": "card" if
                                    state["policy"][player]["steal"] == "chest" else "chest"}
        return hidden

    def roles(self, state: State) -> dict[str, str]:
        return {p: f"seat {i}" for i, p in enumerate(state["seats"], 1)}

    def result(self, state: State) -> dict[str, Any]:
        if state["step"] != "over":
            return {}
        return {"winners": [state["result"]["winner"]], "why": state["result"]["why"],
                "score": dict(state["result"]["score"])}


RULESET = Deukalion()

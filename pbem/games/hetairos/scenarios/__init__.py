"""The 24 scenarios (SCENARIOS; Coop, Myth, Solo, Team 0-6): each a :class:`Scenario` whose
hooks the core calls at fixed points of set-up, the turn, the world phase and the end of each
resolution. A hook left alone does what the core does without a scenario rule.

One module per printed list: :mod:`.coop`, :mod:`.myth`, :mod:`.solo`, :mod:`.team`. A
scenario is playable when its class is registered (:data:`REGISTRY`); the ``scenario`` option
lists those.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pbem.games.hetairos import grid
from pbem.games.hetairos.table import Model, Table

Event = dict[str, Any]


class Scenario:
    """A scenario's rules. ``id`` is its data id (``data/scenarios.toml``)."""

    id: ClassVar[str]
    #: Extra steps of this scenario: verb -> an example line for forms and errors
    #: (``{"perform": "perform"}``); :meth:`parse_step` checks their words, :meth:`act`
    #: runs them.
    verbs: ClassVar[dict[str, str]] = {}

    # ---- set-up -----------------------------------------------------------------------

    def players_problem(self, n: int) -> str:
        """Why ``n`` players cannot play this scenario ("" if they can; analysis 6: the
        competitive lists need 2 or more)."""
        if t_kind(self.id) != "coop" and n < 2:
            return "it is played between players: it needs 2 or more"
        return ""

    def teams(self, t: Table, seats: list[str]) -> dict[str, str]:
        """Player -> team (Team 1-6: "SPLIT INTO TWO TEAMS, RANDOMISED", with public draws
        from ``t.dice``). Co-op: {} (everyone is the ``party``); solo: each alone."""
        if t.c.world.scenarios[self.id].kind == "solo":
            return {p: p for p in seats}
        return {}

    def starts(self, t: Table, seats: list[str]) -> dict[str, str]:
        """Player -> starting square. Coop 0, Myth 0: "START TOGETHER ON A BRIDGE OVER THE
        STYX"; Solo 0: "ON A BRIDGE ... WITH 1 SPACE AT LEAST BETWEEN THEIR BRIDGES"; Team 0:
        teams on bridges "WITH 4 SPACES AT LEAST BETWEEN". Every start on the Styx's column
        is drawn as a bridge by the core."""
        s = t.c.world.scenarios[self.id]
        if s.start == "bridge_each":
            return {p: grid.key(grid.STYX_X, i * (s.start_gap + 1)) for i, p in enumerate(seats)}
        if s.start == "bridge_teams":
            teams = sorted(set(t.state["teams"].values()))
            at = {team: grid.key(grid.STYX_X, i * (s.start_gap + 1))
                  for i, team in enumerate(teams)}
            return {p: at[t.state["teams"][p]] for p in seats}
        return {p: grid.key(grid.STYX_X, 0) for p in seats}

    def setup(self, t: Table) -> None:
        """After the characters are on the map: the scenario's own models and squares."""

    # ---- the turn ---------------------------------------------------------------------

    def start_of_turn(self, t: Table, player: str) -> None:
        """At the start of ``player``'s turn (after the AP allowance is set)."""

    def on_draw(self, t: Table, k: str, by: Model) -> None:
        """After square ``k`` was drawn and its site set up."""

    def on_enter(self, t: Table, m: Model, k: str, travel: str) -> list[str]:
        """After ``m`` entered ``k`` (the core's own effects done); returns halts raised."""
        return []

    def parse_step(self, verb: str, args: tuple[str, ...]) -> str:
        """Why an extra step's words are wrong ("" when they are right)."""
        return "" if not args else f"{verb} takes no words after it"

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        """Run an extra step; "" when done, else why it could not be done now."""
        return f"no step {verb!r} in this scenario"

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        """(note, steps) of this scenario's own steps legal for ``m`` now, for the form."""
        return []

    def auto_pass(self, t: Table, m: Model, check_id: str) -> bool:
        """Whether ``m`` passes ``check_id`` without a roll (Team 4: Zeus's followers at
        Olympian shrines)."""
        return False

    # ---- the world phase ----------------------------------------------------------------

    def world_start(self, t: Table) -> None:
        """The world phase's scenario events before any NPC or monster acts."""

    def world_end(self, t: Table) -> None:
        """The world phase's scenario events after the monsters."""

    def on_spawn(self, t: Table, m: Model, k: str) -> None:
        """After monster ``m`` was spawned at ``k`` (Lair 3, Hecate 1; Team 4: Hecate's
        followers command those of her shrines)."""

    def after_combat(self, t: Table, winners: list[Model], losers: list[Model]) -> None:
        """After a round of combat (Battle 2-8) won by ``winners`` over ``losers`` (not called
        on a tie; Team 2: a flag carrier who loses must roll to keep it)."""

    def prefers(self, t: Table, m: Model) -> list[str]:
        """Model ids monster ``m`` seeks before any other target (Myth 1: the Furies hunt the
        Aristocrat)."""
        return []

    def ignores(self, t: Table, m: Model, o: Model) -> bool:
        """Whether monster ``m`` neither sees nor attacks ``o`` (Coop 2: Hecate's Shadows)."""
        return False

    # ---- combat -------------------------------------------------------------------------

    def combat_edge(self, t: Table, m: Model) -> tuple[int, int]:
        """(extra combat dice, lowest combat result) of ``m`` in every round it fights (Coop 2:
        Ares' Wrath, +1 die and a result below 6 counts as 6); (0, 0) for none."""
        return 0, 0

    def drains(self, t: Table, m: Model) -> bool:
        """Whether ``m`` gains 1 health for each point its foes lose in a round it wins, with
        no maximum, as a Mormo (Coop 2: Hecate's Shadows)."""
        return False

    # ---- counting and the end -----------------------------------------------------------

    def record(self, t: Table, events: list[Event]) -> None:
        """Count what the scenario counts from a resolution's events."""

    def check(self, t: Table, *, end_of_round: bool) -> None:
        """Victory or defeat: call :func:`over` when the game ends."""


def t_kind(scenario_id: str) -> str:
    from pbem.games.hetairos.table import load

    return load().world.scenarios[scenario_id].kind


def over(t: Table, winners: list[str], why: str) -> None:
    """The game ends: ``winners`` (players; [] for nobody), why, in the ledger."""
    t.state["step"] = "over"
    t.state["result"] = {"winners": winners, "why": why}
    t.say("game-over", why, winners=winners)


def player_of(t: Table, mid: str) -> str:
    m = t.models.get(mid)
    return str(m["owner"]) if m is not None and m["side"] in ("pc", "npc") else ""


def team_members(t: Table, team: str) -> list[str]:
    return [p for p in t.state["seats"] if t.state["teams"].get(p, "party") == team]


REGISTRY: dict[str, Scenario] = {}


def register(cls: type[Scenario]) -> type[Scenario]:
    REGISTRY[cls.id] = cls()
    return cls


def get(scenario_id: str) -> Scenario:
    _load()
    return REGISTRY[scenario_id]


def playable() -> dict[str, Scenario]:
    _load()
    return REGISTRY


def _load() -> None:
    if REGISTRY:
        return
    from pbem.games.hetairos.scenarios import coop, myth, solo, team  # noqa: F401

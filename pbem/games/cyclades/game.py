"""The Cyclades ruleset: the phases of a cycle by email, validation, defaults, views, reports.

The rules live in their own modules (``setup``, ``cycle``, ``bidding``, ``actions``,
``battle``, ``victory`` ...); this one maps the game onto the engine's phases
(``docs/games/cyclades.md``, "Phases"):

- ``c00.bid``: the setup bid (Setup 8), sealed;
- ``c00.deploy.<pillar>``: deployment, top god first (Setup 9);
- ``cNN.upkeep``: Hero upkeep (Cycle 3), only when someone controls a Hero;
- ``cNN.bid``: the god auction by proxy bids (Cycle 7), sealed;
- ``cNN.act.<god>``: the winner's actions (Cycle 8), top god first, then ``cNN.act.apollo``.

Bids are sealed until the END of the game: their effect, the whole auction as it unfolded,
is public at once, but the entries a list never reached, and the standing battle orders that
travel with them, stay secret until used (docs/games/cyclades.md, "Adaptations").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem, ProblemsError
from pbem.core.resources import order_form_text
from pbem.core.ruleset import REVEAL_GAME, OptionSpec, Orders, Outcome, PhaseSpec, Ruleset
from pbem.games.cyclades import (
    actions,
    battle,
    bidding,
    cycle,
    forms,
    names,
    report,
    setup,
    victory,
    views,
)
from pbem.games.cyclades import bot as bot_mod
from pbem.games.cyclades.components import Components, load
from pbem.games.cyclades.maps import Board, load_board
from pbem.games.cyclades.state import State, active_players, metropolises_of, player_of

Event = dict[str, Any]

#: Defend standing orders (Battle 2) in a bid form: key -> (sea?, what it is).
DEFEND_KEYS = ("retreat", "sea_retreat", "casualties", "sea_casualties")


def board_name(option: str, players: int) -> str:
    """The board the ``board`` option names; ``auto``: Vanilla up to five players (it has no
    side for six, Setup 1.1), Titans for six."""
    if option == "auto":
        return "vanilla" if players <= 5 else "titans"
    return option


def _apollo_keep_problems(state: State, player: str, raw: object) -> list[Problem]:
    """``apollo_keep``: the player's creature figures to keep with a Priestess (Cycle 8.2) if
    their pillar ends on Apollo behind the first one there (who has an act form of their
    own); a standing order, sealed with the bid."""
    where = "[orders] apollo_keep"
    mine = sorted(f for f, x in state["figures"].items() if x["owner"] == player)
    if not isinstance(raw, list) or not all(isinstance(f, str) for f in raw):
        return [Problem(where, "must be a list of figure names",
                        f"write apollo_keep = [] or name some of: {', '.join(mine) or 'none'}")]
    return [Problem(where, f"{f!r} is not a creature figure of yours on the board",
                    names.choices(f, mine) if mine else "leave the list empty")
            for f in raw if f not in mine]


def retreat_place_problems(board: Board, raw: object, where: str, sea: bool) -> list[Problem]:
    """Battle 2: the ``to`` list of a retreat standing order names territories (``sea``:
    sea spaces) of this board; each unknown name is a problem with the valid choices."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("to"), list):
        return []
    known = sorted(board.seas if sea else board.territories)
    return [Problem(f"{where} to[{i}]", f"{place!r} is not a "
                    + ("sea space" if sea else "territory") + " of this board",
                    names.choices(place, known))
            for i, place in enumerate(raw["to"]) if isinstance(place, str) and place not in known]


def board_of(state: State) -> Board:
    return load_board(state["game"]["board"], len(state["game"]["players"]))


def parse_defend(raw: object, where: str = "[orders.defend]", board: Board | None = None
                 ) -> tuple[dict[str, Any], list[Problem]]:
    """The standing orders for battles a player defends, as plain data, and every problem."""
    problems: list[Problem] = []
    out: dict[str, Any] = {}
    if raw is None:
        return out, problems
    if not isinstance(raw, Mapping):
        return out, [Problem(where, "must be a table", "write [orders.defend] with its keys, "
                             "or leave the table empty")]
    for key in raw:
        if key not in DEFEND_KEYS:
            problems.append(Problem(f"{where} {key}", f"unknown key {key!r}",
                                    f"use one of {', '.join(DEFEND_KEYS)}"))
    for key in ("retreat", "sea_retreat"):
        if key in raw:
            try:
                out[key] = battle.parse_retreat(raw[key], f"{where} {key}").as_dict()
            except ProblemsError as exc:
                problems += exc.problems
            if board is not None:
                problems += retreat_place_problems(board, raw[key], f"{where} {key}",
                                                   key == "sea_retreat")
    for key, sea in (("casualties", False), ("sea_casualties", True)):
        if key in raw:
            try:
                out[key] = list(battle.parse_casualty_order(raw[key], f"{where} {key}",
                                                            sea=sea))
            except ProblemsError as exc:
                problems += exc.problems
    return out, problems


class Cyclades(Ruleset):
    name = "cyclades"
    title = "Cyclades, with Hades, Titans, Monuments and the Egyptian Reinforcements"
    rules_version = "seed-003/pbem-1"
    min_players = 2
    max_players = 6
    options: ClassVar[Mapping[str, OptionSpec]] = {
        "board": OptionSpec("auto", ("auto", "vanilla", "titans"),
                            "Setup 1: the Vanilla board (2-5 players) or the Titans board "
                            "(2-6); auto: Vanilla up to five players, Titans for six"),
        "teams": OptionSpec("off", ("off", "on"),
                            "Team Play: the Titans board with 4 or 6 players"),
    }

    @property
    def c(self) -> Components:
        return load()

    def check_options(self, given: Mapping[str, str], players: Sequence[str]) -> list[Problem]:
        problems = super().check_options(given, players)
        board = board_name(given.get("board", "auto"), len(players))
        if board == "vanilla" and len(players) > 5:
            problems.append(Problem("--option board", "the Vanilla board takes 2 to 5 players "
                                    f"(Setup 1.1), not {len(players)}",
                                    "use --option board=titans for six players"))
        if given.get("teams", "off") == "on" and (board != "titans" or
                                                   len(players) not in (4, 6)):
            problems.append(Problem("--option teams", "Team Play needs the Titans board and "
                                    "4 or 6 players (Team Play)",
                                    "add --option board=titans, with 4 or 6 players"))
        return problems

    # --- setup ---------------------------------------------------------------------------
    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        name = board_name(options.get("board", "auto"), len(players))
        board = load_board(name, len(players))
        state, events = setup.initial_state(self.c, board, players, {**options, "board": name},
                                            rng)
        return Outcome(state, events)

    # --- phases --------------------------------------------------------------------------
    def next_phase(self, state: State) -> PhaseSpec | None:
        step, n = state["step"], state["cycle"]
        if step == "over":
            return None
        if step in ("setup_bid", "bid"):
            return PhaseSpec(f"c{n:02d}.bid", "bid", tuple(active_players(state)), sealed=True,
                             reveal=REVEAL_GAME,
                             title="Setup bid for turn order (Setup 8)" if step == "setup_bid"
                             else f"Cycle {n}: bids for the gods (Cycle 7)")
        queue = state["acting"]["queue"]
        index = state["acting"]["index"]
        if step == "deploy":
            _god, pillar = queue[index]
            return PhaseSpec(f"c00.deploy.{pillar}", "deploy", (player_of(state, pillar),),
                             active=pillar, title=f"Deployment of {pillar} (Setup 9)")
        if step == "upkeep":
            return PhaseSpec(f"c{n:02d}.upkeep", "upkeep", tuple(cycle.upkeep_players(state)),
                             title=f"Cycle {n}: Hero upkeep (Cycle 3)")
        god, pillar = queue[index]
        return PhaseSpec(f"c{n:02d}.act.{god}", "act", (player_of(state, pillar),),
                         active=pillar, title=f"Cycle {n}: {self.c.god(god).name} acts "
                         "(Cycle 8)")

    def normalised(self, state: State, orders: Orders) -> Orders:
        """``orders`` with every name written as the game's id (case and blanks ignored,
        ``names.normalise``): what both :meth:`validate` and :meth:`resolve` read."""
        out = names.normalise(self.c, board_of(state), state["game"]["players"], orders)
        return out if isinstance(out, dict) else {}

    def validate(self, state: State, phase: PhaseSpec, player: str,
                 orders: Orders) -> list[Problem]:
        c = self.c
        orders = self.normalised(state, orders)
        if phase.kind == "bid":
            problems = [Problem(f"[orders] {k}", f"unknown key {k!r}",
                                "a bid form has bids, apollo_keep and [orders.defend]")
                        for k in orders if k not in ("bids", "defend", "apollo_keep")]
            problems += _apollo_keep_problems(state, player, orders.get("apollo_keep", []))
            gods = [*state["gods"]["track"], bidding.APOLLO]
            bids = orders.get("bids", [])
            if isinstance(bids, list):
                problems += bidding.validate_bids(
                    bids, gods=gods, gold=state["gold"][player],
                    priests=state["hands"][player]["priest"],
                    two_player=state["game"]["two_player"])
            else:
                problems.append(Problem("[orders] bids", "must be a list of tables",
                                        'bids = [{god = "zeus", offer = 3}]'))
            problems += parse_defend(orders.get("defend"), board=board_of(state))[1]
            return problems
        board = board_of(state)
        if phase.kind == "deploy":
            assert phase.active is not None
            return setup.validate_deploy(c, board, state, phase.active, orders)
        if phase.kind == "upkeep":
            return cycle.validate_upkeep(c, state, player, orders)
        god = state["acting"]["queue"][state["acting"]["index"]][0]
        return actions.validate_act(c, board, state, god, player, orders)

    def provisional(self, state: State, phase: PhaseSpec, player: str,
                    orders: Orders) -> list[Problem]:
        """What is checked again when the turn runs: only actions of an ``act`` form that
        come after something whose outcome cannot be known at submit (a battle's dice, a card
        drawn from a sealed deck, gold taken from another player, the end of the game), named
        with what they wait for (``actions.provisional_act``). Bids, deployments and upkeep
        never wait: only their owner acts on what they use, and validate decides them all."""
        if phase.kind != "act":
            return []
        orders = self.normalised(state, orders)
        god = state["acting"]["queue"][state["acting"]["index"]][0]
        return actions.provisional_act(self.c, board_of(state), state, god, player, orders)

    def default_orders(self, state: State, phase: PhaseSpec, player: str) -> Orders:
        """NMR: no bids (Apollo; in the setup bid a forced cheapest god), the default
        deployment, Heroes kept while gold then Priestesses last, and only the god's free
        recruit (docs/games/cyclades.md, "Defaults")."""
        if phase.kind == "act":
            god = state["acting"]["queue"][state["acting"]["index"]][0]
            return actions.default_act(self.c, board_of(state), state, god, player)
        return {}

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        c, board = self.c, board_of(state)
        private: dict[str, list[Event]] = {}
        orders = {p: self.normalised(state, o) for p, o in orders.items()}
        if phase.kind == "bid":
            lists = {p: bidding.parse_bids(o.get("bids", []), gods=[
                *state["gods"]["track"], bidding.APOLLO], gold=state["gold"][p],
                priests=state["hands"][p]["priest"], two_player=state["game"]["two_player"])
                for p, o in orders.items()}
            defend = {p: parse_defend(o.get("defend"))[0] for p, o in orders.items()}
            if state["step"] == "setup_bid":
                events = setup.resolve_setup_bid(c, board, state, lists, defend, rng)
            else:
                events = cycle.resolve_bid(c, board, state, lists, defend, rng)
                # Sealed standing orders for Apollo's step (Cycle 8.2); hidden from the others.
                state["apollo_keep"] = {p: list(o.get("apollo_keep", []))
                                        for p, o in sorted(orders.items())
                                        if o.get("apollo_keep")}
        elif phase.kind == "deploy":
            assert phase.active is not None
            events = setup.resolve_deploy(c, board, state, phase.active,
                                          orders[player_of(state, phase.active)], rng)
        elif phase.kind == "upkeep":
            events = cycle.resolve_upkeep(c, board, state, orders, rng)
        else:
            events, private = self._act(c, board, state, phase, orders, rng)
        return Outcome(state, events, private)

    def _act(self, c: Components, board: Board, state: State, phase: PhaseSpec,
             orders: Mapping[str, Orders], rng: Rng) -> tuple[list[Event], dict[str, list[Event]]]:
        acting = state["acting"]
        god, pillar = acting["queue"][acting["index"]]
        player = player_of(state, pillar)
        if god == bidding.APOLLO:
            events, private = actions.resolve_apollo(c, board, state, orders[player], rng)
        else:
            events, private = actions.resolve_act(c, board, state, god, pillar, orders[player],
                                                  rng)
        acting["index"] += 1
        events += victory.note_team_trigger(state)  # Team 1: the third Metropolis, at once
        won = victory.artifacts(c, state)  # Victory 2: at once, the cycle is not finished
        for e in events:
            if not won and e.get("type") == "conquest" and e.get("last_territory"):
                won = victory.military_result(c, board, state, e["player"], e["territory"],
                                              bool(e.get("metropolis")))
        if won:
            events += victory.finish(state, won)
        elif acting["index"] >= len(acting["queue"]):
            more, extra = cycle.end_of_actions(c, board, state, rng)
            events += more
            for p, xs in extra.items():
                private.setdefault(p, []).extend(xs)
        return events, private

    # --- what players see ----------------------------------------------------------------
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return views.view(state, player)

    def hide_from_others(self, state: State, player: str) -> State | None:
        return views.hide_from_others(state, player)

    def invariants(self, before: State | None, after: State, events: Sequence[Event],
                   private: Mapping[str, Sequence[Event]]) -> list[str]:
        return views.invariants(before, after, events)

    def roles(self, state: State) -> dict[str, str]:
        teams = state["game"]["teams"]
        return {p: f"team {t}" for p, t in teams.items()} if teams else {}

    def result(self, state: State) -> dict[str, Any]:
        """The winners, why, and each player's Metropolises (the score the reports list)."""
        if state["step"] != "over":
            return {}
        out = dict(state["result"])
        out["score"] = {p: metropolises_of(state, p) for p in state["game"]["players"]}
        out.setdefault("winners", [])
        out.setdefault("why", "")
        return out

    def order_form(self, view: Mapping[str, Any], phase: PhaseSpec, player: str) -> str:
        if not view:
            return order_form_text(self.name, phase.kind)
        # Issue 14: the situation, and examples legal for this player now (forms.py).
        return forms.order_form(self.c, view, phase, player, self.validate)

    def bot_orders(self, view: Mapping[str, Any], phase: PhaseSpec, player: str,
                   rng: Stream) -> Orders:
        return bot_mod.orders(self.c, view, phase, player, rng)

    def board_svg(self, view: Mapping[str, Any], player: str | None) -> str:
        from pbem.games.cyclades import board
        return board.svg(self.c, view, player)

    def report_public(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return report.public(self.c, view)

    def report_context(self, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
        return report.mine(self.c, view, player)

    def event_text(self, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
        """The ledger's event text with ids named (the ledger bytes are unchanged)."""
        return report.event_text(self.c, view, event)

    def die_face(self, label: str, value: int) -> str | None:
        """The face a battle or Hades die shows (Battle 1.2) for the draw's value."""
        return report.die_face(self.c, label, value)


RULESET = Cyclades()

"""The Hetairos ruleset (``pbem new hetairos``): set-up, the turn by email, the world phase.

Phases (docs/games/hetairos.md, "Phases"): ``t00.join`` (a ranked list of characters, standing
orders), then each round ``rNN.turn.p<seat>`` for every living player in turn order (the turn
program), ``rNN.turn.p<seat>.k<K>`` when the program halted with AP left (a continuation for the
same player), and ``rNN.world`` (automatic: NPCs, spawns, monsters, lava, victory). Nothing is
hidden (analysis 2.1): no phase is sealed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem
from pbem.core.hooks import GameModules
from pbem.core.ruleset import JOIN_PHASE, OptionSpec, Orders, Outcome, PhaseSpec, Ruleset
from pbem.games.hetairos import grid, monsters, program, scenario, scenarios, standing, turn
from pbem.games.hetairos.table import Components, State, Table, load

JOIN_KEYS = ("characters", "standing")
ROUNDS = tuple(str(n) for n in range(0, 201))


class Hetairos(GameModules, Ruleset):
    package = "pbem.games.hetairos"  # forms, report, board, bot (GameModules)
    name = "hetairos"
    title = "Hetairos (James Baillie), an adventure in the Greek underworld"
    rules_version = "seed-001/pbem-1"
    min_players = 1  # The designer plays it solo (analysis 6)
    max_players = 10  # ten characters, no two alike (Start 2)
    options: ClassVar[Mapping[str, OptionSpec]] = {
        "scenario": OptionSpec("beast-slayers", (*scenario.by_option(load()),
                                                  *scenario.ROLLS),
                               "the scenario (Start 3), by its name: " + ", ".join(
                                   scenario.by_option(load())) + "; or rolled at set-up, "
                               "after the characters are picked (Start 2): " + ", ".join(
                                   scenario.ROLLS)),
        "rounds": OptionSpec("40", ROUNDS, "end the campaign after this round if the "
                             "scenario is not won (0: no limit, as the rulebook)"),
        "monsters": OptionSpec("simple", ("simple", "complex"),
                               "Appendix A: SIMPLE monsters walk through towns toward the "
                               "nearest player; COMPLEX ones gather on a settlement's borders "
                               "until they count five (a Great Monster three), then attack"),
        "lava": OptionSpec("once", ("once", "chain"),
                           "Lava 2's spreading: one roll at each end of round, the threshold "
                           "rising after each spread (once), or rolls in a chain until one "
                           "fails (chain); analysis 5.2"),
        "death": OptionSpec("auto", ("auto", "replace", "out"),
                            "a dead player's fate: a new character next turn (replace), or "
                            "out of the game; auto: replace in co-op, out otherwise"),
    }

    @property
    def c(self) -> Components:
        return load()

    def check_options(self, given: Mapping[str, str], players: Sequence[str]) -> list[Problem]:
        """The ruleset's checks, and the scenario's player count (analysis 6: solo scenarios
        are races between players, 2 or more)."""
        problems = super().check_options(given, players)
        chosen = given.get("scenario", "beast-slayers")
        if chosen in scenario.ROLLS:
            if not scenario.rollable(self.c, chosen, len(players)):
                problems.append(Problem("--option scenario", f"no scenario of {chosen} takes "
                                        f"{len(players)} players", "pick another list"))
            return problems
        scen = scenario.by_option(self.c).get(chosen)
        why = scenarios.get(scen).players_problem(len(players)) if scen else ""
        if why and scen:
            name = self.c.world.scenarios[scen].name
            problems.append(Problem("--option scenario", f"{name}: {why}",
                                    "pick another scenario, or another number of players"))
        return problems

    def join_phase(self, players: tuple[str, ...]) -> PhaseSpec:
        return PhaseSpec(JOIN_PHASE, "join", players,
                         title="Join: rank the characters you would play; standing orders")

    def validate_join(self, player: str, orders: Orders) -> list[Problem]:
        problems = [Problem(f"[orders] {k}", f"a join order takes no {k!r}",
                            "keys: " + ", ".join(JOIN_KEYS)) for k in orders if k not in JOIN_KEYS]
        ranked = orders.get("characters", [])
        known = list(self.c.people.characters)
        if not isinstance(ranked, list) or not all(isinstance(x, str) for x in ranked):
            problems.append(Problem("[orders] characters", "a list of character names",
                                    "e.g. characters = [\"hoplite\", \"centaur\"]"))
        else:
            for ch in ranked:
                if ch not in known:
                    problems.append(Problem(f"[orders] characters {ch!r}", "no such character",
                                            "characters: " + ", ".join(known)))
            if len(set(ranked)) != len(ranked):
                problems.append(Problem("[orders] characters", "a character named twice",
                                        "name each at most once"))
        if "standing" in orders:
            problems += standing.parse(orders["standing"])[1]
        return problems

    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        c = self.c
        opts = self.resolved_options(options)
        dice = rng.public
        seats = dice.shuffle(sorted(players), "setup/turn-order")  # Start 1
        state: State = {
            "scenario": "", "options": opts, "round": 1, "seats": seats, "step": "turn",
            "active": seats[0], "cont": 0, "pending": [], "halted": "", "map": {},
            "models": {}, "next_id": 0, "pcs": {}, "dead": [], "death": "",
            "teams": {}, "starts": {}, "hostile": {}, "standing": {},
            "ranked": {}, "goal": {}, "result": {},
        }
        t = Table(c, state, dice, label="setup")
        t.say("seats", "Turn order (Start 1): " + ", ".join(seats) + ".", order=seats)
        picked: dict[str, str] = {}
        for p in seats:  # Start 2: characters picked in turn, before the scenario
            state["ranked"][p] = list(joins.get(p, {}).get("characters", []))
            state["standing"][p] = standing.parse(joins.get(p, {}).get("standing", {}))[0]
            free = [ch for ch in state["ranked"][p] + list(c.people.characters)
                    if ch not in picked.values()]
            picked[p] = free[0]
            t.say("character", f"{p} plays the {c.character(picked[p]).name.title()}.",
                  player=p, character=picked[p])
        scen = scenario.choose(t, opts["scenario"], len(seats))  # Start 3: then the scenario
        state["scenario"] = scen
        death = opts["death"]
        if death == "auto":
            death = "out" if scenario.competitive(c, scen) else "replace"
        state["death"] = death
        rules = scenarios.get(scen)
        s = c.world.scenarios[scen]
        t.say("scenario", f"Scenario: {s.name} ({c.world.lists[s.list].name}). "
              + " ".join(s.victory), scenario=scen)
        state["teams"] = rules.teams(t, list(seats))
        state["starts"] = rules.starts(t, list(seats))
        for k in sorted(set(state["starts"].values())):  # Coop 0, Solo 0, Team 0: bridges
            if grid.on_styx(k):
                state["map"][k] = {"kind": "styx", "open": "NS", "bridge": True, "found": 0,
                                   "by": ""}
        for p in seats:
            scenario.new_pc(c, state, p, picked[p], state["starts"][p])
        rules.setup(t)
        for p in seats:
            pc = t.pc(p)
            assert pc is not None
            pc["ap"] = turn.allowance(t, pc)
        t.settle()
        return Outcome(state, t.events)

    # ---- phases -----------------------------------------------------------------------

    def next_phase(self, state: State) -> PhaseSpec | None:
        if state["step"] == "over":
            return None
        r = state["round"]
        if state["step"] == "world":
            return PhaseSpec(f"r{r:02d}.world", "world", (), title=f"Round {r}: the monsters "
                             "and NPCs act (Start 1)")
        p = state["active"]
        seat = state["seats"].index(p) + 1
        k = state["cont"]
        pid = f"r{r:02d}.turn.p{seat}" + (f".k{k}" if k else "")  # ("turn": the form)
        title = f"Round {r}: {p}'s turn" + (f" goes on after a halt ({state['halted']})"
                                             if k else "")
        return PhaseSpec(pid, "turn", (p,), active=p, title=title)

    def _review(self, state: State, player: str, orders: Orders) -> tuple[list[Problem],
                                                                          list[str]]:
        from pbem.games.hetairos import review

        return review.review(self.c, state, player, orders)

    def check(self, state: State, phase: PhaseSpec, player: str, orders: Orders
              ) -> tuple[list[Problem], list[Problem]]:
        problems, notes = self._review(state, player, orders)
        return problems, ([] if problems else [Problem("", n) for n in notes])

    def validate(self, state: State, phase: PhaseSpec, player: str,
                 orders: Orders) -> list[Problem]:
        return self._review(state, player, orders)[0]

    def provisional(self, state: State, phase: PhaseSpec, player: str,
                    orders: Orders) -> list[Problem]:
        return [Problem("", n) for n in self._review(state, player, orders)[1]]

    def default_orders(self, state: State, phase: PhaseSpec, player: str) -> Orders:
        """NMR: the turn ends at once (no step); free once-a-turn effects are not taken."""
        return {}

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        # draws labelled by the phase without "turn" (r04/p3/k1/...): short enough for the
        # dice table of a report on a phone
        t = Table(self.c, state, rng.public,
                  label=phase.id.replace(".turn.", ".").replace(".", "/"))
        if phase.kind == "world":
            monsters.phase(t)
            scenario.record(t, t.events)
            scenario.check(t, end_of_round=True)
            if state["step"] != "over":
                state["round"] += 1
                self._next_turn(t, first=True)
            t.settle()
            return Outcome(state, t.events)
        player = phase.active
        assert player is not None
        given = orders.get(player, {})
        if self._review(state, player, given)[0]:
            given = {}
        if "standing" in given:
            state["standing"][player] = {**state["standing"].get(player, {}),
                                         **standing.parse(given["standing"])[0]}
        steps, halts, _ = program.parse(self.c, given, state["scenario"])
        if state["cont"] == 0:
            scenario.begin_turn(t, player)
        rest, halted = turn.run(t, player, steps, halts)
        scenario.record(t, t.events)
        scenario.check(t, end_of_round=False)
        if state["step"] == "over":
            t.settle()
            return Outcome(state, t.events)
        m = t.pc(player)
        if rest and m is not None:
            state["cont"] += 1
            state["pending"] = turn.remaining_text(rest)
            state["halted"] = halted
            t.say("halt", f"{player}'s turn halts ({halted}) with {m['ap']} AP left; "
                  f"{len(rest)} step(s) wait for new orders.", player=player, halt=halted,
                  ap=m["ap"], waiting=state["pending"])
            t.settle()
            return Outcome(state, t.events)
        turn.end(t, player)
        scenario.check(t, end_of_round=False)
        if state["step"] != "over":
            self._next_turn(t, first=False)
        t.settle()
        return Outcome(state, t.events)

    def _next_turn(self, t: Table, *, first: bool) -> None:
        """The next living player's turn this round, or the world phase."""
        state = t.state
        seats: list[str] = state["seats"]
        i = -1 if first else seats.index(state["active"])
        state["cont"], state["pending"], state["halted"] = 0, [], ""
        for p in seats[i + 1:]:
            if t.pc(p) is not None or state["death"] == "replace":
                state["active"], state["step"] = p, "turn"
                return
        state["step"] = "world"

    def bot_join(self, player: str, rng: Stream) -> Orders:
        from pbem.games.hetairos import bot

        return bot.join(self.c, player, rng)

    # ---- views ------------------------------------------------------------------------

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """Everything: Hetairos hides nothing (analysis 2.1)."""
        out = dict(state)
        out["game_over"] = state["step"] == "over"
        out["me"] = player if player in state["seats"] else ""
        return out

    def invariants(self, before: State | None, after: State, events: Sequence[dict[str, Any]],
                   private: Mapping[str, Sequence[dict[str, Any]]]) -> list[str]:
        from pbem.games.hetairos import checks

        return checks.invariants(self.c, before, after, events)

    def roles(self, state: State) -> dict[str, str]:
        return {p: state["models"][state["pcs"][p]]["type"] for p in state["seats"]}

    def result(self, state: State) -> dict[str, Any]:
        if state["step"] != "over":
            return {}
        score = {p: state["models"][state["pcs"][p]]["kleos"] for p in state["seats"]}
        return {"winners": list(state["result"]["winners"]), "why": state["result"]["why"],
                "score": score}


RULESET = Hetairos()

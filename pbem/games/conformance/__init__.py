"""The conformance ruleset: a small, complete game that exercises every kind of phase.

It is not one of the rulebook games. It exists so that the engine, the protocol and third-party
verifiers have a campaign to run end to end before and besides the real games: a join with a
game choice, a simultaneous sealed phase revealed at the end of the game, an all-but-active
phase sealed until a named later point, a one-active-player phase with public dice, and an
automatic phase that deals hidden cards from the sealed stream. Its rules are in
``docs/games/conformance.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem
from pbem.core.resources import order_form_text, read_toml
from pbem.core.ruleset import (
    REVEAL_GAME,
    Event,
    OptionSpec,
    Orders,
    Outcome,
    PhaseSpec,
    Ruleset,
    State,
    copy_state,
)

DATA = Path(__file__).parent / "data"
STEPS = ("pledge", "forecast", "voyage", "omens")
MAX_PLEDGE = 10
PLEDGE_BONUS = 3
FORECAST_BONUS = 2
HIGH_VOYAGE = 7


@cache
def omens() -> dict[str, dict[str, Any]]:
    data = read_toml(DATA / "omens.toml")
    return {o["id"]: o for o in data["omen"]}


def _check_int(orders: Orders, key: str, low: int, high: int, problems: list[Problem]) -> None:
    value = orders.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.append(Problem(f"[orders] {key}", f"must be a whole number from {low} to {high}",
                                f"write {key} = {low}"))


def _unknown(orders: Orders, known: tuple[str, ...], problems: list[Problem]) -> None:
    for key in orders:
        if key not in known:
            problems.append(Problem(f"[orders] {key}", "unknown order",
                                    f"this phase takes only {', '.join(known)}"))


class Conformance(Ruleset):
    name = "conformance"
    title = "Conformance ruleset (exercises every kind of phase; not a rulebook game)"
    rules_version = "1"
    min_players = 2
    max_players = 10
    options: ClassVar[Mapping[str, OptionSpec]] = {
        "rounds": OptionSpec("3", tuple(str(i) for i in range(1, 1001)),
                             "how many rounds the game lasts")}

    # --- join and setup ----------------------------------------------------------------

    def validate_join(self, player: str, orders: Orders) -> list[Problem]:
        problems: list[Problem] = []
        _unknown(orders, ("motto",), problems)
        motto = orders.get("motto", "")
        if not isinstance(motto, str) or len(motto) > 60 or "\n" in motto:
            problems.append(Problem("[orders] motto", "must be one line of at most 60 characters",
                                    'write motto = "Fortune favours the bold"'))
        return problems

    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        order = rng.public.shuffle(sorted(players), "seating")
        deck = rng.sealed.shuffle(sorted(omens()), "omen-deck")
        hands: dict[str, list[str]] = {}
        private: dict[str, list[Event]] = {}
        for p in order:
            card = deck.pop()
            hands[p] = [card]
            private[p] = [{"type": "dealt", "card": card, "text":
                           f"You were dealt the {omens()[card]['name']}."}]
        state: State = {
            "rounds": int(options["rounds"]), "round": 1, "step": "pledge", "seating": order,
            "mottos": {p: str(joins[p].get("motto", "")) for p in sorted(players)},
            "score": dict.fromkeys(sorted(players), 0),
            "pledges": {p: [] for p in sorted(players)},
            "forecasts": {}, "hands": hands, "deck": deck,
        }
        events: list[Event] = [{"type": "seating", "order": order,
                                "text": "Seating: " + ", ".join(order) + "."}]
        return Outcome(state, events, private)

    # --- phases ------------------------------------------------------------------------

    def active(self, state: State) -> str:
        seating: list[str] = state["seating"]
        return str(seating[(state["round"] - 1) % len(seating)])

    def next_phase(self, state: State) -> PhaseSpec | None:
        if state["round"] > state["rounds"]:
            return None
        r, step, everyone = state["round"], state["step"], tuple(state["seating"])
        pid = f"r{r:02d}.{step}"
        active = self.active(state)
        if step == "pledge":
            return PhaseSpec(pid, step, everyone, sealed=True, reveal=REVEAL_GAME,
                             title=f"Round {r}: secret pledges")
        if step == "forecast":
            return PhaseSpec(pid, step, tuple(p for p in everyone if p != active), sealed=True,
                             reveal=f"r{r:02d}.landfall", active=active,
                             title=f"Round {r}: forecast {active}'s voyage")
        if step == "voyage":
            return PhaseSpec(pid, step, (active,), active=active,
                             title=f"Round {r}: {active} sails")
        return PhaseSpec(pid, step, (), title=f"Round {r}: omens")

    @staticmethod
    def normalised(orders: Orders) -> Orders:
        """``orders`` as :meth:`validate` and :meth:`resolve` both read them: the forecast's
        word in any case and with blanks around it (issue 12: names are typed by people)."""
        forecast = orders.get("forecast")
        if isinstance(forecast, str):
            return {**orders, "forecast": forecast.strip().casefold()}
        return orders

    def validate(self, state: State, phase: PhaseSpec, player: str,
                 orders: Orders) -> list[Problem]:
        orders = self.normalised(orders)
        problems: list[Problem] = []
        if phase.kind == "pledge":
            _unknown(orders, ("pledge",), problems)
            _check_int(orders, "pledge", 0, MAX_PLEDGE, problems)
        elif phase.kind == "forecast":
            _unknown(orders, ("forecast",), problems)
            if orders.get("forecast") not in ("high", "low"):
                problems.append(Problem("[orders] forecast", 'must be "high" or "low"',
                                        'write forecast = "low"'))
        elif phase.kind == "voyage":
            _unknown(orders, ("dice",), problems)
            _check_int(orders, "dice", 1, 3, problems)
        return problems

    def default_orders(self, state: State, phase: PhaseSpec, player: str) -> Orders:
        defaults: dict[str, Orders] = {"pledge": {"pledge": 0}, "forecast": {"forecast": "low"},
                                       "voyage": {"dice": 1}}
        return dict(defaults.get(phase.kind, {}))

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        orders = {p: self.normalised(o) for p, o in orders.items()}
        r = state["round"]
        events: list[Event] = []
        private: dict[str, list[Event]] = {}
        reveals: tuple[str, ...] = ()
        if phase.kind == "pledge":
            for p in sorted(orders):
                state["pledges"][p].append(orders[p]["pledge"])
            events.append({"type": "pledged", "round": r, "text":
                           f"Round {r}: every pledge is sealed until the end of the game."})
            state["step"] = "forecast"
        elif phase.kind == "forecast":
            state["forecasts"] = {p: orders[p]["forecast"] for p in sorted(orders)}
            state["step"] = "voyage"
        elif phase.kind == "voyage":
            active = phase.active
            assert active is not None
            count = orders[active]["dice"]
            dice = [rng.public.d6(f"voyage/{active}/{i}") for i in range(1, count + 1)]
            wrecked = 1 in dice
            gain = 0 if wrecked else sum(dice)
            state["score"][active] += gain
            events.append({"type": "voyage", "player": active, "dice": dice, "gain": gain,
                           "text": f"{active} rolls {dice}: " +
                           ("a 1, shipwreck, no points." if wrecked else f"{gain} points.")})
            outcome = "high" if gain >= HIGH_VOYAGE else "low"
            for p, guess in sorted(state["forecasts"].items()):
                if guess == outcome:
                    state["score"][p] += FORECAST_BONUS
                    events.append({"type": "forecast", "player": p, "gain": FORECAST_BONUS,
                                   "text": f"{p} forecast {guess!r} and gains {FORECAST_BONUS}."})
            state["forecasts"] = {}
            reveals = (f"r{r:02d}.landfall",)
            state["step"] = "omens"
        else:
            for p in state["seating"]:
                if not state["deck"]:
                    break
                card = rng.sealed.choice(state["deck"], f"omen/{p}")
                state["deck"].remove(card)
                state["hands"][p].append(card)
                name = omens()[card]["name"]
                private.setdefault(p, []).append(
                    {"type": "drew", "card": card, "text": f"You drew the {name}."})
            events.append({"type": "omens", "round": r,
                           "text": f"Round {r}: each player draws an omen card face down."})
            state["round"] += 1
            state["step"] = "pledge"
            if state["round"] > state["rounds"]:
                events += self._final_scoring(state)
        return Outcome(state, events, private, reveals)

    def _final_scoring(self, state: State) -> list[Event]:
        events: list[Event] = []
        pledges: dict[str, list[int]] = state["pledges"]
        for i in range(state["rounds"]):
            top = max(pledges[p][i] for p in pledges)
            for p in sorted(pledges):
                if pledges[p][i] == top and top > 0:
                    state["score"][p] += PLEDGE_BONUS
                    events.append({"type": "pledge-bonus", "round": i + 1, "player": p,
                                   "pledge": top, "text": f"Round {i + 1}: {p} pledged most "
                                   f"({top}) and gains {PLEDGE_BONUS}."})
        for p in sorted(pledges):
            cost = sum(pledges[p])
            cards = sum(omens()[c]["value"] for c in state["hands"][p])
            state["score"][p] += cards - cost
            events.append({"type": "final", "player": p, "pledged": cost, "omens": cards,
                           "score": state["score"][p], "text": f"{p}: omens {cards:+d}, pledges "
                           f"-{cost}, final score {state['score'][p]}."})
        return events

    # --- checks for pbem simulate --------------------------------------------------------

    def invariants(self, before: State | None, after: State, events: Sequence[Event],
                   private: Mapping[str, Sequence[Event]]) -> list[str]:
        """Every omen card in exactly one place (the deck or one hand); pledges within 0 to
        10, one per player per round pledged; scores recompute from the events."""
        problems: list[str] = []
        places = [*after["deck"], *(c for hand in after["hands"].values() for c in hand)]
        if sorted(places) != sorted(omens()):
            problems.append(f"omen cards not each in exactly one place: {sorted(places)}")
        pledged = {len(v) for v in after["pledges"].values()}
        if len(pledged) > 1:
            problems.append(f"players have pledged in different numbers of rounds: {pledged}")
        for p, values in sorted(after["pledges"].items()):
            if any(not 0 <= v <= MAX_PLEDGE for v in values):
                problems.append(f"{p} has a pledge outside 0-{MAX_PLEDGE}: {values}")
        start = before["score"] if before is not None else dict.fromkeys(after["score"], 0)
        gained = dict.fromkeys(after["score"], 0)
        for e in events:
            if e["type"] in ("voyage", "forecast"):
                gained[e["player"]] += e["gain"]
            elif e["type"] == "pledge-bonus":
                gained[e["player"]] += PLEDGE_BONUS
            elif e["type"] == "final":
                gained[e["player"]] += e["omens"] - e["pledged"]
        for p in sorted(after["score"]):
            if after["score"][p] != start.get(p, 0) + gained[p]:
                problems.append(f"{p}'s score {after['score'][p]} does not recompute from the "
                                f"events ({start.get(p, 0)} + {gained[p]})")
        return problems

    def hide_from_others(self, state: State, player: str) -> State | None:
        """``player``'s omen cards, pledges and forecast replaced by markers (while the game
        runs: at its end everything is public)."""
        if state["round"] > state["rounds"]:
            return None
        hidden = copy_state(state)
        hidden["hands"][player] = [f"marker-{player}-{i}"
                                   for i, _ in enumerate(state["hands"][player])]
        hidden["pledges"][player] = [MAX_PLEDGE + 900 + i
                                     for i, _ in enumerate(state["pledges"][player])]
        if player in hidden["forecasts"]:
            hidden["forecasts"][player] = f"marker-{player}"
        return hidden

    def roles(self, state: State) -> dict[str, str]:
        """Sides for the statistics of simulations: each player's seat in the seating."""
        return {p: f"seating {i + 1}" for i, p in enumerate(state["seating"])}

    # --- views, forms, bots --------------------------------------------------------------

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        over = state["round"] > state["rounds"]
        view: dict[str, Any] = {
            "round": min(state["round"], state["rounds"]), "rounds": state["rounds"],
            "step": state["step"], "seating": state["seating"], "mottos": state["mottos"],
            "active": self.active(state) if not over else "",
            "score": dict(state["score"]),
            "hand_sizes": {p: len(h) for p, h in state["hands"].items()},
            "deck_size": len(state["deck"]), "game_over": over,
        }
        if over:
            view["pledges"] = state["pledges"]
            view["hands"] = state["hands"]
        elif player is not None:
            view["hand"] = state["hands"][player]
            view["my_pledges"] = state["pledges"][player]
        return view

    def order_form(self, view: Mapping[str, Any], phase: PhaseSpec, player: str) -> str:
        return order_form_text(self.name, phase.kind)

    def bot_join(self, player: str, rng: Stream) -> Orders:
        return {"motto": rng.choice(["Fortune favours the bold", "Slow and steady",
                                     "Trust the omens"], f"bot/{player}/motto")}

    def bot_orders(self, view: Mapping[str, Any], phase: PhaseSpec, player: str,
                   rng: Stream) -> Orders:
        if phase.kind == "pledge":
            return {"pledge": rng.draw(f"bot/{player}/pledge", MAX_PLEDGE + 1) - 1}
        if phase.kind == "forecast":
            return {"forecast": rng.choice(["high", "low"], f"bot/{player}/forecast")}
        if phase.kind == "voyage":
            return {"dice": rng.draw(f"bot/{player}/dice", 3)}
        return {}

    def board_svg(self, view: Mapping[str, Any], player: str | None) -> str:
        from pbem.games.conformance import board

        return board.svg(view, player)

    def result(self, state: State) -> dict[str, Any]:
        if state["round"] <= state["rounds"]:
            return {}
        return {"score": state["score"]}


RULESET = Conformance()

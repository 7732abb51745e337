"""The Mythology ruleset: phases, validation, defaults, views, the end of the game."""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from pbem.core import wrapping
from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem, ProblemsError
from pbem.core.resources import order_form_text
from pbem.core.ruleset import REVEAL_GAME, OptionSpec, Orders, Outcome, PhaseSpec, Ruleset
from pbem.games.mythology import (
    bot,
    cards,
    fates,
    forms,
    invariants,
    logsheet,
    moving,
    names,
    occurrences,
    prayer,
    rules,
    zeus,
)
from pbem.games.mythology import setup as setup_mod
from pbem.games.mythology.components import Components, load
from pbem.games.mythology.rules import Event, State


def _areas(c: Components) -> list[str]:
    return sorted(c.map.areas)


def _prayer_on(state: State) -> bool:
    return bool(state.get("options", {}).get("prayer") == "on")


#: The lines of ``orders/mythology/move.toml`` between these two markers describe Optional
#: Rule 303; the form leaves them out of a game that does not use it.
LESSER_FORM_START = "# --- Optional Rule 303"
LESSER_FORM_END = "# --- end of Optional Rule 303"
#: Likewise the lines of ``orders/mythology/logsheet.toml`` for Optional Rule 301 (the bribe).
ZEUS_FORM_START = "# --- Optional Rule 301"
ZEUS_FORM_END = "# --- end of Optional Rule 301"
#: And of ``orders/mythology/logsheet.toml`` for Optional Rule 302 (Prayer and Sacrifice).
PRAYER_FORM_START = "# --- Optional Rule 302"
PRAYER_FORM_END = "# --- end of Optional Rule 302"


@lru_cache(maxsize=64)
def _without_lesser(form: str, start: str = LESSER_FORM_START,
                    end: str = LESSER_FORM_END) -> str:
    """The form without the 303 block, or the block between ``start`` and ``end`` (its
    marker lines and the blank line after it)."""
    out: list[str] = []
    skipping = dropped = False
    for line in form.splitlines(keepends=True):
        if line.startswith(start):
            skipping = True
        if skipping:
            if line.startswith(end):
                skipping, dropped = False, True
            continue
        if dropped and not line.strip():
            dropped = False
            continue
        dropped = False
        out.append(line)
    return "".join(out)


@lru_cache(maxsize=4096)
def _comment(line: str) -> tuple[str, ...]:
    """A situation line as form comments, wrapped for mail clients on phones (78 columns).
    The same lines recur from turn to turn and reader to reader: wrapped once each."""
    return tuple(wrapping.wrap(line, 76, "# ", "#     "))


@lru_cache(maxsize=256)
def _logsheet_text(key: bytes) -> tuple[str, ...]:
    return tuple(_logsheet_lines_text(marshal.loads(key)))


def _logsheet_lines_text(lines: list[dict[str, Any]]) -> list[str]:
    """:meth:`Mythology.logsheet_text`, uncached."""
    out = []
    for line in lines:
        heroes = sorted(line["T"], key=int)
        cells = "".join(f"{h:>4}" for h in heroes)
        c_line = "".join(f"{line['C'].get(h, ''):>4}" for h in heroes)
        t_line = "".join(f"{line['T'][h]:>4}" for h in heroes)
        entries = "  ".join(f"{e['C']}:{e['T']}" for e in line["entries"])
        out.append(f"Turn {line['turn']:>2}  Hero{cells}")
        out.append(f"          C   {c_line}")
        out.append(f"          T   {t_line}")
        if entries:
            out.append(f"          {entries}")
    return out


@lru_cache(maxsize=1024)
def _unit_label(c: Components, unit: int) -> str:
    return names.unit_label(c, unit)


@lru_cache(maxsize=2048)
def _near(c: Components, hex_id: str) -> str:
    """Issue 14: the hexes next to a unit (204 E), so no one reads them off the map."""
    return "; next: " + " ".join(c.map.neighbours(hex_id))


#: Said once in every report, above the board (issue 14).
HEX_NOTE = ("Hexes are numbered column then row, 4 digits: 2511 is column 25, row 11. "
            "After each Hero, Monster and Lesser Evil counter, \"next:\" lists the hexes next "
            "to it (204 E), the first step of any path.")


def _area_heading(c: Components, area: str) -> str:
    """An Area by its printed name, and the id orders write when the two differ ("The
    River Ocean [river_ocean]"); names are accepted too."""
    name = c.map.areas[area].name
    return name if name.casefold() == area else f"{name} [{area}]"


class Mythology(Ruleset):
    name = "mythology"
    title = "Mythology (Yaquinto, 1980), Advanced Game"
    rules_version = "advanced-1980/pbem-1"
    min_players = 2
    max_players = 10
    options: ClassVar[Mapping[str, OptionSpec]] = {
        "setup": OptionSpec("random", ("random", "historical"),
                            "102 random set-up, or 304 Historical Map Set-Up"),
        "prayer": OptionSpec("off", ("off", "on"), "Optional Rule 302, Prayer and Sacrifice"),
        "lesser_evil": OptionSpec("off", ("off", "on"),
                                  "Optional Rule 303, the Lesser Evil unit counters"),
        "zeus": OptionSpec("", (), "Optional Rule 301, a Zeus player: the name of the "
                           "campaign player who is Zeus (five players at least)"),
    }

    # --- options -------------------------------------------------------------------------
    def check_options(self, given: Mapping[str, str], players: Sequence[str]) -> list[Problem]:
        """The common checks, and 301 B for ``zeus``: five players at least, one of them."""
        problems = super().check_options(given, players)
        if given.get("zeus", ""):
            problems += zeus.setup_problems(given["zeus"], players)
        return problems

    @property
    def c(self) -> Components:
        return load()

    # --- setup ---------------------------------------------------------------------------
    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        z = options.get("zeus", "")
        if z:  # 301 A-B: a campaign player who is Zeus, not a god
            problems = zeus.setup_problems(z, players)
            if problems:
                raise ProblemsError(problems, "campaign options")
        seats = rng.public.shuffle(sorted(p for p in players if p != z), "setup/seating")
        lesser = options.get("lesser_evil", "off") == "on"
        state, events, private = setup_mod.initial_state(self.c, seats, options["setup"],
                                                         rng.public, rng.sealed,
                                                         lesser_evil=lesser)
        events.insert(0, {"type": "seating", "order": seats, "text": "Seating, clockwise: "
                          + ", ".join(seats) + "."})
        state["options"] = {"prayer": options.get("prayer", "off"),
                            "lesser_evil": "on" if lesser else "off"}
        if z:
            state["options"]["zeus"] = z
            state["zeus"] = zeus.initial(z)
            state["glory"][z] = 0  # 301 C c: all of his Glory comes from the others
            events.insert(1, {"type": "zeus", "player": z, "text": f"{z} is Zeus (301): no "
                              "god counter, Power Points, cards or Fate counter; Glory only "
                              "from the gods."})
            private[z] = []
        return Outcome(state, events, private)

    # --- phases --------------------------------------------------------------------------
    def next_phase(self, state: State) -> PhaseSpec | None:
        if state["step"] == "over":
            return None
        t, step = state["turn"], state["step"]
        if step == "logsheet":
            return PhaseSpec(f"t{t:02d}.logsheet", "logsheet", tuple(state["seats"]),
                             sealed=True, reveal=REVEAL_GAME,
                             title=f"Turn {t}: Log Sheet notation (202 B 1-2)")
        if step == "zeus":  # 301: Zeus's decree, sealed until the end of the game
            z = zeus.player(state)
            return PhaseSpec(f"t{t:02d}.zeus", "zeus", (z,), sealed=True, reveal=REVEAL_GAME,
                             active=z, title=f"Turn {t}: Zeus's decree (301)")
        if step in ("place", "move"):
            p = state["order"][state["cursor"]]
            what = "God Placement (203)" if step == "place" else "Moving Player (202 B 4)"
            return PhaseSpec(f"t{t:02d}.{step}.{p}", step, (p,), active=p,
                             title=f"Turn {t}: {p}, {what}")
        return PhaseSpec(f"t{t:02d}.fate", "fate", (), title=f"Turn {t}: the Fates (213)")

    def validate(self, state: State, phase: PhaseSpec, player: str,
                 orders: Orders) -> list[Problem]:
        if phase.kind == "logsheet":
            sheet, problems = logsheet.parse(orders, hand=state["hands"][player],
                                             areas=_areas(self.c),
                                             powers=cards.power_ids(self.c, state, player),
                                             prayer=_prayer_on(state), zeus_player=zeus.on(state))
            spare = state["glory"][player] - sum(o.glory for o in sheet.offers)
            if sheet.bribe > max(spare, 0):  # 301 C c: a god gives only Glory he has
                problems.append(Problem("[orders] bribe", f"{sheet.bribe} Glory; you have "
                                        f"{max(spare, 0)} to give after your Prayers and "
                                        "Sacrifices", "bribe less"))
            return problems
        if phase.kind == "zeus":
            return zeus.parse(self.c, state, orders)[1]
        if phase.kind == "place":
            problems = [Problem(f"[orders] {k}", "unknown order", "write only area = ...")
                        for k in orders if k != "area"]
            if self.place_area(orders) is None:
                problems.append(Problem("[orders] area", f"{names.shown(orders.get('area'))}"
                                        " is not an Area", "one of " + ", ".join(_areas(self.c))))
            return problems
        if phase.kind == "move":
            return moving.validate(self.c, state, player, orders)
        return []

    def place_area(self, orders: Mapping[str, Any]) -> str | None:
        """The Area of a God Placement order, by id or printed name in any case ("Egypt")."""
        return names.area_id(self.c, orders.get("area"))

    def check(self, state: State, phase: PhaseSpec, player: str, orders: Orders
              ) -> tuple[list[Problem], list[Problem]]:
        """A Moving Player's orders are walked through once for both lists
        (:func:`moving.review`)."""
        if phase.kind == "move":
            problems, later = moving.review(self.c, state, player, orders)
            return problems, ([] if problems else later)
        return super().check(state, phase, player, orders)

    def provisional(self, state: State, phase: PhaseSpec, player: str,
                    orders: Orders) -> list[Problem]:
        """A Moving Player's orders that the dice or the other gods' sealed orders may still
        void as the phase runs (see :func:`moving.provisional`); nothing else waits."""
        if phase.kind == "move":
            return moving.provisional(self.c, state, player, orders)
        return []

    def default_orders(self, state: State, phase: PhaseSpec, player: str) -> Orders:
        """NMR: a blank Log Sheet; the god stays where it was (203 D) or goes to Greece; a
        Moving Player who sends nothing moves nothing (204 A allows none); Zeus (301) favours
        the gods in seating order and grants, revives and strikes nothing."""
        if phase.kind == "place":
            return {"area": state["god_area"][player] or setup_mod.GREECE}
        return {}

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        events: list[Event] = []
        private: dict[str, list[Event]] = {}
        if phase.kind == "logsheet":
            sheets = {p: logsheet.parse(orders[p], hand=state["hands"][p], areas=_areas(self.c),
                                        powers=cards.power_ids(self.c, state, p),
                                        prayer=_prayer_on(state), zeus_player=zeus.on(state))[0]
                      for p in state["seats"]}
            events, private = rules.resolve_logsheets(self.c, state, sheets, rng)
        elif phase.kind == "zeus":
            decree = zeus.parse(self.c, state, orders[zeus.player(state)])[0]
            events, mine = zeus.record(self.c, state, decree)
            private = {zeus.player(state): mine}
            events += rules.start_placement(state, rng)
        elif phase.kind == "place":
            assert phase.active is not None
            area = self.place_area(orders[phase.active])
            assert area is not None  # validate accepted it
            events = rules.place_god(state, phase.active, area)
            events += rules.advance_placement(state)
        elif phase.kind == "move":
            assert phase.active is not None
            events = moving.resolve(self.c, state, phase.active, orders[phase.active], rng)
            state["cursor"] += 1
            if state["cursor"] >= len(state["order"]):
                state["step"] = "fate"
            if all(x["off_board"] for x in state["prizes"].values()):
                events += self.zeus_glory(state)  # the Turn ends here: 216 G 1 is still paid
                events += self.end_of_game(state, "every Prize is off the board (216 B)")
        else:
            events, private = self.fate_phase(state, rng)
        if state["step"] == "place" and state["cursor"] >= len(state["order"]):
            events += zeus.revive(self.c, state, rng.public)  # 301 C 3
            events += prayer.resolve(self.c, state, rng.public, zeus.awards(state))  # 302 H
            events += rules.start_movement(state, rng)
        return Outcome(state, events, private)

    def fate_phase(self, state: State, rng: Rng) -> tuple[list[Event], dict[str, list[Event]]]:
        c, t = self.c, state["turn"]
        events: list[Event] = []
        effects = state["turn_effects"]
        for plague in effects.get("plague", []):  # 210 G 4
            targets = moving.occurrence_targets(c, state, set(c.map.area(plague["area"]).hexes))
            plagued = occurrences.resolve("P", plague["points"], targets, rng.public,
                                          f"t{t:02d}/plague/{plague['player']}",
                                          extra=plague.get("extra", 0))
            events += plagued.events
            phase = moving.Phase(c, state, plague["player"], rng)
            for hero in plagued.killed:
                phase.kill_by_occurrence(hero)
            phase.glory(plague["player"], plagued.glory, "Hercules slain by Plague (214 B)")
            events += phase.events
        track = {int(k): v for k, v in state["fate_track"].items()}
        on_board = {int(h) for h, x in state["heroes"].items() if x["status"] == "board"}
        taken = {x["hex"] for x in state["heroes"].values() if x["status"] == "board"} | {
            x["hex"] for x in state["monsters"].values() if x["status"] == "board"} | {
            x["hex"] for x in state.get("lesser", {}).values() if x["status"] == "board"}
        greek = sorted(h for h in c.map.area(setup_mod.GREECE).hexes if c.map.is_land(h))
        result = fates.fate_phase(t, track, on_board, [h for h in greek if h not in taken],
                                  greek, rng.public, f"t{t:02d}/fates")
        events += result.events
        for hero in result.removed:
            moving.Phase(c, state, state["seats"][0], rng).remove_hero(hero, "fates")
        for hero, hex_id in sorted(result.born.items()):
            state["heroes"][str(hero)].update(status="board", hex=hex_id)
            zeus.unbury(state, hero)
        state["fate_track"] = dict(sorted((str(k), v) for k, v in result.track.items()))
        events += self.zeus_glory(state)
        private: dict[str, list[Event]] = {}

        size = setup_mod.hand_size(len(state["seats"]))
        for p in state["seats"]:  # 010 C-D: face-down cards are discarded; hands refilled
            if state["facedown"][p]:
                state["discard"].append(state["facedown"][p])
                state["facedown"][p] = ""
            drawn = []
            while len(state["hands"][p]) < size and (state["deck"] or state["discard"]):
                if not state["deck"]:
                    # The rulebook does not say what happens when the deck runs out (010 D); as
                    # is usual, the discard pile is shuffled face down into a new deck.
                    state["deck"] = rng.sealed.shuffle(sorted(state["discard"], key=int),
                                                       f"t{t:02d}/reshuffle/{p}")
                    state["discard"] = []
                    events.append({"type": "reshuffle", "text": "The discard pile is "
                                   "shuffled into a new deck."})
                drawn.append(state["deck"].pop())
                state["hands"][p].append(drawn[-1])
            if drawn:
                private[p] = [{"type": "drew", "cards": drawn,
                               "text": f"You draw cards {', '.join(drawn)} (010 D)."}]
        if state["remorse"] == t:  # 214 A 3 d
            state["remorse"] = 0
            events.append({"type": "purged", "text": "Hercules has purged his soul (214 A 3 d)."})
        stats = state["stats"]
        if not stats["occurrences_this_turn"]:
            stats["turns_without_occurrence"] += 1
        stats["occurrences_this_turn"] = 0
        state["turn_effects"] = {}
        state["offers"] = {}
        state["turn"], state["step"] = t + 1, "logsheet"
        if t >= rules.LAST_TURN:
            events += self.end_of_game(state, "fifteen game Turns have been played (216 B)")
        return events, private

    def zeus_glory(self, state: State) -> list[Event]:
        """216 G 1: To the Glory of Zeus, 1 Glory Point per 4 Power Points, at the Turn's end."""
        events: list[Event] = []
        for p in state["seats"]:
            gain = rules.sheet(state, p).zeus // 4
            if gain:
                state["glory"][p] += gain
                events.append({"type": "glory", "player": p, "amount": gain, "text":
                               f"{p} +{gain} Glory To the Glory of Zeus (216 G 1)."})
                # 301 C c: the Zeus player receives as much as the giver.
                events += zeus.receive(state, p, gain, "To the Glory of Zeus (216 G 1)",
                                       "glory-of-zeus")
        return events

    def end_of_game(self, state: State, why: str) -> list[Event]:
        """216 B, G 7: the Special Victory Conditions, then the final Glory."""
        events: list[Event] = [{"type": "game-over", "text": f"The game is over: {why}."}]
        stats = self.game_stats(state)
        chart = fates.load_chart()
        for p in state["seats"]:
            fate = state["fate_held"][p]
            halves, explanation = fates.special_victory(chart[fate], stats, p)
            gain = fates.final_glory(0, halves)
            state["glory"][p] += gain
            events.append({"type": "special-victory", "player": p, "fate": fate, "glory": gain,
                           "text": f"{p} reveals Fate {fate}: {explanation}: +{gain} "
                           "(216 G 7)."})
        if zeus.on(state):  # 301 C c: Zeus wins or loses like a player; he holds no Fate
            events.append({"type": "special-victory-none", "player": zeus.player(state),
                           "text": f"{zeus.player(state)} (Zeus) holds no Fate counter "
                           "(301)."})
        best = max(state["glory"].values())
        everyone = [*state["seats"], *([zeus.player(state)] if zeus.on(state) else [])]
        winners = [p for p in everyone if state["glory"][p] == best]
        events.append({"type": "winner", "players": winners, "glory": best,
                       "text": f"Most Glory ({best}): {', '.join(winners)} (216 A)."})
        state["step"] = "over"
        return events

    def game_stats(self, state: State) -> fates.GameStats:
        s = state["stats"]
        possessed: dict[str, int] = {}
        helpers_possessed: dict[str, int] = {}
        for x in state["prizes"].values():
            # 216 G 7, 302 I a: a Prize is a god's when he took it off the board, or when a
            # Hero he Controls holds it.
            owner = x["off_board"] or (rules.control_of(state, x["holder"]) or ""
                                       if x["holder"] else "")
            if owner:
                possessed[owner] = possessed.get(owner, 0) + 1
        for x in state["helpers"].values():
            if x["holder"]:
                owner = rules.control_of(state, x["holder"])
                if owner:
                    helpers_possessed[owner] = helpers_possessed.get(owner, 0) + 1
        return fates.GameStats(
            heroes_on_board=sum(x["status"] == "board" for x in state["heroes"].values()),
            heroes_killed_in_combat=s["heroes_killed_in_combat"],
            monsters_on_board=sum(x["status"] == "board" for x in state["monsters"].values()),
            monsters_killed=s["monsters_killed"], occurrences=s["occurrences"],
            heroes_killed_by_occurrence=s["heroes_killed_by_occurrence"],
            prizes_on_board=sum(not x["off_board"] for x in state["prizes"].values()),
            prizes_off_board=sum(bool(x["off_board"]) for x in state["prizes"].values()),
            helpers_on_board=sum(not x.get("sacrificed") for x in state["helpers"].values()),
            helpers_off_board=sum(bool(x.get("sacrificed")) for x in state["helpers"].values()),
            prizes_possessed=possessed, helpers_possessed=helpers_possessed,
            turns_without_occurrence=s["turns_without_occurrence"],
            prayers=s.get("prayers", {}), sacrifices=s.get("sacrifices", {}))

    # --- views, forms, bots --------------------------------------------------------------
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return rules.view(state, player)

    def order_form(self, view: Mapping[str, Any], phase: PhaseSpec, player: str) -> str:
        """The annotated form, after what the player knows that bears on it (as comments, so
        that the form sent back unchanged still means the default)."""
        form = order_form_text(self.name, phase.kind)
        if view and view.get("options", {}).get("lesser_evil") != "on":
            form = _without_lesser(form)
        if view and not view.get("options", {}).get("zeus"):
            form = _without_lesser(form, ZEUS_FORM_START, ZEUS_FORM_END)
        if view and view.get("options", {}).get("prayer") != "on":
            form = _without_lesser(form, PRAYER_FORM_START, PRAYER_FORM_END)
        if not view or phase.kind not in ("logsheet", "place", "move", "zeus"):
            return form
        form = self.form_examples(form, view, phase, player)
        lines = (self.zeus_situation(view) if phase.kind == "zeus"
                 else self.situation(view, phase, player))
        return "\n".join(part for line in lines for part in _comment(line)) + "\n\n" + form

    def form_examples(self, form: str, view: Mapping[str, Any], phase: PhaseSpec,
                      player: str) -> str:
        """Issue 14: the form's examples with ids legal for ``player`` now (see :mod:`forms`);
        keys and value types stay those of ``orders/mythology/*.toml``."""
        c = self.c
        if phase.kind == "place":
            return form.replace('\narea = "greece"', f'\narea = "{forms.place(view, player)}"')
        if phase.kind == "zeus":
            return forms.rewrite(form, forms.zeus(c, view))
        if phase.kind == "move":
            return forms.rewrite(form, forms.move(c, view, player))
        form = form.replace('\ncard = ""\n', f'\ncard = ""\n{forms.card_line(view)}\n', 1)
        return forms.rewrite(form, forms.logsheet(c, view, player))

    def situation(self, view: Mapping[str, Any], phase: PhaseSpec, player: str) -> list[str]:
        c = self.c
        god = c.gods[view["gods"][player]]
        lines = [f"Turn {view['turn']}. You are {god.name}; Glory {view['glory'][player]}; "
                 f"your god is in {view['god_area'][player] or 'no Area'}."]
        totals = {int(h): t for h, t in view.get("my_hero_totals", {}).items()}
        if totals:
            lines.append("Your Hero totals (208 I; spend at least 1 this turn to keep each): "
                         + ", ".join(f"{h} {c.heroes[h].name} {t}"
                                     for h, t in sorted(totals.items())))
        if "zeus" in view:  # 301: only in a game with a Zeus player
            z = view["zeus"]
            lines.append(f"Zeus is {z['player']} (301), Glory {view['glory'][z['player']]}: "
                         "he answers Prayers and Sacrifices, settles Hero draws by his favour "
                         "and throws Lightning Bolts" + (
                             "; struck this Turn: " + ", ".join(z["bolted"])
                             if z["bolted"] else "") + ".")
        lines.append("Your god's powers (011; each once a Turn):")
        lines += [f'  "{p.id}": {p.text}' for p in god.powers]
        if phase.kind == "logsheet":
            lines.append("Your hand (010; card = \"N\" places one face down):")
            for card in view.get("hand", []):
                x = c.cards[int(card)]
                lines.append(f"  {card}: god: {x.god.text} | event: {x.event.text} | "
                             f"oracle: {x.oracle.text}")
        if phase.kind == "place":
            placed = [f"{p} in {view['god_area'][p]}" for p in view["order"][:view["cursor"]]]
            lines.append("Placed before you this turn: " + (", ".join(placed) or "nobody"))
        if phase.kind == "move":
            sheet = view.get("my_logsheets", {}).get(str(view["turn"]), {})
            plotted = [f"{o['code']} ({o['points']})" for o in sheet.get("occurrences", [])]
            lines.append("Divine Occurrences you plotted this turn: "
                         + (", ".join(plotted) or "none"))
            card = view.get("facedown_card", "")
            if card:
                lines.append(f"Your face-down card {card}: {c.cards[int(card)].god.text} | "
                             f"{c.cards[int(card)].event.text}")
            on_board = {int(h): x["hex"] for h, x in view["heroes"].items()
                        if x["status"] == "board"}
            # The hexes next to each (204 E): the first step of any path, by number, so no
            # one has to read hex numbers off the map for it (issue 14).
            mine = [f"{h} {c.heroes[h].name} at {on_board[h]} (next to "
                    f"{', '.join(c.map.neighbours(on_board[h]))})" for h in sorted(totals)
                    if h in on_board]
            lines.append("Your Heroes on the board: " + (", ".join(mine) or "none"))
            if "lesser" in view:
                area = view["god_area"][player]
                near = [f"{u} {c.lesser[int(u)].name} at {x['hex']}"
                        for u, x in sorted(view["lesser"].items(), key=lambda kv: int(kv[0]))
                        if x["status"] == "board" and area and c.map.area_of(x["hex"]) == area]
                lines.append("Lesser Evil counters in your god's Area, yours to move this "
                             "phase (303 E): " + (", ".join(near) or "none"))
        return lines

    def zeus_situation(self, view: Mapping[str, Any]) -> list[str]:
        """What Zeus knows when he gives his decree (301): the gods, what they offered him
        this Turn (302 C) and bribed him with, whom he may bring back and strike."""
        c, z = self.c, view["zeus"]
        gods = ", ".join(f"{p} ({c.gods[view['gods'][p]].name}) Glory {view['glory'][p]}"
                         for p in view["seats"])
        lines = [f"Turn {view['turn']}. You are Zeus (301); Glory {view['glory'][z['player']]}. "
                 f"The gods, in seating order: {gods}."]
        offers = [f"player = \"{o['player']}\", index = {o['index']}: {o['kind']} of "
                  f"{o['glory']} Glory" + (f" with {', '.join(o['helpers'] + o['prizes'])}"
                                           if o["helpers"] or o["prizes"] else "")
                  + f" for {c.heroes[o['hero']].name} ({o['hero']})"
                  for o in view.get("zeus_offers", [])]
        lines.append("Offered to you this Turn (302 C): " + ("; ".join(offers) or "nothing")
                     + ".")
        bribes = [f"{p} {n}" for p, n in sorted(view.get("zeus_bribes", {}).items())]
        lines.append("Bribes this Turn: " + (", ".join(bribes) or "none") + ".")
        given = [f"{p} {n}" for p, n in sorted(z["given"].items())]
        lines.append("Glory given to you so far: " + (", ".join(given) or "none") + ".")
        lines.append("Protections you may grant (301 C 2): "
                     + ", ".join(view.get("zeus_results", [])) + ".")
        dead = [f"{zeus.unit_name(c, x['unit'])} ({x['cause']}, Turn {x['turn']}, died in "
                f"{x['hex']})" for x in view.get("zeus_revivable", [])]
        lines.append("You may bring back (301 C 3): " + (", ".join(dead) or "nobody") + ".")
        if z["last_bolted"]:
            lines.append("Struck last Turn, not to be struck now (301 C 4 b): "
                         + ", ".join(z["last_bolted"]) + ".")
        return lines

    def bot_orders(self, view: Mapping[str, Any], phase: PhaseSpec, player: str,
                   rng: Stream) -> Orders:
        return bot.orders(self.c, view, phase, player, rng)

    def event_text(self, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
        """An event as reports print it (issue 14): counters by name, no seams. The event's
        own text and fields are ledger bytes and stay as the rules wrote them."""
        return names.event_text(self.c, event)

    def report_public(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The board by Area, the gods' names and the Prizes taken off: public, so built
        once per record for every reader."""
        c = self.c

        def unit(u: int) -> str:
            return _unit_label(c, u)

        def near(hex_id: str) -> str:
            return _near(c, hex_id)

        board: dict[str, list[str]] = {}
        carried: dict[int, list[str]] = {}  # unit -> Helpers, then Prizes, it holds
        for table, named in (("helpers", c.helpers), ("prizes", c.prizes)):
            for k, y in sorted(view[table].items()):
                if y["holder"]:
                    carried.setdefault(y["holder"], []).append(named[k].name)
        ships = set(view["ships"])
        for table in ("heroes", "monsters"):
            for u, x in sorted(view[table].items(), key=lambda kv: int(kv[0])):
                if x["status"] == "board":
                    extra = ["ship"] if int(u) in ships else []
                    extra += carried.get(int(u), [])
                    note = f" with {', '.join(extra)}" if extra else ""
                    board.setdefault(c.map.area_of(x["hex"]), []).append(
                        f"{unit(int(u))} {x['hex']}{note}{near(x['hex'])}")
        for u, x in sorted(view.get("lesser", {}).items(), key=lambda kv: int(kv[0])):
            if x["status"] == "board":  # 303: face up, nobody's
                what = "Pirate" if c.lesser[int(u)].pirate else "Lesser Evil"
                board.setdefault(c.map.area_of(x["hex"]), []).append(
                    f"{what} {c.lesser[int(u)].name} ({u}) {x['hex']}{near(x['hex'])}")
        for pid, x in sorted(view["prizes"].items()):
            if x["hex"]:
                board.setdefault(c.map.area_of(x["hex"]), []).append(
                    f"Prize {c.prizes[pid].name} {x['hex']} (Defense {c.prizes[pid].defense})")
        for hid, x in sorted(view["helpers"].items()):
            if x["hex"]:
                board.setdefault(c.map.area_of(x["hex"]), []).append(
                    f"Helper {c.helpers[hid].name} {x['hex']}")
        gods = {p: c.gods[g].name for p, g in view["gods"].items()}
        for p, area in view["god_area"].items():
            if area:
                board.setdefault(area, []).insert(0, f"god {gods[p]} ({p})")
        areas = [{"name": _area_heading(c, a), "items": items}
                 for a, items in sorted(board.items(), key=lambda kv: c.map.areas[kv[0]].name)]
        off = [f"{c.prizes[p].name} (taken off by {x['off_board']})"
               for p, x in sorted(view["prizes"].items()) if x["off_board"]]
        if "zeus" in view:  # 301: who Zeus is is public
            gods[view["zeus"]["player"]] = "Zeus"
        return {"gods": gods, "areas": areas, "prizes_off": off, "hex_note": HEX_NOTE}

    def report_context(self, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
        """The reader's own part: the hand and the Log Sheet (the board is in
        :meth:`report_public`)."""
        c = self.c
        hand = [{"id": card, "god": c.cards[int(card)].god.text,
                 "event": c.cards[int(card)].event.text,
                 "oracle": c.cards[int(card)].oracle.text} for card in view.get("hand", [])]
        sheets = {p: self.logsheet_text(lines) for p, lines in
                  (view.get("logsheet_lines") or {}).items()}
        if "my_logsheet_lines" in view:
            sheets[player or ""] = self.logsheet_text(view["my_logsheet_lines"])
        out: dict[str, Any] = {"hand": hand, "logsheets": sheets, "zeus": {}}
        if "zeus" in view:  # 301: only in a game with a Zeus player
            out |= self.zeus_context(view, player)
        return out

    def zeus_context(self, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
        """Optional Rule 301 in the reports: Zeus's Glory line for everyone; for Zeus, what is
        offered to him and his decrees; at the end, every decree revealed."""
        z = view["zeus"]
        mine: list[str] = []
        if player == z["player"] and not view["game_over"]:
            mine = self.zeus_situation(view)[1:]
            current = view.get("zeus_decrees", {}).get(str(view["turn"]))
            if current:  # the earlier ones were in the earlier reports
                mine += [f"Your decree for Turn {view['turn']}: {line}"
                         for line in zeus.describe(current, self.c)]
        revealed = [f"Turn {turn}: {line}"
                    for turn, d in sorted(view.get("zeus_decrees", {}).items(),
                                          key=lambda kv: int(kv[0]))
                    for line in zeus.describe(d, self.c)] if view["game_over"] else []
        struck = (f"Struck by Zeus's Lightning Bolt this Turn (301 C 4 b): "
                  f"{', '.join(z['bolted'])}." if z["bolted"] else "")
        return {"zeus": {"player": z["player"], "glory": view["glory"][z["player"]],
                         "struck": struck, "lines": mine, "revealed": revealed}}

    def board_svg(self, view: Mapping[str, Any], player: str | None) -> str:
        from pbem.games.mythology import board

        return board.svg(self.c, view, player)

    @staticmethod
    def logsheet_text(lines: list[dict[str, Any]]) -> list[str]:
        """006 C: per turn a C line (spent) and a T line (running total) under each Hero
        number, then the Monsters / Divine Occurrences / Aid-Ailment / Zeus entries."""
        # Every report shows its reader's sheet, which changes only when they write on it:
        # laid out once per distinct sheet (marshal: the key, plain data as the view holds).
        try:
            key = marshal.dumps(lines)
        except ValueError:  # not plain data: laid out as it is
            return _logsheet_lines_text(lines)
        return list(_logsheet_text(key))

    def invariants(self, before: State | None, after: State, events: Sequence[Event],
                   private: Mapping[str, Sequence[Event]]) -> list[str]:
        return invariants.check(self.c, before, after, events, private)

    def hide_from_others(self, state: State, player: str) -> State | None:
        return invariants.hide_from_others(state, player)

    def roles(self, state: State) -> dict[str, str]:
        names = {p: self.c.gods[g].name for p, g in state["gods"].items()}
        if zeus.on(state):
            names[zeus.player(state)] = "Zeus"
        return names

    def result(self, state: State) -> dict[str, Any]:
        if state["step"] != "over":
            return {}
        return {"score": dict(state["glory"])}


RULESET = Mythology()

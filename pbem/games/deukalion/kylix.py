"""The Kylix and the active player's turn (THE KYLIX, Kylix 1-5, Kylix Hydra/Card/Hoplites/
Move; PLAYING A ROUND, Round 1 and 5-7).

:func:`roll` shakes the cup (five public draws of ``DEUKALION_DIE``: the centre die and the
outer dice in the slots north, east, south, west); :func:`assignment` gives the four symbols'
numbers for one of the 4 turns of the cup; :func:`plan_kylix` checks the active player's
orders when he sends them (everything the dice already shown decide) and :func:`run_kylix`
carries them out, step by step, in his order.

The orders (the design's ``tNN.kylix.<player>``)::

    rotation = 2                 # 0-3, the default 0: the cup as it fell
    [[orders.step]]
    action = "reclaim"           # count = 0..Hoplites die (default the die); dump = [colours]
    [[orders.step]]
    action = "play"              # card = an Action card id; a "reclaim" card: count, dump
    card = "move_plus"
    [[orders.step]]
    action = "hydra"             # path = the squares the Hydra enters, in order
    path = ["e5", "d5"]
    [[orders.step]]
    action = "ship"              # path = the squares the ship enters; then/target: the end
    path = ["d3", "c3"]
    then = "challenge_city"      # or "found", "cards" (a sail_cards Pursuit: give = the
    target = "sparta"            #   card ids sacrificed first, the default: the first ones)
    [[orders.step]]
    action = "card"              # where the Card die's draw happens (default: first)

Without ``step`` the turn is the Card die's draw, then as many hoplites back as the Hoplites
die allows (the NMR default). A path lists the squares entered, not the one the piece stands
on; an empty path (or no ship step) leaves the piece where it is.

Rulings (with their clause):

- Kylix 1-2, 5 (analysis 5.1 item 2): the cup is turned, not re-ordered: rotation ``r`` puts
  the outer die of slot ``(i + r) % 4`` (slots N, E, S, W) on symbol ``i`` of
  ``components.KYLIX_SYMBOLS`` (clockwise from the north slot: hoplites, move, cards, hydra,
  authored). So only 4 of the 24 assignments are reachable: dice on opposite slots always
  serve opposite symbols.
- Round 6 "in any order" (analysis 5.1 item 5): each of the four actions is one block, done
  at most once (the ship moves once, the Hydra once), in the order of the steps; Action cards
  may be played between them, any number (Action 2). The Card die's draw always happens (the
  die decides who draws, Kylix Card 1; only its place in the order is chosen: first unless a
  ``card`` step says where). Reclaiming is optional (``count = 0`` or no ``reclaim`` step when
  ``step`` is given).
- Kylix Hoplites 1-2: ``count`` is "up to" the Hoplites die; fewer come back if fewer are in
  the Underworld or the shipboard has no room; chests are dumped only to make room and only of
  the colours listed (the step's ``dump``, else the standing choice ``dump``), see actions.py.
- Kylix Hydra 1-2 (analysis 5.1 items 9-10): the Hydra moves up to its die (plus ``hydra_plus``
  cards) orthogonally over water squares only, never anchors, the Styx, the Kylix or land; it
  stops on the first ship it enters, which is attacked (``challenges.hydra_attack``); it never
  enters the square of the mover's own ship (an attack is on "another player").
- Kylix Move 1-2, Ship 1-7: the ship moves up to the Move die (plus ``move_plus`` cards and
  ``swift_sails``) by sailing.py's rules; the move may end in ONE challenge, foundation,
  delivery or card sacrifice (Round 6.5), by its last square or by ``then``/``target``.
- What the dice of this turn decide is checked at submit (problems); what waits on later dice
  (a Hydra attack's or a challenge's throws, the cards drawn this turn, Action 3) is a note,
  and checked again when the step runs: a Hydra or ship path that has become illegal is
  skipped as a whole (a public event says why), never cut short, and the steps after it still
  run; a ship move whose ending (``then``) has become impossible is sailed and the ending
  skipped (sailing.finish_move says why); a move that ends early (Ship 7: a challenge, the
  Styx, a Pursuit completed on the way) is sailed by sailing.move_ship up to there.
- The squares a piece passes and the "cards" drawn this turn are not looked up in the sealed
  deck at submit: a card that is not in the hand yet is a note, never a hint of what the deck
  holds.
- End 1: the Pursuit checks run after every step (Pursuit 2) and the turn stops the moment a
  player reaches the target.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.dice import DEUKALION_DIE, Rng, Stream
from pbem.core.errors import Problem, excerpt
from pbem.games.deukalion import actions, challenges, pursuits, sailing, scoring
from pbem.games.deukalion.components import CARD_DIE, KYLIX_SYMBOLS, Components
from pbem.games.deukalion.outcome import merge, pair

State = dict[str, Any]
Event = dict[str, Any]
Private = dict[str, list[Event]]
Plan = dict[str, Any]

#: The outer slots of the cup in the order drawn and stored (``state["kylix"]["slots"]``).
SLOTS = ("n", "e", "s", "w")
ACTIONS = ("card", "reclaim", "play", "hydra", "ship")
THEN = ("challenge_city", "found", "cards")
KEYS: dict[str, frozenset[str]] = {
    "card": frozenset({"action"}),
    "reclaim": frozenset({"action", "count", "dump"}),
    "play": frozenset({"action", "card", "count", "dump"}),
    "hydra": frozenset({"action", "path"}),
    "ship": frozenset({"action", "path", "then", "target", "give"}),
}
WHO = {"others": "every other player draws an Action card", "nobody": "nobody draws",
       "self": "you draw an Action card"}


# --- the cup ----------------------------------------------------------------------------------

def roll(state: State, stream: Stream, turn: int) -> list[Event]:
    """Round 1, Kylix 1-2: the active player shakes the five dice (public draws labelled
    ``tNN/kylix/centre``, ``tNN/kylix/n``, ``/e``, ``/s``, ``/w``), stored in
    ``state["kylix"]``."""
    centre = stream.faces(DEUKALION_DIE, f"t{turn:02d}/kylix/centre")
    slots = [stream.faces(DEUKALION_DIE, f"t{turn:02d}/kylix/{s}") for s in SLOTS]
    state["kylix"] = {"centre": centre, "slots": slots}
    turns = "; ".join(f"{r}: " + ", ".join(f"{k} {v}" for k, v in
                                           assignment(state["kylix"], r).items())
                      for r in range(4))
    return [{"type": "kylix", "turn": turn, "player": state["active"], "centre": centre,
             "slots": slots, "text": f"Turn {turn}: {state['active']} shakes the Kylix "
             f"(Round 1, Kylix 1-2): centre {centre}; outer dice N {slots[0]}, E {slots[1]}, "
             f"S {slots[2]}, W {slots[3]}. The others may sail up to {centre} "
             f"square{'s' if centre != 1 else ''} (Round 2). The cup's four turns (Kylix 5): "
             f"{turns}."}]


def assignment(kylix: Mapping[str, Any], rotation: int) -> dict[str, int]:
    """The number on each symbol when the cup is turned by ``rotation`` (0-3): slot
    ``(i + rotation) % 4`` faces symbol ``i`` of ``KYLIX_SYMBOLS`` (analysis 5.1 item 2)."""
    slots = kylix["slots"]
    return {sym: int(slots[(i + rotation) % 4]) for i, sym in enumerate(KYLIX_SYMBOLS)}


def describe(dice: Mapping[str, int]) -> str:
    return ", ".join(f"{k.capitalize()} {v}" for k, v in dice.items())


# --- the Hydra's path (Kylix Hydra 1-2) ---------------------------------------------------------

def hydra_reason(c: Components, state: Mapping[str, Any], player: str, path: Sequence[str],
                 limit: int) -> str:
    """Why the Hydra may not take ``path`` now ("" if it may; see the module's rulings)."""
    board = c.board
    if len(path) > limit:
        return (f"{len(path)} squares: the Hydra moves up to {limit} this turn "
                "(Kylix Hydra 1)")
    at = str(state["hydra"])
    for i, sq in enumerate(path):
        if sq not in board.squares:
            return f"{sq!r} is not a square of the board"
        if sq not in board.neighbours(at):
            hint = " (list the squares entered, not the Hydra's own)" if sq == at else ""
            return f"{sq} is not next to {at} (Map 13: no diagonal moves){hint}"
        kind = board.squares[sq].kind
        if not board.hydra_water(sq):
            name = board.squares[sq].name
            what = {"anchor": "an Athens anchor", "styx": "the River Styx",
                    "kylix": "the Kylix's square"}.get(kind, f"land ({name})" if name
                                                       else "land")
            return f"{sq} is {what}: the Hydra moves on water only (Kylix Hydra 2)"
        there = [p for p in state["seats"] if state["ships"].get(p) == sq]
        if player in there:
            return (f"{sq} holds your own ship: the Hydra challenges only another player's "
                    "ship (Hydra Attack 1, analysis 5.1 item 10)")
        if there and i < len(path) - 1:
            return (f"{sq} holds {there[0]}'s ship: the Hydra stops on the first ship it "
                    "enters (Hydra Attack 1, analysis 5.1 item 9)")
        at = sq
    return ""


def hydra_victim(state: Mapping[str, Any], player: str, square: str) -> str:
    """The other player whose ship is on ``square`` ("" if none)."""
    for p in state["seats"]:
        if p != player and state["ships"].get(p) == square:
            return str(p)
    return ""


# --- the ship's move ----------------------------------------------------------------------------

def ship_reason(c: Components, state: Mapping[str, Any], player: str, path: Sequence[str],
                limit: int) -> str:
    """Why the ship may not take ``path`` now ("" if it may): Kylix Move 1 and sailing.py's
    rules (Ship 1-7)."""
    if len(path) > limit:
        return (f"{len(path)} squares: your ship moves up to {limit} this turn "
                "(Kylix Move 1)")
    if not path:
        return ""
    return str(sailing.legal_path(c, state, player, list(path), limit))


def ending(c: Components, state: Mapping[str, Any], player: str, path: Sequence[str]) -> str:
    """What the move along ``path`` ends in by itself ("" for nothing), for the reader."""
    if not path:
        return ""
    end = path[-1]
    kind = c.board.squares[end].kind
    if kind == "styx":
        return "the River Styx (Styx 1-4)"
    other = hydra_victim(state, player, end)
    if other and kind == "water":
        return f"the challenge of {other}'s ship (Challenge Ship 1)"
    if end == state["hydra"]:
        return "the challenge of the Hydra (Challenge Hydra 1)"
    if state["board"][player]["chests"] and any(sq in c.board.anchors for sq in path):
        return "the delivery at Athens (Pursuit Deliver 4)"
    return ""


def why_not_then(c: Components, state: State, player: str, then: str, target: str) -> str:
    """Why ``then`` on ``target`` is impossible from the ship's square now ("" if possible)."""
    if then == "challenge_city":
        why = challenges.why_not_place(c, state, player, target)
        if not why and target in c.board.cities and not state["chests"].get(target):
            why = f"{c.place_name(target)} has no treasure chest to take (Challenge City 2)"
        return why
    if then == "found":
        return challenges.why_not_found(c, state, player, target)
    if target not in c.board.cities and target not in c.board.settlements:
        return f"{target!r} is not a city or settlement"
    if not pursuits.at_place(c, state, player, target):
        return (f"your ship would not be on a water or anchor square next to "
                f"{c.place_name(target)} (Pursuit Cards 3)")
    if pursuits.cards_target(c, state, player, target) is None:
        return (f"no displayed or personal Pursuit card of yours asks for Action cards at "
                f"{c.place_name(target)}, or you lack the cards (Pursuit Cards 1)")
    return ""


# --- checking the orders ------------------------------------------------------------------------

def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class _Check:
    """Walks the steps over a copy of the state, applying what the dice already shown decide;
    after an event that waits on new dice (``unsure``) the later checks become notes."""

    def __init__(self, c: Components, state: State, player: str, dice: dict[str, int]) -> None:
        self.c, self.player, self.dice = c, player, dice
        self.sim: State = copy.deepcopy(state)
        self.problems: list[Problem] = []
        self.notes: list[str] = []
        self.unsure = ""  # the event whose dice the rest of the turn waits on
        self.unknown = 0  # cards that may come into the hand this turn (draws, a steal)
        self.done: set[str] = set()

    def bad(self, where: str, message: str, hint: str = "") -> None:
        self.problems.append(Problem(where, message, hint))

    def step(self, i: int, raw: Any) -> dict[str, Any] | None:
        where = f"[[orders.step]] {i}"
        if not isinstance(raw, Mapping):
            self.bad(where, "must be a table", "[[orders.step]] then action = \"...\"")
            return None
        action = raw.get("action")
        if action not in ACTIONS:
            self.bad(f"{where} action", f"{excerpt(action)} is not an action",
                     "one of " + ", ".join(f'"{a}"' for a in ACTIONS))
            return None
        extra = [k for k in raw if k not in KEYS[action]]
        for k in extra:
            self.bad(f"{where} {k}", f"a {action} step has no {k!r}",
                     "keys: " + ", ".join(sorted(KEYS[action])))
        if action != "play":
            if action in self.done:
                self.bad(f"{where} action", f"a second {action} step: each action is done "
                         "once, as one block (Round 6, analysis 5.1 item 5)")
                return None
            self.done.add(action)
        if extra:
            return None
        out: dict[str, Any] | None = getattr(self, f"_{action}")(where, raw)
        return out

    # -- each action --

    def _card(self, where: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        who = CARD_DIE[self.dice["cards"]]
        if who == "self":
            self.unknown += 1
        return {"action": "card"}

    def _count(self, where: str, raw: Mapping[str, Any], most: int, why: str) -> int | None:
        count = raw.get("count", most)
        if not _is_int(count) or not 0 <= count <= most:
            self.bad(f"{where} count", f"{excerpt(count)}: {why} gives up to {most}",
                     f"a whole number from 0 to {most}")
            return None
        return int(count)

    def _dump(self, where: str, raw: Mapping[str, Any]) -> list[str] | None:
        if "dump" not in raw:
            return None
        dump = raw["dump"]
        if not isinstance(dump, list) or not all(isinstance(x, str) and x in self.c.colours
                                                 for x in dump):
            self.bad(f"{where} dump", "must be a list of chest colours (Kylix Hoplites 2)",
                     "colours: " + ", ".join(self.c.colours))
            return None
        return list(dump)

    def _take_back(self, where: str, count: int, dump: list[str] | None, why: str) -> None:
        if self.unsure:
            self.notes.append(f"{where}: how many hoplites come back depends on {self.unsure}"
                              " (Kylix Hoplites 1)")
            return
        p = self.player
        before = self.sim["board"][p]["hoplites"]
        dumps = dump if dump is not None else self.sim["policy"][p].get("dump", [])
        events = actions.take_back(self.c, self.sim, p, count, dumps, why)
        if self.sim["board"][p]["hoplites"] - before < count:
            self.notes.append(f"{where}: " + " ".join(e["text"] for e in events))

    def _reclaim(self, where: str, raw: Mapping[str, Any]) -> dict[str, Any] | None:
        die = self.dice["hoplites"]
        count = self._count(where, raw, die, f"the Hoplites die {die} (Kylix Hoplites 1)")
        dump = self._dump(where, raw)
        if count is None or ("dump" in raw and dump is None):
            return None
        self._take_back(where, count, dump, f"the Hoplites die {die}")
        out: dict[str, Any] = {"action": "reclaim", "count": count}
        if dump is not None:
            out["dump"] = dump
        return out

    def _play(self, where: str, raw: Mapping[str, Any]) -> dict[str, Any] | None:
        c, p = self.c, self.player
        card = raw.get("card")
        if not isinstance(card, str) or card not in c.actions:
            self.bad(f"{where} card", f"{excerpt(card)} is not an Action card",
                     "ids: " + ", ".join(c.actions))
            return None
        a = c.actions[card]
        out: dict[str, Any] = {"action": "play", "card": card}
        count = None
        dump = None
        if a.effect == "reclaim":
            count = self._count(where, raw, a.amount, a.name)
            dump = self._dump(where, raw)
            if count is None or ("dump" in raw and dump is None):
                return None
            out["count"] = count
            if dump is not None:
                out["dump"] = dump
        elif "count" in raw or "dump" in raw:
            self.bad(where, f"count and dump are for a card that takes hoplites back, not "
                     f"{a.name}", "leave them out")
            return None
        late = {"move_plus": "ship", "challenge_plus": "ship", "hydra_plus": "hydra"}
        if a.effect in late and late[a.effect] in self.done:
            self.bad(where, f"{a.name} after the {late[a.effect]} step has no effect",
                     f"play it in a step before the {late[a.effect]} step")
            return None
        hand = self.sim["hands"][p]
        if card in hand:
            hand.remove(card)
        elif self.unknown > 0:
            self.unknown -= 1
            self.notes.append(f"{where}: {a.name} ({card}) is not in your hand now: it is "
                              "played only if you receive it earlier this turn (Action 3)")
        else:
            self.bad(f"{where} card", f"{a.name} ({card}) is not in your hand (one copy per "
                     "play)", "your hand: " + (", ".join(self.sim["hands"][p]) or "empty"))
            return None
        if a.permanent:
            self.sim["permanents"][p].append(card)
        if a.effect in actions.TURN_EFFECTS:
            key = actions.TURN_EFFECTS[a.effect]
            self.sim["effects"][key] = int(self.sim["effects"].get(key, 0)) + a.amount
        elif a.effect == "draw":
            self.unknown += a.amount
        elif a.effect == "reclaim" and count is not None:
            self._take_back(where, count, dump, a.name)
        return out

    def _path(self, where: str, raw: Mapping[str, Any]) -> list[str] | None:
        path = raw.get("path", [])
        if not isinstance(path, list) or not all(isinstance(x, str) for x in path):
            self.bad(f"{where} path", "must be a list of square ids", 'e.g. path = ["d3", "c3"]')
            return None
        unknown = [x for x in path if x not in self.c.board.squares]
        if unknown:
            self.bad(f"{where} path", f"{excerpt(unknown[0])} is not a square",
                     "squares a1 to i7 (files a-i, ranks 1-7)")
            return None
        return list(path)

    def _hydra(self, where: str, raw: Mapping[str, Any]) -> dict[str, Any] | None:
        path = self._path(where, raw)
        if path is None:
            return None
        die = self.dice["hydra"]
        limit = actions.hydra_limit(self.sim, die)
        if len(path) > limit:
            self.bad(f"{where} path", f"{len(path)} squares: the Hydra die is {die}"
                     + (f", {limit} with your cards" if limit != die else "")
                     + " (Kylix Hydra 1)", f"at most {limit} squares")
            return None
        if self.unsure:
            self.notes.append(f"{where}: the Hydra's path is checked when it runs, after "
                              f"{self.unsure} (Kylix Hydra 1-2)")
            return {"action": "hydra", "path": path}
        why = hydra_reason(self.c, self.sim, self.player, path, limit)
        if why:
            self.bad(f"{where} path", why)
            return None
        if path:
            self.sim["hydra"] = path[-1]
            victim = hydra_victim(self.sim, self.player, path[-1])
            if victim:
                self.unsure = f"the Hydra's attack on {victim}'s ship (Hydra Attack 1-4)"
        return {"action": "hydra", "path": path}

    def _ship(self, where: str, raw: Mapping[str, Any]) -> dict[str, Any] | None:
        c, p = self.c, self.player
        path = self._path(where, raw)
        if path is None:
            return None
        then, target = raw.get("then", ""), raw.get("target", "")
        if then and then not in THEN:
            self.bad(f"{where} then", f"{excerpt(then)} is not an ending",
                     "one of " + ", ".join(f'"{t}"' for t in THEN))
            return None
        if then and not (isinstance(target, str) and target):
            self.bad(f"{where} target", f"then = \"{then}\" needs a target",
                     "a city or settlement id")
            return None
        if target and not then:
            self.bad(f"{where} target", "a target needs a then", "then = \"challenge_city\", "
                     "\"found\" or \"cards\"")
            return None
        give = raw.get("give", [])
        if "give" in raw and then != "cards":
            self.bad(f"{where} give", "give names the Action cards sacrificed by then = "
                     "\"cards\" (Pursuit Cards 3)", "leave it out")
            return None
        if not isinstance(give, list) or not all(isinstance(x, str) and x in c.actions
                                                 for x in give):
            self.bad(f"{where} give", "must be a list of Action card ids",
                     "ids: " + ", ".join(c.actions))
            return None
        die = self.dice["move"]
        limit = actions.move_limit(c, self.sim, p, die)
        if len(path) > limit:
            self.bad(f"{where} path", f"{len(path)} squares: the Move die is {die}"
                     + (f", {limit} with your cards" if limit != die else "")
                     + " (Kylix Move 1)", f"at most {limit} squares")
            return None
        out: dict[str, Any] = {"action": "ship", "path": path}
        if then:
            out.update(then=then, target=target)
        if give:
            out["give"] = list(give)
        if self.unsure:
            self.notes.append(f"{where}: the ship's path is checked when it runs, after "
                              f"{self.unsure} (Ship 1-7)")
            return out
        why = ship_reason(c, self.sim, p, path, limit)
        if why:
            self.bad(f"{where} path", why)
            return None
        ends = ending(c, self.sim, p, path)
        if path:
            self.sim["ships"][p] = path[-1]
        if then:
            if ends and "delivery" not in ends:
                self.bad(f"{where} then", f"the move already ends in {ends}: no {then} after "
                         "it (Round 6.5, Ship 5-7)", "leave then and target out")
                return None
            why = why_not_then(c, self.sim, p, then, target)
            if why:
                self.bad(f"{where} target", why)
                return None
            hand = list(self.sim["hands"][p])
            for card in give:
                if card not in hand:
                    self.bad(f"{where} give", f"{card} is not in your hand (one copy each)",
                             "your hand: " + (", ".join(self.sim["hands"][p]) or "empty"))
                    return None
                hand.remove(card)
        if ends or then:
            self.unsure = ends or {"challenge_city": "the challenge of "
                                   f"{c.place_name(target)} (Challenge City 1-3)",
                                   "found": f"the founding of {c.place_name(target)}",
                                   "cards": "the Pursuit card completed"}[then]
            if "ship" in ends:
                self.unknown += 1  # a won ship challenge may steal a card (Challenge Ship 3)
        return out


def default_plan() -> Plan:
    """The NMR default: the cup as it fell, the Card die's draw, then the reclaim."""
    return {"rotation": 0, "steps": [{"action": "card"}, {"action": "reclaim"}]}


def plan_kylix(c: Components, state: State, player: str, raw: Mapping[str, Any]
               ) -> tuple[Plan, list[Problem], list[str]]:
    """Check the active player's kylix orders (``rotation`` and ``[[orders.step]]``; the
    other keys are turn.py's). Returns the plan run by :func:`run_kylix` (the default plan
    when there are problems), the problems, and notes on what waits on dice."""
    problems: list[Problem] = []
    rotation = raw.get("rotation", 0)
    if not _is_int(rotation) or not 0 <= rotation <= 3:
        problems.append(Problem("[orders] rotation", f"{excerpt(rotation)} is not a turn of "
                                "the cup", "0, 1, 2 or 3: rotation r puts the outer die of "
                                "slot (i + r) % 4 (N, E, S, W) on symbol i (hoplites, move, "
                                "cards, hydra) (Kylix 5)"))
        rotation = 0
    dice = assignment(state["kylix"], int(rotation))
    check = _Check(c, state, player, dice)
    if "step" in raw:
        raw_steps = raw["step"]
        if not isinstance(raw_steps, list):
            problems.append(Problem("[[orders.step]]", "must be a list of tables",
                                    "write each step as [[orders.step]]"))
            raw_steps = []
    else:
        raw_steps = [{"action": "card"}, {"action": "reclaim"}]
    steps = []
    for i, x in enumerate(raw_steps, 1):
        step = check.step(i, x)
        if step is not None:
            steps.append(step)
    if not any(s["action"] == "card" for s in steps):
        steps.insert(0, {"action": "card"})
    problems += check.problems
    notes = [f"the cup turned by {rotation}: {describe(dice)}; the Card die "
             f"{dice['cards']}: {WHO[CARD_DIE[dice['cards']]]} (Kylix Card 1)", *check.notes]
    if problems:
        return default_plan(), problems, notes
    return {"rotation": int(rotation), "steps": steps}, problems, notes


# --- carrying them out --------------------------------------------------------------------------



def _skipped(player: str, what: str, why: str) -> Event:
    return {"type": "step-skipped", "player": player, "step": what,
            "text": f"{player}'s {what} is skipped: {why}."}


def _run_hydra(c: Components, state: State, player: str, step: Mapping[str, Any],
               dice: Mapping[str, int], stream: Stream, label: str) -> list[Event]:
    path = list(step.get("path", []))
    if not path:
        return []
    limit = actions.hydra_limit(state, dice["hydra"])
    why = hydra_reason(c, state, player, path, limit)
    if why:
        return [_skipped(player, "Hydra move", why)]
    start = state["hydra"]
    state["hydra"] = path[-1]
    events: list[Event] = [{"type": "hydra-move", "player": player, "from": start,
                            "path": path, "to": path[-1], "text": f"{player} moves the Hydra "
                            f"from {start} to {path[-1]} (" + " ".join(path) + "; Kylix Hydra "
                            f"1, up to {limit})."}]
    victim = hydra_victim(state, player, path[-1])
    if victim:
        events += pair(challenges.hydra_attack(c, state, player, victim, stream, label))[0]
    return events


def _run_ship(c: Components, state: State, player: str, step: Mapping[str, Any],
              dice: Mapping[str, int], rng: Rng, label: str) -> tuple[list[Event], Private]:
    path = list(step.get("path", []))
    then, target = str(step.get("then", "")), str(step.get("target", ""))
    limit = actions.move_limit(c, state, player, dice["move"])
    why = ship_reason(c, state, player, path, limit)
    if why:
        return [_skipped(player, "ship move", why)], {}
    return pair(sailing.move_ship(c, state, player, path, rng, label, then=then,
                                   target=target, give=list(step.get("give", []))))


def run_kylix(c: Components, state: State, player: str, plan: Mapping[str, Any], rng: Rng
              ) -> tuple[list[Event], Private]:
    """Round 5-7: the cup turned as the plan says, then its steps in order (see the module's
    rulings); Pursuit checks after each step, and a stop the moment the game is won (End 1)."""
    t = int(state["turn"])
    base = f"t{t:02d}/kylix"
    rotation = int(plan.get("rotation", 0))
    dice = assignment(state["kylix"], rotation)
    events: list[Event] = [{"type": "kylix-turn", "player": player, "rotation": rotation,
                            "dice": dict(dice), "text": f"{player} turns the Kylix by "
                            f"{rotation}: {describe(dice)} (Round 5, Kylix 5)."}]
    private: Private = {}
    order = [player, *actions.others_from_left(state, player)]
    for i, step in enumerate(plan.get("steps", []), 1):
        action = step["action"]
        secret: Private = {}
        if action == "card":
            more, secret = actions.card_die(c, state, player, dice["cards"], rng.sealed,
                                            f"{base}/card")
        elif action == "reclaim":
            die = dice["hoplites"]
            dump = step.get("dump", state["policy"][player].get("dump", []))
            more = actions.take_back(c, state, player, min(int(step.get("count", die)), die),
                                     dump, f"the Hoplites die {die}, Kylix Hoplites 1")
        elif action == "play":
            more, secret = actions.play(c, state, player, step, rng.sealed, f"{base}/play/{i}")
        elif action == "hydra":
            more = _run_hydra(c, state, player, step, dice, rng.public, f"{base}/hydra")
        else:
            more, secret = _run_ship(c, state, player, step, dice, rng, f"{base}/ship")
        events += more
        merge(private, secret)
        more, secret = pair(pursuits.check_pursuits(c, state, order, rng.sealed,
                                                     f"{base}/{i}/pursuit"))
        events += more
        merge(private, secret)
        events += scoring.reached(c, state, order)
        if state["step"] == "over":
            break
    return events, private

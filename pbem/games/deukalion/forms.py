"""Deukalion's order forms for one player, now, from the player's view alone (issue 17).

The static forms ``orders/deukalion/{join,sail,kylix}.toml`` keep their prose, their active
lines and their keys (``pbem check`` reads them; ``pbem form`` without a campaign prints them).
With a view, :func:`form` heads the sail and kylix forms with the player's situation
(:func:`situation`: the turn, the active player, the Kylix roll, his ship, shipboard,
Underworld, hand, Pursuits, the cities, settlements, other ships, the Hydra and the Honour
points), and rewrites each commented example paragraph (one plan, or one or two steps) with
the player's own squares, places, cards and players. Every example is checked with the rules'
own :func:`turn.review` on a stand-in state made from the view (:func:`bot.state_from_view`);
one that cannot be legal now is left out with a comment that says why
(``# No deliver example now: ...``). The active lines stay the static form's, so a form sent
back unchanged means the NMR default (the sail form: no orders, the ship stays; the kylix
form: ``rotation = 0``, the Card die's draw, then the reclaim).

Rulings of the forms (the rules are the modules'):

- Sail examples (Round 2-3): a plan per goal is shown only if :func:`sailing.goal_path`
  reaches it now within the centre die (plus ``sea_legs``), as the rules would if the player
  sailed first; the players who sail before him may still change that (the form says so).
- Kylix examples (Round 5-7): each is legal under the form's active line ``rotation = 0``,
  except the Hydra attack and the ship move ending in a challenge/foundation/delivery, which
  try the other turns of the cup when rotation 0 cannot reach one: such an example starts
  with ``# Needs rotation = N (...)`` and is legal with the rotation line set to N.
- The choices example is the player's own standing choices (sealed, from his view).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.core.ruleset import PhaseSpec
from pbem.games.deukalion import actions, bot, kylix, pursuits, sailing, scoring, turn
from pbem.games.deukalion import choices as choices_mod
from pbem.games.deukalion.components import CARD_DIE, Components

View = Mapping[str, Any]
State = dict[str, Any]
#: An example: its tables, in order, as (table name, values), or why there is none now.
Example = list[tuple[str, dict[str, Any]]] | str
WIDTH = 78
#: The column of a key's own comment (as in the static forms).
DOC_COLUMN = 29

_HEADER = re.compile(r"# \[\[?orders\.([a-z_]+)\]\]?")
_KEY = re.compile(r"# ([a-z_]+) = (.*?)(\s+# .*)?")
_DOC = re.compile(r"#\s{2,}# .*")
_ACTIVE = re.compile(r"rotation = \d+")
#: The kylix form's example paragraphs, told by the start of their first prose line.
KYLIX_TITLES = (("# The Card die", "card"), ("# Hoplites back", "reclaim"),
                ("# An Action card", "play"), ("# The Hydra moves", "hydra"),
                ("# The Hydra attacks", "attack"), ("# Your ship moves", "ship"),
                ("# Your ship's move ends", "ending"), ("# Your standing", "choices"))
#: What the Card die's draw means (Kylix Card 1), short.
CARD_SHORT = {"others": "the others draw", "nobody": "nobody draws", "self": "you draw"}
NEEDS = "Needs rotation = {r} ({dice}): set the rotation line above to {r}."
NEEDS_RE = re.compile(r"# Needs rotation = (\d)")


def form(c: Components, text: str, view: Mapping[str, Any], phase: PhaseSpec,
         player: str) -> str:
    """The form ``text`` (``orders/deukalion/<kind>.toml``) for ``player`` now."""
    if phase.kind not in ("sail", "kylix") or not text or not view or view.get("game_over") \
            or player not in view.get("seats", ()):
        return text
    state = bot.state_from_view(view, player)
    if phase.kind == "sail":
        examples = SailExamples(c, state, player).all()
        kind_of: Callable[[list[str]], str] = _goal_kind
    else:
        examples = KylixExamples(c, state, player).all()
        kind_of = _title_kind
        text = _rotation_note(state, text)
    examples["choices"] = [("choices", dict(view.get("my_choices") or choices_mod.DEFAULT))]
    body = rewrite(text, examples, kind_of)
    head = [part for line in situation(c, view, phase, player) for part in _comment(line)]
    return "\n".join(head) + "\n\n" + body


# --- writing the examples ----------------------------------------------------------------------

def toml(value: Any) -> str:
    """A value as the form writes it (strings, numbers, lists of them, flat tables)."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


def _goal_kind(lines: list[str]) -> str:
    for line in lines:
        m = _KEY.fullmatch(line)
        if m and m.group(1) == "goal":
            return str(json.loads(m.group(2)))
    return "choices" if any(x == "# [orders.choices]" for x in lines) else ""


def _title_kind(lines: list[str]) -> str:
    for start, kind in KYLIX_TITLES:
        if lines and lines[0].startswith(start):
            return kind
    return ""


def rewrite(text: str, examples: Mapping[str, Example],
            kind_of: Callable[[list[str]], str]) -> str:
    """``text`` with each example paragraph named in ``examples`` (by ``kind_of``) rewritten:
    its prose kept, its example lines replaced by the example's, or by why there is none."""
    out = []
    end = text[len(text.rstrip("\n")):]
    for para in text.rstrip("\n").split("\n\n"):
        lines = para.split("\n")
        kind = kind_of(lines) if any(_HEADER.fullmatch(x) for x in lines) else ""
        if kind not in examples:
            out.append(para)
            continue
        docs = _docs(lines)
        prose = [x for x in lines if not (_HEADER.fullmatch(x) or _KEY.fullmatch(x)
                                          or _DOC.fullmatch(x))]
        example = examples[kind]
        if isinstance(example, str):
            out.append("\n".join(prose + _note(f"No {kind} example now: {example}.")))
            continue
        out.append("\n".join(prose + render(example, docs)))
    return "\n\n".join(out) + end


def _docs(lines: Sequence[str]) -> dict[str, str]:
    """The static paragraph's comment of each key (its continuation lines joined)."""
    docs: dict[str, str] = {}
    last = ""
    for line in lines:
        key = _KEY.fullmatch(line)
        if key is not None:
            last = key.group(1)
            if key.group(3):
                docs[last] = key.group(3).strip()[2:]
            continue
        if _DOC.fullmatch(line) and last:
            docs[last] = (docs.get(last, "") + " " + line.strip()[1:].strip()[2:]).strip()
    return docs


def render(example: Sequence[tuple[str, Mapping[str, Any]]], docs: Mapping[str, str]
           ) -> list[str]:
    """The example's tables as commented lines: ``# [[orders.step]]`` (``[orders.choices]``
    for the choices), then ``# key = value`` with a comment (``#doc`` keys of the values: a
    comment of this example; else the static form's) in :data:`DOC_COLUMN`."""
    out: list[str] = []
    for name, values in example:
        if name == "#needs":
            out += _note(NEEDS.format(r=values["rotation"], dice=values["dice"]))
            continue
        out.append("# [orders.choices]" if name == "choices" else f"# [[orders.{name}]]")
        for key, value in values.items():
            if key.startswith("#"):
                continue
            doc = str(values.get(f"#{key}", docs.get(key, "")))
            out += _assign(key, value, doc)
    return out


def _assign(key: str, value: Any, doc: str) -> list[str]:
    text = f"# {key} = {toml(value)}"
    if not doc:
        return [text]
    if len(text) + 2 > DOC_COLUMN and len(text) + 4 + len(doc) <= WIDTH:
        return [f"{text}  # {doc}"]  # a long key and a short comment: on one line
    words = wrap(doc, WIDTH - DOC_COLUMN - 2) or [""]
    if len(text) + 2 <= DOC_COLUMN:
        first = [text.ljust(DOC_COLUMN) + "# " + words[0]]
    else:
        first = [text, "#".ljust(DOC_COLUMN) + "# " + words[0]]
    return first + ["#".ljust(DOC_COLUMN) + "# " + w for w in words[1:]]


def wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken at spaces only, the first
    line led by ``first``, the others by ``rest`` (a word longer than a line stands alone):
    ``textwrap.wrap`` without its cost, for the hundreds of lines of a form."""
    lines: list[str] = []
    line = first
    empty = True
    for word in text.split():
        if not empty and len(line) + 1 + len(word) > width:
            lines.append(line)
            line, empty = rest, True
        line += word if empty else " " + word
        empty = False
    if not empty:
        lines.append(line)
    return lines


def _note(text: str) -> list[str]:
    return wrap(text, WIDTH, "# ", "#   ")


def _comment(line: str) -> list[str]:
    """A situation line as form comments within :data:`WIDTH` columns (a line that starts
    with spaces keeps them, and its continuation lines go further in)."""
    indent = line[:len(line) - len(line.lstrip(" "))]
    return wrap(line.lstrip(" "), WIDTH, "# " + indent, "#     " + indent)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def dice_text(dice: Mapping[str, int]) -> str:
    """``Hoplites 2, Move 3, Cards 1 (the others draw), Hydra 2``."""
    return (f"Hoplites {dice['hoplites']}, Move {dice['move']}, Cards {dice['cards']} "
            f"({CARD_SHORT[CARD_DIE[dice['cards']]]}), Hydra {dice['hydra']}")


def _rotation_note(state: State, text: str) -> str:
    """The kylix form with each turn of the cup noted above its active rotation line."""
    turns = [f"#   {r}: {dice_text(kylix.assignment(state['kylix'], r))}" for r in range(4)]
    note = ["# The cup's four turns (Kylix 5): rotation, then the dice it gives:", *turns]
    m = _ACTIVE.search(text)
    if m is None:
        return text
    return text[:m.start()] + "\n".join(note) + "\n" + text[m.start():]


# --- the examples ----------------------------------------------------------------------------

BIG = 99
_DISTANCES: dict[tuple[int, str], dict[str, int]] = {}
_APPROACHES: dict[tuple[int, str], tuple[str, ...]] = {}


def distances(c: Components, square: str) -> dict[str, int]:
    """``Board.distances`` from ``square``, kept (the board never changes)."""
    key = (id(c.board), square)
    if key not in _DISTANCES:
        _DISTANCES[key] = c.board.distances(square)
    return _DISTANCES[key]


def approaches(c: Components, place: str) -> tuple[str, ...]:
    """``Board.approaches`` of ``place``, kept."""
    key = (id(c.board), place)
    if key not in _APPROACHES:
        _APPROACHES[key] = c.board.approaches(place)
    return _APPROACHES[key]


class _Examples:
    def __init__(self, c: Components, state: State, player: str) -> None:
        self.c, self.s, self.player = c, state, player
        self.b = c.board
        self.ship = state["ships"][player]
        self.dist = distances(c, self.ship)

    def legal(self, kind: str, orders: Mapping[str, Any]) -> bool:
        return not turn.review(self.c, self.s, kind, self.player, orders)[0]

    def others(self) -> list[str]:
        return [p for p in self.s["seats"] if p != self.player]

    def bound(self, plan: Mapping[str, Any]) -> int:
        """The fewest squares the plan's goal could take over an empty sea (a lower bound
        of :func:`sailing.goal_path`'s, to leave out the far targets at once)."""
        target = plan.get("target", "")
        if plan["goal"] in ("found", "challenge_city", "cards"):
            return min((self.dist.get(a, BIG) for a in approaches(self.c, target)),
                       default=BIG)
        if plan["goal"] == "challenge_ship":
            return self.dist.get(self.s["ships"][target], BIG)
        return 0


class SailExamples(_Examples):
    """A plan per goal that :func:`sailing.goal_path` reaches now within the centre die."""

    def __init__(self, c: Components, state: State, player: str) -> None:
        super().__init__(c, state, player)
        self.steps = int(state["kylix"]["centre"]) + sailing.sail_bonus(c, state, player)

    def all(self) -> dict[str, Example]:
        b, s = self.b, self.s
        free = [x for x in sorted(b.settlements) if not s["settlements"][x]["owner"]]
        places = [x for x in sorted(b.cities) if s["chests"].get(x)] + [
            x for x in sorted(b.settlements)
            if s["settlements"][x]["owner"] not in ("", self.player)]
        tasks = sorted({t.place for card in pursuits.candidates(s, self.player)
                        for t in self.c.pursuits[card].tasks if t.kind == "sail_cards"})
        return {
            "deliver": self.one("deliver", [""]),
            "styx": self.one("styx", [""]),
            "found": self.one("found", free, "every settlement has its owner (Found 1)"),
            "challenge_city": self.one("challenge_city", places, "no city holds a chest and "
                                       "no settlement of another player's is on the board"),
            "challenge_ship": self.one("challenge_ship", self.others()),
            "challenge_hydra": self.one("challenge_hydra", [""]),
            "cards": self.one("cards", tasks, "no Pursuit card on display or of your own "
                              "asks for Action cards (Pursuit Cards 1)"),
            "reach": self.reach(),
            "retrieve2": self.one("retrieve2", [""]),
        }

    def one(self, goal: str, targets: Sequence[str], none: str = "") -> Example:
        """The first target whose plan reaches its goal now (the nearest first), or why the
        first cannot."""
        found: list[tuple[int, str, dict[str, Any]]] = []
        for target in targets:
            plan: dict[str, Any] = {"goal": goal}
            if target:
                plan["target"] = target
            if self.bound(plan) > self.steps:
                continue  # not even over an empty sea
            path, _ = sailing.goal_path(self.c, self.s, self.player, plan, self.steps)
            if path is not None and self.legal("sail", {"plan": [plan]}):
                found.append((len(path), target, plan))
        if found:
            length, _, plan = min(found, key=lambda x: (x[0], x[1]))
            plan = dict(plan)
            plan["#goal"] = self.doc(plan, length)
            if "target" in plan:
                plan["#target"] = target_doc(self.c, self.s, goal, plan["target"])
            return [("plan", plan)]
        if not targets:
            return none or "none is possible now"
        first = {"goal": goal, **({"target": targets[0]} if targets[0] else {})}
        why = sailing.goal_path(self.c, self.s, self.player, first, self.steps)[1]
        return yours(why, self.player) if why else "none is possible now"

    def doc(self, plan: Mapping[str, Any], length: int) -> str:
        goal = str(plan["goal"])
        if goal == "retrieve2":
            return "no move: 2 hoplites back (Round 2)"
        moves = f"{_plural(length, 'square')} now" if length else "no move needed now"
        what: dict[str, str] = {"deliver": "reach an Athens anchor", "styx": "reach the Styx",
                "found": "found it from next to it", "challenge_city": "challenge it from "
                "next to it", "challenge_ship": "enter its square", "challenge_hydra":
                "enter its square", "cards": "give the cards next to it", "reach":
                "sail there"}
        return what.get(goal, goal) + f": {moves}"

    def reach(self) -> Example:
        ends = sailing.reach(self.c, self.s, self.player, self.steps)
        options = sorted(((-len(p), sq) for sq, p in ends.items() if p), key=lambda x: x)
        for _, sq in options:
            plan = {"goal": "reach", "target": sq}
            path, _ = sailing.goal_path(self.c, self.s, self.player, plan, self.steps)
            if path and kylix.ending(self.c, self.s, self.player, path) == "" and \
                    self.legal("sail", {"plan": [plan]}):
                return [("plan", {**plan, "#goal": self.doc(plan, len(path)),
                                  "#target": target_doc(self.c, self.s, "reach", sq)})]
        return f"your ship cannot move from {self.ship} now (Ship 1-6)"


class KylixExamples(_Examples):
    """The active player's steps, each legal with the form's ``rotation = 0`` (or with the
    rotation its ``# Needs rotation`` line names)."""

    def __init__(self, c: Components, state: State, player: str) -> None:
        super().__init__(c, state, player)
        self.dice = {r: kylix.assignment(state["kylix"], r) for r in range(4)}

    def all(self) -> dict[str, Example]:
        return {"card": self.card(), "reclaim": self.reclaim(), "play": self.play(),
                "hydra": self.hydra(), "attack": self.attack(), "ship": self.move(),
                "ending": self.ending()}

    def ok(self, steps: list[dict[str, Any]], rotation: int = 0) -> bool:
        clean = [{k: v for k, v in x.items() if not k.startswith("#")} for x in steps]
        return self.legal("kylix", {"rotation": rotation, "step": clean})

    def card(self) -> Example:
        die = self.dice[0]["cards"]
        step = {"action": "card", "#action": f"the Card die {die} with rotation 0: "
                + kylix.WHO[CARD_DIE[die]]}
        return [("step", step)] if self.ok([step]) else "none is legal now"

    def reclaim(self) -> Example:
        p, s = self.player, self.s
        die = self.dice[0]["hoplites"]
        below = int(s["underworld"][p])
        if not below:
            return "none of your hoplites is in the Underworld (Kylix Hoplites 1)"
        count = min(die, below)
        step: dict[str, Any] = {"action": "reclaim", "count": count,
                                "#count": f"up to the Hoplites die {die} with rotation 0; "
                                f"{below} below"}
        room = actions.room(self.c, s, p)
        chests = list(s["board"][p]["chests"])
        if room < count and chests:
            step["dump"] = list(dict.fromkeys(chests))
            step["#dump"] = f"{_plural(room, 'free space')} on your shipboard: chests of " \
                "these colours make room"
        return [("step", step)] if self.ok([step]) else "none is legal now"

    def play(self) -> Example:
        hand = list(dict.fromkeys(self.s["hands"][self.player]))
        if not hand:
            return "your hand is empty (Action 1)"
        for card in hand:
            a = self.c.actions[card]
            step = {"action": "play", "card": card, "#card": f"{a.name}: {a.text}"}
            if self.ok([step]):
                return [("step", step)]
        return "no card of your hand can be played now"

    def _hydra_paths(self, limit: int, victims: bool) -> list[list[str]]:
        """The Hydra's paths of up to ``limit`` squares over free water (breadth first, in
        square order); ``victims``: only those ending on another player's ship."""
        b, s = self.b, self.s
        ships = {sq: q for q, sq in s["ships"].items()}
        start = s["hydra"]
        paths: dict[str, list[str]] = {start: []}
        frontier = [start]
        for _ in range(limit):
            nxt = []
            for sq in frontier:
                for n in b.neighbours(sq):
                    if n in paths or not b.hydra_water(n) or ships.get(n) == self.player:
                        continue
                    paths[n] = [*paths[sq], n]
                    if n not in ships:
                        nxt.append(n)
            frontier = nxt
        out = [p for sq, p in paths.items() if p and (sq in ships) == victims]
        return sorted(out, key=lambda p: (-len(p), p) if not victims else (len(p), p))

    def hydra(self) -> Example:
        die = self.dice[0]["hydra"]
        limit = actions.hydra_limit(self.s, die)
        for path in self._hydra_paths(limit, False)[:8]:
            step = {"action": "hydra", "path": path,
                    "#path": f"{_plural(len(path), 'square')}: the Hydra die {die} with "
                    "rotation 0"}
            if self.ok([step]):
                return [("step", step)]
        return f"the Hydra on {self.s['hydra']} has no free water square to enter"

    def attack(self) -> Example:
        for r in self._rotations("hydra"):
            die = self.dice[r]["hydra"]
            for path in self._hydra_paths(actions.hydra_limit(self.s, die), True)[:8]:
                victim = kylix.hydra_victim(self.s, self.player, path[-1])
                step = {"action": "hydra", "path": path, "#path": f"onto {victim}'s ship: the "
                        f"Hydra die {die} with rotation {r}"}
                if self.ok([step], r):
                    return self._needs(r, [("step", step)])
        return "no other player's ship on water is within the Hydra's reach with any turn " \
            "of the cup (Kylix Hydra 1-2, Hydra Attack 1)"

    def move(self) -> Example:
        die = self.dice[0]["move"]
        limit = actions.move_limit(self.c, self.s, self.player, die)
        ends = sailing.reach(self.c, self.s, self.player, limit)
        for _, sq in sorted((-len(p), sq) for sq, p in ends.items() if p):
            path = ends[sq]
            if kylix.ending(self.c, self.s, self.player, path):
                continue
            step = {"action": "ship", "path": path,
                    "#path": f"{_plural(len(path), 'square')}: the Move die {die} with "
                    "rotation 0" + (f", {limit} with your cards" if limit != die else "")}
            if self.ok([step]):
                return [("step", step)]
        return f"your ship cannot move from {self.ship} now (Ship 1-6)"

    def _rotations(self, symbol: str) -> list[int]:
        """Rotation 0 first, then each other turn that gives ``symbol`` a larger die."""
        out = [0]
        for r in sorted(range(1, 4), key=lambda r: (-self.dice[r][symbol], r)):
            if self.dice[r][symbol] > max(self.dice[x][symbol] for x in out):
                out.append(r)
        return out

    def _needs(self, r: int, example: Example) -> Example:
        if r and not isinstance(example, str):
            return [("#needs", {"rotation": r, "dice": dice_text(self.dice[r])}), *example]
        return example

    def ending(self) -> Example:
        s, p, b = self.s, self.player, self.b
        goals: list[dict[str, Any]] = []
        if s["board"][p]["chests"]:
            goals.append({"goal": "deliver"})
        goals += [{"goal": "found", "target": x} for x in sorted(b.settlements)
                  if not s["settlements"][x]["owner"]]
        goals += [{"goal": "challenge_city", "target": x} for x in sorted(b.cities)
                  if s["chests"].get(x)]
        goals += [{"goal": "challenge_city", "target": x} for x in sorted(b.settlements)
                  if s["settlements"][x]["owner"] not in ("", p)]
        goals += [{"goal": "challenge_ship", "target": q} for q in self.others()]
        goals.append({"goal": "challenge_hydra"})
        for r in self._rotations("move"):
            die = self.dice[r]["move"]
            limit = actions.move_limit(self.c, s, p, die)
            for goal in goals:
                if self.bound(goal) > limit:
                    continue
                path, _ = sailing.goal_path(self.c, s, p, goal, limit)
                if path is None:
                    continue
                step: dict[str, Any] = {"action": "ship", "path": path}
                if goal["goal"] in ("found", "challenge_city"):
                    step |= {"then": goal["goal"], "target": goal["target"]}
                    step["#target"] = target_doc(self.c, s, goal["goal"], goal["target"])
                elif not path:
                    continue
                ends = kylix.ending(self.c, s, p, path) if path else ""
                if not ends and "then" not in step:
                    continue
                step["#path"] = f"{_plural(len(path), 'square')}: the Move die {die} with " \
                    f"rotation {r}" + (f", {limit} with your cards" if limit != die else "") \
                    + (f"; ends in {ends}" if ends else "")
                if self.ok([step], r):
                    return self._needs(r, [("step", step)])
        return "no delivery, foundation or challenge is within your ship's reach with any " \
            "turn of the cup (Kylix Move 1, Round 6.5)"


def yours(text: str, player: str) -> str:
    """A rules message about ``player`` as said to him."""
    for them, you in ((f"{player} carries", "you carry"), (f"{player} has", "you have"),
                      (f"{player} lacks", "you lack"), (f"{player}'s", "your"),
                      (f"of {player} own", "of your own")):
        text = text.replace(them, you)
    return text


def target_doc(c: Components, s: Mapping[str, Any], goal: str, target: str) -> str:
    """What a target is, for the comment by its example."""
    b = c.board
    if goal == "challenge_ship":
        mine = s["board"][target]
        return (f"{target}'s ship on {s['ships'][target]}: {mine['hoplites']} hoplites, "
                f"chests {_chests(mine['chests'])}")
    if goal == "reach":
        return f"{b.squares[target].kind} square"
    name = c.place_name(target)
    if target in b.cities:
        return (f"{name}: value {b.cities[target].value}, chests "
                f"{_chests(s['chests'].get(target, []))}")
    x = b.settlements[target]
    owner = s["settlements"][target]["owner"]
    if goal == "found":
        return f"{name}: {_plural(x.hoplites, 'hoplite')} to leave there (Found 3)"
    return f"{name}: value {x.value}, " + (f"{owner}'s" if owner else "free")


# --- the situation ---------------------------------------------------------------------------

def _chests(chests: Sequence[str]) -> str:
    return ", ".join(chests) or "none"


def situation(c: Components, view: View, phase: PhaseSpec, player: str) -> list[str]:
    """What the player knows that bears on this form, as lines (before wrapping)."""
    b = c.board
    seats = list(view["seats"])
    t, active = view["turn"], view["active"]
    centre = int(view["kylix"]["centre"])
    goal = scoring.target(view)
    lines = [f"Turn {t}: {active} is the active player (Round 1-7); you are {player}, seat "
             f"{seats.index(player) + 1} of {len(seats)} (turn order: {', '.join(seats)}). "
             f"The game ends the moment a player has {goal} Honour points (Object 1, End 1)."]
    slots = view["kylix"]["slots"]
    roll = (f"The Kylix (Round 1): centre die {centre}; outer dice N {slots[0]}, E {slots[1]}, "
            f"S {slots[2]}, W {slots[3]}.")
    if phase.kind == "sail":
        bonus = sailing.sail_bonus(c, view, player)
        sailors = list(view.get("sailors", []))
        before = sailors[:sailors.index(player)] if player in sailors else []
        lines.append(roll + f" You sail up to {_plural(centre + bonus, 'square')} (the "
                     "centre die" + (f" and your Sea Legs +{bonus}" if bonus else "")
                     + ", Round 2); sailing before you, from the active player's left: "
                     + (", ".join(before) or "nobody")
                     + ".")
    else:
        lines.append(roll + " Your turn of the cup (Kylix 5; the Card die: 1 the others "
                     "draw, 2 nobody, 3 you draw, Kylix Card 1):")
        lines += [f"  rotation {r}: " + dice_text(kylix.assignment(view["kylix"], r))
                  for r in range(4)]
    ship = view["ships"][player]
    kind = b.squares[ship].kind
    near = ", ".join(f"{c.place_name(x)} ({x})" for x in b.adjacent_places(ship))
    mine = view["board"][player]
    room = c.shipboard - mine["hoplites"] - len(mine["chests"])
    lines.append(f"Your ship is on {ship} ({kind})" + (f", next to {near}" if near else "")
                 + f". Shipboard: {mine['hoplites']} hoplites, chests: "
                 f"{_chests(mine['chests'])} ({room} of {c.shipboard} spaces free, Map 15). "
                 f"Underworld: {view['underworld'][player]}. Left on Pursuit cities: "
                 f"{view['placed'][player]}.")
    hand = view.get("my_hand", [])
    lines.append("Your hand (Action 1-3): " + ("; ".join(
        f"{c.actions[x].name} ({x}): {c.actions[x].text}" for x in hand) or "empty") + ".")
    perm = view["permanents"]
    lines.append("Permanent cards in play: " + ("; ".join(
        f"{q} " + ", ".join(c.actions[x].name for x in perm[q]) for q in seats if perm[q])
        or "none") + ".")
    personal = view.get("my_personal", "")
    lines.append("Your personal Pursuit (secret): " + (pursuits.card_text(c, personal)
                                                         if personal else "achieved") + ".")
    lines.append("Pursuits on display (Pursuit 0.2): " + ("; ".join(
        pursuits.card_text(c, x) for x in view["display"] if x) or "none") + ".")
    done = [f"{q} {', '.join(view['achieved'][q])}" for q in seats if view["achieved"][q]]
    if done:
        lines.append("Pursuits achieved: " + "; ".join(done) + ".")
    lines.append("Cities (value to beat, Challenge City 2; chests on them):")
    lines += [f"  {x.name} ({x.id}) value {x.value}, {x.spaces} spaces: "
              f"{_chests(view['chests'].get(x.id, []))}" for x in b.cities.values()]
    lines.append("Settlements (value; hoplites to found, Found 3): " + "; ".join(
        f"{x.name} ({x.id}) {x.value}, {x.hoplites}: "
        + (view["settlements"][x.id]["owner"] or "free") for x in b.settlements.values())
        + ".")
    others = [f"{q} on {view['ships'][q]}: {view['board'][q]['hoplites']} hoplites, chests "
              f"{_chests(view['board'][q]['chests'])}, underworld {view['underworld'][q]}, "
              f"{_plural(view['hand_counts'][q], 'card')}" for q in seats if q != player]
    lines.append("The other ships: " + "; ".join(others) + f". The Hydra is on "
                 f"{view['hydra']}.")
    lines.append(f"Honour points (Honour 1-5; {goal} to win): " + ", ".join(
        f"{q} {scoring.points(c, view, q)}" for q in seats) + ".")
    chosen = view.get("my_choices")
    if chosen:
        lines.append("Your standing choices (sealed): " + choices_mod.describe(chosen) + ".")
    return lines

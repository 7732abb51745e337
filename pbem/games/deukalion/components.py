"""Deukalion's components (THE MAP, Setup 1-6, CONTENTS), loaded from ``data/*.toml``: the
board, the 30 Action cards, the 16 Pursuit cards and the game's numbers.

The seed prints names and a few values (the 8 cities and 4 settlements of Map 1, Ephesus
value 1 with 1 hoplite, Halikarnassos value 4 with "up to 3" chests, the targets of Object 1,
the counts of Contents); two reviews give the board's size (9 x 7) and Athens's 5 anchor
squares (docs: the analysis, section 7). Everything else (the grid, the other values, every
card text, the throw odds, the Kylix symbols' order) is authored; each data file says which
value is which in its ``# Source:`` lines, so that a group with the box can replace it.

The module constants (``THROW``, ``KYLIX_SYMBOLS``, ``CARD_DIE``, ``TARGET``, ``SHIPBOARD``,
``HONOUR_CARDS``, ``HYDRA_VALUE``, ``PUSH``) are read from ``data/game.toml`` at import;
:func:`load_from` on another folder checks that folder but does not change them.

A file that breaks a rule of the game does not load (:class:`ProblemsError`): a city or
settlement with no water neighbour (Challenge City 0), city chest spaces that cannot hold the
15 chests and one more (Pursuit Deliver 4: a delivered chest goes back "on any empty space"),
water that is not connected, an unknown Action effect or Pursuit task kind, counts that differ
from Contents.

Rulings (authored, with their clause):

- Ship 4 ("All squares surrounding the Kylix space count as water spaces"): the 8 squares
  around the Kylix, diagonals included, must be water (only the 4 orthogonal ones matter for
  movement, Map 13).
- Challenge City 0 ("one of the squares adjacent to the city"): a place is challenged (or
  founded, or reached by a Pursuit) from a ``water`` or ``anchor`` square next to it; not from
  the Styx (no challenges there, Styx 3). :meth:`Board.approaches` lists those squares.
- Scores are doubled ints everywhere (design "Half points"): ``THROW`` gives 0 / 2 / 1 for
  skull up / skull down / side (Score 1-3), and an Action card's challenge ``amount`` is
  doubled too (``challenge_plus`` 2 = +1 point; ``bronze_shield`` 1 = +0.5).
- Honour cards (14, Contents) count 1 point each; the pile is a physical count only
  (analysis 5.1 item 16).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pbem.core.errors import Problem, ProblemsError
from pbem.core.resources import read_toml

DATA = Path(__file__).resolve().parent / "data"

FILES = "abcdefghi"
RANKS = 7
KINDS = frozenset({"water", "anchor", "styx", "kylix", "athens", "city", "settlement", "land"})
WATER = frozenset({"water", "anchor", "styx"})  # ships sail here (Ship 1, 3, Styx)
APPROACH = frozenset({"water", "anchor"})  # a place is challenged/founded from here
EFFECTS = frozenset({"move_plus", "reclaim", "hydra_plus", "draw", "challenge_plus",
                     "swift_sails", "bronze_shield", "sea_legs"})
TASKS = frozenset({"deliver", "defeat_ship", "sail_hoplites", "sail_cards", "defeat_hydra"})


@dataclass(frozen=True)
class Square:
    id: str
    kind: str
    name: str
    place: str  # the city or settlement id on this square, else ""


@dataclass(frozen=True)
class City:
    id: str
    name: str
    value: int  # Challenge City 2: score this or more to take a chest
    spaces: int  # chest spaces (Setup 1)
    squares: tuple[str, ...]


@dataclass(frozen=True)
class Settlement:
    id: str
    name: str
    value: int  # Challenge City 2: score this or more to seize it
    hoplites: int  # Found 3 / Honour 1: hoplites left there = Honour points while owned
    squares: tuple[str, ...]


@dataclass(frozen=True)
class ActionCard:
    id: str
    name: str
    text: str
    copies: int
    effect: str
    amount: int
    permanent: bool  # Action 1: "Apart from the 3 cards that state otherwise"


@dataclass(frozen=True)
class Task:
    kind: str
    colour: str = ""  # deliver: "" = any colour
    count: int = 0  # deliver: chests
    place: str = ""  # sail_hoplites, sail_cards: city (or settlement) id
    hoplites: int = 0  # sail_hoplites: at least this many on the shipboard
    cards: int = 0  # sail_cards: Action cards sacrificed
    leave: int = 0  # sail_hoplites: hoplites left there, out of play

    def text(self, c: Components | None = None) -> str:
        """The task as a card would print it (place names from ``c`` if given)."""
        where = self.place
        if c is not None:
            where = c.place_name(self.place) if self.place else ""
        if self.kind == "deliver":
            what = f"{self.colour} treasure chest" if self.colour else "treasure chest"
            return f"Deliver {self.count} {what}{'s' if self.count > 1 else ''} to Athens"
        if self.kind == "defeat_ship":
            return "Defeat another player's ship"
        if self.kind == "sail_hoplites":
            text = f"Sail to {where} with {self.hoplites} hoplites"
            return text + (f" and leave {self.leave} there" if self.leave else "")
        if self.kind == "sail_cards":
            return f"Sail to {where} with {self.cards} Action cards"
        return "Defeat the Hydra"


@dataclass(frozen=True)
class Pursuit:
    id: str
    points: int  # Honour 2: printed at the bottom of the card
    tasks: tuple[Task, Task]  # Pursuit 0.1: either one completes the card

    @property
    def hydra(self) -> bool:
        """A "Defeat the Hydra" card (Challenge Hydra 0, Ship 6)."""
        return any(t.kind == "defeat_hydra" for t in self.tasks)


@dataclass(frozen=True)
class Board:
    squares: dict[str, Square]
    cities: dict[str, City]
    settlements: dict[str, Settlement]
    anchors: tuple[str, ...]
    styx: tuple[str, ...]
    kylix: str
    hydra_start: str
    athens: tuple[str, ...]  # the harbour's land squares
    links: dict[str, tuple[str, ...]] = field(repr=False, compare=False)

    def neighbours(self, sq: str) -> tuple[str, ...]:
        """Map 13: the squares sharing a side with ``sq`` (any kind), in id order."""
        return self.links[sq]

    def water(self, sq: str) -> bool:
        """Ship 1, 3, 4, Styx: a ship may stand here (water, anchor, Styx)."""
        return self.squares[sq].kind in WATER

    def hydra_water(self, sq: str) -> bool:
        """Kylix Hydra 2: the Hydra may stand here (water; never anchors, never the Styx)."""
        return self.squares[sq].kind == "water"

    def adjacent_places(self, sq: str) -> tuple[str, ...]:
        """The cities and settlements next to ``sq`` (ids, sorted); empty unless ``sq`` is a
        water or anchor square (Challenge City 0: challenged "from an adjacent field")."""
        if self.squares[sq].kind not in APPROACH:
            return ()
        return tuple(sorted({self.squares[n].place for n in self.links[sq]} - {""}))

    def approaches(self, place: str) -> tuple[str, ...]:
        """The water and anchor squares from which ``place`` is challenged, founded or
        reached (Challenge City 0, Found 1, Pursuit Hoplites, Pursuit Cards 3)."""
        return tuple(sq for sq in self.squares if place in self.adjacent_places(sq))

    def place_name(self, place: str) -> str:
        if place in self.cities:
            return self.cities[place].name
        if place in self.settlements:
            return self.settlements[place].name
        return place

    def distances(self, start: str, hydra: bool = False) -> dict[str, int]:
        """Steps from ``start`` to every square a ship (``hydra``: the Hydra) can reach,
        ignoring pieces: breadth-first over :meth:`water` (:meth:`hydra_water`) squares."""
        ok = self.hydra_water if hydra else self.water
        seen = {start: 0}
        todo = deque([start])
        while todo:
            sq = todo.popleft()
            for n in self.links[sq]:
                if n not in seen and ok(n):
                    seen[n] = seen[sq] + 1
                    todo.append(n)
        return seen


@dataclass(frozen=True)
class Components:
    board: Board
    actions: dict[str, ActionCard]
    pursuits: dict[str, Pursuit]
    colours: tuple[str, ...]  # chest colours (Contents: 3 of each colour)
    chests_per_colour: int
    shipboard: int  # Map 15: 10 spaces
    hoplites: int  # Sail 1: 10 hoplites each
    start_actions: int  # Sail 1: 3 Action cards
    start_pursuits: int  # Sail 1: 1 Pursuit card
    display: int  # Setup 4: 2 Pursuit cards face up
    honour_cards: int  # Contents: 14

    def chest_list(self) -> list[str]:
        """Every treasure chest (Contents: 15), by colour, in file order."""
        return [col for col in self.colours for _ in range(self.chests_per_colour)]

    def action_deck(self) -> list[str]:
        """Every Action card, ``copies`` times its id, in file order (Contents: 30)."""
        return [a.id for a in self.actions.values() for _ in range(a.copies)]

    def pursuit_deck(self) -> list[str]:
        return list(self.pursuits)

    def place_name(self, place: str) -> str:
        return self.board.place_name(place)


def _read(folder: Path, name: str) -> dict[str, Any]:
    return read_toml(folder / name)  # kept between commands


def _game(folder: Path) -> dict[str, Any]:
    return _read(folder, "game.toml")


_G = _game(DATA)
#: Score 1-3 as doubled scores, in the order of ``throw_faces``: skull up 0 (to the
#: Underworld), skull down 1 point, on its side or standing half a point.
THROW: tuple[tuple[str, int], ...] = tuple((k, int(v)) for k, v in _G["throw"]["score2"].items())
#: Authored odds of a thrown hoplite (game.toml [throw.weight], 9 : 9 : 2 of 20).
THROW_WEIGHTS: dict[str, int] = {k: int(v) for k, v in _G["throw"]["weight"].items()}
THROW_SCORE2: dict[str, int] = dict(THROW)
#: The four symbols around the Kylix, clockwise from the north slot (authored, Kylix 3-4).
KYLIX_SYMBOLS: tuple[str, ...] = tuple(_G["kylix"]["symbols"])
#: Kylix Card 1 (analysis 5.1 item 1): the Card die's value -> who draws an Action card.
CARD_DIE: dict[int, str] = {int(k): v for k, v in _G["kylix"]["card_die"].items()}
TARGET: dict[int, int] = {int(k): int(v) for k, v in _G["target"].items()}  # Object 1
SHIPBOARD: int = int(_G["shipboard"])  # Map 15
HONOUR_CARDS: int = int(_G["contents"]["honour"])  # Contents
HYDRA_VALUE: int = int(_G["hydra_value"])  # Challenge Hydra 3, Hydra Attack 3: 5 or more
PUSH: int = int(_G["push"])  # Challenge Ship 3, Challenge Hydra 4: "by 3 squares"


def throw_faces() -> tuple[str, ...]:
    """The faces of one hoplite throw for ``Stream.faces`` (20 faces: 9 up, 9 down, 2 side);
    its doubled score is ``THROW_SCORE2[face]``."""
    return tuple(face for face, _ in THROW for _ in range(THROW_WEIGHTS[face]))


def square_ids() -> list[str]:
    return [f"{f}{r}" for f in FILES for r in range(1, RANKS + 1)]


def _unknown(where: str, raw: dict[str, Any], allowed: set[str]) -> list[Problem]:
    return [Problem(where, f"unknown key {k!r}", "allowed: " + ", ".join(sorted(allowed)))
            for k in raw if k not in allowed]


def _board(raw: dict[str, Any], problems: list[Problem], total_chests: int) -> Board:
    where = "board.toml"
    symbols: dict[str, str] = dict(raw.get("symbols", {}))
    for sym, kind in symbols.items():
        if kind not in KINDS - {"city", "settlement"} or len(sym) != 1:
            problems.append(Problem(f"{where} [symbols]", f"{sym!r} = {kind!r}: a one-character "
                                    "symbol for water, anchor, styx, kylix, athens or land"))
    places: dict[str, tuple[str, dict[str, Any]]] = {}
    for kind, table in (("city", "city"), ("settlement", "settlement")):
        for x in raw.get(table, []):
            allowed = {"id", "name", "symbol", "value", "spaces" if kind == "city" else
                       "hoplites"}
            problems += _unknown(f"{where} [[{table}]] {x.get('id', '?')}", x, allowed)
            sym = str(x.get("symbol", ""))
            if len(sym) != 1 or sym in symbols or sym in places:
                problems.append(Problem(f"{where} [[{table}]] {x.get('id')}",
                                        f"symbol {sym!r} must be one new character"))
            places[sym] = (kind, x)
    rows: list[str] = [r.replace(" ", "") for r in raw.get("grid", {}).get("rows", [])]
    if len(rows) != RANKS or any(len(r) != len(FILES) for r in rows):
        problems.append(Problem(f"{where} [grid] rows", f"{RANKS} rows of {len(FILES)} symbols "
                                "(files a-i, rank 7 first: the review's 9 x 7 board)"))
        rows = [r.ljust(len(FILES), "#")[:len(FILES)] for r in rows[:RANKS]]
        rows += ["#" * len(FILES)] * (RANKS - len(rows))
    squares: dict[str, Square] = {}
    spots: dict[str, list[str]] = {}
    for i, row in enumerate(rows):
        rank = RANKS - i
        for letter, sym in zip(FILES, row, strict=True):
            sq = f"{letter}{rank}"
            if sym in places:
                kind, x = places[sym]
                squares[sq] = Square(sq, kind, str(x["name"]), str(x["id"]))
                spots.setdefault(str(x["id"]), []).append(sq)
            elif sym in symbols:
                kind = symbols[sym]
                names = {"anchor": "Athens anchor", "styx": "River Styx", "kylix": "Kylix",
                         "athens": "Athens"}
                squares[sq] = Square(sq, kind, names.get(kind, ""), "")
            else:
                problems.append(Problem(f"{where} [grid] {sq}", f"unknown symbol {sym!r}"))
                squares[sq] = Square(sq, "land", "", "")
    order = sorted(squares)
    squares = {sq: squares[sq] for sq in order}
    links: dict[str, tuple[str, ...]] = {}
    for sq in order:
        col, rk = FILES.index(sq[0]), int(sq[1:])
        near = [f"{FILES[col + df]}{rk + dr}" for df, dr in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= col + df < len(FILES) and 1 <= rk + dr <= RANKS]
        links[sq] = tuple(sorted(near))

    def of(kind: str) -> tuple[str, ...]:
        return tuple(sq for sq in order if squares[sq].kind == kind)

    cities: dict[str, City] = {}
    settlements: dict[str, Settlement] = {}
    for kind, x in places.values():
        pid = str(x["id"])
        if pid not in spots:
            problems.append(Problem(f"{where} [[{kind}]] {pid}", "not on the grid"))
        value = int(x.get("value", 0))
        if value < 1:
            problems.append(Problem(f"{where} [[{kind}]] {pid}", "value must be 1 or more"))
        if kind == "city":
            spaces = int(x.get("spaces", 0))
            if spaces < 1:
                problems.append(Problem(f"{where} [[city]] {pid}", "spaces must be 1 or more"))
            cities[pid] = City(pid, str(x["name"]), value, spaces, tuple(spots.get(pid, ())))
        else:
            hoplites = int(x.get("hoplites", 0))
            if hoplites not in (1, 2):
                problems.append(Problem(f"{where} [[settlement]] {pid}", "hoplites must be 1 "
                                        "or 2 (Honour 1: \"leave 1 or 2 hoplites\")"))
            settlements[pid] = Settlement(pid, str(x["name"]), value, hoplites,
                                          tuple(spots.get(pid, ())))
    kylix = of("kylix")
    meta = raw.get("board", {})
    board = Board(squares, dict(sorted(cities.items())), dict(sorted(settlements.items())),
                  of("anchor"), of("styx"), kylix[0] if kylix else "",
                  str(meta.get("hydra_start", "")), of("athens"), links)
    if len(kylix) != 1:
        problems.append(Problem(f"{where} [grid]", "exactly one Kylix square (Map 5)"))
    else:
        k = FILES.index(kylix[0][0]), int(kylix[0][1:])
        around = [f"{FILES[k[0] + df]}{k[1] + dr}" for df in (-1, 0, 1) for dr in (-1, 0, 1)
                  if (df, dr) != (0, 0) and 0 <= k[0] + df < len(FILES)
                  and 1 <= k[1] + dr <= RANKS]
        problems += [Problem(f"{where} [grid] {sq}", "the squares around the Kylix are water "
                             "(Ship 4)") for sq in around if squares[sq].kind != "water"]
    if not board.athens:
        problems.append(Problem(f"{where} [grid]", "no Athens square (Map 1)"))
    if len(board.anchors) != int(meta.get("anchors", 5)):
        problems.append(Problem(f"{where} [grid]", f"{len(board.anchors)} anchor squares, not "
                                f"{meta.get('anchors', 5)} (the topolino review)"))
    if len(board.anchors) < 4:
        problems.append(Problem(f"{where} [grid]", "at least 4 anchors: one ship each at the "
                                "start (Sail 3)"))
    for sq in board.anchors:
        if not any(squares[n].kind == "athens" for n in links[sq]):
            problems.append(Problem(f"{where} [grid] {sq}", "an anchor square must touch "
                                    "Athens (Map 1: \"anchor squares around Athens\")"))
    if len(board.styx) != int(meta.get("styx", 2)):
        problems.append(Problem(f"{where} [grid]", f"{len(board.styx)} Styx squares, not "
                                f"{meta.get('styx', 2)}"))
    if board.hydra_start not in squares or squares[board.hydra_start].kind != "water":
        problems.append(Problem(f"{where} [board] hydra_start", "must be a water square "
                                "(Setup 2, Kylix Hydra 2)"))
    for pid in list(cities) + list(settlements):
        if pid in spots and not board.approaches(pid):
            problems.append(Problem(f"{where} {pid}", "touches no water or anchor square: it "
                                    "could never be challenged (Challenge City 0)"))
    if sum(c.spaces for c in cities.values()) <= total_chests:
        problems.append(Problem(f"{where} [[city]] spaces", f"the chest spaces must exceed the "
                                f"{total_chests} chests (Pursuit Deliver 4: a chest goes back "
                                "\"on any empty space\")"))
    wet = [sq for sq in order if board.water(sq)]
    if wet and len(board.distances(wet[0])) != len(wet):
        problems.append(Problem(f"{where} [grid]", "the water is not connected"))
    return board


def _task(where: str, raw: dict[str, Any], c_places: set[str], colours: tuple[str, ...],
          problems: list[Problem]) -> Task:
    allowed = {"kind", "colour", "count", "place", "hoplites", "cards", "leave"}
    problems += _unknown(where, raw, allowed)
    t = Task(str(raw.get("kind", "")), str(raw.get("colour", "")), int(raw.get("count", 0)),
             str(raw.get("place", "")), int(raw.get("hoplites", 0)), int(raw.get("cards", 0)),
             int(raw.get("leave", 0)))
    bad = ""
    if t.kind not in TASKS:
        bad = f"unknown task kind {t.kind!r}"
    elif t.kind == "deliver" and (t.count < 1 or (t.colour and t.colour not in colours)):
        bad = "deliver: count 1 or more, colour one of the chest colours or \"\" (any)"
    elif t.kind in ("sail_hoplites", "sail_cards") and t.place not in c_places:
        bad = f"unknown place {t.place!r}"
    elif t.kind == "sail_hoplites" and not 0 <= t.leave <= t.hoplites <= 10:
        bad = "sail_hoplites: 1-10 hoplites, leave 0 to hoplites"
    elif t.kind == "sail_hoplites" and t.hoplites < 1:
        bad = "sail_hoplites: 1-10 hoplites"
    elif t.kind == "sail_cards" and t.cards < 1:
        bad = "sail_cards: cards 1 or more"
    if bad:
        problems.append(Problem(where, bad))
    return t


def load_from(folder: Path) -> Components:
    """Read and check the four data files of ``folder`` (uncached: tests use their copies)."""
    problems: list[Problem] = []
    game = _game(folder)
    contents = game.get("contents", {})
    colours = tuple(str(x) for x in game.get("chests", {}).get("colours", ()))
    per = int(game.get("chests", {}).get("per_colour", 0))
    if len(set(colours)) * per != int(contents.get("chests", 0)) or len(set(colours)) != len(
            colours):
        problems.append(Problem("game.toml [chests]", f"{len(colours)} colours x {per} must be "
                                f"the {contents.get('chests')} chests of Contents"))
    weights = game.get("throw", {}).get("weight", {})
    if set(weights) != set(game.get("throw", {}).get("score2", {})) or any(
            int(w) < 0 for w in weights.values()) or sum(int(w) for w in weights.values()) < 1:
        problems.append(Problem("game.toml [throw]", "a weight (0 or more) for each outcome"))
    symbols = game.get("kylix", {}).get("symbols", [])
    if sorted(symbols) != ["cards", "hoplites", "hydra", "move"]:
        problems.append(Problem("game.toml [kylix] symbols", "the four symbols hoplites, move, "
                                "cards, hydra in clockwise order (Kylix 3)"))
    if sorted(game.get("kylix", {}).get("card_die", {}).values()) != ["nobody", "others", "self"]:
        problems.append(Problem("game.toml [kylix] card_die", "1-3 -> others, nobody, self"))
    total = int(contents.get("chests", 0))
    board = _board(_read(folder, "board.toml"), problems, total)
    places = set(board.cities) | set(board.settlements)

    actions: dict[str, ActionCard] = {}
    for x in _read(folder, "actions.toml").get("card", []):
        where = f"actions.toml [[card]] {x.get('id', '?')}"
        problems += _unknown(where, x, {"id", "name", "text", "copies", "effect", "amount",
                                        "permanent"})
        a = ActionCard(str(x["id"]), str(x["name"]), str(x["text"]), int(x.get("copies", 1)),
                       str(x["effect"]), int(x.get("amount", 0)), bool(x.get("permanent", False)))
        if a.effect not in EFFECTS:
            problems.append(Problem(where, f"unknown effect {a.effect!r}",
                                    "one of " + ", ".join(sorted(EFFECTS))))
        if a.copies < 0 or a.amount < 0 or a.id in actions:
            problems.append(Problem(where, "a new id, copies and amount 0 or more"))
        actions[a.id] = a
    if sum(a.copies for a in actions.values()) != int(contents.get("actions", 0)):
        problems.append(Problem("actions.toml", f"{sum(a.copies for a in actions.values())} "
                                f"cards, not the {contents.get('actions')} of Contents"))
    if sum(a.copies for a in actions.values() if a.permanent) != int(game.get("permanent", 3)):
        problems.append(Problem("actions.toml", "Action 1: exactly "
                                f"{game.get('permanent', 3)} permanent cards"))

    pursuits: dict[str, Pursuit] = {}
    for x in _read(folder, "pursuits.toml").get("card", []):
        where = f"pursuits.toml [[card]] {x.get('id', '?')}"
        problems += _unknown(where, x, {"id", "points", "task"})
        raw_tasks = list(x.get("task", []))
        if len(raw_tasks) != 2:
            problems.append(Problem(where, "two tasks per card (Pursuit 0.1)"))
            raw_tasks = (raw_tasks + [{"kind": "defeat_ship"}] * 2)[:2]
        t1, t2 = (_task(f"{where} task {i + 1}", t, places, colours, problems)
                  for i, t in enumerate(raw_tasks))
        p = Pursuit(str(x["id"]), int(x.get("points", 0)), (t1, t2))
        if p.points < 1 or p.id in pursuits:
            problems.append(Problem(where, "a new id and points 1 or more (Honour 2)"))
        pursuits[p.id] = p
    if len(pursuits) != int(contents.get("pursuits", 0)):
        problems.append(Problem("pursuits.toml", f"{len(pursuits)} cards, not the "
                                f"{contents.get('pursuits')} of Contents"))
    if problems:
        raise ProblemsError(problems, "deukalion components")
    return Components(board, actions, pursuits, colours, per, int(game["shipboard"]),
                      int(game["hoplites"]), int(game["start_actions"]),
                      int(game["start_pursuits"]), int(game["display"]),
                      int(contents["honour"]))


@cache
def load() -> Components:
    """The components of ``data/`` (cached)."""
    return load_from(DATA)

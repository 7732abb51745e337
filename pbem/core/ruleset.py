"""The interface every game implements, and the phase description the engine runs on.

A game is data plus pure functions of ``(state, orders, rng)`` (DESIGN.md section 6). State is
plain data (dicts, lists, str, int, bool) that serialises to canonical JSON; the engine keeps
its own bookkeeping (records, seeds, inbox) apart from it, as boardgame.io keeps ``ctx`` apart
from ``G``. Hidden information leaves the state only through :meth:`Ruleset.view`.
"""

from __future__ import annotations

import marshal
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from pbem.core.dice import Rng, Stream
from pbem.core.errors import Problem
from pbem.core.values import FrozenValue, Value

State = dict[str, Any]
Orders = dict[str, Any]
Event = dict[str, Any]

PHASE_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
JOIN_PHASE = "t00.join"

#: Reveal points every game has: the end of the phase that was sealed, and the end of game.
REVEAL_PHASE = "phase"
REVEAL_GAME = "game"


def copy_state(state: State) -> State:
    """A deep copy of plain state data (dicts, lists, str, int, float, bool, None), several
    times faster than ``copy.deepcopy`` (for submit checks that play orders on a copy)."""
    copied: State = marshal.loads(marshal.dumps(state))
    return copied


def put_sorted(table: dict[str, Any], key: str, value: Any) -> None:
    """``table[key] = value``, the keys kept in sorted order: the order of the state's canonical
    JSON, which a parse of it gives. A state the rules leave in that order is the next record's
    as it is (engine.next_state); one that is not is parsed again from its JSON."""
    if not table or key > next(reversed(table)) or key in table:
        table[key] = value
        return
    table[key] = value
    items = sorted(table.items())
    table.clear()
    table.update(items)


def setdefault_sorted(table: dict[str, Any], key: str, default: Any) -> Any:
    """``table.setdefault(key, default)``, a new key put in sorted order (:func:`put_sorted`)."""
    if key not in table:
        put_sorted(table, key, default)
    return table[key]


def sorted_tree(value: Any) -> Any:
    """A copy of plain data with every table's keys in sorted order (see :func:`put_sorted`):
    for a player's orders kept in the state as given."""
    if isinstance(value, dict):
        return {k: sorted_tree(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sorted_tree(v) for v in value]
    return value


# A dataclass for dataclasses.replace (the tests), its methods written out
# (pbem.core.values: generated ones cost ~3.5 M instructions at import).
@dataclass(init=False, repr=False, eq=False)
class PhaseSpec(FrozenValue):
    """One step of the game that takes one round of orders (or none, if automatic).

    ``actors`` must submit (everyone at once, one active player, all but the active player, or
    nobody for an automatic phase). ``sealed`` orders are published only at ``reveal``: the end of
    this phase (``"phase"``), the end of the game (``"game"``) or a named later point that the
    game announces in :attr:`Outcome.reveals`. ``kind`` names the order form
    (``orders/<game>/<kind>.toml``).
    """

    _fields = ("id", "kind", "actors", "sealed", "reveal", "active", "title")
    id: Final[str]
    kind: Final[str]
    actors: Final[tuple[str, ...]]
    sealed: Final[bool]
    reveal: Final[str]
    active: Final[str | None]
    title: Final[str]

    def __init__(self, id: str, kind: str, actors: tuple[str, ...], sealed: bool = False,
                 reveal: str = REVEAL_PHASE, active: str | None = None, title: str = ""
                 ) -> None:
        self.id = id
        self.kind = kind
        self.actors = actors
        self.sealed = sealed
        self.reveal = reveal
        self.active = active
        self.title = title
        if not PHASE_ID.fullmatch(self.id):
            raise ValueError(f"phase id {self.id!r} must match {PHASE_ID.pattern}")
        if self.reveal != REVEAL_PHASE and not self.sealed:
            raise ValueError(f"phase {self.id}: only sealed orders have a later reveal point")

    @property
    def automatic(self) -> bool:
        return not self.actors


class Outcome(Value):
    """What resolving a phase produced: the new state and what each reader learns of it.

    ``events`` are public (ledger, gazette, every report); ``private`` are per player (only
    that player's report). ``reveals`` names later reveal points reached by this phase.
    """

    _fields = ("state", "events", "private", "reveals")
    __slots__ = _fields

    def __init__(self, state: State, events: list[Event] | None = None,
                 private: dict[str, list[Event]] | None = None, reveals: tuple[str, ...] = ()
                 ) -> None:
        self.state = state
        self.events = [] if events is None else events
        self.private = {} if private is None else private
        self.reveals = reveals


class OptionSpec(FrozenValue):
    _fields = ("default", "choices", "help")
    __slots__ = _fields
    default: Final[str]
    choices: Final[tuple[str, ...]]
    help: Final[str]

    def __init__(self, default: str, choices: tuple[str, ...] = (), help: str = "") -> None:
        self.default = default
        self.choices = choices
        self.help = help


class Ruleset(ABC):
    """A game, as the engine sees it. Implementations live in ``pbem.games.<name>``."""

    name: str
    title: str
    rules_version: str
    min_players: int
    max_players: int
    options: ClassVar[Mapping[str, OptionSpec]] = {}

    def check_options(self, given: Mapping[str, str], players: Sequence[str]) -> list[Problem]:
        """Problems with the campaign options (unknown keys, values outside their choices) and
        the number of ``players`` (their names, for options that name one)."""
        problems = []
        for key, value in given.items():
            spec = self.options.get(key)
            if spec is None:
                known = ", ".join(sorted(self.options)) or "none"
                problems.append(Problem(f"--option {key}", f"{self.name} has no option {key!r}",
                                        f"known options: {known}"))
            elif spec.choices and value not in spec.choices:
                shown = (", ".join(spec.choices) if len(spec.choices) <= 12 else
                         f"{spec.choices[0]} ... {spec.choices[-1]}")
                problems.append(Problem(f"--option {key}", f"{value!r} is not one of {shown}"))
        if not self.min_players <= len(players) <= self.max_players:
            problems.append(Problem("--player", f"{self.title} takes {self.min_players} to "
                                    f"{self.max_players} players, not {len(players)}"))
        return problems

    def resolved_options(self, given: Mapping[str, str]) -> dict[str, str]:
        return {k: given.get(k, spec.default) for k, spec in sorted(self.options.items())}

    # --- joining and setup -------------------------------------------------------------

    def join_phase(self, players: tuple[str, ...]) -> PhaseSpec:
        """``t00.join``: everyone proves their key and gives entropy (and game choices)."""
        return PhaseSpec(JOIN_PHASE, "join", players, title="Join the campaign")

    def validate_join(self, player: str, orders: Orders) -> list[Problem]:
        """Problems with a join order. By default a join carries no choices."""
        return [Problem(f"[orders] {key}", f"a join order for {self.title} takes no {key!r}",
                        "leave [orders] empty") for key in orders]

    def default_join(self, player: str) -> Orders:
        return {}

    @abstractmethod
    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        """The initial state, from the join orders (record 1)."""

    # --- the phases --------------------------------------------------------------------

    @abstractmethod
    def next_phase(self, state: State) -> PhaseSpec | None:
        """The phase open in ``state``, or ``None`` when the game is over."""

    @abstractmethod
    def validate(self, state: State, phase: PhaseSpec, player: str,
                 orders: Orders) -> list[Problem]:
        """Every problem with ``player``'s orders for ``phase``, all of them at once."""

    def check(self, state: State, phase: PhaseSpec, player: str, orders: Orders
              ) -> tuple[list[Problem], list[Problem]]:
        """(:meth:`validate`, :meth:`provisional`) of one submission: the provisional list is
        empty whenever there are problems. A game whose two share their work (one walk
        through the phase as ordered) overrides this to do it once."""
        problems = self.validate(state, phase, player, orders)
        return problems, ([] if problems else self.provisional(state, phase, player, orders))

    def provisional(self, state: State, phase: PhaseSpec, player: str,
                    orders: Orders) -> list[Problem]:
        """Checks of orders that :meth:`validate` accepted which cannot be decided at submit
        because they depend on what happens earlier in the same phase (another player moves
        first, a battle before this move). Each is said in the receipt ("accepted; checked
        again when it runs: ...") so that the player knows what may still be skipped.
        Called only on orders that :meth:`validate` accepted; must never raise."""
        return []

    @abstractmethod
    def default_orders(self, state: State, phase: PhaseSpec, player: str) -> Orders:
        """The documented default used for a player who sent nothing (NMR)."""

    @abstractmethod
    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        """Resolve one phase. Must be a pure function of its arguments."""

    # --- what players see ----------------------------------------------------------------

    @abstractmethod
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """What ``player`` may know of ``state`` (``None``: the public). Reports use only this."""

    def order_form(self, view: Mapping[str, Any], phase: PhaseSpec, player: str) -> str:
        """The ``[orders]`` part of the blank form, TOML with comments. Sent back unchanged it
        must mean :meth:`default_orders`. Games override this to pre-fill from the view."""
        return ""

    @abstractmethod
    def bot_orders(self, view: Mapping[str, Any], phase: PhaseSpec, player: str,
                   rng: Stream) -> Orders:
        """Legal, non-trivial orders chosen from the player's own view (demo, simulation)."""

    def bot_join(self, player: str, rng: Stream) -> Orders:
        return {}

    def report_context(self, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
        """Extra, readable structures for the game's own report templates, built from the
        view alone (never from the state), e.g. names for ids. Available as ``game``."""
        return {}

    def report_public(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The part of ``game`` that is the same for every reader of a record (e.g. the board
        by Area), built once per record from the public view (``view(state, None)``) and
        merged under what :meth:`report_context` gives each reader."""
        return {}

    def event_text(self, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
        """How a report words ``event`` for the reader of ``view`` (issue 14): the ledger's
        ``text`` (the default), or a game's clearer wording built from the event's fields and
        the view alone (names for ids, plurals). Never changes the ledger."""
        return str(event.get("text", ""))

    def die_face(self, label: str, value: int) -> str | None:
        """What draw ``label`` = ``value`` shows on the table, when it is not the drawn
        number itself (a die with printed faces: the face index drawn and the face the
        events quote); None by default. The report prints it next to the draw."""
        return None

    def board_svg(self, view: Mapping[str, Any], player: str | None) -> str:
        """An inline SVG picture of the board drawn from the map data and ``view`` alone (what
        ``player`` may see), with a legend; empty for a game without a picture."""
        return ""

    # --- what simulations check (pbem simulate) -----------------------------------------

    def invariants(self, before: State | None, after: State, events: Sequence[Event],
                   private: Mapping[str, Sequence[Event]]) -> list[str]:
        """The game's conservation rules between two states, one message per breach: pieces
        in exactly one place, no negative holdings, scores that recompute from the events.
        ``before`` is None for the state set up by the join phase."""
        return []

    def hide_from_others(self, state: State, player: str) -> State | None:
        """A copy of ``state`` whose parts hidden from everyone but ``player`` are changed to
        marker values (None: nothing to check now). Every other player's view, and the
        public one, must be identical for both states: that is what secrecy means."""
        return None

    def roles(self, state: State) -> dict[str, str]:
        """Each player's side (a god, a character) for the statistics of simulations."""
        return {}

    def result(self, state: State) -> dict[str, Any]:
        """Final standings for the end-of-game report; empty while the game runs."""
        return {}

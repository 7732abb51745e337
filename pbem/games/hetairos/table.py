"""The state of a Hetairos campaign and the working context the rules act through.

State layout (plain JSON data; docs/games/hetairos.md, "State"):

- ``scenario`` (data id, e.g. ``beast_slayers``), ``options`` (the campaign's), ``round``,
  ``seats`` (players in turn order, Start 1), ``step`` (``turn``, ``world`` or ``over``),
  ``active`` (the player whose turn it is), ``cont`` (continuations of that turn so far);
- ``map``: ``"x,y"`` -> square ``{kind, open, found}`` plus ``bridge`` (Styx), ``site``
  (what a special square holds: a settlement, lair, trap or spawn point, see
  :mod:`pbem.games.hetairos.sites`) and ``by`` (who drew it);
- ``models``: id (``m1``, ``m2``...) -> every piece on the map: ``side`` ``pc`` (a player
  character, ``owner`` its player), ``npc`` (under ``owner``'s control), ``monster`` or
  ``defender`` (a settlement's force); ``type`` (character or monster id), ``at``, ``bank``
  (on the Styx), ``hp``, ``max_hp``, ``ap`` (left this turn), ``kleos``; a PC also
  ``gold``, ``items``, ``prisoners`` (monster ids), ``effects`` (prayers pending),
  ``moved``, ``spear`` (3+ AP left at the end of its last turn), ``came`` (the side it
  entered its square by), ``stuck`` (a pit, the Room of Daedalus, a revolving room);
- ``pcs``: player -> the model id of their character; ``dead``: players whose characters died;
- ``standing``: player -> standing orders (``imprison``, ``soak``, ``gorgon``, ``pay_giant``,
  ``reroll``, ``npcs``, see :mod:`pbem.games.hetairos.standing`);
- ``goal``: what the scenario counts (kills, deliveries), ``result`` once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pbem.core.dice import Stream
from pbem.games.hetairos import people as people_mod
from pbem.games.hetairos import world as world_mod

State = dict[str, Any]
Event = dict[str, Any]
Model = dict[str, Any]


class NeedsDice(Exception):
    """A working copy reached a die (see :class:`NoDice`)."""


class NoDice(Stream):
    """Dice that refuse to roll: for working copies that must know what is decided without
    a die (the submit check, a report's or a bot's look at the turn ahead)."""

    def __init__(self) -> None:
        super().__init__(b"no-dice")

    def draw(self, label: str, n: int) -> int:
        raise NeedsDice(label)


@dataclass(frozen=True)
class Components:
    world: world_mod.World
    people: people_mod.People

    def monster(self, type_: str) -> world_mod.Monster:
        return self.world.monsters[type_]

    def character(self, type_: str) -> people_mod.Character:
        return self.people.characters[type_]


@cache
def load() -> Components:
    return Components(world_mod.load(), people_mod.load())


@dataclass
class Table:
    """One resolution's working context: the components, the state being changed, the public
    dice and the events said so far (public, and per player)."""

    c: Components
    state: State
    dice: Stream
    events: list[Event] = field(default_factory=list)
    private: dict[str, list[Event]] = field(default_factory=dict)
    label: str = ""  # the prefix of every draw of this resolution ("r03/p1")
    purse: dict[str, int] = field(default_factory=dict)  # Gold changes not yet in an event

    # ---- dice -------------------------------------------------------------------------

    def roll(self, spec: str, what: str) -> int:
        """A total of printed dice (``"d6"``, ``"2d6+3"``, ``"d3"``, ``"4"``), each die a draw
        labelled ``<label>/<what>/<i>``."""
        total, _rolls = self.roll_each(spec, what)
        return total

    def roll_each(self, spec: str, what: str) -> tuple[int, list[int]]:
        spec = spec.strip().lower()
        if spec.isdigit():
            return int(spec), []
        m = world_mod.DICE.fullmatch(spec)
        if not m:
            raise ValueError(f"not dice: {spec!r}")
        n, faces, plus = int(m[1] or 1), int(m[2]), int(m[3] or 0)
        rolls = [self.dice.die(faces, f"{self.label}/{what}/{i}" if n > 1 else
                               f"{self.label}/{what}") for i in range(1, n + 1)]
        return sum(rolls) + plus, rolls

    def d6(self, what: str) -> int:
        return self.dice.d6(f"{self.label}/{what}")

    def chart(self, chart_id: str, what: str) -> str:
        """Roll a chart of the world data, following ``then`` to the chart rolled next while a
        row gives no result ("ROLL AGAIN")."""
        chart = self.c.world.charts[chart_id]
        row = chart.row(self.roll(chart.die, what))
        while not row.result and row.then:
            chart = self.c.world.charts[row.then]
            row = chart.row(self.roll(chart.die, f"{what}/{chart.id}"))
        return row.result

    # ---- events -----------------------------------------------------------------------

    def say(self, type_: str, text: str, **fields: Any) -> Event:
        """A public event; the Gold changes made since the last one ride on it as ``purse``
        (model id -> change), so that every coin recounts from the ledger."""
        event = {"type": type_, "round": self.state["round"], **fields, "text": text}
        if self.purse:
            event["purse"] = dict(sorted(self.purse.items()))
            self.purse.clear()
        self.events.append(event)
        return event

    def gold(self, m: Model, change: int) -> None:
        """Change ``m``'s Gold (never below 0 is the caller's to check); said with the next
        event (:meth:`say`) or by :meth:`settle`."""
        m["gold"] = int(m.get("gold", 0)) + change
        if change:
            self.purse[m["id"]] = self.purse.get(m["id"], 0) + change

    def settle(self) -> None:
        """End of a resolution: Gold changes no event carried yet get one of their own."""
        if self.purse:
            self.say("purse", "Gold: " + ", ".join(
                f"{self.name(mid)} {n:+d}" for mid, n in sorted(self.purse.items())) + ".")

    # ---- models -----------------------------------------------------------------------

    @property
    def models(self) -> dict[str, Model]:
        models: dict[str, Model] = self.state["models"]
        return models

    def new_id(self) -> str:
        self.state["next_id"] += 1
        return f"m{self.state['next_id']}"

    def name(self, mid: str) -> str:
        m = self.models.get(mid)
        if m is None:
            return mid
        return str(m["name"])

    def alive(self) -> Iterator[Model]:
        return (m for m in self.models.values() if m["hp"] > 0)

    def at(self, k: str) -> list[Model]:
        return [m for m in self.models.values() if m["at"] == k and m["hp"] > 0]

    def square(self, k: str) -> dict[str, Any] | None:
        sq: dict[str, Any] | None = self.state["map"].get(k)
        return sq

    def pc(self, player: str) -> Model | None:
        mid = self.state["pcs"].get(player, "")
        m = self.models.get(mid)
        return m if m is not None and m["hp"] > 0 else None

    def team_of(self, m: Model) -> str:
        """The side a model fights for: a player's team (co-op: everyone's ``party``), a
        settlement (its defenders, and models stationed there), or ``monsters``."""
        if m["side"] in ("pc", "npc"):
            return str(self.state["teams"].get(m["owner"], "party"))
        if m["side"] == "defender":
            return f"town:{m['home']}"
        return "monsters"

    def enemies(self, a: Model, b: Model) -> bool:
        """Whether ``a`` and ``b`` fight (Battle 1: "UNFRIENDLY"). Monsters fight players and
        their NPCs and settlement forces; settlement forces fight monsters only (and players
        who attack them, see sites); players fight each other's sides in competitive games."""
        ta, tb = self.team_of(a), self.team_of(b)
        if ta == tb:
            return False
        if ta.startswith("town:") or tb.startswith("town:"):
            other = tb if ta.startswith("town:") else ta
            town = ta if ta.startswith("town:") else tb
            hostile = self.state["hostile"].get(town[5:], [])
            return other == "monsters" or other in hostile
        return True

    def enemies_at(self, m: Model, k: str | None = None) -> list[Model]:
        here = m["at"] if k is None else k
        return [o for o in self.at(here) if o["id"] != m["id"] and self.enemies(m, o)]

    def in_square(self, k: str, near: Model) -> list[Model]:
        """Living models in ``k`` on ``near``'s side."""
        return [o for o in self.at(k) if not self.enemies(near, o)
                and self.team_of(o) == self.team_of(near)]

"""Grecos's components (DICE, CHITS, COUNTERS, TILES & CARDS, Parts 1-6), loaded from
``data/*.toml``: the terrain tiles, the unit chits and the Event deck.

Printed values (counts, Force, Move, Hits, notes, card names and texts) come from the seed;
ids, keyword spellings and how each card's text is applied are authored (each file says
which). A file that breaks a rule of the game (tiles that do not fill the 64 squares, a unit
recruited nowhere, an unknown effect) does not load.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pbem.core.errors import Problem, ProblemsError
from pbem.core.resources import read_toml
from pbem.games.grecos.squares import SQUARES

DATA = Path(__file__).resolve().parent / "data"
KEYWORDS = frozenset({"men", "women", "army", "water", "flying", "equine", "giant", "monster",
                      "land_and_water"})
WHEN = frozenset({"own", "battle", "any", "reaction"})
EFFECTS = frozenset({"draw_all", "oracle", "extra_turn", "extra_attack", "move_bonus",
                     "replace_unit", "force_bonus", "heal", "draw", "betrayal",
                     "destroy_random", "hero_anywhere", "negate", "no_move", "no_attack"})


@dataclass(frozen=True)
class Terrain:
    id: str
    name: str
    count: int
    land: bool
    recruits: tuple[str, ...]


@dataclass(frozen=True)
class UnitKind:
    id: str
    name: str
    count: int
    force: int
    move: int
    hits: int
    keywords: frozenset[str]

    @property
    def land_and_water(self) -> bool:
        """Units 16: the Titan goes on land and water."""
        return "land_and_water" in self.keywords

    @property
    def water(self) -> bool:
        """A Water unit (Move 2: only on Water spaces)."""
        return "water" in self.keywords and not self.land_and_water

    @property
    def flying(self) -> bool:
        return "flying" in self.keywords


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    text: str
    copies: int
    when: str
    effect: str
    keyword: str = ""
    terrain: str = ""
    amount: int = 0


@dataclass(frozen=True)
class Components:
    terrains: dict[str, Terrain]
    units: dict[str, UnitKind]
    cards: dict[str, Card]

    def recruited_at(self, unit: str) -> tuple[str, ...]:
        """Recruit 3: the terrains where ``unit`` may be recruited."""
        return tuple(t.id for t in self.terrains.values() if unit in t.recruits)

    def category_units(self, terrain: str) -> frozenset[str]:
        """"Abyss units", "Forest units" (Deck 5, 11): the units recruited at ``terrain``."""
        return frozenset(self.terrains[terrain].recruits)

    def deck(self) -> list[str]:
        """Every card of the Event deck, ``copies`` times each, in file order."""
        return [c.id for c in self.cards.values() for _ in range(c.copies)]

    def chits(self) -> list[str]:
        """Every unit chit (Parts 2), ``count`` times each, in file order."""
        return [u.id for u in self.units.values() for _ in range(u.count)]


def _read(name: str) -> dict[str, Any]:
    return read_toml(DATA / name)  # kept between commands


@cache
def load() -> Components:
    problems: list[Problem] = []
    terrains = {t["id"]: Terrain(t["id"], t["name"], int(t["count"]), bool(t["land"]),
                                 tuple(t["recruits"])) for t in _read("terrain.toml")["terrain"]}
    units = {u["id"]: UnitKind(u["id"], u["name"], int(u["count"]), int(u["force"]),
                               int(u["move"]), int(u["hits"]), frozenset(u["keywords"]))
             for u in _read("units.toml")["unit"]}
    cards = {}
    for x in _read("events.toml")["card"]:
        cards[x["id"]] = Card(x["id"], x["name"], x["text"], int(x.get("copies", 1)),
                              x["when"], x["effect"], x.get("keyword", ""),
                              x.get("terrain", ""), int(x.get("amount", 0)))
    if sum(t.count for t in terrains.values()) != len(SQUARES):
        problems.append(Problem("terrain.toml", "the tile counts must add up to the 64 squares "
                                "(Map 1-2)"))
    for t in terrains.values():
        problems += [Problem(f"terrain.toml {t.id}", f"recruits unknown unit {u!r}")
                     for u in t.recruits if u not in units]
    for u in units.values():
        problems += [Problem(f"units.toml {u.id}", f"unknown keyword {k!r}")
                     for k in u.keywords if k not in KEYWORDS]
        if u.id != "hero" and not any(u.id in t.recruits for t in terrains.values()):
            problems.append(Problem(f"units.toml {u.id}", "recruited on no terrain"))
    for card in cards.values():
        if card.when not in WHEN or card.effect not in EFFECTS:
            problems.append(Problem(f"events.toml {card.id}", "unknown `when` or `effect`"))
        if card.terrain and card.terrain not in terrains:
            problems.append(Problem(f"events.toml {card.id}", f"unknown terrain {card.terrain}"))
        if card.copies < 0:
            problems.append(Problem(f"events.toml {card.id}", "copies must be 0 or more"))
    if problems:
        raise ProblemsError(problems, "grecos components")
    return Components(terrains, units, cards)

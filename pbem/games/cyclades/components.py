"""The components of Cyclades (with Hades, Titans, Monuments and the Egyptian Reinforcements)
as typed, frozen, validated values.

Everything except the boards (``maps.py`` and ``data/boards/``) is read from the TOML files in
``data/``: gods, buildings, the creature deck and the other cards that go on the creature
track (heroes, artifacts, Egyptian Reinforcements), divine favors, magic items and
priestesses, monuments, special Metropolis cards, and the supplies (starting gold and units,
per-player pieces, limited and unlimited supplies, the combat die, the creature track).
Which values come from the seed rules (``003_820e897e23d69f12.txt``), which from the
published base and expansion rules as we know them, and which are authored is said in the
``# Source:`` comment at the top of each file and in ``docs/games/cyclades-components.md``.

:func:`load` reads and checks every file once and collects *all* problems before it fails: an
unknown or missing key, a value of the wrong type, an unknown effect kind or effect key, an id
used twice, and a dangling reference (a god building an unknown building, a monument naming an
unknown colour or a Theater's, a card replacing an unknown card) are each a
:class:`pbem.core.errors.Problem` naming the file, the table and the key, raised together in
one :class:`ComponentDataError`.

Every component has a stable snake_case ``id`` (``"poseidon"``, ``"harpy"``,
``"great_temple_of_zeus"``), unique across all files, for orders and ledgers. A card that has
several copies in the deck (``count``) keeps one id: the copies are identical.

Every card (:data:`CARD_KINDS`) has a ``text``: what it does, as the reports print it (issue
14); a card without one is a problem like any missing key. The texts of a file with a
``# Source: authored`` line are ours, not the printed cards' (:attr:`Components.authored`).

Cards on the creature track have no price of their own: they cost the price of their slot,
4, 3 or 2 gold (Cycle 1; :meth:`Components.track_price`). Which kinds of track card take the
temple discount, can be swapped by Zeus and leave the game instead of the discard pile is
data too (``supplies.toml [track.kinds]``, Cycle 1.2.1, Cycle 8.4, Forgotten 5).

Effect vocabulary
-----------------

Every power (a creature card, a hero's sacrifice, an artifact, a favor, a magic item, a
monument, a special Metropolis, an Egyptian Reinforcement's special attack, a god's special
action) is an :class:`Effect`: a ``kind`` and the keys that kind takes, written in TOML as an
inline table such as ``{ kind = "destroy_building", size = "small" }``. The rules code applies
them; this module only checks them. Key types: *count* and *amount* are whole numbers of at
least 1, *int* a whole number of at least 0, *unit* one of :data:`RECRUITS`, *units* a
non-empty list of :data:`UNITS`, *card* one of :data:`CARDS`, *cards* a non-empty list of them,
*size* small or large, *where* land or sea, *side* attack, defence or both, *ids* a list of
component ids.

================================  =========================  ======================================
kind                              keys                        what it does
================================  =========================  ======================================
destroy_troop                     count, targets (units)      remove ``count`` enemy units of the
                                                              ``targets`` kinds from one territory
                                                              (Harpy: not heroes, not Titans; an
                                                              Egyptian may be taken)
destroy_fleet                     count                       remove ``count`` enemy fleets
destroy_fleets_in_sea             -                           figure: every fleet in its sea space
                                                              is destroyed (Kraken)
destroy_building                  size                        destroy one building tile of that
                                                              size (Giant: small, Forgotten 2)
destroy_figure                    -                           remove one creature figure
move_troops_anywhere              -                           move troops from one of your
                                                              territories to any territory, no
                                                              fleets needed (Pegasus)
replace_fleet                     count                       replace enemy fleets with yours
steal_gold                        divisor (int), cap (int)    take gold // divisor from a player,
                                                              at most ``cap`` (Griffon)
steal_card                        card, count                 take cards from a player
sell_cards                        cards, price (int)          sell own cards of those kinds to the
                                                              bank for ``price`` gold each
repeat_income                     -                           collect your income again (Fates)
reuse_discard                     -                           use a creature from the discard pile
                                                              (Chimera)
territory_defence                 amount                      +amount to the defender of the
                                                              territory where it stands
pin_troops                        -                           figure: troops on its territory may
                                                              not leave it (Medusa)
repel_fleets                      -                           figure: no fleet may enter the sea
                                                              spaces next to its territory
block_island                      immune (ids)                figure: its territory cannot be
                                                              attacked, nor targeted by the listed
                                                              cards (Chiron)
move_prosperity                   -                           move a prosperity marker to one of
                                                              your territories (Erinyes)
steal_necropolis_gold             -                           take the gold on the Necropolis
revive_hero                       -                           hire a hero removed from the game
divert_income                     -                           figure: you collect its territory's
                                                              income (Cerberus)
recruit                           unit, count                 gain units (or cards) from the supply
gain_card                         card, count                 gain cards from the supply
gain_gold                         amount                      gain gold from the bank
place_prosperity                  count                       place prosperity markers
battle_bonus                      where, side, amount         +amount in battles of that kind
income_bonus                      amount                      +amount gold at each income
creature_discount                 amount                      creatures cost ``amount`` less
recruit_discount                  unit, amount                recruiting ``unit`` costs less
build_discount                    amount                      buildings cost ``amount`` less
move_range                        amount                      fleet moves reach ``amount`` more
                                                              sea spaces
reroll                            -                           roll one combat die again
free_move                         units                       one move of these units at no cost
swap_track_creature               -                           Zeus: replace a creature on the
                                                              track (Forgotten 5)
apollo_income                     amount, lone_amount (int),  Apollo: ``amount`` gold, or
                                  first_prosperity (int)      ``lone_amount`` with only one
                                                              territory; ``first_prosperity``
                                                              markers to the first on him only
                                                              (Cycle 7.3)
strike_on_arrival                 count                       Egyptian: on arrival on an enemy
                                                              territory remove ``count`` troops
raise_fallen                      -                           Egyptian: enemy troops it kills are
                                                              replaced by yours from your reserve
fly                               -                           Egyptian: moves with no fleet chain
trample                           -                           Egyptian: the defender loses a troop
                                                              before the first roll
no_retreat                        -                           Egyptian: the defender may not
                                                              retreat from this battle
================================  =========================  ======================================

This module holds data and lookups, no rules: the rules code decides when an effect applies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Final

import tomli

from pbem.core.errors import Problem, ProblemsError
from pbem.core.resources import read_toml

#: The folder of the built-in data files.
DATA: Final = Path(__file__).parent / "data"

#: Every data file this module reads, in the order they are read.
FILES: Final = ("buildings.toml", "gods.toml", "creatures.toml", "heroes.toml",
                "artifacts.toml", "egyptians.toml", "favors.toml", "monuments.toml",
                "metropolises.toml", "supplies.toml")

#: The boxes a component comes from; a game chooses which are in play.
MODULES: Final = ("base", "hades", "titans", "monuments", "egyptians")

#: Units on the board that effects can name (``units`` keys).
UNITS: Final = ("troop", "fleet", "titan", "undead_troop", "undead_fleet", "egyptian", "hero")
#: What a god recruits or an effect grants (``unit`` keys).
RECRUITS: Final = ("troop", "fleet", "titan", "undead_troop", "undead_fleet", "priest",
                   "philosopher")
#: Cards a player holds (``card`` and ``cards`` keys).
CARDS: Final = ("priest", "philosopher", "priestess")
#: The kinds of card that go on the creature track (Cycle 1).
TRACK_KINDS: Final = ("creature", "hero", "artifact", "egyptian")
#: Every kind of component, as :meth:`Components.of_kind` takes it.
KINDS: Final = ("god", "building", *TRACK_KINDS, "favor", "magic_item", "monument",
                "metropolis")
#: The kinds of card whose every component carries a ``text`` (issue 14: what the reports
#: show and the "Cards" appendix lists), and the data file each kind is read from.
CARD_KINDS: Final = (*TRACK_KINDS, "favor", "magic_item", "monument", "metropolis")
CARD_FILES: Final = MappingProxyType({
    "creature": "creatures.toml", "hero": "heroes.toml", "artifact": "artifacts.toml",
    "egyptian": "egyptians.toml", "favor": "favors.toml", "magic_item": "favors.toml",
    "monument": "monuments.toml", "metropolis": "metropolises.toml"})
#: The header line that marks a file's card texts as authored (not the printed cards').
AUTHORED_MARK: Final = "# Source: authored"

#: A god's ``build.building`` that means "a building of a god above this one on the track"
#: (Kronos, Titans expansion as we know it).
GOD_ABOVE: Final = "god_above"
#: A setup item meaning one building of a god above on the track (Setup 8.2, Kronos).
BUILDING_OF_GOD_ABOVE: Final = "building_of_god_above"
#: Setup bonus items other than building ids (Setup 8.2).
SETUP_ITEMS: Final = ("fleet", "troop", "titan", "priest", "philosopher", "prosperity", "gold",
                      BUILDING_OF_GOD_ABOVE)
#: Items of the common supply (Forgotten 7 and the expansions' extra pieces).
SUPPLY_ITEMS: Final = ("gold", "territory_marker", "prosperity", "priest", "philosopher",
                       "priestess", "undead_troop", "undead_fleet")
#: What a player starts with (Setup 2) and the pieces of one colour.
START_ITEMS: Final = ("gold", "fleet", "troop")
PIECE_ITEMS: Final = ("troop", "fleet", "titan", "offering", "offering_two_player")

SIZES: Final = ("small", "large")
WHERES: Final = ("land", "sea")
SIDES: Final = ("attack", "defence", "both")
PLACEMENTS: Final = ("land", "sea", "none")
GOD_PLACEMENTS: Final = ("shuffled", "bottom", "threat")  # on the track / Apollo / Hades's roll
FREE_WHEN: Final = ("always", "on_top")
MOVERS: Final = ("troop", "fleet")
GRANTS: Final = ("priestess", "magic_item")
PRIESTESS_USES: Final = ("hero_upkeep", "retain_figure")

#: The effect vocabulary: kind -> {key: type}. The types are described in the module
#: docstring; house pattern of ``pbem/games/mythology/components.py``.
EFFECTS: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType({
    kind: MappingProxyType(keys) for kind, keys in {
        "destroy_troop": {"count": "count", "targets": "units"},
        "destroy_fleet": {"count": "count"},
        "destroy_fleets_in_sea": {},
        "destroy_building": {"size": "size"},
        "destroy_figure": {},
        "move_troops_anywhere": {},
        "replace_fleet": {"count": "count"},
        "steal_gold": {"divisor": "count", "cap": "int"},
        "steal_card": {"card": "card", "count": "count"},
        "sell_cards": {"cards": "cards", "price": "int"},
        "repeat_income": {},
        "reuse_discard": {},
        "territory_defence": {"amount": "amount"},
        "pin_troops": {},
        "repel_fleets": {},
        "block_island": {"immune": "ids"},
        "move_prosperity": {},
        "steal_necropolis_gold": {},
        "revive_hero": {},
        "divert_income": {},
        "recruit": {"unit": "unit", "count": "count"},
        "gain_card": {"card": "card", "count": "count"},
        "gain_gold": {"amount": "amount"},
        "place_prosperity": {"count": "count"},
        "battle_bonus": {"where": "where", "side": "side", "amount": "amount"},
        "income_bonus": {"amount": "amount"},
        "creature_discount": {"amount": "amount"},
        "recruit_discount": {"unit": "unit", "amount": "amount"},
        "build_discount": {"amount": "amount"},
        "move_range": {"amount": "amount"},
        "reroll": {},
        "free_move": {"units": "units"},
        "swap_track_creature": {},
        "apollo_income": {"amount": "amount", "lone_amount": "int", "first_prosperity": "int"},
        "strike_on_arrival": {"count": "count"},
        "raise_fallen": {},
        "fly": {},
        "trample": {},
        "no_retreat": {},
    }.items()
})

_ID = re.compile(r"^[a-z][a-z0-9_]*$")

#: A value of an effect key.
Param = int | str | tuple[str, ...]


class ComponentDataError(ProblemsError):
    """One or more data files are malformed or refer to something that does not exist."""


# --- values ----------------------------------------------------------------------------------


def _plain(value: object) -> object:
    """``value`` as ledger data: dicts, lists, str, int, bool (no tuples, no dataclasses)."""
    if isinstance(value, Effect):
        return value.as_dict()
    if isinstance(value, _Plain):
        return value.as_dict()
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


class _Plain:
    """Gives a frozen dataclass an ``as_dict()`` of plain data for events and reports."""

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {}
        kind = getattr(type(self), "kind", None)
        if isinstance(kind, str):
            out["kind"] = kind
        for f in fields(self):  # type: ignore[arg-type]
            out[f.name] = _plain(getattr(self, f.name))
        return out


@dataclass(frozen=True)
class Effect:
    """A power in the vocabulary :data:`EFFECTS`: ``kind`` and its keys (sorted by key)."""

    kind: str
    params: tuple[tuple[str, Param], ...] = ()

    def get(self, key: str) -> Param:
        for name, value in self.params:
            if name == key:
                return value
        raise KeyError(f"effect {self.kind!r} has no key {key!r}")

    def number(self, key: str) -> int:
        value = self.get(key)
        if not isinstance(value, int):
            raise TypeError(f"effect {self.kind!r} key {key!r} is not a number")
        return value

    def text(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str):
            raise TypeError(f"effect {self.kind!r} key {key!r} is not a string")
        return value

    def names(self, key: str) -> tuple[str, ...]:
        value = self.get(key)
        if not isinstance(value, tuple):
            raise TypeError(f"effect {self.kind!r} key {key!r} is not a list")
        return value

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, **{k: _plain(v) for k, v in self.params}}


@dataclass(frozen=True)
class Recruit(_Plain):
    """What a god recruits (base rules; Cycle 8.3). The first ``free`` units of the turn cost
    nothing (the free recruit bonus, given first), when ``free_when`` allows it: "always", or
    "on_top" for a god that gives it only from the top slot of the track (Kronos). Then the
    paid units cost ``prices`` in order; no more can be recruited after them."""

    units: tuple[str, ...]
    free: int
    free_when: str
    prices: tuple[int, ...]

    def free_count(self, on_top: bool = False) -> int:
        return self.free if self.free_when == "always" or on_top else 0

    def price(self, n: int, on_top: bool = False) -> int | None:
        """The price of the ``n``-th unit recruited this turn (``n`` from 1), or None if the
        god recruits no ``n``-th unit."""
        if n < 1:
            raise ValueError("units are counted from 1")
        free = self.free_count(on_top)
        if n <= free:
            return 0
        index = n - free - 1
        return self.prices[index] if index < len(self.prices) else None

    def limit(self, on_top: bool = False) -> int:
        """How many units the god recruits at most in one turn."""
        return self.free_count(on_top) + len(self.prices)


@dataclass(frozen=True)
class Build(_Plain):
    """The building a god builds and its price; ``building`` is a building id or
    :data:`GOD_ABOVE`."""

    building: str
    price: int


@dataclass(frozen=True)
class Move(_Plain):
    """A god's movement action: ``price`` gold per move of ``units``; a fleet move reaches
    ``sea_range`` sea spaces (None for troops); ``requires_undead``: each move carries an
    undead unit (Hades)."""

    units: tuple[str, ...]
    price: int
    sea_range: int | None
    requires_undead: bool


@dataclass(frozen=True)
class Special(_Plain):
    """A god's special action: ``price`` gold each use, repeatable or once a turn."""

    price: int
    repeatable: bool
    effect: Effect


@dataclass(frozen=True)
class SetupBonus(_Plain):
    """Setup 8.2: what winning the god in the setup bid gives. ``bonus`` always, ``titans`` in
    addition on the Titans board, replaced by ``titans_on_top`` (when given) if the god holds
    the top slot of the track (Kronos: "depending on his position"). Items are
    :data:`SETUP_ITEMS` or building ids; each tuple is sorted (item, count) pairs."""

    bonus: tuple[tuple[str, int], ...]
    titans: tuple[tuple[str, int], ...]
    titans_on_top: tuple[tuple[str, int], ...] | None

    def as_dict(self) -> dict[str, object]:
        return {"bonus": dict(self.bonus), "titans": dict(self.titans),
                "titans_on_top": None if self.titans_on_top is None
                else dict(self.titans_on_top)}


@dataclass(frozen=True)
class God(_Plain):
    """A god tile. ``placement``: "shuffled" onto the track, "bottom" (Apollo, always last),
    or "threat" (Hades, who comes only by his roll, Cycle 5)."""

    kind: ClassVar[str] = "god"
    id: str
    name: str
    module: str
    placement: str
    recruit: Recruit | None
    build: Build | None
    move: Move | None
    special: Special | None
    setup: SetupBonus | None


@dataclass(frozen=True)
class Building(_Plain):
    """A building tile (see buildings.toml for the meaning of each key)."""

    kind: ClassVar[str] = "building"
    id: str
    name: str
    module: str
    colour: str
    size: str
    basic: bool
    land_defence: int
    sea_defence: int
    creature_discount: int
    metropolis_part: bool
    metropolis_wild: bool
    monument: bool


@dataclass(frozen=True)
class Creature(_Plain):
    """A Mythological Creature card; ``figure``: a miniature stays on the board (Cycle 8.2);
    ``replaces``: the id of the card it replaces when its module is in play."""

    kind: ClassVar[str] = "creature"
    id: str
    name: str
    module: str
    count: int
    figure: bool
    placement: str
    effect: Effect
    replaces: str | None
    text: str = ""  # the effect as reports show it (issue 14)


@dataclass(frozen=True)
class Hero(_Plain):
    """A hero card (Misc Artifacts and Heroes): ``strength`` troops in combat, ``sacrifice``
    its one-time power, ``retires``: sacrificing it does not kill it."""

    kind: ClassVar[str] = "hero"
    id: str
    name: str
    module: str
    count: int
    strength: int
    retires: bool
    sacrifice: Effect
    text: str = ""  # the effect as reports show it (issue 14)


@dataclass(frozen=True)
class Artifact(_Plain):
    """A Divine Artifact (Misc Artifacts and Heroes 3, Victory 2): its lasting ``power``."""

    kind: ClassVar[str] = "artifact"
    id: str
    name: str
    module: str
    count: int
    power: Effect
    text: str = ""  # the effect as reports show it (issue 14)


@dataclass(frozen=True)
class Egyptian(_Plain):
    """An Egyptian Reinforcement (Misc Egyptian Reinforcements): the ``ability`` of its
    special attack."""

    kind: ClassVar[str] = "egyptian"
    id: str
    name: str
    module: str
    count: int
    ability: Effect
    text: str = ""  # the effect as reports show it (issue 14)


@dataclass(frozen=True)
class Favor(_Plain):
    """A Divine Favor tile (Cycle 6, Misc Divine Favors 1): ``grants`` a priestess or a magic
    item, and a one-time ``power``."""

    kind: ClassVar[str] = "favor"
    id: str
    name: str
    module: str
    grants: str
    power: Effect
    text: str = ""  # the effect as reports show it (issue 14)


@dataclass(frozen=True)
class MagicItem(_Plain):
    """A Magic Item card (Misc Divine Favors 3-4): kept face up, used once."""

    kind: ClassVar[str] = "magic_item"
    id: str
    name: str
    module: str
    effect: Effect
    text: str = ""  # the effect as reports show it (issue 14)


@dataclass(frozen=True)
class Monument(_Plain):
    """A Monument (Misc Monuments): the colours of the two buildings it needs (sorted; the same
    colour twice means two such buildings) and its lasting ``power``."""

    kind: ClassVar[str] = "monument"
    id: str
    name: str
    module: str
    requires: tuple[str, str]
    power: Effect
    text: str = ""  # the effect as reports show it (issue 14)


@dataclass(frozen=True)
class SpecialMetropolis(_Plain):
    """A special Metropolis card (Misc Special Metropolis 1) and its lasting ``power``."""

    kind: ClassVar[str] = "metropolis"
    id: str
    name: str
    module: str
    power: Effect
    text: str = ""  # the effect as reports show it (issue 14)


TrackCard = Creature | Hero | Artifact | Egyptian
Component = (God | Building | Creature | Hero | Artifact | Egyptian | Favor | MagicItem
             | Monument | SpecialMetropolis)


@dataclass(frozen=True)
class KindRules(_Plain):
    """How one kind of track card is treated (Cycle 1.2.1, Cycle 8.4, Forgotten 5)."""

    temple_discount: bool
    zeus_swappable: bool
    removed_not_discarded: bool


@dataclass(frozen=True)
class Track(_Plain):
    """The creature track: the price of each slot, first (4 gold) to last (Cycle 1), and the
    rules of each kind of card on it."""

    prices: tuple[int, ...]
    kinds: Mapping[str, KindRules]


@dataclass(frozen=True)
class Rules(_Plain):
    """The numbers of the seed and the expansions that belong to no single card."""

    hades_dice: int                    # Cycle 5.1
    hades_threshold: int               # Cycle 5.2
    figure_lasts_cycles: int           # Cycle 8.2
    figure_retain_with: str            # Cycle 8.2
    hero_upkeep_gold: int              # Cycle 3.1
    hero_upkeep_priestess: int         # Cycle 3.1
    hero_sacrifice_same_turn: bool     # Misc Artifacts and Heroes 5
    artifacts_for_victory: int         # Victory 2
    egyptian_attack_price: int         # Misc Egyptian Reinforcements 4
    egyptian_attacks_per_turn: int     # Misc Egyptian Reinforcements 5
    egyptian_destroyed_last: bool      # Egyptian Reinforcements sheet
    priestess_count: int
    priestess_uses: tuple[str, ...]    # Misc Divine Favors 2
    special_metropolises_face_up: int  # Setup 5
    titan_move_base: int               # Misc Titans 1
    titan_move_step: int               # Misc Titans 1


@dataclass(frozen=True)
class Supplies(_Plain):
    """Starting holdings (Setup 2), pieces per player, the limited supplies (count per module)
    and the unlimited ones (Forgotten 7), and the combat die's faces (Battle)."""

    start: Mapping[str, int]
    pieces: Mapping[str, int]
    limited: Mapping[str, Mapping[str, int]]
    unlimited: tuple[str, ...]
    die: tuple[int, ...]

    def limited_count(self, item: str, modules: Iterable[str] = MODULES) -> int | None:
        """How many of ``item`` there are with ``modules`` in play; None if unlimited."""
        if item in self.unlimited:
            return None
        if item not in self.limited:
            raise KeyError(f"{item!r} is not a supply item")
        chosen = set(modules)
        return sum(n for module, n in self.limited[item].items() if module in chosen)


@dataclass(frozen=True, eq=False)
class Components:
    """Every component of the game except the boards, as loaded from the data files."""

    gods: Mapping[str, God]
    buildings: Mapping[str, Building]
    creatures: Mapping[str, Creature]
    heroes: Mapping[str, Hero]
    artifacts: Mapping[str, Artifact]
    egyptians: Mapping[str, Egyptian]
    favors: Mapping[str, Favor]
    magic_items: Mapping[str, MagicItem]
    monuments: Mapping[str, Monument]
    metropolises: Mapping[str, SpecialMetropolis]
    track: Track
    supplies: Supplies
    rules: Rules
    #: The card kinds whose texts are authored: their file has an :data:`AUTHORED_MARK`
    #: line (a user who types in their own copy's texts removes it).
    authored: frozenset[str] = frozenset()

    def _tables(self) -> tuple[Mapping[str, Any], ...]:
        return (self.gods, self.buildings, self.creatures, self.heroes, self.artifacts,
                self.egyptians, self.favors, self.magic_items, self.monuments, self.metropolises)

    def by_id(self, cid: str) -> Component:
        """The component with id ``cid`` (ids are unique across every kind)."""
        for table in self._tables():
            if cid in table:
                found: Component = table[cid]
                return found
        raise KeyError(f"no Cyclades component with id {cid!r}")

    def of_kind(self, kind: str, modules: Iterable[str] = MODULES) -> tuple[Component, ...]:
        """Every component of ``kind`` (one of :data:`KINDS`) from ``modules``, by id."""
        if kind not in KINDS:
            raise KeyError(f"{kind!r} is not a kind; kinds are {', '.join(KINDS)}")
        chosen = set(modules)
        table = self._tables()[KINDS.index(kind)]
        return tuple(c for _, c in sorted(table.items()) if c.module in chosen)

    def cards(self, modules: Iterable[str] = MODULES) -> tuple[Component, ...]:
        """Every card of :data:`CARD_KINDS` in play with ``modules``, kind by kind and by id
        within a kind; a creature replaced by one in play (Chiron by Hades's) is left out."""
        chosen = tuple(modules)
        out = [card for kind in CARD_KINDS for card in self.of_kind(kind, chosen)]
        replaced = {c.replaces for c in out if isinstance(c, Creature) and c.replaces}
        return tuple(c for c in out if c.id not in replaced)

    def track_card(self, cid: str) -> TrackCard:
        """A card that goes on the creature track: creature, hero, artifact or Egyptian."""
        card = self.by_id(cid)
        if not isinstance(card, Creature | Hero | Artifact | Egyptian):
            raise KeyError(f"{cid!r} is a {card.kind}, not a card of the creature track")
        return card

    def track_rules(self, cid: str) -> KindRules:
        """Temple discount, Zeus swap and removal rules for the track card ``cid``."""
        return self.track.kinds[self.track_card(cid).kind]

    def track_price(self, slot: int) -> int:
        """The price of track slot ``slot``: 0 is the first (4 gold) space (Cycle 1)."""
        if not 0 <= slot < len(self.track.prices):
            raise IndexError(f"the creature track has slots 0-{len(self.track.prices) - 1}")
        return self.track.prices[slot]

    def deck(self, modules: Iterable[str] = MODULES) -> tuple[str, ...]:
        """The ids of the creature-track deck with ``modules`` in play, each repeated by its
        count, sorted by id (shuffle it with the game's dice stream). A card whose module is in
        play removes the card it ``replaces``."""
        chosen = set(modules)
        cards: list[TrackCard] = [c for table in (self.creatures, self.heroes, self.artifacts,
                                                  self.egyptians)
                                  for c in table.values() if c.module in chosen]
        replaced = {c.replaces for c in cards if isinstance(c, Creature) and c.replaces}
        return tuple(sorted(c.id for c in cards if c.id not in replaced
                            for _ in range(c.count)))

    def god(self, gid: str) -> God:
        try:
            return self.gods[gid]
        except KeyError:
            raise KeyError(f"no god {gid!r}") from None

    def recruit_price(self, gid: str, n: int, *, on_top: bool = False) -> int | None:
        """What god ``gid``'s ``n``-th recruit this turn costs (``n`` from 1; the free recruit
        bonus first, Cycle 8.3); None if the god recruits nothing or no ``n``-th unit.
        ``on_top``: the god holds the top slot of the track (Kronos's free Titan)."""
        recruit = self.god(gid).recruit
        return None if recruit is None else recruit.price(n, on_top)

    def free_recruits(self, gid: str, *, on_top: bool = False) -> int:
        """How many units god ``gid`` recruits for free first (Cycle 8.3)."""
        recruit = self.god(gid).recruit
        return 0 if recruit is None else recruit.free_count(on_top)

    def setup_bonus(self, gid: str, *, titans_board: bool, on_top: bool = False
                    ) -> dict[str, int]:
        """Setup 8.2: item -> count for winning god ``gid`` in the setup bid, with the Titans
        board's extra when ``titans_board``; ``on_top``: the god holds the top slot."""
        setup = self.god(gid).setup
        if setup is None:
            raise KeyError(f"god {gid!r} takes no part in the setup bid (Setup 7)")
        out = dict(setup.bonus)
        if titans_board:
            extra = (setup.titans_on_top if on_top and setup.titans_on_top is not None
                     else setup.titans)
            for item, count in extra:
                out[item] = out.get(item, 0) + count
        return out

    def building_of_colour(self, colour: str) -> Building:
        """The building tile of ``colour`` (colours are unique)."""
        for building in self.buildings.values():
            if building.colour == colour:
                return building
        raise KeyError(f"no building is {colour!r}")

    def defence_bonus(self, building_id: str, where: str) -> int:
        """What one ``building_id`` adds to the defender of its territory in a land or sea
        battle (Battle 1.1-1.2)."""
        building = self.buildings[building_id]
        return building.land_defence if where == "land" else building.sea_defence

    def monument_buildings(self, monument_id: str) -> tuple[Building, Building]:
        """The two buildings (by colour) that monument ``monument_id`` needs."""
        first, second = self.monuments[monument_id].requires
        return self.building_of_colour(first), self.building_of_colour(second)


# --- reading TOML strictly, collecting every problem ----------------------------------------

_MISSING: Final = object()


class _Problems:
    """Every problem found while loading, in the order found."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, where: str, message: str, hint: str = "") -> None:
        self.items.append(Problem(where, message, hint))


class _Table:
    """One TOML table being read. Reading a key records a problem and returns a harmless
    default when the key is missing or of the wrong type, so that one pass finds every
    problem; :meth:`done` reports the keys nobody read as unknown."""

    def __init__(self, problems: _Problems, file: str, where: str, data: object) -> None:
        self.problems = problems
        self.file = file
        self.where = where
        self.ok = isinstance(data, dict)
        self.data: dict[str, object] = data if isinstance(data, dict) else {}
        self.read: set[str] = set()
        if not self.ok:
            self.problem("", "must be a table")

    def place(self, key: str = "") -> str:
        return " ".join(part for part in (self.file, self.where, key) if part)

    def problem(self, key: str, message: str, hint: str = "") -> None:
        self.problems.add(self.place(key), message, hint)

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str) -> object:
        self.read.add(key)
        if key not in self.data:
            self.problem(key, "is missing")
            return _MISSING
        return self.data[key]

    def text(self, key: str) -> str:
        value = self.raw(key)
        if value is _MISSING:
            return ""
        if not isinstance(value, str) or not value.strip():
            self.problem(key, "must be a non-empty string")
            return ""
        return value

    def choice(self, key: str, choices: Iterable[str]) -> str:
        options = tuple(choices)
        value = self.text(key)
        if value and value not in options:
            self.problem(key, f"is {value!r}, not one of {', '.join(map(repr, options))}")
            return ""
        return value

    def ident(self, key: str = "id") -> str:
        value = self.text(key)
        if value and not _ID.match(value):
            self.problem(key, f"{value!r} is not a snake_case id",
                         "use lower-case letters, digits and underscores, e.g. \"great_temple\"")
            return ""
        return value

    def integer(self, key: str, low: int = 0, high: int = 1000) -> int:
        value = self.raw(key)
        if value is _MISSING:
            return low
        if not isinstance(value, int) or isinstance(value, bool):
            self.problem(key, "must be a whole number")
            return low
        if not low <= value <= high:
            self.problem(key, f"is {value}, outside {low}..{high}")
            return low
        return value

    def flag(self, key: str) -> bool:
        value = self.raw(key)
        if value is _MISSING:
            return False
        if not isinstance(value, bool):
            self.problem(key, "must be true or false")
            return False
        return value

    def texts(self, key: str, choices: Iterable[str] | None = None) -> tuple[str, ...]:
        value = self.raw(key)
        if value is _MISSING:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problem(key, "must be a list of strings")
            return ()
        if choices is not None:
            options = tuple(choices)
            bad = [v for v in value if v not in options]
            if bad:
                self.problem(key, f"{bad[0]!r} is not one of {', '.join(map(repr, options))}")
                return ()
        return tuple(str(v) for v in value)

    def integers(self, key: str, low: int = 0, high: int = 1000, *,
                 empty: bool = False) -> tuple[int, ...]:
        value = self.raw(key)
        if value is _MISSING:
            return ()
        if (not isinstance(value, list) or (not value and not empty)
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            self.problem(key, "must be a " + ("" if empty else "non-empty ")
                         + "list of whole numbers")
            return ()
        if not all(low <= v <= high for v in value):
            self.problem(key, f"has a number outside {low}..{high}")
            return ()
        return tuple(int(v) for v in value)

    def counts(self, key: str, items: Iterable[str], low: int = 0) -> dict[str, int]:
        """An inline table of item -> whole number."""
        value = self.raw(key)
        if value is _MISSING:
            return {}
        options = tuple(items)
        if not isinstance(value, dict):
            self.problem(key, "must be a table of item = count")
            return {}
        out: dict[str, int] = {}
        for item, n in value.items():
            if item not in options:
                self.problem(key, f"{item!r} is not one of {', '.join(map(repr, options))}")
            elif not isinstance(n, int) or isinstance(n, bool) or n < low:
                self.problem(key, f"{item} must be a whole number of at least {low}")
            else:
                out[item] = n
        return out

    def table(self, key: str) -> _Table:
        where = f"{self.where}.{key}" if self.where else f"[{key}]"
        value = self.raw(key)
        return _Table(self.problems, self.file, where, {} if value is _MISSING else value)

    def optional_table(self, key: str) -> _Table | None:
        if key not in self.data:
            self.read.add(key)
            return None
        return self.table(key)

    def tables(self, key: str, label: str) -> list[_Table]:
        value = self.raw(key)
        if value is _MISSING:
            return []
        if not isinstance(value, list) or not value:
            self.problem(key, f"must be one or more [[{label}]] tables")
            return []
        return [_Table(self.problems, self.file, f"[[{label}]] #{i}", item)
                for i, item in enumerate(value, 1)]

    def named(self, label: str) -> None:
        """Name this table by its id in later messages: ``[[god]] zeus`` rather than ``#3``."""
        self.where = label

    def done(self) -> None:
        for key in sorted(set(self.data) - self.read):
            self.problem(key, "unknown key", "remove it or check its spelling; known keys: "
                         + ", ".join(sorted(self.read)))


def _read(problems: _Problems, folder: Path, name: str) -> _Table | None:
    path = folder / name
    try:
        data = read_toml(path)  # tomli's parse, kept between commands
    except OSError as exc:
        problems.add(name, f"cannot be read: {exc.strerror}")
        return None
    except tomli.TOMLDecodeError as exc:
        problems.add(name, f"is not valid TOML: {exc}")
        return None
    return _Table(problems, name, "", data)


class _Ids:
    """The global id namespace: every id once, across every file."""

    def __init__(self) -> None:
        self.owner: dict[str, str] = {}

    def claim(self, t: _Table, cid: str) -> None:
        if not cid:
            return
        if cid in self.owner:
            t.problem("id", f"{cid!r} is also the id of {self.owner[cid]}",
                      "ids are unique across every file")
        else:
            self.owner[cid] = t.place()


def _header(t: _Table, label: str, ids: _Ids) -> tuple[str, str, str]:
    """Read ``id``, ``name`` and ``module`` of a component table and name the table by id."""
    cid = t.ident()
    if cid:
        t.named(f"[[{label}]] {cid}")
    ids.claim(t, cid)
    return cid, t.text("name"), t.choice("module", MODULES)


class _Refs:
    """Ids named by effects (``ids`` keys), checked once every file has been read."""

    def __init__(self) -> None:
        self.ids: list[tuple[_Table, str, str]] = []  # (table, key, id)

    def component(self, t: _Table, key: str, value: str) -> None:
        self.ids.append((t, key, value))


def _effect(t: _Table, key: str, refs: _Refs) -> Effect:
    """Read the inline table ``key`` of ``t`` as an :class:`Effect`."""
    e = t.table(key)
    if not e.ok:
        return Effect("")
    kind = e.text("kind")
    if kind and kind not in EFFECTS:
        e.problem("kind", f"{kind!r} is not an effect kind",
                  "the kinds are listed in EFFECTS, pbem/games/cyclades/components.py")
        kind = ""
    if not kind:
        e.read.update(e.data)  # the kind's problem is enough; its keys cannot be judged
        return Effect("")
    params: list[tuple[str, Param]] = []
    for name, kind_of_value in sorted(EFFECTS[kind].items()):
        if not e.has(name):
            e.problem(name, f"is missing; effect {kind!r} takes "
                      + ", ".join(sorted(EFFECTS[kind])))
            e.read.add(name)
            continue
        value: Param
        if kind_of_value == "count" or kind_of_value == "amount":
            value = e.integer(name, 1, 100)
        elif kind_of_value == "int":
            value = e.integer(name, 0, 100)
        elif kind_of_value == "unit":
            value = e.choice(name, RECRUITS)
        elif kind_of_value == "units":
            value = e.texts(name, UNITS)
            if not value and e.has(name) and isinstance(e.data[name], list):
                e.problem(name, "must list at least one unit")
        elif kind_of_value == "card":
            value = e.choice(name, CARDS)
        elif kind_of_value == "cards":
            value = e.texts(name, CARDS)
            if not value and e.has(name) and isinstance(e.data[name], list):
                e.problem(name, "must list at least one card")
        elif kind_of_value == "size":
            value = e.choice(name, SIZES)
        elif kind_of_value == "where":
            value = e.choice(name, WHERES)
        elif kind_of_value == "side":
            value = e.choice(name, SIDES)
        else:  # "ids": checked against every component once all files are read
            value = e.texts(name)
            for cid in value:
                refs.component(e, name, cid)
        params.append((name, value))
    for name in sorted(set(e.data) - set(EFFECTS[kind]) - {"kind"}):
        e.problem(name, f"unknown key for effect {kind!r}",
                  "it takes " + (", ".join(sorted(EFFECTS[kind])) or "no other keys"))
        e.read.add(name)
    e.done()
    return Effect(kind, tuple(params))


def _frozen(items: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(items))


def _pairs(items: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(items.items()))


# --- loading each file -----------------------------------------------------------------------


def _load_buildings(doc: _Table, ids: _Ids) -> dict[str, Building]:
    out: dict[str, Building] = {}
    colours: dict[str, str] = {}
    for t in doc.tables("building", "building"):
        cid, name, module = _header(t, "building", ids)
        colour = t.ident("colour")
        if colour in colours:
            t.problem("colour", f"{colour!r} is also the colour of {colours[colour]!r}",
                      "Monument cards name buildings by colour, so colours are unique")
        elif colour:
            colours[colour] = cid
        out[cid] = Building(cid, name, module, colour, t.choice("size", SIZES), t.flag("basic"),
                            t.integer("land_defence", 0, 10), t.integer("sea_defence", 0, 10),
                            t.integer("creature_discount", 0, 10), t.flag("metropolis_part"),
                            t.flag("metropolis_wild"), t.flag("monument"))
        t.done()
    doc.done()
    return out


def _load_recruit(t: _Table) -> Recruit:
    r = t.table("recruit")
    units = r.texts("units", RECRUITS)
    if not units and r.has("units") and isinstance(r.data["units"], list):
        r.problem("units", "must list at least one unit")
    recruit = Recruit(units, r.integer("free", 0, 10), r.choice("free_when", FREE_WHEN),
                      r.integers("prices", 0, 100, empty=True))
    r.done()
    return recruit


def _load_setup(t: _Table, building_ids: Iterable[str]) -> SetupBonus:
    s = t.table("setup")
    items = (*SETUP_ITEMS, *building_ids)
    bonus = s.counts("bonus", items, low=1)
    titans = s.counts("titans", items, low=1)
    on_top = s.counts("titans_on_top", items, low=1) if s.has("titans_on_top") else None
    s.read.add("titans_on_top")
    s.done()
    return SetupBonus(_pairs(bonus), _pairs(titans), None if on_top is None else _pairs(on_top))


def _load_gods(doc: _Table, ids: _Ids, refs: _Refs, buildings: Mapping[str, Building]
               ) -> tuple[dict[str, God], int, int]:
    hades = doc.table("hades")
    dice, threshold = hades.integer("dice", 1, 10), hades.integer("threshold", 1, 100)
    hades.done()
    out: dict[str, God] = {}
    for t in doc.tables("god", "god"):
        cid, name, module = _header(t, "god", ids)
        placement = t.choice("placement", GOD_PLACEMENTS)
        recruit = _load_recruit(t) if t.has("recruit") else None
        build: Build | None = None
        if (b := t.optional_table("build")) is not None:
            building = b.text("building")
            if building and building != GOD_ABOVE and building not in buildings:
                b.problem("building", f"{building!r} is not a building of buildings.toml",
                          f"name a building id or {GOD_ABOVE!r}")
            build = Build(building, b.integer("price", 0, 100))
            b.done()
        move: Move | None = None
        if (m := t.optional_table("move")) is not None:
            units = m.texts("units", MOVERS)
            sea_range = m.integer("sea_range", 1, 20) if m.has("sea_range") else None
            m.read.add("sea_range")
            if "fleet" in units and sea_range is None:
                m.problem("sea_range", "is missing; a fleet move reaches some sea spaces")
            move = Move(units, m.integer("price", 0, 100), sea_range, m.flag("requires_undead"))
            m.done()
        special: Special | None = None
        if (s := t.optional_table("special")) is not None:
            special = Special(s.integer("price", 0, 100), s.flag("repeatable"),
                              _effect(s, "effect", refs))
            s.done()
        setup = _load_setup(t, buildings) if t.has("setup") else None
        t.read.update({"recruit", "setup"})
        out[cid] = God(cid, name, module, placement, recruit, build, move, special, setup)
        t.done()
    doc.done()
    bottoms = sorted(g.id for g in out.values() if g.placement == "bottom")
    if len(bottoms) != 1:
        doc.problem("[[god]]", f"has {len(bottoms)} gods with placement \"bottom\" "
                    f"({', '.join(bottoms) or 'none'}); Apollo alone is always last")
    return out, dice, threshold


def _load_creatures(doc: _Table, ids: _Ids, refs: _Refs
                    ) -> tuple[dict[str, Creature], int, str, list[tuple[_Table, str]]]:
    figures = doc.table("figures")
    lasts, retain = figures.integer("lasts_cycles", 1, 10), figures.choice("retain_with",
                                                                            CARDS)
    figures.done()
    out: dict[str, Creature] = {}
    replacing: list[tuple[_Table, str]] = []
    for t in doc.tables("creature", "creature"):
        cid, name, module = _header(t, "creature", ids)
        replaces = t.ident("replaces") if t.has("replaces") else None
        t.read.add("replaces")
        if replaces:
            replacing.append((t, replaces))
        out[cid] = Creature(cid, name, module, t.integer("count", 1, 10), t.flag("figure"),
                            t.choice("placement", PLACEMENTS), _effect(t, "effect", refs),
                            replaces or None, t.text("text"))
        t.done()
    doc.done()
    return out, lasts, retain, replacing


def _load_heroes(doc: _Table, ids: _Ids, refs: _Refs
                 ) -> tuple[dict[str, Hero], int, int, bool]:
    upkeep = doc.table("upkeep")
    gold, priestess = upkeep.integer("gold", 0, 100), upkeep.integer("priestess", 0, 10)
    upkeep.done()
    sacrifice = doc.table("sacrifice")
    same_turn = sacrifice.flag("same_turn")
    sacrifice.done()
    out: dict[str, Hero] = {}
    for t in doc.tables("hero", "hero"):
        cid, name, module = _header(t, "hero", ids)
        out[cid] = Hero(cid, name, module, t.integer("count", 1, 10), t.integer("strength", 1, 10),
                        t.flag("retires"), _effect(t, "sacrifice", refs), t.text("text"))
        t.done()
    doc.done()
    return out, gold, priestess, same_turn


def _load_artifacts(doc: _Table, ids: _Ids, refs: _Refs) -> tuple[dict[str, Artifact], int]:
    victory_table = doc.table("set")
    victory = victory_table.integer("victory", 1, 20)
    victory_table.done()
    out: dict[str, Artifact] = {}
    for t in doc.tables("artifact", "artifact"):
        cid, name, module = _header(t, "artifact", ids)
        out[cid] = Artifact(cid, name, module, t.integer("count", 1, 10),
                            _effect(t, "power", refs), t.text("text"))
        t.done()
    doc.done()
    if out and len(out) != victory:
        doc.problem("[[artifact]]", f"has {len(out)} artifacts but [set] victory is {victory}",
                    "Victory 2 asks for all of them")
    return out, victory


def _load_egyptians(doc: _Table, ids: _Ids, refs: _Refs
                    ) -> tuple[dict[str, Egyptian], int, int, bool]:
    attack = doc.table("special_attack")
    price, per_turn = attack.integer("price", 0, 100), attack.integer("per_turn", 1, 10)
    last = attack.flag("destroyed_last")
    attack.done()
    out: dict[str, Egyptian] = {}
    for t in doc.tables("egyptian", "egyptian"):
        cid, name, module = _header(t, "egyptian", ids)
        out[cid] = Egyptian(cid, name, module, t.integer("count", 1, 10),
                            _effect(t, "ability", refs), t.text("text"))
        t.done()
    doc.done()
    return out, price, per_turn, last


def _load_favors(doc: _Table, ids: _Ids, refs: _Refs
                 ) -> tuple[dict[str, Favor], dict[str, MagicItem], int, tuple[str, ...]]:
    priestess = doc.table("priestess")
    count, uses = priestess.integer("count", 0, 100), priestess.texts("uses", PRIESTESS_USES)
    priestess.done()
    favors: dict[str, Favor] = {}
    for t in doc.tables("favor", "favor"):
        cid, name, module = _header(t, "favor", ids)
        favors[cid] = Favor(cid, name, module, t.choice("grants", GRANTS),
                            _effect(t, "power", refs), t.text("text"))
        t.done()
    items: dict[str, MagicItem] = {}
    for t in doc.tables("magic_item", "magic_item"):
        cid, name, module = _header(t, "magic_item", ids)
        items[cid] = MagicItem(cid, name, module, _effect(t, "effect", refs),
                               t.text("text"))
        t.done()
    doc.done()
    return favors, items, count, uses


def _load_monuments(doc: _Table, ids: _Ids, refs: _Refs, buildings: Mapping[str, Building]
                    ) -> dict[str, Monument]:
    by_colour = {b.colour: b for b in buildings.values()}
    eligible = sorted(b.colour for b in buildings.values() if b.monument)
    out: dict[str, Monument] = {}
    pairs: dict[tuple[str, ...], str] = {}
    for t in doc.tables("monument", "monument"):
        cid, name, module = _header(t, "monument", ids)
        colours = t.texts("requires")
        if t.has("requires") and isinstance(t.data["requires"], list) and len(colours) != 2:
            t.problem("requires", f"names {len(colours)} colours; a Monument needs two "
                      "buildings (Misc Monuments 1)")
        for colour in colours:
            building = by_colour.get(colour)
            if building is None:
                t.problem("requires", f"{colour!r} is not the colour of a building in "
                          "buildings.toml", "colours are " + ", ".join(eligible))
            elif not building.monument:
                t.problem("requires", f"{colour!r} is the {building.name}'s colour, which "
                          "cannot count for a Monument" + (" (Misc Monuments 1: never a "
                                                          "Theater)" if building.id ==
                                                          "theater" else ""),
                          "colours are " + ", ".join(eligible))
        key = tuple(sorted(colours))
        if len(key) == 2 and key in pairs:
            t.problem("requires", f"is the same pair as monument {pairs[key]!r}")
        elif len(key) == 2:
            pairs[key] = cid
        first, second = (*key, "", "")[:2]
        out[cid] = Monument(cid, name, module, (first, second), _effect(t, "power", refs),
                            t.text("text"))
        t.done()
    doc.done()
    return out


def _load_metropolises(doc: _Table, ids: _Ids, refs: _Refs
                       ) -> tuple[dict[str, SpecialMetropolis], int]:
    setup = doc.table("setup")
    face_up = setup.integer("face_up", 0, 10)
    setup.done()
    out: dict[str, SpecialMetropolis] = {}
    for t in doc.tables("metropolis", "metropolis"):
        cid, name, module = _header(t, "metropolis", ids)
        out[cid] = SpecialMetropolis(cid, name, module, _effect(t, "power", refs),
                                     t.text("text"))
        t.done()
    doc.done()
    if out and face_up > len(out):
        doc.problem("[setup] face_up", f"is {face_up} but there are only {len(out)} cards")
    return out, face_up


def _load_supplies(doc: _Table) -> tuple[Supplies, Track, int, int]:
    start = doc.table("start")
    start_items = {item: start.integer(item, 0, 100) for item in START_ITEMS}
    start.done()
    pieces = doc.table("pieces")
    piece_items = {item: pieces.integer(item, 0, 100) for item in PIECE_ITEMS}
    pieces.done()
    limited_table = doc.table("limited")
    limited: dict[str, Mapping[str, int]] = {}
    for item in list(limited_table.data):
        if item not in SUPPLY_ITEMS:
            continue  # reported as an unknown key by done()
        limited[item] = _frozen(limited_table.counts(item, MODULES, low=1))
    limited_table.done()
    unlimited_table = doc.table("unlimited")
    unlimited = unlimited_table.texts("items", SUPPLY_ITEMS)
    for item in unlimited:
        if item in limited:
            unlimited_table.problem("items", f"{item!r} is also in [limited]; a supply is "
                                    "either limited or unlimited (Forgotten 7)")
    unlimited_table.done()
    die_table = doc.table("die")
    die = die_table.integers("faces", 0, 20)
    die_table.done()
    track_table = doc.table("track")
    prices = track_table.integers("prices", 0, 100)
    kinds_table = track_table.table("kinds")
    kinds: dict[str, KindRules] = {}
    for kind in TRACK_KINDS:
        k = kinds_table.table(kind)
        kinds[kind] = KindRules(k.flag("temple_discount"), k.flag("zeus_swappable"),
                                k.flag("removed_not_discarded"))
        k.done()
    kinds_table.done()
    track_table.done()
    titan = doc.table("titan_move")
    base, step = titan.integer("base", 0, 100), titan.integer("step", 0, 100)
    titan.done()
    doc.done()
    supplies = Supplies(_frozen(start_items), _frozen(piece_items), _frozen(limited), unlimited,
                        die)
    return supplies, Track(prices, _frozen(kinds)), base, step


# --- loading everything ------------------------------------------------------------------------


def _read_all(folder: Path, problems: _Problems) -> dict[str, _Table | None]:
    return {name: _read(problems, folder, name) for name in FILES}


def load_uncached(folder: Path = DATA) -> Components:
    """Read and check every data file in ``folder`` (see :func:`load`, which caches)."""
    problems = _Problems()
    docs = _read_all(folder, problems)

    def doc(name: str) -> _Table:
        # An unreadable file was reported once; read it as empty into a discarded list so
        # that its missing tables are not reported again.
        found = docs[name]
        return found if found is not None else _Table(_Problems(), name, "", {})

    ids, refs = _Ids(), _Refs()
    buildings = _load_buildings(doc("buildings.toml"), ids)
    gods, hades_dice, hades_threshold = _load_gods(doc("gods.toml"), ids, refs, buildings)
    creatures, lasts, retain, replacing = _load_creatures(doc("creatures.toml"), ids, refs)
    heroes, upkeep_gold, upkeep_priestess, same_turn = _load_heroes(doc("heroes.toml"), ids,
                                                                    refs)
    artifacts, victory = _load_artifacts(doc("artifacts.toml"), ids, refs)
    egyptians, attack_price, per_turn, last = _load_egyptians(doc("egyptians.toml"), ids, refs)
    favors, items, priestesses, uses = _load_favors(doc("favors.toml"), ids, refs)
    monuments = _load_monuments(doc("monuments.toml"), ids, refs, buildings)
    metropolises, face_up = _load_metropolises(doc("metropolises.toml"), ids, refs)
    supplies, track, titan_base, titan_step = _load_supplies(doc("supplies.toml"))

    # Cross-file references are judged only once every file has been read: a file that
    # cannot be read would make every reference into it look dangling.
    if all(d is not None for d in docs.values()):
        for t, key, cid in refs.ids:
            if cid not in ids.owner:
                t.problem(key, f"{cid!r} is not the id of any component")
        for t, cid in replacing:
            if cid not in creatures:
                t.problem("replaces", f"{cid!r} is not a creature of creatures.toml")
    if problems.items:
        raise ComponentDataError(problems.items)

    rules = Rules(hades_dice, hades_threshold, lasts, retain, upkeep_gold, upkeep_priestess,
                  same_turn, victory, attack_price, per_turn, last, priestesses, uses, face_up,
                  titan_base, titan_step)
    return Components(_frozen(gods), _frozen(buildings), _frozen(creatures), _frozen(heroes),
                      _frozen(artifacts), _frozen(egyptians), _frozen(favors), _frozen(items),
                      _frozen(monuments), _frozen(metropolises), track, supplies, rules,
                      _authored(folder))


def _authored(folder: Path) -> frozenset[str]:
    """The card kinds whose file carries an :data:`AUTHORED_MARK` line (the files were read
    once already, so they exist)."""
    marked = {name for name in set(CARD_FILES.values())
              if any(line.startswith(AUTHORED_MARK) for line in
                     (folder / name).read_text(encoding="utf-8").splitlines())}
    return frozenset(kind for kind, name in CARD_FILES.items() if name in marked)


@cache
def load(folder: Path = DATA) -> Components:
    """The components in ``folder`` (the built-in data by default), read and checked once per
    process and folder. Raises :class:`ComponentDataError` listing every problem found."""
    return load_uncached(folder)

"""One player's action turn (Cycle 8): the context every action rule shares, and the small
reads and writes of the state they all need.

The action modules (``actions.py``, ``warfare.py``, ``creatures.py``, ``effects.py``,
``metropolis.py``) work on one :class:`Turn`: the components, the board, the state (changed in
place), whose turn it is, the dice, the player's standing orders for the battles they start,
the events written so far (public, and private per player) and what this turn has used up
(recruits counted for the god's price schedule, Temples used for the creature discount, Heroes
bought this turn, Egyptian special attacks, one-time powers armed by a magic item or favor).

Reads of *lasting* powers are here too, because battles, prices and income all ask them: the
powers of the artifacts, monuments and special Metropolises a player holds (their cards, in
``hands``), and the powers of creature figures where they stand (``figures``). Interpretations
(also in ``docs/games/cyclades-actions.md``):

* a lasting power counts while its owner holds the card: artifacts, monuments and special
  Metropolis cards change hands with the territory they stand on (Misc Special Metropolis 1,
  and by the same reading artifacts and monuments);
* ``territory_defence`` helps the defender of the territory where its source stands (a figure,
  an artifact, a monument, a special Metropolis), whoever owns the source;
* gold is behind the screen (Cycle 2.2): every change of a player's gold is a *private* event
  of that player carrying the new total; public events carry only what the table sees (prices
  paid for god actions and track cards).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.core.dice import Rng
from pbem.games.cyclades.components import Components, Effect
from pbem.games.cyclades.maps import Board
from pbem.games.cyclades.state import State, allies, income, sea_units, territories_of

Event = dict[str, Any]

#: Land-unit keys of a territory record and the battle kind each one fights as.
LAND_COUNT_KINDS = {"troops": "troop", "undead": "undead", "titans": "titan"}


@dataclass
class Turn:
    """The context of one action turn (or of the Apollo step): see the module docstring."""

    c: Components
    board: Board
    state: State
    player: str
    god: str
    pillar: str
    rng: Rng
    attack: Mapping[str, Any] = field(default_factory=dict)   # act [attack] standing orders
    metropolis_pref: tuple[str, ...] = ()                      # act `metropolis`
    special_pref: tuple[str, ...] = ()                         # act `special_metropolis`
    public: list[Event] = field(default_factory=list)
    private: dict[str, list[Event]] = field(default_factory=dict)
    recruited: int = 0            # units recruited this turn, the free one included (8.3)
    temples_used: int = 0         # Temple discounts spent this turn (Cycle 8.4.1)
    bought: set[str] = field(default_factory=set)          # track cards bought this turn
    egyptian_attacks: dict[str, int] = field(default_factory=dict)
    titan_moves: int = 0          # Titan moves paid this turn (Misc Titans 1)
    free_moves: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # one-time
    lasting_free_used: bool = False   # the once-a-turn free move of a lasting power
    armed: list[tuple[str, Effect]] = field(default_factory=list)  # one-time powers armed
    over: bool = False            # the game ended in this turn (Victory 2): stop acting

    # --- events ---------------------------------------------------------------------------

    def say(self, type_: str, rule: str, text: str, **fields: Any) -> Event:
        """A public event."""
        event: Event = {"type": type_, "rule": rule, "text": text, **fields}
        self.public.append(event)
        return event

    def tell(self, who: str, type_: str, rule: str, text: str, **fields: Any) -> Event:
        """A private event only ``who`` sees."""
        event: Event = {"type": type_, "rule": rule, "text": text, **fields}
        self.private.setdefault(who, []).append(event)
        return event

    # --- gold (Cycle 2.2: behind the screen) ----------------------------------------------

    def gold(self, player: str | None = None) -> int:
        return int(self.state["gold"].get(player or self.player, 0))

    def can_pay(self, amount: int) -> bool:
        return self.gold() >= amount

    def pay(self, amount: int, why: str, rule: str) -> bool:
        """The acting player pays ``amount`` to the bank; False (nothing paid) if they cannot:
        gold never goes below 0."""
        if amount < 0:
            raise ValueError("a payment is never negative")
        if self.gold() < amount:
            return False
        if amount:
            self.state["gold"][self.player] = self.gold() - amount
            self.tell(self.player, "gold", rule, f"You pay {amount} gold for {why}; you have "
                      f"{self.gold()} gold.", player=self.player, change=-amount,
                      gold=self.gold(), why=why)
        return True

    def gain(self, player: str, amount: int, why: str, rule: str) -> None:
        """``player`` takes ``amount`` gold (negative: loses it, never below 0); private."""
        before = self.gold(player)
        after = max(0, before + amount)
        self.state["gold"][player] = after
        if after != before:
            verb = "gain" if after > before else "lose"
            self.tell(player, "gold", rule, f"You {verb} {abs(after - before)} gold ({why}); "
                      f"you have {after} gold.", player=player, change=after - before,
                      gold=after, why=why)

    # --- shortcuts ------------------------------------------------------------------------

    @property
    def hand(self) -> dict[str, Any]:
        return hand_of(self.state, self.player)

    def territory(self, tid: str) -> dict[str, Any]:
        return dict_of(self.state["territories"], tid)

    def sea(self, sid: str) -> dict[str, Any]:
        return dict_of(self.state["seas"], sid)

    def owner(self, tid: str) -> str:
        return str(self.state["territories"][tid]["owner"])

    def enemy(self, other: str) -> bool:
        return is_enemy(self.state, self.player, other)


def dict_of(table: dict[str, Any], key: str) -> dict[str, Any]:
    value = table[key]
    assert isinstance(value, dict)
    return value


def hand_of(state: State, player: str) -> dict[str, Any]:
    return dict_of(state["hands"], player)


def is_enemy(state: State, player: str, other: str) -> bool:
    """Whether ``other`` is an opponent of ``player``: another player, not a teammate (Team 4:
    no attacking allies)."""
    return bool(other) and other != player and other not in allies(state, player)


def own_fleet_seas(state: State, player: str) -> list[str]:
    """The seas holding ``player``'s fleets or undead fleets: the chain troops cross (base
    rules, Ares; teammates' fleets do not count, Team 4)."""
    return sorted(s for s, x in state["seas"].items() if x["owner"] == player and sea_units(x))


# --- pieces -----------------------------------------------------------------------------------


def on_board(state: State, player: str, kind: str) -> int:
    """How many of ``player``'s ``kind`` pieces (troop, titan, fleet) stand on the board."""
    if kind == "fleet":
        return sum(int(x["fleets"]) for x in state["seas"].values() if x["owner"] == player)
    key = {"troop": "troops", "titan": "titans"}[kind]
    return sum(int(x[key]) for x in state["territories"].values() if x["owner"] == player)


def reserve(c: Components, state: State, player: str, kind: str) -> int:
    """How many more ``kind`` pieces may come on the board for ``player``: their own pieces
    (troop, fleet, titan: ``supplies.toml [pieces]``) or, for undead troops and fleets, the
    shared limited supply of the Hades box (``[limited]``)."""
    if kind in ("undead_troop", "undead_fleet"):
        total = c.supplies.limited_count(kind, state["game"].get("modules") or ()) or 0
        if kind == "undead_troop":
            used = sum(int(x["undead"]) for x in state["territories"].values())
        else:
            used = sum(int(x["undead_fleets"]) for x in state["seas"].values())
        return max(0, total - used)
    return max(0, int(c.supplies.pieces[kind]) - on_board(state, player, kind))


# --- lasting powers ---------------------------------------------------------------------------


def lasting_powers(c: Components, state: State, player: str) -> list[tuple[str, Effect]]:
    """The lasting powers ``player`` holds, as (card id, effect): artifacts (Misc Artifacts and
    Heroes 3), monuments (Misc Monuments) and special Metropolis cards (Misc Special
    Metropolis 1). Location powers (``territory_defence``) are read by
    :func:`territory_defence` instead."""
    hand = hand_of(state, player)
    out: list[tuple[str, Effect]] = []
    out += [(a, c.artifacts[a].power) for a in hand["artifacts"] if a in c.artifacts]
    out += [(m, c.monuments[m].power) for m in hand["monuments"] if m in c.monuments]
    out += [(s, c.metropolises[s].power) for s in hand["metropolises"] if s in c.metropolises]
    return out


def power_total(c: Components, state: State, player: str, kind: str, **match: str) -> int:
    """The sum of ``amount`` over ``player``'s lasting powers of ``kind`` whose keys equal
    ``match`` (e.g. ``recruit_discount`` for ``unit="fleet"``)."""
    total = 0
    for _, effect in lasting_powers(c, state, player):
        if effect.kind == kind and all(effect.get(k) == v for k, v in match.items()):
            total += effect.number("amount")
    return total


def battle_bonuses(c: Components, state: State, player: str, where: str, side: str
                   ) -> list[tuple[str, int]]:
    """(card id, amount) of ``player``'s lasting ``battle_bonus`` powers for a battle on
    ``where`` (land or sea) fought on ``side`` (attack or defence); "both" counts on each."""
    return [(cid, e.number("amount")) for cid, e in lasting_powers(c, state, player)
            if e.kind == "battle_bonus" and e.text("where") == where
            and e.text("side") in (side, "both")]


def figure_effect(c: Components, fid: str) -> Effect:
    return c.creatures[fid].effect


def figures_at(state: State, space: str) -> list[str]:
    """The creature figures standing on territory or sea ``space``, sorted."""
    return sorted(f for f, x in state["figures"].items() if x["where"] == space)


def figures_of_kind(c: Components, state: State, kind: str) -> list[tuple[str, str]]:
    """(figure id, where) of every figure on the board whose effect is ``kind``."""
    return sorted((f, str(x["where"])) for f, x in state["figures"].items()
                  if f in c.creatures and figure_effect(c, f).kind == kind)


def territory_defence(c: Components, state: State, territory: str) -> list[tuple[str, int]]:
    """(source id, amount) of every ``territory_defence`` power standing on ``territory``: a
    figure (Minotaur), an artifact (Aegis), a monument, a special Metropolis there."""
    out: list[tuple[str, int]] = []
    for f in figures_at(state, territory):
        e = figure_effect(c, f) if f in c.creatures else None
        if e is not None and e.kind == "territory_defence":
            out.append((f, e.number("amount")))
    t = state["territories"][territory]
    for a in t["artifacts"]:
        if a in c.artifacts and c.artifacts[a].power.kind == "territory_defence":
            out.append((a, c.artifacts[a].power.number("amount")))
    for m in t["monuments"]:
        if m in c.monuments and c.monuments[m].power.kind == "territory_defence":
            out.append((m, c.monuments[m].power.number("amount")))
    for s, where in sorted(special_sites(state).items()):
        if where == territory and c.metropolises[s].power.kind == "territory_defence":
            out.append((s, c.metropolises[s].power.number("amount")))
    return out


def special_sites(state: State) -> dict[str, str]:
    """Special Metropolis card -> the territory of its Metropolis tile (a layout addition:
    ``state["metropolises"]["where"]``, read with a default so older states still work)."""
    where = state["metropolises"].get("where", {})
    assert isinstance(where, dict)
    return where


def pinned(c: Components, state: State, territory: str) -> bool:
    """Medusa (``pin_troops``): units on her territory may not leave it."""
    return any(w == territory for _, w in figures_of_kind(c, state, "pin_troops"))


def repelled_seas(c: Components, board: Board, state: State) -> set[str]:
    """Polyphemus (``repel_fleets``): the seas next to his territory, which no fleet enters."""
    out: set[str] = set()
    for _, where in figures_of_kind(c, state, "repel_fleets"):
        if where in board.territories:
            out.update(board.seas_of(where))
    return out


def kraken_seas(c: Components, state: State) -> set[str]:
    """The Kraken (``destroy_fleets_in_sea``): every fleet in its sea is destroyed."""
    return {w for _, w in figures_of_kind(c, state, "destroy_fleets_in_sea")}


def shielded(c: Components, state: State, territory: str, source: str = "") -> bool:
    """Chiron (``block_island``): his territory cannot be attacked (``source`` empty), nor be
    the target of the cards his ``immune`` list names."""
    for f, where in figures_of_kind(c, state, "block_island"):
        if where == territory and (not source or source in figure_effect(c, f).names("immune")):
            return True
    return False


def income_of(c: Components, board: Board, state: State, player: str) -> int:
    """A player's income (Cycle 2.1) with every power that changes it: the prosperity they
    control (``state.income``), their lasting ``income_bonus`` powers (Golden Fleece, a
    monument, a special Metropolis), and Cerberus (``divert_income``): the figure's owner
    collects its territory's prosperity instead of the territory's owner. The Fates repeat
    this; ``cycle.py`` should use it for step 2 too."""
    total = income(board, state, player)
    for f, where in figures_of_kind(c, state, "divert_income"):
        if where not in state["territories"]:
            continue
        amount = board.territory(where).prosperity + int(state["territories"][where]["prosperity"])
        owner = state["territories"][where]["owner"]
        holder = state["figures"][f]["owner"]
        if owner == player and holder != player:
            total -= amount
        elif holder == player and owner != player:
            total += amount
    return max(0, total + power_total(c, state, player, "income_bonus"))


# --- places -----------------------------------------------------------------------------------


def fleet_place_problem(c: Components, board: Board, state: State, player: str,
                        sea: str) -> str:
    """Why ``player`` may not put a new fleet on ``sea`` ("" if they may): base rules, a
    recruited fleet goes on a sea next to one of your territories, not among enemy (nor,
    Team 4, allied) fleets; nor into Polyphemus's seas nor the Kraken's."""
    if sea not in board.seas:
        return f"{sea} is not a sea space of this board"
    mine = set(territories_of(state, player))
    if not mine.intersection(board.territories_of(sea)):
        return f"{sea} touches none of your territories"
    holder = state["seas"][sea]["owner"]
    if holder and holder != player and sea_units(state["seas"][sea]):
        return f"{sea} holds {holder}'s fleets"
    if sea in repelled_seas(c, board, state):
        return f"Polyphemus keeps every fleet out of {sea}"
    if sea in kraken_seas(c, state):
        return f"the Kraken is in {sea}"
    return ""


def own_territory_problem(state: State, player: str, territory: str) -> str:
    if territory not in state["territories"]:
        return f"{territory} is not a territory of this board"
    if state["territories"][territory]["owner"] != player:
        return f"{territory} is not yours"
    return ""


def necropolis_site(state: State) -> str:
    """The territory holding the Necropolis tile, or "" (Misc Necropolis)."""
    for tid, t in sorted(state["territories"].items()):
        if "necropolis" in t["buildings"]:
            return str(tid)
    return ""


def add_necropolis_gold(t: Turn, slain: int, why: str) -> None:
    """Misc Necropolis 2: one gold on the Necropolis tile per regular Troop slain (not
    creatures, heroes, undead, Titans nor Egyptians). The coins on the tile are public."""
    site = necropolis_site(t.state)
    if slain <= 0 or not site:
        return
    tt = t.territory(site)
    tt["necropolis_gold"] = int(tt["necropolis_gold"]) + slain
    t.say("necropolis_gold", "Misc Necropolis 2", f"{slain} gold is placed on the Necropolis "
          f"at {site} ({why}).", territory=site, added=slain, total=tt["necropolis_gold"])


# --- removing figures and cards ---------------------------------------------------------------


def remove_from_hands(state: State, key: str, cid: str) -> str:
    """Take card ``cid`` out of whichever hand's ``key`` list holds it; its holder or ""."""
    for player, hand in sorted(state["hands"].items()):
        if cid in hand[key]:
            hand[key].remove(cid)
            return str(player)
    return ""


def kill_hero(state: State, hero: str) -> None:
    """A Hero dies (battle, creature): figure and card leave the game, never the discard pile
    (Misc Artifacts and Heroes 1); a dead Hero can no longer be sacrificed (5)."""
    for t in state["territories"].values():
        if hero in t["heroes"]:
            t["heroes"].remove(hero)
    remove_from_hands(state, "heroes", hero)
    state["creature_track"]["removed"].append(hero)


def kill_egyptian(state: State, egyptian: str) -> None:
    """An Egyptian Reinforcement dies: its figure leaves and its card goes to the discard pile
    (it is not removed from the game like heroes: ``supplies.toml [track.kinds.egyptian]``)."""
    for t in state["territories"].values():
        if egyptian in t["egyptians"]:
            t["egyptians"].remove(egyptian)
    remove_from_hands(state, "egyptians", egyptian)
    state["creature_track"]["discard"].append(egyptian)


def move_card(state: State, key: str, cid: str, to: str) -> str:
    """Move card ``cid`` of hand list ``key`` to ``to``'s hand; the previous holder."""
    before = remove_from_hands(state, key, cid)
    hand_of(state, to)[key].append(cid)
    return before


def names(items: Iterable[str]) -> str:
    listed = list(items)
    return ", ".join(listed) if listed else "none"

"""The Battle Phase of Grecos (BATTLE PHASE, Battle 1-13) and the Event cards played in battle.

:func:`fight` resolves one battle between two stacks standing next to each other, to the death
(Battle 10: "This repeats until one side is completely eliminated"); nothing moves (analysis
5.1 item 10: the winner does not advance). What the caller checks before (Battle 1-3: the
stacks are adjacent and each stack starts one battle a turn) is not checked here.

Rounds (Battle 4-10, analysis 5.1 item 8). In each round every unit of both stacks attacks once,
one unit of each side in turn, the active player's (the attacker's) first; when one side has no
unit left to attack this round, the other's remaining units attack one after the other. Each
side's units attack in its attack order (``Side.order``), made again at the start of every
round. An attack is one d6 (label ``<label>/r<round>/<slot>/<unit id>``, the slot counted over
both sides); a roll at or under the unit's Force hits (Battle 6; Force 6 or more always hits),
and the enemy unit first in ITS controller's casualty order (``Side.casualties``, made again at
each hit: Battle 7 "The defender decides which of his units is hit") loses 1 hit at once; at 0
hits it is destroyed (Battle 8) and deleted from ``state["units"]``. A unit destroyed before
its slot does not attack. The battle ends when one side has no unit left (Battle 10).

- Battle 11: a Women unit attacking a side that holds a Men unit gets Force +1 (either side:
  analysis 5.1 item 21).
- Battle 13: the Hydra's Force is 3 + the hits it has lost, damage from earlier battles
  included; healing lowers it again.
- Battle 12 ("Instead of having a unit attack, you may play an Event card"): a
  :class:`CardPlay` for round N is played in the player's first slot of round N, and the unit
  whose slot it is does not attack in that round (it keeps an extra attack a card gives it,
  analysis 5.1 item 5). Ruling: several cards for one round are played in the player's
  successive slots of that round, one a slot; a card skipped (not held, wrong target) does not
  use the slot: the next card of that round is tried, then the unit attacks. A card for a round
  in which the player has no slot left, or that the battle does not reach, is not played (it
  stays in the hand) and an event says so.
- Every card played goes from ``state["hands"]`` to ``state["discard"]``; ``negate(card,
  player)`` is then asked (Deck 24, The Fates): a player named there cancels it (the caller
  moves his The Fates), and the card has no effect.
- Card effects in battle: ``extra_attack`` (Deck 4-6, 8, 10-12, 14-15, 21): each unit of the
  player's side matching the card (keyword, "Abyss"/"Forest" units, Trojan Horse: every unit of
  the player's own stack, which must be the target) gets one more attack this round, after his
  normal attack order. Ruling (analysis 5.1 item 4): only the player's units, the enemy's Men
  get nothing from Zeus. ``force_bonus`` (Deck 13 Ares): the player's units Force +1 for the
  rest of this battle (kept here: not in ``state["effects"]``, which lasts a turn and would
  carry it into the next battle). ``heal`` (Deck 16, 25, 30): the units fighting for the player
  back to full hits. ``betrayal`` (Deck 18, analysis 5.1 item 14): the target enemy unit fights
  for the player until the battle ends (it attacks for him this round if it had not attacked
  yet; hits on it are his to assign), then returns to its owner if alive. ``no_attack``
  (Deck 28-29, Wine, Lotus): the enemy stack's units go into ``state["effects"]["no_attack"]``
  and roll nothing for the rest of the turn (analysis 5.1 item 7). A ``no_attack`` unit keeps
  its slot (a card may be played in it) but rolls no die.
- ``--option materials=on`` (materials.py, Golem 1-16; nothing with it off): the units'
  Force changes (Ice, Gold, Sand, Clockwork, Salt) in each attack, the Basalt units' extra
  attacks before round 1 (:meth:`_Battle.first_strikes`) and Stone's Hits +1 (the Hydra, heals).
- Guard: a round in which no unit of either side can attack ends the battle with both stacks
  in place and no winner; so does, as a safety net, round :data:`MAX_ROUNDS` (authored; with
  real dice a battle that long does not happen).

The standing policy plays the defender's cards (:func:`defender_cards`): the first card of its
``battle_cards`` that he holds and that is useful when his first slot of round 1 comes (a heal
card while one of his units has lost a hit, Ares always, an extra attack while a unit of his
matches, Wine or Lotus while an enemy unit can still attack, Betrayal on the attacker's
strongest unit); one card at most (the policy's "in my first slot").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.dice import Stream
from pbem.games.grecos import materials
from pbem.games.grecos.components import Card, Components
from pbem.games.grecos.policy import DEFAULT as POLICY_DEFAULT

State = dict[str, Any]
Event = dict[str, Any]
#: ``negate(card_id, player_who_played) -> player who negates it with The Fates, or ""``.
Negate = Callable[[str, str], str]

#: The effects a card may have when played in battle (Battle 12); the others are refused.
BATTLE_EFFECTS = frozenset({"extra_attack", "force_bonus", "heal", "betrayal", "no_attack"})
HYDRA = "hydra"
#: Safety net: the battle stops after this many rounds, nobody winning (authored).
MAX_ROUNDS = 200


@dataclass(frozen=True)
class CardPlay:
    """An Event card played instead of an attack (Battle 12) in round ``round``.

    ``target``: a square (Trojan Horse, heal: the player's own stack; Wine, Lotus: the enemy
    stack; "" means that stack) or a unit id (Betrayal). ``if_useful``: a card of the standing
    policy, played only when useful (see :func:`defender_cards`).
    """

    card: str
    round: int = 1
    target: str = ""
    if_useful: bool = False


@dataclass
class Side:
    """One side of a battle: its player, its units (ids), its attack order and casualty order
    (unit ids or kinds, a kind meaning its units lowest id first; units not named follow by the
    default rules, :func:`attack_order`, :func:`casualty_order`) and the cards it plays."""

    player: str
    units: list[str]
    order: list[str] = field(default_factory=list)
    casualties: list[str] = field(default_factory=list)
    cards: list[CardPlay] = field(default_factory=list)


@dataclass
class BattleResult:
    events: list[Event]
    destroyed: list[str]
    winner: str


# --- orders and policies -------------------------------------------------------------------

def _uid_key(uid: str) -> tuple[int, str]:
    return (int(uid), uid) if uid.isdigit() else (1 << 62, uid)


def force(c: Components, unit: Mapping[str, Any]) -> int:
    """A unit's own Force: its kind's, and the Hydra's +1 per hit lost (Battle 13)."""
    kind = c.units[unit["kind"]]
    full = kind.hits + materials.hits_bonus(unit)  # Golem 3, Stone (materials=on only)
    bonus = max(0, full - int(unit["hits"])) if unit["kind"] == HYDRA else 0
    return kind.force + bonus


def expand(state: State, units: Sequence[str], names: Sequence[str],
           rest: Callable[[str], Any]) -> list[str]:
    """``units`` in the order ``names`` gives (unit ids, or kinds: the units of that kind,
    lowest id first), then the units not named, sorted by ``rest``."""
    out: list[str] = []
    for name in names:
        if name in units:
            if name not in out:
                out.append(name)
            continue
        out += [u for u in sorted(units, key=_uid_key)
                if state["units"][u]["kind"] == name and u not in out]
    return out + sorted((u for u in units if u not in out), key=rest)


def attack_order(c: Components, state: State, units: Sequence[str],
                 names: Sequence[str]) -> list[str]:
    """Battle 5: the order ``names`` gives, then the others highest Force first, then id."""
    return expand(state, units, names,
                  lambda u: (-force(c, state["units"][u]), _uid_key(u)))


def casualty_order(c: Components, state: State, units: Sequence[str],
                   names: Sequence[str]) -> list[str]:
    """Battle 7: the order ``names`` gives, then the others lowest Force first, then fewest
    hits left, then id (the first takes the next hit)."""
    return expand(state, units, names,
                  lambda u: (force(c, state["units"][u]), int(state["units"][u]["hits"]),
                             _uid_key(u)))


def _stack(state: State, player: str, square: str) -> list[str]:
    return sorted((u for u, x in state["units"].items()
                   if x["square"] == square and x["owner"] == player), key=_uid_key)


def _names(raw: object) -> list[str]:
    return [str(x) for x in raw] if isinstance(raw, list) else []


def parse_side_orders(c: Components, state: State, player: str,
                      raw: Mapping[str, Any]) -> Side:
    """The attacker's :class:`Side` from one ``[[orders.battle]]`` table (already checked at
    submit): every unit of ``player`` on ``from`` as the positions are now, ``order``,
    ``casualties`` and the ``[[orders.battle.card]]`` plays (a bad round becomes 0: never
    played, said in an event)."""
    cards: list[CardPlay] = []
    raw_cards = raw.get("card", [])
    for x in raw_cards if isinstance(raw_cards, list) else []:
        if isinstance(x, Mapping):
            rnd = x.get("round", 1)
            ok = isinstance(rnd, int) and not isinstance(rnd, bool)
            cards.append(CardPlay(str(x.get("card", "")), rnd if ok else 0,
                                  str(x.get("target", ""))))
    return Side(player, _stack(state, player, str(raw.get("from", ""))),
                _names(raw.get("order")), _names(raw.get("casualties")), cards)


def policy_side(c: Components, state: State, player: str, square: str) -> Side:
    """The defender's :class:`Side` from his standing policy (``[orders.defend]``): his units
    on ``square``, his ``order`` and ``casualties`` and the cards of :func:`defender_cards`."""
    policy = {**POLICY_DEFAULT, **state.get("policy", {}).get(player, {})}
    return Side(player, _stack(state, player, square), _names(policy["order"]),
                _names(policy["casualties"]), defender_cards(c, state, player, square))


def defender_cards(c: Components, state: State, player: str, stack: str) -> list[CardPlay]:
    """The cards ``player``'s standing policy (``battle_cards``) may play in a battle he
    defends with his stack on ``stack``: those he holds, in the policy's order, for round 1,
    each ``if_useful``; :func:`fight` plays the first that is useful at his first slot, and no
    other (Battle 12). Targets: heal and Trojan Horse his own stack; Wine and Lotus the
    attacking stack; Betrayal the attacker's strongest unit when played."""
    policy = {**POLICY_DEFAULT, **state.get("policy", {}).get(player, {})}
    hand = list(state.get("hands", {}).get(player, []))
    out: list[CardPlay] = []
    for cid in _names(policy.get("battle_cards")):
        card = c.cards.get(cid)
        if card is None or card.effect not in BATTLE_EFFECTS or cid not in hand:
            continue
        hand.remove(cid)
        own = card.effect == "heal" or (card.effect == "extra_attack" and card.keyword == "stack")
        out.append(CardPlay(cid, 1, stack if own else "", if_useful=True))
    return out


# --- the battle ----------------------------------------------------------------------------

def fight(c: Components, state: State, attacker: Side, defender: Side, stream: Stream,
          label: str, negate: Negate) -> BattleResult:
    """Resolve the battle of ``attacker`` (the active player) against ``defender`` to the end
    (Battle 4-13), changing ``state`` (hits, destroyed units, hands, discard, effects).

    Raises ValueError if a unit of a side is not in ``state["units"]`` or is on both sides.
    """
    return _Battle(c, state, attacker, defender, stream, label, negate).run()


class _Battle:
    def __init__(self, c: Components, state: State, attacker: Side, defender: Side,
                 stream: Stream, label: str, negate: Negate) -> None:
        self.c, self.state, self.stream, self.label, self.negate = c, state, stream, label, negate
        self.sides = (attacker, defender)
        self.players = (attacker.player, defender.player)
        self.control: dict[str, int] = {}
        for i, side in enumerate(self.sides):
            for u in side.units:
                if u not in state["units"]:
                    raise ValueError(f"unit {u!r} of {side.player} is not on the board")
                if u in self.control:
                    raise ValueError(f"unit {u!r} is on both sides")
                self.control[u] = i
        self.origin = dict(self.control)
        self.home = tuple(state["units"][s.units[0]]["square"] if s.units else ""
                          for s in self.sides)
        self.bonus = [0, 0]
        self.pending: list[list[CardPlay]] = [list(s.cards) for s in self.sides]
        self.queue: list[list[tuple[str, bool]]] = [[], []]
        self.used: set[str] = set()
        self.events: list[Event] = []
        self.destroyed: list[str] = []
        self.round = 0
        self.slot = 0

    # -- helpers ---------------------------------------------------------------------------
    def members(self, i: int) -> list[str]:
        return sorted((u for u, s in self.control.items() if s == i), key=_uid_key)

    def unit(self, uid: str) -> dict[str, Any]:
        unit: dict[str, Any] = self.state["units"][uid]
        return unit

    def name(self, uid: str) -> str:
        x = self.unit(uid)
        text = f"{x['owner']}'s {self.c.units[x['kind']].name} ({uid})"
        by = self.players[self.control[uid]]
        return text if by == x["owner"] else f"{text}, fighting for {by}"

    def names(self, uids: Sequence[str]) -> str:
        return ", ".join(self.name(u) for u in uids) or "nothing"

    def no_attack(self, uid: str) -> bool:
        return uid in self.state.get("effects", {}).get("no_attack", [])

    def emit(self, type_: str, rule: str, text: str, **more: Any) -> None:
        self.events.append({"type": type_, "rule": rule, "round": self.round, **more,
                            "text": text})

    # -- the procedure ---------------------------------------------------------------------
    def run(self) -> BattleResult:
        a, d = self.players
        self.emit("battle", "Battle 1-4", f"Battle: {a}'s stack on {self.home[0]} "
                  f"({self.names(self.members(0))}) attacks {d}'s stack on {self.home[1]} "
                  f"({self.names(self.members(1))}) (Battle 1-4).", attacker=a, defender=d,
                  attacker_square=self.home[0], defender_square=self.home[1],
                  attacker_units=self.members(0), defender_units=self.members(1))
        for i in (0, 1):
            for play in [p for p in self.pending[i] if p.round < 1]:
                self.pending[i].remove(play)
                self.skip(i, play, f"round {play.round} is not a round of a battle")
        stalled = False
        while self.members(0) and self.members(1):
            if self.round >= MAX_ROUNDS:
                stalled = True
                break
            self.round += 1
            if all(self.no_attack(u) for u in self.members(0) + self.members(1)):
                stalled = True
                break
            self.play_round()
        for i in (0, 1):
            for play in self.pending[i]:
                if not play.if_useful:
                    self.skip(i, play, f"the battle ended in round {self.round}, before "
                              "its slot came")
        self.give_back()
        return BattleResult([*self.events, self.end_event(stalled)], self.destroyed,
                            self.winner(stalled))

    def winner(self, stalled: bool) -> str:
        if stalled:
            return ""
        return self.players[0] if self.members(0) else self.players[1]

    def end_event(self, stalled: bool) -> Event:
        winner = self.winner(stalled)
        common = {"type": "battle-end", "rule": "Battle 10", "round": self.round,
                  "winner": winner, "destroyed": list(self.destroyed),
                  "attacker": self.players[0], "defender": self.players[1]}
        if stalled:
            why = ("no unit on either side can attack this turn (Deck 28-29)"
                   if self.round < MAX_ROUNDS else f"{MAX_ROUNDS} rounds were fought")
            return {**common, "text": f"The battle ends in round {self.round}: {why}; both "
                    "stacks stay in place and nobody wins."}
        loser = 1 - self.players.index(winner)
        return {**common, "text": f"{winner} wins the battle after {self.round} round"
                f"{'s' if self.round != 1 else ''}: no unit of {self.players[loser]}'s side "
                "is left (Battle 10)."}

    def play_round(self) -> None:
        r = self.round
        self.used = set()
        self.slot = 0
        self.queue = [[(u, False) for u in self.attack_order(i)] for i in (0, 1)]
        if r == 1 and materials.enabled(self.state):
            self.first_strikes()
        turn = 0
        while self.members(0) and self.members(1):
            i = turn if self.queue[turn] else 1 - turn
            if not self.queue[i]:
                break
            uid, extra = self.queue[i].pop(0)
            turn = 1 - i
            self.slot += 1
            if not extra:
                self.used.add(uid)
            if self.card_slot(i, uid):
                continue
            self.attack(i, uid, extra)
        if self.members(0) and self.members(1):
            for i in (0, 1):
                for play in [p for p in self.pending[i] if p.round == r]:
                    self.pending[i].remove(play)
                    if not play.if_useful:
                        self.skip(i, play, f"{self.players[i]} had no slot left in round {r}")

    def attack_order(self, i: int) -> list[str]:
        return attack_order(self.c, self.state, self.members(i), self.sides[i].order)

    def first_strikes(self) -> None:
        """Golem 13, Basalt (``--option materials=on``): an extra attack each before round 1."""
        for i, uid in materials.first_strikes(self.state, [self.attack_order(0),
                                                           self.attack_order(1)]):
            if self.control.get(uid) == i and self.members(1 - i):
                self.slot += 1
                self.emit("first-strike", "Golem 13", f"Basalt, Fireball: {self.name(uid)} "
                          "makes one extra attack at the beginning of the battle (Golem 13, "
                          "materials=on).", player=self.players[i], unit=uid)
                self.attack(i, uid, True)

    # -- attacks ---------------------------------------------------------------------------
    def attack(self, i: int, uid: str, extra: bool) -> None:
        r, s, player = self.round, self.slot, self.players[i]
        more = {"player": player, "unit": uid, "kind": self.unit(uid)["kind"], "slot": s,
                "extra": extra}
        what = "extra attack" if extra else "attack"
        if self.no_attack(uid):
            self.emit("no-attack", "Deck 28-29", f"Round {r}, slot {s}: {self.name(uid)} "
                      f"cannot attack this turn: no {what}.", **more)
            return
        value, notes = self.force_of(i, uid)
        roll = self.stream.d6(f"{self.label}/r{r}/{s}/{uid}")
        hit = value >= 6 or roll <= value
        head = (f"Round {r}, slot {s}: {self.name(uid)} ({what}) rolls {roll} against Force "
                f"{value}{notes}: ")
        if not hit:
            self.emit("attack", "Battle 6", head + "miss.", **more, roll=roll, force=value,
                      hit=False, victim="", hits_left=0, destroyed=False)
            return
        victim = casualty_order(self.c, self.state, self.members(1 - i),
                                self.sides[1 - i].casualties)[0]
        vname = self.name(victim)
        target = self.unit(victim)
        target["hits"] = int(target["hits"]) - 1
        left = target["hits"]
        if left <= 0:
            tail = f"hit; {vname} loses its last hit: destroyed (Battle 8)."
            self.destroy(victim)
        else:
            tail = f"hit; {vname} loses 1 hit, {left} left (Battle 7)."
            if target["kind"] == HYDRA:
                tail += f" The Hydra's Force is now {force(self.c, target)} (Battle 13)."
        self.emit("attack", "Battle 6", head + tail, **more, roll=roll, force=value, hit=True,
                  victim=victim, hits_left=max(0, left), destroyed=left <= 0)

    def force_of(self, i: int, uid: str) -> tuple[int, str]:
        x = self.unit(uid)
        kind = self.c.units[x["kind"]]
        value = force(self.c, x)
        notes: list[str] = []
        if value != kind.force:
            notes.append(f"Hydra +{value - kind.force}, Battle 13")
        if self.bonus[i]:
            value += self.bonus[i]
            notes.append(f"Ares +{self.bonus[i]}, Deck 13")
        if "women" in kind.keywords and any(
                "men" in self.c.units[self.unit(v)["kind"]].keywords
                for v in self.members(1 - i)):
            value += 1
            notes.append("Women attacking Men +1, Battle 11")
        for amount, note in materials.force_modifiers(  # Golem 6-15, materials=on only
                self.c, self.state, uid, self.members(i), self.members(1 - i),
                lambda u: force(self.c, self.unit(u))):
            value += amount
            notes.append(note)
        return value, f" ({'; '.join(notes)})" if notes else ""

    def destroy(self, uid: str) -> None:
        del self.state["units"][uid]
        del self.control[uid]
        self.queue = [[e for e in q if e[0] != uid] for q in self.queue]
        self.destroyed.append(uid)

    def give_back(self) -> None:
        """Betrayal (analysis 5.1 item 14): units alive return to their owner's side."""
        for uid in sorted(self.control, key=_uid_key):
            if self.control[uid] != self.origin[uid]:
                self.control[uid] = self.origin[uid]
                self.emit("betrayal-end", "Deck 18", f"The battle over, {self.name(uid)} "
                          "returns to its owner (Betrayal).", unit=uid,
                          player=self.unit(uid)["owner"])

    # -- cards -----------------------------------------------------------------------------
    def card_slot(self, i: int, uid: str) -> bool:
        """Play the next card of side ``i`` for this round in this slot; True if one was
        played (the slot's unit does not attack)."""
        while True:
            mine = [p for p in self.pending[i] if p.round == self.round]
            if not mine:
                return False
            play = mine[0]
            if play.if_useful:
                group = [p for p in mine if p.if_useful]
                for p in group:
                    self.pending[i].remove(p)
                chosen = next((p for p in group if self.held(i, p.card) and self.useful(i, p)),
                              None)
                if chosen is not None and self.play(i, uid, chosen):
                    return True
                continue
            self.pending[i].remove(play)
            if self.play(i, uid, play):
                return True

    def held(self, i: int, card: str) -> bool:
        return card in self.state.get("hands", {}).get(self.players[i], [])

    def matches(self, i: int, card: Card) -> list[str]:
        """The units of side ``i`` an extra-attack card gives an attack, in attack order."""
        out = []
        for u in self.attack_order(i):
            kind = self.c.units[self.unit(u)["kind"]]
            if card.keyword == "stack" or card.keyword in kind.keywords or (
                    card.terrain and kind.id in self.c.category_units(card.terrain)):
                out.append(u)
        return out

    def useful(self, i: int, play: CardPlay) -> bool:
        card = self.c.cards[play.card]
        if card.effect == "heal":
            return any(int(self.unit(u)["hits"]) < materials.max_hits(self.c, self.state, u)
                       for u in self.members(i))
        if card.effect == "extra_attack":
            return bool(self.matches(i, card))
        if card.effect == "no_attack":
            return any(not self.no_attack(u) for u in self.members(1 - i))
        return card.effect in ("force_bonus", "betrayal")

    def skip(self, i: int, play: CardPlay, why: str) -> None:
        card = self.c.cards.get(play.card)
        self.emit("card-skipped", "Battle 12", f"{self.players[i]}'s "
                  f"{card.name if card else repr(play.card)} is not played: {why}.",
                  player=self.players[i], card=play.card, target=play.target)

    def target_problem(self, i: int, card: Card, play: CardPlay) -> tuple[str, str]:
        """(why the target is wrong or "", the target made definite)."""
        own, enemy = self.home[i], self.home[1 - i]
        if card.effect == "heal" or (card.effect == "extra_attack" and card.keyword == "stack"):
            if play.target not in ("", own):
                return f"its target must be your own stack in this battle, on {own}", own
            return "", own
        if card.effect == "no_attack":
            if play.target not in ("", enemy):
                return f"its target must be the enemy stack in this battle, on {enemy}", enemy
            return "", enemy
        if card.effect == "betrayal":
            target = play.target
            if not target and play.if_useful:
                target = attack_order(self.c, self.state, self.members(1 - i), [])[0]
            if target not in self.members(1 - i):
                return (f"its target {target!r} is not a unit fighting against you in this "
                        f"battle ({', '.join(self.members(1 - i))})", target)
            return "", target
        return "", play.target

    def play(self, i: int, uid: str, play: CardPlay) -> bool:
        player, r, s = self.players[i], self.round, self.slot
        card = self.c.cards.get(play.card)
        if card is None:
            self.skip(i, play, "there is no such card")
            return False
        if card.effect not in BATTLE_EFFECTS:
            self.skip(i, play, f"{card.name} has no use in a battle (Battle 12)")
            return False
        if not self.held(i, card.id):
            self.skip(i, play, f"it is not in {player}'s hand")
            return False
        why, target = self.target_problem(i, card, play)
        if why:
            self.skip(i, play, why)
            return False
        self.state["hands"][player].remove(card.id)
        self.state.setdefault("discard", []).append(card.id)
        self.emit("battle-card", "Battle 12", f"Round {r}, slot {s}: {player} plays "
                  f"{card.name} ({card.text}) instead of the attack of {self.name(uid)} "
                  "(Battle 12).", player=player, card=card.id, target=target, slot=s,
                  unit=uid)
        by = self.negate(card.id, player)
        if by:
            self.emit("card-negated", "Deck 24", f"{by} negates {card.name} with The Fates: "
                      "it has no effect.", player=player, card=card.id, by=by)
            return True
        self.apply(i, card, target)
        return True

    def apply(self, i: int, card: Card, target: str) -> None:
        player = self.players[i]
        if card.effect == "extra_attack":
            units = self.matches(i, card)
            self.queue[i] += [(u, True) for u in units]
            self.emit("extra-attack", card_rule(self.c, card.id), f"{card.name}: "
                      f"{self.names(units) if units else 'no unit of ' + player} "
                      f"{'get' if units else 'gets'} an extra attack this round.",
                      player=player, card=card.id, units=units)
        elif card.effect == "force_bonus":
            self.bonus[i] += card.amount or 1
            self.emit("force-bonus", card_rule(self.c, card.id), f"{card.name}: the units "
                      f"fighting for {player} get Force +{self.bonus[i]} for the rest of this "
                      "battle.", player=player, card=card.id, bonus=self.bonus[i])
        elif card.effect == "heal":
            healed = []
            for u in self.members(i):
                full = materials.max_hits(self.c, self.state, u)  # Stone: Golem 3
                if int(self.unit(u)["hits"]) < full:
                    self.unit(u)["hits"] = full
                    healed.append(u)
            self.emit("heal", card_rule(self.c, card.id), f"{card.name}: "
                      f"{self.names(healed) if healed else 'no unit'} back to full hits.",
                      player=player, card=card.id, units=healed)
        elif card.effect == "betrayal":
            before = self.name(target)
            self.control[target] = i
            self.queue[1 - i] = [e for e in self.queue[1 - i] if e[0] != target]
            if target not in self.used:
                self.queue[i].append((target, False))
            self.emit("betrayal", card_rule(self.c, card.id), f"Betrayal: {before} fights "
                      f"for {player} until the battle ends.", player=player, card=card.id,
                      unit=target)
        elif card.effect == "no_attack":
            units = [u for u in self.members(1 - i) if self.unit(u)["square"] == target]
            effects = self.state.setdefault("effects", {})
            stopped = effects.setdefault("no_attack", [])
            stopped += [u for u in units if u not in stopped]
            self.emit("no-attack-card", card_rule(self.c, card.id), f"{card.name}: "
                      f"{self.names(units)} cannot attack this turn.", player=player,
                      card=card.id, units=units)


def card_rule(c: Components, card: str) -> str:
    """The clause id of a card: ``Deck <n>``, n its place in the deck's seed order."""
    return f"Deck {list(c.cards).index(card) + 1}"

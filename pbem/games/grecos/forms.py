"""Grecos order forms for one player, now (issue 14), built from the player's view alone.

The static forms ``orders/grecos/{join,recruit,war}.toml`` keep their prose and their keys
(``pbem check`` reads them, ``pbem form`` without a campaign prints them); they have no active
line, so a form sent back unchanged means no orders: the NMR default (recruit nothing; play,
move and fight nothing, the newest cards over the hand limit discarded).

With a view, :func:`form` heads the ``recruit`` and ``war`` forms with :func:`situation` (the
turn and round, the player's units by square with terrain and hits, his pile with where each
chit may come into play, his hand with each card's text and when it is played, the enemy
stacks next to his, the City States held, his standing orders) and replaces each commented
example by one built from the view:

- recruit: one ``[[orders.recruit]]`` per kind of chit in the pile that may come into play now
  (together legal too, in the order given);
- war: ``discard`` (only over the hand limit, Event 2), a ``[[orders.play]]`` of a card of
  the hand that does something now, a ``[[orders.move]]`` (:func:`movement.reach`), a
  ``[[orders.battle]]`` from a stack next to an enemy stack, or after a move that brings one
  next to it, with a ``[[orders.battle.card]]`` when a battle card of the hand is of use in
  it (Battle 12);
- both: ``[orders.defend]``, the player's standing orders as they stand, key for key.

Each example is kept only if :func:`turn.review` accepts it on a stand-in state made from the
view (:func:`bot.state_from_view`: what the view hides is never guessed); one that cannot be
legal now is replaced by a comment that says why. The join form has nothing of the player's to
show: it is the static form.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.ruleset import PhaseSpec
from pbem.games.grecos import bot, movement, recruit, turn
from pbem.games.grecos import policy as policy_mod
from pbem.games.grecos.components import Components
from pbem.games.grecos.events import HAND_LIMIT, TARGET, rule
from pbem.games.grecos.squares import SQUARES, adjacent, neighbours, order

State = dict[str, Any]
View = Mapping[str, Any]
#: One table of an example: its name ("" for the keys above every table, "move",
#: "battle.card" ...) and its keys in the form's order.
Table = tuple[str, dict[str, Any]]
#: A battle example: (strength ratio, the move before it or None, the battle, the ids
#: attacking, the ids defending).
_Option = tuple[float, dict[str, Any] | None, dict[str, Any], list[str], list[str]]
WIDTH = 78
#: Candidates tried per example (each is one :func:`turn.review`).
TRIES = 10
CITY_STATE = "city_state"

_HEADER = re.compile(r"# (\[\[?)orders\.([a-z_.]+)(\]\]?)(\s+# .*)?")
_KEY = re.compile(r"# ([a-z_]+) = (.*?)(\s+# .*)?")
_DOC = re.compile(r"#\s{2,}# .*")
#: Own-turn effects in the order the play example prefers them.
_PLAY_PREFERENCE = ("extra_turn", "move_bonus", "draw", "heal", "destroy_random",
                    "replace_unit", "hero_anywhere", "no_attack", "oracle", "draw_all")


def form(c: Components, text: str, view: Mapping[str, Any], phase: PhaseSpec,
         player: str) -> str:
    """The form ``text`` (``orders/grecos/<kind>.toml``) for ``player`` now."""
    if (phase.kind not in ("recruit", "war") or not text or not view
            or view.get("game_over") or view.get("active") != player
            or view.get("step") != phase.kind or player not in view.get("seats", ())):
        return text
    ex = Examples(c, view, phase.kind, player, text)
    blocks = ex.recruit_blocks() if phase.kind == "recruit" else ex.war_blocks()
    body = fill(text, blocks)
    head = [part for line in situation(c, view, phase, player) for part in _comment(line)]
    return "\n".join(head) + "\n\n" + body


# --- the static form as a template ---------------------------------------------------------

@dataclass
class _Key:
    column: int = 0            # where the key's own comment starts on its line
    doc: str = ""              # that comment ("# ...")
    more: list[str] = field(default_factory=list)  # the comment lines under it


@dataclass
class _Table:
    header: str                # the static header line, with its comment
    bare: str                  # the header alone
    keys: dict[str, _Key] = field(default_factory=dict)


def template(text: str) -> dict[str, _Table]:
    """Each table of the static form (``""``: the keys above every table) with its header
    line and its keys' comments, as the form first shows them."""
    out: dict[str, _Table] = {"": _Table("", "")}
    current = out[""]
    last: _Key | None = None
    for line in text.split("\n"):
        header = _HEADER.fullmatch(line)
        if header is not None:
            name = header.group(2)
            bare = f"# {header.group(1)}orders.{name}{header.group(3)}"
            current = out.setdefault(name, _Table(line, bare))
            last = None
            continue
        key = _KEY.fullmatch(line)
        if key is not None:
            if key.group(1) in current.keys:
                last = None
                continue
            doc = key.group(3) or ""
            last = _Key(key.start(3) + len(doc) - len(doc.lstrip()) if doc else 0, doc.strip())
            current.keys[key.group(1)] = last
            continue
        if _DOC.fullmatch(line) and last is not None:
            last.more.append(line)
            continue
        last = None
    return out


def toml(value: Any) -> str:
    """A value as the form writes it (strings, whole numbers, booleans, lists of them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _assign(key: str, value: Any, doc: _Key | None) -> list[str]:
    """``# key = value`` with the key's comment in its column (on the next line when there
    is no room); a list too long for a line goes on over the next lines."""
    text = f"# {key} = {toml(value)}"
    lines = [text]
    if len(text) > WIDTH and isinstance(value, list):
        lead = f"# {key} = ["
        pad = "#" + " " * (len(lead) - 1)
        lines, current = [], lead
        for n, item in enumerate(value):
            piece = toml(item) + ("]" if n == len(value) - 1 else ",")
            if current not in (lead, pad) and len(current) + 1 + len(piece) > WIDTH:
                lines.append(current)
                current = pad
            current += ("" if current in (lead, pad) else " ") + piece
        lines.append(current)
    if doc is None:
        return lines
    if doc.doc:
        if len(lines) == 1 and len(text) + 2 <= doc.column and \
                doc.column + len(doc.doc) <= WIDTH:
            lines = [text.ljust(doc.column) + doc.doc]
        elif len(lines) == 1 and not doc.more and len(text) + 2 + len(doc.doc) <= WIDTH:
            lines = [f"{text}  {doc.doc}"]
        else:
            lines.append("#".ljust(doc.column) + doc.doc)
    return lines + doc.more


def render(tpl: Mapping[str, _Table], tables: Sequence[Table], docs: bool = True
           ) -> list[str]:
    """The example ``tables`` as commented lines (with the static form's comments if
    ``docs``)."""
    out: list[str] = []
    for name, values in tables:
        table = tpl.get(name) or _Table(f"# [[orders.{name}]]", f"# [[orders.{name}]]")
        if name:
            out.append(table.header if docs else table.bare)
        for key, value in values.items():
            out += _assign(key, value, table.keys.get(key) if docs else None)
    return out


def _kind(lines: Sequence[str]) -> str:
    """A paragraph's example: its first table, or its first key above every table."""
    for line in lines:
        header = _HEADER.fullmatch(line)
        if header is not None:
            return header.group(2)
        key = _KEY.fullmatch(line)
        if key is not None:
            return key.group(1)
    return ""


def _example_line(line: str) -> bool:
    return bool(_HEADER.fullmatch(line) or _KEY.fullmatch(line) or _DOC.fullmatch(line))


def fill(text: str, blocks: Mapping[str, list[str]]) -> str:
    """``text`` with each paragraph whose example is named in ``blocks`` (``discard``,
    ``play``, ``move``, ``battle``, ``recruit``, ``defend``) ending in that block instead of
    the static example; its prose above the example stays."""
    out = []
    for para in text.split("\n\n"):
        lines = para.split("\n")
        block = blocks.get(_kind(lines))
        if block is None:
            out.append(para)
            continue
        first = next(i for i, x in enumerate(lines) if _example_line(x))
        out.append("\n".join(lines[:first] + block))
    return "\n\n".join(out)


def wrap(text: str, first: str, rest: str) -> list[str]:
    """``text`` in lines of at most :data:`WIDTH` columns, broken at spaces, the first line
    led by ``first``, the others by ``rest`` (a word longer than a line stands alone)."""
    if len(first) + len(text) <= WIDTH and "  " not in text:
        return [first + text.strip()]
    lines: list[str] = []
    current = first
    for word in text.split():
        if current not in (first, rest) and len(current) + 1 + len(word) > WIDTH:
            lines.append(current)
            current = rest
        current += ("" if current in (first, rest) else " ") + word
    return [*lines, current]


def note(text: str) -> list[str]:
    """A comment of the form, wrapped within :data:`WIDTH`."""
    return wrap(text, "# ", "#   ")


def _comment(line: str) -> list[str]:
    """A situation line as comments (a line that starts with spaces keeps them, and its
    continuation lines go further in)."""
    indent = line[:len(line) - len(line.lstrip(" "))]
    return wrap(line, "# " + indent, "#     " + indent)


# --- small helpers ----------------------------------------------------------------------------

def _by_id(ids: Iterable[str]) -> list[str]:
    return sorted(ids, key=lambda u: (int(u), u) if u.isdigit() else (1 << 62, u))


def _names(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _a(word: str) -> str:
    return ("an " if word[:1] in "AEIOU" else "a ") + word


def nowhere(c: Components, state: State, player: str, kind: str) -> str:
    """Why a chit of ``kind`` may come into play nowhere now (Recruit 3-4)."""
    where = " or ".join(c.terrains[t].name for t in c.recruited_at(kind))
    sources = recruit.sources(c, state, player, kind)
    if not sources:
        return f"you have no unit on {_a(where)} square, where it is recruited (Recruit 3-4)"
    return (f"every square on or next to your {where} ({', '.join(sources)}) holds enemy "
            "units or 4 of yours, or is the wrong terrain for it (Recruit 4, Stacking 1-3, "
            "Move 2)")


def strength(c: Components, state: State, ids: Iterable[str]) -> int:
    """Force times hits left, summed: a rough measure of a stack (for choosing examples)."""
    return sum(c.units[state["units"][u]["kind"]].force * int(state["units"][u]["hits"])
               for u in ids)


# --- the examples -----------------------------------------------------------------------------

class Examples:
    """The examples of one form, each checked by :func:`turn.review` on the stand-in state."""

    def __init__(self, c: Components, view: View, kind: str, player: str,
                 text: str) -> None:
        self.c, self.kind, self.player = c, kind, player
        self.state = bot.state_from_view(view, player)
        self.tpl = template(text)
        self.hand: list[str] = list(self.state["hands"][player])
        #: Event 2: the newest cards over the limit go unless other discards are named.
        self.going = set(self.hand[HAND_LIMIT:]) - set(self.hand[:HAND_LIMIT])
        self.pile: list[str] = list(self.state["chits"][player])
        self.policy = {**policy_mod.DEFAULT, **(view.get("my_policy") or {})}
        stacks = turn.stacks(self.state)
        units = self.state["units"]
        self.mine = {sq: ids for sq, ids in stacks.items() if units[ids[0]]["owner"] == player}
        self.enemy = {sq: ids for sq, ids in stacks.items() if units[ids[0]]["owner"] != player}
        effects = self.state.get("effects") or {}
        self.no_move = set(effects.get("no_move") or ())
        self.no_attack = set(effects.get("no_attack") or ())
        held = {sq for sq in self.mine if self.state["board"][sq] == CITY_STATE}
        self.goals = [s for s in SQUARES if self.state["board"][s] == CITY_STATE
                      and s not in held]
        self.last = ""  # the first problem of the last candidate refused
        self._reach: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}

    def legal(self, orders: Mapping[str, Any]) -> bool:
        problems = turn.review(self.c, self.state, self.kind, self.player, orders)[0]
        if problems:
            self.last = problems[0].message
        return not problems

    def best(self, candidates: Sequence[dict[str, Any]],
             *together: Callable[[dict[str, Any]], dict[str, Any]]) -> int | None:
        """Of ``candidates`` (orders, the first :data:`TRIES`) that the rules accept alone,
        the index of the first that they accept made ``together`` with the other examples
        (the first way of putting them together, else the next ...), else of the first."""
        self.last = ""
        found: list[tuple[int, int]] = []
        for i, orders in enumerate(candidates[:TRIES]):
            if not self.legal(orders):
                continue
            level = next((n for n, f in enumerate(together) if self.legal(f(orders))),
                         len(together))
            if level == 0:
                return i
            found.append((level, i))
        return min(found)[1] if found else None

    # -- words -------------------------------------------------------------------------------
    def unit(self, uid: str) -> str:
        return f"{self.c.units[self.state['units'][uid]['kind']].name} {uid}"

    def units(self, ids: Iterable[str]) -> str:
        return _names([self.unit(u) for u in _by_id(ids)])

    def card(self, cid: str) -> str:
        return self.c.cards[cid].name

    def terrain(self, square: str) -> str:
        return self.c.terrains[self.state["board"][square]].name

    # -- recruit ---------------------------------------------------------------------------
    def recruit_blocks(self) -> dict[str, list[str]]:
        return {"recruit": self.recruits(), "defend": self.defend()}

    def recruits(self) -> list[str]:
        """One recruit per kind of chit in the pile that may come into play now (Recruit
        2-4), the squares chosen so that all of them together are legal too."""
        if not self.pile:
            return note("No recruit example now: your pile holds no chit (Recruit 1-2).")
        chosen: list[dict[str, Any]] = []
        why: list[str] = []
        for kind in dict.fromkeys(self.pile):
            name = self.c.units[kind].name
            squares = recruit.recruit_squares(self.c, self.state, self.player, kind)
            sources = recruit.sources(self.c, self.state, self.player, kind)
            if not squares:
                why.append(f"{name}: {nowhere(self.c, self.state, self.player, kind)}")
                continue
            own = set(self.mine)
            ranked = sorted(squares, key=lambda s: (s not in sources, s not in own, order(s)))
            candidates = [{"recruit": [*chosen, {"kind": kind, "square": s}]} for s in ranked]
            got = self.best(candidates)
            if got is None:
                why.append(f"{name}: no room left by the recruits above")
                continue
            chosen = candidates[got]["recruit"]
        if not chosen:
            return note("No recruit example now: " + "; ".join(why) + ".")
        lines = note("Now, one of each kind of chit in your pile that may come into play "
                     "(all of them together, in this order, are legal too):")
        lines += render(self.tpl, [("recruit", dict(x)) for x in chosen[:1]])
        lines += render(self.tpl, [("recruit", dict(x)) for x in chosen[1:]], docs=False)
        if why:
            lines += note("Not now: " + "; ".join(why) + ".")
        return lines

    def defend(self) -> list[str]:
        values = {k: self.policy[k] for k in policy_mod.KEYS}
        if not self.legal({"defend": values}):
            return note(f"No defend example now: {self.last}.")
        return note("Yours now, key for key:") + render(self.tpl, [("defend", values)])

    # -- war ---------------------------------------------------------------------------------
    def war_blocks(self) -> dict[str, list[str]]:
        """The examples of the war form: the play first, then the battle (legal after the
        play too, if one can be), then the move (legal with both, if one can be)."""
        play, chosen = self.play()
        context: dict[str, Any] = {"play": [chosen]} if chosen else {}
        battle, fight, card = self.battle({chosen["card"]} if chosen else set(), context)
        move = self.move(context, fight)
        used = {x["card"] for x in (chosen, card) if x is not None}
        return {"discard": self.discard(used), "play": play, "move": move,
                "battle": battle, "defend": self.defend()}

    def discard(self, used: set[str]) -> list[str]:
        """Event 2: over the limit, the excess named (the cards the other examples play
        last, the newest first)."""
        n = len(self.hand)
        excess = n - HAND_LIMIT
        if excess <= 0:
            return note(f"No discard example now: you hold {n} card{'s' if n != 1 else ''}; "
                        f"the hand limit is {HAND_LIMIT} (Event 2): nothing to discard.")
        newest = list(reversed(self.hand))
        ranked = [x for x in newest if x not in used] + [x for x in newest if x in used]
        names = ranked[:excess]
        if not self.legal({"discard": names}):
            return note(f"No discard example now: {self.last}.")
        gone = ", ".join(self.card(x) for x in self.hand[HAND_LIMIT:])
        return note(f"Now: you hold {n} cards, {excess} over the limit of {HAND_LIMIT} "
                    f"(Event 2). Unnamed, the newest go: {gone}.") + \
            render(self.tpl, [("", {"discard": names})])

    def play_candidates(self) -> tuple[list[tuple[dict[str, Any], str]], list[str]]:
        """(play, what it does) for the own-turn cards of the hand that do something now,
        in :data:`_PLAY_PREFERENCE` order; and why the others do not."""
        c, state = self.c, self.state
        found: list[tuple[int, dict[str, Any], str]] = []
        why: list[str] = []
        for cid in dict.fromkeys(self.hand):
            card = c.cards[cid]
            effect = card.effect
            if card.when not in ("own", "any") or TARGET.get(effect) is None:
                continue
            rank = _PLAY_PREFERENCE.index(effect) if effect in _PLAY_PREFERENCE else 99
            options: list[tuple[dict[str, Any], str]] = []
            if cid in self.going:
                why.append(f"{card.name}: over the hand limit, it goes unless you name "
                           "other discards (Event 2)")
                continue
            if TARGET[effect] == "":
                options.append(({"card": cid}, f"{card.name}: {card.text}"))
            elif effect == "move_bonus":
                for sq, ids in sorted(self.mine.items(), key=lambda kv: (-len(kv[1]),
                                                                         order(kv[0]))):
                    if not set(ids) & self.no_move:
                        options.append(({"card": cid, "target": sq}, f"{card.name} on your "
                                        f"stack on {sq}: Move +{card.amount or 2} this turn"))
            elif effect == "heal":
                for sq, ids in sorted(self.mine.items(), key=lambda kv: order(kv[0])):
                    hurt = [u for u in ids if state["units"][u]["hits"]
                            < c.units[state["units"][u]["kind"]].hits]
                    if hurt:
                        options.append(({"card": cid, "target": sq}, f"{card.name} on your "
                                        f"stack on {sq}: {self.units(hurt)} back to full hits"))
                if not options:
                    why.append(f"{card.name}: none of your units is damaged")
            elif effect == "destroy_random":
                allowed = {card.terrain} | ({"abyss"} if card.terrain == "sea" else set())
                for sq, ids in sorted(self.enemy.items(), key=lambda kv: order(kv[0])):
                    if state["board"][sq] in allowed:
                        owner = state["units"][ids[0]]["owner"]
                        options.append(({"card": cid, "target": sq}, f"{card.name} on "
                                        f"{owner}'s stack on {sq}: one of {self.units(ids)} "
                                        "is destroyed at random"))
                if not options:
                    where = " or ".join(sorted((c.terrains[t].name for t in allowed),
                                               reverse=True))
                    why.append(f"{card.name}: no enemy stack on {where}")
            elif effect == "replace_unit":
                options += self.prometheus(cid)
                if not options:
                    why.append(f"{card.name}: no chit of your pile is stronger than a unit "
                               "of yours it may replace")
            elif effect == "hero_anywhere":
                heroes = _by_id(u for ids in self.mine.values() for u in ids
                                if state["units"][u]["kind"] == "hero")
                free = [s for s in self.goals if s not in self.enemy]
                for hero in heroes:
                    for sq in free:
                        options.append(({"card": cid, "target": sq, "unit": hero},
                                        f"{card.name}: your Hero {hero} to the City State "
                                        f"{sq}"))
                if not options:
                    why.append(f"{card.name}: " + ("no free City State to send your Hero to"
                                                   if heroes else "you have no Hero"))
            elif effect == "no_attack":
                for sq, ids in sorted(self.enemy.items(), key=lambda kv: order(kv[0])):
                    if any(adjacent(sq, m) for m in self.mine):
                        owner = state["units"][ids[0]]["owner"]
                        options.append(({"card": cid, "target": sq}, f"{card.name} on "
                                        f"{owner}'s stack on {sq}, next to yours: it rolls "
                                        "no attack this turn, even attacked (Deck 28-29)"))
                if not options:
                    why.append(f"{card.name}: no enemy stack next to yours")
            elif effect == "no_move":
                why.append(f"{card.name}: of use in the others' turns, where your standing "
                           "orders play it (react)")
            found += [(rank, play, text) for play, text in options]
        found.sort(key=lambda x: x[0])
        return [(p, t) for _, p, t in found], why

    def prometheus(self, cid: str) -> list[tuple[dict[str, Any], str]]:
        """Deck 9: a unit of yours replaced by a stronger chit of your pile."""
        c, units = self.c, self.state["units"]
        out = []
        mine = _by_id(u for ids in self.mine.values() for u in ids)
        for uid in sorted(mine, key=lambda u: strength(c, self.state, [u])):
            for kind in sorted(dict.fromkeys(self.pile), key=lambda k: -c.units[k].force):
                if c.units[kind].force * c.units[kind].hits <= strength(c, self.state, [uid]):
                    continue
                out.append(({"card": cid, "target": uid, "unit": kind},
                            f"{self.card(cid)}: your {self.unit(uid)} on "
                            f"{units[uid]['square']} goes back to your pile, a "
                            f"{c.units[kind].name} from your pile takes its place"))
        return out

    def play(self) -> tuple[list[str], dict[str, Any] | None]:
        options, why = self.play_candidates()
        own = [x for x in dict.fromkeys(self.hand) if self.c.cards[x].when in ("own", "any")
               and TARGET.get(self.c.cards[x].effect) is not None]
        got = self.best([{"play": [p]} for p, _ in options])
        if got is not None:
            play, text = options[got]
            return note(f"Now: {text}.") + render(self.tpl, [("play", play)]), play
        if not self.hand:
            reason = "your hand is empty"
        elif not own:
            reason = ("no card of your hand is played in your own turn (battle cards: "
                      "[[orders.battle.card]]; The Fates: your standing orders)")
        elif options and self.last:
            reason = self.last
        else:
            reason = "; ".join(why) or "no card of yours would do anything now"
        return note(f"No play example now: {reason}."), None

    def groups(self) -> list[tuple[str, list[str]]]:
        """Each stack of yours that may move, whole, and on a City State also less its
        first unit (a garrison stays)."""
        out = []
        for sq, ids in sorted(self.mine.items(), key=lambda kv: order(kv[0])):
            if set(ids) & self.no_move:
                continue
            out.append((sq, list(ids)))
            if self.state["board"][sq] == CITY_STATE and len(ids) > 1:
                out.append((sq, list(ids[1:])))
        return out

    def reach(self, ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """Where the group ``ids`` may end a move now, with a path (movement.reach)."""
        key = tuple(ids)
        if key not in self._reach:
            self._reach[key] = movement.reach(self.c, self.state, self.player, key)
        return self._reach[key]

    def distance(self, square: str) -> int:
        """Steps from ``square`` to the nearest City State you do not hold (0: none)."""
        i = order(square)
        return min((abs(i % 8 - order(g) % 8) + abs(i // 8 - order(g) // 8)
                    for g in self.goals), default=0)

    def move(self, context: Mapping[str, Any], fight: Mapping[str, Any]) -> list[str]:
        """Move 1-8: a stack toward a City State you do not hold (movement.reach); one that
        goes with the play in ``context`` and the battle example ``fight`` if one can."""
        if not self.mine:
            return note("No move example now: you have no unit on the board.")
        options = []
        for sq, ids in self.groups():
            reach = self.reach(ids)
            if not reach:
                continue
            best = min(reach, key=lambda t: (
                not (self.state["board"][t] == CITY_STATE and t in self.goals),
                self.distance(t), -len(reach[t]), order(t)))
            options.append((self.distance(best), -len(ids), sq, ids, best, reach[best]))
        options.sort(key=lambda x: (x[0], x[1], order(x[2])))
        def with_all(orders: dict[str, Any]) -> dict[str, Any]:
            return {**context, **fight, "move": [*orders["move"], *fight.get("move", [])]}

        candidates = [{"move": [{"units": ids, "path": list(path)}]}
                      for _, _, _, ids, _, path in options]
        got = self.best(candidates, with_all, lambda orders: {**context, **orders})
        if got is None:
            if options:
                return note(f"No move example now: {self.last}.")
            held = [sq for sq, ids in self.mine.items() if set(ids) & self.no_move]
            stuck = [sq for sq in self.mine if sq not in held]
            why = []
            if held:
                why.append(f"Lost or Storm holds your units on {', '.join(held)} (Deck 26-27)")
            if stuck:
                why.append(f"your units on {', '.join(stuck)} have nowhere to go: water, "
                           "enemy units or 4 of yours on every square in reach (Move 2-8)")
            return note(f"No move example now: {'; '.join(why)}.")
        (entry,) = candidates[got]["move"]
        dest = entry["path"][-1]
        n = len(entry["path"])
        return note(f"Now: your {self.units(entry['units'])} from "
                    f"{self.state['units'][entry['units'][0]]['square']} to {dest} "
                    f"({self.terrain(dest)}), {n} square{'s' if n != 1 else ''}.") + \
            render(self.tpl, [("move", entry)])

    def battle_options(self) -> list[_Option]:
        """(strength ratio, move or None, battle, attacking ids, defending ids), the
        strongest attacks first: from a stack next to an enemy stack, or after a move that
        brings it next to one (Battle 1)."""
        c, state = self.c, self.state
        out: list[_Option] = []
        for sq, ids in self.mine.items():
            if set(ids) & self.no_attack:
                continue
            for t, theirs in self.enemy.items():
                if adjacent(sq, t):
                    out.append((strength(c, state, ids) / max(1, strength(c, state, theirs)),
                                None, self.fight(sq, t, ids), ids, theirs))
        for _sq, ids in self.groups():
            if set(ids) & self.no_attack:
                continue
            reach = self.reach(ids)
            for dest, path in reach.items():
                if dest in self.mine:
                    continue  # joining a stack: that stack's attack is counted above
                for t in neighbours(dest):
                    if t in self.enemy:
                        theirs = self.enemy[t]
                        out.append((strength(c, state, ids) / max(1, strength(c, state, theirs)),
                                    {"units": ids, "path": list(path)}, self.fight(dest, t, ids),
                                    ids, theirs))
        out.sort(key=lambda x: (-x[0], x[1] is not None, order(x[2]["from"]),
                                order(x[2]["target"])))
        return out

    def fight(self, src: str, dst: str, ids: Sequence[str]) -> dict[str, Any]:
        kinds = sorted({self.state["units"][u]["kind"] for u in ids},
                       key=lambda k: (-self.c.units[k].force, k))
        return {"from": src, "target": dst, "order": kinds[:1], "casualties": kinds[-1:]}

    def battle_card(self, mine: Sequence[str], theirs: Sequence[str], target: str
                    ) -> tuple[list[dict[str, Any]], str]:
        """Battle 12: the battle cards of the hand of use in this battle (tables for
        ``[[orders.battle.card]]``), or why none is."""
        c, state = self.c, self.state
        held = [x for x in dict.fromkeys(self.hand) if turn.in_battle(c, x)]
        if not held:
            return [], "no card of your hand is played in battle (Battle 12)"
        out: list[dict[str, Any]] = []
        why = []
        kinds = [c.units[state["units"][u]["kind"]] for u in mine]
        for cid in held:
            card = c.cards[cid]
            if cid in self.going:
                why.append(f"{card.name}: over the hand limit, it goes unless you name "
                           "other discards (Event 2)")
            elif card.effect == "extra_attack":
                if card.keyword == "stack" or any(
                        card.keyword in k.keywords or (card.terrain and k.id in
                                                       c.category_units(card.terrain))
                        for k in kinds):
                    out.append({"card": cid, "round": 1})
                else:
                    why.append(f"{card.name}: none of your units in it is of its kind")
            elif card.effect == "force_bonus":
                out.append({"card": cid, "round": 1})
            elif card.effect == "heal":
                if any(state["units"][u]["hits"] < c.units[state["units"][u]["kind"]].hits
                       for u in mine):
                    out.append({"card": cid, "round": 1})
                else:
                    why.append(f"{card.name}: none of your units in it is damaged")
            elif card.effect == "betrayal":
                strongest = sorted(theirs, key=lambda u: (
                    -c.units[state["units"][u]["kind"]].force, int(u)))[0]
                out.append({"card": cid, "round": 1, "target": strongest})
            elif card.effect == "no_attack":
                out.append({"card": cid, "round": 1, "target": target})
        return out, "; ".join(why)

    def battle(self, used: set[str], context: Mapping[str, Any]
               ) -> tuple[list[str], dict[str, Any], dict[str, Any] | None]:
        """Battle 1-13: the strongest attack of yours now (legal after the play in
        ``context`` too, if one is), with a battle card of use in it (one the play example
        does not play, if it can). Returns the lines, the orders of the battle (its move and
        battle, no card) and the card table."""
        if not self.mine:
            return note("No battle example now: you have no unit on the board."), {}, None
        if not self.enemy:
            return note("No battle example now: no enemy unit is on the board."), {}, None
        options = self.battle_options()
        candidates = [{"battle": [o[2]], **({"move": [o[1]]} if o[1] else {})}
                      for o in options]
        got = self.best(candidates, lambda orders: {**context, **orders})
        if got is None:
            reason = self.last or ("no stack of yours is next to an enemy stack, or can "
                                   "move next to one this turn (Battle 1, Move 1-8)")
            return note(f"No battle example now: {reason}."), {}, None
        _, move, fight, ids, theirs = options[got]
        orders = candidates[got]
        attackers = list(self.mine[fight["from"]]) if move is None else list(ids)
        cards, why = self.battle_card(attackers, theirs, fight["target"])
        card: dict[str, Any] | None = None
        for x in sorted(cards, key=lambda x: x["card"] in used)[:TRIES]:
            if self.legal({**orders, "battle": [{**fight, "card": [x]}]}):
                card = x
                break
        owner = self.state["units"][theirs[0]]["owner"]
        came = self.state["units"][ids[0]]["square"]
        text = ("Now: " + (f"your {self.units(ids)} from {came} to {fight['from']}, then "
                           if move is not None else "")
                + f"your stack on {fight['from']} ({self.units(attackers)}) attacks "
                f"{owner}'s on {fight['target']} ({self.units(theirs)}; "
                f"{self.terrain(fight['target'])}): Force times hits "
                f"{strength(self.c, self.state, attackers)} against "
                f"{strength(self.c, self.state, theirs)}, to the end (Battle 10).")
        lines = note(text)
        if move is not None:
            lines += render(self.tpl, [("move", move)], docs=False)
        tables: list[Table] = [("battle", fight)]
        if card is not None:
            tables.append(("battle.card", card))
        lines += render(self.tpl, tables)
        if card is None:
            lines += note("No battle card example now: " + (
                why or self.last or "no battle card of yours may be played in it") + ".")
        return lines, orders, card


# --- the situation ------------------------------------------------------------------------------

def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _when(c: Components, cid: str, policy: Mapping[str, Any]) -> str:
    """When a card of the hand is played: in your turn, in battle, by standing orders."""
    card = c.cards[cid]
    out = []
    if card.when in ("own", "any") and TARGET.get(card.effect) is not None:
        out.append("your turn")
    if turn.in_battle(c, cid):
        out.append("battle")
    if card.effect in ("no_move", "no_attack"):
        out.append("react" if policy.get("react", True) else "react (off)")
    if card.effect == "negate":
        out.append("standing orders: fates")
    if cid in policy.get("battle_cards", ()):
        out.append("defending")
    return ", ".join(out)


def situation(c: Components, view: View, phase: PhaseSpec, player: str) -> list[str]:
    """What the player knows that bears on this form, as lines (before wrapping)."""
    state = bot.state_from_view(view, player)
    units = state["units"]
    board = state["board"]
    stacks = turn.stacks(state)
    seats = list(view["seats"])
    out: list[str] = []
    rounds = int(view.get("options", {}).get("rounds", "0") or 0)
    limit = (f" of {rounds} (after round {rounds}, most City States held wins)" if rounds
             else " (no round limit)")
    what = ("your Recruit Phase (Recruit 1-4)" if phase.kind == "recruit"
            else "your Event, Move and Battle Phases (Event 1-2, Move 1-8, Battle 1-13)")
    out.append(f"Turn {view['turn']}, round {view['round']}{limit}: {what}.")
    gone = list(view.get("eliminated", []))
    ring = [f"{p}{' (you)' if p == player else ''}{' (out)' if p in gone else ''}"
            for p in seats]
    out.append("Turn order: " + ", ".join(ring) + ".")
    if int(view.get("kronos", 0)):
        out.append(f"Blessing of Kronos: you take {view['kronos']} more turn(s) after this "
                   "one (Deck 3).")
    effects = view.get("effects") or {}
    out.append("Your units by square (hits: left of full):")
    mine = {sq: ids for sq, ids in stacks.items() if units[ids[0]]["owner"] == player}
    for sq, ids in sorted(mine.items(), key=lambda kv: order(kv[0])):
        parts = []
        for u in ids:
            x, k = units[u], c.units[units[u]["kind"]]
            extra = []
            if u in (effects.get("no_move") or ()):
                extra.append("cannot move")
            if u in (effects.get("no_attack") or ()):
                extra.append("cannot attack")
            bonus = (effects.get("move_bonus") or {}).get(u)
            if bonus:
                extra.append(f"Move +{bonus}")
            parts.append(f"{k.name} {u} (Force {k.force}, Move {k.move}, hits "
                         f"{x['hits']}/{k.hits}"
                         + ("; " + ", ".join(extra) if extra else "") + ")")
        out.append(f"  {sq} {c.terrains[board[sq]].name}: " + ", ".join(parts) + ".")
    if not mine:
        out.append("  none.")
    pile = list(view.get("my_chits", []))
    out.append(f"Your pile ({_count(len(pile), 'chit')}; Recruit 2), "
               "and where each may come into play "
               + ("now:" if phase.kind == "recruit" else "from the board as it stands "
                  "(in your next Recruit Phase):"))
    for kind in dict.fromkeys(pile):
        k = c.units[kind]
        n = pile.count(kind)
        squares = recruit.recruit_squares(c, state, player, kind)
        where = " or ".join(c.terrains[t].name for t in c.recruited_at(kind))
        out.append(f"  {k.name}{f' x{n}' if n > 1 else ''} (Force {k.force}, Move {k.move}, "
                   f"hits {k.hits}; from {where}): "
                   + (", ".join(squares) if squares else "nowhere now: "
                      + nowhere(c, state, player, kind)) + ".")
    if not pile:
        out.append("  empty.")
    hand = list(view.get("my_hand", []))
    policy = {**policy_mod.DEFAULT, **(view.get("my_policy") or {})}
    over = len(hand) - HAND_LIMIT
    out.append(f"Your hand ({_count(len(hand), 'card')}, limit "
               f"{HAND_LIMIT}" + (f": {over} over, Event 2" if over > 0 else "") + "):")
    for cid in hand:
        card = c.cards[cid]
        out.append(f"  {card.name} ({cid}, {rule(c, cid)}; {_when(c, cid, policy)}): "
                   f"{card.text}.")
    if not hand:
        out.append("  empty.")
    near = []
    for sq, ids in sorted(stacks.items(), key=lambda kv: order(kv[0])):
        owner = units[ids[0]]["owner"]
        if owner == player:
            continue
        by = [m for m in neighbours(sq) if m in mine]
        if by:
            names = ", ".join(f"{c.units[units[u]['kind']].name} {u} "
                              f"({units[u]['hits']}/{c.units[units[u]['kind']].hits})"
                              for u in ids)
            near.append(f"  {sq} {c.terrains[board[sq]].name}, {owner}: {names}; next to "
                        f"your {', '.join(by)}.")
    out.append("Enemy stacks next to yours (hits left of full):" + ("" if near else " none."))
    out += near
    held: dict[str, list[str]] = {p: [] for p in seats}
    free = []
    for sq in SQUARES:
        if board[sq] != CITY_STATE:
            continue
        owner = turn.owner_of(state, sq)
        if owner:
            held.setdefault(owner, []).append(sq)
        else:
            free.append(sq)
    out.append("City States (Victory 1: all six to win): " + "; ".join(
        f"{'you' if p == player else p} {', '.join(held[p]) or 'none'}" for p in seats)
        + "; empty " + (", ".join(free) or "none") + ".")
    others = [f"{p} {_count(view['chit_counts'].get(p, 0), 'chit')}, "
              f"{_count(view['hand_counts'].get(p, 0), 'card')}"
              for p in seats if p != player and p not in gone]
    out.append("The others hold: " + ("; ".join(others) or "nothing") + ". Common pile: "
               f"{_count(view.get('pile_count', 0), 'chit')}; Event deck: "
               f"{_count(view.get('deck_count', 0), 'card')}; discards: "
               f"{len(view.get('discard', []))}.")
    out.append("Your standing defence orders (sealed): "
               + " ".join(policy_mod.describe(c, policy)))
    out.append("Each example below is legal now on its own, checked as the GM checks your "
               "orders; two that use the same units are alternatives.")
    return out

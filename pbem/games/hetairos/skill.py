"""One roll of a check (SKILL CHECKS & SPECIAL ITEMS; PLAYER CHARACTERS): the dice a character
rolls for a kind of check and every bonus that applies to it.

Kinds: ``craft``, ``knowledge``, ``tunnelling``, ``combat`` (the combat module adds the weapon
and the foe's modifiers to this), ``other`` (a plain d6: imprisoning, Kobaloi theft...).

Items (Item 2-7): lasting books (Master book, Combat manual, Tome of Ichor for automaton builds)
always add; one-use books (Great book, Tome of Creation) and the Talisman's reroll are spent only
when the caller says what the check needs (``need``) and they turn a failure into a pass.
"""

from __future__ import annotations

from pbem.games.hetairos import standing
from pbem.games.hetairos.table import Model, Table

#: ACTIONS: the prayer whose +3 goes to the next check of each kind (Act 3-5).
PRAYER_FOR = {"combat": "ares", "knowledge": "athena", "craft": "hephaestus"}
#: ITEMS: what a build of an automaton counts as for the Tome of Ichor (Item 6).
BUILD = "build_automaton"
#: Item 2: the reroll of a failed non-combat check.
TALISMAN = "talisman"


def dice_for(t: Table, m: Model, kind: str) -> int:
    """How many d6 ``m`` rolls: a character's ``check_dice`` (Atlantean craft, Cyclops combat,
    Philosopher knowledge: 2), one for anything else."""
    if m["side"] != "pc" or kind == "other":
        return 1
    return t.c.character(m["type"]).check_dice(kind)


def _books(t: Table, m: Model, kind: str, build: bool, lasting: bool) -> list[tuple[str, int]]:
    """The carried items that add to a check of ``kind`` (``build``: an automaton build),
    lasting ones (uses 0) or one-use ones, in data order: (item id, amount)."""
    out = []
    for item in t.c.people.items.values():
        if item.effect != "check_bonus" or item.id not in m["items"]:
            continue
        if (item.uses == 0) != lasting:
            continue
        if kind in item.checks or (build and BUILD in item.checks):
            out.append((item.id, item.amount))
    return out


def bonus(t: Table, m: Model, kind: str, *, consume: bool = True,
          build: bool = False) -> tuple[int, list[str]]:
    """The bonus of ``m`` to a check of ``kind`` and what it came from: the character's own
    (Cimmerian +2 tunnelling, Hoplite +1 craft...), carried lasting books (Item 3 Master book
    +2 knowledge or craft, Item 4 Combat manual +1 combat, Item 6 Tome of Ichor +3 when
    ``build``ing an automaton), and the prayers pending (Act 3-5 Ares, Athena, Hephaestus +3
    the next check of their kind; Act 7 Zeus +1 the next check of any sort), used up when
    ``consume``. One-use books are not here: see :func:`roll`."""
    if m["side"] != "pc":
        return 0, []
    total, why = 0, []
    own = t.c.character(m["type"]).check_bonus(kind)
    if own:
        total += own
        why.append(f"{t.c.character(m['type']).name} {own:+d}")
    for item, amount in _books(t, m, kind, build, lasting=True):
        total += amount
        why.append(f"{t.c.people.items[item].name} {amount:+d}")
    effects = m["effects"]
    for prayer, amount in ((PRAYER_FOR.get(kind, ""), 3), ("zeus", 1)):
        if prayer and effects.get(prayer):
            total += amount
            why.append(f"prayer to {prayer.title()} {amount:+d}")
            if consume:
                effects.pop(prayer)
    return total, why


def _rerolls(t: Table, m: Model, kind: str) -> bool:
    """Item 2: a Talisman rerolls a failed non-combat check, once, when the owner's standing
    ``reroll`` order is on."""
    return (kind != "combat" and m["side"] == "pc" and TALISMAN in m["items"]
            and bool(standing.of(t.state, m["owner"])["reroll"]))


def roll(t: Table, m: Model, kind: str, what: str, *, need: int = 0,
         build: bool = False) -> tuple[int, str]:
    """A check's total and how it was made ("5+1 (Myrmidon +1) = 6").

    With ``need`` (the total that passes), a failed check may be saved: first by a one-use book
    that makes it pass (Item 5 Great book +2 knowledge, Item 7 Tome of Creation +2 craft, used
    up); else by a Talisman's reroll (Item 2, used up), which a book may then help."""
    n = dice_for(t, m, kind)
    spec = f"{n}d6" if n > 1 else "d6"
    total, dice = t.roll_each(spec, f"{what}/{m['id']}")
    plus, why = bonus(t, m, kind, build=build)
    shown = "+".join(str(d) for d in dice) if dice else str(total)
    if plus:
        shown += f"{plus:+d} ({', '.join(why)})"
    result = total + plus
    shown += f" = {result}"
    if need and result < need and m["side"] == "pc":
        result, shown = _book(t, m, kind, build, need, result, shown)
        if result < need and _rerolls(t, m, kind):
            m["items"].remove(TALISMAN)
            total, dice = t.roll_each(spec, f"{what}/{m['id']}/reroll")
            result = total + plus
            shown += f"; Talisman reroll: {'+'.join(str(d) for d in dice)}"
            shown += f"{plus:+d} = {result}" if plus else f" = {result}"
            result, shown = _book(t, m, kind, build, need, result, shown)
    return result, shown


def _book(t: Table, m: Model, kind: str, build: bool, need: int, result: int,
          shown: str) -> tuple[int, str]:
    """Spend the first one-use book that lifts ``result`` to ``need`` (Item 5, 7)."""
    # Ruling: "1 USE ONLY" books are spent only when they turn a failure into a pass.
    for item, amount in _books(t, m, kind, build, lasting=False):
        if result < need <= result + amount:
            m["items"].remove(item)
            name = t.c.people.items[item].name.title()
            return result + amount, f"{shown}; {name} {amount:+d} (used up) = {result + amount}"
    return result, shown

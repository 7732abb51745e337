"""Divine Occurrences (Mythology, Advanced Game, rule 210; Hercules 214 B).

Pure functions: the caller (the Mythology ruleset) keeps the board, decides which Heroes are
the candidates and applies the effects; this module rolls, filters, compares and reports.

Interpretation decisions (see ``docs/games/mythology.md``):

* One roll per occurrence. 210 G 1: "The causing player rolls the dice ... and compares the
  modified dice roll to the Defense Number of EACH Hero counter in the effected Area"; the other
  five types are "exactly the same" (G 2, G 3) or say the same in their own words (G 4-6). The
  roll is the two-digit reading of 003 B (red tens, white units, 11-66) from the public stream.
* Modifiers: +10 per Power Point for Earthquake, Tempest and Famine (G 1, G 2, G 6); +20 per
  Power Point for Volcano, Plague and Pestilence (G 3, G 4, G 5).
* Thresholds: Earthquake, Tempest and Volcano kill a Hero whose Defense is LESS than the
  modified roll (G 1-3); Plague kills a Hero when the modified roll is HIGHER than his Defense
  (G 4) - the same strict comparison; Pestilence and Famine act when the modified roll is
  EQUAL TO OR GREATER than the Defense (G 5, G 6). A tie therefore spares a Hero from the four
  killing occurrences and catches him in Pestilence and Famine.
* Who is exposed (the caller passes every Hero of the Area, or of the hex for a Volcano):
  Earthquake only Heroes "in a land hex" (G 1), Volcano likewise ("exactly like an Earthquake",
  G 3), Tempest only Heroes "aboard ships" (G 2), Plague, Pestilence and Famine every Hero in
  the Area (G 4-6). A Hero aboard a ship counts as at sea, not in a land hex, even in a coastal
  hex (215 C, 215 I): an Earthquake or Volcano never touches him and a Tempest always may.
* 210 H: only Heroes are ever affected, so the only input is a list of Heroes.
* "Defense Number" is the Hero's Defense as it stands when the roll is made
  (:func:`pbem.games.mythology.combat.defense_now`, issue 15): halved by each Famine that
  struck him earlier in the Turn (210 G 6, "for the remainder of the game Turn") and raised by
  the Turn's "+N Defense" effects of cards, powers and Prayer (302 F); never by a Helper
  (211 C: "no effect when the Hero is the victim of a Divine Occurrence"). The caller says
  what the Turn did (:attr:`Target.famines`, :attr:`Target.bonus`).
* 214 B: for any occurrence Hercules' Defense is 120 whatever his counter (or a Helper, which
  does not help against occurrences either, 211 C) says; the Turn's effects apply to that 120
  as to any Hero's printed number (a Famine that reached him halves it to 60). The god who
  kills Hercules with an occurrence loses 10 Glory at once (:attr:`OccurrenceResult.glory`).
  The Glory gained or lost for other Heroes killed by an occurrence (216 G 4 d, at most 2)
  needs the Control totals and is the caller's.
* Pestilence (G 5): the Hero may not be moved by any player for the rest of the game Turn (what
  has already moved stays moved). Famine (G 6): Defense and Attack are halved and rounded down
  to the nearest ten (:func:`halve_to_ten`) for the remainder of the game Turn; the caller keeps
  the reduced numbers until the Turn Record Phase.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.core.dice import Stream
from pbem.core.ruleset import Event
from pbem.games.mythology.combat import defense_now, famine_halve

#: 009 E 2: Log Sheet codes of the six Divine Occurrences.
EARTHQUAKE, TEMPEST, VOLCANO, PLAGUE, PESTILENCE, FAMINE = "E", "T", "V", "P", "Pe", "F"

#: 214 B: Hercules' Defense Number against every Divine Occurrence.
HERCULES_OCCURRENCE_DEFENSE = 120
#: 214 B: Glory lost at once by the god who kills Hercules with a Divine Occurrence.
HERCULES_GLORY_LOSS = 10
#: 009 G: ten Power Points per game Turn, so no occurrence can have more.
MAX_POWER_POINTS = 10

#: 210 G 4: when a Plague is resolved. Every other occurrence is resolved when its causing
#: player activates it, at any time of the game Turn it was plotted for (210 D).
PLAGUE_TIMING = (
    "210 G 4: a Plague counter is placed in its Area when activated (210 F), but its roll is "
    "made 'at the conclusion of all \"Moving Player\" Phases', i.e. after the last Moving "
    "Player of the Hero Movement Phase (202 B 4) and before the Fate Phase (202 B 5). The "
    "caller schedules it there and passes the Heroes in the Area at that moment; the Area rule "
    "(210 I-J) is checked when it is activated."
)
#: Codes whose roll is deferred to the end of the Moving Player Phases (see PLAGUE_TIMING).
DEFERRED_CODES = frozenset({PLAGUE})

KILL, IMMOBILISE, FAMISH = "kill", "immobilise", "famish"
LAND, SHIP, ANY = "land", "ship", "any"


@dataclass(frozen=True)
class Spec:
    """How one type of occurrence works (210 G)."""

    code: str
    name: str
    rule: str
    per_point: int  # added to the two-digit roll for each Power Point spent
    exposed: str  # LAND (not aboard a ship), SHIP (aboard a ship) or ANY
    single_hex: bool  # Volcano: one hex, not an Area
    effect: str  # KILL, IMMOBILISE or FAMISH
    inclusive: bool  # True: acts when total >= Defense; False: only when total > Defense


SPECS: dict[str, Spec] = {
    EARTHQUAKE: Spec(EARTHQUAKE, "Earthquake", "210 G 1", 10, LAND, False, KILL, False),
    TEMPEST: Spec(TEMPEST, "Tempest", "210 G 2", 10, SHIP, False, KILL, False),
    VOLCANO: Spec(VOLCANO, "Volcano", "210 G 3", 20, LAND, True, KILL, False),
    PLAGUE: Spec(PLAGUE, "Plague", "210 G 4", 20, ANY, False, KILL, False),
    PESTILENCE: Spec(PESTILENCE, "Pestilence", "210 G 5", 20, ANY, False, IMMOBILISE, True),
    FAMINE: Spec(FAMINE, "Famine", "210 G 6", 10, ANY, False, FAMISH, True),
}
CODES: tuple[str, ...] = tuple(SPECS)


@dataclass(frozen=True)
class Target:
    """A Hero the caller puts in the way of an occurrence (in the Area, or the hex for V).

    ``defense``: his printed Defense Number; ``on_land``: the Hero's hex contains land;
    ``on_ship``: he is aboard a ship (215). ``hercules``: this is Hercules, whose Defense is
    120 against occurrences (214 B). ``famines``: the Famines that struck him earlier this Turn
    (210 G 6); ``bonus``: the Turn's "+N Defense" effects on him (cards, powers, Prayer 302).
    """

    hero: int
    defense: int
    on_land: bool
    on_ship: bool
    hercules: bool = False
    famines: int = 0
    bonus: int = 0


@dataclass(frozen=True)
class OccurrenceResult:
    """What one occurrence did.

    ``glory`` is the change to the CAUSING god's Glory from 214 B (0 or -10), to be recorded at
    once; ``events`` are public (an occurrence is rolled in the open).
    """

    code: str
    points: int
    roll: int
    modifier: int
    total: int
    killed: tuple[int, ...]
    immobilised: tuple[int, ...]
    famished: tuple[int, ...]
    glory: int
    events: tuple[Event, ...]


def spec(code: str) -> Spec:
    try:
        return SPECS[code]
    except KeyError:
        raise ValueError(f"unknown Divine Occurrence code {code!r}; "
                         f"the codes are {', '.join(CODES)} (009 E 2)") from None


def modifier(code: str, points: int) -> int:
    """210 G: +10 per Power Point (E, T, F) or +20 per Power Point (V, P, Pe)."""
    if isinstance(points, bool) or not 1 <= points <= MAX_POWER_POINTS:
        raise ValueError(f"an occurrence takes 1 to {MAX_POWER_POINTS} Power Points, got {points}")
    return spec(code).per_point * points


def occurrence_defense(target: Target) -> int:
    """The Defense compared with the roll: the Hero's Defense Number as it stands now
    (:func:`~pbem.games.mythology.combat.defense_now`): from 120 for Hercules (214 B), else
    from the printed one; no Helper (211 C); halved per Famine this Turn (210 G 6); plus the
    Turn's +N Defense."""
    base = HERCULES_OCCURRENCE_DEFENSE if target.hercules else target.defense
    return defense_now(base, famines=target.famines, bonus=target.bonus)


def _defense_note(target: Target) -> str:
    """Why the Defense compared is not the printed one, for the event text ("" if it is)."""
    if not target.famines and not target.bonus:
        return " (Hercules: Defense 120 against occurrences, 214 B)" if target.hercules else ""
    parts = ["Hercules: 120 against occurrences, 214 B" if target.hercules
             else f"printed {target.defense}"]
    if target.famines:
        times = "" if target.famines == 1 else f" {target.famines} times"
        parts.append(f"halved{times} by Famine this Turn, 210 G 6")
    if target.bonus:
        parts.append(f"{target.bonus:+d} for the Turn")
    return " (" + "; ".join(parts) + ")"


def exposed(code: str, target: Target) -> bool:
    """Whether the occurrence can reach this Hero at all (210 G 1-6, 215 C/I)."""
    where = spec(code).exposed
    if where == LAND:
        return target.on_land and not target.on_ship
    if where == SHIP:
        return target.on_ship
    return True


def strikes(code: str, total: int, defense: int) -> bool:
    """210 G: E/T/V/P strike when total > Defense; Pe/F when total >= Defense."""
    return total >= defense if spec(code).inclusive else total > defense


# 210 G 6 Famine halving is one rule with one implementation (see combat.famine_halve for the
# rounding: halve, then down to a multiple of ten; 73 -> 30).
halve_to_ten = famine_halve


def allowed(code: str, god_area: str | None, target_area: str,
            *, god_card_elsewhere: bool = False) -> bool:
    """210 I-J: whether a god can cause this occurrence in ``target_area`` now.

    ``god_area`` is the Area of the causing god's counter, or ``None`` / ``""`` when it is off the
    board (e.g. sent to Olympus by an Event, 010 B 2 b): then no occurrence takes place even
    though it was plotted (210 J). Otherwise it must be that Area (210 I), unless the god's card
    says otherwise (``god_card_elsewhere``; 210 I "unless otherwise stated on the god card").
    For a Volcano ``target_area`` is the Area of the chosen hex.
    """
    spec(code)
    if not god_area:
        return False
    return god_card_elsewhere or god_area == target_area


def resolve(code: str, points: int, targets: Sequence[Target], stream: Stream,
            label: str, *, extra: int = 0) -> OccurrenceResult:
    """Roll one occurrence and compare the single modified roll with each exposed Hero.

    ``targets``: every Hero in the affected Area (the single hex for a Volcano), as the caller
    sees the board when the roll is made (for a Plague: after the last Moving Player, see
    :data:`PLAGUE_TIMING`). Draws ``<label>/<code>/red`` and ``<label>/<code>/white``.
    ``extra`` is added to the modifier by a god's power over its occurrences (011).
    """
    s = spec(code)
    mod = modifier(code, points) + extra
    heroes = [t.hero for t in targets]
    if len(set(heroes)) != len(heroes):
        raise ValueError(f"a Hero is listed twice among the targets: {heroes}")
    roll = stream.two_digit(f"{label}/{code}")
    total = roll + mod
    where = "hex" if s.single_hex else "Area"
    events: list[Event] = [{
        "type": "occurrence",
        "code": code,
        "name": s.name,
        "points": points,
        "roll": roll,
        "modifier": mod,
        "total": total,
        "rule": s.rule,
        "text": f"{s.name} ({points} Power Point{'s' if points != 1 else ''}): rolled {roll}, "
                f"+{mod} = {total}, against every Hero in the {where} ({s.rule}).",
    }]
    killed: list[int] = []
    immobilised: list[int] = []
    famished: list[int] = []
    glory = 0
    for t in targets:
        defense = occurrence_defense(t)
        base: Event = {"type": "occurrence_effect", "code": code, "hero": t.hero,
                       "defense": defense, "total": total}
        herc = _defense_note(t)
        if not exposed(code, t):
            why = "is aboard a ship" if s.exposed == LAND else "is not aboard a ship"
            events.append(base | {"effect": "not_exposed", "text":
                                  f"Hero {t.hero} {why}; the {s.name} does not reach him "
                                  f"({s.rule})."})
            continue
        if not strikes(code, total, defense):
            why = (f"{total} is less than Defense {defense}{herc}" if s.inclusive
                   else f"Defense {defense}{herc} is not less than {total}")
            events.append(base | {"effect": "unaffected",
                                  "text": f"Hero {t.hero}: {why}; unaffected ({s.rule})."})
            continue
        hit = f"Hero {t.hero}: {total} equals or beats Defense {defense}{herc}"
        if s.effect == KILL:
            killed.append(t.hero)
            events.append(base | {"effect": "killed", "text":
                                  f"Hero {t.hero}: Defense {defense}{herc} is less than {total}; "
                                  f"killed by the {s.name} and removed from the game "
                                  f"({s.rule})."})
            if t.hercules:
                glory -= HERCULES_GLORY_LOSS
                events.append({"type": "hercules-slain", "delta": -HERCULES_GLORY_LOSS,
                               "rule": "214 B",
                               "hero": t.hero, "text": "The god who caused the occurrence loses "
                               f"{HERCULES_GLORY_LOSS} Glory at once for killing Hercules "
                               "(214 B)."})
        elif s.effect == IMMOBILISE:
            immobilised.append(t.hero)
            events.append(base | {"effect": "immobilised", "text":
                                  f"{hit}; he may not be moved by any player for the "
                                  f"rest of the game Turn ({s.rule})."})
        else:
            famished.append(t.hero)
            events.append(base | {"effect": "famished", "text":
                                  f"{hit}; his Defense and Attack are halved, rounded "
                                  "down to the nearest ten, for the rest of the game Turn "
                                  f"({s.rule})."})
    return OccurrenceResult(code, points, roll, mod, total, tuple(killed), tuple(immobilised),
                            tuple(famished), glory, tuple(events))

"""Mythology (Yaquinto 1980), Advanced Game: Combat (205, 206), its modifiers (207, 211, 210 G 6)
and Hercules (214 A).

Pure functions: no I/O, no clock, no ``random``. Every two-digit roll (003 B: red die the tens,
white die the units, 11-66) is drawn through :meth:`pbem.core.dice.Stream.two_digit` under a
label built from the caller's ``label`` prefix, and appears in the returned events with that
label, both dice and the value read.

What the caller enforces, not this module:

* 205 K (no unit attacks or is attacked more than once per "Moving Player" Phase), 205 A/B/H/I/J
  (who may declare combat, when, against whom);
* 214 A 3 e (a Hercules filled with remorse may not attack or be attacked);
* which modifiers a unit may carry: Aid/Ailment (207 A 1) and Hero Helpers (211 I) belong to
  Heroes only, and Divine Occurrences such as Famine touch Hero counters only (210 H);
* 214 A 3 a: after a combat in which Hercules took part (and survived), call :func:`remorse`;
* Glory gained for kills, Prizes and Helpers left in the hex of a dead Hero (211 H).

Decisions on clauses the rulebook leaves open are written next to the code that implements
them; the short list:

* 205 G with 206 D 6/D 7: when a Hero attacks a Monster the Monster never rolls and the Hero dies
  on a failed roll, so "can kill" is judged on that procedure: the Hero can be eliminated unless
  his roll cannot fail (11 + attack >= defense); the Monster can be eliminated unless his roll
  cannot succeed (66 + attack < defense). D 6 then removes the doomed unit without a roll; D 7
  never applies (one of the two always dies). The Monster's Attack Number plays no part.
* 206 D 6: a unit that always kills (11 + attack >= opposing defense) still rolls when the other
  unit can also kill it: both may die in the same round (206 D 4). D 6 only removes without a
  roll when one side cannot possibly kill the other.
* 206 E 5/E 6 with both units magical: both roll once, simultaneously; each roll kills either the
  opponent (success) or the roller (failure). Both succeed: both die. Both fail: both die.
  One succeeds: the other (hit by the success and by its own failure) dies.
* 214 A 1 overrides 206 D 5-7 and 205 G: Hercules in Normal Combat wins without dice, whatever
  the numbers, and no Glory is lost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.dice import Stream
from pbem.games.mythology.components import HERO_IDS, LESSER_IDS, MONSTER_IDS

HERO = "hero"
MONSTER = "monster"
#: A Lesser Evil counter (Optional Rule 303). It has Combat like a Monster (303 H): a Hero
#: attacking one rolls alone, once (205 G); one attacking a Hero fights round after round
#: (205 F). Lesser Evil counters and Monsters never fight each other (303 L), nor, being
#: Monster-like, two Lesser Evil counters (205 C).
LESSER = "lesser"
KINDS = (HERO, MONSTER, LESSER)
#: Hero counters are numbered 1-32, Monster counters 33-64, Lesser Evil counters 65-96.
_IDS = {HERO: HERO_IDS, MONSTER: MONSTER_IDS, LESSER: LESSER_IDS}

#: 003 B: the lowest and highest two-digit readings of a red and a white die.
LOWEST_ROLL = 11
HIGHEST_ROLL = 66

#: Room left for the suffixes this module appends ("/r<round>/<unit>/white"), so that the
#: labels handed to :class:`Stream` stay within its 200-character limit.
_LABEL = re.compile(r"[\x21-\x7e]{1,150}")


@dataclass(frozen=True)
class Fighter:
    """One unit as it fights: effective numbers, every modifier already applied (see
    :func:`effective`)."""

    unit: int  # hero ids 1-32, monster ids 33-64, lesser evil ids 65-96
    kind: str  # "hero" | "monster" | "lesser"
    attack: int
    defense: int
    magic: int | None  # Magical Ability number, None if the unit has none (206 C)
    hercules: bool = False  # 214
    magic_penalty: int = 0  # added to a magical roll made AGAINST this unit (211 E)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unit {self.unit}: kind must be 'hero', 'monster' or 'lesser', "
                             f"got {self.kind!r}")
        ids = _IDS[self.kind]
        if self.unit not in ids:
            raise ValueError(f"{self.kind} id {self.unit} outside {ids.start}-{ids.stop - 1}")
        if self.hercules and self.kind != HERO:
            raise ValueError(f"unit {self.unit}: only a Hero counter can be Hercules (214)")
        if self.magic_penalty and self.kind != HERO:
            # 211 I: only Hero counters carry Hero Helpers, the source of the penalty.
            raise ValueError(f"unit {self.unit}: only a Hero can have a magic penalty (211 I)")


@dataclass
class CombatResult:
    killed: tuple[int, ...]  # units eliminated (0, 1 or 2), attacker first
    stalemate: bool  # 206 D 7: neither can kill: stopped, attacker loses 1 Glory
    attacker_glory: int  # -1 on stalemate, else 0
    magical: bool
    rounds: int  # rounds of dice actually rolled (0 when decided without dice)
    events: list[dict[str, Any]] = field(default_factory=list)


def famine_halve(number: int) -> int:
    """210 G 6: "reduced by half (1/2) (rounded down to the nearest ten)".

    Half of 73 is 36.5, rounded down to the nearest ten: 30; 30 -> 15 -> 10; 80 -> 40.
    "Down" is toward minus infinity, so a negative number (possible only through Ailment,
    207 A 1) is halved literally too: -30 -> -15 -> -20. ``floor(floor(n / 2) / 10) * 10``
    equals ``floor(n / 20) * 10``.
    """
    return number // 20 * 10


def defense_now(base: int, *, helpers: int = 0, famines: int = 0, bonus: int = 0) -> int:
    """A Hero's Defense Number as it stands at this moment of the Turn: the one number that
    every rule saying "Defense Number" compares with (206 D 3 Combat, 210 G 1-6 Divine
    Occurrences, 215 F 2 ships). Issue 15: a Famine's halving "for the remainder of the game
    Turn" and the Turn's "+N" effects hold for all of them, not for Combat alone.

    * ``base``: the printed Defense Number (005 B); for Hercules against a Divine Occurrence,
      120 (214 B), which then takes the Turn's effects as his printed number would.
    * ``helpers``: the Defense bonuses of his Hero Helpers (211 E: "his Defense number would
      become 73"). The caller passes 0 where 211 C keeps Helpers out: a Divine Occurrence
      ("no effect when the Hero is the victim") and a ship roll (211 C names only Combat and
      capturing a Prize).
    * ``famines``: how many Famines struck him this Turn (210 G 6); each halves the number as
      it stands, rounded down to the nearest ten (:func:`famine_halve`).
    * ``bonus``: the Turn's "Defense Number +N for the rest of the Turn": cards and god powers
      (the ``defense`` effect, 207 A 2-3) and Prayer or Sacrifice (302 F: "for an entire game
      Turn"). Added after the halving, undiminished: each lasts as its own text says, for the
      rest of the Turn, whether it came before or after the Famine.
    """
    if famines < 0:
        raise ValueError("a Hero is struck by Famine 0 or more times (210 G 6)")
    number = base + helpers
    for _ in range(famines):
        number = famine_halve(number)
    return number + bonus


def effective(
    base_attack: int,
    base_defense: int,
    base_magic: int | None,
    *,
    aid: int = 0,
    ailment: int = 0,
    helpers: Sequence[tuple[int, int, int]] = (),
    famine: int = 0,
    defense_bonus: int = 0,
) -> tuple[int, int, int | None, int]:
    """The numbers a unit fights with: ``(attack, defense, magic, magic_penalty)``.

    * 207 A 1: Attack +10 per point of Aid, -10 per point of Ailment (Defense unchanged).
    * 211 D-E (207 A 4): each Hero Helper ``(attack, defense, magic_penalty)`` adds its bonuses
      (possibly negative) to Attack and Defense; its magic penalty is added to any magical roll
      made against the Hero (Zestes + Helmet of Invisibility: Defense 73, Attack 30, +20).
    * 210 G 6 Famine: Defense AND Attack halved, rounded down to the nearest ten
      (:func:`famine_halve`), once for each Famine that struck the Hero this Turn (``famine``:
      a count; ``True`` is one).
    * ``defense_bonus``: the Turn's +N Defense effects (cards, powers, Prayer), added after
      the halving; the Defense is :func:`defense_now`, the same number the Divine Occurrences
      and the ship roll use.

    Order: Aid/Ailment and Helpers first, Famine halving last. 211 E says that with a Helper the
    Hero's "Defense number would become 73" and 207 A 1 that Aid increases "its Attack Number":
    the modified numbers ARE the Hero's Attack and Defense Numbers, and those are what 210 G 6
    halves. Halving last also keeps the result on the ten-grid that "rounded down to the
    nearest ten" promises. The Magical Ability number is never modified here (none of these
    clauses touches it); the caller passes the base number as the effective one.

    Which units may carry which modifier is the caller's concern (Aid/Ailment and Helpers:
    Heroes only, 207 A 1, 211 I; Famine: Heroes only, 210 H).
    """
    if aid < 0 or ailment < 0:
        raise ValueError("Aid and Ailment are counted in non-negative points (207 A 1)")
    famines = int(famine)
    attack = base_attack + 10 * aid - 10 * ailment
    penalty = 0
    for helper_attack, _, helper_penalty in helpers:
        attack += helper_attack
        penalty += helper_penalty
    for _ in range(famines):
        attack = famine_halve(attack)
    defense = defense_now(base_defense, helpers=sum(h[1] for h in helpers), famines=famines,
                          bonus=defense_bonus)
    return attack, defense, base_magic, penalty


def _roll(stream: Stream, label: str) -> tuple[int, int, int]:
    """003 B two-digit roll: (value, red, white)."""
    value = stream.two_digit(label)
    return value, value // 10, value % 10


def _kill_event(unit: int, rule: str, why: str) -> dict[str, Any]:
    return {"type": "killed", "text": f"unit {unit} is killed and removed from the game: {why}",
            "unit": unit, "rule": rule}


def _can_kill(killer: Fighter, victim: Fighter) -> bool:
    """206 D 3: some roll (at best 66, 003 B) plus Attack reaches the Defense Number."""
    return HIGHEST_ROLL + killer.attack >= victim.defense


def _normal_roll(stream: Stream, label: str, round_no: int, roller: Fighter,
                 target: Fighter, rule: str) -> tuple[bool, dict[str, Any]]:
    """206 D 1-3: two-digit roll plus Attack; equal to or greater than the Defense kills."""
    roll_label = f"{label}/r{round_no}/{roller.unit}"
    value, red, white = _roll(stream, roll_label)
    total = value + roller.attack
    success = total >= target.defense
    text = (f"round {round_no}: unit {roller.unit} rolls {value} (red {red}, white {white})"
            f" + attack {roller.attack} = {total} against defense {target.defense} of unit"
            f" {target.unit}: {'kills' if success else 'misses'}")
    return success, {
        "type": "roll", "text": text, "rule": rule, "label": roll_label, "round": round_no,
        "unit": roller.unit, "target": target.unit, "red": red, "white": white, "roll": value,
        "attack": roller.attack, "total": total, "defense": target.defense, "success": success,
    }


def _magic_roll(stream: Stream, label: str, roller: Fighter,
                target: Fighter) -> tuple[bool, dict[str, Any]]:
    """206 E 3: two-digit roll (+ the target's Helper penalty, 211 E) against the Magical
    Ability number: equal to or LESS kills the opponent, GREATER kills the roller."""
    assert roller.magic is not None
    roll_label = f"{label}/magic/{roller.unit}"
    value, red, white = _roll(stream, roll_label)
    total = value + target.magic_penalty
    success = total <= roller.magic
    penalty = f" + helper penalty {target.magic_penalty} = {total}" if target.magic_penalty else ""
    outcome = f"kills unit {target.unit}" if success else f"unit {roller.unit} itself is killed"
    text = (f"unit {roller.unit} rolls magic {value} (red {red}, white {white}){penalty}"
            f" against magical ability {roller.magic}: {outcome}")
    return success, {
        "type": "magic_roll", "text": text, "rule": "206 E 3", "label": roll_label,
        "unit": roller.unit, "target": target.unit, "red": red, "white": white, "roll": value,
        "penalty": target.magic_penalty, "total": total, "magic": roller.magic,
        "success": success,
    }


def _is_magical(attacker: Fighter, defender: Fighter, attacker_elects: bool,
                defender_elects: bool) -> bool:
    """206 E 1-2: both magical -> always magical; one magical -> magical if it elects."""
    for unit, elects in ((attacker, attacker_elects), (defender, defender_elects)):
        if elects and unit.magic is None:
            raise ValueError(f"unit {unit.unit} has no Magical Ability number and cannot elect "
                             "Magical Combat (206 C)")
    if attacker.magic is not None and defender.magic is not None:
        return True  # 206 E 2: always used, whatever is elected
    return attacker_elects or defender_elects  # 206 E 1: only the magical unit can elect


def resolve(
    attacker: Fighter,
    defender: Fighter,
    stream: Stream,
    label: str,
    *,
    attacker_elects_magic: bool = False,
    defender_elects_magic: bool = False,
) -> CombatResult:
    """Resolve one Combat (205, 206, 214 A 1-2) between ``attacker`` and ``defender``.

    Roll labels: ``<label>/r<round>/<unit>`` for Normal Combat, ``<label>/magic/<unit>`` for
    Magical Combat; :meth:`Stream.two_digit` draws ``.../red`` then ``.../white`` under each.
    In a round of Normal Combat the attacker rolls first. ``label`` is 1-150 printable ASCII
    characters without spaces; the caller keeps it unique within the stream.
    """
    if not _LABEL.fullmatch(label):
        raise ValueError(f"combat label must be 1-150 printable ASCII characters without spaces:"
                         f" {label!r}")
    if attacker.unit == defender.unit:
        raise ValueError(f"unit {attacker.unit} cannot fight itself")
    if attacker.kind == MONSTER and defender.kind == MONSTER:
        # 205 C: "Monsters may not attack or have Combat with other Monster counters."
        raise ValueError(f"205 C: Monster {attacker.unit} may not have Combat with Monster "
                         f"{defender.unit}")
    if attacker.kind != HERO and defender.kind != HERO:
        # 303 L: "Lesser Evil counters and Monster counters may never attack each other"; two
        # Lesser Evil counters, which have Combat like Monsters (303 H), fall under 205 C.
        raise ValueError(f"303 L: {attacker.kind} {attacker.unit} may not have Combat with "
                         f"{defender.kind} {defender.unit}")
    if attacker.hercules and defender.hercules:
        raise ValueError("there is only one Hercules counter (214)")

    magical = _is_magical(attacker, defender, attacker_elects_magic, defender_elects_magic)
    events: list[dict[str, Any]] = [{
        "type": "combat",
        "text": (f"{attacker.kind} {attacker.unit} attacks {defender.kind} {defender.unit}:"
                 f" {'magical' if magical else 'normal'} combat"),
        "rule": "206 E" if magical else "206 D",
        "attacker": attacker.unit, "defender": defender.unit,
        "mode": "magical" if magical else "normal",
    }]
    if magical:
        return _resolve_magical(attacker, defender, stream, label, events,
                                attacker_elects_magic, defender_elects_magic)
    return _resolve_normal(attacker, defender, stream, label, events)


def _resolve_magical(attacker: Fighter, defender: Fighter, stream: Stream, label: str,
                     events: list[dict[str, Any]], attacker_elects: bool,
                     defender_elects: bool) -> CombatResult:
    # 214 A 2: Hercules can be killed in Magical Combat, "fought in the normal manner": nothing
    # special happens here, whichever side he is on.
    if attacker.magic is not None and defender.magic is not None:
        # 206 E 5: both players roll; 206 E 6: one roll each, no repeat. The two rolls are
        # simultaneous (as in 206 D 4): each kills the opponent on success, the roller on
        # failure, so both die when both succeed or both fail, and when exactly one succeeds
        # the other unit dies (killed by the success and by its own failure alike).
        a_ok, a_event = _magic_roll(stream, label, attacker, defender)
        d_ok, d_event = _magic_roll(stream, label, defender, attacker)
        events += [a_event, d_event]
        killed: list[int] = []
        if d_ok or not a_ok:
            killed.append(attacker.unit)
            why = (f"unit {defender.unit}'s magic succeeded" if d_ok
                   else "its own magic failed")
            events.append(_kill_event(attacker.unit, "206 E 5", why))
        if a_ok or not d_ok:
            killed.append(defender.unit)
            why = (f"unit {attacker.unit}'s magic succeeded" if a_ok
                   else "its own magic failed")
            events.append(_kill_event(defender.unit, "206 E 5", why))
        return CombatResult(tuple(killed), False, 0, True, 1, events)

    # 206 E 1, E 3, E 4: exactly one unit has Magical Ability and elected it; only its
    # controller rolls, once (206 E 6).
    mage, other = (attacker, defender) if attacker_elects else (defender, attacker)
    ok, event = _magic_roll(stream, label, mage, other)
    events.append(event)
    if ok:
        loser = other
        why = f"unit {mage.unit}'s magic succeeded (206 E 3 b)"
    else:
        loser = mage
        why = "its own magic failed (206 E 3 c)"
    events.append(_kill_event(loser.unit, "206 E 3", why))
    return CombatResult((loser.unit,), False, 0, True, 1, events)


def _resolve_normal(attacker: Fighter, defender: Fighter, stream: Stream, label: str,
                    events: list[dict[str, Any]]) -> CombatResult:
    # 214 A 1: Hercules cannot be killed in Normal Combat with a Hero or a Monster: he wins, the
    # other counter is removed, no dice. This overrides 205 G and 206 D 5-7 (no stalemate, no
    # Glory lost), whatever the numbers.
    for herc, other in ((attacker, defender), (defender, attacker)):
        if herc.hercules:
            events.append({
                "type": "auto", "rule": "214 A 1", "unit": other.unit, "winner": herc.unit,
                "text": (f"Hercules (unit {herc.unit}) cannot be killed in normal combat: he"
                         f" wins without dice"),
            })
            events.append(_kill_event(other.unit, "214 A 1", "beaten by Hercules"))
            return CombatResult((other.unit,), False, 0, False, 0, events)

    if attacker.kind == HERO and defender.kind in (MONSTER, LESSER):
        return _hero_attacks_monster(attacker, defender, stream, label, events)  # 303 H

    # Hero against Hero (205 E) or Monster against Hero (205 F): both roll, round after round.
    a_can = _can_kill(attacker, defender)
    d_can = _can_kill(defender, attacker)
    if not a_can and not d_can:
        # 206 D 7: neither can eliminate the other: stopped at once, attacker loses 1 Glory.
        events.append({
            "type": "stalemate", "rule": "206 D 7", "unit": attacker.unit, "glory": -1,
            "text": (f"neither unit can kill the other (66 + {attacker.attack} <"
                     f" {defender.defense}, 66 + {defender.attack} < {attacker.defense}):"
                     f" combat stops, the attacking player loses 1 Glory Point"),
        })
        return CombatResult((), True, -1, False, 0, events)
    if a_can != d_can:
        # 206 D 6: only one side can ever kill: the other is removed without rolling dice.
        # Checked before any roll. A side that always kills (11 + attack >= defense) still
        # rolls when the other side can kill it too (both may die, 206 D 4).
        winner, loser = (attacker, defender) if a_can else (defender, attacker)
        events.append({
            "type": "auto", "rule": "206 D 6", "unit": loser.unit, "winner": winner.unit,
            "text": (f"unit {loser.unit} cannot kill unit {winner.unit} (66 + {loser.attack} <"
                     f" {winner.defense}) but can be killed by it: removed without rolling"),
        })
        events.append(_kill_event(loser.unit, "206 D 6", f"unit {winner.unit} is sure to win"))
        return CombatResult((loser.unit,), False, 0, False, 0, events)

    # 206 D 1-5: both roll each round; both may die (D 4); repeat until one or both die (D 5).
    # Each round kills with probability at least 1/36 (a 66 on either side), so it ends.
    round_no = 0
    while True:
        round_no += 1
        a_ok, a_event = _normal_roll(stream, label, round_no, attacker, defender, "206 D 1-3")
        d_ok, d_event = _normal_roll(stream, label, round_no, defender, attacker, "206 D 1-3")
        events += [a_event, d_event]
        if a_ok or d_ok:
            break
        events.append({"type": "round", "rule": "206 D 5", "round": round_no,
                       "text": f"round {round_no}: neither unit is killed, roll again"})
    killed: list[int] = []
    if d_ok:
        killed.append(attacker.unit)
        why = f"unit {defender.unit} rolled high enough"
        events.append(_kill_event(attacker.unit, "206 D 3", why))
    if a_ok:
        killed.append(defender.unit)
        why = f"unit {attacker.unit} rolled high enough"
        events.append(_kill_event(defender.unit, "206 D 3", why))
    if len(killed) == 2:
        events.append({"type": "both_killed", "rule": "206 D 4", "round": round_no,
                       "text": "both units kill each other in the same round"})
    return CombatResult(tuple(killed), False, 0, False, round_no, events)


def _hero_attacks_monster(hero: Fighter, monster: Fighter, stream: Stream, label: str,
                          events: list[dict[str, Any]]) -> CombatResult:
    """205 G (206 D 5): only the attacking Hero rolls, once; enough kills the Monster, not enough
    kills the Hero. The Monster's Attack Number plays no part.

    206 D 6 is judged on this procedure: the Monster can be eliminated only if 66 + attack can
    reach its Defense; the Hero can be eliminated only if his roll can fail (11 + attack below
    the Monster's Defense). When one of the two cannot happen the other unit is removed without
    a roll. 206 D 7 never applies: one of the two always dies. A Lesser Evil counter is
    attacked the same way (303 H).
    """
    noun = "Monster" if monster.kind == MONSTER else "Lesser Evil"
    if not _can_kill(hero, monster):
        events.append({
            "type": "auto", "rule": "206 D 6", "unit": hero.unit, "winner": monster.unit,
            "text": (f"Hero {hero.unit} cannot kill {noun} {monster.unit} (66 + {hero.attack} <"
                     f" {monster.defense}) and would die on the failed roll (205 G): removed"
                     " without rolling"),
        })
        events.append(_kill_event(hero.unit, "205 G", "his attack cannot succeed"))
        return CombatResult((hero.unit,), False, 0, False, 0, events)
    if LOWEST_ROLL + hero.attack >= monster.defense:
        events.append({
            "type": "auto", "rule": "206 D 6", "unit": monster.unit, "winner": hero.unit,
            "text": (f"Hero {hero.unit} cannot fail against {noun} {monster.unit} (11 +"
                     f" {hero.attack} >= {monster.defense}) and the {noun} does not roll"
                     " (205 G): removed without rolling"),
        })
        events.append(_kill_event(monster.unit, "205 G", "the Hero's attack cannot fail"))
        return CombatResult((monster.unit,), False, 0, False, 0, events)
    ok, event = _normal_roll(stream, label, 1, hero, monster, "205 G")
    events.append(event)
    if ok:
        events.append(_kill_event(monster.unit, "205 G", "the Hero's roll was great enough"))
        return CombatResult((monster.unit,), False, 0, False, 1, events)
    events.append(_kill_event(hero.unit, "205 G", "the Hero's roll was not great enough"))
    return CombatResult((hero.unit,), False, 0, False, 1, events)


def remorse(hercules_attack: int, stream: Stream, label: str) -> tuple[bool, dict[str, Any]]:
    """214 A 3 a: after a combat Hercules took part in, a two-digit roll LESS than his Attack
    Number fills him with remorse (equal is not enough). ``hercules_attack`` is the Attack
    Number he fought with (:attr:`Fighter.attack`): "Hercules' Attack Number" with everything
    that made it so in that Combat (Aid and Ailment, 207 A 1; Helpers, 211 E; Famine, 210 G 6;
    a card or power, 207 A 2-3), not the printed 40 (issue 15, docs/games/mythology.md). The
    roll is drawn as ``<label>/remorse``."""
    if not _LABEL.fullmatch(label):
        raise ValueError(f"remorse label must be 1-150 printable ASCII characters without "
                         f"spaces: {label!r}")
    roll_label = f"{label}/remorse"
    value, red, white = _roll(stream, roll_label)
    filled = value < hercules_attack
    text = (f"Hercules remorse check: rolls {value} (red {red}, white {white}) against attack"
            f" {hercules_attack}: {'filled with remorse' if filled else 'no remorse'}")
    return filled, {
        "type": "remorse", "text": text, "rule": "214 A 3 a", "label": roll_label, "red": red,
        "white": white, "roll": value, "attack": hercules_attack, "remorse": filled,
    }

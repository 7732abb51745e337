"""Mythology (Yaquinto 1980), Advanced Game: Hero and Monster Control (208), Determining
Control by Challenge (209) and the Glory Points tied to control (216 G 4, G 5, G 6).

Pure functions: no I/O, no clock, no ``random``. Zeus Arbitration and the Monster roll-off
(209 D 6-7) are two-digit rolls (003 B: red die the tens, white die the units, 11-66) drawn
through :meth:`pbem.core.dice.Stream.two_digit` under labels built from the caller's prefix;
every roll appears in the returned events with its label, both dice and the total.

By email nobody can bid live, so every bidder gives a limit in advance: the Moving Player's
order names the most it will announce on this attempt, and each challenger's sealed Log Sheet
carries a standing challenge order with the most it will announce (both already capped at what
the player has available, 209 D 1). :func:`auction` plays 209 D as the table would with those
limits and writes the announcements out so that players can follow it.

What the caller does, not this module:

* decides which standing challenge orders fire on this attempt (their conditions, 209 F: a
  challenge is always optional) and passes them in seat order, clockwise from the Moving Player;
* caps each limit at the player's available points (:func:`available`, 208 I/J, 209 D 1);
* counts the attempt as one of the five of 209 A whether or not it succeeded (209 H; the result
  says whether the unit may move, ``moved``);
* adds 216 G 5 (+1 per Hero successfully moved, :func:`moving_glory`) on top of the challenge
  Glory returned here;
* 007 B / 009 G (at most 10 Power Points per turn across the whole Log Sheet).

Interpretation decisions (each repeated next to its code):

* 208 I with 009 D 1-2: T = previous T + C when C >= 1; a turn with C = 0 drops T to 0 at once
  (216 G 4 b: "zero ... beginning in the Turn in which no allocation was made"); spending resumes
  from 0. 208 J: Monster points count only in the turn they are written.
* 208 H: the single player with the most points controls; nobody with a point, or a tie at the
  top, means no single controller (:func:`controller` returns ``None``). A tie is only ever
  settled by a Challenge (209 D 4-7), for that "Moving Player" Phase.
* 209 D 1-3 with known limits: the Moving Player must announce a number HIGHER than the
  challenger's; it loses only when it "can not equal or exceed" it. So a Moving Player that can
  equal the challenger's number but not exceed it has neither won nor lost: that is the "draw
  (a tie)" of 209 D 4. With limits M (mover) and C (challenger): M > C the mover wins, C > M the
  challenger wins, M == C is a draw, including M == C == 0 (a challenger may announce 0: "equal
  to or greater than" 0).
* Several challengers (the rulebook describes two players): a PBEM adaptation. Challenges are
  taken one at a time in seat order; each is a complete two-player 209 D contest between the
  challenger and the current holder of the unit (first the Moving Player; a challenger that
  wins takes the holder's place and the holder's side of the procedure: it announces first and
  must go higher). The last holder controls the unit for this attempt; the unit moves only if
  that is the Moving Player (209 E). Every standing challenge is therefore made, the final
  holder is always a player with the highest limit (208 H), and equal highest limits meet in
  Zeus Arbitration.
* 216 G 6 is "Challenging HERO Movement": Glory for challenges is given for Hero counters only.
  Each contest (each challenge made) gives +1 to its winner and -1 to its loser; a Moving Player
  that keeps control gets its +1 per challenge it wins (the second point of G 6 is 216 G 5,
  added by the caller). Monster challenges give no Glory.
* 209 D 6: equal modified totals in Zeus Arbitration (and equal rolls in the Monster roll-off of
  209 D 7) are rolled again by the tied players until one total is highest.
* 301 C 1 (Optional Rule, a Zeus player): :func:`auction` takes ``favor``, the gods in the order
  of Zeus's favour; a Hero's draw goes to the tied player first in it, without a roll, instead
  of Zeus Arbitration. A Monster's draw keeps the roll-off (301 C 1 speaks of Heroes).
* 216 G 4: see :func:`kill_glory`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.dice import Stream
from pbem.core.orders import PLAYER_NAME
from pbem.games.mythology.components import HERO_IDS, MONSTER_IDS

#: 007 B: at most ten Power Points per game Turn.
MAX_POWER_POINTS = 10
#: Hero counters are numbered 1-32 (009 D), Monster counters 33-64.
#: 216 G 4 a: one Glory Point per five Power Points, rounded up.
POINTS_PER_KILL_GLORY = 5
#: 216 G 4 b, 216 G 4 c: the penalty for killing an uncontrolled Hero or one's own Hero.
KILL_PENALTY = -5
#: 216 G 4 d: the most a Divine Occurrence kill can bring.
OCCURRENCE_KILL_CAP = 2

#: Room left for the suffixes this module appends ("/c<n>/zeus<r>/<player>/white"), so that
#: the labels handed to :class:`Stream` stay within its 200-character limit.
_LABEL = re.compile(r"[\x21-\x7e]{1,120}")


def _check_points(value: int, what: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{what} must be a whole number of Power Points (0 or more), "
                         f"got {value!r}")


# ---------------------------------------------------------------------------------------------
# 208 H-J, 009 D-E: available points and the controller


def hero_totals(previous: Mapping[int, int], spent_this_turn: Mapping[int, int]) -> dict[int, int]:
    """One player's Hero "T" line after this turn (009 D 1-2, 208 I).

    ``previous``: hero id -> T after the previous turn; ``spent_this_turn``: hero id -> C this
    turn. A Hero with C >= 1 gets T = previous T + C (009 D 1: Hector 12, 3 then 5 -> 8). A Hero
    with no point this turn loses everything spent on him (208 I), from this very turn on
    (216 G 4 b: "zero ... beginning in the Turn in which no allocation was made"): he is left
    out of the result, which lists only Heroes with a total of at least 1; an absent Hero's
    total is 0, and spending on him later starts again from 0.
    """
    for hero, t in previous.items():
        _check_points(t, f"previous total of Hero {hero}")
    for hero, c in spent_this_turn.items():
        _check_points(c, f"points spent on Hero {hero}")
    spent = sum(spent_this_turn.values())
    if spent > MAX_POWER_POINTS:
        raise ValueError(f"{spent} Power Points spent on Heroes in one turn; a god has "
                         f"{MAX_POWER_POINTS} (007 B)")
    return {hero: previous.get(hero, 0) + c
            for hero, c in sorted(spent_this_turn.items()) if c >= 1}


def available(turns: Sequence[Mapping[int, int]], unit: int, *, is_hero: bool) -> int:
    """The Power Points one player has available to control ``unit`` this turn (209 D 1).

    ``turns`` is that player's Log Sheet "C" entries for Heroes (``is_hero``) or for Monsters,
    one mapping per game Turn from turn 1 up to and including the current turn.

    * Hero: the current "T" total (208 I): cumulative, reset to 0 by any turn without a point.
    * Monster: only the points written THIS turn, i.e. the last mapping (208 J, 009 E 1).
    """
    if not turns:
        return 0
    if not is_hero:
        points = turns[-1].get(unit, 0)
        _check_points(points, f"points spent on Monster {unit}")
        return points
    totals: dict[int, int] = {}
    for spent in turns:
        totals = hero_totals(totals, spent)
    return totals.get(unit, 0)


def available_by_player(logs: Mapping[str, Sequence[Mapping[int, int]]], unit: int, *,
                        is_hero: bool) -> dict[str, int]:
    """:func:`available` for every player: the input of :func:`controller` and of the
    announcements of 216 G 4 a."""
    return {player: available(turns, unit, is_hero=is_hero)
            for player, turns in sorted(logs.items())}


def controller(points_by_player: Mapping[str, int]) -> str | None:
    """208 H: "The player who has spent the most Power Points up to the current game Turn is the
    player who Controls" the unit.

    ``None`` when nobody has a point, or when two or more players share the highest total: then
    no player has spent "the most" and nobody controls the unit outside a Challenge. A tie is
    settled only when it meets in a Challenge (209 D 4-7, :func:`auction`), and then only for
    that "Moving Player" Phase. (A player who moves a unit unchallenged controls it for his
    Phase whatever the totals, 209 G; that is the caller's concern.)
    """
    for player, points in points_by_player.items():
        _check_points(points, f"{player}'s points")
    best = max(points_by_player.values(), default=0)
    if best <= 0:
        return None
    top = [p for p, v in points_by_player.items() if v == best]
    return top[0] if len(top) == 1 else None


# ---------------------------------------------------------------------------------------------
# 209: the Challenge auction


@dataclass(frozen=True)
class Challenge:
    """One challenge on one attempt (209 C): ``limit`` is the most that challenger will
    announce, already capped at what it has available (209 D 1)."""

    player: str
    limit: int


@dataclass
class AuctionResult:
    winner: str  # who controls the unit for this attempt (209 D, 209 G)
    moved: bool  # the Moving Player may move the unit (209 B, 209 E)
    glory: dict[str, int]  # 216 G 6 only, net per participant (216 G 5 is the caller's)
    events: list[dict[str, Any]] = field(default_factory=list)


def _unit_name(unit: int, is_hero: bool) -> str:
    return f"{'Hero' if is_hero else 'Monster'} {unit}"


def _announce(events: list[dict[str, Any]], number: int, player: str, points: int, how: str,
              rule: str) -> None:
    verb = {"opens": "opens at", "raises": "raises to", "equals": "equals with"}[how]
    events.append({"type": "announce", "rule": rule, "challenge": number, "player": player,
                   "points": points, "how": how,
                   "text": f"{player} {verb} {points} Power Point{'s' if points != 1 else ''}"})


def _bidding(events: list[dict[str, Any]], number: int, holder: str, holder_limit: int,
             challenger: str, challenger_limit: int) -> str | None:
    """209 D 1-3 between the holder (in the Moving Player's place) and one challenger, with
    each side's limit known; the winner, or ``None`` for the draw of 209 D 4.

    209 D 2: the challenger must announce a number "equal to or greater than" the holder's and
    loses if it "can not equal or exceed" it; the holder must then announce "another number
    higher" and loses if it "can not equal or exceed" the challenger's number. A holder that can
    equal but not exceed has neither obtained nor lost control: the bidding "ends in a draw"
    (209 D 4). With limits H and C: H > C holder, C > H challenger, H == C draw.

    The transcript: each side raises by one over the other's last number; a challenger that can
    no longer raise announces an equal number if it can (its whole limit). The holder opens at 0
    or 1, whichever has the parity of its limit, so that its own announcements end exactly on its
    limit and the challenger's raises never land on it: the sequence then always ends as the
    limits decide (a challenger raising onto exactly the holder's limit would leave the holder
    only able to equal: a draw the challenger could have won by announcing one more).
    """
    last = holder_limit % 2
    _announce(events, number, holder, last, "opens", "209 D 1")
    while True:
        # 209 D 2, first sentence: the challenger must equal or exceed.
        if challenger_limit > last:
            last += 1
            _announce(events, number, challenger, last, "raises", "209 D 2")
        elif challenger_limit == last:
            _announce(events, number, challenger, last, "equals", "209 D 2")
        else:
            events.append({"type": "cannot", "rule": "209 D 2", "challenge": number,
                           "player": challenger, "points": last,
                           "text": f"{challenger} cannot equal or exceed {last}: {holder} "
                                   "obtains control"})
            return holder
        # 209 D 2, third sentence: the holder must announce a higher number.
        if holder_limit > last:
            last += 1
            _announce(events, number, holder, last, "raises", "209 D 2")
        elif holder_limit == last:
            events.append({"type": "draw", "rule": "209 D 4", "challenge": number,
                           "player": holder, "points": last,
                           "text": f"{holder} can equal {last} but not exceed it: the bidding "
                                   "ends in a draw"})
            return None
        else:
            events.append({"type": "cannot", "rule": "209 D 2", "challenge": number,
                           "player": holder, "points": last,
                           "text": f"{holder} cannot equal or exceed {last}: {challenger} "
                                   "obtains control"})
            return challenger


def _arbitrate(events: list[dict[str, Any]], number: int, players: Sequence[str], unit: int,
               is_hero: bool, zeus_modifiers: Mapping[str, int], stream: Stream,
               label: str) -> str:
    """209 D 4-7: each tied player rolls two digits, plus (Heroes only, 209 D 6 a-c) his god's
    Zeus Arbitration modifier for this Hero; the highest total controls (209 D 6 d). Monsters
    use the same roll without modifiers (209 D 7). Equal highest totals: those players roll
    again (the rulebook needs one highest total and gives no other way to get it)."""
    kind = "zeus" if is_hero else "rolloff"
    rule = "209 D 6" if is_hero else "209 D 7"
    what = "Zeus Arbitration" if is_hero else "the Monster roll-off"
    events.append({"type": "arbitration", "rule": "209 D 4" if is_hero else "209 D 5",
                   "challenge": number, "players": list(players),
                   "text": f"{' and '.join(players)} go to {what} for "
                           f"{_unit_name(unit, is_hero)}"})
    rolling = list(players)
    round_no = 1
    while True:
        totals: dict[str, int] = {}
        for player in rolling:
            roll_label = f"{label}/c{number}/{kind}{round_no}/{player}"
            value = stream.two_digit(roll_label)
            red, white = value // 10, value % 10
            modifier = zeus_modifiers[player] if is_hero else 0
            totals[player] = value + modifier
            sign = "+" if modifier >= 0 else "-"
            mod_text = f" {sign} modifier {abs(modifier)} = {value + modifier}" if is_hero else ""
            events.append({
                "type": "arbitration_roll", "rule": rule, "challenge": number,
                "round": round_no, "player": player, "label": roll_label, "red": red,
                "white": white, "roll": value, "modifier": modifier, "total": value + modifier,
                "text": f"{player} rolls {value} (red {red}, white {white}){mod_text}"})
        best = max(totals.values())
        leaders = [p for p in rolling if totals[p] == best]
        if len(leaders) == 1:
            events.append({"type": "arbitration_result", "rule": rule, "challenge": number,
                           "player": leaders[0], "total": best,
                           "text": f"{leaders[0]} has the highest total, {best}, and obtains "
                                   "control"})
            return leaders[0]
        events.append({"type": "arbitration_tie", "rule": rule, "challenge": number,
                       "round": round_no, "players": leaders, "total": best,
                       "text": f"{' and '.join(leaders)} tie at {best} and roll again"})
        rolling = leaders
        round_no += 1


def _favored(events: list[dict[str, Any]], number: int, players: Sequence[str], unit: int,
             favor: Sequence[str]) -> str | None:
    """Optional Rule 301 C 1: the Zeus player decides a Hero's draw by his favour, instead of
    Zeus Arbitration: the first of the tied players in ``favor`` (None if neither is in it)."""
    ranked = [p for p in favor if p in players]
    if not ranked:
        return None
    winner = ranked[0]
    other = next(p for p in players if p != winner)
    events.append({"type": "favor", "rule": "301 C 1", "challenge": number,
                   "players": list(players), "player": winner,
                   "text": f"Zeus favours {winner} over {other} for "
                           f"{_unit_name(unit, True)} (301 C 1)"})
    return winner


def auction(unit: int, is_hero: bool, mover: str, mover_limit: int,
            challenges: Sequence[Challenge], zeus_modifiers: Mapping[str, int], stream: Stream,
            label: str, favor: Sequence[str] = ()) -> AuctionResult:
    """One attempt to move ``unit`` (209 B-E) and the Challenges made on it.

    ``mover_limit`` is the most the Moving Player will announce; ``challenges`` are in seat
    order, clockwise from the Moving Player, each with its limit; ``zeus_modifiers`` gives, for
    a Hero, each participant's Zeus Arbitration modifier for that Hero from his god card
    (209 D 6 a; ignored for Monsters, 209 D 7). Draws go to ``stream`` under
    ``<label>/c<challenge>/zeus<round>/<player>`` (``rolloff`` for Monsters), each a two-digit
    roll with ``/red`` and ``/white``.

    Several challengers: one at a time, each a full 209 D contest against the current holder
    (see the module docstring). 216 G 6 Glory (Hero counters only): +1 to the winner and -1 to
    the loser of every challenge made.

    ``favor`` (Optional Rule 301 C 1, a Zeus player): the gods in the order of Zeus's favour. A
    Hero's draw then goes to the tied player who comes first in it, without a roll; a Monster's
    draw still goes to the roll-off (209 D 7). Empty (the default): Zeus Arbitration.
    """
    if not _LABEL.fullmatch(label):
        raise ValueError("label prefix must be 1-120 printable ASCII characters without "
                         f"spaces: {label!r}")
    ids = HERO_IDS if is_hero else MONSTER_IDS
    if unit not in ids:
        raise ValueError(f"{_unit_name(unit, is_hero)}: ids run {ids.start}-{ids.stop - 1}")
    players = [mover, *(c.player for c in challenges)]
    for player in players:
        if not isinstance(player, str) or not PLAYER_NAME.fullmatch(player):
            raise ValueError(f"not a player name: {player!r}")
    if len(set(players)) != len(players):
        raise ValueError("each player challenges an attempt at most once, and never his own "
                         f"(209 C): {players}")
    if any(not isinstance(p, str) for p in favor):
        raise ValueError(f"favor must list player names: {list(favor)}")
    _check_points(mover_limit, f"{mover}'s limit")
    for c in challenges:
        _check_points(c.limit, f"{c.player}'s limit")
    if is_hero and challenges:
        missing = [p for p in players if p not in zeus_modifiers]
        if missing:
            raise ValueError("Zeus Arbitration needs every participant's modifier for "
                             f"{_unit_name(unit, is_hero)} (209 D 6 a): missing {missing}")
        for p in players:
            m = zeus_modifiers[p]
            if not isinstance(m, int) or isinstance(m, bool):
                raise ValueError(f"{p}'s Zeus Arbitration modifier must be an integer: {m!r}")

    name = _unit_name(unit, is_hero)
    events: list[dict[str, Any]] = [{
        "type": "attempt", "rule": "209 B", "player": mover, "unit": unit,
        "kind": "hero" if is_hero else "monster",
        "text": f"{mover} attempts to move {name}"}]
    glory = dict.fromkeys(players, 0)
    if not challenges:
        events.append({"type": "unchallenged", "rule": "209 B", "player": mover,
                       "text": f"nobody challenges: {mover} may move {name}"})
        return AuctionResult(mover, True, glory, events)

    holder, holder_limit = mover, mover_limit
    for number, challenge in enumerate(challenges, start=1):
        events.append({
            "type": "challenge", "rule": "209 C", "challenge": number,
            "player": challenge.player, "holder": holder,
            "text": (f"{challenge.player} challenges {mover}'s attempt" if holder == mover
                     else f"{challenge.player} challenges {holder}'s control of {name}")})
        winner = _bidding(events, number, holder, holder_limit, challenge.player,
                          challenge.limit)
        if winner is None and is_hero and favor:
            winner = _favored(events, number, (holder, challenge.player), unit, favor)
        if winner is None:
            winner = _arbitrate(events, number, (holder, challenge.player), unit, is_hero,
                                zeus_modifiers, stream, label)
        loser = challenge.player if winner == holder else holder
        event: dict[str, Any] = {"type": "challenge_result", "rule": "209 D",
                                 "challenge": number, "winner": winner, "loser": loser,
                                 "text": f"{winner} wins the challenge against {loser}"}
        if is_hero:
            # 216 G 6: the winner of the challenge +1, the loser -1.
            glory[winner] += 1
            glory[loser] -= 1
            event["rule"] = "209 D, 216 G 6"
            event["glory"] = {winner: 1, loser: -1}
            event["text"] += f": {winner} +1 Glory Point, {loser} -1"
        events.append(event)
        if winner == challenge.player:
            holder, holder_limit = challenge.player, challenge.limit

    moved = holder == mover
    if moved:
        text = f"{mover} controls {name} and may move it (209 E)"
    else:
        text = (f"{holder} controls {name}: {mover} may not move it this Phase, and the "
                "attempt counts as one of five (209 E, 209 H)")
    events.append({"type": "control", "rule": "209 E", "winner": holder, "moved": moved,
                   "text": text})
    return AuctionResult(holder, moved, glory, events)


# ---------------------------------------------------------------------------------------------
# 216 G 4-6: Glory tied to control


def glory_for_points(total: int) -> int:
    """216 G 4 a: Power Points divided by five, "always rounding up": 14 -> 3, 1-4 -> 1,
    5 -> 1, 6 -> 2; 0 -> 0."""
    _check_points(total, "total")
    return math.ceil(total / POINTS_PER_KILL_GLORY)


def moving_glory(moved: bool, is_hero: bool) -> int:
    """216 G 5: +1 each time the Moving Player successfully moves a Hero counter (also the
    second point 216 G 6 gives a Moving Player that wins a challenge). Monsters: nothing."""
    return 1 if moved and is_hero else 0


def kill_glory(killer: str, controller_points: Mapping[str, int], *, by_occurrence: bool,
               killer_controlled_unit: bool) -> int:
    """216 G 4: the Glory gained or lost by the player responsible for killing a Hero.

    ``controller_points``: what every player announces as available for control of the dead
    Hero (216 G 4 a; :func:`available_by_player`). ``by_occurrence``: the Hero died of a Divine
    Occurrence the killer caused (G 4 d), otherwise in combat with a Hero or Monster;
    ``killer_controlled_unit``: in combat, whether that Hero or Monster was controlled by the
    killer at the time of combat (ignored for Divine Occurrences).

    * G 4 b: nobody has a point: -5.
    * G 4 c: the killer is the Controlling Player: -5. "The Player who declares the highest
      total is deemed the Controlling Player": when several players share the highest total
      each of them declared it, so a killer among them counts as a Controlling Player.
    * G 4 a: otherwise ceil(highest total / 5) (14 -> 3, 1-4 -> 1); through combat only when
      the killer controlled the killing unit, else 0 ("to receive ANY Glory Points").
      That last sentence limits what the killer RECEIVES; it does not lift the losses of
      G 4 b and G 4 c, which apply whoever controlled the killing unit.
    * G 4 d: a Divine Occurrence kill brings at most 2.
    """
    for player, points in controller_points.items():
        _check_points(points, f"{player}'s points")
    best = max(controller_points.values(), default=0)
    if best <= 0:
        return KILL_PENALTY  # 216 G 4 b
    if controller_points.get(killer, 0) == best:
        return KILL_PENALTY  # 216 G 4 c
    if not by_occurrence and not killer_controlled_unit:
        return 0  # 216 G 4 a, last sentence
    gain = glory_for_points(best)
    return min(gain, OCCURRENCE_KILL_CAP) if by_occurrence else gain  # 216 G 4 d

"""The automatic steps of a Cyclades cycle (seed "Cycle Order" 1-6 and 9), the god auction as a
phase (Cycle 7) and Hero upkeep (Cycle 3), on the shared state of ``state.py``.

One function per step, each citing its clause; every function mutates ``state`` in place and
returns its events (plain dicts ``{"type", "rule", "text", ...}``):

=============================  ==============================================================
step                           function
=============================  ==============================================================
Cycle 1   rotate creatures     :func:`rotate_creatures`
Cycle 2   income               :func:`gather_income` -> (public, private)
Cycle 3   Hero upkeep          :func:`upkeep_players`, :func:`validate_upkeep`,
                               :func:`default_upkeep`, :func:`resolve_upkeep`
Cycle 4   refresh gods         :func:`refresh_gods`
Cycle 5   roll for Hades       :func:`roll_hades`
Cycle 6   divine favor         :func:`refresh_favors`
Cycle 7   bid for gods         :func:`resolve_bid` (``bidding.run_auction``)
Cycle 8   actions              ``actions.py`` (not here); 8.5 is read by :func:`end_of_actions`
Cycle 9   Hades and undead     :func:`remove_undead`, :func:`dismiss_hades`
=============================  ==============================================================

Entry points for ``game.py`` (the drivers):

- :func:`start_first_cycle` -- after the last setup deployment (``setup.resolve_deploy``
  calls it): Setup 11, cycle 1 runs steps 4-6 only, then ``step = "bid"``.
- :func:`resolve_bid` -- the bid phase: the auction, payment, the favor, ``step = "act"``.
- :func:`end_of_actions` -- after the last act of a cycle: Cycle 9, the end-of-cycle victory
  check (``victory.end_of_cycle``; if someone won, ``step = "over"`` and nothing more), then
  :func:`start_cycle`: steps 1-2, then 3 (``step = "upkeep"`` if a player controls a Hero,
  and stop), else :func:`after_upkeep`. Returns (public, private) events: income is private.
- :func:`resolve_upkeep` -- the upkeep phase, then :func:`after_upkeep` (steps 4-6,
  ``step = "bid"``).

Randomness: the public stream for what the table sees happen (the gods turned face up, the
Hades dice); the sealed stream for decks whose order stays hidden (reshuffling the creature
discard pile, the favor tiles, the magic items).

Interpretations where the seed is silent (``docs/games/cyclades-cycle.md`` lists them all):

- Cycle 1.1 is read on the slot, not on the card: if the 4-gold slot still holds a card (the
  initial one, or the one Zeus swapped in), it moves to the 3-gold slot and one card is drawn
  for the 4-gold slot; if it is empty (bought), two cards are drawn, for the 4- then the
  3-gold slot. The 2-gold slot stays empty in cycle 2.
- Cycle 1.2: every card moves down exactly one slot, the card leaving the 2-gold slot is
  discarded (a Hero or an artifact is removed from the game instead, 1.2.1), then the empty
  slots are filled in slot order, 4-gold first. When the deck runs out, the discard pile is
  shuffled (sealed) into a new deck (base rules); with both empty a slot stays empty.
- Cycle 2: income is ``turn.income_of`` (prosperity of territories, markers added, seas held
  by the player's fleets alone, lasting income powers, Cerberus), plus the gold lying on the
  Necropolis tile the player controls (Hades rules as we know them: taken with income).
- Cycle 3: a player controlling a Hero gets an upkeep phase even without gold or Priestess
  (so that the phase list reveals nothing about gold); the default pays gold while possible,
  then Priestesses, then releases (Heroes by id). ``release`` (a list of Hero ids) is an
  addition to the upkeep form: with ``keep`` empty it is the only way to give Heroes up.
- Cycle 4: a god is "not used" when no pillar won it in the last auction: the gods left off
  the track and those on it nobody bid on. They go on top in random order (public); if they are
  more than the active slots, the first drawn take them. The other gods are shuffled into the
  remaining slots. 4.2: once every god of the rotation has been on the track since the last
  full shuffle (``gods["seen"]``), all are shuffled together and ``seen`` restarts. The gods
  off the track are kept in ``gods["bag"]`` sorted (everyone knows which they are).
  Active gods = active (not eliminated) players - 1; with two players 3 (Misc Two Player 1).
- Cycle 5: the column keeps its total across cycles until Hades comes (it resets at 9.2). The
  god he replaces is "not used" that cycle. 5.3: every favor tile (deck, discard, face up,
  held) is shuffled (sealed) into a new face-down stack.
- Cycle 6: a face-up favor nobody won is discarded at the next step 6 like the held ones. The
  winner of the favor also takes what it grants (Misc Divine Favors 1): a Priestess card
  (10 in the game, ``rules.priestess_count``; none when all are held) or the top magic item of
  the sealed ``favors["items"]`` pile (a layout addition; none when it is empty).
- Cycle 8.5 / Setup 10: the next bid order is the reverse of the order in which the pillars
  finished (the first to finish bids last). Pillars that did not finish follow, in their old
  order; eliminated players' pillars leave the order.
- Cycle 9.1: undead troops and fleets leave; a territory keeps its owner (the control marker)
  whatever units remain; a sea with no fleet left has no owner.
- ``hands[p]["bought"]`` is cleared at the start of each cycle; ``state["auction"]`` and
  ``state["acting"]`` are reset then too.

What is public: every step above and its outcome, the whole auction (bids, oustings, the
payments to the gods: the pillars are on the board), upkeep payments (2 gold paid in sight),
the Necropolis gold taken (it lay on the board). Private: each player's income and gold total
(Cycle 2.2), as ``private[player]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from pbem.core.dice import Rng
from pbem.core.errors import Problem
from pbem.core.ruleset import sorted_tree
from pbem.games.cyclades import bidding, victory
from pbem.games.cyclades.components import Components
from pbem.games.cyclades.maps import Board
from pbem.games.cyclades.state import (
    State,
    active_players,
    land_units,
    player_of,
    territories_of,
)
from pbem.games.cyclades.turn import income_of, kill_hero

Event = dict[str, Any]
Private = dict[str, list[Event]]

#: The keys of an upkeep form (``release`` is an addition, see the module docstring).
UPKEEP_KEYS: Final = ("keep", "release")
PAY_WITH: Final = ("gold", "priestess")


def event(type_: str, rule: str, text: str, **fields: Any) -> Event:
    return {"type": type_, "rule": rule, "text": text, **fields}


def modules(state: State) -> tuple[str, ...]:
    return tuple(state["game"]["modules"])


# =============================================================================================
# Gods: the rotation and the number of active slots
# =============================================================================================


def rotation(c: Components, state: State) -> list[str]:
    """The gods dealt onto the track (placement "shuffled": not Apollo, not Hades), by id."""
    chosen = set(modules(state))
    return sorted(g.id for g in c.gods.values() if g.placement == "shuffled"
                  and g.module in chosen)


def active_god_count(c: Components, state: State) -> int:
    """Cycle 4.1 / Setup 7: players - 1 gods; with two players as with four (Misc Two Player 1).
    Eliminated players are not counted (our reading); never fewer than one god."""
    n = 3 if state["game"]["two_player"] else len(active_players(state)) - 1
    return max(1, min(n, len(rotation(c, state))))


def gods_left_off(c: Components, state: State) -> list[str]:
    """The gods of the rotation not on the track, sorted (``gods["bag"]``)."""
    return sorted(set(rotation(c, state)) - set(state["gods"]["track"]))


# =============================================================================================
# Cycle 1: rotate creatures
# =============================================================================================


def _draw_card(state: State, rng: Rng, events: list[Event]) -> str:
    """The top card of the creature deck; an empty deck is made again from the discard pile,
    shuffled on the sealed stream (base rules); "" when both are empty."""
    track = state["creature_track"]
    if not track["deck"] and track["discard"]:
        track["deck"] = rng.sealed.shuffle(sorted(track["discard"]),
                                           f"creatures/c{state['cycle']}/reshuffle")
        track["discard"] = []
        events.append(event("reshuffle", "Base creatures", "The creature deck is empty: the "
                            "discard pile is shuffled into a new deck.", cards=len(track["deck"])))
    if not track["deck"]:
        return ""
    return str(track["deck"].pop(0))


def _leave_track(c: Components, state: State, card: str, events: list[Event]) -> None:
    """Cycle 1.2.1: a Hero or an artifact leaves the game; any other card is discarded."""
    track = state["creature_track"]
    name = c.track_card(card).name
    if c.track_rules(card).removed_not_discarded:
        track["removed"].append(card)
        events.append(event("track_removed", "Cycle 1.2.1", f"The {name} leaves the creature "
                            "track and the game (Heroes and artifacts are never discarded).",
                            card=card))
    else:
        track["discard"].append(card)
        events.append(event("track_discard", "Cycle 1.2", f"The {name} leaves the creature "
                            "track for the discard pile.", card=card))


def rotate_creatures(c: Components, state: State, rng: Rng) -> list[Event]:
    """Cycle 1: the creature track moves on. Cycle 1 itself skips this step (Setup 11)."""
    n = int(state["cycle"])
    track = state["creature_track"]
    slots: list[str] = track["slots"]
    events: list[Event] = []
    if n <= 1:
        return events
    prices = c.track.prices
    if n == 2 and not slots[1] and not slots[2]:
        # Cycle 1.1: the second cycle.
        if slots[0]:
            slots[1] = slots[0]
            slots[0] = _draw_card(state, rng, events)
            events.append(event("track", "Cycle 1.1", "The first creature was not bought: it "
                                f"moves to the {prices[1]}-gold space and a new card is turned "
                                f"up on the {prices[0]}-gold space.", slots=list(slots)))
        else:
            slots[0] = _draw_card(state, rng, events)
            slots[1] = _draw_card(state, rng, events)
            events.append(event("track", "Cycle 1.1", "The first creature was bought: two cards "
                                f"are turned up on the {prices[0]}- and {prices[1]}-gold "
                                "spaces.", slots=list(slots)))
        return events
    # Cycle 1.2: every card moves down one space, the last one leaves the track.
    if slots[-1]:
        _leave_track(c, state, slots[-1], events)
    slots[:] = ["", *slots[:-1]]
    for i, card in enumerate(slots):
        if not card:
            slots[i] = _draw_card(state, rng, events)
    events.append(event("track", "Cycle 1.2", "The creature track moves down one space and is "
                        "filled again.", slots=list(slots)))
    return events


# =============================================================================================
# Cycle 2: income
# =============================================================================================


def necropolis_gold(state: State, player: str) -> tuple[str, int]:
    """(territory, gold) of the Necropolis tile ``player`` controls, or ("", 0)."""
    for tid in territories_of(state, player):
        t = state["territories"][tid]
        if "necropolis" in t["buildings"]:
            return tid, int(t["necropolis_gold"])
    return "", 0


def gather_income(c: Components, board: Board, state: State
                  ) -> tuple[list[Event], Private]:
    """Cycle 2.1: each player gains their income; 2.2: amounts and totals are private.
    Skipped in cycle 1 (Setup 11)."""
    public: list[Event] = []
    private: Private = {}
    if int(state["cycle"]) <= 1:
        return public, private
    public.append(event("income", "Cycle 2.1", "Every player gathers their income (amounts "
                        "behind the screens, Cycle 2.2)."))
    for p in active_players(state):
        amount = income_of(c, board, state, p)
        site, coins = necropolis_gold(state, p)
        if coins:
            # Hades as we know it: the Necropolis owner takes its gold with the income.
            state["territories"][site]["necropolis_gold"] = 0
            public.append(event("necropolis_income", "Cycle 2", f"{p} takes the {coins} gold "
                                f"lying on the Necropolis at {site}.", player=p,
                                territory=site, gold=coins))
        state["gold"][p] = int(state["gold"][p]) + amount + coins
        text = f"Income: you gain {amount} gold"
        text += f" and {coins} from the Necropolis" if coins else ""
        private.setdefault(p, []).append(event(
            "gold", "Cycle 2.1", f"{text}; you have {state['gold'][p]} gold.", player=p,
            change=amount + coins, income=amount, necropolis=coins, gold=state["gold"][p]))
    return public, private


# =============================================================================================
# Cycle 3: Hero upkeep
# =============================================================================================


def heroes_of(state: State, player: str) -> list[str]:
    """The Heroes ``player`` controls (their cards), by id."""
    return sorted(state["hands"][player]["heroes"])


def upkeep_players(state: State) -> list[str]:
    """Cycle 3.1: the players (seat order) who control one or more Heroes. Everyone controlling
    a Hero gets the phase, able to pay or not, so the list reveals nothing about gold."""
    return [p for p in active_players(state) if heroes_of(state, p)]


def default_upkeep(c: Components, state: State, player: str,
                   heroes: Sequence[str] | None = None) -> dict[str, Any]:
    """The default upkeep form: Heroes by id (``heroes``: only those), each paid with gold while
    the player has it, then with a Priestess, else released (not listed)."""
    gold = int(state["gold"][player])
    priestesses = int(state["hands"][player]["priestess"])
    cost = c.rules.hero_upkeep_gold
    keep: list[dict[str, str]] = []
    for hero in heroes_of(state, player) if heroes is None else sorted(heroes):
        if gold >= cost:
            gold -= cost
            keep.append({"hero": hero, "pay": "gold"})
        elif priestesses >= c.rules.hero_upkeep_priestess:
            priestesses -= c.rules.hero_upkeep_priestess
            keep.append({"hero": hero, "pay": "priestess"})
    return {"keep": keep}


def validate_upkeep(c: Components, state: State, player: str,
                    orders: Mapping[str, Any]) -> list[Problem]:
    """Every problem in ``player``'s upkeep form (Cycle 3.1-3.2); an empty form is valid."""
    problems: list[Problem] = []
    for key in orders:
        if key not in UPKEEP_KEYS:
            problems.append(Problem(f"[orders] {key}", f"unknown key {key!r}",
                                    "an upkeep form has keep (and release)"))
    mine = heroes_of(state, player)
    listed: dict[str, str] = {}
    gold_needed = priestesses_needed = 0
    keep = orders.get("keep", [])
    if not isinstance(keep, list):
        problems.append(Problem("[orders] keep", "must be a list",
                                "keep = [{hero = \"achilles\", pay = \"gold\"}]"))
        keep = []
    for i, raw in enumerate(keep):
        at = f"[orders] keep[{i}]"
        if not isinstance(raw, Mapping):
            problems.append(Problem(at, "must be a table {hero = ..., pay = ...}",
                                    "write {hero = \"achilles\", pay = \"gold\"}"))
            continue
        for key in raw:
            if key not in ("hero", "pay"):
                problems.append(Problem(f"{at}.{key}", f"unknown key {key!r}",
                                        "keep only hero and pay"))
        hero, pay = raw.get("hero"), raw.get("pay", "gold")
        if not isinstance(hero, str) or hero not in mine:
            problems.append(Problem(f"{at}.hero", f"you control no Hero {hero!r}",
                                    f"one of: {', '.join(mine) or 'none'}"))
            continue
        if hero in listed:
            problems.append(Problem(f"{at}.hero", f"{hero} is listed twice",
                                    "list each Hero once"))
            continue
        listed[hero] = "keep"
        if pay not in PAY_WITH:
            problems.append(Problem(f"{at}.pay", f"pay must be gold or priestess, not {pay!r}",
                                    "pay = \"gold\" (2 gold) or pay = \"priestess\""))
        elif pay == "gold":
            gold_needed += c.rules.hero_upkeep_gold
        else:
            priestesses_needed += c.rules.hero_upkeep_priestess
    release = orders.get("release", [])
    if not isinstance(release, list):
        problems.append(Problem("[orders] release", "must be a list of Hero ids",
                                "release = [\"perseus\"]"))
        release = []
    for i, hero in enumerate(release):
        at = f"[orders] release[{i}]"
        if not isinstance(hero, str) or hero not in mine:
            problems.append(Problem(at, f"you control no Hero {hero!r}",
                                    f"one of: {', '.join(mine) or 'none'}"))
        elif hero in listed:
            problems.append(Problem(at, f"{hero} is also kept or listed twice",
                                    "keep it or release it, not both"))
        else:
            listed[hero] = "release"
    if gold_needed > int(state["gold"][player]):
        problems.append(Problem("[orders] keep", f"paying gold for these Heroes costs "
                                f"{gold_needed} and you have {state['gold'][player]} gold",
                                "pay some with a Priestess, or keep fewer"))
    if priestesses_needed > int(state["hands"][player]["priestess"]):
        problems.append(Problem("[orders] keep", f"{priestesses_needed} Priestesses needed, "
                                f"you hold {state['hands'][player]['priestess']}",
                                "pay some with gold, or keep fewer"))
    return problems


def _upkeep_plan(c: Components, state: State, player: str,
                 orders: Mapping[str, Any]) -> dict[str, str]:
    """Hero -> "gold" | "priestess" | "release" for ``player``'s form (default when empty)."""
    heroes = heroes_of(state, player)
    keep = [k for k in orders.get("keep", []) or [] if isinstance(k, Mapping)]
    release = [h for h in orders.get("release", []) or [] if isinstance(h, str)]
    if validate_upkeep(c, state, player, orders):
        keep, release = [], []  # an illegal form (state changed since): the default
    plan: dict[str, str] = {h: "release" for h in heroes}
    if keep:
        for k in keep:
            plan[str(k["hero"])] = str(k.get("pay", "gold"))
        return plan
    kept = default_upkeep(c, state, player, [h for h in heroes if h not in release])["keep"]
    for k in kept:
        plan[k["hero"]] = k["pay"]
    return plan


def resolve_upkeep(c: Components, board: Board, state: State,
                   orders: Mapping[str, Mapping[str, Any]], rng: Rng) -> list[Event]:
    """Cycle 3: every upkeep player keeps each Hero for 2 gold or a Priestess, or the Hero's
    figure and card leave the game (3.2); then steps 4-6 (:func:`after_upkeep`)."""
    events: list[Event] = []
    for p in upkeep_players(state):
        plan = _upkeep_plan(c, state, p, orders.get(p, {}))
        hand = state["hands"][p]
        for hero in heroes_of(state, p):
            name = c.heroes[hero].name if hero in c.heroes else hero
            how = plan.get(hero, "release")
            cost = c.rules.hero_upkeep_gold
            if how == "gold" and int(state["gold"][p]) >= cost:
                state["gold"][p] = int(state["gold"][p]) - cost
                events.append(event("upkeep", "Cycle 3.1", f"{p} pays {cost} gold to keep "
                                    f"{name}.", player=p, hero=hero, pay="gold", price=cost))
            elif how == "priestess" and int(hand["priestess"]) >= c.rules.hero_upkeep_priestess:
                hand["priestess"] = int(hand["priestess"]) - c.rules.hero_upkeep_priestess
                events.append(event("upkeep", "Cycle 3.1", f"{p} discards a Priestess to keep "
                                    f"{name}.", player=p, hero=hero, pay="priestess"))
            else:
                kill_hero(state, hero)
                events.append(event("hero_released", "Cycle 3.2", f"{p} does not pay for "
                                    f"{name}: the figure and card leave the game.", player=p,
                                    hero=hero))
    return events + after_upkeep(c, board, state, rng)


# =============================================================================================
# Cycle 4: refresh gods
# =============================================================================================


def refresh_gods(c: Components, state: State, rng: Rng) -> list[Event]:
    """Cycle 4: the gods not used last cycle go on top in random order, the rest are shuffled
    into the remaining active slots; 4.2: once all have been seen, all are shuffled together."""
    gods = state["gods"]
    pool = rotation(c, state)
    n = active_god_count(c, state)
    label = f"gods/c{state['cycle']}"
    seen = [g for g in gods["seen"] if g in pool]
    if set(pool) <= set(seen):
        # Cycle 4.2: every god has been seen since the last full shuffle.
        track = rng.public.shuffle(pool, f"{label}/all")[:n]
        gods["seen"] = []
        text = ("Every god has been seen: all are shuffled together (Cycle 4.2); on the track: "
                f"{', '.join(track)}.")
        rule = "Cycle 4.2"
    else:
        unused = [g for g in pool if g in gods["unused"]]
        top = rng.public.shuffle(unused, f"{label}/unused")[:n] if unused else []
        rest = [g for g in pool if g not in unused]
        fill = rng.public.shuffle(rest, f"{label}/rest")[:n - len(top)] if len(top) < n else []
        track = top + fill
        text = ((f"Gods not used last cycle go on top: {', '.join(top)}; " if top else "")
                + f"on the track: {', '.join(track)}.")
        rule = "Cycle 4.1"
    gods["track"] = track
    gods["seen"] = [g for g in pool if g in set(gods["seen"]) | set(track)]
    gods["bag"] = gods_left_off(c, state)
    return [event("gods", rule, text, track=list(track))]


# =============================================================================================
# Cycle 5: roll for Hades
# =============================================================================================


def roll_hades(c: Components, state: State, rng: Rng) -> list[Event]:
    """Cycle 5.1: two combat dice move Hades's pillar up; 5.2: at the threshold (9) or past it
    he replaces the bottom god; 5.3: the favors are reshuffled and not used this cycle."""
    if "hades" not in modules(state) or "hades" not in c.gods:
        return []
    hades = state["hades"]
    faces = [rng.public.faces(c.supplies.die, f"hades/c{state['cycle']}/{i}")
             for i in range(1, c.rules.hades_dice + 1)]
    hades["column"] = int(hades["column"]) + sum(faces)
    events = [event("hades_roll", "Cycle 5.1", f"Hades rolls {' + '.join(map(str, faces))}: "
                    f"his pillar stands at {hades['column']}.", dice=faces,
                    column=hades["column"])]
    if hades["column"] < c.rules.hades_threshold or hades["active"]:
        return events
    track = state["gods"]["track"]
    replaced = track[-1] if track else ""
    if track:
        track[-1] = "hades"
    else:
        track.append("hades")
    hades["active"] = True
    state["gods"]["bag"] = gods_left_off(c, state)
    events.append(event("hades_arrives", "Cycle 5.2", f"Hades reaches {hades['column']} (at "
                        f"least {c.rules.hades_threshold}) and replaces "
                        f"{c.god(replaced).name if replaced else 'nobody'} at the bottom of "
                        "the track.", replaced=replaced, track=list(track)))
    events += _reshuffle_favors(state, rng)
    return events


def _reshuffle_favors(state: State, rng: Rng) -> list[Event]:
    """Cycle 5.3: every divine favor tile goes into one new face-down stack (sealed)."""
    favors = state["favors"]
    tiles = list(favors["deck"]) + list(favors["discard"])
    if favors["face_up"]:
        tiles.append(favors["face_up"])
    for hand in state["hands"].values():
        tiles += hand["favors"]
        hand["favors"] = []
    favors["deck"] = rng.sealed.shuffle(sorted(tiles), f"favors/c{state['cycle']}/hades")
    favors["discard"] = []
    favors["face_up"] = ""
    return [event("favors_reshuffled", "Cycle 5.3", "Hades is active: all divine favors are "
                  "shuffled into a face-down stack; none is used this cycle (Cycle 5.3.1).",
                  tiles=len(tiles))]


# =============================================================================================
# Cycle 6: divine favor
# =============================================================================================


def refresh_favors(c: Components, state: State, rng: Rng) -> list[Event]:
    """Cycle 6.1: the favors players hold (and one nobody won) are discarded; 6.2: one favor
    face up next to the last active god above Apollo (none while Hades is active, 5.3.1)."""
    if "hades" not in modules(state):
        return []
    favors = state["favors"]
    events: list[Event] = []
    for p in state["game"]["players"]:
        held = state["hands"][p]["favors"]
        if held:
            favors["discard"] += held
            events.append(event("favor_discarded", "Cycle 6.1", f"{p} discards "
                                f"{', '.join(held)}.", player=p, favors=list(held)))
            state["hands"][p]["favors"] = []
    if favors["face_up"]:
        favors["discard"].append(favors["face_up"])
        favors["face_up"] = ""
    if state["hades"]["active"]:
        events.append(event("favor", "Cycle 5.3.1", "Hades is active: no divine favor this "
                            "cycle."))
        return events
    if not favors["deck"] and favors["discard"]:
        favors["deck"] = rng.sealed.shuffle(sorted(favors["discard"]),
                                            f"favors/c{state['cycle']}/reshuffle")
        favors["discard"] = []
    if not favors["deck"]:
        return events
    favors["face_up"] = favors["deck"].pop(0)
    track = state["gods"]["track"]
    last = track[-1] if track else ""
    name = c.favors[favors["face_up"]].name if favors["face_up"] in c.favors else \
        favors["face_up"]
    events.append(event("favor", "Cycle 6.2", f"The {name} is placed face up next to "
                        f"{c.god(last).name if last else 'the last god'}; its winner takes it.",
                        favor=favors["face_up"], god=last))
    return events


def _grant_favor(c: Components, state: State, player: str, favor: str) -> list[Event]:
    """Cycle 6.2 and Misc Divine Favors 1: ``player`` takes the face-up favor and what it
    grants: a Priestess card or a magic item (kept face up, Misc Divine Favors 3)."""
    state["hands"][player]["favors"].append(favor)
    card = c.favors.get(favor)
    name = card.name if card is not None else favor
    events = [event("favor_won", "Cycle 6.2", f"{player} wins the {name}.", player=player,
                    favor=favor)]
    if card is None:
        return events
    if card.grants == "priestess":
        held = sum(int(h["priestess"]) for h in state["hands"].values())
        if held < c.rules.priestess_count:
            state["hands"][player]["priestess"] += 1
            events.append(event("priestess", "Misc Divine Favors 1", f"{player} takes a "
                                "Priestess card.", player=player))
        else:
            events.append(event("priestess", "Misc Divine Favors 1", "No Priestess card is "
                                "left: none is given.", player=player))
    else:
        items = state["favors"].setdefault("items", [])
        if items:
            item = str(items.pop(0))
            state["hands"][player]["magic_items"].append(item)
            events.append(event("magic_item", "Misc Divine Favors 3", f"{player} draws the "
                                f"{c.magic_items[item].name if item in c.magic_items else item}"
                                " (kept face up).", player=player, item=item))
        else:
            events.append(event("magic_item", "Misc Divine Favors 3", "No magic item is left: "
                                "none is given.", player=player))
    return events


# =============================================================================================
# Cycle 7: bid for gods
# =============================================================================================


def islands_of(board: Board, state: State, player: str) -> list[str]:
    """The islands (land masses) on which ``player`` controls a territory, sorted."""
    return sorted({board.island_of(t) for t in territories_of(state, player)})


def bid_pillars(state: State) -> list[tuple[str, str]]:
    """(pillar, player) in bid order (``turn_order``), eliminated players left out."""
    out = [(pl, player_of(state, pl)) for pl in state["turn_order"]]
    return [(pl, p) for pl, p in out if p not in state["eliminated"]]


def auction_events(auction: bidding.Auction, setup: bool) -> list[Event]:
    """Every step of the auction as a public event, with its readable line."""
    out: list[Event] = []
    for e, line in zip(auction.events, auction.transcript(), strict=True):
        kind = str(e["event"])
        if setup:
            rule = "Setup 8.2" if kind == "pay" else "Setup 8"
        elif kind == "pay":
            rule = "Cycle 7.6" if e["priests"] else "Cycle 7.5"
        elif kind == "apollo":
            rule = "Cycle 7.3"
        elif "ousts" in e or "ousted_from" in e:
            rule = "Cycle 7.2"
        else:
            rule = "Cycle 7.1"
        fields = {k: v for k, v in e.items() if k != "event"}
        out.append({"type": f"auction_{kind}", "rule": rule, "text": line, **fields})
    return out


def pay_auction(state: State, auction: bidding.Auction) -> None:
    """Cycle 7.5: everyone pays at once (the amounts are public: the pillars are on the board)."""
    for p, paid in auction.payments.items():
        state["gold"][p] = int(state["gold"][p]) - paid


def store_standing(state: State, defend: Mapping[str, Mapping[str, Any]]) -> None:
    """Battle 2: the standing orders for battles a player defends, from their latest bid form.
    An empty ``[defend]`` keeps the orders given before (our reading: an unchanged form)."""
    for p, orders in defend.items():
        if orders:
            state["standing"][p] = sorted_tree(dict(orders))


def unused_gods(c: Components, state: State, auction: bidding.Auction) -> list[str]:
    """Cycle 4.1's "not used": the gods of the rotation nobody won in ``auction``."""
    return [g for g in rotation(c, state) if g not in auction.holders]


def resolve_bid(c: Components, board: Board, state: State,
                bids: Mapping[str, Sequence[bidding.Entry]],
                defend: Mapping[str, Mapping[str, Any]], rng: Rng) -> list[Event]:
    """Cycle 7: the auction from the sealed proxy bids (``bidding.run_auction``), everyone pays
    (7.5-7.6), the favor goes to the winner of the last active god (6.2), the standing orders
    are stored, and the action queue is built: the gods in track order with their winning
    pillar, then Apollo's first pillar (Cycle 8.1, 7.3). ``step = "act"``."""
    players = active_players(state)
    two = bool(state["game"]["two_player"])
    single = frozenset(p for p in players if len(islands_of(board, state, p)) == 1) if two \
        else frozenset()
    auction = bidding.run_auction(
        state["gods"]["track"], bid_pillars(state), {p: tuple(bids.get(p, ())) for p in players},
        {p: int(state["gold"][p]) for p in players},
        {p: int(state["hands"][p]["priest"]) for p in players}, two_player=two,
        single_island=single)
    events = auction_events(auction, setup=False)
    pay_auction(state, auction)
    state["auction"] = auction.as_dict()
    store_standing(state, defend)
    track = state["gods"]["track"]
    favor = state["favors"]["face_up"]
    if favor and track and track[-1] in auction.holders and not state["hades"]["active"]:
        winner = auction.owners[auction.holders[track[-1]][0]]
        state["favors"]["face_up"] = ""
        events += _grant_favor(c, state, winner, favor)
    state["gods"]["unused"] = unused_gods(c, state, auction)
    queue: list[list[str]] = [[g, auction.holders[g][0]] for g in track if g in auction.holders]
    if auction.apollo:
        queue.append([bidding.APOLLO, auction.apollo[0]])
    state["acting"] = {"finished": [], "index": 0, "queue": queue}
    state["step"] = "act"
    return events


# =============================================================================================
# Cycle 9: Hades and the undead; the end of a cycle; the next cycle
# =============================================================================================


def remove_undead(state: State) -> list[Event]:
    """Cycle 9.1: undead troops and fleets leave the board. A territory left without a regular
    unit keeps the control marker of the player who holds it (who took it with the undead)."""
    events: list[Event] = []
    for tid, t in sorted(state["territories"].items()):
        n = int(t["undead"])
        if not n:
            continue
        t["undead"] = 0
        marker = land_units(t) == 0
        events.append(event("undead_removed", "Cycle 9.1", f"{n} undead troop(s) of "
                            f"{t['owner']} leave {tid}"
                            + (f"; {tid} keeps {t['owner']}'s control marker." if marker
                               else "."),
                            territory=tid, player=t["owner"], undead=n, marker=marker))
    for sid, s in sorted(state["seas"].items()):
        n = int(s["undead_fleets"])
        if not n:
            continue
        s["undead_fleets"] = 0
        who = s["owner"]
        if not s["fleets"]:
            s["owner"] = ""
        events.append(event("undead_removed", "Cycle 9.1", f"{n} undead fleet(s) of {who} "
                            f"leave {sid}.", sea=sid, player=who, undead_fleets=n))
    return events


def dismiss_hades(state: State) -> list[Event]:
    """Cycle 9.2: if Hades came this cycle, he goes face down off the board and his pillar back
    to 0 (otherwise the pillar keeps its height for the next roll)."""
    if not state["hades"]["active"]:
        return []  # not on the board: his pillar keeps climbing (Cycle 5.1)
    state["hades"] = {"active": False, "column": 0}
    if "hades" in state["gods"]["track"]:
        state["gods"]["track"].remove("hades")
    return [event("hades_leaves", "Cycle 9.2", "Hades leaves the board; his pillar goes back "
                  "to 0.")]


def next_turn_order(state: State) -> list[str]:
    """Cycle 8.5 / Setup 10: the first pillar to finish takes the right-most (last) free spot,
    so the next bid order is the reverse of the finishing order."""
    finished = [pl for pl in state["acting"].get("finished", []) if pl in state["pillars"]]
    order = list(dict.fromkeys(reversed(finished)))
    order += [pl for pl in state["turn_order"] if pl not in order]
    return [pl for pl in order if player_of(state, pl) not in state["eliminated"]]


def end_of_actions(c: Components, board: Board, state: State, rng: Rng
                   ) -> tuple[list[Event], Private]:
    """After the last action of a cycle: Cycle 9, the turn order (8.5), the end-of-cycle victory
    check (``victory.end_of_cycle``: ``step = "over"`` and stop if someone won), then the next
    cycle (:func:`start_cycle`). Returns (public, private) events."""
    events = remove_undead(state) + dismiss_hades(state)
    state["turn_order"] = next_turn_order(state)
    events.append(event("turn_order", "Cycle 8.5", "The bid order of the next cycle: "
                        f"{', '.join(state['turn_order'])}.", order=list(state["turn_order"])))
    events += victory.note_team_trigger(state)
    result = victory.end_of_cycle(c, state)
    if result is not None:
        return events + victory.finish(state, result), {}
    more, private = start_cycle(c, board, state, rng)
    return events + more, private


def start_cycle(c: Components, board: Board, state: State, rng: Rng
                ) -> tuple[list[Event], Private]:
    """A new cycle (the second and later): steps 1 and 2, then 3 -- ``step = "upkeep"`` when a
    player controls a Hero (the upkeep phase continues with :func:`resolve_upkeep`) -- else
    steps 4-6 and ``step = "bid"``."""
    _new_cycle(state)
    events = [event("cycle", "Cycle", f"Cycle {state['cycle']} begins.", cycle=state["cycle"])]
    events += rotate_creatures(c, state, rng)
    public, private = gather_income(c, board, state)
    events += public
    if upkeep_players(state):
        state["step"] = "upkeep"
        events.append(event("upkeep_due", "Cycle 3.1", f"Hero upkeep: "
                            f"{', '.join(upkeep_players(state))} must pay for their Heroes.",
                            players=upkeep_players(state)))
        return events, private
    return events + after_upkeep(c, board, state, rng), private


def after_upkeep(c: Components, board: Board, state: State, rng: Rng) -> list[Event]:
    """Steps 4-6 of a cycle (Refresh Gods, Roll for Hades, Divine Favor), then
    ``step = "bid"``."""
    events = refresh_gods(c, state, rng) + roll_hades(c, state, rng)
    events += refresh_favors(c, state, rng)
    state["step"] = "bid"
    return events


def start_first_cycle(c: Components, board: Board, state: State, rng: Rng) -> list[Event]:
    """Setup 11: the first real cycle (cycle 1) runs steps 4 to 8 only: no creature rotation,
    no income, no upkeep; steps 4-6 here, then the bid (7) and the actions (8)."""
    _new_cycle(state)
    events = [event("cycle", "Setup 11", "Cycle 1 begins with step 4 (Setup 11: no creature "
                    "rotation, income or upkeep).", cycle=state["cycle"])]
    return events + after_upkeep(c, board, state, rng)


def _new_cycle(state: State) -> None:
    state["cycle"] = int(state["cycle"]) + 1
    state["auction"] = {}
    state["acting"] = {"finished": [], "index": 0, "queue": []}
    for hand in state["hands"].values():
        hand["bought"] = []

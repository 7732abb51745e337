"""A player turn of Grecos (TURN SEQUENCE, Turn 1-2): Recruit, Event, Move, Battle, then
victory and the next player.

The Recruit Phase is a phase of its own (its chit drawn before the form); the Event, Move and
Battle Phases travel in one order (the Event card is drawn before that form): nothing is
revealed between them that the player could answer at the table except dice of his own
battles and what the others' standing orders play (both said in the receipt).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Rng
from pbem.core.errors import Problem
from pbem.core.ruleset import copy_state
from pbem.games.grecos import battle, events, materials, movement, recruit
from pbem.games.grecos import policy as policy_mod
from pbem.games.grecos.components import Components
from pbem.games.grecos.squares import SQUARES, adjacent

State = dict[str, Any]
Event = dict[str, Any]
Private = dict[str, list[Event]]

CITY_STATE = "city_state"
RECRUIT_KEYS = ("recruit", "defend")
WAR_KEYS = ("discard", "play", "move", "battle", "defend")
BATTLE_KEYS = ("from", "target", "order", "casualties", "card")


def no_effects() -> dict[str, Any]:
    # In sorted order, as the state's canonical JSON has them (ruleset.put_sorted).
    return {"force_bonus": {}, "move_bonus": {}, "no_attack": [], "no_move": []}


def stacks(state: State) -> dict[str, list[str]]:
    """Square -> the ids of the units on it."""
    out: dict[str, list[str]] = {}
    for u, x in sorted(state["units"].items(), key=lambda kv: int(kv[0])):
        out.setdefault(x["square"], []).append(u)
    return out


def owner_of(state: State, square: str) -> str:
    here = [x["owner"] for x in state["units"].values() if x["square"] == square]
    return here[0] if here else ""


# --- submit ------------------------------------------------------------------------------

def review(c: Components, state: State, kind: str, player: str, orders: Mapping[str, Any]
           ) -> tuple[list[Problem], list[str]]:
    """Every problem with ``player``'s orders for a ``recruit`` or ``war`` phase, and what is
    checked again when it runs (for the receipt)."""
    allowed = RECRUIT_KEYS if kind == "recruit" else WAR_KEYS
    problems = [Problem(f"[orders] {k}", "unknown order", "orders: " + ", ".join(allowed))
                for k in orders if k not in allowed]
    notes: list[str] = []
    if "defend" in orders:
        problems += policy_mod.parse(c, orders["defend"])[1]
    if kind == "recruit":
        problems += recruit.plan_recruits(c, state, player, _list(orders, "recruit"))[1]
        return problems, notes
    trial = copy_state(state)
    # The deck's order is secret: a card drawn on this copy (Tyche, Pandora) must not decide
    # what is accepted, so the copy's deck and discards are empty (draws give nothing).
    trial["deck"], trial["discard"] = [], []
    problems += events.hand_limit(trial, player, orders.get("discard", []))
    if not problems:
        events.apply_discards(trial, player, list(orders.get("discard", [])))
    plays, bad = events.plan_plays(c, trial, player, _list(orders, "play"))
    problems += bad
    if plays:
        notes.append("each card you play may be negated by another player's The Fates "
                     "(Deck 24), and your moves and battles are checked again against the "
                     "board your cards leave")
        for play in plays:  # on a copy, with a stand-in stream: only to check what follows
            events.apply_play(c, trial, player, play, _stand_in())
    moves, bad = movement.plan_moves(c, trial, player, _list(orders, "move"),
                                     trial["effects"])
    problems += bad
    if moves:
        notes.append("another player's standing orders may play Lost or Storm on one of your "
                     "stacks at the start of your Move Phase (Deck 26-27): its move is then "
                     "skipped")
        movement.apply_moves(c, trial, moves)
    used_from: set[str] = set()
    held = list(trial["hands"][player])
    for i, raw in enumerate(_list(orders, "battle"), 1):
        where = f"[[orders.battle]] {i}"
        if not isinstance(raw, Mapping):
            problems.append(Problem(where, "must be a table", "[[orders.battle]] then from = "
                                    '"d4" and target = "d5"'))
            continue
        problems += [Problem(f"{where} {k}", "unknown key", "keys: " + ", ".join(BATTLE_KEYS))
                     for k in raw if k not in BATTLE_KEYS]
        src, dst = raw.get("from"), raw.get("target")
        if not isinstance(src, str) or src not in SQUARES or owner_of(trial, src) != player:
            problems.append(Problem(f"{where} from", f"{src!r} is not a square with your units "
                                    "after your moves (Battle 1)", "one of: " + ", ".join(
                                        s for s in stacks(trial) if owner_of(trial, s) == player)))
            continue
        if src in used_from:
            problems.append(Problem(f"{where} from", f"the stack on {src} already attacks this "
                                    "turn (ruling: each stack attacks once a turn)",
                                    "one [[orders.battle]] per stack"))
            continue
        enemy = owner_of(trial, dst) if isinstance(dst, str) and dst in SQUARES else ""
        if not enemy or enemy == player or not adjacent(src, str(dst)):
            near = [s for s in stacks(trial) if adjacent(src, s) and owner_of(trial, s) not in
                    ("", player)]
            problems.append(Problem(f"{where} target", f"{dst!r} is not an enemy stack next to "
                                    f"{src} (Battle 1, Adjacency 1-2)", "enemy stacks next to "
                                    f"it: {', '.join(near) or 'none'}"))
            continue
        used_from.add(src)
        for key in ("order", "casualties"):
            value = raw.get(key, [])
            if not isinstance(value, list) or not all(
                    isinstance(x, str) and (x in c.units or x in stacks(trial).get(src, []))
                    for x in value):
                problems.append(Problem(f"{where} {key}", "must list unit kinds, or ids of your "
                                        f"units on {src}", f'{key} = ["hero"]'))
        cards = raw.get("card", [])
        if not isinstance(cards, list) or not all(isinstance(x, Mapping) for x in cards):
            problems.append(Problem(f"{where} card", "must be tables [[orders.battle.card]]",
                                    'card = "zeus" and round = 1 under it'))
            continue
        for j, card in enumerate(cards, 1):
            cw = f"[[orders.battle.card]] {i}.{j}"
            cid = card.get("card")
            if cid not in c.cards or not in_battle(c, cid):
                problems.append(Problem(f"{cw} card", f"{cid!r} is not a card played in "
                                        "battle (Battle 12)", "battle cards: " + ", ".join(
                                            k for k in c.cards if in_battle(c, k))))
            elif cid not in held:
                problems.append(Problem(f"{cw} card", f"{c.cards[cid].name} is not in your "
                                        "hand (or is played twice)", "your hand: "
                                        + ", ".join(trial["hands"][player])))
            else:
                held.remove(cid)
            rnd = card.get("round", 1)
            if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
                problems.append(Problem(f"{cw} round", "must be a round number, 1 or more",
                                        "round = 1"))
        notes.append(f"the battle from {src} is fought while both stacks stand; cards played "
                     "in it apply when its round comes (Battle 12)")
    return problems, notes


def in_battle(c: Components, card: str) -> bool:
    """A card that does something when played in a battle instead of an attack (Battle 12):
    the battle cards, the heals, Wine of Dionysus and Lotus Eaters (not Lost or Storm: a
    battle moves nothing)."""
    x = c.cards[card]
    return x.when == "battle" or (x.when == "any" and x.effect in ("heal", "no_attack"))


def _list(orders: Mapping[str, Any], key: str) -> list[Any]:
    value = orders.get(key, [])
    return value if isinstance(value, list) else [value]


def _stand_in() -> Rng:
    from pbem.core.dice import Stream

    return Rng(Stream(b"\0" * 32), Stream(b"\1" * 32))


# --- resolution -----------------------------------------------------------------------------

def start_turn(c: Components, state: State, rng: Rng) -> tuple[list[Event], Private]:
    """Recruit 1: the active player draws one chit from the common pile (sealed; he alone
    learns which)."""
    p, t = state["active"], state["turn"]
    events_: list[Event] = [{"type": "turn", "player": p, "turn": t, "round": state["round"],
                             "text": f"Turn {t} (round {state['round']}): {p} plays."}]
    private: Private = {}
    if state["pile"]:
        chit = state["pile"].pop()
        state["chits"][p].append(chit)
        private[p] = [{"type": "chit", "kind": chit, "text": f"You draw a "
                       f"{c.units[chit].name} chit (Recruit 1)."}]
        events_.append({"type": "chit-drawn", "player": p, "text": f"{p} draws a unit chit "
                        f"(Recruit 1); {len(state['pile'])} left in the common pile."})
    else:
        events_.append({"type": "chit-none", "player": p, "text": "The common pile is empty: "
                        f"{p} draws no chit (Recruit 1)."})
    return events_, private


def recruit_phase(c: Components, state: State, player: str, orders: Mapping[str, Any],
                  rng: Rng) -> tuple[list[Event], Private]:
    out: list[Event] = []
    private: Private = {}
    _set_policy(c, state, player, orders, private)
    plan = recruit.plan_recruits(c, state, player, _list(orders, "recruit"))[0]
    out += recruit.apply_recruits(c, state, player, plan)
    drawn = events.draw_cards(state, player, 1, rng.sealed, f"t{state['turn']:02d}/event",
                              out)
    out.append({"type": "card-drawn", "player": player, "text": f"{player} draws "
                f"{len(drawn)} Event card (Event 1); {len(state['hands'][player])} in hand."})
    if drawn:
        private.setdefault(player, []).append({"type": "card", "cards": drawn, "text":
                                               "You draw " + ", ".join(
                                                   c.cards[x].name for x in drawn)
                                               + " (Event 1)."})
    state["step"] = "war"
    return out, private


def war_phase(c: Components, state: State, player: str, orders: Mapping[str, Any],
              rng: Rng) -> tuple[list[Event], Private]:
    out: list[Event] = []
    private: Private = {}
    t = state["turn"]
    _set_policy(c, state, player, orders, private)
    out += events.apply_discards(state, player, list(orders.get("discard", [])))
    plays = events.plan_plays(c, state, player, _list(orders, "play"))[0]
    for play in plays:  # the Event Phase (Event 1-2, Deck)
        more, mine = events.apply_play(c, state, player, play, rng)
        out += more
        for p, evs in mine.items():
            private.setdefault(p, []).extend(evs)
    out += events.at_move_start(c, state, player, rng.public, f"t{t:02d}/react/move")
    moves = movement.plan_moves(c, state, player, _list(orders, "move"), state["effects"])[0]
    out += movement.apply_moves(c, state, moves)  # the Move Phase (Move 1-8)
    state["attacked"] = []
    for i, raw in enumerate(_list(orders, "battle"), 1):  # the Battle Phase (Battle 1-13)
        out += _battle(c, state, player, raw, i, rng)
    out += end_turn(c, state, rng, private)
    return out, private


def _battle(c: Components, state: State, player: str, raw: Mapping[str, Any], i: int,
            rng: Rng) -> list[Event]:
    src, dst = raw.get("from"), raw.get("target")
    enemy = owner_of(state, str(dst))
    label = f"t{state['turn']:02d}/battle{i}"
    if (owner_of(state, str(src)) != player or not enemy or enemy == player
            or not adjacent(str(src), str(dst)) or src in state["attacked"]):
        return [{"type": "battle-skipped", "from": str(src), "target": str(dst), "text":
                 f"The battle from {src} on {dst} does not take place: the stacks are no "
                 "longer there to fight (Battle 1)."}]
    state["attacked"].append(src)
    out = events.at_battle_start(c, state, str(src), enemy, rng.public, f"{label}/react")
    mine = stacks(state).get(str(src), [])
    if any(u in state["effects"]["no_attack"] for u in mine):
        # Deck 28-29 "cannot Attack this turn": a stack under it starts no battle (ruling).
        return [*out, {"type": "battle-off", "from": str(src), "target": str(dst), "text":
                       f"The stack on {src} cannot attack this turn (Deck 28-29): no battle "
                       f"on {dst}."}]
    theirs = stacks(state).get(str(dst), [])
    cards = [battle.CardPlay(str(x.get("card")), int(x.get("round", 1)),
                             str(x.get("target", ""))) for x in raw.get("card", [])]
    attacker = battle.Side(player, mine, list(raw.get("order", [])),
                           list(raw.get("casualties", [])), cards)
    pol = state["policy"][enemy]
    defender = battle.Side(enemy, theirs, list(pol["order"]), list(pol["casualties"]),
                           battle.defender_cards(c, state, enemy, str(dst)))

    def negate(card: str, by: str) -> str:
        target_owner = enemy if by == player else player
        return events.negator(c, state, card, by, target_owner)

    result = battle.fight(c, state, attacker, defender, rng.public, label, negate)
    return out + result.events + sink(c, state, str(src)) + sink(c, state, str(dst))


def sink(c: Components, state: State, square: str) -> list[Event]:
    """Heroes and Army units carried by Ships (Move 5) on a water square whose last Ship was
    destroyed go down with it (authored ruling: the seed does not say; a unit may never stand
    on water without a Ship, Move 2-5)."""
    ids = stacks(state).get(square, [])
    if not ids or c.terrains[state["board"][square]].land or any(
            state["units"][u]["kind"] == "ships" for u in ids):
        return []
    out: list[Event] = []
    for u in ids:
        x = state["units"][u]
        kind = c.units[x["kind"]]
        if not (kind.water or kind.land_and_water):
            out.append({"type": "unit-destroyed", "unit": u, "player": x["owner"],
                        "square": square, "text": f"{x['owner']}'s {kind.name} ({u}) is left "
                        f"on water at {square} without a Ship and goes down (Move 5; "
                        "authored ruling)."})
            del state["units"][u]
    return out


def _set_policy(c: Components, state: State, player: str, orders: Mapping[str, Any],
                private: Private) -> None:
    if "defend" in orders:
        parsed = policy_mod.parse(c, orders["defend"])[0]
        if parsed is not None:
            state["policy"][player] = parsed
            private.setdefault(player, []).append(
                {"type": "policy", "text": "Your standing defence orders are now: "
                 + " ".join(policy_mod.describe(c, parsed))})


def city_states(state: State) -> dict[str, int]:
    """Each player's count of City States occupied (Victory 1)."""
    held = {p: 0 for p in state["seats"]}
    for square in {x["square"] for x in state["units"].values()}:
        if state["board"][square] == CITY_STATE:
            held[owner_of(state, square)] += 1
    return held


def end_turn(c: Components, state: State, rng: Rng, private: Private) -> list[Event]:
    """Victory 1, the players left with no unit, the round limit, then the next turn."""
    out: list[Event] = materials.end_of_turn(c, state, state["active"])  # Golem 1, Flesh
    state["effects"] = no_effects()
    state["attacked"] = []
    active = state["active"]
    on_board = {x["owner"] for x in state["units"].values()}
    for p in state["seats"]:
        if p not in on_board and p not in state["eliminated"]:
            state["eliminated"].append(p)
            out.append({"type": "eliminated", "player": p, "text": f"{p} has no unit left on "
                        "the board and can never recruit again (Recruit 4): out of the game."})
    held = city_states(state)
    alive = [p for p in state["seats"] if p not in state["eliminated"]]
    cities = sum(1 for s in state["board"].values() if s == CITY_STATE)
    if cities and held.get(active, 0) == cities:
        return out + _over(state, [active], f"{active} occupies all six City States "
                           "(Victory 1)", held)
    if len(alive) <= 1:
        return out + _over(state, alive, "every other player is out of the game", held)
    if state["kronos"] > 0 and active in alive:  # Deck 3: another turn after this one
        state["kronos"] -= 1
        nxt = active
        out.append({"type": "kronos", "player": active, "text": f"{active} takes another turn "
                    "(Blessing of Kronos, Deck 3)."})
    else:
        state["kronos"] = 0
        seats = state["seats"]
        i, n = seats.index(active), len(seats)
        k = next(k for k in range(1, n + 1) if seats[(i + k) % n] in alive)
        nxt, wrapped = seats[(i + k) % n], i + k >= n
        if wrapped:
            limit = int(state["options"].get("rounds", "0"))
            if limit and state["round"] >= limit:
                best = max(held[p] for p in alive)
                winners = [p for p in alive if held[p] == best]
                return out + _over(state, winners, f"{limit} rounds have been played; most "
                                   f"City States occupied ({best}) (authored round limit)", held)
            state["round"] += 1
    state["turn"] += 1
    state["active"] = nxt
    state["step"] = "recruit"
    more, mine = start_turn(c, state, rng)
    for p, evs in mine.items():
        private.setdefault(p, []).extend(evs)
    return out + more


def _over(state: State, winners: list[str], why: str, held: Mapping[str, int]) -> list[Event]:
    state["step"] = "over"
    state["result"] = {"winners": winners, "why": why, "score": dict(held)}
    return [{"type": "game-over", "winners": winners, "text": f"The game is over: {why}. "
             f"Winner{'s' if len(winners) != 1 else ''}: {', '.join(winners)}."}]


# --- what pbem simulate checks -----------------------------------------------------------------

def invariants(c: Components, s: State) -> list[str]:
    out: list[str] = []
    for square, ids in stacks(s).items():
        owners = {s["units"][u]["owner"] for u in ids}
        if len(owners) > 1:
            out.append(f"{square} holds units of {sorted(owners)} (Stacking 3)")
        if len(ids) > 4:
            out.append(f"{square} holds {len(ids)} units (Stacking 1)")
        land = c.terrains[s["board"][square]].land
        for u in ids:
            k = c.units[s["units"][u]["kind"]]
            if land and k.water:
                out.append(f"unit {u} ({k.name}) is on land at {square} (Move 2)")
            if not land and not (k.water or k.land_and_water) and not any(
                    s["units"][v]["kind"] == "ships" for v in ids):
                out.append(f"unit {u} ({k.name}) is on water at {square} without a Ship "
                           "(Move 2-5)")
        for u in ids:
            if not 1 <= s["units"][u]["hits"] <= materials.max_hits(c, s, u):  # Golem 3
                out.append(f"unit {u} has {s['units'][u]['hits']} hits")
    out += materials.invariants(c, s)
    counted: dict[str, int] = {}
    for kinds in [s["pile"], *s["chits"].values(), [x["kind"] for x in s["units"].values()]]:
        for kind in kinds:
            counted[kind] = counted.get(kind, 0) + 1
    for kind, spec in c.units.items():
        if counted.get(kind, 0) > spec.count:
            out.append(f"{counted[kind]} {spec.name} chits in play, of {spec.count} (Parts 2)")
    cards: dict[str, int] = {}
    for pile in [s["deck"], s["discard"], *s["hands"].values()]:
        for x in pile:
            cards[x] = cards.get(x, 0) + 1
    if sorted(cards.items()) != sorted({k: v.copies for k, v in c.cards.items()
                                        if v.copies}.items()):
        out.append("the Event cards are not all in exactly one place (deck, discard, hands)")
    return out

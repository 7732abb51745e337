"""The round of Deukalion (PLAYING A ROUND, Round 1-7) as pbem runs it: set-up, the others'
sailing, the active player's Kylix turn, the next turn; what ``pbem simulate`` checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Rng
from pbem.core.errors import Problem
from pbem.core.ruleset import Outcome
from pbem.games.deukalion import actions, kylix, pursuits, sailing, scoring
from pbem.games.deukalion import choices as choices_mod
from pbem.games.deukalion.components import Components
from pbem.games.deukalion.outcome import merge, pair

State = dict[str, Any]
Event = dict[str, Any]
Private = dict[str, list[Event]]

SAIL_KEYS = ("plan", "choices")
KYLIX_KEYS = ("rotation", "step", "choices")
HOPLITES = 10  # Sail 1: 10 hoplites each
ACTION_HAND = 3  # Sail 1: 3 Action cards each


def colours(c: Components) -> tuple[str, ...]:
    return tuple(c.colours)


def from_left(state: State) -> list[str]:
    """The players other than the active one, from his left (Round 2: clockwise)."""
    return actions.others_from_left(state, state["active"])




def setup(c: Components, players: tuple[str, ...], options: Mapping[str, str],
          joins: Mapping[str, Any], rng: Rng) -> Outcome:
    public, sealed = rng.public, rng.sealed
    seats = public.shuffle(sorted(players), "setup/seats")  # Sail 3-4: "the youngest"
    board = c.board
    spaces = [city for city in sorted(board.cities) for _ in range(board.cities[city].spaces)]
    spaces = public.shuffle(spaces, "setup/chests")  # Setup 1: chests at random on cities
    chests: dict[str, list[str]] = {city: [] for city in sorted(board.cities)}
    for colour, city in zip(c.chest_list(), spaces, strict=False):
        chests[city].append(colour)
    action_deck = sealed.shuffle(sorted(c.action_deck()), "setup/actions")  # Setup 3
    pursuit_deck = sealed.shuffle(sorted(c.pursuits), "setup/pursuits")  # Setup 4
    hands: dict[str, list[str]] = {p: [] for p in seats}
    personal: dict[str, str] = {}
    for p in seats:  # Sail 1: 3 Action cards and 1 Pursuit card each, secret
        for _ in range(ACTION_HAND):
            hands[p].append(action_deck.pop())
        personal[p] = pursuit_deck.pop()
    display = [pursuit_deck.pop(), pursuit_deck.pop()]  # Setup 4: the top 2 face up
    anchors = sorted(board.anchors)
    policies = {}
    for p in seats:
        raw = joins.get(p, {}).get("choices")
        parsed = choices_mod.parse(raw, colours(c))[0] if raw is not None else None
        policies[p] = parsed or dict(choices_mod.DEFAULT)
    state: State = {
        "seats": seats, "turn": 1, "active": seats[0], "step": "sail", "kylix": {},
        "ships": {p: anchors[i] for i, p in enumerate(seats)},  # Sail 3: one per anchor
        "board": {p: {"hoplites": HOPLITES, "chests": []} for p in seats},
        "underworld": dict.fromkeys(seats, 0), "placed": dict.fromkeys(seats, 0),
        "settlements": {s: {"owner": "", "hoplites": 0} for s in sorted(board.settlements)},
        "chests": chests, "hydra": board.hydra_start,
        "action_deck": action_deck, "action_discard": [], "hands": hands,
        "permanents": {p: [] for p in seats},
        "pursuit_deck": pursuit_deck, "display": display, "personal": personal,
        "achieved": {p: [] for p in seats}, "honour": dict.fromkeys(seats, 0),
        "policy": policies, "effects": {}, "result": {},
        "options": {"sail": options.get("sail", "together")},
    }
    state["sailors"] = from_left(state)
    events: list[Event] = [
        {"type": "seats", "order": seats, "text": "Turn order (Sail 3-4): "
         + ", ".join(seats) + f"; {seats[0]} plays first."},
        {"type": "chests", "chests": chests, "text": "The 15 treasure chests go on the cities "
         "at random (Setup 1): " + "; ".join(f"{board.cities[k].name} "
                                            + (", ".join(v) or "none")
                                            for k, v in chests.items()) + "."},
        {"type": "display", "display": display, "text": "The Pursuit cards on display "
         "(Setup 4): " + ", ".join(display) + "."},
        {"type": "ships", "ships": state["ships"], "text": "The ships on Athens's anchors "
         "(Sail 3): " + ", ".join(f"{p} {sq}" for p, sq in state["ships"].items()) + "."},
    ]
    private: Private = {p: [{"type": "dealt", "cards": hands[p], "personal": personal[p],
                             "text": "Your Action cards: " + ", ".join(hands[p])
                             + f"; your personal Pursuit card: {personal[p]} (Sail 1)."}]
                        for p in seats}
    events += kylix.roll(state, public, 1)
    return Outcome(state, events, private)


# --- submit --------------------------------------------------------------------------------

def review(c: Components, state: State, kind: str, player: str, orders: Mapping[str, Any]
           ) -> tuple[list[Problem], list[str]]:
    allowed = SAIL_KEYS if kind == "sail" else KYLIX_KEYS
    problems = [Problem(f"[orders] {k}", "unknown order", "orders: " + ", ".join(allowed))
                for k in orders if k not in allowed]
    notes: list[str] = []
    if "choices" in orders:
        problems += choices_mod.parse(orders["choices"], colours(c))[1]
    if kind == "sail":
        raw = orders.get("plan", [])
        problems += sailing.plan_sail(c, state, player, raw if isinstance(raw, list)
                                      else [raw])[1]
        if raw:
            notes.append("the players before you in seat order sail first: each plan is "
                         "tried again when your turn to sail comes, the first still possible "
                         "runs (Round 2-3)")
        return problems, notes
    body = {k: v for k, v in orders.items() if k != "choices"}
    _, bad, more = kylix.plan_kylix(c, state, player, body)
    return problems + bad, notes + list(more)


# --- resolution -----------------------------------------------------------------------------

def _set_choices(c: Components, state: State, player: str, orders: Mapping[str, Any],
                 private: Private) -> None:
    if "choices" in orders:
        parsed = choices_mod.parse(orders["choices"], colours(c))[0]
        if parsed is not None:
            state["policy"][player] = parsed
            private.setdefault(player, []).append(
                {"type": "choices", "text": "Your standing choices are now: "
                 + choices_mod.describe(parsed) + "."})


def sail_phase(c: Components, state: State, orders: Mapping[str, Mapping[str, Any]],
               rng: Rng) -> tuple[list[Event], Private]:
    """Round 2-4: each other player still to sail, from the active player's left, sails by
    his goal orders, up to the centre die; the game may end at any of them (End 1). With
    ``--option sail=sequential`` each sailor has a phase of his own: ``orders`` then holds
    only the first of them."""
    events: list[Event] = []
    private: Private = {}
    for p in list(state["sailors"]):
        if p not in orders and state["options"].get("sail") == "sequential":
            break
        more, secret = _sail_one(c, state, p, orders.get(p, {}), rng)
        events += more
        merge(private, secret)
        state["sailors"].remove(p)
        if state["step"] == "over":
            return events, private
    if not state["sailors"]:
        state["step"] = "kylix"
    return events, private


def _sail_one(c: Components, state: State, p: str, mine: Mapping[str, Any], rng: Rng
              ) -> tuple[list[Event], Private]:
    events: list[Event] = []
    private: Private = {}
    t, steps = state["turn"], state["kylix"]["centre"]
    _set_choices(c, state, p, mine, private)
    raw = mine.get("plan", [])
    plans = sailing.plan_sail(c, state, p, raw if isinstance(raw, list) else [raw])[0]
    more, secret = pair(sailing.run_sail(c, state, p, plans, steps, rng,
                                          f"t{t:02d}/sail/{p}"))
    events += more
    merge(private, secret)
    more, secret = pair(pursuits.check_pursuits(c, state, sailing.order_from(state, p),
                                                 rng.sealed, f"t{t:02d}/sail/{p}/pursuit"))
    events += more
    merge(private, secret)
    events += scoring.reached(c, state, [p])
    return events, private


def kylix_phase(c: Components, state: State, player: str, orders: Mapping[str, Any],
                rng: Rng) -> tuple[list[Event], Private]:
    """Round 5-7, then the next turn (Round 1 of the next player: the Kylix shaken)."""
    private: Private = {}
    _set_choices(c, state, player, orders, private)
    body = {k: v for k, v in orders.items() if k != "choices"}
    plan = kylix.plan_kylix(c, state, player, body)[0]
    events, secret = pair(kylix.run_kylix(c, state, player, plan, rng))
    merge(private, secret)
    t = state["turn"]
    more, secret = pair(pursuits.check_pursuits(c, state, sailing.order_from(state, player),
                                                 rng.sealed, f"t{t:02d}/kylix/pursuit"))
    events += more
    merge(private, secret)
    events += scoring.reached(c, state, [player, *from_left(state)])
    if state["step"] == "over":
        return events, private
    seats = state["seats"]
    state["active"] = seats[(seats.index(player) + 1) % len(seats)]  # Sail 4: clockwise
    state["turn"] = t + 1
    state["effects"] = {}
    state["step"] = "sail"
    state["sailors"] = from_left(state)
    events += kylix.roll(state, rng.public, t + 1)
    return events, private


# --- what pbem simulate checks ------------------------------------------------------------------

def invariants(c: Components, s: State) -> list[str]:
    out: list[str] = []
    for p in s["seats"]:
        on_settlements = sum(x["hoplites"] for x in s["settlements"].values() if x["owner"] == p)
        total = s["board"][p]["hoplites"] + s["underworld"][p] + on_settlements + s["placed"][p]
        if total != HOPLITES:
            out.append(f"{p} has {total} hoplites in all, not {HOPLITES} (Sail 1)")
        load_ = s["board"][p]["hoplites"] + len(s["board"][p]["chests"])
        if load_ > c.shipboard:
            out.append(f"{p}'s shipboard holds {load_} pieces (Map 15: 10 spaces)")
    chests = sum(len(x) for x in s["chests"].values()) + sum(
        len(s["board"][p]["chests"]) for p in s["seats"])
    if chests != len(c.chest_list()):
        out.append(f"{chests} treasure chests in play, not {len(c.chest_list())} (Contents)")
    for city, lying in s["chests"].items():
        if len(lying) > c.board.cities[city].spaces:
            out.append(f"{city} holds {len(lying)} chests on {c.board.cities[city].spaces} spaces")
    if s["hydra"] in c.board.anchors or s["hydra"] in c.board.styx:
        out.append(f"the Hydra is on {s['hydra']} (Kylix Hydra 2)")
    cards = len(s["action_deck"]) + len(s["action_discard"]) + sum(
        len(x) for x in s["hands"].values()) + sum(len(x) for x in s["permanents"].values())
    if cards != len(c.action_deck()):
        out.append(f"{cards} Action cards, not {len(c.action_deck())}")
    return out

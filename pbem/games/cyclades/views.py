"""What each player may know of a Cyclades state, and the conservation rules simulations check.

Reports are rendered only from :func:`view` (``pbem.core.report``). Hidden in Cyclades:

- each player's gold, behind the screen (Cycle 2.2); in team play teammates see each
  other's (Team 4: "Teams can tell another their gold values");
- each player's standing battle orders, until a battle uses them;
- the order of every deck and bag (creatures, divine favors, the gods not yet drawn): only
  their sizes are public.

At the end of the game everything is shown (the coin tie-break of Victory 1 needs the gold).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.ruleset import copy_state
from pbem.games.cyclades import state as st

State = dict[str, Any]

#: Top-level keys whose content is the same for everyone (cards in front of the screen, the
#: board, the tracks without their hidden orders).
PUBLIC_KEYS = ("game", "cycle", "step", "pillars", "turn_order", "hands", "territories",
               "seas", "figures", "hades", "supply", "monuments", "metropolises", "auction",
               "acting", "eliminated", "result", "to_deploy")
#: The marker hide_from_others puts where a player's secrets were.
MARKER = 987654321


def view(state: State, player: str | None) -> dict[str, Any]:
    """What ``player`` may know (``None``: the public)."""
    over = state["step"] == "over"
    v: dict[str, Any] = {k: state[k] for k in PUBLIC_KEYS if k in state}
    gods = state["gods"]
    v["gods"] = {"track": gods["track"], "unused": gods["unused"], "seen": gods["seen"],
                 "bag_size": len(gods["bag"])}
    favors = state["favors"]
    v["favors"] = {"face_up": favors["face_up"], "discard": favors["discard"],
                   "deck_size": len(favors["deck"])}
    track = state["creature_track"]
    v["creature_track"] = {k: track[k] for k in track if k != "deck"}
    v["creature_track"]["deck_size"] = len(track["deck"])
    if over:
        v["gold"] = dict(state["gold"])
        v["standing"] = state["standing"]
        v["apollo_keep"] = state.get("apollo_keep", {})
        return v
    if player is not None:
        seen = [player, *st.allies(state, player)]
        v["gold"] = {p: state["gold"][p] for p in seen if p in state["gold"]}
        if player in state["standing"]:
            v["standing"] = {player: state["standing"][player]}
        if player in state.get("apollo_keep", {}):
            v["apollo_keep"] = {player: state["apollo_keep"][player]}
    return v


def hide_from_others(state: State, player: str) -> State:
    """``state`` with ``player``'s secrets (gold, standing orders, Apollo keep list) changed
    to markers: no other
    player's view, nor the public one, may change (teammates excepted: they see the gold)."""
    s = copy_state(state)
    if s["step"] == "over":
        return s
    if not st.allies(s, player):
        s["gold"][player] = MARKER
    if player in s["standing"]:
        s["standing"][player] = {"retreat": {"when": "at_most", "units": MARKER}}
    if player in s.get("apollo_keep", {}):
        s["apollo_keep"][player] = [f"marker-{MARKER}"]
    return s


def invariants(before: State | None, after: State, events: Sequence[Mapping[str, Any]]
               ) -> list[str]:
    """Conservation rules between two states, one message per breach."""
    out: list[str] = []
    for p, gold in after["gold"].items():
        if gold < 0:
            out.append(f"{p} has {gold} gold")
    for t, x in after["territories"].items():
        for k in st.LAND_COUNTS:
            if x[k] < 0:
                out.append(f"{t}: {k} is {x[k]}")
        if st.land_units(x) and not x["owner"]:
            out.append(f"{t}: units but no owner")
    for s, x in after["seas"].items():
        if x["fleets"] < 0 or x["undead_fleets"] < 0:
            out.append(f"{s}: negative fleets")
        if st.sea_units(x) and not x["owner"]:
            out.append(f"{s}: fleets but no owner")
    for k, n in after["supply"].items():
        if n < 0:
            out.append(f"supply of {k} is {n}")
    # Every track card is in exactly one place: a slot, the deck, the discard, removed, a
    # player's hand (heroes, artifacts, Egyptians held), or with its creature figure.
    if before is not None:
        was, now = track_places(before), track_places(after)
        for card in sorted(set(was) | set(now)):
            if was.get(card, 0) != now.get(card, 0):
                out.append(f"track card {card}: {was.get(card, 0)} copies before, "
                           f"{now.get(card, 0)} after")
    return out


def track_places(state: State) -> dict[str, int]:
    """How many copies of each track card the state holds, wherever they are."""
    places: dict[str, int] = {}
    track = state["creature_track"]
    held = [card for hand in state["hands"].values()
            for kind in ("heroes", "artifacts", "egyptians") for card in hand[kind]]
    for card in [*track["slots"], *track["deck"], *track["discard"], *track["removed"], *held,
                 *state["figures"]]:
        if card:
            places[card] = places.get(card, 0) + 1
    return places

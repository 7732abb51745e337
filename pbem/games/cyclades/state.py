"""The Cyclades game state: its layout, and the queries every rule module asks of it.

The state is plain data (canonical JSON; ``pbem.core.ruleset``), the one contract shared by
``setup.py``, ``cycle.py``, ``actions.py``, ``creatures.py`` and ``game.py``. Rule modules
change it in place (the engine hands them a fresh copy) and return events; this module holds
no rules, only the layout and reads of it.

Layout (every key always present; ``""`` means none)::

    game        {"board": "vanilla"|"titans", "side": "vanilla-4", "players": [seat order],
                 "two_player": bool, "teams": {player: team} or {}, "modules": [...]}
    cycle       0 during setup, then 1, 2, ... (the first real cycle is 1: Setup 11)
    step        "setup_bid" | "deploy" | "upkeep" | "bid" | "act" | "over"
    pillars     {pillar: player}: a pillar is the player's name, or "<player>.1" and
                "<player>.2" with two players (Misc Two Player 1)
    turn_order  [pillar, ...]: the bidding order of the next bid, left to right (Setup 10,
                Cycle 8.5)
    gold        {player: int}: behind the screen (Cycle 2.2): only its owner (and, in team
                play, the teammates, Team 3) may see it
    hands       {player: {"priest": n, "philosopher": n, "priestess": n,
                          "heroes": [card ids], "artifacts": [ids], "egyptians": [ids],
                          "magic_items": [ids], "favors": [ids], "monuments": [ids],
                          "metropolises": [special Metropolis ids], "bought": [card ids
                          bought this cycle]}}: open, in front of the screen
    territories {territory: {"owner": player|"", "troops": n, "undead": n, "titans": n,
                             "heroes": [ids], "egyptians": [ids], "buildings": [ids],
                             "metropolis": bool, "prosperity": n (markers added; the
                             printed ones are in the board data), "artifacts": [ids],
                             "monuments": [ids], "necropolis_gold": n}}
                "owner" stays when the units leave: it is the control marker (Cycle 9.1)
    seas        {sea: {"owner": player|"", "fleets": n, "undead_fleets": n}}
    figures     {creature id: {"owner": player, "where": territory or sea, "cycle": the
                 cycle it was placed}} (Cycle 8.2: it goes at the owner's next action)
    gods        {"track": [active god ids, top first], "unused": [gods not used last
                 cycle: not bid on, or not on the track], "seen": [ids seen since the last
                 reshuffle], "bag": [ids, sorted, public]} (Cycle 4)
    hades       {"column": int, "active": bool} (Cycle 5, 9.2)
    favors      {"deck": [ids, sealed order], "face_up": id|"", "discard": [ids]} (Cycle 6)
    creature_track {"slots": [id|"", id|"", id|""] (4, 3 and 2 gold, Cycle 1),
                 "deck": [ids, sealed order], "discard": [ids], "removed": [ids],
                 "initial": id, "initial_bought": bool}
    supply      {"prosperity": n, "priest": n, "philosopher": n} (limited: Forgotten 7)
    monuments   {"offer": [ids face up], "built": {id: {"owner": player, "territory": t}}}
    metropolises {"offer": [special Metropolis ids face up], "held": {id: player},
                 "where": {id: territory} (may be missing)}
    auction     {} or this cycle's ``bidding.Auction.as_dict()`` once the bid is resolved
    acting      {"queue": [[god, pillar], ...] in action order, "index": n,
                 "finished": [pillars in the order they finished]} (Cycle 8), and
                 "end_triggered" once a team reached three Metropolises (Team 1)
    standing    {player: {"retreat": {...}, "sea_retreat": {...}, "casualties": [...],
                 "sea_casualties": [...]}}: each player's standing orders for battles they
                 defend (Battle 2), from the latest bid that gave any (an empty [defend]
                 keeps them); hidden from the others until used
    apollo_keep {player: [figure ids]} (added by the first cycle's bid; may be missing):
                 figures kept a cycle more for a Priestess each if the player's pillar ends
                 on Apollo behind the first one there (Cycle 8.2); hidden from the others
    to_deploy   during setup, what each pillar still deploys (Setup 9)
    eliminated  [players] (Forgotten 6)
    result      {} or {"winners": [...], "why": text, "metropolises": {player: n}}

Gold is the only number the public view hides; the order of every deck and bag is hidden
from everyone (the sealed stream draws them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pbem.games.cyclades.maps import Board

State = dict[str, Any]
#: What the read-only queries accept: a state, or a player's view of one (the bots read views).
Reading = Mapping[str, Any]

STEPS = ("setup_bid", "deploy", "upkeep", "bid", "act", "over")
#: Land units of a territory that fight (Battle 1; Misc Heroes, Titans, Egyptians).
LAND_COUNTS = ("troops", "undead", "titans")
LAND_LISTS = ("heroes", "egyptians")
HAND_COUNTS = ("priest", "philosopher", "priestess")
HAND_LISTS = ("heroes", "artifacts", "egyptians", "magic_items", "favors", "monuments",
              "metropolises", "bought")


def pillars_for(players: Iterable[str], two_player: bool) -> dict[str, str]:
    """Misc Two Player 1: two pillars each with two players, else one named after the player."""
    out: dict[str, str] = {}
    for p in players:
        if two_player:
            out[f"{p}.1"] = p
            out[f"{p}.2"] = p
        else:
            out[p] = p
    return out


def empty_territory() -> dict[str, Any]:
    return {"owner": "", "troops": 0, "undead": 0, "titans": 0, "heroes": [], "egyptians": [],
            "buildings": [], "metropolis": False, "prosperity": 0, "artifacts": [],
            "monuments": [], "necropolis_gold": 0}


def empty_sea() -> dict[str, Any]:
    return {"owner": "", "fleets": 0, "undead_fleets": 0}


def empty_hand() -> dict[str, Any]:
    hand: dict[str, Any] = {k: 0 for k in HAND_COUNTS}
    hand.update({k: [] for k in HAND_LISTS})
    return hand


def land_units(t: dict[str, Any]) -> int:
    """How many units stand on territory ``t``: each troop, undead troop, Titan, Hero and
    Egyptian Reinforcement counts one (Battle 1)."""
    return int(sum(t[k] for k in LAND_COUNTS)) + sum(len(t[k]) for k in LAND_LISTS)


def sea_units(s: dict[str, Any]) -> int:
    return int(s["fleets"] + s["undead_fleets"])


def territories_of(state: Reading, player: str) -> list[str]:
    """The territories ``player`` controls (units there, or the control marker), sorted."""
    return sorted(t for t, x in state["territories"].items() if x["owner"] == player)


def seas_of(state: Reading, player: str) -> list[str]:
    """The sea spaces holding ``player``'s fleets, sorted."""
    return sorted(s for s, x in state["seas"].items() if x["owner"] == player and sea_units(x))


def defenseless(t: dict[str, Any]) -> bool:
    """Forgotten 8: buildings (Fortresses) but no units: taken without a battle."""
    return land_units(t) == 0


def buildings_of(state: State, player: str) -> list[str]:
    """Every building tile ``player`` controls, Metropolises not included, sorted."""
    return sorted(b for x in state["territories"].values() if x["owner"] == player
                  for b in x["buildings"])


def metropolises_of(state: State, player: str) -> int:
    return sum(1 for x in state["territories"].values()
               if x["owner"] == player and x["metropolis"])


def team_of(state: Reading, player: str) -> str:
    return str(state["game"]["teams"].get(player, ""))


def allies(state: Reading, player: str) -> list[str]:
    """Team 4: the teammates of ``player`` (none outside team play)."""
    team = team_of(state, player)
    return sorted(p for p, t in state["game"]["teams"].items() if team and t == team and
                  p != player)


def income(board: Board, state: State, player: str) -> int:
    """Cycle 2.1: one gold per prosperity (cornucopia) ``player`` controls: those printed on
    and added to their territories, and those of sea spaces their fleets alone hold (base
    rules)."""
    total = 0
    for t in territories_of(state, player):
        total += board.territory(t).prosperity + state["territories"][t]["prosperity"]
    for s in seas_of(state, player):
        total += board.sea(s).prosperity
    return total


def player_of(state: State, pillar: str) -> str:
    return str(state["pillars"][pillar])


def active_players(state: Reading) -> list[str]:
    return [p for p in state["game"]["players"] if p not in state["eliminated"]]

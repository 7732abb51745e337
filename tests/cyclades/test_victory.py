"""Who wins Cyclades (seed Victory 1-3, Team Play 1, 5, 6, Forgotten 6):
pbem.games.cyclades.victory.

Scenes start from ``setup.initial_state`` with the board emptied; Metropolises, gold and
artifacts are put where each clause needs them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.games.cyclades import setup, victory
from pbem.games.cyclades.components import load
from pbem.games.cyclades.maps import Board, load_board

C = load()
State = dict[str, Any]
PLAYERS = ("ann", "bob", "cat", "dan")


def rng() -> Rng:
    return Rng(Stream(hashlib.sha256(b"victory/public").digest()),
               Stream(hashlib.sha256(b"victory/sealed").digest()))


def scene(name: str = "vanilla", players: tuple[str, ...] = PLAYERS,
          teams: str = "off") -> tuple[State, Board]:
    b = load_board(name, len(players))
    state, _ = setup.initial_state(C, b, players, {"board": name, "teams": teams}, rng())
    for t in state["territories"].values():
        t["buildings"] = []
    state.update(cycle=3, step="act", to_deploy={})
    return state, b


def metropolis(state: State, player: str, *territories: str) -> None:
    for t in territories:
        state["territories"][t].update(owner=player, troops=1, metropolis=True)


# --- Victory 1 -----------------------------------------------------------------------------------


def test_victory_1_two_metropolises_at_the_end_of_a_cycle() -> None:
    state, _ = scene()
    metropolis(state, "ann", "naxos")
    assert victory.end_of_cycle(C, state) is None   # one is not enough
    metropolis(state, "ann", "paros")
    result = victory.end_of_cycle(C, state)
    assert result is not None and result["winners"] == ["ann"]
    assert result["rule"] == "Victory 1" and result["metropolises"]["ann"] == 2


def test_victory_1_1_metropolis_tie_broken_by_coins() -> None:
    state, _ = scene()
    metropolis(state, "ann", "naxos", "paros")
    metropolis(state, "bob", "delos", "syros")
    state["gold"].update(ann=4, bob=9)
    result = victory.end_of_cycle(C, state)
    assert result is not None and result["winners"] == ["bob"]
    assert result["gold"] == {"ann": 4, "bob": 9}
    assert "coins" in result["why"]


def test_victory_1_1_coins_break_the_tie_whatever_the_count_above_two() -> None:
    # The seed: "If more than one player owns two, coins are the tiebreaker" -- coins alone
    # (the base game's FAQ ranks by Metropolises first; the seed does not).
    state, _ = scene()
    metropolis(state, "ann", "naxos", "paros", "delos")
    metropolis(state, "bob", "syros", "mykonos")
    state["gold"].update(ann=0, bob=30)
    result = victory.end_of_cycle(C, state)
    assert result is not None and result["winners"] == ["bob"]
    assert result["gold"] == {"ann": 0, "bob": 30} and "Victory 1.1" in result["why"]


def test_victory_1_full_tie_is_shared() -> None:
    state, _ = scene()
    metropolis(state, "ann", "naxos", "paros")
    metropolis(state, "bob", "delos", "syros")
    state["gold"].update(ann=5, bob=5)
    result = victory.end_of_cycle(C, state)
    assert result is not None and result["winners"] == ["ann", "bob"]
    assert "share" in result["why"]


def test_misc_two_player_5_three_metropolises_to_win() -> None:
    state, _ = scene("vanilla", ("ann", "bob"))
    metropolis(state, "ann", "naxos", "paros")
    assert victory.needed(state) == 3
    assert victory.end_of_cycle(C, state) is None
    metropolis(state, "ann", "delos")
    result = victory.end_of_cycle(C, state)
    assert result is not None and result["winners"] == ["ann"]


# --- Victory 2 / Team 6 --------------------------------------------------------------------------


def test_victory_2_all_five_artifacts_immediate() -> None:
    state, _ = scene()
    arts = sorted(C.artifacts)
    assert len(arts) == C.rules.artifacts_for_victory == 5
    state["hands"]["cat"]["artifacts"] = arts[:4]
    state["hands"]["dan"]["artifacts"] = arts[4:]
    assert victory.artifacts(C, state) is None   # split between two players
    state["hands"]["cat"]["artifacts"] = arts
    state["hands"]["dan"]["artifacts"] = []
    result = victory.artifacts(C, state)
    assert result is not None and result["winners"] == ["cat"] and result["rule"] == "Victory 2"
    events = victory.finish(state, result)
    assert state["step"] == "over" and state["result"]["winners"] == ["cat"]
    assert events[0]["type"] == "victory" and events[0]["rule"] == "Victory 2"


def test_team_6_all_artifacts_owned_by_one_team() -> None:
    state, _ = scene("titans", PLAYERS, teams="on")   # teams: ann+cat, bob+dan
    arts = sorted(C.artifacts)
    state["hands"]["ann"]["artifacts"] = arts[:2]
    state["hands"]["cat"]["artifacts"] = arts[2:]
    result = victory.artifacts(C, state)
    assert result is not None and result["winners"] == ["ann", "cat"]
    assert result["rule"] == "Team 6"


# --- Team 1 -------------------------------------------------------------------------------------


def test_team_1_three_metropolises_trigger_the_end_and_the_cycle_is_finished() -> None:
    state, _ = scene("titans", PLAYERS, teams="on")
    metropolis(state, "ann", "chalcis", "eretria")
    metropolis(state, "cat", "gortyn")
    events = victory.note_team_trigger(state)
    assert events[0]["rule"] == "Team 1" and events[0]["team"] == "a"
    assert state["acting"]["end_triggered"] == {"team": "a", "cycle": 3}
    assert state["step"] == "act"   # the cycle goes on
    # Before the cycle ends team a loses one and team b gets three: the most wins,
    # "even if someone doesn't have 3 anymore".
    state["territories"]["gortyn"].update(owner="bob")
    metropolis(state, "dan", "knossos", "kydonia")
    result = victory.end_of_cycle(C, state)
    assert result is not None and result["rule"] == "Team 1"
    assert result["winners"] == ["bob", "dan"] and result["teams"] == {"a": 2, "b": 3}


def test_team_1_ends_even_if_nobody_has_three_anymore_gold_breaks_the_tie() -> None:
    state, _ = scene("titans", PLAYERS, teams="on")
    state["acting"]["end_triggered"] = {"team": "a", "cycle": 3}
    metropolis(state, "ann", "chalcis")
    metropolis(state, "dan", "gortyn")
    state["gold"].update(ann=3, cat=3, bob=4, dan=1)   # team a 6, team b 5
    result = victory.end_of_cycle(C, state)
    assert result is not None and result["winners"] == ["ann", "cat"]
    assert result["gold"] == {"ann": 3, "cat": 3, "bob": 4, "dan": 1}


def test_team_1_no_trigger_no_end() -> None:
    state, _ = scene("titans", PLAYERS, teams="on")
    metropolis(state, "ann", "chalcis", "eretria")   # 2 for the team: not yet
    assert victory.note_team_trigger(state) == []
    assert victory.end_of_cycle(C, state) is None   # and Victory 1's two do not count


# --- Team 5 and Forgotten 6 ----------------------------------------------------------------------


def test_team_5_military_victory_conditions() -> None:
    state, b = scene("titans", PLAYERS, teams="on")
    metropolis(state, "ann", "chalcis")
    metropolis(state, "cat", "gortyn")
    # ann has just taken knossos, bob's last territory: no Metropolis there, a dotted square,
    # and it would be team a's third.
    assert b.territory("knossos").metropolis_square
    state["territories"]["knossos"].update(owner="ann", troops=1)
    result = victory.military_result(C, b, state, "ann", "knossos")
    assert result is not None and result["winners"] == ["ann", "cat"]
    assert result["rule"] == "Team 5" and victory.military(C, b, state, "ann", "knossos")
    # Team 5.2: no Metropolis square (aptera has none)
    assert not b.territory("aptera").metropolis_square
    state["territories"]["aptera"].update(owner="ann", troops=1)
    assert not victory.military(C, b, state, "ann", "aptera")
    # Team 5.1: the territory already holds a Metropolis
    state["territories"]["knossos"]["metropolis"] = True
    assert not victory.military(C, b, state, "ann", "knossos")
    # Team 5.3: it would not be the team's third
    state["territories"]["knossos"]["metropolis"] = False
    state["territories"]["gortyn"]["metropolis"] = False
    assert not victory.military(C, b, state, "ann", "knossos")


def test_team_5_1_already_means_when_taken_not_after_the_turn() -> None:
    # Ann takes knossos (Bob's last, no Metropolis then, a square) and, later in the same
    # turn, forms a Metropolis there from the buildings: it was not "already" there (Team
    # 5.1), and it is the team's third, not a fourth (5.3): a military victory, whichever
    # site her form prefers. One that stood there when taken still refuses it.
    state, b = scene("titans", PLAYERS, teams="on")
    metropolis(state, "ann", "chalcis")
    metropolis(state, "cat", "gortyn")
    metropolis(state, "ann", "knossos")          # formed after the conquest, this turn
    result = victory.military_result(C, b, state, "ann", "knossos", had_metropolis=False)
    assert result is not None and result["rule"] == "Team 5"
    assert victory.military_result(C, b, state, "ann", "knossos", had_metropolis=True) is None


def test_forgotten_6_last_territory_taken_with_the_metropolises_needed_wins_at_once() -> None:
    state, b = scene()
    metropolis(state, "ann", "naxos", "paros")   # paros was bob's last territory
    result = victory.military_result(C, b, state, "ann", "paros")
    assert result is not None and result["winners"] == ["ann"]
    assert result["rule"] == "Forgotten 6"
    state["territories"]["naxos"]["metropolis"] = False
    assert not victory.military(C, b, state, "ann", "paros")

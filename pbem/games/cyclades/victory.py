"""Who wins Cyclades, and when (seed Victory 1-3, Team Play 1, 5, 6, Forgotten 6).

Pure queries on the shared state (``state.py``) plus :func:`finish`, which writes the result:

- :func:`end_of_cycle` -- Victory 1 at the end of every cycle (``cycle.end_of_actions`` calls
  it): a player with two Metropolises (three with two players, Misc Two Player 5) wins; with
  several, the most Metropolises, then the most coins (published base FAQ: Metropolises
  first, then gold). In team play it is Team 1 instead (:func:`team_end`).
- :func:`artifacts` -- Victory 2 / Team 6: one player (one team) owns all five artifacts: an
  immediate victory, the cycle is not finished (the caller checks after every action).
- :func:`military` / :func:`military_result` -- Team 5.1-5.3 (Victory 3 "see Team Play"):
  a player conquering an opponent's LAST territory wins at once if that territory held no
  Metropolis, has a Metropolis square and its Metropolis would be the team's third.
- :func:`note_team_trigger` -- Team 1: the first team to three Metropolises triggers the
  end; the cycle is finished, then :func:`team_end` ranks the teams.

Interpretations where the seed is silent (also in ``docs/games/cyclades-cycle.md``):

- **Full tie** (same Metropolises and same gold): every tied player (team) wins together; the
  result lists them all and says so. The seed names no further tie-break.
- **Team counts**: "most Metropolises" and "gold wins tiebreakers" (Team 1) are read per TEAM:
  the sum of the members' Metropolises, then the sum of their gold (teammates may tell each
  other their gold, Team 4, so the team's gold is a known quantity). The winners are all the
  members of the best team.
- **Military victory outside team play**: Forgotten 6 lets a player attack an opponent's last
  territory only if taking it wins IMMEDIATELY; so when such a conquest leaves the attacker
  with the Metropolises Victory 1 asks (captured, or formed at once from captured buildings),
  :func:`military_result` ends the game at once (rule ``Forgotten 6``).
- **Team 5.1** ("does not already contain a Metropolis") is read on the state after the
  conquest turn: a territory that now holds a Metropolis (taken with it, or formed there in the
  same turn) does not give a military victory; the Metropolis simply counts for Team 1.
- Eliminated players (Forgotten 6) hold no territory and so no Metropolis; in team play their
  gold still counts for their team.

Result dicts (``state["result"]`` once written by :func:`finish`): ``{"winners": [players],
"why": text, "rule": clause, "metropolises": {player: n}}``, plus ``"teams": {team: n}`` in team
play and ``"gold": {player: n}`` for the players (members of the teams) whose gold broke a tie.
:func:`finish` also sets ``state["step"] = "over"``.
"""

from __future__ import annotations

from typing import Any

from pbem.games.cyclades.components import Components
from pbem.games.cyclades.maps import Board
from pbem.games.cyclades.state import State, active_players, metropolises_of, team_of

Event = dict[str, Any]
Result = dict[str, Any]

#: Team 1: the Metropolises a team needs to trigger the end.
TEAM_METROPOLISES = 3


def needed(state: State) -> int:
    """Victory 1: two Metropolises, three with two players (Misc Two Player 5)."""
    return 3 if state["game"].get("two_player") else 2


def metropolis_counts(state: State) -> dict[str, int]:
    """Each player's Metropolises (the territories they control that hold one), seat order."""
    return {p: metropolises_of(state, p) for p in state["game"]["players"]}


def teams(state: State) -> dict[str, list[str]]:
    """Team -> its members in seat order ({} outside team play)."""
    out: dict[str, list[str]] = {}
    for p in state["game"]["players"]:
        team = team_of(state, p)
        if team:
            out.setdefault(team, []).append(p)
    return out


def team_metropolises(state: State) -> dict[str, int]:
    """Team -> the sum of its members' Metropolises (Team 1)."""
    counts = metropolis_counts(state)
    return {t: sum(counts[p] for p in members) for t, members in teams(state).items()}


def _rank(state: State, groups: dict[str, list[str]], counts: dict[str, int]
          ) -> tuple[list[str], bool]:
    """The best groups by (Metropolises, gold), and whether gold was needed to separate them.

    Every group tied on both counts wins together (a full tie: our reading)."""
    def mets(g: str) -> int:
        return sum(counts[p] for p in groups[g])

    def gold(g: str) -> int:
        return sum(int(state["gold"][p]) for p in groups[g])

    top = max(mets(g) for g in groups)
    leaders = [g for g in groups if mets(g) == top]
    if len(leaders) == 1:
        return leaders, False
    best = max(gold(g) for g in leaders)
    return [g for g in leaders if gold(g) == best], True


def end_of_cycle(c: Components, state: State) -> Result | None:
    """Victory 1 (or Team 1 in team play) at the end of a cycle; None if the game goes on."""
    if state["game"].get("teams"):
        return team_end(c, state)
    counts = metropolis_counts(state)
    need = needed(state)
    qualified = {p: [p] for p in active_players(state) if counts[p] >= need}
    if not qualified:
        return None
    # Victory 1.1: "If more than one player owns two, coins are the tiebreaker" -- coins
    # alone, whatever the number of Metropolises above the two (three) each owns.
    best = max(int(state["gold"][p]) for p in qualified)
    winners = [p for p in qualified if int(state["gold"][p]) == best]
    result: Result = {"winners": winners, "rule": "Victory 1", "metropolises": counts}
    names = " and ".join(winners)
    if len(qualified) == 1:
        why = f"{names} owns {counts[winners[0]]} Metropolises at the end of the cycle."
    else:
        result["gold"] = {p: int(state["gold"][p]) for p in qualified}
        why = (f"{', '.join(qualified)} own {need} Metropolises or more; coins break the tie "
               f"(Victory 1.1): {names} with {best} gold.")
        if len(winners) > 1:
            why += " They are tied on coins too and share the victory."
    result["why"] = why
    return result


def note_team_trigger(state: State) -> list[Event]:
    """Team 1: the first time a team has three Metropolises, the end of the game is triggered
    (recorded in ``state["acting"]["end_triggered"]``; the cycle is finished first). Call it
    after every action; ``cycle.end_of_actions`` calls it too."""
    if not state["game"].get("teams") or state["acting"].get("end_triggered"):
        return []
    per_team = team_metropolises(state)
    reached = sorted(t for t, n in per_team.items() if n >= TEAM_METROPOLISES)
    if not reached:
        return []
    state["acting"]["end_triggered"] = {"team": reached[0], "cycle": int(state["cycle"])}
    members = " and ".join(teams(state)[reached[0]])
    return [{"type": "end_triggered", "rule": "Team 1",
             "text": f"Team {reached[0]} ({members}) has {per_team[reached[0]]} Metropolises: "
                     "the end of the game is triggered; the cycle is finished first.",
             "team": reached[0], "metropolises": per_team[reached[0]]}]


def team_end(c: Components, state: State) -> Result | None:
    """Team 1 at the end of a cycle: if the end was triggered this cycle (or a team holds three
    Metropolises now), the team with the most Metropolises wins, then the most gold; None
    otherwise."""
    per_team = team_metropolises(state)
    if not state["acting"].get("end_triggered") and max(per_team.values(), default=0) < \
            TEAM_METROPOLISES:
        return None
    groups = teams(state)
    counts = metropolis_counts(state)
    best, by_gold = _rank(state, groups, counts)
    winners = [p for t in best for p in groups[t]]
    result: Result = {"winners": winners, "rule": "Team 1", "metropolises": counts,
                      "teams": per_team}
    label = " and ".join(f"team {t} ({', '.join(groups[t])})" for t in best)
    why = f"The end was triggered; {label} has the most Metropolises ({per_team[best[0]]})"
    if by_gold:
        tied = [t for t in groups if per_team[t] == per_team[best[0]]]
        result["gold"] = {p: int(state["gold"][p]) for t in tied for p in groups[t]}
        why += ", with the most gold among the tied teams"
        if len(best) > 1:
            why += "; they are tied on gold too and share the victory"
    result["why"] = why + "."
    return result


def artifacts(c: Components, state: State) -> Result | None:
    """Victory 2 / Team 6: one player (one team) owns all the artifacts: an immediate victory
    (the cycle is not finished). None otherwise."""
    need = c.rules.artifacts_for_victory
    team_play = bool(state["game"].get("teams"))
    groups = teams(state) if team_play else {p: [p] for p in state["game"]["players"]}
    for group, members in groups.items():
        held = sum(len(state["hands"][p]["artifacts"]) for p in members)
        if held >= need:
            who = " and ".join(members)
            text = (f"team {group} ({who})" if team_play else who)
            return {"winners": list(members), "rule": "Team 6" if team_play else "Victory 2",
                    "why": f"{text} owns all {need} artifacts: an immediate victory.",
                    "metropolises": metropolis_counts(state)}
    return None


def military_result(c: Components, board: Board, state: State, player: str,
                    territory: str, had_metropolis: bool | None = None) -> Result | None:
    """The immediate victory of ``player``, who has just conquered ``territory``, the LAST
    territory of an opponent (the caller knows it was the last: event ``last_territory``).

    Team play (Team 5.1-5.3): the territory holds no Metropolis, has a Metropolis square, and
    a Metropolis there would give the team its third (or more). Otherwise (Forgotten 6, our
    reading): the attacker now holds the Metropolises Victory 1 asks. None if no victory.

    ``had_metropolis``: whether the territory held a Metropolis when it was taken (the
    ``conquest`` event says; Team 5.1 "does not already contain"). A Metropolis the
    conqueror forms there later in the same turn is not "already" there, and is the one
    Team 5.3 counts, not a Metropolis more. ``None``: read the state as it is."""
    here = state["territories"][territory]
    if here["owner"] != player:
        return None
    counts = metropolis_counts(state)
    if state["game"].get("teams"):
        team = team_of(state, player)
        total = team_metropolises(state).get(team, 0)
        had = here["metropolis"] if had_metropolis is None else had_metropolis
        formed_here = bool(here["metropolis"]) and not had
        if (had or not board.territory(territory).metropolis_square
                or total - formed_here + 1 < TEAM_METROPOLISES):
            return None
        members = teams(state)[team]
        return {"winners": members, "rule": "Team 5", "metropolises": counts,
                "teams": team_metropolises(state), "territory": territory,
                "why": f"{player} takes the last territory of an opponent, {territory}: it has "
                       "a Metropolis square and no Metropolis, and its Metropolis is team "
                       f"{team}'s third (Team 5.1-5.3): a military victory for "
                       f"{' and '.join(members)}."}
    if counts[player] < needed(state):
        return None
    return {"winners": [player], "rule": "Forgotten 6", "metropolises": counts,
            "territory": territory,
            "why": f"{player} takes an opponent's last territory, {territory}, and owns "
                   f"{counts[player]} Metropolises: an immediate victory (Forgotten 6)."}


def military(c: Components, board: Board, state: State, player: str, territory: str) -> bool:
    """Whether :func:`military_result` gives a victory (Team 5.1-5.3, Forgotten 6)."""
    return military_result(c, board, state, player, territory) is not None


def finish(state: State, result: Result) -> list[Event]:
    """Write ``result`` into ``state["result"]``, set ``state["step"] = "over"`` and return the
    public victory event (gold is shown at the end: the views reveal everything then)."""
    state["result"] = dict(result)
    state["step"] = "over"
    return [{"type": "victory", "rule": result["rule"], "text": result["why"],
             "winners": list(result["winners"]),
             "metropolises": dict(result["metropolises"])}]

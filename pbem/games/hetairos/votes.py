"""Votes in a Polis (POLIS AND MANORS, Polis 6; Coop 4 The Will to Conquer).

Polis 6: "PLAYERS WHO ARE CURRENTLY CITIZENS OF A POLIS MAY ATTEMPT TO BOOT THEIR FELLOW PLAYERS
OUT WHEN IN THE POLIS; ALL CURRENT PLAYER CITIZENS OF THE POLIS CAST VOTES ON THIS, AND THEN
EACH SIDE GAINS 2D6 NPC VOTES." The step ``boot PLAYER``: each citizen's vote is their standing
order ``boot`` (the players they vote to boot), so nobody waits on another's mail.

Coop 4: "FOR A POLIS THEY MUST WIN A VOTE (AS FOR KICKING ANOTHER PLAYER OUT OF A POLIS) WITH +5
TO THE OPPOSING ROLL": :func:`take`, the scenario's ``vote`` step.

Rules code only: pure functions of the state and the dice.
"""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos import sites, standing
from pbem.games.hetairos.table import Model, Table

#: Polis 6: "EACH SIDE GAINS 2D6 NPC VOTES".
NPC_VOTES = "2d6"


def tally(t: Table, k: str, what: str, yes: list[str], no: list[str],
          handicap: int = 0) -> tuple[bool, str]:
    """The players' votes on each side, then 2d6 NPC votes each (``handicap`` added to the
    noes: Coop 4's +5). Carried when the ayes exceed the noes.

    # Ruling: (analysis 5.2) a tie keeps things as they are.
    """
    ay, ay_dice = t.roll_each(NPC_VOTES, f"vote/{k}/{what}/for")
    na, na_dice = t.roll_each(NPC_VOTES, f"vote/{k}/{what}/against")
    ayes, noes = len(yes) + ay, len(no) + na + handicap

    def side(players: list[str], dice: list[int], plus: int) -> str:
        who = f"{len(players)} ({', '.join(players)})" if players else "0"
        extra = f" + {plus}" if plus else ""
        return f"{who} + NPCs {'+'.join(str(d) for d in dice)}{extra}"

    text = (f"for {side(yes, ay_dice, 0)} = {ayes}, against {side(no, na_dice, handicap)} "
            f"= {noes}")
    return ayes > noes, text


def _mark(t: Table, m: Model) -> str:
    return f"{t.state['round']}:{m['at']}"


def _polis(t: Table, m: Model) -> tuple[dict[str, Any], str]:
    """The Polis ``m`` may call a vote in, or why not.

    # Ruling: one vote a turn by a player in a Polis (a vote costs no AP, analysis 5.2, and
    # would otherwise be repeated until the dice agree).
    """
    _kind, site, why = sites._settlement(t, m, ("polis",))
    if why:
        return {}, why
    if m["owner"] not in site["citizens"]:
        return {}, "only a citizen of this Polis may call a vote (Polis 6)"
    if m["effects"].get("vote") == _mark(t, m):
        return {}, "one vote a turn in this Polis"
    return site, ""


def voters(t: Table, site: dict[str, Any]) -> list[str]:
    """Ruling: "ALL CURRENT PLAYER CITIZENS" = the citizens whose character is alive."""
    return [p for p in t.state["seats"] if p in site["citizens"] and t.pc(p) is not None]


def boot_problem(t: Table, m: Model, target: str) -> str:
    site, why = _polis(t, m)
    if why:
        return why
    if target == m["owner"]:
        return "you cannot boot yourself"
    if target not in t.state["seats"]:
        return f"no player {target!r}"
    if target not in site["citizens"]:
        return f"{target} is not a citizen of this Polis"
    return ""


def boot(t: Table, m: Model, target: str) -> str:
    """Polis 6: ``m``'s player, a citizen standing in the Polis, calls a vote to boot ``target``
    out of its citizenship. The caller votes for; every other living citizen votes for when
    their standing ``boot`` names ``target``, else against (``target`` always against). Booted:
    no longer a citizen, and the Polis no longer friendly to them (Polis 7)."""
    why = boot_problem(t, m, target)
    if why:
        return why
    m["effects"]["vote"] = _mark(t, m)
    k = m["at"]
    site = t.state["map"][k]["site"]
    caller = m["owner"]
    yes = [caller] + [p for p in voters(t, site) if p not in (caller, target)
                      and target in standing.of(t.state, p)["boot"]]
    no = [p for p in voters(t, site) if p not in yes]
    carried, text = tally(t, k, f"boot/{target}", yes, no)
    if carried:
        site["citizens"].remove(target)
        if target in site.get("friendly", []):
            site["friendly"].remove(target)
    t.say("vote", f"{caller} calls a vote in the Polis at {k} to boot {target} out: {text}: "
          + (f"{target} is no longer a citizen" if carried else f"{target} stays")
          + " (Polis 6).", square=k, player=caller, target=target, carried=carried)
    return ""


def take_problem(t: Table, m: Model) -> str:
    site, why = _polis(t, m)
    if why:
        return why
    if site.get("conquered"):
        return "this Polis is already yours"
    return ""


def take(t: Table, m: Model, handicap: int) -> bool:
    """Coop 4: ``m``'s player, a citizen in the Polis, calls the vote that hands the Polis to the
    players: the living citizens of their side vote for, nobody against, and the opposing NPC
    roll gets ``handicap``. Returns whether it was carried (``site["conquered"]``, friendly to
    every player of the side). The caller checked :func:`take_problem`.

    # Ruling: the vote is called as a boot vote is, by a citizen standing in the Polis, once a
    # turn; only citizens' votes count.
    """
    m["effects"]["vote"] = _mark(t, m)
    k = m["at"]
    site = t.state["map"][k]["site"]
    team = t.team_of(m)
    yes = [p for p in voters(t, site) if t.state["teams"].get(p, "party") == team]
    carried, text = tally(t, k, "conquer", yes, [], handicap)
    if carried:
        site["conquered"] = True
        for p in t.state["seats"]:
            if t.state["teams"].get(p, "party") == team and p not in site["friendly"]:
                site["friendly"].append(p)
    t.say("vote", f"{m['owner']} calls a vote in the Polis at {k} to hand it to the players: "
          f"{text}: " + ("the Polis is theirs" if carried else "the Polis stays its own")
          + " (Coop 4).", square=k, player=m["owner"], carried=carried)
    return carried

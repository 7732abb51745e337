"""The team list (TEAM SCENARIOS, Team 0-6): the players split into teams, each starting on a
bridge of its own, 4 squares at least between two (Team 0).

Every team scenario splits the players "RANDOMISED" (Team 1-6): :meth:`TeamScenario.teams`
deals a public shuffle of the seats (``setup/teams``) into two teams in turn (Team 1-4; the
data's ``team_names`` when printed: Demoi and Aristoi, Hecate and Zeus) or into pairs (Team 5,
Team 6: "TEAMS OF TWO PLAYERS").
"""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos import grid, skills
from pbem.games.hetairos.scenarios import Scenario, over, register, team_members
from pbem.games.hetairos.table import Model, Table

Event = dict[str, Any]
BRIDGE = grid.key(grid.STYX_X, 0)  # Team 2, Team 6: "A CENTRAL BRIDGE OVER THE STYX"


def _cavern(t: Table, k: str) -> None:
    """A starting square off the Styx (Team 2, Team 6).

    # Ruling: it is drawn as an empty cavern open on all four sides, so that the way toward
    # the bridge (and every other way) is open from the start; what lies between is explored
    # as usual.
    """
    if t.square(k) is None:
        t.state["map"][k] = {"kind": "empty_cavern", "open": grid.DIRS, "found": 0, "by": ""}


def _bridge(t: Table) -> None:
    if t.square(BRIDGE) is None:
        t.state["map"][BRIDGE] = {"kind": "styx", "open": "NS", "bridge": True, "found": 0,
                                  "by": ""}


def team_names(t: Table, scenario_id: str) -> list[str]:
    """The teams' ids in dealing order: printed names, else ``team 1``, ``team 2``..."""
    s = t.c.world.scenarios[scenario_id]
    n = len(t.state["seats"]) // s.team_size if s.team_size else s.teams or 2
    if s.team_names:
        return list(s.team_names)
    return [f"team {i}" for i in range(1, n + 1)]


def label(team: str, *, first: bool = False) -> str:
    """``team 1`` as it is; a printed name as ``the Demoi team`` (``first``: capitalised)."""
    out = team if team.startswith("team ") else f"the {team.title()} team"
    return out[:1].upper() + out[1:] if first else out


def standing_teams(t: Table) -> list[str]:
    """Teams with a living player character, in the order of the seats."""
    out: list[str] = []
    for p in t.state["seats"]:
        team = str(t.state["teams"].get(p, ""))
        if t.pc(p) is not None and team not in out:
            out.append(team)
    return out


def last_team_standing(t: Table, name: str) -> None:
    """Team 1, Team 4: "LAST TEAM STANDING WINS".

    # Ruling: a team stands while one of its players' characters lives (with ``death=out``,
    # the competitive default, a dead player is out; NPCs left without a living commander do
    # not keep a team in the game). Every team falling at once is the core's end (nobody wins).
    """
    alive = standing_teams(t)
    if len(alive) == 1:
        over(t, team_members(t, alive[0]),
             f"{label(alive[0], first=True)} is the last team standing ({name}).")


class TeamScenario(Scenario):
    """What the six team scenarios share: the random teams and the player count."""

    def players_problem(self, n: int) -> str:
        """Two teams need 2 players or more; teams of two (Team 5, 6) an even number, 4 or
        more (analysis 6)."""
        from pbem.games.hetairos.table import load

        s = load().world.scenarios[self.id]
        if s.team_size:
            if n < 2 * s.team_size or n % s.team_size:
                return (f"it is played by teams of {s.team_size}: it needs an even number of "
                        f"players, {2 * s.team_size} or more")
            return ""
        if n < 2:
            return "it is played between two teams: it needs 2 or more players"
        return ""

    def teams(self, t: Table, seats: list[str]) -> dict[str, str]:
        """Team 1-6 "RANDOMISED": a public shuffle (``setup/teams``) dealt round the teams
        (two teams) or in consecutive pairs (teams of two).

        # Ruling: with an odd number of players the first team drawn has one more player.
        """
        s = t.c.world.scenarios[self.id]
        names = team_names(t, self.id)
        drawn = t.dice.shuffle(sorted(seats), "setup/teams")
        if s.team_size:
            out = {p: names[i // s.team_size] for i, p in enumerate(drawn)}
        else:
            out = {p: names[i % len(names)] for i, p in enumerate(drawn)}
        for team in names:
            members = [p for p in drawn if out[p] == team]
            if members:
                t.say("team", f"{label(team, first=True)}: {', '.join(members)} (drawn at random).",
                      team=team, players=members)
        return out


# ---- Team 1 ---------------------------------------------------------------------------------


@register
class WarGames(TeamScenario):
    """Team 1: "EACH PLAYER STARTS EITHER WITH 5 HOPLITES, OR 3 AMAZONS (PLAYER CHOICE) UNDER
    THEIR COMMAND. LAST TEAM STANDING WINS." The choice is the standing order ``escort``
    (``hoplites``, the default, or ``amazons``) given with the join."""

    id = "the_war_games"

    def setup(self, t: Table) -> None:
        s = t.c.world.scenarios[self.id]
        for p in t.state["seats"]:
            pc = t.pc(p)
            assert pc is not None
            choice = str(t.state["standing"].get(p, {}).get("escort", "hoplites"))
            type_ = "amazon" if choice == "amazons" else "hoplite"
            count = s.number_of("amazons" if type_ == "amazon" else "hoplites")
            ids = [skills.new_npc(t, p, type_, pc["at"], bank=pc["bank"])["id"]
                   for _ in range(count)]
            t.say("escort", f"{p} starts with {count} {t.c.monster(type_).name}s under their "
                  f"command (Team 1): {', '.join(ids)}.", player=p, npcs=ids)

    def check(self, t: Table, *, end_of_round: bool) -> None:
        last_team_standing(t, "The War Games")


# ---- Team 2 ---------------------------------------------------------------------------------


@register
class CaptureTheFlag(TeamScenario):
    """Team 2: each team starts in an empty cavern up to 6 squares from a central bridge, a
    flag in it; "FLAGS MAY BE PICKED UP SIMPLY BY MOVING INTO A CAVERN; IF A PLAYER LOSES A
    ROUND OF COMBAT, THEY MUST MAKE A 4+ ROLL TO BE ABLE TO KEEP HOLD OF THE FLAG. THE FIRST
    TEAM TO GET THE ENEMY FLAG AND THEIR FLAG TOGETHER IN THEIR CAVERN WINS."

    ``goal["flags"]``: team -> ``{"home": square, "at": square, "holder": player or "",
    "model": the carrier's model id or ""}`` (``at`` is where a loose flag lies; a held flag
    goes with its carrier).
    """

    id = "capture_the_flag"

    def starts(self, t: Table, seats: list[str]) -> dict[str, str]:
        """Team 2 "UP TO 6 SQUARES AWAY FROM A CENTRAL BRIDGE".

        # Ruling: the central bridge is at 0,0; the first team's cavern lies the full 6
        # squares west of it, the second's 6 east, so that the two must meet at the bridge.
        """
        gap = t.c.world.scenarios[self.id].start_gap
        homes = {team: grid.key(gap if i % 2 else -gap, 0)
                 for i, team in enumerate(team_names(t, self.id))}
        return {p: homes[t.state["teams"][p]] for p in seats}

    def setup(self, t: Table) -> None:
        _bridge(t)
        flags: dict[str, dict[str, str]] = {}
        for p in t.state["seats"]:
            team = t.state["teams"][p]
            home = t.state["starts"][p]
            _cavern(t, home)
            if team not in flags:
                flags[team] = {"home": home, "at": home, "holder": "", "model": ""}
                t.say("flag", f"{label(team, first=True)}'s flag stands in its cavern at {home} "
                      "(Team 2).", team=team, square=home)
        t.state["goal"]["flags"] = flags

    def _flags(self, t: Table) -> dict[str, dict[str, str]]:
        flags: dict[str, dict[str, str]] = t.state["goal"].setdefault("flags", {})
        return flags

    def carrier(self, t: Table, flag: dict[str, str]) -> Model | None:
        """The living character carrying ``flag`` (a replacing character, ``death=replace``,
        does not inherit it)."""
        m = t.models.get(flag.get("model", "")) if flag["holder"] else None
        return m if m is not None and m["hp"] > 0 else None

    def _where(self, t: Table, flag: dict[str, str]) -> str:
        holder = self.carrier(t, flag)
        return str(holder["at"]) if holder is not None else flag["at"]

    def _drop(self, t: Table, team: str, why: str) -> None:
        flag = self._flags(t)[team]
        m = t.models[flag["model"]]
        flag.update(at=str(m["at"]), holder="", model="")
        t.say("flag", f"{label(team, first=True)}'s flag falls at {flag['at']}: {why} (Team 2).",
              team=team, square=flag["at"], player=str(m["owner"]))

    def _fallen(self, t: Table) -> None:
        """A carrier killed (in combat, by a trap, by lava) drops the flag where it lies."""
        for team, flag in sorted(self._flags(t).items()):
            if flag["holder"] and self.carrier(t, flag) is None:
                self._drop(t, team, f"{flag['holder']}'s character is dead")

    def on_enter(self, t: Table, m: Model, k: str, travel: str) -> list[str]:
        """Team 2 "FLAGS MAY BE PICKED UP SIMPLY BY MOVING INTO A CAVERN".

        # Ruling: a player character moving into the square where a loose flag lies picks it
        # up, wherever it lies: the enemy's flag always, its own team's only away from its
        # home cavern (to carry it back). NPCs carry no flag.
        """
        if m["side"] != "pc":
            return []
        self._fallen(t)
        mine = t.state["teams"].get(m["owner"], "")
        for team, flag in sorted(self._flags(t).items()):
            if flag["holder"] or flag["at"] != k or (team == mine and k == flag["home"]):
                continue
            flag.update(holder=str(m["owner"]), model=str(m["id"]))
            t.say("flag", f"{t.name(m['id'])} picks up {label(team)}'s flag at {k} "
                  "(Team 2).", team=team, square=k, player=str(m["owner"]))
        return []

    def after_combat(self, t: Table, winners: list[Model], losers: list[Model]) -> None:
        """Team 2 "IF A PLAYER LOSES A ROUND OF COMBAT, THEY MUST MAKE A 4+ ROLL TO BE ABLE TO
        KEEP HOLD OF THE FLAG".

        # Ruling: a tie is no lost round; a flag shaken loose falls in the loser's square
        # (picked up by the next player character to move in); a slain carrier drops it.
        """
        need = t.c.world.scenarios[self.id].number_of("keep_flag")
        lost = {str(m["id"]) for m in losers if m["side"] == "pc"}
        for team, flag in sorted(self._flags(t).items()):
            p = flag["holder"]
            if not p or flag["model"] not in lost:
                continue
            if self.carrier(t, flag) is None:
                self._drop(t, team, f"{p}'s character is dead")
                continue
            roll = t.d6(f"flag/{team.replace(' ', '')}/{p}")  # labels take no spaces
            if roll >= need:
                t.say("flag", f"{p} loses the round but keeps hold of {label(team)}'s flag "
                      f"(a {roll}, {need}+; Team 2).", team=team, player=p, roll=roll)
            else:
                self._drop(t, team, f"{p} loses a round and fails to keep hold of it "
                           f"(a {roll}, not {need}+)")

    def record(self, t: Table, events: list[Event]) -> None:
        self._fallen(t)

    def check(self, t: Table, *, end_of_round: bool) -> None:
        self._fallen(t)
        flags = self._flags(t)
        for team, flag in sorted(flags.items()):
            home = flag["home"]
            if all(self._where(t, f) == home for f in flags.values()):
                over(t, team_members(t, team), f"{label(team, first=True)} has the enemy "
                     f"flag and its own together in its cavern at {home} (Capture the Flag).")
                return


# ---- Team 3 ---------------------------------------------------------------------------------


@register
class Stasis(TeamScenario):
    """Team 3: Demoi against Aristoi: "THE DEMOI TEAM ARE TRYING TO DESTROY MANORS, THE
    ARISTOI ARE TRYING TO DESTROY POLIS SETTLEMENTS. THE FIRST TEAM TO DESTROY A SETTLEMENT
    WINS." A player attacks a settlement's force with ``attack <defender id>`` (war on it,
    Polis 2).

    # Ruling: (analysis 5.2) "DESTROY" = its defence force reduced to nothing, the last of it
    # slain or taken prisoner by the team's models (characters or NPCs); a settlement the
    # monsters destroy (Community 4) counts for nobody, nor one of the other team's kind.
    # The destroyed settlement is marked so (no trade, not taken as a Manor, Polis 2).
    """

    id = "stasis"

    def targets(self, t: Table) -> dict[str, str]:
        """Team -> the settlement kind it destroys: the data's ``team_names`` (demoi,
        aristoi) with its ``places`` (manor, polis), in printed order."""
        s = t.c.world.scenarios[self.id]
        return dict(zip(s.team_names, s.places, strict=True))

    def _fell(self, t: Table, victims: list[Model], killers: list[Model]) -> None:
        for v in victims:
            home = str(v.get("home", ""))
            if v["side"] != "defender" or (v["hp"] > 0 and not v.get("captured")) or not home:
                continue
            sq = t.square(home) or {}
            site = sq.get("site", {})
            kind = site.get("settlement", "")
            if site.get("destroyed") or any(o["side"] == "defender" and o.get("home") == home
                                            for o in t.at(home)):
                continue
            teams = {t.team_of(k) for k in killers if k["side"] in ("pc", "npc")}
            for team in sorted(teams):
                if self.targets(t).get(team) != kind:
                    continue
                site["destroyed"] = True
                t.state["goal"]["destroyed"] = {"team": team, "square": home, "kind": kind}
                t.say("destroyed", f"{label(team, first=True)} destroys the "
                      f"{t.c.world.squares[kind].name} at {home} (Stasis).", square=home,
                      kind=kind, team=team)
                return

    def after_combat(self, t: Table, winners: list[Model], losers: list[Model]) -> None:
        self._fell(t, losers, winners)

    def record(self, t: Table, events: list[Event]) -> None:
        """A defender slain outside a combat round (the Thunderbolt, Rare A)."""
        for e in events:
            if e.get("type") == "slain" and e.get("victim") in t.models:
                killers = [t.models[i] for i in e.get("by", []) if i in t.models]
                self._fell(t, [t.models[e["victim"]]], killers)

    def check(self, t: Table, *, end_of_round: bool) -> None:
        done = t.state["goal"].get("destroyed")
        if done:
            over(t, team_members(t, done["team"]), f"{label(done['team'], first=True)} "
                 f"destroyed the {t.c.world.squares[done['kind']].name} at {done['square']} "
                 "first (Stasis).")


# ---- Team 4 ---------------------------------------------------------------------------------


@register
class BattleOfSorcery(TeamScenario):
    """Team 4: followers of Hecate against followers of Zeus: "ZEUS' FOLLOWERS AUTOMATICALLY
    PASS ALL CHECKS MADE AT OLYMPIAN SHRINES, HECATE'S MAY COMMAND ANY MONSTERS SPAWNED AT
    HECATE'S SHRINES. LAST TEAM STANDING WINS." """

    id = "battle_of_sorcery"

    def auto_pass(self, t: Table, m: Model, check_id: str) -> bool:
        sq = t.square(m["at"]) or {}
        return (m["side"] == "pc" and t.team_of(m) == "zeus"
                and sq.get("kind") == "olympian_shrine")

    def on_spawn(self, t: Table, m: Model, k: str) -> None:
        """Team 4 "HECATE'S MAY COMMAND ANY MONSTERS SPAWNED AT HECATE'S SHRINES".

        # Ruling: a devotee spawned at a Shrine of Hecate comes at once under the command of
        # the nearest living follower of Hecate (squares by straight steps; ties: seat order)
        # as a controlled NPC; it stays attached to the shrine (at most 5, Hecate 2). With no
        # follower of Hecate alive it is a monster as usual.
        """
        if (t.square(k) or {}).get("kind") != "shrine_of_hecate":
            return
        followers = [pc for p in t.state["seats"] if (pc := t.pc(p)) is not None
                     and t.team_of(pc) == "hecate"]
        if not followers:
            return
        lead = min(followers, key=lambda pc: (grid.manhattan(pc["at"], k),
                                              t.state["seats"].index(pc["owner"])))
        owner = str(lead["owner"])
        m.update(side="npc", owner=owner,
                 name=f"{owner[:1].upper()}{owner[1:]}'s {t.c.monster(m['type']).name} "
                      f"{m['id']}")
        t.say("commanded", f"{m['name']} answers to {owner}, follower of Hecate (Team 4).",
              model=m["id"], player=owner, square=k)

    def check(self, t: Table, *, end_of_round: bool) -> None:
        last_team_standing(t, "Battle of Sorcery")


# ---- Team 5 ---------------------------------------------------------------------------------


@register
class PlunderOfWar(TeamScenario):
    """Team 5: teams of two: "THE FIRST TEAM TO HAVE 20 GOLD AT THE END OF A TURN AND BE IN
    THE SAME PLACE WINS. IF TWO TEAMS BOTH ACHIEVE THIS, THE ONE WITH THE HIGHER AMOUNT WINS
    (IF SCORES ARE EQUAL, KEEP PLAYING UNTIL THEY ARE NOT!)"

    # Ruling: the team's Gold is its living characters' Gold together; "IN THE SAME PLACE" =
    # its living characters in one square (a lone survivor is trivially so); checked at the
    # end of each round, as To Glory's "END OF A TURN" (Solo 3), so that two teams may get
    # there together.
    """

    id = "the_plunder_of_war"

    def check(self, t: Table, *, end_of_round: bool) -> None:
        if not end_of_round:
            return
        need = t.c.world.scenarios[self.id].number_of("gold")
        made: list[tuple[int, str]] = []
        for team in sorted(set(t.state["teams"].values())):
            pcs = [pc for p in team_members(t, team) if (pc := t.pc(p)) is not None]
            gold = sum(int(pc["gold"]) for pc in pcs)
            if pcs and gold >= need and len({pc["at"] for pc in pcs}) == 1:
                made.append((gold, team))
        made.sort(reverse=True)
        if made and (len(made) == 1 or made[0][0] > made[1][0]):
            gold, team = made[0]
            over(t, team_members(t, team), f"{label(team, first=True)} has {gold} Gold "
                 "together in one place at the end of a turn (The Plunder of War).")


# ---- Team 6 ---------------------------------------------------------------------------------


@register
class KingOfTheStyx(TeamScenario):
    """Team 6: teams of two, "EACH START 6 SQUARES AWAY FROM A CENTRAL BRIDGE OVER THE STYX.
    TO WIN, A TEAM MUST HAVE AT LEAST ONE PLAYER ON THE BRIDGE WITH NO OPPOSING MODELS WITHIN
    2 SQUARES' DISTANCE." """

    id = "king_of_the_styx"

    def starts(self, t: Table, seats: list[str]) -> dict[str, str]:
        """# Ruling: each team starts together (as Team 0's teams do) 6 squares' walk from the
        central bridge at 0,0, off the Styx: west, east, then the four diagonals 3 and 3
        away (north-west, south-east, south-west, north-east), so that no team has the river
        for a road."""
        gap = t.c.world.scenarios[self.id].start_gap
        half = gap // 2
        spots = [(-gap, 0), (gap, 0), (-half, -half), (half, half), (-half, half),
                 (half, -half)]
        names = team_names(t, self.id)
        at = {team: grid.key(*spots[i % len(spots)]) for i, team in enumerate(names)}
        return {p: at[t.state["teams"][p]] for p in seats}

    def setup(self, t: Table) -> None:
        _bridge(t)
        for k in sorted(set(t.state["starts"].values())):
            _cavern(t, k)

    def check(self, t: Table, *, end_of_round: bool) -> None:
        """# Ruling: "OPPOSING MODELS" = the other teams' characters and NPCs (monsters are
        # no team's); distance is :func:`grid.distance`; checked after every resolution."""
        radius = t.c.world.scenarios[self.id].number_of("clear_radius")
        for p in t.state["seats"]:
            pc = t.pc(p)
            if pc is None or pc["at"] != BRIDGE:
                continue
            team = t.state["teams"][p]
            near = [o for o in t.alive() if o["side"] in ("pc", "npc") and not o.get("captured")
                    and t.team_of(o) != team and grid.distance(o["at"], BRIDGE) <= radius]
            if not near:
                over(t, team_members(t, team), f"{p} holds the bridge over the Styx at "
                     f"{BRIDGE} with no opposing model within {radius} squares (King of the "
                     f"Styx): {label(team)} wins.")
                return


# ---- the bots ---------------------------------------------------------------------------------


def bot_goal(t: Table, m: Model) -> str:
    """A square the team scenario makes worth walking to for a bot (bot.py), or ""."""
    scen = t.state["scenario"]
    team = t.team_of(m)
    if scen in ("the_war_games", "battle_of_sorcery") and m["hp"] >= 5:
        foes = [o for o in t.alive() if o["side"] == "pc" and t.team_of(o) != team]
        if foes:
            return str(min(foes, key=lambda o: grid.manhattan(o["at"], m["at"]))["at"])
    if scen == "capture_the_flag":
        flags = t.state["goal"].get("flags", {})
        mine = flags.get(team, {})
        for other, flag in sorted(flags.items()):
            if other == team:
                continue
            if flag.get("model") == m["id"]:
                return str(mine.get("home", ""))
            if not flag["holder"]:
                return str(flag["at"])
        if mine and not mine["holder"] and mine["at"] != mine["home"]:
            return str(mine["at"])
        carrier = CaptureTheFlag().carrier(t, mine) if mine else None
        if carrier is not None:
            return str(carrier["at"])
    if scen == "stasis":
        kind = Stasis().targets(t).get(team, "")
        towns = [k for k, sq in t.state["map"].items() if sq.get("site", {}).get(
            "settlement") == kind and not sq["site"].get("destroyed")]
        if towns:
            return str(min(towns, key=lambda k: grid.manhattan(k, m["at"])))
    if scen == "the_plunder_of_war":
        need = t.c.world.scenarios[scen].number_of("gold")
        mates = [pc for p in team_members(t, team) if (pc := t.pc(p)) is not None]
        if sum(int(pc["gold"]) for pc in mates) >= need:
            other = [pc for pc in mates if pc["id"] != m["id"]]
            if other:
                return str(other[0]["at"])
    if scen == "king_of_the_styx":
        return BRIDGE
    return ""


def bot_steps(t: Table, m: Model) -> list[str]:
    """Stasis: a healthy bot at a settlement of its team's target attacks its force."""
    if t.state["scenario"] != "stasis" or m["hp"] < 6:
        return []
    site = (t.square(m["at"]) or {}).get("site", {})
    if site.get("settlement") != Stasis().targets(t).get(t.team_of(m)) or site.get("destroyed"):
        return []
    force = sorted((o for o in t.at(m["at"]) if o["side"] == "defender"
                    and o.get("home") == m["at"]), key=lambda o: int(o["id"][1:]))
    return [f"attack {force[0]['id']}"] * max(1, min(int(m["ap"]), 4)) if force else []

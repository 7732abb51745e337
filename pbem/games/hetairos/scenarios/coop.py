"""The co-op list (CO-OP SCENARIOS, Coop 0-6): the players win or lose together, starting
together on a bridge over the Styx (Coop 0)."""

from __future__ import annotations

from typing import Any, ClassVar

from pbem.games.hetairos import combat, grid, skill, skills, standing, votes
from pbem.games.hetairos.scenarios import Scenario, over, player_of, register
from pbem.games.hetairos.table import Model, Table


def count_great_kills(t: Table, events: list[dict[str, Any]]) -> None:
    """Great Monsters slain by the players' side (their characters or NPCs), in
    ``goal["great_kills"]`` (Coop 5, Solo 6)."""
    goal = t.state["goal"]
    for e in events:
        if e.get("type") == "slain" and e.get("great"):
            players = sorted({p for mid in e.get("by", []) if (p := player_of(t, mid))})
            if players:
                goal.setdefault("great_kills", []).append(
                    {"type": e.get("victim_type", ""), "players": players,
                     "round": t.state["round"]})


@register
class BountyHunting(Scenario):
    """Coop 3: "FIND A SETTLEMENT OF ANY SORT AND DELIVER THEM A TOTAL OF PLAYERS X3
    PRISONERS" (Ruling: a prisoner sold, or paid for citizenship, is delivered)."""

    id = "bounty_hunting"

    def record(self, t: Table, events: list[dict[str, Any]]) -> None:
        goal = t.state["goal"]
        for e in events:
            if e.get("type") == "sold" and e.get("prisoners"):
                goal["delivered"] = goal.get("delivered", 0) + len(e["prisoners"])
            if e.get("type") == "citizenship" and e.get("prisoner"):
                goal["delivered"] = goal.get("delivered", 0) + 1

    def check(self, t: Table, *, end_of_round: bool) -> None:
        s = t.c.world.scenarios[self.id]
        need = s.number_of("prisoners_per_player") * len(t.state["seats"])
        if t.state["goal"].get("delivered", 0) >= need:
            over(t, list(t.state["seats"]), f"The players have delivered {need} prisoners to "
                 "the settlements (Bounty Hunting): they win together.")


@register
class BeastSlayers(Scenario):
    """Coop 5: kill 3 Great Monsters; a slain kind is not found again (sites.on_draw)."""

    id = "beast_slayers"

    def record(self, t: Table, events: list[dict[str, Any]]) -> None:
        count_great_kills(t, events)

    def check(self, t: Table, *, end_of_round: bool) -> None:
        need = t.c.world.scenarios[self.id].number_of("great_monsters")
        if len(t.state["goal"].get("great_kills", [])) >= need:
            over(t, list(t.state["seats"]), f"The players have slain {need} Great Monsters "
                 "(Beast Slayers): they win together.")


@register
class TheFounding(Scenario):
    """Coop 6: "FIND A CAVERN AND GATHER 6 BEINGS UNDER THEIR CONTROL THERE" (analysis 5.2:
    controlled NPCs; the players' characters are not "under control")."""

    id = "the_founding"

    def check(self, t: Table, *, end_of_round: bool) -> None:
        need = t.c.world.scenarios[self.id].number_of("beings")
        for k, sq in sorted(t.state["map"].items()):
            if not t.c.world.squares[sq["kind"]].cavern or sq["kind"] == "styx":
                continue
            beings = [m for m in t.at(k) if m["side"] == "npc"]
            if len(beings) >= need:
                over(t, list(t.state["seats"]), f"{len(beings)} beings under the players' "
                     f"control gather in the cavern at {k} (The Founding): the players win "
                     "together.")
                return


# ---- Coop 1: The World Above ------------------------------------------------------------------


@register
class WorldAbove(Scenario):
    """Coop 1: "FIND AN OLYMPIAN SHRINE AND SACRIFICE 3 PRISONERS THERE, OR: FIND & DESTROY 3
    SHRINES TO HECATE"; "ROLL 2D6 FOR EVERY EMPTY CAVERN SQUARE ON THE MAP EACH TURN. ON A
    DOUBLE ONE, THE CAVERN COLLAPSES. ROLL AGAIN" (the chart ``world_above_collapse``).

    Steps ``sacrifice`` (a prisoner at an Olympian shrine: ``goal["sacrificed"][square]``) and
    ``destroy`` (a Shrine of Hecate: ``goal["hecate_destroyed"]``).
    """

    id = "the_world_above"
    verbs: ClassVar[dict[str, str]] = {"sacrifice": "sacrifice", "destroy": "destroy"}

    # -- collapses (world phase) --

    def world_start(self, t: Table) -> None:
        # Ruling: "EACH TURN" = once a round, at the start of the world phase, each empty
        # cavern in map order (north to south, west to east); a cavern turned into a spawn
        # point is no longer empty and is not rolled again.
        s = t.c.world.scenarios[self.id]
        dice = s.dice or {}
        for k in sorted(t.state["map"], key=lambda k: grid.xy(k)[::-1]):
            sq = t.state["map"][k]
            if sq["kind"] != "empty_cavern" or sq.get("site"):
                continue
            _total, rolls = t.roll_each(dice["collapse"], f"collapse/{k}")
            if any(r != 1 for r in rolls):
                continue
            chart = t.c.world.charts[s.charts[0]]
            roll = t.roll(chart.die, f"collapse/{k}/chart")
            row = chart.row(roll)
            t.say("collapse", f"The empty cavern at {k} collapses (double one; d6 {roll}): "
                  f"{row.text.capitalize()} (Coop 1)", square=k, roll=roll, result=row.result)
            if row.result == "shade_spawn":
                sq["site"] = {"spawn": "shade", "attached": []}
            elif row.result == "thrown_out":
                self._throw_out(t, k)
                self._to_rock(t, k)
            else:
                for o in t.at(k):
                    t.say("crushed", f"{t.name(o['id'])} is crushed at {k} (Coop 1).",
                          model=o["id"], square=k)
                    combat.slay(t, o, [])
                self._to_rock(t, k)

    def _to_rock(self, t: Table, k: str) -> None:
        old = t.state["map"][k]
        t.state["map"][k] = {"kind": "rock", "open": "", "found": old.get("found", 0),
                             "by": old.get("by", "")}

    def _throw_out(self, t: Table, k: str) -> None:
        """2-5: "ANY PLAYERS IN THE CAVERN TAKE AN ATTACK OF 2D6 DEALING 2 POINTS OF DAMAGE,
        AND MOVE TO THE NEXT SQUARE".

        # Ruling: "PLAYERS" = the players' models (characters and NPCs); each takes the
        # attack as a hazard. Every model left alive goes to "THE NEXT SQUARE": the first
        # drawn, passable neighbour open to the cavern, in the order N, E, S, W; with none,
        # it is crushed with the cavern.
        """
        s = t.c.world.scenarios[self.id]
        damage = str(s.number_of("collapse_damage"))
        for o in t.at(k):
            if o["side"] in ("pc", "npc"):
                combat.hazard(t, o, (s.dice or {})["thrown_out_attack"], damage,
                              f"collapse/{k}/{o['id']}")
        exits = [d for d in grid.DIRS if grid.can_leave(t.square(k), k, d)
                 and (n := t.square(grid.neighbour(k, d))) is not None
                 and t.c.world.squares[n["kind"]].passable and grid.can_enter(n, d)]
        for o in t.at(k):
            if not exits:
                t.say("crushed", f"{t.name(o['id'])} has nowhere to go and is crushed at {k} "
                      "(Coop 1).", model=o["id"], square=k)
                combat.slay(t, o, [])
                continue
            to = grid.neighbour(k, exits[0])
            o["at"] = to
            o["bank"] = (grid.bank_of(to, exits[0]) or "W") if grid.on_styx(to) else ""
            if o.get("stuck"):
                o["stuck"] = ""
            t.say("thrown-out", f"{t.name(o['id'])} is thrown out of the collapsing cavern to "
                  f"{to} (Coop 1).", model=o["id"], square=to)

    # -- the goal --

    def on_draw(self, t: Table, k: str, by: Model) -> None:
        if t.state["map"][k]["kind"] == "shrine_of_hecate":
            t.state["goal"].setdefault("hecate_shrines", []).append(k)

    def _sacrifice_problem(self, t: Table, m: Model) -> str:
        if m["side"] != "pc":
            return "only a player's character may sacrifice"
        if (t.square(m["at"]) or {}).get("kind") != "olympian_shrine":
            return "sacrifices are made at an Olympian shrine"
        if not m["prisoners"]:
            return "no prisoner to sacrifice"
        return ""

    def _destroy_problem(self, t: Table, m: Model) -> str:
        sq = t.square(m["at"]) or {}
        if m["side"] != "pc":
            return "only a player's character may destroy a shrine"
        if sq.get("kind") != "shrine_of_hecate" or sq.get("site", {}).get("destroyed"):
            return "no standing Shrine of Hecate here"
        if t.enemies_at(m):
            return "enemies guard the shrine: beat them first"
        ap = t.c.world.charts["dig_collapse"].ap
        if m["ap"] < ap:
            return f"destroying a shrine needs {ap} AP, {m['ap']} left"
        return ""

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        k = m["at"]
        goal = t.state["goal"]
        if verb == "sacrifice":
            why = self._sacrifice_problem(t, m)
            if why:
                return why
            # Ruling: a sacrifice costs no AP (as trading, analysis 5.2), one prisoner a step;
            # the 3 must be made at one shrine ("AN OLYMPIAN SHRINE ... THERE").
            victim = m["prisoners"].pop(0)
            done = goal.setdefault("sacrificed", {})
            done[k] = done.get(k, 0) + 1
            need = t.c.world.scenarios[self.id].number_of("prisoners")
            t.say("sacrifice", f"{t.name(m['id'])} sacrifices a prisoner "
                  f"({t.c.monster(victim).name}) at the Olympian shrine at {k}: {done[k]} of "
                  f"{need} (Coop 1).", model=m["id"], player=m["owner"], square=k,
                  count=done[k])
            return ""
        if verb == "destroy":
            why = self._destroy_problem(t, m)
            if why:
                return why
            # Ruling: the printed rules say not how a shrine is destroyed. A Shrine of Hecate
            # is destroyed (a) by the step `destroy`, made in it with no enemy there, for the
            # AP of the heaviest tunnelling work (Dig 3's collapse, 4), no roll: it spawns no
            # more (its devotees stay); or (b) by a successful `dig collapse` of its square.
            m["ap"] -= t.c.world.charts["dig_collapse"].ap
            t.state["map"][k]["site"]["destroyed"] = True
            self._destroyed(t, k, f"{t.name(m['id'])} tears down the Shrine of Hecate at {k}")
            return ""
        return super().act(t, m, verb, args)

    def _destroyed(self, t: Table, k: str, how: str) -> None:
        gone = t.state["goal"].setdefault("hecate_destroyed", [])
        if k in gone:
            return
        gone.append(k)
        need = t.c.world.scenarios[self.id].number_of("hecate_shrines")
        t.say("shrine-destroyed", f"{how}: {len(gone)} of {need} Shrines of Hecate destroyed "
              "(Coop 1).", square=k, count=len(gone))

    def record(self, t: Table, events: list[dict[str, Any]]) -> None:
        shrines = t.state["goal"].get("hecate_shrines", [])
        for e in events:
            if (e.get("type") == "dig" and e.get("action") == "collapse"
                    and e.get("result") == "success" and e.get("square") in shrines):
                self._destroyed(t, e["square"], f"The Shrine of Hecate at {e['square']} is "
                                "brought down")

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        out = []
        if not self._sacrifice_problem(t, m):
            out.append(("Sacrifice your prisoners here (Coop 1: 3 at one Olympian shrine "
                        "win):", ["sacrifice"] * len(m["prisoners"])))
        if not self._destroy_problem(t, m):
            out.append(("Destroy this Shrine of Hecate (Coop 1: 4 AP; 3 destroyed win):",
                        ["destroy"]))
        return out

    def check(self, t: Table, *, end_of_round: bool) -> None:
        s = t.c.world.scenarios[self.id]
        goal = t.state["goal"]
        done = [k for k, n in sorted(goal.get("sacrificed", {}).items())
                if n >= s.number_of("prisoners")]
        if done:
            over(t, list(t.state["seats"]), f"{s.number_of('prisoners')} prisoners are "
                 f"sacrificed at the Olympian shrine at {done[0]}: the collision is stopped "
                 "(The World Above); the players win together.")
        elif len(goal.get("hecate_destroyed", [])) >= s.number_of("hecate_shrines"):
            over(t, list(t.state["seats"]), f"{s.number_of('hecate_shrines')} Shrines of "
                 "Hecate are destroyed: the collision is stopped (The World Above); the "
                 "players win together.")


# ---- Coop 2: The Traitor ------------------------------------------------------------------------

#: The standing ``traitor`` choice -> the scenario's power (data ``powers``, in printed order).
POWERS = {"ares": 0, "rising": 1, "shadows": 2}


@register
class Traitor(Scenario):
    """Coop 2: "EVERY PLAYER MUST ROLL 2D6 EACH TURN AS EXPLORATION HAPPENS. THE FIRST PERSON
    TO ROLL BELOW THE BETRAYAL VALUE, WHICH STARTS AT 2 AND INCREASES BY ONE EACH TURN,
    BECOMES THE TRAITOR AND MUST ATTEMPT TO KILL ALL THE OTHER PLAYERS", with the power of their
    standing order ``traitor``: Ares' Wrath, The Power That Rises or Hecate's Shadows.

    ``goal["traitor"] = {"player", "power"}``; the traitor's team is ``traitor``
    (``state["teams"]``), at war with the party.
    """

    id = "the_traitor"

    def players_problem(self, n: int) -> str:
        return "" if n >= 2 else "one player betrays the others: it needs 2 or more"

    def _traitor(self, t: Table) -> dict[str, str]:
        found: dict[str, str] = t.state["goal"].get("traitor", {})
        return found

    def _power(self, t: Table, m: Model) -> str:
        tr = self._traitor(t)
        if not tr or m["side"] != "pc" or m["owner"] != tr["player"]:
            return ""
        return tr["power"]

    def start_of_turn(self, t: Table, player: str) -> None:
        # Ruling: (analysis 5.2) "AS EXPLORATION HAPPENS" = at the start of each player's
        # turn; a "TURN" of the rising value is a round (round 1: 2, which 2d6 cannot undershoot).
        s = t.c.world.scenarios[self.id]
        tr = self._traitor(t)
        if not tr:
            value = s.number_of("betrayal_start") + (int(t.state["round"]) - 1) * \
                s.number_of("betrayal_step")
            roll = t.roll((s.dice or {})["betrayal"], f"betrayal/{player}")
            if roll >= value:
                t.say("betrayal", f"{player} rolls {roll} against the betrayal value {value}: "
                      "loyal still (Coop 2).", player=player, roll=roll, value=value)
                return
            choice = standing.of(t.state, player)["traitor"]
            power = s.powers[POWERS[choice]]
            tr = {"player": player, "power": power}
            t.state["goal"]["traitor"] = tr
            t.state["teams"][player] = "traitor"
            # Ruling: from the betrayal on, a slain player is out (option death = out): the
            # traitor "MUST ATTEMPT TO KILL ALL THE OTHER PLAYERS", which replacements would
            # make endless.
            t.state["death"] = "out"
            m = t.pc(player)
            if m is not None and power == "hecates_shadows":
                m["unbounded"] = True  # "NO UPPER LIMIT"
            t.say("traitor", f"{player} rolls {roll}, below the betrayal value {value}, and "
                  f"betrays the party with {power.replace('_', ' ').title()} (Coop 2): "
                  f"{player} must kill all the other players; they must kill {player}.",
                  player=player, roll=roll, value=value, power=power)
        if tr["player"] == player and tr["power"] == "the_power_that_rises":
            self._rise(t, player)

    def _rise(self, t: Table, player: str) -> None:
        """THE POWER THAT RISES: "EACH TURN, AT THE START, MAKE A FREE KNOWLEDGE CHECK OF 6+ TO
        SPAWN A CONTROLLABLE MINION" (Ruling: from the turn of the betrayal on; free = no AP)."""
        m = t.pc(player)
        if m is None:
            return
        need = t.c.world.scenarios[self.id].number_of("rising_knowledge")
        total, shown = skill.roll(t, m, "knowledge", "rising", need=need)
        if total < need:
            t.say("rising", f"{t.name(m['id'])} calls on the power that rises: {shown}, not "
                  f"{need}+ (Coop 2).", player=player, total=total, passed=False)
            return
        npc = skills.new_npc(t, player, "minion", m["at"], bank=m.get("bank", ""))
        t.say("rising", f"{t.name(m['id'])} calls on the power that rises ({shown}): "
              f"{npc['name']} rises at {m['at']} (Coop 2).", player=player, total=total,
              passed=True, npc=npc["id"])

    def combat_edge(self, t: Table, m: Model) -> tuple[int, int]:
        """ARES' WRATH: "+ 1 DICE TO BE ROLLED IN ALL FUTURE COMBATS, ANY COMBAT RESULT BELOW 6
        IS NOW COUNTED AS A 6" (Ruling: the result is the dice's total, before modifiers)."""
        if self._power(t, m) != "ares_wrath":
            return 0, 0
        s = t.c.world.scenarios[self.id]
        return s.number_of("ares_extra_dice"), s.number_of("ares_floor")

    def ignores(self, t: Table, m: Model, o: Model) -> bool:
        """HECATE'S SHADOWS: "INVISIBLE TO EVERYONE OTHER THAN THE PLAYER CHARACTERS" (Ruling:
        monsters neither seek nor attack the traitor's character)."""
        return self._power(t, o) == "hecates_shadows"

    def drains(self, t: Table, m: Model) -> bool:
        """HECATE'S SHADOWS: "GAIN + 1 PT HEALTH FOR EVERY HEALTH POINT A PLAYER IN COMBAT WITH
        THEM LOSES – NO UPPER LIMIT" (Ruling: as the Mormo: each point its foes lose in a
        round it fights)."""
        if self._power(t, m) != "hecates_shadows":
            return False
        m["unbounded"] = True  # "NO UPPER LIMIT" (a character who took up the quest, too)
        return True

    def check(self, t: Table, *, end_of_round: bool) -> None:
        # Ruling: (analysis 5.2) the traitor wins alone when all the others are dead; the
        # others win together when the traitor is dead, whoever killed them.
        tr = self._traitor(t)
        if not tr:
            return
        traitor = tr["player"]
        others = [p for p in t.state["seats"] if p != traitor]
        if t.pc(traitor) is None:
            over(t, others, f"The traitor {traitor} is dead: {', '.join(others)} win "
                 "(The Traitor).")
        elif all(t.pc(p) is None for p in others):
            over(t, [traitor], f"The traitor {traitor} has killed all the other players "
                 "(The Traitor).")


# ---- Coop 4: The Will to Conquer ----------------------------------------------------------------


@register
class WillToConquer(Scenario):
    """Coop 4: "THE PLAYERS MUST FIND AND TAKE CONTROL OF THREE SETTLEMENTS; FOR A MANOR THIS
    LITERALLY MEANS TAKING CONTROL, FOR A POLIS THEY MUST WIN A VOTE (AS FOR KICKING ANOTHER
    PLAYER OUT OF A POLIS) WITH +5 TO THE OPPOSING ROLL."

    A Manor is taken by defeating its force (Polis 2, :func:`sites.settlement_checks`, the
    ``taken`` event); a Polis by the step ``vote`` (:func:`votes.take`). ``goal["conquered"]``
    lists the squares.

    # Ruling: a Kobaloi settlement cannot be taken (the scenario names Manors and Polis only);
    # a settlement counts while it is not destroyed.
    """

    id = "the_will_to_conquer"
    verbs: ClassVar[dict[str, str]] = {"vote": "vote"}

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        if verb != "vote":
            return super().act(t, m, verb, args)
        why = votes.take_problem(t, m)
        if why:
            return why
        if votes.take(t, m, t.c.world.scenarios[self.id].number_of("vote_handicap")):
            self._conquered(t, m["at"])
        return ""

    def _conquered(self, t: Table, k: str) -> None:
        done = t.state["goal"].setdefault("conquered", [])
        if k not in done:
            done.append(k)

    def record(self, t: Table, events: list[dict[str, Any]]) -> None:
        for e in events:
            if e.get("type") == "taken" and e.get("square"):
                self._conquered(t, e["square"])

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        out = []
        if not votes.take_problem(t, m):
            out.append(("Call the vote that hands this Polis to you (Coop 4: your citizens' "
                        "votes + 2d6 against 2d6 + 5):", ["vote"]))
        site = (t.square(m["at"]) or {}).get("site", {})
        if (m["side"] == "pc" and site.get("settlement") == "manor"
                and not site.get("destroyed") and m["owner"] not in site.get("friendly", [])):
            force = sorted((o for o in t.at(m["at"]) if o["side"] == "defender"),
                           key=lambda o: int(o["id"][1:]))
            if force and m["ap"] >= 1 and not t.enemies_at(m):
                out.append(("Take the Manor by defeating its defence force (Polis 2):",
                            [f"attack {force[0]['id']}"]))
        return out

    def check(self, t: Table, *, end_of_round: bool) -> None:
        need = t.c.world.scenarios[self.id].number_of("settlements")
        held = [k for k in t.state["goal"].get("conquered", [])
                if not (t.square(k) or {}).get("site", {}).get("destroyed")]
        if len(held) >= need:
            over(t, list(t.state["seats"]), f"The players hold {len(held)} settlements "
                 f"({', '.join(held)}): they win together (The Will to Conquer).")

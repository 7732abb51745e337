"""The solo list (SOLO SCENARIOS, Solo 0-6): every player for themselves, each starting on a
bridge of their own, one empty Styx square at least between two (Solo 0)."""

from __future__ import annotations

from typing import Any, ClassVar

from pbem.games.hetairos import grid, skill, skills
from pbem.games.hetairos.scenarios import Scenario, over, register
from pbem.games.hetairos.scenarios.coop import count_great_kills
from pbem.games.hetairos.sites import new_model
from pbem.games.hetairos.table import Model, Table


@register
class ToGlory(Scenario):
    """Solo 3: "THE FIRST PLAYER TO GET TO 12 KLEOS AT THE END OF A TURN WINS"; two there:
    the higher; equal: play on (checked at the end of each round)."""

    id = "to_glory"

    def check(self, t: Table, *, end_of_round: bool) -> None:
        if not end_of_round:
            return
        need = t.c.world.scenarios[self.id].number_of("kleos")
        best = sorted(((t.models[t.state["pcs"][p]]["kleos"], p) for p in t.state["seats"]
                       if t.models[t.state["pcs"][p]]["kleos"] >= need), reverse=True)
        if best and (len(best) == 1 or best[0][0] > best[1][0]):
            over(t, [best[0][1]], f"{best[0][1]} reaches {best[0][0]} Kleos at the end of a "
                 "turn (To Glory).")


@register
class LastManStanding(Scenario):
    """Solo 4: "THE LAST PLAYER STANDING WINS"."""

    id = "last_man_standing"

    def check(self, t: Table, *, end_of_round: bool) -> None:
        alive = [p for p in t.state["seats"] if t.pc(p) is not None]
        if len(alive) == 1:
            over(t, alive, f"{alive[0]} is the last player standing.")


@register
class Hero(Scenario):
    """Solo 6: "THE FIRST PLAYER TO SUCCESSFULLY KILL A GREAT MONSTER WINS"."""

    id = "hero"

    def record(self, t: Table, events: list[dict[str, Any]]) -> None:
        count_great_kills(t, events)

    def check(self, t: Table, *, end_of_round: bool) -> None:
        kills = t.state["goal"].get("great_kills", [])
        if kills:
            first = kills[0]["players"]
            over(t, first, f"{', '.join(first)} slew a Great Monster first (Hero).")


def _in_settlement(t: Table, k: str) -> bool:
    site = (t.square(k) or {}).get("site", {})
    return bool(site.get("settlement")) and not site.get("destroyed")


@register
class LostOnes(Scenario):
    """Solo 1: "EACH TIME YOU ENTER A FORGE, LIBRARY, MAGIC SPRING, PIT TRAP, SNAKE PIT, ROOM OF
    DAEDALUS, SURFACE TUNNEL SQUARE, OR OLYMPIAN SHRINE THERE WILL BE AN NPC IN THERE ...
    THIS NPC "BELONGS" TO THE DISCOVERER. FIRST PLAYER TO GET 2 SUCH NPCs BACK TO SETTLEMENTS
    OF ANY SORT WINS."

    A Lost One is a controlled NPC of the discoverer (``lost`` set); it follows its owner's
    character in the world phase (standing ``npcs``) and is home when it stands in a settlement
    (``goal["rescued"]``: player -> how many), where it stays (``stationed``).
    """

    id = "the_lost_ones"

    def on_enter(self, t: Table, m: Model, k: str, travel: str) -> list[str]:
        # Ruling: (analysis 5.2) "EACH TIME YOU ENTER" = once per square, to the first player
        # character to enter it (else a player could farm one square); NPCs and monsters find
        # nobody.
        # Ruling: the places are square kinds (forge, library, spring, surface tunnel, shrine)
        # or a trapped room's trap (pit, snake pit, Room of Daedalus), a dug pit included; the
        # Lost One is found beside the discoverer, not trapped with it.
        if m["side"] != "pc":
            return []
        sq = t.square(k) or {}
        places = t.c.world.scenarios[self.id].places
        if sq.get("kind") not in places and sq.get("site", {}).get("trap") not in places:
            return []
        found = t.state["goal"].setdefault("lost_found", [])
        if k in found:
            return []
        found.append(k)
        # Ruling: "NO SPECIAL STATS OR ABILITIES": Monster 0's defaults, a Minion's stats
        # ("NO SPECIAL RULES").
        npc = skills.new_npc(t, m["owner"], "minion", k, bank=m.get("bank", ""))
        npc["name"] = f"{m['owner']}'s Lost One {npc['id']}"
        npc["lost"] = True
        t.say("lost-one", f"{t.name(m['id'])} finds a Lost One at {k}: {npc['name']} now "
              f"belongs to {m['owner']} (Solo 1).", model=npc["id"], player=m["owner"],
              square=k)
        return []

    def record(self, t: Table, events: list[dict[str, Any]]) -> None:
        rescued = t.state["goal"].setdefault("rescued", {})
        for o in sorted(t.alive(), key=lambda o: int(o["id"][1:])):
            if o["side"] != "npc" or not o.get("lost") or o.get("home_safe"):
                continue
            if not _in_settlement(t, o["at"]):
                continue
            o["home_safe"] = True
            o["stationed"] = True
            rescued[o["owner"]] = rescued.get(o["owner"], 0) + 1
            t.say("lost-one-home", f"{o['name']} is back among people at {o['at']}: "
                  f"{o['owner']} has brought {rescued[o['owner']]} Lost One"
                  f"{'s' if rescued[o['owner']] > 1 else ''} home (Solo 1).",
                  model=o["id"], player=o["owner"], square=o["at"],
                  count=rescued[o["owner"]])

    def check(self, t: Table, *, end_of_round: bool) -> None:
        need = t.c.world.scenarios[self.id].number_of("npcs")
        rescued = t.state["goal"].get("rescued", {})
        # Ruling: two players reaching the count in one resolution (the world phase) win
        # together.
        first = [p for p in t.state["seats"] if rescued.get(p, 0) >= need]
        if first:
            over(t, first, f"{', '.join(first)} brought {need} Lost Ones back to the "
                 "settlements first (The Lost Ones).")


def _shrine_problem(t: Table, m: Model, kinds: tuple[str, ...]) -> str:
    sq = t.square(m["at"]) or {}
    if m["side"] != "pc":
        return "only a player's character may do this"
    if sq.get("kind") not in kinds:
        names = " or ".join(t.c.world.squares[k].name for k in kinds)
        return f"not at a {names}"
    return ""


@register
class Deity(Scenario):
    """Solo 5: "GET A SHRINE (OF HECATE OR THE OLYMPIANS), CONVERT IT INTO A SHRINE OF THEIR OWN
    (REQUIRES NO MODELS TO BE IN THE SQUARE AND A 7+ KNOWLEDGE ROLL), THEN SACRIFICE 1 PRISONER
    THERE TO BECOME A DEMIGOD. FIRST TO COMPLETE THIS WINS. ONCE A SHRINE HAS BEEN CONVERTED
    IT CAN BE CONVERTED TO A DIFFERENT PLAYER'S SHRINE BY THE SAME MEANS."

    Steps ``convert`` (a knowledge check, 2 AP: the shrine's ``site["deity"]`` becomes the
    player) and ``sacrifice`` (one prisoner at one's own shrine: ``goal["demigod"]``).
    """

    id = "deity"
    verbs: ClassVar[dict[str, str]] = {"convert": "convert", "sacrifice": "sacrifice"}

    def _kinds(self, t: Table) -> tuple[str, ...]:
        return tuple(t.c.world.scenarios[self.id].places)

    def _convert_problem(self, t: Table, m: Model) -> str:
        why = _shrine_problem(t, m, self._kinds(t))
        if why:
            return why
        site = (t.square(m["at"]) or {}).get("site", {})
        if site.get("deity") == m["owner"]:
            return "this shrine is already yours"
        # Seed defect 7 (docs): "NO MODELS TO BE IN THE SQUARE" read "no other models".
        # Ruling: the player's own NPCs count as other models.
        others = [o for o in t.at(m["at"]) if o["id"] != m["id"]]
        if others:
            return f"{t.name(others[0]['id'])} is in the square: no other model may be there"
        cost = t.c.people.skill_checks.ap
        if m["ap"] < cost:
            return f"a knowledge check needs {cost} AP, {m['ap']} left"
        return ""

    def _sacrifice_problem(self, t: Table, m: Model) -> str:
        why = _shrine_problem(t, m, self._kinds(t))
        if why:
            return why
        if (t.square(m["at"]) or {}).get("site", {}).get("deity") != m["owner"]:
            return "this is not your shrine: convert it first"
        need = t.c.world.scenarios[self.id].number_of("prisoners")
        if len(m["prisoners"]) < need:
            return f"a sacrifice takes {need} prisoner"
        return ""

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        s = t.c.world.scenarios[self.id]
        k = m["at"]
        if verb == "convert":
            why = self._convert_problem(t, m)
            if why:
                return why
            # Ruling: the conversion is a knowledge check and costs a check's 2 AP (Skill 1).
            m["ap"] -= t.c.people.skill_checks.ap
            need = s.number_of("convert_knowledge")
            total, shown = skill.roll(t, m, "knowledge", f"deity/convert/{k}", need=need)
            sq = t.state["map"][k]
            site = sq.setdefault("site", {})
            if total < need:
                t.say("convert", f"{t.name(m['id'])} fails to convert the "
                      f"{t.c.world.squares[sq['kind']].name} at {k}: {shown}, not {need}+ "
                      "(Solo 5).", model=m["id"], player=m["owner"], square=k, passed=False,
                      total=total)
                return ""
            before = site.get("deity", "")
            site["deity"] = m["owner"]
            # Ruling: a converted Shrine of Hecate is no longer Hecate's: it spawns no more
            # devotees (those already out stay).
            site.pop("spawn", None)
            was = f" (it was {before}'s)" if before else ""
            t.say("convert", f"{t.name(m['id'])} converts the "
                  f"{t.c.world.squares[sq['kind']].name} at {k} into a shrine of "
                  f"{m['owner']}'s own{was}: {shown} (Solo 5).", model=m["id"],
                  player=m["owner"], square=k, passed=True, total=total)
            return ""
        if verb == "sacrifice":
            why = self._sacrifice_problem(t, m)
            if why:
                return why
            # Ruling: a sacrifice costs no AP (as trading and votes, analysis 5.2).
            n = s.number_of("prisoners")
            gone = [m["prisoners"].pop(0) for _ in range(n)]
            names = ", ".join(t.c.monster(p).name for p in gone)
            t.state["goal"]["demigod"] = m["owner"]
            t.say("sacrifice", f"{t.name(m['id'])} sacrifices a prisoner ({names}) at "
                  f"{m['owner']}'s own shrine at {k} and becomes a demigod (Solo 5).",
                  model=m["id"], player=m["owner"], square=k, prisoners=gone)
            return ""
        return super().act(t, m, verb, args)

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        out = []
        if not self._convert_problem(t, m):
            out.append(("Convert this shrine into your own (Solo 5: a 7+ knowledge check, "
                        "2 AP):", ["convert"]))
        if not self._sacrifice_problem(t, m):
            out.append(("Sacrifice a prisoner at your own shrine and win (Solo 5):",
                        ["sacrifice"]))
        return out

    def check(self, t: Table, *, end_of_round: bool) -> None:
        who = t.state["goal"].get("demigod")
        if who:
            over(t, [who], f"{who} sacrificed at a shrine of their own and became a demigod "
                 "first (Deity).")


@register
class GuardiansRoar(Scenario):
    """Solo 2: "EACH TURN, EACH PLAYER ROLLS 2D6. WHEN SOMEONE ROLLS BELOW THE HADES VALUE,
    WHICH STARTS AT 2 AND INCREASES BY ONE EACH TURN, CERBERUS IS RELEASED. CERBERUS WILL
    APPEAR AT THE NORTHERNMOST TILE OF THE RIVER STYX, AND WILL MOVE TO FIND AND DESTROY A)
    THE PLAYERS AND B) ANY SETTLEMENTS IN ITS WAY. THE PLAYERS HAVE TO GET OUT (VIA SURFACE
    TUNNELS) BEFORE THEY GET KILLED."

    ``goal["cerberus"]`` is his model id once released; the step ``escape_surface`` takes a
    character out (``goal["escaped"]``).
    """

    id = "the_guardians_roar"
    verbs: ClassVar[dict[str, str]] = {"escape_surface": "escape_surface"}

    def hades(self, t: Table) -> int:
        """The Hades value this round: 2, +1 each turn (Ruling: a turn is a round)."""
        s = t.c.world.scenarios[self.id]
        return s.number_of("hades_start") + (int(t.state["round"]) - 1) * s.number_of("hades_step")

    def start_of_turn(self, t: Table, player: str) -> None:
        # Ruling: each player rolls at the start of their own turn; once Cerberus is out
        # nobody rolls again.
        goal = t.state["goal"]
        if goal.get("cerberus"):
            return
        s = t.c.world.scenarios[self.id]
        value = self.hades(t)
        roll = t.roll((s.dice or {})["hades"], f"hades/{player}")
        if roll >= value:
            t.say("hades", f"{player} rolls {roll} against the Hades value {value}: the "
                  "guardian sleeps on (Solo 2).", player=player, roll=roll, value=value)
            return
        styx = [k for k, sq in t.state["map"].items() if sq["kind"] == "styx"]
        at = min(styx, key=lambda k: grid.xy(k)[::-1])
        dog = new_model(t, "cerberus", at)
        dog["bank"] = "W"
        goal["cerberus"] = dog["id"]
        t.say("cerberus", f"{player} rolls {roll}, below the Hades value {value}: Cerberus is "
              f"released at {at}, the northernmost drawn square of the Styx (Solo 2). Get out "
              "by a surface tunnel!", player=player, roll=roll, value=value, square=at,
              model=dog["id"])

    def prefers(self, t: Table, m: Model) -> list[str]:
        """Cerberus seeks "A) THE PLAYERS" first; with none in reach, "B) ANY SETTLEMENTS"
        (the core's targets: he attacks settlements on his own)."""
        if m["id"] != t.state["goal"].get("cerberus"):
            return []
        return [t.state["pcs"][p] for p in t.state["seats"] if t.pc(p) is not None]

    def _escape_problem(self, t: Table, m: Model) -> str:
        if not t.state["goal"].get("cerberus"):
            # Ruling: the flight begins with the roar; before it nobody leaves (else the
            # first to find a surface tunnel would simply walk out).
            return "Cerberus is not released yet: nobody flees before the roar"
        if m["side"] != "pc" or (t.square(m["at"]) or {}).get("kind") != "surface_tunnel":
            return "getting out needs a surface tunnel"
        # Ruling: getting out is Surface 1's retiring: "NEEDING A FULL TURN OF ACTION POINTS".
        if m["ap"] < skills._allowance(t, m) or m["moved"]:
            return "getting out needs a full turn of Action Points (Surface 1)"
        return ""

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        if verb != "escape_surface":
            return super().act(t, m, verb, args)
        why = self._escape_problem(t, m)
        if why:
            return why
        m["ap"] = 0
        m["hp"] = 0  # off the map: every living-model query passes it by (as retiring)
        m["escaped"] = True
        escaped = t.state["goal"].setdefault("escaped", [])
        escaped.append(m["owner"])
        t.say("escaped", f"{t.name(m['id'])} climbs out of the underworld at {m['at']}, away "
              "from Cerberus (Solo 2).", model=m["id"], player=m["owner"], square=m["at"])
        return ""

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        if self._escape_problem(t, m):
            return []
        return [("Get out of the underworld here (Solo 2: your whole turn):",
                 ["escape_surface"])]

    def check(self, t: Table, *, end_of_round: bool) -> None:
        # Ruling: the game ends when no character is left below (each got out or died);
        # those who got out win together, none: nobody.
        goal = t.state["goal"]
        if not goal.get("cerberus"):
            return
        if any(t.pc(p) is not None for p in t.state["seats"]):
            return
        out = [p for p in t.state["seats"] if p in goal.get("escaped", [])]
        if out:
            over(t, out, f"{', '.join(out)} got out of the underworld alive (The Guardian's "
                 "Roar).")
        else:
            over(t, [], "Nobody got out of the underworld alive (The Guardian's Roar).")

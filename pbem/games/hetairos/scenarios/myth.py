"""The Great Myths (THE GREAT MYTHS (Co-Op), Myth 0-6): co-op scenarios with goals of their
own, the players starting together on a bridge over the Styx (Myth 0: the base class's
``bridge_together``). Every number comes from ``data/scenarios.toml``; what a scenario counts
is in ``state["goal"]`` (plain data), its own steps are its ``verbs``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pbem.games.hetairos import grid, sites, skill, skills
from pbem.games.hetairos.scenarios import Scenario, over, register
from pbem.games.hetairos.table import Model, Table
from pbem.games.hetairos.world import Scenario as ScenarioData

Event = dict[str, Any]


def data(t: Table, scenario_id: str) -> ScenarioData:
    return t.c.world.scenarios[scenario_id]


def kind_at(t: Table, k: str) -> str:
    sq = t.square(k)
    return str(sq["kind"]) if sq is not None else ""


def place_name(t: Table, kind: str) -> str:
    return t.c.world.squares[kind].name.title()


def everyone(t: Table) -> list[str]:
    return list(t.state["seats"])


def skill_check(t: Table, m: Model, kind: str, what: str, need: int) -> tuple[str, bool, str]:
    """A skill check of a scenario (Skill 1: 2 AP, a PC only, Skill 2): ("" or why it cannot be
    made, passed, how it was rolled)."""
    if m["side"] != "pc":
        return "NPCs never make skill checks (Skill 2)", False, ""
    cost = t.c.people.skill_checks.ap
    if m["ap"] < cost:
        return f"a skill check needs {cost} AP, {m['ap']} left", False, ""
    m["ap"] -= cost
    total, shown = skill.roll(t, m, kind, what, need=need)
    return "", total >= need, f"{kind} {shown}, {need}+"


def npc_of(t: Table, mid: str) -> Model | None:
    """The living model ``mid`` (a scenario's own NPC), or None."""
    m = t.models.get(mid) if mid else None
    return m if m is not None and m["hp"] > 0 else None


def nearest(t: Table, m: Model, kinds: tuple[str, ...]) -> str:
    """The drawn square of one of ``kinds`` nearest ``m`` (straight line), or ""."""
    found = [k for k, sq in t.state["map"].items() if sq["kind"] in kinds]
    return min(found, key=lambda k: (grid.manhattan(k, m["at"]), grid.xy(k))) if found else ""


class Myth(Scenario):
    """A Great Myth: after each resolution its progress, in ``goal["progress"]`` (the report's
    header says it), then its end (:meth:`end`)."""

    def progress(self, t: Table) -> str:
        return ""

    def setup(self, t: Table) -> None:
        text = self.progress(t)
        if text:
            t.state["goal"]["progress"] = text

    def end(self, t: Table, *, end_of_round: bool) -> None:
        """Victory or defeat: call :func:`over` when the game ends."""

    def check(self, t: Table, *, end_of_round: bool) -> None:
        text = self.progress(t)
        if text:
            t.state["goal"]["progress"] = text
        self.end(t, end_of_round=end_of_round)


# ---- Myth 6 -------------------------------------------------------------------------------


@register
class FindingTheBowman(Myth):
    """Myth 6: "FOR EVERY EMPTY CAVERN THE PLAYERS FIND ... ROLL A D6. ON A 6+, YOU HAVE FOUND
    PHILOCTETES ... ONLY HAS 3AP/TURN AND 2 OF HIS 7HP; YOU MUST FIRST HEAL HIM TO FULL HEALTH,
    AND THEN FIND A SURFACE TUNNEL TO GET HIM BACK TO THE WAR."

    Philoctetes is an NPC of the finder's player (he follows that player's character in the
    world phase, standing ``npcs``), with the Monster Manual's defaults for a being of no
    special rules (Monster 0, the Minion's entry: 1d6, 1 damage) but his own 3 AP and 2 of 7
    health. He is healed by a Krenaia (``heal ID``), the Rod of Asclepius, or the step
    ``tend`` of a player character in his square: at a magic spring 2 AP for 1 health (Spring
    1), at a settlement that sells healing its price for 1 health (Kobaloi 1).
    """

    id = "finding_the_bowman"
    verbs: ClassVar[dict[str, str]] = {"tend": "tend"}

    def on_draw(self, t: Table, k: str, by: Model) -> None:
        # Ruling: "THE PLAYERS FIND": caverns drawn by the players' models (their characters
        # and NPCs), not by exploring monsters; the rolls stop once he is found.
        # Ruling: only a drawn empty cavern counts ("FIND"), not one dug by enlarging.
        if kind_at(t, k) != "empty_cavern" or by["side"] not in ("pc", "npc"):
            return
        goal = t.state["goal"]
        if goal.get("philoctetes"):
            return
        s = data(t, self.id)
        roll = t.roll((s.dice or {})["find"], f"myth6/philoctetes/{k}")
        need = s.number_of("find_roll")
        if roll < need:
            t.say("philoctetes", f"No sign of Philoctetes in the empty cavern at {k} (d6 {roll}, "
                  f"{need}+; Myth 6).", square=k, roll=roll, found=False)
            return
        owner = str(by["owner"])
        m = sites.new_model(t, "minion", k, "npc", owner=owner,
                            name=f"Philoctetes the Bowman ({owner})")
        m.update(hp=s.number_of("philoctetes_hp"), max_hp=s.number_of("philoctetes_max_hp"),
                 ap=s.number_of("philoctetes_ap"), ap_allowance=s.number_of("philoctetes_ap"),
                 bank=by.get("bank", ""))
        goal["philoctetes"] = m["id"]
        t.say("philoctetes", f"{t.name(by['id'])} finds Philoctetes, the Bowman, lame in the "
              f"empty cavern at {k} (d6 {roll}, {need}+; Myth 6): {m['id']}, "
              f"{m['hp']}/{m['max_hp']} health, {m['ap']} AP a turn, following {owner}. Heal "
              "him to full health, then bring him to a surface tunnel.", square=k, roll=roll,
              found=True, model=m["id"], player=owner)

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        """``tend``: a player character helps Philoctetes, in its square, to heal."""
        p = npc_of(t, t.state["goal"].get("philoctetes", ""))
        if m["side"] != "pc":
            return "only a player character tends Philoctetes"
        if p is None or p["at"] != m["at"]:
            return "Philoctetes is not in your square"
        if p["hp"] >= p["max_hp"]:
            return "Philoctetes is already at full health"
        here = kind_at(t, m["at"])
        if here == "magic_spring":
            ap = t.c.people.actions["magic_spring"].ap
            if m["ap"] < ap:
                return f"needs {ap} AP, {m['ap']} left"
            m["ap"] -= ap
            points = t.c.world.squares[here].number("heal_hp")
            how = f"gives him to drink at the Magic spring at {m['at']} ({ap} AP; Spring 1)"
        elif not sites._site(t, m["at"]).get("settlement"):
            return "tending needs a magic spring or a settlement that sells healing"
        else:
            kind, _site, why = sites._settlement(t, m)
            price = t.c.people.price(kind, "healing") if not why else None
            if price is None:
                return why or f"the {place_name(t, kind)} sells no healing"
            if m["gold"] < price:
                return f"healing costs {price} Gold, {t.name(m['id'])} has {m['gold']}"
            t.gold(m, -price)
            points = t.c.people.items["healing"].amount or 1
            how = f"pays {price} Gold for his healing at {m['at']}"
        # Ruling: a magic spring or a settlement's healing serves Philoctetes through the
        # player who tends him (he is an NPC: NPCs take no actions of their own).
        p["hp"] = min(p["max_hp"], p["hp"] + points)
        t.say("healed", f"{t.name(m['id'])} {how}: Philoctetes has {p['hp']}/{p['max_hp']} "
              "health (Myth 6).", model=p["id"], by=m["id"], hp=p["hp"], points=points)
        return ""

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        p = npc_of(t, t.state["goal"].get("philoctetes", ""))
        if p is None or p["at"] != m["at"] or p["hp"] >= p["max_hp"]:
            return []
        site = sites._site(t, m["at"])
        price = t.c.people.price(str(site.get("settlement", "")), "healing")
        spring = t.c.people.actions["magic_spring"].ap
        if (kind_at(t, m["at"]) == "magic_spring" and m["ap"] >= spring) or (
                price is not None and m["gold"] >= price and not sites._settlement(t, m)[2]):
            return [("Tend Philoctetes here: 1 health (Myth 6).", ["tend"])]
        return []

    def progress(self, t: Table) -> str:
        p = t.models.get(t.state["goal"].get("philoctetes", ""))
        if p is None:
            return ("Philoctetes: not found yet (a d6 of 6 in each empty cavern the players "
                    "find; Myth 6).")
        return (f"Philoctetes ({p['id']}): at {p['at']}, {p['hp']}/{p['max_hp']} health, "
                f"following {p['owner']}; heal him to full, then bring him to a surface tunnel.")

    def end(self, t: Table, *, end_of_round: bool) -> None:
        mid = t.state["goal"].get("philoctetes", "")
        if not mid:
            return
        p = t.models[mid]
        if p["hp"] <= 0:
            # Ruling: Philoctetes is one man: dead, the quest is lost for everyone.
            over(t, [], "Philoctetes is dead, and his bow will never reach Troy (Finding the "
                 "Bowman): the players have lost.")
            return
        if p["hp"] >= p["max_hp"] and kind_at(t, p["at"]) == "surface_tunnel":
            # Ruling: he wins the game at full health in a surface tunnel square (the "FIRST
            # ... AND THEN" is met when both hold at once), whoever brought him there.
            over(t, everyone(t), f"Philoctetes, healed to {p['hp']} health, climbs the surface "
                 f"tunnel at {p['at']} back to the war at Troy (Finding the Bowman): the "
                 "players win together.")


# ---- Myth 4 -------------------------------------------------------------------------------

RAM = "sacrificial_ram"
SHRINES = ("shrine_of_hecate", "olympian_shrine")


def offering(t: Table, m: Model, what: str) -> tuple[str, str]:
    """What ``m`` would sacrifice (``what``: ``ram``, ``prisoner`` or "" for the ram first):
    ("" or why not, what it is called).

    # Ruling: a sacrifice is a Sacrificial Ram (Polis 1: "SACRIFICIAL RAM 3 GOLD", priced at
    # Polis and Manor and given no other use by the rulebook) or a prisoner (the other
    # sacrifices of the rulebook, Coop 1 and Solo 5, are prisoners); the ram goes first.
    """
    if what in ("", "ram") and RAM in m["items"]:
        return "", "a Sacrificial Ram"
    if what in ("", "prisoner") and m["prisoners"]:
        return "", f"a {t.c.monster(m['prisoners'][0]).name} prisoner"
    if what == "ram":
        return "no Sacrificial Ram to sacrifice (Polis and Manor sell them)", ""
    if what == "prisoner":
        return "no prisoner to sacrifice", ""
    return "nothing to sacrifice: a Sacrificial Ram (Polis, Manor) or a prisoner", ""


def spend_offering(m: Model, what: str) -> None:
    if what in ("", "ram") and RAM in m["items"]:
        m["items"].remove(RAM)
    else:
        m["prisoners"].pop(0)


@register
class TheBlindManSpeaks(Myth):
    """Myth 4: find Teiresias "BY: SACRIFICING AT A SHRINE OF HECATE OR THE OLYMPIANS /
    VISITING A SHADE PIT", then "ROLL 1D6; ON A 6 TEIRESIAS HAS BEEN FOUND (AND WILL STAY IN
    THAT LOCATION). A SACRIFICE MUST THEN BE MADE AT THE LOCATION ... EACH SACRIFICE ALLOWS
    THE SACRIFICE[R] TO MAKE A 5+ KNOWLEDGE CHECK ...; WHEN THIS IS DONE SUCCESSFULLY, THE
    PLAYERS WIN."

    The step ``sacrifice [ram|prisoner]`` (a player character): at a shrine before he is
    found, the d6 to find him; where he is, the 5+ knowledge check (a skill check, 2 AP). The
    shade pit's d6 is rolled each time a player character enters one (after its shades).
    ``goal["teiresias"]`` is his square once found; ``goal["spoke"]`` the winner's model.
    """

    id = "the_blind_man_speaks"
    verbs: ClassVar[dict[str, str]] = {"sacrifice": "sacrifice ram"}

    def parse_step(self, verb: str, args: tuple[str, ...]) -> str:
        if len(args) > 1 or (args and args[0].lower() not in ("ram", "prisoner")):
            return "sacrifice [ram|prisoner], e.g. 'sacrifice' or 'sacrifice prisoner'"
        return ""

    def _seek(self, t: Table, m: Model, how: str) -> None:
        """The d6 after a sacrifice at a shrine or a visit to a shade pit."""
        s = data(t, self.id)
        k = m["at"]
        roll = t.roll((s.dice or {})["find"], f"myth4/teiresias/{k}/{m['id']}")
        need = s.number_of("find_roll")
        found = roll >= need
        if found:
            t.state["goal"]["teiresias"] = k
        t.say("teiresias", f"{t.name(m['id'])} {how} at {k} and seeks Teiresias: d6 {roll}, "
              + (f"{need}: the blind prophet's shade is found and stays at {k} (Myth 4). A "
                 "sacrifice there lets a knowledge check understand him." if found else
                 f"not {need}: no sign of him (Myth 4)."),
              model=m["id"], square=k, roll=roll, found=found)

    def on_enter(self, t: Table, m: Model, k: str, travel: str) -> list[str]:
        # Ruling: "VISITING A SHADE PIT": each time a player character enters one (the
        # shades' attack first, Lair 5), one d6; NPCs and monsters seek nobody.
        if (m["side"] == "pc" and sites._site(t, k).get("lair") == "shade_pit"
                and not t.state["goal"].get("teiresias")):
            self._seek(t, m, "visits the shade pit")
        return []

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        """``sacrifice``: at a shrine to seek Teiresias, or where he is to hear him."""
        if m["side"] != "pc":
            return "only a player character sacrifices"
        what = args[0].lower() if args else ""
        why, name = offering(t, m, what)
        k = m["at"]
        found = t.state["goal"].get("teiresias", "")
        if found:
            if k != found:
                return f"Teiresias is at {found}: the sacrifice must be made there"
            s = data(t, self.id)
            cost = t.c.people.skill_checks.ap
            if why:
                return why
            if m["ap"] < cost:
                return f"the knowledge check after the sacrifice needs {cost} AP, {m['ap']} left"
            # Ruling: the sacrifice costs no AP (none printed, as buying); the knowledge
            # check it allows is a skill check (Skill 1: 2 AP), made at once.
            spend_offering(m, what)
            _, passed, shown = skill_check(t, m, "knowledge", "myth4/musings",
                                           s.number_of("knowledge"))
            if passed:
                t.state["goal"]["spoke"] = m["id"]
            t.say("teiresias", f"{t.name(m['id'])} sacrifices {name} at {k}; Teiresias speaks, "
                  + ("and his musings are understood" if passed else
                     "but his musings stay dark") + f" ({shown}; Myth 4).", model=m["id"],
                  square=k, passed=passed)
            return ""
        if kind_at(t, k) not in SHRINES:
            return "seeking Teiresias by sacrifice needs a Shrine of Hecate or an Olympian shrine"
        if why:
            return why
        spend_offering(m, what)
        self._seek(t, m, f"sacrifices {name} at the {place_name(t, kind_at(t, k))}")
        return ""

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        out: list[tuple[str, list[str]]] = []
        found = t.state["goal"].get("teiresias", "")
        ready = not offering(t, m, "")[0]
        if ready and found == m["at"] and m["ap"] >= t.c.people.skill_checks.ap:
            out.append(("Sacrifice where Teiresias is, then a 5+ knowledge check to "
                        "understand him: success wins (Myth 4).", ["sacrifice"]))
        elif ready and not found and kind_at(t, m["at"]) in SHRINES:
            out.append(("Sacrifice here and roll a d6: on a 6 Teiresias is found (Myth 4).",
                        ["sacrifice"]))
        return out

    def progress(self, t: Table) -> str:
        k = t.state["goal"].get("teiresias", "")
        if not k:
            return ("Teiresias: not found yet (sacrifice at a Shrine of Hecate or an Olympian "
                    "shrine, or visit a shade pit, then a d6 of 6; Myth 4).")
        return (f"Teiresias is found at {k}: a sacrifice there allows a 5+ knowledge check "
                "to understand him (Myth 4).")

    def end(self, t: Table, *, end_of_round: bool) -> None:
        who = t.state["goal"].get("spoke", "")
        if who:
            over(t, everyone(t), f"{t.name(who)} understands the musings of Teiresias at "
                 f"{t.state['goal']['teiresias']} (The Blind Man Speaks): the players win "
                 "together.")


# ---- Myth 3 -------------------------------------------------------------------------------

PART = "talos_part_"


def parts_held(t: Table) -> dict[str, Model]:
    """Part of Talos -> the living player character carrying it.

    # Ruling: the parts are carried items (handed over with ``give``); a part carried by a
    # character who dies or retires is lost, and its forge may make it again.
    """
    return {i: m for m in t.models.values() if m["side"] == "pc" and m["hp"] > 0
            for i in m["items"] if i.startswith(PART)}


@register
class TheForgingOfTalos(Myth):
    """Myth 3: "FIND 2 GREAT FORGES AND PASS 2 6+ CRAFT CHECKS IN EACH OF THEM, TO CREATE THE
    4 PARTS OF TALOS. THE PLAYERS WHO PASSED THE [CRAFT] CHECKS/HAVE THE PARTS MUST THEN COME
    TOGETHER IN A SINGLE FORGE AND ONE MUST PASS AN 8+ KNOWLEDGE CHECK".

    Steps: ``forge_part`` (a skill check at a Great Forge, 2 AP, craft 6+: a part, item
    ``talos_part_N``, for the character who passed), ``assemble`` (at a Great Forge where every
    part is carried by a character present: any one of them, or another player there, makes
    the 8+ knowledge check, 2 AP). ``goal["parts"]``: part -> the forge that made it.
    """

    id = "the_forging_of_talos"
    verbs: ClassVar[dict[str, str]] = {"forge_part": "forge_part", "assemble": "assemble"}

    def _forge_problem(self, t: Table, m: Model) -> str:
        s = data(t, self.id)
        k = m["at"]
        if kind_at(t, k) != "great_forge":
            return "parts of Talos are forged at a Great Forge"
        held = parts_held(t)
        made = {i: f for i, f in t.state["goal"].get("parts", {}).items() if i in held}
        if len(made) >= s.number_of("parts"):
            return f"all {s.number_of('parts')} parts of Talos are made"
        if sum(1 for f in made.values() if f == k) >= s.number_of("checks_per_forge"):
            return (f"the Great Forge at {k} has made its {s.number_of('checks_per_forge')} "
                    "parts; the others come from another Great Forge")
        forges = sorted(set(made.values()))
        if k not in forges and len(forges) >= s.number_of("forges"):
            return f"the parts come from {s.number_of('forges')} Great Forges: {', '.join(forges)}"
        return ""

    def _assemble_problem(self, t: Table, m: Model) -> str:
        s = data(t, self.id)
        if kind_at(t, m["at"]) != "great_forge":
            return "Talos is assembled in a Great Forge"
        held = parts_held(t)
        if len(held) < s.number_of("parts"):
            return f"{len(held)} of the {s.number_of('parts')} parts of Talos are made"
        away = sorted({o["name"] for o in held.values() if o["at"] != m["at"]})
        if away:
            return f"the holders of the parts must come together here: {', '.join(away)}"
        return ""

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        if m["side"] != "pc":
            return "only a player character forges"
        s = data(t, self.id)
        why = self._forge_problem(t, m) if verb == "forge_part" else self._assemble_problem(t, m)
        if why:
            return why
        k = m["at"]
        if verb == "forge_part":
            why, passed, shown = skill_check(t, m, "craft", "myth3/part",
                                             s.number_of("part_craft"))
            if why:
                return why
            part = ""
            if passed:
                held = parts_held(t)
                part = next(f"{PART}{n}" for n in range(1, s.number_of("parts") + 1)
                            if f"{PART}{n}" not in held)
                m["items"].append(part)
                t.state["goal"].setdefault("parts", {})[part] = k
            t.say("talos", f"{t.name(m['id'])} works at the Great Forge at {k}: "
                  + (f"part {part[len(PART):]} of Talos is made ({shown}; Myth 3)." if passed
                     else f"the bronze will not take shape ({shown}; Myth 3)."),
                  model=m["id"], square=k, passed=passed, part=part)
            return ""
        why, passed, shown = skill_check(t, m, "knowledge", "myth3/assemble",
                                         s.number_of("final_knowledge"))
        if why:
            return why
        if passed:
            t.state["goal"]["talos"] = k
        t.say("talos", f"{t.name(m['id'])} tries to bring the {s.number_of('parts')} parts of "
              f"Talos together at the Great Forge at {k}: "
              + ("the bronze giant stirs" if passed else "they will not join") +
              f" ({shown}; Myth 3).", model=m["id"], square=k, passed=passed)
        return ""

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        if m["ap"] < t.c.people.skill_checks.ap:
            return []
        if not self._assemble_problem(t, m):
            return [("Assemble Talos: an 8+ knowledge check wins (Myth 3).", ["assemble"])]
        if not self._forge_problem(t, m):
            return [("Forge a part of Talos: a 6+ craft check (Myth 3).", ["forge_part"])]
        return []

    def progress(self, t: Table) -> str:
        held = parts_held(t)
        made = t.state["goal"].get("parts", {})
        need = data(t, self.id).number_of("parts")
        if not held:
            return f"Parts of Talos: 0 of {need} made (Myth 3)."
        return (f"Parts of Talos: {len(held)} of {need}: " + "; ".join(
            f"{i} (forged at {made.get(i, '?')}) carried by {o['name']} at {o['at']}"
            for i, o in sorted(held.items())) + " (Myth 3).")

    def end(self, t: Table, *, end_of_round: bool) -> None:
        k = t.state["goal"].get("talos", "")
        if k:
            over(t, everyone(t), f"Talos, the bronze giant, is completed at the Great Forge at "
                 f"{k} (The Forging of Talos): the players win together.")


# ---- Myth 5 -------------------------------------------------------------------------------

SONG = "song_"
INSTRUMENT = "instrument"
MAKERS = ("great_forge", "ancient_library")


def songs_of(m: Model) -> list[str]:
    return [i for i in m["items"] if i.startswith(SONG)]


def new_song(t: Table, m: Model, how: str) -> str:
    """A new song of the Muses (item ``song_N``, each its own scroll) for ``m``."""
    goal = t.state["goal"]
    goal["songs_found"] = goal.get("songs_found", 0) + 1
    song = f"{SONG}{goal['songs_found']}"
    m["items"].append(song)
    t.say("song", f"{t.name(m['id'])} {how}: a song of the Muses ({song}) (Myth 5).",
          model=m["id"], song=song)
    return song


@register
class SongsOfTheMuses(Myth):
    """Myth 5: songs ("WRITTEN SCROLLS THAT CAN BE PASSED BETWEEN PLAYERS") "BY PASSING 6+
    KNOWLEDGE CHECKS IN A LIBRARY, OR BY BUYING THEM FOR 5 GOLD AT A SETTLEMENT, OR BY FINDING
    THEM AT A HOARD (ANY ROLL OF LESS THAN 5 ...)"; "INSTRUMENTS MUST ALSO BE MADE WITH A 5+
    CRAFT CHECK AT A FORGE OR LIBRARY. THE SONGS NEED A 5+ CHECK AND AN INSTRUMENT TO PERFORM.
    BETWEEN THEM THE PLAYERS MUST FIND AND PERFORM 3 SONGS."

    Steps: ``study`` (an Ancient Library, a 6+ knowledge skill check), ``buy_song`` (a
    settlement, 5 Gold, no AP), ``make_instrument`` (a Great Forge or Ancient Library, a 5+
    craft skill check: item ``instrument``), ``perform [SONG]`` (anywhere, with an instrument:
    a 5+ knowledge skill check; the song performed is spent). Songs are items ``song_N``,
    passed with ``give song_N PLAYER``. ``goal["performed"]`` lists the songs performed.
    """

    id = "songs_of_the_muses"
    verbs: ClassVar[dict[str, str]] = {
        "study": "study", "buy_song": "buy_song", "make_instrument": "make_instrument",
        "perform": "perform song_1"}

    def parse_step(self, verb: str, args: tuple[str, ...]) -> str:
        if verb == "perform":
            if len(args) > 1 or (args and not args[0].lower().startswith(SONG)):
                return "perform [SONG], e.g. 'perform' or 'perform song_2'"
            return ""
        return super().parse_step(verb, args)

    def on_enter(self, t: Table, m: Model, k: str, travel: str) -> list[str]:
        # Ruling: (analysis 5.2) "ANY ROLL OF LESS THAN 5" is the hoard's 2d6 Gold roll (2-4),
        # which grants the song to the character who took the hoard, once.
        site = sites._site(t, k)
        below = data(t, self.id).number_of("hoard_below")
        if (kind_at(t, k) == "lost_hoard" and site.get("by") == m["id"] and not site.get("song")
                and int(site.get("roll", below)) < below):
            site["song"] = True
            new_song(t, m, f"finds among the hoard at {k} (a roll of {site['roll']}, below "
                     f"{below})")
        return []

    def _problem(self, t: Table, m: Model, verb: str, song: str) -> str:
        s = data(t, self.id)
        here = kind_at(t, m["at"])
        if m["side"] != "pc":
            return "only a player character may do this"
        if verb == "buy_song":
            why = sites._settlement(t, m)[2]
            if why:
                return why
            price = s.number_of("song_gold")
            return "" if m["gold"] >= price else (
                f"a song costs {price} Gold, {t.name(m['id'])} has {m['gold']}")
        if verb == "study" and here != "ancient_library":
            return "songs are studied in an Ancient Library"
        if verb == "make_instrument":
            if here not in MAKERS:
                return "instruments are made at a Great Forge or an Ancient Library"
            if INSTRUMENT in m["items"]:
                return "already owns an instrument (Battle 3: never multiples)"
        if verb == "perform":
            if INSTRUMENT not in m["items"]:
                return "performing a song needs an instrument"
            if song and song not in m["items"]:
                return f"{t.name(m['id'])} carries no {song}"
            if not songs_of(m):
                return f"{t.name(m['id'])} carries no song"
        cost = t.c.people.skill_checks.ap
        return "" if m["ap"] >= cost else f"a skill check needs {cost} AP, {m['ap']} left"

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        s = data(t, self.id)
        song = args[0].lower() if args else ""
        why = self._problem(t, m, verb, song)
        if why:
            return why
        k = m["at"]
        if verb == "buy_song":
            price = s.number_of("song_gold")
            t.gold(m, -price)
            new_song(t, m, f"buys for {price} Gold at {k}")
            return ""
        if verb == "study":
            _, passed, shown = skill_check(t, m, "knowledge", "myth5/study",
                                           s.number_of("library_knowledge"))
            if passed:
                new_song(t, m, f"finds in the Ancient Library at {k} ({shown})")
            else:
                t.say("song", f"{t.name(m['id'])} searches the Ancient Library at {k} for the "
                      f"songs of the Muses in vain ({shown}; Myth 5).", model=m["id"],
                      passed=False)
            return ""
        if verb == "make_instrument":
            _, passed, shown = skill_check(t, m, "craft", "myth5/instrument",
                                           s.number_of("instrument_craft"))
            if passed:
                m["items"].append(INSTRUMENT)
            t.say("instrument", f"{t.name(m['id'])} "
                  + ("makes an instrument" if passed else "fails to make an instrument")
                  + f" at {k} ({shown}; Myth 5).", model=m["id"], passed=passed)
            return ""
        song = song or songs_of(m)[0]
        # Ruling: the "5+ CHECK" to perform is a knowledge check (the songs are written
        # scrolls), a skill check of 2 AP made anywhere; a song performed is spent.
        _, passed, shown = skill_check(t, m, "knowledge", "myth5/perform",
                                       s.number_of("perform_check"))
        goal = t.state["goal"]
        if passed:
            m["items"].remove(song)
            goal.setdefault("performed", []).append(song)
        t.say("performed" if passed else "song", f"{t.name(m['id'])} plays {song} at {k}: "
              + (f"the song of the Muses rings through the underworld, "
                 f"{len(goal.get('performed', []))} of {s.number_of('songs')} performed"
                 if passed else "the notes falter") + f" ({shown}; Myth 5).",
              model=m["id"], song=song, passed=passed)
        return ""

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        notes = {"perform": "Perform a song with your instrument: a 5+ check (Myth 5).",
                 "make_instrument": "Make an instrument: a 5+ craft check (Myth 5).",
                 "study": "Study the library for a song of the Muses: 6+ knowledge (Myth 5)."}
        out = []
        for verb, note in notes.items():
            if verb == "make_instrument" and not songs_of(m) and kind_at(
                    t, m["at"]) == "ancient_library":
                continue  # the library's song first
            if not self._problem(t, m, verb, ""):
                out.append((note, [verb]))
        return out

    def progress(self, t: Table) -> str:
        goal = t.state["goal"]
        need = data(t, self.id).number_of("songs")
        carried = [f"{song} ({m['name']})" for m in t.models.values()
                   if m["side"] == "pc" and m["hp"] > 0 for song in songs_of(m)]
        players = [m["name"] for m in t.models.values()
                   if m["side"] == "pc" and m["hp"] > 0 and INSTRUMENT in m["items"]]
        return (f"Songs of the Muses performed: {len(goal.get('performed', []))} of {need}; "
                f"songs carried: {', '.join(carried) or 'none'}; instruments: "
                f"{', '.join(players) or 'none'} (Myth 5).")

    def end(self, t: Table, *, end_of_round: bool) -> None:
        need = data(t, self.id).number_of("songs")
        if len(t.state["goal"].get("performed", [])) >= need:
            over(t, everyone(t), f"The players have performed {need} songs of the Muses (Songs "
                 "of the Muses): they win together.")


# ---- Myth 2 -------------------------------------------------------------------------------

PROW_PLACES = ("ancient_library", "great_forge", "olympian_shrine")


@register
class Argo(Myth):
    """Myth 2: "CREATE THE PROW BY MAKING A 6+ CRAFT THEN A 6+ KNOWLEDGE CHECK AT ANY LIBRARY,
    FORGE, SETTLEMENT, OR OLYMPIAN SHRINE. OBTAIN AT LEAST 5 WOOD TRUNKS (COST 1 GOLD EACH FROM
    ANY SETTLEMENT). GET A CREW OF AT LEAST 2 (PLUS THEMSELVES, ANY PLAYERS THAT DIE MUST BE
    REPLACED) BUILD THE SHIP, IN THEIR STARTING SQUARE, WITH AN 8+ CRAFT CHECK".

    Steps: ``prow`` (a skill check at one of those places: the craft check, then once it is
    passed the knowledge check), ``buy_trunks [N]`` (at a settlement, 1 Gold each, no AP; N
    defaults to the trunks still wanting), ``build_argo`` (in the starting square, the prow
    made, the trunks bought and a crew of NPCs there: the 8+ craft skill check). ``goal``:
    ``prow`` ("" / ``carved`` / ``made``), ``trunks``, ``argo`` once built.
    """

    id = "argo"
    verbs: ClassVar[dict[str, str]] = {"prow": "prow", "buy_trunks": "buy_trunks 5",
                                       "build_argo": "build_argo"}

    def setup(self, t: Table) -> None:
        # Ruling: "ANY PLAYERS THAT DIE MUST BE REPLACED" overrides the option death=out.
        t.state["death"] = "replace"
        super().setup(t)

    def parse_step(self, verb: str, args: tuple[str, ...]) -> str:
        if verb == "buy_trunks":
            if len(args) > 1 or (args and not (args[0].isdigit() and 0 < int(args[0]) <= 20)):
                return "buy_trunks [N], e.g. 'buy_trunks' or 'buy_trunks 3' (1 to 20)"
            return ""
        return super().parse_step(verb, args)

    def _crew(self, t: Table, k: str) -> list[Model]:
        # Ruling: the crew is the players' NPCs ("BEINGS UNDER THEIR CONTROL", as Coop 6) in
        # the starting square when the ship is built; the players themselves come on top.
        return [o for o in t.at(k) if o["side"] == "npc"]

    def _problem(self, t: Table, m: Model, verb: str) -> str:
        s = data(t, self.id)
        goal = t.state["goal"]
        if m["side"] != "pc":
            return "only a player character may do this"
        k = m["at"]
        if verb == "buy_trunks":
            why = sites._settlement(t, m)[2]
            if why:
                return why
            if m["gold"] < s.number_of("trunk_gold"):
                return f"a trunk costs {s.number_of('trunk_gold')} Gold, {t.name(m['id'])} has 0"
            return ""
        if verb == "prow":
            if goal.get("prow") == "made":
                return "the prow is made"
            if kind_at(t, k) not in PROW_PLACES and (
                    not sites._site(t, k).get("settlement") or sites._settlement(t, m)[2]):
                return "the prow is made at a library, forge, settlement or Olympian shrine"
        if verb == "build_argo":
            if k != t.state["starts"].get(m["owner"], ""):
                return f"the Argo is built in the starting square, {t.state['starts'][m['owner']]}"
            if goal.get("prow") != "made":
                return "the prow is not made yet"
            if goal.get("trunks", 0) < s.number_of("trunks"):
                return f"{goal.get('trunks', 0)} of {s.number_of('trunks')} wood trunks bought"
            crew = len(self._crew(t, k))
            if crew < s.number_of("crew"):
                return f"a crew of {s.number_of('crew')} NPCs is needed here, {crew} are"
        cost = t.c.people.skill_checks.ap
        return "" if m["ap"] >= cost else f"a skill check needs {cost} AP, {m['ap']} left"

    def act(self, t: Table, m: Model, verb: str, args: tuple[str, ...]) -> str:
        s = data(t, self.id)
        why = self._problem(t, m, verb)
        if why:
            return why
        goal = t.state["goal"]
        k = m["at"]
        who = t.name(m["id"])
        if verb == "buy_trunks":
            each = s.number_of("trunk_gold")
            want = int(args[0]) if args else max(1, s.number_of("trunks") - goal.get("trunks", 0))
            n = min(want, m["gold"] // each)
            t.gold(m, -n * each)
            goal["trunks"] = goal.get("trunks", 0) + n
            t.say("trunks", f"{who} buys {n} wood trunk{'s' if n > 1 else ''} at {k} for "
                  f"{n * each} Gold: {goal['trunks']} of {s.number_of('trunks')} (Myth 2).",
                  model=m["id"], trunks=n, gold=n * each)
            return ""
        if verb == "prow":
            # Ruling: the prow is the party's work: the knowledge check may follow the craft
            # check later, by any player, at any of the places.
            carved = goal.get("prow") == "carved"
            kind, key = ("knowledge", "prow_knowledge") if carved else ("craft", "prow_craft")
            _, passed, shown = skill_check(t, m, kind, f"myth2/prow/{kind}", s.number_of(key))
            if passed:
                goal["prow"] = "made" if carved else "carved"
            t.say("prow", f"{who} works on the prow of the Argo at {k}: "
                  + (("the prow is made" if carved else "the prow is carved; now its 6+ "
                      "knowledge check") if passed else "no progress")
                  + f" ({shown}; Myth 2).", model=m["id"], passed=passed, prow=goal.get("prow", ""))
            return ""
        _, passed, shown = skill_check(t, m, "craft", "myth2/build", s.number_of("build_craft"))
        if passed:
            goal["argo"] = k
        t.say("argo", f"{who} sets the keel of the Argo at {k} with a crew of "
              f"{len(self._crew(t, k))}: " + ("the ship is built" if passed else
                                              "the timbers will not hold")
              + f" ({shown}; Myth 2).", model=m["id"], passed=passed)
        return ""

    def form_examples(self, t: Table, m: Model) -> list[tuple[str, list[str]]]:
        notes = {"build_argo": "Build the Argo here: an 8+ craft check wins (Myth 2).",
                 "prow": "Work on the prow: a 6+ craft check, then a 6+ knowledge check (Myth 2)."}
        return [(note, [verb]) for verb, note in notes.items() if not self._problem(t, m, verb)]

    def progress(self, t: Table) -> str:
        goal = t.state["goal"]
        s = data(t, self.id)
        prow = {"": "not begun", "carved": "carved (its knowledge check next)",
                "made": "made"}[goal.get("prow", "")]
        start = t.state["starts"][t.state["seats"][0]]
        return (f"The Argo: prow {prow}; wood trunks {goal.get('trunks', 0)} of "
                f"{s.number_of('trunks')}; crew at {start}: {len(self._crew(t, start))} of "
                f"{s.number_of('crew')} NPCs (Myth 2).")

    def end(self, t: Table, *, end_of_round: bool) -> None:
        k = t.state["goal"].get("argo", "")
        if k:
            over(t, everyone(t), f"The Argo is built at {k} (Argo): the players win together.")


# ---- Myth 1 -------------------------------------------------------------------------------

FURY = "fury"


@register
class TheFuries(Myth):
    """Myth 1: "THE PLAYERS GET AN ARISTOCRAT NPC WITH THEM AT GAME START. THE PLAYERS MUST GET
    THIS CHARACTER TO AN OLYMPIAN SHRINE TO PRAY; HE MUST REMAIN THERE FOR 3 FULL TURNS
    (EXPENDING ALL HIS ACTION POINTS EACH TURN) TO WIN THE GAME. MEANWHILE, FROM TURN 3
    ONWARDS FURIES WILL START APPEARING AT THEIR STARTING LOCATION (ONE PER TURN) AND WILL
    ATTEMPT TO KILL THE NPC, MOVING TOWARDS HIM IN PREFERENCE TO ANY OTHER TARGET. THERE ARE
    NEVER MORE THAN 5 FURIES ON THE MAP; EACH TIME ONE IS KILLED, A NEW ONE IS SPAWNED."

    ``goal``: ``aristocrat`` (his model id), ``prayed`` (full turns of prayer in a row),
    ``prayer_round`` (the last), ``furies_due`` (Furies killed, to be replaced).
    """

    id = "the_furies"

    def setup(self, t: Table) -> None:
        # Ruling: the Aristocrat is an NPC of the first player in turn order (he follows that
        # player's character, by that player's standing ``npcs``).
        owner = t.state["seats"][0]
        at = t.state["starts"][owner]
        npc = skills.new_npc(t, owner, "aristocrat", at, bank="W" if grid.on_styx(at) else "")
        t.state["goal"]["aristocrat"] = npc["id"]
        t.say("aristocrat", f"{npc['name']} goes with the players from {at}; {owner} leads him. "
              "Bring him to an Olympian shrine to pray for 3 full turns (Myth 1).",
              model=npc["id"], player=owner)
        super().setup(t)

    def prefers(self, t: Table, m: Model) -> list[str]:
        if m["type"] != FURY or m["side"] != "monster":
            return []
        return [str(t.state["goal"].get("aristocrat", ""))]

    def record(self, t: Table, events: list[Event]) -> None:
        goal = t.state["goal"]
        for e in events:
            if e.get("type") == "slain" and e.get("victim_type") == FURY:
                goal["furies_due"] = goal.get("furies_due", 0) + 1

    def world_start(self, t: Table) -> None:
        s = data(t, self.id)
        goal = t.state["goal"]
        a = npc_of(t, goal.get("aristocrat", ""))
        r = t.state["round"]
        if a is not None:
            a["resting"] = 0
            if kind_at(t, a["at"]) == "olympian_shrine" and not t.enemies_at(a):
                # Ruling: he prays by himself when the world phase finds him at an Olympian
                # shrine with no enemy there: all his AP go to the prayer (he neither moves
                # nor fights); the turns must follow one another ("REMAIN THERE").
                again = goal.get("prayer_round", 0) == r - 1
                goal["prayed"] = goal.get("prayed", 0) + 1 if again else 1
                goal["prayer_round"] = r
                a["resting"] = 1  # spends all his AP (monsters.act): cleared at world_end
                t.say("prayer", f"{a['name']} prays at the Olympian shrine at {a['at']}, "
                      f"spending all his AP: turn {goal['prayed']} of "
                      f"{s.number_of('pray_turns')} (Myth 1).", model=a["id"],
                      turns=goal["prayed"])
            elif goal.get("prayed"):
                goal["prayed"] = 0
                t.say("prayer", f"{a['name']} is not praying at an Olympian shrine this turn: "
                      "his prayers must begin again (Myth 1).", model=a["id"], turns=0)
        if r < s.number_of("furies_from_turn"):
            return
        alive = sum(1 for o in t.alive() if o["type"] == FURY and o["side"] == "monster")
        due = s.number_of("furies_per_turn") + goal.get("furies_due", 0)
        goal["furies_due"] = 0
        # Ruling: "THEIR STARTING LOCATION" is the players' starting bridge; a Fury killed is
        # replaced at the next world phase on top of that turn's, never above the five.
        at = t.state["starts"][t.state["seats"][0]]
        for _ in range(min(due, s.number_of("furies_cap") - alive)):
            f = sites.new_model(t, FURY, at)
            f["bank"] = "W" if grid.on_styx(at) else ""
            t.say("spawned", f"A Fury ({f['id']}) rises at {at}, hunting the Aristocrat "
                  f"(Myth 1).", square=at, monster=f["id"], monster_type=FURY)

    def world_end(self, t: Table) -> None:
        a = t.models.get(t.state["goal"].get("aristocrat", ""))
        if a is not None and t.state["goal"].get("prayer_round") == t.state["round"]:
            a["resting"] = 0

    def progress(self, t: Table) -> str:
        goal = t.state["goal"]
        s = data(t, self.id)
        a = t.models.get(goal.get("aristocrat", ""))
        if a is None:
            return ""
        furies = sum(1 for o in t.alive() if o["type"] == FURY and o["side"] == "monster")
        return (f"The Aristocrat ({a['id']}): at {a['at']}, {a['hp']}/{a['max_hp']} health; "
                f"full turns of prayer at an Olympian shrine: {goal.get('prayed', 0)} of "
                f"{s.number_of('pray_turns')}; Furies on the map: {furies} of "
                f"{s.number_of('furies_cap')} (Myth 1).")

    def end(self, t: Table, *, end_of_round: bool) -> None:
        goal = t.state["goal"]
        a = t.models.get(goal.get("aristocrat", ""))
        if a is None:
            return
        if a["hp"] <= 0:
            # Ruling: the Aristocrat dead, the quest is lost for everyone.
            over(t, [], f"{a['name']} is dead: the Furies have their vengeance (The Furies); "
                 "the players have lost.")
            return
        need = data(t, self.id).number_of("pray_turns")
        if end_of_round and goal.get("prayed", 0) >= need and goal.get(
                "prayer_round") == t.state["round"]:
            over(t, everyone(t), f"{a['name']} has prayed {need} full turns at the Olympian "
                 f"shrine at {a['at']} (The Furies): the players win together.")


# ---- the bots (bot._goal) -----------------------------------------------------------------


def bot_goal(t: Table, m: Model) -> str:
    """A square worth walking to for a bot playing a Great Myth, or ""."""
    goal = t.state["goal"]
    scen = t.state["scenario"]
    if scen == FindingTheBowman.id:
        p = npc_of(t, goal.get("philoctetes", ""))
        if p is None or p["owner"] != m["owner"]:
            return ""
        if p["at"] != m["at"] and grid.manhattan(p["at"], m["at"]) > 2:
            return str(p["at"])  # wait for the lame man
        return nearest(t, m, ("magic_spring",) if p["hp"] < p["max_hp"] else
                       ("surface_tunnel",))
    if scen == TheBlindManSpeaks.id:
        found = str(goal.get("teiresias", ""))
        if offering(t, m, "")[0]:
            if m["gold"] >= (t.c.people.price("polis", RAM) or 0):
                return nearest(t, m, ("polis", "manor"))
            pits = [k for k, sq in t.state["map"].items()
                    if sq.get("site", {}).get("lair") == "shade_pit" and k != m["at"]]
            return "" if found or not pits or m["hp"] < 5 else min(
                pits, key=lambda k: grid.manhattan(k, m["at"]))
        return found or nearest(t, m, SHRINES)
    if scen == TheForgingOfTalos.id:
        held = parts_held(t)
        if len(held) >= data(t, scen).number_of("parts"):
            first = min(held.values(), key=lambda o: int(o["id"][1:]))
            return nearest(t, first, ("great_forge",))
        used = set(goal.get("parts", {}).values())
        forges = [k for k, sq in t.state["map"].items() if sq["kind"] == "great_forge"
                  and (k in used or len(used) < data(t, scen).number_of("forges"))]
        return min(forges, key=lambda k: grid.manhattan(k, m["at"])) if forges else ""
    if scen == TheFuries.id:
        a = npc_of(t, goal.get("aristocrat", ""))
        if a is None or kind_at(t, a["at"]) == "olympian_shrine":
            return str(a["at"]) if a is not None and a["owner"] != m["owner"] else ""
        return nearest(t, a, ("olympian_shrine",)) if a["owner"] == m["owner"] else ""
    if scen == Argo.id:
        s = data(t, scen)
        if goal.get("prow") != "made":
            return nearest(t, m, PROW_PLACES)
        if goal.get("trunks", 0) < s.number_of("trunks"):
            return nearest(t, m, sites.SETTLEMENTS) if m["gold"] else ""
        return str(t.state["starts"].get(m["owner"], ""))
    if scen == SongsOfTheMuses.id:
        if songs_of(m) and INSTRUMENT not in m["items"]:
            return nearest(t, m, MAKERS)
        if not songs_of(m):
            return nearest(t, m, ("ancient_library",))
    return ""


def bot_steps(t: Table, m: Model, before: list[str]) -> list[str]:
    """Purchases a bot makes for its Great Myth after its own (``before``), with the Gold they
    leave: wood trunks for Myth 2, a Sacrificial Ram for Myth 4, a song for Myth 5. (Its
    scenario's form examples it takes itself, bot.plan.)"""
    site = sites._site(t, m["at"])
    kind = str(site.get("settlement", ""))
    spent = sum(t.c.people.price(kind, b.split()[1]) or 0 for b in before
                if b.startswith("buy "))
    if not kind or site.get("destroyed") or sites._settlement(t, m)[2]:
        return []
    scen = t.state["scenario"]
    if scen == Argo.id:
        want = data(t, scen).number_of("trunks") - t.state["goal"].get("trunks", 0)
        each = data(t, scen).number_of("trunk_gold")
        n = min(want, (m["gold"] - spent) // each)
        return [f"buy_trunks {n}"] if n > 0 else []
    if scen == SongsOfTheMuses.id and not songs_of(m):
        price = data(t, scen).number_of("song_gold")
        return ["buy_song"] if m["gold"] - spent >= price else []
    if scen != TheBlindManSpeaks.id or not offering(t, m, "")[0]:
        return []
    ram = t.c.people.price(kind, RAM)
    if ram is None or m["gold"] - spent < ram:
        return []
    return [f"buy {RAM}"]

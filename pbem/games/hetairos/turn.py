"""Running a player's turn program (MOVEMENT AND THE MAP; TO BATTLE!; analysis 2.3): each step
in order until the program ends, the Action Points run out, or a halt the player chose fires
with steps still to run, which opens a continuation phase for the same player.

A step that cannot be done when it runs (no AP, a wall, nothing to buy here) is skipped and
said; the ``skip`` halt (on by default) stops the program there, so no later step runs on a
plan that went wrong.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from pbem.core.ruleset import copy_state
from pbem.games.hetairos import combat, explore, grid, program, sites, skills, standing, votes
from pbem.games.hetairos.program import Step
from pbem.games.hetairos.table import Components, Model, NeedsDice, NoDice, Table

#: Squares whose drawing does not halt on "discovery": the plain passages and empty caverns
#: (analysis 2.3: "discovery of a non-tunnel square"; an empty cavern holds nothing to choose
#: about). A Styx square halts only when it has a bridge.
PLAIN = frozenset({"rock", "tunnel", "small_tunnel", "tunnel_fork", "empty_cavern"})


def allowance(t: Table, m: Model) -> int:
    """A PC's Action Points this turn (Concepts 4: 5; PC Centaur 1: 7; Rare A4 Trident +1;
    Battle 9: -1 per prisoner; Act 6 Poseidon: doubled, used up)."""
    ch = t.c.character(m["type"])
    ap = max([ch.ap] + [a.amount for a in ch.with_effect("move_allowance")])
    if "trident" in m["items"]:
        ap += t.c.people.rare_items["trident"].ap_bonus or 1
    ap -= len(m["prisoners"])
    if m["effects"].pop("poseidon", 0):
        ap *= 2
        m["effects"]["poseidon_turn"] = 1
    return max(ap, 0)


def start(t: Table, player: str) -> Model | None:
    """The start of ``player``'s turn: the character's AP allowance and its per-turn marks."""
    m = t.pc(player)
    if m is None:
        return None
    m["ap"] = allowance(t, m)
    m["moved"] = False
    m["came"] = ""
    m["attacks"] = 0
    for mark in ("healed", "observed", "cornucopia", "caduceus", "discount"):
        m["effects"].pop(mark, None)
    exit_ = m.get("exit", "")
    if m.get("stuck") == "revolving" and (not exit_ or (
            len(exit_) == 1 and sites.rock_face(t, m["at"], exit_))):
        # Trap 5 "STUCK FOR THIS TURN, ROLL AGAIN NEXT TIME" (and a side found to be rock
        # since, "TREAT AS IF THEY HAD ROLLED A 1")
        sites.revolve(t, m, m["at"], m.get("revolve_from") or m.get("came") or "N")
    return m


def preview(c: Components, view: Mapping[str, Any], player: str) -> Table:
    """A working copy of ``view`` (no die can be rolled on it) with ``player``'s character as
    it will be when his steps run: :func:`start`'s AP and marks, unless his turn goes on after
    a halt. What :func:`start` would roll (a revolving room's roll again) is left to the
    adjudication: the character is shown as it stands."""
    state = copy_state({k: v for k, v in view.items() if k not in ("game_over", "me")})
    for key in ("teams", "hostile", "pcs", "map", "models", "standing"):
        state.setdefault(key, {})
    t = Table(c, state, NoDice(), label="preview")
    if not (view.get("active") == player and view.get("cont")):
        with contextlib.suppress(NeedsDice):  # (start rolls last: the rest is done)
            start(t, player)
    return t


def end(t: Table, player: str) -> None:
    """The end of ``player``'s turn: the Spear's readiness (Weapon 6: "AT LEAST 3AP REMAINING AT
    THE END OF THEIR TURN"), the Kobaloi's pranks (Kobaloi 2)."""
    m = t.pc(player)
    if m is None:
        return
    m["spear"] = m["ap"] >= 3
    m["effects"].pop("poseidon_turn", None)
    sites.end_of_turn(t, m)


def _seen_enemies(t: Table, m: Model) -> set[str]:
    """Enemies in ``m``'s square or a neighbouring drawn square."""
    here = m["at"]
    near = {here} | {grid.neighbour(here, d) for d in grid.DIRS}
    return {o["id"] for o in t.alive() if o["at"] in near and t.enemies(m, o)}


def run(t: Table, player: str, steps: list[Step], halts: list[str]) -> tuple[list[Step], str]:
    """Run the steps; returns the steps not run and why the program halted ("" if it ran out
    or the turn is over)."""
    m = t.pc(player)
    low = program.low_hp(halts)
    steps = single_moves(steps)
    for i, step in enumerate(steps):
        if m is None or m["hp"] <= 0:
            return [], ""
        seen = _seen_enemies(t, m)
        hp = m["hp"]
        drawn_before = len(t.state["map"])
        why, raised = do(t, m, step)
        if why:
            t.say("skipped", f"{t.name(m['id'])}: '{step.text}' is skipped: {why}.",
                  player=player, step=step.text, index=step.index, why=why)
            raised.append("skip")
        if m["hp"] <= 0:
            return [], ""
        if len(t.state["map"]) > drawn_before and any(
                sq["kind"] not in PLAIN and (sq["kind"] != "styx" or sq.get("bridge"))
                for sq in list(t.state["map"].values())[drawn_before:]):
            raised.append("discovery")
        if _seen_enemies(t, m) - seen:
            raised.append("enemy")
        if m["hp"] < hp:
            raised.append("wound")
        if low and m["hp"] <= low:
            raised.append(f"low_hp:{low}")
        rest = steps[i + 1:]
        fired = [h for h in dict.fromkeys(raised) if h in halts or h.startswith("low_hp")]
        if fired and rest and m["ap"] > 0:
            return rest, fired[0]
    return [], ""


def single_moves(steps: list[Step]) -> list[Step]:
    """A ``move`` of several squares as one step a square, so that a halt can stop it on the
    way ("move E E N" explores square by square; the halt after the first is where the player
    wanted to choose again)."""
    out: list[Step] = []
    for step in steps:
        if step.verb == "move" and len(step.args) > 1:
            out += [Step("move", (d,), f"move {d}", step.index) for d in step.args]
        else:
            out.append(step)
    return out


def do(t: Table, m: Model, step: Step) -> tuple[str, list[str]]:
    """One step: ("" or why it was skipped, halts it raised)."""
    verb, a = step.verb, step.args
    if verb == "move":
        return move(t, m, step.dirs)
    if verb == "sneak":
        return sneak(t, m, a[0])
    if verb == "observe":
        return observe(t, m, a[0]), []
    if verb in ("attack", "shoot"):
        return fight(t, m, a[0], a[1], ranged=verb == "shoot"), []
    if verb == "fight":
        return fight_on(t, m, int(a[0])), []
    if verb in ("craft", "know", "pray"):
        return skills.check(t, m, a[0]), []
    if verb == "dig":
        return skills.dig(t, m, a[0], a[1]), []
    if verb == "heal":
        return skills.heal(t, m, a[0], a[1] == "paid"), []
    if verb == "use":
        return skills.use(t, m, a[0], a[1]), []
    if verb == "give":
        return skills.give(t, m, a[0], a[1]), []
    if verb == "retire":
        return skills.retire(t, m, a[0]), []
    if verb == "boot":
        return votes.boot(t, m, a[0]), []
    if verb == "cure":
        return cure(t, m, a[0]), []
    if verb == "station":
        return sites.station(t, m, a[0]), []
    if verb == "buy":
        return sites.buy(t, m, a[0]), []
    if verb == "sell":
        return sites.sell(t, m, a[0]), []
    if verb == "citizen":
        return sites.citizen(t, m, a[0]), []
    if verb == "income":
        return sites.income(t, m), []
    if verb == "hire":
        return sites.hire(t, m, a[0]), []
    if verb == "spring":
        return sites.spring(t, m), []
    if verb == "climb":
        return sites.climb(t, m), []
    if verb == "escape":
        return sites.escape(t, m), []
    if verb != "end":
        from pbem.games.hetairos import scenarios

        return scenarios.get(t.state["scenario"]).act(t, m, verb, a), []
    m["ap"] = 0  # end: the turn is over (Spear readiness counts the AP left before this)
    return "", []


# ---- moving ---------------------------------------------------------------------------


def leave_problem(t: Table, m: Model, d: str) -> str:
    """Why ``m`` may not go out of its square across ``d`` now ("" if it may)."""
    if m.get("stuck") in ("pit", "daedalus"):
        how = "climb" if m["stuck"] == "pit" else "escape"
        return f"{t.name(m['id'])} is trapped ({m['stuck']}): '{how}' first"
    if m.get("stuck") == "revolving":
        exit_ = m.get("exit", "")
        if not exit_:
            return "the revolving room keeps turning (Trap 5: 1): stuck this turn"
        if exit_ != "any" and d != exit_:
            return f"the revolving room put you at its {grid.NAMES[exit_]} side (Trap 5)"
    here = t.square(m["at"])
    if not grid.can_leave(here, m["at"], d, m.get("bank", "")):
        if grid.on_styx(m["at"]) and d in "EW":
            return "the Styx can be crossed only on a bridge (Styx 4)"
        return f"no way {grid.NAMES[d]} out of {m['at']}"
    if t.enemies_at(m) and m.get("came") and d != grid.opposite(m["came"]):
        return ("enemies here: you may not pass through them (Battle 1), only go back "
                f"{grid.NAMES[grid.opposite(m['came'])]}")
    return ""


def _enter(t: Table, m: Model, k: str, d: str) -> list[str]:
    """Put ``m`` into ``k`` moving ``d`` and apply what entering does."""
    m["at"] = k
    if grid.on_styx(k):
        m["bank"] = grid.bank_of(k, d) or m.get("bank", "") or "W"
    else:
        m["bank"] = ""
    m["moved"] = True
    m["came"] = d
    m.pop("exit", None)
    if m.get("stuck") == "revolving":
        m["stuck"] = ""
    return sites.on_enter(t, m, k, d)


def move(t: Table, m: Model, dirs: str) -> tuple[str, list[str]]:
    """``move`` one square per letter (Map 1, Small 1, Explore 0-7, Battle 1)."""
    halts: list[str] = []
    for d in dirs:
        why = leave_problem(t, m, d)
        if why:
            return why, halts
        k = grid.neighbour(m["at"], d)
        sq = t.square(k)
        fresh = sq is None
        if fresh:
            if m["ap"] < 1:
                return "no Action Points left", halts
            sq = explore.draw(t, k, d, m)
        assert sq is not None
        kind = t.c.world.squares[sq["kind"]]
        if not kind.passable:
            if fresh:
                m["ap"] -= 1  # Ruling: exploring costs the move even into rock or lava
                t.say("blocked", f"{t.name(m['id'])} cannot go into {k} ({kind.name}); "
                      "the move is spent.", model=m["id"], square=k)
                return "", halts
            return f"{k} is {kind.name.lower()}: impassable", halts
        if not grid.can_enter(sq, d):
            return f"{k} has no opening to the {grid.NAMES[grid.opposite(d)]}", halts
        cost = kind.move_cost
        if sq["kind"] == "small_tunnel" and not _small_ok(t, m):
            if fresh:
                m["ap"] -= 1
            return f"{t.name(m['id'])} may never move down small tunnels", halts
        if m["ap"] < cost:
            if fresh:
                m["ap"] -= 1
                return "", halts
            return f"{cost} AP needed to enter {k}, {m['ap']} left", halts
        m["ap"] -= cost
        engaged = bool(t.enemies_at(m, k))
        halts += _enter(t, m, k, d)
        if engaged or m["hp"] <= 0 or m.get("stuck"):
            if engaged:
                t.say("engaged", f"{t.name(m['id'])} meets enemies at {k} and must fight to "
                      "pass (Battle 1).", model=m["id"], square=k)
            break
    return "", halts


def _small_ok(t: Table, m: Model) -> bool:
    if m["side"] == "pc":
        return t.c.character(m["type"]).small_tunnels
    return not t.c.monster(m["type"]).no_small_tunnels


def sneak(t: Table, m: Model, d: str) -> tuple[str, list[str]]:
    """PC Kobalos 1: 1 AP, a 4+ check to enter an enemy-occupied square unnoticed; the Kobalos
    may go on through it. On a failure nothing happens but the AP is spent."""
    ability = t.c.character(m["type"]).ability("sneak")
    if ability is None:
        return "only a Kobalos may sneak", []
    why = leave_problem(t, m, d)
    if why:
        return why, []
    k = grid.neighbour(m["at"], d)
    sq = t.square(k)
    if sq is None or not t.enemies_at(m, k):
        return f"no enemies to slip past in {k}: use 'move'", []
    if not grid.can_enter(sq, d) or not t.c.world.squares[sq["kind"]].passable:
        return f"no way into {k}", []
    if m["ap"] < 1:
        return "no Action Points left", []
    m["ap"] -= 1
    roll = t.d6(f"sneak/{m['id']}")
    if roll < (ability.threshold or 4):
        t.say("sneak", f"{t.name(m['id'])} tries to slip into {k} unnoticed: {roll}, "
              "noticed; stays.", model=m["id"], roll=roll, passed=False)
        return "", []
    t.say("sneak", f"{t.name(m['id'])} slips into {k} unnoticed ({roll}).", model=m["id"],
          roll=roll, passed=True)
    halts = _enter(t, m, k, d)
    m["came"] = ""  # unnoticed: not held by the enemies there
    return "", halts


def observe(t: Table, m: Model, d: str) -> str:
    """PC Amazon 2: once per turn, draw an adjacent unexplored square without moving."""
    if t.c.character(m["type"]).ability("observe") is None:
        return "only an Amazon may observe"
    if m["effects"].get("observed"):
        return "the Amazon observes once per turn"
    if not grid.can_leave(t.square(m["at"]), m["at"], d, m.get("bank", "")):
        return f"no opening {grid.NAMES[d]} to look through"
    k = grid.neighbour(m["at"], d)
    if t.square(k) is not None:
        return f"{k} is already explored"
    m["effects"]["observed"] = 1
    explore.draw(t, k, d, m, verb="observes")
    return ""


# ---- fighting -------------------------------------------------------------------------


def targets_in_reach(t: Table, m: Model, ranged: bool) -> dict[str, tuple[str, int]]:
    """Enemy model id -> (weapon, distance) that ``m`` may attack now: in its square, or at
    range in a straight line through open squares (PC Amazon 1, Weapon 2 and 4, Rare B1)."""
    out: dict[str, tuple[str, int]] = {}
    if not ranged:
        for o in t.enemies_at(m):
            out[o["id"]] = ("", 0)
        return out
    for weapon, reach in sorted(combat.ranges(t, m).items(), key=lambda x: -x[1]):
        for d in grid.DIRS:
            k, bank = m["at"], m.get("bank", "")
            for dist in range(1, reach + 1):
                if not grid.can_leave(t.square(k), k, d, bank):
                    break
                k2 = grid.neighbour(k, d)
                sq = t.square(k2)
                if sq is None or not grid.can_enter(sq, d) or \
                        not t.c.world.squares[sq["kind"]].passable:
                    break
                for o in t.enemies_at(m, k2):
                    out.setdefault(o["id"], (weapon, dist))
                k, bank = k2, grid.bank_of(k2, d)
    return out


def fight(t: Table, m: Model, target: str, weapon: str, *, ranged: bool) -> str:
    """``attack``/``shoot``: one round (Battle 4: 1 AP to initiate an attack)."""
    foe0 = t.models.get(target)
    if (foe0 is not None and foe0["side"] == "defender" and foe0["hp"] > 0 and not ranged
            and foe0["at"] == m["at"] and not t.enemies(m, foe0)):
        # Polis 2: players "MAY ATTEMPT TO TAKE CONTROL OF THE MANOR, BY DEFEATING THE
        # DEFENCE FORCE" (Team 3: or destroy a settlement): attacking its force is war on it
        hostile = t.state["hostile"].setdefault(foe0["home"], [])
        hostile.append(t.team_of(m))
        t.say("war", f"{t.name(m['id'])} attacks the defence force of the settlement at "
              f"{foe0['home']} (Polis 2).", model=m["id"], square=foe0["home"])
    reach = targets_in_reach(t, m, ranged)
    if not target:
        if not reach:
            return "no enemy in your square"
        target = min(reach, key=lambda i: int(i[1:]))
    if target not in t.models or t.models[target]["hp"] <= 0:
        return f"{target} is not on the map"
    if target not in reach:
        return (f"{t.name(target)} is not in your square" if not ranged else
                f"{t.name(target)} is not in range in a straight line")
    if m["ap"] < 1:
        return "no Action Points left"
    if m["effects"].get("poseidon_turn") and m.get("attacks", 0) >= 3:
        return "after praying to Poseidon only 3 combat checks this turn (Act 6)"
    foe = t.models[target]
    if foe["type"] == "giant" and foe["side"] == "monster" and m["owner"] in foe.get(
            "bought_off", []):
        return "you paid the Giant: it leaves you alone, and you it"
    use = weapon or reach[target][0]
    if ranged and use == "amazon":
        use = ""
    m["ap"] -= 1
    m["attacks"] = m.get("attacks", 0) + 1
    combat.attack(t, m, foe, ranged=ranged, weapon=use)
    return ""


def cure(t: Table, m: Model, target: str) -> str:
    """Monster Lycan: "IF A LYCAN CAN BE TEMPTED INTO AN OLYMPIAN SHRINE, WHERE A PLAYER IS,
    INSTEAD OF MAKING AN ATTACK ON IT THE PLAYER MAY MAKE A 6+ KNOWLEDGE CHECK; IF THIS IS
    PASSED THE CURSE IS LIFTED AND THE LYCAN BECOMES A FRIENDLY PLAYER-CONTROLLED ARISTOCRAT
    NPC". Ruling: it costs what the attack would (1 AP, Battle 4); the Aristocrat has the
    Monster Manual's Aristocrat stats and keeps the Lycan's wounds off (fresh health)."""
    foe = t.models.get(target)
    kind = t.c.monster(foe["type"]) if foe is not None and foe["side"] == "monster" else None
    if foe is None or kind is None or kind.cure is None or foe["hp"] <= 0:
        return f"{target} is no creature under a curse"
    if foe["at"] != m["at"]:
        return f"{t.name(target)} is not in your square"
    sq = t.square(m["at"]) or {}
    if sq.get("kind") != kind.cure.square:
        return (f"the curse lifts only in a {t.c.world.squares[kind.cure.square].name} "
                "(Monster Lycan)")
    if m["ap"] < 1:
        return "no Action Points left"
    m["ap"] -= 1
    from pbem.games.hetairos import skill

    total, shown = skill.roll(t, m, "knowledge", "cure", need=kind.cure.knowledge)
    if total < kind.cure.knowledge:
        t.say("cure", f"{t.name(m['id'])} tries to lift the {kind.name.title()}'s curse "
              f"({shown}, {kind.cure.knowledge}+ needed): it holds.", model=target,
              passed=False)
        return ""
    new = t.c.monster(kind.cure.becomes)
    old = t.name(target)
    foe.update(side="npc", owner=m["owner"], type=new.id, hp=new.hp, max_hp=new.hp,
               name=f"{m['owner']}'s {new.name.title()} (once a {kind.name.title()})",
               home="", resting=0)
    t.say("cured", f"{t.name(m['id'])} lifts the curse ({shown}): the {old} is now "
          f"{foe['name']}, under {m['owner']}'s control (Monster Lycan).", model=target,
          player=m["owner"])
    return ""


def fight_on(t: Table, m: Model, stop_at: int) -> str:
    """``fight [N]``: rounds against the enemies in the square (the first each time, 1 AP a
    round, Battle 4) until none is left, the AP run out, or the character's health is N or
    less: a fighting policy in one step, for players who want fewer round trips (analysis
    2.3)."""
    if not t.enemies_at(m):
        return "no enemy in your square"
    rounds = 0
    while t.enemies_at(m) and m["hp"] > max(stop_at, 0) and m["ap"] >= 1 and rounds < 40:
        why = fight(t, m, "", "", ranged=False)
        if why:
            return "" if rounds else why
        rounds += 1
    return ""


def buy_off(t: Table, giant: Model, pc: Model) -> bool:
    """Monster Giant: a PC whose owner stands on ``pay_giant`` and has 6 Gold pays instead of
    fighting; the Giant then leaves that player alone."""
    if not standing.of(t.state, pc["owner"])["pay_giant"]:
        return False
    price = (t.c.monster("giant").numbers or {}).get("buy_off_gold", 6)
    if pc["gold"] < price:
        return False
    t.gold(pc, -(price))
    giant.setdefault("bought_off", []).append(pc["owner"])
    t.say("bought-off", f"{t.name(pc['id'])} pays the Giant {price} Gold; it will leave "
          f"{pc['owner']} alone (Monster Giant).", player=pc["owner"], gold=price)
    return True


def remaining_text(steps: list[Step]) -> list[str]:
    return [s.text for s in steps]

"""Hetairos's order forms for one player, now, from the player's view alone.

The static forms ``orders/hetairos/{join,turn}.toml`` are all comments: sent back unchanged
they mean the default orders (the join: the first free character and the default standing
orders; a turn: no steps, the turn ends, ``Hetairos.default_orders``). With a view,
:func:`form` heads the turn form with the player's situation (round, AP, health, where the
character stands, the steps waiting after a halt) and puts, in place of the static form's
one example line, commented examples legal for that player now: a move through each way out
of his square (:func:`report.moves`), an attack on each enemy there, a shot at each enemy in
range, the checks and wares of his square, and the Krenaia's, Amazon's and Kobalos's own
steps. Every example is read back with the rules' own :func:`program.parse`; one that does
not parse is left out.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from typing import Any

from pbem.core.ruleset import PhaseSpec
from pbem.games.hetairos import grid, program, report, turn
from pbem.games.hetairos.table import Components, Model, Table

WIDTH = 78
#: The static turn form's example line, replaced by the examples legal now.
EXAMPLE_LINE = '# steps = ["move E", "attack m7"]'
MAX_EXAMPLES = 12


def wrap(text: str, first: str = "# ", rest: str = "#   ", width: int = WIDTH) -> list[str]:
    """``text`` as comment lines within ``width`` columns (broken at spaces only)."""
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def steps_line(steps: list[str]) -> str:
    return "# steps = " + json.dumps(steps, ensure_ascii=False)


def parses(c: Components, steps: list[str], scenario: str = "") -> bool:
    return not program.parse(c, {"steps": steps}, scenario)[2]


def situation(c: Components, view: Mapping[str, Any], player: str, m: Model | None
              ) -> list[str]:
    """What the player needs in view while he writes his program."""
    r = view.get("round", 1)
    if m is None:
        return [f"Round {r}: your character is dead; "
                + ("a new one comes at the start of your turn." if view.get("death") ==
                   "replace" else "you are out of the game.")]
    out = [f"Round {r}, your turn: {m['name']} ({m['id']}) at "
           f"{report.where(m)}: {m['ap']} AP, HP {m['hp']}/"
           f"{m['max_hp']}, Gold {m.get('gold', 0)}, Kleos {m.get('kleos', 0)}."]
    items = list(m.get("items", []))
    if items:
        out.append("You carry: " + ", ".join(items) + ".")
    if view.get("cont"):
        pending = list(view.get("pending", []))
        out.append(f"Your program halted ({view.get('halted', '')}). The steps that were "
                   "waiting: " + (json.dumps(pending, ensure_ascii=False) if pending else
                                  "none") + ". Give them again (or others) to go on.")
    return out


def _example(c: Components, note: str, steps: list[str], scenario: str = "") -> list[str]:
    if not parses(c, steps, scenario):
        return []
    return [*wrap(note), steps_line(steps)]


def examples(c: Components, t: Table, view: Mapping[str, Any], player: str
             ) -> list[list[str]]:
    """Each example (its comment lines and one ``# steps = [...]`` line), legal now (``t``:
    :func:`turn.preview` of the view)."""
    m = t.pc(player)
    if m is None:
        return []
    out: list[list[str]] = []

    scen = str(view.get("scenario", ""))

    def add(note: str, steps: list[str]) -> None:
        lines = _example(c, note, steps, scen)
        if lines and len(out) < MAX_EXAMPLES:
            out.append(lines)

    if scen:  # the scenario's own steps legal now first (its goal is why one plays)
        from pbem.games.hetairos import scenarios

        for note, steps in scenarios.get(scen).form_examples(t, m):
            add(note, steps)

    pending = list(view.get("pending", [])) if view.get("cont") else []
    if pending:
        add("Go on with the steps that were waiting:", pending)
    stuck = m.get("stuck", "")
    if stuck == "pit":
        add("Climb out of the pit (Trap 4), twice if need be:", ["climb", "climb"])
    elif stuck == "daedalus":
        add("Escape the Room of Daedalus (Trap 6):", ["escape", "escape"])
    foes = t.enemies_at(m)
    for o in foes[:3]:
        add(f"Fight {o['name']} ({o['id']}, HP {o['hp']}) in your square, two rounds "
            "(1 AP each, Battle 4):", [f"attack {o['id']}", f"attack {o['id']}"])
    for mid, (weapon, dist) in list(turn.targets_in_reach(t, m, ranged=True).items())[:2]:
        w = f" with {weapon}" if weapon and weapon != "amazon" else ""
        add(f"Shoot {t.name(mid)} ({mid}), {dist} square(s) away (1 AP):",
            [f"shoot {mid}{w}"])
    for d in grid.DIRS:
        if turn.leave_problem(t, m, d):
            continue
        k = grid.neighbour(m["at"], d)
        sq = t.square(k)
        if sq is None:
            add(f"Explore {k}, {grid.NAMES[d]} of you (1 AP, Explore 0-7):", [f"move {d}"])
            continue
        kind = c.world.squares[sq["kind"]]
        if not kind.passable or not grid.can_enter(sq, d) or (
                sq["kind"] == "small_tunnel" and not c.character(m["type"]).small_tunnels):
            continue
        path, end = _corridor(t, m, d)
        there = c.world.squares[(t.square(end) or sq)["kind"]].name.lower()
        foes_there = t.enemies_at(m, end)
        stop = (" enemies there (" + ", ".join(o["id"] for o in foes_there) + ") stop you "
                "(Battle 1)") if foes_there else ""
        add(f"Go {grid.NAMES[d]} to {end} ({there}){stop}:" if len(path) > 1 else
            f"Go {grid.NAMES[d]} to {k} ({kind.name.lower()}, {kind.move_cost} AP){stop}:",
            ["move " + " ".join(path)])
    here = t.square(m["at"]) or {}
    kind_id = str(here.get("kind", ""))
    for ch in c.people.checks_at(kind_id)[:3]:
        step = _check_step(ch.id)
        add(f"{ch.text.capitalize()} ({ch.skill} check, 2 AP, Skill 1):", [step])
    prices = c.people.prices.get(kind_id, {})
    for ware, price in prices.items():
        if price.gold <= int(m.get("gold", 0)) and ware != "healing":
            add(f"Buy {report.ware_name(c, ware)} for {price.gold} Gold:", [f"buy {ware}"])
            break
    if prices and m.get("prisoners"):
        add("Sell your prisoners here:", ["sell prisoners"])
    if kind_id == "magic_spring" and m["hp"] < m["max_hp"]:
        add("Drink from the spring: 2 AP for 1 health (Spring 1):", ["spring"])
    ch_ = c.character(m["type"])
    if ch_.ability("free_heal") and m["hp"] < m["max_hp"] and not foes:
        add("Heal yourself 1 health, free (PC Krenaia 1):", ["heal"])
    if ch_.ability("observe"):
        for d in grid.DIRS:
            k = grid.neighbour(m["at"], d)
            if t.square(k) is None and grid.can_leave(t.square(m["at"]), m["at"], d,
                                                      m.get("bank", "")):
                add(f"Look into {k} without moving (free, once a turn, PC Amazon 2):",
                    [f"observe {d}"])
                break
    if ch_.ability("sneak"):
        for d in grid.DIRS:
            k = grid.neighbour(m["at"], d)
            if t.square(k) is not None and t.enemies_at(m, k) and \
                    not turn.leave_problem(t, m, d):
                add(f"Slip into {k} past the enemies there (4+, 1 AP, PC Kobalos 1):",
                    [f"sneak {d}"])
                break
    return out


def _corridor(t: Table, m: Model, d: str) -> tuple[list[str], str]:
    """``d``, then on along drawn squares while the way is a plain passage with one way on
    (a tunnel), as far as the AP left go: the directions and the square it ends on."""
    path = [d]
    k = grid.neighbour(m["at"], d)
    cost = t.c.world.squares[(t.square(k) or {"kind": "tunnel"})["kind"]].move_cost
    came = d
    while len(path) < 6:
        sq = t.square(k)
        if sq is None or sq["kind"] not in ("tunnel", "small_tunnel") or t.enemies_at(m, k):
            break
        ways = [x for x in grid.DIRS if x != grid.opposite(came) and x in sq.get("open", "")]
        if len(ways) != 1:
            break
        nxt = grid.neighbour(k, ways[0])
        there = t.square(nxt)
        if there is None or not grid.can_enter(there, ways[0]):
            break
        kind = t.c.world.squares[there["kind"]]
        if not kind.passable or cost + kind.move_cost > m["ap"] or there["kind"] == "styx":
            break
        if there["kind"] == "small_tunnel" and not t.c.character(m["type"]).small_tunnels:
            break
        cost += kind.move_cost
        path.append(ways[0])
        came, k = ways[0], nxt
    return path, k


def _check_step(check_id: str) -> str:
    if check_id.startswith("know_pray_to_"):
        return "pray " + check_id.removeprefix("know_pray_to_")
    verb, what = check_id.split("_", 1)
    return f"{verb} {what}"


def form(c: Components, text: str, view: Mapping[str, Any], phase: PhaseSpec,
         player: str) -> str:
    """The form ``text`` (``orders/hetairos/<kind>.toml``) for ``player`` now."""
    if phase.kind != "turn" or not text or not view or view.get("game_over") \
            or player not in view.get("seats", ()):
        return text
    t = turn.preview(c, view, player)
    m = t.pc(player)
    head = [line for part in situation(c, view, player, m) for line in wrap(part)]
    found = examples(c, t, view, player)
    if found:
        block = wrap("Examples legal for you now (copy one, take away the \"# \", or "
                     "join their steps in one list):")
        for ex in found:
            block += ["#", *ex]
    else:
        block = wrap("No step example now: " + ("your character is dead." if m is None
                                                 else "nothing you can do from here."))
        block.append(EXAMPLE_LINE)
    body = text.replace(EXAMPLE_LINE, "\n".join(block), 1) if EXAMPLE_LINE in text else \
        text.rstrip("\n") + "\n\n" + "\n".join(block) + "\n"
    return "\n".join(head) + "\n\n" + body

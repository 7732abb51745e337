"""A player's turn by email: a program of steps, each one line of words (analysis 2.3).

``steps = ["move E", "move N N", "attack m7 with axe", "craft axe"]`` and ``halt = ["discovery",
"enemy", "trap", "wound", "skip"]``. This module reads and checks the words; :mod:`turn` runs
them. Verbs, their words and AP (MOVEMENT AND THE MAP, TO BATTLE!, TUNNELLING, SKILL CHECKS):

====================  =================================================================
``move E [N ...]``    one square per letter (N, E, S, W); 1 AP, 2 into a small tunnel
``sneak E``           Kobalos: a 4+ check to slip into an enemy square (1 AP)
``observe E``         Amazon: look into an unexplored neighbour, once a turn, free
``attack [ID] [with WEAPON]``  a round against an enemy in your square (1 AP)
``shoot ID [with WEAPON]``     a round at range: bow, sling, Amazon, Bow of Artemis (1 AP)
``craft X`` ``know X`` ``pray GOD``  a check where you stand (2 AP)
``dig through|enlarge|collapse|pit|surface [DIR]``  tunnelling (2 or 4 AP; a pickaxe)
``buy X`` ``sell X|prisoners`` ``citizen gold|prisoner`` ``income`` ``hire gold|knowledge``
``spring`` ``heal [ID] [paid]`` ``use ITEM [ARG]`` ``give ITEM PLAYER`` ``climb`` ``escape``
``retire CHARACTER`` ``boot PLAYER`` (Polis 6) ``end``
====================  =================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from pbem.core.errors import Problem
from pbem.games.hetairos.table import Components

HALTS = ("discovery", "enemy", "trap", "wound", "skip")
DEFAULT_HALTS = list(HALTS)
_LOW = re.compile(r"low_hp:(\d{1,2})")
MAX_STEPS = 40
MAX_SQUARES = 20  # the most AP a turn can give: a Centaur with the Trident, praying to Poseidon
DIG_KINDS = ("through", "enlarge", "collapse", "pit", "surface")
GODS = ("ares", "athena", "hephaestus", "poseidon", "zeus")
VERBS = ("move", "sneak", "observe", "attack", "fight", "shoot", "craft", "know", "pray", "dig",
         "buy", "sell", "citizen", "income", "hire", "spring", "heal", "use", "give", "climb",
         "escape", "retire", "boot", "cure", "station", "end")
EXAMPLES = {
    "move": "move E", "sneak": "sneak E", "observe": "observe E", "attack": "attack m7",
    "fight": "fight 3",
    "shoot": "shoot m7 with bow", "craft": "craft axe", "know": "know great_book",
    "pray": "pray ares", "dig": "dig through E", "buy": "buy spear",
    "sell": "sell prisoners", "citizen": "citizen gold", "income": "income",
    "hire": "hire gold", "spring": "spring", "heal": "heal", "use": "use cornucopia gold",
    "give": "give axe bob", "climb": "climb", "escape": "escape", "retire": "retire hoplite",
    "boot": "boot bob", "cure": "cure m7", "station": "station m9",
    "end": "end",
}
_MODEL = re.compile(r"m\d{1,6}")
_SQUARE = re.compile(r"-?\d{1,4},-?\d{1,4}")


@dataclass(frozen=True)
class Step:
    verb: str
    args: tuple[str, ...]
    text: str
    index: int = 0  # its place in the order's list (steps[index], from 1)

    @property
    def dirs(self) -> str:
        return "".join(self.args)


def _dirs(words: list[str]) -> str | None:
    letters = "".join(w.upper() for w in words)
    return letters if letters and all(ch in "NESW" for ch in letters) else None


def parse_step(c: Components, text: str, scenario: str = "") -> tuple[Step | None, str]:
    """One step and the reason it cannot be read ("" when it can); ``scenario`` (a data id)
    adds that scenario's own steps."""
    words = text.split()
    if not words:
        return None, "an empty step"
    verb, args = words[0].lower(), words[1:]
    if verb not in VERBS:
        extra = _scenario_verbs(scenario)
        if verb in extra and len(words) <= 8:
            why = extra[verb].parse_step(verb, tuple(args))
            return (None, why) if why else (Step(verb, tuple(args), text), "")
        return None, f"no step {verb!r}"
    if verb in ("move",):
        d = _dirs(args)
        if d is None:
            return None, "move takes directions N, E, S or W, e.g. 'move E' or 'move N N E'"
        if len(d) > MAX_SQUARES:
            return None, (f"a move of {len(d)} squares; at most {MAX_SQUARES} (no character has "
                          "more Action Points)")
        return Step(verb, tuple(d), text), ""
    if verb in ("sneak", "observe"):
        d = _dirs(args)
        if d is None or len(d) != 1:
            return None, f"{verb} takes one direction, e.g. '{verb} E'"
        return Step(verb, (d,), text), ""
    if verb in ("attack", "shoot"):
        weapon = ""
        if "with" in args:
            i = args.index("with")
            weapon = " ".join(args[i + 1:]).lower()
            args = args[:i]
            if not weapon:
                return None, f"'{verb} ... with' names a weapon"
            if weapon not in c.people.weapons and weapon not in ("trident", "bow_of_artemis"):
                return None, f"no weapon {weapon!r}"
        if len(args) > 1 or (args and not _MODEL.fullmatch(args[0])):
            return None, f"{verb} takes a model id like m7 (see your report)"
        if verb == "shoot" and not args:
            return None, "shoot names its target, e.g. 'shoot m7'"
        return Step(verb, (args[0] if args else "", weapon), text), ""
    if verb == "fight":
        if len(args) > 1 or (args and not (args[0].isdigit() and int(args[0]) <= 20)):
            return None, ("fight takes at most one number, the health at which you stop, "
                          "e.g. 'fight 3'")
        return Step(verb, (args[0] if args else "0",), text), ""
    if verb in ("craft", "know"):
        if len(args) != 1:
            return None, f"{verb} takes one thing to make, e.g. '{EXAMPLES[verb]}'"
        check = f"{verb}_{args[0].lower()}"
        if check not in c.people.checks:
            known = sorted(k.split("_", 1)[1] for k in c.people.checks if k.startswith(verb + "_"))
            return None, f"no {verb} check {args[0]!r}; known: {', '.join(known)}"
        return Step(verb, (check,), text), ""
    if verb == "pray":
        if len(args) != 1 or args[0].lower() not in GODS:
            return None, "pray to one of " + ", ".join(GODS)
        return Step(verb, (f"know_pray_to_{args[0].lower()}",), text), ""
    if verb == "dig":
        if not args or args[0].lower() not in DIG_KINDS:
            return None, "dig " + "|".join(DIG_KINDS) + " [direction]"
        d = _dirs(args[1:]) if args[1:] else ""
        if d is None or len(d) > 1:
            return None, "dig takes at most one direction, e.g. 'dig through E'"
        if args[0].lower() == "through" and not d:
            return None, "dig through needs a direction, e.g. 'dig through E'"
        return Step(verb, (args[0].lower(), d), text), ""
    if verb in ("buy", "sell"):
        if len(args) != 1:
            return None, f"{verb} takes one thing, e.g. '{EXAMPLES[verb]}'"
        what = args[0].lower()
        if (what != "prisoners" or verb == "buy") and c.people.ware(what) is None:
            return None, f"no ware {what!r}"
        return Step(verb, (what,), text), ""
    if verb in ("citizen", "hire"):
        choices = ("gold", "prisoner") if verb == "citizen" else ("gold", "knowledge")
        if len(args) != 1 or args[0].lower() not in choices:
            return None, f"{verb} takes one of " + ", ".join(choices)
        return Step(verb, (args[0].lower(),), text), ""
    if verb == "heal":
        paid = bool(args) and args[-1].lower() == "paid"
        rest = args[:-1] if paid else args
        if len(rest) > 1 or (rest and not _MODEL.fullmatch(rest[0])):
            return None, "heal [model id] [paid], e.g. 'heal' or 'heal m3 paid'"
        return Step(verb, (rest[0] if rest else "", "paid" if paid else ""), text), ""
    if verb == "use":
        if not args or len(args) > 2:
            return None, "use ITEM [what], e.g. 'use cornucopia gold'"
        if c.people.ware(args[0].lower()) is None:
            return None, f"no item {args[0]!r}"
        return Step(verb, (args[0].lower(), args[1] if len(args) > 1 else ""), text), ""
    if verb == "station":
        if len(args) != 1 or not _MODEL.fullmatch(args[0]):
            return None, "station takes your NPC's id, e.g. 'station m9' (Community 3)"
        return Step(verb, (args[0],), text), ""
    if verb == "cure":
        if len(args) != 1 or not _MODEL.fullmatch(args[0]):
            return None, "cure takes the Lycan's id, e.g. 'cure m7' (Monster Lycan)"
        return Step(verb, (args[0],), text), ""
    if verb == "boot":
        if len(args) != 1:
            return None, "boot PLAYER, e.g. 'boot bob' (Polis 6: the citizens vote)"
        return Step(verb, (args[0],), text), ""
    if verb == "give":
        if len(args) != 2:
            return None, "give ITEM PLAYER, e.g. 'give axe bob'"
        return Step(verb, (args[0].lower(), args[1]), text), ""
    if verb == "retire":
        if len(args) != 1 or args[0].lower() not in c.people.characters:
            return None, "retire takes the new character, one of " + ", ".join(
                c.people.characters)
        return Step(verb, (args[0].lower(),), text), ""
    if args:
        return None, f"{verb} takes no words after it"
    return Step(verb, (), text), ""


def _scenario_verbs(scenario: str) -> dict[str, Any]:
    if not scenario:
        return {}
    from pbem.games.hetairos import scenarios

    rules = scenarios.get(scenario)
    return dict.fromkeys(rules.verbs, rules)


def examples(scenario: str = "") -> dict[str, str]:
    """Each step's example line, the scenario's own steps included."""
    out = dict(EXAMPLES)
    if scenario:
        from pbem.games.hetairos import scenarios

        out.update(scenarios.get(scenario).verbs)
    return out


def parse(c: Components, orders: dict[str, Any], scenario: str = ""
          ) -> tuple[list[Step], list[str], list[Problem]]:
    """The steps, the halts and every problem of a turn order's ``steps`` and ``halt``
    (``scenario``: the data id whose own steps are allowed too)."""
    problems: list[Problem] = []
    steps: list[Step] = []
    raw = orders.get("steps", [])
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        problems.append(Problem("[orders] steps", "steps is a list of strings",
                                'e.g. steps = ["move E", "attack"]'))
        raw = []
    if len(raw) > MAX_STEPS:
        problems.append(Problem("[orders] steps", f"{len(raw)} steps; at most {MAX_STEPS}",
                                "send the rest in your next turn"))
        raw = raw[:MAX_STEPS]
    known = examples(scenario)
    for i, text in enumerate(raw, 1):
        step, why = parse_step(c, text, scenario)
        if step is None:
            verb = text.split()[0].lower() if text.split() else ""
            hint = (f"e.g. '{known[verb]}'" if verb in known else
                    "steps: " + ", ".join(known))
            problems.append(Problem(f"[orders] steps[{i}] {text!r}", why, hint))
        else:
            steps.append(replace(step, index=i))
    halts = orders.get("halt", DEFAULT_HALTS)
    if not isinstance(halts, list) or not all(isinstance(h, str) for h in halts):
        problems.append(Problem("[orders] halt", "halt is a list of strings",
                                'e.g. halt = ["discovery", "enemy", "trap", "wound"]'))
        halts = DEFAULT_HALTS
    for h in halts:
        if h not in HALTS and not _LOW.fullmatch(h):
            problems.append(Problem(f"[orders] halt {h!r}", "not a halt",
                                    "halts: " + ", ".join(HALTS) + ", low_hp:N"))
    return steps, list(halts), problems


def low_hp(halts: list[str]) -> int:
    """The HP at or below which the program halts (0: never)."""
    found = [int(m[1]) for h in halts if (m := _LOW.fullmatch(h))]
    return max(found, default=0)

"""Issue 17, the order forms: "Examples must be legal for this player, now."

Whole bot games (2, 3 and 4 players) are played at the ruleset level (``RULESET.setup`` with
an ``Rng`` of two streams, then ``next_phase`` / ``bot_orders`` / ``resolve``) and, at every
phase, each actor's form is rendered from his own view; then:

- every commented example (each paragraph's ``# [[orders.x]]`` tables and ``# key = value``
  lines), uncommented on its own under the form's active lines, passes ``turn.review`` on the
  GM's state with no problem, and ``pbem check``'s schema of the static form; an example that
  says ``# Needs rotation = N`` passes with the rotation line set to N (and only then is the
  rotation not 0);
- an example that is not there says why (``# No <kind> example now: ...``);
- the form sent back unchanged means the NMR default (sail: no orders; kylix: rotation 0,
  the Card die's draw and the reclaim: the same plan as no orders);
- every line fits 78 columns (the static forms: 72).
"""

from __future__ import annotations

import copy
import hashlib
import re
import tomllib
from collections import Counter
from functools import cache
from typing import Any

from pbem.core import formcheck
from pbem.core.dice import Rng, Stream
from pbem.core.resources import order_form_text
from pbem.core.ruleset import JOIN_PHASE, PhaseSpec, copy_state
from pbem.games.deukalion import forms, kylix, turn
from pbem.games.deukalion.components import load
from pbem.games.deukalion.game import RULESET

C = load()
NAMES = ("alice", "bob", "carol", "dave")
GAMES = ((2, "a"), (3, "c"), (4, "d"))
STATIC = {k: order_form_text("deukalion", k) for k in ("join", "sail", "kylix")}
SAIL_KINDS = ("deliver", "styx", "found", "challenge_city", "challenge_ship", "challenge_hydra",
              "cards", "reach", "retrieve2", "choices")
KYLIX_KINDS = ("card", "reclaim", "play", "hydra", "attack", "ship", "ending", "choices")
_LINE = re.compile(r"# (\[\[?orders\.[a-z_]+\]\]?|[a-z_]+ = .*|\s+# .*)")
_TABLE = re.compile(r"# \[\[?orders\.[a-z_]+\]\]?")


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"deukalion-forms/{label}".encode()).digest())


def rng(label: str) -> Rng:
    return Rng(stream(f"public/{label}"), stream(f"sealed/{label}"))


@cache
def play(players: int, seed: str) -> list[tuple[PhaseSpec, dict[str, Any]]]:
    """A whole bot game: (phase, the GM state the orders were given in) of every phase."""
    names = NAMES[:players]
    state = RULESET.setup(names, {}, {}, rng(f"{seed}/setup")).state
    out = []
    while (phase := RULESET.next_phase(state)) is not None:
        out.append((phase, copy_state(state)))
        orders = {p: RULESET.bot_orders(RULESET.view(state, p), phase, p,
                                        stream(f"{seed}/{phase.id}/{p}")) for p in phase.actors}
        state = RULESET.resolve(state, phase, orders, rng(f"{seed}/{phase.id}")).state
    assert state["step"] == "over"
    return out


@cache
def forms_of_games() -> list[tuple[PhaseSpec, str, dict[str, Any], str]]:
    return [(phase, p, state, RULESET.order_form(RULESET.view(state, p), phase, p))
            for players, seed in GAMES for phase, state in play(players, seed)
            for p in phase.actors]


def examples(form: str) -> list[tuple[str, int, str]]:
    """(kind, rotation, TOML) of each commented example: the example lines of a paragraph,
    uncommented; its kind from the paragraph's prose (forms' own reading), its rotation from
    a ``# Needs rotation = N`` line (else 0)."""
    out = []
    for para in form.split("\n\n"):
        lines = para.split("\n")
        if not any(_TABLE.fullmatch(x) for x in lines):
            continue
        kind = (forms._title_kind if "rotation = 0" in form else forms._goal_kind)(lines)
        needs = [int(m.group(1)) for m in map(forms.NEEDS_RE.match, lines) if m]
        body = [x[2:] for x in lines if _LINE.fullmatch(x)]
        out.append((kind, needs[0] if needs else 0, "\n".join(body)))
    return out


def parse(form: str) -> dict[str, Any]:
    """The orders the form means (the form is the body of ``[orders]``)."""
    return dict(tomllib.loads("[orders]\n" + form)["orders"])


def test_every_example_is_legal_now_and_the_unchanged_form_means_the_default() -> None:
    schema = {k: formcheck.schema(STATIC[k]) for k in ("sail", "kylix")}
    seen: Counter[str] = Counter()
    for phase, player, state, form in forms_of_games():
        where = (phase.id, player)
        assert max(map(len, form.split("\n"))) <= forms.WIDTH, where
        unchanged = parse(form)
        if phase.kind == "sail":
            assert unchanged == RULESET.default_orders(state, phase, player) == {}, where
        else:  # rotation 0, the Card die's draw, the reclaim: the plan of no orders
            assert unchanged == {"rotation": 0}, where
            assert kylix.plan_kylix(C, state, player, unchanged)[0] == kylix.plan_kylix(
                C, state, player, {})[0], where
        assert turn.review(C, state, phase.kind, player, unchanged)[0] == [], where
        found = examples(form)
        kinds = [k for k, _, _ in found]
        for kind in SAIL_KINDS if phase.kind == "sail" else KYLIX_KINDS:
            assert (kinds.count(kind) == 1) != (f"# No {kind} example now: " in form), \
                (where, kind)
        for kind, rotation, text in found:
            orders = tomllib.loads(text)["orders"]
            if phase.kind == "kylix" and kind != "choices":
                assert rotation == 0 or kind in ("attack", "ending"), (where, kind)
                orders["rotation"] = rotation
            problems = turn.review(C, state, phase.kind, player, orders)[0]
            assert problems == [], (where, text, problems)
            assert formcheck._check_table(orders, schema[phase.kind], "orders",
                                          phase.kind) == [], (where, text)
            if kind in ("hydra", "attack"):  # the attack ends on a ship, the move does not
                end = orders["step"][0]["path"][-1]
                assert (kylix.hydra_victim(state, player, end) != "") == (kind == "attack")
            if kind == "ending":  # it ends in something, by its square or its then
                step = orders["step"][0]
                assert "then" in step or kylix.ending(C, state, player, step["path"])
            seen[kind] += 1
            seen[f"rotation {rotation}"] += 1
    # (the Styx and the Hydra's challenge: test_the_styx_and_the_hydra_in_reach_...)
    assert all(seen[k] for k in (*SAIL_KINDS, *KYLIX_KINDS)
               if k not in ("styx", "challenge_hydra")), seen
    assert seen["rotation 1"] + seen["rotation 2"] + seen["rotation 3"], seen


def test_the_form_heads_the_static_prose_with_the_situation() -> None:
    _, player, state, form = next(x for x in forms_of_games()
                                  if x[0].kind == "kylix" and x[2]["turn"] > 6)
    head, _, body = form.partition("\n\n# Your turn (Round 5-7)")
    prose = [x for x in STATIC["kylix"].split("\n") if x and not _LINE.fullmatch(x)]
    rest = iter(("# Your turn (Round 5-7)" + body).split("\n"))
    assert all(any(x == y for y in rest) for x in prose)  # in order
    flat = " ".join(line[1:].strip() for line in head.split("\n"))
    assert f"Turn {state['turn']}: {player} is the active player" in flat
    for r in range(4):  # the four turns of the cup and what each gives
        assert f"rotation {r}: " + forms.dice_text(kylix.assignment(state["kylix"], r)) in flat
    assert f"Your ship is on {state['ships'][player]}" in flat
    assert f"Underworld: {state['underworld'][player]}." in flat
    for card in state["hands"][player]:
        assert f"{C.actions[card].name} ({card}): {C.actions[card].text}" in flat
    for other in state["seats"]:
        if other != player:
            assert f"{other} on {state['ships'][other]}:" in flat
    assert f"The Hydra is on {state['hydra']}." in flat
    # Sent back unchanged the form is the static form's meaning; a sailor's form says what
    # he sails by.
    _, player, state, form = next(x for x in forms_of_games() if x[0].kind == "sail")
    assert f"centre die {state['kylix']['centre']}" in form


def test_a_ship_ending_out_of_reach_with_rotation_0_names_the_rotation_it_needs() -> None:
    phase, player, state, _ = next(x for x in forms_of_games() if x[0].kind == "kylix")
    s = copy.deepcopy(state)
    s["kylix"] = {"centre": 2, "slots": [1, 1, 1, 3]}  # Move 1 at rotation 0, 3 at rotation 2
    b = C.board
    hydra = b.hydra_start
    here, free = next((sq, [x]) for sq in sorted(b.squares) for x in sorted(b.settlements)
                      if b.squares[sq].kind == "water" and sq != hydra and min(
                          b.distances(sq).get(a, 9) for a in b.approaches(x)) == 3)
    for x in s["settlements"]:
        s["settlements"][x] = {"owner": "" if x == free[0] else player, "hoplites": 0}
    s["chests"] = {city: [] for city in s["chests"]}  # nothing else to challenge
    s["board"][player] = {"hoplites": 10, "chests": []}
    s["underworld"][player] = s["placed"][player] = 0
    s["hydra"] = hydra
    for i, other in enumerate(s["seats"]):
        s["ships"][other] = b.anchors[i]
    s["ships"][player] = here
    form = RULESET.order_form(RULESET.view(s, player), phase, player)
    ((rotation, text),) = [(r, t) for k, r, t in examples(form) if k == "ending"]
    assert rotation == 2 and "# Needs rotation = 2 (Hoplites 1, Move 3," in form
    step = tomllib.loads(text)["orders"]["step"][0]
    assert step["then"] == "found" and step["target"] == free[0] and len(step["path"]) == 3
    assert turn.review(C, s, "kylix", player, {"rotation": 2, "step": [step]})[0] == []
    assert turn.review(C, s, "kylix", player, {"rotation": 0, "step": [step]})[0] != []


def test_a_sailor_without_chests_or_underworld_gets_the_reasons() -> None:
    phase, player, state, _ = next(x for x in forms_of_games() if x[0].kind == "sail")
    s = copy.deepcopy(state)
    s["placed"][player] += s["underworld"][player]  # keep the hoplites' count (Sail 1)
    s["underworld"][player] = 0
    for chest in s["board"][player]["chests"]:
        s["chests"]["rhodes"].append(chest)
    s["board"][player]["chests"] = []
    form = RULESET.order_form(RULESET.view(s, player), phase, player)
    assert "# No deliver example now: you carry no treasure chest." in form
    assert f"# No retrieve2 example now: {player} has no hoplite" not in form
    assert "# No retrieve2 example now: you have no hoplite in the Underworld." in form
    assert parse(form) == {}


def test_the_styx_and_the_hydra_in_reach_give_their_sail_examples() -> None:
    phase, player, state, _ = next(x for x in forms_of_games() if x[0].kind == "sail")
    s = copy.deepcopy(state)
    b = C.board
    s["kylix"]["centre"] = 3
    near = sorted(sq for sq, d in forms.distances(C, b.styx[0]).items()
                  if d == 2 and b.squares[sq].kind == "water")
    s["ships"] = {p: b.anchors[i] for i, p in enumerate(s["seats"])}
    s["ships"][player] = near[0]
    hydra = next(sq for sq in b.neighbours(near[0]) if b.hydra_water(sq))
    s["hydra"] = hydra
    form = RULESET.order_form(RULESET.view(s, player), phase, player)
    found = {k: tomllib.loads(t)["orders"] for k, _, t in examples(form)}
    assert found["styx"] == {"plan": [{"goal": "styx"}]}
    assert "# No challenge_hydra example now: no \"Defeat the Hydra\" card is on display" \
        in form
    s["display"][0] = next(x for x in C.pursuits if C.pursuits[x].hydra)  # Challenge Hydra 0
    form = RULESET.order_form(RULESET.view(s, player), phase, player)
    found = {k: tomllib.loads(t)["orders"] for k, _, t in examples(form)}
    assert found["challenge_hydra"] == {"plan": [{"goal": "challenge_hydra"}]}
    assert "# goal = \"challenge_hydra\"   # enter its square: 1 square now" in form


def test_the_static_forms_mean_the_defaults_and_fit_72_columns() -> None:
    for text in STATIC.values():
        assert max(map(len, text.split("\n"))) <= 72
    assert tomllib.loads(STATIC["join"]) == tomllib.loads(STATIC["sail"]) == {}
    assert tomllib.loads(STATIC["kylix"]) == {"rotation": 0}
    join = PhaseSpec(JOIN_PHASE, "join", ("alice", "bob"), sealed=True)
    assert RULESET.order_form({}, join, "alice") == STATIC["join"]
    # pbem check reads every key the rules take from the static forms (keys before tables).
    sail, kyl = formcheck.schema(STATIC["sail"]), formcheck.schema(STATIC["kylix"])
    assert set(sail.keys) == set() and set(sail.tables) == {"plan", "choices"}
    assert set(sail.tables["plan"].keys) == {"goal", "target", "cards"}
    assert set(kyl.keys) == {"rotation"} and set(kyl.tables) == {"step", "choices"}
    assert set(kyl.tables["step"].keys) == set().union(*kylix.KEYS.values())
    for schema in (sail, kyl, formcheck.schema(STATIC["join"])):
        assert set(schema.tables["choices"].keys) == {"steal", "push", "hydra_to",
                                                      "return_to", "dump"}

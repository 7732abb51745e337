"""Issue 14 for the Basic Game: "Examples must be legal for this player, now."

Whole bot games (2, 3 and 10 players, :func:`test_bot.play`) are replayed and, at every Player
Turn, the active player's form is rendered from his view; then:

- every commented example (each paragraph's commented tables and keys: a move; a move and a
  fight; a move and a capture; allies; a defence policy), uncommented on its own under the
  form's active god line, passes ``turn.plan`` on the GM's state with no problem, and
  ``pbem check``'s schema of the static form;
- an example that is not there says why ("No capture example now: ...");
- the form sent back unchanged means the default (Basic Move 7: the god to the free Area with
  most of the player's units, nothing moves), and keeps the static form's prose;
- every line fits 78 columns (the static forms: 72).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from functools import cache
from typing import Any

from pbem.core import formcheck
from pbem.core.resources import order_form_text
from pbem.core.ruleset import JOIN_PHASE, PhaseSpec
from pbem.games.mythology.basic import defence, forms, turn
from pbem.games.mythology.basic.game import RULESET
from pbem.games.mythology.basic.setup import HEROES

from .test_bot import GAMES, TURN, C, arranged, play

STATIC = order_form_text("mythology-basic", "turn")
JOIN = order_form_text("mythology-basic", "join")
KINDS = ("allies", "move", "fight", "capture", "defend")
_LINE = re.compile(r"# (\[\[?orders\.[a-z_]+\]\]?|[a-z_]+ = .*|\s+# .*)")
_TABLE = re.compile(r"# \[\[?orders\.([a-z_]+)\]\]?")
_KEY = re.compile(r"# ([a-z_]+) = .*")


def examples(form: str) -> list[tuple[str, str]]:
    """(kind, TOML) of each commented example of ``form``: the example lines of a paragraph
    (``# [[orders.x]]``, ``# key = value``, ``#   # comment``), uncommented; its kind is its
    last table, or its first key above any table."""
    out = []
    for para in form.split("\n\n"):
        lines = [x for x in para.split("\n") if _LINE.fullmatch(x)]
        tables = [m.group(1) for m in map(_TABLE.fullmatch, lines) if m]
        keys = [m.group(1) for m in map(_KEY.fullmatch, lines) if m]
        if keys:
            out.append((tables[-1] if tables else keys[0], "\n".join(x[2:] for x in lines)))
    return out


def god_line(form: str) -> str:
    (line,) = [x for x in form.split("\n") if x.startswith("god = ")]
    return line


def parse(form: str, example: str = "") -> dict[str, Any]:
    """The orders the form means, with ``example`` uncommented (as the envelope reads them:
    the form is the body of ``[orders]``)."""
    body = form if not example else god_line(form) + "\n" + example
    return dict(tomllib.loads("[orders]\n" + body)["orders"])


@cache
def forms_of_games() -> list[tuple[PhaseSpec, str, dict[str, Any], str]]:
    out = []
    for players, seed in GAMES:
        for phase, player, state in play(players, seed).before:
            view = RULESET.view(state, player)
            out.append((phase, player, state, RULESET.order_form(view, phase, player)))
    return out


def test_every_example_is_legal_now_and_the_unchanged_form_means_the_default() -> None:
    schema = formcheck.schema(STATIC)
    seen: Counter[str] = Counter()
    for phase, player, state, form in forms_of_games():
        where = (phase.id, player)
        assert max(map(len, form.split("\n"))) <= 78, where
        assert parse(form) == RULESET.default_orders(state, phase, player), where
        found = examples(form)
        kinds = [k for k, _ in found]
        for kind in KINDS:  # each example is there, or a comment says why not
            assert (kind in kinds) != (f"# No {kind} example now: " in form), (where, kind)
        for kind, text in found:
            orders = parse(form, text)
            plan, problems, _ = turn.plan(C, state, player, orders)
            assert problems == [], (where, text, problems)
            assert formcheck._check_table(orders, schema, "orders", "turn") == [], (where, text)
            if kind == "fight":  # the move attacks, and the unit moved in fights
                assert plan.moves[0].attacks and plan.fights[0].attacker == plan.moves[0].unit
            if kind == "capture":  # the Hero moved onto a Prize tries it
                assert plan.captures[0].unit == plan.moves[0].unit
            seen[kind] += 1
        if state["favour"][player] != HEROES:
            assert "capture" not in kinds and "(Basic Capture 7)" in form, where
    total = sum(len(play(p, s).before) for p, s in GAMES)
    assert seen["move"] >= total * 3 // 4 and seen["defend"] == total, seen
    assert seen["fight"] >= total // 2 and seen["capture"] >= 10 and seen["allies"] >= 10, seen


def test_the_form_keeps_the_static_prose_and_heads_it_with_the_situation() -> None:
    _, player, state, form = forms_of_games()[5]
    view = RULESET.view(state, player)
    head, _, body = form.partition("\n\n# Your Player Turn")
    prose = [x for x in STATIC.split("\n") if x and not _LINE.fullmatch(x)
             and not x.startswith("god = ")]
    rest = iter(("# Your Player Turn" + body).split("\n"))
    assert all(any(x == y for y in rest) for x in prose)  # in order
    flat = " ".join(line[1:].strip() for line in head.split("\n"))  # the lines unwrapped
    god = C.gods[view["gods"][player]].name
    assert f"Game Turn {view['turn']} of 10" in flat and f"You are {god}" in flat
    assert f"Power Points left this Game Turn: {view['pp'][player]} of 15" in flat
    side = view["favour"][player]
    mine = [u for u in turn.positions(state) if turn.kind(C, u) == side]
    assert mine
    for u in mine:  # every unit of his, with its hex and the hexes next to it
        h = state["units"][str(u)]
        assert f"({u}) at {h} (next: {' '.join(C.map.neighbours(h))})" in flat
    for p, x in state["prizes"].items():
        if x["hex"]:
            assert f"{C.prizes[p].name} at {x['hex']}" in flat


def test_a_reachable_prize_and_monster_give_capture_and_fight_examples() -> None:
    # Hercules (6) in Greece two hexes from the Erymanthian Boar (40) on the Cornucopia.
    state = arranged({6: "2509", 40: "2511"}, {"cornucopia": "2511"})
    form = RULESET.order_form(RULESET.view(state, "alice"), TURN, "alice")
    assert god_line(form) == 'god = "greece"'
    found = dict(examples(form))
    assert parse(form, found["fight"]) == {
        "god": "greece", "move": [{"unit": 6, "path": ["2510", "2511"]}],
        "fight": [{"attacker": 6, "defender": 40, "aid": forms.FIGHT_AID}]}
    assert parse(form, found["capture"])["capture"] == [{"unit": 6, "aid": forms.CAPTURE_AID}]
    assert parse(form, found["move"])["move"] == [{"unit": 6, "path": ["2510"]}]
    assert "# No allies example now: nobody else favours Heroes" in form

    # With 3 Power Points left, neither the attack nor the Prize (6: two hexes, the Boar)
    # can be paid; a move of one hex can.
    state["pp"]["alice"] = 3
    form = RULESET.order_form(RULESET.view(state, "alice"), TURN, "alice")
    found = dict(examples(form))
    assert "fight" not in found and "capture" not in found
    assert "# No fight example now: you have 3 Power Points left this Game Turn; a move" in form
    assert "# No capture example now: no Prize is within reach of your Heroes in Greece" in form
    assert parse(form, found["move"])["move"] == [{"unit": 6, "path": ["2510"]}]

    # The Boar gone and 5 Power Points left: two hexes to the Prize, 1 left for the aid.
    state["units"]["40"] = ""
    state["pp"]["alice"] = 5
    form = RULESET.order_form(RULESET.view(state, "alice"), TURN, "alice")
    found = dict(examples(form))
    assert parse(form, found["capture"]) == {
        "god": "greece", "move": [{"unit": 6, "path": ["2510", "2511"]}],
        "capture": [{"unit": 6, "aid": 1}]}
    assert "# No fight example now: no opposing unit is within reach" in form


def test_a_player_whose_god_area_holds_none_of_his_units_gets_reasons() -> None:
    state = arranged({6: "2509", 40: "2511"}, {"cornucopia": "2511"})
    state["god_area"]["bob"] = "greece"  # taken: the default is the first free Area
    form = RULESET.order_form(RULESET.view(state, "alice"), TURN, "alice")
    assert god_line(form) == 'god = "arabia"'
    assert parse(form) == {"god": "arabia"}
    for kind in ("move", "fight", "capture"):
        assert f"# No {kind} example now: none of your Heroes is in Arabia" in form


def test_the_defend_example_is_the_players_own_policy() -> None:
    state = arranged({6: "2509", 40: "2511"}, {"cornucopia": "2511"})
    policy = {"mode": "fixed", "plus": 0, "fixed": 4, "max_per_fight": 6, "reserve": 2}
    state["policy"]["alice"] = policy
    form = RULESET.order_form(RULESET.view(state, "alice"), TURN, "alice")
    assert parse(form, dict(examples(form))["defend"])["defend"] == policy


def test_the_static_forms_mean_the_defaults_and_fit_72_columns() -> None:
    for text in (STATIC, JOIN):
        assert max(map(len, text.split("\n"))) <= 72
    assert tomllib.loads(STATIC) == {"god": "greece"}
    assert tomllib.loads(JOIN) == {}
    join = PhaseSpec(JOIN_PHASE, "join", ("alice", "bob"), sealed=True)
    assert RULESET.order_form({}, join, "alice") == JOIN
    assert RULESET.validate_join("alice", {}) == []
    # The join's example is the documented default, key for key.
    (kind, text), = examples(JOIN)
    assert kind == "defend" and tomllib.loads(text)["orders"]["defend"] == defence.DEFAULT
    # The static turn form shows every key a Player Turn takes (pbem check reads them), the
    # keys above every table first (else the schema would put them in the table above).
    schema = formcheck.schema(STATIC)
    assert set(schema.keys) | set(schema.tables) == set(turn.KEYS)
    assert set(schema.keys) == {"god", "allies"}
    assert set(schema.tables) == {"move", "fight", "capture", "defend"}
    assert set(schema.tables["defend"].keys) == set(defence.KEYS)

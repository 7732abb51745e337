"""Grecos order forms (issue 14, "Examples must be legal for this player, now"):
pbem.games.grecos.forms and orders/grecos/{join,recruit,war}.toml.

Whole bot games (2, 3 and 6 players) are played at the ruleset level (set-up, then
``next_phase``, the bot's orders from the player's own view, ``resolve``) and, at every
phase, the active player's form is rendered from his view; then:

- every commented example (each paragraph's commented tables and keys), uncommented, passes
  ``turn.review`` on the GM's state, and ``pbem check``'s schema of the static form;
- an example that is not there says why ("# No battle example now: ...");
- the form sent back unchanged means the default (no orders) and keeps the static prose;
- every line fits 78 columns (the static forms: 72).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from pbem.core import formcheck
from pbem.core.dice import Rng, Stream
from pbem.core.forms import render_form
from pbem.core.resources import order_form_text
from pbem.core.ruleset import JOIN_PHASE, PhaseSpec, copy_state
from pbem.games.grecos import events, policy, turn
from pbem.games.grecos.components import load
from pbem.games.grecos.game import RULESET
from pbem.games.grecos.squares import SQUARES

C = load()
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
#: (players, seed, round limit) of the games played: the smallest table, an odd one, the
#: largest. Short round limits keep the tests fast; the games still end as the rules say.
GAMES = ((2, "a", "9"), (3, "b", "7"), (6, "c", "4"))
STATIC = {kind: order_form_text("grecos", kind) for kind in ("join", "recruit", "war")}
WAR_KINDS = ("discard", "play", "move", "battle", "defend")
_LINE = re.compile(r"# (\[\[?orders\.[a-z_.]+\]\]?(\s+# .*)?|[a-z_]+ = .*)|#\s+(# |\").*")
_TABLE = re.compile(r"# \[\[?orders\.([a-z_.]+)\]\]?(\s+# .*)?")
_KEY = re.compile(r"# ([a-z_]+) = .*")


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"grecos-forms/{label}".encode()).digest())


def rng(label: str) -> Rng:
    return Rng(stream(f"public/{label}"), stream(f"sealed/{label}"))


@cache
def play(players: int, seed: str, rounds: str) -> tuple[tuple[PhaseSpec, str, dict[str, Any]],
                                                       ...]:
    """A whole bot game: (phase, player, the state he writes his orders in) of each phase."""
    names = NAMES[:players]
    state = RULESET.setup(names, {"rounds": rounds}, {}, rng(f"{seed}/setup")).state
    out = []
    while (phase := RULESET.next_phase(state)) is not None:
        player = phase.actors[0]
        out.append((phase, player, copy_state(state)))
        orders = RULESET.bot_orders(RULESET.view(state, player), phase, player,
                                    stream(f"{seed}/bot/{len(out)}"))
        state = RULESET.resolve(state, phase, {player: orders}, rng(f"{seed}/{len(out)}")).state
    assert state["step"] == "over" and state["result"]["winners"]
    return tuple(out)


@cache
def forms_of_games() -> tuple[tuple[PhaseSpec, str, dict[str, Any], str], ...]:
    return tuple((phase, player, state, RULESET.order_form(RULESET.view(state, player), phase,
                                                           player))
                 for game in GAMES for phase, player, state in play(*game))


def examples(form: str) -> list[tuple[str, str]]:
    """(kind, TOML) of each commented example of ``form``: the example lines of a paragraph
    (``# [[orders.x]]``, ``# key = value``, ``#   # comment``, ``#   "list item"``),
    uncommented; its kind is its last table but ``battle.card`` and ``move`` (a battle
    example may start with a move), or its first key above every table."""
    out = []
    for para in form.split("\n\n"):
        lines = [x for x in para.split("\n") if _LINE.fullmatch(x)]
        tables = [m.group(1) for m in map(_TABLE.fullmatch, lines) if m]
        keys = [m.group(1) for m in map(_KEY.fullmatch, lines) if m]
        if keys:
            kind = "battle" if "battle" in tables else (tables[-1] if tables else keys[0])
            out.append((kind, "\n".join(x[2:] for x in lines)))
    return out


def parse(text: str) -> dict[str, Any]:
    """The orders ``text`` means as the envelope reads them (the body of ``[orders]``)."""
    return dict(tomllib.loads("[orders]\n" + text)["orders"])


def review(state: dict[str, Any], kind: str, player: str, orders: dict[str, Any]) -> list[str]:
    return [str(p) for p in turn.review(C, state, kind, player, orders)[0]]


def test_every_example_is_legal_now_and_the_unchanged_form_means_no_orders() -> None:
    schemas = {k: formcheck.schema(STATIC[k]) for k in ("recruit", "war")}
    seen: Counter[str] = Counter()
    alternatives = 0
    for phase, player, state, form in forms_of_games():
        where = (phase.id, player)
        assert max(map(len, form.split("\n"))) <= 78, where
        assert tomllib.loads(form) == {} == RULESET.default_orders(state, phase, player), where
        found = examples(form)
        kinds = [k for k, _ in found]
        expected = ("recruit", "defend") if phase.kind == "recruit" else WAR_KINDS
        assert sorted(set(kinds)) == sorted(kinds) and set(kinds) <= set(expected), where
        for kind in expected:  # each example is there, or a comment says why not
            assert (kind in kinds) != (f"# No {kind} example now: " in form), (where, kind)
        merged: dict[str, Any] = {}
        for kind, text in found:
            orders = parse(text)
            assert review(state, phase.kind, player, orders) == [], (where, text)
            assert formcheck._check_table(orders, schemas[phase.kind], "orders",
                                          phase.kind) == [], (where, text)
            seen[kind] += 1
            if kind == "battle":
                seen["battle.card"] += "card" in orders["battle"][0]
                seen["battle after a move"] += "move" in orders
            if kind == "recruit":
                seen["recruits"] += len(orders["recruit"])
                for entry in orders["recruit"]:  # each alone is legal too
                    assert review(state, "recruit", player, {"recruit": [entry]}) == [], where
            for key, value in orders.items():
                merged[key] = merged.get(key, []) + value if key in ("move", "play") else value
        # All the examples of a form together are legal too, unless the move example and
        # the battle example use the same units (alternatives: the form says so).
        if review(state, phase.kind, player, merged):
            ex = dict(found)
            moved = set(parse(ex["move"])["move"][0]["units"])
            battle = parse(ex["battle"])
            used = set(turn.stacks(state).get(battle["battle"][0]["from"], []))
            used |= {u for m in battle.get("move", []) for u in m["units"]}
            assert moved & used, (where, merged)
            alternatives += 1
    total = len(forms_of_games())
    assert alternatives <= total // 4, (alternatives, total)
    wars = sum(1 for phase, *_ in forms_of_games() if phase.kind == "war")
    assert seen["defend"] == total and seen["move"] >= wars * 8 // 10, seen
    assert seen["recruit"] >= 10, seen
    assert seen["play"] >= wars // 3 and seen["battle"] >= 10, seen
    assert seen["battle.card"] >= 3 and seen["battle after a move"] >= 3, seen
    assert seen["discard"] >= 3, seen


def test_the_form_keeps_the_static_prose_and_heads_it_with_the_situation() -> None:
    for phase, player, state, form in forms_of_games()[::7]:
        head, _, body = form.partition("\n\n")
        prose = [x for x in STATIC[phase.kind].split("\n") if x and not _LINE.fullmatch(x)]
        rest = iter(body.split("\n"))
        assert all(any(x == y for y in rest) for x in prose), phase.id  # in order
        flat = " ".join(line[1:].strip() for line in head.split("\n"))  # unwrapped
        assert f"Turn {state['turn']}, round {state['round']} of " in flat
        for uid, x in state["units"].items():  # his units by square, terrain and hits
            if x["owner"] == player:
                kind = C.units[x["kind"]]
                assert f"{kind.name} {uid} (Force {kind.force}, Move {kind.move}, hits " \
                       f"{x['hits']}/{kind.hits}" in flat
                assert f"{x['square']} {C.terrains[state['board'][x['square']]].name}:" in flat
        for cid in state["hands"][player]:  # his hand, each card's text
            assert f"{C.cards[cid].name} ({cid}, " in flat and C.cards[cid].text in flat
        for kind in state["chits"][player]:
            assert f"{C.units[kind].name}" in flat
        others = [p for p in state["seats"] if p != player]
        for p in others:  # the others' hands and piles only as counts
            for cid in set(state["hands"][p]) - set(state["hands"][player]):
                assert f"({cid}, " not in flat
        mine = sorted((x["square"] for x in state["units"].values() if x["owner"] == player
                       and state["board"][x["square"]] == "city_state"), key=SQUARES.index)
        assert "City States (Victory 1: all six to win): " in flat
        assert f"you {', '.join(sorted(set(mine), key=SQUARES.index)) or 'none'};" in flat


# --- scenarios: a state built by hand ---------------------------------------------------

def make_state(units: list[tuple[str, str, str]], hand: Sequence[str] = (),
               chits: Sequence[str] = (), terrain: dict[str, str] | None = None,
               step: str = "war") -> dict[str, Any]:
    """A state of the design's layout: every square Coastal but ``terrain``; ``units`` =
    (kind, owner, square), ids "1", "2", ...; alice is active with ``hand`` and ``chits``."""
    board = {sq: "coastal" for sq in SQUARES}
    board.update(terrain or {})
    deck = [x for x in C.deck() if x not in hand]
    state: dict[str, Any] = {
        "board": board, "seats": ["alice", "bob"], "turn": 3, "round": 2, "active": "alice",
        "step": step, "units": {}, "next_unit": 1, "pile": ["hoplites"] * 3,
        "chits": {"alice": list(chits), "bob": ["kraken"]}, "deck": deck, "discard": [],
        "hands": {"alice": list(hand), "bob": []},
        "policy": {p: dict(policy.DEFAULT) for p in ("alice", "bob")},
        "effects": turn.no_effects(), "kronos": 0, "eliminated": [], "result": {},
        "attacked": [], "options": {"rounds": "15"},
    }
    for kind, owner, square in units:
        uid = str(state["next_unit"])
        state["units"][uid] = {"kind": kind, "owner": owner, "square": square,
                               "hits": C.units[kind].hits}
        state["next_unit"] += 1
    return state


def render(state: dict[str, Any]) -> tuple[str, dict[str, dict[str, Any]]]:
    phase = RULESET.next_phase(state)
    assert phase is not None
    form = RULESET.order_form(RULESET.view(state, "alice"), phase, "alice")
    found = {}
    for kind, text in examples(form):
        found[kind] = parse(text)
        assert review(state, phase.kind, "alice", found[kind]) == [], text
    return form, found


def test_event_2_discard_example_names_the_excess_and_spares_the_cards_played() -> None:
    hand = ["tyche", "zeus", "lost", "storm", "oracle", "hermes", "kronos"]
    state = make_state([("hero", "alice", "c3"), ("hoplites", "bob", "c4")], hand)
    form, found = render(state)
    discard = found["discard"]["discard"]
    assert len(discard) == 2  # 7 cards: 2 over the limit of 5
    played = {found["play"]["play"][0]["card"]}
    played |= {x["card"] for b in found["battle"]["battle"] for x in b.get("card", [])}
    assert not set(discard) & played and played <= set(hand[:5])
    assert "Unnamed, the newest go: Blessing of Hermes, Blessing of Kronos" in \
        " ".join(x[1:].strip() for x in form.split("\n"))
    # With 5 cards, nothing to discard: a comment says so.
    form, found = render(make_state([("hero", "alice", "c3")], hand[:5]))
    assert "discard" not in found and "# No discard example now: you hold 5 cards" in form


def test_battle_12_card_example_when_a_battle_card_is_held() -> None:
    # Alice's Hero next to bob's Hoplites; she holds Zeus (Men: extra attack) and Betrayal.
    state = make_state([("hero", "alice", "c3"), ("hoplites", "bob", "c4")],
                       ["betrayal", "zeus"])
    _, found = render(state)
    (battle,) = found["battle"]["battle"]
    assert battle["from"] == "c3" and battle["target"] == "c4"
    assert battle["card"] == [{"card": "betrayal", "round": 1, "target": "2"}]
    assert "move" not in found["battle"]
    # Atlas (Giant) does nothing for a Hero alone: no card example, and why.
    state = make_state([("hero", "alice", "c3"), ("hoplites", "bob", "c4")], ["atlas"])
    form, found = render(state)
    assert "card" not in found["battle"]["battle"][0]
    assert "# No battle card example now: Blessing of Atlas: none of your units in it" in form


def test_battle_1_example_moves_next_to_an_enemy_stack_first() -> None:
    # Bob's Hoplites two squares from alice's Hero (Move 2): she moves next to them.
    state = make_state([("hero", "alice", "a1"), ("hoplites", "bob", "c2")])
    _, found = render(state)
    move, battle = found["battle"]["move"][0], found["battle"]["battle"][0]
    assert move["units"] == ["1"] and battle["from"] == move["path"][-1]
    assert battle["target"] == "c2" and battle["from"] in ("b2", "c1")
    # Out of reach (Move 2): no battle example, and why.
    form, found = render(make_state([("hero", "alice", "a1"), ("hoplites", "bob", "h8")]))
    assert "battle" not in found and "# No battle example now: no stack of yours is next" in form


def test_deck_16_19_play_example_is_a_card_of_use_now() -> None:
    # Asclepius with nobody hurt is no example; with the Hero hurt, it heals his stack.
    state = make_state([("hero", "alice", "c3")], ["asclepius", "lost"])
    form, found = render(state)
    assert "play" not in found
    assert "Blessing of Asclepius: none of your units is damaged" in form
    assert "Lost: of use in the others' turns" in form
    state["units"]["1"]["hits"] = 1
    _, found = render(state)
    assert found["play"]["play"] == [{"card": "asclepius", "target": "c3"}]
    # Volcano Erupts on bob's stack on Mountains; his stack on Coastal is no target.
    state = make_state([("hero", "alice", "c3"), ("hoplites", "bob", "f6"),
                        ("hoplites", "bob", "g6")], ["volcano"], terrain={"g6": "mountains"})
    _, found = render(state)
    assert found["play"]["play"] == [{"card": "volcano", "target": "g6"}]


def test_recruit_4_example_per_chit_kind_that_can_be_placed() -> None:
    # Alice holds a Forest (d4) and a City State (c4): Cyclops and Hoplites may come into
    # play, the Sirens may not (no unit of hers on an Abyss).
    state = make_state([("hoplites", "alice", "d4"), ("hero", "alice", "c4")],
                       chits=["cyclops", "sirens", "hoplites", "hoplites"],
                       terrain={"d4": "forest", "c4": "city_state"}, step="recruit")
    form, found = render(state)
    recruits = found["recruit"]["recruit"]
    assert [r["kind"] for r in recruits] == ["cyclops", "hoplites"]
    assert recruits[0]["square"] == "d4" and recruits[1]["square"] == "c4"
    assert "Sirens: you have no unit on an Abyss square, where it is recruited" in \
        " ".join(x[1:].strip() for x in form.split("\n"))
    assert "# No recruit example now" not in form
    # The pile holds only Sirens: a comment says why there is no example.
    state["chits"]["alice"] = ["sirens"]
    form, found = render(state)
    assert "recruit" not in found and "# No recruit example now: Sirens: you have no" in form


def test_move_1_example_goes_toward_a_city_state_not_held() -> None:
    state = make_state([("hero", "alice", "a1")], terrain={"c1": "city_state",
                                                           "a8": "city_state"})
    _, found = render(state)
    assert found["move"]["move"] == [{"units": ["1"], "path": ["b1", "c1"]}]
    # Under Lost (Deck 26) nothing of hers moves: no example, and why.
    state["effects"]["no_move"] = ["1"]
    form, found = render(state)
    assert "move" not in found and "# No move example now" in form


def test_defend_example_is_the_players_standing_orders_key_for_key() -> None:
    state = make_state([("hero", "alice", "c3")])
    state["policy"]["alice"] = {**policy.DEFAULT, "casualties": ["hoplites", "7"],
                                "react": False, "fates": ["volcano"]}
    _, found = render(state)
    assert found["defend"]["defend"] == state["policy"]["alice"]


def test_join_and_static_forms_mean_no_orders_and_fit_72_columns() -> None:
    for text in STATIC.values():
        assert max(map(len, text.split("\n"))) <= 72
        assert tomllib.loads(text) == {}
    join = PhaseSpec(JOIN_PHASE, "join", ("alice", "bob"), sealed=True)
    assert RULESET.order_form({}, join, "alice") == STATIC["join"]
    # Every key a phase takes is in its static form (pbem check reads them from it), the
    # keys above every table first.
    for kind, keys in (("recruit", turn.RECRUIT_KEYS), ("war", turn.WAR_KEYS)):
        schema = formcheck.schema(STATIC[kind])
        assert set(schema.keys) | set(schema.tables) == set(keys)
        assert set(schema.tables["defend"].keys) == set(policy.KEYS)
    war = formcheck.schema(STATIC["war"])
    assert set(war.keys) == {"discard"}
    assert set(war.tables["play"].keys) == set(events.PLAY_KEYS)
    assert set(war.tables["battle"].keys) == set(turn.BATTLE_KEYS) - {"card"}
    assert set(war.tables["battle"].tables["card"].keys) == {"card", "round", "target"}
    (kind, text), = examples(STATIC["join"])
    assert kind == "defend" and RULESET.validate_join("alice", parse(text)) == []


def test_pbem_check_reads_the_forms_blank_and_with_every_example_filled_in() -> None:
    def problems(phase: PhaseSpec, body: str) -> list[str]:
        text = render_form("demo-grecos", "alice", phase, body, "a" * 64, "a" * 64)
        return [str(p) for r in formcheck.check_text(text, "f.txt", "grecos")
                for p in r.problems]

    join = PhaseSpec(JOIN_PHASE, "join", ("alice",), sealed=True)
    assert problems(join, STATIC["join"]) == []
    assert problems(join, uncomment(STATIC["join"])) == []
    done = set()
    least = {"recruit": 2, "war": 4}  # a form with that many examples or more
    for phase, _, _, form in forms_of_games():
        if phase.kind not in done and len(examples(form)) >= least[phase.kind]:
            done.add(phase.kind)
            assert problems(phase, STATIC[phase.kind]) == []
            assert problems(phase, form) == []
            filled = uncomment(form)
            assert parse(filled) and problems(phase, filled) == [], filled
    assert done == {"recruit", "war"}


def uncomment(form: str) -> str:
    """``form`` with every example line uncommented (as a player fills it in)."""
    return "\n".join(x[2:] if _LINE.fullmatch(x) else x for x in form.split("\n"))

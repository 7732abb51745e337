"""The Basic Game's bot (``pbem demo``/``simulate mythology-basic``) plays whole games with
legal, non-trivial Player Turns: every order it gives passes the submit check (``turn.plan``),
and across a few games its turns reach fights with aid on both sides (Basic Combat 7-9),
Prize captures (Basic Capture 1-5), alliances formed and broken (Basic Alliance 1-4) and
changed defence policies, and the game ends after Game Turn 10 (Basic Play 0, Win 2).

The games are played at the ruleset level (set-up, then ``next_phase``, the bot's orders
from the player's own view, ``validate``, ``resolve``), without the engine, for speed."""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pbem.core.dice import Rng, Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.mythology.basic import bot, defence, turn
from pbem.games.mythology.basic.game import RULESET
from pbem.games.mythology.basic.setup import HEROES, LAST_TURN, MONSTERS, POWER_POINTS
from pbem.games.mythology.components import load

C = load()
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")
#: (players, seed) of the games played: the smallest table, an odd one (two Hero players
#: who may ally), the largest.
GAMES = ((2, "a"), (3, "b"), (10, "c"))
TURN = PhaseSpec("t01.turn.alice", "turn", ("alice",), sealed=True, active="alice")


def stream(label: str) -> Stream:
    return Stream(hashlib.sha256(f"mythology-basic-bot/{label}".encode()).digest())


def rng(label: str) -> Rng:
    return Rng(stream(f"public/{label}"), stream(f"sealed/{label}"))


@dataclass
class Game:
    players: tuple[str, ...]
    state: dict[str, Any]
    joins: dict[str, dict[str, Any]]
    #: (phase, player, the bot's orders, the problems validate found in them)
    turns: list[tuple[PhaseSpec, str, dict[str, Any], list[Any]]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    private: list[dict[str, Any]] = field(default_factory=list)
    #: (phase, player, the state the player gave his orders in), for test_forms
    before: list[tuple[PhaseSpec, str, dict[str, Any]]] = field(default_factory=list)


@cache
def play(players: int, seed: str) -> Game:
    """A whole game, the bots giving every order (cached: test_forms reads the same games)."""
    names = NAMES[:players]
    joins = {p: RULESET.bot_join(p, stream(f"{seed}/join/{p}")) for p in names}
    for p in names:
        assert RULESET.validate_join(p, joins[p]) == [], joins[p]
    outcome = RULESET.setup(names, {}, joins, rng(f"{seed}/setup"))
    game = Game(names, outcome.state, joins, events=list(outcome.events))
    while (phase := RULESET.next_phase(game.state)) is not None:
        assert phase.active is not None
        player = phase.active
        orders = RULESET.bot_orders(RULESET.view(game.state, player), phase, player,
                                    stream(f"{seed}/{phase.id}"))
        problems = RULESET.validate(game.state, phase, player, orders)
        game.turns.append((phase, player, orders, problems))
        game.before.append((phase, player, copy.deepcopy(game.state)))
        outcome = RULESET.resolve(game.state, phase, {player: orders}, rng(f"{seed}/{phase.id}"))
        game.state = outcome.state
        game.events += outcome.events
        game.private += outcome.private.get(player, [])
    return game


def _seen() -> Counter[str]:
    seen: Counter[str] = Counter()
    for players, seed in GAMES:
        seen.update(str(e["type"]) for e in play(players, seed).events)
    return seen


def test_no_bot_order_is_refused_and_every_game_ends_after_game_turn_10() -> None:
    for players, seed in GAMES:
        game = play(players, seed)
        refused = [(ph.id, orders, problems) for ph, _, orders, problems in game.turns
                   if problems]
        assert refused == []
        assert game.state["step"] == "over" and game.state["turn"] == LAST_TURN
        assert len(game.turns) == LAST_TURN * players  # one Player Turn each, each Game Turn
        assert [ph.id for ph, *_ in game.turns][-1].startswith(f"t{LAST_TURN:02d}.turn.")
        assert set(game.state["score"]) == set(game.players)
        assert [e["type"] for e in game.events][-1] == "winner"
        # Non-trivial: most Player Turns move something; the god is placed where it may be.
        moving = sum(1 for _, _, orders, _ in game.turns if orders.get("move"))
        assert moving >= len(game.turns) // 2, (moving, len(game.turns))


def test_the_bots_fight_with_aid_capture_prizes_and_form_and_break_alliances() -> None:
    seen = _seen()
    assert seen["fight"] >= 20 and seen["capture"] >= 5, seen
    assert seen["alliance-formed"] and seen["alliance-broken"] and seen["allies"], seen
    fights = [e for players, seed in GAMES for e in play(players, seed).events
              if e["type"] == "fight"]
    assert any(e["aid"] > 0 for e in fights), "no attacker aid (Basic Combat 8)"
    assert any(e["defender_aid"] > 0 for e in fights), "no defender aid (Basic Combat 9)"
    captures = [e for players, seed in GAMES for e in play(players, seed).events
                if e["type"] == "capture"]
    assert any(e["captured"] for e in captures) and all(e["aid"] > 0 for e in captures)
    # Both sides attack: the Monster players too, not only the Hero players.
    assert {turn.kind(C, e["attacker"]) for e in fights} == {HEROES, MONSTERS}


def test_the_bots_change_their_defence_policy_and_keep_power_points_for_it() -> None:
    changed = [e for players, seed in GAMES for e in play(players, seed).private
               if e["type"] == "policy"]
    assert changed, "no bot ever changed its defence policy"
    for players, seed in GAMES:
        game = play(players, seed)
        for _, _, orders, _ in game.turns:
            if "defend" in orders:
                assert defence.parse(orders["defend"])[1] == []
    # Players who play before others this Game Turn keep Power Points for their defence:
    # the "pp" event closes each Player Turn with what the player has left.
    kept = [e["left"] for players, seed in GAMES for e in play(players, seed).events
            if e["type"] == "pp"]
    assert any(0 < left < POWER_POINTS for left in kept)


def test_join_gives_a_legal_policy_and_sometimes_none() -> None:
    joins = [bot.join(stream(f"join/{i}")) for i in range(24)]
    assert {} in joins
    modes = {j["defend"]["mode"] for j in joins if j}
    assert len(modes) >= 3, modes
    for j in joins:
        assert RULESET.validate_join("alice", j) == []


def test_the_bot_is_deterministic_and_reads_only_the_view() -> None:
    game = play(3, "b")
    state = RULESET.setup(game.players, {}, game.joins, rng("b/setup")).state
    phase = RULESET.next_phase(state)
    assert phase is not None and phase.active is not None
    view = RULESET.view(state, phase.active)
    assert "policy" not in view
    first = bot.orders(C, view, phase, phase.active, stream(f"b/{phase.id}"))
    again = bot.orders(C, view, phase, phase.active, stream(f"b/{phase.id}"))
    assert first == again == game.turns[0][2]  # what it gave in the game
    others = {str(bot.orders(C, view, phase, phase.active, stream(f"other/{i}")))
              for i in range(6)}
    assert len(others) > 1, "the bot's choices do not depend on its stream"


def arranged(units: dict[int, str], prizes: dict[str, str],
             heroes: tuple[str, ...] = ("alice",)) -> dict[str, Any]:
    """A two-player game whose board holds only ``units`` and ``prizes``, alice to play."""
    s = RULESET.setup(("alice", "bob"), {}, {}, rng("lone")).state
    s["favour"] = {p: HEROES if p in heroes else MONSTERS for p in s["seats"]}
    s["units"] = {u: "" for u in s["units"]}
    s["removed"] = {u: {"by": "bob", "turn": 0} for u in s["units"]}
    for u, h in units.items():
        s["units"][str(u)] = h
        del s["removed"][str(u)]
    for p, x in s["prizes"].items():
        x.update({"hex": prizes.get(p, ""), "by": "" if p in prizes else "alice"})
    s["order"], s["cursor"] = ["alice", "bob"], 0
    return s


def test_a_hero_within_reach_of_a_prize_goes_for_it_with_aid() -> None:
    # Hercules (6) in Greece, two hexes from the Cornucopia, with a Monster on it: the
    # Hero player's bot moves him there, fights the Monster and tries the capture.
    state = arranged({6: "2509", 40: "2511"}, {"cornucopia": "2511"})
    for i in range(6):
        orders = bot.orders(C, RULESET.view(state, "alice"), TURN, "alice", stream(f"h/{i}"))
        assert orders["god"] == "greece"
        assert orders["move"] == [{"unit": 6, "path": ["2510", "2511"]}]
        assert [(f["attacker"], f["defender"]) for f in orders["fight"]] == [(6, 40)]
        assert orders["capture"][0]["unit"] == 6 and orders["capture"][0]["aid"] >= 1
        spent = 2 * 2 + 2 + orders["fight"][0]["aid"] + orders["capture"][0]["aid"]
        assert spent <= POWER_POINTS


def test_a_monster_player_attacks_heroes_or_guards_prizes() -> None:
    # A Monster two hexes from a Hero and two from a free Prize: it attacks the Hero or
    # goes to stand on the Prize (Basic Capture 2: a Hero must then fight first).
    state = arranged({40: "2510", 6: "2512", 7: "3107"}, {"cornucopia": "2508"}, heroes=("bob",))
    seen = set()
    for i in range(12):
        orders = bot.orders(C, RULESET.view(state, "alice"), TURN, "alice", stream(f"m/{i}"))
        assert "capture" not in orders  # Basic Capture 7
        ends = {m["path"][-1] for m in orders.get("move", [])}
        if "2512" in ends:
            assert orders["fight"][0]["defender"] == 6
            seen.add("attack")
        if "2508" in ends:
            seen.add("guard")
    assert seen == {"attack", "guard"}

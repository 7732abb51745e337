"""Issue 5, point 8: `pbem demo cyclades --players N` for every supported count and both
boards plays a whole campaign through the real sign/submit/adjudicate path and audits it;
`pbem simulate cyclades` checks replay, secrecy and conservation over several games."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo, engine, ledger, simulate
from pbem.core.campaign import open_campaign
from pbem.games.cyclades.game import RULESET

# The fewest and most players of each board, and three on the vanilla one; .ci/run's soak
# (pbem simulate cyclades) plays and audits every count of both boards (the README's test
# command must stay under four minutes as games are added).
BOARDS = [("vanilla", 2), ("vanilla", 3), ("vanilla", 5), ("titans", 2), ("titans", 6)]


@pytest.mark.long
@pytest.mark.parametrize(("board", "players"), BOARDS)
def test_demo_plays_and_audits_a_whole_game(board: str, players: int, tmp_path: Path) -> None:
    result = demo.run(RULESET, tmp_path / "d", players=players, seed="n",
                      options={"board": board}, resolve=games.get, with_reports=False)
    assert result.result["winners"], result.result
    assert set(result.result["score"]) == set(demo.NAMES[:players])
    assert result.records > 1 + players + 2  # setup bid, deployments, at least a cycle


def test_team_play_demo(tmp_path: Path) -> None:
    result = demo.run(RULESET, tmp_path / "d", players=4, seed="team",
                      options={"board": "titans", "teams": "on"}, resolve=games.get,
                      with_reports=False)
    assert result.result["winners"]


def test_the_bid_phase_is_sealed_until_the_end_and_its_auction_public(tmp_path: Path) -> None:
    """Cycle 7 by email: the bids travel sealed; the ledger shows the commitments and the
    auction events at once, and the bid texts only in the last record."""
    result = demo.run(RULESET, tmp_path / "d", players=3, seed="seal", options={},
                      resolve=games.get, with_reports=False)
    c = open_campaign(result.campaign_dir, games.get)
    last = ledger.count(c.ledger_dir)
    first_bid = ledger.load((c.ledger_dir / ledger.record_name(2)).read_bytes())
    assert first_bid["phase"] == "c00.bid"
    assert first_bid["orders"] == {} and len(first_bid["commitments"]) == 3
    assert any(e["type"] == "bid" or "bid" in e.get("text", "") for e in first_bid["events"])
    final = ledger.load((c.ledger_dir / ledger.record_name(last)).read_bytes())
    assert {(r["seq"], r["player"]) for r in final["revealed"]} >= {(2, p) for p in
                                                                      demo.NAMES[:3]}
    assert engine.open_phase(c)[2] is None


@pytest.mark.long
@pytest.mark.parametrize(("options", "players"), [({}, 3), ({"board": "titans"}, 5)])
def test_simulate_finds_nothing_wrong(options: dict[str, str], players: int) -> None:
    """Replay, the audit, secrecy as non-interference (a player's gold and standing orders
    changed to markers change no other view) and the conservation rules of views.py."""
    reports = list(simulate.run("cyclades", 2, seed="sim", players=players, options=options,
                                resolve=games.get))
    assert all(r.ok for r in reports), [r.problems for r in reports]


def test_an_unchanged_form_is_valid_and_means_the_default(tmp_path: Path) -> None:
    """Issue 5, point 8 / DESIGN: a form signed and sent back unchanged is a valid order
    meaning the phase's documented default, for every phase kind of a whole game."""
    import copy

    import tomli

    from pbem.core.dice import Rng, Stream

    result = demo.run(RULESET, tmp_path / "d", players=3, seed="forms", options={},
                      resolve=games.get, with_reports=False)
    c = open_campaign(result.campaign_dir, games.get)
    kinds: set[str] = set()
    for seq in range(1, ledger.count(c.ledger_dir)):
        state = engine.load_state(c, seq)
        assert state is not None
        phase = RULESET.next_phase(state)
        assert phase is not None
        for player in phase.actors:
            form = RULESET.order_form(RULESET.view(state, player), phase, player)
            orders = tomli.loads("[orders]\n" + form)["orders"]
            assert RULESET.validate(state, phase, player, orders) == [], (phase.id, player)
            others = {p: RULESET.default_orders(state, phase, p) for p in phase.actors}
            outcomes = []
            for mine in (orders, RULESET.default_orders(state, phase, player)):
                rng = Rng(Stream(b"p" * 32), Stream(b"s" * 32))
                out = RULESET.resolve(copy.deepcopy(state), phase, {**others, player: mine},
                                      rng)
                outcomes.append((out.state, out.events, out.private))
            assert outcomes[0] == outcomes[1], (phase.id, player)
            kinds.add(phase.kind)
    assert kinds >= {"bid", "deploy", "act"}

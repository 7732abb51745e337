"""``pbem simulate`` and ``pbem audit`` over many campaigns: they pass sound games and catch
planted faults, each reported with the command that plays the game again."""

from __future__ import annotations

import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem import games
from pbem.cli.app import app
from pbem.core import demo, ledger, simulate
from pbem.core.campaign import open_campaign
from pbem.core.dice import Rng
from pbem.core.ruleset import Orders, Outcome, PhaseSpec, State
from pbem.games.conformance import Conformance
from pbem.games.mythology.game import Mythology


class GloryTwice(Mythology):
    """A broken Mythology: every Glory Point gained is counted twice in the state (216)."""

    name = "mythology-glory-twice"

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        out = super().resolve(state, phase, orders, rng)
        for e in out.events:
            if e.get("type") == "glory" and e["amount"] > 0:
                out.state["glory"][e["player"]] += e["amount"]
        return out


class PeekingView(Mythology):
    """A broken Mythology whose views show every player the first seat's hand (102 F)."""

    name = "mythology-peeking"

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        v = super().view(state, player)
        first = state["seats"][0]
        if player is not None and player != first and state["step"] != "over":
            v["rival_hand"] = list(state["hands"][first])
        return v


class VoyageTwice(Conformance):
    """A broken conformance game: a voyage's points are added twice to the score."""

    name = "conformance-voyage-twice"

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        out = super().resolve(state, phase, orders, rng)
        for e in out.events:
            if e["type"] == "voyage":
                out.state["score"][e["player"]] += e["gain"]
        return out


class ForecastPeek(Conformance):
    """A broken conformance game whose views show the active player's last pledge."""

    name = "conformance-forecast-peek"

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        v = super().view(state, player)
        if not v["game_over"] and state["pledges"][v["active"]]:
            v["active_pledge"] = state["pledges"][v["active"]][-1]
        return v


class OmenCopied(Conformance):
    """A broken conformance game: an omen drawn stays in the deck as well."""

    name = "conformance-omen-copied"

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        deck = list(state["deck"])
        out = super().resolve(state, phase, orders, rng)
        if phase.kind == "omens":
            out.state["deck"] = deck
        return out


for variant in (GloryTwice(), PeekingView(), VoyageTwice(), ForecastPeek(), OmenCopied()):
    games.register(variant)


def test_sound_games_pass_every_check() -> None:
    reports = list(simulate.run("conformance", 3, seed="t", players=None, options={},
                                resolve=games.get))
    assert [r.ok for r in reports] == [True, True, True], [r.problems for r in reports]
    assert [r.players for r in reports] == [2, 3, 4]  # every count in turn from the minimum
    lines = simulate.summary(reports)
    assert lines[0] == "games: 3, passed every check: 3, failed: 0"
    # Games of 2, 3 and 4 players: seat 1 plays all three (fair share (1/2 + 1/3 + 1/4) / 3),
    # seat 4 only the last (1/4).
    seats = next(line for line in lines if line.startswith("win rate by seat"))
    assert " (36%) of 3" in seats and "4: " in seats and seats.endswith("(25%) of 1")
    slowest = next(line for line in lines if line.startswith("slowest phases"))
    # Conformance has more than three phase kinds; the three slowest are named, slowest first.
    found = re.findall(r"(\w+) ([\d.]+) ms \((\d+) of them\)", slowest)
    assert len(found) == 3, slowest
    means = [float(ms) for _, ms, _ in found]
    assert means == sorted(means, reverse=True), slowest
    assert {kind for kind, _, _ in found} <= {"join", "omens", "pledge", "voyage", "forecast"}


def test_summary_orders_sides_and_seats_by_number_and_shares_ties() -> None:
    def game(i: int, scores: dict[str, int], roles: dict[str, str]) -> simulate.GameReport:
        return simulate.GameReport(i, f"s.{i}", len(scores), "cmd", records=5, seconds=1.0,
                                   scores=scores, seats=list(scores), roles=roles)

    roles = {"a": "seating 10", "b": "seating 2", "c": "seating 1"}
    lines = simulate.summary([game(0, {"a": 3, "b": 3, "c": 1}, roles),
                              game(1, {"a": 0, "b": 1, "c": 5}, roles)])
    # A tie for first shares the win: a and b have half a win each from game 0.
    # Scores 3, 3, 1, 0, 1, 5: sorted 0 1 1 3 3 5, inclusive quartiles 1, 2 and 3.
    assert ("scores: min 0, quartiles 1 / 2 / 3, max 5, mean 2.2; winning score mean 4.0"
            in lines)
    # Three players each game: a fair share is 33%.
    assert ("win rate by seat (fair share): 1: 25% (33%) of 2, 2: 25% (33%) of 2, "
            "3: 50% (33%) of 2") in lines
    assert ("win rate by side (fair share): seating 1: 50% (33%) of 2, seating 2: 25% (33%) "
            "of 2, seating 10: 25% (33%) of 2") in lines


def test_216_glory_counted_twice_is_caught_with_its_reproduction_command() -> None:
    (report,) = simulate.run(GloryTwice.name, 1, seed="f", players=2, options={},
                             resolve=games.get, start=4)
    assert not report.ok
    assert any("216:" in p and "Glory moved by" in p for p in report.problems)
    assert report.command == ("pbem simulate mythology-glory-twice --games 1 --start 4 "
                              "--seed f --players 2 --keep DIR")
    text = "\n".join(simulate.describe_failure(report))
    assert "FAILED" in text and "reproduce: pbem simulate mythology-glory-twice" in text


def test_a_view_that_leaks_a_hand_is_caught() -> None:
    (report,) = simulate.run(PeekingView.name, 1, seed="f", players=3, options={},
                             resolve=games.get)
    assert not report.ok
    leaks = [p for p in report.problems if "(a leak)" in p]
    assert leaks, report.problems
    # The public view is not broken, only the players'; the check says whose view leaks.
    assert not any("the view of the public" in p for p in leaks)


def test_the_same_game_number_is_the_same_game(tmp_path: Path) -> None:
    a = simulate.play("conformance", 7, seed="s", players=3, options={}, resolve=games.get,
                      keep=tmp_path / "a")
    b = simulate.play("conformance", 7, seed="s", players=3, options={}, resolve=games.get,
                      keep=tmp_path / "b")
    assert a.ok and b.ok
    la = sorted((tmp_path / "a" / "00007" / "campaign" / "ledger").iterdir())
    lb = sorted((tmp_path / "b" / "00007" / "campaign" / "ledger").iterdir())
    assert [p.read_bytes() for p in la] == [p.read_bytes() for p in lb]


def test_a_sealed_salt_published_before_its_reveal_is_caught(tmp_path: Path) -> None:
    result = demo.run(games.get("conformance"), tmp_path / "g", players=3, seed="salt",
                      options={}, resolve=games.get, with_reports=False)
    campaign = open_campaign(result.campaign_dir, games.get)
    assert simulate.check(campaign) == []
    # Find a sealed order file and copy its salt into the record that committed to it.
    found = [(k, [p for p in r["commitments"] if p not in r.get("orders", {})])
             for k, r in ((k, ledger.load(d)) for k, d in ledger.iter_records(
                 campaign.ledger_dir))]
    seq, sealed = next(((k, s) for k, s in found if s), (0, []))
    if not sealed:
        pytest.fail("the conformance game has no sealed phase")
    orders = result.campaign_dir / "gm" / "records" / f"{seq:06d}" / "orders"
    text = (orders / f"{sealed[0]}.txt").read_text()
    salt = next(line.split('"')[1] for line in text.splitlines() if line.startswith("salt"))
    path = campaign.ledger_dir / ledger.record_name(seq)
    path.write_bytes(path.read_bytes() + f"# {salt}\n".encode())
    problems = simulate.check(campaign)
    assert any(f"record {seq}: holds the salt of {sealed[0]}'s sealed orders" in p
               for p in problems), problems


def test_cli_simulate_prints_the_summary_and_fails_on_a_fault() -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["simulate", "conformance", "--games", "2", "--jobs", "2"])
    assert ok.exit_code == 0, ok.output
    assert "games: 2, passed every check: 2, failed: 0" in ok.output
    bad = runner.invoke(app, ["simulate", GloryTwice.name, "--games", "1", "--players", "2",
                              "--jobs", "1"])
    assert bad.exit_code == 1
    assert "reproduce: pbem simulate mythology-glory-twice --games 1 --start 0" in bad.output


def test_audit_of_a_directory_of_campaigns(tmp_path: Path) -> None:
    base = tmp_path / "host"
    for i in range(3):
        demo.run(games.get("conformance"), tmp_path / f"d{i}", players=2, seed=str(i),
                 options={}, resolve=games.get, with_reports=False)
        shutil.copytree(tmp_path / f"d{i}" / "campaign", base / "group" / f"c{i}")
    bad = base / "group" / "c1" / "ledger" / "000002.toml"
    bad.write_bytes(bad.read_bytes().replace(b"seq = 2", b"seq = 2 ", 1))
    runner = CliRunner()
    out = runner.invoke(app, ["audit", str(base), "--jobs", "2"])
    assert out.exit_code == 1
    lines = [x for x in out.output.splitlines() if x.startswith(("ok ", "FAIL "))]
    assert [x.split()[1].rstrip(":") for x in lines] == ["group/c0", "group/c1", "group/c2"]
    assert lines[0].startswith("ok   group/c0: ") and "re-adjudicated" in lines[0]
    assert lines[1].startswith("FAIL group/c1: record 000002: signature")
    assert "audited 3 campaigns: 2 passed, 1 failed" in out.output
    from pbem.cli.app import run

    assert run(["audit", str(tmp_path / "d0" / "keys")]) == 2  # usage: no campaign there


@pytest.mark.parametrize(("variant", "found"), [
    (VoyageTwice.name, "does not recompute from the events"),
    (ForecastPeek.name, "(a leak)"),
    (OmenCopied.name, "omen cards not each in exactly one place"),
])
def test_conformance_faults_are_caught(variant: str, found: str) -> None:
    """The conformance game has its own conservation rules and secrecy markers too."""
    (report,) = simulate.run(variant, 1, seed="f", players=4, options={}, resolve=games.get)
    assert not report.ok
    assert any(found in p for p in report.problems), report.problems

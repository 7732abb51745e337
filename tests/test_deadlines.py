"""Deadlines, grace, who is late, and the NMR policy: at given ``now`` values, never the clock."""

from __future__ import annotations

import datetime as dt
import shutil
import tomllib
from pathlib import Path

import pytest

from pbem import games
from pbem.core import deadlines, engine
from pbem.core.campaign import Campaign, open_campaign
from pbem.core.deadlines import LATE, MISSING, SUBMITTED, Deadline
from pbem.core.errors import CampaignError, ProblemsError
from tests.conftest import Table, make_table, run_pbem

T = dt.datetime(2026, 5, 2, 18, 0, tzinfo=dt.UTC)
H = dt.timedelta(hours=1)


def at(text: str) -> dt.datetime:
    return deadlines.parse_time(text)


# --- times and durations ---------------------------------------------------------------------


def test_times_are_rfc3339_with_an_offset_and_come_back_as_utc() -> None:
    assert at("2026-05-02T18:00:00Z") == T
    assert at("2026-05-02T20:00:00+02:00") == T
    assert deadlines.format_time(at("2026-05-02T20:00:00+02:00")) == "2026-05-02T18:00:00Z"
    with pytest.raises(ValueError, match="no time zone"):
        at("2026-05-02T18:00:00")
    with pytest.raises(ValueError, match="not an RFC 3339 time"):
        at("next Tuesday")


@pytest.mark.parametrize(("text", "delta"), [
    ("72h", dt.timedelta(hours=72)), ("3d", dt.timedelta(days=3)), ("0", dt.timedelta(0)),
    ("1d12h", dt.timedelta(days=1, hours=12)), ("90m", dt.timedelta(minutes=90))])
def test_durations(text: str, delta: dt.timedelta) -> None:
    assert deadlines.parse_duration(text) == delta
    assert deadlines.parse_duration(deadlines.format_duration(delta)) == delta


@pytest.mark.parametrize("text", ["", "h", "3 days", "-2h", "12h3d", "1.5h"])
def test_bad_durations_say_how_to_write_one(text: str) -> None:
    with pytest.raises(ValueError, match=r"write e\.g\. 72h"):
        deadlines.parse_duration(text)


# --- classification --------------------------------------------------------------------------


def _classify(now: dt.datetime, grace: dt.timedelta = 12 * H) -> dict[str, deadlines.ActorStatus]:
    deadline = Deadline("r01.pledge", T, grace, None, "set for this phase")
    pending = {"alice": ("c-alice", T - H), "bob": ("c-bob", T + 2 * H),
               "dave": ("c-dave", T + 13 * H), "erin": ("c-erin", None)}
    actors = ("alice", "bob", "carol", "dave", "erin")
    return {a.player: a for a in deadlines.classify(deadline, actors, pending, now)}


def test_before_the_deadline_a_missing_player_is_missing() -> None:
    s = _classify(T - 30 * dt.timedelta(minutes=1))
    assert s["alice"].status == SUBMITTED and s["alice"].describe() == \
        "submitted c-alice (received 2026-05-02T17:00:00Z)"
    assert s["carol"].status == MISSING and s["carol"].describe() == "missing"
    # Orders received after the deadline are late whenever we look.
    assert s["bob"].status == LATE
    assert s["bob"].describe() == ("late c-bob (received 2026-05-02T20:00:00Z, 2h after the "
                                   "deadline, within the grace)")
    assert s["dave"].status == LATE and "13h after the deadline, after the grace" in \
        s["dave"].describe()
    # No received time (a file submitted without one): on time, and said so.
    assert s["erin"].status == SUBMITTED and "time unknown" in s["erin"].describe()


def test_after_the_deadline_a_missing_player_is_late_within_then_after_the_grace() -> None:
    inside = _classify(T + H)["carol"]
    assert inside.status == LATE and not inside.has_orders
    assert inside.describe() == ("late (no orders; the deadline passed 2026-05-02T18:00:00Z, "
                                 "grace until 2026-05-03T06:00:00Z)")
    after = _classify(T + 12 * H + dt.timedelta(seconds=1))["carol"]
    assert after.status == LATE and "the grace ended 2026-05-03T06:00:00Z" in after.describe()
    assert _classify(T)["carol"].status == MISSING  # the deadline itself is still on time


def test_without_a_deadline_nobody_is_late() -> None:
    deadline = Deadline("r01.pledge", None, 12 * H, None, "none")
    out = deadlines.classify(deadline, ("alice", "bob"), {"alice": ("c", T + 100 * H)},
                             T + 1000 * H)
    assert [a.status for a in out] == [SUBMITTED, MISSING]


# --- on a campaign ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def joined(tmp_path_factory: pytest.TempPathFactory) -> Table:
    """A conformance campaign with the join adjudicated: r01.pledge open for everyone."""
    table = make_table(tmp_path_factory.mktemp("deadlines") / "camp", rounds="1")
    table.play_phases(1)
    return table


def copy_of(table: Table, tmp_path: Path) -> Campaign:
    shutil.copytree(table.root, tmp_path / "camp")
    return open_campaign(tmp_path / "camp", games.get)


def test_a_phase_time_wins_over_the_default_which_counts_from_the_opening(
        joined: Table, tmp_path: Path) -> None:
    c = copy_of(joined, tmp_path)
    assert deadlines.deadline_for(c, "r01.pledge").due is None
    deadlines.update_deadlines(c, {"default": "72h", "grace": "6h"})
    unknown = deadlines.deadline_for(c, "r01.pledge")
    assert unknown.due is None and "was not recorded" in unknown.how
    assert deadlines.record_opened_by(c, 1, "2026-05-01T09:00:00Z") == "r01.pledge"
    # The first time counts: a run again later does not move the deadline.
    assert not deadlines.record_opened(c, "r01.pledge", "2026-05-03T09:00:00Z")
    d = deadlines.deadline_for(c, "r01.pledge")
    assert d.due == at("2026-05-04T09:00:00Z") and d.grace_end == at("2026-05-04T15:00:00Z")
    assert d.describe() == ("2026-05-04T09:00:00Z (default 3d after the phase opened "
                            "2026-05-01T09:00:00Z), grace 6h until 2026-05-04T15:00:00Z")
    assert deadlines.deadline_text(c, "r01.pledge") == \
        "2026-05-04T09:00:00Z (grace 6h, until 2026-05-04T15:00:00Z)"
    deadlines.update_deadlines(c, {"r01.pledge": "2026-05-02T18:00:00Z"})
    assert deadlines.deadline_for(c, "r01.pledge").due == T
    deadlines.update_deadlines(c, {"r01.pledge": None})
    assert deadlines.deadline_for(c, "r01.pledge").due == at("2026-05-04T09:00:00Z")
    # campaign.toml never changes; the settings hold the schedule.
    assert (c.root / "campaign.toml").read_bytes() == c.campaign_bytes
    table = tomllib.loads((c.gm_dir / "settings.toml").read_text())["deadlines"]
    assert table == {"default": "72h", "grace": "6h"}


def test_a_bad_value_in_the_settings_names_the_key_and_the_fix(joined: Table,
                                                                tmp_path: Path) -> None:
    c = copy_of(joined, tmp_path)
    settings = c.settings()
    settings["deadlines"] = {"r01.pledge": "Friday"}
    c.save_settings(settings)
    with pytest.raises(CampaignError, match=r"\[deadlines\] r01.pledge: 'Friday' is not an "
                                            r"RFC 3339 time.*fix: pbem deadline"):
        deadlines.deadline_for(c, "r01.pledge")
    with pytest.raises(ValueError, match="RFC 3339"):
        deadlines.update_deadlines(c, {"r01.pledge": "Saturday"})
    assert c.settings()["deadlines"] == {"r01.pledge": "Friday"}  # nothing half-written


def test_received_times_of_submit_decide_late(joined: Table, tmp_path: Path) -> None:
    c = copy_of(joined, tmp_path)
    deadlines.update_deadlines(c, {"r01.pledge": "2026-05-02T18:00:00Z", "grace": "12h"})
    table = Table(c.root, c, joined.gm, joined.player_keys)
    for player, received in (("alice", "2026-05-02T17:59:59Z"), ("bob", "2026-05-02T19:00:00Z")):
        result = engine.submit(c, table.signed(player).encode(), player, received=received)
        assert not result.errors
    st = deadlines.phase_status(c, T + 2 * H)
    assert st is not None and st.policy == "default"
    got = {a.player: (a.status, a.received) for a in st.actors}
    assert got == {"alice": (SUBMITTED, at("2026-05-02T17:59:59Z")),
                   "bob": (LATE, at("2026-05-02T19:00:00Z")), "carol": (LATE, None)}
    assert st.waiting_for == ["carol"]
    before = deadlines.phase_status(c, T - H)
    assert before is not None
    assert [a.status for a in before.actors if a.player == "carol"] == [MISSING]


# --- the NMR policy --------------------------------------------------------------------------


def test_nmr_is_a_core_option_every_game_accepts(tmp_path: Path) -> None:
    from pbem.core import campaign as campaign_mod
    from tests.conftest import seeded_key

    players = {p: seeded_key(p).public_key().public_bytes_raw() for p in ("alice", "bob")}
    for game in ("conformance", "mythology"):
        root = tmp_path / game
        campaign_mod.create(root, games.get(game), campaign_id=game, gm_key=seeded_key("gm"),
                            gm_key_path="gm", players=players, options={"nmr": "wait"})
        c = open_campaign(root, games.get)
        assert c.options["nmr"] == "wait" and deadlines.nmr_policy(c) == "wait"
    with pytest.raises(ProblemsError, match=r"'never' is not an NMR policy.*default, wait"):
        campaign_mod.create(tmp_path / "bad", games.get("conformance"), campaign_id="bad",
                            gm_key=seeded_key("gm"), gm_key_path="gm", players=players,
                            options={"nmr": "never"})
    # Not given: absent from campaign.toml (its bytes as before the option existed).
    campaign_mod.create(tmp_path / "plain", games.get("conformance"), campaign_id="plain",
                        gm_key=seeded_key("gm"), gm_key_path="gm", players=players, options={})
    plain = open_campaign(tmp_path / "plain", games.get)
    assert "nmr" not in plain.options and deadlines.nmr_policy(plain) == "default"


def test_wait_refuses_force_while_orders_are_missing(joined: Table, tmp_path: Path) -> None:
    c = copy_of(joined, tmp_path)
    c.config["options"]["nmr"] = "wait"  # as if given at pbem new
    with pytest.raises(CampaignError, match=r"NMR policy 'wait'.*waits for orders from "
                                            r"alice, bob, carol.*pbem deadline DIR"):
        deadlines.check_force(c, T)
    table = Table(c.root, c, joined.gm, joined.player_keys)
    table.submit_all()
    assert deadlines.check_force(c, T) == []
    c.config["options"]["nmr"] = "default"
    assert deadlines.check_force(c, T) == []


def test_default_policy_forcing_before_the_deadline_is_noted(joined: Table,
                                                             tmp_path: Path) -> None:
    c = copy_of(joined, tmp_path)
    deadlines.update_deadlines(c, {"r01.pledge": "2026-05-02T18:00:00Z"})
    (note,) = deadlines.check_force(c, T - H)
    assert "has not passed" in note and "alice, bob, carol" in note
    assert deadlines.check_force(c, T + H) == []


# --- the command line ------------------------------------------------------------------------




@pytest.mark.slow
def test_cli_status_deadline_and_wait_policy(tmp_path: Path) -> None:
    t = tmp_path
    for name in ("gm", "alice", "bob"):
        run_pbem("keygen", name, cwd=t)
    run_pbem("new", "conformance", "camp", "--gm-key", "gm", "--player", "alice=alice.pub",
             "--player", "bob=bob.pub", "--option", "rounds=1", "--option", "nmr=wait", cwd=t)
    opened = tomllib.loads((t / "camp" / "gm" / "opened.toml").read_text())
    deadlines.parse_time(opened["t00.join"])  # written by pbem new, with its clock
    (t / "f").write_text(run_pbem("form", "camp", "--player", "alice", cwd=t).stdout)
    run_pbem("sign", "f", "--key", "alice", "-o", "f.signed", cwd=t)
    run_pbem("submit", "camp", "f.signed", cwd=t)

    out = run_pbem("deadline", "camp", "+48h", "--grace", "12h", cwd=t).stdout
    assert "grace           12h" in out and "t00.join        20" in out
    status = run_pbem("status", "camp", cwd=t).stdout.splitlines()
    assert "NMR policy: wait (adjudicate --force refuses: the game waits for every player)" \
        in status
    assert any(line.startswith("deadline: 20") and "(set for this phase), grace 12h until"
               in line for line in status)
    alice = next(line for line in status if line.startswith("  alice"))
    assert alice.split()[1] == "submitted" and "(received 20" in alice
    assert "  bob          missing" in status

    # Past the deadline: bob is late; --force refuses under 'wait' and writes nothing.
    run_pbem("deadline", "camp", "2001-01-01T00:00:00Z", cwd=t)
    status = run_pbem("status", "camp", cwd=t).stdout
    assert ("  bob          late (no orders; the deadline passed 2001-01-01T00:00:00Z, "
            "the grace ended 2001-01-01T12:00:00Z)") in status
    forced = run_pbem("adjudicate", "camp", "--force", cwd=t, ok=False)
    assert forced.returncode == 1 and "NMR policy 'wait'" in forced.stderr
    assert "Traceback" not in forced.stderr and not list((t / "camp" / "ledger").iterdir())
    bad = run_pbem("deadline", "camp", "soon", cwd=t, ok=False)
    assert bad.returncode == 2 and "not an RFC 3339 time" in bad.stderr

    # bob's orders arrive: adjudication records when r01.pledge opened, for --default.
    (t / "g").write_text(run_pbem("form", "camp", "--player", "bob", cwd=t).stdout)
    run_pbem("sign", "g", "--key", "bob", "-o", "g.signed", cwd=t)
    run_pbem("submit", "camp", "g.signed", cwd=t)
    run_pbem("adjudicate", "camp", cwd=t)
    run_pbem("deadline", "camp", "--default", "3d", cwd=t)
    opened = tomllib.loads((t / "camp" / "gm" / "opened.toml").read_text())
    due = at(opened["r01.pledge"]) + dt.timedelta(days=3)
    status = run_pbem("status", "camp", cwd=t).stdout
    assert f"deadline: {deadlines.format_time(due)} (default 3d after the phase opened" in status
    run_pbem("export", "camp", "public", cwd=t)
    public = run_pbem("status", "public", cwd=t).stdout
    assert "open phase: r01.pledge\nNMR policy: wait" in public
    assert "known only to the GM's copy" in public and "deadline:" not in public

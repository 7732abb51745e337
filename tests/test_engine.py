"""The campaign engine: submit, replay protection, NMR, reveal points, secrecy, audit."""

from __future__ import annotations

import contextlib
import json
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import games
from pbem.core import audit, engine, ledger
from pbem.core.campaign import open_campaign
from pbem.core.errors import AuditError, CampaignError, Problem
from pbem.core.fsutil import Stamp
from pbem.core.ruleset import PhaseSpec, State
from pbem.games.conformance import Conformance
from tests.budget import examples
from tests.conftest import Table, make_table, seeded_key, tampered_copy


def _errors(result: engine.SubmitResult) -> str:
    return "\n".join(e.render() for e in result.errors)


# --- replay protection (DESIGN.md section 3): each case has its own message ------------------


def test_replay_other_campaign_rejected(table: Table) -> None:
    text = table.signed("alice").replace(
        'campaign = "test-campaign"', 'campaign = "another-campaign"'
    )
    from pbem.core.signing import sign_text

    resigned = sign_text(text, table.player_keys["alice"], fresh=None)
    result = table.submit(resigned)
    assert "is for campaign 'another-campaign', not 'test-campaign'" in _errors(result)


def test_replay_other_phase_rejected(table: Table) -> None:
    result = table.submit(table.signed("alice", phase_id="r01.pledge"))
    assert "is for phase 'r01.pledge', but the open phase is 't00.join'" in _errors(result)


def test_replay_past_phase_rejected_after_adjudication(table: Table) -> None:
    old = table.signed("alice")
    table.submit_all()
    table.adjudicate()
    assert "is for phase 't00.join', but the open phase is 'r01.pledge'" in _errors(
        table.submit(old)
    )


def test_replay_signer_is_not_the_player(table: Table) -> None:
    text = table.signed("alice", key=table.player_keys["bob"])
    assert "signed by the key of bob, but the envelope says player 'alice'" in _errors(
        table.submit(text)
    )


def test_replay_unknown_key(table: Table) -> None:
    text = table.signed("alice", key=seeded_key("mallory"))
    assert "which is not registered for 'alice'" in _errors(table.submit(text))


def test_replay_player_not_acting_in_phase(table: Table) -> None:
    table.play_phases(3)  # join, pledge, forecast: the voyage is alice's alone (seat 1)
    _, _, phase = engine.open_phase(table.campaign)
    assert phase is not None and phase.kind == "voyage"
    idle = next(p for p in table.campaign.players if p not in phase.actors)
    from pbem.core.signing import sign_text

    text = table.form(phase.actors[0]).replace(
        f'player = "{phase.actors[0]}"', f'player = "{idle}"'
    )
    result = table.submit(sign_text(text, table.player_keys[idle], fresh=None))
    assert f"'{idle}' does not give orders in phase '{phase.id}'" in _errors(result)


def test_player_not_in_campaign(table: Table) -> None:
    from pbem.core.signing import sign_text

    text = table.form("alice").replace('player = "alice"', 'player = "zeus"')
    result = table.submit(sign_text(text, seeded_key("zeus"), fresh=None))
    assert "not registered for 'zeus'" in _errors(result)


# --- submission and the inbox ------------------------------------------------------------


def test_every_file_is_kept_in_the_inbox_even_garbage(table: Table) -> None:
    table.submit("no orders here")
    table.submit("\xff\xfe")
    table.submit(table.signed("alice"))
    inbox = sorted(p.name for p in (table.root / "gm" / "inbox").glob("*.txt"))
    assert inbox == ["000001.txt", "000002.txt", "000003.txt"]
    assert (table.root / "gm" / "inbox" / "000001.txt").read_text() == "no orders here"


def test_resubmission_replaces_and_both_are_kept(table: Table) -> None:
    first = table.signed("alice", {"motto": "first"})
    second = table.signed("alice", {"motto": "second"})
    assert table.submit(first).receipts[0].status == "accepted"
    assert table.submit(second).receipts[0].status == "replaced"
    assert table.submit(second).receipts[0].status == "unchanged"
    pending = engine.pending_orders(
        table.campaign, table.campaign.ruleset.join_phase(table.campaign.players)
    )
    assert pending["alice"].orders == {"motto": "second"}
    assert len(list((table.root / "gm" / "inbox").glob("*.txt"))) == 3
    # Resending the replaced file is a replay, not a change of mind.
    assert "already replaced by a later one" in _errors(table.submit(first))


def test_rules_violations_are_all_reported_at_once(table: Table) -> None:
    table.play_phases(1)
    result = table.submit(table.signed("alice", {"pledge": 11, "extra": 1}))
    text = _errors(result)
    assert "[orders] pledge: must be a whole number from 0 to 10" in text
    assert "[orders] extra: unknown order" in text


def test_syntax_error_says_where(table: Table) -> None:
    from pbem.core import armor
    from pbem.core.signing import sign_prepared

    bad = table.form("alice", {"motto": "x"}).replace('motto = "x"', "motto = x")
    # pbem sign refuses broken TOML; a player signing with ssh-keygen by hand does not.
    block = armor.extract(bad)[0]
    result = table.submit(sign_prepared([(block.body, block.line)], table.player_keys["alice"]))
    assert "not valid TOML" in _errors(result)
    assert "line" in _errors(result)


def test_two_blocks_in_one_file_each_decided(table: Table) -> None:
    text = table.signed("alice") + "\n" + table.signed("bob", key=table.player_keys["carol"])
    result = table.submit(text)
    assert [r.player for r in result.receipts] == ["alice"]
    assert "signed by the key of carol" in _errors(result)


# --- adjudication ------------------------------------------------------------------------


def test_adjudicate_waits_for_every_player(table: Table) -> None:
    table.submit(table.signed("alice"))
    with pytest.raises(CampaignError, match="waiting for orders from bob, carol"):
        table.adjudicate()
    assert ledger.count(table.root / "ledger") == 0


def test_force_applies_defaults_and_records_nmr(table: Table) -> None:
    table.submit(table.signed("alice"))
    assert table.adjudicate(force=True) == [1]
    record = ledger.load((table.root / "ledger" / "000001.toml").read_bytes())
    assert record["nmr"] == ["bob", "carol"]
    assert list(record["commitments"]) == ["alice"]
    table.submit(table.signed("bob", {"pledge": 4}))
    table.adjudicate(force=True)
    record = ledger.load((table.root / "ledger" / "000002.toml").read_bytes())
    assert record["nmr"] == ["alice", "carol"]


def test_automatic_phase_is_chained_after_the_last_orders(table: Table) -> None:
    table.play_phases(3)
    _, _, phase = engine.open_phase(table.campaign)
    assert phase is not None and phase.kind == "voyage"
    table.submit_all()
    written = table.adjudicate()
    assert len(written) == 2  # the voyage, then the automatic omens phase
    recs = [
        ledger.load((table.root / "ledger" / ledger.record_name(k)).read_bytes()) for k in written
    ]
    assert [r["phase"] for r in recs] == ["r01.voyage", "r01.omens"]
    assert recs[1]["commitments"] == {} and recs[1]["sealed"]["count"] == 3


def test_records_chain_and_seeds(table: Table) -> None:
    table.play_to_end()
    prev = ledger.file_hash((table.root / "campaign.toml").read_bytes())
    import hashlib

    seed = bytes.fromhex(table.campaign.config["seed_anchor"])
    for seq, data in ledger.iter_records(table.root / "ledger"):
        rec = ledger.load(data)
        assert rec["prev"] == prev and rec["seq"] == seq
        assert hashlib.sha256(bytes.fromhex(rec["seed"])).digest() == seed
        prev, seed = ledger.file_hash(data), bytes.fromhex(rec["seed"])


def test_record_field_order_is_the_design_order(table: Table) -> None:
    table.play_phases(1)
    text = (table.root / "ledger" / "000001.toml").read_text()
    keys = [line.split(" =")[0] for line in text.splitlines()[:9]]
    assert keys == [
        "format",
        "seq",
        "prev",
        "phase",
        "seed",
        "mix",
        "state_hash",
        "nmr",
        "next_phase",
    ]


# --- sealed orders and reveal points -------------------------------------------------------


def _public_text(table: Table, out: Path) -> str:
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(table.root, out, ignore=lambda d, n: ["gm"] if Path(d) == table.root else [])
    return "\n".join(p.read_text() for p in sorted(out.rglob("*")) if p.is_file())


def test_sealed_pledge_stays_secret_until_the_end(table: Table, tmp_path: Path) -> None:
    table.play_phases(1)
    marker_orders = {"pledge": 7}
    table.overrides[("r01.pledge", "alice")] = marker_orders
    table.submit_all()
    pending_text = (table.root / "gm" / "pending" / "r01.pledge" / "alice.txt").read_text()
    table.adjudicate()
    public = _public_text(table, tmp_path / "pub1")
    commitment = engine.parse_stored(pending_text, "x").commitment
    assert commitment in public  # everyone sees the commitment at once
    assert "pledge = 7" not in public  # but not the pledge
    assert pending_text.split("salt = ")[1][:66] not in public
    table.play_to_end()
    public = _public_text(table, tmp_path / "pub2")
    # The whole file is published at the end, as the ledger's TOML string holds it.
    revealed = [item["text"] for p in sorted((tmp_path / "pub2" / "ledger").glob("*.toml"))
                for item in tomllib.loads(p.read_text())["revealed"]]
    assert pending_text.split("-----BEGIN SSH SIGNATURE-----")[0] in "\n".join(revealed)


def test_reports_show_a_hand_only_to_its_holder(table: Table) -> None:
    from pbem.core import report
    from pbem.games.conformance import omens

    table.play_phases(2)  # join (the deal) and the first pledges
    state = engine.load_state(table.campaign, 1)
    assert state is not None
    for holder in table.campaign.players:
        (card,) = state["hands"][holder]
        name = omens()[card]["name"]
        dealt = report.render(table.campaign, 1, holder)
        assert name in dealt  # the holder's private event and own hand
        for other in (*[p for p in table.campaign.players if p != holder], None):
            for seq in (1, 2):
                text = report.render(table.campaign, seq, other)
                assert name not in text and f'"{card}"' not in text, (holder, other, seq)


def test_forecasts_are_revealed_at_the_named_point(table: Table) -> None:
    table.play_phases(2)  # join, pledges
    _, _, phase = engine.open_phase(table.campaign)
    assert phase is not None and phase.kind == "forecast" and phase.reveal == "r01.landfall"
    table.submit_all()
    (k,) = table.adjudicate()
    rec = ledger.load((table.root / "ledger" / ledger.record_name(k)).read_bytes())
    assert rec["orders"] == {} and rec["revealed"] == []
    table.submit_all()
    written = table.adjudicate()
    voyage = ledger.load((table.root / "ledger" / ledger.record_name(written[0])).read_bytes())
    assert sorted(r["player"] for r in voyage["revealed"]) == sorted(phase.actors)
    assert all(r["seq"] == k for r in voyage["revealed"])


def test_final_record_reveals_everything(table: Table) -> None:
    table.play_to_end()
    n = ledger.count(table.root / "ledger")
    final = ledger.load((table.root / "ledger" / ledger.record_name(n)).read_bytes())
    assert final["game_over"] is True and final["next_phase"] == ""
    import hashlib

    head = bytes.fromhex(final["sealed_head"])
    assert head == hashlib.sha256(b"t-head").digest()
    pledges = [r for r in final["revealed"] if r["phase"].endswith(".pledge")]
    assert len(pledges) == 2 * 3  # two rounds, three players
    assert {d["seq"] for d in final["sealed_draws"]} == {1, 5, 9}
    with pytest.raises(CampaignError, match="game is over"):
        table.adjudicate()


# --- determinism and audit ---------------------------------------------------------------


def test_same_inputs_give_byte_identical_ledgers(table_factory: Callable[..., Table]) -> None:
    a, b = table_factory(), table_factory()
    a.play_to_end()
    b.play_to_end()
    assert a.ledger_bytes() == b.ledger_bytes()


def test_gm_audit_replays_every_phase_midgame(table: Table) -> None:
    table.play_phases(5)
    result = audit.audit(table.campaign)
    assert result.replayed and not result.game_over and result.records >= 5


def test_gm_audit_checks_pending_order_files(table: Table) -> None:
    table.play_phases(1)
    table.submit(table.signed("alice", {"pledge": 3}))
    audit.audit(table.campaign)
    path = table.root / "gm" / "pending" / "r01.pledge" / "alice.txt"
    path.write_text(path.read_text().replace("pledge = 3", "pledge = 9"))
    with pytest.raises(AuditError, match=r"pending\.alice"):
        audit.audit(table.campaign)


def test_public_audit_before_the_end_checks_public_parts_only(table: Table, tmp_path: Path) -> None:
    table.play_phases(5)
    _public_text(table, tmp_path / "pub")
    public = open_campaign(tmp_path / "pub", games.get)
    result = audit.audit(public)
    assert not result.replayed and result.notes


def test_public_audit_after_the_end_replays_everything(table: Table, tmp_path: Path) -> None:
    table.play_to_end()
    _public_text(table, tmp_path / "pub")
    result = audit.audit(open_campaign(tmp_path / "pub", games.get))
    assert result.replayed and result.game_over


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    t = make_table(tmp_path_factory.mktemp("finished") / "camp")
    t.play_to_end()
    return t.root


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_single_byte_change_of_a_record_is_detected(
    finished: Path, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    work = tampered_copy(finished, tmp_path_factory.mktemp("tamper") / "camp", data)
    with pytest.raises((AuditError, CampaignError)):
        audit.audit(open_campaign(work, games.get))


def test_audit_names_record_and_field_of_a_forged_draw(table: Table) -> None:
    table.play_phases(4)
    path = table.root / "ledger" / "000001.toml"
    text = path.read_text()
    import re

    forged = re.sub(
        r'(i = 1, label = "seating/1", n = 2, value = )(\d)',
        lambda m: m.group(1) + str(int(m.group(2)) % 2 + 1),
        text,
    )
    assert forged != text
    path.write_text(forged)
    # Re-sign as a dishonest GM would: the signature is fine, the draw is not.
    from pbem.core.campaign import sign_file_bytes

    (table.root / "ledger" / "000001.toml.sig").write_bytes(
        sign_file_bytes(forged.encode(), table.gm)
    )
    with pytest.raises(AuditError, match=r"record 000001: draws\[1\]\.value: recomputes to"):
        audit.audit(table.campaign)


def test_interrupted_adjudication_reruns_to_identical_bytes(
    table_factory: Callable[..., Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = table_factory()
    reference.play_to_end()
    want = reference.ledger_bytes()
    import pbem.core.engine as eng

    real, real_fresh = eng.atomic_write, eng._write_fresh
    # Crash after every possible number of completed writes within one adjudication. The
    # GM's files of the record are written in place (_write_fresh): the crash there leaves
    # half a file, which the rerun must write again whole.
    for crash_after in range(0, 12):
        t = table_factory()
        t.play_phases(3)
        t.submit_all()
        calls = {"n": 0}

        def flaky(
            path: Path, data: bytes, mode: int = 0o644, calls=calls, crash_after=crash_after,
            **kwargs: bool,
        ) -> Stamp:
            if calls["n"] >= crash_after:
                raise KeyboardInterrupt("simulated kill")
            calls["n"] += 1
            return real(path, data, mode, **kwargs)

        def torn(path: str, data: bytes, durable: bool, mode: int = 0o600, calls=calls,
                 crash_after=crash_after) -> Stamp:
            if calls["n"] >= crash_after:
                real_fresh(path, data[: len(data) // 2], durable, mode)
                raise KeyboardInterrupt("simulated kill")
            calls["n"] += 1
            return real_fresh(path, data, durable, mode)

        monkeypatch.setattr(eng, "atomic_write", flaky)
        monkeypatch.setattr(eng, "_write_fresh", torn)
        with contextlib.suppress(KeyboardInterrupt):
            t.adjudicate()
        monkeypatch.setattr(eng, "atomic_write", real)
        monkeypatch.setattr(eng, "_write_fresh", real_fresh)
        t.play_to_end()  # reruns the interrupted adjudication with the orders already in
        assert t.ledger_bytes() == want, crash_after
        assert audit.audit(t.campaign).records == len(want) // 2, crash_after


def test_nmr_policy_wait_refuses_force_in_the_engine_itself(tmp_path: Path) -> None:
    """The policy binds every caller of the engine, not only the command line."""
    from pbem.core import campaign as campaign_mod
    from tests.conftest import PLAYERS

    gm = seeded_key("gm")
    campaign_mod.create(tmp_path / "c", games.get("conformance"), campaign_id="wait-test",
                        gm_key=gm, gm_key_path="gm",
                        players={p: seeded_key(p).public_key().public_bytes_raw()
                                 for p in PLAYERS},
                        options={"rounds": "1", "nmr": "wait"}, chain_length=16)
    c = campaign_mod.open_campaign(tmp_path / "c", games.get)
    with pytest.raises(CampaignError, match="campaign wait-test has the NMR policy 'wait'"):
        engine.adjudicate(c, lambda: gm, force=True)
    assert ledger.count(c.ledger_dir) == 0


# --- the reveal step (unrevealed.json) --------------------------------------------------------


def _reveal_reference(waiting: list[dict], seq: int, phase: object, accepted: list[str],
                      over: bool, reveals: tuple[str, ...]) -> tuple[list[dict], list[dict]]:
    """The reveal rule written out plainly (DESIGN.md section 4): every waiting file is due at
    the end of its own phase, at a named point the rules announce, or at the end."""
    from pbem.core.ruleset import REVEAL_GAME, REVEAL_PHASE

    items = list(waiting)
    if phase.sealed:  # type: ignore[attr-defined]
        items += [{"seq": seq, "player": p, "phase": phase.id,  # type: ignore[attr-defined]
                   "reveal": phase.reveal} for p in sorted(accepted)]  # type: ignore[attr-defined]
    due = [x for x in items if over or (x["reveal"] == REVEAL_PHASE and x["seq"] == seq) or (
        x["reveal"] not in (REVEAL_PHASE, REVEAL_GAME) and x["reveal"] in reveals)]
    return due, [x for x in items if x not in due]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(st.integers(1, 9), st.sampled_from(["a", "b", "c"]),
                          st.sampled_from(["game", "omen", "dawn"])), max_size=12, unique=True),
       st.booleans(), st.sampled_from(["phase", "game", "omen"]), st.booleans(),
       st.lists(st.sampled_from(["omen", "dawn"]), max_size=2, unique=True),
       st.lists(st.sampled_from(["a", "b", "c"]), max_size=3, unique=True))
def test_reveal_step_agrees_with_the_plain_rule(
        older: list[tuple[int, str, str]], sealed: bool, reveal: str, over: bool,
        reveals: list[str], accepted: list[str]) -> None:
    """The fast path (no walk over what waits for the end) gives what the plain rule gives."""
    from pbem.core.ruleset import Outcome, PhaseSpec

    if reveal != "phase" and not sealed:
        reveal = "phase"
    phase = PhaseSpec("t10.x", "x", ("a", "b", "c"), sealed=sealed, reveal=reveal)
    waiting = [{"seq": k, "player": p, "phase": f"t{k:02d}.x", "reveal": r}
               for k, p, r in older]
    res = engine.Resolution.__new__(engine.Resolution)
    res.outcome = Outcome({}, reveals=tuple(reveals))
    res.next_phase = None if over else phase
    before = [dict(x) for x in waiting]
    got = engine.reveal_step(waiting, 10, phase, accepted, res)
    assert got == _reveal_reference(waiting, 10, phase, accepted, over, tuple(reveals))
    assert waiting == before  # the caller's list is left alone


def test_unrevealed_of_a_campaign_made_before_it_had_its_own_file(tmp_path: Path) -> None:
    """Campaigns adjudicated by earlier versions kept the list of sealed files still waiting in
    private.json: such a campaign plays on to the same ledger, and audits."""
    import json

    from pbem.core import campaign as campaign_mod
    from tests.conftest import Table

    a = make_table(tmp_path / "a")
    a.play_phases(3)
    assert any(engine.load_unrevealed(a.campaign, k)
               for k in range(1, ledger.count(a.campaign.ledger_dir) + 1))
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    for rdir in sorted((tmp_path / "b" / "gm" / "records").iterdir()):
        private = json.loads((rdir / "private.json").read_text())
        # The whole list, as pbem kept it then (a record's file may hold only additions).
        private["unrevealed"] = engine.load_unrevealed(a.campaign, int(rdir.name))
        (rdir / "private.json").write_text(json.dumps(private))
        (rdir / "unrevealed.json").unlink(missing_ok=True)
    b = Table(tmp_path / "b", campaign_mod.open_campaign(tmp_path / "b", games.get), a.gm,
              a.player_keys)
    a.play_to_end()
    b.play_to_end()
    assert a.ledger_bytes() == b.ledger_bytes()
    assert audit.audit(b.campaign).replayed


def _unrevealed_files(t: Table) -> dict[int, Any]:
    out = {}
    for k in range(1, ledger.count(t.campaign.ledger_dir) + 1):
        path = engine.record_dir(t.campaign, k) / "unrevealed.json"
        if path.is_file():
            out[k] = json.loads(path.read_bytes())
    return out


@pytest.mark.parametrize("span", [2, engine.UNREVEALED_SPAN])
def test_unrevealed_files_hold_additions_to_a_recent_whole_list(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, span: int) -> None:
    """While sealed files only pile up (the conformance pledges wait for the end of the game),
    a record's unrevealed.json holds what was added since a whole list at most ``span``
    records back, not its whole growing list; a cold reader gets the same lists, and the
    ledger does not depend on how they are kept."""
    monkeypatch.setattr(engine, "UNREVEALED_SPAN", span)
    t = make_table(tmp_path / "camp", rounds="4")
    t.play_to_end()
    files = _unrevealed_files(t)
    deltas = {k: f for k, f in files.items() if isinstance(f, dict)}
    assert deltas and any(isinstance(f, list) for f in files.values())
    for k, f in deltas.items():
        assert 0 < k - f["base"] <= span and isinstance(files[f["base"]], list), k
    warm = {k: engine.load_unrevealed(t.campaign, k) for k in files}
    engine._waiting.clear()
    assert {k: engine.load_unrevealed(t.reopen(), k) for k in files} == warm
    for k, f in deltas.items():
        assert warm[k] == files[f["base"]] + f["added"]
    reference = make_table(tmp_path / "ref", rounds="4")
    monkeypatch.setattr(engine, "UNREVEALED_SPAN", 0)  # whole lists only
    reference.play_to_end()
    assert not any(isinstance(f, dict) for f in _unrevealed_files(reference).values())
    assert t.ledger_bytes() == reference.ledger_bytes()
    assert audit.audit(t.campaign, jobs=1).replayed


def test_a_damaged_unrevealed_file_is_named(tmp_path: Path) -> None:
    t = make_table(tmp_path / "camp", rounds="4")
    t.play_phases(4)
    k, f = next((k, f) for k, f in _unrevealed_files(t).items() if isinstance(f, dict))
    path = engine.record_dir(t.campaign, k) / "unrevealed.json"
    for bad in ({"base": k, "added": []}, {"base": f["base"]}, {"base": True, "added": []}):
        path.write_text(json.dumps(bad))
        engine._waiting.clear()
        with pytest.raises(CampaignError, match=r"unrevealed\.json is damaged"):
            engine.load_unrevealed(t.reopen(), k)


def test_no_unrevealed_file_when_nothing_waits_and_a_stale_one_goes(table: Table) -> None:
    """unrevealed.json is written only when sealed files wait; a file left in the record's
    directory by an interrupted run (whose orders differed) does not survive the rerun."""
    stale = engine.record_dir(table.campaign, 1) / "unrevealed.json"
    stale.parent.mkdir(parents=True)
    stale.write_text('[{"seq": 1, "player": "alice", "phase": "join", "reveal": "game"}]')
    table.play_phases(1)  # the join: nothing sealed
    assert not stale.exists()
    assert engine.load_unrevealed(table.campaign, 1) == []
    table.play_phases(1)  # the first pledges: sealed until the end of the game
    assert (engine.record_dir(table.campaign, 2) / "unrevealed.json").is_file()
    assert [w["player"] for w in engine.load_unrevealed(table.campaign, 2)] == sorted(
        table.campaign.players)


class _Waiting(Conformance):
    """Conformance whose pledges each wait on something earlier in the phase."""

    name = "conformance-waiting"

    def provisional(self, state: State, phase: PhaseSpec, player: str,
                    orders: dict[str, Any]) -> list[Problem]:
        if phase.kind == "pledge":
            return [Problem("[orders] pledge", "waits on the pledges before it")]
        return []


def test_issue12_receipt_and_verify_say_what_is_checked_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ruleset.check's provisional list reaches the receipt of pbem submit and the output of
    pbem verify ("accepted; checked again when it runs"); refused orders get none."""
    from tests.conftest import run_pbem

    ruleset = _Waiting()
    monkeypatch.setitem(games._extra, ruleset.name, ruleset)  # games.register, undone after
    t = make_table(tmp_path / "camp", rounds="1", ruleset=ruleset)
    t.play_phases(1)  # the joins
    assert engine.open_phase(t.campaign)[2].kind == "pledge"  # type: ignore[union-attr]
    (tmp_path / "a.txt").write_text(t.signed("alice", {"pledge": 2}))
    verified = run_pbem("verify", "a.txt", "--campaign", str(t.root), cwd=tmp_path).stdout
    assert "  accepted; checked again when it runs: [orders] pledge: waits on the pledges " \
           "before it" in verified
    receipt = t.submit(t.signed("alice", {"pledge": 2})).receipts[0]
    assert receipt.notes == ("[orders] pledge: waits on the pledges before it",)
    refused = t.submit(t.signed("bob", {"pledge": 99}))
    assert refused.errors and not refused.receipts


def test_a_caller_that_changes_a_shared_state_is_caught(table: Table) -> None:
    """load_state(shared=True) hands out the engine's own copy for reading; the test suite's
    check (engine.CHECK_SHARED, set in conftest) catches a caller that writes into it."""
    table.play_phases(1)
    seq, state, _ = engine.open_phase(table.campaign, shared=True)
    assert state is not None
    again = engine.load_state(table.campaign, seq, shared=True)
    assert again is state  # no copy
    fresh = engine.load_state(table.campaign, seq)
    assert fresh == state and fresh is not state
    fresh["round"] = 99  # a fresh copy is the caller's own
    assert engine.load_state(table.campaign, seq, shared=True)["round"] != 99
    state["round"] = 99
    with pytest.raises(AssertionError, match="changed the shared state of record"):
        engine.load_state(table.campaign, seq)
    engine._states.clear()  # the test's own damage, not the campaign's

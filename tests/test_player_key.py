"""Issue 19 point 2: ``pbem player-key`` replaces a lost key mid-campaign.

The change is queued in ``gm/key_changes.toml``, carried by the next record as
``[[key_changes]]`` and valid from the record after (DESIGN.md section 8); every audit, the
GM's and an exported copy's, checks each order against the key valid for its record, and a
player proves a swap with ``pbem receipts`` given all their keys."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest

from pbem import games
from pbem.core import audit, engine, keychange, keys, ledger, report, sshsig
from pbem.core.campaign import export_public, open_campaign
from pbem.core.errors import CampaignError
from pbem.core.receipts import check as receipts_check
from tests.conftest import Table, make_table, run_pbem, seeded_key


def _raw(label: str) -> bytes:
    return seeded_key(label).public_key().public_bytes_raw()


def test_19_2_the_next_record_carries_the_change_and_the_record_after_takes_the_new_key(
        tmp_path: Path) -> None:
    t = make_table(tmp_path / "gm")
    t.play_phases(1)  # r01.pledge is open: everyone gives orders
    assert not t.submit(t.signed("alice")).errors  # with the old key, before the change
    queued = keychange.queue(t.campaign, "alice", _raw("alice-new"), "lost a phone")
    k = ledger.count(t.root / "ledger") + 1
    assert (queued.record, queued.from_record, queued.old) == (k, k + 1, _raw("alice"))

    # The open phase still takes the old key; the new one is refused, saying from when.
    (early,) = t.submit(t.signed("alice", key=seeded_key("alice-new"))).errors
    assert f"registered from record {k + 1} on" in early.render()
    for p in ("bob", "carol"):
        t.submit(t.signed(p))
    t.adjudicate()
    record = tomllib.loads((t.root / "ledger" / ledger.record_name(k)).read_text())
    assert record["key_changes"] == [{
        "principal": "alice", "old": keys.public_key_line(_raw("alice")),
        "new": keys.public_key_line(_raw("alice-new")), "reason": "lost a phone"}]
    assert not (t.root / "gm" / keychange.QUEUE).exists()

    t.reopen()
    (old,) = t.submit(t.signed("alice")).errors  # from record k+1 the old key is refused
    assert f"signed by alice's former key {sshsig.fingerprint(_raw('alice'))}, which the " \
        f"GM replaced from record {k + 1} on (the GM: lost a phone)" in old.render()
    t.player_keys["alice"] = seeded_key("alice-new")
    t.play_to_end()
    assert audit.audit(t.campaign).replayed
    export_public(t.root, tmp_path / "public")
    said: list[str] = []
    assert audit.audit(open_campaign(tmp_path / "public", games.get), said.append).replayed
    assert f"record {k:06d}: key of alice changed from record {k + 1:06d} on " \
        "(lost a phone)" in said
    # Every report of the record tells the players.
    text = report.render(t.campaign, k, "bob", "txt")
    assert f"Key change: from record {k + 1} on, alice signs" in text
    assert sshsig.fingerprint(_raw("alice-new")) in text.replace("\n  ", " ")


def test_19_2_orders_of_the_new_key_verify_with_ssh_keygen_against_that_records_signers(
        tmp_path: Path, ssh_keygen: str) -> None:
    """An independent verifier: OpenSSH, given the signers valid at the record (the
    campaign's [keys] with the change applied), accepts the order the new key signed."""
    t = make_table(tmp_path / "gm")
    t.play_phases(1)
    keychange.queue(t.campaign, "alice", _raw("alice-new"))
    t.play_phases(1)
    t.reopen()
    t.player_keys["alice"] = seeded_key("alice-new")
    t.play_to_end()
    first = ledger.count(t.root / "ledger")
    seq, text = next((k, rec["orders"]["alice"]) for k in range(3, first + 1)
                     if "alice" in (rec := tomllib.loads(
                         (t.root / "ledger" / ledger.record_name(k)).read_text()))["orders"])
    assert t.campaign.keys_at(seq)["alice"] == _raw("alice-new")
    body, sig = _split(text)
    (tmp_path / "body").write_bytes(body)
    (tmp_path / "body.sig").write_text(sig)
    signers = tmp_path / "signers"
    signers.write_text(f'alice namespaces="pbem-orders" '
                       f'{keys.public_key_line(t.campaign.keys_at(seq)["alice"])}\n')
    done = subprocess.run([ssh_keygen, "-Y", "verify", "-f", str(signers), "-I", "alice",
                           "-n", "pbem-orders", "-s", str(tmp_path / "body.sig")],
                          input=body, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr


def _split(text: str) -> tuple[bytes, str]:
    head, _, rest = text.partition("-----END PBEM ORDERS-----\n")
    return head.split("-----BEGIN PBEM ORDERS-----\n", 1)[1].encode(), rest


@pytest.mark.parametrize(("name", "new", "reason", "message"), [
    ("gm", "gm-new", "x", "the GM's own key is not changed by this command"),
    ("mallory", "m", "x", "'mallory' is not a player"),
    ("alice", "bob", "x", "is already the key of bob"),
    ("alice", "gm", "x", "is already the key of the GM"),
    ("alice", "alice", "x", "is already the key of alice"),
    ("alice", "alice-new", "", "--reason must be one line"),
    ("alice", "alice-new", "a\u202eb", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    pytest.param("alice", "alice-new", "x" * 1001, "--reason must be one line of 1 to 1000",
                 id="alice-alice-new-long-reason"),
])
def test_19_2_a_change_that_cannot_be_audited_is_refused(tmp_path: Path, name: str, new: str,
                                                          reason: str, message: str) -> None:
    t = make_table(tmp_path / "gm")
    with pytest.raises(CampaignError) as err:
        keychange.queue(t.campaign, name, _raw(new), reason)
    assert message in str(err.value)
    assert not (t.root / "gm" / keychange.QUEUE).exists()


def test_19_2_a_version_1_campaign_and_a_finished_game_take_no_change(tmp_path: Path) -> None:
    old = make_table(tmp_path / "v1", version=1)
    with pytest.raises(CampaignError, match="version 1 campaign"):
        keychange.queue(old.campaign, "alice", _raw("alice-new"))
    t = make_table(tmp_path / "gm")
    t.play_to_end()
    with pytest.raises(CampaignError, match="the game is over"):
        keychange.queue(t.campaign, "alice", _raw("alice-new"))


def test_19_2_two_changes_queued_apply_in_order(tmp_path: Path) -> None:
    """The second change's old key is the first change's new one."""
    t = make_table(tmp_path / "gm")
    t.play_phases(1)
    keychange.queue(t.campaign, "alice", _raw("alice-2"))
    keychange.queue(t.campaign, "alice", _raw("alice-3"), "the second laptop")
    t.play_phases(1)
    k = ledger.count(t.root / "ledger")
    t.reopen()
    assert t.campaign.keys_at(k + 1)["alice"] == _raw("alice-3")
    t.player_keys["alice"] = seeded_key("alice-3")
    t.play_to_end()
    assert audit.audit(t.campaign).replayed


def test_19_2_a_queue_left_by_a_killed_run_is_never_applied_twice(tmp_path: Path) -> None:
    """A run killed after the record that carries the change, before the queue went: the
    queue names a record that exists, so the next record does not carry it again."""
    t = make_table(tmp_path / "gm")
    t.play_phases(1)
    keychange.queue(t.campaign, "alice", _raw("alice-new"))
    queue = (t.root / "gm" / keychange.QUEUE).read_bytes()
    t.play_phases(1)
    (t.root / "gm" / keychange.QUEUE).write_bytes(queue)  # as if never removed
    t.reopen()
    assert keychange.pending(t.campaign) == []
    t.player_keys["alice"] = seeded_key("alice-new")
    t.play_phases(1)
    last = ledger.count(t.root / "ledger")
    assert "key_changes" not in tomllib.loads(
        (t.root / "ledger" / ledger.record_name(last)).read_text())
    assert audit.audit(t.reopen()).replayed


def _play(t: Table, sent: dict[str, list[str]]) -> None:
    """Every actor of the open phase signs with their key now and submits; the phase is
    adjudicated; what each sent is added to ``sent``."""
    phase = engine.open_phase(t.campaign)[2]
    assert phase is not None
    for p in phase.actors:
        text = t.signed(p)
        assert not t.submit(text).errors
        sent.setdefault(p, []).append(text)
    t.adjudicate()
    t.reopen()


def _played_with_a_change(tmp_path: Path) -> tuple[Table, dict[str, list[str]]]:
    t = make_table(tmp_path / "gm")
    sent: dict[str, list[str]] = {}
    _play(t, sent)
    keychange.queue(t.campaign, "alice", _raw("alice-new"), "lost a phone")
    _play(t, sent)
    t.player_keys["alice"] = seeded_key("alice-new")
    _play(t, sent)
    return t, sent


def test_19_2_receipts_take_every_key_of_the_player_and_catch_one_not_theirs(
        tmp_path: Path) -> None:
    t, sent = _played_with_a_change(tmp_path)
    files = [(f"sent-{n}.txt", text) for n, text in enumerate(sent["alice"])]
    both = receipts_check(t.campaign, "alice", [_raw("alice"), _raw("alice-new")], files)
    assert both.mismatches == [], both.lines
    assert any("changes your key" in line and "(the GM: lost a phone)" in line
               for line in both.lines)
    # Given only the new key: the campaign's first key is not one of theirs, and the files
    # signed before the change are not signed by a key they named.
    new_only = receipts_check(t.campaign, "alice", [_raw("alice-new")], files)
    assert any("campaign.toml [keys] gives alice the key" in m for m in new_only.mismatches)
    # Given only the old key (a player who never asked for a change): the GM's change is
    # the mismatch, with its record.
    old_only = receipts_check(t.campaign, "alice", [_raw("alice")], files[:2])
    assert any("key change gives alice the key" in m and "not one of yours" in m
               for m in old_only.mismatches)


def test_19_2_the_command_line_queues_and_says_when_the_new_key_signs(tmp_path: Path) -> None:
    t = make_table(tmp_path / "gm")
    t.play_phases(1)
    pub = tmp_path / "new.pub"
    pub.write_text(keys.public_key_line(_raw("alice-new"), "alice@phone") + "\n")
    done = run_pbem("player-key", str(t.root), "alice", str(pub), "--reason", "lost a phone",
                    cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "carried by record 2 and valid from record 3 on" in done.stdout
    assert engine.open_phase(t.reopen())[2] is not None
    assert keychange.pending(t.campaign)[0].new == _raw("alice-new")
    again = run_pbem("player-key", str(t.root), "alice", str(pub), cwd=tmp_path, ok=False)
    assert again.returncode != 0 and "is already the key of alice" in again.stderr


def test_19_2_a_key_swapped_for_one_record_and_back_fails_the_players_receipts(
        tmp_path: Path) -> None:
    """The GM gives alice a key of theirs for one record (to sign an order in her name),
    then gives hers back: the audit passes, her receipts with her one key do not."""
    t = make_table(tmp_path / "gm")
    hers: dict[str, list[str]] = {}  # what alice signed with her own key
    _play(t, hers)
    keychange.queue(t.campaign, "alice", _raw("gm-puppet"), "lost a phone")
    _play(t, hers)
    t.player_keys["alice"] = seeded_key("gm-puppet")
    keychange.queue(t.campaign, "alice", _raw("alice"), "found it again")
    _play(t, {})
    t.player_keys["alice"] = seeded_key("alice")
    t.play_to_end()
    sent = hers["alice"]
    assert audit.audit(t.campaign).replayed
    found = receipts_check(t.campaign, "alice", [_raw("alice")],
                           [(f"sent-{n}.txt", s) for n, s in enumerate(sent)])
    (swap,) = found.mismatches  # her own files and commitments are all there
    assert "not one of yours" in swap
    assert "record 000002's key change gives alice the key" in swap
    assert sshsig.fingerprint(_raw("gm-puppet")) in swap


KEYCHANGE_EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "conformance-keychange-3p"


def _keychange_campaign(root: Path) -> Table:
    """The example's campaign: the tests' three-player conformance table, alice's key
    replaced by the GM while phase r01.pledge is open (carried by record 2, hers from record
    3 on), played to the end with the seeded keys and the forms' fixed salts."""
    t = make_table(root)
    _play(t, {})
    keychange.queue(t.campaign, "alice", _raw("alice-new"), "lost her phone")
    _play(t, {})
    t.player_keys["alice"] = seeded_key("alice-new")
    t.play_to_end()
    return t


def test_19_2_the_key_change_example_is_what_the_table_plays_and_audits(
        tmp_path: Path, ssh_keygen: str) -> None:
    """examples/conformance-keychange-3p, for those who write verifiers: record 2 carries the
    change; every audit replays the whole game; alice's orders after it verify with OpenSSH
    against her new key and not her old one. PBEM_REGENERATE_GOLDEN=1 writes it anew."""
    import os
    import shutil

    t = _keychange_campaign(tmp_path / "gm")
    made = tmp_path / "public"
    export_public(t.root, made)
    if os.environ.get("PBEM_REGENERATE_GOLDEN"):
        shutil.rmtree(KEYCHANGE_EXAMPLE, ignore_errors=True)
        shutil.copytree(made, KEYCHANGE_EXAMPLE)
    want = sorted(p.relative_to(made) for p in made.rglob("*") if p.is_file())
    assert want == sorted(p.relative_to(KEYCHANGE_EXAMPLE)
                          for p in KEYCHANGE_EXAMPLE.rglob("*") if p.is_file())
    for rel in want:
        assert (made / rel).read_bytes() == (KEYCHANGE_EXAMPLE / rel).read_bytes(), (
            f"{rel} differs (regenerate: PBEM_REGENERATE_GOLDEN=1 pytest {__file__})")
    c = open_campaign(KEYCHANGE_EXAMPLE, games.get)
    result = audit.audit(c)
    assert result.replayed and result.game_over
    record = tomllib.loads((KEYCHANGE_EXAMPLE / "ledger" / "000002.toml").read_text())
    assert [k["principal"] for k in record["key_changes"]] == ["alice"]
    later = [(k, rec["orders"]["alice"]) for k in range(3, result.records + 1)
             if "alice" in (rec := tomllib.loads(
                 (KEYCHANGE_EXAMPLE / "ledger" / ledger.record_name(k)).read_text()))["orders"]]
    assert later
    body, sig = _split(later[0][1])
    (tmp_path / "body.sig").write_text(sig)
    for key, ok in ((_raw("alice-new"), True), (_raw("alice"), False)):
        (tmp_path / "signers").write_text(
            f'alice namespaces="pbem-orders" {keys.public_key_line(key)}\n')
        done = subprocess.run([ssh_keygen, "-Y", "verify", "-f", str(tmp_path / "signers"),
                               "-I", "alice", "-n", "pbem-orders", "-s",
                               str(tmp_path / "body.sig")], input=body, capture_output=True,
                              check=False)
        assert (done.returncode == 0) == ok, done.stderr

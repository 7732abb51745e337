"""Issue 13 section 1, last point: key changes are GM-signed ledger events (DESIGN.md section 8,
``pbem-ledger/2`` ``[[key_changes]]``), in effect from the record after the one that carries
them. No command writes one yet (``pbem player-key`` is issue 19's); these tests write the
record as that command will, and check what the engine and every audit make of it."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.core import audit, ledger
from pbem.core.campaign import export_public, key_text, open_campaign, sign_file_bytes
from tests.conftest import Table, make_table, seeded_key


def _raw(name: str) -> bytes:
    return seeded_key(name).public_key().public_bytes_raw()


def _add_key_changes(t: Table, changes: list[dict[str, Any]]) -> int:
    """Put ``changes`` into the last record and sign it again with the GM's key, as the
    adjudication that carries a key change will; the campaign is opened afresh."""
    seq = ledger.count(t.root / "ledger")
    path = t.root / "ledger" / ledger.record_name(seq)
    record = tomllib.loads(path.read_text())
    record["key_changes"] = changes
    data = ledger.dump(record)
    path.write_bytes(data)
    (path.parent / f"{path.name}.sig").write_bytes(sign_file_bytes(data, t.gm))
    t.reopen()
    return seq


def _change(principal: str, old: str, new: str) -> dict[str, Any]:
    return {"principal": principal, "old": key_text(_raw(old)), "new": key_text(_raw(new)),
            "reason": f"{principal} lost a laptop"}


def test_13_1_a_players_new_key_signs_from_the_next_record_on(tmp_path: Path) -> None:
    t = make_table(tmp_path / "gm")
    t.play_phases(2)
    k = _add_key_changes(t, [_change("alice", "alice", "alice-new")])
    text = ledger.record_name(k)
    assert "[[key_changes]]" in (t.root / "ledger" / text).read_text()
    assert t.campaign.keys_at(k)["alice"] == _raw("alice")       # the record itself: old key
    assert t.campaign.keys_at(k + 1)["alice"] == _raw("alice-new")

    (error,) = t.submit(t.signed("alice")).errors  # the old key no longer signs for alice
    assert "signed by alice's former key" in error.render()
    t.player_keys["alice"] = seeded_key("alice-new")
    t.play_to_end()

    result = audit.audit(t.campaign)  # the GM's audit: every phase re-adjudicated
    assert result.replayed and result.game_over
    export_public(t.root, tmp_path / "public")
    said: list[str] = []
    assert audit.audit(open_campaign(tmp_path / "public", games.get), said.append).replayed
    assert f"record {k:06d}: key of alice changed from record {k + 1:06d} on " \
        "(alice lost a laptop)" in said


def test_13_1_a_new_gm_key_signs_the_records_after_the_change(tmp_path: Path) -> None:
    t = make_table(tmp_path / "gm")
    t.play_phases(1)
    _add_key_changes(t, [_change("gm", "gm", "gm-new")])
    t.submit_all()
    with pytest.raises(Exception, match="not the key registered for 'gm'"):
        t.adjudicate()
    t.gm = seeded_key("gm-new")
    t.play_to_end()
    assert audit.audit(t.campaign).replayed
    # A record after the change signed with the old key fails, by its signature.
    last = ledger.count(t.root / "ledger")
    sig = t.root / "ledger" / f"{ledger.record_name(last)}.sig"
    sig.write_bytes(sign_file_bytes((t.root / "ledger" / ledger.record_name(last)).read_bytes(),
                                    seeded_key("gm")))
    with pytest.raises(audit.AuditError, match=f"record {last:06d}: signature"):
        audit.audit(t.reopen())


@pytest.mark.parametrize(("change", "message"), [
    (_change("alice", "bob", "alice-new"), "old is not alice's key at that point"),
    (_change("alice", "alice", "bob"), "new is already bob's key"),
    (_change("mallory", "alice", "alice-new"), "'mallory' is not a principal"),
])
def test_13_1_a_key_change_that_does_not_fit_fails_the_audit(tmp_path: Path, change: dict,
                                                             message: str) -> None:
    t = make_table(tmp_path / "gm")
    t.play_phases(1)
    k = _add_key_changes(t, [change])
    with pytest.raises(audit.AuditError, match=f"record {k:06d}: key_changes\\[0\\]") as err:
        audit.audit(t.campaign)
    assert message in str(err.value)


def test_13_1_key_changes_are_not_a_field_of_a_version_1_record(tmp_path: Path) -> None:
    t = make_table(tmp_path / "gm", version=1)
    t.play_phases(1)
    k = _add_key_changes(t, [_change("alice", "alice", "alice-new")])
    with pytest.raises(audit.AuditError, match=f"record {k:06d}: key_changes: malformed: is not "
                       "a field of a pbem-ledger/1 record"):
        audit.audit(t.campaign)


def test_13_1_key_change_shapes_are_checked_before_use(tmp_path: Path) -> None:
    t = make_table(tmp_path / "gm")
    t.play_phases(1)
    bad = {**_change("alice", "alice", "alice-new"), "new": "ssh-rsa AAAA"}
    k = _add_key_changes(t, [bad])
    with pytest.raises(audit.AuditError, match=f"record {k:06d}: key_changes\\[0\\].new: "
                       "malformed: must be a key 'ssh-ed25519 <base64>'"):
        audit.audit(t.campaign)


def test_13_1_the_audit_names_the_change_that_does_not_fit(tmp_path: Path) -> None:
    """Two changes in one record, the second wrong: the audit names key_changes[1]."""
    t = make_table(tmp_path / "gm")
    t.play_phases(1)
    k = _add_key_changes(t, [_change("alice", "alice", "alice-new"),
                             _change("bob", "alice", "bob-new")])
    with pytest.raises(audit.AuditError, match=f"record {k:06d}: key_changes\\[1\\]") as err:
        audit.audit(t.campaign)
    assert "old is not bob's key at that point" in str(err.value)

"""The audit's first pass on several processes (issue 20, target 6): forked workers check
records ahead of the parent (the GM's detached signatures, the TOML and shape, the order
files' armor and signatures); the parent walks the records in order. A fault in a record a
worker checked is named exactly as one process names it, and the earliest fault wins."""

from __future__ import annotations

import multiprocessing
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import games
from pbem.core import audit, ledger
from pbem.core.campaign import key_text, open_campaign, sign_file_bytes
from pbem.core.errors import AuditError
from tests.budget import examples
from tests.conftest import make_table, seeded_key

pytestmark = [pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                 reason="the parallel audit forks its workers"),
              pytest.mark.xdist_group("audit-pass1")]  # module-scoped campaign, made once

CHUNK = 3  # records per worker task here: record 4 is the second task's first record
SIG = "-----BEGIN SSH SIGNATURE-----"


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    # A short campaign is split (workers see the patch: they are forked after it).
    monkeypatch.setattr(audit, "MIN_SPAN", 2)
    monkeypatch.setattr(audit, "AHEAD_CHUNK", CHUNK)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished conformance campaign of three rounds (13 records): voyages publish their
    orders and reveal the forecasts; the final record reveals the sealed pledges."""
    t = make_table(tmp_path_factory.mktemp("pass1") / "camp", rounds="3")
    t.play_to_end()
    return t.root


def _copy(finished: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished, tmp_path / "camp"))


def _record(root: Path, seq: int) -> dict[str, Any]:
    return ledger.load((root / "ledger" / ledger.record_name(seq)).read_bytes(), memo=False)


def _resign(root: Path, seq: int, record: dict[str, Any]) -> None:
    """Record ``seq`` replaced by ``record``, validly signed by the GM."""
    data = ledger.dump(record)
    path = root / "ledger" / ledger.record_name(seq)
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_bytes(sign_file_bytes(data, seeded_key("gm")))


def _first_with(root: Path, key: str, after: int) -> int:
    n = ledger.count(root / "ledger")
    return next(k for k in range(after + 1, n + 1) if _record(root, k).get(key))


def _both(root: Path) -> tuple[tuple[str, list[str]], tuple[str, list[str]]]:
    """The failure and the lines said before it, on one process and on two."""
    out = []
    for jobs in (1, 2):
        lines: list[str] = []
        with pytest.raises(AuditError) as caught:
            audit.audit(open_campaign(root, games.get), lines.append, jobs=jobs)
        out.append((str(caught.value), lines))
    return out[0], out[1]


def test_workers_check_every_record_and_the_parent_reads_none(finished: Path) -> None:
    campaign = open_campaign(finished, games.get)
    n = ledger.count(campaign.ledger_dir)
    assert n > 4 * CHUNK
    ahead = audit._Ahead(campaign, n, 2)
    try:
        assert ahead.pool is not None
        fields = 0
        seen = []
        for seq, data, done in ahead.records(campaign.ledger_dir):
            seen.append(seq)
            raw = (campaign.ledger_dir / ledger.record_name(seq)).read_bytes()
            assert data is None and done is not None and done.seq == seq
            assert done.digest == ledger.file_hash(raw)
            assert done.gm_key == campaign.gm_public_key(seq)
            assert done.record == ledger.load(raw, memo=False)
            rec = done.record
            texts = {f"orders.{p}": (t, seq) for p, t in rec.get("orders", {}).items()}
            texts |= {f"revealed[{i}]": (item["text"], item["seq"])
                      for i, item in enumerate(rec.get("revealed", []))}
            assert set(done.orders) == set(texts)
            for where, (text, signed_at) in texts.items():
                checked = done.order(where, text, signed_at)
                assert checked is not None and checked.canonical
                assert checked.order.canonical_text() == text
                # Another text, or keys of another record: not what the worker checked.
                assert done.order(where, text + " ", signed_at) is None
                assert done.order(where, text, signed_at + 1) is None
            fields += len(texts)
        assert seen == list(range(1, n + 1))
        assert fields > 10
    finally:
        ahead.close()
    assert ahead.pool is None and audit._ahead_campaign is None


def test_a_record_a_worker_found_unsound_is_read_again_by_the_parent(finished: Path,
                                                                     tmp_path: Path) -> None:
    """What a worker could not verify the parent reads and checks itself; if the file is not
    the one the worker read, nothing of the worker's is used."""
    work = _copy(finished, tmp_path)
    campaign = open_campaign(work, games.get)
    n = ledger.count(campaign.ledger_dir)
    path = work / "ledger" / ledger.record_name(CHUNK + 2)  # in the second task
    good = path.read_bytes()
    path.write_bytes(good + b"\n")  # what the workers read: its signature fails
    ahead = audit._Ahead(campaign, n, 2)
    try:
        for seq, data, done in ahead.records(campaign.ledger_dir):
            if seq == CHUNK + 1:  # the second task is back: put the record right again
                assert data is None and done is not None
                path.write_bytes(good)
            if seq == CHUNK + 2:
                assert data == good and done is None
            if seq == CHUNK + 3:
                assert data is None and done is not None
                break
    finally:
        ahead.close()


def test_one_process_and_two_say_the_same(finished: Path) -> None:
    one: list[str] = []
    two: list[str] = []
    a = audit.audit(open_campaign(finished, games.get), one.append, jobs=1)
    b = audit.audit(open_campaign(finished, games.get), two.append, jobs=2)
    assert (a.records, a.replayed) == (b.records, b.replayed) == (
        ledger.count(finished / "ledger"), True)
    assert one == two
    assert sum("order files ok" in line for line in two) == a.records


def test_a_bad_gm_signature_in_the_second_task_is_named_alike(finished: Path,
                                                              tmp_path: Path) -> None:
    work = _copy(finished, tmp_path)
    seq = CHUNK + 2  # in the second task (records 4-6), not its first record
    sigs = work / "ledger"
    # A valid GM signature, but of the next record's bytes.
    (sigs / f"{ledger.record_name(seq)}.sig").write_bytes(
        (sigs / f"{ledger.record_name(seq + 1)}.sig").read_bytes())
    campaign = open_campaign(work, games.get)
    ahead = audit._Ahead(campaign, ledger.count(campaign.ledger_dir), 2)
    try:
        for k, data, done in ahead.records(campaign.ledger_dir):
            assert done is not None
            if k == seq:  # the worker found it unsound: the parent checks it itself
                assert data is not None and done.gm_key is None and done.record is None
                break
            assert data is None and done.gm_key is not None
    finally:
        ahead.close()
    (one, said_one), (two, said_two) = _both(work)
    assert one == two
    assert one.startswith(f"record {seq:06d}: signature: {ledger.record_name(seq)}: ")
    assert said_one == said_two
    assert sum("order files ok" in line for line in said_two) == seq - 1


def _texts(record: dict[str, Any], key: str) -> dict[str, str]:
    """A record's published (``orders``) or revealed order files, by player."""
    if key == "orders":
        return dict(record.get("orders", {}))
    return {item["player"]: item["text"] for item in record.get("revealed", [])}


@pytest.mark.parametrize("key", ["orders", "revealed"])
def test_a_bad_order_signature_in_a_later_task_is_named_alike(finished: Path, tmp_path: Path,
                                                              key: str) -> None:
    """An order file whose signature is its author's but over another of their orders: the
    GM signed the record, so only the order file's own check can find it."""
    work = _copy(finished, tmp_path)
    n = ledger.count(work / "ledger")
    texts = {k: _texts(_record(work, k), key) for k in range(1, n + 1)}
    seq, player, donor = next((k, p, other) for k in range(CHUNK + 1, n + 1)
                              for p in sorted(texts[k]) for other in range(1, n + 1)
                              if other != k and p in texts[other])
    record = _record(work, seq)
    text, theirs = _texts(record, key)[player], _texts(_record(work, donor), key)[player]
    forged = text[:text.index(SIG)] + theirs[theirs.index(SIG):]
    if key == "orders":
        record["orders"][player] = forged
        where = f"orders.{player}"
    else:
        i = next(i for i, item in enumerate(record["revealed"]) if item["player"] == player)
        record["revealed"][i]["text"] = forged
        where = f"revealed[{i}]"
    _resign(work, seq, record)
    (one, said_one), (two, said_two) = _both(work)
    assert one == two
    assert one.startswith(f"record {seq:06d}: {where}: ")
    assert "signature" in one
    assert said_one == said_two


def test_of_two_faults_the_earlier_record_is_named(finished: Path, tmp_path: Path) -> None:
    """A worker may find the later fault first; the parent names the earlier one."""
    work = _copy(finished, tmp_path)
    n = ledger.count(work / "ledger")
    late, early = n - 1, CHUNK + 1
    sigs = work / "ledger"
    for seq in (late, early):
        (sigs / f"{ledger.record_name(seq)}.sig").write_bytes(
            (sigs / f"{ledger.record_name(seq - 1)}.sig").read_bytes())
    (one, _), (two, _) = _both(work)
    assert one == two
    assert one.startswith(f"record {early:06d}: signature")


def test_a_short_ledger_is_checked_by_the_parent_alone(finished: Path) -> None:
    campaign = open_campaign(finished, games.get)
    n = ledger.count(campaign.ledger_dir)
    for count, jobs in ((n, 1), (2 * audit.MIN_SPAN - 1, 2)):
        ahead = audit._Ahead(campaign, count, jobs)
        assert ahead.pool is None
        found = list(ahead.records(campaign.ledger_dir))
        assert [(seq, done) for seq, _, done in found] == [(k, None) for k in range(1, n + 1)]
        assert [data for _, data, _ in found] == [
            data for _, data in ledger.iter_records(campaign.ledger_dir)]
        ahead.close()


def test_key_changes_mid_ledger_are_followed_alike(tmp_path: Path) -> None:
    """The GM's and a player's keys change in the second task: workers and parent each
    know which key signs which record, and a record signed by the old GM key after the
    change is named alike."""
    t = make_table(tmp_path / "camp", rounds="3")
    t.play_phases(4)
    seq = ledger.count(t.root / "ledger")
    assert CHUNK < seq <= 2 * CHUNK
    path = t.root / "ledger" / ledger.record_name(seq)
    record = _record(t.root, seq)
    record["key_changes"] = [
        {"principal": who, "old": key_text(seeded_key(who).public_key().public_bytes_raw()),
         "new": key_text(seeded_key(f"{who}-new").public_key().public_bytes_raw()),
         "reason": "a lost laptop"} for who in ("gm", "alice")]
    data = ledger.dump(record)
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_bytes(sign_file_bytes(data, t.gm))
    t.reopen()
    t.gm, t.player_keys["alice"] = seeded_key("gm-new"), seeded_key("alice-new")
    t.play_to_end()
    one: list[str] = []
    two: list[str] = []
    audit.audit(open_campaign(t.root, games.get), one.append, jobs=1)
    audit.audit(open_campaign(t.root, games.get), two.append, jobs=2)
    assert one == two and any("key of gm changed" in line for line in two)
    later = seq + CHUNK + 1  # signed again with the old GM key
    path = t.root / "ledger" / ledger.record_name(later)
    path.with_name(path.name + ".sig").write_bytes(sign_file_bytes(path.read_bytes(),
                                                                   seeded_key("gm")))
    (first, _), (second, _) = _both(t.root)
    assert first == second and first.startswith(f"record {later:06d}: signature")


_values = st.one_of(st.booleans(), st.integers(-2**64, 2**64), st.text(max_size=8),
                    st.sampled_from(["alice", "r01.voyage", "a" * 64]),
                    st.lists(st.integers(0, 3), max_size=2),
                    st.dictionaries(st.sampled_from(["alice", "seq", "text"]),
                                    st.integers(0, 3), max_size=2))


@settings(max_examples=examples(20), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_gm_signed_changes_fail_alike_on_one_process_and_two(
        finished: Path, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """Records changed and signed again by the GM (so that only the later checks can find
    them): a field given another value, or one character of an order file changed."""
    work = Path(shutil.copytree(finished, tmp_path_factory.mktemp("fuzz") / "camp"))
    n = ledger.count(work / "ledger")
    for seq in data.draw(st.lists(st.integers(1, n), min_size=1, max_size=2, unique=True),
                         label="records"):
        record = _record(work, seq)
        texts: list[tuple[str, Any]] = [("orders", p) for p in sorted(record["orders"])]
        texts += [("revealed", i) for i in range(len(record.get("revealed", [])))]
        if texts and data.draw(st.booleans(), label="in an order file") is True:
            key, which = data.draw(st.sampled_from(texts), label="order file")
            holder = record["orders"] if key == "orders" else record["revealed"][which]
            slot = which if key == "orders" else "text"
            text = holder[slot]
            at = data.draw(st.integers(0, len(text) - 1), label="at")
            holder[slot] = text[:at] + data.draw(st.sampled_from("0a =\n\""), label="char") + \
                text[at + 1:]
        else:
            field = data.draw(st.sampled_from([*sorted(record), "extra"]), label="field")
            record[field] = data.draw(_values, label="value")
        try:
            raw = tomli_w.dumps(record).encode()
        except (TypeError, ValueError):  # not TOML: nothing a GM could sign
            return
        path = work / "ledger" / ledger.record_name(seq)
        path.write_bytes(raw)
        path.with_name(path.name + ".sig").write_bytes(sign_file_bytes(raw, seeded_key("gm")))
    found = []
    for jobs in (1, 2):
        lines: list[str] = []
        try:
            audit.audit(open_campaign(work, games.get), lines.append, jobs=jobs)
            found.append(("passed", lines))
        except AuditError as exc:
            found.append((str(exc), lines))
    assert found[0] == found[1]


def _dies_at_the_second_task(first: int, last: int) -> list[audit._Checked]:
    if first > 1:
        os._exit(1)  # a worker killed mid-audit (out of memory, a signal)
    return _real_check_chunk(first, last)


_real_check_chunk = audit._check_chunk


def test_a_lost_worker_leaves_its_records_to_the_parent(finished: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    one: list[str] = []
    two: list[str] = []
    audit.audit(open_campaign(finished, games.get), one.append, jobs=1)
    monkeypatch.setattr(audit, "_check_chunk", _dies_at_the_second_task)
    result = audit.audit(open_campaign(finished, games.get), two.append, jobs=2)
    assert result.records == ledger.count(finished / "ledger")
    assert one == two

"""Issue 20, target 1: the engine's bookkeeping does each thing once.

- The audit parses every ledger record once (pass 2 re-adjudicates from what pass 1 read of
  the same bytes) and every published or revealed order file once.
- The GM keeps a copy of each sealed order file only (an open phase's files are in the
  record), and the audit still finds a missing or changed copy.
"""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Any

import pytest

from pbem.core import armor, audit, engine, ledger
from pbem.core.errors import AuditError
from tests.conftest import Table


def _played(table: Table) -> Table:
    table.play_to_end()
    table.reopen()
    return table


def test_audit_parses_each_record_and_each_order_file_once(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    _played(table)
    loads: collections.Counter[bytes] = collections.Counter()
    real_load = ledger.load

    def counting_load(data: bytes, *args: Any, **kwargs: Any) -> dict[str, Any]:
        loads[data] += 1
        return real_load(data, *args, **kwargs)

    extracts: collections.Counter[str] = collections.Counter()
    real_extract = armor.extract

    def counting_extract(text: str, *args: Any, **kwargs: Any) -> list[armor.Block]:
        extracts[text] += 1
        return real_extract(text, *args, **kwargs)

    monkeypatch.setattr(ledger, "load", counting_load)
    monkeypatch.setattr(armor, "extract", counting_extract)
    result = audit.audit(table.campaign, jobs=1)
    assert result.replayed and result.records > 5
    records = [data for _, data in ledger.iter_records(table.campaign.ledger_dir)]
    assert sorted(loads.values()) == [1] * len(records), "a record parsed more than once"
    assert set(loads) == set(records)
    # Each order file's text: published in its record, or revealed later; parsed once.
    texts = []
    for data in records:
        rec = real_load(data, memo=False)
        texts += list(rec.get("orders", {}).values())
        texts += [item["text"] for item in rec.get("revealed", [])]
    assert texts and all(extracts[t] == 1 for t in texts), {
        t[:60]: extracts[t] for t in texts if extracts[t] != 1}


def test_the_gm_keeps_copies_of_sealed_order_files_only(table: Table) -> None:
    _played(table)
    sealed = open_ = 0
    for seq, data in ledger.iter_records(table.campaign.ledger_dir):
        rec = ledger.load(data, memo=False)
        copies = engine.record_dir(table.campaign, seq) / "orders"
        kept = sorted(p.stem for p in copies.glob("*.txt")) if copies.is_dir() else []
        published = set(rec.get("orders", {}))
        assert kept == sorted(set(rec["commitments"]) - published), seq
        sealed += bool(kept)
        open_ += bool(published)
    assert sealed and open_, "the conformance game has both kinds of phase"


def test_a_changed_copy_of_sealed_orders_still_fails_the_audit(table: Table) -> None:
    _played(table)
    # A sealed file revealed only at the end is read from the record; one still sealed in a
    # copy of the game before its end is read from the GM's copy: damage that copy.
    last = ledger.count(table.campaign.ledger_dir)
    copies = sorted(engine.record_dir(table.campaign, k) / "orders" / f"{p}"
                    for k in range(1, last + 1)
                    for p in (engine.record_dir(table.campaign, k) / "orders").glob("*.txt")
                    ) if last else []
    assert copies
    # Cut the final record (and its reveals): the copies are the only text of those orders.
    final = table.campaign.ledger_dir / ledger.record_name(last)
    final.unlink()
    Path(f"{final}.sig").unlink()
    table.reopen()
    assert audit.audit(table.campaign, jobs=1).records == last - 1
    victim = next(p for p in copies if not p.is_relative_to(engine.record_dir(table.campaign,
                                                                             last)))
    victim.write_text(victim.read_text().replace("[orders]", "[orders]\n# edited", 1))
    table.reopen()
    with pytest.raises(AuditError):
        audit.audit(table.campaign, jobs=1)


def test_the_ledger_is_counted_on_from_what_was_known(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """After each new record the ledger directory changes; counting it again walks on from
    the known count (a stat a record) instead of listing every name again, and a missing last
    record still makes it count afresh."""
    import os

    ledger_dir = table.campaign.ledger_dir
    table.play_phases(1)
    first = ledger.count(ledger_dir)
    listed: list[object] = []
    real_listdir = os.listdir

    def listing(path: object) -> list[str]:
        listed.append(path)
        return real_listdir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "listdir", listing)
    table.play_phases(2)
    assert ledger.count(ledger_dir) == first + 2 == len(
        [n for n in real_listdir(ledger_dir) if n.endswith(".toml")])
    assert not [p for p in listed if str(p) == str(ledger_dir)]
    last = ledger_dir / ledger.record_name(first + 2)
    last.rename(last.with_suffix(".gone"))
    assert ledger.count(ledger_dir) == first + 1
    assert [p for p in listed if str(p) == str(ledger_dir)]

"""Ledger records: their fixed field order, byte-deterministic TOML, reading them back.

A record is written once, by :mod:`pbem.core.engine`, and never changed. Its bytes are what
the next record's ``prev`` hashes and what the GM signs, so they must come out the same on
every machine: fields are emitted in one fixed order (DESIGN.md section 5) as ``tomli_w``
writes them (:mod:`pbem.core.toml_writer`, checked against it).
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tomli

from pbem.core import toml_writer
from pbem.core.errors import CampaignError

#: The records of a version 2 campaign (DESIGN.md section 8): version 1's fields, and
#: ``[[key_changes]]`` where a key changes.
LEDGER_FORMAT = "pbem-ledger/2"
#: The records of a version 1 campaign, which keeps writing them.
LEDGER_FORMAT_V1 = "pbem-ledger/1"

#: Scalar fields, in the order they are written (DESIGN.md section 5, then our additions).
SCALAR_FIELDS = ("format", "seq", "prev", "phase", "seed", "mix", "state_hash", "nmr",
                 "next_phase", "game_over", "sealed_head")
#: Table fields, in the order they are written.
TABLE_FIELDS = ("commitments", "entropy", "orders", "revealed", "draws", "sealed", "events",
                "sealed_draws", "key_changes")


def record_name(seq: int) -> str:
    return f"{seq:06d}.toml"


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def dump(record: dict[str, Any]) -> bytes:
    """The record's bytes: known fields in their fixed order, then nothing else."""
    unknown = set(record) - set(SCALAR_FIELDS) - set(TABLE_FIELDS)
    if unknown:
        raise ValueError(f"unknown ledger fields: {sorted(unknown)}")
    ordered = {k: record[k] for k in SCALAR_FIELDS + TABLE_FIELDS if k in record}
    return toml_writer.dumps(ordered, multiline_strings=True).encode("utf-8")


def load(data: bytes, name: str = "record", *, memo: bool = True) -> dict[str, Any]:
    """The parsed record: a fresh object the caller may change.

    One command parses the same record several times (the head of the ledger at every
    submission, then each report), so the last parses are kept, by the sha256 of the bytes,
    in marshal form, which copies several times faster than TOML parses. The memo holds at
    most :data:`_MEMO_RECORDS` records: memory stays flat however long the ledger. The audit
    reads every record once per pass and does not use it (``memo=False``), so its cost per
    record does not depend on how long the campaign is."""
    digest = hashlib.sha256(data).digest() if memo else b""
    known = _parsed.get(digest) if memo else None
    if known is not None:
        if isinstance(known, dict):  # remembered as written: packed at its first reading
            known = _parsed[digest] = marshal.dumps(known)
        record: dict[str, Any] = marshal.loads(known)
        return record
    try:
        record = tomli.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomli.TOMLDecodeError) as exc:
        raise CampaignError(f"{name} is not a readable ledger record: {exc}") from None
    if not memo:
        return record
    try:
        packed = marshal.dumps(record)
    except ValueError:  # a TOML date or time: not kept
        return record
    if len(_parsed) >= _MEMO_RECORDS:
        del _parsed[next(iter(_parsed))]
    _parsed[digest] = packed
    return record


def remember(data: bytes, digest: str, record: dict[str, Any]) -> None:
    """The engine wrote ``record`` as ``data`` (sha256 ``digest``, hex): the next reading of
    these bytes (the record's reports, the next submission's head) takes it from here, not
    from a parse. ``record`` must be what the parse gives: plain TOML values (the rules'
    events are; :data:`CHECK_REMEMBERED` makes the test suite hold every record to it), and
    no longer changed by the caller."""
    if CHECK_REMEMBERED and _typed(tomli.loads(data.decode("utf-8"))) != _typed(record):
        raise AssertionError(f"record {record.get('seq')} is not what its bytes parse to")
    if len(_parsed) >= _MEMO_RECORDS:
        del _parsed[next(iter(_parsed))]
    _parsed[bytes.fromhex(digest)] = record


def _typed(value: Any) -> Any:
    """``value`` for :data:`CHECK_REMEMBERED`: every type named (``1`` is not ``True``, a
    tuple not a list), a table's keys in any order (the file's order is the writer's)."""
    if isinstance(value, dict):
        return ("dict", sorted((k, _typed(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_typed(v) for v in value])
    return (type(value).__name__, value)


#: sha256 of a record's bytes -> the parsed record, marshalled (or as the engine wrote it,
#: until first read: :func:`remember`), oldest first.
_parsed: dict[bytes, bytes | dict[str, Any]] = {}
#: The test suite sets this: every remembered record is checked against the parse of its
#: bytes (same values and types: a tuple kept for a list would differ).
CHECK_REMEMBERED = False
#: Records kept parsed (a few MB at most).
_MEMO_RECORDS = 64


_counted: dict[Path, tuple[int, int]] = {}


def count(ledger_dir: Path) -> int:
    """How many records the ledger holds: ``000001.toml`` ... without gaps.

    Remembered per directory until the directory changes (its mtime), so the many calls of
    one command do not each list a ledger of thousands of files."""
    base = os.fspath(ledger_dir)  # str paths: a Path join costs more than the stat
    try:
        stamp = os.stat(base).st_mtime_ns
    except FileNotFoundError:
        return 0
    known = _counted.get(ledger_dir)
    if known is not None:
        n = known[1]
        # Coarse mtimes can hide a change: confirm the end of the ledger with two stats.
        # A changed directory has (in a sound ledger) only records added after it: walked on
        # from the count known, one stat a new record, not a listing of thousands of names
        # after every record (the audit checks the whole listing itself).
        if n == 0 or os.path.isfile(f"{base}/{record_name(n)}"):
            if known[0] != stamp:
                while os.path.isfile(f"{base}/{record_name(n + 1)}"):
                    n += 1
                _counted[ledger_dir] = (stamp, n)
                return n
            if not os.path.exists(f"{base}/{record_name(n + 1)}"):
                return n
    names = set(os.listdir(ledger_dir))
    n = 0
    while record_name(n + 1) in names:
        n += 1
    _counted[ledger_dir] = (stamp, n)
    return n


def iter_records(ledger_dir: Path, first: int = 1) -> Iterator[tuple[int, bytes]]:
    """Each record's bytes in order from ``first``, one at a time (audits of long campaigns
    stay flat)."""
    seq = first
    while True:
        path = ledger_dir / record_name(seq)
        if not path.is_file():
            return
        yield seq, path.read_bytes()
        seq += 1

"""The GM's outbox: a Maildir under ``gm/outbox`` holding every message pbem wants sent.

Commands that produce mail (``pbem mail``, ``pbem remind``, the replies of ``pbem ingest``)
only ever *write* here; ``pbem mail --smtp`` sends what is waiting and moves it to ``cur``
with the ``S`` (seen) flag, so a message is sent once and a crash mid-send resends nothing
that the server already took. Any mail client can open the folder to look or send by hand.

Waiting means: in ``new``, or in ``cur`` without the ``S`` flag (a client that only listed
the folder moves messages there). A message a client has *read* carries ``S`` and counts as
sent, so look at the outbox with a client after sending, or not at all before.

A message queued with a name (``put(..., once=NAME)``, the replies of ``pbem ingest``) is
queued once: its file name ends in ``.pbem-NAME``, and a second ``put`` under that name,
sent or not, writes nothing. So an ingest killed before its batch was synced, which reads
the batch's messages again, does not answer them twice.
"""

from __future__ import annotations

import fcntl
import mailbox
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default
from pathlib import Path

from pbem.core import fsutil
from pbem.core.campaign import Campaign
from pbem.core.fsutil import atomic_write, fsync_dir

SENT_FLAG = "S"
_ONCE = re.compile(r"[A-Za-z0-9-]{1,100}")


def path(campaign: Campaign) -> Path:
    return campaign.gm_dir / "outbox"


def open_outbox(campaign: Campaign) -> mailbox.Maildir:
    """The outbox, made (mode 0700) with its ``tmp``, ``new`` and ``cur`` when missing."""
    box = mailbox.Maildir(path(campaign), create=True)
    for sub in ("tmp", "new", "cur"):
        (path(campaign) / sub).mkdir(mode=0o700, exist_ok=True)
    return box


def put(campaign: Campaign, message: EmailMessage, *, once: str = "") -> str:
    """Queue ``message``; its Maildir key. It is stored as 7-bit MIME (8-bit text parts become
    quoted-printable or base64), so any SMTP server takes it; LF line ends, which the sender
    turns into CR LF.

    ``once`` (letters, digits, ``-``) names the message: if one of that name is in the
    outbox already, sent or waiting, nothing is written and its key is returned. Such a
    message is written like every durable file (synced with the batch in
    :func:`pbem.core.fsutil.deferred_syncs`)."""
    data = message.as_bytes(policy=message.policy.clone(cte_type="7bit"))
    if not once:
        return open_outbox(campaign).add(data)
    if not _ONCE.fullmatch(once):
        raise ValueError(f"outbox name {once!r}: letters, digits and '-' only")
    names = _named(campaign)
    if once in names:
        found = _find(campaign, once)
        if found is not None:
            return found.name.partition(":2,")[0]
    now = time.time()
    _counter[0] += 1
    key = (f"{int(now)}.M{int(now % 1 * 1e6):06d}P{os.getpid()}Q{_counter[0]}"
           f".pbem-{once}")
    tmp = path(campaign) / "tmp" / key
    atomic_write(tmp, data, 0o600, sync_dir=False)
    final = path(campaign) / "new" / key
    os.replace(tmp, final)
    fsutil.sync_later(final)
    fsync_dir(final.parent)
    names.add(once)
    return key


_counter = [0]
#: outbox folder -> the names given to ``put`` found there, listed once per process.
_names: dict[Path, set[str]] = {}


def _named(campaign: Campaign) -> set[str]:
    folder = path(campaign)
    if folder not in _names:
        open_outbox(campaign)
        found: set[str] = set()
        for sub in ("new", "cur"):
            for name in os.listdir(folder / sub):
                _, sep, given = name.partition(":2,")[0].rpartition(".pbem-")
                if sep:
                    found.add(given)
        _names[folder] = found
    return _names[folder]


def _find(campaign: Campaign, once: str) -> Path | None:
    """The file of the message named ``once``, if it is there and whole: one cut short by a
    power cut before its batch was synced (empty, or not ending its last line) is removed."""
    for sub in ("new", "cur"):
        for file in (path(campaign) / sub).glob(f"*.pbem-{once}*"):
            if not file.name.partition(":2,")[0].endswith(f".pbem-{once}"):
                continue
            data = file.read_bytes()
            if data.endswith(b"\n") and b"\0" not in data:
                return file
            file.unlink()
    return None


@contextmanager
def locked(campaign: Campaign) -> Iterator[None]:
    """One queuing or sending run at a time (a second waits): two ``pbem mail`` at once must
    neither queue a message twice nor send one twice. Apart from the campaign lock, so a
    command holding that one may still :func:`put`."""
    open_outbox(campaign)
    fd = os.open(path(campaign) / ".pbem-lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _files(campaign: Campaign) -> list[tuple[str, Path]]:
    """(subdir, file) of every message, ``new`` first, each in name order."""
    out = []
    for sub in ("new", "cur"):
        folder = path(campaign) / sub
        if folder.is_dir():
            out += [(sub, f) for f in sorted(folder.iterdir()) if not f.name.startswith(".")]
    return out


def _flags(name: str) -> str:
    _, sep, info = name.partition(":2,")
    return info if sep else ""


def message_ids(campaign: Campaign) -> set[str]:
    """The Message-ID of every message in the outbox, sent or waiting."""
    parser = BytesHeaderParser(policy=default)
    ids = set()
    for _, file in _files(campaign):
        with file.open("rb") as fh:
            value = parser.parse(fh).get("Message-ID")
        if value:
            ids.add(str(value).strip())
    return ids


def unsent(campaign: Campaign) -> list[tuple[Path, bytes]]:
    """Every waiting message: its file and bytes, in the order they were queued."""
    return [(f, f.read_bytes()) for sub, f in _files(campaign)
            if sub == "new" or SENT_FLAG not in _flags(f.name)]


def mark_sent(campaign: Campaign, file: Path) -> Path:
    """Move a sent message to ``cur`` with the ``S`` flag (Maildir's name ``key:2,<flags>``)."""
    key = file.name.partition(":2,")[0]
    flags = "".join(sorted(set(_flags(file.name)) | {SENT_FLAG}))
    target = path(campaign) / "cur" / f"{key}:2,{flags}"
    os.replace(file, target)
    fsync_dir(target.parent)
    return target

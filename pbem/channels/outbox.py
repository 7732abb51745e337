"""The GM's outbox: a Maildir under ``gm/outbox`` holding every message pbem wants sent.

Commands that produce mail (``pbem mail``, ``pbem remind``, the replies of ``pbem ingest``)
only ever *write* here; ``pbem mail --smtp`` sends what is waiting and moves it to ``cur``
with the ``S`` (seen) flag, so a message is sent once and a crash mid-send resends nothing
that the server already took. Any mail client can open the folder to look or send by hand.

Waiting means: in ``new``, or in ``cur`` without the ``S`` flag (a client that only listed
the folder moves messages there). A message a client has *read* carries ``S`` and counts as
sent, so look at the outbox with a client after sending, or not at all before.
"""

from __future__ import annotations

import fcntl
import mailbox
import os
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default
from pathlib import Path

from pbem.core.campaign import Campaign
from pbem.core.fsutil import fsync_dir

SENT_FLAG = "S"


def path(campaign: Campaign) -> Path:
    return campaign.gm_dir / "outbox"


def open_outbox(campaign: Campaign) -> mailbox.Maildir:
    """The outbox, made (mode 0700) with its ``tmp``, ``new`` and ``cur`` when missing."""
    box = mailbox.Maildir(path(campaign), create=True)
    for sub in ("tmp", "new", "cur"):
        (path(campaign) / sub).mkdir(mode=0o700, exist_ok=True)
    return box


def put(campaign: Campaign, message: EmailMessage) -> str:
    """Queue ``message``; its Maildir key. It is stored as 7-bit MIME (8-bit text parts become
    quoted-printable or base64), so any SMTP server takes it; LF line ends, which the sender
    turns into CR LF."""
    return open_outbox(campaign).add(message.as_bytes(
        policy=message.policy.clone(cte_type="7bit")))


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

"""What ``pbem ingest`` keeps under ``gm/``: every message received, the ones it could not use,
and what it has already read.

``gm/mail/received`` and ``gm/mail/unused`` are Maildirs (any mail client opens them) holding
the raw bytes as they arrived; forum texts go to ``gm/forum/received`` and ``gm/forum/unused``.
Files are named after the SHA-256 of their bytes, so keeping the same message twice writes
nothing new, and are delivered the Maildir way (written and synced in ``tmp/``, renamed into
``new/``), so a crash never leaves half a message. ``gm/mail/seen.txt`` lists what was read,
by the SHA-256 of its bytes, so that reading a mailbox again does not answer the same mail
twice. Under the group commit of ``pbem ingest`` (:func:`pbem.core.fsutil.deferred_syncs`)
these writes are synced once per batch, and a message goes into ``seen.txt`` only after its
batch was: a copy found cut short (a power cut before the sync) is written again. A message
whose reading failed is set aside in ``gm/mail/failed`` (the error and its traceback in
``gm/mail/failed.txt``) and is not marked as read: the next run tries it again.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pbem.core import fsutil
from pbem.core.campaign import Campaign
from pbem.core.fsutil import CampaignLock, atomic_write, fsync_dir, sweep_temp_files


def mail_dir(campaign: Campaign) -> Path:
    return campaign.gm_dir / "mail"


def forum_dir(campaign: Campaign) -> Path:
    return campaign.gm_dir / "forum"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def failed_log(campaign: Campaign) -> Path:
    return mail_dir(campaign) / "failed.txt"


def deliver(maildir: Path, data: bytes, suffix: str = "", *, same_as: Path | None = None
            ) -> Path:
    """Keep ``data`` in the Maildir ``maildir`` (created if needed); its path in ``new/`` or
    ``cur/`` (a mail client may have moved it there since). ``same_as`` is a file already
    holding ``data`` (the copy in ``received``): it is linked, not written again, when the
    file system allows."""
    name = f"{digest(data)[:32]}.pbem{suffix}"
    known = _names(maildir)
    if name in known:
        for sub in ("new", "cur"):
            for existing in (maildir / sub).glob(name + "*"):
                if existing.stat().st_size == len(data):
                    return existing
                existing.unlink()  # cut short by a power cut before its batch was synced
    tmp = maildir / "tmp" / name
    linked = False
    if same_as is not None:
        try:
            tmp.unlink(missing_ok=True)
            os.link(same_as, tmp)
            linked = True
        except OSError:
            pass
    if not linked:
        atomic_write(tmp, data, 0o600, sync_dir=False)  # the rename below is what must last
    final = maildir / "new" / name
    os.replace(tmp, final)
    fsutil.sync_later(final)  # in a batch: its data, written under the tmp name
    fsync_dir(final.parent)
    known.add(name)
    return final


_listed: dict[Path, set[str]] = {}


def _names(maildir: Path) -> set[str]:
    """The names (without ``:2,`` flags) of the messages in ``maildir``, listed once per
    process and kept up to date by :func:`deliver`: a run over thousands of messages must
    not list the folder for each one."""
    if maildir not in _listed:
        for sub in ("tmp", "new", "cur"):
            (maildir / sub).mkdir(mode=0o700, parents=True, exist_ok=True)
        _listed[maildir] = {n.split(":", 1)[0] for sub in ("new", "cur")
                            for n in os.listdir(maildir / sub)}
    return _listed[maildir]


def keep_file(directory: Path, data: bytes, suffix: str = ".txt") -> Path:
    """Keep a forum text in ``directory`` under the hash of its bytes."""
    path = directory / f"{digest(data)[:32]}{suffix}"
    try:
        kept = path.stat().st_size == len(data)  # else cut short by a power cut: again
    except FileNotFoundError:
        kept = False
    if not kept:
        atomic_write(path, data, 0o600)
    return path


def log_failure(campaign: Campaign, line: str, details: str) -> None:
    """Append ``line`` and ``details`` (a traceback) to ``gm/mail/failed.txt``."""
    path = failed_log(campaign)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, (line + "\n" + details.rstrip("\n") + "\n\n").encode("utf-8", "replace"))
    finally:
        os.close(fd)


class Seen:
    """``gm/mail/seen.txt``: one line per message read (``sha256:<hex>`` of its bytes: a
    message sent again with other bytes under the same Message-ID is read again) and one per
    forum block submitted (``block:<hex>``). Older files also hold ``msgid:`` lines, no longer
    consulted.

    Tokens are :meth:`add`-ed as each message is done (a second copy in the same batch is then
    known) and written by :meth:`flush`, which ``ingest`` calls only after the batch's own
    writes are synced: a token on the disk always means a message whose work is."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tokens: set[str] = set()
        self._lines: list[str] = []
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                self.tokens.update(line.split())

    def __contains__(self, token: str) -> bool:
        return token in self.tokens

    def add(self, *tokens: str) -> None:
        """Record ``tokens`` (one line), known at once, written by :meth:`flush`."""
        clean = ["".join(t.split()) for t in tokens if t]
        self._lines.append(" ".join(clean) + "\n")
        self.tokens.update(clean)

    def flush(self) -> None:
        """Append the lines added since, in one write: durable now, or with the next batch
        (its loss by a power cut costs only reading those messages again)."""
        if not self._lines:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fsutil.append(self.path, "".join(self._lines).encode())
        self._lines.clear()


class IngestLock(CampaignLock):
    """An exclusive ``flock`` on ``gm/mail/lock``: one ``pbem ingest`` at a time, so two runs
    over the same mailbox cannot both answer a message. (The engine's own campaign lock is
    taken by each submission inside.)"""

    def __init__(self, campaign: Campaign) -> None:
        mail_dir(campaign).mkdir(mode=0o700, parents=True, exist_ok=True)
        super().__init__(mail_dir(campaign))

    def _take_over(self) -> None:
        assert self.fd is not None
        killed = bool(os.pread(self.fd, 32, 0).strip())
        super()._take_over()  # a killed run's temp files under gm/mail swept
        if killed:  # and those of the replies it was queuing
            sweep_temp_files(self.gm_dir.parent / "outbox")

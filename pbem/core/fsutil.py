"""Crash-safe file writes and the campaign lock.

Every file the engine writes goes through :func:`atomic_write` (temp file, fsync, rename, fsync
of the directory), so a command killed at any instant leaves either the old file or the new
one, never a torn one. Commands that change a campaign hold :class:`CampaignLock`.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from pbem.core.errors import CampaignError


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes, mode: int = 0o644, *, durable: bool = True,
                 sync_dir: bool = True) -> None:
    """Write ``data`` to ``path`` so that readers see the old bytes or the new, nothing between.

    ``durable=False`` skips the fsyncs, for files that can be regenerated (reports): the
    rename still makes the write all-or-nothing, only a power cut may lose it.
    ``sync_dir=False`` fsyncs the file but leaves the directory to the caller, who writes
    several files and then calls :func:`fsync_dirs` once for all of them."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    except FileNotFoundError:  # a new directory (cheaper than a mkdir before every write)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    if durable and sync_dir:
        fsync_dir(path.parent)


def fsync_dirs(paths: list[Path]) -> None:
    """fsync each directory once (deepest first), e.g. after :func:`atomic_write` calls with
    ``sync_dir=False`` and the ``mkdir`` of new directories (their parents hold the entry)."""
    for path in sorted(set(paths), key=lambda p: len(p.parts), reverse=True):
        fsync_dir(path)


def write_new(directory: Path, suffix: str, data: bytes, width: int = 6, *,
              durable: bool = True) -> Path:
    """Write ``data`` as the next free ``NNNNNN<suffix>`` in ``directory``; never overwrites.

    Used by the inbox: files are numbered by arrival and an existing number is never reused,
    even if two writers race (O_EXCL decides).
    """
    directory.mkdir(parents=True, exist_ok=True)
    # A hint of the last number saves listing an inbox of thousands of files at every
    # arrival; O_EXCL below still decides, so a stale or missing hint only costs retries.
    hint = directory / ".last"
    try:
        n = int(hint.read_text()) + 1
    except (OSError, ValueError):
        numbers = [int(p.name[:width]) for p in directory.iterdir()
                   if p.name[:width].isdigit() and len(p.name) > width]
        n = max(numbers, default=0) + 1
    while True:
        path = directory / f"{n:0{width}d}{suffix}"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            n += 1
            continue
        try:
            os.write(fd, data)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if durable:
            fsync_dir(directory)
        hint.write_text(str(n))
        return path


class CampaignLock:
    """An exclusive ``flock`` on ``gm/lock``: one changing command at a time per campaign."""

    def __init__(self, gm_dir: Path, *, shared: bool = False) -> None:
        self.path = gm_dir / "lock"
        self.shared = shared
        self.fd: int | None = None

    def __enter__(self) -> CampaignLock:
        if not self.path.parent.is_dir():
            raise CampaignError(f"{self.path.parent} is missing: this is not a GM's "
                                "campaign directory")
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None

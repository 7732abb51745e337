"""Crash-safe file writes and the campaign lock.

Every file the engine writes goes through :func:`atomic_write` (temp file, fsync, rename, fsync
of the directory), so a command killed at any instant leaves either the old file or the new
one, never a torn one. Commands that change a campaign hold :class:`CampaignLock`.

The temp file of ``NAME`` is ``.NAME.tmp-PID`` beside it. A command killed by SIGKILL leaves
its temp files behind; the next command that takes the campaign lock removes them
(:func:`sweep_temp_files`): only those whose PID is no live process (or that are older than a
day, for a PID used again since), so a command never deletes the temp file of another one
that is still writing.

A command that writes many files (``pbem ingest``) may defer their syncs to one pass per
batch (:func:`deferred_syncs`, group commit): inside it :func:`atomic_write`, :func:`write_new`,
:func:`append` and :func:`fsync_dir` write as usual but only note what to sync, and
:meth:`SyncBatch.sync` makes all of it durable at once; the caller counts the batch's work
as done only after that.

Files the user names (``pbem sign -o``, ``pbem export OUT``, ``pbem site OUT``...) go through
:func:`write_output` and :func:`check_new_dir`: they replace only a regular file, write to a
device or pipe (``/dev/stdout``, ``/dev/null``) as a stream, write through a symbolic link
instead of replacing it, and never create missing folders.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType

from pbem.core.errors import CampaignError, UsageError

#: ``.NAME.tmp-PID``: the temp file :func:`atomic_write` renames into place.
TEMP_NAME = re.compile(r"\..+\.tmp-([0-9]{1,10})")
#: A temp file this old is a leftover even if its PID is alive again (the PID was reused).
STALE_AFTER = 24 * 3600


#: (inode, size, modification time in ns) of a file: what tells a process that a file it
#: keeps parsed in memory is still the one it read (a rename puts a new inode in place).
Stamp = tuple[int, int, int]


def stamp(path: str | Path) -> Stamp:
    """The file's :data:`Stamp` (FileNotFoundError when there is none)."""
    st = os.stat(path)
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def temp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.tmp-{os.getpid()}")


def fsync_dir(path: Path) -> None:
    """fsync the directory ``path`` (its entries: new and renamed names), now or, inside
    :func:`deferred_syncs`, at the end of the batch."""
    if _batch is not None:
        _batch.dirs.add(Path(path))
        return
    _fsync_path(path, os.O_RDONLY | os.O_DIRECTORY)


def _fsync_path(path: str | Path, flags: int = os.O_RDONLY) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_later(path: Path) -> None:
    """Inside :func:`deferred_syncs`, fsync the file ``path`` with the batch: for a file
    that got its name by a rename after it was written (its data was noted under the old
    name). Outside, nothing: the writer synced it before the rename."""
    if _batch is not None:
        _batch.files.add(Path(path))


def append(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Append ``data`` to ``path`` (created 0600 if missing) in one write, and fsync it
    (with its directory when it was created), or note both for the batch."""
    created = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if durable and _batch is None:
            os.fsync(fd)
    finally:
        os.close(fd)
    if durable:
        if _batch is not None:
            _batch.files.add(path)
        if created:
            fsync_dir(path.parent)


# --- group commit ----------------------------------------------------------------------------

#: Above this many files and directories to sync, a batch syncs their whole file system at
#: once (syncfs(2)) instead of each one: one call against one fsync per file, and the kernel
#: writes the batch's data in one pass. At or below it (a batch of one message, the last
#: lines of a log) the file-by-file fsyncs cost less than writing back the file system's
#: other dirty data.
SYNCFS_ABOVE = 16


class SyncBatch:
    """The files and directories written durably since the last :meth:`sync`."""

    def __init__(self, *, use_syncfs: bool | None = None) -> None:
        self.files: set[Path] = set()
        self.dirs: set[Path] = set()
        self.use_syncfs = has_syncfs() if use_syncfs is None else use_syncfs

    def sync(self) -> None:
        """Make everything noted durable: each file system's syncfs, or each file's fsync
        then each directory's (deepest first). A file noted and since renamed or removed is
        skipped: its new name was noted too (:func:`sync_later`), or it is gone."""
        global _generation
        if not self.files and not self.dirs:
            return
        if self.use_syncfs and len(self.files) + len(self.dirs) > SYNCFS_ABOVE:
            folders = self.dirs | {f.parent for f in self.files}
            devices: dict[int, Path] = {}
            for folder in folders:
                with contextlib.suppress(FileNotFoundError):
                    devices.setdefault(os.stat(folder).st_dev, folder)
            for folder in devices.values():
                fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
                try:
                    syncfs(fd)
                finally:
                    os.close(fd)
        else:
            for file in self.files:
                with contextlib.suppress(FileNotFoundError):
                    _fsync_path(file)
            for folder in sorted(self.dirs, key=lambda p: len(p.parts), reverse=True):
                with contextlib.suppress(FileNotFoundError):
                    _fsync_path(folder, os.O_RDONLY | os.O_DIRECTORY)
        self.files.clear()
        self.dirs.clear()
        _generation += 1


_batch: SyncBatch | None = None
#: How many batches this process has synced: what was written before a change of it is
#: durable (:func:`sync_generation`).
_generation = 0


def batching() -> bool:
    """Whether durable writes are deferred to a batch now (:func:`deferred_syncs`)."""
    return _batch is not None


def sync_generation() -> int:
    """Changes whenever a batch is synced: a writer that noted it when writing knows, once
    it changed, that its write is on the disk."""
    return _generation


@contextlib.contextmanager
def deferred_syncs(*, use_syncfs: bool | None = None) -> Iterator[SyncBatch]:
    """Defer the syncs of every durable write inside to the :class:`SyncBatch` it yields
    (group commit): the caller calls its ``sync`` at the end of each batch, and only then
    counts the batch's work as done. Leaving normally syncs what is left; leaving by an
    exception does not (the work is not done: it is read again and redone next time)."""
    global _batch
    if _batch is not None:
        raise RuntimeError("deferred_syncs inside deferred_syncs")
    batch = _batch = SyncBatch(use_syncfs=use_syncfs)
    try:
        yield batch
    except BaseException:
        _batch = None
        raise
    _batch = None
    batch.sync()


_syncfs: Callable[[int], int] | None = None
_has_syncfs: bool | None = None


def has_syncfs() -> bool:
    """Whether the C library has syncfs(2) (Linux)."""
    global _syncfs, _has_syncfs
    if _has_syncfs is None:
        import ctypes  # here: a few milliseconds, paid only by a command that batches

        _syncfs = getattr(ctypes.CDLL(None, use_errno=True), "syncfs", None)
        _has_syncfs = _syncfs is not None
    return _has_syncfs


def syncfs(fd: int) -> None:
    """syncfs(2): write back the whole file system holding ``fd``, data and metadata."""
    import ctypes

    if not has_syncfs() or _syncfs is None:
        raise OSError("syncfs is not available here")
    if _syncfs(fd) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"syncfs: {os.strerror(err)}")


def _open_temp(tmp: str, mode: int) -> int:
    # O_EXCL | O_NOFOLLOW: never write through a link or into a file someone else put there.
    # A file of this name is a leftover of a dead process whose PID this process now has.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    try:
        return os.open(tmp, flags, mode)
    except FileExistsError:
        os.unlink(tmp)
        return os.open(tmp, flags, mode)


def atomic_write(path: Path, data: bytes, mode: int = 0o644, *, durable: bool = True,
                 sync_dir: bool = True, make_parents: bool = True) -> Stamp:
    """Write ``data`` to ``path`` so that readers see the old bytes or the new, nothing between.

    ``durable=False`` skips the fsyncs, for files that can be regenerated (reports): the
    rename still makes the write all-or-nothing, only a power cut may lose it.
    ``sync_dir=False`` fsyncs the file but leaves the directory to the caller, who writes
    several files and then calls :func:`fsync_dirs` once for all of them.
    ``make_parents=False``: a missing folder is an error (files the user names).
    ``path`` itself is replaced, never written through: a link there is replaced by the file.
    Returns the new file's :data:`Stamp` (from its descriptor: no stat by name)."""
    # temp_path(path), joined as text: a Path join costs more than the write (the engine
    # writes two files a record this way).
    head, sep, name = os.fspath(path).rpartition("/")
    tmp = f"{head}{sep}.{name}.tmp-{os.getpid()}"
    try:
        fd = _open_temp(tmp, mode)
    except FileNotFoundError:  # a new directory (cheaper than a mkdir before every write)
        if not make_parents:
            raise
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = _open_temp(tmp, mode)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if durable and _batch is None:
            os.fsync(fd)
        st = os.fstat(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    os.close(fd)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    if durable and _batch is not None:  # group commit: the file and its folder, later
        _batch.files.add(path)
        _batch.dirs.add(path.parent)
    elif durable and sync_dir:
        fsync_dir(path.parent)
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"


def write_output(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` to a file the user named, the way the user means it.

    A regular file (or none yet) is replaced atomically, keeping its mode; a symbolic link is
    written through (its target is replaced, the link stays); a character device or a pipe
    (``/dev/stdout``, ``/dev/null``, a named pipe) is written as a stream, never replaced;
    anything else (a directory, a block device) is refused. A missing folder is an error:
    pbem never creates folders the user did not ask for."""
    try:
        st: os.stat_result | None = os.stat(path)  # follows links: what the link points to
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise UsageError(f"{path}: a part of this path is not a folder") from None
    if st is not None and (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
        fd = os.open(path, os.O_WRONLY)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        return
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{path} is {_kind(st.st_mode)}; pbem writes only a regular file "
                         "(replaced), a device or a pipe: give a file name")
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    if not target.parent.is_dir():
        raise UsageError(f"{target.parent} is not an existing folder; create it first "
                         "(pbem does not create folders it was not asked for)")
    atomic_write(target, data, stat.S_IMODE(st.st_mode) if st is not None else mode,
                 make_parents=False)
    if st is not None:  # the umask may have narrowed the mode of the temp file
        os.chmod(target, stat.S_IMODE(st.st_mode))


def check_new_dir(path: Path, what: str) -> None:
    """``path`` may become a new folder: it does not exist (not even as a dangling link) and
    its parent folder does."""
    if os.path.lexists(path):
        raise UsageError(f"{path} exists; give a new directory for {what}")
    parent = Path(os.path.abspath(path)).parent
    if not parent.is_dir():
        raise UsageError(f"{parent} is not an existing folder; create it first (pbem does "
                         "not create folders it was not asked for)")


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    except OverflowError:
        return False
    return True


def sweep_temp_files(root: Path, *, recursive: bool = True) -> list[Path]:
    """Remove the temp files of :func:`atomic_write` that a killed command left under
    ``root``: those whose PID is no live process, or that are older than a day. Never this
    process's own, never one of a command still running. Links are not followed."""
    removed: list[Path] = []
    now = time.time()
    me = os.getpid()
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if recursive:
                    stack.append(Path(entry.path))
                continue
            m = TEMP_NAME.fullmatch(entry.name)
            if m is None or int(m.group(1)) == me:
                continue
            try:
                old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_AFTER
            except FileNotFoundError:
                continue
            if old or not _pid_alive(int(m.group(1))):
                try:
                    os.unlink(entry.path)
                except FileNotFoundError:
                    continue
                removed.append(Path(entry.path))
    return removed


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
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if durable and _batch is None:
                os.fsync(fd)
        finally:
            os.close(fd)
        if durable:
            sync_later(path)
            fsync_dir(directory)
        hint.write_text(str(n))
        return path


#: gm/ folder -> its mtime when this process last swept its top (CampaignLock).
_swept: dict[str, int] = {}


class CampaignLock:
    """An exclusive ``flock`` on ``gm/lock``: one changing command at a time per campaign.

    The holder of the exclusive lock writes its PID into the lock file and empties it when it
    lets go. A PID found there by the next holder names a command that was killed while it
    held the lock: its temp files are swept from the whole campaign. The top of ``gm/``
    (settings written without the lock) is swept at every exclusive lock; it is small."""

    def __init__(self, gm_dir: Path, *, shared: bool = False) -> None:
        self.gm_dir = gm_dir
        self.path = f"{gm_dir}/lock"  # joined as text: taken at every record and submission
        self.shared = shared
        self.fd: int | None = None

    def __enter__(self) -> CampaignLock:
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except (FileNotFoundError, NotADirectoryError):
            raise CampaignError(f"{self.gm_dir} is missing: this is not a GM's "
                                "campaign directory") from None
        fcntl.flock(self.fd, fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX)
        if not self.shared:
            try:
                self._take_over()
            except BaseException:
                self.__exit__(None, None, None)
                raise
        return self

    def _take_over(self) -> None:
        assert self.fd is not None
        previous = os.pread(self.fd, 32, 0).strip()
        gm_dir = self.gm_dir
        if previous:  # the last holder did not let go: it was killed; sweep everything
            sweep_temp_files(gm_dir.parent if (gm_dir.parent / "campaign.toml").is_file()
                             else gm_dir)
        else:
            # The top of gm/ unchanged since this process swept it (its mtime): no temp file
            # can have appeared there (a command adjudicating record after record locks the
            # campaign at each).
            top = os.fspath(gm_dir)
            changed = os.stat(top).st_mtime_ns
            if _swept.get(top) != changed:
                sweep_temp_files(gm_dir, recursive=False)
                _swept[top] = changed
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.fd is not None:
            if not self.shared:
                with contextlib.suppress(OSError):
                    os.ftruncate(self.fd, 0)
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None

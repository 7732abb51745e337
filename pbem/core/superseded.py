"""The order files a player has replaced in a phase: ``pending/<phase>/<player>.superseded``.

A file the player has since replaced is refused if it is sent again: a replay, not a change of
mind (:func:`pbem.core.engine._make_pending`). The commitments of the replaced files were a
list in the pending meta (``<player>.toml``), parsed and rewritten whole at every re-send:
quadratic in the re-sends (45 s of 93 s for 10,000 messages). They are now appended to this
log, one per line, and read once per command (:func:`open_log` keeps it, and reads only the
lines added since by another command).

The meta's ``superseded`` list is kept for what the log may not hold yet. A line appended
inside a batch of :func:`pbem.core.fsutil.deferred_syncs` is on the disk only once the batch
is synced, and a power cut before that may keep the new meta (renamed in) and lose the log's
last lines; so the meta, rewritten at each re-send anyway, also lists the lines appended
since the last sync (:meth:`Log.unsynced`), a handful, and the replay check reads both. An
older campaign's meta lists every replaced file: it is read as it is, and its list moves to
the log at the player's next re-send.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pbem.core import fsutil

SUFFIX = ".superseded"
_LINE = r"[0-9a-f]{64}"  # a pattern: compiled at its first use, not at import
#: Logs kept by one process (a command touches one phase: one log per player).
KEEP = 64


class Log:
    """One player's log as this process knows it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: set[str] = set()
        self._stamp: fsutil.Stamp = (-1, -1, -1)  # when last read
        self._offset = 0            # bytes read (up to the last complete line)
        self._torn = False          # the file ends in a line cut short (a killed writer)
        self._unsynced: list[str] = []
        self._generation = fsutil.sync_generation()

    def __contains__(self, commitment: str) -> bool:
        return commitment in self.entries

    def refresh(self) -> None:
        """Read what another command appended since, or all of it if the file is not the
        one read before."""
        try:
            stamp = fsutil.stamp(self.path)
        except FileNotFoundError:
            self.entries.clear()
            self._stamp, self._offset, self._torn = (-1, -1, -1), 0, False
            return
        if stamp == self._stamp:
            return
        first = stamp[0] != self._stamp[0] or stamp[1] < self._offset
        if first:
            self.entries.clear()
            self._offset, self._torn = 0, False
        with open(self.path, "rb") as fh:
            fh.seek(self._offset)
            data = fh.read()
        end = data.rfind(b"\n") + 1
        self._torn = end < len(data)
        self._offset += end
        self._stamp = stamp
        self.entries.update(line for line in data[:end].decode("ascii", "replace").split()
                            if re.fullmatch(_LINE, line))
        if first and data and fsutil.batching():
            # Lines a killed command appended may not be on the disk yet, and this process
            # counts what it read as durable (:meth:`unsynced`): make it so.
            fd = os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def add(self, commitments: list[str], *, durable: bool) -> None:
        """Append ``commitments``: on the disk now, or with the batch being written."""
        if not commitments:
            return
        data = "".join(c + "\n" for c in commitments).encode("ascii")
        if self._torn:
            data = b"\n" + data
        fsutil.append(self.path, data, durable=durable)
        self._stamp = fsutil.stamp(self.path)
        self._offset, self._torn = self._stamp[1], False
        self.entries.update(commitments)
        if fsutil.batching() and durable:
            self._catch_up()
            self._unsynced.extend(commitments)

    def unsynced(self) -> list[str]:
        """The lines this process appended that are not known to be on the disk yet."""
        self._catch_up()
        return list(self._unsynced)

    def _catch_up(self) -> None:
        if self._generation != fsutil.sync_generation():
            self._unsynced.clear()   # a batch was synced since they were appended
            self._generation = fsutil.sync_generation()


_logs: dict[Path, Log] = {}


def log_path(directory: Path, player: str) -> Path:
    return directory / f"{player}{SUFFIX}"


def open_log(directory: Path, player: str) -> Log:
    """The log of ``player`` in the pending folder ``directory``, up to date."""
    path = log_path(directory, player)
    log = _logs.pop(path, None)
    if log is None:
        log = Log(path)
        # The least recently used goes, unless it still has lines to carry (then all stay).
        old = next((k for k, v in _logs.items() if not v.unsynced()), None)
        if len(_logs) >= KEEP and old is not None:
            del _logs[old]
    _logs[path] = log  # the most recently used last
    log.refresh()
    return log

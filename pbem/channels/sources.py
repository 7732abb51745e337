"""The SOURCE arguments of ``pbem ingest``: Maildirs, mbox files, single messages, forum texts.

Sources are only read, never changed (no message is moved or marked): they may be the GM's
own mail folders. Each message comes out as its raw bytes with a name that says exactly where
it was, e.g. ``mbox:/home/gm/orders.mbox#3``, for receipts, the inbox and the GM's output.
"""

from __future__ import annotations

import mailbox
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pbem.core.errors import UsageError

# An mbox "From " separator line: "From sender@host Thu Jan  1 00:00:00 2026".
_FROM_LINE = re.compile(rb"From \S+ .*\d\d:\d\d")
_HEADER = re.compile(rb"[!-9;-~]+:")
_MAIL_HEADERS = (b"from", b"to", b"subject", b"date", b"message-id", b"received",
                 b"return-path", b"mime-version", b"content-type", b"delivered-to")


@dataclass(frozen=True)
class Item:
    """One message (``kind`` ``mail``) or one text file (``kind`` ``text``) to ingest."""

    source: str
    raw: bytes
    kind: str
    error: str = ""   # why the message could not be read (``raw`` is then empty)


def check(path: Path) -> None:
    """Refuse, before anything is read, a SOURCE that is neither a Maildir nor a file."""
    if path.is_dir():
        if not ((path / "cur").is_dir() and (path / "new").is_dir()):
            raise UsageError(f"{path}: a directory given as SOURCE must be a Maildir "
                             "(with cur/ and new/ in it)")
    elif not path.is_file():
        raise UsageError(f"{path}: no such file or Maildir")


def read(path: Path) -> Iterator[Item]:
    """The messages of ``path``: a Maildir, an mbox, one message, or a text file."""
    check(path)
    where = Path(_printable(str(path.absolute())))
    if path.is_dir():
        for sub in ("new", "cur"):
            for entry in sorted((path / sub).iterdir()):
                if entry.name.startswith(".") or not entry.is_file():
                    continue
                source = f"maildir:{where / sub / _printable(entry.name)}"
                try:
                    raw = entry.read_bytes()
                except FileNotFoundError:
                    continue   # moved by a mail client meanwhile (to cur/, read there)
                except OSError as exc:
                    yield Item(source, b"", "mail", f"{type(exc).__name__}: {exc.strerror}")
                    continue
                yield Item(source, raw, "mail")
        return
    raw = path.read_bytes()
    if _FROM_LINE.match(raw):
        del raw  # read message by message: a long run does not hold the whole mbox
        box = mailbox.mbox(path, create=False)
        try:
            for n, key in enumerate(box.iterkeys(), start=1):
                yield Item(f"mbox:{where}#{n}", box.get_bytes(key), "mail")
        finally:
            box.close()
    elif looks_like_mail(raw):
        yield Item(f"mail:{where}", raw, "mail")
    else:
        yield Item(f"text:{where}", raw, "text")


def _printable(name: str) -> str:
    """A file name as text that can be printed and stored: bytes that are not UTF-8 (kept by
    Python as surrogate escapes) become U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def looks_like_mail(raw: bytes) -> bool:
    """Whether ``raw`` starts with an RFC 5322 header section naming at least one header
    every mail has; anything else (a saved forum thread) is read as text."""
    # The header section only (a copy of a 50 MB message would cost 50 MB more).
    head = raw[:256 * 1024].lstrip(b"\xef\xbb\xbf").replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
    lines = head.split(b"\n")
    if not lines or not _HEADER.match(lines[0]):
        return False
    names = set()
    for line in lines:
        if line[:1] in (b" ", b"\t"):
            continue
        if not _HEADER.match(line):
            return False
        names.add(line.split(b":", 1)[0].strip().lower())
    return any(n in names for n in _MAIL_HEADERS)

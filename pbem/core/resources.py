"""Finding the top-level ``templates/`` and ``orders/`` folders, and reading the games' data.

In a checkout or an editable install they sit beside the ``pbem`` package; in a wheel they are
force-included as ``pbem/_share/templates`` and ``pbem/_share/orders`` (DESIGN.md section 2).

The games' component data (TOML files under ``pbem/games/*/data``) is parsed again by every
command that needs the rules: for Mythology, ten files and 93 kB, about a third of loading its
components and some 10 ms of each such command (issue 20). :func:`read_toml` keeps what it
parsed in the user's cache folder, as marshal data keyed by the SHA-256 of the text, and reads
that back the next time the same text comes. The TOML files stay the source of truth: a user
who edits their copy gets their edit at once (another text, another key). The cache is never
written beside the data (an installation may be read-only or shared), is used only when its
folder is the user's own and writable by nobody else, and anything wrong with it (no home, a
full disk, a damaged entry) only means the file is parsed as before.
"""

from __future__ import annotations

import contextlib
import os
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

_PACKAGE = Path(__file__).resolve().parent.parent

#: Environment variable naming the cache folder; set but empty, no cache is used.
CACHE_ENV = "PBEM_CACHE_DIR"
#: First bytes of a cache entry (the format's version), then the SHA-256 of the marshal data.
_MAGIC = b"pbem-toml-cache/1\n"


@cache
def share_dir(name: str) -> Path:
    """The folder ``name`` (``"templates"`` or ``"orders"``), wherever pbem is installed."""
    for candidate in (_PACKAGE / "_share" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pbem's {name}/ folder is missing from this installation")


def order_form_text(game: str, kind: str) -> str:
    """The annotated blank form ``orders/<game>/<kind>.toml`` ('' if the game has none)."""
    path = share_dir("orders") / game / f"{kind}.toml"
    return path.read_text() if path.is_file() else ""


def read_toml(path: Path, parser: ModuleType | None = None) -> dict[str, Any]:
    """``parser.loads(path.read_text(encoding="utf-8"))`` (``parser``: ``tomli``, the
    default, or ``tomllib``), with the same errors, from the cache when this text was parsed
    before. For the games' own data files; never for what players or the GM send."""
    return parse_toml(path.read_text(encoding="utf-8"), parser)


def parse_toml(text: str, parser: ModuleType | None = None) -> dict[str, Any]:
    """``parser.loads(text)`` through the cache (see :func:`read_toml`)."""
    import hashlib

    import tomli

    toml = parser if parser is not None else tomli
    version = getattr(toml, "__version__", sys.version)
    key = hashlib.sha256(f"{toml.__name__} {version}\n".encode() + text.encode()).hexdigest()
    folder = cache_dir()
    if folder is not None:
        found = _load(folder / f"{key}.marshal")
        if found is not None:
            return found
    data: dict[str, Any] = toml.loads(text)
    if folder is not None:
        _store(folder, key, data)
    return data


def cache_dir(kind: str = "toml") -> Path | None:
    """The folder of parsed data files: ``$PBEM_CACHE_DIR`` (empty: none), else
    ``$XDG_CACHE_HOME/pbem`` or ``~/.cache/pbem``, each with ``kind/`` in it (``toml``: the
    data files; ``templates``: the compiled report templates); ``None`` when it cannot be
    made, or is not a folder of this user's that only they can write."""
    import stat

    base = os.environ.get(CACHE_ENV)
    if base == "":
        return None
    try:
        root = Path(base) if base else (
            Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pbem")
        folder = root / kind
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.stat(folder)
    except (OSError, RuntimeError):  # RuntimeError: Path.home() without a home
        return None
    if (not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid()
            or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        return None
    return folder


def _load(entry: Path) -> dict[str, Any] | None:
    import hashlib
    import marshal

    try:
        blob = entry.read_bytes()
    except OSError:
        return None
    head, digest, payload = blob[:len(_MAGIC)], blob[len(_MAGIC):len(_MAGIC) + 32], \
        blob[len(_MAGIC) + 32:]
    if head != _MAGIC or hashlib.sha256(payload).digest() != digest:
        return None  # another format, or damaged (a crash while it was written): parse again
    try:
        data = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    return data if isinstance(data, dict) else None


def _store(folder: Path, key: str, data: dict[str, Any]) -> None:
    """Write the entry whole or not at all: a new file renamed over the name."""
    import hashlib
    import marshal
    import tempfile

    try:
        payload = marshal.dumps(data)
    except ValueError:
        return  # a date or time value: marshal has no form for it, so no cache
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
        os.replace(tmp, folder / f"{key}.marshal")
    except OSError:
        with contextlib.suppress(OSError):  # no room or no right: the next run parses again
            if tmp:
                os.unlink(tmp)

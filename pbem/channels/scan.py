"""Order blocks in one decoded text: the ones sent, and the ones only quoted.

A reply quotes what it answers: the report with its order form, or a player's own earlier
orders quoted back by a receipt. Such a block is not new orders, so it is never submitted;
it is found anyway so that the reply can say "you quoted orders; send them unquoted", instead
of a bare "no order block found". Quoting is ``>`` at the start of a line (mail), a
``<blockquote>`` (HTML mail, already turned into ``>`` by :mod:`pbem.channels.htmltext`) or a
BBCode ``[quote]`` (forums, see :func:`forum_text`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from pbem.core import armor
from pbem.core.errors import ArmorError

_QUOTED = re.compile(r"[ \t]{0,3}((?:>[ \t]?)+)(.*)")
# BBCode tags that wrap a pasted block in forum posts. Only these names: a TOML table header
# such as [orders] or [envelope] must never be taken for a tag.
_BBCODE = re.compile(r"\[(/?)(quote|code|pre|tt|mono|noparse|spoiler)(?:=[^\]\n]*)?\]",
                     re.IGNORECASE)


@dataclass(frozen=True)
class Quoted:
    """A block found inside a quote: ``line`` of its BEGIN marker; ``block`` is ``None`` when
    the quote holds only part of it."""

    line: int
    block: armor.Block | None


@dataclass(frozen=True)
class Broken:
    """A malformed block: ``text`` is its part of the text (from its BEGIN marker to the next
    one), which starts at line ``line``; the line numbers in ``error`` are those of the
    whole text."""

    line: int
    text: str
    error: ArmorError


@dataclass
class Scan:
    blocks: list[armor.Block] = field(default_factory=list)
    broken: list[Broken] = field(default_factory=list)
    quoted: list[Quoted] = field(default_factory=list)
    more: int = 0   # BEGIN markers past the limit, not read


def scan(text: str, limit: int | None = None) -> Scan:
    """The unquoted blocks of ``text``, the malformed ones, and the quoted ones; at most
    ``limit`` of each kind are read, the rest counted in :attr:`Scan.more`.

    Each block is read on its own, from its BEGIN marker to the next one (a signature never
    reaches past the next BEGIN marker anyway): a damaged block in a long forum thread or in
    a mail with two blocks does not spoil the others. The work is linear in the text."""
    result = Scan()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == armor.BEGIN_ORDERS]
    read = starts if limit is None else starts[:limit]
    result.more = len(starts) - len(read)
    for k, start in enumerate(read):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        segment = "\n".join(lines[start:end])
        try:
            result.blocks += [dataclasses.replace(b, line=b.line + start)
                              for b in armor.extract(segment)]
        except ArmorError as exc:
            result.broken.append(Broken(start + 1, segment, shifted(exc, start)))
    result.quoted = _quoted(lines)
    if limit is not None and len(result.quoted) > limit:
        result.more += len(result.quoted) - limit
        del result.quoted[limit:]
    return result


_LINE = re.compile(r"line (\d+)")


def shifted(error: ArmorError, offset: int) -> ArmorError:
    """``error`` about a part of a text that starts after ``offset`` lines, with its line
    numbers made those of the whole text."""
    if not offset:
        return error
    problems = [dataclasses.replace(p, where=_LINE.sub(
        lambda m: f"line {int(m.group(1)) + offset}", p.where, count=1))
        for p in error.problems]
    return type(error)(problems, error.source)


def _quoted(lines: list[str]) -> list[Quoted]:
    # The quoted lines without their quote marks, every other line blank: line numbers stay
    # those of the text, and unquoted text between two quotes separates them.
    view = []
    for line in lines:
        m = _QUOTED.fullmatch(line)
        view.append(m.group(2) if m else "")
    markers = [i + 1 for i, line in enumerate(view) if line.strip() == armor.BEGIN_ORDERS]
    if not markers:
        return []
    try:
        return [Quoted(b.line, b) for b in armor.extract("\n".join(view))]
    except ArmorError:
        # A quote cut short (clients trim long quotes): report where it was, nothing more.
        return [Quoted(line, None) for line in markers]


def forum_text(text: str) -> str:
    """A forum post's source with the BBCode around pasted blocks undone: ``[code]`` tags
    become line breaks, ``[quote]`` sections become ``> `` quoted lines."""
    out: list[str] = []
    depth = 0
    pos = 0
    line = ""

    def emit(chunk: str) -> None:
        nonlocal line
        parts = chunk.split("\n")
        for i, part in enumerate(parts):
            if i:
                end_line()
            line += part

    def end_line() -> None:
        nonlocal line
        out.append(("> " * depth + line) if depth and line.strip() else line)
        line = ""

    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for m in _BBCODE.finditer(text):
        emit(text[pos:m.start()])
        pos = m.end()
        if line.strip():
            line = line.rstrip()
            end_line()
        else:
            line = ""
        if m.group(2).lower() == "quote":
            depth = max(0, depth + (-1 if m.group(1) else 1))
        # A tag alone on its line leaves no empty line behind it.
        if text.startswith("\n", pos):
            pos += 1
    emit(text[pos:])
    if line:
        end_line()
    return "\n".join(out) + "\n"

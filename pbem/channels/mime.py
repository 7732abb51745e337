"""The texts of a mail message in which order blocks may be: bodies and attachments, decoded.

A player's orders reach the GM in whatever shape their client gives them: quoted-printable
or base64, ``format=flowed`` (RFC 3676) with soft line breaks, HTML only, as an attachment
with any content type, or inside a forwarded message. :func:`pieces` undoes all of it and
returns plain text with the lines as the player wrote them.

Mail comes from anyone, so reading it is bounded: the message's size (:data:`MAX_MESSAGE`),
the nesting of its parts (:data:`MAX_DEPTH`, checked while parsing), the parts read
(:data:`MAX_PARTS`), the size of a part (:data:`MAX_PART`), and the charsets (only those mail
uses, :func:`decode`). What is not read is said in :attr:`Extracted.problems`.

The alternatives of a ``multipart/alternative`` (the plain and the HTML rendering of one
mail) are kept apart, as :class:`Group` alternatives, so that the caller can use one of them
and never count the same block twice.
"""

from __future__ import annotations

import codecs
import email.errors
import email.feedparser
import email.header
import email.parser
import email.policy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import Message

from pbem.channels import htmltext
from pbem.core import armor

#: Attachments searched whatever their content type says (``application/octet-stream`` is
#: what most clients send for a ``.toml`` file).
TEXT_SUFFIXES = (".toml", ".txt", ".asc", ".text", ".md", ".sig", ".orders")
MARKER = armor.BEGIN_ORDERS.encode()
#: Parts larger than this are not order files (photos, archives); nothing in them is read.
MAX_PART = 8 * 1024 * 1024
#: A message larger than this is kept but only its headers are read: an order mail is a few
#: kB, and parsing a message costs several times its size in memory.
MAX_MESSAGE = 20 * 1024 * 1024
#: Parts nested deeper than this (multipart in multipart, forwarded message in forwarded
#: message): the message is kept but only its headers are read. Real clients nest 3 or 4 deep.
MAX_DEPTH = 20
#: Leaf parts read per message (bodies and attachments); the rest are listed as not read.
MAX_PARTS = 100
#: Header text kept for a header (a Subject, a From): longer ones are cut.
MAX_HEADER = 4096

#: The charsets mail uses (IANA names registered for MIME text, and the WHATWG Encoding
#: Standard's labels): a part is decoded only with one of these. Python knows many more
#: codecs (utf-7, unicode_escape, rot13, hex...) that no mail client writes and that can
#: turn bytes into text no other tool would see (lone surrogates, escapes undone).
_MAIL_CODECS = frozenset(codecs.lookup(name).name for name in (
    "us-ascii", "utf-8", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
    "utf-32-be", *(f"iso-8859-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16)),
    *(f"windows-{n}" for n in range(1250, 1259)), "cp874", "cp866", "cp437", "cp850",
    "koi8-r", "koi8-u", "koi8-t", "mac-roman", "mac-cyrillic", "tis-620",
    "shift_jis", "cp932", "euc-jp", "iso-2022-jp", "iso-2022-jp-1", "iso-2022-jp-2",
    "iso-2022-jp-3", "iso-2022-jp-ext", "shift_jisx0213", "euc-jisx0213",
    "euc-kr", "cp949", "johab", "iso-2022-kr", "gb2312", "gbk", "gb18030", "hz",
    "big5", "big5hkscs", "cp950",
))
# Labels mail uses that Python spells differently.
_ALIASES = {"windows-874": "cp874", "x-mac-cyrillic": "mac-cyrillic", "iso-8859-8-i": "iso8859-8",
            "iso-8859-6-i": "iso8859-6", "x-sjis": "shift_jis", "windows-31j": "cp932",
            "ms_kanji": "shift_jis", "x-mac-roman": "mac-roman", "x-gbk": "gbk",
            "ks_c_5601-1987": "euc-kr", "x-euc-jp": "euc-jp", "x-unknown": ""}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]+")


@dataclass(frozen=True)
class Piece:
    """One text to search: ``label`` says where it came from, for receipts and errors."""

    label: str
    text: str


@dataclass
class Group:
    """One place in the message: usually one alternative of one piece; for a
    ``multipart/alternative``, one list of pieces per alternative (plain first)."""

    alternatives: list[list[Piece]] = field(default_factory=list)


@dataclass
class Extracted:
    groups: list[Group] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # what could not be read, and why


# --- the message and its headers ----------------------------------------------------------


class _TooDeep(Exception):
    pass


class _Parser(email.feedparser.BytesFeedParser):
    """The standard library's parser, with its nesting bounded. It parses a nested part by
    recursion (``_parsegen`` calls itself for each part in a part), so a message of a
    thousand nested parts exhausts Python's stack; here each nested part goes through this
    method first and past :data:`MAX_DEPTH` the parse stops."""

    def __init__(self) -> None:
        self._pbem_depth = 0
        super().__init__(policy=email.policy.compat32)

    def _parsegen(self) -> Iterator[object]:
        self._pbem_depth += 1
        if self._pbem_depth > MAX_DEPTH:
            raise _TooDeep
        try:
            yield from super()._parsegen()  # type: ignore[misc]
        finally:
            self._pbem_depth -= 1


def read(raw: bytes) -> tuple[Message, str]:
    """The message of ``raw`` (RFC 5322 bytes, CR LF or LF line ends), and ``''``; or, for a
    message too large or nested too deep to read, its headers alone and the reason."""
    if len(raw) > MAX_MESSAGE:
        return headers_of(raw), (f"the message is {len(raw)} bytes, over the {MAX_MESSAGE} "
                                 "bytes limit: only its headers were read (send orders "
                                 "without large attachments)")
    parser = _Parser()
    try:
        parser.feed(raw)
        return parser.close(), ""
    except (_TooDeep, RecursionError):
        return headers_of(raw), (f"the message has parts nested more than {MAX_DEPTH} "
                                 "deep: only its headers were read")


def headers_of(raw: bytes) -> Message:
    """The header section of ``raw`` alone (at most the first 256 kB): always cheap."""
    head = raw[:256 * 1024]
    cut = [i for i in (head.find(b"\n\n"), head.find(b"\n\r\n")) if i >= 0]
    if cut:
        head = head[:min(cut) + 1]
    return email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(head)


def raw_header(msg: Message, name: str) -> str:
    """The first ``name`` header of ``msg`` as it arrived (RFC 2047 words not decoded), raw
    8-bit bytes read as UTF-8; ``''`` when absent."""
    for key, value in msg.raw_items():
        if key.lower() == name.lower():
            return _bytes_text(str(value))[:MAX_HEADER]
    return ""


def _bytes_text(value: str) -> str:
    # The parser keeps 8-bit header bytes as surrogate escapes: UTF-8 is what clients send.
    try:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return value.encode("utf-8", "replace").decode("utf-8")


def clean(text: str, limit: int = MAX_HEADER) -> str:
    """``text`` on one line, without control characters, at most ``limit`` characters."""
    text = " ".join(_CONTROL.sub(" ", text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def decode_words(value: str) -> str:
    """``value`` with its RFC 2047 encoded words decoded (in mail charsets only)."""
    try:
        chunks = email.header.decode_header(value)
    except (ValueError, LookupError, email.errors.HeaderParseError):
        return value
    out = []
    for chunk, charset in chunks:
        if isinstance(chunk, str):
            out.append(chunk)
        else:
            out.append(decode(chunk, charset)[0])
    return "".join(out)


def header(msg: Message, name: str, limit: int = MAX_HEADER) -> str:
    """A header's value decoded from RFC 2047 words, on one line, cleaned ('' when absent)."""
    return clean(decode_words(raw_header(msg, name)), limit)


# --- charsets --------------------------------------------------------------------------------


def mail_codec(charset: str | None) -> str | None:
    """The Python codec for the mail charset label ``charset``; ``None`` when it is none of
    the charsets mail uses."""
    if not charset or len(charset) > 40:
        return None
    label = charset.strip().strip('"').lower()
    label = _ALIASES.get(label, label)
    try:
        name = codecs.lookup(label).name if label else ""
    except (LookupError, ValueError):
        return None
    return name if name in _MAIL_CODECS else None


def decode(data: bytes, charset: str | None) -> tuple[str, list[str]]:
    """``data`` as text, and what was wrong with it. The declared ``charset`` when it is a
    mail charset, else UTF-8 (with or without a BOM; UTF-16 with one, as Windows editors save
    files). Bytes that do not fit are replaced by U+FFFD and reported, so that one stray byte
    does not hide an order block elsewhere in the text."""
    problems = []
    codec = mail_codec(charset)
    if charset and codec is None:
        problems.append(f"charset {clean(charset, 40)!r} is not a mail charset: read as UTF-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        codec = "utf-16"
    elif data.startswith(b"\xef\xbb\xbf"):
        codec = "utf-8-sig"
    first: UnicodeDecodeError | None = None
    for name in dict.fromkeys((codec, "utf-8-sig")):
        if name is None:
            continue
        try:
            return data.decode(name), problems
        except UnicodeDecodeError as exc:
            first = first or exc
    name = codec or "utf-8"
    where = f" from byte {first.start}" if first is not None else ""
    problems.append(f"bytes that are not valid {name.removesuffix('-sig')}{where}: each "
                    "read as U+FFFD")
    return data.decode(name, "replace"), problems


# --- the texts of a message ---------------------------------------------------------------


def pieces(msg: Message) -> Extracted:
    """Every text of ``msg`` worth searching for order blocks, grouped by alternative."""
    walker = _Walker()
    walker.walk(msg, "", walker.out.groups, depth=0)
    if walker.skipped:
        walker.out.problems.append(f"{walker.skipped} more parts not read (at most "
                                   f"{MAX_PARTS} are read per message)")
    return walker.out


class _Walker:
    def __init__(self) -> None:
        self.out = Extracted()
        self.leaves = 0
        self.skipped = 0

    @property
    def problems(self) -> list[str]:
        return self.out.problems

    def walk(self, part: Message, prefix: str, groups: list[Group], depth: int) -> None:
        if depth > MAX_DEPTH:
            self.problems.append(f"{prefix or 'message'}: parts nested more than {MAX_DEPTH} "
                                 "deep, not read")
            return
        ctype = part.get_content_type()
        children = _children(part)
        if ctype == "multipart/alternative" and children:
            group = Group()
            for alt in children:
                sub: list[Group] = []
                self.walk(alt, prefix, sub, depth + 1)
                flat = [p for g in sub for alts in g.alternatives[:1] for p in alts]
                if flat:
                    group.alternatives.append(flat)
            # Plain text first: it is what the player typed; HTML is a rendering of it.
            group.alternatives.sort(key=lambda alt: not any("text/plain" in p.label
                                                            for p in alt))
            if group.alternatives:
                groups.append(group)
            return
        if part.is_multipart():
            if ctype == "message/rfc822" and children:
                inner = children[0]
                subject = header(inner, "Subject", 40)
                label = f"{prefix}forwarded message" + (f" '{subject}'" if subject else "")
                self.walk(inner, label + ": ", groups, depth + 1)
                return
            for child in children:
                self.walk(child, prefix, groups, depth + 1)
            return
        self.leaves += 1
        if self.leaves > MAX_PARTS:
            self.skipped += 1
            return
        piece = self.leaf(part, prefix, depth)
        if piece is not None:
            groups.append(Group([[piece]]))

    def leaf(self, part: Message, prefix: str, depth: int) -> Piece | None:
        params = _params(part)
        ctype = params.get_content_type()
        filename = _filename(params)
        disposition = str(params.get("Content-Disposition") or "").split(";")[0].strip().lower()
        attached = disposition == "attachment" or bool(filename)
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        what = f"attachment {filename}" if filename else (
            f"attachment ({clean(ctype, 60)})" if attached else f"body ({clean(ctype, 60)})")
        label = prefix + what
        if len(data) > MAX_PART:
            if MARKER in data[:MAX_PART]:
                self.problems.append(f"{label}: {len(data)} bytes, too large to be an order "
                                     "file")
            return None
        if filename.lower().endswith(".eml") or ctype == "message/rfc822":
            # A forwarded message sent as a plain attachment (Outlook does this).
            inner, problem = read(data)
            if problem:
                self.problems.append(f"{label}: {problem}")
                return None
            sub: list[Group] = []
            self.walk(inner, prefix + f"forwarded message {filename}: ", sub, depth + 1)
            texts = [p for g in sub for alts in g.alternatives[:1] for p in alts]
            return Piece(label, "\n".join(p.text for p in texts)) if texts else None
        is_text = params.get_content_maintype() == "text"
        named = filename.lower().endswith(TEXT_SUFFIXES)
        if not (is_text or named or MARKER in data):
            return None
        text, problems = decode(data, _charset(params) if is_text else None)
        self.problems.extend(f"{label}: {p}" for p in problems)
        if ctype == "text/html" or (not is_text and htmltext.looks_like_html(text)):
            return Piece(label, htmltext.to_text(text))
        if ctype == "text/plain" and _param(params, "format") == "flowed":
            return Piece(label, unflow(text, delsp=_param(params, "delsp") == "yes"))
        return Piece(label, text)


def _children(part: Message) -> list[Message]:
    if not part.is_multipart():
        return []   # get_payload() of a leaf would decode it, with any charset it names
    payload = part.get_payload()
    return [p for p in payload if isinstance(p, Message)] if isinstance(payload, list) else []


def _params(part: Message) -> Message:
    """A message holding only the Content-Type and Content-Disposition of ``part``, read as
    UTF-8 text: the standard library's parameter parsing then never meets raw 8-bit bytes
    (a ``filename="ordres-été.toml"`` as many clients send it)."""
    view = Message()
    for name in ("Content-Type", "Content-Disposition"):
        value = raw_header(part, name)
        if value:
            view[name] = " ".join(_CONTROL.sub(" ", value).split())
    return view


def _filename(params: Message) -> str:
    try:
        name = params.get_filename() or ""
    except (LookupError, UnicodeError, ValueError, TypeError):
        name = ""
    return clean(name, 80)


def _charset(params: Message) -> str | None:
    try:
        return params.get_content_charset()
    except (LookupError, UnicodeError, ValueError, TypeError):
        return None


def _param(params: Message, name: str) -> str:
    value = params.get_param(name)
    return value.lower() if isinstance(value, str) else ""


_QUOTE = re.compile(r">*")


def unflow(text: str, *, delsp: bool = False) -> str:
    """RFC 3676 ``format=flowed`` text as the lines the writer meant.

    A line ending in a space continues on the next line of the same quote depth (soft
    break); with ``DelSp=yes`` that space was added by the sender and is removed. One space
    after the quote marks is space-stuffing and is removed. ``-- `` (the signature
    separator) is always a hard break. Quoted lines come back as ``> `` per depth.
    """
    out: list[str] = []
    para: list[str] = []
    para_depth = -1

    def flush() -> None:
        nonlocal para, para_depth
        if para_depth >= 0:
            content = "".join(para)
            out.append(("> " * para_depth + content).rstrip(" ") if para_depth else content)
        para, para_depth = [], -1

    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        depth = len(_QUOTE.match(line).group(0))  # type: ignore[union-attr]
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]
        if para_depth >= 0 and depth != para_depth:
            flush()   # a change of quote depth ends a paragraph even after a soft break
        soft = content.endswith(" ") and content != "-- "
        if soft and delsp:
            content = content[:-1]
        para.append(content)
        para_depth = depth
        if not soft:
            flush()
    flush()
    return "\n".join(out)

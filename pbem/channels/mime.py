"""The texts of a mail message in which order blocks may be: bodies and attachments, decoded.

A player's orders reach the GM in whatever shape their client gives them: quoted-printable
or base64, ``format=flowed`` (RFC 3676) with soft line breaks, HTML only, as an attachment
with any content type, or inside a forwarded message. :func:`pieces` undoes all of it and
returns plain text with the lines as the player wrote them.

The alternatives of a ``multipart/alternative`` (the plain and the HTML rendering of one
mail) are kept apart, as :class:`Group` alternatives, so that the caller can use one of them
and never count the same block twice.
"""

from __future__ import annotations

import email
import email.errors
import email.header
import email.policy
import re
from dataclasses import dataclass, field
from email.message import Message

from pbem.channels import htmltext
from pbem.core import armor

#: Attachments searched whatever their content type says (``application/octet-stream`` is
#: what most clients send for a ``.toml`` file).
TEXT_SUFFIXES = (".toml", ".txt", ".asc", ".text", ".md", ".sig", ".orders")
MARKER = armor.BEGIN_ORDERS.encode()
# Parts larger than this are not order files (photos, archives); nothing in them is read.
MAX_PART = 8 * 1024 * 1024


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
    problems: list[str] = field(default_factory=list)   # parts that could not be decoded


def parse(raw: bytes) -> Message:
    """The message of ``raw`` (RFC 5322 bytes, CR LF or LF line ends)."""
    return email.message_from_bytes(raw, policy=email.policy.compat32)


def header(msg: Message, name: str) -> str:
    """A header's value decoded from RFC 2047 words, on one line ('' when absent)."""
    value = msg.get(name)
    if value is None:
        return ""
    try:
        decoded = str(email.header.make_header(email.header.decode_header(str(value))))
    except (LookupError, UnicodeDecodeError, ValueError, email.errors.HeaderParseError):
        decoded = str(value)
    return " ".join(decoded.split())


def pieces(msg: Message) -> Extracted:
    """Every text of ``msg`` worth searching for order blocks, grouped by alternative."""
    out = Extracted()
    _walk(msg, "", out.groups, out.problems, depth=0)
    return out


def _walk(part: Message, prefix: str, groups: list[Group], problems: list[str],
          depth: int) -> None:
    if depth > 20:
        problems.append(f"{prefix or 'message'}: parts nested more than 20 deep, not read")
        return
    ctype = part.get_content_type()
    children = _children(part)
    if ctype == "multipart/alternative" and children:
        group = Group()
        for alt in children:
            sub: list[Group] = []
            _walk(alt, prefix, sub, problems, depth + 1)
            flat = [p for g in sub for alts in g.alternatives[:1] for p in alts]
            if flat:
                group.alternatives.append(flat)
        # Plain text first: it is what the player typed; HTML is a rendering of it.
        group.alternatives.sort(key=lambda alt: not any("text/plain" in p.label for p in alt))
        if group.alternatives:
            groups.append(group)
        return
    if part.is_multipart():
        if ctype == "message/rfc822" and children:
            inner = children[0]
            subject = header(inner, "Subject")
            label = f"{prefix}forwarded message" + (f" '{subject[:40]}'" if subject else "")
            _walk(inner, label + ": ", groups, problems, depth + 1)
            return
        for child in children:
            _walk(child, prefix, groups, problems, depth + 1)
        return
    piece = _leaf(part, prefix, problems, depth)
    if piece is not None:
        groups.append(Group([[piece]]))


def _children(part: Message) -> list[Message]:
    payload = part.get_payload()
    return [p for p in payload if isinstance(p, Message)] if isinstance(payload, list) else []


def _param(part: Message, name: str) -> str:
    value = part.get_param(name)
    return value.lower() if isinstance(value, str) else ""


def _leaf(part: Message, prefix: str, problems: list[str], depth: int) -> Piece | None:
    ctype = part.get_content_type()
    filename = part.get_filename() or ""
    disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    attached = disposition == "attachment" or bool(filename)
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    what = f"attachment {filename}" if filename else (
        f"attachment ({ctype})" if attached else f"body ({ctype})")
    label = prefix + what
    if len(data) > MAX_PART:
        if MARKER in data[:MAX_PART]:
            problems.append(f"{label}: {len(data)} bytes, too large to be an order file")
        return None
    if filename.lower().endswith(".eml") or ctype == "message/rfc822":
        # A forwarded message sent as a plain attachment (Outlook does this).
        sub: list[Group] = []
        _walk(parse(data), prefix + f"forwarded message {filename}: ", sub, problems, depth + 1)
        texts = [p for g in sub for alts in g.alternatives[:1] for p in alts]
        return Piece(label, "\n".join(p.text for p in texts)) if texts else None
    is_text = part.get_content_maintype() == "text"
    named = filename.lower().endswith(TEXT_SUFFIXES)
    if not (is_text or named or MARKER in data):
        return None
    text = _decode(data, part.get_content_charset() if is_text else None)
    if text is None:
        problems.append(f"{label}: cannot be decoded as "
                        f"{part.get_content_charset() or 'UTF-8'} text")
        return None
    if ctype == "text/html" or (not is_text and htmltext.looks_like_html(text)):
        return Piece(label, htmltext.to_text(text))
    if ctype == "text/plain" and _param(part, "format") == "flowed":
        return Piece(label, unflow(text, delsp=_param(part, "delsp") == "yes"))
    return Piece(label, text)


def _decode(data: bytes, charset: str | None) -> str | None:
    """``data`` as text: the declared charset, else UTF-8 (with or without a BOM, or UTF-16
    with one, as Windows editors save files); ``None`` when nothing fits."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            return None
    tried = []
    for name in (charset, "utf-8-sig"):
        if not name or name in tried:
            continue
        tried.append(name)
        try:
            return data.decode(name)
        except (LookupError, UnicodeDecodeError):
            continue
    return None


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

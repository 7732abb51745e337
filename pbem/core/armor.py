"""Armored order blocks: finding them in any text, normalising, committing (DESIGN.md section 3).

An order file is text that has to survive mail clients and forum software. This module finds
every ``-----BEGIN PBEM ORDERS-----`` block in a text (an email body, a saved forum page, an
attachment), ignores everything around it, and reduces the body to the normalised bytes
``N(body)`` that are signed and committed to.

Mail clients, forums and HTML-to-text converters change the text on the way: they indent it,
wrap long lines, drop empty lines, collapse runs of spaces. When a signed block's signature
does not verify over the text as received and the text shows such a change, :func:`extract`
tries a bounded number of repaired bodies (see :func:`candidates`) and keeps the one over
which the block's own signature verifies -- the exact bytes that were signed. The signer is
not trusted by this: the caller still checks that the key is the player's. When nothing
verifies, the error says what the channel did (docs/protocol.md, "What pbem tolerates from
mail clients and forums").
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Final

import tomli

from pbem.core import sshsig
from pbem.core.errors import ArmorError, Problem, SignatureError
from pbem.core.values import FrozenValue

BEGIN_ORDERS = "-----BEGIN PBEM ORDERS-----"
END_ORDERS = "-----END PBEM ORDERS-----"
BEGIN_SIGNATURE = "-----BEGIN SSH SIGNATURE-----"
END_SIGNATURE = "-----END SSH SIGNATURE-----"
COMMIT_PREFIX = b"pbem-commit/1\n"

# A Log Sheet for a whole campaign is a few KiB; anything this large is not an order file.
MAX_TEXT = 4 * 1024 * 1024
MAX_BODY = 256 * 1024
# Repairs: at most this many repaired bodies are tried per block (each costs one ed25519
# verification), made with at most this many TOML parses, joining at most this many lines.
MAX_CANDIDATES = 12
_MAX_TOML_TRIES = 24
_MAX_JOINS = 12
_MAX_UNWRAPPED = 8
# Repairs are tried only on bodies up to this size (an order form is a few KiB).
_MAX_REPAIR_BODY = 32 * 1024


def _lines(text: str) -> list[str]:
    # Not str.splitlines(): that also splits on \v, \f, \x1c-\x1e, \x85, U+2028 and U+2029,
    # which other verifiers following DESIGN.md would keep inside a line.
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def normalise(body: str) -> bytes:
    """``N(body)``: LF line ends, no trailing blanks, no empty lines at either end, one final LF."""
    lines = [line.rstrip(" \t") for line in _lines(body)]
    while lines and lines[0] == "":
        lines.pop(0)
    while lines and lines[-1] == "":
        lines.pop()
    return ("\n".join(lines) + "\n").encode("utf-8")


def commitment(normalised_body: bytes) -> str:
    """``sha256(b"pbem-commit/1\\n" + N(body))`` in lowercase hex."""
    return hashlib.sha256(COMMIT_PREFIX + normalised_body).hexdigest()


# A dataclass for dataclasses.replace (the channels), its methods written out
# (pbem.core.values: generated ones cost ~3.5 M instructions at import).
@dataclass(init=False, repr=False, eq=False)
class Block(FrozenValue):
    """One armored order block as found in a text.

    ``body`` is ``N(body)`` decoded; ``signature`` is the armored SSH signature that follows
    the block (before the next order block), or ``None`` when the block is unsigned.
    ``line`` is the 1-based line of the BEGIN marker in the source text. ``repair`` says
    what was undone to recover the signed body from the text as received ('' when the text
    arrived as it was signed); the signature verified over the repaired body.
    """

    body: Final[str]
    signature: Final[str | None]
    line: Final[int]
    repair: Final[str]  # not compared
    #: The parsed signature, when :func:`extract` already verified it over ``body`` under its
    #: own key in namespace pbem-orders (the common case costs one verification, not two:
    #: :func:`pbem.core.orders.check_signature` then only checks whose key it is). A Block
    #: made any other way has none and is verified in full. Neither compared nor shown.
    verified: Final[sshsig.Signature | None]

    def __init__(self, body: str, signature: str | None, line: int, repair: str = "",
                 verified: sshsig.Signature | None = None) -> None:
        self.body = body
        self.signature = signature
        self.line = line
        self.repair = repair
        self.verified = verified

    def _key(self) -> tuple[Any, ...]:
        return (self.body, self.signature, self.line)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(body={self.body!r}, "
                f"signature={self.signature!r}, line={self.line!r}, repair={self.repair!r})")

    @property
    def body_bytes(self) -> bytes:
        return self.body.encode("utf-8")

    @property
    def commitment(self) -> str:
        return commitment(self.body_bytes)

    def armored(self) -> str:
        """The canonical armored text: markers, ``N(body)``, then the signature if any."""
        text = f"{BEGIN_ORDERS}\n{self.body}{END_ORDERS}\n"
        if self.signature is not None:
            text += self.signature
        return text


def extract(text: str, source: str = "", *, as_stored: bool = False) -> list[Block]:
    """Every armored order block in ``text``, in order; text outside the blocks is ignored.

    Raises :class:`ArmorError` listing every malformed block (unterminated, a ``-----`` line
    inside a body, an unterminated signature). Returns an empty list when there is no block.
    ``as_stored``: the text is an order file as pbem stored it after checking its signature
    (canonical: nothing to repair), so the signature is not verified again here.
    """
    if len(text) > MAX_TEXT:
        raise ArmorError(
            Problem("", f"the text is {len(text)} characters long, over the {MAX_TEXT} limit",
                    "send only the order file"),
            source,
        )
    lines = _lines(text)
    blocks: list[Block] = []
    problems: list[Problem] = []
    i = 0
    n = len(lines)
    while i < n:
        if lines[i].strip() != BEGIN_ORDERS:
            i += 1
            continue
        start = i
        i += 1
        body_lines: list[str] = []
        bad = False
        while i < n and lines[i].strip() != END_ORDERS:
            candidate = lines[i].rstrip(" \t")
            if candidate.startswith("-----"):
                if candidate.strip() == BEGIN_ORDERS:
                    break
                problems.append(Problem(
                    f"line {i + 1}",
                    f"a line inside the order block starts with '-----': {candidate[:40]!r}",
                    "remove that line, or end the block with " + END_ORDERS,
                ))
                bad = True
            body_lines.append(lines[i])
            i += 1
        if i >= n or lines[i].strip() != END_ORDERS:
            problems.append(Problem(
                f"line {start + 1}",
                "the order block that starts here has no " + END_ORDERS + " line",
                "paste the whole order file, down to the END SSH SIGNATURE line",
            ))
            continue
        end = i
        i += 1  # past END ORDERS
        signature, i, sig_problem = _signature_after(lines, i)
        if sig_problem is not None:
            problems.append(sig_problem)
            bad = True
        if bad:
            continue
        body = normalise("\n".join(body_lines))
        if len(body) > MAX_BODY:
            problems.append(Problem(f"line {start + 1}", "the order block is too large",
                                    "send one order file of at most 256 KiB"))
            continue
        if as_stored:
            blocks.append(Block(body.decode("utf-8"), signature, start + 1))
            continue
        recovered = _recover(body.decode("utf-8"), _indent(lines[start]), _indent(lines[end]),
                             signature, start + 1,
                             max((len(x) for x in body_lines), default=0))
        if isinstance(recovered, Problem):
            problems.append(recovered)
            continue
        blocks.append(Block(recovered[0], signature, start + 1, recovered[1], recovered[2]))
    if problems:
        raise ArmorError(problems, source)
    return blocks


def _signature_after(lines: list[str], i: int) -> tuple[str | None, int, Problem | None]:
    """The signature block following an order block, if one comes before the next order block."""
    j = i
    n = len(lines)
    while j < n:
        stripped = lines[j].strip()
        if stripped == BEGIN_ORDERS:
            return None, i, None
        if stripped == BEGIN_SIGNATURE:
            break
        j += 1
    else:
        return None, i, None
    start = j
    sig_lines = [BEGIN_SIGNATURE]
    j += 1
    while j < n:
        stripped = lines[j].strip()
        if stripped == END_SIGNATURE:
            sig_lines.append(END_SIGNATURE)
            return "\n".join(sig_lines) + "\n", j + 1, None
        if stripped.startswith("-----"):
            break
        sig_lines.append(stripped)
        j += 1
    return None, j, Problem(
        f"line {start + 1}",
        "the signature block that starts here has no " + END_SIGNATURE + " line",
        "paste the whole signature, down to its END line",
    )


# --- what mail clients and forums do to a block, and undoing it ----------------------------
#
# docs/protocol.md, "What pbem tolerates from mail clients and forums". Every repaired body
# is only a candidate: it is kept when the block's own signature verifies over exactly its
# bytes, so a repair can recover the text that was signed and nothing else.

# Patterns, not compiled ones: the re module compiles each when a text first needs a repair,
# not at every command's import (issue 20, target 5).
_INNER_RUN = r"\S  "
_PHASE = r'\s*phase\s*=\s*"([^"\n]{1,100})"\s*(?:#.*)?'
_KIND = r"[a-z][a-z0-9_]{0,40}"
_HEX = r"[0-9a-fA-F]+"
_MAX_FORMS = 6

_WRAP_HINT = ("turn off line wrapping in your mail client (send plain text without wrapping), "
              "or attach the signed order file")
_SPACES_HINT = "send the mail as plain text, or attach the signed order file"
_BLANKS_HINT = "copy the order file from the file pbem sign wrote, or attach it"
_INDENT_HINT = "paste the order file exactly as pbem sign wrote it, or attach it"


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _recover(body: str, begin_indent: str, end_indent: str, signature: str | None,
             line: int, width: int
             ) -> tuple[str, str, sshsig.Signature | None] | Problem:
    """The body to keep for a block, with what was repaired and the parsed signature if it
    verified over that body; or why the block is damaged. ``width``: the longest line as
    received (trailing blanks included), for messages."""
    if len(body) > _MAX_REPAIR_BODY:
        return body, "", None
    lines = body.split("\n")[:-1]
    dedented = _dedent(lines, begin_indent, end_indent)
    base = dedented if dedented is not None else lines
    sig: sshsig.Signature | None = None
    if signature is not None:
        # The common case first: a block that arrived as it was signed costs one
        # verification, none of the layout analysis below.
        try:
            sig = sshsig.parse_armor(signature)
        except SignatureError:
            return body, "", None  # the caller reports the damaged signature
        if sig.namespace != sshsig.NAMESPACE_ORDERS:
            return body, "", None
        if _verifies(body, sig):
            return body, "", sig
    wrapped, broken_at = _unwrapped_cached(tuple(base))
    where = f"order block at line {line}"
    wrap_msg = (f"your mail client wrapped a long line (at about {width} characters): line "
                f"{broken_at + 1} of the block ends inside a value that the next line "
                "completes")
    if sig is None:
        if wrapped:
            return Problem(where, wrap_msg, _WRAP_HINT)
        return body, "", None
    blanks, spaces = _blanks_dropped(base), _spaces_collapsed(base)
    if dedented is None and not wrapped and not blanks and not spaces:
        return body, "", None
    for candidate, repair in candidates(body, begin_indent, end_indent):
        if _verifies(candidate, sig):
            return candidate, repair, sig
    findings: list[tuple[str, str]] = []
    if wrapped:
        findings.append((wrap_msg, _WRAP_HINT))
    if spaces:
        findings.append(("your mail client collapsed runs of spaces inside a line, as HTML "
                         "mail does (the order form aligns its comments with several spaces; "
                         "no line here has two in a row)", _SPACES_HINT))
    if blanks:
        findings.append(("the empty lines inside the block were dropped on the way (the order "
                         "form has one before [orders]), as a text browser such as lynx does "
                         "when it copies from a web page", _BLANKS_HINT))
    if not findings:
        # Only indented, and the signature does not match without the indentation either:
        # the text changed in another way; the signature check says so.
        return body, "", None
    if dedented is not None:
        findings.append((f"every line of the block, the marker lines too, is indented by "
                         f"{begin_indent!r}", _INDENT_HINT))
    message = ("; ".join(m for m, _ in findings) + "; pbem undid this as far as it can, but the "
               "signature matches neither the text as received nor the repaired text (if you "
               "also edited the text after signing, sign it again)")
    return Problem(where, message, findings[0][1])


def _verifies(body: str, sig: sshsig.Signature) -> bool:
    """Whether the block's own signature (by the key it names) verifies over ``body``."""
    try:
        sshsig.verify(body.encode("utf-8"), sig, sshsig.NAMESPACE_ORDERS)
    except SignatureError:
        return False
    return True


def candidates(body: str, begin_indent: str = "", end_indent: str = "") -> list[tuple[str, str]]:
    """Repaired versions of ``N(body)`` (not including it), each with what was repaired, at
    most :data:`MAX_CANDIDATES`: the common indentation removed (only when both marker lines
    carry it too), wrapped lines joined again (only where that makes the TOML valid), and the
    order form's layout restored (its empty lines, when the block has none; its runs of
    spaces, when no line has two in a row). A caller keeps the first over which the block's
    signature verifies."""
    lines = body.split("\n")[:-1]
    bases: list[tuple[list[str], list[str]]] = [(lines, [])]
    dedented = _dedent(lines, begin_indent, end_indent)
    if dedented is not None:  # tried first: the markers say the whole block was indented
        bases.insert(0, (dedented, [f"indentation {begin_indent!r} removed"]))
    seen = {body}
    out: list[tuple[str, str]] = []
    for base, done in bases:
        stage = [(base, done)]
        for v in _unwrapped_cached(tuple(base))[0]:
            # Indented, then wrapped: the continuation lines lack the indentation.
            again = _dedent(v, begin_indent, end_indent) if dedented is None else None
            if again is not None:
                stage.append((again, [*done, "wrapped lines joined",
                                      f"indentation {begin_indent!r} removed"]))
            stage.append((v, [*done, "wrapped lines joined"]))
        for unwrapped, done2 in stage:
            layouts = [(unwrapped, done2)] + [(v, [*done2, what])
                                              for v, what in _relayouts(unwrapped)]
            for cand, what in layouts:
                text = normalise("\n".join(cand)).decode("utf-8")
                if text in seen:
                    continue
                seen.add(text)
                out.append((text, "; ".join(what)))
                if len(out) >= MAX_CANDIDATES:
                    return out
    return out


def _dedent(lines: list[str], begin_indent: str, end_indent: str) -> list[str] | None:
    """The lines without the indentation both markers have, if every line has it."""
    if not begin_indent or begin_indent != end_indent or not any(lines):
        return None
    if not all(x.startswith(begin_indent) or x == "" for x in lines):
        return None
    return [x[len(begin_indent):] for x in lines]


# -- wrapped lines

@lru_cache(maxsize=8)
def _unwrapped_cached(lines: tuple[str, ...]) -> tuple[list[list[str]], int]:
    return _unwrapped(list(lines))


def _unwrapped(lines: list[str]) -> tuple[list[list[str]], int]:
    """Versions of ``lines`` that are valid TOML once lines a mail client broke are joined
    again (at most 8), and the 0-based line of the first break (-1 when there is none).

    Only when the text is not valid TOML as it is; a join is tried where the parser stops:
    a string that does not close on its line, a ``key =`` without its value, or text after
    a comment that is no TOML; and only if the two lines would not have fitted together in
    the width of the longest line (a client breaks a line only there)."""
    if not any(_suspect(x) for x in lines):
        return [], -1
    width = max((len(x) for x in lines), default=0)
    results: list[list[str]] = []
    first = -1
    frontier: list[tuple[list[str], int]] = [(lines, -1)]
    tries = 0
    while frontier and tries < _MAX_TOML_TRIES and len(results) < _MAX_UNWRAPPED:
        cur, brk = frontier.pop(0)
        tries += 1
        err = _toml_error(cur)
        if err is None:
            if cur is not lines:
                results.append(cur)
                first = brk if first < 0 else first
            continue
        if err < 0 or len(lines) - len(cur) >= _MAX_JOINS:
            continue
        for idx, sep in _joins_at(cur, err, width):
            joined = [*cur[:idx], cur[idx] + sep + cur[idx + 1], *cur[idx + 2:]]
            frontier.append((joined, brk if brk >= 0 else idx))
    return results, first


def _suspect(line: str) -> bool:
    """Cheap test: could this line be the first or second half of a broken line?"""
    s = line.strip()
    if not s or s.startswith("#"):
        return False
    if _open_string(line) is not None:
        return True
    if s.endswith("=") or "=" not in s:
        return not s.startswith("[") and s not in ("]", "],", "}", "},")
    return False


def _toml_error(lines: list[str]) -> int | None:
    """None when ``lines`` are valid TOML, else the 0-based line of the error (-1: unknown)."""
    try:
        tomli.loads("\n".join(lines) + "\n")
    except tomli.TOMLDecodeError as exc:
        lineno = getattr(exc, "lineno", None)
        if not isinstance(lineno, int) or lineno < 1:
            return -1
        return min(lineno, len(lines)) - 1
    except RecursionError:
        return -1
    return None


def _joins_at(cur: list[str], e: int, width: int) -> list[tuple[int, str]]:
    """Where the parser stopped at line ``e``: the joins (line, separator) that could undo a
    mail client's line break there."""
    def fits(idx: int, sep: str) -> bool:
        words = cur[idx + 1].split()
        return bool(words) and len(cur[idx]) + len(sep) + len(words[0]) > width

    if e + 1 < len(cur) and cur[e + 1].strip():
        opened = _open_string(cur[e])
        if opened is not None:
            # Broken inside a word (hex digits: salt, entropy) or at a space the client ate.
            nxt = cur[e + 1]
            inside = bool(re.fullmatch(_HEX, opened)) and nxt[:1] in '0123456789abcdefABCDEF"'
            seps: tuple[str, ...] = ("", " ") if inside else (" ", "")
            return [(e, s) for s in seps if fits(e, s) or (s == "" and len(cur[e]) >= width)]
        if not cur[e].lstrip().startswith("#") and cur[e].rstrip().endswith("="):
            return [(e, " ")] if fits(e, " ") else []
    if e > 0 and _is_bare(cur[e]) and _split_comment(cur[e - 1]) is not None:
        # The rest of a comment; cut inside a word only if the line before is full.
        seps = ("", " ") if len(cur[e - 1]) >= width else (" ",)
        return [(e - 1, s) for s in seps if fits(e - 1, s) or s == ""]
    return []


def _is_bare(line: str) -> bool:
    """Text that is no TOML line at all: the rest of a comment a client wrapped."""
    s = line.strip()
    return bool(s) and "=" not in s and not s.startswith(("#", "[", "]", "{", "}", '"', "'"))


def _open_string(line: str) -> str | None:
    """The text of a one-line TOML string that ``line`` opens and does not close, else None."""
    quote = ""
    start = i = 0
    while i < len(line):
        c = line[i]
        if not quote:
            if c == "#":
                return None
            if c in "\"'":
                if line.startswith(c * 3, i):
                    return None  # multi-line strings span lines on purpose
                quote, start = c, i + 1
        elif quote == '"' and c == "\\":
            i += 1
        elif c == quote:
            quote = ""
        i += 1
    return line[start:] if quote else None


def _split_comment(line: str) -> tuple[str, str, str] | None:
    """``(code, gap, comment)`` of a line with a ``#`` comment outside strings, else None."""
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if not quote:
            if c == "#":
                code = line[:i].rstrip(" \t")
                return code, line[len(code):i], line[i:]
            if c in "\"'":
                quote = c
        elif quote == '"' and c == "\\":
            i += 1
        elif c == quote:
            quote = ""
        i += 1
    return None


# -- the order form's layout: empty lines and runs of spaces

def _blanks_dropped(lines: list[str]) -> bool:
    """No empty line, although every order form has one before ``[orders]``."""
    return "" not in lines and any(x.strip() == "[orders]" for x in lines[1:])


def _spaces_collapsed(lines: list[str]) -> bool:
    """No line has two spaces in a row, though one has a comment after a value (the forms
    align those comments with runs of spaces)."""
    if any(re.search(_INNER_RUN, x.lstrip(" \t")) for x in lines):
        return False
    return any((s := _split_comment(x)) is not None and s[0].strip() != "" for x in lines)


def _squash(text: str) -> str:
    return " ".join(text.split())


@cache
def _form_texts() -> dict[str, tuple[str, ...]]:
    """The annotated blank forms shipped with pbem (``orders/<game>/<kind>.toml``) by kind."""
    from pbem.core.resources import share_dir

    out: dict[str, list[str]] = {}
    try:
        for path in sorted(share_dir("orders").glob("*/*.toml")):
            out.setdefault(path.stem, []).append(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return {}
    return {k: tuple(v) for k, v in out.items()}


def _forms_for(lines: list[str]) -> list[str]:
    """The shipped forms whose kind is a part of the envelope's phase id (``t03.logsheet``,
    ``c02.act.zeus``): at most one per game and kind."""
    phase = next((m.group(1) for x in lines if (m := re.fullmatch(_PHASE, x))), "")
    kinds = [k for k in phase.split(".") if re.fullmatch(_KIND, k)][:4]
    forms = _form_texts()
    return [text for k in kinds for text in forms.get(k, ())][:_MAX_FORMS]


def _relayouts(lines: list[str]) -> list[tuple[list[str], str]]:
    """The body with the order form's empty lines and runs of spaces put back, for each
    form it may have been made from (and the envelope's empty line alone)."""
    blanks, spaces = _blanks_dropped(lines), _spaces_collapsed(lines)
    if not blanks and not spaces:
        return []
    what = " and ".join(w for w, on in (("the form's empty lines", blanks),
                                        ("the form's runs of spaces", spaces)) if on)
    out = []
    for form in ["", *_forms_for(lines)]:
        for policy in (("gap", "column") if spaces and form else ("gap",)):
            out.append((_relayout(lines, form, blanks, spaces, policy), what + " restored"))
    return out


def _relayout(lines: list[str], form: str, blanks: bool, spaces: bool,
              policy: str) -> list[str]:
    """``lines`` laid out as ``form`` is: an empty line wherever the form has one before
    the matching line, and (``spaces``) the form's runs of spaces, in lines that match a
    form line but for them, and before the comment of a line whose comment is the form's
    (``policy`` "gap": as many spaces as the form has there, as when a value is edited in
    insert mode; "column": the comment at the form's column)."""
    o = next((k for k, x in enumerate(lines) if x.strip() == "[orders]"), -1)
    head, part = lines[: o + 1], lines[o + 1:]
    if blanks and o > 0 and head[o - 1] != "":
        head = [*head[:o], "", head[o]]
    ref: list[tuple[str, bool]] = []
    gap = False
    for x in form.split("\n"):
        if x.strip():
            ref.append((x.rstrip(" \t"), gap and bool(ref)))
            gap = False
        else:
            gap = True
    before: set[int] = set()
    restored: dict[int, str] = {}
    if ref:
        # The form follows the situation comments of a game, after an empty line.
        ref[0] = (ref[0][0], True)
        matcher = difflib.SequenceMatcher(None, [_squash(t) for t, _ in ref],
                                          [_squash(x) for x in part], autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    if ref[i1 + k][1]:
                        before.add(j1 + k)
                    if spaces:
                        restored[j1 + k] = ref[i1 + k][0]
            elif tag in ("replace", "delete"):
                if ref[i1][1]:
                    before.add(j1)
                if tag == "replace" and i2 - i1 == j2 - j1:
                    before.update(j1 + k for k in range(i2 - i1) if ref[i1 + k][1])
    if spaces and ref:
        by_comment: dict[str, list[tuple[str, str, str]]] = {}
        for text, _ in ref:
            s = _split_comment(text)
            if s is not None and s[0].strip():
                by_comment.setdefault(_squash(s[2]), []).append(s)
        for j, x in enumerate(part):
            s = _split_comment(x)
            if j in restored or s is None or not s[0].strip() or s[1] != " ":
                continue
            options = by_comment.get(_squash(s[2]))
            if not options:
                continue
            key = s[0].split("=")[0].strip()
            code, rgap, comment = next((c for c in options if c[0].split("=")[0].strip() == key),
                                       options[0])
            if policy == "gap":
                restored[j] = s[0] + rgap + comment
            else:
                restored[j] = s[0] + " " * max(1, len(code) + len(rgap) - len(s[0])) + comment
    out = list(head)
    for j, x in enumerate(part):
        if blanks and j in before and j > 0 and out and out[-1] != "":
            out.append("")
        out.append(restored.get(j, x))
    return out

"""Text made safe for each place pbem shows it: one function per output format.

Players choose some of the text that other people read (a join motto, and whatever a game
puts into an event from an order), and every other text of a report comes from game data
that a new game may get wrong. Each format a report or a page is written in gets exactly one
function here, and the templates, the board pictures and the mail code call only these:

==================  ===================================================================
:func:`bbcode`      phpBB, PyPI ``bbcode``, bbob: a ``[`` that could open a tag becomes
                    ``［`` (U+FF3B FULLWIDTH LEFT SQUARE BRACKET), inside ``[code]`` too
:func:`markdown`    CommonMark and old Markdown: a backslash before every character that
                    could start markup; line breaks become spaces
:func:`markdown_code_block`  an indented code block (4 spaces), which old Markdown and
                    CommonMark both show as code, whatever the lines hold
:func:`html`        HTML text and double-quoted attributes (``& < > " '``)
:func:`svg`         SVG (XML) text and double-quoted attributes
:func:`mail_header` one line of a mail header: no line break, no control character
==================  ===================================================================

Every function first applies :func:`shown`: characters that change how *other* text is
displayed (bidi overrides and isolates, zero-width and other invisible format characters,
line and paragraph separators, control characters) are replaced by U+FFFD. The order check
(:func:`pbem.core.orders.parse`) refuses them in what players send, with :func:`refusal`;
:func:`shown` is the second line, for text from the game itself and for old ledgers.

Why a lookalike for BBCode: BBCode has no escape character that every renderer honours.
phpBB (s9e TextFormatter) and PyPI ``bbcode`` have none; bbob has one only with its
``enableEscapeTags`` option; ``[noparse]`` exists in none of the three by default; an HTML
entity such as ``&#91;`` shows as ``&#91;`` in phpBB and PyPI ``bbcode`` and as ``[`` in bbob;
an empty ``[b][/b]`` after the ``[`` inserts an element (and inside ``[code]`` shows as
``[b][/b]``); a zero-width character is what :func:`shown` removes. U+FF3B is plain text to
all three, inside and outside ``[code]``, and a reader sees a bracket.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markupsafe import Markup

# html and markupsafe are imported by the two functions that use them: every command that
# reads an order file imports this module, and the two (html.entities' table, markupsafe)
# were 13 M of the 170 M instructions `pbem verify` ran beyond typer and cryptography (issue
# 20); pages and pictures pay a dictionary lookup per call instead.

#: What :func:`shown` puts in place of a character that may not be shown.
REPLACEMENT = "\ufffd"

#: The characters that reorder the text around them (Unicode bidi controls).
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Characters that :func:`shown` keeps although their category is refused: tab and line feed
#: (the order form and plain text need them; the inline formats turn them into spaces).
_KEPT = frozenset("\t\n")


def refusal(ch: str) -> str | None:
    """Why ``ch`` may not appear in text that others read, or ``None`` when it may (tab is
    allowed: it shows as white space everywhere)."""
    if ch == "\t":
        return None
    category = unicodedata.category(ch)
    if ch in BIDI:
        return "which reorders text for other readers"
    if category == "Cf":
        return "which is invisible and can hide or join text for other readers"
    if category in ("Zl", "Zp"):
        return "which breaks the line for other readers"
    if category == "Cc":
        return "which reports cannot show"
    if category == "Cs":
        return "half of a surrogate pair, which is not a character"
    return None


def describe(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: the code point and its Unicode name."""
    name = unicodedata.name(ch, "")
    if not name and unicodedata.category(ch) == "Cc":
        name = {"\n": "LINE FEED", "\r": "CARRIAGE RETURN", "\x00": "NULL",
                "\x1b": "ESCAPE", "\x7f": "DELETE"}.get(ch, "CONTROL CHARACTER")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def refused_in(text: str, allow: str = "") -> list[tuple[str, str]]:
    """Each distinct refused character of ``text`` (those in ``allow`` aside), in order of
    first appearance, with its :func:`refusal`."""
    found: dict[str, str] = {}
    if text.isascii() and not _ascii_refused().search(text) and "\n" not in text:
        return []  # the common case, at C speed (tab is never refused; LF depends on allow)
    for ch in text:
        if ch not in found and ch not in allow:
            why = refusal(ch)
            if why is not None:
                found[ch] = why
    return list(found.items())


_REFUSED_CACHE: dict[str, bool] = {}


def _is_refused(ch: str) -> bool:
    known = _REFUSED_CACHE.get(ch)
    if known is None:
        known = _REFUSED_CACHE[ch] = ch not in _KEPT and refusal(ch) is not None
    return known


@lru_cache(maxsize=16384)
def shown(text: str) -> str:
    """``text`` with every character that would change how other text is displayed
    (:func:`refusal`; tab and line feed stay) replaced by U+FFFD."""
    if text.isascii():  # the common case: only ASCII controls can be refused
        refused = _ascii_refused()
        return refused.sub(REPLACEMENT, text) if refused.search(text) else text
    return "".join(REPLACEMENT if _is_refused(ch) else ch for ch in text)


# The patterns below are compiled on first use: most commands escape no text (issue 20,
# target 5).


@cache
def _ascii_refused() -> re.Pattern[str]:
    """The ASCII characters :func:`refusal` refuses: controls but tab and line feed."""
    return re.compile("[" + "".join(
        re.escape(chr(i)) for i in range(128) if chr(i) not in "\t\n" and
        not chr(i).isprintable()) + "]")


@cache
def _line_breaks() -> re.Pattern[str]:
    return re.compile(r"\r\n|[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` on one line: every line break (``\\r``, ``\\n``, U+2028 ...) a space."""
    return _line_breaks().sub(" ", text)


# --- BBCode -----------------------------------------------------------------------------

@cache
def _bb_open() -> re.Pattern[str]:
    """A ``[`` that a BBCode parser could take for the start of a tag: phpBB and bbob need a
    letter or ``*`` (a closing ``/`` first); PyPI ``bbcode`` also strips white space inside
    the brackets (``[ b]`` is bold). ``[3, 4]`` or ``["a"]`` open nothing and stay as they
    are."""
    return re.compile(r"\[(?=[\s/]*[A-Za-z*])")


BB_BRACKET = "\uff3b"  # FULLWIDTH LEFT SQUARE BRACKET


def bbcode(text: object) -> str:
    """``text`` shown literally, on one line, by phpBB, bbob and PyPI ``bbcode``, outside and
    inside a ``[code]`` box: a ``[`` that could open or close a tag becomes ``［``."""
    return _bbcode(str(text))


@lru_cache(maxsize=16384)
def _bbcode(text: str) -> str:
    return _bb_open().sub(BB_BRACKET, shown(one_line(text)))


# --- Markdown ---------------------------------------------------------------------------

@cache
def _md_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Characters that start markup anywhere on a line in CommonMark or a common extension:
    emphasis, code, links and images, raw HTML and autolinks, tables and strikethrough (GFM),
    math (``$``, GitHub and Discourse), mentions (``@``, GitHub and Discourse), every one of
    them ASCII punctuation, which CommonMark lets a backslash escape; and what starts a block
    at the start of a line: a heading, a list item, a block quote (``>`` is escaped
    anywhere), a setext underline, a thematic break or an ordered list ``1.``."""
    return re.compile(r"[\\`*_\[\]<>|~$@]|&(?=#?\w+;)"), re.compile(r"(\d+(?=[.)])|[#+=-])")


def markdown(text: object) -> str:
    """``text`` shown literally, on one line, by Markdown renderers (CommonMark, the forums,
    old Markdown.pl): a backslash before every character that could start markup anywhere, and
    before one that starts a block at the start of the text; line breaks become spaces and
    white space around the text goes (Markdown would not show it, and four leading spaces
    start a code block). Parentheses, dots and dashes inside sentences stay as they are."""
    return _markdown(str(text))


@lru_cache(maxsize=16384)
def _markdown(text: str) -> str:
    anywhere, line_start = _md_patterns()
    out = anywhere.sub(lambda m: "\\" + m.group(0), shown(one_line(text)).strip())
    start = line_start.match(out)
    if start:
        if start.group(1)[0].isdigit():  # "1." or "1)" would start a numbered list
            return out[:start.end()] + "\\" + out[start.end():]
        return "\\" + out
    return out


def _longest_backticks(text: str) -> int:
    return max((len(r) for r in re.findall("`+", text)), default=0)


def markdown_code_span(text: object) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds."""
    text = shown(one_line(str(text)))
    ticks = "`" * (_longest_backticks(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def markdown_code_block(text: object) -> str:
    """``text`` as an indented code block: every line after four spaces (empty lines stay
    empty), without a line break at the end. CommonMark and old Markdown both show it as code
    and copy exactly ``text``; a fence (three backticks) is code only to CommonMark, and old
    renderers make the order form's ``# comments`` headings. Nothing in the text can end the
    block: each of its lines is indented. It must follow an empty line after a paragraph or a
    heading (after a list item it would belong to the item)."""
    lines = re.split(r"\r\n|\r|\n", shown(str(text)).rstrip("\n"))
    return "\n".join("    " + line if line else "" for line in lines)


# --- HTML, SVG ----------------------------------------------------------------------------

def html(text: object) -> Markup:
    """``text`` safe in HTML text and in a double- or single-quoted attribute (what Jinja's
    autoescape does, after :func:`shown`). Markup passes unchanged."""
    from markupsafe import Markup
    from markupsafe import escape as _markup_escape

    if isinstance(text, Markup):
        return text
    return _markup_escape(shown(str(text)))


def svg(text: object) -> str:
    """``text`` safe in SVG (XML) text and in a double-quoted attribute: ``& < > " '``
    escaped, and no character XML 1.0 forbids (:func:`shown` replaces the controls)."""
    import html as _html

    return _html.escape(shown(str(text)), quote=True)


# --- mail ---------------------------------------------------------------------------------

def mail_header(text: object, limit: int = 200) -> str:
    """``text`` as the value of one mail header (a Subject): one line, no control or format
    character, runs of white space as one space, at most ``limit`` characters. The mail
    library encodes non-ASCII text as RFC 2047 words; nothing here can start a new header."""
    flat = " ".join(shown(one_line(str(text))).replace(REPLACEMENT, " ").split())
    return flat if len(flat) <= limit else flat[:limit - 3].rstrip() + "..."

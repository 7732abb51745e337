"""HTML mail bodies as the plain text a reader sees, so order blocks in them can be found.

HTML-only mail is common (Outlook and phone clients send it; some webmail sends nothing
else), and its markup splits one text line over ``<div>``, ``<p>`` and ``<br>`` and spells
spaces as ``&nbsp;``. This converter keeps exactly what the armor needs: one output line per
rendered line, entities decoded, white space collapsed the way a browser does, and
``<blockquote>`` turned into ``> `` prefixes, so a block the player only quoted in a reply is
recognised as quoted, as it is in plain-text mail.

Two departures from a browser keep what the sender typed (docs/protocol.md, "What pbem
tolerates from mail clients and forums"): white space is kept as it is inside ``<pre>`` and
inside any element styled ``white-space: pre``, ``pre-wrap`` or ``break-spaces`` (line
breaks only for ``pre-line``), as webmail writes plain text; and a run of plain spaces
between two words in the source stays a run (Outlook writes aligned text as
``<span style='mso-spacerun:yes'>   </span>``, which a browser shows as one space). A run
that holds a line break or a tab is one space, as in a browser.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Elements that start and end a line of their own when rendered.
_BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details",
    "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1",
    "h2", "h3", "h4", "h5", "h6", "header", "hr", "html", "li", "main", "nav", "ol", "p",
    "pre", "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul", "xmp",
    "listing", "plaintext",
})
# Elements whose content is never shown.
_HIDDEN = frozenset({"head", "script", "style", "title", "template", "noscript"})
# Elements whose white space is shown as it is.
_PRE = frozenset({"pre", "xmp", "listing", "plaintext", "textarea"})
_SPACE = re.compile(r"([ \t\n\r\f]+)")
_WHITE_SPACE = re.compile(r"white-space\s*:\s*([a-z-]+)", re.IGNORECASE)
# Elements that have no end tag: never on the stack of open elements.
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "param", "source", "track", "wbr"})
_MAX_STACK = 512


def _mode(tag: str, attrs: list[tuple[str, str | None]]) -> str:
    """How an element treats white space: "pre" (kept), "pre-line" (line breaks kept),
    "normal" (collapsed), or "" (as its parent)."""
    for name, value in attrs:
        if name == "style" and value:
            m = _WHITE_SPACE.search(value)
            if m:
                kind = m.group(1).lower()
                if kind in ("pre", "pre-wrap", "break-spaces"):
                    return "pre"
                if kind == "pre-line":
                    return "pre-line"
                if kind in ("normal", "nowrap"):
                    return "normal"
    return "pre" if tag in _PRE else ""


class _Renderer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._line = ""
        self._line_depth = 0
        self._depth = 0      # <blockquote> nesting
        self._hidden = 0
        self._open: list[tuple[str, str]] = []   # open elements and their white-space mode
        self._pending = ""        # white space seen since the last word on this line
        self._collapse = False    # ... and whether it held more than plain spaces

    # -- output ---------------------------------------------------------------------------

    def _break(self) -> None:
        text = self._line.replace("\xa0", " ").rstrip()
        prefix = "> " * self._line_depth
        self.lines.append((prefix + text).rstrip() if self._line_depth else text)
        self._line = ""
        self._line_depth = self._depth
        self._pending, self._collapse = "", False

    def _end_block(self) -> None:
        if self._line.strip(" "):
            self._break()
        else:
            self._line = ""
            self._line_depth = self._depth
            self._pending, self._collapse = "", False

    def _white_space(self) -> str:
        for _, mode in reversed(self._open):
            if mode:
                return mode
        return "normal"

    def _add(self, text: str) -> None:
        if not self._line:
            self._line_depth = self._depth
        self._line += text

    # -- parser callbacks ----------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID and len(self._open) < _MAX_STACK:
            self._open.append((tag, _mode(tag, attrs)))
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag == "br":
            self._break()
        elif tag in _BLOCK:
            self._end_block()
            if tag == "blockquote":
                self._depth += 1
                self._line_depth = self._depth
        elif tag in ("td", "th") and self._line.strip():
            self._pending, self._collapse = " ", True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self._break()
        elif tag in _BLOCK:
            self._end_block()

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCK:
            self._end_block()
            if tag == "blockquote":
                self._depth = max(0, self._depth - 1)
                self._line_depth = self._depth
        for k in range(len(self._open) - 1, -1, -1):
            if self._open[k][0] == tag:
                del self._open[k:]
                break

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        mode = self._white_space()
        if mode == "normal":
            self._words(data)
            return
        parts = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for i, part in enumerate(parts):
            if i:
                self._break()
            if mode == "pre-line":
                self._words(part)
            elif part:
                self._add(part)

    def _words(self, data: str) -> None:
        """Text whose white space collapses, but for runs of plain spaces between words."""
        for piece in _SPACE.split(data):
            if not piece:
                continue
            if piece[0] in " \t\n\r\f":
                self._pending += piece if piece.strip(" ") == "" else " "
                self._collapse = self._collapse or piece.strip(" ") != ""
                continue
            if self._line and self._pending and not self._line.endswith(" "):
                self._add(" " if self._collapse else self._pending)
            self._pending, self._collapse = "", False
            self._add(piece)

    def close(self) -> None:
        super().close()
        if self._line.strip():
            self._break()


def to_text(html: str) -> str:
    """The text of ``html`` as a mail client shows it, one line per rendered line."""
    renderer = _Renderer()
    renderer.feed(html)
    renderer.close()
    return "\n".join(renderer.lines) + "\n"


def looks_like_html(text: str) -> bool:
    """Whether a text file is an HTML page (a forum thread saved from a browser)."""
    head = text.lstrip("\ufeff \t\r\n")[:200].lower()
    return head.startswith(("<!doctype html", "<html"))

"""HTML mail bodies as the plain text a reader sees, so order blocks in them can be found.

HTML-only mail is common (Outlook and phone clients send it; some webmail sends nothing
else), and its markup splits one text line over ``<div>``, ``<p>`` and ``<br>`` and spells
spaces as ``&nbsp;``. This converter keeps exactly what the armor needs: one output line per
rendered line, entities decoded, white space collapsed the way a browser does (kept inside
``<pre>``), and ``<blockquote>`` turned into ``> `` prefixes, so a block the player only
quoted in a reply is recognised as quoted, as it is in plain-text mail.
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
_SPACE = re.compile(r"[ \t\n\r\f]+")


class _Renderer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._line = ""
        self._line_depth = 0
        self._depth = 0      # <blockquote> nesting
        self._hidden = 0
        self._pre = 0
        self._pending_space = False

    # -- output ---------------------------------------------------------------------------

    def _break(self) -> None:
        text = self._line.replace("\xa0", " ").rstrip()
        prefix = "> " * self._line_depth
        self.lines.append((prefix + text).rstrip() if self._line_depth else text)
        self._line = ""
        self._line_depth = self._depth
        self._pending_space = False

    def _end_block(self) -> None:
        if self._line.strip(" "):
            self._break()
        else:
            self._line = ""
            self._line_depth = self._depth
            self._pending_space = False

    def _add(self, text: str) -> None:
        if not self._line:
            self._line_depth = self._depth
        self._line += text

    # -- parser callbacks ----------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag == "br":
            self._break()
        elif tag in _BLOCK:
            self._end_block()
            if tag == "blockquote":
                self._depth += 1
                self._line_depth = self._depth
            if tag in _PRE:
                self._pre += 1
        elif tag in ("td", "th") and self._line.strip():
            self._pending_space = True

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
            if tag in _PRE:
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        if self._pre:
            parts = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            for i, part in enumerate(parts):
                if i:
                    self._break()
                if part:
                    self._add(part)
            return
        text = _SPACE.sub(" ", data)
        if not text:
            return
        if text.startswith(" "):
            self._pending_space = bool(self._line)
            text = text[1:]
        if not text:
            return
        if self._pending_space and self._line and not self._line.endswith(" "):
            self._add(" ")
        self._pending_space = text.endswith(" ")
        self._add(text.rstrip(" "))

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

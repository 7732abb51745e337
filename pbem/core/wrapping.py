"""Plain text wrapped for mail clients on phones (78 columns): ``textwrap``'s lines, without
its cost for a text that fits on one line, as most lines of reports and forms do (issue 20)."""

from __future__ import annotations

import re
import textwrap

#: The characters textwrap turns into spaces (tab, line feed, ...): a text with one of these
#: goes through textwrap even when it is short.
_WRAP_SPACE = re.compile("[\t\n\x0b\x0c\r]")


def wrap(text: str, width: int, first: str = "", rest: str = "", *,
         break_on_hyphens: bool = True) -> list[str]:
    """``textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
    break_on_hyphens=break_on_hyphens)``. A text that fits after ``first`` as it is (no
    white space at its ends for textwrap to drop, none inside for it to turn into spaces) is
    that one line, as textwrap would give it."""
    if (text and len(first) + len(text) <= width and text == text.strip()
            and not _WRAP_SPACE.search(text)):
        return [first + text]
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=break_on_hyphens)

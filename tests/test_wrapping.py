"""pbem.core.wrapping.wrap gives textwrap.wrap's lines: its one-line shortcut (issue 20)
never changes a report or form line."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import wrapping
from tests.budget import examples

# Short texts, so the shortcut is taken often; white space of every kind textwrap knows and
# some it does not (no-break space, U+2028), at the ends and inside.
TEXT = st.lists(st.sampled_from([*"ab -—", "\t", "\n", "\r", "\x0b", "\x0c", "\xa0", "\u2028",
                                 "word", "x" * 30]), max_size=12).map("".join)


@settings(max_examples=examples(1000), deadline=None)
@given(TEXT, st.integers(5, 90), st.sampled_from(["", "# ", "  "]),
       st.sampled_from(["", "#     ", "  "]), st.booleans())
def test_wrap_is_textwraps(text: str, width: int, first: str, rest: str,
                           hyphens: bool) -> None:
    assert wrapping.wrap(text, width, first, rest, break_on_hyphens=hyphens) == textwrap.wrap(
        text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=hyphens)


def test_a_line_that_fits_is_one_line() -> None:
    assert wrapping.wrap("Zeus rolls 11.", 78, "# ") == ["# Zeus rolls 11."]
    assert wrapping.wrap("ends ", 78) == ["ends"]  # textwrap drops the trailing space
    assert wrapping.wrap("", 78, "# ") == []

"""The ledger's TOML writer gives tomli_w's bytes exactly (tomli_w is the reference)."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest
import tomli
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import ledger, toml_writer
from tests.budget import examples

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Keys: bare ones, ones needing quotes (spaces, dots, quotes, controls, non-ASCII), empty.
# (st.text over an alphabet, not st.from_regex: the same strings, a fifth of the time.)
BARE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
keys = st.one_of(st.text(BARE, min_size=1, max_size=12),
                 st.text(min_size=0, max_size=8))
# Strings with everything a basic string escapes, CRLF, lone CR, tabs and newlines.
texts = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(['a', ' ', '"', '\\', '\n', '\r\n', '\r', '\t', '\x00', '\x1b',
                              '\x7f', '\x08', '\x0c', 'é', '💡', '"""']), max_size=30
             ).map("".join))
scalars = st.one_of(texts, st.integers(-2**63, 2**63 - 1), st.booleans())
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(keys, inner, max_size=5)),
    max_leaves=15)
# Arrays of tables around tomli_w's 100-column inline limit, and nested tables.
small_tables = st.dictionaries(st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6),
                               st.one_of(st.integers(0, 10**9), st.text(max_size=30)),
                               max_size=6)
documents = st.dictionaries(
    keys, st.one_of(values, st.lists(small_tables, min_size=1, max_size=4),
                    st.dictionaries(keys, values, max_size=4)), max_size=8)


@pytest.mark.long
@settings(max_examples=examples(250), deadline=None)  # with tomli_w on every shipped record below
@given(documents, st.booleans())
def test_same_bytes_as_tomli_w(doc: dict[str, Any], multiline: bool) -> None:
    assert toml_writer.dumps(doc, multiline_strings=multiline) == tomli_w.dumps(
        doc, multiline_strings=multiline)


def test_every_shipped_ledger_record_is_rewritten_byte_for_byte() -> None:
    records = sorted(EXAMPLES.glob("*/ledger/*.toml"))
    assert len(records) > 100  # the three audited examples
    for path in records:
        data = path.read_bytes()
        assert ledger.dump(tomli.loads(data.decode())) == data, path


def test_anything_but_plain_data_goes_to_tomli_w() -> None:
    # Floats, other mapping types, and a mapping inside an array of tables: the reference
    # writes them (and raises its own errors for what TOML cannot hold).
    doc = {"f": 1.5, "od": OrderedDict(a=1), "aot": [OrderedDict(x=1), {"y": "z" * 120}]}
    assert toml_writer.dumps(doc) == tomli_w.dumps(doc)
    for bad in ({1: "int key"}, {"x": object()}):
        try:
            tomli_w.dumps(bad)
        except TypeError as exc:
            expected = str(exc)
        try:
            toml_writer.dumps(bad)
        except TypeError as exc:
            assert str(exc) == expected
        else:
            raise AssertionError("a value TOML cannot hold was written")

"""The fast path of canonical JSON gives exactly the rfc8785 reference bytes."""

from __future__ import annotations

from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.canonical import _plain, canonical_json
from tests.budget import examples

scalars = st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8), inner,
    max_size=5), max_leaves=40)


@pytest.mark.long
@settings(max_examples=examples(500))
@given(values)
def test_fast_path_equals_rfc8785(value: Any) -> None:
    assert canonical_json(value) == rfc8785.dumps(value)


def test_controls_and_unicode_escape_like_ecmascript() -> None:
    value = {"\u00e9": "a\u0001b\n\t\"\\\u2028", "b": [1, True, None]}
    assert _plain(value)
    assert canonical_json(value) == rfc8785.dumps(value)


def test_keys_beyond_the_bmp_sort_by_utf16_through_the_reference() -> None:
    value = {"\U0001f600": 1, "\uffff": 2}
    assert not _plain(value)
    assert canonical_json(value) == rfc8785.dumps(value)
    assert canonical_json(value).index(b"\xef\xbf\xbf") > canonical_json(value).index(b"\xf0")


def test_big_integers_go_to_the_reference_which_refuses_them() -> None:
    import pytest

    assert not _plain({"x": 2**60})
    with pytest.raises(rfc8785.IntegerDomainError):
        canonical_json({"x": 2**60})


def test_the_fast_check_judges_each_kind_of_container() -> None:
    # Members judged by their set of types: every way out of the fast path still found.
    plain = [[], {}, ["a", None, True], [1, 2, -(2**53) + 1], {"a": [1, {"b": "c"}]},
             (1, "x"), [[[[2**53 - 1]]]], {"é": 1}]
    not_plain = [[1, 2**53], [2**60, "a"], ["a", [1, [-(2**53)]]], {"a": 1.0}, [0.5],
                 {1: "a"}, {True: 1}, {"\U0001f4a1": 1}, [{"a": {"b": 2.5}}], [b"x"],
                 {"a": {"b": [1, 2, 2**54]}}]
    assert all(_plain(v) for v in plain)
    assert not any(_plain(v) for v in not_plain)


@pytest.mark.long
@settings(max_examples=examples(500))
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_orjson_writes_every_float_with_a_point_or_a_signed_exponent(x: float) -> None:
    # The fast path's float check (canonical._has_float) relies on this form, wherever the
    # float stands: alone, in a list, as an object's value.
    import orjson

    from pbem.core.canonical import _has_float

    for value in (x, [x], [1, x], {"a": x}, {"a": "b", "c": [x]}):
        assert _has_float(orjson.dumps(value))


floats_too = st.recursive(
    scalars | st.floats(allow_nan=False) | st.integers(-(2**70), 2**70)
    | st.sampled_from(["v1.2", "1e+5", "null", "\U0001f600"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=6), inner,
        max_size=4), max_leaves=20)


@pytest.mark.long
@settings(max_examples=examples(500))
@given(floats_too)
def test_fast_path_equals_rfc8785_or_both_refuse(value: Any) -> None:
    # Floats, integers beyond 2**53, None and look-alikes in strings all leave orjson's path.
    try:
        expected: bytes | type[Exception] = rfc8785.dumps(value)
    except rfc8785.CanonicalizationError as exc:
        expected = type(exc)
    if isinstance(expected, bytes):
        assert canonical_json(value) == expected
    else:
        with pytest.raises(expected):
            canonical_json(value)


@pytest.mark.parametrize("value", [
    {"a": 1.0}, [2**53], {"x": None}, {"\U0001f600": 1, "\uffff": 2}, {1: "a"},
    {"a": [0.5, "x"]}, {"t": float("nan")}, {"s": "v1.2"}, {"s": "10e-3"}])
def test_each_way_out_of_the_fast_path_gives_the_reference_bytes(value: Any) -> None:
    try:
        expected = rfc8785.dumps(value)
    except rfc8785.CanonicalizationError as exc:
        with pytest.raises(type(exc)):
            canonical_json(value)
        return
    assert canonical_json(value) == expected


def test_parse_reads_back_what_canonical_json_wrote() -> None:
    from pbem.core.canonical import parse

    value = {"b": [1, "é", {"z": True, "a": None}], "a": -(2**53) + 1}
    assert parse(canonical_json(value)) == value
    assert list(parse(canonical_json(value))) == ["a", "b"]


@pytest.mark.parametrize("value", [
    [{"phase": "t01.logsheet", "seq": 3}], {"id": "r12.e-3"}, ["v1.2", "10e-3"]])
def test_digits_and_a_point_inside_a_string_stay_on_the_fast_path(
        value: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Phase ids like "t01.logsheet" are in every list of sealed orders: they must not look
    # like floats to the fast check (the exact path costs a walk of the whole value).
    from pbem.core import canonical

    def refuse(_: Any) -> bytes:
        raise AssertionError("took the exact path")

    monkeypatch.setattr(canonical, "_exact", refuse)
    assert canonical_json(value) == rfc8785.dumps(value)


@pytest.mark.parametrize("value", [1.0, [1e16], {"a": -0.0}, [1, 2.0], {"a": [3, 4.0]}])
def test_a_float_at_any_value_position_takes_the_exact_path(value: Any) -> None:
    # orjson writes each of these otherwise than RFC 8785 (1.0 against 1, 1e+16 against
    # 10000000000000000): only the exact path gives the reference bytes.
    assert canonical_json(value) == rfc8785.dumps(value)

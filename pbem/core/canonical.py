"""Canonical JSON (RFC 8785) of game state, and the keyed ``state_hash`` of DESIGN.md section 5."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from typing import Any

import orjson

_SAFE_INT = 2**53


def _plain(value: Any) -> bool:
    """True when ``json.dumps`` already produces RFC 8785's bytes for ``value``.

    That holds for dicts with string keys, lists, strings, booleans, None and integers within
    +-2**53: the escaping of strings is the same (ECMAScript's JSON.stringify: quote,
    backslash, \\b \\f \\n \\r \\t and lower-case \\u00xx for other controls) and sorting keys by
    code point equals RFC 8785's UTF-16 order when no key has a character beyond U+FFFF.
    """
    # Exact type() checks, not isinstance: this walk runs over every state of every record,
    # and a subclass (or anything unexpected) simply takes the reference path. Only
    # containers go on the stack; the leaves (mostly strings) are checked where they are
    # met, which makes the walk about a third faster than pushing every value.
    if type(value) not in (dict, list, tuple):
        return _plain_leaf(value)
    stack = [value]
    push = stack.append
    while stack:
        v = stack.pop()
        if type(v) is dict:
            for k in v:
                if type(k) is not str:
                    return False
            keys = "".join(v)
            if not keys.isascii() and any(ord(ch) > 0xFFFF for ch in keys):
                return False
            items = v.values()
        else:
            items = v
        for x in items:
            t = type(x)
            if t is str:
                continue
            if t is dict or t is list or t is tuple:
                push(x)
            elif t is int:
                if not -_SAFE_INT < x < _SAFE_INT:
                    return False
            elif t is not bool and x is not None:
                return False
    return True


def _plain_leaf(value: Any) -> bool:
    t = type(value)
    if t is int:
        return bool(-_SAFE_INT < value < _SAFE_INT)
    return t is str or t is bool or value is None


#: orjson's options for the fast path: keys sorted (by code point, which is RFC 8785's UTF-16
#: order when no key has a character beyond U+FFFF), integers limited to +-(2**53 - 1) (it
#: raises beyond), non-str keys refused (it raises), and subclasses, dataclasses and dates,
#: which it would write its own way, refused too (the exact path judges them).
_FAST = (orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER | orjson.OPT_PASSTHROUGH_SUBCLASS
         | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME)
_DIGITS = frozenset(b"0123456789")


def _has_float(out: bytes) -> bool:
    """True when orjson's output ``out`` may hold a float: digits where a value starts (the
    start, or after ``:``, ``,`` or ``[``, with an optional minus) followed by a decimal point
    or an exponent, which orjson always writes with its sign (``1.0``, ``1e+16``, ``5e-324``;
    tests/test_canonical.py). Inside a string the same characters mostly follow a quote or a
    letter (a phase id ``t01.move``) and do not count; ``"a,1.5"`` does, a false alarm that
    only takes the exact path. Written as a walk back from each ``.``, ``+`` and ``-``
    found (C-speed ``find``; a two-byte ``e+`` is slow to find among many letters ``e``):
    a regular expression over a 35 kB state took 0.4-1.7 ms."""
    # One-byte marks (memchr); an exponent's "e" is checked before its sign.
    for mark in (b".", b"+", b"-"):
        i = out.find(mark)
        while i != -1:
            end = i - 1 if mark == b"." else i - 2
            if end == i - 1 or (end >= 0 and out[i - 1] == 0x65):  # "e"
                j = end
                while j >= 0 and out[j] in _DIGITS:
                    j -= 1
                if j < end:
                    if j >= 0 and out[j] == 0x2D:  # "-"
                        j -= 1
                    if j < 0 or out[j] in b":,[":
                        return True
            i = out.find(mark, i + 1)
    return False


#: The lead byte of a UTF-8 sequence of four bytes: a character beyond U+FFFF (a pattern:
#: the re module compiles it at its first use, not at every command's import).
_BEYOND_BMP = rb"[\xf0-\xf4]"


def canonical_json(value: Any) -> bytes:
    """RFC 8785 bytes of a plain-data value (dicts with str keys, lists, str, int, bool, None).

    Game states are large and hashed at every record (and again by the audit), so the common
    case takes orjson (about ten times the standard library's encoder) and then checks its
    bytes for the only things where it and RFC 8785 can differ: a float (orjson writes
    ``1.0`` where RFC 8785 writes ``1``), ``null`` (orjson also writes NaN and the infinities
    so, which RFC 8785 refuses) and a character beyond U+FFFF (keys sort by UTF-16 there).
    Integers beyond +-(2**53 - 1), non-str keys and other types make orjson raise. Any of
    these, or a mere look-alike in a string (``"v1.2"``), takes the exact path below.
    tests/test_canonical.py checks both paths against the ``rfc8785`` reference.
    """
    try:
        out = orjson.dumps(value, option=_FAST)
    except (TypeError, orjson.JSONEncodeError):
        return _exact(value)
    # rfind: CPython 3.11's search from the end takes half the time of ``in`` on every
    # game's state, measured (5 against 11 us for a 19 kB Mythology state).
    if (out.rfind(b"null") != -1
            or _has_float(out)
            or (not out.isascii() and re.search(_BEYOND_BMP, out))):
        return _exact(value)
    return out


def _exact(value: Any) -> bytes:
    """The standard library's encoder where it gives RFC 8785's bytes (:func:`_plain`), the
    ``rfc8785`` reference implementation otherwise (floats, huge integers, keys beyond
    U+FFFF; it raises for what JSON cannot hold)."""
    if _plain(value):
        return json.dumps(value, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")
    import rfc8785

    return rfc8785.dumps(value)


def parse(data: bytes) -> Any:
    """Canonical JSON written by :func:`canonical_json` (the GM's own files), parsed: the
    same value ``json.loads`` gives, in about half its time."""
    return orjson.loads(data)


def state_hash(t_k: bytes, state: Any) -> str:
    """``HMAC-SHA256(key=t_k, JCS(state))``: keyed so that a state with hidden parts cannot be
    brute-forced from its hash before the sealed chain is revealed."""
    return keyed_hash(t_k, canonical_json(state))


def keyed_hash(t_k: bytes, state_json: bytes) -> str:
    """``state_hash`` of state already in canonical JSON."""
    return hmac.new(t_k, state_json, hashlib.sha256).hexdigest()


"""Canonical JSON (RFC 8785) of game state, and the keyed ``state_hash`` of DESIGN.md section 5."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

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


def canonical_json(value: Any) -> bytes:
    """RFC 8785 bytes of a plain-data value (dicts with str keys, lists, str, int, bool, None).

    Game states are large and hashed at every record, so the common case takes the C encoder
    of the standard library; anything outside the case where the two agree (floats, huge
    integers, keys beyond U+FFFF) goes to the ``rfc8785`` reference implementation.
    tests/test_canonical.py checks the two agree.
    """
    if _plain(value):
        return json.dumps(value, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")
    import rfc8785

    return rfc8785.dumps(value)


def state_hash(t_k: bytes, state: Any) -> str:
    """``HMAC-SHA256(key=t_k, JCS(state))``: keyed so that a state with hidden parts cannot be
    brute-forced from its hash before the sealed chain is revealed."""
    return keyed_hash(t_k, canonical_json(state))


def keyed_hash(t_k: bytes, state_json: bytes) -> str:
    """``state_hash`` of state already in canonical JSON."""
    return hmac.new(t_k, state_json, hashlib.sha256).hexdigest()

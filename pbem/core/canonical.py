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
    # and a subclass (or anything unexpected) simply takes the reference path.
    stack = [value]
    while stack:
        v = stack.pop()
        t = type(v)
        if t is str or t is bool or v is None:
            continue
        if t is dict:
            for k in v:
                if type(k) is not str or (not k.isascii()
                                          and any(ord(ch) > 0xFFFF for ch in k)):
                    return False
            stack.extend(v.values())
        elif t is list or t is tuple:
            stack.extend(v)
        elif t is int:
            if not -_SAFE_INT < v < _SAFE_INT:
                return False
        else:
            return False
    return True


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

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
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            for k, item in v.items():
                if not isinstance(k, str) or (not k.isascii()
                                              and any(ord(ch) > 0xFFFF for ch in k)):
                    return False
                stack.append(item)
        elif isinstance(v, list | tuple):
            stack.extend(v)
        elif isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        elif isinstance(v, int):
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
    return hmac.new(t_k, canonical_json(state), hashlib.sha256).hexdigest()

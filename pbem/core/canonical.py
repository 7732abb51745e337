"""Canonical JSON (RFC 8785) of game state, and the keyed ``state_hash`` of DESIGN.md section 5."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any


def canonical_json(value: Any) -> bytes:
    """RFC 8785 bytes of a plain-data value (dicts with str keys, lists, str, int, bool, None)."""
    import rfc8785  # only commands that write or audit records need it

    return rfc8785.dumps(value)


def state_hash(t_k: bytes, state: Any) -> str:
    """``HMAC-SHA256(key=t_k, JCS(state))``: keyed so that a state with hidden parts cannot be
    brute-forced from its hash before the sealed chain is revealed."""
    return hmac.new(t_k, canonical_json(state), hashlib.sha256).hexdigest()

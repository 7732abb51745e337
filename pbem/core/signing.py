"""Signing order files (``pbem sign``): fresh salt and entropy, normalise, SSHSIG.

By default the signer replaces the form's ``salt`` and ``entropy`` with values from its own
random source, so that the entropy mixed into the dice comes from the player and not from the
GM who printed the form (see the threat model in docs/protocol.md).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.core import armor, sshsig
from pbem.core.errors import ArmorError, Problem

_TABLE = re.compile(r"\s*\[([^\[\]]+)\]\s*(#.*)?")
_FRESH_KEY = re.compile(r'(\s*)(salt|entropy)(\s*=\s*)"[^"]*"(.*)')


def refresh_envelope(body: str, fresh: Callable[[str], str]) -> str:
    """``body`` with the ``salt`` and ``entropy`` lines of ``[envelope]`` given new values."""
    out, table = [], ""
    for line in body.split("\n"):
        m = _TABLE.fullmatch(line)
        if m:
            table = m.group(1).strip()
        elif table == "envelope":
            k = _FRESH_KEY.fullmatch(line)
            if k:
                line = f'{k.group(1)}{k.group(2)}{k.group(3)}"{fresh(k.group(2))}"{k.group(4)}'
        out.append(line)
    return "\n".join(out)


def sign_text(text: str, key: Ed25519PrivateKey, *, source: str = "",
              fresh: Callable[[str], str] | None = lambda _: secrets.token_hex(32)) -> str:
    """Every order block of ``text``, signed; ``fresh=None`` keeps salt and entropy as they are."""
    blocks = armor.extract(text, source)
    if not blocks:
        raise ArmorError(Problem("", "no order block found", "sign the order form that "
                                 "pbem form or your report gave you"), source)
    out = []
    for block in blocks:
        body = block.body if fresh is None else armor.normalise(
            refresh_envelope(block.body, fresh)).decode()
        sig = sshsig.sign(body.encode(), key, sshsig.NAMESPACE_ORDERS)
        out.append(armor.Block(body, sig.armor(), block.line).armored())
    return "".join(out)

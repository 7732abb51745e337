"""Signing order files (``pbem sign``): fresh salt and entropy, normalise, SSHSIG.

By default the signer replaces the form's ``salt`` and ``entropy`` with values from its own
random source, so that the entropy mixed into the dice comes from the player and not from the
GM who printed the form (see the threat model in docs/protocol.md).

Nothing is signed before its TOML and envelope check (:func:`pbem.core.orders.parse`): a
signature over a broken file would only be refused later, by the GM, after the deadline.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.core import armor, sshsig
from pbem.core.errors import ArmorError, PbemError, Problem

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


Prepared = list[tuple[str, int]]


def prepare(text: str, source: str = "",
            fresh: Callable[[str], str] | None = lambda _: secrets.token_hex(32)) -> Prepared:
    """Each order block's body to sign (salt and entropy refreshed unless ``fresh`` is None)
    with its line, after the TOML and envelope check: raises, and nothing is signed, when a
    block is broken. (``pbem sign`` calls it before it asks for a key's passphrase.)"""
    from pbem.core.errors import OrderSyntaxError
    from pbem.core.formcheck import relocate
    from pbem.core.orders import parse

    blocks = armor.extract(text, source)
    if not blocks:
        raise ArmorError(Problem("", "no order block found", "sign the order form that "
                                 "pbem form or your report gave you"), source)
    out = []
    for block in blocks:
        body = block.body if fresh is None else armor.normalise(
            refresh_envelope(block.body, fresh)).decode()
        try:
            parse(armor.Block(body, None, block.line), source)
        except OrderSyntaxError as exc:  # nothing is signed
            raise OrderSyntaxError(relocate(exc.problems, text, block.line), source) from None
        out.append((body, block.line))
    return out


def sign_text(text: str, key: Ed25519PrivateKey, *, source: str = "",
              fresh: Callable[[str], str] | None = lambda _: secrets.token_hex(32)) -> str:
    """Every order block of ``text``, signed; ``fresh=None`` keeps salt and entropy as they are.

    Raises (and signs nothing) when a block is not TOML or its envelope is malformed."""
    return sign_prepared(prepare(text, source, fresh), key)


def sign_prepared(prepared: Prepared, key: Ed25519PrivateKey) -> str:
    out = []
    for body, line in prepared:
        sig = sshsig.sign(body.encode(), key, sshsig.NAMESPACE_ORDERS)
        out.append(armor.Block(body, sig.armor(), line).armored())
    return "".join(out)


def sign_with_agent(prepared: Prepared, public_path: Path, public_key: bytes) -> str:
    """As :func:`sign_prepared`, the signature made by ssh-agent: ``ssh-keygen -Y sign -f
    KEY.pub -n pbem-orders`` over each normalised body, on its standard input. The result is
    checked against ``public_key`` before it is returned."""
    import shutil
    import subprocess

    exe = shutil.which("ssh-keygen")
    if exe is None:
        raise PbemError("signing through ssh-agent needs OpenSSH's ssh-keygen on the PATH; "
                        "or give the private key file to --key")
    out = []
    for body, line in prepared:
        try:
            done = subprocess.run([exe, "-q", "-Y", "sign", "-f", str(public_path), "-n",
                                   sshsig.NAMESPACE_ORDERS], input=body.encode(),
                                  capture_output=True, timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PbemError(f"ssh-keygen -Y sign failed: {exc}") from None
        if done.returncode != 0:
            why = done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"
            raise PbemError(f"ssh-agent did not sign with {public_path} ({why}); is the key "
                            f"loaded? ssh-add -l lists the agent's keys, ssh-add KEY adds it")
        sig = sshsig.parse_armor(done.stdout.decode("ascii", errors="replace"))
        sshsig.verify(body.encode(), sig, sshsig.NAMESPACE_ORDERS, [public_key])
        out.append(armor.Block(body, sig.armor(), line).armored())
    return "".join(out)

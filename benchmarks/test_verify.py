"""Order-file verification against the bare cryptographic cost, measured in the same run.

Target (issue 2): verifying one order file end to end (extract the block, normalise, parse the
TOML and the envelope, parse the SSHSIG, check the key, verify) costs at most 1.5x the bare cost
of ``cryptography``'s Ed25519 verify plus one sha512 over the same bytes.
"""

from __future__ import annotations

import hashlib
import timeit
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from pbem.core import armor, orders, sshsig
from tests.conftest import Table

TARGET_RATIO = 1.5


def _e2e(text: str, table: Table) -> orders.OrderFile:
    (block,) = armor.extract(text)
    order = orders.parse(block)
    orders.check_signature(order, table.campaign.signers)
    return order


def test_verify_order_file_vs_bare_ed25519(benchmark: Any, table: Table) -> None:
    text = table.signed("alice", {"motto": "x" * 60})
    (block,) = armor.extract(text)
    assert block.signature is not None
    sig = sshsig.parse_armor(block.signature)
    body = block.body_bytes
    signed_data = (b"SSHSIG" + _s(b"pbem-orders") + _s(b"") + _s(b"sha512") +
                   _s(hashlib.sha512(body).digest()))
    pub = Ed25519PublicKey.from_public_bytes(sig.public_key)

    def bare() -> None:
        hashlib.sha512(body).digest()
        Ed25519PublicKey.from_public_bytes(sig.public_key).verify(sig.signature, signed_data)

    pub.verify(sig.signature, signed_data)  # the bare path really verifies
    assert _e2e(text, table).player == "alice"
    result = benchmark(_e2e, text, table)
    assert result.player == "alice"
    if not benchmark.disabled:
        n = 2000
        bare_s = min(timeit.repeat(bare, number=n, repeat=5)) / n
        ratio = benchmark.stats.stats.min / bare_s
        benchmark.extra_info.update(bare_us=round(bare_s * 1e6, 1), ratio=round(ratio, 3))
        assert ratio <= TARGET_RATIO, f"end-to-end verify is {ratio:.2f}x the bare cost"


def _s(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data

"""docs/protocol.md section 11, "Version 2 and version 1 vectors": each value recomputed with
hashlib alone, and pbem's own functions checked against it."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

from pbem import games
from pbem.core import armor, receipts
from pbem.core.campaign import open_campaign, signers_text

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "protocol.md").read_text()
V2_HASH = "e7914c8926fa9e34d5ba6610bda70a45cd77b337af97ecd994d8d22eb009b791"
V1_HASH = "7cafa213a5db49b8f95fb06a50fb8e1b892b76aa94dc78aaa835c103611a7aee"
V2_COMMIT = "c6935414cc6da188c907886f3fa02937e04b204ca614e8101e30490041db8b7a"
V1_COMMIT = "832e8ec72ac1dabfa84ba6becba1ef4268e88bf56d6e464b9a0701df80c424a9"


def _section() -> str:
    return DOC[DOC.index("### Version 2 and version 1 vectors"):DOC.index("## 12. ")]


def _blocks() -> list[str]:
    return re.findall(r"```\n(.*?)```", _section(), re.S)


def _commit(body: str) -> str:
    return hashlib.sha256(b"pbem-commit/1\n" + body.encode()).hexdigest()


def test_campaign_hash_vectors() -> None:
    for value in (V2_HASH, V1_HASH):
        assert value in _section()
    assert hashlib.sha256((ROOT / "examples" / "conformance-4p" / "campaign.toml")
                          .read_bytes()).hexdigest() == V2_HASH
    legacy = ROOT / "tests" / "data" / "legacy" / "protocol-v1" / "conformance-4p"
    assert hashlib.sha256((legacy / "campaign.toml").read_bytes()).hexdigest() == V1_HASH
    c = open_campaign(ROOT / "examples" / "conformance-4p", games.get)
    assert c.hash == V2_HASH
    keys = c.base_keys()
    assert signers_text(keys["gm"], [(p, keys[p]) for p in c.players]) == (
        ROOT / "examples" / "conformance-4p" / "allowed_signers").read_bytes()


def test_order_body_vectors_version_2_and_1() -> None:
    body, _ = _blocks()
    assert body.count("\n") == 12 and body.endswith("pledge = 4\n")  # "12 lines"
    assert armor.normalise(body).decode() == body
    assert tomllib.loads(body)["envelope"]["campaign_hash"] == V2_HASH
    assert _commit(body) == V2_COMMIT == armor.commitment(body.encode())
    v1 = body.replace('"pbem-orders/2"', '"pbem-orders/1"').replace(
        f'campaign_hash = """\\\n{V2_HASH}"""\n', "")
    assert v1.count("\n") == 10  # "10 lines"
    assert _commit(v1) == V1_COMMIT == armor.commitment(v1.encode())
    assert V2_COMMIT in _section() and V1_COMMIT in _section()


def test_receipt_vector() -> None:
    _, text = _blocks()
    (r,) = receipts.parse_receipts(text)
    assert (r.player, r.phase, r.commitment, r.head_seq, r.head_hash, r.campaign_hash) == (
        "alice", "r01.pledge", V2_COMMIT, 0, V2_HASH, V2_HASH)
    assert receipts.format_receipt("alice", "r01.pledge", V2_COMMIT, 0, V2_HASH,
                                   V2_HASH) == text

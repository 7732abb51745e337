"""A fuzz test of the whole ``pbem ingest`` path (issue 12 section 2).

Hypothesis builds raw messages: MIME structure (nested multiparts, alternatives, digests,
forwarded messages, attachments), charsets (mail ones, Python-only codecs, unknown ones, RFC
2231 tuples), transfer encodings, hostile headers (raw 8-bit, encoded words, lists of
addresses, control characters), order blocks (signed, damaged, deeply nested TOML) and raw
byte damage. Each message goes through ``ingest.ingest`` into one campaign: no exception may
escape, none may be caught as a failed message, and every reply is to one mailbox and small.

Deterministic (``derandomize``) and bounded (about 30 s on the project's 2-core machine).
"""

from __future__ import annotations

import base64
import email
import email.policy
import email.utils
import quopri
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import games
from pbem.channels import ingest, replies
from pbem.core import armor
from pbem.core.campaign import open_campaign
from tests.budget import examples
from tests.conftest import PLAYERS, Table, make_table, seeded_key

RECEIVED = "2026-03-02T12:00:00Z"


@pytest.fixture(scope="module")
def camp(tmp_path_factory: pytest.TempPathFactory) -> Table:
    base = tmp_path_factory.mktemp("fuzz")
    root = base / "camp"
    table = make_table(root)
    table.play_phases(1)
    shutil.copytree(root, base / "work")
    return Table(base / "work", open_campaign(base / "work", games.get), seeded_key("gm"),
                 {p: seeded_key(p) for p in PLAYERS})


CHARSETS = ["utf-8", "us-ascii", "iso-8859-1", "windows-1252", "koi8-r", "shift_jis",
            "iso-2022-jp", "utf-16", "utf-7", "unicode_escape", "raw_unicode_escape", "hex",
            "rot13", "x-unknown", "", '"utf-8"', "utf-8''", "\x00", "a" * 100]
CTES = ["7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "binary", "bogus", ""]
TYPES = ["text/plain", "text/html", "application/octet-stream", "text/x-toml", "image/png",
         "text", "message/rfc822", "message/delivery-status", "multipart/mixed", ""]
NAMES = ["orders.toml", "ordres-été.toml", "x.eml", "=?utf-8?b?w6k=?=.txt", "a\"b.txt",
         "../../etc/passwd", "con.txt", "\u202eexe.toml", "x" * 300]

text = st.text(st.characters(codec="utf-8"), max_size=60)
hostile_line = st.sampled_from([
    'x = "+2AA-"', 'x = "\\ud800"', "x = " + "[" * 401, "x = " + "{a=" * 300,
    "-----BEGIN SSH SIGNATURE-----", "-----END PBEM ORDERS-----", "-----", "[envelope]",
    "\x00\x01\x1b[31m", "\u2028\u202e", "=?utf-7?q?+2AA-?=",
])


def encode(payload: str, charset: str, cte: str) -> tuple[bytes, str]:
    try:
        data = payload.encode(charset.strip('"') or "utf-8", "replace")
    except (LookupError, ValueError, TypeError, UnicodeError):
        data = payload.encode("utf-8", "surrogateescape")
    if cte == "base64":
        return base64.encodebytes(data), cte
    if cte == "quoted-printable":
        return quopri.encodestring(data), cte
    return data, cte


@st.composite
def payload_text(draw: st.DrawFn, blocks: list[str]) -> str:
    parts = draw(st.lists(st.one_of(
        text,
        st.sampled_from(blocks),
        hostile_line.map(lambda line: f"{armor.BEGIN_ORDERS}\n{line}\n{armor.END_ORDERS}\n"),
        st.sampled_from(blocks).map(lambda b: b[:len(b) // 2]),                 # cut short
        st.sampled_from(blocks).map(lambda b: "\n".join("> " + x for x in b.split("\n"))),
        st.integers(1, 200).map(lambda n: (armor.BEGIN_ORDERS + "\n") * n),
        hostile_line,
    ), max_size=5))
    return "\n".join(parts)


def header_value(draw: st.DrawFn) -> str:
    return draw(st.one_of(
        text,
        st.sampled_from([
            "Jörg <jörg@example.de>", "=?utf-8?b?" + base64.b64encode(
                ", ".join(f"v{i}@example.com" for i in range(50)).encode()).decode()
            + "?= <bob@example.org>", "a@b.c, d@e.f, g@h.i", "<>", "@", '"x" <@>',
            "=?unicode_escape?q?=5Cud800?= <x@y.z>", "=?utf-7?q?+2AA-?= <x@y.z>",
            "Bob <bob@example.org>\n Bcc: eve@example.org", "mailer-daemon@example.org",
            "=?x-unknown?b?////?=", "=?utf-8?q?" + "=C3" * 50 + "?=",
        ]),
        st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
    ))


@st.composite
def part(draw: st.DrawFn, blocks: list[str], depth: int = 0) -> bytes:
    ctype = draw(st.sampled_from(TYPES))
    if depth < 4 and draw(st.integers(0, 3)) == 0:
        subtype = draw(st.sampled_from(["mixed", "alternative", "digest", "report",
                                        "related"]))
        boundary = draw(st.sampled_from(["b", "b1", "=_x", "b" * 80, ""])) + str(depth)
        children = draw(st.lists(part(blocks, depth + 1), min_size=0, max_size=3))
        body = b"".join(b"--" + boundary.encode() + b"\n" + c + b"\n" for c in children)
        if draw(st.booleans()):
            body += b"--" + boundary.encode() + b"--\n"
        return (f'Content-Type: multipart/{subtype}; boundary="{boundary}"\n\n'.encode()
                + body)
    if ctype == "message/rfc822" and depth < 4:
        inner = draw(part(blocks, depth + 1))
        return (b"Content-Type: message/rfc822\n\nFrom: x@y.z\nSubject: "
                + draw(text).encode("utf-8", "replace") + b"\n" + inner)
    charset = draw(st.sampled_from(CHARSETS))
    cte = draw(st.sampled_from(CTES))
    data, cte = encode(draw(payload_text(blocks)), charset, cte)
    head = f"Content-Type: {ctype}"
    if charset:
        head += (f"; charset*=us-ascii''{charset}" if draw(st.booleans())
                 else f"; charset={charset}")
    if draw(st.booleans()):
        head += "; format=flowed; delsp=yes"
    head += f"\nContent-Transfer-Encoding: {cte}\n"
    if draw(st.booleans()):
        name = draw(st.one_of(st.sampled_from(NAMES), text))
        head += f'Content-Disposition: attachment; filename="{name}"\n'
        if draw(st.booleans()):
            head += f"Content-Disposition: attachment; filename*=utf-7''{name}\n"
    return head.encode("utf-8", "surrogateescape") + b"\n" + data


@st.composite
def message(draw: st.DrawFn, blocks: list[str]) -> bytes:
    head = ""
    for name in ("From", "Reply-To", "Subject", "Message-ID", "References", "Auto-Submitted",
                 "Precedence"):
        if name in ("From", "Message-ID") or draw(st.integers(0, 3)) == 0:
            head += f"{name}: {header_value(draw)}\n"
    head += "MIME-Version: 1.0\n"
    raw = head.encode("utf-8", "surrogateescape") + draw(part(blocks))
    if draw(st.integers(0, 3)) == 0:   # raw damage: bytes flipped, cut, CR LF mixed
        cut = draw(st.integers(0, len(raw)))
        raw = raw[:cut] + draw(st.binary(max_size=8)) + raw[cut:]
    if draw(st.booleans()):
        raw = raw.replace(b"\n", b"\r\n")
    return raw


def test_fuzz_the_whole_ingest_path(camp: Table, tmp_path_factory: pytest.TempPathFactory
                                    ) -> None:
    blocks = [camp.signed(p, {"pledge": n}) for n, p in enumerate(PLAYERS)]
    blocks.append(camp.form("alice", {"pledge": 3}))
    work = tmp_path_factory.mktemp("fuzz-messages")
    counter = iter(range(10**9))

    @settings(max_examples=examples(250), deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(message(blocks))
    def check(raw: bytes) -> None:
        path = work / f"{next(counter)}.eml"
        path.write_bytes(raw)
        before = set(_outbox(camp))
        (result,) = ingest.ingest(camp.campaign, [path], received=RECEIVED)
        assert not result.failed, result.failed
        assert result.already or result.kept is not None
        for new in set(_outbox(camp)) - before:
            reply = email.message_from_bytes(new.read_bytes(), policy=email.policy.default)
            to = reply.get_all("To") or []
            assert len(to) == 1 and len(email.utils.getaddresses([str(to[0])])) == 1
            assert new.stat().st_size < 40_000
            assert len(result.blocks) <= ingest.MAX_BLOCKS
        replies.body(result, "x")   # the text of any result can be written

    check()


def _outbox(camp: Table) -> list[Path]:
    folder = camp.root / "gm" / "outbox" / "new"
    return sorted(folder.iterdir()) if folder.is_dir() else []

"""`pbem ingest` against hostile and unusual mail (issue 12 section 2).

One message must never stop ingest: each of these is kept, answered or set aside with a
clear line, and the valid orders of the messages after it are still accepted. Every case
here crashed ``pbem ingest`` (or lost the message, or cost gigabytes) before the fix.
"""

from __future__ import annotations

import base64
import email
import email.policy
import email.utils
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem.channels import ingest, mime, replies, scan
from pbem.channels import outbox as outbox_mod
from pbem.channels.results import MessageResult
from pbem.cli.app import run as cli
from pbem.core import armor
from tests.conftest import Table, make_table, table_copy
from tests.test_ingest import (
    SMTP,
    gmail,
    inbox_files,
    outbox,
    pending,
    pledge,
    run,
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A conformance campaign after its join phase (a copy for each test: ``camp``)."""
    root = tmp_path_factory.mktemp("hostile") / "camp"
    make_table(root).play_phases(1)
    return root


@pytest.fixture
def camp(base: Path, tmp_path: Path) -> Table:
    return table_copy(base, tmp_path / "camp")


def mail(head: str, body: bytes | str, *, sender: str = "alice@example.org",
         msgid: str = "<h@example.org>", subject: str = "orders") -> bytes:
    """A raw message: the usual headers, then ``head`` (more headers), a blank line, ``body``."""
    top = (f"From: {sender}\nTo: gm@example.net\nSubject: {subject}\n"
           f"Date: Mon, 02 Mar 2026 10:00:00 +0100\nMessage-ID: {msgid}\nMIME-Version: 1.0\n")
    data = body.encode("utf-8") if isinstance(body, str) else body
    return top.encode("utf-8") + head.encode("utf-8") + b"\n" + data


def write(tmp_path: Path, name: str, raw: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(raw)
    return path


def run_traced(camp: Table, path: Path) -> tuple[MessageResult, int]:
    """The result of ingesting the one message at ``path``, and the peak of Python's memory
    (tracemalloc) while it ran."""
    tracemalloc.start()
    try:
        (result,) = run(camp, path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def gm_bytes(camp: Table) -> int:
    return sum(p.stat().st_size for p in (camp.root / "gm").rglob("*") if p.is_file())


# --- the hostile messages --------------------------------------------------------------------


def block_with(line: str) -> str:
    return f"{armor.BEGIN_ORDERS}\n{line}\n{armor.END_ORDERS}\n"


def _utf7(camp: Table) -> bytes:
    return mail("Content-Type: text/plain; charset=utf-7\n", block_with('x = "+2AA-"'),
                msgid="<utf7@example.org>")


def _unicode_escape(camp: Table) -> bytes:
    return mail("Content-Type: text/plain; charset=unicode_escape\n",
                block_with('x = "\\ud800"'), msgid="<uesc@example.org>")


def _raw_unicode_escape(camp: Table) -> bytes:
    return mail("Content-Type: text/plain; charset=raw_unicode_escape\n",
                block_with('x = "\\ud800"'), msgid="<ruesc@example.org>")


def _rfc2231_charset(camp: Table) -> bytes:
    return mail("Content-Type: text/plain; charset*=us-ascii''utf-8\n"
                "Content-Transfer-Encoding: 8bit\n",
                "Grüße aus Köln\n\n" + pledge(camp, "carol", 3), msgid="<2231@example.org>")


def _raw_utf8_filename(camp: Table) -> bytes:
    body = ("--b\nContent-Type: text/plain; charset=utf-8\n\nmes ordres\n"
            "--b\nContent-Type: application/octet-stream\n"
            'Content-Disposition: attachment; filename="ordres-été.toml"\n\n'
            + pledge(camp, "carol", 3) + "--b--\n")
    return mail('Content-Type: multipart/mixed; boundary="b"\n', body,
                msgid="<fname@example.org>")


def _raw_utf8_from(camp: Table) -> bytes:
    return mail("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n",
                pledge(camp, "carol", 3), sender="Jörg <jörg@example.de>",
                msgid="<joerg@example.de>")


def _nested_multipart(camp: Table, depth: int = 981) -> bytes:
    head = 'Content-Type: multipart/mixed; boundary="b0"\n'
    body = "".join(f'--b{i}\nContent-Type: multipart/mixed; boundary="b{i + 1}"\n\n'
                   for i in range(depth - 1))
    body += f"--b{depth - 1}\nContent-Type: text/plain\n\n" + pledge(camp, "carol", 3)
    body += "".join(f"--b{i}--\n" for i in reversed(range(depth)))
    return mail(head, body, msgid="<nested@example.org>")


def _nested_rfc822(camp: Table, depth: int = 985) -> bytes:
    body = "Content-Type: message/rfc822\n\n" * (depth - 1)
    body += "Content-Type: text/plain\n\n" + pledge(camp, "carol", 3)
    return mail("Content-Type: message/rfc822\n", body, msgid="<nested822@example.org>")


def _toml_brackets(camp: Table) -> bytes:
    return mail("Content-Type: text/plain\n", block_with("x = " + "[" * 401),
                msgid="<brackets@example.org>")


def _stray_byte(camp: Table) -> bytes:
    body = ("Voil\xe0 mes ordres, d\xe9sol\xe9 du retard.\n\n".encode("latin-1")
            + pledge(camp, "carol", 3).encode())
    return mail("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n",
                body, msgid="<stray@example.org>")


def _broken_blocks(camp: Table, n: int = 12_000) -> bytes:
    return mail("Content-Type: text/plain\n",
                "".join(f"{armor.BEGIN_ORDERS}\nx = {i}\n" for i in range(n)),
                msgid="<broken@example.org>")


def _spam_name(camp: Table) -> bytes:
    spam = ", ".join(f"victim{i}@example.com" for i in range(50)) + " CHEAP PILLS"
    word = email.header.Header(spam, "utf-8").encode()
    return mail("Content-Type: text/plain\n", pledge(camp, "carol", 3),
                sender=f"{word} <carol@example.com>", msgid="<spam@example.com>")


HOSTILE: dict[str, Callable[[Table], bytes]] = {
    "charset-utf-7": _utf7,
    "charset-unicode_escape": _unicode_escape,
    "charset-raw_unicode_escape": _raw_unicode_escape,
    "charset-rfc2231-tuple": _rfc2231_charset,
    "raw-utf8-filename": _raw_utf8_filename,
    "raw-utf8-from": _raw_utf8_from,
    "981-nested-multipart": _nested_multipart,
    "985-nested-rfc822": _nested_rfc822,
    "toml-401-brackets": _toml_brackets,
    "stray-non-utf8-byte": _stray_byte,
    "12000-broken-blocks": _broken_blocks,
    "encoded-display-name-with-50-addresses": _spam_name,
}


def valid(camp: Table) -> bytes:
    return gmail("Bob <bob@example.org>", "orders", "Here:\n\n" + pledge(camp, "bob", 5),
                 "<valid@example.org>").as_bytes(policy=SMTP)


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_first_message_never_stops_ingest(camp: Table, tmp_path: Path,
                                                    name: str) -> None:
    """A Maildir whose first message is hostile: it is kept and answered or set aside with a
    line, and the valid orders of the message after it are accepted."""
    box = tmp_path / "Maildir"
    for sub in ("tmp", "new", "cur"):
        (box / sub).mkdir(parents=True)
    raw = HOSTILE[name](camp)
    (box / "new" / "1-hostile").write_bytes(raw)
    (box / "new" / "2-valid").write_bytes(valid(camp))
    first, second = run(camp, box)
    assert not first.failed, first.failed   # handled at its root, not only caught
    assert first.kept is not None and first.kept.read_bytes() == raw
    assert [(b.status, b.player) for b in second.blocks] == [("accepted", "bob")]
    assert pending(camp)["bob"].orders == {"pledge": 5}
    assert [r.already for r in run(camp, box)] == [True, True]


# --- each point on its own ---------------------------------------------------------------------


@pytest.mark.parametrize("maker", [_utf7, _unicode_escape, _raw_unicode_escape])
def test_python_codecs_are_not_mail_charsets(camp: Table, tmp_path: Path,
                                             maker: Callable[[Table], bytes]) -> None:
    (result,) = run(camp, write(tmp_path, "m.eml", maker(camp)))
    assert not result.failed
    assert [b.status for b in result.blocks] == ["rejected"]
    assert any("not a mail charset" in p for p in result.problems), result.problems


def test_only_mail_charsets_decode() -> None:
    assert mime.decode(b"x = \"+2AA-\"", "utf-7")[0] == 'x = "+2AA-"'
    assert mime.decode(b"\\ud800", "unicode_escape")[0] == "\\ud800"
    assert mime.decode(b"\\ud800", "raw-unicode-escape")[0] == "\\ud800"
    assert mime.decode("été".encode("latin-1"), "ISO-8859-1") == ("été", [])
    assert mime.decode("été".encode("cp1252"), "windows-1252") == ("été", [])
    assert mime.decode("ё".encode("koi8-r"), "koi8-r") == ("ё", [])
    assert mime.decode("日本".encode("shift_jis"), "Shift_JIS") == ("日本", [])
    assert mime.decode("日本".encode("iso-2022-jp"), "iso-2022-jp") == ("日本", [])
    assert mime.decode("中文".encode("gb2312"), "gb2312") == ("中文", [])
    assert mime.decode("中文".encode("big5"), "big5") == ("中文", [])
    assert mime.decode("é".encode(), "us-ascii") == ("é", [])   # 8-bit UTF-8 labelled ASCII
    text, problems = mime.decode(b"ok \xff ok", "x-unknown-thing")
    assert text == "ok \ufffd ok" and len(problems) == 2


def test_rfc2231_charset_parameter(camp: Table, tmp_path: Path) -> None:
    (result,) = run(camp, write(tmp_path, "m.eml", _rfc2231_charset(camp)))
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "carol")]


def test_raw_utf8_attachment_name(camp: Table, tmp_path: Path) -> None:
    (result,) = run(camp, write(tmp_path, "m.eml", _raw_utf8_filename(camp)))
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "carol")]
    assert "attachment ordres-été.toml" in result.blocks[0].where


def test_an_attachment_name_never_chooses_a_path(camp: Table, tmp_path: Path) -> None:
    """Issue 12 section 5: names in a message (attachment names, Message-ID, subject) are
    labels only; every file ingest writes is under the campaign's gm/, named by pbem."""
    before = {p for p in tmp_path.rglob("*")}
    names = ["../../escaped.toml", "/tmp/escaped-abs.toml", "..\\..\\win.toml"]
    parts = "".join(f'--b\nContent-Type: text/plain\nContent-Disposition: attachment; '
                    f'filename="{n}"\n\n' + pledge(camp, "carol", 3) for n in names)
    raw = mail('Content-Type: multipart/mixed; boundary="b"\n', parts + "--b--\n",
               msgid="<../../../etc/passwd>", subject="../../subject")
    (result,) = run(camp, write(tmp_path, "m.eml", raw))
    assert [b.status for b in result.blocks] == ["accepted"]  # one block, three copies
    assert not Path("/tmp/escaped-abs.toml").exists()
    new = {p for p in tmp_path.rglob("*")} - before
    outside = [p for p in new if camp.root / "gm" not in p.parents and p != tmp_path / "m.eml"]
    assert outside == [], outside
    assert not any("escaped" in p.name or "passwd" in p.name or "subject" in p.name
                   for p in new)


def test_raw_utf8_sender_neither_crashes_the_reply_nor_loses_seen(camp: Table,
                                                                  tmp_path: Path) -> None:
    path = write(tmp_path, "m.eml", _raw_utf8_from(camp))
    (result,) = run(camp, path)
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "carol")]
    assert not result.failed and not result.reply
    assert "jörg@example.de" in result.no_reply and "ASCII" in result.no_reply
    (again,) = run(camp, path)
    assert again.already


def test_a_reply_that_cannot_be_queued_keeps_seen(camp: Table, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: object, **__: object) -> str:
        raise UnicodeEncodeError("ascii", "ö", 0, 1, "test")

    monkeypatch.setattr(outbox_mod, "put", boom)
    path = write(tmp_path, "m.eml", valid(camp))
    (result,) = run(camp, path)
    assert [b.status for b in result.blocks] == ["accepted"]
    assert not result.failed
    assert result.no_reply.startswith("the reply could not be queued (UnicodeEncodeError:")
    (again,) = run(camp, path)
    assert again.already


@pytest.mark.parametrize("maker", [_nested_multipart, _nested_rfc822])
def test_parts_nested_too_deep(camp: Table, tmp_path: Path,
                               maker: Callable[..., bytes]) -> None:
    raw = maker(camp)
    (result,) = run(camp, write(tmp_path, "m.eml", raw))
    assert not result.failed and result.kept is not None
    assert result.kept.read_bytes() == raw
    assert any("nested more than" in p for p in result.problems), result.problems
    assert result.unused_copy is not None and "nested more than" in result.unused
    assert result.message_id  # the headers were still read


@pytest.mark.parametrize("maker", [_nested_multipart, _nested_rfc822])
def test_parts_nested_within_the_limit_are_read(camp: Table, tmp_path: Path,
                                                maker: Callable[..., bytes]) -> None:
    (result,) = run(camp, write(tmp_path, "m.eml", maker(camp, depth=mime.MAX_DEPTH - 1)))
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "carol")]


def test_deeply_nested_toml_is_a_rejection(camp: Table, tmp_path: Path) -> None:
    (result,) = run(camp, write(tmp_path, "m.eml", _toml_brackets(camp)))
    assert [b.status for b in result.blocks] == ["rejected"]
    assert "nested too deep" in str(result.blocks[0].error)


def test_an_integer_of_5000_digits_is_a_rejection_not_a_crash(camp: Table,
                                                               tmp_path: Path) -> None:
    """tomli lets Python's int() limit (4300 digits) through as a ValueError, which once
    stopped pbem submit and ingest with a traceback."""
    raw = mail("Content-Type: text/plain\n", block_with("x = " + "1" * 5000),
               msgid="<digits@example.org>")
    (result,) = run(camp, write(tmp_path, "m.eml", raw))
    assert [b.status for b in result.blocks] == ["rejected"]
    assert "a number of more than 4300 digits" in str(result.blocks[0].error)


def test_alternatives_with_deeply_nested_toml_are_scored(camp: Table, tmp_path: Path) -> None:
    """Choosing between plain and HTML parses every block of both (ingest._choose)."""
    msg = gmail("alice@example.org", "orders", block_with("x = " + "[" * 401),
                "<alt@example.org>")
    (result,) = run(camp, write(tmp_path, "m.eml", msg.as_bytes(policy=SMTP)))
    assert not result.failed and [b.status for b in result.blocks] == ["rejected"]


def test_same_message_id_other_bytes_is_read_and_kept(camp: Table, tmp_path: Path) -> None:
    """Seen is keyed by the bytes: a resend under the same Message-ID is processed."""
    first = gmail("alice@example.org", "orders", pledge(camp, "alice", 3), "<same@x.org>")
    second = gmail("alice@example.org", "orders", pledge(camp, "alice", 6, salt_label="2"),
                   "<same@x.org>")
    again = gmail("alice@example.org", "orders again", pledge(camp, "alice", 6,
                                                               salt_label="2"), "<same@x.org>")
    results = [run(camp, write(tmp_path, f"{i}.eml", m.as_bytes(policy=SMTP)))[0]
               for i, m in enumerate((first, second, again))]
    assert [[b.status for b in r.blocks] for r in results] == [
        ["accepted"], ["replaced"], ["unchanged"]]
    assert pending(camp)["alice"].orders == {"pledge": 6}
    kept = list((camp.root / "gm" / "mail" / "received" / "new").iterdir())
    assert len(kept) == 3
    assert [r.already for r in run(camp, *(tmp_path / f"{i}.eml" for i in range(3)))] == [
        True, True, True]


def test_a_stray_byte_does_not_lose_the_block(camp: Table, tmp_path: Path) -> None:
    (result,) = run(camp, write(tmp_path, "m.eml", _stray_byte(camp)))
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "carol")]
    assert any("not valid utf-8" in p for p in result.problems), result.problems
    assert "not valid utf-8" in " ".join(
        replies.body(result, "test-campaign").split())


def test_broken_blocks_are_bounded(camp: Table, tmp_path: Path) -> None:
    """12,000 broken blocks (409 kB) took 95 s, 2.9 GB, wrote 210 MB under gm/ and queued a
    3.3 MB reply. Now: at most MAX_BLOCKS read, nothing written per broken block, a short
    reply, memory linear in the message."""
    raw = _broken_blocks(camp)
    path = write(tmp_path, "m.eml", raw)
    before = gm_bytes(camp)
    result, peak = run_traced(camp, path)
    assert not result.failed
    assert len(result.blocks) == ingest.MAX_BLOCKS
    assert all(b.status == "rejected" for b in result.blocks)
    assert f"{12_000 - ingest.MAX_BLOCKS} more order blocks not read" in " ".join(
        result.problems)
    assert peak < 40 * len(raw), peak
    assert inbox_files(camp) == []
    # The raw message twice (received and unused), the reply and the bookkeeping.
    assert gm_bytes(camp) - before < 2 * len(raw) + 64_000
    (reply,) = outbox(camp)
    size = len(reply.as_bytes())
    assert size < 24_000, size
    text = reply.get_body().get_content()  # type: ignore[union-attr]
    assert "more order blocks not read" in " ".join(text.split())


def test_scan_is_linear() -> None:
    text = (armor.BEGIN_ORDERS + "\nx = 1\n") * 20_000
    tracemalloc.start()
    try:
        found = scan.scan(text, limit=10)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(found.broken) == 10 and found.more == 19_990
    assert peak < 20 * len(text)
    # Line numbers are still those of the whole text.
    assert found.broken[3].line == 7
    assert "line 7:" in found.broken[3].error.render()


def test_a_50_mb_message_is_kept_but_not_read(camp: Table, tmp_path: Path) -> None:
    attachment = base64.encodebytes(bytes(range(256)) * (37 * 1024 * 1024 // 256)).decode()
    body = ("--b\nContent-Type: text/plain\n\n" + pledge(camp, "carol", 3)
            + "--b\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n"
            'Content-Disposition: attachment; filename="photo.jpg"\n\n' + attachment
            + "--b--\n")
    raw = mail('Content-Type: multipart/mixed; boundary="b"\n', body, msgid="<big@x.org>")
    del attachment, body
    assert len(raw) > 50_000_000
    path = write(tmp_path, "m.eml", raw)
    result, peak = run_traced(camp, path)
    assert not result.failed and result.kept is not None
    assert result.kept.stat().st_size == len(raw)
    assert any("over the" in p and "limit" in p for p in result.problems), result.problems
    assert peak < 3 * len(raw), peak   # the bytes read, the bytes kept: never the 1 GB of before
    assert result.message_id == "<big@x.org>"


def test_reply_goes_to_exactly_one_mailbox(camp: Table, tmp_path: Path) -> None:
    (result,) = run(camp, write(tmp_path, "m.eml", _spam_name(camp)))
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "carol")]
    (reply,) = outbox(camp)
    to = reply.get_all("To")
    assert to is not None and len(to) == 1
    addresses = email.utils.getaddresses([str(to[0])])
    assert [a for _, a in addresses] == ["carol@example.com"]
    assert "victim" not in reply.get_body().get_content()  # type: ignore[union-attr]
    assert b"victim1@" not in reply.as_bytes().split(b"\n\n", 1)[1]


@pytest.mark.parametrize(("header", "expected"), [
    ("Bob <bob@example.org>", ("Bob", "bob@example.org")),
    ("bob@example.org, eve@example.org", ("", "bob@example.org")),
    ('"a@b.c, d@e.f" <bob@example.org>', ("a@b.c, d@e.f", "bob@example.org")),
    ("=?utf-8?q?x=40y.z=2C_w=40v.u?= <bob@example.org>", ("x@y.z, w@v.u", "bob@example.org")),
    ("Bob <bob@example.org>\n", ("Bob", "bob@example.org")),
    ("not an address", ("", "")),
    ('"very.(),:;<>[]".VERY."very@\\\\ \\"very".unusual@example.com', ("", "")),
    ("Bob <bob@ex\r\nBcc: x@y.z>", ("", "")),
])
def test_sender_address(header: str, expected: tuple[str, str]) -> None:
    assert ingest.reply_address(header) == expected


def test_failed_message_is_set_aside_and_the_next_one_read(
        camp: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong with one message (here: a bug), the next one is read; the failed
    message is kept under gm/mail/failed with the error, not marked seen, and the GM sees the
    exception in the result line."""
    real = ingest._submit_pieces

    def bug(campaign: object, pieces: list[mime.Piece], result: MessageResult,
            *a: object, **kw: object) -> list[str]:
        if result.message_id == "<boom@example.org>":
            raise KeyError("bug")
        return real(campaign, pieces, result, *a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest, "_submit_pieces", bug)
    boom = mail("Content-Type: text/plain\n", pledge(camp, "alice", 3),
                msgid="<boom@example.org>")
    paths = [write(tmp_path, "1.eml", boom), write(tmp_path, "2.eml", valid(camp))]
    first, second = run(camp, *paths)
    assert first.failed == "KeyError: 'bug'"
    assert first.failed_copy is not None and first.failed_copy.read_bytes() == boom
    log = (camp.root / "gm" / "mail" / "failed.txt").read_text()
    assert "KeyError: 'bug'" in log and "Traceback" in log
    assert [b.status for b in second.blocks] == ["accepted"]
    from pbem.cli.cmd_ingest import describe
    (line,) = describe(first, camp.root)
    assert "failed (KeyError: 'bug')" in line and "gm/mail/failed/new/" in line
    monkeypatch.setattr(ingest, "_submit_pieces", real)
    first, second = run(camp, *paths)  # tried again, now that the bug is fixed
    assert [b.status for b in first.blocks] == ["accepted"] and second.already


def test_cli_goes_on_and_exits_1_after_a_failed_message(
        camp: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def bug(*_: object, **__: object) -> list[str]:
        raise RuntimeError("boom")

    monkeypatch.setattr(ingest, "_submit_pieces", bug)
    code = cli(["ingest", str(camp.root), str(write(tmp_path, "m.eml", valid(camp)))])
    out, err = capsys.readouterr()
    assert code == 1
    assert "failed (RuntimeError: boom)" in out
    assert "Traceback" not in out + err


def test_an_unreadable_maildir_entry_is_a_line_not_a_crash(
        camp: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    box = tmp_path / "Maildir"
    for sub in ("tmp", "new", "cur"):
        (box / sub).mkdir(parents=True)
    (box / "new" / "1-locked").write_bytes(b"x")
    (box / "new" / "2-valid").write_bytes(valid(camp))
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "1-locked":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    first, second = run(camp, box)
    assert first.failed == "OSError: PermissionError: Permission denied"
    assert [b.status for b in second.blocks] == ["accepted"]

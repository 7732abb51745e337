"""`pbem ingest`: orders in from mail and forum texts, shaped as real clients send them.

Every message here is built the way a client builds it (the ``email`` package with the
structure, encodings and line breaking of Thunderbird, Gmail, Apple Mail, Outlook, mutt) or
is a raw fixture written after one (``tests/data/mail``). Every block is genuinely signed by
the player's key for a conformance campaign whose pledge phase is open. An accepted case is
checked in the pending orders and the receipt, a rejected one in the reply the player gets.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import html
import mailbox
import tomllib
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.channels import htmltext, ingest, mime, scan
from pbem.channels.results import MessageResult
from pbem.cli.app import run as cli
from pbem.core import armor, engine, keys, ledger, report
from pbem.core import orders as orders_mod
from pbem.core.dice import Stream
from pbem.core.forms import orders_toml, render_form
from pbem.core.signing import sign_text
from tests.conftest import Table, make_table, table_copy
from tests.data.mail import make_fixtures
from tests.data.mail.make_fixtures import flow

RECEIVED = "2026-03-02T12:00:00Z"
DATA = Path(__file__).parent / "data" / "mail"
SMTP = email.policy.SMTP  # CR LF line ends, as messages travel


# --- the campaign: conformance, join adjudicated, the sealed pledge phase r01.pledge open ---


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ingest") / "camp"
    table = make_table(root)
    table.play_phases(1)
    return root


@pytest.fixture
def camp(base: Path, tmp_path: Path) -> Table:
    return table_copy(base, tmp_path / "camp")


def run(camp: Table, *paths: Path) -> list[MessageResult]:
    return ingest.ingest(camp.campaign, list(paths), received=RECEIVED)


def pledge(camp: Table, player: str, value: int, **kw: object) -> str:
    return camp.signed(player, {"pledge": value}, **kw)  # type: ignore[arg-type]


def pending(camp: Table) -> dict[str, orders_mod.OrderFile]:
    _, _, phase = engine.open_phase(camp.campaign)
    assert phase is not None
    return engine.pending_orders(camp.campaign, phase)


def outbox(camp: Table) -> list[EmailMessage]:
    folder = camp.root / "gm" / "outbox" / "new"
    if not folder.is_dir():
        return []
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(folder.iterdir())]


def reply_text(camp: Table, to: str) -> str:
    (msg,) = [m for m in outbox(camp) if email.utils.parseaddr(str(m["To"]))[1] == to]
    body = msg.get_body()
    assert body is not None
    text = body.get_content()
    assert all(len(line) <= 78 for line in text.splitlines()), text
    return str(text)


def flat(text: str) -> str:
    """``text`` on one line: a message wrapped at 78 columns is still found whole."""
    return " ".join(text.split())


def inbox_files(camp: Table) -> list[Path]:
    """The inbox files ingest wrote (the join phase's, from the fixture, are left out)."""
    inbox = camp.root / "gm" / "inbox"
    return [p for p in sorted(inbox.glob("*.txt"))
            if tomllib.loads(p.with_suffix(".result.toml").read_text())["source"]
            != "orders.txt"]


def save(tmp_path: Path, name: str, msg: EmailMessage) -> Path:
    path = tmp_path / name
    path.write_bytes(msg.as_bytes(policy=SMTP))
    return path


def commitment(signed: str) -> str:
    (block,) = armor.extract(signed)
    return block.commitment


# --- messages as clients build them --------------------------------------------------------


def headers(msg: EmailMessage, sender: str, subject: str, msgid: str) -> EmailMessage:
    msg["From"] = sender
    msg["To"] = "pbem GM <gm@example.net>"
    msg["Subject"] = subject
    msg["Date"] = "Mon, 02 Mar 2026 10:00:00 +0100"
    msg["Message-ID"] = msgid
    return msg


def thunderbird(sender: str, subject: str, text: str, msgid: str, *, delsp: bool = False,
                cte: str = "8bit", width: int = 72) -> EmailMessage:
    """Plain text, format=flowed (RFC 3676): lines over ``width`` broken with a trailing space
    (Thunderbird at spaces; Apple Mail with DelSp=yes anywhere), space-stuffed."""
    msg = headers(EmailMessage(), sender, subject, msgid)
    params = {"format": "flowed", **({"delsp": "yes"} if delsp else {})}
    msg.set_content(flow(text, width, delsp=delsp) + "\n", charset="utf-8", cte=cte,
                    params=params)
    return msg


def gmail(sender: str, subject: str, text: str, msgid: str, *,
          quoted: str = "") -> EmailMessage:
    """multipart/alternative: the plain part quoted-printable (Gmail does not flow), the HTML
    part with <br> per line and the quoted mail in a gmail_quote <blockquote>."""
    plain = text + (("\nOn Sun, 1 Mar 2026 at 18:00, pbem <gm@example.net> wrote:\n" +
                     "\n".join("> " + line for line in quoted.splitlines())) if quoted else "")
    rich = '<div dir="ltr">' + "<br>".join(html.escape(line) for line in text.splitlines())
    rich += "</div>"
    if quoted:
        rich += ('<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Sun, 1 '
                 'Mar 2026 at 18:00, pbem &lt;<a href="mailto:gm@example.net">gm@example.net'
                 '</a>&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0px '
                 '0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">'
                 + "<br>".join(html.escape(line) for line in quoted.splitlines())
                 + "</blockquote></div>")
    msg = headers(EmailMessage(), sender, subject, msgid)
    msg.set_content(plain + "\n", charset="utf-8", cte="quoted-printable")
    msg.add_alternative(rich + "\n", subtype="html", charset="utf-8", cte="quoted-printable")
    return msg


def outlook(sender: str, subject: str, text: str, msgid: str, *,
            original: str = "") -> EmailMessage:
    """HTML only, as Outlook on the web sends it: one <div> per line, <div><br></div> for an
    empty one, &nbsp; for runs of spaces, and the original mail below an <hr>, not quoted."""
    def divs(lines: str) -> str:
        out = []
        for line in lines.splitlines():
            escaped = html.escape(line).replace("  ", " &nbsp;")
            out.append('<div style="font-family: Aptos, sans-serif; font-size: 12pt; '
                       f'color: rgb(0, 0, 0);">{escaped or "<br>"}</div>')
        return "\n".join(out)

    page = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
            '<style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} '
            "</style></head><body dir=\"ltr\">\n" + divs(text))
    if original:
        page += ('\n<div id="appendonsend"></div><hr style="display:inline-block;width:98%" '
                 'tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, '
                 'sans-serif" style="font-size:11pt" color="#000000"><b>From:</b> pbem &lt;gm'
                 "@example.net&gt;<br><b>Sent:</b> Sunday, March 1, 2026 18:00<br></font>"
                 "<div>&nbsp;</div></div>\n" + divs(original))
    msg = headers(EmailMessage(), sender, subject, msgid)
    msg.set_content(page + "\n</body></html>\n", subtype="html", charset="utf-8",
                    cte="quoted-printable")
    return msg


# --- each client shape: the block is found, submitted once, accepted ----------------------


def _tb_report_below(camp: Table) -> EmailMessage:
    report_text = report.render(camp.campaign, 1, "bob")
    quoted = "\n".join("> " + line for line in report_text.splitlines())
    text = ("Χαίρε,\n\n" + pledge(camp, "bob", 5) + "\nOn 01/03/2026 18:00, pbem wrote:\n"
            + quoted + "\n")
    return thunderbird("Bob <bob@example.org>", "Re: [test-campaign] r01.pledge", text,
                       "<tb1@example.org>")


def _apple_delsp(camp: Table) -> EmailMessage:
    text = "Hi\n\n" + pledge(camp, "bob", 5) + "\nSent from my iPad\n"
    return thunderbird("bob@example.org", "pledge", text, "<apple@example.org>", delsp=True,
                       cte="quoted-printable", width=50)


def _gmail(camp: Table) -> EmailMessage:
    return gmail("Bob <bob@example.org>", "orders", "Here:\n\n" + pledge(camp, "bob", 5),
                 "<CAgmail1@mail.gmail.com>")


def _outlook_divs(camp: Table) -> EmailMessage:
    return outlook("Bob <bob@example.org>", "orders", "Hello,\n\n" + pledge(camp, "bob", 5)
                   + "\n\nBob", "<outlook1@example.org>")


def _attachment_only_octet(camp: Table) -> EmailMessage:
    msg = headers(EmailMessage(), "bob@example.org", "orders", "<att1@example.org>")
    msg.add_attachment(pledge(camp, "bob", 5).encode(), maintype="application",
                       subtype="octet-stream", filename="orders.toml")
    return msg


def _attachment_text_base64(camp: Table) -> EmailMessage:
    msg = headers(EmailMessage(), "bob@example.org", "orders", "<att2@example.org>")
    msg.set_content("My orders are attached.\n")
    msg.add_attachment(pledge(camp, "bob", 5), subtype="plain", filename="orders.txt",
                       cte="base64")
    return msg


def _body_and_attachment(camp: Table) -> EmailMessage:
    # Pasted in the body and attached as well, in a Gmail-style alternative: one block.
    msg = _gmail(camp)
    msg.make_mixed()
    msg.add_attachment(pledge(camp, "bob", 5).encode(), maintype="application",
                       subtype="octet-stream", filename="orders.toml")
    return msg


def _forwarded_rfc822(camp: Table) -> EmailMessage:
    inner = thunderbird("Bob <bob@example.org>", "orders", pledge(camp, "bob", 5),
                        "<inner@example.org>")
    msg = headers(EmailMessage(), "Bob's friend <friend@example.com>", "Fwd: orders",
                  "<fwd1@example.com>")
    msg.set_content("Bob asked me to forward this.\n")
    msg.add_attachment(inner)
    return msg


def _forwarded_inline(camp: Table) -> EmailMessage:
    text = ("Forwarding my orders again.\n\n-------- Forwarded Message --------\n"
            "Subject: \torders\nDate: \tMon, 2 Mar 2026 09:00:00 +0100\n"
            "From: \tBob <bob@example.org>\nTo: \tgm@example.net\n\n\n"
            + pledge(camp, "bob", 5))
    return thunderbird("Bob <bob@example.org>", "Fwd: orders", text, "<fwd2@example.org>")


def _crlf_trailing_spaces(camp: Table) -> EmailMessage:
    # A client that pads lines with blanks and sends 7bit with CR LF: N(body) strips them.
    text = pledge(camp, "bob", 5).replace("\n", "   \n")
    msg = headers(EmailMessage(), "bob@example.org", "orders", "<crlf@example.org>")
    msg.set_content("GM,\n" + text, cte="7bit")
    return msg


CLIENTS = {
    "thunderbird-flowed-report-quoted-below": _tb_report_below,
    "apple-mail-flowed-delsp-yes-qp": _apple_delsp,
    "gmail-plain-and-html-alternatives": _gmail,
    "outlook-html-only-div-per-line": _outlook_divs,
    "attachment-only-octet-stream-toml": _attachment_only_octet,
    "attachment-text-plain-base64": _attachment_text_base64,
    "body-and-attachment": _body_and_attachment,
    "forwarded-message-rfc822": _forwarded_rfc822,
    "forwarded-inline": _forwarded_inline,
    "crlf-7bit-trailing-spaces": _crlf_trailing_spaces,
}


@pytest.mark.parametrize("shape", CLIENTS)
def test_client_shapes_are_accepted_once(camp: Table, tmp_path: Path, shape: str) -> None:
    msg = CLIENTS[shape](camp)
    raw = msg.as_bytes(policy=SMTP)
    assert b"\r\n" in raw and raw.count(b"\n") == raw.count(b"\r\n")
    path = tmp_path / "msg.eml"
    path.write_bytes(raw)
    (result,) = run(camp, path)
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "bob")], result
    # The alternatives and copies of one block were submitted once.
    assert len(inbox_files(camp)) == 1
    expected = commitment(pledge(camp, "bob", 5))
    assert pending(camp)["bob"].commitment == expected
    assert pending(camp)["bob"].orders == {"pledge": 5}
    text = flat(reply_text(camp, email.utils.parseaddr(str(msg["From"]))[1]))
    assert "1. Accepted: orders of bob for phase r01.pledge" in text
    assert expected in text and "2." not in text and "Quoted" not in text
    assert result.unused == "" and not (camp.root / "gm" / "mail" / "unused" / "new").exists()


def test_format_flowed_really_broke_the_lines(camp: Table) -> None:
    """The shapes above are not trivially flat: the salt line and the signature lines were
    soft-broken by the sender, so only a correct un-flow gives a valid signature."""
    tb = _tb_report_below(camp).get_body()
    assert tb is not None
    assert 'salt = \n"' in tb.get_content()
    apple = _apple_delsp(camp).get_body()
    assert apple is not None
    broken = [line for line in apple.get_content().splitlines()
              if line.endswith(" ") and "=" not in line]
    assert broken, "DelSp=yes must have broken a signature line inside a word"


def test_reply_is_threaded_and_from_the_configured_address(camp: Table, tmp_path: Path) -> None:
    settings = camp.campaign.settings()
    settings["mail"] = {"from": "Hellas GM <gm@hellas.example>"}
    camp.campaign.save_settings(settings)
    msg = _tb_report_below(camp)
    msg["References"] = "<report.1.bob@hellas.example>"
    run(camp, save(tmp_path, "m.eml", msg))
    (reply,) = outbox(camp)
    assert reply["From"] == "Hellas GM <gm@hellas.example>"
    assert reply["To"] == "Bob <bob@example.org>"
    assert reply["Subject"] == "Re: [test-campaign] r01.pledge"  # no "Re: Re:"
    assert reply["In-Reply-To"] == "<tb1@example.org>"
    assert reply["References"] == "<report.1.bob@hellas.example> <tb1@example.org>"
    assert reply["Auto-Submitted"] == "auto-replied"
    assert reply["Message-ID"].endswith("@hellas.example>")
    head = engine.head(camp.campaign)
    text = flat(reply_text(camp, "bob@example.org"))
    assert f"Ledger head: record {head.seq}, sha256 {head.prev_hash}" in text


def test_placeholder_sender_when_mail_from_is_unset(camp: Table, tmp_path: Path) -> None:
    run(camp, save(tmp_path, "m.eml", _gmail(camp)))
    (reply,) = outbox(camp)
    assert reply["From"] == "pbem@localhost"
    assert reply["Subject"] == "Re: orders"


def test_block_signed_by_openssh_ssh_keygen(camp: Table, tmp_path: Path,
                                           ssh_keygen: str) -> None:
    from tests.test_cli import ssh_sign

    keys.write_keypair(tmp_path / "carol", camp.player_keys["carol"])
    (block,) = armor.extract(camp.form("carol", {"pledge": 2}))
    sig = ssh_sign(ssh_keygen, tmp_path / "carol", block.body_bytes, "pbem-orders", tmp_path)
    text = ("Hi,\n\n" + armor.BEGIN_ORDERS + "\n" + block.body + armor.END_ORDERS + "\n" + sig)
    (result,) = run(camp, save(tmp_path, "m.eml", gmail("carol@example.com", "orders", text,
                                                        "<ssh@example.com>")))
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "carol")]
    assert pending(camp)["carol"].commitment == block.commitment


# --- quotes -------------------------------------------------------------------------------


def test_new_block_below_the_quoted_report_and_its_form(camp: Table, tmp_path: Path) -> None:
    """A reply quoting the report (order form included) above the new block: the block is
    accepted, and the quoted form of the same phase is not worth a word."""
    report_text = report.render(camp.campaign, 1, "alice")
    assert armor.BEGIN_ORDERS in report_text  # the report carries the unsigned form
    quoted = "\n".join("> " + line for line in report_text.splitlines())
    text = quoted + "\n\nMy orders:\n\n" + pledge(camp, "alice", 9)
    (result,) = run(camp, save(tmp_path, "m.eml", thunderbird(
        "alice@example.org", "Re: report", text, "<q1@example.org>")))
    assert [b.status for b in result.blocks] == ["accepted"]
    assert pending(camp)["alice"].orders == {"pledge": 9}
    assert "Quoted" not in reply_text(camp, "alice@example.org")


def test_a_mail_that_only_quotes_an_old_block_is_reported_quoted(camp: Table,
                                                                tmp_path: Path) -> None:
    old = pledge(camp, "alice", 3)
    text = ("Did you get these?\n\nOn 01/03/2026, Alice wrote:\n" +
            "\n".join("> " + line for line in old.splitlines()))
    msg = gmail("alice@example.org", "Re: orders", text, "<q2@example.org>")
    path = save(tmp_path, "m.eml", msg)
    (result,) = run(camp, path)
    assert [(b.status, b.player, b.phase) for b in result.blocks] == [
        ("quoted", "alice", "r01.pledge")]
    assert "alice" not in pending(camp) and inbox_files(camp) == []
    text = flat(reply_text(camp, "alice@example.org"))
    assert "1. Quoted, not submitted: orders of alice for phase r01.pledge" in text
    assert 'paste the signed block without the ">" marks' in text
    assert result.unused == "only quoted order blocks"
    assert result.unused_copy is not None and result.unused_copy.read_bytes() == path.read_bytes()


def test_quoted_block_in_html_blockquote_is_quoted_too(camp: Table, tmp_path: Path) -> None:
    block = pledge(camp, "alice", 3)
    msg = headers(EmailMessage(), "alice@example.org", "Re: orders", "<q3@example.org>")
    msg.set_content('<div>Did you get these?</div><blockquote type="cite"><div>' +
                    "<br>".join(html.escape(line) for line in block.splitlines()) +
                    "</div></blockquote>", subtype="html")
    (result,) = run(camp, save(tmp_path, "m.eml", msg))
    assert [b.status for b in result.blocks] == ["quoted"]
    assert "alice" not in pending(camp)


# --- several blocks, resubmission ----------------------------------------------------------


def test_two_players_blocks_in_one_message(camp: Table, tmp_path: Path) -> None:
    text = ("Our alliance sends both:\n\n" + pledge(camp, "alice", 2) + "\nand\n\n" +
            pledge(camp, "bob", 8))
    (result,) = run(camp, save(tmp_path, "m.eml", thunderbird(
        "alice@example.org", "orders", text, "<two@example.org>")))
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "alice"),
                                                             ("accepted", "bob")]
    assert {p: o.orders["pledge"] for p, o in pending(camp).items()} == {"alice": 2, "bob": 8}
    text = flat(reply_text(camp, "alice@example.org"))
    assert "1. Accepted: orders of alice" in text and "2. Accepted: orders of bob" in text


def test_two_phases_in_one_message_one_rejected_precisely(camp: Table, tmp_path: Path) -> None:
    stale = pledge(camp, "alice", 1, phase_id="t00.join")  # signed for the past join phase
    text = pledge(camp, "alice", 2) + "\n" + stale
    path = save(tmp_path, "m.eml", gmail("alice@example.org", "orders", text, "<ph@x.org>"))
    (result,) = run(camp, path)
    assert [b.status for b in result.blocks] == ["accepted", "rejected"]
    assert pending(camp)["alice"].orders == {"pledge": 2}
    text = flat(reply_text(camp, "alice@example.org"))
    assert "2. Rejected: orders of alice for phase t00.join" in text
    assert "is for phase 't00.join', but the open phase is 'r01.pledge'" in text
    assert "Nothing was changed for the rejected blocks" in text


def test_rules_and_signature_errors_say_what_where_and_how_to_fix(camp: Table,
                                                                 tmp_path: Path) -> None:
    illegal = pledge(camp, "alice", 11)
    forged = pledge(camp, "bob", 4).replace("pledge = 4", "pledge = 10")
    unsigned = camp.form("carol", {"pledge": 1})
    text = illegal + "\n" + forged + "\n" + unsigned
    (result,) = run(camp, save(tmp_path, "m.eml", thunderbird(
        "alice@example.org", "orders", text, "<err@example.org>")))
    assert [b.status for b in result.blocks] == ["rejected"] * 3
    assert pending(camp) == {}
    reply = flat(reply_text(camp, "alice@example.org"))
    for b in result.blocks:
        assert b.error is not None
        for problem in b.error.problems:
            assert flat(str(problem)) in reply
    assert ("[orders] pledge: must be a whole number from 0 to 10 (fix: write pledge = 0)"
            in reply)
    assert "signature" in flat(str(result.blocks[1].error)).lower()


def test_a_damaged_block_does_not_spoil_the_next_one(camp: Table, tmp_path: Path) -> None:
    damaged = pledge(camp, "alice", 2).replace(armor.END_ORDERS + "\n", "")
    text = "first try:\n" + damaged + "\nsecond try:\n" + pledge(camp, "bob", 3)
    (result,) = run(camp, save(tmp_path, "m.eml", thunderbird(
        "bob@example.org", "orders", text, "<dmg@example.org>")))
    assert [b.status for b in result.blocks] == ["rejected", "accepted"]
    assert set(pending(camp)) == {"bob"}
    reply = flat(reply_text(camp, "bob@example.org"))
    assert "line 2: the order block that starts here has no -----END PBEM ORDERS----- line" \
        in reply


def test_resubmission_replaced_unchanged_and_replay(camp: Table, tmp_path: Path) -> None:
    first, second = pledge(camp, "alice", 3), pledge(camp, "alice", 6, salt_label="2")
    mails = [("<r1@x.org>", first), ("<r2@x.org>", second), ("<r3@x.org>", second),
             ("<r4@x.org>", first)]
    box = mailbox.mbox(tmp_path / "in.mbox")
    for msgid, block in mails:
        box.add(gmail("alice@example.org", "orders", block, msgid).as_bytes(policy=SMTP))
    box.flush()
    results = run(camp, tmp_path / "in.mbox")
    assert [r.blocks[0].status for r in results] == ["accepted", "replaced", "unchanged",
                                                    "rejected"]
    assert pending(camp)["alice"].orders == {"pledge": 6}
    replies = [flat(m.get_body().get_content()) for m in outbox(camp)]  # type: ignore[union-attr]
    assert any("Accepted, replacing the orders you sent before" in r for r in replies)
    assert any("Already accepted (the same orders again; nothing changed)" in r for r in replies)
    assert any("already replaced by a later one from the same player" in r for r in replies)


def test_unsigned_form_below_an_outlook_reply_is_ignored(camp: Table, tmp_path: Path) -> None:
    """Outlook leaves the original mail below the reply without quoting it: the report's
    unsigned form is a copy of what was signed above, not a second, rejected submission."""
    report_text = report.render(camp.campaign, 1, "carol")
    msg = outlook("carol@example.com", "RE: report", "Signed:\n\n" + pledge(camp, "carol", 4),
                  "<ol@example.com>", original=report_text)
    (result,) = run(camp, save(tmp_path, "m.eml", msg))
    assert [b.status for b in result.blocks] == ["accepted", "form copy"]
    assert not result.rejected
    assert "Ignored: an unsigned copy of the form for carol" in flat(
        reply_text(camp, "carol@example.com"))


# --- sources, storage, answering twice -----------------------------------------------------


def test_mbox_and_maildir_read_once_kept_and_listed(camp: Table, tmp_path: Path) -> None:
    box = mailbox.mbox(tmp_path / "in.mbox")
    box.add(gmail("alice@example.org", "a", pledge(camp, "alice", 1), "<m1@x.org>").as_bytes(
        policy=SMTP))
    spam = headers(EmailMessage(), "win@lottery.example", "You won", "<spam@lottery.example>")
    spam.set_content("Click here.\n")
    box.add(spam.as_bytes(policy=SMTP))
    box.add(thunderbird("bob@example.org", "b", pledge(camp, "bob", 5), "<m3@x.org>").as_bytes(
        policy=SMTP))
    box.flush()
    maildir = mailbox.Maildir(tmp_path / "Maildir")
    maildir.add(outlook("carol@example.com", "c", pledge(camp, "carol", 3), "<m4@x.org>")
                .as_bytes(policy=SMTP))
    read = mailbox.MaildirMessage(_attachment_text_base64(camp).as_bytes(policy=SMTP))
    read.set_subdir("cur")
    read.add_flag("S")
    maildir.add(read)  # bob again, already read by the GM's client: unchanged
    before = sorted(p.relative_to(tmp_path) for p in (tmp_path / "Maildir").rglob("*"))

    results = run(camp, tmp_path / "in.mbox", tmp_path / "Maildir")
    assert [r.source.split("/")[-1] for r in results[:3]] == ["in.mbox#1", "in.mbox#2",
                                                              "in.mbox#3"]
    assert [[b.status for b in r.blocks] for r in results] == [
        ["accepted"], [], ["accepted"], ["accepted"], ["unchanged"]]
    assert set(pending(camp)) == {"alice", "bob", "carol"}
    assert results[1].unused == "no order block"
    assert results[1].no_reply == "no order block, and the sender is not a registered player"
    # The source is only read: the Maildir is as it was.
    assert sorted(p.relative_to(tmp_path) for p in (tmp_path / "Maildir").rglob("*")) == before
    mail = camp.root / "gm" / "mail"
    received = {p.read_bytes() for p in (mail / "received" / "new").iterdir()}
    assert len(received) == 5 and box.get_bytes(box.keys()[1]) in received
    assert [p.read_bytes() for p in (mail / "unused" / "new").iterdir()] == [
        box.get_bytes(box.keys()[1])]
    assert len(outbox(camp)) == 4

    again = run(camp, tmp_path / "in.mbox", tmp_path / "Maildir")
    assert all(r.already and not r.blocks for r in again)
    assert len(outbox(camp)) == 4 and len(inbox_files(camp)) == 4
    assert len(list((mail / "received" / "new").iterdir())) == 5


def test_registered_player_without_orders_gets_told_how(camp: Table, tmp_path: Path) -> None:
    settings = camp.campaign.settings()
    settings["players"]["alice"]["email"] = "Alice <Alice@Example.org>"
    camp.campaign.save_settings(settings)
    msg = headers(EmailMessage(), "alice@example.org", "late", "<late@example.org>")
    msg.set_content("I will send my orders tomorrow.\n")
    (result,) = run(camp, save(tmp_path, "m.eml", msg))
    assert result.unused == "no order block"
    assert "No order block was found in it" in flat(reply_text(camp, "alice@example.org"))


def test_automatic_mail_is_never_answered(camp: Table, tmp_path: Path) -> None:
    msg = gmail("bob@example.org", "Automatic reply: orders", pledge(camp, "bob", 1),
                "<auto@example.org>")
    msg["Auto-Submitted"] = "auto-replied"
    (result,) = run(camp, save(tmp_path, "m.eml", msg))
    assert result.blocks[0].status == "accepted"
    assert result.no_reply == "automatic message (Auto-Submitted: auto-replied)"
    assert outbox(camp) == []


def test_rule_objections_go_only_to_the_players_registered_address(camp: Table,
                                                                   tmp_path: Path) -> None:
    """The rules' objections can speak of the player's hidden position: someone who got hold
    of a player's signed file learns only that it was rejected."""
    settings = camp.campaign.settings()
    settings["players"]["alice"]["email"] = "alice@example.org"
    camp.campaign.save_settings(settings)
    (result,) = run(camp, save(tmp_path, "m.eml", gmail(
        "mallory@evil.example", "orders", pledge(camp, "alice", 11), "<mal@evil.example>")))
    assert result.rejected
    to_sender = flat(reply_text(camp, "mallory@evil.example"))
    assert "must be a whole number" not in to_sender
    assert "sent only to the address registered for alice" in to_sender
    to_player = flat(reply_text(camp, "alice@example.org"))
    assert "[orders] pledge: must be a whole number from 0 to 10" in to_player
    assert "A message \"orders\" from mallory@evil.example carried orders" in to_player


# --- raw fixtures, byte for byte as clients wrote them -------------------------------------


@pytest.mark.parametrize(("name", "player", "value"), [
    ("outlook-html-qp.eml", "alice", 4),
    ("thunderbird-flowed.eml", "bob", 5),
    ("applemail-delsp.eml", "carol", 6),
    ("gmail-forward-inline.eml", "alice", 7),
    ("mutt-attachment.eml", "bob", 5),
])
def test_raw_fixtures_are_accepted(camp: Table, name: str, player: str, value: int) -> None:
    raw = (DATA / name).read_bytes()
    assert raw.count(b"\n") == raw.count(b"\r\n"), "fixtures keep their CR LF line ends"
    (result,) = run(camp, DATA / name)
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", player)]
    assert pending(camp)[player].orders == {"pledge": value}


def test_raw_fixture_soft_breaks_are_really_there() -> None:
    outlook_raw = (DATA / "outlook-html-qp.eml").read_bytes()
    assert b"=\r\n" in outlook_raw and b"=3D" in outlook_raw and b"&quot;" in outlook_raw
    assert b"salt = \r\n" in (DATA / "thunderbird-flowed.eml").read_bytes()
    assert b"delsp=yes" in (DATA / "applemail-delsp.eml").read_bytes()


def test_undecodable_message_is_kept_unused(camp: Table) -> None:
    (result,) = run(camp, DATA / "latin1-undecodable.eml")
    assert result.unused == ("no order block; body (text/plain): bytes that are not valid "
                             "utf-8 from byte 21: each read as U+FFFD")
    assert result.unused_copy is not None
    assert result.unused_copy.read_bytes() == (DATA / "latin1-undecodable.eml").read_bytes()


def test_fixtures_are_current() -> None:
    """The fixtures' blocks are signed for the conftest campaign: regenerate them
    (python -m tests.data.mail.make_fixtures) if conftest's keys or salts change."""
    assert make_fixtures.build() == {p.name: p.read_bytes() for p in DATA.glob("*.eml")}


# --- forum texts ---------------------------------------------------------------------------


def test_forum_thread_with_bbcode_read_twice(camp: Table, tmp_path: Path) -> None:
    alice, bob, carol = (pledge(camp, "alice", 1), pledge(camp, "bob", 2),
                         pledge(camp, "carol", 3))
    thread = (
        "Test campaign :: Round 1\n------------------------\n"
        "Post by gm » Mon Mar 02, 2026 9:00 am\nThe pledge phase is open.\n\n"
        "Post by alice » Mon Mar 02, 2026 9:10 am\nMine:\n[code]" + alice.rstrip("\n")
        + "[/code]\n\n"
        "Post by bob » Mon Mar 02, 2026 9:20 am\n[quote=\"alice\"][code]" + alice
        + "[/code][/quote]\nGood luck. Here is mine:\n[code]\n" + bob + "[/code]\n\n"
        "Post by dave » Mon Mar 02, 2026 9:30 am\n[quote=carol]" + carol + "[/quote]\n"
        "Carol mailed me this, is it in?\n")
    path = tmp_path / "thread.txt"
    path.write_text(thread)
    results = run(camp, path)
    assert [(b.status, b.player) for r in results for b in r.blocks] == [
        ("accepted", "alice"), ("accepted", "bob"), ("quoted", "carol")]
    assert set(pending(camp)) == {"alice", "bob"} and outbox(camp) == []

    path.write_text(thread + "\nPost by carol » Mon Mar 02, 2026 10:00 am\n[code]" + carol
                    + "[/code]\n")
    results = run(camp, path)
    assert [(b.status, b.player) for r in results for b in r.blocks] == [
        ("already ingested", "alice"), ("already ingested", "bob"), ("accepted", "carol")]
    assert len(inbox_files(camp)) == 3


def test_forum_page_saved_as_html(camp: Table, tmp_path: Path) -> None:
    block = pledge(camp, "bob", 7)
    page = ("<!DOCTYPE html><html><head><title>Round 1</title></head><body>"
            '<div class="post"><div class="author">bob</div><div class="content">Orders:'
            "<br><code>" + "<br>".join(html.escape(line) for line in block.splitlines())
            + "</code></div></div></body></html>")
    (tmp_path / "thread.html").write_text(page)
    (result,) = run(camp, tmp_path / "thread.html")
    assert [(b.status, b.player) for b in result.blocks] == [("accepted", "bob")]


def test_text_without_blocks_is_kept_unused(camp: Table, tmp_path: Path) -> None:
    (tmp_path / "chat.txt").write_text("Nobody posted orders yet.\n")
    (result,) = run(camp, tmp_path / "chat.txt")
    assert result.unused == "no order block" and result.unused_copy is not None


# --- the command line ----------------------------------------------------------------------


def test_cli_one_line_per_message_and_exit_status(camp: Table, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    box = mailbox.mbox(tmp_path / "in.mbox")
    box.add(gmail("alice@example.org", "a", pledge(camp, "alice", 1), "<c1@x.org>").as_bytes(
        policy=SMTP))
    box.add(gmail("bob@example.org", "b", pledge(camp, "bob", 12), "<c2@x.org>").as_bytes(
        policy=SMTP))
    box.flush()
    code = cli(["ingest", str(camp.root), str(tmp_path / "in.mbox")])
    out, err = capsys.readouterr()
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 2
    assert "#1 <c1@x.org>: accepted alice r01.pledge commitment" in lines[0]
    assert "reply to alice@example.org queued" in lines[0]
    assert "#2 <c2@x.org>: rejected bob r01.pledge" in lines[1]
    assert "rejected: " in err and "[orders] pledge: must be a whole number" in err

    assert cli(["ingest", str(camp.root), str(tmp_path / "in.mbox")]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines()[0].endswith("<c1@x.org>: already ingested")
    assert cli(["ingest", str(camp.root), str(tmp_path / "missing")]) == 2


# --- the round trip: report form -> bot -> signature -> mail client -> ingest -> ledger ----


def test_round_trip_report_form_to_ledger(camp: Table, tmp_path: Path) -> None:
    c = camp.campaign
    seq, state, phase = engine.open_phase(c)
    assert phase is not None and state is not None and phase.id == "r01.pledge"
    clients = {"alice": "thunderbird", "bob": "gmail", "carol": "outlook"}
    box = mailbox.mbox(tmp_path / "replies.mbox")
    expected: dict[str, dict[str, object]] = {}
    for player in phase.actors:
        report_text = report.render(c, seq, player)
        (form,) = armor.extract(report_text)  # the form the report carries, unsigned
        assert form.signature is None
        envelope = orders_mod.parse(form).envelope
        bot = Stream(hashlib.sha256(f"round-trip/{player}".encode()).digest())
        orders = c.ruleset.bot_orders(c.ruleset.view(state, player), phase, player, bot)
        expected[player] = orders
        filled = render_form(c.id, player, phase, orders_toml(orders), envelope.salt,
                             envelope.entropy, c.envelope_hash)
        signed = sign_text(filled, camp.player_keys[player])  # fresh salt, as pbem sign
        sender = f"{player}@example.org"
        subject = f"Re: [{c.id}] record {seq}: {phase.id}"
        msgid = f"<rt.{player}@example.org>"
        if clients[player] == "thunderbird":
            quoted = "\n".join("> " + line for line in report_text.splitlines())
            msg = thunderbird(sender, subject, "My orders:\n\n" + signed +
                              "\nOn 01/03/2026 18:00, pbem wrote:\n" + quoted, msgid,
                              cte="quoted-printable")
        elif clients[player] == "gmail":
            msg = gmail(sender, subject, "Orders:\n\n" + signed, msgid, quoted=report_text)
        else:
            msg = outlook(sender, subject, signed, msgid, original=report_text)
        box.add(msg.as_bytes(policy=SMTP))
    box.flush()

    results = run(camp, tmp_path / "replies.mbox")
    statuses = [[b.status for b in r.blocks if b.status != "form copy"] for r in results]
    assert statuses == [["accepted"]] * 3
    accepted = pending(camp)
    assert {p: o.orders for p, o in accepted.items()} == expected
    for r in results:
        assert "Rejected" not in reply_text(camp, r.sender)
    written = engine.adjudicate(c, lambda: camp.gm)
    assert written == [seq + 1]
    record = ledger.load((c.ledger_dir / ledger.record_name(seq + 1)).read_bytes())
    assert record["commitments"] == {r.blocks[0].player: r.blocks[0].receipt.commitment
                                     for r in results if r.blocks[0].receipt}


# --- the pieces: HTML, format=flowed, BBCode ------------------------------------------------


def test_html_to_text() -> None:
    page = ("<html><head><style>p {color: red}</style><title>t</title></head><body>"
            "<div>a&nbsp;&nbsp;b</div><div><br></div><p class=MsoNormal>c = &quot;d&quot;"
            "<o:p></o:p></p><div>e<span> f</span></div><pre>  g\n  h</pre>"
            "<blockquote><div>q1</div><blockquote>q2</blockquote></blockquote>"
            "<div>&lt;x&gt;</div></body></html>")
    assert htmltext.to_text(page) == 'a  b\n\nc = "d"\ne f\n  g\n  h\n> q1\n> > q2\n<x>\n'


def test_unflow_rfc3676() -> None:
    assert mime.unflow("a soft \nbreak\nhard\n") == "a soft break\nhard\n"
    assert mime.unflow("abc \ndef\n", delsp=True) == "abcdef\n"
    assert mime.unflow(" From me\n  two\n") == "From me\n two\n"
    assert mime.unflow("> quoted \n> more\n>> deeper\nplain\n") == (
        "> quoted more\n> > deeper\nplain\n")
    assert mime.unflow("> soft \nunquoted\n") == "> soft\nunquoted\n"
    assert mime.unflow("-- \nsig\n") == "-- \nsig\n"


def test_bbcode_tags_but_never_toml_tables() -> None:
    text = "x [code]-----BEGIN PBEM ORDERS-----\n[orders]\n[orders.quote]\n[/code]\n"
    assert scan.forum_text(text) == "x\n-----BEGIN PBEM ORDERS-----\n[orders]\n[orders.quote]\n"
    assert scan.forum_text("[quote=a]hi\nthere[/quote]after\n") == "> hi\n> there\nafter\n"

"""Reports and reminders out by mail, through a real SMTP server on loopback (aiosmtpd) with
STARTTLS (a self-signed certificate made here) and AUTH; what arrives is parsed back."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import ipaddress
import os
import shutil
import ssl
import subprocess
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP as SMTPServer
from aiosmtpd.smtp import AuthResult, Envelope, LoginPassword, Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from pbem import games
from pbem.channels import mail, outbox, smtp
from pbem.core import armor, deadlines, engine, keys, report
from pbem.core.campaign import Campaign, open_campaign
from pbem.core.errors import PbemError, UsageError
from pbem.core.forms import render_form
from pbem.core.signing import sign_text
from tests.conftest import Table, make_table, run_pbem

NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
USER, PASSWORD = "gm", "s3cret pass"
ADDRESSES = {"alice": "Alice <alice@example.org>", "bob": "bob@example.net"}  # carol: none
GAZETTE = "forum-mailin@example.com"


# --- a real SMTP server ----------------------------------------------------------------------


@dataclass
class Inbox:
    """What the server accepted: (envelope sender, recipients, message bytes, logged in as)."""

    got: list[tuple[str, list[str], bytes, str]] = field(default_factory=list)

    async def handle_DATA(self, server: SMTPServer, session: Session, envelope: Envelope
                          ) -> str:
        who = session.auth_data.login.decode() if session.auth_data else ""
        assert isinstance(envelope.content, bytes)
        self.got.append((str(envelope.mail_from), list(envelope.rcpt_tos), envelope.content,
                         who))
        return "250 OK"


def _authenticate(server: SMTPServer, session: Session, envelope: Envelope, mechanism: str,
                  data: Any) -> AuthResult:
    ok = (isinstance(data, LoginPassword) and data.login == USER.encode()
          and data.password == PASSWORD.encode())
    # handled=False: aiosmtpd itself answers 535 to a refused login.
    return AuthResult(success=ok, handled=False, auth_data=data if ok else None)


class LoopbackController(Controller):
    """aiosmtpd's Controller on an ephemeral port: the kernel picks it at bind time."""

    def _trigger_server(self) -> None:
        assert self.server is not None
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


@dataclass
class Server:
    host: str
    port: int
    inbox: Inbox
    cafile: Path

    def client_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cafile))

    def config(self, password: str = PASSWORD) -> smtp.SmtpConfig:
        return smtp.SmtpConfig(self.host, self.port, starttls=True, user=USER,
                               password=password, context=self.client_context(), timeout=20)


def _self_signed(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pbem test SMTP")])
    start = dt.datetime.now(dt.UTC) - dt.timedelta(days=1)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(start).not_valid_after(start + dt.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    cert, key = _self_signed(tmp_path_factory.mktemp("tls"))
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(str(cert), str(key))
    inbox = Inbox()
    controller = LoopbackController(inbox, hostname="127.0.0.1", port=0, tls_context=tls,
                                    require_starttls=True, auth_required=True,
                                    auth_require_tls=True, authenticator=_authenticate)
    controller.start()
    try:
        yield Server("127.0.0.1", controller.port, inbox, cert)
    finally:
        controller.stop()


# --- a campaign whose join is adjudicated: everyone has a form for r01.pledge ------------------


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("mail")
    table = make_table(root / "camp", rounds="1")
    table.play_phases(1)
    c = table.campaign
    mail.update_mail_settings(c, {"from": "Game Master <gm@example.org>",
                                  "reply_to": "orders@example.org", "gazette": GAZETTE})
    for player, address in ADDRESSES.items():
        mail.set_player_address(c, player, address)
    (root / "keys").mkdir()
    for player, key in table.player_keys.items():
        keys.write_keypair(root / "keys" / player, key)
    return table


def copy_of(base: Table, tmp_path: Path) -> Campaign:
    shutil.copytree(base.root, tmp_path / "camp")
    return open_campaign(tmp_path / "camp", games.get)


def parse(data: bytes) -> EmailMessage:
    msg = email.message_from_bytes(data, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def text_part(msg: EmailMessage, subtype: str = "plain") -> str:
    body = msg.get_body(preferencelist=(subtype,))
    assert body is not None and body.get_content_type() == f"text/{subtype}"
    # SMTP carries CR LF; the parser keeps it in a 7bit part's text.
    return str(body.get_content()).replace("\r\n", "\n")


def decoded(msg: EmailMessage) -> str:
    """Every part of ``msg``, decoded (quoted-printable or base64 can hide a plain search)."""
    out = [str(msg)]
    for part in msg.walk():
        if not part.is_multipart():
            data = part.get_payload(decode=True)
            assert isinstance(data, bytes)
            out.append(data.decode())
    return "\n".join(out)


def form_attachment(msg: EmailMessage) -> tuple[str, bytes]:
    (part,) = list(msg.iter_attachments())
    assert part.get_content_type() == "text/plain"
    data = part.get_payload(decode=True)
    assert isinstance(data, bytes)
    return part.get_filename() or "", data


def envelope_values(form: bytes) -> dict[str, str]:
    (block,) = armor.extract(form.decode())
    values = {}
    for line in block.body.splitlines():
        key, _, value = line.partition(" = ")
        if key in ("salt", "entropy"):
            values[key] = value.strip('"')
    return values


@dataclass
class Delivered:
    campaign: Campaign
    queued: list[mail.Queued]
    sent: smtp.SendResult
    arrived: dict[str, tuple[str, list[str], EmailMessage, str]]  # by first recipient


@pytest.fixture(scope="module")
def delivered(base: Table, server: Server, tmp_path_factory: pytest.TempPathFactory
              ) -> Delivered:
    c = copy_of(base, tmp_path_factory.mktemp("delivered"))
    queued = mail.queue_reports(c, None, NOW)
    before = len(server.inbox.got)
    sent = smtp.send_outbox(c, server.config())
    arrived = {rcpts[0]: (sender, rcpts, parse(data), who)
               for sender, rcpts, data, who in server.inbox.got[before:]}
    return Delivered(c, queued, sent, arrived)


# --- what arrives ----------------------------------------------------------------------------


def test_one_message_per_player_with_an_address_and_the_gazette(delivered: Delivered) -> None:
    status = {q.reader: q.status for q in delivered.queued}
    assert status == {"alice": "queued", "bob": "queued", "carol": "no address",
                      "gazette": "queued"}
    assert sorted(delivered.arrived) == sorted(["alice@example.org", "bob@example.net", GAZETTE])
    for sender, rcpts, msg, who in delivered.arrived.values():
        assert sender == "gm@example.org" and len(rcpts) == 1 and who == USER
        assert msg["From"] == "Game Master <gm@example.org>"
        assert msg["Reply-To"] == "orders@example.org"
        assert "carol" not in str(msg["To"])
    assert delivered.sent.failed == [] and delivered.sent.waiting == 0


def test_headers_identify_campaign_phase_and_thread(delivered: Delivered) -> None:
    c = delivered.campaign
    root = mail.thread_root(c, "example.org")
    for address, reader in (("alice@example.org", "alice"), ("bob@example.net", "bob"),
                            (GAZETTE, None)):
        msg = delivered.arrived[address][2]
        assert msg["To"].addresses[0].addr_spec == address
        what = f"report for {reader}" if reader else "gazette"
        assert msg["Subject"] == f"[test-campaign] t00.join — {what}"
        assert msg["Message-ID"] == f"<pbem.{mail._tag(c)}.000001.{reader or 'gazette'}" \
                                    "@example.org>"
        assert msg["In-Reply-To"] == root and msg["References"] == root
        assert msg["Date"].datetime == NOW
    # Derived, not random: another campaign gets other ids, the same one the same.
    assert mail.report_id(c, 1, "alice", "example.org") == \
        delivered.arrived["alice@example.org"][2]["Message-ID"]


def test_text_is_that_players_report_and_no_one_elses(delivered: Delivered) -> None:
    c = delivered.campaign
    state = engine.load_state(c, 1)
    assert state is not None
    from pbem.games.conformance import omens

    dealt = {p: f"You were dealt the {omens()[h[0]]['name']}." for p, h in state["hands"].items()}
    assert len(set(dealt.values())) == 3
    for address, reader in (("alice@example.org", "alice"), ("bob@example.net", "bob")):
        msg = delivered.arrived[address][2]
        _, form = form_attachment(msg)
        values = envelope_values(form)
        text = text_part(msg)
        # Exactly the report pbem report prints, with this message's salt and entropy.
        assert text == report.render(c, 1, reader, "txt", fresh=values.__getitem__)
        assert dealt[reader] in text
        whole = decoded(msg)
        assert dealt[reader] in whole
        for other, line in dealt.items():
            if other != reader:
                assert line not in whole
    gazette = delivered.arrived[GAZETTE][2]
    assert list(gazette.iter_attachments()) == []
    assert "Seating: " in decoded(gazette)
    for line in dealt.values():
        assert line not in decoded(gazette)


def test_html_alternative(delivered: Delivered) -> None:
    assert "html" in report.FORMATS, "the HTML report format is needed for the alternative"
    c = delivered.campaign
    msg = delivered.arrived["alice@example.org"][2]
    (alternative, _) = list(msg.iter_parts())
    assert alternative.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in alternative.iter_parts()] == ["text/plain",
                                                                        "text/html"]
    values = envelope_values(form_attachment(msg)[1])
    assert text_part(msg, "html") == report.render(c, 1, "alice", "html",
                                                   fresh=values.__getitem__)


def test_attachment_is_the_form_of_the_body(delivered: Delivered) -> None:
    c = delivered.campaign
    msg = delivered.arrived["bob@example.net"][2]
    name, form = form_attachment(msg)
    assert name == "test-campaign-r01.pledge-bob.toml"
    values = envelope_values(form)
    assert form.decode() == report.context(c, 1, "bob", values.__getitem__)["form"]
    assert form.decode() in text_part(msg)
    assert 'player = "bob"' in form.decode() and 'phase = "r01.pledge"' in form.decode()
    # Each mail has its own fresh salt.
    other = envelope_values(form_attachment(delivered.arrived["alice@example.org"][2])[1])
    assert other["salt"] != values["salt"]


def test_every_message_is_7bit_and_lines_fit(delivered: Delivered, server: Server) -> None:
    for _, _, data, _ in server.inbox.got:
        assert data.isascii()
        assert max(len(line) for line in data.splitlines()) <= 78 + 2


def test_form_from_the_mail_signed_with_ssh_keygen_is_accepted(
        delivered: Delivered, base: Table, ssh_keygen: str, tmp_path: Path) -> None:
    c = copy_of(base, tmp_path)
    _, form = form_attachment(delivered.arrived["alice@example.org"][2])
    (block,) = armor.extract(form.decode())
    body = tmp_path / "body"
    body.write_bytes(block.body_bytes)
    key = base.root.parent / "keys" / "alice"
    subprocess.run([ssh_keygen, "-q", "-Y", "sign", "-f", str(key), "-n", "pbem-orders",
                    str(body)], check=True, capture_output=True)
    signed = armor.Block(block.body, (tmp_path / "body.sig").read_text(), 1).armored()
    result = engine.submit(c, signed.encode(), "reply.eml", received="2026-05-01T13:00:00Z")
    assert [e.render() for e in result.errors] == []
    assert [(r.player, r.phase, r.status) for r in result.receipts] == [
        ("alice", "r01.pledge", "accepted")]
    assert result.receipts[0].commitment == block.commitment


def test_a_rerun_queues_and_sends_nothing_twice(delivered: Delivered, server: Server) -> None:
    c = delivered.campaign
    new_dir = outbox.path(c) / "new"
    assert sorted(os.listdir(new_dir)) == []
    cur = sorted(os.listdir(outbox.path(c) / "cur"))
    assert len(cur) == 3 and all(name.endswith(":2,S") for name in cur)
    again = mail.queue_reports(c, 1, NOW + dt.timedelta(hours=1))
    assert {q.reader: q.status for q in again} == {"alice": "already", "bob": "already",
                                                   "carol": "no address", "gazette": "already"}
    before = len(server.inbox.got)
    result = smtp.send_outbox(c, server.config())
    assert result.sent == [] and len(server.inbox.got) == before


def test_wrong_password_sends_nothing_and_keeps_the_outbox(base: Table, server: Server,
                                                           tmp_path: Path) -> None:
    c = copy_of(base, tmp_path)
    mail.queue_reports(c, None, NOW)
    before = len(server.inbox.got)
    with pytest.raises(PbemError, match=r"login as 'gm' refused .*--password-file"):
        smtp.send_outbox(c, server.config(password="wrong"))
    assert len(server.inbox.got) == before and len(outbox.unsent(c)) == 3


def test_untrusted_certificate_is_refused_with_a_hint(base: Table, server: Server,
                                                      tmp_path: Path) -> None:
    c = copy_of(base, tmp_path)
    mail.queue_reports(c, None, NOW)
    config = smtp.SmtpConfig(server.host, server.port, starttls=True, user=USER,
                             password=PASSWORD, context=None, timeout=20)
    with pytest.raises(PbemError, match=r"TLS failed.*--cafile"):
        smtp.send_outbox(c, config)
    assert len(outbox.unsent(c)) == 3


def test_password_never_goes_out_in_clear_text() -> None:
    with pytest.raises(UsageError, match="--starttls"):
        smtp.check_config(smtp.SmtpConfig("smtp.example.org", 587, user="gm", password="x"))
    assert smtp.parse_server("[::1]:2525") == ("::1", 2525)
    with pytest.raises(UsageError, match="HOST:PORT"):
        smtp.parse_server("smtp.example.org")


def test_settings_check_addresses(base: Table, tmp_path: Path) -> None:
    c = copy_of(base, tmp_path)
    with pytest.raises(UsageError, match="not one mail address"):
        mail.set_player_address(c, "carol", "carol at home")
    with pytest.raises(UsageError, match="not a player"):
        mail.set_player_address(c, "mallory", "m@example.org")
    assert mail.set_player_address(c, "carol", "Carol <carol@example.org>") == \
        "Carol <carol@example.org>"
    assert mail.player_address(open_campaign(c.root, games.get), "carol") == \
        "Carol <carol@example.org>"
    settings = c.settings()
    del settings["mail"]
    c.save_settings(settings)
    with pytest.raises(PbemError, match="pbem mail-settings DIR --from"):
        mail.queue_reports(c, None, NOW)


def test_outbox_stores_8bit_messages_as_7bit(base: Table, tmp_path: Path) -> None:
    c = copy_of(base, tmp_path)
    msg = EmailMessage(policy=email.policy.default)  # 8-bit text allowed by this policy
    msg["From"], msg["To"], msg["Subject"] = "gm@example.org", "a@example.org", "Ἀθῆναι"
    msg.set_content("Ζεὺς νεφεληγερέτα\n")
    outbox.put(c, msg)
    ((_, data),) = outbox.unsent(c)
    assert data.isascii()
    back = parse(data)
    assert back["Subject"] == "Ἀθῆναι" and text_part(back) == "Ζεὺς νεφεληγερέτα\n"


# --- reminders -------------------------------------------------------------------------------


def test_reminders_go_to_the_missing_players_once_a_day(base: Table, server: Server,
                                                        tmp_path: Path) -> None:
    c = copy_of(base, tmp_path)
    mail.set_player_address(c, "carol", "carol@example.org")
    deadlines.update_deadlines(c, {"r01.pledge": "2026-05-02T18:00:00Z", "grace": "12h"})
    _, _, phase = engine.open_phase(c)
    assert phase is not None and phase.id == "r01.pledge"
    alice = render_form(c.id, "alice", phase, "pledge = 2\n", "1" * 64, "2" * 64,
                        c.envelope_hash)
    signed = sign_text(alice, base.player_keys["alice"], fresh=None)
    assert not engine.submit(c, signed.encode(), "a", received="2026-05-01T10:00:00Z").errors

    queued = mail.queue_reminders(c, NOW)
    assert sorted((q.reader, q.status) for q in queued) == [("bob", "queued"),
                                                            ("carol", "queued")]
    assert {q.status for q in mail.queue_reminders(c, NOW + dt.timedelta(hours=3))} == \
        {"already"}
    before = len(server.inbox.got)
    smtp.send_outbox(c, server.config())
    got = {rcpts[0]: parse(data) for _, rcpts, data, _ in server.inbox.got[before:]}
    assert sorted(got) == ["bob@example.net", "carol@example.org"]
    msg = got["bob@example.net"]
    assert msg["Subject"] == ("[test-campaign] r01.pledge — reminder for bob — orders due "
                              "2026-05-02T18:00:00Z")
    assert msg["In-Reply-To"] == mail.report_id(c, 1, "bob", "example.org")
    assert mail.thread_root(c, "example.org") in msg["References"]
    text = text_part(msg)
    words = " ".join(text.split())
    assert ("Deadline: 2026-05-02T18:00:00Z, with a grace period until 2026-05-03T06:00:00Z."
            in words)
    assert "your phase's documented default orders will be used (NMR policy 'default')" in words
    assert "pbem sign FORM --key YOUR_KEY" in words
    assert all(len(line) <= 78 for line in text.splitlines())
    name, form = form_attachment(msg)
    assert name == "test-campaign-r01.pledge-bob.toml" and form.decode() in text
    # The reminder's form, signed by bob, is accepted.
    result = engine.submit(c, sign_text(form.decode(), base.player_keys["bob"]).encode(), "b",
                           received="2026-05-01T13:00:00Z")
    assert [r.status for r in result.receipts] == ["accepted"] and not result.errors
    # The next day only carol is still missing.
    later = mail.queue_reminders(c, NOW + dt.timedelta(days=1))
    assert [(q.reader, q.status) for q in later] == [("carol", "queued")]


# --- the command line ------------------------------------------------------------------------




@pytest.mark.slow
def test_cli_mail_queues_sends_and_reruns_nothing(base: Table, server: Server,
                                                  tmp_path: Path) -> None:
    c = copy_of(base, tmp_path)
    (tmp_path / "pw").write_text(PASSWORD + "\n")
    send = ["--smtp", f"127.0.0.1:{server.port}", "--starttls", "--cafile", str(server.cafile),
            "--user", USER, "--password-file", "pw"]
    before = len(server.inbox.got)
    out = run_pbem("mail", "camp", *send, cwd=tmp_path).stdout
    assert "queued report for alice to Alice <alice@example.org>" in out
    assert "attached test-campaign-r01.pledge-alice.toml" in out
    assert "skipped carol: no address (set one: pbem player-email DIR carol ADDRESS)" in out
    assert "sent 3; 0 waiting in the outbox" in out
    assert len(server.inbox.got) == before + 3
    again = run_pbem("mail", "camp", *send, cwd=tmp_path).stdout
    assert "already in the outbox: report for bob" in again and "sent 0;" in again
    assert len(server.inbox.got) == before + 3
    bad = run_pbem("mail", "camp", "--send-only", cwd=tmp_path, ok=False)
    assert bad.returncode == 2 and "--send-only needs --smtp" in bad.stderr
    assert open_campaign(c.root, games.get).settings()["mail"]["gazette"] == GAZETTE


@pytest.mark.slow
def test_cli_settings_commands(base: Table, tmp_path: Path) -> None:
    copy_of(base, tmp_path)
    out = run_pbem("mail-settings", "camp", "--subject-prefix", "[Hellas]", cwd=tmp_path).stdout
    assert "subject_prefix  [Hellas]" in out and "from            Game Master" in out
    out = run_pbem("player-email", "camp", "carol", "carol@example.org", cwd=tmp_path).stdout
    assert out.strip() == "carol: carol@example.org"
    assert run_pbem("player-email", "camp", "carol", cwd=tmp_path).stdout.strip() == \
        "carol@example.org"
    bad = run_pbem("player-email", "camp", "carol", "nobody", cwd=tmp_path, ok=False)
    assert bad.returncode == 2 and "not one mail address" in bad.stderr
    out = run_pbem("remind", "camp", cwd=tmp_path).stdout
    assert out.count("queued reminder for") == 3
    c = open_campaign(tmp_path / "camp", games.get)
    subjects = [parse(data)["Subject"] for _, data in outbox.unsent(c)]
    assert all(s.startswith("[Hellas] [test-campaign] r01.pledge — reminder for ")
               for s in subjects)


def test_19_the_order_desk_is_named_above_each_players_form(base: Table, server: Server,
                                                            tmp_path: Path) -> None:
    """[mail] desk (pbem mail-settings --desk): a phone player reads in the mail itself where
    to sign the form below; the gazette, which has no form, does not name it; an address the
    reports could not show as it is is refused."""
    c = copy_of(base, tmp_path)
    url = "https://pbem.example.org/hellas/desk.html"
    mail.update_mail_settings(c, {"desk": url})
    for bad in ("javascript:alert(1)", "https://x.org/a b", 'https://x.org/"><b>'):
        with pytest.raises(UsageError, match=r"\[mail\] desk"):
            mail.update_mail_settings(c, {"desk": bad})
    mail.queue_reports(c, None, NOW)
    before = len(server.inbox.got)
    smtp.send_outbox(c, server.config())
    got = {rcpts[0]: parse(data) for _, rcpts, data, _ in server.inbox.got[before:]}
    text = text_part(got["alice@example.org"])
    assert f"order desk, then sign and send it from\nthere:\n  {url}\nOrder form:" in text
    assert f'<a href="{url}">order desk</a>' in text_part(got["alice@example.org"], "html")
    assert url not in decoded(got[GAZETTE])

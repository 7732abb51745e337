"""Sending the outbox over SMTP (``pbem mail --smtp``): STARTTLS, login, each message once.

The bytes sent are the bytes in the outbox (line ends made CR LF, as SMTP requires), and each
message is marked sent as soon as the server has taken it, so a failure midway leaves the rest
waiting for the next run and sends nothing twice. The envelope sender is the ``From`` address
and the recipients are those of ``To`` and ``Cc``.
"""

from __future__ import annotations

import re
import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from email.policy import default
from email.utils import getaddresses
from pathlib import Path

from pbem.channels import outbox
from pbem.core.campaign import Campaign
from pbem.core.errors import PbemError, UsageError

LOOPBACK = ("127.0.0.1", "::1", "localhost")
_EOL = re.compile(rb"\r?\n|\r")


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    starttls: bool = False
    user: str = ""
    password: str = ""
    context: ssl.SSLContext | None = None  # None: the system's trusted CAs
    timeout: float = 60.0
    cafile: str = ""  # where ``context``'s CA came from (--cafile), for the messages


def parse_server(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:25`` for IPv6) as host and port; ``UsageError`` otherwise."""
    m = re.fullmatch(r"\[([^\]]+)\]:(\d+)|([^:\[\]]+):(\d+)", text)
    if m is None:
        raise UsageError(f"--smtp {text!r}: write HOST:PORT, e.g. smtp.example.org:587")
    host, port = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    if not 0 < int(port) < 65536:
        raise UsageError(f"--smtp {text!r}: the port must be 1 to 65535")
    return host, int(port)


def check_config(config: SmtpConfig) -> None:
    """Refuse to send a password in clear text to anything but this machine."""
    if config.user and not config.starttls and config.host not in LOOPBACK:
        raise UsageError(f"--user without --starttls would send the password to {config.host} "
                         "unencrypted; add --starttls")


@dataclass
class SendResult:
    sent: list[tuple[str, list[str]]] = field(default_factory=list)  # Message-ID, recipients
    failed: list[tuple[str, str]] = field(default_factory=list)  # Message-ID, why
    waiting: int = 0  # messages left unsent


def envelope(data: bytes) -> tuple[str, str, list[str]]:
    """Message-ID, envelope sender and recipients from a message's headers."""
    headers = BytesHeaderParser(policy=default).parsebytes(data)
    sender = getaddresses([str(headers.get("From", ""))])
    rcpts = [a for _, a in getaddresses([str(v) for h in ("To", "Cc")
                                         for v in headers.get_all(h, [])]) if a]
    return str(headers.get("Message-ID", "")).strip(), sender[0][1] if sender else "", rcpts


def _text(reply: bytes | str) -> str:
    return reply.decode(errors="replace") if isinstance(reply, bytes) else reply


def _where(config: SmtpConfig) -> str:
    return f"SMTP server {config.host}:{config.port}"


def _connect(config: SmtpConfig) -> smtplib.SMTP:
    where = _where(config)
    try:
        server = smtplib.SMTP(config.host, config.port, timeout=config.timeout)
    except (OSError, smtplib.SMTPException) as exc:
        raise PbemError(f"{where}: cannot connect ({exc}); check --smtp HOST:PORT") from None
    try:
        server.ehlo()
        if config.starttls:
            if not server.has_extn("starttls"):
                raise PbemError(f"{where} does not offer STARTTLS; use another port or server")
            context = config.context or ssl.create_default_context()
            server.starttls(context=context)
            server.ehlo()
        if config.user:
            server.login(config.user, config.password)
    except smtplib.SMTPAuthenticationError as exc:
        server.close()
        raise PbemError(f"{where}: login as {config.user!r} refused ({exc.smtp_code} "
                        f"{_text(exc.smtp_error)}); check --user and "
                        "--password-file") from None
    except ssl.SSLError as exc:
        server.close()
        raise PbemError(f"{where}: TLS failed ({exc}); {_tls_hint(config, exc)}") from None
    except (OSError, smtplib.SMTPException) as exc:
        server.close()
        raise PbemError(f"{where}: {exc}") from None
    return server


def _tls_hint(config: SmtpConfig, exc: ssl.SSLError) -> str:
    """What to do about a failed TLS handshake: --cafile only when it was not given."""
    verify = isinstance(exc, ssl.SSLCertVerificationError)
    if config.context is None:
        return "for a server with its own CA, give --cafile PEM"
    source = f"--cafile {config.cafile}" if config.cafile else "the CA given"
    if verify:
        return (f"the server's certificate is not signed by {source}, or it is not for "
                f"{config.host}: check that {source} holds the CA that signed the server's "
                "certificate (openssl s_client -starttls smtp -connect HOST:PORT shows it)")
    return f"the TLS handshake failed with {source} given; check the server's TLS settings"


def send_outbox(campaign: Campaign, config: SmtpConfig,
                say: Callable[[str], None] = lambda _: None) -> SendResult:
    """Send every waiting message of the outbox; each is marked sent once the server took it.

    A message the server refuses stays waiting and is reported; the others still go."""
    check_config(config)
    with outbox.locked(campaign):
        return _send_locked(campaign, config, say)


def _send_locked(campaign: Campaign, config: SmtpConfig, say: Callable[[str], None]
                 ) -> SendResult:
    waiting = outbox.unsent(campaign)
    result = SendResult()
    if not waiting:
        return result
    server = _connect(config)
    try:
        for file, data in waiting:
            msgid, sender, rcpts = envelope(data)
            if not sender or not rcpts:
                result.failed.append((msgid or file.name, "no From or no To address"))
                continue
            try:
                refused = server.sendmail(sender, rcpts, _EOL.sub(b"\r\n", data))
            except smtplib.SMTPRecipientsRefused as exc:
                result.failed.append((msgid, f"every recipient refused: {exc.recipients}"))
                continue
            except (smtplib.SMTPDataError, smtplib.SMTPSenderRefused) as exc:
                result.failed.append((msgid, f"{exc.smtp_code} "
                                      f"{_text(exc.smtp_error)}"))
                continue
            outbox.mark_sent(campaign, file)
            took = [r for r in rcpts if r not in refused]
            result.sent.append((msgid, took))
            say(f"sent {msgid} to {', '.join(took)}")
            for r, why in refused.items():
                result.failed.append((msgid, f"{r} refused: {why!r}"))
    except (OSError, smtplib.SMTPException) as exc:
        raise PbemError(f"{_where(config)}: {exc}; {len(result.sent)} sent, the rest waits "
                        "in the outbox for the next run") from None
    finally:
        try:
            server.quit()
        except (OSError, smtplib.SMTPException):
            server.close()
        result.waiting = len(waiting) - len(result.sent)
    return result


def read_password(path: Path) -> str:
    """The first line of ``path`` (a file, so the password is in no shell history)."""
    if not path.is_file():
        raise UsageError(f"--password-file {path}: no such file")
    lines = path.read_text().splitlines()
    return lines[0] if lines else ""

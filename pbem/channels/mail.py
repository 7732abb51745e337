"""Building the GM's mail: each player's report, the gazette, and reminders.

A report mail is ``multipart/mixed``: a ``multipart/alternative`` with the plain-text report
(what any client shows) and the HTML report, then the order form for the next phase as a
``.toml`` attachment, byte for byte the form printed in the body (same salt and entropy). The
text is rendered from that player's view only (:func:`pbem.core.report.render`), and each
message has exactly one recipient, so one player's secrets never travel to another.

Message-IDs are derived from the campaign, the record and the reader, never random: queuing
the same record again finds them in the outbox and adds nothing. Every message refers to
one per-campaign thread root, so clients file a whole campaign as one conversation.
"""

from __future__ import annotations

import email.policy
import hashlib
import re
import secrets
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from pbem.channels import outbox
from pbem.core import deadlines, engine, ledger, report
from pbem.core.campaign import Campaign
from pbem.core.errors import CampaignError, UsageError
from pbem.core.forms import render_form

#: Serialise as 7-bit text: non-ASCII or long lines become quoted-printable or base64, so
#: every SMTP server takes the message as it is (no 8BITMIME or SMTPUTF8 needed).
POLICY = email.policy.default.clone(cte_type="7bit")
MAIL_KEYS = ("from", "reply_to", "subject_prefix", "gazette", "desk")
#: ``[mail] desk``: the address of the campaign's order desk (docs/players.md), written above
#: each player's form. Only characters that need no escaping in any report format.
DESK_URL = re.compile(r"(https?|file)://[A-Za-z0-9._~:/?#@!$&*+,;=%-]{1,300}")

#: A ``Fresh`` factory per reader: the salt and entropy of the forms it prints.
FreshFor = Callable[[str], report.Fresh]


def fixed_fresh(_: str = "") -> report.Fresh:
    """One salt and one entropy per message, reused by every rendering of it: the body's form
    and the attached form must be the same file."""
    values: dict[str, str] = {}

    def fresh(label: str) -> str:
        return values.setdefault(label, secrets.token_hex(32))

    return fresh


# --- settings ------------------------------------------------------------------------------


def parse_address(text: str, where: str) -> str:
    """``text`` as one mailbox (``Name <a@b>`` or ``a@b``), normalised; ``UsageError`` if it is
    not exactly one address with a domain."""
    header = POLICY.header_factory("To", text)
    addresses: Any = getattr(header, "addresses", ())
    if header.defects or len(addresses) != 1 or not addresses[0].domain \
            or not addresses[0].username:
        raise UsageError(f"{where}: {text!r} is not one mail address; write e.g. "
                         "\"Alice <alice@example.org>\" or alice@example.org")
    return str(addresses[0])


@dataclass(frozen=True)
class MailSettings:
    """``[mail]`` of ``gm/settings.toml``."""

    sender: str
    reply_to: str = ""
    subject_prefix: str = ""
    gazette: str = ""

    @property
    def domain(self) -> str:
        return str(POLICY.header_factory("From", self.sender).addresses[0].domain)


def mail_settings(campaign: Campaign) -> MailSettings:
    table = campaign.settings().get("mail", {})
    sender = str(table.get("from") or "")
    if not sender:
        raise CampaignError("no sender address: gm/settings.toml has no [mail] from (fix: "
                            "pbem mail-settings DIR --from \"GM <gm@example.org>\")")
    return MailSettings(parse_address(sender, "gm/settings.toml [mail] from"),
                        str(table.get("reply_to") or ""), str(table.get("subject_prefix") or ""),
                        str(table.get("gazette") or ""))


def update_mail_settings(campaign: Campaign, changes: dict[str, str]) -> dict[str, str]:
    """Set keys of ``[mail]`` (an empty value removes the key); the new table."""
    changes = dict(changes)
    for key, value in changes.items():
        if key not in MAIL_KEYS:
            raise UsageError(f"[mail] has no key {key!r}; known: {', '.join(MAIL_KEYS)}")
        if value and key in ("from", "reply_to", "gazette"):
            changes[key] = parse_address(value, f"[mail] {key}")
        if value and key == "desk" and not DESK_URL.fullmatch(value):
            raise UsageError(f"[mail] desk: {value!r} is not an address the reports can show; "
                             "write the https:// (or file://) address of the site's desk.html, "
                             "without spaces, quotes, brackets or parentheses")
    settings = campaign.settings()
    table = {k: v for k, v in {**settings.get("mail", {}), **changes}.items() if v}
    settings["mail"] = table
    campaign.save_settings(settings)
    return table


def player_address(campaign: Campaign, player: str) -> str:
    entry = campaign.settings().get("players", {}).get(player, {})
    return str(entry.get("email") or "") if isinstance(entry, dict) else ""


def set_player_address(campaign: Campaign, player: str, address: str) -> str:
    """Record (``""``: remove) the address of ``player``; the normalised address."""
    if player not in campaign.players:
        raise UsageError(f"{player!r} is not a player of {campaign.id} (players: "
                         f"{', '.join(campaign.players)})")
    value = parse_address(address, f"address of {player}") if address else ""
    settings = campaign.settings()
    players = dict(settings.get("players", {}))
    players[player] = {**players.get(player, {}), "email": value}
    settings["players"] = players
    campaign.save_settings(settings)
    return value


# --- identities ----------------------------------------------------------------------------


def _tag(campaign: Campaign) -> str:
    # Campaign ids may hold characters (e.g. "..") that a Message-ID's dot-atom may not.
    return hashlib.sha256(f"pbem-mail/1\ncampaign={campaign.id}\n".encode()).hexdigest()[:16]


def thread_root(campaign: Campaign, domain: str) -> str:
    """The Message-ID every message of the campaign refers to (In-Reply-To, References)."""
    return f"<pbem.{_tag(campaign)}.thread@{domain}>"


def report_id(campaign: Campaign, seq: int, reader: str | None, domain: str) -> str:
    """The Message-ID of record ``seq``'s report for ``reader`` (``None``: the gazette)."""
    return f"<pbem.{_tag(campaign)}.{seq:06d}.{reader or 'gazette'}@{domain}>"


def reminder_id(campaign: Campaign, phase_id: str, player: str, now: datetime,
                domain: str) -> str:
    """One reminder per player, phase and UTC day: a rerun the same day adds nothing."""
    day = deadlines.format_time(now)[:10].replace("-", "")
    return f"<pbem.{_tag(campaign)}.remind.{phase_id}.{player}.{day}@{domain}>"


def _subject(settings: MailSettings, campaign: Campaign, phase_id: str, what: str) -> str:
    prefix = f"{settings.subject_prefix} " if settings.subject_prefix else ""
    return f"{prefix}[{campaign.id}] {phase_id} — {what}"


def _message(settings: MailSettings, to: str, subject: str, msgid: str, refs: list[str],
             now: datetime, campaign: Campaign) -> EmailMessage:
    msg = EmailMessage(policy=POLICY)
    msg["From"] = settings.sender
    msg["To"] = to
    if settings.reply_to:
        msg["Reply-To"] = settings.reply_to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = msgid
    msg["In-Reply-To"] = refs[-1]
    msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to the GM
    msg["X-Pbem-Campaign"] = campaign.id
    return msg


def _attach_form(msg: EmailMessage, form: str, filename: str) -> None:
    # Bytes, base64: the attachment is exactly the form, whatever the transport does to text.
    msg.add_attachment(form.encode(), maintype="text", subtype="plain", filename=filename,
                       params={"charset": "utf-8"})


def form_filename(campaign: Campaign, phase_id: str, player: str) -> str:
    return f"{campaign.id}-{phase_id}-{player}.toml"


# --- report mails --------------------------------------------------------------------------


def report_message(campaign: Campaign, seq: int, reader: str | None, to: str,
                   settings: MailSettings, now: datetime, fresh: report.Fresh,
                   loaded: report.Loaded | None = None) -> EmailMessage:
    """Record ``seq``'s report for ``reader`` (``None``: the gazette) as a message to ``to``.

    ``loaded``: :func:`pbem.core.report.load` of the record, read once for every reader."""
    loaded = loaded or report.load(campaign, seq)
    record = loaded.record
    phase_id = str(record["phase"])
    what = f"report for {reader}" if reader else "gazette"
    msg = _message(settings, to, _subject(settings, campaign, phase_id, what),
                   report_id(campaign, seq, reader, settings.domain),
                   [thread_root(campaign, settings.domain)], now, campaign)
    msg["X-Pbem-Record"] = str(seq)
    msg.set_content(report.render(campaign, seq, reader, "txt", fresh=fresh, loaded=loaded))
    if "html" in report.FORMATS:
        msg.add_alternative(report.render(campaign, seq, reader, "html", fresh=fresh,
                                          loaded=loaded), subtype="html")
    if reader is not None:
        form = report.context(campaign, seq, reader, fresh, loaded)["form"]
        nxt = record.get("next_phase", "")
        if form and nxt:
            _attach_form(msg, form, form_filename(campaign, str(nxt), reader))
    return msg


@dataclass(frozen=True)
class Queued:
    """What queuing did for one reader: ``queued``, ``already`` (in the outbox), or
    ``no address``."""

    reader: str  # a player, or "gazette"
    status: str
    address: str = ""
    message_id: str = ""
    attachment: str = ""


def _queue(campaign: Campaign, known: set[str], reader: str, address: str, msgid: str,
           build: Callable[[], EmailMessage]) -> Queued:
    if not address:
        return Queued(reader, "no address")
    if msgid in known:
        return Queued(reader, "already", address, msgid)
    msg = build()
    outbox.put(campaign, msg)
    known.add(msgid)
    names = [p.get_filename() or "" for p in msg.iter_attachments()]
    return Queued(reader, "queued", address, msgid, ", ".join(names))


def queue_reports(campaign: Campaign, seq: int | None, now: datetime,
                  fresh_for: FreshFor = fixed_fresh) -> list[Queued]:
    """One message per player (and the gazette, to ``[mail] gazette``) for record ``seq``
    (``None``: the latest) into the outbox, skipping those already there."""
    last = ledger.count(campaign.ledger_dir)
    k = last if seq is None else seq
    if not 1 <= k <= last:
        raise UsageError(f"record {k} does not exist (the ledger has {last})"
                         if last else "the ledger is empty: adjudicate the join phase first")
    settings = mail_settings(campaign)
    with outbox.locked(campaign):
        return _queue_reports(campaign, k, settings, now, fresh_for)


def _queue_reports(campaign: Campaign, k: int, settings: MailSettings, now: datetime,
                   fresh_for: FreshFor) -> list[Queued]:
    known = outbox.message_ids(campaign)
    loaded: list[report.Loaded] = []  # read when the first message is built, then shared
    out = []
    for reader in (*campaign.players, None):
        address = player_address(campaign, reader) if reader else settings.gazette
        if address:  # a hand-edited settings file is checked too
            where = f"gm/settings.toml [players.{reader}] email" if reader else \
                "gm/settings.toml [mail] gazette"
            address = parse_address(address, where)

        def build(reader: str | None = reader, address: str = address) -> EmailMessage:
            if not loaded:
                loaded.append(report.load(campaign, k))
            return report_message(campaign, k, reader, address, settings, now,
                                  fresh_for(reader or "gazette"), loaded[0])

        out.append(_queue(campaign, known, reader or "gazette", address,
                          report_id(campaign, k, reader, settings.domain), build))
    return out


# --- reminders -----------------------------------------------------------------------------


def _wrap(text: str) -> str:
    return "\n".join(textwrap.wrap(text, 78, break_on_hyphens=False, break_long_words=False))


def reminder_text(campaign: Campaign, status: deadlines.PhaseStatus, player: str,
                  form: str, filename: str) -> str:
    """The body of a reminder: what is due when, what happens without orders, how to send."""
    phase = status.phase
    title = f" ({phase.title})" if phase.title else ""
    d = status.deadline
    if d.due is None:
        when = "No deadline is set yet; the GM will announce one."
    else:
        assert d.grace_end is not None
        when = f"Deadline: {deadlines.format_time(d.due)}" + (
            f", with a grace period until {deadlines.format_time(d.grace_end)}."
            if d.grace else ".")
    if status.policy == "wait":
        nmr = ("Without your orders the game waits for you (NMR policy 'wait'); the GM may "
               "extend the deadline.")
    else:
        nmr = ("Without your orders, your phase's documented default orders will be used "
               "(NMR policy 'default').")
    how = (f"How to send them: fill in [orders] in the attached form ({filename}, also "
           "below), sign it with your key (pbem sign FORM --key YOUR_KEY, or ssh-keygen "
           "-Y sign -n pbem-orders over the lines between the markers), and reply to this "
           "mail with the signed text in the body or as an attachment. The form signed and "
           "sent back unchanged means the default orders.")
    paras = [f"Reminder for {player}: campaign {campaign.id}, phase {phase.id}{title}, is "
             "waiting for your orders.", when, nmr, how]
    return "\n\n".join(_wrap(p) for p in paras) + "\n\n" + form


def queue_reminders(campaign: Campaign, now: datetime, fresh_for: FreshFor = fixed_fresh
                    ) -> list[Queued]:
    """A reminder with a fresh order form to each acting player with no orders yet."""
    status = deadlines.phase_status(campaign, now)
    if status is None:
        raise CampaignError("the game is over: there is nobody to remind")
    settings = mail_settings(campaign)
    with outbox.locked(campaign):
        return _queue_reminders(campaign, status, settings, now, fresh_for)


def _queue_reminders(campaign: Campaign, status: deadlines.PhaseStatus, settings: MailSettings,
                     now: datetime, fresh_for: FreshFor) -> list[Queued]:
    known = outbox.message_ids(campaign)
    seq, state, phase = engine.open_phase(campaign)
    assert phase is not None
    out = []
    for player in status.waiting_for:
        address = player_address(campaign, player)
        msgid = reminder_id(campaign, phase.id, player, now, settings.domain)

        def build(player: str = player, address: str = address, msgid: str = msgid
                  ) -> EmailMessage:
            view: dict[str, Any] = (campaign.ruleset.view(state, player)
                                    if state is not None else {})
            fresh = fresh_for(player)
            form = render_form(campaign.id, player, phase,
                               campaign.ruleset.order_form(view, phase, player),
                               fresh("salt"), fresh("entropy"), campaign.envelope_hash)
            filename = form_filename(campaign, phase.id, player)
            refs = [thread_root(campaign, settings.domain)]
            if seq:
                refs.append(report_id(campaign, seq, player, settings.domain))
            due = (f" — orders due {deadlines.format_time(status.deadline.due)}"
                   if status.deadline.due else "")
            msg = _message(settings, address,
                           _subject(settings, campaign, phase.id, f"reminder for {player}{due}"),
                           msgid, refs, now, campaign)
            msg.set_content(reminder_text(campaign, status, player, form, filename))
            _attach_form(msg, form, filename)
            return msg

        out.append(_queue(campaign, known, player, address, msgid, build))
    return out

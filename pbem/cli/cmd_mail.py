"""`pbem mail` and `pbem remind`: reports and reminders out by email; and the GM's settings
they use: `pbem mail-settings`, `pbem player-email`, `pbem deadline` (docs/mail.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from datetime import datetime

    from pbem.channels.mail import Queued
    from pbem.channels.smtp import SendResult
    from pbem.core.campaign import Campaign

Dir = Annotated[Path, typer.Argument(metavar="DIR", help="The campaign directory (GM's copy).")]


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app`` (imports of the library stay inside them)."""

    @app.command()
    def mail(
        directory: Dir,
        seq: Annotated[int | None, typer.Option(help="Record number (default: the latest).")]
        = None,
        smtp: Annotated[str | None, typer.Option(metavar="HOST:PORT", help="Then send every "
                                                 "waiting message of the outbox.")] = None,
        starttls: Annotated[bool, typer.Option(help="Upgrade the SMTP connection with "
                                               "STARTTLS (checks the certificate).")] = False,
        cafile: Annotated[Path | None, typer.Option(help="Trust this CA (PEM) for STARTTLS "
                                                    "instead of the system's.")] = None,
        user: Annotated[str | None, typer.Option(help="SMTP login name.")] = None,
        password_file: Annotated[Path | None, typer.Option(help="File whose first line is "
                                                           "the SMTP password.")] = None,
        send_only: Annotated[bool, typer.Option(help="Only send the outbox; queue no "
                                                "reports.")] = False,
    ) -> None:
        """Queue one message per player (report, HTML version, order form attached) and the
        gazette for a record in gm/outbox; with --smtp, send what waits there."""
        from pbem.channels import mail as mail_mod
        from pbem.channels import outbox
        from pbem.cli.app import _open, now_utc
        from pbem.core import deadlines
        from pbem.core.errors import PbemError, UsageError

        if send_only and smtp is None:
            raise UsageError("--send-only needs --smtp HOST:PORT")
        if (password_file is None) != (user is None):
            raise UsageError("--user and --password-file go together")
        if smtp is None and (starttls or cafile or user):
            raise UsageError("--starttls, --cafile and --user are for sending: add --smtp "
                             "HOST:PORT")
        c = _open(directory)
        if not send_only:
            now = deadlines.parse_time(now_utc())
            for q in mail_mod.queue_reports(c, seq, now):
                _say_queued(q, "report")
        if smtp is None:
            waiting = len(outbox.unsent(c))
            typer.echo(f"outbox {outbox.path(c)}: {waiting} waiting"
                       + (f"; send with pbem mail {directory} --send-only --smtp HOST:PORT"
                          if waiting else ""))
            return
        result = _send(c, smtp, starttls, cafile, user, password_file)
        for msgid, why in result.failed:
            typer.echo(f"not sent: {msgid}: {why}", err=True)
        typer.echo(f"sent {len(result.sent)}; {result.waiting} waiting in the outbox")
        if result.failed:
            raise PbemError(f"{len(result.failed)} message(s) not sent; they stay in the "
                            "outbox for the next run")

    @app.command()
    def remind(directory: Dir) -> None:
        """Queue a reminder (deadline, NMR policy, a fresh order form attached) to every
        player of the open phase whose orders have not arrived; at most one per player and
        phase a day. Send them with pbem mail DIR --send-only --smtp HOST:PORT."""
        from pbem.channels import mail as mail_mod
        from pbem.cli.app import _open, now_utc
        from pbem.core import deadlines

        c = _open(directory)
        queued = mail_mod.queue_reminders(c, deadlines.parse_time(now_utc()))
        if not queued:
            typer.echo("every acting player has sent orders: nobody to remind")
        for q in queued:
            _say_queued(q, "reminder")

    @app.command("mail-settings")
    def mail_settings(
        directory: Dir,
        sender: Annotated[str | None, typer.Option("--from", help='"GM <gm@example.org>"')]
        = None,
        reply_to: Annotated[str | None, typer.Option(help="Where replies go (default: "
                                                     "From); '' removes it.")] = None,
        subject_prefix: Annotated[str | None, typer.Option(help="Put before the [campaign] "
                                                           "tag of every subject.")] = None,
        gazette: Annotated[str | None, typer.Option(help="Address for the public gazette "
                                                    "(a forum's mail-in, a list).")] = None,
        desk: Annotated[str | None, typer.Option(help="Address of the campaign's order desk "
                                                 "(the site's desk.html), named above each "
                                                 "player's form; '' removes it.")] = None,
    ) -> None:
        """Set the [mail] settings in gm/settings.toml; print them."""
        from pbem.channels import mail as mail_mod
        from pbem.cli.app import _open

        c = _open(directory)
        changes = {k: v for k, v in {"from": sender, "reply_to": reply_to,
                                     "subject_prefix": subject_prefix,
                                     "gazette": gazette, "desk": desk}.items()
                   if v is not None}
        table = (mail_mod.update_mail_settings(c, changes) if changes
                 else c.settings().get("mail", {}))
        for key in mail_mod.MAIL_KEYS:
            typer.echo(f"{key:15} {table.get(key, '') or '(not set)'}")

    @app.command("player-email")
    def player_email(
        directory: Dir, name: Annotated[str, typer.Argument(metavar="NAME")],
        address: Annotated[str | None, typer.Argument(metavar="ADDRESS")] = None,
        clear: Annotated[bool, typer.Option(help="Remove NAME's address.")] = False,
    ) -> None:
        """Set (or print, or --clear) the mail address of player NAME."""
        from pbem.channels import mail as mail_mod
        from pbem.cli.app import _open
        from pbem.core.errors import UsageError

        c = _open(directory)
        if clear and address:
            raise UsageError("give ADDRESS or --clear, not both")
        if address is None and not clear:
            if name not in c.players:
                raise UsageError(f"{name!r} is not a player of {c.id}")
            typer.echo(mail_mod.player_address(c, name) or f"{name} has no address")
            return
        value = mail_mod.set_player_address(c, name, address or "")
        typer.echo(f"{name}: {value}" if value else f"{name}: address removed")

    @app.command()
    def deadline(
        directory: Dir,
        time: Annotated[str | None, typer.Argument(
            metavar="[TIME]", help="RFC 3339 UTC (2026-05-01T18:00:00Z), +DURATION from now "
            "(+48h), or 'none' to remove.")] = None,
        phase: Annotated[str | None, typer.Option(help="The phase TIME is for (default: "
                                                  "the open one).")] = None,
        default: Annotated[str | None, typer.Option(help="Deadline of phases without their "
                                                    "own: DURATION after the phase opened "
                                                    "(72h, 3d); 'none' removes it.")] = None,
        grace: Annotated[str | None, typer.Option(help="DURATION after the deadline during "
                                                  "which the GM still waits (orders then "
                                                  "count as late); 'none' removes it.")]
        = None,
    ) -> None:
        """Set a phase's deadline, the default deadline and the grace; print the deadlines.

        TIME is RFC 3339 UTC (2026-05-01T18:00:00Z), +DURATION from now (+48h), or 'none' to
        remove the phase's own deadline. DURATION: 90m, 72h, 3d, 1d12h."""
        from pbem.cli.app import _open, now_utc
        from pbem.core import deadlines, engine
        from pbem.core.errors import UsageError
        from pbem.core.ruleset import PHASE_ID

        c = _open(directory)
        changes: dict[str, str | None] = {}
        now = deadlines.parse_time(now_utc())
        _, _, open_phase = engine.open_phase(c)
        if phase is not None and time is None:
            raise UsageError("--phase needs a TIME")
        if time is not None:
            pid = phase or (open_phase.id if open_phase else "")
            if not pid:
                raise UsageError("the game is over; give --phase")
            if pid in deadlines.RESERVED or not PHASE_ID.fullmatch(pid):
                raise UsageError(f"--phase {pid!r} is not a phase id")
            changes[pid] = _time_arg(time, now)
        for key, value in ((deadlines.DEFAULT_KEY, default), (deadlines.GRACE_KEY, grace)):
            if value is not None:
                changes[key] = None if value == "none" else _duration_arg(key, value)
        table = deadlines.update_deadlines(c, changes) if changes else deadlines.deadline_table(c)
        for key in deadlines.RESERVED:
            typer.echo(f"{key:15} {table.get(key) or '(not set)'}")
        for key, value in table.items():
            if key not in deadlines.RESERVED:
                typer.echo(f"{key:15} {value}")
        if open_phase is not None:
            typer.echo(f"open phase {open_phase.id}: deadline "
                       f"{deadlines.deadline_for(c, open_phase.id).describe()}")


def _time_arg(text: str, now: datetime) -> str | None:
    from pbem.core import deadlines
    from pbem.core.errors import UsageError

    if text == "none":
        return None
    try:
        if text.startswith("+"):
            return deadlines.format_time(now + deadlines.parse_duration(text[1:]))
        return deadlines.format_time(deadlines.parse_time(text))
    except ValueError as exc:
        raise UsageError(f"TIME: {exc}") from None


def _duration_arg(key: str, text: str) -> str:
    from pbem.core import deadlines
    from pbem.core.errors import UsageError

    try:
        deadlines.parse_duration(text)
    except ValueError as exc:
        raise UsageError(f"--{key}: {exc}") from None
    return text.strip()


def _say_queued(q: Queued, what: str) -> None:
    if q.status == "no address":
        hint = ("pbem mail-settings DIR --gazette ADDRESS" if q.reader == "gazette"
                else f"pbem player-email DIR {q.reader} ADDRESS")
        typer.echo(f"skipped {q.reader}: no address (set one: {hint})")
    elif q.status == "already":
        typer.echo(f"already in the outbox: {what} for {q.reader} {q.message_id}")
    else:
        extra = f", attached {q.attachment}" if q.attachment else ""
        typer.echo(f"queued {what} for {q.reader} to {q.address} {q.message_id}{extra}")


def _send(c: Campaign, smtp: str, starttls: bool, cafile: Path | None, user: str | None,
          password_file: Path | None) -> SendResult:
    import ssl

    from pbem.channels import smtp as smtp_mod
    from pbem.core.errors import UsageError

    host, port = smtp_mod.parse_server(smtp)
    context = None
    if cafile:
        if not cafile.is_file():
            raise UsageError(f"--cafile {cafile}: no such file")
        try:
            context = ssl.create_default_context(cafile=str(cafile))
        except ssl.SSLError as exc:
            raise UsageError(f"--cafile {cafile}: not a PEM certificate file ({exc})") from None
    password = smtp_mod.read_password(password_file) if password_file else ""
    config = smtp_mod.SmtpConfig(host, port, starttls, user or "", password, context,
                                 cafile=str(cafile) if cafile else "")
    return smtp_mod.send_outbox(c, config, say=typer.echo)

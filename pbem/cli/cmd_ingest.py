"""`pbem ingest`: order blocks in from mailboxes, messages and saved forum threads."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from pbem.channels.results import BlockResult, MessageResult


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app`` (imports of the library stay inside them)."""

    @app.command()
    def ingest(directory: Annotated[Path, typer.Argument(metavar="DIR")],
               source: Annotated[list[Path], typer.Argument(
                   metavar="SOURCE...", help="Maildir, mbox file, .eml message, or text file "
                   "(a saved forum thread).")]) -> None:
        """Submit the order blocks of mail and forum texts; reply to each sender by mail.

        One line per message on stdout (per block for forum texts); the errors of rejected
        blocks on stderr. Replies go to the outbox (gm/outbox), raw messages to
        gm/mail/received, unusable ones to gm/mail/unused. A message that could not be
        read at all is set aside in gm/mail/failed (the error in gm/mail/failed.txt) and
        tried again by the next run. Exit 1 if a block was rejected or a message failed.
        """
        from pbem.channels import ingest as ingest_mod
        from pbem.cli.app import _open, now_utc

        campaign = _open(directory)
        root = campaign.root
        rejected = False

        def show(result: MessageResult) -> None:
            nonlocal rejected
            rejected = rejected or result.rejected or bool(result.failed)
            for line in describe(result, root):
                typer.echo(line)
            for b in result.blocks:
                if b.error is not None:
                    for line in b.error.render().split("\n"):
                        typer.echo(f"rejected: {line}", err=True)

        ingest_mod.ingest(campaign, source, received=now_utc(), on_result=show, keep=False)
        if rejected:
            raise typer.Exit(1)


def _block(b: BlockResult, where: bool = True) -> str:
    who = " ".join(x for x in (b.player, b.phase) if x)
    at = f" ({b.where})" if where else ""
    if b.receipt is not None:
        r = b.receipt
        return f"{b.status} {r.player} {r.phase} commitment {r.commitment[:16]}"
    if b.status == "rejected":
        return f"rejected {who or 'order block'}{at}"
    if b.status == "quoted":
        return f"quoted {who or 'order block'}, not submitted{at}"
    if b.status == "form copy":
        return f"unsigned copy of the form {who} ignored"
    return f"{b.status} {who}".rstrip()


def _rel(path: Path | None, root: Path) -> str:
    if path is None:
        return ""
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def describe(result: MessageResult, root: Path) -> list[str]:
    """The GM's lines about ``result``: one per message, one per block of a forum text."""
    if result.already:
        return [f"{result.name}: already ingested"]
    if result.kind == "text" and result.blocks:
        return [f"{result.source}, {b.where.removeprefix('text, ')}: {_block(b, False)}"
                for b in result.blocks]
    parts = [_block(b) for b in result.blocks]
    if result.failed:
        kept = f", kept in {_rel(result.failed_copy, root)}" if result.failed_copy else ""
        parts.append(f"failed ({result.failed}){kept}; the error is in gm/mail/failed.txt, "
                     "and the next pbem ingest tries it again")
        return [f"{result.name}: " + "; ".join(parts)]
    if result.problems and not result.unused:
        parts.append("not all read: " + "; ".join(result.problems[:3]))
    if result.unused:
        parts.append(f"unused ({result.unused}), kept in {_rel(result.unused_copy, root)}")
    if result.kind == "mail":
        parts.append(f"reply to {result.sender} queued" if result.reply
                     else f"no reply: {result.no_reply}")
    return [f"{result.name}: " + "; ".join(parts)]

"""`pbem site`: the campaign as a static public web site."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app`` (imports of the library stay inside them)."""

    @app.command()
    def site(directory: Annotated[Path, typer.Argument(metavar="DIR")],
             out: Annotated[Path, typer.Argument(metavar="OUT")],
             public_only: Annotated[bool, typer.Option(
                 "--public-only", help="Leave out the gazettes and board pictures even on "
                 "the GM's copy (the site an exported copy gives).")] = False) -> None:
        """Write the public web site of the campaign into OUT: an index, one page per
        record with the gazette and board, the signed ledger, and the audit status.

        OUT must be new, empty, or an earlier site of this campaign (it is updated)."""
        from pbem import games
        from pbem.channels import site as site_mod
        from pbem.core.campaign import open_campaign
        from pbem.core.errors import PbemError

        c = open_campaign(directory, games.get)
        result = site_mod.build(c, out, gazette=not public_only)
        typer.echo(f"site of {c.id} in {out}: {result.records} records; "
                   f"{result.written} files written, {result.unchanged} unchanged, "
                   f"{result.removed} removed")
        if not result.gazette:
            typer.echo(f"no gazettes or board pictures: {result.gazette_note}")
        typer.echo(f"open {out / 'index.html'}, or publish the folder as it is on any "
                   "static host")
        if not result.audit.passed:
            raise PbemError(f"the site is written, but its audit failed: "
                            f"{result.audit.message}")
        typer.echo(f"audit passed: {result.audit.message}")

    @app.command()
    def desk(out: Annotated[Path, typer.Argument(metavar="OUT.html")],
             campaign: Annotated[Path | None, typer.Option(
                 metavar="DIR", help="The campaign whose page it is (the page pbem site "
                 "writes as desk.html); without it, a page for making a key before the "
                 "campaign exists.")] = None) -> None:
        """Write the order desk: one HTML page where a player makes a key and signs orders
        in a browser, with no terminal (docs/players.md)."""
        from pbem import games
        from pbem.channels import desk as desk_mod
        from pbem.core.campaign import open_campaign
        from pbem.core.fsutil import atomic_write

        c = open_campaign(campaign, games.get) if campaign is not None else None
        atomic_write(out, desk_mod.render(c, c if c is not None and c.is_gm else None),
                     make_parents=False)
        typer.echo(f"wrote {out}: open it in a browser, or send it to the players")

"""`pbem site`: the campaign as a static public web site."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app`` (imports of the library stay inside them)."""

"""`pbem mail` and `pbem remind`: reports and reminders out by email."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app`` (imports of the library stay inside them)."""

"""Finding the top-level ``templates/`` and ``orders/`` folders.

In a checkout or an editable install they sit beside the ``pbem`` package; in a wheel they are
force-included as ``pbem/_share/templates`` and ``pbem/_share/orders`` (DESIGN.md section 2).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


@cache
def share_dir(name: str) -> Path:
    """The folder ``name`` (``"templates"`` or ``"orders"``), wherever pbem is installed."""
    for candidate in (_PACKAGE / "_share" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pbem's {name}/ folder is missing from this installation")


def order_form_text(game: str, kind: str) -> str:
    """The annotated blank form ``orders/<game>/<kind>.toml`` ('' if the game has none)."""
    path = share_dir("orders") / game / f"{kind}.toml"
    return path.read_text() if path.is_file() else ""

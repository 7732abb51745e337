"""Order forms: an unsigned order file for one player and the open phase, ready to fill in."""

from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import Any

import tomli_w

from pbem.core.armor import BEGIN_ORDERS, END_ORDERS
from pbem.core.orders import ORDERS_FORMAT, ORDERS_FORMAT_V1
from pbem.core.ruleset import PhaseSpec


def orders_toml(orders: dict[str, Any]) -> str:
    """TOML for the lines after ``[orders]``: nested tables become ``[orders.x]``."""
    text = tomli_w.dumps({"orders": orders})
    return text.removeprefix("[orders]\n")


@lru_cache(maxsize=256)
def _wrapped(text: str) -> str:
    """``text`` within 78 columns (a phase's intro recurs in every form and report of it)."""
    return "\n".join(textwrap.wrap(text, 78))


def render_form(campaign_id: str, player: str, phase: PhaseSpec, orders_text: str,
                salt: str, entropy: str, campaign_hash: str | None = None) -> str:
    """The form text. Signed and sent back unchanged it means the phase's default orders.

    ``campaign_hash``: the campaign's (version 2, :attr:`Campaign.envelope_hash`); ``None``
    writes a version 1 form, for a version 1 campaign."""
    title = f" ({phase.title})" if phase.title else ""
    sealed = (" Your orders are sealed: the others see only their commitment until the "
              "reveal.") if phase.sealed else ""
    body = orders_text.rstrip("\n")
    intro = (f"Order form: campaign {campaign_id}, player {player}, phase {phase.id}{title}."
             f"{sealed} Fill in [orders], then sign: pbem sign THIS_FILE --key YOUR_KEY, and "
             "send the result. Text outside the two marker lines is ignored.")
    # Mail clients on phones: the text around the block stays within 78 columns too.
    return (
        _wrapped(intro) + "\n\n"
        f"{BEGIN_ORDERS}\n"
        "[envelope]\n"
        f'format = "{ORDERS_FORMAT if campaign_hash is not None else ORDERS_FORMAT_V1}"\n'
        f'campaign = "{campaign_id}"\n'
        # A line-ending backslash in a TOML multi-line string joins the lines: the same
        # 64-digit value, on lines that a phone or a mail client wrapping at 78 columns
        # leaves alone.
        + (f'campaign_hash = """\\\n{campaign_hash}"""\n' if campaign_hash is not None
           else "") +
        f'player = "{player}"\n'
        f'phase = "{phase.id}"\n'
        f'salt = "{salt}"\n'
        f'entropy = "{entropy}"\n\n'
        "[orders]\n"
        f"{body}\n"
        f"{END_ORDERS}\n"
    )

"""The GM's outbox: a Maildir under ``gm/outbox`` holding every message pbem wants sent.

Commands that produce mail (``pbem mail``, ``pbem remind``, the replies of ``pbem ingest``)
only ever *write* here; ``pbem mail --smtp`` sends what is waiting and moves it to ``cur``
with the ``S`` (seen) flag, so a message is sent once and a crash mid-send resends nothing
that the server already took. Any mail client can open the folder to look or send by hand.
"""

from __future__ import annotations

import mailbox
from email.message import EmailMessage
from pathlib import Path

from pbem.core.campaign import Campaign


def path(campaign: Campaign) -> Path:
    return campaign.gm_dir / "outbox"


def open_outbox(campaign: Campaign) -> mailbox.Maildir:
    return mailbox.Maildir(path(campaign), create=True)


def put(campaign: Campaign, message: EmailMessage) -> str:
    """Queue ``message``; its Maildir key."""
    return open_outbox(campaign).add(message)

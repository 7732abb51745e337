"""What ``pbem ingest`` made of each message and each block in it.

Shared by the ingest loop (which fills them), the reply mail (which explains them to the
player) and the command line (one line per message for the GM).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.engine import Receipt
from pbem.core.errors import ProblemsError

# Block statuses: the engine's receipt statuses, then the ones ingest decides itself.
ACCEPTED = ("accepted", "replaced", "unchanged")
REJECTED = "rejected"
QUOTED = "quoted"            # inside a "> " quote or a [quote]: not new orders
FORM_COPY = "form copy"      # an unsigned copy of a form whose signed orders came along
ALREADY = "already ingested"  # a forum block submitted by an earlier run


@dataclass
class BlockResult:
    """One order block: where it was (``where``, e.g. ``body (text/plain), line 12``) and
    what happened to it."""

    where: str
    status: str
    receipt: Receipt | None = None
    error: ProblemsError | None = None
    player: str = ""
    phase: str = ""
    signed: bool = True
    inbox: str = ""
    ledger_seq: int = 0
    ledger_head: str = ""
    #: sha256 of the campaign.toml the orders were accepted in (the receipt names it).
    campaign_hash: str = ""

    @property
    def ok(self) -> bool:
        return self.status in ACCEPTED or self.status == ALREADY


@dataclass
class MessageResult:
    """One message (or forum text) and everything ``ingest`` did with it."""

    source: str
    kind: str                      # "mail" or "text"
    message_id: str = ""
    subject: str = ""
    sender: str = ""               # the address a reply goes to ('' when none)
    sender_name: str = ""          # the name that goes with it
    bad_sender: str = ""           # an address given that no reply can go to ('' when none)
    blocks: list[BlockResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # parts that could not be decoded
    unused: str = ""               # why the message could not be used ('' when it was)
    already: bool = False          # read by an earlier run: nothing done
    kept: Path | None = None       # the raw copy under gm/
    unused_copy: Path | None = None
    reply: str = ""                # the outbox key of the reply, if one was written
    no_reply: str = ""             # why no reply was written
    failed: str = ""               # the exception that stopped its reading ('' when none)
    failed_copy: Path | None = None  # the raw copy set aside in gm/mail/failed

    @property
    def rejected(self) -> bool:
        return any(b.status == REJECTED for b in self.blocks)

    @property
    def name(self) -> str:
        return f"{self.source} {self.message_id}".rstrip()

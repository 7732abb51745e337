"""A player's lost key replaced mid-campaign (``pbem player-key``, DESIGN.md section 8).

The GM's command queues the change in ``gm/key_changes.toml``, for the next record the GM
writes; that record carries it as ``[[key_changes]]`` (``principal``, ``old``, ``new``,
``reason``) and it takes effect from the record after (docs/protocol.md section 6): the record
that carries it is signed, and the orders of its phase verified, with the keys before it.
So an order already accepted for the open phase with the old key stands, and the new key
signs from the next phase on. The GM signs the record, so the change is the GM's statement,
and every audit checks each order against the key valid for its record.

The queue file names the record it is for. A run killed after writing that record but before
emptying the queue leaves a file for a record that exists: it is stale, never applied twice.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Final

import tomli

from pbem.core import escape, ledger, sshsig
from pbem.core.campaign import GM_PRINCIPAL, Campaign, apply_key_change, key_text
from pbem.core.errors import CampaignError, Problem, SignatureError
from pbem.core.fsutil import CampaignLock, atomic_write
from pbem.core.keys import parse_public_key
from pbem.core.orders import OrderFile
from pbem.core.values import FrozenValue

QUEUE = "key_changes.toml"
#: ``reason`` is published in the ledger (docs/protocol.md section 6).
MAX_REASON = 1000
DEFAULT_REASON = "key replaced by the GM"


class KeyChange(FrozenValue):
    """A player's (or the GM's) key change, its keys parsed: carried by ``record`` (queued
    for the next record, or a ``[[key_changes]]`` entry of the ledger), in effect from
    ``from_record``."""

    _fields = ("player", "old", "new", "reason", "record")
    __slots__ = _fields
    player: Final[str]
    old: Final[bytes]
    new: Final[bytes]
    reason: Final[str]
    record: Final[int]

    def __init__(self, player: str, old: bytes, new: bytes, reason: str, record: int) -> None:
        self.player = player
        self.old = old
        self.new = new
        self.reason = reason
        self.record = record

    @property
    def from_record(self) -> int:
        return self.record + 1

    @classmethod
    def of(cls, entry: dict[str, Any], record: int) -> KeyChange:
        """A ``[[key_changes]]`` entry (queue or ledger, shapes checked) of ``record``."""
        return cls(entry["principal"], parse_public_key(entry["old"]),
                   parse_public_key(entry["new"]), entry["reason"], record)


def _read(campaign: Campaign) -> tuple[int, list[dict[str, Any]]]:
    if not os.path.exists(f"{campaign.gm_dir}/{QUEUE}"):  # most records: one stat
        return 0, []
    path = campaign.gm_dir / QUEUE
    try:
        data = tomli.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return 0, []
    except (UnicodeDecodeError, tomli.TOMLDecodeError) as exc:
        raise CampaignError(f"{path} is damaged ({exc}); delete it and run pbem player-key "
                            "again") from None
    return int(data.get("record", 0)), list(data.get("key_changes", []))


def due(campaign: Campaign, seq: int) -> list[dict[str, Any]]:
    """The changes record ``seq`` carries (checked against the keys valid for it), or []."""
    record, changes = _read(campaign)
    if record != seq or not changes:
        return []
    keys = campaign.keys_at(seq)
    for i, change in enumerate(changes):
        apply_key_change(keys, change, f"{campaign.gm_dir / QUEUE} key_changes[{i}]")
    return changes


def done(campaign: Campaign, seq: int) -> None:
    """Record ``seq`` is written: a queue for it (or for an earlier record) goes."""
    record, _ = _read(campaign)
    if record and record <= seq:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(campaign.gm_dir / QUEUE)


def pending(campaign: Campaign) -> list[KeyChange]:
    """The changes waiting for the next record (none when the queue is stale)."""
    record, changes = _read(campaign)
    if record != ledger.count(campaign.ledger_dir) + 1:
        return []
    return [KeyChange.of(c, record) for c in changes]


def queue(campaign: Campaign, player: str, new: bytes, reason: str = DEFAULT_REASON) -> KeyChange:
    """Queue ``player``'s key change to ``new`` for the next record (the GM's copy, version 2).

    Refused: a version 1 campaign (its keys are in no signed file), a finished game, a name
    that is not a player (the GM's own key is not changed this way), a key that is already a
    principal's, a reason that is empty, too long, or holds characters others may not read."""
    if campaign.version < 2:
        raise CampaignError(f"campaign {campaign.id} is a version 1 campaign: its keys are in "
                            "no signed file, so a key change could not be audited. Start a "
                            "new campaign (pbem new writes version 2) to change keys")
    if player == GM_PRINCIPAL:
        raise CampaignError("pbem player-key replaces a player's key; the GM's own key is "
                            "not changed by this command")
    if player not in campaign.players:
        raise CampaignError(f"{player!r} is not a player of campaign {campaign.id} (players: "
                            f"{', '.join(campaign.players)})")
    reason = reason.strip()
    if not reason or len(reason) > MAX_REASON or "\n" in reason:
        raise CampaignError(f"--reason must be one line of 1 to {MAX_REASON} characters")
    for ch, why in escape.refused_in(reason):
        raise CampaignError(f"--reason contains {escape.describe(ch)}, {why}: the reason is "
                            "published in the ledger; remove it")
    with CampaignLock(campaign.gm_dir):
        seq = ledger.count(campaign.ledger_dir) + 1
        if seq > 1 and _game_over(campaign, seq - 1):
            raise CampaignError("the game is over: no record will carry a key change")
        record, changes = _read(campaign)
        if record != seq:
            changes = []  # a stale queue, for a record already written
        keys = campaign.keys_at(seq)
        for i, change in enumerate(changes):
            apply_key_change(keys, change, f"queued key_changes[{i}]")
        change = {"principal": player, "old": key_text(keys[player]), "new": key_text(new),
                  "reason": reason}
        for other, key in keys.items():
            if key == new:
                same = "already the key of " + ("the GM" if other == GM_PRINCIPAL else other)
                raise CampaignError(f"{sshsig.fingerprint(new)} is {same}: a key change must "
                                    "give the player a key of their own, new to the campaign")
        changes.append(change)
        import tomli_w  # here: only a key change writes the queue

        atomic_write(campaign.gm_dir / QUEUE,
                     tomli_w.dumps({"record": seq, "key_changes": changes}).encode(), 0o600,
                     durable=campaign.durable)
        return KeyChange(player, keys[player], new, reason, seq)


def _game_over(campaign: Campaign, seq: int) -> bool:
    data = (campaign.ledger_dir / ledger.record_name(seq)).read_bytes()
    return bool(ledger.load(data, ledger.record_name(seq)).get("game_over"))


def explain(campaign: Campaign, order: OrderFile, exc: SignatureError) -> SignatureError:
    """``exc``, the refusal of an order whose key is not the player's now, said better when
    the key is the player's former key (a ``[[key_changes]]`` of the ledger replaced it), or
    (the GM's copy knows) the new key queued for the next record."""
    block = order.block
    if block.signature is None:
        return exc
    try:
        signer = sshsig.parse_armor(block.signature).public_key
    except SignatureError:
        return exc
    player = order.envelope.player
    for change in pending(campaign) if campaign.is_gm else []:
        if change.player == player and change.new == signer:
            return SignatureError(Problem(
                "signature", f"signed by {player}'s new key {sshsig.fingerprint(signer)}, "
                f"which the GM registered from record {change.from_record} on (the phase "
                "after the open one)",
                "the open phase still takes the old key; if you no longer have it, wait for "
                "the next report and sign its form with the new key"), exc.source)
    former = former_keys(campaign).get((player, signer))
    if former is not None:
        seq, reason = former
        return SignatureError(Problem(
            "signature", f"signed by {player}'s former key {sshsig.fingerprint(signer)}, "
            f"which the GM replaced from record {seq + 1} on (the GM: {reason})",
            "sign with your new key; if you did not ask for the change, keep this file: "
            "pbem receipts shows the change"), exc.source)
    return exc


def ledger_changes(campaign: Campaign) -> list[KeyChange]:
    """Every key change the ledger holds, in order (the GM's too, as principal ``gm``)."""
    return [KeyChange.of(c, seq)
            for seq, changes in campaign.key_changes(ledger.count(campaign.ledger_dir))
            for c in changes]


def former_keys(campaign: Campaign) -> dict[tuple[str, bytes], tuple[int, str]]:
    """(player, key) -> (the record whose key change replaced it, the GM's reason), the last
    such change of each; keys given back later are the player's again, not former."""
    return {(c.player, c.old): (c.record, c.reason) for c in ledger_changes(campaign)}

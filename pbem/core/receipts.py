"""``pbem receipts``: a player checks a published campaign against what they hold.

No audit can tell a faithful copy from a fork in which the GM swapped a player's key and
replayed the game with other orders, nor a ledger cut short at its end: both are internally
consistent. Only the player knows which key is theirs and what they sent. This module takes
the signed order files the player kept (in the order they sent them) and their own public
key, and checks, against the published files alone (DESIGN.md section 8, Receipts):

* ``allowed_signers`` gives the player their own key, and no other;
* every file is signed by that key and names this campaign and this player;
* for each phase the player sent orders for, the last file they sent for it is the
  commitment in that phase's record; a phase whose record lists them under ``nmr``, or a
  phase that is in no record although the ledger went past it, is a mismatch;
* a phase still open is said to be waiting, not a mismatch;
* in a version 2 campaign, every file names this ``campaign.toml`` (its ``campaign_hash``);
* every receipt (:func:`format_receipt`, printed by ``pbem submit`` and in every mail reply)
  names this campaign.toml, and the ledger head it showed is in this copy's chain.

Each mismatch is named. It reads the published files only: a player needs no GM secret.
"""

from __future__ import annotations

import re
from typing import Final

from pbem.core import armor, ledger, shapes, sshsig
from pbem.core import orders as orders_mod
from pbem.core.campaign import Campaign
from pbem.core.errors import PbemError
from pbem.core.keychange import ledger_changes
from pbem.core.values import FrozenValue, Value

#: The first line of a receipt; the three lines after it give the commitment, the ledger
#: head when the orders were accepted, and the sha256 of campaign.toml. Each line stays
#: within 78 columns, so mail clients do not wrap it, and a quote marker (">") before it is
#: allowed: a player may keep the receipt as the reply they got or quote it.
RECEIPT_TAG = "pbem-receipt/2"
#: (A pattern, compiled when a text is first read for receipts, not by ``pbem submit``.)
_RECEIPT = (
    r"^[> \t]*" + re.escape(RECEIPT_TAG) + r" (?P<player>[a-z][a-z0-9_-]{0,31}) "
    r"(?P<phase>\S{1,64})[ \t]*\r?\n"
    r"[> \t]*commitment (?P<commitment>[0-9a-f]{64})[ \t]*\r?\n"
    r"[> \t]*head (?P<seq>[0-9]{1,7}) (?P<head>[0-9a-f]{64})[ \t]*\r?\n"
    r"[> \t]*campaign (?P<campaign>[0-9a-f]{64})[ \t]*$")


def format_receipt(player: str, phase: str, commitment: str, head_seq: int, head_hash: str,
                   campaign_hash: str) -> str:
    """The receipt of one accepted order file, four lines (DESIGN.md section 8, Receipts):
    what ``pbem receipts`` reads back from a saved reply or a ``pbem submit`` output."""
    return (f"{RECEIPT_TAG} {player} {phase}\n commitment {commitment}\n"
            f" head {head_seq} {head_hash}\n campaign {campaign_hash}\n")


class Receipt(FrozenValue):
    _fields = ("player", "phase", "commitment", "head_seq", "head_hash", "campaign_hash")
    __slots__ = _fields
    player: Final[str]
    phase: Final[str]
    commitment: Final[str]
    head_seq: Final[int]
    head_hash: Final[str]
    campaign_hash: Final[str]

    def __init__(self, player: str, phase: str, commitment: str, head_seq: int,
                 head_hash: str, campaign_hash: str) -> None:
        self.player = player
        self.phase = phase
        self.commitment = commitment
        self.head_seq = head_seq
        self.head_hash = head_hash
        self.campaign_hash = campaign_hash


def parse_receipts(text: str) -> list[Receipt]:
    """Every receipt in ``text``, in order (a whole reply or output is fine)."""
    return [Receipt(m["player"], m["phase"], m["commitment"], int(m["seq"]), m["head"],
                    m["campaign"]) for m in re.finditer(_RECEIPT, text, re.MULTILINE)]


class Check(Value):
    """What ``pbem receipts`` found: one line per phase or file, and the mismatches."""

    _fields = ("lines", "mismatches")
    __slots__ = _fields

    def __init__(self, lines: list[str] | None = None, mismatches: list[str] | None = None
                 ) -> None:
        self.lines: list[str] = [] if lines is None else lines
        self.mismatches: list[str] = [] if mismatches is None else mismatches

    def ok(self, text: str) -> None:
        self.lines.append(f"ok: {text}")

    def bad(self, text: str) -> None:
        self.lines.append(f"MISMATCH: {text}")
        self.mismatches.append(text)


def check(campaign: Campaign, player: str, key: bytes | list[bytes] | None,
          files: list[tuple[str, str]]) -> Check:
    """Check ``campaign`` (a published copy is enough) for ``player``, whose public key is
    ``key`` (None: the published one is taken on trust, and the result says so), against
    ``files`` (name, text), the signed order files and receipts in the order they were sent.

    A player whose key the GM replaced (``[[key_changes]]``) gives all their keys, old and
    new: every key the campaign ever gave them must be one of those, or the GM swapped one
    (even for a single record), and each file must be signed by one of them."""
    out = Check()
    if player not in campaign.players:
        out.bad(f"{player!r} is not a player of campaign {campaign.id} (players: "
                f"{', '.join(campaign.players)})")
        return out
    where_keys = "campaign.toml [keys]" if campaign.version >= 2 else "allowed_signers"
    published = campaign.signers_at(ledger.count(campaign.ledger_dir) + 1).keys_for(
        player, sshsig.NAMESPACE_ORDERS)
    history = key_history(campaign, player)
    for seq, old, new, reason in history[1:]:
        out.lines.append(f"note: record {seq:06d} changes your key from "
                         f"{sshsig.fingerprint(old)} to {sshsig.fingerprint(new)} from record "
                         f"{seq + 1} on (the GM: {reason})")
    mine = [key] if isinstance(key, bytes) else list(key or [])
    keys_used: list[bytes]
    if not mine:
        keys_used = [k for _, _, k, _ in history] or published
        out.lines.append(f"note: no --key given: the key {where_keys} publishes for "
                         f"{player} is taken on trust; give yours to detect a swapped key")
    else:
        keys_used = mine
        if not history[1:]:
            if len(published) != 1 or published[0] not in mine:
                shown = ", ".join(sshsig.fingerprint(k) for k in published) or "none"
                out.bad(f"{where_keys} gives {player} the key {shown}, not yours "
                        f"({', '.join(sshsig.fingerprint(k) for k in mine)}): this copy is "
                        "not the campaign you joined, or the GM changed your key")
            else:
                out.ok(f"{where_keys} gives {player} your key "
                       f"{sshsig.fingerprint(published[0])}")
        else:
            for seq, _, given, _ in history:
                whence = where_keys if seq == 0 else f"record {seq:06d}'s key change"
                if given in mine:
                    out.ok(f"{whence} gives {player} your key {sshsig.fingerprint(given)}")
                else:
                    out.bad(f"{whence} gives {player} the key {sshsig.fingerprint(given)}, "
                            "not one of yours: the GM changed your key, or this copy is not "
                            "the campaign you joined (give every key of yours, old and new, "
                            "with --key)")

    last: dict[str, tuple[str, str]] = {}  # phase -> (commitment, where), the last one sent
    for name, text in files:
        try:
            blocks = armor.extract(text, name)
        except PbemError as exc:
            out.bad(f"{name}: {exc}")
            continue
        found = parse_receipts(text)
        if not blocks and not found:
            out.bad(f"{name}: no order block or receipt found")
        for n, receipt in enumerate(found, start=1):
            where = f"{name} (receipt {n})" if len(found) > 1 else f"{name} (receipt)"
            _one_receipt(campaign, player, receipt, where, last, out)
        for block in blocks:
            where = f"{name} (block at line {block.line})" if len(blocks) > 1 else name
            _one_block(campaign, player, keys_used, block, where, last, out)

    records, open_phase = _phases(campaign)
    for phase, (commitment, where) in last.items():
        record = records.get(phase)
        if record is None:
            if phase == open_phase:
                out.lines.append(f"waiting: {phase} is not adjudicated yet ({where}, "
                                 f"commitment {commitment})")
            else:
                out.bad(f"{phase}: no published record adjudicated it, yet you sent "
                        f"{commitment} ({where}): the ledger is cut short or forked")
            continue
        seq, commitments, nmr = record
        if player in nmr:
            out.bad(f"{phase}: record {seq:06d} lists you as sending nothing (nmr), yet you "
                    f"sent {commitment} ({where})")
        elif commitments.get(player) != commitment:
            out.bad(f"{phase}: record {seq:06d} holds commitment "
                    f"{commitments.get(player) or 'none'} for you; the last file you sent for "
                    f"it has {commitment} ({where})")
        else:
            out.ok(f"{phase}: record {seq:06d} holds your commitment {commitment}")
    if not last and not out.mismatches:
        out.lines.append("note: no order file of yours was given: only the key was checked")
    return out


def key_history(campaign: Campaign, player: str) -> list[tuple[int, bytes, bytes, str]]:
    """Every key the campaign gave ``player``: (0, -, key, -) from campaign.toml (or
    allowed_signers), then (seq, old, new, reason) for each key change of record ``seq``."""
    base = campaign.base_keys().get(player)
    out = [] if base is None else [(0, base, base, "")]
    return out + [(c.record, c.old, c.new, c.reason) for c in ledger_changes(campaign)
                  if c.player == player]


def _one_block(campaign: Campaign, player: str, keys: list[bytes], block: armor.Block,
               where: str, last: dict[str, tuple[str, str]], out: Check) -> None:
    try:
        order = orders_mod.parse(block, where, check_text=False)
    except PbemError as exc:
        out.bad(f"{where}: {exc}")
        return
    env = order.envelope
    if env.player != player:
        out.lines.append(f"skipped: {where} is {env.player}'s, not {player}'s")
        return
    if env.campaign != campaign.id:
        out.bad(f"{where}: made for campaign {env.campaign!r}, this is {campaign.id!r}")
        return
    if campaign.version >= 2 and env.campaign_hash != campaign.hash:
        out.bad(f"{where}: made for the campaign.toml with sha256 {env.campaign_hash or 'none'}"
                f", this copy's is {campaign.hash}: a fork, or another campaign of that name")
        return
    if block.signature is None:
        out.bad(f"{where}: not signed")
        return
    try:
        sig = sshsig.parse_armor(block.signature)
        sshsig.verify(block.body_bytes, sig, sshsig.NAMESPACE_ORDERS, keys)
    except PbemError as exc:
        out.bad(f"{where}: not signed by your key: {exc}")
        return
    last[env.phase] = (order.commitment, where)


def _one_receipt(campaign: Campaign, player: str, receipt: Receipt, where: str,
                 last: dict[str, tuple[str, str]], out: Check) -> None:
    if receipt.player != player:
        out.lines.append(f"skipped: {where} is {receipt.player}'s, not {player}'s")
        return
    if receipt.campaign_hash != campaign.hash:
        out.bad(f"{where}: names the campaign.toml with sha256 {receipt.campaign_hash}, this "
                f"copy's is {campaign.hash}: a fork, or another campaign")
        return
    seq, shown = receipt.head_seq, receipt.head_hash
    if seq == 0:
        actual: str | None = ledger.file_hash(campaign.campaign_bytes)
    else:
        path = campaign.ledger_dir / ledger.record_name(seq)
        actual = ledger.file_hash(path.read_bytes()) if path.is_file() else None
    if actual is None:
        out.bad(f"{where}: you were shown ledger head {seq} {shown}, and this copy has no "
                f"record {seq}: the ledger is cut short")
    elif actual != shown:
        out.bad(f"{where}: you were shown ledger head {seq} {shown}; record {seq} of this "
                f"copy hashes to {actual}: the chain was rewritten (a fork)")
    else:
        out.ok(f"{where}: the ledger head you were shown ({seq}) is in this chain")
    last[receipt.phase] = (receipt.commitment, where)


def _phases(campaign: Campaign) -> tuple[dict[str, tuple[int, dict[str, str], list[str]]], str]:
    """phase id -> (seq, commitments, nmr) of every published record, shapes checked; and
    the phase the last record opened (the join phase before any record, "" once over)."""
    from pbem.core.ruleset import JOIN_PHASE

    found: dict[str, tuple[int, dict[str, str], list[str]]] = {}
    open_phase = JOIN_PHASE
    for seq, data in ledger.iter_records(campaign.ledger_dir):
        try:
            rec = ledger.load(data, ledger.record_name(seq), memo=False)
            shapes.check_record(rec, seq)
        except PbemError as exc:  # an AuditError from the shape check too
            raise PbemError(f"ledger/{ledger.record_name(seq)} is damaged ({exc}): run "
                            "pbem audit on this copy") from None
        found[rec["phase"]] = (seq, rec["commitments"], rec["nmr"])
        open_phase = rec["next_phase"]
    return found, open_phase

"""``pbem audit``: everything DESIGN.md sections 3-5 define, checked by replay.

Pass 1 streams the ledger and checks what anyone can check at any time: the GM's signatures,
the hash chain of records, the seed chain, the entropy mix, every public draw, and every
published order file (signature, envelope, commitment, entropy). Pass 2 re-adjudicates every
phase from the previous state and rebuilds each record byte for byte; it needs the sealed
orders and the sealed chain, so it runs on the GM's directory at any time and on a public copy
once the game is over and everything has been revealed. The first failure is raised as an
:class:`AuditError` naming the record and field.

Both passes can use several processes (``jobs``). Pass 1's costly checks of each record (the
GM's detached signature, the TOML, the shape, the order files' signatures) do not depend on
the records before it, so forked workers do them ahead of the parent, which walks the records
in order and does every check that follows the chain; what a worker found sound the parent
does not check again, and whatever a worker could not confirm the parent checks itself, so
the first failure and its message are the same on one process or many.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.core import armor, dice, ledger, shapes, sshsig, workers
from pbem.core import orders as orders_mod
from pbem.core.campaign import Campaign, apply_key_change
from pbem.core.errors import AuditError, PbemError
from pbem.core.fsutil import TEMP_NAME
from pbem.core.orders import OrderFile
from pbem.core.ruleset import State

Say = Callable[[str], None]


@dataclass
class AuditResult:
    records: int = 0
    replayed: bool = False
    game_over: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass
class _Seen:
    """What pass 1 keeps of each record for pass 2, which then parses neither the record
    nor its published order files again (each is parsed once per audit; no events kept)."""

    phase: str
    seed: bytes
    mix: bytes
    sealed_count: int
    sealed_digest: str
    #: sha256 of the record's bytes as pass 1 checked them: pass 2 re-adjudicates those
    #: bytes and no others, so it need not check their signatures again.
    digest: str = ""
    commitments: dict[str, str] = field(default_factory=dict)
    entropy: dict[str, str] = field(default_factory=dict)
    key_changes: list[dict[str, Any]] | None = None
    #: The order files committed to in this record that pass 1 checked: published in it, or
    #: revealed by a later record (a sealed file not yet revealed is the GM's copy).
    orders: dict[str, OrderFile] = field(default_factory=dict)


def _verify_detached(campaign: Campaign, data: bytes, sig_path_name: str, seq: int | None,
                     what: str) -> None:
    path = campaign.root / sig_path_name
    if not path.is_file():
        raise AuditError(seq, "signature", f"{sig_path_name} is missing")
    try:
        sig = sshsig.parse_armor(path.read_text())
        # campaign.toml: the key it names (or allowed_signers' in version 1); record k: the
        # GM's key valid for k (a key change takes effect from the record after its own).
        sshsig.verify(data, sig, sshsig.NAMESPACE_LEDGER, [campaign.gm_public_key(seq or 0)])
    except PbemError as exc:
        raise AuditError(seq, "signature", f"{what}: {exc}") from None


def _hex32(record: dict[str, Any], key: str, seq: int | None) -> bytes:
    value = record.get(key)
    if not isinstance(value, str) or len(value) != 64:
        raise AuditError(seq, key, "missing or not 64 hex digits")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise AuditError(seq, key, "not hex") from None


def _check_order_text(campaign: Campaign, text: str, seq: int, field_name: str, player: str,
                      phase: str, commitment: str, entropy: str,
                      signed_at: int | None = None, checked: _Order | None = None
                      ) -> OrderFile:
    """An order file the record ``seq`` publishes or re-adjudicates, committed in record
    ``signed_at`` (default ``seq``): its signature by the keys valid then, envelope,
    commitment, entropy and canonical form. ``checked``: what a pass-1 worker found of
    ``text`` (:func:`_order_file` passed)."""
    order = checked.order if checked is not None else _order_file(
        campaign, text, seq, field_name, signed_at or seq)
    env = order.envelope
    if (env.campaign, env.player, env.phase) != (campaign.id, player, phase):
        raise AuditError(seq, field_name, f"envelope says campaign {env.campaign!r}, player "
                         f"{env.player!r}, phase {env.phase!r}")
    if campaign.version >= 2 and (env.format, env.campaign_hash) != (
            orders_mod.ORDERS_FORMAT, campaign.hash):
        raise AuditError(seq, field_name, f"is a {env.format} file for campaign_hash "
                         f"{env.campaign_hash or 'none'}, not a {orders_mod.ORDERS_FORMAT} file "
                         f"for this campaign.toml ({campaign.hash})")
    if campaign.version < 2 and env.format != orders_mod.ORDERS_FORMAT_V1:
        raise AuditError(seq, field_name, f"is a {env.format} file in a version 1 campaign")
    if order.commitment != commitment:
        raise AuditError(seq, field_name, f"commitment is {order.commitment}, the record "
                         f"committed to {commitment}")
    if env.entropy != entropy:
        raise AuditError(seq, field_name, "entropy differs from the record's [entropy] entry")
    if not (checked.canonical if checked is not None else order.canonical_text() == text):
        raise AuditError(seq, field_name, "not in canonical form")
    return order


def _order_file(campaign: Campaign, text: str, seq: int, field_name: str, signed_at: int
                ) -> OrderFile:
    """The part of :func:`_check_order_text` that needs nothing but the text and the keys
    valid for record ``signed_at``: one order block, its TOML, its signature."""
    try:
        blocks = armor.extract(text, field_name)
        if len(blocks) != 1:
            raise AuditError(seq, field_name, "must hold exactly one order block")
        # Text rules of later versions (no bidi or invisible characters) are not applied to
        # published records: an older ledger audits as it was accepted.
        order = orders_mod.parse(blocks[0], field_name, check_text=False)
        # The keys valid for the record that committed to it (``seq`` of that record).
        orders_mod.check_signature(order, campaign.signers_at(signed_at), field_name)
    except PbemError as exc:
        if isinstance(exc, AuditError):
            raise
        raise AuditError(seq, field_name, str(exc)) from None
    return order


@dataclass
class _Order:
    """An order file a pass-1 worker checked: :func:`_order_file` passed for ``text`` with the
    keys valid for record ``signed_at``; ``canonical``: the text is in canonical form."""

    text: str
    signed_at: int
    order: OrderFile
    canonical: bool


@dataclass
class _Checked:
    """What a pass-1 worker found sound in record ``seq``. It keeps successes only: whatever
    it could not confirm, the parent checks again in order and says why, as one process
    would, so no message depends on the workers."""

    seq: int
    digest: str                                # sha256 of the bytes it read
    gm_key: bytes | None = None                # the GM key their signature verified under
    record: dict[str, Any] | None = None       # parsed, and of a ledger record's shape
    orders: dict[str, _Order] = field(default_factory=dict)  # by field name: orders.P, ...

    def order(self, where: str, text: str, signed_at: int) -> _Order | None:
        found = self.orders.get(where)
        return found if found is not None and (found.text, found.signed_at) == (
            text, signed_at) else None


def _check_ahead(campaign: Campaign, seq: int, data: bytes) -> _Checked:
    """Pass 1's costly checks of one record that need no record before it: the GM's detached
    signature (under the GM key valid for ``seq``), the TOML, the shape, and each order
    file's armor, TOML, signature (by the keys valid when it was committed) and form."""
    done = _Checked(seq, ledger.file_hash(data))
    name = ledger.record_name(seq)
    try:
        sig = sshsig.parse_armor((campaign.ledger_dir / f"{name}.sig").read_text())
        key = campaign.gm_public_key(seq)
        sshsig.verify(data, sig, sshsig.NAMESPACE_LEDGER, [key])
        done.gm_key = key
        rec = ledger.load(data, name, memo=False)
        shapes.check_record(rec, seq)
        texts = [(f"orders.{p}", text, seq) for p, text in rec.get("orders", {}).items()]
        texts += [(f"revealed[{i}]", item["text"], item["seq"] or seq)
                  for i, item in enumerate(rec.get("revealed", []))]
    except Exception:  # the parent meets it again, in order, and says it
        return done
    done.record = rec
    for where, text, signed_at in texts:
        try:
            order = _order_file(campaign, text, seq, where, signed_at)
            done.orders[where] = _Order(text, signed_at, order, order.canonical_text() == text)
        except Exception:  # as above
            continue
    return done


#: Records per task of a pass-1 worker: small, so the parent soon has records to walk.
AHEAD_CHUNK = 16

_ahead_campaign: Campaign | None = None  # what pass-1 workers inherit at the fork


def _check_chunk(first: int, last: int) -> list[_Checked]:
    assert _ahead_campaign is not None
    out = []
    for seq, data in ledger.iter_records(_ahead_campaign.ledger_dir, first):
        if seq > last:
            break
        out.append(_check_ahead(_ahead_campaign, seq, data))
    return out


class _Ahead:
    """Pass 1's workers: ``jobs`` forked processes check chunks of the ``count`` records
    ahead of the parent, a few chunks at most (so memory stays flat however long the ledger),
    when the ledger has at least :data:`MIN_SPAN` records per process. The parent takes the
    records in order (:meth:`records`); with no worker it checks each one all by itself."""

    def __init__(self, campaign: Campaign, count: int, jobs: int) -> None:
        global _ahead_campaign
        self.count = count
        self.next_first = 1
        self.pending: deque[tuple[int, Future[list[_Checked]]]] = deque()
        self.ready: dict[int, _Checked] = {}
        self.ready_last = 0
        jobs = min(jobs, count // MIN_SPAN)
        self.pool: ProcessPoolExecutor | None = None
        if jobs > 1 and workers.can_fork():
            _ahead_campaign = campaign
            self.pool = workers.fork_pool(jobs)
            for _ in range(2 * jobs):
                self._submit()

    def _submit(self) -> None:
        if self.pool is None or self.next_first > self.count:
            return
        last = min(self.next_first + AHEAD_CHUNK - 1, self.count)
        try:
            self.pending.append((last, self.pool.submit(_check_chunk, self.next_first, last)))
        except Exception:  # a broken pool: the parent checks the rest itself
            last = self.count
        self.next_first = last + 1

    def _get(self, seq: int) -> _Checked | None:
        while self.ready_last < seq and self.pending:
            self.ready_last, future = self.pending.popleft()
            self._submit()
            try:
                found = future.result()
            except Exception:  # a lost worker: the parent checks these itself
                found = []
            self.ready = {done.seq: done for done in found}
        return self.ready.pop(seq, None)

    def records(self, ledger_dir: Path) -> Iterator[tuple[int, bytes | None, _Checked | None]]:
        """Each record in order, as :func:`ledger.iter_records` gives them, with what a worker
        found. The bytes are ``None`` when a worker read them and checked everything that
        needs them (the signature, the TOML): the parent does not read them again."""
        seq = 1
        while True:
            done = self._get(seq) if self.pool is not None else None
            if done is not None and done.gm_key is not None and done.record is not None:
                yield seq, None, done
            else:
                path = ledger_dir / ledger.record_name(seq)
                if not path.is_file():
                    return
                data = path.read_bytes()
                yield seq, data, done if done is not None and done.digest == ledger.file_hash(
                    data) else None
            seq += 1

    def close(self) -> None:
        global _ahead_campaign
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
        self.pending.clear()
        _ahead_campaign = None


def audit(campaign: Campaign, say: Say = lambda _: None, *, explain: int | None = None,
          jobs: int = 1) -> AuditResult:
    """Audit the campaign; raises :class:`AuditError` at the first failure. The GM's audit
    re-adjudicates on up to ``jobs`` processes (see :func:`_replay`)."""
    result = AuditResult()
    cfg = campaign.config
    _verify_detached(campaign, campaign.campaign_bytes, "campaign.toml.sig", None,
                     "campaign.toml")
    seed_anchor = _hex32(cfg, "seed_anchor", None)
    sealed_anchor = _hex32(cfg, "sealed_anchor", None)
    say(f"campaign.toml: signed by gm {sshsig.fingerprint(campaign.gm_public_key())}")
    sealed_head: bytes | None = None
    if campaign.is_gm:
        s_head, sealed_head = campaign.heads()
        if dice.chain_anchor(s_head, campaign.chain_length) != seed_anchor:
            raise AuditError(None, "seed_anchor", "does not match the GM's secret seed head")
        if dice.chain_anchor(sealed_head, campaign.chain_length) != sealed_anchor:
            raise AuditError(None, "sealed_anchor", "does not match the GM's secret sealed head")

    _check_signers(campaign, say)
    expected = _check_listing(campaign, say)

    # ---- pass 1: what is public -------------------------------------------------------
    seen: list[_Seen] = []
    revealed_texts: dict[tuple[int, str], str] = {}
    sealed_commits: dict[tuple[int, str], tuple[str, str, str]] = {}
    prev_hash = ledger.file_hash(campaign.campaign_bytes)
    prev_seed, prev_mix = seed_anchor, dice.mix_initial(campaign.id)
    final: dict[str, Any] | None = None
    # Forked workers check records ahead of this loop (when the ledger is long enough):
    # what one found sound (``done``) is not checked again here.
    ahead = _Ahead(campaign, expected, jobs)
    gm_key: bytes | None = None  # the GM's key for this record, once asked (None: ask)
    try:
        for seq, data, done in ahead.records(campaign.ledger_dir):
            if final is not None:
                raise AuditError(seq, "seq", "a record follows the game's final record")
            name = ledger.record_name(seq)
            if done is not None and done.gm_key is not None and gm_key is None:
                with contextlib.suppress(PbemError):  # said by _verify_detached below
                    gm_key = campaign.gm_public_key(seq)
            if done is None or done.gm_key is None or done.gm_key != gm_key:
                if data is None:  # the worker's GM key is not this record's: read it here
                    assert done is not None
                    data = (campaign.ledger_dir / name).read_bytes()
                    if ledger.file_hash(data) != done.digest:
                        done = None
                _verify_detached(campaign, data, f"ledger/{name}.sig", seq, name)
            if done is not None:
                digest = done.digest
            else:
                assert data is not None
                digest = ledger.file_hash(data)
            if done is not None and done.record is not None:
                rec = done.record
            else:
                assert data is not None
                try:
                    rec = ledger.load(data, name, memo=False)
                except PbemError as exc:
                    raise AuditError(seq, "format", str(exc)) from None
            if rec.get("format") != campaign.ledger_format:
                raise AuditError(seq, "format", f"is {rec.get('format')!r}; the records of a "
                                 f"{campaign.config['format']} campaign are "
                                 f"{campaign.ledger_format}")
            # Nothing of a record is used before its shape is known: a hostile record with a
            # valid GM signature fails here, by field, never as a crash or an endless loop.
            if done is None or done.record is None:  # a worker's record has passed it
                shapes.check_record(rec, seq)
            if rec.get("seq") != seq:
                raise AuditError(seq, "seq", f"is {rec.get('seq')!r}")
            if rec.get("prev") != prev_hash:
                raise AuditError(seq, "prev", "is not the sha256 of the previous record's bytes")
            s_k = _hex32(rec, "seed", seq)
            if hashlib.sha256(s_k).digest() != prev_seed:
                raise AuditError(seq, "seed", "sha256(seed) is not the previous record's seed "
                                 "(or seed_anchor)")
            phase = rec.get("phase")
            commitments, entropy = rec.get("commitments", {}), rec.get("entropy", {})
            if not isinstance(phase, str) or not isinstance(commitments, dict) or not isinstance(
                    entropy, dict):
                raise AuditError(seq, "phase", "phase, [commitments] or [entropy] malformed")
            if set(commitments) != set(entropy):
                raise AuditError(seq, "entropy", "players differ from [commitments]")
            mix = dice.mix_next(prev_mix, entropy)
            if rec.get("mix") != mix.hex():
                raise AuditError(seq, "mix", f"recomputes to {mix.hex()}")
            checked_orders: dict[str, OrderFile] = {}
            for player, text in rec.get("orders", {}).items():
                if player not in commitments:
                    raise AuditError(seq, f"orders.{player}", "published without a commitment")
                checked_orders[player] = _check_order_text(
                    campaign, text, seq, f"orders.{player}", player, phase,
                                  commitments[player], entropy[player], checked=done.order(
                                      f"orders.{player}", text, seq) if done else None)
            for player in commitments:
                if player not in rec.get("orders", {}):
                    sealed_commits[(seq, player)] = (phase, commitments[player], entropy[player])
            for i, item in enumerate(rec.get("revealed", [])):
                key: tuple[int, str] = (item.get("seq"), item.get("player"))
                if key not in sealed_commits:
                    raise AuditError(seq, f"revealed[{i}]", f"no sealed commitment of {key}")
                r_phase, r_commit, r_entropy = sealed_commits.pop(key)
                order = _check_order_text(
                    campaign, item.get("text", ""), seq, f"revealed[{i}]", key[1], r_phase,
                    r_commit, r_entropy, signed_at=key[0],
                    checked=done.order(f"revealed[{i}]", item.get("text", ""),
                                       key[0] or seq) if done else None)
                revealed_texts[key] = item["text"]
                # For pass 2's replay of the record that committed to it (this one's, too).
                (checked_orders if key[0] == seq else seen[key[0] - 1].orders)[key[1]] = order
            changes = rec.get("key_changes", [])
            if changes:
                gm_key = None  # the GM's key may change from the next record on
            keys = campaign.keys_at(seq) if changes else {}  # earlier records' changes: checked
            for i, change in enumerate(changes):
                try:  # in effect from the next record on; each must fit the keys before it
                    apply_key_change(keys, change, f"ledger record {seq} key_changes[{i}]")
                except PbemError as exc:
                    raise AuditError(seq, f"key_changes[{i}]", str(exc)) from None
                say(f"record {seq:06d}: key of {change['principal']} changed from record "
                    f"{seq + 1:06d} on ({change['reason']})")
            key_pub = dice.phase_key(s_k, campaign.id, phase, mix, sealed=False)
            for j, d in enumerate(rec.get("draws", [])):
                if d.get("i") != j:
                    raise AuditError(seq, f"draws[{j}].i", f"is {d.get('i')!r}")
                try:
                    value = dice.draw_value(key_pub, j, d["label"], d["n"])
                except (KeyError, TypeError, ValueError) as exc:
                    raise AuditError(seq, f"draws[{j}]", f"malformed: {exc}") from None
                if value != d.get("value"):
                    raise AuditError(seq, f"draws[{j}].value", f"recomputes to {value}, "
                                     f"the record says {d.get('value')}")
            sealed = rec.get("sealed", {})
            seen.append(_Seen(phase, s_k, mix, sealed.get("count", -1),
                              sealed.get("digest", ""), digest, commitments, entropy,
                              rec.get("key_changes"), checked_orders))
            if explain == seq:
                _explain(campaign, rec, s_k, mix, say)
            if rec.get("game_over"):
                final = rec
            prev_hash, prev_seed, prev_mix = digest, s_k, mix
            result.records = seq
            say(f"record {seq:06d} {phase}: signature, chain, seed, mix, "
                f"{len(rec.get('draws', []))} draws, "
                f"{len(rec.get('orders', {})) + len(rec.get('revealed', []))} order files ok")
    finally:
        ahead.close()

    if result.records != expected:  # the listing changed while the audit read it
        raise AuditError(result.records + 1, "file", f"the ledger listed {expected} records "
                         f"and {result.records} were read")
    if final is not None:
        result.game_over = True
        head = _hex32(final, "sealed_head", result.records)
        if dice.chain_anchor(head, campaign.chain_length) != sealed_anchor:
            raise AuditError(result.records, "sealed_head", "does not hash down to sealed_anchor")
        if sealed_head is not None and head != sealed_head:
            raise AuditError(result.records, "sealed_head", "is not the GM's sealed head")
        sealed_head = head
        if sealed_commits:
            (k, p), _ = next(iter(sealed_commits.items()))
            raise AuditError(result.records, "revealed", f"the sealed orders of {p} in record "
                             f"{k} were never revealed")
        _check_sealed_draws(campaign, final, seen, head, say)

    # ---- pass 2: re-adjudicate every phase ----------------------------------------------
    if sealed_head is None:
        result.notes.append("sealed orders and states are not public until the game ends: "
                            "phases were not re-adjudicated (the GM's audit does that)")
        say(result.notes[-1])
        return result
    _replay(campaign, seen, sealed_head, revealed_texts,
            final.get("sealed_draws", []) if final is not None else [], say, jobs)
    result.replayed = True
    if campaign.is_gm:
        _check_pending(campaign, say)
    return result


def not_known(campaign: Campaign) -> list[str]:
    """What no audit of the published files can know (docs/protocol.md section 10), said
    after every passed audit so that "passed" never claims more."""
    check = "each player checks their own: pbem receipts DIR --player NAME --key KEY.pub"
    if campaign.version >= 2:
        return [f"not known to any audit: that each key in campaign.toml [keys] is its "
                f"player's, and that this copy is the one the players joined ({check})"]
    return [f"not known to any audit: which key is whose (a version 1 campaign.toml names no "
            f"key), and that this copy is the one the players joined ({check}); version 1 "
            "orders are bound to the campaign id only"]


def _check_signers(campaign: Campaign, say: Say) -> None:
    """``allowed_signers`` is exactly what ``pbem new`` writes (DESIGN.md section 8): the
    line of ``gm`` (namespace pbem-ledger), then one line per player of ``campaign.toml`` in
    its order (namespace pbem-orders), each ``<name> namespaces="<ns>" ssh-ed25519
    <base64>``, nothing else, and no key twice. So no extra key for a player, no wildcard
    principal, no option, no reordering. In version 2 the keys are campaign.toml's signed
    ``[keys]``; a version 1 campaign.toml does not name the keys themselves. Either way,
    which key is whose is what each player checks with their own receipts."""
    from pbem.core.campaign import GM_PRINCIPAL, signers_text

    path = campaign.root / "allowed_signers"
    if not path.is_file():
        raise AuditError(None, "allowed_signers", "is missing")
    text = path.read_bytes()
    if campaign.version >= 2:
        given = campaign.base_keys()
        expected = signers_text(given[GM_PRINCIPAL], [(p, given[p]) for p in campaign.players])
        if text != expected:
            raise AuditError(None, f"allowed_signers line {_first_wrong_line(text, expected)}",
                             "differs from the keys of campaign.toml's signed [keys] table "
                             "(it must be exactly gm, then each player, as pbem new writes "
                             "it)")
        say(f"allowed_signers: exactly the keys of campaign.toml [keys] (gm and "
            f"{len(campaign.players)} players, no key twice)")
        return
    entries = campaign.signers.entries
    names = [GM_PRINCIPAL, *campaign.players]
    if len(entries) != len(names):
        raise AuditError(None, "allowed_signers", f"holds {len(entries)} keys; a campaign of "
                         f"{len(campaign.players)} players has {len(names)} (gm, then each "
                         "player once)")
    for number, (entry, name) in enumerate(zip(entries, names, strict=True), start=1):
        if entry.principals != (name,):
            raise AuditError(None, f"allowed_signers line {number}",
                             f"is for {','.join(entry.principals)!r}; line {number} must be "
                             f"{name!r}'s (gm first, then the players in campaign.toml's order)")
    expected = signers_text(entries[0].public_key,
                            [(n, e.public_key) for n, e in zip(names[1:], entries[1:],
                                                                strict=True)])
    if text != expected:
        raise AuditError(None, f"allowed_signers line {_first_wrong_line(text, expected)}",
                         "is not in the form pbem "
                         "writes (name namespaces=\"...\" ssh-ed25519 KEY, no option, comment "
                         "or other line)")
    keys = [entry.public_key for entry in entries]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            raise AuditError(None, "allowed_signers", f"{names[keys.index(key)]} and {names[i]} "
                             "have the same key")
    say(f"allowed_signers: gm and {len(campaign.players)} players, one key each, in the form "
        "pbem writes")


def _first_wrong_line(text: bytes, expected: bytes) -> int:
    """The number of the first line of ``text`` that is not ``expected``'s (one past the
    end of ``text`` when it stops short)."""
    lines = expected.decode().split("\n")
    found = text.decode("utf-8", "replace").split("\n")
    return next((i for i, (a, b) in enumerate(zip(found, lines, strict=False), start=1)
                 if a != b), len(lines))


RECORD_FILE = re.compile(r"([0-9]{6})\.toml(\.sig)?")


def _check_listing(campaign: Campaign, say: Say) -> int:
    """``ledger/`` holds records 1..N, each with its signature, and nothing else (DESIGN.md
    section 8): a gap, a duplicate under another name, a stray file or a link fails. The
    GM's copy may hold the temp files of a killed command (the next command removes them);
    they are named, never read. Returns N."""
    records: set[int] = set()
    signatures: set[int] = set()
    leftovers: list[str] = []
    try:
        entries = sorted(os.scandir(campaign.ledger_dir), key=lambda e: e.name)
    except FileNotFoundError:
        entries = []
    for entry in entries:
        name = entry.name
        where = f"ledger/{name}"
        match = RECORD_FILE.fullmatch(name)
        if match is None and campaign.is_gm and TEMP_NAME.fullmatch(name):
            leftovers.append(name)
            continue
        if match is None or int(match[1]) == 0:
            raise AuditError(None, where, "is not a ledger record (NNNNNN.toml from 000001) or "
                             "its signature: a public copy holds nothing else in ledger/")
        if not entry.is_file(follow_symlinks=False):  # the directory's own type: no stat
            raise AuditError(int(match[1]), where, "is not a regular file")
        (signatures if match[2] else records).add(int(match[1]))
    last = max(records | signatures, default=0)
    for seq in range(1, last + 1):
        if seq not in records:
            gaps = [k for k in range(1, last + 1) if k not in records]
            raise AuditError(seq, "file", f"ledger/{ledger.record_name(seq)} is missing: the "
                             f"ledger goes up to record {last} and lacks {len(gaps)} of them "
                             f"({', '.join(map(str, gaps[:5]))}{', ...' if len(gaps) > 5 else ''})")
        if seq not in signatures:
            raise AuditError(seq, "signature", f"ledger/{ledger.record_name(seq)}.sig is "
                             "missing")
    say(f"ledger/: {last} records numbered 1 to {last}, each signed, nothing else" +
        (f" (the GM's copy also holds {len(leftovers)} temp files of an interrupted command: "
         f"{', '.join(leftovers)}; the next pbem command removes them)" if leftovers else ""))
    return last


def _check_pending(campaign: Campaign, say: Say) -> None:
    """The order files accepted for the open phase still verify and match their receipts."""
    from pbem.core import engine

    seq, _, phase = engine.open_phase(campaign)
    if phase is None:
        return
    for player, order in engine.pending_orders(campaign, phase).items():
        meta = engine.pending_dir(campaign, phase.id) / f"{player}.toml"
        try:
            orders_mod.check_signature(order, campaign.signers_at(seq + 1),
                                       f"pending {player}")
        except PbemError as exc:
            raise AuditError(seq + 1, f"pending.{player}", str(exc)) from None
        if f'commitment = "{order.commitment}"' not in meta.read_text():
            raise AuditError(seq + 1, f"pending.{player}", "differs from its receipt")
    say(f"open phase {phase.id}: pending order files verified")


def _check_sealed_draws(campaign: Campaign, final: dict[str, Any], seen: list[_Seen],
                        head: bytes, say: Say) -> None:
    seq_final = len(seen)
    by_seq: dict[int, list[dice.Draw]] = {}
    for n, d in enumerate(final.get("sealed_draws", [])):
        try:
            k = d["seq"]
            by_seq.setdefault(k, []).append(dice.Draw(d["i"], d["label"], d["n"], d["value"]))
        except (KeyError, TypeError) as exc:
            raise AuditError(seq_final, f"sealed_draws[{n}]", f"malformed: {exc}") from None
    for k, s in enumerate(seen, start=1):
        draws = by_seq.pop(k, [])
        if len(draws) != s.sealed_count or dice.listing_digest(draws) != s.sealed_digest:
            raise AuditError(k, "sealed.digest", "does not match the revealed sealed draws")
        t_k = dice.chain_value(head, campaign.chain_length, k)
        key = dice.phase_key(t_k, campaign.id, s.phase, s.mix, sealed=True)
        for j, d in enumerate(draws):
            if d.i != j or dice.draw_value(key, j, d.label, d.n) != d.value:
                raise AuditError(k, f"sealed draw {j}", "does not recompute from t_k")
    if by_seq:
        raise AuditError(seq_final, "sealed_draws", f"draws for records {sorted(by_seq)} that "
                         "do not exist")
    say(f"sealed draws: {len(final.get('sealed_draws', []))} recomputed from the sealed chain")


@dataclass
class _Span:
    """Records ``first`` to ``last`` re-adjudicated (by this process or a worker): what was
    said about each, and what the next span must start from."""

    first: int
    last: int
    lines: list[str] = field(default_factory=list)
    start_state: str = ""     # sha256 of the GM's stored state it started from ("" at 1)
    start_waiting: list[dict[str, Any]] = field(default_factory=list)
    end_state: str = ""       # sha256 of the canonical state after ``last``
    end_waiting: list[dict[str, Any]] = field(default_factory=list)
    error: AuditError | None = None  # a worker's failure, raised by the parent in order


#: Below this many records per process a parallel replay is not worth its start-up.
MIN_SPAN = 32


def _replay(campaign: Campaign, seen: list[_Seen], sealed_head: bytes,
            revealed_texts: dict[tuple[int, str], str], final_draws: list[dict[str, Any]],
            say: Say, jobs: int) -> None:
    """Pass 2 over every record. The GM's audit can split it into spans on ``jobs``
    processes: span ``i`` starts from the GM's stored state and list of sealed orders still
    to reveal after the record before it. Span ``i - 1`` checks that stored state against its
    own replay, and the list must equal the one it computed, so the spans together check
    what one replay from the start checks (and the GM's lists at the cuts besides)."""
    from pbem.core import engine

    n = len(seen)
    jobs = min(jobs, n // MIN_SPAN)
    if jobs <= 1 or not campaign.is_gm or not workers.can_fork():
        last = _replay_span(campaign, seen, sealed_head, revealed_texts, final_draws, 1, n, say)
    else:
        last = _replay_spans(campaign, seen, sealed_head, revealed_texts, final_draws, say, jobs)
    # The next adjudication starts from the last record's list of sealed orders to reveal.
    if campaign.is_gm and n and engine.load_unrevealed(campaign, n) != last.end_waiting:
        raise AuditError(n, "gm unrevealed", "the GM's list of sealed orders still to reveal "
                         "differs from the replay")


def _replay_spans(campaign: Campaign, seen: list[_Seen], sealed_head: bytes,
                  revealed_texts: dict[tuple[int, str], str], final_draws: list[dict[str, Any]],
                  say: Say, jobs: int) -> _Span:
    n = len(seen)
    cuts = [1 + n * i // jobs for i in range(jobs + 1)]
    spans = [(cuts[i], cuts[i + 1] - 1) for i in range(jobs)]
    global _shared
    # Forked workers inherit these (nothing large is pickled to them).
    _shared = (campaign, seen, sealed_head, revealed_texts, final_draws)
    try:
        pool = workers.fork_pool(jobs)
        assert pool is not None
        with pool:
            futures = [pool.submit(_replay_shared, a, b) for a, b in spans]
            before: _Span | None = None
            for future in futures:  # in record order: the first failure is the earliest
                span = future.result()
                # Where this span started is checked before anything it found after.
                if before is not None:
                    if span.start_state != before.end_state:
                        raise AuditError(before.last, "gm state", "the GM's stored state "
                                         "changed during the audit")
                    if span.start_waiting != before.end_waiting:
                        raise AuditError(before.last, "gm unrevealed", "the GM's list of "
                                         "sealed orders still to reveal differs from the "
                                         "replay")
                for line in span.lines:
                    say(line)
                if span.error is not None:
                    raise span.error
                before = span
    finally:
        _shared = None
    assert before is not None
    return before


_shared: tuple[Campaign, list[_Seen], bytes, dict[tuple[int, str], str],
               list[dict[str, Any]]] | None = None


def _replay_shared(first: int, last: int) -> _Span:
    assert _shared is not None
    span = _Span(first, last)
    try:
        _replay_span(*_shared, first, last, span.lines.append, span)
    except AuditError as exc:
        span.error = exc
    return span


def _replay_span(campaign: Campaign, seen: list[_Seen], sealed_head: bytes,
                 revealed_texts: dict[tuple[int, str], str], final_draws: list[dict[str, Any]],
                 first: int, last: int, say: Say, span: _Span | None = None) -> _Span:
    # Imported here: the engine imports this module's siblings only, never audit.
    from pbem.core import canonical, engine
    from pbem.core.canonical import canonical_json

    ruleset = campaign.ruleset
    span = span or _Span(first, last)
    state: State | None = None
    waiting: list[dict[str, Any]] = []
    prev_hash = ledger.file_hash(campaign.campaign_bytes)
    prev_mix = dice.mix_initial(campaign.id)
    # The final record lists every sealed draw; pass 1 checked each record's against it.
    sealed_so_far = [d for d in final_draws if d.get("seq", 0) < first]
    if first > 1:
        stored = engine.record_dir(campaign, first - 1) / "state.json"
        data = stored.read_bytes()
        span.start_state = hashlib.sha256(data).hexdigest()
        state = json.loads(data)
        waiting = engine.load_unrevealed(campaign, first - 1)
        span.start_waiting = waiting
        prev_hash = ledger.file_hash(
            (campaign.ledger_dir / ledger.record_name(first - 1)).read_bytes())
        prev_mix = seen[first - 2].mix
    res: engine.Resolution | None = None
    for seq, data in ledger.iter_records(campaign.ledger_dir, first):
        if seq > last:
            break
        if ledger.file_hash(data) != seen[seq - 1].digest:
            raise AuditError(seq, "bytes", "the record changed during the audit (run it again)")
        # What pass 1 read of these very bytes (the digest above): not parsed again.
        seen_k = seen[seq - 1]
        phase = (ruleset.join_phase(campaign.players) if seq == 1 else
                 ruleset.next_phase(state) if state is not None else None)
        if phase is None or phase.id != seen_k.phase:
            raise AuditError(seq, "phase", f"the rules say the open phase is "
                             f"{phase.id if phase else 'none (game over)'}")
        accepted: dict[str, OrderFile] = {}
        for player in seen_k.commitments:
            if player not in phase.actors:
                raise AuditError(seq, "commitments", f"{player} does not act in {phase.id}")
            # Published or revealed, each order file pass 1 checked (signature included).
            checked = seen_k.orders.get(player)
            if checked is not None:
                accepted[player] = checked
                continue
            path = engine.record_dir(campaign, seq) / "orders" / f"{player}.txt"
            if not path.is_file():
                raise AuditError(seq, f"commitments.{player}", "the GM's copy of these "
                                 "sealed orders is missing")
            accepted[player] = _check_order_text(
                campaign, path.read_text(), seq, f"gm orders of {player}", player, phase.id,
                seen_k.commitments[player], seen_k.entropy[player])
        t_k = dice.chain_value(sealed_head, campaign.chain_length, seq)
        s_k = seen[seq - 1].seed
        try:
            res = engine.resolve_phase(campaign, phase, state, accepted, s_k, t_k, prev_mix)
        except PbemError as exc:
            raise AuditError(seq, "orders", f"re-adjudication rejects them: {exc}") from None
        due, waiting = engine.reveal_step(waiting, seq, phase, list(accepted), res)

        def text(k: int, p: str, seq: int = seq, accepted: dict[str, OrderFile] = accepted
                 ) -> str:
            if k == seq:
                return accepted[p].canonical_text()
            return revealed_texts.get((k, p)) or (
                engine.record_dir(campaign, k) / "orders" / f"{p}.txt").read_text()

        revealed = engine.revealed_entries(due, text)
        sealed_so_far += [{"seq": seq, **d.as_dict()} for d in res.rng.sealed.draws]
        final = None
        if res.next_phase is None:
            final = {"game_over": True, "sealed_head": sealed_head.hex(),
                     "sealed_draws": sealed_so_far}
        rebuilt = engine.build_record(campaign, seq, prev_hash, phase, res, accepted, s_k, t_k,
                                      revealed, final, seen_k.key_changes)
        mine = ledger.dump(rebuilt)
        if mine != data:
            rec = ledger.load(data, memo=False)
            ours = ledger.load(mine, memo=False)
            for key in (*ledger.SCALAR_FIELDS, *ledger.TABLE_FIELDS):
                if ours.get(key) != rec.get(key):
                    raise AuditError(seq, key, "re-adjudication gives a different value")
            raise AuditError(seq, "bytes", "re-adjudication gives different record bytes")
        if campaign.is_gm:
            stored = engine.record_dir(campaign, seq)
            if (stored / "state.json").read_bytes() != res.state_json:
                raise AuditError(seq, "gm state", "the GM's stored state differs from the replay")
            # private.json as _write_record writes it: one canonical JSON to compare bytes.
            # A file of an older pbem (the list of unrevealed orders inside) is compared by
            # its private events alone.
            mine = canonical_json({"private": res.outcome.private,
                                   "sealed_draws": [{"seq": seq, **d.as_dict()}
                                                    for d in res.rng.sealed.draws]})
            if (stored / "private.json").read_bytes() != mine:
                private = engine.load_private(campaign, seq)
                if canonical_json(private["private"]) != canonical_json(res.outcome.private):
                    raise AuditError(seq, "gm private events", "differ from the replay")
        # The next record starts from the state as the GM's file gives it, parsed: what a
        # GM running one command at a time has (the adjudication keeps the rules' object
        # where it is the same, engine.next_state; a difference shows here).
        state = canonical.parse(res.state_json)
        prev_hash, prev_mix = ledger.file_hash(data), res.mix
        say(f"record {seq:06d} {phase.id}: re-adjudicated, state_hash and record bytes match")
    if res is not None:
        span.end_state = hashlib.sha256(res.state_json).hexdigest()
        span.end_waiting = waiting
    return span


def _explain(campaign: Campaign, rec: dict[str, Any], s_k: bytes, mix: bytes, say: Say) -> None:
    phase = rec["phase"]
    msg = f"pbem-rng/1\ncampaign={campaign.id}\nphase={phase}\nmix={mix.hex()}\n"
    key = dice.phase_key(s_k, campaign.id, phase, mix, sealed=False)
    say(f"record {rec['seq']:06d} phase {phase}")
    say(f"  s_k  = {s_k.hex()}   (sha256(s_k) = previous seed)")
    say(f"  mix  = {mix.hex()}")
    say(f"  msg  = {msg!r}")
    say(f"  K    = HMAC-SHA256(s_k, msg) = {key.hex()}")
    for d in rec.get("draws", []):
        j, label, n = d["i"], d["label"], d["n"]
        limit = (2**64 // n) * n
        c = 0
        while True:
            h = hmac.new(key, f"{j}:{label}:{c}".encode(), hashlib.sha256).digest()
            x = int.from_bytes(h[:8], "big")
            say(f"  draw {j} {label!r} n={n}: HMAC(K, {f'{j}:{label}:{c}'!r}) = {h.hex()}")
            say(f"      x = {x} {'<' if x < limit else '>='} {limit}" +
                (f" -> value = x % {n} + 1 = {x % n + 1}" if x < limit else " -> rejected, c+1"))
            if x < limit:
                break
            c += 1

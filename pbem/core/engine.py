"""Submitting orders and adjudicating phases: the only code that writes to a campaign.

Both commands hold the campaign lock. ``submit`` stores every file in the inbox before looking
at it, so nothing received is ever lost. ``adjudicate`` computes a whole record in memory,
writes the GM's files, and writes the ledger record last: the record's appearance is the commit
point, and a run killed before it is simply run again, with byte-identical results because every
input (state, orders, chain values, entropy) is already fixed on disk.
"""

from __future__ import annotations

import contextlib
import dataclasses
import marshal
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import orjson
import tomli
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.core import armor, canonical, dice, keychange, ledger, superseded, toml_writer
from pbem.core import orders as orders_mod
from pbem.core.campaign import NMR_OPTION, Campaign, sign_file_bytes
from pbem.core.canonical import canonical_json, keyed_hash
from pbem.core.errors import (
    ArmorError,
    CampaignError,
    EnvelopeError,
    IllegalOrderError,
    PbemError,
    Problem,
    ProblemsError,
    SignatureError,
)
from pbem.core.fsutil import CampaignLock, Stamp, atomic_write, fsync_dirs, stamp, write_new
from pbem.core.keys import AllowedSigners
from pbem.core.orders import OrderFile
from pbem.core.ruleset import (
    JOIN_PHASE,
    REVEAL_GAME,
    REVEAL_PHASE,
    Outcome,
    PhaseSpec,
    Ruleset,
    State,
    copy_state,
)
from pbem.core.values import FrozenValue, Value

# --- where the GM's files live -------------------------------------------------------------


def record_dir(campaign: Campaign, seq: int) -> Path:
    return Path(_record_base(campaign, seq))


def pending_dir(campaign: Campaign, phase_id: str) -> Path:
    return Path(_pending_base(campaign, phase_id))


# The same folders as text: the engine's own paths of every record and submission are joined
# so (a Path join costs more than the stat or write it prepares).
def _record_base(campaign: Campaign, seq: int) -> str:
    return f"{campaign.gm_dir}/records/{seq:06d}"


def _pending_base(campaign: Campaign, phase_id: str) -> str:
    return f"{campaign.gm_dir}/pending/{phase_id}"


def load_state(campaign: Campaign, seq: int, *, shared: bool = False,
               take: bool = False) -> State | None:
    """The GM's state after record ``seq``: a fresh object the caller may change; with
    ``shared`` the one kept in memory, which the caller must not change (submit checks,
    views and reports only read it: no copy at every submission and report); with ``take``
    the one kept in memory, handed over: the caller may change it, and it is forgotten
    (the adjudication of the next record, which is the last reader of this state).

    One command reads the same state many times (every submission, the adjudication, each
    report), so the parsed state is kept in memory for as long as its file is unchanged
    (same inode, size and modification time): the state a record wrote is its next reader's
    without a copy or a parse (:func:`_keep_state`)."""
    if seq == 0:
        return None
    path = f"{_record_base(campaign, seq)}/state.json"  # str: the cache's key
    try:
        now = stamp(path)
    except FileNotFoundError:
        raise CampaignError(f"{path} is missing: the GM's copy of record {seq} is "
                            "incomplete") from None
    known = _states.get(path)
    if known is None or known[0] != now:
        if take:  # nobody else reads it: parsed for the caller alone
            _states.pop(path, None)
            taken: State = canonical.parse(_read_bytes(path))
            return taken
        known = _remember_state(path, now, canonical.parse(_read_bytes(path)))
    if CHECK_SHARED and path in _lent:
        _lent.discard(path)
        if marshal.loads(known[1]) != known[2]:
            raise AssertionError(f"a caller changed the shared state of record {seq}")
    if take:
        del _states[path]
        return known[2]
    if shared:
        if CHECK_SHARED:
            _lent.add(path)
        return known[2]
    return copy_state(known[2])


#: state.json path -> (inode, size, mtime), the state's marshal form (only to check, with
#: CHECK_SHARED, that no reader changed it) and the parsed state that ``load_state`` hands
#: out; a few records' worth.
_states: dict[str, tuple[Stamp, bytes, State]] = {}
#: The test suite sets this: every load_state then checks that no caller changed a shared
#: state (a submit check or a view that wrote into it would corrupt the next records).
CHECK_SHARED = False
#: With CHECK_SHARED: the states handed out shared since they were last checked.
_lent: set[str] = set()


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _remember_state(path: str, known_stamp: Stamp, state: State
                    ) -> tuple[Stamp, bytes, State]:
    if len(_states) >= 8:
        del _states[next(iter(_states))]
    _states[path] = known = (known_stamp, marshal.dumps(state) if CHECK_SHARED else b"", state)
    return known


def next_state(state: State, state_json: bytes) -> State:
    """The state the next record starts from: as parsed from ``state_json`` (its canonical
    JSON), which is what a later command reads from the GM's file.

    Parsing costs as much as the rules of a record, so ``state`` itself is kept when it is
    already what the parse would give: the same values with keys in the same (sorted) order,
    which holds when its JSON with keys in insertion order is ``state_json``. Otherwise (a
    rule added a key out of order) it is parsed. Equality does not see a tuple kept for a
    list, or one list in two places; rules keep plain data, and the audit, which always
    parses, would find any record where such a thing changed what the rules did."""
    try:
        if orjson.dumps(state) == state_json:
            return state
    except (TypeError, orjson.JSONEncodeError):
        pass
    parsed: State = canonical.parse(state_json)
    return parsed


def load_private(campaign: Campaign, seq: int) -> dict[str, Any]:
    """The GM's private.json of record ``seq``: each player's private events and the record's
    sealed draws."""
    if seq == 0:
        return {"private": {}, "sealed_draws": []}
    data: dict[str, Any] = canonical.parse(
        (record_dir(campaign, seq) / "private.json").read_bytes())
    return data


def _sealed_draws(campaign: Campaign, seq: int) -> list[dict[str, Any]]:
    """The sealed draws of record ``seq`` (its private.json), for the last record's list of
    them all: as this process wrote them while the file is unchanged (a parse of every
    record's private.json at the end of a game costs more than all its other records' work
    on them)."""
    path = f"{_record_base(campaign, seq)}/private.json"
    known = _sealed.get(path)
    if known is not None:
        with contextlib.suppress(FileNotFoundError):
            if stamp(path) == known[0]:
                return known[1]
    draws: list[dict[str, Any]] = load_private(campaign, seq)["sealed_draws"]
    return draws


#: private.json path -> its stamp and the sealed draws the adjudication wrote there.
_sealed: dict[str, tuple[Stamp, list[dict[str, Any]]]] = {}


def load_unrevealed(campaign: Campaign, seq: int) -> list[dict[str, Any]]:
    """The sealed order files still unpublished after record ``seq`` (unrevealed.json).

    It has a file of its own because it grows with a campaign whose orders stay sealed to
    the end: only the next adjudication reads it (and the GM's audit, at the end and where it
    splits the replay), never the reports. No file means nothing waits. Campaigns adjudicated
    before pbem 0.x kept the list in private.json. While files only pile up, a record's file
    holds what was added since a recent record's whole list (:func:`_unrevealed`)."""
    return list(_unrevealed(campaign, seq)[0])


#: How many records back the whole list a record's ``{"base": j, "added": [...]}`` builds
#: on may be: a game whose orders stay sealed to the end (Grecos) writes each record's
#: additions, not its whole growing list (quadratic over a game), and a whole list this often.
UNREVEALED_SPAN = 32


def _unrevealed(campaign: Campaign, seq: int
                ) -> tuple[list[dict[str, Any]], tuple[int, int]]:
    """The list after record ``seq`` (not to be changed: the caller copies it) and its base
    ``(j, n)``: the record ``j <= seq`` whose unrevealed.json is a whole list (or absent) and
    whose list is the first ``n`` items of this one."""
    if seq == 0:
        return [], (0, 0)
    base = _record_base(campaign, seq)
    known = _waiting.get(base)
    if known is not None and known[0] == _waiting_stamp(base):
        return known[1], known[2]
    path = f"{base}/unrevealed.json"
    if not os.path.isfile(path):
        older = list(load_private(campaign, seq).get("unrevealed", []))
        return older, (seq, len(older))
    found = canonical.parse(_read_bytes(path))
    if isinstance(found, list):
        return found, (seq, len(found))
    j = found.get("base") if isinstance(found, dict) else None
    added = found.get("added") if isinstance(found, dict) else None
    if not isinstance(j, int) or isinstance(j, bool) or not 0 <= j < seq or not isinstance(
            added, list):
        raise CampaignError(f"{path} is damaged: neither a list nor a base and its additions")
    whole, (k, n) = _unrevealed(campaign, j)
    if k != j:
        raise CampaignError(f"{path} is damaged: its base, record {j}, holds no whole list")
    return [*whole, *added], (j, n)


#: record directory -> the stamps of its unrevealed.json and private.json, the sealed files
#: still waiting after it and their base (:func:`_unrevealed`), as that record's adjudication
#: wrote them (the next one reads them).
_waiting: dict[str, tuple[tuple[object, ...], list[dict[str, Any]], tuple[int, int]]] = {}


def _waiting_stamp(base: str) -> tuple[object, ...]:
    """(inode, size, mtime) of unrevealed.json (None when there is none) and private.json in
    the record directory ``base``."""
    out: list[object] = []
    for name in ("unrevealed.json", "private.json"):
        try:
            out.append(stamp(f"{base}/{name}"))
        except FileNotFoundError:
            out.append(None)
    return tuple(out)


class Head(FrozenValue):
    """The end of the ledger: how many records, the last one's hash and mix, and its bytes
    (parsed only when :attr:`record` is asked for: adjudication needs the hash and mix)."""

    _fields = ("seq", "prev_hash", "mix", "data")
    __slots__ = _fields
    seq: Final[int]
    prev_hash: Final[str]
    mix: Final[bytes]
    data: Final[bytes]

    def __init__(self, seq: int, prev_hash: str, mix: bytes, data: bytes = b"") -> None:
        self.seq = seq
        self.prev_hash = prev_hash
        self.mix = mix
        self.data = data

    @property
    def record(self) -> dict[str, Any] | None:
        """The last record, parsed (ledger.load keeps it); ``None`` before the first."""
        return ledger.load(self.data, ledger.record_name(self.seq)) if self.seq else None


def head(campaign: Campaign, seq: int | None = None) -> Head:
    """The end of the ledger; ``seq``: its length, when the caller holds the campaign lock
    and knows it (no listing)."""
    if seq is None:
        seq = ledger.count(campaign.ledger_dir)
    if seq == 0:
        return Head(0, ledger.file_hash(campaign.campaign_bytes), dice.mix_initial(campaign.id))
    path = f"{campaign.ledger_dir}/{ledger.record_name(seq)}"
    now = stamp(path)
    known = _heads.get(campaign.ledger_dir)
    if known is not None and known[0] == now:  # every receipt names the head: parse once
        return known[1]
    data = _read_bytes(path)
    record = ledger.load(data, ledger.record_name(seq))
    found = Head(seq, ledger.file_hash(data), bytes.fromhex(record["mix"]), data)
    _heads[campaign.ledger_dir] = (now, found)
    return found


#: ledger directory -> (inode, size, mtime) of its last record and that record's Head.
_heads: dict[Path, tuple[Stamp, Head]] = {}


def open_phase(campaign: Campaign, *, shared: bool = False, take: bool = False,
               seq: int | None = None) -> tuple[int, State | None, PhaseSpec | None]:
    """The number of records, the current state and the phase now open (``None``: game
    over). ``shared``: the state is read only; ``take``: handed over (see
    :func:`load_state`); ``seq``: the number of records, when the caller holds the campaign
    lock and knows it."""
    if seq is None:
        seq = ledger.count(campaign.ledger_dir)
    if seq == 0:
        return 0, None, campaign.ruleset.join_phase(campaign.players)
    state = load_state(campaign, seq, shared=shared, take=take)
    assert state is not None
    return seq, state, campaign.ruleset.next_phase(state)


# --- submitting ----------------------------------------------------------------------------


# A dataclass for dataclasses.replace, its methods written out (pbem.core.values: generated
# ones cost ~3.5 M instructions at import).
@dataclass(init=False, repr=False, eq=False)
class Receipt(FrozenValue):
    """An order file accepted (or found again) for a player's phase."""

    _fields = ("player", "phase", "commitment", "status", "notes")
    player: Final[str]
    phase: Final[str]
    commitment: Final[str]
    status: Final[str]  # "accepted", "replaced" (an earlier file), "unchanged" (the same again)
    #: What is checked again when the phase runs (Ruleset.provisional), one line each.
    notes: Final[tuple[str, ...]]

    def __init__(self, player: str, phase: str, commitment: str, status: str,
                 notes: tuple[str, ...] = ()) -> None:
        self.player = player
        self.phase = phase
        self.commitment = commitment
        self.status = status
        self.notes = notes


class SubmitResult(Value):
    _fields = ("inbox", "received", "receipts", "errors")
    __slots__ = _fields

    def __init__(self, inbox: Path, received: str = "", receipts: list[Receipt] | None = None,
                 errors: list[ProblemsError] | None = None) -> None:
        self.inbox = inbox
        self.received = received
        self.receipts = [] if receipts is None else receipts
        self.errors = [] if errors is None else errors


def validate_orders(ruleset: Ruleset, state: State | None, phase: PhaseSpec, player: str,
                    orders: dict[str, Any]) -> list[Problem]:
    if phase.id == JOIN_PHASE:
        return ruleset.validate_join(player, orders)
    assert state is not None
    return ruleset.validate(state, phase, player, orders)


def check_order(campaign: Campaign, block: armor.Block, state: State | None,
                phase: PhaseSpec | None, source: str) -> OrderFile:
    """Everything that decides acceptance: syntax, signature, envelope, then the rules."""
    return check_order_notes(campaign, block, state, phase, source)[0]


def check_order_notes(campaign: Campaign, block: armor.Block, state: State | None,
                      phase: PhaseSpec | None, source: str) -> tuple[OrderFile, tuple[str, ...]]:
    """:func:`check_order`, and the receipt's "checked again when it runs" lines of the
    accepted orders (:meth:`Ruleset.check`: one pass of the rules for both)."""
    order = orders_mod.parse(block, source)
    _check_signer(campaign, order, source)
    orders_mod.check_envelope(order, campaign.id, campaign.players, phase, source,
                              campaign_hash=campaign.envelope_hash)
    assert phase is not None
    later: list[Problem] = []
    if phase.id == JOIN_PHASE or state is None:
        problems = validate_orders(campaign.ruleset, state, phase, order.player, order.orders)
    else:
        problems, later = campaign.ruleset.check(state, phase, order.player, order.orders)
    if problems:
        raise IllegalOrderError(problems, source)
    return order, tuple(str(p) for p in later)


def check_order_public(campaign: Campaign, block: armor.Block, source: str) -> OrderFile:
    """What anyone holding the public files can check: syntax, signature, campaign, player,
    and that the phase is the one the last ledger record opened. The rules need the state,
    which only the GM holds."""
    order = orders_mod.parse(block, source)
    _check_signer(campaign, order, source)
    h = head(campaign)
    open_id = h.record["next_phase"] if h.record else JOIN_PHASE
    spec = PhaseSpec(open_id, "public", (order.player,)) if open_id else None
    orders_mod.check_envelope(order, campaign.id, campaign.players, spec, source,
                              campaign_hash=campaign.envelope_hash)
    return order


def _check_signer(campaign: Campaign, order: OrderFile, source: str) -> None:
    """:func:`orders.check_signature` against the keys valid now; a key the ledger replaced,
    or one the GM registered from the next record on, is named as such."""
    try:
        orders_mod.check_signature(order, signers_now(campaign), source)
    except SignatureError as exc:
        raise keychange.explain(campaign, order, exc) from None


def signers_now(campaign: Campaign) -> AllowedSigners:
    """Who may sign orders for the open phase: the keys valid for the next record (version
    2 applies the ledger's key changes; version 1 has allowed_signers)."""
    return campaign.signers_at(ledger.count(campaign.ledger_dir) + 1)


def submit(campaign: Campaign, data: bytes, source: str, *, received: str = "") -> SubmitResult:
    """Keep ``data`` in the inbox, then accept every valid order block in it.

    ``received`` is when the GM's side got it (RFC 3339 UTC, from the caller: the engine never
    reads the clock); it is kept with the inbox file and the pending orders, for deadlines."""
    with CampaignLock(campaign.gm_dir):
        inbox = write_new(campaign.gm_dir / "inbox", ".txt", data, durable=campaign.durable)
        result = SubmitResult(inbox, received)
        try:
            _submit_locked(campaign, data, source, result)
        finally:
            meta = {"source": source, "inbox": inbox.name, "received": received,
                    "accepted": [{"player": r.player, "phase": r.phase,
                                  "commitment": r.commitment, "status": r.status}
                                 for r in result.receipts],
                    "errors": [e.render() for e in result.errors]}
            # Derived from the file itself (durable above): no fsync needed for it.
            atomic_write(inbox.with_suffix(".result.toml"), toml_writer.dumps(meta).encode(), 0o600,
                         durable=False)
        return result


def _submit_locked(campaign: Campaign, data: bytes, source: str, result: SubmitResult) -> None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        result.errors.append(ArmorError(Problem("", f"not UTF-8 text (byte {exc.start})",
                                                "send the order file as plain text"), source))
        return
    try:
        blocks = armor.extract(text, source)
    except ArmorError as exc:
        result.errors.append(exc)
        return
    if not blocks:
        result.errors.append(ArmorError(Problem("", "no order block found",
                                                "include the lines from " + armor.BEGIN_ORDERS +
                                                " to " + armor.END_SIGNATURE), source))
        return
    _, state, phase = open_phase(campaign, shared=True)  # the checks only read it
    for block in blocks:
        where = f"{source} (block at line {block.line})" if len(blocks) > 1 else source
        try:
            order, notes = check_order_notes(campaign, block, state, phase, where)
            assert phase is not None
            receipt = _make_pending(campaign, phase, order, result.inbox.name, where,
                                    result.received)
            if notes:
                receipt = dataclasses.replace(receipt, notes=notes)
            result.receipts.append(receipt)
        except ProblemsError as exc:
            result.errors.append(exc)


def _make_pending(campaign: Campaign, phase: PhaseSpec, order: OrderFile, inbox_name: str,
                  source: str, received: str) -> Receipt:
    """Make ``order`` the player's pending order file for ``phase``: ``<player>.txt`` (the
    file) and ``<player>.toml`` (its receipt: commitment, inbox file, time received, and the
    replaced files not yet known to be in ``<player>.superseded``, see
    :mod:`pbem.core.superseded`). Each write is durable now, or with the batch being written
    (:func:`pbem.core.fsutil.deferred_syncs`)."""
    directory = pending_dir(campaign, phase.id)
    meta_path = directory / f"{order.player}.toml"
    order_path = directory / f"{order.player}.txt"
    try:
        meta_text = meta_path.read_text()
    except FileNotFoundError:
        meta_text = ""
    # Empty (or zeros): a new meta whose data a power cut lost before its batch was synced;
    # the message is read again and sends the file again.
    meta: dict[str, Any] = tomli.loads(meta_text) if meta_text.strip("\0 \n") else {}
    commit = order.commitment
    text = order.canonical_text().encode()
    durable = campaign.durable
    if meta.get("commitment") == commit:
        # The same power cut may keep the meta and lose the order file: sent again, it is
        # put back (a stored file of the same commitment, however written, is kept).
        try:
            stored = order_path.read_bytes()
            intact = stored == text or parse_stored(
                stored.decode(), str(order_path)).commitment == commit
        except (OSError, UnicodeDecodeError, PbemError):
            intact = False
        if not intact:
            atomic_write(order_path, text, 0o600, durable=durable)
            _remember_pending(order_path, order)
        return Receipt(order.player, phase.id, commit, "unchanged")
    log = superseded.open_log(directory, order.player)
    listed = [str(c) for c in meta.get("superseded", [])]
    if commit in log or commit in listed:
        # Someone resent a file that the player has since replaced: a replay, not a change of mind.
        raise EnvelopeError(Problem(
            "[envelope] salt",
            "this exact file was already replaced by a later one from the same player",
            "to go back to these orders, take a fresh salt from a new form and sign again"),
            source)
    status = "replaced" if "commitment" in meta else "accepted"
    # The replaced file, and those only the meta lists (an older campaign's), go to the log
    # before the meta that no longer lists them is renamed in.
    moved = [c for c in listed if c not in log]
    if "commitment" in meta:
        moved.append(str(meta["commitment"]))
    log.add(moved, durable=durable)
    new_directory = not directory.is_dir()
    atomic_write(order_path, text, 0o600, durable=durable, sync_dir=False)
    _remember_pending(order_path, order)
    meta = {"commitment": commit, "inbox": inbox_name, "received": received,
            "superseded": log.unsynced()}
    # The meta file names the order file: it is renamed in last, after both are on disk.
    atomic_write(meta_path, toml_writer.dumps(meta).encode(), 0o600, durable=durable)
    if durable and new_directory:
        fsync_dirs([directory.parent])  # the new phase directory's entry in pending/
    return Receipt(order.player, phase.id, commit, status)


def pending_orders(campaign: Campaign, phase: PhaseSpec) -> dict[str, OrderFile]:
    """The accepted order file of each player for ``phase`` (the latest one each sent).

    A file accepted by this process is not read and parsed again (:func:`_remember_pending`):
    it is the same file as long as its inode, size and modification time are."""
    directory = _pending_base(campaign, phase.id)
    out: dict[str, OrderFile] = {}
    for player in phase.actors:
        path = f"{directory}/{player}.txt"
        try:
            now = stamp(path)
        except FileNotFoundError:
            continue
        known = _pending.get(path)
        if known is not None and known[0] == now:
            out[player] = known[1]
        else:
            with open(path) as f:  # Path.read_text's own reading (text mode)
                out[player] = parse_stored(f.read(), path)
    return out


#: pending order path -> (inode, size, mtime) and the order file accepted there by this
#: process (its text is the file's; the rules get a copy of its ``[orders]``).
_pending: dict[str, tuple[Stamp, OrderFile]] = {}


def _remember_pending(path: Path, order: OrderFile) -> None:
    if len(_pending) >= 64:
        del _pending[next(iter(_pending))]
    _pending[os.fspath(path)] = (stamp(path), order)


def parse_stored(text: str, source: str, *, verified: bool = False) -> OrderFile:
    """An order file the engine stored once it was accepted. ``verified``: the caller has
    checked this very text's signature (the audit's first pass), so it is not again."""
    blocks = armor.extract(text, source, as_stored=verified)
    if len(blocks) != 1:
        raise CampaignError(f"{source}: expected exactly one order block")
    # Accepted once already: read as it was accepted (an older campaign's files included).
    return orders_mod.parse(blocks[0], source, check_text=False)


# --- resolving -----------------------------------------------------------------------------


class Resolution(Value):
    """One phase resolved: what the rules produced and the random streams they used."""

    _fields = ("outcome", "rng", "mix", "nmr", "next_phase", "state_json")
    __slots__ = _fields

    def __init__(self, outcome: Outcome, rng: dice.Rng, mix: bytes, nmr: list[str],
                 next_phase: PhaseSpec | None) -> None:
        self.outcome = outcome
        self.rng = rng
        self.mix = mix
        self.nmr = nmr
        self.next_phase = next_phase
        self.state_json = canonical_json(outcome.state)  # RFC 8785 bytes, computed once


def resolve_phase(campaign: Campaign, phase: PhaseSpec, state: State | None,
                  accepted: Mapping[str, OrderFile], s_k: bytes, t_k: bytes,
                  prev_mix: bytes) -> Resolution:
    """The pure heart of a record, shared by ``adjudicate`` and ``audit``."""
    ruleset = campaign.ruleset
    mix = dice.mix_next(prev_mix, {p: o.envelope.entropy for p, o in accepted.items()})
    rng = dice.Rng.for_record(campaign.id, phase.id, s_k, t_k, mix)
    nmr = sorted(set(phase.actors) - set(accepted))
    # The rules get their own copy of each [orders] table: an order file may be kept parsed
    # from its submission (pending_orders), and nothing the rules do may reach it.
    sent = {p: copy_state(o.orders) for p, o in accepted.items()}
    for player in sorted(sent):
        # Foreseen problems are refused at submit only: resolution skips such an order and
        # says so, the same under every version of the submit checks (Problem.foreseen).
        problems = [p for p in validate_orders(ruleset, state, phase, player, sent[player])
                    if not p.foreseen]
        if problems:
            raise IllegalOrderError(problems, f"orders of {player} for {phase.id}")
    if phase.id == JOIN_PHASE:
        joins = {p: sent[p] if p in sent else ruleset.default_join(p)
                 for p in campaign.players}
        outcome = ruleset.setup(campaign.players, campaign.options, joins, rng)
    else:
        assert state is not None
        given = {p: sent[p] if p in sent else
                 ruleset.default_orders(state, phase, p) for p in phase.actors}
        outcome = ruleset.resolve(state, phase, given, rng)
    return Resolution(outcome, rng, mix, nmr, ruleset.next_phase(outcome.state))


def build_record(campaign: Campaign, seq: int, prev_hash: str, phase: PhaseSpec,
                 res: Resolution, accepted: Mapping[str, OrderFile], s_k: bytes, t_k: bytes,
                 revealed: list[dict[str, Any]], final: dict[str, Any] | None,
                 key_changes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The ledger record, fields in DESIGN.md order (``ledger.dump`` fixes the byte order).

    ``key_changes`` (version 2): the GM's key changes the record carries, which no rule
    decides; the audit takes them from the published record."""
    record: dict[str, Any] = {
        "format": campaign.ledger_format,
        "seq": seq,
        "prev": prev_hash,
        "phase": phase.id,
        "seed": s_k.hex(),
        "mix": res.mix.hex(),
        "state_hash": keyed_hash(t_k, res.state_json),
        "nmr": res.nmr,
        "next_phase": res.next_phase.id if res.next_phase else "",
        "commitments": {p: accepted[p].commitment for p in sorted(accepted)},
        "entropy": {p: accepted[p].envelope.entropy for p in sorted(accepted)},
        "orders": {} if phase.sealed else {p: accepted[p].canonical_text()
                                           for p in sorted(accepted)},
        "revealed": revealed,
        "draws": [d.as_dict() for d in res.rng.public.draws],
        "sealed": {"count": len(res.rng.sealed.draws),
                   "digest": dice.listing_digest(res.rng.sealed.draws)},
        "events": res.outcome.events,
    }
    if final is not None:
        record.update(final)
    if key_changes:
        record["key_changes"] = key_changes
    return record


def reveal_step(waiting: list[dict[str, Any]], seq: int, phase: PhaseSpec,
                accepted: list[str], res: Resolution
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Which sealed order files record ``seq`` publishes, and which stay sealed after it.

    ``waiting`` lists the sealed files of earlier records not yet revealed. A file is due at
    the end of its own phase (``reveal = "phase"``), at a named point the rules announce, or
    at the end of the game, when everything still sealed is published.
    """
    new = [{"seq": seq, "player": p, "phase": phase.id, "reveal": phase.reveal}
           for p in sorted(accepted)] if phase.sealed else []
    over = res.next_phase is None
    if not over and not res.outcome.reveals:
        # Only this phase's own files can be due now: the older ones wait for a named point
        # or the end. No walk over everything waiting (it grows with a long campaign).
        if phase.reveal == REVEAL_PHASE:
            return new, list(waiting)
        return [], [*waiting, *new]
    waiting = [*waiting, *new]
    due, still = [], []
    for item in waiting:
        reveal = item["reveal"]
        if (over or (reveal == REVEAL_PHASE and item["seq"] == seq)
                or (reveal not in (REVEAL_PHASE, REVEAL_GAME) and reveal in res.outcome.reveals)):
            due.append(item)
        else:
            still.append(item)
    return due, still


def revealed_entries(due: list[dict[str, Any]], text: Callable[[int, str], str]
                     ) -> list[dict[str, Any]]:
    return [{"seq": d["seq"], "player": d["player"], "phase": d["phase"],
             "text": text(d["seq"], d["player"])} for d in due]


GmKeyLoader = Callable[[], Ed25519PrivateKey]
ReportWriter = Callable[[Campaign, int], None]


def adjudicate(campaign: Campaign, gm_key: GmKeyLoader, *, force: bool = False,
               write_reports: ReportWriter | None = None) -> list[int]:
    """Adjudicate the open phase and any automatic phases after it; the new record numbers.

    Without ``force`` it refuses while a required player has not submitted; with ``force`` the
    missing players get the game's documented default and are listed in ``nmr``.
    """
    written: list[int] = []
    with CampaignLock(campaign.gm_dir):
        last = ledger.count(campaign.ledger_dir)
        if write_reports is not None and last and not (record_dir(campaign, last) /
                                                       "reports").is_dir():
            # A run killed after its last record but before the reports: finish the job.
            write_reports(campaign, last)
        key: Ed25519PrivateKey | None = None
        while True:
            # Under the lock the ledger grows only by this loop: counted once, at the start.
            seq, state, phase = open_phase(campaign, shared=True,
                                           seq=written[-1] if written else last)
            if phase is None:
                if written:
                    break
                raise CampaignError("the game is over: there is nothing left to adjudicate")
            accepted = pending_orders(campaign, phase)
            missing = [p for p in phase.actors if p not in accepted]
            if force and not written:
                refuse_defaults_if_waiting(campaign, phase.id, missing)
            if missing and not (force and not written):
                if written:
                    break
                raise CampaignError(f"phase {phase.id} is waiting for orders from "
                                    f"{', '.join(missing)} (after the deadline: --force applies "
                                    f"their defaults)")
            if key is None:
                key = gm_key()
            # The rules change the state they resolve: this record's adjudication takes it
            # over (if anything fails, the next reader parses the file again).
            state = load_state(campaign, seq, take=True)
            after = _write_record(campaign, seq + 1, state, phase, accepted, key)
            written.append(seq + 1)
            if write_reports is not None:
                write_reports(campaign, seq + 1)
            if after is None or not after.automatic:
                break
    return written


def refuse_defaults_if_waiting(campaign: Campaign, phase_id: str, missing: list[str]) -> None:
    """The NMR policy ``wait``, fixed at ``pbem new`` (docs/mail.md): default orders are never
    applied, so a forced adjudication with orders missing is refused."""
    if missing and campaign.options.get(NMR_OPTION) == "wait":
        raise CampaignError(
            f"campaign {campaign.id} has the NMR policy 'wait' (fixed at pbem new): --force "
            f"cannot apply default orders; phase {phase_id} waits for orders from "
            f"{', '.join(sorted(missing))} (fix: remind them with pbem remind DIR, or extend "
            "the deadline with pbem deadline DIR +48h)")


def _write_record(campaign: Campaign, seq: int, state: State | None, phase: PhaseSpec,
                  accepted: Mapping[str, OrderFile], key: Ed25519PrivateKey
                  ) -> PhaseSpec | None:
    """Write record ``seq`` and the GM's files of it; the phase it opens (None: game over)."""
    s_head, t_head = campaign.heads()
    n = campaign.chain_length
    if seq > n:
        raise CampaignError(f"the seed chains hold {n} records and this would be record {seq}")
    if _public_raw(key) != campaign.gm_public_key(seq):
        raise CampaignError("the GM key given is not the key registered for 'gm' (campaign.toml "
                            "[keys] and the ledger's key changes; allowed_signers in a version "
                            "1 campaign)")
    s_k, t_k = dice.chain_value(s_head, n, seq), dice.chain_value(t_head, n, seq)
    h = head(campaign, seq - 1)  # the caller holds the lock: the ledger has seq - 1 records
    res = resolve_phase(campaign, phase, state, accepted, s_k, t_k, h.mix)
    waiting, (since, kept) = _unrevealed(campaign, seq - 1)
    due, still = reveal_step(list(waiting), seq, phase, list(accepted), res)

    def text(k: int, player: str) -> str:
        if k == seq:
            return accepted[player].canonical_text()
        # Path.read_text's own reading (text mode), without a Path per file: the last record
        # of a game whose orders stay sealed reads hundreds.
        with open(f"{_record_base(campaign, k)}/orders/{player}.txt") as f:
            return f.read()

    revealed = revealed_entries(due, text)
    sealed_draws = [{"seq": seq, **d.as_dict()} for d in res.rng.sealed.draws]
    final = None
    if res.next_phase is None:
        # private.json is canonical JSON (sorted keys); the ledger lists seq, i, label, n, value.
        every = [{"seq": d["seq"], "i": d["i"], "label": d["label"], "n": d["n"],
                  "value": d["value"]}
                 for k in range(1, seq) for d in _sealed_draws(campaign, k)]
        final = {"game_over": True, "sealed_head": t_head.hex(),
                 "sealed_draws": every + sealed_draws}
    # The GM's key changes queued for this record (pbem player-key), in effect from the next.
    changes = keychange.due(campaign, seq) if campaign.version >= 2 else []
    record = build_record(campaign, seq, h.prev_hash, phase, res, accepted, s_k, t_k,
                          revealed, final, changes)
    try:
        data = ledger.dump(record)
    except (TypeError, ValueError) as exc:
        raise PbemError(f"the {campaign.ruleset.name} rules produced an event that cannot be "
                        f"written to the ledger: {exc}") from None

    # The GM's files of the record first, all on disk (files, then each directory once)
    # before the signature and the record itself, whose rename is the commit point. Until
    # then nothing reads them, and a run killed before it writes them all again (the same
    # bytes): each is written in place (_write_fresh), not through a temp file.
    base = _record_base(campaign, seq)
    durable = campaign.durable
    # The GM keeps a copy of each sealed order file, to publish at its reveal point; an open
    # phase's files are in the record itself (its ``orders``), so no copy (two or three files
    # a record fewer: issue 20, target 1).
    copies = accepted if phase.sealed else {}
    _make_record_dir(base, bool(copies))
    for player, order in copies.items():
        _write_fresh(f"{base}/orders/{player}.txt", order.canonical_text().encode(), durable)
    state_path = f"{base}/state.json"
    # What the next command reads: the state as parsed from the file (next_state); the
    # stamps of the files written are taken from their descriptors (no stat by name).
    _remember_state(state_path, _write_fresh(state_path, res.state_json, durable),
                    next_state(res.outcome.state, res.state_json))
    private = {"private": res.outcome.private, "sealed_draws": sealed_draws}
    private_path = f"{base}/private.json"
    private_stamp = _write_fresh(private_path, canonical_json(private), durable)
    if len(_sealed) >= 4096:
        del _sealed[next(iter(_sealed))]
    _sealed[private_path] = (private_stamp, sealed_draws)
    waiting_stamp: Stamp | None = None
    if still:
        # Nothing of the whole list at ``since`` published, and that list recent: this
        # record's additions to it (the rest of the list stays as it was).
        piled = kept and seq - since <= UNREVEALED_SPAN and all(d["seq"] == seq for d in due)
        doc: Any = {"added": still[kept:], "base": since} if piled else still
        info = (since, kept) if piled else (seq, len(still))
        waiting_stamp = _write_fresh(f"{base}/unrevealed.json", canonical_json(doc), durable)
    else:
        info = (seq, 0)
        # Nothing waits (most records of most games): no file, one file fewer to create per
        # record. One left by an interrupted run with other orders goes.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{base}/unrevealed.json")
    if len(_waiting) >= 8:
        del _waiting[next(iter(_waiting))]
    _waiting[base] = ((waiting_stamp, private_stamp), still, info)
    if durable:
        rdir = record_dir(campaign, seq)
        fsync_dirs([rdir / "orders", rdir, rdir.parent] if copies else [rdir, rdir.parent])
    name = ledger.record_name(seq)
    # The signature goes first, in place like the GM's files (no reader takes the signature
    # of a record that is not there; a rerun writes it again), and its folder's entry is
    # made durable by the record's own rename and folder sync, which follow.
    _write_fresh(f"{campaign.ledger_dir}/{name}.sig",
                 sign_file_bytes(data, key, public_key=_public_raw(key)), durable, mode=0o644)
    written = atomic_write(campaign.ledger_dir / name, data, durable=durable)
    # The record for its readers in this process (the campaign's key changes just below, its
    # reports) and the new head, known without parsing the record back (the next record
    # needs its mix).
    digest = ledger.file_hash(data)
    ledger.remember(data, digest, record)
    campaign.wrote_record(seq, data)
    if changes:
        keychange.done(campaign, seq)
    _heads[campaign.ledger_dir] = (written, Head(seq, digest, res.mix, data))
    return res.next_phase


_public: list[tuple[Ed25519PrivateKey, bytes]] = []


def _public_raw(key: Ed25519PrivateKey) -> bytes:
    """The GM key's public half (deriving it costs as much as a signature): once per key."""
    if _public and _public[0][0] is key:
        return _public[0][1]
    raw = key.public_key().public_bytes_raw()
    _public[:] = [(key, raw)]
    return raw


def _make_record_dir(base: str, orders: bool) -> None:
    """The record's directory (and its ``orders/``); a rerun finds them made."""
    try:
        os.mkdir(base)
    except FileExistsError:
        pass
    except FileNotFoundError:  # the campaign's first record: gm/records/ too
        os.makedirs(base, exist_ok=True)
    if orders:
        with contextlib.suppress(FileExistsError):
            os.mkdir(f"{base}/orders")


def _write_fresh(path: str, data: bytes, durable: bool, mode: int = 0o600) -> Stamp:
    """Write one of the GM's files of a record not yet in the ledger: in place (created or
    truncated; never through a link), fsynced when ``durable``; its stamp. Atomic
    replacement is not needed: the ledger record, written after them all, is the commit
    point."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if durable:
            os.fsync(fd)
        st = os.fstat(fd)
    finally:
        os.close(fd)
    return (st.st_ino, st.st_size, st.st_mtime_ns)

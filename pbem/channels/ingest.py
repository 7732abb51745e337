"""``pbem ingest``: order blocks in from mailboxes, single messages and saved forum threads.

For each message: keep its raw bytes under ``gm/`` first (nothing received is ever lost),
find every order block in every text of it (:mod:`pbem.channels.mime`, whatever the client
did to it), submit each block once through :func:`pbem.core.engine.submit` (the one way
orders enter), and write a reply into the outbox with a receipt per block or the precise
errors. Blocks only quoted in a reply are reported, never submitted. A message with nothing
usable is copied to ``gm/mail/unused`` and listed, for the GM to look at.

Each block is submitted on its own, in its canonical armored form preceded by as many empty
lines as the block had before it, so that the line numbers in the engine's errors are those
of the text the player sent. The raw message itself is in ``gm/mail/received``.

Mail comes from anyone: the work one message causes is bounded (:data:`MAX_BLOCKS`, and the
limits of :mod:`pbem.channels.mime`), what was read is remembered by the hash of the bytes,
and whatever goes wrong with one message, the next one is read (see :func:`ingest`).

Messages are handled in batches (group commit, :func:`pbem.core.fsutil.deferred_syncs`):
everything a batch writes is synced at once at its end, and only then are its messages
marked as read and reported. A run killed (or a power cut) before that reads the batch's
messages again next time, and doing one again is harmless: the raw copies are named by their
hash, an order file already pending is ``unchanged``, and a reply already queued is not
queued again (:func:`pbem.channels.outbox.put` ``once``). What the second reading may say
differently is only in the GM's output and the inbox: a file the same player replaced later
in that batch is then refused as a replay, and the player's only reply is the first one.
"""

from __future__ import annotations

import email.utils
import functools
import re
import time
import traceback
from collections.abc import Callable, Iterable
from email.headerregistry import Address
from email.message import Message
from pathlib import Path

from pbem.channels import htmltext, mime, outbox, replies, scan, sources, store
from pbem.channels.results import (
    ALREADY,
    FORM_COPY,
    QUOTED,
    REJECTED,
    BlockResult,
    MessageResult,
)
from pbem.core import armor, engine, fsutil
from pbem.core import orders as orders_mod
from pbem.core.campaign import Campaign
from pbem.core.errors import ArmorError, IllegalOrderError, PbemError

# Senders that are machines: never answered, so that two robots cannot mail each other forever.
_ROBOTS = ("mailer-daemon", "postmaster", "noreply", "no-reply", "donotreply",
           "do-not-reply", "bounce", "bounces")
#: Order blocks read per message (sent, damaged or quoted, all counted): a player sends one,
#: a GM forwarding a thread a few. The rest are listed as not read.
MAX_BLOCKS = 50
#: The same for one forum text: a saved thread holds every post of a campaign.
MAX_FORUM_BLOCKS = 1000
#: A block is submitted preceded by as many empty lines as it had above it (for the line
#: numbers of the engine's errors) only up to this line; further down it is submitted alone.
MAX_PAD_LINES = 10_000
# An addr-spec a reply can go to: a dot-atom local part and a domain name, ASCII only.
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_ADDR_SPEC = re.compile(rf"{_ATOM}(?:\.{_ATOM})*@{_LABEL}(?:\.{_LABEL})+")
_MSG_ID = re.compile(r"<[!-;=?-~]{1,250}>")
#: A batch ends after this many messages or seconds (whichever first), or with the input.
#: Larger batches sync less often; each batch's lines reach the GM only when it ends.
BATCH_MESSAGES = 250
BATCH_SECONDS = 2.0


def ingest(campaign: Campaign, paths: Iterable[Path], *, received: str,
           on_result: Callable[[MessageResult], None] = lambda _: None,
           keep: bool = True) -> list[MessageResult]:
    """Ingest every message of every source in ``paths``; ``received`` (RFC 3339 UTC, the
    caller's clock) is when the GM's side got them. ``on_result`` sees each result once it
    counts: when its batch is on the disk. The results are returned too, unless ``keep`` is
    false (a long run then keeps no memory per message but the hashes of what it read).

    Whatever happens while one message is read, the next one is read: an exception is
    caught for that message alone, which is set aside in ``gm/mail/failed`` (not marked as
    read, so the next run tries it again) with the error in its result."""
    paths = list(paths)
    for path in paths:
        sources.check(path)
    results: list[MessageResult] = []
    batch: list[MessageResult] = []
    with store.IngestLock(campaign), fsutil.deferred_syncs() as syncs:
        seen = store.Seen(store.mail_dir(campaign) / "seen.txt")

        def commit() -> None:
            syncs.sync()   # everything the batch wrote, and the seen lines of the one before
            seen.flush()   # only now are its messages read (synced with the next batch)
            for result in batch:
                if keep:
                    results.append(result)
                on_result(result)
            batch.clear()

        started = time.monotonic()
        for item in (item for path in paths for item in sources.read(path)):
            result = MessageResult(item.source, item.kind)
            try:
                if item.error:
                    raise OSError(item.error)
                if item.kind == "mail":
                    _ingest_mail(campaign, item, seen, received, result)
                else:
                    _ingest_text(campaign, item, seen, received, result)
            except Exception as exc:  # one message never stops the others
                _failed(campaign, item, result, exc, received)
            batch.append(result)
            if (len(batch) >= BATCH_MESSAGES
                    or time.monotonic() - started >= BATCH_SECONDS):
                commit()
                started = time.monotonic()
        commit()
    return results


def _failed(campaign: Campaign, item: sources.Item, result: MessageResult, exc: Exception,
            received: str) -> None:
    """Set ``item`` aside after ``exc``: kept in ``failed``, the error logged with its
    traceback, the exception's class and message in the result for the GM."""
    result.failed = mime.clean(f"{type(exc).__name__}: {exc}", 300)
    if item.raw:
        if item.kind == "mail":
            result.failed_copy = store.deliver(store.mail_dir(campaign) / "failed", item.raw,
                                               same_as=result.kept)
        else:
            result.failed_copy = store.keep_file(store.forum_dir(campaign) / "failed", item.raw)
    copy = f" kept as {result.failed_copy}" if result.failed_copy else ""
    store.log_failure(campaign, f"{received} {result.name}: {result.failed};{copy}",
                      "".join(traceback.format_exception(exc)))


# --- mail --------------------------------------------------------------------------------


def _ingest_mail(campaign: Campaign, item: sources.Item, seen: store.Seen, received: str,
                 result: MessageResult) -> None:
    head = mime.headers_of(item.raw)
    result.message_id = _message_id(head)
    result.subject = mime.header(head, "Subject", 200)
    hash_token = "sha256:" + store.digest(item.raw)
    if hash_token in seen:
        result.already = True
        return
    # Kept first, before anything can go wrong with it.
    result.kept = store.deliver(store.mail_dir(campaign) / "received", item.raw)
    given = mime.raw_header(head, "Reply-To") or mime.raw_header(head, "From")
    result.sender_name, result.sender = reply_address(given)
    if not result.sender:
        result.bad_sender = _first_address(given)

    msg, problem = mime.read(item.raw)
    if problem:
        result.problems.append(problem)
    else:
        extracted = mime.pieces(msg)
        result.problems += extracted.problems
        chosen = [p for group in extracted.groups for p in _choose(campaign, group)]
        _submit_pieces(campaign, chosen, result, received)
    if not any(b.status != QUOTED for b in result.blocks):
        if result.blocks:
            result.unused = "only quoted order blocks"
        elif result.problems:
            result.unused = "no order block; " + "; ".join(result.problems[:3])
        else:
            result.unused = "no order block"
        result.unused_copy = store.deliver(store.mail_dir(campaign) / "unused", item.raw,
                                           same_as=result.kept)
    try:
        _reply(campaign, head, result, received, hash_token.removeprefix("sha256:")[:32])
    except Exception as exc:  # the orders are in: say why no receipt
        result.reply = ""
        result.no_reply = mime.clean(f"the reply could not be queued ({type(exc).__name__}: "
                                     f"{exc})", 300)
        store.log_failure(campaign, f"{received} {result.name}: {result.no_reply}",
                          "".join(traceback.format_exception(exc)))
    seen.add(hash_token)


def _message_id(msg: Message) -> str:
    return "".join(mime.clean(mime.raw_header(msg, "Message-ID"), 250).split())


def reply_address(value: str) -> tuple[str, str]:
    """The (display name, address) a reply to a ``From`` or ``Reply-To`` header ``value``
    goes to: exactly one mailbox, the first whose address is a plain ASCII ``local@domain``;
    ``("", "")`` when there is none. The address is parsed before RFC 2047 words are decoded,
    so a display name that decodes to a list of addresses stays a name."""
    value = re.sub(r"\r?\n(?=[ \t])", "", value).strip()
    if "\r" in value or "\n" in value:
        return "", ""
    for name, address in email.utils.getaddresses([value]):
        if _ADDR_SPEC.fullmatch(address) and len(address) <= 254:
            return mime.clean(mime.decode_words(name), 64), address
    return "", ""


def _first_address(value: str) -> str:
    """The address a header gave, for the GM's line, when no reply can go to it."""
    pairs = email.utils.getaddresses([" ".join(value.split())])
    return mime.clean(pairs[0][1], 80) if pairs and "@" in pairs[0][1] else ""


def _choose(campaign: Campaign, group: mime.Group) -> list[mime.Piece]:
    """The alternative of a ``multipart/alternative`` to use: the one with the most blocks
    whose signature verifies (a client may mangle one rendering), then the most blocks, then
    the fewest broken ones; plain text wins a tie."""
    if len(group.alternatives) == 1:
        return group.alternatives[0]

    def score(alt: list[mime.Piece]) -> tuple[int, int, int]:
        verified = blocks = broken = 0
        for piece in alt:
            found = scan.scan(piece.text, limit=MAX_BLOCKS)
            broken += len(found.broken)
            blocks += len(found.blocks)
            for block in found.blocks:
                try:
                    order = orders_mod.parse(block)
                    orders_mod.check_signature(order, engine.signers_now(campaign))
                    verified += 1
                except (PbemError, RecursionError):
                    pass
        return verified, blocks, -broken

    return max(group.alternatives, key=score)


def _submit_pieces(campaign: Campaign, pieces: list[mime.Piece], result: MessageResult,
                   received: str, *, skip: Callable[[str], bool] = lambda _: False,
                   limit: int = MAX_BLOCKS) -> list[str]:
    """Find, deduplicate and submit the blocks of ``pieces``, recording each in ``result`` in
    the order of the text, at most ``limit`` of them. A block whose token ``skip`` accepts
    was submitted by an earlier run and is only listed. Returns the tokens of what was
    submitted now."""
    scans = [(piece, scan.scan(piece.text, limit=limit)) for piece in pieces]
    more = sum(s.more for _, s in scans)
    keys: set[tuple[str, str]] = set()
    tokens: list[str] = []
    done_tokens: set[str] = set()
    unique: list[armor.Block] = []
    for _, s in scans:
        for block in s.blocks:
            if _key(block) not in keys:
                keys.add(_key(block))
                unique.append(block)
    copies, signed = _form_copies(unique[:limit])
    done: set[tuple[str, str]] = set()
    for piece, s in scans:
        entries: list[tuple[int, int, object]] = [(b.line, 0, b) for b in s.blocks]
        entries += [(b.line, 1, b) for b in s.broken]
        entries += [(q.line, 2, q) for q in s.quoted]
        for line, _, entry in sorted(entries, key=lambda e: (e[0], e[1])):
            if len(result.blocks) >= limit:
                more += 1
                continue
            where = f"{piece.label}, line {line}"
            if isinstance(entry, armor.Block):
                if _key(entry) in done:
                    continue
                done.add(_key(entry))
                player, phase = _envelope(entry)
                token = _block_token(entry)
                if entry in copies:
                    result.blocks.append(BlockResult(where, FORM_COPY, player=player,
                                                     phase=phase, signed=False))
                elif skip(token):
                    result.blocks.append(BlockResult(where, ALREADY, player=player,
                                                     phase=phase))
                else:
                    result.blocks.append(_submit_block(campaign, entry, where, result.name,
                                                       received))
                    tokens.append(token)
            elif isinstance(entry, scan.Broken):
                token = "broken:" + store.digest(
                    entry.text.lstrip("\n").encode("utf-8", "replace"))
                if token in done_tokens:
                    continue
                done_tokens.add(token)
                if skip(token):
                    result.blocks.append(BlockResult(where, ALREADY))
                    continue
                # Malformed: nothing to submit (the raw message is kept); the errors say
                # where, with the line numbers of the text.
                tokens.append(token)
                error = ArmorError(entry.error.problems, f"{result.name}, {piece.label}")
                result.blocks.append(BlockResult(where, REJECTED, error=error))
            elif isinstance(entry, scan.Quoted):
                if entry.block is not None and _key(entry.block) in keys:
                    continue  # the same block was also sent unquoted
                player, phase = _envelope(entry.block)
                is_signed = entry.block is not None and entry.block.signature is not None
                if not is_signed and (player, phase) in signed:
                    continue  # the quoted report's form, whose signed orders came along
                result.blocks.append(BlockResult(where, QUOTED, player=player, phase=phase,
                                                 signed=is_signed))
    if more:
        result.problems.append(f"{more} more order blocks not read (at most {limit} are "
                               f"read from one {'text' if result.kind == 'text' else 'message'})")
    return tokens


def _key(block: armor.Block) -> tuple[str, str]:
    """Two copies of one block (plain and HTML, body and attachment) have the same key."""
    return block.body, "".join((block.signature or "").split())


def _submit_block(campaign: Campaign, block: armor.Block, where: str, name: str,
                  received: str) -> BlockResult:
    pad = block.line - 1 if block.line <= MAX_PAD_LINES else 0
    data = ("\n" * pad + block.armored()).encode("utf-8")
    sub = engine.submit(campaign, data, f"{name}, {where}", received=received)
    player, phase = _envelope(block)
    if sub.receipts:
        receipt = sub.receipts[0]
        head = engine.head(campaign)
        return BlockResult(where, receipt.status, receipt=receipt, player=receipt.player,
                           phase=receipt.phase, inbox=sub.inbox.name, ledger_seq=head.seq,
                           ledger_head=head.prev_hash, campaign_hash=campaign.hash)
    return BlockResult(where, REJECTED, error=sub.errors[0], player=player, phase=phase,
                       signed=block.signature is not None, inbox=sub.inbox.name)


def _envelope(block: armor.Block | None) -> tuple[str, str]:
    """The player and phase a block says it is for, when its TOML reads ('' otherwise)."""
    if block is None:
        return "", ""
    return _read_envelope(block)


@functools.lru_cache(maxsize=64)
def _read_envelope(block: armor.Block) -> tuple[str, str]:
    # A message's blocks are asked about up to three times (form copies, quotes, results):
    # parsed once. The cache is small: what it holds is a few messages' blocks.
    try:
        env = orders_mod.parse(block).envelope
    except (PbemError, RecursionError):
        return "", ""
    return env.player, env.phase


def _form_copies(found: list[armor.Block]
                 ) -> tuple[dict[armor.Block, tuple[str, str]], set[tuple[str, str]]]:
    """The unsigned blocks for the same player and phase as a signed block found with them,
    and the (player, phase) of every signed block. Such an unsigned block is the form the
    player filled in, left below the reply by a client that does not quote (Outlook):
    submitting it would only add a false rejection."""
    signed: set[tuple[str, str]] = set()
    unsigned: list[tuple[armor.Block, tuple[str, str]]] = []
    for block in found:
        player, phase = _envelope(block)
        if not player:
            continue
        if block.signature is None:
            unsigned.append((block, (player, phase)))
        else:
            signed.add((player, phase))
    return {block: pair for block, pair in unsigned if pair in signed}, signed


def _reply(campaign: Campaign, msg: Message, result: MessageResult, received: str,
           name: str) -> None:
    """Queue the reply, unless there is nobody (or no person) to send it to; once per
    message (``name``, from the hash of its bytes), however often it is read."""
    settings = campaign.settings()
    mail = settings.get("mail", {})
    own = str(mail.get("from", "")) if isinstance(mail, dict) else ""
    registered = _registered(settings)
    why = _no_reply_reason(msg, result, own, registered)
    if why:
        result.no_reply = why
        return
    sender = result.sender.lower()
    details: dict[int, bool] = {}
    private: list[int] = []
    for i, b in enumerate(result.blocks):
        if isinstance(b.error, IllegalOrderError):
            address = registered.get(b.player, "")
            details[i] = not address or address == sender
            if not details[i]:
                private.append(i)
    references = mime.raw_header(msg, "References")
    text = replies.body(result, campaign.id, details=details)
    # An Address: the display name is quoted or encoded by the mail policy, never parsed
    # again as addresses.
    to = Address(display_name=result.sender_name, addr_spec=result.sender)
    reply = replies.build(result, references, sender=own, to=to, text=text, date=received)
    result.reply = outbox.put(campaign, reply, once=f"reply-{name}")
    for i in private:
        # The rules' objections speak of the player's hidden position: only to their address.
        b = result.blocks[i]
        only = MessageResult(result.source, result.kind, result.message_id, result.subject,
                             blocks=[b])
        secret = replies.build(only, references, sender=own, to=registered[b.player],
                               text=replies.body(only, campaign.id,
                                                 on_behalf=result.sender),
                               date=received,
                               tag=f"private/{i}")
        outbox.put(campaign, secret, once=f"reply-{name}-private-{i}")


def _registered(settings: dict[str, object]) -> dict[str, str]:
    """Each player's registered mail address (``[players.NAME] email``), lower case."""
    players = settings.get("players", {})
    out: dict[str, str] = {}
    if isinstance(players, dict):
        for name, entry in players.items():
            if isinstance(entry, dict) and entry.get("email"):
                out[str(name)] = email.utils.parseaddr(str(entry["email"]))[1].lower()
    return out


def _no_reply_reason(msg: Message, result: MessageResult, own: str,
                     registered: dict[str, str]) -> str:
    if not result.sender:
        if result.bad_sender:
            return (f"the sender address {result.bad_sender} is not a plain ASCII address "
                    "(local@domain.example): no reply can be sent to it")
        return "no sender address"
    auto = mime.header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"automatic message (Auto-Submitted: {auto})"
    if mime.header(msg, "Precedence").lower() in ("bulk", "junk", "list"):
        return "bulk or list mail"
    if msg.get_content_type() == "multipart/report":
        return "delivery report"
    local = result.sender.lower().partition("@")[0]
    if local in _ROBOTS:
        return f"sender {result.sender} is a mail robot"
    if own and email.utils.parseaddr(own)[1].lower() == result.sender.lower():
        return "sent from the GM's own address"
    if not result.blocks and result.sender.lower() not in registered.values():
        # Nothing that looks like orders, from an address no player registered: most likely
        # spam, whose sender addresses are forged. Kept in unused for the GM instead.
        return "no order block, and the sender is not a registered player"
    return ""


# --- forum texts -------------------------------------------------------------------------


def _ingest_text(campaign: Campaign, item: sources.Item, seen: store.Seen, received: str,
                 result: MessageResult) -> None:
    """A saved forum thread. It grows between runs, so what is remembered is each block
    submitted, not the file: read again, only the new blocks are submitted."""
    result.kept = store.keep_file(store.forum_dir(campaign) / "received", item.raw)
    text, result.problems = mime.decode(item.raw, None)
    if htmltext.looks_like_html(text):
        text = htmltext.to_text(text)
    piece = mime.Piece("text", scan.forum_text(text))
    tokens = _submit_pieces(campaign, [piece], result, received,
                            skip=lambda token: token in seen, limit=MAX_FORUM_BLOCKS)
    if tokens:
        seen.add(*tokens)
    if not any(b.status != QUOTED for b in result.blocks):
        result.unused = "only quoted order blocks" if result.blocks else "no order block"
        result.unused_copy = store.keep_file(store.forum_dir(campaign) / "unused", item.raw)


def _block_token(block: armor.Block) -> str:
    return "block:" + store.digest(block.armored().encode("utf-8"))

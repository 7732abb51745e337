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
"""

from __future__ import annotations

import email.utils
from collections.abc import Callable, Iterable
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
from pbem.core import armor, engine
from pbem.core import orders as orders_mod
from pbem.core.campaign import Campaign
from pbem.core.errors import IllegalOrderError, PbemError

# Senders that are machines: never answered, so that two robots cannot mail each other forever.
_ROBOTS = ("mailer-daemon", "postmaster", "noreply", "no-reply", "donotreply",
           "do-not-reply", "bounce", "bounces")


def ingest(campaign: Campaign, paths: Iterable[Path], *, received: str,
           on_result: Callable[[MessageResult], None] = lambda _: None) -> list[MessageResult]:
    """Ingest every message of every source in ``paths``; ``received`` (RFC 3339 UTC, the
    caller's clock) is when the GM's side got them. ``on_result`` sees each result as soon
    as it is done."""
    paths = list(paths)
    for path in paths:
        sources.check(path)
    results = []
    with store.IngestLock(campaign):
        seen = store.Seen(store.mail_dir(campaign) / "seen.txt")
        for item in (item for path in paths for item in sources.read(path)):
            if item.kind == "mail":
                result = _ingest_mail(campaign, item, seen, received)
            else:
                result = _ingest_text(campaign, item, seen, received)
            results.append(result)
            on_result(result)
    return results


# --- mail --------------------------------------------------------------------------------


def _ingest_mail(campaign: Campaign, item: sources.Item, seen: store.Seen,
                 received: str) -> MessageResult:
    msg = mime.parse(item.raw)
    result = MessageResult(item.source, "mail", message_id=_message_id(msg),
                           subject=mime.header(msg, "Subject"))
    hash_token = "sha256:" + store.digest(item.raw)
    id_token = f"msgid:{result.message_id}" if result.message_id else ""
    if hash_token in seen or (id_token and id_token in seen):
        result.already = True
        return result
    result.kept = store.deliver(store.mail_dir(campaign) / "received", item.raw)
    name, address = email.utils.parseaddr(mime.header(msg, "Reply-To")
                                          or mime.header(msg, "From"))
    if "@" in address:
        result.sender, result.sender_name = address, name

    extracted = mime.pieces(msg)
    result.problems = extracted.problems
    chosen = [p for group in extracted.groups for p in _choose(campaign, group)]
    _submit_pieces(campaign, chosen, result, received)
    if not any(b.status != QUOTED for b in result.blocks):
        if result.blocks:
            result.unused = "only quoted order blocks"
        elif result.problems:
            result.unused = "cannot be decoded: " + "; ".join(result.problems)
        else:
            result.unused = "no order block"
        result.unused_copy = store.deliver(store.mail_dir(campaign) / "unused", item.raw)
    _reply(campaign, msg, result, received)
    seen.add(hash_token, id_token)
    return result


def _message_id(msg: Message) -> str:
    value = mime.header(msg, "Message-ID").strip()
    return "".join(value.split())


def _choose(campaign: Campaign, group: mime.Group) -> list[mime.Piece]:
    """The alternative of a ``multipart/alternative`` to use: the one with the most blocks
    whose signature verifies (a client may mangle one rendering), then the most blocks, then
    the fewest broken ones; plain text wins a tie."""
    if len(group.alternatives) == 1:
        return group.alternatives[0]

    def score(alt: list[mime.Piece]) -> tuple[int, int, int]:
        verified = blocks = broken = 0
        for piece in alt:
            found = scan.scan(piece.text)
            broken += len(found.broken)
            blocks += len(found.blocks)
            for block in found.blocks:
                try:
                    order = orders_mod.parse(block)
                    orders_mod.check_signature(order, campaign.signers)
                    verified += 1
                except PbemError:
                    pass
        return verified, blocks, -broken

    return max(group.alternatives, key=score)


def _submit_pieces(campaign: Campaign, pieces: list[mime.Piece], result: MessageResult,
                   received: str, *, skip: Callable[[str], bool] = lambda _: False
                   ) -> list[str]:
    """Find, deduplicate and submit the blocks of ``pieces``, recording each in ``result`` in
    the order of the text. A block whose token ``skip`` accepts was submitted by an earlier
    run and is only listed. Returns the tokens of what was submitted now."""
    scans = [(piece, scan.scan(piece.text)) for piece in pieces]
    keys: set[tuple[str, str]] = set()
    tokens: list[str] = []
    unique: list[armor.Block] = []
    for _, s in scans:
        for block in s.blocks:
            if _key(block) not in keys:
                keys.add(_key(block))
                unique.append(block)
    copies, signed = _form_copies(unique)
    done: set[tuple[str, str]] = set()
    for piece, s in scans:
        entries: list[tuple[int, int, object]] = [(b.line, 0, b) for b in s.blocks]
        entries += [(b.line, 1, b) for b in s.broken]
        entries += [(q.line, 2, q) for q in s.quoted]
        for line, _, entry in sorted(entries, key=lambda e: (e[0], e[1])):
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
                token = "broken:" + store.digest(entry.text.lstrip("\n").encode("utf-8"))
                if token in tokens:
                    continue
                if skip(token):
                    result.blocks.append(BlockResult(where, ALREADY))
                    continue
                # Malformed: the engine keeps the text and gives the errors with their lines.
                sub = engine.submit(campaign, entry.text.encode("utf-8"),
                                    f"{result.name}, {piece.label}", received=received)
                tokens.append(token)
                result.blocks += [BlockResult(where, REJECTED, error=e, inbox=sub.inbox.name)
                                  for e in sub.errors]
            elif isinstance(entry, scan.Quoted):
                if entry.block is not None and _key(entry.block) in keys:
                    continue  # the same block was also sent unquoted
                player, phase = _envelope(entry.block)
                is_signed = entry.block is not None and entry.block.signature is not None
                if not is_signed and (player, phase) in signed:
                    continue  # the quoted report's form, whose signed orders came along
                result.blocks.append(BlockResult(where, QUOTED, player=player, phase=phase,
                                                 signed=is_signed))
    return tokens


def _key(block: armor.Block) -> tuple[str, str]:
    """Two copies of one block (plain and HTML, body and attachment) have the same key."""
    return block.body, "".join((block.signature or "").split())


def _submit_block(campaign: Campaign, block: armor.Block, where: str, name: str,
                  received: str) -> BlockResult:
    data = ("\n" * (block.line - 1) + block.armored()).encode("utf-8")
    sub = engine.submit(campaign, data, f"{name}, {where}", received=received)
    player, phase = _envelope(block)
    if sub.receipts:
        receipt = sub.receipts[0]
        head = engine.head(campaign)
        return BlockResult(where, receipt.status, receipt=receipt, player=receipt.player,
                           phase=receipt.phase, inbox=sub.inbox.name, ledger_seq=head.seq,
                           ledger_head=head.prev_hash)
    return BlockResult(where, REJECTED, error=sub.errors[0], player=player, phase=phase,
                       signed=block.signature is not None, inbox=sub.inbox.name)


def _envelope(block: armor.Block | None) -> tuple[str, str]:
    """The player and phase a block says it is for, when its TOML reads ('' otherwise)."""
    if block is None:
        return "", ""
    try:
        env = orders_mod.parse(block).envelope
    except PbemError:
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


def _reply(campaign: Campaign, msg: Message, result: MessageResult, received: str) -> None:
    """Queue the reply, unless there is nobody (or no person) to send it to."""
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
    references = mime.header(msg, "References")
    text = replies.body(result, campaign.id, details=details)
    to = email.utils.formataddr((result.sender_name, result.sender))
    reply = replies.build(result, references, sender=own, to=to, text=text, date=received)
    result.reply = outbox.put(campaign, reply)
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
        outbox.put(campaign, secret)


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


def _ingest_text(campaign: Campaign, item: sources.Item, seen: store.Seen,
                 received: str) -> MessageResult:
    """A saved forum thread. It grows between runs, so what is remembered is each block
    submitted, not the file: read again, only the new blocks are submitted."""
    result = MessageResult(item.source, "text")
    result.kept = store.keep_file(store.forum_dir(campaign) / "received", item.raw)
    text = _text_of(item.raw)
    if text is None:
        result.problems = ["not UTF-8 or UTF-16 text"]
        result.unused = "cannot be decoded: not UTF-8 or UTF-16 text"
        result.unused_copy = store.keep_file(store.forum_dir(campaign) / "unused", item.raw)
        return result
    if htmltext.looks_like_html(text):
        text = htmltext.to_text(text)
    piece = mime.Piece("text", scan.forum_text(text))
    tokens = _submit_pieces(campaign, [piece], result, received,
                            skip=lambda token: token in seen)
    if tokens:
        seen.add(*tokens)
    if not any(b.status != QUOTED for b in result.blocks):
        result.unused = "only quoted order blocks" if result.blocks else "no order block"
        result.unused_copy = store.keep_file(store.forum_dir(campaign) / "unused", item.raw)
    return result


def _block_token(block: armor.Block) -> str:
    return "block:" + store.digest(block.armored().encode("utf-8"))


def _text_of(raw: bytes) -> str | None:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None

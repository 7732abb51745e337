"""Order files: the envelope, the orders table, and their checks (DESIGN.md section 3).

:func:`parse` turns an armored :class:`~pbem.core.armor.Block` into an :class:`OrderFile`
(TOML syntax and envelope shape); :func:`check_signature` and :func:`check_envelope` then
decide whether it may be accepted for a campaign's open phase. Each replay case (another
campaign, another phase, another player, a signer who is not the player) has its own message.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any, Final

import tomli

from pbem.core import escape, sshsig
from pbem.core.armor import Block
from pbem.core.errors import EnvelopeError, OrderSyntaxError, Problem, SignatureError
from pbem.core.keys import AllowedSigners
from pbem.core.ruleset import PhaseSpec
from pbem.core.values import FrozenValue

#: Order files of version 2 campaigns (DESIGN.md section 8): the envelope names the sha256
#: of the campaign.toml they are for, so they are bound to one campaign, not to an id.
ORDERS_FORMAT = "pbem-orders/2"
#: Order files of version 1 campaigns, accepted in those only.
ORDERS_FORMAT_V1 = "pbem-orders/1"
PLAYER_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
HEX64 = re.compile(r"[0-9a-f]{64}")
ENVELOPE_KEYS_V1 = ("format", "campaign", "player", "phase", "salt", "entropy")
ENVELOPE_KEYS = ("format", "campaign", "campaign_hash", "player", "phase", "salt", "entropy")


class Envelope(FrozenValue):
    _fields = ("format", "campaign", "player", "phase", "salt", "entropy", "campaign_hash")
    __slots__ = _fields
    format: Final[str]
    campaign: Final[str]
    player: Final[str]
    phase: Final[str]
    salt: Final[str]
    entropy: Final[str]
    #: sha256 of the campaign.toml the file is for (version 2; "" in a version 1 file).
    campaign_hash: Final[str]

    def __init__(self, format: str, campaign: str, player: str, phase: str, salt: str,
                 entropy: str, campaign_hash: str = "") -> None:
        self.format = format
        self.campaign = campaign
        self.player = player
        self.phase = phase
        self.salt = salt
        self.entropy = entropy
        self.campaign_hash = campaign_hash


class OrderFile(FrozenValue):
    """A parsed order block: its normalised body, envelope, ``[orders]`` table and signature."""

    _fields = ("block", "envelope", "orders")  # no __slots__: a cached_property below
    block: Final[Block]
    envelope: Final[Envelope]
    orders: Final[dict[str, Any]]

    def __init__(self, block: Block, envelope: Envelope, orders: dict[str, Any]) -> None:
        self.block = block
        self.envelope = envelope
        self.orders = orders

    @property
    def commitment(self) -> str:
        return self.block.commitment

    @property
    def player(self) -> str:
        return self.envelope.player

    @functools.cached_property
    def _canonical(self) -> str:
        if self.block.signature is None:
            return self.block.armored()
        sig = self.block.verified or sshsig.parse_armor(self.block.signature)
        return Block(self.block.body, sig.armor(), self.block.line).armored()

    def canonical_text(self) -> str:
        """The armored text as stored and published: ``N(body)`` and the canonical signature
        (made once: the pending file, the record's copy and the ledger all take it)."""
        return self._canonical


def parse(block: Block, source: str = "", *, check_text: bool = True) -> OrderFile:
    """Parse the TOML body of ``block`` and the shape of its envelope; all problems at once.

    ``check_text``: refuse characters that change how other text is shown (:func:`text_problems`)
    anywhere in the block. Only a reader of orders accepted before that check existed (an
    audit of an old ledger) turns it off."""
    try:
        data = tomli.loads(block.body)
    except tomli.TOMLDecodeError as exc:
        raise OrderSyntaxError(
            Problem(f"order block at line {block.line}", f"not valid TOML: {exc}",
                    "compare with the order form; strings need double quotes"),
            source,
        ) from None
    except ValueError:
        # Python refuses to read an integer of more than 4300 digits (a guard against slow
        # conversions); tomli lets that ValueError through.
        raise OrderSyntaxError(
            Problem(f"order block at line {block.line}",
                    "not valid TOML: a number of more than 4300 digits",
                    "compare with the order form; no order takes a number that long"),
            source,
        ) from None
    except RecursionError:
        # tomli parses nested arrays and inline tables recursively: a few hundred "[" are
        # enough to exhaust Python's stack. No order form nests more than three deep.
        raise OrderSyntaxError(
            Problem(f"order block at line {block.line}",
                    "not valid TOML: arrays or tables nested too deep",
                    "compare with the order form; no value nests more than a few levels"),
            source,
        ) from None
    problems: list[Problem] = []
    for key in data:
        if key not in ("envelope", "orders"):
            problems.append(Problem(f"[{key}]", "unknown table or key at the top level",
                                    "orders go inside the [orders] table"))
    env = data.get("envelope")
    if not isinstance(env, dict):
        problems.append(Problem("[envelope]", "missing", "keep the [envelope] table of the form"))
        raise OrderSyntaxError(problems, source)
    expected = ENVELOPE_KEYS_V1 if env.get("format") == ORDERS_FORMAT_V1 else ENVELOPE_KEYS
    for key in env:
        if key not in expected:
            problems.append(Problem(f"[envelope] {key}", "unknown key",
                                    f"the envelope has only {', '.join(expected)}"))
    values: dict[str, str] = {}
    for key in expected:
        value = env.get(key)
        if not isinstance(value, str):
            problems.append(Problem(f"[envelope] {key}", "missing or not a string",
                                    "keep the envelope the order form gave you"))
        else:
            values[key] = value
    if "format" in values and values["format"] not in (ORDERS_FORMAT, ORDERS_FORMAT_V1):
        problems.append(Problem("[envelope] format", f"is {values['format']!r}",
                                f'write format = "{ORDERS_FORMAT}"'))
    if "player" in values and not PLAYER_NAME.fullmatch(values["player"]):
        problems.append(Problem("[envelope] player", f"{values['player']!r} is not a player name",
                                "player names are lower case, [a-z][a-z0-9_-]{0,31}"))
    for key in ("salt", "entropy", "campaign_hash"):
        if key in values and not HEX64.fullmatch(values[key]):
            problems.append(Problem(f"[envelope] {key}", "must be 64 lower-case hex digits",
                                    "use the value from a fresh order form (pbem form)"))
    orders = data.get("orders", {})
    if not isinstance(orders, dict):
        problems.append(Problem("[orders]", "must be a table", "write [orders] on its own line"))
        orders = {}
    if check_text:
        problems += text_problems(block, env, orders)
    if problems:
        raise OrderSyntaxError(problems, source)
    return OrderFile(block, Envelope(**values), orders)


def _key(key: str) -> str:
    """A key as a problem names it: a refused character in it written as ``\\u202e``."""
    return "".join(f"\\u{ord(ch):04x}" if escape.refusal(ch) else ch for ch in key)


def _strings(value: Any, where: str, sep: str = " ") -> Iterable[tuple[str, str]]:
    """Every string in ``value`` (keys of tables too), with where it is as a player reads it:
    ``[orders] god.area``, ``[orders] moves, entry 2, path``."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            inner = f"{where}{sep}{_key(key)}"
            yield inner, key
            yield from _strings(item, inner, ".")
    elif isinstance(value, list):
        for n, item in enumerate(value, 1):
            yield from _strings(item, f"{where}, entry {n}", ", ")


#: Controls but tab and line feed (which refusal() refuses in a line of the block).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _printable(value: Any) -> bool:
    """Whether every key and string in ``value`` is printable ASCII (a tab, a line break or
    any other character makes it False: text_problems then looks at each one)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is str:
            if not (v.isascii() and v.isprintable()):
                return False
        elif type(v) is dict:
            for k, x in v.items():
                if not (k.isascii() and k.isprintable()):
                    return False
                stack.append(x)
        elif type(v) is list:
            stack.extend(v)
    return True


def text_problems(block: Block, envelope: dict[str, Any], orders: dict[str, Any]
                  ) -> list[Problem]:
    """Characters that would change how other text is shown to other readers, in any string
    of the envelope or the ``[orders]`` table (keys too) or anywhere in the block (comments):
    bidi overrides and isolates, zero-width and other invisible format characters, line and
    paragraph separators, control characters but tab (:func:`pbem.core.escape.refusal`).
    Order values reach reports, the gazette, the public site and the ledger, which others
    read; a U+202E there would reorder what they see."""
    body = block.body
    if (body.isascii() and _CONTROLS.search(body) is None and _printable(envelope)
            and _printable(orders)):
        # Most order files: every line, key and string printable ASCII, so nothing to refuse
        # (the walk below names where a refused character is, one character at a time).
        return []
    problems: list[Problem] = []
    for table, value in (("[envelope]", envelope), ("[orders]", orders)):
        for where, text in _strings(value, table):
            for ch, why in escape.refused_in(text):
                problems.append(Problem(where, f"contains {escape.describe(ch)}, {why}",
                                        "remove it"))
    if not problems:  # the same characters written literally: report them once, by line
        for n, line in enumerate(block.body.split("\n"), 1):
            for ch, why in escape.refused_in(line, allow="\r"):
                problems.append(Problem(f"order block at line {block.line}",
                                        f"line {n} of the block contains "
                                        f"{escape.describe(ch)}, {why}",
                                        "remove it; comments are published with the orders too"))
    return problems


def check_signature(order: OrderFile, signers: AllowedSigners, source: str = "") -> None:
    """The block is signed, in namespace ``pbem-orders``, by the key of its envelope's player."""
    if order.block.signature is None:
        raise SignatureError(Problem("signature", "the order block is not signed",
                                     "sign it: pbem sign FILE --key KEY"), source)
    try:
        sig = order.block.verified or sshsig.parse_armor(order.block.signature)
    except SignatureError as exc:  # sshsig knows no source: name it here
        raise SignatureError(exc.problems, source) from None
    player = order.envelope.player
    keys = signers.keys_for(player, sshsig.NAMESPACE_ORDERS)
    if sig.public_key not in keys:
        others = signers.principals_for(sig.public_key, sshsig.NAMESPACE_ORDERS)
        if others:
            msg = (f"signed by the key of {', '.join(others)}, but the envelope says player "
                   f"{player!r}")
            hint = "each player signs their own orders with their own key"
        else:
            msg = (f"signed by key {sshsig.fingerprint(sig.public_key)}, which is not registered "
                   f"for {player!r} in this campaign")
            hint = "sign with the key you gave the GM, or ask the GM to register your new key"
        raise SignatureError(Problem("signature", msg, hint), source)
    if order.block.verified is sig:
        # armor.extract verified this signature over this body, in this namespace, under the
        # key it names, which is the player's (above): verifying again would prove nothing new.
        return
    try:
        sshsig.verify(order.block.body_bytes, sig, sshsig.NAMESPACE_ORDERS, keys)
    except SignatureError as exc:
        raise SignatureError(exc.problems, source) from None


def check_envelope(order: OrderFile, campaign_id: str, players: Iterable[str],
                   phase: PhaseSpec | None, source: str = "", *,
                   campaign_hash: str | None = None) -> None:
    """Replay protection: this campaign, a player of it, the open phase, a player who acts in it.

    ``campaign_hash`` is the sha256 of the campaign's campaign.toml for a version 2 campaign,
    whose orders must name it (``None``: a version 1 campaign, which takes version 1 files)."""
    env = order.envelope
    if env.campaign != campaign_id:
        raise EnvelopeError(Problem(
            "[envelope] campaign",
            f"this file is for campaign {env.campaign!r}, not {campaign_id!r}",
            "orders for one campaign are never accepted in another; use this campaign's form"),
            source)
    wanted = ORDERS_FORMAT if campaign_hash is not None else ORDERS_FORMAT_V1
    if env.format != wanted:
        raise EnvelopeError(Problem(
            "[envelope] format",
            f"this file is in format {env.format!r}; campaign {campaign_id!r} takes {wanted!r}",
            "fill in a fresh order form of this campaign (pbem form, or your last report)"),
            source)
    if campaign_hash is not None and env.campaign_hash != campaign_hash:
        raise EnvelopeError(Problem(
            "[envelope] campaign_hash",
            f"this file is for another campaign called {campaign_id!r} (campaign_hash "
            f"{env.campaign_hash[:16]}…, this campaign's is {campaign_hash[:16]}…)",
            "orders are bound to one campaign.toml: use the form of the campaign you are "
            "playing in (your last report has it)"), source)
    if env.player not in set(players):
        raise EnvelopeError(Problem("[envelope] player",
                                    f"{env.player!r} is not a player of campaign {campaign_id!r}",
                                    "check the player name in your form"), source)
    if phase is None:
        raise EnvelopeError(Problem("[envelope] phase", "the game is over; no phase is open"),
                            source)
    if env.phase != phase.id:
        raise EnvelopeError(Problem(
            "[envelope] phase",
            f"this file is for phase {env.phase!r}, but the open phase is {phase.id!r}",
            "orders for a past or a future phase are not accepted; fill in the current form"),
            source)
    if env.player not in phase.actors:
        acting = ", ".join(phase.actors) or "nobody (automatic phase)"
        raise EnvelopeError(Problem(
            "[envelope] player",
            f"{env.player!r} does not give orders in phase {phase.id!r} (acting: {acting})",
            "wait for your report with the next order form"), source)

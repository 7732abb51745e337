"""The reply ``pbem ingest`` sends for a message: a receipt per block, or the precise errors.

Plain text within 78 columns (phones, terminals), threaded under the player's mail
(``In-Reply-To``, ``References``, ``Re:`` subject) and marked ``Auto-Submitted:
auto-replied`` (RFC 3834) so that vacation responders do not answer it and start a loop.

Bounded whatever the message was: at most :data:`MAX_PARAGRAPHS` block paragraphs, each with
at most :data:`MAX_ERROR_LINES` lines of errors; nothing of the player's text is echoed but
the subject (cut at 80 characters) and the places where blocks were found.
"""

from __future__ import annotations

import email.utils
import hashlib
import re
import textwrap
from datetime import datetime
from email.headerregistry import Address, HeaderRegistry
from email.message import EmailMessage
from email.policy import default

from pbem.channels.results import (
    ALREADY,
    FORM_COPY,
    QUOTED,
    REJECTED,
    BlockResult,
    MessageResult,
)
from pbem.core import armor, escape
from pbem.core.errors import IllegalOrderError, ProblemsError
from pbem.core.receipts import format_receipt

WIDTH = 78
#: Block paragraphs in one reply; the others are counted, not listed.
MAX_PARAGRAPHS = 20
#: Lines of errors per block; the others are counted, not listed.
MAX_ERROR_LINES = 15
#: Problems ("could not read") listed per reply.
MAX_PROBLEMS = 5
_MSG_ID = re.compile(r"<[!-;=?-~]{1,250}>")
PLACEHOLDER_FROM = "pbem@localhost"
_STATUS = {
    "accepted": "Accepted",
    "replaced": "Accepted, replacing the orders you sent before",
    "unchanged": "Already accepted (the same orders again; nothing changed)",
}


def _wrap(text: str, first: str = "", rest: str | None = None) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first,
                         subsequent_indent=first if rest is None else rest,
                         break_on_hyphens=False, break_long_words=True) or [first.rstrip()]


def _errors(error: ProblemsError) -> list[str]:
    # ProblemsError.render() without the source prefix: the place is said on its own line.
    lines: list[str] = []
    for n, problem in enumerate(error.problems):
        text = str(problem)
        wrapped = _wrap(text if len(text) <= 600 else text[:599] + "…", "   - ", "     ")
        if len(lines) + len(wrapped) > MAX_ERROR_LINES:
            lines.append(f"   - … and {len(error.problems) - n} more problems")
            break
        lines += wrapped
    return lines


def block_lines(n: int, b: BlockResult, *, details: bool = True) -> list[str]:
    """The paragraph about block ``n`` of a message. ``details=False`` withholds the rules'
    objections, which can tell of the player's hidden position (see :mod:`ingest`)."""
    who = f"orders of {b.player} for phase {b.phase}" if b.player else "order block"
    out: list[str] = []
    if b.status in _STATUS and b.receipt is not None:
        r = b.receipt
        out += _wrap(f"{n}. {_STATUS[b.status]}: orders of {r.player} for phase {r.phase}",
                     "", "   ")
        out += _wrap(f"Found in: {b.where}", "   ", "     ")
        head = (f"record {b.ledger_seq}" if b.ledger_seq else
                "no record yet, campaign.toml")
        out += ["   Commitment:", f"     {r.commitment}",
                f"   Ledger head: {head}, sha256", f"     {b.ledger_head}"]
        if b.campaign_hash:
            # The same facts for pbem receipts to read back (DESIGN.md section 8).
            # Not indented: the longest line is then 78 columns (a seven-digit head).
            out += ["   Receipt (pbem receipts reads these four lines):",
                    *format_receipt(r.player, r.phase, r.commitment, b.ledger_seq,
                                    b.ledger_head, b.campaign_hash).splitlines()]
        if r.notes and details:
            out += _wrap("Accepted; checked again when the phase runs (these depend on "
                         "what happens earlier in it):", "   ", "   ")
            for note in r.notes:
                out += _wrap(note, "   - ", "     ")
    elif b.status == REJECTED and b.error is not None:
        out += _wrap(f"{n}. Rejected: {who}", "", "   ")
        out += _wrap(f"Found in: {b.where}", "   ", "     ")
        if details or not isinstance(b.error, IllegalOrderError):
            out += ["   What is wrong, where, and how to fix it:", *_errors(b.error)]
        else:
            out += _wrap("The rules of the game forbid these orders. The details concern "
                         f"the position of {b.player} and were sent only to the address "
                         f"registered for {b.player}.", "   ")
    elif b.status == QUOTED:
        out += _wrap(f"{n}. Quoted, not submitted: {who}", "", "   ")
        out += _wrap(f"Found in: {b.where}, inside a quote", "   ", "     ")
        out += _wrap('Text quoted with ">" is the mail you replied to, not new orders. To '
                     'send these orders, paste the signed block without the ">" marks, or '
                     "attach the signed file.", "   ")
    elif b.status == FORM_COPY:
        out += _wrap(f"{n}. Ignored: an unsigned copy of the form for {b.player}, phase "
                     f"{b.phase}", "", "   ")
        out += _wrap(f"Found in: {b.where}", "   ", "     ")
        out += _wrap("The signed orders for the same phase in this message were used.", "   ")
    elif b.status == ALREADY:
        out += _wrap(f"{n}. Already received earlier: {who}", "", "   ")
    return out


def body(result: MessageResult, campaign_id: str, *,
         details: dict[int, bool] | None = None, on_behalf: str = "") -> str:
    """The text of the reply to ``result``; ``details[i]`` false withholds block i's rule
    objections (see :func:`block_lines`). ``on_behalf`` names the sender when the text goes
    to the player whose orders someone else sent."""
    shown = result.subject if len(result.subject) <= 80 else result.subject[:79] + "…"
    subject = f' "{shown}"' if shown else ""
    if on_behalf:
        lines = _wrap(f"This is pbem, the adjudicator of campaign {campaign_id}. A message"
                      f"{subject} from {on_behalf} carried orders signed with your key. "
                      "What the rules found wrong with them is for you only:")
    else:
        lines = _wrap(f"This is pbem, the adjudicator of campaign {campaign_id}, answering "
                      f"your message{subject}.")
    lines.append("")
    if not result.blocks:
        lines += _wrap(f"No order block was found in it. Orders go between the lines "
                       f"{armor.BEGIN_ORDERS} and {armor.END_ORDERS}, followed "
                       "by your SSH signature: fill in the form of your report, sign it "
                       "with pbem sign, and paste the result in the mail or attach the file.")
        lines.append("")
    for i, b in enumerate(result.blocks[:MAX_PARAGRAPHS]):
        lines += [*block_lines(i + 1, b, details=(details or {}).get(i, True)), ""]
    if len(result.blocks) > MAX_PARAGRAPHS:
        lines += _wrap(f"{len(result.blocks) - MAX_PARAGRAPHS} more order blocks are not "
                       "listed here.")
        lines.append("")
    for problem in result.problems[:MAX_PROBLEMS]:
        lines += _wrap(f"Could not read: {problem}", "", "  ")
    if len(result.problems) > MAX_PROBLEMS:
        lines += _wrap(f"({len(result.problems) - MAX_PROBLEMS} more things could not be "
                       "read.)")
    if result.problems:
        lines.append("")
    if any(b.status == REJECTED for b in result.blocks):
        lines += _wrap("Nothing was changed for the rejected blocks: correct them, sign "
                       "again and send them in a new mail.")
        lines.append("")
    if any(b.receipt is not None for b in result.blocks):
        lines += _wrap("Keep this receipt. The commitment is what the ledger will list for "
                       "your orders when the phase is adjudicated; anyone can check it "
                       "there with pbem audit, and you can check that the published "
                       "campaign holds it with pbem receipts DIR --player NAME --key "
                       "YOUR.pub THIS_MAIL. A new signed file sent before the deadline "
                       "replaces these orders.")
    return "\n".join(lines).rstrip("\n") + "\n"


def reply_subject(subject: str) -> str:
    return subject if subject[:3].lower() == "re:" else f"Re: {subject or 'your orders'}"


class _Headers(HeaderRegistry):
    """The standard registry, but each header's class made once: the stdlib's makes a new
    class at every header set or parsed, up to a third of the cost of a reply (``pbem
    ingest`` writes one per message). The classes made are the same, so are the messages."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type] = {}

    def __getitem__(self, name: str) -> type:
        key = name.lower()
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = super().__getitem__(key)
        return made


POLICY = default.clone(header_factory=_Headers())


def build(result: MessageResult, references: str, *, sender: str, to: str | Address,
          text: str, date: str, tag: str = "") -> EmailMessage:
    """The reply mail. ``date`` is RFC 3339 UTC (the caller's clock); the Message-ID is
    derived from the original message and ``tag``, so it is the same if written again.
    ``references`` is the original's References header: only the message ids in it are
    kept, as is the original's Message-ID only when it is one."""
    msg = EmailMessage(policy=POLICY)
    msg["From"] = sender or PLACEHOLDER_FROM
    msg["To"] = to
    msg["Subject"] = escape.mail_header(reply_subject(result.subject))
    when = datetime.fromisoformat(date.replace("Z", "+00:00")) if date else None
    if when is not None:
        msg["Date"] = email.utils.format_datetime(when)
    domain = email.utils.parseaddr(sender or PLACEHOLDER_FROM)[1].rpartition("@")[2]
    seed = f"{result.source}\n{result.message_id}\n{tag}\n".encode()
    msg["Message-ID"] = f"<pbem-receipt.{hashlib.sha256(seed).hexdigest()[:24]}@" \
                        f"{domain or 'localhost'}>"
    if _MSG_ID.fullmatch(result.message_id):
        msg["In-Reply-To"] = result.message_id
        refs = " ".join([*_MSG_ID.findall(references), result.message_id][-20:])
        msg["References"] = refs
    msg["Auto-Submitted"] = "auto-replied"
    msg.set_content(text, charset="utf-8", cte="quoted-printable")
    return msg

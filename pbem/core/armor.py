"""Armored order blocks: finding them in any text, normalising, committing (DESIGN.md section 3).

An order file is text that has to survive mail clients and forum software. This module finds
every ``-----BEGIN PBEM ORDERS-----`` block in a text (an email body, a saved forum page, an
attachment), ignores everything around it, and reduces the body to the normalised bytes
``N(body)`` that are signed and committed to.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from pbem.core.errors import ArmorError, Problem

BEGIN_ORDERS = "-----BEGIN PBEM ORDERS-----"
END_ORDERS = "-----END PBEM ORDERS-----"
BEGIN_SIGNATURE = "-----BEGIN SSH SIGNATURE-----"
END_SIGNATURE = "-----END SSH SIGNATURE-----"
COMMIT_PREFIX = b"pbem-commit/1\n"

# A Log Sheet for a whole campaign is a few KiB; anything this large is not an order file.
MAX_TEXT = 4 * 1024 * 1024
MAX_BODY = 256 * 1024


def _lines(text: str) -> list[str]:
    # Not str.splitlines(): that also splits on \v, \f, \x1c-\x1e, \x85, U+2028 and U+2029,
    # which other verifiers following DESIGN.md would keep inside a line.
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def normalise(body: str) -> bytes:
    """``N(body)``: LF line ends, no trailing blanks, no empty lines at either end, one final LF."""
    lines = [line.rstrip(" \t") for line in _lines(body)]
    while lines and lines[0] == "":
        lines.pop(0)
    while lines and lines[-1] == "":
        lines.pop()
    return ("\n".join(lines) + "\n").encode("utf-8")


def commitment(normalised_body: bytes) -> str:
    """``sha256(b"pbem-commit/1\\n" + N(body))`` in lowercase hex."""
    return hashlib.sha256(COMMIT_PREFIX + normalised_body).hexdigest()


@dataclass(frozen=True)
class Block:
    """One armored order block as found in a text.

    ``body`` is ``N(body)`` decoded; ``signature`` is the armored SSH signature that follows
    the block (before the next order block), or ``None`` when the block is unsigned.
    ``line`` is the 1-based line of the BEGIN marker in the source text.
    """

    body: str
    signature: str | None
    line: int

    @property
    def body_bytes(self) -> bytes:
        return self.body.encode("utf-8")

    @property
    def commitment(self) -> str:
        return commitment(self.body_bytes)

    def armored(self) -> str:
        """The canonical armored text: markers, ``N(body)``, then the signature if any."""
        text = f"{BEGIN_ORDERS}\n{self.body}{END_ORDERS}\n"
        if self.signature is not None:
            text += self.signature
        return text


def extract(text: str, source: str = "") -> list[Block]:
    """Every armored order block in ``text``, in order; text outside the blocks is ignored.

    Raises :class:`ArmorError` listing every malformed block (unterminated, a ``-----`` line
    inside a body, an unterminated signature). Returns an empty list when there is no block.
    """
    if len(text) > MAX_TEXT:
        raise ArmorError(
            Problem("", f"the text is {len(text)} characters long, over the {MAX_TEXT} limit",
                    "send only the order file"),
            source,
        )
    lines = _lines(text)
    blocks: list[Block] = []
    problems: list[Problem] = []
    i = 0
    n = len(lines)
    while i < n:
        if lines[i].strip() != BEGIN_ORDERS:
            i += 1
            continue
        start = i
        i += 1
        body_lines: list[str] = []
        bad = False
        while i < n and lines[i].strip() != END_ORDERS:
            candidate = lines[i].rstrip(" \t")
            if candidate.startswith("-----"):
                if candidate.strip() == BEGIN_ORDERS:
                    break
                problems.append(Problem(
                    f"line {i + 1}",
                    f"a line inside the order block starts with '-----': {candidate[:40]!r}",
                    "remove that line, or end the block with " + END_ORDERS,
                ))
                bad = True
            body_lines.append(lines[i])
            i += 1
        if i >= n or lines[i].strip() != END_ORDERS:
            problems.append(Problem(
                f"line {start + 1}",
                "the order block that starts here has no " + END_ORDERS + " line",
                "paste the whole order file, down to the END SSH SIGNATURE line",
            ))
            continue
        i += 1  # past END ORDERS
        signature, i, sig_problem = _signature_after(lines, i)
        if sig_problem is not None:
            problems.append(sig_problem)
            bad = True
        if bad:
            continue
        body = normalise("\n".join(body_lines))
        if len(body) > MAX_BODY:
            problems.append(Problem(f"line {start + 1}", "the order block is too large",
                                    "send one order file of at most 256 KiB"))
            continue
        blocks.append(Block(body.decode("utf-8"), signature, start + 1))
    if problems:
        raise ArmorError(problems, source)
    return blocks


def _signature_after(lines: list[str], i: int) -> tuple[str | None, int, Problem | None]:
    """The signature block following an order block, if one comes before the next order block."""
    j = i
    n = len(lines)
    while j < n:
        stripped = lines[j].strip()
        if stripped == BEGIN_ORDERS:
            return None, i, None
        if stripped == BEGIN_SIGNATURE:
            break
        j += 1
    else:
        return None, i, None
    start = j
    sig_lines = [BEGIN_SIGNATURE]
    j += 1
    while j < n:
        stripped = lines[j].strip()
        if stripped == END_SIGNATURE:
            sig_lines.append(END_SIGNATURE)
            return "\n".join(sig_lines) + "\n", j + 1, None
        if stripped.startswith("-----"):
            break
        sig_lines.append(stripped)
        j += 1
    return None, j, Problem(
        f"line {start + 1}",
        "the signature block that starts here has no " + END_SIGNATURE + " line",
        "paste the whole signature, down to its END line",
    )

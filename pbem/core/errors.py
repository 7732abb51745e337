"""The error classes of pbem.

One base class, :class:`PbemError`, which the command line maps to exit code 1; subclasses
tell the reader what kind of problem it is, because a syntax error, a bad signature, a replayed
file and an illegal move call for different fixes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from pbem.core.values import FrozenValue


class PbemError(Exception):
    """Base of every error pbem raises on purpose (exit code 1 on the command line)."""


class UsageError(PbemError):
    """The command was called wrongly (exit code 2)."""


# A dataclass for dataclasses.replace (the channels, the games), its methods written out
# (pbem.core.values: generated ones cost ~3.5 M instructions at import).
@dataclass(init=False, repr=False, eq=False)
class Problem(FrozenValue):
    """One thing wrong with an input, with where it is and how to fix it.

    ``where`` names the place: ``file``, ``[table]`` or ``[table] key`` as the player sees it.
    """

    _fields = ("where", "message", "hint", "foreseen")
    where: Final[str]
    message: Final[str]
    hint: Final[str]
    #: The rules' resolution would skip this order (and say so in an event): refused at
    #: submit, so that a typo never costs a turn, but no reason to refuse adjudicating an
    #: order that an earlier version of pbem accepted (an open phase after an upgrade, the
    #: audit of an older ledger). Shape, type and name problems are never foreseen.
    foreseen: Final[bool]

    def __init__(self, where: str, message: str, hint: str = "", foreseen: bool = False
                 ) -> None:
        self.where = where
        self.message = message
        self.hint = hint
        self.foreseen = foreseen

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        if self.hint:
            text += f" (fix: {self.hint})"
        return text


class ProblemsError(PbemError):
    """An error that carries every problem found in one pass, not only the first."""

    def __init__(self, problems: list[Problem] | Problem, source: str = "") -> None:
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        self.source = source
        super().__init__(self.render())

    def render(self) -> str:
        prefix = f"{self.source}: " if self.source else ""
        return "\n".join(prefix + str(p) for p in self.problems)


class ArmorError(ProblemsError):
    """The text holds no usable armored block, or a block is malformed."""


class SignatureError(ProblemsError):
    """A signature is malformed, made by the wrong key or over other bytes."""


class KeyFileError(PbemError):
    """A key file cannot be used (wrong type, encrypted without a passphrase, unreadable)."""


class EnvelopeError(ProblemsError):
    """The envelope is wrong: campaign, player, phase, salt or entropy (replays land here)."""


class OrderSyntaxError(ProblemsError):
    """The orders are not valid TOML or not of the shape the phase expects."""


class IllegalOrderError(ProblemsError):
    """The orders are well formed but the rules forbid them in this position."""


class CampaignError(PbemError):
    """The campaign directory is missing, damaged or in the wrong state for the command."""


class AuditError(PbemError):
    """An audit found a record or field that does not check; names the first failure."""

    def __init__(self, seq: int | None, field: str, message: str) -> None:
        self.seq = seq
        self.field = field
        self.detail = message
        where = f"record {seq:06d}" if seq is not None else "campaign"
        super().__init__(f"{where}: {field}: {message}")

    def __reduce__(self) -> tuple[type[AuditError], tuple[int | None, str, str]]:
        # Raised in the processes of a parallel audit and re-raised in the parent.
        return (AuditError, (self.seq, self.field, self.detail))


def excerpt(value: Any) -> str:
    """A value as it was written (its ``repr``), cut short for a message: a fuzzer's megabyte
    string or a hostile record's field stays out of the error and the report."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."

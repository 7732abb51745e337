"""Dice and shuffles that no single party can bias (DESIGN.md section 4).

The GM commits at ``pbem new`` to two hash chains (public ``s`` and sealed ``t``); ledger record
``k`` reveals ``s_k``. Every draw of record ``k`` is an HMAC of a phase key that mixes ``s_k``
with all player entropy accepted so far, so the GM cannot choose outcomes after seeing orders
and no player can predict them. Draws that would disclose hidden information (deals,
face-down counters) come from the sealed chain ``t`` and are published at the reveal.

Rules code receives an :class:`Rng` and draws through its two :class:`Stream` objects; every
draw is recorded with its label so that the ledger lists it and an auditor can recompute it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Final, TypeVar

from pbem.core.values import FrozenValue, Value

T = TypeVar("T")

DEFAULT_CHAIN_LENGTH = 4096


@cache
def _label() -> re.Pattern[str]:
    """A draw's label: compiled on first use, as most commands draw nothing."""
    return re.compile(r"[\x21-\x7e]{1,200}")


_TWO_64 = 2**64

#: Faces of the Cyclades combat die (003, Battle).
CYCLADES_COMBAT_DIE = (0, 1, 1, 2, 2, 3)
#: Faces of a Deukalion die (002, The Kylix).
DEUKALION_DIE = (1, 1, 2, 2, 3, 3)


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


@lru_cache(maxsize=8)
def chain(head: bytes, length: int) -> tuple[bytes, ...]:
    """Every ``x_0 .. x_length`` of the chain whose head is ``x_length`` (cached: a campaign
    needs one value per record, and each would otherwise cost ``length - k`` hashes)."""
    values = [head]
    for _ in range(length):
        values.append(sha256(values[-1]))
    return tuple(reversed(values))


def chain_value(head: bytes, length: int, k: int) -> bytes:
    """``x_k`` of the chain whose head is ``x_length``: ``x_{i-1} = sha256(x_i)``."""
    if not 0 <= k <= length:
        raise ValueError(f"chain index {k} outside 0..{length}")
    return chain(head, length)[k]


def chain_anchor(head: bytes, length: int) -> bytes:
    """``x_0``, published in campaign.toml as ``seed_anchor`` / ``sealed_anchor``."""
    return chain_value(head, length, 0)


def mix_initial(campaign_id: str) -> bytes:
    """``mix_0 = sha256("pbem-mix/1\\ncampaign=<id>\\n")``."""
    return sha256(f"pbem-mix/1\ncampaign={campaign_id}\n".encode())


def entropy_lines(entropy: Mapping[str, str]) -> bytes:
    """``E_k``: ``entropy.<player>=<hex>\\n`` for every accepted player, sorted by name."""
    return "".join(f"entropy.{p}={entropy[p]}\n" for p in sorted(entropy)).encode()


def mix_next(previous: bytes, entropy: Mapping[str, str]) -> bytes:
    """``mix_k = sha256(mix_{k-1} || E_k)``, ``mix_{k-1}`` as its 32 raw bytes."""
    return sha256(previous + entropy_lines(entropy))


def phase_key(chain_k: bytes, campaign_id: str, phase: str, mix_k: bytes, *, sealed: bool) -> bytes:
    """``K = HMAC-SHA256(key=s_k or t_k, msg)`` for one record's public or sealed stream."""
    first = "pbem-rng-sealed/1" if sealed else "pbem-rng/1"
    msg = f"{first}\ncampaign={campaign_id}\nphase={phase}\nmix={mix_k.hex()}\n"
    return hmac.new(chain_k, msg.encode(), hashlib.sha256).digest()


#: The most outcomes a draw of a ledger record may have (docs/protocol.md sections 4 and 8).
MAX_OUTCOMES = 2**32
#: Where the draw function itself stops being defined: from 2**64 + 1 on, the limit of the
#: rejection sampling is 0 and no value is ever accepted (the known-answer vectors use an n
#: near 2**62 to show rejections).
MAX_N = 2**64


def draw_value(key: bytes, j: int, label: str, n: int) -> int:
    """The j-th draw of a stream: rejection sampling over 64-bit HMAC outputs, 1..n."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"a draw has 1 to 2**64 outcomes, got n={n}")
    limit = (_TWO_64 // n) * n
    c = 0
    while True:
        h = hmac.new(key, f"{j}:{label}:{c}".encode(), hashlib.sha256).digest()
        x = int.from_bytes(h[:8], "big")
        if x < limit:
            return x % n + 1
        c += 1


class Draw(FrozenValue):
    """One recorded draw: index in its stream, label, number of outcomes, value (1..n)."""

    _fields = ("i", "label", "n", "value")
    __slots__ = _fields
    i: Final[int]
    label: Final[str]
    n: Final[int]
    value: Final[int]

    def __init__(self, i: int, label: str, n: int, value: int) -> None:
        self.i = i
        self.label = label
        self.n = n
        self.value = value

    def listing_line(self) -> str:
        return f"{self.i}:{self.label}:{self.n}:{self.value}\n"

    def as_dict(self) -> dict[str, int | str]:
        return {"i": self.i, "label": self.label, "n": self.n, "value": self.value}


def listing_digest(draws: Sequence[Draw]) -> str:
    """``sha256`` of the sealed listing ``"{j}:{label}:{n}:{value}\\n"`` per draw, hex."""
    return hashlib.sha256("".join(d.listing_line() for d in draws).encode()).hexdigest()


class Stream(Value):
    """One numbered stream of draws (the public or the sealed one of a record).

    Every helper reduces to :meth:`draw`, so each die, card and shuffle step appears in the
    ledger under a label a reader can match against the report.
    """

    _fields = ("key", "draws")
    __slots__ = _fields

    def __init__(self, key: bytes, draws: list[Draw] | None = None) -> None:
        self.key = key
        self.draws = [] if draws is None else draws

    def draw(self, label: str, n: int) -> int:
        if not _label().fullmatch(label):
            raise ValueError("draw label must be 1-200 printable ASCII characters without "
                             f"spaces: {label!r}")
        j = len(self.draws)
        value = draw_value(self.key, j, label, n)
        self.draws.append(Draw(j, label, n, value))
        return value

    def die(self, sides: int, label: str) -> int:
        return self.draw(label, sides)

    def d3(self, label: str) -> int:
        return self.draw(label, 3)

    def d6(self, label: str) -> int:
        return self.draw(label, 6)

    def sum_d6(self, k: int, label: str) -> int:
        """The sum of ``k`` six-sided dice, each recorded as ``<label>/<1..k>``."""
        return sum(self.draw(f"{label}/{i}", 6) for i in range(1, k + 1))

    def two_digit(self, label: str) -> int:
        """Mythology's two-digit roll (003 B): red die the tens, white die the units, 11-66."""
        red = self.draw(f"{label}/red", 6)
        white = self.draw(f"{label}/white", 6)
        return 10 * red + white

    def faces(self, faces: Sequence[T], label: str) -> T:
        """A die with printed faces (e.g. Cyclades 0,1,1,2,2,3): draws the face index."""
        return faces[self.draw(label, len(faces)) - 1]

    def choice(self, items: Sequence[T], label: str) -> T:
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.draw(label, len(items)) - 1]

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        """Fisher-Yates, i = m-1 down to 1, each step a draw ``<label>/<i>`` with n = i+1."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            v = self.draw(f"{label}/{i}", i + 1)
            out[i], out[v - 1] = out[v - 1], out[i]
        return out


class Rng(Value):
    """What rules code gets: the record's public stream and its sealed stream."""

    _fields = ("public", "sealed")
    __slots__ = _fields

    def __init__(self, public: Stream, sealed: Stream) -> None:
        self.public = public
        self.sealed = sealed

    @classmethod
    def for_record(cls, campaign_id: str, phase: str, s_k: bytes, t_k: bytes, mix_k: bytes) -> Rng:
        return cls(
            Stream(phase_key(s_k, campaign_id, phase, mix_k, sealed=False)),
            Stream(phase_key(t_k, campaign_id, phase, mix_k, sealed=True)),
        )

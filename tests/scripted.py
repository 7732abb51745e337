"""A stream of scripted draws, for scenario tests that quote a rulebook's rolls ("the attacker
rolls 6"): each draw still recorded as the real :class:`pbem.core.dice.Stream` records it."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.core.dice import Draw, Stream


class Scripted(Stream):
    """Draws the numbers given, in order; then ``then`` for ever, or, without ``then``, an
    unexpected draw fails the test (e.g. a challenge that should not have happened)."""

    def __init__(self, values: Iterable[int] = (), then: int | None = None) -> None:
        super().__init__(b"scripted")
        self.values = list(values)
        self.then = then

    def draw(self, label: str, n: int) -> int:
        if self.values:
            value = self.values.pop(0)
        else:
            assert self.then is not None, f"unexpected draw {label}"
            value = self.then
        assert 1 <= value <= n, (label, value, n)
        self.draws.append(Draw(len(self.draws), label, n, value))
        return value

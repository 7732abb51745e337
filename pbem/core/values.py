"""Plain value classes for the modules every command imports, in place of dataclasses.

Building a dataclass costs 2-4 M instructions at import (most of it compiling the methods it
generates), and ``pbem verify`` imported about twenty of them: some 10 ms of a one-shot
command (issue 20, target 5). A subclass of :class:`Value` writes its ``__init__`` and lists
its fields in ``_fields`` (and ``__slots__ = _fields``, unless it needs a ``__dict__``, e.g.
for a ``functools.cached_property``); it gets the equality and repr a dataclass would have
given it, and :class:`FrozenValue` the hash of a frozen one. Its fields are typed ``Final``
where the dataclass was frozen, so mypy still refuses to assign them.

A class that ``dataclasses.replace`` is called on (by the games, the channels or the tests)
stays a dataclass, with ``init=False, repr=False, eq=False`` so that nothing is generated.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Value:
    """Equality (same class, equal fields) and repr as a dataclass's, from :attr:`_fields`."""

    __slots__ = ()
    #: The fields compared and shown, in order (most subclasses: ``__slots__ = _fields``).
    _fields: ClassVar[tuple[str, ...]] = ()

    def _key(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() == other._key()
        return NotImplemented

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({shown})"


class FrozenValue(Value):
    """A :class:`Value` that never changes, hashed by its fields as a frozen dataclass is."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._key())

"""What a player types, read one way for both ``validate`` and ``resolve`` (issue 12 §3).

A name is accepted whatever its case, by id or by the name the reports print ("Egypt",
"The Sea (western Area)", "Hera", "Aegis"); a card or hex number may be written as a TOML
integer as well as the string the form shows. Each function returns the canonical id, or
``None`` when the value names nothing (the caller says so in a Problem). None of them raises,
whatever the value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import Any, TypeGuard

from pbem.core.errors import excerpt
from pbem.games.mythology.components import Components

#: The Divine Occurrence codes as the Log Sheet writes them (009 E 2).
OCCURRENCE_CODES = ("E", "T", "V", "P", "Pe", "F")

#: A value as the player wrote it, cut short for a message.
shown = excerpt


def is_int(value: Any) -> TypeGuard[int]:
    """A TOML integer (``True`` is not one, though Python says it is)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _key(text: str) -> str:
    """Case, spaces, hyphens and apostrophes do not matter: "Winged Sandals" is
    ``winged_sandals``."""
    return "".join(ch for ch in text.casefold().replace("-", "_").replace(" ", "_")
                   if ch.isalnum() or ch == "_")


def match(value: Any, table: Mapping[str, str]) -> str | None:
    """The id whose id or name (``table``: id -> name) is ``value``, ignoring case."""
    if not isinstance(value, str):
        return None
    return _lookup(tuple(sorted(table.items()))).get(_key(value))


@cache
def _lookup(items: tuple[tuple[str, str], ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for ident, name in items:
        out.setdefault(_key(name), ident)
    for ident, _ in items:  # an id wins over another entry's name
        out[_key(ident)] = ident
    return out


def choice(value: Any, ids: Iterable[str]) -> str | None:
    """One of ``ids`` (e.g. a god's power ids), ignoring case."""
    return match(value, {i: i for i in ids})


def area_id(c: Components, value: Any) -> str | None:
    """An Area by id or by its printed name, any case: "Egypt", "egypt", "River Ocean"."""
    table = {k: a.name for k, a in c.map.areas.items()}
    found = match(value, table)
    if found is None and isinstance(value, str) and _key(value).startswith("the_"):
        found = match(value[4:], table)
    return found


def god_id(c: Components, value: Any) -> str | None:
    """A god by id or name, any case: "Hera", "hera"."""
    return match(value, {k: g.name for k, g in c.gods.items()})


def item_id(c: Components, value: Any) -> str | None:
    """A Hero Helper or Prize by id or name, any case."""
    table = {k: x.name for k, x in c.helpers.items()} | {k: x.name for k, x in c.prizes.items()}
    return match(value, table)


def occurrence_code(value: Any) -> str | None:
    """A Divine Occurrence code, any case: "pe" is "Pe"."""
    return choice(value, OCCURRENCE_CODES)


def hex_id(value: Any) -> str | None:
    """A hex number: the string the map prints ("3011") or a TOML integer (3011)."""
    if is_int(value):
        return f"{value:04d}" if 0 <= value <= 9999 else None
    if isinstance(value, str):
        return value.strip()
    return None


def card_id(value: Any) -> str | None:
    """A card number: "24" as the form writes it, or the integer 24."""
    if is_int(value):
        return str(value) if 0 < value < 10**6 else None
    if isinstance(value, str):
        return value.strip()
    return None


def player_name(value: Any, players: Iterable[str]) -> str | None:
    """A player of the campaign, any case (campaign names are lower case)."""
    if not isinstance(value, str):
        return None
    return next((p for p in players if p.casefold() == value.strip().casefold()), None)


# --- the report's wording of the rules' events (issue 14) -------------------------------------
# The event texts are ledger bytes and never change; reports reword them here, from the
# event's text and the printed names of the counters (components, public), for the reader.

#: "unit 22", "Hero 5", "hero 18", "Monster 41": a counter by number only.
_UNIT_REF = re.compile(r"\b(?:[Uu]nit|[Hh]ero|[Mm]onster)\s+(\d+)\b")
#: Seams where a quoted text that ends its sentence runs into the next: "(204 K).;", ".:".
_SEAM = re.compile(r"(?<=[\w)\]])\.(?=[;:,])")
_DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")


def unit_name(c: Components, unit: int) -> str:
    """The printed name of a Hero (1-32), Monster (33-64) or Lesser Evil counter (303)."""
    for table in (c.heroes, c.monsters, c.lesser):
        if unit in table:
            return str(table[unit].name)
    return f"unit {unit}"


def unit_label(c: Components, unit: int) -> str:
    """A counter as reports and forms name it: "Hercules (6)"."""
    return f"{unit_name(c, unit)} ({unit})"


def event_text(c: Components, event: Mapping[str, Any]) -> str:
    """An event's text as a report prints it: each counter by name (its number in brackets
    the first time), and no seam where a rule's text is quoted inside another."""
    text = str(event.get("text", "")).replace(", not unit 0", ", and none was named")
    if event.get("type") == "special-victory":
        text = _special_victory(event, text)
    return _named(c, text)


@lru_cache(maxsize=4096)
def _named(c: Components, text: str) -> str:
    """:func:`event_text` after its first steps: the same text comes to every reader of a
    record (the gazette and each player), so it is worded once (issue 20)."""
    out, last = [], 0
    for m in _UNIT_REF.finditer(text):
        unit = int(m.group(1))
        label = unit_label(c, unit)
        out.append(text[last:m.start()])
        if unit_name(c, unit).startswith("unit "):
            out.append(m.group(0))
        elif label in text[:m.start()] or label in "".join(out):
            # The number once is enough: "Menelaus (27) stops: Menelaus may not be moved".
            out.append(unit_name(c, unit))
        else:
            out.append(label)
        last = m.end()
    out.append(text[last:])
    text = "".join(out)
    return _DOUBLE_STOP.sub(".", _SEAM.sub("", text))


def _special_victory(event: Mapping[str, Any], text: str) -> str:
    """216 G 7 as the rules record it: "bob reveals Fate 31: Fate 31 (216 G 7): 5 per Prize
    you possess; 2 x 5 = 10 Glory.: +10 (216 G 7)." The report says it once:
    "bob reveals Fate 31: 5 per Prize you possess; 2 x 5 = 10 Glory: +10 (216 G 7)."."""
    fate = event.get("fate")
    head = f"{event.get('player')} reveals Fate {fate}: "
    tail = f": +{event.get('glory')} (216 G 7)."
    if not (text.startswith(head) and text.endswith(tail)):
        return text
    middle = text[len(head):-len(tail)].removeprefix(f"Fate {fate} (216 G 7): ").rstrip(".")
    return f"{head}{middle}{tail}"

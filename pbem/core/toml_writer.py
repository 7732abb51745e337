"""TOML text exactly as ``tomli_w.dumps`` writes it, for the ledger's plain data, only faster.

Ledger records are written at every adjudication and written again by every audit (the
rebuilt record is compared byte for byte), and most of ``tomli_w``'s time goes into escaping
strings one character at a time. The record's bytes are this project's protocol (DESIGN.md
section 5), so they are produced here with the same layout decisions as ``tomli_w`` 1.x
(tables, arrays of tables, inline tables up to 100 columns, 4-space array indents, basic and
multi-line basic strings) and C-speed escaping. ``tomli_w`` stays the reference: anything
outside plain data (floats, dates, other mapping or sequence types) is handed to it, and
tests/test_toml_writer.py checks byte equality on generated data and on every ledger record
of the shipped examples.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_MAX_LINE = 100          # tomli_w's limit for an array of tables written as inline tables
_INDENT = "    "
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
# Characters a basic string must escape: the quote, the backslash and ASCII controls but tab.
_ILLEGAL = re.compile(r'[\x00-\x08\x0a-\x1f\x7f"\\]')
_ILLEGAL_SEARCH = _ILLEGAL.search
_ESCAPES = {c: f"\\u{c:04x}" for c in (*range(0x20), 0x7F) if c != 0x09}
_ESCAPES.update({0x08: "\\b", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\"})
_ESCAPES_MULTILINE = {**_ESCAPES, 0x0A: "\n"}
# What a multi-line string escapes besides the quote and the backslash: controls but tab and
# newline.
_CONTROLS_MULTILINE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class _NotPlain(Exception):
    """A value this writer does not handle: the whole document goes to ``tomli_w``."""


def dumps(obj: dict[str, Any], *, multiline_strings: bool = False) -> str:
    """``tomli_w.dumps(obj, multiline_strings=...)``, byte for byte."""
    try:
        out: list[str] = []
        _Writer(multiline_strings, out).table(obj, "", False)
        return "".join(out)
    except _NotPlain:
        import tomli_w  # here: most commands write nothing it is needed for

        return tomli_w.dumps(obj, multiline_strings=multiline_strings)


def _string(s: str, multiline: bool) -> str:
    if multiline and "\n" in s:
        s = s.replace("\r\n", "\n")
        if _CONTROLS_MULTILINE.search(s) is None:  # an order text: two replaces, not a
            body = s.replace("\\", "\\\\").replace('"', '\\"')  # lookup per character
        else:
            body = s.translate(_ESCAPES_MULTILINE)
        return '"""\n' + body + '"""'
    if _ILLEGAL.search(s) is None:
        return f'"{s}"'
    return '"' + s.translate(_ESCAPES) + '"'


def _key(k: Any) -> str:
    known = _KEYS.get(k) if type(k) is str else None
    if known is not None:
        return known
    if type(k) is not str:
        raise _NotPlain  # tomli_w raises its own TypeError for it
    rendered = k if _BARE_KEY.fullmatch(k) else _string(k, False)
    if len(_KEYS) >= 4096:
        _KEYS.clear()
    _KEYS[k] = rendered
    return rendered


#: Keys as written (the same few dozen in every record: "type", "text", players' names).
_KEYS: dict[str, str] = {}


class _Writer:
    def __init__(self, multiline: bool, out: list[str]) -> None:
        self.multiline = multiline
        self.out = out
        # tomli_w renders an inline table once per object (by id) while deciding the layout.
        self.inline: dict[int, str] = {}

    def table(self, table: dict[str, Any], name: str, inside_aot: bool) -> None:
        # Called once per table and once per event of a record (an array of tables): its
        # lines are rendered in one pass, plain values without the layout code.
        keys = _KEYS
        lines: list[str] = []
        tables: list[tuple[str, dict[str, Any], bool]] = []
        for k, v in table.items():
            t = type(v)
            if t is str:
                if _ILLEGAL_SEARCH(v) is None:  # a plain one-line string
                    lines.append(f'{keys.get(k) or _key(k)} = "{v}"\n')
                else:
                    lines.append(f"{keys.get(k) or _key(k)} = {_string(v, self.multiline)}\n")
            elif t is int:
                lines.append(f"{keys.get(k) or _key(k)} = {v}\n")
            elif t is dict:
                tables.append((k, v, False))
            elif (t is list or t is tuple) and v and self._all_tables(v) and not all(
                    self._fits_inline(x) for x in v):
                tables.extend((k, x, True) for x in v)
            else:
                lines.append(f"{keys.get(k) or _key(k)} = {self.literal(v, 0)}\n")
        out = self.out
        yielded = False
        if inside_aot or (name and (lines or not tables)):
            yielded = True
            out.append(f"[[{name}]]\n" if inside_aot else f"[{name}]\n")
        if lines:
            yielded = True
            out.extend(lines)
        for k, v, in_aot in tables:
            if yielded:
                out.append("\n")
            else:
                yielded = True
            part = _key(k)
            self.table(v, f"{name}.{part}" if name else part, in_aot)

    @staticmethod
    def _all_tables(items: list[Any] | tuple[Any, ...]) -> bool:
        for x in items:
            t = type(x)
            if t is not dict:
                if isinstance(x, Mapping):
                    raise _NotPlain  # another kind of mapping: tomli_w decides
                return False
        return True

    def _fits_inline(self, table: dict[str, Any]) -> bool:
        # Each string takes at least its length and two quotes: a table whose strings alone
        # pass the limit (an event with its text) is not rendered inline to find that out.
        if sum(len(v) for v in table.values() if type(v) is str) > _MAX_LINE:
            return False
        rendered = f"{_INDENT}{self.inline_table(table)},"
        return len(rendered) <= _MAX_LINE and "\n" not in rendered

    def literal(self, v: Any, nest: int) -> str:
        t = type(v)
        if t is str:
            return _string(v, self.multiline)
        if t is bool:
            return "true" if v else "false"
        if t is int:
            return str(v)
        if t is list or t is tuple:
            if not v:
                return "[]"
            inner = _INDENT * (nest + 1)
            return ("[\n" + ",\n".join(inner + self.literal(x, nest + 1) for x in v)
                    + f",\n{_INDENT * nest}]")
        if t is dict:
            return self.inline_table(v)
        raise _NotPlain

    def inline_table(self, table: dict[str, Any]) -> str:
        known = self.inline.get(id(table))
        if known is not None:
            return known
        if not table:
            rendered = "{}"
        else:
            keys = _KEYS
            parts = []
            for k, v in table.items():
                t = type(v)
                if t is int:
                    parts.append(f"{keys.get(k) or _key(k)} = {v}")
                elif t is str and _ILLEGAL_SEARCH(v) is None:
                    parts.append(f'{keys.get(k) or _key(k)} = "{v}"')
                else:
                    parts.append(f"{keys.get(k) or _key(k)} = {self.literal(v, 0)}")
            rendered = "{ " + ", ".join(parts) + " }"
        self.inline[id(table)] = rendered
        return rendered

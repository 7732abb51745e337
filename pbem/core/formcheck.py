"""``pbem check``: what a player can check of an order file before sending it, without the
campaign (DESIGN.md section 7: "a player checks syntax, envelope and form keys before sending").

Checked: the armor, the TOML syntax, the envelope's shape (:func:`pbem.core.orders.parse`),
the signature's shape when the block is signed (and that it verifies with the key it names:
whether that key is the player's is for the GM's copy to say), and the keys and value types of
``[orders]`` against the phase's annotated order form ``orders/<game>/<kind>.toml``. The form
is told from the phase id (``t03.logsheet``, ``c01.act.zeus``: one of its dot-separated parts
is the form's kind); ``game`` narrows the choice when several games have a form of that kind.

The schema is read from the form itself: its active lines and its commented examples
(``# unit = 12`` under ``# [[orders.attempt]]``) give the keys and the type of each value. A
table whose examples are all numbers (``# 12 = 3`` under ``[orders.heroes]``) takes any number
as key. Inline tables (``{territory = "naxos"}``) are checked as tables only: their keys vary
with the choice they make. What depends on the game's state (is that hex next to that one?)
is left to the GM's ``pbem submit``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import tomli

from pbem.core import armor, sshsig
from pbem.core.errors import PbemError, Problem, ProblemsError
from pbem.core.orders import OrderFile, parse
from pbem.core.resources import share_dir

_HEADER = re.compile(r"(\[\[?)\s*orders((?:\.[A-Za-z0-9_-]+)*)\s*(\]\]?)\s*(#.*)?")
_KEY_LINE = re.compile(r'([A-Za-z0-9_-]+|"[^"]*")\s*=\s*\S.*')
_TYPE_NAMES = {"str": "a string", "int": "a whole number", "float": "a number",
               "bool": "true or false", "list": "a list", "table": "a table",
               "datetime": "a date"}


#: TOML's value types as the checks name them (bool before int: True is an int in Python).
_TYPES: tuple[tuple[type, str], ...] = ((bool, "bool"), (int, "int"), (float, "float"),
                                        (str, "str"), (list, "list"), (dict, "table"))


def _type(value: Any) -> str:
    return next((name for kind, name in _TYPES if isinstance(value, kind)), "datetime")


@dataclass
class Value:
    """What a key of the form takes: its types, and for lists the types of their items."""

    types: set[str] = field(default_factory=set)
    items: set[str] = field(default_factory=set)  # empty: any (the examples were empty)

    def add(self, value: Any) -> None:
        self.types.add(_type(value))
        if isinstance(value, list):
            self.items.update(_type(v) for v in value)


@dataclass
class Table:
    """A ``[orders...]`` table of the form (``array``: written ``[[orders...]]``)."""

    array: bool = False
    keys: dict[str, Value] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)

    @property
    def numbered(self) -> bool:
        """Every example key is a number: the table takes any number as key."""
        return bool(self.keys) and all(k.isdigit() for k in self.keys)


def _content(line: str) -> tuple[str, bool]:
    stripped = line.strip()
    if stripped.startswith("#"):
        return stripped.lstrip("#").strip(), True
    return stripped, False


def schema(form: str) -> Table:
    """The keys and types the annotated form ``form`` shows, active and commented."""
    root = Table()
    current = root
    lines = form.split("\n")
    i = 0
    while i < len(lines):
        text, _ = _content(lines[i])
        i += 1
        header = _HEADER.fullmatch(text)
        if header is not None:
            if header.group(1) == "[[" and header.group(3) != "]]":
                continue
            current = root
            parts = [p for p in header.group(2).split(".") if p]
            for n, part in enumerate(parts):
                current = current.tables.setdefault(part, Table())
                if n == len(parts) - 1 and header.group(1) == "[[":
                    current.array = True
            continue
        if _KEY_LINE.fullmatch(text) is None:
            continue
        # An example may go on over the next lines (a list written over several lines).
        for extra in range(0, 12):
            chunk = "\n".join([text] + [_content(x)[0] for x in lines[i:i + extra]])
            try:
                data = tomli.loads(chunk)
            except (tomli.TOMLDecodeError, RecursionError):
                continue
            if len(data) == 1:
                (key, value), = data.items()
                current.keys.setdefault(key, Value()).add(value)
            break
    return root


@cache
def form_schema(game: str, kind: str) -> Table | None:
    path = share_dir("orders") / game / f"{kind}.toml"
    if not path.is_file():
        return None
    return schema(path.read_text(encoding="utf-8"))


def forms_for(phase: str, game: str | None = None) -> list[tuple[str, str]]:
    """(game, kind) of every order form that the phase id ``phase`` may name."""
    from pbem import games

    parts = set(phase.split("."))
    names = [game] if game is not None else games.names()
    found = []
    for name in names:
        folder = share_dir("orders") / name
        for part in sorted(parts):
            if (folder / f"{part}.toml").is_file():
                found.append((name, part))
    return found


def _describe(types: set[str]) -> str:
    return " or ".join(sorted(_TYPE_NAMES[t] for t in types))


def _fits(actual: str, wanted: set[str]) -> bool:
    return actual in wanted or (actual == "int" and "float" in wanted)


def _type_problem(where: str, value: Any, wanted: set[str]) -> Problem:
    actual = _type(value)
    hint = f"the form has {_describe(wanted)} here"
    if actual in ("int", "float") and wanted == {"str"}:
        hint = f'ids and names are strings: write "{value}"'
    elif actual == "str" and wanted <= {"int", "float"} and value.strip().lstrip("-").isdigit():
        hint = f"numbers are written without quotes: write {value.strip()}"
    elif actual == "str" and wanted == {"bool"} and value.lower() in ("true", "false"):
        hint = f"write {value.lower()} without quotes"
    elif wanted == {"list"}:
        hint = f"write a list in brackets: [{_toml_repr(value)}]"
    return Problem(where, f"is {_TYPE_NAMES[actual]}, not {_describe(wanted)}", hint)


def _toml_repr(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value).lower() \
        if isinstance(value, bool) else str(value)


def _check_table(orders: dict[str, Any], table: Table, path: str, kind: str) -> list[Problem]:
    problems: list[Problem] = []
    known = sorted(set(table.keys) | set(table.tables))
    for key, value in orders.items():
        where = f"[{path}] {key}"
        if key in table.tables:
            sub = table.tables[key]
            if sub.array:
                items = value if isinstance(value, list) else None
                if items is None or not all(isinstance(v, dict) for v in items):
                    problems.append(Problem(where, f"is {_TYPE_NAMES[_type(value)]}, not a "
                                            "list of tables",
                                            f"write each one under its own [[{path}.{key}]] "
                                            "line, as the form shows"))
                    continue
                for n, item in enumerate(items, 1):
                    problems += _check_table(item, sub, f"{path}.{key} #{n}", kind)
            elif isinstance(value, dict):
                problems += _check_table(value, sub, f"{path}.{key}", kind)
            else:
                problems.append(Problem(where, f"is {_TYPE_NAMES[_type(value)]}, not a table",
                                        f"write it under the [{path}.{key}] line, as the "
                                        "form shows"))
            continue
        spec = table.keys.get(key)
        if spec is None and table.numbered:
            if not key.isdigit():
                problems.append(Problem(where, "is not a number", "this table's keys are "
                                        "unit numbers, as in the form's example"))
                continue
            spec = Value(set().union(*(v.types for v in table.keys.values())))
        if spec is None:
            close = difflib.get_close_matches(key, known, n=1)
            hint = (f"did you mean {close[0]!r}?" if close else
                    f"the {kind} form has {', '.join(known)}" if known else
                    f"the {kind} form takes no orders here")
            problems.append(Problem(where, f"is not a key of the {kind} form", hint))
            continue
        if not any(_fits(_type(value), {t}) for t in spec.types):
            problems.append(_type_problem(where, value, spec.types))
            continue
        if isinstance(value, list) and spec.items:
            for n, item in enumerate(value, 1):
                if not _fits(_type(item), spec.items):
                    problems.append(_type_problem(f"{where} item {n}", item, spec.items))
    return problems


def check_orders(order: OrderFile, game: str | None = None
                 ) -> tuple[list[Problem], str]:
    """Problems of ``order``'s ``[orders]`` against its form, and which form was used (or
    why none could be)."""
    candidates = forms_for(order.envelope.phase, game)
    if not candidates:
        which = f"game {game}" if game else "any installed game"
        return [], (f"phase {order.envelope.phase!r} names no order form of {which}: the "
                    "keys of [orders] are not checked")
    best: tuple[list[Problem], str] | None = None
    for name, kind in candidates:
        table = form_schema(name, kind)
        assert table is not None
        problems = _check_table(order.orders, table, "orders", kind)
        label = f"orders/{name}/{kind}.toml"
        if not problems:
            return [], f"the keys and types of [orders] match the form {label}"
        if best is None or len(problems) < len(best[0]):
            best = (problems, f"checked against the form {label}")
    assert best is not None
    return best


_AT_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")


def body_start(lines: list[str], block_line: int) -> int:
    """The line (1-based) of the source text where the body of the block whose BEGIN marker
    is on line ``block_line`` starts: its first line that is not blank (N drops the others)."""
    for n in range(block_line, len(lines)):
        if lines[n].strip():
            return n + 1
    return block_line + 1


def relocate(problems: list[Problem], text: str, block_line: int) -> list[Problem]:
    """``problems`` whose TOML positions (``at line 3, column 7`` of the body) are turned into
    lines of the file the player edits."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = body_start(lines, block_line)

    def move(m: re.Match[str]) -> str:
        return f"(at line {first + int(m.group(1)) - 1} of the file, column {m.group(2)})"

    return [Problem(p.where, _AT_LINE.sub(move, p.message), p.hint) for p in problems]


def _line_finder(lines: list[str], start: int) -> Any:
    """A function giving the line (1-based) of a problem's key in the source text, from the
    block that starts at line ``start``."""
    end = len(lines)
    for n in range(start, len(lines)):
        if lines[n].strip() == armor.END_ORDERS:
            end = n
            break

    def find(where: str) -> int | None:
        m = re.match(r"\[([^\]]+)\](?: (\S+))?", where)
        if m is None:
            return None
        table, key = m.group(1), m.group(2)
        parts = table.split(" #")
        header = parts[0]
        nth = int(parts[1]) if len(parts) > 1 else 1
        begin = start
        if header not in ("orders", "envelope"):
            seen = 0
            pattern = re.compile(r"\s*\[\[?\s*" + re.escape(header) + r"\s*\]\]?\s*(#.*)?")
            for n in range(start, end):
                if pattern.fullmatch(lines[n]):
                    seen += 1
                    if seen == nth:
                        begin = n
                        break
        elif header == "orders":
            for n in range(start, end):
                if re.fullmatch(r"\s*\[\s*orders\s*\]\s*(#.*)?", lines[n]):
                    begin = n
                    break
        if key is None:
            return begin + 1
        pattern = re.compile(r'\s*("?)' + re.escape(key) + r'\1\s*=')
        for n in range(begin, end):
            if pattern.match(lines[n]):
                return n + 1
        return begin + 1

    return find


@dataclass
class BlockReport:
    line: int
    player: str = ""
    phase: str = ""
    signed: bool = False
    notes: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def check_text(text: str, source: str, game: str | None = None) -> list[BlockReport]:
    """Check every order block of ``text``; an :class:`~pbem.core.errors.ArmorError` when
    the armor itself is broken or there is no block."""
    blocks = armor.extract(text, source)
    if not blocks:
        from pbem.core.errors import ArmorError

        raise ArmorError(Problem("", "no order block found", "check the file pbem form or "
                                 "your report gave you: the order block starts with "
                                 f"{armor.BEGIN_ORDERS}"), source)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    reports = []
    for block in blocks:
        report = BlockReport(block.line)
        find = _line_finder(lines, block.line)

        def at(p: Problem, find: Any = find, block: armor.Block = block) -> Problem:
            n = find(p.where)
            if n is None and p.where.startswith("order block"):
                n = block.line
            where = f"line {n}: {p.where}" if n is not None and not p.where.startswith(
                "order block") else p.where
            return Problem(where, p.message, p.hint)

        try:
            order = parse(armor.Block(block.body, None, block.line), source)
        except ProblemsError as exc:
            report.problems += [at(p) for p in relocate(exc.problems, text, block.line)]
            reports.append(report)
            continue
        report.player, report.phase = order.envelope.player, order.envelope.phase
        if block.signature is not None:
            report.signed = True
            try:
                sig = sshsig.parse_armor(block.signature)
                sshsig.verify(block.body_bytes, sig, sshsig.NAMESPACE_ORDERS,
                              [sig.public_key])
                report.notes.append(f"signed by key {sshsig.fingerprint(sig.public_key)} "
                                    "(whether it is the key registered for "
                                    f"{order.envelope.player} only the campaign can tell)")
            except ProblemsError as exc:
                report.problems += [Problem("signature", p.message, p.hint)
                                    for p in exc.problems]
            except PbemError as exc:
                report.problems.append(Problem("signature", str(exc),
                                               "sign the file again: pbem sign FILE --key "
                                               "KEY"))
        else:
            report.notes.append("not signed yet: sign it with pbem sign FILE --key YOUR_KEY "
                                "(then check the signed file again)")
        problems, note = check_orders(order, game)
        report.notes.append(note)
        report.problems += [at(p) for p in problems]
        reports.append(report)
    return reports

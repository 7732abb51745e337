"""The order desk's TOML reader (templates/_desk/tomli.js, a port of tomli 2.5.0 to
JavaScript) against tomli itself, in a real browser (Debian's Chromium, headless).

The desk must refuse a broken order form with exactly the message the command line gives,
so every case is read on both sides and the outcomes must be equal: the parsed value, in a
JSON-able tagged form built the same way on both sides, or the error message (for a
RecursionError or a ValueError, which tomli lets through, only the exception's name).

The cases: every order form under orders/ as it is and with its commented-out example orders
made live, hand-written cases for each branch of tomli's parser, and seeded mutations of
those (a character deleted, a line doubled, a delimiter or a control character inserted, the
text cut short), about 1,500 in all.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli
import tomli._parser

from tests.conftest import in_browser

pytestmark = [pytest.mark.slow, in_browser]

ROOT = Path(__file__).resolve().parents[1]
TOMLI_JS = ROOT / "templates" / "_desk" / "tomli.js"

#: How many cases in all: the order forms and the hand-written cases, then mutations of them.
TOTAL_CASES = 1500

#: Reads every case in the page: the tagged value, or the error; as one JSON text (playwright
#: does not pass values nested hundreds deep).
READ_ALL = """(cases) => JSON.stringify(cases.map((c) => {
  try {
    return ['ok', tomli.tagged(tomli.loads(c))];
  } catch (e) {
    return ['error', e.name === 'TOMLDecodeError' ? e.message : e.name];
  }
}))"""


def tagged(value: Any) -> Any:
    """tomli.js's ``tagged``: a JSON-able form of a parsed value, tables as (key, value)
    pairs in their order, numbers as Python's str() and repr(), dates and times by kind."""
    if isinstance(value, dict):
        return ["table", [[k, tagged(v)] for k, v in value.items()]]
    if isinstance(value, list):
        return ["array", [tagged(v) for v in value]]
    if isinstance(value, str):
        return ["str", value]
    if isinstance(value, bool):
        return ["bool", value]
    if isinstance(value, int):
        return ["int", str(value)]
    if isinstance(value, float):
        return ["float", repr(value)]
    if isinstance(value, datetime.datetime):
        return ["datetime" if value.tzinfo else "datetime-local", value.isoformat()]
    if isinstance(value, datetime.date):
        return ["date-local", value.isoformat()]
    if isinstance(value, datetime.time):
        return ["time-local", value.isoformat()]
    raise TypeError(f"not a TOML value: {value!r}")


def read(text: str) -> list[Any]:
    """What tomli makes of ``text``, in the page's form."""
    try:
        value = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        return ["error", str(exc)]
    except RecursionError:
        return ["error", "RecursionError"]
    except ValueError:  # an integer of more than 4300 digits: Python's int() refuses it
        return ["error", "ValueError"]
    with deep_recursion():
        return ["ok", tagged(value)]


def read_in_browser(browser: Any, cases: list[str]) -> list[Any]:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<!doctype html><title>desk toml</title>")
        page.add_script_tag(content=TOMLI_JS.read_text(encoding="utf-8"))
        answer = page.evaluate(READ_ALL, cases)
    finally:
        context.close()
    with deep_recursion():
        result: list[Any] = json.loads(answer)
    return result


@contextlib.contextmanager
def deep_recursion() -> Iterator[None]:
    """Room for the few values nested up to 1000 deep (tables named by a key of 1000 parts,
    three lists a level in their tagged form): tagged(), json and the comparison of lists
    recurse. (Never around tomli.loads: pure-Python tomli would then nest deeper.)"""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


# --- the corpus ---------------------------------------------------------------------------

def order_forms() -> list[str]:
    """Every order form, as it is and with its example orders (commented out in the forms)
    made live, so the mutations also reach tables, arrays and strings."""
    texts = []
    for path in sorted(ROOT.glob("orders/**/*.toml")):
        text = path.read_text(encoding="utf-8")
        texts.append(text)
        texts.append(re.sub(r"(?m)^# (?=\[|[\w.\"-]+ *=)", "", text))
    return texts


#: One TOML value each, read as ``a = VALUE``.
VALUES = [
    # basic strings and their escapes
    '"hello"', '""', '"tab\there"', '"a\\b\\t\\n\\f\\r\\e\\"\\\\z"', '"\\x41\\x7f\\xe9"',
    '"\\u00e9\\u20ac"', '"\\U0001F600\\U0010FFFF"', '"\\q"', '"\\x4"', '"\\xZZ"', '"\\u12"',
    '"\\u12G4"', '"\\uD800"', '"\\uDFFF"', '"\\U00110000"', '"\\UFFFFFFFF"', '"\\U0000E000"',
    '"\\', '"abc', '"a\nb"', '"a\x01b"', '"a\x7fb"', '"a\x00"', '"a\\ b"', '"😀\\u00e9"',
    '"é" "x"',
    # multi-line basic strings
    '"""\nabc"""', '"""abc"""', '"""abc\\\n   def"""', '"""abc\\   \n  \n def"""',
    '"""abc\\  x"""', '"""abc\\\t\n\t x"""', '"""a""""', '"""a"""""', '"""a""""""',
    '"""a\\ ', '"""a\\', '"""a\x00"""', '"""a\x0cb"""', '"""one\ntwo"""', '"""a\\"""b"""',
    '"""\\u00e9"""', '"""a""', '"""', '""""""', '"""\n"""', '"""a\tb\n\tc"""',
    '"""a\\\n"""', '"""\\\n\n\n  x"""', '"""a\\ \t \n b\\\t\n"""',
    # literal strings
    "'C:\\path\\n'", "''", "'x", "'x\ny'", "'a\x01'", "'tab\t'", "'a'b'",
    "'''\nline1\nline2'''", "'''a''''", "'''a'''''", "'''a''''''", "'''a\x01'''",
    "'''never", "'''a\\b'''", "''''''", "'''\r\n'''",
    # integers
    "+99", "-17", "0", "+0", "-0", "1_000", "1__000", "1_", "_1", "01", "00", "0_1",
    "0xDEADBEEF", "0xdead_beef", "0x_1", "0x", "0X1", "-0x1", "+0x1", "0o755", "0o8",
    "0b1101", "0b102", "0b", "0o", "9223372036854775808", "-9223372036854775809",
    "0x" + "f" * 40, "1" * 4300, "1" + "0" * 4300, "-" + "9" * 4301, "1_2" * 1500,
    # floats
    "3.14", "+1.0", "-0.01", "5e+22", "1e06", "-2E-2", "6.626e-34", "224_617.445_991_228",
    "1.", ".5", "1.e5", "1e", "1e_5", "1_.5", "1._5", "1.5_", "1e0_1", "0e0", "0.0",
    "inf", "+inf", "-inf", "nan", "+nan", "-nan", "infinity", "in", "na", "Inf", "-in",
    "1e400", "-1e400", "1e-400", "-0.0", "+0.0", "0.1", "1e16", "1e15", "1.5e16",
    "0.0001", "0.00001", "123456789012345678.0", "1.7976931348623157e308", "5e-324",
    "2.2250738585072014e-308", "0.30000000000000004", "1e21", "1e22", "100.0", "12e-5",
    # booleans
    "true", "false", "True", "tru", "truex", "falsey", "f", "t",
    # dates and times
    "1979-05-27T07:32:00Z", "1979-05-27T00:32:00-07:00", "1979-05-27T00:32:00.999999-07:00",
    "1979-05-27 07:32:00Z", "1979-05-27t07:32:00z", "1979-05-27T07:32:00",
    "1979-05-27T00:32:00.999999", "1979-05-27T00:32:00.1234567891", "1979-05-27T00:32:00.5",
    "1979-05-27T00:32:00.000000", "1979-05-27T00:32:00.000001Z", "1979-05-27", "07:32:00",
    "00:32:00.999999", "12:00:00.5", "12:00:00.0000009", "07:32", "1979-05-27T07:32Z",
    "1979-05-27 07:32", "1979-05-27T07:32+01:00", "2000-02-29", "2004-02-29", "1900-02-29",
    "2023-02-29", "2023-04-31", "2023-06-30", "2023-11-31", "0000-01-01", "0001-01-01",
    "9999-12-31T23:59:59.999999+23:59", "1979-05-27T07:32:00-00:00", "1979-05-27T07:32:00+00:30",
    "1979-05-27T07:32:00-00:30", "1979-05-27T07:32:00-23:59", "1979-13-01", "1979-00-10",
    "1979-05-00", "1979-05-32", "1979-05-27T24:00:00", "1979-05-27T07:60:00", "07:32:60",
    "24:00:00", "7:32:00", "1979-05-27T07:32:00.", "1979-05-27T", "1979-05-27 ",
    "1979-5-27", "1979-05-27T07:32:00+24:00", "1979-05-27T07:32:00+01", "1979-05-27X07:32:00",
    "1979-05-27T07:32:00Zjunk", "1979-05-27 # date", "2023-02-29T10:00:00",
    # arrays
    "[]", "[1,2,3]", "[1,2,]", "[,]", "[1 2]", "[\n1, # c\n2\n]", '[[1],["a"]]', "[1",
    "[", "[1,", "[1,,2]", "[{a=1},{b=2}]", '[1, "a", 2.0, true, 1979-05-27, [], {}]',
    "[ # c\n ]", "[\n\n]", "[1]]", "[\x01]", "[1 # \x01\n]",
    # inline tables
    "{}", "{x = 1, y = 2}", "{x = 1,}", "{x.y = 1, x.z = 2}", "{x = 1, x.y = 2}",
    "{x = {y = 1}, x.z = 2}", "{x = [1], x.y = 1}", "{x = [1], y = 2, x.y = 1}",
    "{\nx = 1\n}", "{x = 1 # c\n}", "{x = 1", "{x 1}", "{x = 1 y = 2}", "{,}", "{x = 1,,}",
    "{x=1, x=2}", "{'x'=1, \"x\"=2}", "{a.b=1, a.b=2}", "{a.b=1, a={}}", "{a={}, a.b=1}",
    "{a={}, b=1, a.b=1}", "{ a = { b = { c = 1 } } }", "{a=1}}", "{ # c\n}", "{x = }",
]

#: Whole documents.
DOCUMENTS = [
    "", "\n", "   \n\t\n", "# only a comment", "a = 1", "a = 1\n", "a=1 # c", "a = 1 b = 2",
    "a = 1 x", "a = 1\n]", "a = 1\n\n\n\nb = ", "\ufeffa = 1", "\ufeff", "a = 1\ufeff",
    # line ends
    "a = 1\r\nb = 2\r\n", "a = 1\rb = 2", "a = 'x\ry'", "a = \"x\r\"", '"""a\r\nb"""',
    'a = """a\r\nb"""', "# comment\r", "# comment\r\nb = 1", "a = 1 # c\r\n", "\r", "\r\n",
    "a = 1\r", "a = '''x\ry'''", 'a = """x\\\r\n  y"""', "a = [\r\n1,\r\n2\r\n]",
    # keys
    "a b = 1", "= 1", "a", "a =", "a = # c", "1234 = 1", "-_- = 1", "ключ = 1", "a.b.c = 1",
    "a . b = 1", "a.b = 1\na.c = 2", "a.b = 1\na.b.c = 2", "a.b = 1\na = 2", "a = 1\na = 2",
    "a.'b'.\"c\" = 1", "a. = 1", ".a = 1", "a..b = 1", '"" = 1', "'' = 1", 'a."" = 1',
    '"a\\u0000b" = 1\n"a\\u0000b" = 2', "'it''s' = 1", '"a\nb" = 1', "'a\nb' = 1",
    "a\x0b= 1", "a=1\nb=2\nb=3", "__proto__ = 1", "[__proto__]\nx = 1", "a.__proto__.b = 1",
    "constructor = 2\ntoString = 3\nhasOwnProperty = 4", "2 = 1\n1 = 2\n10 = 3\na = 4\n0 = 5",
    "[t]\n2 = 1\n1 = 2", "x = {2 = 1, 1 = 2}", "a = 1\n\"a\" = 2", "a = 1\n'a' = 2",
    # tables and arrays of tables
    "[a]\nb=1\n[a.c]\nd=2", "[a]\n[a]", "[a.b]\n[a]", "[a]\n[a.b]\n[a]", "[ a . b ]", "[a",
    "[a]]", "[]", "[a.]", "[.a]", "[\"quoted key\".'lit']", "[a]\nb.c=1\n[a.b]",
    "[a]\nb.c=1\n[a.b.c]", "a.b=1\n[a]", "[a.b.c]\n[a]\nb.x=1", "[x]\ny=1\n[x.y]",
    "[[a]]\nb=1\n[[a]]\nb=2", "[[a]]\n[a.b]\n[[a]]\n[a.b]", "[[a]]]", "[[a]", "[[a.b]]\n[a]",
    "[a]\n[[a]]", "[[a]]\n[a]", "a = 1\n[[a]]", "a=1\n[a]", "[a]\nb=1\n[a.b]",
    "[t]\na.b=1\n[t.a]", "[t.a]\n[t]\na.b=1", "[t]\na.b=1\na.b.c=2", "[t]\na.b=1\n[t]",
    "a = {x=1}\na.y=2", "a = {x=1}\n[a.b]", "a = {x=1}\n[[a]]", "a = [1]\n[[a]]",
    "a = []\n[a.b]", "a = [{}]\n[a.b]", "[[a]]\nx = []\n[[a]]\n[a.x.y]", "[[a]]\nx=[1]\n[a.x]",
    "[a]\nx.y=1\n[b]\n[a.x]", "[a.b]\nc=1\n[a]\nb.d=2", "[[a.b]]\n[[a.b]]\n[a.b.c]\n[[a]]",
    "[[ a ]]\n[[ a ]]", "[ [a]]", "[a] # c\nb = 1 # d", "[a]x", "[[a]]x", "[a]\n [b]",
    "[a.'b c'.\"d\"]\ne = 1", "[\"it's\"]\n[\"it's\"]", '["a\\"b"]\n["a\\"b"]',
    "[\"it's \\\"x\\\"\"]\n[\"it's \\\"x\\\"\"]", "[é]", '["é"]\n["é"]', '["\\u200b"]\n["\\u200b"]',
    '["\\u00a0"]\n["\\u00a0"]', '["\\u0085"]\n["\\u0085"]', '["😀"]\n["😀"]',
    '["\\U000E0001"]\n["\\U000E0001"]', '["\\t\\\\"]\n["\\t\\\\"]', '["\\x7f"]\n["\\x7f"]',
    '[a."b.c"]\n[a."b.c"]', "[a]\n[[a.b]]\n[a.b]", 'x = {"\\u2028" = 1, "\\u2028" = 2}',
    "[a]\nb = {c = 1}\n[a.b.d]", "a.b = {c = 1}\na.b.d = 2", "a = {b = {c = 1}}\na.b.d = 2",
    # comments and control characters
    "# \x01", "a = 1 # \x7f", "# \t ok", "#\r", "a = 1\x00", "\x00", "# é 😀\na = 1",
    "a = 1 #", "a = 1 ## b", "#\n#\n", "# \x00\n", "a = [ # \x0b\n]",
    # characters outside the BMP before an error: lines and columns count code points
    "# 😀😀\na = 😀", 'a = "😀" x', "😀", "a = '𝄞𝄞' ]", '["😀"]\n["😀"]\nx', "a = '😀\x01'",
    'k = "😀😀😀\\q"', "a = \"𝄞\"\nb = [1, 2,\n  '𝄞' 3]", "𝄞 = 1",
    # deep, but within tomli's limits
    "a = " + "[" * 50 + "]" * 50, "a = " + "{b = " * 50 + "1" + "}" * 50,
    "a" + ".a" * 200 + " = 1", "a = " + "[" * 2000, "a = " + "{b=" * 2000,
]

#: At tomli's limits: only its compiled wheels stop at exactly MAX_INLINE_NESTING levels
#: (pure Python runs out of stack a little earlier), and MAX_KEY_PARTS follows
#: sys.getrecursionlimit() at import time.
LIMITS = [
    "a = " + "[" * 400 + "]" * 400, "a = " + "[" * 401 + "]" * 401,
    "a = " + "[" * 402 + "]" * 402, "a = " + "[" * 401 + "1" + "]" * 401,
    "a = " + "{b = " * 400 + "1" + "}" * 400, "a = " + "{b = " * 401 + "1" + "}" * 401,
    "a" + ".a" * 999 + " = 1", "a" + ".a" * 1000 + " = 1", "[a" + ".a" * 1000 + "]",
]
COMPILED = tomli._parser.__file__.endswith((".so", ".pyd"))


def hand_written() -> list[str]:
    cases = [f"a = {v}" for v in VALUES] + [f"a = {v}\n" for v in VALUES if "\n" in v]
    cases += [f"[t]\nk = {v} # c\nz = 0" for v in VALUES[::3]]
    cases += DOCUMENTS
    if COMPILED and tomli._parser.MAX_KEY_PARTS == 1000:
        cases += LIMITS
    return cases


#: What a mutation inserts: TOML's delimiters, and (separately) control characters.
INSERTS = list("\"'=[]{},.#\\\n \t")
CONTROLS = [chr(i) for i in range(32)] + ["\x7f"]


def mutate(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    op = rng.randrange(6)
    if op == 0 and text:  # delete a character
        at = min(at, len(text) - 1)
        return text[:at] + text[at + 1:]
    if op == 1 and text:  # duplicate a line
        lines = text.splitlines(keepends=True)
        i = rng.randrange(len(lines))
        return "".join(lines[:i + 1] + lines[i:])
    if op == 2:
        return text[:at] + rng.choice(INSERTS) + text[at:]
    if op == 3:
        return text[:at] + rng.choice(CONTROLS) + text[at:]
    if op == 4:  # outside the BMP or not ASCII: columns in code points
        return text[:at] + rng.choice(["😀", "é", "\u2028"]) + text[at:]
    return text[:at]  # truncate


def corpus() -> list[str]:
    cases = order_forms() + hand_written()
    rng = random.Random(1)
    bases = list(cases)
    while len(cases) < TOTAL_CASES:
        text = mutate(rng, rng.choice(bases))
        if rng.random() < 0.3:  # now and then two mutations
            text = mutate(rng, text)
        cases.append(text)
    return cases


# --- the tests ------------------------------------------------------------------------------

def test_the_desk_reads_toml_as_tomli_does(browser: Any) -> None:
    cases = corpus()
    expected = [read(case) for case in cases]
    got = read_in_browser(browser, cases)
    # Through JSON both ways, as the page's answer came (lists, never tuples).
    with deep_recursion():
        expected = json.loads(json.dumps(expected))
        differing = [(case, want, have)
                     for case, want, have in zip(cases, expected, got, strict=True)
                     if want != have]
        report = "\n\n".join(f"case {case[:300]!r}\n  tomli:    {json.dumps(want)[:400]}\n"
                             f"  tomli.js: {json.dumps(have)[:400]}"
                             for case, want, have in differing[:5])
    assert not differing, f"{len(differing)} of {len(cases)} cases differ:\n\n{report}"
    # The corpus reaches both outcomes often, and the mutations did not all break it.
    outcomes = [want[0] for want in expected]
    assert outcomes.count("ok") > 300 and outcomes.count("error") > 300


def test_a_broken_form_gives_the_command_lines_message(browser: Any) -> None:
    """Examples: an order form with an unquoted string, one cut short, and one whose error
    follows a character outside the Basic Multilingual Plane on its line (one column, as in
    Python, not the two UTF-16 units JavaScript's strings give it)."""
    forms = ['[orders.card]\nsection = god\n',
             '[[orders.attempt]]\nunit = 12\npath = ["3011", "2911"\n',
             '# Zeus\n[orders.card]\nnote = "⚡🏛" 12\n']
    messages = ["Invalid value (at line 2, column 11)",
                "Unclosed array (at end of document)",
                "Expected newline or end of document after a statement (at line 3, column 13)"]
    assert [read(form) for form in forms] == [["error", m] for m in messages]
    assert read_in_browser(browser, forms) == [["error", m] for m in messages]

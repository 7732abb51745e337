/*
 * tomli.js: a port of tomli 2.5.0's TOML reader (tomli/_parser.py and tomli/_re.py) to plain
 * browser JavaScript (ES2020, a classic script, no modules, no dependencies) for pbem's order
 * desk. The command line reads order files with tomli; the desk must refuse broken TOML with
 * exactly the message the command line gives, so this is a line-by-line port: the same
 * functions, names and order of checks as tomli's source, side by side. Behaviour and error
 * messages are kept identical; tests/test_desk_toml.py shows it, in a real browser, against
 * tomli itself on the order forms, hand-written cases and seeded mutations of them.
 *
 * Defines globalThis.tomli = { loads, TOMLDecodeError, tagged }.
 *
 *   loads(text[, { parse_float }]) -> Map        tomli.loads(text[, parse_float=...])
 *
 * Values:
 *   table          Map (string keys, insertion order: a Python dict; a plain object would put
 *                  keys such as "2" before "1", and "__proto__" is an ordinary key)
 *   array          Array
 *   string         string
 *   integer        BigInt
 *   float          number (Infinity, -Infinity, NaN)
 *   boolean        boolean
 *   date and time  a frozen { type, text }: type "datetime" (with an offset), "datetime-local",
 *                  "date-local" or "time-local"; text what Python's .isoformat() gives for the
 *                  value tomli returns (fractions truncated to microseconds and shown only when
 *                  not zero, "Z" and "-00:00" as "+00:00")
 *
 * Errors, as in Python:
 *   TOMLDecodeError   .message is str(exc) of tomli's TOMLDecodeError ("Invalid value (at line
 *                     3, column 9)", "... (at end of document)"); .msg, .doc, .pos, .lineno and
 *                     .colno as tomli's (positions count code points, as Python's str does).
 *   RecursionError    an Error with name "RecursionError" and tomli's message, where tomli
 *                     raises one: arrays/inline tables nested deeper than MAX_INLINE_NESTING
 *                     (400, the same level as tomli's mypyc-compiled wheels, which pbem uses;
 *                     pure-Python tomli runs out of Python stack a little earlier) and keys of
 *                     more than MAX_KEY_PARTS (1000: sys.getrecursionlimit()'s default) parts.
 *                     Like tomli this recurses on nesting; 400 levels are far from a browser's
 *                     stack limit, so no RangeError is reachable.
 *   ValueError        an Error with name "ValueError" and Python's message, for a decimal
 *                     integer of more than 4300 digits (Python's int() limit; tomli lets that
 *                     ValueError through, it is not a TOMLDecodeError).
 *   TypeError         for input that is not a string.
 *
 * Not identical: Python's repr() of a key in an error message ("Cannot declare ('a',) twice")
 * escapes the characters Python's Unicode database calls non-printable (categories C* and Z*
 * but the space); this port asks the browser's database (/[\p{C}\p{Z}]/u). Python 3.11 has
 * Unicode 14.0, Chromium 156 Unicode 17.0: a character assigned in Unicode 15.0 or later
 * inside a key quoted in an error message is escaped (\U000...) by the command line and shown
 * as is here. Everything else, the parsed values included, does not depend on the version.
 *
 * ---------------------------------------------------------------------------------------------
 * tomli is distributed under this licence (tomli-2.5.0.dist-info/licenses/LICENSE):
 *
 * MIT License
 *
 * Copyright (c) 2021 Taneli Hukkinen
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all
 * copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 * ---------------------------------------------------------------------------------------------
 *
 * How Python's str is modelled: tomli indexes its document by character (code point). Here the
 * document `src` is an Array of code points (Array.from(text)), so src[pos], src.length and
 * every position are Python's. src.text is the same document as one string in which each
 * character outside the Basic Multilingual Plane is replaced by the one unit U+FFFF: its
 * indices are the array's, and it serves the operations tomli does with ASCII patterns only
 * (str.index, str.startswith, str.count, re.match). Past the end, src[pos] is undefined where
 * Python raises IndexError.
 */
(function () {
  "use strict";

  // ---------------------------------------------------------------------------------------
  // Python's exceptions, as far as tomli uses them.

  class ValueError extends Error {
    constructor(message) {
      super(message);
      this.name = "ValueError";
    }
  }

  class RecursionError extends Error {
    constructor(message) {
      super(message);
      this.name = "RecursionError";
    }
  }

  // Internal: raised by NestedDict, always caught in this file.
  class KeyError extends Error {
    constructor(message) {
      super(message);
      this.name = "KeyError";
    }
  }

  // ---------------------------------------------------------------------------------------
  // Python's str operations on a document (see the header).

  function make_src(s) {
    const src = Array.from(s);
    src.text = src.map((c) => (c.length > 1 ? "\uffff" : c)).join("");
    return src;
  }

  // src[a:b]
  function slice(src, a, b) {
    return src.slice(a, b).join("");
  }

  // src.startswith(prefix, pos), prefix being ASCII
  function startswith(src, prefix, pos) {
    return src.text.startsWith(prefix, pos);
  }

  // ---------------------------------------------------------------------------------------
  // Python's repr() of a str and of a tuple of str, for error messages.

  const NON_PRINTABLE = /^[\p{C}\p{Z}]$/u;

  function hex_pad(cp, width) {
    return cp.toString(16).padStart(width, "0");
  }

  function repr_str(s) {
    const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
    let out = quote;
    for (const ch of s) {
      const cp = ch.codePointAt(0);
      if (ch === quote || ch === "\\") out += "\\" + ch;
      else if (ch === "\t") out += "\\t";
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (cp < 0x20 || cp === 0x7f) out += "\\x" + hex_pad(cp, 2);
      else if (cp < 0x7f) out += ch;
      else if (!NON_PRINTABLE.test(ch)) out += ch;
      else if (cp <= 0xff) out += "\\x" + hex_pad(cp, 2);
      else if (cp <= 0xffff) out += "\\u" + hex_pad(cp, 4);
      else out += "\\U" + hex_pad(cp, 8);
    }
    return out + quote;
  }

  function repr_key(key) {
    if (key.length === 1) return "(" + repr_str(key[0]) + ",)";
    return "(" + key.map(repr_str).join(", ") + ")";
  }

  // ---------------------------------------------------------------------------------------
  // Python's float() and int(s, 0), for the strings RE_NUMBER and parse_value pass them.

  function float(s) {
    const t = s.replace(/_/g, "");
    if (t === "inf" || t === "+inf") return Infinity;
    if (t === "-inf") return -Infinity;
    if (t === "nan" || t === "+nan" || t === "-nan") return NaN;
    return Number(t); // correctly rounded, as Python's float()
  }

  // sys.get_int_max_str_digits()'s default
  const INT_MAX_STR_DIGITS = 4300;

  function int_base_0(s) {
    const t = s.replace(/_/g, "");
    if (/^0[xbo]/.test(t)) return BigInt(t);
    const digits = t.replace(/^[+-]/, "").length;
    if (digits > INT_MAX_STR_DIGITS) {
      throw new ValueError(
        `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: ` +
          `value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
      );
    }
    return BigInt(t);
  }

  // ---------------------------------------------------------------------------------------
  // Python's datetime, date and time, as far as tomli builds them: validation and isoformat().

  function date_value(type, text) {
    return Object.freeze({ type, text });
  }

  function pad(n, width) {
    return String(n).padStart(width, "0");
  }

  function days_in_month(year, month) {
    if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
    return [4, 6, 9, 11].includes(month) ? 30 : 31;
  }

  function check_date(year, month, day) {
    // date(year, month, day)'s checks; RE_DATETIME already limits month to 1-12
    if (year < 1 || year > 9999) throw new ValueError(`year ${year} is out of range`);
    if (month < 1 || month > 12) throw new ValueError("month must be in 1..12");
    if (day < 1 || day > days_in_month(year, month)) {
      throw new ValueError("day is out of range for month");
    }
  }

  function iso_date(year, month, day) {
    return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
  }

  function iso_time(hour, minute, sec, micros) {
    const text = `${pad(hour, 2)}:${pad(minute, 2)}:${pad(sec, 2)}`;
    return micros ? `${text}.${pad(micros, 6)}` : text;
  }

  // timezone(timedelta(minutes=...)).utcoffset() in isoformat()'s "+HH:MM"
  function iso_offset(minutes) {
    const sign = minutes < 0 ? "-" : "+";
    const m = Math.abs(minutes);
    return `${sign}${pad(Math.floor(m / 60), 2)}:${pad(m % 60, 2)}`;
  }

  // "123".ljust(6, "0")
  function ljust_6(s) {
    return s.padEnd(6, "0");
  }

  // ---------------------------------------------------------------------------------------
  // tomli/_re.py. The patterns are tomli's (re.VERBOSE there; the comments moved here), with
  // the sticky flag: RE.match(src, pos) is re_match(RE, src, pos). They match ASCII only, so
  // on src.text their indices are code points.

  const _TIME_RE_STR =
    "([01][0-9]|2[0-3])" + //             hours
    ":([0-5][0-9])" + //                  minutes
    "(?:" +
    ":([0-5][0-9])" + //                  optional seconds
    "(?:\\.([0-9]{1,6})[0-9]*)?" + //     optional fractions of a second
    ")?";

  const RE_NUMBER = new RegExp(
    "0" +
      "(?:" +
      "x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*" + //   hex
      "|" +
      "b[01](?:_?[01])*" + //                 bin
      "|" +
      "o[0-7](?:_?[0-7])*" + //               oct
      ")" +
      "|" +
      "[+-]?(?:0|[1-9](?:_?[0-9])*)" + //     dec, integer part
      "(?<floatpart>" +
      "(?:\\.[0-9](?:_?[0-9])*)?" + //        optional fractional part
      "(?:[eE][+-]?[0-9](?:_?[0-9])*)?" + //  optional exponent part
      ")",
    "y",
  );
  const RE_LOCALTIME = new RegExp(_TIME_RE_STR, "y");
  const RE_DATETIME = new RegExp(
    "([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])" + //  date, e.g. 1988-10-27
      "(?:" +
      "[Tt ]" +
      _TIME_RE_STR +
      "(?:([Zz])|([+-])([01][0-9]|2[0-3]):([0-5][0-9]))?" + //  optional time offset
      ")?",
    "y",
  );

  function re_match(re, src, pos) {
    re.lastIndex = pos;
    return re.exec(src.text); // null, or a match: groups that did not take part are undefined
  }

  function match_end(match) {
    return match.index + match[0].length;
  }

  // Convert a `RE_DATETIME` match to a datetime or a date. Raises ValueError if the match
  // does not correspond to a valid date or datetime.
  function match_to_datetime(match) {
    const [
      ,
      year_str,
      month_str,
      day_str,
      hour_str,
      minute_str,
      sec_str,
      micros_str,
      zulu_time,
      offset_sign_str,
      offset_hour_str,
      offset_minute_str,
    ] = match;
    const year = Number(year_str),
      month = Number(month_str),
      day = Number(day_str);
    check_date(year, month, day);
    if (hour_str === undefined) {
      return date_value("date-local", iso_date(year, month, day));
    }
    const hour = Number(hour_str),
      minute = Number(minute_str);
    const sec = sec_str ? Number(sec_str) : 0;
    const micros = micros_str ? Number(ljust_6(micros_str)) : 0;
    const text = iso_date(year, month, day) + "T" + iso_time(hour, minute, sec, micros);
    if (offset_sign_str) {
      return date_value(
        "datetime",
        text + cached_tz(offset_hour_str, offset_minute_str, offset_sign_str),
      );
    } else if (zulu_time) {
      return date_value("datetime", text + iso_offset(0)); // timezone.utc
    } else {
      // local date-time
      return date_value("datetime-local", text);
    }
  }

  // timezone(timedelta(hours=sign * h, minutes=sign * m)), as isoformat() shows it
  function cached_tz(hour_str, minute_str, sign_str) {
    const sign = sign_str === "+" ? 1 : -1;
    return iso_offset(sign * Number(hour_str) * 60 + sign * Number(minute_str));
  }

  function match_to_localtime(match) {
    const [, hour_str, minute_str, sec_str, micros_str] = match;
    const sec = sec_str ? Number(sec_str) : 0;
    const micros = micros_str ? Number(ljust_6(micros_str)) : 0;
    return date_value("time-local", iso_time(Number(hour_str), Number(minute_str), sec, micros));
  }

  function match_to_number(match, parse_float) {
    if (match.groups.floatpart) {
      return parse_float(match[0]);
    }
    return int_base_0(match[0]);
  }

  // ---------------------------------------------------------------------------------------
  // tomli/_parser.py

  // Inline tables/arrays are implemented using recursion (see the header).
  const MAX_INLINE_NESTING = 400;

  // Pathologically excessive number of parts in a key runs into quadratic behavior (e.g. in
  // Flags.is_). tomli: sys.getrecursionlimit(), 1000 unless a program changes it.
  const MAX_KEY_PARTS = 1000;

  function frozenset(chars) {
    return new Set(chars);
  }

  function minus(set, chars) {
    const out = new Set(set);
    for (const c of chars) out.delete(c);
    return out;
  }

  const ASCII_CTRL = frozenset(
    Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat(["\x7f"]),
  );

  // Neither of these sets include quotation mark or backslash. They are currently handled as
  // separate cases in the parser functions.
  const ILLEGAL_BASIC_STR_CHARS = minus(ASCII_CTRL, "\t");
  const ILLEGAL_MULTILINE_BASIC_STR_CHARS = minus(ASCII_CTRL, "\t\n");

  const ILLEGAL_LITERAL_STR_CHARS = ILLEGAL_BASIC_STR_CHARS;
  const ILLEGAL_MULTILINE_LITERAL_STR_CHARS = ILLEGAL_MULTILINE_BASIC_STR_CHARS;

  const ILLEGAL_COMMENT_CHARS = ILLEGAL_BASIC_STR_CHARS;

  const TOML_WS = frozenset(" \t");
  const TOML_WS_AND_NEWLINE = frozenset(" \t\n");
  const BARE_KEY_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "0123456789" + "-_",
  );
  const KEY_INITIAL_CHARS = frozenset([...BARE_KEY_CHARS, '"', "'"]);
  const HEXDIGIT_CHARS = frozenset("abcdef" + "ABCDEF" + "0123456789");

  const BASIC_STR_ESCAPE_REPLACEMENTS = new Map([
    ["\\b", "\u0008"], // backspace
    ["\\t", "\u0009"], // tab
    ["\\n", "\u000a"], // linefeed
    ["\\f", "\u000c"], // form feed
    ["\\r", "\u000d"], // carriage return
    ["\\e", "\u001b"], // escape
    ['\\"', "\u0022"], // quote
    ["\\\\", "\u005c"], // backslash
  ]);

  // An error raised if a document is not valid TOML.
  //   msg: the unformatted error message; doc: the TOML document being parsed; pos: the index
  //   of doc where parsing failed; lineno: the line corresponding to pos; colno: the column
  //   corresponding to pos. (Only tomli's (msg, doc, pos) form: its deprecated free-form
  //   arguments are not ported.)
  class TOMLDecodeError extends Error {
    constructor(msg, doc, pos) {
      if (typeof doc === "string") doc = make_src(doc);
      const text = doc.text;
      const lineno = count_newlines(text, pos) + 1;
      let colno;
      if (lineno === 1) {
        colno = pos + 1;
      } else {
        colno = pos - text.lastIndexOf("\n", pos - 1); // doc.rindex("\n", 0, pos)
      }

      let coord_repr;
      if (pos >= doc.length) {
        coord_repr = "end of document";
      } else {
        coord_repr = `line ${lineno}, column ${colno}`;
      }
      const errmsg = `${msg} (at ${coord_repr})`;
      super(errmsg);
      this.name = "TOMLDecodeError";

      this.msg = msg;
      this.doc = doc.join("");
      this.pos = pos;
      this.lineno = lineno;
      this.colno = colno;
    }
  }

  // doc.count("\n", 0, pos)
  function count_newlines(text, pos) {
    let n = 0;
    for (let i = text.indexOf("\n"); i !== -1 && i < pos; i = text.indexOf("\n", i + 1)) n += 1;
    return n;
  }

  // Parse TOML from a string.
  function loads(__s, { parse_float = float } = {}) {
    // The spec allows converting "\r\n" to "\n", even in string literals. Let's do so to
    // simplify parsing.
    if (typeof __s !== "string") {
      throw new TypeError(`Expected str object, not '${typeof __s}'`);
    }
    const src = make_src(__s.split("\r\n").join("\n"));
    let pos = 0;
    const out = new Output();
    let header = [];
    parse_float = make_safe_parse_float(parse_float);

    // Parse one statement at a time
    // (typically means one line in TOML source)
    for (;;) {
      // 1. Skip line leading whitespace
      pos = skip_chars(src, pos, TOML_WS);

      // 2. Parse rules. Expect one of the following:
      //    - end of file
      //    - end of line
      //    - comment
      //    - key/value pair
      //    - append dict to list (and move to its namespace)
      //    - create dict (and move to its namespace)
      // Skip trailing whitespace when applicable.
      let char = src[pos];
      if (char === undefined) {
        break;
      }
      if (char === "\n") {
        pos += 1;
        continue;
      }
      if (KEY_INITIAL_CHARS.has(char)) {
        pos = key_value_rule(src, pos, out, header, parse_float);
        pos = skip_chars(src, pos, TOML_WS);
      } else if (char === "[") {
        const second_char = src[pos + 1] === undefined ? null : src[pos + 1];
        out.flags.finalize_pending();
        if (second_char === "[") {
          [pos, header] = create_list_rule(src, pos, out);
        } else {
          [pos, header] = create_dict_rule(src, pos, out);
        }
        pos = skip_chars(src, pos, TOML_WS);
      } else if (char !== "#") {
        throw new TOMLDecodeError("Invalid statement", src, pos);
      }

      // 3. Skip comment
      pos = skip_comment(src, pos);

      // 4. Expect end of line or end of file
      char = src[pos];
      if (char === undefined) {
        break;
      }
      if (char !== "\n") {
        throw new TOMLDecodeError(
          "Expected newline or end of document after a statement",
          src,
          pos,
        );
      }
      pos += 1;
    }

    return out.data.dict;
  }

  // Flags that map to parsed keys/namespaces.
  class Flags {
    constructor() {
      this._flags = new Map();
      this._pending_flags = new Map(); // a set of (key, flag): JSON of the pair -> the pair
    }

    add_pending(key, flag) {
      this._pending_flags.set(JSON.stringify([key, flag]), [key, flag]);
    }

    finalize_pending() {
      for (const [key, flag] of this._pending_flags.values()) {
        this.set(key, flag, { recursive: false });
      }
      this._pending_flags.clear();
    }

    unset_all(key) {
      let cont = this._flags;
      for (const k of key.slice(0, -1)) {
        if (!cont.has(k)) {
          return;
        }
        cont = cont.get(k).nested;
      }
      cont.delete(key[key.length - 1]);
    }

    set(key, flag, { recursive }) {
      let cont = this._flags;
      const key_parent = key.slice(0, -1),
        key_stem = key[key.length - 1];
      for (const k of key_parent) {
        if (!cont.has(k)) {
          cont.set(k, { flags: new Set(), recursive_flags: new Set(), nested: new Map() });
        }
        cont = cont.get(k).nested;
      }
      if (!cont.has(key_stem)) {
        cont.set(key_stem, { flags: new Set(), recursive_flags: new Set(), nested: new Map() });
      }
      cont.get(key_stem)[recursive ? "recursive_flags" : "flags"].add(flag);
    }

    is_(key, flag) {
      if (key.length === 0) {
        return false; // document root has no flags
      }
      let cont = this._flags;
      for (const k of key.slice(0, -1)) {
        if (!cont.has(k)) {
          return false;
        }
        const inner_cont = cont.get(k);
        if (inner_cont.recursive_flags.has(flag)) {
          return true;
        }
        cont = inner_cont.nested;
      }
      const key_stem = key[key.length - 1];
      if (cont.has(key_stem)) {
        const inner_cont = cont.get(key_stem);
        return inner_cont.flags.has(flag) || inner_cont.recursive_flags.has(flag);
      }
      return false;
    }
  }
  // Marks an immutable namespace (inline array or inline table).
  Flags.FROZEN = 0;
  // Marks a nest that has been explicitly created and can no longer be opened using the
  // "[table]" syntax.
  Flags.EXPLICIT_NEST = 1;

  class NestedDict {
    constructor() {
      // The parsed content of the TOML document
      this.dict = new Map();
    }

    get_or_create_nest(key, { access_lists = true } = {}) {
      let cont = this.dict;
      for (const k of key) {
        if (!cont.has(k)) {
          cont.set(k, new Map());
        }
        cont = cont.get(k);
        if (access_lists && Array.isArray(cont)) {
          cont = cont[cont.length - 1];
        }
        if (!(cont instanceof Map)) {
          throw new KeyError("There is no nest behind this key");
        }
      }
      return cont;
    }

    append_nest_to_list(key) {
      const cont = this.get_or_create_nest(key.slice(0, -1));
      const last_key = key[key.length - 1];
      if (cont.has(last_key)) {
        const list_ = cont.get(last_key);
        if (!Array.isArray(list_)) {
          throw new KeyError("An object other than list found behind this key");
        }
        list_.push(new Map());
      } else {
        cont.set(last_key, [new Map()]);
      }
    }
  }

  class Output {
    constructor() {
      this.data = new NestedDict();
      this.flags = new Flags();
    }
  }

  function skip_chars(src, pos, chars) {
    while (pos < src.length && chars.has(src[pos])) {
      pos += 1;
    }
    return pos;
  }

  function skip_until(src, pos, expect, { error_on, error_on_eof }) {
    let new_pos = src.text.indexOf(expect, pos);
    if (new_pos === -1) {
      new_pos = src.length;
      if (error_on_eof) {
        throw new TOMLDecodeError(`Expected ${repr_str(expect)}`, src, new_pos);
      }
    }

    // if not error_on.isdisjoint(src[pos:new_pos]): find the first one and raise
    for (; pos < new_pos; pos += 1) {
      if (error_on.has(src[pos])) {
        throw new TOMLDecodeError(`Found invalid character ${repr_str(src[pos])}`, src, pos);
      }
    }
    return new_pos;
  }

  function skip_comment(src, pos) {
    const char = src[pos] === undefined ? null : src[pos];
    if (char === "#") {
      return skip_until(src, pos + 1, "\n", {
        error_on: ILLEGAL_COMMENT_CHARS,
        error_on_eof: false,
      });
    }
    return pos;
  }

  function skip_comments_and_array_ws(src, pos) {
    for (;;) {
      const pos_before_skip = pos;
      pos = skip_chars(src, pos, TOML_WS_AND_NEWLINE);
      pos = skip_comment(src, pos);
      if (pos === pos_before_skip) {
        return pos;
      }
    }
  }

  function create_dict_rule(src, pos, out) {
    pos += 1; // Skip "["
    pos = skip_chars(src, pos, TOML_WS);
    let key;
    [pos, key] = parse_key(src, pos);

    if (out.flags.is_(key, Flags.EXPLICIT_NEST) || out.flags.is_(key, Flags.FROZEN)) {
      throw new TOMLDecodeError(`Cannot declare ${repr_key(key)} twice`, src, pos);
    }
    out.flags.set(key, Flags.EXPLICIT_NEST, { recursive: false });
    try {
      out.data.get_or_create_nest(key);
    } catch (e) {
      if (!(e instanceof KeyError)) throw e;
      throw new TOMLDecodeError("Cannot overwrite a value", src, pos);
    }

    if (!startswith(src, "]", pos)) {
      throw new TOMLDecodeError("Expected ']' at the end of a table declaration", src, pos);
    }
    return [pos + 1, key];
  }

  function create_list_rule(src, pos, out) {
    pos += 2; // Skip "[["
    pos = skip_chars(src, pos, TOML_WS);
    let key;
    [pos, key] = parse_key(src, pos);

    if (out.flags.is_(key, Flags.FROZEN)) {
      throw new TOMLDecodeError(`Cannot mutate immutable namespace ${repr_key(key)}`, src, pos);
    }
    // Free the namespace now that it points to another empty list item...
    out.flags.unset_all(key);
    // ...but this key precisely is still prohibited from table declaration
    out.flags.set(key, Flags.EXPLICIT_NEST, { recursive: false });
    try {
      out.data.append_nest_to_list(key);
    } catch (e) {
      if (!(e instanceof KeyError)) throw e;
      throw new TOMLDecodeError("Cannot overwrite a value", src, pos);
    }

    if (!startswith(src, "]]", pos)) {
      throw new TOMLDecodeError("Expected ']]' at the end of an array declaration", src, pos);
    }
    return [pos + 2, key];
  }

  function key_value_rule(src, pos, out, header, parse_float) {
    let key, value;
    [pos, key, value] = parse_key_value_pair(src, pos, parse_float, 0);
    const key_parent = key.slice(0, -1),
      key_stem = key[key.length - 1];
    const abs_key_parent = header.concat(key_parent);

    for (let i = 1; i < key.length; i++) {
      const cont_key = header.concat(key.slice(0, i));
      // Check that dotted key syntax does not redefine an existing table
      if (out.flags.is_(cont_key, Flags.EXPLICIT_NEST)) {
        throw new TOMLDecodeError(`Cannot redefine namespace ${repr_key(cont_key)}`, src, pos);
      }
      // Containers in the relative path can't be opened with the table syntax or dotted
      // key/value syntax in following table sections.
      out.flags.add_pending(cont_key, Flags.EXPLICIT_NEST);
    }

    if (out.flags.is_(abs_key_parent, Flags.FROZEN)) {
      throw new TOMLDecodeError(
        `Cannot mutate immutable namespace ${repr_key(abs_key_parent)}`,
        src,
        pos,
      );
    }

    let nest;
    try {
      nest = out.data.get_or_create_nest(abs_key_parent);
    } catch (e) {
      if (!(e instanceof KeyError)) throw e;
      throw new TOMLDecodeError("Cannot overwrite a value", src, pos);
    }
    if (nest.has(key_stem)) {
      throw new TOMLDecodeError("Cannot overwrite a value", src, pos);
    }
    // Mark inline table and array namespaces recursively immutable
    if (value instanceof Map || Array.isArray(value)) {
      out.flags.set(header.concat(key), Flags.FROZEN, { recursive: true });
    }
    nest.set(key_stem, value);
    return pos;
  }

  function parse_key_value_pair(src, pos, parse_float, nest_lvl) {
    let key, value;
    [pos, key] = parse_key(src, pos);
    const char = src[pos] === undefined ? null : src[pos];
    if (char !== "=") {
      throw new TOMLDecodeError("Expected '=' after a key in a key/value pair", src, pos);
    }
    pos += 1;
    pos = skip_chars(src, pos, TOML_WS);
    [pos, value] = parse_value(src, pos, parse_float, nest_lvl);
    return [pos, key, value];
  }

  function parse_key(src, pos) {
    let key_part;
    [pos, key_part] = parse_key_part(src, pos);
    const key = [key_part];
    pos = skip_chars(src, pos, TOML_WS);
    for (;;) {
      const char = src[pos] === undefined ? null : src[pos];
      if (char !== ".") {
        return [pos, key];
      }
      pos += 1;
      pos = skip_chars(src, pos, TOML_WS);
      [pos, key_part] = parse_key_part(src, pos);
      key.push(key_part);
      if (key.length > MAX_KEY_PARTS) {
        throw new RecursionError(`TOML key has more than the allowed ${MAX_KEY_PARTS} parts`);
      }
      pos = skip_chars(src, pos, TOML_WS);
    }
  }

  function parse_key_part(src, pos) {
    const char = src[pos] === undefined ? null : src[pos];
    if (BARE_KEY_CHARS.has(char)) {
      const start_pos = pos;
      pos = skip_chars(src, pos, BARE_KEY_CHARS);
      return [pos, slice(src, start_pos, pos)];
    }
    if (char === "'") {
      return parse_literal_str(src, pos);
    }
    if (char === '"') {
      return parse_one_line_basic_str(src, pos);
    }
    throw new TOMLDecodeError("Invalid initial character for a key part", src, pos);
  }

  function parse_one_line_basic_str(src, pos) {
    pos += 1;
    return parse_basic_str(src, pos, { multiline: false });
  }

  function parse_array(src, pos, parse_float, nest_lvl) {
    pos += 1;
    const array = [];

    pos = skip_comments_and_array_ws(src, pos);
    if (startswith(src, "]", pos)) {
      return [pos + 1, array];
    }
    for (;;) {
      let val;
      [pos, val] = parse_value(src, pos, parse_float, nest_lvl);
      array.push(val);
      pos = skip_comments_and_array_ws(src, pos);

      const c = slice(src, pos, pos + 1);
      if (c === "]") {
        return [pos + 1, array];
      }
      if (c !== ",") {
        throw new TOMLDecodeError("Unclosed array", src, pos);
      }
      pos += 1;

      pos = skip_comments_and_array_ws(src, pos);
      if (startswith(src, "]", pos)) {
        return [pos + 1, array];
      }
    }
  }

  function parse_inline_table(src, pos, parse_float, nest_lvl) {
    pos += 1;
    const nested_dict = new NestedDict();
    const flags = new Flags();

    pos = skip_comments_and_array_ws(src, pos);
    if (startswith(src, "}", pos)) {
      return [pos + 1, nested_dict.dict];
    }
    for (;;) {
      let key, value;
      [pos, key, value] = parse_key_value_pair(src, pos, parse_float, nest_lvl);
      const key_parent = key.slice(0, -1),
        key_stem = key[key.length - 1];
      if (flags.is_(key, Flags.FROZEN)) {
        throw new TOMLDecodeError(`Cannot mutate immutable namespace ${repr_key(key)}`, src, pos);
      }
      let nest;
      try {
        nest = nested_dict.get_or_create_nest(key_parent, { access_lists: false });
      } catch (e) {
        if (!(e instanceof KeyError)) throw e;
        throw new TOMLDecodeError("Cannot overwrite a value", src, pos);
      }
      if (nest.has(key_stem)) {
        throw new TOMLDecodeError(`Duplicate inline table key ${repr_str(key_stem)}`, src, pos);
      }
      nest.set(key_stem, value);
      pos = skip_comments_and_array_ws(src, pos);
      const c = slice(src, pos, pos + 1);
      if (c === "}") {
        return [pos + 1, nested_dict.dict];
      }
      if (c !== ",") {
        throw new TOMLDecodeError("Unclosed inline table", src, pos);
      }
      pos += 1;
      pos = skip_comments_and_array_ws(src, pos);
      if (startswith(src, "}", pos)) {
        return [pos + 1, nested_dict.dict];
      }
      if (value instanceof Map || Array.isArray(value)) {
        flags.set(key, Flags.FROZEN, { recursive: true });
      }
    }
  }

  function parse_basic_str_escape(src, pos, { multiline = false } = {}) {
    const escape_id = slice(src, pos, pos + 2);
    pos += 2;
    if (multiline && (escape_id === "\\ " || escape_id === "\\\t" || escape_id === "\\\n")) {
      // Skip whitespace until next non-whitespace character or end of the doc. Error if
      // non-whitespace is found before newline.
      if (escape_id !== "\\\n") {
        pos = skip_chars(src, pos, TOML_WS);
        const char = src[pos];
        if (char === undefined) {
          return [pos, ""];
        }
        if (char !== "\n") {
          throw new TOMLDecodeError("Unescaped '\\' in a string", src, pos);
        }
        pos += 1;
      }
      pos = skip_chars(src, pos, TOML_WS_AND_NEWLINE);
      return [pos, ""];
    }
    if (escape_id === "\\x") {
      return parse_hex_char(src, pos, 2);
    }
    if (escape_id === "\\u") {
      return parse_hex_char(src, pos, 4);
    }
    if (escape_id === "\\U") {
      return parse_hex_char(src, pos, 8);
    }
    const replacement = BASIC_STR_ESCAPE_REPLACEMENTS.get(escape_id);
    if (replacement === undefined) {
      throw new TOMLDecodeError("Unescaped '\\' in a string", src, pos);
    }
    return [pos, replacement];
  }

  function parse_basic_str_escape_multiline(src, pos) {
    return parse_basic_str_escape(src, pos, { multiline: true });
  }

  function parse_hex_char(src, pos, hex_len) {
    const hex_chars = src.slice(pos, pos + hex_len); // src[pos : pos + hex_len]
    if (hex_chars.length !== hex_len || !hex_chars.every((c) => HEXDIGIT_CHARS.has(c))) {
      throw new TOMLDecodeError("Invalid hex value", src, pos);
    }
    pos += hex_len;
    const hex_int = parseInt(hex_chars.join(""), 16);
    if (!is_unicode_scalar_value(hex_int)) {
      throw new TOMLDecodeError("Escaped character is not a Unicode scalar value", src, pos);
    }
    return [pos, String.fromCodePoint(hex_int)];
  }

  function parse_literal_str(src, pos) {
    pos += 1; // Skip starting apostrophe
    const start_pos = pos;
    pos = skip_until(src, pos, "'", { error_on: ILLEGAL_LITERAL_STR_CHARS, error_on_eof: true });
    return [pos + 1, slice(src, start_pos, pos)]; // Skip ending apostrophe
  }

  function parse_multiline_str(src, pos, { literal }) {
    pos += 3;
    if (startswith(src, "\n", pos)) {
      pos += 1;
    }

    let delim, result;
    if (literal) {
      delim = "'";
      const end_pos = skip_until(src, pos, "'''", {
        error_on: ILLEGAL_MULTILINE_LITERAL_STR_CHARS,
        error_on_eof: true,
      });
      result = slice(src, pos, end_pos);
      pos = end_pos + 3;
    } else {
      delim = '"';
      [pos, result] = parse_basic_str(src, pos, { multiline: true });
    }

    // Add at maximum two extra apostrophes/quotes if the end sequence is 4 or 5 chars long
    // instead of just 3.
    if (!startswith(src, delim, pos)) {
      return [pos, result];
    }
    pos += 1;
    if (!startswith(src, delim, pos)) {
      return [pos, result + delim];
    }
    pos += 1;
    return [pos, result + delim + delim];
  }

  function parse_basic_str(src, pos, { multiline }) {
    let error_on, parse_escapes;
    if (multiline) {
      error_on = ILLEGAL_MULTILINE_BASIC_STR_CHARS;
      parse_escapes = parse_basic_str_escape_multiline;
    } else {
      error_on = ILLEGAL_BASIC_STR_CHARS;
      parse_escapes = parse_basic_str_escape;
    }
    let result = "";
    let start_pos = pos;
    for (;;) {
      const char = src[pos];
      if (char === undefined) {
        throw new TOMLDecodeError("Unterminated string", src, pos);
      }
      if (char === '"') {
        if (!multiline) {
          return [pos + 1, result + slice(src, start_pos, pos)];
        }
        if (startswith(src, '"""', pos)) {
          return [pos + 3, result + slice(src, start_pos, pos)];
        }
        pos += 1;
        continue;
      }
      if (char === "\\") {
        result += slice(src, start_pos, pos);
        let parsed_escape;
        [pos, parsed_escape] = parse_escapes(src, pos);
        result += parsed_escape;
        start_pos = pos;
        continue;
      }
      if (error_on.has(char)) {
        throw new TOMLDecodeError(`Illegal character ${repr_str(char)}`, src, pos);
      }
      pos += 1;
    }
  }

  function parse_value(src, pos, parse_float, nest_lvl) {
    if (nest_lvl > MAX_INLINE_NESTING) {
      throw new RecursionError(
        "TOML inline arrays/tables are nested more than the allowed" +
          ` ${MAX_INLINE_NESTING} levels`,
      );
    }

    const char = src[pos] === undefined ? null : src[pos];

    // IMPORTANT: order conditions based on speed of checking and likelihood

    // Basic strings
    if (char === '"') {
      if (startswith(src, '"""', pos)) {
        return parse_multiline_str(src, pos, { literal: false });
      }
      return parse_one_line_basic_str(src, pos);
    }

    // Literal strings
    if (char === "'") {
      if (startswith(src, "'''", pos)) {
        return parse_multiline_str(src, pos, { literal: true });
      }
      return parse_literal_str(src, pos);
    }

    // Booleans
    if (char === "t") {
      if (startswith(src, "true", pos)) {
        return [pos + 4, true];
      }
    }
    if (char === "f") {
      if (startswith(src, "false", pos)) {
        return [pos + 5, false];
      }
    }

    // Arrays
    if (char === "[") {
      return parse_array(src, pos, parse_float, nest_lvl + 1);
    }

    // Inline tables
    if (char === "{") {
      return parse_inline_table(src, pos, parse_float, nest_lvl + 1);
    }

    // Dates and times
    const datetime_match = re_match(RE_DATETIME, src, pos);
    if (datetime_match) {
      let datetime_obj;
      try {
        datetime_obj = match_to_datetime(datetime_match);
      } catch (e) {
        if (!(e instanceof ValueError)) throw e;
        throw new TOMLDecodeError("Invalid date or datetime", src, pos);
      }
      return [match_end(datetime_match), datetime_obj];
    }
    const localtime_match = re_match(RE_LOCALTIME, src, pos);
    if (localtime_match) {
      return [match_end(localtime_match), match_to_localtime(localtime_match)];
    }

    // Integers and "normal" floats. The regex will greedily match any type starting with a
    // decimal char, so needs to be located after handling of dates and times.
    const number_match = re_match(RE_NUMBER, src, pos);
    if (number_match) {
      return [match_end(number_match), match_to_number(number_match, parse_float)];
    }

    // Special floats
    const first_three = slice(src, pos, pos + 3);
    if (first_three === "inf" || first_three === "nan") {
      return [pos + 3, parse_float(first_three)];
    }
    const first_four = slice(src, pos, pos + 4);
    if (["-inf", "+inf", "-nan", "+nan"].includes(first_four)) {
      return [pos + 4, parse_float(first_four)];
    }

    throw new TOMLDecodeError("Invalid value", src, pos);
  }

  function is_unicode_scalar_value(codepoint) {
    return (0 <= codepoint && codepoint <= 55295) || (57344 <= codepoint && codepoint <= 1114111);
  }

  // A decorator to make `parse_float` safe. `parse_float` must not return dicts or lists,
  // because these types would be mixed with parsed TOML tables and arrays, thus confusing the
  // parser. The returned decorated callable raises `ValueError` instead of returning illegal
  // types.
  function make_safe_parse_float(parse_float) {
    // The default `float` callable never returns illegal types. Optimize it.
    if (parse_float === float) {
      return float;
    }

    return function safe_parse_float(float_str) {
      const float_value = parse_float(float_str);
      if (float_value instanceof Map || Array.isArray(float_value)) {
        throw new ValueError("parse_float must not return dicts or lists");
      }
      return float_value;
    };
  }

  // ---------------------------------------------------------------------------------------
  // Not tomli's: a JSON-able rendering of a parsed value, for tests/test_desk_toml.py (which
  // builds the same from tomli's output).
  //   table ["table", [[key, tagged], ...]] (pairs: the keys' order survives JSON)
  //   array ["array", [tagged, ...]]   string ["str", s]   integer ["int", decimal digits]
  //   float ["float", Python's repr()]   boolean ["bool", b]   date or time [type, text]

  // Python's repr(float): the shortest digits that read back, positional from 1e-4 to 1e16.
  function float_repr(x) {
    if (Number.isNaN(x)) return "nan";
    if (x === Infinity) return "inf";
    if (x === -Infinity) return "-inf";
    if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
    const [mantissa, exp_str] = x.toExponential().split("e"); // shortest round-trip digits
    const sign = mantissa[0] === "-" ? "-" : "";
    const digits = mantissa.replace("-", "").replace(".", "");
    const exp = Number(exp_str);
    if (exp < -4 || exp >= 16) {
      const m = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
      return `${sign}${m}e${exp < 0 ? "-" : "+"}${pad(Math.abs(exp), 2)}`;
    }
    if (exp >= 0) {
      const int_part = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
      return `${sign}${int_part}.${digits.slice(exp + 1) || "0"}`;
    }
    return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  }

  function tagged(value) {
    if (value instanceof Map) {
      return ["table", Array.from(value, ([k, v]) => [k, tagged(v)])];
    }
    if (Array.isArray(value)) return ["array", value.map(tagged)];
    if (typeof value === "string") return ["str", value];
    if (typeof value === "bigint") return ["int", value.toString()];
    if (typeof value === "number") return ["float", float_repr(value)];
    if (typeof value === "boolean") return ["bool", value];
    if (value && typeof value.type === "string") return [value.type, value.text];
    throw new TypeError(`not a TOML value: ${String(value)}`);
  }

  globalThis.tomli = { loads, TOMLDecodeError, tagged };
})();

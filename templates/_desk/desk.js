/* pbem order desk: fill in, check and sign an order form in the browser.
 *
 * Everything here mirrors a piece of pbem's Python code, named in each section, and is
 * checked against it by tests/test_desk_browser.py: the same checks give the same messages,
 * and a signature is the very SSHSIG that `ssh-keygen -Y sign -n pbem-orders` makes with
 * the same key over the same body (Ed25519 is deterministic). The page makes no network
 * request; the key stays in this browser's IndexedDB as a non-extractable WebCrypto key.
 * The TOML reader is tomli.js (a port of tomli, the parser the command line uses).
 */
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("desk-data").textContent);
  const $ = (id) => document.getElementById(id);
  const enc = new TextEncoder();

  /* ---- bytes (SSH wire format, PROTOCOL.sshsig) ------------------------------------- */
  function concat(...parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let i = 0;
    for (const p of parts) { out.set(p, i); i += p.length; }
    return out;
  }
  function u32(n) { return new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]); }
  function sshString(bytes) {
    const b = typeof bytes === "string" ? enc.encode(bytes) : bytes;
    return concat(u32(b.length), b);
  }
  function b64(bytes) {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }
  function unb64(text) { return Uint8Array.from(atob(text), (c) => c.charCodeAt(0)); }
  function hex(bytes) { return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""); }
  function equal(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }
  async function digest(name, bytes) { return new Uint8Array(await crypto.subtle.digest(name, bytes)); }
  function fresh32() { return hex(crypto.getRandomValues(new Uint8Array(32))); }

  /* ---- keys (pbem/core/keys.py, sshsig.fingerprint) --------------------------------- */
  const KEY_TYPE = "ssh-ed25519";
  function publicBlob(raw) { return concat(sshString(KEY_TYPE), sshString(raw)); }
  function publicLine(raw) { return KEY_TYPE + " " + b64(publicBlob(raw)); }
  async function fingerprint(raw) {
    return "SHA256:" + b64(await digest("SHA-256", publicBlob(raw))).replace(/=+$/, "");
  }
  function parsePublicLine(line) {
    const parts = line.trim().split(/\s+/);
    const blob = unb64(parts[1]);
    return blob.subarray(blob.length - 32);
  }

  /* Reads SSH wire strings from bytes; anything cut short is refused. */
  function reader(bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let pos = 0;
    const need = (n) => { if (pos + n > bytes.length) throw new Error("the key file is cut short"); };
    return {
      u32() { need(4); const n = view.getUint32(pos); pos += 4; return n; },
      string() { const n = this.u32(); need(n); const out = bytes.subarray(pos, pos + n); pos += n; return out; },
      text() { return new TextDecoder().decode(this.string()); },
    };
  }

  /* An unencrypted OpenSSH private key file ("openssh-key-v1", PROTOCOL.key: the format
   * ssh-keygen writes); its 32-byte seed and public key. Anything else is refused. */
  function readOpenSSHKey(text) {
    const m = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/.exec(text);
    if (!m) throw new Error("not an OpenSSH private key file (it starts with -----BEGIN OPENSSH PRIVATE KEY-----)");
    const data = unb64(m[1].replace(/\s+/g, ""));
    const magic = enc.encode("openssh-key-v1\0");
    if (!equal(data.subarray(0, magic.length), magic)) throw new Error("not an openssh-key-v1 file");
    const r = reader(data.subarray(magic.length));
    const cipher = r.text(), kdf = r.text();
    r.string();  // kdf options
    if (cipher !== "none" || kdf !== "none") {
      throw new Error("this key has a passphrase: remove it on a copy first (ssh-keygen -p -N '' -f COPY) or create a key here");
    }
    if (r.u32() !== 1) throw new Error("the file holds more than one key");
    r.string();  // the public key blob, again in the private section
    const p = reader(r.string());
    if (p.u32() !== p.u32()) throw new Error("the key file is damaged (its check bytes differ)");
    const type = p.text();
    if (type !== KEY_TYPE) throw new Error("use an ed25519 key (this one is " + type + ")");
    const pub = p.string(), secret = p.string();
    if (pub.length !== 32 || secret.length !== 64 || !equal(secret.subarray(32), pub)) {
      throw new Error("the key file is damaged (the public half does not match)");
    }
    return { seed: secret.slice(0, 32), pub: pub.slice(), comment: p.text() };
  }

  const PKCS8_ED25519 = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03,
    0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);

  /* ---- the key store: IndexedDB of this page's origin, CryptoKey objects that cannot be
   * exported (the private key never leaves the browser, not even to this page's code) --- */
  function db() {
    return new Promise((resolve, reject) => {
      const req = indexedDB.open("pbem-order-desk", 1);
      req.onupgradeneeded = () => req.result.createObjectStore("keys", { keyPath: "fingerprint" });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  async function store(mode, fn) {
    const d = await db();
    return new Promise((resolve, reject) => {
      const tx = d.transaction("keys", mode);
      const req = fn(tx.objectStore("keys"));
      tx.oncomplete = () => resolve(req && req.result);
      tx.onerror = () => reject(tx.error);
    });
  }
  const allKeys = () => store("readonly", (s) => s.getAll());
  async function saveKey(privateKey, pub, label, origin) {
    const entry = { fingerprint: await fingerprint(pub), pub, privateKey, label, origin,
      created: new Date().toISOString() };
    await store("readwrite", (s) => s.put(entry));
    return entry;
  }
  async function createKey(label) {
    const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
    const pub = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    return saveKey(pair.privateKey, pub, label, "created in this browser");
  }
  async function importKey(text, label) {
    const k = readOpenSSHKey(text);
    const privateKey = await crypto.subtle.importKey("pkcs8", concat(PKCS8_ED25519, k.seed),
      { name: "Ed25519" }, false, ["sign"]);
    k.seed.fill(0);
    // The seed must give the public key the file names: sign and verify once.
    const probe = enc.encode("pbem-order-desk key check");
    const verifier = await crypto.subtle.importKey("raw", k.pub, { name: "Ed25519" }, true, ["verify"]);
    const ok = await crypto.subtle.verify({ name: "Ed25519" },
      verifier, await crypto.subtle.sign({ name: "Ed25519" }, privateKey, probe), probe);
    if (!ok) throw new Error("the key file is damaged (its halves do not match)");
    return saveKey(privateKey, k.pub, label || k.comment, "imported from a key file");
  }

  /* ---- armor (pbem/core/armor.py) ----------------------------------------------------- */
  const BEGIN = "-----BEGIN PBEM ORDERS-----", END = "-----END PBEM ORDERS-----";
  const lines = (text) => text.split(/\r\n|\n|\r/);
  function normalise(body) {
    const ls = lines(body).map((l) => l.replace(/[ \t]+$/, ""));
    while (ls.length && ls[0] === "") ls.shift();
    while (ls.length && ls[ls.length - 1] === "") ls.pop();
    return ls.join("\n") + "\n";
  }
  class Problem {
    constructor(where, message, hint) { this.where = where; this.message = message; this.hint = hint || ""; }
    toString() {
      let t = this.where ? this.where + ": " + this.message : this.message;
      if (this.hint) t += " (fix: " + this.hint + ")";
      return t;
    }
  }
  class Refused extends Error {
    constructor(problems) { super(problems.join("\n")); this.problems = problems; }
  }
  function pyRepr(s) {
    const q = s.includes("'") && !s.includes('"') ? '"' : "'";
    let out = q;
    for (const ch of s) {
      const c = ch.codePointAt(0);
      if (ch === "\\") out += "\\\\";
      else if (ch === q) out += "\\" + q;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
      else out += ch;
    }
    return out + q;
  }
  /* The form's one order block: its body, and the line of its BEGIN marker (1-based). */
  const MAX_TEXT = 4 * 1024 * 1024, MAX_BODY = 256 * 1024;  // armor.MAX_TEXT, MAX_BODY
  function findBlock(text) {
    const length = Array.from(text).length;
    if (length > MAX_TEXT) {
      throw new Refused([new Problem("", "the text is " + length + " characters long, over the " +
        MAX_TEXT + " limit", "send only the order file")]);
    }
    const ls = lines(text);
    const begins = [];
    for (let i = 0; i < ls.length; i++) if (ls[i].trim() === BEGIN) begins.push(i);
    if (!begins.length) {
      throw new Refused([new Problem("", "no order block found",
        "sign the order form that pbem form or your report gave you")]);
    }
    if (begins.length > 1) {
      throw new Refused([new Problem("line " + (begins[1] + 1), "a second order block",
        "paste one order form at a time")]);
    }
    const start = begins[0];
    const problems = [];
    let i = start + 1;
    const body = [];
    for (; i < ls.length && ls[i].trim() !== END; i++) {
      const candidate = ls[i].replace(/[ \t]+$/, "");
      if (candidate.startsWith("-----")) {
        problems.push(new Problem("line " + (i + 1), "a line inside the order block starts with '-----': " +
          pyRepr(candidate.slice(0, 40)), "remove that line, or end the block with " + END));
      }
      body.push(ls[i]);
    }
    if (i >= ls.length) {
      problems.push(new Problem("line " + (start + 1), "the order block that starts here has no " + END +
        " line", "paste the whole order file, down to the END SSH SIGNATURE line"));
    }
    if (!problems.length && enc.encode(normalise(body.join("\n"))).length > MAX_BODY) {
      problems.push(new Problem("line " + (start + 1), "the order block is too large",
        "send one order file of at most 256 KiB"));
    }
    if (problems.length) throw new Refused(problems);
    return { body: body.join("\n"), line: start + 1, start, end: i, lines: ls };
  }

  /* pbem/core/signing.py refresh_envelope: fresh salt and entropy in [envelope]. */
  function refreshEnvelope(body) {
    let table = "";
    return body.split("\n").map((line) => {
      const m = /^\s*\[([^\[\]]+)\]\s*(#.*)?$/.exec(line);
      if (m) { table = m[1].trim(); return line; }
      if (table === "envelope") {
        const k = /^(\s*)(salt|entropy)(\s*=\s*)"[^"]*"(.*)$/.exec(line);
        if (k) return k[1] + k[2] + k[3] + '"' + fresh32() + '"' + k[4];
      }
      return line;
    }).join("\n");
  }

  /* ---- checks (pbem/core/orders.py parse, check_signature, check_envelope) ------------ */
  const ORDERS_FORMAT = "pbem-orders/2", ORDERS_FORMAT_V1 = "pbem-orders/1";
  const ENVELOPE_KEYS = ["format", "campaign", "campaign_hash", "player", "phase", "salt", "entropy"];
  const PLAYER_NAME = /^[a-z][a-z0-9_-]{0,31}$/, HEX64 = /^[0-9a-f]{64}$/;
  const isTable = (v) => v instanceof Map;  // tomli.js gives tables as Maps, in file order

  /* formcheck.relocate: TOML positions of the body become lines of the pasted text. */
  function relocate(message, block) {
    let first = block.line + 1;
    for (let n = block.line; n < block.lines.length; n++) {
      if (block.lines[n].trim()) { first = n + 1; break; }
    }
    return message.replace(/\(at line (\d+), column (\d+)\)/g,
      (_, l, c) => "(at line " + (first + Number(l) - 1) + " of the file, column " + c + ")");
  }

  function refusal(ch) { return DATA.refused[ch.codePointAt(0)]; }
  function describe(ch) {
    const c = ch.codePointAt(0), r = DATA.refused[c];
    const name = r ? r[0] : "";
    return "U+" + c.toString(16).toUpperCase().padStart(4, "0") + (name ? " " + name : "");
  }
  function refusedIn(text, allow) {
    const found = new Map();
    for (const ch of text) {
      if (!found.has(ch) && !(allow || "").includes(ch)) {
        const why = refusal(ch);
        if (why) found.set(ch, why[1]);
      }
    }
    return [...found];
  }
  function keyShown(key) {
    return Array.from(key, (ch) => refusal(ch) ? "\\u" + ch.codePointAt(0).toString(16).padStart(4, "0") : ch).join("");
  }
  function* strings(value, where, sep) {
    if (typeof value === "string") yield [where, value];
    else if (Array.isArray(value)) {
      let n = 0;
      for (const item of value) yield* strings(item, where + ", entry " + (++n), ", ");
    } else if (isTable(value)) {
      for (const [key, item] of value) {
        const inner = where + sep + keyShown(key);
        yield [inner, key];
        yield* strings(item, inner, ".");
      }
    }
  }
  function textProblems(block, envelope, orders) {
    const problems = [];
    for (const [table, value] of [["[envelope]", envelope], ["[orders]", orders]]) {
      for (const [where, text] of strings(value, table, " ")) {
        for (const [ch, why] of refusedIn(text)) {
          problems.push(new Problem(where, "contains " + describe(ch) + ", " + why, "remove it"));
        }
      }
    }
    if (!problems.length) {
      block.body.split("\n").forEach((line, i) => {
        for (const [ch, why] of refusedIn(line, "\r")) {
          problems.push(new Problem("order block at line " + block.line, "line " + (i + 1) +
            " of the block contains " + describe(ch) + ", " + why,
            "remove it; comments are published with the orders too"));
        }
      });
    }
    return problems;
  }

  function parse(block) {
    let data;
    try {
      data = tomli.loads(block.body);
    } catch (e) {
      if (e.name === "TOMLDecodeError") {
        throw new Refused([new Problem("order block at line " + block.line, relocate("not valid TOML: " + e.message, block),
          "compare with the order form; strings need double quotes")]);
      }
      if (e.name === "ValueError") {
        throw new Refused([new Problem("order block at line " + block.line, "not valid TOML: a number of more than 4300 digits",
          "compare with the order form; no order takes a number that long")]);
      }
      throw new Refused([new Problem("order block at line " + block.line, "not valid TOML: arrays or tables nested too deep",
        "compare with the order form; no value nests more than a few levels")]);
    }
    const problems = [];
    for (const key of data.keys()) {
      if (key !== "envelope" && key !== "orders") {
        problems.push(new Problem("[" + key + "]", "unknown table or key at the top level", "orders go inside the [orders] table"));
      }
    }
    const env = data.get("envelope");
    if (!isTable(env)) {
      problems.push(new Problem("[envelope]", "missing", "keep the [envelope] table of the form"));
      throw new Refused(problems);
    }
    const expected = env.get("format") === ORDERS_FORMAT_V1 ? ENVELOPE_KEYS.filter((k) => k !== "campaign_hash") : ENVELOPE_KEYS;
    for (const key of env.keys()) {
      if (!expected.includes(key)) problems.push(new Problem("[envelope] " + key, "unknown key", "the envelope has only " + expected.join(", ")));
    }
    const values = {};
    for (const key of expected) {
      if (typeof env.get(key) !== "string") problems.push(new Problem("[envelope] " + key, "missing or not a string", "keep the envelope the order form gave you"));
      else values[key] = env.get(key);
    }
    if ("format" in values && values.format !== ORDERS_FORMAT && values.format !== ORDERS_FORMAT_V1) {
      problems.push(new Problem("[envelope] format", "is " + pyRepr(values.format), 'write format = "' + ORDERS_FORMAT + '"'));
    }
    if ("player" in values && !PLAYER_NAME.test(values.player)) {
      problems.push(new Problem("[envelope] player", pyRepr(values.player) + " is not a player name", "player names are lower case, [a-z][a-z0-9_-]{0,31}"));
    }
    for (const key of ["salt", "entropy", "campaign_hash"]) {
      if (key in values && !HEX64.test(values[key])) problems.push(new Problem("[envelope] " + key, "must be 64 lower-case hex digits", "use the value from a fresh order form (pbem form)"));
    }
    let orders = data.has("orders") ? data.get("orders") : new Map();
    if (!isTable(orders)) {
      problems.push(new Problem("[orders]", "must be a table", "write [orders] on its own line"));
      orders = new Map();
    }
    problems.push(...textProblems(block, env, orders));
    if (problems.length) throw new Refused(problems);
    return { envelope: values, orders };
  }

  async function checkSigner(envelope, pub) {
    const player = envelope.player;
    const registered = DATA.keys[player];
    if (registered && equal(parsePublicLine(registered), pub)) return;
    const others = Object.keys(DATA.keys).filter((p) => equal(parsePublicLine(DATA.keys[p]), pub));
    if (others.length) {
      throw new Refused([new Problem("signature", "signed by the key of " + others.join(", ") +
        ", but the envelope says player " + pyRepr(player), "each player signs their own orders with their own key")]);
    }
    const early = DATA.early.find((f) => f.player === player && equal(parsePublicLine(f.key), pub));
    if (early) {
      throw new Refused([new Problem("signature", "signed by " + player + "'s new key " + await fingerprint(pub) +
        ", which the GM registered from record " + early.record + " on (the phase after the open one)",
        "the open phase still takes the old key; if you no longer have it, wait for the next report and sign its form with the new key")]);
    }
    const former = DATA.former.find((f) => f.player === player && equal(parsePublicLine(f.key), pub));
    if (former) {
      throw new Refused([new Problem("signature", "signed by " + player + "'s former key " + await fingerprint(pub) +
        ", which the GM replaced from record " + (former.record + 1) + " on (the GM: " + former.reason + ")",
        "sign with your new key; if you did not ask for the change, keep this file: pbem receipts shows the change")]);
    }
    throw new Refused([new Problem("signature", "signed by key " + await fingerprint(pub) +
      ", which is not registered for " + pyRepr(player) + " in this campaign",
      "sign with the key you gave the GM, or ask the GM to register your new key")]);
  }

  function checkEnvelope(env) {
    const id = DATA.campaign, fail = (w, m, h) => { throw new Refused([new Problem(w, m, h)]); };
    if (env.campaign !== id) {
      fail("[envelope] campaign", "this file is for campaign " + pyRepr(env.campaign) + ", not " + pyRepr(id),
        "orders for one campaign are never accepted in another; use this campaign's form");
    }
    const wanted = DATA.campaign_hash ? ORDERS_FORMAT : ORDERS_FORMAT_V1;
    if (env.format !== wanted) {
      fail("[envelope] format", "this file is in format " + pyRepr(env.format) + "; campaign " + pyRepr(id) +
        " takes " + pyRepr(wanted), "fill in a fresh order form of this campaign (pbem form, or your last report)");
    }
    if (DATA.campaign_hash && env.campaign_hash !== DATA.campaign_hash) {
      fail("[envelope] campaign_hash", "this file is for another campaign called " + pyRepr(id) +
        " (campaign_hash " + env.campaign_hash.slice(0, 16) + "\u2026, this campaign's is " +
        DATA.campaign_hash.slice(0, 16) + "\u2026)", "orders are bound to one campaign.toml: use the form of the campaign you are playing in (your last report has it)");
    }
    if (!DATA.players.includes(env.player)) {
      fail("[envelope] player", pyRepr(env.player) + " is not a player of campaign " + pyRepr(id), "check the player name in your form");
    }
    if (!DATA.phase) fail("[envelope] phase", "the game is over; no phase is open");
    if (env.phase !== DATA.phase.id) {
      fail("[envelope] phase", "this file is for phase " + pyRepr(env.phase) + ", but the open phase is " + pyRepr(DATA.phase.id),
        "orders for a past or a future phase are not accepted; fill in the current form");
    }
    const actors = DATA.phase.actors;
    if (actors && !actors.includes(env.player)) {
      fail("[envelope] player", pyRepr(env.player) + " does not give orders in phase " + pyRepr(DATA.phase.id) +
        " (acting: " + (actors.join(", ") || "nobody (automatic phase)") + ")", "wait for your report with the next order form");
    }
  }

  /* ---- the form's keys and types (pbem/core/formcheck.py, what `pbem check` checks) --- */
  const TYPE_NAMES = { str: "a string", int: "a whole number", float: "a number", bool: "true or false",
    list: "a list", table: "a table", datetime: "a date" };
  function pyType(v) {
    if (typeof v === "boolean") return "bool";
    if (typeof v === "bigint") return "int";
    if (typeof v === "number") return "float";
    if (typeof v === "string") return "str";
    if (Array.isArray(v)) return "list";
    if (v instanceof Map) return "table";
    return "datetime";
  }
  function pyStr(v) {  // str() of a scalar as Python prints it
    if (typeof v === "number") {
      if (Number.isNaN(v)) return "nan";
      if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
      if (Number.isInteger(v) && Math.abs(v) < 1e16) return v.toFixed(1);
      return String(v).replace(/e\+?/, (m) => (m === "e" ? "e" : "e+"));
    }
    if (typeof v === "boolean") return v ? "True" : "False";
    if (typeof v === "string" || typeof v === "bigint") return String(v);
    return pyValueRepr(v);
  }
  function pyValueRepr(v) {  // repr() of a parsed value, inside a list or a table
    if (typeof v === "string") return pyRepr(v);
    if (Array.isArray(v)) return "[" + v.map(pyValueRepr).join(", ") + "]";
    if (v instanceof Map) return "{" + [...v].map(([k, x]) => pyRepr(k) + ": " + pyValueRepr(x)).join(", ") + "}";
    if (v !== null && typeof v === "object") return String(v.text);  // a date: rare in orders
    return pyStr(v);
  }
  const describeTypes = (types) => [...types].map((t) => TYPE_NAMES[t]).sort().join(" or ");
  const fits = (actual, wanted) => wanted.includes(actual) || (actual === "int" && wanted.includes("float"));
  function tomlRepr(v) {
    return typeof v === "string" ? '"' + v + '"' : typeof v === "boolean" ? String(v) : pyStr(v);
  }
  function typeProblem(where, value, wanted) {
    const actual = pyType(value);
    const only = (...ts) => wanted.length === ts.length && ts.every((t) => wanted.includes(t));
    let hint = "the form has " + describeTypes(wanted) + " here";
    if ((actual === "int" || actual === "float") && only("str")) hint = 'ids and names are strings: write "' + pyStr(value) + '"';
    else if (actual === "str" && wanted.every((t) => t === "int" || t === "float") && /^\d+$/.test(value.trim().replace(/^-+/, ""))) hint = "numbers are written without quotes: write " + value.trim();
    else if (actual === "str" && only("bool") && ["true", "false"].includes(value.toLowerCase())) hint = "write " + value.toLowerCase() + " without quotes";
    else if (only("list")) hint = "write a list in brackets: [" + tomlRepr(value) + "]";
    return new Problem(where, "is " + TYPE_NAMES[actual] + ", not " + describeTypes(wanted), hint);
  }

  /* difflib.get_close_matches(word, possibilities, n=1): SequenceMatcher's ratio, and its two
   * quick bounds, over code points, with its "popular element" rule for long words. */
  function matchingChars(a, b) {
    const b2j = new Map();
    b.forEach((c, j) => { if (!b2j.has(c)) b2j.set(c, []); b2j.get(c).push(j); });
    if (b.length >= 200) {
      const ntest = Math.floor(b.length / 100) + 1;
      for (const [c, idx] of [...b2j]) if (idx.length > ntest) b2j.delete(c);
    }
    function longest(alo, ahi, blo, bhi) {
      let besti = alo, bestj = blo, bestsize = 0, j2len = new Map();
      for (let i = alo; i < ahi; i++) {
        const next = new Map();
        for (const j of b2j.get(a[i]) || []) {
          if (j < blo) continue;
          if (j >= bhi) break;
          const k = (j2len.get(j - 1) || 0) + 1;
          next.set(j, k);
          if (k > bestsize) { besti = i - k + 1; bestj = j - k + 1; bestsize = k; }
        }
        j2len = next;
      }
      while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) { besti--; bestj--; bestsize++; }
      while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
      return [besti, bestj, bestsize];
    }
    let total = 0;
    const queue = [[0, a.length, 0, b.length]];
    while (queue.length) {
      const [alo, ahi, blo, bhi] = queue.pop();
      const [i, j, k] = longest(alo, ahi, blo, bhi);
      if (k) {
        total += k;
        if (alo < i && blo < j) queue.push([alo, i, blo, j]);
        if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
      }
    }
    return total;
  }
  function closeMatch(word, possibilities) {
    const b = Array.from(word);
    let best = null;
    for (const x of possibilities) {
      const a = Array.from(x), n = a.length + b.length;
      const score = (m) => (n ? 2 * m / n : 1);
      if (score(Math.min(a.length, b.length)) < 0.6) continue;
      const avail = new Map();
      for (const c of b) avail.set(c, (avail.get(c) || 0) + 1);
      let quick = 0;
      for (const c of a) if ((avail.get(c) || 0) > 0) { avail.set(c, avail.get(c) - 1); quick++; }
      if (score(quick) < 0.6) continue;
      const ratio = score(matchingChars(a, b));
      if (ratio >= 0.6 && (!best || ratio > best[0] || (ratio === best[0] && x > best[1]))) best = [ratio, x];
    }
    return best ? best[1] : null;
  }

  function checkTable(orders, table, path, kind) {
    const problems = [];
    const known = [...new Set([...Object.keys(table.keys), ...Object.keys(table.tables)])].sort();
    const keyNames = Object.keys(table.keys);
    const numbered = keyNames.length > 0 && keyNames.every((k) => /^[0-9]+$/.test(k));
    for (const [key, value] of orders) {
      const where = "[" + path + "] " + key;
      if (Object.prototype.hasOwnProperty.call(table.tables, key)) {
        const sub = table.tables[key];
        if (sub.array) {
          if (!Array.isArray(value) || !value.every((v) => v instanceof Map)) {
            problems.push(new Problem(where, "is " + TYPE_NAMES[pyType(value)] + ", not a list of tables",
              "write each one under its own [[" + path + "." + key + "]] line, as the form shows"));
            continue;
          }
          value.forEach((item, n) => problems.push(...checkTable(item, sub, path + "." + key + " #" + (n + 1), kind)));
        } else if (value instanceof Map) {
          problems.push(...checkTable(value, sub, path + "." + key, kind));
        } else {
          problems.push(new Problem(where, "is " + TYPE_NAMES[pyType(value)] + ", not a table",
            "write it under the [" + path + "." + key + "] line, as the form shows"));
        }
        continue;
      }
      let spec = Object.prototype.hasOwnProperty.call(table.keys, key) ? table.keys[key] : null;
      if (!spec && numbered) {
        if (!/^[0-9]+$/.test(key)) {
          problems.push(new Problem(where, "is not a number", "this table's keys are unit numbers, as in the form's example"));
          continue;
        }
        spec = { types: [...new Set(keyNames.flatMap((k) => table.keys[k].types))], items: [] };
      }
      if (!spec) {
        const close = closeMatch(key, known);
        const hint = close !== null ? "did you mean " + pyRepr(close) + "?"
          : known.length ? "the " + kind + " form has " + known.join(", ") : "the " + kind + " form takes no orders here";
        problems.push(new Problem(where, "is not a key of the " + kind + " form", hint));
        continue;
      }
      if (!spec.types.some((t) => fits(pyType(value), [t]))) {
        problems.push(typeProblem(where, value, spec.types));
        continue;
      }
      if (Array.isArray(value) && spec.items.length) {
        value.forEach((item, n) => {
          if (!fits(pyType(item), spec.items)) problems.push(typeProblem(where + " item " + (n + 1), item, spec.items));
        });
      }
    }
    return problems;
  }

  /* formcheck._line_finder: the line of the pasted text a problem's key is on. */
  function lineOf(block, where) {
    const ls = block.lines, start = block.line;
    let end = ls.length;
    for (let n = start; n < ls.length; n++) if (ls[n].trim() === END) { end = n; break; }
    const m = /^\[([^\]]+)\](?: (\S+))?/.exec(where);
    if (!m) return null;
    const esc = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const [header, nth] = m[1].split(" #");
    const key = m[2];
    let begin = start;
    if (header !== "orders" && header !== "envelope") {
      const re = new RegExp("^\\s*\\[\\[?\\s*" + esc(header) + "\\s*\\]\\]?\\s*(#.*)?$");
      let seen = 0;
      for (let n = start; n < end; n++) if (re.test(ls[n]) && ++seen === Number(nth || 1)) { begin = n; break; }
    } else if (header === "orders") {
      for (let n = start; n < end; n++) if (/^\s*\[\s*orders\s*\]\s*(#.*)?$/.test(ls[n])) { begin = n; break; }
    }
    if (key === undefined) return begin + 1;
    const re = new RegExp('^\\s*("?)' + esc(key) + '\\1\\s*=');
    for (let n = begin; n < end; n++) if (re.test(ls[n])) return n + 1;
    return begin + 1;
  }

  /* formcheck.check_orders: the form the phase names that fits, else the one with fewest
   * problems; each problem placed at its line as `pbem check` prints it. */
  function checkOrders(block, orders) {
    let best = null;
    for (const form of DATA.forms) {
      const problems = checkTable(orders, form.table, "orders", form.kind);
      if (!problems.length) return;
      if (!best || problems.length < best.length) best = problems;
    }
    if (best) {
      throw new Refused(best.map((p) => {
        const n = lineOf(block, p.where);
        return new Problem(n === null ? p.where : "line " + n + ": " + p.where, p.message, p.hint);
      }));
    }
  }

  /* ---- SSHSIG (PROTOCOL.sshsig; pbem/core/sshsig.py sign and armor) ------------------- */
  async function sshsig(body, entry) {
    const ns = "pbem-orders";
    const hash = await digest("SHA-512", body);
    const signed = concat(enc.encode("SSHSIG"), sshString(ns), sshString(""), sshString("sha512"), sshString(hash));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, entry.privateKey, signed));
    const blob = concat(enc.encode("SSHSIG"), u32(1), sshString(publicBlob(entry.pub)), sshString(ns),
      sshString(""), sshString("sha512"), sshString(concat(sshString(KEY_TYPE), sshString(raw))));
    const text = b64(blob);
    const out = ["-----BEGIN SSH SIGNATURE-----"];
    for (let i = 0; i < text.length; i += 70) out.push(text.slice(i, i + 70));
    out.push("-----END SSH SIGNATURE-----");
    return out.join("\n") + "\n";
  }

  /* What the command line checks of a body, in its order: the TOML and the envelope's
   * shape (`pbem sign`); on a campaign's page the signer's key when one is given, the
   * envelope against the campaign (`pbem verify`) and the form's keys and types (`pbem
   * check`). Throws Refused with the command line's problems. */
  async function checks(block, body, pub) {
    const parsed = parse({ body, line: block.line, lines: block.lines });
    if (DATA.campaign !== null) {
      if (pub) await checkSigner(parsed.envelope, pub);
      checkEnvelope(parsed.envelope);
      checkOrders(block, parsed.orders);
    }
    return parsed;
  }

  /* The whole path of `pbem sign` then `pbem verify` (public checks): the signed armored
   * text and its commitment. */
  async function signForm(text, entry, freshValues) {
    const block = findBlock(text);
    const body = normalise(freshValues === false ? block.body : refreshEnvelope(normalise(block.body)));
    const parsed = await checks(block, body, entry.pub);
    const bytes = enc.encode(body);
    const signature = await sshsig(bytes, entry);
    const commitment = hex(await digest("SHA-256", concat(enc.encode("pbem-commit/1\n"), bytes)));
    return { armored: BEGIN + "\n" + body + END + "\n" + signature, commitment, envelope: parsed.envelope };
  }
  async function checkForm(text) {
    const block = findBlock(text);
    return { block, parsed: await checks(block, normalise(block.body), null) };
  }

  /* ---- the fields of the form, with their comments as help ---------------------------- */
  const FIELD = /^(\s*)([A-Za-z0-9_-]+)(\s*=\s*)(.*?)(\s+#.*)?$/;
  const EXAMPLE = /^(\s*)#\s?([A-Za-z0-9_-]+)(\s*=\s*)(.+?)(\s+#.*)?$/;
  function oneValue(v) { try { tomli.loads("v = " + v); return true; } catch (e) { return false; } }
  /* A field: `key = value` on one line of [orders] or a table under it; an example: such
   * a line commented out ("# steps = [...]"), offered as an optional field. An example
   * under a commented-out table header ("# [orders.standing]") belongs to that table: when
   * filled in, the header is uncommented too (only where no field of the table above
   * follows, which would then move into it). The help of a field is the comment after it
   * and the comment lines above it since the previous field. */
  function fieldsOf(block) {
    const out = [], seen = new Set();
    let table = "", help = [], hidden = null;  // hidden: a commented-out table {name, i, fields}
    for (let i = block.start + 1; i < block.end; i++) {
      const line = block.lines[i];
      const t = /^\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
      if (t) { table = t[1]; help = []; hidden = null; continue; }
      if (!table.startsWith("orders")) continue;
      const h = /^\s*#\s?\[\s*(orders(?:\.[A-Za-z0-9_-]+)+)\s*\]\s*$/.exec(line);
      if (h) { hidden = { name: h[1], i, fields: [] }; help = []; continue; }
      const f = FIELD.exec(line);
      if (f && oneValue(f[4])) {
        if (hidden) { for (const x of hidden.fields) out.splice(out.indexOf(x), 1); hidden = null; }
        seen.add(table + "." + f[2]);
        out.push({ i, table, key: f[2], value: f[4], comment: (f[5] || "").replace(/^\s+#\s?/, ""), help: help.join("\n"), example: false });
        help = []; continue;
      }
      const e = EXAMPLE.exec(line);
      const where = hidden ? hidden.name : table;
      if (e && oneValue(e[4]) && !seen.has(where + "." + e[2])) {
        const field = { i, table: where, key: e[2], value: "", placeholder: e[4], comment: (e[5] || "").replace(/^\s+#\s?/, ""),
          help: help.join("\n"), example: true, header: hidden ? hidden.i : -1 };
        out.push(field);
        if (hidden) hidden.fields.push(field);
        help = []; continue;
      }
      const c = /^\s*#\s?(.*)$/.exec(line);
      if (c) help.push(c[1]);
    }
    return out;
  }
  function setField(text, field, value) {
    const ls = lines(text);
    const m = field.example ? EXAMPLE.exec(ls[field.i]) : FIELD.exec(ls[field.i]);
    if (!m) return text;
    if (field.example && value === "") return text;
    ls[field.i] = m[1] + m[2] + m[3] + value + (m[5] || "");
    if (field.example && field.header >= 0) ls[field.header] = ls[field.header].replace(/^(\s*)#\s?/, "$1");
    return ls.join("\n");
  }

  /* ---- the page -------------------------------------------------------------------------- */
  let current = null;  // the chosen key entry
  function show(el, text) { el.textContent = text; el.hidden = !text; }
  function problemsOut(err) {
    const list = $("problems");
    list.replaceChildren();
    const problems = err ? (err.problems || [String(err.message || err)]) : [];
    for (const p of problems) {
      const li = document.createElement("li");
      li.textContent = String(p);
      list.appendChild(li);
    }
    $("problems-box").hidden = !problems.length;
  }
  async function refreshKeys(select) {
    const entries = await allKeys();
    const sel = $("key-select");
    sel.replaceChildren();
    for (const e of entries) {
      const o = document.createElement("option");
      o.value = e.fingerprint;
      o.textContent = (e.label || "key") + " \u2014 " + e.fingerprint;
      sel.appendChild(o);
    }
    if (select) sel.value = select;
    current = entries.find((e) => e.fingerprint === sel.value) || entries[0] || null;
    $("key-none").hidden = !!current;
    $("key-have").hidden = !current;
    $("key-add").open = !current;
    if (current) {
      $("key-public").value = publicLine(current.pub) + (current.label ? " " + current.label : "");
      if (DATA.campaign === null) {
        show($("key-whose"), "Send the line above to your GM: it is the key they register for you.");
        $("key-origin").textContent = current.origin + ", " + current.created.slice(0, 10);
        return;
      }
      const whose = Object.keys(DATA.keys).filter((p) => equal(parsePublicLine(DATA.keys[p]), current.pub));
      show($("key-whose"), whose.length ? "This key is registered for " + whose.join(", ") + " in campaign " + DATA.campaign + "."
        : "This key is not registered in campaign " + DATA.campaign + " yet: send the line above to your GM (a new player, or pbem player-key for a lost key).");
      $("key-origin").textContent = current.origin + ", " + current.created.slice(0, 10);
    }
  }
  function renderFields() {
    const box = $("fields");
    box.replaceChildren();
    let block;
    try { block = findBlock($("form-text").value); } catch (e) { return; }
    const used = new Set();
    for (const f of fieldsOf(block)) {
      const wrap = document.createElement("div");
      wrap.className = "field";
      const label = document.createElement("label");
      let id = "field-" + f.table.replace(/\W/g, "_") + "-" + f.key;
      if (used.has(id)) id += "-" + f.i;  // an array of tables repeats its keys
      used.add(id);
      label.htmlFor = id;
      label.textContent = (f.table === "orders" ? "" : "[" + f.table + "] ") + f.key + (f.example ? " (optional)" : "");
      const input = document.createElement("input");
      input.id = id; input.value = f.value; input.spellcheck = false;
      input.autocapitalize = "off"; input.setAttribute("autocorrect", "off");
      if (f.placeholder) input.placeholder = f.placeholder;
      input.addEventListener("change", () => {
        // Phone keyboards turn " into curly quotes: around a value they can only mean ".
        const typed = input.value.trim().replace(/^[\u201c\u201d\u201e](.*)[\u201c\u201d]$/, '"$1"');
        input.value = typed;
        $("form-text").value = setField($("form-text").value, f, typed);
        $("result").hidden = true;
        run(async () => { await check(); renderFields(); });
      });
      wrap.append(label, input);
      for (const text of [f.comment, f.help]) {
        if (!text) continue;
        const p = document.createElement("pre");
        p.className = "help"; p.textContent = text;
        wrap.appendChild(p);
      }
      box.appendChild(wrap);
    }
  }
  async function check() {
    try {
      const { parsed } = await checkForm($("form-text").value);
      problemsOut(null);
      show($("form-ok"), "The form is for " + parsed.envelope.player + ", phase " + parsed.envelope.phase + ".");
      return true;
    } catch (e) {
      show($("form-ok"), "");
      problemsOut(e);
      return false;
    }
  }
  async function sign() {
    $("result").hidden = true;
    if (!current) { problemsOut({ problems: ["create or import a key first (above)"] }); return; }
    try {
      const out = await signForm($("form-text").value, current);
      problemsOut(null);
      $("signed").value = out.armored;
      $("commitment").textContent = out.commitment;
      const subject = "Orders " + out.envelope.campaign + " " + out.envelope.phase + " " + out.envelope.player;
      $("mailto").href = "mailto:" + encodeURIComponent(DATA.mail_to || "").replace("%40", "@") + "?subject=" +
        encodeURIComponent(subject) + "&body=" + encodeURIComponent(out.armored);
      $("result").hidden = false;
    } catch (e) {
      problemsOut(e);
    }
  }
  async function run(fn) {
    try { await fn(); } catch (e) { problemsOut({ problems: [String(e.message || e)] }); }
  }

  window.pbemDesk = { checkTable: (o, t, p, k) => checkTable(o, t, p, k).map(String), closeMatch, signForm, checkForm, readOpenSSHKey, importKey, createKey, allKeys, fieldsOf, setField, findBlock, normalise, fingerprint, publicLine };

  document.addEventListener("DOMContentLoaded", () => {
    let timer = 0;  // the check that follows typing in the form
    if (!window.crypto || !crypto.subtle || !window.indexedDB) {
      show($("unsupported"), "This browser has no WebCrypto or IndexedDB here: open the page in a current Chromium, Firefox or Safari, from a file or over https.");
      return;
    }
    $("key-create").addEventListener("click", () => run(async () => {
      const e = await createKey($("key-label").value.trim());
      await refreshKeys(e.fingerprint);
    }));
    $("key-import").addEventListener("click", () => run(async () => {
      const file = $("key-file").files[0];
      const text = file ? await file.text() : $("key-paste").value;
      const e = await importKey(text, $("key-label").value.trim());
      $("key-paste").value = "";
      $("key-file").value = "";
      await refreshKeys(e.fingerprint);
    }));
    $("key-select").addEventListener("change", () => run(() => refreshKeys($("key-select").value)));
    $("key-forget").addEventListener("click", () => run(async () => {
      if (!current || !confirm("Forget " + current.fingerprint + "? Without a copy elsewhere it is gone for good.")) return;
      await store("readwrite", (s) => s.delete(current.fingerprint));
      await refreshKeys();
    }));
    $("form-file").addEventListener("change", () => run(async () => {
      const file = $("form-file").files[0];
      if (file) {
        $("form-text").value = await file.text();
        $("result").hidden = true;
        await check(); renderFields();
      }
    }));
    // While the form is edited: the signed text below is stale at once; the check and
    // the fields follow a moment after the typing stops (never on the tap that leaves the
    // text box: a layout that moves under a finger loses the tap on Sign).
    $("form-text").addEventListener("input", () => {
      $("result").hidden = true;
      delete $("form-text").dataset.checked;
      clearTimeout(timer);
      timer = setTimeout(() => run(async () => {
        await check(); renderFields(); $("form-text").dataset.checked = "1";
      }), 400);
    });
    $("form-check").addEventListener("click", () => run(async () => {
      clearTimeout(timer);
      await check(); renderFields(); $("form-text").dataset.checked = "1";
    }));
    $("sign").addEventListener("click", () => run(sign));
    $("copy").addEventListener("click", () => run(async () => {
      $("signed").select();
      try { await navigator.clipboard.writeText($("signed").value); } catch (e) { document.execCommand("copy"); }
      show($("copied"), "Copied.");
    }));
    run(() => refreshKeys()).then(() => { document.body.dataset.ready = "1"; });
  });
})();

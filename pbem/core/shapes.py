"""The shape of every public file, checked before anything uses it (docs/protocol.md).

A ledger record or a ``campaign.toml`` may come from a hostile GM with a valid signature, or
from a damaged copy: nothing in it is used until its shape is known. Each check names the
field that fails, so the audit reports a malformed record as a failure of that record and
field, never a traceback, and every size that bounds a loop (a draw's ``n``, the seed chain's
length, the number of draws and events) is bounded here first.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pbem.core import dice
from pbem.core.errors import AuditError, CampaignError, excerpt
from pbem.core.orders import HEX64
from pbem.core.orders import PLAYER_NAME as NAME
from pbem.core.ruleset import PHASE_ID as PHASE


@cache
def _label() -> re.Pattern[str]:
    """A draw's label (DESIGN.md section 4): 1-200 printable ASCII characters, no space.
    Compiled on first use: most commands read no draw (issue 20, target 5)."""
    return re.compile(r"[!-~]{1,200}")


#: The largest ``n`` of a draw: 2**32 outcomes (rejection sampling over 64 bits stays fast).
MAX_OUTCOMES = dice.MAX_OUTCOMES
#: The longest seed chain a campaign may declare (``pbem new`` allows up to a million; the
#: default is 4096). An auditor hashes the whole chain: a million SHA-256 steps, about a second.
MAX_CHAIN = 1_000_000
#: Bounds on lists a record may hold; far above anything a game writes (a Mythology record
#: has a few hundred draws), far below what would exhaust an auditor's memory or time.
MAX_ITEMS = 100_000

_V1_SCALARS = {"format", "seq", "prev", "phase", "seed", "mix", "state_hash", "nmr",
               "next_phase"}
_V1_TABLES = {"commitments", "entropy", "orders", "revealed", "draws", "sealed", "events"}
_V1_FINAL = {"game_over", "sealed_head", "sealed_draws"}
#: Version 2 records may add ``[[key_changes]]`` (DESIGN.md section 8).
_V2_OPTIONAL = {"key_changes"}
#: A key as campaign.toml's [keys] and [[key_changes]] hold it: type and base64, no comment.
KEY = re.compile(r"ssh-ed25519 [A-Za-z0-9+/]{1,200}={0,2}")


class _Fail(Exception):
    def __init__(self, where: str, message: str) -> None:
        self.where, self.message = where, message


def _int(value: Any, where: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _Fail(where, f"must be an integer from {low} to {high}, is {excerpt(value)}")
    return value


def _str(value: Any, where: str, pattern: re.Pattern[str] | None = None,
         what: str = "") -> str:
    if type(value) is not str:
        raise _Fail(where, f"must be a string, is {excerpt(value)}")
    if pattern is not None and not pattern.fullmatch(value):
        raise _Fail(where, f"must be {what}, is {excerpt(value)}")
    return value


def _hex(value: Any, where: str) -> str:
    return _str(value, where, HEX64, "64 lower-case hex digits")


def _list(value: Any, where: str) -> list[Any]:
    if type(value) is not list:
        raise _Fail(where, f"must be an array, is {excerpt(value)}")
    if len(value) > MAX_ITEMS:
        raise _Fail(where, f"holds {len(value)} items, more than {MAX_ITEMS}")
    return value


def _table(value: Any, where: str, keys: set[str] | None = None) -> dict[str, Any]:
    if type(value) is not dict:
        raise _Fail(where, f"must be a table, is {excerpt(value)}")
    if len(value) > MAX_ITEMS:
        raise _Fail(where, f"holds {len(value)} keys, more than {MAX_ITEMS}")
    if keys is not None and set(value) != keys:
        missing, extra = sorted(keys - set(value)), sorted(set(value) - keys)
        raise _Fail(where, "must have exactly the keys " + ", ".join(sorted(keys)) +
                    (f" (missing {', '.join(missing)})" if missing else "") +
                    (f" (unknown {', '.join(map(excerpt, extra))})" if extra else ""))
    return value


def _players(value: Any, where: str, values: re.Pattern[str] | None, what: str = ""
             ) -> dict[str, Any]:
    table = _table(value, where)
    for player, v in table.items():
        _str(player, f"{where} key", NAME, "a player name")
        if values is None:
            _str(v, f"{where}.{player}")
        else:
            _str(v, f"{where}.{player}", values, what)
    return table


def _draw(d: Any, where: str, with_seq: bool) -> None:
    keys = {"seq", "i", "label", "n", "value"} if with_seq else {"i", "label", "n", "value"}
    _table(d, where, keys)
    if with_seq:
        _int(d["seq"], f"{where}.seq", 1, MAX_CHAIN)
    _int(d["i"], f"{where}.i", 0, MAX_ITEMS)
    _str(d["label"], f"{where}.label", _label(),
         "1-200 printable ASCII characters without spaces")
    n = _int(d["n"], f"{where}.n", 1, MAX_OUTCOMES)
    _int(d["value"], f"{where}.value", 1, n)


def check_record(rec: Any, seq: int) -> None:
    """Raise :class:`AuditError` (record ``seq``, the field) unless ``rec`` has the shape of
    a ``pbem-ledger/1`` or ``pbem-ledger/2`` record (by its ``format``): every field of
    docs/protocol.md section 6 with its type, the three final-record fields together or not
    at all, version 2's optional ``[[key_changes]]``, nothing else."""
    try:
        _check_record(rec)
    except _Fail as exc:
        raise AuditError(seq, exc.where, f"malformed: {exc.message}") from None


def _check_record(rec: Any) -> None:
    from pbem.core.ledger import LEDGER_FORMAT, LEDGER_FORMAT_V1

    rec = _table(rec, "record")
    fmt = rec.get("format")
    if fmt not in (LEDGER_FORMAT, LEDGER_FORMAT_V1):
        raise _Fail("format", f"must be {LEDGER_FORMAT!r} or {LEDGER_FORMAT_V1!r}, is "
                    f"{excerpt(fmt)}")
    missing = sorted((_V1_SCALARS | _V1_TABLES) - set(rec))
    if missing:
        raise _Fail(missing[0], "is missing")
    optional = _V2_OPTIONAL if fmt == LEDGER_FORMAT else set()
    unknown = sorted(set(rec) - _V1_SCALARS - _V1_TABLES - _V1_FINAL - optional)
    if unknown:
        raise _Fail(unknown[0], f"is not a field of a {fmt} record")
    for i, change in enumerate(_list(rec.get("key_changes", []), "key_changes")):
        where = f"key_changes[{i}]"
        _table(change, where, {"principal", "old", "new", "reason"})
        _str(change["principal"], f"{where}.principal", NAME, "gm or a player name")
        for key in ("old", "new"):
            _str(change[key], f"{where}.{key}", KEY, "a key 'ssh-ed25519 <base64>'")
        reason = _str(change["reason"], f"{where}.reason")
        if len(reason) > 1000:
            raise _Fail(f"{where}.reason", "is longer than 1000 characters")
    final = _V1_FINAL & set(rec)
    if final and final != _V1_FINAL:
        raise _Fail(sorted(_V1_FINAL - final)[0], "is missing (the final record has "
                    "game_over, sealed_head and sealed_draws)")
    _str(rec["format"], "format")
    _int(rec["seq"], "seq", 1, MAX_CHAIN)
    for key in ("prev", "seed", "mix", "state_hash"):
        _hex(rec[key], key)
    _str(rec["phase"], "phase", PHASE, "a phase id")
    for i, player in enumerate(_list(rec["nmr"], "nmr")):
        _str(player, f"nmr[{i}]", NAME, "a player name")
    if rec["next_phase"] != "":
        _str(rec["next_phase"], "next_phase", PHASE, "a phase id or \"\"")
    _players(rec["commitments"], "commitments", HEX64, "64 lower-case hex digits")
    _players(rec["entropy"], "entropy", HEX64, "64 lower-case hex digits")
    _players(rec["orders"], "orders", None)
    for i, item in enumerate(_list(rec["revealed"], "revealed")):
        where = f"revealed[{i}]"
        _table(item, where, {"seq", "player", "phase", "text"})
        _int(item["seq"], f"{where}.seq", 1, MAX_CHAIN)
        _str(item["player"], f"{where}.player", NAME, "a player name")
        _str(item["phase"], f"{where}.phase", PHASE, "a phase id")
        _str(item["text"], f"{where}.text")
    for j, d in enumerate(_list(rec["draws"], "draws")):
        _draw(d, f"draws[{j}]", with_seq=False)
    sealed = _table(rec["sealed"], "sealed", {"count", "digest"})
    _int(sealed["count"], "sealed.count", 0, MAX_ITEMS)
    _hex(sealed["digest"], "sealed.digest")
    for i, event in enumerate(_list(rec["events"], "events")):
        _table(event, f"events[{i}]")
        _str(event.get("type"), f"events[{i}].type")
        _str(event.get("text"), f"events[{i}].text")
    if final:
        if rec["game_over"] is not True:
            raise _Fail("game_over", f"must be true, is {excerpt(rec['game_over'])}")
        _hex(rec["sealed_head"], "sealed_head")
        for j, d in enumerate(_list(rec["sealed_draws"], "sealed_draws")):
            _draw(d, f"sealed_draws[{j}]", with_seq=True)


def check_campaign(config: Any, source: str) -> None:
    """Raise :class:`CampaignError` unless ``config`` (a parsed ``campaign.toml``) has every
    field of docs/protocol.md section 5 with its type; ``source`` names the file."""
    try:
        _check_campaign(config)
    except _Fail as exc:
        raise CampaignError(f"{source}: {exc.where} {exc.message} (the file is damaged or "
                            "was not written by pbem: ask the GM for the published copy)"
                            ) from None


#: campaign.toml's fields and how each is checked (pbem-campaign/1).
_CAMPAIGN_REQUIRED = ("format", "id", "game", "rules_version", "pbem_version", "players",
                      "seed_anchor", "sealed_anchor", "seed_chain_length")


def _check_campaign(config: Any) -> None:
    config = _table(config, "campaign.toml")
    for key in _CAMPAIGN_REQUIRED:
        if key not in config:
            raise _Fail(key, "is missing")
    from pbem.core.campaign import CAMPAIGN_ID

    _str(config["format"], "format")
    _str(config["id"], "id", CAMPAIGN_ID, "a campaign id")
    _str(config["game"], "game", NAME, "a game name")
    _str(config["rules_version"], "rules_version")
    _str(config["pbem_version"], "pbem_version")
    players = _list(config["players"], "players")
    if not 1 <= len(players) <= 64:
        raise _Fail("players", f"must list 1 to 64 players, lists {len(players)}")
    for i, player in enumerate(players):
        _str(player, f"players[{i}]", NAME, "a player name")
    if len(set(players)) != len(players):
        raise _Fail("players", "names a player twice")
    _hex(config["seed_anchor"], "seed_anchor")
    _hex(config["sealed_anchor"], "sealed_anchor")
    _int(config["seed_chain_length"], "seed_chain_length", 1, MAX_CHAIN)
    options = _table(config.get("options", {}), "options")
    for key, value in options.items():
        _str(value, f"options.{key}")
    from pbem.core.campaign import CAMPAIGN_FORMAT, GM_PRINCIPAL

    if config["format"] == CAMPAIGN_FORMAT:
        # Version 2: every principal's key, gm and each player, and nothing else.
        keys = _table(config.get("keys"), "keys", {GM_PRINCIPAL, *players})
        from pbem.core.keys import parse_public_key

        seen: dict[bytes, str] = {}
        for name in (GM_PRINCIPAL, *players):
            text = _str(keys[name], f"keys.{name}", KEY, "a key 'ssh-ed25519 <base64>'")
            try:
                raw = parse_public_key(text)
            except Exception as exc:  # a KeyFileError naming what is wrong with it
                raise _Fail(f"keys.{name}", f"is not an ed25519 public key: {exc}") from None
            if raw in seen:
                raise _Fail(f"keys.{name}", f"is {seen[raw]}'s key too; no two principals "
                            "may share a key")
            seen[raw] = name
    elif "keys" in config:
        raise _Fail("keys", f"is not a field of {config['format']}")

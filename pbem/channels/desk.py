"""The order desk (issue 19): one self-contained HTML page that ``pbem site`` writes, where
a player fills in, checks and signs an order form with nothing but a browser.

The page's code is ``templates/_desk/desk.js`` (each part mirrors the Python it names) and
``tomli.js`` (a port of tomli, the TOML parser of the command line), inlined with the style
sheet. What the page knows of the campaign is public: its id, the sha256 of campaign.toml,
the players, the keys valid for the next record (the ledger's key changes applied) and the
open phase. The GM's copy adds who acts in it; an exported copy's page leaves that to the
GM's check. A Content-Security-Policy allows only the page's own scripts (by hash) and no
connection, so the page cannot load or send anything even by mistake.
"""

from __future__ import annotations

import base64
import hashlib
import json
import unicodedata
from functools import cache
from typing import Any

from markupsafe import Markup

from pbem.core import escape, keychange, ledger
from pbem.core.campaign import Campaign
from pbem.core.keys import public_key_line
from pbem.core.resources import share_dir

NAME = "desk.html"
SCRIPTS = ("tomli.js", "desk.js")


@cache
def refused_table() -> dict[int, tuple[str, str]]:
    """Every character ``pbem submit`` refuses in orders (:func:`escape.refusal`) with the
    name :func:`escape.describe` gives it: the page uses this table, not the browser's own
    Unicode data, so both refuse the same characters with the same words."""
    table: dict[int, tuple[str, str]] = {}
    # Planes 0, 1 and 14 hold every control, format and separator character Unicode has
    # assigned (the others: ideographs and private use); a third of the scan of them all.
    for code in (*range(0x20000), *range(0xE0000, 0xF0000)):
        if 0xD800 <= code <= 0xDFFF:
            continue
        ch = chr(code)
        if unicodedata.category(ch) not in ("Cf", "Cc", "Zl", "Zp") and ch not in escape.BIDI:
            continue
        why = escape.refusal(ch)
        if why is not None:
            table[code] = (escape.describe(ch)[len(f"U+{code:04X}"):].strip(), why)
    return table


def facts(public: Campaign | None, gm: Campaign | None) -> dict[str, Any]:
    """What the page checks against: public facts of ``public``; ``gm`` (the GM's copy, or
    None) adds the actors of the open phase. Without a campaign the page checks what
    ``pbem sign`` checks (the TOML and the envelope's shape), for a key made before the
    campaign is."""
    refused = {str(k): list(v) for k, v in refused_table().items()}
    if public is None:
        return {"forms": [], "mail_to": "", "campaign": None,
                "title": "no campaign: the key, and the form's TOML and envelope only",
                "campaign_hash": "", "players": [], "records": 0, "phase": None,
                "keys": {}, "former": [], "early": [], "refused": refused}
    total = ledger.count(public.ledger_dir)
    phase: dict[str, Any] | None
    if total:
        record = ledger.load((public.ledger_dir / ledger.record_name(total)).read_bytes(),
                             ledger.record_name(total))
        phase = {"id": record["next_phase"]} if record.get("next_phase") else None
    else:
        from pbem.core.ruleset import JOIN_PHASE

        phase = {"id": JOIN_PHASE}
    if phase is not None and gm is not None:
        from pbem.core import engine

        _, _, spec = engine.open_phase(gm)
        if spec is not None and spec.id == phase["id"]:
            phase["actors"] = list(spec.actors)
    keys = public.keys_at(total + 1)
    return {"forms": _forms(public, phase["id"]) if phase is not None else [],
            "mail_to": _orders_address(gm) if gm is not None else "",
            "campaign": public.id, "title": public.ruleset.title,
            "campaign_hash": public.envelope_hash or "",
            "players": list(public.players), "records": total, "phase": phase,
            "keys": {p: public_key_line(keys[p]) for p in public.players},
            "former": [{"player": p, "key": public_key_line(k), "record": seq,
                        "reason": reason}
                       for (p, k), (seq, reason) in keychange.former_keys(public).items()
                       if keys.get(p) != k],
            "early": [{"player": q.player, "key": public_key_line(q.new),
                       "record": q.from_record} for q in keychange.pending(gm)]
            if gm is not None else [],
            "refused": refused}


def _forms(public: Campaign, phase_id: str) -> list[dict[str, Any]]:
    """The order forms the open phase may name, each with the keys and types of its
    ``[orders]`` (:func:`pbem.core.formcheck.schema`): what ``pbem check`` checks, for the
    page to check the same before it signs."""
    from pbem.core import formcheck

    out = []
    for game, kind in formcheck.forms_for(phase_id, public.ruleset.name):
        found = formcheck.form_schema(game, kind)
        if found is not None:
            out.append({"kind": kind, "label": f"orders/{game}/{kind}.toml",
                        "table": _table_json(found)})
    return out


def _table_json(t: Any) -> dict[str, Any]:
    """A :class:`pbem.core.formcheck.Table` as the page reads it."""
    return {"array": t.array,
            "keys": {k: {"types": sorted(v.types), "items": sorted(v.items)}
                     for k, v in t.keys.items()},
            "tables": {k: _table_json(sub) for k, sub in t.tables.items()}}


def _orders_address(gm: Campaign) -> str:
    """Where orders are mailed (``[mail] reply_to``, else ``from``, as a bare address): the
    GM's site names it for the desk's mail button; a site without mail settings does not."""
    from email.headerregistry import Address

    from pbem.channels import mail
    from pbem.core.errors import PbemError

    try:
        settings = mail.mail_settings(gm)
    except PbemError:
        return ""
    text = mail.parse_address(settings.reply_to, "reply_to") if settings.reply_to \
        else settings.sender
    address = mail.POLICY.header_factory("To", text).addresses[0]
    return str(Address(username=address.username, domain=address.domain).addr_spec)


def render(public: Campaign | None, gm: Campaign | None = None) -> bytes:
    """The page, self-contained: style, data and scripts inline, nothing to fetch."""
    from pbem.channels.site import _environment

    data = facts(public, gm)
    folder = share_dir("templates") / "_desk"
    scripts = [(folder / name).read_text(encoding="utf-8") for name in SCRIPTS]
    for name, text in zip(SCRIPTS, scripts, strict=True):
        if "</script" in text.lower():
            raise ValueError(f"{name} holds '</script': it cannot be inlined")
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(f"\n{s}\n".encode()).digest()).decode()
        + "'" for s in scripts)
    # JSON inside <script>: "<" escaped so that no text of it can close the element.
    blob = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    site = {"campaign": data["campaign"] or "", "title": data["title"],
            "records": data["records"], "phase": data["phase"]["id"] if data["phase"] else ""}
    page = _environment().get_template("_desk/desk.html.j2").render(
        site=site, data=Markup(blob), scripts=[Markup(s) for s in scripts],
        css=Markup((folder / "desk.css").read_text(encoding="utf-8")),
        script_hashes=Markup(hashes))
    return page.encode("utf-8")

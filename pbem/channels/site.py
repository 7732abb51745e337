"""``pbem site``: a campaign's public web site, static files built from the public part only.

Anyone must be able to trust the site without trusting its host, so the site is itself a
public copy of the campaign: ``campaign.toml``, ``allowed_signers`` and every signed ledger
record are copied beside the pages, and ``pbem audit`` runs on the site's folder as on any
exported copy. The pages are rendered from those copied files, never from the campaign
directory, and the audit status on the index is the public audit of exactly the files served.

The one thing taken from the GM's private part is each record's public gazette (with its
board picture): it is drawn from the state, which only the GM holds, and it is public by
construction (:func:`pbem.core.report.render` with no player renders only the public view).
A site built from an exported copy has no state to draw from, so its record pages show what
the ledger holds (events, dice, commitments, orders) without gazette and board.

Output is deterministic (same campaign, same bytes: nothing dated, everything sorted), uses
relative links only (works from ``file://`` and any static host), has no scripts and loads
nothing from elsewhere. Rebuilding into the same folder rewrites only what changed.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import tomli_w
from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from pbem.core import ledger
from pbem.core.campaign import Campaign, open_campaign
from pbem.core.errors import CampaignError, PbemError, UsageError
from pbem.core.fsutil import atomic_write
from pbem.core.resources import share_dir
from pbem.core.ruleset import JOIN_PHASE

SITE_FORMAT = "pbem-site/1"
#: The site's manifest: marks a folder as a pbem site and lists the files pbem wrote there
#: (only those are ever replaced or removed; a host's own files such as CNAME stay).
MANIFEST = "pbem-site.toml"
PUBLIC_FILES = ("campaign.toml", "campaign.toml.sig", "allowed_signers")
#: The only names a manifest may list: a damaged manifest can never make pbem delete
#: anything else.
_OURS = re.compile(r"index\.html|campaign\.toml(\.sig)?|allowed_signers"
                   r"|ledger/[0-9]{6}\.toml(\.sig)?|records/[0-9]{6}\.html")
_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S | re.I)
_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S | re.I)

Gazette = Callable[[int], str]


@dataclass(frozen=True)
class AuditStatus:
    """The public audit of the site's own files: what any visitor can re-run."""

    passed: bool
    message: str
    seq: int | None = None  # the record the first failure is in


@dataclass(frozen=True)
class SiteResult:
    out: Path
    records: int
    written: int  # files created or changed
    unchanged: int
    removed: int
    audit: AuditStatus
    gazette: bool  # the record pages embed the gazette and its board picture
    gazette_note: str  # why not, when they do not


@dataclass(frozen=True)
class GazetteParts:
    """A standalone HTML gazette cut into what a site page embeds: its styles and its body."""

    styles: tuple[str, ...]
    body: str


def gazette_parts(html: str) -> GazetteParts:
    """The ``<style>`` blocks of the head and the inside of ``<body>`` (all of it when the
    text is a fragment): the site page supplies its own head, navigation and frame."""
    match = _BODY.search(html)
    if match is None:
        return GazetteParts(tuple(_STYLE.findall(html)), _STYLE.sub("", html))
    return GazetteParts(tuple(_STYLE.findall(html[:match.start()])), match.group(1))


def page_name(seq: int) -> str:
    return f"records/{seq:06d}.html"


@cache
def _environment() -> SandboxedEnvironment:
    # A separate environment from the reports': this one escapes everything it inserts.
    from jinja2 import FileSystemLoader

    return SandboxedEnvironment(loader=FileSystemLoader(str(share_dir("templates"))),
                                undefined=StrictUndefined, autoescape=True,
                                keep_trailing_newline=True, trim_blocks=True,
                                lstrip_blocks=True)


def _render(name: str, **ctx: Any) -> bytes:
    return _environment().get_template(f"_site/{name}").render(**ctx).encode("utf-8")


# --- the output folder ------------------------------------------------------------------


def _previous_files(out: Path, campaign: Campaign) -> set[str]:
    """What an earlier build wrote in ``out``; refuses a folder that is not this campaign's
    site (only a new folder, an empty one, or one holding only dot files such as ``.git``)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} is a file; give a directory for the site")
    if not out.exists():
        return set()
    manifest = out / MANIFEST
    if not manifest.is_file():
        others = sorted(n for n in os.listdir(out) if not n.startswith("."))
        if others:
            raise UsageError(f"{out} is not empty ({', '.join(others[:3])}"
                             f"{', ...' if len(others) > 3 else ''}) and is not a pbem site "
                             f"(no {MANIFEST}); give a new or empty directory")
        return set()
    if (out / "gm").exists():
        raise CampaignError(f"{out} holds a gm/ folder: a site never does; give a new "
                            "directory (and keep gm/ private)")
    try:
        data = tomllib.loads(manifest.read_text())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CampaignError(f"{manifest} is damaged ({exc}); delete {out} and build the site "
                            "again") from None
    if data.get("format") != SITE_FORMAT:
        raise CampaignError(f"{manifest}: format is {data.get('format')!r}, expected "
                            f"{SITE_FORMAT!r}")
    if data.get("campaign_sha256") != ledger.file_hash(campaign.campaign_bytes):
        raise UsageError(f"{out} holds the site of another campaign "
                         f"({data.get('campaign')!r}); give a new directory, or delete it first")
    files = data.get("files", [])
    return {f for f in files if isinstance(f, str) and _OURS.fullmatch(f)}


class _Writer:
    """Writes site files, leaving identical ones untouched (their dates stay, so a sync to a
    static host sends only what changed)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.written = 0
        self.unchanged = 0

    def put(self, name: str, data: bytes) -> None:
        path = self.out / name
        try:
            same = path.read_bytes() == data
        except FileNotFoundError:
            same = False
        if same:
            self.unchanged += 1
        else:
            # A site can always be built again: atomic (readers never see half a page) but
            # without fsync.
            atomic_write(path, data, 0o644, durable=False)
            self.written += 1

    def manifest(self, campaign: Campaign, files: list[str]) -> None:
        data = {"format": SITE_FORMAT, "campaign": campaign.id,
                "campaign_sha256": ledger.file_hash(campaign.campaign_bytes),
                "files": sorted(files)}
        atomic_write(self.out / MANIFEST, tomli_w.dumps(data).encode(), 0o644, durable=False)


# --- the audit ----------------------------------------------------------------------------


def audit_status(public: Campaign) -> AuditStatus:
    """Run the public audit on the site's copy; the message carries no date, so the same
    campaign gives the same page."""
    from pbem.core import audit

    try:
        result = audit.audit(public)
    except PbemError as exc:
        return AuditStatus(False, str(exc), getattr(exc, "seq", None))
    checked = (f"{result.records} records: GM signatures, the hash chain, the seed chain, "
               "the entropy mix, every public draw and every published order file check")
    if result.replayed:
        return AuditStatus(True, f"{checked}; every phase re-adjudicated from the revealed "
                           "orders gives the same record bytes.")
    return AuditStatus(True, f"public checks only: {checked}. "
                       + " ".join(n[0].upper() + n[1:] + "." for n in result.notes))


# --- the pages ----------------------------------------------------------------------------


def _event_text(event: Any) -> str:
    if isinstance(event, dict) and isinstance(event.get("text"), str):
        return str(event["text"])
    return json.dumps(event, sort_keys=True, ensure_ascii=False)


def _record_context(seq: int, record: dict[str, Any], data: bytes, total: int,
                    has_sig: bool) -> dict[str, Any]:
    nmr = list(record.get("nmr", []))
    commitments = [{"player": p, "commitment": c, "nmr": p in nmr}
                   for p, c in sorted(record.get("commitments", {}).items())]
    sealed = record.get("sealed", {})
    name = ledger.record_name(seq)
    return {
        "seq": seq, "phase": record.get("phase", ""), "hash": ledger.file_hash(data),
        "prev": record.get("prev", ""), "seed": record.get("seed", ""),
        "mix": record.get("mix", ""), "state_hash": record.get("state_hash", ""),
        "next_phase": record.get("next_phase", ""), "game_over": bool(record.get("game_over")),
        "nmr": nmr, "commitments": commitments,
        "events": [_event_text(e) for e in record.get("events", [])],
        "draws": record.get("draws", []),
        "sealed_count": sealed.get("count", 0), "sealed_digest": sealed.get("digest", ""),
        "orders": sorted(record.get("orders", {}).items()),
        "revealed": sorted(record.get("revealed", []),
                           key=lambda r: (r.get("seq", 0), r.get("player", ""))),
        "sealed_head": record.get("sealed_head", ""),
        "sealed_draws": record.get("sealed_draws", []),
        "raw": f"../ledger/{name}", "sig": f"../ledger/{name}.sig" if has_sig else "",
        "prev_page": f"{seq - 1:06d}.html" if seq > 1 else "",
        "next_page": f"{seq + 1:06d}.html" if seq < total else "",
    }


def _gazette_renderer(campaign: Campaign, wanted: bool) -> tuple[Gazette | None, str]:
    """The gazette of a record as standalone HTML, when this copy and this pbem can make it."""
    from pbem.core import report

    if not wanted or not campaign.is_gm:
        # One wording for both: the GM's --public-only site is byte for byte an export's.
        return None, ("this site was built from the public files of the campaign only, and "
                      "the gazette and its board picture are drawn from the game state, "
                      "which only the GM's copy holds")
    if "html" not in report.FORMATS:
        return None, "this installation of pbem cannot render HTML gazettes yet"

    def render(seq: int) -> str:
        return report.render(campaign, seq, None, "html")

    return render, ""


def build(campaign: Campaign, out: Path, *, gazette: bool = True) -> SiteResult:
    """Write the public site of ``campaign`` into ``out`` (new, empty, or an earlier build of
    this campaign's site). ``gazette=False`` leaves out the gazettes even on the GM's copy,
    which then gives the very bytes an exported copy gives."""
    previous = _previous_files(out, campaign)
    total = ledger.count(campaign.ledger_dir)
    src = campaign.root
    public_names = [n for n in PUBLIC_FILES if (src / n).is_file()]
    ledger_names: list[str] = []
    for k in range(1, total + 1):
        name = f"ledger/{ledger.record_name(k)}"
        ledger_names += [name] + ([f"{name}.sig"] if (src / f"{name}.sig").is_file() else [])
    signed = set(ledger_names)
    planned = [*public_names, *ledger_names, *(page_name(k) for k in range(1, total + 1)),
               "index.html"]
    out.mkdir(parents=True, exist_ok=True)
    writer = _Writer(out)
    # The manifest goes first (listing old and new), so an interrupted build leaves a folder
    # that the next build recognises and finishes.
    writer.manifest(campaign, sorted(previous | set(planned)))

    # 1. The public files, copied byte for byte: the site is a public copy of the campaign.
    for name in public_names + ledger_names:
        writer.put(name, (src / name).read_bytes())
    for name in sorted(previous - set(planned)):
        (out / name).unlink(missing_ok=True)
    # 2. From here on only the copy in ``out`` is read (and, for gazettes, report.render).
    public = open_campaign(out, lambda _: campaign.ruleset)
    status = audit_status(public)
    render_gazette, note = _gazette_renderer(campaign, gazette)
    site = {"campaign": public.id, "title": public.ruleset.title, "game": public.ruleset.name,
            "players": list(public.players)}
    rows = []
    head_hash, last = ledger.file_hash(public.campaign_bytes), {}
    for k, data in ledger.iter_records(public.ledger_dir):
        if k > total:
            break
        name = ledger.record_name(k)
        parts = gazette_parts(render_gazette(k)) if render_gazette else None
        try:
            record = ledger.load(data, name)
            rec = _record_context(k, record, data, total, f"ledger/{name}.sig" in signed)
            page = _render("record.html.j2", site=site, rec=rec, audit=status, note=note,
                           gazette_styles=[Markup(s) for s in parts.styles] if parts else [],
                           gazette=Markup(parts.body) if parts else None)
        except (CampaignError, AttributeError, KeyError, TypeError, ValueError,
                TemplateError) as exc:
            # Only a damaged record gets here (the engine writes every field); the audit
            # names the first damage.
            raise CampaignError(f"ledger/{name} is malformed ({exc}): no page for it; the "
                                f"audit says: {status.message}") from None
        writer.put(page_name(k), page)
        rows.append({"seq": k, "page": page_name(k), "phase": rec["phase"],
                     "acting": [c["player"] for c in rec["commitments"]], "nmr": rec["nmr"],
                     "events": len(rec["events"]), "draws": len(rec["draws"])})
        head_hash, last = rec["hash"], record
    writer.put("index.html", _render(
        "index.html.j2", site=site, rows=rows, audit=status, note=note, total=total,
        head_hash=head_hash, options=sorted(public.options.items()), config=public.config,
        next_phase=last.get("next_phase", "") if total else JOIN_PHASE,
        game_over=bool(last.get("game_over")), has=set(public_names)))
    writer.manifest(public, planned)
    return SiteResult(out, total, writer.written, writer.unchanged,
                      len(previous - set(planned)), status, render_gazette is not None, note)

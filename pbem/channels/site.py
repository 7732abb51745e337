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

The public files are read without following a symbolic link (a hostile public copy cannot
make the site publish a file from elsewhere), and the site is built in a folder beside
``OUT`` (``.OUT.site-PID``): only a build that went through is moved into ``OUT``, so a failed
one leaves ``OUT`` as it was.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import tomli
import tomli_w
from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from pbem.channels import desk
from pbem.core import ledger
from pbem.core.campaign import Campaign, open_campaign, public_files, read_public
from pbem.core.errors import CampaignError, PbemError, UsageError
from pbem.core.fsutil import atomic_write, sweep_temp_files
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
#: The gazette's own ``<main>`` (a standalone report's landmark) and its end tag.
_MAIN = re.compile(r"<(/?)main\b", re.I)

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
    text is a fragment): the site page supplies its own head, navigation and frame.

    The site page has its own ``<main>``, and a page has one main landmark (issue 14,
    axe-core's landmark-no-duplicate-main): the gazette's ``<main>`` becomes an
    ``<article>``, its attributes (the class its styles name) kept. Every text of a report
    is escaped, so a ``<main`` in it can only be the report's own tag."""
    match = _BODY.search(html)
    if match is None:
        styles, body = tuple(_STYLE.findall(html)), _STYLE.sub("", html)
    else:
        styles, body = tuple(_STYLE.findall(html[:match.start()])), match.group(1)
    return GazetteParts(styles, _MAIN.sub(r"<\1article", body))


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
        data = tomli.loads(manifest.read_text())
    except (UnicodeDecodeError, tomli.TOMLDecodeError) as exc:
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
    """Writes the site into the staging folder, noting which files differ from ``out``'s
    (identical ones stay untouched in ``out``: their dates stay, so a sync to a static host
    sends only what changed)."""

    def __init__(self, stage: Path, out: Path) -> None:
        self.stage = stage
        self.out = out
        self.changed: list[str] = []
        self.unchanged = 0

    @property
    def written(self) -> int:
        return len(self.changed)

    def put(self, name: str, data: bytes) -> None:
        # A site can always be built again: atomic (readers never see half a page) but
        # without fsync.
        atomic_write(self.stage / name, data, 0o644, durable=False)
        path = self.out / name
        try:
            same = not path.is_symlink() and path.read_bytes() == data
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            same = False
        if same:
            self.unchanged += 1
        else:
            self.changed.append(name)

    def manifest(self, campaign: Campaign, files: list[str], folder: Path) -> None:
        data = {"format": SITE_FORMAT, "campaign": campaign.id,
                "campaign_sha256": ledger.file_hash(campaign.campaign_bytes),
                "files": sorted(files)}
        atomic_write(folder / MANIFEST, tomli_w.dumps(data).encode(), 0o644, durable=False,
                     make_parents=False)


def _output_folder(out: Path) -> Path:
    """``out`` as the folder to write: a link to a folder is followed once, here (the user
    named it); its parent must exist; inside it, ``ledger`` and ``records`` must be real
    folders, never links that would lead writes and removals elsewhere."""
    if out.is_symlink():
        if not out.is_dir():
            raise UsageError(f"{out} is a symbolic link to no folder; give a directory")
        out = Path(os.path.realpath(out))
    parent = out.absolute().parent
    if not parent.is_dir():
        raise UsageError(f"{parent} is not an existing folder; create it first (pbem does "
                         "not create folders it was not asked for)")
    for sub in ("ledger", "records"):
        path = out / sub
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            raise UsageError(f"{path} is not a folder of the site (a link or a file); pbem "
                             "writes into no link: remove it, or give a new directory")
    return out


def _sweep_stages(out: Path) -> None:
    """Staging folders of builds that were killed (their PID is gone)."""
    parent = out.absolute().parent
    prefix = f".{out.name}.site-"
    for entry in os.scandir(parent):
        if entry.name.startswith(prefix) and entry.is_dir(follow_symlinks=False):
            pid = entry.name[len(prefix):]
            if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
                shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _commit(writer: _Writer, public: Campaign, out: Path, previous: set[str],
            planned: list[str]) -> int:
    """Move the staged build into ``out``; how many old files were removed."""
    stage = writer.stage
    if not out.exists():
        writer.manifest(public, planned, stage)
        os.rename(stage, out)
        return 0
    # The manifest goes first (listing old and new), so an interrupted move leaves a folder
    # that the next build recognises and finishes.
    writer.manifest(public, sorted(previous | set(planned)), out)
    for name in writer.changed:
        if "/" in name:
            (out / name).parent.mkdir(exist_ok=True)
        os.replace(stage / name, out / name)
    removed = sorted(previous - set(planned))
    for name in removed:
        (out / name).unlink(missing_ok=True)
    writer.manifest(public, planned, out)
    sweep_temp_files(out)
    return len(removed)


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
    out = _output_folder(out)
    previous = _previous_files(out, campaign)
    src = campaign.root
    # Every public file is read before anything is written, never through a link.
    names = public_files(src)
    data = {name: read_public(src, name) for name in names}
    public_names = [n for n in names if "/" not in n]
    ledger_names = [n for n in names if n.startswith("ledger/")]
    total = len([n for n in ledger_names if n.endswith(".toml")])
    signed = set(ledger_names)
    planned = [*public_names, *ledger_names, *(page_name(k) for k in range(1, total + 1)),
               "index.html", desk.NAME]
    _sweep_stages(out)
    stage = out.absolute().with_name(f".{out.name}.site-{os.getpid()}")
    if stage.exists():
        shutil.rmtree(stage)
    try:
        stage.mkdir()
        writer = _Writer(stage, out)
        result = _build_in(campaign, stage, writer, data, public_names, ledger_names, signed,
                           total, gazette)
        removed = _commit(writer, result[0], out, previous, planned)
    finally:
        if stage.exists():
            shutil.rmtree(stage)
    _, status, rendered, note = result
    return SiteResult(out, total, writer.written, writer.unchanged, removed, status,
                      rendered, note)


def _build_in(campaign: Campaign, stage: Path, writer: _Writer, data: dict[str, bytes],
              public_names: list[str], ledger_names: list[str], signed: set[str], total: int,
              gazette: bool) -> tuple[Campaign, AuditStatus, bool, str]:
    # 1. The public files, copied byte for byte: the site is a public copy of the campaign.
    for name in public_names + ledger_names:
        writer.put(name, data[name])
    # 2. From here on only the copy in the staging folder is read (and, for gazettes,
    # report.render).
    public = open_campaign(stage, lambda _: campaign.ruleset)
    status = audit_status(public)
    render_gazette, note = _gazette_renderer(campaign, gazette)
    site = {"campaign": public.id, "title": public.ruleset.title, "game": public.ruleset.name,
            "players": list(public.players)}
    rows = []
    head_hash, last = ledger.file_hash(public.campaign_bytes), {}
    for k, record_bytes in ledger.iter_records(public.ledger_dir):
        if k > total:
            break
        name = ledger.record_name(k)
        parts = gazette_parts(render_gazette(k)) if render_gazette else None
        try:
            record = ledger.load(record_bytes, name)
            rec = _record_context(k, record, record_bytes, total,
                                  f"ledger/{name}.sig" in signed)
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
    # The order desk: the GM's copy also tells it who acts in the open phase.
    writer.put(desk.NAME, desk.render(public, campaign if gazette and campaign.is_gm else None))
    return public, status, render_gazette is not None, note

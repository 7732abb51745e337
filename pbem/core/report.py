"""Per-player reports and the public gazette, rendered only from what the reader may see.

The context of a report is built from the ledger record (public), the rules' ``view`` of the
state for that player, and that player's own private events: nothing else of the state ever
reaches a template, so a template slip cannot leak another player's secrets.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from jinja2 import Environment, StrictUndefined, Template, nodes, select_autoescape
from jinja2.bccache import BytecodeCache
from jinja2.ext import Extension
from jinja2.parser import Parser
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from pbem.core import deadlines, engine, escape, ledger, wrapping
from pbem.core.campaign import Campaign
from pbem.core.errors import CampaignError, UsageError
from pbem.core.forms import render_form
from pbem.core.fsutil import atomic_write
from pbem.core.resources import cache_dir, share_dir
from pbem.core.ruleset import PhaseSpec, Ruleset

#: txt: plain mail body (78 columns); md: forum Markdown; bbcode: phpBB; html: one standalone
#: page with inline CSS and an SVG board. docs/reports.md says what each shows.
FORMATS = ("txt", "md", "bbcode", "html")
Fresh = Callable[[str], str]


def _fresh(_: str) -> str:
    return secrets.token_hex(32)


@cache
def _environment() -> SandboxedEnvironment:
    # One environment per process: Jinja caches compiled templates per environment. The
    # templates ship with pbem and do not change while it runs, so no reload checks.
    # ``*.html.j2`` templates escape everything they insert; the others are plain text.
    from jinja2 import FileSystemLoader

    env = SandboxedEnvironment(loader=FileSystemLoader(str(share_dir("templates"))),
                               bytecode_cache=_compiled_templates(),
                               undefined=StrictUndefined, keep_trailing_newline=True,
                               trim_blocks=True, lstrip_blocks=True, auto_reload=False,
                               autoescape=select_autoescape(enabled_extensions=("html.j2",),
                                                            default_for_string=False,
                                                            default=False),
                               finalize=_finalize, extensions=[_PublicPart])
    # One escaping function per format, all in pbem.core.escape (docs/reports.md, section 1).
    env.filters.update(wrap=wrap, md=escape.markdown, mdcode=escape.markdown_code_span,
                       mdblock=escape.markdown_code_block, bb=escape.bbcode)
    return env


def _compiled_templates() -> BytecodeCache | None:
    """Jinja's cache of compiled templates in the user's cache folder (``templates/``; see
    :func:`pbem.core.resources.cache_dir`): a command that renders a report loads its template
    compiled instead of compiling it again (tens of ms for a game's templates). Jinja keys an
    entry by the template's name and checks it against the checksum of its source (an edited
    template is compiled anew) and Jinja's and Python's versions; the file names here carry a
    digest of this module, whose environment settings and extension shape the compiled code
    too, so a pbem that compiles them otherwise never loads another's."""
    from jinja2 import FileSystemBytecodeCache

    folder = cache_dir("templates")
    if folder is None:
        return None
    with open(__file__, "rb") as f:
        settings = hashlib.sha256(f.read()).hexdigest()[:16]
    return FileSystemBytecodeCache(str(folder), f"{settings}-%s.cache")


@cache
def _template(game: str, fmt: str) -> Template:
    """The game's own template for ``fmt``, or the shared one under ``_base/``."""
    env = _environment()
    template = env.select_template([f"{game}/report.{fmt}.j2", f"_base/report.{fmt}.j2"])
    # Found in its source, not as the tags are parsed: a template loaded compiled
    # (_compiled_templates) is not parsed in this process.
    if template.name and env.loader is not None and re.search(
            _PUBLIC_TAG, env.loader.get_source(env, template.name)[0]):
        _WITH_PARTS.add(template.name)
    return template


def preload(game: str) -> None:
    """Compile the game's templates now (before forking workers that render reports)."""
    for fmt in FORMATS:
        _template(game, fmt)


@lru_cache(maxsize=4096)
def wrap(text: str, first: str = "", rest: str = "  ", width: int = 78) -> str:
    """Template filter: ``text`` wrapped within ``width`` columns (plain-text mail), the first
    line starting with ``first`` and the others with ``rest``."""
    return "\n".join(wrapping.wrap(str(text), width, first, rest,
                                     break_on_hyphens=False)) or first


def _finalize(value: Any) -> Any:
    """Every ``{{ ... }}`` of every report template goes through this last (after its
    filters, before autoescape in HTML): characters that would change how the text around
    them is displayed (bidi overrides, zero-width and other invisible characters, line
    separators, controls) become U+FFFD, whatever the text's source (escape.shown)."""
    if type(value) is str:  # the common case, first (issue 20: ~200 per report)
        return escape.shown(value)
    if isinstance(value, str) and not isinstance(value, Markup):
        return escape.shown(value)
    return value


#: The context variable through which :class:`_PublicPart` finds the record's shared parts.
_SHARED = "pbem_public_parts"


class _PublicPart(Extension):
    """``{% public "name" %}...{% endpublic %}``: a part of a report that shows only what
    every reader of the record sees (the record's public events, its dice, the board by
    Area): rendered once per record, in the gazette's context, and the same text put in
    every player's report of that record (:func:`render` with ``loaded``).

    Only the gazette fills these parts, so a player's report never receives text rendered
    from another player's view. The template must make the part the same for a player as for
    the gazette (``docs/reports.md``); a part that the gazette did not render (inside
    ``{% if player %}``), and every part of a report rendered alone, is rendered in place."""

    tags = {"public"}  # noqa: RUF012 (jinja2.ext.Extension reads it from the class)

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        environment.filters.update(pbem_public_found=_public_found,
                                   pbem_public_text=_public_text,
                                   pbem_public_keep=_public_keep)

    def parse(self, parser: Parser) -> nodes.Node:
        # {% if shared|pbem_public_found(name) %}{% filter pbem_public_text(shared, name) %}
        # {% endfilter %}{% else %}{% filter pbem_public_keep(shared, name) %}...body...
        # {% endfilter %}{% endif %}: filters, not a call block, so that a reader whose part
        # is ready pays neither a macro nor the sandbox's checks of a call.
        lineno = next(parser.stream).lineno
        name = parser.parse_expression()
        body = parser.parse_statements(("name:endpublic",), drop_needle=True)

        def shared() -> nodes.Name:
            return nodes.Name(_SHARED, "load")

        def filtered(what: str, node: nodes.Expr | None, *args: nodes.Expr) -> nodes.Filter:
            return nodes.Filter(node, what, list(args), [], None, None)

        found = filtered("pbem_public_found", shared(), name)
        ready = nodes.FilterBlock([], filtered("pbem_public_text", None, shared(), name))
        fresh = nodes.FilterBlock(body, filtered("pbem_public_keep", None, shared(), name))
        return nodes.If(found, [ready], [], [fresh]).set_lineno(lineno)


#: The templates that have public parts (their own, not their parents'; :func:`_template`):
#: only their records' gazettes are rendered ahead of the players' reports.
_WITH_PARTS: set[str] = set()
#: A ``{% public %}`` tag in a template's source.
_PUBLIC_TAG = r"\{%[-+]?\s*public\b"


class _Shared:
    """The public parts of one record's reports in one format (see :class:`_PublicPart`),
    and the gazette they were rendered in."""

    def __init__(self) -> None:
        self.parts: dict[str, str] = {}
        self.filling = True
        self.gazette = ""


def _public_found(shared: Any, name: str) -> bool:
    return isinstance(shared, _Shared) and not shared.filling and name in shared.parts


def _public_text(_: str, shared: _Shared, name: str) -> str:
    return shared.parts[name]


def _public_keep(text: str, shared: Any, name: str) -> str:
    if isinstance(shared, _Shared) and shared.filling:  # the gazette's, and only it
        shared.parts[name] = text
    return text


class _Record:
    """What the reports of the record being rendered share beyond :class:`Loaded`: per
    format its :class:`_Shared`, and the order desk's address."""

    def __init__(self, loaded: Loaded, campaign: Campaign, seq: int) -> None:
        self.loaded, self.campaign, self.seq = loaded, campaign, seq
        self.formats: dict[str, _Shared] = {}
        self.desk: str | None = None


#: The record whose reports are being rendered. One record at a time: every caller renders
#: all the readers of a record before the next record.
_current: _Record | None = None


def _record(campaign: Campaign, seq: int, loaded: Loaded) -> _Record:
    global _current
    if _current is None or _current.loaded is not loaded or _current.campaign is not campaign \
            or _current.seq != seq:
        _current = _Record(loaded, campaign, seq)
    return _current


def _shared(campaign: Campaign, seq: int, fmt: str, template: Template, fresh: Fresh,
            loaded: Loaded) -> _Shared:
    """The public parts of record ``seq``'s reports in ``fmt``, rendered with its gazette
    the first time a reader of that record asks for them."""
    formats = _record(campaign, seq, loaded).formats
    shared = formats.get(fmt)
    if shared is None:
        shared = _Shared()
        shared.gazette = _render(campaign, seq, None, fmt, template, fresh, loaded, shared)
        shared.filling = False
        formats[fmt] = shared
    return shared


def _desk_url(campaign: Campaign, seq: int, loaded: Loaded | None) -> str:
    """The GM's order desk (pbem mail-settings --desk), read once per record."""
    if loaded is None:
        return str(campaign.settings().get("mail", {}).get("desk", ""))
    record = _record(campaign, seq, loaded)
    if record.desk is None:
        record.desk = str(campaign.settings().get("mail", {}).get("desk", ""))
    return record.desk


@dataclass(frozen=True)
class Loaded:
    """What every report of one record shares, read and computed once for all its readers:
    the ledger record (with its file hash), the GM's state, each player's private events,
    how long the ledger was, the phase the record opens, that phase's deadline and the
    game's public report context (:meth:`Ruleset.report_public`)."""

    record: dict[str, Any]
    state: Any
    private: dict[str, Any]
    last: int
    next_phase: PhaseSpec | None
    deadline: str
    public_game: dict[str, Any]


def load(campaign: Campaign, seq: int, *, as_latest: bool = False) -> Loaded:
    """Read record ``seq`` for its reports (see :class:`Loaded`).

    ``as_latest``: as they were when ``seq`` was the last record (with the order form of the
    phase it opened), even if later records exist; ``pbem demo`` renders reports on another
    core while the game goes on."""
    last = ledger.count(campaign.ledger_dir)
    if as_latest and seq <= last:
        last = seq
    if not 1 <= seq <= last:
        raise UsageError(f"record {seq} does not exist (the ledger has {last})")
    data = (campaign.ledger_dir / ledger.record_name(seq)).read_bytes()
    record = ledger.load(data)
    record["_hash"] = ledger.file_hash(data)
    state = engine.load_state(campaign, seq, shared=True)  # views and reports only read it
    if state is None:
        raise CampaignError(f"no state for record {seq}")
    nxt = campaign.ruleset.next_phase(state)
    deadline = deadlines.deadline_text(campaign, nxt.id) if nxt and campaign.is_gm else ""
    ruleset = campaign.ruleset
    return Loaded(record, state, engine.load_private(campaign, seq)["private"], last, nxt,
                  deadline, ruleset.report_public(ruleset.view(state, None)))


def context(campaign: Campaign, seq: int, player: str | None,
            fresh: Fresh = _fresh, loaded: Loaded | None = None) -> dict[str, Any]:
    """Everything a report of record ``seq`` shows to ``player`` (``None``: the gazette).

    ``loaded`` is :func:`load` of this record when the caller already read it."""
    loaded_arg = loaded
    if loaded is None:
        loaded = load(campaign, seq)
    if player is not None and player not in campaign.players:
        raise UsageError(f"{player!r} is not a player of {campaign.id}")
    record, state, nxt = loaded.record, loaded.state, loaded.next_phase
    ruleset = campaign.ruleset
    view = ruleset.view(state, player)
    private = loaded.private.get(player, []) if player else []
    form = ""
    if player is not None and nxt is not None and player in nxt.actors and seq == loaded.last:
        form = render_form(campaign.id, player, nxt, ruleset.order_form(view, nxt, player),
                           fresh("salt"), fresh("entropy"), campaign.envelope_hash)
    return {
        "campaign": campaign.id, "game_title": ruleset.title, "seq": seq, "player": player,
        "phase": record["phase"], "events": worded(ruleset, view, record.get("events", [])),
        "private": worded(ruleset, view, private),
        **dice_listing(record.get("draws", []), ruleset.die_face),
        "sealed_count": record.get("sealed", {}).get("count", 0),
        "commitments": record.get("commitments", {}), "nmr": record.get("nmr", []),
        "key_changes": key_changes(record),
        # The GM's order desk (pbem mail-settings --desk): named above a player's form.
        "desk_url": _desk_url(campaign, seq, loaded_arg) if form else "",
        "own_commitment": record.get("commitments", {}).get(player or "", ""),
        "record_hash": record["_hash"],
        "view": view,
        "game": {**loaded.public_game, **ruleset.report_context(view, player)},
        "next_phase": nxt, "deadline": loaded.deadline, "form": form,
        "result": ruleset.result(state),
    }


def key_changes(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's ``[[key_changes]]`` as reports name them: whose key, the old and new
    fingerprints, the GM's reason, and the first record the new key signs."""
    if not record.get("key_changes"):
        return []
    from pbem.core import sshsig
    from pbem.core.keys import parse_public_key

    return [{"player": c["principal"], "old": sshsig.fingerprint(parse_public_key(c["old"])),
             "new": sshsig.fingerprint(parse_public_key(c["new"])), "reason": c["reason"],
             "from": record["seq"] + 1} for c in record.get("key_changes", [])]


def worded(ruleset: Ruleset, view: dict[str, Any], events: list[Any]) -> list[Any]:
    """``events`` with each ``text`` as the game words it for this reader
    (:meth:`Ruleset.event_text`); the other fields, and the ledger, unchanged."""
    text = ruleset.event_text
    return [{**e, "text": text(view, e)} if isinstance(e, dict) and "text" in e else e
            for e in events]


#: A record with more public draws than this lists them by kind, one line each (the first
#: Mythology record has some 160 setup draws); the ledger, ``pbem audit --explain`` and the
#: site's record page list every one.
MAX_LISTED_DRAWS = 16


def dice_listing(draws: list[dict[str, Any]],
                 face: Callable[[str, int], str | None] | None = None) -> dict[str, Any]:
    """``draws`` (each listed) and ``dice_summary`` (one line per kind of draw) for a report.

    Up to :data:`MAX_LISTED_DRAWS` draws are listed one by one and the summary is empty.
    Beyond, no draw is listed and each run of draws of one kind (the label without its last
    part: ``setup/gods/9`` is of kind ``setup/gods``) is one line: how many, their numbers,
    and their values when there are at most eight. ``face`` (:meth:`Ruleset.die_face`)
    gives what a draw shows on the table when that is not its number (issue 14): a listed
    draw then carries it as ``face`` and a summary value reads ``5 (rolled 2)``."""

    def shown(d: dict[str, Any]) -> str | None:
        return face(str(d.get("label", "")), int(d["value"])) if face is not None else None

    if len(draws) <= MAX_LISTED_DRAWS:
        if face is not None:
            draws = [{**d, "face": shown(d)} for d in draws]
        return {"draws": draws, "dice_summary": [], "draw_count": len(draws)}
    runs: list[list[Any]] = []
    for d in draws:
        label = str(d.get("label", ""))
        kind = label.rsplit("/", 1)[0] if "/" in label else label
        if runs and runs[-1][0] == kind:
            runs[-1][1].append(d)
        else:
            runs.append([kind, [d]])
    lines = []
    for kind, run in runs:
        span = f"#{run[0]['i']}" if len(run) == 1 else f"#{run[0]['i']}-#{run[-1]['i']}"
        values = (": " + ", ".join(str(d["value"]) + (f" (rolled {f})" if (f := shown(d))
                                                      is not None else "")
                                   for d in run)) if len(run) <= 8 else ""
        count = "1 draw" if len(run) == 1 else f"{len(run)} draws"
        lines.append(f"{kind}, {count} ({span}){values}")
    return {"draws": [], "dice_summary": lines, "draw_count": len(draws)}


def _position(view: dict[str, Any]) -> list[str]:
    """The view, one line per entry, values as compact JSON (games' own templates lay it out
    properly; this is the generic fallback)."""
    return [f"{key}: {json.dumps(value, sort_keys=True, ensure_ascii=False)}"
            for key, value in view.items()]


def render(campaign: Campaign, seq: int, player: str | None, fmt: str = "txt",
           fresh: Fresh = _fresh, loaded: Loaded | None = None) -> str:
    """The report of record ``seq`` for ``player`` (``None``: the public gazette) in ``fmt``,
    one of :data:`FORMATS`. ``fresh`` makes the form's salt and entropy; ``loaded`` is
    :func:`load` of the record when the caller already read it (see :func:`context`)."""
    if fmt not in FORMATS:
        raise UsageError(f"format {fmt!r} is not available; choose {', '.join(FORMATS)}")
    template = _template(campaign.ruleset.name, fmt)
    if loaded is None or template.name not in _WITH_PARTS:
        return _render(campaign, seq, player, fmt, template, fresh, loaded, None)
    # Every reader of the record: the parts all of them see are rendered once (issue 20).
    shared = _shared(campaign, seq, fmt, template, fresh, loaded)
    if player is None:
        return shared.gazette
    return _render(campaign, seq, player, fmt, template, fresh, loaded, shared)


def _render(campaign: Campaign, seq: int, player: str | None, fmt: str, template: Template,
            fresh: Fresh, loaded: Loaded | None, shared: _Shared | None) -> str:
    ctx = context(campaign, seq, player, fresh, loaded)
    if (template.name or "").startswith("_base/"):
        ctx["position"] = _position(ctx["view"])  # only the generic template lists it
    # The picture is drawn from the view alone (Ruleset.board_svg); its builder escapes
    # every text it inserts, so the template takes it as markup.
    ctx["board"] = Markup(campaign.ruleset.board_svg(ctx["view"], player)) if fmt == "html" \
        else ""
    ctx[_SHARED] = shared
    return template.render(ctx)


def write_reports(campaign: Campaign, seq: int) -> None:
    """Each player's report and the gazette of record ``seq``, kept under ``gm/``."""
    out = engine.record_dir(campaign, seq) / "reports"
    loaded = load(campaign, seq)
    for player in (*campaign.players, None):
        text = render(campaign, seq, player, loaded=loaded)
        # Reports can always be rendered again (pbem report): no fsync for them.
        atomic_write(out / f"{player or 'gazette'}.txt", text.encode(), 0o600, durable=False)

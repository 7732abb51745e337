"""Per-player reports and the public gazette, rendered only from what the reader may see.

The context of a report is built from the ledger record (public), the rules' ``view`` of the
state for that player, and that player's own private events: nothing else of the state ever
reaches a template, so a template slip cannot leak another player's secrets.
"""

from __future__ import annotations

import json
import secrets
import textwrap
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from pbem.core import engine, ledger
from pbem.core.campaign import Campaign
from pbem.core.errors import CampaignError, UsageError
from pbem.core.forms import render_form
from pbem.core.fsutil import atomic_write
from pbem.core.resources import share_dir

FORMATS = ("txt",)
Fresh = Callable[[str], str]


def _fresh(_: str) -> str:
    return secrets.token_hex(32)


@cache
def _environment() -> SandboxedEnvironment:
    # One environment per process: Jinja caches compiled templates per environment.
    from jinja2 import FileSystemLoader

    env = SandboxedEnvironment(loader=FileSystemLoader(str(share_dir("templates"))),
                               undefined=StrictUndefined, keep_trailing_newline=True,
                               trim_blocks=True, lstrip_blocks=True, autoescape=False)
    env.filters["wrap"] = wrap
    return env


@lru_cache(maxsize=4096)
def wrap(text: str, first: str = "", rest: str = "  ", width: int = 78) -> str:
    """Template filter: ``text`` wrapped within ``width`` columns (plain-text mail), the first
    line starting with ``first`` and the others with ``rest``."""
    return "\n".join(textwrap.wrap(str(text), width, initial_indent=first,
                                    subsequent_indent=rest, break_on_hyphens=False)) or first


def context(campaign: Campaign, seq: int, player: str | None,
            fresh: Fresh = _fresh, loaded: tuple[dict[str, Any], Any, Any] | None = None
            ) -> dict[str, Any]:
    """Everything a report of record ``seq`` shows to ``player`` (``None``: the gazette).

    ``loaded`` is (record, state, private) when the caller already read them for this record."""
    last = ledger.count(campaign.ledger_dir)
    if not 1 <= seq <= last:
        raise UsageError(f"record {seq} does not exist (the ledger has {last})")
    if player is not None and player not in campaign.players:
        raise UsageError(f"{player!r} is not a player of {campaign.id}")
    record, state, private_all = loaded or _load(campaign, seq)
    ruleset = campaign.ruleset
    view = ruleset.view(state, player)
    private = private_all.get(player, []) if player else []
    nxt = ruleset.next_phase(state)
    form = ""
    if player is not None and nxt is not None and player in nxt.actors and seq == last:
        form = render_form(campaign.id, player, nxt, ruleset.order_form(view, nxt, player),
                           fresh("salt"), fresh("entropy"))
    deadline = campaign.settings().get("deadlines", {}).get(nxt.id, "") if nxt else ""
    return {
        "campaign": campaign.id, "game_title": ruleset.title, "seq": seq, "player": player,
        "phase": record["phase"], "events": record.get("events", []), "private": private,
        "draws": record.get("draws", []), "sealed_count": record.get("sealed", {}).get("count", 0),
        "commitments": record.get("commitments", {}), "nmr": record.get("nmr", []),
        "own_commitment": record.get("commitments", {}).get(player or "", ""),
        "record_hash": record["_hash"],
        "view": view,
        "game": ruleset.report_context(view, player),
        "next_phase": nxt, "deadline": deadline, "form": form,
        "result": ruleset.result(state),
    }


def _load(campaign: Campaign, seq: int) -> tuple[dict[str, Any], Any, Any]:
    data = (campaign.ledger_dir / ledger.record_name(seq)).read_bytes()
    record = ledger.load(data)
    record["_hash"] = ledger.file_hash(data)
    state = engine.load_state(campaign, seq)
    if state is None:
        raise CampaignError(f"no state for record {seq}")
    return record, state, engine.load_private(campaign, seq)["private"]


def _position(view: dict[str, Any]) -> list[str]:
    """The view, one line per entry, values as compact JSON (games' own templates lay it out
    properly; this is the generic fallback)."""
    return [f"{key}: {json.dumps(value, sort_keys=True, ensure_ascii=False)}"
            for key, value in view.items()]


def render(campaign: Campaign, seq: int, player: str | None, fmt: str = "txt",
           fresh: Fresh = _fresh, loaded: tuple[dict[str, Any], Any, Any] | None = None) -> str:
    if fmt not in FORMATS:
        raise UsageError(f"format {fmt!r} is not available yet; choose {', '.join(FORMATS)}")
    env = _environment()
    names = [f"{campaign.ruleset.name}/report.{fmt}.j2", f"_base/report.{fmt}.j2"]
    template = env.select_template(names)
    ctx = context(campaign, seq, player, fresh, loaded)
    if (template.name or "").startswith("_base/"):
        ctx["position"] = _position(ctx["view"])  # only the generic template lists it
    return template.render(**ctx)


def write_reports(campaign: Campaign, seq: int) -> None:
    """Each player's report and the gazette of record ``seq``, kept under ``gm/``."""
    out = engine.record_dir(campaign, seq) / "reports"
    loaded = _load(campaign, seq)
    for player in (*campaign.players, None):
        text = render(campaign, seq, player, loaded=loaded)
        # Reports can always be rendered again (pbem report): no fsync for them.
        atomic_write(out / f"{player or 'gazette'}.txt", text.encode(), 0o600, durable=False)

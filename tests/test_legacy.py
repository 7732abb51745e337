"""Campaigns written by an earlier pbem stay auditable after the submit checks get stricter.

``tests/data/legacy/cyclades-4p-v1`` is ``examples/cyclades-4p`` as pbem wrote it before issue
12: in record 29 the bot dave orders a Monument he cannot claim (no blue and green
buildings), which was accepted then and skipped at resolution. Today ``validate`` refuses it
at submit with a *foreseen* problem (``Problem.foreseen``), which adjudication and the audit
tolerate, because resolution skips such an order the same way under every version of the
submit checks.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import tomli

from pbem import games
from pbem.core import audit
from pbem.core.campaign import open_campaign
from pbem.core.errors import AuditError, Problem

LEGACY = Path(__file__).resolve().parent / "data" / "legacy"


def test_cyclades_campaign_of_an_older_pbem_audits_with_full_replay() -> None:
    root = LEGACY / "cyclades-4p-v1"
    record = tomli.loads((root / "ledger" / "000029.toml").read_text())
    # The order the stricter checks refuse at submit is really in this ledger, and skipped.
    assert 'do = "monument"' in record["orders"]["dave"]
    assert any(e.get("type") == "skipped" and e.get("player") == "dave"
               for e in record["events"])
    result = audit.audit(open_campaign(root, games.get))
    assert result.replayed and result.game_over and result.records == 92


def test_adjudication_tolerates_foreseen_problems_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same legacy ledger fails the audit if its refused order were a hard problem: the
    tolerance is exactly ``Problem.foreseen``, nothing wider."""
    from pbem.games.cyclades import actions

    real = actions.rehearsal_problems

    def hard(*args: object, **kwargs: object) -> list[Problem]:
        return [dataclasses.replace(p, foreseen=False)
                for p in real(*args, **kwargs)]  # type: ignore[arg-type]

    monkeypatch.setattr(actions, "rehearsal_problems", hard)
    with pytest.raises(AuditError, match="re-adjudication rejects them"):
        audit.audit(open_campaign(LEGACY / "cyclades-4p-v1", games.get))

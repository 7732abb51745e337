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


PROTOCOL_V1 = LEGACY / "protocol-v1"


@pytest.mark.parametrize("name", ["conformance-4p", "mythology-4p", "cyclades-4p"])
def test_13_a_version_1_campaign_still_audits_and_says_what_version_1_lacks(
        name: str, tmp_path: Path) -> None:
    """``examples/`` as pbem wrote them before protocol version 2 (DESIGN.md section 8): they
    audit with every phase re-adjudicated, and the audit says which guarantees version 1
    lacks instead of claiming them."""
    from tests.conftest import run_pbem

    root = PROTOCOL_V1 / name
    assert b'format = "pbem-campaign/1"' in (root / "campaign.toml").read_bytes()
    assert b'format = "pbem-ledger/1"' in (root / "ledger" / "000001.toml").read_bytes()
    c = open_campaign(root, games.get)
    assert c.version == 1 and c.envelope_hash is None
    result = audit.audit(c)
    assert result.replayed and result.game_over
    out = run_pbem("audit", str(root), "-q", cwd=tmp_path)
    assert "not known to any audit: which key is whose (a version 1 campaign.toml names no " \
        "key)" in out.stdout
    assert "version 1 orders are bound to the campaign id only" in out.stdout


def test_13_a_version_2_record_in_a_version_1_campaign_fails(tmp_path: Path) -> None:
    import shutil

    from pbem.core import demo, keys
    from pbem.core.campaign import sign_file_bytes

    root = tmp_path / "c"
    shutil.copytree(PROTOCOL_V1 / "conformance-4p", root)
    first = root / "ledger" / "000001.toml"
    data = first.read_bytes().replace(b'"pbem-ledger/1"', b'"pbem-ledger/2"')
    first.write_bytes(data)
    # Signed again by the demo GM's own key (seed "1"): the signature is checked first.
    gm = keys.key_from_seed(demo._Seeded("conformance", "1").bytes("key/gm"))
    (root / "ledger" / "000001.toml.sig").write_bytes(sign_file_bytes(data, gm))
    with pytest.raises(AuditError, match="record 000001: format: is 'pbem-ledger/2'; the "
                       "records of a pbem-campaign/1 campaign are pbem-ledger/1"):
        audit.audit(open_campaign(root, games.get))

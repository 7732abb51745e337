"""The GM's audit re-adjudicating spans of records on several processes checks exactly what
one replay from the start checks, reports the earliest failure, and checks the GM's files
each span starts from."""

from __future__ import annotations

import json
import multiprocessing
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import games
from pbem.core import audit, engine, ledger
from pbem.core.campaign import open_campaign
from pbem.core.errors import AuditError, CampaignError
from tests.budget import examples
from tests.conftest import make_table, tampered_copy

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="the parallel audit forks its workers")


@pytest.fixture(autouse=True)
def small_spans(monkeypatch: pytest.MonkeyPatch) -> None:
    # Spans of a few records, so a short campaign is split (and workers see the patch: fork).
    monkeypatch.setattr(audit, "MIN_SPAN", 2)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A conformance game of four rounds: its pledges stay sealed until the end, so every
    span after the first starts with sealed orders still waiting."""
    t = make_table(tmp_path_factory.mktemp("par") / "camp", rounds="4")
    t.play_to_end()
    return t.root


def _copy(finished: Path, tmp_path: Path) -> Path:
    work = tmp_path / "camp"
    shutil.copytree(finished, work)
    return work


def _spans(n: int, jobs: int) -> list[tuple[int, int]]:
    cuts = [1 + n * i // jobs for i in range(jobs + 1)]
    return [(cuts[i], cuts[i + 1] - 1) for i in range(jobs)]


def test_parallel_audit_says_what_the_sequential_one_says(finished: Path) -> None:
    c = open_campaign(finished, games.get)
    n = ledger.count(c.ledger_dir)
    assert n >= 12 and any(engine.load_unrevealed(c, k) for k in range(1, n))
    one: list[str] = []
    three: list[str] = []
    a = audit.audit(c, one.append, jobs=1)
    b = audit.audit(c, three.append, jobs=3)
    assert (a.records, a.replayed, a.game_over) == (b.records, b.replayed, b.game_over) == (
        n, True, True)
    assert one == three
    assert sum("re-adjudicated" in line for line in three) == n


def test_a_changed_stored_state_at_a_span_end_is_named_in_both(finished: Path,
                                                               tmp_path: Path) -> None:
    work = _copy(finished, tmp_path)
    n = ledger.count(work / "ledger")
    boundary = _spans(n, 3)[0][1]  # the state the second span starts from
    path = work / "gm" / "records" / f"{boundary:06d}" / "state.json"
    state = json.loads(path.read_bytes())
    state["round"] = state["round"] + 1
    path.write_bytes(json.dumps(state, sort_keys=True, separators=(",", ":")).encode())
    for jobs in (1, 3):
        with pytest.raises(AuditError) as caught:
            audit.audit(open_campaign(work, games.get), jobs=jobs)
        assert (caught.value.seq, caught.value.field) == (boundary, "gm state")


def test_the_earliest_failure_is_reported_when_several_spans_fail(finished: Path,
                                                                  tmp_path: Path) -> None:
    work = _copy(finished, tmp_path)
    n = ledger.count(work / "ledger")
    spans = _spans(n, 3)
    for seq in (spans[2][0], spans[1][0] + 1):  # later span damaged first
        path = work / "gm" / "records" / f"{seq:06d}" / "private.json"
        private = json.loads(path.read_bytes())
        private["private"] = {"alice": [{"text": "planted"}]}
        path.write_bytes(json.dumps(private).encode())
    with pytest.raises(AuditError) as caught:
        audit.audit(open_campaign(work, games.get), jobs=3)
    assert (caught.value.seq, caught.value.field) == (spans[1][0] + 1, "gm private events")


def test_a_changed_list_of_sealed_orders_to_reveal_is_caught(finished: Path,
                                                             tmp_path: Path) -> None:
    """A span starts from the GM's unrevealed.json of the record before it; the span before
    computes the same list by replay, and the two must agree."""
    work = _copy(finished, tmp_path)
    n = ledger.count(work / "ledger")
    boundary = _spans(n, 2)[0][1]
    path = work / "gm" / "records" / f"{boundary:06d}" / "unrevealed.json"
    waiting = engine.load_unrevealed(open_campaign(work, games.get), boundary)
    assert waiting, "the boundary must have sealed orders waiting"
    path.write_bytes(json.dumps(waiting[1:]).encode())  # a whole list, one file short
    with pytest.raises(AuditError) as caught:
        audit.audit(open_campaign(work, games.get), jobs=2)
    assert (caught.value.seq, caught.value.field) == (boundary, "gm unrevealed")


def test_the_latest_list_of_sealed_orders_to_reveal_is_checked(tmp_path: Path) -> None:
    """The next adjudication reads the last record's unrevealed.json: the GM's audit checks
    it against the replay, in one process or several."""
    t = make_table(tmp_path / "camp", rounds="4")
    t.play_phases(6)
    n = ledger.count(t.campaign.ledger_dir)
    path = engine.record_dir(t.campaign, n) / "unrevealed.json"
    assert json.loads(path.read_bytes())
    path.write_bytes(b"[]")
    for jobs in (1, 2):
        with pytest.raises(AuditError) as caught:
            audit.audit(open_campaign(t.root, games.get), jobs=jobs)
        assert (caught.value.seq, caught.value.field) == (n, "gm unrevealed")


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_byte_change_of_a_record_is_detected_in_parallel(
        finished: Path, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    work = tampered_copy(finished, tmp_path_factory.mktemp("tamper") / "camp", data)
    with pytest.raises((AuditError, CampaignError)):
        audit.audit(open_campaign(work, games.get), jobs=3)

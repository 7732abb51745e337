"""``pbem demo --jobs``: reports rendered by other processes while the game goes on are the
same bytes as reports rendered in line, and a worker's failure stops the demo."""

from __future__ import annotations

import hashlib
import multiprocessing
from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo, report
from pbem.core.errors import PbemError


def _files(campaign: Path) -> dict[str, str]:
    # gm/settings.toml names the GM key by its absolute path, which differs between the two.
    return {str(p.relative_to(campaign)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(campaign.rglob("*"))
            if p.is_file() and p.name != "settings.toml"}


@pytest.mark.parametrize(("game", "players"), [("mythology", 3), ("cyclades", 3),
                                               ("conformance", 4)])
@pytest.mark.long
def test_reports_from_workers_are_the_same_bytes(tmp_path: Path, game: str, players: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # Workers from the third record on: most records' reports come from them, the first
    # ones from the parent, in every game of this test.
    monkeypatch.setattr(demo, "REPORT_WORKERS_AFTER", 3)
    inline = demo.run(games.get(game), tmp_path / "one", players=players, seed="jobs",
                      options={}, resolve=games.get, jobs=1)
    parallel = demo.run(games.get(game), tmp_path / "three", players=players, seed="jobs",
                        options={}, resolve=games.get, jobs=3)
    one, three = _files(inline.campaign_dir), _files(parallel.campaign_dir)
    reports = [name for name in one if "/reports/" in name]
    # Every record has a report per player and a gazette, the forms included (each record
    # was the last one when its reports were made).
    assert len(reports) == inline.records * (players + 1)
    assert sum("BEGIN PBEM ORDERS" in (inline.campaign_dir / n).read_text()
               for n in reports) > inline.records
    assert one == three


def test_a_worker_failure_ends_the_demo_with_its_error(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("workers are forked; without fork the reports are rendered in line")
    real = report.render

    def broken(campaign, seq, player, *args, **kwargs):  # type: ignore[no-untyped-def]
        if seq == 5:
            raise PbemError("planted: the template of record 5 fails")
        return real(campaign, seq, player, *args, **kwargs)

    # Patched before the workers are forked, so they inherit it; the workers start at once.
    monkeypatch.setattr(report, "render", broken)
    monkeypatch.setattr(demo, "REPORT_WORKERS_AFTER", 1)
    started = []
    real_start = demo._ReportWorkers.start

    def start(self: demo._ReportWorkers) -> None:
        started.append(self)
        real_start(self)

    monkeypatch.setattr(demo._ReportWorkers, "start", start)
    with pytest.raises(PbemError, match="planted: the template of record 5 fails"):
        demo.run(games.get("conformance"), tmp_path / "d", players=2, seed="jobs",
                 options={}, resolve=games.get, jobs=2)
    assert started  # the failure came from a worker
    assert not multiprocessing.active_children()


def test_a_short_game_renders_its_reports_in_line(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # The conformance game's 13 records are fewer than REPORT_WORKERS_AFTER: --jobs forks
    # no report worker for them (it would cost more than it saves).
    def start(self: demo._ReportWorkers) -> None:
        raise AssertionError("report workers started for a short game")

    monkeypatch.setattr(demo._ReportWorkers, "start", start)
    result = demo.run(games.get("conformance"), tmp_path / "d", players=2, seed="jobs",
                      options={}, resolve=games.get, jobs=2)
    assert result.records < demo.REPORT_WORKERS_AFTER

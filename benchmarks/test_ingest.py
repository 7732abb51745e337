"""``pbem ingest`` of a 1,000-message mbox (issue 6: under 10 s).

The mbox is what a GM's mail client exports after a busy deadline: ten players sending and
re-sending signed orders (each a fresh salt, so each replaces the previous), plain and
quoted-printable bodies, and one message in ten with no orders at all. Every message is
stored, every block verified and submitted durably, and a reply written to the outbox.
"""

from __future__ import annotations

import mailbox
import shutil
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from typing import Any

import pytest

from pbem.channels import ingest
from pbem.core import campaign as campaign_mod
from pbem.games import get
from tests.conftest import Table, make_table

PLAYERS = tuple(f"p{i:02d}" for i in range(10))


@pytest.fixture(scope="module")
def joined(tmp_path_factory: pytest.TempPathFactory) -> Table:
    t = make_table(tmp_path_factory.mktemp("ingest") / "camp", players=PLAYERS)
    t.play_phases(1)  # everyone joined; r01.pledge is open for all ten
    return t


def _mbox(t: Table, path: Path, count: int) -> None:
    box = mailbox.mbox(path)
    for i in range(count):
        player = PLAYERS[i % len(PLAYERS)]
        msg = EmailMessage()
        msg["From"] = f"{player} <{player}@example.org>"
        msg["To"] = "gm@example.org"
        msg["Subject"] = f"Re: [test-campaign] r01.pledge ({i})"
        msg["Message-ID"] = f"<bench.{i}@example.org>"
        if i % 10 == 9:
            msg.set_content("Sorry, my orders follow tomorrow.\n")
        else:
            body = "My orders:\n\n" + t.signed(player, salt_label=str(i))
            msg.set_content(body, cte="quoted-printable" if i % 2 else "7bit")
        box.add(msg.as_bytes(policy=SMTP))
    box.flush()


def test_ingest_an_mbox(benchmark: Any, request: pytest.FixtureRequest, joined: Table,
                        tmp_path: Path) -> None:
    count = 50 if request.config.getoption("benchmark_disable") else 1000
    source = tmp_path / "orders.mbox"
    _mbox(joined, source, count)
    copies: list[Path] = []

    def setup() -> tuple[tuple[campaign_mod.Campaign], dict[str, Any]]:
        copies.append(tmp_path / f"run{len(copies)}")
        shutil.copytree(joined.root, copies[-1])
        return (campaign_mod.open_campaign(copies[-1], get),), {}

    def run(campaign: campaign_mod.Campaign) -> list[Any]:
        return ingest.ingest(campaign, [source], received="2026-11-22T12:00:00Z")

    results = benchmark.pedantic(run, setup=setup, rounds=1 if count < 1000 else 3)
    assert len(results) == count
    accepted = sum(1 for r in results for b in r.blocks if b.status in ("accepted", "replaced"))
    assert accepted == count - count // 10
    benchmark.extra_info["messages"] = count

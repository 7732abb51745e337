"""Issue 15: `pbem demo mythology-basic --players N` plays a whole Basic Game through the real
sign, submit and adjudicate path and audits it, at the smallest and the largest table (every N
from 2 to 10 is played and audited by `.ci/run`'s `pbem simulate mythology-basic --games 9`);
and the sealed join (docs/protocol.md, section 7) keeps each player's defence policy out of
every public file until the end, where a GM cannot change it unseen."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from pbem import games
from pbem.core import audit, demo, ledger
from pbem.core.campaign import open_campaign, sign_file_bytes
from pbem.core.errors import AuditError
from pbem.core.keys import load_private_key

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("mythology-basic-campaign")]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("basic") / "demo"
    result = demo.run(games.get("mythology-basic"), root, players=10, seed="n", options={},
                      resolve=games.get, with_reports=False)
    assert result.records == 1 + 10 * 10  # the join, then ten Game Turns of ten Player Turns
    assert set(result.result["score"]) == set(demo.NAMES[:10])
    return root


def _record(root: Path, seq: int) -> dict[str, object]:
    return tomllib.loads((root / "campaign" / "ledger" / ledger.record_name(seq)).read_text())


def test_demo_plays_and_audits_a_two_player_game(tmp_path: Path) -> None:
    result = demo.run(games.get("mythology-basic"), tmp_path / "d", players=2, seed="n",
                      options={}, resolve=games.get, with_reports=False)
    assert result.records == 1 + 10 * 2
    assert set(result.result["score"]) == {"alice", "bob"}


def test_sealed_join_publishes_commitments_not_policies(played: Path) -> None:
    first = _record(played, 1)
    assert first["phase"] == "t00.join" and first["orders"] == {}
    assert len(first["commitments"]) == 10 and len(first["entropy"]) == 10  # type: ignore[arg-type]
    last = _record(played, ledger.count(played / "campaign" / "ledger"))
    joins = [r for r in last["revealed"] if r["phase"] == "t00.join"]  # type: ignore[union-attr]
    assert sorted(r["player"] for r in joins) == sorted(demo.NAMES[:10])


def test_gm_cannot_change_a_revealed_defence_policy_unseen(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(played / "campaign", copy)
    seq = ledger.count(copy / "ledger")
    path = copy / "ledger" / ledger.record_name(seq)
    data = path.read_bytes()
    # The first revealed join file as the record writes it (a multi-line string): the GM
    # gives that player a policy of no aid at all, and signs the record again.
    at = data.index(b'phase = "t00.join"\ntext = """')
    cut = data.index(b"\n[orders]\n", at) + len(b"\n[orders]\n")
    data = data[:cut] + b'defend = { mode = \\"none\\" }\n' + data[cut:]
    texts = [r["text"] for r in tomllib.loads(data.decode())["revealed"]]
    assert any('defend = { mode = "none" }' in t for t in texts)
    path.write_bytes(data)
    gm = load_private_key(played / "keys" / "gm")
    (path.parent / f"{path.name}.sig").write_bytes(sign_file_bytes(data, gm))
    with pytest.raises(AuditError, match=rf"record {seq:06d}: revealed\[\d+\]: .*signature"):
        audit.audit(open_campaign(copy, games.get))


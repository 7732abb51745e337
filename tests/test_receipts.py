"""Issue 13 section 1: a player proves a fork, a dropped order or a ledger cut short with
``pbem receipts`` (DESIGN.md section 8, Receipts), where the public audit cannot."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem import games
from pbem.core import audit, engine, keys, ledger, receipts
from pbem.core.campaign import export_public, open_campaign
from tests.conftest import Table, make_table, run_pbem, seeded_key

pytestmark = pytest.mark.xdist_group("receipts")  # module-scoped campaigns, made once


def _play(t: Table, sent: dict[str, list[str]], *, pledge_of_alice: int = 3,
          drop_alice_at: int | None = None) -> None:
    """Play to the end; every file each player sends is kept in ``sent`` in order."""
    n = 0
    while (phase := engine.open_phase(t.campaign)[2]) is not None:
        n += 1
        for p in phase.actors:
            orders = {"pledge": pledge_of_alice} if p == "alice" and phase.kind == "pledge" \
                else None
            text = t.signed(p, orders)  # type: ignore[arg-type]
            sent.setdefault(p, []).append(text)
            if p == "alice" and n == drop_alice_at:
                continue  # the GM "never got it"
            assert not t.submit(text).errors
        t.adjudicate(force=drop_alice_at == n)


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    root = tmp_path_factory.mktemp("honest")
    sent: dict[str, list[str]] = {}
    _play(make_table(root / "gm"), sent)
    export_public(root / "gm", root / "public")
    return root / "public", sent


def _files(texts: list[str]) -> list[tuple[str, str]]:
    return [(f"sent-{i}.txt", text) for i, text in enumerate(texts, start=1)]


def _alice() -> bytes:
    return seeded_key("alice").public_key().public_bytes_raw()


def test_13_1_receipts_of_an_honest_campaign_all_match(honest: tuple[Path, dict]) -> None:
    public, sent = honest
    found = receipts.check(open_campaign(public, games.get), "alice", _alice(),
                           _files(sent["alice"]))
    assert found.mismatches == []
    assert found.lines[0].startswith("ok: allowed_signers gives alice your key SHA256:")
    phases = [line for line in found.lines if "holds your commitment" in line]
    assert len(phases) == len(sent["alice"]) >= 5


def test_13_1_a_fork_with_alices_key_swapped_passes_the_audit_but_not_her_receipts(
        honest: tuple[Path, dict], tmp_path: Path) -> None:
    """The issue's attack: campaign.toml and its signature byte-identical, alice's key one the
    GM holds, her pledges changed; the public audit of the fork passes."""
    public, sent = honest
    forged: dict[str, list[str]] = {}
    fork = make_table(tmp_path / "fork-gm", key_of={"alice": "mallory"})
    _play(fork, forged, pledge_of_alice=0)
    export_public(fork.root, tmp_path / "fork")
    fork_public = tmp_path / "fork"
    assert (fork_public / "campaign.toml").read_bytes() == (public / "campaign.toml").read_bytes()
    assert (fork_public / "campaign.toml.sig").read_bytes() == (
        public / "campaign.toml.sig").read_bytes()
    result = audit.audit(open_campaign(fork_public, games.get))
    assert result.replayed and result.game_over  # the public audit cannot see it

    found = receipts.check(open_campaign(fork_public, games.get), "alice", _alice(),
                           _files(sent["alice"]))
    assert any("allowed_signers gives alice the key" in m and "not yours" in m
               for m in found.mismatches)
    assert any("holds commitment" in m for m in found.mismatches), found.lines
    # bob's key was not swapped, but his files are the honest game's: his commitments (with
    # other entropy... the same files) still match where the fork kept them.
    bob = receipts.check(open_campaign(fork_public, games.get), "bob",
                         seeded_key("bob").public_key().public_bytes_raw(), _files(sent["bob"]))
    assert not any("allowed_signers" in m for m in bob.mismatches)


def test_13_1_a_dropped_order_shows_as_nmr_in_the_receipts(tmp_path: Path) -> None:
    sent: dict[str, list[str]] = {}
    t = make_table(tmp_path / "gm")
    _play(t, sent, drop_alice_at=2)
    found = receipts.check(t.campaign, "alice", _alice(), _files(sent["alice"]))
    assert len(found.mismatches) == 1
    assert "lists you as sending nothing (nmr)" in found.mismatches[0]
    assert "sent-2.txt" in found.mismatches[0]


def test_13_1_a_ledger_cut_short_shows_in_the_receipts(honest: tuple[Path, dict],
                                                        tmp_path: Path) -> None:
    public, sent = honest
    cut = tmp_path / "cut"
    shutil.copytree(public, cut)
    n = ledger.count(cut / "ledger")
    for seq in range(n - 3, n + 1):  # the last four records go
        (cut / "ledger" / ledger.record_name(seq)).unlink()
        (cut / "ledger" / f"{ledger.record_name(seq)}.sig").unlink()
    audit.audit(open_campaign(cut, games.get))  # consistent as far as it goes: it passes
    found = receipts.check(open_campaign(cut, games.get), "alice", _alice(),
                           _files(sent["alice"]))
    assert any("no published record adjudicated it" in m for m in found.mismatches)
    assert any(line.startswith("waiting: ") for line in found.lines)  # the first one cut


def test_13_1_files_not_signed_by_the_players_key_are_named(honest: tuple[Path, dict]) -> None:
    public, sent = honest
    found = receipts.check(open_campaign(public, games.get), "alice",
                           seeded_key("mallory").public_key().public_bytes_raw(),
                           _files(sent["alice"][:1] + sent["bob"][:1]))
    assert any("not yours" in m for m in found.mismatches)
    assert any("sent-1.txt: not signed by your key" in m for m in found.mismatches)
    assert "skipped: sent-2.txt is bob's, not alice's" in found.lines


def test_13_1_pbem_receipts_exits_1_on_a_mismatch_and_0_when_all_match(
        honest: tuple[Path, dict], tmp_path: Path) -> None:
    public, sent = honest
    for i, text in enumerate(sent["alice"], start=1):
        (tmp_path / f"a{i}.txt").write_text(text)
    (tmp_path / "alice.pub").write_text(keys.public_key_line(_alice()) + "\n")
    names = [f"a{i}.txt" for i in range(1, len(sent["alice"]) + 1)]
    ok = run_pbem("receipts", str(public), "--player", "alice", "--key", "alice.pub", *names,
                  cwd=tmp_path)
    assert "receipts ok: alice's key and commitments are in this copy" in ok.stdout
    (tmp_path / "mallory.pub").write_text(
        keys.public_key_line(seeded_key("mallory").public_key().public_bytes_raw()) + "\n")
    bad = run_pbem("receipts", str(public), "--player", "alice", "--key", "mallory.pub",
                   *names, cwd=tmp_path, ok=False)
    assert bad.returncode == 1 and "mismatch(es)" in bad.stderr and "Traceback" not in bad.stderr

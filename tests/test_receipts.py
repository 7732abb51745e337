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
          drop_alice_at: int | None = None, pledge_of_bob: int | None = None,
          got: dict[str, list[str]] | None = None) -> None:
    """Play to the end; every file each player sends is kept in ``sent`` in order, and the
    receipt ``pbem submit`` prints for it in ``got``."""
    n = 0
    while (phase := engine.open_phase(t.campaign)[2]) is not None:
        n += 1
        for p in phase.actors:
            orders = {"pledge": pledge_of_alice} if p == "alice" and phase.kind == "pledge" \
                else {"pledge": pledge_of_bob} if p == "bob" and phase.kind == "pledge" \
                and pledge_of_bob is not None else None
            text = t.signed(p, orders)  # type: ignore[arg-type]
            sent.setdefault(p, []).append(text)
            if p == "alice" and n == drop_alice_at:
                continue  # the GM "never got it"
            result = t.submit(text)
            assert not result.errors
            head = engine.head(t.campaign)
            (r,) = result.receipts
            if got is not None:
                got.setdefault(p, []).append(receipts.format_receipt(
                    p, r.phase, r.commitment, head.seq, head.prev_hash, t.campaign.hash))
        t.adjudicate(force=drop_alice_at == n)


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory
           ) -> tuple[Path, dict[str, list[str]], dict[str, list[str]]]:
    """A version 2 campaign played to the end: its public copy, what each player sent, and
    the receipts they got."""
    root = tmp_path_factory.mktemp("honest")
    sent: dict[str, list[str]] = {}
    got: dict[str, list[str]] = {}
    _play(make_table(root / "gm"), sent, got=got)
    export_public(root / "gm", root / "public")
    return root / "public", sent, got


@pytest.fixture(scope="module")
def honest_v1(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    """The same game in a version 1 campaign (campaign.toml names no key)."""
    root = tmp_path_factory.mktemp("honest-v1")
    sent: dict[str, list[str]] = {}
    _play(make_table(root / "gm", version=1), sent)
    export_public(root / "gm", root / "public")
    return root / "public", sent


def _files(texts: list[str]) -> list[tuple[str, str]]:
    return [(f"sent-{i}.txt", text) for i, text in enumerate(texts, start=1)]


def _alice() -> bytes:
    return seeded_key("alice").public_key().public_bytes_raw()


def test_13_1_receipts_of_an_honest_campaign_all_match(honest: tuple[Path, dict, dict]
                                                        ) -> None:
    public, sent, got = honest
    found = receipts.check(open_campaign(public, games.get), "alice", _alice(),
                           _files(sent["alice"]))
    assert found.mismatches == []
    assert found.lines[0].startswith("ok: campaign.toml [keys] gives alice your key SHA256:")
    phases = [line for line in found.lines if "holds your commitment" in line]
    assert len(phases) == len(sent["alice"]) >= 5
    # The receipts alone say the same, and every ledger head they showed is in the chain.
    by_receipts = receipts.check(open_campaign(public, games.get), "alice", _alice(),
                                 _files(got["alice"]))
    assert by_receipts.mismatches == []
    assert sum("is in this chain" in line for line in by_receipts.lines) == len(got["alice"])


def test_13_1_v1_a_fork_with_alices_key_swapped_passes_the_audit_but_not_her_receipts(
        honest_v1: tuple[Path, dict], tmp_path: Path) -> None:
    """The issue's attack on a version 1 campaign: campaign.toml and its signature
    byte-identical, alice's key one the GM holds, her pledges changed; the public audit of
    the fork passes. Only alice's own check shows it."""
    public, sent = honest_v1
    forged: dict[str, list[str]] = {}
    fork = make_table(tmp_path / "fork-gm", key_of={"alice": "mallory"}, version=1)
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


def test_13_1_a_ledger_cut_short_shows_in_the_receipts(honest: tuple[Path, dict, dict],
                                                        tmp_path: Path) -> None:
    public, sent, got = honest
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
    # The receipts of the last phases showed heads the cut copy no longer has.
    by_receipts = receipts.check(open_campaign(cut, games.get), "alice", _alice(),
                                 _files(got["alice"]))
    assert any("this copy has no record" in m and "cut short" in m
               for m in by_receipts.mismatches), by_receipts.lines


def test_13_1_files_not_signed_by_the_players_key_are_named(honest: tuple[Path, dict, dict]
                                                            ) -> None:
    public, sent, _ = honest
    found = receipts.check(open_campaign(public, games.get), "alice",
                           seeded_key("mallory").public_key().public_bytes_raw(),
                           _files(sent["alice"][:1] + sent["bob"][:1]))
    assert any("not yours" in m for m in found.mismatches)
    assert any("sent-1.txt: not signed by your key" in m for m in found.mismatches)
    assert "skipped: sent-2.txt is bob's, not alice's" in found.lines


def test_13_1_pbem_receipts_exits_1_on_a_mismatch_and_0_when_all_match(
        honest: tuple[Path, dict, dict], tmp_path: Path) -> None:
    public, sent, _ = honest
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


# --- version 2: keys in the signed campaign.toml, orders bound to it ------------------------


def test_13_1_v2_a_fork_with_alices_key_swapped_cannot_keep_campaign_toml(
        honest: tuple[Path, dict, dict], tmp_path: Path) -> None:
    """The same attack on a version 2 campaign: the GM must name mallory's key in the signed
    campaign.toml, so the fork's campaign.toml (and its hash) differ; alice's own signed
    files and receipts name the honest one. The public audit of the fork still passes, and
    says what it cannot know."""
    public, sent, got = honest
    fork = make_table(tmp_path / "fork-gm", key_of={"alice": "mallory"})
    _play(fork, {}, pledge_of_alice=0)
    export_public(fork.root, tmp_path / "fork")
    fork_public = tmp_path / "fork"
    assert (fork_public / "campaign.toml").read_bytes() != (public / "campaign.toml").read_bytes()
    forked = open_campaign(fork_public, games.get)
    assert forked.id == open_campaign(public, games.get).id
    result = audit.audit(forked)
    assert result.replayed and result.game_over
    out = run_pbem("audit", str(fork_public), "-q", cwd=tmp_path)
    assert "not known to any audit: that each key in campaign.toml [keys] is its player's" \
        in out.stdout

    found = receipts.check(forked, "alice", _alice(), _files(sent["alice"]))
    assert any("campaign.toml [keys] gives alice the key" in m and "not yours" in m
               for m in found.mismatches)
    assert any("made for the campaign.toml with sha256" in m for m in found.mismatches)
    by_receipts = receipts.check(forked, "alice", _alice(), _files(got["alice"]))
    named = [m for m in by_receipts.mismatches if "names the campaign.toml with sha256" in m]
    assert len(named) == len(got["alice"])


def test_13_1_v2_a_chain_rewritten_from_the_middle_shows_in_the_receipts(
        honest: tuple[Path, dict, dict], tmp_path: Path) -> None:
    """Same campaign.toml and keys; bob (colluding with the GM) pledges otherwise, so every
    record from his first pledge on differs. alice's files still match where her commitments
    stand, but her receipts name heads that are not in this chain."""
    public, sent, got = honest
    other = make_table(tmp_path / "other-gm")
    _play(other, {}, pledge_of_bob=0)
    export_public(other.root, tmp_path / "other")
    assert (tmp_path / "other" / "campaign.toml").read_bytes() == (
        public / "campaign.toml").read_bytes()
    audit.audit(open_campaign(tmp_path / "other", games.get))
    by_files = receipts.check(open_campaign(tmp_path / "other", games.get), "alice", _alice(),
                              _files(sent["alice"]))
    assert by_files.mismatches == []  # her own commitments are all there...
    found = receipts.check(open_campaign(tmp_path / "other", games.get), "alice", _alice(),
                           _files(got["alice"]))
    # ...but not the chain she was shown when she sent them.
    assert any("the chain was rewritten (a fork)" in m for m in found.mismatches), found.lines


def test_13_1_v2_allowed_signers_must_be_campaign_tomls_keys(
        honest: tuple[Path, dict, dict], tmp_path: Path) -> None:
    public, _, _ = honest
    mallory = keys.public_key_line(seeded_key("mallory").public_key().public_bytes_raw())
    honest_lines = (public / "allowed_signers").read_text().split("\n")
    for name, lines in {
        "swapped": [honest_lines[0], honest_lines[1].rsplit(" ", 2)[0] + " " + mallory,
                    *honest_lines[2:]],
        "extra key": [*honest_lines[:-1], f'alice namespaces="pbem-orders" {mallory}', ""],
        "wildcard": [honest_lines[0], "*" + honest_lines[1][len("alice"):],
                     *honest_lines[2:]],
    }.items():
        copy = tmp_path / name.replace(" ", "-")
        shutil.copytree(public, copy)
        (copy / "allowed_signers").write_text("\n".join(lines))
        with pytest.raises(audit.AuditError, match="allowed_signers line") as err:
            audit.audit(open_campaign(copy, games.get))
        assert "campaign.toml's signed [keys]" in str(err.value), name


def test_13_1_v2_a_key_swapped_in_a_resigned_campaign_toml_breaks_the_chain(
        honest: tuple[Path, dict, dict], tmp_path: Path) -> None:
    """The GM re-signs a campaign.toml naming mallory for alice (and rewrites allowed_signers
    to match): record 1 chains to the old campaign.toml, so the audit fails there; with
    record 1 re-chained, alice's own signed join no longer verifies. Getting past both is the
    whole fork of the test above, which alice's receipts show."""
    from pbem.core import campaign as campaign_mod

    public, _, _ = honest
    copy = tmp_path / "resigned"
    shutil.copytree(public, copy)
    alice_key = keys.public_key_line(_alice())
    mallory = seeded_key("mallory").public_key().public_bytes_raw()
    text = (copy / "campaign.toml").read_text().replace(alice_key,
                                                        keys.public_key_line(mallory))
    data = text.encode()
    (copy / "campaign.toml").write_bytes(data)
    (copy / "campaign.toml.sig").write_bytes(campaign_mod.sign_file_bytes(data, seeded_key("gm")))
    c = open_campaign(copy, games.get)
    keyed = c.base_keys()
    (copy / "allowed_signers").write_bytes(campaign_mod.signers_text(
        keyed["gm"], [(p, keyed[p]) for p in c.players]))
    with pytest.raises(audit.AuditError, match="record 000001: prev: is not the sha256"):
        audit.audit(c)
    first = copy / "ledger" / ledger.record_name(1)
    rechained = first.read_bytes().replace(
        ledger.file_hash((public / "campaign.toml").read_bytes()).encode(),
        ledger.file_hash(data).encode())
    first.write_bytes(rechained)
    (copy / "ledger" / f"{ledger.record_name(1)}.sig").write_bytes(
        campaign_mod.sign_file_bytes(rechained, seeded_key("gm")))
    with pytest.raises(audit.AuditError, match="alice") as err:
        audit.audit(open_campaign(copy, games.get))
    assert "not registered for 'alice'" in str(err.value)


def test_13_3_orders_for_a_namesake_campaign_are_refused(tmp_path: Path) -> None:
    """Two GMs each made a campaign with the same id (the directory name, by default); alice
    has the same key in both. Her signed join for one is refused by the other, by its
    campaign_hash: pbem new draws the seed heads at random, so no two campaign.toml are the
    same. In version 1 the same file was accepted (the attack of issue 13)."""
    from pbem.core import campaign as campaign_mod

    first = make_table(tmp_path / "gm1" / "hellas", campaign_id="hellas")
    join = first.signed("alice")
    second_root = tmp_path / "gm2" / "hellas"
    second_root.parent.mkdir()
    campaign_mod.create(second_root, games.get("conformance"), campaign_id="hellas",
                        gm_key=seeded_key("gm2"), gm_key_path="unused",
                        players={p: seeded_key(p).public_key().public_bytes_raw()
                                 for p in ("alice", "bob", "carol")},
                        options={"rounds": "2"})
    second = open_campaign(second_root, games.get)
    assert second.id == first.campaign.id and second.hash != first.campaign.hash
    result = engine.submit(second, join.encode(), "alice.txt")
    assert not result.receipts
    (error,) = result.errors
    assert "[envelope] campaign_hash: this file is for another campaign called 'hellas'" \
        in error.render()
    assert not first.submit(join).errors  # where it belongs, it is accepted

    # Version 1 bound orders to the id alone: the namesake accepted the same file.
    old = make_table(tmp_path / "v1a" / "hellas", campaign_id="hellas", version=1)
    old_join = old.signed("alice")
    namesake = make_table(tmp_path / "v1b" / "hellas", campaign_id="hellas", version=1)
    assert not namesake.submit(old_join).errors


def test_13_3_a_version_1_order_file_is_refused_by_a_version_2_campaign(tmp_path: Path) -> None:
    old = make_table(tmp_path / "old", version=1)
    new = make_table(tmp_path / "new")
    (error,) = new.submit(old.signed("alice")).errors
    assert "[envelope] format: this file is in format 'pbem-orders/1'; campaign " \
        "'test-campaign' takes 'pbem-orders/2'" in error.render()
    (error,) = old.submit(new.signed("alice")).errors
    assert "takes 'pbem-orders/1'" in error.render()


def test_13_1_pbem_submit_prints_the_receipt_pbem_receipts_reads(tmp_path: Path) -> None:
    t = make_table(tmp_path / "gm")
    (tmp_path / "join.txt").write_text(t.signed("alice"))
    out = run_pbem("submit", str(t.root), "join.txt", cwd=tmp_path)
    (receipt,) = receipts.parse_receipts(out.stdout)
    assert (receipt.player, receipt.head_seq, receipt.campaign_hash) == (
        "alice", 0, t.campaign.hash)
    assert max(map(len, out.stdout.split("\n")[1:])) <= 78  # the receipt lines themselves
    (tmp_path / "receipt.txt").write_text("> " + out.stdout.replace("\n", "\n> "))  # quoted
    ok = run_pbem("receipts", str(t.root), "--player", "alice", "receipt.txt", cwd=tmp_path)
    assert "receipt.txt (receipt): the ledger head you were shown (0) is in this chain" \
        in ok.stdout

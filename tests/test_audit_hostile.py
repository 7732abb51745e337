"""Issue 13, sections 2 and 4: the audit sees every record that is missing or extra, and a
hostile GM's signed record (or a damaged file) is a failed audit naming the record and field,
never a traceback or a hang (DESIGN.md section 8)."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from typing import Any

import pytest
import tomli
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import games
from pbem.core import audit, ledger
from pbem.core.campaign import export_public, open_campaign, sign_file_bytes
from pbem.core.errors import AuditError, CampaignError
from tests.budget import examples
from tests.conftest import make_table, seeded_key

pytestmark = pytest.mark.xdist_group("audit-hostile")  # module-scoped campaign, made once

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "conformance-4p"
#: The same example as pbem wrote it in protocol version 1 (tests/test_legacy.py).
EXAMPLE_V1 = ROOT / "tests" / "data" / "legacy" / "protocol-v1" / "conformance-4p"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished three-player conformance campaign, GM key ``seeded_key("gm")``."""
    t = make_table(tmp_path_factory.mktemp("hostile") / "camp", rounds="1")
    t.play_to_end()
    return t.root


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def _audit(root: Path) -> audit.AuditResult:
    return audit.audit(open_campaign(root, games.get))


# --- section 2: gaps, extra files, duplicates, records after the final one -----------------


def test_13_2_a_deleted_middle_record_fails_the_audit(tmp_path: Path) -> None:
    # The issue's own reproduction: cp -r examples/conformance-4p t; rm t/ledger/000005.toml.
    work = _copy(EXAMPLE, tmp_path / "t")
    last = ledger.count(work / "ledger")
    assert last == 13
    (work / "ledger" / "000005.toml").unlink()
    with pytest.raises(AuditError) as exc:
        _audit(work)
    assert exc.value.seq == 5
    assert "000005.toml is missing" in str(exc.value)
    assert "up to record 13" in str(exc.value)


def test_13_2_a_deleted_signature_fails_the_audit(tmp_path: Path) -> None:
    work = _copy(EXAMPLE, tmp_path / "t")
    (work / "ledger" / "000007.toml.sig").unlink()
    with pytest.raises(AuditError, match=r"record 000007: signature: .*000007.toml.sig is missing"):
        _audit(work)


@pytest.mark.parametrize("name", ["notes.txt", "000005 (copy).toml", "0000005.toml",
                                  "000000.toml", "000005.toml.bak", ".hidden"])
def test_13_2_any_other_file_in_the_ledger_fails_the_audit(tmp_path: Path, name: str) -> None:
    work = _copy(EXAMPLE, tmp_path / "t")
    (work / "ledger" / name).write_bytes((work / "ledger" / "000005.toml").read_bytes())
    with pytest.raises(AuditError, match="is not a ledger record"):
        _audit(work)


def test_13_2_a_folder_or_link_named_like_a_record_fails_the_audit(tmp_path: Path) -> None:
    work = _copy(EXAMPLE, tmp_path / "t")
    (work / "ledger" / "000014.toml").symlink_to(work / "ledger" / "000013.toml")
    with pytest.raises(AuditError, match="is not a regular file"):
        _audit(work)


def test_13_2_a_record_after_the_final_one_fails_the_audit(tmp_path: Path) -> None:
    work = _copy(EXAMPLE, tmp_path / "t")
    d = work / "ledger"
    # A byte-identical copy of the final record, with its valid signature, as record 14.
    shutil.copy(d / "000013.toml", d / "000014.toml")
    shutil.copy(d / "000013.toml.sig", d / "000014.toml.sig")
    with pytest.raises(AuditError, match="record 000014: seq: a record follows the game's "
                       "final record"):
        _audit(work)


def test_13_2_the_audit_says_how_many_records_it_expected(tmp_path: Path) -> None:
    lines: list[str] = []
    audit.audit(open_campaign(EXAMPLE, games.get), lines.append)
    assert "ledger/: 13 records numbered 1 to 13, each signed, nothing else" in lines


def test_13_2_temp_files_of_a_killed_command_are_named_in_the_gm_copy_only(
        finished: Path, tmp_path: Path) -> None:
    gm = _copy(finished, tmp_path / "gm")
    (gm / "ledger" / ".000099.toml.tmp-4242").write_bytes(b"half a record")
    lines: list[str] = []
    audit.audit(open_campaign(gm, games.get), lines.append)
    assert any("temp files of an interrupted command: .000099.toml.tmp-4242" in line
               for line in lines)
    public = tmp_path / "public"
    export_public(gm, public)
    assert not (public / "ledger" / ".000099.toml.tmp-4242").exists()  # export leaves it
    (public / "ledger" / ".000099.toml.tmp-4242").write_bytes(b"half a record")
    with pytest.raises(AuditError, match="is not a ledger record"):
        _audit(public)


# --- section 4: hostile records signed by the GM ------------------------------------------


def _resign(root: Path, seq: int, record: Any) -> None:
    """Replace record ``seq`` by ``record`` (any TOML), validly signed by the test GM."""
    data = tomli_w.dumps(record).encode()
    path = root / "ledger" / ledger.record_name(seq)
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_bytes(sign_file_bytes(data, seeded_key("gm")))


def _record(root: Path, seq: int) -> dict[str, Any]:
    return tomli.loads((root / "ledger" / ledger.record_name(seq)).read_text())


HOSTILE: list[tuple[str, Any, str]] = [
    # (what, how to change record 1, the field the audit must name)
    ("n above 2**64", lambda r: r["draws"][0].update(n=2**64 + 1), "draws[0].n"),
    ("n of 0", lambda r: r["draws"][0].update(n=0), "draws[0].n"),
    ("orders a string", lambda r: r.update(orders="x"), "orders"),
    ("revealed a number list", lambda r: r.update(revealed=[1]), "revealed[0]"),
    ("revealed text a number", lambda r: r.update(revealed=[
        {"seq": 1, "player": "alice", "phase": "t00.join", "text": 7}]), "revealed[0].text"),
    ("revealed seq a list", lambda r: r.update(revealed=[
        {"seq": [1], "player": "alice", "phase": "t00.join", "text": ""}]), "revealed[0].seq"),
    ("draws a number list", lambda r: r.update(draws=[1]), "draws[0]"),
    ("sealed a number", lambda r: r.update(sealed=5), "sealed"),
    ("value outside 1..n", lambda r: r["draws"][0].update(value=0), "draws[0].value"),
    ("label with a space", lambda r: r["draws"][0].update(label="a b"), "draws[0].label"),
    ("an unknown field", lambda r: r.update(extra=1), "extra"),
    ("commitments not hex", lambda r: r.update(commitments={"alice": "zz"}), "commitments.alice"),
    ("events not tables", lambda r: r.update(events=["boom"]), "events[0]"),
    ("game over without the rest", lambda r: r.update(game_over=True), "sealed_draws"),
    ("seq a string", lambda r: r.update(seq="2"), "seq"),
    ("a million draws", lambda r: r.update(draws=[r["draws"][0]] * 100_001), "draws"),
]


@pytest.mark.parametrize(("what", "change", "field"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_13_4_a_hostile_signed_record_fails_by_field_never_crashes(
        finished: Path, tmp_path: Path, what: str, change: Any, field: str) -> None:
    work = _copy(finished, tmp_path / "w")
    record = _record(work, 1)
    assert record["draws"], "record 1 (the set-up) of the conformance game has draws"
    change(record)
    _resign(work, 1, record)
    with pytest.raises(AuditError) as exc:
        _audit(work)
    assert exc.value.seq == 1
    assert exc.value.field == field, str(exc.value)
    assert "malformed" in str(exc.value)


def test_13_4_the_draw_function_refuses_n_above_2_64_instead_of_looping() -> None:
    from pbem.core import dice

    assert dice.draw_value(b"k" * 32, 0, "x", 2**64) >= 1  # still defined, and terminates
    with pytest.raises(ValueError, match="1 to 2\\*\\*64 outcomes"):
        dice.draw_value(b"k" * 32, 0, "x", 2**64 + 1)


def test_13_4_the_hand_script_refuses_n_above_2_64(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("verify_roll", ROOT / "docs" / "verify_roll.py")
    assert spec is not None and spec.loader is not None
    hand = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hand)
    with pytest.raises(ValueError, match="from 1 to 2\\*\\*64"):
        hand.draw(b"k" * 32, 0, "x", 2**64 + 1)
    record = _record(EXAMPLE, 1)
    record["draws"][0]["n"] = 2**64 + 1
    (tmp_path / "r.toml").write_text(tomli_w.dumps(record))
    assert hand.main(["--record", str(tmp_path / "r.toml"), "demo-conformance"]) == 1


@pytest.mark.parametrize(("old", "new"), [(b"\ngame =", b"\ngamf ="),
                                          (b"seed_chain_length = ", b"seed_chain_length = 99999"),
                                          (b'players = [', b'players = [ 7,')])
def test_13_4_a_damaged_campaign_toml_is_a_clear_error(tmp_path: Path, old: bytes,
                                                       new: bytes) -> None:
    work = _copy(EXAMPLE, tmp_path / "t")
    path = work / "campaign.toml"
    assert old in path.read_bytes()
    path.write_bytes(path.read_bytes().replace(old, new, 1))
    with pytest.raises(CampaignError, match=r"campaign\.toml: .*(missing|must be)"):
        open_campaign(work, games.get)


# Record shapes: any TOML value in any field of a real record, signed by the GM.
_values = st.recursive(
    st.one_of(st.booleans(), st.integers(-2**70, 2**70),
              st.text(max_size=8), st.sampled_from(["alice", "t00.join", "a" * 64])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(
                                ["i", "label", "n", "value", "seq", "player", "phase", "text",
                                 "count", "digest", "type", "alice"]), inner, max_size=5)),
    max_leaves=10)


@pytest.mark.slow
@settings(max_examples=examples(120), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_13_4_fuzz_gm_signed_hostile_records_give_a_failed_audit_or_a_pass(
        finished: Path, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    work = _copy(finished, tmp_path_factory.mktemp("fuzz") / "w")
    seq = data.draw(st.integers(1, ledger.count(work / "ledger")), label="seq")
    record = _record(work, seq)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        key = data.draw(st.sampled_from([*sorted(record), "extra"]), label="field")
        if isinstance(record.get(key), list) and record[key] and data.draw(st.booleans()):
            i = data.draw(st.integers(0, len(record[key]) - 1))
            item = record[key][i]
            if isinstance(item, dict) and item and data.draw(st.booleans()):
                item[data.draw(st.sampled_from(sorted(item)))] = data.draw(_values)
            else:
                record[key][i] = data.draw(_values)
        else:
            record[key] = data.draw(_values)
    try:
        _resign(work, seq, record)
    except (TypeError, ValueError):  # not TOML (tomli_w refuses): nothing to audit
        return
    # Anything but a pass or an AuditError (a traceback, a hang) fails the test.
    with contextlib.suppress(AuditError):
        _audit(work)


def test_protocol_md_holds_the_hand_script_as_shipped() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text()
    script = (ROOT / "docs" / "verify_roll.py").read_text()
    assert f"in full:\n\n```python\n{script}```" in text


# --- section 1: allowed_signers exactly as pbem writes it (version 1: its own form; version
# 2: campaign.toml's signed keys) -----------------------------------------------------------

_SIGNERS = (EXAMPLE_V1 / "allowed_signers").read_text().splitlines()
_OTHER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPbSt2ZHVidVSjsQOBTU62F/rvTDXILA3Sc4OV2Nbq9x"


@pytest.mark.parametrize(("what", "lines", "message"), [
    ("an extra key for alice", [*_SIGNERS, f'alice namespaces="pbem-orders" {_OTHER_KEY}'],
     "holds 6 keys"),
    ("a wildcard principal", [*_SIGNERS[:4], _SIGNERS[4].replace("dave ", "* ", 1)],
     "line 5: is for '*'"),
    ("reordered lines", [_SIGNERS[0], _SIGNERS[2], _SIGNERS[1], *_SIGNERS[3:]],
     "line 2: is for 'bob'"),
    ("a comment", [*_SIGNERS[:4], _SIGNERS[4] + " dave@example.org"], "line 5: is not in the form"),
    ("an option", [_SIGNERS[0], 'alice cert-authority,' + _SIGNERS[1].split(" ", 1)[1],
                   *_SIGNERS[2:]], "holds 4 keys"),  # a CA line is no signer line at all
    ("no namespace", [_SIGNERS[0], "alice " + _SIGNERS[1].split(" ", 2)[2], *_SIGNERS[2:]],
     "line 2: is not in the form"),
    ("two players with one key", [*_SIGNERS[:4], "dave " + _SIGNERS[3].split(" ", 1)[1]],
     "carol and dave have the same key"),
])
def test_13_1_allowed_signers_must_be_exactly_what_pbem_writes(
        tmp_path: Path, what: str, lines: list[str], message: str) -> None:
    work = _copy(EXAMPLE_V1, tmp_path / "t")
    (work / "allowed_signers").write_text("\n".join(lines) + "\n")
    with pytest.raises(AuditError) as exc:
        _audit(work)
    assert exc.value.seq is None and "allowed_signers" in exc.value.field
    assert message in str(exc.value), str(exc.value)
    # The same lines beside a version 2 campaign.toml: they are not its signed keys.
    v2 = _copy(EXAMPLE, tmp_path / "v2")
    v2_lines = (v2 / "allowed_signers").read_text().splitlines()
    swap = dict(zip(_SIGNERS, v2_lines, strict=True))
    (v2 / "allowed_signers").write_text("\n".join(swap.get(x, x) for x in lines) + "\n")
    with pytest.raises(AuditError, match="differs from the keys of campaign.toml's signed "
                       r"\[keys\] table"):
        _audit(v2)


def test_13_1_the_examples_allowed_signers_pass() -> None:
    lines: list[str] = []
    audit.audit(open_campaign(EXAMPLE_V1, games.get), lines.append)
    assert ("allowed_signers: gm and 4 players, one key each, in the form pbem writes"
            in lines)
    lines = []
    audit.audit(open_campaign(EXAMPLE, games.get), lines.append)
    assert ("allowed_signers: exactly the keys of campaign.toml [keys] (gm and 4 players, no "
            "key twice)" in lines)

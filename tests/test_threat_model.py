"""docs/protocol.md section 10, the threat model: each claim there names the test that attacks
it. The claims that no other module's test names are attacked here, one test each, named
after the claim; the last test checks that every test section 10 names exists, so the
document cannot point at a test that was renamed or removed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from pbem import games
from pbem.core import audit, dice, ledger
from pbem.core.campaign import open_campaign, sign_file_bytes
from pbem.core.errors import AuditError
from tests.conftest import Table, make_table

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.xdist_group("threat-model")  # one finished campaign, made once


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Table:
    t = make_table(tmp_path_factory.mktemp("threat") / "gm")
    t.play_to_end()
    return t


def _resign(t: Table, seq: int, change: bytes, into: bytes) -> Path:
    """A copy of the finished campaign whose record ``seq`` has ``change`` replaced by
    ``into`` and is signed again with the GM's own key: what a GM can do to its ledger."""
    import shutil

    copy = t.root.parent / f"copy-{seq}-{abs(hash(change)) % 10**6}"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(t.root, copy)
    path = copy / "ledger" / ledger.record_name(seq)
    data = path.read_bytes()
    assert change in data
    data = data.replace(change, into, 1)
    path.write_bytes(data)
    (path.parent / f"{path.name}.sig").write_bytes(sign_file_bytes(data, t.gm))
    return copy


def test_threat_gm_cannot_change_a_published_order_unseen(finished: Table) -> None:
    """The GM signs the record, but the order file in it is the player's: a pledge changed in
    the revealed text, with the record signed again, no longer verifies."""
    last = ledger.count(finished.root / "ledger")
    record = tomllib.loads((finished.root / "ledger" / ledger.record_name(last)).read_text())
    pledge = next(item for item in record["revealed"] if "pledge = " in item["text"])
    value = re.search(r"pledge = (\d+)", pledge["text"])
    assert value is not None
    other = "1" if value[1] != "1" else "2"
    copy = _resign(finished, last, f"pledge = {value[1]}".encode(), f"pledge = {other}".encode())
    with pytest.raises(AuditError, match=rf"record {last:06d}: revealed\[\d+\]: .*signature"):
        audit.audit(open_campaign(copy, games.get))


def test_threat_gm_cannot_change_a_sealed_draw_unseen(finished: Table) -> None:
    """A hidden card dealt otherwise than the sealed chain says: the final record's listing of
    sealed draws, signed again, fails against t_k and the digest each record committed to."""
    last = ledger.count(finished.root / "ledger")
    record = tomllib.loads((finished.root / "ledger" / ledger.record_name(last)).read_text())
    draw = record["sealed_draws"][0]
    value = draw["value"]
    other = value + 1 if value < draw["n"] else value - 1
    text = f'label = "{draw["label"]}", n = {draw["n"]}, value = {value} }}'
    copy = _resign(finished, last, text.encode(),
                   text.replace(f"value = {value}", f"value = {other}").encode())
    with pytest.raises(AuditError, match=r"sealed\.digest: does not match the revealed sealed "
                       "draws"):
        audit.audit(open_campaign(copy, games.get))


def test_threat_player_cannot_steer_a_draw_without_the_secret_seed() -> None:
    """A player's entropy enters every draw through mix, but the draw is an HMAC keyed by s_k,
    which is secret until the record is written: the same entropy gives other values under
    another s_k, so no choice of entropy fixes a value in advance."""
    entropy = {"alice": "11" * 32, "bob": "22" * 32}
    mix = dice.mix_next(dice.mix_initial("c"), entropy)
    values = {dice.draw_value(dice.phase_key(bytes([k]) * 32, "c", "t01.x", mix, sealed=False),
                              0, "d1000", 1000) for k in range(20)}
    assert len(values) >= 15  # 20 secret seeds: (almost) 20 different values
    steered = {dice.draw_value(dice.phase_key(b"\x01" * 32, "c", "t01.x", dice.mix_next(
        dice.mix_initial("c"), {**entropy, "alice": f"{e:064x}"}), sealed=False), 0, "d1000",
        1000) for e in range(20)}
    assert len(steered) >= 15  # and with s_k known, each entropy moves it: why s_k is secret


def test_threat_every_test_section_10_names_exists() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text()
    section = text[text.index("## 10. Threat model"):text.index("## 11. ")]
    named = set(re.findall(r"`(tests/[\w/]+\.py)::(test_\w+)", section))
    assert len(named) >= 20
    for path, name in sorted(named):
        source = (ROOT / path).read_text()
        assert re.search(rf"^def {name}\(", source, re.M) or re.search(
            rf"^def {name}\w*\(", source, re.M), f"{path}::{name} is not a test"


def test_threat_gm_does_not_know_the_entropy_of_a_form_sent_back_unchanged(
        finished: Table) -> None:
    """pbem sign replaces the salt and entropy the GM printed on the form with the player's
    own random values (unless told to keep them), so the GM cannot compute the mix of a
    record in advance even from an unchanged form."""
    from pbem.core import armor
    from pbem.core import orders as orders_mod
    from pbem.core.signing import sign_text
    from tests.conftest import seeded_key

    t = make_table(finished.root.parent / "fresh-entropy")
    form = t.form("alice")
    printed = orders_mod.parse(armor.extract(form)[0]).envelope
    (block,) = armor.extract(sign_text(form, seeded_key("alice")))
    signed = orders_mod.parse(block).envelope
    assert signed.entropy != printed.entropy and signed.salt != printed.salt
    assert signed.campaign_hash == printed.campaign_hash == t.campaign.hash
    assert not t.submit(block.armored()).errors

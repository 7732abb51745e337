"""Secrecy across every channel (issue 4): a game stopped before its reveal point, with
markers planted in one player's sealed orders and hidden holdings; no other player's report
in any format, no gazette, no file of the exported public part, of the public site or of any
outgoing mail to another player may hold them.

Markers: the salts of the owner's sealed order files not yet revealed (each a unique random
value inside the sealed text) and a unique string planted in the owner's private events of the
record (what only their report shows: hands dealt, Fate counters, Log Sheet notes).
"""

from __future__ import annotations

import email
import json
import shutil
from email import policy
from pathlib import Path

import pytest

from pbem import games
from pbem.cli.app import run
from pbem.core import demo, engine, ledger, report
from pbem.core.campaign import Campaign, open_campaign
from pbem.core.canonical import canonical_json

# One xdist worker runs this module: its module-scoped fixtures are made once.
pytestmark = pytest.mark.xdist_group("secrecy")

GAMES = {"conformance": 3, "mythology": 3}
MARKER = "MARKER-7f3a9c-hidden-holding"


class Stopped:
    def __init__(self, campaign: Campaign, seq: int, owner: str, salts: list[str]) -> None:
        self.campaign, self.seq, self.owner, self.salts = campaign, seq, owner, salts

    @property
    def markers(self) -> list[str]:
        return [MARKER, *self.salts]

    @property
    def others(self) -> list[str]:
        return [p for p in self.campaign.players if p != self.owner]


def _truncate(cdir: Path, keep: int) -> None:
    """The campaign as it stood after record ``keep`` (before its game's reveal point)."""
    last = ledger.count(cdir / "ledger")
    for k in range(keep + 1, last + 1):
        (cdir / "ledger" / ledger.record_name(k)).unlink()
        (cdir / "ledger" / f"{ledger.record_name(k)}.sig").unlink()
        shutil.rmtree(cdir / "gm" / "records" / f"{k:06d}")


@pytest.fixture(scope="module", params=sorted(GAMES))
def stopped(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
            ) -> Stopped:
    game = request.param
    root = tmp_path_factory.mktemp(f"secrecy-{game}") / "g"
    made = demo.run(games.get(game), root, players=GAMES[game], seed="secrecy", options={},
                    resolve=games.get, with_reports=False)
    cdir = made.campaign_dir
    seq = ledger.count(cdir / "ledger") * 2 // 3
    _truncate(cdir, seq)
    c = open_campaign(cdir, games.get)
    owner = c.players[0]
    # The owner's sealed order files still sealed after record ``seq``.
    sealed, revealed = [], set()
    for k, data in ledger.iter_records(c.ledger_dir):
        record = ledger.load(data)
        revealed |= {(r["seq"], r["player"]) for r in record.get("revealed", [])}
        if owner in record["commitments"] and owner not in record.get("orders", {}):
            sealed.append(k)
    salts = []
    for k in sealed:
        if (k, owner) not in revealed:
            path = engine.record_dir(c, k) / "orders" / f"{owner}.txt"
            salts.append(engine.parse_stored(path.read_text(), str(path)).envelope.salt)
    assert salts, f"{game}: the owner has no sealed orders left to keep secret"
    # A hidden holding only the owner may read, in the record's private events.
    path = engine.record_dir(c, seq) / "private.json"
    private = json.loads(path.read_bytes())
    private["private"].setdefault(owner, []).append(
        {"type": "note", "text": f"You hold {MARKER} (a planted marker)."})
    path.write_bytes(canonical_json(private))
    return Stopped(c, seq, owner, salts)


def _leaks(text: str, markers: list[str]) -> list[str]:
    return [m for m in markers if m in text]


def test_the_markers_are_where_they_belong(stopped: Stopped) -> None:
    """Positive control: the owner's own report shows the planted holding, and the GM's
    files hold every salt (so their absence elsewhere means something)."""
    c = stopped.campaign
    assert MARKER in report.render(c, stopped.seq, stopped.owner, "txt")
    gm_bytes = b"".join(p.read_bytes() for p in (c.root / "gm").rglob("*.txt"))
    for salt in stopped.salts:
        assert salt.encode() in gm_bytes


@pytest.mark.parametrize("fmt", report.FORMATS)
def test_no_other_report_nor_gazette_holds_a_marker(stopped: Stopped, fmt: str) -> None:
    c = stopped.campaign
    for k in sorted({1, stopped.seq // 2, stopped.seq}):
        for reader in (*stopped.others, None):
            text = report.render(c, k, reader, fmt)
            assert _leaks(text, stopped.markers) == [], (k, reader, fmt)


def test_the_exported_public_part_and_the_site_hold_no_marker(stopped: Stopped,
                                                                tmp_path: Path) -> None:
    c = stopped.campaign
    assert run(["export", str(c.root), str(tmp_path / "public")]) == 0
    assert run(["site", str(c.root), str(tmp_path / "site")]) in (0, 1)
    for tree in ("public", "site"):
        files = [p for p in (tmp_path / tree).rglob("*") if p.is_file()]
        assert files, tree
        for p in files:
            text = p.read_bytes().decode("utf-8", errors="replace")
            assert _leaks(text, stopped.markers) == [], p


def test_no_mail_to_another_player_holds_a_marker(stopped: Stopped, tmp_path: Path) -> None:
    work = tmp_path / "c"
    shutil.copytree(stopped.campaign.root, work)
    assert run(["mail-settings", str(work), "--from", "GM <gm@example.org>",
                "--gazette", "forum@example.org"]) == 0
    for p in stopped.campaign.players:
        assert run(["player-email", str(work), p, f"{p}@example.org"]) == 0
    assert run(["mail", str(work), "--seq", str(stopped.seq)]) == 0
    outbox = [p for sub in ("new", "cur") for p in (work / "gm" / "outbox" / sub).iterdir()]
    seen_owner = False
    for path in outbox:
        raw = path.read_bytes()
        msg = email.message_from_bytes(raw, policy=policy.default)
        decoded = "\n".join(str(part.get_content()) for part in msg.walk()
                            if not part.is_multipart())
        if msg["To"] == f"{stopped.owner}@example.org":
            seen_owner = True
            assert MARKER in decoded  # the owner's own mail carries the holding
            continue
        leaks = _leaks(raw.decode("ascii", errors="replace") + decoded, stopped.markers)
        assert leaks == [], (msg["To"], leaks)
    assert seen_owner and len(outbox) == len(stopped.campaign.players) + 1  # + the gazette

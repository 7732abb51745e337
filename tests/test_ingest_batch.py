"""Group commit in ``pbem ingest`` (issue 20): a batch's writes are synced once, its messages
count as read only after that, and a run killed (or a power cut) before the sync loses
nothing: ingesting again finishes the job, with no reply twice.

The power cuts are played by doing to the files what a cut before the sync may do to them
(a log's last lines lost, a new file left empty); the kill is a real SIGKILL of ``pbem
ingest``.
"""

from __future__ import annotations

import email
import email.policy
import mailbox
import os
import signal
import subprocess
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from typing import Any

import pytest

from pbem.channels import ingest, store
from pbem.channels.results import MessageResult
from pbem.cli.app import run as cli
from pbem.core import armor, engine, fsutil, superseded
from tests.conftest import PLAYERS, Table, make_table, table_copy

RECEIVED = "2026-03-02T12:00:00Z"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("batch") / "camp"
    make_table(root).play_phases(1)   # r01.pledge open for every player
    return root


@pytest.fixture
def camp(base: Path, tmp_path: Path) -> Table:
    return table_copy(base, tmp_path / "camp")


def pledge(camp: Table, player: str, label: str) -> str:
    return camp.signed(player, {"pledge": 1 + len(label) % 5}, salt_label=label)


def message(camp: Table, i: int, body: str, player: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{player} <{player}@example.org>"
    msg["To"] = "gm@example.org"
    msg["Subject"] = f"orders {i}"
    msg["Message-ID"] = f"<batch.{i}@example.org>"
    msg.set_content(body)
    return msg.as_bytes(policy=SMTP)


def busy_mbox(camp: Table, path: Path, count: int) -> None:
    """Players sending and re-sending: fresh files, the same file again, a file replaced
    since (a replay), no orders, and the same message twice."""
    box = mailbox.mbox(path)
    sent: list[bytes] = []
    for i in range(count):
        player = PLAYERS[i % len(PLAYERS)]
        if i % 11 == 10:
            body = "no orders today\n"
        elif i % 7 == 6 and i >= 2 * len(PLAYERS):
            body = pledge(camp, player, str(i - 2 * len(PLAYERS)))  # replaced since: replay
        elif i % 5 == 4 and i >= len(PLAYERS):
            body = pledge(camp, player, str(i - len(PLAYERS)))      # maybe the same again
        else:
            body = pledge(camp, player, str(i))
        sent.append(message(camp, i, "My orders:\n\n" + body, player))
        box.add(sent[-1] if i % 13 != 12 else sent[-2])
    box.flush()


def state(root: Path) -> dict[str, Any]:
    """What an ingest leaves that must not depend on how many runs it took."""
    gm = root / "gm"
    pending = gm / "pending" / "r01.pledge"
    outbox = [p.name for sub in ("new", "cur") for p in (gm / "outbox" / sub).iterdir()]
    names = [n.partition(":2,")[0].rpartition(".pbem-")[2] for n in outbox]
    return {
        "pending": {p.name: p.read_bytes() for p in sorted(pending.glob("*.txt"))},
        "commitments": {p.stem: tomllib.loads(p.read_text())["commitment"]
                        for p in sorted(pending.glob("*.toml"))},
        "seen": set((gm / "mail" / "seen.txt").read_text().split()),
        "received": sorted(p.name for p in (gm / "mail" / "received" / "new").iterdir()),
        "replies": Counter(names),
    }


# --- a real pbem ingest, killed --------------------------------------------------------------

# The batch made small so that a few hundred messages make several batches; the command is
# pbem's own (the CLI's ingest), started once its imports are done.
DRIVER = ("import sys; from pbem.channels import ingest; ingest.BATCH_MESSAGES = 25; "
          "from pbem.cli import main; print('ready', flush=True); sys.stdin.readline(); "
          "sys.exit(main(['ingest', sys.argv[1], sys.argv[2]]))")


def _uncommitted(root: Path) -> int:
    """Replies queued for messages not yet marked as read: work of a batch not synced."""
    try:
        seen = (root / "gm" / "mail" / "seen.txt").read_text()
    except FileNotFoundError:
        seen = ""
    done = {t.removeprefix("sha256:")[:32] for t in seen.split()}
    names = [p.name.rpartition(".pbem-reply-")[2][:32]
             for p in (root / "gm" / "outbox" / "new").glob("*.pbem-reply-*")]
    return sum(1 for n in names if n not in done)


def _kill_mid_batch(root: Path, source: Path, replies: int) -> None:
    """Start pbem ingest and SIGKILL it once ``replies`` replies are queued and some of them
    belong to a batch not synced yet (checked while it is stopped, so no race)."""
    proc = subprocess.Popen([sys.executable, "-c", DRIVER, str(root), str(source)],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        outbox = root / "gm" / "outbox" / "new"
        while proc.poll() is None:
            if outbox.is_dir() and sum(1 for _ in outbox.iterdir()) >= replies:
                os.kill(proc.pid, signal.SIGSTOP)
                if _uncommitted(root) >= 2:
                    os.kill(proc.pid, signal.SIGKILL)
                    break
                os.kill(proc.pid, signal.SIGCONT)
            time.sleep(0.002)
        else:
            pytest.fail("pbem ingest ended before it was killed")
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.slow
@pytest.mark.parametrize("replies", [3, 60], ids=["first-batch", "later-batch"])
def test_sigkill_mid_batch_then_ingest_again_finishes_the_job(
        base: Path, tmp_path: Path, replies: int) -> None:
    reference = table_copy(base, tmp_path / "reference")
    source = tmp_path / "orders.mbox"
    busy_mbox(reference, source, 120)
    assert cli(["ingest", str(reference.root), str(source)]) in (0, 1)
    expected = state(reference.root)
    assert sum(expected["replies"].values()) > replies

    killed = table_copy(base, tmp_path / "killed")
    _kill_mid_batch(killed.root, source, replies)
    before = state(killed.root) if (killed.root / "gm" / "mail" / "seen.txt").exists() else None
    assert before is None or before["seen"] < expected["seen"]  # not all of it was read
    assert cli(["ingest", str(killed.root), str(source)]) in (0, 1)
    after = state(killed.root)
    # Every message accounted for, the same orders pending, each reply queued once.
    assert after == expected
    assert max(after["replies"].values()) == 1
    assert cli(["audit", str(killed.root)]) == 0
    assert not list(killed.root.rglob(".*.tmp-*"))  # the killed run's temp files swept


# --- what a power cut before the sync may leave ---------------------------------------------


def _meta(camp: Table, player: str) -> dict[str, Any]:
    path = engine.pending_dir(camp.campaign, "r01.pledge") / f"{player}.toml"
    return tomllib.loads(path.read_text())


def _status(camp: Table, text: str) -> str:
    result = camp.submit(text)
    if result.errors:
        return result.errors[0].render()
    return result.receipts[0].status


def test_a_replay_is_refused_when_the_log_lost_its_last_lines(camp: Table) -> None:
    """In a batch the meta also lists the replaced files its log may not hold on the disk
    yet; a cut that kept the meta and lost the log's tail still refuses the replay."""
    a, b, c = (pledge(camp, "alice", x) for x in "abc")
    with fsutil.deferred_syncs():
        assert _status(camp, a) == "accepted"
        assert _status(camp, b) == "replaced"
        assert _meta(camp, "alice")["superseded"] == [commitment(a)]
        log = superseded.log_path(engine.pending_dir(camp.campaign, "r01.pledge"), "alice")
        log.write_bytes(b"")     # the power cut: the log's line lost, the meta kept
        superseded._logs.clear()  # and a new process reads the files
    assert "already replaced" in _status(camp, a)
    assert _status(camp, c) == "replaced"   # outside a batch: the log synced first
    assert _meta(camp, "alice")["superseded"] == []
    assert set(log.read_text().split()) == {commitment(a), commitment(b)}
    superseded._logs.clear()
    assert "already replaced" in _status(camp, a)
    assert "already replaced" in _status(camp, b)


def test_after_a_sync_the_meta_lists_only_the_new_batch(camp: Table) -> None:
    files = [pledge(camp, "bob", str(i)) for i in range(6)]
    with fsutil.deferred_syncs() as syncs:
        for text in files[:3]:
            camp.submit(text)
        assert _meta(camp, "bob")["superseded"] == [commitment(f) for f in files[:2]]
        syncs.sync()
        camp.submit(files[3])
        assert _meta(camp, "bob")["superseded"] == [commitment(files[2])]
    camp.submit(files[4])
    assert _meta(camp, "bob")["superseded"] == []
    for text in files[:4]:
        assert "already replaced" in _status(camp, text)


def test_an_older_campaign_meta_lists_every_replaced_file(camp: Table) -> None:
    """Before the log, the meta listed them all: still refused, and moved to the log at the
    next re-send."""
    old, current, new = (pledge(camp, "carol", x) for x in ("old", "cur", "new"))
    assert _status(camp, current) == "accepted"
    meta = engine.pending_dir(camp.campaign, "r01.pledge") / "carol.toml"
    meta.write_text(meta.read_text().replace("superseded = []",
                                             f'superseded = ["{commitment(old)}"]'))
    assert "already replaced" in _status(camp, old)
    assert _status(camp, new) == "replaced"
    assert _meta(camp, "carol")["superseded"] == []
    superseded._logs.clear()
    assert "already replaced" in _status(camp, old)
    assert "already replaced" in _status(camp, current)


def test_the_same_file_again_puts_back_an_order_file_the_cut_emptied(camp: Table) -> None:
    text = pledge(camp, "alice", "x")
    assert _status(camp, text) == "accepted"
    order = engine.pending_dir(camp.campaign, "r01.pledge") / "alice.txt"
    good = order.read_bytes()
    order.write_bytes(b"")
    assert _status(camp, text) == "unchanged"
    assert order.read_bytes() == good
    assert cli(["audit", str(camp.root)]) == 0


def test_an_emptied_meta_counts_as_none(camp: Table) -> None:
    text = pledge(camp, "bob", "y")
    camp.submit(text)
    meta = engine.pending_dir(camp.campaign, "r01.pledge") / "bob.toml"
    meta.write_bytes(b"\0" * 40)
    assert _status(camp, text) == "accepted"
    assert _meta(camp, "bob")["commitment"] == commitment(text)


def test_a_reply_is_queued_once_and_an_emptied_one_again(camp: Table, tmp_path: Path) -> None:
    path = tmp_path / "m.eml"
    path.write_bytes(message(camp, 1, pledge(camp, "alice", "r"), "alice"))
    seen = camp.root / "gm" / "mail" / "seen.txt"
    outbox = camp.root / "gm" / "outbox" / "new"

    def again() -> list[Path]:
        seen.write_text("")   # as if killed before the batch's messages were marked read
        ingest.ingest(camp.campaign, [path], received=RECEIVED)
        return sorted(outbox.iterdir())

    ingest.ingest(camp.campaign, [path], received=RECEIVED)
    (first,) = sorted(outbox.iterdir())
    body = first.read_bytes()
    assert again() == [first] and first.read_bytes() == body
    first.write_bytes(b"")
    (second,) = again()
    reply = email.message_from_bytes(second.read_bytes(), policy=email.policy.default)
    text = " ".join(reply.get_body().get_content().split())  # type: ignore[union-attr]
    assert "the same orders again; nothing changed" in text
    assert cli(["audit", str(camp.root)]) == 0


# --- syncs ----------------------------------------------------------------------------------


@contextmanager
def counted_syncs() -> Iterator[Counter[str]]:
    """Count the real fsync and syncfs calls (each still made)."""
    counts: Counter[str] = Counter()
    real = {"fsync": os.fsync, "syncfs": fsutil.syncfs}

    def counting(name: str) -> Callable[[int], None]:
        def call(fd: int) -> None:
            counts[name] += 1
            real[name](fd)
        return call

    os.fsync = counting("fsync")  # type: ignore[assignment]
    fsutil.syncfs = counting("syncfs")  # type: ignore[assignment]
    try:
        yield counts
    finally:
        os.fsync = real["fsync"]  # type: ignore[assignment]
        fsutil.syncfs = real["syncfs"]  # type: ignore[assignment]


@pytest.mark.parametrize("use_syncfs", [True, False], ids=["syncfs", "fsync-each"])
def test_a_batch_syncs_at_its_end_and_only_then_counts_its_messages(
        camp: Table, tmp_path: Path, use_syncfs: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    if use_syncfs and not fsutil.has_syncfs():
        pytest.skip("no syncfs(2) here")
    monkeypatch.setattr(fsutil, "has_syncfs", lambda: use_syncfs)
    source = tmp_path / "orders.mbox"
    busy_mbox(camp, source, 40)
    seen = camp.root / "gm" / "mail" / "seen.txt"
    marked: list[bool] = []

    def reported(result: MessageResult) -> None:
        # Reported only once its batch is synced and the message marked as read.
        assert counts["syncfs"] + counts["fsync"] > 0
        token = "sha256:" + store.digest(Path(result.kept).read_bytes()) if result.kept else ""
        marked.append(not token or token in seen.read_text())

    flush = store.Seen.flush

    def flush_after_sync(seen: store.Seen) -> None:
        # The seen lines are written only once everything the batch wrote is synced.
        assert fsutil._batch is not None and not fsutil._batch.files, "not synced yet"
        flush(seen)

    monkeypatch.setattr(store.Seen, "flush", flush_after_sync)
    monkeypatch.setattr(ingest, "BATCH_SECONDS", 1e9)   # one batch, however slow the machine
    with counted_syncs() as counts:
        results = ingest.ingest(camp.campaign, [source], received=RECEIVED,
                                on_result=reported)
    assert len(results) == 40 and all(marked)
    if use_syncfs:
        # One syncfs for the batch; then the seen lines (one file) by fsync.
        assert counts["syncfs"] == 1 and counts["fsync"] <= 2, counts
    else:
        # Each file and folder once: still far fewer than the 9 a message took one by one.
        assert counts["fsync"] < 5 * 40, counts
    assert cli(["audit", str(camp.root)]) == 0


def test_submit_alone_stays_durable(camp: Table) -> None:
    """Outside a batch every write is synced before submit returns (the inbox file, the
    order file, its meta, the log of replaced files and their folders)."""
    camp.submit(pledge(camp, "alice", "1"))
    with counted_syncs() as counts:
        camp.submit(pledge(camp, "alice", "2"))
    assert counts["syncfs"] == 0 and counts["fsync"] >= 5, counts


def commitment(text: str) -> str:
    (block,) = armor.extract(text)
    return block.commitment

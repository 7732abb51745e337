"""Issue 12 section 5: what pbem writes, and where. Output paths the user names (``sign -o``,
``keygen``, ``export``, ``site``, ``new``, ``demo --dir``, ``simulate --keep``) replace only a
regular file, write to a device or a pipe as a stream, write through a link, and never create
missing folders; ``export`` and ``site`` copy only the public files they name, never through
a link; temp files left by a killed command are swept by the next one that takes the lock."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pbem import games
from pbem.channels import site
from pbem.core import engine, fsutil
from pbem.core.campaign import open_campaign
from pbem.core.errors import CampaignError, UsageError
from tests.conftest import make_table
from tests.conftest import run_pbem as pbem

# One xdist worker runs this module: its module-scoped fixture is made once.
pytestmark = pytest.mark.xdist_group("files-safety")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A campaign, alice's key and her join form, made once by the commands a GM runs."""
    where = tmp_path_factory.mktemp("player")
    pbem("keygen", "gm", cwd=where)
    pbem("keygen", "alice", cwd=where)
    pbem("keygen", "bob", cwd=where)
    pbem("new", "conformance", "camp", "--gm-key", "gm", "--player", "alice=alice.pub",
         "--player", "bob=bob.pub", "--option", "rounds=1", cwd=where)
    form = pbem("form", "camp", "--player", "alice", cwd=where).stdout
    (where / "alice.txt").write_text(form)
    return where


@pytest.fixture
def player(made: Path, tmp_path: Path) -> Path:
    """A copy of ``made`` of this test's own, in ``tmp_path`` (modes kept: keys stay 0600)."""
    shutil.copytree(made, tmp_path, dirs_exist_ok=True)
    return tmp_path


def _sign(t: Path, out: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    return pbem("sign", "alice.txt", "--key", "alice", "-o", out, cwd=t, ok=ok)


# --- output files ----------------------------------------------------------------------------


def test_sign_output_to_a_character_device_writes_through_it(player: Path) -> None:
    # /dev/null itself, when not root (the old code replaced it with a regular file as root).
    device = player / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError):
        device = Path("/dev/null")
        if os.geteuid() == 0:
            pytest.skip("no mknod here, and the real /dev/null is not for a test to risk")
    _sign(player, str(device))
    assert stat.S_ISCHR(os.stat(device).st_mode)
    assert not list(player.glob(".null.tmp-*"))


def test_sign_output_to_a_pipe_is_a_stream(player: Path) -> None:
    fifo = player / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    _sign(player, "fifo")
    reader.join(30)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the pipe, not a file in its place
    assert got and b"-----BEGIN SSH SIGNATURE-----" in got[0]
    out = pbem("sign", "alice.txt", "--key", "alice", "-o", "/dev/stdout", cwd=player,
               fresh=True).stdout  # a real process: /dev/stdout is its pipe
    assert "-----END SSH SIGNATURE-----" in out


def test_sign_output_through_a_link_keeps_the_link(player: Path) -> None:
    (player / "signed").mkdir()
    (player / "link.txt").symlink_to("signed/target.txt")  # dangling: the target is made
    _sign(player, "link.txt")
    assert (player / "link.txt").is_symlink()
    assert "SSH SIGNATURE" in (player / "signed" / "target.txt").read_text()
    (player / "signed" / "target.txt").chmod(0o600)
    _sign(player, "link.txt")  # an existing target: replaced, its mode kept
    assert (player / "link.txt").is_symlink()
    assert stat.S_IMODE((player / "signed" / "target.txt").stat().st_mode) == 0o600


def test_sign_never_creates_folders_nor_replaces_a_folder(player: Path) -> None:
    proc = _sign(player, "missing/deeper/alice.signed", ok=False)
    assert proc.returncode == 2 and "create it first" in proc.stderr
    assert not (player / "missing").exists()
    (player / "adir").mkdir()
    proc = _sign(player, "adir", ok=False)
    assert proc.returncode == 2 and "is a directory" in proc.stderr
    assert (player / "adir").is_dir()
    assert "Traceback" not in proc.stderr


def test_keygen_never_overwrites_follows_or_creates_folders(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "k").symlink_to("elsewhere/stolen")
    proc = pbem("keygen", "k", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "already exists" in proc.stderr
    assert not (tmp_path / "elsewhere" / "stolen").exists()
    proc = pbem("keygen", "nodir/k", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and not (tmp_path / "nodir").exists()
    pbem("keygen", "mine", cwd=tmp_path)
    assert stat.S_IMODE((tmp_path / "mine").stat().st_mode) == 0o600


def test_new_demo_and_simulate_create_no_missing_parents(tmp_path: Path) -> None:
    pbem("keygen", "gm", cwd=tmp_path)
    pbem("keygen", "a", cwd=tmp_path)
    pbem("keygen", "b", cwd=tmp_path)
    proc = pbem("new", "conformance", "x/y/camp", "--gm-key", "gm", "--player", "a=a.pub",
                "--player", "b=b.pub", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "create it first" in proc.stderr
    proc = pbem("demo", "conformance", "--players", "2", "--dir", "p/q", cwd=tmp_path,
                ok=False)
    assert proc.returncode == 2 and "create it first" in proc.stderr
    proc = pbem("simulate", "conformance", "--games", "1", "--keep", "r/s", cwd=tmp_path,
                ok=False)
    assert proc.returncode == 2 and "create it first" in proc.stderr
    assert not any((tmp_path / d).exists() for d in ("x", "p", "r"))


def test_write_output_refuses_what_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="is a directory"):
        fsutil.write_output(tmp_path, b"x")
    (tmp_path / "f").write_text("old")
    with pytest.raises(UsageError, match="not a folder"):
        fsutil.write_output(tmp_path / "f" / "g", b"x")
    fsutil.write_output(tmp_path / "f", b"new")
    assert (tmp_path / "f").read_text() == "new"


# --- export and site: only the public files, never through a link -----------------------------


def test_export_copies_only_the_public_files_never_a_link(tmp_path: Path) -> None:
    t = make_table(tmp_path / "C", rounds="1")
    t.play_phases(1)
    (t.root / "gm_backup").symlink_to("gm")  # the attack of the issue
    (t.root / "notes.txt").write_text("the GM's own notes")
    proc = pbem("export", "C", "out", cwd=tmp_path)
    assert "Traceback" not in proc.stderr
    names = sorted(p.relative_to(tmp_path / "out").as_posix()
                   for p in (tmp_path / "out").rglob("*"))
    assert names == ["allowed_signers", "campaign.toml", "campaign.toml.sig", "ledger",
                     "ledger/000001.toml", "ledger/000001.toml.sig"]
    secrets = (t.root / "gm" / "secrets.toml").read_bytes()
    assert all(secrets not in p.read_bytes() for p in (tmp_path / "out").rglob("*")
               if p.is_file())
    pbem("audit", "out", cwd=tmp_path)

    # A record that is a link (to a secret) is refused, and nothing is written.
    record = t.root / "ledger" / "000001.toml"
    record.rename(t.root / "real.toml")
    record.symlink_to(t.root / "gm" / "secrets.toml")
    proc = pbem("export", "C", "out2", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "symbolic link" in proc.stderr
    assert not (tmp_path / "out2").exists()
    assert not list(tmp_path.glob(".out2*"))
    # An existing OUT (even a dangling link) and a missing parent are refused.
    (tmp_path / "dangling").symlink_to("nowhere")
    assert pbem("export", "C", "dangling", cwd=tmp_path, ok=False).returncode == 2
    assert pbem("export", "C", "a/b", cwd=tmp_path, ok=False).returncode == 2
    assert not (tmp_path / "nowhere").exists() and not (tmp_path / "a").exists()


def test_site_of_a_hostile_copy_publishes_no_link_and_leaves_out_as_it_was(
        tmp_path: Path) -> None:
    t = make_table(tmp_path / "C", rounds="1")
    t.play_phases(2)
    pbem("export", "C", "public", cwd=tmp_path)
    public = tmp_path / "public"
    out = tmp_path / "site"
    site.build(open_campaign(public, games.get), out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    # The hostile copy: record 2 is a link to a file the builder can read.
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-7f3a of the person who builds the site\n")
    (public / "ledger" / "000002.toml").unlink()
    (public / "ledger" / "000002.toml").symlink_to(secret)
    with pytest.raises(CampaignError, match="symbolic link"):
        site.build(open_campaign(public, games.get), out)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    fresh = tmp_path / "fresh"
    proc = pbem("site", "public", "fresh", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "symbolic link" in proc.stderr
    assert not fresh.exists() and not list(tmp_path.glob(".fresh.site-*"))
    # A linked ledger folder is refused the same way.
    (public / "ledger").rename(tmp_path / "real-ledger")
    (public / "ledger").symlink_to(tmp_path / "real-ledger")
    with pytest.raises(CampaignError, match="symbolic link"):
        site.build(open_campaign(public, games.get), tmp_path / "fresh")
    # A site whose ledger/ is a link would lead writes and removals elsewhere.
    (out / "ledger").rename(tmp_path / "moved")
    (out / "ledger").symlink_to(tmp_path / "moved")
    with pytest.raises(UsageError, match="link"):
        site.build(t.campaign, out)


def test_a_site_build_that_fails_leaves_no_file(tmp_path: Path) -> None:
    t = make_table(tmp_path / "C", rounds="1")
    t.play_phases(2)
    pbem("export", "C", "public", cwd=tmp_path)
    (tmp_path / "public" / "ledger" / "000002.toml").write_text("seq = [\n")
    with pytest.raises(CampaignError, match="malformed"):
        site.build(open_campaign(tmp_path / "public", games.get), tmp_path / "site")
    assert not (tmp_path / "site").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


# --- temp files of a killed command ---------------------------------------------------------

KILLED = """
import os, signal, sys
from pathlib import Path
from pbem.core.fsutil import CampaignLock, temp_path
root = Path(sys.argv[1])
with CampaignLock(root / "gm"):
    # What atomic_write leaves when SIGKILL comes between its open and its rename.
    for target in (root / "ledger" / "000009.toml", root / "gm" / "records" / "x.json",
                   root / "gm" / "settings.toml"):
        target.parent.mkdir(parents=True, exist_ok=True)
        temp_path(target).write_bytes(b"half")
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _temps(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob(".*.tmp-*"))


def test_temp_files_of_a_killed_command_are_swept_by_the_next_one(tmp_path: Path) -> None:
    t = make_table(tmp_path / "C", rounds="1")
    proc = subprocess.run([sys.executable, "-c", KILLED, str(t.root)], capture_output=True)
    assert proc.returncode == -signal.SIGKILL
    assert len(_temps(t.root)) == 3
    # A temp file of a command still running (this test's PID) must stay.
    alive = t.root / "ledger" / f".000001.toml.tmp-{os.getppid()}"
    alive.write_bytes(b"being written")
    result = engine.submit(t.campaign, t.signed("alice").encode(), "alice.txt",
                           received="2026-01-01T00:00:00Z")
    assert not result.errors
    assert _temps(t.root) == [alive]
    # A very old one is a leftover even if its PID is alive again (used again since).
    old = time.time() - fsutil.STALE_AFTER - 60
    os.utime(alive, (old, old))
    (t.root / "gm" / "lock").write_text("1\n")  # as if the last holder was killed
    engine.submit(t.campaign, t.signed("bob").encode(), "bob.txt",
                  received="2026-01-01T00:00:00Z")
    assert _temps(t.root) == []


def test_settings_temp_file_is_swept_without_a_killed_lock_holder(tmp_path: Path) -> None:
    t = make_table(tmp_path / "C", rounds="1")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    leftover = t.root / "gm" / f".settings.toml.tmp-{dead}"
    leftover.write_bytes(b"half")
    theirs = t.root / "gm" / f".opened.toml.tmp-{os.getpid()}"
    theirs.write_bytes(b"mine")
    with fsutil.CampaignLock(t.root / "gm"):
        pass
    assert not leftover.exists() and theirs.exists()


def test_the_top_of_gm_is_swept_again_only_when_it_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command that adjudicates record after record locks the campaign at each: the top of
    gm/ is listed again only when an entry came or went there since (its mtime), and a
    settings writer killed in between still has its temp file swept at the next lock."""
    t = make_table(tmp_path / "C", rounds="1")
    swept: list[Path] = []
    real = fsutil.sweep_temp_files

    def counting(root: Path, **kwargs: bool) -> list[Path]:
        swept.append(root)
        return real(root, **kwargs)

    monkeypatch.setattr(fsutil, "sweep_temp_files", counting)
    for _ in range(3):
        with fsutil.CampaignLock(t.root / "gm"):
            pass
    assert len(swept) <= 1
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    leftover = t.root / "gm" / f".settings.toml.tmp-{dead}"
    time.sleep(0.01)  # a coarse clock: let the folder's mtime move
    leftover.write_bytes(b"half")
    with fsutil.CampaignLock(t.root / "gm"):
        pass
    assert not leftover.exists() and len(swept) >= 1


def test_two_commands_at_once_never_remove_each_others_temp_files(tmp_path: Path) -> None:
    """A command blocked on the lock while another writes: the writer's temp files (live PID)
    survive the second command's sweep, and both finish."""
    t = make_table(tmp_path / "C", rounds="1")
    hold = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\nfrom pathlib import Path\n"
        "from pbem.core.fsutil import CampaignLock, temp_path\n"
        "root = Path(sys.argv[1])\n"
        "with CampaignLock(root / 'gm'):\n"
        "    temp_path(root / 'ledger' / '000001.toml').write_bytes(b'x')\n"
        "    print('holding', flush=True)\n"
        "    sys.stdin.readline()\n"
        "    print(sorted(p.name for p in (root / 'ledger').iterdir()), flush=True)\n"),
        str(t.root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert hold.stdout is not None and hold.stdin is not None
    assert hold.stdout.readline().strip() == "holding"
    mine = t.root / "ledger" / f".000001.toml.tmp-{hold.pid}"
    # Another command with the previous holder's marker: it sweeps, and must keep `mine`.
    fsutil.sweep_temp_files(t.root)
    assert mine.exists()
    hold.stdin.write("go\n")
    hold.stdin.flush()
    assert f".000001.toml.tmp-{hold.pid}" in hold.stdout.readline()
    assert hold.wait(30) == 0

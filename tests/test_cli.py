"""The ``pbem`` command end to end, as a GM and players use it, with OpenSSH's ssh-keygen."""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core import armor, ledger
from tests.conftest import run_pbem as pbem

pytestmark = pytest.mark.slow



ENVELOPE = ('[envelope]\nformat = "pbem-orders/1"\ncampaign = "c"\nplayer = "alice"\n'
            'phase = "t00.join"\nsalt = "' + "0" * 64 + '"\nentropy = "' + "1" * 64 + '"\n')
#: The smallest order file pbem sign accepts: a well-formed envelope and an empty [orders].
ORDER_FILE = f"{armor.BEGIN_ORDERS}\n{ENVELOPE}\n[orders]\n{armor.END_ORDERS}\n"


def ssh_sign(ssh_keygen: str, key: Path, body: bytes, namespace: str, tmp: Path) -> str:
    msg = tmp / "body.txt"
    msg.write_bytes(body)
    sig = tmp / "body.txt.sig"
    sig.unlink(missing_ok=True)
    subprocess.run([ssh_keygen, "-q", "-Y", "sign", "-f", str(key), "-n", namespace, str(msg)],
                   check=True, capture_output=True)
    return sig.read_text()


def ssh_verify(ssh_keygen: str, signers: Path, principal: str, namespace: str, sig: str,
               body: bytes, tmp: Path) -> subprocess.CompletedProcess[bytes]:
    sig_path = tmp / "check.sig"
    sig_path.write_text(sig)
    return subprocess.run([ssh_keygen, "-Y", "verify", "-f", str(signers), "-I", principal,
                           "-n", namespace, "-s", str(sig_path)], input=body,
                          capture_output=True)


@pytest.fixture
def gm_table(tmp_path: Path, ssh_keygen: str) -> Path:
    """A campaign made through the command line: pbem keys for the GM and alice, an
    ssh-keygen key for bob (existing OpenSSH keys work as they are)."""
    pbem("keygen", "gm", cwd=tmp_path)
    pbem("keygen", "alice", "--comment", "alice@example.org", cwd=tmp_path)
    subprocess.run([ssh_keygen, "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "bob")],
                   check=True)
    pbem("new", "conformance", "camp", "--gm-key", "gm", "--player", "alice=alice.pub",
         "--player", f"bob={(tmp_path / 'bob.pub').read_text().strip()}", "--option",
         "rounds=1", cwd=tmp_path)
    return tmp_path


def test_full_flow_with_openssh_both_ways(gm_table: Path, ssh_keygen: str) -> None:
    """Up to the first record every command is a real process, as a user runs it; the rest
    of the game is played in process (tests.conftest.run_pbem)."""
    t = gm_table

    def real(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return pbem(*args, cwd=cwd, fresh=True)

    camp = t / "camp"
    # alice: pbem form, fill in, pbem sign.
    form = real("form", "camp", "--player", "alice", cwd=t).stdout
    (t / "alice.form").write_text(form.replace('motto = ""', 'motto = "Sing, Muse"'))
    real("sign", "alice.form", "--key", "alice", "-o", "alice.signed", cwd=t)
    signed = (t / "alice.signed").read_text()
    (block,) = armor.extract(signed)
    assert block.signature is not None
    # OpenSSH verifies pbem's signature over N(body).
    check = ssh_verify(ssh_keygen, camp / "allowed_signers", "alice", "pbem-orders",
                       block.signature, block.body_bytes, t)
    assert check.returncode == 0, check.stderr
    assert b'Good "pbem-orders" signature for alice' in check.stdout + check.stderr
    # The salt and entropy were refreshed by the signer, not taken from the GM's form.
    assert armor.extract(form)[0].body.split("salt = ")[1][:66] not in signed

    # bob: signs the normalised body with ssh-keygen itself, pastes it into a mail.
    bob_form = real("form", "camp", "--player", "bob", cwd=t).stdout
    body = armor.extract(bob_form)[0].body_bytes
    sig = ssh_sign(ssh_keygen, t / "bob", body, "pbem-orders", t)
    mail = ("Subject: orders\r\n\r\nHello GM,\r\n\r\n" + armor.BEGIN_ORDERS + "\r\n" +
            body.decode().replace("\n", "  \r\n") + armor.END_ORDERS + "\r\n" +
            sig.replace("\n", "\r\n") + "\r\n-- \r\nbob\r\n")
    (t / "bob.eml").write_text(mail)
    verified = real("verify", "bob.eml", "--campaign", "camp", cwd=t).stdout
    commit = hashlib.sha256(b"pbem-commit/1\n" + body).hexdigest()
    assert f"ok: bob t00.join commitment {commit}" in verified
    assert real("commit", "bob.eml", cwd=t).stdout.strip() == commit

    # A forum bot with only the public files checks what it can.
    real("export", "camp", "pub0", cwd=t)
    public = real("verify", "bob.eml", "--campaign", "pub0", cwd=t).stdout
    assert f"ok: bob t00.join commitment {commit}" in public and "GM's state" in public
    out = real("submit", "camp", "alice.signed", "bob.eml", cwd=t).stdout
    assert out.count("receipt:") == 2 and commit in out
    status = real("status", "camp", cwd=t).stdout
    assert f"bob          submitted {commit}" in status
    out = real("adjudicate", "camp", cwd=t).stdout
    assert "wrote ledger record 000001" in out

    # OpenSSH verifies the GM's signatures of campaign.toml and of the record.
    for name in ("campaign.toml", "ledger/000001.toml"):
        check = ssh_verify(ssh_keygen, camp / "allowed_signers", "gm", "pbem-ledger",
                           (camp / f"{name}.sig").read_text(), (camp / name).read_bytes(), t)
        assert check.returncode == 0, (name, check.stderr)
    record = ledger.load((camp / "ledger" / "000001.toml").read_bytes())
    assert record["commitments"]["bob"] == commit
    assert "Sing, Muse" in record["orders"]["alice"]

    report = real("report", "camp", "--player", "alice", cwd=t).stdout
    assert "Your receipt: " + record["commitments"]["alice"] in report
    assert "-----BEGIN PBEM ORDERS-----" in report and 'phase = "r01.pledge"' in report
    gazette = real("report", "camp", cwd=t).stdout
    assert "hand = " not in gazette

    # Play the rest with pbem sign, then audit the GM's copy and the exported public one.
    while "the game is over" not in pbem("status", "camp", cwd=t).stdout:
        status = pbem("status", "camp", cwd=t).stdout
        for line in status.splitlines():
            if line.strip().endswith("missing"):
                player = line.split()[0]
                (t / "f").write_text(pbem("form", "camp", "--player", player, cwd=t).stdout)
                pbem("sign", "f", "--key", player, "-o", "f.signed", cwd=t)
                pbem("submit", "camp", "f.signed", cwd=t)
        pbem("adjudicate", "camp", cwd=t)
    assert "every phase re-adjudicated" in pbem("audit", "camp", cwd=t).stdout
    pbem("export", "camp", "public", cwd=t)
    assert not (t / "public" / "gm").exists()
    assert "every phase re-adjudicated" in pbem("audit", "public", cwd=t).stdout
    explained = pbem("audit", "camp", "--seq", "1", "--explain", cwd=t).stdout
    assert "K    = HMAC-SHA256(s_k, msg)" in explained and "-> value = x % 2 + 1" in explained


def test_version_and_games(tmp_path: Path) -> None:
    from pbem import __version__

    assert pbem("--version", cwd=tmp_path).stdout.strip() == f"pbem {__version__}"
    assert "conformance" in pbem("games", cwd=tmp_path).stdout


@pytest.mark.parametrize(("args", "code", "message"), [
    (["verify", "missing.txt", "--campaign", "nowhere"], 2, "missing.txt: no such file"),
    (["status", "nowhere"], 1, "is not a campaign directory"),
    (["demo", "chess"], 2, "unknown game 'chess'"),
    (["demo", "mythology", "--option", "lesser_evil=maybe"], 2,
     "--option lesser_evil: 'maybe' is not one of off, on"),
    (["demo", "conformance", "--players", "11"], 2, "takes 2 to 10 players"),
    (["simulate", "conformance", "--option", "bogus=1"], 2,
     "conformance has no option 'bogus' (fix: known options: rounds)"),
    (["simulate", "mythology", "--option", "zeus=zoe", "--players", "3"], 2, "--option zeus"),
    (["audit", "nowhere", "--jobs", "0"], 2, "--jobs must be at least 1"),
    (["simulate", "conformance", "--jobs", "0"], 2, "--jobs must be at least 1"),
    (["simulate", "conformance", "--games", "0"], 2, "--games must be at least 1"),
    (["audit", "nowhere", "--explain"], 2, "--explain needs --seq N"),
    (["frobnicate"], 2, "No such command"),
])
def test_user_errors_are_one_line_without_traceback(tmp_path: Path, args: list[str], code: int,
                                                    message: str) -> None:
    proc = pbem(*args, cwd=tmp_path, ok=False)
    assert proc.returncode == code, proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_rejected_file_exits_1_with_where_and_fix(gm_table: Path) -> None:
    t = gm_table
    (t / "bad.txt").write_text("hello\n")
    proc = pbem("submit", "camp", "bad.txt", cwd=t, ok=False)
    assert proc.returncode == 1 and "no order block found" in proc.stderr
    assert "(fix:" in proc.stderr and "Traceback" not in proc.stderr


def test_rsa_gm_key_gets_the_ed25519_message(tmp_path: Path, ssh_keygen: str) -> None:
    subprocess.run([ssh_keygen, "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f",
                    str(tmp_path / "rsa")], check=True)
    pbem("keygen", "alice", cwd=tmp_path)
    proc = pbem("new", "conformance", "c", "--gm-key", "rsa", "--player", "alice=alice.pub",
                "--player", "bob=alice.pub", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "ed25519" in proc.stderr and "Traceback" not in proc.stderr


def test_encrypted_key_without_terminal_is_a_clear_error(tmp_path: Path, ssh_keygen: str) -> None:
    subprocess.run([ssh_keygen, "-q", "-t", "ed25519", "-N", "secret", "-f",
                    str(tmp_path / "locked")], check=True)
    (tmp_path / "f.txt").write_text(ORDER_FILE)
    proc = pbem("sign", "f.txt", "--key", "locked", cwd=tmp_path, ok=False, stdin="")
    assert proc.returncode == 1 and "passphrase" in proc.stderr and "Traceback" not in proc.stderr


def test_encrypted_key_prompts_for_its_passphrase_on_a_terminal(tmp_path: Path,
                                                                ssh_keygen: str) -> None:
    import pty

    subprocess.run([ssh_keygen, "-q", "-t", "ed25519", "-N", "secret", "-f",
                    str(tmp_path / "locked")], check=True)
    (tmp_path / "f.txt").write_text(ORDER_FILE)
    pid, fd = pty.fork()
    if pid == 0:  # the child runs pbem on a real pseudo-terminal
        os.chdir(tmp_path)
        os.execv(sys.executable, [sys.executable, "-m", "pbem", "sign", "f.txt", "--key",
                                  "locked", "-o", "out.txt"])
    seen = b""
    while b"Passphrase for locked" not in seen:
        seen += os.read(fd, 1024)
    os.write(fd, b"secret\n")
    with contextlib.suppress(OSError):  # EIO once the child has exited
        while os.read(fd, 1024):
            pass
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    (block,) = armor.extract((tmp_path / "out.txt").read_text())
    assert block.signature is not None
    pub = (tmp_path / "locked.pub").read_text()
    check = ssh_verify(ssh_keygen, _signers_file(tmp_path, pub), "alice", "pbem-orders",
                       block.signature, block.body_bytes, tmp_path)
    assert check.returncode == 0, check.stderr


def _signers_file(tmp: Path, pub: str) -> Path:
    path = tmp / "allowed_signers"
    path.write_text(f"alice {pub}")
    return path


def test_player_named_gm_is_refused(tmp_path: Path) -> None:
    pbem("keygen", "k", cwd=tmp_path)
    proc = pbem("new", "conformance", "c", "--gm-key", "k", "--player", "gm=k.pub", "--player",
                "bob=k.pub", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "no player may be called 'gm'" in proc.stderr


def test_demo_plays_and_audits_a_whole_campaign(tmp_path: Path) -> None:
    out = pbem("demo", "conformance", "--players", "4", "--seed", "7", "--dir", "d",
               cwd=tmp_path).stdout
    assert "audit passed" in out and "standings:" in out
    again = pbem("demo", "conformance", "--players", "4", "--seed", "7", "--dir", "e",
                 cwd=tmp_path).stdout
    assert again.replace(" e/", " d/") == out
    for name in sorted((tmp_path / "d" / "campaign" / "ledger").iterdir()):
        assert name.read_bytes() == (tmp_path / "e" / "campaign" / "ledger" / name.name
                                     ).read_bytes()


@pytest.mark.parametrize("args", [["status", "--help"], ["sign", "--help"], ["status"],
                                  ["player-email", "--help"], ["mail-settings", "--bogus"]])
def test_a_command_built_alone_reads_as_in_the_whole_group(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """`pbem CMD` builds only CMD's click command (start-up time, issue 20): its help, usage
    and errors must be the bytes the whole group gives."""
    from pbem.cli import app as app_mod

    def run(group: object) -> tuple[int, str, str]:
        try:
            code = group(args=args, prog_name="pbem", standalone_mode=False)  # type: ignore[operator]
        except SystemExit as exc:  # pragma: no cover - non-standalone mode returns instead
            code = exc.code
        except Exception as exc:
            code = type(exc).__name__ + ": " + str(exc)
        out = capsys.readouterr()
        return code, out.out, out.err

    alone = app_mod._app_for(args)
    assert alone is not app_mod.app and len(alone.registered_commands) == 1
    assert run(alone) == run(app_mod.app)


def test_14_demo_prints_a_line_per_turn_the_standings_and_next_commands_that_run(
        tmp_path: Path) -> None:
    """Issue 14, the demo and first steps: progress by turn with the phases' names, the final
    standings as a table, and the next commands with the real paths, each of which works."""
    out = pbem("demo", "conformance", "--players", "3", "--seed", "7", "--dir", "d",
               "--jobs", "1", cwd=tmp_path).stdout
    lines = out.splitlines()
    assert "record 000002 adjudicated" not in out
    assert "  t00  join  (record 1)" in lines
    assert any(line.startswith("  r01  pledge, forecast, voyage") for line in lines), out
    table = lines[lines.index("standings:") + 1:lines.index("standings:") + 4]
    assert [line.split()[1] for line in table] == sorted(
        (line.split()[1] for line in table),
        key=lambda p: -int(next(x.split()[2] for x in table if x.split()[1] == p)))
    commands = [line.strip() for line in lines if line.startswith("  pbem ")]
    assert [c.split()[1] for c in commands] == ["report", "site", "audit"]
    assert all(len(line) <= 78 for line in lines if not line.startswith("  pbem ")
               and "d/campaign" not in line and "d/keys" not in line), out
    for command in commands:
        args = command.split()[1:]
        assert "d/campaign" in command  # the real paths of this demo, as given
        done = pbem(*args, cwd=tmp_path)
        assert done.returncode == 0, (command, done.stderr)
    assert (tmp_path / "d" / "site" / "index.html").is_file()

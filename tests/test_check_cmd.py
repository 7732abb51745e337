"""Issue 12 section 7: ``pbem check`` (a player checks a file before sending it, without the
campaign), ``pbem sign`` refusing a broken file, a key given twice at ``pbem new``, signing
with ssh-agent, and the STARTTLS hint."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.channels import smtp
from pbem.core import armor, formcheck, sshsig
from pbem.core.errors import OrderSyntaxError, PbemError
from pbem.core.forms import render_form
from pbem.core.resources import share_dir
from pbem.core.ruleset import PhaseSpec
from pbem.core.signing import sign_text
from tests.conftest import run_pbem as pbem
from tests.conftest import seeded_key

ROOT = Path(__file__).resolve().parent.parent
SALT = "a" * 64


def _form(game: str, kind: str, phase_id: str, orders: str | None = None) -> str:
    text = orders if orders is not None else (share_dir("orders") / game /
                                              f"{kind}.toml").read_text()
    return render_form(f"demo-{game}", "alice", PhaseSpec(phase_id, kind, ("alice",)), text,
                       SALT, SALT)


def _problems(text: str, game: str | None = None) -> list[str]:
    return [str(p) for r in formcheck.check_text(text, "f.txt", game) for p in r.problems]


# --- pbem check -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["conformance", "mythology", "cyclades"])
def test_every_blank_form_passes_check(game: str) -> None:
    for path in sorted((share_dir("orders") / game).glob("*.toml")):
        kind = path.stem
        phase = {"conformance": f"r01.{kind}", "mythology": f"t01.{kind}.alice",
                 "cyclades": f"c01.{kind}.zeus"}[game]
        if kind == "join":
            phase = "t00.join"
        assert _problems(_form(game, kind, phase), game) == [], (game, kind)


def test_every_order_file_of_the_example_ledgers_passes_check() -> None:
    """Every order a bot sent in the three example campaigns (359 files, every phase kind the
    bots use) fits its form: the check has no false alarm on real orders."""
    n = 0
    for path in sorted(ROOT.glob("examples/*/ledger/*.toml")):
        record = tomllib.loads(path.read_text())
        game = tomllib.loads((path.parent.parent / "campaign.toml").read_text())["game"]
        texts = list(record.get("orders", {}).values()) + [
            r["text"] for r in record.get("revealed", [])]
        for text in texts:
            n += 1
            for report in formcheck.check_text(text, path.name, game):
                assert report.problems == [], (path, report.problems)
                assert report.signed and "match the form" in report.notes[-1], path
    assert n > 300


def test_check_names_unknown_keys_and_wrong_types_with_their_lines() -> None:
    text = _form("mythology", "logsheet", "t03.logsheet",
                 'card = 24\noracle = "true"\nzues = 1\n\n[orders.heroes]\n12 = "3"\n'
                 'x = 1\n\n[[orders.challenge]]\nunit = 12\nlimt = 3\n')
    lines = text.split("\n")
    got = _problems(text)
    card = lines.index("card = 24") + 1
    assert f'line {card}: [orders] card: is a whole number, not a string (fix: ids and ' \
           f'names are strings: write "24")' in got
    oracle = lines.index('oracle = "true"') + 1
    assert any(f"line {oracle}: [orders] oracle: is a string, "
               "not true or false (fix: write true without quotes)" in g for g in got)
    assert any("[orders] zues: is not a key of the logsheet form (fix: did you mean 'zeus'?)"
               in g for g in got)
    assert any("[orders.heroes] 12: is a string, not a whole number (fix: numbers are written "
               "without quotes: write 3)" in g for g in got)
    assert any("[orders.heroes] x: is not a number" in g for g in got)
    limt = lines.index("limt = 3") + 1
    assert any(g.startswith(f"line {limt}: [orders.challenge #1] limt: is not a key") and
               "did you mean 'limit'?" in g for g in got)
    assert len(got) == 6


def test_check_list_items_and_tables() -> None:
    text = _form("mythology", "move", "t02.move.alice",
                 '[[orders.attempt]]\nunit = 12\npath = [3011, "2911"]\n')
    path = text.split("\n").index('path = [3011, "2911"]') + 1
    assert _problems(text) == [
        f"line {path}: [orders.attempt #1] "
        'path item 1: is a whole number, not a string (fix: ids and names are strings: '
        'write "3011")']
    text = _form("mythology", "move", "t02.move.alice", "attempt = 3\n")
    assert "is a whole number, not a list of tables" in _problems(text)[0]


def test_check_a_syntax_error_gives_the_line_of_the_file() -> None:
    text = _form("conformance", "join", "t00.join", 'motto = "Sing, Muse\n')
    line = next(n for n, x in enumerate(text.split("\n"), 1) if x.startswith("motto"))
    (got,) = _problems(text)
    assert f"not valid TOML: Illegal character '\\n' (at line {line} of the file" in got


def test_check_signed_file_and_a_changed_one() -> None:
    signed = sign_text(_form("conformance", "pledge", "r01.pledge", "pledge = 3\n"),
                       seeded_key("alice"))
    (report,) = formcheck.check_text(signed, "s.txt")
    fp = sshsig.fingerprint(seeded_key("alice").public_key().public_bytes_raw())
    assert report.problems == [] and report.signed and fp in report.notes[0]
    changed = signed.replace("pledge = 3", "pledge = 4")
    (report,) = formcheck.check_text(changed, "s.txt")
    assert report.problems and "signature does not match these bytes" in str(report.problems[0])


def test_check_command_exit_codes_and_messages(tmp_path: Path) -> None:
    good = _form("conformance", "voyage", "r01.voyage", "dice = 2\n")
    (tmp_path / "good.txt").write_text(good)
    out = pbem("check", "good.txt", cwd=tmp_path).stdout
    assert "ok: good.txt: alice r01.voyage" in out and "not signed yet" in out
    assert "orders/conformance/voyage.toml" in out
    (tmp_path / "bad.txt").write_text(good.replace("dice = 2", 'dice = "2"'))
    proc = pbem("check", "bad.txt", cwd=tmp_path, ok=False)
    assert proc.returncode == 1
    line = good.split("\n").index("dice = 2") + 1
    assert f"bad.txt: line {line}: [orders] dice: is a string, not a whole number" in \
        proc.stderr
    (tmp_path / "env.txt").write_text(good.replace('player = "alice"', 'player = "Alice"'))
    proc = pbem("check", "env.txt", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "[envelope] player: 'Alice' is not a player name" in \
        proc.stderr
    proc = pbem("check", "-", cwd=tmp_path, ok=False, stdin="no block here")
    assert proc.returncode == 1 and "no order block found" in proc.stderr
    assert "Traceback" not in proc.stderr
    unknown = good.replace('phase = "r01.voyage"', 'phase = "r01.party"')
    (tmp_path / "unknown.txt").write_text(unknown)
    assert "names no order form" in pbem("check", "unknown.txt", cwd=tmp_path).stdout


# --- pbem sign refuses what it cannot be right to sign ---------------------------------------


def test_sign_refuses_broken_toml_and_a_broken_envelope(tmp_path: Path) -> None:
    pbem("keygen", "alice", cwd=tmp_path)
    good = _form("conformance", "join", "t00.join")
    (tmp_path / "toml.txt").write_text(good.replace('motto = ""', 'motto = "Sing'))
    proc = pbem("sign", "toml.txt", "--key", "alice", "-o", "out.txt", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "not valid TOML" in proc.stderr
    assert "of the file" in proc.stderr and not (tmp_path / "out.txt").exists()
    (tmp_path / "env.txt").write_text(good.replace('format = "pbem-orders/1"\n', ""))
    proc = pbem("sign", "env.txt", "--key", "alice", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "[envelope] format: missing" in proc.stderr
    assert proc.stdout == ""
    with pytest.raises(OrderSyntaxError):
        sign_text(good.replace("[envelope]", "[envelop]"), seeded_key("alice"))


# --- pbem new: one key, one party ------------------------------------------------------------


def test_new_refuses_a_key_given_twice_or_the_gms(tmp_path: Path) -> None:
    for name in ("gm", "a", "b"):
        pbem("keygen", name, cwd=tmp_path)
    proc = pbem("new", "conformance", "c1", "--gm-key", "gm", "--player", "a=a.pub",
                "--player", "b=a.pub", cwd=tmp_path, ok=False)
    assert proc.returncode == 1
    assert "--player a, b: the same public key (SHA256:" in proc.stderr
    line = (tmp_path / "gm.pub").read_text().strip()
    proc = pbem("new", "conformance", "c2", "--gm-key", "gm", "--player", "a=a.pub",
                "--player", f"b={line}", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "--player b: has the GM's key" in proc.stderr
    assert not (tmp_path / "c1").exists() and not (tmp_path / "c2").exists()


# --- pbem sign --key KEY.pub ---------------------------------------------------------------


def test_sign_with_a_public_key_points_to_the_agent_route(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)  # no agent: the private key is asked
    pbem("keygen", "alice", cwd=tmp_path)
    (tmp_path / "f.txt").write_text(_form("conformance", "join", "t00.join"))
    proc = pbem("sign", "f.txt", "--key", "alice.pub", cwd=tmp_path, ok=False)
    assert proc.returncode == 1 and "give alice, without .pub" in proc.stderr
    (tmp_path / "alice").rename(tmp_path / "away")
    env = {k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"}
    proc = subprocess.run(["pbem", "sign", "f.txt", "--key", "alice.pub"], cwd=tmp_path,
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 1
    assert "ssh-add alice" in proc.stderr
    assert "ssh-keygen -Y sign -f alice.pub -n pbem-orders" in proc.stderr
    assert "docs/protocol.md" in proc.stderr


def test_sign_through_ssh_agent(tmp_path: Path, ssh_keygen: str) -> None:
    agent, add = shutil.which("ssh-agent"), shutil.which("ssh-add")
    if agent is None or add is None:
        pytest.skip("OpenSSH's ssh-agent is not installed")
    sock = tmp_path / "agent.sock"
    proc = subprocess.Popen([agent, "-D", "-a", str(sock)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if sock.exists():
                break
            import time

            time.sleep(0.05)
        env = {**os.environ, "SSH_AUTH_SOCK": str(sock)}
        subprocess.run([ssh_keygen, "-q", "-t", "ed25519", "-N", "", "-f",
                        str(tmp_path / "alice")], check=True)
        subprocess.run([add, "-q", str(tmp_path / "alice")], env=env, check=True,
                       capture_output=True)
        (tmp_path / "f.txt").write_text(_form("conformance", "join", "t00.join"))
        # The usual ~/.ssh layout, the private key beside the .pub: the agent signs.
        done = subprocess.run(["pbem", "sign", "f.txt", "--key", "alice.pub"], cwd=tmp_path,
                              env=env, capture_output=True, text=True)
        assert done.returncode == 0 and "-----END SSH SIGNATURE-----" in done.stdout, \
            done.stderr
        (tmp_path / "alice").rename(tmp_path / "elsewhere")  # only the agent has it now
        (tmp_path / "f.txt").write_text(_form("conformance", "join", "t00.join"))
        done = subprocess.run(["pbem", "sign", "f.txt", "--key", "alice.pub", "-o",
                               "f.signed"], cwd=tmp_path, env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
    finally:
        proc.terminate()
        proc.wait(10)
    (block,) = armor.extract((tmp_path / "f.signed").read_text())
    assert block.signature is not None and SALT not in block.body  # fresh salt
    from pbem.core.keys import load_public_key

    sshsig.verify(block.body_bytes, sshsig.parse_armor(block.signature),
                  sshsig.NAMESPACE_ORDERS, [load_public_key(str(tmp_path / "alice.pub"))])


# --- the STARTTLS hint -----------------------------------------------------------------------


def _tls_server(tmp: Path) -> tuple[Any, Path]:
    from tests.test_mail import Inbox, LoopbackController, _self_signed

    cert, key = _self_signed(tmp)
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(str(cert), str(key))
    controller = LoopbackController(Inbox(), hostname="127.0.0.1", port=0, tls_context=tls,
                                    require_starttls=True)
    controller.start()
    return controller, cert


def test_starttls_hint_says_cafile_only_when_it_was_not_given(tmp_path: Path) -> None:
    from tests.test_mail import _self_signed

    controller, _ = _tls_server(tmp_path)
    (tmp_path / "other").mkdir()
    other, _ = _self_signed(tmp_path / "other")
    try:
        none = smtp.SmtpConfig("127.0.0.1", controller.port, starttls=True, timeout=20)
        with pytest.raises(PbemError, match=r"TLS failed .*give --cafile"):
            smtp._connect(none)
        given = smtp.SmtpConfig("127.0.0.1", controller.port, starttls=True, timeout=20,
                                context=ssl.create_default_context(cafile=str(other)),
                                cafile=str(other))
        with pytest.raises(PbemError) as err:
            smtp._connect(given)
        assert "give --cafile" not in str(err.value)
        assert f"not signed by --cafile {other}" in str(err.value)
    finally:
        controller.stop()


def test_mail_command_passes_cafile_to_the_hint(tmp_path: Path) -> None:
    from tests.conftest import make_table
    from tests.test_mail import _self_signed

    controller, _ = _tls_server(tmp_path)
    (tmp_path / "other").mkdir()
    other, _ = _self_signed(tmp_path / "other")
    t = make_table(tmp_path / "camp", rounds="1")
    t.play_phases(1)
    for p in t.campaign.players:
        pbem("player-email", "camp", p, f"{p}@example.org", cwd=tmp_path)
    pbem("mail-settings", "camp", "--from", "GM <gm@example.org>", cwd=tmp_path)
    try:
        proc = pbem("mail", "camp", "--smtp", f"127.0.0.1:{controller.port}", "--starttls",
                    "--cafile", str(other), cwd=tmp_path, ok=False)
    finally:
        controller.stop()
    assert proc.returncode == 1 and "TLS failed" in proc.stderr
    assert "give --cafile" not in proc.stderr and "not signed by --cafile" in proc.stderr
    proc = pbem("mail", "camp", "--smtp", "127.0.0.1:1", "--starttls", "--cafile",
                "missing.pem", cwd=tmp_path, ok=False)
    assert proc.returncode == 2 and "--cafile missing.pem: no such file" in proc.stderr


def test_games_registry_is_what_check_searches() -> None:
    assert {name for name, _ in formcheck.forms_for("t00.join")} >= {
        n for n in games.names() if (share_dir("orders") / n / "join.toml").is_file()}


def test_the_raw_ssh_keygen_route_of_the_protocol_runs_as_written(tmp_path: Path,
                                                                  ssh_keygen: str) -> None:
    text = (ROOT / "docs" / "protocol.md").read_text()
    section = text.split("### Signing with ssh-keygen by hand", 1)[1]
    script = section.split("```sh\n", 1)[1].split("```", 1)[0]
    assert "openssl rand -hex 32" in script and "-n pbem-orders" in script
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    subprocess.run([ssh_keygen, "-q", "-t", "ed25519", "-N", "", "-f",
                    str(home / ".ssh" / "id_ed25519")], check=True)
    form = _form("conformance", "voyage", "r01.voyage", "dice = 3   \n\n")
    (tmp_path / "form.txt").write_text("Hello GM,\r\n\r\n" + form.replace("\n", "\r\n"))
    env = {k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"}
    done = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, env={**env, "HOME": str(home)})
    assert done.returncode == 0, done.stderr
    signed = (tmp_path / "signed.txt").read_text()
    (block,) = armor.extract(signed)
    assert SALT not in block.body and "dice = 3\n" in block.body  # fresh salt and entropy
    from pbem.core.keys import load_public_key

    sshsig.verify(block.body_bytes, sshsig.parse_armor(str(block.signature)),
                  sshsig.NAMESPACE_ORDERS,
                  [load_public_key(str(home / ".ssh" / "id_ed25519.pub"))])
    assert (tmp_path / "body").read_bytes() == block.body_bytes  # N(body), byte for byte
    pbem("check", "signed.txt", cwd=tmp_path)

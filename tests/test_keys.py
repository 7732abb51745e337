"""Tests of pbem.core.keys: key files as ssh-keygen writes and reads them, and allowed_signers.

Keys made by the real ``ssh-keygen`` (plain, passphrase-protected, RSA, ECDSA) must load or be
refused with a message that says what to do; keys pbem writes must be accepted by ssh-keygen.
"""

from __future__ import annotations

import base64
import os
import shutil
import stat
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.errors import KeyFileError, SignatureError
from pbem.core.keys import (
    AllowedSigners,
    SignerEntry,
    generate_key,
    key_from_seed,
    load_private_key,
    load_public_key,
    parse_public_key,
    private_key_text,
    public_key_line,
    write_keypair,
)
from pbem.core.sshsig import NAMESPACE_LEDGER, NAMESPACE_ORDERS, sign, verify
from tests.budget import examples

SSH_KEYGEN = shutil.which("ssh-keygen")
# .ci/run installs openssh-client: a missing ssh-keygen is a failure, never a silent skip.
needs_ssh_keygen = pytest.mark.usefixtures("ssh_keygen")
FUZZ = settings(max_examples=examples(300), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

# RFC 8032, section 7.1, test 1: the seed and the public key it must give.
RFC_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
RFC_PUBLIC = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")

ALICE = key_from_seed(bytes(range(32)))
ALICE_PUB = ALICE.public_key().public_bytes_raw()
BOB_PUB = key_from_seed(bytes(range(1, 33))).public_key().public_bytes_raw()
CAROL_PUB = key_from_seed(bytes(range(2, 34))).public_key().public_bytes_raw()


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    assert SSH_KEYGEN is not None
    return subprocess.run(
        [SSH_KEYGEN, *args], capture_output=True, text=True, timeout=60, check=False
    )


def ssh_keygen_key(path: Path, *args: str) -> Path:
    result = run(["-q", *args, "-f", str(path)])
    assert result.returncode == 0, result.stderr
    return path


def never_called() -> str:
    raise AssertionError("the passphrase callback must not be called for this key")


# --- making and writing keys -----------------------------------------------------------------


def test_key_from_seed_is_deterministic_and_correct() -> None:
    assert key_from_seed(RFC_SEED).public_key().public_bytes_raw() == RFC_PUBLIC
    assert key_from_seed(RFC_SEED).private_bytes_raw() == RFC_SEED
    assert private_key_text(key_from_seed(RFC_SEED)) == private_key_text(key_from_seed(RFC_SEED))
    with pytest.raises(KeyFileError, match="32 bytes"):
        key_from_seed(b"\x00" * 31)


def test_generate_key_is_random() -> None:
    first, second = generate_key(), generate_key()
    assert isinstance(first, Ed25519PrivateKey)
    assert first.private_bytes_raw() != second.private_bytes_raw()


def test_public_key_line_format() -> None:
    line = public_key_line(RFC_PUBLIC, "alice@example")
    key_type, encoded, comment = line.split(" ")
    assert key_type == "ssh-ed25519"
    assert comment == "alice@example"
    blob = base64.b64decode(encoded)
    assert blob == b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + RFC_PUBLIC
    assert public_key_line(key_from_seed(RFC_SEED).public_key()) == f"ssh-ed25519 {encoded}"
    assert parse_public_key(line) == RFC_PUBLIC
    with pytest.raises(KeyFileError, match="line break"):
        public_key_line(RFC_PUBLIC, "alice\nbob ssh-ed25519 AAAA")


def test_private_key_text_loads_in_cryptography_and_pbem(tmp_path: Path) -> None:
    text = private_key_text(ALICE, "alice@example")
    assert text.startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----\n")
    assert text.endswith(b"-----END OPENSSH PRIVATE KEY-----\n")
    body = text.splitlines()[1:-1]
    assert all(len(line) == 70 for line in body[:-1]) and 0 < len(body[-1]) <= 70
    loaded = serialization.load_ssh_private_key(text, None)
    assert isinstance(loaded, Ed25519PrivateKey)
    assert loaded.private_bytes_raw() == ALICE.private_bytes_raw()
    path = tmp_path / "key"
    path.write_bytes(text)
    assert load_private_key(path, never_called).private_bytes_raw() == ALICE.private_bytes_raw()


def test_write_keypair_modes_and_contents(tmp_path: Path) -> None:
    path = tmp_path / "alice"
    write_keypair(path, ALICE, "alice@example")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    pub = tmp_path / "alice.pub"
    assert stat.S_IMODE(pub.stat().st_mode) == 0o644
    assert pub.read_text() == public_key_line(ALICE_PUB, "alice@example") + "\n"
    assert load_private_key(path).private_bytes_raw() == ALICE.private_bytes_raw()
    assert load_public_key(str(pub)) == ALICE_PUB


def test_write_keypair_modes_do_not_depend_on_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        write_keypair(tmp_path / "alice", ALICE)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "alice").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "alice.pub").stat().st_mode) == 0o644


def test_write_keypair_leaves_no_half_pair(tmp_path: Path) -> None:
    # A name whose .pub is one character too long for the file system: the private key can be
    # written, its .pub cannot, and the private key must not be left behind alone.
    name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
    path = tmp_path / ("k" * (name_max - 3))
    with pytest.raises(KeyFileError, match="cannot write"):
        write_keypair(path, ALICE)
    assert list(tmp_path.iterdir()) == []


def test_write_keypair_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "alice"
    path.write_text("precious")
    with pytest.raises(KeyFileError, match="already exists"):
        write_keypair(path, ALICE)
    assert path.read_text() == "precious"
    assert not (tmp_path / "alice.pub").exists()

    # A stray .pub alone also stops it, and no half key pair is left behind.
    other = tmp_path / "bob"
    (tmp_path / "bob.pub").write_text("old public key\n")
    with pytest.raises(KeyFileError, match="already exists"):
        write_keypair(other, ALICE)
    assert not other.exists()
    assert (tmp_path / "bob.pub").read_text() == "old public key\n"


def test_write_keypair_into_missing_directory_is_a_key_file_error(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError, match="cannot write"):
        write_keypair(tmp_path / "no" / "such" / "dir" / "key", ALICE)


@needs_ssh_keygen
def test_ssh_keygen_derives_the_same_public_line(tmp_path: Path) -> None:
    path = tmp_path / "alice"
    write_keypair(path, ALICE, "alice@example")
    result = run(["-y", "-f", str(path)])
    assert result.returncode == 0, result.stderr
    assert result.stdout == public_key_line(ALICE_PUB, "alice@example") + "\n"
    fingerprint = run(["-l", "-f", str(path)])
    assert fingerprint.returncode == 0 and "(ED25519)" in fingerprint.stdout


@needs_ssh_keygen
def test_private_key_text_matches_ssh_keygen_layout(tmp_path: Path) -> None:
    path = ssh_keygen_key(tmp_path / "id_ed25519", "-t", "ed25519", "-N", "", "-C", "me@host")
    theirs = path.read_bytes()
    ours = private_key_text(load_private_key(path), "me@host")
    assert [len(line) for line in ours.splitlines()] == [len(line) for line in theirs.splitlines()]
    a = base64.b64decode(b"".join(ours.splitlines()[1:-1]))
    b = base64.b64decode(b"".join(theirs.splitlines()[1:-1]))
    assert len(a) == len(b)
    # Only the two random "check" integers of ssh-keygen may differ; they start at byte 98.
    assert all(98 <= i < 106 for i in range(len(a)) if a[i] != b[i])
    assert a[98:102] == a[102:106]


@needs_ssh_keygen
def test_ssh_keygen_signs_with_a_pbem_written_key(tmp_path: Path) -> None:
    path = tmp_path / "alice"
    write_keypair(path, ALICE)
    msg = tmp_path / "orders.toml"
    msg.write_bytes(b"[orders]\n")
    result = run(["-Y", "sign", "-f", str(path), "-n", NAMESPACE_ORDERS, str(msg)])
    assert result.returncode == 0, result.stderr
    sig_text = (tmp_path / "orders.toml.sig").read_text()
    assert sig_text == sign(b"[orders]\n", ALICE, NAMESPACE_ORDERS).armor()


# --- loading keys made by ssh-keygen ----------------------------------------------------------


@needs_ssh_keygen
def test_plain_ssh_keygen_key_loads_without_asking(tmp_path: Path) -> None:
    path = ssh_keygen_key(tmp_path / "id_ed25519", "-t", "ed25519", "-N", "", "-C", "c")
    key = load_private_key(path, never_called)
    expected = load_public_key(str(path) + ".pub")
    assert key.public_key().public_bytes_raw() == expected
    message = b"orders"
    verify(message, sign(message, key, NAMESPACE_ORDERS), NAMESPACE_ORDERS, [expected])


@needs_ssh_keygen
def test_passphrase_protected_key(tmp_path: Path) -> None:
    path = ssh_keygen_key(tmp_path / "id_ed25519", "-t", "ed25519", "-N", "secret")
    expected = load_public_key(str(path) + ".pub")
    asked: list[int] = []

    def ask() -> str:
        asked.append(1)
        return "secret"

    assert load_private_key(path, ask).public_key().public_bytes_raw() == expected
    assert asked == [1]

    with pytest.raises(KeyFileError) as no_terminal:
        load_private_key(path, None)
    message = str(no_terminal.value)
    assert "protected by a passphrase" in message
    assert "no terminal" in message
    assert "ssh-keygen -p" in message

    with pytest.raises(KeyFileError, match="wrong passphrase"):
        load_private_key(path, lambda: "not the secret")
    with pytest.raises(KeyFileError, match="empty"):
        load_private_key(path, lambda: "")


@needs_ssh_keygen
@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["-t", "rsa", "-b", "2048", "-N", ""], "an RSA key"),
        (["-t", "ecdsa", "-N", ""], "an ECDSA key"),
        (["-t", "ecdsa", "-N", "secret"], "an ECDSA key"),  # named without asking
        (["-t", "ecdsa", "-N", "", "-m", "PEM"], "an ECDSA key"),
    ],
    ids=["rsa", "ecdsa", "ecdsa-encrypted", "ecdsa-pem"],
)
def test_other_key_types_are_refused_clearly(tmp_path: Path, args: list[str], kind: str) -> None:
    path = ssh_keygen_key(tmp_path / "key", *args)
    with pytest.raises(KeyFileError) as info:
        load_private_key(path, never_called)
    assert str(info.value) == (
        f"{path} is {kind}; pbem signs with ed25519 keys only: "
        "make one with `pbem keygen PATH` or `ssh-keygen -t ed25519`"
    )
    with pytest.raises(KeyFileError, match="use an ed25519 key"):
        load_public_key(str(path) + ".pub")


def test_pkcs8_pem_keys_load(tmp_path: Path) -> None:
    plain = tmp_path / "plain.pem"
    plain.write_bytes(
        ALICE.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    assert load_private_key(plain, never_called).private_bytes_raw() == ALICE.private_bytes_raw()
    encrypted = tmp_path / "encrypted.pem"
    encrypted.write_bytes(
        ALICE.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"pw"),
        )
    )
    assert (
        load_private_key(encrypted, lambda: "pw").private_bytes_raw() == ALICE.private_bytes_raw()
    )
    with pytest.raises(KeyFileError, match="wrong passphrase"):
        load_private_key(encrypted, lambda: "nope")
    with pytest.raises(KeyFileError, match="no terminal"):
        load_private_key(encrypted)


def test_missing_garbage_and_public_files_give_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError, match="no such key file"):
        load_private_key(tmp_path / "nope")
    with pytest.raises(KeyFileError, match="is a directory"):
        load_private_key(tmp_path)

    garbage = tmp_path / "garbage"
    garbage.write_bytes(os.urandom(300))
    with pytest.raises(KeyFileError, match="not a private key file"):
        load_private_key(garbage)
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    with pytest.raises(KeyFileError, match="not a private key file"):
        load_private_key(empty)

    write_keypair(tmp_path / "alice", ALICE)
    with pytest.raises(KeyFileError) as info:
        load_private_key(tmp_path / "alice.pub")
    assert "is a public key" in str(info.value)
    assert str(tmp_path / "alice") + ", without .pub" in str(info.value)

    damaged = tmp_path / "damaged"
    text = private_key_text(ALICE).decode()
    damaged.write_text(text.replace(text.splitlines()[2], "!!!!"))
    with pytest.raises(KeyFileError, match="damaged"):
        load_private_key(damaged)

    huge = tmp_path / "huge"
    huge.write_bytes(b"A" * 200_000)
    with pytest.raises(KeyFileError, match="too large"):
        load_private_key(huge)


@FUZZ
@given(st.binary(max_size=600))
def test_fuzz_load_private_key_only_key_file_errors(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "key"
    for content in (
        data,
        b"-----BEGIN OPENSSH PRIVATE KEY-----\n"
        + base64.b64encode(b"openssh-key-v1\x00" + data)
        + b"\n-----END OPENSSH PRIVATE KEY-----\n",
    ):
        path.write_bytes(content)
        try:
            load_private_key(path, lambda: "pw")
        except KeyFileError as exc:
            assert str(exc)


# --- public keys -----------------------------------------------------------------------------


def test_parse_public_key_accepts_lines_and_file_contents() -> None:
    line = public_key_line(ALICE_PUB)
    assert parse_public_key(line) == ALICE_PUB
    assert parse_public_key(line + " alice@example with spaces") == ALICE_PUB
    assert parse_public_key("\n# my key\n  " + line + "  \r\n") == ALICE_PUB


def wire(*fields: bytes) -> str:
    return base64.b64encode(b"".join(len(f).to_bytes(4, "big") + f for f in fields)).decode()


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "no key line"),
        ("ssh-ed25519", "no key"),
        ("hello world", "not a public key line"),
        ("ssh-rsa AAAAB3NzaC1yc2E alice", "RSA key; use an ed25519 key"),
        ("ecdsa-sha2-nistp256 AAAA", "ECDSA key; use an ed25519 key"),
        ("ssh-ed25519 !!!!", "base64 is damaged"),
        ("ssh-ed25519 " + wire(b"ssh-rsa", bytes(32)), "not an ed25519 key"),
        ("ssh-ed25519 " + wire(b"ssh-ed25519", bytes(31)), "31 bytes"),
        ("ssh-ed25519 " + wire(b"ssh-ed25519", bytes(33)), "33 bytes"),
        ("ssh-ed25519 " + wire(b"ssh-ed25519", bytes(32), b"x"), "extra bytes"),
        ("ssh-ed25519 " + wire(b"ssh-ed25519")[:-4], "cut short"),
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5/////w==", "cut short"),
        (public_key_line(ALICE_PUB) + "\n" + public_key_line(BOB_PUB), "2 lines"),
    ],
)
def test_parse_public_key_rejects(text: str, match: str) -> None:
    with pytest.raises(KeyFileError, match=match):
        parse_public_key(text)


def test_parse_public_key_never_echoes_a_private_key() -> None:
    secret = private_key_text(ALICE).decode()
    with pytest.raises(KeyFileError, match="private key") as info:
        parse_public_key(secret)
    for line in secret.splitlines()[1:-1]:
        assert line not in str(info.value)


def test_load_public_key_reads_a_file_or_a_line(tmp_path: Path) -> None:
    pub = tmp_path / "alice.pub"
    pub.write_text(public_key_line(ALICE_PUB, "alice") + "\n")
    assert load_public_key(str(pub)) == ALICE_PUB
    assert load_public_key(public_key_line(BOB_PUB)) == BOB_PUB
    with pytest.raises(KeyFileError, match="not a public key line"):
        load_public_key(str(tmp_path / "missing.pub"))
    private = tmp_path / "alice"
    private.write_bytes(private_key_text(ALICE))
    with pytest.raises(KeyFileError, match="this is a private key"):
        load_public_key(str(private))


@FUZZ
@given(st.text(max_size=300))
def test_fuzz_parse_public_key_only_key_file_errors(text: str) -> None:
    for candidate in (text, "ssh-ed25519 " + text):
        try:
            parse_public_key(candidate)
        except KeyFileError as exc:
            assert str(exc)


# --- allowed_signers -------------------------------------------------------------------------

ALLOWED = f"""\
# campaign "Labours", players and their keys

alice,alice@example.org namespaces="pbem-orders,pbem-ledger" {public_key_line(ALICE_PUB)} laptop
bob NAMESPACES="pbem-orders" {public_key_line(BOB_PUB)}
   gm   {public_key_line(CAROL_PUB, "game master")}
dave ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 dave@rsa
*@example.org cert-authority {public_key_line(CAROL_PUB)}
"erin" valid-after="20200101",valid-before="20300101Z" {public_key_line(BOB_PUB)}
\t# indented comment
"""


def test_allowed_signers_parse() -> None:
    signers = AllowedSigners.parse(ALLOWED)
    assert signers.entries[:3] == (
        SignerEntry(("alice", "alice@example.org"), ("pbem-orders", "pbem-ledger"), ALICE_PUB),
        SignerEntry(("bob",), ("pbem-orders",), BOB_PUB),
        SignerEntry(("gm",), None, CAROL_PUB),
    )
    # dave's RSA key and the certificate authority line are skipped, erin's line is kept.
    assert len(signers.entries) == 4
    erin = signers.entries[3]
    assert erin.principals == ("erin",)
    assert erin.valid_before == datetime(2030, 1, 1, tzinfo=UTC)
    assert erin.valid_after is not None and erin.valid_after.year == 2020


def test_keys_for_respects_principals_and_namespaces() -> None:
    signers = AllowedSigners.parse(ALLOWED)
    assert signers.keys_for("alice", NAMESPACE_ORDERS) == [ALICE_PUB]
    assert signers.keys_for("alice@example.org", NAMESPACE_LEDGER) == [ALICE_PUB]
    assert signers.keys_for("bob", NAMESPACE_ORDERS) == [BOB_PUB]
    assert signers.keys_for("bob", NAMESPACE_LEDGER) == []  # bob may sign orders only
    assert signers.keys_for("gm", "anything-at-all") == [CAROL_PUB]
    assert signers.keys_for("dave", NAMESPACE_ORDERS) == []
    # The cert-authority pattern line must not make carol's key a key of everyone@example.org.
    assert signers.keys_for("zed@example.org", NAMESPACE_ORDERS) == []
    assert signers.keys_for("Alice", NAMESPACE_ORDERS) == []  # principals are case-sensitive
    assert signers.principals_for(ALICE_PUB, NAMESPACE_ORDERS) == ["alice", "alice@example.org"]
    # bob's key is also erin's, whose line ends in 2030 but allows every namespace.
    later = datetime(2035, 1, 1, tzinfo=UTC)
    assert signers.principals_for(BOB_PUB, NAMESPACE_LEDGER, at=later) == []
    assert signers.principals_for(BOB_PUB, NAMESPACE_ORDERS, at=later) == ["bob"]


def test_validity_window() -> None:
    signers = AllowedSigners.parse(ALLOWED)
    inside = datetime(2025, 6, 1, tzinfo=UTC)
    assert signers.keys_for("erin", NAMESPACE_ORDERS, at=inside) == [BOB_PUB]
    assert signers.keys_for("erin", NAMESPACE_ORDERS, at=datetime(2019, 1, 1, tzinfo=UTC)) == []
    assert signers.keys_for("erin", NAMESPACE_ORDERS, at=datetime(2031, 1, 1)) == []
    assert signers.principals_for(BOB_PUB, NAMESPACE_LEDGER, at=inside) == ["erin"]


def test_patterns_follow_openssh() -> None:
    text = (
        f"*@example.org,!mallory@example.org {public_key_line(ALICE_PUB)}\n"
        f'player-? namespaces="pbem-*" {public_key_line(BOB_PUB)}\n'
    )
    signers = AllowedSigners.parse(text)
    assert signers.keys_for("zed@example.org", NAMESPACE_ORDERS) == [ALICE_PUB]
    assert signers.keys_for("mallory@example.org", NAMESPACE_ORDERS) == []
    assert signers.keys_for("player-1", NAMESPACE_LEDGER) == [BOB_PUB]
    assert signers.keys_for("player-10", NAMESPACE_LEDGER) == []
    assert signers.keys_for("player-1", "git") == []


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ("alice", "key is missing"),
        (f"alice namespaces=pbem-orders {public_key_line(ALICE_PUB)}", "double quotes"),
        (f'alice namespaces="pbem-orders {public_key_line(ALICE_PUB)}', "closing double quote"),
        (f'alice namespace="pbem-orders" {public_key_line(ALICE_PUB)}', "unknown option"),
        (f'alice namespaces="a",namespaces="b" {public_key_line(ALICE_PUB)}', "twice"),
        (f'alice namespaces="a, b" {public_key_line(ALICE_PUB)}', "space"),
        (f'alice namespaces="a", {public_key_line(ALICE_PUB)}', "end with a ','"),
        (f'alice valid-after="2020" {public_key_line(ALICE_PUB)}', "YYYYMMDD"),
        (f'alice valid-after="20201399" {public_key_line(ALICE_PUB)}', "not a valid date"),
        (f"alice,,bob {public_key_line(ALICE_PUB)}", "empty name"),
        ("alice ssh-ed25519", "base64 key is missing"),
        ("alice ssh-ed25519 AAAA!!!", "unusable"),
        ("alice ssh-ed25519 " + base64.b64encode(b"\0\0\0\x0bssh-ed25519").decode(), "unusable"),
        ("alice ssh-ed25591 AAAA", "unknown key type"),
        (f'alice namespaces="x" {"ssh-ed2551 AAAA"}', "unknown key type"),
    ],
)
def test_malformed_allowed_signers_lines(line: str, match: str) -> None:
    with pytest.raises(SignatureError, match=match) as info:
        AllowedSigners.parse("# header\n\n" + line + "\n")
    assert "allowed_signers line 3" in str(info.value)


def test_every_malformed_line_is_reported_at_once() -> None:
    text = f"alice {public_key_line(ALICE_PUB)}\nbroken\nbob ssh-ed25519 xx\n"
    with pytest.raises(SignatureError) as info:
        AllowedSigners.parse(text)
    assert [p.where for p in info.value.problems] == [
        "allowed_signers line 2",
        "allowed_signers line 3",
    ]


def test_line_round_trips_and_refuses_dangerous_names() -> None:
    line = AllowedSigners.line("alice", ALICE_PUB, (NAMESPACE_ORDERS,), "alice@example")
    assert line == f'alice namespaces="pbem-orders" {public_key_line(ALICE_PUB)} alice@example'
    assert AllowedSigners.line("bob", BOB_PUB) == f"bob {public_key_line(BOB_PUB)}"
    parsed = AllowedSigners.parse(line + "\n")
    assert parsed.entries == (SignerEntry(("alice",), (NAMESPACE_ORDERS,), ALICE_PUB),)
    for principal in ("*", "alice,bob", "al ice", "", 'a"b', "#alice", "!alice"):
        with pytest.raises(SignatureError):
            AllowedSigners.line(principal, ALICE_PUB)
    with pytest.raises(SignatureError):
        AllowedSigners.line("alice", ALICE_PUB, ("pbem-orders,git",))
    with pytest.raises(SignatureError):
        AllowedSigners.line("alice", ALICE_PUB, ())


@FUZZ
@given(st.text(max_size=300))
def test_fuzz_allowed_signers_only_signature_errors(text: str) -> None:
    for candidate in (
        text,
        f"alice {text} {public_key_line(ALICE_PUB)}",
        f'alice namespaces="{text}" ssh-ed25519 {text}',
    ):
        try:
            AllowedSigners.parse(candidate)
        except SignatureError as exc:
            assert exc.problems


def test_keygen_into_a_missing_folder_says_to_create_it(tmp_path: Path) -> None:
    """A first-time player often has no ~/.ssh: the message names the folder and the fix."""
    with pytest.raises(KeyFileError) as err:
        write_keypair(tmp_path / "no-such" / "pbem_ed25519", key_from_seed(b"k" * 32))
    assert f"the folder {tmp_path / 'no-such'} does not exist" in str(err.value)
    assert f"mkdir -p -m 700 {tmp_path / 'no-such'}" in str(err.value)
    assert not (tmp_path / "no-such").exists()

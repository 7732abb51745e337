"""Ed25519 key files and OpenSSH ``allowed_signers`` lists.

Players sign with ordinary OpenSSH ed25519 keys: ones made by ``pbem keygen`` or by
``ssh-keygen -t ed25519`` work the same, and the files pbem writes are the files ssh-keygen writes
(``ssh-keygen -y -f KEY`` derives the same public line). The game master keeps the players' public
keys in an ``allowed_signers`` file in OpenSSH's format, so ``ssh-keygen -Y verify`` can check any
order file independently of pbem.

Every problem with a key file ends as a :class:`~pbem.core.errors.KeyFileError` that says what is
wrong and how to fix it (wrong key type, passphrase, a ``.pub`` given for the private key), and a
malformed ``allowed_signers`` line as a :class:`~pbem.core.errors.SignatureError` naming the line.
Error messages never quote the contents of a file that might hold a private key.
"""

from __future__ import annotations

# binascii itself, as base64's b64decode(validate=True) and b64encode call it: the base64
# module costs ~2 M instructions to import (issue 20, target 5).
import binascii
import hashlib
import os
import re
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem.core.errors import KeyFileError, Problem, SignatureError
from pbem.core.values import FrozenValue

__all__ = [
    "AllowedSigners",
    "SignerEntry",
    "generate_key",
    "key_from_seed",
    "load_private_key",
    "load_public_key",
    "parse_public_key",
    "private_key_text",
    "public_key_line",
    "write_keypair",
]

_KEY_TYPE = "ssh-ed25519"
_KEY_TYPE_BYTES = _KEY_TYPE.encode("ascii")
_KEY_LEN = 32
# Key files are a few hundred bytes; refusing anything larger keeps a wrong path (a video, a
# disk image) from being read into memory before it is rejected.
_MAX_KEY_FILE = 64 * 1024
_OPENSSH_BEGIN = b"-----BEGIN OPENSSH PRIVATE KEY-----"
_OPENSSH_END = b"-----END OPENSSH PRIVATE KEY-----"
_OPENSSH_MAGIC = b"openssh-key-v1\x00"
# ssh-keygen wraps private key files at 70 columns; writing the same makes the files identical.
_WRAP = 70

_MAKE_KEY = "make one with `pbem keygen PATH` or `ssh-keygen -t ed25519`"

# Key type names as they appear in OpenSSH key files and allowed_signers lines, with how to
# name them to a player. Anything ending in -cert-v01@openssh.com is a certificate.
_KEY_TYPE_NAMES = {
    "ssh-ed25519": "an ed25519 key",
    "ssh-rsa": "an RSA key",
    "rsa-sha2-256": "an RSA key",
    "rsa-sha2-512": "an RSA key",
    "ssh-dss": "a DSA key",
    "ecdsa-sha2-nistp256": "an ECDSA key",
    "ecdsa-sha2-nistp384": "an ECDSA key",
    "ecdsa-sha2-nistp521": "an ECDSA key",
    "sk-ssh-ed25519@openssh.com": "a FIDO security-key (ed25519-sk) key",
    "sk-ecdsa-sha2-nistp256@openssh.com": "a FIDO security-key (ecdsa-sk) key",
    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com": "a FIDO security-key (ecdsa-sk) key",
    "ssh-xmss@openssh.com": "an XMSS key",
}
_CERT_SUFFIX = "-cert-v01@openssh.com"


def _is_key_type(name: str) -> bool:
    return name in _KEY_TYPE_NAMES or name.endswith(_CERT_SUFFIX)


def _describe_key_type(name: str) -> str:
    if name.endswith(_CERT_SUFFIX):
        return "an OpenSSH certificate"
    return _KEY_TYPE_NAMES.get(name, "not an ed25519 key")


def _string(data: bytes) -> bytes:
    """Encode ``data`` as an SSH ``string``: uint32 big-endian length, then the bytes."""
    return len(data).to_bytes(4, "big") + data


class _Malformed(Exception):
    """Internal: a wire-format defect; callers turn it into the error class their caller expects."""


def _read_string(data: bytes, pos: int) -> tuple[bytes, int]:
    start = pos + 4
    if start > len(data):
        raise _Malformed("it is cut short")
    end = start + int.from_bytes(data[pos:start], "big")
    if end > len(data):
        raise _Malformed("it is cut short")
    return data[start:end], end


def _public_blob(public_key: bytes) -> bytes:
    return _string(_KEY_TYPE_BYTES) + _string(public_key)


def _decode_public_blob(encoded: str) -> bytes:
    """Decode the base64 field of an ``ssh-ed25519`` public key line to the raw 32-byte key."""
    try:
        blob = binascii.a2b_base64(encoded.encode("ascii"), strict_mode=True)
    except (binascii.Error, ValueError):
        raise _Malformed("its base64 is damaged") from None
    key_type, pos = _read_string(blob, 0)
    if key_type != _KEY_TYPE_BYTES:
        raise _Malformed("the key inside the base64 is not an ed25519 key")
    key, pos = _read_string(blob, pos)
    if len(key) != _KEY_LEN:
        raise _Malformed(f"the ed25519 key inside is {len(key)} bytes, not {_KEY_LEN}")
    if pos != len(blob):
        raise _Malformed("the base64 holds extra bytes after the key")
    return key


# --- making keys -----------------------------------------------------------------------------


def generate_key() -> Ed25519PrivateKey:
    """A new ed25519 key from the operating system's secure random source."""
    return Ed25519PrivateKey.generate()


def key_from_seed(seed: bytes) -> Ed25519PrivateKey:
    """The ed25519 key whose 32-byte private seed is ``seed`` (deterministic; demos and tests)."""
    if len(seed) != _KEY_LEN:
        raise KeyFileError(f"an ed25519 key seed is {_KEY_LEN} bytes, not {len(seed)}")
    return Ed25519PrivateKey.from_private_bytes(seed)


def _raw_public(public_key: bytes | Ed25519PublicKey) -> bytes:
    raw = public_key if isinstance(public_key, bytes) else public_key.public_bytes_raw()
    if len(raw) != _KEY_LEN:
        raise KeyFileError(f"an ed25519 public key is {_KEY_LEN} bytes, not {len(raw)}")
    return raw


def _check_comment(comment: str) -> None:
    # A line break in a comment would start a new line in a .pub or allowed_signers file.
    if any(c in comment for c in "\r\n\x00"):
        raise KeyFileError(f"a key comment cannot contain a line break or NUL: {comment!r}")


def private_key_text(key: Ed25519PrivateKey, comment: str = "") -> bytes:
    """The unencrypted OpenSSH private key file for ``key``, as ``ssh-keygen -N ''`` writes it.

    The layout is OpenSSH's ``openssh-key-v1`` (what cryptography's ``PrivateFormat.OpenSSH``
    writes too), built here because cryptography can neither store a comment nor wrap at the 70
    columns ssh-keygen uses. The two "check" integers are random in ssh-keygen; they only detect
    a wrong passphrase, which an unencrypted file does not have, so they are derived from the key
    here and the same key always gives the same file.
    """
    _check_comment(comment)
    seed = key.private_bytes_raw()
    public = key.public_key().public_bytes_raw()
    public_blob = _public_blob(public)
    check = hashlib.sha256(b"pbem openssh checkint\x00" + public).digest()[:4]
    private = b"".join(
        (
            check,
            check,
            _string(_KEY_TYPE_BYTES),
            _string(public),
            _string(seed + public),  # OpenSSH stores the 64-byte seed||public form
            _string(comment.encode("utf-8")),
        )
    )
    # Padded with 1, 2, 3, ... to the cipher block size, which is 8 for cipher "none".
    private += bytes(range(1, 1 + (-len(private)) % 8))
    blob = b"".join(
        (
            _OPENSSH_MAGIC,
            _string(b"none"),  # cipher
            _string(b"none"),  # kdf
            _string(b""),  # kdf options
            (1).to_bytes(4, "big"),  # number of keys
            _string(public_blob),
            _string(private),
        )
    )
    body = binascii.b2a_base64(blob, newline=False)
    lines = [body[i : i + _WRAP] for i in range(0, len(body), _WRAP)]
    return b"\n".join((_OPENSSH_BEGIN, *lines, _OPENSSH_END)) + b"\n"


def public_key_line(public_key: bytes | Ed25519PublicKey, comment: str = "") -> str:
    """``ssh-ed25519 AAAA... comment``: the one line of a ``.pub`` file (without newline)."""
    _check_comment(comment)
    encoded = binascii.b2a_base64(_public_blob(_raw_public(public_key)),
                                  newline=False).decode("ascii")
    line = f"{_KEY_TYPE} {encoded}"
    return f"{line} {comment}" if comment else line


def _create_exclusive(path: Path, data: bytes, mode: int) -> None:
    """Write a new file with ``mode``; never replace an existing one."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        # The umask may have narrowed the mode; set it exactly so the result does not depend on
        # the caller's environment.
        os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def write_keypair(path: Path, key: Ed25519PrivateKey, comment: str = "") -> None:
    """Write ``path`` (private key, mode 0600) and ``path.pub`` (public line, mode 0644).

    Existing files are never overwritten: losing a private key loses the player's identity in
    every campaign that registered it.
    """
    path = Path(path)
    pub_path = path.with_name(path.name + ".pub")
    private = private_key_text(key, comment)
    public = (public_key_line(key.public_key(), comment) + "\n").encode("utf-8")
    for target in (path, pub_path):
        if os.path.lexists(target):
            raise KeyFileError(
                f"{target} already exists; pbem never overwrites a key file "
                "(fix: choose another path, or move the old key away first)"
            )
    try:
        _create_exclusive(path, private, 0o600)
    except FileExistsError:
        raise KeyFileError(f"{path} already exists; pbem never overwrites a key file") from None
    except FileNotFoundError:
        folder = path.parent
        raise KeyFileError(f"cannot write {path}: the folder {folder} does not exist "
                           f"(fix: create it first, mkdir -p -m 700 {folder})") from None
    except OSError as exc:
        raise KeyFileError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        _create_exclusive(pub_path, public, 0o644)
    except OSError as exc:
        # Do not leave half a key pair behind: the private file was created by us just now.
        path.unlink(missing_ok=True)
        if isinstance(exc, FileExistsError):
            raise KeyFileError(
                f"{pub_path} already exists; pbem never overwrites a key file"
            ) from None
        raise KeyFileError(f"cannot write {pub_path}: {exc.strerror or exc}") from None


# --- reading private keys --------------------------------------------------------------------


def _read_key_file(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            data = handle.read(_MAX_KEY_FILE + 1)
    except FileNotFoundError:
        raise KeyFileError(
            f"{path}: no such key file (fix: give the path of your private key, or {_MAKE_KEY})"
        ) from None
    except IsADirectoryError:
        raise KeyFileError(f"{path} is a directory, not a key file") from None
    except OSError as exc:
        raise KeyFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > _MAX_KEY_FILE:
        raise KeyFileError(f"{path} is far too large to be a key file")
    return data


def _wrong_type(path: Path, kind: str) -> KeyFileError:
    return KeyFileError(f"{path} is {kind}; pbem signs with ed25519 keys only: {_MAKE_KEY}")


def _pem_body(data: bytes, begin: bytes, end: bytes) -> bytes | None:
    """The base64 body between ``begin`` and ``end``, or None when the markers are not there."""
    start = data.find(begin)
    stop = data.find(end, start + len(begin))
    if start < 0 or stop < 0:
        return None
    return b"".join(data[start + len(begin) : stop].split())


def _openssh_header(path: Path, data: bytes) -> tuple[str, str]:
    """Return (cipher name, key type) from an OpenSSH private key file's unencrypted header.

    The header tells the key type even when the key itself is encrypted, so an RSA key is named
    as such without first asking for its passphrase.
    """
    body = _pem_body(data, _OPENSSH_BEGIN, _OPENSSH_END)
    damaged = KeyFileError(f"{path} is damaged: its OpenSSH private key block does not decode")
    if body is None:
        raise damaged
    try:
        blob = binascii.a2b_base64(body, strict_mode=True)
    except (binascii.Error, ValueError):
        raise damaged from None
    if not blob.startswith(_OPENSSH_MAGIC):
        raise damaged
    try:
        cipher, pos = _read_string(blob, len(_OPENSSH_MAGIC))
        _kdf, pos = _read_string(blob, pos)
        _kdf_options, pos = _read_string(blob, pos)
        if pos + 4 > len(blob) or int.from_bytes(blob[pos : pos + 4], "big") != 1:
            raise _Malformed("it holds other than one key")
        public_blob, pos = _read_string(blob, pos + 4)
        key_type, _ = _read_string(public_blob, 0)
    except _Malformed:
        raise damaged from None
    return cipher.decode("ascii", "replace"), key_type.decode("ascii", "replace")


def _ask_passphrase(path: Path, passphrase: Callable[[], str] | None) -> bytes:
    if passphrase is None:
        raise KeyFileError(
            f"{path} is protected by a passphrase and there is no terminal to ask for it "
            f"(fix: run pbem in a terminal, or remove the passphrase from a copy of the key with "
            f"`ssh-keygen -p -f COPY`)"
        )
    secret = passphrase()
    if not secret:
        raise KeyFileError(f"{path} is protected by a passphrase and an empty one was given")
    return secret.encode("utf-8")


def _wrong_passphrase(path: Path) -> KeyFileError:
    return KeyFileError(
        f"wrong passphrase for {path} (or the file is damaged) "
        f"(fix: try again; `ssh-keygen -y -f {path}` checks the passphrase too)"
    )


def _looks_like_public_key(data: bytes) -> bool:
    first = data.strip().split(maxsplit=2)
    return len(first) >= 2 and _is_key_type(first[0].decode("ascii", "replace"))


def load_private_key(path: Path, passphrase: Callable[[], str] | None = None) -> Ed25519PrivateKey:
    """Load an ed25519 private key: OpenSSH format (encrypted or not) or PEM PKCS#8.

    ``passphrase`` is called only when the key is encrypted; without it an encrypted key is an
    error that says how to proceed.
    """
    # Loading private keys needs cryptography's whole SSH/PEM machinery and the other key
    # types (for the "use an ed25519 key" message); only signing commands pay for it.
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.asymmetric import dsa, ec, rsa
    from cryptography.hazmat.primitives.serialization import (
        load_pem_private_key,
        load_ssh_private_key,
    )

    path = Path(path)
    data = _read_key_file(path)
    key: object  # narrowed to Ed25519PrivateKey (or a named wrong type) at the end
    if _looks_like_public_key(data):
        raise KeyFileError(public_key_given(path))

    if _OPENSSH_BEGIN in data:
        cipher, key_type = _openssh_header(path, data)
        if key_type != _KEY_TYPE:
            raise _wrong_type(path, _describe_key_type(key_type))
        password = None if cipher == "none" else _ask_passphrase(path, passphrase)
        try:
            key = load_ssh_private_key(data, password)
        except UnsupportedAlgorithm:
            raise KeyFileError(
                f"{path} is encrypted with {cipher!r}, which this installation cannot decrypt "
                f"(fix: re-encrypt it with `ssh-keygen -p -f {path}`)"
            ) from None
        except (ValueError, TypeError):
            if password is not None:
                raise _wrong_passphrase(path) from None
            raise KeyFileError(
                f"{path} is damaged: its OpenSSH private key does not load"
            ) from None
    elif b"-----BEGIN RSA PRIVATE KEY-----" in data:
        raise _wrong_type(path, "an RSA key")
    elif b"-----BEGIN EC PRIVATE KEY-----" in data:
        raise _wrong_type(path, "an ECDSA key")
    elif b"-----BEGIN DSA PRIVATE KEY-----" in data:
        raise _wrong_type(path, "a DSA key")
    elif b"-----BEGIN PRIVATE KEY-----" in data or b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in data:
        encrypted = b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in data
        password = _ask_passphrase(path, passphrase) if encrypted else None
        try:
            key = load_pem_private_key(data, password)
        except UnsupportedAlgorithm:
            raise KeyFileError(f"{path} uses an algorithm this installation cannot load") from None
        except (ValueError, TypeError):
            if password is not None:
                raise _wrong_passphrase(path) from None
            raise KeyFileError(f"{path} is damaged: its PEM private key does not load") from None
    else:
        raise KeyFileError(
            f"{path} is not a private key file (expected -----BEGIN OPENSSH PRIVATE KEY-----; "
            f"fix: give the path of your private key, or {_MAKE_KEY})"
        )

    if isinstance(key, Ed25519PrivateKey):
        return key
    if isinstance(key, rsa.RSAPrivateKey):
        kind = "an RSA key"
    elif isinstance(key, ec.EllipticCurvePrivateKey):
        kind = "an ECDSA key"
    elif isinstance(key, dsa.DSAPrivateKey):
        kind = "a DSA key"
    else:
        kind = "not an ed25519 key"
    raise _wrong_type(path, kind)


def public_key_given(path: Path) -> str:
    """What to say when ``path``, given to sign with, holds a public key."""
    private = path.with_suffix("") if path.suffix == ".pub" else None
    if private is not None and private.is_file():
        return f"{path} is a public key; signing needs the private key (fix: give {private}, " \
            "without .pub)"
    key = private or Path("KEY")
    return (f"{path} is a public key and its private key is not a file here; signing needs "
            f"the private key. If it is in ssh-agent, pbem signs through the agent: run "
            f"`eval \"$(ssh-agent)\"` and `ssh-add {key}` (once), then pbem sign FILE --key "
            f"{path} again (pbem runs `ssh-keygen -Y sign -f {path} -n pbem-orders` on the "
            "normalised order block). To sign with ssh-keygen by hand, follow docs/protocol.md, "
            "section 1, 'Signing with ssh-keygen by hand'")


def agent_public_key(path: Path) -> bytes | None:
    """The key of ``path`` when pbem should sign through ssh-agent: ``path`` holds a public
    key and an agent is running (``SSH_AUTH_SOCK``). The private key may be beside it (the
    usual ``~/.ssh`` layout): given the ``.pub``, the player asked for the agent."""
    path = Path(path)
    if not os.environ.get("SSH_AUTH_SOCK"):
        return None
    try:
        if not path.is_file() or path.stat().st_size > _MAX_PUBLIC_TEXT:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if not _looks_like_public_key(data):
        return None
    try:
        return _parse_public_key(data.decode("utf-8"), str(path))
    except (KeyFileError, UnicodeDecodeError):
        return None


# --- public keys -----------------------------------------------------------------------------

_MAX_PUBLIC_TEXT = 16 * 1024


def _parse_public_key(text: str, source: str) -> bytes:
    prefix = f"{source}: " if source else ""
    if len(text) > _MAX_PUBLIC_TEXT:
        raise KeyFileError(f"{prefix}far too long to be a public key line")
    if "PRIVATE KEY-----" in text:
        # Never echo anything from it: this is someone's secret.
        raise KeyFileError(
            f"{prefix}this is a private key; give the public key instead "
            "(the .pub file next to it, or the output of `ssh-keygen -y -f KEY`)"
        )
    lines = [ln.strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    if len(lines) != 1:
        what = "no key line" if not lines else f"{len(lines)} lines"
        raise KeyFileError(
            f"{prefix}expected one public key line `ssh-ed25519 AAAA... [comment]`, found {what}"
        )
    fields = lines[0].split(maxsplit=2)
    if fields[0] != _KEY_TYPE:
        if _is_key_type(fields[0]):
            raise KeyFileError(
                f"{prefix}this is {_describe_key_type(fields[0])}; use an ed25519 key ({_MAKE_KEY})"
            )
        raise KeyFileError(
            f"{prefix}not a public key line (expected `ssh-ed25519 AAAA... [comment]`)"
        )
    if len(fields) < 2:
        raise KeyFileError(f"{prefix}the public key line has no key after ssh-ed25519")
    try:
        return _decode_public_blob(fields[1])
    except _Malformed as exc:
        raise KeyFileError(f"{prefix}the ed25519 public key is unusable: {exc}") from None


def parse_public_key(text: str) -> bytes:
    """``ssh-ed25519 AAAA... [comment]`` (or a ``.pub`` file's contents) -> raw 32-byte key."""
    return _parse_public_key(text, "")


def load_public_key(path_or_line: str) -> bytes:
    """The raw key from a ``.pub`` file when ``path_or_line`` names one, else from the line."""
    path = Path(path_or_line)
    try:
        is_file = "\n" not in path_or_line and path.is_file()
    except (OSError, ValueError):
        is_file = False
    if not is_file:
        return _parse_public_key(path_or_line, "")
    data = _read_key_file(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyFileError(f"{path} is not a public key file (it is not text)") from None
    return _parse_public_key(text, str(path))


# --- allowed_signers -------------------------------------------------------------------------


class SignerEntry(FrozenValue):
    """One usable line of an allowed_signers file."""

    _fields = ("principals", "namespaces", "public_key", "valid_after", "valid_before")
    __slots__ = _fields
    principals: Final[tuple[str, ...]]  # OpenSSH patterns: usually plain names, may use * ? !
    namespaces: Final[tuple[str, ...] | None]  # None = any namespace
    public_key: Final[bytes]  # raw 32 bytes
    valid_after: Final[datetime | None]
    valid_before: Final[datetime | None]

    def __init__(self, principals: tuple[str, ...], namespaces: tuple[str, ...] | None,
                 public_key: bytes, valid_after: datetime | None = None,
                 valid_before: datetime | None = None) -> None:
        self.principals = principals
        self.namespaces = namespaces
        self.public_key = public_key
        self.valid_after = valid_after
        self.valid_before = valid_before

    def usable(self, namespace: str, at: datetime) -> bool:
        """Whether the entry's options allow a signature in ``namespace`` at time ``at``."""
        if self.namespaces is not None and not _match_list(namespace, self.namespaces):
            return False
        # The same inclusive bounds as ssh-keygen's check_allowed_keys_line.
        if self.valid_after is not None and at < self.valid_after:
            return False
        return self.valid_before is None or at <= self.valid_before


@lru_cache(maxsize=256)
def _pattern(pattern: str) -> re.Pattern[str]:
    # OpenSSH patterns know only * and ?; everything else, brackets included, is literal.
    parts = (".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile("".join(parts), re.DOTALL)


def _match(value: str, pattern: str) -> bool:
    if "*" not in pattern and "?" not in pattern:
        return value == pattern
    return _pattern(pattern).fullmatch(value) is not None


def _match_list(value: str, patterns: tuple[str, ...]) -> bool:
    """OpenSSH's match_pattern_list: any positive pattern matches and no negated one does."""
    matched = False
    for pattern in patterns:
        if pattern.startswith("!"):
            if _match(value, pattern[1:]):
                return False
        elif _match(value, pattern):
            matched = True
    return matched


def _parse_time(value: str) -> datetime:
    """An allowed_signers time: YYYYMMDD[HHMM[SS]], in UTC with a Z/UTC suffix, else local."""
    utc = False
    if value[-1:] in ("Z", "z"):
        utc, value = True, value[:-1]
    elif value[-3:].upper() == "UTC":
        utc, value = True, value[:-3]
    formats = {8: "%Y%m%d", 12: "%Y%m%d%H%M", 14: "%Y%m%d%H%M%S"}
    if len(value) not in formats or not value.isdigit() or not value.isascii():
        raise _Malformed(f"time {value!r} is not YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS")
    try:
        parsed = datetime.strptime(value, formats[len(value)])
    except ValueError:
        raise _Malformed(f"time {value!r} is not a valid date") from None
    # Like ssh-keygen: without Z the time is the local time of the machine checking it.
    return parsed.replace(tzinfo=UTC) if utc else parsed.astimezone()


def _dequote(text: str, pos: int, name: str) -> tuple[str, int]:
    """OpenSSH's opt_dequote: a double-quoted value where \\" stands for a quote."""
    if pos >= len(text) or text[pos] != '"':
        raise _Malformed(f'the value of {name} must be in double quotes: {name}="..."')
    out: list[str] = []
    pos += 1
    while pos < len(text) and text[pos] != '"':
        if text[pos] == "\\" and text[pos + 1 : pos + 2] == '"':
            pos += 1
        out.append(text[pos])
        pos += 1
    if pos >= len(text):
        raise _Malformed(f"the value of {name} has no closing double quote")
    return "".join(out), pos + 1


def _split_options(rest: str) -> tuple[str, str]:
    """Cut the options field (spaces allowed inside quotes) off the front of ``rest``."""
    quoted = False
    pos = 0
    while pos < len(rest) and (quoted or rest[pos] not in " \t"):
        if rest[pos] == "\\" and rest[pos + 1 : pos + 2] == '"':
            pos += 1
        elif rest[pos] == '"':
            quoted = not quoted
        pos += 1
    if quoted:
        raise _Malformed("an option value has no closing double quote")
    return rest[:pos], rest[pos:].lstrip(" \t")


class _Options:
    __slots__ = ("cert_authority", "namespaces", "valid_after", "valid_before")

    def __init__(self) -> None:
        self.cert_authority = False
        self.namespaces: tuple[str, ...] | None = None
        self.valid_after: datetime | None = None
        self.valid_before: datetime | None = None


def _parse_options(text: str) -> _Options:
    """Parse ``cert-authority,namespaces="a,b",valid-after="...",valid-before="..."``."""
    options = _Options()
    seen: set[str] = set()
    pos = 0
    while True:
        name_end = pos
        while name_end < len(text) and text[name_end] not in ",=":
            name_end += 1
        name = text[pos:name_end].lower()  # OpenSSH matches option names case-insensitively
        if name in seen:
            raise _Malformed(f"option {name} is given twice")
        seen.add(name)
        if name == "cert-authority" and (name_end == len(text) or text[name_end] == ","):
            options.cert_authority = True
            pos = name_end
        elif (
            name in ("namespaces", "valid-after", "valid-before")
            and name_end < len(text)
            and (text[name_end] == "=")
        ):
            value, pos = _dequote(text, name_end + 1, name)
            if name == "namespaces":
                options.namespaces = _parse_namespaces(value)
            elif name == "valid-after":
                options.valid_after = _parse_time(value)
            else:
                options.valid_before = _parse_time(value)
        else:
            shown = text[pos:name_end][:40]
            raise _Malformed(
                f'unknown option {shown!r} (allowed: namespaces="...", valid-after="...", '
                'valid-before="...", cert-authority)'
            )
        if pos == len(text):
            return options
        if text[pos] != ",":
            raise _Malformed(f"unexpected text after option {name}: options are separated by ','")
        pos += 1
        if pos == len(text):
            raise _Malformed("the options end with a ','")


def _parse_namespaces(value: str) -> tuple[str, ...]:
    names = tuple(value.split(","))
    for name in names:
        if not name:
            raise _Malformed(f'namespaces="{value}" contains an empty name')
        if any(c.isspace() for c in name):
            # ssh-keygen would compare " pbem-ledger" with its space and never match it.
            raise _Malformed(
                f'namespaces="{value}" contains a space; write them as namespaces="a,b"'
            )
    return names


def _check_principals(text: str) -> tuple[str, ...]:
    principals = tuple(text.split(","))
    if any(not p for p in principals):
        raise _Malformed(f"the principals list {text[:60]!r} contains an empty name")
    return principals


def _parse_signer_line(line: str) -> SignerEntry | None:
    """One allowed_signers line -> entry, or None for lines pbem deliberately does not use."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    # Principals: a word, or a double-quoted string (OpenSSH's strdelimw allows both).
    if text.startswith('"'):
        close = text.find('"', 1)
        if close < 0:
            raise _Malformed("the quoted principals have no closing double quote")
        principals_text, rest = text[1:close], text[close + 1 :]
        if rest and rest[0] not in " \t":
            raise _Malformed("expected a space after the quoted principals")
    else:
        cut = len(text.split(maxsplit=1)[0])
        principals_text, rest = text[:cut], text[cut:]
    principals = _check_principals(principals_text)
    rest = rest.lstrip(" \t")
    if not rest:
        raise _Malformed("expected `principals [options] ssh-ed25519 AAAA...`; the key is missing")

    key_type = rest.split(maxsplit=1)[0]
    options = _Options()
    if not _is_key_type(key_type):
        options_text, rest = _split_options(rest)
        try:
            options = _parse_options(options_text)
        except _Malformed:
            if '"' not in options_text and "=" not in options_text:
                raise _Malformed(
                    f"unknown key type {options_text[:40]!r} (expected ssh-ed25519)"
                ) from None
            raise
        if not rest:
            raise _Malformed("the key is missing after the options")
        key_type = rest.split(maxsplit=1)[0]
        if not _is_key_type(key_type):
            raise _Malformed(f"unknown key type {key_type[:40]!r} (expected ssh-ed25519)")

    # pbem verifies plain ed25519 keys only: other key types and certificate authorities are
    # left for ssh-keygen; skipping them lets one file serve both tools.
    if key_type != _KEY_TYPE or options.cert_authority:
        return None
    fields = rest.split(maxsplit=2)
    if len(fields) < 2:
        raise _Malformed("the base64 key is missing after ssh-ed25519")
    try:
        public_key = _decode_public_blob(fields[1])
    except _Malformed as exc:
        raise _Malformed(f"the ed25519 key is unusable: {exc}") from None
    return SignerEntry(
        principals=principals,
        namespaces=options.namespaces,
        public_key=public_key,
        valid_after=options.valid_after,
        valid_before=options.valid_before,
    )


def _check_name(kind: str, value: str) -> None:
    # Characters that would change the meaning of an allowed_signers line: separators, quotes,
    # and the pattern characters that would make "*" a key for every player.
    if not value or any(c.isspace() or c in ',"\\*?!#' for c in value) or not value.isprintable():
        raise SignatureError(
            Problem(
                "allowed_signers",
                f"{kind} {value!r} cannot be written to allowed_signers",
                "use letters, digits, '-', '_', '.' and '@' only",
            )
        )


class AllowedSigners(FrozenValue):
    """An OpenSSH allowed_signers file (``man ssh-keygen``, ALLOWED SIGNERS), ed25519 lines only."""

    _fields = ("entries",)
    __slots__ = _fields
    entries: Final[tuple[SignerEntry, ...]]

    def __init__(self, entries: tuple[SignerEntry, ...]) -> None:
        self.entries = entries

    @classmethod
    def parse(cls, text: str) -> AllowedSigners:
        """Parse the file; every malformed line is reported, each with its line number."""
        entries: list[SignerEntry] = []
        problems: list[Problem] = []
        for number, line in enumerate(text.split("\n"), start=1):
            try:
                entry = _parse_signer_line(line)
            except _Malformed as exc:
                problems.append(
                    Problem(
                        f"allowed_signers line {number}",
                        str(exc),
                        'format: `principal [namespaces="..."] ssh-ed25519 AAAA... [comment]`',
                    )
                )
                continue
            if entry is not None:
                entries.append(entry)
        if problems:
            raise SignatureError(problems)
        return cls(tuple(entries))

    def keys_for(
        self, principal: str, namespace: str, *, at: datetime | None = None
    ) -> list[bytes]:
        """The keys that may sign as ``principal`` in ``namespace`` (at time ``at``, default now).

        A naive ``at`` is taken as UTC. Entries without valid-after/valid-before are always valid.
        """
        when = _when(at)
        keys: list[bytes] = []
        for entry in self.entries:
            if (
                _match_list(principal, entry.principals)
                and entry.usable(namespace, when)
                and entry.public_key not in keys
            ):
                keys.append(entry.public_key)
        return keys

    def principals_for(
        self, public_key: bytes, namespace: str, *, at: datetime | None = None
    ) -> list[str]:
        """The principals (as written, patterns included) ``public_key`` may sign as."""
        when = _when(at)
        found: list[str] = []
        for entry in self.entries:
            if entry.public_key == public_key and entry.usable(namespace, when):
                found.extend(p for p in entry.principals if p not in found)
        return found

    @staticmethod
    def line(
        principal: str,
        public_key: bytes,
        namespaces: tuple[str, ...] | None = None,
        comment: str = "",
    ) -> str:
        """One allowed_signers line, e.g. ``alice namespaces="pbem-orders" ssh-ed25519 AAAA...``."""
        _check_name("principal", principal)
        key = public_key_line(public_key, comment)
        if namespaces is None:
            return f"{principal} {key}"
        if not namespaces:
            raise SignatureError(
                Problem("allowed_signers", "an empty namespaces list would allow nothing")
            )
        for namespace in namespaces:
            _check_name("namespace", namespace)
        return f'{principal} namespaces="{",".join(namespaces)}" {key}'


def _when(at: datetime | None) -> datetime:
    if at is None:
        return datetime.now(UTC)
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)

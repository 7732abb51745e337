"""OpenSSH signatures (SSHSIG, openssh ``PROTOCOL.sshsig``) made with ed25519 keys.

Players sign their order files with ``ssh-keygen -Y sign`` or with pbem itself; the game master
verifies them here. The format is OpenSSH's own, so a signature made by either side verifies on
the other, and the armor pbem writes is byte-identical to what ``ssh-keygen`` writes for the same
key and message (ed25519 signatures are deterministic).

Only ed25519 keys are accepted: one key type means one code path to get right, and ed25519
keys are what ``ssh-keygen -t ed25519`` and ``pbem keygen`` make.

Everything parsed here comes from e-mail and forum posts, so the parser is written for hostile
input: every length is bounds-checked, sizes are capped, trailing bytes are refused, and any
defect raises :class:`~pbem.core.errors.SignatureError` -- never ``IndexError``,
``binascii.Error`` or another exception that would reach the player as a traceback.
"""

from __future__ import annotations

# binascii itself, as base64's b64decode(validate=True) and b64encode call it: the base64
# module costs ~2 M instructions to import (issue 20, target 5).
import binascii
import hashlib
from collections.abc import Iterable
from typing import Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem.core.errors import Problem, SignatureError
from pbem.core.values import FrozenValue

__all__ = [
    "BEGIN",
    "END",
    "HASH_ALGORITHMS",
    "NAMESPACE_LEDGER",
    "NAMESPACE_ORDERS",
    "Signature",
    "fingerprint",
    "parse_armor",
    "parse_blob",
    "sign",
    "verify",
]

NAMESPACE_ORDERS = "pbem-orders"
NAMESPACE_LEDGER = "pbem-ledger"

BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"

#: The hash algorithms PROTOCOL.sshsig allows; ssh-keygen signs with sha512 unless told otherwise.
HASH_ALGORITHMS = ("sha512", "sha256")

_MAGIC = b"SSHSIG"
_VERSION = 1
_KEY_TYPE = b"ssh-ed25519"
_KEY_LEN = 32
_SIG_LEN = 64
# ssh-keygen wraps the base64 body at 70 columns (sshbuf_dtob64 with wrap=1).
_WRAP = 70
# An ed25519 signature blob is under 200 bytes plus the namespace; 8 KiB of armor is far more
# than any honest signature needs and small enough that a hostile post cannot cost much.
_MAX_ARMOR = 8 * 1024
_MAX_BLOB = 6 * 1024
# The hash functions by their SSHSIG names; a dict lookup, not getattr on hashlib, so that only
# these two names can ever select a function.
_HASHES = {"sha512": hashlib.sha512, "sha256": hashlib.sha256}
# The wire form of the key type, the prefix of every ed25519 public key and signature blob.
_KEY_TYPE_STRING = len(_KEY_TYPE).to_bytes(4, "big") + _KEY_TYPE
_WHERE = "signature"


def _string(data: bytes) -> bytes:
    """Encode ``data`` as an SSH ``string``: uint32 big-endian length, then the bytes."""
    return len(data).to_bytes(4, "big") + data


def _show(raw: bytes, limit: int = 40) -> str:
    """Quote untrusted bytes for an error message: decoded leniently, shortened, escaped."""
    text = raw[:limit].decode("utf-8", "replace")
    return repr(text + ("..." if len(raw) > limit else ""))


def _error(message: str, hint: str = "") -> SignatureError:
    return SignatureError(Problem(_WHERE, message, hint))


_DAMAGED_HINT = "ask the signer to send the signature again, copied whole and unchanged"


def _damaged(message: str) -> SignatureError:
    return _error(message, _DAMAGED_HINT)


class Signature(FrozenValue):
    """One parsed SSHSIG signature: who signed, for which namespace, and the signature bytes."""

    _fields = ("public_key", "namespace", "reserved", "hash_algorithm", "signature")
    __slots__ = _fields
    public_key: Final[bytes]  # raw 32-byte ed25519 public key
    namespace: Final[str]
    reserved: Final[bytes]
    hash_algorithm: Final[str]  # "sha512" | "sha256"
    signature: Final[bytes]  # raw 64-byte ed25519 signature

    def __init__(self, public_key: bytes, namespace: str, reserved: bytes, hash_algorithm: str,
                 signature: bytes) -> None:
        self.public_key = public_key
        self.namespace = namespace
        self.reserved = reserved
        self.hash_algorithm = hash_algorithm
        self.signature = signature

    def to_blob(self) -> bytes:
        """The binary SSHSIG blob, field for field as ssh-keygen writes it."""
        return b"".join(
            (
                _MAGIC,
                _VERSION.to_bytes(4, "big"),
                _string(_KEY_TYPE_STRING + _string(self.public_key)),
                _string(self.namespace.encode("utf-8")),
                _string(self.reserved),
                _string(self.hash_algorithm.encode("ascii")),
                _string(_KEY_TYPE_STRING + _string(self.signature)),
            )
        )

    def armor(self) -> str:
        """The armored text exactly as ``ssh-keygen -Y sign`` writes it, ending with a newline."""
        body = binascii.b2a_base64(self.to_blob(), newline=False).decode("ascii")
        lines = [body[i : i + _WRAP] for i in range(0, len(body), _WRAP)]
        return "\n".join((BEGIN, *lines, END)) + "\n"


def _read_string(blob: bytes, pos: int, what: str) -> tuple[bytes, int]:
    """Read one SSH ``string`` at ``pos``; return it and the position after it."""
    start = pos + 4
    if start > len(blob):
        raise _damaged(f"the signature is cut short: it ends inside the length of the {what}")
    size = int.from_bytes(blob[pos:start], "big")
    end = start + size
    if end > len(blob):
        raise _damaged(
            f"the signature is cut short: the {what} claims {size} bytes "
            f"but only {len(blob) - start} follow"
        )
    return blob[start:end], end


def _parse_typed(field: bytes, size: int, what: str) -> bytes:
    """Parse ``string "ssh-ed25519" | string value`` (a public key or a signature) exactly."""
    key_type, pos = _read_string(field, 0, f"{what} type")
    if key_type != _KEY_TYPE:
        raise _error(
            f"the {what} is of type {_show(key_type)}; pbem accepts ed25519 signatures only",
            "sign with an ed25519 key (`pbem keygen PATH` or `ssh-keygen -t ed25519`)",
        )
    value, pos = _read_string(field, pos, what)
    if len(value) != size:
        raise _damaged(f"the ed25519 {what} is {len(value)} bytes long, not {size}")
    if pos != len(field):
        raise _damaged(f"the {what} field has {len(field) - pos} extra bytes after it")
    return value


def parse_blob(blob: bytes) -> Signature:
    """Parse a binary SSHSIG blob; any malformed, truncated or oversized input is rejected."""
    if len(blob) > _MAX_BLOB:
        raise _damaged(f"the signature is {len(blob)} bytes, more than the {_MAX_BLOB} allowed")
    if blob[:6] != _MAGIC:
        raise _damaged("this is not an SSH signature (it does not start with 'SSHSIG')")
    if len(blob) < 10:
        raise _damaged("the signature is cut short: it ends inside the version number")
    version = int.from_bytes(blob[6:10], "big")
    if version != _VERSION:
        raise _error(
            f"SSHSIG version {version} is not supported (only version {_VERSION})",
            "sign with OpenSSH's ssh-keygen -Y sign or with pbem",
        )
    key_field, pos = _read_string(blob, 10, "public key")
    public_key = _parse_typed(key_field, _KEY_LEN, "public key")
    raw_namespace, pos = _read_string(blob, pos, "namespace")
    reserved, pos = _read_string(blob, pos, "reserved field")
    raw_hash, pos = _read_string(blob, pos, "hash algorithm")
    sig_field, pos = _read_string(blob, pos, "signature")
    if pos != len(blob):
        raise _damaged(f"the signature has {len(blob) - pos} unexpected bytes after its end")
    signature = _parse_typed(sig_field, _SIG_LEN, "signature")

    # OpenSSH reads the namespace as a C string, so a NUL byte inside it cannot be honest.
    if not raw_namespace or b"\x00" in raw_namespace:
        raise _damaged("the signature's namespace is empty or contains a NUL byte")
    try:
        namespace = raw_namespace.decode("utf-8")
    except UnicodeDecodeError:
        raise _damaged(f"the signature's namespace {_show(raw_namespace)} is not UTF-8") from None
    hash_algorithm = raw_hash.decode("ascii", "replace")
    if hash_algorithm not in _HASHES:
        raise _error(
            f"the signature uses hash algorithm {_show(raw_hash)}; "
            f"SSHSIG allows only {' or '.join(HASH_ALGORITHMS)}"
        )
    return Signature(public_key, namespace, reserved, hash_algorithm, signature)


def parse_armor(text: str) -> Signature:
    """Parse an armored ``-----BEGIN SSH SIGNATURE-----`` block (markers included).

    Whitespace around each line and CRLF line ends are accepted, because mail clients and forums
    add them; anything else outside the markers is an error, since the caller is expected to have
    cut the block out already and stray text would mean it cut in the wrong place.
    """
    if len(text) > _MAX_ARMOR:
        raise _damaged(
            f"the signature is {len(text)} characters, more than the {_MAX_ARMOR} allowed"
        )
    lines = text.strip().split("\n")
    if lines[0].strip() != BEGIN:
        raise _error(
            f"the signature does not start with {BEGIN}",
            "copy the whole signature block, from the BEGIN line to the END line",
        )
    if len(lines) < 3 or lines[-1].strip() != END:
        raise _error(
            f"the signature does not end with {END}",
            "copy the whole signature block, from the BEGIN line to the END line",
        )
    body = "".join(line.strip() for line in lines[1:-1])
    if not body.isascii():
        raise _damaged("the signature contains characters that are not base64")
    encoded = body.encode("ascii")
    try:
        blob = binascii.a2b_base64(encoded, strict_mode=True)
    except (binascii.Error, ValueError):
        raise _damaged(
            "the signature's base64 is damaged (a character changed or missing)"
        ) from None
    # b64decode ignores the unused low bits of the last character; ssh-keygen never sets them, so
    # a signature that only decodes thanks to that leniency was altered in transit.
    if binascii.b2a_base64(blob, newline=False) != encoded:
        raise _damaged("the signature's base64 is not in canonical form (it was altered)")
    return parse_blob(blob)


def _signed_data(message: bytes, namespace: bytes, reserved: bytes, hash_algorithm: str) -> bytes:
    """The bytes an SSHSIG signature covers: the namespace, the hash name and H(message)."""
    digest = _HASHES[hash_algorithm](message).digest()
    return b"".join(
        (
            _MAGIC,
            _string(namespace),
            _string(reserved),
            _string(hash_algorithm.encode("ascii")),
            _string(digest),
        )
    )


def sign(
    message: bytes, key: Ed25519PrivateKey, namespace: str, hash_algorithm: str = "sha512",
    *, public_key: bytes | None = None,
) -> Signature:
    """Sign ``message`` for ``namespace``, as ``ssh-keygen -Y sign -n NAMESPACE`` would.
    ``public_key``: the raw public half of ``key``, when the caller already has it (deriving
    it costs as much as the signature)."""
    if not namespace or "\x00" in namespace:
        raise _error(f"cannot sign for namespace {namespace!r}: it must be non-empty text")
    if hash_algorithm not in _HASHES:
        raise _error(
            f"cannot sign with hash algorithm {hash_algorithm!r}; "
            f"SSHSIG allows only {' or '.join(HASH_ALGORITHMS)}"
        )
    data = _signed_data(message, namespace.encode("utf-8"), b"", hash_algorithm)
    return Signature(
        public_key=public_key or key.public_key().public_bytes_raw(),
        namespace=namespace,
        reserved=b"",
        hash_algorithm=hash_algorithm,
        signature=key.sign(data),
    )


def verify(
    message: bytes,
    sig: Signature,
    namespace: str,
    allowed_keys: Iterable[bytes] | None = None,
) -> None:
    """Check that ``sig`` is a signature over ``message`` for ``namespace``; raise if not.

    ``allowed_keys`` are the raw 32-byte keys that may have made the signature. ``None`` (the
    default) accepts any key -- the caller then decides who signed from ``sig.public_key``. An
    *empty* collection accepts no key at all: a lookup that found no key for a player must never
    turn into "anyone may sign for them".

    The checks run cheapest and most explanatory first (namespace, key, then the ed25519
    verification), so each failure gets its own message.
    """
    if sig.namespace != namespace:
        raise _error(
            f"signature was made for namespace {sig.namespace!r}, expected {namespace!r}",
            f"sign with `-n {namespace}`; a signature for one purpose is never valid for another",
        )
    if allowed_keys is not None:
        allowed = (
            allowed_keys
            if isinstance(allowed_keys, (list, tuple, set, frozenset))
            else list(allowed_keys)
        )
        if sig.public_key not in allowed:
            known = ", ".join(fingerprint(k) for k in allowed) or "none is registered"
            raise _error(
                f"signed by key {fingerprint(sig.public_key)}, which is not the key of the "
                f"expected signer (allowed: {known})",
                "sign with the key registered for this player, or register this key first",
            )
    # No known implementation writes a reserved value, and OpenSSH verifies as if it were empty;
    # refusing one keeps pbem from ever judging a signature differently from ssh-keygen.
    if sig.reserved:
        raise _damaged("the signature's reserved field is not empty")
    if sig.hash_algorithm not in _HASHES:
        raise _error(f"the signature uses unsupported hash algorithm {sig.hash_algorithm!r}")
    data = _signed_data(message, namespace.encode("utf-8"), b"", sig.hash_algorithm)
    seen = (sig.public_key, sig.signature, data)
    if seen in _VERIFIED:
        return
    try:
        Ed25519PublicKey.from_public_bytes(sig.public_key).verify(sig.signature, data)
        if len(_VERIFIED) >= 256:
            _VERIFIED.clear()
        _VERIFIED.add(seen)
    except (InvalidSignature, ValueError):
        raise _error(
            "signature does not match these bytes: the text was changed after signing, "
            "or signed by another key",
            "sign the final text again; do not edit it after signing",
        ) from None


#: Verifications that succeeded, by (key, signature, signed data): the three decide an
#: ed25519 verification completely, so a block checked by :mod:`pbem.core.armor` (does it
#: need repairs?) and then by its signer check is verified once.
_VERIFIED: set[tuple[bytes, bytes, bytes]] = set()


def fingerprint(public_key: bytes) -> str:
    """The key's fingerprint exactly as ``ssh-keygen -l`` prints it: ``SHA256:<base64>``."""
    wire = _KEY_TYPE_STRING + _string(public_key)
    encoded = binascii.b2a_base64(hashlib.sha256(wire).digest(), newline=False)
    return f"SHA256:{encoded.decode('ascii').rstrip('=')}"

"""The campaign directory (DESIGN.md section 5): what is public, what only the GM holds.

Public: ``campaign.toml`` (+ ``.sig``), ``allowed_signers``, ``ledger/``. Everything secret
lives under ``gm/``: seed heads, the inbox, pending and sealed orders, states, private reports,
and the settings that change during a campaign. ``pbem export`` copies everything but ``gm/``,
so publishing can never leak a secret. ``pbem export`` and ``pbem site`` copy exactly the
public files :func:`public_files` names, read by :func:`read_public`, which never follows a
symbolic link: a link in a campaign (``gm_backup -> gm``) can never carry a secret out.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import os
import re
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import tomli
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem import __version__
from pbem.core import dice, fsutil, shapes, sshsig
from pbem.core.errors import CampaignError, Problem, ProblemsError
from pbem.core.fsutil import atomic_write, fsync_dir
from pbem.core.keys import AllowedSigners, parse_public_key, public_key_line
from pbem.core.orders import PLAYER_NAME
from pbem.core.ruleset import Ruleset
from pbem.core.values import Value

#: What ``pbem new`` writes (DESIGN.md section 8): every principal's key in ``[keys]``.
CAMPAIGN_FORMAT = "pbem-campaign/2"
#: Campaigns made before version 2: still opened, adjudicated and audited as they are.
CAMPAIGN_FORMAT_V1 = "pbem-campaign/1"
#: Each campaign format, its protocol version: orders and records follow the campaign's.
CAMPAIGN_VERSIONS = {CAMPAIGN_FORMAT_V1: 1, CAMPAIGN_FORMAT: 2}
CAMPAIGN_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
GM_PRINCIPAL = "gm"
#: The NMR policy, a campaign option every game accepts (``--option nmr=...``): ``default``
#: applies the game's documented default orders of missing players at ``adjudicate --force``;
#: ``wait`` makes ``--force`` refuse, so the game waits for the orders (or a later deadline).
#: Stored in campaign.toml only when given; absent means ``default``.
NMR_OPTION = "nmr"
NMR_POLICIES = ("default", "wait")

RulesetResolver = Callable[[str], Ruleset]
#: The public files at the top of a campaign; the ledger's records and signatures are the rest.
PUBLIC_FILES = ("campaign.toml", "campaign.toml.sig", "allowed_signers")


class Campaign(Value):
    """An opened campaign directory (the GM's full one, or an exported public copy)."""

    # Compared and shown; no __slots__: cached_property below.
    _fields = ("root", "config", "ruleset", "signers", "campaign_bytes", "durable")

    def __init__(self, root: Path, config: dict[str, Any], ruleset: Ruleset,
                 signers: AllowedSigners, campaign_bytes: bytes, durable: bool = True) -> None:
        self.root = root
        self.config = config
        self.ruleset = ruleset
        self.signers = signers
        self.campaign_bytes = campaign_bytes
        #: False only for throwaway campaigns (demos, simulations, benchmarks): the engine
        #: then skips fsync. Writes stay atomic (rename), so only a power cut could lose
        #: anything.
        self.durable = durable
        self._settings: tuple[fsutil.Stamp, dict[str, Any]] | None = None
        self._heads: tuple[bytes, bytes] | None = None
        #: Key changes found in the ledger so far: (records scanned, [(seq, changes)]).
        self._changes: tuple[int, list[tuple[int, list[dict[str, Any]]]]] = (0, [])
        self._signers_at: dict[tuple[tuple[str, bytes], ...], AllowedSigners] = {}
        self._base_keys: dict[str, bytes] | None = None

    @property
    def version(self) -> int:
        """The protocol version (1 or 2), from campaign.toml's format."""
        return CAMPAIGN_VERSIONS[str(self.config["format"])]

    @property
    def hash(self) -> str:
        """sha256 (hex) of campaign.toml's bytes: what a version 2 order's ``campaign_hash``
        must be, so an order is bound to this campaign, not to an id another can choose."""
        return hashlib.sha256(self.campaign_bytes).hexdigest()

    @property
    def envelope_hash(self) -> str | None:
        """The ``campaign_hash`` this campaign's order forms carry (``None``: version 1)."""
        return self.hash if self.version >= 2 else None

    @property
    def ledger_format(self) -> str:
        from pbem.core import ledger

        return ledger.LEDGER_FORMAT if self.version >= 2 else ledger.LEDGER_FORMAT_V1

    def base_keys(self) -> dict[str, bytes]:
        """Each principal's key when the campaign was made, gm first, then the players:
        campaign.toml's signed ``[keys]`` (version 2), or allowed_signers (version 1, whose
        campaign.toml names no key). Read once per opened campaign; a fresh dict each call."""
        if self._base_keys is None:
            if self.version >= 2:
                self._base_keys = {name: parse_public_key(self.config["keys"][name])
                                   for name in (GM_PRINCIPAL, *self.players)}
            else:
                self._base_keys = {}
                for name, ns in ((GM_PRINCIPAL, sshsig.NAMESPACE_LEDGER),
                                 *((p, sshsig.NAMESPACE_ORDERS) for p in self.players)):
                    found = self.signers.keys_for(name, ns)
                    if found:
                        self._base_keys[name] = found[0]
        return dict(self._base_keys)

    def keys_at(self, seq: int) -> dict[str, bytes]:
        """The keys valid for record ``seq`` (DESIGN.md section 8): ``[keys]`` with the
        ``[[key_changes]]`` of records 1 .. seq-1 applied in order. Version 1 has none."""
        keys = self.base_keys()
        if self.version < 2:
            return keys
        for k, changes in self.key_changes(seq - 1):
            for i, change in enumerate(changes):
                apply_key_change(keys, change, f"ledger record {k} key_changes[{i}]")
        return keys

    def signers_at(self, seq: int) -> AllowedSigners:
        """Who may sign for record ``seq``: the orders of its phase, and the record itself.

        Without a key change before ``seq`` (version 1 has none) that is ``signers`` itself,
        which :func:`open_campaign` derives from ``[keys]`` in version 2."""
        if self.version < 2 or not self.key_changes(seq - 1):
            return self.signers
        keys = self.keys_at(seq)
        memo = tuple(keys.items())
        found = self._signers_at.get(memo)
        if found is None:
            found = AllowedSigners.parse(signers_text(
                keys[GM_PRINCIPAL], [(p, keys[p]) for p in self.players]).decode())
            self._signers_at[memo] = found
        return found

    def key_changes(self, upto: int) -> list[tuple[int, list[dict[str, Any]]]]:
        """The ``[[key_changes]]`` of records 1 .. ``upto``, as (seq, changes), shapes checked.

        Records never change once written, so what was scanned is kept: a command reads
        each record once for this, and only those that mention key_changes are parsed."""
        from pbem.core import ledger

        scanned, found = self._changes
        k = scanned
        while k < upto:
            path = self.ledger_dir / ledger.record_name(k + 1)
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                break
            k += 1
            self._scan_key_changes(k, data, found)
        if k > scanned:
            self._changes = (k, found)
        return [(seq, changes) for seq, changes in found if seq <= upto]

    def wrote_record(self, seq: int, data: bytes) -> None:
        """The engine wrote record ``seq`` as ``data``: its key changes are taken from these
        bytes, not read back from the file (at every record, for the next one's keys)."""
        scanned, found = self._changes
        if scanned == seq - 1:
            self._scan_key_changes(seq, data, found)
            self._changes = (seq, found)

    @staticmethod
    def _scan_key_changes(seq: int, data: bytes,
                          found: list[tuple[int, list[dict[str, Any]]]]) -> None:
        from pbem.core import ledger

        if b"key_changes" in data:
            rec = ledger.load(data, ledger.record_name(seq))
            shapes.check_record(rec, seq)
            if rec.get("key_changes"):
                found.append((seq, rec["key_changes"]))

    @property
    def id(self) -> str:
        return str(self.config["id"])

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.config["players"])

    @property
    def options(self) -> dict[str, str]:
        return dict(self.config.get("options", {}))

    @property
    def chain_length(self) -> int:
        return int(self.config["seed_chain_length"])

    # Cached: the engine names them hundreds of times a command, and a Path join is dearer
    # than the file operation it prepares.
    @functools.cached_property
    def ledger_dir(self) -> Path:
        return self.root / "ledger"

    @functools.cached_property
    def gm_dir(self) -> Path:
        return self.root / "gm"

    @property
    def is_gm(self) -> bool:
        return (self.gm_dir / "secrets.toml").is_file()

    def heads(self) -> tuple[bytes, bytes]:
        """The secret chain heads ``s_N`` and ``t_N`` (GM only; fixed at ``pbem new``, so read
        once per opened campaign, not at every record)."""
        if self._heads is not None:
            return self._heads
        path = self.gm_dir / "secrets.toml"
        if not path.is_file():
            raise CampaignError(f"{path} is missing: only the GM's copy of the campaign "
                                "can do this")
        data = tomli.loads(path.read_text())
        self._heads = bytes.fromhex(data["seed_head"]), bytes.fromhex(data["sealed_head"])
        return self._heads

    def settings(self) -> dict[str, Any]:
        """The GM's changeable settings (``gm/settings.toml``), read again only when the file
        changes: every report of a record asks for the deadline."""
        path = self.gm_dir / "settings.toml"
        try:
            now = fsutil.stamp(path)  # a save replaces the inode
        except FileNotFoundError:
            return {}
        if self._settings is None or self._settings[0] != now:
            self._settings = (now, tomli.loads(path.read_text()))
        return copy.deepcopy(self._settings[1])

    def save_settings(self, settings: dict[str, Any]) -> None:
        import tomli_w  # here and below: a command that writes no settings never needs it

        atomic_write(self.gm_dir / "settings.toml", tomli_w.dumps(settings).encode(), 0o600)

    def gm_public_key(self, seq: int = 0) -> bytes:
        """The GM's key: the one that signed campaign.toml (``seq`` 0), or the one valid for
        record ``seq``."""
        if seq and self.version >= 2:
            return self.keys_at(seq)[GM_PRINCIPAL]
        keys = self.signers.keys_for(GM_PRINCIPAL, sshsig.NAMESPACE_LEDGER)
        if len(keys) != 1:
            raise CampaignError("allowed_signers must hold exactly one key for principal 'gm'")
        return keys[0]


def open_campaign(root: Path, resolve: RulesetResolver, *, durable: bool = True) -> Campaign:
    path = root / "campaign.toml"
    if not path.is_file():
        raise CampaignError(f"{root} is not a campaign directory (no campaign.toml)")
    data = path.read_bytes()
    try:
        config = tomli.loads(data.decode())
    except (UnicodeDecodeError, tomli.TOMLDecodeError) as exc:
        raise CampaignError(f"{path} is damaged: {exc}") from None
    if config.get("format") not in CAMPAIGN_VERSIONS:
        raise CampaignError(f"{path}: format is {config.get('format')!r}, expected "
                            f"{CAMPAIGN_FORMAT!r} (or {CAMPAIGN_FORMAT_V1!r})")
    shapes.check_campaign(config, str(path))
    if config["format"] == CAMPAIGN_FORMAT:
        # Version 2: the signed campaign.toml says whose key is which; allowed_signers is
        # derived from it (for ssh-keygen) and the audit requires it to match byte for byte.
        keys = config["keys"]
        signers = AllowedSigners.parse(signers_text(
            parse_public_key(keys[GM_PRINCIPAL]),
            [(p, parse_public_key(keys[p])) for p in config["players"]]).decode())
    else:
        signers_path = root / "allowed_signers"
        if not signers_path.is_file():
            raise CampaignError(f"{root} has no allowed_signers file")
        signers = AllowedSigners.parse(signers_path.read_text())
    return Campaign(root, config, resolve(str(config["game"])), signers, data, durable)


def apply_key_change(keys: dict[str, bytes], change: dict[str, Any], where: str) -> None:
    """Apply one ``[[key_changes]]`` entry (shape already checked) to ``keys`` in place:
    ``old`` must be the principal's key now, ``new`` no other principal's key."""
    principal = change["principal"]
    if principal not in keys:
        raise CampaignError(f"{where}: {principal!r} is not a principal of this campaign")
    old, new = parse_public_key(change["old"]), parse_public_key(change["new"])
    if keys[principal] != old:
        raise CampaignError(f"{where}: old is not {principal}'s key at that point "
                            f"({sshsig.fingerprint(keys[principal])})")
    for other, key in keys.items():
        if key == new:
            raise CampaignError(f"{where}: new is already {other}'s key; no two principals "
                                "may share a key, and a change must change the key")
    keys[principal] = new


def key_text(public_key: bytes) -> str:
    """A key as campaign.toml's ``[keys]`` and ``[[key_changes]]`` hold it:
    ``ssh-ed25519 <base64>``, no comment."""
    return public_key_line(public_key)


def public_files(root: Path) -> list[str]:
    """The public files of the campaign at ``root``, as paths relative to it: the top files
    that are there, then ``ledger/NNNNNN.toml`` and its ``.sig`` for every record. A link
    among them is listed (and refused by :func:`read_public`), never skipped in silence."""
    from pbem.core import ledger

    names = [n for n in PUBLIC_FILES if os.path.lexists(root / n)]
    ledger_dir = root / "ledger"
    if os.path.islink(ledger_dir):
        raise CampaignError(f"{ledger_dir} is a symbolic link: the ledger must be a folder of "
                            "the campaign itself; pbem copies nothing through a link")
    for k in range(1, ledger.count(ledger_dir) + 1):
        name = f"ledger/{ledger.record_name(k)}"
        names.append(name)
        if os.path.lexists(root / f"{name}.sig"):
            names.append(f"{name}.sig")
    return names


def read_public(root: Path, name: str) -> bytes:
    """The bytes of the public file ``name`` (relative to ``root``), read without following a
    symbolic link anywhere below ``root``; anything but a regular file is refused."""
    path = root
    for part in name.split("/")[:-1]:
        path = path / part
        if os.path.islink(path):
            raise CampaignError(f"{path} is a symbolic link: pbem copies nothing through a "
                                "link (replace it by the real folder)")
    path = root / name
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if os.path.islink(path):
            raise CampaignError(f"{path} is a symbolic link: pbem copies nothing through a "
                                "link (replace it by the file itself)") from None
        raise CampaignError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CampaignError(f"{path} is not a regular file")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def export_public(root: Path, out: Path) -> int:
    """Copy the public files of the campaign at ``root`` into the new folder ``out`` (its
    parent must exist); how many. Built beside ``out`` and renamed into place, so a refused
    or failed export leaves nothing."""
    import shutil

    names = public_files(root)
    out = out.absolute()
    build = out.with_name(f".{out.name}.export-{os.getpid()}")
    if os.path.lexists(build):
        shutil.rmtree(build)
    try:
        build.mkdir()
        (build / "ledger").mkdir()
        for name in names:
            atomic_write(build / name, read_public(root, name), make_parents=False,
                         sync_dir=False)
        fsync_dir(build / "ledger")
        fsync_dir(build)
        os.rename(build, out)
        fsync_dir(out.parent)
    finally:
        if os.path.lexists(build):
            shutil.rmtree(build)
    return len(names)


def sign_file_bytes(data: bytes, key: Ed25519PrivateKey, *, public_key: bytes | None = None
                    ) -> bytes:
    """The detached GM signature (namespace ``pbem-ledger``) written as ``<file>.sig``
    (``public_key``: the key's public half, when the caller has it)."""
    return sshsig.sign(data, key, sshsig.NAMESPACE_LEDGER,
                       public_key=public_key).armor().encode()


def signers_text(gm_key: bytes, players: list[tuple[str, bytes]]) -> bytes:
    """``allowed_signers`` as pbem writes it: ``gm`` (namespace pbem-ledger), then each
    player in the order given (pbem-orders), one ``name namespaces="ns" ssh-ed25519 KEY``
    line each. The audit requires exactly these bytes."""
    lines = [AllowedSigners.line(GM_PRINCIPAL, gm_key, (sshsig.NAMESPACE_LEDGER,))]
    lines += [AllowedSigners.line(n, k, (sshsig.NAMESPACE_ORDERS,)) for n, k in players]
    return ("\n".join(lines) + "\n").encode()


def create(root: Path, ruleset: Ruleset, *, campaign_id: str, gm_key: Ed25519PrivateKey,
           gm_key_path: str, players: Mapping[str, bytes], options: Mapping[str, str],
           chain_length: int = dice.DEFAULT_CHAIN_LENGTH,
           heads: tuple[bytes, bytes] | None = None, version: int = 2) -> None:
    """Make a new campaign directory. ``heads`` fixes the secret chain heads (demos only);
    ``version`` 1 writes a campaign as pbem did before protocol version 2 (tests of the
    campaigns that still exist: no command makes one).

    The directory is built beside ``root`` and renamed into place, so a failed ``pbem new``
    leaves nothing behind.
    """
    import secrets
    import shutil

    problems: list[Problem] = []
    if not CAMPAIGN_ID.fullmatch(campaign_id):
        problems.append(Problem("--id", f"{campaign_id!r} is not a campaign id",
                                "use lower case letters, digits, '.', '_' and '-'"))
    for name in players:
        if name == GM_PRINCIPAL:
            problems.append(Problem("--player gm", "no player may be called 'gm' (the GM's "
                                    "principal in allowed_signers)", "choose another name"))
        elif not PLAYER_NAME.fullmatch(name):
            problems.append(Problem(f"--player {name}", "not a valid player name",
                                    "use [a-z][a-z0-9_-]{0,31}"))
    nmr = options.get(NMR_OPTION)
    if nmr is not None and nmr not in NMR_POLICIES:
        problems.append(Problem(f"--option {NMR_OPTION}", f"{nmr!r} is not an NMR policy",
                                f"choose one of {', '.join(NMR_POLICIES)}"))
    game_options = {k: v for k, v in options.items() if k != NMR_OPTION}
    problems += ruleset.check_options(game_options, sorted(players))
    if not 1 <= chain_length <= 1_000_000:
        problems.append(Problem("--chain-length", "must be between 1 and 1000000"))
    problems += _shared_keys(gm_key.public_key().public_bytes_raw(), players)
    if problems:
        raise ProblemsError(problems)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise CampaignError(f"{root} exists and is not empty")

    seed_head, sealed_head = heads or (secrets.token_bytes(32), secrets.token_bytes(32))
    names = sorted(players)
    config: dict[str, Any] = {
        "format": CAMPAIGN_FORMAT if version == 2 else CAMPAIGN_FORMAT_V1,
        "id": campaign_id,
        "game": ruleset.name,
        "rules_version": ruleset.rules_version,
        "pbem_version": __version__,
        "players": names,
        "seed_anchor": dice.chain_anchor(seed_head, chain_length).hex(),
        "sealed_anchor": dice.chain_anchor(sealed_head, chain_length).hex(),
        "seed_chain_length": chain_length,
        "options": dict(sorted({**ruleset.resolved_options(game_options),
                                **({NMR_OPTION: nmr} if nmr is not None else {})}.items())),
    }
    gm_pub = gm_key.public_key().public_bytes_raw()
    if version == 2:
        config["keys"] = {GM_PRINCIPAL: key_text(gm_pub),
                          **{n: key_text(players[n]) for n in names}}
    import tomli_w

    campaign_bytes = tomli_w.dumps(config).encode()
    signers_bytes = signers_text(gm_pub, [(n, players[n]) for n in names])

    root = root.absolute()
    if os.path.islink(root):
        raise CampaignError(f"{root} is a symbolic link; give a new directory")
    if not root.parent.is_dir():
        raise CampaignError(f"{root.parent} is not an existing folder; create it first (pbem "
                            "does not create folders it was not asked for)")
    build = root.with_name(f".{root.name}.new-{os.getpid()}")
    if build.exists():
        shutil.rmtree(build)
    try:
        atomic_write(build / "campaign.toml", campaign_bytes)
        atomic_write(build / "campaign.toml.sig", sign_file_bytes(campaign_bytes, gm_key))
        atomic_write(build / "allowed_signers", signers_bytes)
        (build / "ledger").mkdir()
        gm = build / "gm"
        gm.mkdir(mode=0o700)
        secrets_toml = {"seed_head": seed_head.hex(), "sealed_head": sealed_head.hex()}
        atomic_write(gm / "secrets.toml", tomli_w.dumps(secrets_toml).encode(), 0o600)
        settings = {"gm_key": gm_key_path, "deadlines": {},
                    "players": {n: {"email": ""} for n in names}}
        atomic_write(gm / "settings.toml", tomli_w.dumps(settings).encode(), 0o600)
        for sub in ("inbox", "pending", "records"):
            (gm / sub).mkdir(mode=0o700)
        if root.exists():
            root.rmdir()
        os.rename(build, root)
        fsync_dir(root.parent)
    finally:
        if build.exists():
            shutil.rmtree(build)


def _shared_keys(gm_pub: bytes, players: Mapping[str, bytes]) -> list[Problem]:
    """A key may stand for one party only: a player's key that is the GM's, or two players
    with one key, would let one sign for the other (and hide who did)."""
    problems = []
    owners: dict[bytes, list[str]] = {}
    for name in sorted(players):
        owners.setdefault(players[name], []).append(name)
    for key, names in owners.items():
        fp = sshsig.fingerprint(key)
        if key == gm_pub:
            problems.append(Problem(f"--player {names[0]}", f"has the GM's key ({fp})",
                                    "each player signs with a key of their own, never the "
                                    "GM's: ask for their .pub file"))
        if len(names) > 1:
            problems.append(Problem(f"--player {', '.join(names)}",
                                    f"the same public key ({fp}) is given for "
                                    f"{' and '.join(names)}",
                                    "each player needs a key of their own (pbem keygen NAME)"))
    return problems

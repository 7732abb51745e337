"""Shared fixtures: keys, a conformance campaign, and helpers that play it through the engine."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem import games
from pbem.core import campaign as campaign_mod
from pbem.core import engine, keys, ledger
from pbem.core.campaign import Campaign
from pbem.core.dice import Stream
from pbem.core.forms import orders_toml, render_form
from pbem.core.ruleset import JOIN_PHASE, Ruleset
from pbem.core.signing import sign_text
from tests import budget  # noqa: F401  (the property tests' example counts)

# Every test checks that no submit check, view, bot or report changes the state the engine
# shares with them instead of copying it (engine.load_state(shared=True)), and that every
# record the engine hands its readers unparsed is what its bytes parse to (ledger.remember).
engine.CHECK_SHARED = True
ledger.CHECK_REMEMBERED = True

PLAYERS = ("alice", "bob", "carol")


#: Where the test session's temporary folders go when the user names none: a memory file
#: system if the machine has one. Each test creates hundreds of small files (campaigns,
#: records, reports); on this project's disks a new file costs about a millisecond of kernel
#: time, on /dev/shm microseconds, and the tests check pbem's logic, not the disk's.
MEMORY_FS = Path("/dev/shm")


def pytest_configure(config: pytest.Config) -> None:
    if (config.option.basetemp is None and not hasattr(config, "workerinput")
            and MEMORY_FS.is_dir() and os.access(MEMORY_FS, os.W_OK)
            and os.environ.get("PBEM_TESTS_ON_DISK") != "1"):
        made = tempfile.mkdtemp(prefix="pbem-tests-", dir=MEMORY_FS)
        config.stash[_MADE_BASETEMP] = made
        config.option.basetemp = os.path.join(made, "pytest")
        # Code under test that makes its own temporary folders (pbem simulate's throwaway
        # campaigns) and every subprocess, xdist's workers included, use it too.
        os.makedirs(os.path.join(made, "tmp"))
        os.environ["TMPDIR"] = os.path.join(made, "tmp")
        tempfile.tempdir = None
    if sys.dont_write_bytecode and not hasattr(config, "workerinput"):
        _share_bytecode(config)


def _share_bytecode(config: pytest.Config) -> None:
    """Compile each module once per session, not once per process.

    Where PYTHONDONTWRITEBYTECODE is set (this project's CI machine sets it), every Python
    process compiles every module it imports from source: the two xdist workers, and each of
    the few hundred ``pbem`` commands the tests run as a user would, at about 0.3 s each.
    The session instead keeps the bytecode in a private folder of its own (PYTHONPYCACHEPREFIX,
    mode 0700, removed at the end), so the checkout and the virtual environment still get no
    ``__pycache__`` and no other user can plant bytecode in it.
    """
    made = config.stash.get(_MADE_BASETEMP, None)
    prefix = (tempfile.mkdtemp(prefix="pyc-", dir=made) if made
              else tempfile.mkdtemp(prefix="pbem-tests-pyc-"))
    config.stash[_MADE_PYCACHE] = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix


def pytest_unconfigure(config: pytest.Config) -> None:
    for made in (config.stash.get(_MADE_BASETEMP, None), config.stash.get(_MADE_PYCACHE, None)):
        if made:  # memory is not a disk: give it back
            shutil.rmtree(made, ignore_errors=True)


_MADE_BASETEMP = pytest.StashKey[str]()
_MADE_PYCACHE = pytest.StashKey[str]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The end-to-end tests (marked ``slow``) and the long ones (``long``) first, each
    module's order kept: with ``pytest -n`` they then start early instead of leaving one
    worker to finish them alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None
               and item.get_closest_marker("long") is None)


def table_copy(base: Path, root: Path) -> Table:
    """A copy at ``root`` of the conformance campaign at ``base`` (made by :func:`make_table`,
    keys from :func:`seeded_key`), for a test of its own."""
    shutil.copytree(base, root)
    return Table(root, campaign_mod.open_campaign(root, games.get), seeded_key("gm"),
                 {p: seeded_key(p) for p in PLAYERS})


def run_pbem(*args: str, cwd: Path, ok: bool = True, stdin: str | None = None,
             fresh: bool = False) -> subprocess.CompletedProcess[str]:
    """``pbem ARGS`` run from ``cwd`` with ``stdin``, its exit code and output; asserts
    success unless ``ok=False``.

    By default the command runs in this process, through the same entry point as the
    ``pbem`` script (``pbem.cli.main``), with its own standard streams (pipes, as from a
    shell script) and working folder: what click's CliRunner does, without the quarter of a
    second a new interpreter costs. ``fresh=True`` starts a real process, for what only
    one shows (a device as output, a terminal, signals, the environment); the README and wheel
    tests always run real processes, and the OpenSSH flow does up to its first record."""
    if fresh:
        proc = subprocess.run([sys.executable, "-m", "pbem", *args], cwd=cwd,
                              capture_output=True, text=True, input=stdin,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    else:
        proc = _run_in_process(list(args), cwd, stdin)
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def _run_in_process(args: list[str], cwd: Path, stdin: str | None
                    ) -> subprocess.CompletedProcess[str]:
    import io

    from pbem.cli import main

    def stream(data: bytes = b"") -> io.TextIOWrapper:
        return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", write_through=True)

    saved = sys.stdin, sys.stdout, sys.stderr, os.getcwd()
    out, err = stream(), stream()
    sys.stdin, sys.stdout, sys.stderr = stream((stdin or "").encode()), out, err
    try:
        os.chdir(cwd)
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved[:3]
        os.chdir(saved[3])
    text = [s.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]
            for s in (out, err)]
    return subprocess.CompletedProcess(["pbem", *args], code, text[0], text[1])


def seeded_key(label: str) -> Ed25519PrivateKey:
    return keys.key_from_seed(hashlib.sha256(f"pbem-test-key/{label}".encode()).digest())


def hexof(label: str) -> str:
    return hashlib.sha256(f"pbem-test/{label}".encode()).hexdigest()


@dataclass
class Table:
    """A conformance campaign on disk with every player's key, and ways to play it."""

    root: Path
    campaign: Campaign
    gm: Ed25519PrivateKey
    player_keys: dict[str, Ed25519PrivateKey]
    overrides: dict[tuple[str, str], dict[str, object]] = field(default_factory=dict)

    def reopen(self) -> Campaign:
        self.campaign = campaign_mod.open_campaign(self.root, games.get)
        return self.campaign

    def form(
        self,
        player: str,
        orders: dict[str, object] | None = None,
        phase_id: str | None = None,
        salt_label: str = "",
    ) -> str:
        _, state, phase = engine.open_phase(self.campaign)
        assert phase is not None
        if orders is None:
            bot = Stream(hashlib.sha256(f"bot/{phase.id}/{player}".encode()).digest())
            orders = (
                self.campaign.ruleset.bot_join(player, bot)
                if phase.id == JOIN_PHASE
                else self.campaign.ruleset.bot_orders(
                    self.campaign.ruleset.view(state, player), phase, player, bot
                )
            )
        text = render_form(
            self.campaign.id,
            player,
            phase,
            orders_toml(orders),
            hexof(f"salt/{phase.id}/{player}/{salt_label}"),
            hexof(f"entropy/{phase.id}/{player}"),
            self.campaign.envelope_hash,
        )
        if phase_id is not None:
            text = text.replace(f'phase = "{phase.id}"', f'phase = "{phase_id}"')
        return text

    def signed(
        self,
        player: str,
        orders: dict[str, object] | None = None,
        key: Ed25519PrivateKey | None = None,
        **kw: object,
    ) -> str:
        return sign_text(
            self.form(player, orders, **kw),  # type: ignore[arg-type]
            key or self.player_keys[player],
            fresh=None,
        )

    def submit(self, text: str, source: str = "orders.txt") -> engine.SubmitResult:
        return engine.submit(self.campaign, text.encode(), source)

    def submit_all(self) -> None:
        _, _, phase = engine.open_phase(self.campaign)
        assert phase is not None
        for p in phase.actors:
            orders = self.overrides.get((phase.id, p))
            result = self.submit(self.signed(p, orders))
            assert not result.errors, [e.render() for e in result.errors]

    def adjudicate(self, force: bool = False) -> list[int]:
        return engine.adjudicate(self.campaign, lambda: self.gm, force=force)

    def play_phases(self, n: int) -> None:
        """Submit and adjudicate the next ``n`` phases that take orders."""
        for _ in range(n):
            self.submit_all()
            self.adjudicate()

    def play_to_end(self) -> None:
        while (phase := engine.open_phase(self.campaign)[2]) is not None:
            pending = engine.pending_orders(self.campaign, phase)
            if set(pending) != set(phase.actors):
                self.submit_all()
            self.adjudicate()

    def ledger_bytes(self) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted((self.root / "ledger").iterdir())}



def tampered_copy(campaign_dir: Path, work: Path, data: Any) -> Path:
    """A copy of ``campaign_dir`` at ``work`` with one byte of one ledger record changed,
    the record, position and change drawn by Hypothesis (``data``: ``st.data()``)."""
    from hypothesis import strategies as st

    shutil.copytree(campaign_dir, work)
    records = sorted((work / "ledger").glob("*.toml"))
    path = data.draw(st.sampled_from(records), label="record")
    raw = bytearray(path.read_bytes())
    pos = data.draw(st.integers(0, len(raw) - 1), label="position")
    raw[pos] = (raw[pos] + data.draw(st.integers(1, 255), label="delta")) % 256
    path.write_bytes(bytes(raw))
    return work

def make_table(
    root: Path, players: tuple[str, ...] = PLAYERS, rounds: str = "2", chain_length: int = 64,
    *, ruleset: Ruleset | None = None, key_of: Mapping[str, str] | None = None,
    version: int = 2, campaign_id: str = "test-campaign",
) -> Table:
    """A conformance campaign (or ``ruleset``, registered by its name) whose players' keys
    are ``seeded_key(key_of.get(player, player))``: the same id and heads whatever the keys
    (in ``version`` 1 the same campaign.toml too: it names no key)."""
    gm = seeded_key("gm")
    pk = {p: seeded_key((key_of or {}).get(p, p)) for p in players}
    key_dir = root.parent / f"{root.name}-keys"
    key_dir.mkdir(parents=True, exist_ok=True)
    if not (key_dir / "gm").exists():
        keys.write_keypair(key_dir / "gm", gm)
    campaign_mod.create(
        root,
        ruleset or games.get("conformance"),
        campaign_id=campaign_id,
        gm_key=gm,
        gm_key_path=str(key_dir / "gm"),
        players={p: k.public_key().public_bytes_raw() for p, k in pk.items()},
        options={"rounds": rounds},
        chain_length=chain_length,
        heads=(hashlib.sha256(b"s-head").digest(), hashlib.sha256(b"t-head").digest()),
        version=version,
    )
    return Table(root, campaign_mod.open_campaign(root, games.get), gm, pk)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path / "camp")


@pytest.fixture
def table_factory(tmp_path: Path) -> Callable[..., Table]:
    counter = iter(range(1000))

    def make(**kw: object) -> Table:
        return make_table(tmp_path / f"camp{next(counter)}", **kw)  # type: ignore[arg-type]

    return make


@pytest.fixture
def ssh_keygen() -> str:
    path = shutil.which("ssh-keygen")
    if path is None:
        pytest.fail("ssh-keygen (openssh-client) is required; .ci/run installs it")
    return path


# --- the one browser of the test session -------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
# Headless, as root in a container, with no network: nothing may reach out on its own.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
#: Every test that uses ``browser`` carries this mark: with ``pytest -n`` (pytest-xdist,
#: ``--dist loadgroup`` in the README's command) they all run on one worker, which starts
#: Chromium once.
in_browser = pytest.mark.xdist_group("chromium")


def browser_or_skip() -> Any:
    """playwright's sync API, or a skip (a failure when PBEM_REQUIRE_BROWSER=1)."""
    missing = ""
    if not CHROMIUM.is_file():
        missing = f"{CHROMIUM} is missing (Debian package chromium; .ci/run installs it)"
    try:
        from playwright import sync_api
    except ImportError:
        missing = missing or "the playwright package is missing (pip install -e '.[test]')"
    if missing:
        if os.environ.get("PBEM_REQUIRE_BROWSER") == "1":
            pytest.fail(f"PBEM_REQUIRE_BROWSER=1 but {missing}")
        pytest.skip(missing)
    return sync_api


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by playwright (never a downloaded browser); one
    per test session (per xdist worker), each test in a context of its own."""
    sync_api = browser_or_skip()
    with sync_api.sync_playwright() as pw:
        # playwright gives the browser a new, empty profile (--user-data-dir) of its own.
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class BrowserDemo:
    """A finished demo campaign for the browser tests, and its public site: built once, the
    first time a test asks for it (the games whose reports alone are opened never build one)."""

    def __init__(self, campaign: Campaign, out: Path) -> None:
        self.campaign = campaign
        self._out = out
        self._built = False

    @property
    def site(self) -> Path:
        if not self._built:
            from pbem.channels import site

            result = site.build(self.campaign, self._out)
            assert result.gazette and result.audit.passed
            self._built = True
        return self._out


#: The demos the browser tests open: (game, players, seed). One of each per session: the
#: browser tests share one xdist worker (``in_browser``), so each is played and its site
#: built once, not once per test module (about 20 s of the suite's budget).
BROWSER_DEMOS = {"mythology": (2, "site"), "cyclades": (3, "a11y"),
                 "mythology-basic": (2, "a11y"), "grecos": (3, "a11y"),
                 "deukalion": (3, "a11y"), "hetairos": (3, "a11y")}
#: Options of those demos (a short Hetairos campaign: its 40-round default is not needed).
BROWSER_OPTIONS = {"hetairos": {"rounds": "8"}}


@pytest.fixture(scope="session")
def browser_demo(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], BrowserDemo]:
    """``browser_demo(game)``: the session's demo of ``game`` and its site (gazettes)."""
    from pbem.core import demo
    from pbem.core.campaign import open_campaign

    made: dict[str, BrowserDemo] = {}

    def get(game: str) -> BrowserDemo:
        if game not in made:
            players, seed = BROWSER_DEMOS[game]
            root = tmp_path_factory.mktemp(f"browser-{game}") / "demo"
            demo.run(games.get(game), root, players=players, seed=seed,
                     options=BROWSER_OPTIONS.get(game, {}), resolve=games.get,
                     with_reports=False)
            c = open_campaign(root / "campaign", games.get)
            made[game] = BrowserDemo(c, root.parent / "site")
        return made[game]

    return get

"""``pbem demo``: a whole campaign played by bots through the real path.

Every order goes the way a player's would: the form is filled, signed with the player's own
SSH key, submitted to the inbox, checked, adjudicated and signed into the ledger; the campaign
is audited at the end. Everything is derived from the seed, so the same seed gives the same
files, byte for byte (ledger, keys, reports).
"""

from __future__ import annotations

import hashlib
import hmac
import textwrap
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.core import audit as audit_mod
from pbem.core import campaign as campaign_mod
from pbem.core import engine, keys, ledger, report, workers
from pbem.core.dice import Stream
from pbem.core.errors import CampaignError, PbemError
from pbem.core.forms import orders_toml, render_form
from pbem.core.fsutil import atomic_write
from pbem.core.ruleset import JOIN_PHASE, Ruleset
from pbem.core.signing import sign_text

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")


@dataclass
class DemoResult:
    root: Path
    campaign_dir: Path
    records: int
    result: dict[str, Any]


class _Seeded:
    """Every secret of the demo, derived from the seed (never used outside demos)."""

    def __init__(self, game: str, seed: str) -> None:
        self.root = hashlib.sha256(f"pbem-demo/1\ngame={game}\nseed={seed}\n".encode()).digest()

    def bytes(self, label: str) -> bytes:
        return hmac.new(self.root, label.encode(), hashlib.sha256).digest()

    def hex(self, label: str) -> str:
        return self.bytes(label).hex()

    def stream(self, label: str) -> Stream:
        return Stream(self.bytes(label))


def run(ruleset: Ruleset, root: Path, *, players: int, seed: str, options: dict[str, str],
        resolve: campaign_mod.RulesetResolver, say: Callable[[str], None] = lambda _: None,
        with_reports: bool = True, timings: dict[str, list[float]] | None = None,
        jobs: int = 1) -> DemoResult:
    """Play the whole campaign; ``timings`` (if given) collects, per phase kind, the seconds
    and the count of its adjudications (for ``pbem simulate``); ``jobs`` above 1 renders the
    reports in ``jobs - 1`` other processes while the game goes on, and re-adjudicates the
    final audit on ``jobs`` processes."""
    if not ruleset.min_players <= players <= min(ruleset.max_players, len(NAMES)):
        raise PbemError(f"{ruleset.title} takes {ruleset.min_players} to "
                        f"{min(ruleset.max_players, len(NAMES))} players")
    if root.exists() and any(root.iterdir()):
        raise CampaignError(f"{root} exists and is not empty; give --dir a new directory")
    s = _Seeded(ruleset.name, seed)
    names = NAMES[:players]
    key_dir = root / "keys"
    key_dir.mkdir(parents=True)
    gm_key = keys.key_from_seed(s.bytes("key/gm"))
    keys.write_keypair(key_dir / "gm", gm_key, "gm@pbem-demo")
    player_keys = {}
    for name in names:
        player_keys[name] = keys.key_from_seed(s.bytes(f"key/{name}"))
        keys.write_keypair(key_dir / name, player_keys[name], f"{name}@pbem-demo")
    cdir = root / "campaign"
    campaign_mod.create(
        cdir, ruleset, campaign_id=f"demo-{ruleset.name}", gm_key=gm_key,
        gm_key_path=str((key_dir / "gm").absolute()),
        players={n: k.public_key().public_bytes_raw() for n, k in player_keys.items()},
        options=options, heads=(s.bytes("chain/s"), s.bytes("chain/t")))
    # A demo is throwaway: no fsync (writes stay atomic). A real campaign is durable.
    campaign = campaign_mod.open_campaign(cdir, resolve, durable=False)
    for line in textwrap.wrap(f"campaign {campaign.id}: {ruleset.title}, players "
                              f"{', '.join(names)}", 78, subsequent_indent="  "):
        say(line)

    # Reports: each record's, as its players would have had them then. With more than one
    # job they are rendered on other cores while the game goes on (same bytes), once the
    # game has shown it is long enough to pay for the workers (REPORT_WORKERS_AFTER).
    reporters = _ReportWorkers(campaign, s, jobs - 1 if with_reports else 0)
    try:
        _play(campaign, s, player_keys, gm_key, with_reports, reporters, timings, say)
        reporters.finish()
    finally:
        reporters.close()
    # The report workers are gone before the audit forks its own (no threads at a fork).
    audited = audit_mod.audit(campaign, jobs=jobs)
    _, final_state, _ = engine.open_phase(campaign)
    standings = ruleset.result(final_state) if final_state is not None else {}
    say(f"audit passed: {audited.records} records, every phase re-adjudicated")
    return DemoResult(root, cdir, audited.records, standings)


def _play(campaign: campaign_mod.Campaign, s: _Seeded,
          player_keys: dict[str, Ed25519PrivateKey], gm_key: Ed25519PrivateKey,
          with_reports: bool, reporters: _ReportWorkers,
          timings: dict[str, list[float]] | None, say: Callable[[str], None]) -> None:
    """Every phase until the game is over: the bots' forms signed and submitted, then the
    phase adjudicated and its records' reports written (or handed to the workers)."""
    ruleset = campaign.ruleset
    progress = Progress(say)

    def write(c: campaign_mod.Campaign, k: int) -> None:
        _write_reports(c, k, s)

    while True:
        _seq, state, phase = engine.open_phase(campaign, shared=True)  # the bots read it
        if phase is None:
            progress.flush()
            return
        for player in phase.actors:
            bot = s.stream(f"bot/{phase.id}/{player}")
            if phase.id == JOIN_PHASE:
                orders = ruleset.bot_join(player, bot)
            else:
                assert state is not None
                orders = ruleset.bot_orders(ruleset.view(state, player), phase, player, bot)
            form = render_form(campaign.id, player, phase, orders_toml(orders),
                               s.hex(f"salt/{phase.id}/{player}"),
                               s.hex(f"entropy/{phase.id}/{player}"), campaign.envelope_hash)
            signed = sign_text(form, player_keys[player], fresh=None)
            result = engine.submit(campaign, signed.encode(), f"{player}.txt")
            if result.errors:
                raise PbemError("the bot's orders were rejected: " + "; ".join(
                    e.render() for e in result.errors))
        started = time.perf_counter()
        inline = with_reports and reporters.pool is None
        written = engine.adjudicate(campaign, lambda: gm_key,
                                    write_reports=write if inline else None)
        if with_reports and not inline:
            reporters.render(written)
        elif written:
            reporters.consider(written[-1])
        if timings is not None:
            spent = timings.setdefault(phase.kind, [0.0, 0])
            spent[0] += time.perf_counter() - started
            spent[1] += 1
        for k in written:
            progress.record(k, phase.id if k == written[0] else _phase_of(campaign, k))


def _phase_of(campaign: campaign_mod.Campaign, seq: int) -> str:
    """The phase record ``seq`` adjudicated (an automatic phase after the one ordered)."""
    data = (campaign.ledger_dir / ledger.record_name(seq)).read_bytes()
    return str(ledger.load(data)["phase"])


class Progress:
    """One line per turn of the game as it is adjudicated: the turn (the part of the phase
    ids before the first dot: ``t03``, ``c02``, ``r01``), its phases in order, a phase taken
    by several players or gods in a row counted once (``move x6``), and its records."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.turn: str | None = None
        self.kinds: list[list[Any]] = []  # [kind, count]
        self.first = self.last = 0

    def record(self, seq: int, phase_id: str) -> None:
        turn, _, rest = phase_id.partition(".")
        kind = rest.partition(".")[0] or turn
        if turn != self.turn:
            self.flush()
            self.turn, self.first = turn, seq
        if self.kinds and self.kinds[-1][0] == kind:
            self.kinds[-1][1] += 1
        else:
            self.kinds.append([kind, 1])
        self.last = seq

    def flush(self) -> None:
        if self.turn is None:
            return
        phases = ", ".join(kind if n == 1 else f"{kind} x{n}" for kind, n in self.kinds)
        span = (f"record {self.first}" if self.first == self.last
                else f"records {self.first}-{self.last}")
        self.say(f"{self.turn:>5}  {phases}  ({span})")
        self.turn, self.kinds = None, []


def standings(result: dict[str, Any]) -> list[str]:
    """The final result as lines for a terminal: each fact (winners, why), then the score as
    a table, best first (ties share a rank)."""
    lines = []
    score = result.get("score")
    first = [k for k in ("winners", "why") if k in result]
    for key in [*first, *(k for k in result if k not in first)]:
        value = result[key]
        if key == "score" or value in ("", [], {}, None) or value == score:
            continue
        if isinstance(value, dict):
            shown = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            shown = ", ".join(map(str, value))
        else:
            shown = str(value)
        lines.append(f"{key}: {shown}")
    if isinstance(score, dict) and score:
        lines.append("standings:")
        ordered = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))
        width = max(len(p) for p in score)
        rank = 0
        for i, (player, points) in enumerate(ordered, start=1):
            if i == 1 or points != ordered[i - 2][1]:
                rank = i
            lines.append(f"  {rank:>2}. {player:<{width}}  {points:>4}")
    return lines


def _write_reports(c: campaign_mod.Campaign, k: int, s: _Seeded) -> None:
    """Every player's report and the gazette of record ``k``, as they were when it was the
    last record (the forms' salts and entropy come from the seed)."""
    out = engine.record_dir(c, k) / "reports"
    loaded = report.load(c, k, as_latest=True)
    for p in (*c.players, None):

        def fresh(what: str, p: str | None = p) -> str:
            return s.hex(f"form/{k}/{p}/{what}")

        text = report.render(c, k, p, fresh=fresh, loaded=loaded)
        atomic_write(out / f"{p or 'gazette'}.txt", text.encode(), 0o600, durable=False)


#: Records after which ``--jobs`` starts its report workers. Before, each record's reports
#: are rendered in line: a short game (the conformance game's 13 records) never pays for
#: forking workers, and a long one hands them the rest. Measured in benchmarks/README.md.
REPORT_WORKERS_AFTER = 32


class _ReportWorkers:
    """Processes that render records' reports while the game goes on, once the game has
    reached :data:`REPORT_WORKERS_AFTER` records (before, and with ``count`` 0, each record's
    reports are rendered in line).

    Forked (:mod:`pbem.core.workers`), so they start with the rules, the data and the
    compiled templates already loaded, and with the campaign to read. A record's files never
    change once written, so a worker reads them while the next records are adjudicated; each
    record's reports are written by one worker."""

    def __init__(self, campaign: campaign_mod.Campaign, s: _Seeded, count: int) -> None:
        self.campaign, self.s, self.count = campaign, s, count
        self.pool: ProcessPoolExecutor | None = None
        self.futures: list[Future[None]] = []

    def consider(self, last: int) -> None:
        """Start the workers if the game has gone far enough (``last``: its last record)."""
        if self.count > 0 and self.pool is None and last >= REPORT_WORKERS_AFTER:
            self.start()

    def start(self) -> None:
        """Fork the ``count`` workers; where forking is not safe, reports stay in line."""
        if not workers.can_fork():
            self.count = 0
            return
        global _for_workers
        report.preload(self.campaign.ruleset.name)
        _for_workers = (self.campaign, self.s)
        self.pool = workers.fork_pool(self.count)
        assert self.pool is not None

    def render(self, records: list[int]) -> None:
        assert self.pool is not None
        self.futures += [self.pool.submit(_render_in_worker, k) for k in records]

    def finish(self) -> None:
        """Wait for every report; the first error of a worker is raised here."""
        for future in self.futures:
            future.result()

    def close(self) -> None:
        """Stop the workers (what is still queued is dropped: an error ended the game)."""
        global _for_workers
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None
        _for_workers = None


#: What the forked report workers inherit: the campaign and the demo's seed.
_for_workers: tuple[campaign_mod.Campaign, _Seeded] | None = None


def _render_in_worker(k: int) -> None:
    assert _for_workers is not None
    campaign, s = _for_workers
    _write_reports(campaign, k, s)

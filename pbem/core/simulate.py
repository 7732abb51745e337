"""``pbem simulate``: many whole bot campaigns through the real path, each one checked.

Every game is a ``pbem demo`` (bots fill the real forms, sign them with their own keys, submit
them to the inbox; the engine adjudicates and signs the ledger) with its own seed, so any game
can be played again on its own. After each game:

- the audit passes, which re-adjudicates every phase and rebuilds every record byte for byte
  (deterministic replay);
- secrecy holds as non-interference: a player's hidden holdings replaced by marker values
  (:meth:`Ruleset.hide_from_others`) change nobody else's view, nor the public one; and the
  salt of every sealed order file (a unique random value) appears in no ledger record before
  the record that reveals it;
- the game's conservation rules hold between every two states (:meth:`Ruleset.invariants`).

A failure names the game and prints the command that plays it again.

The games are throwaway: each is played in a memory file system when there is one
(:func:`scratch_dir`), without fsync (as every demo), and deleted once checked, so a long
simulation costs CPU and not the disk (on this project's VM the disk's file creation was
almost half of a Mythology game's time). ``--keep DIR`` plays each game in ``DIR`` itself.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.core import demo, engine, ledger, workers
from pbem.core.campaign import Campaign, open_campaign
from pbem.core.ruleset import Ruleset

Resolver = Callable[[str], Ruleset]


@dataclass
class GameReport:
    """One simulated game: its numbers, or what went wrong."""

    index: int
    seed: str
    players: int
    command: str
    records: int = 0
    seconds: float = 0.0
    scores: dict[str, int] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    roles: dict[str, str] = field(default_factory=dict)
    phase_seconds: dict[str, list[float]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def players_for(ruleset: Ruleset, index: int, players: int | None) -> int:
    """``players``, or (when not given) every count the game takes, in turn."""
    if players is not None:
        return players
    low, high = ruleset.min_players, min(ruleset.max_players, len(demo.NAMES))
    return low + index % (high - low + 1)


def game_seed(seed: str, index: int) -> str:
    return f"{seed}.{index}"


def command(game: str, seed: str, index: int, players: int, options: dict[str, str]) -> str:
    opts = "".join(f" --option {k}={v}" for k, v in sorted(options.items()))
    return (f"pbem simulate {game} --games 1 --start {index} --seed {seed} "
            f"--players {players}{opts} --keep DIR")


#: Linux's memory file system, where throwaway games are played when it is usable.
MEMORY_FS = Path("/dev/shm")
#: Room a memory file system must have left to be used (a 10-player Mythology campaign with
#: its keys is a few MB; several workers each hold one at a time).
MIN_FREE_BYTES = 256 << 20


def scratch_dir() -> Path | None:
    """Where throwaway games go: :data:`MEMORY_FS` when it is a writable directory with room,
    else ``None`` (the normal temp dir, ``TMPDIR``). A game played there never reaches the
    disk; its files are gone when the game has been checked."""
    try:
        free = os.statvfs(MEMORY_FS)
    except OSError:
        return None
    if not MEMORY_FS.is_dir() or not os.access(MEMORY_FS, os.W_OK | os.X_OK):
        return None
    return MEMORY_FS if free.f_bavail * free.f_frsize >= MIN_FREE_BYTES else None


def play(game: str, index: int, *, seed: str, players: int | None, options: dict[str, str],
         resolve: Resolver, keep: Path | None = None, where: Path | None = None
         ) -> GameReport:
    """Play and check game number ``index``. ``keep``: play it in keep/<index> and leave it
    there; else it is played in a new directory under ``where`` (default: :func:`scratch_dir`,
    else the temp dir) and deleted."""
    ruleset = resolve(game)
    n = players_for(ruleset, index, players)
    report = GameReport(index, game_seed(seed, index), n,
                        command(game, seed, index, n, options))
    if keep is not None:
        base = None
        root = keep / f"{index:05d}"
        if root.exists():
            shutil.rmtree(root)
    else:
        base = Path(tempfile.mkdtemp(prefix=f"pbem-sim-{game}-", dir=where or scratch_dir()))
        root = base / "game"
    started = time.perf_counter()
    try:
        result = demo.run(ruleset, root, players=n, seed=report.seed, options=options,
                          resolve=resolve, with_reports=False, timings=report.phase_seconds)
        report.seconds = time.perf_counter() - started
        report.records = result.records
        report.scores = dict(result.result.get("score", {}))
        campaign = open_campaign(result.campaign_dir, resolve, durable=False)
        report.seats = list(campaign.players)
        report.problems += check(campaign)
        _, final, _ = engine.open_phase(campaign)
        if final is not None:
            report.roles = ruleset.roles(final)
    except Exception as exc:  # a simulation reports every failure, whatever it is
        report.problems.append(f"{type(exc).__name__}: {exc}")
    finally:
        if base is not None:
            shutil.rmtree(base, ignore_errors=True)
    return report


# --- the checks --------------------------------------------------------------------------


def check(campaign: Campaign, *, sample: int = 2) -> list[str]:
    """Every check after a game (the audit already ran in the demo). ``sample``: how many
    other players' views are compared per record, besides the public view."""
    problems: list[str] = []
    ruleset = campaign.ruleset
    players = list(campaign.players)
    raw = dict(ledger.iter_records(campaign.ledger_dir))
    records = {seq: ledger.load(data) for seq, data in raw.items()}
    before = None
    for seq in sorted(records):
        record = records[seq]
        state = engine.load_state(campaign, seq)
        assert state is not None
        private = engine.load_private(campaign, seq)["private"]
        for message in ruleset.invariants(before, state, record.get("events", []), private):
            problems.append(f"record {seq} ({record['phase']}): {message}")
        # Non-interference: one player's secrets changed, the others' views are not.
        owner = players[seq % len(players)]
        hidden = ruleset.hide_from_others(state, owner)
        if hidden is not None:
            others = [p for p in players if p != owner]
            k = seq % len(others) if others else 0
            readers: list[str | None] = [None, *(others[k:] + others[:k])[:sample]]
            for reader in readers:
                if ruleset.view(hidden, reader) != ruleset.view(state, reader):
                    who = reader or "the public"
                    problems.append(f"record {seq} ({record['phase']}): the view of {who} "
                                    f"changes with {owner}'s hidden holdings (a leak)")
        before = state
    problems += _sealed_salts(campaign, raw, records)
    return problems


def _sealed_salts(campaign: Campaign, raw: dict[int, bytes],
                  records: dict[int, dict[str, Any]]) -> list[str]:
    """The salt of each sealed order file is in no ledger record (``raw``: their bytes)
    before its reveal."""
    problems = []
    revealed_at: dict[tuple[int, str], int] = {}
    sealed: list[tuple[int, str]] = []
    for seq in sorted(records):
        record = records[seq]
        for item in record.get("revealed", []):
            revealed_at[(item["seq"], item["player"])] = seq
        sealed += [(seq, p) for p in record.get("commitments", {})
                   if p not in record.get("orders", {})]
    last = max(records, default=0)
    for seq, player in sealed:
        path = engine.record_dir(campaign, seq) / "orders" / f"{player}.txt"
        salt = engine.parse_stored(path.read_text(), str(path)).envelope.salt.encode()
        until = revealed_at.get((seq, player), last + 1)
        for k in range(seq, until):
            if salt in raw[k]:
                problems.append(f"record {k}: holds the salt of {player}'s sealed orders of "
                                f"record {seq}, before their reveal in record {until}")
    return problems


# --- many games --------------------------------------------------------------------------


def run(game: str, games: int, *, seed: str, players: int | None, options: dict[str, str],
        resolve: Resolver, jobs: int = 1, start: int = 0, keep: Path | None = None,
        where: Path | None = None) -> Iterator[GameReport]:
    """Play games ``start .. start+games-1`` on ``jobs`` processes; reports as they finish.
    ``keep`` and ``where``: as :func:`play`."""
    indexes = range(start, start + games)
    where = where or scratch_dir()
    # Forked workers inherit the registry of games (and a test's variants of them), and the
    # game's modules imported here once rather than in each of them.
    ruleset = resolve(game)
    pool = workers.fork_pool(min(jobs, games)) if jobs > 1 and games > 1 else None
    if pool is None:
        for i in indexes:
            yield play(game, i, seed=seed, players=players, options=options, resolve=resolve,
                       keep=keep, where=where)
        return
    from concurrent.futures import as_completed

    with pool:
        # One game per task: games differ in length, so a worker takes the next when it is
        # free (a report is a few hundred bytes to send back). The larger tables first: the
        # longest games, which would keep one core busy alone at the end.
        order = sorted(indexes, key=lambda i: -players_for(ruleset, i, players))
        futures = [pool.submit(play, game, i, seed=seed, players=players, options=options,
                               resolve=resolve, keep=keep, where=where) for i in order]
        for future in as_completed(futures):
            yield future.result()


def summary(reports: Sequence[GameReport]) -> list[str]:
    """The table ``pbem simulate`` prints: lengths, scores, win rates, the slowest phases."""
    done = sorted(reports, key=lambda r: r.index)
    good = [r for r in done if r.ok]
    lines = [f"games: {len(done)}, passed every check: {len(good)}, failed: "
             f"{len(done) - len(good)}"]
    if not good:
        return lines
    lengths = [r.records for r in good]
    lines.append(f"length (records): min {min(lengths)}, median "
                 f"{statistics.median(lengths):g}, max {max(lengths)}")
    seconds = [r.seconds for r in good]
    lines.append(f"time per game (s): mean {statistics.mean(seconds):.2f}, max "
                 f"{max(seconds):.2f}")
    scores = [s for r in good for s in r.scores.values()]
    if scores:
        winners = [max(r.scores.values()) for r in good if r.scores]
        quartiles = (statistics.quantiles(scores, n=4, method="inclusive")
                     if len(scores) > 1 else [scores[0]] * 3)
        lines.append(f"scores: min {min(scores)}, quartiles "
                     + " / ".join(f"{q:g}" for q in quartiles)
                     + f", max {max(scores)}, mean {statistics.mean(scores):.1f}; "
                     f"winning score mean {statistics.mean(winners):.1f}")
    # [wins, games, fair share]: a win tied between k players counts 1/k to each; the fair
    # share is what a seat would win if every player of each game were equally strong (1/n),
    # so seats that only exist in larger games are not read as weaker.
    by_seat: dict[int, list[float]] = defaultdict(lambda: [0.0, 0, 0.0])
    by_role: dict[str, list[float]] = defaultdict(lambda: [0.0, 0, 0.0])
    for r in good:
        if not r.scores:
            continue
        best = max(r.scores.values())
        top = [p for p, s in r.scores.items() if s == best]
        for seat, p in enumerate(r.seats, start=1):
            share = 1 / len(top) if p in top else 0.0
            tallies = [by_seat[seat]] + ([by_role[r.roles[p]]] if p in r.roles else [])
            for tally in tallies:
                tally[0] += share
                tally[1] += 1
                tally[2] += 1 / len(r.seats)

    def rates(items: Iterable[tuple[Any, list[float]]]) -> str:
        return ", ".join(f"{key}: {w / n:.0%} ({fair / n:.0%}) of {n:g}"
                         for key, (w, n, fair) in items)

    if by_seat:
        lines.append("win rate by seat (fair share): " + rates(sorted(by_seat.items())))
    if by_role:
        lines.append("win rate by side (fair share): " + rates(sorted(
            by_role.items(), key=lambda item: _natural(item[0]))))
    kinds: dict[str, float] = defaultdict(float)
    counts: Counter[str] = Counter()
    for r in good:
        for kind, (secs, n) in r.phase_seconds.items():
            kinds[kind] += secs
            counts[kind] += int(n)
    if kinds:
        # The first phase (join: setup) is often the slowest, once a game; the next ones say
        # which rules cost the most.
        slow = sorted(kinds, key=lambda k: (-kinds[k] / counts[k], k))[:3]
        lines.append("slowest phases (mean per adjudication): " + ", ".join(
            f"{k} {kinds[k] / counts[k] * 1000:.1f} ms ({counts[k]} of them)" for k in slow))
    return lines


def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that puts "seating 2" before "seating 10"."""
    return tuple((0, int(part)) if part.isdigit() else (1, part)
                 for part in re.split(r"(\d+)", text) if part)


def describe_failure(report: GameReport) -> list[str]:
    lines = [f"game {report.index} (seed {report.seed}, {report.players} players) FAILED:"]
    lines += [f"  {p}" for p in report.problems[:10]]
    if len(report.problems) > 10:
        lines.append(f"  ... and {len(report.problems) - 10} more")
    lines.append(f"  reproduce: {report.command}")
    return lines


"""``pbem audit`` over a directory of campaigns: each audited on its own, in parallel.

A forum host may keep thousands of campaigns. Each campaign is audited in a worker process
exactly as ``pbem audit CAMPAIGN`` would (records streamed, so memory stays flat however long
the campaigns are); the results come back in a stable order, one line each.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pbem.core import workers
from pbem.core.campaign import open_campaign
from pbem.core.errors import PbemError
from pbem.core.ruleset import Ruleset

Resolver = Callable[[str], Ruleset]


@dataclass(frozen=True)
class CampaignAudit:
    path: Path
    ok: bool
    records: int
    replayed: bool
    message: str
    seconds: float

    def line(self, base: Path) -> str:
        name = self.path.relative_to(base) if self.path.is_relative_to(base) else self.path
        if not self.ok:
            return f"FAIL {name}: {self.message}"
        how = "every phase re-adjudicated" if self.replayed else "public checks only"
        return f"ok   {name}: {self.records} records, {how} ({self.seconds:.2f} s)"


def find_campaigns(root: Path) -> list[Path]:
    """Every campaign directory (one holding ``campaign.toml``) under ``root``, sorted; the
    search does not descend into a campaign."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        if "campaign.toml" in filenames:
            found.append(Path(dirpath))
            dirnames.clear()
        else:
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
    return sorted(found)


def audit_one(path: Path, resolve: Resolver) -> CampaignAudit:
    from pbem.core import audit

    started = time.perf_counter()
    try:
        result = audit.audit(open_campaign(path, resolve))
    except PbemError as exc:
        return CampaignAudit(path, False, 0, False, str(exc), time.perf_counter() - started)
    return CampaignAudit(path, True, result.records, result.replayed, "",
                         time.perf_counter() - started)


def audit_all(paths: list[Path], resolve: Resolver, *, jobs: int = 1
              ) -> Iterator[CampaignAudit]:
    """The audits of ``paths`` in their order, computed on ``jobs`` processes."""
    pool = workers.fork_pool(jobs) if jobs > 1 and len(paths) > 1 else None
    if pool is None:
        for path in paths:
            yield audit_one(path, resolve)
        return
    from functools import partial

    with pool:
        # Small chunks: campaigns differ in length, and results stream back in order.
        yield from pool.map(partial(audit_one, resolve=resolve), paths,
                            chunksize=max(1, min(16, len(paths) // (jobs * 8))))

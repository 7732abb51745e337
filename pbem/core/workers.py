"""Worker processes for the commands that use several cores (simulate, audit, demo).

Workers are forked: they start with the rules, the component data and the compiled templates
already loaded, and they inherit what the parent prepared for them (a test's variant of a
game, the audit's shared spans) without pickling it. Forking is safe on Linux; macOS's system
libraries are not safe after a fork (Python spawns there) and Windows cannot fork, so there
the commands do all the work in their own process.
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor


def can_fork() -> bool:
    return sys.platform.startswith("linux")


def fork_pool(workers: int) -> ProcessPoolExecutor | None:
    """A pool of ``workers`` forked processes, or ``None`` where forking is not safe (the
    caller then works in its own process). Fork it before starting threads of your own."""
    if workers < 1 or not can_fork():
        return None
    import multiprocessing

    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))

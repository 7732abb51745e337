"""How many examples each property test tries: a share of the count its decorator states.

The README's test command runs every test at EXAMPLES_PERCENT = 50 (the default) so that it
stays under four minutes on a 2-core machine; `.ci/run` then runs the property tests alone
(`pytest -m hypothesis`, the marker Hypothesis gives every @given test) at 200, four times as
many examples. Set PBEM_EXAMPLES_PERCENT to choose another share for a local run. Tests with
``derandomize=True`` try the same examples at a given share, so a failure reproduces.
"""

from __future__ import annotations

import os

from hypothesis import settings

EXAMPLES_PERCENT = int(os.environ.get("PBEM_EXAMPLES_PERCENT", "50"))


def examples(stated: int) -> int:
    """``stated`` scaled by PBEM_EXAMPLES_PERCENT, never below 10."""
    return max(10, stated * EXAMPLES_PERCENT // 100)


# Property tests that state no count get Hypothesis's default of 100, scaled the same way.
settings.register_profile("pbem", max_examples=examples(100))
settings.load_profile("pbem")

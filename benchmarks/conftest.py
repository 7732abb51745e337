"""Benchmarks reuse the test fixtures (a conformance campaign with seeded keys)."""

from pbem.core import engine, ledger
from tests.conftest import make_table, table  # noqa: F401

# The test suite's checks of shared states (a copy per read) and of the records the engine
# hands its readers (a parse per record): benchmarks measure what pbem itself does.
engine.CHECK_SHARED = False
ledger.CHECK_REMEMBERED = False

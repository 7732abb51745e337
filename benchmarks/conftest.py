"""Benchmarks reuse the test fixtures (a conformance campaign with seeded keys)."""

from pbem.core import engine
from tests.conftest import make_table, table  # noqa: F401

# The test suite's check of shared states costs a copy per read: benchmarks measure what
# pbem itself does.
engine.CHECK_SHARED = False

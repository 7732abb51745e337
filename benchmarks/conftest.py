"""Benchmarks reuse the test fixtures (a conformance campaign with seeded keys)."""

from tests.conftest import make_table, table  # noqa: F401

"""The README's test command runs the suite on both cores with ``--dist loadgroup``: tests
marked ``xdist_group`` (the browser tests, the modules that play a campaign once and share
it) must run on one worker. pytest 9.2 with pytest-xdist 3.8 silently stops grouping
(pytest-dev/pytest-xdist#1386: xdist marks the group in a node id field pytest no longer
reads), which cost the suite about 20 s and put it over its 4-minute budget; pyproject.toml
bounds pytest below 9.2. This test fails when a pytest or xdist upgrade breaks it again."""

from __future__ import annotations

import pytest


def test_xdist_groups_are_kept_together(request: pytest.FixtureRequest) -> None:
    if not request.config.getvalue("loadgroup"):
        pytest.skip("not run under pytest -n N --dist loadgroup")
    marked = [item for item in request.session.items
              if item.get_closest_marker("xdist_group") is not None]
    assert marked, "no test carries an xdist_group mark"
    # xdist's worker tells the scheduler each test's group by this suffix of its node id.
    lost = [item.nodeid for item in marked if "@" not in item.nodeid]
    assert lost == [], f"{len(lost)} grouped tests lost their group, e.g. {lost[:3]}"

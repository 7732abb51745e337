"""The public site in a real browser: Debian's Chromium, headless, driven by playwright.

The site is opened from the file system (``file://``), the hardest place for relative links:
every page loads without a console error or a script error, every link of every page leads to
a file of the site (and to an element, for ``#fragment`` links), nothing is requested from
anywhere else, the gazette's SVG board is drawn with a real size, and a screenshot is made.

No browser is ever downloaded: playwright drives ``/usr/bin/chromium`` (``.ci/run`` installs
the package and sets ``PBEM_REQUIRE_BROWSER=1``, so in CI a missing browser fails the test
instead of skipping it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlparse

import pytest

from pbem.channels import site
from tests.conftest import BrowserDemo, in_browser

pytestmark = [pytest.mark.slow, in_browser]

RECORD = 12  # mid turn 2 of Mythology: the board is full of pieces


@pytest.fixture(scope="module")
def built(browser_demo: Callable[[str], BrowserDemo]) -> Path:
    """The GM's site of a 2-player Mythology demo: gazettes with their board pictures (the
    session's, shared with the other browser tests)."""
    return browser_demo("mythology").site


class Watched:
    """A page that records console errors, script errors and every request it makes."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        # Anything not from the file system is refused before it reaches the (closed) network.
        self.context.route("http*://**", lambda route: route.abort())
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url}"))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def open(self, path: Path) -> None:
        self.page.goto(path.as_uri(), wait_until="load")

    def close(self) -> None:
        self.context.close()


def _path(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file", f"a link leaves the site: {url}"
    return Path(unquote(parsed.path))


def test_pages_load_cleanly_and_every_link_resolves(browser: Any, built: Path) -> None:
    """The index and the kinds of record page (the first, one mid game, the final one with
    the revealed orders) load cleanly; every link on them leads into the site. (Every link
    of every page is also followed on disk in test_site.py, fast.)"""
    w = Watched(browser)
    root = built.resolve()
    last = len(list((built / "records").iterdir()))
    pages = [root / "index.html", *(root / site.page_name(k) for k in (1, RECORD, last))]
    linked: set[Path] = set()
    fragments: list[tuple[Path, str, Path]] = []
    ids: dict[Path, set[str]] = {}
    try:
        for page in pages:
            w.open(page)
            assert w.errors == [], (page, w.errors)
            assert w.page.title().startswith("demo-mythology")
            ids[page] = set(w.page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
            for href in w.page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
                url, fragment = urldefrag(href)
                target = _path(url)
                assert root in target.parents and target.is_file(), (page, href)
                linked.add(target)
                if fragment:
                    fragments.append((page, fragment, target))
    finally:
        w.close()
    # The index links every record page; record pages link their raw record and signature.
    assert {p.resolve() for p in built.rglob("*.html")} <= linked | {root / "index.html"}
    assert {root / "ledger" / f"{last:06d}.toml", root / "ledger" / f"{last:06d}.toml.sig",
            root / "campaign.toml", root / "allowed_signers"} <= linked
    for page, fragment, target in fragments:
        assert target in ids and fragment in ids[target], (page, fragment)
    outside = [u for u in w.requests if not u.startswith(("file://", "data:"))]
    assert outside == []


def test_the_board_is_drawn_and_the_page_screenshots(browser: Any, built: Path,
                                                     tmp_path: Path) -> None:
    w = Watched(browser)
    try:
        w.open(built / site.page_name(RECORD))
        board = w.page.locator("#site-gazette svg").first
        board.scroll_into_view_if_needed()
        assert board.is_visible()
        box = board.bounding_box()
        assert box is not None and box["width"] > 0 and box["height"] > 0, box
        # The map has room for its hexes: not a collapsed or hidden picture.
        assert box["width"] >= 300 and box["height"] >= 150, box
        shot = tmp_path / "record.png"
        w.page.screenshot(path=str(shot), full_page=True)
        w.open(built / "index.html")
        audit = w.page.locator("#site-audit")
        assert audit.is_visible() and audit.inner_text().startswith("Audit passed.")
        w.page.screenshot(path=str(tmp_path / "index.png"))
        assert w.errors == []
    finally:
        w.close()
    for name in ("record.png", "index.png"):
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_14_on_a_phone_the_index_and_a_record_page_fit_the_width(browser: Any,
                                                                  built: Path) -> None:
    """At 390 CSS px (a phone) nothing makes the index or a record page scroll sideways: the
    records table becomes one labelled block per record; a command is never broken inside
    (it was shown as "-" / "-explain" on two lines). The gazette's board fits the width
    too: no frame of its own scrolls sideways (tests/test_board_phone_browser.py checks its
    texts' sizes)."""
    context = browser.new_context(viewport={"width": 390, "height": 800})
    context.route("http*://**", lambda route: route.abort())
    page = context.new_page()
    try:
        for name in ("index.html", site.page_name(RECORD)):
            page.goto((built / name).resolve().as_uri(), wait_until="load")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (name, width)
        # The gazette's board fits its frame (it had a frame of its own that scrolled).
        sizes = page.evaluate("""() => {
            const b = document.querySelector('#site-gazette section.board');
            return [b.scrollWidth, b.clientWidth,
                    getComputedStyle(b.querySelector('figure.board')).overflowX]; }""")
        assert sizes[0] <= sizes[1] and sizes[2] == "visible", sizes
        page.goto((built / "index.html").resolve().as_uri(), wait_until="load")
        first = page.locator("#site-records td[data-label='Phase']").first
        assert first.is_visible()
        label = page.evaluate("""() => getComputedStyle(
            document.querySelector("#site-records td[data-label='Phase']"), '::before')
            .content""")
        assert "Phase" in label
        page.goto((built / site.page_name(RECORD)).resolve().as_uri(), wait_until="load")
        lines = page.evaluate("""() => document.querySelector('code.site-cmd')
            .getClientRects().length""")
        assert lines == 1
    finally:
        context.close()

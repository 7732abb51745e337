"""Reports in every format (txt, md, bbcode, html) for every game, players and the gazette.

What a format may not get wrong: the same events, dice and commitments as the ledger record;
the receipt; the deadline; the order form, byte for byte, so that the copy a player takes from
a forum post or a web page signs and is accepted; escaping (a text from the game can never
become markup); a standalone HTML page with a board picture that has a size.

Golden files (tests/golden/reports/<game>/) fix one record of a seeded demo per game, for one
player and the gazette, in every format. After an intended change, regenerate them (the reason
goes in the commit message):

    PBEM_REGENERATE_GOLDEN=1 pytest tests/test_report_formats.py
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.core import armor, deadlines, demo, engine, escape, keys, ledger, report
from pbem.core.campaign import Campaign, open_campaign
from pbem.core.signing import sign_text
from tests.conftest import in_browser

# One xdist worker runs this module: its module-scoped fixtures are made once.
pytestmark = pytest.mark.xdist_group("report-formats")

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "reports"

#: One seeded demo per game, and the record of it the golden files fix: a record with
#: commitments, the player's own receipt and an order form for the next phase.
#: Cyclades: record 30 (seed "formats", 3 players) resolves the cycle 7 auction and opens
#: alice's act phase (c07.act.ares); no act-opening record of that demo has dice (the bots
#: never fight there), so the dice of the format check come from the sampled records.
DEMOS = {"conformance": (3, 6), "mythology": (2, 32), "cyclades": (3, 30)}
SEED = "formats"


def fixed(what: str) -> str:
    """Salt and entropy of the forms in these tests: the same every run (golden files)."""
    return hashlib.sha256(f"pbem-test-report/{what}".encode()).hexdigest()


@dataclass
class Played:
    root: Path           # the demo's folder: campaign/ and keys/
    players: tuple[str, ...]
    copies: dict[int, Campaign] = field(default_factory=dict)

    @property
    def campaign(self) -> Campaign:
        return open_campaign(self.root / "campaign", games.get)

    def at(self, seq: int, tmp: Path) -> Campaign:
        """The campaign as it stood right after record ``seq`` (records are append-only, so
        this is the earlier campaign exactly): its phase is open and reports carry a form."""
        if seq not in self.copies:
            dst = tmp / f"{self.root.name}-at-{seq}"
            src = self.root / "campaign"
            shutil.copytree(src, dst)
            for path in (dst / "ledger").iterdir():
                if int(path.name[:6]) > seq:
                    path.unlink()
            for path in (dst / "gm" / "records").iterdir():
                if int(path.name) > seq:
                    shutil.rmtree(path)
            for name in ("pending", "inbox"):  # nothing had come in for the open phase yet
                shutil.rmtree(dst / "gm" / name)
                (dst / "gm" / name).mkdir(mode=0o700)
            self.copies[seq] = open_campaign(dst, games.get)
        return self.copies[seq]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Played]:
    out = {}
    for game, (players, _) in DEMOS.items():
        root = tmp_path_factory.mktemp(f"formats-{game}") / "demo"
        demo.run(games.get(game), root, players=players, seed=SEED, options={},
                 resolve=games.get, with_reports=False)
        out[game] = Played(root, demo.NAMES[:players])
    return out


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("copies")


# --- reading each format back ------------------------------------------------------------


class _Page(HTMLParser):
    """Everything the tests read from an HTML report: tags with attributes, each <li> of the
    events section, the text of <pre class="form">, the text of the whole page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.section = ""
        self.events: list[str] = []
        self.form: list[str] = []
        self.text: list[str] = []
        self._li: list[str] | None = None
        self._in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "section":
            self.section = a.get("class") or ""
        if tag == "li" and self.section == "events":
            self._li = []
        if tag == "pre" and a.get("class") == "form":
            self._in_form = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self._li is not None:
            self.events.append("".join(self._li))
            self._li = None
        if tag == "pre":
            self._in_form = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._li is not None:
            self._li.append(data)
        if self._in_form:
            self.form.append(data)


def page(text: str) -> _Page:
    p = _Page()
    p.feed(text)
    p.close()
    return p


def md_plain(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def bb_plain(text: str) -> str:
    """BBCode text as the reader sees it, with pbem's escape undone (escape.bbcode)."""
    return text.replace(escape.BB_BRACKET, "[")


def md_blocks(text: str) -> list[str]:
    """The indented code blocks of a Markdown report, as a reader copies them."""
    return ["\n".join(line[4:] for line in m.group(0).rstrip("\n").split("\n")) + "\n"
            for m in re.finditer(r"(?:^ {4}.*\n(?:\n*(?= {4}))?)+", text, re.M)]


def section(text: str, start: str, end: str) -> str:
    i = text.index(start) + len(start)
    return text[i:text.index(end, i)]


def events_of(fmt: str, text: str) -> list[str]:
    """The lines of "what happened", as the reader sees them (markup and escapes removed;
    for txt, wrapped lines joined again)."""
    if fmt == "txt":
        lines = text.splitlines()
        start = next(i for i, x in enumerate(lines) if x.lower() == "what happened")
        items: list[str] = []
        for line in lines[start + 1:]:
            if not line.strip():
                break
            if line.startswith("- "):
                items.append(line[2:])
            else:
                items[-1] += " " + line.strip()
        return [x.replace("[only you] ", "Only you: ") for x in items]
    if fmt == "md":
        body = section(text, "## What happened\n\n", "\n\n## ")
        return [md_plain(x[2:]).replace("**Only you:**", "Only you:")
                for x in body.splitlines()]
    if fmt == "bbcode":
        body = section(text, "What happened[/u][/b]\n[list]\n", "[/list]")
        return [bb_plain(x[3:]).replace("[b]Only you:[/b]", "Only you:")
                for x in body.splitlines()]
    return page(text).events


def draws_of(fmt: str, text: str) -> list[tuple[int, str, int, int]]:
    """Every die roll shown: (index, label, value, faces)."""
    patterns = {  # a die with printed faces adds ", rolled 2" (Ruleset.die_face)
        "md": r"^- (\d+): `(.*)` = \*\*(\d+)\*\* \(1-(\d+)\)(?:, rolled \S+)?$",
        "bbcode": r"^\[\*\](\d+): (.*) = \[b\](\d+)\[/b\] \(1-(\d+)\)(?:, rolled \S+)?$",
        "html": r'<tr><td class="num">(\d+)</td><td><code>(.*?)</code></td><td class="num">'
                r"<strong>(\d+)</strong></td><td>1-(\d+)(?:, rolled \S+)?</td></tr>",
    }
    if fmt == "txt":
        base = re.findall(r"^  (\d+): (.*) \(1-(\d+)\) = (\d+)$", text, re.M)
        game = re.findall(r"^  (\d+): (.*) = (\d+) \(1-(\d+)\)(?:, rolled \S+)?$", text,
                          re.M)
        return ([(int(i), lab, int(v), int(n)) for i, lab, n, v in base]
                + [(int(i), lab, int(v), int(n)) for i, lab, v, n in game])
    unescape = {"md": lambda s: s, "bbcode": bb_plain,
                "html": html.unescape}[fmt]
    return [(int(i), unescape(lab), int(v), int(n))
            for i, lab, v, n in re.findall(patterns[fmt], text, re.M)]


def commitments_of(fmt: str, text: str) -> dict[str, str]:
    if fmt == "html":
        return dict(re.findall(r'<tr><th>([a-z][a-z0-9_-]*)</th><td class="hash">'
                               r"([0-9a-f]{64})</td></tr>", text))
    if fmt == "txt":
        body = section(text, "OMMITMENTS OF THIS PHASE\n" if "OMMITMENTS OF" in text
                       else "Commitments of this phase\n", "\n\n")
        # Mythology splits each hash over two lines; a long name puts it on the next line.
        flat = re.sub(r":\n +([0-9a-f]{64})$", r": \1", re.sub(r"\n {11}", "", body), flags=re.M)
        return dict(re.findall(r"^  ([a-z][a-z0-9_-]*): ([0-9a-f]{64})$", flat, re.M))
    return dict(re.findall(r"^(?: {4})?([a-z][a-z0-9_-]*) +([0-9a-f]{64})$", text, re.M))


def form_of(fmt: str, text: str) -> str:
    """The order form as a reader copies it out of the report."""
    if fmt == "txt":
        end = "-----END PBEM ORDERS-----\n"
        return text[text.index("Order form: "):text.index(end) + len(end)]
    if fmt == "md":
        return next(b for b in md_blocks(text) if "BEGIN PBEM ORDERS" in b)
    if fmt == "bbcode":
        blocks = re.findall(r"\[code\](.*?)\[/code\]", text, re.S)
        return str(next(b for b in blocks if "BEGIN PBEM ORDERS" in b))
    return "".join(page(text).form)


def plain(fmt: str, text: str) -> str:
    if fmt == "md":
        return md_plain(text)
    if fmt == "bbcode":
        return bb_plain(text)
    if fmt == "html":
        return "".join(page(text).text)
    return text


def expected_events(c: Campaign, loaded: report.Loaded, who: str | None,
                    private: list[dict[str, Any]]) -> list[str]:
    """The record's events as the game words them for ``who`` (``Ruleset.event_text``: names
    for ids, issue 14), from the ledger's own events."""
    view = c.ruleset.view(loaded.state, who)
    public = [c.ruleset.event_text(view, e) for e in loaded.record.get("events", [])]
    return public + [f"Only you: {c.ruleset.event_text(view, e)}" for e in private]


# --- the tests ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(DEMOS))
def test_every_format_renders_for_players_and_the_gazette(game: str,
                                                           played: dict[str, Played],
                                                           copies: Path) -> None:
    d = played[game]
    seq = DEMOS[game][1]
    c = d.at(seq, copies)
    phase = engine.open_phase(c)[2]
    assert phase is not None  # each DEMOS record leaves a phase open
    for fmt in report.FORMATS:
        for who in (*d.players, None):
            text = report.render(c, seq, who, fmt, fresh=fixed)
            assert c.id in plain(fmt, text), (fmt, who)
            if who is not None:
                assert "BEGIN PBEM ORDERS" in text or who not in phase.actors
            else:
                assert "BEGIN PBEM ORDERS" not in text  # the gazette has no form
            if fmt == "html":
                p = page(text)
                names = [t for t, _ in p.tags]
                assert names[0] == "html" and "script" not in names
                assert ("meta", {"name": "viewport",
                                 "content": "width=device-width, initial-scale=1"}) in p.tags
                # The overview (issue 14: close-ups and legend symbols are other svgs).
                svgs = [a for t, a in p.tags if t == "svg"
                        and (a.get("class") or "").split()[:1] == ["board"]
                        and "closeup" not in (a.get("class") or "")]
                assert len(svgs) == 1, (game, who)
                box = [int(x) for x in (svgs[0]["viewbox"] or "").split()]
                assert box[:2] == [0, 0] and box[2] > 0 and box[3] > 0
                assert (svgs[0]["width"], svgs[0]["height"]) == (str(box[2]), str(box[3]))
                # Standalone: nothing is loaded from anywhere.
                assert not [a for t, a in p.tags if "src" in a or t == "link"]
                assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
                assert "https://" not in text


@pytest.mark.parametrize("game", sorted(DEMOS))
def test_formats_show_the_events_dice_and_commitments_of_the_record(
        game: str, played: dict[str, Played]) -> None:
    d = played[game]
    c = d.campaign
    last = ledger.count(c.ledger_dir)
    step = 1 if game == "conformance" else 9
    seqs = sorted({*range(1, last + 1, step), last, DEMOS[game][1]})
    checked_draws = checked_private = 0
    for seq in seqs:
        loaded = report.load(c, seq)
        record, private = loaded.record, loaded.private
        want_draws = [(x["i"], x["label"], x["value"], x["n"]) for x in record.get("draws", [])]
        want_commitments = record.get("commitments", {})
        for who in (*d.players, None):
            mine = private.get(who, []) if who else []
            want = expected_events(c, loaded, who, mine)
            for fmt in report.FORMATS:
                text = report.render(c, seq, who, fmt, fresh=fixed, loaded=loaded)
                where = (game, seq, who, fmt)
                if fmt == "txt":  # plain mail: phones show 78 columns
                    assert max(len(x) for x in text.splitlines()) <= 78, where
                got = events_of(fmt, text)
                # txt wraps at 78 columns; the others keep each text on one line.
                want_here = [" ".join(x.split()) for x in want] if fmt == "txt" else want
                if want:
                    assert got == want_here, where
                else:  # the one line saying that nothing public happened
                    assert len(got) == 1 and re.search(r"nothing public|no public", got[0]), where
                if len(want_draws) <= report.MAX_LISTED_DRAWS:
                    assert draws_of(fmt, text) == want_draws, where
                else:  # listed by kind, one line each (issue 14); the site lists every one
                    assert draws_of(fmt, text) == [], where
                    flat = " ".join(plain(fmt, text).split())
                    summary = report.dice_listing(record["draws"])["dice_summary"]
                    assert all(" ".join(line.split()) in flat for line in summary), where
                    assert f"{len(want_draws)} draws in all, by kind" in flat, where
                assert commitments_of(fmt, text) == want_commitments, where
                if who:
                    shown = plain(fmt, text)
                    assert record["_hash"] in shown.replace("\n" + " " * 28, ""), where
                    own = want_commitments.get(who)
                    assert own is None or own in shown, where
                    # Another player's private events never show.
                    for other, events in private.items():
                        for e in events if other != who else []:
                            if e["text"] not in {x["text"] for x in mine}:
                                assert e["text"] not in shown, (where, other)
            checked_draws += len(want_draws)
            checked_private += len(mine)
    assert checked_draws and checked_private  # the sample had dice and private events


def test_the_deadline_shows_in_every_format(played: dict[str, Played], copies: Path) -> None:
    d = played["conformance"]
    seq = DEMOS["conformance"][1]
    c = d.at(seq, copies)
    phase = engine.open_phase(c)[2]
    assert phase is not None
    settings = c.settings()
    c.save_settings({**settings, "deadlines": {phase.id: "2031-05-04T18:00:00Z",
                                               "grace": "12h"}})
    deadline = "2031-05-04T18:00:00Z (grace 12h, until 2031-05-05T06:00:00Z)"
    assert deadlines.deadline_text(c, phase.id) == deadline
    try:
        for fmt in report.FORMATS:
            for who in (d.players[0], None):
                assert f"Deadline: {deadline}" in plain(
                    fmt, report.render(c, seq, who, fmt, fresh=fixed)), fmt
    finally:
        c.save_settings(settings)


@pytest.mark.parametrize("game", sorted(DEMOS))
def test_the_form_in_every_format_is_the_exact_form_and_is_accepted(
        game: str, played: dict[str, Played], copies: Path) -> None:
    d = played[game]
    seq = DEMOS[game][1]
    c = d.at(seq, copies)
    phase = engine.open_phase(c)[2]
    assert phase is not None
    player = phase.actors[0]
    form = report.context(c, seq, player, fixed)["form"]
    assert form.startswith("Order form: ") and form.endswith("-----END PBEM ORDERS-----\n")
    key = keys.load_private_key(d.root / "keys" / player)
    body = armor.extract(form)[0].body
    commitment = armor.commitment(armor.normalise(body))
    statuses = []
    for fmt in report.FORMATS:
        copied = form_of(fmt, report.render(c, seq, player, fmt, fresh=fixed))
        assert copied == form, fmt
        result = engine.submit(c, sign_text(copied, key, fresh=None).encode(),
                               f"{player}-{fmt}.txt")
        assert not result.errors, (fmt, [e.render() for e in result.errors])
        assert [(r.player, r.phase, r.commitment) for r in result.receipts] == [
            (player, phase.id, commitment)], fmt
        statuses.append(result.receipts[0].status)
    # The same bytes from every format: the first is accepted, the others are the same file.
    assert statuses == ["accepted"] + ["unchanged"] * (len(report.FORMATS) - 1)
    # Every rendering gets its own salt and entropy unless told otherwise.
    a, b = (form_of("html", report.render(c, seq, player, "html")) for _ in range(2))
    assert a != b and re.sub(r'"[0-9a-f]{64}"', "", a) == re.sub(r'"[0-9a-f]{64}"', "", b)


def test_text_from_the_game_never_becomes_markup(played: dict[str, Played]) -> None:
    d = played["conformance"]
    c = d.campaign
    loaded = report.load(c, 2)
    record, private = loaded.record, loaded.private
    evil = '<script>alert("x")</script> [b]bold[/b] *star* _under_ & &amp;'
    record = {**record, "events": [{"type": "x", "text": evil}]}
    private = {**private, "alice": [{"type": "x", "text": "[url=http://x]<img src=x>[/url]"}]}
    loaded = dataclasses.replace(loaded, record=record, private=private)
    out = {fmt: report.render(c, 2, "alice", fmt, fresh=fixed, loaded=loaded)
           for fmt in report.FORMATS}
    assert evil in out["txt"]
    h = page(out["html"])
    assert "<script" not in out["html"] and "<img" not in out["html"]
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in out["html"]
    assert not [t for t, _ in h.tags if t in ("script", "img")]
    assert events_of("html", out["html"]) == [evil, "Only you: [url=http://x]<img src=x>[/url]"]
    assert "\\<script\\>" in out["md"] and "\\*star\\*" in out["md"] and "\\_under\\_" in out["md"]
    assert events_of("md", out["md"])[0] == evil
    assert "[b]bold[/b]" not in out["bbcode"] and "[url=" not in out["bbcode"]
    assert events_of("bbcode", out["bbcode"])[0] == evil


def test_the_conformance_picture_shows_only_the_readers_own_pledges(
        played: dict[str, Played]) -> None:
    from pbem.games.conformance import board

    d = played["conformance"]
    c = d.campaign
    state = engine.load_state(c, DEMOS["conformance"][1])  # round 2, two pledges each
    assert state is not None

    def shown(who: str | None) -> dict[tuple[str, int], str]:
        picture = c.ruleset.board_svg(c.ruleset.view(state, who), who)
        return {(p, int(r)): v for p, r, v in re.findall(
            r'<g class="pledge" data-player="([a-z]+)" data-round="(\d+)"><title>[^<]*</title>'
            r"<text[^>]*>([^<]*)</text>", picture)}
    for who in (*d.players, None):
        want = {(p, r): (str(state["pledges"][p][r - 1]) if p == who else "?")
                for p in d.players for r in (1, 2)}
        assert shown(who) == want, who
    # A long campaign draws a window of rounds, not a thousand columns.
    view = {**c.ruleset.view(state, None), "rounds": 1000, "round": 500}
    picture = board.svg(view, None)
    assert picture.count(">round ") == board.WINDOW and "rounds 491-502 of 1000 shown" in picture


def _golden_name(game: str, seq: int, who: str | None, fmt: str) -> Path:
    return GOLDEN / game / f"{seq:06d}-{who or 'gazette'}.{fmt}"


@pytest.mark.parametrize("game", sorted(DEMOS))
def test_golden_reports(game: str, played: dict[str, Played], copies: Path) -> None:
    d = played[game]
    seq = DEMOS[game][1]
    c = d.at(seq, copies)
    regenerate = bool(os.environ.get("PBEM_REGENERATE_GOLDEN"))
    for fmt in report.FORMATS:
        for who in (d.players[0], None):
            got = report.render(c, seq, who, fmt, fresh=fixed)
            path = _golden_name(game, seq, who, fmt)
            if regenerate:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(got.encode())
            assert path.is_file(), f"{path} is missing (see the module docstring)"
            want = path.read_bytes().decode()
            if got != want:
                for n, (a, b) in enumerate(zip(got.splitlines(), want.splitlines(),
                                               strict=False), 1):
                    assert a == b, f"{path.name} line {n} differs (module docstring: regenerate)"
                assert got == want, f"{path.name} has a different length"


@pytest.mark.slow
def test_pbem_report_html_from_the_command_line(played: dict[str, Played]) -> None:
    d = played["conformance"]
    cdir = str(d.root / "campaign")
    run = [sys.executable, "-m", "pbem", "report", cdir, "--player", "alice"]
    proc = subprocess.run([*run, "--format", "html"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    p = page(proc.stdout)
    assert ("svg" in [t for t, _ in p.tags]) and "THE GAME IS OVER." in proc.stdout.upper()
    assert "Report for alice" in proc.stdout
    bad = subprocess.run([*run, "--format", "pdf"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "'pdf' is not available; choose txt, md, bbcode, html" in bad.stderr


@pytest.mark.slow
@in_browser
def test_the_html_report_on_a_phone_in_chromium(played: dict[str, Played], copies: Path,
                                                 tmp_path: Path, browser: Any) -> None:
    """Debian's Chromium (headless, driven by playwright; never a downloaded browser) at a
    phone's width: no error, nothing requested, the page does not scroll sideways (the
    board's overview fits the width, issue 14), the board has a real size, and the order
    form's text as the browser gives it to the clipboard is the form (all but the
    selection's last line break, which the order block does not contain)."""
    d = played["mythology"]
    seq = DEMOS["mythology"][1]
    c = d.at(seq, copies)
    player = d.players[0]
    form = report.context(c, seq, player, fixed)["form"]
    page_file = tmp_path / "report.html"
    page_file.write_text(report.render(c, seq, player, "html", fresh=fixed))
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=2, is_mobile=True)
    try:
        requests: list[str] = []
        errors: list[str] = []
        context.route("**/*", lambda route: (requests.append(route.request.url),  # type: ignore[func-returns-value]
                                             route.continue_() if route.request.url
                                             .startswith("file:") else route.abort()))
        tab = context.new_page()
        tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        tab.on("pageerror", lambda e: errors.append(str(e)))
        tab.goto(page_file.as_uri())
        assert errors == [] and requests == [page_file.as_uri()]
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
        box = tab.locator("svg.board.overview").bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 150
        copied = tab.evaluate("window.getSelection().selectAllChildren("
                              "document.querySelector('pre.form')) ||"
                              " window.getSelection().toString()")
        # A selection leaves out the last line break; the text itself is the form.
        assert copied == form.rstrip("\n")
        assert tab.evaluate("document.querySelector('pre.form').textContent") == form
        assert [armor.normalise(b.body) for b in armor.extract(copied)] == [
            armor.normalise(b.body) for b in armor.extract(form)]
        tab.screenshot(path=str(tmp_path / "phone.png"), full_page=False)
    finally:
        context.close()


def test_14_many_draws_are_listed_by_kind_one_line_each() -> None:
    """The first Mythology record draws some 160 times for the setup: a report lists them by
    kind (the label without its last part), with the values of short runs."""
    draws = ([{"i": i, "label": f"setup/gods/{9 - i}", "n": 10 - i, "value": 1}
              for i in range(9)]
             + [{"i": 9 + i, "label": f"combat/12/{c}", "n": 6, "value": v}
                for i, (c, v) in enumerate([("red", 5), ("white", 2)])]
             + [{"i": 11 + i, "label": f"setup/prize/p{i}", "n": 100, "value": 7}
                for i in range(10)])
    listing = report.dice_listing(draws)
    assert listing["draws"] == [] and listing["draw_count"] == 21
    assert listing["dice_summary"] == [
        "setup/gods, 9 draws (#0-#8)",
        "combat/12, 2 draws (#9-#10): 5, 2",
        "setup/prize, 10 draws (#11-#20)"]
    few = draws[:report.MAX_LISTED_DRAWS]
    assert report.dice_listing(few) == {"draws": few, "dice_summary": [],
                                        "draw_count": len(few)}

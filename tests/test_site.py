"""``pbem site``: the public web site is a verifiable public copy, deterministic, and keeps
every secret of gm/ out (the browser's view of it is in test_site_browser.py)."""

from __future__ import annotations

import hashlib
import json
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag

import pytest
from markupsafe import escape

from pbem import games
from pbem.channels import site
from pbem.cli.app import run
from pbem.core import audit, demo, engine, ledger, report
from pbem.core.campaign import open_campaign
from pbem.core.errors import CampaignError, UsageError
from tests.conftest import Table, hexof, make_table


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole conformance game (3 players), the GM's copy."""
    root = tmp_path_factory.mktemp("site") / "demo"
    demo.run(games.get("conformance"), root, players=3, seed="site", options={},
             resolve=games.get)
    return root / "campaign"


@pytest.fixture(scope="module")
def built(finished: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built") / "site"
    site.build(open_campaign(finished, games.get), out)
    return out


def export(campaign: Path, out: Path) -> Path:
    assert run(["export", str(campaign), str(out)]) == 0
    return out


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()
        self.srcs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "a" and a.get("href") is not None:
            self.hrefs.append(str(a["href"]))
        for key in ("src", "srcset", "data"):
            if a.get(key):
                self.srcs.append(str(a[key]))
        if tag == "link" and a.get("href") and a.get("rel") != "icon":
            self.srcs.append(str(a["href"]))


def parse(path: Path) -> Links:
    p = Links()
    p.feed(path.read_text())
    return p


# --- what the site holds --------------------------------------------------------------------


def test_site_is_a_public_copy_that_audits(finished: Path, built: Path, ssh_keygen: str
                                           ) -> None:
    """Every public file is copied byte for byte, so the site folder itself audits (every
    phase re-adjudicated, the game being over) and OpenSSH verifies a record's signature."""
    n = ledger.count(finished / "ledger")
    for name in ("campaign.toml", "campaign.toml.sig", "allowed_signers"):
        assert (built / name).read_bytes() == (finished / name).read_bytes()
    for k in range(1, n + 1):
        for suffix in ("", ".sig"):
            name = f"ledger/{ledger.record_name(k)}{suffix}"
            assert (built / name).read_bytes() == (finished / name).read_bytes()
    assert not (built / "gm").exists()
    result = audit.audit(open_campaign(built, games.get))
    assert (result.records, result.replayed) == (n, True)
    check = subprocess.run([ssh_keygen, "-Y", "verify", "-f", "allowed_signers", "-I", "gm",
                            "-n", "pbem-ledger", "-s", "ledger/000002.toml.sig"],
                           stdin=(built / "ledger/000002.toml").open("rb"), cwd=built,
                           capture_output=True)
    assert check.returncode == 0, check.stderr


def test_index_lists_every_record_the_head_and_the_audit(finished: Path, built: Path) -> None:
    n = ledger.count(finished / "ledger")
    index = (built / "index.html").read_text()
    head = hashlib.sha256((finished / "ledger" / ledger.record_name(n)).read_bytes()).hexdigest()
    assert f'id="site-head">{head}<' in index
    assert "Audit passed." in index and "every phase re-adjudicated" in index
    links = parse(built / "index.html").hrefs
    for k in range(1, n + 1):
        record = ledger.load((finished / "ledger" / ledger.record_name(k)).read_bytes())
        assert f"records/{k:06d}.html" in links
        assert f"<code>{record['phase']}</code>" in index
    assert "the game is over" in index
    # Nothing dated: the same campaign gives the same bytes (checked below), and no clock.
    assert "20" + "26-" not in index


def test_record_pages_show_the_ledger_and_link_around(finished: Path, built: Path) -> None:
    n = ledger.count(finished / "ledger")
    for k in range(1, n + 1):
        data = (finished / "ledger" / ledger.record_name(k)).read_bytes()
        record = ledger.load(data)
        page = (built / site.page_name(k)).read_text()
        links = parse(built / site.page_name(k)).hrefs
        assert ("../index.html" in links and f"../ledger/{k:06d}.toml" in links
                and f"../ledger/{k:06d}.toml.sig" in links)
        assert (f"{k - 1:06d}.html" in links) == (k > 1)
        assert (f"{k + 1:06d}.html" in links) == (k < n)
        assert hashlib.sha256(data).hexdigest() in page
        for player, commitment in record["commitments"].items():
            assert f"<td>{player}</td><td class=\"site-hash\">{commitment}" in page
        for d in record.get("draws", []):
            assert (f"<td>{d['i']}</td><td><code>{escape(d['label'])}</code></td>"
                    f"<td>1-{d['n']}</td>\n<td>{d['value']}</td>") in page
        for text in record.get("orders", {}).values():
            assert str(escape(text)) in page
        for item in record.get("revealed", []):
            assert str(escape(item["text"])) in page
            assert f'href="{item["seq"]:06d}.html"' in page
    final = (built / site.page_name(n)).read_text()
    assert "Every sealed draw of the campaign" in final


def test_every_link_resolves_and_nothing_is_loaded_from_elsewhere(built: Path) -> None:
    pages = sorted(built.rglob("*.html"))
    assert len(pages) == ledger.count(built / "ledger") + 2  # the records, index, desk
    for page in pages:
        parsed = parse(page)
        if page.name == "desk.html":
            # The order desk is the one page with scripts: inline only, and a policy that
            # allows no other script and no connection (tests/test_desk_browser.py runs it).
            text = page.read_text()
            assert "<script src" not in text.lower()
            assert "connect-src 'none'" in text and "default-src 'none'" in text
        else:
            assert "<script" not in page.read_text().lower()
        for src in parsed.srcs:
            assert src.startswith(("data:", "#")), (page, src)
        for href in parsed.hrefs:
            if page.name == "desk.html" and href == "mailto:":
                continue  # the desk's mail button, given its address when orders are signed
            target, fragment = urldefrag(href)
            assert "://" not in target and not target.startswith("/"), (page, href)
            path = (page.parent / target).resolve() if target else page
            assert path.is_file() and built.resolve() in path.parents, (page, href)
            if fragment:
                assert fragment in parse(path).ids, (page, href)


def test_gm_site_embeds_the_html_gazette_of_every_record(finished: Path, built: Path) -> None:
    """On the GM's copy each record page carries the public gazette (report.render with no
    player, format html), body and styles, and says nothing about missing it."""
    assert "html" in report.FORMATS, "the html report format is part of issue 4"
    c = open_campaign(finished, games.get)
    for k in (1, 2, ledger.count(c.ledger_dir)):
        parts = site.gazette_parts(report.render(c, k, None, "html"))
        page = (built / site.page_name(k)).read_text()
        assert parts.body.strip() and parts.body in page
        assert all(style in page for style in parts.styles)
        assert 'id="site-gazette"' in page and "No gazette" not in page


def test_gazette_parts_of_a_standalone_page_and_of_a_fragment() -> None:
    page = ("<!DOCTYPE html><html><head><title>t</title><style>p{color:red}</style></head>"
            "<body class='g'><p>Gazette</p><svg></svg></body></html>")
    assert site.gazette_parts(page) == site.GazetteParts(("p{color:red}",),
                                                          "<p>Gazette</p><svg></svg>")
    assert site.gazette_parts("<p>x</p>") == site.GazetteParts((), "<p>x</p>")


def test_same_campaign_same_bytes_and_public_only_is_the_export(
        finished: Path, built: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    site.build(open_campaign(finished, games.get), again)
    assert tree(again) == tree(built)
    public = export(finished, tmp_path / "public")
    from_export = tmp_path / "from-export"
    result = site.build(open_campaign(public, games.get), from_export)
    assert not result.gazette and "only the GM's copy holds" in result.gazette_note
    page = (from_export / site.page_name(2)).read_text()
    assert "No gazette or board picture on this page" in page and "What happened" in page
    gm_public_only = tmp_path / "gm-public-only"
    site.build(open_campaign(finished, games.get), gm_public_only, gazette=False)
    # The GM's site without gazettes is byte for byte the export's: nothing else of gm/
    # reaches a page.
    assert tree(gm_public_only) == tree(from_export)


def test_html_in_public_orders_is_escaped(tmp_path: Path) -> None:
    t = make_table(tmp_path / "camp", rounds="1")
    t.overrides[("t00.join", "alice")] = {"motto": '<script>alert("x")</script> & <b>'}
    t.play_phases(1)
    out = tmp_path / "site"
    site.build(t.campaign, out, gazette=False)
    page = (out / site.page_name(1)).read_text()
    assert "&lt;script&gt;alert(" in page and "&amp; &lt;b&gt;" in page
    assert "<script" not in page and "<b>" not in page


def test_a_campaign_without_records(tmp_path: Path) -> None:
    t = make_table(tmp_path / "camp")
    out = tmp_path / "site"
    result = site.build(t.campaign, out)
    assert result.records == 0 and result.audit.passed
    index = (out / "index.html").read_text()
    assert "No record yet" in index and "<code>t00.join</code> is open" in index
    assert hashlib.sha256(t.campaign.campaign_bytes).hexdigest() in index
    assert not (out / "records").exists()


# --- secrecy --------------------------------------------------------------------------------


def _mid_game_with_markers(root: Path) -> tuple[Table, dict[str, str]]:
    """A game stopped with sealed pledges in the ledger and sealed forecasts pending, and
    unique markers planted in every kind of file that only the GM holds."""
    t = make_table(root, rounds="2")
    t.play_phases(2)  # t00.join, r01.pledge (sealed until the end of the game)
    _, _, phase = engine.open_phase(t.campaign)
    assert phase is not None and phase.sealed and phase.id == "r01.forecast"
    for p in phase.actors:
        assert not t.submit(t.signed(p)).errors
    report.write_reports(t.campaign, 2)  # what `pbem adjudicate` writes beside the record
    gm = root / "gm"
    rec = gm / "records" / "000002"
    markers = {
        # The salts and signatures of sealed orders (in the ledger: only their commitments).
        "sealed salt": hexof("salt/r01.pledge/alice/"),
        "pending salt": hexof(f"salt/r01.forecast/{phase.actors[0]}/"),
        # A line of the signature bytes (the first lines hold the key, which is public).
        "sealed signature": (rec / "orders" / "alice.txt").read_text().split(
            "-----BEGIN SSH SIGNATURE-----\n")[1].splitlines()[2],
        "private report": "MARKER-private-report-5b1f0c",
        "private event": "MARKER-private-event-9d27aa",
        "state": "MARKER-state-pledge-31c8e2",
        "email": "alice-marker-77e0@example.org",
    }
    secrets_toml = (gm / "secrets.toml").read_text()
    markers["seed head"] = secrets_toml.split('seed_head = "')[1][:64]
    markers["sealed head"] = secrets_toml.split('sealed_head = "')[1][:64]
    with (rec / "reports" / "alice.txt").open("a") as f:
        f.write(markers["private report"] + "\n")
    private = json.loads((rec / "private.json").read_text())
    private["private"].setdefault("alice", []).append(
        {"type": "note", "text": markers["private event"]})
    (rec / "private.json").write_text(json.dumps(private))
    state = json.loads((rec / "state.json").read_text())
    state["pledges"]["alice"].append(markers["state"])
    (rec / "state.json").write_text(json.dumps(state))
    settings = t.campaign.settings()
    settings["players"]["alice"]["email"] = markers["email"]
    t.campaign.save_settings(settings)
    return t, markers


def test_nothing_of_gm_reaches_the_site_but_the_gazette(tmp_path: Path) -> None:
    t, markers = _mid_game_with_markers(tmp_path / "camp")
    gm_bytes = b"".join(tree(tmp_path / "camp" / "gm").values())
    for name, marker in markers.items():
        assert marker.encode() in gm_bytes, f"the {name} marker was not planted"
    out = tmp_path / "site"
    result = site.build(t.campaign, out)
    assert result.audit.passed and "public checks only" in result.audit.message
    assert result.gazette == ("html" in report.FORMATS)
    everything = tree(out)
    assert not any(name.startswith("gm/") or "/gm/" in name for name in everything)
    for name, marker in markers.items():
        leaks = [f for f, data in everything.items() if marker.encode() in data]
        assert leaks == [], f"the {name} marker leaked into {leaks}"
    # What is public is there: the sealed pledges' commitments, and the gazette.
    record = ledger.load((t.root / "ledger" / "000002.toml").read_bytes())
    page = (out / site.page_name(2)).read_text()
    assert all(c in page for c in record["commitments"].values())
    assert "every pledge is sealed" in page


# --- the output folder ----------------------------------------------------------------------


def test_rebuild_updates_only_what_changed(tmp_path: Path) -> None:
    t = make_table(tmp_path / "camp", rounds="1")
    t.play_phases(1)
    out = tmp_path / "site"
    first = site.build(t.campaign, out, gazette=False)
    assert (first.records, first.removed) == (1, 0)
    stamp = (out / "ledger" / "000001.toml").stat().st_mtime_ns
    (out / "CNAME").write_text("pbem.example.org\n")  # the host's own file
    same = site.build(t.campaign, out, gazette=False)
    assert (same.written, same.removed) == (0, 0)
    t.play_phases(1)
    grown = site.build(t.reopen(), out, gazette=False)
    # The new record (file, signature, page), the old last page (its "next" link), the index
    # and the order desk (another open phase).
    assert (grown.records, grown.written, grown.removed) == (2, 6, 0)
    assert (out / "ledger" / "000001.toml").stat().st_mtime_ns == stamp
    assert "000002.html" in parse(out / site.page_name(1)).hrefs
    assert (out / "CNAME").read_text() == "pbem.example.org\n"
    # A file an earlier build listed and this one does not make is removed; the manifest
    # can only ever name the site's own kind of files.
    manifest = (out / site.MANIFEST).read_text()
    (out / "records" / "000099.html").write_text("stale")
    (out / site.MANIFEST).write_text(manifest.replace(
        '"index.html",', '"index.html",\n    "records/000099.html",\n    "CNAME",\n'
        '    "../camp/campaign.toml",'))
    cleaned = site.build(t.campaign, out, gazette=False)
    assert cleaned.removed == 1 and not (out / "records" / "000099.html").exists()
    assert (out / "CNAME").is_file() and (t.root / "campaign.toml").is_file()


def test_refuses_a_folder_that_is_not_this_campaigns_site(tmp_path: Path, finished: Path,
                                                         built: Path) -> None:
    t = make_table(tmp_path / "camp")
    stuff = tmp_path / "stuff"
    stuff.mkdir()
    (stuff / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match=r"is not empty \(notes.txt\) and is not a pbem site"):
        site.build(t.campaign, stuff)
    assert sorted(p.name for p in stuff.iterdir()) == ["notes.txt"]
    with pytest.raises(UsageError, match="is a file"):
        site.build(t.campaign, stuff / "notes.txt")
    with pytest.raises(UsageError, match="not a pbem site"):
        site.build(t.campaign, t.root)  # the campaign directory itself
    with pytest.raises(UsageError, match="site of another campaign"):
        site.build(t.campaign, built)
    # A checkout of a publishing branch: only dot files, which stay as they are.
    pages = tmp_path / "pages"
    (pages / ".git").mkdir(parents=True)
    (pages / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")
    site.build(t.campaign, pages)
    assert (pages / ".git" / "HEAD").read_text() == "ref: refs/heads/gh-pages\n"
    assert (pages / "index.html").is_file()


def test_a_tampered_record_fails_the_audit_on_the_site(finished: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    public = export(finished, tmp_path / "public")
    path = public / "ledger" / "000004.toml"
    data = path.read_bytes()
    record = ledger.load(data)
    value = record["draws"][0]["value"]
    tampered = data.replace(f"value = {value} }}".encode(), f"value = {value % 6 + 1} }}".encode(),
                            1)
    assert tampered != data
    path.write_bytes(tampered)
    out = tmp_path / "site"
    code = run(["site", str(public), str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert "the site is written, but its audit failed: record 000004: signature" in err
    index = (out / "index.html").read_text()
    assert "Audit FAILED." in index and "record 000004: signature" in index
    assert "Audit FAILED." in (out / site.page_name(4)).read_text()
    assert "Audit FAILED." not in (out / site.page_name(3)).read_text()


def test_a_damaged_record_is_named_with_the_audit_result(finished: Path, tmp_path: Path
                                                         ) -> None:
    public = export(finished, tmp_path / "public")
    (public / "ledger" / "000003.toml").write_text("seq = [\n")
    with pytest.raises(CampaignError, match=r"ledger/000003.toml is malformed .* the audit "
                       r"says: record 000003: signature"):
        site.build(open_campaign(public, games.get), tmp_path / "site")


def test_command_line(finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
                      ) -> None:
    out = tmp_path / "site"
    assert run(["site", str(finished), str(out)]) == 0
    said = capsys.readouterr().out
    n = ledger.count(finished / "ledger")
    assert f"site of demo-conformance in {out}: {n} records; {3 * n + 5} files written" \
        in said
    assert "audit passed:" in said and "index.html" in said
    assert run(["site", str(finished), str(out)]) == 0
    assert f"0 files written, {3 * n + 5} unchanged, 0 removed" in capsys.readouterr().out
    public = export(finished, tmp_path / "public")
    assert run(["site", str(public), str(tmp_path / "site2")]) == 0
    assert "no gazettes or board pictures" in capsys.readouterr().out
    assert run(["site", str(finished), str(finished)]) == 2
    assert "not a pbem site" in capsys.readouterr().err


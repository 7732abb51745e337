"""No text a player chooses, or a game builds from an order, becomes markup anywhere a player
or a forum renders it (issue 12, section 4).

Each format is read back with a real parser: PyPI ``bbcode`` for BBCode, markdown-it-py for
Markdown (CommonMark, and the same parser without fenced code for old Markdown renderers), the
standard library's ``html.parser`` for HTML and SVG. A report rendered with hostile text must
have exactly the elements of the same report rendered with harmless text of the same length:
the template's, and nothing the text put there. The escaping functions are in
``pbem.core.escape`` (one per format); docs/reports.md says what each does and why.
"""

from __future__ import annotations

import dataclasses
import email
import email.policy
import re
from collections.abc import Callable, Iterable
from email.message import EmailMessage
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import bbcode  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from pbem import games
from pbem.channels import site
from pbem.core import armor, demo, engine, escape, ledger, report, signing
from pbem.core import orders as orders_mod
from pbem.core import svg as draw
from pbem.core.campaign import Campaign, open_campaign
from pbem.core.errors import OrderSyntaxError
from pbem.core.ruleset import JOIN_PHASE
from tests.budget import examples
from tests.conftest import Table, make_table

# One xdist worker runs this module: its module-scoped fixtures are made once.
pytestmark = pytest.mark.xdist_group("injection")

#: One join motto per player (the conformance game's free text, at most 60 characters): a
#: BBCode box breaker with a link, HTML that would run a script, Markdown that would make a
#: heading, emphasis, a link and raw HTML.
MOTTOS = {
    "alice": "[/code][url=https://evil.example]Claim prize[/url][code]",
    "bob": '</pre><script>alert(1)</script><img src=x onerror="f()">',
    "carol": "# Claim *prize* [here](https://evil.example) `x` <b>|~$@",
}
#: Text a game may build from an order (an event that quotes what a player wrote) or get
#: wrong in its own data: every markup of every format, line breaks, a bidi override.
GAME_TEXTS = (
    *MOTTOS.values(),
    "[b][size=200][color=red]WIN[/color][/size][/b] [ url]x[/ url] [*] [list]",
    "    indented\t| a | b | ~~s~~ $x$ @admin 1. item > quote ![i](x)",
    '"><svg onload=alert(1)>&amp; &#91; ]]> <!-- x --> <![CDATA[',
    "1. first\n# heading\n```\n- item\n    code\r\n[code]\u2028[/code]\u202etxt.exe",
    "- ** __ == ++ ``` ~~~ *** ___ --- === +++ \\ \\[b]",
)
#: A harmless text of the same length as ``text``.
def harmless(text: str) -> str:
    return "x" * len(text)


# --- reading each format back with a real parser --------------------------------------------

Element = tuple[str, ...]


class _Elements(HTMLParser):
    """Every element, end tag, comment and declaration, with its attribute names; the text of
    each ``<a>`` and its ``href`` (to tell a renderer's own links to bare URLs apart)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[Element] = []
        self.links: list[tuple[str, list[str]]] = []
        self.text: list[str] = []
        self._in_link = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(("<" + tag, *sorted(name for name, _ in attrs)))
        if tag == "a":
            self.links.append((dict(attrs).get("href") or "", []))
            self._in_link = True

    def handle_endtag(self, tag: str) -> None:
        self.out.append(("</" + tag,))
        if tag == "a":
            self._in_link = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in_link:
            self.links[-1][1].append(data)

    def handle_comment(self, data: str) -> None:
        self.out.append(("<!--",))

    def handle_decl(self, decl: str) -> None:
        self.out.append(("<!" + decl.split()[0].lower(),))

    def unknown_decl(self, data: str) -> None:
        self.out.append(("<![", data.split("[")[0]))

    def handle_pi(self, data: str) -> None:
        self.out.append(("<?",))


def html_elements(text: str) -> list[Element]:
    p = _Elements()
    p.feed(text)
    p.close()
    return p.out


def bbcode_html(text: str) -> str:
    """What PyPI ``bbcode`` makes of ``text`` with its defaults (it links bare URLs too)."""
    return str(bbcode.Parser().format(text))


def bbcode_elements(text: str) -> list[Element]:
    """The elements PyPI ``bbcode`` renders, less the links it makes of bare URLs: those show
    their own address as their text, which is allowed (a renderer linking a URL that is shown
    is no injection); any other link fails here."""
    p = _Elements()
    p.feed(bbcode_html(text))
    p.close()
    for href, parts in p.links:
        shown = "".join(parts)
        assert unquote(href) in (shown, "http://" + shown), f"a link to {href!r} shows {shown!r}"
    return [e for e in p.out if e[0] not in ("<a", "</a")]


def markdown_elements(text: str, *, fences: bool = True) -> list[Element]:
    """The block and inline tokens markdown-it-py (CommonMark) finds, text aside.
    ``fences=False``: a renderer without fenced code blocks (old Markdown)."""
    md = MarkdownIt("commonmark")
    if not fences:
        md.disable("fence")
    out: list[Element] = []

    def walk(tokens: Iterable[Any]) -> None:
        for t in tokens:
            if t.type == "inline":
                walk(t.children or [])
            elif t.type != "text":
                out.append((t.type, t.tag, *sorted(t.attrs or {})))
    walk(md.parse(text))
    return out


def elements(fmt: str, text: str) -> list[Element]:
    if fmt == "bbcode":
        return bbcode_elements(text)
    if fmt == "md":
        return markdown_elements(text)
    if fmt == "html":
        return html_elements(text)
    return []


def refused(text: str) -> list[str]:
    return [escape.describe(ch) for ch, _ in escape.refused_in(text, allow="\n")]


# --- campaigns whose players chose hostile text -------------------------------------------------


def played(root: Path, mottos: dict[str, str]) -> Table:
    """A conformance campaign played to the end, each player joining with ``mottos``: through
    the engine, as signed join orders."""
    table = make_table(root, rounds="2")
    for player, motto in mottos.items():
        table.overrides[(JOIN_PHASE, player)] = {"motto": motto}
    table.play_to_end()
    return table


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> tuple[Campaign, Campaign]:
    """The same campaign twice: the players' mottos hostile, then harmless of the same length
    (the dice depend on the players' entropy, not on their orders' text, so both campaigns
    have the same events)."""
    base = tmp_path_factory.mktemp("injection")
    hostile = played(base / "hostile", MOTTOS).campaign
    twin = played(base / "harmless", {p: harmless(m) for p, m in MOTTOS.items()}).campaign
    return hostile, twin


def readers(c: Campaign) -> tuple[str | None, ...]:
    return (*c.players, None)


# --- the tests ------------------------------------------------------------------------------


def test_a_join_motto_cannot_close_the_bbcode_code_box_and_post_a_link_in_the_gazette(
        table: Table) -> None:
    motto = MOTTOS["alice"]
    table.overrides[(JOIN_PHASE, "alice")] = {"motto": motto}
    table.play_phases(1)  # the join: record 1 shows every motto in the position
    gazette = report.render(table.campaign, 1, None, "bbcode")
    rendered = bbcode_html(gazette)
    assert "evil.example" in rendered  # the motto is there, shown ...
    assert not re.search(r"<a\b[^>]*>Claim prize</a>", rendered)  # ... and is no link
    boxes = ["".join(_text_of(box)) for box in re.findall(r"<code>(.*?)</code>", rendered, re.S)]
    assert any(motto.replace("[", escape.BB_BRACKET) in box for box in boxes)
    assert bbcode_elements(gazette) == bbcode_elements(
        report.render(table.campaign, 1, None, "bbcode").replace(
            motto.replace("[", escape.BB_BRACKET), harmless(motto)))


@pytest.mark.parametrize("fmt", ["md", "bbcode", "html"])
def test_hostile_mottos_add_no_element_to_any_report_of_any_record(
        fmt: str, twins: tuple[Campaign, Campaign]) -> None:
    hostile, twin = twins
    total = ledger.count(hostile.ledger_dir)
    assert total == ledger.count(twin.ledger_dir) > 5
    for seq in range(1, total + 1):
        for who in readers(hostile):
            text = report.render(hostile, seq, who, fmt)
            want = report.render(twin, seq, who, fmt)
            assert elements(fmt, text) == elements(fmt, want), (seq, who)
            if fmt == "md":  # a renderer without fenced code sees the same blocks
                assert markdown_elements(text, fences=False) == markdown_elements(text), (
                    seq, who)
    # The plain-text report shows each motto as it is.
    txt = report.render(hostile, 1, None, "txt")
    for motto in MOTTOS.values():
        assert motto.replace('"', '\\"') in txt


def test_hostile_mottos_add_no_element_to_any_page_of_the_public_site(
        twins: tuple[Campaign, Campaign], tmp_path: Path) -> None:
    hostile, twin = twins
    a = site.build(hostile, tmp_path / "hostile")
    b = site.build(twin, tmp_path / "harmless")
    assert a.audit.passed and b.audit.passed and a.gazette
    pages = sorted(p.relative_to(a.out) for p in a.out.rglob("*.html"))
    assert len(pages) == a.records + 2  # the records, the index, the order desk
    for name in pages:
        page = (a.out / name).read_text()
        assert html_elements(page) == html_elements((b.out / name).read_text()), name
        # The order desk's own scripts are the one exception (no order text reaches it).
        assert "<script" not in page or name == Path("desk.html")
        assert "<img" not in page
    # The join record publishes the mottos, shown as text.
    join_page = _Elements()
    join_page.feed((a.out / "records" / "000001.html").read_text())
    shown = "".join(join_page.text)
    for motto in MOTTOS.values():
        assert motto.replace('"', '\\"') in shown


@pytest.fixture(scope="module")
def demos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Campaign]:
    out = {}
    for game, players, options in (("conformance", 3, {}), ("mythology", 2, {}),
                                   ("cyclades", 3, {}), ("hetairos", 2, {"rounds": "3"})):
        root = tmp_path_factory.mktemp(f"injection-{game}") / "demo"
        demo.run(games.get(game), root, players=players, seed="injection", options=options,
                 resolve=games.get, with_reports=False)
        out[game] = open_campaign(root / "campaign", games.get)
    return out


def _appended(value: Any, extra: str) -> Any:
    """Every string in ``value`` (not the keys) with ``extra`` before it (where a text could
    start a block; in the middle of a line it could only start less)."""
    if isinstance(value, str):
        return f"{extra} {value}"
    if isinstance(value, dict):
        return {k: _appended(v, extra) for k, v in value.items()}
    if isinstance(value, list):
        return [_appended(v, extra) for v in value]
    return value


def _with_text(extra: str) -> Callable[..., dict[str, Any]]:
    """:func:`report.context` with ``extra`` after every text the game shows: the events, the
    reader's private events, everything of ``game`` (names, lines, card texts), the result's
    explanation and the next phase's title."""
    real = report.context

    def context(*args: Any, **kw: Any) -> dict[str, Any]:
        ctx = real(*args, **kw)
        ctx["events"] = [{**e, "text": f"{extra} {e['text']} {extra}"} for e in ctx["events"]]
        ctx["private"] = [{**e, "text": f"{extra} {e['text']} {extra}"} for e in ctx["private"]]
        ctx["game"] = _appended(ctx["game"], extra)
        if ctx["result"].get("why"):
            ctx["result"] = {**ctx["result"], "why": _appended(ctx["result"]["why"], extra)}
        if ctx["next_phase"] is not None:
            ctx["next_phase"] = dataclasses.replace(
                ctx["next_phase"], title=_appended(ctx["next_phase"].title, extra))
        return ctx
    return context


#: All of them at once, the one that starts with block markup first.
GAME_TEXT = " ".join(sorted(GAME_TEXTS, key=lambda t: not t.startswith("1.")))


@pytest.mark.parametrize("game", ["conformance", "mythology", "cyclades", "hetairos"])
def test_text_a_game_builds_from_orders_adds_no_element_in_any_format(
        game: str, demos: dict[str, Campaign], monkeypatch: pytest.MonkeyPatch) -> None:
    c = demos[game]
    last = ledger.count(c.ledger_dir)
    # A record in play and the last one (the set-up record's text is the same code's; it went
    # for the suite's time budget when issues 15-17 added three games).
    # (Hetairos: the last record only; its text is the same code's at every record)
    for seq in sorted({last // 2, last} if game != "hetairos" else {last}):
        loaded = report.load(c, seq)
        for who in (c.players[0], None):
            rendered = []
            for extra in (GAME_TEXT, harmless(GAME_TEXT)):
                monkeypatch.setattr(report, "context", _with_text(extra))
                rendered.append({fmt: report.render(c, seq, who, fmt, loaded=loaded)
                                 for fmt in report.FORMATS})
                monkeypatch.undo()
            got, want = rendered
            assert GAME_TEXT.split("\n")[0] in got["txt"]
            for fmt in ("md", "bbcode", "html"):
                assert elements(fmt, got[fmt]) == elements(fmt, want[fmt]), (fmt, seq, who)
            # No format shows a character that reorders or hides the text around it.
            for fmt, text in got.items():
                assert refused(text) == [], (fmt, seq, who)
            assert markdown_elements(got["md"], fences=False) == markdown_elements(
                got["md"]), (seq, who)


def test_old_markdown_renderers_show_the_order_form_as_code(table: Table) -> None:
    """A renderer without fenced code blocks (old Markdown, some forums) made the form's
    ``# comments`` headings: the form is an indented code block, code to both."""
    table.play_phases(1)
    text = report.render(table.campaign, 1, "alice", "md")
    form = report.context(table.campaign, 1, "alice")["form"]
    assert "\n# " in "\n" + form  # the form has comment lines that would be headings
    old = markdown_elements(text, fences=False)
    assert old == markdown_elements(text)
    assert [e for e in old if e[0] == "heading_open"] == [("heading_open", "h1")] + [
        ("heading_open", "h2")] * text.count("\n## ")
    blocks = [t.content for t in MarkdownIt("commonmark").disable("fence").parse(text)
              if t.type == "code_block"]
    # Copied from the rendered page, the form is the form (only the salt and entropy differ).
    fresh = re.compile(r'"[0-9a-f]{64}"')
    assert [fresh.sub("", b) for b in blocks if "BEGIN PBEM ORDERS" in b] == [fresh.sub("", form)]


#: The BBCode tags that phpBB, bbob and PyPI ``bbcode`` all render the same.
PORTABLE_BBCODE = {"b", "/b", "i", "/i", "u", "/u", "list", "list=1", "/list", "*", "code",
                   "/code"}


@pytest.mark.parametrize("game", ["conformance", "mythology", "cyclades"])
def test_bbcode_reports_use_only_tags_phpbb_bbob_and_pypi_bbcode_render_alike(
        game: str, demos: dict[str, Campaign]) -> None:
    """``[size=150]`` was 15em in bbob and literal text in PyPI ``bbcode``."""
    c = demos[game]
    last = ledger.count(c.ledger_dir)
    for seq in sorted({1, last // 2, last}):
        for who in readers(c):
            text = report.render(c, seq, who, "bbcode")
            outside = re.sub(r"\[code\].*?\[/code\]", "", text, flags=re.S)
            tags = set(re.findall(r"\[(/?[a-z*]+(?:=[^\]]*)?)\]", outside))
            assert tags <= PORTABLE_BBCODE, (seq, who, tags - PORTABLE_BBCODE)
            # PyPI bbcode renders every one of them: none is left as text.
            shown = "".join(_text_of(bbcode_html(outside)))
            assert not re.search(r"\[/?(?:[biu]|list|\*|code|size)\b", shown), (seq, who)


def _text_of(html: str) -> list[str]:
    p = _Elements()
    p.feed(html)
    p.close()
    return p.text


# --- order values: characters that change how other text is shown are refused ------------------

@pytest.mark.parametrize("ch,name", [
    ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE, which reorders text for other readers"),
    ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE, which reorders text for other readers"),
    ("\u200b", "U+200B ZERO WIDTH SPACE, which is invisible"),
    ("\u200d", "U+200D ZERO WIDTH JOINER, which is invisible"),
    ("\u2060", "U+2060 WORD JOINER, which is invisible"),
    ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE, which is invisible"),
    ("\u2028", "U+2028 LINE SEPARATOR, which breaks the line for other readers"),
    ("\u2029", "U+2029 PARAGRAPH SEPARATOR, which breaks the line for other readers"),
    ("\x1b", "U+001B ESCAPE, which reports cannot show"),
    ("\x07", "U+0007 CONTROL CHARACTER, which reports cannot show"),
])
def test_a_motto_with_a_bidi_override_zero_width_or_control_character_is_refused_at_submit(
        table: Table, ch: str, name: str) -> None:
    motto = f"Fortune {ch}favours the bold"
    want = [f"[orders] motto: contains {name}" + _rest(name) + " (fix: remove it)"]
    form = table.form("alice", {"motto": motto})
    with pytest.raises(OrderSyntaxError) as caught:  # pbem sign refuses to sign it ...
        signing.sign_text(form, table.player_keys["alice"], fresh=None)
    assert [str(p) for p in caught.value.problems] == want
    # ... and signed another way (ssh-keygen -Y sign), the GM's pbem refuses it.
    block = armor.extract(form)[0]
    signed = signing.sign_prepared([(block.body, block.line)], table.player_keys["alice"])
    result = table.submit(signed)
    assert not result.receipts
    [error] = result.errors
    assert isinstance(error, OrderSyntaxError)
    assert [str(p) for p in error.problems] == want
    # A tab is white space everywhere: allowed.
    ok = table.submit(table.signed("alice", {"motto": "Fortune\tfavours"}))
    assert not ok.errors and ok.receipts


def _rest(name: str) -> str:
    return " and can hide or join text for other readers" if name.endswith("invisible") else ""


def _block(orders: str, comment: str = "") -> armor.Block:
    body = (f'[envelope]\nformat = "pbem-orders/1"\ncampaign = "c"\nplayer = "alice"\n'
            f'phase = "p"\nsalt = "{"0" * 64}"\nentropy = "{"1" * 64}"\n{comment}\n'
            f"[orders]\n{orders}")
    return armor.Block(body, None, 7)


def test_a_bidi_override_is_refused_in_every_order_value_key_and_comment_of_any_game() -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        orders_mod.parse(_block(
            'moves = [{unit = 6, path = ["4019", "26\\u202e11"]}]\n'
            'god = {area = "Egypt\\u200b"}\n"\\u2066key" = 1\n'))
    assert [str(p) for p in caught.value.problems] == [
        "[orders] moves, entry 1, path, entry 2: contains U+202E RIGHT-TO-LEFT OVERRIDE, "
        "which reorders text for other readers (fix: remove it)",
        "[orders] god.area: contains U+200B ZERO WIDTH SPACE, which is invisible and can "
        "hide or join text for other readers (fix: remove it)",
        "[orders] \\u2066key: contains U+2066 LEFT-TO-RIGHT ISOLATE, which reorders text "
        "for other readers (fix: remove it)"]
    with pytest.raises(OrderSyntaxError) as caught:
        orders_mod.parse(_block("pledge = 3\n", comment="# mine \u202e3 = egdelp"))
    assert [str(p) for p in caught.value.problems] == [
        "order block at line 7: line 8 of the block contains U+202E RIGHT-TO-LEFT "
        "OVERRIDE, which reorders text for other readers (fix: remove it; comments are "
        "published with the orders too)"]
    with pytest.raises(OrderSyntaxError) as caught:
        orders_mod.parse(armor.Block(_block("").body.replace('"c"', '"c\\u202e"'), None, 1))
    assert str(caught.value.problems[0]).startswith("[envelope] campaign: contains U+202E")
    # Old ledgers may hold such orders: an audit can read them.
    assert orders_mod.parse(_block('x = "\\u202e"\n'), check_text=False).orders == {
        "x": "\u202e"}


def test_a_line_break_in_a_value_is_refused_though_the_block_is_plain_ascii() -> None:
    # Most order files are printable ASCII without escapes, and text_problems passes them
    # without walking every string; a multi-line string still breaks a line in a value.
    with pytest.raises(OrderSyntaxError) as caught:
        orders_mod.parse(_block('motto = """Fortune\nfavours"""\n'))
    assert [str(p) for p in caught.value.problems] == [
        "[orders] motto: contains U+000A LINE FEED, which reports cannot show (fix: remove it)"]
    assert orders_mod.parse(_block('motto = "Fortune\tfavours"\n')).orders == {
        "motto": "Fortune\tfavours"}


def test_every_game_refuses_the_characters_at_submit_through_the_engine(
        demos: dict[str, Campaign]) -> None:
    """``parse`` runs for every game before its rules: a Mythology or Cyclades order value
    with U+202E is refused there too (whatever the game would say of the value)."""
    for game, c in demos.items():
        with pytest.raises(OrderSyntaxError) as caught:
            engine.check_order(c, _block('area = "Egypt\\u202e"\n'), None, None, "x.txt")
        assert str(caught.value.problems[0]).startswith("[orders] area: contains U+202E"), game


# --- the escaping functions themselves ---------------------------------------------------------

markup_text = st.lists(st.sampled_from(
    [*"[]/=*\"' \t\n\r#-+>|`~_!()<&;:.$@\\1aAbBcCdeiloprstuxz", "\u202e", "\u2028", "code",
     "url", "size", "list", "&amp;", "&#91;", "https://e.x", "    ", "1."]),
    max_size=30).map("".join)


@settings(max_examples=examples(200), deadline=None)
@given(markup_text)
def test_bbcode_escape_leaves_no_tag_for_pypi_bbcode(text: str) -> None:
    escaped = escape.bbcode(text)
    parser = bbcode.Parser()
    assert all(kind == parser.TOKEN_DATA for kind, *_ in parser.tokenize(escaped)), escaped
    # Inside a [code] box as outside: the box ends only where the template ends it.
    box = bbcode_elements(f"[code]{escaped}[/code]")
    assert box == [("<code",), ("</code",)]
    assert refused(escaped) == [] and "\n" not in escaped


@settings(max_examples=examples(200), deadline=None)
@given(markup_text)
def test_markdown_escape_leaves_one_paragraph_of_text(text: str) -> None:
    escaped = escape.markdown(text)
    for before, after in (("- ", ""), ("# ", ""), ("Say ", " now."), ("", "")):
        # The same blocks and inline elements as with a plain word in its place.
        assert markdown_elements(before + escaped + after) == markdown_elements(
            before + ("word" if escaped else "") + after), (before, escaped)
    if escaped:
        tokens = MarkdownIt("commonmark").parse(escaped)
        assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]
        assert tokens[1].children is not None
        shown = "".join(t.content for t in tokens[1].children)
        assert shown == " ".join(escape.shown(escape.one_line(text)).strip().split(" ")
                                 ).rstrip()


def test_svg_text_and_attributes_keep_hostile_text_as_text() -> None:
    hostile = '</text><script>alert(1)</script>"onload="x" \u202e&amp;'
    picture = draw.document(100, 50, draw.text(5, 5, hostile, 8) + draw.tooltip(hostile)
                            + draw.legend([(lambda x, y: draw.circle(x, y, 3, "#fff"),
                                            hostile)], 0, 20, 100)[0],
                            hostile, css_class=hostile)
    assert html_elements(picture) == [
        ("<svg", "class", "font-family", "height", "role", "viewbox", "width", "xmlns"),
        ("<title",), ("</title",),
        ("<text", "fill", "font-size", "text-anchor", "x", "y"), ("</text",),
        ("<title",), ("</title",),
        ("<g", "class"), ("<circle", "cx", "cy", "fill", "r", "stroke", "stroke-width"),
        ("</circle",),
        ("<text", "fill", "font-size", "text-anchor", "x", "y"), ("</text",), ("</g",),
        ("</svg",)]
    assert "".join(_text_of(picture)).count(hostile.replace("\u202e", escape.REPLACEMENT)) == 4
    assert "\u202e" not in picture


def test_a_mail_header_from_hostile_text_is_one_header() -> None:
    subject = escape.mail_header("Re: orders\r\nBcc: everyone@example.org\u202e\x00 " + "x" * 300)
    assert "\n" not in subject and "\r" not in subject and "\u202e" not in subject
    assert len(subject) <= 200
    msg = EmailMessage()
    msg["Subject"] = subject
    msg.set_content("x")
    back = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
    assert back.keys() == ["Subject", "Content-Type", "Content-Transfer-Encoding",
                           "MIME-Version"]
    assert str(back["Subject"]).startswith("Re: orders Bcc: everyone@example.org")


def test_html_and_svg_escape_every_quote_and_replace_a_bidi_override() -> None:
    text = '<b a="1">&\'\u202e'
    assert str(escape.html(text)) == "&lt;b a=&#34;1&#34;&gt;&amp;&#39;\ufffd"
    assert escape.svg(text) == "&lt;b a=&quot;1&quot;&gt;&amp;&#x27;\ufffd"
    assert escape.shown("tab\tand\nline") == "tab\tand\nline"

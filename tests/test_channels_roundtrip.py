"""Order text through the channels players really use (issue 12 section 6).

Each test builds the text exactly as the named client, converter or renderer leaves it (the
real tool where this machine has it: coreutils ``fold``; otherwise its documented behaviour,
cited), then checks that the block verifies over the exact bytes that were signed, or that
the error says what the channel did and names where the text came from. A repair never
makes a block verify whose signature is not over the repaired bytes.
"""

from __future__ import annotations

import email
import email.policy
import html
import re
import shutil
import subprocess
import textwrap
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.channels import htmltext, mime
from pbem.core import armor, sshsig
from pbem.core.errors import ArmorError
from pbem.core.resources import order_form_text
from tests.budget import examples
from tests.conftest import Table, hexof, make_table, seeded_key, table_copy

KEY = seeded_key("alice")
PUBLIC = KEY.public_key().public_bytes_raw()


# --- order texts as pbem writes them -------------------------------------------------------


def envelope(phase: str, campaign: str = "test-campaign", player: str = "alice",
             campaign_hash: str | None = None) -> str:
    """The envelope exactly as pbem.core.forms.render_form writes it, then ``[orders]``
    (version 2, with ``campaign_hash``; version 1 without)."""
    return ("[envelope]\n"
            f'format = "pbem-orders/{1 if campaign_hash is None else 2}"\n'
            f'campaign = "{campaign}"\n'
            + (f'campaign_hash = """\\\n{campaign_hash}"""\n' if campaign_hash else "") +
            f'player = "{player}"\n'
            f'phase = "{phase}"\n'
            f'salt = "{hexof("salt/" + phase)}"\n'
            f'entropy = "{hexof("entropy/" + phase)}"\n\n'
            "[orders]\n")


def pledge_body(value: str = "10", phase: str = "r01.pledge",
                campaign_hash: str | None = None) -> str:
    """The annotated conformance pledge form, the value typed over the 0 in insert mode (the
    comment moves right: its gap of spaces is kept)."""
    form = order_form_text("conformance", "pledge")
    assert "pledge = 0          # a whole" in form
    return envelope(phase, campaign_hash=campaign_hash) + form.replace("pledge = 0",
                                                                       f"pledge = {value}")


def mythology_situation(*lines: str) -> str:
    """Situation comments as pbem.games.mythology.game._comment wraps them (76 columns,
    continuation lines indented), then the empty line before the form."""
    out = [part for line in lines for part in
           textwrap.wrap(line, 76, initial_indent="# ", subsequent_indent="#     ")]
    return "\n".join(out) + "\n\n"


def logsheet_body() -> str:
    form = order_form_text("mythology", "logsheet")
    form = (form.replace('card = ""', 'card = "24"').replace("zeus = 0", "zeus = 2")
            .replace("[orders.heroes]\n# 12 = 3\n", "[orders.heroes]\n# 12 = 3\n12 = 3\n"))
    situation = mythology_situation(
        "Turn 3. You are Athena; Glory 14; your god is in Greece.",
        "Your Hero totals (208 I; spend at least 1 this turn to keep each): 12 Perseus 3, "
        "14 Theseus 2, 19 Jason 5, 22 Bellerophon 1.")
    return envelope("t03.logsheet") + situation + form


def act_body() -> str:
    form = order_form_text("cyclades", "act")
    assert "keep = []             # figures" in form
    return envelope("c02.act.zeus") + form.replace("keep = []", 'keep = ["naxos"]')


def signed(body_text: str) -> tuple[str, str]:
    """The signed armored text as ``pbem sign`` writes it, and ``N(body)``."""
    body = armor.normalise(body_text).decode()
    sig = sshsig.sign(body.encode(), KEY, sshsig.NAMESPACE_ORDERS)
    return armor.Block(body, sig.armor(), 1).armored(), body


def unsigned(body_text: str) -> str:
    return f"{armor.BEGIN_ORDERS}\n{armor.normalise(body_text).decode()}{armor.END_ORDERS}\n"


def verified(text: str) -> armor.Block:
    """The one block of ``text``, checked: its signature by KEY verifies over its body."""
    (block,) = armor.extract(text, "mail 1")
    assert block.signature is not None
    sshsig.verify(block.body_bytes, sshsig.parse_armor(block.signature),
                  sshsig.NAMESPACE_ORDERS, [PUBLIC])
    return block


def signature_fails(text: str) -> bool:
    """True when ``text`` is refused: an ArmorError, or a block that does not verify."""
    try:
        (block,) = armor.extract(text, "mail 1")
    except ArmorError:
        return True
    if block.signature is None:
        return True
    try:
        sshsig.verify(block.body_bytes, sshsig.parse_armor(block.signature),
                      sshsig.NAMESPACE_ORDERS, [PUBLIC])
    except Exception:
        return True
    return False


def each_line(text: str, change: object) -> str:
    return "\n".join(change(line) for line in text.split("\n"))  # type: ignore[operator]


def tampered(text: str) -> str:
    """The same text with the orders changed after signing (pledge 10 -> 9)."""
    assert "pledge = 10" in text
    return text.replace("pledge = 10", "pledge = 9 ", 1)


# --- 1. a block indented as a whole ----------------------------------------------------------


@pytest.mark.parametrize("prefix", [
    "    ",    # Markdown indented code (CommonMark 4.4), as forum posts paste a block
    "\t",      # the same with a tab, which CommonMark also accepts
    "  ",      # a quoted post indented by the forum's quote style
])
def test_block_indented_as_a_whole_verifies(prefix: str) -> None:
    text, body = signed(pledge_body())
    indented = each_line(text, lambda line: prefix + line if line else line)
    block = verified("Orders:\n\n" + indented + "\nthanks\n")
    assert block.body == body
    assert "indentation" in block.repair


def test_html2text_code_block_verifies() -> None:
    # Python html2text renders <pre> as a code block: each line indented by four spaces,
    # empty lines left empty (html2text.HTML2Text.handle_data in pre mode).
    text, body = signed(pledge_body())
    page = "<p>My orders:</p><pre>" + html.escape(text) + "</pre>"
    assert "-----BEGIN" in htmltext.to_text(page)
    out = "My orders:\n\n" + each_line(text, lambda line: "    " + line if line else "")
    assert verified(out).body == body


def test_indentation_is_removed_only_when_the_markers_carry_it() -> None:
    text, _ = signed(pledge_body())
    lines = text.split("\n")
    # The body indented, the markers not: no repair; the signature does not match.
    body_only = "\n".join(line if line.startswith("-----") or not line else "    " + line
                          for line in lines)
    assert signature_fails(body_only)
    # The markers indented by another prefix than the body.
    mixed = "\n".join(("  " + line) if line.startswith("-----") else ("    " + line)
                      for line in lines)
    assert signature_fails(mixed)
    (block,) = armor.extract(mixed)
    assert block.repair == ""


def test_indented_block_edited_after_signing_is_refused() -> None:
    text, _ = signed(pledge_body())
    edited = each_line(tampered(text), lambda line: "    " + line)
    assert signature_fails(edited)


# --- 2. HTML mail: spaces and webmail's pre-wrap ---------------------------------------------


def test_webmail_pre_wrap_div_keeps_lines_and_spaces() -> None:
    # Webmail that sends plain text as HTML wraps it in a div that keeps white space
    # (Roundcube, Fastmail, Proton: <div style="white-space: pre-wrap">), newlines as is.
    text, body = signed(pledge_body())
    page = ('<html><body><div style="font-family: monospace; white-space: pre-wrap;">Hi GM,\n\n'
            + html.escape(text) + "\nBye</div></body></html>")
    converted = htmltext.to_text(page)
    assert "pledge = 10          # a whole number" in converted
    assert verified(converted).body == body


def test_pre_line_keeps_lines_but_collapses_white_space() -> None:
    # pre-line: line breaks kept, other white space collapsed (a run of plain spaces between
    # words stays, as everywhere in to_text).
    assert htmltext.to_text('<div style="white-space:pre-line">a \t b\n  c</div>') == (
        "a b\nc\n")
    assert htmltext.to_text('<div style="white-space:pre">a   b\n  c</div><p>x  \n y</p>') == (
        "a   b\n  c\nx y\n")


def test_outlook_spacerun_html_keeps_the_runs() -> None:
    # Outlook (Word HTML) writes a run of spaces as <span style='mso-spacerun:yes'> holding
    # plain spaces, one <p class=MsoPlainText> per line; a browser shows one space there.
    text, body = signed(pledge_body())

    def para(line: str) -> str:
        escaped = html.escape(line)
        escaped = re.sub(r" {2,}", lambda m: f"<span style='mso-spacerun:yes'>{m.group(0)}"
                         "</span>", escaped)
        return f"<p class=MsoPlainText>{escaped or '<o:p>&nbsp;</o:p>'}<o:p></o:p></p>\n"

    page = "<html><body><div class=WordSection1>" + "".join(para(x) for x in text.split("\n"))
    assert verified(htmltext.to_text(page + "</div></body></html>")).body == body


def test_collapsed_spaces_are_restored_from_the_order_form() -> None:
    # An HTML composer that keeps no &nbsp; (or a copy out of a browser window) leaves one
    # space of each run: "pledge = 10          # ..." became "pledge = 10 # ...".
    for body_text in (pledge_body(), act_body()):
        text, body = signed(body_text)
        collapsed = each_line(text, lambda line: re.sub(r"(?<=\S) {2,}", " ", line))
        assert collapsed != text
        block = verified(collapsed)
        assert block.body == body and "runs of spaces" in block.repair


def test_collapsed_spaces_with_the_comment_at_the_forms_column() -> None:
    # The value typed in overwrite mode: the comment stays at the form's column.
    body_text = pledge_body().replace("pledge = 10          #", "pledge = 10         #")
    text, body = signed(body_text)
    collapsed = each_line(text, lambda line: re.sub(r"(?<=\S) {2,}", " ", line))
    assert verified(collapsed).body == body


def test_collapsed_spaces_that_cannot_be_restored_say_what_the_client_did() -> None:
    text, _ = signed(pledge_body())
    collapsed = each_line(tampered(text), lambda line: re.sub(r"(?<=\S) {2,}", " ", line))
    with pytest.raises(ArmorError) as caught:
        armor.extract(collapsed, "message <x@example.org>, body (text/html)")
    rendered = caught.value.render()
    assert rendered.startswith("message <x@example.org>, body (text/html): order block at")
    assert "collapsed runs of spaces inside a line" in rendered
    assert "send the mail as plain text, or attach" in rendered


def test_html_only_mail_with_collapsed_spaces_is_explained_by_its_source() -> None:
    # An HTML-only mail whose composer had collapsed the runs (the block was copied out of a
    # rendered page into the HTML editor): the piece found is labelled as the HTML body, and
    # the error for it says what the client did.
    text, _ = signed(pledge_body())
    lines = [re.sub(r"(?<=\S) {2,}", " ", x) for x in tampered(text).split("\n")]
    page = "<html><body>" + "".join(f"<div>{html.escape(x) or '<br>'}</div>" for x in lines)
    msg = EmailMessage()
    msg["From"] = "alice@example.org"
    msg.set_content(page + "</body></html>", subtype="html")
    (group,) = mime.pieces(email.message_from_bytes(msg.as_bytes(),
                                                    policy=email.policy.compat32)).groups
    (piece,) = group.alternatives[0]
    assert piece.label == "body (text/html)"
    with pytest.raises(ArmorError, match="collapsed runs of spaces") as caught:
        armor.extract(piece.text, f"message 1, {piece.label}")
    assert caught.value.render().startswith("message 1, body (text/html): ")


# --- 3. hard-wrapped mail without format=flowed --------------------------------------------


def fold(text: str, width: int, at_spaces: bool) -> str:
    """coreutils fold, as a mail client without format=flowed breaks long lines: at the last
    space within the width (``-s``: mutt with an editor, Outlook's "wrap at") or at exactly
    the width (clients that break long words)."""
    exe = shutil.which("fold")
    args = [exe or "fold", *(["-s"] if at_spaces else []), "-w", str(width)]
    if exe is None:  # pragma: no cover - coreutils is everywhere the tests run
        pytest.skip("coreutils fold is not installed")
    return subprocess.run(args, input=text, capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("at_spaces", [True, False], ids=["at-spaces", "inside-words"])
@pytest.mark.parametrize("width", [72, 60])
def test_hard_wrapped_salt_line_verifies(width: int, at_spaces: bool) -> None:
    text, body = signed(pledge_body())
    wrapped = fold(text, width, at_spaces)
    assert f'salt = "{hexof("salt/r01.pledge")}"' not in wrapped  # the salt line is broken
    block = verified(wrapped)
    assert block.body == body and "wrapped lines joined" in block.repair


def test_wrapped_line_that_cannot_be_recovered_blames_the_wrapping() -> None:
    text, _ = signed(pledge_body())
    wrapped = fold(tampered(text), 72, at_spaces=True)
    with pytest.raises(ArmorError) as caught:
        armor.extract(wrapped, "orders.eml")
    rendered = caught.value.render()
    # fold -s leaves at most 72 columns; the longest line left is the width pbem names.
    m = re.match(r"orders\.eml: order block at line 1: your mail client wrapped a long line "
                 r"\(at about (\d+) characters\)", rendered)
    assert m is not None and 68 <= int(m.group(1)) <= 72, rendered
    assert "turn off line wrapping" in rendered
    assert "double quotes" not in rendered


def test_wrapped_unsigned_form_blames_the_wrapping() -> None:
    with pytest.raises(ArmorError, match=r"wrapped a long line \(at about 72 characters\): "
                                         r"line \d+ of the block ends inside a value"):
        armor.extract(fold(unsigned(pledge_body()), 72, at_spaces=False))


def test_form_that_is_valid_toml_is_not_unwrapped() -> None:
    # A short line after a comment is not a wrapped comment: only a line that would not
    # have fitted is joined.
    text = unsigned(envelope("r01.pledge") + "# a comment\npledge 7\n")
    (block,) = armor.extract(text)
    assert "pledge 7" in block.body


# --- 4. empty lines dropped (lynx) -----------------------------------------------------------


@pytest.mark.parametrize("make", [pledge_body, logsheet_body, act_body],
                         ids=["conformance-pledge", "mythology-logsheet", "cyclades-act"])
def test_empty_lines_dropped_by_lynx_are_restored(make: object) -> None:
    # A forum shows a post's code as <pre> with <br> line breaks; lynx -dump (and a copy
    # out of it) drops the empty lines in it. The text around the block is kept.
    text, body = signed(make())  # type: ignore[operator]
    assert "\n\n" in body
    dropped = "\n".join(line for line in text.split("\n") if line.strip())
    block = verified("   bob wrote:\n" + dropped + "\n   Reply Quote\n")
    assert block.body == body and "empty lines" in block.repair


def test_empty_lines_pbem_cannot_place_are_explained() -> None:
    # The player added an empty line where no form has one: it cannot be put back.
    body_text = pledge_body().replace('player = "alice"\n', 'player = "alice"\n\n')
    text, _ = signed(body_text)
    dropped = "\n".join(line for line in text.split("\n") if line.strip())
    with pytest.raises(ArmorError, match="empty lines inside the block were dropped") as caught:
        armor.extract(dropped, "forum thread.html")
    assert caught.value.render().startswith("forum thread.html: order block at line 1: ")


# --- combined, bounded, and never accepting other bytes -------------------------------------


def test_indented_and_collapsed_and_without_empty_lines() -> None:
    # html2text of a page whose HTML had lost both the runs of spaces and the empty lines.
    text, body = signed(act_body())
    out = "\n".join("    " + re.sub(r"(?<=\S) {2,}", " ", line)
                    for line in text.split("\n") if line.strip())
    assert verified(out).body == body


def test_a_block_as_signed_costs_no_repair(monkeypatch: pytest.MonkeyPatch) -> None:
    # One verification (remembered by sshsig, so the signer check does not repeat it), no
    # layout analysis, no candidate body.
    def never(*_: object) -> object:
        raise AssertionError("a clean block was checked for repairs")

    for name in ("candidates", "_unwrapped", "_blanks_dropped", "_spaces_collapsed"):
        monkeypatch.setattr(armor, name, never)
    calls: list[str] = []
    real = armor._verifies

    def counted(body: str, sig: sshsig.Signature) -> bool:
        calls.append(body)
        return real(body, sig)

    monkeypatch.setattr(armor, "_verifies", counted)
    for make in (pledge_body, logsheet_body, act_body):
        calls.clear()
        text, body = signed(make())
        (block,) = armor.extract(text)
        assert block.body == body and block.repair == "" and calls == [body]


def test_repairs_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every way of damage at once, over many lines: a constant number of signature checks.
    calls = []
    real = armor._verifies

    def counted(body: str, sig: sshsig.Signature) -> bool:
        calls.append(body)
        return real(body, sig)

    monkeypatch.setattr(armor, "_verifies", counted)
    long_comment = "# " + "word " * 30
    body_text = pledge_body() + "\n".join([long_comment] * 40) + "\n"
    text, _ = signed(body_text)
    damaged = "\n".join("    " + re.sub(r"(?<=\S) {2,}", " ", line)
                        for line in fold(tampered(text), 60, at_spaces=False).split("\n")
                        if line.strip())
    with pytest.raises(ArmorError):
        armor.extract(damaged)
    assert 0 < len(calls) <= armor.MAX_CANDIDATES + 1
    assert len(armor.candidates(armor.normalise(damaged).decode())) <= armor.MAX_CANDIDATES


DAMAGE = {
    "indented": lambda t: each_line(t, lambda line: "    " + line),
    "folded": lambda t: fold(t, 60, at_spaces=False),
    "collapsed": lambda t: each_line(t, lambda line: re.sub(r"(?<=\S) {2,}", " ", line)),
    "lynx": lambda t: "\n".join(line for line in t.split("\n") if line.strip()),
}


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_no_repair_accepts_a_changed_body(data: st.DataObject) -> None:
    # Any one character of the body changed before the channel damages it: refused.
    text, body = signed(pledge_body())
    start = text.index("\n") + 1
    pos = data.draw(st.integers(start, start + len(body) - 2), label="position")
    new = data.draw(st.sampled_from('aZ09="x #-'), label="replacement")
    if text[pos] == new or text[pos] == "\n":
        return
    changed = text[:pos] + new + text[pos + 1:]
    if armor.normalise(changed.split("\n", 1)[1].split(armor.END_ORDERS)[0]).decode() == body:
        return  # the change was only trailing white space, which N removes
    damage = data.draw(st.sampled_from(sorted(DAMAGE)), label="damage")
    assert signature_fails(DAMAGE[damage](changed))


# --- 5. every rejection names its source ------------------------------------------------------


@pytest.fixture(scope="module")
def pledge_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("roundtrip") / "camp"
    make_table(root).play_phases(1)
    return root


@pytest.fixture
def camp(pledge_base: Path, tmp_path: Path) -> Table:
    return table_copy(pledge_base, tmp_path / "camp")


def test_repaired_block_is_accepted_by_the_engine(camp: Table) -> None:
    text, body = signed(pledge_body(campaign_hash=camp.campaign.hash))
    assert max(map(len, text.split("\n"))) <= 76  # the form's lines, campaign_hash too
    damaged = fold(each_line(text, lambda line: "    " + line), 72, at_spaces=True)
    result = camp.submit(damaged, "message 1")
    assert not result.errors, [e.render() for e in result.errors]
    (receipt,) = result.receipts
    assert receipt.commitment == armor.commitment(body.encode())


def _signature_cases(camp: Table) -> dict[str, str]:
    good = camp.signed("alice", {"pledge": 3})
    sig_start = good.index(armor.BEGIN_SIGNATURE)
    lines = good[sig_start:].split("\n")
    lines[1] = lines[1][:-2] + ("AA" if not lines[1].endswith("AA") else "BB")
    return {
        "changed after signing": good.replace("pledge = 3", "pledge = 4"),
        "signature damaged": good[:sig_start] + "\n".join(lines),
        "another player's key": camp.signed("alice", {"pledge": 3},
                                            key=camp.player_keys["bob"]),
        "unknown key": camp.signed("alice", {"pledge": 3}, key=seeded_key("mallory")),
    }


def test_every_signature_error_names_its_source(camp: Table) -> None:
    for what, text in _signature_cases(camp).items():
        result = camp.submit(text, "orders-from-alice.txt")
        assert result.errors, what
        for error in result.errors:
            for line in error.render().split("\n"):
                assert line.startswith("orders-from-alice.txt: "), (what, line)

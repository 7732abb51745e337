"""Issue 19: the order desk in a real browser (Debian's Chromium, headless, playwright).

Each player is a browser context of their own (a phone: its own storage). Keys are made in
the page (WebCrypto Ed25519, non-extractable, in IndexedDB) or imported from an OpenSSH key
file; forms come from ``pbem form`` as the report mail carries them; what the page signs is
submitted through the engine, verified by OpenSSH's ``ssh-keygen -Y verify``, and audited.
Nothing the page does may reach the network: every request is logged and only the page's own
file may appear."""

from __future__ import annotations

import hashlib
import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from pbem import games
from pbem.channels import desk, site
from pbem.core import audit, engine, forms, keychange, keys
from pbem.core import campaign as campaign_mod
from pbem.core.campaign import export_public, open_campaign
from pbem.core.signing import sign_text
from tests.conftest import in_browser, run_pbem, seeded_key

pytestmark = [pytest.mark.slow, in_browser]

PHONE = {"width": 390, "height": 844}


class Device:
    """One player's browser (a phone): a context with its own storage, every request
    logged, anything but a local file refused before it reaches the closed network."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport=PHONE)
        self.context.grant_permissions(["clipboard-read", "clipboard-write"])
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context.route(re.compile(r"^(?!file:).*"), lambda route: route.abort())
        self.page = self.context.new_page()
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path: Path) -> None:
        self.page.goto(path.as_uri(), wait_until="load")
        # The keys are read from IndexedDB after the load: the page is ready when shown.
        self.page.wait_for_selector("body[data-ready]", state="attached")

    def create_key(self, label: str) -> str:
        self.page.fill("#key-label", label)
        self.page.click("#key-create")
        self.page.wait_for_selector("#key-have:not([hidden])")
        return self.public_line()

    def import_key(self, text: str, label: str) -> str:
        self.page.evaluate("document.querySelector('#key-add').open = true")
        self.page.fill("#key-label", label)
        self.page.fill("#key-paste", text)
        self.page.click("#key-import")
        self.page.wait_for_function(
            "l => document.querySelector('#key-select option') &&"
            " [...document.querySelectorAll('#key-select option')].some(o =>"
            " o.textContent.startsWith(l))", arg=label)
        return self.public_line()

    def choose(self, label: str) -> None:
        """Choose the key called ``label`` under "Key to sign with"."""
        value = self.page.evaluate(
            "l => [...document.querySelectorAll('#key-select option')]"
            ".find(o => o.textContent.startsWith(l + ' \u2014')).value", label)
        self.page.select_option("#key-select", value)
        self.page.wait_for_function(
            "l => document.querySelector('#key-public').value.endsWith(' ' + l)", arg=label)

    def public_line(self) -> str:
        """The key line the page shows, without its comment (the key's name)."""
        return " ".join(str(self.page.input_value("#key-public")).split()[:2])

    def sign(self, form: str) -> tuple[str, str, list[str]]:
        """Paste ``form``, press Sign: (signed text, commitment, problems shown)."""
        self.page.evaluate("() => { document.querySelector('#result').hidden = true; }")
        self.page.fill("#form-text", form)
        self.page.click("#form-check")
        self.page.wait_for_selector("#form-text[data-checked]", state="attached")
        self.page.click("#sign")
        self.page.wait_for_function("() => !document.querySelector('#result').hidden ||"
                                    " !document.querySelector('#problems-box').hidden")
        problems = [str(t) for t in self.page.locator("#problems li").all_inner_texts()]
        if problems:
            return "", "", problems
        return (str(self.page.input_value("#signed")),
                str(self.page.inner_text("#commitment")), [])

    def exported(self) -> list[str]:
        """What the page's own code gets when it asks to export each stored private key:
        the browser's refusal, for a key it keeps non-extractable."""
        return list(self.page.evaluate(
            "async () => Promise.all((await pbemDesk.allKeys()).map(async k => {"
            " try { await crypto.subtle.exportKey('pkcs8', k.privateKey); return 'exported'; }"
            " catch (e) { return e.name; } }))"))

    def open_blank_desk(self) -> None:
        """A desk page of no campaign, written beside nothing: for its code alone."""
        import tempfile

        folder = Path(tempfile.mkdtemp())
        (folder / "desk.html").write_bytes(desk.render(None))
        self.open(folder / "desk.html")

    def width(self) -> int:
        return int(self.page.evaluate("document.documentElement.scrollWidth"))

    def close(self) -> None:
        self.context.close()


def _gm_key(tmp: Path) -> Path:
    path = tmp / "gm-key"
    if not path.exists():
        keys.write_keypair(path, seeded_key("gm"))
    return path


def _new_campaign(root: Path, lines: dict[str, str], campaign_id: str) -> campaign_mod.Campaign:
    campaign_mod.create(
        root, games.get("conformance"), campaign_id=campaign_id, gm_key=seeded_key("gm"),
        gm_key_path=str(_gm_key(root.parent)),
        players={p: keys.parse_public_key(line) for p, line in lines.items()},
        options={"rounds": "1"}, chain_length=64,
        heads=(hashlib.sha256(f"s-head/{root}".encode()).digest(),
               hashlib.sha256(f"t-head/{root}".encode()).digest()))
    return open_campaign(root, games.get)


def _seeded_lines() -> dict[str, str]:
    """alice's and bob's public key lines, from the tests' seeded keys."""
    return {p: keys.public_key_line(seeded_key(p).public_key().public_bytes_raw())
            for p in ("alice", "bob")}


def _joined(root: Path, campaign_id: str) -> campaign_mod.Campaign:
    """A campaign of the seeded keys whose players have joined (signed on the command line):
    phase r01.pledge is open."""
    c = _new_campaign(root, _seeded_lines(), campaign_id)
    for p in ("alice", "bob"):
        assert not engine.submit(c, sign_text(_form(c, p), seeded_key(p)).encode(), p).errors
    engine.adjudicate(c, lambda: seeded_key("gm"))
    return open_campaign(c.root, games.get)


def _form(c: campaign_mod.Campaign, player: str) -> str:
    """The order form as the report mail carries it (the salt and entropy are the GM's,
    which the desk replaces)."""
    _, state, phase = engine.open_phase(c)
    assert phase is not None
    view = c.ruleset.view(state, player) if state is not None else {}
    return "Hello from your GM.\n\n" + forms.render_form(
        c.id, player, phase, c.ruleset.order_form(view, phase, player), "0" * 64, "1" * 64,
        c.envelope_hash) + "\nGood luck.\n"


def _desk_page(c: campaign_mod.Campaign, out: Path, *, whole_site: bool = True) -> Path:
    """The campaign's desk page as ``pbem site`` writes it (``whole_site=False``: the same
    page alone, as desk.render gives it, without building and auditing the whole site)."""
    if whole_site:
        result = site.build(c, out)
        assert result.audit.passed
    else:
        out.mkdir(exist_ok=True)
        (out / desk.NAME).write_bytes(desk.render(c, c))
    return out / desk.NAME


def _ssh_verify(ssh_keygen: str, tmp: Path, signed: str, player: str, line: str) -> None:
    body = signed.split("-----BEGIN PBEM ORDERS-----\n", 1)[1].split(
        "-----END PBEM ORDERS-----\n", 1)
    (tmp / "body").write_text(body[0])
    (tmp / "body.sig").write_text(body[1])
    (tmp / "signers").write_text(f'{player} namespaces="pbem-orders" {line}\n')
    done = subprocess.run([ssh_keygen, "-Y", "verify", "-f", str(tmp / "signers"), "-I",
                           player, "-n", "pbem-orders", "-s", str(tmp / "body.sig")],
                          input=body[0].encode(), capture_output=True, check=False)
    assert done.returncode == 0, done.stderr


def test_19_a_whole_campaign_signed_on_the_order_desk_with_a_key_replaced_midway(
        browser: Any, tmp_path: Path, ssh_keygen: str) -> None:
    """Done-when of issue 19: keys made in the browser, every order of a conformance
    campaign signed on the desk, adjudicated and audited; alice loses her phone midway, makes
    a key on a new one, the GM replaces her key, and the audits still pass."""
    generic = tmp_path / "desk.html"
    generic.write_bytes(desk.render(None))
    devices = {p: Device(browser) for p in ("alice", "bob")}
    try:
        lines = {}
        for p, d in devices.items():
            d.open(generic)
            lines[p] = d.create_key(p)
        c = _new_campaign(tmp_path / "c", lines, "desk-campaign")
        assert devices["alice"].exported() == ["InvalidAccessError"]
        page = _desk_page(c, tmp_path / "site")
        signed_count, replaced_at, new_key_orders = 0, 0, 0
        while (phase := engine.open_phase(c)[2]) is not None:
            for p in phase.actors:
                d = devices[p]
                d.open(page)
                signed, commitment, problems = d.sign(_form(c, p))
                assert problems == [], problems
                if signed_count == 0:  # the first as a GM would: OpenSSH, then pbem submit
                    _ssh_verify(ssh_keygen, tmp_path, signed, p, lines[p])
                    (tmp_path / "mail.txt").write_text(signed)
                    done = run_pbem("submit", str(c.root), "mail.txt", cwd=tmp_path)
                    assert f"accepted orders of {p}" in done.stdout
                    assert f"commitment {commitment}" in done.stdout
                else:
                    result = engine.submit(c, signed.encode(), f"{p}.txt")
                    assert not result.errors, [e.render() for e in result.errors]
                    assert result.receipts[0].commitment == commitment
                signed_count += 1
                new_key_orders += p == "alice" and replaced_at > 0
            if not replaced_at and engine.open_phase(c)[0] == 1:
                # alice's phone is lost after she sent this phase's orders: a new phone,
                # a new key made on the desk, and the GM's pbem player-key.
                devices["alice"].close()
                devices["alice"] = Device(browser)
                devices["alice"].open(page)
                lines["alice"] = devices["alice"].create_key("alice-new-phone")
                (tmp_path / "alice-new.pub").write_text(lines["alice"] + "\n")
                run_pbem("player-key", str(c.root), "alice", str(tmp_path / "alice-new.pub"),
                         "--reason", "lost her phone", cwd=tmp_path)
                replaced_at = engine.open_phase(c)[0] + 1
            engine.adjudicate(c, lambda: seeded_key("gm"))
            c = open_campaign(c.root, games.get)
            page = _desk_page(c, tmp_path / "site", whole_site=False)
        assert replaced_at == 2 and signed_count >= 6 and new_key_orders >= 1
        assert _desk_page(c, tmp_path / "site").read_bytes() == desk.render(c, c)
        assert c.keys_at(replaced_at + 1)["alice"] == keys.parse_public_key(lines["alice"])
        assert audit.audit(c).replayed
        export_public(c.root, tmp_path / "public")
        assert audit.audit(open_campaign(tmp_path / "public", games.get)).replayed
        for d in devices.values():
            assert d.errors == []
            assert {r for r in d.requests} <= {generic.as_uri(), page.as_uri()}, d.requests
            assert d.width() <= PHONE["width"]
    finally:
        for d in devices.values():
            d.close()


def test_19_an_imported_openssh_key_signs_byte_for_byte_as_ssh_keygen(
        browser: Any, tmp_path: Path, ssh_keygen: str) -> None:
    """Ed25519 is deterministic: the desk and ``ssh-keygen -Y sign`` with the same key over
    the same body give the same signature, byte for byte."""
    key_path = tmp_path / "id_ed25519"
    subprocess.run([ssh_keygen, "-q", "-t", "ed25519", "-N", "", "-C", "me@laptop", "-f",
                    str(key_path)], check=True)
    d = Device(browser)
    try:
        generic = tmp_path / "desk.html"
        generic.write_bytes(desk.render(None))
        d.open(generic)
        line = d.import_key(key_path.read_text(), "laptop")
        assert d.exported() == ["InvalidAccessError"]  # kept as a key that cannot be read
        assert line == " ".join(key_path.with_suffix(".pub").read_text().split()[:2])
        c = _new_campaign(tmp_path / "c", {"alice": line, "bob": keys.public_key_line(
            seeded_key("bob").public_key().public_bytes_raw())}, "import-campaign")
        form = _form(c, "alice")
        out = d.page.evaluate(
            "async (form) => { const k = (await pbemDesk.allKeys())[0];"
            " return await pbemDesk.signForm(form, k, false); }", form)
        body = out["armored"].split("-----BEGIN PBEM ORDERS-----\n")[1].split(
            "-----END PBEM ORDERS-----\n")
        (tmp_path / "body").write_text(body[0])
        subprocess.run([ssh_keygen, "-q", "-Y", "sign", "-f", str(key_path), "-n",
                        "pbem-orders", str(tmp_path / "body")], check=True)
        assert body[1] == (tmp_path / "body.sig").read_text()
        assert out["commitment"] == hashlib.sha256(
            b"pbem-commit/1\n" + body[0].encode()).hexdigest()
    finally:
        d.close()


def _cli_message(tmp: Path, c: campaign_mod.Campaign, text: str, key: Path) -> str:
    """What the command line says of ``text``: ``pbem sign`` (TOML, envelope shape), then
    ``pbem verify`` (signature, campaign, player, phase), the file name taken off."""
    (tmp / "f.txt").write_text(text)
    done = run_pbem("sign", "f.txt", "--key", str(key), "--keep-entropy", "-o", "s.txt",
                    cwd=tmp, ok=False)
    if done.returncode != 0:
        return done.stderr.strip().removeprefix("pbem: f.txt: ")
    done = run_pbem("verify", "s.txt", "--campaign", str(c.root), cwd=tmp, ok=False)
    assert done.returncode != 0, done.stdout
    return done.stderr.strip().removeprefix("pbem: s.txt: ")


def test_19_broken_forms_are_refused_with_the_command_lines_own_words(
        browser: Any, tmp_path: Path) -> None:
    """A tampered form, a form of another campaign, broken TOML, another player's form and
    a character that would reorder text: the desk refuses each, and nothing is signed, with
    the message ``pbem sign`` or ``pbem verify`` gives for the same text."""
    key_path = tmp_path / "alice-key"
    keys.write_keypair(key_path, seeded_key("alice"))
    lines = _seeded_lines()
    c = _new_campaign(tmp_path / "c", lines, "words")
    other = _new_campaign(tmp_path / "other", lines, "words")  # a namesake campaign
    elsewhere = _new_campaign(tmp_path / "elsewhere", lines, "elsewhere")
    form = _form(c, "alice")
    cases = {
        "tampered phase": form.replace('phase = "t00.join"', 'phase = "r01.pledge"'),
        "tampered campaign_hash": form.replace(c.envelope_hash or "", "0" * 64),
        "another campaign": _form(elsewhere, "alice"),
        "a namesake campaign": _form(other, "alice"),
        "broken TOML": form.replace('motto = ""', 'motto = "no end'),
        "a table the form has not": form.replace("[orders]", "[orders]\n[extra]"),
        "bob's form": _form(c, "bob"),
        "a bidi override": form.replace('motto = ""', 'motto = "a\u202eb"'),
        "an unfinished block": form.replace("-----END PBEM ORDERS-----", ""),
    }
    d = Device(browser)
    try:
        d.open(_desk_page(c, tmp_path / "site"))
        d.import_key(key_path.read_text(), "alice")
        for name, text in cases.items():
            _, _, shown = d.sign(text)
            assert shown, f"{name}: signed"
            assert "\n".join(shown) == _cli_message(tmp_path, c, text, key_path), name
        # Too large for the armor (a text typed into the box; playwright's fill is too slow
        # for 280 kB): the same refusal as the command line's.
        big = form.replace('motto = ""', "# x\n" * 70_000 + 'motto = ""')
        said = d.page.evaluate("t => { try { pbemDesk.findBlock(t); return ''; }"
                               " catch (e) { return e.message; } }", big)
        assert said == _cli_message(tmp_path, c, big, key_path)
    finally:
        d.close()


def test_19_a_replaced_key_is_refused_as_the_players_former_key(
        browser: Any, tmp_path: Path) -> None:
    """After pbem player-key the campaign's page knows the new key from the record after:
    the old phone's key is refused as the player's former key, in the command line's
    words."""
    c = _new_campaign(tmp_path / "c", _seeded_lines(), "swap")
    key_path = tmp_path / "alice-key"
    keys.write_keypair(key_path, seeded_key("alice"))
    d = Device(browser)
    try:
        d.open(_desk_page(c, tmp_path / "site"))
        d.import_key(key_path.read_text(), "alice")
        signed, _, problems = d.sign(_form(c, "alice"))
        assert problems == []
        assert not engine.submit(c, signed.encode(), "alice").errors
        assert not engine.submit(c, sign_text(_form(c, "bob"), seeded_key("bob")).encode(),
                                 "bob").errors
        keychange.queue(c, "alice", seeded_key("alice-2").public_key().public_bytes_raw())
        # Before the record that carries it, the new key is refused as too early, in the
        # words of the GM's own check.
        early_key = tmp_path / "alice-2-key"
        keys.write_keypair(early_key, seeded_key("alice-2"))
        d.open(_desk_page(c, tmp_path / "site", whole_site=False))
        d.import_key(early_key.read_text(), "alice-2")
        d.choose("alice-2")
        _, _, shown = d.sign(_form(c, "alice"))
        assert shown == [_cli_message(tmp_path, c, _form(c, "alice"), early_key)]
        assert "registered from record 2 on" in shown[0]
        d.choose("alice")
        engine.adjudicate(c, lambda: seeded_key("gm"))
        c = open_campaign(c.root, games.get)
        d.open(_desk_page(c, tmp_path / "site"))
        _, _, shown = d.sign(_form(c, "alice"))
        assert shown == [_cli_message(tmp_path, c, _form(c, "alice"), key_path)]
        assert "signed by alice's former key" in shown[0]
        assert "which the GM replaced from record 2 on" in shown[0]
    finally:
        d.close()


def test_19_the_fields_of_the_form_with_their_comments_as_help(
        browser: Any, tmp_path: Path) -> None:
    """Pasted, the form is checked when the typing stops and its fields appear, each with
    its comment and the comment block above it as help; a field edited is written back
    into the form, and what is signed carries it."""
    c = _joined(tmp_path / "c", "fields")
    run_pbem("mail-settings", str(c.root), "--from", "Zeus the GM <gm@example.org>",
             "--reply-to", "orders+fields@example.org", cwd=tmp_path)
    c = open_campaign(c.root, games.get)
    key_path = tmp_path / "alice-key"
    keys.write_keypair(key_path, seeded_key("alice"))
    d = Device(browser)
    try:
        d.open(_desk_page(c, tmp_path / "site", whole_site=False))
        d.import_key(key_path.read_text(), "alice")
        d.page.fill("#form-text", _form(c, "alice"))  # no click: the pause checks it
        d.page.wait_for_selector("#fields .field")
        assert d.page.inner_text("#form-ok") == "The form is for alice, phase r01.pledge."
        field = d.page.locator("#fields .field").first
        assert field.locator("label").inner_text() == "pledge"
        help_text = " ".join(field.locator("pre.help").all_inner_texts())
        assert "a whole number from 0 to 10" in help_text
        assert "Secret pledge, sealed until the end of the game" in help_text
        d.page.fill("#field-orders-pledge", "7")
        d.page.press("#field-orders-pledge", "Enter")
        d.page.locator("#field-orders-pledge").blur()
        d.page.wait_for_function(
            "() => /^pledge = 7 /m.test(document.querySelector('#form-text').value)")
        d.page.click("#sign")
        d.page.wait_for_selector("#result:not([hidden])")
        signed = str(d.page.input_value("#signed"))
        # The mail button opens the player's mail app on the GM's orders address with the
        # signed orders as the body.
        href = urlsplit(str(d.page.get_attribute("#mailto", "href")))
        assert (href.scheme, unquote(href.path)) == ("mailto", "orders+fields@example.org")
        query = parse_qs(href.query)
        assert query["body"] == [signed]
        assert query["subject"] == ["Orders fields r01.pledge alice"]
        result = engine.submit(c, signed.encode(), "alice.txt")
        assert not result.errors and result.receipts[0].player == "alice"
        assert engine.pending_orders(c, engine.open_phase(c)[2]  # type: ignore[arg-type]
                                     )["alice"].orders == {"pledge": 7}
        assert d.width() <= PHONE["width"]
        # A form with commented-out examples (Hetairos' turn): each is an optional field.
        turn = (Path(__file__).resolve().parents[1] / "orders" / "hetairos" / "turn.toml")
        text = "-----BEGIN PBEM ORDERS-----\n[orders]\n" + turn.read_text() + \
            "-----END PBEM ORDERS-----\n"
        found = d.page.evaluate("t => pbemDesk.fieldsOf(pbemDesk.findBlock(t))"
                                ".map(f => [f.table, f.key, f.example, f.placeholder])", text)
        assert found[:3] == [["orders", "steps", True, '["move E", "attack m7"]'],
                             ["orders", "halt", True,
                              '["discovery", "enemy", "trap", "wound", "skip"]'],
                             ["orders.standing", "imprison", True, "true"]]
        assert [f[1] for f in found[3:]] == ["soak", "cover", "gorgon", "pay_giant", "reroll",
                                            "npcs", "traitor", "boot"]
        # Filled in, a standing order goes into its table: the header is uncommented.
        filled = d.page.evaluate(
            "t => { const fs = pbemDesk.fieldsOf(pbemDesk.findBlock(t));"
            " return pbemDesk.setField(pbemDesk.setField(t, fs[0], '[\"move E\"]'),"
            " fs[2], 'false'); }", text)
        body = filled.split("-----BEGIN PBEM ORDERS-----\n")[1].split("-----END")[0]
        assert tomllib.loads(body)["orders"] == {"steps": ["move E"],
                                                 "standing": {"imprison": False}}
    finally:
        d.close()


def _variants(text: str) -> list[str]:
    """An order form's [orders] with its examples made live, then each key misspelt and each
    value given another type, one change at a time: the mistakes a player makes."""
    live = re.sub(r"(?m)^# (?=\[|[\w.\"-]+ *=)", "", text)
    out = [live]
    lines = live.split("\n")
    for n, line in enumerate(lines):
        m = re.match(r'(\s*)([A-Za-z0-9_-]+)(\s*=\s*)(.*)$', line)
        if m is None:
            continue
        for change in (m.group(2)[:-1] or "x", m.group(2) + "s"):
            out.append("\n".join([*lines[:n], m.group(1) + change + m.group(3) + m.group(4),
                                  *lines[n + 1:]]))
        for value in ('"7"', "7", "true", '"yes"', "[1, \"a\"]", "{ a = 1 }", "2.5", '"True"'):
            out.append("\n".join([*lines[:n], m.group(1) + m.group(2) + m.group(3) + value,
                                  *lines[n + 1:]]))
    return out


def test_19_the_desk_checks_keys_and_types_of_every_form_as_pbem_check_does(
        browser: Any) -> None:
    """formcheck's checks of [orders] against each form of every game, ported to the desk:
    the same problems, word for word, on each form's examples with every key misspelt and
    every value of another type; difflib's "did you mean" included."""
    from pbem.core import formcheck

    root = Path(__file__).resolve().parents[1]
    cases: list[tuple[str, str, dict[str, Any], str]] = []
    for path in sorted(root.glob("orders/*/*.toml")):
        game, kind = path.parent.name, path.stem
        table = formcheck.form_schema(game, kind)
        assert table is not None
        schema = desk._table_json(table)
        for text in _variants(path.read_text(encoding="utf-8")):
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                continue
            want = [str(p) for p in formcheck._check_table(data.get("orders", data), table,
                                                           "orders", kind)]
            cases.append((text, kind, schema, "\n".join(want)))
    d = Device(browser)
    try:
        d.open_blank_desk()
        got = d.page.evaluate(
            "cases => cases.map(([t, kind, schema]) => { const data = tomli.loads(t);"
            " const orders = data.has('orders') ? data.get('orders') : data;"
            " return pbemDesk.checkTable(orders, schema, 'orders', kind).join('\\n'); })",
            [[t, k, s] for t, k, s, _ in cases])
    finally:
        d.close()
    wrong = [(t[:80], w, g) for (t, _, _, w), g in zip(cases, got, strict=True) if w != g]
    assert len(cases) > 400 and sum(bool(w) for *_, w in cases) > 300
    assert not wrong, wrong[:3]


def test_19_the_desk_refuses_a_mistyped_order_with_pbem_checks_words(
        browser: Any, tmp_path: Path) -> None:
    c = _joined(tmp_path / "c", "typo")
    key_path = tmp_path / "alice-key"
    keys.write_keypair(key_path, seeded_key("alice"))
    form = _form(c, "alice")
    d = Device(browser)
    try:
        d.open(_desk_page(c, tmp_path / "site", whole_site=False))
        d.import_key(key_path.read_text(), "alice")
        for typo in ('pledge = "7"', "pledg = 7", "pledge = true"):
            text = re.sub(r"(?m)^pledge = 0", typo, form)
            _, _, shown = d.sign(text)
            (tmp_path / "f.txt").write_text(text)
            done = run_pbem("check", "f.txt", cwd=tmp_path, ok=False)
            said = [line.removeprefix("f.txt: ") for line in done.stdout.splitlines()
                    + done.stderr.splitlines() if line.startswith("f.txt: line")]
            assert shown == said and shown, (typo, shown, done.stdout, done.stderr)
    finally:
        d.close()

"""Writes the raw mail fixtures of tests/test_ingest.py.

Run ``python -m tests.data.mail.make_fixtures`` from the checkout.

Each fixture is a message as one mail client writes it, byte for byte: the headers, the MIME
structure, the transfer encoding and the line breaking were written by hand after messages
those clients sent. Only the order blocks are generated: they must be genuinely signed for the
test campaign (``tests.conftest.make_table`` after its join phase, phase ``r01.pledge``), whose
keys, salts and entropy are derived from fixed labels, so the output never changes unless
conftest does. ``test_ingest.test_fixtures_are_current`` fails if a fixture is stale.
"""

from __future__ import annotations

import base64
import email.quoprimime
import html
import re
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
CRLF = "\r\n"


def signed_blocks() -> dict[str, str]:
    from tests.conftest import make_table

    with tempfile.TemporaryDirectory() as tmp:
        table = make_table(Path(tmp) / "camp")
        table.play_phases(1)
        return {"alice4": table.signed("alice", {"pledge": 4}),
                "bob5": table.signed("bob", {"pledge": 5}),
                "carol6": table.signed("carol", {"pledge": 6}),
                "alice7": table.signed("alice", {"pledge": 7})}


def qp(text: str) -> str:
    return email.quoprimime.body_encode(text, maxlinelen=76, eol=CRLF)


def crlf(text: str) -> bytes:
    return text.replace("\r\n", "\n").replace("\n", CRLF).encode("utf-8")


def outlook_html(block: str) -> bytes:
    """Outlook for Windows, HTML only: one <p class=MsoNormal> per line, &nbsp; for empty
    lines, quoted-printable with soft breaks at 76 columns."""
    paras = "".join(
        f'<p class="MsoNormal">{html.escape(line, quote=True) or "<o:p>&nbsp;</o:p>"}'
        f"<o:p></o:p></p>\r\n" for line in ["Hello GM,", "", "my pledge for round 1:", "",
                                            *block.splitlines(), "", "Regards,", "Alice"])
    body = ('<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-'
            'com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word">\r\n'
            '<head>\r\n<meta http-equiv="Content-Type" content="text/html; charset=us-ascii">'
            '\r\n<meta name="Generator" content="Microsoft Word 15 (filtered medium)">\r\n'
            "<style><!--\r\n/* Style Definitions */\r\np.MsoNormal, li.MsoNormal, div.MsoNormal"
            "\r\n\t{margin:0cm;\r\n\tfont-size:11.0pt;\r\n\tfont-family:\"Calibri\",sans-serif;}"
            "\r\n--></style>\r\n</head>\r\n<body lang=\"EN-GB\" link=\"#0563C1\" vlink=\"#954F72\">"
            '\r\n<div class="WordSection1">\r\n' + paras + "</div>\r\n</body>\r\n</html>\r\n")
    head = (
        "Received: from AM0PR07MB1234.eurprd07.prod.outlook.com ([fe80::1]) by\r\n"
        " AM0PR07MB1234.eurprd07.prod.outlook.com ([fe80::1%7]) with mapi id 15.20.1234.020;\r\n"
        " Mon, 2 Mar 2026 09:14:07 +0000\r\n"
        "From: Alice Liddell <alice@example.org>\r\n"
        "To: \"pbem GM\" <gm@example.net>\r\n"
        "Subject: RE: [test-campaign] record 1: r01.pledge\r\n"
        "Thread-Topic: [test-campaign] record 1: r01.pledge\r\n"
        "Thread-Index: AQHZ1234abcdEFGHijklMNOPqrstUVWX==\r\n"
        "Date: Mon, 2 Mar 2026 09:14:07 +0000\r\n"
        "Message-ID: <AM0PR07MB1234ABCD@AM0PR07MB1234.eurprd07.prod.outlook.com>\r\n"
        "Accept-Language: en-GB, en-US\r\n"
        "Content-Language: en-GB\r\n"
        "X-MS-Has-Attach:\r\n"
        "X-MS-TNEF-Correlator:\r\n"
        "Content-Type: text/html; charset=\"us-ascii\"\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n"
        "MIME-Version: 1.0\r\n\r\n")
    return (head + qp(body)).encode("ascii")


def flow(text: str, width: int = 72, delsp: bool = False) -> str:
    """RFC 3676 on the sending side: trailing spaces trimmed, long lines broken with a
    trailing space (at a space, or anywhere with DelSp=yes), space-stuffing."""
    out = []
    for raw in text.split("\n"):
        quote = re.match(r"(?:> ?)*", raw).group(0)  # type: ignore[union-attr]
        depth = quote.count(">")
        line = raw[len(quote):]
        line = line if line == "-- " else line.rstrip(" ")
        prefix = ">" * depth + (" " if depth else "")
        while True:
            stuff = " " if not depth and line.startswith((" ", "From ", ">")) else ""
            room = width - len(prefix) - len(stuff)
            if len(line) <= room or line == "-- ":
                out.append(prefix + stuff + line)
                break
            cut = room - 1 if delsp else line.rfind(" ", 0, room) + 1
            if cut <= 0:
                out.append(prefix + stuff + line)
                break
            out.append(prefix + stuff + line[:cut] + (" " if delsp else ""))
            line = line[cut:]
    return "\n".join(out)


REPORT = """pbem report for {player}

Campaign test-campaign: Conformance ruleset
Record 1, phase t00.join

Your receipt: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
"""


def thunderbird_flowed(block: str) -> bytes:
    """Thunderbird, plain text, format=flowed, 8bit UTF-8, bottom-quoting the report."""
    quoted = "\n".join("> " + line if line else ">" for line in
                       REPORT.format(player="bob").splitlines())
    text = ("Χαίρε GM,\n\nhere are my orders; I kept the salt line long on purpose.\n\n"
            + block + "\nOn 01/03/2026 18:00, pbem wrote:\n" + quoted + "\n\n-- \nBob\n")
    head = (
        "Message-ID: <5f1c0a7e-2b1d-4e8f-9a77-0c3b1f2e4d5a@example.org>\r\n"
        "Date: Mon, 2 Mar 2026 10:02:44 +0100\r\n"
        "MIME-Version: 1.0\r\n"
        "User-Agent: Mozilla Thunderbird\r\n"
        "Subject: Re: [test-campaign] record 1: r01.pledge\r\n"
        "Content-Language: en-US\r\n"
        "To: gm@example.net\r\n"
        "References: <pbem.test-campaign.1.bob@example.net>\r\n"
        "From: Bob <bob@example.org>\r\n"
        "In-Reply-To: <pbem.test-campaign.1.bob@example.net>\r\n"
        "Content-Type: text/plain; charset=UTF-8; format=flowed\r\n"
        "Content-Transfer-Encoding: 8bit\r\n\r\n")
    return head.encode() + crlf(flow(text, 72))


def apple_delsp(block: str) -> bytes:
    """Apple Mail, plain text, format=flowed; delsp=yes, quoted-printable: long lines are
    broken inside words, with a space the reader removes."""
    text = "Hi,\n\n" + block + "\nCarol\nSent from my iPad\n"
    head = (
        "Content-Type: text/plain;\r\n\tcharset=us-ascii;\r\n\tdelsp=yes;\r\n\tformat=flowed\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n"
        "Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.600.62\\))\r\n"
        "Subject: pledge\r\n"
        "From: Carol <carol@example.com>\r\n"
        "Date: Mon, 2 Mar 2026 11:30:00 +0100\r\n"
        "Message-Id: <8E4B2C1D-3F5A-4B6C-9D7E-1A2B3C4D5E6F@example.com>\r\n"
        "To: gm@example.net\r\n"
        "X-Mailer: Apple Mail (2.3774.600.62)\r\n\r\n")
    return head.encode() + qp(flow(text, 60, delsp=True).replace("\n", CRLF)).encode()


def gmail_forward(block: str) -> bytes:
    """Gmail, an inline forward (not an attachment) of Alice's mail from her other account:
    multipart/alternative, quoted-printable plain part, HTML part with <br> per line."""
    plain = ("Sending again from my other address.\n\n"
             "---------- Forwarded message ---------\n"
             "From: Alice <alice@example.org>\n"
             "Date: Mon, 2 Mar 2026 at 09:14\n"
             "Subject: orders\n"
             "To: <gm@example.net>\n\n\n" + block + "\n")
    lines = "<br>".join(html.escape(line) for line in block.splitlines())
    rich = ('<div dir="ltr">Sending again from my other address.<br><br><div class="gmail_quote">'
            '<div dir="ltr" class="gmail_attr">---------- Forwarded message ---------<br>'
            "From: <strong class=\"gmail_sendername\" dir=\"auto\">Alice</strong> <span dir="
            '"auto">&lt;<a href="mailto:alice@example.org">alice@example.org</a>&gt;</span><br>'
            "Date: Mon, 2 Mar 2026 at 09:14<br>Subject: orders<br>To: &lt;<a href=\"mailto:gm@"
            'example.net">gm@example.net</a>&gt;<br></div><br><br><div dir="ltr">'
            + lines + "</div>\n</div></div>\n")
    head = (
        "MIME-Version: 1.0\r\n"
        "Date: Mon, 2 Mar 2026 12:00:01 +0100\r\n"
        "Message-ID: <CAF=abc123DEF456ghi789@mail.gmail.com>\r\n"
        "Subject: Fwd: orders\r\n"
        "From: Alice L <alice.liddell@gmail.example>\r\n"
        "To: gm@example.net\r\n"
        'Content-Type: multipart/alternative; boundary="000000000000a1b2c3d4e5f6a7b8"\r\n\r\n')
    parts = ("--000000000000a1b2c3d4e5f6a7b8\r\n"
             'Content-Type: text/plain; charset="UTF-8"\r\n'
             "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + qp(plain.replace(
                 "\n", CRLF)) + "\r\n"
             "--000000000000a1b2c3d4e5f6a7b8\r\n"
             'Content-Type: text/html; charset="UTF-8"\r\n'
             "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + qp(rich.replace(
                 "\n", CRLF)) + "\r\n"
             "--000000000000a1b2c3d4e5f6a7b8--\r\n")
    return (head + parts).encode("ascii")


def mutt_attachment(block: str) -> bytes:
    """mutt: a short text body and the signed file attached as application/octet-stream,
    base64 (what mutt does for an unknown .asc type)."""
    b64 = base64.encodebytes(block.encode()).decode().replace("\n", CRLF)
    return crlf(
        "Date: Mon, 2 Mar 2026 13:00:00 +0000\n"
        "From: bob@example.org\n"
        "To: gm@example.net\n"
        "Subject: orders attached\n"
        "Message-ID: <20260302130000.GA1234@example.org>\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="J2SCkAp4GZ/dPZZf"\n'
        "Content-Disposition: inline\n"
        "User-Agent: Mutt/2.2.12 (2023-09-09)\n\n\n"
        "--J2SCkAp4GZ/dPZZf\n"
        "Content-Type: text/plain; charset=us-ascii\n"
        "Content-Disposition: inline\n\n"
        "Orders attached.\n\n"
        "--J2SCkAp4GZ/dPZZf\n"
        "Content-Type: application/octet-stream\n"
        'Content-Disposition: attachment; filename="pledge.asc"\n'
        "Content-Transfer-Encoding: base64\n\n") + b64.encode() + crlf(
        "\n--J2SCkAp4GZ/dPZZf--\n")


def undecodable() -> bytes:
    """A message whose text claims UTF-8 but holds Latin-1 bytes, and no orders."""
    return crlf(
        "From: carol@example.com\n"
        "To: gm@example.net\n"
        "Subject: =?iso-8859-1?q?pr=E9vu?=\n"
        "Message-ID: <latin1@example.com>\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: 8bit\n\n").replace(b"\r\n\r\n", b"\r\n\r\n", 1) + \
        "Je serai en retard, désolé.\r\n".encode("latin-1")


def build() -> dict[str, bytes]:
    blocks = signed_blocks()
    return {
        "outlook-html-qp.eml": outlook_html(blocks["alice4"]),
        "thunderbird-flowed.eml": thunderbird_flowed(blocks["bob5"]),
        "applemail-delsp.eml": apple_delsp(blocks["carol6"]),
        "gmail-forward-inline.eml": gmail_forward(blocks["alice7"]),
        "mutt-attachment.eml": mutt_attachment(blocks["bob5"]),
        "latin1-undecodable.eml": undecodable(),
    }


if __name__ == "__main__":
    for name, data in build().items():
        (HERE / name).write_bytes(data)
        print(f"wrote {HERE / name}")

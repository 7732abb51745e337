"""DESIGN.md section 3: extraction, normalisation, commitments; mangled mail still verifies."""

from __future__ import annotations

import dataclasses
import email
import email.policy
import hashlib
import quopri
from email.message import EmailMessage

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pbem.core import armor, orders, sshsig
from pbem.core.errors import ArmorError, OrderSyntaxError, SignatureError
from pbem.core.keys import AllowedSigners
from tests.budget import examples
from tests.conftest import Table, make_table, seeded_key

# Every character but surrogates (which are not text): codepoints 0..0x10FFFF.
body_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF).filter(
    lambda ch: not 0xD800 <= ord(ch) <= 0xDFFF), max_size=300)


@given(body_text)
def test_normalisation_is_idempotent(text: str) -> None:
    once = armor.normalise(text)
    assert armor.normalise(once.decode()) == once


@given(body_text)
def test_normalised_form_has_the_design_shape(text: str) -> None:
    n = armor.normalise(text).decode()
    assert (n.endswith("\n") and not n.endswith("\n\n")) or n == "\n"
    assert "\r" not in n
    assert all(line == line.rstrip(" \t") for line in n.split("\n"))
    assert not n.startswith("\n") or n == "\n"


def test_normalisation_known_answer() -> None:
    # Source: DESIGN.md section 3, applied by hand: CRLF and lone CR to LF, trailing blanks
    # removed, leading and trailing empty lines removed, one final LF.
    raw = "\r\n\n  a = 1 \t\r\nb = 2\rc = 3\n\n\n"
    assert armor.normalise(raw) == b"  a = 1\nb = 2\nc = 3\n"


def test_normalisation_does_not_split_on_unicode_line_separators() -> None:
    # str.splitlines() would split on U+2028 and \x0c; DESIGN.md names only CR and LF.
    assert armor.normalise("a\u2028b\x0cc") == "a\u2028b\x0cc\n".encode()


def test_commitment_known_answer() -> None:
    # Source: the definition, computed with hashlib independently of pbem.
    body = b'[envelope]\nformat = "pbem-orders/1"\n'
    assert armor.commitment(body) == hashlib.sha256(b"pbem-commit/1\n" + body).hexdigest()


def _signers(table: Table) -> AllowedSigners:
    return table.campaign.signers


def _verify_first(text: str, table: Table) -> orders.OrderFile:
    blocks = armor.extract(text)
    assert len(blocks) == 1
    order = orders.parse(blocks[0])
    orders.check_signature(order, _signers(table))
    return order


def test_extraction_ignores_surrounding_email_text(table: Table) -> None:
    signed = table.signed("alice")
    mail = (
        "Hi GM,\n\nhere are my orders.\n\n"
        + signed
        + "\n-- \nAlice\n> On Monday the GM wrote:\n> your report...\n"
    )
    assert _verify_first(mail, table).player == "alice"


def test_crlf_endings_still_verify(table: Table) -> None:
    signed = table.signed("alice")
    assert _verify_first(signed.replace("\n", "\r\n"), table).player == "alice"


def test_trailing_spaces_and_indentation_of_markers_still_verify(table: Table) -> None:
    signed = table.signed("alice")
    mangled = "\n".join(
        ("  " + line + "  \t") if line.startswith("-----") else line + "   "
        for line in signed.split("\n")
    )
    assert _verify_first(mangled, table).player == "alice"


def test_quoted_printable_round_trip_still_verifies(table: Table) -> None:
    signed = table.signed("alice") + "trailing  \n"
    encoded = quopri.encodestring(signed.encode(), quotetabs=False)
    assert b"=20\n" in encoded or b"=\n" in encoded  # the trailing blanks were encoded
    assert _verify_first(quopri.decodestring(encoded).decode(), table).player == "alice"


def test_mail_client_round_trip_still_verifies(table: Table) -> None:
    # A real RFC 5322 message with a quoted-printable body, as a mail client sends it.
    msg = EmailMessage()
    msg["From"] = "alice@example.org"
    msg["Subject"] = "orders"
    msg.set_content("Orders below.\n\n" + table.signed("alice") + "\nbye\n", cte="quoted-printable")
    raw = msg.as_bytes(policy=email.policy.SMTP)
    assert b"\r\n" in raw
    back = email.message_from_bytes(raw, policy=email.policy.default)
    text = back.get_body().get_content()  # type: ignore[union-attr]
    assert _verify_first(text, table).player == "alice"


def test_two_blocks_in_one_text_are_both_found(table: Table) -> None:
    text = table.signed("alice") + "\nand also\n" + table.signed("bob")
    found = armor.extract(text)
    assert [orders.parse(b).player for b in found] == ["alice", "bob"]
    assert all(b.signature is not None for b in found)


def test_unsigned_block_has_no_signature(table: Table) -> None:
    (block,) = armor.extract(table.form("alice"))
    assert block.signature is None
    with pytest.raises(SignatureError, match="not signed"):
        orders.check_signature(orders.parse(block), _signers(table))


def test_dash_line_inside_body_is_an_error() -> None:
    text = f"{armor.BEGIN_ORDERS}\na = 1\n-----oops\n{armor.END_ORDERS}\n"
    with pytest.raises(ArmorError, match="starts with '-----'"):
        armor.extract(text)


def test_unterminated_block_is_an_error() -> None:
    with pytest.raises(ArmorError, match="no -----END PBEM ORDERS----- line"):
        armor.extract(f"{armor.BEGIN_ORDERS}\na = 1\n")


def test_text_without_blocks_gives_nothing() -> None:
    assert armor.extract("just a chat message\n") == []


def test_quoted_block_is_not_taken_as_orders(table: Table) -> None:
    quoted = "\n".join("> " + line for line in table.signed("alice").split("\n"))
    assert armor.extract(quoted) == []


@pytest.fixture(scope="module")
def module_table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return make_table(tmp_path_factory.mktemp("armor") / "camp")


def _accepted(text: str, table: Table) -> bool:
    try:
        _verify_first(text, table)
    except (ArmorError, SignatureError, OrderSyntaxError, AssertionError):
        return False
    return True


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_any_single_byte_change_of_body_or_signature_is_detected(
    module_table: Table, data: st.DataObject
) -> None:
    """A changed byte is refused, or (white space a channel may have changed: an empty line
    lost, a line indented) repaired back to exactly the signed body: never a different one."""
    signed = module_table.signed("alice")
    original = _verify_first(signed, module_table)
    pos = data.draw(st.integers(0, len(signed) - 2), label="position")
    new = data.draw(st.sampled_from('aZ09+/="x -'), label="replacement")
    assume(new != signed[pos])
    mangled = signed[:pos] + new + signed[pos + 1 :]
    try:
        order = _verify_first(mangled, module_table)
    except (ArmorError, SignatureError, OrderSyntaxError, AssertionError):
        return
    assert order.block.body == original.block.body, (pos, signed[pos], new)
    assert order.commitment == original.commitment
    assert signed[pos].isspace() or new.isspace(), (pos, signed[pos], new)


def test_signature_by_other_key_is_rejected_with_its_own_message(table: Table) -> None:
    text = table.signed("alice", key=seeded_key("mallory"))
    with pytest.raises(SignatureError, match="not registered for 'alice'"):
        _verify_first(text, table)


def test_pbem_signature_blob_is_sshsig(table: Table) -> None:
    (block,) = armor.extract(table.signed("alice"))
    assert block.signature is not None
    sig = sshsig.parse_armor(block.signature)
    assert sig.namespace == "pbem-orders" and sig.hash_algorithm == "sha512"


def test_repair_note_does_not_change_a_blocks_identity(table: Table) -> None:
    (block,) = armor.extract(table.signed("alice"))
    assert block.repair == ""
    assert dataclasses.replace(block, repair="indentation removed") == block
    assert hash(dataclasses.replace(block, repair="x")) == hash(block)


def test_candidates_never_include_the_body_as_received(table: Table) -> None:
    (block,) = armor.extract(table.signed("alice"))
    indented = "".join("    " + line for line in block.body.splitlines(keepends=True))
    found = armor.candidates(armor.normalise(indented).decode(), "    ", "    ")
    assert found[0] == (block.body, "indentation '    ' removed")
    assert all(body != armor.normalise(indented).decode() for body, _ in found)
    assert len(found) <= armor.MAX_CANDIDATES

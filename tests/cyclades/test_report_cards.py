"""Issue 14 for Cyclades: card texts, and reports a player reads without the data files.

Every card carries a short text (loaded strictly from ``data/*.toml``); every report ends
with a "Cards" appendix listing each card of the campaign's modules as ``Name (id): text``;
the reports word the ledger's events with names for raw ids and proper plurals (the ledger
keeps its bytes), and each combat-die draw shows the face the narrative quotes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pbem import games
from pbem.core import demo, ledger, report
from pbem.core.campaign import Campaign, open_campaign
from pbem.games.cyclades import report as cy_report
from pbem.games.cyclades.components import (
    AUTHORED_MARK,
    CARD_FILES,
    CARD_KINDS,
    DATA,
    ComponentDataError,
    load,
    load_uncached,
)

pytestmark = pytest.mark.xdist_group("cyclades-report-cards")  # one campaign, made once


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    root = tmp_path_factory.mktemp("cards") / "d"
    done = demo.run(games.get("cyclades"), root, players=3, seed="x", options={},
                    resolve=games.get, with_reports=False)
    return open_campaign(done.campaign_dir, games.get)


def _all_ids() -> set[str]:
    return {i for table in load()._tables() for i in table}


#: A component id standing alone (not in a draw label, a phase id or a unit id).
_ALONE = r"(?<![\w/.-])(?:{})(?![\w/-])(?!\.\w)"


def _without_form(text: str) -> str:
    """The report without its order form (TOML, where ids are what orders write)."""
    start = text.find("Order form: campaign ")
    end = text.find("-----END PBEM ORDERS-----")
    return text if start < 0 or end < 0 else text[:start] + text[end:]


# --- card texts as data ------------------------------------------------------------------------


def test_14_every_card_has_a_text() -> None:
    c = load()
    cards = c.cards()
    assert {card.kind for card in cards} == set(CARD_KINDS)
    for card in cards:
        text = getattr(card, "text", "")
        assert isinstance(text, str) and len(text) >= 20 and text.strip() == text, card.id
        assert "(" in text, (card.id, "a text cites its rule")


def test_14_a_card_without_text_is_a_load_error(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    path = folder / "favors.toml"
    body = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'(id = "poseidons_trident"\n(?:.*\n)*?)text = ".*"\n', r"\1",
                           body, count=1), encoding="utf-8")
    with pytest.raises(ComponentDataError) as caught:
        load_uncached(folder)
    assert any("poseidons_trident" in p.where and p.where.endswith("text")
               for p in caught.value.problems), caught.value.problems


def test_14_authored_texts_are_marked_by_their_file(tmp_path: Path) -> None:
    """Every card file says its texts are authored (the rulebook prints none); a user who
    types in their own copy's texts removes the line, and the mark goes."""
    for kind, name in CARD_FILES.items():
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        assert any(x.startswith(AUTHORED_MARK) for x in lines), name
        assert kind in load().authored
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    path = folder / "heroes.toml"
    path.write_text("\n".join(x for x in path.read_text(encoding="utf-8").splitlines()
                              if not x.startswith(AUTHORED_MARK)) + "\n", encoding="utf-8")
    assert load_uncached(folder).authored == load().authored - {"hero"}


def test_14_texts_say_what_the_code_does() -> None:
    """Spot checks against the data the rules code applies (effects.py, creatures.py)."""
    c = load()
    assert "half" in c.creatures["griffon"].text and "5" in c.creatures["griffon"].text
    assert c.creatures["griffon"].effect.number("cap") == 5
    assert "2 gold" in c.creatures["sphinx"].text
    assert c.creatures["sphinx"].effect.number("price") == 2
    assert "never a Hero or a Titan" in c.creatures["harpy"].text
    assert "retire" in c.heroes["penthesilea"].text and c.heroes["penthesilea"].retires
    assert "Perseus" in c.creatures["chiron_hades"].text
    assert "+2" in c.magic_items["poseidons_trident"].text and "sea" in \
        c.magic_items["poseidons_trident"].text
    for m in c.monuments.values():  # the two buildings named are the data's colours
        first, second = c.monument_buildings(m.id)
        names = [first.name, second.name]
        if first == second:
            assert m.text.startswith(f"Needs two {first.name[:-1]}"), m.id
        else:
            assert all(f"a {n}" in m.text for n in names), m.id


# --- the appendix -------------------------------------------------------------------------------


def test_14_the_cards_appendix_lists_every_card_of_the_modules_in_play() -> None:
    c = load()
    view = {"game": {"modules": ["base", "hades"]}}
    lines = cy_report.card_lines(c, view)
    listed = {m.group(1) for line in lines if (m := re.match(r".* \(([a-z_]+)\): ", line))}
    want = {card.id for card in c.cards(("base", "hades"))}
    assert listed == want
    assert "chiron" not in listed and "chiron_hades" in listed  # replaced by Hades's
    assert "aegis" not in listed  # Titans not in play
    for card in c.cards(("base", "hades")):
        line = f"{card.name} ({card.id}): {getattr(card, 'text', '')} [authored]"
        assert line in lines
    assert "Heroes:" in lines and "Magic items:" in lines
    assert "[authored]" in cy_report.card_intro(c, view)


def test_14_every_report_format_ends_with_the_cards(campaign: Campaign) -> None:
    c = load()
    last = ledger.count(campaign.ledger_dir)
    for fmt in ("txt", "md", "bbcode"):
        text = report.render(campaign, last, "bob", fmt)
        flat = " ".join(text.replace("\\_", "_").replace("\\[", "[").replace("\\]", "]")
                        .split())
        for card in c.cards():
            text_ = " ".join(str(getattr(card, "text", "")).split())
            assert f"{card.name} ({card.id}): {text_}" in flat, (fmt, card.id)


# --- wording of the reports ---------------------------------------------------------------------


def test_14_event_text_names_ids_and_fixes_plurals() -> None:
    c = load()
    view = {"game": {"players": ["alice", "harpy"]}, "territories": {"naxos": {}},
            "seas": {"H2": {}}}

    def said(text: str) -> str:
        return cy_report.event_text(c, view, {"text": text})

    assert said("bob discards favor_of_zeus.") == "bob discards Favor of Zeus (favor_of_zeus)."
    assert said("Gods on the track, top first: poseidon, athena.") == \
        "Gods on the track, top first: Poseidon, Athena."
    assert said("You pay 2 gold for a fortress.") == "You pay 2 gold for a Fortress."
    assert said("bob sails 1 fleet(s), then 2 undead_troop(s) and 3 fleet(s).") == \
        "bob sails 1 fleet, then 2 undead troops and 3 fleets."
    assert said("alice moves 4 troop, 1 Titan from naxos.") == \
        "alice moves 4 troops, 1 Titan from naxos."
    assert said("alice readies the Harpe (battle_bonus).") == \
        "alice readies the Harpe (battle bonus)."
    # Already named, a player called like a card, labels and unit ids: untouched.
    assert said("Harpe (harpe) 1; harpy bids; hades/c1/1; c01.act.apollo; fleet-1") == \
        "Harpe (harpe) 1; harpy bids; hades/c1/1; c01.act.apollo; fleet-1"


def test_14_die_face_is_the_combat_die_face() -> None:
    c = load()
    faces = c.supplies.die
    assert faces == (0, 1, 1, 2, 2, 3)
    for value in range(1, 7):
        assert cy_report.die_face(c, "battle/H3/r1/attacker", value) == str(faces[value - 1])
        assert cy_report.die_face(c, "hades/c1/2", value) == str(faces[value - 1])
    assert cy_report.die_face(c, "battle/H3/r1/attacker/reroll", 1) == "0"
    assert cy_report.die_face(c, "setup/gods/3", 2) is None
    listing = report.dice_listing([{"i": 0, "label": "hades/c1/1", "n": 6, "value": 6}],
                                  lambda label, v: cy_report.die_face(c, label, v))
    assert listing["draws"][0]["face"] == "3"


def test_14_text_reports_name_every_card_and_show_the_faces(campaign: Campaign) -> None:
    """Every player's txt report of every record of a short demo: no component id stands
    alone (outside the order form, draw labels and phase ids), no "1 troops", every
    combat-die draw listed with the face the events quote."""
    ids = _all_ids()
    alone = re.compile(_ALONE.format("|".join(sorted(ids, key=len, reverse=True))))
    c = load()
    faces_seen = 0
    for seq in range(1, ledger.count(campaign.ledger_dir) + 1):
        loaded = report.load(campaign, seq)
        for player in campaign.players:
            text = report.render(campaign, seq, player, "txt", loaded=loaded)
            assert max(len(x) for x in text.splitlines()) <= 78, (seq, player)
            body = " ".join(_without_form(text).split())  # txt wraps names too
            for m in alone.finditer(body):
                cid = m.group(0)
                before = body[:m.start()]
                name = c.by_id(cid).name
                assert before.endswith(f"{name} ("), (seq, player, cid,
                                                       body[m.start() - 60:m.end() + 20])
            assert not re.search(r"\b1 (troops|fleets|Titans|priests|philosophers)\b", body)
            assert "(s)" not in body, (seq, player)
            for d in loaded.record.get("draws", []):
                if d["label"].split("/")[0] in ("battle", "hades"):
                    face = c.supplies.die[d["value"] - 1]
                    line = f"{d['i']}: {d['label']} = {d['value']} (1-{d['n']}), rolled {face}"
                    assert line in text, (seq, player, line)
                    faces_seen += 1
    assert faces_seen > 10

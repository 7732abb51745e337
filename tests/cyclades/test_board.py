"""The Cyclades board picture (pbem.games.cyclades.board): well-formed SVG with a size,
every territory and every owner shown, drawn from the view alone (a player's gold, hidden
behind the screen by Cycle 2.2, never appears), and byte-for-byte deterministic."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pbem.games.cyclades import board, maps, views
from pbem.games.cyclades.game import RULESET
from tests.cyclades.act_scenario import PLAYERS, C, fleet, land, new_state

SVG = "{http://www.w3.org/2000/svg}"
#: Seats beyond the three of act_scenario, for the larger sides.
SEATED = ("ann", "bob", "cat", "dan", "eve", "fay")
#: A gold amount no picture could show by chance (the marker views.hide_from_others uses).
GOLD = views.MARKER


def _state(name: str = "vanilla", players: int = 3) -> dict[str, Any]:
    """A board with every kind of piece on it, held by the first three players."""
    side = maps.load_board(name, players)
    s = new_state(side, SEATED[:players], two_player=players == 2)
    cat = "cat" if players > 2 else "bob"
    t = list(side.territory_ids)
    seas = list(side.sea_ids)
    land(s, t[0], "ann", 3, buildings=["port", "fortress"], metropolis=True, prosperity=2)
    land(s, t[1], "bob", 1, undead=2, titans=1, heroes=["achilles"], egyptians=["mummy"],
         buildings=["temple"], monuments=["temple_of_ares"], artifacts=["aegis"])
    land(s, t[2], cat, 2, buildings=["university", "theater"], necropolis_gold=3)
    fleet(s, seas[0], "ann", 2)
    fleet(s, seas[1], cat, 1, undead_fleets=1)
    s["figures"] = {"polyphemus": {"owner": "bob", "where": t[1], "cycle": 2},
                    "kraken": {"owner": cat, "where": seas[1], "cycle": 2}}
    s["gold"] = {p: GOLD if p == "ann" else 5 for p in s["game"]["players"]}
    s["creature_track"]["slots"] = ["giant", "", "medusa"]
    s["hades"] = {"column": 7, "active": False}
    s["auction"] = {"holders": {"poseidon": {"pillar": "bob", "amount": 4}},
                    "apollo": [cat], "payments": {}, "events": []}
    return s


def _svg(state: dict[str, Any], player: str | None = "ann") -> str:
    return board.svg(C, views.view(state, player), player)


def _all(picture: str) -> ET.Element:
    """The overview, the legend list and the close-ups, in one element (well-formed XML, or
    this raises)."""
    return ET.fromstring(f"<div>{picture}</div>")


def _root(picture: str) -> ET.Element:
    """The overview picture (the first ``<svg>``)."""
    root = _all(picture).find(f"{SVG}svg")
    assert root is not None
    return root


def _texts(picture: str) -> list[str]:
    """The picture's texts and the legend's entries."""
    everything = _all(picture)
    return [*(x.text or "" for x in everything.iter(f"{SVG}text")),
            *("".join(x.tail or "" for x in li) for li in everything.iter("li"))]


@pytest.mark.parametrize(("name", "players"), maps.boards())
def test_every_side_is_well_formed_svg_with_its_size(name: str, players: int) -> None:
    picture = _svg(_state(name, players))
    root = _root(picture)  # well-formed XML, or this raises
    assert maps.load_board(name, players).title in root.findtext(f"{SVG}title", "")
    assert root.tag == f"{SVG}svg" and picture.startswith("<svg")
    # The close-ups (issue 14) draw the overview again by reference, never a copy of it.
    assert picture.count('class="board closeup"') == picture.count("<use href=") >= 2
    box = [int(v) for v in root.attrib["viewBox"].split()]
    assert box[:2] == [0, 0] and box[2] > 400 and box[3] > 300
    assert (root.attrib["width"], root.attrib["height"]) == (str(box[2]), str(box[3]))
    # Whole numbers (or one decimal) only: no float with many digits.
    assert not re.search(r"\d\.\d{2,}", picture)


@pytest.mark.parametrize(("name", "players"), [("vanilla", 3), ("titans", 6)])
def test_every_territory_is_named_and_every_owner_coloured(name: str, players: int) -> None:
    state = _state(name, players)
    picture = _svg(state)
    texts = _texts(picture)
    side = maps.load_board(name, players)
    for t in side.territories.values():
        assert t.name in texts, t.id
    groups = {g.attrib["data-territory"]: g.attrib["data-owner"]
              for g in _root(picture).iter(f"{SVG}g") if g.attrib.get("class") == "territory"}
    assert groups == {t: x["owner"] for t, x in state["territories"].items()}
    for n, p in enumerate(PLAYERS):
        colour = board.SEATS[n]
        assert f'fill="{colour}"' in picture, p  # the owner's pieces
        assert f'fill="{board._tint(colour)}"' in picture, p  # the owner's land
        assert any(x.startswith(p) and "Metropolis" in x for x in texts), p  # the panel


def test_the_pieces_of_the_view_are_all_drawn() -> None:
    picture = _svg(_state())
    root = _root(picture)
    classes = [g.attrib.get("class") for g in root.iter(f"{SVG}g")]
    assert classes.count("fleet") == 2 and classes.count("figure") == 2
    tips = " | ".join(x.text or "" for x in root.iter(f"{SVG}title"))
    for piece in ("3 troops", "2 undead troops", "1 Titan", "Achilles", "Mummy",
                  "a Metropolis", "Port, Fortress", "Temple of Ares", "Aegis",
                  "2 prosperity markers", "2 fleets of ann", "1 undead fleet",
                  "Polyphemus of bob", "Kraken of cat", "3 gold on the Necropolis"):
        assert piece in tips, piece
    texts = _texts(picture)
    # The side panel: the god track as bid, Apollo, Hades, the creature track (Cycle 1).
    assert "1. Poseidon: bob, 4 gold" in texts and "4. Apollo: cat" in texts
    assert "Hades: column 7 of 9" in texts
    assert texts.count("4 gold: Giant") == 1 and "3 gold: empty" in texts


@pytest.mark.parametrize("player", [*PLAYERS, None])
def test_cycle_2_2_a_players_gold_never_appears(player: str | None) -> None:
    state = _state()
    view = views.view(state, player)
    assert ("gold" in view and GOLD in view["gold"].values()) == (player == "ann")
    assert str(GOLD) not in board.svg(C, view, player)


def test_same_view_same_bytes_another_view_another_picture() -> None:
    state = _state()
    first = _svg(state)
    assert _svg(copy.deepcopy(state)) == first
    assert RULESET.board_svg(views.view(state, "ann"), "ann") == first
    moved = copy.deepcopy(state)
    moved["territories"][maps.load_board("vanilla", 3).territory_ids[0]]["troops"] += 1
    assert _svg(moved) != first
    # Another reader: the same board, but the legend and title name them.
    bob = _svg(state, "bob")
    assert bob != first and "as bob sees it" in bob and "ann (you)" in first
    assert "public view" in _svg(state, None)


def test_a_side_without_cells_is_laid_out_on_a_plain_grid(tmp_path: Any) -> None:
    text = ("[side]\nboard = \"vanilla\"\nname = \"toy\"\nplayers = [2]\n"
            "[[territory]]\nid = \"west\"\nname = \"West\"\nprosperity = 1\n"
            "building_spaces = 1\nmetropolis_square = true\nseas = [\"S1\"]\n"
            "[[territory]]\nid = \"east\"\nname = \"East\"\nprosperity = 0\n"
            "building_spaces = 2\nmetropolis_square = true\nseas = [\"S2\"]\n"
            "[[sea]]\nid = \"S1\"\nseas = [\"S2\"]\n[[sea]]\nid = \"S2\"\nseas = [\"S1\"]\n")
    path = tmp_path / "toy.toml"
    path.write_text(text, encoding="utf-8")
    side = maps.read_side(path)
    lay = board._layout_of(side)
    assert sorted(lay.anchors) == ["S1", "S2", "east", "west"]
    assert len(set(lay.anchors.values())) == 4 and len(lay.owner) == 4

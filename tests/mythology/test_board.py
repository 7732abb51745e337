"""The Mythology board picture (pbem.games.mythology.board): the whole map from the map data,
and on it only the pieces of the view it is given."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from typing import Any

from pbem.core import svg as draw
from pbem.games.mythology import board
from pbem.games.mythology.game import RULESET

from .scenario import (
    ATALANTA,
    CHARYBDIS,
    HERCULES,
    INLAND,
    MACEDONIA,
    PERSEUS,
    SOW,
    C,
    place_helper,
    place_prize,
    put,
    scene,
    set_totals,
)

NS = "{http://www.w3.org/2000/svg}"
SEA_HEX = "2013"  # western Sea, no island


def _staged() -> tuple[dict[str, Any], list[str]]:
    """Ann's Perseus in Greece with a ship and the Golden Fleece, Hercules beside him, a
    Monster and a Heroine sharing a hex, a Prize and a Helper lying on the map, every god
    placed, and Log Sheet totals that only their owners may see."""
    state, seats = scene()
    put(state, PERSEUS, INLAND)
    put(state, HERCULES, "3010")
    put(state, SOW, MACEDONIA)
    put(state, ATALANTA, MACEDONIA)
    put(state, CHARYBDIS, SEA_HEX)
    state["ships"] = [PERSEUS]
    place_prize(state, "golden_fleece", holder=PERSEUS)
    place_prize(state, "helen", "3009")
    place_helper(state, "moly", "2908")
    for p, area in zip(seats, ("greece", "greece", "macedonia"), strict=True):
        state["god_area"][p] = area
    set_totals(state, seats[0], {PERSEUS: 5})
    set_totals(state, seats[1], {HERCULES: 3})
    return state, seats


def _all(picture: str) -> ET.Element:
    """The overview, the legend list and the close-ups in one element (well-formed XML, or
    this raises)."""
    return ET.fromstring(f"<div>{picture}</div>")


def _parse(picture: str) -> ET.Element:
    """The overview picture (the first ``<svg>``)."""
    root = _all(picture).find(f"{NS}svg")
    assert root is not None
    return root


def _legend(picture: str) -> set[str]:
    return {"".join(x.tail or "" for x in li) for li in _all(picture).iter("li")}


def _units(picture: str) -> list[int]:
    return sorted(int(u) for u in re.findall(r'data-unit="(\d+)"', picture))


def _on_board(view: dict[str, Any]) -> list[int]:
    return sorted(int(u) for table in ("heroes", "monsters", "lesser")
                  for u, x in view.get(table, {}).items() if x["status"] == "board")


def test_the_picture_has_a_size_and_the_whole_map() -> None:
    state, _ = _staged()
    picture = board.svg(C, RULESET.view(state, None), None)
    root = _parse(picture)
    assert root.tag == f"{NS}svg"
    w, h = int(root.attrib["width"]), int(root.attrib["height"])
    assert root.attrib["viewBox"] == f"0 0 {w} {h}" and w > 500 and h > 300
    # Every hex of the map is drawn exactly once in the Area and island fills.
    fills = [p.attrib["d"] for g in root.iter(f"{NS}g") if g.attrib.get("stroke-width") == "0.3"
             for p in g.iter(f"{NS}path")]
    assert sum(d.count("z") for d in fills) == len(C.map.hexes)
    # Every Area is named, every river and the strait are drawn.
    texts = {t.text for t in root.iter(f"{NS}text")}
    assert {a.name for a in C.map.areas.values()} <= texts
    titles = {t.text for t in root.iter(f"{NS}title")}
    assert {r.name for r in C.map.rivers.values()} <= titles
    assert {s.name for s in C.map.straits.values()} <= titles


def test_the_legend_names_each_god_with_its_player() -> None:
    state, seats = _staged()
    picture = board.svg(C, RULESET.view(state, seats[0]), seats[0])
    texts = {t.text for t in _parse(picture).iter(f"{NS}text")}
    legend = _legend(picture)
    for p in seats:
        god = C.gods[state["gods"][p]].name
        assert f"god {god}: {p}" + (" (you)" if p == seats[0] else "") in legend
        assert god in texts  # the badge on the map
    assert "a Hero you spent Power Points on" in legend
    public = _legend(board.svg(C, RULESET.view(state, None), None))
    assert "a Hero you spent Power Points on" not in public


def test_exactly_the_units_of_the_view_are_drawn_for_every_reader() -> None:
    state, seats = _staged()
    for reader in (*seats, None):
        view = RULESET.view(state, reader)
        picture = board.svg(C, view, reader)
        assert _units(picture) == _on_board(view) == sorted(
            [PERSEUS, HERCULES, SOW, ATALANTA, CHARYBDIS])


def test_a_unit_missing_from_the_view_vanishes_from_the_picture() -> None:
    state, seats = _staged()
    view = copy.deepcopy(RULESET.view(state, seats[0]))
    before = board.svg(C, view, seats[0])
    assert f'data-unit="{HERCULES}"' in before and "Hercules (6)" in before
    del view["heroes"][str(HERCULES)]
    after = board.svg(C, view, seats[0])
    assert f'data-unit="{HERCULES}"' not in after and "Hercules (6)" not in after
    assert _units(after) == sorted([PERSEUS, SOW, ATALANTA, CHARYBDIS])
    # A Prize the view does not show is not drawn either, lying or carried.
    view["prizes"]["helen"]["hex"] = ""
    view["prizes"]["golden_fleece"]["holder"] = 0
    gone = board.svg(C, view, seats[0])
    assert 'data-prize="helen"' not in gone and "Golden Fleece" not in gone
    assert "Helen" not in gone


def test_carried_things_and_ships_belong_to_their_unit() -> None:
    state, _ = _staged()
    picture = board.svg(C, RULESET.view(state, None), None)
    perseus = re.search(rf'<g class="unit hero" data-unit="{PERSEUS}">(.*?)</g>', picture)
    assert perseus is not None
    assert "<title>Perseus (1), hex 3011, with ship, Golden Fleece</title>" in perseus.group(1)
    assert f'fill="{board.SHIP}"' in perseus.group(1) and board.PRIZE in perseus.group(1)
    assert 'data-prize="golden_fleece"' not in picture  # carried, not lying
    assert 'data-prize="helen"' in picture and 'data-helper="moly"' in picture
    assert picture.count('class="unit monster"') == 2  # the Sow and Charybdis


def test_only_the_reader_sees_their_own_log_sheet_totals() -> None:
    state, seats = _staged()
    ann, ben = seats[0], seats[1]
    mine = board.svg(C, RULESET.view(state, ann), ann)
    theirs = board.svg(C, RULESET.view(state, ben), ben)
    public = board.svg(C, RULESET.view(state, None), None)
    ring = f'stroke="{board.YOURS}" stroke-width="1.4"'
    assert "your Log Sheet total 5" in mine and "your Log Sheet total 3" not in mine
    assert "your Log Sheet total 3" in theirs and "your Log Sheet total 5" not in theirs
    assert "your Log Sheet total" not in public and ring not in public
    # Ann's ring is on Perseus alone (plus the legend's sample).
    ringed = re.findall(r'data-unit="(\d+)"><title>[^<]*</title>(?:<polygon[^>]*>)?<circle'
                        rf'[^>]*{ring}', mine)
    assert ringed == [str(PERSEUS)]


def test_gods_stand_clear_of_the_pieces() -> None:
    state, seats = _staged()
    picture = board.svg(C, RULESET.view(state, None), None)
    occupied = board._occupied(C, RULESET.view(state, None))
    for p in seats:
        m = re.search(rf'<g class="god" data-player="{p}"><title>[^<]*</title><rect '
                      r'x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', picture)
        assert m is not None, p
        x, y, w, h = (float(v) for v in m.groups())
        for ox, oy in occupied:
            assert not (x - 4 < ox < x + w + 4 and y - 4 < oy < y + h + 4), (p, ox, oy)


def test_the_same_view_gives_the_same_bytes_and_text_is_escaped() -> None:
    state, seats = _staged()
    view = RULESET.view(state, seats[0])
    assert board.svg(C, view, seats[0]) == board.svg(C, copy.deepcopy(view), seats[0])
    assert draw.esc('<a & "b">') == "&lt;a &amp; &quot;b&quot;&gt;"
    assert draw.text(0, 0, "<script>", 5).count("<") == 2  # <text ...> and </text>

"""Issue 14: the board pictures on a 390 px phone, checked on the markup (fast, no browser;
tests/test_board_phone_browser.py looks at them in Chromium).

Every Mythology hex has a tooltip and its number; every Cyclades territory and sea its label;
the close-ups draw the overview again by reference (``<use href="#ID"/>`` of the overview's
``<g id="ID">``, an id of that picture alone), show every piece of the reader's own, and are
scaled so that their smallest text is at least 10 CSS px on the phone; and all this adds
little to the page.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from pbem.core import svg as draw
from pbem.games.cyclades import board as cyclades_board
from pbem.games.cyclades import maps, views
from pbem.games.mythology import board as myth_board
from pbem.games.mythology.game import RULESET
from tests.cyclades import test_board as cyclades_scene
from tests.cyclades.act_scenario import C as CC
from tests.mythology import test_board as myth_scene
from tests.mythology.scenario import HERCULES, PERSEUS, C, put, set_totals

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]


def _all(picture: str) -> ET.Element:
    return ET.fromstring(f"<div>{picture}</div>")


def _overview(picture: str) -> ET.Element:
    svg = _all(picture).find(f"{NS}svg")
    assert svg is not None and "overview" in svg.attrib["class"]
    return svg


def _closeups(picture: str) -> list[ET.Element]:
    return [s for s in _all(picture).iter(f"{NS}svg") if "closeup" in s.attrib.get("class", "")]


def _box(svg: ET.Element) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in svg.attrib["viewBox"].split())
    return x, y, w, h


def _scale(svg: ET.Element) -> float:
    """CSS px per board unit as the browser shows it (preserveAspectRatio ``meet``)."""
    _, _, w, h = _box(svg)
    return min(float(svg.attrib["width"]) / w, float(svg.attrib["height"]) / h)


def _texts(node: ET.Element, size: float = 16.0) -> list[tuple[float, float, float, str]]:
    """Every ``<text>`` under ``node``: x, y, its font size (inherited from its groups) and
    its words."""
    size = float(node.attrib.get("font-size", size))
    out = []
    if node.tag == f"{NS}text":
        out.append((float(node.attrib["x"]), float(node.attrib["y"]), size, node.text or ""))
    for child in node:
        out += _texts(child, size)
    return out


def _mythology(reader: int | None = 0) -> tuple[str, dict[str, Any], str | None]:
    state, seats = myth_scene._staged()
    player = None if reader is None else seats[reader]
    view = RULESET.view(state, player)
    return myth_board.svg(C, view, player), view, player


def _cyclades(player: str | None = "ann") -> tuple[str, dict[str, Any]]:
    state = cyclades_scene._state()
    view = views.view(state, player)
    return cyclades_board.svg(CC, view, player), view


def test_14_every_mythology_hex_has_a_tooltip_and_its_number() -> None:
    picture, _, _ = _mythology()
    root = _overview(picture)
    tips = {t.text or "" for t in root.iter(f"{NS}title")}
    firsts = {t.split(",")[0] for t in tips if t.startswith("hex ")}
    for h, cell in C.map.hexes.items():
        assert f"hex {h}: {C.map.areas[cell.area].name}" in firsts, h
    numbers = [t for t in _texts(root) if re.fullmatch(r"\d{4}", t[3])]
    assert sorted(t[3] for t in numbers) == sorted(C.map.hexes)
    # Each number stands inside its own hex (below the pieces' middle, above its edge).
    for x, y, _, number in numbers:
        cx, cy = myth_board.GRID.centre(myth_board._cell(number))
        assert x == cx and cy < y < cy + myth_board.GRID.half, number
    # The forest, island and river a hex lies in are named in its tooltip.
    forest = next(iter(C.map.forests.values()))
    assert any(t.startswith(f"hex {forest.hexes[0]}: ") and forest.name in t for t in tips)
    # The rulers are still there.
    assert {"05", "10", "45"} <= {t[3] for t in _texts(root)}


def test_14_every_cyclades_territory_and_sea_is_labelled() -> None:
    picture, _ = _cyclades()
    texts = {t[3] for t in _texts(_overview(picture))}
    side = maps.load_board("vanilla", 3)
    for t in side.territories.values():
        assert t.name in texts and t.name.lower() == t.id, t.id  # its order id
    assert set(side.seas) <= texts


def test_14_closeups_draw_the_overview_by_reference_with_an_id_of_their_own() -> None:
    pictures = [_mythology(0)[0], _mythology(1)[0], _mythology(None)[0], _cyclades()[0],
                _cyclades(None)[0]]
    ids = []
    for picture in pictures:
        root = _overview(picture)
        groups = [g for g in root if g.tag == f"{NS}g" and "id" in g.attrib]
        assert len(groups) == 1
        ident = groups[0].attrib["id"]
        assert re.fullmatch(r"pbem-board-[0-9a-f]{12}", ident)
        ids.append(ident)
        closeups = _closeups(picture)
        assert closeups
        for svg in closeups:
            # Nothing drawn again but one reference to the overview.
            assert [c.tag for c in svg] == [f"{NS}use"]
            assert svg[0].attrib == {"href": f"#{ident}"}
            assert svg.attrib["role"] == "img" and svg.attrib["aria-label"].startswith(
                "Close-up ")
        figures = [f for f in _all(picture).iter("figure") if f.attrib["class"] == "closeup"]
        assert len(figures) == len(closeups)
        assert all((f.findtext("figcaption") or "").startswith("Close-up ") for f in figures)
    assert len(set(ids)) == len(ids)  # one id per picture
    assert _mythology(0)[0] == _mythology(0)[0]  # and the same one for the same view


def test_14_the_closeups_show_every_own_piece_of_the_reader() -> None:
    state, seats = myth_scene._staged()
    put(state, HERCULES, "4515")  # far from Perseus in 3011: two close-ups at least
    set_totals(state, seats[0], {PERSEUS: 5, HERCULES: 2})
    view = RULESET.view(state, seats[0])
    picture = myth_board.svg(C, view, seats[0])
    boxes = [_box(s) for s in _closeups(picture)]
    assert len(boxes) >= 2

    def shown(x: float, y: float) -> bool:
        return any(bx <= x <= bx + bw and by <= y <= by + bh for bx, by, bw, bh in boxes)

    for hero in (PERSEUS, HERCULES):
        cx, cy = myth_board.GRID.centre(myth_board._cell(state["heroes"][str(hero)]["hex"]))
        assert shown(cx, cy), hero
    # Ann's god badge is in a close-up too.
    badge = re.search(rf'data-player="{seats[0]}"><title>[^<]*</title><rect x="([\d.]+)" '
                      r'y="([\d.]+)"', picture)
    assert badge is not None and shown(float(badge[1]), float(badge[2]))
    # Cyclades: every territory, fleet and figure of ann.
    cpicture, cview = _cyclades("ann")
    lay = cyclades_board._static(maps.load_board("vanilla", 3)).layout
    boxes = [_box(s) for s in _closeups(cpicture)]
    own = [t for t, x in cview["territories"].items() if x.get("owner") == "ann"]
    own += [s for s, x in cview["seas"].items() if x.get("owner") == "ann" and x["fleets"]]
    assert own
    for where in own:
        assert shown(*lay.anchors[where]), where


def test_14_the_closeups_smallest_text_is_10_css_px_on_a_phone() -> None:
    for picture in (_mythology(0)[0], _mythology(None)[0], _cyclades()[0]):
        everything = _texts(_overview(picture))
        for svg in _closeups(picture):
            width = float(svg.attrib["width"])
            assert width <= draw.PHONE_PX  # shown unshrunk on the phone
            x, y, w, h = _box(svg)
            inside = [t for t in everything if x <= t[0] <= x + w and y <= t[1] <= y + h]
            assert inside, svg.attrib["aria-label"]
            smallest = min(t[2] for t in inside)
            assert smallest * _scale(svg) >= draw.MIN_PX, (svg.attrib["aria-label"], smallest)
    # The overview of the Mythology map cannot be read on a phone (its texts are hidden
    # there): 632 units on 361 px.
    assert draw.smallest_text(_mythology()[0]) * 361 / 632 < draw.MIN_PX


def test_14_the_legend_is_a_list_that_wraps() -> None:
    picture = _mythology()[0]
    before = picture.split(draw.SPLIT)[0]
    assert 'class="board-legend"' not in before and "<li>" not in before
    legend = _all(picture).find("ul")
    assert legend is not None and legend.attrib["class"] == "board-legend"
    assert len(legend) > 10 and all(li.tag == "li" and li[0].tag == f"{NS}svg" for li in legend)
    # Its symbols' texts (a Hero's number...) are 10 CSS px high too.
    for li in legend:
        texts = _texts(li[0])
        if texts:
            scale = float(li[0].attrib["width"]) / _box(li[0])[2]
            assert min(t[2] for t in texts) * scale >= draw.MIN_PX
    # The report cuts the board at the marker (the figure holds the overview).
    template = (ROOT / "templates" / "_base" / "report.html.j2").read_text(encoding="utf-8")
    assert f'board.split("{draw.SPLIT}", 1)' in template
    assert "overflow-x:auto" not in template and "min-width:34em" not in template


def test_14_the_closeups_and_legend_add_a_few_kilobytes_not_the_map_again() -> None:
    for picture in (_mythology(0)[0], _mythology(None)[0], _cyclades()[0]):
        overview = picture[:picture.index(draw.SPLIT)]
        rest = picture[len(overview):]
        closeups = picture[picture.index('<div class="closeups">'):]
        assert len(closeups) < 700 * len(_closeups(picture))
        assert len(rest) < 12_000, len(rest)
    # A hex shape is drawn once, not once per close-up.
    picture = _mythology(None)[0]
    hexagon = myth_board.GRID.hexagon(myth_board._cell("2013"))
    assert picture.count(f'd="{hexagon}"') == 1


def test_14_cover_keeps_to_the_cap_and_holds_what_it_shows() -> None:
    far = [draw.Focus((x, y, x + 10, y + 10), f"{x},{y}") for x in (0, 300, 600)
           for y in (0, 300)]
    tiles = draw.cover(far, (100, 80), (700, 400), cap=4)
    assert len(tiles) == 4
    for box, shown in tiles:
        assert shown and all(draw._inside(box, f.rect) for f in shown)
        assert box[0] >= 0 and box[0] + box[2] <= 700 and 0 <= box[1] <= box[1] + box[3] <= 400
    near = [draw.Focus((x, 50, x + 10, 60), str(x)) for x in (10, 30, 50)]
    assert [len(s) for _, s in draw.cover(near, (100, 80), (700, 400))] == [3]
    assert ([b for b, _ in draw.cover(near, (100, 80), (700, 400))]
            == [b for b, _ in draw.cover(near[::-1], (100, 80), (700, 400))])
    assert draw.cover([], (100, 80), (700, 400)) == []


def test_14_same_view_same_bytes() -> None:
    state, seats = myth_scene._staged()
    view = RULESET.view(state, seats[0])
    assert myth_board.svg(C, view, seats[0]) == myth_board.svg(C, copy.deepcopy(view),
                                                               seats[0])
    assert _cyclades()[0] == _cyclades()[0]

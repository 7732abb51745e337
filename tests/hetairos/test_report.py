"""Hetairos reports, board and forms, from a hand-built view (fast: no campaign, no
rendering of a whole record)."""

from __future__ import annotations

import copy
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from pbem.core import report as core_report
from pbem.core import svg as draw
from pbem.core.ruleset import PhaseSpec
from pbem.games.hetairos import board, forms, program, report
from pbem.games.hetairos.table import load

ROOT = Path(__file__).resolve().parents[2]
C = load()
NS = "{http://www.w3.org/2000/svg}"


def pc(mid: str, owner: str, type_: str, at: str, **more: Any) -> dict[str, Any]:
    m: dict[str, Any] = {"id": mid, "side": "pc", "owner": owner, "type": type_,
         "name": f"{owner} ({type_.title()})", "at": at, "bank": "W" if at.startswith("0,")
         else "", "hp": 8, "max_hp": 8, "ap": 5, "kleos": 0, "gold": 0, "items": [],
         "prisoners": [], "effects": {}, "moved": False, "spear": False, "came": "",
         "stuck": ""}
    m.update(more)
    return m


def monster(mid: str, type_: str, at: str, side: str = "monster", **more: Any
            ) -> dict[str, Any]:
    mon = C.monster(type_)
    m = {"id": mid, "side": side, "owner": "", "type": type_, "name": mon.name, "at": at,
         "bank": "", "hp": mon.hp, "max_hp": mon.hp, "ap": mon.ap, "kleos": 0, "home": "",
         "bought_off": [], "resting": 0}
    m.update(more)
    return m


def view(**changes: Any) -> dict[str, Any]:
    """Ann's Hoplite on the bridge at 0,0; a tunnel east with a Manticore in it, a polis
    beyond; rock west; the Styx on south; unexplored north. Bob's Amazon at 1,0."""
    state: dict[str, Any] = {
        "scenario": "beast_slayers", "options": {"rounds": "40"}, "round": 2,
        "seats": ["ann", "bob"], "step": "turn", "active": "ann", "cont": 0, "pending": [],
        "halted": "", "death": "replace",
        "map": {"0,0": {"kind": "styx", "open": "NS", "bridge": True, "found": 0},
                "1,0": {"kind": "tunnel", "open": "EW", "found": 0},
                "2,0": {"kind": "polis", "open": "NESW", "found": 0,
                        "site": {"settlement": "polis", "citizens": [], "friendly": [],
                                 "delivered": 0, "destroyed": False}},
                "-1,0": {"kind": "rock", "open": "", "found": 0},
                "0,1": {"kind": "styx", "open": "NS", "found": 0}},
        "models": {"m1": pc("m1", "ann", "hoplite", "0,0", items=["axe"], gold=4),
                   "m2": pc("m2", "bob", "amazon", "2,0"),
                   "m3": monster("m3", "manticore", "1,0"),
                   "m4": monster("m4", "hoplite", "2,0", "defender", home="2,0",
                                 name="Hoplite 1 of the Polis at 2,0")},
        "next_id": 4, "pcs": {"ann": "m1", "bob": "m2"}, "dead": [], "teams": {},
        "hostile": {}, "standing": {"ann": {}, "bob": {}}, "goal": {}, "result": {},
    }
    state.update(changes)
    state["game_over"] = state["step"] == "over"
    state["me"] = "ann"
    return state


TURN = PhaseSpec("r02.turn.p1", "turn", ("ann",), active="ann")


def static(kind: str) -> str:
    return (ROOT / "orders" / "hetairos" / f"{kind}.toml").read_text()


# --- report -------------------------------------------------------------------------------


def test_report_lists_the_moves_legal_now() -> None:
    moves = report.context(C, view(), "ann")["my_moves"]
    by = {line[0]: line for line in moves}
    assert "unexplored" in by["N"] and "'move N'" in by["N"]
    assert "tunnel" in by["E"] and "m3" in by["E"]  # the Manticore stops her (Battle 1)
    assert "'move S'" in by["S"]
    assert by["W"].startswith("W (west) to -1,0: no:") and "move W" not in by["W"]


def test_report_styx_without_bridge_closes_east_west() -> None:
    v = view()
    v["models"]["m1"]["at"] = "0,1"  # on the west bank, no bridge (Styx 4)
    by = {line[0]: line for line in report.context(C, v, "ann")["my_moves"]}
    assert "no:" in by["E"] and "bridge" in by["E"]
    assert "unexplored" in by["W"]


def test_report_enemies_in_reach_and_wares_here() -> None:
    v = view()
    v["models"]["m1"]["at"] = "1,0"
    v["models"]["m1"]["bank"] = ""
    ctx = report.context(C, v, "ann")
    assert any(line.startswith("m3 ") and "attack m3" in line for line in ctx["my_targets"])
    v["models"]["m1"]["at"] = "2,0"
    here = " ".join(report.context(C, v, "ann")["my_here"])
    assert "Spear (spear) 3 Gold" in here and "Polis" in here


def test_report_sheets_models_and_squares() -> None:
    pub = report.public(C, view())
    ann = pub["sheets"][0]
    assert ann["title"].startswith("1. ann: the Hoplite (m1)")
    assert any("Axe (axe)" in line for line in ann["lines"])
    assert any("+2 TO COMBAT" in line for line in ann["lines"])
    assert any(line.startswith("m3 Manticore") and "HP 10/10" in line
               for line in pub["models"])
    squares = {line.split()[0]: line for line in pub["squares"]}
    assert set(squares) == {"0,0", "1,0", "2,0", "-1,0", "0,1"}
    assert "bridged" in squares["0,0"] and "defenders: m4" in squares["2,0"]
    manual = next(s for s in pub["sections"] if s["title"] == "Monsters on the map")
    assert any("MANTICORE HAS THE SNARLING HEAD" in line for line in manual["lines"])


def test_report_header_names_the_scenario_and_a_halt() -> None:
    lines = report.public(C, view(cont=1, halted="enemy", pending=["attack m3"]))["header"]
    text = " ".join(lines)
    assert "Beast Slayers" in text and "KILL 3 GREAT BEASTS" in text
    assert "halted (enemy)" in text and "attack m3" in text


def test_report_event_text_is_the_ledger_text() -> None:
    e = {"type": "move", "text": "ann (Hoplite) moves to 1,0."}
    assert report.event_text(C, view(), e) == e["text"]


# --- forms --------------------------------------------------------------------------------


def test_static_forms_unchanged_mean_the_defaults() -> None:
    for kind in ("join", "turn"):
        text = static(kind)
        assert tomllib.loads("[orders]\n" + text) == {"orders": {}}
        assert all(len(line) <= 78 for line in text.splitlines())


def test_form_examples_are_legal_and_unchanged_means_no_steps() -> None:
    text = forms.form(C, static("turn"), view(), TURN, "ann")
    assert tomllib.loads("[orders]\n" + text) == {"orders": {}}
    assert all(len(line) <= 78 for line in text.splitlines())
    examples = [line for line in text.splitlines() if line.startswith("# steps = [")]
    assert '# steps = ["move N"]' in examples and '# steps = ["move E"]' in examples
    assert not any("move W" in line for line in examples)  # rock
    for line in examples:  # every example, uncommented, is an order the rules read
        orders = tomllib.loads(line[2:])
        assert not program.parse(C, orders)[2]


def test_form_examples_attack_the_enemy_in_the_square() -> None:
    v = view()
    v["models"]["m1"]["at"] = "1,0"
    v["models"]["m1"]["bank"] = ""
    text = forms.form(C, static("turn"), v, TURN, "ann")
    assert '# steps = ["attack m3", "attack m3"]' in text


def test_form_after_a_halt_offers_the_waiting_steps() -> None:
    text = forms.form(C, static("turn"), view(cont=1, halted="enemy",
                                              pending=["move N", "move N"]), TURN, "ann")
    assert '# steps = ["move N", "move N"]' in text
    assert tomllib.loads("[orders]\n" + text) == {"orders": {}}


def test_form_join_is_the_static_text() -> None:
    join = PhaseSpec("t00.join", "join", ("ann", "bob"))
    assert forms.form(C, static("join"), view(), join, "ann") == static("join")


# --- board ------------------------------------------------------------------------------


def test_board_draws_every_drawn_square_and_model() -> None:
    v = view()
    root = ET.fromstring(f"<div>{board.svg(C, v, 'ann')}</div>")
    groups = list(root.iter(f"{NS}g"))
    squares = {g.attrib["data-square"] for g in groups if g.attrib.get("class") == "square"}
    models = {g.attrib["data-model"] for g in groups if "model" in g.attrib.get("class", "")}
    assert squares == set(v["map"])
    assert models == {"m1", "m2", "m3", "m4"}
    svg = root.find(f"{NS}svg")
    assert svg is not None and "overview" not in svg.attrib["class"]  # small: texts shown
    assert draw.smallest_text(ET.tostring(svg, encoding="unicode")) >= 10
    assert int(svg.attrib["width"]) <= draw.PHONE_PX


def test_board_leaves_out_captured_and_dead_models() -> None:
    v = view()
    v["models"]["m3"]["hp"] = 0
    picture = board.svg(C, v, "ann")
    assert 'data-model="m3"' not in picture and 'data-model="m1"' in picture


def test_board_wide_map_gets_closeups_of_the_reader() -> None:
    v = view()
    for x in range(3, 14):
        v["map"][f"{x},0"] = {"kind": "tunnel", "open": "EW", "found": 0}
    v["models"]["m1"].update(at="12,0", bank="")
    picture = board.svg(C, v, "ann")
    root = ET.fromstring(f"<div>{picture}</div>")
    overview = root.find(f"{NS}svg")
    assert overview is not None and "overview" in overview.attrib["class"]
    closeups = [s for s in root.iter(f"{NS}svg") if "closeup" in s.attrib.get("class", "")]
    assert closeups and all(int(s.attrib["width"]) <= draw.PHONE_PX for s in closeups)
    assert "12,0" in picture.split(draw.SPLIT, 1)[1]  # the caption names the PC's square


# --- escaping -----------------------------------------------------------------------------


HOSTILE = "<script>x</script>[b]*"


def hostile_view() -> dict[str, Any]:
    v = view()
    v["models"]["m2"]["name"] = HOSTILE
    v["seats"] = ["ann", "bob"]
    return v


def test_board_escapes_hostile_names_and_parses() -> None:
    picture = board.svg(C, hostile_view(), "ann")
    assert "<script>" not in picture
    root = ET.fromstring(f"<div>{picture}</div>")
    assert root.find(f".//{NS}svg") is not None


def test_templates_escape_hostile_names() -> None:
    env = core_report._environment()
    v = hostile_view()
    game = {**report.public(C, v), **report.context(C, v, "ann")}
    ctx = {"campaign": "c", "game_title": "Hetairos", "seq": 3, "phase": "r02.turn.p1",
           "player": "ann", "events": [{"text": HOSTILE}], "private": [], "draws": [],
           "dice_summary": [], "draw_count": 0, "sealed_count": 0, "commitments": {},
           "nmr": [], "own_commitment": "", "record_hash": "0" * 64, "view": v,
           "game": game, "next_phase": None, "deadline": "", "form": "", "result": {},
           "board": "", "position": [],
           "key_changes": [{"player": "ann", "old": "SHA256:o", "new": "SHA256:n",
                            "reason": HOSTILE, "from": 4}]}
    html = env.get_template("hetairos/report.html.j2").render(ctx)
    assert "<script>" not in html and "&lt;script&gt;" in html
    md = env.get_template("hetairos/report.md.j2").render(ctx)
    assert "<script>" not in md and "\\*" in md
    bb = env.get_template("hetairos/report.bbcode.j2").render(ctx)
    assert "[b]*" not in bb and "\uff3bb]*" in bb
    txt = env.get_template("hetairos/report.txt.j2").render(ctx)
    assert "MODELS ON THE MAP" in txt


def test_view_is_not_changed_by_the_report() -> None:
    v = view()
    before = copy.deepcopy(v)
    report.public(C, v)
    report.context(C, v, "ann")
    forms.form(C, static("turn"), v, TURN, "ann")
    board.svg(C, v, "ann")
    assert v == before

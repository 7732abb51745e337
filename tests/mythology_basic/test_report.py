"""Mythology Basic Game reports, in the four formats, and the board picture.

One small demo campaign (three players, played through the engine) whose players joined with
three different standing defence policies and whose Player Turns are scripted here (attack
the opposing unit next door, try the Prize next door, the two Hero players ally), so that the
reports have fights, removals, captures, an alliance and sealed policies to show whatever the
game's own bot does.
"""

from __future__ import annotations

import copy
import html
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest

from pbem import games
from pbem.core import demo, engine, escape, ledger, report
from pbem.core import svg as draw
from pbem.core.campaign import Campaign, open_campaign
from pbem.core.dice import Stream
from pbem.core.ruleset import PhaseSpec
from pbem.games.mythology import names
from pbem.games.mythology.basic import board, defence, turn
from pbem.games.mythology.basic import report as basic_report
from pbem.games.mythology.basic.game import RULESET
from pbem.games.mythology.basic.setup import HEROES
from pbem.games.mythology.components import load
from tests.test_injection import (
    GAME_TEXT,
    _appended,
    elements,
    harmless,
    markdown_elements,
)

pytestmark = pytest.mark.xdist_group("mythology-basic-report")

C = load()
#: Three policies whose descriptions differ (none is part of another).
POLICIES = {"alice": {"mode": "fixed", "fixed": 2},
            "bob": {"mode": "match_plus", "plus": 1, "max_per_fight": 6, "reserve": 2},
            "carol": {"mode": "none"}}


def _described(player: str) -> str:
    policy = defence.parse(POLICIES[player])[0]
    assert policy is not None
    return defence.describe(policy)


def _route(start: str, goals: set[str], blocked: set[str], limit: int) -> list[str]:
    """The shortest path (at most ``limit`` hexes) from ``start`` to one of ``goals`` that
    passes through no hex of ``blocked``; [] when there is none."""
    came: dict[str, str] = {start: ""}
    frontier = [start]
    for _ in range(limit):
        reached = []
        for h in frontier:
            for n in C.map.neighbours(h):
                if n in came:
                    continue
                came[n] = h
                if n in goals:
                    path = [n]
                    while came[path[-1]] != start:
                        path.append(came[path[-1]])
                    return path[::-1]
                if n not in blocked:
                    reached.append(n)
        frontier = reached
    return []


def _scripted(view: Mapping[str, Any], phase: PhaseSpec, player: str,
              rng: Stream) -> dict[str, Any]:
    """A Player Turn that makes things happen, while turn.plan accepts it: a Hero player puts
    his god where a Hero can reach a Prize and sends him to try it (aid 5); then each unit of
    the god's Area with an opposing unit next door steps in and fights (aid 2). The Hero
    players name each other as allies in Game Turn 1."""
    state = {**view, "policy": {p: dict(defence.DEFAULT) for p in view["seats"]}}
    side = view["favour"][player]
    at = {int(u): h for u, h in view["units"].items() if h}
    mine = {u: h for u, h in at.items() if turn.kind(C, u) == side}
    enemies = {h for u, h in at.items() if turn.kind(C, u) != side}
    prizes = {x["hex"] for x in view["prizes"].values() if x["hex"]}
    free = set(C.map.areas) - set(view["god_area"].values())
    orders: dict[str, Any] = {"god": turn.default_god(C, state, player)}
    if side == HEROES:
        reach = sorted((len(path), u, path) for u, h in mine.items()
                       if C.map.area_of(h) in free
                       for path in [_route(h, prizes, enemies, 5)] if path)
        if reach:
            _, hero, path = reach[0]
            orders["god"] = C.map.area_of(mine[hero])
            orders["move"] = [{"unit": hero, "path": path}]
            orders["capture"] = [{"unit": hero, "aid": 5}]
            if turn.plan(C, state, player, orders)[1]:
                orders = {"god": orders["god"]}
        if view["turn"] == 1:
            orders["allies"] = [p for p in view["seats"] if p != player
                                and view["favour"][p] == HEROES]
    moved = {m["unit"] for m in orders.get("move", [])}
    taken: set[str] = set()
    for u, h in sorted(mine.items()):
        if u in moved or C.map.area_of(h) != orders["god"]:
            continue
        for n in C.map.neighbours(h):
            enemy = [v for v, x in at.items() if x == n and turn.kind(C, v) != side]
            if not enemy or n in taken:
                continue
            tried = copy.deepcopy(orders)
            tried.setdefault("move", []).append({"unit": u, "path": [n]})
            tried.setdefault("fight", []).append({"attacker": u, "defender": enemy[0],
                                                  "aid": 2})
            if not turn.plan(C, state, player, tried)[1]:
                orders = tried
                taken.add(n)
                break
    return orders


@dataclass
class Played:
    campaign: Campaign
    last: int
    mid: int


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    root = tmp_path_factory.mktemp("basic-report") / "demo"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(RULESET, "bot_join", lambda player, rng: {"defend": POLICIES[player]})
        mp.setattr(RULESET, "bot_orders", lambda view, phase, player, rng:
                   _scripted(view, phase, player, rng))
        demo.run(RULESET, root, players=3, seed="report", options={}, resolve=games.get,
                 with_reports=False)
    campaign = open_campaign(root / "campaign", games.get)
    last = ledger.count(campaign.ledger_dir)
    yield Played(campaign, last, last // 2)


READERS = ("alice", "bob", "carol", None)


@pytest.fixture(scope="module")
def rendered(played: Played) -> dict[tuple[int, str | None, str], str]:
    """Every format for every reader of three records: the set-up, mid game, the end."""
    out = {}
    for seq in (1, played.mid, played.last):
        loaded = report.load(played.campaign, seq)
        for who in READERS:
            for fmt in report.FORMATS:
                out[(seq, who, fmt)] = report.render(played.campaign, seq, who, fmt,
                                                     loaded=loaded)
    return out


def _flat(text: str) -> str:
    """A report's words on one line, as a reader reads them: txt wraps them, html escapes
    them, md puts a backslash before punctuation, bbcode writes a [ before a letter as a
    fullwidth one."""
    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", html.unescape(text))
    return " ".join(text.replace(escape.BB_BRACKET, "[").split())


def _state(played: Played, seq: int) -> dict[str, Any]:
    state = engine.load_state(played.campaign, seq)
    assert state is not None
    return state


# --- the tests ------------------------------------------------------------------------------


def test_the_scripted_game_has_fights_captures_and_an_alliance(played: Played) -> None:
    events = [e for seq in range(1, played.last + 1) for e in ledger.load(
        (played.campaign.ledger_dir / ledger.record_name(seq)).read_bytes())["events"]]
    kinds = {e["type"] for e in events}
    assert {"fight", "capture", "alliance-formed", "winner"} <= kinds, kinds
    assert _state(played, played.mid)["removed"]


def test_every_txt_line_fits_78_columns(rendered: dict[tuple[int, str | None, str], str]
                                        ) -> None:
    for (seq, who, fmt), text in rendered.items():
        if fmt == "txt":
            long = [line for line in text.splitlines() if len(line) > 78]
            assert long == [], (seq, who, long[:2])


def test_the_board_by_area_lists_every_unit_and_prize_with_its_hex(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    for seq in (1, played.mid, played.last):
        state = _state(played, seq)
        on_board = {int(u): h for u, h in state["units"].items() if h}
        assert len(on_board) > 40
        for fmt in ("txt", "md", "bbcode", "html"):
            text = _flat(rendered[(seq, "alice", fmt)])
            start = text.lower().index("the board by area")
            board_part = text[start:text.lower().index("removed from play", start)]
            for u, h in on_board.items():
                kind = "Hero" if u in C.heroes else "Monster"
                want = f"{kind} {names.unit_label(C, u)} {h}; next: "
                assert want + " ".join(C.map.neighbours(h)) in board_part, (seq, fmt, want)
            listed = re.findall(r"(?:Hero|Monster) [^;]*? \((\d+)\) \d{4}; next:", board_part)
            assert sorted(map(int, listed)) == sorted(on_board), (seq, fmt)
            for pid, x in state["prizes"].items():
                assert (f"Prize {C.prizes[pid].name} {x['hex']}" in board_part) == bool(
                    x["hex"]), (seq, fmt, pid)
            # Every Area by its printed name (and its id where orders write another).
            assert "The Sea (western Area) [sea_west]" in board_part
            assert all(a.name in board_part for a in C.map.areas.values())


def test_removed_units_and_captured_prizes_say_by_whom(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    state = _state(played, played.last)
    text = _flat(rendered[(played.last, None, "txt")])
    assert state["removed"]
    for u, x in state["removed"].items():
        label = names.unit_label(C, int(u))
        assert f"{label}: removed by {x['by']}, Game Turn {x['turn']}" in text
    captured = [(p, x) for p, x in state["prizes"].items() if not x["hex"]]
    assert captured
    for p, x in captured:
        assert f"{C.prizes[p].name}: captured by {x['by']}, Game Turn {x['turn']}" in text


def test_a_players_report_shows_his_own_policy_and_no_one_elses_until_the_end(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    for seq in (1, played.mid):
        for who in READERS:
            for fmt in report.FORMATS:
                text = _flat(rendered[(seq, who, fmt)])
                for owner in POLICIES:
                    assert (_described(owner) in text) == (owner == who), (seq, who, owner,
                                                                           fmt)
    for who in READERS:
        for fmt in report.FORMATS:
            text = _flat(rendered[(played.last, who, fmt)])
            assert "policies, revealed" in text.lower()
            for owner in POLICIES:
                god = C.gods[_state(played, 1)["gods"][owner]].name
                assert f"{owner} ({god}): {_described(owner)}" in text, (who, owner, fmt)


def test_vp_are_shown_as_exact_fractions(played: Played, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    """Basic Win 1C and Alliance 3 make thirds and halves: 7/2 reads "3 1/2" in the VP table
    and the final score of every format, never 3.5."""
    real = engine.load_state

    def fractions(*args: Any, **kw: Any) -> Any:
        state = copy.deepcopy(real(*args, **kw))
        assert state is not None
        state["vp"] = {"alice": "7/2", "bob": "2/3", "carol": "31/3"}
        state["score"] = {"alice": "7/2", "bob": "2/3", "carol": "31/3"}
        return state

    monkeypatch.setattr(engine, "load_state", fractions)
    for fmt in report.FORMATS:
        text = _flat(report.render(played.campaign, played.last, "bob", fmt))
        for shown in ("3 1/2", "2/3", "10 1/3"):
            assert text.count(shown) >= 2, (fmt, shown)  # the table and the final score
        assert "7/2" not in text and "31/3" not in text
        score = text[text.lower().index("final score"):]
        assert score.index("carol") < score.index("alice") < score.index("bob"), fmt


def test_html_parses_and_holds_one_board(rendered: dict[tuple[int, str | None, str], str],
                                         played: Played) -> None:
    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.svgs: list[dict[str, str | None]] = []
            self.stack: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "svg":
                self.svgs.append(dict(attrs))

    for seq in (1, played.last):
        for who in ("carol", None):
            parser = Tags()
            parser.feed(rendered[(seq, who, "html")])
            parser.close()
            classes = [str(s.get("class", "")) for s in parser.svgs]
            assert [c for c in classes if "overview" in c] == ["board overview"]
            assert any("closeup" in c for c in classes)  # readable on a phone
    page = rendered[(played.last, "carol", "html")]
    assert page.count("<svg") == page.count("</svg>")
    assert "<script" not in page


#: Markup of every format, short: put before every line of the game's own part.
HOSTILE_LINE = "# [b]*x*[/b] <i>y</i> [u](https://e.example) `c` |~$@ [/list]"


def _hostile(event_text: str, game_text: str) -> Callable[..., dict[str, Any]]:
    """:func:`report.context` with ``event_text`` around every event's text and
    ``game_text`` before every text of ``game`` (the board's lines, names, policies...)."""
    real = report.context

    def context(*args: Any, **kw: Any) -> dict[str, Any]:
        ctx = real(*args, **kw)
        ctx["events"] = [{**e, "text": f"{event_text} {e['text']} {event_text}"}
                         for e in ctx["events"]]
        ctx["game"] = _appended(ctx["game"], game_text)
        return ctx
    return context


def test_hostile_text_in_events_and_game_lines_adds_no_markup(
        played: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    """As tests/test_injection.py checks every game: the same report with hostile and with
    harmless text of the same length has the same elements, read back by real parsers."""
    loaded = report.load(played.campaign, played.last)
    got: dict[str, str] = {}
    want: dict[str, str] = {}
    for texts, out in (((GAME_TEXT, HOSTILE_LINE), got),
                       ((harmless(GAME_TEXT), harmless(HOSTILE_LINE)), want)):
        monkeypatch.setattr(report, "context", _hostile(*texts))
        for fmt in report.FORMATS:
            out[fmt] = report.render(played.campaign, played.last, "alice", fmt, loaded=loaded)
        monkeypatch.undo()
    assert GAME_TEXT.split("\n")[0] in got["txt"] and HOSTILE_LINE in got["txt"]
    for fmt in ("md", "bbcode", "html"):
        assert elements(fmt, got[fmt]) == elements(fmt, want[fmt]), fmt
    assert markdown_elements(got["md"], fences=False) == markdown_elements(got["md"])
    assert "<script>" not in got["html"] and "&lt;script&gt;" in got["html"]


def test_event_text_names_gods_and_sides_and_the_ledger_keeps_its_bytes(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    record = ledger.load((played.campaign.ledger_dir / ledger.record_name(1)).read_bytes())
    favour = next(e for e in record["events"] if e["type"] == "favour")
    assert "heroes: " in favour["text"]  # the rules' words, kept in the ledger
    view = RULESET.view(_state(played, 1), None)
    worded = basic_report.event_text(C, view, favour)
    gods = {p: C.gods[g].name for p, g in view["gods"].items()}
    heroes = [p for p in view["seats"] if view["favour"][p] == HEROES]
    assert "Heroes: " + ", ".join(f"{p} ({gods[p]})" for p in heroes) in worded
    assert worded in _flat(rendered[(1, None, "txt")])
    # A text this version does not know is shown as it is.
    assert basic_report.event_text(C, view, {"type": "favour", "text": "x"}) == "x"


def _pieces(picture: str, attr: str) -> set[str]:
    return set(re.findall(rf'{attr}="([^"]+)"', picture.split(draw.SPLIT)[0]))


def test_the_board_shows_each_unit_prize_and_god_of_the_view(played: Played) -> None:
    state = _state(played, played.mid)
    view = RULESET.view(state, "alice")
    picture = board.svg(C, view, "alice")
    on_board = {u: h for u, h in state["units"].items() if h}
    assert _pieces(picture, "data-unit") == set(on_board)
    for u, h in on_board.items():
        kind = "Hero" if int(u) in C.heroes else "Monster"
        shape = "<circle" if kind == "Hero" else "<rect"  # not by colour alone
        piece = re.search(rf'<g class="unit {kind.lower()}" data-unit="{u}"><title>'
                          rf"{kind} [^<]* \({u}\), hex {h}</title>(<\w+)", picture)
        assert piece is not None and piece[1] == shape, u
    assert _pieces(picture, "data-prize") == {p for p, x in state["prizes"].items()
                                              if x["hex"]}
    assert _pieces(picture, "data-player") == {p for p, a in state["god_area"].items() if a}
    # A unit removed from the view is gone from the picture; the legend names the sides.
    gone = sorted(on_board)[0]
    fewer = copy.deepcopy(view)
    fewer["units"][gone] = ""
    assert gone not in _pieces(board.svg(C, fewer, "alice"), "data-unit")
    legend = picture.split(draw.SPLIT)[1]
    heroes = ", ".join(p for p in state["seats"] if state["favour"][p] == HEROES)
    assert f"Hero (number), moved by {heroes}" in legend and "god " in legend
    assert board.svg(C, view, "alice") == board.svg(C, copy.deepcopy(view), "alice")


def test_the_closeups_fit_a_phone(played: Played) -> None:
    """Issue 14, as tests/test_board_phone.py checks the Advanced board: at most six
    close-ups, each shown unshrunk on a 390 px phone, their smallest text 10 CSS px high."""
    for who in ("bob", None):
        picture = board.svg(C, RULESET.view(_state(played, played.mid), who), who)
        smallest = draw.smallest_text(picture.split(draw.SPLIT)[0])
        closeups = re.findall(r'class="board closeup" viewBox="[-\d]+ [-\d]+ (\d+) \d+" '
                              r'width="(\d+)"', picture)
        assert 1 <= len(closeups) <= draw.MAX_TILES, who
        for units, px in closeups:
            assert int(px) <= draw.PHONE_PX
            assert smallest * int(px) / int(units) >= draw.MIN_PX

"""Deukalion reports in the four formats, the board picture and the reach listing
(pbem.games.deukalion.report, board; templates/deukalion/report.*.j2).

One small demo campaign (three players, played to its end through the engine by the bots).
"""

from __future__ import annotations

import copy
import hashlib
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest

from pbem import games
from pbem.core import demo, engine, escape, ledger, report
from pbem.core import svg as draw
from pbem.core.campaign import Campaign, open_campaign
from pbem.games.deukalion import actions, board, bot, sailing
from pbem.games.deukalion import report as deuk_report
from pbem.games.deukalion.components import load
from pbem.games.deukalion.game import RULESET
from tests.test_injection import GAME_TEXT, _appended, elements, harmless, markdown_elements

pytestmark = pytest.mark.xdist_group("deukalion-report")

C = load()
PLAYERS = ("alice", "bob", "carol")
READERS = (*PLAYERS, None)


@dataclass
class Played:
    campaign: Campaign
    last: int


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    root = tmp_path_factory.mktemp("deukalion-report") / "demo"
    demo.run(RULESET, root, players=3, seed="1", options={}, resolve=games.get,
             with_reports=False)
    campaign = open_campaign(root / "campaign", games.get)
    yield Played(campaign, ledger.count(campaign.ledger_dir))


def fixed(what: str) -> str:
    return hashlib.sha256(f"deukalion-report/{what}".encode()).hexdigest()


def _records(played: Played) -> tuple[int, ...]:
    return (1, played.last // 2, played.last)


@pytest.fixture(scope="module")
def rendered(played: Played) -> dict[tuple[int, str | None, str], str]:
    out = {}
    for seq in _records(played):
        loaded = report.load(played.campaign, seq)
        for who in READERS:
            for fmt in report.FORMATS:
                out[(seq, who, fmt)] = report.render(played.campaign, seq, who, fmt,
                                                     fresh=fixed, loaded=loaded)
    return out


def _state(played: Played, seq: int) -> dict[str, Any]:
    state = engine.load_state(played.campaign, seq)
    assert state is not None
    return copy.deepcopy(state)


def _events(played: Played, seq: int) -> list[dict[str, Any]]:
    data = (played.campaign.ledger_dir / ledger.record_name(seq)).read_bytes()
    return list(ledger.load(data)["events"])


def _flat(text: str) -> str:
    """A report's words on one line, as a reader reads them."""
    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", html.unescape(text))
    return " ".join(text.replace(escape.BB_BRACKET, "[").split())


def _section(text: str, start: str, end: str) -> str:
    low = text.lower()
    i = low.index(start.lower())
    return text[i:low.index(end.lower(), i)]


# --- the tests ----------------------------------------------------------------------------------


def test_every_format_renders_for_each_player_and_the_gazette(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    for seq in _records(played):
        state = _state(played, seq)
        for who in READERS:
            for fmt in report.FORMATS:
                text = _flat(rendered[(seq, who, fmt)])
                low = text.lower()
                assert f"Turn {state['turn']}: {state['active']} is the active player" in text
                board_heading = "the board" if fmt == "html" else "the board (map 1-13)"
                for heading in ("honour (in turn order", "pursuits", board_heading,
                                "action cards", "pursuit cards"):
                    assert heading in low, (seq, who, fmt, heading)
                own = "where your ship can go" in low
                assert own == (who is not None and state["step"] != "over"), (seq, who, fmt)
                if state["step"] != "over":
                    k = state["kylix"]
                    assert (f"centre die {k['centre']}" in text and "Turn 3 (rotation = 3)"
                            in text), (seq, who, fmt)
    over = _flat(rendered[(played.last, "bob", "txt")])
    result = _state(played, played.last)["result"]
    assert f"THE END: {result['why']}" in over and "WINNER" in over


def test_every_txt_line_fits_78_columns(rendered: dict[tuple[int, str | None, str], str]
                                        ) -> None:
    for (seq, who, fmt), text in rendered.items():
        if fmt == "txt":
            long = [line for line in text.splitlines() if len(line) > 78]
            assert long == [], (seq, who, long[:2])


def test_honour_1_5_points_by_source_and_holdings(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    seq = played.last // 2
    state = _state(played, seq)
    text = _flat(rendered[(seq, None, "txt")])
    for n, p in enumerate(state["seats"], 1):
        settled = sum(x["hoplites"] for x in state["settlements"].values() if x["owner"] == p)
        pursued = sum(C.pursuits[x].points for x in state["achieved"][p])
        total = settled + pursued + state["honour"][p]
        assert (f"{n}. {p}: {total} of 14 Honour points (settlements {settled}, Pursuits "
                f"{pursued}, Honour cards {state['honour'][p]}). Hoplites: "
                f"{state['board'][p]['hoplites']} on the shipboard, "
                f"{state['underworld'][p]} in the Underworld, {settled} on settlements") in text
        assert f"Action cards: {len(state['hands'][p])} in hand" in text


def test_map_1_13_the_grid_shows_every_square_ship_hydra_and_chest_count(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    seq = played.last // 2
    state = _state(played, seq)
    text = rendered[(seq, None, "txt")]
    rows = {line[0]: line for line in text.splitlines()
            if re.fullmatch(r"[1-7] \|.*\| [1-7]", line)}
    assert sorted(rows) == list("1234567")
    seats = {p: n for n, p in enumerate(state["seats"], 1)}
    for sq in deuk_report.square_ids():
        cell = rows[sq[1]][3:-3].split("|")["abcdefghi".index(sq[0])].strip()
        square = C.board.squares[sq]
        assert cell.startswith(deuk_report.LETTERS[square.kind]), sq
        ships = "".join(str(seats[p]) for p in state["seats"] if state["ships"][p] == sq)
        if square.kind == "city":
            assert cell.endswith(f":{len(state['chests'][square.place])}"), sq
        elif square.kind == "settlement":
            owner = state["settlements"][square.place]["owner"]
            assert cell.endswith(f":{seats.get(owner, '-')}"), sq
        elif square.kind != "athens":
            assert cell[2:] == ships + ("H" if state["hydra"] == sq else ""), sq


def test_ship_1_7_the_reach_listing_equals_sailing_reach(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    checked = 0
    for seq in range(2, played.last):
        state = _state(played, seq)
        for who in PLAYERS:
            view = RULESET.view(state, who)
            listed = deuk_report.context(C, view, who)["my_reach"]
            stand_in = bot.state_from_view(view, who)
            want: list[tuple[int, dict[str, list[str]]]] = []
            if state["step"] == "sail" and who in state["sailors"]:
                steps = state["kylix"]["centre"] + sailing.sail_bonus(C, stand_in, who)
                want.append((steps, sailing.reach(C, stand_in, who, steps)))
            if state["active"] == who:
                if state["step"] == "sail":
                    stand_in["effects"] = {}
                for move in (1, 2, 3):
                    steps = actions.move_limit(C, stand_in, who, move)
                    want.append((steps, sailing.reach(C, stand_in, who, steps)))
            assert [(x["steps"], x["reach"]) for x in listed] == want, (seq, who)
            shown = [line.split(":")[0].split(" via ")[0] for x in listed for line in x["lines"]]
            assert sorted(shown) == sorted({sq for _, r in want for sq in r}), (seq, who)
            if seq in _records(played) and listed:
                part = _section(_flat(rendered[(seq, who, "txt")]), "where your ship can go",
                                "your standing")
                for x in listed:
                    for line in x["lines"]:
                        assert line in part
            checked += len(listed)
    assert checked >= 10


def test_the_reach_listing_says_what_ending_there_does(played: Played) -> None:
    view = RULESET.view(_state(played, 1), "alice")
    state = bot.state_from_view(view, "alice")
    sparta = C.board.approaches("sparta")[0]
    state["chests"]["sparta"] = ["red"]
    assert "challenge Sparta (value 3, 1 chest)" in deuk_report.ending(
        C, state, "alice", sparta, ["x", sparta])
    state["chests"]["sparta"] = []
    assert "Sparta" not in deuk_report.ending(C, state, "alice", sparta, ["x", sparta])
    argos = C.board.approaches("argos")[0]
    state["settlements"]["argos"]["owner"] = ""
    assert "found Argos (1 hoplite)" in deuk_report.ending(C, state, "alice", argos,
                                                           ["x", argos])
    state["settlements"]["argos"]["owner"] = "bob"
    assert "challenge Argos (bob's, value 1)" in deuk_report.ending(C, state, "alice", argos,
                                                                    ["x", argos])
    styx = C.board.styx[0]
    assert deuk_report.ending(C, state, "alice", styx, ["x", styx]).startswith(
        "the River Styx")


def test_pursuit_0_action_1_a_report_shows_the_readers_hand_and_personal_and_no_one_elses(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    seq = played.last // 2
    state = _state(played, seq)
    for who in PLAYERS:
        text = _flat(rendered[(seq, who, "txt")])
        hand = _section(text, "YOUR HAND", "WHERE YOUR SHIP")
        for card in state["hands"][who]:
            a = C.actions[card]
            assert f"{a.name} ({card}): \"{a.text}\". Play it" in hand
        mine = state["personal"][who]
        if mine:
            assert ("Your personal Pursuit (secret): "
                    + deuk_report.card_words(C, mine)) in text
        for other in PLAYERS:
            theirs = state["personal"][other]
            if other != who and theirs and theirs not in (mine, *state["display"]):
                assert theirs not in text.split("PURSUIT CARDS (")[0], (who, other)
            for card in set(state["hands"][other]) - set(state["hands"][who]):
                assert f"({card}): \"" not in hand, (who, other, card)
    gazette = _flat(rendered[(seq, None, "txt")])
    assert "YOUR HAND" not in gazette and "personal Pursuit (secret)" not in gazette


def test_a_players_secrets_change_nothing_in_another_players_report(
        played: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    seq = played.last // 2
    real = engine.load_state
    before = {(who, fmt): report.render(played.campaign, seq, who, fmt, fresh=fixed)
              for who in ("alice", "bob", None) for fmt in report.FORMATS}

    def other_secrets(*args: Any, **kw: Any) -> Any:
        state = copy.deepcopy(real(*args, **kw))
        assert state is not None
        hand = state["hands"]["alice"]
        state["hands"]["alice"] = [x for x in C.actions if x not in hand][:1] * len(hand)
        used = {*state["display"], *state["personal"].values()}
        if state["personal"]["alice"]:
            state["personal"]["alice"] = next(p for p in C.pursuits if p not in used)
        state["policy"]["alice"] = {**state["policy"]["alice"], "steal": "card",
                                    "push": "near_hydra"}
        return state

    monkeypatch.setattr(engine, "load_state", other_secrets)
    for (who, fmt), text in before.items():
        after = report.render(played.campaign, seq, who, fmt, fresh=fixed)
        assert (after == text) == (who != "alice"), (who, fmt)


def test_standing_choices_are_their_owners_alone_until_the_end(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    from pbem.games.deukalion import choices as choices_mod

    state = _state(played, played.last // 2)
    for who in READERS:
        text = _flat(rendered[(played.last // 2, who, "md")])
        assert ("your standing choices" in text.lower()) == (who is not None)
        if who:
            assert choices_mod.describe(state["policy"][who]) in text
        end = _flat(rendered[(played.last, who, "html")])
        final = _state(played, played.last)
        for p in PLAYERS:
            assert f"{p}: {choices_mod.describe(final['policy'][p])}; personal Pursuit" in end


def test_appendices_give_every_action_and_pursuit_card_marked_authored(
        rendered: dict[tuple[int, str | None, str], str], played: Played) -> None:
    for fmt in report.FORMATS:
        text = _flat(rendered[(played.last // 2, None, fmt)])
        for a in C.actions.values():
            assert f"{a.name} ({a.id})" in text and f"\"{a.text}\" [authored]" in text
        for p in C.pursuits:
            assert deuk_report.card_words(C, p) + " [authored]" in text, (fmt, p)


class _Svg(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.svgs: list[dict[str, str | None]] = []
        self.groups: dict[str, list[dict[str, str | None]]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "svg":
            self.svgs.append(a)
        elif tag == "g":
            self.groups.setdefault(str(a.get("class")), []).append(a)


def test_html_parses_and_holds_the_board_with_one_element_per_occupied_square(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    for seq in _records(played):
        state = _state(played, seq)
        occupied = {*state["ships"].values(), state["hydra"]}
        for who in ("bob", None):
            page = rendered[(seq, who, "html")]
            parser = _Svg()
            parser.feed(page)
            parser.close()
            boards = [s for s in parser.svgs if (s.get("class") or "").split()[:1] == ["board"]]
            assert len(boards) == 1
            assert sorted(str(g["data-square"]) for g in parser.groups["piece"]) == sorted(
                occupied)
            assert len(parser.groups["square"]) == 63
            chests = sorted((C.board.cities[c].squares[0], col)
                            for c, lying in state["chests"].items() for col in lying)
            assert sorted((str(g["data-square"]), str(g["data-colour"]))
                          for g in parser.groups.get("chest", [])) == chests
            owned = sorted(C.board.settlements[s].squares[0]
                           for s, x in state["settlements"].items() if x["owner"])
            assert sorted(str(g["data-square"]) for g in parser.groups.get("owner", [])) \
                == owned
            assert page.count("<svg") == page.count("</svg>") and "<script" not in page


def test_the_board_names_every_unit_not_by_colour_alone_and_reads_on_a_phone(
        played: Played) -> None:
    state = _state(played, played.last // 2)
    view = RULESET.view(state, "alice")
    picture = board.svg(C, view, "alice")
    main, legend = picture.split(draw.SPLIT)
    for p in PLAYERS:
        sq = state["ships"][p]
        piece = re.search(rf'<g class="piece" data-square="{sq}"[^>]*><title>([^<]*)</title>',
                          main)
        assert piece is not None and f"{p}'s ship" in html.unescape(piece[1]), p
    assert re.search(rf'data-square="{state["hydra"]}"[^>]*><title>[^<]*the Hydra', main)
    assert len(set(board.FILL.values())) == len(board.FILL)
    for sq in deuk_report.square_ids():
        kind = C.board.squares[sq].kind
        tile = re.search(rf'<g class="square" data-square="{sq}"[^>]*><title>[^<]+</title>'
                         r"(.*?)</g>", main)
        assert tile is not None and board.FILL[kind] in tile[1], sq
        letter = html.escape(deuk_report.LETTERS[kind])
        assert re.search(rf">{re.escape(letter)}( [A-Z][a-z]+)?</text>", tile[1]), sq
    for f in "abcdefghi":
        assert f">{f}</text>" in main
    assert all(f"seat {n}: {p}" in legend for n, p in enumerate(state["seats"], 1))
    assert all(col in legend for col in C.colours) and "the Hydra" in legend
    width = int(re.search(r'viewBox="0 0 (\d+) \d+"', main)[1])  # type: ignore[index]
    assert width <= draw.PHONE_PX
    assert draw.smallest_text(main) >= draw.MIN_PX
    assert board.svg(C, view, "alice") == board.svg(C, copy.deepcopy(view), "alice")


HOSTILE_LINE = "# [b]*x*[/b] <i>y</i> [u](https://e.example) `c` |~$@ [/list]"


def test_hostile_text_in_events_and_game_lines_adds_no_markup(
        played: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    real = report.context

    def hostile(event_text: str, game_text: str) -> Any:
        def context(*args: Any, **kw: Any) -> dict[str, Any]:
            ctx = real(*args, **kw)
            ctx["events"] = [{**e, "text": f"{event_text} {e['text']} {event_text}"}
                             for e in ctx["events"]]
            ctx["game"] = _appended(ctx["game"], game_text)
            return ctx
        return context

    for seq in (played.last // 2,):
        loaded = report.load(played.campaign, seq)
        got: dict[str, str] = {}
        want: dict[str, str] = {}
        for texts, out in (((GAME_TEXT, HOSTILE_LINE), got),
                           ((harmless(GAME_TEXT), harmless(HOSTILE_LINE)), want)):
            monkeypatch.setattr(report, "context", hostile(*texts))
            for fmt in report.FORMATS:
                out[fmt] = report.render(played.campaign, seq, "alice", fmt, fresh=fixed,
                                         loaded=loaded)
            monkeypatch.undo()
        assert HOSTILE_LINE in got["txt"]
        for fmt in ("md", "bbcode", "html"):
            assert elements(fmt, got[fmt]) == elements(fmt, want[fmt]), (seq, fmt)
        assert markdown_elements(got["md"], fences=False) == markdown_elements(got["md"])
        assert "<script>" not in got["html"] and "&lt;script&gt;" in got["html"]


def test_event_text_words_displays_and_skips_and_never_changes_the_ledger(
        played: Played) -> None:
    files = sorted(played.campaign.ledger_dir.iterdir())
    digest = {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}
    view = RULESET.view(_state(played, played.last), None)
    worded = 0
    for seq in range(1, played.last + 1):
        for event in _events(played, seq):
            kept = copy.deepcopy(event)
            text = deuk_report.event_text(C, view, event)
            assert event == kept
            if event["type"] == "display":
                assert all(deuk_report.card_words(C, x) in text for x in event["display"])
                worded += 1
            elif event["type"] not in ("skip",):
                assert text == event["text"]
    assert worded
    for fmt in report.FORMATS:
        report.render(played.campaign, played.last, "alice", fmt, fresh=fixed)
    assert {f.name: hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(played.campaign.ledger_dir.iterdir())} == digest
    odd = {"type": "display", "display": ["zz"], "text": "odd"}
    assert deuk_report.event_text(C, view, odd) == "odd"
    assert deuk_report.event_text(C, view, {"type": "skip", "text": "t"}) == "t"

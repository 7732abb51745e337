"""Grecos reports in the four formats, the board picture and the reach listing
(pbem.games.grecos.report, board; templates/grecos/report.*.j2).

One small demo campaign (three players, four rounds, played through the engine by the bots),
whose players joined with three different standing defence orders, so that each report's
own orders can be told from the others'.
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
from pbem.games.grecos import board, bot, movement, recruit, turn
from pbem.games.grecos import policy as policy_mod
from pbem.games.grecos import report as grecos_report
from pbem.games.grecos.components import load
from pbem.games.grecos.game import RULESET
from pbem.games.grecos.squares import SQUARES
from tests.test_injection import GAME_TEXT, _appended, elements, harmless, markdown_elements

pytestmark = pytest.mark.xdist_group("grecos-report")

C = load()
#: Three standing defence orders whose descriptions differ.
POLICIES: dict[str, dict[str, Any]] = {"alice": {"react": False},
                                       "bob": {"casualties": ["hoplites"]},
                                       "carol": {"fates": ["lost"]}}
READERS = ("alice", "bob", "carol", None)


@dataclass
class Played:
    campaign: Campaign
    last: int


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    root = tmp_path_factory.mktemp("grecos-report") / "demo"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(RULESET, "bot_join", lambda player, rng: {"defend": POLICIES[player]})
        demo.run(RULESET, root, players=3, seed="r4", options={"rounds": "4"},
                 resolve=games.get, with_reports=False)
    campaign = open_campaign(root / "campaign", games.get)
    yield Played(campaign, ledger.count(campaign.ledger_dir))


def fixed(what: str) -> str:
    return hashlib.sha256(f"grecos-report/{what}".encode()).hexdigest()


def _records(played: Played) -> tuple[int, ...]:
    return (1, played.last // 2, played.last - 1, played.last)


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
    """A report's words on one line, as a reader reads them (txt wraps, html escapes, md puts
    a backslash before punctuation, bbcode writes a [ before a letter as a fullwidth one)."""
    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", html.unescape(text))
    return " ".join(text.replace(escape.BB_BRACKET, "[").split())


def _section(text: str, start: str, end: str) -> str:
    low = text.lower()
    i = low.index(start.lower())
    return text[i:low.index(end.lower(), i)]


def _targets(reach: dict[str, tuple[str, ...]]) -> str:
    return ", ".join(sq if len(p) == 1 else f"{sq} via {' '.join(p[:-1])}"
                     for sq, p in reach.items()) or "nowhere"


# --- the tests ----------------------------------------------------------------------------------


def test_the_demo_has_moves_recruits_a_battle_and_an_end(played: Played) -> None:
    kinds = {e["type"] for seq in range(1, played.last + 1) for e in _events(played, seq)}
    assert {"move", "recruit", "battle", "attack", "game-over"} <= kinds, kinds


def test_every_format_renders_for_each_player_and_the_gazette(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    for seq in _records(played):
        state = _state(played, seq)
        for who in READERS:
            for fmt in report.FORMATS:
                text = _flat(rendered[(seq, who, fmt)])
                assert f"Turn {state['turn']}, round {state['round']} of 4." in text
                assert "The Event deck".lower() in text.lower(), (seq, who, fmt)
                for heading in ("players", "occupied squares", "city states"):
                    assert heading in text.lower(), (seq, who, fmt, heading)
                own = "your stacks and where they can go" in text.lower()
                assert own == (who is not None and state["step"] != "over"), (seq, who, fmt)
    over = _flat(rendered[(played.last, "bob", "txt")])
    result = _state(played, played.last)["result"]
    assert f"THE END: {result['why']}" in over and "WINNER" in over


def test_every_txt_line_fits_78_columns(rendered: dict[tuple[int, str | None, str], str]
                                        ) -> None:
    for (seq, who, fmt), text in rendered.items():
        if fmt == "txt":
            long = [line for line in text.splitlines() if len(line) > 78]
            assert long == [], (seq, who, long[:2])


def test_map_1_the_grid_shows_every_square_and_every_stack(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    seq = played.last // 2
    state = _state(played, seq)
    text = rendered[(seq, None, "txt")]
    rows = {line[0]: line for line in text.splitlines() if re.fullmatch(r"[1-8] \|.*\| [1-8]",
                                                                         line)}
    assert sorted(rows) == list("12345678")
    seats = {p: n for n, p in enumerate(state["seats"], 1)}
    for sq in SQUARES:
        cells = rows[sq[1]][3:-3].split("|")
        cell = cells["abcdefgh".index(sq[0])].strip()
        here = [u for u in state["units"].values() if u["square"] == sq]
        want = grecos_report.letter(C, state["board"][sq])
        if here:
            want += f" {seats[here[0]['owner']]}:{len(here)}"
            if any(u["hits"] < C.units[u["kind"]].hits for u in here):
                want += "*"
        assert cell == want, sq


def test_the_board_lists_every_occupied_square_with_terrain_owner_and_hits(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    seq = played.last - 1
    state = _state(played, seq)
    by_square: dict[str, list[str]] = {}
    for u in sorted(state["units"], key=int):
        by_square.setdefault(state["units"][u]["square"], []).append(u)
    for fmt in report.FORMATS:
        part = _section(_flat(rendered[(seq, "carol", fmt)]), "occupied squares",
                        "city states")
        for sq, ids in by_square.items():
            units = [state["units"][u] for u in ids]
            words = ", ".join(f"{C.units[x['kind']].name} ({u}) {x['hits']}/"
                              f"{C.units[x['kind']].hits}" + (" hits" if i == 0 else "")
                              for i, (u, x) in enumerate(zip(ids, units, strict=True)))
            line = (f"{sq} {C.terrains[state['board'][sq]].name}: {units[0]['owner']}: "
                    + words)
            assert line in part, (fmt, line)


def test_move_1_8_the_reach_listing_equals_movement_reach(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    checked = 0
    for seq in (played.last // 2, played.last - 1):
        state = _state(played, seq)
        for who in ("alice", "bob", "carol"):
            view = RULESET.view(state, who)
            stand_in = bot.state_from_view(view, who)
            effects = state["effects"] if state["active"] == who else turn.no_effects()
            stacks = turn.stacks(stand_in)
            mine = {sq: ids for sq, ids in stacks.items()
                    if stand_in["units"][ids[0]]["owner"] == who}
            listed = grecos_report.context(C, view, who)["my_stacks"]
            assert [s["square"] for s in listed] == sorted(mine, key=SQUARES.index)
            text = _flat(rendered[(seq, who, "txt")])
            part = _section(text, "your stacks and where they can go", "your standing")
            for s in listed:
                want = movement.reach(C, stand_in, who, mine[s["square"]], effects)
                assert s["reach"] == want, (seq, who, s["square"])
                say = "All together they can reach: " if len(mine[s["square"]]) > 1 \
                    else "It can reach: "
                assert say + _targets(want) + "." in part, (seq, who, s["square"])
                checked += 1 if want else 0
    assert checked >= 3


def test_recruit_2_event_1_a_report_shows_the_readers_pile_and_hand_and_no_one_elses(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    seq = played.last // 2
    state = _state(played, seq)
    for who in ("alice", "bob", "carol"):
        text = _flat(rendered[(seq, who, "txt")])
        pile = _section(text, "YOUR PILE", "YOUR HAND")
        hand = _section(text, "YOUR HAND", "YOUR STACKS")
        view = RULESET.view(state, who)
        stand_in = bot.state_from_view(view, who)
        for kind in set(state["chits"][who]):
            squares = recruit.recruit_squares(C, stand_in, who, kind)
            assert f"{state['chits'][who].count(kind)} x {C.units[kind].name} ({kind})" in pile
            if squares:
                assert f"recruit it on {', '.join(squares)}." in pile
        for card in state["hands"][who]:
            assert f"{C.cards[card].name} ({card}): \"{C.cards[card].text}\"" in hand
        for other in ("alice", "bob", "carol"):
            for kind in set(state["chits"][other]) - set(state["chits"][who]):
                assert f"x {C.units[kind].name} ({kind})" not in text, (who, other, kind)
            for card in set(state["hands"][other]) - set(state["hands"][who]):
                assert f"{C.cards[card].name} ({card})" not in hand, (who, other, card)
    gazette = _flat(rendered[(seq, None, "txt")])
    assert "YOUR PILE" not in gazette and "YOUR HAND" not in gazette
    assert not re.search(r"\d x [A-Z]", gazette)


def test_recruit_2_another_players_secrets_change_nothing_in_my_report(
        played: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    """alice's pile, hand and standing orders replaced by others of the same counts (the
    counts are public): bob's reports and the gazette are byte for byte the same in every
    format; alice's are not."""
    seq = next(n for n in range(played.last // 2, played.last)
               if _state(played, n)["chits"]["alice"] and _state(played, n)["hands"]["alice"])
    real = engine.load_state
    before = {(who, fmt): report.render(played.campaign, seq, who, fmt, fresh=fixed)
              for who in ("alice", "bob", None) for fmt in report.FORMATS}

    def other_secrets(*args: Any, **kw: Any) -> Any:
        state = copy.deepcopy(real(*args, **kw))
        assert state is not None
        chits = state["chits"]["alice"]
        spare = [k for k in C.units if k not in chits and k != "hero"]
        state["chits"]["alice"] = spare[:len(chits)]
        hand = state["hands"]["alice"]
        state["hands"]["alice"] = [x for x in C.cards if x not in hand][:len(hand)]
        state["policy"]["alice"] = {**policy_mod.DEFAULT, "react": True, "fates": ["zeus"]}
        return state

    monkeypatch.setattr(engine, "load_state", other_secrets)
    for (who, fmt), text in before.items():
        after = report.render(played.campaign, seq, who, fmt, fresh=fixed)
        assert (after == text) == (who != "alice"), (who, fmt)


def test_standing_orders_are_their_owners_alone_until_the_end(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    def lines(player: str) -> list[str]:
        policy = policy_mod.parse(C, POLICIES[player])[0]
        assert policy is not None
        return policy_mod.describe(C, policy)

    def described(player: str) -> str:
        return " ".join(lines(player))

    default = policy_mod.describe(C, policy_mod.DEFAULT)
    own = {p: [x for x in lines(p) if x not in default] for p in POLICIES}
    assert all(len(x) == 1 for x in own.values())
    for who in READERS:
        for fmt in report.FORMATS:
            text = _flat(rendered[(played.last // 2, who, fmt)])
            for owner in POLICIES:
                assert (own[owner][0] in text) == (owner == who), (who, owner, fmt)
            end = _flat(rendered[(played.last, who, fmt)])
            assert "standing defence orders, revealed" in end.lower()
            for owner in POLICIES:
                assert f"{owner}: {described(owner)}" in end, (who, owner, fmt)


def test_the_event_deck_appendix_gives_every_card_its_text_and_how_pbem_applies_it(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    for fmt in report.FORMATS:
        text = _flat(rendered[(played.last // 2, None, fmt)])
        part = text[text.lower().index("the event deck"):]
        for n, card in enumerate(C.cards.values(), 1):
            head = f"Deck {n}. {card.name} ({card.id}): \"{card.text}\"."
            assert head in part, (fmt, card.id)
            tail = part[part.index(head):]
            assert (f"pbem: {grecos_report.how(C, card)}") in tail[:1200], (fmt, card.id)
    # The hand says what the reader's own standing orders do with a card.
    view = RULESET.view(_state(played, 1), "alice")
    view["my_hand"] = ["lost", "ares", "fates"]
    hand = grecos_report.my_hand(C, view, "alice")
    assert hand[0].endswith("(react is off).")  # alice's orders: react = false
    assert "play it in a battle you defend (battle_cards)" in hand[1]
    assert hand[2].endswith("negate with it: Betrayal, Volcano Erupts, Whirlpool, "
                            "Blessing of Prometheus.")


class _Svg(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.svgs: list[dict[str, str | None]] = []
        self.stacks: list[dict[str, str | None]] = []
        self.squares: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "svg":
            self.svgs.append(a)
        elif tag == "g" and a.get("class") == "stack":
            self.stacks.append(a)
        elif tag == "g" and a.get("class") == "square":
            self.squares.append(a)


def test_html_parses_and_holds_the_board_with_one_counter_per_occupied_square(
        played: Played, rendered: dict[tuple[int, str | None, str], str]) -> None:
    for seq in _records(played):
        state = _state(played, seq)
        occupied = {u["square"] for u in state["units"].values()}
        for who in ("bob", None):
            page = rendered[(seq, who, "html")]
            parser = _Svg()
            parser.feed(page)
            parser.close()
            boards = [s for s in parser.svgs if (s.get("class") or "").split()[:1] == ["board"]]
            assert len(boards) == 1 and "overview" not in str(boards[0]["class"])
            assert sorted(str(s["data-square"]) for s in parser.stacks) == sorted(occupied)
            assert len(parser.squares) == 64
            assert page.count("<svg") == page.count("</svg>") and "<script" not in page


def test_the_board_names_every_unit_and_shows_damage_and_terrain_not_by_colour_alone(
        played: Played) -> None:
    state = _state(played, played.last // 2)
    uid = sorted(state["units"], key=int)[0]
    unit = state["units"][uid]
    unit["hits"] = 1 if C.units[unit["kind"]].hits > 1 else unit["hits"]
    view = RULESET.view(state, "alice")
    picture = board.svg(C, view, "alice")
    main = picture.split(draw.SPLIT)[0]
    for sq, ids in grecos_report.stacks(view).items():
        title = html.escape(grecos_report.square_line(C, view, sq, ids), quote=True)
        piece = re.search(rf'<g class="stack" data-square="{sq}"[^>]*><title>([^<]*)</title>'
                          r'(.*?)</g>', main)
        assert piece is not None and piece[1] == title, sq
        lost = sum(C.units[view["units"][u]["kind"]].hits - view["units"][u]["hits"]
                   for u in ids)
        assert (f">-{lost}</text>" in piece[2]) == (lost > 0), sq
        assert f">{len(ids)}</text>" in piece[2]
    # Every tile kind has its own colour and its own letter, written in every tile.
    assert len(set(board.FILL.values())) == len(board.FILL) == len(C.terrains)
    assert len({grecos_report.letter(C, t) for t in C.terrains}) == len(C.terrains)
    for sq in SQUARES:
        t = view["board"][sq]
        tile = re.search(rf'<g class="square" data-square="{sq}"[^>]*>(.*?)</g>', main)
        assert tile is not None and board.FILL[t] in tile[1]
        assert f">{html.escape(grecos_report.letter(C, t))}</text>" in tile[1], sq
    for f in "abcdefgh":
        assert f">{f}</text>" in main
    legend = picture.split(draw.SPLIT)[1]
    assert all(x.name in legend for x in C.terrains.values())
    assert all(f"seat {n}: {p}" in legend for n, p in enumerate(state["seats"], 1))
    # Readable on a 390 px phone without close-ups: shown at most PHONE_PX wide, at one CSS
    # px per unit or more, its smallest text is at least 10 CSS px high.
    width = int(re.search(r'viewBox="0 0 (\d+) \d+"', main)[1])  # type: ignore[index]
    assert width <= draw.PHONE_PX
    assert draw.smallest_text(main) >= draw.MIN_PX
    assert board.svg(C, view, "alice") == board.svg(C, copy.deepcopy(view), "alice")


#: Markup of every format, short: put before every line of the game's own part.
HOSTILE_LINE = "# [b]*x*[/b] <i>y</i> [u](https://e.example) `c` |~$@ [/list]"


def test_hostile_text_in_events_and_game_lines_adds_no_markup(
        played: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    """As tests/test_injection.py checks every game: the same report with hostile and with
    harmless text of the same length has the same elements, read back by real parsers."""
    real = report.context

    def hostile(event_text: str, game_text: str) -> Any:
        def context(*args: Any, **kw: Any) -> dict[str, Any]:
            ctx = real(*args, **kw)
            ctx["events"] = [{**e, "text": f"{event_text} {e['text']} {event_text}"}
                             for e in ctx["events"]]
            ctx["game"] = _appended(ctx["game"], game_text)
            return ctx
        return context

    for seq in (played.last // 2, played.last):
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
        assert GAME_TEXT.split("\n")[0] in got["txt"] and HOSTILE_LINE in got["txt"]
        for fmt in ("md", "bbcode", "html"):
            assert elements(fmt, got[fmt]) == elements(fmt, want[fmt]), (seq, fmt)
        assert markdown_elements(got["md"], fences=False) == markdown_elements(got["md"])
        assert "<script>" not in got["html"] and "&lt;script&gt;" in got["html"]


def test_event_text_words_moves_and_recruits_and_never_changes_the_ledger(
        played: Played) -> None:
    files = sorted(played.campaign.ledger_dir.iterdir())
    digest = {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}
    view = RULESET.view(_state(played, played.last), None)
    worded = 0
    for seq in range(1, played.last + 1):
        for event in _events(played, seq):
            kept = copy.deepcopy(event)
            text = grecos_report.event_text(C, view, event)
            assert event == kept
            if event["type"] == "move":
                dest = event["path"][-1]
                assert f" to {dest} ({C.terrains[view['board'][dest]].name})" in text
                assert not re.search(r"[A-Z][a-z]+ \d+\b", text.split(" from ")[0])
                worded += 1
            elif event["type"] == "recruit":
                sq = event["square"]
                assert text == event["text"][:-1] + f" ({C.terrains[view['board'][sq]].name})."
            else:
                assert text == event["text"]
    assert worded
    for fmt in report.FORMATS:
        report.render(played.campaign, played.last, "alice", fmt, fresh=fixed)
    assert {f.name: hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(played.campaign.ledger_dir.iterdir())} == digest
    # A text this version does not know is shown as the ledger has it.
    odd = {"type": "move", "player": "x", "from": "a1", "path": ["a2"], "text": "odd"}
    assert grecos_report.event_text(C, view, odd) == "odd"
    assert grecos_report.event_text(C, view, {"type": "move", "text": "t"}) == "t"

"""Issue 14 for Mythology: a player can order from the report alone.

Along demo campaigns (2 and 3 players, and 5 with a Zeus player, 301), for every record and
every player who acts next: each commented example of the order form, uncommented on its own,
is legal for that player now (``validate`` finds nothing); every Hero, Monster, card, hex,
Area and player the examples name appears in that player's text report of the same record,
a counter with its name ("Hector (12)"), a hex in the board listing (204 E: each unit's hex
and the hexes next to it); and no event line of any report names a counter by number only
("unit 22 rolls 65") or shows a seam of quoted texts (".;", ".:", "Fate 31: Fate 31").
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import tomli

from pbem import games
from pbem.core import demo, engine, ledger, report
from pbem.core.campaign import Campaign, open_campaign
from pbem.games.mythology import cards, names
from pbem.games.mythology.game import RULESET

C = RULESET.c
_HEADER = re.compile(r"\[\[?\s*orders(?:\.[A-Za-z0-9_-]+)*\s*\]\]?")
_KEY = re.compile(r"[A-Za-z0-9_]+\s*=\s*\S.*")
_UNIT_KEYS = ("unit", "hero", "attacker", "defender", "target")
#: What issue 14 quotes: a counter by number only, and the seams of quoted texts.
_BAD_EVENT = re.compile(r"\b(?:[Uu]nit|[Hh]ero|[Mm]onster) \d|\.[;:]|(?<!\.)\.\.(?!\.)"
                        r"|Fate (\d+): Fate \1|Glory\.:")

#: Two campaigns (the suite's time budget): the smallest table, and five players with every
#: optional rule that adds a form or a table (301 Zeus, 302 Prayer, 303 Lesser Evil).
CAMPAIGNS = {"2p": (2, {}),
             "5p-zeus": (5, {"zeus": "erin", "prayer": "on", "lesser_evil": "on"})}
#: One worker plays them (each once per process: ``_played`` is cached).
pytestmark = pytest.mark.xdist_group("mythology-report-ids")


@dataclass
class Played:
    campaign: Campaign
    last: int


@cache
def _played(name: str, tmp: str) -> Played:
    players, options = CAMPAIGNS[name]
    root = Path(tmp) / name
    demo.run(games.get("mythology"), root, players=players, seed="issue-14",
             options=options, resolve=games.get, with_reports=False)
    campaign = open_campaign(root / "campaign", games.get)
    return Played(campaign, ledger.count(campaign.ledger_dir))


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("issue14"))


def examples(form: str) -> list[tuple[str, dict[str, Any]]]:
    """Each commented example of ``form`` as orders, uncommented on its own: a commented
    table (``# [[orders.attempt]]`` and its ``# key = value`` lines), a commented line under
    an active table (``[orders.heroes]`` / ``# 12 = 3``) or above every table."""
    lines, out, active, i = form.split("\n"), [], "", 0
    while i < len(lines):
        line = lines[i].strip()
        text = line[1:].strip() if line.startswith("#") else line
        if _HEADER.fullmatch(text):
            if not line.startswith("#"):
                active, i = text, i + 1
                continue
            block, i = [text], i + 1
            while i < len(lines) and lines[i].strip().startswith("#"):
                more = lines[i].strip()[1:]
                if _HEADER.fullmatch(more.strip()) or not (
                        _KEY.fullmatch(more.strip()) or more.strip().startswith("#")):
                    break
                block.append(more)
                i += 1
            if len(block) > 1:
                out.append(("\n".join(block), tomli.loads("\n".join(block))))
            continue
        if line.startswith("#") and _KEY.fullmatch(text):
            with contextlib.suppress(tomli.TOMLDecodeError):  # prose holding an "="
                out.append((f"{active}\n{text}".strip(), tomli.loads(f"{active}\n{text}")))
        i += 1
    return out


def _orders(data: dict[str, Any]) -> dict[str, Any]:
    """The example's ``[orders]`` part (a key above every table is an order itself)."""
    return {**{k: v for k, v in data.items() if k != "orders"}, **data.get("orders", {})}


def named_ids(orders: dict[str, Any]) -> dict[str, set[Any]]:
    """The counters, hexes, cards, Areas and players an example names."""
    found: dict[str, set[Any]] = {"unit": set(), "hex": set(), "card": set(), "area": set(),
                                  "player": set(), "item": set()}

    def walk(key: str, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k.isdigit():
                    found["unit"].add(int(k))
                walk(k, v)
        elif isinstance(value, list):
            for v in value:
                walk(key, v)
        elif key in _UNIT_KEYS and names.is_int(value) and value:
            found["unit"].add(value)
        elif key in ("path", "hex") and value:
            found["hex"].add(value)
        elif key == "card" and value:
            found["card"].add(value)
        elif key == "area" and value:
            found["area"].add(value)
        elif key in ("player", "during") and value:
            found["player"].add(value)
        elif key in ("helpers", "prizes", "drop"):
            found["item"].add(value)

    walk("", orders)
    return found


def _view(state: Any, player: str) -> dict[str, Any]:
    view = dict(RULESET.view(state, player))
    # The powers a god used this Turn (011 C) are public (each use is an event): the view
    # carries them, and the move form offers only the others.
    return view


def _acting(played: Played) -> list[tuple[int, Any, Any, str]]:
    out = []
    for seq in range(1, played.last + 1):
        state = engine.load_state(played.campaign, seq, shared=True)
        assert state is not None
        phase = RULESET.next_phase(state)
        if phase is not None:
            out += [(seq, state, phase, p) for p in phase.actors]
    return out


@pytest.mark.parametrize("name", sorted(CAMPAIGNS))
def test_14_202_every_form_example_is_legal_for_its_player_now(name: str, tmp: str) -> None:
    """202 B, 009, 204, 301: each example uncommented on its own validates, and each kind of
    table is shown with a legal example somewhere along the game (not always given up)."""
    played = _played(name, tmp)
    shown: set[str] = set()
    for seq, state, phase, player in _acting(played):
        form = RULESET.order_form(_view(state, player), phase, player)
        for text, data in examples(form):
            problems = RULESET.validate(state, phase, player, _orders(data))
            assert problems == [], (seq, phase.id, player, text, [str(p) for p in problems])
            shown.add(f"{phase.kind}:{text.splitlines()[0].split('=')[0].strip()}")
    wanted = {"logsheet:[orders.heroes]", "logsheet:[orders.monsters]", "logsheet:card",
              "logsheet:[[orders.use]]", "logsheet:[[orders.challenge]]",
              "move:[[orders.attempt]]", "move:[[orders.power]]", "move:[[orders.combat]]",
              "move:[orders.card]"}
    if name == "5p-zeus":
        wanted |= {"logsheet:[[orders.prayer]]", "zeus:[[orders.bolt]]"}
    assert wanted <= shown, sorted(wanted - shown)


def test_14_204_E_examples_use_this_players_situation() -> None:
    """The examples are not the static form's: a Hero on the board, a card of the hand, a
    power of this god, a hex next to the unit moved (204 E)."""
    from tests.mythology.scenario import HERCULES, quiet_scene

    state, player, phase = quiet_scene({HERCULES: 3})
    view = RULESET.view(state, player)
    form = RULESET.order_form(view, phase, player)
    attempt = next(_orders(d)["attempt"][0] for t, d in examples(form) if "attempt" in t)
    unit = attempt["unit"]
    start = state["heroes"][str(unit)]["hex"]
    assert unit == HERCULES  # the Hero he has Power Points on
    assert attempt["path"][0] in C.map.neighbours(start)
    power = next(_orders(d)["power"][0]["id"] for t, d in examples(form) if "power" in t)
    assert power in cards.power_ids(C, state, player)


@pytest.mark.parametrize("name", sorted(CAMPAIGNS))
def test_14_every_id_a_form_names_is_in_the_players_report_with_its_name(
        name: str, tmp: str) -> None:
    played = _played(name, tmp)
    checked = 0
    for seq, state, phase, player in _acting(played)[::3]:
        form = RULESET.order_form(RULESET.view(state, player), phase, player)
        loaded = report.load(played.campaign, seq, as_latest=True)
        text = report.render(played.campaign, seq, player, "txt", loaded=loaded)
        assert form.strip().splitlines()[-1] in text  # the report carries this very form
        for _, data in examples(form):
            ids = named_ids(_orders(data))
            for unit in ids["unit"]:
                assert names.unit_label(C, unit) in text, (seq, player, unit)
            for hex_id in ids["hex"]:
                assert re.search(rf"\b{hex_id}\b", text.split("THE BOARD BY AREA")[1]), hex_id
            for card in ids["card"]:
                assert f"  {card}: god: " in text, (seq, player, card)
            for area in ids["area"]:
                heading = C.map.areas[area].name
                assert f"\n{heading}:" in text or f"\n{heading} [{area}]:" in text or (
                    area in text and heading in text), area
            for who in ids["player"]:
                assert who in text
            assert not ids["item"], ids  # Helpers and Prizes go by name (names.item_id)
            checked += 1
    assert checked > 20


def test_14_hex_numbers_and_neighbours_in_the_board_listing(tmp: str) -> None:
    """204 E: next to each unit on the board, its hex and the hexes next to it; how hexes are
    numbered is said once; every line fits 78 columns."""
    played = _played("2p", tmp)
    seq = played.last // 2
    state = engine.load_state(played.campaign, seq, shared=True)
    assert state is not None
    text = report.render(played.campaign, seq, "alice", "txt")
    assert text.count("column then row") == 1
    for u, x in state["heroes"].items():
        if x["status"] == "board":
            line = (f"{names.unit_label(C, int(u))} {x['hex']}")
            at = text.index(line)
            listed = text[at:text.index("\n", text.index("next:", at))]
            assert "next: " + " ".join(C.map.neighbours(x["hex"])) in listed.replace(
                "\n      ", " ")
    assert max(len(line) for line in text.splitlines()) <= 78


@pytest.mark.parametrize("name", sorted(CAMPAIGNS))
def test_14_no_event_line_names_a_counter_by_number_or_shows_a_seam(name: str,
                                                                    tmp: str) -> None:
    """Every event of every record, public and private, as every reader's report words it;
    and the rules' own texts (ledger bytes) are left as they were."""
    played = _played(name, tmp)
    raw_seen = 0
    for seq in range(1, played.last + 1):
        record = ledger.load((played.campaign.ledger_dir / ledger.record_name(seq)).read_bytes())
        private = engine.load_private(played.campaign, seq)["private"]
        for player, events in [(None, record.get("events", [])), *private.items()]:
            for e in events:
                raw_seen += bool(_BAD_EVENT.search(e["text"]))
                worded = RULESET.event_text({}, e)
                assert not _BAD_EVENT.search(worded), (seq, player, e["text"], worded)
    assert raw_seen  # the ledger still holds the rules' own words
    last = report.render(played.campaign, played.last, None, "txt")
    happened = last.split("WHAT HAPPENED")[1].split("DICE")[0]
    assert not _BAD_EVENT.search(happened)
    assert "reveals Fate" in happened and "(216 G 7)" in happened


def test_14_216_G_7_special_victory_said_once() -> None:
    event = {"type": "special-victory", "player": "bob", "fate": 31, "glory": 10,
             "text": "bob reveals Fate 31: Fate 31 (216 G 7): 5 per Prize you possess; "
                     "2 x 5 = 10 Glory.: +10 (216 G 7)."}
    assert RULESET.event_text({}, event) == ("bob reveals Fate 31: 5 per Prize you possess; "
                                             "2 x 5 = 10 Glory: +10 (216 G 7).")


def test_14_206_combat_rolls_name_the_units() -> None:
    event = {"type": "roll", "text": "round 1: unit 6 rolls 65 (red 6, white 5) + attack 40 "
             "= 105 against defense 61 of unit 10: kills"}
    assert RULESET.event_text({}, event) == (
        "round 1: Hercules (6) rolls 65 (red 6, white 5) + attack 40 = 105 against defense "
        "61 of Castor (10): kills")
    stopped = {"type": "move-stopped", "text": "Castor (10) stops: unit 10 may not be moved "
               "this game Turn (Pestilence, 210 G 5)."}
    assert RULESET.event_text({}, stopped) == ("Castor (10) stops: Castor may not be moved "
                                               "this game Turn (Pestilence, 210 G 5).")
    seam = {"type": "glory", "text": "bob +6 Glory: Oracle (204 K).; again."}
    assert RULESET.event_text({}, seam) == "bob +6 Glory: Oracle (204 K); again."

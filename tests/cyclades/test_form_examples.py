"""Issue 14 for Cyclades: "Examples must be legal for this player, now."

Demo campaigns on both boards (2 to 6 players, and team play) are played; at records along
each game the acting players' forms are rendered from their views, and:

- every commented example (each commented TOML assignment, each item of the commented
  ``actions`` list), uncommented on its own, validates against the GM state of that record
  (Setup 9 deploy, Cycle 8 act, Cycle 7 bid, Cycle 3 upkeep);
- the form sent back unchanged means what the static form means (its active lines are the
  static ones), and a filled example still passes ``pbem check``'s schema of the static form;
- every place, card and piece id the form names appears in that player's text report of the
  same record next to its name: ``Name (id)`` (a sea, which has no name: ``sea H4``).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.core import demo, engine, formcheck, ledger, report
from pbem.core.campaign import Campaign, open_campaign
from pbem.core.resources import order_form_text
from pbem.games.cyclades.components import KINDS, Components
from pbem.games.cyclades.game import RULESET
from pbem.games.cyclades.maps import Board, load_board

pytestmark = pytest.mark.xdist_group("cyclades-form-examples")  # campaigns made once

#: (players, options) of the demo campaigns: one of each board file, in four campaigns (the
#: suite's time budget): the Vanilla board's 2- and 5-player sides, the Titans board for 3-4
#: players (check_options: board=titans) with teams, and for 5-6 (six players take it by
#: default). The other sides differ only in their places, which the form code reads from
#: the board of the view whatever the side.
GAMES = [(2, {}), (5, {}), (6, {}), (4, {"board": "titans", "teams": "on"})]
#: Records looked at per campaign (the forms of every record up to this one).
RECORDS = 32
_KEY = re.compile(r"# ([a-z_]+) = ")
_TABLE = re.compile(r"\[orders\.([a-z_]+)\]")


def _label(game: tuple[int, dict[str, str]]) -> str:
    players, options = game
    return f"{players}p-" + ("-".join(f"{k}={v}" for k, v in sorted(options.items()))
                             or "auto")


@pytest.fixture(scope="module", params=GAMES, ids=_label)
def campaign(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> Campaign:
    players, options = request.param
    root = tmp_path_factory.mktemp("forms") / "d"
    done = demo.run(games.get("cyclades"), root, players=players, seed="forms",
                    options=dict(options), resolve=games.get, with_reports=False)
    return open_campaign(done.campaign_dir, games.get)


def examples(form: str) -> list[tuple[str, dict[str, Any]]]:
    """Every commented example of ``form`` as orders on its own: (its text, the orders).
    A ``# key = ..`` line with the more indented comment lines after it (an ``actions``
    list down to ``# ]``: one example per item), inside the ``[orders.x]`` table it is in."""
    lines = form.split("\n")
    out: list[tuple[str, dict[str, Any]]] = []
    table = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        header = _TABLE.fullmatch(line.strip())
        if header:
            table = header.group(1)
        match = _KEY.match(line)
        i += 1
        if match is None:
            continue
        chunk = [line[1:]]
        if line.rstrip().endswith("= ["):
            while lines[i - 1].strip() != "# ]":
                chunk.append(lines[i][1:])
                i += 1
        else:
            while i < len(lines) and re.match(r"#\s{2,}\S", lines[i]):
                chunk.append(lines[i][1:])
                i += 1
        text = "\n".join(chunk)
        data = tomllib.loads(text)  # a malformed example fails the test here
        (key, value), = data.items()
        values = [[item] for item in value] if key == "actions" else [value]
        for v in values:
            out.append((text, {table: {key: v}} if table else {key: v}))
    return out


def ids_named(form: str, known: set[str]) -> set[str]:
    """The ids ``form`` names: its quoted strings, and in its comments the words that are
    ids (not a key the comment speaks of: ``no metropolis example``, ``# keep = ``)."""
    found = set(re.findall(r'"([^"]+)"', form)) & known
    for line in form.split("\n"):
        if line.startswith("#"):
            words = re.finditer(r"\b([A-Za-z][A-Za-z0-9_]*)\b(?! example| =)", line)
            found |= {m.group(1) for m in words} & known
    return found


def universe(c: Components, board: Board) -> dict[str, str]:
    """Every id of a place, card or piece, and how a report names it."""
    out = {x.id: f"{x.name} ({x.id})" for k in KINDS for x in c.of_kind(k)}
    out.update({t: f"{board.territory(t).name} ({t})" for t in board.territory_ids})
    out.update({s: f"sea {s}" for s in board.sea_ids})
    return out


def forms_along(campaign: Campaign):  # type: ignore[no-untyped-def]
    """(record, GM state, phase, player, form) for every actor of the records looked at."""
    last = min(RECORDS, ledger.count(campaign.ledger_dir) - 1)
    for seq in range(1, last + 1):
        state = engine.load_state(campaign, seq)
        assert state is not None
        phase = RULESET.next_phase(state)
        if phase is None:
            return
        for player in phase.actors:
            form = RULESET.order_form(RULESET.view(state, player), phase, player)
            yield seq, state, phase, player, form


def test_14_form_examples_validate_for_the_player_now_setup_9_cycle_8_7_3(
        campaign: Campaign) -> None:
    """Setup 9 (deploy), Cycle 8 (act), Cycle 7 (bid), Cycle 3 (upkeep): each example of
    each form, alone, is legal for that player at that record."""
    kinds: dict[str, int] = {}
    acts: dict[str, int] = {}
    for seq, state, phase, player, form in forms_along(campaign):
        found = examples(form)
        for text, orders in found:
            problems = RULESET.validate(state, phase, player, orders)
            assert problems == [], (seq, phase.id, player, text, problems)
            for action in orders.get("actions", []):
                acts[action["do"]] = acts.get(action["do"], 0) + 1
        kinds[phase.kind] = kinds.get(phase.kind, 0) + len(found)
        assert max(len(line) for line in form.splitlines()) <= 78, (seq, phase.id)
    assert kinds.get("deploy") and kinds.get("bid") and kinds.get("act"), kinds
    assert {"build", "buy"} <= set(acts), acts  # real actions, not only comments


def test_14_a_form_unchanged_means_the_static_default_and_examples_fit_its_schema(
        campaign: Campaign) -> None:
    """The active lines are the static form's (sent back unchanged: the documented
    default), and every example, filled in, passes ``pbem check``'s schema."""
    for seq, _state, phase, _player, form in forms_along(campaign):
        static = order_form_text("cyclades", phase.kind)
        if not phase.id.endswith(".act.apollo"):
            assert tomllib.loads(form) == tomllib.loads(static), (seq, phase.id)
        table = formcheck.schema(static)
        for text, orders in examples(form):
            problems = formcheck._check_table(orders, table, "orders", phase.kind)
            assert problems == [], (seq, phase.id, text, problems)


def _unnamed(campaign: Campaign, places: bool) -> dict[str, set[str]]:
    """The ``Name (id)`` of each id a form names (``places``: territories and seas; else the
    cards and pieces) that the player's text report of the same record lacks, with where."""
    c: Components = campaign.ruleset.c  # type: ignore[attr-defined]
    state = engine.load_state(campaign, 1)
    assert state is not None
    board = load_board(state["game"]["board"], len(state["game"]["players"]))
    names = universe(c, board)
    wanted = {i for i in names if (i in board.territories or i in board.seas) == places}
    missing: dict[str, set[str]] = {}
    for seq, _state, phase, player, form in forms_along(campaign):
        if seq % 3 and phase.kind != "deploy":
            continue  # rendering every report is slow: every third record, and deployments
        flat = " ".join(report.render(campaign, seq, player, "txt").split())
        for cid in sorted(ids_named(form, wanted)):
            if names[cid] not in flat:
                missing.setdefault(names[cid], set()).add(f"{seq} {phase.id} {player}")
    return missing


def test_14_every_place_a_form_names_is_in_the_players_report_with_its_name(
        campaign: Campaign) -> None:
    """Territories as ``Name (id)``, seas as ``sea H4`` (the report's map appendix)."""
    missing = _unnamed(campaign, places=True)
    assert not missing, sorted(missing)


def test_14_every_card_and_piece_a_form_names_is_in_the_players_report_with_its_name(
        campaign: Campaign) -> None:
    """Gods, buildings, creatures, Heroes, Monuments, special Metropolises, items, favors
    the form names (its examples, its situation lines) are in the report as ``Name (id)``."""
    missing = _unnamed(campaign, places=False)
    assert not missing, sorted(missing)


def test_14_a_two_fleet_deploy_names_seas_of_this_board_next_to_the_land_it_takes(
        tmp_path: Path) -> None:
    """The static deploy example named H4 and H5 whatever the board (H5 is no sea of the
    3- and 5-player sides, and the Titans board has none such): each player's fleets
    example names seas on the shores of the territories of their troops example, or of
    those they hold."""
    root = tmp_path / "d"
    done = demo.run(games.get("cyclades"), root, players=3, seed="fleets",
                    options={}, resolve=games.get, with_reports=False)
    campaign = open_campaign(done.campaign_dir, games.get)
    seen = 0
    for seq in range(1, 8):
        state = engine.load_state(campaign, seq)
        assert state is not None
        phase = RULESET.next_phase(state)
        if phase is None or phase.kind != "deploy":
            continue
        player = phase.actors[0]
        board = load_board(state["game"]["board"], 3)
        form = RULESET.order_form(RULESET.view(state, player), phase, player)
        found = dict((next(iter(o)), o) for _, o in examples(form))
        land = {e["territory"] for e in found["troops"]["troops"]}
        land |= {t for t, x in state["territories"].items() if x["owner"] == player}
        for e in found["fleets"]["fleets"]:
            assert e["sea"] in board.seas and set(board.territories_of(e["sea"])) & land
        seen += 1
    assert seen == 3

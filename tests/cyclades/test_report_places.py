"""Issue 14 for Cyclades: a player never needs the data files to name a place. The text
report of every record ends with the map (every territory with its name, cornucopias and
neighbours, every sea), and a deployment form lists the places nobody holds."""

from __future__ import annotations

import pytest

from pbem import games
from pbem.core import demo, engine, ledger, report
from pbem.core.campaign import Campaign, open_campaign
from pbem.games.cyclades.maps import load_board

pytestmark = pytest.mark.xdist_group("cyclades-report-places")  # one campaign, made once


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    root = tmp_path_factory.mktemp("places") / "d"
    done = demo.run(games.get("cyclades"), root, players=3, seed="places", options={},
                    resolve=games.get, with_reports=False)
    return open_campaign(done.campaign_dir, games.get)


def test_14_every_place_is_named_in_the_text_report(campaign: Campaign) -> None:
    state = engine.load_state(campaign, 1)
    assert state is not None
    board = load_board(state["game"]["board"], len(state["game"]["players"]))
    for seq in (1, ledger.count(campaign.ledger_dir)):
        for fmt in report.FORMATS:
            text = report.render(campaign, seq, "alice", fmt)
            flat = " ".join(text.split())
            for tid in board.territory_ids:
                t = board.territory(tid)
                assert f"{t.name} ({tid})" in flat, (seq, fmt, tid)
                assert f"seas {', '.join(t.seas)}" in flat, (seq, fmt, tid)
            for sid in board.sea_ids:
                assert f"sea {sid}" in flat, (seq, fmt, sid)
        txt = report.render(campaign, seq, "alice", "txt")
        assert "THE MAP (every place as orders name it" in txt
        assert max(len(line) for line in txt.splitlines()) <= 78


def test_14_a_deployment_form_lists_the_places_nobody_holds(campaign: Campaign) -> None:
    ruleset = campaign.ruleset
    seen = 0
    for seq in range(1, 12):
        state = engine.load_state(campaign, seq)
        assert state is not None
        phase = ruleset.next_phase(state)
        if phase is None or phase.kind != "deploy":
            continue
        player = phase.actors[0]
        form = ruleset.order_form(ruleset.view(state, player), phase, player)
        flat = " ".join(line.lstrip("# ") for line in form.splitlines())
        board = load_board(state["game"]["board"], len(state["game"]["players"]))
        free = [t for t in board.territory_ids if not state["territories"][t]["owner"]]
        taken = [t for t in board.territory_ids if state["territories"][t]["owner"]]
        assert free and "Territories nobody holds:" in flat
        for t in free:
            assert f"{board.territory(t).name} ({t})" in flat, (seq, t)
        listed = flat.split("Territories nobody holds:")[1].split(".")[0]
        assert not any(f"({t})" in listed for t in taken), (seq, taken)
        seen += 1
    assert seen >= 3  # every player deploys in cycle 0


def test_14_apollo_act_form_offers_only_what_apollo_allows_and_its_example_is_legal(
        campaign: Campaign) -> None:
    """Forgotten 1 / Cycle 7.3: on Apollo the only action is the first player's prosperity
    marker. The form offers that (and the figures to keep), nothing else; sent back
    unchanged it validates, and so does its example, uncommented."""
    import tomllib

    from pbem.core.forms import render_form

    ruleset = campaign.ruleset
    seen = 0
    for seq in range(1, ledger.count(campaign.ledger_dir)):
        state = engine.load_state(campaign, seq)
        assert state is not None
        phase = ruleset.next_phase(state)
        if phase is None or not phase.id.endswith(".act.apollo"):
            continue
        player = phase.actors[0]
        form = ruleset.order_form(ruleset.view(state, player), phase, player)
        assert '{do = "recruit"' not in form and "free =" not in form
        (example,) = [line for line in form.splitlines() if line.startswith("# actions")]
        text = render_form(campaign.id, player, phase, form, "a" * 64, "b" * 64)
        body = text.split("[orders]\n", 1)[1].split("-----END")[0]
        unchanged = tomllib.loads(body)
        assert ruleset.validate(state, phase, player, unchanged) == []
        filled = tomllib.loads(body.replace("actions = []\n", "") + example[2:] + "\n")
        assert filled["actions"][0]["do"] == "prosperity"
        assert ruleset.validate(state, phase, player, filled) == [], filled
        seen += 1
    assert seen, "no Apollo phase in this campaign"


def test_14_what_is_on_offer_is_in_every_report_while_it_is(campaign: Campaign) -> None:
    """The Monuments, the special Metropolis cards and the face-up favor on offer were shown
    only as an event of cycle 0: every report lists them while they are on offer, with what
    each Monument needs."""
    from pbem.games.cyclades.components import Components

    components: Components = campaign.ruleset.c  # type: ignore[attr-defined]
    last = ledger.count(campaign.ledger_dir)
    for seq in (2, last // 2, last):
        state = engine.load_state(campaign, seq)
        assert state is not None
        for fmt in report.FORMATS:
            text = report.render(campaign, seq, "bob", fmt).replace("\\_", "_")  # md escapes
            flat = " ".join(text.split())
            for m in state["monuments"]["offer"]:
                card = components.by_id(m)
                assert f"{card.name} ({m}; needs" in flat, (seq, fmt, m)
            for m in state["metropolises"]["offer"]:
                assert f"{components.by_id(m).name} ({m})" in flat, (seq, fmt, m)
            if state["favors"]["face_up"]:
                assert "Face-up divine favor:" in flat

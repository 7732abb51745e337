"""Action cards in the active player's turn (ACTION CARDS, Action 0-3, actions.toml), with
the ship's move they change (Kylix Move 1-2) and the challenge they help."""

from __future__ import annotations

from typing import Any

from pbem.games.deukalion import actions, kylix
from tests.deukalion.test_kylix import DOWN, SIDE, C, build, notes, problems, run

RING = ["d3", "d4", "d5", "e5", "f5", "f4", "f3"]  # water around the Kylix (Ship 4), from d2


def ship(path: list[str], **more: Any) -> dict[str, Any]:
    return {"action": "ship", "path": path, **more}


def play(card: str, **more: Any) -> dict[str, Any]:
    return {"action": "play", "card": card, **more}


def test_action_1_single_use_card_goes_to_the_discards() -> None:
    s = build(hydra="d5", ships={"alice": "a1", "bob": "b1", "carol": "a3"})
    s["hands"]["alice"] = ["hydra_plus"]
    path = ["d4", "d3", "e3", "f3", "f4"]  # 5 squares: the Hydra die 3 + 2
    assert problems(s, {"step": [{"action": "hydra", "path": path}]})
    run(s, {"step": [play("hydra_plus"), {"action": "hydra", "path": path}]})
    assert s["hydra"] == "f4" and s["hands"]["alice"] == []
    assert s["action_discard"] == ["hydra_plus"] and s["permanents"]["alice"] == []


def test_action_1_permanent_card_stays_face_up_and_works_every_turn() -> None:
    s = build()
    s["hands"]["alice"] = ["swift_sails"]
    assert problems(s, {"rotation": 2, "step": [ship(RING[:4])]})  # Move 3
    run(s, {"rotation": 2, "step": [play("swift_sails"), ship(RING[:4])]})
    assert s["ships"]["alice"] == RING[3]
    assert s["permanents"]["alice"] == ["swift_sails"] and s["action_discard"] == []
    s["effects"] = {}  # a later turn: the card still counts
    assert actions.move_limit(C, s, "alice", 3) == 4


def test_action_2_any_number_of_cards_in_one_turn() -> None:
    """Action 2's example: 2 extra squares, twice, and hoplites back in the same turn."""
    s = build(underworld={"alice": 2, "bob": 0, "carol": 0})
    s["board"]["alice"]["hoplites"] = 8
    s["hands"]["alice"] = ["move_plus", "move_plus", "reclaim"]
    run(s, {"rotation": 2, "step": [play("move_plus"), play("move_plus"), play("reclaim"),
                                    ship(RING)]})  # Move 3 + 2 + 2 = 7
    assert s["ships"]["alice"] == RING[-1] and s["board"]["alice"]["hoplites"] == 10
    assert s["hands"]["alice"] == ["sea_legs"]  # the Card die 3 of rotation 2
    assert sorted(s["action_discard"]) == [
        "move_plus", "move_plus", "reclaim"]


def test_action_2_a_card_for_the_ship_must_come_before_the_ship_step() -> None:
    s = build()
    s["hands"]["alice"] = ["move_plus", "challenge_plus"]
    assert problems(s, {"rotation": 2, "step": [ship(RING[:2]), play("move_plus")]})
    assert problems(s, {"rotation": 2, "step": [ship(RING[:2]), play("challenge_plus")]})
    assert problems(s, {"rotation": 2, "step": [ship(RING[:5]), play("move_plus")]})


def test_action_1_a_card_not_in_the_hand_is_refused() -> None:
    s = build()
    s["hands"]["alice"] = ["move_plus"]
    said = problems(s, {"step": [play("move_plus"), play("move_plus")]})  # one copy
    assert len(said) == 1 and "not in your hand" in said[0]
    assert problems(s, {"step": [play("no_such_card")]})


def test_action_3_a_card_drawn_this_turn_is_played_at_once() -> None:
    """The Card die 3 (rotation 1: W on Cards, S = 2 on Move); the deck's top is a Fair Wind:
    drawn, played, the ship moves 2 + 2. At submit the card is unknown: a note, no problem."""
    orders = {"rotation": 1, "step": [{"action": "card"}, play("move_plus"), ship(RING[:4])]}
    s = build(action_deck=["draw", "move_plus"])
    assert any("not in your hand now" in n for n in notes(s, orders))
    run(s, orders)
    assert s["ships"]["alice"] == RING[3] and s["action_discard"] == ["move_plus"]
    # another card on top: the play is skipped (named only to alice), so is the long move
    s = build(action_deck=["move_plus", "draw"])
    events, private = run(s, orders)
    assert s["ships"]["alice"] == "d2" and s["hands"]["alice"] == ["draw"]
    assert "Fair Wind" in private["alice"][-1]["text"]
    assert [e["type"] for e in events if e["type"] == "step-skipped"] == ["step-skipped"]
    assert all("Fair Wind" not in e["text"] for e in events)
    # before the draw, a card not in the hand is refused outright
    assert problems(s, {"rotation": 1, "step": [play("move_plus"), {"action": "card"}]})


def test_action_reclaim_card_up_to_its_amount_with_dumping() -> None:
    s = build(underworld={"alice": 3, "bob": 0, "carol": 0})
    s["board"]["alice"] = {"hoplites": 7, "chests": ["red", "black", "green"]}
    s["hands"]["alice"] = ["reclaim"]
    assert problems(s, {"rotation": 0, "step": [play("reclaim", count=3)]})
    assert problems(s, {"step": [play("move_plus", count=1)]})  # count only for reclaim
    run(s, {"rotation": 0, "step": [play("reclaim", dump=["black", "green"])]})
    assert s["board"]["alice"] == {"hoplites": 9, "chests": ["red"]}
    assert s["underworld"]["alice"] == 1


def test_action_draw_card_draws_two_in_secret() -> None:
    s = build()
    s["hands"]["alice"] = ["draw"]
    events, private = run(s, {"step": [play("draw")]})
    assert s["hands"]["alice"] == ["sea_legs", "move_plus"]
    assert any(e["type"] == "action-draw" and e["count"] == 2 for e in events)
    assert "Sea Legs" in private["alice"][0]["text"]
    assert all("Sea Legs" not in e["text"] for e in events)


def test_action_challenge_plus_adds_a_point_to_the_turns_challenge() -> None:
    """Sparta (value 3) from d4: a throw of 2.5 fails; with the Blessing of Ares it is 3.5."""
    def position(hand: list[str]) -> dict[str, Any]:
        s = build()
        s["board"]["alice"]["hoplites"] = 3
        s["chests"]["sparta"] = ["blue"]
        s["hands"]["alice"] = hand
        return s

    end = ship(RING[:2], then="challenge_city", target="sparta")
    s = position([])
    run(s, {"rotation": 2, "step": [end]}, public=[DOWN, DOWN, SIDE])
    assert s["board"]["alice"]["chests"] == []
    s = position(["challenge_plus"])
    run(s, {"rotation": 2, "step": [play("challenge_plus"), end]}, public=[DOWN, DOWN, SIDE])
    assert s["board"]["alice"]["chests"] == ["blue"] and s["chests"]["sparta"] == []


def test_kylix_move_1_ship_path_checked_against_the_board_at_submit() -> None:
    s = build()
    assert problems(s, {"rotation": 2, "step": [ship(["d3", "e4"])]})  # the Kylix (Ship 4)
    assert problems(s, {"rotation": 2, "step": [ship(["e3"])]})  # diagonal (Map 13)
    assert problems(s, {"step": [ship(["d3", "d4"], then="found", target="sparta")]})
    assert problems(s, {"step": [ship(["d3"], then="challenge_city", target="sparta")]})
    assert problems(s, {"rotation": 2, "step": [ship(RING[:4])]})  # Move 3
    plan, bad, _ = kylix.plan_kylix(C, s, "alice", {"rotation": 2, "step": [ship(RING[:3])]})
    assert bad == [] and plan["steps"][1] == {"action": "ship", "path": RING[:3]}


def test_pursuit_cards_3_then_cards_sacrifices_the_named_cards() -> None:
    """p02 on display: 2 Action cards at Rhodes (g3) from f3; ``give`` names them."""
    s = build()
    s["hands"]["alice"] = ["draw", "move_plus", "reclaim"]
    orders = {"rotation": 2, "step": [play("move_plus"), ship(
        ["d3", "e3", "f3"], then="cards", target="rhodes", give=["draw", "reclaim"])]}
    assert problems(s, {"rotation": 2, "step": [ship(["d3", "e3", "f3"], then="cards",
                                                     target="rhodes", give=["sea_legs"])]})
    run(s, orders)
    assert "p02" in s["achieved"]["alice"]
    assert s["hands"]["alice"] == ["sea_legs"]  # drawn by the Card die 3, first
    assert s["action_deck"][:2] == ["draw", "reclaim"]  # to the bottom (Pursuit Cards 3)

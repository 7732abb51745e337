"""The Monster Manual, monster by monster (Monster 0 and every entry): each one's printed
health, Action Points and combat dice as the engine plays them, and the entries whose rules
act outside a combat round (Monster Amazon, Monster Lycan, Monster Automaton)."""

from __future__ import annotations

import pytest

from pbem.games.hetairos import combat, monsters, sites, turn
from pbem.games.hetairos.table import load
from tests.hetairos import build
from tests.scripted import Scripted


class Highest(Scripted):
    """Every die shows its highest face (a d6 a 6, a d3 a 3)."""

    def draw(self, label: str, n: int) -> int:
        self.values = [n]
        return super().draw(label, n)

#: The Monster Manual as printed (analysis 3.1): health, AP (None: rolled), dice and the
#: fixed part of the roll; the source is the seed's MONSTER MANUAL section.
PRINTED = {
    "aristocrat": (2, 5, 1, 0), "amazon": (1, 5, 1, 0), "automaton": (1, 5, 1, 0),
    "cerberus": (10, None, 5, 0), "chimera": (12, 6, 1, 0), "cockatrice": (6, 9, 3, 0),
    "dragon": (10, 6, 3, 0), "fury": (2, 7, 1, 0), "giant": (10, 5, 2, 3),
    "gorgon": (8, 6, 2, 0), "gryphon": (8, 7, 2, 2), "hoplite": (1, 5, 1, 0),
    "hydra": (8, 6, 2, 0), "kobalos": (1, 5, 1, 0), "lampad": (1, 5, 1, 0),
    "lycan": (10, 5, 3, 0), "manticore": (10, 6, 3, 0), "minion": (1, 5, 1, 0),
    "minotaur": (12, 5, 4, 0), "mormo": (2, 5, 1, 0), "nemean_lion": (9, 5, 2, 0),
    "promethean": (2, 5, 1, 0), "shade": (1, 5, 1, 0), "sphinx": (10, 6, 2, 0),
    "stymphalian_bird": (1, 5, 1, 0), "witch": (1, 5, 1, 0),
}


def test_every_monster_of_the_manual_is_printed() -> None:
    assert set(PRINTED) == set(load().world.monsters)


@pytest.mark.parametrize("kind", sorted(PRINTED))
def test_monster_stat_line_as_played(kind: str) -> None:
    """Each monster as it comes into play and fights a round: its health, its AP (Cerberus
    d6+4 each turn: a 6 gives 10), and its roll with every die a 6 (the Chimera one die per
    opponent: one here)."""
    hp, ap, dice, plus = PRINTED[kind]
    s = build.state(("ann",))
    t = build.table(s)
    t.dice = Highest()
    mon = sites.new_model(t, kind, "0,0")
    assert mon["hp"] == mon["max_hp"] == hp
    assert monsters.ap_of(t, mon) == (ap if ap is not None else 10)
    hero = build.pc(s, "ann", "hoplite")
    hero["hp"] = hero["max_hp"] = 40  # (takes any blow)
    combat.attack(t, mon, hero)
    fight = next(e for e in t.events if e["type"] == "combat")
    assert fight["totals"][0] == 6 * dice + plus


def test_monster_amazon_attacks_the_next_square_rather_than_moving_in() -> None:
    s = build.state(("ann",))
    build.square(s, "1,0", "empty_cavern")
    hero = build.pc(s, "ann", "hoplite", "0,0")
    amazon = build.monster(s, "amazon", "1,0")
    t = build.table(s, then=6)
    monsters.act(t, amazon)
    assert amazon["at"] == "1,0"  # never moved
    fights = [e for e in t.events if e["type"] == "combat"]
    # its 5 AP, five rounds at range from its own square (the Hoplite 6+2 wins each: it
    # shoots back, no melee; one point a round on the Amazon, who has 1: the first ends it)
    assert len(fights) >= 1 and all(e["ranged"] for e in fights)
    assert fights[0]["attackers"] == [amazon["id"]] and fights[0]["defenders"] == [hero["id"]]


def test_monster_automaton_never_captured_and_deals_2() -> None:
    s = build.state(("ann",))
    hero = build.pc(s, "ann", "hoplite")
    auto = build.monster(s, "automaton", "0,0")
    t = build.table(s, [6, 1])  # the Hoplite 6+2 beats it: slain, no imprisoning roll
    combat.attack(t, hero, auto)
    assert auto["hp"] == 0 and not auto.get("captured") and hero["prisoners"] == []
    auto2 = build.monster(s, "automaton", "0,0")
    t2 = build.table(s, [6, 1, 1, 1])  # it wins: 2 damage (the Hoplite's saves roll 1, 1)
    combat.attack(t2, auto2, hero)
    assert hero["hp"] == 6


def test_monster_lycan_cured_in_an_olympian_shrine_becomes_an_aristocrat() -> None:
    s = build.state(("ann",))
    build.square(s, "1,0", "olympian_shrine")
    hero = build.pc(s, "ann", "philosopher", "1,0")
    lycan = build.monster(s, "lycan", "1,0")
    t = build.table(s, [3, 2])  # the Philosopher's two dice: 3+2 = 5, short of 6+
    assert turn.cure(t, hero, lycan["id"]) == "" and lycan["side"] == "monster"
    t2 = build.table(s, [4, 2])  # 6: the curse is lifted
    assert turn.cure(t2, hero, lycan["id"]) == ""
    assert (lycan["side"], lycan["owner"], lycan["type"], lycan["hp"]) == (
        "npc", "ann", "aristocrat", 2)
    assert hero["ap"] == 3  # 1 AP each, as the attack it replaces
    other = build.monster(s, "lycan", "0,0")
    hero["at"] = "0,0"
    assert "Olympian shrine" in turn.cure(build.table(s), hero, other["id"])

"""100-102 and 304: the set-up, checked on the real map for several seeds and player counts."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.dice import Rng, Stream
from pbem.games.mythology import setup
from pbem.games.mythology.components import load
from pbem.games.mythology.game import RULESET

C = load()
M = C.map
NAMES = ("ann", "ben", "cyd", "dot", "eve", "fay", "gus", "hal", "ida", "jon")


def _setup(players: int, seed: str, option: str = "random") -> dict[str, Any]:
    rng = Rng(Stream(f"p/{seed}".encode().ljust(32, b".")),
              Stream(f"s/{seed}".encode().ljust(32, b".")))
    names = NAMES[:players]
    outcome = RULESET.setup(names, {"setup": option, "prayer": "off", "lesser_evil": "off",
                                    "zeus": ""}, {p: {} for p in names}, rng)
    return outcome.state


CASES = [(n, s) for n in (2, 4, 5, 7, 10) for s in ("a", "b")]


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_101_every_god_is_different(players: int, seed: str) -> None:
    gods = list(_setup(players, seed)["gods"].values())
    assert len(set(gods)) == players and set(gods) <= set(C.gods)


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_102_B_prizes_near_the_river_ocean_five_apart_on_land(players: int, seed: str) -> None:
    hexes = [x["hex"] for x in _setup(players, seed)["prizes"].values()]
    assert len(hexes) == 10 and len(set(hexes)) == 10                       # B 1, 5
    shores = setup._ocean_shores(M)
    for h in hexes:
        assert M.is_land(h)                                                  # B 6
        assert min(M.distance(h, s) for s in shores) <= 2                    # B 2
    assert all(M.distance(a, b) >= 5 for a in hexes for b in hexes if a != b)  # B 3


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_102_C_hero_helpers_placement(players: int, seed: str) -> None:
    state = _setup(players, seed)
    helpers = [x["hex"] for x in state["helpers"].values()]
    prizes = [x["hex"] for x in state["prizes"].values()]
    assert len(set(helpers)) == len(helpers)                                 # C 1, 2
    for h in helpers:
        assert h not in prizes and M.is_land(h)                              # C 3, 4
        assert M.distance_to_area(h, "greece") > 6                           # C 5
        assert all(M.distance(h, p) > 3 for p in prizes)                     # C 6


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_102_D_monsters_alone_and_away_from_greece(players: int, seed: str) -> None:
    state = _setup(players, seed)
    monsters = [x["hex"] for x in state["monsters"].values()]
    others = [x["hex"] for x in state["prizes"].values()] + [
        x["hex"] for x in state["helpers"].values()]
    assert len(monsters) == 32 and len(set(monsters)) == 32                  # D 1
    assert not set(monsters) & set(others)                                   # D 2
    assert all(M.distance_to_area(h, "greece") > 2 for h in monsters)        # D 3


@pytest.mark.parametrize(("players", "count"), [(2, 18), (4, 18), (5, 22), (6, 22), (7, 28),
                                                (10, 28)])
def test_102_E_5_heroes_by_player_count_filling_greece_outward(players: int,
                                                               count: int) -> None:
    state = _setup(players, "e")
    on = {int(h): x["hex"] for h, x in state["heroes"].items() if x["status"] == "board"}
    reserve = [int(h) for h, x in state["heroes"].items() if x["status"] == "reserve"]
    assert len(on) == count and len(reserve) == 32 - count
    hexes = list(on.values())
    assert len(set(hexes)) == count and all(M.is_land(h) for h in hexes)      # E 1, 2
    rings = [M.distance_to_area(h, "greece") for h in hexes]
    assert max(rings) <= 2                                                    # E 3
    greece_land = [h for h in M.area("greece").hexes if M.is_land(h)]
    taken = {x["hex"] for x in state["prizes"].values()} | set(hexes)
    if any(r > 0 for r in rings):  # E 3: Greece is filled before the hexes around it
        assert all(h in taken for h in greece_land)


@pytest.mark.parametrize(("players", "size"), [(6, 6), (7, 5)])
def test_102_F_010_A_hands_of_six_or_five(players: int, size: int) -> None:
    state = _setup(players, "f")
    assert {len(h) for h in state["hands"].values()} == {size}
    everywhere = state["deck"] + [c for h in state["hands"].values() for c in h]
    assert sorted(everywhere, key=int) == [str(i) for i in range(1, 55)]


def test_102_G_each_god_holds_a_fate_none_of_the_returned_ones() -> None:
    held = _setup(4, "g")["fate_held"]
    assert len(held) == 4 and not set(held.values()) & {2, 3, 9, 10, 11, 12}


def test_304_historical_set_up_puts_prizes_and_monsters_on_their_hexes() -> None:
    state = _setup(4, "h", "historical")
    assert {p: x["hex"] for p, x in state["prizes"].items()} == {
        p: x.historical_hex for p, x in C.prizes.items()}
    assert {int(m): x["hex"] for m, x in state["monsters"].items()} == {
        m: x.historical_hex for m, x in C.monsters.items()}
    assert state["prizes"]["pegasus"]["hex"] == "3506"  # 304 B's first line


def test_008_C_every_god_begins_with_ten_glory() -> None:
    assert set(_setup(3, "i")["glory"].values()) == {10}

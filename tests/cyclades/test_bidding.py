"""The god auction (Cycle 7, Setup 8, Forgotten 4, Misc Two Player 4-6) run from proxy bids.

Every known value is computed by hand in a comment from the rule it tests. At the end, an
independent direct simulation of the table procedure (a stack of ousted pillars, a board keyed
by pillar) is checked against :func:`run_auction` by a Hypothesis property test.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.errors import IllegalOrderError
from pbem.games.cyclades.bidding import (
    APOLLO,
    Auction,
    Entry,
    max_offer,
    parse_bids,
    payment,
    run_auction,
    validate_bids,
)
from tests.budget import examples

GODS = ("poseidon", "ares", "zeus", "athena", "kronos", "hades")
E = Entry


def solo(track: Sequence[str], order: Sequence[str], lists: Mapping[str, Sequence[Entry]],
         gold: int | Mapping[str, int] = 10, priests: Mapping[str, int] | None = None,
         setup: bool = False) -> Auction:
    """One pillar per player, named after the player."""
    golds = {p: gold for p in order} if isinstance(gold, int) else dict(gold)
    return run_auction(track, [(p, p) for p in order], lists, golds, priests or {},
                       two_player=False, setup=setup)


def duo(track: Sequence[str], order: Sequence[str], lists: Mapping[str, Sequence[Entry]],
        gold: Mapping[str, int], priests: Mapping[str, int] | None = None, setup: bool = False,
        single_island: frozenset[str] = frozenset()) -> Auction:
    """Two-player: ``order`` holds pillar ids "alice#1"; the player is the part before '#'."""
    return run_auction(track, [(p, p.split("#")[0]) for p in order], lists, gold,
                       priests or {}, two_player=True, setup=setup,
                       single_island=single_island)


def kinds(a: Auction) -> list[tuple[str, str, str, int]]:
    """(event, pillar, god or apollo, amount) of the bidding steps, for compact asserts."""
    return [(e["event"], e["pillar"], e.get("god", APOLLO), e.get("amount", 0))
            for e in a.events if e["event"] != "pay"]


# --------------------------------------------------------------------------- Cycle 7


def test_cycle_7_1_pillars_bid_in_track_order() -> None:
    # Both want Zeus at 3; alice's pillar is first on the track, so bob must offer strictly
    # more and his 3 does not oust her: he takes his second choice, Ares.
    a = solo(["zeus", "ares"], ["alice", "bob"],
             {"alice": [E("zeus", 3)], "bob": [E("zeus", 3), E("ares", 1)]})
    assert a.holders == {"zeus": ("alice", 3), "ares": ("bob", 1)}
    assert kinds(a) == [("bid", "alice", "zeus", 3), ("bid", "bob", "ares", 1)]


def test_cycle_7_2_three_deep_outbid_cascade() -> None:
    # Track X=zeus, Y=ares, Z=athena; order dave, anna, ben, cleo.
    # dave takes athena 2, anna ares 2, ben zeus 2; cleo offers 3 on zeus and ousts ben (C ousts
    # B from X); ben may not go back to zeus, offers 3 on ares and ousts anna (B ousts A from Y);
    # anna offers 3 on athena and ousts dave (A ousts D from Z); dave's list is spent: Apollo.
    lists = {"dave": [E("athena", 2)], "anna": [E("ares", 2), E("athena", 3)],
             "ben": [E("zeus", 2), E("ares", 3)], "cleo": [E("zeus", 3)]}
    a = solo(["zeus", "ares", "athena"], ["dave", "anna", "ben", "cleo"], lists, gold=5)
    assert [e for e in a.events if e["event"] != "pay"] == [
        {"event": "bid", "step": 1, "pillar": "dave", "player": "dave", "depth": 0,
         "god": "athena", "amount": 2},
        {"event": "bid", "step": 2, "pillar": "anna", "player": "anna", "depth": 0,
         "god": "ares", "amount": 2},
        {"event": "bid", "step": 3, "pillar": "ben", "player": "ben", "depth": 0,
         "god": "zeus", "amount": 2},
        {"event": "bid", "step": 4, "pillar": "cleo", "player": "cleo", "depth": 0,
         "god": "zeus", "amount": 3, "ousts": "ben", "ousted_amount": 2},
        {"event": "bid", "step": 5, "pillar": "ben", "player": "ben", "depth": 1,
         "ousted_from": "zeus", "god": "ares", "amount": 3, "ousts": "anna",
         "ousted_amount": 2},
        {"event": "bid", "step": 6, "pillar": "anna", "player": "anna", "depth": 2,
         "ousted_from": "ares", "god": "athena", "amount": 3, "ousts": "dave",
         "ousted_amount": 2},
        {"event": "apollo", "step": 7, "pillar": "dave", "player": "dave", "depth": 3,
         "ousted_from": "athena", "prosperity": True},
    ]
    assert a.holders == {"zeus": ("cleo", 3), "ares": ("ben", 3), "athena": ("anna", 3)}
    assert a.apollo == ["dave"] and a.prosperity == "dave"
    assert a.payments == {"dave": 0, "anna": 3, "ben": 3, "cleo": 3}
    assert a.transcript()[3:7] == [
        "4. cleo bids 3 on Zeus, ousting ben (2); ben must bid again at once.",
        "5. ben (ousted from Zeus) bids 3 on Ares, ousting anna (2); anna must bid again at "
        "once.",
        "6. anna (ousted from Ares) bids 3 on Athena, ousting dave (2); dave must bid again at "
        "once.",
        "7. dave (ousted from Athena) goes to Apollo and takes the prosperity marker.",
    ]


def test_cycle_7_2_outbid_player_rebids_at_once() -> None:
    # bob ousts alice from zeus on his turn; alice's rebid (ares) comes before carol's turn,
    # so carol, who also wanted ares at 2, finds it taken at 2 and goes to athena.
    lists = {"alice": [E("zeus", 2), E("ares", 2)], "bob": [E("zeus", 4)],
             "carol": [E("ares", 2), E("athena", 1)]}
    a = solo(["zeus", "ares", "athena"], ["alice", "bob", "carol"], lists)
    assert kinds(a) == [("bid", "alice", "zeus", 2), ("bid", "bob", "zeus", 4),
                        ("bid", "alice", "ares", 2), ("bid", "carol", "athena", 1)]


def test_cycle_7_2_equal_offer_does_not_oust() -> None:
    # "you must outbid them": 4 against a standing 4 is not more, the entry is skipped.
    a = solo(["zeus"], ["alice", "bob"], {"alice": [E("zeus", 4)], "bob": [E("zeus", 4)]})
    assert a.holders == {"zeus": ("alice", 4)} and a.apollo == ["bob"]


def test_cycle_7_2_ousted_pillar_does_not_return_to_the_same_god() -> None:
    # Base ousted. A list entry can never retake the god just lost (its offer was beaten), so
    # the bar shows in a forced bid (Setup 8). bob lists zeus 9, which he cannot pay (7 gold):
    # forced, he takes the listed zeus at 1; carol ousts him with 2. Without the bar he would
    # take the listed zeus again at 3; barred from it, he takes the cheapest other god, ares 1.
    lists = {"alice": [E(APOLLO, 0)], "bob": [E(APOLLO, 0), E("zeus", 9)],
             "carol": [E("zeus", 2)]}
    a = solo(["zeus", "ares"], ["alice", "bob", "carol"], lists, gold=7, setup=True)
    assert kinds(a) == [("apollo", "alice", APOLLO, 0), ("bid", "bob", "zeus", 1),
                        ("bid", "carol", "zeus", 2), ("bid", "bob", "ares", 1)]
    assert a.events[3]["ousted_from"] == "zeus"


def test_cycle_7_2_only_the_god_just_lost_is_barred() -> None:
    # Continuing the case above with dave, who ousts bob from ares at 2: bob is now barred
    # from ares only, so his forced bid returns to his listed zeus at carol's 2 + 1 = 3,
    # ousting carol; carol (barred from zeus, Apollo taken) takes the free athena at 1.
    lists = {"alice": [E(APOLLO, 0)], "bob": [E(APOLLO, 0), E("zeus", 9)],
             "carol": [E("zeus", 2)], "dave": [E("ares", 2)]}
    a = solo(["zeus", "ares", "athena"], ["alice", "bob", "carol", "dave"], lists, gold=7,
             setup=True)
    assert kinds(a)[4:] == [("bid", "dave", "ares", 2), ("bid", "bob", "zeus", 3),
                            ("bid", "carol", "athena", 1)]
    assert a.holders == {"zeus": ("bob", 3), "ares": ("dave", 2), "athena": ("carol", 1)}
    assert a.payments == {"alice": 0, "bob": 3, "carol": 1, "dave": 2}


def test_cycle_7_3_two_on_apollo_only_first_gets_prosperity() -> None:
    # One god, three players: alice takes zeus; bob and carol both end on Apollo (room for
    # everyone), bob first.
    a = solo(["zeus"], ["alice", "bob", "carol"], {"alice": [E("zeus", 1)]})
    assert a.apollo == ["bob", "carol"] and a.prosperity == "bob"
    flags = [e["prosperity"] for e in a.events if e["event"] == "apollo"]
    assert flags == [True, False]
    assert a.payments == {"alice": 1, "bob": 0, "carol": 0}


def test_cycle_7_3_prosperity_goes_to_first_arrival_not_first_turn() -> None:
    # alice bids first (zeus 2); bob goes to Apollo on his turn; carol ousts alice, who then
    # also goes to Apollo: bob arrived first in the cascade timeline, so he has the marker.
    lists = {"alice": [E("zeus", 2)], "bob": [E(APOLLO, 0)], "carol": [E("zeus", 3)]}
    a = solo(["zeus", "ares"], ["alice", "bob", "carol"], lists)
    assert a.apollo == ["bob", "alice"] and a.prosperity == "bob"


def test_cycle_7_3_apollo_ranked_above_later_entries() -> None:
    # alice lists zeus 5, then Apollo, then ares 1: zeus is free so she takes it; bob lists
    # Apollo above ares and goes to Apollo although ares is free.
    lists = {"alice": [E("zeus", 5), E(APOLLO, 0), E("ares", 1)],
             "bob": [E(APOLLO, 0), E("ares", 1)]}
    a = solo(["zeus", "ares"], ["alice", "bob"], lists)
    assert a.holders == {"zeus": ("alice", 5)} and a.apollo == ["bob"]


def test_cycle_7_4_bid_above_ten() -> None:
    # 12 gold: alice opens zeus at 11, bob outbids with 12 (both above the printed 10).
    lists = {"alice": [E("zeus", 11)], "bob": [E("zeus", 12)]}
    a = solo(["zeus"], ["alice", "bob"], lists, gold=12)
    assert a.holders == {"zeus": ("bob", 12)} and a.payments["bob"] == 12
    assert "bids 12 on Zeus, ousting alice (11)" in a.transcript()[1]


def test_cycle_7_5_only_final_bids_are_paid() -> None:
    # alice bid 4 on zeus, was ousted and ended on ares at 1: she pays 1, not 4 or 5; all pay
    # after the last bid (the pay events come last).
    lists = {"alice": [E("zeus", 4), E("ares", 1)], "bob": [E("zeus", 5)]}
    a = solo(["zeus", "ares"], ["alice", "bob"], lists)
    assert a.payments == {"alice": 1, "bob": 5}
    names = [e["event"] for e in a.events]
    assert names == ["bid", "bid", "bid", "pay", "pay"]


def test_cycle_7_6_priest_discount_one_pillar() -> None:
    # Bid 5 with 2 Priest cards: 5 - 2 = 3.
    a = solo(["zeus"], ["alice"], {"alice": [E("zeus", 5)]}, priests={"alice": 2})
    assert a.payments == {"alice": 3}
    assert a.events[-1] == {"event": "pay", "player": "alice", "bids": [5], "bid": 5,
                            "priests": 2, "paid": 3}
    assert a.transcript()[-1] == "alice pays 3 (bid 5, 2 priests)."


def test_base_priests_payment_floor_is_one_gold() -> None:
    # Base priests: bid 2 with 3 Priests would be -1; an offering to a god costs at least 1.
    a = solo(["zeus"], ["alice"], {"alice": [E("zeus", 2)]}, priests={"alice": 3})
    assert a.payments == {"alice": 1}
    assert payment([], 5) == 0  # Apollo: nothing


def test_cycle_7_6_priests_let_a_player_offer_above_their_gold() -> None:
    # Base affordability with priests: 3 gold + 2 priests can offer 5 (pays 3) but not 6.
    assert max_offer(3, 2) == 5 and max_offer(0, 4) == 0
    a = solo(["zeus", "ares"], ["alice"], {"alice": [E("zeus", 6), E("ares", 5)]}, gold=3,
             priests={"alice": 2})
    assert a.holders == {"ares": ("alice", 5)} and a.payments == {"alice": 3}


def test_base_affordability_skips_what_cannot_be_paid() -> None:
    # 4 gold: zeus 5 is skipped; ares 4 is taken.
    a = solo(["zeus", "ares"], ["alice"], {"alice": [E("zeus", 5), E("ares", 4)]}, gold=4)
    assert a.holders == {"ares": ("alice", 4)}
    # With no gold even a 1 on a free god cannot be paid: straight to Apollo.
    a = solo(["zeus"], ["alice"], {"alice": [E("zeus", 1)]}, gold=0)
    assert a.apollo == ["alice"] and a.holders == {}


def test_inactive_gods_on_a_list_are_skipped() -> None:
    # poseidon is not on the track this cycle: the entry is passed over.
    a = solo(["zeus"], ["alice"], {"alice": [E("poseidon", 3), E("zeus", 2)]})
    assert a.holders == {"zeus": ("alice", 2)}


# --------------------------------------------------------------------------- two players


TRACK3 = ["zeus", "ares", "athena"]  # Misc Two Player 1: gods as in a 4-player game


def test_misc_two_player_6_priest_discount_total() -> None:
    # Bids 4 + 3 = 7 with 2 Priests: the discount applies once to the total, 7 - 2 = 5 (not
    # 4-2 + 3-2 = 3).
    lists = {"alice": [E("zeus", 4), E("ares", 3)], "bob": []}
    a = duo(TRACK3, ["alice#1", "bob#1", "alice#2", "bob#2"], lists,
            {"alice": 7, "bob": 5}, priests={"alice": 2}, single_island=frozenset({"bob"}))
    assert a.holders == {"zeus": ("alice#1", 4), "ares": ("alice#2", 3)}
    assert a.payments == {"alice": 5, "bob": 0}
    assert "alice pays 5 (bids 4 + 3 = 7, 2 priests)." in a.transcript()


def test_misc_two_player_6_floor_is_one_gold_per_god() -> None:
    # Our reading of Base priests with two pillars: 1 + 1 = 2 with 4 Priests pays 2.
    assert payment([1, 1], 4) == 2 and payment([4, 3], 2) == 5 and payment([6], 0) == 6


def test_misc_two_player_4_affordability_counts_the_other_pillar() -> None:
    # alice has 6 gold: her first pillar holds zeus at 4, so her second pillar's ares 3 would
    # make 7 > 6 and is skipped; athena 2 makes 6 and is taken.
    lists = {"alice": [E("zeus", 4), E("ares", 3), E("athena", 2)], "bob": []}
    a = duo(TRACK3, ["alice#1", "alice#2", "bob#1", "bob#2"], lists,
            {"alice": 6, "bob": 0}, single_island=frozenset({"bob"}))
    assert a.holders == {"zeus": ("alice#1", 4), "athena": ("alice#2", 2)}
    assert a.payments["alice"] == 6


def test_misc_two_player_4_proxy_never_outbids_own_pillar() -> None:
    # A list entry can only beat the own pillar when that pillar got its god by a forced bid
    # below the listed offer. Two-player setup, track zeus/ares/athena, alice 6 gold, bob 7:
    # 1. alice#2 takes ares 5.  2. bob#1 takes Apollo.  3. alice#1: ares is her own, zeus 4
    # would cost 5 + 4 = 9 > 6, Apollo is taken: forced, the listed zeus at 1 (5 + 1 = 6).
    # 4. bob#2 ousts alice#2 from ares with 6.  5. alice#2 may not go back to ares; her zeus 4
    # would now be affordable (1 + 4 = 5) and beat her own 1, but the proxy does not outbid
    # its own pillar: forced, the free athena at 1.
    lists = {"alice": [E("ares", 5), E("zeus", 4)], "bob": [E(APOLLO, 0), E("ares", 6)]}
    a = duo(TRACK3, ["alice#2", "bob#1", "alice#1", "bob#2"], lists, {"alice": 6, "bob": 7},
            setup=True)
    assert kinds(a) == [("bid", "alice#2", "ares", 5), ("apollo", "bob#1", APOLLO, 0),
                        ("bid", "alice#1", "zeus", 1), ("bid", "bob#2", "ares", 6),
                        ("bid", "alice#2", "athena", 1)]
    assert a.payments == {"alice": 2, "bob": 6}


def test_forgotten_4_one_island_player_puts_both_pillars_on_apollo() -> None:
    # bob has one island: both his pillars go to Apollo; only the first gets prosperity.
    lists = {"alice": [E("zeus", 1), E("ares", 1)], "bob": [E(APOLLO, 0)]}
    a = duo(TRACK3, ["bob#1", "alice#1", "bob#2", "alice#2"], lists,
            {"alice": 5, "bob": 5}, single_island=frozenset({"bob"}))
    assert a.apollo == ["bob#1", "bob#2"] and a.prosperity == "bob#1"
    assert a.payments["bob"] == 0


def test_forgotten_4_two_islands_second_pillar_makes_a_forced_bid() -> None:
    # bob has two islands: his first pillar is on Apollo, so his second may not go there and
    # bids on the cheapest god it can take: zeus and ares are held at 1, athena is free -> 1.
    lists = {"alice": [E("zeus", 1), E("ares", 1)], "bob": [E(APOLLO, 0)]}
    a = duo(TRACK3, ["bob#1", "alice#1", "alice#2", "bob#2"], lists, {"alice": 5, "bob": 5})
    assert a.apollo == ["bob#1"]
    assert a.holders["athena"] == ("bob#2", 1)
    forced = a.events[3]
    assert forced["pillar"] == "bob#2" and "Forgotten 4" in forced["forced"]


def test_forgotten_4_forced_bid_with_no_gold_overflows_to_apollo() -> None:
    # bob has no gold and two islands: Apollo is closed to his second pillar but it can pay
    # no god, so it goes to Apollo anyway, marked as an overflow.
    a = duo(TRACK3, ["bob#1", "bob#2", "alice#1", "alice#2"], {"alice": [E("zeus", 1)]},
            {"alice": 5, "bob": 0})
    assert a.apollo == ["bob#1", "bob#2", "alice#2"]
    assert "overflow" in a.events[1] and "overflow" not in a.events[0]
    assert a.transcript()[1] == (
        "2. bob#2 goes to Apollo. It can afford no god, though the player's other pillar is on "
        "Apollo; both may be there only with a single island (Forgotten 4).")


# --------------------------------------------------------------------------- setup


def test_setup_8_only_one_pillar_on_apollo() -> None:
    # 3 players, 2 gods (players - 1). alice and bob both list only Apollo; alice is first, so
    # bob may not follow her and makes the forced bid: zeus and ares are both free at 1 and
    # neither is on his list, so track order decides: zeus 1. carol's zeus 2 ousts him and he
    # is forced again, barred from zeus: ares 1.
    lists = {"alice": [E(APOLLO, 0)], "bob": [E(APOLLO, 0)], "carol": [E("zeus", 2)]}
    a = solo(["zeus", "ares"], ["alice", "bob", "carol"], lists, gold=7, setup=True)
    assert kinds(a) == [("apollo", "alice", APOLLO, 0), ("bid", "bob", "zeus", 1),
                        ("bid", "carol", "zeus", 2), ("bid", "bob", "ares", 1)]
    assert a.apollo == ["alice"] and all("Setup 8" in a.events[i]["forced"] for i in (1, 3))
    assert a.transcript()[1] == ("2. bob bids 1 on Zeus. Forced: Apollo is taken; in setup "
                                 "only one pillar may be there (Setup 8).")


def test_setup_8_forced_bid_prefers_listed_gods_then_price() -> None:
    # bob lists ares 9 (he cannot pay it: 7 gold) after Apollo. Apollo is taken, so he is
    # forced: ares is on his list, held at 3 by carol -> 4; zeus is free (1) but not listed.
    # Listed gods come first, so he bids 4 on ares and ousts carol, who then takes zeus.
    lists = {"alice": [E(APOLLO, 0)], "carol": [E("ares", 3), E("zeus", 1)],
             "bob": [E(APOLLO, 0), E("ares", 9)]}
    a = solo(["zeus", "ares"], ["alice", "carol", "bob"], lists, gold=7, setup=True)
    assert a.holders == {"ares": ("bob", 4), "zeus": ("carol", 1)}


def test_setup_8_forced_bid_with_nothing_affordable_overflows() -> None:
    # alice on Apollo, carol and dave hold zeus and ares at 7 (all their gold): bob with 7
    # cannot outbid either, so the setup limit cannot be kept and he goes to Apollo too.
    lists = {"alice": [E(APOLLO, 0)], "carol": [E("zeus", 7)], "dave": [E("ares", 7)]}
    a = solo(["zeus", "ares"], ["alice", "carol", "dave", "bob"], lists, gold=7,
             setup=True)
    assert a.apollo == ["alice", "bob"] and a.prosperity == "alice"
    assert a.events[3]["overflow"].startswith("Apollo is taken")
    assert a.transcript()[3].startswith("4. bob goes to Apollo. It can afford no god")


# --------------------------------------------------------------------------- orders


def test_validate_bids_accepts_a_good_list() -> None:
    raw: list[dict[str, Any]] = [{"god": "Zeus", "offer": 5}, {"god": "apollo"},
                                 {"god": "ares", "offer": 1}]
    assert validate_bids(raw, gods=GODS, gold=3, priests=2, two_player=False) == []
    assert parse_bids(raw, gods=GODS, gold=3, priests=2, two_player=False) == (
        E("zeus", 5), E(APOLLO, 0), E("ares", 1))


def test_validate_bids_names_every_problem() -> None:
    raw: list[Any] = [
        {"god": "hermes", "offer": 2},           # unknown god
        {"god": "zeus", "offer": 0},             # below 1
        {"god": "zeus", "offer": 2},             # duplicate
        {"god": "ares", "offer": 6},             # 3 gold + 2 priests = 5 at most
        {"god": "athena", "offer": "3"},         # not a number
        {"god": "apollo", "offer": 2},           # Apollo costs nothing
        {"god": "kronos", "offer": 1, "max": 4},  # unknown key
        "poseidon",                              # not a table
    ]
    problems = validate_bids(raw, gods=GODS, gold=3, priests=2, two_player=False)
    where = [p.where for p in problems]
    assert where == ["[orders] bids", "[orders] bids[0].god", "[orders] bids[1].offer",
                     "[orders] bids[2].god", "[orders] bids[3].offer",
                     "[orders] bids[4].offer", "[orders] bids[5].offer",
                     "[orders] bids[6].max", "[orders] bids[7]"]
    assert all(p.hint for p in problems)
    assert "at most 5" in problems[4].hint
    with pytest.raises(IllegalOrderError) as info:
        parse_bids(raw, gods=GODS, gold=3, priests=2, two_player=False)
    assert len(info.value.problems) == len(problems)


def test_validate_bids_with_no_gold_only_apollo() -> None:
    problems = validate_bids([{"god": "zeus", "offer": 1}], gods=GODS, gold=0, priests=3,
                             two_player=True)
    assert [p.where for p in problems] == ["[orders] bids[0].offer"]
    assert "Apollo" in problems[0].hint


# --------------------------------------------------------------------------- plain data


def test_events_and_as_dict_are_plain_data() -> None:
    lists = {"alice": [E("zeus", 2)], "bob": [E("zeus", 3)]}
    a = solo(["zeus"], ["alice", "bob"], lists)
    d = a.as_dict()
    assert json.loads(json.dumps(d)) == d  # no tuples, no None
    assert d["holders"] == {"zeus": {"pillar": "bob", "amount": 3}}
    assert d["prosperity"] == "alice" and a.place_of("alice") == APOLLO
    again = solo(["zeus"], ["alice", "bob"], lists)
    assert again.events == a.events  # deterministic


def test_run_auction_rejects_bad_inputs() -> None:
    with pytest.raises(ValueError):
        solo(["zeus", APOLLO], ["alice"], {})
    with pytest.raises(ValueError):
        solo(["zeus"], ["alice"], {"alice": [E("zeus", 0)]})
    with pytest.raises(ValueError):
        run_auction(["zeus"], [("a", "alice"), ("a", "alice")], {}, {"alice": 1}, {},
                    two_player=False)


# --------------------------------------------------------------------------- the table


def table(track: Sequence[str], pillars: Sequence[tuple[str, str]],
          lists: Mapping[str, Sequence[Entry]], gold: Mapping[str, int],
          priests: Mapping[str, int], two_player: bool, setup: bool,
          single_island: frozenset[str]) -> dict[str, Any]:
    """The table procedure written out directly, independent of :func:`run_auction`.

    A board maps each pillar to where it stands; a stack holds the pillars that must bid now
    (the next in track order is pushed only when it is empty; an ousted pillar is pushed on
    top, so it acts before anyone else). Each acting player reads their list top-down.
    """
    owner = dict(pillars)
    board: dict[str, tuple[str, int]] = {}      # pillar -> (god or "apollo", amount)
    arrivals: list[str] = []

    def holder(god: str) -> str | None:
        return next((p for p, (g, _) in board.items() if g == god), None)

    def cost(player: str, extra: list[int]) -> int:
        amounts = [a for p, (g, a) in board.items() if owner[p] == player and g != "apollo"]
        amounts += extra
        if not amounts:
            return 0
        return max(len(amounts), sum(amounts) - priests.get(player, 0))

    def can_pay(pillar: str, amount: int) -> bool:
        mine = board.pop(pillar, None)  # the pillar's own old place is not standing
        ok = cost(owner[pillar], [amount]) <= gold[owner[pillar]]
        if mine is not None:
            board[pillar] = mine
        return ok

    def apollo_open(pillar: str) -> bool:
        on = [p for p, (g, _) in board.items() if g == "apollo"]
        if setup:
            return not on
        if two_player and owner[pillar] not in single_island:
            return all(owner[p] != owner[pillar] for p in on)
        return True

    def minimum(pillar: str, god: str, barred: str) -> int | None:
        if god not in track or god == barred:
            return None
        h = holder(god)
        if h is None:
            return 1
        if owner[h] == owner[pillar]:
            return None
        return board[h][1] + 1

    stack: list[tuple[str, str]] = []           # (pillar, god it was just ousted from)
    queue = list(pillars)
    while stack or queue:
        if not stack:
            stack.append((queue.pop(0)[0], ""))
        pillar, barred = stack.pop()
        move: tuple[str, int] | None = None
        for entry in lists.get(owner[pillar], []):
            if entry.god == "apollo":
                if apollo_open(pillar):
                    move = ("apollo", 0)
                    break
                continue
            need = minimum(pillar, entry.god, barred)
            if need is not None and entry.offer >= need and can_pay(pillar, entry.offer):
                move = (entry.god, entry.offer)
                break
        if move is None:
            if apollo_open(pillar):
                move = ("apollo", 0)
            else:
                ranked = [e.god for e in lists.get(owner[pillar], [])]
                options = []
                for i, god in enumerate(track):
                    need = minimum(pillar, god, barred)
                    if need is not None and can_pay(pillar, need):
                        first = ranked.index(god) if god in ranked else 0
                        options.append(((god not in ranked, need, first, i), god, need))
                move = (min(options)[1], min(options)[2]) if options else ("apollo", 0)
        if move[0] == "apollo":
            arrivals.append(pillar)
        else:
            ousted = holder(move[0])
            if ousted is not None:
                del board[ousted]
                stack.append((ousted, move[0]))
        board[pillar] = move
    players = list(dict.fromkeys(owner.values()))
    return {
        "holders": {g: (p, a) for p, (g, a) in board.items() if g != "apollo"},
        "apollo": arrivals,
        "prosperity": arrivals[0] if arrivals else None,
        "payments": {pl: cost(pl, []) for pl in players},
    }


@st.composite
def auctions(draw: st.DrawFn) -> dict[str, Any]:
    two = draw(st.booleans())
    n = 2 if two else draw(st.integers(2, 6))
    players = [f"p{i}" for i in range(n)]
    gods = draw(st.permutations(GODS))
    size = 3 if two else n - 1
    track = list(gods[:draw(st.integers(1, size))]) if draw(st.sampled_from([1, 0, 0])) \
        else list(gods[:size])
    if two:
        pillars = [(f"{p}#{k}", p) for p in players for k in (1, 2)]
    else:
        pillars = [(p, p) for p in players]
    pillars = draw(st.permutations(pillars))
    # Lists mostly name active gods (an inactive one or Apollo now and then) with offers that
    # often collide, so that cascades, forced bids and overflows all occur.
    names = st.one_of(st.sampled_from(track), st.sampled_from(track),
                      st.sampled_from([*GODS, APOLLO]))
    lists = {}
    for p in players:
        chosen = draw(st.lists(names, unique=True, max_size=7))
        lists[p] = [E(g, 0 if g == APOLLO else draw(st.integers(1, 8))) for g in chosen]
    return {
        "track": track, "pillars": pillars, "lists": lists,
        "gold": {p: draw(st.one_of(st.integers(0, 12), st.integers(5, 12))) for p in players},
        "priests": {p: draw(st.integers(0, 3)) for p in players},
        "two_player": two, "setup": draw(st.booleans()),
        "single_island": frozenset(draw(st.lists(st.sampled_from(players), unique=True)))
        if two else frozenset(),
    }


@settings(max_examples=examples(300), deadline=None)
@given(auctions())
def test_cycle_7_proxy_agrees_with_the_table_procedure(case: dict[str, Any]) -> None:
    a = run_auction(case["track"], case["pillars"], case["lists"], case["gold"],
                    case["priests"], two_player=case["two_player"], setup=case["setup"],
                    single_island=case["single_island"])
    want = table(case["track"], case["pillars"], case["lists"], case["gold"], case["priests"],
                 case["two_player"], case["setup"], case["single_island"])
    assert a.holders == want["holders"]
    assert a.apollo == want["apollo"]
    assert a.prosperity == want["prosperity"]
    assert a.payments == want["payments"]


@settings(max_examples=examples(150), deadline=None)
@given(auctions())
def test_cycle_7_invariants(case: dict[str, Any]) -> None:
    a = run_auction(case["track"], case["pillars"], case["lists"], case["gold"],
                    case["priests"], two_player=case["two_player"], setup=case["setup"],
                    single_island=case["single_island"])
    placed = [p for p, _ in a.holders.values()] + a.apollo
    # Every pillar ends in exactly one place; nobody pays more than their gold.
    assert sorted(placed) == sorted(p for p, _ in case["pillars"])
    assert all(a.payments[pl] <= case["gold"][pl] for pl in a.payments)
    # A bid that ousts is strictly higher than the bid it replaces (Cycle 7.2).
    assert all(e["amount"] > e["ousted_amount"] for e in a.events if "ousts" in e)
    # Only the first on Apollo has prosperity (Cycle 7.3).
    assert sum(1 for e in a.events if e.get("prosperity")) == (1 if a.apollo else 0)
    assert len(a.transcript()) == len(a.events)

"""The god auction of Cyclades (Cycle 7, Setup 8) run from sealed proxy bids.

At the table the players bid pillar by pillar in track order; a pillar placed on a god someone
holds must offer strictly more, and the ousted pillar bids again at once, which may oust another
(a cascade) before the next pillar in track order bids (Cycle 7.1-7.2). Apollo takes everyone
and costs nothing; only the first pillar to arrive there gets the prosperity marker (Cycle 7.3).
Bids may exceed 10 (Cycle 7.4). When all are settled everyone pays at once (Cycle 7.5), less one
gold per Priest card (Cycle 7.6); with two players the discount applies once to the total of
both bids (Misc Two Player 6).

By email each player sends ONE sealed, ranked list of ``(god, offer)`` entries with an implicit
last fallback to Apollo (Apollo may also be listed to rank it above later entries). Whenever one
of the player's pillars must bid -- its turn in track order, or being ousted -- it takes the
first entry it can take now (:func:`run_auction` says exactly when that is) and places exactly
the listed offer, as a table player acting by that list would: a first-price auction.

Rules from the published base game (not in the seed), marked ``Base`` in comments:

- ``Base priests``: each Priest card lowers the offering by 1 gold, but an offering to a god
  always costs at least 1 gold; Apollo costs nothing.
- ``Base affordability``: a player may not offer more than they can pay (gold plus the Priest
  discount).
- ``Base ousted``: an ousted player may not bid again on the god they were just ousted from.

Interpretations where the seed is silent (see ``docs/games/cyclades-bidding.md``):

- the payment floor is 1 gold per god held, so with two players it is 2 when both pillars are on
  gods: ``paid = max(gods_held, total_bid - priests)``, 0 for Apollo alone;
- the proxy never outbids its own other pillar (Misc Two Player 4 allows it, but doing so only
  costs more and sends the own pillar back into the cascade);
- a pillar that may not go to Apollo (Setup 8: Apollo taken; two-player: the other pillar is on
  Apollo and the player has more than one island, Forgotten 4) makes a *forced bid*: the
  cheapest god it can take now, gods on its list first (ties: list rank), then any other god
  (ties: track order), at the minimum price (1 on a free god, the holder's bid + 1 otherwise);
  if it can afford no god at all it goes to Apollo anyway (an *overflow*, recorded as such),
  because every pillar must end somewhere.

The module is pure: no randomness, no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pbem.core.errors import IllegalOrderError, Problem

#: Apollo is not on the bidding track: he takes everyone and costs nothing (Cycle 7.3).
APOLLO: Final = "apollo"
#: The keys an entry of the ``bids`` list may carry.
ENTRY_KEYS: Final = frozenset({"god", "offer"})

Event = dict[str, Any]
#: (player, pillar, god, excluded god) -> the minimum price to take the god now, or None.
Takeable = Callable[[str, str, str, str], int | None]
#: (player, pillar, amount) -> whether the player could pay it with their other bids.
Affordable = Callable[[str, str, int], bool]


@dataclass(frozen=True)
class Entry:
    """One line of a proxy bid: the god and the exact amount placed on it.

    ``offer`` is 0 for Apollo (he costs nothing) and at least 1 for any other god.
    """

    god: str
    offer: int

    def as_dict(self) -> dict[str, Any]:
        return {"god": self.god, "offer": self.offer}


def payment(bids: Sequence[int], priests: int) -> int:
    """What a player pays for the gods they hold (Cycle 7.5-7.6, Misc Two Player 6).

    ``bids`` are the amounts on gods (Apollo is not in it). The Priest discount applies once to
    the total, never per god (Misc Two Player 6: it does not stack); the floor is 1 gold per god
    held (Base priests; the two-player floor of 2 is our reading, see the module docstring).
    """
    if not bids:
        return 0  # Cycle 7.3: Apollo costs nothing
    return max(len(bids), sum(bids) - priests)


def max_offer(gold: int, priests: int) -> int:
    """The largest single offer a player could ever pay (Base affordability); 0 means none."""
    # payment([o], p) = max(1, o - p) <= gold  <=>  gold >= 1 and o <= gold + p
    return gold + priests if gold >= 1 else 0


# --------------------------------------------------------------------------- orders


def validate_bids(entries: Sequence[Mapping[str, Any]], *, gods: Sequence[str], gold: int,
                  priests: int, two_player: bool) -> list[Problem]:
    """Every problem in one player's ``bids`` list, each with ``where`` and a fix hint.

    ``gods`` are the god ids a list may name (Apollo is always allowed). Names are compared in
    lower case. An entry is ``{god = "zeus", offer = 5}``; Apollo takes no offer (or 0).
    ``two_player`` only changes the wording: the same list serves both pillars.
    """
    problems: list[Problem] = []
    known = [g.lower() for g in gods if g.lower() != APOLLO]
    limit = len(known) + 1  # each god once, and Apollo
    if len(entries) > limit:
        problems.append(Problem(
            "[orders] bids", f"the list has {len(entries)} entries, at most {limit} can count "
            "(each god once, and Apollo)", "remove the extra entries"))
    top = max_offer(gold, priests)
    seen: dict[str, int] = {}
    for i, raw in enumerate(entries):
        at = f"[orders] bids[{i}]"
        if not isinstance(raw, Mapping):
            problems.append(Problem(at, "an entry must be a table like {god = \"zeus\", "
                                        "offer = 5}", "write {god = \"...\", offer = N}"))
            continue
        for key in sorted(set(raw) - ENTRY_KEYS):
            problems.append(Problem(f"{at}.{key}", f"an entry takes no {key!r}",
                                    "keep only god and offer"))
        god = raw.get("god")
        if not isinstance(god, str):
            problems.append(Problem(f"{at}.god", "the god is missing or not a name",
                                    f"one of: {', '.join([*known, APOLLO])}"))
            continue
        name = god.strip().lower()
        if name != APOLLO and name not in known:
            problems.append(Problem(f"{at}.god", f"unknown god {god!r}",
                                    f"one of: {', '.join([*known, APOLLO])}"))
        elif name in seen:
            problems.append(Problem(f"{at}.god", f"{name} is already in the list at "
                                    f"bids[{seen[name]}]",
                                    "name each god once, in the order you prefer them"))
        else:
            seen[name] = i
        offer = raw.get("offer", 0 if name == APOLLO else None)
        if isinstance(offer, bool) or not isinstance(offer, int):
            problems.append(Problem(f"{at}.offer", "the offer is missing or not a whole number",
                                    "write offer = N with N a whole number of gold"))
            continue
        if name == APOLLO:
            if offer != 0:
                problems.append(Problem(f"{at}.offer", "Apollo costs nothing (Cycle 7.3)",
                                        "leave out the offer for Apollo"))
            continue
        if offer < 1:
            problems.append(Problem(f"{at}.offer", f"offer {offer} is below 1",
                                    "offer at least 1 gold, or list Apollo instead"))
        elif offer > top:
            who = "either of your pillars" if two_player else "you"
            hint = (f"offer at most {top} (gold {gold} + {priests} priests)" if top
                    else "with no gold you can only go to Apollo: list only Apollo")
            problems.append(Problem(f"{at}.offer", f"offer {offer} is more than {who} could "
                                    f"ever pay (Base affordability)", hint))
    return problems


def parse_bids(entries: Sequence[Mapping[str, Any]], *, gods: Sequence[str], gold: int,
               priests: int, two_player: bool) -> tuple[Entry, ...]:
    """The checked list as :class:`Entry` values; raises :class:`IllegalOrderError` with every
    problem :func:`validate_bids` finds."""
    problems = validate_bids(entries, gods=gods, gold=gold, priests=priests,
                             two_player=two_player)
    if problems:
        raise IllegalOrderError(problems, "bids")
    out: list[Entry] = []
    for raw in entries:
        name = str(raw["god"]).strip().lower()
        out.append(Entry(name, 0 if name == APOLLO else int(raw["offer"])))
    return tuple(out)


# --------------------------------------------------------------------------- the auction


@dataclass
class Auction:
    """The settled auction: who holds what, Apollo, the payments and every step taken."""

    holders: dict[str, tuple[str, int]]   # god -> (pillar id, amount), gods held only
    apollo: list[str]                     # pillar ids in order of arrival
    prosperity: str | None                # the first pillar on Apollo (Cycle 7.3)
    payments: dict[str, int]              # player -> gold paid (Cycle 7.5-7.6)
    events: list[Event]                   # every step, in order, as plain data
    owners: dict[str, str] = field(default_factory=dict)  # pillar id -> player

    def place_of(self, pillar: str) -> str:
        """The god a pillar ended on, or ``"apollo"``."""
        for god, (holder, _) in self.holders.items():
            if holder == pillar:
                return god
        return APOLLO

    def as_dict(self) -> dict[str, Any]:
        """Plain data for the ledger: no tuples, no None (a missing key means none)."""
        # Keys in sorted order, as the state's canonical JSON has them (ruleset.put_sorted).
        out: dict[str, Any] = {
            "apollo": list(self.apollo),
            "events": [dict(sorted(e.items())) for e in self.events],
            "holders": {g: {"amount": a, "pillar": p}
                        for g, (p, a) in sorted(self.holders.items())},
            "payments": dict(sorted(self.payments.items())),
        }
        if self.prosperity is not None:
            out["prosperity"] = self.prosperity
        return out

    def transcript(self) -> list[str]:
        """Readable lines for a report, one per event."""
        return transcript(self.events)


def transcript(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """The readable lines of an auction's events (also of ``Auction.as_dict()["events"]``, as
    the state keeps them for the rest of the cycle's reports)."""
    return [_line(e) for e in events]


def _title(god: str) -> str:
    return god[:1].upper() + god[1:]


def _line(e: Mapping[str, Any]) -> str:
    kind = e["event"]
    if kind == "pay":
        bids = e["bids"]
        if not bids:
            return f"{e['player']} pays nothing (Apollo)."
        how = (f"bid {bids[0]}" if len(bids) == 1
               else "bids " + " + ".join(str(b) for b in bids) + f" = {e['bid']}")
        priests = f"{e['priests']} priest" + ("" if e["priests"] == 1 else "s")
        return f"{e['player']} pays {e['paid']} ({how}, {priests})."
    head = f"{e['step']}. {e['pillar']}"
    if "ousted_from" in e:
        head += f" (ousted from {_title(e['ousted_from'])})"
    if kind == "apollo":
        text = f"{head} goes to Apollo"
        if e["prosperity"]:
            text += " and takes the prosperity marker"
        text += "."
        if "overflow" in e:
            text += f" It can afford no god, though {e['overflow']}."
        return text
    text = f"{head} bids {e['amount']} on {_title(e['god'])}"
    if "ousts" in e:
        text += (f", ousting {e['ousts']} ({e['ousted_amount']}); {e['ousts']} must bid "
                 "again at once")
    text += "."
    if "forced" in e:
        text += f" Forced: {e['forced']}."
    return text


# Why a pillar may not go to Apollo; the text goes into the event and the transcript.
_SETUP_FULL: Final = "Apollo is taken; in setup only one pillar may be there (Setup 8)"
_TWO_ON_APOLLO: Final = ("the player's other pillar is on Apollo; both may be there only with "
                         "a single island (Forgotten 4)")


def run_auction(track: Sequence[str], pillars: Sequence[tuple[str, str]],
                lists: Mapping[str, Sequence[Entry]], gold: Mapping[str, int],
                priests: Mapping[str, int], *, two_player: bool, setup: bool = False,
                single_island: frozenset[str] = frozenset()) -> Auction:
    """Run the auction as the table would, every pillar acting by its owner's list.

    ``track`` is the active gods top-down (not Apollo); ``pillars`` are ``(pillar id, player)``
    in bid order; ``lists`` the players' entries (a missing list means straight to Apollo);
    ``gold`` each player's gold; ``priests`` their Priest cards (missing means 0);
    ``single_island`` the players who own one island (two-player only, Forgotten 4).

    When a pillar must bid (its turn, or just ousted from god X) it takes the first entry that
    it can take now: the god is on the track; it is not X (Base ousted); the player's other
    pillar does not hold it (the proxy never outbids itself); it is free, or its holder's bid
    is strictly below the offer (Cycle 7.2); and the player could pay the offer together with
    their other standing bids (Base affordability). An Apollo entry is taken if Apollo is open
    to the pillar. With no entry left it goes to Apollo, or, if Apollo is closed to it, makes
    the forced bid described in the module docstring.

    Termination: a cascade goes on only while bids oust, and each ousting strictly raises the
    bid on one god while no bid on any god ever falls (a held god stays held). Every bid is
    affordable, so at most ``max(gold + priests)`` per god: the sum of the bids on the track
    is bounded and rises by at least 1 with each ousting, so there are at most
    ``len(track) * max(gold + priests)`` oustings in the whole auction, and every other step
    places a pillar for good. The loop still counts its steps and stops with an error past
    that bound, so a bug cannot hang the adjudicator.
    """
    track = [g.lower() for g in track]
    if APOLLO in track or len(set(track)) != len(track):
        raise ValueError(f"the track must list distinct gods without Apollo: {track}")
    owners: dict[str, str] = {}
    for pid, player in pillars:
        if pid in owners:
            raise ValueError(f"pillar {pid!r} appears twice")
        if player not in gold:
            raise ValueError(f"no gold given for {player!r}")
        owners[pid] = player
    for player, entries in lists.items():
        for e in entries:
            if e.god != APOLLO and e.offer < 1:
                raise ValueError(f"{player}: offer {e.offer} on {e.god} is below 1")

    holders: dict[str, tuple[str, int]] = {}
    apollo: list[str] = []
    events: list[Event] = []

    def other_bids(player: str, pillar: str) -> list[int]:
        return [amt for p, amt in holders.values() if owners[p] == player and p != pillar]

    def affordable(player: str, pillar: str, amount: int) -> bool:
        # Base affordability: the new bid plus the player's other standing bids.
        bids = [*other_bids(player, pillar), amount]
        return payment(bids, priests.get(player, 0)) <= gold[player]

    def apollo_closed(player: str, pillar: str) -> str:
        if setup and apollo:
            return _SETUP_FULL  # Setup 8
        if two_player and player not in single_island and any(
                owners[p] == player for p in apollo):
            return _TWO_ON_APOLLO  # Forgotten 4, read as a restriction otherwise
        return ""

    def takeable(player: str, pillar: str, god: str, excluded: str) -> int | None:
        """The minimum price at which the pillar may take ``god`` now, or None."""
        if god not in track or god == excluded:
            return None
        held = holders.get(god)
        if held is not None and owners[held[0]] == player:
            return None  # never outbid the own other pillar
        return 1 if held is None else held[1] + 1

    bound = len(pillars) + len(track) * (max(
        [gold[p] + priests.get(p, 0) for p in owners.values()], default=0) + 1) + 1
    steps = 0
    for turn_pillar, _ in pillars:
        current: str | None = turn_pillar
        excluded = ""
        depth = 0
        while current is not None:
            steps += 1
            if steps > bound:
                raise RuntimeError("the auction did not settle; this is a bug")
            pillar, player = current, owners[current]
            base: Event = {"step": steps, "pillar": pillar, "player": player, "depth": depth}
            if excluded:
                base["ousted_from"] = excluded
            choice: tuple[str, int] | None = None
            closed = apollo_closed(player, pillar)
            forced = ""
            for entry in lists.get(player, ()):
                if entry.god == APOLLO:
                    if not closed:
                        choice = (APOLLO, 0)
                        break
                    continue
                price = takeable(player, pillar, entry.god, excluded)
                if price is not None and entry.offer >= price and affordable(
                        player, pillar, entry.offer):
                    choice = (entry.god, entry.offer)
                    break
            if choice is None and closed:
                choice = _forced(player, pillar, track, lists.get(player, ()), excluded,
                                 takeable, affordable)
                forced = closed
            if choice is None or choice[0] == APOLLO:
                ev = {"event": "apollo", **base, "prosperity": not apollo}
                if forced:
                    ev["overflow"] = forced
                events.append(ev)
                apollo.append(pillar)
                current = None
                continue
            god, amount = choice
            ev = {"event": "bid", **base, "god": god, "amount": amount}
            if forced:
                ev["forced"] = forced
            ousted = holders.get(god)
            holders[god] = (pillar, amount)
            if ousted is not None:
                ev["ousts"] = ousted[0]
                ev["ousted_amount"] = ousted[1]
                # Cycle 7.2: the ousted pillar bids again at once, not on this god.
                current, excluded, depth = ousted[0], god, depth + 1
            else:
                current = None
            events.append(ev)

    # Cycle 7.5: once all bids are settled everyone pays at once; 7.6 the Priest discount.
    payments: dict[str, int] = {}
    for player in dict.fromkeys(owners.values()):
        bids = [holders[g][1] for g in track if g in holders and owners[holders[g][0]] == player]
        n = priests.get(player, 0)
        paid = payment(bids, n)
        payments[player] = paid
        events.append({"event": "pay", "player": player, "bids": bids, "bid": sum(bids),
                       "priests": n, "paid": paid})
    ordered = {g: holders[g] for g in track if g in holders}
    return Auction(ordered, apollo, apollo[0] if apollo else None, payments, events, owners)


def _forced(player: str, pillar: str, track: Sequence[str], entries: Sequence[Entry],
            excluded: str, takeable: Takeable, affordable: Affordable) -> tuple[str, int] | None:
    """The forced bid of a pillar Apollo is closed to (Setup 8, Forgotten 4; our reading).

    The cheapest god it can take now at the minimum price, gods on its list first (ties by
    list rank), then the others (ties by track order); None when it can afford none.
    """
    rank = {e.god: i for i, e in reversed(list(enumerate(entries)))}
    best: tuple[tuple[int, int, int, int], str, int] | None = None
    for index, god in enumerate(track):
        price = takeable(player, pillar, god, excluded)
        if price is None or not affordable(player, pillar, price):
            continue
        on_list = god in rank
        key = (0 if on_list else 1, price, rank.get(god, 0), index)
        if best is None or key < best[0]:
            best = (key, god, price)
    return None if best is None else (best[1], best[2])

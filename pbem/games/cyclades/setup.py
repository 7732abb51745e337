"""Setting up a game of Cyclades (seed Setup 1-11, Misc Two Player 1-2, Team Play 2), as a pure
library on the shared state of ``state.py``.

Entry points (``game.py`` calls them; ``docs/games/cyclades-cycle.md`` has the details):

- :func:`initial_state` -- Setup 1-8.1: the whole state layout, ``step = "setup_bid"``.
- :func:`resolve_setup_bid` -- Setup 8-8.2: the auction with only one pillar on Apollo
  (``bidding.run_auction(setup=True)``), everyone pays at once, each god's bonus; the
  deployment queue (top god down, Apollo last) in ``state["acting"]``; ``step = "deploy"``.
- :func:`validate_deploy`, :func:`default_deploy`, :func:`resolve_deploy` -- Setup 9-10, one
  pillar at a time; after the last one, Setup 11 (``cycle.start_first_cycle``: cycle 1 runs
  steps 4-8 only) and ``step = "bid"``.

Layout ADDITION: ``state["to_deploy"] = {pillar: {item: count}}`` -- what each pillar still
has to place: ``troop``, ``fleet``, ``titan``, ``prosperity``, building ids, and
``building_of_god_above`` (Kronos's building, chosen among the buildings of the gods above him
on the setup track). Keyed by PILLAR: with three or more players a pillar is the player's
name; with two players each pillar places its own share (Misc Two Player 2). An entry becomes
``{}`` once deployed, and the whole table ``{}`` after the last deployment. Also
``state["favors"]["items"]`` (the sealed magic item pile) and ``state["metropolises"]["where"]``
(``actions.py``'s addition) are created here.

The deploy form (``orders/cyclades/deploy.toml``): ``troops``, ``titans``, ``fleets``,
``buildings``, ``prosperity``, and the ADDITION ``monument = {monument = id, territory = t}``
(Setup 9.3.1: claiming a Monument whose two building colours the player controls after
deploying, checked like ``metropolis.monument_problem``). Each section left empty or absent
takes its default, computed after the given ones (:func:`default_deploy`); a form sent back
unchanged is the whole default.

Interpretations where the seed is silent:

- Setup 1.2: the four basic buildings are dealt (public stream) to the building-symbol
  territories in id order; they belong to nobody until a player holds the territory.
- Teams (option ``teams=on``, Titans board, 4 or 6 players): teams of two (published Titans
  rules), seat ``i`` in team ``"abc"[i % (players // 2)]``: with four players a-b-a-b, with
  six a-b-c-a-b-c, so teammates never sit next to each other.
- Modules: all of them (base, hades, titans, monuments, egyptians), whatever the board:
  Kronos, artifacts and special Metropolises need no Titans board.
- Setup 8.2, Kronos: "depending on his position": from the top slot of the track a 2nd Titan,
  otherwise one building of a god above him (the player chooses; default the god right above).
  Apollo's bonus goes to the first (in setup: the only) pillar on Apollo; a pillar forced there
  by having no gold (``bidding``'s overflow) gets nothing.
- Setup 9.1: on the Titans board a player's troops and Titans stand on exactly two adjacent
  territories, none a small island; two only "if possible": a player whose every adjacent
  pair is taken may start on one. On the Vanilla board at least two islands (when the player
  has two land units and a second free island exists), as many as they like beyond. Titans count
  as land units for this. With two players the rules hold for the player's two deployments
  together (the first may use one territory, the second must complete the pair).
- Setup 9.2: fleets go on sea spaces touching the player's territories, never where another
  player's fleets are; two different spaces, a third fleet doubling up on one of them (so never
  more than two spaces nor two fleets on one); two players: for both deployments together.
- Setup 9.3: a building goes on one of the player's territories with a free building space; a
  building that fits nowhere is lost. Apollo's prosperity marker goes on one of the player's
  territories (the deploy form's convention). A Metropolis that four different buildings would
  form is formed at the player's first action (``metropolis.check_metropolis``).
- Team 2: a player may not deploy on an island where a teammate already stands.
- Defaults (:func:`default_deploy`): the first free legal places by id: the first free
  adjacent pair (Titans) or the first two free islands (Vanilla), units dealt round-robin,
  Titans last; fleets on the first legal seas by id; buildings and the marker on the first
  territory (by id) with room; the first claimable Monument of the offer.
- Setup 10: the pillar that deploys first takes the last slot of the turn order; during the
  deployments ``turn_order`` lists the slots filled so far (right-aligned: the reverse of the
  deploy order), complete after the last one.

What is public: all of it (the board, the cards dealt face up, the auction and its payments,
the bonuses). Sealed: the order of the creature deck, the favor tiles and the magic items.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pbem.core.dice import Rng
from pbem.core.errors import Problem
from pbem.games.cyclades import bidding, cycle, names
from pbem.games.cyclades.components import BUILDING_OF_GOD_ABOVE, GOD_ABOVE, MODULES, Components
from pbem.games.cyclades.maps import Board
from pbem.games.cyclades.state import (
    State,
    allies,
    empty_hand,
    empty_sea,
    empty_territory,
    pillars_for,
    player_of,
    territories_of,
)

Event = dict[str, Any]

#: The keys of a deploy form (``monument`` is an addition).
DEPLOY_KEYS: Final = ("troops", "titans", "fleets", "buildings", "prosperity", "monument")
#: Setup bonus items kept to be deployed (the others are given at once).
DEPLOYED: Final = ("troop", "fleet", "titan", "prosperity")
#: Cards given at once from the limited supply (Forgotten 7).
CARDS: Final = ("priest", "philosopher")
TEAM_NAMES: Final = "abc"


def event(type_: str, rule: str, text: str, **fields: Any) -> Event:
    return {"type": type_, "rule": rule, "text": text, **fields}


# =============================================================================================
# Setup 1-8.1: the initial state
# =============================================================================================


def assign_teams(players: Sequence[str]) -> dict[str, str]:
    """Team Play: teams of two in seat order, a-b-a-b (four players) or a-b-c-a-b-c (six)."""
    count = len(players) // 2
    return {p: TEAM_NAMES[i % count] for i, p in enumerate(players)}


def initial_state(c: Components, board: Board, players: tuple[str, ...],
                  options: Mapping[str, str], rng: Rng) -> tuple[State, list[Event]]:
    """Setup 1-8.1: the whole state of ``state.py`` (plus ``to_deploy``), ``step =
    "setup_bid"``; the events say what was dealt face up."""
    seats = list(players)
    n = len(seats)
    if options.get("board", board.name) != board.name:
        raise ValueError(f"option board={options.get('board')} but the board is {board.name}")
    if n not in board.players:
        raise ValueError(f"{board.side} is not played with {n} players")
    teams: dict[str, str] = {}
    if options.get("teams", "off") == "on":
        if board.name != "titans" or n not in (4, 6):
            raise ValueError("Team Play needs the Titans board and 4 or 6 players")
        teams = assign_teams(seats)
    two = n == 2
    mods = list(MODULES)
    public, sealed = rng.public, rng.sealed
    events: list[Event] = []

    territories = {t: empty_territory() for t in board.territories}
    if board.name == "titans":
        # Setup 1.2: one of each basic building, at random, on the building symbols.
        symbols = sorted(t.id for t in board.territories.values() if t.building_symbol)
        basics = sorted(b.id for b in c.buildings.values() if b.basic and b.module in mods)
        for tid, building in zip(symbols, public.shuffle(basics, "setup/buildings"),
                                 strict=False):
            territories[tid]["buildings"].append(building)
            events.append(event("setup_building", "Setup 1.2", f"A {c.buildings[building].name} "
                                f"is placed on {tid}.", territory=tid, building=building))

    # Setup 2: 7 coins, 2 fleets and 2 troops (Misc Two Player 2: 1 troop, 1 fleet a pillar).
    start = c.supplies.start
    pillars = pillars_for(seats, two)
    share = 2 if two else 1
    to_deploy = {pl: {"troop": start["troop"] // share, "fleet": start["fleet"] // share}
                 for pl in pillars}

    # Setup 3: the creature deck shuffled (sealed), one card face up on the 4-gold space.
    deck = sealed.shuffle(list(c.deck(mods)), "setup/creatures")
    first = deck.pop(0)
    slots = [first] + [""] * (len(c.track.prices) - 1)
    events.append(event("track", "Setup 3", f"The {c.track_card(first).name} is turned face up "
                        f"on the {c.track.prices[0]}-gold space.", slots=list(slots)))

    # Setup 5: two special Metropolis cards face up.
    specials = [m.id for m in c.of_kind("metropolis", mods)]
    offer = public.shuffle(specials, "setup/metropolises")[:c.rules.special_metropolises_face_up]
    if offer:
        events.append(event("special_metropolises", "Setup 5", "Special Metropolis cards face "
                            f"up: {', '.join(c.metropolises[m].name for m in offer)}.",
                            offer=list(offer)))
    # Setup 6: as many Monuments face up as players.
    monuments = [m.id for m in c.of_kind("monument", mods)]
    mon_offer = public.shuffle(monuments, "setup/monuments")[:n] if monuments else []
    if mon_offer:
        events.append(event("monuments", "Setup 6", "Monuments face up: "
                            f"{', '.join(c.monuments[m].name for m in mon_offer)}.",
                            offer=list(mon_offer)))
    # Divine favors and magic items (Hades): sealed stacks.
    favor_deck = sealed.shuffle([f.id for f in c.of_kind("favor", mods)], "setup/favors")
    items = sealed.shuffle([m.id for m in c.of_kind("magic_item", mods)], "setup/items")

    # Setup 7: players - 1 gods face up on the track (not Hades); two players: as four.
    pool = sorted(g.id for g in c.gods.values() if g.placement == "shuffled" and g.module in mods)
    count = max(1, min(3 if two else n - 1, len(pool)))
    track = public.shuffle(pool, "setup/gods")[:count]
    events.append(event("gods", "Setup 7", f"Gods on the track, top first: {', '.join(track)}.",
                        track=list(track)))
    # Setup 8.1: the bid order by a shuffle of one pillar of each (both, with two players).
    order = public.shuffle(list(pillars), "setup/pillars")
    events.append(event("turn_order", "Setup 8.1", f"Bid order for the setup bid: "
                        f"{', '.join(order)}.", order=list(order)))

    state: State = {
        "game": {"board": board.name, "side": board.side, "players": seats, "two_player": two,
                 "teams": teams, "modules": mods},
        "cycle": 0,
        "step": "setup_bid",
        "pillars": pillars,
        "turn_order": order,
        "gold": {p: int(start["gold"]) for p in seats},
        "hands": {p: empty_hand() for p in seats},
        "territories": territories,
        "seas": {s: empty_sea() for s in board.seas},
        "figures": {},
        "gods": {"track": track, "unused": [], "seen": sorted(track),
                 "bag": sorted(set(pool) - set(track))},
        "hades": {"column": 0, "active": False},  # Setup 4
        "favors": {"deck": favor_deck, "face_up": "", "discard": [], "items": items},
        "creature_track": {"slots": slots, "deck": deck, "discard": [], "removed": [],
                           "initial": first, "initial_bought": False},
        "supply": {k: int(c.supplies.limited_count(k, mods) or 0)
                   for k in ("prosperity", "priest", "philosopher")},
        "monuments": {"offer": mon_offer, "built": {}},
        "metropolises": {"offer": offer, "held": {}, "where": {}},
        "auction": {},
        "acting": {"queue": [], "index": 0, "finished": []},
        "standing": {},
        "eliminated": [],
        "result": {},
        "to_deploy": to_deploy,
    }
    return state, events


# =============================================================================================
# Setup 8-8.2: the setup bid and the gods' bonuses
# =============================================================================================


def resolve_setup_bid(c: Components, board: Board, state: State,
                      bids: Mapping[str, Sequence[bidding.Entry]],
                      defend: Mapping[str, Mapping[str, Any]], rng: Rng) -> list[Event]:
    """Setup 8: the bid for turn order with only one pillar on Apollo; 8.2: everyone pays at
    once, then each god's bonus. Builds the deployment queue (top god down, Apollo last) and
    sets ``step = "deploy"``."""
    players = list(state["game"]["players"])
    track = list(state["gods"]["track"])
    auction = bidding.run_auction(
        track, cycle.bid_pillars(state), {p: tuple(bids.get(p, ())) for p in players},
        {p: int(state["gold"][p]) for p in players},
        {p: int(state["hands"][p]["priest"]) for p in players},
        two_player=bool(state["game"]["two_player"]), setup=True)
    events = cycle.auction_events(auction, setup=True)
    cycle.pay_auction(state, auction)
    state["auction"] = auction.as_dict()
    cycle.store_standing(state, defend)
    titans = board.name == "titans"
    for i, god in enumerate(track):
        if god in auction.holders:
            bonus = c.setup_bonus(god, titans_board=titans, on_top=i == 0)
            events += _give_bonus(c, state, auction.holders[god][0], god, bonus)
    if auction.apollo:
        events += _give_bonus(c, state, auction.apollo[0], bidding.APOLLO,
                              c.setup_bonus(bidding.APOLLO, titans_board=titans))
    state["gods"]["unused"] = cycle.unused_gods(c, state, auction)
    queue = [[g, auction.holders[g][0]] for g in track if g in auction.holders]
    queue += [[bidding.APOLLO, pl] for pl in auction.apollo]
    state["acting"] = {"finished": [], "index": 0, "queue": queue}
    state["turn_order"] = []  # Setup 10 fills it as the pillars deploy
    state["step"] = "deploy"
    events.append(event("deploy_order", "Setup 9", "Deployment order: "
                        + ", ".join(f"{pl} ({g})" for g, pl in queue) + ".",
                        queue=[list(q) for q in queue]))
    return events


def _give_bonus(c: Components, state: State, pillar: str, god: str,
                bonus: Mapping[str, int]) -> list[Event]:
    """Setup 8.2: gold and cards at once; units, buildings and the marker to deploy."""
    player = player_of(state, pillar)
    todo = state["to_deploy"].setdefault(pillar, {})
    parts: list[str] = []
    for item, n in sorted(bonus.items()):
        if item == "gold":
            state["gold"][player] = int(state["gold"][player]) + n
            parts.append(f"{n} gold")
        elif item in CARDS:
            given = min(n, int(state["supply"][item]))
            state["supply"][item] -= given
            state["hands"][player][item] += given
            parts.append(f"{given} {item}" + ("" if given == n else " (the supply is empty)"))
        else:
            todo[item] = int(todo.get(item, 0)) + n
            label = {BUILDING_OF_GOD_ABOVE: "a building of a god above him"}.get(
                item, c.buildings[item].name if item in c.buildings else item)
            parts.append(f"{n} {label}" if item in DEPLOYED else label)
    name = c.god(god).name
    return [event("setup_bonus", "Setup 8.2", f"{pillar} wins {name}: {', '.join(parts)}.",
                  pillar=pillar, player=player, god=god, bonus=dict(bonus))]


def kronos_choices(c: Components, state: State) -> list[str]:
    """The buildings Kronos's setup bonus may be (Setup 8.2): those of the gods above him on the
    track, the nearest first."""
    track = state["gods"]["track"]
    if "kronos" not in track:
        return []
    out: list[str] = []
    for god in reversed(track[:track.index("kronos")]):
        build = c.god(god).build
        if build is not None and build.building not in (GOD_ABOVE, "necropolis") and \
                build.building not in out:
            out.append(build.building)
    return out


# =============================================================================================
# Setup 9: deployment
# =============================================================================================


@dataclass
class Plan:
    """One pillar's deployment: lists keep the form's order (for ``where`` in problems)."""

    troops: list[tuple[str, int]] = field(default_factory=list)
    titans: list[tuple[str, int]] = field(default_factory=list)
    fleets: list[tuple[str, int]] = field(default_factory=list)
    buildings: list[tuple[str, str]] = field(default_factory=list)
    prosperity: str = ""
    monument: tuple[str, str] | None = None

    def new_land(self) -> list[str]:
        return sorted({t for t, _ in self.troops} | {t for t, _ in self.titans})

    def as_orders(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "troops": [{"territory": t, "count": n} for t, n in self.troops],
            "titans": [{"territory": t, "count": n} for t, n in self.titans],
            "fleets": [{"sea": s, "count": n} for s, n in self.fleets],
            "buildings": [{"building": b, "territory": t} for b, t in self.buildings],
        }
        if self.prosperity:
            out["prosperity"] = self.prosperity
        if self.monument is not None:
            out["monument"] = {"monument": self.monument[0], "territory": self.monument[1]}
        return out


@dataclass
class _Ctx:
    """What a pillar's deployment is checked against."""

    c: Components
    board: Board
    state: State
    pillar: str
    player: str
    todo: dict[str, int]
    later: dict[str, int]     # what the player's other, later pillars still place (2 players)
    mine: list[str]           # territories the player already holds
    titans_board: bool

    def n(self, item: str) -> int:
        return int(self.todo.get(item, 0))

    def land_total(self) -> int:
        """The player's land units once every pillar has deployed."""
        placed = sum(int(self.state["territories"][t]["troops"]) +
                     int(self.state["territories"][t]["titans"]) for t in self.mine)
        return placed + self.n("troop") + self.n("titan") + self.later["troop"] + \
            self.later["titan"]

    def fleets_now(self) -> dict[str, int]:
        return {s: int(x["fleets"]) for s, x in sorted(self.state["seas"].items())
                if x["owner"] == self.player and x["fleets"]}

    def fleet_total(self) -> int:
        return sum(self.fleets_now().values()) + self.n("fleet") + self.later["fleet"]

    def required_buildings(self) -> list[str]:
        return sorted(b for b in self.todo if b in self.c.buildings for _ in range(self.n(b)))


def _context(c: Components, board: Board, state: State, pillar: str) -> _Ctx:
    player = player_of(state, pillar)
    later = {"troop": 0, "titan": 0, "fleet": 0}
    for pl, todo in state["to_deploy"].items():
        if pl != pillar and todo and player_of(state, pl) == player:
            for k in later:
                later[k] += int(todo.get(k, 0))
    return _Ctx(c, board, state, pillar, player, dict(state["to_deploy"].get(pillar, {})),
                later, territories_of(state, player), board.name == "titans")


def _team_islands(ctx: _Ctx) -> set[str]:
    return {ctx.board.island_of(t) for a in allies(ctx.state, ctx.player)
            for t in territories_of(ctx.state, a)}


def land_problem(ctx: _Ctx, tid: str) -> str:
    """Why the pillar may not put units on territory ``tid`` ("" if it may): Setup 9.1
    (taken, small island on the Titans board) and Team 2 (a teammate's island)."""
    if tid not in ctx.board.territories:
        return f"{tid!r} is not a territory of this board"
    owner = ctx.state["territories"][tid]["owner"]
    if owner and owner != ctx.player:
        return f"{tid} is already taken by {owner}"
    if ctx.titans_board and ctx.board.territory(tid).small_island:
        return f"{tid} is a small island: no start there on the Titans board (Setup 9.1)"
    if ctx.board.island_of(tid) in _team_islands(ctx):
        return f"a teammate starts on {ctx.board.island_of(tid)}: teammates start on " \
               "different islands (Team 2)"
    return ""


def _free(ctx: _Ctx, tid: str) -> bool:
    return not land_problem(ctx, tid) and not ctx.state["territories"][tid]["owner"]


def _pair_possible(ctx: _Ctx, land: Sequence[str]) -> bool:
    """Whether a second territory could still join ``land`` (one territory): Titans board, a
    free neighbour; Vanilla board, any other free island."""
    (only,) = land
    if ctx.titans_board:
        return any(_free(ctx, t) for t in ctx.board.land_neighbours(only))
    return any(_free(ctx, t) for t in ctx.board.territories if t != only)


def sea_problem(ctx: _Ctx, sea: str, land: Sequence[str]) -> str:
    """Why a fleet may not be deployed on ``sea`` next to ``land`` ("" if it may): Setup 9.2."""
    if sea not in ctx.board.seas:
        return f"{sea!r} is not a sea space of this board"
    if not set(ctx.board.territories_of(sea)) & set(land):
        return f"{sea} touches none of your territories (Setup 9.2)"
    holder = ctx.state["seas"][sea]["owner"]
    if holder and holder != ctx.player:
        return f"{sea} holds {holder}'s fleets"
    return ""


# --- reading the form ---------------------------------------------------------------------------


def _count_list(orders: Mapping[str, Any], key: str, place: str,
                problems: list[Problem]) -> list[tuple[str, int]]:
    raw = orders.get(key, [])
    if not isinstance(raw, list):
        problems.append(Problem(f"[orders] {key}", "must be a list",
                                f"{key} = [{{{place} = \"...\", count = 1}}]"))
        return []
    out: list[tuple[str, int]] = []
    for i, entry in enumerate(raw):
        at = f"[orders] {key}[{i}]"
        if not isinstance(entry, Mapping):
            problems.append(Problem(at, "must be a table", f"{{{place} = \"...\", count = 1}}"))
            continue
        for k in entry:
            if k not in (place, "count"):
                problems.append(Problem(f"{at}.{k}", f"unknown key {k!r}",
                                        f"keep only {place} and count"))
        where, count = entry.get(place), entry.get("count", 1)
        if not isinstance(where, str) or not where:
            problems.append(Problem(f"{at}.{place}", f"the {place} is missing",
                                    f"write {place} = \"...\""))
            continue
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            problems.append(Problem(f"{at}.count", f"count must be a whole number >= 1, not "
                                    f"{count!r}", "write count = 1"))
            continue
        out.append((where, count))
    return out


def _read(ctx: _Ctx, orders: Mapping[str, Any]) -> tuple[Plan, set[str], list[Problem]]:
    """The form as a partial plan, the sections it gives, and its syntax problems."""
    problems: list[Problem] = []
    for key in orders:
        if key not in DEPLOY_KEYS:
            problems.append(Problem(f"[orders] {key}", f"unknown key {key!r}",
                                    f"a deploy form has {', '.join(DEPLOY_KEYS)}"))
    plan = Plan(troops=_count_list(orders, "troops", "territory", problems),
                titans=_count_list(orders, "titans", "territory", problems),
                fleets=_count_list(orders, "fleets", "sea", problems))
    raw = orders.get("buildings", [])
    if not isinstance(raw, list):
        problems.append(Problem("[orders] buildings", "must be a list",
                                "buildings = [{building = \"port\", territory = \"...\"}]"))
        raw = []
    for i, entry in enumerate(raw):
        at = f"[orders] buildings[{i}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("building"), str) or \
                not isinstance(entry.get("territory"), str):
            problems.append(Problem(at, "must be {building = \"...\", territory = \"...\"}",
                                    "name the building and the territory"))
            continue
        for k in entry:
            if k not in ("building", "territory"):
                problems.append(Problem(f"{at}.{k}", f"unknown key {k!r}",
                                        "keep only building and territory"))
        plan.buildings.append((entry["building"], entry["territory"]))
    pros = orders.get("prosperity", "")
    if not isinstance(pros, str):
        problems.append(Problem("[orders] prosperity", "must be a territory name",
                                "prosperity = \"naxos\""))
    else:
        plan.prosperity = pros
    mon = orders.get("monument")
    if mon is not None:
        if isinstance(mon, Mapping) and isinstance(mon.get("monument"), str) and \
                isinstance(mon.get("territory"), str) and set(mon) <= {"monument", "territory"}:
            plan.monument = (mon["monument"], mon["territory"])
        elif mon:
            problems.append(Problem("[orders] monument", "must be {monument = \"...\", "
                                    "territory = \"...\"}", "name the Monument and where"))
    problems += _unknown_names(ctx, plan)
    given = {k for k, v in (("land", plan.troops or plan.titans), ("fleets", plan.fleets),
                            ("buildings", plan.buildings), ("prosperity", plan.prosperity),
                            ("monument", plan.monument)) if v}
    return plan, given, problems


def _unknown_names(ctx: _Ctx, plan: Plan) -> list[Problem]:
    """Every name of ``plan`` that is no territory, sea, building or Monument of the game (the
    form was normalised first, so case and blanks are already forgiven), with the choices."""
    territories, seas = sorted(ctx.board.territories), sorted(ctx.board.seas)
    out: list[Problem] = []

    def check(where: str, value: str, known: Sequence[str], what: str) -> None:
        if value not in known:
            out.append(Problem(where, f"{value!r} is not {what} of this board",
                               names.choices(value, known)))

    for key, entries in (("troops", plan.troops), ("titans", plan.titans)):
        for i, (tid, _) in enumerate(entries):
            check(f"[orders] {key}[{i}].territory", tid, territories, "a territory")
    for i, (sea, _) in enumerate(plan.fleets):
        check(f"[orders] fleets[{i}].sea", sea, seas, "a sea space")
    for i, (b, tid) in enumerate(plan.buildings):
        check(f"[orders] buildings[{i}].building", b, sorted(ctx.c.buildings), "a building")
        check(f"[orders] buildings[{i}].territory", tid, territories, "a territory")
    if plan.prosperity:
        check("[orders] prosperity", plan.prosperity, territories, "a territory")
    if plan.monument is not None:
        check("[orders] monument.monument", plan.monument[0], sorted(ctx.c.monuments),
              "a Monument")
        check("[orders] monument.territory", plan.monument[1], territories, "a territory")
    return out


# --- defaults -----------------------------------------------------------------------------------


def _targets(ctx: _Ctx, units: int) -> list[str]:
    """Where the default puts ``units`` land units (see the module docstring): new territories
    first, then those the player holds (units are dealt round-robin over the list)."""
    mine = list(ctx.mine)
    if len(mine) >= 2 or units == 0:
        return mine
    free = [t for t in sorted(ctx.board.territories) if _free(ctx, t)]
    if not ctx.titans_board:
        return free[:min(2 - len(mine), units)] + mine
    if mine:
        return [t for t in ctx.board.land_neighbours(mine[0]) if _free(ctx, t)][:1] + mine
    pairs = [p for p in ctx.board.starting_pairs() if _free(ctx, p[0]) and _free(ctx, p[1])]
    return list(pairs[0])[:min(2, units)] if pairs else free[:1]


def _default_land(ctx: _Ctx) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    units = ["troop"] * ctx.n("troop") + ["titan"] * ctx.n("titan")
    targets = _targets(ctx, len(units))
    if not units or not targets:
        return [], []
    troops: Counter[str] = Counter()
    titans: Counter[str] = Counter()
    for i, kind in enumerate(units):
        (troops if kind == "troop" else titans)[targets[i % len(targets)]] += 1
    return sorted(troops.items()), sorted(titans.items())


def _land(ctx: _Ctx, plan: Plan) -> list[str]:
    return sorted(set(ctx.mine) | set(plan.new_land()))


def _default_fleets(ctx: _Ctx, land: Sequence[str]) -> list[tuple[str, int]]:
    """Each fleet on a second sea while the player has fewer than two, else doubling up on the
    emptier of the two (first by id); only seas next to ``land`` free of other fleets."""
    now = ctx.fleets_now()
    candidates = [s for s in sorted(ctx.board.seas) if not sea_problem(ctx, s, land)]
    added: Counter[str] = Counter()
    for _ in range(ctx.n("fleet")):
        current = Counter(now) + added
        fresh = [s for s in candidates if s not in current]
        if len(current) < 2 and fresh:
            added[fresh[0]] += 1
            continue
        stack = sorted((n, s) for s, n in current.items() if n < 2 and s in candidates)
        if stack:
            added[stack[0][1]] += 1
        elif fresh:
            added[fresh[0]] += 1
        elif candidates:
            added[candidates[0]] += 1
    return sorted(added.items())


def _room(ctx: _Ctx, tid: str, planned: Sequence[tuple[str, str]]) -> int:
    used = len(ctx.state["territories"][tid]["buildings"]) + sum(
        1 for _, t in planned if t == tid)
    return ctx.board.territory(tid).building_spaces - used


def _default_buildings(ctx: _Ctx, land: Sequence[str]) -> list[tuple[str, str]]:
    wanted = ctx.required_buildings()
    choices = kronos_choices(ctx.c, ctx.state)
    if ctx.n(BUILDING_OF_GOD_ABOVE) and choices:
        wanted += [choices[0]] * ctx.n(BUILDING_OF_GOD_ABOVE)
    out: list[tuple[str, str]] = []
    for b in wanted:
        spot = [t for t in land if _room(ctx, t, out) > 0]
        if spot:
            out.append((b, spot[0]))
    return out


def _colours(ctx: _Ctx, land: Sequence[str], buildings: Sequence[tuple[str, str]]
             ) -> Counter[str]:
    """The colours of the buildings the player would control (Theaters never count)."""
    ids = [b for t in land for b in ctx.state["territories"][t]["buildings"]]
    ids += [b for b, _ in buildings]
    return Counter(ctx.c.buildings[b].colour for b in ids
                   if b in ctx.c.buildings and ctx.c.buildings[b].monument)


def monument_problem(ctx: _Ctx, monument: str, territory: str, land: Sequence[str],
                     buildings: Sequence[tuple[str, str]]) -> str:
    """Setup 9.3.1 with Misc Monuments 1: why the Monument may not be claimed ("" if it may)."""
    mons = ctx.state["monuments"]
    if monument not in ctx.c.monuments:
        return f"{monument!r} is not a Monument"
    if monument in mons["built"] or monument not in mons["offer"]:
        return f"the {ctx.c.monuments[monument].name} is not among the Monuments laid out"
    if territory not in land:
        return f"{territory} is not one of your territories"
    have = _colours(ctx, land, buildings)
    need = Counter(ctx.c.monuments[monument].requires)
    if any(have[col] < k for col, k in need.items()):
        return f"it needs two buildings, {' and '.join(ctx.c.monuments[monument].requires)}" \
               " (never a Theater), and you would not control them"
    return ""


def _default_monument(ctx: _Ctx, land: Sequence[str], buildings: Sequence[tuple[str, str]]
                      ) -> tuple[str, str] | None:
    if not land:
        return None
    for m in ctx.state["monuments"]["offer"]:
        if not monument_problem(ctx, m, land[0], land, buildings):
            return (m, land[0])
    return None


def _complete(ctx: _Ctx, plan: Plan, given: set[str]) -> Plan:
    """``plan`` with every section not given filled by its default, in dependency order."""
    out = Plan(**{k: getattr(plan, k) for k in ("troops", "titans", "fleets", "buildings",
                                                "prosperity", "monument")})
    if "land" not in given:
        out.troops, out.titans = _default_land(ctx)
    elif not out.titans and ctx.n("titan"):
        spot = sorted({t for t, _ in out.troops})[:1]
        out.titans = [(spot[0], ctx.n("titan"))] if spot else []
    elif not out.troops and ctx.n("troop"):
        spot = sorted({t for t, _ in out.titans})[:1]
        out.troops = [(spot[0], ctx.n("troop"))] if spot else []
    land = _land(ctx, out)
    if "fleets" not in given:
        out.fleets = _default_fleets(ctx, land)
    if "buildings" not in given:
        out.buildings = _default_buildings(ctx, land)
    if "prosperity" not in given:
        out.prosperity = land[0] if ctx.n("prosperity") and land else ""
    if "monument" not in given:
        out.monument = _default_monument(ctx, land, out.buildings)
    return out


# --- checking -----------------------------------------------------------------------------------


def _check(ctx: _Ctx, plan: Plan) -> list[tuple[str, Problem]]:
    """Every rule ``plan`` breaks, each tagged with the form section it belongs to."""
    out: list[tuple[str, Problem]] = []

    def add(section: str, where: str, message: str, hint: str = "") -> None:
        out.append((section, Problem(where, message, hint)))

    # Setup 9.1: troops and Titans.
    for key, entries, item in (("troops", plan.troops, "troop"), ("titans", plan.titans,
                                                                  "titan")):
        for i, (tid, _) in enumerate(entries):
            why = land_problem(ctx, tid)
            if why:
                add("land", f"[orders] {key}[{i}].territory", why, "choose a free territory")
        placed = sum(n for _, n in entries)
        if placed != ctx.n(item):
            add("land", f"[orders] {key}", f"you place {placed} {item}(s) and have "
                f"{ctx.n(item)} to deploy", f"place exactly {ctx.n(item)}")
    land = _land(ctx, plan)
    if ctx.titans_board and len(land) > 2:
        add("land", "[orders] troops", f"{len(land)} territories ({', '.join(land)}): never "
            "more than two on the Titans board (Setup 9.1)", "use two adjacent territories")
    elif ctx.titans_board and len(land) == 2 and land[1] not in ctx.board.land_neighbours(
            land[0]):
        add("land", "[orders] troops", f"{land[0]} and {land[1]} are not adjacent (Setup 9.1)",
            "choose two territories that share a border")
    finishing = not ctx.later["troop"] and not ctx.later["titan"]
    if len(land) == 1 and finishing and ctx.land_total() >= 2 and _pair_possible(ctx, land):
        hint = ("add a free territory adjacent to " + land[0] if ctx.titans_board
                else "put a troop on a second island")
        add("land", "[orders] troops", "your troops must stand on two "
            + ("adjacent territories (Setup 9.1)" if ctx.titans_board
               else "islands at least (Setup 9.1)"), hint)

    # Setup 9.2: fleets.
    for i, (sea, _) in enumerate(plan.fleets):
        why = sea_problem(ctx, sea, land)
        if why:
            add("fleets", f"[orders] fleets[{i}].sea", why,
                "choose a sea space next to one of your territories")
    placed = sum(n for _, n in plan.fleets)
    if placed != ctx.n("fleet"):
        add("fleets", "[orders] fleets", f"you place {placed} fleet(s) and have "
            f"{ctx.n('fleet')} to deploy", f"place exactly {ctx.n('fleet')}")
    spread = Counter(ctx.fleets_now())
    for sea, n in plan.fleets:
        spread[sea] += n
    if len(spread) > 2 or any(n > 2 for n in spread.values()):
        add("fleets", "[orders] fleets", "fleets go on two different sea spaces, a third "
            "doubling up on one of them (Setup 9.2)", "use exactly two sea spaces")
    elif not ctx.later["fleet"] and len(spread) < min(2, ctx.fleet_total()):
        fresh = [s for s in ctx.board.seas if s not in spread and not sea_problem(ctx, s, land)]
        if fresh:
            add("fleets", "[orders] fleets", "your fleets must be on two DIFFERENT sea spaces "
                "(Setup 9.2)", f"e.g. one on {sorted(fresh)[0]}")

    # Setup 9.3: buildings.
    wanted = Counter(ctx.required_buildings())
    choices = kronos_choices(ctx.c, ctx.state)
    free_choice = ctx.n(BUILDING_OF_GOD_ABOVE)
    placed_list: list[tuple[str, str]] = []
    for i, (b, tid) in enumerate(plan.buildings):
        at = f"[orders] buildings[{i}]"
        if wanted[b] > 0:
            wanted[b] -= 1
        elif free_choice and b in choices:
            free_choice -= 1
        else:
            add("buildings", f"{at}.building", f"you have no {b!r} to place", "place "
                + (", ".join(sorted(wanted.elements())) or "nothing")
                + (f" and one of {', '.join(choices)}" if free_choice else ""))
            continue
        if tid not in land:
            add("buildings", f"{at}.territory", f"{tid} is not one of your territories "
                "(Setup 9.3)", f"one of {', '.join(land) or 'none'}")
        elif _room(ctx, tid, placed_list) <= 0:
            add("buildings", f"{at}.territory", f"{tid} has no free building space",
                "choose another of your territories")
        placed_list.append((b, tid))
    missing = sum(wanted.values()) + (free_choice if choices else 0)
    if missing and any(_room(ctx, t, placed_list) > 0 for t in land):
        add("buildings", "[orders] buildings", f"{missing} building(s) not placed",
            "place every building of your bonus (Setup 9.3)")

    # Apollo's prosperity marker.
    if plan.prosperity and not ctx.n("prosperity"):
        add("prosperity", "[orders] prosperity", "you have no prosperity marker to place",
            "leave prosperity out")
    elif plan.prosperity and plan.prosperity not in land:
        add("prosperity", "[orders] prosperity", f"{plan.prosperity} is not one of your "
            "territories", f"one of {', '.join(land) or 'none'}")

    # Setup 9.3.1: a Monument.
    if plan.monument is not None:
        why = monument_problem(ctx, plan.monument[0], plan.monument[1], land, plan.buildings)
        if why:
            add("monument", "[orders] monument", why, "leave monument out, or claim it later "
                "in one of your actions (Misc Monuments 2)")
    return out


def _plan(c: Components, board: Board, state: State, pillar: str,
          orders: Mapping[str, Any]) -> tuple[Plan, list[Problem]]:
    ctx = _context(c, board, state, pillar)
    partial, given, problems = _read(ctx, orders)
    if problems:
        return _complete(ctx, Plan(), set()), problems
    plan = _complete(ctx, partial, given)
    problems = [p for section, p in _check(ctx, plan) if section in given]
    return plan, problems


def validate_deploy(c: Components, board: Board, state: State, pillar: str,
                    orders: Mapping[str, Any]) -> list[Problem]:
    """Every problem of ``pillar``'s deploy form (Setup 9, Team 2); an empty form is valid.
    Only the sections the form gives are checked: the others take their default."""
    if pillar not in state["pillars"]:
        return [Problem("[orders]", f"no pillar {pillar!r}", "")]
    return _plan(c, board, state, pillar, orders)[1]


def default_deploy(c: Components, board: Board, state: State, pillar: str) -> dict[str, Any]:
    """The default deployment of ``pillar`` as a deploy form (see the module docstring)."""
    ctx = _context(c, board, state, pillar)
    return _complete(ctx, Plan(), set()).as_orders()


def resolve_deploy(c: Components, board: Board, state: State, pillar: str,
                   orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    """Setup 9: place ``pillar``'s units, buildings, marker (and Monument); Setup 10: the pillar
    takes the last free slot of the turn order; after the last pillar, Setup 11
    (``cycle.start_first_cycle``). An illegal form (never the case after validation) is
    replaced by the default, said in a public event."""
    plan, problems = _plan(c, board, state, pillar, orders)
    events: list[Event] = []
    if problems:
        plan = _complete(_context(c, board, state, pillar), Plan(), set())
        events.append(event("deploy_default", "Setup 9", f"{pillar}'s deployment is not legal "
                            f"({problems[0].message}); the default is used.", pillar=pillar))
    events += _apply(c, state, pillar, plan)
    state["to_deploy"][pillar] = {}
    acting = state["acting"]
    acting["finished"].append(pillar)
    acting["index"] = int(acting["index"]) + 1
    state["turn_order"] = list(reversed(acting["finished"]))  # Setup 10
    slot = len(state["pillars"]) - len(acting["finished"]) + 1
    events.append(event("offering", "Setup 10", f"{pillar} places its offering marker on the "
                        f"last free slot ({slot} of {len(state['pillars'])}).", pillar=pillar,
                        slot=slot))
    if acting["index"] >= len(acting["queue"]):
        state["to_deploy"] = {}
        events += cycle.start_first_cycle(c, board, state, rng)
    return events


def _apply(c: Components, state: State, pillar: str, plan: Plan) -> list[Event]:
    player = player_of(state, pillar)
    parts: list[str] = []
    for key, entries in (("troops", plan.troops), ("titans", plan.titans)):
        for tid, n in entries:
            t = state["territories"][tid]
            t["owner"] = player
            t[key] += n
            parts.append(f"{n} {key[:-1] if n == 1 else key} on {tid}")
    for sea, n in plan.fleets:
        state["seas"][sea]["owner"] = player
        state["seas"][sea]["fleets"] += n
        parts.append(f"{n} fleet{'s' if n > 1 else ''} in {sea}")
    for b, tid in plan.buildings:
        state["territories"][tid]["buildings"].append(b)
        parts.append(f"a {c.buildings[b].name} on {tid}")
    events: list[Event] = []
    if plan.prosperity:
        if int(state["supply"]["prosperity"]) > 0:
            state["supply"]["prosperity"] -= 1
            state["territories"][plan.prosperity]["prosperity"] += 1
            parts.append(f"the prosperity marker on {plan.prosperity}")
        else:
            parts.append("no prosperity marker (none left, Forgotten 7)")
    events.insert(0, event("deploy", "Setup 9", f"{pillar} deploys: "
                           f"{'; '.join(parts) or 'nothing'}.", pillar=pillar, player=player,
                           orders=plan.as_orders()))
    if plan.monument is not None:
        m, tid = plan.monument
        mons = state["monuments"]
        mons["offer"].remove(m)
        mons["built"][m] = {"owner": player, "territory": tid}
        state["territories"][tid]["monuments"].append(m)
        state["hands"][player]["monuments"].append(m)
        events.append(event("monument", "Setup 9.3.1", f"{player} claims the "
                            f"{c.monuments[m].name} and places it on {tid}.", player=player,
                            monument=m, territory=tid))
    return events

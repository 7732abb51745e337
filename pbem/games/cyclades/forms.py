"""Cyclades order forms for one player, now (issue 14), built from the player's view alone.

The static forms ``orders/cyclades/{deploy,act,bid,upkeep}.toml`` keep their prose, their
active lines and their keys (``pbem check`` reads them, ``pbem form`` without a campaign prints
them). With a view, :func:`order_form` heads the form with :func:`situation` and replaces each
commented example (``# free = ..``, the ``# actions = [ .. ]`` list, ``# bids = ..`` ...) by
one that names real ids legal for this player at this record: their own territories, the free
ones, the seas by their territories, the creature on the track they can pay, the gods on the
track with an offer they can pay, their own Heroes, the god's free recruit place. An example is
kept only if the rules accept it on a stand-in state made from the view
(``bot._state_from_view``: what the view hides is unknown, never guessed from the GM state);
one that cannot be legal now is left out with one comment line saying why. Sent back
unchanged, a form still means its documented default: the active lines are the static ones.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any

from pbem.core.dice import Stream
from pbem.core.errors import Problem
from pbem.core.resources import order_form_text
from pbem.core.ruleset import PhaseSpec
from pbem.games.cyclades import bidding, setup
from pbem.games.cyclades.actions import default_free_place
from pbem.games.cyclades.bot import _Act as _BotAct
from pbem.games.cyclades.bot import _state_from_view
from pbem.games.cyclades.components import BUILDING_OF_GOD_ABOVE, GOD_ABOVE, Components
from pbem.games.cyclades.creatures import CREATURE_FLOOR
from pbem.games.cyclades.maps import Board, load_board
from pbem.games.cyclades.state import (
    buildings_of,
    land_units,
    sea_units,
    seas_of,
    territories_of,
)
from pbem.games.cyclades.turn import fleet_place_problem, power_total

Orders = dict[str, Any]
#: The game's ``validate(state, phase, player, orders)``: every problem of ``orders``.
Validate = Callable[[dict[str, Any], PhaseSpec, str, Orders], list[Problem]]
WIDTH = 78
#: Candidates tried per example (each is a validation, with a rehearsal for actions).
TRIES = 12
_ASSIGN = re.compile(r"# ([a-z_]+) = ")
_ACTIVE = re.compile(r"([a-z_]+) = ")


def _toml(value: Any, eq: str = " = ") -> str:
    """``value`` as one line of TOML (inline tables, lists, strings, numbers); ``eq="="``:
    the compact spelling, for an inline table too long for a line otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}{eq}{_toml(v, eq)}" for k, v in value.items()) + "}"
    return "[" + ", ".join(_toml(v, eq) for v in value) + "]"


def _fit(head: str, value: Any, tail: str = "") -> str:
    """``head`` + ``value`` + ``tail`` on one line, compact if it must be ("" if even that
    is wider than :data:`WIDTH`: an inline table cannot go on over lines)."""
    for eq in (" = ", "="):
        line = head + _toml(value, eq) + tail
        if len(line) <= WIDTH:
            return line
    return ""


def _assign(key: str, value: Any) -> list[str]:
    """``# key = value`` as comment lines within :data:`WIDTH`: a list goes on over the next
    lines, one or more items a line, under its first item (TOML arrays may span lines)."""
    line = _fit(f"# {key} = ", value)
    if line or not isinstance(value, list):
        return [line] if line else _why(f"no {key} example: too long for a line")
    lead = f"# {key} = ["
    pad = "#" + " " * (len(lead) - 1)
    lines: list[str] = []
    current = lead
    for n, item in enumerate(value):
        text = _fit("", item, "]" if n == len(value) - 1 else ",")
        sep = "" if current in (lead, pad) else " "
        if sep and len(current) + len(sep) + len(text) > WIDTH:
            lines.append(current)
            current, sep = pad, ""
        current += sep + text
    return [*lines, current]


def _reason(message: str) -> str:
    """A validation message as the reason of a left-out example (the rehearsal's preamble,
    "action 1 (recruit) would be skipped when your turn runs:", said once, not each time)."""
    return re.sub(r"^.*? would be skipped when your turn runs: ", "", message)


def _why(text: str, indent: str = "# ") -> list[str]:
    """One comment saying why an example is left out (wrapped only if it must be)."""
    return textwrap.wrap(text, WIDTH - len(indent), initial_indent=indent,
                         subsequent_indent=indent + "  ")


class _Forms:
    """The examples of one form: each candidate is checked with the game's own validation on
    a stand-in state made from ``view``."""

    def __init__(self, c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
                 validate: Validate) -> None:
        self.c, self.view, self.phase, self.player = c, view, phase, player
        self.validate = validate
        self.board: Board = load_board(view["game"]["board"], len(view["game"]["players"]))
        self.state = _state_from_view(view)
        self.mine = territories_of(view, player)
        self.hand: Mapping[str, Any] = view["hands"][player]
        self.gold = int(view.get("gold", {}).get(player, 0))
        self.last = ""  # the first problem of the first candidate refused

    def legal(self, orders: Orders) -> bool:
        try:
            problems = self.validate(self.state, self.phase, self.player, orders)
        except (KeyError, IndexError, TypeError, ValueError) as exc:  # unknowable from view
            self.last = self.last or f"it depends on what you cannot see ({exc})"
            return False
        if problems and not self.last:
            self.last = problems[0].message
        return not problems

    def first(self, candidates: Iterable[Orders]) -> Orders | None:
        """The first legal candidate (at most :data:`TRIES` are tried). When none is,
        ``last`` says why the first one was refused: candidates come likeliest first (the
        cards one can pay before the others), so that is the reason that matters."""
        self.last = ""
        for i, orders in enumerate(candidates):
            if i >= TRIES:
                break
            if self.legal(orders):
                return orders
        return None

    # --- helpers ------------------------------------------------------------------------

    def own_first(self, places: Iterable[str]) -> list[str]:
        """Territories, the player's own and the empty ones first (no battle), by id."""
        terr = self.view["territories"]
        return sorted(places, key=lambda t: (terr[t]["owner"] not in ("", self.player)
                                             and bool(land_units(terr[t])), t))

    def fleet_seas(self) -> list[str]:
        return [s for s in self.board.sea_ids
                if not fleet_place_problem(self.c, self.board, self.state, self.player, s)]

    def targets(self, pick: Callable[[_BotAct], dict[str, Any]]) -> list[dict[str, Any] | None]:
        """Targets the bot would give (it reads only the view), a few draws; ``None`` first:
        no target at all."""
        out: list[dict[str, Any] | None] = [None]
        for i in range(4):
            act = _BotAct(self.c, self.board, self.view, _god(self.view) or "zeus", self.player,
                       Stream(f"form/{i}".encode()))
            try:
                target = pick(act)
            except (KeyError, IndexError, ValueError):
                continue
            if target not in out:
                out.append(target)
        return out


def _god(view: Mapping[str, Any]) -> str:
    acting = view.get("acting") or {}
    queue = acting.get("queue") or []
    index = int(acting.get("index", 0) or 0)
    return str(queue[index][0]) if 0 <= index < len(queue) else ""


# =============================================================================================
# deploy (Setup 9)
# =============================================================================================


def _deploy(f: _Forms) -> dict[str, list[str]]:
    pillar = f.phase.active or f.player
    todo = (f.view.get("to_deploy") or {}).get(pillar, {})
    default = setup.default_deploy(f.c, f.board, f.state, pillar)
    out: dict[str, list[str]] = {}
    for key, item, what in (("troops", "troop", "troops"), ("titans", "titan", "Titans"),
                            ("fleets", "fleet", "fleets")):
        if not todo.get(item):
            out[key] = _why(f"you have no {what} to deploy: no {key} example")
            continue
        got = f.first([{key: default[key]}] if default[key] else [])
        out[key] = (_assign(key, got[key]) if got else
                    _why(f"no legal place for your {what} now: no {key} example"))
    if not any(b in f.c.buildings or b == BUILDING_OF_GOD_ABOVE for b in todo
               if todo[b]):
        out["buildings"] = _why("you have no buildings to place: no buildings example")
    else:
        got = f.first([{"buildings": default["buildings"]}] if default["buildings"] else [])
        out["buildings"] = (_assign("buildings", got["buildings"]) if got else
                            _why("no territory of yours has room: no buildings example"))
    if not todo.get("prosperity"):
        out["prosperity"] = _why("you have no prosperity marker to place: no prosperity "
                                 "example")
    else:
        land = sorted({e["territory"] for e in default["troops"] + default["titans"]}
                      | set(f.mine))
        got = f.first({"prosperity": t} for t in land)
        out["prosperity"] = (_assign("prosperity", got["prosperity"]) if got else
                             _why("no territory of yours yet: no prosperity example"))
    got = f.first([{"monument": default["monument"]}] if default.get("monument") else [])
    out["monument"] = (_assign("monument", got["monument"]) if got else
                       _why("you could claim no Monument now: no monument example"))
    return out


# =============================================================================================
# bid (Setup 8, Cycle 7)
# =============================================================================================


def _bid(f: _Forms) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    top = bidding.max_offer(f.gold, int(f.hand["priest"]))
    gods = list(f.view["gods"]["track"])
    entries: list[dict[str, Any]] = []
    if top >= 1:
        for i, god in enumerate(gods[:2]):
            entries.append({"god": god, "offer": max(1, min(top, 3 - i))})
    entries.append({"god": bidding.APOLLO})
    got = f.first([{"bids": entries}, {"bids": entries[-1:]}])
    if got:
        out["bids"] = _assign("bids", got["bids"])
        if top < 1:
            out["bids"] += _why("you cannot pay any offer (no gold): only Apollo")
    else:
        out["bids"] = _why("no bid of yours is legal now: no bids example")
    mine = sorted(fid for fid, x in f.view["figures"].items() if x["owner"] == f.player)
    old = [fid for fid in mine if int(f.view["figures"][fid]["cycle"]) < int(f.view["cycle"])]
    got = f.first({"apollo_keep": [fid]} for fid in old + mine)
    out["apollo_keep"] = (_assign("apollo_keep", got["apollo_keep"]) if got else
                          _why("you have no creature figure on the board: no apollo_keep "
                               "example"))
    lines = ['# retreat = {when = "at_most", units = 1}  # or "never", {when = "behind",',
             "#                                          # by = 2}, {when =",
             '#                                          # "after_rounds", rounds = 2}']
    got = f.first({"defend": {"retreat": {"when": "at_most", "units": 1, "to": [t]}}}
                  for t in f.mine)
    if got:
        lines.append(f"#     # add to = {_toml(got['defend']['retreat']['to'])}: where to "
                     "retreat, first choice first")
    else:
        lines.append("#     # add to = [..]: where to retreat, first choice first")
    out["retreat"] = lines
    return out


# =============================================================================================
# upkeep (Cycle 3)
# =============================================================================================


def _upkeep(f: _Forms) -> dict[str, list[str]]:
    heroes = sorted(f.hand["heroes"])
    if not heroes:
        why = _why("you control no Hero: no keep or release example")
        return {"keep": why, "release": []}
    pays = [p for p, have in (("gold", f.gold >= f.c.rules.hero_upkeep_gold),
                              ("priestess", int(f.hand["priestess"]) >=
                               f.c.rules.hero_upkeep_priestess)) if have]
    keep = [{"hero": h, "pay": p} for p in pays for h in heroes]
    got = f.first([{"keep": keep[:2]}, *({"keep": [k]} for k in keep)] if len(heroes) > 1
                  else ({"keep": [k]} for k in keep))
    out: dict[str, list[str]] = {}
    if got:
        out["keep"] = _assign("keep", got["keep"])
    else:
        n = f.c.rules.hero_upkeep_priestess
        priestess = "a Priestess" if n == 1 else f"{n} Priestesses"
        out["keep"] = _why(f"you have neither {f.c.rules.hero_upkeep_gold} gold nor "
                           f"{priestess} to pay: no keep example")
    got = f.first({"release": [h]} for h in reversed(heroes))
    out["release"] = (_assign("release", got["release"]) if got else
                      _why("no release example is legal now"))
    return out


# =============================================================================================
# act (Cycle 8)
# =============================================================================================

#: Notes kept under an action example (from the static form).
NOTES: Mapping[str, Sequence[str]] = {
    "move": ("#       # also heroes = [..], titans = 1, egyptians = [..],",
             "#       # artifacts = [..], undead = 1 (Hades)"),
    "sail": ("#       # up to 3 seas; undead_fleets = 1 (Hades)",),
    "buy": ("#       # your Temples lower the price (8.4.1); discount = 1 keeps",
            "#       # the others for a later creature this turn"),
    "swap": ("#       # Zeus (Forgotten 5)",),
    "titan_move": ("#       # Misc Titans 1; also troops = 1, heroes = [..]",),
    "special_attack": ("#       # Misc Egyptian 4-5",),
    "item": ("#       # a magic item, once",),
    "favor": ("#       # a divine favor, once",),
}


class _ActForm(_Forms):
    """The examples of an act form (not Apollo's: :func:`apollo_form`)."""

    def __init__(self, c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
                 validate: Validate) -> None:
        super().__init__(c, view, phase, player, validate)
        self.god = _god(view)
        self.g = c.god(self.god)
        self.terr: Mapping[str, Any] = view["territories"]

    def action(self, kind: str, candidates: Iterable[Mapping[str, Any]], none: str
               ) -> list[str]:
        """The example of one action kind, or why there is none (``none``: when no
        candidate at all could be made)."""
        cands = [{"do": kind, **c} for c in candidates]
        got = self.first({"actions": [a]} for a in cands)
        if got is None:
            reason = none if not cands else _reason(self.last)
            return _why(f"no {kind} example: {reason}", "#   # ")
        line = _fit("#   ", got["actions"][0], ",")
        if not line:
            return _why(f"no {kind} example: too long for a line", "#   # ")
        return [line, *NOTES.get(kind, ())]

    def recruit(self) -> list[str]:
        r = self.g.recruit
        if r is None:
            return _why(f"no recruit example: {self.g.name} recruits nothing", "#   # ")
        if any(u in ("fleet", "undead_fleet") for u in r.units):
            cands = [{"count": 1, "sea": s} for s in self.fleet_seas()]
        elif any(u in ("troop", "titan", "undead_troop") for u in r.units):
            cands = [{"count": 1, "territory": t} for t in self.mine]
        else:
            cands = [{"count": 1}]
        return self.action("recruit", cands, "you have no territory to recruit on")

    def build(self) -> list[str]:
        b = self.g.build
        if b is None:
            return _why(f"no build example: {self.g.name} builds nothing", "#   # ")
        kinds = setup.kronos_choices(self.c, self.state) if b.building == GOD_ABOVE \
            else [b.building]
        room = [t for t in self.mine if len(self.terr[t]["buildings"]) <
                self.board.territory(t).building_spaces]
        return self.action("build", ({"building": k, "territory": t} for t in room
                                     for k in kinds),
                           "no territory of yours has a free building space")

    def move(self) -> list[str]:
        m = self.g.move
        undead = {"undead": 1} if m is not None and m.requires_undead else {}
        fleets = seas_of(self.view, self.player)
        src = sorted((t for t in self.mine if self.terr[t]["troops"]),
                     key=lambda t: (-int(self.terr[t]["troops"]), t))
        cands = [{"from": s, "to": d, "troops": 1, **undead} for s in src
                 for d in self.own_first(self.board.reachable_territories(s, fleets))]
        return self.action("move", cands, "you have no troops to move")

    def sail(self) -> list[str]:
        m = self.g.move
        own = [s for s, x in sorted(self.view["seas"].items())
               if x["owner"] == self.player and x["fleets"]]
        blocked = [s for s, x in self.view["seas"].items()
                   if x["owner"] not in ("", self.player) and sea_units(x)]
        reach = (m.sea_range if m is not None and m.sea_range else 3)
        undead = {"undead_fleets": 1} if m is not None and m.requires_undead else {}
        cands = [{"from": s, "to": d, "fleets": 1, **undead} for s in own
                 for d in sorted(self.board.fleet_paths(s, reach, blocked)) if d != s]
        return self.action("sail", cands, "you have no fleets")

    def lowest_price(self, index: int, cid: str) -> int:
        """The least the card in slot ``index`` can cost this player this turn: its slot's
        price less their Temples and lasting discounts, never below the floor (Cycle 8.4.1,
        ``creatures.price_of``; a discount armed later in the turn is not counted)."""
        base = self.c.track_price(index)
        if not self.c.track.kinds[self.c.track_card(cid).kind].temple_discount:
            return base
        off = power_total(self.c, self.state, self.player, "creature_discount") + sum(
            self.c.buildings[b].creature_discount
            for b in buildings_of(self.state, self.player) if b in self.c.buildings)
        return max(min(base, CREATURE_FLOOR), base - off)

    def buy(self) -> list[str]:
        slots = self.view["creature_track"]["slots"]
        prices = self.c.track.prices
        cards = [(i, cid) for i, cid in enumerate(slots) if cid and i < len(prices)]
        if not cards:
            return _why("no buy example: the creature track is empty", "#   # ")
        cost = {i: self.lowest_price(i, cid) for i, cid in cards}
        if min(cost.values()) > self.gold:
            return _why(f"no buy example: the cheapest card of the track costs you "
                        f"{min(cost.values())} gold and you have {self.gold}", "#   # ")
        cards.sort(key=lambda x: (cost[x[0]] > self.gold, x[0]))
        cands = [{"slot": i + 1, **({"target": t} if t else {})} for i, cid in cards
                 for t in self.targets(partial(_BotAct.card_target, cid=cid))]
        return self.action("buy", cands, "you cannot pay for any card of the track")

    def swap(self) -> list[str]:
        special = self.g.special
        if special is None or special.effect.kind != "swap_track_creature":
            return _why("no swap example: only Zeus replaces a creature (Forgotten 5)",
                        "#   # ")
        slots = self.view["creature_track"]["slots"]
        return self.action("swap", ({"slot": i + 1} for i, cid in enumerate(slots)
                                    if cid in self.c.creatures),
                           "no creature on the track")

    def titan_move(self) -> list[str]:
        homes = [t for t in self.mine if self.terr[t]["titans"]]
        fleets = seas_of(self.view, self.player)
        cands = [{"from": s, "to": d, "titans": 1} for s in homes
                 for d in self.own_first(self.board.reachable_territories(s, fleets))]
        return self.action("titan_move", cands, "you have no Titans")

    def special_attack(self) -> list[str]:
        fleets = seas_of(self.view, self.player)
        cands = []
        for e in sorted(self.hand["egyptians"]):
            for s in (t for t in self.mine if e in self.terr[t]["egyptians"]):
                reach = self.board.reachable_territories(s, fleets)
                cands += [{"egyptian": e, "from": s, "to": d} for d in reversed(
                    self.own_first(reach))]
        return self.action("special_attack", cands, "you have no Egyptian on the board")

    def sacrifice(self) -> list[str]:
        heroes = sorted(self.hand["heroes"])
        cands = [{"hero": h, **({"target": t} if t else {})} for h in heroes
                 for t in self.targets(partial(_BotAct.target,
                                              effect=self.c.heroes[h].sacrifice))]
        return self.action("sacrifice", cands, "you hold no Hero")

    def monument(self) -> list[str]:
        offer = (self.view.get("monuments") or {}).get("offer", [])
        cands = [{"monument": m, "territory": t} for m in offer for t in self.mine]
        return self.action("monument", cands, "no Monument on offer, or no territory")

    def one_time(self, kind: str, key: str) -> list[str]:
        held = sorted(self.hand[key])
        cands = []
        for card in held:
            effect = (self.c.magic_items[card].effect if kind == "item"
                      else self.c.favors[card].power)
            cands += [{kind: card, **({"target": t} if t else {})}
                      for t in self.targets(partial(_BotAct.target, effect=effect))]
        what = "magic item" if kind == "item" else "divine favor"
        return self.action(kind, cands, f"you hold no {what}")

    def examples(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        default = (self.g.recruit is not None and
                   bool(self.g.recruit.free_count(self.view["gods"]["track"][:1] ==
                                                  [self.god])))
        places: list[dict[str, str]] = []
        if default and self.g.recruit is not None:
            if any(u in ("fleet", "undead_fleet") for u in self.g.recruit.units):
                places = [{"sea": s} for s in self.fleet_seas()]
            elif any(u in ("troop", "titan", "undead_troop") for u in self.g.recruit.units):
                places = [{"territory": t} for t in self.mine]
        # The second legal place first: the first is where it goes anyway.
        got = self.first({"free": p} for p in places[1:] + places[:1])
        out["free"] = (_assign("free", got["free"]) if got else
                       _why(f"no free example: {self.g.name}'s free recruit needs no place "
                            "now" if not places else "no free example: no legal place"))
        figures = sorted(fid for fid, x in self.view["figures"].items()
                         if x["owner"] == self.player)
        got = self.first({"keep": [fid]} for fid in figures)
        out["keep"] = (_assign("keep", got["keep"]) if got else
                       _why("no keep example: " + ("you have no Priestess" if figures
                                                   else "you have no creature figure")))
        got = self.first({"metropolis": [t]} for t in self.mine)
        out["metropolis"] = _assign("metropolis", got["metropolis"]) if got else \
            _why("no metropolis example: you hold no territory")
        offer = (self.view.get("metropolises") or {}).get("offer", [])
        got = self.first({"special_metropolis": [m]} for m in offer)
        out["special_metropolis"] = (
            _assign("special_metropolis", got["special_metropolis"]) if got else
            _why("no special_metropolis example: no special Metropolis card is left"))
        lines = ["# actions = ["]
        for part in (self.recruit, self.build, self.move, self.sail, self.buy, self.swap,
                     self.titan_move, self.special_attack, self.sacrifice, self.monument,
                     lambda: self.one_time("item", "magic_items"),
                     lambda: self.one_time("favor", "favors")):
            lines += part()
        lines += _why("no prosperity example: only the first player on Apollo (7.3)",
                      "#   # ")
        out["actions"] = [*lines, "# ]"]
        got = self.first({"attack": {"retreat": {"when": "at_most", "units": 1, "to": [t]}}}
                         for t in self.mine)
        retreat = got["attack"]["retreat"] if got else {"when": "at_most", "units": 1}
        out["retreat"] = [_fit("# retreat = ", retreat),
                          "#     # to: where to retreat, first choice first (optional)"]
        return out


# =============================================================================================
# the form
# =============================================================================================


def fill(static: str, blocks: Mapping[str, list[str]]) -> str:
    """``static`` with the commented example of each key of ``blocks`` (its ``# key = ``
    line and the more indented comment lines after it; for a list opened with ``[`` alone,
    down to ``# ]``) replaced by the block's lines. A key with no commented example in the
    static form gets its lines after its active line."""
    lines = static.split("\n")
    out: list[str] = []
    used: set[str] = set()
    i = 0
    while i < len(lines):
        line = lines[i]
        match = _ASSIGN.match(line)
        if match is None or match.group(1) not in blocks:
            out.append(line)
            i += 1
            continue
        key = match.group(1)
        used.add(key)
        out += blocks[key]
        i += 1
        if line.rstrip().endswith("= ["):
            while i < len(lines) and lines[i - 1].strip() != "# ]":
                i += 1
        else:
            while i < len(lines) and re.match(r"#\s{2,}\S", lines[i]):
                i += 1
    for key in [k for k in blocks if k not in used]:
        at = next((n for n, x in enumerate(out) if (m := _ACTIVE.match(x)) and
                   m.group(1) == key), None)
        if at is not None:
            out[at + 1:at + 1] = blocks[key]
    return "\n".join(out)


def order_form(c: Components, view: Mapping[str, Any], phase: PhaseSpec, player: str,
               validate: Validate) -> str:
    """``player``'s form for ``phase`` with the situation and examples legal now."""
    static = order_form_text("cyclades", phase.kind)
    if phase.kind == "act" and _god(view) == bidding.APOLLO:
        body = apollo_form(view, player)  # only the prosperity marker is legal
        lines = situation(c, view, phase, player)
        return "\n".join(lines) + ("\n\n" if lines else "") + body
    # One stand-in state (and board) serves every example and the situation lines.
    f = (_ActForm if phase.kind == "act" else _Forms)(c, view, phase, player, validate)
    blocks: dict[str, list[str]] = {}
    if phase.kind == "deploy":
        blocks = _deploy(f)
    elif phase.kind == "bid":
        blocks = _bid(f)
    elif phase.kind == "upkeep":
        blocks = _upkeep(f)
    elif isinstance(f, _ActForm):
        blocks = f.examples()
    lines = situation(c, view, phase, player, f)
    return "\n".join(lines) + ("\n\n" if lines else "") + fill(static, blocks)


def _name(c: Components, cid: str) -> str:
    try:
        return f"{c.by_id(cid).name} ({cid})"
    except KeyError:
        return cid


def _deploy_default(c: Components, board: Board, state: dict[str, Any], pillar: str) -> str:
    """What an unchanged deploy form places (``setup.default_deploy``, on the stand-in
    ``state`` of the form), in words."""
    plan = setup.default_deploy(c, board, state, pillar)
    parts = [f"{e['count']} {what if e['count'] == 1 else what + 's'} on {e[place]}"
             for key, what, place in (("troops", "troop", "territory"),
                                      ("titans", "Titan", "territory"),
                                      ("fleets", "fleet", "sea"))
             for e in plan[key]]
    parts += [f"a {c.buildings[e['building']].name} on {e['territory']}"
              for e in plan["buildings"]]
    if plan.get("prosperity"):
        parts.append(f"the prosperity marker on {plan['prosperity']}")
    if plan.get("monument"):
        m = plan["monument"]
        parts.append(f"the {c.monuments[m['monument']].name} on {m['territory']}")
    return ", ".join(parts) or "nothing"


def apollo_form(view: Mapping[str, Any], player: str) -> str:
    """The act form of the first player on Apollo (Cycle 7.3, Forgotten 1; the others on
    Apollo have no act phase): the only action is the prosperity marker, so the form offers
    that and the figures to keep (8.2, read from this form alone), its example on the
    player's own first territory, where the marker goes by default."""
    auction = view.get("auction") or {}
    first = str(auction.get("prosperity", "") or "")
    is_first = bool(first) and view.get("pillars", {}).get(first) == player
    head = ("# You are on Apollo this cycle (Cycle 7.3; Forgotten 1: choosing Apollo is "
            "skipping one's turn): his gold is paid at once, and nothing else is done")
    if not is_first:
        lines = textwrap.wrap(head + ". There is nothing to order: send the form back as "
                              "it is, or nothing.", 76, subsequent_indent="# ")
        return "\n".join([*lines, "actions = []", ""])
    mine = sorted(t for t, x in view["territories"].items() if x["owner"] == player)
    where = mine[0] if mine else sorted(view["territories"])[0]
    lines = textwrap.wrap(head + ", but you were the first on Apollo: you place the "
                          "prosperity marker on any territory (Cycle 7.3), and say which of "
                          "your figures in their second cycle stay (Cycle 8.2). Sent back "
                          f"unchanged (or not sent), the marker goes on {where} and every "
                          "such figure leaves.", 76, subsequent_indent="# ")
    return "\n".join([*lines, "keep = []             # figures kept a cycle more, a "
                       "Priestess each (8.2)", "actions = []",
                      f'# actions = [{{do = "prosperity", territory = "{where}"}}]', ""])


def situation(c: Components, view: Mapping[str, Any], phase: PhaseSpec,
              player: str, forms: _Forms | None = None) -> list[str]:
    """Comment lines for the top of ``player``'s form (78 columns); ``forms``: the form's
    examples, whose board and stand-in state they read (none for Apollo's form)."""
    lines = [f"Cycle {view['cycle']}. Your gold: {view.get('gold', {}).get(player, '?')}. "
             f"Gods on the track: {', '.join(view['gods']['track'])} (and apollo)."]
    mine_t = sorted(t for t, x in view["territories"].items() if x["owner"] == player)
    lines.append("Your territories: " + (", ".join(mine_t) or "none") + ".")
    if phase.kind == "act":
        slots = view["creature_track"]["slots"]
        lines.append("Creature track: " + ", ".join(
            f"slot {i + 1} ({price} gold) {_name(c, card) if card else 'empty'}"
            for i, (price, card) in enumerate(zip(c.track.prices, slots, strict=False)))
            + ".")
        god = _god(view)
        if god in c.gods and god != bidding.APOLLO and forms is not None:
            place = default_free_place(c, forms.board, forms.state, god, player)
            if place:
                lines.append(f"{c.god(god).name}'s free recruit goes, unless you say "
                             f"otherwise, to {next(iter(place.values()))}.")
    if phase.kind == "deploy":
        todo = (view.get("to_deploy") or {}).get(phase.active or player, {})
        lines.append("To deploy: " + (", ".join(f"{n} {k}" for k, n in sorted(todo.items())
                                                if n) or "nothing") + ".")
        # The places the form refers to as "listed above" (Setup 9): the territories nobody
        # holds, and the seas on the shores of this player's territories.
        board = forms.board if forms is not None else load_board(
            view["game"]["board"], len(view["game"]["players"]))
        free = [f"{board.territory(t).name} ({t})" for t in board.territory_ids
                if not view["territories"].get(t, {}).get("owner")]
        lines.append("Territories nobody holds: " + (", ".join(free) or "none") + ".")
        seas = sorted({s for t in mine_t for s in board.seas_of(t)})
        lines.append("Seas on the shores of your territories: " + (", ".join(seas) or
                     "none yet (fleets go next to the territories you take)") + ".")
        state = forms.state if forms is not None else _state_from_view(view)
        lines.append("Sent back unchanged, this form deploys: " + _deploy_default(
            c, board, state, phase.active or player) + ".")
    return [part for line in lines
            for part in textwrap.wrap(line, 76, initial_indent="# ",
                                      subsequent_indent="#   ")]

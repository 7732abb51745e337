"""Optional Rule 302, Prayer and Sacrifice (``--option prayer=on``).

A god writes a Prayer ("Pr") or a Sacrifice ("S") on its Log Sheet with the Glory Points it
spends, which are lost at once (302 C). Before the first Moving Player Phase (302 H) it rolls
two dice, adds them, and reads its own God Card's table in the column its offering reaches:
a Prayer +10 per point, a Sacrifice +20 per point over three (three or less is not accepted,
302 D). The result protects one Hero of its choice for the whole Turn (302 E-F), who may not
attack in that Turn (302 G). Hero Helpers count five points and Prizes ten in a Sacrifice
(302 I), if the god may give them.

With a Zeus player (Optional Rule 301 C 2) the tables are not used: :func:`resolve` takes
Zeus's answer to each offer instead, and the Glory spent goes to him (:mod:`zeus`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.dice import Stream
from pbem.core.ruleset import setdefault_sorted
from pbem.games.mythology import cards, control
from pbem.games.mythology.components import Components, Protection

State = dict[str, Any]
Event = dict[str, Any]
HELPER_WORTH = 5    # 302 I
PRIZE_WORTH = 10    # 302 I


@dataclass(frozen=True)
class Offer:
    kind: str                   # "prayer" or "sacrifice"
    glory: int
    hero: int                   # the Hero to protect (302 E)
    helpers: tuple[str, ...] = ()
    prizes: tuple[str, ...] = ()

    def worth(self) -> int:
        return self.glory + HELPER_WORTH * len(self.helpers) + PRIZE_WORTH * len(self.prizes)

    def modifier(self) -> int:
        """302 D: the column: +10 per point prayed, +20 per point sacrificed over three."""
        if self.kind == "prayer":
            return 10 * self.glory
        return 20 * max(self.worth() - 3, 0)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "glory": self.glory, "hero": self.hero,
                "helpers": list(self.helpers), "prizes": list(self.prizes)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Offer:
        return cls(d["kind"], d["glory"], d["hero"], tuple(d.get("helpers", [])),
                   tuple(d.get("prizes", [])))


def may_give(state: State, player: str, offer: Offer) -> str:
    """302 I a-b: what the god may give; '' when all of it, else why not.

    * I a, a Prize: "previously captured and removed from the play of the game by the
      Sacrificing player" (216 G 2 e: ``off_board`` is he, and it was not given away in a
      Sacrifice already), "or be in the Hex with a Hero that player controls and who has
      previously captured the Prize": carried by a Hero he Controls now (208 H). A carried
      Prize is always with the Hero who captured it (212 G: it cannot be taken from him), so
      it does not matter which god's phase that capture was made in. A Prize its Hero left in
      a hex (212 G) is free again and must be captured anew first (212 F).
    * I b, a Helper: "the property of one of the Sacrificing player's Controlled Heroes". (Its
      second case, a Helper "removed from the game by that player and in his possession",
      cannot arise here: no rule of the game takes a Helper off the board but a Sacrifice.)
    """
    for items, what in ((offer.helpers, "Helper"), (offer.prizes, "Prize")):
        twice = next((x for x in items if items.count(x) > 1), None)
        if twice is not None:
            return f"{what} {twice} is offered twice; a counter is given once (302 I)"
    for h in offer.helpers:
        holder = state["helpers"].get(h, {}).get("holder", 0)
        if not holder or control.controller(_points(state, holder)) != player:
            return f"Helper {h} is not with a Hero {player} Controls (302 I b)"
    for p in offer.prizes:
        x = state["prizes"].get(p)
        if x is None:
            return f"there is no Prize {p}"
        mine = (x["off_board"] == player and not x.get("sacrificed")) or (
            x["holder"] and control.controller(_points(state, x["holder"])) == player)
        if not mine:
            return f"Prize {p} was not captured and kept by {player} (302 I a)"
    return ""


def _points(state: State, hero: int) -> dict[str, int]:
    return {p: state["hero_totals"][p].get(str(hero), 0) for p in state["seats"]}


def pay(state: State, player: str, offers: list[Offer]) -> list[Event]:
    """302 C: the Glory Points written are lost at once, used or not."""
    events: list[Event] = []
    for offer in offers:
        if offer.glory:
            state["glory"][player] -= offer.glory
            events.append({"type": "glory", "player": player, "amount": -offer.glory,
                           "text": f"{player} {-offer.glory:+d} Glory for a {offer.kind} "
                           "(302 C)."})
    return events


def resolve(c: Components, state: State, stream: Stream,
            awards: Mapping[tuple[str, int], Protection] | None = None) -> list[Event]:
    """302 H: every Prayer and Sacrifice of the Turn, before the first Moving Player.

    ``awards`` (Optional Rule 301 C 2, a Zeus player): the tables are not used; each offer,
    by (player, number from 1), gets the protection Zeus decreed, none if he named none."""
    events: list[Event] = []
    turn = state["turn"]
    stats = state["stats"]
    for player in state["seats"]:
        table = c.gods[state["gods"][player]]
        for n, raw in enumerate(state.get("offers", {}).get(player, [])):
            offer = Offer.from_dict(raw)
            label = f"t{turn:02d}/{offer.kind}/{player}/{n}"
            key = "prayers" if offer.kind == "prayer" else "sacrifices"
            stats.setdefault(key, {})[player] = stats.get(key, {}).get(player, 0) + 1
            if offer.kind == "sacrifice":
                problem = may_give(state, player, offer)
                if problem:
                    events.append({"type": "sacrifice-void", "player": player,
                                   "text": f"{player}'s Sacrifice is refused: {problem}."})
                    continue
                for h in offer.helpers:
                    state["helpers"][h].update(holder=0, hex="", sacrificed=player)
                for p in offer.prizes:
                    state["prizes"][p].update(holder=0, hex="", off_board=player,
                                              sacrificed=player)
            name = c.heroes[offer.hero].name
            if awards is not None:  # 301 C 2: Zeus answers, no table, no dice
                result = awards.get((player, n + 1), Protection("none"))
                events.append({"type": offer.kind, "player": player, "hero": offer.hero,
                               "result": result.kind, "amount": result.amount, "by": "zeus",
                               "text": f"Zeus answers {player}'s {offer.kind} for {name} "
                               f"({offer.hero}): {describe(result.kind, result.amount)} "
                               "(301 C 2)."})
            else:
                roll = stream.sum_d6(2, label)  # 302 D: the total of two dice
                which = table.prayer if offer.kind == "prayer" else table.sacrifice
                result = which.lookup(offer.modifier(), roll)
                events.append({"type": offer.kind, "player": player, "hero": offer.hero,
                               "roll": roll, "column": offer.modifier(),
                               "result": result.kind,
                               "text": f"{player}'s {offer.kind} for {name} ({offer.hero}): "
                               f"column +{offer.modifier()}, dice {roll}: "
                               f"{describe(result.kind, result.amount)} (302 D)."})
            book = cards.effects(state)
            if result.kind == "none":
                continue
            setdefault_sorted(state["turn_effects"], "no_attack", []).append(offer.hero)  # 302 G
            if result.kind == "defense":
                book["mods"].append({"amount": result.amount, "kind": "defense", "turn": True,
                                     "unit": offer.hero})
            elif result.kind == "divine":
                book["protect"].append(offer.hero)
            else:  # "full": nothing kills him this Turn
                book["protect"].append(offer.hero)
                setdefault_sorted(state["turn_effects"], "immortal", []).append(offer.hero)
    return events


def describe(kind: str, amount: int) -> str:
    return {"none": "no protection", "defense": f"Defense +{amount} for the Turn",
            "divine": "no Divine Occurrence affects him this Turn",
            "full": "nothing kills him this Turn"}.get(kind, kind)

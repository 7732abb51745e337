"""The creature track in the action phase: buying its cards, Zeus's swap, and creature
figures leaving at their owner's next action (Cycle 8.2, 8.4.1-8.4.2, Forgotten 1, 3, 5, Misc
Artifacts and Heroes, Misc Egyptian Reinforcements).

Buying (Cycle 1, Cycle 8.4): a card costs the price of its slot (4, 3, 2 gold for slots 1-3).
The Temple discount (Cycle 8.4.1): 1 gold off per Temple the buyer controls, spread over the
creatures bought this turn as the player chooses (each ``buy`` may name how many Temples it
uses, ``discount``; the total over the turn is at most the Temples controlled; a ``buy``
without ``discount`` uses every Temple left that lowers its price). Temples and other
creature discounts never apply to Heroes, Egyptian Reinforcements nor artifacts (Misc
Artifacts and Heroes 2, Misc Egyptian Reinforcements 1; ``supplies.toml [track.kinds]``).
Base rules as we know them: a creature never costs less than 1 gold; a ``discount`` that would
go below that is not spent. A ``discount`` asked on a card that takes none skips the purchase
(so the player never pays more than they planned).

A creature is used at once (Cycle 8.4.2, ``effects.prepare_creature``): if its power cannot be
used now, the card is not bought. A Hero, an artifact or an Egyptian Reinforcement is placed on
one of the buyer's territories (``target = {territory = ...}``). A player on Apollo buys
nothing (Forgotten 1; checked by ``actions``).

Zeus's swap (Forgotten 5): 1 gold each time, as often as the player likes, only on a slot
holding a creature (not an empty slot, nor a Hero, artifact or Egyptian). The creature goes to
the discard pile and the top card of the deck takes its slot; an empty deck is first made
again from the shuffled discard pile (base rules; the sealed stream shuffles it).

Figures (Cycle 8.2): at the start of the owner's action in a later cycle (``lasts_cycles``), a
figure and its card go to the discard pile, unless the owner discards a Priestess for it (the
act's ``keep`` list): it then stays one cycle more. Egyptian Reinforcements are not creatures
and stay (Cycle 8.2.1): they are never in ``state["figures"]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.cyclades import effects, warfare
from pbem.games.cyclades.components import Artifact, Creature, Egyptian, Hero
from pbem.games.cyclades.effects import Prepared
from pbem.games.cyclades.state import buildings_of
from pbem.games.cyclades.turn import Turn, own_territory_problem, power_total

#: Base rules as we know them: discounts never bring a creature below 1 gold.
CREATURE_FLOOR = 1


def temples(t: Turn) -> int:
    """The creature discount of the buildings the acting player controls (Temples, 1 each)."""
    return sum(t.c.buildings[b].creature_discount for b in buildings_of(t.state, t.player)
               if b in t.c.buildings)


def price_of(t: Turn, index: int, cid: str, discount: int | None
             ) -> tuple[int, int, int] | str:
    """(price, Temples spent, one-time discount spent) of the card in slot ``index`` (0-2)
    with ``discount`` Temples asked (``None``: every Temple left this turn that lowers the
    price), or why that discount is not allowed."""
    card = t.c.track_card(cid)
    rules = t.c.track.kinds[card.kind]
    base = t.c.track_price(index)
    if discount is not None and discount < 0:
        return "a discount is 0 or more"
    if not rules.temple_discount:
        if discount:
            return (f"the {card.name} is a {card.kind}: Temples give no discount on it "
                    "(Cycle 8.4.1)")
        return base, 0, 0
    left = temples(t) - t.temples_used
    if discount is None:
        discount = left
    if discount > left:
        return (f"you have {left} Temple discount(s) left this turn, not {discount} "
                "(Cycle 8.4.1: they are shared among the creatures you buy)")
    lasting = power_total(t.c, t.state, t.player, "creature_discount")
    armed = sum(e.number("amount") for _, e in t.armed if e.kind == "creature_discount")
    floor = min(base, CREATURE_FLOOR)
    before_temples = max(floor, base - lasting - armed)
    used = min(discount, before_temples - floor)
    return before_temples - used, used, armed


def buy(t: Turn, slot: int, discount: int | None, target: Mapping[str, Any]) -> str:
    """Buy the card in track slot ``slot`` (1-3) and use or place it; "" when done, else why
    it was not bought (nothing paid)."""
    track = t.state["creature_track"]
    slots = track["slots"]
    if not 1 <= slot <= len(slots):
        return f"the track has slots 1 to {len(slots)}"
    index = slot - 1
    cid = str(slots[index])
    if not cid:
        return f"slot {slot} is empty"
    card = t.c.track_card(cid)
    priced = price_of(t, index, cid, discount)
    if isinstance(priced, str):
        return priced
    price, used, armed = priced
    prepared = _prepare(t, card, target)
    if isinstance(prepared, str):
        return prepared
    if not t.pay(price, f"the {card.name}", "Cycle 8.4"):
        return f"not enough gold for the {card.name} ({price})"
    if armed:
        t.armed = [(s, e) for s, e in t.armed if e.kind != "creature_discount"]
    t.temples_used += used
    slots[index] = ""
    if index == 0 and cid == track.get("initial") and int(t.state["cycle"]) <= 1:
        track["initial_bought"] = True  # Cycle 1.1 asks whether the first card was bought
    t.hand["bought"].append(cid)
    t.bought.add(cid)
    t.say("buy", "Cycle 8.4", f"{t.player} buys the {card.name} from slot {slot} for {price} "
          f"gold" + (f" ({used} Temple discount)" if used else "") + ".", player=t.player,
          card=cid, kind=card.kind, slot=slot, price=price, temples=used)
    prepared()
    if isinstance(card, Creature) and not card.figure:
        track["discard"].append(cid)
    return ""


def _prepare(t: Turn, card: Creature | Hero | Artifact | Egyptian,
             target: Mapping[str, Any]) -> Prepared:
    if isinstance(card, Creature):
        return effects.prepare_creature(t, card.id, target)
    tid = target.get("territory", "")
    tid = tid if isinstance(tid, str) else ""
    problem = own_territory_problem(t.state, t.player, tid)
    if problem:
        return f"place the {card.name} on one of your territories: {problem}"

    def run() -> None:
        here = t.territory(tid)
        if isinstance(card, Hero):
            here["heroes"].append(card.id)
            t.hand["heroes"].append(card.id)
            rule = "Misc Artifacts and Heroes"
        elif isinstance(card, Artifact):
            here["artifacts"].append(card.id)
            t.hand["artifacts"].append(card.id)
            rule = "Misc Artifacts and Heroes 3"
        else:
            here["egyptians"].append(card.id)
            t.hand["egyptians"].append(card.id)
            rule = "Misc Egyptian Reinforcements 2"
        t.say("placed", rule, f"{t.player} places the {card.name} on {tid}.",
              player=t.player, card=card.id, kind=card.kind, territory=tid)
        if isinstance(card, Artifact):
            warfare.check_artifacts(t)
    return run


def draw(t: Turn) -> str:
    """The top card of the creature deck ("" if deck and discard are both empty); an empty
    deck is made again from the discard pile, shuffled on the sealed stream (base rules)."""
    track = t.state["creature_track"]
    if not track["deck"] and track["discard"]:
        track["deck"] = t.rng.sealed.shuffle(sorted(track["discard"]), "creatures/reshuffle")
        track["discard"] = []
        t.say("reshuffle", "Base creatures", "The creature discard pile is shuffled into a new "
              "deck.", cards=len(track["deck"]))
    if not track["deck"]:
        return ""
    return str(track["deck"].pop(0))


def swap(t: Turn, slot: int) -> str:
    """Zeus's special action (Forgotten 5); "" when done, else why not."""
    track = t.state["creature_track"]
    slots = track["slots"]
    if not 1 <= slot <= len(slots):
        return f"the track has slots 1 to {len(slots)}"
    cid = str(slots[slot - 1])
    if not cid:
        return f"slot {slot} is empty: Zeus can only replace a creature that is there " \
               "(Forgotten 5)"
    card = t.c.track_card(cid)
    if not t.c.track.kinds[card.kind].zeus_swappable:
        return f"the {card.name} is a {card.kind}: Zeus replaces creatures only (Forgotten 5)"
    if not track["deck"] and not track["discard"]:
        return "there is no card left to draw"
    special = t.c.god(t.god).special
    price = special.price if special is not None else 1
    if not t.pay(price, "Zeus's swap", "Forgotten 5"):
        return f"not enough gold for Zeus's swap ({price})"
    new = draw(t)
    slots[slot - 1] = new
    track["discard"].append(cid)
    t.say("swap", "Forgotten 5", f"{t.player} pays {price} gold to Zeus: the {card.name} in "
          f"slot {slot} is discarded and the {_card_name(t, new)} takes its place.",
          player=t.player, slot=slot, discarded=cid, drawn=new, price=price)
    return ""


def _card_name(t: Turn, cid: str) -> str:
    return t.c.track_card(cid).name if cid else "nothing"


def expire_figures(t: Turn, keep: Sequence[str], player: str = "") -> None:
    """Cycle 8.2: at the start of ``player``'s action (the acting player by default), each of
    their figures in its second cycle leaves, unless kept with a Priestess (``keep``)."""
    who = player or t.player
    lasts = t.c.rules.figure_lasts_cycles
    hand = t.state["hands"][who]
    for fid in sorted(f for f, x in t.state["figures"].items() if x["owner"] == who):
        figure = t.state["figures"][fid]
        if int(t.state["cycle"]) - int(figure["cycle"]) < lasts - 1:
            continue
        name = _card_name(t, fid) if fid in t.c.creatures else fid
        if fid in keep and hand["priestess"] >= 1:
            hand["priestess"] -= 1
            figure["cycle"] = t.state["cycle"]
            t.say("figure_kept", "Cycle 8.2", f"{who} discards a Priestess: the {name} stays on "
                  f"{figure['where']} one cycle more.", player=who, figure=fid,
                  where=figure["where"])
            continue
        del t.state["figures"][fid]
        t.state["creature_track"]["discard"].append(fid)
        why = " (no Priestess to keep it)" if fid in keep else ""
        t.say("figure_leaves", "Cycle 8.2", f"The {name} of {who} leaves {figure['where']}; "
              f"its card is discarded{why}.", player=who, figure=fid, where=figure["where"])

"""Deukalion's reports: what ``templates/deukalion/report.*.j2`` lay out.

Built from a view alone (``RULESET.view``), never the state: :func:`public` from the public
view, once per record for every reader (the turn and the Kylix roll with the cup's four
turns, Honour by source and the players' holdings, the Pursuits on display, the board as a
9 x 7 text grid with its key, the cities and settlements, the appendices: every Action and
Pursuit card); :func:`context` from the reader's own view (his hand with how to play each
card, his personal Pursuit, every square his ship can reach now and what ending there does,
his standing choices). Secret holdings reach a report only as the view gives them: the
others' hands as counts, their personal Pursuits and standing choices only at the end.

Rulings of the reports (no rule of the game):

- The reach listing (Ship 1-7, Round 2-3, Kylix Move 1) is :func:`sailing.reach` on a
  stand-in state made from the reader's view (``bot.state_from_view``): with the centre die
  (plus his ``sea_legs``) while he is one of this turn's sailors; with Move 1, 2 and 3 (each
  through ``actions.move_limit``: this turn's cards and ``swift_sails``) while it is his
  turn. What ending there does is what the rules would do on that last square (the Styx, a
  ship or Hydra challenge, a delivery on the way) and what a ``then`` may do there (challenge
  a city with chests or another's settlement, found a free one).
- :func:`event_text` names the Pursuit cards of a ``display`` event with their tasks and the
  place of a skipped goal; only the report's copy changes, the ledger keeps its bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.deukalion import actions, bot, kylix, sailing, scoring
from pbem.games.deukalion import choices as choices_mod
from pbem.games.deukalion.components import (
    CARD_DIE,
    FILES,
    KYLIX_SYMBOLS,
    RANKS,
    Components,
)

#: The letter of each square kind on the text grid and the picture.
LETTERS = {"water": ".", "anchor": "@", "styx": "~", "kylix": "*", "athens": "A",
           "city": "C", "settlement": "S", "land": "#"}
KIND_NAMES = {"water": "open water", "anchor": "an Athens anchor (safe, shared: Ship 2)",
              "styx": "the River Styx (Styx 1-4)", "kylix": "the Kylix (nobody enters: Ship 4)",
              "athens": "Athens (the harbour)", "city": "a city", "settlement": "a settlement",
              "land": "land"}
STEPS = {"sail": "the others sail by the centre die (Round 2-3)",
         "kylix": "the active player turns the Kylix and acts (Round 5-7)",
         "over": "the game is over"}
SYMBOL_WORDS = {"hoplites": ("hoplite", " back from the Underworld (Kylix Hoplites 1)"),
                "move": ("square", " for the ship (Kylix Move 1)"),
                "hydra": ("square", " for the Hydra (Kylix Hydra 1)")}
CELL = 7  # characters of a grid cell
CARD_WHO = {"others": "every other player draws an Action card",
            "nobody": "nobody draws an Action card", "self": "you draw an Action card"}


def _plural(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def half(score2: int) -> str:
    """A doubled score as shown: 7 -> "3.5"."""
    return f"{score2 // 2}.5" if score2 % 2 else str(score2 // 2)


def square_ids() -> list[str]:
    """Every square, rank 7 first, file a first in a rank (the grid's reading order)."""
    return [f"{f}{r}" for r in range(RANKS, 0, -1) for f in FILES]


def abbrev(c: Components, place: str) -> str:
    """A place's three letters on the grid ("Cor" for Corinth)."""
    return c.place_name(place)[:3]


def seat_numbers(view: Mapping[str, Any]) -> dict[str, int]:
    return {p: i for i, p in enumerate(view["seats"], 1)}


def ships_on(view: Mapping[str, Any], square: str) -> list[str]:
    """The players whose ship is on ``square``, in seat order."""
    return [p for p in view["seats"] if view["ships"].get(p) == square]


def kind_of(c: Components, square: str) -> str:
    return c.board.squares[square].kind


# --- events ------------------------------------------------------------------------------------


def card_words(c: Components, card: str) -> str:
    """``p05 (2 points: Deliver 1 black treasure chest to Athens / Defeat another player's
    ship)``."""
    p = c.pursuits.get(card)
    if p is None:
        return card
    return (f"{card} ({_plural(p.points, 'point')}: "
            + " / ".join(t.text(c) for t in p.tasks) + ")")


def event_text(c: Components, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
    """An event as reports print it: a ``display`` event names its cards' tasks; a skipped
    goal names its place. Only the report's copy changes (the event is not touched); a text
    this version does not recognise is shown as the ledger has it."""
    text = str(event.get("text", ""))
    try:
        kind = event.get("type")
        if kind == "display":
            shown = [str(x) for x in event["display"] if x]
            listed = ", ".join(shown)
            if shown and listed in text:
                text = text.replace(listed, "; ".join(card_words(c, x) for x in shown), 1)
        elif kind == "skip":
            target = str(event.get("target", ""))
            name = c.place_name(target) if target else target
            old = f" {target} now"
            if target and name != target and old in text:
                text = text.replace(old, f" {name} ({target}) now", 1)
    except (KeyError, TypeError, AttributeError):
        return str(event.get("text", ""))
    return text


# --- the public part ---------------------------------------------------------------------------


def cup_turns(view: Mapping[str, Any]) -> list[str]:
    """The four turns of the cup (Kylix 5) and what each gives."""
    out = []
    for r in range(4):
        dice = kylix.assignment(view["kylix"], r)
        gives = [_plural(dice[s], SYMBOL_WORDS[s][0]) + SYMBOL_WORDS[s][1]
                 for s in KYLIX_SYMBOLS if s in SYMBOL_WORDS]
        who = CARD_WHO.get(CARD_DIE.get(dice.get("cards", 0), ""), "?")
        out.append(f"Turn {r} (rotation = {r}): {kylix.describe(dice)}: "
                   + "; ".join(gives) + f"; the Card die {dice.get('cards')}: {who} "
                   "(Kylix Card 1).")
    return out


def header(c: Components, view: Mapping[str, Any]) -> list[str]:
    """The turn, who is active, the step, the Kylix roll."""
    over = view.get("game_over") or view.get("step") == "over"
    lines = [f"Turn {view['turn']}: {view['active']} is the active player."
             + (" The game is over." if over else
                f" Now: {STEPS.get(view['step'], view['step'])}.")]
    k = view.get("kylix") or {}
    if k and not over:
        slots = k["slots"]
        lines.append(f"The Kylix (Round 1, Kylix 1-2): centre die {k['centre']} (the others "
                     f"sail up to {_plural(int(k['centre']), 'square')}); outer dice "
                     f"N {slots[0]}, E {slots[1]}, S {slots[2]}, W {slots[3]}; symbols "
                     "clockwise from the north: " + ", ".join(KYLIX_SYMBOLS) + " (authored "
                     "order).")
        if view.get("step") == "sail" and view.get("sailors"):
            lines.append("Still to sail this turn: " + ", ".join(view["sailors"]) + ".")
    lines.append(f"The target (Object 1): {scoring.target(view)} Honour points with "
                 f"{len(view['seats'])} players; the first to reach it wins at once (End 1).")
    return lines


def honour_rows(c: Components, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player in seat order: Honour points by source, hoplites, chests, cards."""
    out = []
    goal = scoring.target(view)
    for n, p in enumerate(view["seats"], 1):
        settled = sum(int(x["hoplites"]) for x in view["settlements"].values()
                      if x["owner"] == p)
        achieved = list(view["achieved"].get(p, []))
        pursued = sum(c.pursuits[x].points for x in achieved if x in c.pursuits)
        cards = int(view["honour"].get(p, 0))
        total = scoring.points(c, view, p)
        b = view["board"][p]
        on_places = settled
        perms = [c.actions[a].name for a in view.get("permanents", {}).get(p, [])
                 if a in c.actions]
        line = (f"{n}. {p}: {total} of {goal} Honour points (settlements {settled}, "
                f"Pursuits {pursued}, Honour cards {cards}). Hoplites: "
                f"{b['hoplites']} on the shipboard, {view['underworld'].get(p, 0)} in the "
                f"Underworld, {on_places} on settlements"
                + (f", {view['placed'][p]} left on Pursuit cities" if view.get("placed", {})
                   .get(p) else "")
                + ". Chests carried: " + (", ".join(b["chests"]) or "none")
                + f". Ship on {view['ships'].get(p, '?')}. Action cards: "
                f"{view.get('hand_counts', {}).get(p, 0)} in hand"
                + (f", in play: {', '.join(perms)}" if perms else "")
                + ". Pursuits achieved: "
                + (", ".join(card_words(c, x) for x in achieved) or "none") + ".")
        out.append({"seat": n, "player": p, "total": total, "settlements": settled,
                    "pursuits": pursued, "cards": cards, "shipboard": b["hoplites"],
                    "underworld": view["underworld"].get(p, 0), "on_settlements": on_places,
                    "chests": list(b["chests"]), "hand": view.get("hand_counts", {}).get(p, 0),
                    "square": view["ships"].get(p, ""), "line": line})
    return out


def pursuit_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    """The Pursuit cards on display with both tasks (Pursuit 0.1-0.4)."""
    out = [f"On display: {card_words(c, x)}" for x in view.get("display", []) if x]
    out.append(f"Pursuit deck: {_plural(int(view.get('pursuit_deck_count', 0)), 'card')}; "
               "either task of a card achieves it (Pursuit 0.1).")
    return out


def cell(c: Components, view: Mapping[str, Any], square: str) -> str:
    """A grid cell: the kind letter, then the place's three letters with its chests (a
    city) or its owner's seat (a settlement, "-" when free), or the ships by seat number and
    the Hydra ("H")."""
    sq = c.board.squares[square]
    seats = seat_numbers(view)
    out = LETTERS.get(sq.kind, "?")
    if sq.kind == "city":
        out += f" {abbrev(c, sq.place)}:{len(view['chests'].get(sq.place, []))}"
    elif sq.kind == "settlement":
        owner = view["settlements"].get(sq.place, {}).get("owner", "")
        out += f" {abbrev(c, sq.place)}:{seats.get(owner, '-')}"
    elif sq.kind == "athens":
        out += " Ath"
    else:
        here = "".join(str(seats[p]) for p in ships_on(view, square))
        if view.get("hydra") == square:
            here += "H"
        if here:
            out += " " + here
    return out[:CELL]


def grid(c: Components, view: Mapping[str, Any]) -> list[str]:
    """The 9 x 7 board as text, rank 7 at the top (76 columns)."""
    files = "   " + "".join(f" {f:<{CELL}}" for f in FILES)
    rule = "  +" + "+".join("-" * CELL for _ in FILES) + "+"
    out = [files.rstrip(), rule]
    for r in range(RANKS, 0, -1):
        cells = "|".join(f"{cell(c, view, f'{f}{r}'):<{CELL}}" for f in FILES)
        out.append(f"{r} |{cells}| {r}")
    out += [rule, files.rstrip()]
    return out


def grid_key(c: Components, view: Mapping[str, Any]) -> str:
    kinds = "; ".join(f"{LETTERS[k]} {KIND_NAMES[k]}" for k in LETTERS)
    seats = ", ".join(f"{n} {p}" for p, n in seat_numbers(view).items())
    return (f"Key: {kinds}. A city reads \"C Cor:2\" (Corinth, 2 chests lying there); a "
            "settlement \"S Eph:1\" (Ephesus, owned by seat 1; \"-\": nobody). On water: the "
            f"ships by seat number ({seats}) and H the Hydra. Squares are adjacent when they "
            "share a side (Map 13).")


def city_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    out = []
    for cid, city in c.board.cities.items():
        lying = view["chests"].get(cid, [])
        out.append(f"{city.name} ({cid}) on {', '.join(city.squares)}: value {city.value}; "
                   f"{len(lying)} of {city.spaces} spaces hold chests: "
                   + (", ".join(lying) or "none") + ".")
    return out


def settlement_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    out = []
    for sid, s in c.board.settlements.items():
        x = view["settlements"].get(sid, {"owner": "", "hoplites": 0})
        owner = (f"{x['owner']}'s, {_plural(int(x['hoplites']), 'hoplite')} there "
                 f"({_plural(int(x['hoplites']), 'Honour point')}, Honour 1)" if x["owner"] else
                 f"free: found it with {_plural(s.hoplites, 'hoplite')} (Found 1-4)")
        out.append(f"{s.name} ({sid}) on {', '.join(s.squares)}: value {s.value}; {owner}.")
    return out


def other_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    b = c.board
    return [f"Athens on {', '.join(b.athens)}; its anchors {', '.join(b.anchors)} (deliver "
            "there: Pursuit Deliver 4).",
            f"The River Styx: {', '.join(b.styx)}. The Kylix: {b.kylix}.",
            f"The Hydra is on {view.get('hydra', '?')}.",
            f"Action deck: {_plural(int(view.get('action_deck_count', 0)), 'card')}; "
            "discarded: " + (", ".join(c.actions[a].name for a in view.get("action_discard", [])
                                       if a in c.actions) or "none") + "."]


def how_to_play(c: Components, card: str) -> str:
    a = c.actions[card]
    kind = ("permanent: it stays face up and works from then on (Action 1)" if a.permanent
            else "single use: then discarded (Action 1)")
    extra = ', count = 2, dump = ["green"]' if a.effect == "reclaim" else ""
    return (f"Play it in your own Kylix turn (Action 2-3): [[orders.step]] action = "
            f"\"play\", card = \"{card}\"{extra}; {kind}.")


def action_lines(c: Components) -> list[str]:
    return [f"{a.name} ({a.id}), {_plural(a.copies, 'copy', 'copies')}"
            + (", permanent" if a.permanent else "") + f": \"{a.text}\" [authored]"
            for a in c.actions.values()]


def pursuit_card_lines(c: Components) -> list[str]:
    return [card_words(c, p) + " [authored]" for p in c.pursuits]


def public(c: Components, view: Mapping[str, Any]) -> dict[str, Any]:
    """What every report of a record shows alike (``view``: the public view)."""
    k = view.get("kylix") or {}
    over = bool(view.get("game_over") or view.get("step") == "over")
    revealed = []
    if over:
        for p in view["seats"]:
            mine = view.get("choices", {}).get(p)
            personal = view.get("personal", {}).get(p, "")
            revealed.append(f"{p}: " + (choices_mod.describe(mine) if mine else "defaults")
                            + "; personal Pursuit: "
                            + (card_words(c, personal) if personal else "none (achieved)")
                            + ".")
    return {
        "header": header(c, view),
        "cup": cup_turns(view) if k and not over else [],
        "honour": honour_rows(c, view),
        "pursuits": pursuit_lines(c, view),
        "grid": grid(c, view), "grid_key": grid_key(c, view),
        "cities": city_lines(c, view), "settlements": settlement_lines(c, view),
        "others": other_lines(c, view),
        "revealed": revealed,
        "sections": [
            {"title": "Action cards", "intro": "every card, its copies and text; names and "
             "texts authored by us, the rulebook prints two texts",
             "lines": action_lines(c)},
            {"title": "Pursuit cards", "intro": "every card, its Honour points and its two "
             "tasks, either one achieves it; the tasks are authored by us",
             "lines": pursuit_card_lines(c)},
        ],
    }


# --- the reader's own part ---------------------------------------------------------------------


def ending(c: Components, state: Mapping[str, Any], player: str, square: str,
           path: Sequence[str]) -> str:
    """What ending a move on ``square`` by ``path`` does (the rules' own ending, then what a
    ``then`` may do there)."""
    first = kylix.ending(c, state, player, path) if path else "stay"
    what = [first] if first else []
    other = bool(kylix.hydra_victim(state, player, square)) and kind_of(c, square) == "water"
    challenged = bool(path) and (square == state["hydra"] or other)
    if kind_of(c, square) in ("water", "anchor") and not challenged:
        for place in c.board.adjacent_places(square):
            name = c.place_name(place)
            if place in c.board.cities:
                n = len(state["chests"].get(place, []))
                if n:
                    what.append(f"challenge {name} (value {c.board.cities[place].value}, "
                                f"{_plural(n, 'chest')})")
                continue
            owner = state["settlements"][place]["owner"]
            s = c.board.settlements[place]
            if not owner:
                what.append(f"found {name} ({_plural(s.hoplites, 'hoplite')})")
            elif owner != player:
                what.append(f"challenge {name} ({owner}'s, value {s.value})")
    return "; ".join(x for x in what if x)


def _listing(c: Components, state: Mapping[str, Any], player: str, title: str, steps: int,
             seen: set[str]) -> dict[str, Any]:
    found = sailing.reach(c, state, player, steps)
    lines = []
    for sq, path in sorted(found.items(), key=lambda kv: (len(kv[1]), kv[0])):
        if sq in seen:
            continue
        via = f" via {' '.join(path[:-1])}" if len(path) > 1 else ""
        does = ending(c, state, player, sq, path)
        lines.append(f"{sq}{via}" + (f": {does}" if does else ""))
    seen.update(found)
    return {"title": title, "steps": steps, "reach": found, "lines": lines}


def my_reach(c: Components, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
    """Every square the reader's ship can reach now (sailing.reach on bot.state_from_view):
    with the centre die when he sails this turn, with Move 1-3 when it is his turn."""
    if view.get("game_over") or player not in view.get("ships", {}):
        return []
    state = bot.state_from_view(view, player)
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    if view.get("step") == "sail" and player in view.get("sailors", []):
        steps = int(view["kylix"]["centre"]) + sailing.sail_bonus(c, state, player)
        out.append(_listing(c, state, player, f"Sailing now, with the centre die "
                            f"{view['kylix']['centre']} (up to {_plural(steps, 'square')}, "
                            "Round 2)", steps, seen))
    if view.get("active") == player:
        if view.get("step") == "sail":
            state = {**state, "effects": {}}
        turns = {r: kylix.assignment(view["kylix"], r)["move"] for r in range(4)}
        for move in (1, 2, 3):
            steps = actions.move_limit(c, state, player, move)
            by = [str(r) for r, m in turns.items() if m == move]
            cup = (f"; rotation {' or '.join(by)} gives it" if by else
                   "; no turn of the cup gives it now")
            out.append(_listing(c, state, player, f"In your Kylix turn with Move {move} (up "
                                f"to {_plural(steps, 'square')}{cup}), also", steps, seen))
    return out


def my_hand(c: Components, view: Mapping[str, Any]) -> list[str]:
    out = []
    for card in view.get("my_hand", []):
        a = c.actions.get(card)
        out.append(f"{a.name} ({card}): \"{a.text}\". {how_to_play(c, card)}" if a
                   else str(card))
    return out


def context(c: Components, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    """The reader's own part (``view``: his view): who he is, his hand, his personal Pursuit,
    where his ship can go, his standing choices (his alone until the end)."""
    out: dict[str, Any] = {"me": [], "my_hand": [], "my_personal": "", "my_reach": [],
                           "reach_note": "", "my_choices": ""}
    if player is None or player not in view.get("seats", []):
        return out
    seat = view["seats"].index(player) + 1
    me = [f"You are {player}, seat {seat} of {len(view['seats'])} (\"{seat}\" on the grid); "
          f"your ship is on {view['ships'].get(player, '?')}."]
    if not view.get("game_over"):
        me.append("It is your turn." if view.get("active") == player else
                  f"It is {view['active']}'s turn.")
    out["me"] = me
    out["my_hand"] = my_hand(c, view)
    personal = view.get("my_personal", "")
    out["my_personal"] = (card_words(c, personal) if personal else
                          "none: achieved (it stays yours, Pursuit 0.2)")
    out["my_reach"] = my_reach(c, view, player)
    out["reach_note"] = (
        "Each square with the path that gets there (shortest, then lowest) and what ending "
        "there does (Ship 1-7). In a sail order: [[orders.plan]] goal = \"reach\", target = "
        "the square; in your Kylix turn: [[orders.step]] action = \"ship\", path = the "
        "\"via\" squares then the square, and then = \"challenge_city\" or \"found\" with "
        "target = the place's id.")
    if view.get("my_choices") and not view.get("game_over"):
        out["my_choices"] = choices_mod.describe(view["my_choices"]) + "."
    return out

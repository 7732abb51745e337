"""Grecos's reports: what ``templates/grecos/report.*.j2`` lay out.

Built from a view alone (``RULESET.view``), never the state: :func:`public` from the public
view, once per record for every reader (the turn, the players, the board as an 8 x 8 grid and
as a listing of every occupied square, the City States, the appendices: the Event deck, the
unit chits and the terrain); :func:`context` from the reader's own view (his pile with where
each chit could be recruited now, his hand with when each card can be played, every square
each of his stacks can reach this turn and the enemy stacks next to it, his standing defence
orders). Secret holdings reach a report only as the view gives them: the others' piles and
hands as counts, the standing orders of the others only at the end.

:func:`event_text` words an event for the reader (terrain names beside squares, units as
"Hero (7)" as the rest of the report writes them); the ledger keeps the rules' text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.grecos import bot, movement, recruit, turn
from pbem.games.grecos import events as events_mod
from pbem.games.grecos import policy as policy_mod
from pbem.games.grecos.components import Card, Components
from pbem.games.grecos.squares import FILES, RANKS, neighbours, order

#: The letter of each terrain on the text grid and the picture (Terrain 1-7); water is "~".
LETTERS = {"coastal": "C", "city_state": "S", "forest": "F", "mountains": "M", "ruins": "R",
           "abyss": "A", "sea": "~"}
STEPS = {"recruit": "Recruit Phase (Recruit 1-4)",
         "war": "Event, Move and Battle Phases (Event 1-2, Move 1-8, Battle 1-13)"}
KEYWORDS = {"men": "Men", "women": "Women", "army": "Army", "water": "Water",
            "flying": "Flying", "equine": "Equine", "giant": "Giant", "monster": "Monster",
            "land_and_water": "Land & Water"}
#: The order of the notes as the seed prints them (Units 1-17).
_KEYWORD_ORDER = tuple(KEYWORDS)


def letter(c: Components, terrain: str) -> str:
    """The terrain's letter on the grid and the picture."""
    return LETTERS.get(terrain) or c.terrains[terrain].name[:1].upper()


def terrain_name(c: Components, view: Mapping[str, Any], square: str) -> str:
    t = view["board"].get(square, "")
    return c.terrains[t].name if t in c.terrains else "?"


def unit_label(c: Components, uid: str, unit: Mapping[str, Any]) -> str:
    """"Hero (7)": the kind's printed name and the unit's id, as orders name it."""
    kind = c.units.get(str(unit.get("kind")))
    return f"{kind.name if kind else unit.get('kind')} ({uid})"


def unit_with_hits(c: Components, uid: str, unit: Mapping[str, Any], first: bool) -> str:
    """"Hero (7) 2/2 hits" (the first of a list) or "Hoplites (9) 1/2": hits left of full."""
    kind = c.units.get(str(unit.get("kind")))
    full = kind.hits if kind else unit.get("hits")
    return f"{unit_label(c, uid, unit)} {unit.get('hits')}/{full}" + (" hits" if first else "")


def stacks(view: Mapping[str, Any]) -> dict[str, list[str]]:
    """Square -> the ids of the units on it, squares in board order, ids in number order."""
    out: dict[str, list[str]] = {}
    for u in sorted(view.get("units", {}), key=int):
        out.setdefault(view["units"][u]["square"], []).append(u)
    return dict(sorted(out.items(), key=lambda kv: order(kv[0])))


def stack_units(c: Components, view: Mapping[str, Any], ids: Sequence[str]) -> str:
    return ", ".join(unit_with_hits(c, u, view["units"][u], i == 0) for i, u in enumerate(ids))


def square_line(c: Components, view: Mapping[str, Any], square: str, ids: Sequence[str]
                ) -> str:
    """"c3 City State: alice: Hero (7) 2/2 hits, Hoplites (9) 1/2"."""
    owner = view["units"][ids[0]]["owner"]
    return f"{square} {terrain_name(c, view, square)}: {owner}: {stack_units(c, view, ids)}"


def _plural(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _join(items: Sequence[str], word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


# --- events ------------------------------------------------------------------------------------

_NAMED = re.compile(r"\b([A-Z][A-Za-z]*) (\d+)\b")


def event_text(c: Components, view: Mapping[str, Any], event: Mapping[str, Any]) -> str:
    """An event as reports print it: the terrain beside the squares a move or a recruit
    names, and units as "Hero (7)". Only the report's copy changes (the event is not
    touched); a text this version does not recognise is shown as the ledger has it."""
    text = str(event.get("text", ""))
    try:
        kind = event.get("type")
        board = view["board"]
        if kind == "move":
            start, dest = str(event["from"]), str(event["path"][-1])
            player = str(event["player"])
            head, sep, tail = text.partition(f" from {start} to {dest}")
            if sep and head.startswith(f"{player} moves "):
                names = _NAMED.sub(r"\1 (\2)", head[len(player) + 7:])
                via = re.fullmatch(r" \(via ([a-h1-8, ]+)\)\.", tail)
                text = (f"{player} moves {names} from {start} ({c.terrains[board[start]].name})"
                        f" to {dest} ({c.terrains[board[dest]].name})"
                        + (f", via {via[1]}." if via else tail))
        elif kind == "recruit":
            square = str(event["square"])
            where = f" on {square}."
            if text.endswith(where):
                text = text[:-1] + f" ({c.terrains[board[square]].name})."
    except (KeyError, TypeError, AttributeError, IndexError):
        return str(event.get("text", ""))
    return text


# --- the public part ---------------------------------------------------------------------------


def _limit(view: Mapping[str, Any]) -> int:
    try:
        return int(str(view.get("options", {}).get("rounds", "0")))
    except ValueError:
        return 0


def header(view: Mapping[str, Any]) -> list[str]:
    """The turn, the round and its limit, who plays and in which phase."""
    limit = _limit(view)
    rounds = f"round {view['round']} of {limit}" if limit else f"round {view['round']}"
    lines = [f"Turn {view['turn']}, {rounds}."]
    if view.get("game_over") or view.get("step") == "over":
        return [*lines, "The game is over."]
    lines.append(f"{view['active']} plays: {STEPS.get(view['step'], view['step'])}.")
    if limit:
        lines.append(f"The game ends after round {limit}: whoever then occupies the most City "
                     "States wins (authored round limit), unless someone occupies all six "
                     "before (Victory 1).")
    else:
        lines.append("No round limit: the game ends when a player occupies all six City "
                     "States (Victory 1) or only one player is left.")
    return lines


def seat_numbers(view: Mapping[str, Any]) -> dict[str, int]:
    return {p: i for i, p in enumerate(view["seats"], 1)}


def city_states(view: Mapping[str, Any]) -> dict[str, str]:
    """Every City State square -> the player occupying it ("" if nobody)."""
    owners = {x["square"]: x["owner"] for x in view["units"].values()}
    return {s: owners.get(s, "") for s in sorted(view["board"], key=order)
            if view["board"][s] == turn.CITY_STATE}


def players(c: Components, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player in seat order: units on the board, City States occupied, chits in his
    pile and cards in his hand (counts: both are secret, Recruit 2, Event 1), out or in."""
    held = city_states(view)
    out = []
    for n, p in enumerate(view["seats"], 1):
        units = sum(1 for x in view["units"].values() if x["owner"] == p)
        cities = [s for s, o in held.items() if o == p]
        out_of_game = p in view.get("eliminated", [])
        status = ("out of the game" if out_of_game else
                  "plays now" if p == view.get("active") and not view.get("game_over")
                  else "in the game")
        chits = int(view.get("chit_counts", {}).get(p, 0))
        cards = int(view.get("hand_counts", {}).get(p, 0))
        line = (f"{n}. {p}: {_plural(units, 'unit')} on the board; "
                f"{_plural(len(cities), 'City State')} occupied"
                + (f" ({', '.join(cities)})" if cities else "")
                + f"; {_plural(chits, 'chit')} in his pile; {_plural(cards, 'card')} in hand; "
                + status + ".")
        out.append({"seat": n, "player": p, "units": units, "cities": cities,
                    "chits": chits, "cards": cards, "status": status, "line": line})
    return out


def grid(c: Components, view: Mapping[str, Any]) -> list[str]:
    """The board as 8 x 8 text, rank 8 at the top as on a chessboard, 61 columns: each square
    its terrain letter, then ``seat:units`` of the stack on it, ``*`` when one of its units
    has lost hits."""
    seats = seat_numbers(view)
    here = stacks(view)
    files = "    " + "".join(f"{f:<7}" for f in FILES).rstrip()
    rule = "  +" + "------+" * len(FILES)
    lines = [files, rule]
    for r in reversed(RANKS):
        cells = []
        for f in FILES:
            sq = f + r
            cell = letter(c, view["board"][sq])
            ids = here.get(sq, [])
            if ids:
                units = view["units"]
                owner = units[ids[0]]["owner"]
                hurt = any(units[u]["hits"] < c.units[units[u]["kind"]].hits for u in ids)
                cell += f" {seats.get(owner, '?')}:{len(ids)}" + ("*" if hurt else "")
            cells.append(f"{cell:<6}")
        lines.append(f"{r} |" + "|".join(cells) + f"| {r}")
    return [*lines, rule, files]


def grid_key(c: Components, view: Mapping[str, Any]) -> str:
    terrains = ", ".join(f"{letter(c, t)} {x.name}" for t, x in c.terrains.items())
    seats = ", ".join(f"{n} {p}" for p, n in seat_numbers(view).items())
    return (f"Letters: {terrains}. \"2:3\": the player of seat 2 has 3 units there; \"*\": one "
            f"of them has lost hits. Seats: {seats}. Squares are named file then rank (a1 "
            "bottom left, h8 top right); units are named by kind and id, \"Hero (7)\", and "
            "orders name them by id.")


def occupied(c: Components, view: Mapping[str, Any]) -> list[str]:
    return [square_line(c, view, sq, ids) for sq, ids in stacks(view).items()]


def city_lines(c: Components, view: Mapping[str, Any]) -> list[str]:
    here = stacks(view)
    out = []
    for sq, owner in city_states(view).items():
        if owner:
            out.append(f"{sq}: {owner}, " + ", ".join(unit_label(c, u, view["units"][u])
                                                    for u in here[sq]))
        else:
            out.append(f"{sq}: nobody")
    return out


def piles(c: Components, view: Mapping[str, Any]) -> list[str]:
    """The common pile, the deck and the discards (public: Parts 5)."""
    discard = view.get("discard", [])
    names = ", ".join(c.cards[x].name if x in c.cards else str(x) for x in discard)
    return [f"Common chit pile: {_plural(int(view.get('pile_count', 0)), 'chit')} left "
            "(Recruit 1).",
            f"Event deck: {_plural(int(view.get('deck_count', 0)), 'card')} (Event 1); "
            f"discarded: {names or 'none'}."]


# --- what every card does, as pbem applies it -----------------------------------------------


def _category(c: Components, card: Card) -> str:
    if card.effect != "extra_attack":
        return ""
    if card.keyword == "stack":
        return "every unit of your own stack in the battle (the target: your square)"
    if card.terrain in c.terrains:
        kinds = [c.units[u].name for u in c.terrains[card.terrain].recruits if u in c.units]
        return (f"each of your {c.terrains[card.terrain].name} units ({_join(kinds)}, the "
                f"units recruited on {c.terrains[card.terrain].name})")
    kinds = [u.name for u in c.units.values() if card.keyword in u.keywords]
    return f"each of your {KEYWORDS.get(card.keyword, card.keyword)} units ({_join(kinds)})"


def how(c: Components, card: Card) -> str:
    """How pbem applies ``card`` (events.py, battle.py; data/events.toml ``effect``)."""
    n = card.amount
    e = card.effect
    if e == "draw_all":
        return (f"every player still in the game draws {n} cards, you first, then in seat "
                "order from your left; each sees only his own cards; the hand limit of 5 is "
                "applied only in each player's own Event Phase (Event 2).")
    if e == "oracle":
        return (f"you alone see the next {n} cards of the deck, top first; nothing is drawn "
                "and the order does not change.")
    if e == "extra_turn":
        return "you play another whole turn after this one (Recruit, Event, Move, Battle)."
    if e == "extra_attack":
        return (f"{_category(c, card)} gets one more attack this round, after your normal "
                "attack order; only your units, never the enemy's.")
    if e == "move_bonus":
        return f"target one of your squares: each of your units there gets Move +{n} this turn."
    if e == "replace_unit":
        return ("target one of your units (its id) and name a chit of your pile (unit = "
                "\"kind\"): the unit goes back to your pile, whatever its damage, and the "
                "chit takes its square with full hits, if it may stand there (Move 2-5).")
    if e == "force_bonus":
        return f"the units fighting for you get Force +{n} for the rest of that battle."
    if e == "heal":
        return ("in your own turn, target one of your stacks; in a battle, your side: every "
                "unit of yours there is back to full hits.")
    if e == "draw":
        return f"you draw {n} cards."
    if e == "betrayal":
        return ("the target enemy unit (its id) fights for you until the battle ends (it "
                "attacks for you this round if it has not yet, and you choose the hits it "
                "takes), then goes back to its owner if alive.")
    if e == "destroy_random":
        where = ("a Sea or Abyss square" if card.terrain == "sea" else
                 f"a {c.terrains[card.terrain].name} square" if card.terrain in c.terrains
                 else "any square")
        return (f"target any stack on {where}: one of its units, drawn at random (a public "
                "draw), is destroyed; Heroes and Army units left on water without a Ship go "
                "down with it.")
    if e == "hero_anywhere":
        return ("one of your Heroes (unit = its id; leave it out when you have one) goes to "
                "the target: any land square with no enemy unit and room for it (Stacking "
                "1-3), however far; it may still move in the Move Phase.")
    if e == "negate":
        return ("when another player plays a card named in your fates list on your units or "
                "on you, your The Fates negates it and both go to the discard; the negated "
                "card has no effect.")
    if e == "no_move":
        return ("the target stack's units cannot move this turn. With react = true in your "
                "standing orders pbem plays it for you at the start of another player's Move "
                "Phase, on his largest stack next to one of yours.")
    if e == "no_attack":
        return ("the target stack starts no battle and its units roll no attack this turn. "
                "With react = true in your standing orders pbem plays it for you at the start "
                "of a battle you defend, on the attacking stack.")
    return "see the rules."


_TARGETS = {"own_square": 'target = "c3", a square with your units',
            "square": 'target = "c3", any square with a stack',
            "land_square": 'target = "c3", the land square your Hero goes to',
            "own_unit": 'target = "7", one of your units, and unit = "kind" from your pile'}


def when(c: Components, card: Card) -> str:
    """When ``card`` can be played, and with which order."""
    own = (f'in your own turn, before moving: [[orders.play]] card = "{card.id}"'
           + (f", {_TARGETS[events_mod.TARGET[card.effect]]}"
              if events_mod.TARGET.get(card.effect) else ""))
    fight = (f'in a battle, instead of an attack (Battle 12): [[orders.battle.card]] card = '
             f'"{card.id}", round = 1' + (', target = "7", the enemy unit'
                                          if card.effect == "betrayal" else ""))
    if card.when == "own":
        return f"Play it {own}."
    if card.when == "battle":
        return (f"Play it {fight}; when you defend, your standing orders play it if their "
                "battle_cards names it.")
    if card.when == "any":
        return (f"Play it {own}" + (f"; or {fight}" if turn.in_battle(c, card.id) else "")
                + ".")
    return "Only your standing defence orders play it (fates = [...] in [orders.defend])."


def card_lines(c: Components) -> list[str]:
    """The Event deck appendix: every card, its place in the deck, printed text, when it is
    played and how pbem applies it."""
    out = []
    for card in c.cards.values():
        copies = "" if card.copies == 1 else f" ({card.copies} copies)"
        out.append(f"{events_mod.rule(c, card.id)}. {card.name} ({card.id}){copies}: "
                   f"\"{card.text}\". {when(c, card)} pbem: {how(c, card)}")
    return out


def notes(kind: Any) -> str:
    return ", ".join(KEYWORDS[k] for k in _KEYWORD_ORDER if k in kind.keywords) or "-"


def unit_lines(c: Components) -> list[str]:
    """The unit chits (Units 1-17)."""
    out = []
    for u in c.units.values():
        where = _join([c.terrains[t].name for t in c.recruited_at(u.id)], "or") or "nowhere"
        out.append(f"{u.name} ({u.id}): Force {u.force}, Move {u.move}, Hits {u.hits}; "
                   f"{notes(u)}; recruited on {where}; {_plural(u.count, 'chit')}.")
    return out


def terrain_lines(c: Components) -> list[str]:
    """The terrain tiles (Terrain 1-7)."""
    out = []
    for t in c.terrains.values():
        recruits = _join([c.units[u].name for u in t.recruits if u in c.units]) or "nothing"
        out.append(f"{letter(c, t.id)} {t.name} ({t.id}): {'land' if t.land else 'water'}, "
                   f"{_plural(t.count, 'tile')}; recruits {recruits}.")
    return out


def public(c: Components, view: Mapping[str, Any]) -> dict[str, Any]:
    """What every report of a record shows alike (``view``: the public view)."""
    policies = [f"{p}: " + " ".join(policy_mod.describe(c, pol))
                for p, pol in sorted(view.get("policies", {}).items())]
    return {
        "header": header(view), "players": players(c, view), "grid": grid(c, view),
        "grid_key": grid_key(c, view), "occupied": occupied(c, view),
        "cities": city_lines(c, view), "piles": piles(c, view), "policies": policies,
        "sections": [
            {"title": "The Event deck", "intro": "every card in the seed's order: its name "
             "and id, the printed text, when it is played and how pbem applies it",
             "lines": card_lines(c)},
            {"title": "Units", "intro": "the unit chits as printed, with where each is "
             "recruited", "lines": unit_lines(c)},
            {"title": "Terrain", "intro": "the terrain tiles as printed, with their letter on "
             "the board", "lines": terrain_lines(c)},
        ],
    }


# --- the reader's own part ---------------------------------------------------------------------


def _targets(reach: Mapping[str, Sequence[str]]) -> str:
    return ", ".join(sq if len(path) == 1 else f"{sq} via {' '.join(path[:-1])}"
                     for sq, path in reach.items()) or "nowhere"


def state_for(view: Mapping[str, Any], player: str) -> dict[str, Any]:
    """A stand-in state for the reader's own questions (bot.state_from_view): this turn's
    card effects count for the player whose turn it is; the others' next turn starts
    without any (Deck 7, 26-27 last "this turn")."""
    state = bot.state_from_view(view, player)
    if view.get("active") != player:
        state["effects"] = turn.no_effects()
    return state


def my_stacks(c: Components, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
    """Each of the reader's stacks: where it can go (movement.reach, all its units together;
    and each unit that would go elsewhere alone) and the enemy stacks next to it."""
    state = state_for(view, player)
    out = []
    here = stacks(view)
    for sq, ids in here.items():
        if view["units"][ids[0]]["owner"] != player:
            continue
        reach = movement.reach(c, state, player, ids)
        lines = [("All together they can reach: " if len(ids) > 1 else "It can reach: ")
                 + _targets(reach) + "."]
        if len(ids) > 1:
            for u in ids:
                alone = movement.reach(c, state, player, [u])
                if alone != reach:
                    lines.append(f"{unit_label(c, u, view['units'][u])} alone: "
                                 f"{_targets(alone)}.")
        foes = [f"{view['units'][here[n][0]]['owner']}'s stack on {n} "
                f"{terrain_name(c, view, n)}: {stack_units(c, view, here[n])}"
                for n in neighbours(sq) if n in here
                and view["units"][here[n][0]]["owner"] != player]
        lines.append("Enemy stacks next to it: " + ("; ".join(foes) if foes else "none") + ".")
        out.append({"square": sq, "title": square_line(c, view, sq, ids), "reach": reach,
                    "lines": lines})
    return out


def my_pile(c: Components, view: Mapping[str, Any], player: str) -> list[str]:
    """Each kind of chit in the reader's pile with where it could be recruited now
    (recruit.recruit_squares: Recruit 3-4, Stacking 1-3, Move 2)."""
    state = state_for(view, player)
    out = []
    for kind, n in sorted(Counter(view.get("my_chits", [])).items(),
                          key=lambda kv: c.units[kv[0]].name if kv[0] in c.units else kv[0]):
        u = c.units.get(kind)
        if u is None:
            out.append(f"{n} x {kind}")
            continue
        squares = recruit.recruit_squares(c, state, player, kind)
        where = (f"recruit it on {', '.join(squares)}" if squares else
                 "no square now: you need a unit on "
                 + _join([c.terrains[t].name for t in c.recruited_at(kind)], "or")
                 + " and an empty square or one of yours there or next to it")
        out.append(f"{n} x {u.name} ({kind}): Force {u.force}, Move {u.move}, Hits {u.hits}; "
                   f"{notes(u)}; {where}.")
    return out


def my_hand(c: Components, view: Mapping[str, Any], player: str) -> list[str]:
    """Each card of the reader's hand: its name and id, printed text, when it can be played
    and what his standing orders do with it."""
    policy = {**policy_mod.DEFAULT, **view.get("my_policy", {})}
    out = []
    for cid in view.get("my_hand", []):
        card = c.cards.get(cid)
        if card is None:
            out.append(str(cid))
            continue
        also = ""
        if card.effect == "negate":
            also = (" Your standing orders negate with it: "
                    + (", ".join(c.cards[x].name for x in policy["fates"] if x in c.cards)
                       or "nothing") + ".")
        elif card.effect in ("no_move", "no_attack"):
            also = (" Your standing orders play it for you (react is on)." if policy["react"]
                    else " Your standing orders do not play it (react is off).")
        elif cid in policy["battle_cards"]:
            also = " Your standing orders play it in a battle you defend (battle_cards)."
        out.append(f"{card.name} ({cid}): \"{card.text}\". {when(c, card)}{also}")
    return out


def context(c: Components, view: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    """The reader's own part (``view``: his view): who he is, his pile, his hand, his stacks
    and where they can go, his standing defence orders (his alone until the end)."""
    out: dict[str, Any] = {"me": [], "my_pile": [], "my_hand": [], "my_stacks": [],
                           "my_policy": [], "moves_note": ""}
    if player is None or player not in view.get("seats", []):
        return out
    seat = view["seats"].index(player) + 1
    me = [f"You are {player}, seat {seat} of {len(view['seats'])} (\"{seat}:\" on the grid)."]
    if player in view.get("eliminated", []):
        me.append("You are out of the game: you have no unit left on the board.")
    elif not view.get("game_over"):
        me.append("It is your turn." if view.get("active") == player else
                  f"It is {view['active']}'s turn; what follows is where things stand now.")
    out["me"] = me
    out["my_pile"] = my_pile(c, view, player)
    out["my_hand"] = my_hand(c, view, player)
    out["my_stacks"] = my_stacks(c, view, player)
    out["moves_note"] = (
        ("In this turn's Move Phase" if view.get("active") == player
         else "On the board as it stands now (in your next turn it may differ)")
        + ", each stack of yours can reach these squares (Move 1-8). To move units: "
        '[[orders.move]] units = their ids, path = the "via" squares, then the square '
        'reached; e.g. units = ["7"], path = ["c4", "d4"] for "d4 via c4".')
    if "my_policy" in view and not view.get("game_over"):
        out["my_policy"] = policy_mod.describe(c, {**policy_mod.DEFAULT, **view["my_policy"]})
    return out

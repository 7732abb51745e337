"""Optional Rule 301, a Zeus player (``--option zeus=<player name>``).

One campaign player is Zeus (301 A). He is not a god: no god counter (101), no Power Points and
so no Log Sheet (301 C d), no hand, no Fate counter, no God Placement or Moving Player phase; he
never Controls or moves a piece (301 C c). His Glory comes only from the gods (301 C c): the
Glory they spend on Prayers and Sacrifices (302 C), what they bribe him with (``bribe`` on the
Log Sheet) and, To the Glory of Zeus, as much as each giver receives (216 G 1).

Each game Turn gets one sealed phase, ``tNN.zeus``, right after the Log Sheets (the gods'
offers are then known) and before God Placement. Zeus's decree carries:

* ``favor`` (301 C 1): the gods in the order of his favour; a Challenge for a Hero that ends
  in a draw (209 D 4) goes to the first of the two in this list instead of Zeus Arbitration
  (209 D 6). Monster draws keep the roll-off of 209 D 7 (301 C 1 speaks of Heroes).
* ``[[orders.protect]]`` (301 C 2): for each Prayer or Sacrifice of the Turn, the protection
  he grants, any result the tables could give; the tables are not rolled.
* ``[[orders.revive]]`` (301 C 3): a Hero or Monster killed in Combat or by a Divine
  Occurrence, not by the Fates, comes back at the start of the movement step: a Hero in
  Greece as a Fates birth (213 E 2), a Monster in the hex where it died.
* ``[[orders.bolt]]`` (301 C 4): at most one Lightning Bolt per game Move (202 B 4), named by
  ``during``: on a ``hex``, every Hero there dies as that Move begins (a); on a ``god``, that
  god takes no part in this Turn and may not be struck next Turn (b).

Everything here is gated on :func:`on`: without the option the state, the events and the dice
are exactly those of a game before the rule existed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from pbem.core.dice import Stream
from pbem.core.errors import Problem
from pbem.core.orders import PLAYER_NAME
from pbem.games.mythology import names
from pbem.games.mythology import setup as setup_mod
from pbem.games.mythology.components import (
    HERO_IDS,
    MONSTER_IDS,
    Components,
    Protection,
    load,
)

State = dict[str, Any]
Event = dict[str, Any]

MIN_PLAYERS = 5                          # 301 B
REVIVABLE = ("combat", "occurrence")     # 301 C 3: "not by the Fates"
DECREE_KEYS = ("favor", "protect", "revive", "bolt")


# --- the option and the state ------------------------------------------------------------------


def player(state: Mapping[str, Any]) -> str:
    """The Zeus player's name, or "" when Optional Rule 301 is not in play."""
    return str(state.get("options", {}).get("zeus", ""))


def on(state: Mapping[str, Any]) -> bool:
    return bool(player(state))


def setup_problems(name: str, players: Sequence[str]) -> list[Problem]:
    """301 B: five players at least, and Zeus must be one of them."""
    problems: list[Problem] = []
    count = len(players)
    if count < MIN_PLAYERS:
        problems.append(Problem("--option zeus", f"Optional Rule 301 (a Zeus player) is not "
                                f"used with less than five players (301 B); this campaign has "
                                f"{count}", "leave --option zeus out, or add players"))
    if not PLAYER_NAME.fullmatch(name):
        problems.append(Problem("--option zeus", f"{name!r} is not a player name",
                                "give the name of the campaign player who is Zeus"))
    elif name not in players:
        problems.append(Problem("--option zeus", f"{name!r} is not a player of this campaign",
                                "one of " + ", ".join(sorted(players))))
    return problems


def initial(name: str) -> dict[str, Any]:
    """Zeus's part of the state: his decrees by Turn (sealed), how each unit last died (for
    301 C 3) and the Glory each god has given him (public: every gift is a Glory event)."""
    return {"player": name, "decrees": {}, "graves": {}, "given": {}}


def decree(state: Mapping[str, Any], turn: int | None = None) -> dict[str, Any]:
    """The decree for ``turn`` (default: the current one); {} before it is given."""
    if not on(state):
        return {}
    found: dict[str, Any] = state["zeus"]["decrees"].get(str(turn or state["turn"]), {})
    return found


def bolted(state: Mapping[str, Any], turn: int | None = None) -> list[str]:
    """301 C 4 b: the gods struck by a Lightning Bolt in ``turn`` (default: this Turn)."""
    return [b["god"] for b in decree(state, turn).get("bolts", []) if b["god"]]


def active(state: Mapping[str, Any]) -> list[str]:
    """The gods who take part in this Turn, in seating order (all of them without 301)."""
    idle = set(bolted(state))
    return [p for p in state["seats"] if p not in idle]


def favor(state: Mapping[str, Any]) -> list[str]:
    """301 C 1: this Turn's order of favour ([] without 301 or before the decree)."""
    return list(decree(state).get("favor", []))


def bolt_hexes(state: Mapping[str, Any], god: str) -> list[str]:
    """301 C 4 a: the hexes Zeus strikes as ``god``'s Move begins."""
    return [b["hex"] for b in decree(state).get("bolts", []) if b["during"] == god and b["hex"]]


def bury(state: State, unit: int, cause: str, hex_id: str) -> None:
    """Remember how and where ``unit`` died: "combat", "occurrence", "fates" or "bolt"."""
    if on(state):
        state["zeus"]["graves"][str(unit)] = {"cause": cause, "hex": hex_id,
                                              "turn": state["turn"]}


def unbury(state: State, unit: int) -> None:
    if on(state):
        state["zeus"]["graves"].pop(str(unit), None)


def revivable(state: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """301 C 3: the dead Heroes and Monsters whose last death was in Combat or by a Divine
    Occurrence."""
    if not on(state):
        return {}
    out: dict[int, dict[str, Any]] = {}
    for unit, grave in sorted(state["zeus"]["graves"].items(), key=lambda kv: int(kv[0])):
        table = state["heroes"] if int(unit) in HERO_IDS else state["monsters"]
        if grave["cause"] in REVIVABLE and table[unit]["status"] == "dead":
            out[int(unit)] = grave
    return out


# --- Glory: only from the others (301 C c) -----------------------------------------------------


def receive(state: State, giver: str, amount: int, why: str, source: str) -> list[Event]:
    """Zeus gains ``amount`` Glory from ``giver`` (301 C c)."""
    if not on(state) or amount <= 0:
        return []
    z = player(state)
    state["glory"][z] += amount
    given = state["zeus"]["given"]
    given[giver] = given.get(giver, 0) + amount
    return [{"type": "glory", "player": z, "amount": amount, "from": giver, "source": source,
             "text": f"{z} (Zeus) +{amount} Glory from {giver}: {why} (301 C c)."}]


def tribute(state: State, god: str, offered: int, bribe: int) -> list[Event]:
    """At the Log Sheet: the Glory spent on Prayers and Sacrifices (already taken from the god,
    302 C) goes to Zeus, and so does a bribe, taken from the god at once."""
    events = receive(state, god, offered, "Prayer and Sacrifice (302 C)", "offer")
    if bribe > 0:
        state["glory"][god] -= bribe
        events.append({"type": "glory", "player": god, "amount": -bribe, "source": "bribe",
                       "text": f"{god} {-bribe:+d} Glory: a bribe to Zeus (301 C c)."})
        events += receive(state, god, bribe, "a bribe", "bribe")
    return events


# --- the decree ----------------------------------------------------------------------------------


def result_text(p: Protection) -> str:
    return f"defense+{p.amount}" if p.kind == "defense" else p.kind


@cache
def results(c: Components) -> tuple[str, ...]:
    """301 C 2: every protection the Prayer and Sacrifice Tables could give, "none" first."""
    found = {Protection("none")}
    for god in c.gods.values():
        for table in (god.prayer, god.sacrifice):
            for row in table.rows.values():
                found.update(row)
    order = {"none": 0, "defense": 1, "divine": 2, "full": 3}
    return tuple(result_text(p) for p in sorted(found, key=lambda p: (order[p.kind], p.amount)))


def parse_result(text: str) -> Protection:
    kind, _, amount = text.partition("+")
    return Protection(kind, int(amount)) if kind == "defense" else Protection(kind)


def offers(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """This Turn's Prayers and Sacrifices, numbered from 1 per god (302 C)."""
    out = []
    for p in state["seats"]:
        for i, o in enumerate(state.get("offers", {}).get(p, []), start=1):
            out.append({"player": p, "index": i, **o})
    return out


def bribes(state: Mapping[str, Any]) -> dict[str, int]:
    """This Turn's bribes, once the Log Sheets are in."""
    out = {}
    for p in state["seats"]:
        n = int(state["logsheets"][p].get(str(state["turn"]), {}).get("bribe", 0))
        if n:
            out[p] = n
    return out


def _tables(orders: Mapping[str, Any], key: str, allowed: set[str],
            problems: list[Problem]) -> list[tuple[str, dict[str, Any]]]:
    raw = orders.get(key, [])
    if not isinstance(raw, list):
        problems.append(Problem(f"[[orders.{key}]]", "must be a list of tables",
                                f"write each one as [[orders.{key}]]"))
        return []
    out = []
    for i, t in enumerate(raw, start=1):
        where = f"[[orders.{key}]] #{i}"
        if not isinstance(t, dict):
            problems.append(Problem(where, "must be a table"))
            continue
        extra = sorted(set(t) - allowed)
        if extra:
            problems.append(Problem(f"{where} {extra[0]}", "unknown key",
                                    "keys: " + ", ".join(sorted(allowed))))
            continue
        out.append((where, t))
    return out


def parse(c: Components, state: Mapping[str, Any],
          orders: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """Zeus's decree, normalised, and every problem with it at once."""
    problems: list[Problem] = []
    seats: list[str] = list(state["seats"])
    for key in orders:
        if key not in DECREE_KEYS:
            problems.append(Problem(f"[orders] {key}", "unknown order",
                                    "Zeus's decree has " + ", ".join(DECREE_KEYS)))
    # 301 C 1: the order of favour; gods left out follow in seating order.
    raw_favor = orders.get("favor", [])
    chosen: list[str] = []
    if not isinstance(raw_favor, list):
        problems.append(Problem("[orders] favor", "must be a list of players",
                                'write favor = ["' + '", "'.join(seats) + '"]'))
    else:
        for raw_name in raw_favor:
            name = names.player_name(raw_name, seats) or raw_name
            if name not in seats:
                problems.append(Problem("[orders] favor", f"{name!r} is not a god's player",
                                        "the gods: " + ", ".join(seats)))
            elif name in chosen:
                problems.append(Problem("[orders] favor", f"{name} is listed twice"))
            else:
                chosen.append(name)
    full_favor = chosen + [p for p in seats if p not in chosen]
    # 301 C 2: protection for the offers of this Turn.
    offered = {(o["player"], o["index"]) for o in offers(state)}
    allowed = results(c)
    protect: list[dict[str, Any]] = []
    seen: set[tuple[Any, Any]] = set()
    for where, t in _tables(orders, "protect", {"player", "index", "result"}, problems):
        who, index = names.player_name(t.get("player"), seats), t.get("index")
        result = names.choice(t.get("result"), allowed)
        which = (who, index) if who and names.is_int(index) else ("", 0)
        if which not in offered:
            problems.append(Problem(where, f"{t.get('player')!r} made no offer number "
                                    f"{t.get('index')!r} this Turn (302 C)",
                                    "player and index as listed above"))
        elif which in seen:
            problems.append(Problem(where, "this offer is already answered"))
        elif result is None:
            problems.append(Problem(f"{where} result", f"{t.get('result')!r} is not a "
                                    "protection the tables give (301 C 2)",
                                    "one of " + ", ".join(allowed)))
        else:
            seen.add(which)
            protect.append({"player": who, "index": index, "result": result})
    # 301 C 3: back from the dead.
    graves = revivable(state)
    revive: list[int] = []
    for where, t in _tables(orders, "revive", {"unit"}, problems):
        unit = t.get("unit")
        if not isinstance(unit, int) or isinstance(unit, bool) or (
                unit not in HERO_IDS and unit not in MONSTER_IDS):
            problems.append(Problem(f"{where} unit", "must be a Hero (1-32) or Monster (33-64)"))
        elif unit in revive:
            problems.append(Problem(f"{where} unit", f"unit {unit} is already brought back"))
        elif unit not in graves:
            problems.append(Problem(f"{where} unit", f"unit {unit} was not killed in Combat or "
                                    "by a Divine Occurrence, or is not dead (301 C 3)",
                                    "only those listed above"))
        else:
            revive.append(unit)
    # 301 C 4: one Lightning Bolt per game Move.
    struck_last = set(bolted(state, state["turn"] - 1)) if state["turn"] > 1 else set()
    raw_bolts = _tables(orders, "bolt", {"during", "hex", "god"}, problems)
    raw_bolts = [(where, {k: names.player_name(v, seats) or v if k in ("during", "god") else
                          names.hex_id(v) or v if k == "hex" and v != "" else v
                          for k, v in t.items()}) for where, t in raw_bolts]
    struck = [t.get("god") for _, t in raw_bolts if t.get("god") in seats]
    bolts: list[dict[str, Any]] = []
    moves: set[str] = set()
    for where, t in raw_bolts:
        during, hex_id, god = t.get("during"), t.get("hex", ""), t.get("god", "")
        if during not in seats:
            problems.append(Problem(f"{where} during", f"{during!r} is not a god's player",
                                    "the god whose Move it is: " + ", ".join(seats)))
        elif during in struck:
            problems.append(Problem(f"{where} during", f"{during}'s god is struck this Turn "
                                    "and makes no Move (301 C 4 b)"))
        elif during in moves:
            problems.append(Problem(f"{where} during", f"a second Lightning Bolt in {during}'s "
                                    "Move; one per game Move (301 C 4)"))
        elif bool(hex_id) == bool(god):
            problems.append(Problem(where, "takes either hex or god (301 C 4 a-b)"))
        elif hex_id and (not isinstance(hex_id, str) or hex_id not in c.map.hexes):
            problems.append(Problem(f"{where} hex", f"there is no hex {hex_id!r} on the map"))
        elif god and god not in seats:
            problems.append(Problem(f"{where} god", f"{god!r} is not a god's player"))
        elif god and god in struck_last:
            problems.append(Problem(f"{where} god", f"{god}'s god was struck last Turn; never "
                                    "two game Turns in a row (301 C 4 b)"))
        elif god and struck.count(god) > 1:
            problems.append(Problem(f"{where} god", f"{god}'s god is struck twice"))
        else:
            moves.add(str(during))
            bolts.append({"during": during, "hex": hex_id, "god": god})
    return {"favor": full_favor, "protect": protect, "revive": revive, "bolts": bolts}, problems


def describe(d: Mapping[str, Any], c: Components) -> list[str]:
    """The decree in words, for Zeus's report and the end of the game."""
    lines = ["Favor (301 C 1): " + ", ".join(d["favor"]) + "."]
    lines.append("Protection (301 C 2): " + (", ".join(
        f"{x['player']} #{x['index']} {x['result']}" for x in d["protect"]) or "none") + ".")
    lines.append("Back from the dead (301 C 3): " + (", ".join(
        unit_name(c, u) for u in d["revive"]) or "nobody") + ".")
    lines.append("Lightning Bolts (301 C 4): " + (", ".join(
        f"in {b['during']}'s Move on " + (f"hex {b['hex']}" if b["hex"] else f"{b['god']}'s god")
        for b in d["bolts"]) or "none") + ".")
    return lines


def unit_name(c: Components, unit: int) -> str:
    return names.unit_label(c, unit)


def record(c: Components, state: State, d: dict[str, Any]) -> tuple[list[Event], list[Event]]:
    """The decree of this Turn: kept sealed; a god struck by a bolt is known at once (his god
    counter leaves the board and he places none, 301 C 4 b). Public and private events."""
    t, z = state["turn"], player(state)
    state["zeus"]["decrees"][str(t)] = d
    public: list[Event] = [{"type": "zeus-decree", "player": z, "text": f"{z} (Zeus) gives "
                            f"his decree for Turn {t}, sealed until the end of the game (301)."}]
    for b in d["bolts"]:
        if b["god"]:
            state["god_area"][b["god"]] = ""
            public.append({"type": "lightning", "player": b["god"], "hex": "",
                           "text": f"Zeus's Lightning Bolt strikes {b['god']}'s god: "
                           f"{b['god']} takes no part in Turn {t} (301 C 4 b)."})
    private = [{"type": "decree", "text": line} for line in describe(d, c)]
    return public, private


def awards(state: Mapping[str, Any]) -> dict[tuple[str, int], Protection] | None:
    """301 C 2: Zeus's answer to each offer of this Turn (None: the tables are read, 302 D)."""
    if not on(state):
        return None
    return {(x["player"], x["index"]): parse_result(x["result"])
            for x in decree(state).get("protect", [])}


def free_greek_hexes(c: Components, state: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Land hexes of Greece with no unit counter, and all of them (as 213 E 2 uses them)."""
    taken = {x["hex"] for table in ("heroes", "monsters", "lesser")
             for x in state.get(table, {}).values() if x["status"] == "board"}
    greek = sorted(h for h in c.map.area(setup_mod.GREECE).hexes if c.map.is_land(h))
    return [h for h in greek if h not in taken], greek


def revive(c: Components, state: State, stream: Stream) -> list[Event]:
    """301 C 3 at the start of the movement step: a Hero returns to a free land hex of Greece
    drawn as for a Fates birth (213 E 2), a Monster to the hex where it died."""
    events: list[Event] = []
    t = state["turn"]
    graves = revivable(state)
    free, greek = free_greek_hexes(c, state)
    for unit in decree(state).get("revive", []):
        name = unit_name(c, unit)
        if unit not in graves:
            events.append({"type": "revive-void", "unit": unit, "text": f"{name} cannot come "
                           "back from the dead (301 C 3)."})
            continue
        if unit in HERO_IDS:
            hex_id = stream.choice(free or greek, f"t{t:02d}/zeus/revive/{unit}")
            if hex_id in free:
                free.remove(hex_id)
            state["heroes"][str(unit)].update(status="board", hex=hex_id)
        else:
            hex_id = graves[unit]["hex"]
            state["monsters"][str(unit)].update(status="board", hex=hex_id)
        unbury(state, unit)
        events.append({"type": "revived", "unit": unit, "hex": hex_id, "text": f"Zeus brings "
                       f"{name} back from the dead, in hex {hex_id} (301 C 3)."})
    return events


# --- views --------------------------------------------------------------------------------------


def public_view(state: Mapping[str, Any]) -> dict[str, Any]:
    """What everyone knows: who Zeus is, the gods struck this Turn and last Turn, and the Glory
    each god has given him (every gift is a public Glory event)."""
    t = state["turn"]
    return {"player": player(state), "bolted": bolted(state),
            "last_bolted": bolted(state, t - 1) if t > 1 else [],
            "given": dict(sorted(state["zeus"]["given"].items()))}


def private_view(state: Mapping[str, Any]) -> dict[str, Any]:
    """Zeus's own view: what is offered to him this Turn and nothing else of the Log Sheets
    (the Prayers and Sacrifices and their Glory, 302 C, and the bribes), his decrees, the units
    he may bring back and the protections he may grant."""
    return {"zeus_offers": offers(state), "zeus_bribes": bribes(state),
            "zeus_decrees": state["zeus"]["decrees"],
            "zeus_revivable": [{"unit": u, **g} for u, g in revivable(state).items()],
            "zeus_results": list(results(load()))}

"""Small Hetairos states built by hand for scenario tests (the shape of game.setup's)."""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos import scenario
from pbem.games.hetairos.table import Model, Table, load
from tests.scripted import Scripted


def state(players: tuple[str, ...] = ("ann", "bob"), scen: str = "beast_slayers") -> dict[str, Any]:
    return {"scenario": scen, "options": {"rounds": "0", "monsters": "simple"}, "round": 1,
            "seats": list(players), "step": "turn", "active": players[0], "cont": 0,
            "pending": [], "halted": "",
            "map": {"0,0": {"kind": "styx", "open": "NS", "bridge": True, "found": 0, "by": ""}},
            "models": {}, "next_id": 0, "pcs": {}, "dead": [], "death": "out",
            "teams": {p: p for p in players} if load().world.scenarios[scen].kind == "solo"
            else {}, "starts": dict.fromkeys(players, "0,0"), "hostile": {},
            "standing": {p: {} for p in players}, "ranked": {}, "goal": {}, "result": {}}


def table(s: dict[str, Any], dice: list[int] | None = None, then: int | None = None) -> Table:
    return Table(load(), s, Scripted(dice or [], then), label="r01/p1")


def pc(s: dict[str, Any], player: str, character: str, at: str = "0,0", ap: int = 5) -> Model:
    m = scenario.new_pc(load(), s, player, character, at)
    m["ap"] = ap
    return m


def monster(s: dict[str, Any], type_: str, at: str, side: str = "monster",
            owner: str = "") -> Model:
    kind = load().monster(type_)
    s["next_id"] += 1
    mid = f"m{s['next_id']}"
    m: Model = {"id": mid, "side": side, "owner": owner, "type": type_, "name": kind.name.title(),
                "at": at, "bank": "", "hp": kind.hp, "max_hp": kind.hp, "ap": kind.ap,
                "kleos": 0, "home": "", "bought_off": [], "resting": 0}
    s["models"][mid] = m
    return m


def square(s: dict[str, Any], k: str, kind: str, open_: str = "NESW", **extra: Any) -> None:
    s["map"][k] = {"kind": kind, "open": open_, "found": 0, "by": "", **extra}

"""The Great Myths (Myth 0-6): each scenario's victory, its defeat and its special rules, and
one short demo of each."""

from __future__ import annotations

from typing import Any

from pbem.games.hetairos import monsters, scenarios
from pbem.games.hetairos.table import Model, Table, load
from tests.hetairos import build


def myth(scen: str, players: tuple[str, ...] = ("ann", "bob")) -> dict[str, Any]:
    s = build.state(players, scen)
    s["death"] = "replace"
    return s


def rules(scen: str) -> scenarios.Scenario:
    return scenarios.get(scen)


def act(t: Table, m: Model, line: str) -> str:
    verb, *args = line.split()
    why = rules(t.state["scenario"]).parse_step(verb, tuple(args))
    return why or rules(t.state["scenario"]).act(t, m, verb, tuple(args))


def numbers(scen: str, key: str) -> int:
    return load().world.scenarios[scen].number_of(key)


# ---- Myth 6 Finding the Bowman -----------------------------------------------------------

BOW = "finding_the_bowman"


def bowman(s: dict[str, Any], at: str = "1,0", dice: list[int] | None = None) -> Model:
    """Philoctetes found in a fresh empty cavern at ``at`` by ann's character."""
    build.square(s, at, "empty_cavern")
    t = build.table(s, dice or [6])
    rules(BOW).on_draw(t, at, t.models[s["pcs"]["ann"]])
    return t.models[s["goal"]["philoctetes"]]


def test_myth_6_philoctetes_found_on_a_6_lame() -> None:
    s = myth(BOW)
    build.pc(s, "ann", "hoplite", at="1,0")
    p = bowman(s)
    assert (p["side"], p["owner"], p["hp"], p["max_hp"]) == (
        "npc", "ann", numbers(BOW, "philoctetes_hp"), numbers(BOW, "philoctetes_max_hp"))
    t = build.table(s)
    assert monsters.ap_of(t, p) == numbers(BOW, "philoctetes_ap")  # "ONLY HAS 3AP/TURN"


def test_myth_6_no_philoctetes_below_6_monsters_find_nothing_and_found_once() -> None:
    s = myth(BOW)
    build.pc(s, "ann", "hoplite", at="1,0")
    build.square(s, "1,0", "empty_cavern")
    t = build.table(s, [5])
    rules(BOW).on_draw(t, "1,0", t.models[s["pcs"]["ann"]])
    assert "philoctetes" not in s["goal"]
    hydra = build.monster(s, "hydra", "2,0")
    build.square(s, "2,0", "empty_cavern")
    rules(BOW).on_draw(build.table(s), "2,0", hydra)  # no draw: a monster finds nobody
    build.square(s, "3,0", "tunnel")
    rules(BOW).on_draw(build.table(s), "3,0", t.models[s["pcs"]["ann"]])  # not a cavern
    p = bowman(s, "4,0")
    build.square(s, "5,0", "empty_cavern")
    rules(BOW).on_draw(build.table(s), "5,0", t.models[s["pcs"]["ann"]])  # no more rolls
    assert s["goal"]["philoctetes"] == p["id"]


def test_myth_6_tend_at_a_spring_and_the_krenaia_heal_him() -> None:
    s = myth(BOW)
    ann = build.pc(s, "ann", "krenaia", at="1,0")
    p = bowman(s)
    t = build.table(s)
    assert act(t, ann, "tend") == "tending needs a magic spring or a settlement that sells healing"
    s["map"]["1,0"]["kind"] = "magic_spring"
    assert act(t, ann, "tend") == ""
    assert (p["hp"], ann["ap"]) == (3, 3)
    assert t.events[-1]["type"] == "healed"
    from pbem.games.hetairos import skills
    assert skills.heal(t, ann, p["id"], False) == ""  # PC Krenaia 1 works on him as on anyone
    assert p["hp"] == 4


def test_myth_6_tend_at_a_kobaloi_settlement_costs_its_healing_price() -> None:
    s = myth(BOW)
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    p = bowman(s)
    s["map"]["1,0"] = {"kind": "kobaloi_settlement", "open": "NESW", "found": 0, "by": "",
                       "site": {"settlement": "kobaloi_settlement", "citizens": [],
                                "friendly": [], "delivered": 0, "destroyed": False}}
    price = load().people.price("kobaloi_settlement", "healing")
    assert price is not None
    ann["gold"] = price
    t = build.table(s)
    assert act(t, ann, "tend") == ""
    assert (p["hp"], ann["gold"]) == (3, 0)
    assert "costs" in act(t, ann, "tend")


def test_myth_6_victory_at_full_health_in_a_surface_tunnel() -> None:
    s = myth(BOW)
    build.pc(s, "ann", "hoplite", at="1,0")
    p = bowman(s)
    build.square(s, "2,0", "surface_tunnel")
    p["at"] = "2,0"
    t = build.table(s)
    rules(BOW).check(t, end_of_round=False)
    assert s["step"] == "turn"  # not healed yet: "FIRST HEAL HIM TO FULL HEALTH"
    p["hp"] = p["max_hp"]
    rules(BOW).check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "bob"]


def test_myth_6_his_death_loses_the_game() -> None:
    s = myth(BOW)
    build.pc(s, "ann", "hoplite", at="1,0")
    p = bowman(s)
    p["hp"] = 0
    t = build.table(s)
    rules(BOW).check(t, end_of_round=True)
    assert s["step"] == "over" and s["result"]["winners"] == []


def test_myth_6_he_follows_his_finder_in_the_world_phase() -> None:
    s = myth(BOW)
    build.pc(s, "ann", "hoplite", at="2,0")
    build.square(s, "2,0", "tunnel", "EW")
    p = bowman(s, "1,0")
    t = build.table(s)
    monsters.act(t, p)
    assert p["at"] == "2,0"



# ---- Myth 4 The Blind Man Speaks -----------------------------------------------------------

BLIND = "the_blind_man_speaks"


def test_myth_4_teiresias_found_on_a_6_by_a_ram_sacrificed_at_a_shrine() -> None:
    s = myth(BLIND)
    build.square(s, "1,0", "olympian_shrine")
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    t = build.table(s, [5, 6])
    assert "nothing to sacrifice" in act(t, ann, "sacrifice")
    ann["items"].append("sacrificial_ram")
    ann["prisoners"].append("minion")
    assert act(t, ann, "sacrifice") == ""  # the ram first; a 5: not found
    assert "sacrificial_ram" not in ann["items"] and "teiresias" not in s["goal"]
    assert act(t, ann, "sacrifice ram").startswith("no Sacrificial Ram")
    assert act(t, ann, "sacrifice prisoner") == ""  # a 6: found, and he stays here
    assert s["goal"]["teiresias"] == "1,0" and ann["prisoners"] == []
    assert ann["ap"] == 5  # the sacrifice itself costs no AP


def test_myth_4_a_sacrifice_elsewhere_than_a_shrine_finds_nobody() -> None:
    s = myth(BLIND)
    build.square(s, "1,0", "great_forge")
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    ann["items"].append("sacrificial_ram")
    assert "Shrine of Hecate" in act(build.table(s), ann, "sacrifice")
    assert act(build.table(s), ann, "sacrifice goat").startswith("sacrifice [ram|prisoner]")


def test_myth_4_visiting_a_shade_pit_rolls_for_him() -> None:
    s = myth(BLIND)
    build.square(s, "1,0", "lair", site={"lair": "shade_pit"})
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    t = build.table(s, [6])
    rules(BLIND).on_enter(t, ann, "1,0", "E")
    assert s["goal"]["teiresias"] == "1,0"
    minion = build.monster(s, "minion", "1,0")
    rules(BLIND).on_enter(build.table(s), minion, "1,0", "E")  # no draw for a monster


def test_myth_4_a_sacrifice_where_he_is_allows_a_5_knowledge_check_that_wins() -> None:
    s = myth(BLIND)
    build.square(s, "1,0", "lair", site={"lair": "shade_pit"})
    build.square(s, "2,0", "olympian_shrine")
    ann = build.pc(s, "ann", "hoplite", at="2,0")
    s["goal"]["teiresias"] = "1,0"
    ann["items"].append("sacrificial_ram")
    ann["prisoners"] += ["minion", "minion"]
    t = build.table(s, [4, 5])
    assert "must be made there" in act(t, ann, "sacrifice")
    ann["at"] = "1,0"
    assert act(t, ann, "sacrifice") == ""  # 4: not understood; the ram is gone
    assert s["step"] == "turn" and ann["ap"] == 3 and "sacrificial_ram" not in ann["items"]
    assert act(t, ann, "sacrifice") == ""  # a prisoner; 5: understood
    rules(BLIND).check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "bob"]


def test_myth_4_the_check_needs_its_ap_before_the_offering_is_spent() -> None:
    s = myth(BLIND)
    build.square(s, "1,0", "olympian_shrine")
    ann = build.pc(s, "ann", "hoplite", at="1,0", ap=1)
    s["goal"]["teiresias"] = "1,0"
    ann["items"].append("sacrificial_ram")
    assert "needs 2 AP" in act(build.table(s), ann, "sacrifice")
    assert "sacrificial_ram" in ann["items"]



# ---- Myth 3 The Forging of Talos -----------------------------------------------------------

TALOS = "the_forging_of_talos"


def test_myth_3_two_craft_checks_in_each_of_two_great_forges_make_four_parts() -> None:
    s = myth(TALOS)
    for k in ("1,0", "2,0", "3,0"):
        build.square(s, k, "great_forge")
    ann = build.pc(s, "ann", "hoplite", at="1,0", ap=20)
    t = build.table(s, [1, 6, 6, 6, 6, 6])
    assert act(t, ann, "forge_part") == ""  # a 1 (+1 Hoplite): no part
    assert act(t, ann, "forge_part") == ""
    assert act(t, ann, "forge_part") == ""
    assert ann["items"] == ["talos_part_1", "talos_part_2"] and ann["ap"] == 14
    assert "has made its 2 parts" in act(t, ann, "forge_part")
    ann["at"] = "2,0"
    assert act(t, ann, "forge_part") == ""
    ann["at"] = "3,0"
    assert "the parts come from 2 Great Forges" in act(t, ann, "forge_part")
    ann["at"] = "2,0"
    assert act(t, ann, "forge_part") == ""
    assert "all 4 parts" in act(t, ann, "forge_part")
    ann["at"] = "0,0"
    assert act(t, ann, "forge_part") == "parts of Talos are forged at a Great Forge"
    assert s["goal"]["parts"] == {"talos_part_1": "1,0", "talos_part_2": "1,0",
                                  "talos_part_3": "2,0", "talos_part_4": "2,0"}


def test_myth_3_holders_come_together_in_a_forge_and_an_8_knowledge_wins() -> None:
    s = myth(TALOS)
    build.square(s, "1,0", "great_forge")
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    bob = build.pc(s, "bob", "philosopher", at="0,0")
    ann["items"] += ["talos_part_1", "talos_part_2", "talos_part_3"]
    bob["items"] += ["talos_part_4"]
    t = build.table(s, [4, 3, 5])
    assert "must come together here" in act(t, ann, "assemble")
    bob["at"] = "1,0"
    assert act(t, bob, "assemble") == ""  # the Philosopher's 2 dice: 4+3 = 7, not 8
    assert s["step"] == "turn"
    assert act(t, ann, "assemble") == ""  # a Hoplite 5: no
    assert "talos" not in s["goal"]
    bob["ap"] = 5
    t = build.table(s, [4, 4])
    assert act(t, bob, "assemble") == ""
    rules(TALOS).check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "bob"]


def test_myth_3_a_dead_holders_part_is_lost_and_made_again() -> None:
    s = myth(TALOS)
    build.square(s, "1,0", "great_forge")
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    bob = build.pc(s, "bob", "hoplite", at="1,0")
    t = build.table(s, [6, 6])
    assert act(t, ann, "forge_part") == "" and act(t, ann, "forge_part") == ""
    assert "has made its 2 parts" in act(t, bob, "forge_part")
    ann["hp"] = 0
    t = build.table(s, [6])
    assert act(t, bob, "forge_part") == ""
    assert "talos_part_1" in bob["items"]



# ---- Myth 5 Songs of the Muses ------------------------------------------------------------

SONGS = "songs_of_the_muses"


def test_myth_5_songs_from_a_library_6_knowledge_and_a_settlement_for_5_gold() -> None:
    s = myth(SONGS)
    build.square(s, "1,0", "ancient_library")
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    t = build.table(s, [5, 6])
    assert act(t, ann, "study") == "" and "song_1" not in ann["items"]  # 5: no
    assert act(t, ann, "study") == "" and "song_1" in ann["items"]
    assert "needs 2 AP" in act(t, ann, "study")
    s["map"]["2,0"] = {"kind": "polis", "open": "NESW", "found": 0, "by": "",
                       "site": {"settlement": "polis", "citizens": [], "friendly": [],
                                "delivered": 0, "destroyed": False}}
    ann["at"] = "2,0"
    ann["gold"] = numbers(SONGS, "song_gold") - 1
    assert "a song costs" in act(t, ann, "buy_song")
    ann["gold"] += 1
    assert act(t, ann, "buy_song") == ""
    assert ann["gold"] == 0 and "song_2" in ann["items"]


def test_myth_5_a_hoard_roll_below_5_grants_a_song_once() -> None:
    s = myth(SONGS)
    build.square(s, "1,0", "lost_hoard", site={"taken": False})
    build.square(s, "2,0", "lost_hoard", site={"taken": False})
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    from pbem.games.hetairos import sites
    t = build.table(s, [1, 3, 2, 3])
    sites.on_enter(t, ann, "1,0", "E")  # 1+3 = 4: a song as well as the Gold
    assert songs_and_gold(ann) == (["song_1"], 4)
    sites.on_enter(t, ann, "1,0", "E")  # taken: nothing more
    ann["at"] = "2,0"
    t = build.table(s, [2, 3])
    sites.on_enter(t, ann, "2,0", "E")  # 5: no song
    assert songs_and_gold(ann) == (["song_1"], 9)


def songs_and_gold(m: Model) -> tuple[list[str], int]:
    return [i for i in m["items"] if i.startswith("song_")], m["gold"]


def test_myth_5_instruments_5_craft_at_a_forge_or_library_one_each() -> None:
    s = myth(SONGS)
    build.square(s, "1,0", "great_forge")
    ann = build.pc(s, "ann", "hoplite", at="0,0", ap=10)
    t = build.table(s, [3, 4])
    assert "Great Forge or an Ancient Library" in act(t, ann, "make_instrument")
    ann["at"] = "1,0"
    assert act(t, ann, "make_instrument") == "" and "instrument" not in ann["items"]  # 3+1
    assert act(t, ann, "make_instrument") == "" and "instrument" in ann["items"]  # 4+1
    assert "already owns" in act(t, ann, "make_instrument")


def test_myth_5_songs_pass_between_players_and_3_performed_win() -> None:
    s = myth(SONGS)
    ann = build.pc(s, "ann", "hoplite", ap=20)
    bob = build.pc(s, "bob", "philosopher")
    bob["items"] += ["song_1", "song_2", "song_3"]
    from pbem.games.hetairos import skills
    t = build.table(s, [4, 5, 6, 6])
    assert "needs an instrument" in act(t, ann, "perform")
    ann["items"].append("instrument")
    assert "carries no song" in act(t, ann, "perform")
    for song in ("song_1", "song_2", "song_3"):
        assert skills.give(t, bob, song, "ann") == ""
    assert act(t, ann, "perform song_2") == ""  # 4: the notes falter
    assert "song_2" in ann["items"] and s["goal"].get("performed") is None
    for _ in range(3):
        assert act(t, ann, "perform") == ""
    assert s["goal"]["performed"] == ["song_1", "song_2", "song_3"]
    rules(SONGS).check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "bob"]



# ---- Myth 2 Argo -------------------------------------------------------------------------

ARGO = "argo"


def polis(s: dict[str, Any], k: str) -> None:
    s["map"][k] = {"kind": "polis", "open": "NESW", "found": 0, "by": "",
                   "site": {"settlement": "polis", "citizens": [], "friendly": [],
                            "delivered": 0, "destroyed": False}}


def test_myth_2_the_prow_a_6_craft_then_a_6_knowledge_at_the_listed_places() -> None:
    s = myth(ARGO)
    build.square(s, "1,0", "tunnel")
    build.square(s, "2,0", "great_forge")
    polis(s, "3,0")
    ann = build.pc(s, "ann", "atlantean", at="1,0", ap=20)
    t = build.table(s, [2, 2, 3, 3, 4, 6])
    assert "library, forge, settlement or Olympian shrine" in act(t, ann, "prow")
    ann["at"] = "2,0"
    assert act(t, ann, "prow") == "" and s["goal"].get("prow") is None  # 2+2 craft: no
    assert act(t, ann, "prow") == "" and s["goal"]["prow"] == "carved"  # 3+3
    ann["at"] = "3,0"
    assert act(t, ann, "prow") == "" and s["goal"]["prow"] == "carved"  # knowledge 4
    assert act(t, ann, "prow") == "" and s["goal"]["prow"] == "made"  # knowledge 6
    assert act(t, ann, "prow") == "the prow is made"


def test_myth_2_wood_trunks_1_gold_each_at_a_settlement() -> None:
    s = myth(ARGO)
    polis(s, "1,0")
    ann = build.pc(s, "ann", "hoplite", at="1,0")
    ann["gold"] = 3
    t = build.table(s)
    assert act(t, ann, "buy_trunks") == ""  # as many as wanting, as far as the Gold goes
    assert (s["goal"]["trunks"], ann["gold"]) == (3, 0)
    assert "a trunk costs" in act(t, ann, "buy_trunks 2")
    ann["gold"] = 9
    assert act(t, ann, "buy_trunks 2") == ""
    assert (s["goal"]["trunks"], ann["gold"], ann["ap"]) == (numbers(ARGO, "trunks"), 7, 5)
    ann["at"] = "0,0"
    assert act(t, ann, "buy_trunks") == "not in a Polis or Manor or Kobaloi settlement"


def test_myth_2_build_in_the_start_square_with_a_crew_of_2_and_an_8_craft() -> None:
    s = myth(ARGO)
    build.square(s, "1,0", "tunnel")
    ann = build.pc(s, "ann", "hoplite", at="1,0", ap=10)
    s["goal"].update(prow="made", trunks=numbers(ARGO, "trunks"))
    t = build.table(s, [6, 1, 6])
    assert "starting square" in act(t, ann, "build_argo")
    ann["at"] = "0,0"
    build.monster(s, "hoplite", "0,0", side="npc", owner="bob")
    assert "a crew of 2 NPCs is needed here, 1 are" in act(t, ann, "build_argo")
    build.monster(s, "hoplite", "0,0", side="npc", owner="ann")
    s["goal"]["trunks"] -= 1
    assert "wood trunks" in act(t, ann, "build_argo")
    s["goal"]["trunks"] += 1
    assert act(t, ann, "build_argo") == ""  # 6+1 = 7, not 8
    assert "argo" not in s["goal"]
    assert act(t, ann, "build_argo") == ""  # 1+1 = 2
    assert act(t, ann, "build_argo") == ""  # 6+1 = 7
    ann["ap"] = 2
    ann["effects"]["hephaestus"] = 1  # Act 5: +3 to the next craft check
    t = build.table(s, [5])
    assert act(t, ann, "build_argo") == ""
    rules(ARGO).check(t, end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "bob"]


def test_myth_2_dead_players_must_be_replaced() -> None:
    from pbem.core.dice import Rng
    from pbem.games.hetairos.game import RULESET
    from tests.scripted import Scripted

    out = RULESET.setup(("ann", "bob"), {"scenario": "argo", "death": "out"}, {},
                        Rng(Scripted([], 1), Scripted([], 1)))
    assert out.state["death"] == "replace"



# ---- Myth 1 The Furies --------------------------------------------------------------------

FURIES = "the_furies"


def furies(players: tuple[str, ...] = ("ann", "bob")) -> tuple[dict[str, Any], Model]:
    s = myth(FURIES, players)
    for p in players:
        build.pc(s, p, "hoplite")
    rules(FURIES).setup(build.table(s))
    return s, s["models"][s["goal"]["aristocrat"]]


def living_furies(s: dict[str, Any]) -> list[Model]:
    return [m for m in s["models"].values() if m["type"] == "fury" and m["hp"] > 0]


def test_myth_1_an_aristocrat_npc_with_the_party_led_by_the_first_seat() -> None:
    from pbem.core.dice import Rng
    from pbem.games.hetairos.game import RULESET
    from tests.scripted import Scripted

    out = RULESET.setup(("ann", "bob"), {"scenario": "furies"}, {},
                        Rng(Scripted([], 1), Scripted([], 1)))
    s = out.state
    a = s["models"][s["goal"]["aristocrat"]]
    assert (a["type"], a["side"], a["owner"], a["at"]) == ("aristocrat", "npc", s["seats"][0],
                                                          "0,0")


def test_myth_1_furies_from_turn_3_one_a_turn_at_most_5_a_killed_one_replaced() -> None:
    s, _a = furies()
    for r in (1, 2):
        s["round"] = r
        rules(FURIES).world_start(build.table(s))
        assert living_furies(s) == []
    for r in range(3, 9):
        s["round"] = r
        rules(FURIES).world_start(build.table(s))
        assert len(living_furies(s)) == min(r - 2, numbers(FURIES, "furies_cap"))
    assert all(f["at"] == "0,0" for f in living_furies(s))  # their starting location
    dead = living_furies(s)[:2]
    for f in dead:
        f["hp"] = 0
    t = build.table(s)
    rules(FURIES).record(t, [{"type": "slain", "victim_type": "fury"} for _ in dead])
    s["round"] = 9
    rules(FURIES).world_start(build.table(s))
    assert len(living_furies(s)) == numbers(FURIES, "furies_cap")  # never more than 5
    assert s["goal"]["furies_due"] == 0


def test_myth_1_a_fury_hunts_the_aristocrat_before_a_nearer_player() -> None:
    s, a = furies()
    for x in range(1, 6):
        build.square(s, f"{x},0", "tunnel", "EW")
    a["at"] = "1,0"
    s["models"][s["pcs"]["bob"]]["at"] = "4,0"
    s["models"][s["pcs"]["ann"]]["at"] = "4,0"
    fury = build.monster(s, "fury", "3,0")
    assert monsters._next_step(build.table(s), fury) == "W"
    plain = build.monster(s, "minion", "3,0")
    assert monsters._next_step(build.table(s), plain) == "E"


def test_myth_1_three_full_turns_of_prayer_at_an_olympian_shrine_win() -> None:
    s, a = furies()
    build.square(s, "1,0", "olympian_shrine")
    a["at"] = "1,0"
    for r in (1, 2):
        s["round"] = r
        t = build.table(s)
        rules(FURIES).world_start(t)
        assert a["resting"] == 1
        monsters.act(t, a)  # he spends all his AP praying: no move toward his leader
        assert a["at"] == "1,0"
        rules(FURIES).world_end(t)
        rules(FURIES).check(t, end_of_round=True)
        assert s["step"] == "turn" and a["resting"] == 0
    assert s["goal"]["prayed"] == 2
    s["round"] = 3
    t = build.table(s)
    rules(FURIES).world_start(t)
    rules(FURIES).world_end(t)
    rules(FURIES).check(t, end_of_round=True)
    assert s["step"] == "over" and s["result"]["winners"] == ["ann", "bob"]


def test_myth_1_a_turn_away_from_the_shrine_begins_the_prayers_again() -> None:
    s, a = furies()
    build.square(s, "1,0", "olympian_shrine")
    a["at"] = "1,0"
    s["round"] = 1
    rules(FURIES).world_start(build.table(s))
    s["round"] = 2
    build.monster(s, "minion", "1,0")  # an enemy there: he must fight, not pray
    rules(FURIES).world_start(build.table(s))
    assert s["goal"]["prayed"] == 0 and a["resting"] == 0


def test_myth_1_the_aristocrats_death_loses_the_game() -> None:
    s, a = furies()
    a["hp"] = 0
    rules(FURIES).check(build.table(s), end_of_round=False)
    assert s["step"] == "over" and s["result"]["winners"] == []


# ---- one short demo of each -------------------------------------------------------------

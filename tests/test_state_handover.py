"""Issue 20: the state a record's rules return is the next record's, without a parse back,
only where the parse would give the same (engine.next_state), and the audit, which always
parses, finds any record where keeping the object changed what the rules did."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pbem import games
from pbem.core import canonical, demo, engine
from pbem.core.dice import Rng
from pbem.core.errors import AuditError
from pbem.core.ruleset import Event, Orders, Outcome, PhaseSpec, State
from pbem.games.conformance import Conformance


class KeysOutOfOrder(Conformance):
    """A sound game whose rules add keys out of sorted order and whose events then list a
    table's keys in the order the state has them."""

    name = "conformance-keys-out-of-order"

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        seen = list(state.get("zz", {}))
        out = super().resolve(state, phase, orders, rng)
        out.events.append({"type": "order", "keys": seen, "text": f"keys {seen}"})
        out.state["zz"] = {"b": 1, "a": 2}  # insertion order b, a; the file's a, b
        return out


class TupleKept(Conformance):
    """An unsound game: it keeps a tuple in its state and scores differently when it sees one
    (a GM running one command at a time reads a list back from the file)."""

    name = "conformance-tuple-kept"

    def setup(self, players: tuple[str, ...], options: Mapping[str, str],
              joins: Mapping[str, Orders], rng: Rng) -> Outcome:
        out = super().setup(players, options, joins, rng)
        # "mark" in its sorted place from the start: its tuple does not change the key order,
        # so only the audit's parse can tell the tuple from a list.
        out.state = dict(sorted({**out.state, "mark": None}.items()))
        return out

    def resolve(self, state: State, phase: PhaseSpec, orders: Mapping[str, Orders],
                rng: Rng) -> Outcome:
        bonus = isinstance(state.get("mark"), tuple)
        out = super().resolve(state, phase, orders, rng)
        if bonus:
            first = sorted(out.state["score"])[0]
            out.state["score"][first] += 1
        event: Event = {"type": "mark", "bonus": bonus, "text": f"bonus {bonus}"}
        out.events.append(event)
        out.state["mark"] = (1, 2)
        return out


for variant in (KeysOutOfOrder(), TupleKept()):
    games.register(variant)


def _play(game: str, root: Path) -> demo.DemoResult:
    return demo.run(games.get(game), root, players=2, seed="handover", options={},
                    resolve=games.get, with_reports=False, jobs=1)


def test_a_state_with_keys_out_of_order_is_read_back_as_the_file_has_it(tmp_path: Path) -> None:
    # If the rules' object were kept as it is, the events would list ["b", "a"] and the
    # audit (which parses every state) would find different record bytes.
    result = _play("conformance-keys-out-of-order", tmp_path / "g")
    assert result.records > 5
    ledger_text = "\n".join(p.read_text() for p in sorted(
        (result.campaign_dir / "ledger").glob("*.toml")))
    assert 'keys = [\n    "a",\n    "b",\n]' in ledger_text
    assert '"b",\n    "a"' not in ledger_text


def test_a_tuple_kept_in_memory_is_found_by_the_audit(tmp_path: Path) -> None:
    with pytest.raises(AuditError) as caught:
        _play("conformance-tuple-kept", tmp_path / "g")
    assert "re-adjudication gives a different value" in str(caught.value)


def test_next_state_keeps_the_object_only_when_the_file_would_give_it_back() -> None:
    sorted_state: dict[str, Any] = {"a": [1, {"x": "t01.move"}], "b": {"c": None}}
    assert engine.next_state(sorted_state, canonical.canonical_json(sorted_state)) \
        is sorted_state
    unsorted: dict[str, Any] = {"b": 1, "a": 2}
    back = engine.next_state(unsorted, canonical.canonical_json(unsorted))
    assert back == unsorted and back is not unsorted and list(back) == ["a", "b"]

"""A fight's whole state read at a round's start (``sim.core.state.fingerprint``).

Two encounters of the same scenario, ruleset and seed are in the same state at every
round's start, under every ruleset; a change to anything a rule reads (a place, a wound, the
generator's state) makes them differ; a change to words the log alone reads does not. A
live effect (a stun's end, a bleeding) cannot be read by value: no state then.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import ROOT

from sim import scenario as scenario_mod
from sim.core import state
from sim.core.battlefield import Position
from sim.core.engine import Encounter
from sim.rulesets import registry

SCENARIOS = ("footbridge", "brawl", "mirror")


def _states(scenario: str, ruleset: str, seed: int, rounds: int) -> list[object]:
    """The fight's state at each round's start, read as a rollout reads it."""
    scen = scenario_mod.load(ROOT / "scenarios" / f"{scenario}.yaml")
    enc = Encounter(replace(scen, max_rounds=rounds), ruleset, seed)
    read: list[object] = []
    enc.at_round = lambda e: read.append(state.fingerprint(e))
    enc.run()
    return read


@pytest.mark.parametrize("ruleset", registry.names())
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_same_fight_is_in_the_same_state_at_every_rounds_start(scenario, ruleset):
    one, two = _states(scenario, ruleset, 7, 6), _states(scenario, ruleset, 7, 6)
    assert one == two
    assert any(s is not None for s in one)
    other = _states(scenario, ruleset, 8, 6)
    # another seed: the generator's state at least differs from the first round on
    assert all(a != b for a, b in zip(one, other, strict=False) if a is not None)


@pytest.mark.parametrize("ruleset", registry.names())
def test_anything_a_rule_reads_makes_the_state_differ_and_the_logs_words_do_not(ruleset):
    scen = scenario_mod.load(ROOT / "scenarios" / "footbridge.yaml")
    a, b = Encounter(scen, ruleset, 3), Encounter(scen, ruleset, 3)
    assert state.fingerprint(a) == state.fingerprint(b)
    b.combatants[0].why = "another reason"  # the AI's words, for the log alone
    assert state.fingerprint(a) == state.fingerprint(b)
    b.combatants[0].pos = Position(0, 0, 0.0)  # a place
    assert state.fingerprint(a) != state.fingerprint(b)
    b = Encounter(scen, ruleset, 3)
    b.combatants[2].attacks += 1  # the books
    assert state.fingerprint(a) != state.fingerprint(b)
    b = Encounter(scen, ruleset, 3)
    b.rng.random()  # the dice to come
    assert state.fingerprint(a) != state.fingerprint(b)
    b = Encounter(scen, ruleset, 3)
    b.harmed_in[next(iter(b.harmed_in))] = 1  # what the stand-off counts
    assert state.fingerprint(a) != state.fingerprint(b)


def test_a_live_effect_cannot_be_read_and_an_ended_one_holds_nothing():
    scen = scenario_mod.load(ROOT / "scenarios" / "footbridge.yaml")
    enc = Encounter(scen, registry.names()[0], 3)
    c = enc.combatants[0]

    def stun():
        yield enc.env.timeout(3.0)

    effect = enc.start_effect(c, stun)
    assert state.fingerprint(enc) is None
    enc.env.run(until=effect)
    assert state.fingerprint(enc) is not None


def test_a_frozen_objects_value_is_kept_with_the_object_itself():
    scen = scenario_mod.load(ROOT / "scenarios" / "footbridge.yaml")
    enc = Encounter(scen, registry.names()[0], 3)
    spec = enc.combatants[0].spec
    state.fingerprint(enc)
    kept = state._KEPT[id(spec)]  # noqa: SLF001 (what the walk keeps)
    assert kept[0] is spec  # (so that no other object can take its id meanwhile)
    # a frozen object's value, whoever holds it: the same specs in another encounter
    again = Encounter(scen, registry.names()[0], 3)
    assert state.fingerprint(again) == state.fingerprint(enc)


def test_what_could_change_is_read_every_time_and_what_cannot_be_read_gives_no_state():
    """A dict of any kind is read by its entries (a ``defaultdict`` or a ``Counter`` too); a
    frozen object holding something that could change, even through another frozen object,
    is not kept; a container this module does not know is unreadable."""
    import collections
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Inner:
        marks: list[int]

    @dataclass(frozen=True)
    class Outer:
        inner: Inner

    counts: collections.defaultdict[str, int] = collections.defaultdict(int)
    counts["wounds"] = 1
    other: collections.defaultdict[str, int] = collections.defaultdict(int)
    other["wounds"] = 2
    assert state._value(counts, {}) != state._value(other, {})  # noqa: SLF001
    held = Outer(Inner([1]))
    before = state._value(held, {})  # noqa: SLF001
    held.inner.marks.append(2)
    assert state._value(held, {}) != before  # noqa: SLF001 (read again, not kept)
    with pytest.raises(state.Unreadable):
        state._value(collections.deque([1]), {})  # noqa: SLF001
    scen = scenario_mod.load(ROOT / "scenarios" / "footbridge.yaml")
    enc = Encounter(scen, registry.names()[0], 3)
    enc.ai_kept["a question"] = collections.deque()  # state it cannot read: no state
    assert state.fingerprint(enc) is None

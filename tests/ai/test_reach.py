"""Reach (``space.in_reach``), the one home of "can it strike from here", kept per fighter."""

from __future__ import annotations

import pytest
from helpers import SCENARIOS, scenario

from sim.core import space
from sim.core.battlefield import MELEE_REACH
from sim.core.engine import Encounter
from sim.rulesets import registry
from sim.scenario import load

MAP = {"nodes": {"here": {}, "there": {}}, "edges": [["here", "there", 30]]}


def test_every_kept_answer_is_reach_measured_anew(monkeypatch):
    """Every bundled scenario under every ruleset, 10 seeds: each answer ``in_reach`` gives
    (a kept one or not) is the distance measured now against the reach now, and most asks
    are answered from what was kept."""
    asked = {"kept": 0, "fresh": 0}
    kept_reach = space.in_reach

    def checked(enc, c, target):
        kept = c.reach_kept.get(target)
        repeat = (kept is not None and kept[0] is c.pos and kept[1] is target.pos
                  and kept[2] is c.reach)
        asked["kept" if repeat else "fresh"] += 1
        answer = kept_reach(enc, c, target)
        assert answer == (enc.field.measure(c.pos, target.pos) <= c.reach), (c.name,
                                                                              target.name)
        return answer

    monkeypatch.setattr(space, "in_reach", checked)
    for path in sorted(SCENARIOS.glob("*.yaml")):
        scen = load(path)
        for ruleset in registry.names():
            for seed in range(10):
                Encounter(scen, ruleset, seed).run()
    assert asked["kept"] > asked["fresh"] > 0


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_kept_answer_follows_both_places_and_the_reach(ruleset):
    """A move of either fighter, or a reach that changes (a B-Grade disarm), is asked anew."""
    sides = {"a": [{"name": "Archer", "at": "here", "weapon": "bow"}],
             "b": [{"name": "Foe", "at": "there", "weapon": "sword"}]}
    enc = Encounter(scenario(sides, map=MAP), ruleset, seed=0)
    archer, foe = enc.sides["a"][0], enc.sides["b"][0]
    here, there = enc.field.node("here"), enc.field.node("there")
    assert space.in_reach(enc, archer, foe)  # a bow reaches 30 m
    assert not space.in_reach(enc, foe, archer)
    archer.reach = MELEE_REACH  # disarmed: fights unarmed
    assert not space.in_reach(enc, archer, foe)
    foe.pos = here  # the foe comes to it
    assert space.in_reach(enc, archer, foe)
    assert space.in_reach(enc, foe, archer)
    foe.pos, archer.pos = there, there  # both walk to the other end
    assert space.in_reach(enc, foe, archer) and space.in_reach(enc, archer, foe)

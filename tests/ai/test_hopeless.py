"""No hopeless attacks: an attack that cannot succeed is never declared.

ORE and B-Grade need two dice for a set, OpenD6 one die; a weak shooter firing at long
range into heavy cover in fog has none left (ORE used to log ``rolls 0d (shoot pool 3,
-7d)`` hundreds of times in such a scene, and count each as a missed attack). It closes
in, aims, takes cover or holds instead.
"""

from __future__ import annotations

import pytest
from helpers import scenario, watch_declarations

from sim.core.actions import Attack
from sim.core.engine import Encounter
from sim.rulesets import registry

FOG = {"nodes": {"hill": {}, "marsh": {"cover": "heavy", "visibility": "very_poor"}},
       "edges": [["hill", "marsh", 45]]}
WEAK_ARCHER = {"name": "Archer", "weapon": "bow", "at": "hill",
               "traits": {"agility": 1, "dexterity": 1}, "skills": {"ranged": 1}}
HIDDEN = {"name": "Hidden", "at": "marsh", "ai": "passive"}


@pytest.mark.parametrize("profile", ["basic", "aggressive", "cautious", "tactical"])
@pytest.mark.parametrize("ruleset", registry.names())
def test_every_declared_attack_could_succeed(ruleset, profile):
    scen = scenario({"a": [{**WEAK_ARCHER, "ai": profile}], "b": [HIDDEN]}, map=FOG,
                    max_rounds=6)
    for seed in range(10):
        enc = Encounter(scen, ruleset, seed)

        def check(e, c, intents):
            for i in intents:
                if type(i) is Attack:
                    assert e.advisor.can_hit(e, c, i.target), (c.name, c.why)
            if any(type(i) is Attack for i in intents) and hasattr(e.ruleset, "planner"):
                # ORE, B-Grade: the roll for the whole declaration can make a set
                assert e.ruleset.planner.plan(e, c, intents).dice >= 2, (c.name, intents)

        watch_declarations(enc, check)
        enc.run()

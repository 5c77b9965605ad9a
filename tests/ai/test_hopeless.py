"""No hopeless attacks: an attack that cannot succeed is never declared.

ORE and B-Grade need two dice for a set, OpenD6 one die; a weak shooter firing at long
range into heavy cover in fog has none left (ORE used to log ``rolls 0d (shoot pool 3,
-7d)`` hundreds of times in such a scene, and count each as a missed attack). It closes
in, aims, takes cover or holds instead.
"""

from __future__ import annotations

import pytest
from helpers import scenario, watch_declarations

from sim.ai import profiles as ai
from sim.core.actions import Attack, Move
from sim.core.engine import Encounter
from sim.rulesets import registry

FOG = {"nodes": {"hill": {}, "marsh": {"cover": "heavy", "visibility": "very_poor"}},
       "edges": [["hill", "marsh", 45]]}
WEAK_ARCHER = {"name": "Archer", "weapon": "bow", "at": "hill",
               "traits": {"agility": 1, "dexterity": 1}, "skills": {"ranged": 1}}
# ORE: pool 2 with an expert die, the aggressive profile's called shot would roll 1 die
EXPERT_NOVICE = {"name": "Novice", "ore": {"stats": {"body": 1}, "skills": {"fight": 1},
                                           "expert": "fight"}}
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


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_a_hopeless_shooter_closes_in_instead(ruleset):
    scen = scenario({"a": [{**WEAK_ARCHER, "ai": "basic"}], "b": [HIDDEN]}, map=FOG)
    enc = Encounter(scen, ruleset, 0)
    archer, hidden = enc.combatants
    assert enc.advisor.can_attack(enc, archer, hidden)  # in range (45 of 50 m)
    assert not enc.advisor.can_hit(enc, archer, hidden)  # 2 dice - 2 long - 3 cover - 2 fog
    intents = ai.decide(enc, archer)
    assert [type(i) for i in intents] == [Move] and "no chance to hit" in archer.why


@pytest.mark.parametrize("profile", ["aggressive", "tactical"])
def test_an_expert_die_makes_no_hopeless_called_shot(profile):
    scen = scenario({"a": [{**EXPERT_NOVICE, "ai": profile}], "b": [{"name": "Foe"}]})
    enc = Encounter(scen, "ore", 0)
    novice, foe = enc.combatants
    intents = ai.decide(enc, novice)
    assert enc.ruleset.planner.plan(enc, novice, intents).dice >= 2, (intents, novice.why)

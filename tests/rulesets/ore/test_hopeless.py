"""ORE and B-Grade: a shooter with no chance to hit closes in, and an expert die makes no
hopeless called shot."""

from __future__ import annotations

import pytest
from helpers import scenario

from sim.ai import profiles as ai
from sim.core.actions import Move
from sim.core.engine import Encounter

FOG = {"nodes": {"hill": {}, "marsh": {"cover": "heavy", "visibility": "very_poor"}},
       "edges": [["hill", "marsh", 45]]}
WEAK_ARCHER = {"name": "Archer", "weapon": "bow", "at": "hill",
               "traits": {"agility": 1, "dexterity": 1}, "skills": {"ranged": 1}}
HIDDEN = {"name": "Hidden", "at": "marsh", "ai": "passive"}
# ORE: pool 2 with an expert die, the aggressive profile's called shot would roll 1 die
EXPERT_NOVICE = {"name": "Novice", "ore": {"stats": {"body": 1}, "skills": {"fight": 1},
                                           "expert": "fight"}}


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


def test_an_archer_with_a_useless_arm_at_a_swordsmans_side_does_not_close_on_him():
    """A bow needs two arms: with one full of Killing, a tactical archer 2 m from a
    swordsman can make no attack. It declared a move toward him round after round ("stays
    where it is: already 2.0 m"); it now does what a hopeless fighter does (it dodges)."""
    from sim.rulesets.ore.catalog import LEFT_ARM

    scen = scenario({"a": [{"name": "Archer", "weapon": "bow", "at": "x", "ai": "tactical",
                            "skills": {"dodge": 3}}],
                     "b": [{"name": "Sword", "at": "x", "ai": "passive"}]},
                    map={"nodes": {"x": {}}, "edges": []})
    enc = Encounter(scen, "ore", 0)
    archer, sword = enc.combatants
    archer.wounds.take(LEFT_ARM, 5, 0)
    assert not enc.advisor.can_attack(enc, archer, sword)
    intents = ai.decide(enc, archer)
    assert not any(type(i) is Move for i in intents), archer.why

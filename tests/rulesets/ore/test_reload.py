"""ORE's crossbow (and B-Grade's, built on ORE's resolution): when a shot spends the bolt.

Moved from the shared reload tests: these hand ORE's own payload (a rolled set) to
``resolve``, so they are the ORE family's rules, not every ruleset's. The duty every
ruleset shares (a crossbow shoots at most every other round) is in the contract
(tests/rulesets/contract.py: ``check_reload``).
"""

from __future__ import annotations

import pytest
from helpers import scenario

from sim.core.actions import Attack, TimedAction
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets.ore.rules import RolledSet
from sim.rulesets.ore.sets import Set

ORE_FAMILY = ["ore", "bgrade"]  # B-Grade resolves attacks with ORE's code
CROSSBOW = {"name": "Crossbow", "weapon": "crossbow",
            "traits": {"agility": 4, "dexterity": 4}, "skills": {"ranged": 4}}


@pytest.mark.parametrize("ruleset", ORE_FAMILY)
def test_a_shot_whose_target_is_out_of_reach_keeps_the_bolt(ruleset):
    """Declared, then resolved with the target beyond the crossbow's reach: not loosed.

    It still counts as an attack (a miss), as in every ruleset.
    """
    sides = {"a": [{**CROSSBOW, "at": "near"}],
             "b": [{"name": "Target", "ai": "passive", "at": "far"}]}
    scen = scenario(sides, map={"nodes": {"near": {}, "far": {}},
                                "edges": [["near", "far", 1000]]})
    enc = Encounter(scen, ruleset, 1, log=True)
    enc.ruleset.start(enc)
    shooter, target = enc.combatants
    enc.ruleset.resolve(enc, TimedAction(0.0, shooter, Attack(target), RolledSet(Set(3, 7))))
    assert "out of reach" in enc.log[-1]["text"]
    assert shooter.loaded and shooter.attacks == 1


@pytest.mark.parametrize("ruleset", ORE_FAMILY)
def test_a_setless_shot_at_a_foe_that_gave_up_fizzles_and_keeps_the_bolt(ruleset):
    """Rolled without a set on a foe already out: as a set's attack would, it fizzles.

    Uncounted, bolt kept; on a foe still in the fight the same roll is a counted miss that
    spends the bolt (it used to be both whenever the dice made no set).
    """
    sides = {"a": [CROSSBOW], "b": [{"name": "Target"}]}
    for gave_up in (True, False):
        enc = Encounter(scenario(sides), ruleset, 1)
        shooter, target = enc.combatants
        if gave_up:
            enc.take_out(target, Status.SURRENDERED)
        enc.ruleset._commit_one(enc, shooter, Attack(target), None, [])
        assert (shooter.attacks, shooter.loaded) == ((0, True) if gave_up else (1, False))

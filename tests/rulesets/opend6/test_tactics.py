"""OpenD6's tactics: the free first move of a turn lets a shooter step back or walk and aim."""

from __future__ import annotations

import pytest
from helpers import scenario

from sim.ai import profiles as ai
from sim.core.actions import Aim, Attack, Move, Retreat
from sim.core.engine import Encounter

MAP = {"nodes": {"camp": {}, "wall": {"cover": "medium"}, "field": {}, "far": {}},
       "edges": [["camp", "wall", 6], ["wall", "field", 8], ["field", "far", 30]]}
SWORD = {"traits": {"strength": 3, "endurance": 3}, "skills": {"melee": 3, "dodge": 2,
                                                                "parry": 2},
         "weapon": "sword", "armor": "leather"}
ARCHER = {"traits": {"agility": 3, "dexterity": 3}, "skills": {"ranged": 3, "dodge": 2},
          "weapon": "bow"}


def fight(ruleset, a, b, seed=1):
    """An encounter of side ``a`` against side ``b`` (lists of member dicts) on MAP."""
    return Encounter(scenario({"a": a, "b": b}, map=MAP), ruleset, seed)


def test_an_opend6_tactical_shooter_aims_while_it_walks_into_range():
    open_ground = {"nodes": {"here": {}, "there": {}}, "edges": [["here", "there", 70]]}
    enc = Encounter(scenario({"a": [{"name": "A", "ai": "tactical", **ARCHER}],
                              "b": [{"name": "B", "at": "there", **SWORD}]}, map=open_ground),
                    "opend6", 1)
    a, b = enc.combatants  # 70 m: beyond the longbow's 50
    assert ai.decide(enc, a) == [Move(b, stop_at=a.reach), Aim(b)]
    assert "aiming" in a.why


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
def test_a_shooter_with_a_foe_in_reach_steps_back_first(ruleset):
    """The first move of a turn is free: it steps back, then shoots (every ruleset's part of
    this is tests/ai/test_tactics.py's)."""
    enc = fight(ruleset, [{"name": "Archer", "at": "wall", "ai": "tactical", **ARCHER}],
                [{"name": "Sword", "at": "wall", **SWORD}])
    archer, sword = enc.combatants
    intents = ai.decide(enc, archer)
    assert type(intents[-1]) is Attack and intents[-1].target is sword
    assert type(intents[0]) is Retreat, archer.why
    assert "steps back" in archer.why

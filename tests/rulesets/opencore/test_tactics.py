"""OpenCore's tactics: a tactical fighter bides while a melee foe steps into reach (to strike
first)."""

from __future__ import annotations

from helpers import scenario

from sim.ai import profiles as ai
from sim.core.actions import Bide
from sim.core.engine import Encounter

MAP = {"nodes": {"camp": {}, "wall": {"cover": "medium"}, "field": {}, "far": {}},
       "edges": [["camp", "wall", 6], ["wall", "field", 8], ["field", "far", 30]]}
SWORD = {"traits": {"strength": 3, "endurance": 3}, "skills": {"melee": 3, "dodge": 2,
                                                                "parry": 2},
         "weapon": "sword", "armor": "leather"}


def fight(ruleset, a, b, seed=1):
    """An encounter of side ``a`` against side ``b`` (lists of member dicts) on MAP."""
    return Encounter(scenario({"a": a, "b": b}, map=MAP), ruleset, seed)


def test_opencore_tactical_bides_while_a_melee_foe_steps_into_reach():
    enc = fight("opencore", [{"name": "A", "ai": "tactical", **SWORD}],
                [{"name": "B", **SWORD}])
    a, b = enc.combatants
    b.pos = enc.field.advance(enc.field.node("camp"), enc.field.node("wall"), 4.0)
    assert ai.decide(enc, a) == [Bide()]
    assert "first strike" in a.why

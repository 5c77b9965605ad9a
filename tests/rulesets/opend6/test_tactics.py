"""OpenD6's tactics: the free first move of a turn lets a shooter step back or walk and aim."""

from __future__ import annotations

import pytest
from builders import ARCHER, SOLDIER, on_field
from helpers import scenario

from sim.ai import profiles as ai
from sim.core.actions import Aim, Attack, Move, Retreat
from sim.core.engine import Encounter


def test_an_opend6_tactical_shooter_aims_while_it_walks_into_range():
    open_ground = {"nodes": {"here": {}, "there": {}}, "edges": [["here", "there", 70]]}
    enc = Encounter(scenario({"a": [{"name": "A", "ai": "tactical", **ARCHER}],
                              "b": [{"name": "B", "at": "there", **SOLDIER}]}, map=open_ground),
                    "opend6", 1)
    a, b = enc.combatants  # 70 m: beyond the longbow's 50
    assert ai.decide(enc, a) == [Move(b, stop_at=a.reach), Aim(b)]
    assert "aiming" in a.why


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
def test_a_shooter_with_a_foe_in_reach_steps_back_first(ruleset):
    """The first move of a turn is free: it steps back, then shoots (every ruleset's part of
    this is tests/ai/test_tactics.py's)."""
    enc = on_field(ruleset, [{"name": "Archer", "at": "wall", "ai": "tactical", **ARCHER}],
                   [{"name": "Sword", "at": "wall", **SOLDIER}])
    archer, sword = enc.combatants
    intents = ai.decide(enc, archer)
    assert type(intents[-1]) is Attack and intents[-1].target is sword
    assert type(intents[0]) is Retreat, archer.why
    assert "steps back" in archer.why

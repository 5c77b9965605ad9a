"""OpenD6's thrown weapons (seed 004 and a ruling): Strength plus the weapon's code.

The duties every ruleset shares (the count, the rate, the sidearm after) are in
tests/core/test_thrown.py.
"""

from __future__ import annotations

import pytest
from builders import THROWN_DISAGREEING, native_thrown_refused, throwing

from sim.core.actions import Attack


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
def test_a_thrown_weapon_adds_to_strength(ruleset):
    """Seed 004: "Throwing Knife = Strength +1D"; a javelin (ruling) Strength +1D+2."""
    from sim.rulesets.opend6.catalog import WEAPONS_BY_NEUTRAL
    from sim.rulesets.opend6.dice import DiceCode

    for weapon, plus in (("throwing knife", DiceCode(1)), ("javelin", DiceCode(1, 2))):
        row = WEAPONS_BY_NEUTRAL[weapon]
        assert row.damage == plus and row.muscle and not row.reload_actions
        j = throwing(ruleset, weapon).combatants[0]
        bare = throwing(ruleset, "unarmed").combatants[0]
        assert j.damage_code == bare.damage_code + plus  # fists: Strength alone
        assert j.ranged and row.ranges is not None and j.reach == row.ranges[2]


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
def test_a_throw_is_spent_hit_or_miss(ruleset):
    from helpers import act

    enc = throwing(ruleset, "javelin")
    j, p = enc.combatants
    p.pos = enc.field.advance(p.pos, j.pos, 10.0)
    for left in (2, 1, 0):
        act(enc, j, Attack(p))
        assert j.throws_left == left
    act(enc, j, Attack(p))  # (the engine takes up the fists before it declares again)
    assert j.throws_left == 0 and j.attacks == 4
    assert j.hits <= 3


@pytest.mark.parametrize(("weapon", "native", "says"), THROWN_DISAGREEING)
def test_a_native_block_names_the_members_thrown_weapon_or_none(weapon, native, says):
    """A thrown weapon is counted from the member's own weapon: a native block that put a
    javelin in a swordsman's hand would throw it for ever, a sword in a thrower's would be
    spent like javelins. Refused at load, naming the field."""
    native_thrown_refused("opend6", weapon, native, says)


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
@pytest.mark.parametrize(("neutral", "native", "most"), [
    ("bow", None, 2), ("sword", "longbow", 2), ("sword", "crossbow", 1),
    ("throwing knife", None, 1), ("sword", "rifle", None)])
def test_a_native_weapon_keeps_the_rate_of_fire_of_the_weapon_in_hand(ruleset, neutral, native,
                                                                     most):
    """RULES.md "Rate of fire" goes by the weapon in hand: a native block that puts a longbow
    in a swordsman's hands makes him loose 2 arrows a round at most, not as many as his dice
    allow (an independent review saw four)."""
    from helpers import scenario

    from sim.core import space
    from sim.core.actions import Attack
    from sim.core.engine import Encounter

    member = {"name": "A", "at": "x", "weapon": neutral, "ai": "aggressive",
              "skills": {"ranged": 5}, "traits": {"dexterity": 5, "perception": 5}}
    if native:
        member["opend6"] = {"weapon": native}
    scen = scenario({"a": [member],
                     "b": [{"name": "B", "at": "y", "weapon": "sword", "ai": "passive",
                            "traits": {"endurance": 5, "strength": 5}}]},
                    map={"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", 20]]})
    for seed in range(5):
        enc = Encounter(scen, ruleset, seed)
        a = enc.sides["a"][0]
        assert space.shots_allowed(a) == most
        if most is not None:
            shots = []
            declare = enc.declare

            def counted(c, shots=shots, declare=declare):
                intents = declare(c)
                shots.append(sum(type(i) is Attack for i in intents))
                return intents

            enc.declare = counted
            enc.run()
            assert max(shots) <= most

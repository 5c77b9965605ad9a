"""ORE's and B-Grade's thrown weapons (ORE's table, rulings): the harm of one throw.

The duties every ruleset shares (the count, the rate, the sidearm after) are in
tests/core/test_thrown.py.
"""

from __future__ import annotations

import pytest
from builders import throwing

from sim.core.actions import Attack, TimedAction


def thrown_hit(ruleset: str, weapon: str) -> tuple:
    """A 3x7 set (the torso, no armor) thrown from 5 m: the thrower's books and the foe."""
    from sim.rulesets.ore.rules import RolledSet
    from sim.rulesets.ore.sets import Set

    enc = throwing(ruleset, weapon)
    j, p = enc.combatants
    enc.ruleset.start(enc)
    p.pos = enc.field.advance(p.pos, j.pos, 10.0)
    enc.ruleset.resolve(enc, TimedAction(0.0, j, Attack(p), RolledSet(Set(3, 7))))
    return j, p


@pytest.mark.parametrize(("weapon", "boxes"), [("javelin", 4), ("throwing knife", 3)])
def test_ore_a_thrown_hit_deals_the_tables_killing(weapon, boxes):
    """A javelin W+1 Killing, a throwing knife W: 4 and 3 boxes on a width-3 set."""
    j, p = thrown_hit("ore", weapon)
    left = j.throws_left
    assert (j.hits, j.damage) == (1, boxes)
    assert left == {"javelin": 3, "throwing knife": 4}[weapon] - 1


def test_bgrade_a_thrown_hit_deals_what_any_killing_weapon_does():
    """B-Grade: the width alone sets the harm; a javelin is a Killing weapon (ORE's table)."""
    dealt = {}
    for weapon in ("javelin", "throwing knife", "crossbow"):
        j, p = thrown_hit("bgrade", weapon)
        assert j.hits == 1
        dealt[weapon] = (j.damage, p.state())
    assert dealt["javelin"] == dealt["throwing knife"] == dealt["crossbow"]
    assert dealt["javelin"][0] > 0

"""ORE's natural weapons (claws, bite, horns): fought with the brawl skill
(tests/rulesets/test_natural_weapons.py holds what every ruleset shares)."""

from __future__ import annotations

import pytest
from builders import beast

from sim.scenario.vocabulary import NATURAL_WEAPONS


@pytest.mark.parametrize("weapon", sorted(NATURAL_WEAPONS))
def test_natural_weapons_fight_with_brawl(weapon):
    ore = beast("ore", weapon)
    assert ore.fight == 3 and ore.weapon.unarmed and ore.weapon.name == weapon
    assert ore.weapon.damage.k_width or ore.weapon.damage.k_plus  # they cut: Killing

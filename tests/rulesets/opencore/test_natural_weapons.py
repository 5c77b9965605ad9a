"""OpenCore's natural weapons (claws, bite, horns): fought with the brawl skill
(tests/rulesets/test_natural_weapons.py holds what every ruleset shares)."""

from __future__ import annotations

import pytest
from builders import beast

from sim.scenario.vocabulary import NATURAL_WEAPONS


@pytest.mark.parametrize("weapon", sorted(NATURAL_WEAPONS))
def test_natural_weapons_fight_with_brawl(weapon):
    oc = beast("opencore", weapon)
    assert oc.weapon.weapon_class.value == "hand_to_hand" and oc.attack_skill == 45

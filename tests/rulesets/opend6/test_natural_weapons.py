"""OpenD6's natural weapons (claws, bite, horns): fought with the brawl skill
(tests/rulesets/test_natural_weapons.py holds what every ruleset shares)."""

from __future__ import annotations

import pytest
from builders import beast

from sim.scenario.vocabulary import NATURAL_WEAPONS


@pytest.mark.parametrize("weapon", sorted(NATURAL_WEAPONS))
def test_natural_weapons_fight_with_brawl(weapon):
    d6 = beast("opend6", weapon)
    assert d6.weapon.skill == "brawling" and str(d6.skills["brawling"]) == "3D"

"""ORE's natural weapons (claws, bite, horns): fought with the brawl skill
(tests/rulesets/test_natural_weapons.py holds what every ruleset shares)."""

from __future__ import annotations

import pytest
from helpers import scenario

from sim.core.engine import Encounter
from sim.scenario.vocabulary import NATURAL_WEAPONS

BEAST = {"name": "Beast", "traits": {"strength": 4, "agility": 3},
         "skills": {"brawl": 3, "melee": 0}}


def _beast(ruleset: str, weapon: str):
    scen = scenario({"beasts": [{**BEAST, "weapon": weapon}], "men": [{"name": "Man"}]})
    return Encounter(scen, ruleset, 1).sides["beasts"][0]


@pytest.mark.parametrize("weapon", sorted(NATURAL_WEAPONS))
def test_natural_weapons_fight_with_brawl(weapon):
    ore = _beast("ore", weapon)
    assert ore.fight == 3 and ore.weapon.unarmed and ore.weapon.name == weapon
    assert ore.weapon.damage.k_width or ore.weapon.damage.k_plus  # they cut: Killing

"""Beasts' natural weapons (claws, bite, horns): fought with the brawl skill, never dropped
or knocked away, each with its ruleset's damage ruling. That beasts fight under every
ruleset is a contract duty (tests/rulesets/contract.py: ``check_natural_weapons``)."""

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
    d6 = _beast("opend6", weapon)
    assert d6.weapon.skill == "brawling" and str(d6.skills["brawling"]) == "3D"
    oc = _beast("opencore", weapon)
    assert oc.weapon.weapon_class.value == "hand_to_hand" and oc.attack_skill == 45


@pytest.mark.parametrize("alias, weapon", [("fangs", "bite"), ("talons", "claws"),
                                           ("tusks", "horns")])
def test_natural_weapon_aliases(alias, weapon):
    assert _beast("ore", alias).spec.weapon == weapon

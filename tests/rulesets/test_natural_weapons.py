"""Beasts' natural weapons (claws, bite, horns): fought with the brawl skill, never dropped
or knocked away, each with its ruleset's damage ruling. That beasts fight under every
ruleset is a contract duty (tests/rulesets/contract.py: ``check_natural_weapons``);
each ruleset's own ruling is tested in its folder (``<folder>/test_natural_weapons.py``)."""

from __future__ import annotations

import pytest
from helpers import any_ruleset, scenario

from sim.core.engine import Encounter

BEAST = {"name": "Beast", "traits": {"strength": 4, "agility": 3},
         "skills": {"brawl": 3, "melee": 0}}


def _beast(ruleset: str, weapon: str):
    scen = scenario({"beasts": [{**BEAST, "weapon": weapon}], "men": [{"name": "Man"}]})
    return Encounter(scen, ruleset, 1).sides["beasts"][0]


@pytest.mark.parametrize("alias, weapon", [("fangs", "bite"), ("talons", "claws"),
                                           ("tusks", "horns")])
def test_natural_weapon_aliases(alias, weapon):
    assert _beast(any_ruleset(), alias).spec.weapon == weapon

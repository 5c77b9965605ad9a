"""Beasts' natural weapons (claws, bite, horns): fought with the brawl skill, never dropped
or knocked away, each with its ruleset's damage ruling. That beasts fight under every
ruleset is a contract duty (tests/rulesets/contract.py: ``check_natural_weapons``);
each ruleset's own ruling is tested in its folder (``<folder>/test_natural_weapons.py``)."""

from __future__ import annotations

import pytest
from builders import beast
from helpers import any_ruleset


@pytest.mark.parametrize("alias, weapon", [("fangs", "bite"), ("talons", "claws"),
                                           ("tusks", "horns")])
def test_natural_weapon_aliases(alias, weapon):
    assert beast(any_ruleset(), alias).spec.weapon == weapon

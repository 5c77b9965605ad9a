"""ORE's conversion of the neutral hero (RULES.md, "System-neutral characters")."""

from __future__ import annotations

import pytest
from contract import neutral_hero

CONVERTS = ("ore",)


@pytest.mark.parametrize("weapon", ["sword", "unarmed"])
def test_the_neutral_hero(weapon):
    f = neutral_hero("ore", weapon)
    # body = floor((4 + 3) / 2), coordination = floor((3 + 2) / 2), sense = perception;
    # fight = melee (brawl unarmed), shoot = ranged, dodge, parry, run = 1
    assert (f.body, f.coordination, f.sense) == (3, 2, 3)
    assert (f.fight, f.shoot, f.dodge, f.parry, f.run) == (
        1 if weapon == "unarmed" else 3, 2, 2, 1, 1)

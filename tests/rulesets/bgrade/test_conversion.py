"""B-Grade's conversion of the neutral hero: ORE's numbers, and its other stats at 2."""

from __future__ import annotations

import pytest
from contract import neutral_hero

CONVERTS = ("bgrade",)


@pytest.mark.parametrize("weapon", ["sword", "unarmed"])
def test_the_neutral_hero(weapon):
    f = neutral_hero("bgrade", weapon)
    assert (f.body, f.coordination, f.sense) == (3, 2, 3)  # as ORE converts them
    assert (f.fight, f.shoot, f.dodge, f.parry, f.run) == (
        1 if weapon == "unarmed" else 3, 2, 2, 1, 1)
    assert (f.intelligence, f.command, f.charm) == (2, 2, 2)  # no neutral trait: 2

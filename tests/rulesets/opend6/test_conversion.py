"""OpenD6's conversion of the neutral hero (RULES.md): each rating N is N dice."""

from __future__ import annotations

import pytest
from contract import neutral_hero

CONVERTS = ("opend6", "opend6-hp")  # the hit-point variant converts alike


@pytest.mark.parametrize("ruleset", CONVERTS)
@pytest.mark.parametrize("weapon", ["sword", "unarmed"])
def test_the_neutral_hero(ruleset, weapon):
    f = neutral_hero(ruleset, weapon)
    # each rating N -> ND; the weapon's skill takes melee (brawl unarmed) or ranged
    codes = {k: str(v) for k, v in f.attrs.items()}
    assert {k: codes.get(k) for k in ("strength", "endurance", "agility", "dexterity")} == {
        "strength": "4D", "endurance": "3D", "agility": "3D", "dexterity": "2D"}
    assert str(f.skills[f.weapon.skill]) == ("1D" if weapon == "unarmed" else "3D")
    assert str(f.skills["dodge"]) == "2D"

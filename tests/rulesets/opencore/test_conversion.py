"""OpenCore's conversion of the neutral hero (RULES.md): abilities 15 N + 15, skills 15 N."""

from __future__ import annotations

import pytest
from contract import neutral_hero

from sim.rulesets.opencore.fighter import neutral_ability

CONVERTS = ("opencore",)


@pytest.mark.parametrize("weapon", ["sword", "unarmed"])
def test_the_neutral_hero(weapon):
    f = neutral_hero("opencore", weapon)
    # ability = min(100, 15 N + 15); skill = 15 N; CON from endurance; the rest 50
    assert f.abilities == {"str": 75, "dex": 45, "agl": 60, "con": 60, "per": 60,
                           "int": 50, "wis": 50, "cha": 50, "com": 50}
    assert f.skills["melee"] == 45 and f.skills["hand_to_hand"] == 15
    assert f.skills["evade"] == 30
    assert f.attack_skill == (15 if weapon == "unarmed" else 45)


def test_an_ability_is_capped_at_100():
    assert [neutral_ability(n) for n in range(1, 6)] == [30, 45, 60, 75, 90]
    assert neutral_ability(7) == 100  # min(100, 120)

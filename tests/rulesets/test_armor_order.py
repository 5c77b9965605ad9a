"""Armor keeps its order (RULES.md, issue 31): none < leather < chain < plate in protection,
under every registered ruleset.

Protection is read as a game master reads it: the harm a swordsman's attacks do to a
passive man in each armor, per attack, in the ruleset's own unit (ORE boxes, B-Grade
wounds and Shock, OpenCore HP, OpenD6 wounds or HP), over the same encounter seeds.
"""

from __future__ import annotations

import pytest
from helpers import scenario

from sim.core.engine import Encounter
from sim.rulesets import registry

ORDER = ("none", "leather", "chain", "plate")
FIGHTS = 150
# each armor must leave at most this share of the harm per attack of the one below it: the
# smallest steps measured are B-Grade's leather over none (0.89 of it) and OpenCore's chain
# over leather (0.82); a tie (B-Grade's leather and none, chain and plate, before the
# ruling) is 1.0
MOST = 0.95


def harm_per_attack(ruleset: str, armor: str) -> float:
    scen = scenario({"a": [{"name": "Swordsman", "weapon": "sword", "traits": {"strength": 3},
                            "skills": {"melee": 3}}],
                     "b": [{"name": "Dummy", "ai": "passive", "armor": armor,
                            "traits": {"endurance": 3}}]}, max_rounds=100)
    damage = attacks = 0
    for seed in range(FIGHTS):
        side = Encounter(scen, ruleset, seed).run().sides[0]
        damage, attacks = damage + side.damage, attacks + side.attacks
    return damage / attacks


@pytest.mark.parametrize("ruleset", registry.names())
def test_armor_keeps_its_order(ruleset):
    harm = [harm_per_attack(ruleset, armor) for armor in ORDER]
    for lighter, heavier, a, b in zip(ORDER, ORDER[1:], harm, harm[1:], strict=False):
        assert b <= MOST * a, (ruleset, f"{heavier} {b:.3f} vs {lighter} {a:.3f}", harm)

"""What an OpenCore menu says an attack may do beyond hitting (``Advisor.harm_odds``): checked
against every face of the damage dice."""

from __future__ import annotations

import itertools

import pytest
from builders import SWORD, duel

from sim.rulesets.opencore.odds import DEFENDER_FUMBLE_MULTIPLIERS, hit_odds


def test_opencore_odds_count_every_face_of_the_damage_dice():
    enc, a, b = duel("opencore", **SWORD)
    b.armor_left, b.hp = 6, 9  # worn armor, few hit points: both chances well inside 0..1
    dice = a.fire.damage
    bonus = dice.bonus + (a.str_mod if dice.plus_str else 0)
    rolls = [max(1, sum(f) + bonus)
             for f in itertools.product(range(1, dice.sides + 1), repeat=dice.dice)]
    odds = hit_odds(enc.ruleset.attack_skill(enc, a, b), enc.ruleset.defense_skill(b))
    absorb = b.armor_left + b.toughness

    def through(at_least: int) -> float:
        def share(mult: int) -> float:
            return sum(r * mult - absorb >= at_least for r in rolls) / len(rolls)
        return (odds.plain * share(1) + odds.defender_fumble
                * sum(p * share(m) for p, m in DEFENDER_FUMBLE_MULTIPLIERS))

    (w1, p1), (w2, p2) = enc.advisor.harm_odds(enc, a, [b.plain_attack])
    assert (w1, w2) == ("to reach HP", "to take down")
    assert p1 == pytest.approx(through(1)) and p2 == pytest.approx(through(9))
    assert 0 < p2 < p1 < odds.hit

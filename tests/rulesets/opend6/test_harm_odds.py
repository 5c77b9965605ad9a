"""What an OpenD6 menu says an attack may do beyond hitting (``Advisor.harm_odds``): checked
against icepool distributions of the wild-die rolls."""

from __future__ import annotations

import icepool
import pytest
from builders import SWORD, duel
from helpers import opend6_exact_roll


def _opend6(ruleset: str):
    enc, a, b = duel(ruleset, **SWORD)
    rules = enc.ruleset
    damage = opend6_exact_roll(rules.combat.damage_dice(a, b), a.damage_code.pips,
                               complication=True)
    resist = opend6_exact_roll(b.resist_code.dice, b.resist_code.pips, complication=True)
    hit = enc.advisor.attack_odds(enc, a, [b.plain_attack])
    return enc, a, b, damage, resist, hit


def _p(die: icepool.Die) -> float:
    return float(die.probability(True)) if True in die.outcomes() else 0.0


def test_opend6_wound_and_takedown_odds_over_the_damage_and_resistance_rolls():
    """A wound when damage >= resistance (a total of 0 counts as 1); death at 5 wounds:
    damage >= 5 x resistance."""
    enc, a, b, damage, resist, hit = _opend6("opend6")
    wound = icepool.map(lambda d, r: d >= max(r, 1), damage, resist)
    down = icepool.map(lambda d, r: d // max(r, 1) >= 5, damage, resist)
    assert enc.advisor.harm_odds(enc, a, [b.plain_attack]) == (
        ("to wound", pytest.approx(hit * _p(wound))),
        ("to take down", pytest.approx(hit * _p(down))))
    b.wounds = 4  # one wound from death: any wound takes it down
    (_, w), (_, d) = enc.advisor.harm_odds(enc, a, [b.plain_attack])
    assert d == pytest.approx(w)


def test_opend6_hp_odds_take_hit_points_past_the_resistance():
    enc, a, b, damage, resist, hit = _opend6("opend6-hp")
    harm = icepool.map(lambda d, r: d > r, damage, resist)
    down = icepool.map(lambda d, r, hp=b.hp: d - r >= hp, damage, resist)
    assert enc.advisor.harm_odds(enc, a, [b.plain_attack]) == (
        ("to take HP", pytest.approx(hit * _p(harm))),
        ("to take down", pytest.approx(hit * _p(down))))

"""OpenD6 attacks against a defense roll: ties to the attacker, exact and measured odds.

RULES.md ``opend6``: a roll succeeds when it meets or beats its difficulty; a dodge, parry or
block roll *replaces* the difficulty, so an attack that meets it hits. Exact values come from
icepool distributions built from the rules text, never from the code under test; the
measured rate runs the real attack path (``OpenD6Ruleset.resolve``) with a seeded generator.
"""

from __future__ import annotations

import math
import random

import icepool
import pytest
from opend6_helpers import declaring

from sim import scenario as scenario_mod
from sim.core.actions import Attack, Defend
from sim.core.engine import Encounter
from sim.rulesets.opend6 import odds
from sim.rulesets.opend6.dice import DiceCode

EXPLODE_DEPTH = 12  # the reroll tail beyond 12 more sixes weighs 6**-13


def exact_roll(dice: int, pips: int = 0, action: bool = True) -> icepool.Die:
    """An N-dice roll with the wild die, from the rules text (RULES.md opend6, Dice).

    ``action``: only an action roll fumbles; a damage or resistance roll's wild 1 is 1.
    """
    if dice == 0:
        return icepool.Die([pips])  # 0D rolls the pips alone
    d6 = icepool.d6
    others = dice - 1
    rest = others @ d6 if others else icepool.Die([0])
    # Fumble: the wild die and the highest normal die leave the total.
    fumble = d6.lowest(others, others - 1) if others >= 2 else icepool.Die([0])
    if not action:
        fumble = 1 + rest
    exploded = 6 + d6.explode(depth=EXPLODE_DEPTH) + rest
    return d6.map(lambda w: fumble if w == 1 else exploded if w == 6 else w + rest) + pips


FIVE = exact_roll(5)
MEETS = float((FIVE - FIVE).probability(">=", 0))  # ties to the attacker (RULES.md)
BEATS = float((FIVE - FIVE).probability(">", 0))   # the old rule: ties to the defender


def test_five_dice_against_a_five_dice_defense_exact() -> None:
    # 5D v 5D: the attacker wins about 52.5%, not 47.5% (the ties, ~5%, are its)
    assert MEETS == pytest.approx(0.52526, abs=5e-5)
    assert BEATS == pytest.approx(0.47474, abs=5e-5)
    # the AI's exact odds agree with icepool
    assert odds.p_meets_roll(5, 0, (5, 0, 0), 0) == pytest.approx(MEETS, abs=1e-9)


@pytest.mark.parametrize(("attack", "defense", "minus", "offset"), [
    ((4, 1), (3, 2), 0, 0), ((2, 0), (5, 0), 4, 5), ((6, 2), (1, 0), 0, 15), ((1, 0), (0, 2), 0, 0),
])
def test_attack_odds_against_a_defense_roll_match_icepool(attack, defense, minus,
                                                          offset) -> None:
    # target number = the defense total less encumbrance (never below 0) + cover etc.
    tn = exact_roll(*defense).map(lambda t: max(0, t - minus) + offset)
    exact = float((exact_roll(*attack) - tn).probability(">=", 0))
    got = odds.p_meets_roll(*attack, (*defense, minus), offset)
    assert got == pytest.approx(exact, abs=1e-9)
    # and a rolled total against the same hidden defense roll
    for total in (0, 7, 12, 25):
        assert odds.p_total_meets_roll(total, (*defense, minus), offset) == pytest.approx(
            float(tn.probability("<=", total)), abs=1e-9)


ROLLS = 40_000
TOLERANCE_SE = 4.5


def test_five_dice_against_a_five_dice_dodge_through_the_attack_path() -> None:
    # A: Agility 5D + brawling 0D; its damage is 0D (Strength 0D, fists), so B is never
    # wounded and every round is the same duel. B: a 5D dodge (Agility 5D + dodge 0D).
    scen = scenario_mod.parse({"name": "t", "ruleset": "opend6", "sides": {
        "a": [{"name": "A", "ai": "basic", "weapon": "unarmed",
               "opend6": {"attributes": {"agility": "5D", "strength": "0D"},
                          "skills": {"brawling": "0D"}}}],
        "b": [{"name": "B", "ai": "passive",
               "opend6": {"attributes": {"agility": "5D"}, "skills": {"dodge": "0D"}}}]}})
    enc = Encounter(scen, "opend6", seed=0)
    a, b = enc.combatants
    assert (a.attack_code, b.dodge_code, a.damage_code) == (DiceCode(5), DiceCode(5),
                                                            DiceCode(0))
    enc.rng = random.Random(20_526)
    rules = enc.ruleset
    for _ in range(ROLLS):
        rules.resolve(enc, declaring(enc, b, Defend("dodge")))
        rules.resolve(enc, declaring(enc, a, Attack(b)))
    assert a.attacks == ROLLS and b.wounds == 0 and b.in_fight
    se = math.sqrt(MEETS * (1 - MEETS) / ROLLS)  # 0.0025
    rate = a.hits / ROLLS
    assert abs(rate - MEETS) < TOLERANCE_SE * se, (rate, MEETS, se)
    # the check can fail: the old rule's 47.5% lies about 20 standard errors away
    assert abs(BEATS - MEETS) > 2 * TOLERANCE_SE * se


@pytest.mark.parametrize(("damage", "resistance", "cap"), [
    ((3, 0), (2, 0), 5), ((5, 1), (3, 2), 5), ((6, 1), (2, 0), 3), ((1, 0), (4, 0), 5),
])
def test_expected_wounds_match_icepool(damage, resistance, cap) -> None:
    # damage >= k x resistance gives k wounds; resistance counts as at least 1; at most cap
    exact = icepool.map(lambda d, r: min(cap, d // max(r, 1)),
                        exact_roll(*damage, action=False), exact_roll(*resistance, action=False))
    assert odds.expected_wounds(damage, resistance, cap) == pytest.approx(
        float(exact.mean()), abs=1e-7)


@pytest.mark.parametrize(("damage", "resistance", "cap"), [
    ((5, 1), (3, 2), 30), ((8, 0), (2, 0), 10), ((2, 0), (4, 0), 20),
])
def test_expected_hit_points_lost_match_icepool(damage, resistance, cap) -> None:
    exact = icepool.map(lambda d, r: min(cap, max(0, d - r)),
                        exact_roll(*damage, action=False), exact_roll(*resistance, action=False))
    assert odds.expected_hp_loss(damage, resistance, cap) == pytest.approx(
        float(exact.mean()), abs=1e-7)

"""ORE's difficulty option: an attack takes a set that reaches the difficulty, if it rolled one.

Sets go to actions after the roll; with ``options.ore.difficulty`` D an attack takes the
widest set of height >= D rather than the widest set. So a plain attack succeeds exactly
when the roll holds *any* set of height >= D. Checked against the exact chance, by
counting: a roll of n d10 holds no such set when each face D..10 shows at most once.
"""

from __future__ import annotations

import math
from math import comb, perm

from helpers import scenario

from sim.core.actions import Attack
from sim.core.engine import Encounter
from sim.rulesets.ore.rules import assign_sets
from sim.rulesets.ore.sets import Set


def p_high_set(n: int, difficulty: int) -> float:
    """Exact P(some face >= ``difficulty`` shows twice or more among ``n`` d10)."""
    high, low = 11 - difficulty, difficulty - 1
    none = sum(comb(n, k) * perm(high, k) * low ** (n - k) for k in range(0, min(n, high) + 1))
    return 1 - none / 10**n


def test_an_attack_takes_the_widest_set_that_reaches_the_difficulty():
    sets = [Set(3, 2), Set(2, 9)]
    intent = Attack(None)
    assert assign_sets([intent], sets) == [(intent, Set(3, 2))]
    assert assign_sets([intent], sets, lambda s: s.height >= 6) == [(intent, Set(2, 9))]
    # none reaches it: the widest still goes (a miss either way)
    assert assign_sets([intent], sets, lambda s: s.height >= 10) == [(intent, Set(3, 2))]


def test_the_exact_chance_by_hand():
    assert math.isclose(p_high_set(2, 6), 5 / 100)  # a pair of the same high face
    assert math.isclose(p_high_set(10, 1), 1 - perm(10, 10) / 10**10)


def test_ten_dice_at_difficulty_six_hit_at_the_exact_rate():
    """Before: the widest set went to the attack, and 15% of these attacks missed for it."""
    a = {"name": "A", "ore": {"stats": {"body": 5}, "skills": {"fight": 5}}}
    dummy = {"name": "Dummy", "ai": "passive", "armor": "plate",
             "ore": {"stats": {"body": 1}}}
    scen = scenario({"a": [a], "b": [dummy]}, max_rounds=40,
                    options={"ore": {"difficulty": 6}})
    attacks = hits = 0
    seed = 0
    while attacks < 20_000:
        result = Encounter(scen, "ore", seed).run()
        attacks += result.sides[0].attacks
        hits += result.sides[0].hits
        seed += 1
    p = p_high_set(10, 6)
    tolerance = 4.5 * math.sqrt(p * (1 - p) / attacks)  # 4.5 standard errors
    assert abs(hits / attacks - p) <= tolerance, (hits / attacks, p, tolerance)

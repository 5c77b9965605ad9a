"""OpenD6's count of attacks: counts as good as the best, by the exact odds, are drawn."""

from __future__ import annotations

import random

import pytest
from builders import duelists


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
def test_opend6_draws_the_count_of_attacks_among_counts_as_good(ruleset):
    """Counts of attacks whose expected hits tie (or nearly) are drawn, not the first."""
    enc, a, b = duelists("tactical", ruleset)
    dice = enc.ruleset.combat.attack_dice(enc, a, b)
    enc.advisor._chance = lambda actor, against, d: 1.0 / (dice - d + 1)  # every count: 1 hit
    seen = set()
    for seed in range(80):
        enc.rng = random.Random(seed)
        seen.add(enc.advisor.extra_attacks(enc, a, b))
    assert seen == set(range(min(3, dice - 1) + 1))

"""B-Grade's fast paths, each held equal to the slow way it stands in for."""

import random

import pytest

from sim.core.actions import Attack
from sim.rulesets.bgrade.team import Roll, best_pooled
from sim.rulesets.ore.sets import find_sets


@pytest.mark.parametrize("seed", range(200))
def test_best_pooled_is_find_sets_first(seed):
    rng = random.Random(seed)
    foe = object()
    team = [Roll(name, [], [Attack(foe)], [rng.randint(1, rng.choice((6, 10)))
                                           for _ in range(rng.randint(0, 9))],
                 foe, True, 3, "fight")
            for name in "ABC"[:rng.randint(2, 3)]]
    if not any(r.faces for r in team):
        return
    pooled = find_sets([face for r in team for face in r.faces])
    assert best_pooled(team) == (pooled[0] if pooled else None)

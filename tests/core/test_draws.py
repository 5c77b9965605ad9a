"""The inline shuffle makes the standard library's draws: same list, same generator after."""

import random

import pytest

from sim.core.draws import shuffle


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, 17, 52, 200])
def test_shuffle_is_random_shuffle_draw_for_draw(n):
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(n)), list(range(n))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()  # the same draws, no more, no fewer


def test_another_generator_type_keeps_its_own_shuffle():
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):
            Counting.calls += 1
            super().shuffle(x)

    rng = Counting(3)
    shuffle(rng, [1, 2, 3])
    assert Counting.calls == 1

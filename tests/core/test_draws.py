"""The inline shuffle makes the standard library's draws: same list, same generator after."""

import random

import pytest

from sim.core.draws import best, best_by, shuffle


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


class _Enc:
    """What ``best`` and ``best_by`` read of an encounter: its generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)


@pytest.mark.parametrize("seed", range(40))
def test_best_by_is_best_on_the_keys_tuple_draw_for_draw(seed):
    """Asking each key only of the candidates tied so far picks what the tuple key picks,
    with the same draw; a later key is never asked once one candidate is left."""
    maker = random.Random(seed)
    items = list(range(maker.randrange(0, 9)))
    table = {i: (maker.randrange(3), maker.randrange(2), maker.randrange(3)) for i in items}
    keys = tuple((lambda i, j=j: table[i][j]) for j in range(3))
    a, b = _Enc(seed), _Enc(seed)
    assert best_by(a, items, keys) == best(b, items, lambda i: table[i])
    assert a.rng.getstate() == b.rng.getstate()
    asked: list[int] = []
    best_by(_Enc(seed), [1, 2], (lambda i: i, lambda i: asked.append(i)))
    assert not asked

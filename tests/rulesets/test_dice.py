"""Shared dice: set finding on hand-made rolls, roll ranges, determinism."""

import random

import pytest

from sim.rulesets.dice import roll, roll_pool
from sim.rulesets.ore.sets import Set, find_sets, loose_dice


@pytest.mark.parametrize(
    "dice, expected",
    [
        ([], []),
        ([5], []),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], []),
        ([3, 3], [Set(2, 3)]),
        ([3, 7, 3, 7, 7, 1], [Set(3, 7), Set(2, 3)]),
        ([2, 2, 9, 9], [Set(2, 9), Set(2, 2)]),  # equal width: higher first
        ([4, 4, 4, 4, 10, 10], [Set(4, 4), Set(2, 10)]),  # wider beats higher
        ([10] * 10, [Set(10, 10)]),
        ([1, 1, 2, 2, 3, 3, 4], [Set(2, 3), Set(2, 2), Set(2, 1)]),
    ],
)
def test_find_sets_on_hand_made_rolls(dice, expected):
    assert find_sets(dice) == expected


def test_loose_dice_are_the_unmatched_faces_highest_first():
    assert loose_dice([3, 7, 3, 9, 1]) == [9, 7, 1]


def test_roll_covers_every_face_uniformly():
    rng = random.Random(1)
    counts = [0] * 11
    n = 60_000
    for _ in range(n):
        counts[roll(rng, 10)] += 1
    assert counts[0] == 0
    for c in counts[1:]:
        assert abs(c / n - 0.1) < 0.006  # ~5 standard errors


def test_roll_pool_is_reproducible_and_explicit():
    assert roll_pool(random.Random(42), 8) == roll_pool(random.Random(42), 8)
    assert roll_pool(random.Random(42), 0) == []
    assert all(1 <= d <= 6 for d in roll_pool(random.Random(3), 50, 6))

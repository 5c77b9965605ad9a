"""Counts in the log read right: 1 die, 2 dice, 1 wound, 0 wounds."""

from sim.core.words import count


def test_count_is_singular_for_one_only():
    assert [count(n, "die", "dice") for n in (0, 1, 2)] == ["0 dice", "1 die", "2 dice"]
    assert [count(n, "wound") for n in (0, 1, 5)] == ["0 wounds", "1 wound", "5 wounds"]

"""The difficulty word: thresholds on P(lose) and P(any death), both words across a boundary."""

import pytest

from sim.results.difficulty import MIN_FIGHTS, WORDS, level, of_entry, word


@pytest.mark.parametrize(("p_lose", "p_death", "expected"), [
    (0.0, 0.0, "trivial"), (0.05, 0.01, "easy"), (0.01, 0.05, "easy"),
    (0.2, 0.2, "risky"), (0.5, 0.1, "deadly"), (0.0, 0.9, "deadly"),
    (0.9, 0.0, "hopeless"), (0.0, 1.0, "deadly"),  # deaths alone never make it hopeless
])
def test_levels(p_lose, p_death, expected):
    assert WORDS[level(p_lose, p_death)] == expected


def test_one_word_when_sure_two_across_a_boundary():
    assert word(10_000, 0, 0) == "trivial"
    assert word(10_000, 5000, 0) == "deadly"
    # P(lose) 0.10 exactly on the easy/risky boundary: its interval spans both
    assert word(400, 40, 0) == "easy-risky"


def test_never_a_word_from_fewer_than_100_fights():
    assert word(MIN_FIGHTS - 1, 0, 0) is None
    assert word(MIN_FIGHTS, 0, 0) is not None


def test_from_a_lethality_entry():
    entry = {"encounters": 1000, "draw_rate": {"value": 0.1},
             "sides": {"a": {"counts": {"wins": 900}, "p_any_death": {"value": 0.0}},
                       "b": {"counts": {"wins": 0}, "p_any_death": {"value": 1.0}}}}
    # a wins 90%, draws 10%: it never loses, nobody of it dies
    assert of_entry(entry) == {"a": "trivial", "b": "hopeless"}

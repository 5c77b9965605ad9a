"""Statistics helpers: intervals on known inputs, quantiles of histograms, ratio sums."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from sim.results.stats import (
    RatioSums,
    histogram_sums,
    median,
    metric,
    normal_ci,
    quantile,
    sign_test,
    wilson,
    wilson_deff,
)


def approx(x, abs=2e-6):  # noqa: A002 - pytest's name; metrics are stored to 6 decimals
    return pytest.approx(x, abs=abs)


# ---------------------------------------------------------------------------- intervals
def test_wilson_half_of_a_hundred():
    lo, hi = wilson(50, 100)
    assert lo == approx(0.4038, abs=5e-5)
    assert hi == approx(0.5962, abs=5e-5)


def test_normal_ci_of_a_known_sample():
    # 2 4 4 4 5 5 7 9: mean 5, sample variance 32/7, sd 2.13809, se 0.755929,
    # half-width 1.959964 * 0.755929 = 1.48160 (worked by hand)
    sample = [2, 4, 4, 4, 5, 5, 7, 9]
    mean, lo, hi = normal_ci(len(sample), sum(sample), sum(x * x for x in sample))
    assert mean == 5
    assert lo == approx(3.51840, abs=1e-4)
    assert hi == approx(6.48160, abs=1e-4)


def test_normal_ci_needs_two_values():
    assert normal_ci(1, 3, 9) == (3, None, None)
    assert normal_ci(0, 0, 0) == (0.0, None, None)


def test_no_death_in_any_fight_is_no_certainty():
    """All zeros: 0 to the Poisson bound, never the zero-width 0 to 0 the sd would give."""
    import math

    for n in (2, 200, 2000):
        mean, lo, hi = normal_ci(n, 0, 0)
        assert (mean, lo) == (0.0, 0.0) and hi > 0
        # the bound is the mean at which n fights see no count 2.5% of the time
        assert math.exp(-hi * n) == approx(0.025, abs=1e-9)
    assert normal_ci(200, 0, 0)[2] == approx(3.688879 / 200)
    assert normal_ci(3, 3, 3)[1:] == (1.0, 1.0)  # no spread but a count: the sample's own


def test_delta_method_ratio_by_hand():
    # x = 2 4 6 over y = 1 2 2: R = 12/5 = 2.4; residuals -0.4 -0.8 1.2, squares sum 2.24;
    # var = 2.24 / 25 = 0.0896, times n/(n-1) = 1.5 -> 0.1344; half 1.959964 * 0.366606
    sums = RatioSums()
    for x, y in ((2, 1), (4, 2), (6, 2)):
        sums.add(x, y)
    assert sums.ratio == approx(2.4)
    assert sums.variance() == approx(0.0896)
    ci = sums.ratio_ci()
    assert ci["method"] == "delta"
    assert ci["ci95"][0] == approx(2.4 - 0.718530, abs=1e-5)
    assert ci["ci95"][1] == approx(2.4 + 0.718530, abs=1e-5)


def test_delta_method_ratio_never_goes_below_zero():
    # x = 0 0 9 over y = 1 1 1: R = 3, half 1.96 * sqrt(var * 1.5) > 3: the plain interval
    # would start below 0; damage per hit cannot
    sums = RatioSums()
    for x in (0, 0, 9):
        sums.add(x, 1)
    lo, hi = sums.ratio_ci()["ci95"]
    assert lo == 0.0 and hi > 3


def test_rate_with_one_trial_per_encounter_is_plain_wilson():
    sums = RatioSums()
    for k in range(100):
        sums.add(1 if k < 37 else 0, 1)
    rate = sums.rate()
    assert rate["value"] == approx(0.37)
    assert rate["ci95"] == approx(list(wilson(37, 100)), abs=1e-6)


def test_rate_of_fully_clustered_trials_counts_one_trial_per_fight():
    # two members per fight who always share their fate: 8 trials but only 4 fights' worth
    sums = RatioSums()
    for deaths in (0, 2, 0, 2):
        sums.add(deaths, 2)
    assert sums.variance() == approx(1 / 16)
    assert sums.rate()["ci95"] == approx(list(wilson(2, 4)), abs=1e-6)
    assert wilson_deff(0.5, 8, 1 / 16, 4) == approx(wilson(2, 4))


def test_rate_of_independent_trials_is_never_narrower_than_plain_wilson():
    rng = random.Random(5)
    sums = RatioSums()
    for _ in range(400):
        sums.add(sum(rng.random() < 0.3 for _ in range(3)), 3)
    lo, hi = sums.rate()["ci95"]
    plain = wilson(int(sums.sx), int(sums.sy))
    assert hi - lo >= plain[1] - plain[0] - 2e-6
    assert (hi - lo) < 1.3 * (plain[1] - plain[0])  # independent: about the plain width


def test_a_zero_rate_counts_one_trial_per_fight():
    sums = RatioSums()
    for _ in range(100):
        sums.add(0, 3)
    assert sums.rate()["ci95"] == approx(list(wilson(0, 100)), abs=1e-6)


def test_wilson_interval_on_known_values():
    lo, hi = wilson(50, 100)
    assert round(lo, 4) == 0.4038 and round(hi, 4) == 0.5962
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)


def test_merged_ratio_sums_equal_one_fold():
    pairs = [(1, 3), (0, 3), (2, 2), (5, 7), (0, 0)]
    whole, first, second = RatioSums(), RatioSums(), RatioSums()
    for k, (x, y) in enumerate(pairs):
        whole.add(x, y)
        (first if k < 2 else second).add(x, y)
    first.merge(second)
    assert first == whole
    assert first.rate() == whole.rate()


def test_metric_rounds_to_six_decimals():
    assert metric(1 / 3, None, 0.5, "wilson") == {"value": 0.333333, "ci95": [None, 0.5],
                                                  "method": "wilson"}


# ---------------------------------------------------------------------------- histograms
def test_quantiles_from_a_histogram():
    h = Counter({1: 2, 2: 2, 3: 1, 10: 5})  # 1 1 2 2 3 10 10 10 10 10
    assert median(h) == 6.5
    assert quantile(h, 0.9) == 10
    assert quantile(Counter({4: 3}), 0.5) == 4
    assert median(Counter({5: 1, 7: 1})) == 6.0 and median(Counter({5: 3})) == 5
    assert median(Counter()) == 0 and quantile(Counter(), 0.9) == 0
    assert histogram_sums(h) == (10, 2 + 4 + 3 + 50, 2 + 8 + 9 + 500)


@pytest.mark.parametrize(("wins", "losses"), [(0, 0), (5, 0), (10, 5), (3, 9), (40, 25)])
def test_the_sign_test_is_the_exact_binomial_tail(wins, losses):
    n = wins + losses
    exact = sum(math.comb(n, i) for i in range(wins, n + 1)) / 2 ** n
    assert sign_test(wins, losses) == pytest.approx(exact, rel=1e-9)


def test_the_sign_test_holds_past_a_floats_range_of_powers_of_two():
    assert sign_test(1500, 1500) == pytest.approx(0.5, abs=0.02)
    assert sign_test(3000, 0) == 0.0


def test_a_paired_difference_has_an_honest_interval_even_when_no_pair_split():
    from sim.results.stats import paired_difference

    same, low, high = paired_difference(0, 0, 200)  # two lines that played out alike
    assert same == 0 and low < 0 < high and high - low < 0.03
    d, low, high = paired_difference(30, 10, 100)
    assert d == pytest.approx(0.2) and low < 0.2 < high and low > 0
    assert paired_difference(0, 0, 0) == (0.0, -1.0, 1.0)
    assert paired_difference(5, 0, 5)[2] <= 1.0

"""Lethality metrics: intervals on known inputs, folding rows by hand, the verdict rule."""

from __future__ import annotations

import math
import random

import pytest

from sim.results.lethality import (
    LethalityTally,
    RatioSums,
    normal_ci,
    verdict,
    wilson_deff,
)
from sim.results.tally import wilson


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


# ---------------------------------------------------------------------------- folding rows
def _row(winner, rounds, first, a, b):
    """A row for sides a and b; each a tuple (deaths, out, attacks, hits, damage, out_rounds)."""
    row = {"index": 0, "seed": 0, "winner": winner, "rounds": str(rounds),
           "first_casualty_round": str(first)}
    for name, (deaths, out, attacks, hits, damage, out_rounds) in (("a", a), ("b", b)):
        row.update({f"{name}_standing": str(2 - out), f"{name}_out": str(out),
                    f"{name}_deaths": str(deaths), f"{name}_attacks": str(attacks),
                    f"{name}_hits": str(hits), f"{name}_damage": str(damage),
                    f"{name}_out_rounds": out_rounds})
    return row


ROWS = [
    _row("b", 3, 1, (1, 2, 6, 3, 9, "1 3"), (0, 0, 6, 4, 8, "")),
    _row("a", 2, 2, (0, 1, 4, 1, 2, "2"), (2, 2, 5, 2, 6, "2 2")),
    _row("a", 4, 0, (0, 0, 8, 2, 4, ""), (0, 0, 4, 0, 0, "")),
]


@pytest.fixture
def summary():
    tally = LethalityTally.for_sides("test", {"a": 2, "b": 2})
    for row in ROWS:
        tally.add(row)
    return tally.summary()


def test_counts_and_rates_of_hand_made_rows(summary):
    a, b = summary["sides"]["a"], summary["sides"]["b"]
    assert summary["encounters"] == 3
    assert a["win_rate"]["value"] == approx(2 / 3)
    assert a["win_rate"]["ci95"] == approx(list(wilson(2, 3)), abs=1e-6)
    assert a["deaths_per_encounter"]["value"] == approx(1 / 3)
    assert b["deaths_per_encounter"]["value"] == approx(2 / 3)
    assert a["p_any_death"]["value"] == approx(1 / 3)
    assert a["death_rate"]["value"] == approx(1 / 6)
    assert a["out_rate"]["value"] == approx(3 / 6)
    assert a["died_share_of_out"]["value"] == approx(1 / 3)
    assert a["hits_per_attack"]["value"] == approx(6 / 18)
    assert a["damage_per_hit"]["value"] == approx(15 / 6)
    assert a["counts"] == {"wins": 2, "deaths": 1, "out_of_fight": 3, "fled": 0,
                           "surrendered": 0, "attacks": 18, "hits": 6, "damage": 15}
    for m in (a["win_rate"], a["death_rate"], a["hits_per_attack"], b["out_rate"]):
        lo, hi = m["ci95"]
        assert 0 <= lo <= m["value"] <= hi <= 1


def test_rounds_and_first_casualty(summary):
    rounds, first = summary["rounds"], summary["first_casualty"]
    assert rounds["mean"]["value"] == approx(3)
    assert (rounds["median"], rounds["p90"], rounds["max"]) == (3, 4, 4)
    assert rounds["histogram"] == {"2": 1, "3": 1, "4": 1}
    # the fight with nobody out has no first casualty: mean of 1 and 2
    assert first["mean"]["value"] == approx(1.5)
    assert first["share_with_casualty"]["value"] == approx(2 / 3)
    assert summary["draw_rate"]["value"] == 0


def test_survival_by_round(summary):
    # side a still fighting after r: fight 1: 1,1,0,(0); fight 2: 2,1,(1),(1); fight 3: 2,2,2,2
    curve = summary["sides"]["a"]["survival"]
    assert curve["rounds"] == [1, 2, 3, 4]
    assert curve["value"] == approx([5 / 6, 4 / 6, 3 / 6, 3 / 6])
    # side b: fight 1: 2,2,2,(2); fight 2: 2,0,(0),(0); fight 3: 2,2,2,2
    assert summary["sides"]["b"]["survival"]["value"] == approx([1, 4 / 6, 4 / 6, 4 / 6])
    overall = summary["overall"]
    assert overall["members"] == 4
    assert overall["death_rate"]["value"] == approx(3 / 12)
    assert overall["survival"]["value"][0] == approx(11 / 12)


def test_int_rows_and_string_rows_fold_alike():
    def ints(row):
        return {k: (int(v) if k not in ("winner",) and not k.endswith("out_rounds") else v)
                for k, v in row.items()}
    t1 = LethalityTally.for_sides("x", {"a": 2, "b": 2})
    t2 = LethalityTally.for_sides("x", {"a": 2, "b": 2})
    for row in ROWS:
        t1.add(row)
        t2.add(ints(row))
    assert t1.summary() == t2.summary()


def test_memory_stays_flat():
    rng = random.Random(1)
    tally = LethalityTally.for_sides("x", {"a": 2, "b": 2})
    for _ in range(5000):
        rounds = rng.randint(1, 12)
        out_a = sorted(rng.randint(1, rounds) for _ in range(rng.randint(0, 2)))
        row = _row(rng.choice("ab"), rounds, out_a[0] if out_a else 0,
                   (len(out_a), len(out_a), 3, 1, 2, " ".join(map(str, out_a))),
                   (0, 0, 3, 1, 1, ""))
        tally.add(row)
    side = tally.sides["a"]
    assert len(side.alive_sum) <= 12
    assert len(side.tail) <= 12 * 3  # (last round, still fighting) pairs
    assert len(tally.rounds) <= 12
    assert tally.encounters == 5000


# ---------------------------------------------------------------------------- verdict
def _rulesets(rates: dict[str, tuple[float, float, float]], deaths=10, members=3):
    """Per-ruleset summaries with side 'heroes' at the given (rate, lo, hi) and 'foes' at 0."""
    out = {}
    for name, (value, lo, hi) in rates.items():
        out[name] = {"encounters": 100, "sides": {
            "heroes": {"members": members, "counts": {"deaths": deaths},
                       "death_rate": {"value": value, "ci95": [lo, hi]}},
            "foes": {"members": 2, "counts": {"deaths": 1},
                     "death_rate": {"value": 0.01, "ci95": [0.0, 0.05]}},
        }}
    return out


def test_verdict_ratio_when_intervals_are_apart():
    v = verdict(_rulesets({"ore": (0.10, 0.08, 0.12), "opencore": (0.24, 0.21, 0.27),
                           "bgrade": (0.15, 0.13, 0.17)}))
    assert (v["side"], v["most"], v["least"], v["overlap"]) == ("heroes", "opencore", "ore",
                                                                False)
    assert v["ratio"] == approx(2.4)
    assert v["text"].startswith("under opencore the heroes die 2.4× as often as under ore")


def test_verdict_about_as_often_when_intervals_overlap():
    v = verdict(_rulesets({"ore": (0.10, 0.07, 0.13), "opend6": (0.12, 0.09, 0.15)}))
    assert v["overlap"] is True and v["ratio"] is None
    assert "the heroes die about as often as under ore" in v["text"]


def test_verdict_never_and_nobody():
    v = verdict(_rulesets({"ore": (0.0, 0.0, 0.03), "opend6": (0.3, 0.25, 0.35)}, members=1))
    assert v["text"].startswith("under opend6 the heroes dies (")
    assert "under ore it never died in 100 fights" in v["text"]
    v = verdict(_rulesets({"ore": (0.0, 0.0, 0.03)}, deaths=0))
    assert v["side"] == "foes"  # the side with the most deaths
    nobody = _rulesets({"ore": (0.0, 0.0, 0.03)}, deaths=0)
    nobody["ore"]["sides"]["foes"]["counts"]["deaths"] = 0
    assert verdict(nobody)["text"].startswith("nobody died")


def test_verdict_small_real_difference_keeps_two_decimals():
    v = verdict(_rulesets({"a": (0.500, 0.495, 0.505), "b": (0.520, 0.515, 0.525)}))
    assert "1.04× as often" in v["text"]
    assert math.isclose(v["ratio"], 0.52 / 0.5)


def test_fled_and_surrendered_are_counted_apart_from_deaths():
    row = _row("b", 2, 2, (0, 2, 3, 1, 1, "2 2"), (0, 0, 3, 1, 1, ""))
    row.update({"a_fled": "1", "a_surrendered": "1", "b_fled": "0", "b_surrendered": "0"})
    tally = LethalityTally.for_sides("x", {"a": 2, "b": 2})
    tally.add(row)
    a = tally.summary()["sides"]["a"]
    assert (a["counts"]["fled"], a["counts"]["surrendered"], a["counts"]["deaths"]) == (1, 1, 0)
    assert a["out_rate"]["value"] == 1 and a["died_share_of_out"]["value"] == 0


def test_ratio_wording():
    from sim.results.lethality import times

    assert [times(x) for x in (1.04, 2.44, 9.94, 16.8, 400)] == \
        ["1.04×", "2.4×", "9.9×", "17×", "400×"]


def test_verdict_with_one_ruleset():
    v = verdict(_rulesets({"ore": (0.25, 0.2, 0.3)}, members=1))
    assert v["text"] == ("under ore the heroes dies at a rate of 0.250 per combatant per fight "
                         "(one ruleset, nothing to compare)")
    assert v["overlap"] is None

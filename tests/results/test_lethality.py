"""Lethality across rulesets: the verdict rule and its wording."""

from __future__ import annotations

import math

import pytest

from sim.results.lethality import document, times, verdict
from sim.results.stats import METHODS


def approx(x, abs=2e-6):  # noqa: A002 - pytest's name; metrics are stored to 6 decimals
    return pytest.approx(x, abs=abs)


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


def test_ratio_wording():
    assert [times(x) for x in (1.04, 2.44, 9.94, 16.8, 400)] == \
        ["1.04×", "2.4×", "9.9×", "17×", "400×"]


def test_verdict_with_one_ruleset():
    v = verdict(_rulesets({"ore": (0.25, 0.2, 0.3)}, members=1))
    assert v["text"] == ("under ore the heroes dies at a rate of 0.250 per combatant per fight "
                         "(one ruleset, nothing to compare)")
    assert v["overlap"] is None


def test_document_holds_the_entries_the_verdict_and_the_methods():
    rulesets = _rulesets({"ore": (0.10, 0.08, 0.12), "opend6": (0.24, 0.21, 0.27)})
    doc = document("ambush", 100, 7, rulesets)
    assert list(doc) == ["scenario", "encounters", "seed", "rulesets", "verdict", "methods"]
    assert (doc["scenario"], doc["encounters"], doc["seed"]) == ("ambush", 100, 7)
    assert doc["rulesets"] is rulesets
    assert doc["verdict"] == verdict(rulesets)
    assert doc["methods"] == METHODS and set(METHODS) == {"wilson", "wilson-deff", "normal",
                                                         "delta"}

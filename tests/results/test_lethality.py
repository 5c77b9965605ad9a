"""Lethality across rulesets: the verdict rule and its wording.

The documents are made by hand under made-up ruleset names (``orchid``, ``opal``, ...): the
verdict words whatever names a document holds, registered or not.
"""

from __future__ import annotations

import json
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
    v = verdict(_rulesets({"orchid": (0.10, 0.08, 0.12), "opal": (0.24, 0.21, 0.27),
                           "bolt": (0.15, 0.13, 0.17)}))
    assert (v["side"], v["most"], v["least"], v["overlap"]) == ("heroes", "opal", "orchid",
                                                                False)
    assert v["ratio"] == approx(2.4)
    assert v["text"].startswith("under opal the heroes die 2.4× as often as under orchid")


def test_verdict_shows_small_rates_that_give_the_ratio_it_states():
    """1.000 vs 0.00179 for 559x: printed as 0.002 the rates read as 500x."""
    v = verdict(_rulesets({"orchid": (1.0, 0.99, 1.0), "bolt": (0.00179, 0.0005, 0.006)}))
    assert "559× as often as under bolt (death rate per combatant 1.000 vs 0.00179)" in \
        v["text"]
    v = verdict(_rulesets({"orchid": (1.0, 0.99, 1.0), "bolt": (0.0105, 0.005, 0.02)}))
    assert "95× as often as under bolt (death rate per combatant 1.000 vs 0.0105)" in \
        v["text"]
    v = verdict(_rulesets({"orchid": (0.5, 0.45, 0.55), "bolt": (0.125, 0.1, 0.15)}))
    assert "(death rate per combatant 0.500 vs 0.125)" in v["text"]


def test_verdict_about_as_often_when_intervals_overlap():
    v = verdict(_rulesets({"orchid": (0.10, 0.07, 0.13), "optic": (0.12, 0.09, 0.15)}))
    assert v["overlap"] is True and v["ratio"] is None
    assert "the heroes die about as often as under orchid" in v["text"]


def test_verdict_never_and_nobody():
    v = verdict(_rulesets({"orchid": (0.0, 0.0, 0.03), "optic": (0.3, 0.25, 0.35)}, members=1))
    assert v["text"].startswith("under optic the heroes dies (")
    assert "under orchid it never died in 100 fights" in v["text"]
    v = verdict(_rulesets({"orchid": (0.0, 0.0, 0.03)}, deaths=0))
    assert v["side"] == "foes"  # the side with the most deaths
    nobody = _rulesets({"orchid": (0.0, 0.0, 0.03)}, deaths=0)
    nobody["orchid"]["sides"]["foes"]["counts"]["deaths"] = 0
    assert verdict(nobody)["text"].startswith("nobody died")


def test_verdict_small_real_difference_keeps_two_decimals():
    v = verdict(_rulesets({"a": (0.500, 0.495, 0.505), "b": (0.520, 0.515, 0.525)}))
    assert "1.04× as often" in v["text"]
    assert math.isclose(v["ratio"], 0.52 / 0.5)


def test_ratio_wording():
    assert [times(x) for x in (1.04, 2.44, 9.94, 16.8, 400)] == \
        ["1.04×", "2.4×", "9.9×", "17×", "400×"]


def test_verdict_with_one_ruleset():
    v = verdict(_rulesets({"orchid": (0.25, 0.2, 0.3)}, members=1))
    assert v["text"] == ("under orchid the heroes dies at a rate of 0.250 per combatant per fight "
                         "(one ruleset, nothing to compare)")
    assert v["overlap"] is None


def test_document_holds_the_entries_the_verdict_and_the_methods():
    rulesets = _rulesets({"orchid": (0.10, 0.08, 0.12), "optic": (0.24, 0.21, 0.27)})
    doc = document("ambush", 100, 7, rulesets)
    assert list(doc) == ["scenario", "encounters", "seed", "rulesets", "verdict", "methods"]
    assert (doc["scenario"], doc["encounters"], doc["seed"]) == ("ambush", 100, 7)
    assert doc["rulesets"] is rulesets
    assert doc["verdict"] == verdict(rulesets)
    assert doc["methods"] == METHODS and set(METHODS) == {"wilson", "wilson-deff", "normal",
                                                         "delta"}


# ---------------------------------------------------------------------------- ties
def test_verdict_names_every_ruleset_of_a_tie_and_never_one_against_itself():
    v = verdict(_rulesets({"orchid": (0.25, 0.2, 0.3), "opal": (0.25, 0.2, 0.3)}))
    assert v["text"] == ("under opal and orchid the heroes die about as often (death rate "
                         "per combatant 0.250 under each)")
    assert v["most_rulesets"] == v["least_rulesets"] == ["opal", "orchid"]
    assert (v["most"], v["least"], v["overlap"]) == ("opal", "opal", True)


def test_verdict_a_tie_at_the_top_or_the_bottom():
    v = verdict(_rulesets({"orchid": (0.30, 0.27, 0.33), "bolt": (0.10, 0.08, 0.12),
                           "opal": (0.30, 0.26, 0.34)}))
    assert v["text"].startswith("under opal and orchid the heroes die 3.0× as often as under "
                                "bolt (")
    assert (v["most_rulesets"], v["least_rulesets"]) == (["opal", "orchid"], ["bolt"])
    v = verdict(_rulesets({"optic": (0.0, 0.0, 0.03), "orchid": (0.3, 0.25, 0.35),
                           "opal": (0.0, 0.0, 0.03)}))
    assert v["text"].endswith("under opal and optic they never died in 100 fights")
    # a tie overlaps when any of one group overlaps any of the other
    v = verdict(_rulesets({"a": (0.30, 0.28, 0.32), "b": (0.30, 0.20, 0.40),
                           "c": (0.15, 0.13, 0.17)}))
    assert v["overlap"] is False
    v = verdict(_rulesets({"a": (0.30, 0.28, 0.32), "b": (0.30, 0.16, 0.44),
                           "c": (0.15, 0.13, 0.17)}))
    assert v["overlap"] is True and "about as often as under c" in v["text"]


def test_verdict_does_not_depend_on_the_order_of_the_rulesets():
    import itertools

    rates = {"orchid": (0.25, 0.2, 0.3), "opal": (0.25, 0.2, 0.3), "bolt": (0.1, 0.05, 0.15),
             "optic": (0.1, 0.06, 0.14)}
    seen = {json.dumps(verdict(_rulesets(dict(order))), sort_keys=True)
            for order in itertools.permutations(rates.items())}
    assert len(seen) == 1


def test_verdict_side_of_a_tie_in_deaths_does_not_follow_the_file():
    """Two sides with as many deaths: the one talked about is the first by name."""
    def summaries(first, second):
        side = {"members": 1, "counts": {"deaths": 5},
                "death_rate": {"value": 0.5, "ci95": [0.3, 0.7]}}
        return {"orchid": {"encounters": 10, "sides": {first: side, second: side}}}

    a, b = verdict(summaries("red", "blue")), verdict(summaries("blue", "red"))
    assert a["side"] == b["side"] == "blue"
    assert a["text"] == b["text"]


def test_verdict_states_no_ratio_on_fewer_than_ten_deaths():
    """One death in 600 fights under bolt read "600× as often": too few to compare."""
    rulesets = _rulesets({"orchid": (1.0, 0.99, 1.0), "bolt": (0.00167, 0.0003, 0.009)},
                         deaths=600)
    rulesets["bolt"]["sides"]["heroes"]["counts"]["deaths"] = 1
    v = verdict(rulesets)
    assert v["ratio"] is None and v["too_few"] is True
    assert "×" not in v["text"]
    assert "the counts are too small to compare" in v["text"]
    assert "1 death in 100 fights under bolt" in v["text"]
    assert v["text"].startswith("under orchid the heroes die more often than under bolt")


@pytest.mark.parametrize(("few", "ratio"), [(9, None), (10, 2.4)])
def test_verdict_ratio_from_ten_deaths_on_each_side(few, ratio):
    rulesets = _rulesets({"orchid": (0.10, 0.08, 0.12), "opal": (0.24, 0.21, 0.27)},
                         deaths=50)
    rulesets["orchid"]["sides"]["heroes"]["counts"]["deaths"] = few
    v = verdict(rulesets)
    assert v["ratio"] == (approx(ratio) if ratio else None)
    assert v["too_few"] is (ratio is None)


def test_verdict_names_the_deadliest_and_safest_ruleset_for_the_side_listed_first():
    # the foes die most, so the comparison speaks of them; the party gets its own sentence
    docs = _rulesets({"orchid": (0.10, 0.08, 0.12), "opal": (0.24, 0.21, 0.27)}, deaths=10)
    party_first = {name: {**doc, "sides": {"party": {
        "members": 3, "counts": {"deaths": 2},
        "death_rate": {"value": 0.05 if name == "opal" else 0.01, "ci95": [0, 0.1]}},
        **doc["sides"]}} for name, doc in docs.items()}
    v = verdict(party_first)
    assert v["side"] == "heroes" and v["party"] == "party"
    assert (v["party_deadliest"], v["party_safest"]) == (["opal"], ["orchid"])
    assert v["text"].endswith("; for the party (listed first) the deadliest is opal (0.05), "
                              "the safest orchid (0.01)")


def test_when_the_comparison_speaks_of_the_first_side_it_says_nothing_more():
    v = verdict(_rulesets({"orchid": (0.10, 0.08, 0.12), "opal": (0.24, 0.21, 0.27)}))
    assert v["party"] == "heroes" and v["party_deadliest"] == ["opal"]
    assert "listed first" not in v["text"]

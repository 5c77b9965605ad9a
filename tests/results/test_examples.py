"""The first side's result per fight: the example fights and the spread of a batch."""

from __future__ import annotations

from collections import Counter

import pytest

from sim.results.examples import EXAMPLES, ResultFold, result_of


def row(index: int, winner: str, standing: int, deaths: int, taken: int = 0,
        rounds: int = 5) -> dict:
    return {"index": index, "seed": 1000 + index, "winner": winner, "rounds": rounds,
            "a_standing": standing, "a_deaths": deaths, "a_out": 3 - standing,
            "b_damage": taken}


def fold(rows) -> ResultFold:
    f = ResultFold("a", ("b",), 3)
    for r in rows:
        f.add(r)
    return f


def test_the_order_is_outcome_then_standing_deaths_damage_and_rounds():
    assert result_of(row(0, "b", 3, 0), "a", ("b",), 3) < result_of(row(0, "draw", 0, 3),
                                                                      "a", ("b",), 3)
    assert result_of(row(0, "a", 1, 0), "a", ("b",), 3) < result_of(row(0, "a", 2, 1),
                                                                     "a", ("b",), 3)
    assert result_of(row(0, "a", 2, 1), "a", ("b",), 3) < result_of(row(0, "a", 2, 0),
                                                                     "a", ("b",), 3)
    assert result_of(row(0, "a", 2, 0, 9), "a", ("b",), 3) < result_of(row(0, "a", 2, 0, 3),
                                                                        "a", ("b",), 3)
    # a win sooner is better; a loss later is better (it held out)
    assert result_of(row(0, "a", 3, 0, rounds=9), "a", ("b",), 3) < \
        result_of(row(0, "a", 3, 0, rounds=2), "a", ("b",), 3)
    assert result_of(row(0, "b", 0, 3, rounds=2), "a", ("b",), 3) < \
        result_of(row(0, "b", 0, 3, rounds=9), "a", ("b",), 3)


def test_a_row_without_standing_counts_those_not_out():
    r = row(0, "a", 2, 0)
    del r["a_standing"]
    assert result_of(r, "a", ("b",), 3)[1] == 2


def test_examples_are_the_percentile_fights_worst_first():
    # 100 fights: index k lost by the first 20, won with k-dependent standing after
    rows = [row(k, "b", 0, 3) if k < 20 else row(k, "a", 1 + (k >= 60) + (k >= 90), 0)
            for k in range(100)]
    picked = {e["name"]: e for e in fold(rows).examples()}
    assert [e[0] for e in EXAMPLES] == list(picked)
    assert picked["disaster"]["outcome"] == "lost" and picked["disaster"]["index"] == 0
    assert picked["struggle"]["outcome"] == "won" and picked["struggle"]["standing"] == 1
    assert picked["struggle"]["index"] == 20  # the lowest index with the rank's result
    assert picked["typical"]["standing"] == 1
    assert picked["heroic"]["standing"] == 2 and picked["heroic"]["index"] == 60
    assert picked["legend"]["standing"] == 3 and picked["legend"]["seed"] == 1090


def test_any_chunking_picks_the_same_fights():
    rows = [row(k, "ab"[k % 3 == 0], k % 4, k % 3, k % 5, 1 + k % 7) for k in range(97)]
    whole = fold(rows)
    parts = fold(rows[:31])
    for chunk in (rows[31:50], rows[50:]):
        parts.merge(fold(reversed(chunk)))
    assert parts.examples() == whole.examples()
    assert parts.spread(Counter()) == whole.spread(Counter())


def test_spread_says_how_bad_it_gets():
    # 10 fights: deaths 3, 2, 1 and seven without a death
    rows = [row(0, "b", 0, 3), row(1, "b", 0, 2), row(2, "a", 1, 1)] + \
        [row(k, "a", 3, 0) for k in range(3, 10)]
    s = fold(rows).spread(Counter({4: 2, 5: 6, 9: 2}))
    assert s["p_lose_any"]["value"] == pytest.approx(0.3)
    assert s["p_lose_half"]["value"] == pytest.approx(0.2)  # 2 of 3 or more
    assert s["p_lose_all"]["value"] == pytest.approx(0.1)
    lo, hi = s["p_lose_all"]["ci95"]
    assert lo < 0.1 < hi
    assert (s["rounds_p10"], s["rounds_p90"]) == (4, 9)
    assert s["worst_tenth_deaths"] == 3  # the one worst fight of ten


def test_an_empty_fold_has_no_examples():
    assert fold([]).examples() == []
    assert fold([]).spread(Counter())["worst_tenth_deaths"] == 0

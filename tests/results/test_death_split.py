"""Deaths split three ways: in the fight, after it among the tended, among the untended.

From the encounter (``SideResult.deaths_after_untended``) through ``encounters.csv`` to
``summary.json``'s ``aftermath`` block, and what ``tend: all`` would change (docs/deaths.md).
"""

from __future__ import annotations

import pytest
from helpers import SCENARIOS

from sim import scenario as scenario_mod
from sim.results.tally import Tally


def _row(winner: str, a: tuple[int, int, int], b: tuple[int, int, int]) -> dict[str, str]:
    """Sides a and b of two members; each side (deaths, after, untended)."""
    row = {"index": "0", "seed": "0", "winner": winner, "rounds": "3",
           "first_casualty_round": "1"}
    for name, (deaths, after, untended) in (("a", a), ("b", b)):
        row.update({f"{name}_deaths": str(deaths), f"{name}_deaths_after": str(after),
                    f"{name}_deaths_after_tended": str(after - untended),
                    f"{name}_deaths_after_untended": str(untended),
                    f"{name}_out": str(deaths), f"{name}_attacks": "4", f"{name}_hits": "2",
                    f"{name}_out_rounds": " ".join(["2"] * deaths)})
    return row


ROWS = [_row("a", (1, 0, 0), (2, 2, 2)),      # the losers bleed out untended
        _row("b", (1, 1, 1), (1, 1, 0)),      # one tended winner dies all the same
        _row("draw", (1, 1, 1), (0, 0, 0))]   # a draw: nobody is tended


def fold(rows, tend="own") -> Tally:
    tally = Tally.for_sides("t", "x", 1, {"a": 2, "b": 2}, tend=tend)
    for row in rows:
        tally.add(row)
    return tally


def test_the_split_of_hand_made_rows():
    s = fold(ROWS).summary()
    assert s["aftermath"] == {
        "tend": "own", "deaths_in_fight": 1, "deaths_after_tended": 1,
        "deaths_after_untended": 4, "deaths_after_untended_in_draws": 1,
        "tend_all_would_tend": 3, "deaths_in_fight_per_encounter": 0.333333,
        "deaths_after_tended_per_encounter": 0.333333,
        "deaths_after_untended_per_encounter": 1.333333}
    a, b = s["sides"]["a"], s["sides"]["b"]
    assert (a["deaths_in_fight"], a["deaths_after_tended"], a["deaths_after_untended"],
            a["deaths_after_untended_in_draws"]) == (1, 0, 2, 1)
    assert (b["deaths_in_fight"], b["deaths_after_tended"], b["deaths_after_untended"],
            b["deaths_after_untended_in_draws"]) == (0, 1, 2, 0)
    le = fold(ROWS).lethality()
    assert le["aftermath"] == s["aftermath"]
    assert le["sides"]["b"]["death_split"]["deaths_after_untended"] == 2
    assert le["sides"]["a"]["death_rate_after_untended"]["value"] == pytest.approx(2 / 6)


def test_tend_all_would_change_nothing_when_it_is_the_setting():
    assert fold(ROWS, tend="all").summary()["aftermath"]["tend_all_would_tend"] == 0


def test_chunks_merge_to_the_same_split():
    whole = fold(ROWS * 3)
    merged = fold([])
    for row in ROWS * 3:
        merged.merge(fold([row]))
    assert merged.summary() == whole.summary()


def test_rows_that_do_not_say_who_was_tended_give_no_split():
    rows = [{k: v for k, v in row.items() if "tended" not in k} for row in ROWS]
    s = fold(rows).summary()
    assert "aftermath" not in s and "aftermath" not in fold(rows).lethality()
    assert "deaths_after_untended" not in s["sides"]["a"]
    assert s["sides"]["a"]["deaths_after"] == 2  # the older split stays


@pytest.fixture(scope="module")
def duel():
    return scenario_mod.load(SCENARIOS / "neutral_duel.yaml")

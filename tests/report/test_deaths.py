"""Deaths explained in words: the batch table's split and the aftermath sentence."""

from __future__ import annotations

import pytest
from helpers import longest_ruleset

from sim.report import deaths
from sim.report.tables import batch_table, fighter_table


def block(**counts: int) -> dict:
    """An ``aftermath`` block of ``summary.json`` (``sim.results.tally.Tally.aftermath``)."""
    b = {"tend": "own", "deaths_in_fight": 0, "deaths_after_tended": 0,
         "deaths_after_untended": 0, "deaths_after_untended_in_draws": 0,
         "tend_all_would_tend": 0, **counts}
    for key in ("deaths_in_fight", "deaths_after_tended", "deaths_after_untended"):
        b[f"{key}_per_encounter"] = b[key] / 200
    return b


def test_an_opencore_duel_says_the_losers_were_left_untended():
    text = deaths.explain(block(deaths_after_untended=199, tend_all_would_tend=199))
    assert text == ("aftermath: tend own (the side holding the field tends only its own "
                    "fallen). All 199 deaths after the fight were of fighters left untended; "
                    "with tend: all, all 199 would have been tended.")


def test_deaths_after_a_draw_stay_untended_under_tend_all():
    text = deaths.explain(block(deaths_after_untended=374, deaths_after_untended_in_draws=6,
                                tend_all_would_tend=368))
    assert "with tend: all, 368 would have been tended (the other 6 died after a draw, " \
           "which nobody tends)" in text
    text = deaths.explain(block(tend="all", deaths_after_untended=6,
                                deaths_after_untended_in_draws=6))
    assert text.startswith("aftermath: tend all (")
    assert "all after a draw, which nobody tends (tend: all would not change that)" in text


def test_tended_deaths_and_none_after_the_fight():
    text = deaths.explain(block(deaths_after_tended=2, deaths_after_untended=3,
                                tend_all_would_tend=3))
    assert "3 of the 5 deaths after the fight were of fighters left untended, 2 of fighters " \
           "tended" in text
    assert deaths.explain(block(deaths_in_fight=40)).endswith("Nobody died after the fight.")
    assert deaths.explain(None) == ""


LONGEST = longest_ruleset()  # the widest title


def summary(n: int = 300) -> dict:
    """A batch's ``summary.json`` whose deaths column once wrapped at 100 columns."""
    side = {"members": 4, "win_rate": 0.61, "win_rate_ci95": [0.554, 0.663],
            "hit_rate": 0.612, "deaths": 357, "deaths_after": 300, "deaths_in_fight": 57,
            "deaths_after_tended": 0, "deaths_after_untended": 300,
            "deaths_after_untended_in_draws": 12, "out_of_fight": 1200}
    return {"scenario": "neutral_skirmish_long_name", "ruleset": LONGEST, "encounters": n,
            "seed": 1, "outcomes": {"soldiers": 180, "raiders": 100, "draw": 20},
            "rounds": {"mean": 9.1, "median": 9, "p90": 13, "max": 30},
            "sides": {"soldiers": side, "raiders": dict(side, deaths=1357)},
            "aftermath": block(deaths_in_fight=114, deaths_after_untended=600,
                               deaths_after_untended_in_draws=24, tend_all_would_tend=576),
            "lethality": {"deaths_per_encounter": 5.713, "p_any_death": 1.0,
                          "death_rate": 0.714, "deaths_in_fight_per_encounter": 0.38,
                          "deaths_after_per_encounter": 2.0},
            "combatants": {f"Raider archer {i}": {
                "side": "raiders", "deaths": 250, "deaths_after": 240, "death_rate": 0.833,
                "death_rate_ci95": [0.786, 0.871], "out_of_fight": 290, "fled": 10,
                "surrendered": 0, "attacks": 15000, "hits": 9000, "hit_rate": 0.6,
                "damage": 123456} for i in range(1, 4)}}


@pytest.mark.parametrize("table", [batch_table, fighter_table])
def test_tables_fit_100_columns_and_no_cell_wraps(table):
    text = table(summary())
    assert max(len(line) for line in text.splitlines()) <= 100
    body = [line for line in text.splitlines() if line.startswith("│")]
    # every row on one line: a wrapped cell leaves a line with an empty first cell
    assert body and all(line.split("│")[1].strip() for line in body)


def test_the_batch_table_splits_deaths_and_names_the_setting():
    text = batch_table(summary())
    assert "1357 (4.52/fight)" in text  # the deaths column, on one line
    row = next(line for line in text.splitlines() if line.startswith("│ all sides"))
    assert row.split("│")[1:4] == [" all sides ", " 114 (0.38/fight) ", " 0 (0.00/fight) "]
    assert "600 (2.00/fight)" in row
    assert "aftermath: tend own" in text and "576 would have been tended" in text

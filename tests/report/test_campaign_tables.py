"""Campaign tables and charts: where the runs stopped, and what rests on few runs."""

from __future__ import annotations

import pytest
from helpers import any_ruleset, longest_ruleset

from sim.report.campaign import campaign_table, compare_markdown, compare_table, stopped
from sim.report.charts import FEW_LABEL, campaign_figure, sweep_figure
from sim.results.campaign import CampaignTally, StageFold

STAGES = ("ambush", "night_camp", "keep_gate")


def _row(outcomes: list[str]) -> dict[str, str]:
    """One run: the outcome of each stage it reached (it stops at the first not won)."""
    last = outcomes[-1]
    row = {"outcome": "cleared" if len(outcomes) == 3 and last == "won" else last,
           "survivors": "2", "deaths": "1"}
    for k in range(1, 4):
        reached = k <= len(outcomes)
        row.update({f"stage{k}_outcome": outcomes[k - 1] if reached else "",
                    f"stage{k}_deaths": "0", f"stage{k}_fighters": "3" if reached else "0"})
    return row


# two rulesets as labels; the other the longest name, for the tables' widths
FIRST = any_ruleset()
OTHER = longest_ruleset(besides=FIRST)


def summary(runs: dict[tuple[str, ...], int], ruleset: str = FIRST) -> dict:
    """A campaign batch's ``summary.json`` from run outcomes and how many runs had each."""
    tally = CampaignTally("road", "Road", "x", ruleset, 1, "heroes", 3,
                          [StageFold(label, "short") for label in STAGES])
    for outcomes, n in runs.items():
        for _ in range(n):
            tally.add(_row(list(outcomes)))
    return tally.summary()


ORE = summary({("won", "won", "won"): 83, ("won", "won", "lost"): 14, ("draw",): 3})
# 40 runs: stage 3 reached by 6 of them, too few for its rates to mean much
FEW_RUNS = summary({("won", "won", "won"): 4, ("won", "won", "lost"): 2, ("lost",): 8,
                    ("won", "lost"): 24, ("won", "draw"): 2}, OTHER)


def test_the_campaign_table_says_where_runs_stopped_and_fits_100_columns():
    text = campaign_table(ORE)
    assert max(len(line) for line in text.splitlines()) <= 100
    stage3 = next(line for line in text.splitlines() if "3 keep_gate" in line)
    assert "83/14/0" in stage3  # won/lost/drawn there
    assert "97 (0.970)" in stage3
    assert "runs stopped: lost at stage 3 keep_gate (14); drawn at stage 1 ambush (3)" in \
        " ".join(text.split())
    assert "*" not in text  # every stage reached by at least 30 runs


def test_a_stage_reached_by_few_runs_is_starred():
    text = campaign_table(FEW_RUNS)
    stage3 = next(line for line in text.splitlines() if "3 keep_gate" in line)
    assert "6* (0.150)" in stage3
    assert "reached by fewer than 30 runs" in text
    assert stopped(FEW_RUNS) == ("runs stopped: lost at stage 1 ambush (8), stage 2 "
                                 "night_camp (24), stage 3 keep_gate (2); drawn at stage 2 "
                                 "night_camp (2)")


def test_the_campaign_comparison_says_where_each_rulesets_runs_stopped():
    text = compare_table([ORE, FEW_RUNS])
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "0.150*" in text and "reached by fewer than 30 runs" in text
    head = text.splitlines()[1:4]
    assert "P(reach)" in " ".join(head)  # a chance, not a count of runs as "reach 1" read
    flat = " ".join(text.split())
    assert f"{FIRST}: runs stopped: lost at stage 3 keep_gate (14); drawn at stage 1 ambush (3)" \
        in flat
    report = compare_markdown([ORE, FEW_RUNS], chart=False)
    assert "| runs stopped |" in report
    assert "| lost at stage 3 keep_gate (14); drawn at stage 1 ambush (3) |" in report
    assert "0.150 / 0.667*" in report
    assert "\n\\* reached by fewer than 30 runs" in report


def _hollow_points(ax) -> int:
    return sum(len(line.get_xdata()) for line in ax.get_lines()
               if line.get_markerfacecolor() == "white" and line.get_label() != FEW_LABEL)


def test_the_campaign_chart_marks_points_resting_on_few_runs():
    fig = campaign_figure([ORE, FEW_RUNS])
    left, right = fig.axes[:2]
    assert _hollow_points(left) == 0  # P(reach) rests on all 100 or 40 runs
    assert _hollow_points(right) == 1  # opencore's stage 3, reached by 6 runs
    assert FEW_LABEL in right.get_legend_handles_labels()[1]
    assert FEW_LABEL not in left.get_legend_handles_labels()[1]
    assert _hollow_points(campaign_figure([ORE]).axes[1]) == 0


@pytest.mark.parametrize(("n", "hollow"), [(20, True), (30, False)])
def test_a_sweep_of_few_fights_a_value_is_drawn_hollow(n, hollow):
    rows = [{"ruleset": FIRST, "value": v, "encounters": n, "a_win_rate": 0.5,
             "b_win_rate": 0.4, "draw_rate": 0.1, "a_death_rate": 0.2, "b_death_rate": 0.3}
            for v in (1, 2)]
    fig = sweep_figure(rows, ["a", "b"], "count")
    wins = fig.axes[0]
    assert (_hollow_points(wins) == 6) is hollow  # two sides' wins and the draws, 2 values
    assert (FEW_LABEL in [t.get_text() for t in fig.legends[0].get_texts()]) is hollow

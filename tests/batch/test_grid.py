"""Sweep grids: every combination of two or more --set, a heat map for two, words for paths."""

import csv

import pytest
from helpers import SCENARIOS, any_ruleset, fray

from sim.batch.grid import label
from sim.scenario import read_yaml
from sim.scenario.settings import parse_path

DUEL = str(SCENARIOS / "duel.yaml")
AMBUSH = str(SCENARIOS / "ambush.yaml")


def test_paths_in_words():
    raw = read_yaml(AMBUSH)
    assert label(parse_path("sides.bandits[0].count"), raw) == "Bandit archer count"
    assert label(parse_path("sides.heroes[1].traits.strength"), raw) == "Brother Ansel strength"
    assert label(parse_path("sides.heroes[0].skills.melee"), raw) == "Wolfman melee skill"
    assert label(parse_path("max_rounds"), raw) == "round limit"


def test_a_two_way_grid_writes_six_rows_and_a_heat_map(capsys, tmp_path):
    result = fray(capsys, "sweep", DUEL, "--set", "sides.red[0].traits.strength=1..3",
                  "--set", "sides.blue[0].skills.melee=1..2", "-n", "20", "--workers", "1",
                  "-q", "--html", "--out", str(tmp_path))
    assert result.code == 0, result.err
    rows = list(csv.DictReader((tmp_path / "sweep.csv").open()))
    assert len(rows) == 6
    assert {(r["sides.red[0].traits.strength"], r["sides.blue[0].skills.melee"])
            for r in rows} == {(a, b) for a in "123" for b in "12"}
    assert (tmp_path / "sweep_heatmap.png").stat().st_size > 1000
    page = (tmp_path / "report.html").read_text()
    assert "Heat map" in page and "95% interval" in page  # each cell's interval on hover
    assert "Ser Aldric strength" in result.out


def test_the_same_path_twice_is_bad_input(capsys, tmp_path):
    result = fray(capsys, "sweep", DUEL, "--set", "max_rounds=5,6", "--set", "max_rounds=7,8",
                  "--out", str(tmp_path))
    assert result.code == 2 and "set twice" in result.err


def test_alike_notes_are_one_per_ruleset():
    from sim.batch.alike import alike_notes
    notes = alike_notes([("bolt", [(1, 3), (1, 4)]), ("bolt", [(2, 3), (2, 4)]),
                         ("cinder", [(1, 3), (2, 3)])], "Bandit count and Wolfman strength")
    assert len(notes) == 2
    assert "(1; 3 = 1; 4), (2; 3 = 2; 4)" in " ".join(notes[0].split())
    assert "under cinder, Bandit count and Wolfman strength 1; 3 and 2; 3 build the same" in (
        " ".join(notes[1].split()))


def test_the_heat_map_colours_span_the_rates_measured():
    # a grid whose rates lie between 40% and 60% would be one shade on a 0-100% scale
    from sim.report.heatmap import heatmap_figure, heatmap_html, span
    rows = [{"a": x, "b": y, "ruleset": any_ruleset(), "encounters": 100, "red_win_rate": rate,
             "red_win_lo": rate - 0.05, "red_win_hi": rate + 0.05}
            for (x, y), rate in zip([(1, 1), (1, 2), (2, 1), (2, 2)], [0.4, 0.45, 0.5, 0.6],
                                    strict=True)]
    assert span(rows, "red") == (0.4, 0.6)
    assert span(rows[:1], "red") == pytest.approx((0.35, 0.45))  # one rate: +-5 points
    fig = heatmap_figure(rows, ["a", "b"], ["A", "B"], "red")
    assert fig.axes[0].images[0].get_clim() == (0.4, 0.6)
    assert "colours span 40%-60%" in fig.axes[-1].get_ylabel()  # the colour bar says so
    page = heatmap_html(rows, ["a", "b"], ["A", "B"], "red")
    assert "colours span 40%-60%" in page and "rgb(255,255,255)" in page  # lowest is palest
    assert "rgb(100,100,255)" in page  # the highest measured is the deepest shade


@pytest.mark.parametrize("rows_high", [2, 3])
def test_the_heat_map_colour_bar_label_fits_on_the_page(rows_high):
    # on one line the label ran past the picture's top and bottom (a 4 x 3 grid showed
    # "oes win rate (colours span 95%-100%, the rat"); its ticks read in percent, as the cells
    from sim.report.heatmap import heatmap_figure
    rows = [{"a": x, "b": y, "ruleset": "bolt", "encounters": 100,
             "heroes_win_rate": 0.95 + x / 100} for x in range(4) for y in range(rows_high)]
    fig = heatmap_figure(rows, ["a", "b"], ["Bandit archer count", "Wolfman strength"], "heroes",
                         "ambush")
    fig.canvas.draw()
    bar = fig.axes[-1]
    label = bar.yaxis.label.get_window_extent()
    page = fig.bbox
    assert page.y0 <= label.y0 and label.y1 <= page.y1 and label.x1 <= page.x1
    assert all(tick.get_text().endswith("%") for tick in bar.get_yticklabels()
               if tick.get_text())


def test_the_heat_map_marks_rows_that_are_the_same_fights_and_how_wide_intervals_are():
    from sim.report.heatmap import heatmap_html, interval_words, same_rows

    paths = ["sides.b[0].count", "sides.a[0].traits.strength"]
    rows = []
    for strength in (2, 3, 4):
        for count in (1, 2):
            win = 0.5 + 0.1 * count + (0.0 if strength == 4 else 0.2)  # 2 and 3 alike
            rows.append({"ruleset": "r", "path": "; ".join(paths), "value": f"{count}; {strength}",
                         paths[0]: count, paths[1]: strength, "encounters": 100,
                         "a_win_rate": win, "a_win_lo": win - 0.04, "a_win_hi": win + 0.06})
    assert same_rows(rows, paths, "r") == {3: 2}
    assert interval_words(rows, "a") == ("95% intervals ±5 points in the middle cell, at most "
                                         "±5")
    page = heatmap_html(rows, paths, ["B count", "A strength"], "a")
    assert "3 = 2 (same fights)" in page and "±5 points" in page

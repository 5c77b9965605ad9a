"""Charts: titled, labelled with units, whole rounds, the round limit marked, honest intervals.

The numbers come from the recorded batch in ``tests/results/data/morale-opend6`` (longest
fight 11 rounds); each test looks at the matplotlib ``Figure`` before it is saved.
"""

from __future__ import annotations

import copy

import pytest
from helpers import MORALE_RUN, any_ruleset, morale_document, stored_ruleset, two_rulesets
from matplotlib.colors import to_hex

from sim.report.charts import (
    COMPARE_CHARTS,
    SAFE_COLOURS,
    death_rate_figure,
    rounds_figure,
    survival_figure,
    sweep_chart,
    sweep_figure,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LIMIT = 12


@pytest.fixture(scope="module")
def doc():
    """A two-ruleset ``lethality.json`` with the scenario's round limit."""
    return morale_document(LIMIT)


STORED = stored_ruleset(MORALE_RUN)  # the ruleset of the document's first entry


def _sweep_rows(sides=("heroes", "bandits"), rulesets=None):
    rows = []
    for name in rulesets or (any_ruleset(),):
        for v in (1, 2, 3):
            row = {"path": "sides.bandits[0].count", "value": v, "ruleset": name,
                   "encounters": 50, "draw_rate": 0.1, "rounds_mean": 4.0,
                   "draw_lo": 0.04, "draw_hi": 0.2}
            for k, side in enumerate(sides):
                row |= {f"{side}_members": 2, f"{side}_win_rate": 0.3 + 0.2 * k,
                        f"{side}_win_lo": 0.2, f"{side}_win_hi": 0.7,
                        f"{side}_death_rate": 0.1 * v, f"{side}_death_lo": 0.0,
                        f"{side}_death_hi": 0.1 * v + 0.1}
            rows.append(row)
    return rows


def _texts(fig) -> dict[str, list[str]]:
    """Every text a reader sees: the figure's title, each panel's title and axis labels,
    the legends."""
    axes = [ax for ax in fig.axes if ax.get_visible()]
    legends = [*fig.legends, *(ax.get_legend() for ax in axes if ax.get_legend())]
    return {
        "suptitle": [fig.get_suptitle()],
        "titles": [ax.get_title() for ax in axes],
        "xlabels": [ax.get_xlabel() for ax in axes],
        "ylabels": [ax.get_ylabel() for ax in axes],
        "legend": [t.get_text() for leg in legends for t in leg.get_texts()],
    }


COMPARE_FIGURES = {"survival": survival_figure, "death_rate": death_rate_figure,
                   "rounds": rounds_figure}
# the unit each chart's value axis states
Y_UNITS = {"survival": "%", "death_rate": "(%)", "rounds": "(%)"}


@pytest.mark.parametrize("name", COMPARE_FIGURES)
def test_compare_charts_are_titled_and_labelled_with_units(doc, name):
    texts = _texts(COMPARE_FIGURES[name](doc))
    assert "morale" in " ".join(texts["suptitle"] + texts["titles"])
    assert all(texts["titles"]) and all(texts["xlabels"]) and all(texts["ylabels"])
    assert all(Y_UNITS[name] in label for label in texts["ylabels"])
    assert {STORED, "copy"} <= {t.split(" ")[0] for t in texts["legend"]}


@pytest.mark.parametrize("figure", [survival_figure, rounds_figure])
def test_round_axes_have_whole_round_ticks_and_the_round_limit(doc, figure):
    fig = figure(doc)
    fig.canvas.draw()
    for ax in fig.axes:
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks
        limit = [line for line in ax.get_lines()
                 if list(line.get_xdata()) == [LIMIT, LIMIT]]
        assert len(limit) == 1
        assert ax.get_xlim()[1] > LIMIT  # the line is inside the panel
    assert any(f"round limit ({LIMIT})" in t for t in _texts(fig)["legend"])
    assert "round" in " ".join(_texts(fig)["xlabels"])


def test_a_round_limit_far_beyond_every_fight_is_named_not_drawn(doc):
    far = {**doc, "max_rounds": 50}
    fig = survival_figure(far)
    for ax in fig.axes:
        assert "round limit 50, not reached (longest fight 11)" in ax.get_xlabel()
        assert ax.get_xlim()[1] < 20  # the curves are not squashed to the left
    assert not any("round limit" in t for t in _texts(fig)["legend"])


def test_charts_of_an_older_document_without_the_limit(doc, tmp_path):
    older = {k: v for k, v in doc.items() if k != "max_rounds"}
    for name, draw in COMPARE_CHARTS.items():
        assert draw(older, tmp_path / name).read_bytes()[:8] == PNG_SIGNATURE


def _errorbar_ys(ax) -> list[float]:
    """The y of every error-bar end in a panel."""
    ys = []
    for container in ax.containers:
        lines = getattr(container, "lines", None)
        if lines is None:  # a BarContainer
            continue
        for collection in lines[2]:
            for segment in collection.get_segments():
                ys += [float(y) for _, y in segment]
    return ys


def test_rate_intervals_never_leave_0_to_1(doc):
    wild = copy.deepcopy(doc)
    for r in wild["rulesets"].values():
        for side in r["sides"].values():
            side["death_rate"] = {**side["death_rate"], "ci95": [-0.2, 1.3]}
        r["overall"]["death_rate"] = {**r["overall"]["death_rate"], "ci95": [-0.2, 1.3]}
    fig = death_rate_figure(wild)
    ys = _errorbar_ys(fig.axes[0])
    assert ys and min(ys) == pytest.approx(0) and max(ys) == pytest.approx(1)

    rows = _sweep_rows()
    for row in rows:
        row |= {"heroes_win_lo": -0.3, "heroes_win_hi": 1.4, "draw_lo": -0.1}
    fig = sweep_figure(rows, ["heroes", "bandits"], "sides.bandits[0].count")
    ys = [y for ax in fig.axes for y in _errorbar_ys(ax)]
    assert ys and min(ys) >= 0 and max(ys) <= 1


def test_sweep_chart_shows_draws_and_tells_the_sides_apart():
    first, second = two_rulesets()
    rows = _sweep_rows(rulesets=(first, second))
    fig = sweep_figure(rows, ["heroes", "bandits"], "sides.bandits[0].count", "ambush")
    texts = _texts(fig)
    assert texts["suptitle"] == ["ambush: sweep over sides.bandits[0].count "
                                 "(error bars: 95% intervals)"]
    assert texts["legend"] == ["heroes: wins", "heroes: deaths", "bandits: wins",
                               "bandits: deaths", "draws"]
    assert len(fig.axes) == 4  # a row of two panels per ruleset
    assert texts["titles"] == [f"{first}: who wins", f"{first}: who dies",
                               f"{second}: who wins", f"{second}: who dies"]
    assert all("sides.bandits[0].count" in x for x in texts["xlabels"])
    assert all("(%)" in y for y in texts["ylabels"])
    # one colour per side, from the colour-blind-safe palette; a line style per metric
    wins, deaths = fig.axes[0], fig.axes[1]
    colours = {}
    for ax in (wins, deaths):
        for container in ax.containers:
            line = container.lines[0]
            colours.setdefault(container.get_label(), (to_hex(line.get_color()),
                                                       line.get_linestyle(),
                                                       line.get_marker()))
    heroes, bandits = colours["heroes: wins"], colours["bandits: wins"]
    assert heroes[0] != bandits[0]
    assert colours["heroes: deaths"][0] == heroes[0]
    assert heroes[1:] != colours["heroes: deaths"][1:]  # wins and deaths drawn apart
    assert colours["draws"][0] not in (heroes[0], bandits[0])
    assert {c[0] for c in colours.values()} <= {c.lower() for c in SAFE_COLOURS}


def test_sweep_chart_without_draw_intervals_and_with_words(tmp_path):
    """Rows of an older sweep (no draw interval) and values that are words still draw."""
    rows = [{k: v for k, v in row.items() if k not in ("draw_lo", "draw_hi")}
            for row in _sweep_rows(sides=("a",))]
    for row, weapon in zip(rows, ("knife", "sword", "spear"), strict=True):
        row["value"] = weapon
    path = sweep_chart(rows, ["a"], "sides.a[0].weapon", tmp_path / ".sweep.png.tmp")
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    fig = sweep_figure(rows, ["a"], "sides.a[0].weapon")
    fig.canvas.draw()
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["knife", "sword",
                                                                      "spear"]


def test_compare_charts_use_the_safe_palette_one_colour_per_ruleset(doc):
    fig = survival_figure(doc)
    ax = fig.axes[0]
    colours = [to_hex(line.get_color()) for line in ax.get_lines()
               if line.get_label() in (STORED, "copy")]
    assert colours == [SAFE_COLOURS[0].lower(), SAFE_COLOURS[1].lower()]
    bars = death_rate_figure(doc).axes[0].containers
    assert [to_hex(c.patches[0].get_facecolor()) for c in bars if hasattr(c, "patches")] \
        == [SAFE_COLOURS[0].lower(), SAFE_COLOURS[1].lower()]


def test_the_rounds_chart_draws_a_ruleset_of_few_fights_hollow(doc):
    """30 fights a ruleset rest on enough; 20 do not: their points hollow, said in the legend."""
    from sim.report.charts import FEW_LABEL

    def hollow(fig) -> int:
        return sum(1 for line in fig.axes[0].get_lines()
                   if line.get_markerfacecolor() == "white" and line.get_label() != FEW_LABEL)

    assert hollow(rounds_figure(doc)) == 0 and FEW_LABEL not in _texts(rounds_figure(doc))[
        "legend"]
    few = copy.deepcopy(doc)
    copied = few["rulesets"]["copy"]
    copied["rounds"] = {**copied["rounds"], "histogram": {"3": 12, "5": 8}}  # 20 fights
    fig = rounds_figure(few)
    assert hollow(fig) == 1 and FEW_LABEL in _texts(fig)["legend"]


def test_survival_and_death_rate_titles_name_a_ruleset_of_few_fights(doc):
    few = copy.deepcopy(doc)
    few["rulesets"]["copy"] = {**few["rulesets"]["copy"], "encounters": 20}
    for figure in (survival_figure, death_rate_figure):
        assert "fewer than" not in " ".join(_texts(figure(doc))["suptitle"]
                                            + _texts(figure(doc))["titles"])
        texts = _texts(figure(few))
        assert "copy: fewer than 30 fights, wide intervals" in " ".join(
            texts["suptitle"] + texts["titles"])

"""PNG charts for ``fray compare`` and ``fray sweep`` (matplotlib, Agg, imported lazily).

Figures are built with ``matplotlib.figure.Figure`` on an Agg canvas rather than through
``pyplot``: no global figure state, no display needed, safe in any process. Each chart is
written as PNG to the path it is given, whatever its name (callers write to a temporary
file and rename it, ``sim.batch.files.atomic_path``).

Every chart has a title and axis labels with their units, whole-number ticks on a round axis,
the round limit marked where rounds are drawn, and the Okabe-Ito palette (``SAFE_COLOURS``):
one colour (and marker) per ruleset in the comparison charts, one colour per side in the
sweep chart. Rates are drawn as percentages and their intervals never leave 0-100%.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sim.report.numbers import percent
from sim.report.palette import OKABE_ITO
from sim.results.stats import FEW

DPI = 110

# Okabe-Ito (``sim.report.palette``), in its own order, black last
SAFE_COLOURS = tuple(OKABE_ITO.values())
# the series colours: black is kept for draws, grey for the round limit
SERIES = SAFE_COLOURS[:-1]
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
DRAWS_COLOUR = SAFE_COLOURS[-1]
LIMIT_COLOUR = "#555555"
RATE = (0.0, 1.0)


def _canvas(nrows: int, ncols: int, width: float, height: float):
    # imported here, not at the top: matplotlib is slow to import and most commands draw nothing
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, squeeze=False)


def _figure(ncols: int = 1, width: float = 7.0, height: float = 4.2):
    fig, axes = _canvas(1, ncols, width * ncols if ncols > 1 else width, height)
    return fig, list(axes[0])


def _style(k: int) -> dict[str, str]:
    """The colour and marker of the k-th series (a ruleset, or a side in a sweep)."""
    return {"color": SERIES[k % len(SERIES)], "marker": MARKERS[k % len(MARKERS)]}


def _errors(metrics: list[dict[str, Any]],
            bounds: tuple[float, float] | None = None) -> list[list[float]]:
    """Asymmetric error bars ``[below, above]`` from ``{"value", "ci95"}`` metrics.

    With ``bounds`` (a rate's 0 and 1) no bar reaches past them.
    """
    below, above = [], []
    for m in metrics:
        value, (lo, hi) = m["value"], m["ci95"]
        if value is None:
            below.append(0.0)
            above.append(0.0)
            continue
        if bounds is not None:
            lo = None if lo is None else max(bounds[0], lo)
            hi = None if hi is None else min(bounds[1], hi)
        below.append(max(0.0, value - lo) if lo is not None else 0.0)
        above.append(max(0.0, hi - value) if hi is not None else 0.0)
    return [below, above]


def _percent(axis) -> None:
    """Show a 0-1 rate axis as 0%-100%."""
    from matplotlib.ticker import PercentFormatter  # lazily, as in _canvas

    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))


def _whole(axis) -> None:
    """Whole-number ticks only (rounds, counts)."""
    from matplotlib.ticker import MaxNLocator  # lazily, as in _canvas

    axis.set_major_locator(MaxNLocator(integer=True))


def _mark_limit(ax, limit: int | None, longest: int) -> None:
    """Mark the round limit (``max_rounds``): a line when fights came near it, else a note.

    A fight still on at the limit is a draw. A limit far beyond the longest fight would
    squash every curve into the left of the chart, so the axis label names it instead (call
    this after ``set_xlabel``).
    """
    if not limit:
        return
    if longest * 2 >= limit:
        ax.axvline(limit, color=LIMIT_COLOUR, linestyle="--", linewidth=1.2,
                   label=f"round limit ({limit}): a fight still on is a draw")
        left, right = ax.get_xlim()
        ax.set_xlim(left, max(right, limit + 0.6))
    else:
        ax.set_xlabel(f"{ax.get_xlabel()}; round limit {limit}, not reached "
                      f"(longest fight {longest})")


FEW_LABEL = f"hollow: fewer than {FEW} runs"


def _hollow(ax, xs: Sequence[float], ys: Sequence[float | None], few: Sequence[bool],
            colour: str, marker: str = "o") -> bool:
    """Draw hollow markers over the points of a series that rest on fewer than ``FEW`` runs.

    Returns whether any point was marked (the caller adds ``FEW_LABEL`` to its legend).
    """
    points = [(x, y) for x, y, f in zip(xs, ys, few, strict=True) if f and y is not None]
    if points:
        ax.plot([x for x, _ in points], [y for _, y in points], linestyle="none",
                marker=marker, markersize=7, markerfacecolor="white", markeredgecolor=colour,
                markeredgewidth=1.6, zorder=5)
    return bool(points)


def _few_legend_entry(ax) -> None:
    """Add "hollow: fewer than 30 runs" to ``ax``'s legend entries (a grey hollow circle)."""
    ax.plot([], [], linestyle="none", marker="o", markersize=7, markerfacecolor="white",
            markeredgecolor="#555555", markeredgewidth=1.6, label=FEW_LABEL)


def _legend_below(fig, ax, title: str, ncols: int = 3) -> None:
    """One legend under the panels, from ``ax``'s entries, so no curve is hidden by it."""
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(ncols, len(labels)),
               fontsize="small", title=title, title_fontsize="small")


def _clip(values: list[float | None], fallback: list[float]) -> list[float]:
    """Interval bounds of a rate for a band: a missing bound is the value; inside 0..1."""
    return [min(1.0, max(0.0, v if v is not None else f))
            for v, f in zip(values, fallback, strict=True)]


def _few_note(doc: dict[str, Any]) -> str:
    """A title's note when a ruleset ran fewer than ``FEW`` fights: its curves rest on few."""
    few = [name for name, r in doc["rulesets"].items() if r["encounters"] < FEW]
    return (f"\n{', '.join(few)}: fewer than {FEW} fights, wide intervals" if few else "")


def _longest(doc: dict[str, Any]) -> int:
    return max((r["rounds"]["max"] for r in doc["rulesets"].values()), default=0)


def _save(fig, path: Path) -> Path:
    fig.savefig(path, dpi=DPI, format="png")
    return path


def survival_chart(doc: dict[str, Any], path: Path) -> Path:
    """``survival_figure`` written as PNG to ``path``."""
    return _save(survival_figure(doc), path)


def survival_figure(doc: dict[str, Any]):
    """Share of each side still fighting after round r, one line per ruleset (95% bands)."""
    rulesets = doc["rulesets"]
    sides = list(next(iter(rulesets.values()))["sides"])
    fig, axes = _figure(len(sides), width=5.5 if len(sides) > 1 else 7.0, height=4.8)
    for ax, side in zip(axes, sides, strict=True):
        for k, (name, r) in enumerate(rulesets.items()):
            curve = r["sides"][side]["survival"]
            x = [0, *curve["rounds"]]
            y = [1.0, *curve["value"]]
            lo = [1.0, *_clip(curve["lo"], y[1:])]
            hi = [1.0, *_clip(curve["hi"], y[1:])]
            colour = _style(k)["color"]
            ax.step(x, y, where="post", color=colour, linewidth=1.6, label=name)
            ax.fill_between(x, lo, hi, step="post", alpha=0.18, color=colour, linewidth=0)
        members = next(iter(rulesets.values()))["sides"][side]["members"]
        ax.set_title(f"{side} ({members} per fight)")
        ax.set_xlabel("rounds fought")
        ax.set_ylabel(f"{side} still fighting (% of the side)")
        ax.set_ylim(-0.02, 1.02)
        _percent(ax.yaxis)
        _whole(ax.xaxis)
        _mark_limit(ax, doc.get("max_rounds"), _longest(doc))
        ax.grid(alpha=0.3)
    _legend_below(fig, axes[0], "ruleset")
    fig.suptitle(f"{doc['scenario']}: combatants still fighting after each round "
                 f"(shaded: 95% intervals){_few_note(doc)}")
    return fig


def death_rate_chart(doc: dict[str, Any], path: Path) -> Path:
    """``death_rate_figure`` written as PNG to ``path``."""
    return _save(death_rate_figure(doc), path)


def death_rate_figure(doc: dict[str, Any]):
    """Death rate per combatant for each side and all sides, bars per ruleset, 95% error bars."""
    rulesets = doc["rulesets"]
    first = next(iter(rulesets.values()))
    sides = list(first["sides"])
    groups = [f"{s}\n({first['sides'][s]['members']} per fight)" for s in sides]
    groups.append(f"all sides\n({first['overall']['members']} per fight)")
    fig, (ax,) = _figure(1, width=min(12.0, max(6.5, 0.5 * len(groups) * len(rulesets) + 2)))
    width = 0.8 / max(1, len(rulesets))
    for k, (name, r) in enumerate(rulesets.items()):
        metrics = [r["sides"][s]["death_rate"] for s in sides]
        metrics.append(r["overall"]["death_rate"])
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(groups))]
        ax.bar(xs, [m["value"] for m in metrics], width, yerr=_errors(metrics, RATE),
               capsize=3, color=_style(k)["color"], edgecolor="white", linewidth=0.5,
               error_kw={"ecolor": "#333333", "elinewidth": 1}, label=name)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_xlabel("side")
    ax.set_ylabel("combatants who die per fight (%)")
    ax.set_ylim(bottom=0)
    _percent(ax.yaxis)
    ax.set_title(f"{doc['scenario']}: death rate per combatant, by side and ruleset "
                 f"(error bars: 95% intervals){_few_note(doc)}")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small", title="ruleset", title_fontsize="small")
    return fig


def rounds_chart(doc: dict[str, Any], path: Path) -> Path:
    """``rounds_figure`` written as PNG to ``path``."""
    return _save(rounds_figure(doc), path)


def rounds_figure(doc: dict[str, Any]):
    """Distribution of the number of rounds a fight lasts, one line per ruleset."""
    fig, (ax,) = _figure(1, width=7.5, height=5.0)
    few = False  # a ruleset of fewer than FEW fights: its points hollow
    for k, (name, r) in enumerate(doc["rulesets"].items()):
        hist = {int(k): v for k, v in r["rounds"]["histogram"].items()}
        n = sum(hist.values()) or 1
        xs = list(range(1, max(hist, default=1) + 1))
        label = (f"{name} (median {r['rounds']['median']:g}, p90 {r['rounds']['p90']:g}, "
                 f"draws {percent(r['draw_rate']['value'])})")
        ys = [hist.get(x, 0) / n for x in xs]
        ax.plot(xs, ys, markersize=3.5, linewidth=1.4, label=label, **_style(k))
        few |= _hollow(ax, xs, ys, [n < FEW] * len(xs), _style(k)["color"], _style(k)["marker"])
    ax.set_xlabel("fight length (rounds)")
    ax.set_ylabel("fights (%)")
    ax.set_ylim(bottom=0)
    _percent(ax.yaxis)
    _whole(ax.xaxis)
    _mark_limit(ax, doc.get("max_rounds"), _longest(doc))
    ax.set_title(f"{doc['scenario']}: how many rounds a fight lasts")
    ax.grid(alpha=0.3)
    if few:
        _few_legend_entry(ax)
    _legend_below(fig, ax, "ruleset", ncols=2)
    return fig


# the charts of ``fray compare``: file name -> function drawing it from ``lethality.json``
COMPARE_CHARTS: dict[str, Callable[[dict[str, Any], Path], Path]] = {
    "survival.png": survival_chart,
    "death_rate.png": death_rate_chart,
    "rounds.png": rounds_chart,
}


def _dodge(positions: list[float], count: int) -> list[float]:
    """Small horizontal offsets for ``count`` series at the same x, so their bars show."""
    ordered = sorted(set(positions))
    gaps = [b - a for a, b in zip(ordered, ordered[1:], strict=False)]
    step = min(gaps, default=1.0) * 0.05
    return [(i - (count - 1) / 2) * step for i in range(count)]


def _rate_metric(row: dict[str, Any], key: str) -> dict[str, Any]:
    """``{"value", "ci95"}`` of ``key`` (``heroes_win``, ``draw``) in a sweep row."""
    return {"value": row[f"{key}_rate"], "ci95": [row.get(f"{key}_lo"), row.get(f"{key}_hi")]}


def sweep_chart(rows: list[dict[str, Any]], sides: list[str], path_label: str, path: Path,
                scenario: str | None = None) -> Path:
    """``sweep_figure`` written as PNG to ``path``."""
    return _save(sweep_figure(rows, sides, path_label, scenario), path)


def sweep_figure(rows: list[dict[str, Any]], sides: list[str], path_label: str,
                 scenario: str | None = None):
    """Who wins and who dies against the swept value: one row of two panels per ruleset.

    Left, who wins: each side's win rate (solid line, circles) and the draws (black, dotted,
    diamonds). Right, who dies: each side's death rate per combatant (dashed, squares). One
    colour per side throughout, 95% error bars, one legend.
    """
    values = list(dict.fromkeys(row["value"] for row in rows))
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    position = {v: (v if numeric else i) for i, v in enumerate(values)}
    rulesets = list(dict.fromkeys(row["ruleset"] for row in rows))
    fig, grid = _canvas(len(rulesets), 2, 11.0, 0.6 + 3.4 * len(rulesets))
    shift = _dodge(list(position.values()), len(sides) + 1)
    top = max([row.get(f"{s}_death_hi") or row[f"{s}_death_rate"] for row in rows
               for s in sides] + [0.05])
    few_any = False
    for (wins, deaths), name in zip(grid, rulesets, strict=True):
        mine = [row for row in rows if row["ruleset"] == name]
        xs = [position[row["value"]] for row in mine]
        few = [int(row.get("encounters") or FEW) < FEW for row in mine]
        for s, side in enumerate(sides):
            colour = _style(s)["color"]
            at = [x + shift[s] for x in xs]
            metrics = [_rate_metric(row, f"{side}_win") for row in mine]
            wins.errorbar(at, [m["value"] for m in metrics],
                          yerr=_errors(metrics, RATE), capsize=3, color=colour, marker="o",
                          markersize=4, linestyle="-", label=f"{side}: wins")
            few_any |= _hollow(wins, at, [m["value"] for m in metrics], few, colour)
            metrics = [_rate_metric(row, f"{side}_death") for row in mine]
            deaths.errorbar(at, [m["value"] for m in metrics],
                            yerr=_errors(metrics, RATE), capsize=3, color=colour, marker="s",
                            markersize=4, linestyle="--", label=f"{side}: deaths")
            _hollow(deaths, at, [m["value"] for m in metrics], few, colour, "s")
        metrics = [_rate_metric(row, "draw") for row in mine]
        at = [x + shift[-1] for x in xs]
        wins.errorbar(at, [m["value"] for m in metrics],
                      yerr=_errors(metrics, RATE), capsize=3, color=DRAWS_COLOUR, marker="D",
                      markersize=4, linestyle=":", label="draws")
        _hollow(wins, at, [m["value"] for m in metrics], few, DRAWS_COLOUR, "D")
        wins.set_title(f"{name}: who wins")
        wins.set_ylabel("fights won or drawn (%)")
        wins.set_ylim(-0.02, 1.02)
        deaths.set_title(f"{name}: who dies")
        deaths.set_ylabel("combatants who die per fight (%)")
        deaths.set_ylim(0, min(1.02, top * 1.1))
        for ax in (wins, deaths):
            _percent(ax.yaxis)
            if not numeric:
                ax.set_xticks(range(len(values)), [str(v) for v in values])
            elif all(isinstance(v, int) for v in values):
                _whole(ax.xaxis)
            ax.set_xlabel(f"{path_label} (the swept value)")
            ax.grid(alpha=0.3)
    found: dict[str, Any] = {}
    for ax in grid[0]:
        found.update(zip(*reversed(ax.get_legend_handles_labels()), strict=True))
    # the legend fills column by column: one column per side (wins over deaths), then draws
    labels = [f"{side}: {what}" for side in sides for what in ("wins", "deaths")] + ["draws"]
    if few_any:
        _few_legend_entry(grid[0][0])
        handles, names = grid[0][0].get_legend_handles_labels()
        found[FEW_LABEL] = handles[names.index(FEW_LABEL)]
        labels.append(FEW_LABEL)
    fig.legend([found[label] for label in labels], labels, loc="outside lower center",
               ncols=len(sides) + 1, fontsize="small")
    about = f"{scenario}: " if scenario else ""
    fig.suptitle(f"{about}sweep over {path_label} (error bars: 95% intervals)")
    return fig


def campaign_chart(summaries: list[dict[str, Any]], path: Path) -> Path:
    """``campaign_figure`` written as PNG to ``path``."""
    return _save(campaign_figure(summaries), path)


def campaign_figure(summaries: list[dict[str, Any]]):
    """The party's survival across stages: P(reach stage k) (95% CIs) and fighters per stage.

    One line per summary (one per ruleset in a compare). The last point, "cleared", is
    P(won every stage). A point resting on fewer than ``FEW`` runs is hollow: on the left
    when the batch has so few runs, on the right when so few runs reached the stage.
    """
    first = summaries[0]
    labels = [f"{s['stage']}\n{s['scenario']}" for s in first["stages"]] + ["cleared"]
    x = list(range(1, len(labels) + 1))
    fig, (left, right) = _figure(2, width=5.5)
    few = {left: False, right: False}  # a panel with a hollow point says what it means
    for k, doc in enumerate(summaries):
        colour = SAFE_COLOURS[k % len(SAFE_COLOURS)]
        points = [s["p_reach"] for s in doc["stages"]] + [doc["p_clear"]]
        ys = [m["value"] for m in points]
        left.errorbar(x, ys, yerr=_errors(points), marker="o", capsize=3, color=colour,
                      label=doc["ruleset"])
        # P(reach) and P(clear) rest on every run; a stage's mean on the runs reaching it
        few[left] |= _hollow(left, x, ys, [doc["runs"] < FEW] * len(x), colour)
        stages = [s for s in doc["stages"] if s["fighters_mean"] is not None]
        xs, ys = [s["stage"] for s in stages], [s["fighters_mean"] for s in stages]
        right.plot(xs, ys, marker="s", color=colour, label=doc["ruleset"])
        few[right] |= _hollow(right, xs, ys, [s["reached"] < FEW for s in stages], colour,
                              "s")
    left.set_title("P(the party reaches the stage)")
    left.set_ylabel("runs (%, 95% CI)")  # in % as every other chart's rates
    left.set_ylim(-0.02, 1.02)
    _percent(left.yaxis)
    right.set_title("party members fighting it")
    right.set_ylabel(f"members (mean over runs reaching it; of {first['members']})")
    right.set_ylim(0, first["members"] + 0.3)
    for ax, ticks in ((left, labels), (right, labels[:-1])):
        ax.set_xticks(range(1, len(ticks) + 1), ticks)
        ax.set_xlabel("stage")
        ax.grid(alpha=0.3)
        if few[ax]:
            _few_legend_entry(ax)
        ax.legend(fontsize="small")
    fig.suptitle(f"{first['name']}: the party across {len(first['stages'])} stages "
                 f"({first['runs']} runs)")
    return fig

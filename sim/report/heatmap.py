"""The heat map of a two-way sweep: one value on each axis, the metric in each cell.

One panel per ruleset; each cell is coloured by the first side's win rate and shows it as a
percentage (``sweep_heatmap.png``). Rows that are the same fights (every cell the same
numbers: the second setting's values build the same fighters, as the sweep's note says) are
marked ``=`` with the rows they repeat, and the title says how wide the 95% intervals are.
The colours span the rates measured, not 0-100%: a grid
whose rates all lie between 40% and 60% would otherwise be one shade; the legend says what
they span. The HTML version is a table whose cells carry their 95% interval on hover (a
``title``), for ``report.html``.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from sim.report.charts import _canvas, _save


def _axes(rows: list[dict[str, Any]], paths: list[str]) -> tuple[list[Any], list[Any]]:
    xs = list(dict.fromkeys(row[paths[0]] for row in rows))
    ys = list(dict.fromkeys(row[paths[1]] for row in rows))
    return xs, ys


def _cell(rows: list[dict[str, Any]], paths: list[str], x: Any, y: Any,
          ruleset: str) -> dict[str, Any] | None:
    for row in rows:
        if row[paths[0]] == x and row[paths[1]] == y and row["ruleset"] == ruleset:
            return row
    return None


def span(rows: list[dict[str, Any]], side: str) -> tuple[float, float]:
    """The win rates the colours span: the lowest and highest measured.

    Shared by every ruleset's panel, so a shade means the same rate in each; a grid of one
    rate spans 5 points either side of it.
    """
    rates = [row[f"{side}_win_rate"] for row in rows if row.get(f"{side}_win_rate") is not None]
    if not rates:
        return 0.0, 1.0
    low, high = min(rates), max(rates)
    if high - low < 1e-9:
        low, high = max(0.0, low - 0.05), min(1.0, high + 0.05)
    return low, high


def same_rows(rows: list[dict[str, Any]], paths: list[str], ruleset: str) -> dict[Any, Any]:
    """Each heat-map row (a value of the second setting) that repeats an earlier one.

    ``{y: the first y it repeats}``: every cell of the two rows holds the same numbers, so
    they are the same fights (the same seed, and fighters built alike).
    """
    xs, ys = _axes(rows, paths)
    seen: dict[Any, Any] = {}
    out = {}
    naming = {"path", "value", *paths}
    for y in ys:
        cells = tuple(tuple(sorted((k, repr(v)) for k, v in (_cell(rows, paths, x, y, ruleset)
                                                              or {}).items()
                                   if k not in naming)) for x in xs)
        if cells in seen:
            out[y] = seen[cells]
        else:
            seen[cells] = y
    return out


def interval_words(rows: list[dict[str, Any]], side: str) -> str:
    """How wide the cells' 95% intervals are: ``intervals +-4 points (at most +-6)``."""
    halves = sorted((row[f"{side}_win_hi"] - row[f"{side}_win_lo"]) / 2 for row in rows
                    if row.get(f"{side}_win_lo") is not None
                    and row.get(f"{side}_win_hi") is not None)
    if not halves:
        return "no intervals"
    typical, most = halves[len(halves) // 2], halves[-1]
    return (f"95% intervals ±{typical * 100:.0f} points in the middle cell, at most "
            f"±{most * 100:.0f}")


def _row_label(y: Any, repeats: dict[Any, Any]) -> str:
    """A heat-map row's label, ``4 = 3`` when it repeats row 3's fights."""
    return f"{y} = {repeats[y]}" if y in repeats else str(y)


def span_words(low: float, high: float) -> str:
    """The legend's note on the colour scale."""
    return f"colours span {low:.0%}-{high:.0%}, the rates measured"


def heatmap_figure(rows: list[dict[str, Any]], paths: list[str], labels: list[str],
                   side: str, scenario: str | None = None):
    """``side``'s win rate over the grid of ``paths`` (x: the first, y: the second)."""
    xs, ys = _axes(rows, paths)
    rulesets = list(dict.fromkeys(row["ruleset"] for row in rows))
    # at least 4.2 inches high: the colour bar's two-line label needs that much
    fig, grid = _canvas(1, len(rulesets), max(7.0, 2.0 + 1.2 * len(xs) * len(rulesets)),
                        max(4.2, 1.8 + 0.8 * len(ys)))
    image = None
    low, high = span(rows, side)
    for ax, name in zip(grid[0], rulesets, strict=True):
        values = [[(_cell(rows, paths, x, y, name) or {}).get(f"{side}_win_rate")
                   for x in xs] for y in ys]
        shown = [[float("nan") if v is None else v for v in line] for line in values]
        image = ax.imshow(shown, cmap="viridis", vmin=low, vmax=high, origin="lower",
                          aspect="auto")
        for j, line in enumerate(values):
            for i, v in enumerate(line):
                if v is not None:
                    ax.text(i, j, f"{v:.0%}", ha="center", va="center",
                            color="white" if (v - low) < 0.6 * (high - low) else "black",
                            fontsize="small")
        ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        repeats = same_rows(rows, paths, name)
        ax.set_yticks(range(len(ys)), [_row_label(y, repeats) for y in ys])
        ax.set_xlabel(labels[0])
        ax.set_ylabel(labels[1])
        ax.set_title(name)
    if image is not None:
        from matplotlib.ticker import PercentFormatter

        bar = fig.colorbar(image, ax=list(grid[0]), shrink=0.9)
        # two lines: on one, the label ran past the top and bottom of a grid three values
        # high; ticks in percent, as the cells read
        bar.set_label(f"{side} win rate\n({span_words(low, high)})")
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    about = f"{scenario}: " if scenario else ""
    fig.suptitle(f"{about}{side} win rate by {labels[0]} and {labels[1]}\n"
                 f"({interval_words(rows, side)}; a row 'y = z' repeats row z's fights)")
    return fig


def heatmap_chart(rows: list[dict[str, Any]], paths: list[str], labels: list[str], side: str,
                  path: Path, scenario: str | None = None) -> Path:
    """``heatmap_figure`` written as PNG to ``path``."""
    return _save(heatmap_figure(rows, paths, labels, side, scenario), path)


def heatmap_html(rows: list[dict[str, Any]], paths: list[str], labels: list[str],
                 side: str) -> str:
    """The heat map as HTML tables (one per ruleset); each cell's interval on hover."""
    xs, ys = _axes(rows, paths)
    low, high = span(rows, side)
    out = []
    for name in dict.fromkeys(row["ruleset"] for row in rows):
        head = "".join(f"<th>{escape(str(x))}</th>" for x in xs)
        lines = [f"<tr><th>{escape(labels[1])} \\ {escape(labels[0])}</th>{head}</tr>"]
        repeats = same_rows(rows, paths, name)
        for y in reversed(ys):
            cells = []
            for x in xs:
                row = _cell(rows, paths, x, y, name)
                if row is None:
                    cells.append("<td></td>")
                    continue
                v, lo, hi = (row[f"{side}_win_rate"], row.get(f"{side}_win_lo"),
                             row.get(f"{side}_win_hi"))
                tip = (f"{side} win rate {v:.1%}, 95% interval {lo:.1%}-{hi:.1%}, "
                       f"{row['encounters']} fights" if lo is not None and hi is not None
                       else f"{side} win rate {v:.1%}")
                shade = round(255 - 155 * min(1.0, max(0.0, (v - low) / (high - low))))
                cells.append(f'<td title="{escape(tip)}" style="background:rgb({shade},'
                             f'{shade},255)">{v:.0%}</td>')
            head_cell = (f'<th class="same" title="the same fights as row {escape(str(repeats[y]))}'
                         f'">{escape(_row_label(y, repeats))} (same fights)</th>'
                         if y in repeats else f"<th>{escape(str(y))}</th>")
            lines.append(f"<tr>{head_cell}{''.join(cells)}</tr>")
        out.append(f"<h3>{escape(name)}: {escape(side)} win rate (hover a cell for its 95% "
                   f"interval; {interval_words(rows, side)}; {span_words(low, high)})</h3>"
                   f"<table>{''.join(lines)}</table>")
    return "\n".join(out)

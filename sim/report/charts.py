"""PNG charts for ``fray compare`` and ``fray sweep`` (matplotlib, Agg, imported lazily).

Figures are built with ``matplotlib.figure.Figure`` on an Agg canvas rather than through
``pyplot``: no global figure state, no display needed, safe in any process. Each chart is
written as PNG to the path it is given, whatever its name (callers write to a temporary
file and rename it, ``sim.batch.files.atomic_path``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

DPI = 110


def _figure(ncols: int = 1, width: float = 7.0, height: float = 4.2):
    # imported here, not at the top: matplotlib is slow to import and most commands draw nothing
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width * ncols if ncols > 1 else width, height),
                 layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, list(axes)


def _errors(metrics: list[dict[str, Any]]) -> list[list[float]]:
    """Asymmetric error bars ``[below, above]`` from ``{"value", "ci95"}`` metrics."""
    below, above = [], []
    for m in metrics:
        lo, hi = m["ci95"]
        below.append(m["value"] - lo if lo is not None else 0.0)
        above.append(hi - m["value"] if hi is not None else 0.0)
    return [below, above]


def survival_chart(doc: dict[str, Any], path: Path) -> Path:
    """Share of each side still fighting after round r, one line per ruleset (95% bands)."""
    rulesets = doc["rulesets"]
    sides = list(next(iter(rulesets.values()))["sides"])
    fig, axes = _figure(len(sides), width=5.5 if len(sides) > 1 else 7.0)
    for ax, side in zip(axes, sides, strict=True):
        for name, r in rulesets.items():
            curve = r["sides"][side]["survival"]
            x = [0, *curve["rounds"]]
            y = [1.0, *curve["value"]]
            lo = [1.0, *(v if v is not None else y[i + 1] for i, v in enumerate(curve["lo"]))]
            hi = [1.0, *(v if v is not None else y[i + 1] for i, v in enumerate(curve["hi"]))]
            (line,) = ax.step(x, y, where="post", label=name)
            ax.fill_between(x, lo, hi, step="post", alpha=0.15, color=line.get_color())
        ax.set_title(f"{side}: still fighting after round r")
        ax.set_xlabel("round")
        ax.set_ylabel("share of combatants")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    fig.suptitle(f"{doc['scenario']}: survival by round (95% bands)")
    fig.savefig(path, dpi=DPI, format="png")
    return path


def death_rate_chart(doc: dict[str, Any], path: Path) -> Path:
    """Death rate per combatant for each side and all sides, bars per ruleset, 95% error bars."""
    rulesets = doc["rulesets"]
    groups = [*next(iter(rulesets.values()))["sides"], "all sides"]
    fig, (ax,) = _figure(1, width=min(12.0, max(6.0, 0.5 * len(groups) * len(rulesets) + 2)))
    width = 0.8 / max(1, len(rulesets))
    for k, (name, r) in enumerate(rulesets.items()):
        metrics = [r["sides"][g]["death_rate"] for g in groups[:-1]]
        metrics.append(r["overall"]["death_rate"])
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(groups))]
        ax.bar(xs, [m["value"] for m in metrics], width, yerr=_errors(metrics), capsize=3,
               label=name)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel("deaths per combatant per fight")
    ax.set_title(f"{doc['scenario']}: death rate per combatant (95% intervals)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    fig.savefig(path, dpi=DPI, format="png")
    return path


def rounds_chart(doc: dict[str, Any], path: Path) -> Path:
    """Distribution of the number of rounds a fight lasts, one line per ruleset."""
    fig, (ax,) = _figure(1)
    for name, r in doc["rulesets"].items():
        hist = {int(k): v for k, v in r["rounds"]["histogram"].items()}
        n = sum(hist.values()) or 1
        xs = list(range(1, max(hist, default=1) + 1))
        label = f"{name} (median {r['rounds']['median']:g}, p90 {r['rounds']['p90']:g})"
        ax.plot(xs, [hist.get(x, 0) / n for x in xs], marker="o", markersize=3, label=label)
    ax.set_xlabel("rounds to the end of the fight")
    ax.set_ylabel("share of fights")
    ax.set_title(f"{doc['scenario']}: rounds to the end")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    fig.savefig(path, dpi=DPI, format="png")
    return path


# the charts of ``fray compare``: file name -> function drawing it from ``lethality.json``
COMPARE_CHARTS: dict[str, Callable[[dict[str, Any], Path], Path]] = {
    "survival.png": survival_chart,
    "death_rate.png": death_rate_chart,
    "rounds.png": rounds_chart,
}


def sweep_chart(rows: list[dict[str, Any]], sides: list[str], path_label: str,
                path: Path) -> Path:
    """Win rate and death rate against the swept value, per ruleset and side, 95% bars."""
    fig, axes = _figure(2, width=5.5)
    values = list(dict.fromkeys(row["value"] for row in rows))
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    position = {v: (v if numeric else i) for i, v in enumerate(values)}
    styles = ["-", "--", ":", "-."]
    rulesets = list(dict.fromkeys(row["ruleset"] for row in rows))
    colours = {name: f"C{i % 10}" for i, name in enumerate(rulesets)}
    for ax, key, title in ((axes[0], "win", "win rate"), (axes[1], "death", "death rate")):
        for name in rulesets:
            mine = [row for row in rows if row["ruleset"] == name]
            for s, side in enumerate(sides):
                metrics = [{"value": row[f"{side}_{key}_rate"],
                            "ci95": [row[f"{side}_{key}_lo"], row[f"{side}_{key}_hi"]]}
                           for row in mine]
                ax.errorbar([position[row["value"]] for row in mine],
                            [m["value"] for m in metrics], yerr=_errors(metrics), capsize=3,
                            marker="o", markersize=3, color=colours[name],
                            linestyle=styles[s % len(styles)], label=f"{name}: {side}")
        if not numeric:
            ax.set_xticks(range(len(values)), [str(v) for v in values])
        elif all(isinstance(v, int) for v in values):
            from matplotlib.ticker import MaxNLocator  # lazily, as in _figure

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(path_label)
        ax.set_ylabel(title)
        if key == "win":
            ax.set_ylim(-0.02, 1.02)
        else:  # death rates are often small: let them fill the panel
            ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.set_title(f"{title} (95% intervals)")
    axes[1].legend(fontsize="x-small")
    fig.suptitle(f"sweep over {path_label}")
    fig.savefig(path, dpi=DPI, format="png")
    return path


# Okabe-Ito: told apart by readers with any common colour-vision deficiency
SAFE_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
                "#000000")


def campaign_chart(summaries: list[dict[str, Any]], path: Path) -> Path:
    """The party's survival across stages: P(reach stage k) (95% CIs) and fighters per stage.

    One line per summary (one per ruleset in a compare). The last point, "cleared", is
    P(won every stage).
    """
    first = summaries[0]
    labels = [f"{s['stage']}\n{s['scenario']}" for s in first["stages"]] + ["cleared"]
    x = list(range(1, len(labels) + 1))
    fig, (left, right) = _figure(2, width=5.5)
    for k, doc in enumerate(summaries):
        colour = SAFE_COLOURS[k % len(SAFE_COLOURS)]
        points = [s["p_reach"] for s in doc["stages"]] + [doc["p_clear"]]
        left.errorbar(x, [m["value"] for m in points], yerr=_errors(points), marker="o",
                      capsize=3, color=colour, label=doc["ruleset"])
        stages = [s for s in doc["stages"] if s["fighters_mean"] is not None]
        right.plot([s["stage"] for s in stages], [s["fighters_mean"] for s in stages],
                   marker="s", color=colour, label=doc["ruleset"])
    left.set_title("P(the party reaches the stage)")
    left.set_ylabel("share of runs (95% CI)")
    left.set_ylim(-0.02, 1.02)
    right.set_title("party members fit to fight it")
    right.set_ylabel(f"members (mean over runs reaching it; of {first['members']})")
    right.set_ylim(0, first["members"] + 0.3)
    for ax, ticks in ((left, labels), (right, labels[:-1])):
        ax.set_xticks(range(1, len(ticks) + 1), ticks)
        ax.set_xlabel("stage")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    fig.suptitle(f"{first['name']}: the party across {len(first['stages'])} stages "
                 f"({first['runs']} runs)")
    fig.savefig(path, dpi=DPI, format="png")
    return path

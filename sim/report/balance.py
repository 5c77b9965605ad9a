"""What ``fray balance`` prints and draws: the one-sentence answer, the table, the chart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.report.charts import _figure, _percent, _save, _whole


def _pct(r: Any) -> str:
    return f"{r.metric:.0%} [{r.low * 100:.0f}-{r.high * 100:.0f}]"


def _phrase(metric: str, side: str) -> str:
    return {"win": f"the {side} win", "death": f"the {side} lose (death rate per combatant)",
            "tpk": f"the {side} are wiped out"}[metric]


def _with(label: str, value: int) -> str:
    """``4 Bandit archers`` for a count, ``Ser Aldric strength 4`` for anything else."""
    if label.endswith(" count"):
        name = label[: -len(" count")]
        return f"{value} {name}{'' if value == 1 or name.endswith('s') else 's'}"
    return f"{label} {value}"


def sentence(answer: Any, tried: list[Any], label: str, metric: str, side: str,
             company: str = "") -> str:
    """``With 4 Bandit archers the heroes win 52% [47-57]; with 3, 71% [66-75]; ...``.

    ``company``: who else is in the fight beside the varied member (``the 2 Bandits``:
    ``sim.batch.grid.company``), said after the value.
    """
    by_value = {r.value: r for r in tried}
    beside = f", with {company}," if company else ""
    parts = [f"With {_with(label, answer.value)}{beside} {_phrase(metric, side)} "
             f"{_pct(answer)}"]
    for value in (answer.value - 1, answer.value + 1):
        if value in by_value:
            parts.append(f"with {value}, {_pct(by_value[value])}")
    return "; ".join(parts) + "."


def beyond(answer: Any, low: int, high: int, target: float,
           tried: list[Any] | None = None) -> str:
    """A note when the target lies past the range ("" when it does not).

    Past an end (the answer is at it, its interval short of the target), or past every
    value ``tried`` (each one's interval on the same side of the target: a rate that rises
    and falls inside the range reaches it nowhere).
    """
    if answer.low <= target <= answer.high:
        return ""
    way = "above" if answer.low > target else "below"
    if answer.value in (low, high):
        return (f"The target lies beyond the range: at {answer.value} the rate is still "
                f"{way} {target:.0%}; widen --range to reach it.")
    if tried and all((r.low > target) if way == "above" else (r.high < target) for r in tried):
        return (f"No value tried comes near the target: from {low} to {high} the rate stays "
                f"{way} {target:.0%}; widen --range to reach it.")
    return ""


def table(tried: list[Any], label: str, answer: Any) -> str:
    """Every value tried: rate, 95% interval, fights; the answer marked."""
    lines = [f"{label:>24}  {'rate':>7}  {'95% interval':>15}  {'fights':>7}"]
    for r in tried:
        mark = "  <- nearest the target" if r.value == answer.value else ""
        lines.append(f"{r.value:>24}  {r.metric:>7.3f}  {r.low:>7.3f}-{r.high:<7.3f}  "
                     f"{r.n:>7}{mark}")
    return "\n".join(lines)


def chart(tried: list[Any], label: str, metric_words: str, side: str, target: float,
          path: Path) -> Path:
    """The rate of every value tried with its interval, the target as a line."""
    fig, (ax,) = _figure()
    xs = [r.value for r in tried]
    ys = [r.metric for r in tried]
    ax.errorbar(xs, ys, yerr=[[max(0.0, r.metric - r.low) for r in tried],
                              [max(0.0, r.high - r.metric) for r in tried]],
                capsize=3, marker="o", linestyle="none", color="#0072B2", label=side)
    ax.axhline(target, color="#555555", linestyle="--", label=f"target {target:.0%}")
    ax.set_xlabel(label)
    ax.set_ylabel(f"{side} {metric_words} (%)")
    ax.set_ylim(-0.02, 1.02)
    _percent(ax.yaxis)
    _whole(ax.xaxis)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(f"{side} {metric_words} by {label} (error bars: 95% intervals)")
    return _save(fig, path)


__all__ = ["beyond", "chart", "sentence", "table"]

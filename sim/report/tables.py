"""Terminal output for batches: the summary table and the progress bar."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text


def batch_table(summary: dict[str, Any]) -> str:
    """A plain-text table of one batch's summary (readable in a terminal and in a file)."""
    title = (f"{summary['scenario']} under {summary['ruleset']}: "
             f"{summary['encounters']} encounters, seed {summary['seed']}")
    table = Table(title=title, title_justify="left")
    for column in ("side", "members", "win rate (95% CI)", "hit rate", "deaths (after)",
                   "out of fight"):
        table.add_column(column, justify="left" if column == "side" else "right")
    n = summary["encounters"]
    for name, side in summary["sides"].items():
        lo, hi = side["win_rate_ci95"]
        def per(x: int, more: str = "") -> str:
            return f"{x} ({x / n:.2f}/fight{more})" if n else f"{x}{more}"

        table.add_row(name, str(side["members"]),
                      f"{side['win_rate']:.3f} ({lo:.3f}-{hi:.3f})",
                      rate(side["hit_rate"]),
                      per(side["deaths"], f"; {side['deaths_after']} after"
                          if "deaths_after" in side else ""),
                      per(side["out_of_fight"]))
    table.add_row("draw", "", f"{summary['outcomes']['draw'] / n:.3f}" if n else "0", "", "", "")
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None).print(table)
    r, le = summary["rounds"], summary["lethality"]
    buffer.write(f"rounds: mean {r['mean']:.2f}, median {r['median']}, p90 {r['p90']}, "
                 f"max {r['max']}\n")
    split = (f" ({le['deaths_in_fight_per_encounter']:.3f} in the fight + "
             f"{le['deaths_after_per_encounter']:.3f} after)"
             if "deaths_after_per_encounter" in le else "")  # older summaries lack it
    buffer.write(f"lethality: {le['deaths_per_encounter']:.3f} deaths/fight{split}, "
                 f"P(any death) {le['p_any_death']:.3f}, death rate per combatant "
                 f"{le['death_rate']:.3f}\n")
    return buffer.getvalue().rstrip("\n")


def rate(value: float | None) -> str:
    """A rate to three places; "n/a" where there was nothing to rate (no attacks)."""
    return "n/a" if value is None else f"{value:.3f}"


def fighter_table(summary: dict[str, Any]) -> str:
    """Per-fighter results of a batch: deaths (95% CI), out of the fight, attacks, hits."""
    n = summary["encounters"]
    table = Table(title=f"{summary['scenario']} under {summary['ruleset']}: each combatant "
                        f"over {n} encounters", title_justify="left")
    for column in ("combatant", "side", "death rate (95% CI)", "deaths (after)",
                   "out of fight", "fled/surr.", "attacks", "hit rate", "damage"):
        table.add_column(column, justify="left" if column in ("combatant", "side")
                         else "right")
    for name, f in summary.get("combatants", {}).items():
        ci = f["death_rate_ci95"]
        death = (f"{f['death_rate']:.3f} ({ci[0]:.3f}-{ci[1]:.3f})"
                 if f["death_rate"] is not None else "n/a")
        table.add_row(name, f["side"], death, f"{f['deaths']} ({f['deaths_after']})",
                      str(f["out_of_fight"]), f"{f['fled']} / {f['surrendered']}",
                      str(f["attacks"]), rate(f["hit_rate"]), str(f["damage"]))
    buffer = io.StringIO()
    Console(file=buffer, width=150, color_system=None).print(table)
    buffer.write("deaths count to the end of the scene, those after the fight in brackets; "
                 "fled/surr.: out of the fight alive, by morale\n")
    return buffer.getvalue().rstrip("\n")


class RateColumn(ProgressColumn):
    """Encounters per second."""

    def render(self, task) -> Text:
        """The task's current speed."""
        return Text(f"{task.speed:,.0f}/s" if task.speed else "-/s")


@contextmanager
def progress_bar(total: int, label: str, quiet: bool = False) -> Iterator[Callable[[int], None]]:
    """A progress bar with rate and ETA on stderr; silent when quiet or not a terminal."""
    if quiet or not sys.stderr.isatty():
        yield lambda _n: None
        return
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TaskProgressColumn(), RateColumn(),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
        console=Console(stderr=True), transient=False,
    )
    with progress:
        # escaped: "ambush [ore]" is text, not a markup tag that rich would swallow
        task = progress.add_task(escape(label), total=total)
        yield lambda n: progress.advance(task, n)

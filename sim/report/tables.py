"""Terminal output for batches: the summary table and the progress bar."""

from __future__ import annotations

import io
import sys
import textwrap
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

from sim.report import deaths
from sim.results.difficulty import shown

WIDTH = 100  # the terminal columns every table and line of a batch fits


def batch_table(summary: dict[str, Any], words: dict[str, str | None] | None = None) -> str:
    """A plain-text summary of one batch: who wins, when deaths come, in ``WIDTH`` columns.

    Readable in a terminal and in a file: the sides' table, the deaths split by when and
    whether tended (when ``summary`` records it, ``sim.report.deaths``), then lines of
    rounds, lethality and the aftermath, wrapped at ``WIDTH``. ``words``: each side's
    difficulty word (``sim.results.difficulty``), on a line under the table.
    """
    title = (f"{summary['scenario']} under {summary['ruleset']}: "
             f"{summary['encounters']} encounters, seed {summary['seed']}")
    table = Table(title=title, title_justify="left")
    for column in ("side", "members", "win rate (95% CI)", "hit rate", "deaths",
                   "out of fight"):
        table.add_column(column, justify="left" if column == "side" else "right",
                         no_wrap=True)
    n = summary["encounters"]
    for name, side in summary["sides"].items():
        lo, hi = side["win_rate_ci95"]
        table.add_row(name, str(side["members"]),
                      f"{side['win_rate']:.3f} ({lo:.3f}-{hi:.3f})",
                      rate(side["hit_rate"]), per_fight(side["deaths"], n),
                      per_fight(side["out_of_fight"], n))
    table.add_row("draw", "", f"{summary['outcomes']['draw'] / n:.3f}" if n else "0", "", "", "")
    buffer = io.StringIO()
    console = Console(file=buffer, width=WIDTH, color_system=None)
    console.print(table)
    block = summary.get("aftermath")
    if block is not None:
        console.print(death_table(summary))
    r, le = summary["rounds"], summary["lethality"]
    lines = [] if words is None else [
        "difficulty (docs/difficulty.md): "
        + ", ".join(f"{name} {shown(text)}" for name, text in words.items())]
    lines += [f"rounds: mean {r['mean']:.2f}, median {r['median']}, p90 {r['p90']}, "
             f"max {r['max']}",
             f"lethality: {le['deaths_per_encounter']:.3f} deaths/fight, P(any death) "
             f"{le['p_any_death']:.3f}, death rate per combatant {le['death_rate']:.3f}"]
    if "draws" in summary and summary["outcomes"]["draw"]:
        lines.append(draws_line(summary))
    if block is not None:
        lines.append(deaths.explain(block))
    elif "deaths_after_per_encounter" in le:  # older summaries: in the fight and after
        lines.append(f"deaths/fight: {le['deaths_in_fight_per_encounter']:.3f} in the fight + "
                     f"{le['deaths_after_per_encounter']:.3f} after")
    for line in lines:
        buffer.write(textwrap.fill(line, WIDTH, subsequent_indent="  ") + "\n")
    # rich pads a title to its table's width: no trailing blanks in a file or a terminal
    return "\n".join(line.rstrip() for line in buffer.getvalue().rstrip("\n").split("\n"))


def draws_line(summary: dict[str, Any]) -> str:
    """Who was left in the drawn fights.

    Each side's members still in the fight when they ended, on average, and by name those
    on their feet at the end of the scene most often.
    """
    draws, n = summary["draws"], summary["encounters"]
    k = draws["fights"]
    sides = ", ".join(f"{name} {count / k:.1f} of {summary['sides'][name]['members']}"
                      for name, count in draws["standing"].items())
    names = ", ".join(f"{name} ({count})" for name, count in draws["left_most_often"])
    return (f"draws: {k} of {n} fights ({k / n:.1%}) ended at the round limit or with nobody "
            f"standing; still in the fight when they ended, on average: {sides}"
            + (f"; on their feet at the end of the scene most often: {names}" if names else ""))


def per_fight(x: int, n: int) -> str:
    """``357 (0.18/fight)``: a count over a batch and its mean a fight."""
    return f"{x} ({x / n:.2f}/fight)" if n else str(x)


def death_table(summary: dict[str, Any]) -> Table:
    """Each side's deaths in the fight, after it among the tended and among the untended."""
    n = summary["encounters"]
    table = Table(title="deaths by when, to the end of the scene", title_justify="left")
    table.add_column("side", no_wrap=True)
    for _, label in deaths.PARTS:
        table.add_column(label, justify="right", no_wrap=True)
    for name, side in summary["sides"].items():
        if "deaths_after_untended" not in side:
            continue
        table.add_row(name, *(per_fight(side[key], n) for key, _ in deaths.PARTS))
    block = summary["aftermath"]
    if len(summary["sides"]) > 1:
        table.add_row("all sides", *(per_fight(block[key], n) for key, _ in deaths.PARTS))
    return table


def rate(value: float | None) -> str:
    """A rate to three places; "n/a" where there was nothing to rate (no attacks)."""
    return "n/a" if value is None else f"{value:.3f}"


def fighter_table(summary: dict[str, Any]) -> str:
    """Per-fighter results of a batch: deaths (95% CI), out of the fight, attacks, hits.

    Grouped by side, a side's name on a row of its own above its members: the table fits
    ``WIDTH`` columns (two-line headers; names may wrap, numbers never do).
    """
    n = summary["encounters"]
    table = Table(title=f"{summary['scenario']} under {summary['ruleset']}: each combatant "
                        f"over {n} encounters", title_justify="left")
    for column in ("side / combatant", "death rate\n(95% CI)", "deaths\n(after)",
                   "out of\nfight", "fled/\nsurr.", "attacks", "hit\nrate", "damage"):
        text = column == "side / combatant"
        table.add_column(column, justify="left" if text else "right", no_wrap=not text)
    side = None
    for name, f in summary.get("combatants", {}).items():
        if f["side"] != side:
            side = f["side"]
            table.add_row(side)
        ci = f["death_rate_ci95"]
        death = (f"{f['death_rate']:.3f} ({ci[0]:.3f}-{ci[1]:.3f})"
                 if f["death_rate"] is not None else "n/a")
        table.add_row(f"  {name}", death, f"{f['deaths']} ({f['deaths_after']})",
                      str(f["out_of_fight"]), f"{f['fled']} / {f['surrendered']}",
                      str(f["attacks"]), rate(f["hit_rate"]), str(f["damage"]))
    buffer = io.StringIO()
    Console(file=buffer, width=WIDTH, color_system=None).print(table)
    buffer.write(textwrap.fill("deaths count to the end of the scene, those after the fight in "
                               "brackets; fled/surr.: out of the fight alive, by morale",
                               WIDTH) + "\n")
    return "\n".join(line.rstrip() for line in buffer.getvalue().rstrip("\n").split("\n"))


def contribution_table(summary: dict[str, Any]) -> str:
    """Each fighter's worth to its side (``summary.json``'s ``contribution``).

    The side's win rate with and without it, the change (without minus with) and its 95%
    paired interval, the side's deaths a fight with and without it.
    """
    block = summary["contribution"]
    table = Table(title=f"who matters: each fighter left out, the same {block['encounters']} "
                        f"seeds", title_justify="left")
    for column in ("side / fighter", "side wins\nwith", "without", "change\n(95% CI)",
                   "side deaths\nwith", "without", "change\n(95% CI)"):
        text = column == "side / fighter"
        table.add_column(column, justify="left" if text else "right", no_wrap=not text)
    side = None
    for name, c in block["fighters"].items():
        if c["side"] != side:
            side = c["side"]
            table.add_row(side)
        lo, hi = c["win_rate_change_ci95"]
        d_lo, d_hi = c["deaths_change_ci95"]
        deaths_ci = ("" if d_lo is None or d_hi is None else f" ({d_lo:+.2f} to {d_hi:+.2f})")
        table.add_row(f"  {name}", f"{c['win_rate']:.3f}", f"{c['win_rate_without']:.3f}",
                      f"{c['win_rate_change']:+.3f}\n({lo:+.3f} to {hi:+.3f})",
                      f"{c['deaths']:.2f}", f"{c['deaths_without']:.2f}",
                      f"{c['deaths_change']:+.2f}\n{deaths_ci.strip()}")
    buffer = io.StringIO()
    Console(file=buffer, width=WIDTH, color_system=None).print(table)
    return "\n".join(line.rstrip() for line in buffer.getvalue().rstrip("\n").split("\n"))


def variants_table(summary: dict[str, Any]) -> str:
    """The scenario's variants beside the base (``summary.json``'s ``variants``).

    The first side's win rate and deaths a fight under each, the difference from the base
    with its 95% paired interval (the same seeds), and the variant's note.
    """
    block = summary["variants"]
    side, n = block["side"], block["encounters"]
    under = f" under {summary['ruleset']}" if "ruleset" in summary else ""
    table = Table(title=f"variants{under}, the same {n} seeds: {side}", title_justify="left")
    for column in ("variant", "wins", "vs base\n(95% CI)", "deaths", "vs base\n(95% CI)",
                   "note"):
        text = column in ("variant", "note")
        table.add_column(column, justify="left" if text else "right", no_wrap=not text)
    first = block["variants"][0] if block["variants"] else None
    if first is not None:
        table.add_row("base", f"{first['win_rate_base']:.3f}", "", f"{first['deaths_base']:.2f}",
                      "", "as the file has it")
    for v in block["variants"]:
        lo, hi = v["win_rate_change_ci95"]
        d_lo, d_hi = v["deaths_change_ci95"]
        deaths_ci = "" if d_lo is None or d_hi is None else f"({d_lo:+.2f} to {d_hi:+.2f})"
        table.add_row(v["name"], f"{v['win_rate']:.3f}",
                      f"{v['win_rate_change']:+.3f}\n({lo:+.3f} to {hi:+.3f})",
                      f"{v['deaths']:.2f}", f"{v['deaths_change']:+.2f}\n{deaths_ci}",
                      v["note"])
    buffer = io.StringIO()
    Console(file=buffer, width=WIDTH, color_system=None).print(table)
    return "\n".join(line.rstrip() for line in buffer.getvalue().rstrip("\n").split("\n"))


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

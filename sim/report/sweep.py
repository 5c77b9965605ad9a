"""Tables and the plain-language answer for ``fray sweep``: the terminal and report.html.

Everything here reads the sweep rows (``sim.batch.sweep.sweep_row``); the cells and the way a
rate is written are ``sim.report.compare``'s, so a sweep and a comparison read alike.
"""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.table import Table

from sim.report.compare import cell
from sim.report.numbers import rate_text

# a grid's swept settings: (path, its words), one table column each
Grid = tuple[list[str], list[str]]


def sweep_header(sides: list[str], grid: Grid | None = None) -> list[str]:
    """The sweep table's columns: one per swept setting in a grid, else ``value``."""
    values = list(grid[1]) if grid else ["value"]
    return [*values, "ruleset", *(f"{side} {what}" for side in sides
                                  for what in ("win rate", "death rate")), "draws"]


def sweep_cells(row: dict[str, Any], sides: list[str], two_lines: bool = False,
                grid: Grid | None = None) -> list[str]:
    """One sweep row's cells: its value(s), ruleset, each side's rates and the draws."""
    values = [_text(row[path]) for path in grid[0]] if grid else [str(row["value"])]
    cells = [*values, row["ruleset"]]
    for side in sides:
        cells += [_rate(row, f"{side}_win", two_lines), _rate(row, f"{side}_death", two_lines)]
    cells.append(_rate(row, "draw", two_lines))
    return cells


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def sweep_table(rows: list[dict[str, Any]], sides: list[str], path: str,
                width: int = 100, grid: Grid | None = None) -> str:
    """One line per (value, ruleset): each side's win rate and death rate, with intervals.

    A grid (``grid``: its paths and their words) has one column per swept setting.
    """
    table = Table(title=f"sweep over {path} (rates with 95% intervals)", title_justify="left",
                  show_lines=True)
    ruleset_column = len(grid[0]) if grid else 1
    for k, name in enumerate(sweep_header(sides, grid)):
        table.add_column(name, justify="left" if k == ruleset_column else "right")
    for row in rows:
        table.add_row(*sweep_cells(row, sides, two_lines=True, grid=grid))
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(table)
    return buffer.getvalue().rstrip("\n")


def _rate(row: dict[str, Any], key: str, two_lines: bool = True) -> str:
    """``0.500`` over ``0.200-0.800`` (a bound missing: the value alone)."""
    return cell({"value": row[f"{key}_rate"], "ci95": [row.get(f"{key}_lo"),
                                                       row.get(f"{key}_hi")]}, 3, two_lines)


def _row_rate(row: dict[str, Any], key: str) -> str:
    return rate_text({"value": row[f"{key}_rate"],
                      "ci95": [row.get(f"{key}_lo"), row.get(f"{key}_hi")]})


def _spans(values: list[Any]) -> str:
    """``1–3, 5`` for whole numbers in a row, else the values joined by commas."""
    out: list[str] = []
    run: list[Any] = []
    for v in [*values, None]:
        whole = isinstance(v, int) and not isinstance(v, bool)
        if run and whole and v == run[-1] + 1:
            run.append(v)
            continue
        if run:
            out.append(f"{run[0]}–{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)))
            run = []
        if whole:
            run = [v]
        elif v is not None:
            out.append(str(v))
    return ", ".join(out)


def _favourites(mine: list[dict[str, Any]], sides: list[str]) -> str:
    """Which side wins more often at which values: ``the heroes win more often at 1–3, ...``.

    Where draws outnumber every side's wins, the draws lead there: a side winning 28% of
    fights is no winner when 72% are drawn (nor one winning 35% beside 40% of draws).
    """
    groups: dict[str, list[Any]] = {}
    for row in mine:
        rates = {side: row[f"{side}_win_rate"] for side in sides}
        best = max(rates.values())
        leaders = [side for side in sides if rates[side] == best]
        who = f"the {leaders[0]}" if len(leaders) == 1 else "no side (a tie)"
        if (row.get("draw_rate") or 0) > best:
            who = "neither side (draws outnumber each side's wins)"
        groups.setdefault(who, []).append(row["value"])
    if len(groups) == 1:
        who = next(iter(groups))
        return f"More often the winner at every value: {who}."
    parts = [f"{who} at {_spans(values)}" for who, values in groups.items()]
    return f"More often the winner: {'; '.join(parts)}."


def _move(first: dict[str, Any], last: dict[str, Any], key: str, of: str = "") -> str:
    """``98% [96–99%]``, or ``from 98% [96–99%] to 26% [20–33%]`` over several values.

    ``of`` follows the rates (`` of fights``), before "at both ends".
    """
    if first is last:
        return _row_rate(first, key) + of
    if first[f"{key}_rate"] == last[f"{key}_rate"]:
        return f"{_row_rate(first, key)}{of} at both ends"
    return f"from {_row_rate(first, key)} to {_row_rate(last, key)}{of}"


def sweep_answer(rows: list[dict[str, Any]], sides: list[str],
                 path: str) -> list[tuple[str, str]]:
    """The plain-language answer of a sweep, per ruleset: ``(label, text)`` paragraphs.

    How each side's win rate, its death rate per combatant and the draws move from the
    first value to the last, and which side wins more often at which values.
    """
    out = [("", f"From {rows[0]['encounters'] if rows else 0} fights per value and ruleset, "
                f"the same seed for every value (in brackets: 95% intervals).")]
    for name in dict.fromkeys(row["ruleset"] for row in rows):
        mine = [row for row in rows if row["ruleset"] == name]
        first, last = mine[0], mine[-1]
        where = (f"With {path} = {first['value']}" if len(mine) == 1 else
                 f"As {path} goes from {first['value']} to {last['value']}")
        wins = ", ".join(f"the {side} {_move(first, last, f'{side}_win')}"
                         for side in sides[1:])
        lead = sides[0]
        verb = "wins" if first.get(f"{lead}_members") == 1 else "win"
        text = (f"{where}, the {lead} {verb} {_move(first, last, f'{lead}_win', ' of fights')}"
                + (f", {wins}" if wins else "")
                + f"; draws {_move(first, last, 'draw')}. Death rate per combatant: "
                + ", ".join(f"the {side} {_move(first, last, f'{side}_death')}"
                            for side in sides)
                + f". {_favourites(mine, sides)}")
        out.append((f"Under {name}", text))
    return out


def grid_answer(rows: list[dict[str, Any]], side: str, grid: Grid,
                share: float = 0.5) -> list[str]:
    """A two-way grid in words: per ruleset, the most of the first setting ``side`` beats.

    For each value of the second setting, the highest value of the first at which ``side``
    wins at least ``share`` of its fights; neighbouring values with the same answer are
    told together ("with Wolfman strength 2–4, 6 is the highest Bandit count at which the
    heroes win half their fights or more; with 5, 8").
    """
    (x_path, y_path), (x_label, y_label) = grid[0][:2], grid[1][:2]
    out = []
    for name in dict.fromkeys(row["ruleset"] for row in rows):
        mine = [row for row in rows if row["ruleset"] == name]
        ys = list(dict.fromkeys(row[y_path] for row in mine))
        most: dict[Any, Any] = {}
        for y in ys:
            beaten = [row[x_path] for row in mine
                      if row[y_path] == y and row[f"{side}_win_rate"] >= share]
            most[y] = _highest(beaten)
        parts: list[tuple[list[Any], Any]] = []
        for y in ys:
            if parts and parts[-1][1] == most[y]:
                parts[-1][0].append(y)
            else:
                parts.append(([y], most[y]))
        said = "; ".join(
            f"with {y_label} {_spans(group)}, " + (
                f"no {x_label} tried" if top is None else f"{_text(top)} is the highest "
                f"{x_label}") for group, top in parts)
        out.append(f"Under {name}, where the {side} win {share:.0%} of their fights or more: "
                   f"{said}.")
    return out


def _highest(values: list[Any]) -> Any:
    """The greatest of ``values`` (numbers), or the last given (words); None for none."""
    if not values:
        return None
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    return max(numbers) if len(numbers) == len(values) else values[-1]

"""Tables for ``fray compare`` and ``fray sweep``: the terminal and ``report.md``.

Everything here reads the ``lethality.json`` document (``sim.results.lethality.document``,
methods included) or sweep rows; nothing is computed that is not already in them, so the
report and the JSON agree.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

Getter = Callable[[dict[str, Any]], Any]

# (label, key in a side's summary, decimals)
SIDE_ROWS: tuple[tuple[str, str, int], ...] = (
    ("win rate", "win_rate", 3),
    ("deaths per fight", "deaths_per_encounter", 2),
    ("P(at least one death)", "p_any_death", 3),
    ("death rate per combatant", "death_rate", 3),
    ("  of which after the fight", "death_rate_after", 3),
    ("out-of-fight rate", "out_rate", 3),
    ("share of the out who died", "died_share_of_out", 3),
    ("hits per attack", "hits_per_attack", 3),
    ("damage per hit (own unit)", "damage_per_hit", 2),
)
OVERALL_ROWS: tuple[tuple[str, Getter, int], ...] = (
    ("draws", lambda r: r["draw_rate"], 3),
    ("rounds to the end (mean)", lambda r: r["rounds"]["mean"], 2),
    ("  median / p90 / max", lambda r: _slash(r["rounds"], "median", "p90", "max"), 0),
    ("fights with a casualty", lambda r: r["first_casualty"]["share_with_casualty"], 3),
    ("first casualty round", lambda r: r["first_casualty"]["mean"], 2),
    ("  median / p90", lambda r: _slash(r["first_casualty"], "median", "p90"), 0),
    ("deaths per fight (all)", lambda r: r["overall"]["deaths_per_encounter"], 2),
    ("P(at least one death)", lambda r: r["overall"]["p_any_death"], 3),
    ("death rate per combatant", lambda r: r["overall"]["death_rate"], 3),
)


def _slash(block: dict[str, Any], *keys: str) -> str:
    """``5 / 9 / 20``: whole numbers without a decimal point (a median may be 5.5)."""
    return " / ".join(f"{block[k]:g}" for k in keys)


def cell(m: Any, digits: int, two_lines: bool = False) -> str:
    """``0.312 [0.290, 0.334]`` (or value over interval on two lines); strings pass through."""
    if not isinstance(m, dict):
        return str(m)
    value = f"{m['value']:.{digits}f}"
    lo, hi = m["ci95"]
    if lo is None or hi is None:
        return value
    if two_lines:
        return f"{value}\n{lo:.{digits}f}-{hi:.{digits}f}"
    return f"{value} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _sections(doc: dict[str, Any]) -> list[tuple[str, list[tuple[str, list[Any], int]]]]:
    """``(title, rows)`` with one value per ruleset in each row, sides first."""
    rulesets = doc["rulesets"]
    first = next(iter(rulesets.values()))
    out = []
    for side in first["sides"]:
        rows = [(label, [r["sides"][side][key] for r in rulesets.values()], digits)
                for label, key, digits in SIDE_ROWS]
        out.append((f"{side} ({doc['members'].get(side, '?')} per fight)", rows))
    rows = [(label, [get(r) for r in rulesets.values()], digits)
            for label, get, digits in OVERALL_ROWS]
    out.append(("the fight", rows))
    return out


def _title(doc: dict[str, Any]) -> str:
    return (f"{doc.get('scenario_name', doc['scenario'])}: {doc['encounters']} encounters per "
            f"ruleset, seed {doc['seed']}, the same encounter seeds under every ruleset")


def compare_table(doc: dict[str, Any], width: int = 100) -> str:
    """The rulesets side by side with their 95% intervals, as plain terminal text."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None)
    console.print(_title(doc), soft_wrap=True)
    names = list(doc["rulesets"])
    for title, rows in _sections(doc):
        table = Table(title=title, title_justify="left", show_lines=True)
        table.add_column("95% intervals", justify="left", no_wrap=True)
        for name in names:
            table.add_column(name, justify="right")
        for label, values, digits in rows:
            table.add_row(label, *(cell(v, digits, two_lines=True) for v in values))
        console.print(table)
    console.print(f"verdict: {doc['verdict']['text']}", soft_wrap=True)
    return buffer.getvalue().rstrip("\n")


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def report_markdown(doc: dict[str, Any], charts: bool = True) -> str:
    """``report.md``: verdict, side-by-side tables, survival by round, charts, methods."""
    names = list(doc["rulesets"])
    lines = [f"# Lethality: {doc.get('scenario_name', doc['scenario'])}", "",
             f"**Verdict:** {doc['verdict']['text']}.", "",
             _title(doc) + ". Each cell: value [95% interval]. Reproduce with "
             f"`fray compare {doc.get('scenario_file', doc['scenario'])} "
             f"--rulesets {','.join(names)} -n {doc['encounters']} --seed {doc['seed']}`.", ""]
    for title, rows in _sections(doc):
        lines += [f"## {title}", ""]
        lines += _md_table(["metric", *names],
                           [[label.strip(), *(cell(v, d) for v in values)]
                            for label, values, d in rows])
        lines.append("")
    lines += ["## Still fighting after round r", "",
              "Share of each side's combatants still in the fight after round r.", ""]
    first = doc["rulesets"][names[0]]
    for side in first["sides"]:
        top = max(len(doc["rulesets"][n]["sides"][side]["survival"]["value"]) for n in names)
        shown = list(range(1, min(top, 12) + 1))
        rows = []
        for n in names:
            curve = doc["rulesets"][n]["sides"][side]["survival"]["value"]
            last = curve[-1] if curve else 1.0
            rows.append([n, *(f"{curve[r - 1] if r <= len(curve) else last:.3f}"
                              for r in shown)])
        lines += [f"**{side}**", ""]
        lines += _md_table(["ruleset", *(f"r{r}" for r in shown)], rows)
        lines.append("")
    if charts:
        lines += ["## Charts", "", "![survival by round](survival.png)", "",
                  "![death rate per combatant](death_rate.png)", "",
                  "![rounds to the end](rounds.png)", ""]
    lines += ["## How the numbers are computed", "",
              "Each ruleset's numbers come from its `encounters.csv` "
              f"({', '.join(f'`{n}/encounters.csv`' for n in names)}). Damage is in each "
              "ruleset's own unit (ORE boxes, OpenD6 wounds or hit points, OpenCore hit "
              "points, B-Grade wounds and Shock), so compare it within a ruleset only.", ""]
    lines += [f"- `{key}`: {text}" for key, text in doc["methods"].items()]
    lines += ["", "The verdict takes the side with the most deaths over all rulesets and "
              "compares its death rate per combatant under the most and the least lethal "
              "ruleset; overlapping 95% intervals read \"about as often\".", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- sweeps
def sweep_table(rows: list[dict[str, Any]], sides: list[str], path: str,
                width: int = 100) -> str:
    """One line per (value, ruleset): each side's win rate and death rate, with intervals."""
    table = Table(title=f"sweep over {path} (rates with 95% intervals)", title_justify="left",
                  show_lines=True)
    table.add_column("value", justify="right")
    table.add_column("ruleset")
    for side in sides:
        table.add_column(f"{side} win rate", justify="right")
        table.add_column(f"{side} death rate", justify="right")
    table.add_column("draws", justify="right")
    for row in rows:
        cells = [str(row["value"]), row["ruleset"]]
        for side in sides:
            cells.append(_rate(row, f"{side}_win"))
            cells.append(_rate(row, f"{side}_death"))
        cells.append(f"{row['draw_rate']:.3f}")
        table.add_row(*cells)
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(table)
    return buffer.getvalue().rstrip("\n")


def _rate(row: dict[str, Any], key: str) -> str:
    return f"{row[f'{key}_rate']:.3f}\n{row[f'{key}_lo']:.3f}-{row[f'{key}_hi']:.3f}"

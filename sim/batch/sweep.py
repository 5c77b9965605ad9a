"""``fray sweep``: vary one value of a scenario and watch the win and death rates move.

``--set PATH=VALUES`` names a place in the scenario's raw YAML mapping (``max_rounds``,
``sides.bandits[0].count``, ``sides.heroes[0].traits.strength``, ...) and the values to put
there (``1..6``, or ``1,2,4``, or ``sword,spear``). Each value is set on a copy of the loaded
YAML data *before* validation, so a bad path or a bad value is an ordinary input error naming
the path. Every value runs with the same batch seed, so the fights differ only by the value.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sim.batch import files
from sim.batch.runner import BatchSpec, run_tally
from sim.report import reproduce
from sim.report.charts import sweep_chart
from sim.report.html import sweep_html
from sim.scenario import Scenario, parse, read_yaml
from sim.scenario.errors import ScenarioError
from sim.scenario.settings import (
    Step,
    parse_set,
    set_value,
)


def variants(raw: Any, source: str, path: str, steps: list[Step],
             values: list[Any]) -> list[tuple[Any, Scenario]]:
    """One validated scenario per value (all checked before anything runs)."""
    if not isinstance(raw, dict):
        parse(raw, source)  # raises the loader's own error for a non-mapping file
    out = []
    for value in values:
        data = set_value(raw, steps, value)
        try:
            out.append((value, parse(data, source)))
        except ScenarioError as exc:
            raise ScenarioError(f"{source} with --set {path}={value}", exc.problems) from None
    return out


def sweep_row(path: str, value: Any, summary: dict[str, Any]) -> dict[str, Any]:
    """One ``sweep.csv`` row from a ruleset's lethality summary."""
    row: dict[str, Any] = {"path": path, "value": value, "ruleset": summary["ruleset"],
                           "encounters": summary["encounters"],
                           "draw_rate": summary["draw_rate"]["value"],
                           "rounds_mean": summary["rounds"]["mean"]["value"]}
    for side, s in summary["sides"].items():
        row[f"{side}_members"] = s["members"]
        for key, metric in (("win", s["win_rate"]), ("death", s["death_rate"])):
            row[f"{side}_{key}_rate"] = metric["value"]
            row[f"{side}_{key}_lo"], row[f"{side}_{key}_hi"] = metric["ci95"]
    # added last, so the columns scripts read by position stay where they were
    row["draw_lo"], row["draw_hi"] = summary["draw_rate"]["ci95"]
    return row


def load_cases(scenario_file: str, setting: str) -> tuple[str, list[tuple[Any, Scenario]]]:
    """``--set PATH=VALUES`` on a scenario file: the path and one scenario per value."""
    path, steps, values = parse_set(setting)
    return path, variants(read_yaml(scenario_file), scenario_file, path, steps, values)


HEATMAP = "sweep_heatmap.png"  # a two-way grid's heat map
SWEEP_FILES = ("sweep.csv", "sweep.png", HEATMAP)  # and report.html with --html


def prepare_out_dir(out_dir: Path, force: bool, html: bool = False) -> None:
    """Create ``out_dir``; refuse one that holds any file the sweep writes unless ``force``.

    Raises:
        FrayInputError: the folder is a file, holds ``sweep.csv``, ``sweep.png`` or (with
            ``html``) ``report.html`` (and no ``force``), or cannot be created.
    """
    found = [name for name in SWEEP_FILES + (("report.html",) if html else ())
             if (out_dir / name).exists()]
    files.claim_out_dir(out_dir, ", ".join(found) or None, force, first="sweep.csv")


def run_sweep(path: str, cases: list[tuple[Any, Scenario]], rulesets: list[str] | None,
              n: int, *, seed: int = 1, workers: int = 1,
              advance: Callable[[int], None] | None = None,
              precision: float = 0.0) -> list[dict[str, Any]]:
    """Run every value under every ruleset (default: each variant's own); one row each.

    ``precision``: each value runs until sure (``sim.batch.precision``), ``n`` the cap.
    """
    rows = []
    for value, scen in cases:
        for name in rulesets or [scen.ruleset]:
            spec = BatchSpec(scen, name, n, seed, workers, precision=precision)
            tally = run_tally(spec, None, advance)
            rows.append(sweep_row(path, value, tally.lethality()))
    return rows


def command(rows: list[dict[str, Any]], path: str, source: str, seed: int,
            rulesets: list[str] | None = None, precision: float = 0.0) -> str:
    """The ``fray sweep`` command that runs this sweep again ("" when none can).

    ``rulesets`` is what ``run_sweep`` was given: ``None`` (each value's own ruleset) leaves
    ``--ruleset`` out, every ruleset reads ``--ruleset all``, one reads its name; several but
    not all (possible from Python only) have no ``--ruleset`` that runs them, so no command.
    """
    values = ",".join(str(v).lower() if isinstance(v, bool) else str(v)
                      for v in dict.fromkeys(row["value"] for row in rows))
    try:
        ruleset = reproduce.one_ruleset(rulesets)
    except ValueError:
        return ""
    # run until sure, each value ran as many as it took: the width, not a count, says so
    n = None if precision else (rows[0]["encounters"] if rows else 0)
    return reproduce.command("sweep", source, ("--set", f"{path}={values}"),
                             ("--ruleset", ruleset), ("-n", n),
                             ("--precision", precision or None), ("--seed", seed))


def write_outputs(rows: list[dict[str, Any]], sides: list[str], path: str,
                  out_dir: Path, *, scenario: Scenario | None = None, seed: int = 1,
                  html: bool = False, rulesets: list[str] | None = None,
                  label: str | None = None, charts: bool = True,
                  grid: tuple[list[str], list[str]] | None = None,
                  precision: float = 0.0) -> list[Path]:
    """Write ``sweep.csv`` (an empty interval bound is an empty cell) and ``sweep.png``.

    With ``html``, also ``report.html``: the answer, the table and the chart in one file.
    ``scenario`` (any of the swept variants) names the chart and the page; ``seed`` and
    ``rulesets`` (as given to ``run_sweep``) make the page's command that runs it again.
    ``label``: the swept value in words (the chart's axis); ``charts``: draw the PNGs;
    ``grid``: a two-way grid's paths and their words: a heat map too
    (``sweep_heatmap.png``, and in report.html a table with each interval on hover);
    ``precision``: the values ran until sure (the command that runs it again says so).
    """
    written = [files.write_csv(out_dir / "sweep.csv", rows)]
    images: dict[str, bytes] = {}
    slug = scenario.slug if scenario else None
    if charts:
        written.append(out_dir / "sweep.png")
        with files.atomic_path(written[-1]) as tmp:
            sweep_chart(rows, sides, label or path, tmp, scenario=slug)
        images["sweep.png"] = written[-1].read_bytes()
    if grid is not None and charts:
        from sim.report.heatmap import heatmap_chart
        written.append(out_dir / HEATMAP)
        with files.atomic_path(written[-1]) as tmp:
            heatmap_chart(rows, *grid, sides[0], tmp, scenario=slug)
    if html:
        again = (command(rows, path, scenario.source, seed, rulesets, precision)
                 if scenario and grid is None else "")
        page = sweep_html(rows, sides, label or path, images,
                          scenario=scenario.name if scenario else "", command=again,
                          grid=grid)
        written.append(files.write_text(out_dir / "report.html", page))
    return written

"""The comparing commands of ``fray``: ``convert``, ``compare`` and ``sweep``.

Thin like the rest of the CLI: parse, call ``sim.batch.compare`` / ``sim.batch.sweep`` /
``sim.report``, print. They are added to the ``fray`` group by ``sim.cli.main``.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import click

from sim import registry
from sim.batch import files, lock
from sim.batch import grid as grid_mod
from sim.batch import sweep as sweep_mod
from sim.batch.alike import alike_notes, same_fights
from sim.batch.campaign import run_compare_campaign
from sim.batch.compare import existing_results, prepare_out_dir, run_compare
from sim.batch.executors import say
from sim.batch.grid import grid_row, load_grid
from sim.batch.precision import DEFAULT as DEFAULT_PRECISION
from sim.batch.runner import BatchSpec
from sim.batch.variants import run_variants
from sim.cli import params, values
from sim.report.campaign import compare_table as campaign_compare_table
from sim.report.compare import compare_table
from sim.report.convert import conversion_text
from sim.report.sweep import grid_answer, sweep_table
from sim.report.tables import variants_table
from sim.scenario import Scenario, read_yaml
from sim.scenario.campaign import Campaign
from sim.scenario.errors import FrayInputError
from sim.scenario.settings import parse_path
from sim.scenario.variants import Variant, variants_of

EPILOG_CONVERT = "Example: fray convert scenarios/ambush.yaml --ruleset all"
EPILOG_COMPARE = ("Example: fray compare scenarios/ambush.yaml --rulesets "
                  f"{','.join(registry.names()[:2])} -n 2000 --out results/ambush-compare")
HTML_HELP = ("Also write report.html: the answer, the tables and the charts in one file that "
             "reads offline (nothing to download), to share.")
# the melee bandits (bandits[1]): the archers at the treeline never swing the ambush
EPILOG_SWEEP = ("Example: fray sweep scenarios/ambush.yaml --set 'sides.bandits[1].count=1..8' "
                "--ruleset all -n 500")


@click.command(epilog=EPILOG_CONVERT)
@params.scenario_argument()
@params.ruleset_option(default="all", show_default=True, help="Ruleset to convert to, or 'all'.")
def convert(scenario_file, ruleset):
    """Show what each combatant becomes under a ruleset.

    Prints each combatant's neutral description, then the stats, skills and gear it is built
    with under each ruleset (a native block, where given, overrides the conversion), so the
    conversion can be checked and argued with. Conversion rules: docs/comparing.md,
    "System-neutral characters".
    """
    scenario = params.load_scenario(scenario_file)
    click.echo(conversion_text(scenario, values.expand_rulesets(ruleset)))


@click.command(epilog=EPILOG_COMPARE)
@params.scenario_argument()
@click.option("--rulesets", "--ruleset", "rulesets", type=values.RulesetListType(),
              default="all", show_default=True,
              help="Comma-separated rulesets to compare, or 'all' (--ruleset, as the other "
                   "commands spell it, works too).")
@params.count_option(None, "Encounters per ruleset (for a campaign: runs); with "
                          "--precision, the cap.")
@params.precision_option(DEFAULT_PRECISION)
@params.seed_option("Batch seed; encounter i has the same seed under every ruleset.")
@params.workers_option()
@params.out_option("results/<scenario>-compare-<time>")
@params.force_option("Write into --out even if it holds results.")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted comparison in --out: finished rulesets are kept, "
                   "an interrupted one resumes, the rest run.")
@click.option("--html", is_flag=True, help=HTML_HELP)
@params.charts_option()
@params.quiet_option()
def compare(scenario_file, rulesets, count, precision, seed, workers, out_dir, force, resume, html,
            charts, quiet):
    """Run one scenario (or campaign) under several rulesets and compare how lethal they are.

    Same scenario, same encounter seeds, each ruleset in turn. Writes one subfolder per
    ruleset (summary.json, encounters.csv), and at the top of the folder lethality.json,
    report.md and charts (survival.png, death_rate.png, rounds.png), with --html also
    report.html; prints the rulesets side by side with 95% intervals and a one-line verdict.

    Given a campaign file: how far the same party gets under each ruleset (-n runs each);
    one subfolder per ruleset as fray campaign writes it, report.md and survival.png.
    """
    scenario = params.load_scenario_or_campaign(scenario_file)
    count, precision = params.run_size(count, precision, DEFAULT_PRECISION)
    if html and isinstance(scenario, Campaign):
        raise FrayInputError("--html", [("", "report.html is written for a scenario's "
                                             "comparison, not yet for a campaign's")])
    params.check_resume(resume, out_dir, "comparison", force)
    if resume and not (out_dir.is_dir() and existing_results(out_dir, rulesets)):
        raise FrayInputError(str(out_dir), [("", "no interrupted comparison to resume here (no "
                                                 "ruleset's subfolder holds results); drop "
                                                 "--resume to start one")])
    out_dir = out_dir or files.default_out_dir(scenario.slug, "compare")
    prepare_out_dir(out_dir, rulesets, force or resume)
    settings = {"seed": seed, "workers": params.workers_or_cores(workers), "resume": resume,
                "progress": lambda label: params.progress(count, label, quiet),
                "precision": precision}
    try:
        with lock.locked(out_dir):  # the top files too: one writer from first fight to last
            if isinstance(scenario, Campaign):
                summaries = run_compare_campaign(scenario, rulesets, count, out_dir,
                                                 chart=charts, **settings)
            else:
                run_compare(scenario, rulesets, count, out_dir, html=html, charts=charts,
                            ready=lambda d: click.echo(compare_table(d)), **settings)
                _variants(scenario, variants_of(scenario_file, scenario), rulesets, out_dir,
                          seed, params.workers_or_cores(workers), quiet)
    except KeyboardInterrupt:
        say(f"interrupted: finished rulesets and every finished chunk are kept in {out_dir}; "
            f"continue with the same command plus --resume --out {out_dir}")
        sys.exit(130)
    if isinstance(scenario, Campaign):
        click.echo(campaign_compare_table(summaries))
        chart = ", survival.png" if charts else ""
        click.echo(f"wrote {out_dir / 'report.md'}{chart} and one folder per ruleset "
                   "(summary.json, campaign.csv)")
        return
    extra = (", survival.png, death_rate.png, rounds.png" if charts else "") + (
        ", report.html" if html else "")
    click.echo(f"wrote {out_dir / 'report.md'}, lethality.json{extra} and one folder per "
               "ruleset")


def _variants(scenario: Scenario, variants: list[Variant], rulesets: list[str], out_dir: Path,
              seed: int, workers: int, quiet: bool) -> None:
    """The scenario's variants under each ruleset, paired with its fights there.

    Each ruleset's ``summary.json`` gains ``variants``; one table per ruleset is printed.
    """
    if not variants:
        return
    for name in rulesets:
        folder = out_dir / name
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        n = summary["encounters"]
        say(f"variants under {name}: {len(variants)} more batches of {n} fights")
        spec = BatchSpec(scenario, name, n, seed, workers)
        with params.progress(n, f"{scenario.slug} [{name}] variants", quiet) as advance:
            summary["variants"] = run_variants(spec, variants, folder / "encounters.csv", n,
                                               advance)
        files.write_json(folder / "summary.json", summary)
        click.echo(variants_table(summary))


@click.command(epilog=EPILOG_SWEEP)
@params.scenario_argument()
@click.option("--set", "settings", required=True, multiple=True, metavar="PATH=VALUES",
              help="A scenario value to vary: PATH into the YAML (max_rounds, "
                   "sides.<side>[i].<key>, sides.<side>[i].traits.strength, ...) and VALUES "
                   "as a..b (whole numbers) or a comma list. Two or more --set run every "
                   "combination (a grid; with two, a heat map too).")
@params.ruleset_option(help="Ruleset, or 'all' (default: the scenario's).")
@params.count_option(None, "Encounters per value and ruleset (with --precision: the cap).")
@params.precision_option(DEFAULT_PRECISION)
@params.seed_option("Batch seed, the same for every value.")
@params.workers_option()
@params.out_option("results/<scenario>-sweep-<time>")
@params.force_option("Overwrite sweep.csv, sweep.png, sweep_heatmap.png and report.html in "
                     "--out.")
@click.option("--html", is_flag=True, help=HTML_HELP)
@params.charts_option()
@params.quiet_option()
def sweep(scenario_file, settings, ruleset, count, precision, seed, workers, out_dir, force,
          html, charts, quiet):
    """Vary scenario values (a grid for several); report win and death rates for each.

    Writes sweep.csv (one row per value, or combination, and ruleset) and sweep.png (with
    two --set also sweep_heatmap.png; with --html also report.html), and prints a table
    first. Each value runs until its rates are known to +-0.02 unless -n or --precision
    says otherwise.
    """
    count, precision = params.run_size(count, precision, DEFAULT_PRECISION)
    grid = None
    if len(settings) > 1:
        paths, labels, combos = load_grid(scenario_file, settings)
        path, label = "; ".join(paths), " and ".join(labels)
        cases: list = combos
        grid = (paths, labels)
    else:
        path, cases = sweep_mod.load_cases(scenario_file, settings[0])
        label = grid_mod.label(parse_path(path), read_yaml(scenario_file))
    rulesets = values.expand_rulesets(ruleset)
    slug, sides = cases[0][1].slug, list(cases[0][1].side_names)
    out_dir = out_dir or files.default_out_dir(slug, "sweep")
    sweep_mod.prepare_out_dir(out_dir, force, html)
    with lock.locked(out_dir):  # one writer, from the first fight to the last byte
        _sweep(cases, path, label, grid, rulesets, sides, count, precision, seed, workers,
               out_dir, html, charts, quiet)


def _sweep(cases: list, path: str, label: str, grid: tuple[list[str], list[str]] | None,
           rulesets: list[str] | None, sides: list[str], count: int, precision: float,
           seed: int, workers: int | None, out_dir: Path, html: bool, charts: bool,
           quiet: bool) -> None:
    """Run every value of a claimed sweep, print its table, write its files."""
    slug = cases[0][1].slug
    total = count * len(cases) * (len(rulesets) if rulesets else 1)
    with params.progress(total, f"{slug} sweep {label}", quiet) as advance:
        rows = sweep_mod.run_sweep(path, cases, rulesets, count, seed=seed,
                                   workers=params.workers_or_cores(workers), advance=advance,
                                   precision=precision)
    alike = alike_notes(same_fights(cases, rows, rulesets), label)
    if grid is not None:
        rows = [grid_row(row, grid[0], combo)
                for row, combo in zip(rows, [c for c, _ in cases
                                             for _ in range(len(rulesets or [0]))],
                                      strict=True)]
    click.echo(sweep_table(rows, sides, label, grid=grid))
    if grid is not None and len(grid[0]) == 2 and sides:
        for line in grid_answer(rows, sides[0], grid):
            click.echo(textwrap.fill(line, 100, subsequent_indent="  "))
    for note in alike:
        click.echo(note)
    written = sweep_mod.write_outputs(rows, sides, path, out_dir, scenario=cases[0][1],
                                      seed=seed, html=html, rulesets=rulesets, label=label,
                                      charts=charts, grid=grid if grid and len(grid[0]) == 2
                                      else None, precision=precision)
    click.echo("wrote " + ", ".join(str(p) for p in written[:-1])
               + (f" and {written[-1]}" if len(written) > 1 else str(written[-1])))

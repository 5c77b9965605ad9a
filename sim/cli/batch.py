"""``fray batch``: many encounters of one scenario, under one ruleset or all of them."""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from sim.batch import examples, files, lock
from sim.batch.compare import resume_step
from sim.batch.contribution import run_contribution
from sim.batch.executors import say
from sim.batch.parquet import write_parquet
from sim.batch.precision import stop_text
from sim.batch.runner import BatchSpec, run_tally, summary_of
from sim.batch.variants import run_variants
from sim.cli import params, values
from sim.report.batchpage import batch_html
from sim.report.coverage import coverage_text
from sim.report.examples import text_block
from sim.report.tables import batch_table, contribution_table, fighter_table, variants_table
from sim.results.difficulty import of_entry
from sim.scenario import safefile
from sim.scenario.errors import FrayInputError
from sim.scenario.variants import Variant, variants_of

EPILOG_BATCH = "Example: fray batch scenarios/ambush.yaml -n 2000 --workers 2"


@click.command(epilog=EPILOG_BATCH)
@params.scenario_argument()
@params.count_option(1000, "Number of encounters (with --precision: the cap).")
@params.precision_option(0)
@params.ruleset_option(help="Ruleset, or 'all' for one subfolder per ruleset (default: the "
                            "scenario's).")
@params.seed_option("Batch seed; encounter i runs with a seed derived from (seed, i).")
@params.workers_option()
@params.out_option("results/<scenario>-<ruleset>-<time>")
@params.force_option("Write into --out even if it holds results (they are replaced).")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted batch in --out (same scenario and options).")
@params.executor_options("Encounters")
@click.option("--by", "by", type=click.Choice(["side", "fighter"]), default="side",
              show_default=True,
              help="The table per side; with fighter, one row per combatant after it.")
@click.option("--parquet", is_flag=True,
              help="Also write encounters.parquet (needs the [parquet] extra).")
@click.option("--html", "html_dir", metavar="DIR", type=params.FolderPath(),
              help="Also write DIR/report.html and a replay page for each example fight "
                   "(one subfolder per ruleset with --ruleset all).")
@click.option("--contribution", is_flag=True,
              help="Each fighter's worth to its side: the batch again without it, on the "
                   "same seeds (one more batch per fighter).")
@params.quiet_option()
def batch(scenario_file, count, precision, ruleset, seed, workers, out_dir, force, resume,
          executor, scheduler, chunk_size, by, parquet, html_dir, contribution, quiet):
    """Run many encounters; write summary.json and encounters.csv; print a summary.

    Rows stream to disk as chunks finish; Ctrl-C keeps every finished chunk, and
    --resume continues the batch later with output identical to an uninterrupted run.
    """
    scenario = params.load_scenario(scenario_file)
    variants = variants_of(scenario_file, scenario)  # all checked before the first fight
    count, precision = params.run_size(count, precision, 0)
    params.check_executor(executor, scheduler, parquet)
    params.check_resume(resume, out_dir, "batch", force)
    names = values.expand_rulesets(ruleset) or [scenario.ruleset]
    label = "all" if ruleset == "all" else names[0]
    base = out_dir or files.default_out_dir(scenario.slug, label)
    targets = files.batch_targets(base, names)
    if len(names) > 1:  # one subfolder per ruleset, named by fray: never a planted link
        lock.refuse_if_in_use(base)
        files.make_out_dir(base)
        for target in targets.values():
            safefile.make_dir(target)
    if not resume:
        for target in targets.values():
            files.claim_batch_dir(target, force,
                                  writes=("encounters.parquet",) if parquet else ())
    pages = pages_dirs(html_dir, names, force)
    specs = {name: BatchSpec(scenario, name, count, seed, params.workers_or_cores(workers),
                             chunk_size or 0, executor, scheduler, precision=precision)
             for name in names}
    # several rulesets resume as fray compare does: finished ones kept, the interrupted one
    # resumed, the rest run; one alone must have been interrupted (run_batch says so)
    steps = {name: resume_step(specs[name], targets[name], resume) for name in names}
    several = len(names) > 1
    if resume and several and set(steps.values()) == {"start"}:
        raise FrayInputError(str(base), [("", "no interrupted batch to resume here (no "
                                              "ruleset's subfolder holds one)")])
    # several rulesets: ``base`` is held from the first fight to the last byte too (each
    # ruleset's batch holds its own subfolder)
    with lock.locked(base) if several else contextlib.nullcontext():
        _run_all(specs, targets, steps, base, resume, parquet, by, quiet, pages,
                 Extras(contribution, variants))


def pages_dirs(html_dir: Path | None, names: list[str], force: bool) -> dict[str, Path]:
    """Where ``--html`` writes each ruleset's report.html and replay pages (none: {}).

    Claimed before the first fight: a report.html already there needs ``--force``.
    """
    if html_dir is None:
        return {}
    dirs = {name: html_dir / name if len(names) > 1 else html_dir for name in names}
    for folder in dirs.values():
        files.claim_out_file(folder / "report.html", force)
    return dirs


def _write_pages(spec: BatchSpec, summary: dict[str, Any], folder: Path) -> None:
    """``report.html`` and each example's replay page in ``folder``."""
    files.make_out_dir(folder)
    written = examples.write_pages(spec.scenario, spec.ruleset, summary["examples"], folder)
    links = {e["name"]: path.name for e, path in zip(summary["examples"], written,
                                                      strict=True)}
    report = files.write_text(folder / "report.html",
                              batch_html(summary, links, spec.scenario.source or "SCENARIO"))
    click.echo(f"wrote {report} and {len(written)} replay pages")


def _run_all(specs: dict[str, BatchSpec], targets: dict[str, Path], steps: dict[str, str],
             base: Path, resume: bool, parquet: bool, by: str, quiet: bool,
             pages: dict[str, Path], extras: Extras | None = None) -> None:
    """Each ruleset's batch in turn (a finished one kept on ``resume``), its table printed."""
    several = len(targets) > 1
    kept = False  # whether a ruleset's results are kept in ``base`` (for the interrupt hint)
    for name, target in targets.items():
        if steps[name] == "keep":
            say(f"{target}: already complete")
            kept = True
            continue
        if several:  # a link planted since the start is refused, not written through
            safefile.make_dir(target)
        tally = _run(specs[name], target, quiet,
                     resume and (steps[name] == "resume" or not several),
                     base if several else target, kept)
        summary = summary_of(specs[name], tally)
        kept = True
        summary = _extras(specs[name], target, summary, extras or Extras(), quiet)
        if parquet:
            write_parquet(target)
        # who wins comes first, whatever --by says
        click.echo(batch_table(summary, of_entry(tally.lethality())))
        if "precision" in summary:
            click.echo(stop_text(summary["precision"]))
        click.echo(text_block(summary))
        if "coverage" in summary:
            click.echo(coverage_text(summary["coverage"]))
        if by == "fighter":
            click.echo(fighter_table(summary))
        if "variants" in summary:
            click.echo(variants_table(summary))
        if "contribution" in summary:
            click.echo(contribution_table(summary))
        if name in pages:
            _write_pages(specs[name], summary, pages[name])
        also = f" and {target / 'encounters.parquet'}" if parquet else ""
        click.echo(f"wrote {target / 'summary.json'}, {target / 'encounters.csv'}{also}")


@dataclass(frozen=True)
class Extras:
    """What a batch fights besides itself: each fighter left out, the scenario's variants."""

    contribution: bool = False
    variants: list[Variant] = field(default_factory=list)


def _extras(spec: BatchSpec, target: Path, summary: dict[str, Any], extras: Extras,
            quiet: bool) -> dict[str, Any]:
    """The variants and each fighter's worth, paired with the batch; summary.json rewritten."""
    n = summary["encounters"]
    more = dict(summary)
    if extras.variants:
        say(f"variants: {len(extras.variants)} more batches of {n} fights on the same seeds")
        with params.progress(n, f"{spec.scenario.slug} [{spec.ruleset}] variants", quiet
                             ) as advance:
            more["variants"] = run_variants(spec, extras.variants, target / "encounters.csv",
                                            n, advance)
    if extras.contribution:
        cases = len(summary["combatants"])
        say(f"contribution: {cases} more batches of {n} fights (one per fighter left out)")
        with params.progress(n, f"{spec.scenario.slug} [{spec.ruleset}] without each", quiet
                             ) as advance:
            more["contribution"] = run_contribution(spec, target / "encounters.csv", n,
                                                    advance)
    if more != summary:
        files.write_json(target / "summary.json", more)
    return more


def _run(spec: BatchSpec, target: Path, quiet: bool, resume: bool, resume_out: Path,
         kept: bool) -> Any:
    """One batch with a progress bar; Ctrl-C says how to resume and exits 130.

    ``resume_out``: the folder ``--resume --out`` names (``target``, or its parent for
    several rulesets); ``kept``: earlier rulesets' results are kept there.
    """
    try:
        with params.progress(spec.n, f"{spec.scenario.slug} [{spec.ruleset}]", quiet) as advance:
            return run_tally(spec, target, advance, resume=resume)
    except KeyboardInterrupt:
        state = files.read_state(target)
        hint = f"continue with the same command plus --resume --out {resume_out}"
        if state is not None:
            say(f"interrupted: {state['rows']} of {spec.n} encounters kept in {target}; {hint}")
        elif kept:  # not one chunk of this ruleset, but earlier rulesets finished
            say(f"interrupted before any encounter of {spec.ruleset} finished: the finished "
                f"rulesets are kept in {resume_out}; {hint}")
        else:  # not one chunk finished: nothing kept, nothing to resume
            say(f"interrupted before any encounter finished: nothing kept in {target}")
        sys.exit(130)

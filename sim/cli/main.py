"""The ``fray`` command: thin click commands that parse, call and print.

Exit codes: 0 success; 2 bad input (a bad option, an unreadable or invalid scenario), with
a message naming the file and the field and never a traceback; 1 an unexpected failure.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import click

from sim import __version__
from sim.rulesets import registry
from sim.scenario.errors import FrayInputError

EPILOG_RUN = "Example: fray run scenarios/duel.yaml --seed 7 --format markdown"
EPILOG_BATCH = "Example: fray batch scenarios/ambush.yaml -n 2000 --workers 2"


class RulesetType(click.ParamType):
    """A registered ruleset name (``all`` too where allowed), with a suggestion on typos."""

    name = "ruleset"

    def __init__(self, allow_all: bool = False):
        self.allow_all = allow_all

    def convert(self, value, param, ctx):
        """Return ``value`` if registered, else fail with the nearest name."""
        allowed = registry.names() + (["all"] if self.allow_all else [])
        if value in allowed:
            return value
        from sim.scenario.errors import unknown

        self.fail(unknown("ruleset", value, allowed), param, ctx)


def _load(path: str):
    from sim import scenario

    return scenario.load(path)


def _check_scheduler(ctx, param, value: str) -> str:
    """``local`` or ``tcp://HOST:PORT``."""
    import re

    if value == "local" or re.fullmatch(r"(tcp|tls)://[^\s:/]+:\d{1,5}", value):
        return value
    raise click.BadParameter(f"expected 'local' or tcp://HOST:PORT, got {value!r}", ctx, param)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fray")
def cli() -> None:
    """fray: simulate fights under dice-pool tabletop RPG rules.

    Batch-test encounters (win rates, deaths), read one fight as a solo-play log, and
    compare how lethal rulesets are with the same people and weapons.
    """


@cli.command(epilog=EPILOG_RUN)
@click.argument("scenario_file", metavar="SCENARIO", type=click.Path())
@click.option("--ruleset", type=RulesetType(), help="Ruleset to use (default: the scenario's).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Encounter seed; a batch's encounters.csv lists each fight's seed.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "jsonl"]),
              default="text", show_default=True, help="Log format.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the log to FILE instead of the terminal.")
@click.option("--force", is_flag=True, help="Overwrite --output if it exists.")
def run(scenario_file, ruleset, seed, fmt, output, force):
    """Run one encounter and tell it round by round."""
    from sim.core.engine import run_encounter
    from sim.report.log import render

    scenario = _load(scenario_file)
    if output is not None and output.exists() and not force:
        raise FrayInputError(str(output), [("", "file exists; use --force to overwrite it")])
    _, events = run_encounter(scenario, ruleset, seed, log=True)
    text = render(events, fmt)
    if output is None:
        click.echo(text, nl=False)
    else:
        tmp = output.with_name(f".{output.name}.part")
        try:
            tmp.write_text(text)
            os.replace(tmp, output)
        except OSError as exc:  # a missing folder, no permission: bad input, not a crash
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise FrayInputError(str(output), [("", f"cannot write: {exc.strerror}")]) from None
        click.echo(f"wrote {output}", err=True)


@cli.command(epilog=EPILOG_BATCH)
@click.argument("scenario_file", metavar="SCENARIO", type=click.Path())
@click.option("-n", "count", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Number of encounters.")
@click.option("--ruleset", type=RulesetType(allow_all=True),
              help="Ruleset, or 'all' for one subfolder per ruleset (default: the scenario's).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Batch seed; encounter i runs with a seed derived from (seed, i).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Output folder (default: results/<scenario>-<ruleset>-<time>).")
@click.option("--force", is_flag=True,
              help="Write into --out even if it holds results (they are replaced).")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted batch in --out (same scenario and options).")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Local process pool, or a Dask cluster.")
@click.option("--scheduler", default="local", show_default=True, callback=_check_scheduler,
              help="Dask scheduler address (tcp://HOST:PORT), or 'local' for a LocalCluster.")
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="Encounters per chunk (default: from -n and --workers, at most 1000).")
@click.option("--parquet", is_flag=True,
              help="Also write encounters.parquet (needs the [parquet] extra).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def batch(scenario_file, count, ruleset, seed, workers, out_dir, force, resume, executor,
          scheduler, chunk_size, parquet, quiet):
    """Run many encounters; write summary.json and encounters.csv; print a summary.

    Rows stream to disk as chunks finish; Ctrl-C keeps every finished chunk, and
    --resume continues the batch later with output identical to an uninterrupted run.
    """
    from sim.batch.runner import (
        STATE,
        BatchSpec,
        interrupted,
        make_out_dir,
        results_in,
        run_batch,
        write_parquet,
    )
    from sim.report.tables import batch_table, progress_bar

    scenario = _load(scenario_file)
    if executor == "local" and scheduler != "local":
        raise FrayInputError("--scheduler", [("", "only used with --executor dask")])
    if parquet:
        _need("pyarrow", "--parquet", "parquet")
    if executor == "dask":
        _need("distributed", "--executor dask", "dask")
    rulesets = registry.names() if ruleset == "all" else [ruleset or scenario.ruleset]
    workers = workers or os.cpu_count() or 1
    stamp = time.strftime("%Y%m%d-%H%M%S")
    label = "all" if ruleset == "all" else rulesets[0]
    base = out_dir or Path("results") / f"{scenario.slug}-{label}-{stamp}"
    targets = {name: (base / name if len(rulesets) > 1 else base) for name in rulesets}
    if resume and out_dir is None:
        raise FrayInputError("--resume", [("", "name the folder of the interrupted batch "
                                           "with --out DIR")])
    for target in targets.values():
        if resume:
            continue
        found = results_in(target)
        if STATE in found and not force:
            raise FrayInputError(str(target), [("", "folder holds an interrupted batch; use "
                                                "--resume to continue it, or --force to "
                                                "start over")])
        if found and not force:
            raise FrayInputError(str(target), [("", "folder already holds results "
                                                "(summary.json or encounters.csv); use --force "
                                                "to overwrite, or choose another --out")])
        make_out_dir(target)
    for name, target in targets.items():
        if resume and results_in(target) and interrupted(target) is None:
            click.echo(f"{target}: already complete", err=True)
            continue
        spec = BatchSpec(scenario, name, count, seed, workers, chunk_size or 0, executor,
                         scheduler)
        try:
            with progress_bar(count, f"{scenario.slug} [{name}]", quiet) as advance:
                summary = run_batch(spec, target, advance, resume=resume)
        except KeyboardInterrupt:
            state = interrupted(target) or {"rows": 0}
            click.echo(f"interrupted: {state['rows']} of {count} encounters kept in {target}; "
                       f"continue with the same command plus --resume --out {target}", err=True)
            sys.exit(130)
        if parquet:
            write_parquet(target)
        click.echo(batch_table(summary))
        also = f" and {target / 'encounters.parquet'}" if parquet else ""
        click.echo(f"wrote {target / 'summary.json'}, {target / 'encounters.csv'}{also}")


def _need(module: str, option: str, extra: str) -> None:
    """Fail before any work when an option's optional dependency is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise FrayInputError(option, [("", f"needs {module}; install the extra with: "
                                           f"pip install -e '.[{extra}]'")])


@cli.command()
@click.argument("scenario_files", metavar="SCENARIO...", nargs=-1, required=True)
def validate(scenario_files):
    """Check scenario files; print OK per valid file.

    Example: fray validate scenarios/*.yaml
    """
    from sim.scenario.errors import ScenarioError

    bad = 0
    for path in scenario_files:
        try:
            _load(path)
        except ScenarioError as exc:
            bad += 1
            click.echo(exc.render(), err=True)
        else:
            click.echo(f"{path}: OK")
    if bad:
        sys.exit(2)


@cli.command("rulesets")
def rulesets_command():
    """List the registered rulesets.

    Example: fray rulesets
    """
    for name, summary in registry.describe():
        click.echo(f"{name:<10} {summary}")


def _add_compare_commands() -> None:
    """``convert``, ``compare`` and ``sweep`` live in ``sim.cli.compare``."""
    from sim.cli.compare import compare, convert, sweep

    for command in (convert, compare, sweep):
        cli.add_command(command)


_add_compare_commands()


def main() -> None:
    """Entry point: run the CLI, turning input errors into exit code 2."""
    try:
        cli.main(prog_name="fray", standalone_mode=False)
    except FrayInputError as exc:
        click.echo(f"error: {exc.render()}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # an unexpected failure: exit 1 with a short message
        if os.environ.get("FRAY_DEBUG"):
            raise
        click.echo(f"internal error: {type(exc).__name__}: {exc} "
                   f"(set FRAY_DEBUG=1 for the traceback)", err=True)
        sys.exit(1)

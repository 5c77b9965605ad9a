"""What the ``fray`` commands share: parameter types, options, checks of option values.

One home for each: the options several commands take (their values' types:
``sim.cli.values``) (``-n``, ``--seed``, ``--workers``, ``--out``, ...), the
scheduler and executor checks, and loading the scenario a command names.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from sim import scenario as scenario_mod
from sim.batch.stops import stderr_gone
from sim.cli.values import MAX_COUNT, RulesetType, WholeNumber, Width
from sim.scenario import bundled
from sim.scenario.campaign import Campaign, is_campaign, parse_campaign
from sim.scenario.errors import FrayInputError
from sim.scenario.variants import variants_of

SCHEDULER = re.compile(r"(tcp|tls)://[^\s:/]+:\d{1,5}")

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


# ---------------------------------------------------------------------------- options
def ruleset_option(allow_all: bool = True, **kwargs: Any) -> Decorator:
    """``--ruleset NAME`` (or ``all``)."""
    return click.option("--ruleset", type=RulesetType(allow_all=allow_all), **kwargs)


MAX_WORKERS = 256  # processes on one machine; a cluster is for more
MAX_ROLLOUTS = 100_000  # rollouts of one line at a ``?``: hours on a long menu, past any need


PRECISION_CAP = 20_000  # the default -n of a run until sure: a cap far above any need at +-0.02


def count_option(default: int | None, help: str) -> Decorator:  # noqa: A002 - click's name
    """``-n N``: encounters (per batch), from 1 to ``MAX_COUNT``.

    ``default`` None: a command that runs until sure when ``-n`` is not given
    (``run_size``); its help says so, not a count it never runs (it showed 1000 there).
    """
    if default is None:
        return click.option("-n", "count", type=WholeNumber(min=1, max=MAX_COUNT),
                            default=PRECISION_CAP, show_default=False,
                            help=f"{help} Without -n: until sure (--precision), at most "
                                 f"{PRECISION_CAP}.")
    return click.option("-n", "count", type=WholeNumber(min=1, max=MAX_COUNT),
                        default=default, show_default=True, help=help)


def precision_option(default: float) -> Decorator:
    """``--precision W``: run until every watched 95% interval is within +-W.

    ``default`` (0: none) applies when ``-n`` is not given; ``-n`` alone runs exactly that
    many, and given with ``--precision`` it is the cap (``run_size``).
    """
    told = (f" Default: {default:g} when -n is not given (-n alone runs exactly -n)."
            if default else "")
    return click.option(
        "--precision", type=Width(), default=None,
        metavar="W",
        help="Run chunks until the 95% interval of every side's win rate and death rate is "
             "at most +-W (e.g. 0.02), then stop and say how many fights it took; -n is "
             f"then the cap; 0 runs exactly -n.{told}")


def run_size(count: int, precision: float | None, default: float) -> tuple[int, float]:
    """``(n, precision)`` of a run from ``-n`` and ``--precision`` as given.

    ``--precision`` given: ``-n`` (given, or ``PRECISION_CAP``) is the cap. Not given: a
    command's default precision holds when ``-n`` is not given either; ``-n`` alone runs
    exactly ``-n`` fights, as before run-until-sure existed.
    """
    ctx = click.get_current_context()
    n_given = ctx.get_parameter_source("count") not in (
        click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP, None)
    if precision is None:
        precision = 0.0 if n_given else default
    if precision and not n_given:
        count = PRECISION_CAP
    return count, precision


def seed_option(help: str) -> Decorator:  # noqa: A002 - click's name
    """``--seed N`` (0 or more, default 1)."""
    return click.option("--seed", type=WholeNumber(min=0), default=1, show_default=True,
                        help=help)


def rollouts_option(help: str) -> Decorator:  # noqa: A002 - click's name
    """``--rollouts N``: how many times ``?`` at a played menu weighs each line (200)."""
    return click.option("--rollouts", type=WholeNumber(1, MAX_ROLLOUTS), default=200,
                        show_default=True, help=help)


def all_rollouts_option() -> Decorator:
    """``--all-rollouts``: every line of a menu weighed to the end (no race, ``whatif``)."""
    return click.option("--all-rollouts", is_flag=True,
                        help="Give every line all its rollouts (slower). By default a line "
                             "behind the best at a look, a quarter or half of them in, stops "
                             "there, and says so.")


def workers_option() -> Decorator:
    """``--workers K`` (default: all cores, see ``workers_or_cores``)."""
    return click.option("--workers", type=WholeNumber(min=1, max=MAX_WORKERS), default=None,
                        help="Worker processes (default: all cores).")


class FilePath(click.Path):
    """A file to write (``--output``, ``--html``, ...), never the empty name.

    ``Path('')`` is the current folder: the write would then fail naming ``.``, which says
    nothing of the option given empty.
    """

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        """Refuse ``''`` (and blanks), saying what the option takes."""
        if isinstance(value, str) and not value.strip():
            self.fail("an empty file name; name the file to write (a path such as "
                      "fight.txt, in a folder that exists)", param, ctx)
        return super().convert(value, param, ctx)


class FolderPath(click.Path):
    """``--out DIR``: a folder, never the empty name (``Path('')`` is the current folder)."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        """Refuse ``''`` (and blanks), which would write into the current folder."""
        if isinstance(value, str) and not value.strip():
            self.fail("an empty folder name; name a folder (--out . for the current one)",
                      param, ctx)
        return super().convert(value, param, ctx)


def out_option(default: str) -> Decorator:
    """``--out DIR``, with the default folder described in the help."""
    return click.option("--out", "out_dir", type=FolderPath(),
                        help=f"Output folder (default: {default}).")


def force_option(help: str) -> Decorator:  # noqa: A002 - click's name
    """``--force``."""
    return click.option("--force", is_flag=True, help=help)


def charts_option() -> Decorator:
    """``--no-charts``: no PNG (the tables and the answer come first either way)."""
    return click.option("--charts/--no-charts", default=True, show_default=True,
                        help="Draw the PNG charts (after the tables are printed).")


def quiet_option() -> Decorator:
    """``--quiet``/``-q``: no progress bar."""
    return click.option("--quiet", "-q", is_flag=True, help="No progress bar.")


def executor_options(unit: str) -> Decorator:
    """``--executor``, ``--scheduler`` and ``--chunk-size`` (``unit``: what a chunk holds)."""
    options = (
        click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
                     show_default=True, help="Local process pool, or a Dask cluster."),
        click.option("--scheduler", default="local", show_default=True,
                     callback=check_scheduler,
                     help="Dask scheduler address (tcp://HOST:PORT), or 'local' for a "
                          "LocalCluster."),
        click.option("--chunk-size", type=WholeNumber(min=1), default=None,
                     help=f"{unit} per chunk (default: from -n and --workers, at most 1000)."),
    )

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def scenario_argument(required: bool = True) -> Decorator:
    """The ``SCENARIO`` file argument (read by ``load_scenario``, errors exit 2).

    A bare name that is no file here is a bundled scenario's (``fray run duel``,
    ``bundled.named``). ``required``: False where another option can give it (a record).
    """
    return click.argument("scenario_file", metavar="SCENARIO", type=click.Path(),
                          required=required, callback=bundled_file)


def bundled_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``value``, or the bundled scenario a bare name that is no file stands for."""
    if value is None or os.path.exists(value):
        return value
    found = bundled.named(value)
    return value if found is None else str(found)


# ---------------------------------------------------------------------------- checks
def load_scenario(path: str) -> scenario_mod.Scenario:
    """The scenario at ``path``; an unreadable or invalid file raises ``ScenarioError``."""
    return scenario_mod.load(path)


def load_scenario_or_campaign(path: str) -> scenario_mod.Scenario | Campaign:
    """A scenario, or a campaign (a file with ``stages``), each validated as such."""
    data = scenario_mod.read_yaml(path)
    if is_campaign(data):
        return parse_campaign(data, path)
    scenario = scenario_mod.parse(data, path)
    variants_of(path, scenario)  # each variant checked as a scenario of its own
    return scenario


def workers_or_cores(workers: int | None) -> int:
    """``--workers``, or every core of this machine."""
    return workers or os.cpu_count() or 1


def check_scheduler(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--scheduler`` callback: ``local`` or ``tcp://HOST:PORT``."""
    if value == "local" or SCHEDULER.fullmatch(value):
        return value
    raise click.BadParameter(f"expected 'local' or tcp://HOST:PORT, got {value!r}", ctx, param)


def check_executor(executor: str, scheduler: str, parquet: bool = False) -> None:
    """Fail before any work on an option that cannot be used as given.

    Raises:
        FrayInputError: ``--scheduler`` without ``--executor dask``, or an option whose
            optional dependency is not installed.
    """
    if executor == "local" and scheduler != "local":
        raise FrayInputError("--scheduler", [("", "only used with --executor dask")])
    if parquet:
        need("pyarrow", "--parquet", "parquet")
    if executor == "dask":
        need("distributed", "--executor dask", "dask")


def need(module: str, option: str, extra: str) -> None:
    """Fail before any work when an option's optional dependency is missing."""
    if importlib.util.find_spec(module) is None:
        raise FrayInputError(option, [("", f"needs {module}; install the extra with: "
                                           f"pip install -e '.[{extra}]'")])


def check_resume(resume: bool, out_dir: Path | None, what: str, force: bool = False) -> None:
    """``--resume`` needs the folder of the interrupted ``what`` (``--out DIR``), not --force."""
    if resume and force:
        raise FrayInputError("--resume", [("", "--resume keeps what is in --out, --force "
                                           "replaces it: give one of them")])
    if resume and out_dir is None:
        raise FrayInputError("--resume", [("", f"name the folder of the interrupted {what} "
                                           "with --out DIR")])


# ---------------------------------------------------------------------------- output
def progress_bar(total: int, label: str, quiet: bool = False) -> Any:
    """``sim.report.tables.progress_bar``, imported (with rich) only by a run that shows one.

    By name, as ``sim.cli.main`` imports the commands: ``fray validate`` shares this module
    and never draws a bar.
    """
    return importlib.import_module("sim.report.tables").progress_bar(total, label, quiet)


@contextlib.contextmanager
def progress(total: int, label: str, quiet: bool = False) -> Iterator[Callable[[int], None]]:
    """``progress_bar``, which never decides how a run ends.

    A terminal closed while the bar is shown makes its last drawing fail (EIO): the stop
    (or the finished run) goes on as if the bar had been drawn, stderr then goes nowhere.
    """
    bar = progress_bar(total, label, quiet)
    advance = bar.__enter__()
    try:
        yield advance
    except BaseException as exc:
        try:
            bar.__exit__(type(exc), exc, exc.__traceback__)
        except OSError:
            stderr_gone()
        raise
    try:
        bar.__exit__(None, None, None)
    except OSError:
        stderr_gone()

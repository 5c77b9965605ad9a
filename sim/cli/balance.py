"""``fray balance``: which value of a setting brings a rate nearest a target."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

from sim.batch import files, lock
from sim.batch.balance import METRIC_WORDS, METRICS, Problem, document, search
from sim.batch.grid import company
from sim.batch.grid import label as path_label
from sim.batch.precision import DEFAULT as DEFAULT_PRECISION
from sim.cli import params, values
from sim.report import balance as report
from sim.scenario import read_yaml
from sim.scenario.errors import FrayInputError
from sim.scenario.reading import MAX_NUMBER_CHARS
from sim.scenario.settings import MAX_VALUES, parse_path

# the melee bandits: the archers (bandits[0]) never bring the heroes down to an even fight,
# so an example that varies them ends "the target lies beyond the range"
EPILOG_BALANCE = ("Example: fray balance scenarios/ambush.yaml --vary 'sides.bandits[1].count' "
                  "--range 1..12 --target 0.5")


def _range(text: str) -> tuple[int, int]:
    """``--range A..B``: two whole numbers, bounded as ``fray sweep`` bounds a range.

    At most ``MAX_NUMBER_CHARS`` digits each, and at most ``MAX_VALUES`` values between.
    """
    m = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", text)
    if m is None:
        shown = repr(text if len(text) <= 40 else text[:37] + "...")
        raise FrayInputError("--range", [("", f"expected two whole numbers a..b, e.g. 1..8; "
                                              f"got {shown}")])
    if max(len(m.group(1)), len(m.group(2))) > MAX_NUMBER_CHARS:
        raise FrayInputError("--range", [("", f"a number of more than {MAX_NUMBER_CHARS} "
                                              "digits; give two whole numbers a..b whose "
                                              f"range holds at most {MAX_VALUES} values")])
    low, high = int(m.group(1)), int(m.group(2))
    if abs(high - low) + 1 > MAX_VALUES:
        raise FrayInputError("--range", [("", f"{low}..{high} holds {abs(high - low) + 1:,} "
                                              f"values; at most {MAX_VALUES} (split the "
                                              "search, or narrow it first)")])
    return low, high


@click.command(epilog=EPILOG_BALANCE)
@params.scenario_argument()
@click.option("--vary", "path", required=True, metavar="PATH",
              help="The value to vary, a path as fray sweep --set takes it (a count, a trait, "
                   "a skill, a numeric option).")
@click.option("--range", "span", required=True, metavar="A..B",
              help="The whole numbers to search, both ends included (at most "
                   f"{MAX_VALUES} values).")
@click.option("--target", type=values.Number(0, 1), required=True, metavar="P",
              help="The rate wanted, from 0 to 1 (0.5: an even fight).")
@click.option("--metric", type=click.Choice(METRICS), default="win", show_default=True,
              help="win: the side's win rate; death: its death rate per combatant; tpk: the "
                   "chance it is wiped out.")
@click.option("--side", default=None, help="The side the metric is of (default: the first).")
@click.option("--precision", type=values.Width(zero=False),
              default=DEFAULT_PRECISION, show_default=True, metavar="W",
              help="The answer and its neighbours are run until their intervals are +-W.")
@params.ruleset_option(allow_all=False, help="Ruleset (default: the scenario's).")
@click.option("-n", "count", type=values.WholeNumber(min=1, max=params.MAX_COUNT),
              default=params.PRECISION_CAP, show_default=True,
              help="The most fights any one value runs.")
@params.seed_option("Batch seed, the same for every value.")
@params.workers_option()
@params.out_option("results/<scenario>-balance-<time>")
@params.force_option("Overwrite balance.png and balance.json in --out.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object (value, metric, low, high, tried) and nothing else.")
@params.charts_option()
@params.quiet_option()
def balance(scenario_file, path, span, target, metric, side, precision, ruleset, count, seed,
            workers, out_dir, force, as_json, charts, quiet):
    """Find the value of a scenario setting that brings a rate nearest a target.

    Bisects where the rate moves one way over the range, scans where it does not; each
    value runs only as many fights as the decision needs. Prints one sentence, a table of
    every value tried and writes balance.json and balance.png.
    """
    low, high = _range(span)
    raw = read_yaml(scenario_file)
    if not isinstance(raw, dict):
        params.load_scenario(scenario_file)  # the loader's own error
    problem = Problem(raw, scenario_file, path, low, high, target, metric, side, ruleset,
                      precision, count, seed, params.workers_or_cores(workers))
    label = path_label(parse_path(path), raw)
    beside = company(parse_path(path), raw)
    slug = problem.source.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    out_dir = out_dir or files.default_out_dir(slug, "balance")
    # claimed before the search (an existing result, a folder that cannot be written are
    # refused now, not after it) and held from the first fight to the last byte
    found = [n for n in ("balance.json", "balance.png") if (out_dir / n).exists()]
    files.claim_out_dir(out_dir, ", ".join(found) or None, force, first="balance.json")
    with lock.locked(out_dir):
        _balance(problem, label, count, low, high, target, metric, path, out_dir, as_json,
                 charts, quiet, beside)


def _balance(problem: Problem, label: str, count: int, low: int, high: int, target: float,
             metric: str, path: str, out_dir: Path, as_json: bool, charts: bool,
             quiet: bool, beside: str = "") -> None:
    """Search a claimed balance, print the answer, write balance.json (and balance.png)."""
    with params.progress(count * (abs(high - low) + 1), f"balance {label}",
                         quiet or as_json) as advance:
        answer, tried, side, method = search(problem, advance)
    doc = document(answer, tried)
    if as_json:
        click.echo(json.dumps(doc))
    else:
        click.echo(report.sentence(answer, tried, label, metric, side, beside))
        note = report.beyond(answer, min(low, high), max(low, high), target, tried)
        if note:
            click.echo(note)
        click.echo(f"({METRIC_WORDS[metric]} of {side}, target {target:g}; {method}; "
                   f"{sum(r.n for r in tried)} fights in all)")
        click.echo(report.table(tried, label, answer))
    written = [files.write_json(out_dir / "balance.json", {**doc, "method": method,
                                                           "side": side, "metric": metric,
                                                           "target": target, "path": path})]
    if charts:
        written.append(out_dir / "balance.png")
        with files.atomic_path(written[-1]) as tmp:
            report.chart(tried, label, METRIC_WORDS[metric], side, target, tmp)
    if not as_json:
        click.echo("wrote " + ", ".join(str(p) for p in written))

"""The comparing commands of ``fray``: ``convert``, ``compare`` and ``sweep``.

Thin like the rest of the CLI: parse, call ``sim.batch.compare`` / ``sim.batch.sweep``,
print. They are added to the ``fray`` group by ``sim.cli.main``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click

from sim.rulesets import registry
from sim.scenario.errors import FrayInputError, unknown

EPILOG_CONVERT = "Example: fray convert scenarios/ambush.yaml --ruleset all"
EPILOG_COMPARE = ("Example: fray compare scenarios/ambush.yaml --rulesets ore,opencore "
                  "-n 2000 --out results/ambush-compare")
EPILOG_SWEEP = ("Example: fray sweep scenarios/ambush.yaml --set 'sides.bandits[0].count=1..6' "
                "--ruleset all -n 500")


class RulesetListType(click.ParamType):
    """A comma-separated list of registered ruleset names (or ``all``)."""

    name = "a,b,..."

    def convert(self, value, param, ctx):
        """``"ore, bgrade"`` -> ``["ore", "bgrade"]``; an unknown name fails with a hint."""
        if isinstance(value, list):
            return value
        names = [v.strip() for v in str(value).split(",") if v.strip()]
        if not names:
            self.fail("name at least one ruleset", param, ctx)
        if names == ["all"]:
            return registry.names()
        for name in names:
            if name not in registry.names():
                self.fail(unknown("ruleset", name, registry.names()), param, ctx)
        return list(dict.fromkeys(names))


def _load(path: str):
    from sim import scenario

    return scenario.load(path)


class RulesetOrAllType(click.ParamType):
    """One registered ruleset name, or ``all`` (the messages of ``fray batch --ruleset``)."""

    name = "ruleset"

    def convert(self, value, param, ctx):
        """Return ``value`` if registered or ``all``, else fail with the nearest name."""
        allowed = [*registry.names(), "all"]
        if value in allowed:
            return value
        self.fail(unknown("ruleset", value, allowed), param, ctx)


def _ruleset_option(**kwargs):
    return click.option("--ruleset", type=RulesetOrAllType(), **kwargs)


@click.command(epilog=EPILOG_CONVERT)
@click.argument("scenario_file", metavar="SCENARIO", type=click.Path())
@_ruleset_option(default="all", show_default=True,
                 help="Ruleset to convert to, or 'all'.")
def convert(scenario_file, ruleset):
    """Show what each combatant becomes under a ruleset.

    Prints each combatant's neutral description, then the stats, skills and gear it is built
    with under each ruleset (a native block, where given, overrides the conversion), so the
    conversion can be checked and argued with. Conversion rules: README, "System-neutral
    characters".
    """
    from sim.core.engine import Encounter

    scenario = _load(scenario_file)
    names = registry.names() if ruleset == "all" else [ruleset]
    built = {name: Encounter(scenario, name, seed=0).combatants for name in names}
    width = max(len(n) for n in names)
    click.echo(f"{scenario.name} ({scenario.source}): combatants under {', '.join(names)}")
    for i, member in enumerate(m for side in scenario.sides for m in side.members):
        click.echo("")
        click.echo(f"{member.name} ({member.side}): {_neutral(member)}")
        for name in names:
            cls = registry.get(name)
            native = (f" [native '{cls.native_key}' block]"
                      if cls.native_key and member.native_block(cls.native_key) else "")
            click.echo(f"  {name:<{width}}  {built[name][i].describe()}{native}")
    click.echo("")
    for name in names:
        build = registry.get(name).build
        click.echo(f"{name:<{width}}  built by {build.__module__}.{build.__qualname__}")


def _neutral(member) -> str:
    t, s = member.traits, member.skills
    traits = ", ".join(f"{k} {getattr(t, k)}" for k in
                       ("strength", "endurance", "agility", "dexterity", "perception"))
    skills = ", ".join(f"{k} {getattr(s, k)}" for k in ("melee", "brawl", "ranged", "dodge",
                                                          "parry") if getattr(s, k))
    gear = f"{member.weapon}, armor {member.armor}" + (", shield" if member.shield else "")
    return f"{traits}; {skills or 'no skills'}; {gear}"


@click.command(epilog=EPILOG_COMPARE)
@click.argument("scenario_file", metavar="SCENARIO", type=click.Path())
@click.option("--rulesets", type=RulesetListType(), default="all", show_default=True,
              help="Comma-separated rulesets to compare, or 'all'.")
@click.option("-n", "count", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Encounters per ruleset.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Batch seed; encounter i has the same seed under every ruleset.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Output folder (default: results/<scenario>-compare-<time>).")
@click.option("--force", is_flag=True, help="Write into --out even if it holds results.")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted comparison in --out: finished rulesets are kept, "
                   "an interrupted one resumes, the rest run.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def compare(scenario_file, rulesets, count, seed, workers, out_dir, force, resume, quiet):
    """Run one scenario under several rulesets and compare how lethal they are.

    Same scenario, same encounter seeds, each ruleset in turn. Writes one subfolder per
    ruleset (summary.json, encounters.csv), and at the top of the folder lethality.json,
    report.md and charts (survival.png, death_rate.png, rounds.png); prints the rulesets
    side by side with 95% intervals and a one-line verdict.
    """
    from sim.batch.compare import prepare_out_dir, run_compare
    from sim.report.compare import compare_table
    from sim.report.tables import progress_bar

    scenario = _load(scenario_file)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    if resume and out_dir is None:
        raise FrayInputError("--resume", [("", "name the folder of the interrupted "
                                           "comparison with --out DIR")])
    out_dir = out_dir or Path("results") / f"{scenario.slug}-compare-{stamp}"
    prepare_out_dir(out_dir, rulesets, force or resume)
    try:
        doc = run_compare(scenario, rulesets, count, out_dir, seed=seed,
                          workers=workers or os.cpu_count() or 1,
                          progress=lambda label: progress_bar(count, label, quiet),
                          resume=resume)
    except KeyboardInterrupt:
        click.echo(f"interrupted: finished rulesets and every finished chunk are kept in "
                   f"{out_dir}; continue with the same command plus --resume --out {out_dir}",
                   err=True)
        sys.exit(130)
    click.echo(compare_table(doc))
    click.echo(f"wrote {out_dir / 'report.md'}, lethality.json, survival.png, death_rate.png, "
               f"rounds.png and one folder per ruleset")


@click.command(epilog=EPILOG_SWEEP)
@click.argument("scenario_file", metavar="SCENARIO", type=click.Path())
@click.option("--set", "setting", required=True, metavar="PATH=VALUES",
              help="A scenario value to vary: PATH into the YAML (max_rounds, "
                   "sides.<side>[i].<key>, sides.<side>[i].traits.strength, ...) and VALUES "
                   "as a..b (whole numbers) or a comma list.")
@_ruleset_option(help="Ruleset, or 'all' (default: the scenario's).")
@click.option("-n", "count", type=click.IntRange(min=1), default=500, show_default=True,
              help="Encounters per value and ruleset.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Batch seed, the same for every value.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Output folder (default: results/<scenario>-sweep-<time>).")
@click.option("--force", is_flag=True, help="Overwrite sweep.csv and sweep.png in --out.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def sweep(scenario_file, setting, ruleset, count, seed, workers, out_dir, force, quiet):
    """Vary one scenario value; report win and death rates (95% intervals) for each.

    Writes sweep.csv (one row per value and ruleset) and sweep.png, and prints a table.
    """
    from sim.batch import sweep as sweep_mod
    from sim.report.charts import sweep_chart
    from sim.report.compare import sweep_table
    from sim.report.tables import progress_bar
    from sim.scenario.loader import read_yaml

    path, steps, values = sweep_mod.parse_set(setting)
    raw = read_yaml(scenario_file)
    cases = sweep_mod.variants(raw, scenario_file, path, steps, values)
    rulesets = registry.names() if ruleset == "all" else ([ruleset] if ruleset else None)
    slug = cases[0][1].slug
    out_dir = out_dir or Path("results") / f"{slug}-sweep-{time.strftime('%Y%m%d-%H%M%S')}"
    if out_dir.exists() and not out_dir.is_dir():
        raise FrayInputError(str(out_dir), [("", "exists and is not a folder")])
    if (out_dir / "sweep.csv").exists() and not force:
        raise FrayInputError(str(out_dir), [("", "folder already holds sweep.csv; use --force "
                                             "to overwrite, or choose another --out")])
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FrayInputError(str(out_dir), [("", f"cannot create the output folder: "
                                             f"{exc.strerror}")]) from None
    total = count * len(cases) * (len(rulesets) if rulesets else 1)
    with progress_bar(total, f"{slug} sweep {path}", quiet) as advance:
        rows = sweep_mod.run_sweep(path, cases, rulesets, count, seed=seed,
                                   workers=workers or os.cpu_count() or 1, advance=advance)
    sides = list(cases[0][1].side_names)
    sweep_mod.write_csv(rows, out_dir / "sweep.csv")
    sweep_chart(rows, sides, path, out_dir / "sweep.png")
    click.echo(sweep_table(rows, sides, path))
    click.echo(f"wrote {out_dir / 'sweep.csv'} and {out_dir / 'sweep.png'}")

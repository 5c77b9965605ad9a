"""The authoring commands of ``fray``: ``map``, ``schema``, ``new`` and ``scenarios``.

Thin like the rest of the CLI: parse, call ``sim.report.battlemap``, ``sim.scenario.schema``,
``sim.scenario.template`` or ``sim.scenario.bundled``, print. Files are claimed and written with
``sim.batch.files`` (an existing file is replaced only with ``--force``, writes are atomic).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import click

from sim import registry
from sim.batch import files
from sim.cli import params
from sim.report import battlemap
from sim.scenario import bundled, safefile
from sim.scenario.errors import FrayInputError
from sim.scenario.schema import scenario_schema
from sim.scenario.template import scenario_template, template_path

EPILOG_MAP = "Example: fray map scenarios/ambush.yaml --output ambush.png"
EPILOG_SCHEMA = "Example: fray schema --output fray-scenario.schema.json"
# an example naming a ruleset other than the default, which needs no --ruleset
EPILOG_NEW = (f"Example: fray new night_raid --ruleset {registry.names()[-1]} "
              "&& fray validate night_raid.yaml")
EPILOG_SCENARIOS = "Example: fray scenarios --copy my-scenarios"


def _image(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """``--output`` of ``fray map``: a .png or .svg file."""
    if value is not None and value.suffix.lower().lstrip(".") not in battlemap.FORMATS:
        raise click.BadParameter(f"'{value}' must end in .png or .svg (the picture's format)",
                                 ctx, param)
    return value


@click.command("map", epilog=EPILOG_MAP)
@params.scenario_argument()
@click.option("--output", "-o", type=params.FilePath(),
              callback=_image,
              help="The picture: FILE.png or FILE.svg (default: the scenario file's name "
                   "with .png, in the current folder).")
@params.force_option("Overwrite --output if it exists.")
def map_command(scenario_file, output, force):
    """Draw a scenario's battlefield as a PNG or SVG picture.

    The places, the paths between them with their metres, cover and visibility, and who
    starts where. Places are boxes (grey fill: cover; dashed or dotted outline: poor or
    very poor visibility), laid out so that distances on the page follow the metres of the
    paths. Each side has an Okabe-Ito colour (colour-blind safe) and a marker shape.
    """
    scenario = params.load_scenario(scenario_file)
    output = output or Path(f"{Path(scenario_file).stem}.png")
    files.claim_out_file(output, force)
    try:
        with files.atomic_path(output) as tmp:
            battlemap.draw_map(scenario, tmp, output.suffix.lower().lstrip("."))
    except OSError as exc:
        raise FrayInputError(str(output), [("", f"cannot write: {exc.strerror}")]) from None
    click.echo(f"wrote {output}", err=True)


@click.command("schema", epilog=EPILOG_SCHEMA)
@click.option("--output", "-o", type=params.FilePath(),
              help="Write the schema to FILE instead of the terminal.")
@params.force_option("Overwrite --output if it exists.")
def schema_command(output, force):
    """Print the JSON Schema of scenario files (for editors).

    With it a YAML editor completes keys and values and underlines mistakes. Derived from
    the models that validate scenarios, with every registered ruleset's native block and
    options. Point a YAML editor at it (docs/scenarios.md, "Completion and inline errors");
    `fray validate` still has the last word (e.g. that `at:` names a node).
    """
    text = json.dumps(scenario_schema(), indent=2) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    files.claim_out_file(output, force)
    files.write_out_file(output, text)
    click.echo(f"wrote {output}", err=True)


@click.command("new", epilog=EPILOG_NEW)
@click.argument("name")
@params.ruleset_option(allow_all=False, default=registry.default(), show_default=True,
                       help="The scenario's ruleset; its native block and options are listed "
                            "in the comments.")
@params.force_option("Overwrite the file if it exists.")
def new_command(name, ruleset, force):
    """Write NAME.yaml, a commented scenario to start from.

    Two sides and a small map with cover; every key is explained in a comment beside it.
    NAME may be a path, and may end in .yaml already.
    """
    path = template_path(name)
    files.claim_out_file(path, force)
    files.write_out_file(path, scenario_template(path, ruleset))
    click.echo(f"wrote {path}; check it with: fray validate {shlex.quote(str(path))}")


@click.command("scenarios", epilog=EPILOG_SCENARIOS)
@click.option("--copy", "copy_to", metavar="DIR",
              type=click.Path(file_okay=False, path_type=Path),
              help="Copy the bundled scenarios (and campaigns) into DIR, to edit them.")
@params.force_option("With --copy: overwrite files that exist in DIR.")
def scenarios_command(copy_to, force):
    """List the scenarios that come with fray, and where they are.

    One line each: the file, the scenario's name, its sides and their sizes (a campaign: its
    party and stages). They ship inside the package, so they are there after `pip install`.
    """
    if copy_to is not None:
        written = _copy(bundled.copies(copy_to, force), copy_to)
        click.echo(f"copied {len(written)} files to {copy_to}")
        return
    try:
        folder = bundled.folder()
    except FileNotFoundError as exc:
        raise click.ClickException(str(exc)) from None
    entries = bundled.entries()
    # each by the name that runs it from anywhere (``bundled.named``): a newcomer typed
    # the file's path relative to the folder, which only works inside it
    key_w = max(len(Path(e.file).stem) for e in entries)
    name_w = max(len(e.name) for e in entries)
    click.echo(f"Bundled scenarios (files in {folder}):")
    for e in entries:
        click.echo(f"  {Path(e.file).stem:<{key_w}}  {e.name:<{name_w}}  {e.summary}")
    first = next(Path(e.file).stem for e in entries if e.kind == "scenario")
    campaign = next((Path(e.file).stem for e in entries if e.kind == "campaign"), None)
    also = f"; a campaign: fray campaign {campaign}" if campaign else ""
    click.echo(f"Run one by its name: fray run {first} --seed 7{also}; copy them all to "
               f"edit: fray scenarios --copy DIR")


def _copy(pairs: list[tuple[Path, Path]], target: Path) -> list[Path]:
    """Write each copy: its sub-folders and files named by fray, so never through a link.

    A planted link where a folder goes is refused; one where a file goes is replaced (the
    atomic write swaps it).
    """
    files.make_out_dir(target)
    folders = {folder: None for _, dest in pairs  # every folder before any file is written
               for folder in reversed(dest.relative_to(target).parents[:-1])}
    for folder in folders:
        safefile.make_dir(target / folder)
    try:
        for source, dest in pairs:
            files.write_bytes(dest, source.read_bytes())
    except OSError as exc:
        raise FrayInputError(str(target), [("", f"cannot copy the scenarios: "
                                            f"{exc.strerror}")]) from None
    return [dest for _, dest in pairs]

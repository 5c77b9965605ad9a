"""``fray run`` and ``fray rulesets``: one fight, the rulesets."""

from __future__ import annotations

from pathlib import Path

import click

from sim import registry
from sim.batch import files
from sim.cli import params
from sim.core.engine import run_encounter
from sim.report import battlemap, replay
from sim.report.log import FORMATS, render
from sim.scenario.errors import FrayInputError

EPILOG_RUN = "Example: fray run scenarios/duel.yaml --seed 7 --format markdown"


@click.command(epilog=EPILOG_RUN)
@params.scenario_argument()
@params.ruleset_option(allow_all=False, help="Ruleset to use (default: the scenario's).")
@params.seed_option("Encounter seed; a batch's encounters.csv lists each fight's seed.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True, help="Log format (the HTML replay page: --html FILE).")
@click.option("--output", "-o", type=params.FilePath(),
              help="Write the log to FILE instead of the terminal.")
@click.option("--map", "map_dir", metavar="DIR",
              type=click.Path(file_okay=False, path_type=Path),
              help="Also draw the positions into DIR: round-00.png the start, round-NN.png "
                   "the end of round NN (with the moves); --format markdown shows them.")
@click.option("--html", "html_file", metavar="FILE",
              type=params.FilePath(),
              help="Also write the fight as one HTML page to watch it round by round on its "
                   "map (opens offline; docs/replay.md).")
@params.force_option("Overwrite --output, --html (and --map's pictures) if they exist.")
def run(scenario_file, ruleset, seed, fmt, output, force, map_dir, html_file):
    """Run one encounter and tell it round by round."""
    scenario = params.load_scenario(scenario_file)
    for out_file in (output, html_file):
        if out_file is not None:
            files.claim_out_file(out_file, force)
            files.check_writable(out_file)  # a read-only folder or a full disk: said now
    if map_dir is None:
        _, events = run_encounter(scenario, ruleset, seed, log=True)
        text = render(events, fmt)
    else:
        earlier = battlemap.pictures_in(map_dir)
        if earlier and not force:
            raise FrayInputError(str(map_dir), [("", f"holds the pictures of another fight "
                                                 f"({earlier[0].name}, ...); use --force to "
                                                 f"replace them, or choose another --map")])
        files.make_out_dir(map_dir)
        files.check_writable(map_dir / battlemap.round_file(0))
        enc = battlemap.MappedEncounter(scenario, ruleset, seed)
        enc.run()
        with files.atomic_files(map_dir) as stage:  # a planted round-NN.png link is replaced
            drawn = battlemap.draw_rounds(scenario, enc.frames, stage, enc.ruleset.name)
        pictures = [map_dir / picture.name for picture in drawn]
        for stale in set(battlemap.pictures_in(map_dir)) - set(pictures):
            stale.unlink()  # an earlier, longer fight's (a link goes, never its target)
        events = enc.log
        text = render(events, fmt)
        if fmt == "markdown":
            text = battlemap.link_maps(text, pictures, output.parent if output else None)
        click.echo(f"drew {len(pictures)} pictures into {map_dir}", err=True)
    if html_file is not None:
        files.write_out_file(html_file, replay.fight_page(scenario, events))
        click.echo(f"wrote {html_file}", err=True)
    if output is None:
        click.echo(text, nl=False)
        return
    files.write_out_file(output, text)
    click.echo(f"wrote {output}", err=True)


@click.command("rulesets", epilog="Example: fray rulesets")
def rulesets_command():
    """List the registered rulesets."""
    for name, summary in registry.describe():
        click.echo(f"{name:<10} {summary}")

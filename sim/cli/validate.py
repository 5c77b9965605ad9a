"""``fray validate``: check scenario and campaign files without running them.

A module of its own so that checking a file loads the scenario loader alone, not the
engine, the maps and the reports (``sim.cli.main`` imports a command's module when it runs).
"""

from __future__ import annotations

import sys

import click

from sim.cli import params
from sim.scenario.errors import ScenarioError


@click.command()
@click.argument("scenario_files", metavar="SCENARIO...", nargs=-1, required=True)
def validate(scenario_files):
    """Check scenario and campaign files (a campaign with its stages); print OK per valid file.

    Example: fray validate scenarios/*.yaml scenarios/campaigns/road_to_the_keep.yaml
    """
    bad = 0
    for path in scenario_files:
        try:
            params.load_scenario_or_campaign(path)
        except ScenarioError as exc:
            bad += 1
            click.echo(exc.render(), err=True)
        else:
            click.echo(f"{path}: OK")
    if bad:
        sys.exit(2)

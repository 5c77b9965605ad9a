"""``fray validate``: check scenario and campaign files.

Its own module, apart from ``fray run``: checking a file needs neither the engine nor a
ruleset (unless the file names a ruleset's block or options), and importing them would
cost most of the command's time.
"""

from __future__ import annotations

import sys

import click

from sim.cli import params
from sim.scenario.errors import FrayInputError

EPILOG_VALIDATE = ("Example: fray validate scenarios/*.yaml "
                   "scenarios/campaigns/road_to_the_keep.yaml")


# FILE..., not SCENARIO...: a campaign file is checked too (README: fray validate FILE...);
# the example after the options, as every other command has it
@click.command(epilog=EPILOG_VALIDATE)
@click.argument("scenario_files", metavar="FILE...", nargs=-1, required=True)
def validate(scenario_files):
    """Check scenario and campaign files (a campaign with its stages); print OK per valid file."""
    bad = 0
    for path in scenario_files:
        try:
            params.load_scenario_or_campaign(path)
        except FrayInputError as exc:  # a scenario, a campaign or the file itself
            bad += 1
            click.echo(exc.render(), err=True)
        else:
            click.echo(f"{path}: OK")
    if bad:
        sys.exit(2)

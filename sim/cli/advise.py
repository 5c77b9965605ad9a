"""``fray advise``: which opening is best for one fighter, by playing its fights on.

For each line of the fighter's first menu, ``-n`` fights as ``fray batch`` seeds them
(fight ``i`` with ``encounter_seed(seed, i)``) run to that fighter's first declaration, take
that line, and play on with fresh dice, every fighter by its AI profile
(``sim.ai.rollout``, ``Moment.varied``). The line its own profile takes is marked (``ai``):
in each fight it does what the profile does there, so its win rate is ``fray batch``'s.
"""

from __future__ import annotations

import json

import click

from sim.ai import rollout
from sim.ai import whatif as engine
from sim.cli import params, records, whatif
from sim.core.engine import Encounter
from sim.core.seeds import encounter_seed
from sim.scenario.errors import FrayInputError

EPILOG_ADVISE = "Example: fray advise scenarios/neutral_duel.yaml --as Ilse -n 400 --json"


class _Reached(Exception):
    """The fighter's first declaration: its menu is read, the fight goes no further."""

    def __init__(self, asked: engine.Question, side: str):
        self.asked, self.side = asked, side


def _first_menu(scenario, ruleset: str | None, seed: int, name: str) -> _Reached:
    """The choices of ``name`` at its first declaration in the first of the fights."""
    def mind(enc, c):
        raise _Reached(engine.question(enc, c, by_key=True), c.side)

    try:
        Encounter(scenario, ruleset, encounter_seed(seed, 0), minds={name: mind}).run()
    except _Reached as reached:
        return reached
    raise FrayInputError("--as", [("", f"{name} never declares in this fight (the fight is "
                                       "over before its turn)")])


@click.command(epilog=EPILOG_ADVISE)
@params.scenario_argument()
@click.option("--as", "name", required=True, help="The combatant to advise.")
@params.count_option(200, "Fights played on for each line of the menu.")
@params.seed_option("Seed of the fights, as fray batch seeds its encounters.")
@params.ruleset_option(allow_all=False, help="Ruleset to use (default: the scenario's).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@params.all_rollouts_option()
@params.workers_option()
@params.quiet_option()
def advise(scenario_file, name, count, seed, ruleset, as_json, all_rollouts, workers, quiet):
    """Weigh every first declaration of one combatant by playing the fight on."""
    scenario = params.load_scenario(scenario_file)
    everyone = [m.name for side in scenario.sides for m in side.members]
    name = records.played(name, everyone, "--as", "combatant")
    if len(name) != 1:
        raise FrayInputError("--as", [("", "name one combatant")])
    first = _first_menu(scenario, ruleset, seed, name[0])
    probe = Encounter(scenario, ruleset, 0)
    m = rollout.Moment(Encounter, scenario, probe.ruleset.name, seed, name[0], 0, 1,
                       varied=True)
    asked = first.asked
    weighed = whatif.weigh(m, asked.choices, count, workers, shown=not (quiet or as_json),
                           race=not all_rollouts)
    if as_json:
        click.echo(json.dumps(whatif.as_json(weighed, first.side, name[0], asked.not_now)))
        return
    click.echo(whatif.table(weighed, first.side, name[0], count, numbers=asked.numbers,
                            not_now=asked.not_now))

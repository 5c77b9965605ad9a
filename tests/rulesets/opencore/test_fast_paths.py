"""OpenCore's fast paths give what the plain paths give.

- A fighter copied from its member's template (``fresh_fighter``) is the fighter the
  conversion (``convert``) makes, slot for slot, for every member of every bundled scenario.
"""

import pytest
from helpers import SCENARIOS

from sim import scenario as scenario_mod
from sim.core.combatant import Combatant
from sim.rulesets.opencore.fighter import OpenCoreFighter, convert, fresh_fighter

SCENARIO_FILES = sorted(SCENARIOS.glob("*.yaml"))
SLOTS = Combatant.__slots__ + OpenCoreFighter.__slots__


def slots(f) -> dict:
    return {name: getattr(f, name) for name in SLOTS}


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_a_copied_fighter_is_a_converted_one(path):
    scen = scenario_mod.load(path)
    for side in scen.sides:
        for m in side.members:
            fresh_fighter(m, "here")  # the template, made on first use
            copy, made = fresh_fighter(m, "here"), convert(m, "here")
            assert slots(copy) == slots(made), m.name
            # the copy shares no mutable state with the template or another copy
            assert copy.abilities is not fresh_fighter(m, "here").abilities
            assert copy.injuries is not fresh_fighter(m, "here").injuries

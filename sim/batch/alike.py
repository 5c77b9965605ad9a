"""Swept values that make the same fight: a sweep says so rather than show a flat line.

A ruleset reads the neutral traits and skills through its own conversion: it may ignore
one (OpenCore has no use for perception) or map two values to the same native stat (ORE
halves some traits, so strength 3 and 4 give the same dice). Two values built into the
same fighters, on the same map with the same settings and seed, fight the same fights: their
rows are equal because nothing changed, not because the value does not matter where it
is read.
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Sequence
from typing import Any

from sim.core.engine import Encounter
from sim.scenario.specs import Scenario

# a row's columns that name the value, not what was measured
NAMING = {"path", "value"}


def fight_key(scenario: Scenario, ruleset: str) -> tuple[Any, ...]:
    """What a fight is built from.

    Each fighter as built, where it starts, how it thinks, and the rest of the scenario
    (map, round limit, options).
    """
    fighters = tuple(c.describe() for c in Encounter(scenario, ruleset, seed=0).combatants)
    members = tuple((m.name, m.side, m.at, m.doctrine)
                    for side in scenario.sides for m in side.members)
    rest = dataclasses.replace(scenario, sides=())
    return fighters, members, rest


def same_fights(cases: Sequence[tuple[Any, Scenario]], rows: Sequence[dict[str, Any]],
                rulesets: Sequence[str] | None) -> list[tuple[str, list[Any]]]:
    """``(ruleset, values)`` for each group of values that built the same fights.

    ``rows`` are ``run_sweep``'s (each case under each ruleset, in that order). A group
    needs both: the same fighters as built (what ``fray convert`` shows) and the same
    measured row, so a difference the roster does not show is never called alike.
    """
    names = list(rulesets) if rulesets else None
    groups: dict[tuple[str, Any, Any], list[Any]] = {}
    k = 0
    for value, scenario in cases:
        for ruleset in names or [scenario.ruleset]:
            row = rows[k]
            k += 1
            measured = tuple(sorted((key, repr(v)) for key, v in row.items()
                                    if key not in NAMING))
            key = (ruleset, fight_key(scenario, ruleset), measured)
            groups.setdefault(key, []).append(value)
    return [(ruleset, values) for (ruleset, _, _), values in groups.items() if len(values) > 1]


WHY = ("the ruleset does not read this value, or maps these to one native stat; fray "
       "convert shows them")


def alike_notes(groups: list[tuple[str, list[Any]]], label: str) -> list[str]:
    """One note per ruleset, for the terminal after the sweep's table.

    A ruleset with one group names its values in a sentence; one with several (a grid where
    one path's values build the same fighters in every row) lists the groups in one note,
    not one repeated note per group.
    """
    by_ruleset: dict[str, list[list[Any]]] = {}
    for ruleset, values in groups:
        by_ruleset.setdefault(ruleset, []).append(values)
    notes = []
    for ruleset, found in by_ruleset.items():
        if len(found) == 1:
            text = (f"note: under {ruleset}, {label} {_values(found[0])} build the same "
                    f"fighters ({WHY}): their rows are the same fights")
        else:
            listed = ", ".join(f"({' = '.join(_value(v) for v in values)})" for values in found)
            text = (f"note: under {ruleset}, these {label} values build the same fighters "
                    f"({WHY}), so their rows are the same fights: {listed}")
        notes.append(textwrap.fill(text, width=100))
    return notes


def _value(value: Any) -> str:
    """A swept value as the table's value column writes it (a grid's: ``1; 3``)."""
    return "; ".join(map(str, value)) if isinstance(value, tuple) else str(value)


def _values(values: list[Any]) -> str:
    text = [_value(v) for v in values]
    return ", ".join(text[:-1]) + f" and {text[-1]}"

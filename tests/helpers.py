"""Shared test helpers: hand-set dice and small scenarios."""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from sim import scenario as scenario_mod

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


class StubRandom(random.Random):
    """A ``random.Random`` whose ``random()`` returns queued values.

    ``sim.rulesets.dice.roll`` maps ``random()`` to ``int(x * sides) + 1``, so ``face(f, sides)``
    gives the value that rolls face ``f``. Anything else falls back to a seeded generator.
    """

    def __init__(self, values=(), seed=0):
        super().__init__(seed)
        self.queue = list(values)
        self.drawn = 0

    def push(self, *values):
        self.queue.extend(values)

    def random(self):
        self.drawn += 1
        if self.queue:
            return self.queue.pop(0)
        return super().random()


def face(value: int, sides: int = 10) -> float:
    """The ``random()`` value that makes ``sim.rulesets.dice.roll`` show ``value``."""
    return (value - 0.5) / sides


def faces(*values: int, sides: int = 10) -> list[float]:
    """``face`` for several dice."""
    return [face(v, sides) for v in values]


def scenario(sides: dict, **top) -> scenario_mod.Scenario:
    """A scenario from a dict of sides (members as dicts), validated like a file."""
    data = {"name": "test", "ruleset": "ore", **top, "sides": sides}
    return scenario_mod.parse(data, "test.yaml")


@dataclass
class Result:
    code: int
    out: str
    err: str


def fray(capsys, *args: str) -> Result:
    """Run ``fray ARGS`` in this process; return the exit code and what it printed."""
    from sim.cli.main import main

    capsys.readouterr()
    old = sys.argv
    sys.argv = ["fray", *args]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = old
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)


ADDED_KEYS = {"deaths_in_fight", "deaths_after", "deaths_in_fight_per_encounter",
              "deaths_after_per_encounter", "death_rate_after", "damaging_hits"}
"""Keys summary.json and lethality.json gained with the aftermath and damaging hits."""


def without_added_keys(doc):
    """``doc`` without ``ADDED_KEYS`` (to compare with files made before they existed)."""
    if isinstance(doc, dict):
        return {k: without_added_keys(v) for k, v in doc.items() if k not in ADDED_KEYS}
    return doc

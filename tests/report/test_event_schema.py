"""Every event of every bundled scenario, under every ruleset, holds to the one event schema
shipped with the package (sim/report/events.schema.json, documented in docs/log-format.md)."""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest
from helpers import SCENARIOS

from sim import scenario as scenario_mod
from sim.core.engine import Encounter
from sim.report.log import render
from sim.rulesets import registry

FILES = [*sorted(SCENARIOS.glob("*.yaml")),
         SCENARIOS / "campaigns" / "night_camp.yaml", SCENARIOS / "campaigns" / "keep_gate.yaml"]


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(resources.files("sim.report").joinpath("events.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("ruleset", registry.names())
def test_every_event_holds_to_the_schema(validator, ruleset):
    types = set()
    for path in FILES:
        scen = scenario_mod.load(path)
        for seed in range(3):
            enc = Encounter(scen, ruleset, seed, log=True)
            result = enc.run()
            for event in enc.log:
                errors = sorted(validator.iter_errors(event), key=str)
                assert not errors, (path.name, seed, event, errors[0].message)
                types.add(event["type"])
            end = next(e for e in enc.log if e["type"] == "end")
            assert end["winner"] == (result.winner or "draw")  # as encounters.csv writes it
            # the jsonl format is the same events, one per line
            lines = render(enc.log, "jsonl").splitlines()
            assert [json.loads(line) for line in lines] == enc.log
    assert {"start", "combatant", "round", "declare", "end", "aftermath", "rollcall"} <= types


def test_the_schema_refuses_what_it_should(validator):
    good = {"round": 1, "t": 0.5, "type": "status", "text": "A is dead.", "who": "A",
            "status": "dead"}
    assert validator.is_valid(good)
    for bad in ({**good, "t": "0.5"}, {**good, "status": "gone"}, {**good, "type": "boom"},
                {k: v for k, v in good.items() if k != "who"}, {**good, "dice": [1, 2]}):
        assert not validator.is_valid(bad), bad

"""OpenCore's coverage lists Fortitude as an option, with the scenario's setting."""

from __future__ import annotations

import dataclasses

from helpers import SCENARIOS

from sim import scenario as scenario_mod
from sim.batch.coverage import coverage_block
from sim.rulesets.opencore.blocks import OpenCoreOptions


def fortitude(scenario) -> dict:
    block = coverage_block(scenario, "opencore")
    return next(r for r in block["rules"] if r["rule"] == "Fortitude")


def test_fortitude_is_an_option_off_by_default():
    entry = fortitude(scenario_mod.load(SCENARIOS / "ambush.yaml"))
    assert entry["status"] == "option"
    assert entry["setting"] == "fortitude: false"


def test_fortitude_on_says_so():
    base = scenario_mod.load(SCENARIOS / "ambush.yaml")
    on = dataclasses.replace(base, options=(("opencore", OpenCoreOptions(fortitude=True)),))
    assert fortitude(on)["setting"] == "fortitude: true"
    assert coverage_block(on, "opencore")["source"] == "docs/rules/opencore.md"

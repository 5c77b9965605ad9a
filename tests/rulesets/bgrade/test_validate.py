"""Checking a scenario with a B-Grade block imports B-Grade and what it builds on (ORE),
not the other rulesets."""

from __future__ import annotations

from helpers import ruleset_modules, validated_with_imports


def test_validate_imports_only_the_rulesets_a_scenario_names(tmp_path):
    shown = validated_with_imports(
        tmp_path, "name: x\nsides:\n  a: [{name: A, bgrade: {}}]\n  b: [{name: B}]\n")
    assert "networkx" in shown
    loaded = ["sim.rulesets.bgrade.ruleset", "sim.rulesets.ore.ruleset"]
    for module in ruleset_modules():
        assert (module in shown) == (module in loaded), (module, shown)

"""What a batch says it modelled (``coverage``), and the rules pages that show the same."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import SCENARIOS, any_ruleset

from sim import scenario as scenario_mod
from sim.batch.coverage import coverage_block, features
from sim.core.coverage import FEATURES, GAPS, SPACE
from sim.report.coverage import docs_page, docs_table, with_tables
from sim.rulesets import registry


@pytest.mark.parametrize("ruleset", registry.names())
def test_every_ruleset_lists_space_as_modelled_and_the_gaps(ruleset):
    rules = registry.get(ruleset).coverage
    for rule in SPACE:
        assert rule in rules and rule.status == "modelled"
    for rule in GAPS:
        assert rule in rules and rule.status == "not modelled"
    assert any(r.rule == "Surprise rounds" for r in rules)


@pytest.mark.parametrize("ruleset", registry.names())
def test_every_option_is_a_key_of_the_rulesets_options_and_has_a_setting(ruleset):
    cls = registry.get(ruleset)
    for rule in cls.coverage:
        assert rule.when in FEATURES
        assert (rule.option is not None) == (rule.status == "option"), rule
        if rule.option:
            assert rule.option in cls.Options.model_fields, rule
    block = coverage_block(scenario_mod.load(SCENARIOS / "ambush.yaml"), ruleset)
    for entry in block["rules"]:
        if entry["status"] == "option":
            assert entry["setting"].startswith(entry["option"] + ": ")
        if entry["status"] == "not modelled":
            assert entry["note"]


@pytest.mark.parametrize("ruleset", registry.names())
def test_each_rules_page_holds_its_rulesets_table(ruleset):
    page = docs_page(ruleset)
    text = page.read_text()
    assert docs_table(registry.get(ruleset).coverage) in text, (
        f"{page} differs from the ruleset's coverage list: python -m sim.report.coverage")
    assert with_tables(text, [ruleset]) == text


def test_a_batch_lists_only_the_rules_its_scenario_touches():
    duel = scenario_mod.load(SCENARIOS / "duel.yaml")
    assert "narrow" not in features(duel)
    rules = {r["rule"] for r in coverage_block(duel, any_ruleset())["rules"]}
    assert "Room at a narrow place" not in rules
    assert "Surprise rounds" in rules
    narrow = dataclasses.replace(duel, map=dataclasses.replace(
        duel.map, nodes=tuple(dataclasses.replace(n, width=1) for n in duel.map.nodes)))
    rules = {r["rule"] for r in coverage_block(narrow, any_ruleset())["rules"]}
    assert "Room at a narrow place" in rules

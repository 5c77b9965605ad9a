"""What a batch modelled: ``summary.json`` key ``coverage``, for this scenario and ruleset.

The ruleset's table (``Ruleset.coverage``, ``sim.core.coverage``) cut down to the rules
this scenario's fighters, weapons and map touch (``features``), each option with the setting
the scenario gives it (or its default).
"""

from __future__ import annotations

from typing import Any

from sim import registry
from sim.core.coverage import page_of
from sim.scenario.specs import Scenario
from sim.scenario.vocabulary import NATURAL_WEAPONS, RANGED_WEAPONS


def features(scenario: Scenario) -> frozenset[str]:
    """What in ``scenario`` makes a rule matter (``sim.core.coverage.FEATURES``)."""
    found = {"always", "several"}
    for side in scenario.sides:
        for m in side.members:
            found.add("ranged" if m.weapon in RANGED_WEAPONS else "melee")
            if m.weapon == "unarmed":
                found.add("unarmed")
            if m.weapon in NATURAL_WEAPONS or m.kind == "beast":
                found.add("beast")
            if m.shield:
                found.add("shield")
            if m.armor != "none":
                found.add("armor")
    for node in scenario.map.nodes:
        if node.width is not None:
            found.add("narrow")
        if node.exit:
            found.add("exit")
        if node.cover != "none" or node.visibility != "clear":
            found.add("cover")
    return frozenset(found)


def coverage_block(scenario: Scenario, ruleset: str) -> dict[str, Any]:
    """``summary.json``'s ``coverage``: each rule that concerns the scenario, and its status."""
    cls = registry.get(ruleset)
    options = cls.options_for(scenario) or cls.Options()
    have = features(scenario)
    rules = []
    for rule in cls.coverage:
        if rule.when not in have:
            continue
        entry: dict[str, Any] = {"rule": rule.rule, "status": rule.status, "note": rule.note}
        if rule.option is not None:
            entry["option"] = rule.option
            entry["setting"] = f"{rule.option}: {_setting(getattr(options, rule.option))}"
        rules.append(entry)
    return {"ruleset": cls.name, "source": page_of(cls.__module__), "rules": rules}


def _setting(value: Any) -> str:
    """An option's value as a scenario file writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)

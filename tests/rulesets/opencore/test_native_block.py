"""OpenCore's native block: its numbers have upper bounds, refused at load time naming the
field; its abilities may be written in the rulebook's capitals."""

from __future__ import annotations

import pytest

from sim.scenario import parse
from sim.scenario.errors import ScenarioError


@pytest.mark.parametrize("key, value", [("hp", 1_000_001), ("toughness", 1_000_001)])
def test_opencore_hp_and_toughness_have_upper_bounds(key, value):
    doc = {"name": "x", "sides": {"a": [{"name": "A", "opencore": {key: value}}],
                                  "b": [{"name": "B"}]}}
    with pytest.raises(ScenarioError, match=rf"sides.a\[0\].opencore.{key}"):
        parse(doc)


def test_opencore_abilities_in_the_rulebooks_capitals():
    from sim.scenario import parse
    from sim.scenario.errors import ScenarioError

    scen = parse({"name": "t", "sides": {
        "a": [{"name": "A", "opencore": {"abilities": {"CON": 70, "str": 60}}}],
        "b": [{"name": "B"}]}})
    block = scen.sides[0].members[0].native_block("opencore")
    assert (block.abilities.con, block.abilities.str) == (70, 60)
    with pytest.raises(ScenarioError, match="'con' is given twice .as 'CON' and 'con'."):
        parse({"name": "t", "sides": {
            "a": [{"name": "A", "opencore": {"abilities": {"CON": 70, "con": 60}}}],
            "b": [{"name": "B"}]}})

"""OpenCore's native block: its numbers have upper bounds, refused at load time naming the field."""

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

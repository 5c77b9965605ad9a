"""The aftermath's settings, checked where the scenario sets them (each ruleset's own
aftermath is tested in its folder: ``tests/rulesets/<folder>/test_aftermath.py``)."""

from __future__ import annotations

import pytest
from helpers import scenario

from sim.scenario.errors import ScenarioError


def test_a_bad_tend_is_a_clear_error():
    with pytest.raises(ScenarioError,
                       match=r"aftermath\.tend: unknown tend 'mine'; allowed: own, all, none"):
        scenario({"a": [{"name": "A"}], "b": [{"name": "B"}]}, aftermath={"tend": "mine"})

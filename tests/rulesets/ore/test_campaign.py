"""ORE's and B-Grade's campaigns: half the Shock goes in the aftermath, which wakes some
fighters out cold when a fight ended (tests/core/test_campaign.py checks, under every
ruleset, that the roll call and the fates tell it)."""

from __future__ import annotations

import pytest
from helpers import SCENARIOS

from sim.core.campaign import run_campaign
from sim.scenario.campaign import load_campaign


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_the_halving_of_the_shock_wakes_some_now_and_then(ruleset):
    camp = load_campaign(SCENARIOS / "campaigns" / "road_to_the_keep.yaml")
    seen = sum(len(s.came_to) for seed in range(60)
               for s in run_campaign(camp, ruleset, seed, log=True).stages)
    assert seen >= 2

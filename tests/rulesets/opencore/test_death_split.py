"""OpenCore's deaths after a fight, split by who was tended (docs/deaths.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import SCENARIOS

from sim import scenario as scenario_mod
from sim.batch.chunks import columns
from sim.batch.runner import BatchSpec, run_tally
from sim.scenario.specs import AftermathSpec


@pytest.fixture(scope="module")
def duel():
    return scenario_mod.load(SCENARIOS / "neutral_duel.yaml")


@pytest.mark.parametrize("tend", ["own", "all", "none"])
def test_an_opencore_duel_counts_its_deaths_by_who_was_tended(duel, tend):
    """OpenCore's fallen bleed on; tending stops it. Under ``own`` the loser dies untended,
    under ``all`` nobody dies untended but after a draw."""
    scenario = replace(duel, aftermath=AftermathSpec(tend=tend))
    assert "fencer_deaths_after_untended" in columns(scenario)
    tally = run_tally(BatchSpec(scenario, "opencore", 40, seed=3), None)
    split = tally.summary()["aftermath"]
    assert split["tend"] == tend
    after = split["deaths_after_tended"] + split["deaths_after_untended"]
    assert after == tally.summary()["lethality"]["deaths_after_per_encounter"] * 40
    if tend == "all":
        assert split["deaths_after_untended"] == split["deaths_after_untended_in_draws"]
        assert split["tend_all_would_tend"] == 0
    else:
        assert split["deaths_after_untended"] > 10
        assert split["tend_all_would_tend"] == (split["deaths_after_untended"]
                                                - split["deaths_after_untended_in_draws"])

"""Per-fighter results: every combatant's counts add up to its side's, and nothing to rate
is "n/a" (null), not 0."""

from __future__ import annotations

import pytest
from helpers import SCENARIOS, any_ruleset, fray, scenario, two_rulesets

from sim import registry
from sim import scenario as scenario_mod
from sim.batch.runner import BatchSpec, run_batch

KEYS = ("deaths", "deaths_after", "out_of_fight", "fled", "surrendered", "attacks", "hits",
        "damage")


@pytest.mark.parametrize("ruleset", registry.names())
def test_fighters_add_up_to_their_sides(tmp_path, ruleset):
    scen = scenario_mod.load(SCENARIOS / "ambush.yaml")
    doc = run_batch(BatchSpec(scen, ruleset, 80, seed=3), tmp_path)
    combatants = doc["combatants"]
    assert list(combatants) == [m.name for s in scen.sides for m in s.members]
    for side, totals in doc["sides"].items():
        mine = [f for f in combatants.values() if f["side"] == side]
        assert len(mine) == totals["members"]
        for key in KEYS:
            assert sum(f[key] for f in mine) == totals[key], (side, key)
    for f in combatants.values():
        assert f["encounters"] == 80
        lo, hi = f["death_rate_ci95"]
        assert 0 <= lo <= f["death_rate"] <= hi <= 1
        assert f["hits"] <= f["attacks"]


def test_nothing_to_rate_is_null_and_shown_as_n_a(tmp_path):
    scen = scenario({"red": [{"name": "A", "weapon": "sword", "skills": {"melee": 3}}],
                     "dummy": [{"name": "D", "ai": "passive"}]})
    doc = run_batch(BatchSpec(scen, any_ruleset(), 20, seed=1), tmp_path / "x")
    assert doc["sides"]["dummy"]["attacks"] == 0
    assert doc["sides"]["dummy"]["hit_rate"] is None
    assert doc["sides"]["dummy"]["damage_per_hit"] is None
    assert doc["combatants"]["D"]["hit_rate"] is None
    assert doc["sides"]["red"]["hit_rate"] is not None
    from sim.report.tables import batch_table

    dummy_row = next(line for line in batch_table(doc).splitlines() if "dummy" in line)
    assert "n/a" in dummy_row


def test_the_batch_table_by_fighter(tmp_path, capsys):
    result = fray(capsys, "batch", str(SCENARIOS / "brawl.yaml"), "-n", "30", "--workers",
                  "1", "-q", "--out", str(tmp_path / "b"), "--by", "fighter")
    assert result.code == 0
    assert "each combatant over 30 encounters" in result.out
    # the sides' answer stays: who wins, rounds and lethality come first
    assert result.out.index("win rate") < result.out.index("each combatant")
    assert "lethality:" in result.out and "rounds: mean" in result.out
    for name in ("Local 1", "Local 3", "Sailor 2"):
        assert name in result.out


def test_compare_reports_each_combatant(tmp_path):
    from sim.batch.compare import run_compare

    scen = scenario_mod.load(SCENARIOS / "brawl.yaml")
    doc = run_compare(scen, two_rulesets(), 30, tmp_path, charts=False)
    names = [m.name for s in scen.sides for m in s.members]
    for entry in doc["rulesets"].values():
        assert list(entry["combatants"]) == names
    text = (tmp_path / "report.md").read_text()
    assert "## Each combatant: how often it dies (95% interval)" in text
    for name in names:
        assert f"| {name} (" in text

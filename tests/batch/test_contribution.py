"""``fray batch --contribution``: each fighter's worth to its side, leave one out."""

from __future__ import annotations

import json

from helpers import SCENARIOS, any_ruleset, fray, scenario

from sim import scenario as scenario_mod
from sim.batch.contribution import left_out, run_contribution
from sim.batch.runner import BatchSpec, run_batch
from sim.results.contribution import PairFold

SWORDSMAN = {"traits": {"strength": 3, "endurance": 3, "agility": 3}, "skills": {"melee": 3},
             "weapon": "sword", "armor": "leather"}


def test_a_pair_fold_counts_pairs_that_split():
    f = PairFold("a", "x")
    for won, won_without in [(True, False)] * 6 + [(True, True)] * 4 + [(False, False)] * 2:
        f.add(won, 0, won_without, 1)
    s = f.summary()
    assert (s["win_rate"], s["win_rate_without"]) == (round(10 / 12, 6), round(4 / 12, 6))
    assert s["win_rate_change"] == -0.5
    lo, hi = s["win_rate_change_ci95"]
    assert lo < -0.5 < hi < 0
    assert s["deaths_change"] == 1 and s["deaths_change_ci95"] == [1, 1]


def test_each_fighter_is_left_out_once_and_one_alone_leaves_no_side():
    duel = scenario_mod.load(SCENARIOS / "duel.yaml")
    cases = left_out(duel).cases
    assert [(name, without) for name, _, without in cases] == [
        ("Ser Aldric", None), ("Ser Benedek", None)]
    ambush = left_out(scenario_mod.load(SCENARIOS / "ambush.yaml")).cases
    assert len(ambush) == 7
    for name, _side, without in ambush:
        assert without is not None
        names = [m.name for s in without.sides for m in s.members]
        assert name not in names and len(names) == 6


def test_the_ambush_heroes_each_have_an_effect_with_an_interval(tmp_path):
    spec = BatchSpec(scenario_mod.load(SCENARIOS / "ambush.yaml"), any_ruleset(), 120, seed=4)
    run_batch(spec, tmp_path)
    block = run_contribution(spec, tmp_path / "encounters.csv", 120)
    assert block["batches"] == 7 and block["encounters"] == 120
    for name in ("Wolfman", "Brother Ansel", "Kestrel"):
        c = block["fighters"][name]
        assert c["side"] == "heroes" and c["pairs"] == 120
        lo, hi = c["win_rate_change_ci95"]
        assert lo <= c["win_rate_change"] <= hi
        assert hi - lo > 0
    # the heroes' best fighter matters: without him they win less, surely
    assert block["fighters"]["Wolfman"]["win_rate_change_ci95"][1] < 0


def test_a_dummy_that_never_acts_shows_no_effect_within_its_interval(tmp_path):
    scen = scenario({
        "red": [{"name": "Red", "at": "field", **SWORDSMAN},
                {"name": "Dummy", "at": "far", "ai": "passive"}],
        "blue": [{"name": "Blue", "at": "field", **SWORDSMAN}]},
        map={"nodes": {"field": {}, "far": {}}, "edges": [["field", "far", 5000]]},
        max_rounds=12)
    spec = BatchSpec(scen, any_ruleset(), 200, seed=6)
    run_batch(spec, tmp_path)
    dummy = run_contribution(spec, tmp_path / "encounters.csv", 200)["fighters"]["Dummy"]
    lo, hi = dummy["win_rate_change_ci95"]
    assert lo <= 0 <= hi
    red = run_contribution(spec, tmp_path / "encounters.csv", 200)["fighters"]["Red"]
    assert red["win_rate_change_ci95"][1] < 0  # the one who fights matters


def test_batch_contribution_prints_the_table_and_writes_it(tmp_path, capsys):
    out = fray(capsys, "batch", str(SCENARIOS / "ambush.yaml"), "-n", "20", "--workers", "1",
               "--out", str(tmp_path / "b"), "--contribution", "--html", str(tmp_path / "h"),
               "-q")
    assert out.code == 0, out.err
    assert "7 more batches of 20 fights" in out.err
    assert "who matters: each fighter left out, the same 20 seeds" in out.out
    doc = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert set(doc["contribution"]["fighters"]) == set(doc["combatants"])
    assert 'id="contribution"' in (tmp_path / "h" / "report.html").read_text()

"""Campaign batches on the batch machinery: the same output for any chunking, executor or
interruption; one stage is the batch; the stage counts chain."""

from __future__ import annotations

import csv

import pytest
from helpers import SCENARIOS, StopAfter, any_ruleset, two_rulesets

from sim import scenario as scenario_mod
from sim.batch.campaign import run_campaigns, spec_for
from sim.batch.files import STATE, part_file
from sim.batch.runner import BatchSpec, run_batch
from sim.scenario.campaign import load_campaign, parse_campaign

ROAD = SCENARIOS / "campaigns" / "road_to_the_keep.yaml"
OUTPUTS = ("summary.json", "campaign.csv")


def _files(folder):
    return {name: (folder / name).read_bytes() for name in OUTPUTS}


@pytest.fixture(scope="module")
def road():
    return load_campaign(ROAD)


@pytest.fixture(scope="module")
def reference(road, tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    run_campaigns(spec_for(road, any_ruleset(), 120, seed=4, workers=1, chunk_size=20), out,
                  chart=False)
    return _files(out)


def test_summary_counts_chain_and_rates_multiply(road, tmp_path):
    doc = run_campaigns(spec_for(road, any_ruleset(), 150, seed=2), tmp_path)
    stages = doc["stages"]
    assert doc["runs"] == 150 and stages[0]["reached"] == 150
    for a, b in zip(stages, stages[1:], strict=False):
        assert b["reached"] == a["won"]
        product = a["p_reach"]["value"] * a["p_win_given_reached"]["value"]
        assert b["p_reach"]["value"] == pytest.approx(product, abs=1e-5)
    last = stages[-1]
    assert doc["outcomes"]["cleared"] == last["won"]
    assert sum(doc["outcomes"].values()) == 150
    for s in stages:
        assert s["reached"] == s["won"] + s["lost"] + s["draw"] + s["unable"]
        lo, hi = s["p_reach"]["ci95"]
        assert 0 <= lo <= s["p_reach"]["value"] <= hi <= 1
    with open(tmp_path / "campaign.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 150
    assert sum(int(r["deaths"]) for r in rows) == sum(s["deaths"] for s in stages)
    assert (tmp_path / "survival.png").stat().st_size > 10_000
    # what was modelled, stage by stage
    assert set(doc["coverage"]["stages"]) == {stage.label for stage in road.stages}
    for block in doc["coverage"]["stages"].values():
        assert any(r["rule"] == "Surprise rounds" for r in block["rules"])


def test_same_output_for_any_workers_and_chunks(road, reference, tmp_path):
    for k, (workers, chunk) in enumerate(((2, 20), (1, 7), (2, 0))):
        out = tmp_path / str(k)
        run_campaigns(spec_for(road, any_ruleset(), 120, seed=4, workers=workers,
                               chunk_size=chunk), out, chart=False)
        assert _files(out) == reference


def test_interrupted_then_resumed_equals_uninterrupted(road, reference, tmp_path):
    spec = spec_for(road, any_ruleset(), 120, seed=4, workers=1, chunk_size=20)
    with pytest.raises(KeyboardInterrupt):
        run_campaigns(spec, tmp_path, StopAfter(2), chart=False)
    assert not (tmp_path / "campaign.csv").exists()
    assert (tmp_path / part_file("campaign.csv")).read_text().count("\n") - 1 == 40
    run_campaigns(spec, tmp_path, resume=True, chart=False)
    assert _files(tmp_path) == reference
    part = tmp_path / part_file("campaign.csv")
    assert not (tmp_path / STATE).exists() and not part.exists()


def test_resume_refuses_another_campaign_batch(road, tmp_path):
    from sim.scenario.errors import FrayInputError

    with pytest.raises(KeyboardInterrupt):
        run_campaigns(spec_for(road, any_ruleset(), 60, seed=4, chunk_size=20), tmp_path,
                      StopAfter(1), chart=False)
    with pytest.raises(FrayInputError, match="seed: was 4, now 5"):
        run_campaigns(spec_for(road, any_ruleset(), 60, seed=5, chunk_size=20), tmp_path,
                      resume=True, chart=False)


@pytest.mark.parametrize("ruleset", two_rulesets())
def test_one_stage_campaign_wins_as_often_as_the_batch(tmp_path, ruleset):
    """Same seed, same encounters: run i's stage 1 is encounter i of ``fray batch``."""
    camp = parse_campaign({"name": "one", "party": "heroes",
                           "stages": [{"scenario": "ambush.yaml"}]},
                          str(SCENARIOS / "one.yaml"))
    doc = run_campaigns(spec_for(camp, ruleset, 200, seed=9), tmp_path / "c", chart=False)
    batch = run_batch(BatchSpec(scenario_mod.load(SCENARIOS / "ambush.yaml"), ruleset, 200,
                                seed=9), tmp_path / "b")
    assert doc["stages"][0]["won"] == batch["outcomes"]["heroes"]
    assert doc["stages"][0]["draw"] == batch["outcomes"]["draw"]
    assert doc["stages"][0]["deaths"] == batch["sides"]["heroes"]["deaths"]
    with open(tmp_path / "c" / "campaign.csv") as a, open(tmp_path / "b" / "encounters.csv") as b:
        for run, fight in zip(csv.DictReader(a), csv.DictReader(b), strict=True):
            assert run["seed"] == fight["seed"]
            won = {"heroes": "won", "draw": "draw"}.get(fight["winner"], "lost")
            assert run["stage1_outcome"] == won


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_output(road, reference, tmp_path):
    pytest.importorskip("distributed")
    spec = spec_for(road, any_ruleset(), 120, seed=4, workers=2, chunk_size=20, executor="dask")
    run_campaigns(spec, tmp_path, chart=False)
    assert _files(tmp_path) == reference

"""Run until sure: --precision stops at the first chunk boundary where every interval fits."""

import hashlib
import json

import pytest
from helpers import SCENARIOS, any_ruleset, fray

from sim import scenario as scenario_mod
from sim.batch import files
from sim.batch.precision import BLOCK, MIN_FIGHTS, precise, watched, widest
from sim.batch.runner import BatchSpec, run_batch, run_tally
from sim.results.stats import Z95

DUEL = str(SCENARIOS / "duel.yaml")
RULESET = any_ruleset()  # any would do
SKIRMISH = str(SCENARIOS / "neutral_skirmish.yaml")


def normal_need(tally, width):
    """Fights the normal approximation says each watched interval needs for +-width."""
    n = tally.count
    need = 0.0
    for name, (p, lo, hi) in watched(tally).items():
        if "win rate" in name:
            need = max(need, Z95 * Z95 * p * (1 - p) / width ** 2)
        else:  # a clustered rate: its own variance, as the interval has it
            half = (hi - lo) / 2
            need = max(need, n * (half / width) ** 2 * 0.9)
    return need


@pytest.mark.parametrize("width", [0.05, 0.03, 0.02])
def test_every_interval_within_width_and_few_fights(width):
    scen = scenario_mod.load(DUEL)
    tally = run_tally(BatchSpec(scen, RULESET, 20_000, seed=3, workers=1, precision=width), None)
    assert tally.count < 20_000 and tally.count % BLOCK == 0 and tally.count >= MIN_FIGHTS
    for _, lo, hi in watched(tally).values():
        assert (hi - lo) / 2 <= width
    # at most 1.3 times what the normal approximation says the final rates need
    assert tally.count <= 1.3 * max(normal_need(tally, width), MIN_FIGHTS)
    # and it stopped at the first boundary: one chunk fewer was not enough
    shorter = run_tally(BatchSpec(scen, RULESET, tally.count - BLOCK, seed=3, workers=1), None)
    assert tally.count == MIN_FIGHTS or not precise(shorter, width)


def test_same_stop_and_output_on_one_and_two_workers(tmp_path):
    scen = scenario_mod.load(SKIRMISH)
    one = run_batch(BatchSpec(scen, RULESET, 5000, seed=5, workers=1, precision=0.04),
                    tmp_path / "w1")
    two = run_batch(BatchSpec(scen, RULESET, 5000, seed=5, workers=2, precision=0.04),
                    tmp_path / "w2")
    assert one == two and one["precision"]["reached"] and one["encounters"] < 5000
    assert (tmp_path / "w1/encounters.csv").read_bytes() == \
        (tmp_path / "w2/encounters.csv").read_bytes()


def test_the_cap_comes_first():
    scen = scenario_mod.load(DUEL)
    doc = run_batch(BatchSpec(scen, RULESET, 150, seed=1, workers=1, precision=0.01), None)
    assert doc["encounters"] == 150 and not doc["precision"]["reached"]
    assert doc["precision"]["widest"] > 0.01


def test_a_resumed_batch_stops_where_a_whole_one_does(tmp_path):
    scen = scenario_mod.load(DUEL)
    spec = BatchSpec(scen, RULESET, 20_000, seed=2, workers=1, precision=0.05)
    whole = run_batch(spec, tmp_path / "whole")
    # an interrupted batch: its first 200 rows kept, as a stop leaves them
    part = BatchSpec(scen, RULESET, 200, seed=2, workers=1)
    run_batch(part, tmp_path / "cut")
    cut = tmp_path / "cut"
    rows = (cut / "encounters.csv").read_bytes()
    (cut / "encounters.csv").rename(cut / files.part_file("encounters.csv"))
    (cut / "summary.json").unlink()
    files.write_state(cut, {**spec.identity(), "rows": 200, "bytes": len(rows),
                            "sha256": hashlib.sha256(rows).hexdigest()})
    resumed = run_batch(spec, cut, resume=True)
    assert resumed == whole
    assert (cut / "encounters.csv").read_bytes() == (tmp_path / "whole/encounters.csv").read_bytes()


def test_cli_precision_says_how_many_fights(capsys, tmp_path):
    result = fray(capsys, "batch", DUEL, "--precision", "0.05", "--workers", "1", "-q",
                  "--out", str(tmp_path / "b"))
    assert result.code == 0, result.err
    doc = json.loads((tmp_path / "b/summary.json").read_text())
    assert f"within +-0.05 after {doc['encounters']} fights" in result.out
    assert "difficulty (docs/difficulty.md): red " in result.out


@pytest.mark.parametrize("value", ["0.5", "-0.1", "abc"])
def test_bad_precision_is_bad_input(capsys, tmp_path, value):
    result = fray(capsys, "batch", DUEL, "--precision", value, "--out", str(tmp_path / "b"))
    assert result.code == 2 and "--precision" in result.err and "Traceback" not in result.err


def test_compare_runs_until_sure_by_default_and_n_alone_runs_exactly(capsys, tmp_path):
    result = fray(capsys, "compare", DUEL, "--rulesets", RULESET, "--workers", "1", "-q",
                  "--no-charts", "--out", str(tmp_path / "c"))
    assert result.code == 0, result.err
    doc = json.loads((tmp_path / "c/lethality.json").read_text())
    assert doc["precision"] == 0.02
    assert "win rate and death rate per combatant was within" in result.out
    assert not (tmp_path / "c/survival.png").exists()
    for entry in doc["rulesets"].values():
        for side in entry["sides"].values():
            for key in ("win_rate", "death_rate"):
                lo, hi = side[key]["ci95"]
                assert (hi - lo) / 2 <= 0.02
    result = fray(capsys, "compare", DUEL, "--rulesets", RULESET, "--workers", "1", "-q",
                  "-n", "40", "--no-charts", "--out", str(tmp_path / "d"))
    doc = json.loads((tmp_path / "d/lethality.json").read_text())
    assert "precision" not in doc and doc["rulesets"][RULESET]["encounters"] == 40


def test_widest_of_nothing_run_is_everything():
    scen = scenario_mod.load(DUEL)
    assert widest(run_tally(BatchSpec(scen, RULESET, 1, seed=1), None)) > 0.3


def test_a_campaign_runs_until_sure_by_default(capsys, tmp_path):
    camp = str(SCENARIOS / "campaigns" / "road_to_the_keep.yaml")
    result = fray(capsys, "campaign", camp, "--precision", "0.05", "--workers", "1", "-q",
                  "--out", str(tmp_path / "c"))
    assert result.code == 0, result.err
    doc = json.loads((tmp_path / "c/summary.json").read_text())
    block = doc["precision"]
    assert block["reached"] and block["fights"] == doc["runs"] < block["cap"]
    lo, hi = doc["p_clear"]["ci95"]
    assert (hi - lo) / 2 <= 0.05
    assert f"after {doc['runs']} runs" in result.out


def test_a_sweep_runs_each_value_until_sure(capsys, tmp_path):
    result = fray(capsys, "sweep", DUEL, "--set", "max_rounds=5,30", "--precision", "0.05",
                  "--workers", "1", "-q", "--no-charts", "--html", "--out", str(tmp_path))
    assert result.code == 0, result.err
    page = (tmp_path / "report.html").read_text()
    assert "--precision 0.05" in page and not (tmp_path / "sweep.png").exists()


@pytest.mark.slow
def test_a_dask_cluster_stops_where_one_worker_does(tmp_path, dask_cluster):
    import subprocess

    from helpers import FRAY_COMMAND, ROOT

    outs = []
    for name, extra in (("local", ["--workers", "1"]),
                        ("dask", ["--executor", "dask", "--scheduler", dask_cluster])):
        out = tmp_path / name
        result = subprocess.run(
            FRAY_COMMAND + ["batch", DUEL, "--precision", "0.04", "--seed", "4", "--out",
                            str(out), "-q", *extra],
            cwd=ROOT, capture_output=True, text=True, timeout=240)
        assert result.returncode == 0, result.stderr
        outs.append(((out / "summary.json").read_text(), (out / "encounters.csv").read_bytes()))
    assert outs[0] == outs[1]

"""A scenario's ``variants:``: checked like scenarios, fought on the batch's seeds."""

from __future__ import annotations

import json

import pytest
import yaml
from helpers import SCENARIOS, any_ruleset, fray

from sim import scenario as scenario_mod
from sim.batch.runner import BatchSpec, run_batch
from sim.batch.variants import run_variants
from sim.scenario.errors import FrayInputError
from sim.scenario.variants import variants_of

AMBUSH = SCENARIOS / "ambush.yaml"


def with_variants(tmp_path, variants) -> str:
    data = yaml.safe_load(AMBUSH.read_text())
    data["variants"] = variants
    path = tmp_path / "ambush.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_the_bundled_ambush_has_two_variants():
    variants = variants_of(str(AMBUSH), scenario_mod.load(AMBUSH))
    assert len(variants) == 2
    more = variants[0].scenario
    assert len(more.sides[1].members) == len(scenario_mod.load(AMBUSH).sides[1].members) + 1
    assert all(v.note for v in variants)


@pytest.mark.parametrize(("variants", "where", "says"), [
    ([{"name": "a", "set": ["sides.bandits[9].count=3"]}], "variants[0].set[0]", "no entry [9]"),
    ([{"name": "a", "set": ["sides.bandits[1].count=3,4"]}], "variants[0].set[0]",
     "one value"),
    ([{"name": "a", "set": ["max_rounds"]}], "variants[0].set[0]", "PATH=VALUES"),
    ([{"name": "a", "set": ["max_rounds=5"]}, {"name": "a", "set": ["max_rounds=6"]}],
     "variants[1].name", "named twice"),
])
def test_a_bad_variant_is_an_error_naming_the_file_the_variant_and_the_change(
        tmp_path, variants, where, says):
    path = with_variants(tmp_path, variants)
    with pytest.raises(FrayInputError) as exc:
        variants_of(path, scenario_mod.load(path))
    assert exc.value.source == path
    assert exc.value.problems[0][0] == where and says in exc.value.problems[0][1]


def test_a_variant_that_makes_the_scenario_invalid_names_it(tmp_path, capsys):
    path = with_variants(tmp_path, [{"name": "bad weapon",
                                     "set": ["sides.heroes[0].weapon=banana"]}])
    out = fray(capsys, "validate", path)
    assert out.code == 2
    assert "variant 'bad weapon'" in out.err and "banana" in out.err
    assert "Traceback" not in out.err
    out = fray(capsys, "batch", path, "-n", "5", "--out", str(tmp_path / "b"), "-q")
    assert out.code == 2 and not (tmp_path / "b" / "summary.json").exists()


def test_a_variant_keeps_the_sides(tmp_path):
    path = with_variants(tmp_path, [{"name": "renamed", "set": ["sides.rogues=[]"]}])
    with pytest.raises(FrayInputError):
        variants_of(path, scenario_mod.load(path))


def test_a_variants_numbers_are_its_own_batch_on_the_same_seeds(tmp_path):
    base = scenario_mod.load(AMBUSH)
    spec = BatchSpec(base, any_ruleset(), 60, seed=8)
    run_batch(spec, tmp_path)
    variants = variants_of(str(AMBUSH), base)
    block = run_variants(spec, variants, tmp_path / "encounters.csv", 60)
    for variant, row in zip(variants, block["variants"], strict=True):
        alone = run_batch(BatchSpec(variant.scenario, any_ruleset(), 60, seed=8), None)
        assert row["win_rate"] == alone["sides"]["heroes"]["win_rate"]
        assert row["deaths"] == pytest.approx(alone["sides"]["heroes"]["deaths"] / 60, abs=1e-6)
        lo, hi = row["win_rate_change_ci95"]
        assert lo <= row["win_rate_change"] <= hi
        assert row["win_rate_change"] == pytest.approx(row["win_rate"] - row["win_rate_base"],
                                                       abs=1e-5)


def test_batch_prints_the_variants_table_and_keeps_it(tmp_path, capsys):
    out = fray(capsys, "batch", str(AMBUSH), "-n", "20", "--workers", "1", "--out",
               str(tmp_path / "b"), "--html", str(tmp_path / "h"), "-q")
    assert out.code == 0, out.err
    assert "the same 20 seeds: heroes" in out.out
    assert "more brawlers" in out.out and "archers stand firm" in out.out
    doc = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert [v["name"] for v in doc["variants"]["variants"]] == ["more brawlers",
                                                                "archers stand firm"]
    assert 'id="variants"' in (tmp_path / "h" / "report.html").read_text()


def test_compare_fights_the_variants_under_each_ruleset(tmp_path, capsys):
    out = fray(capsys, "compare", str(AMBUSH), "-n", "20", "--rulesets", any_ruleset(),
               "--out", str(tmp_path / "c"), "--no-charts", "-q")
    assert out.code == 0, out.err
    assert f"variants under {any_ruleset()}, the same 20 seeds: heroes" in out.out
    doc = json.loads((tmp_path / "c" / any_ruleset() / "summary.json").read_text())
    assert len(doc["variants"]["variants"]) == 2

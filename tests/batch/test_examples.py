"""A batch's example fights: real fights of the batch that ``fray run --seed`` replays."""

from __future__ import annotations

import csv
import json

import pytest
from helpers import SCENARIOS, any_ruleset, fray

from sim import scenario as scenario_mod
from sim.batch.runner import BatchSpec, run_batch
from sim.core.engine import run_encounter
from sim.results.examples import EXAMPLES
from sim.rulesets import registry

AMBUSH = SCENARIOS / "ambush.yaml"


@pytest.mark.parametrize("ruleset", registry.names())
def test_each_example_is_a_fight_of_the_batch_that_its_seed_replays(tmp_path, capsys, ruleset):
    doc = run_batch(BatchSpec(scenario_mod.load(AMBUSH), ruleset, 40, seed=3), tmp_path)
    rows = list(csv.DictReader((tmp_path / "encounters.csv").open()))
    assert [e["name"] for e in doc["examples"]] == [name for name, _ in EXAMPLES]
    for e in doc["examples"]:
        kept = rows[e["index"]]
        assert int(kept["seed"]) == e["seed"]
        assert (kept["winner"], int(kept["rounds"])) == (e["winner"], e["rounds"])
        assert int(kept["heroes_standing"]) == e["standing"]
        assert e["story"].startswith(f"{e['winner']} won" if e["winner"] != "draw" else "draw")
    # fray run --seed tells the typical fight to the same end
    typical = doc["examples"][2]
    out = fray(capsys, "run", str(AMBUSH), "--ruleset", ruleset, "--seed",
               str(typical["seed"]), "--format", "jsonl")
    assert out.code == 0
    end = next(e for e in map(json.loads, out.out.splitlines()) if e["type"] == "end")
    assert (end["winner"], end["rounds"]) == (typical["winner"], typical["rounds"])


def test_examples_do_not_depend_on_workers_or_chunks():
    scen = scenario_mod.load(AMBUSH)
    one = run_batch(BatchSpec(scen, any_ruleset(), 60, seed=5), None)
    two = run_batch(BatchSpec(scen, any_ruleset(), 60, seed=5, workers=2, chunk_size=7), None)
    assert one["examples"] == two["examples"] and one["spread"] == two["spread"]


def test_a_story_names_the_fallen_of_the_first_side():
    doc = run_batch(BatchSpec(scenario_mod.load(AMBUSH), any_ruleset(), 60, seed=2), None)
    worst = doc["examples"][0]
    _, events = run_encounter(scenario_mod.load(AMBUSH), any_ruleset(), worst["seed"],
                              log=True)
    assert events is not None
    heroes = {m.name for m in scenario_mod.load(AMBUSH).sides[0].members}
    fell = {e["who"] for e in events if e["type"] == "status" and e["who"] in heroes}
    for name in fell:
        assert name in worst["story"]
    if not fell:
        assert "none of heroes fell" in worst["story"]


def test_batch_prints_the_spread_examples_and_coverage_and_writes_the_pages(tmp_path, capsys):
    out = fray(capsys, "batch", str(AMBUSH), "-n", "30", "--workers", "1", "--out",
               str(tmp_path / "b"), "--html", str(tmp_path / "h"), "-q")
    assert out.code == 0, out.err
    assert "how bad it can get for heroes: lose anyone" in out.out
    assert "the fights behind the numbers" in out.out
    assert "what was modelled (docs/rules/" in out.out
    doc = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert {"examples", "spread", "coverage"} <= set(doc)
    report = (tmp_path / "h" / "report.html").read_text()
    for e in doc["examples"]:
        page = tmp_path / "h" / f"{e['name']}-{e['index']}.html"
        assert page.is_file()
        assert f'href="{page.name}"' in report
        assert str(e["seed"]) in report
    # a second --html into the same folder needs --force
    again = fray(capsys, "batch", str(AMBUSH), "-n", "30", "--workers", "1", "--out",
                 str(tmp_path / "b2"), "--html", str(tmp_path / "h"), "-q")
    assert again.code == 2 and "report.html" in again.err

"""The ``lookahead`` profile: decides by rollouts, reproducibly, in batches and in ``fray play``.

Its strength against ``tactical`` is measured by ``bench/lookahead.py`` (docs/play.md); the
slow tests in the folders of the rulesets where it clearly wins
(``tests/rulesets/<folder>/test_lookahead.py``) hold those cells to the issue's mark.
"""

from __future__ import annotations

import json

from helpers import ROOT, any_ruleset, fray, pitted

from sim import scenario as scenario_mod
from sim.batch.chunks import run_chunk
from sim.core.engine import Encounter

DUEL_FILE = ROOT / "tests" / "data" / "mirror_duel.yaml"
DUEL = scenario_mod.load(DUEL_FILE)


def test_a_lookahead_fight_is_the_same_fight_from_the_same_seed():
    scenario = pitted(DUEL, 0, budget=24, horizon=3)
    first = Encounter(scenario, any_ruleset(), 4, log=True)
    first.run()
    again = Encounter(scenario, any_ruleset(), 4, log=True)
    again.run()
    assert first.log == again.log
    assert first.made["West sword"]  # its choices are recorded, for rollouts to replay
    rows = run_chunk(scenario, any_ruleset(), 4, 0, 3)
    assert rows == run_chunk(scenario, any_ruleset(), 4, 0, 2) + run_chunk(
        scenario, any_ruleset(), 4, 2, 3)


def test_its_choices_are_its_menus_and_it_never_yields(monkeypatch):
    scenario = pitted(DUEL, 1, budget=16, horizon=2)
    enc = Encounter(scenario, any_ruleset(), 2, log=True)
    enc.run()
    declared = [e for e in enc.log if e["type"] == "declare" and e.get("who") == "East sword"]
    assert declared
    assert not any("yield" in e["text"] for e in declared)


def test_the_settings_are_checked_where_the_scenario_sets_them(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(DUEL_FILE.read_text().replace("ai: tactical", "ai: {profile: lookahead, "
                                                 "budget: 0}", 1))
    result = fray(capsys, "validate", str(bad))
    assert result.code == 2 and "budget" in result.err
    good = tmp_path / "good.yaml"
    good.write_text(DUEL_FILE.read_text().replace("ai: tactical", "ai: {profile: lookahead, "
                                                  "budget: 32, horizon: 4}", 1))
    member = scenario_mod.load(good).sides[0].members[0]
    assert (member.ai, member.doctrine.budget, member.doctrine.horizon) == ("lookahead", 32, 4)


def test_a_lookahead_opponent_in_play_replays_the_players_answers(capsys, monkeypatch,
                                                                   tmp_path):
    """Its rollouts replay what the player answered so far; the record replays the fight."""
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL_FILE.read_text().replace(
        "{name: East sword, at: east_wall, ai: tactical",
        "{name: East sword, at: east_wall, ai: {profile: lookahead, budget: 16, horizon: 3}"))
    record = tmp_path / "r.json"
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("hold\n1\n\n1\n"))
    first = fray(capsys, "play", str(path), "--as", "West sword", "--ruleset", any_ruleset(),
                 "--seed", "5", "--record", str(record))
    assert first.code == 0, first.err
    assert json.loads(record.read_text())["answers"][0] == "hold"
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    again = fray(capsys, "play", str(path), "--replay", str(record))
    assert again.code == 0 and again.out == first.out

"""The ``lookahead`` profile: decides by rollouts, reproducibly, in batches and in ``fray play``.

Its strength against ``tactical`` is measured by ``bench/lookahead.py`` (docs/play.md); the
slow test here holds the cell where it clearly wins to the issue's mark.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from helpers import ROOT, fray

from sim import scenario as scenario_mod
from sim.ai import lookahead
from sim.batch.runner import run_chunk
from sim.core.engine import Encounter
from sim.core.seeds import encounter_seed
from sim.scenario.specs import Doctrine

DUEL_FILE = ROOT / "tests" / "data" / "mirror_duel.yaml"
DUEL = scenario_mod.load(DUEL_FILE)


def pitted(scenario, looking: int, **settings):
    """Side ``looking`` on ``lookahead`` (with ``settings``), the other on ``tactical``."""
    sides = []
    for k, side in enumerate(scenario.sides):
        doctrine = Doctrine("lookahead", **settings) if k == looking else Doctrine("tactical")
        sides.append(replace(side, members=tuple(
            replace(m, ai=doctrine.profile, doctrine=doctrine) for m in side.members)))
    return replace(scenario, sides=tuple(sides))


def test_a_lookahead_fight_is_the_same_fight_from_the_same_seed():
    scenario = pitted(DUEL, 0, budget=24, horizon=3)
    first = Encounter(scenario, "opend6", 4, log=True)
    first.run()
    again = Encounter(scenario, "opend6", 4, log=True)
    again.run()
    assert first.log == again.log
    assert first.made["West sword"]  # its choices are recorded, for rollouts to replay
    rows = run_chunk(scenario, "opend6", 4, 0, 3)
    assert rows == run_chunk(scenario, "opend6", 4, 0, 2) + run_chunk(scenario, "opend6", 4,
                                                                        2, 3)


def test_its_choices_are_its_menus_and_it_never_yields(monkeypatch):
    scenario = pitted(DUEL, 1, budget=16, horizon=2)
    enc = Encounter(scenario, "ore", 2, log=True)
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
    first = fray(capsys, "play", str(path), "--as", "West sword", "--ruleset", "opend6",
                 "--seed", "5", "--record", str(record))
    assert first.code == 0, first.err
    assert json.loads(record.read_text())["answers"][0] == "hold"
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    again = fray(capsys, "play", str(path), "--replay", str(record))
    assert again.code == 0 and again.out == first.out


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp", "bgrade"])
def test_lookahead_beats_tactical_in_the_mirror_duel(ruleset):
    """Measured at its defaults over 200 duels (docs/play.md): 84% to 95% of decided fights."""
    won = lost = 0
    for i in range(30):
        scenario = pitted(DUEL, i % 2)
        winner = Encounter(scenario, ruleset, encounter_seed(11, i)).run().winner
        if winner == scenario.sides[i % 2].name:
            won += 1
        elif winner is not None:
            lost += 1
    assert won / (won + lost) >= 0.65, (won, lost)
    assert lookahead.BUDGET >= 1

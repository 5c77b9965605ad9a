"""Campaign files: validated like scenarios, every error naming the file and the field."""

from __future__ import annotations

import pytest
import yaml
from helpers import SCENARIOS

from sim import registry
from sim.scenario.campaign import is_campaign, load_campaign, parse_campaign
from sim.scenario.errors import ScenarioError

ROAD = SCENARIOS / "campaigns" / "road_to_the_keep.yaml"
WHERE = str(SCENARIOS / "x.yaml")


def _problems(data, source=WHERE) -> str:
    with pytest.raises(ScenarioError) as info:
        parse_campaign(data, source)
    return info.value.render()


def test_the_bundled_campaign_loads():
    camp = load_campaign(ROAD)
    assert camp.name == "Road to the keep" and camp.party == "heroes"
    assert camp.ruleset == camp.stages[0].scenario.ruleset  # the first stage's
    assert [s.label for s in camp.stages] == ["ambush", "night_camp", "keep_gate"]
    assert [s.rest for s in camp.stages] == ["short", "long", "none"]
    assert camp.roster() == ["Wolfman", "Brother Ansel", "Kestrel"]
    assert is_campaign(yaml.safe_load(ROAD.read_text()))
    assert not is_campaign(yaml.safe_load((SCENARIOS / "duel.yaml").read_text()))


def test_inline_stage_and_ruleset_override():
    duel = yaml.safe_load((SCENARIOS / "duel.yaml").read_text())
    other = registry.names()[-1]  # not the stages' own
    camp = parse_campaign({"name": "c", "party": "red", "ruleset": other,
                           "stages": [{"scenario": duel}, {"scenario": "duel.yaml"}]}, WHERE)
    assert camp.ruleset == other and camp.stages[0].label == "sword_duel"


@pytest.mark.parametrize("data, needle", [
    ({"name": "c", "stages": [{"scenario": "duel.yaml"}]}, "party"),
    ({"name": "c", "party": "red", "stages": []}, "stages"),
    ({"name": "c", "party": "red", "stages": [{"scenario": "duel.yaml", "rest": "nap"}]},
     "stages[0].rest"),
    ({"name": "c", "party": "red", "stages": [{"scenario": "duel.yaml"}], "extra": 1},
     "extra"),
    ({"name": "c", "party": "green", "stages": [{"scenario": "duel.yaml"}]},
     "stages[0].scenario: stage 1 (duel) has no side 'green'"),
    ({"name": "c", "party": "red", "ruleset": "gurps", "stages": [{"scenario": "duel.yaml"}]},
     "unknown ruleset 'gurps'"),
])
def test_bad_campaigns_name_the_field(data, needle):
    assert needle in _problems(data)


def test_a_missing_stage_file_names_it():
    text = _problems({"name": "c", "party": "red", "stages": [{"scenario": "nope.yaml"}]})
    assert "nope.yaml" in text and "file not found" in text


def test_an_inline_stage_error_names_the_stage():
    text = _problems({"name": "c", "party": "red", "stages": [
        {"scenario": {"name": "s", "sides": {"red": [{"name": "A", "weapon": "swrod"}],
                                             "blue": [{"name": "B"}]}}}]})
    assert "stages[0].scenario" in text and "swrod" in text and "did you mean 'sword'" in text


def _duel_with(tmp_path, file: str, **change) -> str:
    data = yaml.safe_load((SCENARIOS / "duel.yaml").read_text())
    data["sides"]["red"][0].update(change)
    (tmp_path / file).write_text(yaml.safe_dump(data))
    return file


def test_a_member_is_one_character_throughout(tmp_path):
    other = _duel_with(tmp_path, "axe.yaml", weapon="club")
    text = _problems({"name": "c", "party": "red", "stages": [
        {"scenario": str(SCENARIOS / "duel.yaml")}, {"scenario": other}]},
        str(tmp_path / "c.yaml"))
    assert ("'Ser Aldric' in stage 2 (axe) is not the character of stage 1 (duel): weapon "
            "club here, sword in stage 1 (duel)") in text
    moved = _duel_with(tmp_path, "moved.yaml", ai="aggressive")
    camp = parse_campaign({"name": "c", "party": "red", "stages": [
        {"scenario": str(SCENARIOS / "duel.yaml")}, {"scenario": moved}]},
        str(tmp_path / "c.yaml"))
    assert len(camp.stages) == 2  # a new AI is allowed


def test_a_member_may_not_go_missing(tmp_path):
    renamed = _duel_with(tmp_path, "renamed.yaml", name="Ser Other")
    text = _problems({"name": "c", "party": "red", "stages": [
        {"scenario": str(SCENARIOS / "duel.yaml")}, {"scenario": renamed}]},
        str(tmp_path / "c.yaml"))
    assert "party member 'Ser Aldric' (from stage 1 (duel)) is missing" in text


def test_a_scenario_is_not_a_campaign_and_the_reverse(capsys):
    from helpers import fray

    result = fray(capsys, "batch", str(ROAD), "-n", "5")
    assert result.code == 2 and "this is a campaign file" in result.err
    assert "fray campaign" in result.err
    result = fray(capsys, "campaign", str(SCENARIOS / "duel.yaml"), "-n", "5")
    assert result.code == 2 and "this is a scenario file" in result.err
    assert "Traceback" not in result.err


def test_a_misspelt_party_gets_a_suggestion():
    assert "did you mean 'red'" in _problems({"name": "c", "party": "rde",
                                               "stages": [{"scenario": "duel.yaml"}]})

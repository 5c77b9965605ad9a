"""Names a terminal would act on, or that look like another, are refused at load.

The refusal shows the character escaped (never prints it raw), names the field, and the
first such character's place.
"""

from __future__ import annotations

import pytest
import yaml
from helpers import fray

from sim.scenario import parse
from sim.scenario.errors import ScenarioError


def _doc(red: str = "Ser Aldric", blue: str = "Ser Benedek", side: str = "red",
         node: str = "field", title: str = "Duel") -> dict:
    return {"name": title, "map": {"nodes": {node: None}},
            "sides": {side: [{"name": red}], "blue": [{"name": blue}]}}


@pytest.mark.parametrize("name, shown, kind", [
    ("Ser\x1b]0;pwned\x07 Aldric", "\\x1b", "a control character"),
    ("Ser\x07Aldric", "\\x07", "a control character"),
    ("Ser\x9bAldric", "\\u009b", "a control character"),  # C1: CSI
    ("Ser \u202eAldric", "\\u202e", "an invisible formatting character"),  # bidi override
    ("Ser\u200b Aldric", "\\u200b", "an invisible formatting character"),  # zero width
    ("Ser\u2028Aldric", "\\u2028", "a line separator"),
], ids=["esc", "bel", "c1", "bidi", "zero-width", "line-separator"])
def test_a_name_holding_what_a_reader_cannot_see_is_refused_escaped(name, shown, kind):
    with pytest.raises(ScenarioError) as caught:
        parse(_doc(red=name))
    text = caught.value.render()
    assert "sides.red[0].name" in text and f"{kind} ({shown}, character " in text
    assert name not in text and "\x1b" not in text and "\x07" not in text


@pytest.mark.parametrize("field, doc", [
    ("sides.x\\u202ered", _doc(side="x\u202ered")),
    ("map.nodes.ford\\x1b[2J", _doc(node="ford\x1b[2J")),
    ("name", _doc(title="Duel\x1b]0;title\x07")),
])
def test_sides_nodes_and_the_scenarios_name_are_checked_too(field, doc):
    if "map" in doc and "\x1b" in next(iter(doc["map"]["nodes"])):
        for side in doc["sides"].values():
            side[0]["at"] = next(iter(doc["map"]["nodes"]))
    with pytest.raises(ScenarioError) as caught:
        parse(doc)
    text = caught.value.render()
    assert f"{field}: " in text and "\x1b" not in text and "\u202e" not in text


@pytest.mark.parametrize("twin", ["Ser\u00a0Aldric", "Ser  Aldric", "Ser Aldric ",
                                  "\uff33er Aldric"],  # no-break space, two, trailing, wide S
                         ids=["no-break", "double", "trailing", "wide"])
def test_names_that_differ_only_in_what_cannot_be_seen_are_refused(twin):
    with pytest.raises(ScenarioError) as caught:
        parse(_doc(blue=twin))
    text = caught.value.render()
    assert "looks the same as" in text and "names must differ in what a reader sees" in text


def test_plain_letters_of_any_script_and_symbols_stay_allowed():
    scenario = parse(_doc(red="Zoë Ørsted", blue="Łucja 李 ⚔"))
    assert [m.name for s in scenario.sides for m in s.members] == ["Zoë Ørsted", "Łucja 李 ⚔"]


def test_validate_refuses_a_file_with_a_terminal_escape_and_prints_it_escaped(capsys,
                                                                              tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_text(yaml.safe_dump(_doc(red="A\x1b[2J\x1b]0;owned\x07")))
    result = fray(capsys, "validate", str(path))
    assert result.code == 2 and "\\x1b" in result.err
    assert "\x1b" not in result.err + result.out


def test_a_campaigns_name_is_checked_too():
    from helpers import SCENARIOS

    from sim.scenario.campaign import parse_campaign
    from sim.scenario.errors import ScenarioError as Refused

    with pytest.raises(Refused, match=r"holds a control character \(\\x1b"):
        parse_campaign({"name": "raid\x1b]0;owned\x07", "party": "heroes",
                        "stages": [{"scenario": "ambush.yaml"}]}, str(SCENARIOS / "c.yaml"))

"""Words every ruleset's log shares the duty of: a move to a place says where it goes."""

from __future__ import annotations

import pytest
import yaml
from helpers import SCENARIOS

from sim import scenario as scenario_mod
from sim.core.engine import Encounter
from sim.rulesets import registry


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_move_to_a_place_names_the_place(ruleset):
    """Tactical archers take cover: "moves to west_wall", not "moves to a new place"."""
    data = yaml.safe_load((SCENARIOS / "mirror.yaml").read_text())
    for members in data["sides"].values():
        for member in members:
            member["ai"] = "tactical"
    scen = scenario_mod.parse(data, "mirror.yaml")
    said = []
    for seed in range(3):
        enc = Encounter(scen, ruleset, seed, log=True)
        enc.run()
        said += [e["text"] for e in enc.log if e["type"] in ("declare", "roll")]
    covers = [t for t in said if "takes cover at " in t]
    assert covers, "no cover move to check"
    for text in covers:
        place = text.split("takes cover at ")[1].split(")")[0].split(" and")[0].rstrip(".")
        assert f"to {place}" in text, text
    assert not [t for t in said if "a new place" in t]

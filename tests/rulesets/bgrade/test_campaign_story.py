"""B-Grade in a told campaign (``fray campaign --solo``): the fallen who come to once the Shock
is halved are told so, as the roll call and the fates say."""

from __future__ import annotations

import pytest
from helpers import SCENARIOS, fray

ROAD = SCENARIOS / "campaigns" / "road_to_the_keep.yaml"


@pytest.mark.parametrize("fmt, item", [("text", "  "), ("markdown", "- ")])
def test_solo_says_who_comes_to_after_the_roll_call_said_unconscious(capsys, fmt, item):
    """B-Grade halves the Shock taken once a fight is over: a member whose Shock track was
    full is listed unconscious by the roll call (the fight's status) with a track no longer
    full; the story says it comes to, with the same state, and the fates agree."""
    from sim.core.campaign import run_campaign
    from sim.scenario.campaign import load_campaign

    camp = load_campaign(ROAD)
    told = 0
    for seed in range(8):
        run = run_campaign(camp, "bgrade", seed)
        text = fray(capsys, "campaign", str(ROAD), "--solo", "--seed", str(seed),
                    "--ruleset", "bgrade", "--format", fmt).out
        stages = text.split("Stage 1 of 3")[1].split(" of 3: ")
        for number, part in enumerate(stages, start=1):
            head = "Coming to after the fight (unconscious when it ended, as the roll call " \
                   "says, but no longer kept down by their wounds):"
            for line in part.splitlines():
                if not line.startswith(f"{item}") or " comes to (" not in line:
                    continue
                name, state = line[len(item):].removesuffix(")").split(" comes to (")
                assert head in part, (seed, number)
                # the roll call above it lists the member unconscious, with that very state
                assert f"{name} (heroes): unconscious - {state}" in part, (seed, line)
                told += 1
        ending = text.split("The party at the end:")[1]
        last = stages[-1].split("The party at the end:")[0]
        for name, fate in run.fates:
            assert f"{name}: {fate}" in ending
            assert (f"{item}{name} comes to (" in last) == (fate == "unconscious, then comes to")
    assert told >= 3
    capsys.readouterr()

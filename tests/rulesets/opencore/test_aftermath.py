"""OpenCore's aftermath: the fallen settled once the fight is over, counted to the end of
the scene.

Hand-set states under OpenCore (the ruleset whose effects outlive a fight: bleeding below
0 HP, bloodloss from criticals); ORE's (no deaths after) is in tests/rulesets/ore.
"""

from __future__ import annotations

import pytest
from helpers import SCENARIOS, scenario

from sim import scenario as scenario_mod
from sim.core import aftermath
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets.opencore.fighter import check_health, ensure_bleeding


def opencore(tend: str | None = None, con: int = 40):
    """Two a side under OpenCore; each side's second member is down and bleeding."""
    top = {"ruleset": "opencore"}
    if tend is not None:
        top["aftermath"] = {"tend": tend}
    sides = {side: [{"name": side.upper(), "count": 2,
                     "opencore": {"abilities": {"con": con}, "hp": 20}}] for side in "ab"}
    enc = Encounter(scenario(sides, **top), "opencore", seed=0)
    for side in "ab":
        down = enc.sides[side][1]
        down.hp = -3
        check_health(enc, down, "a test")  # unconscious, bleeding
    return enc


def settle(enc: Encounter, winner: str | None) -> None:
    enc.fight_over = True
    aftermath.settle(enc, winner)


def test_the_winner_tends_its_own_and_the_losers_bleed_to_death():
    enc = opencore()
    settle(enc, "a")
    a_down, b_down = enc.sides["a"][1], enc.sides["b"][1]
    assert a_down.status is Status.UNCONSCIOUS and a_down.hp == -3 and not a_down.bleeding
    assert b_down.status is Status.DEAD and b_down.hp == -40  # -CON
    assert enc.died_after == {b_down}


def test_deaths_after_are_counted_apart_and_together():
    """A whole fight: the loser's fallen bleed out after it; deaths = in fight + after."""
    scen = scenario_mod.load(SCENARIOS / "neutral_duel.yaml")
    after = 0
    for seed in range(40):
        result = Encounter(scen, "opencore", seed).run()
        for side in result.sides:
            assert side.deaths_in_fight + side.deaths_after == side.deaths
            after += side.deaths_after
    assert after > 0  # OpenCore's fallen used to count as survivors


@pytest.mark.parametrize(("tend", "winner", "dead"), [
    ("all", "a", set()),        # everyone tended: nobody bleeds out
    ("none", "a", {"A 2", "B 2"}),
    ("own", None, {"A 2", "B 2"}),  # a draw tends nobody
    ("all", None, {"A 2", "B 2"}),  # whatever the option: nobody holds the field
    ("own", "b", {"A 2"}),
])
def test_who_is_tended(tend, winner, dead):
    enc = opencore(tend)
    settle(enc, winner)
    assert {c.name for c in enc.died_after} == dead


def test_untended_bloodloss_kills_a_fighter_left_standing():
    enc = opencore("none")
    standing = enc.sides["a"][0]
    standing.bloodloss = 2
    ensure_bleeding(enc, standing)
    settle(enc, "a")
    assert standing.status is Status.DEAD and standing in enc.died_after


def test_the_survival_curve_is_the_fights_whoever_the_aftermath_kills():
    """``out_rounds`` lists who was out when the fight ended (``out_when_fight_ended``)."""
    # a fighter standing when the fight ended and dead after it: out of the scene, not of
    # the fight
    enc = opencore("none")
    standing = enc.sides["a"][0]
    standing.bloodloss = 2
    ensure_bleeding(enc, standing)
    settle(enc, "a")
    assert standing.status is Status.DEAD and standing not in enc.out_when_fight_ended
    assert enc.out_when_fight_ended == {enc.sides[side][1]: 0 for side in "ab"}


def test_the_log_ends_with_the_aftermath_and_a_roll_call():
    enc = Encounter(scenario_mod.load(SCENARIOS / "neutral_duel.yaml"), "opencore", 2, log=True)
    result = enc.run()
    kinds = [e["type"] for e in enc.log]
    end = kinds.index("end")
    assert kinds[end + 1] == "aftermath" and kinds[-2:] == ["rollcall", "rollcall"]
    calls = {e["who"]: e["state"] for e in enc.log if e["type"] == "rollcall"}
    loser = next(s for s in result.sides if s.name != result.winner)
    assert loser.deaths_after == 1 and "dead" in calls.values()
    assert any("after the fight" in e["text"] for e in enc.log if e["type"] == "rollcall")

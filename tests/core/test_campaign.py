"""One campaign run: stage 1 is the batch's encounter, carried state is neutral when there is
nothing to carry, who fights, who sits out, and when a run ends."""

from __future__ import annotations

import pytest
from helpers import SCENARIOS, any_ruleset

from sim.core.campaign import run_campaign
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.core.seeds import encounter_seed, stage_seed
from sim.rulesets import registry
from sim.scenario.campaign import load_campaign, parse_campaign

RULESETS = registry.names()
ROAD = SCENARIOS / "campaigns" / "road_to_the_keep.yaml"

# Ser Aldric as scenarios/duel.yaml has him: a party member is one character throughout
ALDRIC = {"traits": {"strength": 3, "endurance": 3, "agility": 3, "dexterity": 2,
                     "perception": 2},
          "skills": {"melee": 3, "dodge": 1, "parry": 2}, "weapon": "sword", "armor": "leather"}
# A party that cannot be hurt in stage 1: its foe is a passive dummy that never acts.
DUMMY_FIGHT = {
    "name": "Warm-up", "max_rounds": 50,
    "sides": {
        "red": [{"name": "Ser Aldric", **ALDRIC}],
        "dummy": [{"name": "Dummy", "ai": "passive", "weapon": "unarmed"}],
    },
    # a ruleset that deals a hand at every fight's start (B-Grade) plays without its deck
    # here: with no deck, nothing is carried
    "options": {name: {"drama_deck": False} for name, block in registry.option_blocks().items()
                if "drama_deck" in block.model_fields},
}


def _campaign(*stages, party="red", tmp=SCENARIOS / "x.yaml"):
    return parse_campaign({"name": "test", "party": party, "stages": list(stages)}, str(tmp))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_stage_one_is_the_batch_encounter(ruleset):
    camp = _campaign({"scenario": "duel.yaml", "rest": "long"}, {"scenario": "duel.yaml"})
    for i in range(15):
        seed = encounter_seed(3, i)
        run = run_campaign(camp, ruleset, seed)
        alone = Encounter(camp.stages[0].scenario, ruleset, seed).run()
        assert run.stages[0].result == alone
        assert run.stages[0].seed == seed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_party_carrying_nothing_fights_as_a_fresh_one(ruleset):
    """Unhurt and nothing spent: stage 2 is the very fight ``fray run`` gives with its seed.

    Against a passive dummy the party is mostly unhurt (an OpenCore fumble can still cut
    its own wielder, and ``opend6-hp`` keeps the hit points it rolled in stage 1): the runs
    whose fighter enters exactly as a fresh one would are held to the fresh fight.
    """
    camp = _campaign({"scenario": DUMMY_FIGHT, "rest": "none"}, {"scenario": "duel.yaml"})
    checked = 0
    for seed in range(60):
        run = run_campaign(camp, ruleset, seed, log=True)
        assert run.stages[0].outcome == "won"
        fresh = Encounter(camp.stages[1].scenario, ruleset, stage_seed(seed, 2), log=True)
        if dict(run.stages[1].entering)["Ser Aldric"] != fresh.sides["red"][0].state():
            continue
        assert run.stages[1].result == fresh.run()
        assert run.stages[1].events == fresh.log
        checked += 1
    assert checked >= 5


def test_carried_wounds_change_the_next_fight():
    """The converse: a party that was hurt does not enter as a fresh one."""
    camp = _campaign({"scenario": "duel.yaml"}, {"scenario": "duel.yaml"})
    hurt = 0
    for seed in range(60):
        run = run_campaign(camp, any_ruleset(), seed, log=True)
        if len(run.stages) == 2:
            state = dict(run.stages[1].entering)["Ser Aldric"]
            hurt += state != "unhurt"
    assert hurt > 5


def test_reach_and_win_counts_chain(tmp_path):
    camp = load_campaign(ROAD)
    reached = [0] * 4
    won = [0] * 3
    for seed in range(60):
        run = run_campaign(camp, any_ruleset(), seed)
        for s in run.stages:
            reached[s.stage - 1] += 1
            won[s.stage - 1] += s.outcome == "won"
        assert run.reached == len(run.stages)
        assert all(s.outcome == "won" for s in run.stages[:-1])  # a run ends at its first non-win
        assert run.cleared == (run.reached == 3 and run.stages[-1].outcome == "won")
    assert reached[1] == won[0] and reached[2] == won[1]
    assert reached[0] == 60


def test_the_dead_stay_dead():
    camp = load_campaign(ROAD)
    deaths_seen = 0
    for seed in range(60):
        run = run_campaign(camp, any_ruleset(), seed, log=True)
        dead: set[str] = set()
        for s in run.stages:
            assert not dead & set(s.fighters) and not dead & set(s.sat_out)
            died = {e["who"] for e in s.events or () if e["type"] == "status"
                    and e["status"] == "dead" and e["who"] in s.fighters}
            assert len(died) == s.deaths
            dead |= died
            deaths_seen += len(died)
        assert dead == {n for n, fate in run.fates if fate == "dead"}
        assert run.survivors == sum(f in ("standing", "unconscious") for _, f in run.fates)
    assert deaths_seen > 10


def test_members_not_fit_sit_out_and_nobody_fit_ends_the_run(monkeypatch):
    camp = _campaign({"scenario": DUMMY_FIGHT}, {"scenario": "duel.yaml"})
    monkeypatch.setattr(registry.get(any_ruleset()), "fit", lambda self, f: False)
    run = run_campaign(camp, any_ruleset(), 1, log=True)
    assert [s.outcome for s in run.stages] == ["won", "unable"]
    assert run.stages[1].sat_out == ("Ser Aldric",) and run.stages[1].fighters == ()
    assert run.reached == 2 and not run.cleared
    assert run.fates == (("Ser Aldric", "unconscious"),) and run.survivors == 1


def test_rest_rolls_use_their_own_generator():
    """The rests after a stage do not move the next stage's fight (its seed is its own)."""
    camp_none = _campaign({"scenario": DUMMY_FIGHT, "rest": "none"}, {"scenario": "duel.yaml"})
    camp_long = _campaign({"scenario": DUMMY_FIGHT, "rest": "long"}, {"scenario": "duel.yaml"})
    for seed in range(10):
        a = run_campaign(camp_none, any_ruleset(), seed)
        b = run_campaign(camp_long, any_ruleset(), seed)
        assert len(a.stages) == len(b.stages) == 2  # a passive dummy never wins stage 1
        # the long rest rolled (and healed nothing on an unhurt fighter): the same fight
        assert a.stages[1].result == b.stages[1].result
        assert b.stages[0].recovery[0][0] == "Ser Aldric"


def test_a_member_joining_later_is_built_fresh():
    late = {"name": "Second fight", "sides": {
        "red": [{"name": "Ser Aldric", **ALDRIC}, {"name": "Squire", "weapon": "club"}],
        "blue": [{"name": "Brute", "weapon": "club"}]}}
    camp = _campaign({"scenario": DUMMY_FIGHT}, {"scenario": late})
    assert camp.roster() == ["Ser Aldric", "Squire"]
    run = run_campaign(camp, any_ruleset(), 2, log=True)
    assert "Squire" in run.stages[1].fighters
    assert dict(run.stages[1].entering)["Squire"] == "unhurt"


@pytest.mark.parametrize("rejoin", [False, True])
def test_the_fled_leave_the_campaign_unless_they_may_rejoin(monkeypatch, rejoin):
    pair = {"name": "Two", "max_rounds": 50, "sides": {
        "red": [{"name": "Ser Aldric", **ALDRIC}, {"name": "Squire", "weapon": "club"}],
        "dummy": [{"name": "Dummy", "ai": "passive"}]}}
    camp = parse_campaign({"name": "c", "party": "red", "fled_rejoin": rejoin,
                           "stages": [{"scenario": pair}, {"scenario": pair}]},
                          str(SCENARIOS / "x.yaml"))
    real_run = Encounter.run

    def squire_flees(enc):
        result = real_run(enc)
        for c in enc.combatants:
            if c.name == "Squire":  # as if its morale broke and it left the field
                c.status = Status.FLED
        return result

    monkeypatch.setattr(Encounter, "run", squire_flees)
    run = run_campaign(camp, any_ruleset(), 3)
    assert run.stages[0].outcome == "won"
    assert ("Squire" in run.stages[1].fighters) == rejoin
    fates = dict(run.fates)
    assert fates["Squire"] == "fled"
    assert run.survivors == (2 if rejoin else 1)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_who_comes_to_is_what_the_roll_call_and_the_fates_say(ruleset):
    """Out cold when a fight ended but no longer kept down by its wounds (ORE/B-Grade: half
    the Shock went in the aftermath): the roll call still says ``unconscious`` (the fight's
    status, as the results count it), the stage says the member comes to, with the state
    beside the roll call's, the member fights the next stage, and a last stage's come-to
    members are exactly those whose fate is ``unconscious, then comes to`` (that some do
    under ORE and B-Grade: tests/rulesets/ore/test_campaign.py)."""
    camp = load_campaign(ROAD)
    for seed in range(60):
        run = run_campaign(camp, ruleset, seed, log=True)
        for s, after in zip(run.stages, (*run.stages[1:], None), strict=True):
            calls = {e["who"]: e for e in s.events or () if e["type"] == "rollcall"
                     and e["who"] in s.fighters}
            came = dict(s.came_to)
            for name, state in came.items():
                assert calls[name]["state"] == "unconscious", (seed, s.stage, name)
                assert calls[name]["text"].endswith(f" - {state}")  # the same wounds
                if after is not None:
                    assert name in after.fighters and name not in after.sat_out
        last = run.stages[-1]
        comes_to = {n for n, fate in run.fates if fate == "unconscious, then comes to"}
        assert comes_to == {n for n, _ in last.came_to}, seed
        assert comes_to <= set(last.fighters)
        # the others the last roll call has out cold are down by their wounds
        out_cold = {e["who"] for e in last.events or () if e["type"] == "rollcall"
                    and e["state"] == "unconscious" and e["who"] in last.fighters}
        assert {n for n, fate in run.fates if fate == "unconscious"} >= out_cold - comes_to


def test_came_to_is_told_only_when_logging():
    camp = load_campaign(ROAD)
    for seed in range(10):
        quiet = run_campaign(camp, any_ruleset(), seed)
        told = run_campaign(camp, any_ruleset(), seed, log=True)
        assert all(s.came_to == () for s in quiet.stages)
        assert quiet.fates == told.fates  # the fates do not depend on the telling

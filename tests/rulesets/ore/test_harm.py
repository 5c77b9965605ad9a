"""ORE and B-Grade under RULES.md's amended shared vocabulary: "Harm that is not meant to
kill" (fists deal Shock only; option ``lethal_unarmed``) and "Down for a while is not out"
(B-Grade's knock-out has no set time: out of the fight, not helpless for a while)."""

from __future__ import annotations

import pytest
from helpers import SCENARIOS, scenario

from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets.bgrade.fighter import disarm, lethal
from sim.rulesets.ore.catalog import WEAPONS
from sim.scenario import load


def test_unarmed_harm_is_shock_only():
    # ORE: fists deal W Shock and no Killing (Reign), at every width
    fists = WEAPONS["unarmed"]
    assert fists.unarmed and all(fists.damage.roll(w)[0] == 0 for w in range(2, 11))
    # B-Grade: a Shock-only weapon deals Shock, not wounds; a disarmed fighter gets fists
    man = {"name": "Man", "weapon": "sword"}
    enc = Encounter(scenario({"a": [man], "b": [{"name": "Foe", "weapon": "unarmed"}]}),
                    "bgrade", 0)
    a, b = enc.sides["a"][0], enc.sides["b"][0]
    assert not lethal(b) and lethal(a)
    disarm(a)
    assert not lethal(a)


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_lethal_unarmed_is_accepted_and_changes_nothing(ruleset):
    plain = scenario({"a": [{"name": "A", "weapon": "unarmed", "skills": {"brawl": 3}}],
                      "b": [{"name": "B", "weapon": "unarmed", "skills": {"brawl": 3}}]},
                     max_rounds=30)
    lethal_on = scenario({"a": [{"name": "A", "weapon": "unarmed", "skills": {"brawl": 3}}],
                          "b": [{"name": "B", "weapon": "unarmed", "skills": {"brawl": 3}}]},
                         max_rounds=30, options={ruleset: {"lethal_unarmed": True}})
    for seed in range(20):
        one = Encounter(plain, ruleset, seed).run()
        two = Encounter(lethal_on, ruleset, seed).run()
        assert one.rounds == two.rounds and one.winner == two.winner


def test_a_knock_out_is_out_of_the_fight_not_down_for_a_while():
    # B-Grade's knock out (width >= 5) sets no time: RULES.md's "Out of the fight", not
    # "Down for a while" (which is for a set time); the fight ends if it was the last foe
    doc = {"a": [{"name": "A", "weapon": "sword",
                  "bgrade": {"stats": {"body": 5}, "skills": {"fight": 5}}}],
           "b": [{"name": "B", "ai": "passive"}]}
    for seed in range(200):
        enc = Encounter(scenario(doc, max_rounds=20,
                                 options={"bgrade": {"drama_deck": False}}), "bgrade", seed)
        enc.log = []
        enc.run()
        knocked = [e for e in enc.log if e["type"] == "status" and "knocked out" in e["text"]]
        if knocked:
            b = enc.sides["b"][0]
            assert b.status is Status.UNCONSCIOUS and not b.in_fight
            assert enc.log.index(knocked[0]) > len(enc.log) - 12  # the fight ends there
            return
    pytest.fail("no knock-out in 200 fights")


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_a_brawl_kills_at_most_half_a_brawler_a_fight(ruleset):
    # issue 30's done-when: a 3 v 3 fistfight, at most 0.5 deaths a fight counted to the
    # end of the scene (ORE: a beating kills only by Shock overflowing a full torso; about
    # 0.44 measured; B-Grade: a full Shock track knocks out, 0.00)
    scen = load(SCENARIOS / "brawl.yaml")
    fights = 300
    deaths = 0
    for seed in range(fights):
        enc = Encounter(scen, ruleset, seed)
        enc.run()
        deaths += sum(c.status is Status.DEAD for c in enc.combatants)
    assert deaths / fights <= 0.5, deaths / fights

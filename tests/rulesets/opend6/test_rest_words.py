"""OpenD6 rests say what they healed, or why nothing (a campaign printed "no change")."""

from __future__ import annotations

import random

import pytest
from helpers import scenario

from sim.core.engine import Encounter
from sim.rulesets.opend6.rules import wound_status

HERO = {"name": "Hero", "traits": {"strength": 3, "endurance": 3, "agility": 3},
        "skills": {"melee": 2}, "weapon": "sword"}
FOE = {"name": "Foe", "weapon": "club"}


def _fighter(ruleset: str):
    enc = Encounter(scenario({"red": [HERO], "blue": [FOE]}, ruleset=ruleset), ruleset, 1)
    return enc, enc.sides["red"][0]


@pytest.mark.parametrize(("rest", "words"), [
    ("none", "no rest: still 2 wounds (wounded)"),
    ("short", "a short rest heals nothing (OpenD6 has no first aid: only a day of rest "
              "heals): still 2 wounds (wounded)"),
    ("long", "a day's rest heals 1 wound, now 1 wound (no penalty)"),
])
def test_a_wounded_fighter_hears_what_the_rest_did(rest, words):
    enc, f = _fighter("opend6")
    f.wounds, f.level = 2, wound_status(2)
    assert enc.ruleset.recover(f, rest, random.Random(0)) == [words]


@pytest.mark.parametrize("rest", ["none", "short", "long"])
def test_an_unhurt_fighter_has_nothing_to_heal(rest):
    enc, f = _fighter("opend6")
    assert enc.ruleset.recover(f, rest, random.Random(0)) == ["nothing to heal: 0 wounds "
                                                              "(healthy)"]


def test_hit_points_say_what_a_day_gave_back():
    enc, f = _fighter("opend6-hp")
    f.hp = f.hp_max - 7
    said = enc.ruleset.recover(f, "long", random.Random(0))
    assert said == [f"a day's rest heals 5 HP, now HP {f.hp_max - 2}/{f.hp_max} "
                    f"({f.level.label(False)})"]
    assert enc.ruleset.recover(f, "short", random.Random(0))[-1].startswith(
        "a short rest heals nothing")

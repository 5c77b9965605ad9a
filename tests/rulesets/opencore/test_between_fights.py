"""What OpenCore carries from one fight to the next (HP, armor, Toughness, injuries), and what
each rest heals (docs/campaigns.md)."""

from __future__ import annotations

import random

from builders import FOE, HERO, with_hero
from helpers import scenario

from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets.opencore.recovery import hp_per_day


def test_opencore_carries_hp_armor_toughness_and_injuries():
    hero = {**HERO, "opencore": {"toughness": 5}}
    enc, f = with_hero("opencore", hero)
    f.hp, f.armor_left, f.toughness = 20, 10, 2
    f.skill_penalty, f.injuries = 10, ["arm damaged"]
    f.stun, f.held = 1, False
    scen = scenario({"red": [hero], "blue": [FOE]})
    g = Encounter(scen, "opencore", 2, carried={"Hero": f}).sides["red"][0]
    assert (g.hp, g.max_hp, g.armor_left, g.toughness) == (20, f.max_hp, 10, 2)
    assert (g.skill_penalty, g.injuries) == (10, ["arm damaged"])
    assert g.injuries is not f.injuries
    assert g.stun == 0 and g.held  # a stun ends, a dropped weapon is picked up


def test_opencore_rests():
    hero = {**HERO, "opencore": {"toughness": 5}}
    enc, f = with_hero("opencore", hero)
    full_armor = f.armor_left
    f.hp, f.armor_left, f.toughness = 10, 0, 0
    enc.ruleset.recover(f, "none", random.Random(0))
    assert (f.hp, f.armor_left, f.toughness) == (10, 0, 0)
    enc.ruleset.recover(f, "short", random.Random(0))
    assert (f.hp, f.armor_left, f.toughness) == (10, 0, 5)
    enc.ruleset.recover(f, "long", random.Random(0))
    assert (f.hp, f.armor_left) == (10 + hp_per_day(f.con), full_armor)
    f.hp = f.max_hp - 1
    enc.ruleset.recover(f, "long", random.Random(0))
    assert f.hp == f.max_hp


def test_opencore_fit_needs_hit_points_above_zero():
    enc, f = with_hero("opencore")
    f.hp = 0
    assert not enc.ruleset.fit(f)
    f.hp = 1
    assert enc.ruleset.fit(f)
    f.status = Status.DEAD
    assert not enc.ruleset.fit(f)


def test_hp_per_day_is_con_over_ten_at_least_one():
    assert [hp_per_day(c) for c in (5, 9, 10, 60, 99)] == [1, 1, 1, 6, 9]

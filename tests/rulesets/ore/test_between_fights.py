"""What ORE carries from one fight to the next, and what each rest heals (B-Grade's Shock
with it; each other ruleset's in its own folder).

Hand-set: wounds marked by hand, rest rolls from queued dice (``StubRandom``), every number
checked exactly against docs/campaigns.md.
"""

from __future__ import annotations

import pytest
from builders import HERO, carried, with_hero
from helpers import StubRandom, faces

from sim.rulesets.ore.catalog import HEAD, LEFT_ARM, RIGHT_LEG, TORSO


def test_ore_carries_every_box_and_an_empty_crossbow():
    enc, f = with_hero("ore")
    f.wounds.take(TORSO, 3, 2)
    f.wounds.take(LEFT_ARM, 5, 0)  # a useless arm stays useless
    f.loaded = False
    _, g = carried("ore", f)
    assert g.wounds is not f.wounds
    assert g.wounds.killing == f.wounds.killing and g.wounds.shock == f.wounds.shock
    assert g.wounds.usable_arms() == 1 and not g.loaded


def test_ore_rest_none_heals_nothing_more():
    enc, f = with_hero("ore")
    f.wounds.take(HEAD, 0, 2)
    f.loaded = False
    assert enc.ruleset.recover(f, "none", StubRandom()) == []
    assert f.wounds.shock[HEAD] == 2 and not f.loaded


def test_ore_short_rest_rolls_body_plus_vigor_and_heals_its_width_head_first():
    hero = {**HERO, "ore": {"stats": {"body": 3}, "skills": {"vigor": 1}}}
    enc, f = with_hero("ore", hero)
    f.wounds.take(HEAD, 0, 2)
    f.wounds.take(TORSO, 0, 4)
    f.wounds.take(RIGHT_LEG, 0, 3)
    f.loaded = False
    rng = StubRandom(faces(7, 7, 7, 2))  # Body 3 + Vigor 1: 4 dice, a set 3x7
    said = enc.ruleset.recover(f, "short", rng)
    assert rng.drawn == 4
    assert f.wounds.shock[HEAD] == 0 and f.wounds.shock[TORSO] == 3  # 3 healed: head first
    assert f.wounds.shock[RIGHT_LEG] == 3
    assert f.loaded  # reloaded at the rest
    assert any("set of width 3, 3 Shock healed" in s for s in said)
    assert any("reloads the heavy crossbow" in s for s in said)


def test_ore_rest_roll_of_an_unhurt_fighter_says_there_was_nothing_to_heal():
    # "a set of width 3, 0 Shock healed" read as a roll that failed
    enc, f = with_hero("ore")
    said = enc.ruleset.recover(f, "short", StubRandom(faces(7, 7, 7, 2)))
    assert any("a set of width 3, no Shock to heal" in s for s in said), said


def test_ore_rest_roll_without_a_set_heals_nothing():
    enc, f = with_hero("ore")
    f.wounds.take(TORSO, 0, 4)
    said = enc.ruleset.recover(f, "short", StubRandom(faces(1, 2, 3)))
    assert f.wounds.shock[TORSO] == 4 and "no set" in said[-1]


def test_ore_long_rest_heals_one_killing_head_first_then_torso():
    enc, f = with_hero("ore")
    f.wounds.take(HEAD, 1, 0)
    f.wounds.take(TORSO, 2, 0)
    enc.ruleset.recover(f, "long", StubRandom(faces(1, 2, 3)))
    assert f.wounds.killing[HEAD] == 0 and f.wounds.killing[TORSO] == 2
    enc.ruleset.recover(f, "long", StubRandom(faces(1, 2, 3)))
    assert f.wounds.killing[TORSO] == 1


def test_ore_rest_pool_is_capped_at_ten_and_bgrade_is_not():
    hero = {**HERO, "ore": {"stats": {"body": 6}, "skills": {"vigor": 6}},
            "bgrade": {"stats": {"body": 6}, "skills": {"vigor": 6}}}
    for ruleset, dice in (("ore", 10), ("bgrade", 12)):
        enc, f = with_hero(ruleset, hero)
        rng = StubRandom(faces(*range(1, 11), 1, 2))
        enc.ruleset.recover(f, "short", rng)
        assert rng.drawn == dice


def test_ore_fit_follows_the_boxes_not_the_fight_status():
    enc, f = with_hero("ore")
    f.wounds.take(HEAD, 0, 4)  # head full: unconscious
    assert not enc.ruleset.fit(f)
    f.wounds.heal_after_fight()  # half the Shock goes: 2 of 4 left
    assert enc.ruleset.fit(f)
    f.wounds.take(TORSO, 10, 0)
    assert not enc.ruleset.fit(f)  # dead


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_only_the_shock_taken_in_a_fight_is_halved_after_it(ruleset):
    enc, f = with_hero(ruleset)
    if ruleset == "ore":
        f.wounds.take(TORSO, 0, 6)
    else:
        f.wounds.take(0, 4)
    f.wounds.heal_after_fight()  # first fight: 6 -> 3 (ORE), 4 -> 2 (B-Grade)
    _, g = carried(ruleset, f)
    if ruleset == "ore":
        assert g.wounds.shock[TORSO] == 3
        g.wounds.take(TORSO, 0, 3)  # 3 carried + 3 new
        g.wounds.heal_after_fight()
        assert g.wounds.shock[TORSO] == 3 + 3 - 3 // 2
    else:
        assert g.wounds.shock == 2
        g.wounds.heal_after_fight()  # nothing new: nothing halved
        assert g.wounds.shock == 2

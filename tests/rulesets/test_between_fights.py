"""What each ruleset carries from one fight to the next, and what each rest heals.

Hand-set: wounds marked by hand, rest rolls from queued dice (``StubRandom``), every number
checked exactly against docs/campaigns.md.
"""

from __future__ import annotations

import random

import pytest
from helpers import StubRandom, faces, scenario

from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets.bgrade.deck import HAND_SIZE
from sim.rulesets.opencore.recovery import hp_per_day
from sim.rulesets.ore.catalog import HEAD, LEFT_ARM, RIGHT_LEG, TORSO

HERO = {"name": "Hero", "traits": {"strength": 3, "endurance": 3, "agility": 3},
        "skills": {"melee": 3, "dodge": 1}, "weapon": "crossbow", "armor": "leather"}
FOE = {"name": "Foe", "weapon": "club"}


def _fighter(ruleset: str, hero: dict | None = None, **top):
    scen = scenario({"red": [hero or HERO], "blue": [FOE]}, **top)
    enc = Encounter(scen, ruleset, 1)
    return enc, enc.sides["red"][0]


def _carried(ruleset: str, old, **top):
    """The hero built again for the next fight, taking what lasts from ``old``."""
    scen = scenario({"red": [HERO], "blue": [FOE]}, **top)
    enc = Encounter(scen, ruleset, 2, carried={"Hero": old})
    return enc, enc.sides["red"][0]


# ---------------------------------------------------------------------------- ORE
def test_ore_carries_every_box_and_an_empty_crossbow():
    enc, f = _fighter("ore")
    f.wounds.take(TORSO, 3, 2)
    f.wounds.take(LEFT_ARM, 5, 0)  # a useless arm stays useless
    f.loaded = False
    _, g = _carried("ore", f)
    assert g.wounds is not f.wounds
    assert g.wounds.killing == f.wounds.killing and g.wounds.shock == f.wounds.shock
    assert g.wounds.usable_arms() == 1 and not g.loaded


def test_ore_rest_none_heals_nothing_more():
    enc, f = _fighter("ore")
    f.wounds.take(HEAD, 0, 2)
    f.loaded = False
    assert enc.ruleset.recover(f, "none", StubRandom()) == []
    assert f.wounds.shock[HEAD] == 2 and not f.loaded


def test_ore_short_rest_rolls_body_plus_vigor_and_heals_its_width_head_first():
    hero = {**HERO, "ore": {"stats": {"body": 3}, "skills": {"vigor": 1}}}
    enc, f = _fighter("ore", hero)
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


def test_ore_rest_roll_without_a_set_heals_nothing():
    enc, f = _fighter("ore")
    f.wounds.take(TORSO, 0, 4)
    said = enc.ruleset.recover(f, "short", StubRandom(faces(1, 2, 3)))
    assert f.wounds.shock[TORSO] == 4 and "no set" in said[-1]


def test_ore_long_rest_heals_one_killing_head_first_then_torso():
    enc, f = _fighter("ore")
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
        enc, f = _fighter(ruleset, hero)
        rng = StubRandom(faces(*range(1, 11), 1, 2))
        enc.ruleset.recover(f, "short", rng)
        assert rng.drawn == dice


def test_ore_fit_follows_the_boxes_not_the_fight_status():
    enc, f = _fighter("ore")
    f.wounds.take(HEAD, 0, 4)  # head full: unconscious
    assert not enc.ruleset.fit(f)
    f.wounds.heal_after_fight()  # half the Shock goes: 2 of 4 left
    assert enc.ruleset.fit(f)
    f.wounds.take(TORSO, 10, 0)
    assert not enc.ruleset.fit(f)  # dead


# ---------------------------------------------------------------------------- B-Grade
def test_bgrade_carries_track_points_and_hand():
    enc, f = _fighter("bgrade")
    f.wounds.take(2, 3)
    f.points, f.spent, f.hand, f.bonus = 1, 1, [0, 5, 50], 2
    enc2, g = _carried("bgrade", f)
    enc2.ruleset.start(enc2)  # deals every hand up to four
    assert (g.wounds.wounds, g.wounds.shock) == (2, 3) and g.wounds is not f.wounds
    assert g.points == 1 and g.bonus == 0  # a pending +1d ends with its fight
    assert sorted(g.hand[:3]) == [0, 5, 50] and len(g.hand) == HAND_SIZE  # dealt up to 4


def test_bgrade_new_deck_leaves_out_the_cards_still_held():
    enc, f = _fighter("bgrade")
    f.hand = [0, 1, 2, 3]
    enc2, g = _carried("bgrade", f)
    enc2.ruleset.start(enc2)
    assert g.hand[:4] == [0, 1, 2, 3]
    held = [c for x in enc2.combatants for c in x.hand]
    pile = enc2.ruleset.deck.pile
    assert len(set(held)) == len(held) and not set(held) & set(pile)
    assert len(held) + len(pile) == 52


def test_bgrade_no_deck_or_fewer_points_in_the_next_fight():
    enc, f = _fighter("bgrade")
    f.hand, f.points, f.spent = [7, 8], 1, 1
    _, g = _carried("bgrade", f, options={"bgrade": {"drama_deck": False,
                                                      "possibility_points": 3}})
    assert g.hand == [] and g.points == 2  # 3 this fight, less the one spent


def test_bgrade_a_fight_without_points_does_not_wipe_them():
    enc, f = _fighter("bgrade")
    f.points, f.spent = 1, 1
    _, g = _carried("bgrade", f, options={"bgrade": {"possibility_points": 0}})
    assert g.points == 0
    _, h = _carried("bgrade", g)  # the next fight gives 2 again, less the one spent
    assert h.points == 1


def test_bgrade_a_weapon_knocked_away_is_picked_up_as_it_was_dropped():
    from sim.rulesets.bgrade.fighter import disarm

    enc, f = _fighter("bgrade")
    f.loaded = False  # shot, then disarmed before reloading
    disarm(f)
    assert f.weapon.name == "fists" and f.loaded  # fists need no loading
    _, g = _carried("bgrade", f)
    assert g.weapon.name == "heavy crossbow" and not g.loaded


def test_bgrade_sitting_out_gives_the_cards_back():
    enc, f = _fighter("bgrade")
    f.hand = [1, 2, 3, 4]
    enc.ruleset.sit_out(f)
    assert f.hand == []


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_only_the_shock_taken_in_a_fight_is_halved_after_it(ruleset):
    enc, f = _fighter(ruleset)
    if ruleset == "ore":
        f.wounds.take(TORSO, 0, 6)
    else:
        f.wounds.take(0, 4)
    f.wounds.heal_after_fight()  # first fight: 6 -> 3 (ORE), 4 -> 2 (B-Grade)
    _, g = _carried(ruleset, f)
    if ruleset == "ore":
        assert g.wounds.shock[TORSO] == 3
        g.wounds.take(TORSO, 0, 3)  # 3 carried + 3 new
        g.wounds.heal_after_fight()
        assert g.wounds.shock[TORSO] == 3 + 3 - 3 // 2
    else:
        assert g.wounds.shock == 2
        g.wounds.heal_after_fight()  # nothing new: nothing halved
        assert g.wounds.shock == 2


def test_bgrade_rests_heal_shock_then_a_wound():
    enc, f = _fighter("bgrade")  # body 3: Shock track 5
    f.wounds.take(2, 4)
    enc.ruleset.recover(f, "short", StubRandom(faces(4, 4, 9)))
    assert (f.wounds.wounds, f.wounds.shock) == (2, 2)
    said = enc.ruleset.recover(f, "long", StubRandom(faces(1, 2, 3)))
    assert (f.wounds.wounds, f.wounds.shock) == (1, 2)
    assert said[-1] == "a day's rest heals 1 wound"


# ---------------------------------------------------------------------------- OpenD6
def test_opend6_carries_wounds_points_and_the_empty_crossbow():
    enc, f = _fighter("opend6")
    f.wounds, f.cp, f.fate, f.loaded = 3, 2, 0, False
    _, g = _carried("opend6", f)
    assert (g.wounds, g.cp, g.fate, g.loaded) == (3, 2, 0, False)


@pytest.mark.parametrize("rest, wounds", [("none", 3), ("short", 3), ("long", 2)])
def test_opend6_a_day_of_rest_heals_one_wound(rest, wounds):
    from sim.rulesets.opend6.rules import wound_status

    enc, f = _fighter("opend6")
    f.wounds, f.level, f.loaded = 3, wound_status(3), False
    enc.ruleset.recover(f, rest, random.Random(0))
    assert f.wounds == wounds and f.level == wound_status(wounds)
    assert f.loaded == (rest != "none")


def test_opend6_hp_a_day_gives_back_five_up_to_the_start():
    from sim.rulesets.opend6.rules import hp_status

    enc, f = _fighter("opend6-hp")
    f.hp = f.hp_max - 7
    enc.ruleset.recover(f, "long", random.Random(0))
    assert f.hp == f.hp_max - 2 and f.level == hp_status(f.hp)
    enc.ruleset.recover(f, "long", random.Random(0))
    assert f.hp == f.hp_max
    _, g = _carried("opend6-hp", f)
    assert (g.hp, g.hp_max) == (f.hp, f.hp_max)  # the hit points rolled once, kept


# ---------------------------------------------------------------------------- OpenCore
def test_opencore_carries_hp_armor_toughness_and_injuries():
    hero = {**HERO, "opencore": {"toughness": 5}}
    enc, f = _fighter("opencore", hero)
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
    enc, f = _fighter("opencore", hero)
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
    enc, f = _fighter("opencore")
    f.hp = 0
    assert not enc.ruleset.fit(f)
    f.hp = 1
    assert enc.ruleset.fit(f)
    f.status = Status.DEAD
    assert not enc.ruleset.fit(f)


def test_hp_per_day_is_con_over_ten_at_least_one():
    assert [hp_per_day(c) for c in (5, 9, 10, 60, 99)] == [1, 1, 1, 6, 9]


def test_opend6_level_follows_the_next_fights_wound_limit():
    from sim.rulesets.opend6.rules import WoundStatus

    enc, f = _fighter("opend6", options={"opend6": {"wounds_limit": 10}})
    f.wounds = 6
    enc2, g = _carried("opend6", f)  # default limit 5: six wounds kill
    assert g.level is WoundStatus.DEAD and not enc2.ruleset.fit(g)
    f.wounds = 3
    enc2, g = _carried("opend6", f)
    assert g.level is WoundStatus.SEVERELY_WOUNDED and enc2.ruleset.fit(g)


def test_opend6_initiative_pays_for_carried_wounds():
    from sim.rulesets.opend6.rules import wound_status

    def dice_rolled(wounds: int) -> int:
        enc, f = _fighter("opend6")  # agility 3D
        f.wounds, f.level = wounds, wound_status(wounds)
        enc.rng = StubRandom([0.35] * 40)  # every die a 3: nothing explodes or fumbles
        enc.ruleset.start(enc)
        return f.initiative

    assert dice_rolled(0) - dice_rolled(3) == 2 * 3  # severely wounded: -2D

"""What B-Grade carries from one fight to the next (track points, the hand, a dropped weapon),
and what each rest heals (docs/campaigns.md)."""

from __future__ import annotations

from builders import carried, with_hero
from helpers import StubRandom, faces

from sim.rulesets.bgrade.deck import HAND_SIZE


def test_bgrade_carries_track_points_and_hand():
    enc, f = with_hero("bgrade")
    f.wounds.take(2, 3)
    f.points, f.spent, f.hand, f.bonus = 1, 1, [0, 5, 50], 2
    enc2, g = carried("bgrade", f)
    enc2.ruleset.start(enc2)  # deals every hand up to four
    assert (g.wounds.wounds, g.wounds.shock) == (2, 3) and g.wounds is not f.wounds
    assert g.points == 1 and g.bonus == 0  # a pending +1d ends with its fight
    assert sorted(g.hand[:3]) == [0, 5, 50] and len(g.hand) == HAND_SIZE  # dealt up to 4


def test_bgrade_new_deck_leaves_out_the_cards_still_held():
    enc, f = with_hero("bgrade")
    f.hand = [0, 1, 2, 3]
    enc2, g = carried("bgrade", f)
    enc2.ruleset.start(enc2)
    assert g.hand[:4] == [0, 1, 2, 3]
    held = [c for x in enc2.combatants for c in x.hand]
    pile = enc2.ruleset.deck.pile
    assert len(set(held)) == len(held) and not set(held) & set(pile)
    assert len(held) + len(pile) == 52


def test_bgrade_no_deck_or_fewer_points_in_the_next_fight():
    enc, f = with_hero("bgrade")
    f.hand, f.points, f.spent = [7, 8], 1, 1
    _, g = carried("bgrade", f, options={"bgrade": {"drama_deck": False,
                                                      "possibility_points": 3}})
    assert g.hand == [] and g.points == 2  # 3 this fight, less the one spent


def test_bgrade_a_fight_without_points_does_not_wipe_them():
    enc, f = with_hero("bgrade")
    f.points, f.spent = 1, 1
    _, g = carried("bgrade", f, options={"bgrade": {"possibility_points": 0}})
    assert g.points == 0
    _, h = carried("bgrade", g)  # the next fight gives 2 again, less the one spent
    assert h.points == 1


def test_bgrade_a_weapon_knocked_away_is_picked_up_as_it_was_dropped():
    from sim.rulesets.bgrade.fighter import disarm

    enc, f = with_hero("bgrade")
    f.loaded = False  # shot, then disarmed before reloading
    disarm(f)
    assert f.weapon.name == "fists" and f.loaded  # fists need no loading
    _, g = carried("bgrade", f)
    assert g.weapon.name == "heavy crossbow" and not g.loaded


def test_bgrade_sitting_out_gives_the_cards_back():
    enc, f = with_hero("bgrade")
    f.hand = [1, 2, 3, 4]
    enc.ruleset.sit_out(f)
    assert f.hand == []


def test_bgrade_rests_heal_shock_then_a_wound():
    enc, f = with_hero("bgrade")  # body 3: Shock track 5
    f.wounds.take(2, 4)
    enc.ruleset.recover(f, "short", StubRandom(faces(4, 4, 9)))
    assert (f.wounds.wounds, f.wounds.shock) == (2, 2)
    said = enc.ruleset.recover(f, "long", StubRandom(faces(1, 2, 3)))
    assert (f.wounds.wounds, f.wounds.shock) == (1, 2)
    assert said[-1] == "a day's rest heals 1 wound"


def test_bgrade_a_bow_knocked_away_leaves_the_sidearm_in_hand():
    from helpers import scenario

    from sim.core.engine import Encounter

    archer = {"name": "A", "weapon": "crossbow", "sidearm": "knife", "skills": {"ranged": 3}}
    enc = Encounter(scenario({"a": [archer], "b": [{"name": "B", "weapon": "sword"}]},
                             ruleset="bgrade"), "bgrade", 1)
    a = enc.combatants[0]
    a.loaded = False
    enc.ruleset._disarm(a)
    assert not a.ranged and a.weapon.name != "fists" and a.drawn and a.other_arms is None
    assert a.dropped_loaded is False  # the crossbow is picked up after the fight, empty
    enc.ruleset.main_weapon_back(a)  # nothing to put away: its fists were never a weapon
    assert a.drawn and not a.ranged

"""B-Grade's fast paths, each held equal to the slow way it stands in for."""

import random

import pytest
from helpers import SCENARIOS, fighter_slots

from sim.core.actions import Attack
from sim.core.engine import battlefield_for, ruleset_for
from sim.rulesets.bgrade.deck import (
    _DICE_OF,
    HAND_SIZE,
    DramaDeck,
    card_dice,
    choose_card,
)
from sim.rulesets.bgrade.rules import Track
from sim.rulesets.bgrade.team import Roll, best_pooled, pool_hands, set_value
from sim.rulesets.ore.rules import assign_sets
from sim.rulesets.ore.sets import Set, find_sets
from sim.scenario import load


def random_team(rng: random.Random, most_dice: int = 9) -> list[Roll]:
    """Two to four rolls on one foe: d10 or d6 hands, one to three attacks, any order key."""
    foe = object()
    team = []
    for name in "ABCD"[:rng.randint(2, 4)]:
        sides = rng.choice((6, 10))
        rolled = [Attack(foe)] * rng.randint(1, 3)
        team.append(Roll(name, [], rolled, [rng.randint(1, sides)
                                            for _ in range(rng.randint(0, most_dice))],
                         foe, rng.random() < 0.5, rng.randint(1, 8), "fight"))
    return team


@pytest.mark.parametrize("seed", range(300))
def test_best_pooled_is_find_sets_first(seed):
    rng = random.Random(seed)
    team = random_team(rng, most_dice=rng.choice((4, 9, 30)))
    pooled = find_sets([face for r in team for face in r.faces])
    assert best_pooled(team) == (pooled[0] if pooled else None)


def test_best_pooled_counts_every_die_of_a_big_hand():
    foe = object()
    team = [Roll("A", [], [Attack(foe)], [9] * 200 + [10] * 100, foe, True, 3, "fight"),
            Roll("B", [], [Attack(foe)], [9] * 55 + [10] * 155, foe, True, 3, "fight")]
    assert best_pooled(team) == Set(255, 10)  # 255 of each (a byte's most): the higher face
    team[1].faces.remove(10)
    assert best_pooled(team) == Set(255, 9)


def pool_hands_as_written(team):
    """``pool_hands`` step by step as the rule reads (sorted team, every check, every set)."""
    order = sorted(team, key=lambda r: (not r.lethal, -r.base))
    hand = []  # the combined hand: the lead's, then whole hands while within 10 dice
    for r in order:
        if sum(len(x.faces) for x in hand) + len(r.faces) > 10:
            break
        hand.append(r)
    if len(hand) < 2:
        return None
    order = hand
    pooled = find_sets([face for r in order for face in r.faces])
    if not pooled:
        return None
    best = pooled[0]
    helpers = [r for r in order if best.height in r.faces]
    if len(helpers) < 2 or not any(r.sets for r in helpers):
        return None
    if set_value(best.width) <= sum(set_value(r.sets[0].width) for r in helpers if r.sets):
        return None
    pairs = []
    for k, r in enumerate(helpers):
        given = assign_sets(r.rolled[1:],
                            find_sets([face for face in r.faces if face != best.height]))
        pairs.append([(r.rolled[0], best), *given] if k == 0 else given)
    return helpers, best, pairs


@pytest.mark.parametrize("seed", range(400))
def test_pool_hands_is_the_rule_as_written(seed):
    rng = random.Random(seed)
    team = random_team(rng)
    fast, slow = pool_hands(team), pool_hands_as_written(team)
    assert fast == slow
    if fast is not None:  # the same rolls, not equal copies: the planner tells them by id
        assert all(a is b for a, b in zip(fast[0], slow[0], strict=True))


def test_random_teams_reach_every_outcome():
    outcomes = {pool_hands(random_team(random.Random(seed))) is None for seed in range(400)}
    assert outcomes == {True, False}


@pytest.mark.parametrize("held", [0, 1, 3, 4])
def test_deal_takes_the_top_cards_as_draw_does(held):
    for pile_size in range(7):
        fast = DramaDeck(random.Random(pile_size))
        slow = DramaDeck(random.Random(pile_size))
        fast.pile, slow.pile = list(range(pile_size)), list(range(pile_size))
        fast.discards, slow.discards = [40, 41], [40, 41]
        hand_fast, hand_slow = list(range(44, 44 + held)), list(range(44, 44 + held))
        fast.deal(hand_fast)
        while len(hand_slow) < HAND_SIZE:
            card = slow.draw()
            if card is None:
                break
            hand_slow.append(card)
        assert hand_fast == hand_slow and fast.pile == slow.pile


def test_card_dice_table_and_choice():
    assert [_DICE_OF[c] for c in range(52)] == [card_dice(c) for c in range(52)]
    for seed in range(100):
        hand = random.Random(seed).sample(range(52), 4)
        assert choose_card(hand, 3, 7) == max(hand, key=card_dice)
        assert choose_card(hand, 9, 7) == min(hand, key=card_dice)



@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_copied_fighter_is_a_built_one(path):
    scen = load(path)
    rules = ruleset_for(scen, "bgrade")
    field = battlefield_for(scen.map)
    for side in scen.sides:
        for member in side.members:
            pos = field.node(member.at)
            for _ in range(2):  # the first builds and copies, the second copies only
                copied = rules.build(member, pos, random.Random(0))
            built = rules._build(member, pos)
            built.points = rules.options.possibility_points
            mine, theirs = fighter_slots(copied), fighter_slots(built)
            track, built_track = mine.pop("wounds"), theirs.pop("wounds")
            assert {n: getattr(track, n) for n in Track.__slots__} == \
                {n: getattr(built_track, n) for n in Track.__slots__}
            assert mine == theirs
            for name in ("defenses", "sets", "hand"):
                assert getattr(copied, name) is not getattr(built, name)


def test_bgrade_arms_always_usable():
    """``BGradeAdvisor.can_attack`` skips ORE's ``arms_ok``: it must hold for every fighter."""
    from sim.core.engine import Encounter
    from sim.rulesets.ore.advisor import OreAdvisor
    from sim.rulesets.ore.catalog import WEAPONS
    from sim.rulesets.ore.rules import arms_ok

    track = Track(2)
    track.take(4, 9)  # wounds and Shock to the full: still no limb to cripple
    assert track.arms == 2
    with pytest.raises(AttributeError):
        track.arms = 1  # no slot for it: the class's 2 for every track
    for path in sorted(SCENARIOS.glob("*.yaml")):
        enc = Encounter(load(path), "bgrade", 1)
        for f in enc.combatants:
            for weapon in WEAPONS.values():  # two-handed ones too
                f.weapon = weapon
                assert arms_ok(f)
                for g in enc.combatants:
                    assert enc.advisor.can_attack(enc, f, g) == \
                        OreAdvisor.can_attack(enc.advisor, enc, f, g)

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
from sim.rulesets.bgrade.team import Roll, best_pooled
from sim.rulesets.ore.sets import find_sets
from sim.scenario import load


@pytest.mark.parametrize("seed", range(200))
def test_best_pooled_is_find_sets_first(seed):
    rng = random.Random(seed)
    foe = object()
    team = [Roll(name, [], [Attack(foe)], [rng.randint(1, rng.choice((6, 10)))
                                           for _ in range(rng.randint(0, 9))],
                 foe, True, 3, "fight")
            for name in "ABC"[:rng.randint(2, 3)]]
    pooled = find_sets([face for r in team for face in r.faces])
    assert best_pooled(team) == (pooled[0] if pooled else None)


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
            for name in ("defenses", "sets", "plans", "hand"):
                assert getattr(copied, name) is not getattr(built, name)

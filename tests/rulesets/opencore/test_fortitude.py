"""OpenCore's option ``fortitude`` (RULES.md ``opencore``; seed 001's Fortitude).

The score is the CON modifier when positive; it removes that many damage dice before the
roll, never below one die unless the score is at least twice the dice. Exact: the dice
drawn, and every face of what is left, against the seed's sentence written out here.
"""

import itertools
from dataclasses import replace

import pytest
from helpers import StubRandom, face, scenario

from sim.core.engine import Encounter
from sim.rulesets.opencore.odds import damage_distribution
from sim.rulesets.opencore.rules import (
    fortitude_dice,
    fortitude_score,
    roll_fire_damage,
)
from sim.rulesets.opencore.tables import WEAPONS, DamageDice


def seed_rule(dice: int, score: int) -> int:
    """Seed 001: "Subtract the appropriate fortitude score from incoming damage dice before
    rolling them. Treat any result of less than 1 as 1 unless the character has twice as
    much fortitude as the unmodified number of damage dice"."""
    left = dice - score
    if left < 1 and not score >= 2 * dice:
        return 1
    return max(0, left)


@pytest.mark.parametrize(("dice", "score"), itertools.product(range(1, 5), range(0, 9)))
def test_the_dice_fortitude_removes_are_the_seeds(dice, score):
    assert fortitude_dice(dice, score) == seed_rule(dice, score)


def test_the_score_is_the_con_modifier_when_positive():
    assert [fortitude_score(con) for con in (20, 50, 59, 60, 75, 100)] == [0, 0, 0, 1, 2, 5]


@pytest.mark.parametrize(("notation", "score"), [("2d10+STR", 1), ("3d10", 1), ("3d10", 2),
                                                 ("2d10", 4), ("1d10", 1), ("1d10+5", 2),
                                                 ("2d6+STR", 0)])
def test_fortitude_rolls_the_dice_left_and_every_face_matches_the_exact_odds(notation, score):
    dice = DamageDice.parse(notation)
    fists = WEAPONS["hand_to_hand"]
    fire = replace(fists.modes[0], damage=dice)
    left = fortitude_dice(dice.dice, score)
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, dice.sides + 1), repeat=left):
        rng = StubRandom([face(f, dice.sides) for f in faces])
        value = roll_fire_damage(rng, fire, 1, "test", score)
        assert rng.drawn == left  # exactly the dice fortitude left, no more
        counts[value] = counts.get(value, 0) + 1
    total = dice.sides ** left
    dist = damage_distribution(dice, 1, score)
    assert [v for v, _ in dist] == sorted(counts)
    assert [p for _, p in dist] == pytest.approx([counts[v] / total for v in sorted(counts)])


def test_every_die_removed_leaves_the_bonus_alone_and_may_deal_nothing():
    assert damage_distribution(DamageDice.parse("1d10+5"), 0, 2) == ((5, 1.0),)
    assert damage_distribution(DamageDice.parse("1d10"), 0, 2) == ((0, 1.0),)
    assert damage_distribution(DamageDice.parse("1d10"), 0, 1) == tuple(
        (v, 0.1) for v in range(1, 11))


def test_the_option_is_off_by_default_and_reads_the_targets_con():
    doc = {"a": [{"name": "A", "opencore": {"abilities": {"con": 75}}}],
           "b": [{"name": "B", "opencore": {"abilities": {"con": 45}}}]}
    off = Encounter(scenario(doc), "opencore", 0)
    on = Encounter(scenario(doc, options={"opencore": {"fortitude": True}}), "opencore", 0)
    a_off, a_on, b_on = off.sides["a"][0], on.sides["a"][0], on.sides["b"][0]
    assert off.ruleset.fortitude(a_off) == 0
    assert (on.ruleset.fortitude(a_on), on.ruleset.fortitude(b_on)) == (2, 0)

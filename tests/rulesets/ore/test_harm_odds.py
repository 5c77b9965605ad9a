"""What an ORE (and B-Grade) menu says an attack may do beyond hitting (``Advisor.harm_odds``),
and its charges: checked against every roll of a few d10 enumerated here."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from builders import SWORD, duel

from sim.ai import menu as menus
from sim.core.actions import Attack, Move
from sim.report.panel import situation
from sim.rulesets.ore import choices
from sim.rulesets.ore.catalog import LEFT_LEG
from sim.rulesets.ore.odds import p_set_in


def _brute_set(rolled: int, fixed: list[int], heights: range) -> float:
    """Share of all 10**rolled rolls (plus the ``fixed`` faces) holding a set in ``heights``."""
    hits = 0
    for faces in itertools.product(range(1, 11), repeat=rolled):
        counts = Counter([*faces, *fixed])
        hits += any(counts[h] >= 2 for h in heights)
    return hits / 10**rolled


@pytest.mark.parametrize("rolled", [1, 2, 3, 4])
@pytest.mark.parametrize(("low", "high"), [(10, 10), (7, 9), (5, 6), (1, 1), (3, 10)])
@pytest.mark.parametrize("fixed", [0, 1, 2])
def test_ore_set_in_a_range_counts_every_roll(rolled, low, high, fixed):
    assert p_set_in(rolled, fixed, low, high) == pytest.approx(
        _brute_set(rolled, [high] * fixed, range(low, high + 1)))


def test_ore_called_shot_shows_the_chance_of_its_location():
    """A called shot at the left leg: 5 dice, one set to 1; the leg is height 1 alone."""
    enc, a, b = duel("ore", **SWORD)
    plan = enc.ruleset.planner.plan(enc, a, [Attack(b, "left leg")])
    (words, p), = enc.advisor.harm_odds(enc, a, [Attack(b, "left leg")])
    assert words == "at the left leg"
    assert p == pytest.approx(_brute_set(plan.dice - 1, [1], range(1, 2)))
    assert LEFT_LEG == 0
    (words, p), = enc.advisor.harm_odds(enc, a, [b.plain_attack])
    assert words == "to the head"
    assert p == pytest.approx(_brute_set(plan.dice + 1, [], range(10, 11)))


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_a_charge_shows_its_rolls_chance_of_two_sets(ruleset):
    """One set moves, the slower one strikes: a roll without two sets that succeed fails
    (3 dice: never, though a pair comes up 28% of the time)."""
    strong = {**SWORD, "traits": {"strength": 5, "endurance": 5, "agility": 5},
              "skills": {"melee": 5, "dodge": 3}}
    enc, a, b = duel(ruleset, apart=6.0, **strong)
    charge = menus.find(menus.options(enc, a), "charge B")
    assert charge is not None and type(charge.intents[0]) is Move
    if ruleset == "ore":
        dice = enc.ruleset.planner.plan(enc, a, list(charge.intents)).dice
        over = 0
    else:
        dice = enc.advisor.dice(enc, a, list(charge.intents)) + a.bonus
        over = enc.ruleset.options.difficulty
    two = 0
    for faces in itertools.product(range(1, 11), repeat=dice):
        counts = Counter(faces)
        two += sum(c >= 2 and (c > 2 or h > over) for h, c in counts.items()) >= 2
    assert charge.odds == pytest.approx(two / 10**dice)
    assert 0 < charge.odds < 1


def test_a_leg_wound_looks_lightly_hurt_not_unhurt():
    enc, a, b = duel("ore", **SWORD)
    b.wounds.killing[LEFT_LEG] = 2
    row = next(line for line in situation(enc, a).splitlines() if line.startswith("B "))
    assert "lightly hurt" in row


@pytest.mark.parametrize("ruleset", ["ore", "bgrade"])
def test_a_charge_whose_attack_gets_the_faster_set_is_marked(ruleset):
    """The faster set acts first: given to the attack, it strikes before the move, out of
    reach. ORE: the wider 3x5 is faster; B-Grade (speed by area): the 2x8 (16 > 15)."""
    from sim.rulesets.ore.sets import Set

    class Asker:
        def __call__(self, enc, c):
            return []

        def choose(self, enc, c, question, labels, default):
            self.labels = labels
            return default

    asker = Asker()
    enc, a, b = duel(ruleset, apart=6.0, **SWORD)
    enc.minds = {"A": asker}
    move, attack = Move(b, stop_at=0.0), b.plain_attack
    wide, narrow = Set(3, 5), Set(2, 8)
    choices.ask_sets(enc, a, [5, 5, 5, 8, 8], [(move, wide), (attack, narrow)],
                     [wide, narrow], enc.ruleset.speed)
    fast, slow = (wide, narrow) if ruleset == "ore" else (narrow, wide)
    marked = [label for label in asker.labels if "comes before the move" in label]
    assert marked and all(label.startswith(f"{slow} -> move") for label in marked), \
        asker.labels
    assert not any("comes before" in label for label in asker.labels
                   if label.startswith(f"{fast} -> move")), asker.labels

"""What a menu says an attack may do beyond hitting (``Advisor.harm_odds``), and its charges.

Each number is checked against a count made here from the rules text: every roll of a few
d10 enumerated (ORE), icepool distributions of the wild-die rolls (OpenD6), every face of the
damage dice (OpenCore); never against the code under test.
"""

from __future__ import annotations

import itertools
from collections import Counter

import icepool
import pytest
from helpers import opend6_exact_roll, scenario

from sim.ai import menu as menus
from sim.core.actions import Attack, Move
from sim.core.engine import Encounter
from sim.report.numbers import chance
from sim.report.panel import situation
from sim.rulesets.opencore.odds import DEFENDER_FUMBLE_MULTIPLIERS, hit_odds
from sim.rulesets.ore import choices
from sim.rulesets.ore.advisor import p_set_in
from sim.rulesets.ore.catalog import LEFT_LEG

SWORD = {"traits": {"strength": 3, "endurance": 3}, "skills": {"melee": 3}, "weapon": "sword"}


def _duel(ruleset: str, apart: float = 0.0, **a):
    top = {}
    if apart:
        top = {"map": {"nodes": {"x": {}, "y": {}}, "edges": [["x", "y", apart]]}}
        a = {**a, "at": "x"}
    b = {"name": "B", **({"at": "y"} if apart else {}), **SWORD}
    enc = Encounter(scenario({"a": [{"name": "A", **a}], "b": [b]}, ruleset=ruleset, **top),
                    ruleset, 0)
    return enc, enc.combatants[0], enc.combatants[1]


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
    enc, a, b = _duel("ore", **SWORD)
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
    enc, a, b = _duel(ruleset, apart=6.0, **strong)
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


def _opend6(ruleset: str):
    enc, a, b = _duel(ruleset, **SWORD)
    rules = enc.ruleset
    damage = opend6_exact_roll(rules.combat.damage_dice(a, b), a.damage_code.pips,
                               complication=True)
    resist = opend6_exact_roll(b.resist_code.dice, b.resist_code.pips, complication=True)
    hit = enc.advisor.attack_odds(enc, a, [b.plain_attack])
    return enc, a, b, damage, resist, hit


def _p(die: icepool.Die) -> float:
    return float(die.probability(True)) if True in die.outcomes() else 0.0


def test_opend6_wound_and_takedown_odds_over_the_damage_and_resistance_rolls():
    """A wound when damage >= resistance (a total of 0 counts as 1); death at 5 wounds:
    damage >= 5 x resistance."""
    enc, a, b, damage, resist, hit = _opend6("opend6")
    wound = icepool.map(lambda d, r: d >= max(r, 1), damage, resist)
    down = icepool.map(lambda d, r: d // max(r, 1) >= 5, damage, resist)
    assert enc.advisor.harm_odds(enc, a, [b.plain_attack]) == (
        ("to wound", pytest.approx(hit * _p(wound))),
        ("to take down", pytest.approx(hit * _p(down))))
    b.wounds = 4  # one wound from death: any wound takes it down
    (_, w), (_, d) = enc.advisor.harm_odds(enc, a, [b.plain_attack])
    assert d == pytest.approx(w)


def test_opend6_hp_odds_take_hit_points_past_the_resistance():
    enc, a, b, damage, resist, hit = _opend6("opend6-hp")
    harm = icepool.map(lambda d, r: d > r, damage, resist)
    down = icepool.map(lambda d, r, hp=b.hp: d - r >= hp, damage, resist)
    assert enc.advisor.harm_odds(enc, a, [b.plain_attack]) == (
        ("to take HP", pytest.approx(hit * _p(harm))),
        ("to take down", pytest.approx(hit * _p(down))))


def test_opencore_odds_count_every_face_of_the_damage_dice():
    enc, a, b = _duel("opencore", **SWORD)
    b.armor_left, b.hp = 6, 9  # worn armor, few hit points: both chances well inside 0..1
    dice = a.fire.damage
    bonus = dice.bonus + (a.str_mod if dice.plus_str else 0)
    rolls = [max(1, sum(f) + bonus)
             for f in itertools.product(range(1, dice.sides + 1), repeat=dice.dice)]
    odds = hit_odds(enc.ruleset.attack_skill(enc, a, b), enc.ruleset.defense_skill(b))
    absorb = b.armor_left + b.toughness

    def through(at_least: int) -> float:
        def share(mult: int) -> float:
            return sum(r * mult - absorb >= at_least for r in rolls) / len(rolls)
        return (odds.plain * share(1) + odds.defender_fumble
                * sum(p * share(m) for p, m in DEFENDER_FUMBLE_MULTIPLIERS))

    (w1, p1), (w2, p2) = enc.advisor.harm_odds(enc, a, [b.plain_attack])
    assert (w1, w2) == ("to reach HP", "to take down")
    assert p1 == pytest.approx(through(1)) and p2 == pytest.approx(through(9))
    assert 0 < p2 < p1 < odds.hit


def test_a_chance_reads_certain_only_when_it_is():
    assert [chance(p) for p in (1.0, 0.996, 0.99, 0.5, 0.004, 0.0)] == [
        "100%", ">99%", "99%", "50%", "<1%", "0%"]


def test_a_leg_wound_looks_lightly_hurt_not_unhurt():
    enc, a, b = _duel("ore", **SWORD)
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
    enc, a, b = _duel(ruleset, apart=6.0, **SWORD)
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

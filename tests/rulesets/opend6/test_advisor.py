"""The OpenD6 AI's answers: no 0D attacks, what to do instead, fate-point timing, worths.

Hand-set rolls as in ``test_opend6.py`` (``StubRandom``: the normal dice, then the wild die;
a fate point's extra dice come after the roll). Exact values come from icepool distributions
built from the rules text, never from the code under test.
"""

from __future__ import annotations

import itertools

import icepool
import pytest
from helpers import opend6_exact_roll
from opend6_helpers import duel, member, turn

from sim import scenario as scenario_mod
from sim.ai import profiles as ai
from sim.core.actions import Aim, Attack, Defend, Move
from sim.core.combatant import Status
from sim.core.engine import Encounter
from sim.rulesets.opend6.points import FATE_POINT_GAIN, fate_odds, fate_point
from sim.rulesets.opend6.rules import WoundStatus


def exact_roll(dice: int, action: bool = True) -> icepool.Die:
    """An N-dice roll with the wild die, from the rules text (``helpers.opend6_exact_roll``).

    ``action``: only an action roll fumbles; a damage or resistance roll's wild 1 counts as
    1, as the ``complication`` option counts it.
    """
    return opend6_exact_roll(dice, 0, complication=not action)




def apart(metres: float, cover: str | None = None) -> dict:
    """A two-place map: side a at x, side b at y (with ``cover``), ``metres`` apart."""
    y = {"cover": cover} if cover else {}
    return {"map": {"nodes": {"x": {}, "y": y}, "edges": [["x", "y", metres]]}}


BLIND = {"opend6": {"blinded": True}}  # -2D: a club at 2D (Agility 1D + club 1D) rolls 0D


# ------------------------------------------------------------------ no 0D attacks
def test_can_hit_counts_every_penalty_the_attack_would_roll_with() -> None:
    enc, a, b = duel(member("A", agility=1), member("B"))
    assert enc.advisor.can_hit(enc, a, b)  # 2D
    a.level = WoundStatus.WOUNDED  # -1D: 1D
    assert enc.advisor.can_hit(enc, a, b)
    a.level = WoundStatus.SEVERELY_WOUNDED  # -2D: 0D
    assert not enc.advisor.can_hit(enc, a, b)
    enc, a, b = duel(member("A", agility=1, **BLIND), member("B"))
    assert not enc.advisor.can_hit(enc, a, b)  # blinded -2D: 0D
    # a bow at DEX 1D + 2D: long range (40 m of 15/30/50) -2D is 1D; blinded as well, -1D
    bow = member("A", weapon="bow", traits={"dexterity": 1}, skills={"ranged": 2})
    enc, a, b = duel(bow, member("B", at="y"), **apart(40))
    assert enc.advisor.can_hit(enc, a, b)
    enc, a, b = duel({**bow, **BLIND}, member("B", at="y"), **apart(40))
    assert not enc.advisor.can_hit(enc, a, b)
    a.aim_at = b  # aimed: +1D, 0D
    assert not enc.advisor.can_hit(enc, a, b)


@pytest.mark.parametrize("profile", ["basic", "aggressive", "cautious", "tactical"])
def test_no_profile_declares_an_attack_that_rolls_no_dice(profile: str) -> None:
    enc, a, b = duel(member("A", profile, agility=1, **BLIND), member("B"))
    intents = ai.decide(enc, a)
    assert not any(type(i) is Attack for i in intents), (intents, a.why)
    # two steps away a charge would be a move and a 0D attack: not declared either
    enc, a, b = duel(member("A", profile, agility=1, at="x", **BLIND), member("B", at="y"),
                     **apart(8))
    assert not enc.advisor.can_move_and_attack(enc, a)
    assert not any(type(i) is Attack for i in ai.decide(enc, a))


def test_a_hopeless_melee_fighter_defends_if_a_defense_beats_the_ten_else_holds() -> None:
    enc, a, b = duel(member("A", agility=1, **BLIND), member("B"))
    assert ai.decide(enc, a) == [] and "0D to hit B: holds its ground" in a.why
    # Agility 1D + dodge 4D: a 5D dodge averages well above 10
    enc, a, b = duel(member("A", agility=1, skills={"dodge": 4}, **BLIND), member("B"))
    assert ai.decide(enc, a) == [Defend("dodge")] and "dodges instead" in a.why


def test_a_hopeless_shooter_aims_when_that_makes_the_shot_then_steps_closer() -> None:
    # DEX 1D + bow 1D = 2D at long range (-2D): 0D; aimed (+1D) it is 1D next round
    bow = member("A", weapon="bow", traits={"dexterity": 1}, skills={"ranged": 1}, at="x")
    enc, a, b = duel(bow, member("B", "passive", at="y"), **apart(40))
    assert not enc.advisor.can_hit(enc, a, b)
    assert ai.decide(enc, a) == [Aim(b)]
    turn(enc, a, Aim(b), dice=[])
    assert enc.advisor.can_hit(enc, a, b)
    assert ai.decide(enc, a) == [Attack(b)]
    # blinded as well (-1D even when aimed): the aim cannot make the shot, it steps closer
    enc, a, b = duel({**bow, **BLIND}, member("B", "passive", at="y"), **apart(40))
    intents = ai.decide(enc, a)
    assert [type(i) for i in intents] == [Move] and intents[0].stop_at == 30
    # and a shooter already aimed, still at 0D, steps closer too
    enc, a, b = duel(bow, member("B", "passive", at="y"), **apart(45))
    a.aim_at = b
    a.level = WoundStatus.WOUNDED  # -1D: 0D even aimed
    assert [type(i) for i in ai.decide(enc, a)] == [Move]


# ------------------------------------------------------------------ fate-point timing
def dying_foe(ai_: str = "aggressive", ruleset: str = "opend6", **top):
    """A (club 3D, 5 CP, 1 FP) against B, one wound (or 2 HP) from death."""
    enc, a, b = duel(member("A", ai_), member("B"), ruleset, **top)
    if ruleset == "opend6":
        b.wounds, b.level = 4, WoundStatus.MORTALLY_WOUNDED
    else:
        b.hp, b.level = 2, WoundStatus.MORTALLY_WOUNDED
    return enc, a, b


def test_the_fate_point_is_spent_after_the_roll_is_seen() -> None:
    enc, a, b = dying_foe()
    # a character point before the roll: 4D [1, 1, 1] wild 2 = 5, short of the 10 it sees;
    # a fate point then: the 4 extra dice [1, 1, 1, 2] make 10, a hit; damage 3D 9 vs 4
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2] + [1, 1, 1, 2] + [3, 3, 3] + [2, 2])
    assert (a.cp, a.fate, a.hits) == (4, 0, 1)
    assert b.status is Status.DEAD


def test_no_fate_point_on_a_total_that_already_meets_the_ten() -> None:
    enc, a, b = dying_foe()
    turn(enc, a, Attack(b), dice=[3, 3, 3, 3] + [3, 3, 3] + [2, 2])  # 12: no fate point
    assert (a.cp, a.fate, a.hits) == (4, 1, 1)


def test_no_fate_point_when_the_extra_dice_can_hardly_reach() -> None:
    enc, a, b = dying_foe(map={"nodes": {"wall": {"cover": "heavy"}}})  # 10 + 15 = 25
    # 5 + 4 extra dice reaches 25 only on 20+ (35 in 1,296): not worth the point
    assert not fate_point(enc.advisor, enc, a, b, 5, 4)
    assert fate_point(enc.advisor, enc, a, b, 12, 4)  # 12 + 13 or more: about 0.56
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2])
    assert (a.cp, a.fate, a.hits) == (4, 1, 0)


def test_the_fate_odds_a_player_is_shown_are_exact() -> None:
    enc, a, b = dying_foe(map={"nodes": {"wall": {"cover": "heavy"}}})  # 10 + 15 = 25
    # 12 rolled: misses as it stands; 4 more dice hit on 13 or more of 4d6
    now, boosted = fate_odds(enc.advisor, enc, a, b, 12, 4)
    assert now == 0.0
    assert boosted == pytest.approx(sum(
        1 for d in itertools.product(range(1, 7), repeat=4) if sum(d) >= 13) / 6**4)
    assert fate_odds(enc.advisor, enc, a, b, 25, 4) == pytest.approx((1.0, 1.0))


def test_against_a_defense_roll_the_total_it_must_meet_stays_secret() -> None:
    enc, a, b = duel(member("A", "aggressive"), member("B", skills={"dodge": 3}))
    b.wounds, b.level = 4, WoundStatus.MORTALLY_WOUNDED
    turn(enc, b, Defend("dodge"), dice=[1, 3])  # B dodges 5D - 3D mortally wounded: 4
    assert b.defense == 4
    # A's 5 already meets the 4, but A cannot know it: against a 2D dodge a 5 hits with
    # P(2D <= 5), well under 1, and 4 more dice make it nearly sure, so it spends
    two = exact_roll(2)
    now = float(two.probability("<=", 5))
    assert now < 1 - FATE_POINT_GAIN
    assert fate_point(enc.advisor, enc, a, b, 5, 4)
    assert not fate_point(enc.advisor, enc, a, b, 20, 4)  # a 20 beats a 2D dodge ~99%
    turn(enc, a, Attack(b), dice=[1, 1, 1, 2] + [1, 1, 1, 1] + [3, 3, 3] + [2, 2])
    assert (a.cp, a.fate, a.hits) == (4, 0, 1)


def test_no_fate_point_on_a_fresh_foe_nor_by_a_fighter_that_does_not_spend() -> None:
    enc, a, b = duel(member("A", "aggressive"), member("B"))
    assert not fate_point(enc.advisor, enc, a, b, 5, 4)
    enc, a, b = dying_foe("basic")
    turn(enc, a, Attack(b), dice=[1, 1, 2])  # basic: no point, 3D
    assert (a.cp, a.fate) == (5, 1)


# ------------------------------------------------------------------ worths
def wounds_of_a_hit(damage: int, resistance: int, cap: int = 5) -> float:
    # damage and resistance are not actions: a wild 1 counts as 1 (RULES.md, amended)
    return float(icepool.map(lambda d, r: min(cap, d // max(r, 1)),
                             exact_roll(damage, action=False),
                             exact_roll(resistance, action=False)).mean())


def test_attack_worth_is_the_chance_to_hit_times_the_wounds_of_a_hit() -> None:
    enc, a, b = duel(member("A"), member("B"))  # club 3D (damage STR 2D + 1D) vs END 2D
    p = float(exact_roll(3).probability(">=", 10))
    assert enc.advisor.attack_worth(enc, a, b) == pytest.approx(p * wounds_of_a_hit(3, 2),
                                                                abs=1e-7)
    b.wounds = 4  # at most the one wound it has left
    assert enc.advisor.attack_worth(enc, a, b) == pytest.approx(
        p * wounds_of_a_hit(3, 2, cap=1), abs=1e-7)
    enc, a, b = duel(member("A", agility=1, **BLIND), member("B"))
    assert enc.advisor.attack_worth(enc, a, b) == 0.0


def test_defense_worth_is_the_hit_chance_a_defense_roll_takes_off_each_threat() -> None:
    sides = {"a": [member("A", skills={"dodge": 3})],
             "b": [member("B", agility=3, melee=2), member("C", agility=3, melee=2)]}
    enc = Encounter(scenario_mod.parse({"name": "t", "ruleset": "opend6", "sides": sides}),
                    "opend6", seed=0)
    a, b, c = enc.combatants
    five = exact_roll(5)
    bare = float(five.probability(">=", 10))
    dodged = float((five - five).probability(">=", 0))  # a 5D dodge: ties to the attacker
    each = (bare - dodged) * wounds_of_a_hit(3, 2)  # damage STR 2D + club 1D vs END 2D
    assert enc.advisor.defense_worth(enc, a, {b: 1.0, c: 1.0}, "dodge") == pytest.approx(2 * each,
                                                                               abs=1e-7)
    # a weak defense roll makes hits easier: a 1D dodge (a block without a shield is a
    # dodge) against a 3D club
    enc, weak, foe = duel(member("W", agility=1, skills={"dodge": 0}), member("F"))
    assert weak.dodge_code.dice == 1
    assert enc.advisor.defense_worth(enc, weak, {foe: 1.0}, "block") < 0


KNIGHT = {"traits": {"strength": 4, "endurance": 4, "agility": 3, "dexterity": 3},
          "skills": {"melee": 3, "dodge": 2, "parry": 3}, "weapon": "sword", "armor": "plate"}
KNIFE = {"traits": {"strength": 2, "endurance": 2}, "skills": {"melee": 2}, "weapon": "knife"}
BRUTE = {"traits": {"strength": 5, "endurance": 4, "agility": 3, "dexterity": 3},
         "skills": {"melee": 5}, "weapon": "greatsword"}
DODGER = {"traits": {"strength": 1, "endurance": 2, "agility": 5, "dexterity": 5},
          "skills": {"dodge": 5, "parry": 5}, "weapon": "unarmed"}


@pytest.mark.parametrize("ruleset", ["opend6", "opend6-hp"])
@pytest.mark.parametrize(("me", "foe", "defends"), [(KNIGHT, KNIFE, False),
                                                    (DODGER, BRUTE, True)])
def test_a_cautious_fighter_between_two_foes_weighs_defending_against_striking(
        ruleset, me, foe, defends) -> None:
    sides = {"a": [{"name": "A", "ai": "cautious", **me}],
             "b": [{"name": "B", "count": 2, **foe}]}
    enc = Encounter(scenario_mod.parse({"name": "t", "ruleset": ruleset, "sides": sides}),
                    ruleset, seed=0)
    a, b, c = enc.combatants
    if ruleset == "opend6":
        a.wounds = 1
    else:
        a.hp -= 5
    kind = enc.advisor.defense_kind(enc, a, ranged=False)
    spared = enc.advisor.defense_worth(enc, a, {b: 1.0, c: 1.0}, kind)
    dealt = enc.advisor.attack_worth(enc, a, b)
    assert (spared > dealt) is defends
    intents = ai.decide(enc, a)
    assert (Defend(kind) in intents) is defends and "2 foes in reach" in a.why
    assert any(type(i) is Attack for i in intents) is not defends, a.why

"""OpenD6 pure rules: wild-die distributions against icepool, hand-set rolls, codes, wounds, HP.

Expected values come from the rules text (RULES.md `opend6`, seed 004) and from icepool's exact
distributions, never from the code under test.
"""

from __future__ import annotations

import math
import random

import icepool
import pytest
from helpers import opend6_exact_roll

from sim.rulesets.opend6.catalog import (
    ARMOR_BY_NEUTRAL,
    ARMORS,
    SHIELDS,
    SHIELDS_BY_NEUTRAL,
    WEAPONS,
    WEAPONS_BY_NEUTRAL,
    encumbrance_difficulty,
)
from sim.rulesets.opend6.dice import DiceCode, DiceCodeError, parse_code, roll_code
from sim.rulesets.opend6.rules import (
    RangeBand,
    WoundStatus,
    attack_hits,
    extra_move_difficulty,
    fate_extra_dice,
    hp_damage,
    hp_penalty,
    hp_status,
    multiple_action_penalty,
    pool_with_points,
    range_band,
    starting_hp,
    target_number,
    wound_penalty,
    wound_status,
    wounds_from_damage,
)
from sim.scenario.vocabulary import Cover, Visibility

# the icepool oracle of the wild-die rules: helpers.opend6_exact_roll


def summary(die: icepool.Die) -> tuple[float, float, float]:
    return (
        float(die.mean()),
        float(die.probability(">=", 10)),
        float(die.probability(">=", 15)),
    )


SAMPLES = 100_000
PROB_TOL = 0.01  # absolute; the standard error of a probability at 100,000 rolls is <= 0.0016
MEAN_SE = 4  # means must agree within 4 standard errors of the exact distribution


def mean_tolerance(die: icepool.Die) -> float:
    return MEAN_SE * float(die.standard_deviation()) / math.sqrt(SAMPLES)


CASES = [(n, p, c) for c in (False, True) for n in range(1, 8) for p in (0, 2)]


@pytest.mark.parametrize(("dice", "pips", "complication"), CASES)
def test_monte_carlo_matches_exact(dice: int, pips: int, complication: bool) -> None:
    die = opend6_exact_roll(dice, pips, complication=complication)
    mean, p10, p15 = summary(die)
    rng = random.Random(1000 * dice + 10 * pips + complication)
    totals = [roll_code(rng, dice, pips, complication=complication).total for _ in range(SAMPLES)]
    assert sum(totals) / SAMPLES == pytest.approx(mean, abs=mean_tolerance(die))
    assert sum(t >= 10 for t in totals) / SAMPLES == pytest.approx(p10, abs=PROB_TOL)
    assert sum(t >= 15 for t in totals) / SAMPLES == pytest.approx(p15, abs=PROB_TOL)


@pytest.mark.parametrize("dice", range(1, 8))
def test_tolerances_tell_the_fumble_rule_apart(dice: int) -> None:
    # The Monte Carlo test can fail: counting a fumble's dice moves the mean or a
    # probability by more than the tolerance, for every pool size.
    standard = opend6_exact_roll(dice, 0)
    counted = opend6_exact_roll(dice, 0, complication=True)
    mean_gap = float(counted.mean() - standard.mean())
    prob_gaps = [b - a for a, b in zip(summary(standard)[1:], summary(counted)[1:], strict=True)]
    assert mean_gap > mean_tolerance(standard) or max(prob_gaps) > PROB_TOL


def test_oracle_small_cases_by_hand() -> None:
    # 1D: a fumble leaves 0; faces 2..5 as rolled; a 6 explodes (mean 6 + 4.2).
    one = opend6_exact_roll(1, 0)
    assert one.probability(0) == pytest.approx(1 / 6)
    assert one.probability(3) == pytest.approx(1 / 6)
    assert float(one.mean()) == pytest.approx((2 + 3 + 4 + 5 + 6 + 4.2) / 6, abs=1e-8)
    # 2D fumble: only the wild 1 and the single normal die, both removed.
    assert opend6_exact_roll(2, 2).probability(2) == pytest.approx(1 / 6)


# ----------------------------------------------------------------------- hand-set dice (stub rng)


class StubRandom(random.Random):
    """A generator whose random() returns the chosen faces (a d6 reads int(x * 6) + 1)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.values = [(face - 0.5) / 6 for face in faces]

    def random(self) -> float:
        return self.values.pop(0)


def rolled(faces: list[int], dice: int, pips: int = 0, *, complication: bool = False):
    rng = StubRandom(faces)
    result = roll_code(rng, dice, pips, complication=complication)
    assert rng.values == [], "the roll drew fewer dice than expected"
    return result


def test_plain_roll_adds_everything() -> None:
    result = rolled([4, 2, 5], 3, 1)
    assert (result.normal, result.wild, result.total) == ((4, 2), (5,), 12)
    assert not result.fumble and not result.exploded and result.removed == ()


def test_wild_six_explodes_while_six() -> None:
    result = rolled([4, 2, 6, 6, 3], 3)
    assert result.wild == (6, 6, 3)
    assert result.total == 4 + 2 + 6 + 6 + 3
    assert result.exploded and not result.fumble


def test_exploding_wild_die_that_shows_one_just_adds_one() -> None:
    result = rolled([3, 6, 1], 2)
    assert result.total == 3 + 6 + 1
    assert result.exploded and not result.fumble and result.removed == ()


def test_fumble_removes_wild_die_and_highest_normal_die() -> None:
    result = rolled([5, 3, 5, 1], 4, 2)
    assert result.fumble and not result.exploded
    assert result.removed == (1, 5)
    assert result.total == 5 + 3 + 2  # one of the two fives goes, not both


def test_fumble_with_complication_counts_normally() -> None:
    result = rolled([5, 3, 5, 1], 4, 2, complication=True)
    assert result.fumble and result.removed == ()
    assert result.total == 5 + 3 + 5 + 1 + 2


def test_one_die_is_the_wild_die_alone() -> None:
    assert rolled([1], 1, 2).total == 2
    assert rolled([1], 1, 2).removed == (1,)
    assert rolled([6, 6, 6, 2], 1).total == 20
    assert rolled([4], 1).normal == ()


def test_zero_dice_totals_the_pips() -> None:
    result = rolled([], 0, 2)
    assert (result.total, result.wild, result.normal) == (2, (), ())
    assert not result.fumble and not result.exploded
    assert rolled([], -3, 1).total == 1


def test_total_never_below_zero() -> None:
    assert rolled([4, 1], 2, -1).total == 0
    assert rolled([2, 3], 2, -9).total == 0
    assert rolled([], 0, -2).total == 0


def test_seeded_rolls_replay() -> None:
    first = [roll_code(random.Random(7), 5, 1) for _ in range(3)]
    again = [roll_code(random.Random(7), 5, 1) for _ in range(3)]
    assert first == again


# ------------------------------------------------------------------------------------ dice codes


@pytest.mark.parametrize(
    ("text", "dice", "pips", "canonical"),
    [
        ("3D", 3, 0, "3D"),
        ("2D+1", 2, 1, "2D+1"),
        ("0D+2", 0, 2, "0D+2"),
        ("4d", 4, 0, "4D"),
        ("1d+2", 1, 2, "1D+2"),
        (" 3D + 2 ", 3, 2, "3D+2"),
        ("0D", 0, 0, "0D"),
        ("12D+0", 12, 0, "12D"),
    ],
)
def test_parse_valid_codes(text: str, dice: int, pips: int, canonical: str) -> None:
    code = parse_code(text)
    assert (code.dice, code.pips) == (dice, pips)
    assert str(code) == canonical


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("3X", "not a dice code"),
        ("-2D", "negative"),
        ("2D+3", "write 3D"),
        ("2D+5", "write 3D+2"),
        ("", "empty"),
        ("   ", "empty"),
        ("D", "missing before 'D'"),
        ("D+2", "missing before 'D'"),
        ("2D+", "missing after '+'"),
        ("2", "bare number"),
        ("2D-1", "negative pips"),
        ("2.5D", "not a dice code"),
        ("2D+1+1", "not a dice code"),
        ("2D6", "not a dice code"),
        ("\uff13D", "not a dice code"),  # a full-width digit
        ("__import__('os')", "not a dice code"),
    ],
)
def test_parse_rejects_bad_codes(text: str, says: str) -> None:
    with pytest.raises(DiceCodeError) as info:
        parse_code(text)
    message = str(info.value)
    assert says in message
    assert repr(text) in message
    assert "0, 1 or 2 pips" in message  # says what is allowed


@pytest.mark.parametrize("value", [None, 3, 2.0])
def test_parse_rejects_non_text(value: object) -> None:
    with pytest.raises(DiceCodeError, match="must be text"):
        parse_code(value)  # type: ignore[arg-type]


def test_dice_code_error_is_a_value_error() -> None:
    assert issubclass(DiceCodeError, ValueError)
    with pytest.raises(DiceCodeError):
        DiceCode(-1)


def test_codes_add_without_carrying_pips() -> None:
    # The seed: Dexterity 3D+1 and Pistol 2D+2 roll 5 dice and add +3.
    total = DiceCode(3, 1) + DiceCode(2, 2)
    assert total == DiceCode(5, 3)
    assert str(total) == "5D+3"


def test_with_dice_never_below_zero() -> None:
    assert DiceCode(2, 1).with_dice(1) == DiceCode(3, 1)
    assert DiceCode(2, 1).with_dice(-2) == DiceCode(0, 1)
    assert DiceCode(1, 2).with_dice(-3) == DiceCode(0, 2)


def test_average_rounds_down() -> None:
    assert DiceCode(2).average == 7  # the seed's example
    assert DiceCode(3).average == 10
    assert DiceCode(3, 1).average == 11
    assert DiceCode(1).average == 3


# ---------------------------------------------------------------------------------------- points


@pytest.mark.parametrize(
    ("dice", "cp", "fate", "expected"),
    [(4, 0, False, 4), (4, 1, False, 5), (4, 0, True, 8), (4, 1, True, 10), (-1, 1, True, 2)],
)
def test_pool_with_points(dice: int, cp: int, fate: bool, expected: int) -> None:
    assert pool_with_points(dice, cp, fate) == expected


@pytest.mark.parametrize("cp", [-1, 2])
def test_pool_with_points_limits_character_points(cp: int) -> None:
    with pytest.raises(ValueError, match="per roll"):
        pool_with_points(3, cp, False)


# ---------------------------------------------------------------------------------------- wounds


@pytest.mark.parametrize(
    ("damage", "resistance", "wounds"),
    [
        (9, 3, 3),
        (8, 3, 2),
        (3, 3, 1),
        (2, 3, 0),
        (14, 3, 4),
        (15, 3, 5),
        (30, 3, 5),
        (20, 10, 2),
        (19, 10, 1),
        (9, 10, 0),
        (3, 0, 3),  # resistance 0 counts as 1
        (1, 0, 1),
        (0, 0, 0),
        (2, -4, 2),
        (-3, 2, 0),
    ],
)
def test_wounds_from_damage(damage: int, resistance: int, wounds: int) -> None:
    assert wounds_from_damage(damage, resistance) == wounds


def test_wound_effects() -> None:
    assert [wound_penalty(w) for w in range(5)] == [0, -1, -1, -2, -3]
    # at and past the limit the deepest penalty stays (it read 0 at 5+ wounds)
    assert [wound_penalty(w) for w in (5, 6, 12)] == [-3, -3, -3]
    assert [wound_penalty(w, limit=7) for w in (4, 5, 6, 7)] == [-3, -3, -3, -3]
    assert [wound_penalty(w, limit=3) for w in (1, 2, 3)] == [-1, -1, -1]
    assert wound_status(0) is WoundStatus.HEALTHY
    assert wound_status(1) is WoundStatus.STUNNED
    assert wound_status(3) is WoundStatus.SEVERELY_WOUNDED
    assert wound_status(5) is WoundStatus.DEAD
    assert wound_status(8) is WoundStatus.DEAD
    assert not WoundStatus.STUNNED.lasting and WoundStatus.WOUNDED.lasting
    assert not WoundStatus.DEAD.can_act and WoundStatus.MORTALLY_WOUNDED.can_act


# ------------------------------------------------------------------------------------ hit points


@pytest.mark.parametrize(
    ("hp", "status", "penalty"),
    [
        (-4, WoundStatus.DEAD, 0),
        (0, WoundStatus.DEAD, 0),
        (1, WoundStatus.MORTALLY_WOUNDED, -3),
        (3, WoundStatus.MORTALLY_WOUNDED, -3),
        (4, WoundStatus.SEVERELY_WOUNDED, -2),
        (8, WoundStatus.SEVERELY_WOUNDED, -2),
        (9, WoundStatus.WOUNDED, -1),
        (13, WoundStatus.WOUNDED, -1),
        (14, WoundStatus.STUNNED, -1),
        (19, WoundStatus.STUNNED, -1),
        (20, WoundStatus.HEALTHY, 0),
        (33, WoundStatus.HEALTHY, 0),
    ],
)
def test_hp_thresholds(hp: int, status: WoundStatus, penalty: int) -> None:
    assert hp_status(hp) is status
    assert hp_penalty(hp) == penalty


def test_starting_hp_takes_the_average_when_the_roll_is_lower() -> None:
    # The seed's example: Endurance 2D rolls 4, below the average 7, so 27 hit points.
    assert starting_hp(StubRandom([1, 3]), DiceCode(2)) == 27
    assert starting_hp(StubRandom([5, 4]), DiceCode(2)) == 29
    assert starting_hp(StubRandom([5, 1]), DiceCode(2)) == 27  # a fumble rolls 0
    assert starting_hp(StubRandom([2, 2, 3]), DiceCode(3, 1)) == 20 + 11  # 8 < floor(10.5)+1


def test_hp_damage() -> None:
    assert hp_damage(10, 4) == 6
    assert hp_damage(4, 4) == 0
    assert hp_damage(3, 4) == 0


# ---------------------------------------------------------------------------------------- ranges


@pytest.mark.parametrize(
    ("distance", "band"),
    [
        (0, RangeBand.POINT_BLANK),
        (3, RangeBand.POINT_BLANK),
        (3.5, RangeBand.CLOSE),
        (15, RangeBand.CLOSE),
        (15.5, RangeBand.MEDIUM),
        (30, RangeBand.MEDIUM),
        (31, RangeBand.LONG),
        (50, RangeBand.LONG),
        (50.5, RangeBand.OUT_OF_RANGE),
    ],
)
def test_longbow_range_bands(distance: float, band: RangeBand) -> None:
    assert range_band(distance, WEAPONS["longbow"]) is band  # 15/30/50 m


def test_range_band_dice() -> None:
    assert [b.dice for b in RangeBand] == [1, 0, -1, -2, None]
    assert range_band(40, WEAPONS["crossbow"]) is RangeBand.LONG  # 10/20/40 m
    assert range_band(41, WEAPONS["crossbow"]) is RangeBand.OUT_OF_RANGE


def test_melee_weapon_has_no_range_band() -> None:
    with pytest.raises(ValueError, match="melee"):
        range_band(2, WEAPONS["sword"])


# ------------------------------------------------------------------------------------- modifiers


def test_target_numbers() -> None:
    assert target_number() == 10
    assert target_number(cover=Cover.LIGHT) == 15
    assert target_number(cover=Cover.HEAVY) == 25
    assert target_number(7, cover=Cover.MEDIUM) == 17  # a dodge or block roll gets cover
    assert target_number(7, parry=True, cover=Cover.HEAVY) == 7  # a parry does not
    assert target_number(visibility=Visibility.POOR) == 15
    assert target_number(visibility=Visibility.VERY_POOR) == 25
    assert target_number(pinned=True) == 5
    assert target_number(extra=5) == 15  # an improvised weapon


def test_hits_meet_or_beat_the_target_number_a_defense_roll_included() -> None:
    # RULES.md: a defense roll replaces the difficulty, so meeting it hits (ties to the
    # attacker), exactly as meeting the 10 does.
    assert attack_hits(10, 10)
    assert not attack_hits(9, 10)
    assert attack_hits(12, 12)
    assert attack_hits(13, 12)
    assert not attack_hits(11, 12)


@pytest.mark.parametrize(("dice", "cp", "extra"), [(3, 0, 3), (3, 1, 4), (0, 1, 1), (0, 0, 0),
                                                   (-2, 0, 0)])
def test_a_fate_point_adds_the_dice_that_double_the_pool(dice: int, cp: int,
                                                         extra: int) -> None:
    assert fate_extra_dice(dice, cp) == extra
    assert pool_with_points(dice, cp, False) + extra == pool_with_points(dice, cp, True)


def test_multiple_actions_and_moves() -> None:
    assert [multiple_action_penalty(n) for n in (1, 2, 3, 4)] == [0, -1, -2, -3]
    # The seed: running 25 m takes two extra moves, at difficulties 10 and 20.
    assert [extra_move_difficulty(n) for n in (1, 2)] == [10, 20]


# --------------------------------------------------------------------------------------- catalog


def test_neutral_names_are_all_mapped() -> None:
    from sim.scenario import vocabulary

    assert set(WEAPONS_BY_NEUTRAL) == set(vocabulary.WEAPONS)  # every neutral name, no other
    assert set(ARMOR_BY_NEUTRAL) == set(vocabulary.ARMORS)
    assert set(SHIELDS_BY_NEUTRAL) == {"shield"}


def test_seed_table_entries() -> None:
    strength = DiceCode(3)
    # The seed: Strength 3D with a weapon of +1D+2 does 4D+2; the great sword is Strength +3D.
    assert WEAPONS["great_sword"].damage_code(strength) == DiceCode(6)
    assert WEAPONS_BY_NEUTRAL["sword"].damage_code(strength) == DiceCode(5, 1)
    assert WEAPONS_BY_NEUTRAL["unarmed"].damage_code(strength) == DiceCode(3)
    crossbow = WEAPONS_BY_NEUTRAL["crossbow"]
    assert crossbow.damage_code(strength) == DiceCode(4)  # mechanical: no Strength
    assert (crossbow.ranges, crossbow.reload_actions) == ((10, 20, 40), 1)
    assert WEAPONS_BY_NEUTRAL["bow"].attack_attribute == "dexterity"
    assert WEAPONS_BY_NEUTRAL["spear"].attack_attribute == "agility"
    assert WEAPONS["improvised"].difficulty == 5
    assert ARMOR_BY_NEUTRAL["chain"].resistance == DiceCode(2)
    assert ARMOR_BY_NEUTRAL["leather"].resistance == DiceCode(0, 2)
    assert SHIELDS_BY_NEUTRAL["shield"].block
    assert encumbrance_difficulty(ARMORS["plate"], SHIELDS["tower_shield"]) == 8
    assert encumbrance_difficulty(ARMORS["leather"], SHIELDS["shield"]) == 0

"""OpenCore d100 rules as pure functions: modifiers, HP, initiative, to-hit, damage, criticals.

Engine-independent: nothing here knows about combatants, rounds or SimPy. Functions that
roll take an explicit ``random.Random``. RULES.md (section ``opencore``) is the ruling where it
disagrees with seed 001; rulings found in neither are marked "ruling" where they apply.
"""

from __future__ import annotations

import math
import random
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

from sim.rulesets.dice import roll, roll_pool
from sim.rulesets.opencore.criticals import (
    CRITICAL_TABLES,
    NO_CRITICAL,
    Critical,
    CriticalRow,
    CritTable,
)
from sim.rulesets.opencore.tables import (
    FUMBLE_CHART,
    FireMode,
    Fumble,
    Mode,
    Role,
    Weapon,
)

D100 = 100
FUMBLE_MAX = 5  # a natural 01-05 on the attack or defense d100 is a fumble
BIDE_BONUS = 20  # initiative bonus the round after biding
DEFENSE_MULTIPLIER = 2  # the defense action doubles the defensive skill
STUN_DEFENSE_PENALTY = 50  # stunned: -50 to defense rolls
# RULES.md "Down for a while is not out": an attack on a helpless fighter (knocked out for a
# set time) meets no defense; OpenCore: the defender's roll counts as 0 (d100 and skill).
HELPLESS_DEFENSE = 0
INITIATIVE_DIE = 20
WEAK_STRIKE_BELOW = 20  # unmodified attack roll below this: -20 on the critical roll
STRONG_STRIKE_ABOVE = 80  # above this: +20
STRIKE_CRIT_SHIFT = 20
CRIT_FLOOR = -19  # a modified critical roll below this has no effect
# Ruling (seed silent): a hit never does less than 1 damage, even with a negative STR
# modifier; the seed's Fortitude rule likewise treats results below 1 as 1.
MIN_DAMAGE = 1
# Option ``fortitude`` (RULES.md ``opencore``; seed 001: "Subtract the appropriate fortitude
# score from incoming damage dice before rolling them. Treat any result of less than 1 as 1
# unless the character has twice as much fortitude as the unmodified number of damage
# dice"): how many dice a fortitude of ``score`` leaves (``fortitude_dice``).
FORTITUDE_MIN_DICE = 1


# Records of every attack, hit and critical are made in C (``NamedTuple(...)`` runs a Python
# ``__new__``); enum members are read through module aliases (through the class: ~0.1 us).
_record = tuple.__new__
_ATTACKER, _DEFENDER = Role.ATTACKER, Role.DEFENDER


def ability_modifier(score: int) -> int:
    """The modifier of an ability score (RULES.md ruling): ``floor((score - 50) / 10)``.

    >>> ability_modifier(49), ability_modifier(50), ability_modifier(100)
    (-1, 0, 5)
    """
    return (score - 50) // 10  # floor division floors negatives, as the ruling asks


class HpRule(StrEnum):
    """How starting hit points are found (scenario option ``hp_rule``)."""

    CON = "con"  # default ruling: HP = CON
    SEED = "seed"  # the seed as printed: 1d100 - CON, minimum 1


def hit_points(con: int, rule: HpRule | str = HpRule.CON, rng: random.Random | None = None) -> int:
    """Starting hit points.

    The seed's 1d100 - CON contradicts its own text (more CON, more HP), so the default is
    HP = CON; ``rule="seed"`` gives the printed formula, floored at 1.

    Args:
        con: Constitution score.
        rule: an ``HpRule`` or its name.
        rng: needed only for the seed rule.

    Raises:
        ValueError: on an unknown rule, or the seed rule without ``rng``.
    """
    if rule == HpRule.CON:  # the name or the member: no Enum built for every fighter
        return con
    rule = HpRule(rule)
    if rng is None:
        raise ValueError("hp_rule 'seed' rolls 1d100: pass rng")
    return max(1, roll(rng, 100) - con)


def initiative(
    rng: random.Random, dex: int, speed_factor: int, armor_penalty: int = 0, bide: bool = False
) -> int:
    """One round's individual initiative: 1d20 + DEX modifier + speed factor - armor penalty.

    Args:
        rng: the encounter's generator.
        dex: Dexterity *score* (its modifier is taken here).
        speed_factor: the weapon's speed factor.
        armor_penalty: the armor's initiative penalty as a positive amount.
        bide: the combatant bided last round (+20).
    """
    return rolled_initiative(rng, initiative_bonus(dex, speed_factor, armor_penalty), bide)


def initiative_bonus(dex: int, speed_factor: int, armor_penalty: int = 0) -> int:
    """What initiative adds to its 1d20: DEX modifier + speed factor - armor penalty.

    The same every round for a fighter, so the ruleset works it out once.
    """
    return ability_modifier(dex) + speed_factor - armor_penalty


def rolled_initiative(rng: random.Random, bonus: int, bide: bool = False) -> int:
    """1d20 + ``bonus`` (``initiative_bonus``), +20 after a bide."""
    total = roll(rng, INITIATIVE_DIE) + bonus
    return total + BIDE_BONUS if bide else total


class AttackOutcome(NamedTuple):
    """The result of one opposed attack (a named tuple: one is built for every attack).

    Attributes:
        hit: the attack lands.
        fumbled_by: who must roll on the fumble chart, or None.
        attack_roll: the attacker's unmodified d100 (it shifts the critical roll).
        attack_total: d100 + attack skill.
        defense_total: d100 + defense skill.
    """

    hit: bool
    fumbled_by: Role | None
    attack_roll: int
    attack_total: int
    defense_total: int


def opposed_attack(att_roll: int, att_skill: int, def_roll: int, def_skill: int) -> AttackOutcome:
    """Resolve 1d100 + attack skill against 1d100 + defense skill (``attack_verdict``).

    Args:
        att_roll: the attacker's d100 (1-100).
        att_skill: attack skill with bonuses and penalties applied.
        def_roll: the defender's d100 (1-100).
        def_skill: defense skill (doubled, stunned, ... already applied by the caller).
    """
    hit, fumbled_by = attack_verdict(att_roll, att_skill, def_roll, def_skill)
    return _record(AttackOutcome, (hit, fumbled_by, att_roll, att_roll + att_skill,
                                   def_roll + def_skill))


# the four verdicts (hit, who fumbled), made once: an attack without a log builds nothing
_ATTACKER_FUMBLES, _DEFENDER_FUMBLES = (False, _ATTACKER), (True, _DEFENDER)
_HITS, _MISSES = (True, None), (False, None)


def attack_verdict(att_roll: int, att_skill: int, def_roll: int,
                   def_skill: int) -> tuple[bool, Role | None]:
    """Whether an opposed attack lands, and who fumbled (``opposed_attack``'s arguments).

    An attacker's 01-05 misses whatever the defender rolled; otherwise a defender's 01-05 is
    hit. If both fumble, only the attacker's fumble counts (RULES.md's "otherwise"). Else the
    higher total wins and ties go to the defender (RULES.md ruling; the seed is silent).
    """
    if att_roll <= FUMBLE_MAX:
        return _ATTACKER_FUMBLES
    if def_roll <= FUMBLE_MAX:
        return _DEFENDER_FUMBLES
    return _HITS if att_roll + att_skill > def_roll + def_skill else _MISSES


def helpless_verdict(att_roll: int, att_skill: int) -> tuple[bool, Role | None]:
    """``attack_verdict`` against a helpless defender (ruling "Down for a while is not out").

    The defender rolls nothing: its total counts as ``HELPLESS_DEFENSE`` (0), so it cannot
    fumble; the attacker's 01-05 still misses and rolls on the chart, and the attacker's
    total must beat 0 (ties to the defender, as always).
    """
    if att_roll <= FUMBLE_MAX:
        return _ATTACKER_FUMBLES
    return _HITS if att_roll + att_skill > HELPLESS_DEFENSE else _MISSES


def unarmed_hp(hp: int) -> int:
    """Hit points after a bare-handed blow (RULES.md "Harm that is not meant to kill").

    A fighter taken to 0 HP or less by an unarmed blow is unconscious at 0 HP: it does not
    bleed (bleeding is for HP below 0), so a beating never kills by itself. The option
    ``lethal_unarmed`` turns this off.
    """
    return hp if hp > 0 else 0


# Ruling "stabilised by chance" (seed 001: the fallen "continue to lose additional HPs due
# to bleeding, etc. unless they are stabilized by chance or healing"): each round a fighter
# below 0 HP bleeds, then rolls 1d100; CON // 20 or less and the bleeding (and bloodloss)
# stops. CON 45: 2% a round, about 3 in 5 of the untended live; CON 30: 1%, 1 in 4.
STABILISE_CON_DIVISOR = 20


def stabilise_chance(con: int) -> int:
    """The d100 roll (this or less) that stabilises a fighter of CON ``con`` by chance."""
    return con // STABILISE_CON_DIVISOR


def ticks_to_stabilise(rng: random.Random, con: int) -> float:
    """The round's roll, made every tick below 0 HP, that first stabilises: its number.

    1 if the first roll does; ``math.inf`` when none can (CON below 20). Each roll is 1d100
    against ``stabilise_chance``; drawn at once from ``rng`` (the fighter's own stream).
    """
    need = stabilise_chance(con)
    if need <= 0:
        return math.inf
    # ``roll(rng, D100) > need`` written out, the same draws to the bit: floor(u * 100) + 1
    # exceeds ``need`` exactly when u * 100 >= need. About 50 rolls at CON 45.
    draw = rng.random
    k = 1
    while draw() * D100 >= need:
        k += 1
    return k


def fortitude_score(con: int) -> int:
    """Option ``fortitude``: the score is the CON modifier when positive (RULES.md), else 0.

    The seed gives no scale; ``ability_modifier`` is the ruling's scale for every ability.
    """
    return max(0, ability_modifier(con))


def fortitude_dice(dice: int, score: int) -> int:
    """Damage dice left to roll after a fortitude of ``score`` (option ``fortitude``).

    ``score`` dice come off, never leaving fewer than ``FORTITUDE_MIN_DICE`` unless the score
    is at least twice the weapon's dice: then none are rolled.

    >>> fortitude_dice(2, 1), fortitude_dice(2, 3), fortitude_dice(2, 4), fortitude_dice(3, 0)
    (1, 1, 0, 3)
    """
    if score <= 0:
        return dice
    if score >= 2 * dice:
        return 0
    return max(FORTITUDE_MIN_DICE, dice - score)


def roll_damage(rng: random.Random, weapon: Weapon, str_mod: int, mode: Mode = Mode.SINGLE) -> int:
    """Roll a hit's damage: the weapon's dice + bonus, + the STR modifier where "+STR".

    Args:
        rng: the encounter's generator.
        weapon: the weapon used.
        str_mod: the wielder's STR *modifier* (``ability_modifier(str_score)``).
        mode: the fire mode (assault rifle: single, burst, full auto).

    Raises:
        ValueError: if the weapon lacks the mode or the seed gives it no damage (thrown).
    """
    return roll_fire_damage(rng, weapon.mode(mode), str_mod, weapon.key)


def roll_fire_damage(rng: random.Random, fire: FireMode, str_mod: int, key: str = "",
                     fortitude: int = 0) -> int:
    """``roll_damage`` for a fire mode already looked up (the ruleset's hit holds it).

    ``fortitude``: the target's fortitude score under the option (``fortitude_dice``); a hit
    whose every die it removed deals its bonus alone, and may deal 0 (the seed's "unless").
    """
    dice = fire.damage
    if dice is None:
        raise ValueError(f"{key}: the seed gives no damage ('Per weapon')")
    n = fortitude_dice(dice.dice, fortitude) if fortitude else dice.dice
    # one die (most weapons): the same draw without a list
    total = (roll(rng, dice.sides) if n == 1 else sum(roll_pool(rng, n, dice.sides))
             ) + dice.bonus
    if dice.plus_str:
        total += str_mod
    least = MIN_DAMAGE if n else 0
    return total if total > least else least


class DamageResult(NamedTuple):
    """Where one hit's damage went, and what is left (a named tuple: built for every hit).

    Attributes:
        armor_left: armor damage rating left (armor is used up).
        toughness_left: Toughness left (also used up, like armor).
        hp: hit points after the hit.
        hp_damage: damage that reached hit points; any > 0 calls for a critical.
        to_armor: damage the armor absorbed.
        to_toughness: damage Toughness absorbed.
    """

    armor_left: int
    toughness_left: int
    hp: int
    hp_damage: int
    to_armor: int = 0
    to_toughness: int = 0

    @property
    def reached_hp(self) -> bool:
        """True when the hit calls for a critical roll."""
        return self.hp_damage > 0


def apply_damage(damage: int, armor_left: int, toughness: int, hp: int) -> DamageResult:
    """Spend damage on armor first, then Toughness, then hit points (``spend_damage``)."""
    return _record(DamageResult, spend_damage(damage, armor_left, toughness, hp))


def spend_damage(damage: int, armor_left: int,
                 toughness: int, hp: int) -> tuple[int, int, int, int, int, int]:
    """``apply_damage``'s numbers as a plain tuple, in ``DamageResult``'s order.

    Seed: "A character wearing armor would first lose points from the armor, then from
    Toughness, then from Hit Points"; armor "can take that much damage before it is useless".
    """
    # conditionals, not min(): this runs for every hit of a batch
    to_armor = damage if damage < armor_left else armor_left
    damage -= to_armor
    to_toughness = damage if damage < toughness else toughness
    damage -= to_toughness
    return (armor_left - to_armor, toughness - to_toughness, hp - damage, damage, to_armor,
            to_toughness)


def critical_roll_modifier(unmodified_attack_roll: int, toughness: int) -> int:
    """The shift on the critical d100.

    -20 if the unmodified attack roll was below 20 (a weak strike), +20 above 80 (a very
    effective one), minus the Toughness still left.
    """
    return strike_shift(unmodified_attack_roll) - toughness


def strike_shift(unmodified_attack_roll: int) -> int:
    """The strike's part of the critical shift: -20 weak (below 20), +20 strong (above 80)."""
    if unmodified_attack_roll < WEAK_STRIKE_BELOW:
        return -STRIKE_CRIT_SHIFT
    if unmodified_attack_roll > STRONG_STRIKE_ABOVE:
        return STRIKE_CRIT_SHIFT
    return 0


def critical_row(table: CritTable, modified_roll: int) -> CriticalRow | None:
    """The row a modified critical roll lands on: None below -19, the top row above 120."""
    rows = CRITICAL_TABLES[table]
    if modified_roll < CRIT_FLOOR:
        return None
    for row in rows:
        if modified_roll <= row.high:
            return row
    return rows[-1]


@lru_cache(maxsize=2048)  # pure, and the rolls fall in a few hundred values a table
def critical_lookup(table: CritTable, modified_roll: int) -> Critical:
    """The effects of a modified critical roll; ``NO_CRITICAL`` below -19."""
    row = critical_row(table, modified_roll)
    return NO_CRITICAL if row is None else row.effect


class CriticalRoll(NamedTuple):
    """A rolled critical: the d100, the roll after modifiers, and its effects."""

    roll: int
    modified_roll: int
    effect: Critical


def roll_critical(
    rng: random.Random, table: CritTable, unmodified_attack_roll: int, toughness: int = 0
) -> CriticalRoll:
    """Roll 1d100 on ``table``, shifted by ``critical_roll_modifier``."""
    d100 = roll(rng, 100)
    modified = d100 + critical_roll_modifier(unmodified_attack_roll, toughness)
    return _record(CriticalRoll, (d100, modified, critical_lookup(table, modified)))


def fumble_lookup(d100: int, role: Role) -> Fumble:
    """The fumble chart result for a d100 roll (1-100) and who fumbled.

    Raises:
        ValueError: if the roll is outside 1-100.
    """
    for row in FUMBLE_CHART:
        if row.low <= d100 <= row.high:
            return row.for_role(role)
    raise ValueError(f"fumble roll must be 1-100, got {d100}")

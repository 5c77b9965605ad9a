"""Pure OpenD6 rules: points, wounds, hit points, ranges, modifiers.

Nothing here knows about the engine. Every function that rolls takes an explicit
``random.Random``; everything else is a plain function of its arguments. Dice codes and the
wild die live in :mod:`sim.rulesets.opend6.dice`; the weapon and armor tables in
:mod:`sim.rulesets.opend6.catalog`.

Source: seed 004 as ruled by RULES.md section ``opend6``. Where both are silent, the ruling
made here is marked "Ruling:" next to the code that applies it.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from random import Random
from types import MappingProxyType
from typing import TYPE_CHECKING

from sim.core.actions import Intent, Move, Retreat
from sim.rulesets.opend6.dice import DiceCode, counts_one, roll_total
from sim.scenario.vocabulary import Cover, Visibility

if TYPE_CHECKING:
    from sim.rulesets.opend6.catalog import Weapon


# --- Character points and fate points -----------------------------------------------------------

STARTING_CHARACTER_POINTS = 5
STARTING_FATE_POINTS = 1
MAX_CHARACTER_POINTS_PER_ROLL = 1
"""The seed: "spend one character point per roll to add a single die"."""


def pool_with_points(dice: int, character_points_spent: int, fate_point_spent: bool) -> int:
    """The number of dice to roll after spending points; still one wild die among them.

    Each character point adds one die; a fate point doubles the dice. Ruling: ``dice`` is the
    pool after every modifier (wounds, multiple actions, range...), the character point die is
    added first and a fate point then doubles everything (the seed spends the fate point after
    the roll, on "the number of dice in your pool", which by then holds the character point
    die). Pips are never doubled. A pool below 0 counts as 0.

    Args:
        dice: Dice in the pool after modifiers.
        character_points_spent: 0 or 1 (:data:`MAX_CHARACTER_POINTS_PER_ROLL`).
        fate_point_spent: Whether a fate point doubles the pool.

    Returns:
        The number of dice to roll.

    Raises:
        ValueError: More character points than a roll allows, or a negative number.
    """
    if not 0 <= character_points_spent <= MAX_CHARACTER_POINTS_PER_ROLL:
        raise ValueError(
            f"character_points_spent={character_points_spent}: 0 to "
            f"{MAX_CHARACTER_POINTS_PER_ROLL} per roll"
        )
    pool = max(0, dice) + character_points_spent
    return pool * 2 if fate_point_spent else pool


def fate_extra_dice(dice: int, character_points_spent: int) -> int:
    """Dice a fate point adds to a roll already made of ``dice`` + character points.

    The fate point is spent after the roll is seen (RULES.md ``opend6``): the extra dice
    are rolled and added to the total. They are normal dice; the doubled pool keeps the one
    wild die it already rolled (:func:`pool_with_points`).
    """
    return (pool_with_points(dice, character_points_spent, True)
            - pool_with_points(dice, character_points_spent, False))


# --- Wounds and hit points ----------------------------------------------------------------------


class WoundStatus(IntEnum):
    """How hurt a combatant is; the value is the number of wounds it stands for."""

    HEALTHY = 0
    STUNNED = 1
    WOUNDED = 2
    SEVERELY_WOUNDED = 3
    MORTALLY_WOUNDED = 4
    DEAD = 5

    @property
    def penalty(self) -> int:
        """Dice to add to action rolls (negative); not to resistance rolls.

        0 for DEAD: a dead combatant makes no rolls (see :attr:`can_act`).
        """
        return _PENALTIES[self]

    @property
    def lasting(self) -> bool:
        """Whether the penalty lasts: False for STUNNED (-1D for the rest of that round only)."""
        return self is not WoundStatus.STUNNED

    @property
    def can_act(self) -> bool:
        """Whether the combatant can still take actions."""
        return self is not WoundStatus.DEAD

    def label(self, stun_running: bool = True) -> str:
        """The level in the log's words: ``severely wounded``; the one home of these names.

        ``stun_running``: for STUNNED, whether the stun's round is still going on. Once it
        is over the fighter keeps its wound (or its hit points) but no penalty: the words
        are then :data:`AFTER_STUN` (``no penalty``), not ``stunned``.
        """
        if self is WoundStatus.STUNNED and not stun_running:
            return AFTER_STUN
        return _LABELS[self]


_PENALTIES = (0, -1, -1, -2, -3, 0)
_LABELS = ("healthy", "stunned", "wounded", "severely wounded", "mortally wounded", "dead")
AFTER_STUN = "no penalty"
"""The words for the stunned level (1 wound, or 14-19 HP) when no stun runs: after the
round of its stun, or reached by healing (RULES.md: the level's -1D lasts that round only)."""

WOUND_LIMIT = 5
"""Wounds that kill (the seed's standard; a GM may change it)."""


def wounds_from_damage(damage: int, resistance: int, limit: int = WOUND_LIMIT) -> int:
    """Wounds dealt by one hit: damage >= k x resistance gives k wounds, at most ``limit``.

    Args:
        damage: The damage roll's total.
        resistance: The resistance roll's total (Endurance + armor); counts as at least 1.
        limit: The wounds that kill (:data:`WOUND_LIMIT` unless a scenario changes it).

    Returns:
        0 when damage < resistance, else floor(damage / resistance) capped at ``limit``.
    """
    wounds = damage // (resistance if resistance > 1 else 1)
    if wounds <= 0:
        return 0
    return wounds if wounds < limit else limit


def wound_status(wounds: int, limit: int = WOUND_LIMIT) -> WoundStatus:
    """The status for a number of wounds taken (``limit``, 5, or more is DEAD).

    Ruling: under another wound limit, every count from 4 wounds up to the limit is
    mortally wounded (-3D), and a limit below 5 kills sooner (limit 3: 2 wounds is wounded,
    3 dead).
    """
    if wounds >= limit:
        return WoundStatus.DEAD
    return _LEVELS[min(max(wounds, 0), WoundStatus.MORTALLY_WOUNDED)]


_LEVELS = tuple(WoundStatus)
"""The levels by value: indexing is several times faster than calling ``WoundStatus(n)``."""


def wound_penalty(wounds: int, limit: int = WOUND_LIMIT) -> int:
    """Dice penalty (0, -1, -1, -2, -3) for a number of wounds under the wound ``limit``.

    At 1 wound (stunned) the -1D applies only for the rest of the round the wound was dealt.
    From 4 wounds on it stays -3D (``wound_status``: a limit above 5 keeps 5, 6 ... wounds
    mortally wounded). At the limit the fighter makes no rolls (dead, or knocked out by a
    beating); the penalty is then still the deepest, -3D, never the 0 of no wound (it read
    0 at 5+ wounds until this version).
    """
    below = wounds if wounds < limit else limit - 1
    return _PENALTIES[min(max(below, 0), WoundStatus.MORTALLY_WOUNDED)]


HP_BASE = 20
HP_PER_DAY = 5  # hit points a day of rest gives back (seed 004)


def starting_hp(rng: Random, endurance: DiceCode, base: int = HP_BASE) -> int:
    """Hit points at the start (variant ``opend6-hp``): ``base`` (20) + an Endurance roll.

    If the roll is below the code's average, the average is taken instead. Ruling: the
    average is 3.5 per die plus the pips, rounded down (:attr:`DiceCode.average`; 2D is 7,
    3D+1 is 11); the roll is an Endurance roll, not an action: its wild 1 counts as 1
    (``dice.counts_one``).
    """
    rolled = roll_total(rng, endurance.dice, endurance.pips, counts_one(False, False))
    return base + max(rolled, endurance.average)


def hp_damage(damage: int, resistance: int) -> int:
    """Hit points lost: damage - resistance, or 0 when that is not positive."""
    return damage - resistance if damage > resistance else 0


def hp_status(hp: int) -> WoundStatus:
    """The status for hit points left.

    20 or more healthy, 14-19 stunned, 9-13 wounded, 4-8 severely wounded, 1-3 mortally
    wounded, 0 or less dead.
    """
    if hp >= 20:
        return WoundStatus.HEALTHY
    if hp >= 14:
        return WoundStatus.STUNNED
    if hp >= 9:
        return WoundStatus.WOUNDED
    if hp >= 4:
        return WoundStatus.SEVERELY_WOUNDED
    if hp >= 1:
        return WoundStatus.MORTALLY_WOUNDED
    return WoundStatus.DEAD


def hp_penalty(hp: int) -> int:
    """Dice penalty for hit points left (14-19 is stunned: -1D for the rest of that round)."""
    return hp_status(hp).penalty


# --- Ranges -------------------------------------------------------------------------------------

POINT_BLANK_M = 3


class RangeBand(Enum):
    """Range bands of a ranged attack; the value is the dice modifier (None: no shot)."""

    POINT_BLANK = 1
    CLOSE = 0
    MEDIUM = -1
    LONG = -2
    OUT_OF_RANGE = None

    @property
    def dice(self) -> int | None:
        """Dice added to the attack roll, or None when the target cannot be shot."""
        dice: int | None = self.value
        return dice


def range_band(distance_m: float, weapon: Weapon) -> RangeBand:
    """The band a target falls in for a ranged weapon.

    Up to 3 m is point blank, up to the weapon's close range close, up to medium medium, up
    to long long, beyond that out of range.

    Raises:
        ValueError: The weapon has no ranges (a melee weapon).
    """
    if weapon.ranges is None:
        raise ValueError(f"{weapon.name} is a melee weapon: it has no range bands")
    close, medium, long = weapon.ranges
    if distance_m <= POINT_BLANK_M:
        return RangeBand.POINT_BLANK
    if distance_m <= close:
        return RangeBand.CLOSE
    if distance_m <= medium:
        return RangeBand.MEDIUM
    if distance_m <= long:
        return RangeBand.LONG
    return RangeBand.OUT_OF_RANGE


# --- Modifiers ----------------------------------------------------------------------------------

BASE_DIFFICULTY = 10
AIM_DICE = 1
CALLED_SHOT_DICE = -2
BLINDED_DICE = -2
SHOT_IN_MELEE_DICE = -2  # RULES.md "Shooting in melee": -2D with a standing foe in reach
COVER_DIFFICULTY = MappingProxyType({Cover.NONE: 0, Cover.LIGHT: 5, Cover.MEDIUM: 10,
                                     Cover.HEAVY: 15})
"""Added to the difficulty or to a dodge/block roll, never to a parry."""
VISIBILITY_DIFFICULTY = MappingProxyType({Visibility.CLEAR: 0, Visibility.POOR: 5,
                                          Visibility.VERY_POOR: 15})
PINNED_DIFFICULTY = -5
IMPROVISED_DIFFICULTY = 5
ENCUMBRANCE_DIFFICULTY = 4
"""Option: per metal armor or tower shield worn, added to the wearer's Agility rolls."""
MULTIPLE_ACTION_DICE = -1
"""Per action beyond the first, on every action that round (not damage or resistance)."""
SIZE_STEP_DICE = 1
"""Damage dice per size step up (or down)."""
BASE_MOVE_M = 10
"""Free movement per round; each extra move of this length is an action."""


def turn_actions(intents: list[Intent]) -> int:
    """Actions a turn counts for its penalty: the first move is free (a run is two moves)."""
    actions = moves = 0
    for intent in intents:  # one pass: asked by the turn and by the AI
        if type(intent) is Move or type(intent) is Retreat:
            moves += 2 if intent.run else 1
        else:
            actions += 1
    return actions + moves - 1 if moves > 1 else actions


def multiple_action_penalty(actions: int) -> int:
    """Dice penalty for declaring ``actions`` actions in a round (1 action: 0)."""
    return MULTIPLE_ACTION_DICE * (actions - 1) if actions > 1 else 0


def extra_move_difficulty(n: int) -> int:
    """Agility difficulty of the ``n``-th extra move of a round: base move x n (10, 20...)."""
    return BASE_MOVE_M * n


def target_number(
    defense: int | None = None,
    *,
    parry: bool = False,
    cover: Cover = Cover.NONE,
    visibility: Visibility = Visibility.CLEAR,
    pinned: bool = False,
    extra: int = 0,
) -> int:
    """What an attack roll must reach: the base 10, or the defender's defense roll.

    Cover adds to the difficulty or to a dodge or block roll, never to a parry. Ruling: poor
    visibility and being pinned change every target number, a parry's included (the seed
    excludes parries from cover only).

    Args:
        defense: The defender's dodge, parry or block total; None for the base difficulty.
        parry: The defense is a parry.
        cover: the defender's cover.
        visibility: the visibility at the defender.
        pinned: The defender is pinned.
        extra: Any other difficulty modifier, e.g. :data:`IMPROVISED_DIFFICULTY`.

    Returns:
        The target number.
    """
    target = BASE_DIFFICULTY if defense is None else defense
    if not parry:
        target += COVER_DIFFICULTY[cover]
    target += VISIBILITY_DIFFICULTY[visibility] + extra
    return target + PINNED_DIFFICULTY if pinned else target


def attack_hits(attack: int, target: int) -> bool:
    """Whether an attack total hits: it meets or beats the target number.

    The target number is the difficulty (10, with its modifiers) or the defender's dodge,
    parry or block roll, which *replaces* the difficulty (RULES.md ``opend6``): a roll
    succeeds when it meets its difficulty, so a tie with a defense roll goes to the attacker.
    """
    return attack >= target

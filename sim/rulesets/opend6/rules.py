"""Pure OpenD6 rules: dice codes, the wild die, points, wounds, hit points, ranges, modifiers.

Nothing here knows about the engine. Every function that rolls takes an explicit
``random.Random``; everything else is a plain function of its arguments. The weapon and armor
types and tables live in :mod:`sim.rulesets.opend6.catalog`.

Source: seed 004 as ruled by RULES.md section ``opend6``. Where both are silent, the ruling
made here is marked "Ruling:" next to the code that applies it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum
from random import Random
from types import MappingProxyType
from typing import TYPE_CHECKING

from sim.rulesets.dice import roll, roll_pool
from sim.scenario.vocabulary import Cover, Visibility

if TYPE_CHECKING:
    from sim.rulesets.opend6.catalog import Weapon

# --- Dice codes ---------------------------------------------------------------------------------

MAX_PIPS = 2
"""Largest pip bonus a written code may carry: three pips make a die (``2D+3`` is ``3D``)."""

_ALLOWED = "expected a dice code ND or ND+P with N >= 0 dice and P = 0, 1 or 2 pips (e.g. 3D, 2D+1)"
_CODE_RE = re.compile(r"([0-9]+)[dD](?:\s*\+\s*([0-9]+))?", re.ASCII)


class DiceCodeError(ValueError):
    """A dice code that cannot be parsed; the message says what was wrong and what is allowed."""


@dataclass(frozen=True, slots=True)
class DiceCode:
    """A number of six-sided dice plus a flat bonus in pips, e.g. ``3D+1``.

    Codes are immutable; addition and :meth:`with_dice` return new codes. A sum of codes keeps
    all its pips (``2D+2`` + ``1D+1`` is ``3D+3``): the seed adds every +1 and +2 to the total
    of the roll rather than turning three pips into a die. Only :func:`parse_code` limits pips
    to 0..2, because a written code always carries its pips that way.

    Attributes:
        dice: Number of dice, never negative.
        pips: Flat bonus added to the roll, never negative.
    """

    dice: int
    pips: int = 0

    def __post_init__(self) -> None:
        if self.dice < 0 or self.pips < 0:
            raise DiceCodeError(
                f"DiceCode({self.dice}, {self.pips}): dice and pips cannot be negative"
            )

    def __str__(self) -> str:
        return f"{self.dice}D+{self.pips}" if self.pips else f"{self.dice}D"

    def __add__(self, other: DiceCode) -> DiceCode:
        if not isinstance(other, DiceCode):
            return NotImplemented
        return DiceCode(self.dice + other.dice, self.pips + other.pips)

    def with_dice(self, delta: int) -> DiceCode:
        """This code with ``delta`` dice more (a bonus) or fewer (a penalty), never below 0D.

        Ruling: a penalty takes dice only; the pips stay (``1D+2`` at -2D is ``0D+2``).
        """
        return DiceCode(max(0, self.dice + delta), self.pips)

    @property
    def average(self) -> int:
        """The nominal average of the code, 3.5 per die plus pips, rounded down (2D is 7)."""
        return self.dice * 7 // 2 + self.pips

    def roll(self, rng: Random, *, complication: bool = False) -> RollResult:
        """Roll this code with :func:`roll_code`."""
        return roll_code(rng, self.dice, self.pips, complication=complication)


def parse_code(text: str) -> DiceCode:
    """Parse a written dice code: ``ND`` or ``ND+P``.

    Accepted: ``D`` or ``d``, N >= 0 dice, P in 0..2, spaces around the text and around ``+``.
    Ruling: only dice codes are accepted; a bare number (``2``) is an error, write ``0D+2``
    for pips alone. No penalty pips (``2D-1``). The text is matched by a regular expression,
    never evaluated.

    Args:
        text: The code as written in a scenario, e.g. ``"3D+1"``.

    Returns:
        The parsed code.

    Raises:
        DiceCodeError: The text is not a valid code; the message names the problem.
    """
    if not isinstance(text, str):
        raise DiceCodeError(f"{text!r}: a dice code must be text; {_ALLOWED}")
    stripped = text.strip()
    match = _CODE_RE.fullmatch(stripped)
    if match is None:
        raise DiceCodeError(f"{text!r}: {_diagnose(stripped)}; {_ALLOWED}")
    dice = int(match[1])
    pips = int(match[2] or 0)
    if pips > MAX_PIPS:
        carried = DiceCode(dice + pips // 3, pips % 3)
        raise DiceCodeError(
            f"{text!r}: {pips} pips is too many, three pips make a die (write {carried}); "
            f"{_ALLOWED}"
        )
    return DiceCode(dice, pips)


def _diagnose(text: str) -> str:
    """Say what is wrong with a code that did not match."""
    if not text:
        return "the code is empty"
    if text.startswith("-"):
        return "the number of dice cannot be negative"
    if text[0] in "dD":
        return "the number of dice is missing before 'D'"
    if text.endswith("+"):
        return "the pips are missing after '+'"
    if text.isascii() and text.isdigit():
        return f"a bare number is not a dice code (write {text}D for dice or 0D+{text} for pips)"
    if re.fullmatch(r"[0-9]+[dD]\s*-\s*[0-9]+", text):
        return "negative pips are not allowed"
    return "this is not a dice code"


# --- Rolling ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollResult:
    """One OpenD6 roll, kept whole for the log.

    Attributes:
        normal: The normal dice (all but the wild die), in the order rolled.
        wild: The wild die's throws: the first throw, then each reroll while it showed 6.
            Empty for a 0D roll.
        pips: The flat bonus added.
        total: The result, never below 0.
        removed: Faces taken out of the total by a fumble: the wild die's 1, then the highest
            normal die if there is one. Empty when nothing was removed (no fumble, or the
            ``complication`` option).
    """

    normal: tuple[int, ...]
    wild: tuple[int, ...]
    pips: int
    total: int
    removed: tuple[int, ...] = ()

    @property
    def fumble(self) -> bool:
        """The wild die's first throw was a 1 (flagged also under ``complication``)."""
        return bool(self.wild) and self.wild[0] == 1

    @property
    def exploded(self) -> bool:
        """The wild die's first throw was a 6 (a critical success)."""
        return bool(self.wild) and self.wild[0] == 6

    def __str__(self) -> str:
        text = f"{list(self.normal)} wild {list(self.wild)}"
        if self.pips:
            text += f" +{self.pips}"
        text += f" = {self.total}"
        if self.fumble:
            text += f" (fumble, removed {list(self.removed)})" if self.removed else " (fumble)"
        elif self.exploded:
            text += " (exploded)"
        return text


def roll_code(rng: Random, dice: int, pips: int, *, complication: bool = False) -> RollResult:
    """Roll ``dice``D+``pips`` under the wild-die rules.

    One die is the wild die (a 1D roll is the wild die alone; a 0D roll is the pips alone).
    A wild 6 explodes: add it, reroll, add, and go on while it shows 6; a later 1 just adds 1.
    A wild 1 on its first throw is a fumble: the wild die and the highest normal die are
    removed from the total; with ``complication`` the dice count normally and only
    :attr:`RollResult.fumble` says so.

    Draw order (fixed, so a seeded generator replays a roll): the ``dice - 1`` normal dice
    first, then the wild die's throws.

    Args:
        rng: The generator to draw from.
        dice: Number of dice; 0 or fewer rolls nothing.
        pips: Flat bonus; a negative value is allowed, the total is still at least 0.
        complication: Count a fumble's dice normally (RULES.md option ``complication``).

    Returns:
        The whole roll.
    """
    if dice <= 0:
        return RollResult((), (), pips, pips if pips > 0 else 0)
    normal = tuple(roll_pool(rng, dice - 1, 6))
    first = roll(rng, 6)
    if first == 6:
        throws = [6]
        face = 6
        while face == 6:
            face = roll(rng, 6)
            throws.append(face)
        total = sum(normal) + sum(throws) + pips
        return RollResult(normal, tuple(throws), pips, total if total > 0 else 0)
    if first == 1 and not complication:
        if normal:
            highest = max(normal)
            total = sum(normal) - highest + pips
            return RollResult(normal, (1,), pips, total if total > 0 else 0, (1, highest))
        return RollResult(normal, (1,), pips, pips if pips > 0 else 0, (1,))
    total = sum(normal) + first + pips
    return RollResult(normal, (first,), pips, total if total > 0 else 0)


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


_PENALTIES = (0, -1, -1, -2, -3, 0)

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
    return WoundStatus(min(max(wounds, 0), WoundStatus.MORTALLY_WOUNDED))


def wound_penalty(wounds: int) -> int:
    """Dice penalty (0, -1, -1, -2, -3; 0 once dead) for a number of wounds.

    At 1 wound (stunned) the -1D applies only for the rest of the round the wound was dealt.
    """
    return _PENALTIES[min(max(wounds, 0), WOUND_LIMIT)]


HP_BASE = 20


def starting_hp(rng: Random, endurance: DiceCode, base: int = HP_BASE) -> int:
    """Hit points at the start (variant ``opend6-hp``): ``base`` (20) + an Endurance roll.

    If the roll is below the code's average, the average is taken instead. Ruling: the
    average is 3.5 per die plus the pips, rounded down (:attr:`DiceCode.average`; 2D is 7,
    3D+1 is 11); the roll is a normal roll with the wild die (no ``complication``).
    """
    rolled = roll_code(rng, endurance.dice, endurance.pips).total
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
        return self.value


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


def attack_hits(attack: int, target: int, *, opposed: bool) -> bool:
    """Whether an attack total hits.

    Ruling: against a difficulty the attack hits when it meets it; against a defense roll
    (``opposed``) ties go to the defender, so the attack must beat it.
    """
    return attack > target if opposed else attack >= target

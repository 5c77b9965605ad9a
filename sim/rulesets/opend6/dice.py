"""OpenD6 dice: dice codes (``3D+1``) and rolling them with the wild die.

The wild die explodes on a 6; a 1 on its first throw of an action roll is a fumble that
removes it and the highest other die (or, with the ``complication`` option, counts normally).
Damage, resistance and initiative rolls are not actions: their wild 1 counts as 1
(``counts_one``). Every roll takes an explicit ``random.Random``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import floor
from random import Random
from typing import NamedTuple, Protocol

# --- Dice codes ---------------------------------------------------------------------------------

MAX_PIPS = 2
MAX_CODE_DICE = 40  # dice in one code: far above any character or weapon
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
    if len(match[1]) > 3 or int(match[1]) > MAX_CODE_DICE:  # no table comes near
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise DiceCodeError(f"{shown!r}: at most {MAX_CODE_DICE}D; {_ALLOWED}")
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


def counts_one(action: bool, complication: bool) -> bool:
    """Whether a wild 1 on its first throw counts as 1 (no dice removed) on this roll.

    RULES.md "Wild die" (amended; seed 004: "If the wild die is a 1, that means the action
    fumble"): only an **action** roll (attack, dodge, parry, block, any skill) fumbles.
    Damage, resistance (Endurance) and initiative rolls are not actions, and with the
    ``complication`` option no roll removes dice. Stripping damage and resistance rolls too
    made a crossbow bolt (4D) kill an unarmoured END 2D man outright 17.9% of the time; the
    seed's dice give 6.6% (``tests/rulesets/opend6/test_amended.py``).
    """
    return complication or not action



class RollResult(NamedTuple):
    """One OpenD6 roll, kept whole for the log.

    A named tuple, not a dataclass: the encounter loop makes one per roll, and a tuple is
    built several times faster than a frozen dataclass.

    Attributes:
        normal: The normal dice (all but the wild die), in the order rolled.
        wild: The wild die's throws: the first throw, then each reroll while it showed 6.
            Empty for a 0D roll.
        pips: The flat bonus added.
        total: The result, never below 0.
        removed: Faces taken out of the total by a fumble: the wild die's 1, then the highest
            normal die if there is one. Empty when nothing was removed (no fumble, or the
            ``complication`` option).
        action: An action roll, the only kind that fumbles (``counts_one``); a damage,
            resistance or initiative roll's first 1 is no fumble, not even flagged.
    """

    normal: tuple[int, ...]
    wild: tuple[int, ...]
    pips: int
    total: int
    removed: tuple[int, ...] = ()
    action: bool = True

    @property
    def fumble(self) -> bool:
        """An action roll's wild die showed 1 first (flagged also under ``complication``)."""
        return self.action and bool(self.wild) and self.wild[0] == 1

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


class Draws(Protocol):
    """What a roll draws from: a ``random.Random``, or a tape that keeps the faces."""

    def random(self) -> float:
        """A float in [0, 1)."""
        ...


def roll_total(rng: Draws, dice: int, pips: int, complication: bool = False) -> int:
    """The total of ``dice``D+``pips`` under the wild-die rules: the one home of the rule.

    One die is the wild die (a 1D roll is the wild die alone; a 0D roll is the pips alone).
    A wild 6 explodes: add it, reroll, add, and go on while it shows 6; a later 1 just adds 1.
    A wild 1 on its first throw is a fumble: the wild die and the highest normal die are
    removed from the total; with ``complication`` the dice count normally.

    Draw order (fixed, so a seeded generator replays a roll): the ``dice - 1`` normal dice
    first, then the wild die's throws. Each die is drawn as ``sim.rulesets.dice.roll`` draws
    it, inlined, and no face is kept: this is the encounter loop's most frequent call
    (:func:`roll_code` keeps the faces, for the log).

    Args:
        rng: The generator to draw from.
        dice: Number of dice; 0 or fewer rolls nothing.
        pips: Flat bonus; a negative value is allowed, the total is still at least 0.
        complication: Count a fumble's dice normally (RULES.md option ``complication``).

    Returns:
        The total, never below 0.
    """
    if dice <= 0:
        return pips if pips > 0 else 0
    rand = rng.random
    total = pips
    highest = 0
    for _ in range(dice - 1):
        face = floor(rand() * 6) + 1
        total += face
        if face > highest:
            highest = face
    first = floor(rand() * 6) + 1
    if first == 6:
        total += 6
        face = 6
        while face == 6:
            face = floor(rand() * 6) + 1
            total += face
    elif first == 1 and not complication:
        total -= highest  # the wild 1 and the highest normal die (none: 0) count nothing
    else:
        total += first
    return total if total > 0 else 0


class _Tape:
    """A generator that remembers each die drawn through it (faces as ``roll`` makes them)."""

    __slots__ = ("rng", "faces")

    def __init__(self, rng: Random):
        self.rng = rng
        self.faces: list[int] = []

    def random(self) -> float:
        x = self.rng.random()
        self.faces.append(int(x * 6) + 1)
        return x


def roll_code(rng: Random, dice: int, pips: int, *, complication: bool = False,
              action: bool = True) -> RollResult:
    """Roll ``dice``D+``pips`` as :func:`roll_total` does, keeping every face for the log.

    ``action``: False for a damage, resistance or initiative roll, whose wild 1 counts as 1
    (``counts_one``).

    The same draws in the same order: the total is :func:`roll_total`'s, read through a
    tape of the faces drawn; the tape says which were the normal dice, which the wild
    die's throws, and what a fumble removed (:attr:`RollResult.removed`).
    """
    tape = _Tape(rng)
    complication = counts_one(action, complication)
    total = roll_total(tape, dice, pips, complication)
    faces = tape.faces
    normal, wild = tuple(faces[:dice - 1]), tuple(faces[dice - 1:]) if dice > 0 else ()
    removed: tuple[int, ...] = ()
    if wild and wild[0] == 1 and not complication:
        removed = (1, max(normal)) if normal else (1,)
    return RollResult(normal, wild, pips, total, removed, action)

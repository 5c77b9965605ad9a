"""Pure dice functions shared by the rulesets.

Every function takes an explicit ``random.Random``; nothing here touches the global
random state, so one seeded generator per encounter reproduces a whole fight.

Dice are drawn as ``int(rng.random() * sides) + 1``: one C call per die, several times
faster than ``rng.randint`` (which goes through ``randrange``'s Python layers). The
encounter loop rolls millions of dice, so this matters.
"""

from __future__ import annotations

import random
from typing import NamedTuple


def roll(rng: random.Random, sides: int) -> int:
    """Roll one die with ``sides`` faces (1..sides)."""
    return int(rng.random() * sides) + 1


def roll_pool(rng: random.Random, count: int, sides: int = 10) -> list[int]:
    """Roll ``count`` dice of ``sides`` faces; an empty list when ``count`` <= 0."""
    rand = rng.random
    return [int(rand() * sides) + 1 for _ in range(count)]


class Set(NamedTuple):
    """A set of matching dice in a One Roll Engine roll: ``width`` dice showing ``height``.

    A tuple, so that sets compare and sort by speed as they are: wider first, then higher.
    """

    width: int
    height: int

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def speed(self) -> tuple[int, int]:
        """Sort key: wider first, then higher (ORE's order of resolution)."""
        return (self.width, self.height)


def find_sets(dice: list[int] | tuple[int, ...]) -> list[Set]:
    """All sets (width >= 2) in a roll, widest first, ties by height.

    >>> find_sets([3, 7, 3, 7, 7, 1])
    [Set(width=3, height=7), Set(width=2, height=3)]
    """
    counts: dict[int, int] = {}
    for face in dice:
        counts[face] = counts.get(face, 0) + 1
    sets = [Set(w, h) for h, w in counts.items() if w > 1]
    if len(sets) > 1:
        sets.sort(reverse=True)
    return sets


def loose_dice(dice: list[int] | tuple[int, ...]) -> list[int]:
    """The dice that belong to no set (faces rolled exactly once), highest first."""
    counts: dict[int, int] = {}
    for face in dice:
        counts[face] = counts.get(face, 0) + 1
    return sorted((h for h, w in counts.items() if w == 1), reverse=True)

"""Rolling dice: the pure functions every ruleset rolls with.

Every function takes an explicit ``random.Random``; nothing here touches the global
random state, so one seeded generator per encounter reproduces a whole fight.

Dice are drawn as ``floor(rng.random() * sides) + 1``: one C call per die, several times
faster than ``rng.randint`` (which goes through ``randrange``'s Python layers), and faster
than ``int(...)`` (a function call rather than a type's constructor); the same face for every
draw, since the product is never negative. The encounter loop rolls millions of dice, so
this matters.
"""

from __future__ import annotations

import random
from itertools import repeat
from math import floor


def roll(rng: random.Random, sides: int) -> int:
    """Roll one die with ``sides`` faces (1..sides)."""
    return floor(rng.random() * sides) + 1


def roll_pool(rng: random.Random, count: int, sides: int = 10) -> list[int]:
    """Roll ``count`` dice of ``sides`` faces; an empty list when ``count`` <= 0."""
    rand = rng.random
    return [floor(rand() * sides) + 1 for _ in repeat(None, count)]

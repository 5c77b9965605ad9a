"""Which ORE harm lasts (RULES.md ``ore``, "Damage"; ``Ruleset.harm_lasts``).

Killing lasts, wherever it lands (Shock that overflows a full location becomes Killing and
is reported as such). Shock lasts only where it can take a fighter out: a head full of it
knocks out, a torso full of it beats a fighter (or, with ``lethal_unarmed``, turns to
Killing). Shock on an arm or a leg neither knocks out nor cripples: it wears off.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from sim.core.harm import Harm
from sim.rulesets.ore.catalog import HEAD, LOCATION_BY_HEIGHT, LOCATION_NAMES, TORSO

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sim.rulesets.ore.catalog import Weapon

# where Shock can take a fighter out: a full head knocks out, a full torso beats
KNOCKOUT_PLACES = frozenset({LOCATION_NAMES[HEAD], LOCATION_NAMES[TORSO]})


def lasts(harm: Harm) -> bool:
    """Killing anywhere, or Shock on the head or the torso."""
    return harm.lasting > 0 or (harm.passing > 0 and harm.where in KNOCKOUT_PLACES)


def can_harm(weapon: Weapon, armor: Sequence[int], dice: int) -> bool:
    """Some set of 2 to ``dice`` dice, at some height, marks harm that lasts through ``armor``."""
    return _can_harm(weapon, tuple(armor), min(10, dice))


@lru_cache(maxsize=1024)
def _can_harm(weapon: Weapon, armor: tuple[int, ...], dice: int) -> bool:
    for width in range(dice, 1, -1):  # the widest first: the likeliest to harm
        killing, shock = weapon.damage.roll(width)
        for height in range(1, 11):
            loc = LOCATION_BY_HEIGHT[height]
            ar = max(0, armor[loc] - weapon.ap)
            if lasts(Harm(max(0, killing - ar), max(0, shock - ar), LOCATION_NAMES[loc])):
                return True
    return False

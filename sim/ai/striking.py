"""Whether a fighter can strike a foe now, and how it closes: the questions every profile asks.

Reach (its own, or melee reach for a shooter whose doctrine ``prefers: melee``), a hopeless
attack (``Advisor.can_hit``), a run (RULES.md "Running") and a charge that a longer reach or
no room would stop short (``moving.walk_ends``). ``sim.ai.profiles`` and the play menu ask
them; they hold no dice logic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core import moving
from sim.core.battlefield import MELEE_REACH

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


def stop_at(c: Combatant) -> float:
    """How close ``c`` comes before attacking: its reach, or melee reach.

    Melee reach for a shooter whose doctrine ``prefers: melee`` (it fights up close, at
    point blank).
    """
    return MELEE_REACH if c.ranged and c.doctrine.prefers == "melee" else c.reach


def can_strike(enc: Encounter, c: Combatant, target: Combatant) -> bool:
    """``c`` can attack ``target`` from where it stands, and the attack could succeed.

    Within reach (melee reach for a shooter that prefers melee) and not hopeless
    (``Advisor.can_hit``: ORE and B-Grade need two dice, OpenD6 one die).
    """
    return within_strike(enc, c, target) and enc.advisor.can_hit(enc, c, target)


def within_strike(enc: Encounter, c: Combatant, target: Combatant) -> bool:
    """``Advisor.can_attack``, and within melee reach for a shooter that prefers melee."""
    if not enc.advisor.can_attack(enc, c, target):
        return False
    if c.ranged and c.doctrine.prefers == "melee":
        return enc.field.distance(c.pos, target.pos) <= MELEE_REACH
    return True


def runs(enc: Encounter, c: Combatant, target: Combatant) -> bool:
    """``c`` runs at ``target`` (RULES.md "Running"): a walk would not bring it into reach.

    No attack could be made this round anyway. A shooter walking into range walks.
    """
    if c.ranged and c.doctrine.prefers != "melee":
        return False
    gap = enc.field.distance(c.pos, target.pos) - stop_at(c)
    return gap > c.speed and enc.ruleset.run_metres(c) > c.speed


def reaches(enc: Encounter, c: Combatant, target: Combatant) -> bool:
    """A walk at ``target`` this round would end within ``c``'s reach of it (a charge).

    Not when a longer reach (a spear's) or no room at a narrow place stops it short
    (``moving.walk_ends``): then it walks up, and strikes next round.
    """
    end = moving.walk_ends(enc, c, target, stop_at(c), c.speed)
    return enc.field.distance(end, target.pos) <= c.reach

"""AI profiles: each turns what a combatant can see into a list of intents for the round.

- ``passive``: does nothing (a target dummy; it still rolls what a ruleset makes every
  defender roll).
- ``basic``: one plain attack per round on the nearest enemy, moving toward it when out of
  reach; never spends points, splits its pool, defends or makes called shots.
- ``aggressive``: closes in, moving and attacking in one round when the ruleset allows it,
  takes extra attacks when the pool allows, and calls shots where the ruleset says it pays.

Rulesets answer the questions that depend on their dice (``Ruleset.can_attack``,
``aggressive_extras``, ``called_shot``); the profiles hold no dice logic. Each decision
stores a short reason in ``Combatant.why`` for the solo log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.actions import Attack, Intent, Move, Reload

if TYPE_CHECKING:
    from sim.combatant import Combatant
    from sim.engine import Encounter


def nearest_enemy(enc: Encounter, c: Combatant) -> Combatant | None:
    """The closest enemy still in the fight (ties: the first in scenario order)."""
    best, best_d = None, float("inf")
    distance = enc.field.distance
    for other in enc.combatants:
        if other.in_fight and other.side != c.side:
            d = distance(c.pos, other.pos)
            if d < best_d:
                best, best_d = other, d
    return best


def passive(enc: Encounter, c: Combatant) -> list[Intent]:
    """Never acts."""
    c.why = "passive"
    return []


def basic(enc: Encounter, c: Combatant) -> list[Intent]:
    """One plain attack on the nearest enemy, or a move toward it."""
    target = nearest_enemy(enc, c)
    if target is None:
        return []
    ruleset = enc.ruleset
    if ruleset.needs_reload(c):
        c.why = "weapon unloaded"
        return [Reload()]
    if ruleset.can_attack(enc, c, target):
        c.why = f"nearest foe {target.name} in reach"
        return [Attack(target)]
    c.why = f"closing on {target.name}"
    return [Move(target, stop_at=c.reach)]


def aggressive(enc: Encounter, c: Combatant) -> list[Intent]:
    """Close in and hit as often and as hard as the ruleset allows."""
    target = nearest_enemy(enc, c)
    if target is None:
        return []
    ruleset = enc.ruleset
    if ruleset.needs_reload(c):
        c.why = "weapon unloaded"
        return [Reload()]
    called = ruleset.called_shot(enc, c, target)
    if ruleset.can_attack(enc, c, target):
        intents: list[Intent] = [Attack(target, called)]
        extra = ruleset.extra_attacks(enc, c, target)
        intents += [Attack(target)] * extra
        c.why = f"{target.name} in reach" + (f", {extra + 1} attacks" if extra else "") + (
            f", called shot at the {called}" if called else "")
        return intents
    gap = enc.field.distance(c.pos, target.pos) - c.reach
    if gap <= c.speed and ruleset.can_move_and_attack(enc, c):
        c.why = f"charges {target.name}"
        return [Move(target, stop_at=c.reach), Attack(target)]
    c.why = f"closing on {target.name}"
    return [Move(target, stop_at=c.reach)]


PROFILES = {"passive": passive, "basic": basic, "aggressive": aggressive}


def decide(enc: Encounter, c: Combatant) -> list[Intent]:
    """The intents of ``c`` for this round, by its AI profile."""
    return PROFILES[c.ai](enc, c)

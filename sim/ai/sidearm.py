"""When a shooter with a sidearm takes it up, and when it takes up its bow again.

RULES.md "Shooting in melee": a shot with a foe in reach is made at a penalty and gives
that foe a free attack, and a fighter with a sidearm may draw it as part of its move. So
every profile draws it once a foe threatens it (``space.pressed``) and a blow with it is
worth at least the shot (``Advisor.attack_worth``: the shot at its penalty, less the
harm of the free attacks it gives), and takes up its bow again once no foe threatens it and none
could close on it this round (``space.can_leave``).
The profile then chooses as it would with that weapon in hand (``decide_with``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core import arms, space
from sim.core.actions import Draw, Yield

if TYPE_CHECKING:
    from collections.abc import Callable

    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


def wants_other(enc: Encounter, c: Combatant) -> bool:
    """Whether ``c`` would take up the weapon it does not hold now."""
    if c.fleeing or not arms.may_change(c):  # (an empty thrower keeps its sidearm)
        return False
    if c.drawn:  # the knife in hand: the bow again once no foe can close
        return not space.pressed(enc, c) and space.can_leave(enc, c, enc.enemies(c))
    threats = space.threatened_in_melee(enc, c, c.pos)
    if not threats:
        return False
    # a foe at its throat: the knife when its blow is worth the shot, less the harm of the
    # free attack each foe in reach makes on every shot (a tie goes to the knife)
    advisor = enc.advisor
    struck = sum(advisor.attack_worth(enc, e, c) for e in threats if e.policy.reacts)
    aims = [e for e in enc.enemies(c) if space.in_reach(enc, c, e)]  # any foe in range
    shot = -struck if advisor.needs_reload(c) or not aims else max(
        advisor.attack_worth(enc, c, e) for e in aims) - struck
    enc.ruleset.switch_arms(c)
    try:  # (a spear's 3 m is beyond a knife's 2: only a foe it could strike counts)
        blows = [advisor.attack_worth(enc, c, e) for e in threats if space.in_reach(enc, c, e)]
    finally:
        enc.ruleset.switch_arms(c)
    return bool(blows) and max(blows) >= shot


def decide_with(enc: Encounter, c: Combatant,
                choose: Callable[[Encounter, Combatant], list[Intent]]) -> list[Intent]:
    """``choose``'s intents with the other weapon in hand, a ``Draw`` first (a yield: none).

    The weapons are changed back before this returns: the engine changes them for real
    as the ``Draw`` is declared (``Encounter.declare``), so asking never changes the fight.
    """
    rules = enc.ruleset
    rules.switch_arms(c)
    try:
        intents = choose(enc, c)
    finally:
        rules.switch_arms(c)
    if intents and type(intents[0]) is Yield:
        return intents
    return [Draw(), *intents]

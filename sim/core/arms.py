"""Weapons in hand: a shooter's sidearm taken up and put away, and thrown weapons spent.

RULES.md "Shooting in melee" and "Rate of fire". The rules of each ruleset say which of a
fighter's numbers come with the weapon in hand (``Ruleset.ARMS``) and swap them
(``Ruleset.switch_arms``); the engine calls ``draw`` at a declaration's ``Draw``,
``out_of_throws`` before each declaration and ``put_away`` at the fight's end. Each
ruleset calls ``thrown`` where a shot is loosed (where a crossbow's bolt is spent).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


def other_weapon(c: Combatant) -> str:
    """The neutral name of the weapon ``c`` does not hold now (``c.other_arms`` set)."""
    other = c.spec.weapon if c.drawn else c.spec.other_weapon
    assert other is not None
    return other


def draw(enc: Encounter, c: Combatant) -> None:
    """``c`` takes up its other weapon as part of its move (``actions.Draw``)."""
    if c.other_arms is None:
        return
    enc.ruleset.switch_arms(c)
    if enc.log is not None:
        weapon = c.spec.other_weapon if c.drawn else c.spec.weapon
        text = (f"{c.name} has no {c.spec.weapon} left: it fights bare-handed."
                if c.drawn and c.spec.sidearm is None
                else f"{c.name} takes up its {weapon} (part of its move).")
        enc.emit("draw", who=c.name, weapon=weapon, text=text)


def spent(c: Combatant) -> bool:
    """``c`` has thrown its last thrown weapon (javelin, throwing knife)."""
    return c.throws_left == 0


def none_to_throw(c: Combatant) -> bool:
    """``c`` holds its thrown weapon with none left: a throw it cannot make.

    The engine takes up the sidearm (or fists) before such a fighter declares
    (``out_of_throws``); a ruleset asks this of an attack it did not declare (an extra
    attack after a fumble) that comes in the same round as its last throw.
    """
    return c.throws_left == 0 and not c.drawn


def thrown(c: Combatant) -> None:
    """``c``'s shot is loosed: with a thrown weapon in hand, one fewer, hit or miss.

    RULES.md "Rate of fire": a thrown weapon is spent like a crossbow's bolt, and nothing
    thrown is picked up, in the fight or after it.
    """
    left = c.throws_left
    if left and not c.drawn:
        c.throws_left = left - 1


def out_of_throws(enc: Encounter, c: Combatant) -> None:
    """Before ``c`` declares: with no thrown weapon left, it takes up its sidearm or fists.

    RULES.md "Rate of fire": out of weapons a thrower fights with its sidearm, else
    bare-handed (``MemberSpec.other_weapon``); the draw is part of its move, as a
    sidearm's always is, and it never takes up its empty main weapon again
    (``may_change``).
    """
    if c.throws_left == 0 and not c.drawn:
        draw(enc, c)


def may_change(c: Combatant) -> bool:
    """``c`` may choose to take up the weapon it does not hold now.

    Not a thrower with nothing left to throw (it keeps its sidearm or fists), nor one with
    no sidearm whose bare hands wait for its last throw (``out_of_throws``).
    """
    if c.other_arms is None or spent(c):
        return False
    return c.drawn or c.spec.sidearm is not None


def carry(old: Combatant, new: Combatant) -> None:
    """A campaign's next fight: ``new`` carries what ``old`` had left to throw.

    Ruling: what was thrown is not picked up (RULES.md "Rate of fire"), so the count lasts
    from one stage to the next, and no rest brings it back; a member whose weapon changed
    starts with the new one's count.
    """
    if old.throws_left is not None and old.spec.weapon == new.spec.weapon:
        new.throws_left = old.throws_left


def put_away(enc: Encounter) -> None:
    """At the fight's end every sidearm is put away: what lasts is the main weapon's."""
    for c in enc.combatants:
        if c.drawn:
            enc.ruleset.main_weapon_back(c)

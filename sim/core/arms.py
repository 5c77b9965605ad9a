"""Weapons in hand: a shooter's sidearm taken up and put away (RULES.md "Shooting in melee").

The rules of each ruleset say which of a fighter's numbers come with the weapon in hand
(``Ruleset.ARMS``) and swap them (``Ruleset.switch_arms``); the engine calls these two at a
declaration's ``Draw`` and at the fight's end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


def draw(enc: Encounter, c: Combatant) -> None:
    """``c`` takes up its other weapon as part of its move (``actions.Draw``)."""
    if c.other_arms is None:
        return
    enc.ruleset.switch_arms(c)
    if enc.log is not None:
        weapon = c.spec.sidearm if c.drawn else c.spec.weapon
        enc.emit("draw", who=c.name, weapon=weapon,
                 text=f"{c.name} takes up its {weapon} (part of its move).")


def put_away(enc: Encounter) -> None:
    """At the fight's end every sidearm is put away: what lasts is the main weapon's."""
    for c in enc.combatants:
        if c.drawn:
            enc.ruleset.main_weapon_back(c)

"""Holding a place: a doctrine's ``hold`` (``ai: {profile: tactical, hold: bridge}``).

A fighter that holds a place fights from it, goes back to it, and does not chase off it: of
what its profile declared, attacks it can make from where it stands, defenses, reloads and
a flight stand; a move toward a foe or to another place becomes a walk back to the place
(or, there already, waiting for the foe to come: ``Advisor.wait_intents``). Room at a
narrow place still holds: a second holder of a one-man footbridge waits behind it
(``sim.core.moving``) and steps up when the first falls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.actions import Move, Retreat

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


def keep(enc: Encounter, c: Combatant, intents: list[Intent]) -> list[Intent]:
    """``intents`` as a holder of ``c.doctrine.hold`` may carry them out."""
    hold = c.doctrine.hold
    assert hold is not None, "keep is asked for a fighter that holds a place"
    home = enc.field.node(hold)
    moving = [i for i in intents
              if type(i) is Move or (type(i) is Retreat and not i.leave and i.dest != home)]
    if not moving:
        if c.pos != home and not intents:  # nothing to do: back to its place
            c.why = f"back to hold {hold}"
            return [Retreat(home)]
        return intents
    if c.pos != home:
        c.why = f"back to hold {hold}" + (f" ({c.why})" if c.why else "")
        return [Retreat(home)]
    kept = [i for i in intents if i not in moving]
    if kept:
        c.why = f"{c.why}; holds {hold}"
        return kept
    waiting, why = enc.advisor.wait_intents(enc, c, enc.enemies(c))
    c.why = f"holds {hold}: {why}"
    return waiting

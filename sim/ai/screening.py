"""Screening a shooter (tactical): a melee fighter between its side's shooters and the foes.

``tactics.post`` says whom to screen, and when holding pays; ``hold_by`` says what the
screen does this round: go for a foe at the shooter's side, go with the shooter to its
cover, stand at its side, or wait.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core import draws, targets
from sim.core.actions import Move, Retreat
from sim.core.battlefield import MELEE_REACH

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


def hold_by(enc: Encounter, c: Combatant, foes: list[Combatant],
            ward: Combatant) -> list[Intent]:
    """A melee fighter screening ``ward``: go to it, meet foes that reach it, else wait.

    Of several foes at the shooter's side, the nearest (ties drawn, ``draws.best``). Where
    the shooter has declared a move to a place this round (its cover), it goes there too,
    at a run when a walk would not get it there: foes who run arrive in a round or two.
    """
    distance = enc.field.distance
    here = c.pos
    e = draws.best(enc, [e for e in foes if distance(ward.pos, e.pos) <= MELEE_REACH],
                     lambda e: -distance(here, e.pos))
    if e is not None:  # a foe at the shooter's side: go for it
        run = distance(c.pos, e.pos) - c.reach > c.speed
        c.why = f"protects {ward.name} from {e.name}" + (", at a run" if run else "")
        return [Move(e, stop_at=c.reach, run=run)]
    bound = targets.bound_for(enc, ward)
    if bound is not None and distance(c.pos, bound) > MELEE_REACH:  # it goes there with it
        run = distance(c.pos, bound) > c.speed
        c.why = (f"goes with {ward.name} to {enc.field.describe(bound)}"
                 + (", at a run" if run else ""))
        return [Retreat(bound, run=run)]
    if bound is None and distance(c.pos, ward.pos) > MELEE_REACH:
        run = distance(c.pos, ward.pos) > c.speed
        c.why = f"holds the line at {ward.name}'s side" + (", at a run" if run else "")
        return [Move(ward, stop_at=0.0, run=run)]
    intents, why = enc.advisor.wait_intents(enc, c, foes)
    c.why = f"holds by {ward.name}: {why}"
    return intents

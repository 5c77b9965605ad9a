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
    from sim.core.battlefield import Position
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
    place = bound if bound is not None else ward.pos
    spot = front(enc, c, place, foes)
    if spot is not None:  # the cover in front of the shooter: the line holds it
        where = enc.field.describe(spot)
        if distance(c.pos, spot) > 0.0:
            run = distance(c.pos, spot) > c.speed
            c.why = f"holds {where} in front of {ward.name}" + (", at a run" if run else "")
            return [Retreat(spot, run=run)]
        intents, why = enc.advisor.wait_intents(enc, c, foes)
        c.why = f"holds {where} in front of {ward.name}: {why}"
        return intents
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


def front(enc: Encounter, c: Combatant, place: Position,
          foes: list[Combatant]) -> Position | None:
    """The place in front of a shooter at ``place`` that its screen ``c`` holds, or None.

    A line of swords before the bows: on the way from ``place`` to the nearest foe who must
    walk up to strike (ties drawn), the place with better cover than ``place`` (the best,
    then the nearest), more than a sword's reach ahead, so that a foe the screen stops
    there cannot strike the shooter, and within one run of it (RULES.md "Running"), so
    that the screen is back at the shooter's side in a round if a foe goes round; and
    nearer the screen than any foe who walks, so that it gets there first (a thicket the
    wolves come out of is no cover to hold). None:
    no such place, and the screen stands at the shooter's side. The shooter, for its part,
    does not step forward to that cover while the foe's swordsmen could be on it there
    within two rounds (``moves.take_cover``).
    """
    field = enc.field
    distance = field.distance
    walkers = [e for e in foes if not e.ranged]
    foe = draws.best(enc, walkers, lambda e: -distance(place, e.pos))
    if foe is None:
        return None
    run = enc.ruleset.run_metres(c)
    cover = field.cover(place)
    gap = distance(place, foe.pos)
    here = c.pos
    ahead = [w for w in field.route(place, foe.pos, enc.rng, run)[1:]
             if w.at_node and MELEE_REACH < distance(place, w) <= run
             and distance(w, foe.pos) < gap and field.cover(w) > cover
             and all(distance(here, w) < distance(w, e.pos) for e in walkers)]
    return draws.best(enc, ahead, lambda w: (field.cover(w), -distance(place, w)))

"""Morale: combatants whose side's losses reach their threshold break, at a round's end.

A combatant with a threshold also breaks when its side, one of it down already, is losing
the exchange: hurt by the foe while doing no harm itself for ``HOPELESS_ROUNDS`` rounds in
which the combatant could have struck back (``standoff.losing``; RULES.md "A hopeless
exchange"), as bandits whose arrows glance off a knight's armor would. Rounds spent walking
up to the foe under its arrows never count, and only harm that lasts counts either way
(``Ruleset.harm_lasts``).

A breaking combatant surrenders when a foe is within melee reach (a person to a person:
RULES.md "Kinds", ``space.takes_surrender``), and flees otherwise: a
flight takes rounds (RULES.md "Flight takes time", ``moves.flee``), and the fighter is out
of the fight, counted apart from the dead, once it gets away. Every combatant is judged on the state
before anyone breaks (simultaneous, so the order of sides and members in the file decides
nothing). The threshold is the doctrine's ``morale`` (None: never breaks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.ai import standoff
from sim.core import space
from sim.core.combatant import Status

if TYPE_CHECKING:
    from sim.core.engine import Encounter

# Rounds a fighter's side with morale takes harm without doing any, while the fighter could
# strike back, before it breaks (ruling: the seeds have no morale rules).
HOPELESS_ROUNDS = 5


def check(enc: Encounter) -> None:
    """Take out, fled or surrendered, every combatant whose morale breaks now."""
    breaking = []
    for c in enc.combatants:
        threshold = c.doctrine.morale if c.in_fight else None
        if threshold is None:
            continue
        members = len(enc.sides[c.side])
        lost = members - enc.standing[c.side]
        if lost and lost / members >= threshold:
            why = f"morale breaks with {lost} of {members} of its side down"
        elif lost and standoff.losing(enc, c, HOPELESS_ROUNDS):
            why = (f"morale breaks: {standoff.unanswered(enc, c)} rounds hurt "
                   "without hurting back")
        else:
            continue
        captor = space.takes_surrender(c, space.engaged(enc, c, enc.enemies(c)))
        breaking.append((c, captor is not None, why))
    for c, yields, why in breaking:
        if yields:
            enc.take_out(c, Status.SURRENDERED, why)
        elif not c.fleeing:  # flight takes time: it runs for the way out from now on
            c.fleeing = True
            if enc.log is not None:
                enc.emit("flee", who=c.name, text=f"{c.name} flees: {why}.")

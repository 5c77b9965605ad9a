"""Morale: combatants whose side's losses reach their threshold break, at a round's end.

A combatant with a threshold also breaks when its side, one of it down already, is losing
the exchange: hurt by the foe while doing no harm itself for ``HOPELESS_ROUNDS`` rounds in
which the combatant could have struck back (``standoff.losing``; RULES.md "A hopeless
exchange"), as bandits whose arrows glance off a knight's armor would. Rounds spent walking
up to the foe under its arrows never count, and only harm that lasts counts either way
(``Ruleset.harm_lasts``).

A breaking combatant surrenders when a foe is within melee reach (a person to a person:
RULES.md "Kinds", ``space.takes_surrender``) that is not breaking itself at the same round's
end, and flees otherwise: a
flight takes rounds (RULES.md "Flight takes time", ``moves.flee``), and the fighter is out
of the fight, counted apart from the dead, once it gets away. Every combatant is judged on the state
before anyone breaks (simultaneous, so the order of sides and members in the file decides
nothing). The threshold is the doctrine's ``morale`` (None: never breaks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.ai import standoff
from sim.core import draws, space
from sim.core.combatant import Status

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

# Rounds a fighter's side with morale takes harm without doing any, while the fighter could
# strike back, before it breaks (ruling: the seeds have no morale rules).
HOPELESS_ROUNDS = 5


def check(enc: Encounter) -> None:
    """Take out, fled or surrendered, every combatant whose morale breaks now."""
    breaking: list[tuple[Combatant, str]] = []
    losses: dict[str, list[Combatant]] = {}  # by side: those its losses break
    for c in enc.combatants:
        threshold = c.doctrine.morale if c.in_fight else None
        if threshold is None:
            continue
        members = len(enc.sides[c.side])
        lost = members - enc.standing[c.side]
        if lost and lost / members >= threshold:
            losses.setdefault(c.side, []).append(c)
            why = f"morale breaks with {lost} of {members} of its side down"
        elif lost and standoff.losing(enc, c, HOPELESS_ROUNDS):
            why = (f"morale breaks: {standoff.unanswered(enc, c)} rounds hurt "
                   "without hurting back")
        else:
            continue
        breaking.append((c, why))
    if not breaking:
        return
    held = _holds(enc, list(losses))
    if held is not None:
        steady = set(map(id, losses[held]))
        breaking = [(c, why) for c, why in breaking if id(c) not in steady]
        if enc.log is not None:
            down = len(enc.sides[held]) - enc.standing[held]
            enc.emit("note", side=held, text=f"The {held} side holds, {down} of "
                     f"{len(enc.sides[held])} down: its foes break first.")
    broken = set(map(id, (c for c, _ in breaking)))
    for c, why in breaking:
        # Nobody surrenders to a foe breaking at the same moment: that one is giving up too.
        captors = [e for e in space.captors(enc, c, enc.foes_of(c.side))
                   if id(e) not in broken]
        if space.takes_surrender(c, captors) is not None:
            enc.take_out(c, Status.SURRENDERED, why)
        elif not c.fleeing:  # flight takes time: it runs for the way out from now on
            enc.flee(c, why)



def _holds(enc: Encounter, sides: list[str]) -> str | None:
    """Of the sides whose losses break them now, the one that holds instead, if any.

    Ruling (the seeds have no morale rules): morale is judged side by side, and a side that
    sees its foe break holds. Among the sides in rout (their losses break them now, or some
    of them are in flight already) the one with the smallest share down or in flight holds
    (ties drawn), so two bands worn down together do not both run, or surrender to each
    other; the side that broke first stays the one with more in flight.
    """
    fleeing = {c.side for c in enc.combatants if c.in_fight and c.fleeing}
    routed = sorted(set(sides) | fleeing)
    if len(routed) < 2:
        return None

    def kept(side: str) -> float:
        members = enc.sides[side]
        gone = sum(not c.in_fight or c.fleeing for c in members)
        return -gone / len(members)

    held = draws.best(enc, routed, kept)
    return held if held in sides else None

"""Holding a place: a doctrine's ``hold``, or a narrow place chosen to hold (``chosen``).

A doctrine says it so: ``ai: {profile: tactical, hold: bridge}``.

A fighter that holds a place fights from it, goes back to it, and does not chase off it: of
what its profile declared, attacks it can make from where it stands, defenses, reloads and
a flight stand; a move toward a foe or to another place becomes a walk back to the place
(or, there already, waiting for the foe to come: ``Advisor.wait_intents``). Room at a
narrow place still holds: a second holder of a one-man footbridge waits behind it
(``sim.core.moving``) and steps up when the first falls.

A tactical or cautious melee fighter with no ``hold`` of its own holds a narrow place
when the melee foes outnumber its side and the place stands between them: narrower than
their number, on the shortest way from every one of them to it, and its side there first
(``chosen``, once, at its first declaration; let go once only shooters are left). Fighting
one or two at a time is how the few hold off the many.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.actions import Attack, Move, Retreat
from sim.core.battlefield import EDGE_EPSILON

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


# Profiles that choose on their own to hold a narrow place between them and more foes.
CHOOSE_TO_HOLD = frozenset({"tactical", "cautious"})


def place_of(enc: Encounter, c: Combatant) -> str | None:
    """The place ``c`` holds: its doctrine's ``hold``, or one it chose (None: none)."""
    if c.doctrine.hold is not None:
        return c.doctrine.hold
    # a shooter (its sidearm in hand or not) does not hold a place with its body
    if (c.ai not in CHOOSE_TO_HOLD or not enc.field.narrow or c.ranged
            or c.other_arms is not None):
        return None
    key = ("holds", c.name)
    kept = enc.ai_kept
    if key not in kept:
        kept[key] = chosen(enc, c)
    found: str | None = kept[key]
    if found is not None and not any(not e.ranged for e in enc.foes_of(c.side)):
        return None  # only shooters left: a place held against them only holds it still
    return found


def chosen(enc: Encounter, c: Combatant) -> str | None:
    """The narrow place between ``c`` and more melee foes that its side reaches first, or None.

    The nearest to ``c`` of the places narrower than the melee foes' number that lie on
    the shortest way from every one of them to it, and that its side is nearer than any
    of them. Shooters are not counted: they shoot over a bridge.
    """
    # the foes who must come through the place to strike: a shooter shoots over it
    foes = [e for e in enc.enemies(c) if not e.ranged]
    allies = [m for m in enc.sides[c.side] if m.in_fight]
    if len(foes) <= len(allies):
        return None
    field = enc.field
    distance = field.distance
    best: tuple[float, str] | None = None
    for node, width in field.narrow:
        if width >= len(foes):
            continue
        ours = min(distance(m.pos, node) for m in allies)
        if any(distance(e.pos, node) < ours for e in foes):
            continue
        mine = distance(c.pos, node)
        if all(distance(e.pos, node) + mine <= distance(e.pos, c.pos) + EDGE_EPSILON
               for e in foes):
            name = field.names[node.a]
            if best is None or (mine, name) < best:
                best = (mine, name)
    return best[1] if best is not None else None


def keep(enc: Encounter, c: Combatant, intents: list[Intent], hold: str) -> list[Intent]:
    """``intents`` as a holder of ``hold`` may carry them out."""
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
    # what it may still do from its place: not a charge's attack on a foe the move was to
    # reach (struck at from here, out of reach, it would only be a wasted miss)
    advisor = enc.advisor
    kept = [i for i in intents if i not in moving
            and (type(i) is not Attack or advisor.can_attack(enc, c, i.target))]
    if kept:
        c.why = f"{c.why}; holds {hold}"
        return kept
    waiting, why = enc.advisor.wait_intents(enc, c, enc.enemies(c))
    c.why = f"holds {hold}: {why}"
    return waiting

"""Space as at a table: reach, engagement, who can charge whom, the nearest foe.

The one home of the rules of space that the rulesets and the AI both ask (DESIGN.md): which
foes a fighter can strike from where it stands, who is engaged with whom, who could reach a
place in one move. Pure queries over an encounter; the walk itself, with its stops, room at
narrow places and free attacks, is ``sim.core.moving``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from sim.core.battlefield import MELEE_REACH, Battlefield, Position
from sim.core.draws import draw

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


@lru_cache(maxsize=64)
def nodes(field: Battlefield) -> tuple[Position, ...]:
    """The positions of every node of a map (computed once per map)."""
    return tuple(Position(i, i, 0.0) for i in range(field.size))


def in_reach(enc: Encounter, c: Combatant, target: Combatant) -> bool:
    """``target`` within ``c``'s reach now (melee reach, or its weapon's longest range).

    Kept on ``c`` per target with the two places and the reach it was for
    (``Combatant.reach_kept``): a fighter's AI asks as it declares and its attack asks
    again as it resolves, round after round from the same places. A place is a value that
    a move replaces, never changes, so the same objects give the same answer.
    """
    here, there, reach = c.pos, target.pos, c.reach
    kept = c.reach_kept.get(target)
    if kept is not None and kept[0] is here and kept[1] is there and kept[2] is reach:
        return kept[3]
    answer = enc.field.distance(here, there) <= reach
    c.reach_kept[target] = (here, there, reach, answer)
    return answer


def can_charge(enc: Encounter, e: Combatant, spot: Position) -> bool:
    """``e`` could strike someone at ``spot`` after one move (its speed plus melee reach)."""
    return enc.field.distance(spot, e.pos) <= e.speed + MELEE_REACH


def shooters_on(enc: Encounter, c: Combatant, foes: Sequence[Combatant]) -> list[Combatant]:
    """Ranged foes that have ``c`` within their range now."""
    return [e for e in foes if e.ranged and in_reach(enc, e, c)]


def nearest_enemy(enc: Encounter, c: Combatant) -> Combatant | None:
    """The closest enemy still in the fight (ties: a random draw, see ``best``).

    While everyone declares (``Encounter.nearest`` is a dict), nobody moves: fighters of a
    side standing at one place share the search; each still draws among the tied itself.
    """
    here, side = c.pos, c.side
    shared = enc.nearest
    if shared is None:
        return draw(enc, _nearest_foes(enc, here, side))
    top = shared.get((here, side))
    if top is None:
        top = shared[(here, side)] = _nearest_foes(enc, here, side)
    return top[0] if len(top) == 1 else draw(enc, top)  # one nearest: nothing to draw


def _nearest_foes(enc: Encounter, here: Position, side: str) -> list[Combatant]:
    """The foes of ``side`` in the fight nearest to ``here`` (all of them on a tie)."""
    # ``best`` written out: every basic fighter asks this every round
    distance = enc.field.distance
    top: list[Combatant] = []
    near = 0.0
    for e in enc.combatants:
        if e.in_fight and e.side != side:
            d = distance(here, e.pos)
            if not top or d < near:
                top, near = [e], d
            elif d == near:
                top.append(e)
    return top


def engaged(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Combatant]:
    """Foes within melee reach of ``c`` (any of them could strike it in melee now)."""
    distance = enc.field.distance
    return [e for e in foes if distance(c.pos, e.pos) <= MELEE_REACH]


def threatened_by(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Combatant]:
    """Foes that could attack ``c`` from where they stand (melee reach or weapon range)."""
    return [e for e in foes if in_reach(enc, e, c)]


def can_leave(enc: Encounter, c: Combatant, foes: list[Combatant]) -> bool:
    """No foe could reach ``c`` with one move: the rule a fighter leaves the field by."""
    return not any(can_charge(enc, e, c.pos) for e in foes)

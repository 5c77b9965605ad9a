"""Where to stand: cover, a step out of melee, the edge to fall back to, a shooter to screen.

The AI's choices of place; the rules of space they build on (reach, engagement, who could
charge whom) are ``sim.core.space``'s. Pure queries over an encounter (nothing here changes
it); the profiles in :mod:`sim.ai.profiles` turn the answers into intents. Places are map
nodes: a fighter falls back to, takes cover at, or holds a node. Every function is cheap:
maps have a handful of nodes and a fight a handful of fighters, and the AI asks once per
fighter per round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core import space
from sim.core.actions import Move
from sim.core.battlefield import MELEE_REACH, Position
from sim.core.draws import best
from sim.core.space import can_charge, nodes

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


def _exposed(enc: Encounter, c: Combatant, spot: Position, foes: list[Combatant]) -> bool:
    """Whether a melee foe could reach ``spot`` in one move, nearer to it than ``c`` is now.

    Stepping toward a swordsman is not taking cover.
    """
    distance = enc.field.distance
    return any(not e.ranged and can_charge(enc, e, spot)
               and distance(spot, e.pos) < distance(c.pos, e.pos) for e in foes)


def cover_spot(enc: Encounter, c: Combatant, foes: list[Combatant], target: Combatant,
               metres: float) -> Position | None:
    """A node within ``metres`` with better cover than here, keeping ``target`` in range.

    Not a node a melee foe could reach in one move if that is closer to it than ``c`` is
    now. The best cover wins, then the farthest from the nearest foe. None: stay.
    """
    field = enc.field
    distance = field.distance
    return best(enc, cover_spots(enc, c, foes, target, metres),
                lambda node: (field.cover(node), min(distance(node, e.pos) for e in foes)))


def cover_spots(enc: Encounter, c: Combatant, foes: list[Combatant], target: Combatant,
                metres: float) -> list[Position]:
    """Every node ``cover_spot`` may choose from (a player's menu offers them all)."""
    field = enc.field
    distance = field.distance
    here = field.cover(c.pos)
    return [node for node in nodes(field)
            if field.cover(node) > here and distance(c.pos, node) <= metres
            and distance(node, target.pos) <= c.reach and not _exposed(enc, c, node, foes)]


def step_back_spot(enc: Encounter, c: Combatant, foes: list[Combatant],
                   target: Combatant) -> Position | None:
    """A node within one move out of every melee foe's reach, with ``target`` in range.

    Prefers the spot farthest from the nearest melee foe, then the best cover.
    """
    field = enc.field
    melee = _melee(foes)
    return best(enc, step_back_spots(enc, c, foes, target),
                lambda node: (_nearest(enc, node, melee), field.cover(node)))


def step_back_spots(enc: Encounter, c: Combatant, foes: list[Combatant],
                    target: Combatant) -> list[Position]:
    """Every node ``step_back_spot`` may choose from (a player's menu offers them all)."""
    distance = enc.field.distance
    melee = _melee(foes)
    return [node for node in nodes(enc.field)
            if distance(c.pos, node) <= c.speed and distance(node, target.pos) <= c.reach
            and _nearest(enc, node, melee) > MELEE_REACH]


def _melee(foes: list[Combatant]) -> list[Combatant]:
    return [e for e in foes if not e.ranged] or foes


def _nearest(enc: Encounter, node: Position, foes: list[Combatant]) -> float:
    return min(enc.field.distance(node, e.pos) for e in foes)


def edge(enc: Encounter, c: Combatant, foes: list[Combatant]) -> Position:
    """Where ``c`` falls back to: its starting node, or a node farther from every foe.

    ``space.farthest``: the node whose nearest foe is farthest, the starting node (its
    side's edge) winning a tie.
    """
    return space.farthest(enc, c, foes)


def post(enc: Encounter, c: Combatant, foes: list[Combatant]) -> Combatant | None:
    """The ranged ally a melee fighter should screen, or None when holding does not pay.

    Holding pays while its side's shooters are at work (some foe in range of them), the
    foes still have fighters who must walk up to strike, and the foes do not outshoot its
    side (more shooters): then foes walk into arrows, and it stands between them and its
    shooters. Otherwise it advances. The ally screened is the shooter nearest to the foes.
    """
    distance = enc.field.distance
    shooters = [a for a in enc.allies(c) if a.ranged]
    if not shooters or all(e.ranged for e in foes):
        return None
    if sum(e.ranged for e in foes) > len(shooters):
        return None
    side = c.side

    def guarded(a: Combatant) -> int:  # allies already on their way to screen ``a``
        return sum(1 for m, intents in enc.declared.items() if m.side == side
                   for i in intents if type(i) is Move and i.target is a)

    ward = best(enc, shooters, lambda a: (-min(distance(a.pos, e.pos) for e in foes),
                                          guarded(a)))
    if ward is None or not any(distance(ward.pos, e.pos) <= ward.reach for e in foes):
        return None
    return ward


def quarry(enc: Encounter, c: Combatant, foes: list[Combatant]) -> Combatant | None:
    """The foe shooter a melee fighter with no foe in reach goes for, or None: any foe.

    When the foes have more shooters than its side, the nearest of them: they hurt its side
    from afar every round, and the foes' melee fighters come to it anyway. A tactical
    fighter that walked at the nearest brawler instead won 0.69 of the ambush at the ford
    under ORE, against 0.99 going for its archers (``bench/regret.py``, docs/ai.md).
    """
    shooters = [e for e in foes if e.ranged]
    if len(shooters) <= sum(1 for a in enc.allies(c) if a.ranged):
        return None
    distance, here = enc.field.distance, c.pos
    return best(enc, shooters, lambda e: -distance(here, e.pos))

"""Queries over the battlefield: reach, engagement, escape, cover, which foe, where to stand.

The one home of these questions: the engine (morale), the rulesets (leaving the field) and
the AI profiles all ask here. Pure queries over an encounter (nothing here changes it); the
profiles in :mod:`sim.ai.profiles` turn the answers into intents. Places are map nodes: a
fighter falls back to, takes cover at, or holds a node. Every function is cheap: maps have a
handful of nodes and a fight a handful of fighters, and the AI asks once per fighter per
round.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from sim.core.actions import Attack
from sim.core.battlefield import MELEE_REACH, Battlefield, Position

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter


@lru_cache(maxsize=64)
def nodes(field: Battlefield) -> tuple[Position, ...]:
    """The positions of every node of a map (computed once per map)."""
    return tuple(Position(i, i, 0.0) for i in range(field.size))


def in_reach(enc: Encounter, c: Combatant, target: Combatant) -> bool:
    """``target`` within ``c``'s reach now (melee reach, or its weapon's longest range)."""
    return enc.field.distance(c.pos, target.pos) <= c.reach


def can_charge(enc: Encounter, e: Combatant, spot: Position) -> bool:
    """``e`` could strike someone at ``spot`` after one move (its speed plus melee reach)."""
    return enc.field.distance(spot, e.pos) <= e.speed + MELEE_REACH


def shooters_on(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Combatant]:
    """Ranged foes that have ``c`` within their range now."""
    return [e for e in foes if e.ranged and in_reach(enc, e, c)]


def nearest_enemy(enc: Encounter, c: Combatant) -> Combatant | None:
    """The closest enemy still in the fight (ties: the first in scenario order)."""
    best, best_d = None, float("inf")
    distance = enc.field.distance
    for other in enc.combatants:
        if other.in_fight and other.side != c.side:
            d = distance(c.pos, other.pos)
            if d < best_d:
                best, best_d = other, d
    return best


def engaged(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Combatant]:
    """Foes within melee reach of ``c`` (any of them could strike it in melee now)."""
    distance = enc.field.distance
    return [e for e in foes if distance(c.pos, e.pos) <= MELEE_REACH]


def threatened_by(enc: Encounter, c: Combatant, foes: list[Combatant]) -> list[Combatant]:
    """Foes that could attack ``c`` from where they stand (melee reach or weapon range)."""
    return [e for e in foes if in_reach(enc, e, c)]


def declared_on(enc: Encounter, c: Combatant) -> int:
    """Attacks already declared on ``c`` this round.

    Where the ruleset lets the sharper declare later (ORE and B-Grade: lowest Sense first),
    this is what a late declarer knows of the others' intents.
    """
    return sum(1 for intents in enc.declared.values() for i in intents
               if type(i) is Attack and i.target is c)


def pick_target(enc: Encounter, c: Combatant, foes: list[Combatant],
                focus: str | None) -> Combatant:
    """The foe ``c`` goes for, by its doctrine's ``focus``.

    Foes it can attack from where it stands come first (a fighter does not walk away from a
    foe in reach to find a better one); among them:

    - ``nearest``: the closest;
    - ``weakest``: the one closest to going down (``Ruleset.threat``), then, for a shooter,
      the one in the least cover, then the closest: focus fire;
    - ``most_dangerous``: the highest expected damage a round (``Ruleset.danger``), then
      the closest.

    Ties go to the first in scenario order.
    """
    rs = enc.advisor
    distance = enc.field.distance
    pool = [e for e in foes if rs.can_attack(enc, c, e)] or foes
    here = c.pos
    if focus == "weakest":
        threat, cover = rs.threat, enc.field.cover
        shooter = c.ranged
        return min(pool, key=lambda e: (-threat(e), cover(e.pos) if shooter else 0,
                                        distance(here, e.pos)))
    if focus == "most_dangerous":
        danger = rs.danger
        return min(pool, key=lambda e: (-danger(enc, e), distance(here, e.pos)))
    return min(pool, key=lambda e: distance(here, e.pos))


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
    here = field.cover(c.pos)
    best, best_key = None, None
    for node in nodes(field):
        cover = field.cover(node)
        if cover <= here or distance(c.pos, node) > metres:
            continue
        if distance(node, target.pos) > c.reach or _exposed(enc, c, node, foes):
            continue
        key = (cover, min(distance(node, e.pos) for e in foes))
        if best_key is None or key > best_key:
            best, best_key = node, key
    return best


def step_back_spot(enc: Encounter, c: Combatant, foes: list[Combatant],
                   target: Combatant) -> Position | None:
    """A node within one move out of every melee foe's reach, with ``target`` in range.

    Prefers the spot farthest from the nearest melee foe, then the best cover.
    """
    field = enc.field
    distance = field.distance
    melee = [e for e in foes if not e.ranged] or foes
    best, best_key = None, None
    for node in nodes(field):
        if distance(c.pos, node) > c.speed or distance(node, target.pos) > c.reach:
            continue
        near = min(distance(node, e.pos) for e in melee)
        if near <= MELEE_REACH:
            continue
        key = (near, field.cover(node))
        if best_key is None or key > best_key:
            best, best_key = node, key
    return best


def edge(enc: Encounter, c: Combatant, foes: list[Combatant]) -> Position:
    """Where ``c`` falls back to: its starting node, or a node farther from every foe.

    The node whose nearest foe is farthest; ties keep the starting node (its side's edge).
    """
    field = enc.field
    distance = field.distance
    home = field.node(c.spec.at)
    best, best_d = home, min(distance(home, e.pos) for e in foes)
    for node in nodes(field):
        d = min(distance(node, e.pos) for e in foes)
        if d > best_d + 1e-9:
            best, best_d = node, d
    return best


def can_leave(enc: Encounter, c: Combatant, foes: list[Combatant]) -> bool:
    """No foe could reach ``c`` with one move: the rule a fighter leaves the field by."""
    return not any(can_charge(enc, e, c.pos) for e in foes)


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
    best, best_d = None, float("inf")
    for a in shooters:
        d = min(distance(a.pos, e.pos) for e in foes)
        if d < best_d:
            best, best_d = a, d
    if best is None or not any(distance(best.pos, e.pos) <= best.reach for e in foes):
        return None
    return best

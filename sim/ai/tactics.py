"""Queries over the battlefield: reach, engagement, escape, cover, which foe, where to stand.

The one home of these questions: the engine (morale), the rulesets (leaving the field) and
the AI profiles all ask here. Pure queries over an encounter (nothing here changes it); the
profiles in :mod:`sim.ai.profiles` turn the answers into intents. Places are map nodes: a
fighter falls back to, takes cover at, or holds a node. Every function is cheap: maps have a
handful of nodes and a fight a handful of fighters, and the AI asks once per fighter per
round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from sim.core.actions import Attack, Move
from sim.core.battlefield import MELEE_REACH, Battlefield, Position
from sim.core.draws import pick

if TYPE_CHECKING:
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

T = TypeVar("T")


@lru_cache(maxsize=64)
def nodes(field: Battlefield) -> tuple[Position, ...]:
    """The positions of every node of a map (computed once per map)."""
    return tuple(Position(i, i, 0.0) for i in range(field.size))


def best(enc: Encounter, candidates: Iterable[T], key: Callable[[T], Any]) -> T | None:
    """The candidate with the highest ``key``; a tie is broken by the encounter's generator.

    Never by the order of the candidates (scenario or map order): that would hand an edge
    to whichever side or place a file lists first. Draws only when there is a tie.
    """
    top: list[T] = []
    top_key = None
    for item in candidates:
        k = key(item)
        if top_key is None or k > top_key:
            top, top_key = [item], k
        elif k == top_key:
            top.append(item)
    return draw(enc, top)


def draw(enc: Encounter, tied: list[T]) -> T | None:
    """One of ``tied`` (equally good), drawn by the encounter's generator; None if empty."""
    if len(tied) > 1:
        return pick(enc.rng, tied)
    return tied[0] if tied else None


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


def declared_on(enc: Encounter, c: Combatant) -> int:
    """Attacks already declared on ``c`` this round.

    Where the ruleset lets the sharper declare later (ORE and B-Grade: lowest Sense first),
    this is what a late declarer knows of the others' intents.
    """
    return sum(1 for intents in enc.declared.values() for i in intents
               if type(i) is Attack and i.target is c)


def attacks_expected(enc: Encounter, c: Combatant,
                     foes: list[Combatant]) -> dict[Combatant, float]:
    """How many attacks each foe is expected to make on ``c`` this round.

    A foe that has declared: the attacks it declared on ``c``. One that has not: one attack
    shared evenly among the members of ``c``'s side it could attack from where it stands
    (a crowd does not all strike the same fighter). Foes that could not attack ``c`` count 0.
    """
    advisor = enc.advisor
    out = {}
    for e in foes:
        intents = enc.declared.get(e)
        if intents is not None:
            out[e] = float(sum(1 for i in intents if type(i) is Attack and i.target is c))
        elif advisor.can_attack(enc, e, c):
            out[e] = 1 / sum(1 for m in enc.sides[c.side] if m.in_fight
                             and advisor.can_attack(enc, e, m))
    return {e: w for e, w in out.items() if w}


def allies_on(enc: Encounter, side: str, foe: Combatant) -> int:
    """Attacks ``side`` has already declared on ``foe`` this round (focus fire joins them)."""
    return sum(1 for c, intents in enc.declared.items() if c.side == side
               for i in intents if type(i) is Attack and i.target is foe)


def pick_target(enc: Encounter, c: Combatant, foes: list[Combatant],
                focus: str | None) -> Combatant:
    """The foe ``c`` goes for, by its doctrine's ``focus``.

    Foes it can attack from where it stands come first (a fighter does not walk away from a
    foe in reach to find a better one); among them:

    - ``nearest``: the closest;
    - ``weakest``: the one closest to going down (``Advisor.threat``), then the one its side
      already declared most attacks on this round, then, for a shooter, the one in the least
      cover, then the closest: focus fire;
    - ``most_dangerous``: the highest expected damage a round (``Advisor.danger``), then
      the closest.

    Ties are broken by a random draw (``best``), never by scenario order. ``foes`` is not
    empty (a fighter with no foe picks none).
    """
    chosen = _pick(enc, c, foes, focus)
    assert chosen is not None, "pick_target needs a foe"
    return chosen


def _pick(enc: Encounter, c: Combatant, foes: list[Combatant],
          focus: str | None) -> Combatant | None:
    rs = enc.advisor
    distance = enc.field.distance
    pool = [e for e in foes if rs.can_attack(enc, c, e)] or foes
    here = c.pos
    if focus == "weakest":
        threat, cover = rs.threat, enc.field.cover
        shooter = c.ranged
        side = c.side
        return best(enc, pool, lambda e: (threat(e), allies_on(enc, side, e),
                                          -cover(e.pos) if shooter else 0,
                                          -distance(here, e.pos)))
    if focus == "most_dangerous":
        danger = rs.danger
        return best(enc, pool, lambda e: (danger(enc, e), -distance(here, e.pos)))
    return best(enc, pool, lambda e: -distance(here, e.pos))


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

    The node whose nearest foe is farthest; the starting node (its side's edge) wins a tie,
    other ties a random draw.
    """
    field = enc.field
    distance = field.distance
    home = field.node(c.spec.at)

    def room(node: Position) -> tuple[float, bool]:
        return round(min(distance(node, e.pos) for e in foes), 9), node == home

    far = best(enc, nodes(field), room)
    assert far is not None  # a map has a node
    return far


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
    side = c.side

    def guarded(a: Combatant) -> int:  # allies already on their way to screen ``a``
        return sum(1 for m, intents in enc.declared.items() if m.side == side
                   for i in intents if type(i) is Move and i.target is a)

    ward = best(enc, shooters, lambda a: (-min(distance(a.pos, e.pos) for e in foes),
                                          guarded(a)))
    if ward is None or not any(distance(ward.pos, e.pos) <= ward.reach for e in foes):
        return None
    return ward

"""Going round a narrow place by another path, when the way round pays.

A fighter with no room at a narrow place (RULES.md "Room at a place") waits behind it for
its turn. When the map has another way to its foe that avoids that place, and running it
takes fewer rounds than the wait, it goes round instead, as raiders at the back of the
queue for a one-man footbridge would wade the ford. The way round keeps off every other
narrow place it could not pass now: held by as many standing foes as it is wide, or
filled to its width by its own side (``_impassable``). The wait is a ruling: each fighter of
its side ahead of it in the queue (nearer the place, or as near and first in an order
drawn once) holds the front for ``FRONT_ROUNDS`` rounds, ``width`` of them at a time. Once
on its way round it keeps to it (``Encounter.ai_kept``) until it has passed the last place
of the way round, so that it does not turn back the moment the queue looks shorter.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import TYPE_CHECKING

import networkx as nx

from sim.core import space
from sim.core.actions import Retreat
from sim.core.battlefield import EDGE_EPSILON

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.battlefield import Battlefield
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

# Rounds a fighter holds the front of a narrow place before the next steps up (a ruling:
# about the length of an exchange of blows between two fighters of the bundled scenarios).
FRONT_ROUNDS = 3


def follow(enc: Encounter, c: Combatant) -> list[Intent] | None:
    """The next leg of ``c``'s way round, if it is on one (None: it is not)."""
    key = ("detour", c.name)
    kept: tuple[str, str, tuple[str, ...]] | None = enc.ai_kept.get(key)
    if not kept:
        return None
    target, place, way = kept
    field = enc.field
    # reached: the way on from the last of its places it stands at (a run may pass some)
    reached = [i for i, n in enumerate(way) if field.distance(c.pos, field.node(n)) <= EDGE_EPSILON]
    if reached:
        way = way[reached[-1] + 1:]
    foe = next((e for e in enc.enemies(c) if e.name == target), None)
    if not way or foe is None or not _beyond(enc, c, foe, place):
        # there; or its foe fell, or now stands at the place: going round gains nothing
        del enc.ai_kept[key]
        return None
    enc.ai_kept[key] = (target, place, way)
    # the farthest place of the way whose shortest route keeps off the narrow place: a
    # run is not spent stopping at every node of the way
    avoid = field.node(place)
    dest = next((n for n in reversed(way)
                 if avoid not in field.route(c.pos, field.node(n))), way[0])
    c.why = f"goes round by {dest}"
    return [Retreat(field.node(dest), run=True)]


def plan(enc: Encounter, c: Combatant, target: Combatant, place: str) -> list[Intent] | None:
    """Go round ``place`` toward ``target`` when that is sooner than waiting (None: wait)."""
    field = enc.field
    width = {field.names[node.a]: w for node, w in field.narrow}.get(place)
    start = _nearest_node(enc, c, place)
    if width is None or start is None:
        return None
    # a foe it could strike only from the place's front meets it in the same queue from
    # any side: the way round goes for one it can strike from beyond the front
    foes = [target] if _beyond(enc, c, target, place) else [
        e for e in enc.enemies(c) if _beyond(enc, c, e, place)]
    # (the place it stands at it has already, whoever else is there)
    shut = tuple(n for n in _impassable(enc, c, place) if n != start)
    ways = [(found, e.name) for e in foes
            if (found := _way_round(enc, start, e, place, shut)) is not None]
    if not ways:
        return None
    (length, path), target_name = min(ways)
    length += field.distance(c.pos, field.node(start))
    ahead = _queue_ahead(enc, c, place)
    wait = math.ceil(ahead / width) * FRONT_ROUNDS
    if length / enc.ruleset.run_metres(c) >= wait:
        return None
    way = [n for n in path if field.distance(c.pos, field.node(n)) > EDGE_EPSILON]
    if not way:
        return None
    enc.ai_kept[("detour", c.name)] = (target_name, place, tuple(way))
    intents = follow(enc, c)
    if intents is not None:
        c.why = (c.why.replace("goes round", f"goes round {place}", 1)
                 + f" ({ahead} of its side ahead at {place})")
    return intents


def _beyond(enc: Encounter, c: Combatant, foe: Combatant, place: str) -> bool:
    """``c`` could strike ``foe`` from outside ``place``'s front (where room is counted)."""
    return enc.field.distance(foe.pos, enc.field.node(place)) + c.reach > space.FRONT


def _impassable(enc: Encounter, c: Combatant, place: str) -> list[str]:
    """The narrow places but ``place`` that ``c`` could not pass now, by name.

    RULES.md "Room at a place": one held by as many standing foes as it is wide cannot be
    passed, and at one whose front its own side fills to its width it would wait again.
    """
    field = enc.field
    out = []
    for node, width in field.narrow:
        name = field.names[node.a]
        if name == place:
            continue
        held = sum(space.front_count(enc, node, side) for side in enc.sides if side != c.side)
        if held >= width or space.front_count(enc, node, c.side, c) >= width:
            out.append(name)
    return out


def _way_round(enc: Encounter, start: str, target: Combatant, place: str,
               shut: tuple[str, ...]) -> tuple[float, tuple[str, ...]] | None:
    """The shortest way from ``start`` to ``target`` off ``place`` and ``shut``: metres, nodes.

    ``shut``: the other narrow places it could not pass (``_impassable``). The way ends at
    a node next to the target (an end of its edge, or, for a target at or in front of
    ``place``, a node next to it on another side than ``start``).
    """
    field = enc.field
    pos = target.pos
    goals = {field.names[i] for i in ((pos.a,) if pos.at_node else (pos.a, pos.b))}
    if field.distance(pos, field.node(place)) <= space.FRONT:
        goals |= set(field.graph.neighbors(place))
    goals -= {place, *shut, start}
    closed = tuple(sorted({place, *shut}))
    best: tuple[float, tuple[str, ...]] | None = None
    for goal in sorted(goals):
        found = _avoiding(field, start, goal, closed)
        if found is None:
            continue
        length = found[0] + field.distance(field.node(goal), pos)
        if best is None or length < best[0]:
            best = (length, found[1])
    return best


@lru_cache(maxsize=4096)
def _avoiding(field: Battlefield, start: str, goal: str,
              closed: tuple[str, ...]) -> tuple[float, tuple[str, ...]] | None:
    """The shortest path from ``start`` to ``goal`` off the places ``closed``: metres, nodes.

    A map never changes, so each is found once (a fighter in a queue asks every round, and
    every rollout of a ``?`` asks again); None when there is none.
    """
    graph = nx.restricted_view(field.graph, closed, [])
    try:
        path: list[str] = nx.dijkstra_path(graph, start, goal, weight="metres")
    except nx.NetworkXNoPath:
        return None
    return nx.path_weight(graph, path, "metres"), tuple(path)


def _nearest_node(enc: Encounter, c: Combatant, place: str) -> str | None:
    """The node ``c`` stands at, or the nearer end of its edge that is not ``place``."""
    field = enc.field
    pos = c.pos
    ends = [pos.a] if pos.at_node else [pos.a, pos.b]
    names = [field.names[i] for i in ends if field.names[i] != place]
    if not names:
        return None
    return min(names, key=lambda n: (field.distance(pos, field.node(n)), n))


def _queue_ahead(enc: Encounter, c: Combatant, place: str) -> int:
    """Fighters of ``c``'s side ahead of it in the queue for ``place``.

    Those nearer the place who could fight there (as ``space.front_count`` counts them: not
    knocked out, not fleeing); among fighters standing as near as it, an order drawn once
    with the encounter's generator (``_queue_key``), never the order of the file.
    """
    field = enc.field
    node = field.node(place)
    mine = field.distance(c.pos, node)
    ahead = 0
    for m in enc.sides[c.side]:
        if m is c or not space.stands(m):
            continue
        d = field.distance(m.pos, node)
        if d < mine - EDGE_EPSILON or (d <= mine + EDGE_EPSILON
                                       and _queue_key(enc, m) < _queue_key(enc, c)):
            ahead += 1
    return ahead


def _queue_key(enc: Encounter, c: Combatant) -> float:
    """``c``'s place among fighters that stand together in a queue.

    Drawn from a generator of its own, seeded by the encounter's seed and the fighter's
    name: the same whenever it is asked (by the AI, a menu, a rollout), and it takes no
    draw from the fight's generator.
    """
    return random.Random(f"{enc.seed}:queue:{c.name}").random()

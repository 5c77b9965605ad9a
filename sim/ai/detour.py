"""Going round a narrow place by another path, when the way round pays.

A fighter with no room at a narrow place (RULES.md "Room at a place") waits behind it for
its turn. When the map has another way to its foe that avoids that place, and running it
takes fewer rounds than the wait, it goes round instead, as raiders at the back of the
queue for a one-man footbridge would wade the ford. The wait is a ruling: each fighter of
its side ahead of it in the queue (nearer the place, or as near and first in an order
drawn once) holds the front for ``FRONT_ROUNDS`` rounds, ``width`` of them at a time. Once
on its way round it keeps to it (``Encounter.ai_kept``) until it has passed the last place
of the way round, so that it does not turn back the moment the queue looks shorter.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import networkx as nx

from sim.core import space
from sim.core.actions import Retreat
from sim.core.battlefield import EDGE_EPSILON

if TYPE_CHECKING:
    from sim.core.actions import Intent
    from sim.core.combatant import Combatant
    from sim.core.engine import Encounter

# Rounds a fighter holds the front of a narrow place before the next steps up (a ruling:
# about the length of an exchange of blows between two fighters of the bundled scenarios).
FRONT_ROUNDS = 3


def follow(enc: Encounter, c: Combatant) -> list[Intent] | None:
    """The next leg of ``c``'s way round, if it is on one (None: it is not)."""
    key = ("detour", c.name)
    way: list[str] | None = enc.ai_kept.get(key)
    if not way:
        return None
    field = enc.field
    while way and field.distance(c.pos, field.node(way[0])) <= EDGE_EPSILON:
        way.pop(0)  # reached
    if not way:
        del enc.ai_kept[key]
        return None
    c.why = f"goes round by {way[0]}"
    return [Retreat(field.node(way[0]), run=True)]


def plan(enc: Encounter, c: Combatant, target: Combatant, place: str) -> list[Intent] | None:
    """Go round ``place`` toward ``target`` when that is sooner than waiting (None: wait)."""
    field = enc.field
    width = {field.names[node.a]: w for node, w in field.narrow}.get(place)
    start = _nearest_node(enc, c, place)
    if width is None or start is None:
        return None
    found = _way_round(enc, start, target, place)
    if found is None:
        return None
    length, path = found
    length += field.distance(c.pos, field.node(start))
    ahead = _queue_ahead(enc, c, place)
    wait = math.ceil(ahead / width) * FRONT_ROUNDS
    if length / enc.ruleset.run_metres(c) >= wait:
        return None
    way = [n for n in path if field.distance(c.pos, field.node(n)) > EDGE_EPSILON]
    if not way:
        return None
    enc.ai_kept[("detour", c.name)] = way
    intents = follow(enc, c)
    if intents is not None:
        c.why = f"goes round {place} by {way[0]} ({ahead} of its side ahead at {place})"
    return intents


def _way_round(enc: Encounter, start: str, target: Combatant,
               place: str) -> tuple[float, list[str]] | None:
    """The shortest way from ``start`` to ``target`` that avoids ``place``: metres, nodes.

    It ends at a node next to the target (an end of its edge, or, for a target at or in
    front of ``place``, a node next to the place on another side than ``start``).
    """
    field = enc.field
    pos = target.pos
    goals = {field.names[i] for i in ((pos.a,) if pos.at_node else (pos.a, pos.b))}
    if field.distance(pos, field.node(place)) <= space.FRONT:
        goals |= set(field.graph.neighbors(place))
    goals -= {place, start}
    graph = nx.restricted_view(field.graph, [place], [])
    best: tuple[float, list[str]] | None = None
    for goal in sorted(goals):
        try:
            path: list[str] = nx.dijkstra_path(graph, start, goal, weight="metres")
        except nx.NetworkXNoPath:
            continue
        length = (nx.path_weight(graph, path, "metres")
                  + field.distance(field.node(goal), pos))
        if best is None or length < best[0]:
            best = (length, path)
    return best


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

    Those nearer the place; among fighters standing as near as it, an order drawn once
    with the encounter's generator (``_queue_key``), never the order of the file.
    """
    field = enc.field
    node = field.node(place)
    mine = field.distance(c.pos, node)
    ahead = 0
    for m in enc.sides[c.side]:
        if m is c or not m.in_fight:
            continue
        d = field.distance(m.pos, node)
        if d < mine - EDGE_EPSILON or (d <= mine + EDGE_EPSILON
                                       and _queue_key(enc, m) < _queue_key(enc, c)):
            ahead += 1
    return ahead


def _queue_key(enc: Encounter, c: Combatant) -> float:
    """``c``'s place among fighters that stand together in a queue, drawn once."""
    key = ("queue", c.name)
    found: float | None = enc.ai_kept.get(key)
    if found is None:
        found = enc.ai_kept[key] = enc.rng.random()
    return found

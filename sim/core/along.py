"""Where a route first comes within some metres of a place: the walk's stops, measured.

Pure geometry on the map (``Battlefield.measure`` along a ``route``'s legs): the walk
(``sim.core.moving``) asks it for a foe's reach and a narrow place's front, and a flight
(``space.way_out``) whether a foe stands on the way to an exit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.core.battlefield import EDGE_EPSILON

if TYPE_CHECKING:
    from sim.core.battlefield import Battlefield, Position

STEP = 0.5
"""Metres between the points of a leg tried for a stop (a reach is at least 2 m)."""


def first_within(field: Battlefield, way: list[Position], goal: float, there: Position,
                 reach: float) -> float | None:
    """Metres along ``way`` (at most ``goal``) of its first point within ``reach`` of ``there``.

    A leg whose two ends are too far from ``there`` for any point between them to come
    within ``reach`` is passed over at once (the distance falls by at most a metre a metre
    walked: no point of a leg of length L is nearer than half of d(a) + d(b) - L); the
    others are tried every ``STEP`` metres, the last step halved to a millimetre.
    """
    distance = field.distance  # (kept: a route's waypoints are places that recur)
    walked = 0.0
    here = way[0]
    d_here = distance(here, there)
    if d_here <= reach:
        return 0.0
    for nxt in way[1:]:
        if walked >= goal - EDGE_EPSILON:
            return None
        leg = field.leg(here, nxt)
        d_next = distance(nxt, there)
        if (d_here + d_next - leg) / 2 <= reach:  # the leg may come within reach
            found = _first_on_leg(field, here, nxt, min(leg, goal - walked), there, reach)
            if found is not None:
                return walked + found
        walked += leg
        here, d_here = nxt, d_next
    return None


def _first_on_leg(field: Battlefield, a: Position, b: Position, length: float,
                  there: Position, reach: float) -> float | None:
    """Metres from ``a`` toward ``b`` (at most ``length``) of the first point within reach.

    ``a`` is out of reach. Unless ``there`` stands on the leg's own edge, the distance
    along the leg is the least of straight lines (``Battlefield.measure``): concave, so
    the points within reach are an end of the leg, and halving finds where they begin.
    On the leg's own edge, the gap along it when the edge is the shortest way between
    its ends; otherwise they may be a stretch in its middle: tried every ``STEP``.
    """
    measure = field.measure
    u, v, x0, sign = field.leg_line(a, b)
    on_edge = field.on_edge

    def d(s: float) -> float:
        return measure(on_edge(u, v, x0 + sign * s), there)

    def entry(lo: float, hi: float) -> float:
        """Where the reach begins between ``lo`` (out) and ``hi`` (in), to a millimetre."""
        while hi - lo > 1e-3:
            mid = (lo + hi) / 2
            if d(mid) <= reach:
                hi = mid
            else:
                lo = mid
        return hi

    if there.at_node or (there.a, there.b) != (u, v):
        d_end = d(length)
        if d_end > reach:
            return None
        # most often one straight stretch leads in: where it crosses the reach, checked
        guess = length - (reach - d_end)
        if 0.0 < guess <= length and d(guess) <= reach + 1e-9 and d(guess - 1e-3) > reach:
            return guess
        return entry(0.0, length)
    if field.dist[u][v] >= field.length[u][v]:
        # the edge is the shortest way between its ends: the distance is the gap along
        # it, and a walk toward ``there`` enters its reach ``reach`` metres short of it
        guess = sign * (there.x - x0) - reach
        if 0.0 < guess <= length and d(guess) <= reach + 1e-9 and d(guess - 1e-3) > reach:
            return guess
    s = 0.0
    while s < length - EDGE_EPSILON:
        s_next = min(length, s + STEP)
        if d(s_next) <= reach:
            return entry(s, s_next)
        s = s_next
    return None


def first_nearer(field: Battlefield, way: list[Position], goal: float, there: Position,
                 d0: float) -> float | None:
    """Metres along ``way`` where it first comes nearer to ``there`` than ``d0`` (None: never).

    The walker stops before that point: where it stands when the walk would start to close.
    """
    measure = field.measure
    best = d0
    walked = 0.0
    here = way[0]
    for nxt in way[1:]:
        leg = field.leg(here, nxt)
        s = 0.0
        while s < leg and walked + s < goal - EDGE_EPSILON:
            s_next = min(leg, s + STEP, goal - walked)
            d = measure(field.between(here, nxt, s_next), there)
            if d < best - EDGE_EPSILON:
                return walked + s
            best = max(best, d)
            s = s_next
        walked += leg
        here = nxt
    return None


def first_close(field: Battlefield, way: list[Position], goal: float, there: Position,
                near: float, d0: float) -> float | None:
    """Metres along ``way`` where a walker from ``d0`` off ``there`` must stop for it.

    Where it first comes within ``near`` of it (``first_within``), or, within that already,
    where it first comes any nearer (``first_nearer``); None: nowhere within ``goal``.
    """
    if d0 > near:
        return first_within(field, way, goal, there, near)
    return first_nearer(field, way, goal, there, d0)

"""The battlefield: a networkx graph of places, with distances, paths, cover and visibility.

networkx builds the graph and computes the shortest paths once per scenario; queries during
a fight read plain lists (no networkx call in the hot path). A map of more than
``ALL_PAIRS_UP_TO`` nodes computes a node's distances the first time a fighter needs them,
so memory grows with the places fought over, not with the square of the map.

A ``Position`` is either a node or a point on an edge: ``(a, b, x)`` is ``x`` metres from node
``a`` toward node ``b`` (``a < b`` as indices, ``0 < x < length``); a node is ``(a, a, 0.0)``.
Melee reach is 2 m (3 m with a spear, ``space.melee_reach``): two fighters at the same node
are in reach of each other.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Generic, NamedTuple, Protocol, TypeVar

import networkx as nx

from sim.core.draws import pick
from sim.scenario.specs import MapSpec
from sim.scenario.vocabulary import Cover, Visibility

MELEE_REACH = 2.0
"""Metres within which two fighters can strike each other in melee (every ruleset)."""


EDGE_EPSILON = 1e-9
"""Metres under which two points of an edge are one (a node's end, the halfway point)."""

KNOWN_PAIRS = 100_000
"""Pairs of positions whose distance a map keeps (``Battlefield.distance``; a few MB)."""

ALL_PAIRS_UP_TO = 300
"""Nodes up to which a map's distance tables are computed whole (larger: per node, lazily)."""


R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Rows(Protocol[R_co]):
    """A node-by-node table read by index: a plain list, or rows made on first use."""

    def __getitem__(self, i: int, /) -> R_co: ...


class _LazyRows(Generic[R]):
    """The rows of a node-by-node table, each made on first use (a large map's tables)."""

    __slots__ = ("_make", "_rows")

    def __init__(self, n: int, make: Callable[[int], R]):
        self._rows: list[R | None] = [None] * n
        self._make = make

    def __getitem__(self, i: int) -> R:
        row = self._rows[i]
        if row is None:
            row = self._rows[i] = self._make(i)
        return row

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[R]:
        return (self[i] for i in range(len(self._rows)))


class _HopRow:
    """``next_hop[a]`` of a large map: the neighbours of ``a`` on a shortest path to ``b``.

    ``Battlefield.tied_hops``, worked out on first use from ``b``'s distances, so that no
    table of paths is ever kept.
    """

    __slots__ = ("field", "a", "hops")

    def __init__(self, field: Battlefield, a: int):
        self.field, self.a = field, a
        self.hops: dict[int, tuple[int, ...]] = {}

    def __getitem__(self, b: int) -> tuple[int, ...]:
        hop = self.hops.get(b)
        if hop is None:
            hop = self.hops[b] = self.field.tied_hops(self.a, b)
        return hop


class Position(NamedTuple):
    """A node (``a == b``, ``x == 0``) or a point ``x`` metres along edge ``a``-``b``.

    A tuple: made, compared and hashed in C (the AI and the rules ask for distances between
    positions thousands of times a fight).
    """

    a: int
    b: int
    x: float

    @property
    def at_node(self) -> bool:
        """True when standing on a node.

        The map's walking code writes ``a == b`` out: a property is a call, and a walk
        asks it of every waypoint.
        """
        return self.a == self.b


class Battlefield:
    """Distances, routes, cover and visibility for one scenario's map."""

    def __init__(self, spec: MapSpec):
        graph: nx.Graph[str] = nx.Graph()
        for node in spec.nodes:
            graph.add_node(node.name, cover=node.cover, visibility=node.visibility,
                           width=node.width, exit=node.exit)
        for a, b, metres in spec.edges:
            # a repeated edge keeps the shorter length
            if not graph.has_edge(a, b) or graph[a][b]["metres"] > metres:
                graph.add_edge(a, b, metres=metres)
        self.graph = graph
        self.names: list[str] = [n.name for n in spec.nodes]
        self.index = {name: i for i, name in enumerate(self.names)}
        n = len(self.names)
        # dist[a][b]: metres of a shortest path; next_hop[a][b]: the nodes after a on the
        # shortest paths to b, every one of them when routes tie (``tied_hops``; (a,) when
        # a == b). A small map has both tables whole (plain lists, the fastest to read); a
        # large one computes a node's rows the first time a fighter needs them, so memory
        # grows with the places fought over, not with the square of the map.
        self._neighbours: list[tuple[tuple[int, float], ...]] = [
            tuple(sorted((self.index[u], data["metres"]) for u, data in graph[name].items()))
            for name in self.names]
        self.dist: Rows[list[float]]
        self.next_hop: Rows[Rows[tuple[int, ...]]]
        if n <= ALL_PAIRS_UP_TO:
            self.dist = [self._dist_row(i) for i in range(n)]
            self.next_hop = [[self.tied_hops(a, b) for b in range(n)] for a in range(n)]
        else:  # the graph is undirected: a row of distances serves both directions
            self.dist = _LazyRows(n, self._dist_row)
            self.next_hop = _LazyRows(n, lambda a: _HopRow(self, a))
        self.edge_len: dict[tuple[int, int], float] = {}
        # the same lengths by node and neighbour, for ``distance`` (no tuple made per lookup)
        self.length: list[dict[int, float]] = [{} for _ in range(n)]
        for a, b, data in graph.edges(data=True):
            i, j = sorted((self.index[a], self.index[b]))
            self.edge_len[(i, j)] = self.length[i][j] = data["metres"]
        self.cover_at = [Cover[graph.nodes[name]["cover"].upper()] for name in self.names]
        self.visibility_at = [Visibility[graph.nodes[name]["visibility"].upper()]
                              for name in self.names]
        self.size = n
        # the narrow places (``width``) and the ways out (``exit``), by position
        self.narrow: list[tuple[Position, int]] = [
            (Position(i, i, 0.0), node.width) for i, node in enumerate(spec.nodes)
            if node.width is not None]
        self.exits: list[Position] = [Position(i, i, 0.0) for i, node in enumerate(spec.nodes)
                                      if node.exit]
        # ``distance``'s memo, by (position, position): a hot loop may look a pair up here
        # itself (a lookup costs less than the call) and call ``distance`` when it is absent
        self.known: dict[tuple[Position, Position], float] = {}

    def neighbours(self, i: int) -> tuple[tuple[int, float], ...]:
        """The nodes next to node ``i`` and the metres to each, by index."""
        return self._neighbours[i]

    def _dist_row(self, i: int) -> list[float]:
        """Metres from node ``i`` to every node."""
        lengths = nx.single_source_dijkstra_path_length(self.graph, self.names[i],
                                                        weight="metres")
        inf = float("inf")
        return [lengths.get(b, inf) for b in self.names]

    def tied_hops(self, a: int, b: int) -> tuple[int, ...]:
        """The neighbours of node ``a`` on a shortest path to ``b``, by index.

        ``(a,)`` when ``a == b`` or ``b`` is out of reach. All of them when routes tie:
        the walker draws among them (``advance``), where a path search would keep the
        route that the order of the file's edges finds first. A hop brings ``b`` nearer:
        an edge too short to tell from nothing (``EDGE_EPSILON``) is never a way forward
        in both directions, so a walk never goes back and forth on it.
        """
        to_b = self.dist[b]
        whole = to_b[a]
        if a == b or whole == float("inf"):
            return (a,)
        return tuple(u for u, metres in self._neighbours[a]
                     if to_b[u] < whole and abs(metres + to_b[u] - whole) <= EDGE_EPSILON)

    # ------------------------------------------------------------------ positions
    def node(self, name: str) -> Position:
        """The position of a named node."""
        i = self.index[name]
        return Position(i, i, 0.0)

    def describe(self, pos: Position) -> str:
        """``road`` or ``4 m from road toward ford``."""
        if pos.at_node:
            return self.names[pos.a]
        return f"{pos.x:.1f} m from {self.names[pos.a]} toward {self.names[pos.b]}"

    def place(self, pos: Position) -> dict[str, str | float]:
        """A position by names, for the log (``describe``'s words as data).

        ``{"node": "road"}``, or ``{"from": "road", "toward": "ford", "m": 4.0}``.
        """
        if pos.at_node:
            return {"node": self.names[pos.a]}
        return {"from": self.names[pos.a], "toward": self.names[pos.b], "m": round(pos.x, 3)}

    def _ends(self, pos: Position) -> tuple[tuple[int, float], ...]:
        if pos.a == pos.b:
            return ((pos.a, 0.0),)
        return ((pos.a, pos.x), (pos.b, self.edge_len[(pos.a, pos.b)] - pos.x))

    def distance(self, p: Position, q: Position) -> float:
        """Metres along the shortest route between two positions (``measure``), kept.

        A map never changes and positions are values, so each pair is measured once per
        map (the AI and the rules ask thousands of times a fight, mostly of fighters that
        stopped on an edge, where measuring takes four sums); the memo starts over at
        ``KNOWN_PAIRS`` pairs, since points on edges are unbounded.
        """
        known = self.known
        found = known.get((p, q))
        if found is None:
            if len(known) >= KNOWN_PAIRS:
                known.clear()
            found = known[(p, q)] = self.measure(p, q)
        return found

    def measure(self, p: Position, q: Position) -> float:
        """Metres along the shortest route between two positions, measured now.

        Through either end of an edge: ``du + dist[u][v] + dv`` over the ends ``u`` of ``p``
        and ``v`` of ``q``, where ``du`` is the way from ``p`` to ``u``. Each case below is
        that sum written out, the additions in the same order (the same float, to the bit);
        two points of one edge also have the way along it, the shorter unless another route
        between its ends is shorter than the edge.
        """
        pa, pb, px = p
        qa, qb, qx = q
        dist = self.dist
        if pa == pb:
            row = dist[pa]
            if qa == qb:
                return row[qa]
            return min(row[qa] + qx, row[qb] + (self.length[qa][qb] - qx))
        if pa == qa and pb == qb:  # along the edge, or out one end and in by the other
            along = abs(px - qx)
            round_about = dist[pa][pb]
            edge = self.length[pa][pb]
            if round_about >= edge:  # the edge is the shortest way between its ends
                return along
            return min(along, min(px, qx) + round_about + (edge - max(px, qx)))
        length = self.length
        back = length[pa][pb] - px
        if qa == qb:
            return min(px + dist[pa][qa], back + dist[pb][qa])
        fore = length[qa][qb] - qx
        ra, rb = dist[pa], dist[pb]
        return min(px + ra[qa] + qx, px + ra[qb] + fore, back + rb[qa] + qx, back + rb[qb] + fore)

    def cover(self, pos: Position) -> Cover:
        """Cover at a position (open ground on edges)."""
        return self.cover_at[pos.a] if pos.a == pos.b else Cover.NONE

    def visibility(self, pos: Position) -> Visibility:
        """Visibility at a position: an edge takes its nearer end's; halfway, the poorer.

        Halfway is where a 10 m move stops on a 20 m edge; taking either end there by the
        order of the map's nodes would favour whoever's file lists the misty node first.
        """
        if pos.a == pos.b:
            return self.visibility_at[pos.a]
        half = self.edge_len[(pos.a, pos.b)] / 2
        if abs(pos.x - half) <= EDGE_EPSILON:  # worse compares greater
            return max(self.visibility_at[pos.a], self.visibility_at[pos.b])
        return self.visibility_at[pos.a if pos.x < half else pos.b]

    # ------------------------------------------------------------------ movement
    def advance(self, p: Position, q: Position, metres: float,
                rng: random.Random | None = None) -> Position:
        """Walk up to ``metres`` from ``p`` along the shortest route toward ``q``.

        Where routes tie (either end of ``p``'s edge, either way round), ``rng`` draws
        which one is walked, never the order of the map in the file; without it (a caller
        with no encounter), the first by node index.
        """
        if metres <= 0:
            return p
        return self.along(self.route(p, q, rng, metres), metres)

    def route(self, p: Position, q: Position, rng: random.Random | None = None,
              limit: float = float("inf")) -> list[Position]:
        """The waypoints of a shortest route from ``p`` to ``q``: ``p``, nodes, ``q``.

        Two waypoints in a row share an edge (or are one point), so the way between them
        is straight and ``measure`` of any point between them is exact. Ties between
        routes are drawn with ``rng`` as ``advance`` says; the route stops once it is
        ``limit`` metres long (a walk that ends at a fork draws no way on from it).
        """
        if p == q:
            return [p]
        if (p.a == q.a and p.b == q.b and p.a != p.b
                and abs(q.x - p.x) <= self.distance(p, q) + EDGE_EPSILON):  # along the edge
            return [p, q]
        dist = self.dist
        best = tied = None
        for u, du in self._ends(p):
            for v, dv in self._ends(q):
                total = du + dist[u][v] + dv
                if best is None or total < best[0] - EDGE_EPSILON:
                    best, tied = (total, u, du, v), None
                elif total <= best[0] + EDGE_EPSILON:  # as short: another way round
                    tied = (tied or [best]) + [(total, u, du, v)]
        assert best is not None  # every position has an end, so some route was measured
        _, u, du, v = best if tied is None or rng is None else pick(rng, tied)
        if best[0] == float("inf"):  # no way there
            return [p]
        way = [p]
        node = u
        walked = du
        if p.a != p.b:
            way.append(Position(u, u, 0.0))
        while node != v:
            if walked >= limit - EDGE_EPSILON:  # far enough: no way on to draw
                return way
            hops = self.next_hop[node][v]
            nxt = hops[0] if len(hops) == 1 or rng is None else pick(rng, hops)
            walked += self.edge_len[(node, nxt) if node < nxt else (nxt, node)]
            node = nxt
            way.append(Position(node, node, 0.0))
        if q.a != q.b and q != way[-1]:
            way.append(q)
        return way

    def leg(self, a: Position, b: Position) -> float:
        """Metres between two waypoints in a row of a ``route`` (along their edge)."""
        if a == b:
            return 0.0
        if a.a == a.b and b.a == b.b:
            i, j = (a.a, b.a) if a.a < b.a else (b.a, a.a)
            return self.edge_len[(i, j)]
        if a.a == a.b:
            return b.x if a.a == b.a else self.edge_len[(b.a, b.b)] - b.x
        if b.a == b.b:
            return a.x if b.a == a.a else self.edge_len[(a.a, a.b)] - a.x
        return abs(a.x - b.x)

    def leg_line(self, a: Position, b: Position) -> tuple[int, int, float, float]:
        """The leg from waypoint ``a`` to the next, ``b``, as ``(u, v, x, sign)``.

        The point ``s`` metres along it is ``x + sign * s`` metres from node ``u`` toward
        ``v`` (``u < v``): what ``between`` works out each time, once for many points.
        """
        if a.a != a.b:
            u, v = a.a, a.b
        elif b.a != b.b:
            u, v = b.a, b.b
        else:
            u, v = (a.a, b.a) if a.a < b.a else (b.a, a.a)
        length = self.edge_len[(u, v)]
        xa = a.x if a.a != a.b else (0.0 if a.a == u else length)
        xb = b.x if b.a != b.b else (0.0 if b.a == u else length)
        return u, v, xa, (1.0 if xb >= xa else -1.0)

    def on_edge(self, u: int, v: int, x: float) -> Position:
        """The point ``x`` metres from node ``u`` toward ``v`` (``u < v``), a node at the ends."""
        return self._on_edge(u, v, x)

    def between(self, a: Position, b: Position, metres: float) -> Position:
        """The point ``metres`` from waypoint ``a`` toward the next one, ``b``."""
        whole = self.leg(a, b)
        if metres <= EDGE_EPSILON:
            return a
        if metres >= whole - EDGE_EPSILON:
            return b
        if a.a == a.b and b.a == b.b:
            return self._from_node(a.a, b.a, metres)
        if a.a == a.b:  # onto b's edge from its end a
            return self._from_node(a.a, b.b if a.a == b.a else b.a, metres)
        if b.a == b.b:
            return self._toward_node(a, b.a, metres)
        return self._on_edge(a.a, a.b, a.x + (metres if b.x > a.x else -metres))

    def along(self, way: list[Position], metres: float) -> Position:
        """The point ``metres`` along a ``route`` (its end if the route is shorter)."""
        here = way[0]
        for nxt in way[1:]:
            step = self.leg(here, nxt)
            if metres < step - EDGE_EPSILON:
                return self.between(here, nxt, metres)
            metres -= step
            here = nxt
        return here

    def approach(self, p: Position, q: Position, metres: float, stop_at: float,
                 rng: random.Random | None = None) -> Position:
        """Move toward ``q`` by at most ``metres``, stopping ``stop_at`` metres short of it.

        ``rng`` draws among tied routes (``advance``).
        """
        gap = self.distance(p, q) - stop_at
        if gap <= 0:
            return p
        return self.advance(p, q, min(metres, gap), rng)

    def _toward_node(self, p: Position, node: int, metres: float) -> Position:
        x = p.x - metres if node == p.a else p.x + metres
        return self._on_edge(p.a, p.b, x)

    def _from_node(self, node: int, other: int, metres: float) -> Position:
        a, b = (node, other) if node < other else (other, node)
        x = metres if node == a else self.edge_len[(a, b)] - metres
        return self._on_edge(a, b, x)

    def _on_edge(self, a: int, b: int, x: float) -> Position:
        length = self.edge_len[(a, b)]
        if x <= EDGE_EPSILON:
            return Position(a, a, 0.0)
        if x >= length - EDGE_EPSILON:
            return Position(b, b, 0.0)
        return Position(a, b, x)

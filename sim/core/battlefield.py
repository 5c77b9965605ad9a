"""The battlefield: a networkx graph of places, with distances, paths, cover and visibility.

networkx builds the graph and computes all shortest paths once per scenario; queries during
a fight read plain lists (no networkx call in the hot path).

A ``Position`` is either a node or a point on an edge: ``(a, b, x)`` is ``x`` metres from node
``a`` toward node ``b`` (``a < b`` as indices, ``0 < x < length``); a node is ``(a, a, 0.0)``.
Melee reach is 2 m: two fighters at the same node are in reach of each other.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from sim.scenario.specs import MapSpec
from sim.scenario.vocabulary import Cover, Visibility

MELEE_REACH = 2.0
"""Metres within which two fighters can strike each other in melee (every ruleset)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A node (``a == b``, ``x == 0``) or a point ``x`` metres along edge ``a``-``b``."""

    a: int
    b: int
    x: float

    @property
    def at_node(self) -> bool:
        """True when standing on a node."""
        return self.a == self.b


class Battlefield:
    """Distances, routes, cover and visibility for one scenario's map."""

    def __init__(self, spec: MapSpec):
        graph = nx.Graph()
        for node in spec.nodes:
            graph.add_node(node.name, cover=node.cover, visibility=node.visibility)
        for a, b, metres in spec.edges:
            # a repeated edge keeps the shorter length
            if not graph.has_edge(a, b) or graph[a][b]["metres"] > metres:
                graph.add_edge(a, b, metres=metres)
        self.graph = graph
        self.names: list[str] = [n.name for n in spec.nodes]
        self.index = {name: i for i, name in enumerate(self.names)}
        n = len(self.names)
        lengths = dict(nx.all_pairs_dijkstra_path_length(graph, weight="metres"))
        paths = dict(nx.all_pairs_dijkstra_path(graph, weight="metres"))
        inf = float("inf")
        self.dist = [[lengths[a].get(b, inf) for b in self.names] for a in self.names]
        # next_hop[a][b]: the node after a on a shortest path to b (a itself when a == b)
        self.next_hop = [
            [self.index[paths[a][b][1]] if b in paths[a] and a != b else self.index[a]
             for b in self.names]
            for a in self.names
        ]
        self.edge_len = {}
        for a, b, data in graph.edges(data=True):
            i, j = sorted((self.index[a], self.index[b]))
            self.edge_len[(i, j)] = data["metres"]
        self.cover_at = [Cover[graph.nodes[name]["cover"].upper()] for name in self.names]
        self.visibility_at = [Visibility[graph.nodes[name]["visibility"].upper()]
                              for name in self.names]
        self.size = n

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

    def _ends(self, pos: Position) -> tuple[tuple[int, float], ...]:
        if pos.a == pos.b:
            return ((pos.a, 0.0),)
        return ((pos.a, pos.x), (pos.b, self.edge_len[(pos.a, pos.b)] - pos.x))

    def distance(self, p: Position, q: Position) -> float:
        """Metres along the shortest route between two positions."""
        if p.a == p.b and q.a == q.b:
            return self.dist[p.a][q.a]
        if p.a == q.a and p.b == q.b:
            return abs(p.x - q.x)
        dist = self.dist
        return min(du + dist[u][v] + dv for u, du in self._ends(p) for v, dv in self._ends(q))

    def cover(self, pos: Position) -> Cover:
        """Cover at a position (open ground on edges)."""
        return self.cover_at[pos.a] if pos.a == pos.b else Cover.NONE

    def visibility(self, pos: Position) -> Visibility:
        """Visibility at a position (an edge takes its nearer end's)."""
        if pos.a == pos.b:
            return self.visibility_at[pos.a]
        near = pos.a if pos.x <= self.edge_len[(pos.a, pos.b)] / 2 else pos.b
        return self.visibility_at[near]

    # ------------------------------------------------------------------ movement
    def advance(self, p: Position, q: Position, metres: float) -> Position:
        """Walk up to ``metres`` from ``p`` along the shortest route toward ``q``."""
        if metres <= 0:
            return p
        if p.a == q.a and p.b == q.b and not p.at_node:  # same edge
            step = max(-metres, min(metres, q.x - p.x))
            return self._on_edge(p.a, p.b, p.x + step)
        # choose the exit of p and the entry of q giving the shortest route
        best = None
        for u, du in self._ends(p):
            for v, dv in self._ends(q):
                total = du + self.dist[u][v] + dv
                if best is None or total < best[0]:
                    best = (total, u, du, v)
        _, u, du, v = best
        here = p
        if du > 0:  # leave p's edge through u
            if metres < du:
                return self._toward_node(p, u, metres)
            metres -= du
            here = Position(u, u, 0.0)
        node = u
        while node != v:
            nxt = self.next_hop[node][v]
            length = self.edge_len[tuple(sorted((node, nxt)))]
            if metres < length:
                return self._from_node(node, nxt, metres)
            metres -= length
            node = nxt
            here = Position(node, node, 0.0)
        if q.at_node or metres <= 0:
            return here
        # last stretch along q's edge, from v toward q
        far = q.b if v == q.a else q.a
        to_q = q.x if v == q.a else self.edge_len[(q.a, q.b)] - q.x
        return self._from_node(v, far, min(metres, to_q))

    def approach(self, p: Position, q: Position, metres: float, stop_at: float) -> Position:
        """Move toward ``q`` by at most ``metres``, stopping ``stop_at`` metres short of it."""
        gap = self.distance(p, q) - stop_at
        if gap <= 0:
            return p
        return self.advance(p, q, min(metres, gap))

    def _toward_node(self, p: Position, node: int, metres: float) -> Position:
        x = p.x - metres if node == p.a else p.x + metres
        return self._on_edge(p.a, p.b, x)

    def _from_node(self, node: int, other: int, metres: float) -> Position:
        a, b = (node, other) if node < other else (other, node)
        x = metres if node == a else self.edge_len[(a, b)] - metres
        return self._on_edge(a, b, x)

    def _on_edge(self, a: int, b: int, x: float) -> Position:
        length = self.edge_len[(a, b)]
        if x <= 1e-9:
            return Position(a, a, 0.0)
        if x >= length - 1e-9:
            return Position(b, b, 0.0)
        return Position(a, b, x)

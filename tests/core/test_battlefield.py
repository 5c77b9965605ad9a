"""The battlefield: distances, movement along paths, reach, cover and visibility."""

from collections import Counter

import pytest

from sim import registry
from sim.core.battlefield import MELEE_REACH, Battlefield, Position
from sim.scenario.specs import MapSpec, NodeSpec


@pytest.fixture
def field():
    # road --15-- treeline --10-- ford --12-- road ; road --20-- hill
    nodes = (NodeSpec("road"), NodeSpec("treeline", cover="medium"),
             NodeSpec("ford", visibility="poor"), NodeSpec("hill", cover="light"))
    edges = (("road", "treeline", 15.0), ("ford", "treeline", 10.0), ("road", "ford", 12.0),
             ("road", "hill", 20.0))
    return Battlefield(MapSpec(nodes, edges))


def test_shortest_path_distances(field):
    road, tree, ford, hill = (field.node(n) for n in ("road", "treeline", "ford", "hill"))
    assert field.distance(road, tree) == 15
    assert field.distance(ford, hill) == 32  # via road
    assert field.distance(tree, hill) == 35
    assert field.distance(road, road) == 0


def test_advance_walks_along_the_path_and_stops_short(field):
    road, hill, ford = field.node("road"), field.node("hill"), field.node("ford")
    p = field.advance(ford, hill, 20)  # 12 m to road, then 8 m toward hill
    assert field.distance(p, hill) == pytest.approx(12)
    assert field.distance(p, field.node("road")) == pytest.approx(8)
    q = field.approach(road, ford, 10, stop_at=2)
    assert field.distance(q, ford) == pytest.approx(2)
    assert field.approach(q, ford, 10, stop_at=2) == q  # already in reach: stays


def test_two_walkers_on_one_edge(field):
    road, tree = field.node("road"), field.node("treeline")
    a = field.advance(road, tree, 5)
    b = field.advance(tree, road, 6)
    assert field.distance(a, b) == pytest.approx(4)
    assert field.advance(a, b, 10) == b  # never overshoots the target


def test_cover_and_visibility(field):
    assert field.cover(field.node("treeline")) == 2
    assert field.cover(field.node("hill")) == 1
    assert field.visibility(field.node("ford")) == 1
    on_edge = field.advance(field.node("road"), field.node("treeline"), 5)
    assert field.cover(on_edge) == 0  # open ground between nodes


def test_default_single_node_field():
    f = Battlefield(MapSpec((NodeSpec("field"),)))
    here = f.node("field")
    assert f.distance(here, here) == 0 <= MELEE_REACH  # two fighters there are in reach


def test_position_on_node():
    assert Position(1, 1, 0.0).at_node and not Position(0, 1, 3.0).at_node


# ---------------------------------------------------------------------------- large maps
def _chain(n: int, metres: float = 5.0):
    from sim.scenario.specs import MapSpec, NodeSpec

    nodes = tuple(NodeSpec(f"n{i}") for i in range(n))
    edges = tuple((f"n{i}", f"n{i + 1}", metres) for i in range(n - 1))
    return MapSpec(nodes=nodes, edges=edges)


def test_a_large_map_computes_only_the_rows_it_needs():
    import random as random_mod

    from sim.core.battlefield import ALL_PAIRS_UP_TO, Battlefield
    from sim.scenario.specs import MapSpec, NodeSpec

    n = ALL_PAIRS_UP_TO + 50
    rng = random_mod.Random(3)
    edges = [(f"v{i}", f"v{rng.randrange(i)}", float(rng.randint(1, 9))) for i in range(1, n)]
    edges += [(f"v{rng.randrange(n)}", f"v{rng.randrange(n)}", float(rng.randint(1, 9)))
              for _ in range(n)]
    edges = [e for e in edges if e[0] != e[1]]
    field = Battlefield(MapSpec(nodes=tuple(NodeSpec(f"v{i}") for i in range(n)),
                                edges=tuple(edges)))
    rows = field.dist._rows
    assert not any(rows)  # nothing computed up front
    assert field.dist[0][5] == field.dist[5][0]
    assert sum(row is not None for row in rows) == 2
    for _ in range(200):  # the next hops are the neighbours on a shortest path, all of them
        a, b = rng.randrange(n), rng.randrange(n)
        hops = field.next_hop[a][b]
        if a == b:
            assert hops == (a,)
            continue
        on_a_shortest = tuple(sorted(
            field.index[u] for u, data in field.graph[field.names[a]].items()
            if abs(field.dist[a][b] - (data["metres"] + field.dist[field.index[u]][b])) < 1e-9))
        assert hops == on_a_shortest


def test_a_4000_node_chain_fights_in_little_memory():
    import time
    import tracemalloc

    from sim.core.engine import Encounter
    from sim.scenario import parse

    spec = _chain(4000)
    doc = {"name": "Long road", "max_rounds": 30,
           "map": {"nodes": {n.name: None for n in spec.nodes},
                   "edges": [list(e) for e in spec.edges]},
           "sides": {"a": [{"name": "A", "at": "n0", "weapon": "bow", "skills": {"ranged": 3}}],
                     "b": [{"name": "B", "at": "n40", "weapon": "sword",
                            "skills": {"melee": 3}}]}}
    tracemalloc.start()
    start = time.process_time()
    scen = parse(doc)
    for seed in range(3):
        Encounter(scen, registry.default(), seed).run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 50e6, peak  # all-pairs tables: gigabytes
    assert time.process_time() - start < 15


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_45_by_45_grid_fights_in_little_memory(ruleset):
    """2,025 nodes: four archers and four swordsmen meet across the grid (measured: ~6 MB)."""
    import time
    import tracemalloc

    from sim.core.engine import Encounter
    from sim.scenario import parse

    n = 45
    nodes = {f"g{i}_{j}": None for i in range(n) for j in range(n)}
    edges = ([[f"g{i}_{j}", f"g{i}_{j + 1}", 5.0] for i in range(n) for j in range(n - 1)]
             + [[f"g{i}_{j}", f"g{i + 1}_{j}", 5.0] for i in range(n - 1) for j in range(n)])
    doc = {"name": "Grid", "max_rounds": 30, "map": {"nodes": nodes, "edges": edges},
           "sides": {"a": [{"name": "A", "count": 4, "at": "g0_0", "weapon": "bow",
                            "skills": {"ranged": 3}}],
                     "b": [{"name": "B", "count": 4, "at": "g6_6", "weapon": "sword",
                            "skills": {"melee": 3}}]}}
    tracemalloc.start()
    start = time.process_time()
    scen = parse(doc)
    for seed in range(3):
        Encounter(scen, ruleset, seed).run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 50e6, peak  # all-pairs tables of 2,025 nodes: hundreds of MB
    assert time.process_time() - start < 15


def test_distance_fast_paths_give_the_general_sum_to_the_bit(field):
    """Every case of ``distance`` equals ``du + dist[u][v] + dv`` over the ends, exactly.

    The fast paths (node to node, node to edge, edge to edge) exist for speed; a different
    order of additions could move a float by one bit and change a fight.
    """
    import random

    rng = random.Random(3)
    edges = list(field.edge_len.items())

    def somewhere() -> Position:
        if rng.random() < 0.3:
            i = rng.randrange(field.size)
            return Position(i, i, 0.0)
        (a, b), length = rng.choice(edges)
        return Position(a, b, rng.uniform(0.001, length - 0.001))

    def general(p: Position, q: Position) -> float:
        if p.a == p.b and q.a == q.b:
            return field.dist[p.a][q.a]
        if p.a == q.a and p.b == q.b:
            return abs(p.x - q.x)
        return min(du + field.dist[u][v] + dv
                   for u, du in field._ends(p) for v, dv in field._ends(q))

    for _ in range(5000):
        p, q = somewhere(), somewhere()
        assert field.measure(p, q) == general(p, q)
        assert field.distance(p, q) == general(p, q)  # measured, then kept
        assert field.distance(Position(*p), Position(*q)) == general(p, q)  # equal values


def test_kept_distances_start_over_at_the_cap(field, monkeypatch):
    """The memo of ``distance`` never holds more than ``KNOWN_PAIRS`` pairs (points on edges
    are unbounded), and what it answers after starting over is still the measure."""
    from sim.core import battlefield

    monkeypatch.setattr(battlefield, "KNOWN_PAIRS", 3)
    field.known.clear()
    (a, b), length = next(iter(field.edge_len.items()))
    here = Position(a, a, 0.0)
    points = [Position(a, b, length * k / 10) for k in range(1, 9)]
    for p in points:
        assert field.distance(here, p) == field.measure(here, p)
        assert len(field.known) <= 3
    assert field.distance(here, points[0]) == field.measure(here, points[0])


# --- no edge to whatever a file lists first: halfway points and tied routes ---------------
def _line(order):
    """west --20-- mist (very poor) --20-- east, its nodes listed in ``order``."""
    kinds = {"west": NodeSpec("west"), "mist": NodeSpec("mist", visibility="very_poor"),
             "east": NodeSpec("east")}
    return Battlefield(MapSpec(tuple(kinds[n] for n in order),
                               (("west", "mist", 20.0), ("mist", "east", 20.0))))


@pytest.mark.parametrize("order", [("mist", "west", "east"), ("west", "east", "mist")])
def test_halfway_along_an_edge_takes_the_poorer_visibility_whatever_the_node_order(order):
    """A 10 m move stops halfway along a 20 m edge, where the end listed first in the file
    used to give its visibility (clear in one order, very poor in the other)."""
    field = _line(order)
    halfway = field.advance(field.node("west"), field.node("mist"), 10.0)
    assert halfway.x == 10.0 and not halfway.at_node
    assert field.visibility(halfway).label == "very_poor"
    nearer_west = field.advance(field.node("west"), field.node("mist"), 9.5)
    nearer_mist = field.advance(field.node("west"), field.node("mist"), 10.5)
    assert field.visibility(nearer_west).label == "clear"
    assert field.visibility(nearer_mist).label == "very_poor"


def _diamond(nodes=("west", "north", "south", "east"), reverse_edges=False):
    """west to east by north or by south, 30 m either way round."""
    edges = [("west", "north", 30.0), ("north", "east", 30.0), ("west", "south", 30.0),
             ("south", "east", 30.0)]
    return Battlefield(MapSpec(tuple(NodeSpec(n) for n in nodes),
                               tuple(reversed(edges) if reverse_edges else edges)))


def _via(field, seed):
    """The node a walker from west toward east reaches after 30 m, drawn with ``seed``."""
    import random

    p = field.advance(field.node("west"), field.node("east"), 30.0, random.Random(seed))
    return field.names[p.a]


def test_tied_routes_are_all_kept_and_drawn_by_the_encounters_generator():
    """networkx keeps the route its search meets first (the file's edge order decided); every
    tied next hop is kept, and the walker draws among them."""
    field = _diamond()
    north, south, west, east = (field.index[n] for n in ("north", "south", "west", "east"))
    assert field.tied_hops(west, east) == tuple(sorted((north, south)))
    assert field.next_hop[west][east] == tuple(sorted((north, south)))
    assert field.next_hop[north][east] == (east,)
    ways = Counter(_via(field, seed) for seed in range(400))
    # binomial(400, 1/2): 200 +- 10; 150-250 is five standard deviations
    assert set(ways) == {"north", "south"} and 150 <= ways["north"] <= 250, ways
    # the edges' order changes nothing, seed for seed; the nodes' order, only which draw
    # goes which way
    flipped = _diamond(reverse_edges=True)
    assert all(_via(flipped, seed) == _via(field, seed) for seed in range(100))
    renamed = Counter(_via(_diamond(("east", "south", "north", "west")), seed)
                      for seed in range(400))
    assert 150 <= renamed["north"] <= 250, renamed


def test_a_walker_halfway_between_two_equal_ways_leaves_by_either_end():
    """On an edge with both ends equally short to the target, the end is drawn too (a strict
    comparison left by the end with the lower index, the node listed first)."""
    import random

    field = Battlefield(MapSpec((NodeSpec("a"), NodeSpec("b"), NodeSpec("c")),
                                (("a", "b", 20.0), ("a", "c", 10.0), ("b", "c", 10.0))))
    a, b, c = field.node("a"), field.node("b"), field.node("c")
    halfway = field.advance(a, b, 10.0)
    leaves = Counter(field.advance(halfway, c, 10.0, random.Random(seed)) for seed in range(400))
    assert set(leaves) == {a, b} and 150 <= leaves[a] <= 250, leaves
    assert field.advance(halfway, c, 10.0) == a  # no generator: the first by index
    assert field.advance(halfway, c, 20.0, random.Random(1)) == c  # either way, 20 m


def test_an_edge_too_short_to_measure_is_no_way_forward_both_ways():
    """A 1e-10 m edge beside the way: it was a tied hop from each of its ends, and a walk
    with no generator went back and forth on it for ever."""
    import random

    field = Battlefield(MapSpec(tuple(NodeSpec(f"n{i}") for i in range(3)),
                                (("n0", "n1", 1e-10), ("n1", "n2", 5.0), ("n0", "n2", 5.0))))
    assert field.next_hop[0][2] == (2,) and field.next_hop[1][2] == (2,)
    assert field.advance(field.node("n0"), field.node("n2"), 10.0) == field.node("n2")
    assert field.advance(field.node("n0"), field.node("n2"), 10.0,
                         random.Random(1)) == field.node("n2")


def test_a_walk_that_ends_where_routes_part_draws_nothing():
    """Arriving at a fork with no metres left: nothing to choose, so no draw is made."""
    import random

    field = Battlefield(MapSpec(tuple(NodeSpec(n) for n in ("s", "west", "north", "south",
                                                             "east")),
                                (("s", "west", 10.0), ("west", "north", 30.0),
                                 ("north", "east", 30.0), ("west", "south", 30.0),
                                 ("south", "east", 30.0))))
    rng, untouched = random.Random(1), random.Random(1)
    assert field.advance(field.node("s"), field.node("east"), 10.0, rng) == field.node("west")
    assert rng.getstate() == untouched.getstate()


def test_two_points_of_one_edge_measure_the_shorter_way_round():
    """A 28.8 m edge whose ends are 5 m apart by another way: 1 m and 27.8 m along it are
    7 m apart (1 + 5 + 1), not 26.8 (the edge was always walked)."""
    field = Battlefield(MapSpec((NodeSpec("a"), NodeSpec("b"), NodeSpec("c")),
                                (("a", "b", 28.8), ("a", "c", 2.5), ("c", "b", 2.5))))
    a, b = field.index["a"], field.index["b"]
    p, q = Position(a, b, 1.0), Position(a, b, 27.8)
    assert field.distance(p, q) == pytest.approx(7.0) and field.distance(q, p) == \
        field.distance(p, q)
    assert field.distance(p, Position(a, b, 3.0)) == pytest.approx(2.0)  # along is shorter
    there = field.advance(p, q, 3.0)  # out by a and on toward c
    assert field.distance(there, q) == pytest.approx(4.0)
    assert field.advance(p, q, 10.0) == q

"""The battlefield: distances, movement along paths, reach, cover and visibility."""

import pytest

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

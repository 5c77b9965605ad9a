"""No result may depend on the order of sides in a file.

Two identical bands on the symmetric mirror map (``scenarios/mirror.yaml``: swordsmen and
archers, cover on both sides): the side listed first must win as often as the side listed
second, under every registered ruleset and for the basic, aggressive, cautious and tactical
profiles. The interval is on ``P(first wins) - P(second wins)`` (draws are the third outcome,
``sim.results.stats.difference_ci``), 95% over all the intervals of a test at once
(Bonferroni), so that a fair engine passes with 95% confidence however many rulesets there
are. Before ties were broken by the encounter's generator, ORE's basic profile gave the
second side +0.157 here (z = 4.0 in 600 fights).
"""

from __future__ import annotations

import pytest
import yaml
from helpers import SCENARIOS

from sim import scenario as scenario_mod
from sim.core.engine import Encounter
from sim.core.seeds import encounter_seed
from sim.results.stats import bonferroni_z, difference_ci
from sim.rulesets import registry

PROFILES = ("basic", "aggressive", "cautious", "tactical")
RULESETS = registry.names()


def mirror(profile: str) -> scenario_mod.Scenario:
    """The mirror match with every member on ``profile``."""
    data = yaml.safe_load((SCENARIOS / "mirror.yaml").read_text())
    for members in data["sides"].values():
        for member in members:
            member["ai"] = profile
    return scenario_mod.parse(data, "mirror.yaml")


def first_and_second_wins(ruleset: str, profile: str, n: int, seed: int) -> tuple[int, int]:
    scen = mirror(profile)
    first, second = scen.side_names
    wins = {first: 0, second: 0, None: 0}
    for i in range(n):
        wins[Encounter(scen, ruleset, encounter_seed(seed, i)).run().winner] += 1
    return wins[first], wins[second]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_side_listed_first_has_no_edge(ruleset):
    """150 fights per profile, pooled: about 2 s a ruleset.

    A screen that a fair engine fails 5% of the time; the slow test below decides. Seed 11
    raised one such false alarm (OpenD6 with hit points, +0.127 [+0.024, +0.230], once its
    fighters declared at their own turns), where 18,000 fresh fights (seeds 13 to 15) gave
    -0.013 to +0.003, each within +-0.025: the seed moved on to 13.
    """
    n = 150
    a = b = 0
    for profile in PROFILES:
        first, second = first_and_second_wins(ruleset, profile, n, seed=13)
        a, b = a + first, b + second
    d, lo, hi = difference_ci(a, b, n * len(PROFILES), bonferroni_z(len(RULESETS)))
    assert lo <= 0 <= hi, f"{ruleset}: first - second = {d:+.3f} [{lo:+.3f}, {hi:+.3f}]"


@pytest.mark.slow
@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_side_listed_first_has_no_edge_under_any_profile(ruleset, profile):
    """2,000 fights for each profile apart; 95% over every ruleset and profile at once.

    One test per ruleset and profile, so that the test workers share them out.
    """
    n = 2000
    z = bonferroni_z(len(RULESETS) * len(PROFILES))
    first, second = first_and_second_wins(ruleset, profile, n, seed=12)
    d, lo, hi = difference_ci(first, second, n, z)
    assert lo <= 0 <= hi, f"{ruleset}/{profile}: {d:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def test_the_interval_can_fail():
    """The old ORE numbers (0.485 v 0.352 in 2,000 fights) are far outside the interval."""
    d, lo, hi = difference_ci(970, 704, 2000, bonferroni_z(len(RULESETS)))
    assert lo > 0


# --- the map's order: nodes and edges as a file lists them -----------------------------------
def _archers_and_raiders(nodes: dict, edges: list) -> scenario_mod.Scenario:
    """Two archers at east, three raiders walking at them from west."""
    return scenario_mod.parse({
        "name": "Map order", "max_rounds": 40, "map": {"nodes": nodes, "edges": edges},
        "sides": {
            "archers": [{"name": "Archer", "count": 2, "at": "east", "weapon": "bow",
                         "traits": {"dexterity": 4, "perception": 3}, "skills": {"ranged": 4}}],
            "raiders": [{"name": "Raider", "count": 3, "at": "west", "weapon": "sword",
                         "traits": {"strength": 3, "endurance": 2}, "skills": {"melee": 2}}]}},
        "map-order.yaml")


def _outcomes(scen: scenario_mod.Scenario, ruleset: str, n: int) -> list[tuple]:
    return [(r.winner, r.rounds, tuple(s.deaths for s in r.sides))
            for r in (Encounter(scen, ruleset, encounter_seed(5, i)).run() for i in range(n))]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_order_of_a_maps_nodes_changes_no_fight(ruleset):
    """A mist halfway between: the raiders stop halfway along its 20 m edges, where the node
    listed first gave its visibility (ORE: the raiders won 241 and 197 of 500 by the order)."""
    kinds = {"west": {}, "mist": {"visibility": "very_poor"}, "east": {}}
    edges = [["west", "mist", 20], ["mist", "east", 20]]
    first, last = ({k: kinds[k] for k in order} for order in (("mist", "west", "east"),
                                                             ("west", "east", "mist")))
    assert (_outcomes(_archers_and_raiders(first, edges), ruleset, 100)
            == _outcomes(_archers_and_raiders(last, edges), ruleset, 100))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_order_of_a_maps_edges_changes_no_fight(ruleset):
    """Two equal ways round, one through a mist: the way walked was the one whose edges come
    first (ORE: the raiders won 270 and 204 of 600 by the order); now it is drawn."""
    nodes = {"west": {}, "north": {"visibility": "very_poor"}, "south": {}, "east": {}}
    edges = [["west", "north", 30], ["north", "east", 30], ["west", "south", 30],
             ["south", "east", 30]]
    assert (_outcomes(_archers_and_raiders(nodes, edges), ruleset, 100)
            == _outcomes(_archers_and_raiders(nodes, edges[::-1]), ruleset, 100))


# --- every bundled file, as written and reversed (``bench/file_order.py``) -------------------
def test_a_reversed_file_lists_the_same_people_and_places_the_other_way_round():
    from bench.file_order import reversed_file

    data = yaml.safe_load((SCENARIOS / "ambush.yaml").read_text())
    flipped = reversed_file(data)
    assert list(flipped["sides"]) == list(data["sides"])[::-1]
    assert flipped["sides"]["heroes"] == data["sides"]["heroes"][::-1]
    assert list(flipped["map"]["nodes"]) == list(data["map"]["nodes"])[::-1]
    assert flipped["map"]["edges"][0] == [data["map"]["edges"][-1][1],
                                          data["map"]["edges"][-1][0],
                                          data["map"]["edges"][-1][2]]
    written, reversed_ = (scenario_mod.parse(d, "ambush.yaml") for d in (data, flipped))
    def people(s):
        return sorted(m.name for side in s.sides for m in side.members)

    assert people(written) == people(reversed_)


def test_the_file_order_comparison_can_fail():
    """A gap of 0.10 in a win rate over 1,000 fights each is z = 4.5, past the bound of the
    whole table; a proportion seen in under 10 fights is not compared."""
    from bench.file_order import welch_z

    z = welch_z([1] * 500 + [0] * 500, [1] * 400 + [0] * 600)
    assert z == pytest.approx(4.5, abs=0.05) and z > bonferroni_z(500)
    assert welch_z([1] * 9 + [0] * 991, [0] * 1000) is None
    assert welch_z([3.0] * 50, [3.0] * 50) is None


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_bundled_scenario_depends_on_its_files_order(ruleset):
    """Every bundled scenario under every ruleset, 500 fights as written and 500 with the
    file's sides, members, nodes and edges reversed: no statistic apart beyond the 95% bound
    over the whole table. One test per ruleset (so that the test workers share them out),
    each taking the bound for as many comparisons as its own times the rulesets.

    A coarse guard: at this size a gap of about 0.13 in an even win rate is past the bound.
    The biases fixed so far were smaller on the bundled files (none showed here); the exact
    tests above catch them, and ``bench/file_order.py -n 3000`` looks closer.
    """
    from bench.file_order import gaps, outcomes
    from sim.scenario.bundled import scenario_files

    files = scenario_files()
    # (seed 3 put one statistic at the bound, ORE's "Poacher 1 dies" z = -4.0; the same
    # seed at 1,000 fights gave -2.5 and seeds 5, 7, 11 gave +1.6, -1.2, -1.5: noise)
    found = gaps(files, [ruleset], 500, seed=5)
    # each compared something, but a scenario whose fights all end alike (ORE's last stand:
    # Hrolf's expert die and called shot take a goblin's head each round, none harms him)
    silent = {p.stem for p in files} - {g.scenario for g in found}
    for path in files:
        if path.stem in silent:
            alike = outcomes(scenario_mod.load(path), ruleset, 50, 5)
            assert all(len(set(v)) == 1 for v in alike.values()), path.stem
    z = bonferroni_z(len(found) * len(RULESETS))
    assert abs(found[0].z) <= z, [g for g in found if abs(g.z) > z]

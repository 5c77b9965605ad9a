"""The timing tools of ``bench/``: the worker's protocol and a paired comparison."""

from __future__ import annotations

from pathlib import Path

from helpers import any_ruleset

from bench.versus import Worker, compare
from sim import registry

ROOT = Path(__file__).resolve().parent.parent


def test_the_timer_worker_answers_each_command():
    w = Worker(ROOT)
    try:
        assert w.ask(f"warm {any_ruleset()} duel 3") == "ok"
        assert w.seconds(f"time {any_ruleset()} duel 3") > 0
        assert w.seconds("plain 10") > 0
    finally:
        w.close()
    assert w.proc.returncode == 0


def test_a_tree_paired_with_itself_is_about_as_fast():
    """The same code on both sides: the median ratio near 1, the quartiles ordered."""
    a, b = Worker(ROOT), Worker(ROOT)
    try:
        r = compare(a, b, any_ruleset(), "duel", pairs=5, seconds=0.05, warm=20)
    finally:
        a.close()
        b.close()
    q1, median, q3 = r["ratio"]
    assert q1 <= median <= q3
    assert 1 / 3 < median < 3  # loose: a shared machine; a broken pairing is far off
    assert r["n"] >= 20 and r["before"] > 0 and r["after"] > 0
    assert 0 < r["plain"][1] < 10


def test_the_layer_count_sorts_code_into_layers_and_counts_the_plain_loop():
    from bench import layers, plain_duel

    assert layers.layer(str(ROOT / "sim/rulesets/ore/ruleset.py")) == "rules"
    assert layers.layer(str(ROOT / "sim/rulesets/ore/sets.py")) == "dice"
    assert layers.layer(str(ROOT / "sim/core/engine.py")) == "engine round loop"
    assert layers.layer(str(ROOT / "bench/layers.py")) is None  # the tool's own: not counted
    rng = plain_duel.random.Random(1)
    counted = layers.count(lambda i: plain_duel.duel(rng), 3)
    plain = sum(c for (f, _, _), c in counted.items() if layers.layer(f) == "plain loop")
    assert plain > 100  # three duels of a few rounds each
    assert sum(counted.values()) - plain < 100  # the rest: this test's lambda


def test_the_package_split_sorts_functions_and_sums_to_the_whole():
    from bench import packages

    assert packages.package(str(ROOT / "sim/core/engine.py"), "run") == "sim/core"
    assert packages.package(str(ROOT / "sim/rulesets/ore/sets.py"), "f") == "sim/rulesets/ore"
    assert packages.package(str(ROOT / "sim/rulesets/dice.py"), "f") == "sim/rulesets (shared)"
    assert packages.package("/x/site-packages/simpy/core.py", "step") == "simpy"
    assert packages.package("~", "<method 'random' of '_random.Random' objects>") == "random"
    assert packages.package("~", "<built-in method builtins.len>") == "built-ins (C)"
    ruleset = any_ruleset()
    shares = packages.shares(ruleset, "duel", 3)
    folder = registry.get(ruleset).__module__.split(".")[2]  # sim/rulesets/<folder>/...
    assert abs(sum(shares.values()) - 1) < 1e-9
    assert shares[f"sim/rulesets/{folder}"] > 0 and shares["sim/core"] > 0


def test_the_answers_bench_times_the_parts_of_a_small_batch():
    from bench.gm_answers import one, parts
    from sim import scenario as scenario_mod
    from sim.batch.runner import BatchSpec

    spec = BatchSpec(scenario_mod.load(ROOT / "scenarios" / "duel.yaml"), any_ruleset(), 10)
    fights, added = parts(spec)
    assert fights > 0 and added > 0
    assert one(spec, True) > 0 and one(spec, False) > 0

"""Encounters per second, per ruleset and scenario, on one core and on all cores.

Logging is off, as in batches. Run from the repository root:

    python bench/throughput.py                       # every ruleset, duel/ambush/last_stand
    python bench/throughput.py --rulesets ore --scenarios duel -n 20000
    python bench/throughput.py --profile ore:duel    # cProfile's top entries instead

One-core figures time ``Encounter(...).run()`` in this process; all-core figures run a real
batch (``sim.batch.runner.run_batch`` without output) over a process pool.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim import scenario as scenario_mod  # noqa: E402
from sim.batch.runner import BatchSpec, run_batch  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.rulesets import registry  # noqa: E402


def one_core(scen, ruleset: str, n: int) -> float:
    """Encounters per second in this process."""
    for i in range(min(200, n)):  # warm up caches (battlefield, imports)
        Encounter(scen, ruleset, encounter_seed(0, i)).run()
    start = time.perf_counter()
    for i in range(n):
        Encounter(scen, ruleset, encounter_seed(1, i)).run()
    return n / (time.perf_counter() - start)


def all_cores(scen, ruleset: str, n: int, workers: int) -> float:
    """Encounters per second over a process pool of ``workers``."""
    start = time.perf_counter()
    run_batch(BatchSpec(scen, ruleset, n, seed=1, workers=workers), None)
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default=",".join(registry.names()))
    parser.add_argument("--scenarios", default="duel,ambush,last_stand")
    parser.add_argument("-n", type=int, default=10000, help="encounters per measurement")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-parallel", action="store_true", help="one core only")
    parser.add_argument("--profile", metavar="RULESET:SCENARIO")
    args = parser.parse_args()

    if args.profile:
        ruleset, name = args.profile.split(":")
        scen = scenario_mod.load(ROOT / "scenarios" / f"{name}.yaml")
        profiler = cProfile.Profile()
        profiler.enable()
        for i in range(args.n):
            Encounter(scen, ruleset, encounter_seed(1, i)).run()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return

    print(f"{'ruleset':<10} {'scenario':<11} {'1 core/s':>10} "
          f"{f'{args.workers} cores/s':>11} {'scaling':>8}")
    for ruleset in args.rulesets.split(","):
        for name in args.scenarios.split(","):
            scen = scenario_mod.load(ROOT / "scenarios" / f"{name}.yaml")
            single = one_core(scen, ruleset, args.n)
            if args.no_parallel or args.workers < 2:
                print(f"{ruleset:<10} {name:<11} {single:>10.0f}")
                continue
            multi = all_cores(scen, ruleset, args.n * args.workers, args.workers)
            print(f"{ruleset:<10} {name:<11} {single:>10.0f} {multi:>11.0f} "
                  f"{multi / single:>7.2f}x", flush=True)


if __name__ == "__main__":
    main()

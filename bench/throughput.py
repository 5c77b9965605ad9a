"""Encounters per CPU-second, per ruleset and bundled scenario, and the ratio to a plain loop.

CPU time (``time.process_time``, the median of ``--repeat`` timings): the machine may be
shared, and wall-clock time moves with the neighbours. Logging is off, as in batches. The
ratio column divides by ``bench/plain_duel.py``'s duels per CPU-second (the ORE duel's rules
with no engine, AI or map); the batch column adds what a batch does with each fight (its
row, the tally, the CSV text). Run from the repository root:

    python bench/throughput.py                        # every ruleset x every bundled scenario
    python bench/throughput.py --rulesets ore --scenarios duel -n 5000
    python bench/throughput.py --profile ore:duel     # cProfile's top entries instead
    python bench/throughput.py --parallel              # also a real batch on all cores (wall)
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import plain_duel  # noqa: E402
from sim import scenario as scenario_mod  # noqa: E402
from sim.batch.chunks import ENCOUNTERS, run_chunk_packed  # noqa: E402
from sim.batch.runner import BatchSpec, run_batch  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.rulesets import registry  # noqa: E402


def one_core(scen, ruleset: str, n: int, repeat: int = 3) -> tuple[float, float]:
    """Encounters per CPU-second in this process (median of ``repeat`` timings).

    Two rates: the fights alone (``Encounter.run``), and a batch's whole unit of work (the
    fights, their ``encounters.csv`` rows, the tally and the CSV text: ``run_chunk_packed``).
    """
    for i in range(min(200, n)):  # warm up caches (battlefield, imports)
        Encounter(scen, ruleset, encounter_seed(0, i)).run()
    fights, batch = [], []
    for _ in range(repeat):
        start = time.process_time()
        for i in range(n):
            Encounter(scen, ruleset, encounter_seed(1, i)).run()
        fights.append(n / (time.process_time() - start))
        start = time.process_time()
        run_chunk_packed(ENCOUNTERS, scen, ruleset, 1, 0, n)
        batch.append(n / (time.process_time() - start))
    return statistics.median(fights), statistics.median(batch)


def all_cores(scen, ruleset: str, n: int, workers: int) -> float:
    """Encounters per second over a process pool of ``workers``."""
    start = time.perf_counter()
    run_batch(BatchSpec(scen, ruleset, n, seed=1, workers=workers), None)
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default=",".join(registry.names()))
    parser.add_argument("--scenarios", default=",".join(
        p.stem for p in sorted((ROOT / "scenarios").glob("*.yaml"))))
    parser.add_argument("-n", type=int, default=2000, help="encounters per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="timings per measurement")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--parallel", action="store_true",
                        help="also a real batch over a process pool (wall clock)")
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

    plain = statistics.median(plain_duel.rate(20000, seed) for seed in range(args.repeat))
    print(f"plain-Python ORE duel: {plain:.0f} duels per CPU-second (bench/plain_duel.py)")
    print(f"{'ruleset':<10} {'scenario':<17} {'fights/CPU-s':>12} {'vs plain':>9} "
          f"{'batch/CPU-s':>12}" + (f" {f'{args.workers} cores/s':>11}" if args.parallel else ""))
    for ruleset in args.rulesets.split(","):
        for name in args.scenarios.split(","):
            scen = scenario_mod.load(ROOT / "scenarios" / f"{name}.yaml")
            single, batch = one_core(scen, ruleset, args.n, args.repeat)
            line = (f"{ruleset:<10} {name:<17} {single:>12.0f} {single / plain:>9.3f} "
                    f"{batch:>12.0f}")
            if args.parallel:
                multi = all_cores(scen, ruleset, args.n * args.workers, args.workers)
                line += f" {multi:>11.0f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()

"""Does the side listed first in a scenario file win more often? A table with intervals.

Two identical bands (``scenarios/mirror.yaml``, every member on one profile) fight ``n``
times under each ruleset and profile; the table gives how often the side listed first and
the side listed second win, and ``first - second`` with its 95% interval (Bonferroni over
the whole table, as in ``tests/rulesets/test_fairness.py``). Run from the repository root:

    python bench/fairness.py                  # every ruleset, basic/aggressive/tactical
    python bench/fairness.py -n 5000 --rulesets ore,bgrade --workers 2
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.tactics import mirror  # noqa: E402
from sim.batch.runner import BatchSpec, run_batch  # noqa: E402
from sim.results.stats import bonferroni_z, difference_ci  # noqa: E402
from sim.rulesets import registry  # noqa: E402


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2000, help="fights per ruleset and profile")
    parser.add_argument("--rulesets", default=",".join(registry.names()))
    parser.add_argument("--profiles", default="basic,aggressive,cautious,tactical")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    rulesets, profiles = args.rulesets.split(","), args.profiles.split(",")
    z = bonferroni_z(len(rulesets) * len(profiles))
    print(f"mirror match, {args.n} fights each; first - second with a 95% interval over "
          f"all {len(rulesets) * len(profiles)} rows (z = {z:.2f})")
    print(f"{'ruleset':10} {'profile':11} {'first':>6} {'second':>6} {'draw':>6}  "
          f"{'first - second':>16} {'interval':>18}")
    for ruleset in rulesets:
        for profile in profiles:
            scen = mirror(profile, profile)
            first, second = scen.side_names
            out = run_batch(BatchSpec(scen, ruleset, args.n, seed=args.seed,
                                      workers=args.workers), None)["outcomes"]
            d, lo, hi = difference_ci(out[first], out[second], args.n, z)
            flag = "" if lo <= 0 <= hi else "  <- side order matters"
            print(f"{ruleset:10} {profile:11} {out[first] / args.n:6.3f} "
                  f"{out[second] / args.n:6.3f} {out['draw'] / args.n:6.3f}  {d:+16.3f} "
                  f"[{lo:+.3f}, {hi:+.3f}]{flag}", flush=True)


if __name__ == "__main__":
    main()

"""How fast campaigns run: runs and fights per CPU-second, per ruleset, one core.

Runs the bundled campaign (``scenarios/campaigns/road_to_the_keep.yaml``) ``n`` times under
each ruleset in this process, timing with ``time.process_time`` (CPU time: the machine may
be shared), the median of ``--repeat`` timings. A run fights 1 to 3 stages, so fights per
CPU-second is the number to hold against ``bench/throughput.py``'s encounters per
CPU-second. Run from the repository root:

    python bench/campaign.py               # 300 runs per ruleset, median of 3
    python bench/campaign.py -n 1000 --rulesets ore,opencore
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.core.campaign import run_campaign  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.rulesets import registry  # noqa: E402
from sim.scenario.campaign import load_campaign  # noqa: E402

ROAD = ROOT / "scenarios" / "campaigns" / "road_to_the_keep.yaml"


def main() -> None:
    """Print one line per ruleset."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=300, help="runs per ruleset")
    parser.add_argument("--rulesets", default=",".join(registry.names()))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    camp = load_campaign(ROAD)
    print(f"{camp.name}: {args.n} runs per ruleset, CPU time, median of {args.repeat}")
    print(f"{'ruleset':10} {'runs/CPU-s':>11} {'fights/CPU-s':>13} {'stages/run':>11}")
    for name in args.rulesets.split(","):
        times, fights = [], 0
        for _ in range(args.repeat):
            start = time.process_time()
            fights = sum(len(run_campaign(camp, name, encounter_seed(1, i)).stages)
                         for i in range(args.n))
            times.append(time.process_time() - start)
        t = statistics.median(times)
        print(f"{name:10} {args.n / t:11.0f} {fights / t:13.0f} {fights / args.n:11.2f}")


if __name__ == "__main__":
    main()

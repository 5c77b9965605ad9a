"""Where a fight's CPU time goes, by package: cProfile's own time of each function, summed.

The question it answers is what compiling a part of the code can give at most: a part that
takes a share ``s`` of the time, made ``k`` times faster, makes the whole ``1 / (1 - s + s/k)``
times faster (Amdahl), so ``1 / (1 - s)`` is the ceiling. cProfile's hooks cost about the same
on every call, so calls in C (the dice's ``random()``, SimPy's heap) weigh more than they
do unprofiled: the shares are a guide, not a timing. From the repository root:

    python bench/packages.py ore:duel opend6:neutral_skirmish -n 300
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import pstats
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim import scenario as scenario_mod  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402

# (path fragment, package), first match wins; built-ins are matched by their name
PACKAGES = (
    ("sim/core/", "sim/core"), ("sim/ai/", "sim/ai"), ("sim/registry", "sim/core"),
    ("sim/rulesets/base", "sim/rulesets (shared)"), ("sim/rulesets/dice", "sim/rulesets (shared)"),
    ("sim/rulesets/templates", "sim/rulesets (shared)"), ("sim/scenario/", "sim/scenario"),
    ("/simpy/", "simpy"), ("/networkx/", "networkx"), ("/random.py", "random"),
)


def package(filename: str, function: str) -> str:
    """The package a profiled function belongs to."""
    if filename == "~":  # a built-in: its name says whose it is
        if "_random" in function:  # random() and getrandbits() of random.Random
            return "random"
        if "heapq" in function:
            return "simpy"
        return "built-ins (C)"
    for fragment, name in PACKAGES:
        if fragment in filename:
            return name
    if "sim/rulesets/" in filename:
        return "sim/rulesets/" + filename.split("sim/rulesets/")[1].split("/")[0]
    return "standard library, other"


def shares(ruleset: str, scenario: str, n: int) -> dict[str, float]:
    """Each package's share of cProfile's total own time over ``n`` encounters."""
    scen = scenario_mod.load(ROOT / "scenarios" / f"{scenario}.yaml")
    for i in range(min(n, 100)):  # caches and imports warm, as in a batch
        Encounter(scen, ruleset, encounter_seed(0, i)).run()
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(n):
        Encounter(scen, ruleset, encounter_seed(1, i)).run()
    profiler.disable()
    totals: collections.Counter[str] = collections.Counter()
    stats = pstats.Stats(profiler).stats
    for (filename, _, function), (_, _, own, _, _) in stats.items():
        totals[package(filename, function)] += own
    whole = sum(totals.values())
    return {name: t / whole for name, t in totals.most_common()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="+", metavar="RULESET:SCENARIO")
    parser.add_argument("-n", type=int, default=300, help="encounters profiled per case")
    args = parser.parse_args()
    for case in args.cases:
        ruleset, scenario = case.split(":")
        print(f"{case} ({args.n} encounters)")
        for name, share in shares(ruleset, scenario, args.n).items():
            print(f"  {name:<28} {share:6.1%}")


if __name__ == "__main__":
    main()

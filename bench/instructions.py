"""Machine instructions per encounter, counted by valgrind: for A/B decisions timing can't make.

CPU time moves by 5-15% on a shared machine; an instruction count does not move at all for
the same code and seed, so a 3% change shows. It runs each case twice under valgrind's
callgrind (``n`` encounters, then none, to take off the start-up and imports) and prints the
difference per encounter. Slow (about 20 s of start-up per run, and ~50x the encounters'
time); needs ``valgrind`` on the PATH. From the repository root:

    python bench/instructions.py ore:duel opend6:ambush -n 100
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = """
import sys
sys.path.insert(0, {root!r})
from sim import scenario
from sim.core.engine import Encounter
from sim.core.seeds import encounter_seed
scen = scenario.load({path!r})
Encounter(scen, {ruleset!r}, 0).run()  # imports and first-use caches, in both runs
for i in range({n}):
    Encounter(scen, {ruleset!r}, encounter_seed(1, i)).run()
"""


def instructions(ruleset: str, name: str, n: int) -> int:
    """Instructions callgrind counts for a process that runs ``n`` encounters."""
    code = RUN.format(root=str(ROOT), path=str(ROOT / "scenarios" / f"{name}.yaml"),
                      ruleset=ruleset, n=n)
    # a fixed hash seed: string hashing otherwise moves the count by ~0.5% run to run
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", code], capture_output=True, text=True,
                          env=env)
    counted = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or counted is None:
        sys.exit(f"{ruleset}:{name} failed under valgrind:\n{done.stderr[-2000:]}")
    return int(counted.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="+", metavar="RULESET:SCENARIO")
    parser.add_argument("-n", type=int, default=100, help="encounters per count")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench/instructions.py needs valgrind (apt install valgrind)")
    for case in args.cases:
        ruleset, name = case.split(":")
        per = (instructions(ruleset, name, args.n) - instructions(ruleset, name, 0)) / args.n
        print(f"{case:<28} {per:>12,.0f} instructions per encounter", flush=True)


if __name__ == "__main__":
    main()

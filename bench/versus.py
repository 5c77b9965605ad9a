"""Encounters per CPU-second of two checkouts, measured in turns: a before/after table.

CPU time on a shared machine moves with the neighbours' load, so two trees timed an hour
apart are not comparable. This runs each tree's own ``bench/throughput.py`` in turn, round
after round (old, new, old, new, ...), keeps each case's best rate per tree, and prints
both with their ratio, and the after tree's rate over the plain loop's (``bench/plain_duel.py``,
timed in the same runs). From the repository root, with the older code checked out beside it
(``git worktree add ../before <commit>``):

    python bench/versus.py ../before --rulesets ore,opend6 --scenarios duel,mirror -n 300
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rates(tree: Path, rulesets: str, scenarios: str, n: int) -> dict[tuple[str, str], float]:
    """``(ruleset, scenario) -> fights per CPU-second`` from one run of the tree's bench."""
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / "throughput.py"), "--rulesets", rulesets,
         "--scenarios", scenarios, "-n", str(n), "--repeat", "3"],
        capture_output=True, text=True, cwd=tree, check=True)
    found = {}
    for line in done.stdout.splitlines():
        words = line.split()
        if line.startswith("plain-Python ORE duel:"):  # the yardstick, measured in turn too
            found[("plain", "duel")] = float(words[3])
            continue
        # "ruleset scenario fights/CPU-s vs-plain [batch/CPU-s]"; the header and the plain
        # loop's line do not parse as a number in the third place
        if len(words) >= 4:
            try:
                found[(words[0], words[1])] = float(words[2])
            except ValueError:
                continue
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the older checkout (with bench/throughput.py)")
    parser.add_argument("--rulesets", default="ore,bgrade,opencore,opend6,opend6-hp")
    parser.add_argument("--scenarios", default="duel,neutral_skirmish,mirror")
    parser.add_argument("-n", type=int, default=300, help="encounters per timing")
    parser.add_argument("--rounds", type=int, default=3, help="turns of both trees")
    args = parser.parse_args()
    best: dict[str, dict[tuple[str, str], float]] = {"before": {}, "after": {}}
    for _ in range(args.rounds):
        for name, tree in (("before", args.before.resolve()), ("after", ROOT)):
            for case, rate in rates(tree, args.rulesets, args.scenarios, args.n).items():
                best[name][case] = max(rate, best[name].get(case, 0.0))
    plain = best["after"].pop(("plain", "duel"), None)
    best["before"].pop(("plain", "duel"), None)
    print(f"{'ruleset':<10} {'scenario':<17} {'before':>8} {'after':>8} {'faster':>7}"
          + (f" {'after/plain':>11}" if plain else ""))
    for case, after in best["after"].items():
        before = best["before"].get(case)
        if before:
            print(f"{case[0]:<10} {case[1]:<17} {before:>8.0f} {after:>8.0f} "
                  f"{after / before:>6.2f}x" + (f" {after / plain:>11.3f}" if plain else ""))
    if plain:
        print(f"plain loop (bench/plain_duel.py, the after tree's runs): {plain:.0f} duels "
              "per CPU-second")


if __name__ == "__main__":
    main()

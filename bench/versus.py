"""Encounters per CPU-second of two checkouts, timed in pairs: a before/after table.

CPU time on a shared machine moves with the neighbours' load by more than a change worth
measuring: the same code, timed twice ten minutes apart, can differ by 30%. So the two trees
are never timed apart. Each runs in a worker of its own (``bench/timer.py``, warm for the
whole comparison), and every case is timed in pairs, one tree right after the other (which
goes first alternates), each timing a fraction of a second of the same seeds. A pair's two
timings see the same load; the median of the pairs' ratios, with its quartiles, is the
answer, and a pair caught in a burst of load moves the quartiles, not the median. The best
rate of each tree is printed too.

The after tree's rate over the plain loop's (``bench/plain_duel.py``) is paired the same
way: the plain loop is timed in the after tree's worker right after each of its timings.
From the repository root, with the older code checked out beside it
(``git worktree add ../before <commit>``):

    python bench/versus.py ../before --rulesets ore,opend6 --scenarios duel,mirror
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAIN_DUELS = 2000  # a plain-loop timing: about a tenth of a second


class Worker:
    """One tree's ``bench/timer.py``, asked for timings over a pipe."""

    def __init__(self, tree: Path):
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "timer.py"), str(tree)], cwd=tree,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, command: str) -> str:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise SystemExit(f"the worker for {command!r} stopped (see its error above)")
        return answer.strip()

    def seconds(self, command: str) -> float:
        return float(self.ask(command))

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def quartiles(values: list[float]) -> tuple[float, float, float]:
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, median, q3


def compare(before: Worker, after: Worker, ruleset: str, scenario: str, pairs: int,
            seconds: float, warm: int = 200) -> dict:
    """One case: ``pairs`` paired timings; rates, the ratios' quartiles, after over plain.

    Both workers first fight ``warm`` encounters (imports, caches and memos filled).
    """
    case = f"{ruleset} {scenario}"
    for w in (before, after):
        w.ask(f"warm {case} {warm}")
    # encounters per timing: about ``seconds`` of the after tree's CPU time
    n = max(20, round(seconds * 40 / after.seconds(f"time {case} 40")))
    rates = {"before": [], "after": []}
    ratios, over_plain = [], []
    for k in range(pairs):
        order = (("before", before), ("after", after))
        taken = {}
        for name, w in (order if k % 2 == 0 else order[::-1]):
            taken[name] = w.seconds(f"time {case} {n}")
        plain = PLAIN_DUELS / after.seconds(f"plain {PLAIN_DUELS}")
        for name, t in taken.items():
            rates[name].append(n / t)
        ratios.append(taken["before"] / taken["after"])
        over_plain.append(n / taken["after"] / plain)
    return {"n": n, "before": max(rates["before"]), "after": max(rates["after"]),
            "ratio": quartiles(ratios), "plain": quartiles(over_plain)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the older checkout")
    parser.add_argument("--rulesets", default="ore,bgrade,opencore,opend6,opend6-hp")
    parser.add_argument("--scenarios", default="duel,neutral_skirmish,mirror")
    parser.add_argument("--pairs", type=int, default=15, help="paired timings per case")
    parser.add_argument("--seconds", type=float, default=0.3,
                        help="CPU seconds of one timing of the after tree (about)")
    args = parser.parse_args()
    before, after = Worker(args.before.resolve()), Worker(ROOT)
    print(f"{'ruleset':<10} {'scenario':<17} {'n':>5} {'before':>8} {'after':>8} "
          f"{'faster: median [quartiles]':>27} {'after/plain':>20}", flush=True)
    try:
        for ruleset in args.rulesets.split(","):
            for scenario in args.scenarios.split(","):
                r = compare(before, after, ruleset, scenario, args.pairs, args.seconds)
                q1, m, q3 = r["ratio"]
                p1, pm, p3 = r["plain"]
                print(f"{ruleset:<10} {scenario:<17} {r['n']:>5} {r['before']:>8.0f} "
                      f"{r['after']:>8.0f} {m:>9.2f}x [{q1:.2f}-{q3:.2f}]"
                      f"{'':>7} {pm:>7.3f} [{p1:.3f}-{p3:.3f}]", flush=True)
    finally:
        before.close()
        after.close()
    print("rates: the best timing of each tree, encounters per CPU-second; faster and "
          "after/plain: the median of the paired timings' ratios, and their quartiles")


if __name__ == "__main__":
    main()

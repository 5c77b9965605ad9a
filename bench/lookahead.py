"""``lookahead`` against ``tactical`` in a mirror duel and a mirror 2 v 2, under every ruleset.

The table of ``docs/play.md``: each fight, one side plays ``lookahead`` and the other
``tactical``; the sides swap every other fight (the map is symmetric, so standing west does
no work). Each cell: lookahead's share of the decided fights, with its 95% interval, the
fights drawn, the CPU seconds a fight, and the baseline: the same fights (seeds and sides)
with ``tactical`` on both sides, the share of the side lookahead would have played. Run
from the repository root:

    python bench/lookahead.py -n 100
    python bench/lookahead.py -n 40 --rulesets ore --budget 200 --horizon 4
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.ai import lookahead  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.results.stats import wilson  # noqa: E402
from sim.rulesets import registry  # noqa: E402
from sim.scenario.loader import load  # noqa: E402
from sim.scenario.specs import Doctrine, Scenario  # noqa: E402

SCENARIOS = ("tests/data/mirror_duel.yaml", "tests/data/mirror_2v2.yaml")


def pitted(scenario: Scenario, looking: int, budget: int | None,
           horizon: int | None, profile: str = "lookahead") -> Scenario:
    """The scenario with side ``looking`` (0 or 1) on ``profile``, the other ``tactical``."""
    sides = []
    for k, side in enumerate(scenario.sides):
        doctrine = (Doctrine(profile, budget=budget, horizon=horizon) if k == looking
                    else Doctrine("tactical"))
        sides.append(replace(side, members=tuple(replace(m, ai=doctrine.profile,
                                                         doctrine=doctrine)
                                                 for m in side.members)))
    return replace(scenario, sides=tuple(sides))


def cell(path: str, ruleset: str, n: int, budget: int | None,
         horizon: int | None, profile: str = "lookahead") -> tuple[int, int, int, float]:
    """``profile``'s wins against tactical, its losses, the draws, the CPU seconds a fight."""
    base = load(path)
    won = lost = drawn = 0
    start = time.process_time()
    for i in range(n):
        looking = i % 2
        scenario = pitted(base, looking, budget, horizon, profile)
        winner = Encounter(scenario, ruleset, encounter_seed(7, i)).run().winner
        if winner is None:
            drawn += 1
        elif winner == scenario.sides[looking].name:
            won += 1
        else:
            lost += 1
    return won, lost, drawn, (time.process_time() - start) / n


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", default=list(SCENARIOS))
    parser.add_argument("-n", type=int, default=100, help="fights a cell")
    parser.add_argument("--rulesets", default=",".join(registry.names()))
    parser.add_argument("--budget", type=int)
    parser.add_argument("--horizon", type=int)
    parser.add_argument("--margin", type=float, help="override lookahead.MARGIN")
    args = parser.parse_args()
    if args.margin is not None:
        lookahead.MARGIN = args.margin
    print(f"lookahead (budget {args.budget or lookahead.BUDGET}, horizon "
          f"{args.horizon or lookahead.HORIZON}, margin {lookahead.MARGIN}) vs tactical, "
          f"{args.n} fights a cell")
    print("| scenario | ruleset | lookahead wins (decided) | 95% | draws | CPU-s a fight | "
          "baseline |")
    print("|---|---|---|---|---|---|---|")
    for path in args.scenarios:
        for ruleset in args.rulesets.split(","):
            won, lost, drawn, cpu = cell(path, ruleset, args.n, args.budget, args.horizon)
            low, high = wilson(won, won + lost)
            share = won / (won + lost) if won + lost else 0.0
            b_won, b_lost, _, _ = cell(path, ruleset, args.n, None, None, "tactical")
            base = b_won / (b_won + b_lost) if b_won + b_lost else 0.0
            print(f"| {Path(path).stem} | {ruleset} | {share:.0%} ({won}/{won + lost}) | "
                  f"{low:.0%}-{high:.0%} | {drawn} | {cpu:.2f} | {base:.0%} |", flush=True)


if __name__ == "__main__":
    main()

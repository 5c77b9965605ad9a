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
PROGRESS = 0  # print the count so far every this many fights (--progress)


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
         horizon: int | None, profile: str = "lookahead",
         skip: int = 0) -> tuple[int, int, int, float]:
    """``profile``'s wins against tactical, its losses, the draws, the CPU seconds a fight.

    Fights ``skip`` to ``n`` (a long cell shared by several processes).
    """
    base = load(path)
    won = lost = drawn = 0
    start = time.process_time()
    for i in range(skip, n):
        looking = i % 2
        scenario = pitted(base, looking, budget, horizon, profile)
        winner = Encounter(scenario, ruleset, encounter_seed(7, i)).run().winner
        if winner is None:
            drawn += 1
        elif winner == scenario.sides[looking].name:
            won += 1
        else:
            lost += 1
        if PROGRESS and (i + 1) % PROGRESS == 0:  # a long cell's count so far, on stderr
            print(f"  {Path(path).stem} {ruleset} {profile}: {i + 1} fights, won {won}, "
                  f"lost {lost}, drawn {drawn}, "
                  f"{(time.process_time() - start) / (i + 1 - skip):.2f} CPU-s a fight",
                  file=sys.stderr, flush=True)
    return won, lost, drawn, (time.process_time() - start) / max(1, n - skip)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", default=list(SCENARIOS))
    parser.add_argument("-n", type=int, default=100, help="fights a cell")
    parser.add_argument("--rulesets", default=",".join(registry.names()))
    parser.add_argument("--budget", type=int)
    parser.add_argument("--horizon", type=int)
    parser.add_argument("--margin", type=float, help="override lookahead.MARGIN")
    parser.add_argument("--first", type=float, help="override lookahead.FIRST")
    parser.add_argument("--screen", type=float, help="override lookahead.SCREEN")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the tactical-vs-tactical baseline of each cell")
    parser.add_argument("--skip", type=int, default=0,
                        help="start at this fight (share a long cell between processes)")
    parser.add_argument("--progress", type=int, default=0,
                        help="print a cell's count so far every N fights (stderr)")
    args = parser.parse_args()
    global PROGRESS
    PROGRESS = args.progress
    for name in ("margin", "first", "screen"):
        if getattr(args, name) is not None:
            setattr(lookahead, name.upper(), getattr(args, name))
    print(f"lookahead (budget {args.budget or lookahead.BUDGET}, horizon "
          f"{args.horizon or lookahead.HORIZON}, margin {lookahead.MARGIN}, first "
          f"{lookahead.FIRST}, screen {lookahead.SCREEN}) vs tactical, "
          f"{args.n} fights a cell")
    print("| scenario | ruleset | lookahead wins (decided) | 95% | draws | CPU-s a fight | "
          "baseline |")
    print("|---|---|---|---|---|---|---|")
    for path in args.scenarios:
        for ruleset in args.rulesets.split(","):
            won, lost, drawn, cpu = cell(path, ruleset, args.n, args.budget, args.horizon,
                                         skip=args.skip)
            low, high = wilson(won, won + lost)
            share = won / (won + lost) if won + lost else 0.0
            base = "-"
            if not args.no_baseline:
                b_won, b_lost, _, _ = cell(path, ruleset, args.n, None, None, "tactical",
                                           skip=args.skip)
                base = f"{b_won / (b_won + b_lost):.0%}" if b_won + b_lost else "all drawn"
            print(f"| {Path(path).stem} | {ruleset} | {share:.0%} ({won}/{won + lost}) | "
                  f"{low:.0%}-{high:.0%} | {drawn} | {cpu:.2f} | {base} |", flush=True)


if __name__ == "__main__":
    main()

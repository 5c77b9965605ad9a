"""What the game master's answers cost a batch: examples, spread and coverage (issue 49).

Runs the same batch (in this process, one worker) two ways, alternating, and reports the
median ratio of their CPU times (``time.process_time``):

- **with**: as ``fray batch`` runs it: each row folded into the first side's results
  (``sim.results.examples``), the five example fights fought again for their stories
  (``sim.batch.examples``) and the coverage block (``sim.batch.coverage``);
- **without**: the same rows and tally, with the results fold switched off and the
  summary taken straight from the tally (no stories, no coverage).

On a shared machine a whole batch's time varies by several percent from run to run, so it
also times the three parts alone (folding the batch's rows into the results, telling the
examples, the coverage block) against the batch: the steadier measure of what they add.

``python bench/gm_answers.py [--scenario ambush] [--ruleset NAME] [-n 1000] [--pairs 5]``.
The promise (docs/performance.md): at most 5% more CPU time.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from sim import scenario as scenario_mod
from sim.batch import chunks, examples
from sim.batch.coverage import coverage_block
from sim.batch.runner import BatchSpec, run_tally, summary_of

ROOT = Path(__file__).resolve().parent.parent


def _bare_tally(*args: Any) -> Any:
    tally = chunks.new_tally(*args)
    tally.results = None
    return tally


def one(spec: BatchSpec, answers: bool) -> float:
    """CPU seconds of one batch and its summary, with or without the answers."""
    start = time.process_time()
    if answers:
        summary_of(spec, run_tally(spec, None))
    else:
        bare = BatchSpec(spec.scenario, spec.ruleset, spec.n, spec.seed,
                         work=chunks.Work(**{**chunks.ENCOUNTERS.__dict__,
                                             "new_tally": _bare_tally, "coverage": None}))
        run_tally(bare, None).summary()
    return time.process_time() - start


def parts(spec: BatchSpec) -> tuple[float, float]:
    """CPU seconds of the batch's fights and rows, and of the three answers' parts alone."""
    start = time.process_time()
    rows = chunks.run_chunk(spec.scenario, spec.ruleset, spec.seed, 0, spec.n)
    fights = time.process_time() - start
    tally = chunks.new_tally(spec.scenario, spec.ruleset, spec.seed)
    assert tally.results is not None
    fold = type(tally.results)(tally.results.side, tally.results.others,
                               tally.results.members)
    start = time.process_time()
    for row in rows:
        fold.add(row)
    picked = fold.examples()
    fold.spread(tally.rounds)
    examples.told(spec.scenario, spec.ruleset, picked)
    coverage_block(spec.scenario, spec.ruleset)
    return fights, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="ambush")
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    scen = scenario_mod.load(ROOT / "scenarios" / f"{args.scenario}.yaml")
    spec = BatchSpec(scen, args.ruleset or scen.ruleset, args.n, seed=1)
    one(spec, True)  # warm: imports, caches
    ratios = []
    for k in range(args.pairs):
        order = (True, False) if k % 2 == 0 else (False, True)
        times = {answers: one(spec, answers) for answers in order}
        ratios.append(times[True] / times[False])
        print(f"pair {k + 1}: with {times[True]:.2f} s, without {times[False]:.2f} s, "
              f"ratio {ratios[-1]:.3f}", flush=True)
    print(f"{args.scenario} under {spec.ruleset}, {args.n} fights: median ratio "
          f"{statistics.median(ratios):.3f} (+{statistics.median(ratios) - 1:.1%})")
    fights, added = parts(spec)
    print(f"the parts alone: {added:.3f} s against {fights:.2f} s of fights "
          f"(+{added / fights:.2%})")


if __name__ == "__main__":
    main()

"""Python bytecodes per encounter, by layer of the code, beside the plain loop's per duel.

Where a fight's interpreter work goes, counted rather than timed: a tracer counts every
bytecode executed (``sys.settrace`` with opcode events), grouped by the file that runs it:
the rules, the AI, the engine's round loop, SimPy, the dice, the map, the results. The count
does not move with the machine's load. The same tracer counts ``bench/plain_duel.py``'s
duels, so the two compare. A bytecode is not a fixed cost (a call or an allocation costs
more than an addition), so the ratio of counts is a bound on what the work allows, not a
timing. Slow: about 50 times the encounters' own time. From the repository root:

    python bench/layers.py ore:duel -n 200
    python bench/layers.py bgrade:mirror --functions 20   # the costliest functions too
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import plain_duel  # noqa: E402
from sim import scenario as scenario_mod  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402

# (file path prefix, layer), first match wins
LAYERS = (
    ("sim/core/engine", "engine round loop"), ("sim/core/battlefield", "map"),
    ("sim/core/outcome", "results"), ("sim/core", "core, other"), ("sim/ai", "AI"),
    ("sim/rulesets/dice", "dice"), ("sim/rulesets/ore/sets", "dice"),
    ("sim/rulesets/base", "rules"), ("sim/rulesets", "rules"), ("sim/scenario", "scenario"),
    ("bench/plain_duel", "plain loop"), ("bench/layers", None),  # None: this tracer's own
)


def layer(filename: str) -> str | None:
    """The layer a code object's file belongs to (None: this tool's own, not counted)."""
    name = filename.replace(str(ROOT) + "/", "")
    for prefix, label in LAYERS:
        if name.startswith(prefix):
            return label
    if "simpy" in name:
        return "SimPy"
    return "standard library and generated code" if name.startswith(("/", "<")) else name


def count(run, n: int) -> collections.Counter:
    """Bytecodes per (file, first line, function) over ``run()`` called ``n`` times."""
    counts: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            code = frame.f_code
            counts[(code.co_filename, code.co_firstlineno, code.co_name)] += 1
        return tracer

    sys.settrace(tracer)
    try:
        for i in range(n):
            run(i)
    finally:
        sys.settrace(None)
    return collections.Counter({k: c for k, c in counts.items() if layer(k[0]) is not None})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", help="RULESET:SCENARIO, e.g. ore:duel")
    parser.add_argument("-n", type=int, default=200, help="encounters counted")
    parser.add_argument("--warm", type=int, default=3000,
                        help="encounters fought first, untraced (memos filled as in a batch)")
    parser.add_argument("--functions", type=int, default=0, help="also the costliest N")
    args = parser.parse_args()
    ruleset, name = args.case.split(":")
    scen = scenario_mod.load(ROOT / "scenarios" / f"{name}.yaml")
    for i in range(args.warm):
        Encounter(scen, ruleset, encounter_seed(0, i)).run()
    fray = count(lambda i: Encounter(scen, ruleset, encounter_seed(1, i)).run(), args.n)
    rng = random.Random(1)
    plain = count(lambda i: plain_duel.duel(rng), args.n)
    total = sum(fray.values())
    by_layer: collections.Counter = collections.Counter()
    for (filename, _, _), c in fray.items():
        by_layer[layer(filename)] += c
    print(f"{args.case}: {total / args.n:,.0f} bytecodes per encounter; the plain loop "
          f"(bench/plain_duel.py) {sum(plain.values()) / args.n:,.0f} per duel")
    for label, c in by_layer.most_common():
        print(f"  {label:<38} {c / args.n:>9,.0f} {100 * c / total:>5.1f}%")
    if args.functions:
        print(f"the costliest {args.functions} functions:")
        for (filename, line, func), c in fray.most_common(args.functions):
            where = filename.replace(str(ROOT) + "/", "")
            print(f"  {c / args.n:>9,.0f} {100 * c / total:>5.1f}%  {where}:{line} {func}")


if __name__ == "__main__":
    main()

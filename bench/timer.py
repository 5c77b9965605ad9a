"""A timing worker for ``bench/versus.py``: one tree's fights, timed on request.

Run as ``python bench/timer.py TREE``: imports ``sim`` from ``TREE`` (any checkout with
``Encounter(scenario, ruleset, seed).run()``), then reads commands from standard input,
one a line, and answers each with one line:

- ``warm RULESET SCENARIO N``: load the scenario (kept), fight N encounters; answers ``ok``;
- ``time RULESET SCENARIO N``: the CPU seconds (``time.process_time``) of N encounters,
  seeds ``encounter_seed(1, 0..N-1)``, the same every time;
- ``plain N``: the CPU seconds of N duels of ``bench/plain_duel.py`` (seed 1).

A worker lives for a whole comparison, so its imports, scenarios and caches are warm, and
its timings are short: the two trees' timings alternate within seconds of each other.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    tree = Path(sys.argv[1]).resolve()
    sys.path.insert(0, str(tree))
    from sim import scenario as scenario_mod
    from sim.core.engine import Encounter
    from sim.core.seeds import encounter_seed

    sys.path.insert(0, str(HERE))
    import plain_duel

    loaded = {}
    for line in sys.stdin:
        words = line.split()
        if words[0] == "plain":
            rng = plain_duel.random.Random(1)
            start = time.process_time()
            for _ in range(int(words[1])):
                plain_duel.duel(rng)
            print(time.process_time() - start, flush=True)
            continue
        what, ruleset, name, n = words[0], words[1], words[2], int(words[3])
        if name not in loaded:
            loaded[name] = scenario_mod.load(tree / "scenarios" / f"{name}.yaml")
        scen = loaded[name]
        start = time.process_time()
        for i in range(n):
            Encounter(scen, ruleset, encounter_seed(0 if what == "warm" else 1, i)).run()
        print("ok" if what == "warm" else time.process_time() - start, flush=True)


if __name__ == "__main__":
    main()

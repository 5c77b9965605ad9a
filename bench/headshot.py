"""ORE's called head shot against a plain attack, by paired rollouts (the ``?`` engine).

For each bundled scenario under ORE and each fighter whose tactical first declaration is a
called head shot (its side played by ``tactical``), weighs that declaration against a plain
attack on the same foe as ``fray advise`` does (``bench/regret.py``): ``-n`` fights run to
the declaration, each line taken there, played on with the same fresh dice. Prints the
difference in the side's wins, the fighter's survival, and their 95% paired intervals.
The exact odds of the two attacks are checked by ``tests/rulesets/ore/test_called_head.py``.
Run from the repository root:

    python bench/headshot.py -n 400
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.regret import with_profile  # noqa: E402
from sim.ai import menu as menus  # noqa: E402
from sim.ai import profiles, rollout  # noqa: E402
from sim.core.actions import Attack  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.results.stats import paired_difference  # noqa: E402
from sim.scenario.loader import load  # noqa: E402

ORE = "ore"


class _Reached(Exception):
    def __init__(self, keys: tuple[str, str] | None):
        self.keys = keys


def called_first(scenario: Any, seed: int, name: str) -> tuple[str, str] | None:
    """The keys of ``name``'s first declaration and of the plain attack, if it calls the head."""
    def mind(enc: Encounter, c: Any) -> list:
        with rollout.aside(enc, c):
            chosen = profiles.decide(enc, c)
            menu = menus.options(enc, c)
        first = chosen[0] if len(chosen) == 1 else None
        if type(first) is not Attack or first.called != "head":
            raise _Reached(None)
        mine = next((o.key for o in menu if list(o.intents) == chosen), None)
        raise _Reached(None if mine is None else (mine, f"attack {first.target.name}"))

    try:
        Encounter(scenario, ORE, encounter_seed(seed, 0), minds={name: mind}).run()
    except _Reached as reached:
        return reached.keys
    return None


def main() -> None:
    """One row a fighter whose first declaration is a called head shot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=400, help="paired rollouts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenarios", default="",
                        help="comma-separated stems (default: every bundled scenario)")
    args = parser.parse_args()
    print(f"Called head shot less plain attack, {args.n} paired rollouts, seed {args.seed}\n")
    print("| scenario | fighter | called: side wins | plain: side wins | difference | "
          "fighter alive, difference |")
    print("|---|---|---|---|---|---|")
    wanted = [s for s in args.scenarios.split(",") if s]
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        if wanted and path.stem not in wanted:
            continue
        base = load(path)
        for side in base.sides:
            scenario = with_profile(base, side.name, "tactical")
            for m in side.members:
                keys = called_first(scenario, args.seed, m.name)
                if keys is None:
                    continue
                called, plain = (rollout.Choice(keys[0], keys[0], True, None),
                                 rollout.Choice(keys[1], keys[1], False, None))
                moment = rollout.Moment(Encounter, scenario, ORE, args.seed, m.name, 0, 1,
                                        varied=True)
                found = {k: [rollout.play_out(moment, ch, i) for i in range(args.n)]
                         for k, ch in (("called", called), ("plain", plain))}
                pairs = [(a, b) for a, b in zip(found["called"], found["plain"], strict=True)
                         if a is not None and b is not None]
                cells = []
                for attr in ("won", "alive"):
                    only_a = sum(1 for a, b in pairs if getattr(a, attr) and not getattr(b, attr))
                    only_b = sum(1 for a, b in pairs if getattr(b, attr) and not getattr(a, attr))
                    d, lo, hi = paired_difference(only_a, only_b, len(pairs))
                    cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]")
                share = {k: sum(o.won for o in v if o) / max(1, sum(o is not None for o in v))
                         for k, v in found.items()}
                print(f"| {path.stem} | {m.name} | {share['called']:.3f} | {share['plain']:.3f} "
                      f"| {cells[0]} | {cells[1]} |", flush=True)
                break  # one fighter of each side


if __name__ == "__main__":
    main()

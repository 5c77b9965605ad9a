"""What a player's ``?`` costs: every line of a fighter's menu weighed by ``-n`` rollouts.

For each ruleset, plays the scenario (tactical and its own profiles on every side) and, at
the first declaration of ``--as`` in each round of ``--rounds``, weighs its menu as ``fray
play``'s ``?`` does (``sim.ai.whatif.weigh``, ``--workers`` forked workers), timing the wall
clock and the CPU time of this process and its workers. A ``?`` later in the fight costs
more: each rollout replays the fight up to the moment (``sim.ai.rollout``). ``--groups``
also times a ``?`` in each group's second menu (its lines and the profile's choice). Run
from the repository root:

    python bench/whatif.py scenarios/neutral_skirmish.yaml --as Spearman --rounds 1,4,8
    python bench/whatif.py scenarios/neutral_skirmish.yaml --as Sergeant --rounds 2 --groups
    python bench/whatif.py scenarios/ambush.yaml --as Kestrel --advise --workers 1
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.ai import menu as menus  # noqa: E402
from sim.ai import profiles, rollout, whatif  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.registry import names  # noqa: E402
from sim.scenario.loader import load  # noqa: E402


def cpu() -> float:
    """CPU seconds of this process and of its finished workers."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


# round, menu, lines, rollouts played (fewer than lines x n: lines stopped behind), wall s, CPU s
Found = list[tuple[int, str, int, int, float, float]]


def asking(rounds: set[int], n: int, workers: int, found: Found, race: bool = True,
           groups: bool = False, share: bool = True):  # noqa: ANN201 (a mind)
    """A mind that declares as its profile, after a timed ``?`` in each of ``rounds``.

    ``groups``: also a ``?`` in each group's second menu (its lines and the profile's).
    """
    asked: set[int] = set()

    def timed(enc: Encounter, c: Any, menu: str, choices: list) -> None:
        wall, used = time.perf_counter(), cpu()
        weighed = whatif.weigh(rollout.moment(enc, c), choices, n, workers, race=race,
                               share=share)
        found.append((enc.round, menu, len(choices), sum(w.planned for w in weighed),
                      time.perf_counter() - wall, cpu() - used))

    def mind(enc: Encounter, c: Any) -> list:
        if enc.round in rounds and enc.round not in asked:
            asked.add(enc.round)
            choices = rollout.choices(enc, c)
            timed(enc, c, "first", choices)
            for entry in menus.top(menus.options(enc, c)) if groups else ():
                if isinstance(entry, menus.Group):
                    timed(enc, c, entry.key, whatif.within(choices, entry))
        return profiles.decide(enc, c)
    return mind


class _Reached(Exception):
    """The fighter's first declaration in ``advising``."""


def advising(scenario: Any, ruleset: str, name: str, n: int, workers: int, seed: int,
             race: bool, found: Found, share: bool = True) -> None:
    """Time ``fray advise``'s weighing of ``name``'s first menu (``sim.cli.advise``)."""
    asked = {}

    def mind(enc: Encounter, c: Any) -> list:
        asked["q"] = whatif.question(enc, c, by_key=True)
        raise _Reached

    try:
        Encounter(scenario, ruleset, encounter_seed(seed, 0), minds={name: mind}).run()
    except _Reached:
        pass
    choices = asked["q"].choices
    m = rollout.Moment(Encounter, scenario, ruleset, seed, name, 0, 1, varied=True)
    wall, used = time.perf_counter(), cpu()
    weighed = whatif.weigh(m, choices, n, workers, race=race, share=share)
    found.append((1, "advise", len(choices), sum(w.planned for w in weighed),
                  time.perf_counter() - wall, cpu() - used))


def main() -> None:
    """Print one row a ruleset and round."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("--as", dest="name", required=True)
    parser.add_argument("-n", type=int, default=200, help="rollouts a line")
    parser.add_argument("--rounds", default="1,4,8")
    parser.add_argument("--rulesets", default=",".join(names()))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all-rollouts", action="store_true",
                        help="every line weighed to the end (no race)")
    parser.add_argument("--groups", action="store_true",
                        help="also time a `?` in each group's menu")
    parser.add_argument("--advise", action="store_true",
                        help="time fray advise on the first menu instead")
    parser.add_argument("--apart", action="store_true",
                        help="every line's rollouts fought apart (no lines side by side)")
    args = parser.parse_args()
    scenario = load(Path(args.scenario))
    rounds = {int(r) for r in args.rounds.split(",")}
    print(f"`?` with {args.n} rollouts a line{' (all)' if args.all_rollouts else ''}"
          f"{', lines apart' if args.apart else ''}, "
          f"{args.workers} workers, seed {args.seed}")
    print("| ruleset | round | menu | lines | rollouts | wall s | CPU s |")
    print("|---|---|---|---|---|---|---|")
    for ruleset in args.rulesets.split(","):
        found: Found = []
        if args.advise:
            advising(scenario, ruleset, args.name, args.n, args.workers, args.seed,
                     not args.all_rollouts, found, not args.apart)
        else:
            minds = {args.name: asking(rounds, args.n, args.workers, found,
                                       not args.all_rollouts, args.groups, not args.apart)}
            Encounter(scenario, ruleset, args.seed, minds=minds).run()
        for rnd, menu, lines, played, wall, used in found:
            print(f"| {ruleset} | {rnd} | {menu} | {lines} | {played} | {wall:.2f} | "
                  f"{used:.2f} |", flush=True)


if __name__ == "__main__":
    main()

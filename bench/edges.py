"""How much a look ahead could gain over ``tactical``: every menu line against its choice.

Fights ``tactical`` against ``tactical``; at each declaration of one fighter it weighs every
line of the menu by ``-n`` rollouts on the same dice as tactical's own line (paired, as
``lookahead`` weighs them) and prints tactical's value and the lines that score best, with
their paired difference in standard errors. Where no line leads tactical's by much at any
declaration, no profile that decides by these rollouts can win the mirror much more often
than tactical does (docs/play.md, why ORE's mirror duel stays near even). Run from the
repository root:

    python bench/edges.py tests/data/mirror_duel.yaml --ruleset ore --fights 4 -n 300
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.ai import lookahead, profiles, rollout  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.scenario.loader import load  # noqa: E402

TACTICAL = profiles.PROFILES["tactical"]


def probe(n: int, horizon: int, shown: int):  # noqa: ANN201 (a profile, as PROFILES holds)
    """A profile that declares as tactical and prints, first, what each line would gain."""
    def weigh(enc: Encounter, c) -> list:  # noqa: ANN001
        if enc.rollout:
            return TACTICAL(enc, c)
        lines = [ch for ch in rollout.choices(enc, c, TACTICAL) if ch.key not in
                 lookahead.SKIPPED]
        if len(lines) > 1:
            m = rollout.moment(enc, c)
            values = [[_value(rollout.play_out(m, ch, i, horizon)) for i in range(n)]
                      for ch in lines]
            ai = next(k for k, ch in enumerate(lines) if ch.ai)
            mean = sum(values[ai]) / n
            rows = sorted(((sum(v) / n - mean, lookahead._edge(v, values[ai]), lines[k].label,
                            k == ai) for k, v in enumerate(values)), reverse=True)
            best = "; ".join(f"{d:+.3f} ({e:+.1f} se) {label[:40]}{' *' if mine else ''}"
                             for d, e, label, mine in rows[:shown])
            print(f"  round {enc.round} {c.name}: tactical {mean:.3f}; {best}", flush=True)
        return TACTICAL(enc, c)
    return weigh


def _value(out: rollout.Outcome | None) -> float:
    return 0.5 if out is None else out.value


def main() -> None:
    """Print each declaration's lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("--ruleset", default="ore")
    parser.add_argument("--who", help="the fighter weighed (default: the first)")
    parser.add_argument("--fights", type=int, default=4)
    parser.add_argument("-n", type=int, default=300, help="rollouts a line")
    parser.add_argument("--horizon", type=int, default=lookahead.HORIZON)
    parser.add_argument("--shown", type=int, default=4, help="lines printed a declaration")
    args = parser.parse_args()
    base = load(args.scenario)
    who = args.who or base.sides[0].members[0].name
    # weighed as a lookahead fighter is (its choices recorded, for the rollouts to replay)
    profiles.PROFILES["lookahead"] = probe(args.n, args.horizon, args.shown)
    sides = tuple(replace(side, members=tuple(replace(m, ai="lookahead") if m.name == who
                                              else m for m in side.members))
                  for side in base.sides)
    scenario = replace(base, sides=sides)
    print(f"{who} under {args.ruleset}: tactical's value and the best lines, {args.n} paired "
          f"rollouts a line, horizon {args.horizon} (* tactical's own)")
    for i in range(args.fights):
        result = Encounter(scenario, args.ruleset, encounter_seed(7, i)).run()
        print(f"fight {i}: {result.winner or 'drawn'} in {result.rounds} rounds", flush=True)


if __name__ == "__main__":
    main()

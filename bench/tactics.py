"""AI profiles against each other in the mirror match, with 95% Wilson intervals.

``scenarios/mirror.yaml`` has two identical sides on a symmetric map with cover; this sets
one side's ``ai`` to a profile and the other's to an opponent, runs a batch, then swaps
the sides (a second batch with its own seeds), so that going first or the map's shape
cannot do the work. Run from the repository root:

    python bench/tactics.py                          # tactical and cautious v basic, all rulesets
    python bench/tactics.py --profile tactical --against aggressive -n 1000 --rulesets ore

For each ruleset it prints the profile's win rate over both batches (draws count as not
won) with its interval, and the share of the profile's combatants who died, next to the
share of an opponent-profile side's combatants who died in its place (the opponent
against itself, same seeds).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim import scenario as scenario_mod  # noqa: E402
from sim.batch.runner import BatchSpec, run_batch  # noqa: E402
from sim.results.stats import wilson  # noqa: E402
from sim.rulesets import registry  # noqa: E402

MIRROR = ROOT / "scenarios" / "mirror.yaml"


def mirror(west: str | dict, east: str | dict) -> scenario_mod.Scenario:
    """The mirror match with each side's ``ai`` set (a profile name or a doctrine)."""
    data = yaml.safe_load(MIRROR.read_text())
    for side, ai in (("west", west), ("east", east)):
        for member in data["sides"][side]:
            member["ai"] = ai
    return scenario_mod.parse(data, str(MIRROR))


def duel(profile: str, against: str, ruleset: str, n: int, workers: int = 1) -> dict:
    """``profile`` v ``against``, ``n`` encounters with each side assignment.

    Returns wins, draws, encounters, and deaths and members of the profile's side.
    """
    out = {"wins": 0, "draws": 0, "encounters": 0, "deaths": 0, "members": 0}
    for seed, (west, east, mine) in enumerate(((profile, against, "west"),
                                               (against, profile, "east")), start=1):
        summary = run_batch(BatchSpec(mirror(west, east), ruleset, n, seed=seed,
                                      workers=workers), None)
        out["wins"] += summary["outcomes"].get(mine, 0)
        out["draws"] += summary["outcomes"].get("draw", 0)
        out["encounters"] += n
        out["deaths"] += summary["sides"][mine]["deaths"]
        out["members"] += summary["sides"][mine]["members"] * n
    return out


def main() -> None:
    """Print the table for the profiles and rulesets asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="append",
                        help="profile to measure (repeatable; default tactical and cautious)")
    parser.add_argument("--against", default="basic", help="the opponent's profile")
    parser.add_argument("-n", type=int, default=2000, help="encounters per side assignment")
    parser.add_argument("--rulesets", default=",".join(registry.names()))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    profiles = args.profile or ["tactical", "cautious"]
    print(f"mirror match, {args.n} encounters a side assignment, 95% Wilson intervals")
    for ruleset in args.rulesets.split(","):
        base = duel(args.against, args.against, ruleset, args.n, args.workers)
        b_lo, b_hi = wilson(base["deaths"], base["members"])
        for profile in profiles:
            r = duel(profile, args.against, ruleset, args.n, args.workers)
            lo, hi = wilson(r["wins"], r["encounters"])
            d_lo, d_hi = wilson(r["deaths"], r["members"])
            print(f"{ruleset:10s} {profile} v {args.against}: wins "
                  f"{r['wins'] / r['encounters']:.3f} [{lo:.3f}, {hi:.3f}] "
                  f"(draws {r['draws']}); deaths {r['deaths'] / r['members']:.3f} "
                  f"[{d_lo:.3f}, {d_hi:.3f}] v {args.against} in its place "
                  f"{base['deaths'] / base['members']:.3f} [{b_lo:.3f}, {b_hi:.3f}]",
                  flush=True)


if __name__ == "__main__":
    main()

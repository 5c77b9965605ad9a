"""Does the order a scenario file lists things in move any result? A table of the largest gaps.

Every bundled scenario (the campaigns' stages too) is fought ``n`` times as written and ``n``
times with its file's order reversed: the sides, each side's members, the map's nodes and
its edges (each edge's two ends swapped too). The people, places and lengths are the same, so
a fair engine gives both files the same outcomes up to chance. Compared between the two, per
scenario and ruleset: each side's wins and deaths and members taken out, draws, rounds, and
each combatant's death; Welch's z of the difference, against a Bonferroni bound over every
comparison made (95% over the whole table). A proportion is compared only when each file
has at least ``MIN_EVENTS`` fights with it and without it (the normal approximation needs
them). From the repository root:

    python bench/file_order.py                    # every scenario and ruleset, n = 1000
    python bench/file_order.py -n 3000 --scenarios ambush,brawl --rulesets ore

``tests/rulesets/test_fairness.py`` runs it at a smaller size (slow).
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, NamedTuple

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim import scenario as scenario_mod  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.results.stats import bonferroni_z  # noqa: E402
from sim.rulesets import registry  # noqa: E402
from sim.scenario.bundled import scenario_files  # noqa: E402

MIN_EVENTS = 10  # of a proportion, each way, in each file, for it to be compared


def reversed_file(data: dict[str, Any]) -> dict[str, Any]:
    """The same scenario with everything a file lists in the opposite order."""
    out = copy.deepcopy(data)
    out["sides"] = {name: list(reversed(members))
                    for name, members in reversed(list(out["sides"].items()))}
    field = out.get("map") or {}
    if isinstance(field.get("nodes"), dict):
        field["nodes"] = dict(reversed(list(field["nodes"].items())))
    if isinstance(field.get("edges"), list):
        field["edges"] = [[b, a, *rest] for a, b, *rest in reversed(field["edges"])]
    return out


def outcomes(scen: scenario_mod.Scenario, ruleset: str, n: int,
             seed: int) -> dict[str, list[float]]:
    """Per statistic, its value in each of ``n`` fights."""
    values: dict[str, list[float]] = defaultdict(list)
    for i in range(n):
        r = Encounter(scen, ruleset, encounter_seed(seed, i)).run()
        values["draw"].append(r.winner is None)
        values["rounds"].append(r.rounds)
        for side in r.sides:
            values[f"{side.name} wins"].append(r.winner == side.name)
            values[f"{side.name} deaths"].append(side.deaths)
            values[f"{side.name} out"].append(side.out_of_fight)
        for f in r.fighters:
            values[f"{f.name} dies"].append(f.status == "dead")
    return values


def welch_z(a: list[float], b: list[float]) -> float | None:
    """Welch's z of mean(a) - mean(b); None when there is no spread, or a proportion has
    fewer than ``MIN_EVENTS`` fights with or without it in either sample."""
    if all(v in (0, 1) for v in a + b) and any(
            min(sum(s), len(s) - sum(s)) < MIN_EVENTS for s in (a, b)):
        return None
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1)
    se = math.sqrt(va / len(a) + vb / len(b))
    return None if se == 0 else (ma - mb) / se


class Gap(NamedTuple):
    """One statistic of one scenario and ruleset, as written and reversed."""

    z: float
    scenario: str
    ruleset: str
    statistic: str
    as_written: float
    reversed: float


def gaps(paths: list[Path], rulesets: list[str], n: int, seed: int = 1) -> list[Gap]:
    """Every comparison made, the largest ``|z|`` first."""
    found = []
    for path in paths:
        data = yaml.safe_load(path.read_text())
        written = scenario_mod.parse(data, path.name)
        flipped = scenario_mod.parse(reversed_file(data), path.name)
        for ruleset in rulesets:
            a = outcomes(written, ruleset, n, seed)
            b = outcomes(flipped, ruleset, n, seed + 1)  # its own fights, not the same draws
            for stat, values in a.items():
                z = welch_z(values, b[stat])
                if z is not None:
                    found.append(Gap(z, path.stem, ruleset, stat, sum(values) / n,
                                     sum(b[stat]) / n))
    return sorted(found, key=lambda g: -abs(g.z))


def main() -> None:
    """Print the largest gaps, flagging any beyond the bound."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="fights per file and ruleset")
    parser.add_argument("--scenarios", help="names, comma-separated (default: all bundled)")
    parser.add_argument("--rulesets", default=",".join(registry.names()))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=15, help="rows shown")
    args = parser.parse_args()
    paths = scenario_files()
    if args.scenarios:
        paths = [p for p in paths if p.stem in args.scenarios.split(",")]
    found = gaps(paths, args.rulesets.split(","), args.n, args.seed)
    z = bonferroni_z(len(found))
    over = sum(abs(g.z) > z for g in found)
    print(f"{len(found)} comparisons of {args.n} fights as written and {args.n} reversed; "
          f"bound |z| <= {z:.2f} (95% over all); {over} beyond it")
    print(f"{'z':>6}  {'scenario':18} {'ruleset':10} {'statistic':32} {'written':>8} "
          f"{'reversed':>8}")
    for g in found[:args.top]:
        flag = "  <- the file's order matters" if abs(g.z) > z else ""
        print(f"{g.z:+6.2f}  {g.scenario:18} {g.ruleset:10} {g.statistic:32} "
              f"{g.as_written:8.3f} {g.reversed:8.3f}{flag}")


if __name__ == "__main__":
    main()

"""Each AI profile against ``basic``, in a duel and a 3 v 3, under every ruleset.

The table of ``docs/ai.md``: one side of the scenario plays the profile, the other ``basic``;
then the sides swap (a second batch with its own seeds), so that the side a profile stands on
does no work. Run from the repository root:

    python bench/profiles.py                       # the duel and the brawl, 300 a side
    python bench/profiles.py scenarios/mirror.yaml -n 1000 --rulesets ore

Each cell: the profile's win rate over both batches (draws count as not won), the share of
its fighters who died (to the end of the scene), the mean rounds and the share drawn.
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim.batch.runner import BatchSpec, run_batch  # noqa: E402
from sim.rulesets import registry  # noqa: E402
from sim.scenario import parse  # noqa: E402

PROFILES = ("basic", "aggressive", "cautious", "tactical")
SCENARIOS = ("scenarios/neutral_duel.yaml", "scenarios/brawl.yaml")


def with_profiles(data: dict[str, Any], by_side: dict[str, str]) -> dict[str, Any]:
    """The scenario with every member of each side playing that side's profile."""
    out = copy.deepcopy(data)
    for side, members in out["sides"].items():
        for member in members:
            member["ai"] = by_side[side]
    return out


def against_basic(path: str, ruleset: str, profile: str, n: int) -> dict[str, float]:
    """``profile`` v ``basic`` in the scenario at ``path``, ``n`` fights each side assignment."""
    data = yaml.safe_load((ROOT / path).read_text())
    first, second = list(data["sides"])
    wins = deaths = members = draws = 0
    rounds = 0.0
    for seed, (mine, other) in enumerate(((first, second), (second, first)), start=1):
        scen = parse(with_profiles(data, {mine: profile, other: "basic"}), path)
        s = run_batch(BatchSpec(scen, ruleset, n, seed=seed, workers=1), None)
        wins += s["outcomes"].get(mine, 0)
        draws += s["outcomes"].get("draw", 0)
        deaths += s["sides"][mine]["deaths"]
        members += s["sides"][mine]["members"] * n
        rounds += s["rounds"]["mean"] * n
    return {"win": wins / (2 * n), "dead": deaths / members, "rounds": rounds / (2 * n),
            "draw": draws / (2 * n)}


def table(path: str, rulesets: list[str], n: int) -> str:
    """A markdown table: a row per ruleset, a column per profile."""
    lines = [f"**{Path(path).stem}** ({2 * n} fights a cell): win / died / rounds / drawn", "",
             "| ruleset | " + " | ".join(PROFILES) + " |",
             "|---|" + "---|" * len(PROFILES)]
    for ruleset in rulesets:
        cells = []
        for profile in PROFILES:
            r = against_basic(path, ruleset, profile, n)
            cells.append(f"{r['win']:.2f} / {r['dead']:.2f} / {r['rounds']:.1f} / "
                         f"{r['draw']:.2f}")
        lines.append(f"| {ruleset} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    """Print the table of each scenario."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scenarios", nargs="*", default=list(SCENARIOS))
    parser.add_argument("-n", type=int, default=300, help="fights a side assignment")
    parser.add_argument("--rulesets", nargs="*", default=registry.names())
    args = parser.parse_args()
    for path in args.scenarios:
        print(table(path, args.rulesets, args.n), end="\n\n", flush=True)


if __name__ == "__main__":
    main()

"""The numbers of minds as at a table: draws, surrenders to beasts, routs while walking up.

Each line is one question a game master would ask of the AI's morale and stand-offs
(docs/ai.md), measured over a batch of fights (``fray batch``'s seeds):

- ``melee_and_archers``: eight against eight with two archers a side, every fighter basic,
  cautious and then tactical; the share of fights drawn at the round limit (archers
  trading hits that harm nobody).
- ``poachers`` (bundled): five archers against a knight in plate; the share drawn.
- ``wolf_pack``: four wolves against two hunters, cautious and then tactical; surrenders by
  a beast and surrenders of a hunter (whose only foes are beasts): both must be 0.
- ``bridge_archers``: raiders who won at a bridge walk up to two archers; breaks "hurt
  without hurting back" a fight, and the raiders' win rate.

From the repository root (``--rulesets`` narrows the run):

    python bench/minds.py -n 300
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sim import scenario as scenario_mod  # noqa: E402
from sim.batch.runner import BatchSpec, run_batch  # noqa: E402
from sim.core.engine import Encounter  # noqa: E402
from sim.core.seeds import encounter_seed  # noqa: E402
from sim.rulesets import registry  # noqa: E402

HERE = ROOT / "bench" / "minds"
HOPELESS = "hurt without hurting back"


def load(path: Path, ai: str | dict | None = None,
         sides: tuple[str, ...] = ()) -> scenario_mod.Scenario:
    """The scenario at ``path``, with every member of ``sides`` playing ``ai`` if given."""
    data = yaml.safe_load(path.read_text())
    for side in sides:
        for member in data["sides"][side]:
            member["ai"] = ai
    return scenario_mod.parse(data, str(path))


def batch(s: scenario_mod.Scenario, ruleset: str, n: int) -> dict:
    """``fray batch`` with ``--seed 1``, one worker."""
    return run_batch(BatchSpec(s, ruleset, n, seed=1, workers=1), None)


def draws(s: scenario_mod.Scenario, ruleset: str, n: int) -> str:
    out = batch(s, ruleset, n)
    return f"draws {out['outcomes'].get('draw', 0) / n:.3f}"


def surrenders(s: scenario_mod.Scenario, ruleset: str, n: int) -> str:
    out = batch(s, ruleset, n)
    sides = out["sides"]
    return (f"by a beast {sides['wolves']['surrendered']}, to a beast "
            f"{sides['hunters']['surrendered']}, hunters win "
            f"{out['outcomes'].get('hunters', 0) / n:.3f}")


def routs(s: scenario_mod.Scenario, ruleset: str, n: int) -> str:
    broke = won = 0
    for i in range(n):
        enc = Encounter(s, ruleset, encounter_seed(1, i), log=True)
        result = enc.run()
        won += result.winner == "raiders"
        assert enc.log is not None
        broke += sum(HOPELESS in e["text"] and e["type"] in ("flee", "status")
                     for e in enc.log)
    return f"hopeless breaks a fight {broke / n:.2f}, raiders win {won / n:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=300, help="fights a line")
    parser.add_argument("--rulesets", default=",".join(registry.names()))
    args = parser.parse_args()
    rulesets = args.rulesets.split(",")
    poachers = scenario_mod.load(ROOT / "scenarios" / "poachers.yaml")
    bridge = load(HERE / "bridge_archers.yaml")
    for r in rulesets:
        for ai in ("basic", "cautious", "tactical"):
            eight = load(HERE / "melee_and_archers.yaml", ai, ("west", "east"))
            print(f"{r:10} melee_and_archers {ai:9}{draws(eight, r, args.n)}", flush=True)
        print(f"{r:10} poachers           {draws(poachers, r, args.n)}", flush=True)
        for ai in ("cautious", "tactical"):
            pack = load(HERE / "wolf_pack.yaml", {"profile": ai, "morale": 0.5}, ("hunters",))
            print(f"{r:10} wolf_pack {ai:9}{surrenders(pack, r, args.n)}", flush=True)
        print(f"{r:10} bridge_archers     {routs(bridge, r, args.n)}", flush=True)


if __name__ == "__main__":
    main()

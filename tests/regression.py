"""The stored results every optimisation must keep: one ``summary.json`` per bundled scenario
and ruleset, for a fixed seed and size.

``python tests/regression.py`` rewrites the copies in ``tests/data/regression/``; do that only
for a change meant to alter results, and say why in the commit (the guard is
``tests/test_regression.py``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STORE = Path(__file__).resolve().parent / "data" / "regression"
SEED, N = 7, 100


def cases() -> list[tuple[Path, str]]:
    """Every bundled scenario (campaign stages included) under every registered ruleset."""
    from sim.rulesets import registry

    scenarios = sorted((ROOT / "scenarios").glob("*.yaml"))
    scenarios += [ROOT / "scenarios" / "campaigns" / name
                  for name in ("night_camp.yaml", "keep_gate.yaml")]
    return [(path, ruleset) for path in scenarios for ruleset in registry.names()]


def summary(path: Path, ruleset: str) -> str:
    """The batch's ``summary.json`` text, as ``fray batch`` writes it."""
    from sim import scenario as scenario_mod
    from sim.batch.runner import BatchSpec, run_batch

    doc = run_batch(BatchSpec(scenario_mod.load(path), ruleset, N, seed=SEED), None)
    return json.dumps(doc, indent=2) + "\n"


def stored(path: Path, ruleset: str) -> Path:
    """Where the copy of one case lives."""
    return STORE / f"{path.stem}-{ruleset}.json"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    STORE.mkdir(parents=True, exist_ok=True)
    for path, ruleset in cases():
        stored(path, ruleset).write_text(summary(path, ruleset))
    print(f"wrote {len(cases())} summaries to {STORE}")

"""The stored results every optimisation must keep, per bundled scenario and ruleset: the
``summary.json`` of a batch (fixed seed and size), and digests of its ``encounters.csv`` and
of the event logs of its first encounters (what ``fray run`` tells, word for word).

``python tests/regression.py`` rewrites the copies in ``tests/data/regression/``; do that only
for a change meant to alter results, and say why in the commit (the guard is
``tests/test_regression.py``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STORE = Path(__file__).resolve().parent / "data" / "regression"
SEED, N = 7, 100
LOGGED = 10  # encounters whose whole event log is digested
DIGESTS = STORE / "digests.json"


def recorded() -> list[str]:
    """The registered rulesets whose copies are stored: every one but a new ruleset not yet
    recorded (``python tests/regression.py --ruleset NAME`` records it, and only it)."""
    from sim.rulesets import registry
    from sim.scenario.bundled import scenario_files

    kept = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
    return [name for name in registry.names()
            if any(case_name(path, name) in kept for path in scenario_files())]


def cases(rulesets: list[str] | None = None) -> list[tuple[Path, str]]:
    """Every bundled scenario (campaign stages included) under every recorded ruleset."""
    from sim.scenario.bundled import scenario_files

    names = recorded() if rulesets is None else rulesets
    return [(path, ruleset) for path in scenario_files() for ruleset in names]


def summary(path: Path, ruleset: str) -> str:
    """The batch's ``summary.json`` text, as ``fray batch`` writes it."""
    from sim import scenario as scenario_mod
    from sim.batch.runner import BatchSpec, run_batch

    doc = run_batch(BatchSpec(scenario_mod.load(path), ruleset, N, seed=SEED), None)
    return json.dumps(doc, indent=2) + "\n"


def digests(path: Path, ruleset: str) -> dict[str, str]:
    """SHA-256 of the batch's ``encounters.csv`` and of the first ``LOGGED`` event logs."""
    from sim import scenario as scenario_mod
    from sim.batch.chunks import columns, csv_text, run_chunk
    from sim.core.engine import Encounter
    from sim.core.seeds import encounter_seed

    scenario = scenario_mod.load(path)
    rows = csv_text(run_chunk(scenario, ruleset, SEED, 0, N), columns(scenario), header=True)
    logs = hashlib.sha256()
    for i in range(LOGGED):
        enc = Encounter(scenario, ruleset, encounter_seed(SEED, i), log=True)
        enc.run()
        logs.update(json.dumps(enc.log, sort_keys=True).encode())
    return {"encounters.csv": hashlib.sha256(rows).hexdigest(), "logs": logs.hexdigest()}


def case_name(path: Path, ruleset: str) -> str:
    """The key of one case in the digests file."""
    return f"{path.stem}-{ruleset}"


def stored(path: Path, ruleset: str) -> Path:
    """Where the copy of one case lives."""
    return STORE / f"{path.stem}-{ruleset}.json"


if __name__ == "__main__":
    # no argument: rewrite every recorded ruleset's copies; ``--ruleset NAME``: record (or
    # rewrite) that ruleset's alone, the others' kept as stored
    sys.path.insert(0, str(ROOT))
    STORE.mkdir(parents=True, exist_ok=True)
    only = sys.argv[2:3] if sys.argv[1:2] == ["--ruleset"] else None
    found = json.loads(DIGESTS.read_text()) if only and DIGESTS.exists() else {}
    todo = cases(only)
    for path, ruleset in todo:
        stored(path, ruleset).write_text(summary(path, ruleset))
        found[case_name(path, ruleset)] = digests(path, ruleset)
    DIGESTS.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(todo)} summaries and their digests to {STORE}")

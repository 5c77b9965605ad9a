"""``fray compare``: one scenario, the same encounter seeds, several rulesets.

Each ruleset runs as an ordinary batch (``sim.batch.runner.run_batch``) into its own
subfolder of the output folder, so ``DIR/<ruleset>/summary.json`` and ``encounters.csv`` are
exactly what ``fray batch`` writes; encounter *i* has the same seed under every ruleset.
Each ``encounters.csv`` is then streamed back through
``sim.results.lethality.LethalityTally`` (flat memory) and the top of the folder gets
``lethality.json``, ``report.md`` and the charts.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from sim.batch.runner import (
    RESULT_FILES,
    BatchSpec,
    interrupted,
    make_out_dir,
    results_in,
    run_batch,
)
from sim.results.lethality import LethalityTally, document
from sim.scenario.errors import FrayInputError
from sim.scenario.specs import Scenario

TOP_FILES = ("lethality.json", "report.md", "survival.png", "death_rate.png", "rounds.png")
BATCH_FILES = RESULT_FILES

Advance = Callable[[int], None]
ProgressFactory = Callable[[str], AbstractContextManager[Advance]]


@contextlib.contextmanager
def _silent(_label: str) -> Iterator[Advance]:
    yield lambda _n: None


def existing_results(out_dir: Path, rulesets: list[str]) -> list[str]:
    """Files in ``out_dir`` that a comparison of ``rulesets`` would replace."""
    found = [name for name in TOP_FILES if (out_dir / name).exists()]
    for ruleset in rulesets:
        found += [f"{ruleset}/{name}" for name in results_in(out_dir / ruleset)]
    return found


def prepare_out_dir(out_dir: Path, rulesets: list[str], force: bool) -> None:
    """Create ``out_dir``; refuse one that holds results unless ``force``.

    Raises:
        FrayInputError: the folder holds results (and no ``force``), or cannot be created.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise FrayInputError(str(out_dir), [("", "exists and is not a folder; choose another "
                                             "--out")])
    found = existing_results(out_dir, rulesets) if out_dir.exists() else []
    if found and not force:
        shown = ", ".join(found[:4]) + (", ..." if len(found) > 4 else "")
        raise FrayInputError(str(out_dir), [("", f"folder already holds results ({shown}); "
                                             "use --force to overwrite, or choose another "
                                             "--out")])
    make_out_dir(out_dir)


def fold_csv(path: Path, scenario: Scenario, ruleset: str) -> LethalityTally:
    """Stream an ``encounters.csv`` into a ``LethalityTally`` (one row in memory at a time)."""
    tally = LethalityTally.for_sides(ruleset, members(scenario))
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            tally.add(row)
    return tally


def _finished(sub: Path, spec: BatchSpec) -> bool:
    """A complete batch of this very spec in ``sub`` (same scenario, ruleset, seed, size)."""
    if interrupted(sub) is not None or not (sub / "encounters.csv").exists():
        return False
    try:
        summary = json.loads((sub / "summary.json").read_text())
    except (OSError, ValueError):
        return False
    return (summary.get("encounters"), summary.get("seed"), summary.get("ruleset"),
            summary.get("scenario")) == (spec.n, spec.seed, spec.ruleset, spec.scenario.slug)


def members(scenario: Scenario) -> dict[str, int]:
    """Members per side, in file order."""
    return {side.name: len(side.members) for side in scenario.sides}


def run_compare(scenario: Scenario, rulesets: list[str], n: int, out_dir: Path, *,
                seed: int = 1, workers: int = 1, charts: bool = True,
                progress: ProgressFactory | None = None, resume: bool = False
                ) -> dict[str, Any]:
    """Run the scenario under each ruleset and write every output; return ``lethality.json``.

    ``out_dir`` must already be prepared (``prepare_out_dir``). ``progress(label)`` gives a
    context manager yielding the per-batch progress callback. With ``resume``, a ruleset
    whose batch finished with the same seed and size is kept, an interrupted one resumes.
    """
    progress = progress or _silent
    tallies = {}
    for name in rulesets:
        sub = out_dir / name
        spec = BatchSpec(scenario, name, n, seed, workers)
        if not (resume and _finished(sub, spec)):
            with progress(f"{scenario.slug} [{name}]") as advance:
                run_batch(spec, sub, advance, resume=resume and interrupted(sub) is not None)
        tallies[name] = fold_csv(sub / "encounters.csv", scenario, name)
    doc = document(scenario.slug, n, seed, tallies)
    doc["scenario_name"] = scenario.name
    doc["scenario_file"] = scenario.source
    doc["members"] = members(scenario)
    doc["files"] = {name: {f: f"{name}/{f}" for f in BATCH_FILES} for name in rulesets}
    write_outputs(doc, out_dir, charts=charts)
    return doc


def write_outputs(doc: dict[str, Any], out_dir: Path, *, charts: bool = True) -> list[Path]:
    """Write ``lethality.json``, ``report.md`` and (unless ``charts`` is off) the charts."""
    from sim.report.compare import report_markdown

    written = []
    if charts:
        from sim.report import charts as charts_mod

        written += charts_mod.compare_charts(doc, out_dir)
    path = out_dir / "lethality.json"
    _atomic_write(path, json.dumps(doc, indent=2) + "\n")
    written.append(path)
    path = out_dir / "report.md"
    _atomic_write(path, report_markdown(doc, charts=charts))
    written.append(path)
    return written


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)

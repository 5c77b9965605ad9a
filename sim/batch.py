"""Many encounters: deterministic seeds, chunks over a process pool, streamed output.

Encounter ``i`` always runs with ``encounter_seed(seed, i)``; chunks of consecutive indices
run in worker processes and come back in index order, so ``encounters.csv`` and
``summary.json`` are identical for any number of workers. Rows are written as chunks arrive
(to a temporary file renamed at the end: no half-written file is ever left under the final
name).
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.engine import Encounter, EncounterResult
from sim.scenario import Scenario
from sim.seeds import encounter_seed
from sim.stats import BatchTally

SIDE_COLUMNS = ("standing", "out", "deaths", "attacks", "hits")


def columns(scenario: Scenario) -> list[str]:
    """The header of ``encounters.csv`` for a scenario."""
    cols = ["index", "seed", "winner", "rounds", "first_casualty_round"]
    for side in scenario.side_names:
        cols += [f"{side}_{c}" for c in SIDE_COLUMNS]
    return cols


def result_row(index: int, result: EncounterResult) -> dict[str, Any]:
    """One ``encounters.csv`` row for an encounter result."""
    row: dict[str, Any] = {
        "index": index, "seed": result.seed, "winner": result.winner or "draw",
        "rounds": result.rounds, "first_casualty_round": result.first_casualty_round,
    }
    for s in result.sides:
        row[f"{s.name}_standing"] = s.standing
        row[f"{s.name}_out"] = s.out_of_fight
        row[f"{s.name}_deaths"] = s.deaths
        row[f"{s.name}_attacks"] = s.attacks
        row[f"{s.name}_hits"] = s.hits
    return row


def run_chunk(scenario: Scenario, ruleset: str, batch_seed: int, start: int,
              stop: int) -> list[dict[str, Any]]:
    """Run encounters ``start..stop-1`` of a batch; the unit of work of every executor."""
    rows = []
    for i in range(start, stop):
        result = Encounter(scenario, ruleset, encounter_seed(batch_seed, i)).run()
        rows.append(result_row(i, result))
    return rows


@dataclass(frozen=True)
class BatchSpec:
    """What to run: the scenario, the ruleset, how many encounters, the seed, the workers."""

    scenario: Scenario
    ruleset: str
    n: int
    seed: int = 1
    workers: int = 1
    chunk_size: int = 0  # 0: pick one from n and workers

    def chunks(self) -> list[tuple[int, int]]:
        """``(start, stop)`` index ranges covering ``0..n-1``."""
        size = self.chunk_size or max(1, min(1000, -(-self.n // (self.workers * 8))))
        return [(a, min(a + size, self.n)) for a in range(0, self.n, size)]


def iter_rows(spec: BatchSpec) -> Iterator[list[dict[str, Any]]]:
    """Yield the rows of each chunk, in index order, from a local process pool."""
    chunks = spec.chunks()
    if spec.workers <= 1:
        for a, b in chunks:
            yield run_chunk(spec.scenario, spec.ruleset, spec.seed, a, b)
        return
    with ProcessPoolExecutor(max_workers=spec.workers) as pool:
        futures = [pool.submit(run_chunk, spec.scenario, spec.ruleset, spec.seed, a, b)
                   for a, b in chunks]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def run_batch(spec: BatchSpec, out_dir: Path | None,
              progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Run a batch, write ``encounters.csv`` and ``summary.json`` to ``out_dir``, and
    return the summary. ``progress`` is called with the number of encounters just finished.
    """
    scenario = spec.scenario
    tally = BatchTally.for_sides(
        scenario.slug, spec.ruleset, spec.seed,
        {side.name: len(side.members) for side in scenario.sides})
    writer = None
    handle = None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        tmp_csv = out_dir / ".encounters.csv.part"
        handle = open(tmp_csv, "w", newline="")  # noqa: SIM115 - closed in finally
        writer = csv.DictWriter(handle, fieldnames=columns(scenario))
        writer.writeheader()
    try:
        for rows in iter_rows(spec):
            for row in rows:
                tally.add(row)
            if writer is not None:
                writer.writerows(rows)
            if progress is not None:
                progress(len(rows))
    except BaseException:
        if handle is not None:
            handle.close()
            os.unlink(tmp_csv)
        raise
    summary = tally.summary()
    if out_dir is not None:
        handle.close()
        os.replace(tmp_csv, out_dir / "encounters.csv")
        write_json(out_dir / "summary.json", summary)
    return summary


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically (temporary file, then rename)."""
    tmp = path.with_name(f".{path.name}.part")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)

"""One chunk of a batch: the rows it makes, the text it writes, the tally it folds.

A chunk is the unit of work every executor runs (``run_chunk_packed``): encounters
``start..stop-1`` of a batch, each with ``encounter_seed(seed, i)``, turned into
``encounters.csv`` rows, their CSV text and a partial tally in the worker, so that the main
process only writes bytes and merges tallies. ``Work`` says what a batch runs: the
encounters of a scenario (``ENCOUNTERS``) or the runs of a campaign
(``sim.batch.campaign``).
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from operator import itemgetter
from pathlib import Path
from typing import Any

from sim.batch import files
from sim.batch.coverage import coverage_block
from sim.core.engine import Encounter
from sim.core.outcome import EncounterResult
from sim.core.seeds import encounter_seed
from sim.results.fighters import fighter_columns
from sim.results.tally import Tally
from sim.scenario.specs import Scenario, side_columns


def columns(scenario: Scenario) -> list[str]:
    """The header of ``encounters.csv`` for a scenario."""
    cols = ["index", "seed", "winner", "rounds", "first_casualty_round"]
    for side in scenario.side_names:
        cols += side_columns(side)
    for name, _ in fighters(scenario):
        cols += fighter_columns(name)
    return cols


def fighters(scenario: Scenario) -> list[tuple[str, str]]:
    """Every combatant's ``(name, side)``, in file order."""
    return [(m.name, side.name) for side in scenario.sides for m in side.members]


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
        row[f"{s.name}_deaths_in_fight"] = s.deaths_in_fight
        row[f"{s.name}_deaths_after"] = s.deaths_after
        row[f"{s.name}_fled"] = s.fled
        row[f"{s.name}_surrendered"] = s.surrendered
        row[f"{s.name}_attacks"] = s.attacks
        row[f"{s.name}_hits"] = s.hits
        row[f"{s.name}_damaging_hits"] = s.damaging_hits
        row[f"{s.name}_damage"] = s.damage
        row[f"{s.name}_out_rounds"] = " ".join(map(str, s.out_rounds))
        row[f"{s.name}_deaths_after_tended"] = s.deaths_after - s.deaths_after_untended
        row[f"{s.name}_deaths_after_untended"] = s.deaths_after_untended
    for f in result.fighters:
        row[f"{f.name}.status"] = f.status
        row[f"{f.name}.died_after"] = int(f.died_after)
        row[f"{f.name}.attacks"] = f.attacks
        row[f"{f.name}.hits"] = f.hits
        row[f"{f.name}.damage"] = f.damage
    return row


def run_chunk(scenario: Scenario, ruleset: str, batch_seed: int, start: int,
              stop: int) -> list[dict[str, Any]]:
    """Run encounters ``start..stop-1`` of a batch: the unit of work of every executor."""
    return [result_row(i, Encounter(scenario, ruleset, encounter_seed(batch_seed, i)).run())
            for i in range(start, stop)]


def members(scenario: Scenario) -> dict[str, int]:
    """Members per side, in file order."""
    return {side.name: len(side.members) for side in scenario.sides}


def new_tally(scenario: Scenario, ruleset: str, seed: int) -> Tally:
    """An empty tally for a batch of ``scenario``: its ``summary.json`` and lethality."""
    return Tally.for_sides(scenario.slug, ruleset, seed, members(scenario), fighters(scenario),
                           scenario_digest(scenario), tend=scenario.aftermath.tend)


def fold_rows(tally: Tally, rows: Iterable[dict[str, Any]]) -> Tally:
    """Fold ``rows`` into ``tally``, one at a time; return it."""
    for row in rows:
        tally.add(row)
    return tally


def fold_csv(path: Path, scenario: Any, ruleset: str, seed: int, work: Work | None = None
             ) -> Any:
    """The tally of a finished rows file, streamed (one row in memory at a time)."""
    work = work or ENCOUNTERS
    with files.read_rows_file(path) as handle:
        return fold_rows(work.new_tally(scenario, ruleset, seed), csv.DictReader(handle))


@dataclass
class ChunkResult:
    """A chunk as the output needs it: CSV text and a partial tally.

    Both are made in the worker, so that the main process only writes bytes and merges
    tallies (in chunk order; the merge is exact, so any chunking gives the same tally).
    """

    rows: int
    text: bytes
    tally: Tally


def fold_chunk(work: Work, subject: Any, ruleset: str, batch_seed: int, start: int,
               stop: int) -> Any:
    """The chunk's rows folded into a tally in the worker (a batch with no output files)."""
    rows = work.run_rows(subject, ruleset, batch_seed, start, stop)
    return fold_rows(work.new_tally(subject, ruleset, batch_seed), rows)


def run_chunk_packed(work: Work, subject: Any, ruleset: str, batch_seed: int, start: int,
                     stop: int) -> ChunkResult:
    """The chunk's rows, already folded and formatted (the batch's unit of work)."""
    rows = work.run_rows(subject, ruleset, batch_seed, start, stop)
    tally = fold_rows(work.new_tally(subject, ruleset, batch_seed), rows)
    return ChunkResult(len(rows), csv_text(rows, work.columns(subject)), tally)


def scenario_digest(scenario: Scenario) -> str:
    """A fingerprint of what a scenario says (not where it was read from)."""
    return hashlib.sha256(repr(replace(scenario, source="")).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Work:
    """What a batch runs and writes: encounters of a scenario, or runs of a campaign.

    The functions are module-level (workers receive them by name). Attributes:
        rows_file: the rows' file name (``encounters.csv``).
        subject_key, count_key: the ``summary.json`` keys naming what ran and how many.
        run_rows: ``(subject, ruleset, seed, start, stop)`` -> the rows of one chunk.
        columns: ``subject`` -> the rows file's header.
        new_tally: ``(subject, ruleset, seed)`` -> an empty tally (``add``, ``merge``,
            ``summary``).
        digest: ``subject`` -> a fingerprint of what it says (resume checks it).
        coverage: ``(subject, ruleset)`` -> what was modelled (``summary.json``'s
            ``coverage``: ``sim.batch.coverage``); None: not said.
    """

    rows_file: str
    subject_key: str
    count_key: str
    run_rows: Callable[..., list[dict[str, Any]]]
    columns: Callable[[Any], list[str]]
    new_tally: Callable[..., Any]
    digest: Callable[[Any], str]
    coverage: Callable[[Any, str], dict[str, Any]] | None = None


ENCOUNTERS = Work("encounters.csv", "scenario", "encounters", run_chunk, columns, new_tally,
                  scenario_digest, coverage_block)


def csv_text(rows: list[dict[str, Any]], fields: list[str], header: bool = False) -> bytes:
    """``encounters.csv`` lines for ``rows`` (with the header line if asked).

    Every row must hold exactly ``fields`` (as ``csv.DictWriter`` checks; checked once a call,
    since one chunk's rows come from one scenario); values are picked in C (``itemgetter``).
    """
    if rows and rows[0].keys() != set(fields):
        raise ValueError(f"a row's columns differ from the header: "
                         f"{sorted(rows[0].keys() ^ set(fields))}")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if header:
        writer.writerow(fields)
    if len(fields) == 1:
        writer.writerows([row[fields[0]]] for row in rows)
    else:
        writer.writerows(map(itemgetter(*fields), rows))
    return buffer.getvalue().encode()

"""``fray batch --contribution``: each fighter's worth to its side, leave one out.

For every fighter, the batch is fought again without it, encounter ``i`` with the batch's
seed for ``i``, and paired with the batch's own row ``i`` (read back from its
``encounters.csv``, in index order): one more batch per fighter. The chunks run on the
batch's executor like any other (``sim.batch.runner.iter_rows``): each chunk fights its
indices once per fighter left out, and comes back in index order. The folding and the
intervals are ``sim.results.contribution``'s.

A fighter alone on its side leaves no side to fight: without it, the side neither wins nor
loses anyone, so those fights are not fought.
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.batch import files
from sim.batch.runner import BatchSpec, iter_rows
from sim.core.engine import Encounter
from sim.core.seeds import encounter_seed
from sim.results.contribution import PairFold
from sim.scenario.specs import Scenario

# (fighter, its side, the scenario without it; None when it is alone on its side)
Case = tuple[str, str, Scenario | None]


@dataclass(frozen=True)
class LeftOut:
    """What paired chunks fight: a scenario per case (a fighter left out, a variant)."""

    slug: str
    cases: tuple[Case, ...]


def left_out(scenario: Scenario) -> LeftOut:
    """One case per fighter, in file order."""
    cases: list[Case] = []
    for k, side in enumerate(scenario.sides):
        for j, member in enumerate(side.members):
            rest = side.members[:j] + side.members[j + 1:]
            without = None if not rest else dataclasses.replace(
                scenario, sides=(*scenario.sides[:k], dataclasses.replace(side, members=rest),
                                 *scenario.sides[k + 1:]))
            cases.append((member.name, side.name, without))
    return LeftOut(scenario.slug, tuple(cases))


def pairs_chunk(_work: Any, subject: LeftOut, ruleset: str, batch_seed: int, start: int,
                stop: int) -> tuple[int, list[list[tuple[bool, int]]]]:
    """Encounters ``start..stop-1`` once per case: ``(count, [[(won, deaths), ...], ...])``.

    ``won`` and ``deaths`` are the left-out fighter's side's, fighting without it.
    """
    out = []
    for _name, side, scenario in subject.cases:
        if scenario is None:
            out.append([(False, 0)] * (stop - start))
            continue
        fought = []
        for i in range(start, stop):
            result = Encounter(scenario, ruleset, encounter_seed(batch_seed, i)).run()
            deaths = next(s.deaths for s in result.sides if s.name == side)
            fought.append((result.winner == side, deaths))
        out.append(fought)
    return stop - start, out


def run_pairs(spec: BatchSpec, subject: LeftOut, rows_file: Path, encounters: int,
              progress: Callable[[int], None] | None = None) -> list[PairFold]:
    """Each case of ``subject`` fought on the batch's seeds, paired with the batch's rows.

    ``rows_file``: the batch's ``encounters.csv`` (its rows ``0..encounters-1``, the fights
    as the scenario has them). ``progress`` is called with the encounters each chunk paired.
    Variants (``sim.batch.variants``) are paired the same way.
    """
    pairs = BatchSpec(subject, spec.ruleset, encounters, spec.seed, spec.workers,
                      spec.chunk_size, spec.executor, spec.scheduler)
    folds = [PairFold(name, side) for name, side, _ in subject.cases]
    with files.read_rows_file(rows_file) as handle, \
            iter_rows(pairs, 0, pairs_chunk) as chunks:
        rows = csv.DictReader(handle)
        for count, fought in chunks:
            for j in range(count):
                row = next(rows)
                for fold, (won, deaths) in zip(folds, (f[j] for f in fought), strict=True):
                    fold.add(row["winner"] == fold.side, int(row[f"{fold.side}_deaths"]),
                             won, deaths)
            if progress is not None:
                progress(count)
    return folds


def run_contribution(spec: BatchSpec, rows_file: Path, encounters: int,
                     progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """``summary.json``'s ``contribution``: every fighter left out, over ``encounters``."""
    folds = run_pairs(spec, left_out(spec.scenario), rows_file, encounters, progress)
    return {"encounters": encounters, "batches": len(folds),
            "note": (f"each fighter left out in turn, the same {encounters} seeds: the "
                     f"change is the side's win rate (and deaths a fight) without it minus "
                     f"with it, a 95% paired interval"),
            "fighters": {fold.name: fold.summary() for fold in folds}}

"""A scenario's variants fought on the batch's seeds: one table against the base.

Each variant (``sim.scenario.variants``) is fought for the batch's encounters, encounter
``i`` with the batch's seed for ``i``, and paired with the batch's row ``i``
(``sim.batch.contribution.run_pairs``): the first side's win rate and deaths a fight under
the variant, the difference from the base and its 95% paired interval.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sim.batch.contribution import LeftOut, run_pairs
from sim.batch.runner import BatchSpec
from sim.scenario.variants import Variant


def run_variants(spec: BatchSpec, variants: list[Variant], rows_file: Path, encounters: int,
                 progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """``summary.json``'s ``variants``: each variant's pairs with the base."""
    side = spec.scenario.side_names[0]
    cases = LeftOut(spec.scenario.slug, tuple((v.name, side, v.scenario) for v in variants))
    folds = run_pairs(spec, cases, rows_file, encounters, progress)
    rows = []
    for variant, fold in zip(variants, folds, strict=True):
        s = fold.summary()
        rows.append({"name": variant.name, "note": variant.note, "set": list(variant.changes),
                     "win_rate": s["win_rate_without"], "win_rate_base": s["win_rate"],
                     "win_rate_change": s["win_rate_change"],
                     "win_rate_change_ci95": s["win_rate_change_ci95"],
                     "deaths": s["deaths_without"], "deaths_base": s["deaths"],
                     "deaths_change": s["deaths_change"],
                     "deaths_change_ci95": s["deaths_change_ci95"]})
    return {"side": side, "encounters": encounters, "variants": rows}

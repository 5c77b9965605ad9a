"""``fray compare``: one scenario, the same encounter seeds, several rulesets.

Each ruleset runs as an ordinary batch (``sim.batch.runner.run_tally``) into its own
subfolder of the output folder, so ``DIR/<ruleset>/summary.json`` and ``encounters.csv`` are
exactly what ``fray batch`` writes; encounter *i* has the same seed under every ruleset.
The batch's tally gives its lethality entry directly (one fold for ``summary.json`` and
``lethality.json``); a ruleset already finished by an interrupted comparison is folded
from its ``encounters.csv`` on ``resume``. The top of the folder gets ``lethality.json``,
``report.md`` and the charts (and, asked for, ``report.html``: the same in one file).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from sim.batch import files, lock
from sim.batch.chunks import fold_csv, members
from sim.batch.coverage import coverage_block
from sim.batch.runner import BatchSpec, finished_here, run_tally
from sim.report import charts as charts_mod
from sim.report.compare import report_markdown
from sim.report.html import compare_html
from sim.results.difficulty import with_words
from sim.results.lethality import document
from sim.results.tally import Tally
from sim.scenario import safefile
from sim.scenario.specs import Scenario

TOP_FILES = ("lethality.json", "report.md", "survival.png", "death_rate.png", "rounds.png",
             "report.html")
BATCH_FILES = files.RESULT_FILES
PER_RULESET_FILES = ("survival.png",)  # a campaign's chart, in each ruleset's folder

Advance = Callable[[int], None]
ProgressFactory = Callable[[str], AbstractContextManager[Advance]]


@contextlib.contextmanager
def silent(_label: str) -> Iterator[Advance]:
    """A progress factory that shows nothing."""
    yield lambda _n: None


def existing_results(out_dir: Path, rulesets: list[str]) -> list[str]:
    """Files in ``out_dir`` that a comparison of ``rulesets`` would replace.

    In each ruleset's folder, a batch's results, and the chart a campaign's run writes
    there (``survival.png``).
    """
    found = [name for name in TOP_FILES if (out_dir / name).exists()]
    for ruleset in rulesets:
        sub = out_dir / ruleset
        found += [f"{ruleset}/{name}" for name in files.results_in(sub)]
        found += [f"{ruleset}/{name}" for name in PER_RULESET_FILES if (sub / name).exists()]
    return found


def prepare_out_dir(out_dir: Path, rulesets: list[str], force: bool) -> None:
    """Create ``out_dir``; refuse one that holds results unless ``force``.

    Each ruleset's folder is made too, never through a symbolic link planted under its name.

    Raises:
        FrayInputError: the folder is a file, a live run writes one of its rulesets'
            folders, it holds results (and no ``force``), a ruleset's folder is a link,
            or it cannot be created.
    """
    for ruleset in rulesets:  # each ruleset's batch holds its own folder's lock
        lock.refuse_if_in_use(out_dir / ruleset)
    found = existing_results(out_dir, rulesets) if out_dir.is_dir() else []
    shown = ", ".join(found[:4]) + (", ..." if len(found) > 4 else "")
    files.claim_out_dir(out_dir, f"results ({shown})" if found else None, force,
                        first="lethality.json")
    for ruleset in rulesets:  # named by fray: made here, never through a planted link
        safefile.make_dir(out_dir / ruleset)


def resume_step(spec: BatchSpec, folder: Path, resume: bool) -> str:
    """What a run of several batches (one per ruleset) does with one of them in ``folder``.

    ``"keep"``: ``resume`` and it finished there; ``"resume"``: it was interrupted there;
    ``"start"``: no ``resume``, or it never started. ``fray compare --resume`` and
    ``fray batch --ruleset all --resume`` go through the rulesets with it.

    Raises:
        FrayInputError: ``folder`` holds a finished batch of something else.
    """
    if not resume:
        return "start"
    if finished_here(spec, folder):
        return "keep"
    return "resume" if files.read_state(folder) is not None else "start"


def ruleset_tally(spec: BatchSpec, sub: Path, progress: ProgressFactory, resume: bool
                  ) -> Tally:
    """One ruleset's batch in ``sub``: run (or resumed), or on ``resume`` a finished one."""
    safefile.make_dir(sub)  # a link planted since the start is refused, not written through
    step = resume_step(spec, sub, resume)
    if step == "keep":
        return fold_csv(sub / "encounters.csv", spec.scenario, spec.ruleset, spec.seed)
    with progress(f"{spec.scenario.slug} [{spec.ruleset}]") as advance:
        return run_tally(spec, sub, advance, resume=step == "resume")


def run_compare(scenario: Scenario, rulesets: list[str], n: int, out_dir: Path, *,
                seed: int = 1, workers: int = 1, charts: bool = True,
                progress: ProgressFactory | None = None, resume: bool = False,
                html: bool = False, precision: float = 0.0,
                ready: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run the scenario under each ruleset and write every output; return ``lethality.json``.

    ``out_dir`` must already be prepared (``prepare_out_dir``). ``progress(label)`` gives a
    context manager yielding the per-batch progress callback. With ``resume``, a ruleset
    whose batch finished with the same seed and size is kept, an interrupted one resumes.
    With ``html``, ``report.html`` too. With ``precision``, each ruleset runs until sure
    (``sim.batch.precision``), ``n`` the cap. ``ready(doc)`` is called once the numbers
    are known and before anything is drawn (the answer is printed before the charts).
    """
    entries = {}
    for name in rulesets:
        spec = BatchSpec(scenario, name, n, seed, workers, precision=precision)
        tally = ruleset_tally(spec, out_dir / name, progress or silent, resume)
        entries[name] = with_words(tally.lethality())
    doc = document(scenario.slug, n, seed, entries)
    if precision:
        doc["precision"] = precision  # ``encounters`` is then the cap
    doc["scenario_name"] = scenario.name
    doc["scenario_file"] = scenario.source
    doc["members"] = members(scenario)
    doc["max_rounds"] = scenario.max_rounds  # the round limit: the charts mark it
    doc["files"] = {name: {f: f"{name}/{f}" for f in BATCH_FILES} for name in rulesets}
    doc["coverage"] = {name: coverage_block(scenario, name) for name in rulesets}
    if ready is not None:
        ready(doc)
    write_outputs(doc, out_dir, charts=charts, html=html)
    return doc


def write_outputs(doc: dict[str, Any], out_dir: Path, *, charts: bool = True,
                  html: bool = False) -> list[Path]:
    """Write ``lethality.json``, ``report.md`` and (unless ``charts`` is off) the charts.

    With ``html``, also ``report.html``: the report in one file, the charts embedded.
    """
    written = []
    for name, draw in (charts_mod.COMPARE_CHARTS.items() if charts else ()):
        with files.atomic_path(out_dir / name) as tmp:
            draw(doc, tmp)
        written.append(out_dir / name)
    written.append(files.write_json(out_dir / "lethality.json", doc))
    written.append(files.write_text(out_dir / "report.md", report_markdown(doc, charts=charts)))
    if html:
        images = {path.name: path.read_bytes() for path in written if path.suffix == ".png"}
        written.append(files.write_text(out_dir / "report.html", compare_html(doc, images)))
    return written

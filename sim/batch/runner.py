"""Many encounters: deterministic seeds, chunks on an executor, streamed, resumable output.

Encounter ``i`` always runs with ``encounter_seed(seed, i)``; chunks of consecutive indices
come back in index order from any executor, so ``encounters.csv`` and ``summary.json`` are
identical for any number of workers, on a local pool or a Dask cluster.

Files in the output folder while a batch runs:

- ``.encounters.csv.part``: rows of every finished chunk, appended in index order;
- ``.batch-state.json``: what the batch is (scenario digest, ruleset, seed, n) and how many
  rows and bytes of the ``.part`` file are complete, rewritten atomically after each chunk.

At the end the ``.part`` file is renamed to ``encounters.csv``, ``summary.json`` is written
(atomically, ``sim.batch.files``) and the state file removed. A batch stopped by Ctrl-C or killed
leaves no ``encounters.csv`` or ``summary.json`` at all, only the two hidden files (a Ctrl-C
first keeps the chunks already started: ``_stream``), and ``resume=True`` continues from the
last complete chunk (cutting off any half-written tail).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from sim import registry
from sim.batch import examples, executors, files, lock
from sim.batch.chunks import (
    ENCOUNTERS,
    ChunkResult,
    Work,
    csv_text,
    fold_chunk,
    fold_rows,
    run_chunk_packed,
)
from sim.batch.files import STATE
from sim.batch.precision import BLOCK, ChunkPlan, stop_reason
from sim.batch.stops import stops_held
from sim.core.seeds import encounter_seed
from sim.results.tally import Tally
from sim.scenario.errors import FrayInputError


class Subject(Protocol):
    """What a batch runs: a scenario, or a campaign (``work`` says which)."""

    @property
    def slug(self) -> str:
        """The file's stem, naming the outputs."""
        ...


S = TypeVar("S", bound=Subject)


@dataclass(frozen=True)
class BatchSpec(Generic[S]):
    """What to run and where.

    Attributes:
        scenario, ruleset, n, seed: the batch itself (these decide the output);
            ``scenario`` is a campaign when ``work`` is a campaign's (``BatchSpec[Campaign]``).
        workers: processes (local) or the window of chunks in flight (dask).
        chunk_size: encounters per chunk; 0 picks one from ``n`` and ``workers``.
        executor: ``local`` (a process pool; in-process for one worker) or ``dask``.
        scheduler: for dask, ``tcp://host:port`` or ``local`` (a new LocalCluster).
        precision: run until every watched interval is within +-precision
            (``sim.batch.precision``), ``n`` being the cap; 0 runs all ``n``.
    """

    scenario: S
    ruleset: str
    n: int
    seed: int = 1
    workers: int = 1
    chunk_size: int = 0
    executor: str = "local"
    scheduler: str = "local"
    work: Work = ENCOUNTERS
    precision: float = 0.0

    def chunks(self, start: int = 0) -> list[tuple[int, int]] | ChunkPlan:
        """``(start, stop)`` index ranges covering ``start..n-1``.

        Run until sure, a ``ChunkPlan`` of chunks whose size does not depend on the workers
        (the stopping decision is made at their boundaries).
        """
        if self.precision:
            return ChunkPlan(start, self.n, self.chunk_size or BLOCK, self.precision)
        size = self.chunk_size or max(1, min(1000, -(-self.n // (self.workers * 8))))
        return [(a, min(a + size, self.n)) for a in range(start, self.n, size)]

    def identity(self) -> dict[str, Any]:
        """What a resumed batch must share with the interrupted one: the code too."""
        return {self.work.subject_key: self.scenario.slug,
                "digest": self.work.digest(self.scenario),
                "ruleset": self.ruleset, "seed": self.seed, "n": self.n,
                **({"precision": self.precision, "chunk": self.chunk_size or BLOCK}
                   if self.precision else {}),
                "code": code_digest()}


@cache
def code_digest() -> str:
    """A digest of fray's own code, every module of ``sim``.

    Rows made by other code may differ (a fix changes fights or a column's meaning), so a
    batch interrupted under one version is not resumed under another: the result would be
    neither version's.
    """
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def finished_here(spec: BatchSpec, folder: Path) -> bool:
    """Whether ``folder`` holds this batch, finished; a different finished batch is an error.

    What a finished batch records (``summary.json``): scenario, ruleset, seed and size.
    None of a user's results is replaced by a resume: a mismatch is bad input (exit 2).

    Raises:
        FrayInputError: ``folder`` holds a finished batch of something else.
    """
    summary = files.finished_summary(folder, spec.work.rows_file)
    if summary is None:
        return False
    want = {spec.work.subject_key: spec.scenario.slug, "ruleset": spec.ruleset,
            "seed": spec.seed, spec.work.count_key: spec.n}
    if spec.precision:  # run until sure: as many as it took, up to the cap
        block = summary.get("precision") or {}
        want = {**want, spec.work.count_key: summary.get(spec.work.count_key),
                "precision": {**block, "width": spec.precision, "cap": spec.n}}
    if "digest" in summary:  # what the subject says (older summaries do not record it)
        want["digest"] = spec.work.digest(spec.scenario)
    differ = [k for k in want if summary.get(k) != want[k]]
    if differ:
        detail = ", ".join(f"{k}: {summary.get(k)!r} there, {want[k]!r} now" if k != "digest"
                           else f"the {spec.work.subject_key} file's contents changed"
                           for k in differ)
        raise FrayInputError(str(folder), [("", f"holds a finished batch that differs "
                                             f"({detail}); --resume keeps finished results: "
                                             f"choose another --out, or rerun with --force "
                                             f"instead of --resume to replace them")])
    return True


def iter_rows(spec: BatchSpec, start: int = 0, fn: Callable[..., Any] = run_chunk_packed,
              chunks: Any = None) -> executors.Ordered:
    """``fn(work, subject, ruleset, seed, a, b)`` for each chunk, in index order.

    The chunks (``spec.chunks(start)`` unless given) run on the spec's executor; use it in
    a ``with`` block (it shuts the workers down) and, after a Ctrl-C, ``drain`` it for the
    chunks that finish while it waits.
    """
    chunks = spec.chunks(start) if chunks is None else chunks
    args = (spec.work, spec.scenario, spec.ruleset, spec.seed)
    if spec.executor == "dask":
        try:  # imported here, not at the top: dask is an optional extra and slow to import
            from sim.batch.cluster import run_dask
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise FrayInputError("--executor dask", [("", "Dask is not installed; install "
                                 "the extra with: pip install -e '.[dask]'")]) from exc
        return run_dask(fn, args, chunks, spec.scheduler, spec.workers)
    if spec.workers <= 1:
        return executors.run_serial(lambda a, b: fn(*args, a, b), chunks)
    _warm(spec.ruleset)
    return executors.run_local(fn, args, chunks, spec.workers)


def _warm(ruleset: str) -> None:
    """Import the ruleset and the AI here, before the pool's workers start.

    Forked workers start with what this process has imported: otherwise each worker of
    each pool (one pool per ruleset of a comparison) imports them again, a few tenths of a
    CPU-second apiece. The scenario loader no longer imports every ruleset to check a file.
    """
    registry.get(ruleset)
    registry.mind()


Progress = Callable[[int], None]


def run_batch(spec: BatchSpec, out_dir: Path | None, progress: Progress | None = None, *,
              resume: bool = False) -> dict[str, Any]:
    """Run a batch and return its ``summary.json`` document (see ``run_tally``)."""
    return summary_of(spec, run_tally(spec, out_dir, progress, resume=resume))


def run_tally(spec: BatchSpec, out_dir: Path | None, progress: Progress | None = None, *,
              resume: bool = False) -> Any:
    """Run a batch and return its tally (``summary()``, ``lethality()``).

    With ``out_dir``, rows stream to disk as chunks finish and the final files appear only
    when the batch is complete (see the module docstring). ``progress`` is called with the
    number of encounters just finished (and once with those recovered by a resume).

    Raises:
        FrayInputError: ``resume`` with no interrupted batch in ``out_dir``, or one that
            does not match ``spec``.
        KeyboardInterrupt: after keeping every finished chunk on disk.
    """
    progress = progress or (lambda _n: None)
    tally = spec.work.new_tally(spec.scenario, spec.ruleset, spec.seed)
    if out_dir is None:
        plan = spec.chunks(0)
        with iter_rows(spec, 0, fold_chunk, plan) as chunks:
            for chunk in chunks:
                tally.merge(chunk)
                progress(chunk.count)
                if _enough(plan, tally):
                    chunks.finish()
                    break
        return tally
    out_dir.mkdir(parents=True, exist_ok=True)
    with lock.locked(out_dir):  # one writer per folder
        done, size, digest = 0, 0, hashlib.sha256()
        if resume:
            done, size, digest = _recover(spec, out_dir, tally)
            if done:
                progress(done)
        else:
            files.clear_state(out_dir)  # a batch started over (--force) forgets the old one
        _stream(spec, out_dir, tally, progress, done, size, digest)
        # summary.json before the rows are published: a write that fails (a full disk)
        # leaves the part file and its checkpoint, which --resume finishes
        files.write_json(out_dir / "summary.json", summary_of(spec, tally))
        files.publish_rows(out_dir, spec.work.rows_file)
        files.clear_state(out_dir)
    return tally


def summary_of(spec: BatchSpec, tally: Any) -> dict[str, Any]:
    """The batch's ``summary.json``: the tally's, and run until sure, how it stopped.

    A batch of encounters tells its example fights (``sim.batch.examples``): fought again
    once per tally, whatever asks for its summary after.
    """
    doc = tally.summary()
    if doc.get("examples") and spec.work is ENCOUNTERS:
        kept = getattr(tally, "told_examples", None)
        if kept is None or [e["seed"] for e in kept] != [e["seed"] for e in doc["examples"]]:
            kept = examples.told(spec.scenario, spec.ruleset, doc["examples"])
            tally.told_examples = kept
        doc["examples"] = kept
    if spec.work.coverage is not None:
        doc["coverage"] = spec.work.coverage(spec.scenario, spec.ruleset)
    if spec.precision:
        doc["precision"] = stop_reason(tally.count, spec.n, tally, spec.precision)
    return doc


def _enough(plan: Any, tally: Any) -> bool:
    """After a chunk: whether a batch run until sure is precise enough to stop."""
    return isinstance(plan, ChunkPlan) and plan.check(tally)


def _stream(spec: BatchSpec, out_dir: Path, tally: Tally, progress: Progress, done: int,
            size: int, digest: Any) -> None:
    """Append the chunks from ``done`` on to the ``.part`` file, a checkpoint after each.

    ``size`` is the number of bytes of it to keep (0: a new file, starting with the header),
    ``digest`` the SHA-256 of those bytes, which every checkpoint records for what it keeps.
    Stopped by Ctrl-C, it keeps the chunks that finish while the running ones are waited
    for (those that follow the kept rows without a gap), then lets the interrupt go on.
    """
    part = out_dir / files.part_file(spec.work.rows_file)
    handle = files.open_part(part, size)
    pending: dict[int, Any] = {}  # bytes kept -> their digest, once the checkpoint may say so

    plan = spec.chunks(done)

    def keep(chunk: ChunkResult) -> int:
        with stops_held():  # written, checkpointed and folded whole, or not begun
            return _keep(chunk)

    def _keep(chunk: ChunkResult) -> int:
        nonlocal done, size, digest
        if isinstance(plan, ChunkPlan) and plan.stopped:  # run until sure, and sure
            return 0
        grown = digest.copy()
        grown.update(chunk.text)
        end = size + handle.write(chunk.text)
        handle.flush()
        pending.clear()  # the digests on either side of this checkpoint (memory stays flat)
        pending.update({size: digest, end: grown})
        files.write_state(out_dir, {**spec.identity(), "rows": done + chunk.rows, "bytes": end,
                                    "sha256": grown.hexdigest()})
        done, size, digest = done + chunk.rows, end, grown  # only once the checkpoint says so
        tally.merge(chunk.tally)
        return chunk.rows

    try:
        handle.truncate(size)  # drop a half-written tail left by a kill
        handle.seek(size)
        if not size:
            header = csv_text([], spec.work.columns(spec.scenario), header=True)
            size = handle.write(header)
            digest.update(header)
        if done and _enough(plan, tally):  # resumed after its last chunk: nothing to run
            handle.close()
            return
        with iter_rows(spec, done, run_chunk_packed, plan) as chunks:
            try:
                for chunk in chunks:
                    progress(keep(chunk))
                    if _enough(plan, tally):
                        chunks.finish()
                        break
            except KeyboardInterrupt:
                try:  # a second Ctrl-C at any moment of the stop: the workers stop at once
                    state = files.read_state(out_dir)  # the checkpoint is the truth: the
                    if state is not None:  # stop may have cut ``keep`` short either side
                        done, size = state["rows"], state["bytes"]
                        digest = pending.get(size, digest)
                    handle.seek(size)  # a chunk cut off while written: its bytes go (a
                    handle.truncate()  # resume reads only up to the checkpoint anyway)
                    for chunk in chunks.drain(done):
                        keep(chunk)
                except KeyboardInterrupt:
                    chunks.kill()
                    raise
                raise
    except BaseException:
        handle.close()
        if not files.has_state(out_dir):  # not one chunk finished: nothing worth keeping
            part.unlink(missing_ok=True)
        raise
    handle.close()


def _recover(spec: BatchSpec, out_dir: Path, tally: Tally) -> tuple[int, int, Any]:
    """Fold the complete rows of an interrupted batch; return ``(rows, bytes, digest)`` kept.

    The kept bytes must have the checkpoint's digest, and every row the index and the seed
    it was run with; anything else is refused ("cannot resume: ...", exit 2).
    """
    state = files.read_state(out_dir)
    part = out_dir / files.part_file(spec.work.rows_file)
    final = out_dir / spec.work.rows_file
    if state is not None and not os.path.lexists(part) and final.is_file() \
            and not final.is_symlink():  # stopped after publishing the rows, before the end
        os.replace(final, part)
    if state is None:
        raise FrayInputError(str(out_dir), [("", "no interrupted batch to resume here "
                                             f"(no {STATE})")])
    if not os.path.lexists(part):
        raise files.cannot_resume(out_dir, f"its checkpoint is there but its rows "
                                  f"({part.name}) are not")
    want = spec.identity()
    differ = [k for k in want if state.get(k) != want[k]]
    if differ == ["code"]:
        raise FrayInputError(str(out_dir), [("", "the interrupted batch was run by another "
                                             "version of fray (its code changed since), whose "
                                             "rows may differ; start over with --force")])
    if differ:
        detail = ", ".join(f"{k}: was {state.get(k)!r}, now {want[k]!r}" for k in differ
                           if k != "code")
        raise FrayInputError(str(out_dir), [("", f"the interrupted batch differs ({detail}); "
                                             "resume with the same scenario and options")])
    digest = files.kept_digest(part, state)
    rows = files.checked_rows(part, state, spec.work.columns(spec.scenario))
    try:
        fold_rows(tally, _in_order(rows, spec.seed, part))
    except (ValueError, TypeError, KeyError, ArithmeticError) as exc:
        raise files.cannot_resume(out_dir, f"a row of {part.name} holds a value no batch "
                                  f"writes ({type(exc).__name__}: {str(exc)[:80]})") from None
    files.KEPT.append(out_dir)  # a checkpoint this run resumes: kept if it fails
    return state["rows"], state["bytes"], digest


def _in_order(rows: Iterable[dict[str, str]], seed: int, part: Path
              ) -> Iterator[dict[str, str]]:
    """``rows``, each checked to be the next index, run with that index's seed."""
    for k, row in enumerate(rows):
        if row["index"] != str(k) or row["seed"] != str(encounter_seed(seed, k)):
            raise files.cannot_resume(part.parent, f"row {k + 1} of {part.name} is not "
                                      f"encounter {k} with its seed (index {row['index'][:20]!r},"
                                      f" seed {row['seed'][:24]!r}): rows were moved or edited")
        yield row

"""Files of a run: the output-folder policy, atomic writes, the resume state.

Every finished file is written atomically: to a hidden temporary file next to it
(``.NAME.tmp``), then renamed over the target with ``os.replace``, so a reader (or a
killed run) never sees half a file, and a failed write leaves no temporary file behind.
``atomic_path`` and ``atomic_open`` serve streamed writers (csv, parquet);
``write_text``, ``write_bytes`` and ``write_json`` whole documents.

The folder of a batch (``fray batch --out DIR``, or ``DIR/<ruleset>`` under ``fray compare``)
holds ``RESULT_FILES`` when finished; while it runs, ``PART`` (the rows of every finished
chunk) and ``STATE`` (what the batch is and how much of ``PART`` is complete).
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from sim.batch import lock
from sim.scenario import safefile
from sim.scenario.errors import FrayInputError

RESULT_FILES = ("summary.json", "encounters.csv", "campaign.csv")  # campaign.csv: campaigns
PART = ".encounters.csv.part"  # the rows of an unfinished batch (part_file names any)
STATE = ".batch-state.json"
MAX_SUMMARY_BYTES = 50_000_000  # a summary.json: 200 fighters' statistics, far below
RESULTS_ROOT = Path("results")  # default home of outputs, relative to where fray runs


# ---------------------------------------------------------------------------- atomic writes
def temporary(path: Path) -> Path:
    """A new hidden temporary file beside ``path`` to write it to before the rename.

    Made by ``tempfile.mkstemp`` (``O_EXCL``, a name of its own): two writers never share
    one, and a link planted under a guessable name is never followed.
    """
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.fchmod(fd, 0o666 & ~_UMASK)  # as open() would make it (mkstemp makes it private)
    os.close(fd)
    return Path(name)


_UMASK = os.umask(0o022)
os.umask(_UMASK)  # read once: the process's file-creation mask


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path to write; on success it replaces ``path``, on failure it goes.

    For writers that open the file themselves (``pyarrow.parquet.ParquetWriter``).
    """
    tmp = temporary(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename is None:
            exc.filename = str(path)  # a full disk's message names the file it stopped
        raise


@contextlib.contextmanager
def atomic_open(path: Path, mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """``open(path, mode)`` for a streamed writer, published atomically when it closes."""
    with atomic_path(path) as tmp, open(tmp, mode, opener=_no_link, **kwargs) as handle:
        yield handle


@contextlib.contextmanager
def atomic_files(folder: Path) -> Iterator[Path]:
    """Yield a new hidden folder in ``folder`` to write files to, published on success.

    Each file then replaces its namesake in ``folder`` (``os.replace``: a link planted there
    is swapped, never written through); the hidden folder goes, whatever happens.
    """
    stage = Path(tempfile.mkdtemp(prefix=".fray-", suffix=".tmp", dir=folder))
    try:
        yield stage
        for made in sorted(stage.iterdir()):
            os.replace(made, folder / made.name)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _no_link(name: str, flags: int) -> int:
    """``open``'s opener for a temporary file: a link swapped in for it is not followed."""
    return os.open(name, flags | getattr(os, "O_NOFOLLOW", 0), 0o666)


def write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically."""
    with atomic_open(path, "wb") as handle:
        handle.write(data)
    return path


def write_text(path: Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    return write_bytes(path, text.encode())


def write_json(path: Path, data: Any) -> Path:
    """Write ``data`` as indented JSON with a final newline, atomically."""
    return write_text(path, json.dumps(data, indent=2) + "\n")


def write_csv(path: Path, rows: list[dict[str, Any]]) -> Path:
    """Write rows as CSV atomically; the header is every key, in first-seen order."""
    fields = list(dict.fromkeys(key for row in rows for key in row))
    with atomic_open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


# ---------------------------------------------------------------------------- folders
def default_out_dir(slug: str, label: str) -> Path:
    """``results/<scenario>-<label>-<time>``: where a run writes without ``--out``.

    The folder is made here, atomically, so two runs started in the same second never
    share one: the second gets ``-2`` (``-3``, ...) after the time.
    """
    base = RESULTS_ROOT / f"{slug}-{label}-{time.strftime('%Y%m%d-%H%M%S')}"
    make_out_dir(RESULTS_ROOT)
    for k in range(1, 1000):
        path = base if k == 1 else base.with_name(f"{base.name}-{k}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        except OSError as exc:
            raise FrayInputError(str(path), [("", f"cannot create the output folder: "
                                              f"{exc.strerror}")]) from None
        return path
    raise FrayInputError(str(base), [("", "a thousand runs started this second; use --out")])


def batch_targets(base: Path, rulesets: list[str]) -> dict[str, Path]:
    """Where each ruleset's batch goes: ``base`` itself, or ``base/<ruleset>`` for several."""
    return {name: (base / name if len(rulesets) > 1 else base) for name in rulesets}


def results_in(folder: Path) -> list[str]:
    """What a batch in ``folder`` would replace.

    Finished results, or the checkpoint of an interrupted batch (``.batch-state.json``).
    """
    found = [name for name in RESULT_FILES if (folder / name).exists()]
    if (folder / STATE).exists():
        found.append(STATE)
    return found


def complete(folder: Path) -> bool:
    """Whether ``folder`` holds a finished batch (results and no interrupted one)."""
    found = results_in(folder)
    return bool(found) and STATE not in found


def finished_summary(folder: Path, rows_file: str = "encounters.csv") -> dict[str, Any] | None:
    """The ``summary.json`` of a finished batch in ``folder``, or None (none, or unreadable)."""
    if not complete(folder) or not (folder / rows_file).exists():
        return None
    try:
        summary = safefile.read_json(folder / "summary.json", MAX_SUMMARY_BYTES, nofollow=True,
                                     what="summary")
    except FrayInputError:
        return None
    return summary if isinstance(summary, dict) else None


def make_out_dir(folder: Path) -> None:
    """Create an output folder; a folder that cannot be made is bad input (exit 2)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FrayInputError(str(folder), [("", f"cannot create the output folder: "
                                            f"{exc.strerror}")]) from None


def claim_out_dir(folder: Path, found: str | None, force: bool,
                  first: str = "summary.json") -> None:
    """Create ``folder`` for a run, unless it holds ``found`` (results) and not ``force``.

    Called before the first fight, so nothing is run in vain: ``first`` (the first file the
    run writes there) is tried as the write will make it (``check_writable``).

    Raises:
        FrayInputError: ``folder`` is a file, holds results (and no ``force``), cannot
            be created, or cannot be written (read-only, full).
    """
    if folder.exists() and not folder.is_dir():
        raise FrayInputError(str(folder), [("", "exists and is not a folder; choose another "
                                            "--out")])
    lock.refuse_if_in_use(folder)
    if found and not force:
        raise FrayInputError(str(folder), [("", f"folder already holds {found}; use --force "
                                            "to overwrite, or choose another --out")])
    make_out_dir(folder)
    check_writable(folder / first)


def claim_batch_dir(folder: Path, force: bool, writes: tuple[str, ...] = ()) -> None:
    """``claim_out_dir`` for a batch: an interrupted batch is pointed to ``--resume``.

    ``writes``: the other files the run writes there (a campaign's ``survival.png``),
    refused as the results are: nothing a user keeps there is replaced without ``--force``.
    """
    found = results_in(folder)
    if STATE in found and not force:
        lock.refuse_if_in_use(folder)  # a live batch's checkpoint is not an interrupted batch
        raise FrayInputError(str(folder), [("", "folder holds an interrupted batch; use "
                                            "--resume to continue it, or --force to start "
                                            "over")])
    held = found + [name for name in writes if name not in found and (folder / name).exists()]
    claim_out_dir(folder, f"results ({', '.join(held)})" if held else None, force)


def claim_out_file(path: Path, force: bool) -> None:
    """Refuse to overwrite a file the user named (``--output``) unless ``force``.

    Never, even with ``force``: a symbolic link (whose target the user did not name), a
    folder or a device; only a regular file is replaced.
    """
    if path.is_symlink():
        raise FrayInputError(str(path), [("", "is a symbolic link; name the file itself")])
    if path.exists() and not path.is_file():
        raise FrayInputError(str(path), [("", "exists and is not a regular file (a folder "
                                          "or a device); name a file")])
    if path.exists() and not force:
        raise FrayInputError(str(path), [("", "file exists; use --force to overwrite it")])


def check_writable(path: Path) -> None:
    """Refuse ``path`` now if a file cannot be written there (before a play, not after it).

    A temporary file is made beside it (as the write will), a block written to it (a full
    disk refuses that), and removed at once.

    Raises:
        FrayInputError: its folder is missing, read-only or full.
    """
    try:
        tmp = temporary(path)
        try:
            with open(tmp, "wb", opener=_no_link) as handle:
                handle.write(bytes(4096))
        finally:
            tmp.unlink()
    except OSError as exc:
        raise FrayInputError(str(path), [("", f"cannot write: {exc.strerror}")]) from None


def write_out_file(path: Path, text: str) -> Path:
    """``write_text`` to a file the user named; a missing folder or no permission is bad input."""
    try:
        return write_text(path, text)
    except OSError as exc:
        raise FrayInputError(str(path), [("", f"cannot write: {exc.strerror}")]) from None


# ---------------------------------------------------------------------------- resume state
MAX_STATE_BYTES = 1_000_000  # a checkpoint is a few hundred bytes
MAX_PART_BYTES = 1 << 50  # no cap that a real batch could reach: the checks are the point
KEPT: list[Path] = []  # folders where this process left a checkpoint: what an error can name


def cannot_resume(folder: Path, why: str) -> FrayInputError:
    """The refusal of a resume whose kept files are damaged or another batch's (exit 2)."""
    return FrayInputError(str(folder), [("", f"cannot resume: {why}; start over with "
                                              "--force")])


def has_state(folder: Path) -> bool:
    """Whether ``folder`` holds a checkpoint (sound or not: ``read_state`` judges it)."""
    return os.path.lexists(folder / STATE)


def read_state(folder: Path) -> dict[str, Any] | None:
    """The checkpoint of an interrupted batch in ``folder``, or None when there is none.

    Read through ``safefile`` (no link followed, a regular file, a size and depth cap) and
    checked for the fields a resume trusts.

    Raises:
        FrayInputError: "cannot resume: ..." for a checkpoint that is damaged.
    """
    path = folder / STATE
    if not has_state(folder):
        return None
    try:
        state = safefile.read_json(path, MAX_STATE_BYTES, nofollow=True, what="checkpoint")
    except FrayInputError as exc:
        raise cannot_resume(folder, f"{STATE} is damaged ({exc.problems[0][1]})") from None
    if not isinstance(state, dict):
        raise cannot_resume(folder, f"{STATE} is damaged (not a JSON object)")
    for key in ("rows", "bytes"):
        if type(state.get(key)) is not int or state[key] < 0:
            raise cannot_resume(folder, f"{STATE} is damaged ({key!r} is not a count)")
    if not isinstance(state.get("sha256"), str):
        raise cannot_resume(folder, f"{STATE} is damaged (no digest of the kept rows)")
    return state


def write_state(folder: Path, state: dict[str, Any]) -> None:
    """Record how far the batch in ``folder`` got (atomically, after every chunk)."""
    write_json(folder / STATE, state)
    if folder not in KEPT:
        KEPT.append(folder)


def clear_state(folder: Path) -> None:
    """Forget the state of a batch that finished (or that starts over)."""
    (folder / STATE).unlink(missing_ok=True)
    if folder in KEPT:
        KEPT.remove(folder)


def open_part(part: Path, size: int) -> IO[bytes]:
    """The part file to write rows to: a new one (``size`` 0), or the kept one to continue.

    A new one is made with ``O_EXCL | O_NOFOLLOW`` (a link planted under its name is removed,
    never written through); a kept one is opened without following a link, and only if it
    is a regular file (``safefile``).
    """
    if not size:
        return safefile.create_new(part)
    return safefile.open_existing(part, MAX_PART_BYTES, "part file")


def kept_digest(part: Path, state: dict[str, Any]) -> Any:
    """The SHA-256 of the kept bytes of ``part``, checked against the checkpoint's.

    Returned (a ``hashlib`` object) so the batch goes on hashing what it appends.

    Raises:
        FrayInputError: "cannot resume: ..." for a part file that is a link or not a
            regular file, shorter than the checkpoint says, or whose kept bytes changed.
    """
    try:
        handle = safefile.open_read(part, MAX_PART_BYTES, nofollow=True, what="part file")
    except FrayInputError as exc:
        raise cannot_resume(part.parent, f"{part.name}: {exc.problems[0][1]}") from None
    digest = hashlib.sha256()
    with handle:
        left = state["bytes"]
        while left > 0:
            block = handle.read(min(left, 1 << 14))  # small blocks: memory stays flat
            if not block:
                raise cannot_resume(part.parent, f"{part.name} holds {state['bytes'] - left} "
                                    f"bytes, fewer than the {state['bytes']} its checkpoint "
                                    "recorded")
            digest.update(block)
            left -= len(block)
    if digest.hexdigest() != state["sha256"]:
        raise cannot_resume(part.parent, f"the rows kept in {part.name} changed since its "
                            "checkpoint (their digest differs): the file was edited or "
                            "damaged")
    return digest


def checked_rows(part: Path, state: dict[str, Any], columns: list[str]
                 ) -> Iterator[dict[str, str]]:
    """The complete rows of an interrupted batch's part file, checked against its checkpoint.

    Streamed: one line in memory at a time, whatever the size of the file. Refused with
    the reason (``cannot_resume``, before the first row for a header of other columns,
    at the row for a row cut short or of another width, after the last for a row count
    that differs: what was folded from them is then thrown away): text that is not UTF-8
    or holds NUL bytes, a checkpoint that ends inside a row, or a row count that does not
    match. ``kept_digest`` has checked the bytes themselves first.
    """
    def refuse(why: str) -> FrayInputError:
        return cannot_resume(part.parent, why)

    def lines(handle: IO[bytes]) -> Iterator[str]:  # up to the checkpoint's byte
        left = state["bytes"]
        while left > 0:
            line = handle.readline(left)
            if not line:
                return
            left -= len(line)
            if not line.endswith(b"\n"):
                raise refuse(f"its checkpoint ends inside a row of {part.name}")
            try:
                yield line.decode()
            except UnicodeDecodeError:
                raise refuse(f"{part.name} is not the text it should be") from None

    with safefile.open_read(part, MAX_PART_BYTES, nofollow=True, what="part file") as handle:
        text = lines(handle)
        try:
            if next(csv.reader(text), None) != columns:
                raise refuse(f"{part.name} has other columns than this batch writes")
            rows = 0
            for values in csv.reader(text):
                if len(values) != len(columns):
                    raise refuse(f"row {rows + 1} of {part.name} has {len(values)} values, "
                                 f"not {len(columns)}")
                rows += 1
                yield dict(zip(columns, values, strict=True))
        except csv.Error as exc:
            raise refuse(f"{part.name} is not the CSV it should be ({exc})") from None
    if rows != state["rows"]:
        raise refuse(f"{part.name} holds {rows} complete rows, its checkpoint {state['rows']}")


def part_file(rows_file: str = "encounters.csv") -> str:
    """The hidden file an unfinished batch writes ``rows_file``'s rows to."""
    return f".{rows_file}.part"


def publish_rows(folder: Path, name: str = "encounters.csv") -> Path:
    """Rename the finished part file to ``name`` (atomic, like every write)."""
    final, part = folder / name, folder / part_file(name)
    if not stat.S_ISREG(part.lstat().st_mode):  # swapped for a link while the batch ran
        raise FrayInputError(str(part), [("", "is no longer the file this batch wrote (a link "
                                              "or another kind of file); nothing published")])
    os.replace(part, final)
    return final


# ---------------------------------------------------------------------------- rows files
def read_rows_file(path: Path) -> IO[str]:
    """A finished rows file (``encounters.csv``) of fray's own, opened to read as CSV text.

    Through ``safefile``: no link followed, a regular file only.
    """
    raw = safefile.open_read(path, MAX_PART_BYTES, nofollow=True, what="rows file")
    return io.TextIOWrapper(raw, encoding="utf-8", newline="")
